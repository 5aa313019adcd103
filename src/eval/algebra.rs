//! Exact algebra on values every backend shares: max and min, sums, determinants and inverses
//! (by cofactors), the rotation R(θ), and which operand a norm is of.

use super::scalar::{Elementary, Scalar};
use super::value::Value;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::syntax::ast::{Expr, ExprKind, Span};

/// How the reason of an inverse refused at a size where the matrix is singular says so: the
/// checker tells such sizes apart by it ([`is_singular_here`]).
pub const SINGULAR_HERE: &str = "that is singular here";

/// Was the claim left unread because an inverse it takes is of a singular matrix at the sizes
/// tried (`(X^\top X)^{-1}` with more columns than rows)?
pub fn is_singular_here(reason: &crate::model::Reason) -> bool {
    matches!(reason, crate::model::Reason::NotRead { detail, .. } if detail.contains(SINGULAR_HERE))
}

/// max(a, b) = (a + b + |a − b|)/2, min(a, b) = (a + b − |a − b|)/2: exact, and differentiable
/// wherever a ≠ b.
pub(super) fn extremum<S: Scalar>(a: &S, b: &S, max: bool) -> S {
    let spread = S::elementary(Elementary::Abs, &a.minus(b));
    let total = a.plus(b);
    let both = if max { total.plus(&spread) } else { total.minus(&spread) };
    both.times(&S::ratio(1, 2))
}

/// The inverse by cofactors (the matrices here are tiny).
pub(super) fn inverse<S: Scalar>(
    m: &Value<S>,
    span: Span,
    on_time: &dyn Fn() -> Result<(), EvalError>,
) -> Result<Value<S>, EvalError> {
    if m.rows != m.cols || m.is_free() {
        return Err(EvalErrorKind::Unsupported {
            category: NotRead::Outside,
            what: format!("the inverse of a {}×{} matrix", m.rows, m.cols),
        }
        .at(span));
    }
    let n = m.rows;
    let det = determinant(m, span, on_time)?;
    if S::negligible_determinant(&det, &m.data, n) {
        return Err(EvalErrorKind::Unsupported {
            category: NotRead::Outside,
            what: format!("the inverse of a {n}×{n} matrix {SINGULAR_HERE} (its determinant is 0 up to rounding)"),
        }
        .at(span));
    }
    if n == 1 {
        return Ok(Value::scalar(S::int(1).over(&det)));
    }
    let mut data = Vec::with_capacity(n * n);
    for i in 0..n {
        for j in 0..n {
            // (A⁻¹)_{ij} = (−1)^{i+j} M_{ji} / det A.
            let minor = Value::from_fn(n - 1, n - 1, |r, c| {
                m.at(if r < j { r } else { r + 1 }, if c < i { c } else { c + 1 }).clone()
            });
            let cofactor = determinant(&minor, span, on_time)?;
            let signed = if (i + j) % 2 == 0 { cofactor } else { cofactor.negate() };
            data.push(signed.over(&det));
        }
    }
    Ok(Value::matrix(n, n, data))
}

/// `\|x\|_2` parses as a subscript on a norm: the norm's operand.
pub(super) fn norm_operand(base: &Expr) -> Option<&Expr> {
    match &base.kind {
        ExprKind::Norm { operand } => Some(operand),
        ExprKind::Fenced { open, inner: Some(inner), .. } if matches!(open.as_str(), "\\|" | "\\lVert" | "\\Vert") => {
            Some(inner)
        }
        _ => None,
    }
}

pub(super) fn sum<S: Scalar>(xs: &[S]) -> S {
    xs.iter().fold(S::int(0), |acc, a| acc.plus(a))
}

/// The largest matrix derivcheck takes a determinant or an inverse of: the expansion keeps
/// every minor of the bottom rows, 2ⁿ values.
pub(super) const MAX_DETERMINANT_SIZE: usize = 16;

/// Laplace expansion along the top row, with each minor of the bottom rows computed once
/// (n·2ⁿ products instead of n!, and no division: exact for every backend). `on_time` is asked
/// before each minor, so a large matrix ends at the claim's deadline.
pub(super) fn determinant<S: Scalar>(
    m: &Value<S>,
    span: Span,
    on_time: &dyn Fn() -> Result<(), EvalError>,
) -> Result<S, EvalError> {
    let n = m.rows;
    if n > MAX_DETERMINANT_SIZE {
        let what =
            format!("the determinant of a {n}×{n} matrix (at most {MAX_DETERMINANT_SIZE}×{MAX_DETERMINANT_SIZE})");
        return Err(EvalErrorKind::Budget { what }.at(span));
    }
    // minors[columns] = the determinant of the bottom |columns| rows, restricted to `columns`
    // (a bit set). A set's subsets are smaller numbers, so they are computed before it.
    let mut minors = vec![S::int(0); 1 << n];
    minors[0] = S::int(1);
    for columns in 1..1usize << n {
        on_time()?;
        let row = n - columns.count_ones() as usize;
        let mut total = S::int(0);
        for (position, j) in (0..n).filter(|j| columns & (1 << j) != 0).enumerate() {
            let term = m.at(row, j).times(&minors[columns ^ (1 << j)]);
            total = if position % 2 == 0 { total.plus(&term) } else { total.minus(&term) };
        }
        minors[columns] = total;
    }
    Ok(minors.pop().unwrap_or_else(|| S::int(1)))
}

/// [[cos θ, −sin θ], [sin θ, cos θ]].
pub(super) fn rotation<S: Scalar>(theta: &S) -> Value<S> {
    let (c, s) = (S::elementary(Elementary::Cos, theta), S::elementary(Elementary::Sin, theta));
    Value::matrix(2, 2, vec![c.clone(), s.negate(), s, c])
}

impl<S: Scalar> Value<S> {
    pub(super) fn map_indexed(&self, f: impl Fn(usize) -> S) -> Value<S> {
        Value::matrix(self.rows, self.cols, (0..self.data.len()).map(f).collect())
    }
}
