//! The numeric leg of a verdict: a claim the CAS verified is evaluated again in floating point,
//! at random values and at sizes larger than the symbolic ones, derivatives by central
//! differences. Agreement is evidence, labelled numeric; disagreement with a symbolic proof is a
//! bug in one of the two paths and is reported as such.

use super::Numeric;
use crate::eval::{Env, EvalError, Instance};
pub use crate::model::{Mismatch, NumericCheck};
use crate::sema::Claim;
use crate::sema::Scope;
use std::collections::BTreeMap;

/// Central-difference step and the agreement tolerance (relative to the values' magnitude).
pub const EPSILON: f64 = 1e-6;
/// The step of a second try where the first disagrees (less rounding, more truncation error).
pub const COARSE_EPSILON: f64 = 1e-3;
const TOLERANCE: f64 = 1e-5;
/// At most this many index assignments are evaluated (spread over all of them).
const MAX_ASSIGNMENTS: usize = 12;

/// The cross-check sizes: the spec's `crosscheck` sizes where given, else twice the largest
/// symbolic size.
pub fn larger_sizes(scope: &Scope, overrides: &BTreeMap<String, Vec<i64>>) -> BTreeMap<String, i64> {
    scope
        .sizes
        .iter()
        .map(|(k, vs)| {
            let v = overrides
                .get(k)
                .and_then(|o| o.iter().max().copied())
                .unwrap_or_else(|| 2 * vs.iter().max().copied().unwrap_or(1));
            (k.clone(), v)
        })
        .collect()
}

/// Assignments evaluated, the largest difference, and where the sides differ (with both values).
type Outcome = (usize, f64, Option<(String, f64, f64)>);

/// Evaluates both sides of `claim` in floating point with the section's float instance.
pub fn crosscheck(inst: &Instance<Numeric>, claim: &Claim, free: &[String]) -> NumericCheck {
    let shown_sizes = inst.sizes.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join("; ");
    let result = (|| -> Result<Outcome, EvalError> {
        let envs = crate::eval::index_assignments(inst, free, &claim.conditions, claim, &Env::new())?;
        let step = envs.len().div_ceil(MAX_ASSIGNMENTS).max(1);
        let (mut count, mut worst) = (0usize, 0.0f64);
        for env in envs.iter().step_by(step) {
            let (gap, lhs, rhs) = difference(inst, claim, env)?;
            // (`\sqrt{q-1}` at q < 1: no real value there, so nothing to compare.)
            if gap.is_nan() {
                continue;
            }
            count += 1;
            worst = worst.max(gap);
            if gap > TOLERANCE {
                let at: Vec<String> = env.iter().map(|(k, v)| format!("{k} = {v}")).collect();
                let at = if at.is_empty() { String::new() } else { format!(" at {}", at.join(", ")) };
                return Ok((count, worst, Some((format!("left {lhs:.9}, right {rhs:.9}{at}"), lhs, rhs))));
            }
        }
        Ok((count, worst, None))
    })();
    match result {
        Ok((assignments, max_difference, None)) => NumericCheck {
            sizes: shown_sizes,
            assignments,
            max_difference,
            agree: true,
            detail: format!(
                "agrees at {assignments} assignment(s), largest relative difference {max_difference:.1e} (central differences, step {:.0e})",
                inst.backend.epsilon
            ),
            differs: None,
        },
        Ok((assignments, max_difference, Some((at, lhs, rhs)))) => NumericCheck {
            sizes: shown_sizes,
            assignments,
            max_difference,
            agree: false,
            detail: format!("differs: {at}"),
            differs: Some((lhs, rhs)),
        },
        Err(e) => NumericCheck {
            sizes: shown_sizes,
            assignments: 0,
            max_difference: f64::NAN,
            agree: false,
            detail: format!("not evaluated: {e}"),
            differs: None,
        },
    }
}

/// A relative difference this large is no rounding error: it refutes (labelled numeric).
pub const REFUTING: f64 = 1e-3;
/// Leaves listed with a numeric counterexample.
const SHOWN_LEAVES: usize = 24;

/// Both sides of `claim` evaluated in floating point at `sizes` and `env`, at fresh seeded
/// random leaves: the entry where they differ by more than [`REFUTING`] (relative), with both
/// values and the leaves' values; `None` when they agree that closely or cannot be evaluated.
pub fn counterexample(
    scope: &Scope,
    claim: &Claim,
    sizes: &BTreeMap<String, i64>,
    env: &Env,
    seed: u64,
    budget: crate::eval::Budget,
) -> Option<Mismatch> {
    let backend = Numeric::new(seed, EPSILON);
    let inst = Instance::new(&backend, scope, sizes, None, budget);
    let lhs = inst.eval(&claim.lhs, env).ok()?;
    let rhs = inst.eval(&claim.rhs, env).ok()?;
    let span = crate::syntax::ast::Span::new(claim.lhs.span.start, claim.rhs.span.end);
    let pairs = lhs.zip(&rhs, "the two sides", span, false, |a, b| super::Num::of(a.value - b.value)).ok()?;
    let k = (0..pairs.data.len()).find(|&k| {
        let (l, r) = (pick(&lhs.data, k).value, pick(&rhs.data, k).value);
        let gap = pairs.data[k].value.abs() / l.abs().max(r.abs()).max(1.0);
        gap > REFUTING && gap.is_finite()
    })?;
    let names = inst.names.borrow();
    let point = backend
        .point()
        .into_iter()
        .filter_map(|(name, v)| names.get(&name).map(|shown| (shown.clone(), v)))
        .take(SHOWN_LEAVES)
        .collect();
    Some(Mismatch {
        entry: (pairs.data.len() > 1).then(|| (k / pairs.cols + 1, k % pairs.cols + 1)),
        ..Mismatch::at_point(pick(&lhs.data, k).value, pick(&rhs.data, k).value, point, crate::model::Method::Numeric)
    })
}

/// Largest relative entry difference of the two sides (with the values of that entry); NaN
/// where a side has no real value at this point.
fn difference(inst: &Instance<Numeric>, claim: &Claim, env: &Env) -> Result<(f64, f64, f64), EvalError> {
    let lhs = inst.eval(&claim.lhs, env)?;
    let rhs = inst.eval(&claim.rhs, env)?;
    let span = crate::syntax::ast::Span::new(claim.lhs.span.start, claim.rhs.span.end);
    let pairs = lhs.zip(&rhs, "the two sides", span, false, |a, b| super::Num::of(a.value - b.value))?;
    let mut worst = (0.0, 0.0, 0.0);
    for (k, d) in pairs.data.iter().enumerate() {
        let (l, r) = (pick(&lhs.data, k).value, pick(&rhs.data, k).value);
        if l.is_nan() || r.is_nan() {
            return Ok((f64::NAN, l, r));
        }
        let gap = d.value.abs() / l.abs().max(r.abs()).max(1.0);
        if !gap.is_finite() || gap > worst.0 {
            worst = (if gap.is_finite() { gap } else { f64::INFINITY }, l, r);
        }
    }
    Ok(worst)
}

fn pick<T>(data: &[T], k: usize) -> &T {
    &data[k.min(data.len() - 1)]
}

/// Random draws of the leaves at which a claim only the floats can decide (one with an
/// integral) is evaluated, at every size set and index assignment.
pub const DRAWS: u64 = 4;
/// Agreement this close (relative) at every draw verifies such a claim: far above the
/// quadrature's error estimate (10⁻¹⁰ relative) and the central differences' (≈ 10⁻⁸ at the
/// leaves' magnitudes), far below [`REFUTING`].
pub const AGREEING: f64 = 1e-7;

/// What the floats alone say of a claim.
#[derive(Debug)]
pub enum FloatsAlone {
    /// Within [`AGREEING`] at every draw: `assignments` evaluated, `worst` the largest gap.
    Agree { assignments: usize, worst: f64 },
    /// Differs by more than [`REFUTING`] at one draw.
    Differs { mismatch: Mismatch, sizes: BTreeMap<String, i64>, env: Env },
    /// Neither: the largest gap, between the two thresholds.
    Inconclusive { worst: f64 },
    /// A side could not be evaluated.
    Failed(EvalError),
}

/// Both sides of `claim` in floating point at [`DRAWS`] random draws of its leaves, at each
/// size set and index assignment (at most [`MAX_ASSIGNMENTS`] of them, spread).
pub fn floats_alone(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    free: &[String],
    budget: crate::eval::Budget,
) -> FloatsAlone {
    let (mut assignments, mut worst) = (0usize, 0.0f64);
    for sizes in size_sets {
        for draw in 0..DRAWS {
            let seed =
                claim.id.bytes().fold(draw.wrapping_add(29), |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            let backend = Numeric::new(seed, EPSILON);
            let inst = Instance::new(&backend, scope, sizes, None, budget);
            let envs = match crate::eval::index_assignments(&inst, free, &claim.conditions, claim, &Env::new()) {
                Ok(envs) => envs,
                Err(e) => return FloatsAlone::Failed(e),
            };
            let step = envs.len().div_ceil(MAX_ASSIGNMENTS).max(1);
            for env in envs.iter().step_by(step) {
                let (gap, _, _) = match difference(&inst, claim, env) {
                    Ok(d) => d,
                    Err(e) => return FloatsAlone::Failed(e),
                };
                assignments += 1;
                if gap > REFUTING {
                    if let Some(mismatch) = counterexample(scope, claim, sizes, env, seed, budget) {
                        return FloatsAlone::Differs { mismatch, sizes: sizes.clone(), env: env.clone() };
                    }
                }
                worst = worst.max(gap);
            }
        }
    }
    if worst <= AGREEING {
        FloatsAlone::Agree { assignments, worst }
    } else {
        FloatsAlone::Inconclusive { worst }
    }
}
