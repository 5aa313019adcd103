//! What the evaluator needs of a number domain ([`Scalar`]); the machinery behind it is
//! [`super::backend`]. Two implementations: exact (Symbolica atoms, `cas`) and floating point
//! (`numeric`).

/// Elementary functions every domain evaluates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Elementary {
    Exp,
    Log,
    Sin,
    Cos,
    /// |x|: exact domains write it √(x²), whose derivative is x/|x| wherever x ≠ 0.
    Abs,
    /// The principal branches of the inverse tangent, sine and cosine.
    Atan,
    Asin,
    Acos,
}

pub trait Scalar: Clone + std::fmt::Debug {
    fn int(n: i64) -> Self;
    fn ratio(numerator: i64, denominator: i64) -> Self;
    fn euler() -> Self;
    fn pi() -> Self;
    fn plus(&self, other: &Self) -> Self;
    fn minus(&self, other: &Self) -> Self;
    fn times(&self, other: &Self) -> Self;
    fn over(&self, other: &Self) -> Self;
    fn negate(&self) -> Self;
    fn power(&self, exponent: &Self) -> Self;
    fn elementary(f: Elementary, x: &Self) -> Self;
    /// A size measure for budgets (bytes of the expression; a float is 8).
    fn size(&self) -> usize;
    /// An m×k by k×n product done natively (the float domain uses ndarray), or `None` for the
    /// generic entry-by-entry product.
    fn fast_matmul(a: &[Self], b: &[Self], m: usize, k: usize, n: usize) -> Option<Vec<Self>> {
        let _ = (a, b, m, k, n);
        None
    }

    /// What to subtract from a row of scores before exponentiating (softmax is invariant to
    /// it): the maximum for floats, so nothing overflows; zero for exact values.
    fn softmax_shift(row: &[Self]) -> Self {
        let _ = row;
        Self::int(0)
    }

    /// Is `det`, the determinant of the n×n matrix of `entries` (row by row), zero up to the
    /// rounding of this domain, so that its inverse is noise? Exact domains say no: a zero
    /// determinant shows there as a division by zero.
    fn negligible_determinant(det: &Self, entries: &[Self], n: usize) -> bool {
        let _ = (det, entries, n);
        false
    }
}
