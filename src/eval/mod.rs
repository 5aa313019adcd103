//! Stage 5 — `eval`: syntax trees to values at concrete sizes, over any number domain.
//!
//! Takes: a section's [`Scope`] (spec declarations and definitions, as syntax trees), sizes, an
//! index assignment and a [`Backend`]. Gives: [`Value`]s — scalars, vectors, matrices — of exact
//! Symbolica atoms (`cas`) or floats (`numeric`). Definitions expand where used, bars are
//! adjoints of the section's loss, sums run over index ranges (declared or read off shapes).
//! Budgets (steps, bytes, time) turn blow-ups into errors, never hangs.

mod builtins;
mod calculus;
mod indices;
mod instance;
pub mod scalar;
mod value;

pub use calculus::unbarred_key;
pub use indices::{dependencies, free_indices, index_assignments, reached, sizes_used};
pub use instance::{leaf_indices, leaf_name, sanitize, Budget, Caches, Env, Instance};
pub use scalar::{derivative_layout, Backend, Elementary, Integrand, Limit, Scalar};
pub use value::Value;

use crate::model::Reason;
use crate::syntax::ast::Span;
use serde::Serialize;

/// Why a formula could not be evaluated at a given size. `ShapeMismatch` refutes a claim; the
/// others leave it undecided.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EvalError {
    #[error("shapes do not fit in {op}: {}×{} and {}×{}", left.0, left.1, right.0, right.1)]
    ShapeMismatch { op: String, left: (usize, usize), right: (usize, usize), span: Span },
    #[error("the sides are {}×{} and {}×{}, and equal once one is transposed: a layout slip (the gradient of a scalar has the shape of the variable; a derivative of a vector by a vector is the Jacobian, numerator layout)", left.0, left.1, right.0, right.1)]
    TransposedLayout { left: (usize, usize), right: (usize, usize), span: Span },
    #[error("{what} must be a scalar here, but is {rows}×{cols}")]
    NotScalar { what: String, rows: usize, cols: usize, span: Span },
    #[error("unsupported here: {what}")]
    Unsupported { category: crate::model::NotRead, what: String, span: Span },
    #[error("index {name} = {value} is outside 1..{max}")]
    IndexOutOfRange { name: String, value: i64, max: usize, span: Span },
    #[error("index `{name}` has no value here (declare its range in the spec)")]
    UnboundIndex { name: String, span: Span },
    #[error("can only differentiate with respect to a variable, not `{what}`")]
    NotALeaf { what: String, span: Span },
    #[error("definition of `{key}` refers to itself")]
    Cyclic { key: String, span: Span },
    #[error("budget exceeded: {what}")]
    Budget { what: String, span: Span },
    #[error("internal inconsistency (please report): {detail}")]
    Inconsistent { detail: String, span: Span },
}

impl EvalError {
    pub fn span(&self) -> Span {
        *self.clone().span_mut()
    }

    /// The error pointed at `span` instead: an error inside a definition's body is reported at
    /// the symbol that uses the definition, in the formula being checked.
    pub fn at(mut self, to: Span) -> EvalError {
        *self.span_mut() = to;
        self
    }

    /// Where the error is: the one place every variant's span is listed.
    fn span_mut(&mut self) -> &mut Span {
        match self {
            EvalError::ShapeMismatch { span, .. }
            | EvalError::TransposedLayout { span, .. }
            | EvalError::NotScalar { span, .. }
            | EvalError::Unsupported { span, .. }
            | EvalError::IndexOutOfRange { span, .. }
            | EvalError::UnboundIndex { span, .. }
            | EvalError::NotALeaf { span, .. }
            | EvalError::Cyclic { span, .. }
            | EvalError::Budget { span, .. }
            | EvalError::Inconsistent { span, .. } => span,
        }
    }

    /// The error as a reason of the result model.
    pub fn reason(&self) -> Reason {
        match self {
            EvalError::ShapeMismatch { op, left, right, .. } => {
                Reason::ShapeMismatch { op: op.clone(), left: *left, right: *right }
            }
            EvalError::TransposedLayout { left, right, .. } => Reason::TransposedLayout { left: *left, right: *right },
            EvalError::NotScalar { what, rows, cols, .. } => {
                Reason::NotScalar { what: what.clone(), rows: *rows, cols: *cols }
            }
            EvalError::Unsupported { category, what, .. } => Reason::NotRead { kind: *category, detail: what.clone() },
            EvalError::IndexOutOfRange { name, value, max, .. } => {
                Reason::IndexOutOfRange { name: name.clone(), value: *value, max: *max }
            }
            EvalError::UnboundIndex { name, .. } => Reason::UnboundIndex { name: name.clone() },
            EvalError::NotALeaf { what, .. } => Reason::NotALeaf { what: what.clone() },
            EvalError::Cyclic { key, .. } => Reason::Cyclic { key: key.clone() },
            EvalError::Budget { what, .. } => Reason::Budget { detail: what.clone() },
            EvalError::Inconsistent { detail, .. } => Reason::Internal { detail: detail.clone() },
        }
    }

    /// A shape mismatch is a finding about the formula (refuted), not a limit of the tool. A
    /// matrix where a number is expected is not: the notation may mean an entry-wise operation.
    pub fn refutes(&self) -> bool {
        matches!(self, EvalError::ShapeMismatch { .. } | EvalError::TransposedLayout { .. })
    }
}
