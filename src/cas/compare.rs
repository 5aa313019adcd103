//! Do two values agree? Exactly first, numerically where the normal form cannot decide.

use super::Symbolic;
use crate::eval::{EvalError, Value};
use crate::eval::Instance;
use crate::syntax::ast::Span;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use std::collections::HashMap;
use symbolica::prelude::*;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The difference's normal form is zero.
    Symbolic,
    /// Agreement to 200-bit precision at random points (the normal form did not reach zero).
    Numeric,
    /// Symbolic, and the floating-point cross-check at larger sizes agrees.
    #[serde(rename = "symbolic+numeric")]
    SymbolicNumeric,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Agreement {
    Equal(Method),
    Different(Mismatch),
}

/// Where two values differ: the entry, a point, both sides there, and the exact difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// 1-based (row, column) for matrices; `None` for scalars.
    pub entry: Option<(usize, usize)>,
    pub lhs: f64,
    pub rhs: f64,
    pub point: Vec<(String, f64)>,
    /// The normal form of lhs − rhs, when short.
    pub difference: Option<String>,
    pub method: Method,
}

const PRECISION_BITS: u32 = 200;
const POINTS: usize = 3;
const RELATIVE_TOLERANCE: f64 = 1e-30;
const SHOWN_DIFFERENCE_CHARS: usize = 240;
/// Beyond this size a difference is not put in normal form (whose cost grows steeply): the
/// numeric check decides, and the verdict says numeric. Keeps a claim's time bounded.
const EXACT_BYTES: usize = 4 * 1024 * 1024;

/// Compares entry by entry; a shape mismatch is an error that refutes.
pub fn compare(inst: &Instance<Symbolic>, lhs: &Value<Atom>, rhs: &Value<Atom>, span: Span, seed: u64) -> Result<Agreement, EvalError> {
    let shapes_fit = lhs.shape() == rhs.shape() || lhs.broadcast || rhs.broadcast;
    if !shapes_fit {
        return Err(EvalError::ShapeMismatch { op: "the two sides".into(), left: lhs.shape(), right: rhs.shape(), span });
    }
    let diff = lhs.zip(rhs, "the two sides", span, false, |a, b| a - b)?;
    let (l, r) = (stretch(lhs, diff.shape()), stretch(rhs, diff.shape()));
    let mut method = Method::Symbolic;
    for k in 0..diff.data.len() {
        if is_zero_exactly(&diff.data[k]) {
            // An exact zero is cross-checked at one random point: a disagreement is a bug in
            // the CAS path, surfaced loudly rather than reported as a proof.
            if let Some(m) = numeric_mismatch(inst, &l.data[k], &r.data[k], seed ^ 0x9e37, span, 1)? {
                return Err(EvalError::Inconsistent { detail: format!("normal form is 0 but the sides differ numerically ({} vs {})", m.lhs, m.rhs), span });
            }
            continue;
        }
        let entry = (!diff.is_scalar()).then(|| (k / diff.cols + 1, k % diff.cols + 1));
        match numeric_mismatch(inst, &l.data[k], &r.data[k], seed.wrapping_add(k as u64), span, POINTS)? {
            None => method = Method::Numeric,
            Some(mut m) => {
                m.entry = entry;
                let small = diff.data[k].as_view().get_byte_size() <= EXACT_BYTES;
                m.difference = small.then(|| guarded_normal_form(&diff.data[k])).flatten().and_then(|n| shown_difference(inst, &n));
                return Ok(Agreement::Different(m));
            }
        }
    }
    Ok(Agreement::Equal(method))
}

fn stretch(v: &Value<Atom>, (rows, cols): (usize, usize)) -> Value<Atom> {
    if v.shape() == (rows, cols) { v.clone() } else { Value::from_fn(rows, cols, |_, _| v.data[0].clone()) }
}

/// Whether the normal form is zero; a CAS failure (Symbolica can overflow its exponents on
/// large rational functions) counts as "cannot tell", and the numeric check then decides.
fn is_zero_exactly(diff: &Atom) -> bool {
    if diff.as_view().get_byte_size() > EXACT_BYTES {
        return false;
    }
    guarded_normal_form(diff).is_some_and(|n| n.is_zero())
}

fn guarded_normal_form(a: &Atom) -> Option<Atom> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| normal_form(a))).ok()
}

/// Rational normal form (exp atoms included); then, if needed, logs of products, powers and
/// exponentials expanded (valid for the positive arguments logs have here) and normalized again.
pub fn normal_form(a: &Atom) -> Atom {
    let together = a.together();
    if together.is_zero() {
        return together;
    }
    let rules = log_rules();
    let mut current = a.expand();
    for _ in 0..8 {
        let mut next = current.clone();
        for (pattern, replacement) in &rules {
            next = next.replace(pattern.to_pattern()).with(replacement.to_pattern());
        }
        let next = next.expand();
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
    if euler.is_zero() { euler } else { together }
}

/// cos x = (e^{ix}+e^{-ix})/2, sin x = (e^{ix}-e^{-ix})/(2i): trigonometric identities become
/// rational identities in exponentials, which the normal form decides exactly.
fn to_exponentials(a: &Atom) -> Atom {
    let x = Atom::var(symbol!("x_"));
    let i = Atom::i();
    let exp = |a: Atom| FunctionBuilder::new(Symbol::EXP).add_arg(&a).finish();
    let cos = (exp(&i * &x) + exp(-(&i * &x))) / Atom::num(2);
    let sin = (exp(&i * &x) - exp(-(&i * &x))) / (Atom::num(2) * &i);
    a.replace(parse!("cos(x_)").to_pattern()).with(cos.to_pattern()).replace(parse!("sin(x_)").to_pattern()).with(sin.to_pattern())
}

fn log_rules() -> Vec<(Atom, Atom)> {
    vec![
        (parse!("log(x_*y_)"), parse!("log(x_)+log(y_)")),
        (parse!("log(x_^y_)"), parse!("y_*log(x_)")),
        (parse!("log(exp(x_))"), parse!("x_")),
    ]
}

/// Evaluates both sides at random points; a point where they differ is returned.
fn numeric_mismatch(inst: &Instance<Symbolic>, lhs: &Atom, rhs: &Atom, seed: u64, span: Span, points: usize) -> Result<Option<Mismatch>, EvalError> {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let unknowns = unknowns(lhs, rhs);
    for _ in 0..points {
        let values: Vec<(Atom, f64)> = unknowns.iter().map(|u| (u.clone(), rng.random_range(0.3..1.7))).collect();
        let map: HashMap<Atom, Float> = values.iter().map(|(a, v)| (a.clone(), Float::with_val(PRECISION_BITS, *v))).collect();
        let eval = |a: &Atom| -> Result<Float, EvalError> {
            a.evaluate_with_prec(&map, PRECISION_BITS)
                .map_err(|e| EvalError::Unsupported { what: format!("numeric evaluation ({e:?})"), span })
        };
        let (l, r) = (eval(lhs)?, eval(rhs)?);
        let (lf, rf) = (l.to_f64(), r.to_f64());
        let gap = (l - r).to_f64().abs();
        if !gap.is_finite() || !lf.is_finite() || !rf.is_finite() {
            return Err(EvalError::Unsupported { what: "numeric evaluation gave a non-finite value".into(), span });
        }
        if gap > RELATIVE_TOLERANCE * lf.abs().max(rf.abs()).max(1.0) {
            let point = values.iter().map(|(a, v)| (shown(inst, &a.to_string()), *v)).collect();
            return Ok(Some(Mismatch { entry: None, lhs: lf, rhs: rf, point, difference: None, method: Method::Numeric }));
        }
    }
    Ok(None)
}

/// Variables and generic-function values (σ(b), der(…)) of both sides: what a point assigns.
fn unknowns(lhs: &Atom, rhs: &Atom) -> Vec<Atom> {
    let builtin = [Symbol::LOG, Symbol::EXP, Symbol::SIN, Symbol::COS, Symbol::SQRT];
    let mut out: Vec<Atom> = Vec::new();
    for side in [lhs, rhs] {
        for view in side.get_all_indeterminates(true) {
            let keep = match view {
                AtomView::Var(v) => v.get_symbol() != Symbol::E && v.get_symbol() != Symbol::PI,
                AtomView::Fun(f) => !builtin.contains(&f.get_symbol()),
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

/// Replaces internal variable names by the notes' spelling.
pub fn shown(inst: &Instance<Symbolic>, text: &str) -> String {
    let names = inst.names.borrow();
    let mut keys: Vec<&String> = names.keys().collect();
    keys.sort_by_key(|k| std::cmp::Reverse(k.len()));
    let mut out = text.to_string();
    for k in keys {
        out = out.replace(k.as_str(), &names[k]);
    }
    out
}
