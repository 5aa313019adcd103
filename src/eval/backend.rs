//! The machinery behind a number domain ([`Backend`]): leaves, generic functions and
//! derivatives, integrals; and the layout of a derivative every backend shares.

use super::scalar::Scalar;
use super::value::Value;
use super::{EvalError, EvalErrorKind};
use crate::syntax::ast::Span;

/// Leaves, generic functions and derivatives of one evaluation domain.
pub trait Backend {
    type S: Scalar;

    /// The leaf variable `name` (already unique), shown in reports as `shown`.
    fn leaf(&self, name: &str, shown: &str) -> Self::S;

    /// The leaves of a `rows × cols` block named `key`, row-major; `make` creates one. A backend
    /// may remember blocks it made (the numeric one does: it re-evaluates thousands of times).
    fn leaf_block(&self, key: &str, rows: usize, cols: usize, make: &dyn Fn(usize, usize) -> Self::S) -> Vec<Self::S> {
        let _ = key;
        (0..rows * cols).map(|k| make(k / cols, k % cols)).collect()
    }

    /// A spec's generic function: σ(a) or σ'(a) (`index` None), or entry `index` of F(x).
    fn generic(&self, function: &str, index: Option<i64>, args: &[Self::S], primes: usize) -> Self::S;

    /// A function the notes only ever apply (`g(x)`, `f(x, y)`, `g'(h(x))`): its value at `args`
    /// with `partials[k]` derivatives taken in argument k. Every backend gives distinct names
    /// distinct functions, and its derivatives the rules of calculus.
    fn unknown(&self, name: &str, args: &[Self::S], partials: &[u32]) -> Self::S;

    /// ∂f/∂x where every entry of `x` is a leaf; `f` recomputes the function from scratch (a
    /// numeric backend calls it with leaves moved, an exact one once).
    fn differentiate(
        &self,
        f: &dyn Fn() -> Result<Value<Self::S>, EvalError>,
        x: &Value<Self::S>,
        span: Span,
    ) -> Result<Value<Self::S>, EvalError>;

    /// Prepares opaque leaves to stand for `actual` while `f` is recomputed (numeric: bind them).
    fn bind(&self, leaves: &Value<Self::S>, actual: &Value<Self::S>);

    /// Replaces opaque leaves in `v` by what they stand for (exact: substitute; numeric: nothing).
    fn substitute(&self, v: Value<Self::S>, leaves: &Value<Self::S>, actual: &Value<Self::S>) -> Value<Self::S>;

    /// Whether [`Backend::differentiate`] evaluates its function again with leaves moved (numeric
    /// differences): then each evaluation needs a fresh instance. An exact backend evaluates once,
    /// and the instance's caches may serve it.
    fn moves_leaves(&self) -> bool {
        true
    }

    /// The differential `d leaf` of a leaf (a fresh variable, or a fixed random direction).
    fn differential(&self, leaf: &Self::S, span: Span) -> Result<Self::S, EvalError>;

    /// ∫ from `lower` to `upper` of `integrand(t) dt`: a floating-point domain integrates by
    /// quadrature; an exact one has no integral (`None`: the claim is for the floats to decide).
    fn integrate(
        &self,
        integrand: &Integrand<'_, Self::S>,
        lower: Limit<Self::S>,
        upper: Limit<Self::S>,
        span: Span,
    ) -> Option<Result<Self::S, EvalError>> {
        let _ = (integrand, lower, upper, span);
        None
    }

    /// `\lim_{v\to a} f(v)`, with `f` the body's value at a point: an exact domain expands it
    /// in series about `a` (`v = a + h`, or `v = \pm 1/h` at infinity, h → 0) and gives the
    /// constant term where the series has no negative power and no logarithm of h; a finite
    /// point is approached from both sides, so a fractional power of h there is refused. `None`
    /// where the domain has no limits (floats, residues): the claim is the exact stage's.
    fn limit(
        &self,
        body: &Integrand<'_, Self::S>,
        at: Limit<Self::S>,
        span: Span,
    ) -> Option<Result<Self::S, EvalError>> {
        let _ = (body, at, span);
        None
    }
}

/// An integrand: its value at a point of the integration variable.
pub type Integrand<'a, S> = dyn Fn(&S) -> Result<S, EvalError> + 'a;

/// An integral's limit: a value, or `±\infty`.
#[derive(Debug, Clone)]
pub enum Limit<S> {
    At(S),
    PlusInfinity,
    MinusInfinity,
}

/// ∂f/∂x as the evaluator lays it out, for every backend: for a scalar f, the gradient in x's
/// shape; for a vector f and a vector x, the Jacobian (a row per entry of f, numerator layout);
/// anything else is refused. `row(i)` gives ∂f_i/∂x_j for every entry j of x.
pub fn derivative_layout<S: Scalar>(
    f: &Value<S>,
    x: &Value<S>,
    span: Span,
    mut row: impl FnMut(usize) -> Vec<S>,
) -> Result<Value<S>, EvalError> {
    if f.is_scalar() {
        return Ok(Value::matrix(x.rows, x.cols, row(0)));
    }
    let is_vector = |v: &Value<S>| v.rows == 1 || v.cols == 1;
    if is_vector(f) && is_vector(x) {
        let jacobian: Vec<S> = (0..f.data.len()).flat_map(&mut row).collect();
        return Ok(Value::matrix(f.data.len(), x.data.len(), jacobian));
    }
    Err(EvalErrorKind::Unsupported {
        category: crate::model::NotRead::Outside,
        what: format!("the derivative of a {}×{} matrix by a {}×{} one", f.rows, f.cols, x.rows, x.cols),
    }
    .at(span))
}
