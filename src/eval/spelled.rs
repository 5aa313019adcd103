//! Names spelled as letters side by side (`log`, `tanh`, `Sigma`, `tr` written without a
//! backslash): a product of the letters, or the name? Takes an expression, gives the name it
//! spells, for the evaluator to refuse the product reading and the checks to try the name.

use crate::syntax::ast::{BinOp, Expr, ExprKind};

/// Names notes write with a backslash: spelled as adjacent letters (`log(x+c)`, `Sigma = …`,
/// `x^T x = cos`), they are the name, far more often than a product of the letters.
const SPELLED_NAMES: &[&str] = &[
    "log", "ln", "exp", "sin", "cos", "tan", "cot", "sec", "csc", "sinh", "cosh", "tanh", "max", "min", "arg", "lim",
    "det", "tr", "trace", "diag", "var", "cov", "sgn", "sign", "softmax", "relu", "sigmoid", "alpha", "beta", "gamma",
    "delta", "epsilon", "zeta", "theta", "iota", "kappa", "lambda", "sigma", "omega", "phi", "psi", "rho", "tau",
];

/// A name of [`SPELLED_NAMES`] written as letters side by side (no space between them) among
/// the factors of a product; the name, lowercase.
pub(super) fn spelled_word(e: &Expr) -> Option<String> {
    let all = e.implicit_factors();
    fn letter(f: &Expr) -> Option<char> {
        match &f.kind {
            ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() && s.label.is_none() => {
                let mut chars = s.name.chars();
                chars.next().filter(|c| c.is_ascii_alphabetic() && chars.next().is_none())
            }
            // `log(x+c)`: the last letter is the head of an application.
            ExprKind::Call { func, .. } => letter(func),
            _ => None,
        }
    }
    // (The run as written, and lowercase: `Sigma` spells sigma; but `TR`, `h = TR`, is a product
    // of two matrices, so the names of [`SPELLED_LOWERCASE`] count only as written.)
    let (mut run, mut written) = (String::new(), String::new());
    let mut end = None;
    for f in all {
        match letter(f) {
            Some(c) if end.is_none_or(|end| end == f.span.start) => {
                run.push(c.to_ascii_lowercase());
                written.push(c);
            }
            Some(c) => {
                run = c.to_ascii_lowercase().to_string();
                written = c.to_string();
            }
            None => {
                run.clear();
                written.clear();
            }
        }
        // After an application the run ends: `g(x) o` spells nothing.
        end = letter(f).filter(|_| matches!(f.kind, ExprKind::Symbol(_))).map(|_| f.span.end);
        let spelled =
            |w: &&&str| if SPELLED_LOWERCASE.contains(*w) { written.ends_with(*w) } else { run.ends_with(*w) };
        if let Some(word) = SPELLED_NAMES.iter().find(spelled) {
            return Some((*word).to_string());
        }
    }
    None
}

/// Names of [`SPELLED_NAMES`] that spell a name only written in lowercase: capitals side by side
/// (`TR`, `DIAG`) are matrices multiplied.
const SPELLED_LOWERCASE: &[&str] = &["tr", "trace", "diag"];

/// The first name of [`SPELLED_NAMES`] written as letters side by side anywhere in `e`
/// (`log\frac{P(A)}{P(B)}`): a reading that multiplies those letters would be a guess.
pub fn spelled_name_in(e: &Expr) -> Option<String> {
    let here = matches!(e.kind, ExprKind::Binary { op: BinOp::Implicit, .. }).then(|| spelled_word(e)).flatten();
    here.or_else(|| e.children().find_map(spelled_name_in))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A name spelled as letters side by side; `tr` only as written, lowercase (`TR` is a product
    /// of two matrices), `Sigma` whatever its case.
    #[test]
    fn names_spelled_as_letters() {
        let spelled = |tex: &str| {
            let statement = crate::syntax::parse_formula(tex).unwrap();
            let e = statement.chains[0].first.clone().unwrap();
            spelled_name_in(&e)
        };
        assert_eq!(spelled("tr a"), Some("tr".into()));
        assert_eq!(spelled("TR"), None);
        assert_eq!(spelled("Sigma x"), Some("sigma".into()));
        assert_eq!(spelled("a b"), None);
    }
}
