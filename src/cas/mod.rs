//! Stage 4 — `cas`: exact checking with Symbolica, at concrete sizes.
//!
//! Takes: a section's [`Scope`] (spec declarations and definitions, as syntax trees) and claims.
//! Gives: for each instantiation (sizes and index assignment), whether the two sides agree —
//! exactly (rational normal form with exp atoms and log rewrites) or, where that cannot decide,
//! numerically at random points with 200-bit floats — with a counterexample when they do not.
//! All Symbolica work happens on one worker thread ([`worker`]); only plain data leaves it.

mod builtins;
mod calculus;
mod compare;
mod indices;
mod instantiate;
mod scope;
mod value;
pub mod worker;

pub use compare::{compare, Agreement, Method, Mismatch};
pub use builtins::applied_key;
pub use indices::{index_letters, AUTO_RANGE};
pub use instantiate::{Budget, Env, Instance};
pub use scope::{Decl, Definition, FunctionKind, Scope};

use crate::syntax::ast::Span;
use serde::Serialize;

/// Why a formula could not be evaluated at a given size. `ShapeMismatch` refutes a claim; the
/// others leave it undecided.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EvalError {
    #[error("shapes do not fit in {op}: {}×{} and {}×{}", left.0, left.1, right.0, right.1)]
    ShapeMismatch { op: String, left: (usize, usize), right: (usize, usize), span: Span },
    #[error("{what} must be a scalar here, but is {rows}×{cols}")]
    NotScalar { what: String, rows: usize, cols: usize, span: Span },
    #[error("unsupported here: {what}")]
    Unsupported { what: String, span: Span },
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
        match self {
            EvalError::ShapeMismatch { span, .. }
            | EvalError::NotScalar { span, .. }
            | EvalError::Unsupported { span, .. }
            | EvalError::IndexOutOfRange { span, .. }
            | EvalError::UnboundIndex { span, .. }
            | EvalError::NotALeaf { span, .. }
            | EvalError::Cyclic { span, .. }
            | EvalError::Budget { span, .. }
            | EvalError::Inconsistent { span, .. } => *span,
        }
    }

    /// A shape mismatch is a finding about the formula (refuted), not a limit of the tool.
    pub fn refutes(&self) -> bool {
        matches!(self, EvalError::ShapeMismatch { .. } | EvalError::NotScalar { .. })
    }
}
