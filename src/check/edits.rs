//! Single edits of a formula's side, made on its TeX (so a mutant or a repair reads as the
//! author would have written it) and read back through the parser: flip a sign, swap the sides
//! of a difference, add or drop a transpose, swap the factors of a product, σ ↔ σ′, drop a term,
//! change a constant factor, change an index letter, an exponent by one, a sum's bound.
//!
//! Pure: TeX and its tree in, edited TeX (with the tree it parses to) out. `mutate` checks the
//! mutants of verified claims; a refuted claim's repair is searched among the same edits.

pub use crate::model::EditKind;
use crate::syntax::ast::{BigOpKind, BinOp, Expr, ExprKind};

/// A side of a formula, edited once.
#[derive(Debug, Clone)]
pub struct Edit {
    pub kind: EditKind,
    /// The edited side, as TeX.
    pub tex: String,
    /// What that TeX parses to.
    pub expr: Expr,
}

/// What the edits may assume about the letters.
pub trait Knows {
    /// A letter that is a matrix (a transpose of it makes sense).
    fn matrix(&self, key: &str) -> bool;
    /// A letter that is a function with a derivative (σ ↔ σ′).
    fn function(&self, key: &str) -> bool;
}

pub struct Letters<'a> {
    pub knows: &'a dyn Knows,
    /// Index letters a subscript may be changed to.
    pub indices: &'a [String],
}

/// Every single edit of `side` (whose text is `tex[side.span]`, spans relative to `tex`) that
/// still parses, each once.
pub fn edits(tex: &str, side: &Expr, letters: &Letters) -> Vec<Edit> {
    let (start, end) = (side.span.start, side.span.end);
    let Some(text) = tex.get(start..end) else { return Vec::new() };
    let mut raw: Vec<(EditKind, usize, usize, String)> = Vec::new();
    collect(tex, side, None, letters, &mut raw);
    // The whole side negated.
    raw.push((EditKind::FlipSign, start, end, format!("-\\left({text}\\right)")));
    let mut out: Vec<Edit> = Vec::new();
    for (kind, a, b, replacement) in raw {
        if a < start || b > end || a > b {
            continue;
        }
        let edited = format!("{}{}{}", &tex[start..a], replacement, &tex[b..end]);
        if edited == text || out.iter().any(|e| e.tex == edited) {
            continue;
        }
        if let Some(expr) = parse_side(&edited) {
            out.push(Edit { kind, tex: edited, expr });
        }
    }
    out
}

/// The expression a side's TeX parses to: one chain with no relation.
pub fn parse_side(tex: &str) -> Option<Expr> {
    let statement = crate::syntax::parse_formula(tex).ok()?;
    match statement.chains.as_slice() {
        [chain] if chain.links.is_empty() => chain.first.clone(),
        _ => None,
    }
}

fn collect(
    tex: &str,
    e: &Expr,
    parent: Option<&Expr>,
    letters: &Letters,
    out: &mut Vec<(EditKind, usize, usize, String)>,
) {
    let text = |x: &Expr| tex.get(x.span.start..x.span.end).unwrap_or("").to_string();
    let (s, t) = (e.span.start, e.span.end);
    match &e.kind {
        ExprKind::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs } => {
            // The sign between the terms.
            if let Some(between) = tex.get(lhs.span.end..rhs.span.start) {
                let flipped =
                    if *op == BinOp::Add { between.replacen('+', "-", 1) } else { between.replacen('-', "+", 1) };
                if flipped != between {
                    out.push((EditKind::FlipSign, lhs.span.end, rhs.span.start, flipped));
                }
            }
            if *op == BinOp::Sub {
                out.push((EditKind::SwapDifference, s, t, format!("{} - {}", text(rhs), text(lhs))));
                out.push((EditKind::DropTerm, s, t, format!("-{}", text(rhs))));
            } else {
                out.push((EditKind::DropTerm, s, t, text(rhs)));
            }
            out.push((EditKind::DropTerm, s, t, text(lhs)));
        }
        ExprKind::Neg { operand } => out.push((EditKind::FlipSign, s, t, text(operand))),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
            let numbers = matches!(lhs.kind, ExprKind::Number { .. }) || matches!(rhs.kind, ExprKind::Number { .. });
            if !numbers {
                out.push((EditKind::SwapFactors, s, t, format!("{{{}}}{{{}}}", text(rhs), text(lhs))));
            }
        }
        ExprKind::Transpose { operand } => out.push((EditKind::DropTranspose, s, t, text(operand))),
        ExprKind::Symbol(_) | ExprKind::Subscript { .. } => {
            let under = parent.is_some_and(|p| {
                matches!(p.kind, ExprKind::Transpose { .. } | ExprKind::Power { .. } | ExprKind::Prime { .. })
                    || matches!(&p.kind, ExprKind::Subscript { base, .. } if std::ptr::eq(base.as_ref(), e))
            });
            if !under && e.symbol_key().is_some_and(|k| letters.knows.matrix(&k)) {
                out.push((EditKind::AddTranspose, s, t, format!("{{{}}}^\\top", text(e))));
            }
            if let ExprKind::Subscript { index, .. } = &e.kind {
                if let Some(letter) = index.symbol_key().filter(|k| letters.indices.contains(k)) {
                    for other in letters.indices.iter().filter(|o| **o != letter) {
                        out.push((EditKind::IndexLetter, index.span.start, index.span.end, other.clone()));
                    }
                }
            }
        }
        ExprKind::Call { func, .. } => match &func.kind {
            ExprKind::Prime { operand } => {
                out.push((EditKind::TogglePrime, func.span.start, func.span.end, text(operand)))
            }
            _ if func.symbol_key().is_some_and(|k| letters.knows.function(&k)) => {
                out.push((EditKind::TogglePrime, func.span.start, func.span.end, format!("{}'", text(func))));
            }
            _ => {}
        },
        ExprKind::Number { value } => {
            if let Ok(n) = value.parse::<f64>() {
                if n != 0.0 {
                    let doubled = if value.contains('.') {
                        format!("{}", 2.0 * n)
                    } else {
                        format!("{}", 2 * value.parse::<i64>().unwrap_or(1))
                    };
                    out.push((EditKind::ConstantFactor, s, t, doubled));
                }
            }
        }
        ExprKind::Power { exponent, .. } => {
            if let ExprKind::Number { value } = &exponent.kind {
                if let Ok(n) = value.parse::<i64>() {
                    for m in [n + 1, n - 1].into_iter().filter(|m| *m != 0) {
                        out.push((EditKind::Exponent, exponent.span.start, exponent.span.end, format!("{{{m}}}")));
                    }
                }
            }
        }
        ExprKind::BigOp { op: BigOpKind::Sum | BigOpKind::Prod, upper: Some(upper), .. } => {
            let bound = text(upper);
            for shifted in [format!("{{{bound}+1}}"), format!("{{{bound}-1}}")] {
                out.push((EditKind::SumBound, upper.span.start, upper.span.end, shifted));
            }
        }
        _ => {}
    }
    if let ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } = &e.kind {
        // `2x` → `x`: a constant factor dropped.
        if matches!(lhs.kind, ExprKind::Number { .. }) {
            out.push((EditKind::ConstantFactor, s, t, text(rhs)));
        }
    }
    for c in e.children() {
        collect(tex, c, Some(e), letters, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Table<'a>(&'a [&'a str]);

    impl Knows for Table<'_> {
        fn matrix(&self, key: &str) -> bool {
            self.0.contains(&key)
        }
        fn function(&self, key: &str) -> bool {
            key == "\\sigma"
        }
    }

    fn all(tex: &str, matrices: &[&str], indices: &[&str]) -> Vec<(EditKind, String)> {
        let side = parse_side(tex).unwrap();
        let indices: Vec<String> = indices.iter().map(|s| s.to_string()).collect();
        let table = Table(matrices);
        let letters = Letters { knows: &table, indices: &indices };
        edits(tex, &side, &letters).into_iter().map(|e| (e.kind, e.tex)).collect()
    }

    #[test]
    fn edits_read_as_the_author_would_write_them() {
        let got = all("y-p", &[], &[]);
        for want in ["y+p", "p - y", "-p", "y", "-\\left(y-p\\right)"] {
            assert!(got.iter().any(|(_, t)| t == want), "{want} in {got:?}");
        }
        let got = all(r"\bar S^\mathsf TQ", &["Q", r"\bar{S}"], &[]);
        assert!(got.iter().any(|(k, t)| *k == EditKind::DropTranspose && t == r"\bar SQ"), "{got:?}");
        assert!(got.iter().any(|(k, t)| *k == EditKind::SwapFactors && t == r"{Q}{\bar S^\mathsf T}"), "{got:?}");
        let got = all(r"\sigma(z)(1-\sigma(z))", &[], &[]);
        assert!(got.iter().any(|(k, t)| *k == EditKind::TogglePrime && t == r"\sigma'(z)(1-\sigma(z))"), "{got:?}");
        let got = all(r"\sum_{j=1}^q a_j x_j^2", &[], &["j", "k"]);
        assert!(got.iter().any(|(k, t)| *k == EditKind::Exponent && t == r"\sum_{j=1}^q a_j x_j^{3}"), "{got:?}");
        assert!(got.iter().any(|(k, t)| *k == EditKind::SumBound && t == r"\sum_{j=1}^{q-1} a_j x_j^2"), "{got:?}");
        assert!(got.iter().any(|(k, t)| *k == EditKind::IndexLetter && t == r"\sum_{j=1}^q a_k x_j^2"), "{got:?}");
        assert!(all("2x", &[], &[]).iter().any(|(k, t)| *k == EditKind::ConstantFactor && t == "4x"));
    }
}
