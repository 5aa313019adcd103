//! A claim's verdict after the readings the text allows: `check`'s side of the readings.
//!
//! Takes a claim's first verdict and its section's scope; runs the trials the readings module
//! ([`super::readings`]) asks for (the claim checked again in another scope) and the repair
//! search, and gives the verdict it decides. The trials are checks and nothing more: the claim
//! in a scope, with indices given a range, in a scope of its own (an orthogonal matrix both
//! ways); which scopes to try is the readings module's to say.

use super::letters::claim_scope;
use super::mutate;
use super::readings::{self, Trial};
use super::{check_claim, guarded};
use crate::model::{Reason, Status, Verdict};
use crate::sema::scope::IndexRange;
use crate::sema::Claim;
use crate::sema::{Decl, Scope};

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

    fn verdict_with_indices(
        &self,
        scope: &Scope,
        letters: &[String],
        range: &IndexRange,
        joins: &dyn Fn(&str) -> bool,
    ) -> (Verdict, Vec<String>) {
        checked_with_indices(scope, self.claim, letters, range, joins)
    }

    fn verdict_with_free_indices(&self, scope: &Scope) -> Verdict {
        super::general::with_free_indices(scope, self.claim, self.verdict_in(scope), self)
    }
}

/// A claim's verdict after the other readings of it the text allows
/// ([`readings::other_readings`]), with a refutation's repair ([`with_repair`]), where a
/// refutation stands only as an identity with a slip ([`readings::slip_or_constraint`]), and
/// where the evidence is about what the text means ([`readings::as_evidence`]).
pub(super) fn judged(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    let trial = Checks { claim };
    // `\cos 90` where the text turns by 90°, the angle in degrees; `\sum_i\sum_j A_{ij}x_ix_j =
    // x_1A_{11}x_1 + \ldots + x_2A_{22}x_2`, an illustration at n = 2: read so, to verify only.
    let verdict = match verdict.status {
        Status::Refuted if claim.holds => super::general::in_degrees(scope, claim)
            .or_else(|| super::general::at_the_size_written_out(scope, claim, &trial))
            .unwrap_or(verdict),
        _ => verdict,
    };
    // `solve this … to get $p_0 = 4.41$`: the equation at values printed rounded.
    let verdict = readings::of_solution(claim, super::solutions::within_rounding(scope, claim, verdict, &trial));
    let verdict = with_repair(scope, claim, readings::other_readings(scope, claim, verdict, &trial), terms);
    let verdict = readings::slip_or_constraint(scope, claim, verdict);
    let verdict = readings::as_evidence(scope, claim, verdict, &trial);
    // `\lambda_1 = \frac{1+\sqrt3 i}{2}` in notes on complex numbers: i the imaginary unit.
    let verdict = match readings::open_on_the_imaginary_unit(&verdict) {
        true => super::general::with_the_imaginary_unit(scope, claim, &trial).unwrap_or(verdict),
        false => verdict,
    };
    // `p(x)\frac{\partial p(x)}{\partial\theta}` with p a letter or a function of x alone, its
    // derivative 0, which the text does not mean: checked again with p a function nobody
    // specified, of θ too.
    match readings::open_to_an_unknown_function(&verdict) && claim.holds {
        true => super::general::with_probabilities_general(scope, claim, &|scope, claim, verdict| {
            super::general::with_free_indices(scope, claim, verdict, &Checks { claim })
        })
        .unwrap_or(verdict),
        false => verdict,
    }
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

/// A refuted claim with the smallest edit of it that derivcheck verifies, where the budget finds
/// one ([`mutate::repair`]).
pub(super) fn with_repair(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    // (A solution's claim is an equation written elsewhere: no edit of its formula repairs it.)
    if verdict.status != Status::Refuted
        || !claim.holds
        || verdict.suggestion.is_some()
        || claim.reading.solves.is_some()
    {
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
