//! Property tests (proptest) on generated formulas:
//! - the explicit TeX printer and the parser agree: reading back what was printed prints the
//!   same again (print(parse(print(ast))) == print(ast)), and the tree read back has the
//!   original's structure (same S-expression up to the parentheses printing adds);
//! - a generated identity is never refuted, and the same identity perturbed is never verified
//!   (the strict verified/refuted pairs are unit tests in `check`).

use derivcheck::driver::{self, CheckOptions};
use derivcheck::notes::Document;
use derivcheck::syntax::{parse_formula, print};
use proptest::prelude::*;

/// A random expression in x and y, written as an author might: sums, differences, products,
/// quotients, powers, exponentials, logs of positive things, sines and cosines.
fn leaf() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        Just("x".to_string()),
        Just("y".to_string()),
        (1u32..9).prop_map(|n| n.to_string()),
        Just("x_1".to_string()),
    ]
}

/// Exponentials take a leaf or a small sum only, so values stay where floats can find a
/// counterexample (e^{e^{24}} overflows them, and the claim is then rightly undecided).
fn expression() -> impl Strategy<Value = String> {
    leaf().prop_recursive(4, 24, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}+{b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("({a}-{b})")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("{a}\\cdot {b}")),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| format!("\\frac{{{a}}}{{1+({b})^2}}")),
            (inner.clone(), 2u32..4).prop_map(|(a, k)| format!("({a})^{{{k}}}")),
            (leaf(), leaf()).prop_map(|(a, b)| format!("e^{{{a}-{b}}}")),
            leaf().prop_map(|a| format!("\\ln(1+e^{{{a}}})")),
            inner.clone().prop_map(|a| format!("\\sin({a})")),
            (leaf(), leaf()).prop_map(|(a, b)| format!("\\cos({a}-{b})")),
        ]
    })
}

/// The verdict of the one claim in a one-formula chapter without a spec.
fn verdict(formula: &str) -> (usize, usize, usize) {
    let doc = Document::parse("gen.md", format!("## 1 Generated\n\n$${formula}$$\n"));
    let report = driver::check(&[doc], None, String::new(), CheckOptions::uncached()).expect("no spec").report;
    let s = &report.summary;
    (s.verified, s.refuted, s.undecided)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn printing_is_a_fixed_point_of_parsing(e in expression(), f in expression()) {
        let tex = format!("{e}={f}");
        let first = parse_formula(&tex).expect("generated formulas parse");
        let no_functions = |_: &str| false;
        let printed: Vec<String> =
            first.chains[0].exprs().map(|x| print::explicit_tex(x, &no_functions)).collect();
        let again = parse_formula(&printed.join("=")).unwrap_or_else(|err| panic!("{printed:?}: {err:?}"));
        let reprinted: Vec<String> =
            again.chains[0].exprs().map(|x| print::explicit_tex(x, &no_functions)).collect();
        prop_assert_eq!(&reprinted, &printed);
        let unfenced = |s: String| s.replace("(fenced () ", "(").replace("(fenced ()", "(");
        prop_assert_eq!(
            strip_parens(&unfenced(print::statement(&again))),
            strip_parens(&unfenced(print::statement(&first)))
        );
    }
}

/// An S-expression with its grouping parentheses around single atoms removed, so a tree and
/// the same tree with extra parentheses compare equal.
fn strip_parens(s: &str) -> String {
    let mut out = s.to_string();
    loop {
        let next = out.replace("((", "(").replace("))", ")");
        if next == out {
            return out;
        }
        out = next;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn generated_identities_are_verified_and_perturbed_ones_refuted(
        a in expression(), b in expression(), c in expression(),
    ) {
        // Distributivity and the exponential's law hold for any a, b, c.
        let identity = format!("({a})\\cdot(({b})+({c}))+e^{{({a})-({b})}}=({a})\\cdot({b})+({a})\\cdot({c})+\\frac{{e^{{{a}}}}}{{e^{{{b}}}}}");
        // Never refuted; undecided only where a budget or an unknown relation (e^{ln u} = u) stops
        // every method.
        let (verified, refuted, _) = verdict(&identity);
        prop_assert!(refuted == 0 && verified <= 1, "{}", identity);
        // Off by one: refuted.
        let perturbed = format!("({a})\\cdot(({b})+({c}))+1=({a})\\cdot({b})+({a})\\cdot({c})");
        let (verified, _, _) = verdict(&perturbed);
        prop_assert_eq!(verified, 0, "never verified: {}", perturbed);
    }
}
