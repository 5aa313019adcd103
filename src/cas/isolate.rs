//! Exact work that can be stopped. Symbolica's normal form, gcd and substitution have no abort
//! hook: a blow-up inside one (a dropped transpose in the attention module asked for a 16 GB
//! expression) cannot be interrupted in-thread. So exact work runs in a forked child of this
//! process, under an address-space limit, and is killed at its deadline; only plain data,
//! serialized, comes back through a pipe. Two ways:
//!
//! - [`worker`]: a child that carries on the caller's work — claim after claim, saying where it
//!   is — while this process watches the deadlines. Each exact job inside it ([`isolated`]) is an
//!   *attempt* the worker announces, with the job's own deadline and a fresh memory limit; the
//!   rest of a step (a claim) has the step's deadline. Killed, or stopped by its memory limit,
//!   it is replaced by the caller: from the step after, or — where it was stopped inside an
//!   attempt — from the same step again, that attempt ending at once with the same stop
//!   ([`replaying`]), just as a job in a child of its own would have ended. `check` runs a book
//!   this way once it meets exact work ([`trial`] tells it when: exact work asked for inside a
//!   trial is not done but deferred), so a run forks once, not once per exact job.
//! - One job in a child of its own, where [`isolated`] is called outside a worker and a trial
//!   (the mutation self-test).
//!
//! Symbolica's restricted licence allows one Symbolica thread per user at a time, and a forked
//! child takes its own permit: so the process that forks never touches Symbolica itself (every
//! exact computation of `check` goes through [`isolated`]), one child runs at a time, and a
//! child never forks another (it would abort: the permit is in use). Where this process already
//! used Symbolica directly ([`inline`], the unit tests), jobs run inline, unbounded as before.

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
/// In a [`worker`]: the write end of its pipe to the parent (-1 elsewhere).
static WORKER_PIPE: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(-1);
/// In a [`worker`]: the attempts of the step under way so far, and those that end at once
/// ([`replaying`]).
static ATTEMPTS: std::sync::Mutex<(usize, Vec<(usize, Stopped)>)> = std::sync::Mutex::new((0, Vec::new()));
/// Set inside a [`trial`]: exact work is deferred, not done.
static IN_TRIAL: AtomicBool = AtomicBool::new(false);
/// Set when a [`trial`] deferred exact work.
static DEFERRED: AtomicBool = AtomicBool::new(false);

/// Workers this process has forked (for `--verbose`, and the test that a chapter needing no
/// exact work starts none).
static WORKERS_STARTED: AtomicUsize = AtomicUsize::new(0);

/// How many workers this process has forked so far.
pub fn workers_started() -> usize {
    WORKERS_STARTED.load(Ordering::SeqCst)
}

/// Why an isolated job gave no answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Stopped {
    /// Killed at its deadline.
    Deadline,
    /// It ran out of its address space (or was killed by a signal on the way).
    Memory,
    /// It could not be started (no fork, no pipe).
    Unavailable,
    /// Asked for inside a [`trial`]: not done (the trial's work is done again in a [`worker`]).
    Deferred,
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
    let pipe = WORKER_PIPE.load(Ordering::SeqCst);
    if pipe >= 0 {
        return attempt(pipe, deadline, job);
    }
    if runs_inline() {
        return Ok(job());
    }
    if IN_TRIAL.load(Ordering::SeqCst) {
        DEFERRED.store(true, Ordering::SeqCst);
        return Err(Stopped::Deferred);
    }
    fork_and_wait(deadline, job)
}

/// What a worker sends its parent, one JSON line each.
#[derive(Serialize, serde::Deserialize)]
enum Wire<M> {
    /// The caller's message: a step ended, the next begins.
    Step(M),
    /// Attempt `n` of the step begins; it must end within `millis`.
    Attempt { n: usize, millis: u64 },
    /// Attempt `n` ended.
    AttemptEnded { n: usize },
}

/// An exact job inside a worker: announced to the parent with its deadline, under a fresh
/// memory limit, run here; or, where the step is done again after this attempt was stopped,
/// that stop at once.
#[cfg(unix)]
fn attempt<T>(pipe: i32, deadline: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    let n = {
        let mut attempts = ATTEMPTS.lock().unwrap_or_else(|p| p.into_inner());
        attempts.0 += 1;
        let n = attempts.0 - 1;
        if let Some(&(_, stopped)) = attempts.1.iter().find(|(k, _)| *k == n) {
            return Err(stopped);
        }
        n
    };
    if deadline <= Instant::now() {
        return Err(Stopped::Deadline);
    }
    let millis = deadline.saturating_duration_since(Instant::now()).as_millis() as u64;
    send::<()>(pipe, &Wire::Attempt { n, millis });
    limit_memory_from_here();
    let answer = job();
    send::<()>(pipe, &Wire::AttemptEnded { n });
    Ok(answer)
}

#[cfg(not(unix))]
fn attempt<T>(_: i32, _: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    Ok(job())
}

/// In a worker, from now on in this step: its attempts numbered so (from 0, in the order they
/// are made) end at once with these stops, as they ended when the step was last tried.
pub fn replaying(stops: &[(usize, Stopped)]) {
    ATTEMPTS.lock().unwrap_or_else(|p| p.into_inner()).1 = stops.to_vec();
}

/// `fork()`. The callers' child runs only their work, on its copy of the calling thread, and
/// leaves with `_exit`. Allocation is fork-safe in glibc; the other threads of this process hold
/// no lock the child takes: the main thread waits for the CAS thread's answer, and threads that
/// work meanwhile (a book's planning) do so inside [`without_fork`], so the fork waits for
/// their piece of work to end and they wait for it.
#[cfg(unix)]
fn fork() -> i32 {
    let _gate = FORK_GATE.write().unwrap_or_else(|p| p.into_inner());
    // SAFETY: see above.
    unsafe { libc::fork() }
}

/// Held (shared) by work on other threads while the CAS thread may fork ([`without_fork`]),
/// held alone by the fork.
static FORK_GATE: std::sync::RwLock<()> = std::sync::RwLock::new(());

/// Runs `work` (on a thread other than the CAS thread) so that no worker is forked while it
/// runs: a child forked in the middle of it would find the locks it held (the parser's, a
/// statics' initialization, stderr) held for ever. Keep each piece short: a fork waits for it.
pub fn without_fork<T>(work: impl FnOnce() -> T) -> T {
    let _gate = FORK_GATE.read().unwrap_or_else(|p| p.into_inner());
    work()
}

/// Exact work runs on this thread: in a child (which holds the permit), where this process used
/// Symbolica directly, or where there is no `fork`.
fn runs_inline() -> bool {
    IN_CHILD.load(Ordering::SeqCst) || USED_INLINE.load(Ordering::SeqCst) || !cfg!(unix)
}

/// Runs `work` in this process with exact work deferred: its answer, or `None` where it asked
/// for exact work (which was then not done; [`deferred`] says so from that moment, so the work
/// can stop early). Where exact work runs inline anyway, always the answer.
pub fn trial<T>(work: impl FnOnce() -> T) -> Option<T> {
    if runs_inline() {
        return Some(work());
    }
    /// Ends the trial however `work` ends (a panic caught above must not leave exact work
    /// deferred for the rest of the run).
    struct Ends;
    impl Drop for Ends {
        fn drop(&mut self) {
            IN_TRIAL.store(false, Ordering::SeqCst);
        }
    }
    DEFERRED.store(false, Ordering::SeqCst);
    IN_TRIAL.store(true, Ordering::SeqCst);
    let answer = {
        let _ends = Ends;
        work()
    };
    (!DEFERRED.swap(false, Ordering::SeqCst)).then_some(answer)
}

/// Has the [`trial`] under way deferred exact work?
pub fn deferred() -> bool {
    DEFERRED.load(Ordering::SeqCst)
}

/// Why a [`worker`] stopped before it finished: the stop, and the attempt of its last step it
/// was in (numbered from 0), if it was in one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Interrupted {
    pub stopped: Stopped,
    pub attempt: Option<usize>,
}

/// Runs `work` in a forked child, the worker, under [`MEMORY_LIMIT_BYTES`] more than it uses
/// at each step and each attempt. The worker says where it is through `say` (each message is
/// serialized and read here, in order, by `heard`); from its start and from each message, what
/// it does next must end by `step_deadline()` (and each attempt by its own deadline), or it is
/// killed. `Ok` once the worker finished `work`; otherwise where it stopped (the caller knows the
/// step from its messages). Where exact work runs inline, `work` runs here, each message handed
/// to `heard` at once, with no deadline.
pub fn worker<M: Serialize + DeserializeOwned>(
    step_deadline: impl Fn() -> Instant,
    work: impl FnOnce(&mut dyn FnMut(M)),
    mut heard: impl FnMut(M),
) -> Result<(), Interrupted> {
    if runs_inline() {
        work(&mut |message| heard(message));
        return Ok(());
    }
    fork_worker(step_deadline, work, heard)
}

#[cfg(unix)]
fn fork_and_wait<T: Serialize + DeserializeOwned>(deadline: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    let Some((pid, reader)) = spawn(|answers| match encode(&job()) {
        Some(bytes) => {
            write_all(answers, &bytes);
            0
        }
        None => 3,
    }) else {
        return Err(Stopped::Unavailable);
    };
    let mut bytes = Vec::new();
    match watch(pid, reader, deadline, |piece| {
        bytes.extend_from_slice(piece);
        Some(deadline)
    }) {
        Ended::KilledAtDeadline => Err(Stopped::Deadline),
        Ended::Exited(Some(0)) => decode(&bytes).ok_or(Stopped::Memory),
        Ended::Exited(_) | Ended::Refused => Err(Stopped::Memory),
    }
}

#[cfg(not(unix))]
fn fork_and_wait<T: Serialize + DeserializeOwned>(_: Instant, job: impl FnOnce() -> T) -> Result<T, Stopped> {
    Ok(job())
}

#[cfg(unix)]
fn fork_worker<M: Serialize + DeserializeOwned>(
    step_deadline: impl Fn() -> Instant,
    work: impl FnOnce(&mut dyn FnMut(M)),
    mut heard: impl FnMut(M),
) -> Result<(), Interrupted> {
    let Some((pid, reader)) = spawn(|pipe| {
        WORKER_PIPE.store(pipe, Ordering::SeqCst);
        work(&mut |message: M| {
            send(pipe, &Wire::Step(message));
            *ATTEMPTS.lock().unwrap_or_else(|p| p.into_inner()) = (0, Vec::new());
            limit_memory_from_here();
        });
        0
    }) else {
        return Err(Interrupted { stopped: Stopped::Unavailable, attempt: None });
    };
    let mut pending: Vec<u8> = Vec::new();
    let mut step_ends = step_deadline();
    // The attempt under way, and when it must end.
    let mut attempt: Option<(usize, Instant)> = None;
    let ended = watch(pid, reader, step_ends, |piece| {
        pending.extend_from_slice(piece);
        while let Some(frame) = next_frame(&mut pending) {
            match decode::<Wire<M>>(&frame)? {
                Wire::Step(message) => {
                    heard(message);
                    step_ends = step_deadline();
                    attempt = None;
                }
                Wire::Attempt { n, millis } => {
                    attempt = Some((n, Instant::now() + Duration::from_millis(millis) + ATTEMPT_GRACE))
                }
                Wire::AttemptEnded { .. } => {
                    attempt = None;
                    // The rest of the step has at least a step's time again, as each exact job
                    // had its own before.
                    step_ends = step_ends.max(step_deadline());
                }
            }
        }
        Some(attempt.map_or(step_ends, |(_, ends)| ends))
    });
    let attempt = attempt.map(|(n, _)| n);
    match ended {
        Ended::KilledAtDeadline => Err(Interrupted { stopped: Stopped::Deadline, attempt }),
        Ended::Exited(Some(0)) => Ok(()),
        Ended::Exited(_) | Ended::Refused => Err(Interrupted { stopped: Stopped::Memory, attempt }),
    }
}

/// A forked child that holds the Symbolica permit, under [`MEMORY_LIMIT_BYTES`] more than it
/// uses now, running `child` with the write end of a pipe (its answer is the child's exit code;
/// a panic is 3); here, the child's pid and the pipe's read end. `None` without a pipe or fork.
#[cfg(unix)]
fn spawn(child: impl FnOnce(i32) -> i32) -> Option<(i32, std::fs::File)> {
    use std::os::fd::FromRawFd;
    let mut fds = [0i32; 2];
    // SAFETY: `pipe` writes two descriptors into the array it is given.
    if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
        return None;
    }
    let (read_fd, write_fd) = (fds[0], fds[1]);
    let pid = fork();
    if pid < 0 {
        // SAFETY: both descriptors were just opened by `pipe`.
        unsafe {
            libc::close(read_fd);
            libc::close(write_fd);
        }
        return None;
    }
    if pid == 0 {
        IN_CHILD.store(true, Ordering::SeqCst);
        // SAFETY: closes the read end, which only the parent uses.
        unsafe { libc::close(read_fd) };
        limit_memory_from_here();
        let code = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| child(write_fd))).unwrap_or(3);
        // SAFETY: leaves the child at once, running no destructor of the parent's state.
        unsafe { libc::_exit(code) }
    }
    WORKERS_STARTED.fetch_add(1, Ordering::SeqCst);
    // SAFETY: the parent keeps only the read end, which it owns from here on.
    unsafe {
        libc::close(write_fd);
        Some((pid, std::fs::File::from_raw_fd(read_fd)))
    }
}

/// How a child [`watch`]ed ended.
#[cfg(unix)]
enum Ended {
    /// It closed its pipe: its exit code (`None` where a signal ended it).
    Exited(Option<i32>),
    /// Killed here at its deadline.
    KilledAtDeadline,
    /// Killed here because what it wrote made no sense.
    Refused,
}

/// Reads what the child `pid` writes until it closes its end, handing each piece to `got`,
/// which answers with the deadline from then on (first `deadline`), or `None` for what makes no
/// sense; the child is killed at its deadline, or at nonsense, and reaped.
#[cfg(unix)]
fn watch(
    pid: i32,
    mut reader: std::fs::File,
    mut deadline: Instant,
    mut got: impl FnMut(&[u8]) -> Option<Instant>,
) -> Ended {
    use std::os::fd::AsRawFd;
    let mut chunk = [0u8; 64 * 1024];
    let ended = loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            kill(pid);
            break Some(Ended::KilledAtDeadline);
        }
        if !readable(reader.as_raw_fd(), left.min(Duration::from_millis(200))) {
            continue;
        }
        match reader.read(&mut chunk) {
            Ok(0) => break None,
            Ok(n) => match got(&chunk[..n]) {
                Some(next) => deadline = next,
                None => {
                    kill(pid);
                    break Some(Ended::Refused);
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break None,
        }
    };
    let status = reap(pid);
    ended.unwrap_or(Ended::Exited(status))
}

/// Time an attempt gets past its deadline to notice it and answer on its own.
const ATTEMPT_GRACE: Duration = Duration::from_millis(500);

#[cfg(not(unix))]
fn fork_worker<M: Serialize + DeserializeOwned>(
    _: impl Fn() -> Instant,
    work: impl FnOnce(&mut dyn FnMut(M)),
    mut heard: impl FnMut(M),
) -> Result<(), Interrupted> {
    work(&mut |message| heard(message));
    Ok(())
}

/// Sends one message down a worker's pipe: its length (4 bytes, little-endian), then the
/// message ([`encode`]).
#[cfg(unix)]
fn send<M: Serialize>(fd: i32, message: &Wire<M>) {
    let bytes = encode(message).unwrap_or_default();
    let mut frame = (bytes.len() as u32).to_le_bytes().to_vec();
    frame.extend_from_slice(&bytes);
    write_all(fd, &frame);
}

/// The first whole frame of [`send`] taken off the front of `pending`, if one has arrived.
fn next_frame(pending: &mut Vec<u8>) -> Option<Vec<u8>> {
    let length = u32::from_le_bytes(pending.get(..4)?.try_into().ok()?) as usize;
    if pending.len() < 4 + length {
        return None;
    }
    let frame = pending[4..4 + length].to_vec();
    pending.drain(..4 + length);
    Some(frame)
}

/// A value as it crosses from a child: CBOR, which keeps every `f64` as it is (JSON has no
/// NaN: a verdict whose float cross-check found none, `NaN`, did not come back).
fn encode<T: Serialize>(value: &T) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    ciborium::into_writer(value, &mut bytes).ok()?;
    Some(bytes)
}

/// The value [`encode`] made, or `None` for bytes that are not one.
fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    ciborium::from_reader(bytes).ok()
}

/// In a child: its address space may grow by [`MEMORY_LIMIT_BYTES`] from what it is now (the
/// soft limit; past it allocation fails and the child stops).
#[cfg(unix)]
fn limit_memory_from_here() {
    let mut rlimit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: plain system calls on a value of this child.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_AS, &mut rlimit) != 0 {
            return;
        }
        rlimit.rlim_cur = address_space_in_use().saturating_add(MEMORY_LIMIT_BYTES).min(rlimit.rlim_max);
        libc::setrlimit(libc::RLIMIT_AS, &rlimit);
    }
}

/// Writes all of `bytes` to `fd`, retrying short writes (a failed write ends it: the reader
/// then sees the child stop).
#[cfg(unix)]
fn write_all(fd: i32, bytes: &[u8]) {
    let mut written = 0;
    while written < bytes.len() {
        // SAFETY: the descriptor is this child's write end; the slice is valid.
        let n = unsafe { libc::write(fd, bytes[written..].as_ptr().cast(), bytes.len() - written) };
        if n <= 0 {
            break;
        }
        written += n as usize;
    }
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
