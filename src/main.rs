/// The trees of large formulas are walked recursively: the work runs on a thread with a large
/// stack (address space only; pages are touched as needed).
const MAIN_STACK_BYTES: usize = 512 * 1024 * 1024;

fn main() {
    let worker =
        std::thread::Builder::new().name("derivcheck".into()).stack_size(MAIN_STACK_BYTES).spawn(derivcheck::cli::main);
    let code = worker.map(|w| w.join().unwrap_or(101)).unwrap_or_else(|_| derivcheck::cli::main());
    std::process::exit(code);
}
