//! The whole `check` pipeline, the CAS included, on a spec and notes separated by a line `----`
//! (as `sema_float`): never a panic, an abort, a hang or a stack overflow. Slow (the CAS and
//! Symbolica's one worker thread); each run gets a 10-second time limit for its claims. Do not
//! run beside another Symbolica-using process (its licence mode allows one thread per user).
#![no_main]

use libfuzzer_sys::fuzz_target;

#[allow(dead_code)]
#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::run_on_big_stack(data, check));

fn check(data: &[u8]) {
    let Some((spec_text, notes)) = common::spec_and_notes(data) else { return };
    let spec = if spec_text.is_empty() {
        None
    } else {
        match derivcheck::spec::Spec::parse("fuzz.toml", spec_text) {
            Ok(spec) => Some(spec),
            Err(_) => return,
        }
    };
    let doc = derivcheck::notes::Document::parse("fuzz.md", notes.to_string());
    let options = derivcheck::driver::CheckOptions {
        cache: None,
        deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(10)),
    };
    let _ = derivcheck::driver::check(&[doc], spec, spec_text.to_string(), options);
}
