//! The readings of a claim: every way the text allows of reading a formula other than "an
//! identity for every value of its letters", decided here and nowhere else, in the order they
//! are tried ([`TRIED`], which `derivcheck notation` prints).
//!
//! Takes a claim as `sema` read it (its scope, and the facts the words give: [`WordsReading`],
//! the conditions stated, the letters named) and what a check found (the first verdict, a
//! probability check's outcome); gives the verdict under the readings the text allows: a
//! refutation stands only if every plausible reading refutes it, a verification through a
//! reading the text does not settle is undecided, naming it. Where a reading needs the claim
//! checked again (in a scope that reads a letter otherwise), it asks the [`Trial`] `check`
//! gives it: this module decides which readings there are and what follows from them; `check`
//! evaluates. The recognisers it asks (a letter applied, a superscript that labels, shapes read
//! off use) live in `letters` and `constraint`, and name no reading.
//!
//! Before them, `general` verifies for any value of what the text leaves open (an index nobody
//! bounded tried at small ranges, a label, letters defined only further on made general): what
//! holds for free symbols holds for the meant ones, and the verdict says what was assumed.
//!
//! Phases, in order ([`Phase`]): the words around the formula (before it is checked), the
//! check of claims about random variables, a counterexample (the readings of the claim's
//! letters, then, after the repair search, a slip or an equation), and a verdict as evidence;
//! last, the claims of one chain together.

use super::constraint::{euler_indexed, free_letters, free_letters_of_claim, is_slip, superscript_label};
use super::letters::{
    applied_letters, applied_past_its_arguments, as_a_vector_of_its_entries, as_the_function_named, bare_with_entries,
    chain_of_unknown_letters, claim_scope, derivative_by_an_entry, derivative_of_a_free_letter, expr_mentions,
    general_function_arguments, inverse_applied, later_definitions, letters_reached, log_of_zero, make_square,
    marked_letter_applied, mentions, operator_letter, order_of_magnitude, power_or_index, shape_not_fixed,
    shapes_from_use, sums_to_one, truncated_digits, tuple_without_orientation, unknown_function_property,
    with_letters_general, within_printed_rounding, written_entries_scope,
};
use super::series::worked_out_verdict;
use crate::model::{Method, Reading, Reason, Status, Verdict};
use crate::numeric::probability::{Family, Outcome};
use crate::sema::scope::{IndexRange, SecondLook};
use crate::sema::{Claim, Decl, Definition, Scope, WordsReading, WordsRole};
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use std::collections::{BTreeMap, BTreeSet};

/// How a reading is tried where it needs the claim checked again: `check` gives it.
pub(super) trait Trial {
    /// The claim's verdict in `scope` (a scope that reads some letter otherwise).
    fn verdict_in(&self, scope: &Scope) -> Verdict;
    /// As [`Trial::verdict_in`], for a claim in a scope of its own (an orthogonal matrix the
    /// words name is tried with determinant 1 and −1).
    fn own_verdict_in(&self, scope: &Scope) -> Verdict;
    /// Is the claim refuted in `scope` with all its sizes one number (2, then 3)?
    fn refuted_with_sizes_tied(&self, scope: &Scope) -> bool;
    /// The claim's verdict in `scope` with the index `letters` given `range`, and each index
    /// found without a value on the way that `joins` admits; with the letters given the range.
    fn verdict_with_indices(
        &self,
        scope: &Scope,
        letters: &[String],
        range: &IndexRange,
        joins: &dyn Fn(&str) -> bool,
    ) -> (Verdict, Vec<String>);
    /// As [`Trial::verdict_in`], an index found without a value then run over small ranges or
    /// read as a label, as the claim's first check does (a verification only).
    fn verdict_with_free_indices(&self, scope: &Scope) -> Verdict {
        self.verdict_in(scope)
    }
}

/// When a reading is tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// From the words around the formula, before it is checked (`sema` records them).
    Words,
    /// In the check of a claim about random variables, where it fails for a general joint
    /// distribution.
    Probability,
    /// After a counterexample, from what the section says of the claim's letters: the
    /// refutation stands only if this reading refutes the claim too.
    Letters,
    /// After a counterexample and the repair search: an identity with a slip, or an equation?
    Slip,
    /// After a verdict (a verification, or a refutation past the phases before): is the evidence
    /// about what the text means?
    Evidence,
}

impl Phase {
    /// What the catalogue says of the phase.
    pub fn describe(self) -> &'static str {
        match self {
            Phase::Words => "from the words around the formula, before it is checked",
            Phase::Probability => "in the check of claims about random variables",
            Phase::Letters => "after a counterexample: refuted only if this reading refutes it too",
            Phase::Slip => "after a counterexample: an identity with a slip, or an equation?",
            Phase::Evidence => "after a verdict: a verification (or refutation) through it is no evidence",
        }
    }
}

/// Every reading, in the order it is first tried, with its phase: the catalogue `derivcheck
/// notation` prints. (A reading tried in two places is listed where it is tried first: a
/// `consequence` also follows a constraint in the same chain, an `entry_of` a derivative by
/// an entry, a `defined_later` a shape that does not fit.)
pub const TRIED: [(Reading, Phase); 51] = [
    (Reading::Condition, Phase::Words),
    (Reading::Update, Phase::Words),
    (Reading::Consequence, Phase::Words),
    (Reading::Substitutes, Phase::Words),
    (Reading::Redefinition, Phase::Words),
    (Reading::SelfReferent, Phase::Words),
    (Reading::RecurrenceNotRead, Phase::Words),
    (Reading::Approximated, Phase::Words),
    (Reading::RandomOrConstant, Phase::Probability),
    (Reading::Independent, Phase::Probability),
    (Reading::IndependentIdentical, Phase::Probability),
    (Reading::ZeroOne, Phase::Probability),
    (Reading::EqualVariables, Phase::Probability),
    (Reading::MutuallyExclusive, Phase::Probability),
    (Reading::MomentLetter, Phase::Probability),
    (Reading::DistributionValue, Phase::Probability),
    (Reading::ClassValues, Phase::Probability),
    (Reading::IndexedValues, Phase::Probability),
    (Reading::SolvedInPart, Phase::Letters),
    (Reading::OrderOfMagnitude, Phase::Letters),
    (Reading::DefinedLater, Phase::Letters),
    (Reading::ShapeFromUse, Phase::Letters),
    (Reading::MatrixKind, Phase::Letters),
    (Reading::EntryOf, Phase::Letters),
    (Reading::UnknownDerivative, Phase::Letters),
    (Reading::PowerOrIndex, Phase::Letters),
    (Reading::ApplicationOrProduct, Phase::Letters),
    (Reading::InverseOrPower, Phase::Letters),
    (Reading::OperatorOrProduct, Phase::Letters),
    (Reading::FunctionProperty, Phase::Letters),
    (Reading::EarlierCondition, Phase::Letters),
    (Reading::ConditionUnused, Phase::Letters),
    (Reading::LettersFromWords, Phase::Letters),
    (Reading::SumsToOne, Phase::Letters),
    (Reading::Symmetric, Phase::Letters),
    (Reading::Diagonal, Phase::Letters),
    (Reading::Orthogonal, Phase::Letters),
    (Reading::EarlierMeaning, Phase::Letters),
    (Reading::DeclaredElsewhere, Phase::Letters),
    (Reading::DefinedAndDeclared, Phase::Letters),
    (Reading::FamilyOfOneValue, Phase::Letters),
    (Reading::EulerOrLetter, Phase::Slip),
    (Reading::ImaginaryOrLetter, Phase::Slip),
    (Reading::MatrixForDeterminant, Phase::Slip),
    (Reading::SuperscriptLabel, Phase::Slip),
    (Reading::Constraint, Phase::Slip),
    (Reading::HoldsThroughLater, Phase::Evidence),
    (Reading::ChangeOrProduct, Phase::Evidence),
    (Reading::Convention, Phase::Evidence),
    (Reading::Hypothesis, Phase::Evidence),
    (Reading::SupposedInWords, Phase::Evidence),
];

// ---- Phase: words -------------------------------------------------------------------------

/// The reading the words around a formula make of it ([`WordsReading`], recorded by `sema`).
pub(super) fn of_words(role: WordsRole) -> Reading {
    match role {
        WordsRole::Condition => Reading::Condition,
        WordsRole::Update => Reading::Update,
        WordsRole::Consequence => Reading::Consequence,
        WordsRole::Substitutes => Reading::Substitutes,
        WordsRole::Redefinition => Reading::Redefinition,
        WordsRole::SelfReferent => Reading::SelfReferent,
        WordsRole::RecurrenceNotRead => Reading::RecurrenceNotRead,
        WordsRole::Approximated => Reading::Approximated,
    }
}

/// The words' reading of the claim, where they make one.
fn words_reading(claim: &Claim) -> Option<(&WordsReading, Reading)> {
    claim.reading.alternative.as_ref().map(|words| (words, of_words(words.role)))
}

// ---- Phase: probability -------------------------------------------------------------------

/// What a claim about probabilities that fails for a general joint distribution is.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum ProbabilityReading {
    /// Undecided under this reading, naming the letters.
    Other(Reading, Option<String>),
    /// The words state the independence (or other family) under which it holds: verified so.
    Stated(Family),
    /// Refuted: no reading the text allows makes it hold.
    Stands,
}

/// The reading of a claim about probabilities `failed` ([`Outcome::Fails`]), in order: a small
/// letter random or constant; a family of distributions (stated by the words: verified; else
/// undecided); `\mu_X`, `\sigma_X` nobody defined as the moments of X (`moment_letter`: the
/// letter, where the claim holds so); one side a value of a distribution; `C_1`, `C_2` as the
/// classes of one variable (`class_letters`: the letters, where it holds so).
pub(super) fn of_probability_failure(
    claim: &Claim,
    failed: &Outcome,
    moment_letter: &dyn Fn() -> Option<String>,
    class_letters: &dyn Fn() -> Option<String>,
) -> ProbabilityReading {
    let Outcome::Fails { random_letter, holds_when, variables, specifies, unions, indexed_values, .. } = failed else {
        return ProbabilityReading::Stands;
    };
    if let Some(letter) = random_letter {
        return ProbabilityReading::Other(Reading::RandomOrConstant, Some(letter.clone()));
    }
    // `P(A \cup B) = P(A) + P(B)`: true for mutually exclusive events, which are not drawn.
    if *unions && holds_when.is_none() {
        return ProbabilityReading::Other(Reading::MutuallyExclusive, Some(variables.join(", ")));
    }
    if let Some(family) = *holds_when {
        if family.covered_by(claim.reading.independence) && variables.len() > 1 {
            return ProbabilityReading::Stated(family);
        }
        let reading = match family {
            Family::Independent => Reading::Independent,
            Family::IndependentIdentical => Reading::IndependentIdentical,
            Family::ZeroOne => Reading::ZeroOne,
            Family::Equal => Reading::EqualVariables,
        };
        return ProbabilityReading::Other(reading, Some(variables.join(", ")));
    }
    // `E[(X-\mu_X)^2] = E[X^2]-\mu_X^2` where the notes never define μ_X: a constant to
    // derivcheck, the mean of X to every probability text. Refuted only if it fails read so too.
    if let Some(letter) = moment_letter() {
        return ProbabilityReading::Other(Reading::MomentLetter, Some(letter));
    }
    if *specifies {
        return ProbabilityReading::Other(Reading::DistributionValue, None);
    }
    // `P(C_1|x) = \frac{P(C_1)P(x|C_1)}{P(C_1)P(x|C_1)+P(C_2)P(x|C_2)}`: C_1, C_2 are two
    // events as derivcheck reads them, and the classes C = 1, C = 2 of one variable to the
    // text (Bayes' rule over the classes). Refuted only if it fails read so too.
    if let Some(letters) = class_letters() {
        return ProbabilityReading::Other(Reading::ClassValues, Some(letters));
    }
    // `P(x_3 \mid x_1) = …` read with X_1, X_3 variables of their own, where the text may
    // mean values of one variable X: what fails so is not refuted.
    if *indexed_values {
        let indexed: Vec<String> = variables
            .iter()
            .filter(|v| v.contains('_'))
            .map(|v| format!("{}{} of {v}", v[..1].to_ascii_lowercase(), &v[1..]))
            .collect();
        return ProbabilityReading::Other(Reading::IndexedValues, Some(indexed.join(", ")));
    }
    ProbabilityReading::Stands
}

// ---- Phase: letters (after a counterexample) ------------------------------------------------

/// A refutation stands only if every plausible reading of the claim refutes it:
/// - the words make it a condition, or a new meaning of a letter (the claim's alternative);
/// - a letter an earlier section defined may be a fresh one here (unless the spec pins the
///   section): checked again with those letters fresh;
/// - it may fail only where a variable is negative or zero: checked again with every variable
///   positive.
///
/// Otherwise the claim is undecided, naming the reading (a counterexample is kept).
pub(super) fn other_readings(scope: &Scope, claim: &Claim, verdict: Verdict, trial: &dyn Trial) -> Verdict {
    // An equation the words say is to be solved (`solve Av = λv`) claims nothing whatever kept it
    // from a verdict: it is a condition, not an unread claim.
    let condition = words_reading(claim).filter(|(_, reading)| *reading == Reading::Condition);
    if let (Some((_, reading)), Status::Undecided, true) = (condition, verdict.status, claim.holds) {
        let reason = Reason::OtherReading { reading, symbol: None, earlier: None, refuted: false };
        return undecided(reason, &verdict);
    }
    if verdict.status != Status::Refuted || !claim.holds {
        return verdict;
    }
    // `2 \cdot 10^9 \cdot 16 \cdot 32 = 10^{12}`: an order of magnitude written with `=`.
    if let Some((power, sides)) = (!claim.reading.marked).then(|| order_of_magnitude(claim, &verdict)).flatten() {
        let reason = Reason::OtherReading {
            reading: Reading::OrderOfMagnitude,
            symbol: Some(power),
            earlier: Some(sides),
            refuted: true,
        };
        return Verdict { status: Status::Undecided, reason, ..verdict };
    }
    // `\frac12(0.01-0.75136507)^2 = 0.274811083` (0.2748110835…): digits cut, not rounded;
    // `… = 1712304 \cdot 9.765625 \cdot 10^{-4} \cdot 4.24262 \cdot 10^{-6}`: decimals printed
    // rounded, within what their rounding allows.
    if let Some(printed) = truncated_digits(claim, &verdict).or_else(|| within_printed_rounding(claim, &verdict)) {
        let mut assuming = verdict.assuming.clone();
        assuming.push(printed);
        let reason = Reason::Checked { assignments: 1, rounded: true };
        return Verdict {
            status: Status::Verified,
            reason,
            counterexample: None,
            suggestion: None,
            assuming,
            ..verdict
        };
    }
    // A number worked out from the probabilities the text gives is a computation, not an
    // identity or an equation to solve: its refutation stands whatever the words around it.
    if worked_out_verdict(scope, claim).is_some() {
        return verdict;
    }
    if let Some(read) = shape_reading(scope, claim, &verdict, trial) {
        return read;
    }
    if let Some((words, reading)) = words_reading(claim) {
        return undecided(other_reading(reading, words.symbol.clone(), words.earlier.clone()), &verdict);
    }
    // `假设随机矩阵$A$ … $A^T\mathbf 1 = \mathbf 1$`: a kind of matrix the words name and
    // derivcheck does not construct.
    // (`the orthonormal basis $u_1, \ldots, u_N$` names the family by its base: u_r is one.)
    let mut keys = BTreeSet::new();
    if !claim.reading.named.kinds.is_empty() {
        super::letters::keys_in(&claim.lhs, &mut keys);
        super::letters::keys_in(&claim.rhs, &mut keys);
    }
    let member = |letter: &str| keys.iter().any(|k| k.strip_prefix(letter).is_some_and(|rest| rest.starts_with('_')));
    if let Some((letter, kind)) = claim
        .reading
        .named
        .kinds
        .iter()
        .find(|(letter, _)| !claim.reading.marked && (mentions(claim, letter) || member(letter)))
    {
        if let Some(verified) = as_the_kind_constructed(scope, claim, letter, kind, trial) {
            return verified;
        }
        return undecided(other_reading(Reading::MatrixKind, Some(letter.clone()), Some(kind.clone())), &verdict);
    }
    let base = claim_scope(scope, claim).unwrap_or_else(|| scope.clone());
    // (A refutation at a declared value goes through the readings after, as any other; one
    // through shapes there leaves the first refutation to them.)
    let verdict = match at_declared_values(&base, claim, &verdict, trial) {
        Some(refuted) if refuted.status == Status::Refuted => match refuted.reason {
            Reason::ShapeMismatch { .. } => verdict,
            _ => refuted,
        },
        Some(read) => return read,
        None => verdict,
    };
    if let Some(read) = letter_reading(&base, scope, claim, &verdict, trial) {
        return read;
    }
    // The spec pins what letters mean for the section; an author's `claim` mark, for the claim.
    if let Some(read) =
        (!base.pinned && !claim.reading.marked).then(|| meaning_elsewhere(&base, claim, &verdict, trial)).flatten()
    {
        return read;
    }
    let below_zero = verdict.counterexample.as_ref().and_then(|c| c.mismatch.as_ref()).is_some_and(|m| {
        m.point.iter().any(|(_, v)| *v <= 0.0) || m.lhs_imaginary.is_some() || m.rhs_imaginary.is_some()
    });
    let symbols: Vec<String> = verdict
        .counterexample
        .as_ref()
        .and_then(|c| c.mismatch.as_ref())
        .map(|m| m.point.iter().map(|(name, _)| name.clone()).collect())
        .unwrap_or_default();
    let mut again = None;
    if below_zero && !base.second_look.all_positive {
        let positive = Scope { second_look: SecondLook { all_positive: true, ..base.second_look }, ..base };
        let verdict = trial.verdict_in(&positive);
        if verdict.status == Status::Verified {
            return undecided(Reason::HoldsForPositive { symbols }, &verdict);
        }
        again = Some(verdict);
    }
    // `\ln(\theta^3(1-\theta)^2) = 3\ln\theta + 2\ln(1-\theta)`: where a side is not a real
    // number (a log or a root of a negative) the sides may differ by a branch; that is no
    // counterexample. Refuted only at a point where both sides are real.
    let not_real = |v: &Verdict| {
        v.counterexample
            .as_ref()
            .and_then(|c| c.mismatch.as_ref())
            .is_some_and(|m| m.lhs_imaginary.is_some() || m.rhs_imaginary.is_some())
    };
    if not_real(&verdict) && again.as_ref().is_none_or(|v| v.status != Status::Refuted || not_real(v)) {
        return undecided(Reason::DiffersWhereNotReal { symbols }, &verdict);
    }
    verdict
}

/// `\|\theta + y^{(i)}x^{(i)}\|^2 = \|\theta\|^2 + \|x^{(i)}\|^2 + 2y^{(i)}x^{(i)\top}\theta` where the
/// chapter puts `y \in \{-1, 1\}`: a refuted claim that writes a letter the chapter puts in a
/// finite set of numbers (itself, or a labelled copy, `y^{(i)}`: at most two such keys) is
/// checked again at each of those numbers. Holding at every one, it is verified, saying so;
/// false at one, refuted there (the readings after it still to pass); otherwise undecided, what
/// the letter is coming from the set.
fn at_declared_values(base: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    // (The letter itself, or a labelled copy or member of it: `y^{(i)}`, `y_i`.)
    fn copy_of(letter: &str, key: &str) -> bool {
        key == letter || key.strip_prefix(letter).is_some_and(|rest| rest.starts_with(['^', '_']))
    }
    let written = crate::eval::reached(base, vec![&claim.lhs, &claim.rhs]);
    let (letter, values) =
        base.usage.finite_sets.iter().find(|(letter, _)| written.iter().any(|k| copy_of(letter, k)))?;
    let keys: Vec<&String> = written.iter().filter(|k| copy_of(letter, k)).collect();
    if keys.len() > 2 || keys.iter().any(|k| base.defs.contains_key(*k)) {
        return None;
    }
    let number = |value: &str| {
        let span = claim.lhs.span;
        let digits = Expr::new(ExprKind::Number { value: value.trim_start_matches('-').to_string() }, span);
        match value.starts_with('-') {
            true => Expr::new(ExprKind::Neg { operand: Box::new(digits) }, span),
            false => digits,
        }
    };
    let mut last = None;
    for at in 0..values.len().pow(keys.len() as u32) {
        let mut scope = base.clone();
        for (k, key) in keys.iter().enumerate() {
            let value = &values[(at / values.len().pow(k as u32)) % values.len()];
            let definition = Definition::value((*key).clone(), number(value), String::new());
            scope.defs.insert((*key).clone(), definition);
        }
        let again = trial.verdict_in(&scope);
        match again.status {
            Status::Verified => last = Some(again),
            Status::Refuted => return Some(again),
            Status::Undecided => {
                let reason = other_reading(Reading::LettersFromWords, Some(letter.clone()), None);
                return Some(undecided(reason, verdict));
            }
        }
    }
    let set = format!("{letter} \\in \\{{{}\\}}", values.join(", "));
    last.map(|verified| Verdict { assuming: [verified.assuming.clone(), vec![set]].concat(), ..verified })
}

/// `\begin{bmatrix} a & b \\ c & d \end{bmatrix} = ad - bc` ("the determinant is given by"):
/// a square matrix written out on one side and a number on the other, which no claim can mean
/// as written. Checked again with the matrix read as its determinant: a verification under that
/// reading is kept, saying so; anything else is undecided ([`Reading::MatrixForDeterminant`]).
fn matrix_for_its_determinant(scope: &Scope, claim: &Claim, verdict: &Verdict) -> Option<Verdict> {
    let Reason::ShapeMismatch { left, right, .. } = verdict.reason else { return None };
    let square = |(rows, cols): (usize, usize)| rows == cols && rows >= 2;
    if !(square(left) && right == (1, 1) || square(right) && left == (1, 1)) {
        return None;
    }
    let written_out = |e: &Expr| matches!(&e.kind, ExprKind::Matrix { rows, .. } if rows.len() >= 2);
    let as_determinant = |e: &Expr| {
        let func = crate::syntax::ast::Function { name: "det".into(), primes: 0, sub: None, sup: None };
        Expr::new(ExprKind::Apply { func, args: vec![e.clone()], parenthesized: true }, e.span)
    };
    let (lhs, rhs) = match (written_out(&claim.lhs), written_out(&claim.rhs)) {
        (true, false) => (as_determinant(&claim.lhs), claim.rhs.clone()),
        (false, true) => (claim.lhs.clone(), as_determinant(&claim.rhs)),
        _ => return None,
    };
    let matrix = crate::syntax::print::explicit_tex(if written_out(&claim.lhs) { &lhs } else { &rhs }, &|_| false);
    let again = super::check_own_claim(scope, &Claim { lhs, rhs, ..claim.clone() });
    if again.status == Status::Verified {
        let mut assuming = again.assuming.clone();
        assuming.push(format!(r"{matrix}\ (\text{{the matrix written out for its determinant}})"));
        return Some(Verdict { assuming, ..again });
    }
    Some(undecided_under(Reading::MatrixForDeterminant, Some(matrix), None, verdict.clone()))
}

/// The shapes the claim's letters were read with, where the counterexample is a shape that does
/// not fit: a letter read as a number by default, a list read as a row, a shape read off use.
fn shape_reading(scope: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    if let Some(read) = matrix_for_its_determinant(scope, claim, verdict) {
        return Some(read);
    }
    // Shapes read off use that do not fit this claim say the reading of a letter is in doubt,
    // not that the formula is wrong.
    let by_shape = matches!(verdict.reason, Reason::ShapeMismatch { .. } | Reason::TransposedLayout { .. });
    // A side that is a letter nothing declares is a number only by default: `\mathbf x_1=(1;0;0)`
    // says it is a vector.
    let undeclared = |e: &Expr| {
        let key = e.symbol_key()?;
        let base = match &e.kind {
            ExprKind::Subscript { base, .. } => base.symbol_key(),
            _ => None,
        };
        let known = |k: &str| scope.decls.contains_key(k) || scope.defs.contains_key(k);
        // `\boldsymbol x_1` written bold: one vector of a family as often as an entry of x.
        let bold_member = matches!(&e.kind, ExprKind::Subscript { base, .. } if crate::sema::roles::is_bold(base));
        (bold_member || (!known(&key) && base.as_deref().is_none_or(|b| !known(b)))).then_some(key)
    };
    // (A spec entry pins the section's shapes: there a mismatch is a finding.)
    // `\nabla f(\boldsymbol x_k)`: a bold family member anywhere is a vector nothing declares.
    fn bold_member(e: &Expr, scope: &Scope) -> Option<String> {
        if let ExprKind::Subscript { base, .. } = &e.kind {
            if crate::sema::roles::is_bold(base) {
                if let Some(key) = e.symbol_key().filter(|k| !scope.decls.contains_key(k)) {
                    return Some(key);
                }
            }
        }
        e.children().find_map(|c| bold_member(c, scope))
    }
    let default_scalar = (!scope.pinned)
        .then(|| {
            undeclared(&claim.lhs)
                .or_else(|| undeclared(&claim.rhs))
                .or_else(|| bold_member(&claim.lhs, scope))
                .or_else(|| bold_member(&claim.rhs, scope))
        })
        .flatten();
    // `x = [1,1,1,1]` then `w^Tx`, `x = (x_1, \ldots, x_n)` then x as a column: a bracketed or
    // parenthesised list is read as a row, but many notes mean a column (or a tuple, of no
    // orientation) by it.
    let listed = || {
        crate::eval::dependencies(scope, claim).into_iter().find(|k| {
            scope.defs.get(k).is_some_and(|d| {
                matches!(&d.body.kind, ExprKind::Fenced { open, inner: Some(inner), .. }
                    if (open == "[" || open == "(") && matches!(&inner.kind, ExprKind::Tuple { stacked: false, .. }))
            })
        })
    };
    let read_off = shapes_from_use(scope, claim).first().map(|s| s.key.clone());
    let listed = || (!scope.pinned).then(listed).flatten();
    // `q(z) = \prod_i q(z_i)`: a function nobody specified has no shape of value to mismatch.
    let unspecified = || scope.usage.unknown_functions.iter().find(|f| mentions(claim, f)).cloned();
    // `x_2 = (5,4)^\top` beside a vector x: a point of its own, named by the subscript, as often
    // as an entry of x.
    let named_point = || {
        let literal = |e: &Expr| {
            matches!(e.kind, ExprKind::Matrix { .. } | ExprKind::Transpose { .. })
                || matches!(&e.kind, ExprKind::Fenced { inner: Some(inner), .. }
                    if matches!(inner.kind, ExprKind::Tuple { .. }))
        };
        let member = |e: &Expr| {
            matches!(e.kind, ExprKind::Subscript { .. })
                .then(|| e.symbol_key())
                .flatten()
                .filter(|k| !scope.decls.contains_key(k) && !scope.defs.contains_key(k))
        };
        match (literal(&claim.lhs), literal(&claim.rhs)) {
            (false, true) => member(&claim.lhs),
            (true, false) => member(&claim.rhs),
            _ => None,
        }
    };
    // `MDP = (S, A, P, R, \gamma)`: capitals side by side that nothing defines name a thing (an
    // acronym) as often as they multiply.
    let acronym = || {
        fn capitals(e: &Expr, out: &mut String) -> bool {
            match &e.kind {
                ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => capitals(lhs, out) && capitals(rhs, out),
                ExprKind::Symbol(s)
                    if s.name.len() == 1
                        && s.name.chars().all(|c| c.is_ascii_uppercase())
                        && s.label.is_none()
                        && s.accents.is_empty()
                        && s.style.is_none() =>
                {
                    out.push_str(&s.name);
                    true
                }
                _ => false,
            }
        }
        [&claim.lhs, &claim.rhs].into_iter().find_map(|side| {
            let mut letters = String::new();
            let spelled = capitals(side, &mut letters) && letters.len() >= 2;
            let known = letters
                .chars()
                .any(|c| scope.defs.contains_key(&c.to_string()) || scope.decls.contains_key(&c.to_string()));
            (spelled && !known).then_some(letters)
        })
    };
    if let Some(read) = by_shape.then(|| meaning_elsewhere_by_shape(scope, claim, verdict, trial)).flatten() {
        return Some(read);
    }
    if let Some(read) = as_a_vector_of_its_entries(scope, claim, &|s: &Scope| trial.verdict_with_free_indices(s)) {
        return Some(read);
    }
    let tuple_written = || tuple_without_orientation(scope, claim, verdict);
    let list_written = || super::letters::list_written_out(scope, claim, words_reading(claim).is_none());
    if let (true, Some(symbol)) = (
        by_shape,
        read_off
            .clone()
            .or(default_scalar)
            .or_else(listed)
            .or_else(unspecified)
            .or_else(named_point)
            .or_else(acronym)
            .or_else(tuple_written)
            .or_else(list_written),
    ) {
        return Some(undecided(other_reading(Reading::ShapeFromUse, Some(symbol), None), verdict));
    }
    // `x + y = [x_1; \ldots; x_n] + [y_1; \ldots; y_n]`: a letter the claim writes bare and with
    // entries, which nothing declares, is a vector that was read as a number by default.
    if let Some(symbol) = (!scope.pinned && !claim.reading.marked).then(|| bare_with_entries(scope, claim)).flatten() {
        return Some(undecided(other_reading(Reading::ShapeFromUse, Some(symbol), None), verdict));
    }
    // `\|\mathbf X\|_F = \sqrt{\sum_{i=1}^m\sum_{j=1}^n x_{ij}^2}` with X's sizes read off use
    // (p×q): false only where the sizes derivcheck named differ from the notes' m, n.
    if let Some(symbol) = read_off.filter(|_| !scope.pinned && !trial.refuted_with_sizes_tied(scope)) {
        return Some(undecided(other_reading(Reading::ShapeFromUse, Some(symbol), None), verdict));
    }
    // `E^{-1}E = I` with E a matrix the words name but never size, `EA = [...]` with A an m×n
    // matrix tried at 2×2 beside a 3×4 example: shapes that do not fit refute only where the text
    // fixes every shape involved (a size in numbers, or a matrix written out); a shape derivcheck
    // chose (a number by default, a size tried) is its reading, not the author's.
    // (Where the words make the relation a condition, it is read as one further on.)
    let unfixed = (by_shape && !scope.pinned && !claim.reading.marked && words_reading(claim).is_none())
        .then(|| shape_not_fixed(scope, claim));
    if let Some(symbol) = unfixed.flatten() {
        return Some(undecided(other_reading(Reading::ShapeFromUse, Some(symbol), None), verdict));
    }
    None
}

/// A shape that does not fit, where a letter's meaning comes from elsewhere in the chapter: a
/// definition further on, or one an earlier section made.
fn meaning_elsewhere_by_shape(scope: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    // `Ax = b` in an exercise, then `x = [m; n]` further on: a letter general here has any
    // shape that fits, so shapes that do not fit say only that the later meaning is not this one.
    if let Some(first) = later_definitions(scope, claim, false).first() {
        let reason = other_reading(Reading::DefinedLater, Some(first.key.clone()), Some(first.written_at()));
        return Some(undecided(reason, verdict));
    }
    // `u = [\cos\theta\ \sin\theta]` in an earlier section, then `u^\top I_N u` where the words
    // make u a column: a shape an earlier section's definition gives is as much in doubt. Not
    // refuted with the letter fresh, the earlier meaning is in question; refuted by shapes
    // then too, the shape read for the fresh letter (a number) is.
    let used = crate::eval::dependencies(scope, claim);
    let mut inherited: Vec<&Definition> =
        scope.defs.values().filter(|d| d.inherited && used.contains(&d.key)).collect();
    inherited.sort_by(|a, b| a.key.cmp(&b.key));
    if let Some(first) = inherited.first().filter(|_| !scope.pinned && !claim.reading.marked) {
        let fresh = trial.verdict_in(&with_letters_general(scope, &inherited));
        let fresh_by_shape = matches!(fresh.reason, Reason::ShapeMismatch { .. } | Reason::TransposedLayout { .. });
        if fresh.status != Status::Refuted {
            let reason = other_reading(Reading::EarlierMeaning, Some(first.key.clone()), Some(first.written_at()));
            return Some(undecided(reason, verdict));
        } else if fresh_by_shape {
            return Some(undecided(other_reading(Reading::ShapeFromUse, Some(first.key.clone()), None), verdict));
        }
    }
    None
}

/// A refuted claim read with the conditions the text states before it: verified where those of
/// its paragraph (or the one before) make it hold, assuming them; undecided where one of them
/// on its letters cannot be read, or where a condition stated further back makes it hold.
fn under_conditions(base: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    // Conditions the text states just before it: a claim that follows from them is right.
    // The nearest first, then with each earlier one added (one that cannot be used, not
    // linear in any variable, spoils only the tries that include it).
    let stated = &claim.reading.conditions.stated;
    for from in (0..stated.len()).rev().filter(|_| !claim.reading.marked) {
        let mut under = base.clone();
        under.assumptions.extend(stated[from..].iter().cloned());
        let again = trial.verdict_in(&under);
        if again.status == Status::Verified {
            let mut assuming = verdict.assuming.clone();
            assuming.extend(stated[from..].iter().map(|a| a.tex.clone()));
            return Some(Verdict { assuming, elapsed_ms: verdict.elapsed_ms, ..again });
        }
    }
    // `if $\psi^* P = \psi^*$`, then `\psi^* P^2 = \psi^* P`: a condition stated just before,
    // on the claim's letters, that derivcheck could not use (its letters' shapes unread, an
    // equation it cannot solve) may be what makes the claim true: the refutation does not stand.
    let letters = |e: &Expr| free_letters(base, e);
    let claim_letters = free_letters_of_claim(base, claim);
    // (`P(Y=1\mid x) = \frac{\exp(w\cdot x)}{1+\exp(w\cdot x)}` above a claim about w and x
    // alone gives P its value, whatever w and x are: it restricts none of the claim's letters.)
    // (`\sum_k P(Y=k\mid x) = 1` likewise: a function the claim never applies, on one side only.)
    fn heads(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Call { func, .. } = &e.kind {
            out.extend(func.symbol_key());
        }
        e.children().for_each(|c| heads(c, out));
    }
    let gives_a_new_quantity = |condition: &crate::sema::Assumption| {
        let fresh = |side: &Expr, other: &Expr| {
            let mut candidates = Vec::new();
            heads(side, &mut candidates);
            candidates.extend(side.symbol_key());
            candidates.iter().any(|h| !claim_letters.contains(h) && !mentions(claim, h) && !expr_mentions(other, h))
        };
        fresh(&condition.lhs, &condition.rhs) || fresh(&condition.rhs, &condition.lhs)
    };
    let on_its_letters = |condition: &crate::sema::Assumption| {
        let shared = letters(&condition.lhs).union(&letters(&condition.rhs)).any(|l| claim_letters.contains(l));
        shared && !gives_a_new_quantity(condition)
    };
    for condition in stated.iter().rev().filter(|c| !claim.reading.marked && on_its_letters(c)) {
        let mut under = base.clone();
        under.assumptions.push(condition.clone());
        // (Read but not solved, `0 = (2-\lambda)(3-\lambda)-2`, it is an equation the claim
        // may be checked against another time; only a condition derivcheck cannot read spares it.)
        let unread = matches!(
            trial.verdict_in(&under).reason,
            Reason::NotRead { kind: crate::model::NotRead::NeedsSpec | crate::model::NotRead::Ambiguous, .. }
        );
        if unread {
            let reason =
                other_reading(Reading::ConditionUnused, Some(condition.tex.clone()), Some(condition.origin.clone()));
            return Some(undecided(reason, verdict));
        }
    }
    // A condition the section stated further back (`令样本被中心化，即 …` three paragraphs
    // before): a claim it makes true is not refuted, and not verified either.
    for condition in claim.reading.conditions.stated_earlier.iter().rev().filter(|_| !claim.reading.marked) {
        let mut under = base.clone();
        under.assumptions.push(condition.clone());
        if trial.verdict_in(&under).status == Status::Verified {
            let reason =
                other_reading(Reading::EarlierCondition, Some(condition.tex.clone()), Some(condition.origin.clone()));
            return Some(undecided(reason, verdict));
        }
    }
    None
}

/// What the claim's letters may be other than what derivcheck read: an entry, a power or an
/// index, a function applied, an operator, a property of a function; a claim that follows from
/// the conditions the text states before it; a square matrix of a kind the words name.
fn letter_reading(base: &Scope, scope: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    // Each reading below that checks the claim again: in a scope that reads it so; not refuted
    // there, the refutation does not stand.
    let not_refuted_in = |other: &Scope| trial.verdict_in(other).status != Status::Refuted;
    // `\frac{\partial L(w)}{\partial w^{(k)}}` where L reaches w but never w^{(k)}: the derivative
    // is 0 only if w^{(k)} is a letter of its own; it reads as the k-th entry of w.
    if let Some((entry, whole)) = (!claim.reading.marked).then(|| derivative_by_an_entry(base, claim)).flatten() {
        return Some(undecided(other_reading(Reading::EntryOf, Some(entry), Some(whole)), verdict));
    }
    // `\frac{dy}{dx} = 2x` with nothing defining y: false with y a letter of its own (its
    // derivative 0), but the text differentiates y, so y depends on x in a way it does not say.
    if let Some(letter) =
        (!base.pinned && !claim.reading.marked).then(|| derivative_of_a_free_letter(base, claim)).flatten()
    {
        return Some(undecided(other_reading(Reading::UnknownDerivative, Some(letter), None), verdict));
    }
    // `I^{n}S^{n}` beside `S^{(i)}` in the same formula: a power, or the n-th member written
    // without its parentheses?
    if let Some(letter) = (!claim.reading.marked).then(|| power_or_index(claim)).flatten() {
        return Some(undecided(other_reading(Reading::PowerOrIndex, Some(letter), None), verdict));
    }
    // `q(z)` read as q times the parenthesis, q given no meaning anywhere (written bare, or as an
    // argument, `L(q, \theta)`): refuted only if it fails with q a function nobody specified too,
    // and not as a property of that function.
    // (`P(A \mid B)` of a claim about probabilities is read by the probability check.)
    let by_distributions = verdict.method == Some(Method::Distributions);
    if let Some(letter) =
        (!base.pinned && !claim.reading.marked && !by_distributions).then(|| applied_letters(base, claim)).flatten()
    {
        let mut applied = base.clone();
        applied.usage.unknown_functions.insert(letter.clone());
        // (False for a general function too, it states a property of the function meant.)
        let property = unknown_function_property(&applied, claim).is_some();
        if property || not_refuted_in(&applied) {
            return Some(undecided(other_reading(Reading::ApplicationOrProduct, Some(letter), None), verdict));
        }
    }
    if let Some(letter) = (!base.pinned && !claim.reading.marked).then(|| marked_letter_applied(base, claim)).flatten()
    {
        return Some(undecided(other_reading(Reading::ApplicationOrProduct, Some(letter), None), verdict));
    }
    // `f^{-1}(z) = 2z+1` of an invertible function f: the inverse applied as often as 1/f times z.
    if let Some(letter) = (!base.pinned && !claim.reading.marked).then(|| inverse_applied(base, claim)).flatten() {
        return Some(undecided(other_reading(Reading::InverseOrPower, Some(letter), None), verdict));
    }
    // `Dx^n = nx^{n-1}`: a D the notes never define, standing before what it acts on, is the
    // derivative operator as often as a number.
    if let Some(letter) = (!base.pinned && !claim.reading.marked).then(|| operator_letter(base, claim)).flatten() {
        return Some(undecided(other_reading(Reading::OperatorOrProduct, Some(letter), None), verdict));
    }
    // A function nobody specified is known only through the rules of calculus: a claim about
    // its values alone states a property of the function the text means.
    // (Not `H(X)`, `I(X, Y)` the probability check read as entropy and mutual information.)
    if let Some(f) = unknown_function_property(scope, claim).filter(|_| !claim.reading.marked && !by_distributions) {
        // (A function the words name instead of defining it — `Sigmoid function有一个很好的性质` —
        // verifies it; only a verification is kept: the letter may be another function.)
        if let Some((read, assumption)) = as_the_function_named(base, claim, &f) {
            let again = trial.verdict_with_free_indices(&read);
            if again.status == Status::Verified {
                return Some(Verdict { assuming: [again.assuming.clone(), vec![assumption]].concat(), ..again });
            }
        }
        return Some(undecided(other_reading(Reading::FunctionProperty, Some(f), None), verdict));
    }
    if let Some(verdict) = under_conditions(base, claim, verdict, trial) {
        return Some(verdict);
    }
    if let Some(verdict) = at_values_shown_next(base, claim, verdict, trial) {
        return Some(verdict);
    }
    // (A probability claim's small letters are the values of its variables: `H(Y \mid X) = -\sum_x
    // \sum_y p(x, y) \log p(y \mid x)` shares X and Y with its right side through them.)
    if let Some(reason) =
        (!base.pinned && !claim.reading.marked && !by_distributions).then(|| reading_of_letters(base, claim)).flatten()
    {
        return Some(undecided(reason, verdict));
    }
    // `-\sum_j y_j \log\frac{\exp(o_j)}{\sum_k \exp(o_k)} = \log\sum_k\exp(o_k) - \sum_j y_j o_j`:
    // true where the entries of y sum to 1 (a one-hot label), which the words often say in
    // another section.
    if !base.pinned && !claim.reading.marked && base.assumptions.is_empty() {
        for (letter, assumption) in sums_to_one(base, claim) {
            let mut under = base.clone();
            under.assumptions.push(assumption);
            if trial.verdict_in(&under).status == Status::Verified {
                return Some(undecided(other_reading(Reading::SumsToOne, Some(letter), None), verdict));
            }
        }
    }
    // `\|u\| = \sqrt{u_1^2+u_2^2}` with u's size read off use: the entries the claim writes (u_1,
    // u_2, and no `\cdots`) say how many u has; right at that size, it is verified there, saying so.
    let written = (!claim.reading.marked).then(|| written_entries_scope(base, claim)).flatten();
    let at_written = written.and_then(|(sized, resized)| {
        let again = trial.verdict_in(&sized);
        (again.status == Status::Verified).then_some((again, resized))
    });
    if let Some((sized, resized)) = at_written {
        let assuming = verdict
            .assuming
            .iter()
            .map(|a| resized.iter().find(|(from, _)| from == a).map_or_else(|| a.clone(), |(_, to)| to.clone()))
            .collect();
        return Some(Verdict { elapsed_ms: verdict.elapsed_ms, assuming, ..sized });
    }
    // A square matrix whose shape was read off use may be of a kind the words name (symmetric,
    // diagonal): refuted only if it fails for those too.
    let square: Vec<String> = shapes_from_use(base, claim)
        .into_iter()
        .filter(|s| !s.identity && s.rows != "1" && s.cols != "1")
        .map(|s| s.key.clone())
        .collect();
    if let (false, Some(first)) = (claim.reading.marked, square.first()) {
        use crate::sema::scope::MatrixClass;
        for (class, reading) in [
            (MatrixClass::Symmetric, Reading::Symmetric),
            (MatrixClass::Diagonal, Reading::Diagonal),
            (MatrixClass::Orthogonal, Reading::Orthogonal),
        ] {
            let mut special = base.clone();
            make_square(&mut special, &square);
            special.classes.extend(square.iter().map(|k| (k.clone(), class)));
            if not_refuted_in(&special) {
                return Some(undecided(other_reading(reading, Some(first.clone()), None), verdict));
            }
        }
    }
    None
}

/// `u_1 = \frac{1}{\sigma_1}\mathbf A\mathbf v_1 = \frac{1}{\sqrt6}[…][…]` (v₁ a singular vector
/// the words name): a refuted link whose letters the next link writes as numbers, checked at those
/// values; verified there, it holds for the letters the chain speaks of, saying so. Not refuted
/// there (or only by shapes) where the next link writes a letter as a matrix, the refutation
/// rested on reading it as a number: undecided ([`Reading::ShapeFromUse`]).
fn at_values_shown_next(base: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    let shown = &claim.reading.conditions.shown_next;
    if shown.is_empty() || claim.reading.marked || base.pinned {
        return None;
    }
    let mut at = base.clone();
    for value in shown {
        at.defs.insert(value.key.clone(), value.clone());
    }
    let again = trial.verdict_in(&at);
    if again.status == Status::Verified {
        let print = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
        let values =
            shown.iter().map(|v| format!(r"{} = {}\ (\text{{as the next step writes}})", v.key, print(&v.body)));
        let assuming = again.assuming.iter().cloned().chain(values).collect();
        return Some(Verdict { assuming, ..again });
    }
    // (A shape that does not fit there is no counterexample at those values either.)
    let by_shape = matches!(again.reason, Reason::ShapeMismatch { .. } | Reason::TransposedLayout { .. });
    let matrix = shown.iter().find(|v| matches!(v.body.kind, ExprKind::Matrix { .. }));
    let symbol = matrix.filter(|_| again.status != Status::Refuted || by_shape).map(|v| v.key.clone())?;
    Some(undecided(other_reading(Reading::ShapeFromUse, Some(symbol), None), verdict))
}

/// A meaning the letters have elsewhere in the chapter: a definition an earlier section made, a
/// function defined before beside functions nobody specified, a meaning given further on, a
/// shape an earlier section declared. Refuted only if the claim fails without it.
fn meaning_elsewhere(base: &Scope, claim: &Claim, verdict: &Verdict, trial: &dyn Trial) -> Option<Verdict> {
    // Each reading below that checks the claim again: in a scope that reads it so; not refuted
    // there, the refutation does not stand.
    let not_refuted_in = |other: &Scope| trial.verdict_in(other).status != Status::Refuted;
    let used = crate::eval::dependencies(base, claim);
    // A definition an earlier section made: refuted only if the claim fails with the letter
    // fresh.
    let mut inherited: Vec<&Definition> = base
        .defs
        .values()
        .filter(|d| d.inherited && !d.function && mentions(claim, &d.key) && used.contains(&d.key))
        .collect();
    // The definitions are hashed: name the same letter on every run.
    inherited.sort_by(|a, b| a.key.cmp(&b.key));
    if let Some(first) = inherited.first() {
        if not_refuted_in(&with_letters_general(base, &inherited)) {
            let earlier = Some(first.written_at());
            let reason = other_reading(Reading::EarlierMeaning, Some(first.key.clone()), earlier);
            return Some(undecided(reason, verdict));
        }
    }
    // `\frac{df}{dx}(x) = \frac{dg}{dx}(x) + \frac{dh}{dx}(x)` beside functions g and h nobody
    // specified, after `$f(x) = \log(1+(x-1)^{10})$` paragraphs before: a rule stated for
    // functions in general, where f is one of them as often as the f defined before. (An f
    // defined through them, `f(x) = g(x)h(x)`, is the one meant.)
    let unspecified: Vec<&String> = base.usage.unknown_functions.iter().filter(|f| mentions(claim, f)).collect();
    let concrete = |d: &Definition| !unspecified.iter().any(|f| expr_mentions(&d.body, f));
    let mut functions: Vec<&Definition> = base
        .defs
        .values()
        .filter(|d| d.function && mentions(claim, &d.key) && used.contains(&d.key) && concrete(d))
        .collect();
    functions.sort_by(|a, b| a.key.cmp(&b.key));
    if let (false, Some(first)) = (unspecified.is_empty(), functions.first()) {
        let general = with_letters_general(base, &functions);
        // (With f general the claim may state a property of it: not refuted either.)
        if unknown_function_property(&general, claim).is_some() || not_refuted_in(&general) {
            let earlier = Some(first.written_at());
            let reason = other_reading(Reading::EarlierMeaning, Some(first.key.clone()), earlier);
            return Some(undecided(reason, verdict));
        }
    }
    // `\bar\alpha_t = \prod_{i=1}^T \alpha_i`: a family whose definition never writes its index
    // has one value for every member, as often by a slip in the definition (T for t) as meant.
    // What the family means is then in doubt, and a claim false through it is not refuted (with
    // the family general it fails as often: the members are related as the definition meant).
    let mut one_value: Vec<&Definition> = base
        .defs
        .values()
        .filter(|d| !d.function && !d.params.is_empty() && used.contains(&d.key))
        .filter(|d| !d.params.iter().any(|index| expr_mentions(&d.body, index)))
        .collect();
    one_value.sort_by(|a, b| a.key.cmp(&b.key));
    if let Some(first) = one_value.first() {
        let at = Some(first.written_at());
        let member = format!("{}_{{{}}}", first.key.trim_end_matches("_•"), first.params.join(","));
        let reason = other_reading(Reading::FamilyOfOneValue, Some(member), at);
        return Some(undecided(reason, verdict));
    }
    // A meaning the section gives a letter further on: refuted only if the claim fails with
    // the letter general.
    let mut later = later_definitions(base, claim, false);
    // (The step of an expansion in several variables is read general already.)
    let steps: Vec<String> = [&claim.lhs, &claim.rhs]
        .iter()
        .filter_map(|side| crate::syntax::pattern::ray_series(side)?.step.symbol_key())
        .collect();
    later.retain(|d| !steps.contains(&d.key));
    if let Some(first) = later.first() {
        // (With the letter general, an equation among letters nothing defines is a constraint,
        // not a refuted identity: `由于 $\alpha_1y_1+\alpha_2y_2=\varsigma$ … 可以得到 $\alpha_1 =
        // y_1(\varsigma-\alpha_2y_2)$` defines α₁ from it, never the other way round.)
        let general = with_letters_general(base, &later);
        let again = trial.verdict_in(&general);
        if again.status != Status::Refuted || slip_or_constraint(&general, claim, again).status != Status::Refuted {
            let at = Some(first.written_at());
            let reason = other_reading(Reading::DefinedLater, Some(first.key.clone()), at);
            return Some(undecided(reason, verdict));
        }
    }
    // A shape an earlier section declared (`\mathbf A\in\mathbb R^{n\times k}` for a product,
    // then an exercise's `two matrices $A$ and $B$`): refuted only if the claim fails without it.
    let elsewhere: Vec<&String> = base.usage.declared_elsewhere.iter().filter(|k| used.contains(*k)).collect();
    if let Some(first) = elsewhere.first() {
        let mut fresh = base.clone();
        for key in &elsewhere {
            fresh.decls.remove(*key);
        }
        if not_refuted_in(&fresh) {
            let reason = other_reading(Reading::DeclaredElsewhere, Some((*first).clone()), None);
            return Some(undecided(reason, verdict));
        }
    }
    // `x = (1-\lambda)a + \lambda b` for a one-dimensional proof, then `\mathbf x, \mathbf y \in
    // \mathbb R^n` for the general one, in one section: refuted only if the claim fails with the
    // letter the declared vector, its definition set aside.
    let declared: Vec<(&String, &[String; 2])> =
        base.usage.defined_and_declared.iter().filter(|(k, _)| used.contains(*k)).collect();
    if let Some((first, _)) = declared.first() {
        let mut fresh = base.clone();
        for (key, [rows, cols]) in &declared {
            fresh.defs.remove(*key);
            fresh.decls.insert((*key).clone(), Decl::Matrix { rows: rows.clone(), cols: cols.clone() });
            for dim in [rows, cols].into_iter().filter(|d| d.parse::<u32>().is_err()) {
                fresh.sizes.entry(dim.clone()).or_insert_with(|| vec![2, 3]);
            }
        }
        if not_refuted_in(&fresh) {
            let reason = other_reading(Reading::DefinedAndDeclared, Some((*first).clone()), None);
            return Some(undecided(reason, verdict));
        }
    }
    None
}

/// Readings of a refuted claim's letters that the formula alone cannot settle:
/// - a side writes a letter the other does not (`\det\mathbf A=\lambda_1\cdots\lambda_n`,
///   `\cos\theta=\frac{\mathbf v\cdot\mathbf w}{…}`, `\frac{\alpha_i}{\sum_j\alpha_j+m}` after
///   `\sum_j y_j`): an identity could not depend on it, so the words must say what it is
///   (eigenvalues, an angle, a count);
/// - `a_{ij}` beside a matrix `\mathbf A` the claim uses: A's entries by a common convention, or a
///   letter of its own.
pub(super) fn reading_of_letters(scope: &Scope, claim: &Claim) -> Option<Reason> {
    let (left, right) = (letters_reached(scope, &claim.lhs), letters_reached(scope, &claim.rhs));
    // A family is shown as one of its members: `l_i`.
    let from_words = |letter: &String| Reason::OtherReading {
        reading: Reading::LettersFromWords,
        symbol: Some(letter.replace("_•", "_i")),
        earlier: None,
        refuted: true,
    };
    if !left.is_empty() && !right.is_empty() && left.is_disjoint(&right) {
        let smaller = if left.len() <= right.len() { &left } else { &right };
        return smaller.iter().next().map(from_words);
    }
    // `r=m=n`, `n^2=1024\times 1024`: sizes alone (dimensions the notes name, which derivcheck
    // tries at 2 and 3), the sides writing none in common: which case, or which size, the text
    // considers comes from the words.
    if left.is_empty() && right.is_empty() {
        // (Not a size the words give a value: `不妨看看$n=10$的情况`, then `n^2 = 1024\times 1024`
        // is checked at n = 10.)
        let bound = |k: &String| claim.reading.overrides.iter().any(|d| &d.key == k);
        let sizes_of = |e: &Expr| -> BTreeSet<String> {
            let reached = crate::eval::reached(scope, vec![e]).into_iter();
            reached.filter(|k| scope.sizes.contains_key(k) && !bound(k)).collect()
        };
        let (left_sizes, right_sizes) = (sizes_of(&claim.lhs), sizes_of(&claim.rhs));
        if left_sizes.is_disjoint(&right_sizes) {
            if let Some(size) = left_sizes.iter().chain(&right_sizes).next() {
                return Some(from_words(size));
            }
        }
    }
    // A later link of a chain rewrites the side before it; a number-like letter it brings in
    // (`= \frac{\alpha_i+y_i}{\sum_j\alpha_j+m}` for `\sum_j y_j`) stands for what the words say.
    if claim.reading.rewrites {
        let new =
            right.iter().find(|k| !left.contains(*k) && !scope.usage.matrix_like.contains(*k) && !k.contains('\''));
        if let Some(letter) = new {
            return Some(from_words(letter));
        }
    }
    let all = crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]);
    // `\bar{x}` the words call the sample mean, beside the x_i it is the mean of: not a letter
    // of its own.
    let family = |letter: &String| all.iter().any(|k| k.split_once('_').is_some_and(|(base, _)| base == letter));
    // (A point the words say only exists, `\xi` between x and y, is one of no family.)
    // (An eigenvalue the words name is keyed by its letter: `\lambda_i` is one.)
    let named = |k: &String| {
        let letter = k.split_once('_').map_or(k.as_str(), |(base, _)| base);
        scope.usage.statistics.get(k).or_else(|| scope.usage.statistics.get(letter).filter(|of| of.is_empty()))
    };
    // (`(2-\lambda)(3-\lambda) - 2 = (4-\lambda)(2-\lambda)`: a claim of the eigenvalue's letter
    // alone, without an index, is one for every number, as a characteristic polynomial is; not
    // `\sum_i \lambda_i = 0`, of the eigenvalues themselves.)
    let free = free_letters_of_claim(scope, claim);
    let indexed = all.iter().any(|k| k.contains('_') && named(k).is_some_and(|of| of.is_empty()));
    let alone = !free.is_empty() && !indexed && free.iter().all(|k| named(k).is_some());
    let statistic = all.iter().find(|k| named(k).is_some_and(|of| (of.is_empty() && !alone) || family(of)));
    if let Some(letter) = statistic {
        return Some(from_words(letter));
    }
    let matrix = |k: &str| {
        matches!(scope.decls.get(k), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
            || scope.usage.matrix_like.contains(k)
    };
    for key in &all {
        let Some((letter, _)) = key.split_once('_') else { continue };
        let upper = letter.to_uppercase();
        let lowercase_letter = letter.chars().count() == 1 && letter.chars().all(char::is_lowercase);
        if lowercase_letter && upper != letter && all.contains(&upper) && matrix(&upper) && !scope.knows(letter) {
            return Some(Reason::OtherReading {
                reading: Reading::EntryOf,
                symbol: Some(key.clone()),
                earlier: Some(upper),
                refuted: true,
            });
        }
    }
    None
}

// ---- Phase: slip (after a counterexample and the repair search) -----------------------------

/// Identity or constraint: a refutation (with the repair search's result) stands where it reads
/// as an identity with a slip; where it relates letters nobody defined and no slip's repair shows
/// what was meant, it is undecided ([`Reading::Constraint`]; see `constraint`). Two readings of
/// a letter come first (e raised to a sum's index, a superscript that labels): a repair under the
/// reading not meant is none.
pub(super) fn slip_or_constraint(scope: &Scope, claim: &Claim, verdict: Verdict) -> Verdict {
    // (A claim read through a recurrence, `\mathbf s_t = (1-\gamma)(\mathbf g_t^2 + \gamma
    // \mathbf g_{t-1}^2 + …)`, speaks of the members the recurrence defines, named apart by the
    // unrolling: its letters are defined, whatever their names.)
    if verdict.status != Status::Refuted
        || !claim.holds
        || scope.pinned
        || claim.reading.marked
        || claim.reading.unrolled.is_some()
    {
        return verdict;
    }
    if let Some(indexed) = euler_indexed(&claim.lhs).or_else(|| euler_indexed(&claim.rhs)) {
        return undecided_under(Reading::EulerOrLetter, Some(indexed), None, verdict);
    }
    // `i \cdot (a + bi) = -b + ai` where the notes speak of complex numbers: i nothing defines or
    // binds is the imaginary unit as often as a real letter.
    let free_i = || free_letters_of_claim(scope, claim).contains("i");
    if claim.reading.complex && free_i() {
        return undecided_under(Reading::ImaginaryOrLetter, Some("i".into()), None, verdict);
    }
    if let Some(labelled) = superscript_label(scope, claim) {
        return undecided_under(Reading::SuperscriptLabel, Some(labelled), None, verdict);
    }
    if verdict.suggestion.as_ref().is_some_and(is_slip) {
        return verdict;
    }
    // (A claim about probabilities speaks of random variables through their laws, not as
    // letters.)
    if verdict.method == Some(Method::Distributions) {
        return verdict;
    }
    let (left, right) = (free_letters(scope, &claim.lhs), free_letters(scope, &claim.rhs));
    // `a_2 - x a_1 = a_2 - \frac{a_1^\top a_2}{a_1^\top a_1} a_1` (即): a free letter on one side
    // only, written in this formula and nowhere else in the section, is named by it (x is the
    // coefficient), not quantified over.
    let one_side: BTreeSet<&String> = left.symmetric_difference(&right).collect();
    let named_here = !one_side.is_empty()
        && one_side.len() == left.union(&right).count()
        && one_side.iter().all(|k| scope.usage.written_once.contains(*k));
    if named_here {
        let letters: Vec<&str> = one_side.iter().map(|k| k.as_str()).collect();
        return undecided_under(Reading::Constraint, Some(letters.join(", ")), None, verdict);
    }
    // A slip that drops a term or a factor leaves one side's letters among the other's; a
    // constraint gives each side a letter of its own.
    if left.is_subset(&right) || right.is_subset(&left) {
        return verdict;
    }
    let one_side: Vec<String> = left.symmetric_difference(&right).cloned().collect();
    undecided_under(Reading::Constraint, Some(one_side.join(", ")), None, verdict)
}

// ---- Phase: evidence (after a verdict) -------------------------------------------------------

/// A verdict (after the readings of a counterexample, the repair search and the slip phase)
/// where the evidence may not be about what the text means: a change written as Δ before a
/// letter, a derivative of a letter nothing defines, a convention at log 0, a supposition the
/// words make and derivcheck does not model.
pub(super) fn as_evidence(scope: &Scope, claim: &Claim, verdict: Verdict, trial: &dyn Trial) -> Verdict {
    let verdict = change_as_one_quantity(scope, claim, verdict);
    let open_to_readings = !claim.reading.marked && !scope.pinned;
    // `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial
    // x_i}` with E given no formula: 0 = 0, which says nothing; unless it holds with E any
    // function of the letters it is differentiated through.
    if let Some(letter) = (verdict.status == Status::Verified && open_to_readings)
        .then(|| derivative_of_a_free_letter(scope, claim))
        .flatten()
    {
        if let Some(general) = with_a_general_function(scope, claim, &letter, &verdict, trial) {
            return general;
        }
        return undecided_under(Reading::UnknownDerivative, Some(letter), None, verdict);
    }
    if let Some(function) = (verdict.status == Status::Verified && open_to_readings)
        .then(|| applied_past_its_arguments(scope, claim))
        .flatten()
    {
        return undecided_under(Reading::UnknownDerivative, Some(function), None, verdict);
    }
    // `\frac{\partial L_t}{\partial U} = \frac{\partial L_t}{\partial y_t}\frac{\partial y_t}{\partial
    // U}` where nothing gives t a value: in the chain the claim draws, `L_t` and `y_t` are letters
    // of their own, whatever t is.
    if matches!(verdict.reason, Reason::UnboundIndex { .. }) && verdict.status == Status::Undecided && open_to_readings
    {
        if let Some(letter) = derivative_of_a_free_letter(scope, claim) {
            if let Some(general) = with_a_general_function(scope, claim, &letter, &verdict, trial) {
                return general;
            }
        }
    }
    // `if $p=0$, then $p\log_2 p = 0$`: the convention 0·log 0 = 0, not a claim to verify.
    if let Some(at) = (verdict.status != Status::Undecided).then(|| log_of_zero(claim)).flatten() {
        return undecided_under(Reading::Convention, Some(at), None, verdict);
    }
    // `若 $A \sim B$，则 $r(A) = r(B)$`: checked without the supposition, decided by nothing.
    match (&claim.reading.conditions.hypothesis, verdict.status) {
        (Some(tex), Status::Verified | Status::Refuted) if open_to_readings => {
            undecided_under(Reading::Hypothesis, Some(tex.clone()), None, verdict)
        }
        // `如果它是标准正交基，由于 $B^\top B = I$`, `假设$b$是零值的`: false without what the words suppose.
        (None, Status::Refuted) if open_to_readings && supposed_reaches(claim, &verdict) => {
            undecided_under(Reading::SupposedInWords, claim.reading.conditions.supposed.clone(), None, verdict)
        }
        _ => verdict,
    }
}

/// Does what the words suppose bear on the refutation: a supposition in words alone, or one
/// about formulas, one of them written in the difference of the sides (or no difference known)?
fn supposed_reaches(claim: &Claim, verdict: &Verdict) -> bool {
    let Some(supposed) = &claim.reading.conditions.supposed else { return false };
    let formulas: Vec<&str> = supposed.split('$').skip(1).step_by(2).map(str::trim).filter(|f| !f.is_empty()).collect();
    match &verdict.reason {
        Reason::Differs { difference: Some(d), .. } if !formulas.is_empty() => formulas.iter().any(|f| d.contains(f)),
        _ => true,
    }
}

/// What the check of values in an equation found (`solutions::within_rounding`): decided, or
/// false for some values of letters the equation keeps (`free`), or by less than twice the
/// values' rounding (`free` empty).
pub(super) enum Solved {
    Decided(Verdict),
    Open { free: Vec<String>, equation: String, verdict: Verdict },
}

/// A solution's verdict: left open as a partial solution, for i in notes on complex numbers,
/// or where the values miss by less than twice their rounding.
pub(super) fn of_solution(claim: &Claim, solved: Solved) -> Verdict {
    match solved {
        Solved::Decided(verdict) => verdict,
        Solved::Open { free, verdict, .. } if claim.reading.complex && free.iter().any(|l| l == "i") => {
            undecided_under(Reading::ImaginaryOrLetter, Some("i".into()), None, verdict)
        }
        Solved::Open { free, equation, verdict } => {
            undecided_under(Reading::SolvedInPart, (!free.is_empty()).then(|| free.join(", ")), Some(equation), verdict)
        }
    }
}

/// Left open for i, which may be the imaginary unit (checked again so, to verify)?
pub(super) fn open_on_the_imaginary_unit(verdict: &Verdict) -> bool {
    matches!(&verdict.reason, Reason::OtherReading { reading: Reading::ImaginaryOrLetter, symbol: Some(i), .. } if i == "i")
}

/// Left open for a letter read as a number where the text may mean a function (`p(x)`, `\partial_\theta p(x)`)?
pub(super) fn open_to_an_unknown_function(verdict: &Verdict) -> bool {
    matches!(
        verdict.reason,
        Reason::OtherReading { reading: Reading::UnknownDerivative | Reading::ApplicationOrProduct, .. }
    )
}

/// `P^{k+1}\mathbf 1 = P P^k \mathbf 1 = P \mathbf 1 = \mathbf 1` where the words call P
/// stochastic (rows summing to one): false for a general matrix, checked again with P one whose
/// rows sum to one ([`MatrixClass::Stochastic`]), an index without a value made general as for
/// any claim. Only a verification is kept, saying what P was taken to be: the construction draws
/// no sign, so a counterexample there need not be a stochastic matrix. `None` for every other
/// kind (`doubly stochastic`, `column stochastic` are kinds of their own).
fn as_the_kind_constructed(
    scope: &Scope,
    claim: &Claim,
    letter: &str,
    kind: &str,
    trial: &dyn Trial,
) -> Option<Verdict> {
    use crate::sema::MatrixClass;
    if !kind.eq_ignore_ascii_case("stochastic") || scope.pinned {
        return None;
    }
    let mut constructed = claim_scope(scope, claim).unwrap_or_else(|| scope.clone());
    constructed.classes.insert(letter.to_string(), MatrixClass::Stochastic);
    // (A letter the notes give no shape is a square matrix of a size of its own, tried at 2 and
    // 3, and the ones vector beside it a column of that size.)
    if !matches!(constructed.decls.get(letter), Some(Decl::Matrix { .. })) {
        let size =
            (0..).map(|k| format!("n_{{{k}}}")).find(|n| !constructed.sizes.contains_key(n) && !mentions(claim, n))?;
        constructed.sizes.insert(size.clone(), vec![2, 3]);
        constructed.decls.insert(letter.to_string(), Decl::Matrix { rows: size.clone(), cols: size.clone() });
        for ones in ["\\mathbf{1}", "\\mathbb{1}"] {
            if mentions(claim, ones) && !constructed.decls.contains_key(ones) {
                constructed.decls.insert(ones.to_string(), Decl::Matrix { rows: size.clone(), cols: "1".into() });
            }
        }
    }
    let again = trial.verdict_with_free_indices(&constructed);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.push(super::letters::class_tex(letter, MatrixClass::Stochastic));
        Verdict { assuming, ..again }
    })
}

/// A claim verified with a letter the section defines only further on, as derived (words that
/// assert before the definition), which fails with that letter general (`1 = \sum_k \frac1Z\exp(w_k\cdot x)`, then `得到 $Z = \sum_k \exp(w_k\cdot
/// x)$`): the definition may be derived from it as often as it follows from the definition, so
/// it is no evidence either way. Undecided, naming the letter and where it is defined.
pub(super) fn through_later_only(
    scope: &Scope,
    own: Option<&Scope>,
    claim: &Claim,
    verdict: Verdict,
    trial: &dyn Trial,
) -> Verdict {
    // (Only letters written as numbers: a vector or matrix made general loses its shape, and a
    // claim about it fails for that alone — the expansion about a step `\boldsymbol\epsilon`
    // defined later.)
    let mut later = later_definitions(scope, claim, false);
    // (`for $f(x) := e^x$ … $f'(x) = f(x)$`: a value the sentence gives the letter is in force
    // at the claim, whatever the section derives further on.)
    let given_here = |d: &Definition| own.and_then(|o| o.defs.get(&d.key)).is_some_and(|o| o.origin != d.origin);
    later.retain(|d| {
        scope.usage.derived.contains(&d.key)
            && !scope.usage.matrix_like.contains(&d.key)
            && !scope.decls.contains_key(&d.key)
            && !given_here(d)
    });
    let Some(first) = later.first() else { return verdict };
    let general = with_letters_general(own.unwrap_or(scope), &later);
    if trial.own_verdict_in(&general).status == Status::Verified {
        return verdict;
    }
    undecided_under(Reading::HoldsThroughLater, Some(first.key.clone()), Some(first.written_at()), verdict)
}

/// `f(t + \Delta t) = f(t) + \Delta t f'(t)`, `\delta y_i`: a Δ or δ that nothing defines, written
/// before a letter, names the change of that letter as often as it multiplies it. A claim
/// verified with Δ·t holds for Δt as one quantity too where every Δ stands before the same
/// letter (Δt then takes every value as Δ does): verified, saying so. Where Δ stands elsewhere
/// too, or before a power (`\Delta x^2`: Δ·x², or (Δx)²?), the two readings differ, and the
/// claim, verified or refuted, is undecided, naming Δ.
pub(super) fn change_as_one_quantity(scope: &Scope, claim: &Claim, verdict: Verdict) -> Verdict {
    // (A refutation likewise: with Δ·x standing for Δx everywhere, its counterexample is one for
    // Δx; with `\Delta x^2`, Δ·x² is not (Δx)², and the refutation does not stand.)
    if !matches!(verdict.status, Status::Verified | Status::Refuted) || claim.reading.marked || scope.pinned {
        return verdict;
    }
    // Each Δ (by key) with the letters written right after it, and how often it stands alone.
    fn walk(e: &Expr, changes: &BTreeSet<String>, after: &mut BTreeMap<String, BTreeSet<Option<String>>>) {
        if let ExprKind::Binary { op: BinOp::Implicit, .. } = &e.kind {
            let list = e.implicit_factors();
            for (i, factor) in list.iter().enumerate() {
                match factor.symbol_key().filter(|k| changes.contains(k) && matches!(factor.kind, ExprKind::Symbol(_)))
                {
                    Some(key) => {
                        let next = list.get(i + 1).and_then(|n| match &n.kind {
                            ExprKind::Subscript { base, .. } => base.symbol_key(),
                            _ => n.symbol_key(),
                        });
                        after.entry(key).or_default().insert(next);
                    }
                    None => walk(factor, changes, after),
                }
            }
            return;
        }
        if let Some(key) = e.symbol_key().filter(|k| changes.contains(k) && matches!(e.kind, ExprKind::Symbol(_))) {
            after.entry(key).or_default().insert(None);
        }
        e.children().for_each(|c| walk(c, changes, after));
    }
    let changes: BTreeSet<String> = crate::syntax::ast::CHANGE_SIGNS
        .into_iter()
        .map(String::from)
        .filter(|k| !scope.defs.contains_key(k) && !scope.decls.contains_key(k))
        .filter(|k| !claim.reading.overrides.iter().any(|d| d.key == *k))
        .collect();
    let mut after = BTreeMap::new();
    walk(&claim.lhs, &changes, &mut after);
    walk(&claim.rhs, &changes, &mut after);
    let Some((change, letters)) = after.into_iter().next() else { return verdict };
    // (A refutation stands where Δ stands before one letter only, or before none: `\delta^2`
    // alone is a letter's power, no change of anything.)
    let before_a_letter = letters.iter().any(Option::is_some);
    match letters.iter().collect::<Vec<_>>().as_slice() {
        _ if verdict.status == Status::Refuted && (letters.len() == 1 || !before_a_letter) => verdict,
        [Some(letter)] => {
            let mut assuming = verdict.assuming.clone();
            assuming.push(format!(
                "{change} {letter} read as {change}\\cdot {letter}, which takes every value {change} {letter} does"
            ));
            Verdict { assuming, ..verdict }
        }
        _ => undecided_under(Reading::ChangeOrProduct, Some(change), None, verdict),
    }
}

// ---- The claims of one chain together ----------------------------------------------------------

/// `\psi^* P^2 = \psi^* P = \psi^*` after "stationary if `\psi^* P = \psi^*`": a link refuted
/// (with no slip's repair) in a chain another link of which reads as a constraint is derived
/// under it; it is undecided as a consequence of that condition, not an error.
pub(super) fn derived_under_constraint(mut checked: Vec<super::CheckedClaim>) -> Vec<super::CheckedClaim> {
    let formula = |id: &str| id.rsplit_once('.').map_or(id, |(head, _)| head).to_string();
    let constrained: BTreeSet<String> = checked
        .iter()
        .filter(|c| matches!(c.verdict.reason, Reason::OtherReading { reading: Reading::Constraint, .. }))
        .filter(|c| c.id.rsplit_once('.').is_some_and(|(head, _)| head.contains('#')))
        .map(|c| formula(&c.id))
        .collect();
    for claim in checked.iter_mut() {
        let verdict = &claim.verdict;
        let slip = verdict.suggestion.as_ref().is_some_and(is_slip);
        if verdict.status == Status::Refuted && !slip && constrained.contains(&formula(&claim.id)) {
            claim.verdict = undecided_under(Reading::Consequence, None, None, claim.verdict.clone());
        }
    }
    checked
}

// ---- Helpers ------------------------------------------------------------------------------------

/// `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial y_i}\frac{\partial
/// y_i}{\partial x_i}`, E defined nowhere, y from x: the claim checked again with E a function
/// nobody specified of the defined letters the claim differentiates it by, those upstream of
/// another left out (E of y, not of x, which reaches E through y)
/// ([`super::letters::general_function_arguments`]). Verified there, it holds for whatever E
/// the text means, as long as E depends on x through y, which the verdict states
/// (`\forall\, E(y)`); `None` otherwise (the claim stays undecided, never refuted so).
fn with_a_general_function(
    scope: &Scope,
    claim: &Claim,
    letter: &str,
    verdict: &Verdict,
    trial: &dyn Trial,
) -> Option<Verdict> {
    // (E of letters the notes define; else, where nothing defines the letters between, the
    // chain the claim draws: E of y, y of z.)
    let functions = match general_function_arguments(scope, claim, letter) {
        Some(arguments) => BTreeMap::from([(letter.to_string(), arguments)]),
        None => chain_of_unknown_letters(scope, claim)?,
    };
    let mut general = scope.clone();
    general.general_functions.extend(functions.clone());
    let again = trial.verdict_with_free_indices(&general);
    if again.status != Status::Verified {
        return None;
    }
    let mut assuming = verdict.assuming.clone();
    assuming.extend(again.assuming.iter().filter(|a| !verdict.assuming.contains(a)).cloned());
    let written: Vec<String> = functions
        .iter()
        .filter(|(_, arguments)| !arguments.is_empty())
        .map(|(letter, arguments)| format!("{letter}({})", arguments.join(", ")))
        .collect();
    assuming.push(format!("\\forall\\, {}", written.join(", ")));
    Some(Verdict { assuming, ..again })
}

/// `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial
/// x_i}` in a section on a layer, after an earlier section defined E as its own loss
/// (`E = -\sum_i t_i \log x_i`): notes reuse the letter for whatever loss comes downstream. A
/// claim left open with the earlier E, which holds with E a fresh letter and any function of the
/// letters it is differentiated through ([`with_a_general_function`]), holds for the loss the
/// text means: verified, saying so (`\forall\, E(y)`, `E` not the one of 60:1). Only a
/// verification (the reading [`Reading::EarlierMeaning`]).
pub(super) fn with_earlier_letter_general(
    scope: &Scope,
    claim: &Claim,
    verdict: &Verdict,
    trial: &dyn Trial,
) -> Option<Verdict> {
    if claim.reading.marked || scope.pinned || verdict.status == Status::Verified {
        return None;
    }
    let mut inherited: Vec<&Definition> = scope
        .defs
        .values()
        .filter(|d| d.inherited && !d.function && d.params.is_empty() && mentions(claim, &d.key))
        .collect();
    inherited.sort_by(|a, b| a.key.cmp(&b.key));
    let fresh = with_letters_general(scope, &inherited);
    let letter = derivative_of_a_free_letter(&fresh, claim)?;
    let earlier = inherited.iter().find(|d| d.key == letter)?;
    let mut again = with_a_general_function(&fresh, claim, &letter, verdict, trial)?;
    again.assuming.push(format!("{letter}\\ \\text{{not the one of {}}}", earlier.written_at()));
    Some(again)
}

/// `verdict` (a verification or a refutation) undecided under another `reading` the text leaves
/// open, naming `symbol` (and where the other meaning is written), with no repair offered.
pub(super) fn undecided_under(
    reading: crate::model::Reading,
    symbol: Option<String>,
    earlier: Option<String>,
    verdict: Verdict,
) -> Verdict {
    let reason = Reason::OtherReading { reading, symbol, earlier, refuted: verdict.status == Status::Refuted };
    Verdict { status: Status::Undecided, reason, suggestion: None, ..verdict }
}

/// The claim left undecided by `reason`, keeping what the check found.
fn undecided(reason: Reason, verdict: &Verdict) -> Verdict {
    Verdict { status: Status::Undecided, reason, ..verdict.clone() }
}

/// A refutation that another reading of the text would not give.
fn other_reading(reading: crate::model::Reading, symbol: Option<String>, earlier: Option<String>) -> Reason {
    Reason::OtherReading { reading, symbol, earlier, refuted: true }
}

#[cfg(test)]
#[path = "readings_tests.rs"]
mod tests;
