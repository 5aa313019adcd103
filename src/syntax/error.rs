//! Why a formula did not parse, as data: the kind and the byte span inside the formula's TeX.

use super::ast::Span;
use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyntaxError {
    pub kind: SyntaxErrorKind,
    /// Byte span inside the formula's TeX.
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize, thiserror::Error)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SyntaxErrorKind {
    #[error("empty formula")]
    Empty,
    #[error("formula too large: {bytes} bytes (limit {limit})")]
    TooLarge { bytes: usize, limit: usize },
    #[error("formula nested too deeply (more than {limit} levels of groups or commands)")]
    TooDeep { limit: usize },
    #[error("formula too long: a chain of {operands} operands or postfixes (limit {limit}); split it")]
    TooLong { operands: usize, limit: usize },
    #[error("formula too ambiguous to read within {calls} parser steps (its length allows no more); bare | bars that could open or close? write \\lvert…\\rvert or \\left|…\\right|")]
    Budget { calls: usize },
    #[error("these bare | bars read two ways (|a|b|c| is |a|·b·|c| or |a·|b|·c|); write \\lvert…\\rvert, \\left|…\\right| or \\cdot")]
    AmbiguousBars,
    #[error("internal error: the parser could not build this formula's tree (please report it)")]
    Internal,
    #[error("{detail}")]
    UnbalancedEnvironment { detail: String },
    #[error("unknown command `{command}`")]
    UnknownCommand { command: String },
    #[error("unexpected `{found}`; expected {}", join_expected(expected))]
    Unexpected { found: String, expected: Vec<Expected> },
    #[error("unexpected end of formula; expected {}", join_expected(expected))]
    UnexpectedEnd { expected: Vec<Expected> },
}

fn join_expected(expected: &[Expected]) -> String {
    let said: Vec<String> = expected.iter().map(ToString::to_string).collect();
    match said.as_slice() {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
    }
}

/// What the parser would have taken where it stopped. Displays in English (the JSON's and the
/// spec errors' words); the report says it in the run's language.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, thiserror::Error)]
#[serde(into = "String")]
pub enum Expected {
    #[error("a relation (=, \\ne, ...)")]
    Relation,
    #[error("+ or -")]
    Sign,
    #[error("an operator")]
    Operator,
    #[error("a separator (, or \\quad)")]
    Separator,
    #[error("end of formula")]
    End,
    #[error("\\\\")]
    RowBreak,
    #[error("a closing |")]
    AbsClose,
    #[error("a closing \\|")]
    NormClose,
    #[error("a \\right delimiter")]
    RightDelimiter,
    #[error("a \\left delimiter")]
    LeftDelimiter,
    #[error("a script (_ or ^)")]
    Script,
    #[error("an expression")]
    Expression,
}

impl From<Expected> for String {
    fn from(e: Expected) -> String {
        e.to_string()
    }
}

impl SyntaxError {
    pub fn new(kind: SyntaxErrorKind, span: Span) -> Self {
        SyntaxError { kind, span }
    }
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.kind.fmt(f)
    }
}

impl std::error::Error for SyntaxError {}
