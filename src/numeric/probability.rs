//! Claims about probabilities and expectations of discrete random variables, checked on random
//! joint distributions.
//!
//! Takes: a claim's two sides as the parser gave them (`P(A \mid B)`, `P(A=a, B)`, `p(y \mid x)`,
//! `\sum_a`, `E[X]`, `\mathbb E_{x \sim P}[f(x)]`, `\mathrm{Var}[X]`, `\mathrm{Cov}(X, Y)`).
//! Gives: an [`Outcome`]: the claim is not about probabilities; or it holds on every joint
//! distribution drawn, at every value of its free letters; or it fails on one, with the
//! special families (independent, independent and identically distributed, 0/1-valued) it holds
//! on, if any.
//!
//! The reading: a capital letter in an event (`P(A)`, `P(X=x)`) or inside an expectation is a
//! random variable; a bare one in an event stands for "takes its value" (`P(A, B)` is
//! P(A=a, B=b) for every a, b); a small letter in an event is the value of the variable of the
//! same capital letter (`p(y \mid x)` is P(Y=y | X=x)); a small letter after `=` in an event, or
//! bound by `\sum_x` or `E_{x\sim P}`, is a value; every other letter is a constant, except a
//! small letter met only inside expectations, which may be random or constant: both readings are
//! tried, and must agree (the author's `claim` mark reads it as a constant); one written outside
//! every expectation too is a constant. The verdict names the letters read as constants
//! (`a, b ∈ ℝ`). A random variable outside every expectation makes the claim one between random
//! quantities, checked at every outcome (`(X-E[X])^2 = X^2-2XE[X]+E[X]^2`). A variable the
//! claim compares with two numbers or more takes exactly those values (`H = 0`, `H = 1`:
//! H ∈ {0, 1}); any other takes 2 or 3 distinct small integers (with the one
//! number written, if any). Each draw gives every cell of the joint table a random positive weight.
//! Evaluation is in floating point: agreement to 10⁻⁹ (relative) at every draw and every value
//! verifies — numeric evidence, over the distributions drawn.

use crate::syntax::ast::{Expr, ExprKind};
use rand::{Rng, SeedableRng};
use std::collections::{BTreeMap, BTreeSet};

mod reader;
use reader::*;
pub use reader::{is_expectation_operator, is_moment};

/// What the check found.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Not a claim about probabilities, or one this reading refuses (a set, a density over a
    /// continuum, a conditional expectation).
    NotProbability,
    /// The sides agree on every one of the [`DRAWS`] joint distributions: `values` assignments
    /// of the free values in all; `domains` says what the variables ranged over.
    Holds { values: usize, domains: String },
    /// The sides differ on a general joint distribution.
    Fails {
        lhs: f64,
        rhs: f64,
        /// The free values and constants at the counterexample, then the joint distribution.
        point: Vec<(String, f64)>,
        domains: String,
        /// The special family under which the claim holds, if one does: a condition the words
        /// may state.
        holds_when: Option<Family>,
        /// How many assignments of the free values were checked under `holds_when` (0 without).
        holds_checked: usize,
        /// A side with no probability or expectation in it: a value the text gives the
        /// distribution (`P(H=1) = 0.0015`), not an identity.
        specifies: bool,
        /// A small letter read as a constant that, read as random, makes the claim hold.
        random_letter: Option<String>,
        /// A union of events was read (`P(A \cup B)`): false for general events, it may hold
        /// for mutually exclusive ones, which derivcheck does not draw.
        unions: bool,
        /// The random variables, in name order.
        variables: Vec<String>,
        /// Values with an index were read as values of variables of their own (`x_3` of X_3):
        /// the text may mean values of one variable.
        indexed_values: bool,
    },
    /// Some draw could not be evaluated (a probability conditioned on an impossible event).
    NotEvaluable,
}

/// `E(C_1 X + C_2 Y) = C_1 E(X) + C_2 E(Y)`: a capital letter written inside an expectation and
/// outside every one as a factor beside an expectation is a coefficient as often as a random
/// variable (not `X` of `(X - E[X])^2`, a term). Where the
/// claim, failing with such capitals random, holds with them constants, the first of them: the
/// refutation does not stand. `None` otherwise.
fn coefficient_reading((lhs, rhs): (&Expr, &Expr), read: &Reader) -> Option<String> {
    let mut beside_expectations = BTreeSet::new();
    coefficient_capitals(lhs, &mut beside_expectations);
    coefficient_capitals(rhs, &mut beside_expectations);
    let capitals: BTreeSet<String> = read
        .variables
        .iter()
        .filter(|k| read.letters_outside.contains(*k) && beside_expectations.contains(*k))
        .cloned()
        .collect();
    let first = capitals.first()?.clone();
    let mut again = Reader {
        information: read.information,
        parameters: read.parameters.clone(),
        constant_capitals: capitals,
        ..Reader::default()
    };
    let (Ok(l), Ok(r)) = (again.node(lhs), again.node(rhs)) else { return None };
    let claim = Claim { lhs: l, rhs: r, reader: again, law: None };
    matches!(claim.compare(&[], Draw::Joint, 5), Compared::Holds { .. }).then_some(first)
}

/// Special joint distributions a text may assume in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Family {
    Independent,
    IndependentIdentical,
    ZeroOne,
    /// Every variable equal to the first (one a copy of the other, or an invertible function of
    /// it, up to renaming its values).
    Equal,
}

impl Family {
    /// Does the independence the words state give this family? Independent and identically
    /// distributed variables are independent; the converse needs the words.
    pub fn covered_by(self, stated: Option<crate::model::Independence>) -> bool {
        use crate::model::Independence;
        matches!(
            (stated, self),
            (Some(Independence::Independent | Independence::IndependentIdentical), Family::Independent)
                | (Some(Independence::IndependentIdentical), Family::IndependentIdentical)
        )
    }
}

#[derive(Debug, Clone)]
enum Node {
    Number(f64),
    /// A letter: a value, a constant, or (inside an expectation) a random variable's value.
    Letter(String),
    Neg(Box<Node>),
    Add(Box<Node>, Box<Node>),
    Sub(Box<Node>, Box<Node>),
    Mul(Box<Node>, Box<Node>),
    Div(Box<Node>, Box<Node>),
    Pow(Box<Node>, Box<Node>),
    Exp(Box<Node>),
    Ln(Box<Node>),
    Sqrt(Box<Node>),
    /// `|x|`.
    Abs(Box<Node>),
    /// A function nobody specified, applied: a random value per argument.
    Unknown(String, Vec<Node>),
    Prob {
        events: Vec<Event>,
        given: Vec<Event>,
    },
    Expect(Box<Node>),
    /// The entropy of the variables `of` given the variables `given`, in nats: H(of ∪ given) −
    /// H(given), each the −Σ p log p of the marginal table.
    Entropy {
        of: Vec<String>,
        given: Vec<String>,
    },
    /// `\sum_x body` over the values of x's variable.
    Over {
        value: String,
        body: Box<Node>,
    },
}

#[derive(Debug, Clone)]
struct Event {
    variable: String,
    value: Val,
    /// `\bar A`: the complement, the variable taking any other value.
    negated: bool,
}

#[derive(Debug, Clone)]
enum Val {
    Number(f64),
    /// A value letter (`x` in `X = x`), or a variable's own value (`A` in `P(A)`), by name.
    Named(String),
}

/// The name under which a bare variable's own value is assigned (`P(A)`: A takes "=A").
fn own(variable: &str) -> String {
    format!("={variable}")
}

/// The events of one `P(…)` as they are read: before `\mid`, then given.
#[derive(Default)]
struct Events {
    events: Vec<Event>,
    given: Vec<Event>,
    after_mid: bool,
}

/// One joint distribution: the variables' values and a weight per cell of their table.
struct World {
    variables: Vec<String>,
    domains: Vec<Vec<f64>>,
    cells: Vec<(Vec<usize>, f64)>,
    constants: BTreeMap<String, f64>,
    seed: u64,
}

struct Claim {
    lhs: Node,
    rhs: Node,
    reader: Reader,
    /// The one variable's distribution as the words give it: its values and their
    /// probabilities, in the constants.
    law: Option<(String, Vec<(Node, Node)>)>,
}

/// Most cells of a joint table, and most assignments of free values, a check evaluates.
const MAX_CELLS: usize = 729;
/// Joint distributions drawn per reading.
pub const DRAWS: usize = 6;

/// What the notes make of a letter, for [`check`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Meaning {
    /// Nothing: a free letter.
    None,
    /// Defined as a lone letter or number (`A = a` in prose: an event, for a variable), or an
    /// index a sum runs over.
    Letter,
    /// Defined by a formula, or declared (a shape, a set).
    Formula,
    /// Defined by a formula of random variables (capital letters: `Y = (Y_1, \ldots, Y_n)^T`,
    /// `Y = aX + b`): a random quantity, any variable for a claim that holds for every one.
    RandomFormula,
}

/// What the words say of a claim's letters, for [`check`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Words<'a> {
    /// The author marked it a claim: small letters are constants.
    pub marked: bool,
    /// Letters the words call numbers (`numbers $a$ and $b$`): constants.
    pub constants: &'a [String],
    /// The words name entropy or mutual information: `H(X)`, `I(X, Y)` of random variables are
    /// those.
    pub information: bool,
    /// Distributions the words give variables value by value.
    pub laws: &'a [crate::sema::Law],
}

/// Checks a claim whose sides speak of probabilities or expectations. `defined` says what the
/// notes make of a letter (a claim using one they give a meaning is not read here); `words`,
/// which small letters the author or the words make constants.
pub fn check(lhs: &Expr, rhs: &Expr, defined: &dyn Fn(&str) -> Meaning, words: Words) -> Outcome {
    let marked = words.marked;
    let sides = (lhs, rhs);
    let mut parameters = BTreeSet::new();
    fn symbols(e: &Expr, out: &mut BTreeSet<String>) {
        if let (ExprKind::Symbol(_), Some(key)) = (&e.kind, e.symbol_key()) {
            out.insert(key);
        }
        e.children().for_each(|c| symbols(c, out));
    }
    for (value, p) in words.laws.iter().flat_map(|law| &law.outcomes) {
        symbols(value, &mut parameters);
        symbols(p, &mut parameters);
    }
    let mut reader = Reader { information: words.information, parameters, ..Reader::default() };
    let (Ok(l), Ok(r)) = (reader.node(lhs), reader.node(rhs)) else { return Outcome::NotProbability };
    if reader.operators == 0 {
        return Outcome::NotProbability;
    }
    // `P(y \mid \theta) = \sum_z P(y, z \mid \theta)`: a claim about one distribution of a
    // family, every probability given the same parameters, holds for it where it holds for every
    // joint distribution. Only verified: the family may be a model the text has in mind, where
    // a claim false in general holds.
    let given = reader.given_parameters.first().cloned().unwrap_or_default();
    let parameterised = !given.is_empty();
    if parameterised
        && (reader.given_parameters.len() != reader.operators || reader.given_parameters.iter().any(|p| *p != given))
    {
        return Outcome::NotProbability;
    }
    // A value letter inside an expectation (`p(x) = e^{-E(x)}/Z`: E an energy, x a value of X)
    // says E is not one.
    if reader.letters_inside.iter().any(|k| reader.pairs.contains_key(k)) {
        return Outcome::NotProbability;
    }
    // `E[X^2] = (a-2)^2p + a^2(1-2p) + (a+2)^2p` where the words give X value by value.
    let law =
        words.laws.iter().rev().find(|law| reader.variables.len() == 1 && reader.variables.contains(&law.variable));
    if let Some(outcome) = law.and_then(|law| check_under_law(&l, &r, &reader, law)) {
        return outcome;
    }
    // A letter the notes give a meaning: a constant defined by a formula may be random
    // (`a = Y + 1`), a variable defined by numbers is none (a matrix `A`): the claim is not read.
    // A variable defined by random variables (`Y = aX + b`, `Y = (Y_1, …, Y_n)`), or a constant
    // named by a lone letter or number (prose writing an event, `$A=a$ and $B=b$ both hold`),
    // is read as free all the same, to verify only: what holds for every joint distribution and
    // every value holds for the ones the notes give.
    let values: BTreeSet<&String> = reader.pairs.keys().collect();
    let constant = |key: &&String| !values.contains(*key) && !reader.variables.contains(*key);
    let mut constants = reader.letters_outside.iter().chain(&reader.letters_inside).filter(constant);
    if constants.clone().any(|key| matches!(defined(key), Meaning::Formula | Meaning::RandomFormula))
        || reader.variables.iter().any(|k| defined(k) == Meaning::Formula)
    {
        return Outcome::NotProbability;
    }
    let given_a_meaning = constants.any(|key| defined(key) != Meaning::None)
        || reader.variables.iter().any(|k| defined(k) == Meaning::RandomFormula);
    let verify_only = parameterised || given_a_meaning || reader.unknown_summed;
    // `p` the parameter of an example (`if $p=0$`) says nothing of a claim that never writes p.
    let written = |k: &str| mentions(lhs, k) || mentions(rhs, k);
    if ["P", "p", "E"]
        .into_iter()
        .filter(|k| written(k))
        .chain(reader.unknown.iter().chain(&reader.measures).map(String::as_str))
        .any(|k| defined(k) != Meaning::None)
    {
        return Outcome::NotProbability;
    }
    // Small letters met only inside expectations (and not values): random or constant? Both
    // readings must agree, unless the author marked the claim, which reads them as constants. A
    // letter written outside every expectation too is a constant (`E[aX+b] = aE[X]+b`; the
    // verdict lists the constants).
    let maybe_random: Vec<String> = if marked {
        Vec::new()
    } else {
        reader
            .letters_inside
            .iter()
            .filter(|k| !is_capital(k) && !values.contains(k) && !reader.variables.contains(*k))
            .filter(|k| !reader.letters_outside.contains(*k) && !words.constants.contains(*k))
            .cloned()
            .collect()
    };
    let claim = Claim { lhs: l, rhs: r, reader, law: None };
    let general = claim.compare(&[], Draw::Joint, 1);
    let domains = claim.describe_domains();
    let variables: Vec<String> = claim.reader.variables.iter().cloned().collect();
    match general {
        Compared::NotEvaluable => Outcome::NotEvaluable,
        Compared::Holds { values } => {
            if !maybe_random.is_empty()
                && !matches!(claim.compare(&maybe_random, Draw::Joint, 2), Compared::Holds { .. })
            {
                return Outcome::Fails {
                    lhs: f64::NAN,
                    rhs: f64::NAN,
                    point: vec![],
                    domains,
                    holds_when: None,
                    holds_checked: 0,
                    specifies: false,
                    random_letter: maybe_random.first().cloned(),
                    variables,
                    unions: false,
                    indexed_values: claim.reader.indexed_values,
                };
            }
            Outcome::Holds { values, domains }
        }
        Compared::Differs { .. } if verify_only => Outcome::NotProbability,
        Compared::Differs { lhs, rhs, point } => {
            // Equal variables make most probabilities 0 or 1: only a claim between entropies
            // says something there.
            let equal = entropies_only(&claim.lhs) && entropies_only(&claim.rhs);
            let families = [Family::Independent, Family::IndependentIdentical, Family::ZeroOne, Family::Equal];
            let special = families.into_iter().filter(|f| equal || *f != Family::Equal).find_map(|f| {
                match claim.compare(&[], Draw::Special(f), 3) {
                    Compared::Holds { values } => Some((f, values)),
                    _ => None,
                }
            });
            let (holds_when, holds_checked) = (special.map(|(f, _)| f), special.map_or(0, |(_, n)| n));
            let random_letter = (!maybe_random.is_empty()
                && matches!(claim.compare(&maybe_random, Draw::Joint, 4), Compared::Holds { .. }))
            .then(|| maybe_random[0].clone())
            .or_else(|| (!marked).then(|| coefficient_reading(sides, &claim.reader)).flatten());
            let specifies = !has_operator(&claim.lhs) || !has_operator(&claim.rhs);
            let unions = claim.reader.unions;
            let indexed_values = claim.reader.indexed_values;
            Outcome::Fails {
                lhs,
                rhs,
                point,
                domains,
                holds_when,
                holds_checked,
                specifies,
                random_letter,
                variables,
                unions,
                indexed_values,
            }
        }
    }
}

/// A claim about one variable whose distribution the words give value by value, checked with
/// that distribution at random values of its parameters (every probability in (0, 1], their sum
/// one): `None` where the claim writes a letter the law does not (then it is read as any other
/// claim), or the law is not one of numbers in its letters.
fn check_under_law(l: &Node, r: &Node, reader: &Reader, law: &crate::sema::Law) -> Option<Outcome> {
    let mut reader = reader.clone();
    let values: BTreeSet<String> = reader.pairs.keys().cloned().collect();
    let constants: BTreeSet<String> = reader
        .letters_outside
        .iter()
        .chain(&reader.letters_inside)
        .filter(|k| !values.contains(*k) && !reader.variables.contains(*k))
        .cloned()
        .collect();
    let mut outcomes = Vec::new();
    for (value, p) in &law.outcomes {
        let (value, p) = (reader.node(value).ok()?, reader.node(p).ok()?);
        if has_operator(&value) || has_operator(&p) {
            return None;
        }
        outcomes.push((value, p));
    }
    let mut letters = BTreeSet::new();
    outcomes.iter().for_each(|(v, p)| {
        node_letters(v, &mut letters);
        node_letters(p, &mut letters);
    });
    if letters.contains(&law.variable) || !constants.iter().all(|k| letters.contains(k)) {
        return None;
    }
    // (Read outside every expectation, the law's letters are now constants of the claim.)
    let claim = Claim { lhs: l.clone(), rhs: r.clone(), reader, law: Some((law.variable.clone(), outcomes)) };
    let names: Vec<&str> = letters.iter().map(String::as_str).collect();
    let domains = format!(
        "{} as the words give it, at {} ∈ ℝ where every probability is in (0, 1]",
        law.variable,
        names.join(", ")
    );
    let variables = vec![law.variable.clone()];
    Some(match claim.compare(&[], Draw::Joint, 1) {
        Compared::Holds { values } => Outcome::Holds { values, domains },
        Compared::NotEvaluable => Outcome::NotEvaluable,
        Compared::Differs { lhs, rhs, point } => Outcome::Fails {
            lhs,
            rhs,
            point,
            domains,
            holds_when: None,
            holds_checked: 0,
            specifies: false,
            random_letter: None,
            variables,
            unions: false,
            indexed_values: false,
        },
    })
}

/// The letters a node reads (constants and values).
fn node_letters(n: &Node, out: &mut BTreeSet<String>) {
    match n {
        Node::Letter(k) => {
            out.insert(k.clone());
        }
        Node::Number(_) | Node::Prob { .. } | Node::Entropy { .. } => {}
        Node::Neg(a) | Node::Exp(a) | Node::Ln(a) | Node::Sqrt(a) | Node::Abs(a) | Node::Expect(a) => {
            node_letters(a, out)
        }
        Node::Add(a, b) | Node::Sub(a, b) | Node::Mul(a, b) | Node::Div(a, b) | Node::Pow(a, b) => {
            node_letters(a, out);
            node_letters(b, out);
        }
        Node::Unknown(_, args) => args.iter().for_each(|a| node_letters(a, out)),
        Node::Over { body, .. } => node_letters(body, out),
    }
}

/// A side worked out from the probabilities the text gives: its value, and which of the given
/// values it used (indices into the list passed), and the variables read as taking exactly two
/// values (a complement `P(H=0) = 1 - P(H=1)` was used for them).
#[derive(Debug, Clone, PartialEq)]
pub struct WorkedOut {
    pub value: f64,
    pub used: Vec<usize>,
    pub two_valued: Vec<String>,
    /// A probability used was given two different numbers (two examples, one letter): the
    /// latest was taken, and a difference proves nothing.
    pub contested: bool,
}

/// Evaluates `e` — numbers and probabilities of events `V = number` combined by arithmetic —
/// with the probabilities `given` (each a `P(…)`, its number, and whether it may be used here:
/// given before `e`, outside its formula): every probability in `e` must be a usable one, or
/// the complement of one for a variable the given values show with exactly two values (`H = 0`
/// and `H = 1` in a table), under the same condition. `None` where `e` has no probability, is a
/// lone probability (a value stated, not worked out), or uses one not given. A probability the
/// section gives two different numbers anywhere makes the result `contested`.
pub fn worked_out(e: &Expr, given: &[(&Expr, f64, bool)]) -> Option<WorkedOut> {
    let known = Known::read(given);
    let mut reader = Reader::default();
    let node = reader.node(e).ok()?;
    if reader.operators == 0 || matches!(node, Node::Prob { .. }) {
        return None;
    }
    let mut out = WorkedOut { value: 0.0, used: Vec::new(), two_valued: Vec::new(), contested: false };
    out.value = known.eval(&node, &mut out)?;
    out.used.sort_unstable();
    out.used.dedup();
    out.value.is_finite().then_some(out)
}

/// A probability of events `V = number`, by its events and its condition (each sorted).
type EventsKey = (Vec<(String, u64)>, Vec<(String, u64)>);

fn events_key(events: &[Event], given: &[Event]) -> Option<EventsKey> {
    let numbers = |list: &[Event]| -> Option<Vec<(String, u64)>> {
        let mut out: Vec<(String, u64)> = list
            .iter()
            .map(|ev| match ev.value {
                Val::Number(x) if !ev.negated => Some((ev.variable.clone(), (x + 0.0).to_bits())),
                Val::Number(_) | Val::Named(_) => None,
            })
            .collect::<Option<_>>()?;
        out.sort();
        Some(out)
    };
    Some((numbers(events)?, numbers(given)?))
}

/// The probabilities [`worked_out`] may use.
struct Known {
    /// The latest usable value of each probability, with its index in the list given.
    values: BTreeMap<EventsKey, (f64, usize)>,
    /// The values each variable is seen with in the usable probabilities.
    seen: BTreeMap<String, BTreeSet<u64>>,
    /// Probabilities the whole list gives two different numbers.
    contested: BTreeSet<EventsKey>,
}

impl Known {
    fn read(given: &[(&Expr, f64, bool)]) -> Known {
        let mut known = Known { values: BTreeMap::new(), seen: BTreeMap::new(), contested: BTreeSet::new() };
        let mut every_value: BTreeMap<EventsKey, f64> = BTreeMap::new();
        for (k, (term, value, usable)) in given.iter().enumerate() {
            let mut reader = Reader::default();
            let Ok(Node::Prob { events, given }) = reader.node(term) else { continue };
            let Some(key) = events_key(&events, &given) else { continue };
            if every_value.insert(key.clone(), *value).is_some_and(|other| other != *value) {
                known.contested.insert(key.clone());
            }
            if !usable {
                continue;
            }
            for (variable, bits) in key.0.iter().chain(&key.1) {
                known.seen.entry(variable.clone()).or_default().insert(*bits);
            }
            // The latest value given before wins (the list is in the order of the text).
            known.values.insert(key, (*value, k));
        }
        known
    }

    /// A probability's value: given, or the complement of one event `V = v` where V is seen with
    /// exactly two values. Notes in `out` which given values it used.
    fn lookup(&self, key: &EventsKey, out: &mut WorkedOut) -> Option<f64> {
        let mut take = |key: &EventsKey| {
            let (value, k) = self.values.get(key)?;
            out.used.push(*k);
            out.contested |= self.contested.contains(key);
            Some(*value)
        };
        if let Some(value) = take(key) {
            return Some(value);
        }
        let [(variable, bits)] = key.0.as_slice() else { return None };
        let values = self.seen.get(variable).filter(|v| v.len() == 2 && v.contains(bits))?;
        let other = values.iter().find(|b| *b != bits)?;
        let value = take(&(vec![(variable.clone(), *other)], key.1.clone()))?;
        if !out.two_valued.contains(variable) {
            out.two_valued.push(variable.clone());
        }
        Some(1.0 - value)
    }

    fn eval(&self, node: &Node, out: &mut WorkedOut) -> Option<f64> {
        Some(match node {
            Node::Number(x) => *x,
            Node::Neg(a) => -self.eval(a, out)?,
            Node::Add(a, b) => self.eval(a, out)? + self.eval(b, out)?,
            Node::Sub(a, b) => self.eval(a, out)? - self.eval(b, out)?,
            Node::Mul(a, b) => self.eval(a, out)? * self.eval(b, out)?,
            Node::Div(a, b) => self.eval(a, out)? / self.eval(b, out)?,
            Node::Pow(a, b) => self.eval(a, out)?.powf(self.eval(b, out)?),
            Node::Sqrt(a) => self.eval(a, out)?.sqrt(),
            Node::Abs(a) => self.eval(a, out)?.abs(),
            Node::Prob { events, given } => self.lookup(&events_key(events, given)?, out)?,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy)]
enum Draw {
    Joint,
    Special(Family),
}

enum Compared {
    Holds { values: usize },
    Differs { lhs: f64, rhs: f64, point: Vec<(String, f64)> },
    NotEvaluable,
}

impl Claim {
    /// What the variables ranged over, and the letters read as constants: `|A| = 2, 3; H ∈ {0, 1};
    /// a, b ∈ ℝ`.
    fn describe_domains(&self) -> String {
        let mut parts: Vec<String> = self
            .reader
            .variables
            .iter()
            .map(|v| match self.reader.written.get(v).filter(|w| w.len() >= 2) {
                Some(w) => format!("{v} ∈ {{{}}}", w.iter().map(|x| number(*x)).collect::<Vec<_>>().join(", ")),
                None => format!("|{v}| = 2, 3"),
            })
            .collect();
        for v in &self.reader.integrals {
            parts.push(format!("\\int \\cdot\\, d{v} = \\sum_{v}"));
        }
        if let Some(given) = self.reader.given_parameters.first().filter(|p| !p.is_empty()) {
            parts.push(format!("P(\\cdot \\mid {}) any distribution", given.join(", ")));
        }
        let constants = self.constants(&[]);
        if !constants.is_empty() {
            let names: Vec<&str> = constants.into_iter().map(String::as_str).collect();
            parts.push(format!("{} ∈ ℝ", names.join(", ")));
        }
        parts.join("; ")
    }

    /// The letters read as constants: neither a value nor a variable (nor one of `random`, the
    /// small letters read as random variables).
    fn constants(&self, random: &[String]) -> BTreeSet<&String> {
        let reader = &self.reader;
        reader
            .letters_outside
            .iter()
            .chain(&reader.letters_inside)
            .filter(|k| !reader.pairs.contains_key(*k) && !reader.variables.contains(*k) && !random.contains(k))
            .collect()
    }

    fn world(&self, random: &[String], draw: Draw, k: usize, seed: u64) -> Option<World> {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        if let Some((variable, outcomes)) = &self.law {
            return self.law_world(variable, outcomes, &mut rng, seed);
        }
        let mut variables: Vec<String> = self.reader.variables.iter().cloned().collect();
        variables.extend(random.iter().cloned());
        let zero_one = matches!(draw, Draw::Special(Family::ZeroOne));
        let identical = matches!(draw, Draw::Special(Family::IndependentIdentical | Family::Equal));
        let equal = matches!(draw, Draw::Special(Family::Equal));
        // Variables compared with numbers keep those values: not made copies of each other.
        if equal && !self.reader.written.is_empty() {
            return None;
        }
        let mut domains: Vec<Vec<f64>> = Vec::new();
        for v in &variables {
            if let (true, Some(first)) = (identical, domains.first()) {
                domains.push(first.clone());
                continue;
            }
            let written = self.reader.written.get(v).cloned().unwrap_or_default();
            let fixed = written.len() >= 2;
            let mut domain = if !fixed && zero_one { vec![0.0, 1.0] } else { written };
            let size = if fixed {
                0
            } else if zero_one {
                2
            } else {
                k
            };
            while domain.len() < size {
                let candidate = f64::from(rng.random_range(-4i32..=6));
                if !domain.contains(&candidate) {
                    domain.push(candidate);
                }
            }
            domains.push(domain);
        }
        let table = every_index(&domains.iter().map(Vec::len).collect::<Vec<_>>())?;
        let weight = |rng: &mut rand::rngs::StdRng| f64::from(rng.random_range(1u32..=20));
        let marginals: Vec<Vec<f64>> = match draw {
            Draw::Special(Family::IndependentIdentical) => {
                let longest = domains.iter().map(Vec::len).max().unwrap_or(0);
                let shared: Vec<f64> = (0..longest).map(|_| weight(&mut rng)).collect();
                domains.iter().map(|d| shared[..d.len()].to_vec()).collect()
            }
            _ => domains.iter().map(|d| d.iter().map(|_| weight(&mut rng)).collect()).collect(),
        };
        let marginals: Vec<Vec<f64>> = marginals
            .into_iter()
            .map(|m| {
                let total: f64 = m.iter().sum();
                m.into_iter().map(|w| w / total).collect()
            })
            .collect();
        let independent = matches!(draw, Draw::Special(Family::Independent | Family::IndependentIdentical));
        let mut cells = Vec::with_capacity(table.len());
        for index in table {
            if equal && index.iter().any(|i| *i != index[0]) {
                continue;
            }
            let w =
                if independent { index.iter().zip(&marginals).map(|(i, m)| m[*i]).product() } else { weight(&mut rng) };
            cells.push((index, w));
        }
        let total: f64 = cells.iter().map(|c| c.1).sum();
        cells.iter_mut().for_each(|c| c.1 /= total);
        let constants = self.draw_constants(random, &mut rng);
        Some(World { variables, domains, cells, constants, seed })
    }

    /// A value for each constant (`random`: small letters read as random variables instead): a
    /// tenth between −3 and 3, shifted off the round numbers.
    fn draw_constants(&self, random: &[String], rng: &mut rand::rngs::StdRng) -> BTreeMap<String, f64> {
        (self.constants(random).into_iter())
            .map(|key| (key.clone(), f64::from(rng.random_range(-30i32..=30)) / 10.0 + 0.05))
            .collect()
    }

    /// The variable's distribution the words give, at constants drawn until every probability
    /// is in (0, 1], they sum to one and the values are distinct; `None` if no draw is one.
    fn law_world(
        &self,
        variable: &str,
        outcomes: &[(Node, Node)],
        rng: &mut rand::rngs::StdRng,
        seed: u64,
    ) -> Option<World> {
        let at = Point { values: BTreeMap::new(), cell: None };
        for _ in 0..400 {
            let constants = self.draw_constants(&[], rng);
            let scratch = World {
                variables: Vec::new(),
                domains: Vec::new(),
                cells: Vec::new(),
                constants: constants.clone(),
                seed,
            };
            let evaluated: Option<Vec<(f64, f64)>> = outcomes
                .iter()
                .map(|(v, p)| Some((self.eval(v, &scratch, &at)?, self.eval(p, &scratch, &at)?)))
                .collect();
            let Some(evaluated) = evaluated else { continue };
            let total: f64 = evaluated.iter().map(|(_, p)| p).sum();
            let valid = evaluated.iter().all(|(_, p)| *p > 0.0 && *p <= 1.0) && (total - 1.0).abs() < 1e-9;
            let distinct = evaluated
                .iter()
                .enumerate()
                .all(|(i, (a, _))| evaluated[..i].iter().all(|(b, _)| (a - b).abs() > 1e-9));
            if valid && distinct {
                let domain = evaluated.iter().map(|(v, _)| *v).collect();
                let cells = evaluated.iter().enumerate().map(|(i, (_, p))| (vec![i], *p)).collect();
                return Some(World {
                    variables: vec![variable.to_string()],
                    domains: vec![domain],
                    cells,
                    constants,
                    seed,
                });
            }
        }
        None
    }

    /// Both sides on `DRAWS` joint distributions, at every assignment of the free values.
    fn compare(&self, random: &[String], draw: Draw, salt: u64) -> Compared {
        let mut values = 0;
        for d in 0..DRAWS {
            let k = 2 + d % 2;
            let Some(world) = self.world(random, draw, k, salt * 1000 + d as u64) else {
                return Compared::NotEvaluable;
            };
            let free: Vec<(&String, usize)> = self
                .reader
                .free
                .iter()
                .map(|(name, var)| world.variables.iter().position(|v| v == var).map(|i| (name, i)))
                .collect::<Option<_>>()
                .unwrap_or_default();
            if free.len() != self.reader.free.len() {
                return Compared::NotEvaluable;
            }
            let Some(assignments) = every_index(&free.iter().map(|(_, i)| world.domains[*i].len()).collect::<Vec<_>>())
            else {
                return Compared::NotEvaluable;
            };
            // A random variable outside every expectation makes the claim one about random
            // quantities: it must hold at every outcome.
            let pointwise = self.reader.letters_outside.iter().any(|k| world.variables.contains(k));
            let outcomes: Vec<Option<usize>> =
                if pointwise { (0..world.cells.len()).map(Some).collect() } else { vec![None] };
            for (assignment, cell) in assignments.iter().flat_map(|a| outcomes.iter().map(move |c| (a, *c))) {
                let at = free.iter().zip(assignment).map(|((name, i), at)| ((*name).clone(), world.domains[*i][*at]));
                let point = Point { values: at.collect(), cell };
                let (Some(l), Some(r)) = (self.eval(&self.lhs, &world, &point), self.eval(&self.rhs, &world, &point))
                else {
                    return Compared::NotEvaluable;
                };
                values += 1;
                if (l - r).abs() > 1e-9 * (1.0 + l.abs() + r.abs()) {
                    if (l - r).abs() <= 1e-6 * (1.0 + l.abs() + r.abs()) {
                        return Compared::NotEvaluable;
                    }
                    let mut shown: Vec<(String, f64)> =
                        point.values.iter().map(|(k, v)| (k.trim_start_matches('=').to_string(), *v)).collect();
                    shown.extend(world.constants.iter().map(|(k, v)| (k.clone(), *v)));
                    if world.cells.len() <= 12 {
                        for (index, w) in &world.cells {
                            let at: Vec<String> = world
                                .variables
                                .iter()
                                .zip(index)
                                .zip(&world.domains)
                                .map(|((v, i), d)| format!("{v}={}", number(d[*i])))
                                .collect();
                            shown.push((format!("P({})", at.join(",")), *w));
                        }
                    }
                    return Compared::Differs { lhs: l, rhs: r, point: shown };
                }
            }
        }
        Compared::Holds { values }
    }

    fn eval(&self, n: &Node, world: &World, point: &Point) -> Option<f64> {
        let finite = |x: f64| x.is_finite().then_some(x);
        let v = match n {
            Node::Number(x) => *x,
            Node::Letter(k) => {
                let variable = world.variables.iter().position(|v| v == k);
                match (point.cell, variable) {
                    (Some(c), Some(i)) => world.domains[i][world.cells[c].0[i]],
                    _ => match point.values.get(k) {
                        Some(x) => *x,
                        None if variable.is_some() => return None,
                        None => *world.constants.get(k)?,
                    },
                }
            }
            Node::Neg(a) => -self.eval(a, world, point)?,
            Node::Add(a, b) => self.eval(a, world, point)? + self.eval(b, world, point)?,
            Node::Sub(a, b) => self.eval(a, world, point)? - self.eval(b, world, point)?,
            Node::Mul(a, b) => self.eval(a, world, point)? * self.eval(b, world, point)?,
            Node::Div(a, b) => self.eval(a, world, point)? / self.eval(b, world, point)?,
            Node::Pow(a, b) => self.eval(a, world, point)?.powf(self.eval(b, world, point)?),
            Node::Exp(a) => self.eval(a, world, point)?.exp(),
            Node::Ln(a) => self.eval(a, world, point)?.ln(),
            Node::Sqrt(a) => self.eval(a, world, point)?.sqrt(),
            Node::Abs(a) => self.eval(a, world, point)?.abs(),
            Node::Unknown(name, args) => {
                let mut h = world.seed ^ 0x9e37_79b9_7f4a_7c15;
                for b in name.bytes() {
                    h = h.wrapping_mul(131).wrapping_add(u64::from(b));
                }
                for a in args {
                    h = h.wrapping_mul(1_000_003).wrapping_add(self.eval(a, world, point)?.to_bits());
                }
                let mut rng = rand::rngs::StdRng::seed_from_u64(h);
                rng.random_range(-2.0..2.0)
            }
            Node::Prob { events, given } => {
                let (mut joint, mut condition) = (0.0, 0.0);
                for (c, (_, w)) in world.cells.iter().enumerate() {
                    if given.iter().all(|e| event_holds(e, world, point, c)) {
                        condition += w;
                        if events.iter().all(|e| event_holds(e, world, point, c)) {
                            joint += w;
                        }
                    }
                }
                if condition <= 0.0 {
                    return None;
                }
                joint / condition
            }
            Node::Expect(body) => {
                // An expectation is a number: inside another one it does not depend on the cell.
                let mut sum = 0.0;
                for (c, (_, w)) in world.cells.iter().enumerate() {
                    let at = Point { values: point.values.clone(), cell: Some(c) };
                    sum += w * self.eval(body, world, &at)?;
                }
                sum
            }
            Node::Entropy { of, given } => {
                let mut all = of.clone();
                all.extend(given.iter().cloned());
                marginal_entropy(world, &all)? - marginal_entropy(world, given)?
            }
            Node::Over { value, body } => {
                let variable = match value.strip_prefix('=') {
                    Some(v) => v.to_string(),
                    None => self.reader.pairs.get(value).cloned().or_else(|| {
                        let upper = value.to_ascii_uppercase();
                        world.variables.contains(&upper).then_some(upper)
                    })?,
                };
                let i = world.variables.iter().position(|v| *v == variable)?;
                let mut sum = 0.0;
                for x in &world.domains[i] {
                    let mut values = point.values.clone();
                    values.insert(value.clone(), *x);
                    sum += self.eval(body, world, &Point { values, cell: point.cell })?;
                }
                sum
            }
        };
        finite(v)
    }
}

struct Point {
    values: BTreeMap<String, f64>,
    cell: Option<usize>,
}

/// Every index of a table with these axis lengths, the first axis fastest; `None` past
/// [`MAX_CELLS`] entries.
fn every_index(lengths: &[usize]) -> Option<Vec<Vec<usize>>> {
    lengths.iter().try_fold(1usize, |n, l| n.checked_mul(*l).filter(|c| *c <= MAX_CELLS))?;
    // Axes keyed by their place; listed last to first, so the first varies fastest
    // (`every_assignment` varies the last listed fastest).
    let axes: Vec<usize> = (0..lengths.len()).collect();
    let values: Vec<Vec<usize>> = lengths.iter().map(|l| (0..*l).collect()).collect();
    let choices: Vec<(&usize, &[usize])> = axes.iter().zip(&values).rev().map(|(a, v)| (a, v.as_slice())).collect();
    let every = crate::sema::scope::every_assignment(&BTreeMap::new(), &choices);
    Some(every.into_iter().map(|a| a.into_values().collect()).collect())
}

/// −Σ p log p over the marginal table of `variables` (0 for none).
fn marginal_entropy(world: &World, variables: &[String]) -> Option<f64> {
    let axes: Vec<usize> =
        variables.iter().map(|v| world.variables.iter().position(|w| w == v)).collect::<Option<_>>()?;
    let mut table: BTreeMap<Vec<usize>, f64> = BTreeMap::new();
    for (index, w) in &world.cells {
        *table.entry(axes.iter().map(|a| index[*a]).collect()).or_default() += w;
    }
    Some(-table.values().filter(|p| **p > 0.0).map(|p| p * p.ln()).sum::<f64>())
}

/// Does the event hold at the cell, with the point's values?
fn event_holds(e: &Event, world: &World, point: &Point, cell: usize) -> bool {
    let Some(i) = world.variables.iter().position(|v| *v == e.variable) else { return false };
    let actual = world.domains[i][world.cells[cell].0[i]];
    let wanted = match &e.value {
        Val::Number(x) => *x,
        Val::Named(name) => match point.values.get(name) {
            Some(x) => *x,
            None => return false,
        },
    };
    (actual == wanted) != e.negated
}

fn number(x: f64) -> String {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        format!("{x}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sides(tex: &str) -> (Expr, Expr) {
        let statement = crate::syntax::parse_formula(tex).expect("parses");
        let chain = &statement.chains[0];
        (chain.first.clone().unwrap(), chain.links[0].rhs.clone())
    }

    fn outcome(tex: &str) -> Outcome {
        let (l, r) = sides(tex);
        check(&l, &r, &|_| Meaning::None, Words::default())
    }

    fn holds(tex: &str) {
        assert!(matches!(outcome(tex), Outcome::Holds { .. }), "{tex}: {:?}", outcome(tex));
    }

    fn fails_plainly(tex: &str) {
        match outcome(tex) {
            Outcome::Fails { holds_when: None, specifies: false, random_letter: None, .. } => {}
            other => panic!("{tex}: {other:?}"),
        }
    }

    #[test]
    fn the_rules_of_probability_hold() {
        holds(r"P(A \mid B) = \frac{P(B \mid A) P(A)}{P(B)}");
        holds(r"P(A, B) = P(B \mid A) P(A)");
        holds(r"\sum_a P(A=a \mid B) = 1");
        holds(r"\sum_{a} P(B \mid A=a) P(A=a) = P(B)");
        holds(r"P(A, B \mid C) = P(A \mid B, C) P(B \mid C)");
        holds(r"E[X] = \sum_x x P(X=x)");
        holds(r"\mathrm{Var}[X] = E[X^2] - E[X]^2");
        // a and b written outside the expectation too: constants.
        holds(r"E[aX+b] = aE[X]+b");
        // b only inside: true for a constant b, false for a random one.
        let (l, r) = sides(r"\textrm{Var}(aX+b) = a^2\textrm{Var}(X)");
        assert!(matches!(
            check(&l, &r, &|_| Meaning::None, Words::default()),
            Outcome::Fails { random_letter: Some(_), .. }
        ));
        assert!(matches!(
            check(&l, &r, &|_| Meaning::None, Words { marked: true, ..Words::default() }),
            Outcome::Holds { .. }
        ));
        // a only inside: both readings tried.
        assert!(matches!(
            outcome(r"\textrm{Cov}(aX+b, Y) = \textrm{Cov}(X, aY+b)"),
            Outcome::Fails { random_letter: Some(_), .. }
        ));
        holds(r"p(y \mid x) = \frac{p(x, y)}{p(x)}");
        holds(r"E_{x \sim P}[f(x)] = \sum_x f(x)P(x)");
        holds(r"P(D_1 = 1) = P(D_1 = 1, H = 0) + P(D_1 = 1, H = 1)");
        holds(r"\mathrm{Cov}(X, Y) = E[XY] - E[X]E[Y]");
    }

    /// A family's distribution, every probability given the same parameters: verified like any
    /// other, never refuted; parameters written otherwise in one claim are not read.
    #[test]
    fn a_distribution_given_its_parameters_is_one_of_a_family() {
        holds(r"P(y \mid \theta) = \sum_z P(y, z \mid \theta)");
        holds(r"P(Y \mid \theta) = \sum_{Z} P(Z \mid \theta) P(Y \mid Z, \theta)");
        holds(r"P(y, z; \hat\Theta) = P(z; \hat\Theta) P(y \mid z; \hat\Theta)");
        assert_eq!(outcome(r"P(y, z \mid \theta) = P(y \mid \theta) P(z \mid \theta)"), Outcome::NotProbability);
        assert_eq!(outcome(r"P(y \mid \theta) = \sum_z P(y, z \mid \theta^{(i)})"), Outcome::NotProbability);
        assert_eq!(outcome(r"P(y \mid \theta) = \sum_z P(y, z)"), Outcome::NotProbability);
    }

    #[test]
    fn slips_are_refuted() {
        fails_plainly(r"P(A \mid B) = \frac{P(B \mid A) P(A)}{P(A)}");
        fails_plainly(r"\mathrm{Var}[X] = E[X^2] + E[X]^2");
        fails_plainly(r"P(A, B) = P(A \mid B) P(A)");
        fails_plainly(r"E[aX+b] = aE[X]");
        fails_plainly(r"\textrm{Var}(aX+b) = a\textrm{Var}(X)");
        fails_plainly(r"\sum_{a} P(B \mid A=a) = P(B)");
    }

    #[test]
    fn assumptions_and_values_are_not_refutations() {
        assert!(matches!(outcome(r"P(A \mid B) = P(A)"), Outcome::Fails { holds_when: Some(Family::Independent), .. }));
        assert!(matches!(
            outcome(r"P(A, B \mid C) = P(A \mid C) P(B \mid C)"),
            Outcome::Fails { holds_when: Some(_), .. }
        ));
        assert!(matches!(
            outcome(r"E[X] = E[Y]"),
            Outcome::Fails { holds_when: Some(Family::IndependentIdentical), .. }
        ));
        assert!(matches!(outcome(r"E[X^2] = E[X]"), Outcome::Fails { holds_when: Some(Family::ZeroOne), .. }));
        assert!(matches!(outcome(r"P(H=1) = 0.0015"), Outcome::Fails { specifies: true, .. }));
    }

    #[test]
    fn random_quantities_hold_at_every_outcome() {
        holds(r"(X - E[X])^2 = X^2 - 2X E[X] + E[X]^2");
        fails_plainly(r"(X - E[X])^2 = X^2 - E[X]^2");
        // θ̂ only inside: random or a constant, true either way; θ outside too: a constant.
        assert!(matches!(outcome(r"E[\hat\theta^2] = E[\hat\theta]^2"), Outcome::Fails { random_letter: Some(_), .. }));
        holds(r"E[\hat\theta - \Theta] = E[\hat\theta] - E[\Theta]");
        // A capital beside an expectation may be a coefficient: holding with it a constant,
        // the claim is not refuted; failing either way, it is.
        let coefficient = outcome(r"E(C_1 X + C_2 Y) = C_1 E(X) + C_2 E(Y)");
        assert!(
            matches!(coefficient, Outcome::Fails { random_letter: Some(ref c), .. } if c == "C_1"),
            "{coefficient:?}"
        );
        fails_plainly(r"(X - E[X])^2 = X^2 - X E[X] + E[X]^2");
    }

    #[test]
    fn other_notation_is_not_read() {
        assert_eq!(outcome(r"x^2 = x \cdot x"), Outcome::NotProbability);
        assert_eq!(outcome(r"P(\mathcal{A} \cup \mathcal{B}) = 1"), Outcome::NotProbability);
        assert_eq!(outcome(r"E[X \mid Y] = E[X]"), Outcome::NotProbability);
        assert_eq!(outcome(r"\sum_{i=1}^n P(A_i) = 1"), Outcome::NotProbability);
        let (l, r) = sides(r"P(A) = 1 - q");
        assert_eq!(
            check(&l, &r, &|k| if k == "P" { Meaning::Formula } else { Meaning::None }, Words::default()),
            Outcome::NotProbability
        );
        // Y defined by the notes (`Y = aX + b`): not a variable of its own.
        let (l, r) = sides(r"E[Y] = aE[X] + b");
        assert_eq!(
            check(
                &l,
                &r,
                &|k| if k == "Y" { Meaning::Formula } else { Meaning::None },
                Words { marked: true, ..Words::default() }
            ),
            Outcome::NotProbability
        );
        assert_eq!(outcome(r"E(2) = 2"), Outcome::NotProbability);
        // An energy E(x) beside a density p(x) of the same x.
        assert_eq!(outcome(r"p(x) = \frac{e^{-E(x)}}{Z}"), Outcome::NotProbability);
    }

    fn information(tex: &str) -> Outcome {
        let (l, r) = sides(tex);
        check(&l, &r, &|_| Meaning::None, Words { information: true, ..Words::default() })
    }

    #[test]
    fn entropy_and_mutual_information_are_read_where_the_words_name_them() {
        for tex in [
            r"H(Y \mid X) = H(X, Y) - H(X)",
            r"I(X, Y) = I(Y, X)",
            r"I(X, Y) = H(X) - H(X \mid Y)",
            r"I(X, Y) = H(X) + H(Y) - H(X, Y)",
            r"H(X, Y) = - \sum_{x} \sum_{y} p_{X, Y}(x, y) \log p_{X, Y}(x, y)",
            r"H(Y \mid X) = - \sum_{x} \sum_{y} p(x, y) \log p(y \mid x)",
            r"H(Y \mid X) = - E_{(x, y) \sim P} [\log p(y \mid x)]",
            r"H(X) = - \int_x p(x) \log p(x) \; dx",
            r"p_X(x) = \int_{-\infty}^\infty p_{X, Y}(x, y) \; dy",
        ] {
            assert!(matches!(information(tex), Outcome::Holds { .. }), "{tex}: {:?}", information(tex));
        }
        // The usual slips.
        for tex in [
            r"H(Y \mid X) = H(X, Y) + H(X)",
            r"I(X, Y) = H(X, Y) - H(X)",
            r"H(Y \mid X) = - \sum_{x} \sum_{y} p(x, y) \log p(x, y)",
        ] {
            assert!(
                matches!(information(tex), Outcome::Fails { holds_when: None, specifies: false, .. }),
                "{tex}: {:?}",
                information(tex)
            );
        }
        // True for independent variables, or for equal ones: a condition the words may give.
        assert!(matches!(
            information(r"H(X, Y) = H(X) + H(Y)"),
            Outcome::Fails { holds_when: Some(Family::Independent), .. }
        ));
        assert!(matches!(information(r"H(X, Y) = H(X)"), Outcome::Fails { holds_when: Some(Family::Equal), .. }));
        assert!(matches!(information(r"I(X, Y) = H(Y)"), Outcome::Fails { holds_when: Some(Family::Equal), .. }));
        // Without words naming entropy, H and I are no operators; nor of other arguments.
        assert_eq!(outcome(r"H(Y \mid X) = H(X, Y) - H(X)"), Outcome::NotProbability);
        assert_eq!(information(r"H(p) = -p \log p"), Outcome::NotProbability);
        assert_eq!(information(r"H(S) = \sum_i p_i I(s_i)"), Outcome::NotProbability);
        // `E_x E_y \{…\}`: no bracket after the operator, not letters either.
        assert_eq!(information(r"I(X, Y) = E_{x} E_{y} \{ p_{X, Y}(x, y) \}"), Outcome::NotProbability);
        // An integral over part of the line is not a sum over every value.
        assert_eq!(outcome(r"p_X(x) = \int_0^1 p_{X, Y}(x, y) \; dy"), Outcome::NotProbability);
    }

    #[test]
    fn a_number_is_worked_out_from_the_given_probabilities_and_their_complements() {
        let given: Vec<(Expr, f64)> =
            [(r"P(H=1) = 0.0015", 0.0015), (r"P(D = 1 \mid H = 1) = 1", 1.0), (r"P(D = 1 \mid H = 0) = 0.01", 0.01)]
                .iter()
                .map(|(tex, v)| (sides(tex).0, *v))
                .collect();
        let pairs: Vec<(&Expr, f64, bool)> = given.iter().map(|(e, v)| (e, *v, true)).collect();
        let worked = |tex: &str| worked_out(&sides(&format!("{tex} = 0")).0, &pairs);
        let w = worked(r"P(D=1 \mid H=0) P(H=0) + P(D=1 \mid H=1) P(H=1)").expect("every probability is given");
        assert!((w.value - 0.011485).abs() < 1e-12, "{w:?}");
        // P(H=0) is the complement of P(H=1): H is seen with the two values 0 and 1.
        assert_eq!(w.two_valued, ["H"]);
        assert_eq!(w.used, [0, 1, 2]);
        // A probability nobody gave, or a variable seen with one value only: not worked out.
        assert_eq!(worked(r"P(D=0 \mid H=1)"), None);
        assert_eq!(worked(r"P(E=1) + 0"), None);
        // A lone probability against a number states a value; it works nothing out.
        assert_eq!(worked(r"P(H=1)"), None);
        // Two values given for one probability, even after the link: the result is contested.
        let again = sides(r"P(H=1) = 0.5").0;
        let mut pairs = pairs.clone();
        pairs.push((&again, 0.5, false));
        let w = worked_out(&sides(r"2 P(H=1) = 0").0, &pairs).unwrap();
        assert_eq!((w.value, w.contested), (0.003, true));
    }
}
