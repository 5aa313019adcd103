//! The notes reader and the formula parser on arbitrary bytes: never a panic, a hang or a stack
//! overflow; every parsed formula prints back as TeX that parses again.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let doc = derivcheck::notes::Document::parse("fuzz.md", text.to_string());
    for formula in &doc.formulas {
        if let Ok(statement) = derivcheck::syntax::parse_formula(&formula.tex) {
            let _ = derivcheck::syntax::print::statement(&statement);
            for chain in &statement.chains {
                for e in chain.exprs() {
                    let _ = derivcheck::syntax::print::explicit_tex(e, &|_| false);
                }
            }
        }
    }
    // The formula parser alone, on the whole input.
    let _ = derivcheck::syntax::parse_formula(text);
});
