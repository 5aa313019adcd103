//! A spec and notes through sema and the floating-point evaluator (no CAS): the input is a spec
//! (TOML) and notes separated by a line `----`. Never a panic, a hang or an abort.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "common.rs"]
mod common;

fuzz_target!(|data: &[u8]| common::run_on_big_stack(data, check));

fn check(data: &[u8]) {
    let Some((spec_text, notes)) = common::spec_and_notes(data) else { return };
    let spec = derivcheck::spec::Spec::parse("fuzz.toml", spec_text).ok();
    let doc = derivcheck::notes::Document::parse("fuzz.md", notes.to_string());
    let Ok(planned) = derivcheck::driver::plan(std::slice::from_ref(&doc), spec.as_ref(), spec_text) else { return };
    common::float_crosscheck(&planned);
}
