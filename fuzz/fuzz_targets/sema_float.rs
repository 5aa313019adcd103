//! A spec and notes through sema and the floating-point evaluator (no CAS): the input is a spec
//! (TOML) and notes separated by a line `----`. Never a panic, a hang or an abort.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // As in the binary, the work runs on a thread with a large stack.
    if let Ok(path) = std::env::var("FUZZ_LAST_INPUT") {
        let _ = std::fs::write(path, data);
    }
    let data = data.to_vec();
    std::thread::Builder::new()
        .stack_size(stack_megabytes() * 1024 * 1024)
        .spawn(move || check(&data))
        .expect("spawn")
        .join()
        .expect("no panic");
});

/// 512 MB as in the binary; `FUZZ_STACK_MB=8` to find inputs that recurse deeper than a
/// default stack.
fn stack_megabytes() -> usize {
    std::env::var("FUZZ_STACK_MB").ok().and_then(|v| v.parse().ok()).unwrap_or(512)
}

fn check(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (spec_text, notes) = text.split_once("\n----\n").unwrap_or(("", text));
    let spec = derivcheck::spec::Spec::parse("fuzz.toml", spec_text).ok();
    let doc = derivcheck::notes::Document::parse("fuzz.md", notes.to_string());
    let parsed: Vec<_> = doc.formulas.iter().map(|f| derivcheck::syntax::parse_formula(&f.tex)).collect();
    let formulas: Vec<derivcheck::sema::ParsedFormula> = parsed
        .iter()
        .enumerate()
        .filter_map(|(index, r)| r.as_ref().ok().map(|statement| derivcheck::sema::ParsedFormula { index, statement }))
        .collect();
    let plans = derivcheck::sema::plan(&doc, &formulas, spec.as_ref(), spec_text, true);
    for plan in &plans {
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
