//! Indices nobody gives a value read as labels (`x_t`, `x_{t-1}`: terms of their own), a
//! claim's second look after the free range of `check/general.rs`: takes a claim and its scope,
//! gives a verification only.

use super::letters::{expr_mentions, recursion_cut};
use super::readings::Trial;
use crate::model::{Reason, Status, Verdict};
use crate::sema::{Claim, Scope};
use crate::syntax::ast::{Expr, ExprKind};

/// `x_t = f(x_{t-1})`, `\frac{\partial z_j}{\partial w_j} = x_j` where nothing gives t or j a
/// value: the claim checked again with the index `name` a label (and each other index found
/// without a value on the way, up to four): every term it subscripts on a letter with no meaning
/// of its own is an unknown of its own ([`crate::sema::scope::LetterUsage::labels`]). Holding for
/// independent unknowns, the claim holds whatever the terms are; so only a verification is kept,
/// listing the terms as `\forall\, x_{t}, x_{t-1}` among its assumptions. Tried after
/// [`with_free_range`], which reads an index over a range where it can.
pub(super) fn with_labels_general(scope: &Scope, claim: &Claim, name: &str, trial: &dyn Trial) -> Option<Verdict> {
    // (Not through a derivative by a labelled term: `\frac{\partial}{\partial x_i} \sum_j x_j^2`
    // with x_i apart from every x_j is 0, and the text means 2x_i. Independence holds for values,
    // not for derivatives.)
    // (Except by members of one label's steps, `\frac{\partial c_t}{\partial c_{t-1}}`, where no
    // sum binds an index: two steps t and t−1 are never one ([`recursion_cut`]).)
    let cut = recursion_cut(scope, claim, name);
    if scope.pinned || (differentiates_by_an_index(claim) && cut.is_none_or(|c| c == i64::MAX)) {
        return None;
    }
    let mut general = scope.clone();
    general.defs.extend(steps_as_definitions(scope, claim));
    let mut name = name.to_string();
    for _ in 0..4 {
        let written_as_index = in_a_subscript(&claim.lhs, &name) || in_a_subscript(&claim.rhs, &name);
        if !written_as_index || !general.usage.labels.insert(name.clone()) {
            return None;
        }
        // (A second label: x_i and x_j may be one term, so a derivative by either is not read.)
        let one_label = general.usage.labels.len() == 1;
        if !one_label && differentiates_by_an_index(claim) {
            return None;
        }
        general.usage.cut_older_than = cut.filter(|_| one_label);
        let again = trial.verdict_in(&general);
        match again.reason {
            Reason::UnboundIndex { name: next } if again.status != Status::Verified => name = next,
            _ if again.status == Status::Verified => {
                // The terms the labels make unknowns, or the labels themselves where they reach
                // such terms only through definitions (`b_i` of `b_i = a_i^2`).
                let mut terms = labelled_terms(&general, claim);
                if terms.is_empty() {
                    terms = general.usage.labels.iter().cloned().collect();
                }
                let mut assuming = again.assuming.clone();
                assuming.push(format!("\\forall\\, {}", terms.join(", ")));
                return Some(Verdict { assuming, ..again });
            }
            _ => return None,
        }
    }
    None
}

/// The recurrences in force where the claim stands (`c_t = f_t c_{t-1} + i_t\hat c_t`), each as
/// the definition of its members at every step, for a claim read with labels: there a member
/// met again inside its own definition at an older step is an unknown of its own
/// ([`crate::sema::scope::LetterUsage::cut_older_than`]), else it is no value (a cycle).
fn steps_as_definitions(scope: &Scope, claim: &Claim) -> Vec<(String, crate::sema::Definition)> {
    let recurrences = claim.reading.in_force.iter().filter(|r| !scope.defs.contains_key(&r.key));
    recurrences
        .map(|r| {
            let definition = crate::sema::Definition {
                key: r.key.clone(),
                params: vec![r.step.clone()],
                body: r.body.clone(),
                origin: r.written.clone(),
                from_notes: true,
                function: false,
                inherited: false,
                section_only: false,
            };
            (r.key.clone(), definition)
        })
        .collect()
}

/// Is `letter` written in a subscript of `e` (`x_t`, `x_{t-1}`)? Narrower than
/// [`with_free_range`]'s test, which takes a sum's letter and a matrix power's exponent too: a
/// label only ever names terms it subscripts.
fn in_a_subscript(e: &Expr, letter: &str) -> bool {
    let here = matches!(&e.kind, ExprKind::Subscript { index, .. } if expr_mentions(index, letter));
    here || e.children().any(|c| in_a_subscript(c, letter))
}

/// The terms of the claim a label of `scope` subscripts on a letter with no meaning of its own,
/// as TeX, each once, in order.
fn labelled_terms(scope: &Scope, claim: &Claim) -> Vec<String> {
    fn walk(scope: &Scope, e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let known = |key: Option<String>| key.is_some_and(|k| scope.knows(&k));
            let own_letter = base.symbol_key().is_some() && !known(base.symbol_key()) && !known(e.symbol_key());
            if own_letter && scope.usage.labels.iter().any(|l| expr_mentions(index, l)) {
                let tex = crate::syntax::print::explicit_tex(e, &|_| false);
                if !out.contains(&tex) {
                    out.push(tex);
                }
                return;
            }
        }
        e.children().for_each(|c| walk(scope, c, out));
    }
    let mut out = Vec::new();
    walk(scope, &claim.lhs, &mut out);
    walk(scope, &claim.rhs, &mut out);
    out
}

/// Does the claim differentiate by a term with an index (`\frac{\partial}{\partial x_i}`,
/// `\frac{\partial h_t}{\partial h_{t-1}}`)?
fn differentiates_by_an_index(claim: &Claim) -> bool {
    fn walk(e: &Expr) -> bool {
        let here = matches!(&e.kind, ExprKind::Derivative { wrt, .. } if has_subscript(wrt));
        here || e.children().any(walk)
    }
    fn has_subscript(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Subscript { .. }) || e.children().any(has_subscript)
    }
    walk(&claim.lhs) || walk(&claim.rhs)
}
