//! Tests of the readings (`super`): the catalogue, and each reading on scripted trials.

use super::*;
use crate::sema::Origin;

/// A new reading makes this match fail to compile until it is placed, here and in
/// [`TRIED`].
fn place(reading: Reading) -> usize {
    match reading {
        Reading::Condition => 0,
        Reading::Update => 1,
        Reading::Consequence => 2,
        Reading::Substitutes => 3,
        Reading::Redefinition => 4,
        Reading::SelfReferent => 5,
        Reading::RecurrenceNotRead => 6,
        Reading::Approximated => 7,
        Reading::RandomOrConstant => 8,
        Reading::Independent => 9,
        Reading::IndependentIdentical => 10,
        Reading::ZeroOne => 11,
        Reading::EqualVariables => 12,
        Reading::MutuallyExclusive => 13,
        Reading::MomentLetter => 14,
        Reading::DistributionValue => 15,
        Reading::ClassValues => 16,
        Reading::IndexedValues => 17,
        Reading::SolvedInPart => 18,
        Reading::OrderOfMagnitude => 19,
        Reading::DefinedLater => 20,
        Reading::ShapeFromUse => 21,
        Reading::MatrixKind => 22,
        Reading::EntryOf => 23,
        Reading::UnknownDerivative => 24,
        Reading::PowerOrIndex => 25,
        Reading::ApplicationOrProduct => 26,
        Reading::InverseOrPower => 27,
        Reading::OperatorOrProduct => 28,
        Reading::FunctionProperty => 29,
        Reading::EarlierCondition => 30,
        Reading::ConditionUnused => 31,
        Reading::LettersFromWords => 32,
        Reading::SumsToOne => 33,
        Reading::Symmetric => 34,
        Reading::Diagonal => 35,
        Reading::Orthogonal => 36,
        Reading::EarlierMeaning => 37,
        Reading::DeclaredElsewhere => 38,
        Reading::DefinedAndDeclared => 39,
        Reading::FamilyOfOneValue => 40,
        Reading::EulerOrLetter => 41,
        Reading::ImaginaryOrLetter => 42,
        Reading::MatrixForDeterminant => 43,
        Reading::SuperscriptLabel => 44,
        Reading::Constraint => 45,
        Reading::HoldsThroughLater => 46,
        Reading::ChangeOrProduct => 47,
        Reading::Convention => 48,
        Reading::Hypothesis => 49,
        Reading::SupposedInWords => 50,
    }
}

#[test]
fn the_catalogue_lists_every_reading_once_in_phase_order() {
    for (i, (reading, _)) in TRIED.iter().enumerate() {
        assert_eq!(place(*reading), i, "{reading:?}");
        assert!(reading.leaves_open().len() > 20, "{reading:?} says too little");
    }
    let phases: Vec<Phase> = TRIED.iter().map(|(_, phase)| *phase).collect();
    let order = [Phase::Words, Phase::Probability, Phase::Letters, Phase::Slip, Phase::Evidence];
    let rank = |p: &Phase| order.iter().position(|o| o == p);
    assert!(phases.windows(2).all(|w| rank(&w[0]) <= rank(&w[1])), "{phases:?}");
}

use crate::model::{Counterexample, Mismatch};
use crate::sema::Assumption;
use std::cell::Cell;

use crate::syntax::first_side as side;

/// A claim `lhs = rhs` read from the notes, with no words around it.
fn claim(lhs: &str, rhs: &str) -> Claim {
    let origin = Origin::Notes { formula: "t".into(), line: 3, col: 1, range: (0, 0) };
    Claim::for_tests("t", origin, &format!("{lhs} = {rhs}"), side(lhs), side(rhs))
}

/// Refuted at `point`.
fn refuted_at(point: &[(&str, f64)], lhs: f64, rhs: f64) -> Verdict {
    let point = point.iter().map(|(k, v)| (k.to_string(), *v)).collect();
    let mismatch = Mismatch::at_point(lhs, rhs, point, Method::Numeric);
    let counterexample = Counterexample { sizes: BTreeMap::new(), indices: BTreeMap::new(), mismatch: Some(mismatch) };
    let reason = Reason::Differs { entry: None, lhs, rhs, at: Vec::new(), difference: None };
    Verdict::refuted(Method::Numeric, String::new(), reason, counterexample)
}

/// A trial that gives the claim's verdict in a scope by a rule, counting how often it is asked.
struct Scripted<F: Fn(&Scope) -> Status> {
    rule: F,
    asked: Cell<usize>,
}

impl<F: Fn(&Scope) -> Status> Scripted<F> {
    fn new(rule: F) -> Self {
        Scripted { rule, asked: Cell::new(0) }
    }
}

impl<F: Fn(&Scope) -> Status> Trial for Scripted<F> {
    fn verdict_in(&self, scope: &Scope) -> Verdict {
        self.asked.set(self.asked.get() + 1);
        match (self.rule)(scope) {
            Status::Refuted => refuted_at(&[("x", 1.0)], 1.0, 2.0),
            // (Undecided as where a condition cannot be read.)
            Status::Undecided => Verdict::new(
                Status::Undecided,
                None,
                String::new(),
                Reason::NotRead { kind: crate::model::NotRead::NeedsSpec, detail: "scripted".into() },
            ),
            status => Verdict::new(
                status,
                Some(Method::Randomized),
                String::new(),
                Reason::Checked { assignments: 1, rounded: false },
            ),
        }
    }
    fn own_verdict_in(&self, scope: &Scope) -> Verdict {
        self.verdict_in(scope)
    }
    fn refuted_with_sizes_tied(&self, scope: &Scope) -> bool {
        self.verdict_in(scope).status == Status::Refuted
    }
    fn verdict_with_indices(
        &self,
        scope: &Scope,
        _: &[String],
        _: &IndexRange,
        _: &dyn Fn(&str) -> bool,
    ) -> (Verdict, Vec<String>) {
        (self.verdict_in(scope), Vec::new())
    }
}

#[test]
fn the_words_reading_leaves_a_refutation_undecided_without_a_trial() {
    let mut update = claim("t", "t+1");
    update.reading.alternative =
        Some(WordsReading { role: WordsRole::Update, symbol: Some("t".into()), earlier: None });
    let trial = Scripted::new(|_| Status::Refuted);
    let verdict = other_readings(&Scope::default(), &update, refuted_at(&[("t", 1.0)], 1.0, 2.0), &trial);
    assert_eq!(verdict.status, Status::Undecided);
    assert!(
        matches!(&verdict.reason, Reason::OtherReading { reading: Reading::Update, symbol: Some(t), refuted: true, .. } if t == "t"),
        "{:?}",
        verdict.reason
    );
    assert_eq!(trial.asked.get(), 0, "the words settle it: nothing is checked again");
    // Without the words, the refutation of a claim with no other reading stands.
    let plain = claim("t", "t+1");
    let verdict = other_readings(&Scope::default(), &plain, refuted_at(&[("t", 1.0)], 1.0, 2.0), &trial);
    assert_eq!(verdict.status, Status::Refuted, "{verdict:?}");
}

#[test]
fn a_counterexample_below_zero_is_tried_with_every_letter_positive() {
    let log = claim("\\ln(x^2)", "2\\ln x");
    let below_zero = || refuted_at(&[("x", -1.0)], 0.0, 1.0);
    // Verified with every letter positive: undecided, naming the letters.
    let positive =
        Scripted::new(|scope: &Scope| if scope.second_look.all_positive { Status::Verified } else { Status::Refuted });
    let verdict = other_readings(&Scope::default(), &log, below_zero(), &positive);
    assert!(matches!(&verdict.reason, Reason::HoldsForPositive { symbols } if symbols == &["x"]), "{verdict:?}");
    assert_eq!(verdict.status, Status::Undecided);
    // Refuted there too: the refutation stands.
    let never = Scripted::new(|_| Status::Refuted);
    assert_eq!(other_readings(&Scope::default(), &log, below_zero(), &never).status, Status::Refuted);
    assert!(never.asked.get() >= 1);
}

#[test]
fn a_condition_stated_before_the_claim_verifies_it_and_is_listed() {
    let mut sum = claim("a+b", "1");
    let condition = Assumption { tex: "a+b=1".into(), lhs: side("a+b"), rhs: side("1"), origin: "t.md:2:1".into() };
    sum.reading.conditions.stated.push(condition);
    let under_it =
        Scripted::new(|scope: &Scope| if scope.assumptions.is_empty() { Status::Refuted } else { Status::Verified });
    let verdict = other_readings(&Scope::default(), &sum, refuted_at(&[("a", 1.0), ("b", 1.0)], 2.0, 1.0), &under_it);
    assert_eq!(verdict.status, Status::Verified, "{verdict:?}");
    assert!(verdict.assuming.contains(&"a+b=1".to_string()), "{:?}", verdict.assuming);
    // Marked a claim by its author: no other reading is tried.
    sum.reading.marked = true;
    let verdict = other_readings(&Scope::default(), &sum, refuted_at(&[("a", 1.0), ("b", 1.0)], 2.0, 1.0), &under_it);
    assert_eq!(verdict.status, Status::Refuted, "{verdict:?}");
}

#[test]
fn a_condition_stated_before_that_cannot_be_read_leaves_a_refutation_undecided() {
    let mut power = claim("p^2 q", "p q");
    let condition = |tex: &str, lhs: &str, rhs: &str| Assumption {
        tex: tex.into(),
        lhs: side(lhs),
        rhs: side(rhs),
        origin: "t.md:2:1".into(),
    };
    power.reading.conditions.stated.push(condition("qp=q", "qp", "q"));
    let unreadable =
        Scripted::new(|s: &Scope| if s.assumptions.is_empty() { Status::Refuted } else { Status::Undecided });
    let refuted = || refuted_at(&[("p", 2.0), ("q", 1.0)], 4.0, 2.0);
    let verdict = other_readings(&Scope::default(), &power, refuted(), &unreadable);
    assert!(matches!(&verdict.reason, Reason::OtherReading { reading: Reading::ConditionUnused, .. }), "{verdict:?}");
    // Read, and still false under it: the refutation stands.
    let read = Scripted::new(|_: &Scope| Status::Refuted);
    assert_eq!(other_readings(&Scope::default(), &power, refuted(), &read).status, Status::Refuted);
    // A condition on other letters says nothing of this claim.
    power.reading.conditions.stated = vec![condition("r=1", "r", "1")];
    assert_eq!(other_readings(&Scope::default(), &power, refuted(), &unreadable).status, Status::Refuted);
}

#[test]
fn a_letter_raised_to_minus_one_before_a_parenthesis_may_be_an_inverse_function() {
    let inverse = claim("f^{-1}(z)", "2z+1");
    let trial = Scripted::new(|_| Status::Refuted);
    let verdict = other_readings(&Scope::default(), &inverse, refuted_at(&[("f", 2.0), ("z", 1.0)], 0.5, 3.0), &trial);
    assert!(
        matches!(&verdict.reason, Reason::OtherReading { reading: Reading::InverseOrPower, symbol: Some(f), .. } if f == "f"),
        "{verdict:?}"
    );
    // A value the section gives f: a power, and the refutation stands.
    let mut valued = Scope::default();
    valued.defs.insert(
        "f".into(),
        Definition {
            key: "f".into(),
            params: Vec::new(),
            body: side("2"),
            origin: "t.md:1:1".into(),
            from_notes: true,
            function: false,
            inherited: false,
            section_only: false,
        },
    );
    let verdict = other_readings(&valued, &inverse, refuted_at(&[("z", 1.0)], 0.5, 3.0), &trial);
    assert_eq!(verdict.status, Status::Refuted, "{verdict:?}");
}

#[test]
fn a_derivative_of_a_letter_nothing_defines_refutes_nothing() {
    let derivative = claim("\\frac{dy}{dx}", "2x");
    let trial = Scripted::new(|_| Status::Refuted);
    let verdict = other_readings(&Scope::default(), &derivative, refuted_at(&[("x", 1.0)], 0.0, 2.0), &trial);
    assert!(
        matches!(&verdict.reason, Reason::OtherReading { reading: Reading::UnknownDerivative, refuted: true, .. }),
        "{verdict:?}"
    );
    // Marked a claim by its author: the letter is what it is, and the refutation stands.
    let mut marked = derivative.clone();
    marked.reading.marked = true;
    let verdict = other_readings(&Scope::default(), &marked, refuted_at(&[("x", 1.0)], 0.0, 2.0), &trial);
    assert_eq!(verdict.status, Status::Refuted);
}

#[test]
fn a_failing_probability_claim_is_read_in_order() {
    let fails = |random_letter: Option<&str>, holds_when: Option<Family>, specifies: bool| Outcome::Fails {
        lhs: 0.1,
        rhs: 0.2,
        point: Vec::new(),
        domains: String::new(),
        holds_when,
        holds_checked: 4,
        specifies,
        random_letter: random_letter.map(String::from),
        variables: vec!["X".into(), "Y".into()],
        unions: false,
        indexed_values: false,
    };
    let none = || None;
    let plain = claim("P(X)", "P(Y)");
    let read = |outcome: &Outcome, claim: &Claim, classes: &dyn Fn() -> Option<String>| {
        of_probability_failure(claim, outcome, &none, classes)
    };
    assert_eq!(
        read(&fails(Some("a"), Some(Family::Independent), false), &plain, &none),
        ProbabilityReading::Other(Reading::RandomOrConstant, Some("a".into()))
    );
    assert_eq!(
        read(&fails(None, Some(Family::Independent), true), &plain, &none),
        ProbabilityReading::Other(Reading::Independent, Some("X, Y".into()))
    );
    let mut stated = plain.clone();
    stated.reading.independence = Some(crate::model::Independence::Independent);
    assert_eq!(
        read(&fails(None, Some(Family::Independent), false), &stated, &none),
        ProbabilityReading::Stated(Family::Independent)
    );
    assert_eq!(
        read(&fails(None, None, true), &plain, &none),
        ProbabilityReading::Other(Reading::DistributionValue, None)
    );
    let classes = || Some("C_1, C_2".to_string());
    assert_eq!(
        read(&fails(None, None, false), &plain, &classes),
        ProbabilityReading::Other(Reading::ClassValues, Some("C_1, C_2".into()))
    );
    assert_eq!(read(&fails(None, None, false), &plain, &none), ProbabilityReading::Stands);
    let mut union = fails(None, None, false);
    if let Outcome::Fails { unions, .. } = &mut union {
        *unions = true;
    }
    assert_eq!(read(&union, &plain, &none), ProbabilityReading::Other(Reading::MutuallyExclusive, Some("X, Y".into())));
    let mut indexed = fails(None, None, false);
    if let Outcome::Fails { indexed_values, variables, .. } = &mut indexed {
        *indexed_values = true;
        *variables = vec!["C_i".into(), "X".into()];
    }
    assert_eq!(
        read(&indexed, &plain, &none),
        ProbabilityReading::Other(Reading::IndexedValues, Some("c_i of C_i".into()))
    );
}

#[test]
fn every_words_role_has_its_reading() {
    for role in [
        WordsRole::Condition,
        WordsRole::Update,
        WordsRole::Consequence,
        WordsRole::Substitutes,
        WordsRole::Redefinition,
        WordsRole::SelfReferent,
        WordsRole::RecurrenceNotRead,
        WordsRole::Approximated,
    ] {
        let reading = of_words(role);
        assert!(TRIED.iter().any(|(r, phase)| *r == reading && *phase == Phase::Words), "{role:?}");
    }
}
