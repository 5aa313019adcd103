//! Identity or constraint: what a refuted claim's letters and repair say of it. The
//! recognisers `readings::slip_or_constraint` asks (it decides the readings; nothing here
//! names one): a side's letters nobody defined, a repair that is a slip, e raised to a sum's
//! index, a superscript that labels.
//!
//! An identity rewrites what one side says of its letters on the other side: `(a+b)^2 =
//! a^2+2ab+b^2` speaks of a and b on both. An equation whose sides bring letters of their own
//! that the text never defines — `Ax = b`, `\psi^* P = \psi^*`, `q^s = q^d`, `P^k\mathbf 1 =
//! \mathbf 1`, `\frac{\partial E}{\partial x_i} = x_i - t_i` with E given no formula — relates
//! those letters: it holds for the values that satisfy it (an equation to solve, a condition,
//! a property the words state: stationary, stochastic, an eigenvector). False for general
//! values says nothing there. The one evidence of a slip that the tool has is a near miss: a
//! single small edit (a sign, a factor, an exponent, a transpose, an index, a bound) that makes
//! the claim verify. So a refutation stands where one side's free letters are among the other's
//! (a slip that drops a term or a factor leaves them so), or where such a repair exists;
//! otherwise — each side with a letter of its own — it is undecided, naming those letters.
//! (Measured on ../shared/published and ../shared/published2: the guide, `docs/guide/src/refuted.md`.)

use crate::model::{EditKind, Suggestion};
use crate::sema::{Claim, Decl, Scope};
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use std::collections::BTreeSet;

/// A repair by one small edit of the kind a slip makes (not a term, factor or argument brought
/// in from elsewhere, nor the other side replaced by what the CAS computed).
pub(super) fn is_slip(suggestion: &Suggestion) -> bool {
    matches!(suggestion.edits.as_slice(), [kind] if !matches!(kind, EditKind::AddTerm | EditKind::InsertFactor | EditKind::Argument))
}

/// The letters nobody defined that one side writes and the other does not, sorted.
#[cfg(test)]
fn letters_on_one_side(scope: &Scope, lhs: &Expr, rhs: &Expr) -> Vec<String> {
    let (left, right) = (free_letters(scope, lhs), free_letters(scope, rhs));
    left.symmetric_difference(&right).cloned().collect()
}

/// [`free_letters`] of both sides of the claim.
pub(super) fn free_letters_of_claim(scope: &Scope, claim: &crate::sema::Claim) -> BTreeSet<String> {
    let mut letters = free_letters(scope, &claim.lhs);
    letters.extend(free_letters(scope, &claim.rhs));
    letters
}

/// The letters a side speaks of that the text gives no formula or value (a subscript's base
/// and the letters of its index): through definitions to the letters of their bodies; without
/// the letters a sum or product binds, the constants e and π, declared index letters, sets and
/// declared functions.
pub(super) fn free_letters(scope: &Scope, e: &Expr) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut seen = BTreeSet::new();
    walk(scope, e, &mut seen, &mut out);
    out
}

fn walk(scope: &Scope, e: &Expr, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Symbol(_) | ExprKind::Subscript { .. }
            if e.symbol_key().is_some_and(|k| scope.defs.contains_key(&k)) =>
        {
            let key = e.symbol_key().unwrap_or_default();
            if seen.insert(key.clone()) {
                if let Some(def) = scope.defs.get(&key) {
                    let mut inner = BTreeSet::new();
                    walk(scope, &def.body, seen, &mut inner);
                    out.extend(inner.into_iter().filter(|l| !def.params.contains(l)));
                }
            }
        }
        ExprKind::Symbol(s) => {
            let key = s.key();
            // (`\mathbf 1` is the vector of ones; a size `m`, `n` ranges over the sizes checked.)
            let constant = matches!(key.as_str(), "e" | "\\pi" | "\\infty")
                || s.name.chars().all(|c| c.is_ascii_digit())
                || is_size(scope, &key);
            let declared = matches!(
                scope.decls.get(&key),
                Some(Decl::Index { .. } | Decl::Set { .. } | Decl::Function(_) | Decl::Identity { .. })
            );
            if !constant && !declared {
                out.insert(key);
            }
        }
        // (A letter's index is one of its letters; the subscript of a norm or of a bracket,
        // `\|\mathbf O\|_F`, is a label.)
        ExprKind::Subscript { base, index } => {
            walk(scope, base, seen, out);
            if base.symbol_key().is_some() {
                walk(scope, index, seen, out);
            }
        }
        ExprKind::BigOp { lower, upper, body, .. } => {
            let mut bound = BTreeSet::new();
            if let Some(lower) = lower {
                if let ExprKind::Relation { chain } = &lower.kind {
                    if let Some(first) = &chain.first {
                        walk(scope, first, &mut BTreeSet::new(), &mut bound);
                    }
                    for link in &chain.links {
                        walk(scope, &link.rhs, seen, out);
                    }
                } else {
                    walk(scope, lower, &mut BTreeSet::new(), &mut bound);
                }
            }
            if let Some(upper) = upper {
                walk(scope, upper, seen, out);
            }
            if let Some(body) = body {
                let mut inner = BTreeSet::new();
                walk(scope, body, seen, &mut inner);
                out.extend(inner.into_iter().filter(|l| !bound.contains(l)));
            }
        }
        ExprKind::Text { .. } | ExprKind::Number { .. } | ExprKind::Ellipsis | ExprKind::Empty => {}
        _ => e.children().for_each(|c| walk(scope, c, seen, out)),
    }
}

/// `q_0^s = -10 + 20p_0`: a side that is a letter raised to a superscript of letters nothing
/// defines (`s`, `l`, `l-1`), whose letter the other side never writes. Read as a label the
/// formula defines it; read as a power it is an equation in the exponent. The side, as written.
pub(super) fn superscript_label(scope: &Scope, claim: &Claim) -> Option<String> {
    let labelled = |side: &Expr, other: &Expr| -> Option<String> {
        let ExprKind::Power { base, exponent } = &side.kind else { return None };
        let letter = match &base.kind {
            ExprKind::Symbol(_) => base.symbol_key()?,
            ExprKind::Subscript { base: inner, .. } if matches!(inner.kind, ExprKind::Symbol(_)) => {
                inner.symbol_key()?
            }
            _ => return None,
        };
        if letter == "e" || scope.defs.contains_key(&letter) || scope.decls.contains_key(&letter) {
            return None;
        }
        let exponent_letters = free_letters(scope, exponent);
        let only_letters = !exponent_letters.is_empty()
            && exponent_letters.iter().all(|l| !is_size(scope, l) && !scope.defs.contains_key(l))
            && label_like(exponent);
        let mut written = BTreeSet::new();
        letters_written(other, &mut written);
        (only_letters && !written.contains(&letter)).then(|| crate::syntax::print::explicit_tex(side, &|_| false))
    };
    labelled(&claim.lhs, &claim.rhs).or_else(|| labelled(&claim.rhs, &claim.lhs))
}

/// `\sum_{n=1}^N e^n`: e raised to the letter a sum (or product) runs over, as written.
pub(super) fn euler_indexed(e: &Expr) -> Option<String> {
    fn powers_of_e(e: &Expr, index: &str) -> bool {
        matches!(&e.kind, ExprKind::Power { base, exponent }
            if base.symbol_key().as_deref() == Some("e") && exponent.symbol_key().as_deref() == Some(index))
            || e.children().any(|c| powers_of_e(c, index))
    }
    if let ExprKind::BigOp { lower: Some(lower), body: Some(body), .. } = &e.kind {
        let index = match &lower.kind {
            ExprKind::Relation { chain } => chain.first.as_ref().and_then(Expr::symbol_key),
            _ => lower.symbol_key(),
        };
        if let Some(index) = index.filter(|i| powers_of_e(body, i)) {
            return Some(format!("e^{{{index}}}"));
        }
    }
    e.children().find_map(euler_indexed)
}

/// A superscript made of single letters, numbers and `+`/`-` only (`s`, `l`, `l-1`, `[l]`).
fn label_like(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => s.accents.is_empty(),
        ExprKind::Number { .. } => true,
        ExprKind::Binary { op: crate::syntax::ast::BinOp::Add | crate::syntax::ast::BinOp::Sub, lhs, rhs } => {
            label_like(lhs) && label_like(rhs)
        }
        ExprKind::Fenced { inner: Some(inner), .. } => label_like(inner),
        _ => false,
    }
}

/// Every letter a side writes, defined or not (the base letters of subscripts and powers too).
/// (A letter right after Δ or δ in a product, `n\,\Delta t`, is the change Δt, one quantity: it
/// does not write t.)
fn letters_written(e: &Expr, out: &mut BTreeSet<String>) {
    if matches!(e.kind, ExprKind::Binary { op: BinOp::Implicit, .. }) {
        let factors = e.implicit_factors();
        for (k, factor) in factors.iter().enumerate() {
            let after_change = k > 0 && factors[k - 1].is_change_sign() && matches!(factor.kind, ExprKind::Symbol(_));
            if !after_change {
                letters_written(factor, out);
            }
        }
        return;
    }
    if let ExprKind::Symbol(s) = &e.kind {
        out.insert(s.key());
    }
    e.children().for_each(|c| letters_written(c, out));
}

/// A letter the scope uses as a size: given sizes, or a dimension of a declared shape.
fn is_size(scope: &Scope, key: &str) -> bool {
    scope.sizes.contains_key(key)
        || scope.decls.values().any(|d| match d {
            Decl::Matrix { rows, cols } | Decl::Family { rows, cols } => rows == key || cols == key,
            Decl::Identity { n } => n == key,
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side(tex: &str) -> Expr {
        let statement = crate::syntax::parse_formula(tex).expect("parses");
        statement.chains.into_iter().next().and_then(|c| c.first).expect("a side")
    }

    fn alone(scope: &Scope, lhs: &str, rhs: &str) -> Vec<String> {
        letters_on_one_side(scope, &side(lhs), &side(rhs))
    }

    #[test]
    fn an_identity_speaks_of_the_same_letters_on_both_sides() {
        let scope = Scope::default();
        assert!(alone(&scope, "(a+b)^2", "a^2+b^2").is_empty());
        assert!(alone(&scope, r"\sum_{i=1}^n x_i", r"x_1 + \cdots + x_n").is_empty());
        assert!(alone(&scope, r"\sum_{k=1}^n k", r"\frac{n(n+1)}{2}").is_empty());
        assert!(alone(&scope, r"e^{\ln x}", "x").is_empty());
    }

    #[test]
    fn a_constraint_brings_letters_of_its_own() {
        let scope = Scope::default();
        assert_eq!(alone(&scope, "Ax", "b"), ["A", "b", "x"]);
        assert_eq!(alone(&scope, r"\psi P", r"\psi"), ["P"]);
        assert_eq!(alone(&scope, r"\frac{\partial E}{\partial x_i}", r"x_i - t_i"), ["E", "t"]);
    }
}
