//! How many pest rule calls each formula of some notes needs: the measurement behind the
//! parser's call budget (`syntax::parser`, 100,000 plus 300 a byte). Prints the formulas that
//! need the most calls, in all and per byte (past 40 bytes).
//!
//! `cargo run --release --example parse_budget -- derivations/ch15/*.md ../shared/corpus/*/*.md`

use std::num::NonZeroUsize;

fn main() {
    let mut measured: Vec<(usize, usize, String)> = Vec::new();
    for path in std::env::args().skip(1) {
        let Ok(text) = std::fs::read_to_string(&path) else {
            eprintln!("cannot read {path}");
            continue;
        };
        let doc = derivcheck::notes::Document::parse(&path, text);
        for formula in &doc.formulas {
            if let Some(calls) = calls_needed(&formula.tex) {
                let shown: String = formula.tex.chars().take(60).collect();
                measured.push((calls, formula.tex.len(), format!("{path}: {}", shown.replace('\n', " "))));
            }
        }
    }
    println!("{} formulas parse", measured.len());
    measured.sort_by_key(|(calls, _, _)| std::cmp::Reverse(*calls));
    for (calls, bytes, what) in measured.iter().take(5) {
        println!("{calls:>9} calls {bytes:>6} bytes  {what}");
    }
    measured.retain(|(_, bytes, _)| *bytes >= 40);
    measured.sort_by_key(|(calls, bytes, _)| std::cmp::Reverse(calls / bytes));
    for (calls, bytes, what) in measured.iter().take(5) {
        println!("{:>9} a byte {bytes:>6} bytes  {what}", calls / bytes);
    }
}

/// The smallest call limit under which `tex` parses (`None` if it does not parse at 20 million).
fn calls_needed(tex: &str) -> Option<usize> {
    let parses = |limit: usize| derivcheck::syntax::parse_formula_within(tex, NonZeroUsize::new(limit)).is_ok();
    if !parses(20_000_000) {
        return None;
    }
    let (mut low, mut high) = (1usize, 20_000_000usize);
    while low < high {
        let middle = (low + high) / 2;
        if parses(middle) {
            high = middle;
        } else {
            low = middle + 1;
        }
    }
    Some(low)
}
