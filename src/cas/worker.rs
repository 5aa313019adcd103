//! The one thread that may touch Symbolica.
//!
//! Without a licence key Symbolica allows one thread per user: a second one aborts the process.
//! So every CAS job runs on a single long-lived worker thread, started on first use, and only
//! plain data crosses back. Before the worker first touches Symbolica it takes an inter-process
//! file lock, so two derivcheck processes started together run their CAS work one after the
//! other (the waiting one says so on stderr) instead of the second one aborting.

use std::fs::{File, OpenOptions};
use std::sync::mpsc::{channel, Sender};
use std::sync::{Mutex, OnceLock};

type Job = Box<dyn FnOnce() + Send>;

static WORKER: OnceLock<Mutex<Sender<Job>>> = OnceLock::new();

/// Stack for the worker: instantiating deep expressions recurses.
const WORKER_STACK_BYTES: usize = 256 * 1024 * 1024;

/// The words around the lock file's path when another process holds it, in the language of the
/// run (set once, by the driver, from the report's word tables; English until then).
static LOCK_WAIT_WORDS: std::sync::OnceLock<(&'static str, &'static str)> = std::sync::OnceLock::new();
const LOCK_WAIT_ENGLISH: (&str, &str) = (
    "waiting for another derivcheck process to finish its CAS work (Symbolica's restricted mode allows one at a time; lock ",
    ")",
);

/// Says the wait for the lock with these words (before and after its path) from now on.
pub fn set_lock_wait_words(before: &'static str, after: &'static str) {
    let _ = LOCK_WAIT_WORDS.set((before, after));
}

/// Runs `job` on the CAS worker thread and returns its result.
pub fn run<T: Send + 'static>(job: impl FnOnce() -> T + Send + 'static) -> T {
    let (reply_tx, reply_rx) = channel();
    let boxed: Job = Box::new(move || {
        let _ = reply_tx.send(job());
    });
    let sender = WORKER.get_or_init(start).lock().unwrap_or_else(|p| p.into_inner()).clone();
    sender.send(boxed).expect("the CAS worker thread is alive");
    reply_rx.recv().expect("the CAS job replies (a panic in it is a bug)")
}

fn start() -> Mutex<Sender<Job>> {
    let (tx, rx) = channel::<Job>();
    std::thread::Builder::new()
        .name("derivcheck-cas".into())
        .stack_size(WORKER_STACK_BYTES)
        .spawn(move || {
            // Symbolica prints a licence banner on stdout at first use unless this is set.
            std::env::set_var("SYMBOLICA_HIDE_BANNER", "1");
            // Symbolica would install a logger writing its warnings to stdout (breaking JSON):
            // it may not; its warnings go nowhere, our own diagnostics go to stderr.
            symbolica::GLOBAL_SETTINGS.initialize_tracing.store(false, std::sync::atomic::Ordering::Relaxed);
            quiet_panics_on_this_thread();
            let _lock = take_process_lock();
            for job in rx {
                // A panicking job must not take the worker down with it; its caller sees the
                // dropped reply channel.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        })
        .expect("spawn the CAS worker thread");
    Mutex::new(tx)
}

/// What a panic said, where its payload is text (`panic!` with a message gives `&str` or
/// `String`).
pub fn panic_text(payload: &(dyn std::any::Any + Send)) -> Option<&str> {
    payload.downcast_ref::<&str>().copied().or_else(|| payload.downcast_ref::<String>().map(String::as_str))
}

/// Symbolica can panic inside a computation (e.g. an exponent overflow); callers catch that and
/// fall back, so on the worker thread a panic prints one line instead of a backtrace, once per
/// place and message in a run (a chapter can hit the same failure on every claim of a section),
/// naming the place within its crate, not the path of the build machine's registry.
fn quiet_panics_on_this_thread() {
    static SAID: Mutex<Vec<String>> = Mutex::new(Vec::new());
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if std::thread::current().name() == Some("derivcheck-cas") {
            let location = info
                .location()
                .map(|l| {
                    let file = l.file();
                    let within = file.find("symbolica-").map_or(file, |at| &file[at..]);
                    format!(" at {within}:{}", l.line())
                })
                .unwrap_or_default();
            let message = panic_text(info.payload()).map(|m| format!(" ({m})")).unwrap_or_default();
            let line = format!(
                "derivcheck: the CAS failed internally{location}{message}; falling back (numeric evidence, or undecided)"
            );
            let mut said = SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            if !said.contains(&line) {
                eprintln!("{line}");
                said.push(line);
            }
        } else {
            default(info);
        }
    }));
}

/// Holds an exclusive lock on a per-user file for the life of the process; waits if another
/// derivcheck process holds it.
fn take_process_lock() -> Option<File> {
    let user = std::env::var("USER").unwrap_or_else(|_| "user".into());
    let path = std::env::temp_dir().join(format!("derivcheck-symbolica-{user}.lock"));
    let file = match OpenOptions::new().create(true).truncate(false).write(true).open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!(
                "derivcheck: cannot create the lock file {} ({e}); running without it: another derivcheck process \
                 started at the same time would be stopped by Symbolica's one-thread licence (set TMPDIR to a writable folder)",
                path.display()
            );
            return None;
        }
    };
    if file.try_lock().is_err() {
        let (before, after) = LOCK_WAIT_WORDS.get().copied().unwrap_or(LOCK_WAIT_ENGLISH);
        eprintln!("derivcheck: {before}{}{after}", path.display());
        file.lock().ok()?;
    }
    Some(file)
}
