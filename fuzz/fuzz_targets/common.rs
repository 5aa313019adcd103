//! What the spec-and-notes targets (`sema_float`, `check`) share: the input's layout and the
//! large stack the binary also gives its work.

/// Runs `work` on the input in a thread with the binary's stack (512 MB; `FUZZ_STACK_MB=8` to
/// find inputs that recurse deeper than a default stack). The thread is started once and kept for
/// every input of the run (a panic there aborts the process through libFuzzer's hook, with this
/// input as the finding). With `FUZZ_LAST_INPUT=FILE` each input is written there first, so an
/// input that kills the process without libFuzzer's report (a SIGSEGV on another thread's stack)
/// is kept.
pub fn run_on_big_stack(data: &[u8], work: fn(&[u8])) {
    use std::sync::mpsc::{channel, Receiver, Sender};
    use std::sync::{Mutex, OnceLock};
    type Job = (Vec<u8>, fn(&[u8]));
    static WORKER: OnceLock<Mutex<(Sender<Job>, Receiver<()>)>> = OnceLock::new();
    if let Ok(path) = std::env::var("FUZZ_LAST_INPUT") {
        let _ = std::fs::write(path, data);
    }
    let worker = WORKER.get_or_init(|| {
        let (jobs, job_inbox) = channel::<Job>();
        let (done_outbox, done) = channel::<()>();
        std::thread::Builder::new()
            .stack_size(stack_megabytes() * 1024 * 1024)
            .spawn(move || {
                for (data, work) in job_inbox {
                    work(&data);
                    if done_outbox.send(()).is_err() {
                        return;
                    }
                }
            })
            .expect("spawn");
        Mutex::new((jobs, done))
    });
    let worker = worker.lock().expect("no panic");
    worker.0.send((data.to_vec(), work)).expect("worker alive");
    worker.1.recv().expect("no panic");
}

fn stack_megabytes() -> usize {
    std::env::var("FUZZ_STACK_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(512)
}

/// The input as UTF-8 text split into a spec (TOML) and notes at a line `----`; without one, it
/// is all notes. `None` for input that is not UTF-8 (the notes reader's own target covers it).
pub fn spec_and_notes(data: &[u8]) -> Option<(&str, &str)> {
    let text = std::str::from_utf8(data).ok()?;
    Some(text.split_once("\n----\n").unwrap_or(("", text)))
}

/// Planned notes through the floating-point cross-check of every claim (no CAS), as `check` does
/// before its exact stage, within small budgets.
pub fn float_crosscheck(planned: &derivcheck::driver::Planned) {
    for plan in planned.plans.iter().flatten() {
        let Ok(scope) = &plan.scope else { continue };
        let sizes = derivcheck::numeric::crosscheck::larger_sizes(scope, &scope.crosscheck);
        let backend = derivcheck::numeric::Numeric::new(1, derivcheck::numeric::crosscheck::EPSILON);
        let budget = derivcheck::eval::Budget {
            max_steps: 200_000,
            max_bytes: 1 << 22,
            deadline: std::time::Instant::now() + std::time::Duration::from_secs(1),
        };
        let floats = derivcheck::eval::Instance::new(&backend, scope, &sizes, None, budget);
        for claim in &plan.claims {
            let free = derivcheck::eval::free_indices(scope, claim);
            let _ = derivcheck::numeric::crosscheck::crosscheck(&floats, claim, &free);
        }
    }
}
