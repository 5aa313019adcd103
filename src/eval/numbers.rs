//! Numbers as the notes write them: a decimal read exactly; digits grouped by commas refused.

use super::scalar::Scalar;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::syntax::ast::Span;

/// A number as written; `1,432` and `2,735,120` (digits grouped by commas) are refused: a number
/// with thousands separators, or a list of numbers?
pub(super) fn number<S: Scalar>(text: &str, span: Span) -> Result<S, EvalError> {
    if text.contains(',') {
        let what = format!(
            "`{text}`: a number with thousands separators, or a list? (write {}, or 1{{,}}432)",
            text.replace(',', "")
        );
        return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
    }
    decimal(text, span)
}

/// `0.133562` -> 133562/1000000, exactly.
fn decimal<S: Scalar>(text: &str, span: Span) -> Result<S, EvalError> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{int}{frac}");
    let too_long = || {
        EvalErrorKind::Unsupported {
            category: NotRead::Malformed,
            what: format!("the number {text} (too many digits)"),
        }
        .at(span)
    };
    if digits.len() > 18 {
        return Err(too_long());
    }
    let n: i64 = digits.parse().map_err(|_| too_long())?;
    Ok(S::ratio(n, 10i64.pow(frac.len() as u32)))
}
