//! The result model: every outcome of a check as plain serializable data, at the bottom of the
//! dependency graph (it imports no stage). Stages produce these values; renderers (text, JSON,
//! and later Markdown, HTML, JUnit) read only these values.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Verified,
    Refuted,
    Undecided,
}

#[derive(Debug, Clone, Serialize)]
pub struct Verdict {
    pub status: Status,
    /// `symbolic` or `numeric` for a verified claim; how a refutation was found.
    pub method: Option<Method>,
    /// The instantiated sizes, e.g. `N = 2, 3, 4, 5`; empty when none are needed.
    pub sizes: String,
    pub detail: String,
    pub counterexample: Option<Counterexample>,
    /// The floating-point cross-check of a verified claim.
    pub numeric: Option<NumericCheck>,
    /// What the worked example showed, for claims of a section with one.
    pub example: Option<ExampleResult>,
    /// The exact and floating-point stages disagree on the same size and point: a bug in one of
    /// them, never a finding about the formula. Fails the run like a refutation.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inconsistent: bool,
}

impl Verdict {
    pub fn new(status: Status, method: Option<Method>, sizes: String, detail: String) -> Verdict {
        Verdict {
            status,
            method,
            sizes,
            detail,
            counterexample: None,
            numeric: None,
            example: None,
            inconsistent: false,
        }
    }

    pub fn undecided(detail: String, sizes: String) -> Verdict {
        Verdict::new(Status::Undecided, None, sizes, detail)
    }

    pub fn refuted(method: Method, sizes: String, detail: String, counterexample: Counterexample) -> Verdict {
        Verdict { counterexample: Some(counterexample), ..Verdict::new(Status::Refuted, Some(method), sizes, detail) }
    }
}

/// How a run ends: 0 nothing wrong, 1 a claim refuted or inconsistent, 2 bad input or usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Clean = 0,
    Failed = 1,
    BadInput = 2,
}

#[derive(Debug, Clone, Serialize)]
pub struct Counterexample {
    pub sizes: BTreeMap<String, i64>,
    pub indices: BTreeMap<String, i64>,
    #[serde(flatten)]
    pub mismatch: Option<Mismatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The difference's normal form is zero (or, for a refutation, a nonzero rational function).
    Symbolic,
    /// Agreement to 200-bit precision at random points (the normal form did not reach zero).
    Numeric,
    /// Symbolic, and the floating-point cross-check at larger sizes agrees.
    #[serde(rename = "symbolic+numeric")]
    SymbolicNumeric,
    /// A printed decimal matches to half a unit in its last printed digit.
    Rounded,
}

/// Where two values differ: the entry, a point, both sides there, and the exact difference.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// 1-based (row, column) for matrices; `None` for scalars.
    pub entry: Option<(usize, usize)>,
    pub lhs: f64,
    pub rhs: f64,
    /// Imaginary parts, where a side is not real at the point (a log or root of a negative).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lhs_imaginary: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rhs_imaginary: Option<f64>,
    pub point: Vec<(String, f64)>,
    /// The normal form of lhs − rhs, when short.
    pub difference: Option<String>,
    /// The printed precision a rounded comparison allowed (half a unit in the last digit).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    pub method: Method,
}

#[derive(Debug, Clone, Serialize)]
pub struct NumericCheck {
    /// The sizes evaluated at, e.g. `n = 8; d = 16`.
    pub sizes: String,
    pub assignments: usize,
    pub max_difference: f64,
    pub agree: bool,
    pub detail: String,
}

/// What the example shows for one printed matrix.
#[derive(Debug, Clone, Serialize)]
pub struct PrintedMatrix {
    pub name: String,
    pub printed: Vec<Vec<f64>>,
    /// Through the notes' backward formulas.
    pub analytic: Vec<Vec<f64>>,
    /// Central differences of the loss.
    pub finite_difference: Option<Vec<Vec<f64>>>,
    pub max_difference: f64,
    pub tolerance: f64,
    pub verified: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExampleResult {
    pub loss: f64,
    pub epsilon: f64,
    /// One per symbol the printed matrix stands for (`\bar W_V=\bar W_O=[…]` gives two).
    pub matrices: Vec<PrintedMatrix>,
}
