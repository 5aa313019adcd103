//! Do two values agree? Exactly first, numerically where the normal form cannot decide.
//!
//! - A difference whose normal form is 0 is a proof (at this size and index assignment).
//! - A difference whose normal form is a nonzero *rational function* (numbers, variables, +, ×,
//!   integer powers: no exp, log or roots) is a disproof: such a function is nonzero almost
//!   everywhere, so no numeric tolerance may accept it (`10^{30}=10^{30}+1` is refuted).
//! - Otherwise both sides are evaluated at random points, with 200-bit complex arithmetic on the
//!   principal branch, leaves drawn with both signs (positive only where the spec says so): an
//!   identity of analytic expressions holds there too, while a branch identity (`\sqrt{x^2}=x`,
//!   `\sqrt{a^2b^2}=ab`) differs at a negative point. Agreement is numeric evidence and says so.
//! - A logarithm the claim takes, `\ln u`, is real only where u > 0, and the claim says nothing
//!   elsewhere: a difference that is zero once such arguments are split as positive factors
//!   (`\ln(a^2)=2\ln a`, the log of a likelihood) is equal there, the agreement listing them;
//!   a point there where the sides differ is a counterexample at which both are real.
//! - A side printed as a decimal (`0.7311`) is compared to its printed precision (half a unit
//!   in the last digit) when the other side is a constant.

use super::{euler, Symbolic, EULER_NAME};
use crate::eval::Instance;
use crate::eval::{EvalError, EvalErrorKind, Value};
use crate::model::NotRead;
use crate::model::{Method, Mismatch};
use crate::syntax::ast::Span;
use rand::{Rng, SeedableRng};
use std::collections::HashMap;
use symbolica::domains::float::Complex;
use symbolica::prelude::*;

#[derive(Debug, Clone, PartialEq)]
pub enum Agreement {
    /// Equal; where the proof took the claim's own logarithms as defined (real), the TeX of
    /// each argument it took as positive (`\\pi(x_{1})`), else empty.
    Equal(Method, Vec<String>),
    Different(Mismatch),
}

/// What a comparison may assume beyond the values.
#[derive(Debug, Clone, Default)]
pub struct Assumptions {
    /// Per entry of the right side (or one for all): a printed decimal's half-unit tolerance.
    pub printed: Option<Vec<f64>>,
}

const PRECISION_BITS: u32 = 200;
/// Agreement within 2^-(200-40): the working precision, less 40 bits for rounding in long sums.
const GUARD_BITS: i32 = 40;
/// Points per entry: enough that a branch identity (false for some sign pattern of its leaves)
/// is caught: the first two points have all leaves positive, then all negative, the rest mixed.
const POINTS: usize = 12;
/// Points redrawn when a side is undefined there (a zero denominator, an overflow).
const REDRAWS: usize = 12;
const SHOWN_DIFFERENCE_CHARS: usize = 240;
/// Beyond this size a difference is not put in normal form (whose cost grows steeply): the
/// numeric check decides, and the verdict says numeric. Keeps a claim's time bounded.
const EXACT_BYTES: usize = 4 * 1024 * 1024;

fn relative_tolerance() -> f64 {
    2f64.powi(-(PRECISION_BITS as i32 - GUARD_BITS))
}

/// Compares entry by entry; a shape mismatch is an error that refutes (with a hint when the
/// sides are transposes of each other).
pub fn compare(
    inst: &Instance<Symbolic>,
    lhs: &Value<Atom>,
    rhs: &Value<Atom>,
    span: Span,
    seed: u64,
    assume: &Assumptions,
) -> Result<Agreement, EvalError> {
    let diff = match lhs.zip(rhs, "the two sides", span, false, |a, b| a - b) {
        Ok(diff) => diff,
        Err(e) => return Err(transposed_hint(lhs, rhs, span).unwrap_or(e)),
    };
    let (rows, cols) = (Some(diff.rows), Some(diff.cols));
    let (l, r) = (lhs.resolve(rows, cols), rhs.resolve(rows, cols));
    let (l, r) = (stretch(&l, diff.shape()), stretch(&r, diff.shape()));
    let mut method = Method::Symbolic;
    let mut where_positive: Vec<String> = Vec::new();
    for k in 0..diff.data.len() {
        let entry = (diff.data.len() > 1).then(|| (k / diff.cols + 1, k % diff.cols + 1));
        let tolerance = assume.printed.as_ref().and_then(|t| t.get(k).or(t.first())).copied();
        if let Some(tolerance) = tolerance.filter(|_| unknowns(&l.data[k], &r.data[k]).is_empty()) {
            match rounded(inst, &l.data[k], &r.data[k], tolerance, span)? {
                None => method = weaker(method, Method::Rounded),
                Some(mut m) => {
                    m.entry = entry;
                    return Ok(Agreement::Different(m));
                }
            }
            continue;
        }
        let exact = (diff.data[k].as_view().get_byte_size() <= EXACT_BYTES)
            .then(|| guarded_normal_form(&diff.data[k]))
            .flatten();
        if exact.as_ref().is_some_and(|n| n.is_zero()) {
            // An exact zero is cross-checked at one random point: a disagreement is a bug in
            // the CAS path, surfaced loudly rather than reported as a proof.
            if let Some(m) = numeric_mismatch(inst, &l.data[k], &r.data[k], seed ^ 0x9e37, span, 1)? {
                return Err(EvalErrorKind::Inconsistent {
                    detail: format!("normal form is 0 but the sides differ numerically ({} vs {})", m.lhs, m.rhs),
                }
                .at(span));
            }
            continue;
        }
        match where_logs_defined(inst, &l.data[k], &r.data[k], &diff.data[k], seed, span) {
            Some(OnLogsDomain::Zero(positive)) => {
                where_positive.extend(positive.into_iter().filter(|p| !where_positive.contains(p)).collect::<Vec<_>>());
                continue;
            }
            Some(OnLogsDomain::Differs(mut m)) => {
                m.entry = entry;
                m.difference = exact.and_then(|n| shown_difference(inst, &n));
                return Ok(Agreement::Different(m));
            }
            None => {}
        }
        let provably_nonzero = exact.as_ref().is_some_and(is_rational_function);
        let found = numeric_mismatch(inst, &l.data[k], &r.data[k], seed.wrapping_add(k as u64), span, POINTS)?;
        match (found, provably_nonzero) {
            (None, false) => method = weaker(method, Method::Numeric),
            (found, _) => {
                let mut m = match found {
                    Some(m) => m,
                    None => at_some_point(inst, &l.data[k], &r.data[k], seed, span)?,
                };
                m.entry = entry;
                if provably_nonzero {
                    m.method = Method::Symbolic;
                }
                m.difference = exact.and_then(|n| shown_difference(inst, &n));
                return Ok(Agreement::Different(m));
            }
        }
    }
    Ok(Agreement::Equal(method, where_positive))
}

/// Is `a` zero wherever its leaves take values: exactly, or at every point the numeric check
/// draws (an equation that holds identically, whatever it is assumed for)?
pub(super) fn vanishes(inst: &Instance<Symbolic>, a: &Atom, span: Span) -> bool {
    if guarded_normal_form(a).is_some_and(|n| n.is_zero()) {
        return true;
    }
    matches!(numeric_mismatch(inst, a, &Atom::num(0), 0x5eed, span, POINTS), Ok(None))
}

/// The weaker of two methods: what a verdict over several entries can claim.
pub fn weaker(a: Method, b: Method) -> Method {
    match (a, b) {
        (Method::Numeric, _) | (_, Method::Numeric) => Method::Numeric,
        (Method::Rounded, _) | (_, Method::Rounded) => Method::Rounded,
        _ => Method::Symbolic,
    }
}

/// Sides of transposed shapes that agree once one is transposed: the layout differs.
fn transposed_hint(lhs: &Value<Atom>, rhs: &Value<Atom>, span: Span) -> Option<EvalError> {
    if lhs.is_free() || rhs.is_free() || lhs.shape() != (rhs.cols, rhs.rows) || lhs.shape() == rhs.shape() {
        return None;
    }
    let t = rhs.transpose();
    let equal = lhs.data.iter().zip(&t.data).all(|(a, b)| guarded_normal_form(&(a - b)).is_some_and(|n| n.is_zero()));
    equal.then(|| EvalErrorKind::TransposedLayout { left: lhs.shape(), right: rhs.shape() }.at(span))
}

fn stretch(v: &Value<Atom>, (rows, cols): (usize, usize)) -> Value<Atom> {
    if v.shape() == (rows, cols) {
        v.clone()
    } else {
        Value::from_fn(rows, cols, |_, _| v.data[0].clone())
    }
}

/// Numbers, variables, sums, products and integer powers only: a nonzero normal form of this
/// kind is a nonzero function.
fn is_rational_function(a: &Atom) -> bool {
    fn walk(v: AtomView) -> bool {
        match v {
            AtomView::Num(_) => true,
            AtomView::Var(_) => !is_constant(v),
            AtomView::Add(a) => a.iter().all(walk),
            AtomView::Mul(m) => m.iter().all(walk),
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                integer(exponent).is_some() && walk(base)
            }
            _ => false,
        }
    }
    walk(a.as_view())
}

/// The numerator of `a` put over one denominator (`a - e^b(1-a)` of `\frac{a}{1-a} - e^b`),
/// where the normal form has a denominator: where that is nonzero, `a` vanishes exactly where
/// the numerator does. `None` without a denominator, or where the normal form is not tried.
pub(super) fn numerator_over_one_denominator(a: &Atom) -> Option<Atom> {
    let normal = guarded_normal_form(a)?;
    let AtomView::Mul(product) = normal.as_view() else { return None };
    let mut numerator = Atom::num(1);
    let mut denominator = false;
    for factor in product.iter() {
        let reciprocal = matches!(factor, AtomView::Pow(p) if integer(p.get_base_exp().1).is_some_and(|k| k < 0));
        if reciprocal {
            denominator = true;
        } else {
            numerator *= factor.to_owned();
        }
    }
    denominator.then_some(numerator)
}

pub(super) fn guarded_normal_form(a: &Atom) -> Option<Atom> {
    guarded_normal_form_over(a, &[])
}

/// [`normal_form_over`] where the difference is small enough for it ([`MAX_TRANSCENDENTAL_ATOMS`],
/// [`MAX_COMMON_NUMERATOR_TERMS`], [`MAX_FRACTIONAL_EXPONENT_PART`]), and a panic inside
/// Symbolica is no answer.
fn guarded_normal_form_over(a: &Atom, positive: &[Atom]) -> Option<Atom> {
    if transcendental_atoms(a) > MAX_TRANSCENDENTAL_ATOMS
        || common_numerator_terms(a) > MAX_COMMON_NUMERATOR_TERMS
        || has_fine_fractional_power(a.as_view())
    {
        return None;
    }
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| normal_form_over(a, positive))).ok()
}

/// Draws for points inside the place where a claim's logarithms are defined
/// ([`where_logs_defined`]); cheap, since a draw evaluates the arguments first.
const DOMAIN_DRAWS: usize = 400;

/// A difference on the place where the claim's own logarithms are defined.
enum OnLogsDomain {
    /// Zero there; the arguments taken as positive, as TeX.
    Zero(Vec<String>),
    /// The sides differ at a point there, where both are real.
    Differs(Mismatch),
}

/// `\ln u`, written in a claim, is a real number only for u > 0, and the claim says nothing
/// where it is not. So the normal form may take ln(∏ fᵢ^{eᵢ}) = Σ eᵢ ln fᵢ for factors fᵢ that
/// are such arguments too (`\log\prod_i \pi_i^{y_i}(1-\pi_i)^{1-y_i} = \sum_i y_i\log\pi_i +
/// (1-\pi_i)\log(1-\pi_i)`): zero so, and the sides agreeing at a point where every argument
/// is positive (which shows that place is not empty), the difference is zero there. Else the
/// sides are compared at such points ([`POINTS`] of them), and a point where they differ is a
/// counterexample where both are real. `None` when the difference has no such logarithm, or no
/// point is found.
fn where_logs_defined(
    inst: &Instance<Symbolic>,
    lhs: &Atom,
    rhs: &Atom,
    diff: &Atom,
    seed: u64,
    span: Span,
) -> Option<OnLogsDomain> {
    // (Most differences take no logarithm: nothing to expand for them.)
    if !diff.contains_symbol(Symbol::LOG) {
        return None;
    }
    let arguments: Vec<Atom> =
        log_arguments(&diff.expand()).into_iter().filter(|a| !is_positive(a.as_view())).collect();
    if arguments.is_empty() {
        return None;
    }
    let zero = guarded_normal_form_over(diff, &arguments).is_some_and(|n| n.is_zero());
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0xd0_3a19);
    let unknowns = signed_unknowns(inst, lhs, rhs);
    let positive_real = |v: &Complex<Float>| {
        let (re, im) = (v.re.to_f64(), v.im.to_f64());
        re > 0.0 && im.abs() <= relative_tolerance() * re
    };
    let mut agreed = 0;
    for draw in 0..DOMAIN_DRAWS {
        let point = random_point(&unknowns, &mut rng, draw);
        let inside =
            arguments.iter().all(|a| evaluate(a, &point, span).ok().flatten().is_some_and(|v| positive_real(&v)));
        if !inside {
            continue;
        }
        let (Ok(Some(l)), Ok(Some(r))) = (evaluate(lhs, &point, span), evaluate(rhs, &point, span)) else { continue };
        let gap = (l.clone() - r.clone()).norm().re.to_f64();
        let scale = l.norm().re.to_f64().max(r.norm().re.to_f64()).max(1.0);
        if gap > relative_tolerance() * scale {
            // (A normal form of zero that the floats contradict is no proof: nothing is said.)
            return (!zero).then(|| OnLogsDomain::Differs(mismatch(inst, &l, &r, &point)));
        }
        agreed += 1;
        if zero || agreed == POINTS {
            break;
        }
    }
    let tex = |a: &Atom| {
        let text = format!("{}", a.printer(PrintOptions::latex())).replace(EULER_NAME, "e");
        format!("{} > 0", shown(inst, &text))
    };
    (zero && agreed > 0).then(|| OnLogsDomain::Zero(arguments.iter().map(tex).collect()))
}

/// The arguments of the logarithms in `a`, each once.
fn log_arguments(a: &Atom) -> Vec<Atom> {
    fn walk(v: AtomView, out: &mut Vec<Atom>) {
        match v {
            AtomView::Num(_) | AtomView::Var(_) => {}
            AtomView::Fun(f) => {
                if f.get_symbol() == Symbol::LOG && f.get_nargs() == 1 {
                    let argument = f.iter().next().expect("one argument").to_owned();
                    if !out.contains(&argument) {
                        out.push(argument);
                    }
                }
                f.iter().for_each(|arg| walk(arg, out));
            }
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                walk(base, out);
                walk(exponent, out);
            }
            AtomView::Add(sum) => sum.iter().for_each(|t| walk(t, out)),
            AtomView::Mul(product) => product.iter().for_each(|t| walk(t, out)),
        }
    }
    let mut out = Vec::new();
    walk(a.as_view(), &mut out);
    out
}

/// The most distinct transcendental atoms (ℯ^u, ln u, σ(u), …) a difference may hold for its
/// normal form to be tried. The normal form puts everything over one denominator, whose size
/// grows with the product of the atoms' denominators, inside Symbolica where no budget reaches:
/// a tanh layer of width 93 (186 exponentials) ran past 24 GB. Beyond this the randomized test
/// and the floats decide. No difference in the test suite (the shipped chapter, the test
/// chapters, the generated identities) holds more than 7.
const MAX_TRANSCENDENTAL_ATOMS: usize = 64;

/// The largest numerator or denominator of a fractional exponent the normal form is tried
/// with. It writes x^{p/q} as the p-th power of a new variable x^{1/q}: a printed decimal
/// exponent (`e^{1.105905967}`, a published worked example) made that a polynomial of degree
/// 1,105,905,967, past the claim's deadline inside Symbolica. The floats decide such a claim.
const MAX_FRACTIONAL_EXPONENT_PART: u64 = 1000;

/// Does `v` hold a power whose exponent is a fraction p/q with p or q past
/// [`MAX_FRACTIONAL_EXPONENT_PART`]?
fn has_fine_fractional_power(v: AtomView) -> bool {
    any_node(v, &|node| {
        let AtomView::Pow(p) = node else { return false };
        let (_, exponent) = p.get_base_exp();
        matches!(exponent, AtomView::Num(_))
            && exponent.to_owned().to_string().split('/').any(|part| {
                part.trim_start_matches('-').parse::<u64>().map_or(true, |n| n > MAX_FRACTIONAL_EXPONENT_PART)
            })
            && integer(exponent).is_none()
    })
}

/// Does `test` hold at some node of `v` (`v` itself, a power's base or exponent, a sum's terms, a
/// product's factors, a function's arguments)?
pub(super) fn any_node(v: AtomView, test: &dyn Fn(AtomView) -> bool) -> bool {
    test(v)
        || match v {
            AtomView::Num(_) | AtomView::Var(_) => false,
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                any_node(base, test) || any_node(exponent, test)
            }
            AtomView::Fun(f) => f.iter().any(|a| any_node(a, test)),
            AtomView::Add(sum) => sum.iter().any(|a| any_node(a, test)),
            AtomView::Mul(product) => product.iter().any(|a| any_node(a, test)),
        }
}

/// Distinct powers of ℯ, roots and function applications in `a`.
fn transcendental_atoms(a: &Atom) -> usize {
    let mut seen: std::collections::HashSet<AtomView> = std::collections::HashSet::new();
    fn walk<'a>(v: AtomView<'a>, seen: &mut std::collections::HashSet<AtomView<'a>>) {
        match v {
            AtomView::Num(_) | AtomView::Var(_) => {}
            AtomView::Fun(f) => {
                if seen.insert(v) {
                    f.iter().for_each(|arg| walk(arg, seen));
                }
            }
            AtomView::Pow(p) => {
                let (base, exponent) = p.get_base_exp();
                if integer(exponent).is_some() {
                    walk(base, seen);
                } else if seen.insert(v) {
                    walk(base, seen);
                    walk(exponent, seen);
                }
            }
            AtomView::Add(sum) => sum.iter().for_each(|t| walk(t, seen)),
            AtomView::Mul(product) => product.iter().for_each(|t| walk(t, seen)),
        }
    }
    walk(a.as_view(), &mut seen);
    seen.len()
}

/// The most terms the numerator of a difference over its common denominator may have, by
/// [`common_numerator_terms`], for its normal form to be tried: Symbolica's `together`
/// multiplies it out with no budget able to stop it: the check fuzzer's tanh layer of width 6,
/// with a mangled claim, bounded at 5.6·10¹⁰ terms, asked for a 1.9 GB polynomial. Beyond this
/// the randomized test and the floats decide. The bound is loose: the largest in the test suite,
/// 7.9 million (an MLP chapter), takes 17 ms.
const MAX_COMMON_NUMERATOR_TERMS: f64 = 1e8;

/// An upper bound on the number of terms of `a`'s numerator once put over one denominator and
/// multiplied out, as `together` does: each sum takes the union of its terms' denominators
/// (equal bases counted once, at their highest power), and each term's numerator is multiplied
/// by the denominator factors it lacks. Atoms that are not rational (ℯ^u, roots, functions)
/// count as variables, their arguments bounded on their own.
fn common_numerator_terms(a: &Atom) -> f64 {
    bound(a.as_view()).numerator
}

/// A rational expression's size: terms of its numerator, and its denominator as bases (with
/// their own numerator's terms) to powers.
struct RationalSize<'a> {
    numerator: f64,
    denominator: HashMap<AtomView<'a>, (i64, f64)>,
}

/// Terms of a sum of `terms` terms to the power k: at most C(terms + k − 1, k).
fn power_terms(terms: f64, k: i64) -> f64 {
    (1..=k.min(1 << 20)).fold(1.0, |acc, i| acc * (terms + i as f64 - 1.0) / i as f64).min(f64::MAX)
}

fn bound(v: AtomView<'_>) -> RationalSize<'_> {
    let atom = |numerator: f64| RationalSize { numerator, denominator: HashMap::new() };
    match v {
        AtomView::Num(_) | AtomView::Var(_) => atom(1.0),
        AtomView::Fun(f) => atom(f.iter().map(|arg| bound(arg).numerator).fold(1.0, f64::max)),
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            let inner = bound(base);
            match integer(exponent) {
                Some(k) if k > 0 => RationalSize {
                    numerator: power_terms(inner.numerator, k),
                    denominator: inner
                        .denominator
                        .into_iter()
                        .map(|(b, (m, t))| (b, (m.saturating_mul(k), t)))
                        .collect(),
                },
                Some(k) if k < 0 => {
                    let numerator =
                        inner.denominator.values().map(|&(m, t)| power_terms(t, m.saturating_mul(-k))).product();
                    let denominator = HashMap::from([(base, (-k, inner.numerator))]);
                    RationalSize { numerator, denominator }
                }
                _ => atom(inner.numerator.max(bound(exponent).numerator)),
            }
        }
        AtomView::Mul(product) => product.iter().map(bound).fold(atom(1.0), |mut acc, factor| {
            acc.numerator *= factor.numerator;
            for (b, (m, t)) in factor.denominator {
                let power = &mut acc.denominator.entry(b).or_insert((0, t)).0;
                *power = power.saturating_add(m);
            }
            acc
        }),
        AtomView::Add(sum) => {
            let terms: Vec<RationalSize> = sum.iter().map(bound).collect();
            let mut denominator: HashMap<AtomView, (i64, f64)> = HashMap::new();
            for t in &terms {
                for (b, &(m, size)) in &t.denominator {
                    let entry = denominator.entry(*b).or_insert((0, size));
                    entry.0 = entry.0.max(m);
                }
            }
            let numerator = terms
                .iter()
                .map(|t| {
                    let missing = denominator
                        .iter()
                        .map(|(b, &(m, size))| power_terms(size, m - t.denominator.get(b).map_or(0, |&(own, _)| own)));
                    t.numerator * missing.product::<f64>()
                })
                .sum();
            RationalSize { numerator, denominator }
        }
    }
}

/// Rational normal form (exp atoms included); then, if needed, logs of products of positive
/// factors and of exponentials expanded and normalized again; then sin/cos as exponentials.
/// With `positive` empty, no rewrite depends on the sign of an unknown: ln(ab) = ln a + ln b is
/// used only for factors that are positive whatever the leaves are (exponentials, sums of
/// them); each of `positive` is taken as positive too ([`where_logs_defined`]).
fn normal_form_over(a: &Atom, positive: &[Atom]) -> Atom {
    let together = a.together();
    if together.is_zero() {
        return together;
    }
    let mut current = a.expand();
    for _ in 0..8 {
        let next = exp_of_logs(&expand_logs(&current, positive)).expand();
        if next == current {
            break;
        }
        current = next;
    }
    let result = current.together();
    if result.is_zero() {
        return result;
    }
    let euler = to_exponentials(&current).together();
    if euler.is_zero() {
        euler
    } else {
        together
    }
}

/// ln(∏ fᵢ^{eᵢ}) = Σ eᵢ ln fᵢ for factors fᵢ that are positive for all real leaves; ln(eˣ) = x.
fn expand_logs(a: &Atom, positive: &[Atom]) -> Atom {
    a.replace_map(|view, _ctx, out| {
        let AtomView::Fun(f) = view else { return };
        if f.get_symbol() != Symbol::LOG || f.get_nargs() != 1 {
            return;
        }
        let arg = f.iter().next().expect("one argument");
        let factors: Vec<AtomView> = match arg {
            AtomView::Mul(m) => m.iter().collect(),
            other => vec![other],
        };
        let mut expanded = Atom::num(0);
        let mut rest = Atom::num(1);
        let mut changed = false;
        for factor in factors {
            match log_of_positive(factor, positive) {
                Some(log) => {
                    expanded += log;
                    changed = true;
                }
                None => rest *= factor.to_owned(),
            }
        }
        if changed {
            let rest_log = if rest == Atom::num(1) {
                Atom::num(0)
            } else {
                FunctionBuilder::new(Symbol::LOG).add_arg(&rest).finish()
            };
            **out = expanded + rest_log;
        }
    })
}

/// ℯ^u with each term n·ln z of u (n an integer) taken out as a factor z^n: e^{n ln z} = z^n for
/// every z ≠ 0 on the principal branch. (Symbolica's own rewrite of this kind is what [`euler`]
/// avoids; this one leaves the other terms in the exponent.)
fn exp_of_logs(a: &Atom) -> Atom {
    let e = euler();
    a.replace_map(|view, _ctx, out| {
        let AtomView::Pow(p) = view else { return };
        let (base, exponent) = p.get_base_exp();
        if base != e.as_view() || !exponent.contains_symbol(Symbol::LOG) {
            return;
        }
        let terms: Vec<AtomView> = match exponent {
            AtomView::Add(sum) => sum.iter().collect(),
            other => vec![other],
        };
        let (mut factors, mut rest, mut changed) = (Atom::num(1), Atom::num(0), false);
        for term in terms {
            match integer_multiple_of_log(term) {
                Some((n, z)) => {
                    factors *= z.pow(Atom::num(n));
                    changed = true;
                }
                None => rest += term.to_owned(),
            }
        }
        if changed {
            **out = factors * e.pow(&rest);
        }
    })
}

/// `n·ln z` as (n, z), for an integer n.
fn integer_multiple_of_log(term: AtomView) -> Option<(i64, Atom)> {
    let log_argument = |v: AtomView| match v {
        AtomView::Fun(f) if f.get_symbol() == Symbol::LOG && f.get_nargs() == 1 => {
            f.iter().next().map(|z| z.to_owned())
        }
        _ => None,
    };
    if let Some(z) = log_argument(term) {
        return Some((1, z));
    }
    let AtomView::Mul(m) = term else { return None };
    let factors: Vec<AtomView> = m.iter().collect();
    let [a, b] = factors[..] else { return None };
    let (n, log) = match (integer(a), integer(b)) {
        (Some(n), _) => (n, b),
        (None, Some(n)) => (n, a),
        _ => return None,
    };
    Some((n, log_argument(log)?))
}

/// The value of an integer number atom (one that fits an i64).
pub(super) fn integer(v: AtomView) -> Option<i64> {
    match v {
        AtomView::Num(_) => v.to_owned().to_string().parse().ok(),
        _ => None,
    }
}

/// ln of a factor that is positive for every real value of the leaves, or is one of
/// `positive`, expanded; `None` when its sign is not known.
fn log_of_positive(v: AtomView, positive: &[Atom]) -> Option<Atom> {
    let log = |a: &Atom| FunctionBuilder::new(Symbol::LOG).add_arg(a).finish();
    let known = |v: AtomView| is_positive(v) || positive.iter().any(|p| p.as_view() == v);
    match v {
        AtomView::Pow(p) => {
            let (base, exponent) = p.get_base_exp();
            if base == euler().as_view() {
                return Some(exponent.to_owned());
            }
            known(base).then(|| exponent.to_owned() * log(&base.to_owned()))
        }
        AtomView::Num(_) if is_positive(v) => None, // ln of a positive number stays as it is
        _ if is_positive(v) => Some(log(&v.to_owned())).filter(|_| !matches!(v, AtomView::Add(_))),
        _ if known(v) => Some(log(&v.to_owned())),
        _ => None,
    }
}

/// Positive for all real values of the leaves: positive numbers, exponentials, and sums and
/// products of those.
fn is_positive(v: AtomView) -> bool {
    match v {
        AtomView::Num(_) => v
            .to_owned()
            .to_string()
            .parse::<f64>()
            .map(|x| x > 0.0)
            .unwrap_or_else(|_| !v.to_owned().to_string().starts_with('-')),
        AtomView::Var(_) => is_constant(v),
        AtomView::Fun(_) => false,
        AtomView::Pow(p) => {
            let (base, _) = p.get_base_exp();
            is_positive(base)
        }
        AtomView::Add(a) => a.iter().all(is_positive),
        AtomView::Mul(m) => m.iter().all(is_positive),
    }
}

/// cos x = (e^{ix}+e^{-ix})/2, sin x = (e^{ix}-e^{-ix})/(2i): trigonometric identities become
/// rational identities in exponentials, which the normal form decides exactly.
fn to_exponentials(a: &Atom) -> Atom {
    let x = Atom::var(symbol!("x_"));
    let i = Atom::i();
    let exp = |a: Atom| euler().pow(&a);
    let cos = (exp(&i * &x) + exp(-(&i * &x))) / Atom::num(2);
    let sin = (exp(&i * &x) - exp(-(&i * &x))) / (Atom::num(2) * &i);
    a.replace(parse!("cos(x_)").to_pattern())
        .with(cos.to_pattern())
        .replace(parse!("sin(x_)").to_pattern())
        .with(sin.to_pattern())
}

type Point = Vec<(Atom, f64)>;

fn evaluate(a: &Atom, point: &Point, span: Span) -> Result<Option<Complex<Float>>, EvalError> {
    let zero = Float::with_val(PRECISION_BITS, 0);
    let mut map: HashMap<Atom, Complex<Float>> = point
        .iter()
        .map(|(a, v)| (a.clone(), Complex::new(Float::with_val(PRECISION_BITS, *v), zero.clone())))
        .collect();
    map.insert(euler(), Complex::new(Float::with_val(PRECISION_BITS, 1).exp(), zero.clone()));
    let value = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| a.evaluate_with_prec(&map, PRECISION_BITS)));
    match value {
        Ok(Ok(v)) if v.re.to_f64().is_finite() && v.im.to_f64().is_finite() => Ok(Some(v)),
        Ok(Ok(_)) | Err(_) => Ok(None),
        Ok(Err(e)) => {
            Err(EvalErrorKind::Unsupported { category: NotRead::Numeric, what: format!("numeric evaluation ({e:?})") }
                .at(span))
        }
    }
}

/// A random point: every unknown of both sides gets a value of either sign, mostly of moderate
/// size, sometimes near 0 or larger (positive for the spec's positive symbols). Point 0 is all
/// positive, point 1 all negative, later points mix signs.
fn random_point(unknowns: &[(Atom, bool)], rng: &mut rand::rngs::StdRng, index: usize) -> Point {
    unknowns
        .iter()
        .map(|(u, declared_positive)| {
            let magnitude = match rng.random_range(0..20) {
                0..=2 => rng.random_range(0.01..0.1),
                3..=5 => rng.random_range(1.7..4.0),
                _ => rng.random_range(0.3..1.7),
            };
            let keep_sign = *declared_positive || index == 0 || (index != 1 && rng.random_bool(0.5));
            (u.clone(), if keep_sign { magnitude } else { -magnitude })
        })
        .collect()
}

/// Both sides at random points where both are defined; the first point where they differ.
fn numeric_mismatch(
    inst: &Instance<Symbolic>,
    lhs: &Atom,
    rhs: &Atom,
    seed: u64,
    span: Span,
    points: usize,
) -> Result<Option<Mismatch>, EvalError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let unknowns = signed_unknowns(inst, lhs, rhs);
    let (mut evaluated, mut drawn) = (0, 0);
    while evaluated < points {
        drawn += 1;
        if drawn > points + REDRAWS {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Numeric,
                what: "numeric evaluation: the sides are undefined at every point tried".into(),
            }
            .at(span));
        }
        let point = random_point(&unknowns, &mut rng, drawn - 1);
        let (Some(l), Some(r)) = (evaluate(lhs, &point, span)?, evaluate(rhs, &point, span)?) else { continue };
        evaluated += 1;
        let gap = (l.clone() - r.clone()).norm().re.to_f64();
        let scale = l.norm().re.to_f64().max(r.norm().re.to_f64()).max(1.0);
        if gap > relative_tolerance() * scale {
            return Ok(Some(mismatch(inst, &l, &r, &point)));
        }
    }
    Ok(None)
}

/// Both sides at one point where they are defined (for a difference already shown nonzero).
fn at_some_point(
    inst: &Instance<Symbolic>,
    lhs: &Atom,
    rhs: &Atom,
    seed: u64,
    span: Span,
) -> Result<Mismatch, EvalError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed ^ 0x5eed);
    let unknowns = signed_unknowns(inst, lhs, rhs);
    for k in 0..=REDRAWS {
        let point = random_point(&unknowns, &mut rng, k);
        if let (Some(l), Some(r)) = (evaluate(lhs, &point, span)?, evaluate(rhs, &point, span)?) {
            return Ok(mismatch(inst, &l, &r, &point));
        }
    }
    Err(EvalErrorKind::Unsupported {
        category: NotRead::Numeric,
        what: "numeric evaluation: the sides are undefined at every point tried".into(),
    }
    .at(span))
}

/// A side printed to some decimals against a constant: equal within the printed precision.
fn rounded(
    inst: &Instance<Symbolic>,
    lhs: &Atom,
    rhs: &Atom,
    tolerance: f64,
    span: Span,
) -> Result<Option<Mismatch>, EvalError> {
    let point = Vec::new();
    let (Some(l), Some(r)) = (evaluate(lhs, &point, span)?, evaluate(rhs, &point, span)?) else {
        return Err(EvalErrorKind::Unsupported {
            category: NotRead::Numeric,
            what: "numeric evaluation of a printed value".into(),
        }
        .at(span));
    };
    let gap = (l.clone() - r.clone()).norm().re.to_f64();
    if gap <= tolerance * (1.0 + 1e-12) {
        return Ok(None);
    }
    let mut m = mismatch(inst, &l, &r, &point);
    m.method = Method::Rounded;
    m.tolerance = Some(tolerance);
    Ok(Some(m))
}

fn mismatch(inst: &Instance<Symbolic>, l: &Complex<Float>, r: &Complex<Float>, point: &Point) -> Mismatch {
    let imaginary = |c: &Complex<Float>| {
        let im = c.im.to_f64();
        (im.abs() > relative_tolerance() * c.norm().re.to_f64().max(1.0)).then_some(im)
    };
    // (A function nobody specified is its values and derivatives at the point, never a number of
    // its own: `g = 1.58` beside `g(x)`, `g'(x)` says nothing.)
    let functions = &inst.scope().usage.unknown_functions;
    let shown_point = point
        .iter()
        .map(|(a, v)| (shown(inst, &a.to_string()), *v))
        .filter(|(name, _)| !functions.contains(name))
        .collect();
    Mismatch {
        lhs_imaginary: imaginary(l),
        rhs_imaginary: imaginary(r),
        ..Mismatch::at_point(l.re.to_f64(), r.re.to_f64(), shown_point, Method::Numeric)
    }
}

/// The unknowns of both sides, each marked when it is a leaf of a symbol the spec declares
/// positive (compared by the variable's own name).
fn signed_unknowns(inst: &Instance<Symbolic>, lhs: &Atom, rhs: &Atom) -> Vec<(Atom, bool)> {
    let positive = inst.positive_leaves.borrow();
    unknowns(lhs, rhs)
        .into_iter()
        .map(|u| {
            let declared = match u.as_view() {
                AtomView::Var(v) => positive.contains(v.get_symbol().get_stripped_name()),
                _ => false,
            };
            (u, declared)
        })
        .collect()
}

/// Variables and generic-function values (σ(b), der(…)) of both sides: what a point assigns.
pub(super) fn unknowns(lhs: &Atom, rhs: &Atom) -> Vec<Atom> {
    let mut out: Vec<Atom> = Vec::new();
    for side in [lhs, rhs] {
        for view in side.get_all_indeterminates(true) {
            let keep = match view {
                AtomView::Var(_) => !is_constant(view),
                AtomView::Fun(f) => !super::elementary_function(f.get_symbol()),
                _ => false,
            };
            let atom = view.to_owned();
            if keep && !out.contains(&atom) {
                out.push(atom);
            }
        }
    }
    out.sort_by_key(|a| a.to_string());
    out
}

fn shown_difference(inst: &Instance<Symbolic>, diff: &Atom) -> Option<String> {
    let text = shown(inst, &diff.to_string());
    (text.chars().count() <= SHOWN_DIFFERENCE_CHARS).then_some(text)
}

/// The constants π and ℯ ([`euler`]), which a point does not assign.
fn is_constant(v: AtomView) -> bool {
    v == euler().as_view() || v == Atom::var(Symbol::PI).as_view()
}

/// Replaces internal variable names by the notes' spelling (and ℯ's by 𝑒).
pub fn shown(inst: &Instance<Symbolic>, text: &str) -> String {
    let names = inst.names.borrow();
    let mut keys: Vec<&String> = names.keys().collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    let mut out = text.replace(EULER_NAME, "𝑒");
    // Functions nobody specified, by the notes' names (`der(1,g,x)` is g′ at x).
    for f in &inst.scope().usage.unknown_functions {
        out = out.replace(&format!("unknown_{}", crate::eval::sanitize(f)), f);
    }
    // In one pass, longest name first: replaced one after another, `a` (internal `va`) would
    // rewrite the `va` inside the notes' `\varepsilon` already put back.
    if !keys.is_empty() {
        let alternatives: Vec<String> = keys.iter().map(|k| regex::escape(k)).collect();
        if let Ok(pattern) = regex::Regex::new(&format!(r"\b(?:{})\b", alternatives.join("|"))) {
            out = pattern.replace_all(&out, |c: &regex::Captures| names[&c[0]].clone()).into_owned();
        }
    }
    // `der(1,g,x)`, Symbolica's derivative of a function nobody specified of one argument: g′(x)
    // as written (`der(1,0,f,x,y)`, of several, stays as it is).
    static DERIVATIVE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"der\(([1-9]),([^0-9,()][^,()]*),([^,()]*)\)").expect("a valid pattern")
    });
    DERIVATIVE
        .replace_all(&out, |c: &regex::Captures| {
            let primes = "'".repeat(c[1].parse().unwrap_or(1));
            format!("{}{primes}({})", &c[2], &c[3])
        })
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nf(text: &str) -> String {
        crate::cas::inline({
            let text = text.to_string();
            // `exp` in the text is ℯ^…, as the backend builds it (never Symbolica's `E`).
            move || {
                let text = text.replace("exp(", "test_exp(");
                let with_euler = parse!(text.as_str())
                    .replace(parse!("test_exp(x_)").to_pattern())
                    .with((euler().pow(parse!("x_"))).to_pattern());
                normal_form_over(&with_euler, &[]).to_string()
            }
        })
    }

    #[test]
    fn exponentials_of_logs_stay_exponentials() {
        // Symbolica 3.0.0 normalizes its own E^(log(x)^2) to log(x)^2; ℯ is not touched.
        assert_eq!(nf("exp(log(x)^2 - 1/2) - exp(log(x)^2)/exp(1/2)"), "0");
        assert_ne!(nf("exp(log(x)^2) - log(x)^2"), "0");
        assert_ne!(nf("exp((log(1+exp(x))-x)^2) - (log(1+exp(x))-x)^2"), "0");
        assert_eq!(nf("exp(log(x)) - x"), "0");
        assert_eq!(nf("exp(2*log(x) + y) - x^2*exp(y)"), "0");
        assert_ne!(nf("exp(log(x)*log(y)) - x*y"), "0");
    }

    #[test]
    fn logs_expand_only_over_positive_factors() {
        assert_eq!(nf("log(exp(a)*exp(b)) - a - b"), "0");
        assert_eq!(nf("log(exp(a)/(exp(a)+exp(b))) - a + log(exp(a)+exp(b))"), "0");
        assert_ne!(nf("log(a^2) - 2*log(a)"), "0", "a may be negative");
        assert_ne!(nf("log(a*b) - log(a) - log(b)"), "0", "a and b may be negative");
    }

    /// The normal form with the difference's own log arguments taken as positive.
    fn nf_where_logs_defined(text: &str) -> String {
        let text = text.to_string();
        crate::cas::inline(move || {
            let a = parse!(text.as_str());
            let arguments = log_arguments(&a.expand());
            normal_form_over(&a, &arguments).to_string()
        })
    }

    #[test]
    fn logs_expand_over_the_arguments_the_claim_takes_logs_of() {
        assert_eq!(nf_where_logs_defined("log(a^2) - 2*log(a)"), "0");
        assert_eq!(nf_where_logs_defined("log(a*b) - log(a) - log(b)"), "0");
        let likelihood = "log(p^y*(1-p)^(1-y)*q^z*(1-q)^(1-z)) - y*log(p) - (1-y)*log(1-p) - z*log(q) - (1-z)*log(1-q)";
        assert_eq!(nf_where_logs_defined(likelihood), "0");
        // A slip stays a difference; and a sum is no product to split.
        assert_ne!(nf_where_logs_defined("log(a^3) - 2*log(a)"), "0");
        assert_ne!(nf_where_logs_defined("log(a+b) - log(a) - log(b)"), "0");
    }

    #[test]
    fn roots_of_squares_are_not_simplified() {
        assert_ne!(nf("(x^2)^(1/2) - x"), "0");
        assert_ne!(nf("(a^2*b^2)^(1/2) - a*b"), "0");
    }

    fn terms(text: &str) -> f64 {
        let text = text.to_string();
        crate::cas::inline(move || common_numerator_terms(&parse!(text.as_str())))
    }

    #[test]
    fn common_numerators_are_bounded_before_the_normal_form() {
        // Equal denominators are counted once; distinct ones multiply the other terms.
        assert_eq!(terms("1/(1+x) + y/(1+x)"), 2.0);
        assert_eq!(terms("1/(1+x) + 1/(1+y)"), 4.0);
        assert_eq!(terms("x/(1+x)^2 - 1/(1+x)"), 3.0);
        assert_eq!(terms("(a+b)^2"), 3.0);
        // Sums of reciprocals of distinct binomials: n·2ⁿ⁻¹ terms over the common denominator.
        let reciprocals = |n: usize| (1..=n).map(|i| format!("1/(1+x{i})")).collect::<Vec<_>>().join(" + ");
        assert_eq!(terms(&reciprocals(20)), 20.0 * 2f64.powi(19));
        assert!(terms(&reciprocals(30)) > MAX_COMMON_NUMERATOR_TERMS);
        let too_big = reciprocals(30);
        assert!(crate::cas::inline(move || guarded_normal_form(&parse!(too_big.as_str()))).is_none());
    }
}
