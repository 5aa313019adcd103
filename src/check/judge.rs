//! A claim's verdict after the readings the text allows: `check`'s side of the readings.
//!
//! Takes a claim's first verdict and its section's scope; runs the trials the readings module
//! ([`super::readings`]) asks for (the claim checked again in another scope) and the repair
//! search, and gives the verdict it decides. Also the ways of checking a claim whose letters
//! the text leaves general: indices nobody bounded, letters defined further on, a claim's own
//! scope.

use super::letters::{claim_scope, expr_mentions, mentions};
use super::mutate;
use super::readings::{self, later_definitions, with_letters_general, Trial};
use super::{check_claim, guarded};
use crate::model::{Reason, Status, Verdict};
use crate::sema::scope::IndexRange;
use crate::sema::Claim;
use crate::sema::{Decl, Scope};
use crate::syntax::ast::{Expr, ExprKind};

/// The claim checked again, guarded: how the readings module tries a reading.
pub(super) struct Checks<'c> {
    pub(super) claim: &'c Claim,
}

impl Trial for Checks<'_> {
    fn verdict_in(&self, scope: &Scope) -> Verdict {
        guarded(|| check_claim(scope, self.claim, None, None))
    }

    fn own_verdict_in(&self, scope: &Scope) -> Verdict {
        guarded(|| check_own_claim(scope, self.claim))
    }

    fn refuted_with_sizes_tied(&self, scope: &Scope) -> bool {
        refuted_with_sizes_equal(scope, self.claim)
    }
}

/// A claim's verdict after the other readings of it the text allows
/// ([`readings::other_readings`]), with a refutation's repair ([`with_repair`]), where a
/// refutation stands only as an identity with a slip ([`readings::slip_or_constraint`]), and
/// where the evidence is about what the text means ([`readings::as_evidence`]).
pub(super) fn judged(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    let trial = Checks { claim };
    let verdict = with_repair(scope, claim, readings::other_readings(scope, claim, verdict, &trial), terms);
    let verdict = readings::slip_or_constraint(scope, claim, verdict);
    readings::as_evidence(scope, claim, verdict)
}

/// How many values an index the notes give no range is tried at (`\sum_i p_i \log p_i`: i = 1..N
/// for N = 1..4).
pub(super) const FREE_RANGE_SIZES: [i64; 4] = [1, 2, 3, 4];

/// `\sum_i p_i(-\log p_i) = -\sum_i p_i\log p_i` where nothing gives i a range: the claim
/// checked again with every such index of it (`name`, and the sums' letters whose range no shape
/// gives) running over 1..N, for each N of [`FREE_RANGE_SIZES`]. Only a verification is kept
/// (what the range is remains the notes' to say), listing `i = 1, …, N` among its assumptions.
/// Tried first: an index that indexes a vector or matrix runs over its entries, as a sum's
/// letter does ([`with_ranges_read_off`]).
pub(super) fn with_free_range(scope: &Scope, claim: &Claim, name: &str) -> Option<Verdict> {
    // (Written as an index: in a subscript, or a sum's letter; `A=a` names an event's value.)
    fn indexes_with(e: &Expr, letter: &str) -> bool {
        let here = match &e.kind {
            ExprKind::Subscript { index, .. } => expr_mentions(index, letter),
            ExprKind::BigOp { lower: Some(lower), .. } => expr_mentions(lower, letter),
            _ => false,
        };
        here || e.children().any(|c| indexes_with(c, letter))
    }
    let index_letter = |k: &str| {
        k.chars().count() == 1
            && k.chars().all(|c| c.is_ascii_lowercase())
            && !scope.sizes.contains_key(k)
            && !scope.defs.contains_key(k)
            && (indexes_with(&claim.lhs, k) || indexes_with(&claim.rhs, k))
    };
    if scope.pinned || !index_letter(name) {
        return None;
    }
    // `(\mathbf A\mathbf B)_{ik} = \sum_j a_{ij}b_{jk}`: first over what the index indexes, as a
    // sum's letter runs (k over the columns of B), for every value there; then at sizes 1..N.
    if let Some(verdict) = with_ranges_read_off(scope, claim, name, &index_letter) {
        return Some(verdict);
    }
    let size = ["N", "N_{0}", "N_{1}"].into_iter().find(|n| !scope.sizes.contains_key(*n) && !mentions(claim, n))?;
    let mut free = scope.clone();
    free.sizes.insert(size.to_string(), FREE_RANGE_SIZES.to_vec());
    let mut letters = vec![name.to_string()];
    for (key, decl) in &scope.decls {
        if matches!(decl, Decl::Index { range: IndexRange::Auto }) && key != name && mentions(claim, key) {
            letters.push(key.clone());
        }
    }
    let range = IndexRange::Size(size.to_string());
    let (again, letters) = checked_with_indices(&free, claim, &letters, &range, &index_letter);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.extend(letters.iter().map(|l| format!("{l} = 1, \\ldots, {size}")));
        Verdict { assuming, ..again }
    })
}

/// `claim` checked in `scope` with the index `letters` given `range`, and each index found
/// without a value on the way that `joins` admits (`c_{ij} = \sum_k …`: k, then i, then j; four
/// at most): the last verdict, and the letters given the range.
pub(super) fn checked_with_indices(
    scope: &Scope,
    claim: &Claim,
    letters: &[String],
    range: &IndexRange,
    joins: &dyn Fn(&str) -> bool,
) -> (Verdict, Vec<String>) {
    let (mut free, mut letters) = (scope.clone(), letters.to_vec());
    let mut joined = 0;
    loop {
        for letter in &letters {
            free.decls.insert(letter.clone(), Decl::Index { range: range.clone() });
        }
        let again = guarded(|| check_claim(&free, claim, None, None));
        match &again.reason {
            Reason::UnboundIndex { name } if joins(name) && !letters.contains(name) && joined < 4 => {
                letters.push(name.clone());
                joined += 1;
            }
            _ => return (again, letters),
        }
    }
}

/// Is the claim refuted with every size of the scope one number (2, then 3)? A refutation that
/// needs two sizes apart, one of them named for a shape read off use, may be one of reading.
/// (A free index found without a value runs over what it indexes, as where the claim was
/// refuted: [`with_ranges_read_off`].)
pub(super) fn refuted_with_sizes_equal(scope: &Scope, claim: &Claim) -> bool {
    [2, 3].into_iter().any(|n| {
        let mut tied = scope.clone();
        tied.sizes.values_mut().for_each(|values| *values = vec![n]);
        let unknown = |name: &str| !tied.decls.contains_key(name) && !tied.sizes.contains_key(name);
        checked_with_indices(&tied, claim, &[], &IndexRange::Auto, &unknown).0.status == Status::Refuted
    })
}

/// The claim checked again with `name` (and each index found without a value after it) ranging
/// over the entries it indexes, read off the shapes as for a sum's letter; the verification only.
pub(super) fn with_ranges_read_off(
    scope: &Scope,
    claim: &Claim,
    name: &str,
    index_letter: &dyn Fn(&str) -> bool,
) -> Option<Verdict> {
    // (Only an index of something with a shape can take its range from it: `q_i` of a family
    // of vectors cannot, and the claim is not checked again for nothing.)
    fn indexes_a_shape(scope: &Scope, e: &Expr, name: &str) -> bool {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let shaped = match base.symbol_key() {
                Some(key) => {
                    matches!(scope.decls.get(&key), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
                        || (scope.defs.contains_key(&key) && scope.usage.matrix_like.contains(&key))
                }
                None => matches!(base.kind, ExprKind::Fenced { .. }),
            };
            if shaped && expr_mentions(index, name) {
                return true;
            }
        }
        e.children().any(|c| indexes_a_shape(scope, c, name))
    }
    if !indexes_a_shape(scope, &claim.lhs, name) && !indexes_a_shape(scope, &claim.rhs, name) {
        return None;
    }
    // (Only a verification: `c_{ij} = \sum_k a_{ik}b_{kj}` with c written nowhere else is false
    // for free leaves c_{ij}, and says nothing wrong.)
    let (again, _) = checked_with_indices(scope, claim, &[name.to_string()], &IndexRange::Auto, index_letter);
    (again.status == Status::Verified).then_some(again)
}

/// A refuted claim with the smallest edit of it that derivcheck verifies, where the budget finds
/// one ([`mutate::repair`]).
pub(super) fn with_repair(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    if verdict.status != Status::Refuted || !claim.holds || verdict.suggestion.is_some() {
        return verdict;
    }
    let own = claim_scope(scope, claim);
    let suggestion = mutate::repair(own.as_ref().unwrap_or(scope), claim, &verdict, terms);
    Verdict { suggestion, ..verdict }
}

/// A claim in a scope of its own: where the words call a letter an orthogonal matrix, it must
/// hold for those of determinant 1 and −1 alike, so a verdict for the first is checked again
/// with the second (a refutation by either is a real orthogonal counterexample).
pub(super) fn check_own_claim(own: &Scope, claim: &Claim) -> Verdict {
    use crate::sema::MatrixClass;
    let verdict = check_claim(own, claim, None, None);
    let orthogonal: Vec<&String> =
        own.classes.iter().filter(|(_, class)| **class == MatrixClass::Orthogonal).map(|(k, _)| k).collect();
    if orthogonal.is_empty() || verdict.status != Status::Verified {
        return verdict;
    }
    let mut reflecting = own.clone();
    for key in orthogonal {
        reflecting.classes.insert(key.clone(), MatrixClass::OrthogonalReflecting);
    }
    let again = check_claim(&reflecting, claim, None, None);
    if again.status == Status::Verified {
        verdict
    } else {
        again
    }
}

/// A claim written before the definitions of some of its letters (`f(x+\epsilon) = f(x) +
/// \epsilon f'(x) + \mathcal O(\epsilon^2)`, then `choose $\epsilon = -\eta f'(x)$` and
/// `$f(x)=x^2$` further on) may speak of any such letters. Verified when it holds with those
/// letters general — a function nobody specified, a free number — which implies it holds for
/// what they are given later; `None` otherwise (a refutation is weighed in [`readings::other_readings`]).
/// `own` is the claim's scope where it has one ([`claim_scope`]).
pub(super) fn with_later_letters_general(scope: &Scope, own: Option<&Scope>, claim: &Claim) -> Option<Verdict> {
    let later = later_definitions(scope, claim, true);
    if later.is_empty() {
        return None;
    }
    let again = guarded(|| check_own_claim(&with_letters_general(own.unwrap_or(scope), &later), claim));
    (again.status == Status::Verified).then_some(again)
}
