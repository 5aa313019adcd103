//! Exact work that can be stopped. Symbolica's normal form, gcd and substitution have no abort
//! hook: a blow-up inside one (a dropped transpose in the attention module asked for a 16 GB
//! expression) cannot be interrupted in-thread. So each exact job runs in a forked child of
//! this process, under an address-space limit, and is killed at its deadline; only its answer,
//! serialized, comes back through a pipe.
//!
//! Symbolica's restricted licence allows one Symbolica thread per user at a time, and a forked
//! child takes its own permit: so the process that forks never touches Symbolica itself (every
//! exact computation of `check` goes through [`isolated`]), children run one after the other,
//! and a job started inside a child runs inline there. Where this process already used
//! Symbolica directly ([`inline`], the unit tests), jobs run inline too, unbounded as before.

use serde::{de::DeserializeOwned, Serialize};
use std::io::Read;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// The address space a job may add to the forking process's: past it, allocation fails and
/// the child stops (its answer is then [`Stopped::Memory`]).
pub const MEMORY_LIMIT_BYTES: u64 = 2 << 30;

/// Set in a child: it holds the Symbolica permit, so its own jobs run inline.
static IN_CHILD: AtomicBool = AtomicBool::new(false);
/// Set where this process used Symbolica directly: forking would start a second permit holder.
static USED_INLINE: AtomicBool = AtomicBool::new(false);

/// Workers this process has forked (for `--verbose`, and the test that a chapter needing no
/// exact work starts none).
static WORKERS_STARTED: AtomicUsize = AtomicUsize::new(0);

/// How many workers this process has forked so far.
pub fn workers_started() -> usize {
    WORKERS_STARTED.load(Ordering::SeqCst)
}

/// Why an isolated job gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stopped {
    /// Killed at its deadline.
    Deadline,
    /// It ran out of its address space (or was killed by a signal on the way).
    Memory,
    /// It could not be started (no fork, no pipe).
    Unavailable,
}

/// Runs `job` on this thread with Symbolica, unbounded, and marks the process as using
/// Symbolica directly (later [`isolated`] jobs then run inline too).
pub fn inline<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    USED_INLINE.store(true, Ordering::SeqCst);
    super::worker::run(job)
}

/// Runs `job` in a forked child under [`MEMORY_LIMIT_BYTES`], killed at `deadline`; its
/// answer comes back serialized. Inline where forking is not possible or not safe (see the
/// module's doc).
pub fn isolated<T: Serialize + DeserializeOwned>(deadline: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    if IN_CHILD.load(Ordering::SeqCst) || USED_INLINE.load(Ordering::SeqCst) || !cfg!(unix) {
        return Ok(job());
    }
    fork_and_wait(deadline, job)
}

#[cfg(unix)]
fn fork_and_wait<T: Serialize + DeserializeOwned>(deadline: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    use std::os::fd::FromRawFd;
    let mut fds = [0i32; 2];
    // SAFETY: `pipe` writes two descriptors into the array it is given.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return Err(Stopped::Unavailable);
    }
    let (read_fd, write_fd) = (fds[0], fds[1]);
    let limit = address_space_in_use().saturating_add(MEMORY_LIMIT_BYTES);
    // SAFETY: the child only runs this job (allocation is fork-safe in glibc; no lock another
    // thread of ours holds is taken on the way) and leaves with `_exit`, never returning.
    let pid = unsafe { libc::fork() };
    if pid < 0 {
        // SAFETY: both descriptors were just opened by `pipe`.
        unsafe {
            libc::close(read_fd);
            libc::close(write_fd);
        }
        return Err(Stopped::Unavailable);
    }
    if pid > 0 {
        WORKERS_STARTED.fetch_add(1, Ordering::SeqCst);
    }
    if pid == 0 {
        IN_CHILD.store(true, Ordering::SeqCst);
        // SAFETY: plain system calls on values of this child.
        unsafe {
            libc::close(read_fd);
            let rlimit = libc::rlimit { rlim_cur: limit, rlim_max: limit };
            libc::setrlimit(libc::RLIMIT_AS, &rlimit);
        }
        let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
        let code = match answer.ok().and_then(|a| serde_json::to_vec(&a).ok()) {
            Some(bytes) => {
                // SAFETY: the write end is ours; a short write is retried.
                let mut written = 0;
                while written < bytes.len() {
                    let n = unsafe { libc::write(write_fd, bytes[written..].as_ptr().cast(), bytes.len() - written) };
                    if n <= 0 {
                        break;
                    }
                    written += n as usize;
                }
                0
            }
            None => 3,
        };
        // SAFETY: leaves the child at once, running no destructor of the parent's state.
        unsafe { libc::_exit(code) }
    }
    // SAFETY: the parent keeps only the read end, which it owns from here on.
    unsafe { libc::close(write_fd) };
    let mut reader = unsafe { std::fs::File::from_raw_fd(read_fd) };
    let mut bytes = Vec::new();
    let mut chunk = [0u8; 64 * 1024];
    let mut killed = false;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            kill(pid);
            killed = true;
            break;
        }
        if !readable(read_fd, left.min(Duration::from_millis(200))) {
            continue;
        }
        match reader.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => bytes.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    let status = reap(pid);
    if killed {
        return Err(Stopped::Deadline);
    }
    match serde_json::from_slice(&bytes) {
        Ok(answer) if status == Some(0) => Ok(answer),
        _ => Err(Stopped::Memory),
    }
}

#[cfg(not(unix))]
fn fork_and_wait<T: Serialize + DeserializeOwned>(_: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    Ok(job())
}

/// Waits up to `timeout` for the descriptor to have something to read (or to be closed).
#[cfg(unix)]
fn readable(fd: i32, timeout: Duration) -> bool {
    let mut poll = libc::pollfd { fd, events: libc::POLLIN, revents: 0 };
    let millis = timeout.as_millis().clamp(1, i32::MAX as u128) as i32;
    // SAFETY: one valid pollfd.
    unsafe { libc::poll(&mut poll, 1, millis) > 0 }
}

#[cfg(unix)]
fn kill(pid: i32) {
    // SAFETY: the child is ours and not yet reaped.
    unsafe { libc::kill(pid, libc::SIGKILL) };
}

/// Reaps the child; its exit code, `None` when a signal ended it.
#[cfg(unix)]
fn reap(pid: i32) -> Option<i32> {
    let mut status = 0;
    loop {
        // SAFETY: waits for our own child.
        let r = unsafe { libc::waitpid(pid, &mut status, 0) };
        if r == pid {
            break;
        }
        if r < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return None;
        }
    }
    libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status))
}

/// The process's address space now, in bytes (`/proc/self/statm`'s first field, in pages).
#[cfg(unix)]
fn address_space_in_use() -> u64 {
    let pages = std::fs::read_to_string("/proc/self/statm")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|p| p.parse::<u64>().ok()))
        .unwrap_or(0);
    // SAFETY: sysconf reads a constant of the system.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) }.max(4096) as u64;
    pages.saturating_mul(page)
}

#[cfg(not(unix))]
fn address_space_in_use() -> u64 {
    0
}
