//! `\delta x = \left[\frac{\partial E}{\partial x_i}\right]_i`, then `\delta x = x - t` and
//! `\delta y_i`: a δ (or Δ) that nothing defines, written before several letters, where the notes
//! set one such pair on the left of an equation, names a quantity per letter — δx is one symbol
//! (the gradient, or the change, of x), δy_i a member of the family δy — never δ times x.
//!
//! Takes: a chapter's statements. Gives: them with each such pair made one symbol (its span the
//! pair's), or `None` where the notes name nothing so (a lone δ, a δ the notes define, a δ before
//! one letter only, or no pair defined as a name: the reading stays the claim's to settle).

use crate::syntax::ast::{BinOp, Expr, ExprKind, RelOp, Span, Statement, Symbol};
use std::collections::BTreeMap;

/// The prefixes that may name a change or a gradient, with the word the new name starts with
/// (`\mathrm{deltax}`: a name the spec and the reports can write back).
const PREFIXES: [(&str, &str); 2] = [("\\delta", "delta"), ("\\Delta", "Delta")];

/// The chapter's statements with every `δx` made one symbol, for each prefix the notes use so;
/// `None` where none is.
pub(super) fn changes_as_names(statements: &[(usize, &Statement)]) -> Option<Vec<(usize, Statement)>> {
    let named: Vec<(&str, &str)> = PREFIXES.into_iter().filter(|(key, _)| names_quantities(statements, key)).collect();
    if named.is_empty() {
        return None;
    }
    let rewritten = statements
        .iter()
        .map(|(index, statement)| {
            let mut statement = (*statement).clone();
            for chain in &mut statement.chains {
                for e in chain.exprs_mut() {
                    for (key, mark) in &named {
                        join_pairs(e, key, mark);
                    }
                }
            }
            (*index, statement)
        })
        .collect();
    Some(rewritten)
}

/// Does the chapter write `key` only before letters (never alone, never defined), before two
/// different letters at least, and one such pair alone on the left of an equation?
fn names_quantities(statements: &[(usize, &Statement)], key: &str) -> bool {
    let mut letters: BTreeMap<String, usize> = BTreeMap::new();
    let mut alone = false;
    let mut defined_pair = false;
    for (_, statement) in statements {
        for chain in &statement.chains {
            if let Some(first) = &chain.first {
                let defines = chain.links.first().is_some_and(|l| matches!(l.op, RelOp::Eq | RelOp::Define));
                defined_pair |= defines && pair_letter(first, key).is_some();
                alone |= defines && is_prefix(first, key);
            }
            for e in chain.exprs() {
                walk(e, key, &mut letters, &mut alone);
            }
        }
    }
    !alone && letters.len() >= 2 && defined_pair
}

/// Counts the letters `key` stands before in `e`, and notes a `key` standing anywhere else.
fn walk(e: &Expr, key: &str, letters: &mut BTreeMap<String, usize>, alone: &mut bool) {
    if let ExprKind::Binary { op: BinOp::Implicit, .. } = &e.kind {
        let factors = e.implicit_factors();
        let mut k = 0;
        while k < factors.len() {
            // (`J_{ij}\times \delta y_j` parses as (J_{ij}×δ)·y_j: the δ ends the factor before.)
            if let Some(held) = ends_with_prefix(factors[k], key) {
                if let Some(letter) = factors.get(k + 1).and_then(|next| letter_of(next)) {
                    *letters.entry(letter).or_default() += 1;
                    walk(held, key, letters, alone);
                    k += 2;
                    continue;
                }
            }
            if is_prefix(factors[k], key) {
                match factors.get(k + 1).and_then(|next| letter_of(next)) {
                    Some(letter) => {
                        *letters.entry(letter).or_default() += 1;
                        k += 2;
                        continue;
                    }
                    None => *alone = true,
                }
            } else {
                walk(factors[k], key, letters, alone);
            }
            k += 1;
        }
        return;
    }
    if is_prefix(e, key) {
        *alone = true;
    }
    e.children().for_each(|c| walk(c, key, letters, alone));
}

/// `J_{ij}\times\delta` (a product, ×, · or ⊙, whose right factor is the prefix): its left factor.
fn ends_with_prefix<'e>(e: &'e Expr, key: &str) -> Option<&'e Expr> {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Times | BinOp::Cdot | BinOp::Hadamard, lhs, rhs } if is_prefix(rhs, key) => {
            Some(lhs)
        }
        _ => None,
    }
}

/// `δx` (or `δy_i`) as a product of exactly the prefix and a letter: the letter.
fn pair_letter(e: &Expr, key: &str) -> Option<String> {
    let factors = e.implicit_factors();
    match factors.as_slice() {
        [prefix, letter] if is_prefix(prefix, key) => letter_of(letter),
        _ => None,
    }
}

fn is_prefix(e: &Expr, key: &str) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() && s.label.is_none())
        && e.symbol_key().as_deref() == Some(key)
}

/// A plain single letter, or one with a subscript (`x`, `y_i`): the letter.
fn letter_of(e: &Expr) -> Option<String> {
    let symbol = match &e.kind {
        ExprKind::Symbol(s) => s,
        ExprKind::Subscript { base, .. } => match &base.kind {
            ExprKind::Symbol(s) => s,
            _ => return None,
        },
        _ => return None,
    };
    let plain = symbol.accents.is_empty() && symbol.label.is_none() && symbol.name.chars().count() == 1;
    plain.then(|| symbol.name.clone())
}

/// Every product in `e` with its `key`-letter pairs made one symbol each.
fn join_pairs(e: &mut Expr, key: &str, mark: &str) {
    if let ExprKind::Binary { op: BinOp::Implicit, .. } = &e.kind {
        let factors: Vec<Expr> = e.implicit_factors().into_iter().cloned().collect();
        let mut out: Vec<Expr> = Vec::with_capacity(factors.len());
        let mut k = 0;
        let mut changed = false;
        while k < factors.len() {
            if let (true, Some(next)) = (is_prefix(&factors[k], key), factors.get(k + 1)) {
                if let Some(joined) = joined(&factors[k], next, mark) {
                    out.push(joined);
                    k += 2;
                    changed = true;
                    continue;
                }
            }
            // (`J_{ij}\times \delta y_j`, parsed (J_{ij}×δ)·y_j: J_{ij} × δy_j.)
            if let (ExprKind::Binary { op, lhs, rhs }, Some(next)) = (&factors[k].kind, factors.get(k + 1)) {
                if let Some(joined) = ends_with_prefix(&factors[k], key).and(joined(rhs, next, mark)) {
                    let span = Span::new(factors[k].span.start, next.span.end);
                    out.push(Expr::new(ExprKind::Binary { op: *op, lhs: lhs.clone(), rhs: Box::new(joined) }, span));
                    k += 2;
                    changed = true;
                    continue;
                }
            }
            out.push(factors[k].clone());
            k += 1;
        }
        if changed {
            let mut parts = out.into_iter();
            let first = parts.next().expect("a product has a factor");
            *e = parts.fold(first, |acc, next| {
                let span = Span::new(acc.span.start, next.span.end);
                Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(acc), rhs: Box::new(next) }, span)
            });
            // (The factors kept may hold pairs of their own: `\frac{\delta x}{2}\,\delta y`.)
            for child in e.children_mut() {
                join_pairs(child, key, mark);
            }
            return;
        }
    }
    for child in e.children_mut() {
        join_pairs(child, key, mark);
    }
}

/// The one symbol `δx` (or the member `δy_i` of the family δy) of a prefix and the letter after it.
fn joined(prefix: &Expr, letter: &Expr, mark: &str) -> Option<Expr> {
    let span = Span::new(prefix.span.start, letter.span.end);
    let named = |s: &Symbol, at: Span| {
        let name = format!("{mark}{}", s.name);
        Expr::new(ExprKind::Symbol(Symbol { name, ..s.clone() }), at)
    };
    match &letter.kind {
        ExprKind::Symbol(s) => Some(named(s, span)),
        ExprKind::Subscript { base, index } => match &base.kind {
            ExprKind::Symbol(s) => {
                let base = named(s, Span::new(prefix.span.start, base.span.end));
                Some(Expr::new(ExprKind::Subscript { base: Box::new(base), index: index.clone() }, span))
            }
            _ => None,
        },
        _ => None,
    }
}

/// The letters the chapter writes `key` before (for the tests).
#[cfg(test)]
fn named_letters(statements: &[(usize, &Statement)], key: &str) -> std::collections::BTreeSet<String> {
    let mut letters = BTreeMap::new();
    let mut alone = false;
    for (_, s) in statements {
        for e in s.chains.iter().flat_map(crate::syntax::ast::Chain::exprs) {
            walk(e, key, &mut letters, &mut alone);
        }
    }
    letters.into_keys().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    fn rewrite(formulas: &[&str]) -> Option<Vec<String>> {
        let parsed: Vec<Statement> = formulas.iter().map(|f| parse_formula(f).unwrap()).collect();
        let statements: Vec<(usize, &Statement)> = parsed.iter().enumerate().collect();
        let out = changes_as_names(&statements)?;
        Some(out.iter().map(|(_, s)| crate::syntax::print::statement(s)).collect())
    }

    #[test]
    fn a_delta_the_notes_set_on_the_left_names_a_quantity_per_letter() {
        let formulas = ["\\delta x = x - t", "\\delta w = 0", "\\frac{\\partial E}{\\partial x_i} = \\delta y_i y_i"];
        let out = rewrite(&formulas).expect("δ names quantities");
        assert!(out[0].contains("deltax"), "{out:?}");
        assert!(out[2].contains("deltay"), "{out:?}");
        let parsed: Vec<Statement> = formulas.iter().map(|f| parse_formula(f).unwrap()).collect();
        let statements: Vec<(usize, &Statement)> = parsed.iter().enumerate().collect();
        let want: std::collections::BTreeSet<String> = ["w", "x", "y"].into_iter().map(String::from).collect();
        assert_eq!(named_letters(&statements, "\\delta"), want);
    }

    #[test]
    fn a_delta_alone_defined_or_before_one_letter_names_nothing() {
        // Before one letter only: Δt may be Δ times t (the claim's readings settle it).
        assert!(rewrite(&["\\Delta t = 0.1", "f(t+\\Delta t) = f(t) + \\Delta t f'(t)"]).is_none());
        // Defined, or alone: a number.
        assert!(rewrite(&["\\delta = 0.5", "\\delta x = 1", "\\delta y = 2"]).is_none());
        // Never on the left of an equation: nothing names it.
        assert!(rewrite(&["a = \\delta x + \\delta y"]).is_none());
    }
}
