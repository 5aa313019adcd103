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

/// The TeX of `e` as written, without the braces a name written in them spans (`{n}` of
/// `\frac{n-1}{{n}}`): what an edit puts elsewhere, in braces of its own where it needs them.
fn written<'t>(tex: &'t str, e: &Expr) -> &'t str {
    let text = tex.get(e.span.start..e.span.end).unwrap_or("");
    match text.strip_prefix('{').and_then(|t| t.strip_suffix('}')) {
        Some(inner) if e.symbol_key().is_some() => inner,
        _ => text,
    }
}

/// Every single edit of `side` (whose text is `tex[side.span]`, spans relative to `tex`) that
/// still parses, each once.
pub fn edits(tex: &str, side: &Expr, letters: &Letters) -> Vec<Edit> {
    let Some(text) = tex.get(side.span.start..side.span.end) else { return Vec::new() };
    let mut raw: Vec<(EditKind, usize, usize, String)> = Vec::new();
    collect(tex, side, None, letters, &mut raw);
    // The whole side negated.
    raw.push((EditKind::FlipSign, side.span.start, side.span.end, format!("-\\left({text}\\right)")));
    apply(tex, side, raw)
}

/// The edits a repair tries besides `single` (the [`edits`] of the same side, which it returns
/// first): a factor squared, a constant tripled or halved,
/// a number's denominator dropped, a fraction turned over, an entry of a bracketed vector
/// negated, each of `terms` (TeX another formula of the section writes) added to or
/// subtracted from every sum of the side, the side included, and each of `factors` put before
/// every term of a sum (`+\mathbf{s}_{t-1}` → `+\gamma \mathbf{s}_{t-1}`), and each of
/// `powers` (letters the other side writes and this one lacks) as the power of a function's
/// application (`\exp(w\cdot x_i)` → `\left(\exp(w\cdot x_i)\right)^{y_i}`).
pub fn repair_edits(
    tex: &str,
    side: &Expr,
    single: Vec<Edit>,
    terms: &[String],
    factors: &[String],
    powers: &[String],
    arguments: &Arguments,
) -> Vec<Edit> {
    let mut raw: Vec<(EditKind, usize, usize, String)> = Vec::new();
    collect_for_repair(tex, side, None, false, terms, &mut raw);
    insert_factors(tex, side, factors, &mut raw);
    insert_powers(tex, side, powers, &mut raw);
    // A side that is one term takes a factor too (`\int_0^x y^{n-1}\,dy` → `n \int_0^x …`).
    if sum_terms(side).is_empty() {
        factor_before(tex, side, factors, &mut raw);
    }
    replace_arguments(tex, side, arguments, &mut raw);
    let mut out = single;
    for edit in apply(tex, side, raw) {
        if !out.iter().any(|e| e.tex == edit.tex) {
            out.push(edit);
        }
    }
    out
}

/// The raw replacements made on `side`'s text, each read back through the parser, once.
fn apply(tex: &str, side: &Expr, raw: Vec<(EditKind, usize, usize, String)>) -> Vec<Edit> {
    let (start, end) = (side.span.start, side.span.end);
    let Some(text) = tex.get(start..end) else { return Vec::new() };
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

/// The terms a sum node adds up itself: its right operand, and its left one unless that is the
/// sum before it (`a - b + c` is ((a − b) + c): the node of `+` owns `c`, the inner one `a`, `b`).
pub fn sum_terms(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
            if matches!(lhs.kind, ExprKind::Binary { op: BinOp::Add | BinOp::Sub, .. }) {
                vec![rhs.as_ref()]
            } else {
                vec![lhs.as_ref(), rhs.as_ref()]
            }
        }
        _ => Vec::new(),
    }
}

fn insert_factors(tex: &str, e: &Expr, factors: &[String], out: &mut Vec<(EditKind, usize, usize, String)>) {
    for term in sum_terms(e) {
        factor_before(tex, term, factors, out);
    }
    for c in e.children() {
        insert_factors(tex, c, factors, out);
    }
}

/// Each of `powers` as the power of every application of a function in `e`.
fn insert_powers(tex: &str, e: &Expr, powers: &[String], out: &mut Vec<(EditKind, usize, usize, String)>) {
    if matches!(e.kind, ExprKind::Apply { .. }) {
        let text = written(tex, e);
        for power in powers {
            out.push((EditKind::AddPower, e.span.start, e.span.end, format!("\\left({text}\\right)^{{{power}}}")));
        }
    }
    for c in e.children() {
        insert_powers(tex, c, powers, out);
    }
}

/// Each of `factors` put before `term` (a number takes none).
fn factor_before(tex: &str, term: &Expr, factors: &[String], out: &mut Vec<(EditKind, usize, usize, String)>) {
    if matches!(term.kind, ExprKind::Number { .. }) {
        return;
    }
    let text = written(tex, term);
    for factor in factors {
        out.push((EditKind::InsertFactor, term.span.start, term.span.end, format!("{factor} {text}")));
    }
}

/// The arguments written in a claim: those of its applications (`f(u(y))`: `u(y)`, `y`) and of
/// derivatives applied to a parenthesis (`\frac{dF}{du}(u(x))`), each once.
/// With them, the functions the claim applies (`f`, `u`), whose application to an argument is
/// a candidate too (`f(y)` → `f(u(y))`).
pub fn claim_arguments(tex: &str, sides: [&Expr; 2]) -> Arguments {
    let mut out = Arguments::default();
    let mut arguments = Vec::new();
    for side in sides {
        applied_arguments(side, &mut arguments);
        applied_functions(tex, side, &mut out.functions);
    }
    for arg in arguments {
        let text = written(tex, arg).trim();
        if !text.is_empty() && !out.written.iter().any(|o| o == text) {
            out.written.push(text.to_string());
        }
    }
    out
}

/// What [`claim_arguments`] finds.
#[derive(Debug, Default)]
pub struct Arguments {
    pub written: Vec<String>,
    pub functions: Vec<String>,
}

fn applied_functions(tex: &str, e: &Expr, out: &mut Vec<String>) {
    if let ExprKind::Call { func, .. } = &e.kind {
        if let (ExprKind::Symbol(_), Some(text)) = (&func.kind, tex.get(func.span.start..func.span.end)) {
            if !out.iter().any(|o| o == text) {
                out.push(text.to_string());
            }
        }
    }
    e.children().for_each(|c| applied_functions(tex, c, out));
}

fn applied_arguments<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    match &e.kind {
        ExprKind::Call { args, .. } => out.extend(args.iter()),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            if let Some((_, _, arg)) = crate::syntax::ast::derivative_applied(lhs, rhs) {
                out.push(arg);
            }
        }
        _ => {}
    }
    e.children().for_each(|c| applied_arguments(c, out));
}

/// Repairs only: each argument of an application replaced by another the claim writes, or
/// given to a function it applies (`f(y)` → `f(u(y))`; `\frac{dF}{du}(x)` → `(u(x))`).
fn replace_arguments(tex: &str, side: &Expr, arguments: &Arguments, out: &mut Vec<(EditKind, usize, usize, String)>) {
    let mut here = Vec::new();
    applied_arguments(side, &mut here);
    for arg in here {
        let (s, t) = (arg.span.start, arg.span.end);
        for other in &arguments.written {
            out.push((EditKind::Argument, s, t, other.clone()));
        }
        let text = tex.get(s..t).unwrap_or("");
        for function in &arguments.functions {
            out.push((EditKind::Argument, s, t, format!("{function}({text})")));
        }
    }
}

/// `index`: `e` is inside a subscript's index (`m_2`), whose numbers are no constants.
fn collect_for_repair(
    tex: &str,
    e: &Expr,
    parent: Option<&Expr>,
    index: bool,
    terms: &[String],
    out: &mut Vec<(EditKind, usize, usize, String)>,
) {
    let text = |x: &Expr| written(tex, x).to_string();
    let (s, t) = (e.span.start, e.span.end);
    let powered = parent.is_some_and(|p| matches!(p.kind, ExprKind::Power { .. } | ExprKind::Transpose { .. }));
    let is_base =
        parent.is_some_and(|p| matches!(&p.kind, ExprKind::Subscript { base, .. } if std::ptr::eq(base.as_ref(), e)));
    match &e.kind {
        ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Call { .. } | ExprKind::Apply { .. }
            if !powered && !is_base && !index =>
        {
            out.push((EditKind::AddPower, s, t, format!("{}^2", text(e))));
        }
        ExprKind::Number { value } if !index => {
            if let Ok(n) = value.parse::<f64>() {
                let decimals = value.split_once('.').map_or(0, |(_, d)| d.len());
                let tripled = format!("{:.*}", decimals, 3.0 * n);
                out.push((EditKind::ConstantFactor, s, t, tripled));
                let half = n / 2.0;
                let exact = format!("{:.*}", decimals, half);
                let denominator = parent
                    .is_some_and(|p| matches!(&p.kind, ExprKind::Frac { den, .. } if std::ptr::eq(den.as_ref(), e)));
                if n != 0.0 && exact.parse::<f64>().is_ok_and(|h| h == half) && !(denominator && half == 1.0) {
                    out.push((EditKind::ConstantFactor, s, t, exact));
                }
            }
        }
        ExprKind::Frac { num, den } => {
            if matches!(den.kind, ExprKind::Number { .. }) {
                // `\frac\lambda2 w` → `\lambda w`; braces only where a letter follows.
                let letter_follows = tex[t..].chars().next().is_some_and(char::is_alphabetic);
                let bare = matches!(num.kind, ExprKind::Symbol(_)) && !letter_follows;
                let numerator = if bare { text(num) } else { format!("{{{}}}", text(num)) };
                out.push((EditKind::ConstantFactor, s, t, numerator));
            }
            out.push((EditKind::Reciprocal, s, t, format!("\\frac{{{}}}{{{}}}", text(den), text(num))));
        }
        ExprKind::Tuple { items, .. } => {
            for item in items {
                if matches!(item.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Binary { .. }) {
                    out.push((EditKind::FlipSign, item.span.start, item.span.end, format!("-{}", text(item))));
                }
            }
        }
        _ => {}
    }
    let sum = matches!(e.kind, ExprKind::Binary { op: BinOp::Add | BinOp::Sub, .. });
    let sum_parent = parent.is_some_and(|p| matches!(p.kind, ExprKind::Binary { op: BinOp::Add | BinOp::Sub, .. }));
    // Terms go at the end of every sum (not of a sum's left operand, which is the same place).
    if (sum || parent.is_none()) && !sum_parent {
        for term in terms {
            for sign in ["+", "-"] {
                out.push((EditKind::AddTerm, t, t, format!("{sign}{term}")));
            }
        }
    }
    for c in e.children() {
        let in_index = index || matches!(&e.kind, ExprKind::Subscript { index, .. } if std::ptr::eq(index.as_ref(), c));
        collect_for_repair(tex, c, Some(e), in_index, terms, out);
    }
}

fn collect(
    tex: &str,
    e: &Expr,
    parent: Option<&Expr>,
    letters: &Letters,
    out: &mut Vec<(EditKind, usize, usize, String)>,
) {
    let text = |x: &Expr| written(tex, x).to_string();
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
        ExprKind::Power { base, exponent } => {
            if !matches!(exponent.kind, ExprKind::Number { .. }) {
                // `^{n-1}` → `^{n}`, `^{n-2}`; `^{t}` → `^{t+1}`, `^{t-1}`.
                let written = text(exponent);
                let mut shifted = vec![format!("{{{written}+1}}"), format!("{{{written}-1}}")];
                if let ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } = &exponent.kind {
                    if matches!(&rhs.kind, ExprKind::Number { value } if value == "1") {
                        let op =
                            if matches!(exponent.kind, ExprKind::Binary { op: BinOp::Add, .. }) { "+" } else { "-" };
                        shifted = vec![format!("{{{}}}", text(lhs)), format!("{{{}{op}2}}", text(lhs))];
                    }
                }
                let (a, b) = (base.span.end, t);
                for replacement in shifted {
                    out.push((EditKind::Exponent, a, b, format!("^{replacement}")));
                }
            }
            if let ExprKind::Number { value } = &exponent.kind {
                if let Ok(n) = value.parse::<i64>() {
                    for m in [n + 1, n - 1].into_iter().filter(|m| *m != 0) {
                        if m == 1 {
                            // `D^2` → `D`: a first power is written without its exponent.
                            out.push((EditKind::Exponent, base.span.end, t, String::new()));
                        } else {
                            out.push((EditKind::Exponent, exponent.span.start, exponent.span.end, format!("{{{m}}}")));
                        }
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
        assert!(
            all("a/D^2", &[], &[]).iter().any(|(k, t)| *k == EditKind::Exponent && t == "a/D"),
            "a first power drops its exponent"
        );
    }
}
