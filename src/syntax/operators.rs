//! What the grammar's sign and operator tokens (`addop`, `mulop`, `sign`) mean: the parser's
//! lookup from a token's text to the operation it writes.

use super::ast::BinOp;

/// `-`, or `−` (U+2212, the minus sign itself).
pub(super) fn is_minus(sign: &str) -> bool {
    matches!(sign.trim(), "-" | "−")
}

/// The operation an `addop` token writes (a sign set in `\text` too).
pub(super) fn addop_of(text: &str) -> BinOp {
    match text.trim() {
        "+" => BinOp::Add,
        "-" | "−" => BinOp::Sub,
        // `\text{+}`, `\mbox{ - }`: a sign set in text.
        t if t.starts_with("\\") && t.ends_with('}') && t.contains('+') && !t.contains("\\oplus") => BinOp::Add,
        t if t.starts_with("\\") && t.ends_with('}') && t.contains('-') => BinOp::Sub,
        "\\oplus" => BinOp::DirectSum,
        _ => BinOp::PlusMinus,
    }
}

/// The operation a `mulop` token writes.
pub(super) fn mulop_of(text: &str) -> BinOp {
    match text.trim() {
        "\\cdot" | "*" | "\\ast" | "\\centerdot" | "·" | "⋅" => BinOp::Cdot,
        "\\times" | "×" => BinOp::Times,
        "\\odot" => BinOp::Hadamard,
        "\\otimes" => BinOp::Otimes,
        "\\circ" => BinOp::Compose,
        "\\cap" => BinOp::Intersection,
        "\\cup" => BinOp::Union,
        "\\setminus" => BinOp::SetMinus,
        _ => BinOp::Div,
    }
}
