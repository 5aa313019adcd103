//! Limits (issue 49): `\lim_{x\to a}` and `\lim_{n\to\infty}` are the constant term of the
//! expression's series in the step about the point, where no negative power or logarithm of the
//! step remains; a finite point at a root or absolute value is refused (its two sides may
//! differ), as is a limit that is infinite. And once a section approximates a letter
//! (`f(t+\Delta t) \approx …`), a later step that writes its approximate values with `=` is
//! not refuted with the letter exact.

mod common;
use common::*;

/// The claims of `notes` (a chapter checked with no spec) as (line, verdict, detail).
fn claims_of(notes: &str) -> Vec<(u64, String, String)> {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.md");
    std::fs::write(&path, notes).unwrap();
    let report = json(&run(&["check", path.to_str().unwrap(), "--format", "json", "--no-cache"]));
    report["files"][0]["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let text = |k: &str| c[k].as_str().unwrap_or_default().to_string();
            (c["line"].as_u64().unwrap(), text("verdict"), text("detail"))
        })
        .collect()
}

#[test]
fn limits_are_verified_refuted_or_refused_by_their_series() {
    let notes = "## 1 Limits\n\n\
        $$\\lim_{x \\to 0} \\frac{\\sin x}{x} = 1$$\n\n\
        $$\\lim_{x \\to 0} \\frac{1-\\cos x}{x^2} = 1$$\n\n\
        $$\\lim_{h \\to 0} \\frac{(x+h)^3 - x^3}{h} = 3x^2$$\n\n\
        $$\\lim_{n \\rightarrow \\infty} \\left(1 + \\frac{r}{n}\\right)^{n} = e^{r}$$\n\n\
        $$\\lim_{n \\rightarrow \\infty} \\left(1 - \\frac{r}{n}\\right)^{n} = e^{r}$$\n\n\
        $$\\lim_{x \\to 0} \\frac{|x|}{x} = 1$$\n\n\
        $$\\lim_{x \\to 0} \\frac{1}{x^2} = 0$$\n\n\
        $$\\lim_{x \\to a} g(x) = g(a)$$\n";
    let got: Vec<(u64, String)> = claims_of(notes).into_iter().map(|(l, v, _)| (l, v)).collect();
    let expected = [
        (3, "verified"),
        (5, "refuted"),
        (7, "verified"),
        (9, "verified"),
        (11, "refuted"),
        (13, "undecided"),
        (15, "undecided"),
        (17, "undecided"),
    ];
    let expected: Vec<(u64, String)> = expected.iter().map(|(l, v)| (*l, v.to_string())).collect();
    assert_eq!(got, expected);
}

#[test]
fn a_step_after_the_text_approximates_a_letter_is_not_refuted_with_it_exact() {
    let exact = "## 1 Euler\n\nLet $$f(x) := e^{x}$$\n\nThen\n\n$$(1+h) f(h) = (1 + h)^2$$\n";
    let approximated = "## 1 Euler\n\nLet $$f(x) := e^{x}$$\n\nWe approximate\n\n$$f(t + h) \\approx f(t)(1 + h)$$\n\nhence\n\n$$(1+h) f(h) = (1 + h)^2$$\n";
    let refuted = claims_of(exact);
    assert_eq!(refuted.iter().map(|c| c.1.as_str()).collect::<Vec<_>>(), ["refuted"], "{refuted:?}");
    let spared = claims_of(approximated);
    let last = spared.last().unwrap();
    assert_eq!((last.0, last.1.as_str()), (11, "undecided"), "{spared:?}");
    assert!(last.2.contains("approximates `f`"), "{last:?}");
}
