//! What the notes declare about symbols, read off single formulas: shapes (`X\in\mathbb R^{n\times
//! d}`, `\mathbf x=[x_1;\dots;x_n]`), the letters sums run over and the ranges they are given,
//! the symbols used as vectors or matrices, products written in both orders, and letters given
//! values. Pure functions over the tree; `sema` gathers them per section.

use crate::syntax::ast::{Accent, BinOp, Chain, Expr, ExprKind, RelOp, Statement};
use std::collections::BTreeMap;

/// The shapes a formula declares. `\mathbf x, \mathbf y \in \mathbb R^d` declares both: bare
/// symbols listed before a declaration in the same formula share its shape.
pub(super) fn shape_declarations(statement: &Statement) -> Vec<(String, [String; 2])> {
    let mut out = Vec::new();
    let mut listed: Vec<String> = Vec::new();
    for chain in &statement.chains {
        if let Some((key, shape)) = shape_declaration(chain) {
            out.extend(listed.drain(..).map(|k| (k, shape.clone())));
            out.push((key, shape));
        } else if let (Some(ExprKind::Symbol(s)), true) =
            (chain.first.as_ref().map(|e| &e.kind), chain.links.is_empty())
        {
            listed.push(s.key());
        } else {
            listed.clear();
        }
    }
    out
}

/// `X\in\mathbb R^{n\times d}` -> (X, [n, d]); `w\in\mathbb R^{d}` -> (w, [d, 1]), a column;
/// `b\in\mathbb R^{1\times m}` -> (b, [1, m]); a vector of its own entries (`own_entries_shape`).
pub(super) fn shape_declaration(chain: &Chain) -> Option<(String, [String; 2])> {
    let (Some(first), Some(link)) = (&chain.first, chain.links.first()) else { return None };
    if link.op == RelOp::Eq {
        return own_entries_shape(first, &link.rhs)
            .or_else(|| picture_entries(first, &link.rhs).map(|(key, shape, _)| (key, shape)))
            .or_else(|| entries_shape(first, &link.rhs));
    }
    if link.op != RelOp::In || chain.links.len() != 1 {
        return None;
    }
    let ExprKind::Power { base, exponent } = &link.rhs.kind else { return None };
    let reals = matches!(&base.kind, ExprKind::Symbol(s) if s.name == "R" && s.style == Some(crate::syntax::ast::Style::Blackboard));
    // `\mathbf a_i^\top \in \mathbb R^k`, "a row vector in R^k": a_i has k entries (a column, as
    // every vector); `\mathbf B^\top \in \mathbb R^{m\times n}` makes B n×m.
    let (declared, transposed) = match &first.kind {
        ExprKind::Transpose { operand } => (&**operand, true),
        _ => (first, false),
    };
    let key = declared.symbol_key().filter(|_| reals)?;
    let shape = match &exponent.kind {
        ExprKind::Binary { op: BinOp::Times, lhs, rhs } if transposed => {
            dimension(lhs).zip(dimension(rhs)).map(|(r, c)| [c, r])
        }
        ExprKind::Binary { op: BinOp::Times, lhs, rhs } => dimension(lhs).zip(dimension(rhs)).map(|(r, c)| [r, c]),
        _ => dimension(exponent).map(|n| [n, "1".to_string()]),
    }?;
    Some((key, shape))
}

/// `\mathbf A = (a_{ij})`, `A = [a_{ij}]`: a matrix named together with the letter of its
/// entries. Gives the entries' letter, its two index letters and the subscript, so that `a_{ij}`
/// is read as entry (i, j) of A (and `a_{11}` as entry (1, 1)). The matrix itself is not defined.
pub(super) fn entries_letter(target: &Expr, body: &Expr) -> Option<EntriesLetter> {
    let ExprKind::Symbol(matrix) = &target.kind else { return None };
    let ExprKind::Fenced { open, close, inner: Some(inner) } = &entries_fence(body).0.kind else { return None };
    // (`W=\{w_{ij}\}`, the set of its entries, names them as the parentheses do.)
    let paired = matches!(
        (open.as_str(), close.as_str()),
        ("(", ")") | ("[", "]") | ("\\left(", "\\right)") | ("\\{", "\\}") | ("\\left\\{", "\\right\\}")
    );
    let ExprKind::Subscript { base, index } = &inner.kind else { return None };
    let ExprKind::Symbol(entry) = &base.kind else { return None };
    let letters = crate::syntax::ast::index_letters(index)?;
    let distinct = letters.len() == 2 && letters[0] != letters[1];
    (paired && distinct && entry.key() != matrix.key()).then(|| (entry.key(), letters, (**index).clone()))
}

/// `A = (A_{ij})`, `A = [A_{ij}]`, `A = \{A_{ij}\}`: the letter `key` written as the matrix of its own entries (as
/// `A = (a_{ij})` reads once a_{ij} is A's entry), which gives it no value.
pub(super) fn names_own_entries(key: &str, body: &Expr) -> bool {
    let ExprKind::Fenced { open, inner: Some(inner), .. } = &entries_fence(body).0.kind else { return false };
    let ExprKind::Subscript { base, index } = &inner.kind else { return false };
    matches!(open.as_str(), "(" | "[" | "\\left(" | "\\left[" | "\\{" | "\\left\\{")
        && matches!(base.kind, ExprKind::Symbol(_))
        && base.symbol_key().as_deref() == Some(key)
        && crate::syntax::ast::index_letters(index).is_some_and(|l| l.len() == 2)
}

/// `(a_{ij})_{m \times n}`: the bracket of entries and the shape its subscript writes; any other
/// expression is its own bracket, with no shape.
fn entries_fence(body: &Expr) -> (&Expr, Option<[String; 2]>) {
    if let ExprKind::Subscript { base, index } = &body.kind {
        if let (ExprKind::Fenced { .. }, ExprKind::Binary { op: BinOp::Times, lhs, rhs }) = (&base.kind, &index.kind) {
            if let (Some(rows), Some(cols)) = (dimension(lhs), dimension(rhs)) {
                return (base, Some([rows, cols]));
            }
        }
    }
    (body, None)
}

/// A size as a shape writes it: a whole number from 1, or a letter.
pub(super) fn dimension(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Number { value } if value.parse::<u32>().is_ok_and(|n| n >= 1) => Some(value.clone()),
        _ => e.symbol_key(),
    }
}

/// `A = (a_{ij})_{m \times n}`: the matrix's shape, where its entries' bracket writes one.
fn entries_shape(target: &Expr, body: &Expr) -> Option<(String, [String; 2])> {
    let shape = entries_fence(body).1?;
    let key = target.symbol_key().filter(|k| entries_letter(target, body).is_some() || names_own_entries(k, body))?;
    Some((key, shape))
}

/// The letter of a matrix's entries, its two index letters and their subscript (`a`, [i, j],
/// `ij`): `a_{ij}` is entry (i, j).
pub(super) type EntriesLetter = (String, Vec<String>, Expr);

/// `\mathbf A = \begin{bmatrix} a_{11} & \cdots & a_{1n} \\ \vdots & \ddots & \vdots \\ a_{m1} &
/// \cdots & a_{mn} \end{bmatrix}`: a picture of a general matrix by its entries, which declares its
/// shape, (A, [m, n]), from the last entry's subscript, and names its entries, a_{ij} = A_{ij}:
/// the entries' letter, the index letters i, j and their subscript. `None` unless every cell is
/// an entry of one letter other than the matrix's, or dots.
pub(super) fn picture_entries(target: &Expr, body: &Expr) -> Option<(String, [String; 2], EntriesLetter)> {
    let ExprKind::Symbol(matrix) = &target.kind else { return None };
    let ExprKind::Matrix { rows, .. } = &body.kind else { return None };
    let cells = crate::syntax::ast::matrix_cells(rows)?;
    let mut letter = None;
    for e in cells.iter().flatten() {
        match &e.kind {
            ExprKind::Ellipsis => {}
            ExprKind::Subscript { base, .. } => {
                let key =
                    base.symbol_key().filter(|k| matches!(base.kind, ExprKind::Symbol(_)) && *k != matrix.key())?;
                if letter.get_or_insert(key.clone()) != &key {
                    return None;
                }
            }
            _ => return None,
        }
    }
    let ExprKind::Subscript { index, .. } = &cells.last()?.last()?.kind else { return None };
    let parts: Vec<String> = match &index.kind {
        ExprKind::Tuple { items, .. } => items.iter().map(Expr::symbol_key).collect::<Option<_>>()?,
        _ => crate::syntax::ast::index_letters(index)?,
    };
    let [m, n] = parts.as_slice() else { return None };
    let statement = crate::syntax::parse_formula("a_{ij}").ok()?;
    let ExprKind::Subscript { index: entry, .. } = &statement.chains.first()?.first.as_ref()?.kind else { return None };
    let entries = (letter?, vec!["i".to_string(), "j".to_string()], (**entry).clone());
    Some((matrix.key(), [m.clone(), n.clone()], entries))
}

/// `\mathbf x = \begin{bmatrix} x_1 \\ \vdots \\ x_n \end{bmatrix}` or `[x_1, \ldots, x_d]^\top`: a
/// vector written as the column (or row) of its own entries declares its shape, (x, [n, 1]); it
/// defines nothing.
pub(super) fn own_entries_shape(target: &Expr, body: &Expr) -> Option<(String, [String; 2])> {
    let key = target.symbol_key().filter(|_| matches!(target.kind, ExprKind::Symbol(_)))?;
    // `x = (x_1, \ldots, x_n)`: a tuple in parentheses is a point of R^n, which matrix algebra
    // takes as a column (the next formula may write x as one), not a row as `[x_1, …, x_n]` is.
    let tuple = matches!(&body.kind, ExprKind::Fenced { open, inner: Some(inner), .. }
        if open.ends_with('(') && matches!(inner.kind, ExprKind::Tuple { stacked: false, .. }));
    let (cells, column) = vector_cells(body)?;
    let column = column || tuple;
    let last_index = |e: &Expr| match &e.kind {
        ExprKind::Subscript { base, index } if base.symbol_key().as_deref() == Some(key.as_str()) => {
            match &index.kind {
                ExprKind::Number { value } => Some(value.clone()),
                _ => index.symbol_key(),
            }
        }
        _ => None,
    };
    let entries_only = cells.iter().all(|c| matches!(c.kind, ExprKind::Ellipsis) || last_index(c).is_some());
    let size = last_index(cells.last()?)?;
    let shape = if column { [size, "1".to_string()] } else { ["1".to_string(), size] };
    (entries_only && cells.len() >= 2).then_some((key, shape))
}

/// `[3, 2]^\top`, `\begin{bmatrix} 1 & 2 \\ 3 & 4 \end{bmatrix}`: a vector or matrix written with
/// numbers only, and its shape.
pub(super) fn literal_shape(e: &Expr) -> Option<[String; 2]> {
    let number = |e: &Expr| match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => matches!(operand.kind, ExprKind::Number { .. }),
        _ => false,
    };
    if let Some((cells, column)) = vector_cells(e) {
        let n = cells.len().to_string();
        return (cells.len() >= 2 && cells.iter().all(|c| number(c))).then(|| {
            if column {
                [n, "1".to_string()]
            } else {
                ["1".to_string(), n]
            }
        });
    }
    let ExprKind::Matrix { rows, .. } = &e.kind else { return None };
    let cells = crate::syntax::ast::matrix_cells(rows)?;
    let cols = cells.first()?.len();
    let rectangular = cells.iter().all(|r| r.len() == cols && r.iter().all(|c| number(c)));
    rectangular.then(|| [cells.len().to_string(), cols.to_string()])
}

/// The entries of a vector written out, and whether it is a column: a one-column or one-row
/// matrix (`bmatrix`, …), or a bracketed list (a row; a column when transposed). `None` for
/// anything else, or a cell holding more than one expression.
pub(super) fn vector_cells(e: &Expr) -> Option<(Vec<&Expr>, bool)> {
    let (list, transposed) = match &e.kind {
        ExprKind::Transpose { operand } => (operand.as_ref(), true),
        _ => (e, false),
    };
    match &list.kind {
        ExprKind::Fenced { inner: Some(inner), .. } => match &inner.kind {
            // `[x_1; x_2]` is a column, `[x_1, x_2]^\top` too.
            ExprKind::Tuple { items, stacked } => Some((items.iter().collect(), *stacked != transposed)),
            _ => None,
        },
        ExprKind::Matrix { rows, .. } if !transposed => {
            let column = rows.iter().all(|r| r.len() == 1);
            if !column && rows.len() != 1 {
                return None;
            }
            let cells = rows
                .iter()
                .flatten()
                .map(|c| c.as_ref().filter(|s| s.chains.len() == 1).and_then(|s| s.chains[0].first.as_ref()))
                .collect::<Option<Vec<&Expr>>>()?;
            Some((cells, column))
        }
        _ => None,
    }
}

/// Letters a sum runs over (`\sum_i`, `\sum_{ij}`), not those with limits written (`i=1`).
pub(super) fn summation_letters(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
    use crate::syntax::ast::{indexes_by, BigOpKind};
    if let ExprKind::BigOp { op, lower: Some(lower), body, .. } = &e.kind {
        // An integral's lower limit is a number, not the letter it runs over (`\int_a^b`).
        // (`\sum_{j \neq i}`: j runs over what it indexes, but for one value.)
        let excluding = match &lower.kind {
            ExprKind::Relation { chain } if chain.links.iter().all(|l| l.op == RelOp::Ne) => {
                chain.first.as_ref().and_then(crate::syntax::ast::index_letters)
            }
            _ => None,
        };
        if let Some(letters) = crate::syntax::ast::index_letters(lower).or(excluding).filter(|_| !op.is_integral()) {
            // A sum or product runs over indices; a maximum, an arg max, a limit or a supremum
            // runs over the values of its letter (`\arg\max_x f(x)`), which is an index only
            // where the body writes it as one (`\max_i x_i`).
            let discrete = matches!(
                op,
                BigOpKind::Sum | BigOpKind::Prod | BigOpKind::Coprod | BigOpKind::Union | BigOpKind::Intersection
            );
            let as_index = |l: &String| discrete || body.as_deref().is_some_and(|b| indexes_by(b, l));
            out.extend(letters.into_iter().filter(as_index));
        }
    }
    e.children().for_each(|c| summation_letters(c, out));
}

/// Symbols written with one index letter (`o_j`): each with the letters it is indexed by.
pub(super) fn collect_single_entries(e: &Expr, out: &mut BTreeMap<String, std::collections::BTreeSet<String>>) {
    if let ExprKind::Subscript { base, index } = &e.kind {
        if let (Some(key), Some([letter])) = (base.symbol_key(), crate::syntax::ast::index_letters(index).as_deref()) {
            out.entry(key).or_default().insert(letter.clone());
        }
    }
    e.children().for_each(|c| collect_single_entries(c, out));
}

/// Sums with written limits from a number to a letter (`\sum_{j=1}^q`, `\sum_{i=0}^{t-1}`):
/// each summation letter with the upper bounds it is given. A sum from 1 to a letter `q` names
/// the letter's range 1..q; other limits (`0`, `t-1`) only make the bound's letter a size, and
/// are recorded under the summation letter `""` (no range for it).
pub(super) fn bounded_sums(e: &Expr, out: &mut BTreeMap<String, std::collections::BTreeSet<String>>) {
    // `x_1 + x_2 + \cdots + x_n`: n ends a range, a size like q of `\sum_{j=1}^q`.
    if let Some(pattern) = crate::syntax::pattern::pattern_sum(e) {
        out.entry(String::new()).or_default().insert(pattern.letter);
    }
    if let ExprKind::BigOp { op, lower: Some(lower), upper: Some(upper), .. } = &e.kind {
        if op.is_integral() {
            return e.children().for_each(|c| bounded_sums(c, out));
        }
        let start = match &lower.kind {
            ExprKind::Relation { chain } => match (&chain.first, chain.links.as_slice()) {
                (Some(letter), [link]) if link.op == RelOp::Eq => match &link.rhs.kind {
                    ExprKind::Number { value } if value.parse::<u32>().is_ok() => {
                        letter.symbol_key().map(|l| (l, value == "1"))
                    }
                    _ => None,
                },
                _ => None,
            },
            _ => None,
        };
        let single = |x: &Expr| x.symbol_key().filter(|k| k.chars().count() == 1);
        let (bound, plain) = match &upper.kind {
            ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } if matches!(&rhs.kind, ExprKind::Number { value } if value.parse::<u32>().is_ok()) => {
                (single(lhs), false)
            }
            _ => (single(upper), true),
        };
        if let (Some((letter, from_one)), Some(bound)) = (start, bound) {
            let letter = if from_one && plain { letter } else { String::new() };
            out.entry(letter).or_default().insert(bound);
        }
    }
    e.children().for_each(|c| bounded_sums(c, out));
}

/// Keys of symbols the notes use as vectors or matrices: transposed, in an entry-wise product,
/// bold, under a norm or an inner product, or given to diag/tr/det/sum/mean/softmax. Such a
/// symbol is never taken for a number by default: without a declared shape its claims are
/// undecided (`(AB)^\top=A^\top B^\top` is not verified with A and B read as numbers).
pub(super) fn collect_matrix_like(e: &Expr, out: &mut std::collections::HashSet<String>) {
    let mut mark = |x: &Expr| {
        if let Some(key) = x.symbol_key().filter(|k| k != "\\mathbf{1}" && k != "\\mathbb{1}") {
            out.insert(key);
        }
    };
    match &e.kind {
        ExprKind::Transpose { operand } | ExprKind::Norm { operand } => mark(operand),
        ExprKind::Binary { op: BinOp::Hadamard, lhs, rhs } => {
            mark(lhs);
            mark(rhs);
        }
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "\\langle" => {
            if let ExprKind::Tuple { items, .. } = &inner.kind {
                items.iter().for_each(&mut mark);
            }
        }
        ExprKind::Apply { func, args, .. }
            if matches!(func.name.as_str(), "diag" | "tr" | "trace" | "det" | "sum" | "mean" | "softmax") =>
        {
            args.iter().for_each(&mut mark)
        }
        ExprKind::Symbol(s) if s.style == Some(crate::syntax::ast::Style::Bold) && !s.is_bold_one() => mark(e),
        ExprKind::Symbol(s) if s.accents.contains(&Accent::Vec) => mark(e),
        // `A - \lambda I`: I added to or taken from another term is the identity (of that term's
        // shape), as every text writes it.
        ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
            for side in [lhs, rhs] {
                let last = match &side.kind {
                    ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, rhs: last, .. } => last.as_ref(),
                    _ => side.as_ref(),
                };
                if last.symbol_key().as_deref() == Some("I") && matches!(last.kind, ExprKind::Symbol(_)) {
                    mark(last);
                }
            }
        }
        // `\theta^T x`: the letter a transposed vector multiplies is its partner in an inner
        // product (a vector of its length, or a matrix), whatever its face.
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } if ends_transposed(lhs) => {
            if let Some(first) = first_factor(rhs) {
                mark(first);
            }
        }
        _ => {}
    }
    e.children().for_each(|c| collect_matrix_like(c, out));
}

/// Does the product `e` end in a transposed factor (`\theta^T`, `\mathbf w^\top`, `a\,b^T`)?
fn ends_transposed(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Transpose { .. } => true,
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, rhs, .. } => ends_transposed(rhs),
        _ => false,
    }
}

/// The first factor of a product, where it is a letter (`x` of `x^{(i)} y`).
fn first_factor(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, .. } => first_factor(lhs),
        _ => e.symbol_key().is_some().then_some(e),
    }
}

/// Ordered pairs of symbols written side by side in a product (`AB` gives (A, B)).
pub(super) fn collect_product_orders(e: &Expr, out: &mut std::collections::HashSet<(String, String)>) {
    if let ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } = &e.kind {
        let last = |x: &Expr| -> Option<String> {
            match &x.kind {
                ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, rhs, .. } => rhs.symbol_key(),
                _ => x.symbol_key(),
            }
        };
        if let (Some(a), Some(b)) = (last(lhs), rhs.symbol_key()) {
            out.insert((a, b));
        }
    }
    e.children().for_each(|c| collect_product_orders(c, out));
}

pub(super) fn collect_values(e: &Expr, out: &mut std::collections::HashSet<String>) {
    // `E^{2}(X)`, `3f^2(x)`: a power of a letter right before a parenthesis (the square of an
    // application, as `\sin^2 x` writes it?) does not make the letter a value.
    if let ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } = &e.kind {
        if let Some((power, ..)) = crate::syntax::ast::power_before_parenthesis(lhs, rhs) {
            let mut factors = Vec::new();
            crate::syntax::pattern::flatten_product(lhs, &mut factors);
            factors.iter().filter(|f| !std::ptr::eq(**f, power)).for_each(|f| collect_values(f, out));
            return collect_values(rhs, out);
        }
    }
    match &e.kind {
        ExprKind::Call { args, .. } => args.iter().for_each(|a| collect_values(a, out)),
        // `\sigma_1(XW+b)`: a named function as much as `\sigma(…)` is; σ is not written as a value.
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs }
            if matches!(&lhs.kind, ExprKind::Subscript { base, .. } if matches!(base.kind, ExprKind::Symbol(_)))
                && matches!(&rhs.kind, ExprKind::Fenced { open, .. } if open == "(") =>
        {
            collect_values(rhs, out)
        }
        // `\frac{dF}{du}(u(x))`: the derivative of F, which may be a function (`F(u(x))`
        // elsewhere), by a letter that may stand for one (u of `u(x)`): neither is a value.
        ExprKind::Derivative { .. }
            if crate::syntax::ast::derivative_of_letter(e)
                .is_some_and(|(_, wrt)| matches!(wrt.kind, ExprKind::Symbol(_))) => {}
        ExprKind::Symbol(s) => {
            out.insert(s.key());
        }
        _ => e.children().for_each(|c| collect_values(c, out)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    fn declared(tex: &str) -> Vec<(String, [String; 2])> {
        shape_declarations(&parse_formula(tex).unwrap())
    }

    fn shape(key: &str, rows: &str, cols: &str) -> (String, [String; 2]) {
        (key.to_string(), [rows.to_string(), cols.to_string()])
    }

    #[test]
    fn shapes_the_notes_declare() {
        // (formula, [(symbol, rows, cols)]).
        type Case<'a> = (&'a str, &'a [(&'a str, &'a str, &'a str)]);
        let cases: &[Case] = &[
            (r"X\in\mathbb R^{n\times d}", &[("X", "n", "d")]),
            (r"\mathbf w\in\mathbb{R}^{d}", &[("w", "d", "1")]),
            (r"b\in\mathbb R^{1\times m}", &[("b", "1", "m")]),
            (r"\mathbf{x}, \mathbf{y} \in \mathbb{R}^d", &[("x", "d", "1"), ("y", "d", "1")]),
            (r"\mathbf x=[x_1;x_2;x_3]", &[("x", "3", "1")]),
            (r"\mathbf x=[x_1, x_2, x_3]^\top", &[("x", "3", "1")]),
            // "Each row a_i^T in R^k": the member has k entries; a transposed matrix its shape swapped.
            (r"\mathbf{a}^\top_{i} \in \mathbb{R}^k", &[("a_i", "k", "1")]),
            (r"\mathbf{B}^\top \in \mathbb{R}^{m \times n}", &[("B", "n", "m")]),
            (r"x \in \mathbb R", &[]),
            (r"x \in [0, 1]", &[]),
            (r"\mathbf x = \mathbf y + 1", &[]),
        ];
        for (tex, want) in cases {
            let want: Vec<_> = want.iter().map(|(k, r, c)| shape(k, r, c)).collect();
            assert_eq!(declared(tex), want, "{tex}");
        }
    }

    #[test]
    fn symbols_used_as_vectors_or_matrices() {
        let cases: &[(&str, &[&str])] = &[
            // (What a transposed letter multiplies is its partner in a product of arrays.)
            (r"A^\top B", &["A", "B"]),
            (r"\det(A - \lambda I)", &["I"]),
            (r"\sigma(\theta^T x^{(i)} + b)", &[r"\theta", "x^{(i)}"]),
            (r"\|v\|", &["v"]),
            (r"a\odot b", &["a", "b"]),
            (r"\mathbf{z} + \mathbf 1", &["z"]),
            (r"\vec u + w", &["u"]),
            (r"\operatorname{tr}(M)", &["M"]),
            (r"a b + c", &[]),
        ];
        for (tex, want) in cases {
            let mut found = std::collections::HashSet::new();
            for e in parse_formula(tex).unwrap().chains.iter().flat_map(Chain::exprs) {
                collect_matrix_like(e, &mut found);
            }
            let mut found: Vec<String> = found.into_iter().collect();
            found.sort();
            assert_eq!(found, *want, "{tex}");
        }
    }

    fn summed(tex: &str) -> Vec<String> {
        let statement = parse_formula(tex).unwrap();
        let mut letters = std::collections::BTreeSet::new();
        statement
            .chains
            .iter()
            .flat_map(crate::syntax::ast::Chain::exprs)
            .for_each(|e| summation_letters(e, &mut letters));
        letters.into_iter().collect()
    }

    #[test]
    fn a_sum_runs_over_an_index_and_an_arg_max_over_values() {
        assert_eq!(summed(r"\sum_i x_i = 1"), ["i"]);
        assert_eq!(summed(r"\prod_k a_k = 1"), ["k"]);
        // The letter of a maximum or arg max is an index only where the body indexes by it.
        assert!(summed(r"\operatorname*{arg\,max}_x f(x) = 0").is_empty());
        assert!(summed(r"\max_{w} L(w) = 0").is_empty());
        assert_eq!(summed(r"\max_i x_i = 3"), ["i"]);
    }
}
