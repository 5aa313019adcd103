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
    Unexpected { found: String, expected: Vec<String> },
    #[error("unexpected end of formula; expected {}", join_expected(expected))]
    UnexpectedEnd { expected: Vec<String> },
}

fn join_expected(expected: &[String]) -> String {
    match expected {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {}", init.join(", "), last),
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
