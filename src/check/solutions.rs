//! Values the words say solve an equation stated before them (sema's [`SolutionOf`] claims):
//! the equation holds at the values as printed, or within what their rounding allows.
//!
//! A value printed with decimals (`p_0 = 4.41`) stands for the values within half a unit of its
//! last digit. At the printed values the equation leaves a residual r (left side minus right
//! side); moving each value by its half unit changes r by some amount, and the sum of those
//! changes bounds what rounding can account for (exactly so for an equation linear in the
//! values, to first order otherwise). Within the bound, the values solve the equation as
//! printed; beyond twice it, they do not (refuted, at the printed values); between, or where
//! the equation keeps letters of its own that the values leave free (a partial solution, `x =
//! 2y`, as often as a slip), undecided.

use super::letters::claim_scope;
use super::readings::{Solved, Trial};
use crate::model::{Reason, Status, Verdict};
use crate::sema::{Claim, Scope, SolutionOf};
use crate::syntax::ast::ExprKind;

/// How far past the first-order bound a residual must be to refute: the bound is exact for
/// linear equations only.
const REFUTE_BEYOND: f64 = 2.0;

/// A solution claim's verdict after the rounding of its printed values; any other claim's, as
/// it was.
pub(super) fn within_rounding(scope: &Scope, claim: &Claim, verdict: Verdict, trial: &dyn Trial) -> Solved {
    let Some(solution) = &claim.reading.solves else { return Solved::Decided(verdict) };
    if verdict.status != Status::Refuted {
        return Solved::Decided(verdict);
    }
    let mut verdict = verdict;
    let Some(mismatch) = verdict.counterexample.as_mut().and_then(|c| c.mismatch.as_mut()) else {
        return Solved::Decided(verdict);
    };
    // (The equation's side computed is no edit of the formula that gives the values.)
    mismatch.correct = None;
    let free: Vec<String> = mismatch.point.iter().map(|(name, _)| name.clone()).collect();
    let residual = mismatch.lhs - mismatch.rhs;
    let equation = solution.equation.clone();
    // (`\lambda_1 = \frac{1+\sqrt3 i}{2}` in notes on complex numbers: i may be the imaginary
    // unit.)
    let imaginary = claim.reading.complex && free.iter().any(|letter| letter == "i");
    if imaginary || (!free.is_empty() && !free.iter().all(|letter| parameter(scope, claim, letter))) {
        return Solved::Open { free, equation, verdict };
    }
    if solution.rounded.is_empty() {
        return Solved::Decided(verdict);
    }
    let Some(bound) = rounding_bound(scope, claim, solution, residual, trial) else {
        return Solved::Open { free: Vec::new(), equation, verdict };
    };
    if residual.abs() <= bound * (1.0 + 1e-9) {
        let mut assuming = verdict.assuming.clone();
        assuming.push(format!(
            r"\text{{each value rounded as printed (residual {:.1e} within {bound:.1e})}}",
            residual.abs()
        ));
        return Solved::Decided(Verdict {
            status: Status::Verified,
            reason: Reason::Checked { assignments: 1, rounded: true },
            counterexample: None,
            suggestion: None,
            assuming,
            ..verdict
        });
    }
    if residual.abs() > REFUTE_BEYOND * bound {
        let mut assuming = verdict.assuming.clone();
        assuming.push(format!(r"\text{{residual {:.1e}, beyond the rounding's {bound:.1e}}}", residual.abs()));
        return Solved::Decided(Verdict { assuming, ..verdict });
    }
    Solved::Open { free: Vec::new(), equation, verdict }
}

/// Is `letter` a parameter of what the section gives, written in the body of a definition
/// other than the values' own (`Q = \begin{bmatrix} 1-a & a \\ b & 1-b \end{bmatrix}`: a and
/// b)? Values that fail for some value of a parameter are wrong; a letter the equation alone
/// writes may be an unknown the values leave to another step.
fn parameter(scope: &Scope, claim: &Claim, letter: &str) -> bool {
    // (The definitions the values' own formula makes, `\lambda_2 = …` beside `\lambda_1`.)
    let own = |key: &str| claim.reading.overrides.iter().any(|d| d.key == key || d.origin == scope.defs[key].origin);
    let written_in = |body: &crate::syntax::ast::Expr| {
        let mut keys = std::collections::BTreeSet::new();
        super::letters::keys_in(body, &mut keys);
        keys.contains(letter)
    };
    scope.defs.values().any(|d| !own(&d.key) && !d.params.iter().any(|p| p == letter) && written_in(&d.body))
}

/// How much the residual moves when each printed value moves by half a unit in its last digit,
/// summed; `None` where a moved check gives no number.
fn rounding_bound(
    scope: &Scope,
    claim: &Claim,
    solution: &SolutionOf,
    residual: f64,
    trial: &dyn Trial,
) -> Option<f64> {
    let own = claim_scope(scope, claim)?;
    let mut bound = 0.0;
    for (key, printed) in &solution.rounded {
        let mut moved = own.clone();
        let definition = moved.defs.get_mut(key)?;
        definition.body = half_unit_further(&definition.body, printed)?;
        let again = trial.own_verdict_in(&moved);
        let at = match again.status {
            Status::Verified => 0.0,
            Status::Refuted => {
                let m = again.counterexample.as_ref()?.mismatch.as_ref()?;
                if !m.point.is_empty() || m.entry.is_some() {
                    return None;
                }
                m.lhs - m.rhs
            }
            Status::Undecided => return None,
        };
        bound += (at - residual).abs();
    }
    Some(bound)
}

/// `4.41` as `4.415`, `-1.18` as `-1.185`: the printed value moved by half a unit in its last
/// digit (away from zero).
fn half_unit_further(value: &crate::syntax::ast::Expr, printed: &str) -> Option<crate::syntax::ast::Expr> {
    let mut out = value.clone();
    let number = match &mut out.kind {
        ExprKind::Number { value } => value,
        ExprKind::Neg { operand } => match &mut operand.kind {
            ExprKind::Number { value } => value,
            _ => return None,
        },
        _ => return None,
    };
    if number != printed || !printed.contains('.') {
        return None;
    }
    number.push('5');
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::ast::{Expr, Span};

    #[test]
    fn half_a_unit_is_one_more_digit_five() {
        let at = Span::new(0, 4);
        let number = Expr::new(ExprKind::Number { value: "4.41".into() }, at);
        let moved = half_unit_further(&number, "4.41").expect("moved");
        assert!(matches!(&moved.kind, ExprKind::Number { value } if value == "4.415"));
        let negative = Expr::new(ExprKind::Neg { operand: Box::new(number.clone()) }, at);
        let moved = half_unit_further(&negative, "4.41").expect("moved");
        assert!(
            matches!(&moved.kind, ExprKind::Neg { operand } if matches!(&operand.kind, ExprKind::Number { value } if value == "4.415"))
        );
        assert!(half_unit_further(&number, "50").is_none(), "a whole number is exact");
    }
}
