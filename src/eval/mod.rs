//! Stage 5 — `eval`: syntax trees to values at concrete sizes, over any number domain.
//!
//! Takes: a section's [`Scope`] (spec declarations and definitions, as syntax trees), sizes, an
//! index assignment and a [`Backend`]. Gives: [`Value`]s — scalars, vectors, matrices — of exact
//! Symbolica atoms (`cas`) or floats (`numeric`). Definitions expand where used, bars are
//! adjoints of the section's loss, sums run over index ranges (declared or read off shapes).
//! Budgets (steps, bytes, time) turn blow-ups into errors, never hangs.

mod algebra;
pub use algebra::is_singular_here;
mod backend;
mod builtins;
mod calculus;
mod indices;
mod instance;
mod numbers;
pub mod scalar;
mod spelled;
mod value;

pub use backend::{derivative_layout, Backend, Integrand, Limit};
pub use calculus::unbarred_key;
pub use indices::{dependencies, free_indices, index_assignments, reached, sizes_used};
pub use instance::{leaf_indices, leaf_name, sanitize, Budget, Caches, Env, Instance};
pub use scalar::{Elementary, Scalar};
pub use spelled::spelled_name_in;
pub use value::Value;

use crate::model::Reason;
use crate::syntax::ast::Span;
use serde::Serialize;

/// Why a formula could not be evaluated at a given size, and where: a kind and a span.
/// `ShapeMismatch` refutes a claim; the other kinds leave it undecided.
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[error("{kind}")]
pub struct EvalError {
    #[serde(flatten)]
    pub kind: EvalErrorKind,
    pub span: Span,
}

/// What went wrong, without where (see [`EvalError`]).
#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EvalErrorKind {
    #[error("shapes do not fit in {op}: {}×{} and {}×{}", left.0, left.1, right.0, right.1)]
    ShapeMismatch { op: String, left: (usize, usize), right: (usize, usize) },
    #[error("the sides are {}×{} and {}×{}, and equal once one is transposed: a layout slip (the gradient of a scalar has the shape of the variable; a derivative of a vector by a vector is the Jacobian, numerator layout)", left.0, left.1, right.0, right.1)]
    TransposedLayout { left: (usize, usize), right: (usize, usize) },
    #[error("{what} must be a scalar here, but is {rows}×{cols}")]
    NotScalar { what: String, rows: usize, cols: usize },
    #[error("unsupported here: {what}")]
    Unsupported { category: crate::model::NotRead, what: String },
    #[error("index {name} = {value} is outside 1..{max}")]
    IndexOutOfRange { name: String, value: i64, max: usize },
    #[error("index `{name}` has no value here (declare its range in the spec)")]
    UnboundIndex { name: String },
    #[error("can only differentiate with respect to a variable, not `{what}`")]
    NotALeaf { what: String },
    #[error("definition of `{key}` refers to itself")]
    Cyclic { key: String },
    #[error("budget exceeded: {what}")]
    Budget { what: String },
    #[error("internal inconsistency (please report): {detail}")]
    Inconsistent { detail: String },
}

impl EvalErrorKind {
    /// The error, at `span`.
    pub fn at(self, span: Span) -> EvalError {
        EvalError { kind: self, span }
    }
}

impl EvalError {
    pub fn span(&self) -> Span {
        self.span
    }

    /// The error pointed at `span` instead: an error inside a definition's body is reported at
    /// the symbol that uses the definition, in the formula being checked.
    pub fn at(self, to: Span) -> EvalError {
        EvalError { span: to, ..self }
    }

    /// The error as a reason of the result model.
    pub fn reason(&self) -> Reason {
        match &self.kind {
            EvalErrorKind::ShapeMismatch { op, left, right } => {
                Reason::ShapeMismatch { op: op.clone(), left: *left, right: *right }
            }
            EvalErrorKind::TransposedLayout { left, right } => Reason::TransposedLayout { left: *left, right: *right },
            EvalErrorKind::NotScalar { what, rows, cols } => {
                Reason::NotScalar { what: what.clone(), rows: *rows, cols: *cols }
            }
            EvalErrorKind::Unsupported { category, what } => Reason::NotRead { kind: *category, detail: what.clone() },
            EvalErrorKind::IndexOutOfRange { name, value, max } => {
                Reason::IndexOutOfRange { name: name.clone(), value: *value, max: *max }
            }
            EvalErrorKind::UnboundIndex { name } => Reason::UnboundIndex { name: name.clone() },
            EvalErrorKind::NotALeaf { what } => Reason::NotALeaf { what: what.clone() },
            EvalErrorKind::Cyclic { key } => Reason::Cyclic { key: key.clone() },
            EvalErrorKind::Budget { what } => Reason::Budget { detail: what.clone() },
            EvalErrorKind::Inconsistent { detail } => Reason::Internal { detail: detail.clone() },
        }
    }

    /// A shape mismatch is a finding about the formula (refuted), not a limit of the tool. A
    /// matrix where a number is expected is not: the notation may mean an entry-wise operation.
    pub fn refutes(&self) -> bool {
        matches!(self.kind, EvalErrorKind::ShapeMismatch { .. } | EvalErrorKind::TransposedLayout { .. })
    }
}

/// Why a letter written as a vector or matrix that has no shape is not read: a shape to declare;
/// or, for `\mathbf{AB}` (`capitals`: bold capitals side by side that a script follows, which the
/// parser keeps one name), the script's reach.
pub(crate) fn without_shape(key: &str, capitals: bool) -> (crate::model::NotRead, String) {
    use crate::model::NotRead;
    if capitals {
        return (NotRead::Ambiguous, script_reach(&format!("`{key}`")));
    }
    let what = format!(
        "`{key}` is used as a vector or matrix (transposed, ⊙, bold, a norm…) but has no shape: declare it (`{key}\\in\\mathbb R^{{n\\times d}}` in the notes, or `matrix` in the spec)"
    );
    (NotRead::NeedsSpec, what)
}

/// `\mathbf{AB}^\top`, `\mathbf{X X}^{\top}` (`written`, quoted): a script after a style around
/// letters side by side reaches the product as TeX groups it, or the last letter as it is typeset.
pub(crate) fn script_reach(written: &str) -> String {
    format!(
        "{written} with a script after it: the script of the product, as TeX groups it, or of its last letter, as it is typeset? (write the product in parentheses, or each letter bold)"
    )
}
