//! Sums and products written with an ellipsis between their terms, `x_1 + x_2 + \cdots + x_n`,
//! `w_1x_1 + \cdots + w_dx_d + b`, `x_1 x_2 \cdots x_n`: the sum or product they abbreviate, its
//! pattern read off the written terms.
//!
//! Takes: an expression. Gives: a [`PatternSum`] — the last term before any trailing ones is the
//! general term in a letter `n` (which becomes the range's end), and the written terms before the
//! ellipsis must be that general term at consecutive values ending the run, starting anywhere
//! (`x_0 + x_1 + \cdots + x_n` starts at 0). Nothing else is a pattern: two letters that could be
//! the end (`x_n y_m`), terms that differ otherwise, a subtraction in the chain — all refused, and
//! the ellipsis stays unread.

use super::ast::{BinOp, Expr, ExprKind};

/// `before + Σ_{letter = start}^{letter} general + after`.
#[derive(Debug)]
pub struct PatternSum<'a> {
    /// Ordinary terms written before the pattern's run.
    pub before: Vec<&'a Expr>,
    /// The letter that ends the range (`n` of `x_n`): inside `general` it is the running index.
    pub letter: String,
    pub start: i64,
    pub general: &'a Expr,
    /// Ordinary terms after the general term (`+ b`).
    pub after: Vec<&'a Expr>,
    /// A product (`x_1 x_2 \cdots x_n`), not a sum.
    pub product: bool,
}

/// The pattern sum `e` writes, if it is one.
pub fn pattern_sum(e: &Expr) -> Option<PatternSum<'_>> {
    let product = matches!(e.kind, ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. });
    let mut terms = Vec::new();
    if product {
        flatten_product(e, &mut terms);
    } else {
        flatten_sum(e, &mut terms)?;
    }
    pattern_of_terms(terms, product)
}

/// The list `[t_1, t_2, \ldots, t_d]` (a vector written by its entries, dots among them) as
/// the same pattern: `before`, then the general term at `start..=letter`, then `after`, in
/// order. Its `product` is false.
pub fn pattern_list(items: &[Expr]) -> Option<PatternSum<'_>> {
    pattern_of_terms(items.iter().collect(), false)
}

/// The pattern of terms written in order with one ellipsis among them.
fn pattern_of_terms(terms: Vec<&Expr>, product: bool) -> Option<PatternSum<'_>> {
    let dots = terms.iter().position(|t| matches!(t.kind, ExprKind::Ellipsis))?;
    if terms.iter().filter(|t| matches!(t.kind, ExprKind::Ellipsis)).count() != 1 || dots == 0 {
        return None;
    }
    let general = *terms.get(dots + 1)?;
    let mut letters = Vec::new();
    index_letters(general, false, &mut letters);
    letters.sort();
    letters.dedup();
    let mut found = letters.iter().filter_map(|letter| {
        // The longest run of written terms, ending at the ellipsis, that are the general term
        // at consecutive values.
        (0..dots).find_map(|first| {
            let run = &terms[first..dots];
            let start = (-1..=3).find(|&s| instance_of(general, run[0], letter, s))?;
            let consecutive = run.iter().zip(start..).all(|(t, v)| instance_of(general, t, letter, v));
            // A term before the run that is the general term too (`x_1 + x_3 + \cdots`): the
            // pattern is not one of consecutive values.
            let apart = terms[..first].iter().all(|t| !(-1..=9).any(|v| instance_of(general, t, letter, v)));
            (consecutive && apart).then(|| PatternSum {
                before: terms[..first].to_vec(),
                letter: letter.clone(),
                start,
                general,
                after: terms[dots + 2..].to_vec(),
                product,
            })
        })
    });
    let pattern = found.next()?;
    // Two letters that both fit: which one runs is not settled.
    found.next().is_none().then_some(pattern)
}

/// The terms of a chain of `+` (parentheses are kept as terms); `None` with a `-` in the chain.
fn flatten_sum<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) -> Option<()> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Add, lhs, rhs } => {
            flatten_sum(lhs, out)?;
            flatten_sum(rhs, out)
        }
        ExprKind::Binary { op: BinOp::Sub, .. } => None,
        _ => {
            out.push(e);
            Some(())
        }
    }
}

/// The factors of a product written side by side or with `\cdot`/`\times`, in order.
pub fn flatten_product<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
            flatten_product(lhs, out);
            flatten_product(rhs, out);
        }
        _ => out.push(e),
    }
}

/// Single letters written inside subscripts.
fn index_letters(e: &Expr, in_index: bool, out: &mut Vec<String>) {
    match &e.kind {
        ExprKind::Symbol(s) if in_index && s.name.chars().count() == 1 && s.accents.is_empty() && s.label.is_none() => {
            out.push(s.key())
        }
        ExprKind::Subscript { base, index } => {
            index_letters(base, in_index, out);
            index_letters(index, true, out);
        }
        _ => e.children().for_each(|c| index_letters(c, in_index, out)),
    }
}

/// Is `term` the general term with `letter` at `value`?
/// Is `term` the `general` term with `letter` at `value` (`a_{12}` of `a_{1n}` at n = 2)?
pub fn is_instance(general: &Expr, term: &Expr, letter: &str, value: i64) -> bool {
    instance_of(general, term, letter, value)
}

fn instance_of(general: &Expr, term: &Expr, letter: &str, value: i64) -> bool {
    // `a_{1n}` at n = 2 is `a_{12}`: a subscript of several indices, each its own integer.
    if let (ExprKind::Subscript { base: gb, index: gi }, ExprKind::Subscript { base: tb, index: ti }) =
        (&general.kind, &term.kind)
    {
        let general_parts = index_parts(gi);
        if general_parts.len() >= 2 {
            let digits: Option<Vec<i64>> = match &ti.kind {
                ExprKind::Number { value } if value.len() == general_parts.len() => {
                    value.chars().map(|c| c.to_digit(10).map(i64::from)).collect()
                }
                _ => None,
            };
            let same = match digits {
                Some(digits) => {
                    general_parts.iter().zip(&digits).all(|(g, d)| integer_at(g, letter, value) == Some(*d))
                }
                None => {
                    let term_parts = index_parts(ti);
                    term_parts.len() == general_parts.len()
                        && general_parts.iter().zip(&term_parts).all(|(g, t)| instance_of(g, t, letter, value))
                }
            };
            return same && instance_of(gb, tb, letter, value);
        }
    }
    if mentions(general, letter) {
        if let (Some(v), ExprKind::Number { value: written }) = (integer_at(general, letter, value), &term.kind) {
            return written.parse::<i64>().is_ok_and(|w| w == v);
        }
    }
    same_head(general, term) && {
        let (a, b): (Vec<&Expr>, Vec<&Expr>) = (general.children().collect(), term.children().collect());
        a.len() == b.len() && a.iter().zip(&b).all(|(x, y)| instance_of(x, y, letter, value))
    }
}

/// The indices of a subscript written side by side or with commas (`ij`, `i,j`, `1n`).
fn index_parts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            let mut parts = index_parts(lhs);
            parts.extend(index_parts(rhs));
            parts
        }
        ExprKind::Tuple { items, stacked: false } => items.iter().collect(),
        _ => vec![e],
    }
}

fn mentions(e: &Expr, letter: &str) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.key() == letter) || e.children().any(|c| mentions(c, letter))
}

/// An integer expression of `letter` (`n`, `n-1`, `2n`) at `value`.
fn integer_at(e: &Expr, letter: &str, value: i64) -> Option<i64> {
    match &e.kind {
        ExprKind::Symbol(s) if s.key() == letter => Some(value),
        ExprKind::Number { value: v } => v.parse().ok(),
        ExprKind::Neg { operand } => integer_at(operand, letter, value)?.checked_neg(),
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" => integer_at(inner, letter, value),
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (integer_at(lhs, letter, value)?, integer_at(rhs, letter, value)?);
            match op {
                BinOp::Add => l.checked_add(r),
                BinOp::Sub => l.checked_sub(r),
                BinOp::Implicit | BinOp::Cdot | BinOp::Times => l.checked_mul(r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The nodes agree but for their children.
fn same_head(a: &Expr, b: &Expr) -> bool {
    use ExprKind as K;
    match (&a.kind, &b.kind) {
        (K::Symbol(x), K::Symbol(y)) => x == y,
        (K::Number { value: x }, K::Number { value: y }) => x == y,
        (K::Binary { op: x, .. }, K::Binary { op: y, .. }) => x == y,
        (K::Fenced { open: o1, close: c1, .. }, K::Fenced { open: o2, close: c2, .. }) => o1 == o2 && c1 == c2,
        (K::Sqrt { index: x, .. }, K::Sqrt { index: y, .. }) => x.is_some() == y.is_some(),
        (K::Apply { func: f, .. }, K::Apply { func: g, .. }) => f.name == g.name,
        (K::Derivative { kind: x, .. }, K::Derivative { kind: y, .. }) => x == y,
        (K::Neg { .. }, K::Neg { .. })
        | (K::Frac { .. }, K::Frac { .. })
        | (K::Power { .. }, K::Power { .. })
        | (K::Subscript { .. }, K::Subscript { .. })
        | (K::Transpose { .. }, K::Transpose { .. })
        | (K::Call { .. }, K::Call { .. })
        | (K::Abs { .. }, K::Abs { .. }) => true,
        _ => false,
    }
}

/// A power series written up to some order and then cut off: `1 + x + \frac{x^2}{2} + \cdots`,
/// `x - \frac{x^3}{6} + \ldots`, `f(x) + \epsilon f'(x) + \frac{\epsilon^2}{2}f''(x) + \cdots`.
#[derive(Debug)]
pub struct TruncatedSeries<'a> {
    /// The written terms, each with its sign (`true`: subtracted).
    pub terms: Vec<(bool, &'a Expr)>,
    /// The letter the series is in: every term is a number-free power of it times factors
    /// without it.
    pub variable: &'a Expr,
    /// The highest power written: the series is claimed through this order.
    pub order: i64,
}

/// The truncated power series `e` writes, if it is one: a sum of at least two terms ending in
/// an ellipsis (and nothing after it), each term a power of one letter — the same letter for
/// all, with no other letter fitting — times factors free of it, the powers rising. Anything
/// else (a pattern sum with a last term, two letters that fit, a term where the letter stands
/// inside a function) is not one.
pub fn truncated_series(e: &Expr) -> Option<TruncatedSeries<'_>> {
    let (signed, last) = terms_and_last(e)?;
    // `+ \mathcal{O}(\epsilon^2)`: the letter and the order are written; the terms before it must
    // be the series through the power below (through the power itself for a little `o`).
    // `\mathcal{O}(\eta^2 f'^2(x))`: the factors free of the letter are the constant a big O
    // ignores; the letter is the one of the argument that the terms before rise in (refused
    // where two fit).
    if let Some((argument, little)) = order_term(last) {
        let mut letters = Vec::new();
        plain_letters(argument, &mut letters);
        let mut fits = letters.into_iter().filter_map(|variable| {
            let power = degree_in(argument, variable).filter(|&p| p >= 1)?;
            let order = if little { power } else { power - 1 };
            let degrees: Vec<i64> = signed.iter().map(|(_, t)| degree_in(t, variable)).collect::<Option<_>>()?;
            let rising = degrees.windows(2).all(|w| w[0] < w[1]);
            (rising && order >= 0 && degrees.iter().all(|&d| d <= order)).then_some((variable, order))
        });
        let (variable, order) = fits.next()?;
        if fits.next().is_some() {
            return None;
        }
        return Some(TruncatedSeries { terms: signed, variable, order });
    }
    if !matches!(last.kind, ExprKind::Ellipsis) || signed.len() < 2 {
        return None;
    }
    let mut candidates = Vec::new();
    for (_, t) in &signed {
        plain_letters(t, &mut candidates);
    }
    let mut fits = candidates.into_iter().filter_map(|v| {
        let degrees: Vec<i64> = signed.iter().map(|(_, t)| degree_in(t, v)).collect::<Option<_>>()?;
        let rising = degrees.windows(2).all(|w| w[0] < w[1]);
        let order = *degrees.last()?;
        (rising && order >= 1 && degrees[0] >= 0).then_some((v, order))
    });
    let (variable, order) = fits.next()?;
    // Two letters that both fit (`x^2 y^2 + x^3y^3 + \cdots`): which one the series is in is
    // not settled.
    if fits.any(|(v, _)| !same_letter(v, variable)) {
        return None;
    }
    Some(TruncatedSeries { terms: signed, variable, order })
}

/// A multivariate Taylor expansion cut off by the order of a vector's norm:
/// `f(\mathbf x) + \boldsymbol\epsilon^\top \nabla f(\mathbf x) + \mathcal{O}(\|\boldsymbol\epsilon\|^2)`.
/// Along a ray, the step `t\boldsymbol\epsilon`, it is a power series in t through `order`.
#[derive(Debug)]
pub struct RaySeries<'a> {
    /// The written terms, each with its sign (`true`: subtracted).
    pub terms: Vec<(bool, &'a Expr)>,
    /// The letter whose norm is the order (`\boldsymbol\epsilon`).
    pub step: &'a Expr,
    /// The highest power of t the written terms are claimed through.
    pub order: i64,
}

/// The ray series `e` writes, if it is one: terms, then a big (or little) O of a power of the
/// norm of one letter (`\|\boldsymbol\epsilon\|^3`), and no ellipsis.
pub fn ray_series(e: &Expr) -> Option<RaySeries<'_>> {
    let (signed, last) = terms_and_last(e)?;
    let (argument, little) = order_term(last)?;
    let (norm, power) = match &argument.kind {
        ExprKind::Power { base, exponent } => match &exponent.kind {
            ExprKind::Number { value } => (base.as_ref(), value.parse::<i64>().ok()?),
            _ => return None,
        },
        _ => (argument, 1),
    };
    let ExprKind::Norm { operand } = &norm.kind else { return None };
    operand.symbol_key()?;
    let order = if little { power } else { power - 1 };
    (order >= 0).then_some(RaySeries { terms: signed, step: operand, order })
}

/// A sum's terms with their signs, the last apart (the ellipsis or order term a series ends
/// in): `None` where there is no term before it, or one before it holds an ellipsis.
fn terms_and_last(e: &Expr) -> Option<(Vec<(bool, &Expr)>, &Expr)> {
    let mut signed = Vec::new();
    flatten_signed(e, false, &mut signed);
    let (_, last) = signed.pop()?;
    (!signed.is_empty() && !signed.iter().any(|(_, t)| has_ellipsis(t))).then_some((signed, last))
}

/// `\mathcal{O}(\epsilon^2)`, `O(\eta^2 f'^2(x))`, `o(h)`: the argument, and whether the `o`
/// is little.
fn order_term(e: &Expr) -> Option<(&Expr, bool)> {
    let ExprKind::Call { func, args, postfixed: false } = &e.kind else { return None };
    let ExprKind::Symbol(s) = &func.kind else { return None };
    let little = match s.name.as_str() {
        "O" if s.accents.is_empty() && s.label.is_none() => false,
        "o" if s.accents.is_empty() && s.label.is_none() && s.style.is_none() => true,
        _ => return None,
    };
    let [arg] = args.as_slice() else { return None };
    Some((arg, little))
}

/// The terms of a chain of `+` and `-`, each with its sign; parentheses are kept as terms.
fn flatten_signed<'a>(e: &'a Expr, negated: bool, out: &mut Vec<(bool, &'a Expr)>) {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Add, lhs, rhs } => {
            flatten_signed(lhs, negated, out);
            flatten_signed(rhs, negated, out);
        }
        ExprKind::Binary { op: BinOp::Sub, lhs, rhs } => {
            flatten_signed(lhs, negated, out);
            flatten_signed(rhs, !negated, out);
        }
        _ => out.push((negated, e)),
    }
}

/// Does `e` write an ellipsis anywhere?
pub fn has_ellipsis(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Ellipsis) || e.children().any(has_ellipsis)
}

fn same_letter(a: &Expr, b: &Expr) -> bool {
    matches!((&a.kind, &b.kind), (ExprKind::Symbol(x), ExprKind::Symbol(y)) if x == y)
}

/// The symbols of `e` outside function names, scripts and labels, once each.
fn plain_letters<'a>(e: &'a Expr, out: &mut Vec<&'a Expr>) {
    match &e.kind {
        ExprKind::Symbol(s) if s.label.is_none() => {
            if !out.iter().any(|o| same_letter(o, e)) {
                out.push(e);
            }
        }
        ExprKind::Power { base, exponent } => {
            plain_letters(base, out);
            plain_letters(exponent, out);
        }
        ExprKind::Call { args, .. } | ExprKind::Apply { args, .. } => args.iter().for_each(|a| plain_letters(a, out)),
        ExprKind::Subscript { .. } | ExprKind::Prime { .. } => {}
        _ => e.children().for_each(|c| plain_letters(c, out)),
    }
}

/// The power of the letter `v` in the monomial `e` (0 where `e` does not mention it); `None`
/// where `v` stands anywhere but as a factor raised to a whole number (inside a sum, a
/// function, a denominator, a script).
fn degree_in(e: &Expr, v: &Expr) -> Option<i64> {
    if !contains_letter(e, v) {
        return Some(0);
    }
    match &e.kind {
        ExprKind::Symbol(_) => same_letter(e, v).then_some(1),
        ExprKind::Neg { operand } => degree_in(operand, v),
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" || open == "{" => degree_in(inner, v),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
            degree_in(lhs, v)?.checked_add(degree_in(rhs, v)?)
        }
        ExprKind::Frac { num, den } if !contains_letter(den, v) => degree_in(num, v),
        ExprKind::Power { base, exponent } if !contains_letter(exponent, v) => {
            let ExprKind::Number { value } = &exponent.kind else { return None };
            let n: i64 = value.parse().ok().filter(|n| (1..=64).contains(n))?;
            degree_in(base, v)?.checked_mul(n)
        }
        _ => None,
    }
}

fn contains_letter(e: &Expr, v: &Expr) -> bool {
    same_letter(e, v) || e.children().any(|c| contains_letter(c, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse_formula, print};

    fn read(tex: &str) -> Option<(String, i64, String, usize, usize)> {
        let statement = parse_formula(tex).unwrap();
        let e = statement.chains[0].first.as_ref().unwrap();
        let p = pattern_sum(e)?;
        Some((p.letter, p.start, print::explicit_tex(p.general, &|_| false), p.before.len(), p.after.len()))
    }

    #[test]
    fn the_pattern_is_read_off_the_written_terms() {
        let some = |l: &str, s: i64, g: &str, b: usize, a: usize| Some((l.to_string(), s, g.to_string(), b, a));
        assert_eq!(read(r"x_1 + x_2 + \cdots + x_n"), some("n", 1, "{x}_{n}", 0, 0));
        assert_eq!(read(r"x_0 + \ldots + x_n"), some("n", 0, "{x}_{n}", 0, 0));
        assert_eq!(read(r"w_1 x_1 + \cdots + w_d x_d + b").map(|r| (r.0, r.1, r.3, r.4)), Some(("d".into(), 1, 0, 1)));
        assert_eq!(
            read(r"c + a_1^2 + a_2^2 + \dots + a_k^2").map(|r| (r.0, r.1, r.3, r.4)),
            Some(("k".into(), 1, 1, 0))
        );
        assert_eq!(read(r"x_1 x_2 \cdots x_n"), some("n", 1, "{x}_{n}", 0, 0));
        assert_eq!(read(r"p_1 \cdot p_2 \cdots p_m"), some("m", 1, "{p}_{m}", 0, 0));
    }

    #[test]
    fn what_is_not_one_pattern_is_refused() {
        for tex in [
            r"x_1 + y_2 + \cdots + x_n",
            r"x_1 + x_3 + \cdots + x_n",
            r"x_1 - x_2 + \cdots + x_n",
            r"x_1 + x_2 + \cdots",
            r"x_1 y_1 + \cdots + x_n y_m",
            r"\cdots + x_n",
        ] {
            assert!(read(tex).is_none(), "{tex}: {:?}", read(tex));
        }
    }

    fn series(tex: &str) -> Option<(String, i64, usize)> {
        let statement = parse_formula(tex).unwrap();
        let e = statement.chains[0].first.as_ref().unwrap();
        let s = truncated_series(e)?;
        Some((print::expr(s.variable), s.order, s.terms.len()))
    }

    #[test]
    fn a_series_is_read_in_the_one_letter_whose_powers_rise() {
        assert_eq!(series(r"1 + x + \frac{x^2}{2} + \cdots"), Some(("x".into(), 2, 3)));
        assert_eq!(series(r"x - \frac{x^3}{6} + \frac{x^5}{120} - \cdots"), Some(("x".into(), 5, 3)));
        assert_eq!(series(r"f(x) + \epsilon f'(x) + \frac{\epsilon^2}{2} f''(x) + \cdots").map(|s| s.1), Some(2));
        // An order term fixes the letter and the order: through the power below a big O.
        assert_eq!(series(r"f(x) + \epsilon f'(x) + \mathcal{O}(\epsilon^2)").map(|s| s.1), Some(1));
        assert_eq!(series(r"g(x) - h g'(x) + o(h)").map(|s| s.1), Some(1));
        // A big O ignores the factors free of its letter.
        assert_eq!(series(r"f(x) + \mathcal{O}(2\epsilon^2)").map(|s| s.1), Some(1));
        let step = r"f(x) - \eta f'^2(x) + \mathcal{O}(\eta^2 f'^2(x))";
        assert_eq!(series(step).map(|s| (s.0, s.1)), Some(("\\eta".into(), 1)));
    }

    #[test]
    fn a_ray_series_is_cut_off_by_the_order_of_a_norm() {
        let ray = |tex: &str| {
            let statement = parse_formula(tex).unwrap();
            let e = statement.chains[0].first.as_ref().unwrap();
            ray_series(e).map(|s| (print::expr(s.step), s.order, s.terms.len()))
        };
        let first =
            r"f(\mathbf x) + \boldsymbol\epsilon^\top \nabla f(\mathbf x) + \mathcal{O}(\|\boldsymbol\epsilon\|^2)";
        assert_eq!(ray(first).map(|s| (s.1, s.2)), Some((1, 2)));
        let second = r"f(\mathbf x) + \frac12 \boldsymbol\epsilon^\top \nabla^2 f(\mathbf x) \boldsymbol\epsilon + o(\|\boldsymbol\epsilon\|^2)";
        assert_eq!(ray(second).map(|s| s.1), Some(2));
        // An O of a letter, not of a norm, is a plain series; nothing before the O is no series.
        assert!(ray(r"f(x) + \epsilon f'(x) + \mathcal{O}(\epsilon^2)").is_none());
        assert!(ray(r"\mathcal{O}(\|\boldsymbol\epsilon\|^2)").is_none());
        assert!(ray(r"f(\mathbf x) + \cdots + \mathcal{O}(\|\boldsymbol\epsilon\|^2)").is_none());
    }

    #[test]
    fn what_is_not_a_truncated_series_is_refused() {
        for tex in [
            r"x_1 + x_2 + \cdots + x_n",       // a pattern sum with its last term
            r"1 + xy + x^2y^2 + \cdots",       // two letters fit
            r"1 + x + x + \cdots",             // the powers do not rise
            r"1 + \cdots",                     // one term
            r"\sin(x) + \sin(2x) + \cdots",    // the letter inside a function
            r"1 + x + x^2 + \mathcal{O}(x^2)", // a term at the order the O leaves out
            r"1 + \mathcal{O}(x^2 y^2)",       // two letters fit
        ] {
            assert!(series(tex).is_none(), "{tex}: {:?}", series(tex));
        }
    }
}
