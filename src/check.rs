//! Stage 7 — `check`: section plans in, a [`Verdict`] per claim out.
//!
//! Each claim is instantiated at every combination of the section's sizes and at every
//! assignment of its free indices that its conditions allow, and both sides are compared: by
//! randomized exact testing first (`modular`, with a stated error bound), then by the CAS where
//! that cannot prove the claim, with floats at larger sizes. A verdict says exactly what was
//! shown: the method (randomized, symbolic, numeric) and the sizes covered; a refutation carries
//! a counterexample. Runs on the CAS worker thread.

use crate::eval::{free_indices, Budget, Instance};
pub use crate::model::{Counterexample, Method, Mismatch, Reason, Status, Verdict};
pub use cache::{fingerprint, VerdictCache};

mod backends;
mod cache;
mod constraint;
mod general;
mod judge;
mod labels;
mod letters;
mod probability;
pub mod readings;
mod run;
mod series;
mod solutions;
pub use run::{check_files, panic_message};
pub mod edits;
pub mod mutate;
use crate::numeric;
use crate::sema::{Claim, ClaimKind, Origin};
use crate::sema::{Decl, Scope};
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use backends::*;
use judge::*;
use letters::*;
use probability::*;
use series::*;

/// A claim with its verdict: what reports are made of.
#[derive(Debug, Clone, Serialize)]
pub struct CheckedClaim {
    pub id: String,
    pub section: String,
    #[serde(flatten)]
    pub origin: Origin,
    pub tex: String,
    pub kind: ClaimKind,
    /// The claim's link (`lhs = rhs`) as a byte range inside the formula's TeX.
    pub link: (usize, usize),
    /// The claim as derivcheck read it, in TeX with every operation explicit.
    pub understood: String,
    /// How it was read through recurrences, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrolled: Option<crate::model::Unrolled>,
    pub verdict: Verdict,
    /// Served from the verdict cache (not checked again in this run).
    #[serde(skip)]
    pub from_cache: bool,
}

/// Per-claim limits.
pub const CLAIM_TIME: Duration = Duration::from_secs(20);
const MAX_STEPS: usize = 5_000_000;
const MAX_BYTES: usize = 64 * 1024 * 1024;
/// The highest power a written power series is compared through (`x^{12}` and beyond: refused).
const MAX_SERIES_ORDER: u32 = 12;

/// Runs one claim's check so that a panic inside it (Symbolica failing on a huge number) leaves
/// that claim undecided and the run going on.
fn guarded(check: impl FnOnce() -> Verdict) -> Verdict {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|_| {
        let detail = "the CAS failed internally on this claim (see the message above)".to_string();
        Verdict::undecided(Reason::Internal { detail }, String::new())
    })
}

/// The claim as derivcheck read it: as sema printed it, but for a claim the probability check
/// decided, whose `P(X, Y)`, `p(x)`, `E(X)` are probabilities and expectations, not products.
fn understood_as_checked(claim: &Claim, verdict: &Verdict) -> String {
    if verdict.method != Some(Method::Distributions) {
        return claim.understood.clone();
    }
    let probability = |key: &str| {
        matches!(key, "P" | "p" | "E" | "\\Pr" | "\\mathbb{P}" | "\\mathbb{E}" | "\\mathrm{P}" | "\\mathrm{E}")
    };
    let (lhs, rhs) = (
        crate::syntax::print::explicit_tex(&claim.lhs, &probability),
        crate::syntax::print::explicit_tex(&claim.rhs, &probability),
    );
    format!("{lhs} {} {rhs}", if claim.approx { "\\approx" } else { "=" })
}

/// Checks one claim with `check`, timing it.
fn timed(check: impl FnOnce() -> Verdict) -> Verdict {
    let start = Instant::now();
    let verdict = check();
    Verdict { elapsed_ms: start.elapsed().as_secs_f64() * 1e3, ..verdict }
}

fn checked_claim(claim: &Claim, verdict: Verdict) -> CheckedClaim {
    CheckedClaim {
        id: claim.id.clone(),
        section: claim.section.clone(),
        origin: claim.origin.clone(),
        tex: claim.tex.clone(),
        kind: claim.kind,
        link: (claim.lhs.span.start, claim.rhs.span.end),
        understood: understood_as_checked(claim, &verdict),
        unrolled: claim.reading.unrolled.clone(),
        verdict,
        from_cache: false,
    }
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The verdict of a claim the run's time limit left unchecked.
fn out_of_time() -> Verdict {
    let detail = "the run's time limit was reached before this claim".to_string();
    Verdict::undecided(Reason::Budget { detail }, String::new())
}

fn section_seed(number: &str) -> u64 {
    number.bytes().fold(7u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)))
}

/// Checks one claim at every size and index assignment; a verified claim is cross-checked in
/// floating point when `floats` is given.
pub fn check_claim(
    scope: &Scope,
    claim: &Claim,
    floats: Option<&Instance<numeric::Numeric>>,
    shared: Option<&SharedPoints>,
) -> Verdict {
    if claim.approx && printed_tolerance(&claim.lhs).or_else(|| printed_tolerance(&claim.rhs)).is_none() {
        return first_order_verdict(scope, claim)
            .unwrap_or_else(|| Verdict::undecided(Reason::ApproxWithoutDecimals, String::new()));
    }
    if let Some(verdict) = worked_out_verdict(scope, claim) {
        return verdict;
    }
    if let Some(verdict) = (!claim.approx).then(|| probability_verdict(scope, claim)).flatten() {
        return verdict;
    }
    if let Some(verdict) = (!claim.approx).then(|| series_verdict(scope, claim)).flatten() {
        return verdict;
    }
    // Only the sizes the claim can depend on are varied; should that leave it undecided (a size
    // reached in a way the scan does not follow), every combination is tried, when there are not
    // too many.
    let used = crate::eval::sizes_used(scope, claim);
    let restricted = scope.size_assignments_of(&|name| used.contains(name));
    let all = scope.size_combinations();
    if restricted.len() == all {
        return where_defined(scope, claim, &scope.size_assignments(), floats, shared);
    }
    let verdict = where_defined(scope, claim, &restricted, floats, shared);
    if verdict.status == Status::Undecided && !verdict.inconsistent && all <= crate::spec::MAX_SIZE_COMBINATIONS {
        return where_defined(scope, claim, &scope.size_assignments(), floats, shared);
    }
    verdict
}

/// [`check_at`]; where an inverse the claim takes is of a matrix singular at some of the sizes
/// (`(X^\top X)^{-1}` with X of more columns than rows, singular for every value there), or
/// where the shapes fit at some values of the one size letter varied only, checked again at the
/// other sizes alone, which the verdict lists: the claim says nothing where its inverse is
/// undefined, nor at sizes its written matrices do not have.
fn where_defined(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    floats: Option<&Instance<numeric::Numeric>>,
    shared: Option<&SharedPoints>,
) -> Verdict {
    let verdict = check_at(scope, claim, size_sets, floats, shared);
    let singular = |v: &Verdict| v.status == Status::Undecided && crate::eval::is_singular_here(&v.reason);
    // `\det(\mathbf A-\lambda\mathbf I)` of a written 2×2 A and the identity I of size n: where
    // one size letter varies, the sizes meant are those at which the shapes fit (with two, a fit
    // only where they are equal is a slip, and stays refuted).
    let misfit = |v: &Verdict| v.status == Status::Refuted && matches!(v.reason, Reason::ShapeMismatch { .. });
    if !(singular(&verdict) || (misfit(&verdict) && one_size_letter_varies(size_sets))) || size_sets.len() < 2 {
        return verdict;
    }
    let defined: Vec<BTreeMap<String, i64>> = size_sets
        .iter()
        .filter(|sizes| {
            let alone = check_at(scope, claim, std::slice::from_ref(*sizes), None, None);
            !(singular(&alone) || misfit(&alone))
        })
        .cloned()
        .collect();
    if defined.is_empty() || defined.len() == size_sets.len() {
        return verdict;
    }
    // (The float cross-check runs at its own, larger sizes, where the inverse may be singular
    // too: not here.)
    check_at(scope, claim, &defined, None, None)
}

/// Do the size assignments vary exactly one size letter?
fn one_size_letter_varies(size_sets: &[BTreeMap<String, i64>]) -> bool {
    let Some(first) = size_sets.first() else { return false };
    first.keys().filter(|k| size_sets.iter().any(|s| s.get(*k) != first.get(*k))).count() == 1
}

/// Checks one claim at the given size assignments: randomized exact testing first (fast, no
/// CAS; it also takes the cross-check sizes where it can); where it cannot prove the claim, the CAS
/// decides as before — within a short time when the randomized test already saw the sides
/// differ, after which a float counterexample refutes.
fn check_at(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    floats: Option<&Instance<numeric::Numeric>>,
    shared: Option<&SharedPoints>,
) -> Verdict {
    let deadline = within_run(Instant::now() + CLAIM_TIME);
    let free = free_indices(scope, claim);
    let sizes_text = describe_sizes(size_sets);
    if needs_quadrature(scope, claim) {
        return by_floats_alone(scope, claim, size_sets, &free, deadline);
    }
    match randomized_at(scope, claim, size_sets, &free, deadline, shared) {
        Randomized::Proven { error, assignments } => {
            let Some(floats) = floats else { return randomized_verdict(error, assignments, sizes_text) };
            // The cross-check sizes: proven there too (the verdict lists them), or — where the
            // randomized test cannot prove them — in floating point, which may find a
            // counterexample that only larger sizes show.
            let larger = vec![floats.sizes.clone()];
            if size_sets.contains(&larger[0]) {
                return randomized_verdict(error, assignments, sizes_text);
            }
            match randomized_at(scope, claim, &larger, &free, deadline, shared) {
                Randomized::Proven { error: more_error, assignments: more } => {
                    // Listed: the cross-check's values of the sizes the claim was varied over.
                    let varied = |m: &BTreeMap<String, i64>| -> BTreeMap<String, i64> {
                        let keep = |k: &String| size_sets.first().is_none_or(|s| s.contains_key(k));
                        m.iter().filter(|(k, _)| keep(k)).map(|(k, v)| (k.clone(), *v)).collect()
                    };
                    let all: Vec<_> = size_sets.iter().cloned().chain(larger.iter().map(varied)).collect();
                    randomized_verdict(error + more_error, assignments + more, describe_sizes(&all))
                }
                _ => with_numeric_crosscheck(
                    scope,
                    floats,
                    claim,
                    &free,
                    randomized_verdict(error, assignments, sizes_text),
                ),
            }
        }
        Randomized::Refutes { error, sizes, env } => refuted_by_shape(&error, claim, sizes_text, &sizes, env),
        Randomized::Differs { sizes, env } => {
            // A counterexample in floating point where the randomized test saw the sides differ
            // needs no normal form: it comes first. The exact stage then only tries to make it a
            // symbolic refutation (with the correct expression), at the smallest sizes, briefly.
            let budget = Budget { max_steps: 20 * MAX_STEPS, max_bytes: MAX_BYTES, deadline: within_run(deadline) };
            let seed = claim.id.bytes().fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            let floating = numeric::crosscheck::counterexample(scope, claim, &sizes, &env, seed, budget);
            let smallest: Vec<BTreeMap<String, i64>> = size_sets.iter().take(1).cloned().collect();
            let exact_sets = if floating.is_some() { &smallest[..] } else { size_sets };
            let brief = if floating.is_some() { EXACT_AFTER_FLOATS } else { EXACT_AFTER_DIFFERS };
            let exact = symbolic_at(Exact {
                scope,
                claim,
                size_sets: exact_sets,
                floats,
                deadline: deadline.min(Instant::now() + brief),
            });
            if exact.status == Status::Refuted
                || exact.inconsistent
                || (exact.status != Status::Undecided && floating.is_none())
            {
                return exact;
            }
            match floating {
                Some(mismatch) => {
                    let reason = refutation(&mismatch, &sizes, &env);
                    let counterexample = Counterexample { sizes, indices: env, mismatch: Some(mismatch) };
                    Verdict::refuted(Method::Numeric, sizes_text, reason, counterexample)
                }
                None => exact,
            }
        }
        Randomized::Inapplicable => symbolic_at(Exact { scope, claim, size_sets, floats, deadline }),
    }
}

/// The whole `check` pipeline on read documents: parse, plan, check on the CAS worker, report.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::cas;
    use crate::sema::Definition;
    use crate::spec::SectionSpec;
    use crate::syntax::ast::ExprKind;
    use crate::syntax::parse_formula;

    use crate::syntax::first_side as expr;

    #[test]
    fn a_moment_subscript_names_a_random_variable() {
        let subscript = |tex: &str| match expr(tex).kind {
            ExprKind::Subscript { index, .. } => names_a_variable(&index),
            other => panic!("{other:?}"),
        };
        assert!(subscript(r"\mu_X") && subscript(r"\mu_{aX+b}") && subscript(r"\sigma_{X+Y}"));
        assert!(!subscript(r"\sigma_{ij}") && !subscript(r"\mu_0") && !subscript(r"\sigma_{\mathrm{in}}"));
    }

    /// A section from a spec in TOML, definitions `key=body` and one claim `lhs=rhs`.
    fn verdict(spec_toml: &str, defs: &[(&str, &[&str], &str)], claim: &str, when: &str) -> Verdict {
        verdict_by(spec_toml, defs, claim, when, true)
    }

    /// The CAS alone, without the randomized test first.
    fn symbolic_verdict(spec_toml: &str, defs: &[(&str, &[&str], &str)], claim: &str, when: &str) -> Verdict {
        verdict_by(spec_toml, defs, claim, when, false)
    }

    fn verdict_by(
        spec_toml: &str,
        defs: &[(&str, &[&str], &str)],
        claim: &str,
        when: &str,
        randomized_first: bool,
    ) -> Verdict {
        let spec: SectionSpec = toml::from_str(spec_toml).unwrap();
        let defs = defs
            .iter()
            .map(|(k, params, body)| Definition {
                key: k.to_string(),
                params: params.iter().map(|p| p.to_string()).collect(),
                body: expr(body),
                origin: "test".into(),
                from_notes: false,
                function: false,
                inherited: false,
                section_only: false,
            })
            .collect();
        let scope = Scope::new("1", &spec, defs).unwrap();
        let chain = parse_formula(claim).unwrap().chains.remove(0);
        let conditions = if when.is_empty() { Vec::new() } else { parse_formula(when).unwrap().chains };
        let origin = Origin::Spec { name: "t".into(), line: 1, col: 1 };
        let (lhs, rhs) = (chain.first.clone().unwrap(), chain.links[0].rhs.clone());
        let claim = Claim { conditions, ..Claim::for_tests("t", origin, claim, lhs, rhs) };
        cas::worker::run(move || {
            if randomized_first {
                check_claim(&scope, &claim, None, None)
            } else {
                let size_sets = scope.size_assignments();
                symbolic_at(Exact {
                    scope: &scope,
                    claim: &claim,
                    size_sets: &size_sets,
                    floats: None,
                    deadline: Instant::now() + CLAIM_TIME,
                })
            }
        })
    }

    fn assert_randomized_proof(v: &Verdict) {
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Randomized)), "{v:?}");
        assert!(v.error_bound_log2.is_some_and(|b| b <= -60.0), "{v:?}");
    }

    const SOFTMAX: &str = "sizes = { N = [2, 3] }\nindex = { r = \"N\", j = \"N\", k = \"N\" }";

    fn softmax_defs() -> Vec<(&'static str, &'static [&'static str], &'static str)> {
        vec![("D", &[], "\\sum_r e^{s_r}"), ("a", &["j"], "e^{s_j}/D")]
    }

    #[test]
    fn identity_verified_and_refuted() {
        let v = verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 1", "");
        assert_randomized_proof(&v);
        assert_eq!(v.sizes, "N = 2, 3");
        let v = symbolic_verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 1", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        let v = symbolic_verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 2", "");
        assert_eq!((v.status, v.method), (Status::Refuted, Some(Method::Symbolic)), "{v:?}");
        let v = verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 2", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let cx = v.counterexample.unwrap();
        assert_eq!(cx.sizes["N"], 2);
        let m = cx.mismatch.unwrap();
        assert!((m.lhs - 1.0).abs() < 1e-12 && (m.rhs - 2.0).abs() < 1e-12, "{m:?}");
    }

    #[test]
    fn derivative_verified_and_refuted_with_index_conditions() {
        let ok = verdict(SOFTMAX, &softmax_defs(), "\\frac{\\partial a_j}{\\partial s_k}=-a_ja_k", "k\\ne j");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        assert_eq!(ok.reason, Reason::Checked { assignments: 8, rounded: false }); // N=2: 2 pairs, N=3: 6 pairs
        let bad = verdict(SOFTMAX, &softmax_defs(), "\\frac{\\partial a_j}{\\partial s_k}=-a_ja_k", "");
        assert_eq!(bad.status, Status::Refuted, "without k≠j the diagonal fails: {bad:?}");
        assert_eq!(bad.counterexample.unwrap().indices.get("j"), Some(&1));
    }

    #[test]
    fn jacobian_of_generic_vector_function() {
        let spec = "sizes = { n = [2] }\nmatrix = { x = [\"n\", \"1\"] }\nfunctions = { F = \"vector\" }\nidentity = { I = \"n\" }";
        let defs = vec![("y", &[][..], "x+F(x)")];
        let claim = "\\frac{\\partial y}{\\partial x} = I + \\frac{\\partial F(x)}{\\partial x}";
        assert_randomized_proof(&verdict(spec, &defs, claim, ""));
        let ok = symbolic_verdict(spec, &defs, claim, "");
        assert_eq!((ok.status, ok.method), (Status::Verified, Some(Method::Symbolic)), "{ok:?}");
        let bad = verdict(spec, &defs, "\\frac{\\partial y}{\\partial x} = \\frac{\\partial F(x)}{\\partial x}", "");
        assert_eq!(bad.status, Status::Refuted);
        assert_eq!(bad.counterexample.unwrap().mismatch.unwrap().entry, Some((1, 1)));
    }

    #[test]
    fn shape_mismatch_refutes_and_names_both_shapes() {
        let spec = "sizes = { n = [3], d = [2] }\nmatrix = { X = [\"n\", \"d\"], W = [\"d\", \"d\"] }";
        let ok = verdict(spec, &[], "XW = XW", "");
        assert_eq!(ok.status, Status::Verified);
        let bad = verdict(spec, &[], "WX = XW", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        assert!(matches!(bad.reason, Reason::ShapeMismatch { left: (2, 2), right: (3, 2), .. }), "{:?}", bad.reason);
    }

    #[test]
    fn unknown_functions_and_unbound_indices_are_undecided() {
        let v = verdict(SOFTMAX, &[], "\\operatorname{foo}(x) = x", "");
        assert_eq!(v.status, Status::Undecided);
        assert!(matches!(&v.reason, Reason::NotRead { detail, .. } if detail.contains("foo")), "{:?}", v.reason);
        let v = verdict("sizes = { N = [2] }", &[], "\\sum_q x_q = 1", "");
        assert_eq!(v.status, Status::Undecided);
    }

    #[test]
    fn randomized_test_falls_back_where_functions_have_relations() {
        // The exponential's law is applied before atoms are made, and sin and cos are made of
        // one half-angle tangent; ln e^x = x is a relation between atoms the test does not
        // know: the CAS proves it.
        assert_randomized_proof(&verdict("sizes = {}", &[], "e^{a+b-2c} = e^a e^b/(e^c)^2", ""));
        assert_randomized_proof(&verdict("sizes = {}", &[], "\\sin(x)^2+\\cos(x)^2 = 1", ""));
        assert_randomized_proof(&verdict("sizes = {}", &[], "\\cos(2x) = 1-2\\sin(x)^2", ""));
        let v = verdict("sizes = {}", &[], "\\cos(2x) = 1-\\sin(x)^2", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        // A constant power of e is its exponential, not a root of e.
        assert_randomized_proof(&verdict("sizes = {}", &[], "e^{x-\\frac12} = \\frac{e^x}{e^{1/2}}", ""));
        assert_randomized_proof(&verdict(
            "sizes = {}",
            &[],
            "e^{(\\ln x)^2-\\frac12} = \\frac{e^{(\\ln x)^2}}{e^{1/2}}",
            "",
        ));
        let v = verdict("sizes = {}", &[], "e^{x-\\frac12} = \\frac{e^x}{e^{1/3}}", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let v = verdict("sizes = {}", &[], "\\ln(e^{x}) = x", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        // A constant that is a multiple of a 61-bit prime is not zero.
        let v = verdict("sizes = {}", &[], "2^{61}-1 = 0", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let v = verdict("sizes = {}", &[], "(2^{61}-1)x = 0", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        // Second derivatives through recorded adjoints, and a generic σ.
        let spec = "sizes = {}\nfunctions = { '\\sigma' = \"elementwise\" }";
        let defs = vec![("f", &[][..], "\\sigma(x^2)")];
        assert_randomized_proof(&verdict(spec, &defs, "\\frac{\\partial f}{\\partial x} = 2x\\sigma'(x^2)", ""));
        let bad = verdict(spec, &defs, "\\frac{\\partial f}{\\partial x} = x\\sigma'(x^2)", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn log_identities_need_the_rewrite_rules() {
        let v = verdict(SOFTMAX, &softmax_defs(), "-\\ln a_j = -s_j + \\ln D", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        let v = verdict(SOFTMAX, &softmax_defs(), "-\\ln a_j = s_j + \\ln D", "");
        assert_eq!(v.status, Status::Refuted);
    }

    #[test]
    fn adjoints_verified_and_refuted() {
        let spec = "sizes = { n = [2], d = [2] }\nloss = 'L'\nmatrix = { X = [\"n\", \"d\"], W = [\"d\", \"d\"], G = [\"n\", \"d\"] }";
        let defs = vec![("Y", &[][..], "XW"), ("L", &[][..], "\\operatorname{sum}(G\\odot Y)")];
        assert_randomized_proof(&verdict(spec, &defs, "\\bar W=X^\\mathsf T\\bar Y", ""));
        let ok = symbolic_verdict(spec, &defs, "\\bar W=X^\\mathsf T\\bar Y", "");
        assert_eq!((ok.status, ok.method), (Status::Verified, Some(Method::Symbolic)), "{ok:?}");
        let bad = verdict(spec, &defs, "\\bar W=\\bar Y^\\mathsf T X", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        let ok = verdict(spec, &defs, "\\bar X=\\bar YW^\\mathsf T", "");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        // W is square, so the shapes fit and only the values refute the dropped transpose.
        let bad = verdict(spec, &defs, "\\bar X=\\bar YW", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        let point = bad.counterexample.unwrap().mismatch.unwrap().point;
        assert!(point.iter().all(|(name, _)| !name.starts_with('v')), "leaves are shown as written: {point:?}");
    }

    #[test]
    fn differentials_verified_and_refuted() {
        let spec = "sizes = { d = [3] }\nindex = { r = \"d\" }\nmatrix = { x = [\"1\", \"d\"] }\nvary = ['x']";
        let defs = vec![("\\mu", &[][..], "\\frac1d\\sum_r x_r")];
        let ok = verdict(spec, &defs, "d\\mu=\\operatorname{mean}(dx)", "");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        let bad = verdict(spec, &defs, "d\\mu=\\operatorname{sum}(dx)", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn trigonometric_identities_are_exact() {
        let spec = "sizes = { n = [3] }\nindex = { i = \"n\", j = \"n\" }\nfunctions = { R = \"rotation\" }";
        let defs = vec![("R", &["i"][..], "R(i\\omega)")];
        // sin and cos of iω, jω and (j−i)ω are made of one half-angle tangent of ω.
        assert_randomized_proof(&verdict(spec, &defs, "R_i^\\mathsf TR_j=R((j-i)\\omega)", ""));
        let bad = verdict(spec, &defs, "R_i^\\mathsf TR_j=R((i-j)\\omega)", "i\\ne j");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn cyclic_definitions_are_undecided_not_a_hang() {
        let defs = vec![("u", &[][..], "v+1"), ("v", &[][..], "u")];
        let v = verdict("sizes = { N = [2] }", &defs, "u = 1", "");
        assert_eq!(v.status, Status::Undecided);
        assert!(matches!(&v.reason, Reason::Cyclic { .. }), "{:?}", v.reason);
    }
}
