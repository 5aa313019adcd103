//! The tape: every value computed in the prime field is a node (its operation, its value in
//! each lane, a bound on its degree), so derivatives are taken by a reverse sweep that itself
//! records nodes (a derivative can be differentiated again), and opaque leaves can be replaced
//! by what they stand for by replaying the nodes above them.
//!
//! Transcendental functions are *atoms*: exp(u), ln u, sin u, cos u, |u|, u^{1/2}, σ(u), σ′(u),
//! F_i(x), π each become a fresh variable whose value is drawn at random — the same value for
//! the same function at the same argument value, so e^{s_1} computed twice is one variable.
//! Their derivative rules (d e^u = e^u du, d ln u = du/u, d σ⁽ᵏ⁾(u) = σ⁽ᵏ⁺¹⁾(u) du, …) make new
//! atoms where needed. One tape per thread: [`with_tape`].

use super::field::{self, Lanes, Ratio};
use rand::{Rng, SeedableRng};
use rustc_hash::FxHashMap;
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Instant;

/// A node of the tape: what [`crate::eval::Scalar`] values are in this domain.
pub type Id = u32;

/// Nodes past this many are refused (about 600 MB with the tables): the claim is left to the
/// other methods.
pub const MAX_NODES: usize = 6_000_000;

/// Bounds on a rational function N/D in the leaves and atoms as independent variables: the
/// degrees of N and D, and their heights — log₂ of the sum of the absolute values of their
/// integer coefficients (sub-additive under + and sub-multiplicative under ×). Saturates.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Measure {
    pub numerator_degree: u64,
    pub denominator_degree: u64,
    pub numerator_height: f64,
    pub denominator_height: f64,
}

impl Measure {
    const VARIABLE: Measure =
        Measure { numerator_degree: 1, denominator_degree: 0, numerator_height: 0.0, denominator_height: 0.0 };

    fn constant(r: &Ratio) -> Measure {
        let (numerator_height, denominator_height) = r.heights();
        Measure { numerator_degree: 0, denominator_degree: 0, numerator_height, denominator_height }
    }

    fn is_constant(&self) -> bool {
        self.numerator_degree == 0 && self.denominator_degree == 0
    }

    /// a/b + c/d = (ad + cb)/(bd).
    fn sum(a: Measure, b: Measure) -> Measure {
        Measure {
            numerator_degree: a
                .numerator_degree
                .saturating_add(b.denominator_degree)
                .max(b.numerator_degree.saturating_add(a.denominator_degree)),
            denominator_degree: a.denominator_degree.saturating_add(b.denominator_degree),
            numerator_height: (a.numerator_height + b.denominator_height)
                .max(b.numerator_height + a.denominator_height)
                + 1.0,
            denominator_height: a.denominator_height + b.denominator_height,
        }
    }

    fn product(a: Measure, b: Measure) -> Measure {
        Measure {
            numerator_degree: a.numerator_degree.saturating_add(b.numerator_degree),
            denominator_degree: a.denominator_degree.saturating_add(b.denominator_degree),
            numerator_height: a.numerator_height + b.numerator_height,
            denominator_height: a.denominator_height + b.denominator_height,
        }
    }

    fn reciprocal(a: Measure) -> Measure {
        Measure {
            numerator_degree: a.denominator_degree,
            denominator_degree: a.numerator_degree,
            numerator_height: a.denominator_height,
            denominator_height: a.numerator_height,
        }
    }

    fn power(a: Measure, k: i64) -> Measure {
        let m = k.unsigned_abs();
        let raised = Measure {
            numerator_degree: a.numerator_degree.saturating_mul(m),
            denominator_degree: a.denominator_degree.saturating_mul(m),
            numerator_height: a.numerator_height * m as f64,
            denominator_height: a.denominator_height * m as f64,
        };
        if k < 0 {
            Measure::reciprocal(raised)
        } else {
            raised
        }
    }

    /// Of numerator and denominator together: what the numerator of a difference of two such
    /// functions can reach (degree, height).
    pub fn total(&self) -> (u64, f64) {
        (
            self.numerator_degree.saturating_add(self.denominator_degree),
            self.numerator_height + self.denominator_height + 1.0,
        )
    }
}

/// A transcendental function, as the key of its atoms.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Function {
    Exp,
    Log,
    Sin,
    Cos,
    /// tan(u/2), the variable sin and cos are made of ([`Tape::sin_cos`]).
    HalfTan,
    Abs,
    /// The inverse tangent, sine and cosine (principal branches).
    Atan,
    Asin,
    Acos,
    /// The principal q-th root u^{1/q} (q ≥ 2); u^{p/q} is taken as its p-th power, which holds
    /// on the principal branch for every u ≠ 0.
    Root(u32),
    Pi,
    /// A spec's function: σ⁽ᵏ⁾ (`index` None, one argument) or entry `index` of F; `partials`
    /// counts the derivatives taken in each argument.
    Generic {
        name: String,
        index: Option<i64>,
        partials: Vec<u32>,
    },
}

/// The largest integer k for which e^{ku}, sin ku and cos ku are built from u's.
const LARGEST_MULTIPLE: i128 = 64;

/// The argument of an exponential or a sine/cosine, as the addition laws see it.
enum Argument {
    Sum(Id, Id),
    Difference(Id, Id),
    Negation(Id),
    /// k·a for a small integer k.
    Multiple(i64, Id),
    /// Anything else: the function of it is an atom.
    Base,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Op {
    Constant,
    Leaf,
    Add(Id, Id),
    Sub(Id, Id),
    Mul(Id, Id),
    Div(Id, Id),
    Neg(Id),
    Pow(Id, i64),
    /// An entry of [`Tape::atoms`].
    Atom(u32),
}

/// A function applied to arguments.
type Application = (Function, Box<[Id]>);

#[derive(Debug, Clone)]
struct Node {
    op: Op,
    value: Lanes,
    measure: Measure,
    /// The exact value of a constant while it is a small rational: an entry of [`Tape::ratios`]
    /// ([`NO_RATIO`] for none).
    exact: u32,
}

const NO_RATIO: u32 = u32::MAX;

/// Why an evaluation cannot stand as a test.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trouble {
    /// A denominator vanished at the sample point: draw another point.
    ZeroAtSample,
    /// A division by the constant zero: the formula is undefined.
    DivisionByZero,
    /// The tape outgrew [`MAX_NODES`].
    TooLarge,
    /// The claim's time ran out while the tape grew.
    OutOfTime,
}

pub struct Tape {
    nodes: Vec<Node>,
    ratios: Vec<Ratio>,
    atoms: Vec<Application>,
    atom_nodes: FxHashMap<Application, Id>,
    /// Each lane's prime.
    pub primes: Lanes,
    atom_values: FxHashMap<(Function, usize, Vec<u64>), u64>,
    /// Every operation recorded once: evaluating the same formula again (a fresh instance, the
    /// next index assignment) finds its nodes instead of growing the tape. Cleared by
    /// [`Tape::bind`], which changes a leaf's value under the nodes above it.
    consed: FxHashMap<Op, Id>,
    constants: FxHashMap<Ratio, Id>,
    /// The adjoints of the last reverse sweep, by its output.
    last_sweep: Option<(Id, Vec<Id>)>,
    rng: rand::rngs::StdRng,
    pub trouble: Option<Trouble>,
    /// When the work must stop (checked as the tape grows).
    pub deadline: Option<Instant>,
    /// Atoms made, and the largest total degree of an atom's argument: what bounds the chance
    /// that two different arguments meet at one value.
    pub atoms_made: u64,
    pub atom_argument: (u64, f64),
}

thread_local! {
    /// The tape of the backend in use on this thread ([`Tape::activate`]).
    static CURRENT: RefCell<Option<Rc<RefCell<Tape>>>> = const { RefCell::new(None) };
}

/// Runs `f` on the tape in use on this thread. Panics when none is: values of this domain exist
/// only while their backend is active.
pub fn with_tape<R>(f: impl FnOnce(&mut Tape) -> R) -> R {
    CURRENT.with(|current| {
        let current = current.borrow();
        let tape = current.as_ref().expect("a modular backend is active on this thread");
        let mut tape = tape.borrow_mut();
        f(&mut tape)
    })
}

/// A tape, shared by its backend and the thread's current slot.
pub fn shared(seed: u64) -> Rc<RefCell<Tape>> {
    Rc::new(RefCell::new(Tape::new(seed)))
}

/// Makes `tape` the one this thread's values live on.
pub fn activate(tape: &Rc<RefCell<Tape>>) {
    CURRENT.with(|current| *current.borrow_mut() = Some(tape.clone()));
}

/// Node 0 is the constant 0, node 1 the constant 1.
pub const ZERO: Id = 0;
pub const ONE: Id = 1;

impl Tape {
    fn new(seed: u64) -> Tape {
        let mut tape = Tape {
            nodes: Vec::new(),
            ratios: Vec::new(),
            atoms: Vec::new(),
            atom_nodes: FxHashMap::default(),
            primes: [0; field::LANES],
            atom_values: FxHashMap::default(),
            consed: FxHashMap::default(),
            constants: FxHashMap::default(),
            last_sweep: None,
            rng: rand::rngs::StdRng::seed_from_u64(seed),
            trouble: None,
            deadline: None,
            atoms_made: 0,
            atom_argument: (0, 0.0),
        };
        tape.reset(seed);
        tape
    }

    /// Starts over with new primes and a new random point (keeping the allocations).
    pub fn reset(&mut self, seed: u64) {
        self.rng = rand::rngs::StdRng::seed_from_u64(seed);
        let rng = &mut self.rng;
        self.primes = field::lanes(|_| field::random_prime(rng));
        self.nodes.clear();
        self.ratios.clear();
        self.atoms.clear();
        self.atom_nodes.clear();
        self.atom_values.clear();
        self.consed.clear();
        self.constants.clear();
        self.last_sweep = None;
        self.trouble = None;
        self.atoms_made = 0;
        self.atom_argument = (0, 0.0);
        self.constant(Ratio::int(0));
        self.constant(Ratio::int(1));
    }

    fn operands(&self, id: Id) -> Vec<Id> {
        match &self.nodes[id as usize].op {
            Op::Constant | Op::Leaf => Vec::new(),
            Op::Add(a, b) | Op::Sub(a, b) | Op::Mul(a, b) | Op::Div(a, b) => vec![*a, *b],
            Op::Neg(a) | Op::Pow(a, _) => vec![*a],
            Op::Atom(k) => self.atoms[*k as usize].1.to_vec(),
        }
    }

    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    pub fn value(&self, id: Id) -> Lanes {
        self.nodes[id as usize].value
    }

    pub fn measure(&self, id: Id) -> Measure {
        self.nodes[id as usize].measure
    }

    pub fn is_leaf(&self, id: Id) -> bool {
        matches!(self.nodes[id as usize].op, Op::Leaf)
    }

    fn push(&mut self, op: Op, value: Lanes, measure: Measure, exact: Option<Ratio>) -> Id {
        let consable = !matches!(op, Op::Leaf | Op::Constant | Op::Atom(_));
        if consable {
            if let Some(id) = self.consed.get(&op) {
                return *id;
            }
        }
        if self.nodes.len() >= MAX_NODES {
            self.trouble = Some(Trouble::TooLarge);
            return ZERO;
        }
        if self.nodes.len().is_multiple_of(4096) && self.deadline.is_some_and(|d| Instant::now() > d) {
            self.trouble = Some(Trouble::OutOfTime);
            return ZERO;
        }
        let id = self.nodes.len() as Id;
        if consable {
            self.consed.insert(op.clone(), id);
        }
        let exact = match exact {
            Some(r) => {
                self.ratios.push(r);
                (self.ratios.len() - 1) as u32
            }
            None => NO_RATIO,
        };
        self.nodes.push(Node { op, value, measure, exact });
        (self.nodes.len() - 1) as Id
    }

    /// The exact value of a node that is a known rational constant.
    pub fn exact(&self, id: Id) -> Option<Ratio> {
        let k = self.nodes[id as usize].exact;
        (k != NO_RATIO).then(|| self.ratios[k as usize])
    }

    /// Whether the node is e (the exp atom at 1).
    pub fn is_euler(&self, id: Id) -> bool {
        match &self.nodes[id as usize].op {
            Op::Atom(k) => matches!(&self.atoms[*k as usize], (Function::Exp, args) if args[..] == [ONE]),
            _ => false,
        }
    }

    fn is(&self, id: Id, r: i128) -> bool {
        self.exact(id) == Some(Ratio::int(r))
    }

    /// The constant r; a lane whose prime divides r's denominator is trouble (redraw).
    pub fn constant(&mut self, r: Ratio) -> Id {
        if let Some(id) = self.constants.get(&r) {
            return *id;
        }
        let primes = self.primes;
        let residues = primes.map(|p| r.residue(p));
        if residues.contains(&None) {
            self.trouble.get_or_insert(Trouble::ZeroAtSample);
            return ZERO;
        }
        let id = self.push(Op::Constant, residues.map(|v| v.unwrap_or(0)), Measure::constant(&r), Some(r));
        self.constants.insert(r, id);
        id
    }

    /// A constant whose exact value is lost (it overflowed), known by its residues and bounds.
    fn opaque_constant(&mut self, value: Lanes, measure: Measure) -> Id {
        self.push(Op::Constant, value, measure, None)
    }

    pub fn leaf(&mut self) -> Id {
        let primes = self.primes;
        let value = field::lanes(|k| self.rng.random_range(0..primes[k]));
        self.push(Op::Leaf, value, Measure::VARIABLE, None)
    }

    /// Gives an existing leaf the value of `actual` (an opaque leaf standing for it).
    pub fn bind(&mut self, leaf: Id, actual: Id) {
        if self.nodes[leaf as usize].value != self.nodes[actual as usize].value {
            self.consed.clear();
            self.atom_nodes.clear();
            self.last_sweep = None;
        }
        self.nodes[leaf as usize].value = self.nodes[actual as usize].value;
    }

    fn lanewise(&self, a: Id, b: Id, f: fn(u64, u64, u64) -> u64) -> Lanes {
        let (x, y) = (self.value(a), self.value(b));
        field::lanes(|k| f(x[k], y[k], self.primes[k]))
    }

    /// A constant result as a constant node (exact while it fits); `None` for a non-constant.
    fn folded(&mut self, exact: Option<Ratio>, value: Lanes, measure: Measure) -> Option<Id> {
        if !measure.is_constant() {
            return None;
        }
        Some(match exact {
            Some(r) => self.constant(r),
            None => self.opaque_constant(value, measure),
        })
    }

    pub fn add(&mut self, a: Id, b: Id) -> Id {
        if self.is(a, 0) {
            return b;
        }
        if self.is(b, 0) {
            return a;
        }
        let value = self.lanewise(a, b, field::add);
        let measure = Measure::sum(self.measure(a), self.measure(b));
        let exact = self.exact(a).zip(self.exact(b)).and_then(|(x, y)| x.add(&y));
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Add(a, b), value, measure, None))
    }

    pub fn sub(&mut self, a: Id, b: Id) -> Id {
        if self.is(b, 0) {
            return a;
        }
        if a == b {
            return ZERO;
        }
        let value = self.lanewise(a, b, field::sub);
        let measure = Measure::sum(self.measure(a), self.measure(b));
        let exact = self.exact(a).zip(self.exact(b)).and_then(|(x, y)| x.add(&y.negate()?));
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Sub(a, b), value, measure, None))
    }

    pub fn neg(&mut self, a: Id) -> Id {
        if self.is(a, 0) {
            return a;
        }
        let x = self.value(a);
        let value = field::lanes(|k| field::neg(x[k], self.primes[k]));
        let measure = self.measure(a);
        let exact = self.exact(a).and_then(|r| r.negate());
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Neg(a), value, measure, None))
    }

    pub fn mul(&mut self, a: Id, b: Id) -> Id {
        if self.is(a, 0) || self.is(b, 0) {
            return ZERO;
        }
        if self.is(a, 1) {
            return b;
        }
        if self.is(b, 1) {
            return a;
        }
        let value = self.lanewise(a, b, field::mul);
        let measure = Measure::product(self.measure(a), self.measure(b));
        let exact = self.exact(a).zip(self.exact(b)).and_then(|(x, y)| x.mul(&y));
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Mul(a, b), value, measure, None))
    }

    /// a / b; a zero denominator is trouble (the constant zero: undefined; zero at this point
    /// only: draw another point), and the result is then a placeholder.
    pub fn div(&mut self, a: Id, b: Id) -> Id {
        if self.is(b, 0) {
            self.trouble = Some(Trouble::DivisionByZero);
            return ZERO;
        }
        if self.is(b, 1) {
            return a;
        }
        let y = self.value(b);
        if y.contains(&0) {
            self.trouble.get_or_insert(Trouble::ZeroAtSample);
            return ZERO;
        }
        if self.is(a, 0) {
            return ZERO;
        }
        let x = self.value(a);
        let value = field::lanes(|k| field::mul(x[k], field::inverse(y[k], self.primes[k]), self.primes[k]));
        let measure = Measure::product(self.measure(a), Measure::reciprocal(self.measure(b)));
        let exact = self.exact(a).zip(self.exact(b)).and_then(|(x, y)| x.mul(&y.reciprocal()?));
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Div(a, b), value, measure, None))
    }

    /// a^k for an integer k.
    pub fn pow(&mut self, a: Id, k: i64) -> Id {
        match k {
            0 => return ONE,
            1 => return a,
            _ => {}
        }
        let x = self.value(a);
        if k < 0 && x.contains(&0) {
            if self.is(a, 0) {
                self.trouble = Some(Trouble::DivisionByZero);
            } else {
                self.trouble.get_or_insert(Trouble::ZeroAtSample);
            }
            return ZERO;
        }
        let value = field::lanes(|j| {
            let prime = self.primes[j];
            let p = field::pow(x[j], k.unsigned_abs(), prime);
            if k < 0 {
                field::inverse(p, prime)
            } else {
                p
            }
        });
        let measure = Measure::power(self.measure(a), k);
        let exact = self.exact(a).and_then(|r| r.pow(k));
        self.folded(exact, value, measure).unwrap_or_else(|| self.push(Op::Pow(a, k), value, measure, None))
    }

    /// a^r for a rational r = p/q: exact where a is a constant with a rational root (4^{1/2} = 2),
    /// else (a^{1/q})^p with the root an atom — so √u · √u is u's root squared, and the
    /// root's derivative d u^{1/q} = (1/q)(u^{1/q})^{1−q} du stays in the same variable.
    pub fn pow_rational(&mut self, a: Id, r: Ratio) -> Id {
        if r.is_integer() {
            if let Ok(k) = i64::try_from(r.numerator) {
                return self.pow(a, k);
            }
        }
        let root = u32::try_from(r.denominator).ok();
        let exact_root = self.exact(a).zip(root).and_then(|(base, t)| base.root(t));
        if let (Some(base), Ok(k)) = (exact_root, i64::try_from(r.numerator)) {
            let b = self.constant(base);
            return self.pow(b, k);
        }
        match (u32::try_from(r.denominator), i64::try_from(r.numerator)) {
            (Ok(q), Ok(p)) => {
                let root = self.atom(Function::Root(q), &[a]);
                self.pow(root, p)
            }
            _ => {
                let log = self.atom(Function::Log, &[a]);
                let exponent = self.constant(r);
                let product = self.mul(exponent, log);
                self.atom(Function::Exp, &[product])
            }
        }
    }

    /// e^u with the exponential's own law applied first (true for all real and complex u):
    /// e^{a+b} = e^a e^b, e^{a−b} = e^a / e^b, e^{−a} = 1/e^a, e^{ka} = (e^a)^k for a small
    /// integer k — so e^{s_j−c} and e^{s_j}/e^c are the same function to the test.
    fn exp(&mut self, u: Id) -> Id {
        if let Some(k) = self.small_integer(u).filter(|k| *k != 0 && *k != 1) {
            let e = self.plain_atom(Function::Exp, &[ONE]);
            return self.pow(e, k);
        }
        match self.split_argument(u) {
            Argument::Sum(a, b) => {
                let (ea, eb) = (self.exp(a), self.exp(b));
                self.mul(ea, eb)
            }
            Argument::Difference(a, b) => {
                let (ea, eb) = (self.exp(a), self.exp(b));
                self.div(ea, eb)
            }
            Argument::Negation(a) => {
                let ea = self.exp(a);
                self.pow(ea, -1)
            }
            Argument::Multiple(k, a) => {
                let e = self.exp(a);
                self.pow(e, k)
            }
            Argument::Base => self.plain_atom(Function::Exp, &[u]),
        }
    }

    /// A constant integer of at most [`LARGEST_MULTIPLE`] in size.
    fn small_integer(&self, id: Id) -> Option<i64> {
        self.exact(id).filter(|r| r.is_integer() && r.numerator.abs() <= LARGEST_MULTIPLE).map(|r| r.numerator as i64)
    }

    /// How the argument of e^u, sin u, cos u splits for the addition laws.
    fn split_argument(&self, u: Id) -> Argument {
        match self.nodes[u as usize].op {
            Op::Add(a, b) => Argument::Sum(a, b),
            Op::Sub(a, b) => Argument::Difference(a, b),
            Op::Neg(a) => Argument::Negation(a),
            Op::Mul(a, b) => match (self.small_integer(a), self.small_integer(b)) {
                (Some(k), _) => Argument::Multiple(k, b),
                (None, Some(k)) => Argument::Multiple(k, a),
                (None, None) => Argument::Base,
            },
            _ => Argument::Base,
        }
    }

    /// f(args): an atom, with simple exact values folded (e⁰ = 1, ln 1 = 0, sin 0 = 0, cos 0 = 1)
    /// and exponentials of sums split ([`Tape::exp`]).
    pub fn atom(&mut self, f: Function, args: &[Id]) -> Id {
        match (&f, args) {
            (Function::Exp, [u]) if !self.is(*u, 1) => self.exp(*u),
            (Function::Sin, [u]) => self.sin_cos(*u).0,
            (Function::Cos, [u]) => self.sin_cos(*u).1,
            _ => self.plain_atom(f, args),
        }
    }

    /// (sin u, cos u) as rational functions of the half-angle tangent t = tan(a/2) of each base
    /// argument a: sin a = 2t/(1+t²), cos a = (1−t²)/(1+t²), with the addition laws applied
    /// first (u = a ± b, −a, k·a for a small integer k; true for all real and complex u) — so
    /// sin² + cos² = 1 and R(a)ᵀR(b) = R(b−a) are identities of the variables, as e^{a+b} =
    /// e^a e^b is for the exponential. The tangent's derivative is (1+t²)/2.
    fn sin_cos(&mut self, u: Id) -> (Id, Id) {
        if self.is(u, 0) {
            return (ZERO, ONE);
        }
        match self.split_argument(u) {
            Argument::Sum(a, b) | Argument::Difference(a, b) => {
                let minus = matches!(self.nodes[u as usize].op, Op::Sub(..));
                let (sa, ca) = self.sin_cos(a);
                let (sb, cb) = self.sin_cos(b);
                let sb = if minus { self.neg(sb) } else { sb };
                let (c, s) = self.rotate((ca, sa), (cb, sb));
                (s, c)
            }
            Argument::Negation(a) => {
                let (sa, ca) = self.sin_cos(a);
                (self.neg(sa), ca)
            }
            Argument::Multiple(k, a) => {
                let (s, c) = self.sin_cos(a);
                let s = if k < 0 { self.neg(s) } else { s };
                // (cos + i sin)^|k| by repeated squaring, as (cos, sin) pairs.
                let (mut result, mut base, mut n) = ((ONE, ZERO), (c, s), k.unsigned_abs());
                while n > 0 {
                    if n & 1 == 1 {
                        result = self.rotate(result, base);
                    }
                    base = self.rotate(base, base);
                    n >>= 1;
                }
                (result.1, result.0)
            }
            Argument::Base => {
                let t = self.plain_atom(Function::HalfTan, &[u]);
                let t2 = self.mul(t, t);
                let one_plus = self.add(ONE, t2);
                let one_minus = self.sub(ONE, t2);
                let two_t = self.add(t, t);
                (self.div(two_t, one_plus), self.div(one_minus, one_plus))
            }
        }
    }

    /// The angle sum of (cos a, sin a) and (cos b, sin b): (cos(a+b), sin(a+b)).
    fn rotate(&mut self, (ca, sa): (Id, Id), (cb, sb): (Id, Id)) -> (Id, Id) {
        let (ca_cb, sa_sb) = (self.mul(ca, cb), self.mul(sa, sb));
        let (sa_cb, ca_sb) = (self.mul(sa, cb), self.mul(ca, sb));
        (self.sub(ca_cb, sa_sb), self.add(sa_cb, ca_sb))
    }

    fn plain_atom(&mut self, f: Function, args: &[Id]) -> Id {
        if let [a] = args {
            match f {
                Function::Exp | Function::Cos if self.is(*a, 0) => return ONE,
                Function::Sin if self.is(*a, 0) => return ZERO,
                Function::Log if self.is(*a, 1) => return ZERO,
                _ => {}
            }
        }
        let application: Application = (f, args.into());
        if let Some(id) = self.atom_nodes.get(&application) {
            return *id;
        }
        let f = application.0.clone();
        for a in args {
            let (degree, height) = self.measure(*a).total();
            self.atom_argument = (self.atom_argument.0.max(degree), self.atom_argument.1.max(height));
        }
        self.atoms_made += 1;
        let arg_values: Vec<Lanes> = args.iter().map(|a| self.value(*a)).collect();
        let value = field::lanes(|lane| {
            let key = (f.clone(), lane, arg_values.iter().map(|v| v[lane]).collect());
            let (rng, prime) = (&mut self.rng, self.primes[lane]);
            *self.atom_values.entry(key).or_insert_with(|| rng.random_range(0..prime))
        });
        self.atoms.push(application.clone());
        let id = self.push(Op::Atom((self.atoms.len() - 1) as u32), value, Measure::VARIABLE, None);
        self.atom_nodes.insert(application, id);
        id
    }

    fn accumulate(&mut self, adjoint: &mut [Id], target: Id, contribution: Id) {
        if contribution == ZERO {
            return;
        }
        let slot = &mut adjoint[target as usize];
        *slot = if *slot == NONE { contribution } else { self.add(*slot, contribution) };
    }

    /// ∂output/∂w for every w in `wrt`, by one reverse sweep; the adjoints are recorded on the
    /// tape, so they can be differentiated again.
    pub fn gradient(&mut self, output: Id, wrt: &[Id]) -> Vec<Id> {
        let adjoint = match self.last_sweep.take() {
            Some((last, adjoint)) if last == output => adjoint,
            _ => self.sweep(output),
        };
        let gradient =
            wrt.iter().map(|w| adjoint.get(*w as usize).copied().filter(|a| *a != NONE).unwrap_or(ZERO)).collect();
        self.last_sweep = Some((output, adjoint));
        gradient
    }

    /// The adjoint of every node up to `output` (NONE where it does not reach the output).
    fn sweep(&mut self, output: Id) -> Vec<Id> {
        let mut adjoint = vec![NONE; output as usize + 1];
        adjoint[output as usize] = ONE;
        for id in (0..=output).rev() {
            let g = adjoint[id as usize];
            if g == NONE || matches!(self.trouble, Some(Trouble::TooLarge | Trouble::OutOfTime)) {
                continue;
            }
            let op = self.nodes[id as usize].op.clone();
            match op {
                Op::Constant | Op::Leaf => {}
                Op::Add(a, b) => {
                    self.accumulate(&mut adjoint, a, g);
                    self.accumulate(&mut adjoint, b, g);
                }
                Op::Sub(a, b) => {
                    self.accumulate(&mut adjoint, a, g);
                    let minus = self.neg(g);
                    self.accumulate(&mut adjoint, b, minus);
                }
                Op::Neg(a) => {
                    let minus = self.neg(g);
                    self.accumulate(&mut adjoint, a, minus);
                }
                Op::Mul(a, b) => {
                    let da = self.mul(g, b);
                    self.accumulate(&mut adjoint, a, da);
                    let db = self.mul(g, a);
                    self.accumulate(&mut adjoint, b, db);
                }
                Op::Div(a, b) => {
                    // c = a/b: dc = da/b − c db/b.
                    let da = self.div(g, b);
                    self.accumulate(&mut adjoint, a, da);
                    let c_over_b = self.div(id, b);
                    let db = self.mul(g, c_over_b);
                    let db = self.neg(db);
                    self.accumulate(&mut adjoint, b, db);
                }
                Op::Pow(a, k) => {
                    let k_const = self.constant(Ratio::int(i128::from(k)));
                    let lower = self.pow(a, k.saturating_sub(1));
                    let local = self.mul(k_const, lower);
                    let da = self.mul(g, local);
                    self.accumulate(&mut adjoint, a, da);
                }
                Op::Atom(k) => {
                    let (f, args) = self.atoms[k as usize].clone();
                    self.atom_adjoint(id, &f, &args, g, &mut adjoint)
                }
            }
        }
        adjoint
    }

    fn atom_adjoint(&mut self, id: Id, f: &Function, args: &[Id], g: Id, adjoint: &mut [Id]) {
        let local = match f {
            Function::Pi => return,
            Function::Exp => id,
            Function::Log => self.div(ONE, args[0]),
            Function::Sin => self.atom(Function::Cos, args),
            Function::Cos => {
                let s = self.atom(Function::Sin, args);
                self.neg(s)
            }
            Function::HalfTan => {
                // d tan(u/2) = (1 + tan²(u/2))/2 du
                let t2 = self.mul(id, id);
                let one_plus = self.add(ONE, t2);
                let half = self.constant(Ratio::new(1, 2).unwrap_or(Ratio::int(0)));
                self.mul(half, one_plus)
            }
            Function::Abs => self.div(args[0], id),
            // d atan u = du/(1+u²); d asin u = du/√(1−u²) = −d acos u.
            Function::Atan => {
                let u2 = self.mul(args[0], args[0]);
                let one_plus = self.add(ONE, u2);
                self.div(ONE, one_plus)
            }
            Function::Asin | Function::Acos => {
                let u2 = self.mul(args[0], args[0]);
                let one_minus = self.sub(ONE, u2);
                let root = self.atom(Function::Root(2), &[one_minus]);
                let inverse = self.div(ONE, root);
                if *f == Function::Asin {
                    inverse
                } else {
                    self.neg(inverse)
                }
            }
            Function::Root(q) => {
                let over_q = self.constant(Ratio::new(1, i128::from(*q)).unwrap_or(Ratio::int(0)));
                let power = self.pow(id, 1 - i64::from(*q));
                self.mul(over_q, power)
            }
            Function::Generic { name, index, partials } => {
                for (k, arg) in args.iter().enumerate() {
                    let mut next = partials.clone();
                    next[k] += 1;
                    let derivative =
                        self.atom(Function::Generic { name: name.clone(), index: *index, partials: next }, args);
                    let d = self.mul(g, derivative);
                    self.accumulate(adjoint, *arg, d);
                }
                return;
            }
        };
        let d = self.mul(g, local);
        self.accumulate(adjoint, args[0], d);
    }

    /// `roots` with each leaf of `replace` replaced by its value: the nodes above the leaves
    /// are recorded again (values, degrees and atoms recomputed), the rest are shared.
    pub fn substitute(&mut self, roots: &[Id], replace: &HashMap<Id, Id>) -> Vec<Id> {
        let Some(&lowest) = replace.keys().min() else { return roots.to_vec() };
        let mut done: HashMap<Id, Id> = replace.clone();
        let mut stack: Vec<(Id, bool)> = roots.iter().map(|r| (*r, false)).collect();
        while let Some((id, expanded)) = stack.pop() {
            if id < lowest || done.contains_key(&id) {
                continue;
            }
            let operands = self.operands(id);
            if !expanded {
                stack.push((id, true));
                stack.extend(operands.iter().filter(|o| **o >= lowest && !done.contains_key(o)).map(|o| (*o, false)));
                continue;
            }
            let new = |o: &Id| if *o < lowest { *o } else { done[o] };
            let changed = operands.iter().any(|o| new(o) != *o);
            let rebuilt = if !changed {
                id
            } else {
                match self.nodes[id as usize].op.clone() {
                    Op::Constant | Op::Leaf => id,
                    Op::Add(a, b) => self.add(new(&a), new(&b)),
                    Op::Sub(a, b) => self.sub(new(&a), new(&b)),
                    Op::Mul(a, b) => self.mul(new(&a), new(&b)),
                    Op::Div(a, b) => self.div(new(&a), new(&b)),
                    Op::Neg(a) => self.neg(new(&a)),
                    Op::Pow(a, k) => self.pow(new(&a), k),
                    Op::Atom(k) => {
                        let (f, args) = self.atoms[k as usize].clone();
                        let args: Vec<Id> = args.iter().map(new).collect();
                        self.atom(f, &args)
                    }
                }
            };
            done.insert(id, rebuilt);
        }
        roots.iter().map(|r| if *r < lowest { *r } else { done[r] }).collect()
    }
}

/// No adjoint yet.
const NONE: Id = Id::MAX;

#[cfg(test)]
mod tests {
    use super::*;

    fn fresh() -> Tape {
        Tape::new(7)
    }

    #[test]
    fn derivatives_of_rational_functions_match_the_rules() {
        let mut t = fresh();
        let x = t.leaf();
        // f = x³/(x+1); f' = (2x³+3x²)/(x+1)²
        let x3 = t.pow(x, 3);
        let x1 = t.add(x, ONE);
        let f = t.div(x3, x1);
        let df = t.gradient(f, &[x])[0];
        let two = t.constant(Ratio::int(2));
        let three = t.constant(Ratio::int(3));
        let a = t.mul(two, x3);
        let x2 = t.pow(x, 2);
        let b = t.mul(three, x2);
        let num = t.add(a, b);
        let den = t.pow(x1, 2);
        let expected = t.div(num, den);
        assert_eq!(t.value(df), t.value(expected));
        assert_eq!(t.trouble, None);
    }

    #[test]
    fn atoms_are_one_variable_per_argument_value_and_differentiate_by_their_rules() {
        let mut t = fresh();
        let x = t.leaf();
        let y = t.leaf();
        let e1 = t.atom(Function::Exp, &[x]);
        let sum = t.add(x, ZERO);
        let e2 = t.atom(Function::Exp, &[sum]);
        assert_eq!(t.value(e1), t.value(e2), "e^x twice is one variable");
        let e3 = t.atom(Function::Exp, &[y]);
        assert_ne!(t.value(e1), t.value(e3));
        // d/dx e^{x²} = 2x e^{x²}
        let x2 = t.mul(x, x);
        let e = t.atom(Function::Exp, &[x2]);
        let d = t.gradient(e, &[x, y]);
        let two_x = t.add(x, x);
        let expected = t.mul(two_x, e);
        assert_eq!(t.value(d[0]), t.value(expected));
        assert_eq!(d[1], ZERO);
        // second derivative through the recorded adjoint: d²/dx² sin x = −sin x
        let s = t.atom(Function::Sin, &[x]);
        let ds = t.gradient(s, &[x])[0];
        let dds = t.gradient(ds, &[x])[0];
        let minus_s = t.neg(s);
        assert_eq!(t.value(dds), t.value(minus_s));
    }

    #[test]
    fn sines_and_cosines_are_made_of_half_angle_tangents() {
        let mut t = fresh();
        let (x, y) = (t.leaf(), t.leaf());
        let (sx, cx) = (t.atom(Function::Sin, &[x]), t.atom(Function::Cos, &[x]));
        let (s2, c2) = (t.mul(sx, sx), t.mul(cx, cx));
        let one = t.add(s2, c2);
        assert_eq!(t.exact(one), None, "a rational function, not folded");
        assert_eq!(t.value(one), t.value(ONE), "sin² + cos² = 1");
        // sin(x − y) = sin x cos y − cos x sin y
        let difference = t.sub(x, y);
        let whole = t.atom(Function::Sin, &[difference]);
        let (sy, cy) = (t.atom(Function::Sin, &[y]), t.atom(Function::Cos, &[y]));
        let (a, b) = (t.mul(sx, cy), t.mul(cx, sy));
        let parts = t.sub(a, b);
        assert_eq!(t.value(whole), t.value(parts));
        // sin 3x = 3 sin x − 4 sin³ x, and cos(−x) = cos x
        let three = t.constant(Ratio::int(3));
        let triple = t.mul(three, x);
        let s3x = t.atom(Function::Sin, &[triple]);
        let (three_s, s_cubed) = (t.mul(three, sx), t.pow(sx, 3));
        let four = t.constant(Ratio::int(4));
        let four_s_cubed = t.mul(four, s_cubed);
        let expected = t.sub(three_s, four_s_cubed);
        assert_eq!(t.value(s3x), t.value(expected));
        let minus_x = t.neg(x);
        let c_minus = t.atom(Function::Cos, &[minus_x]);
        assert_eq!(t.value(c_minus), t.value(cx));
        // d/dx sin x = cos x; a wrong identity stays nonzero
        let d = t.gradient(sx, &[x])[0];
        assert_eq!(t.value(d), t.value(cx));
        assert_ne!(t.value(s3x), t.value(sx));
    }

    #[test]
    fn exponentials_of_sums_and_multiples_are_split() {
        let mut t = fresh();
        let (x, y) = (t.leaf(), t.leaf());
        let sum = t.sub(x, y);
        let whole = t.atom(Function::Exp, &[sum]);
        let (ex, ey) = (t.atom(Function::Exp, &[x]), t.atom(Function::Exp, &[y]));
        let parts = t.div(ex, ey);
        assert_eq!(t.value(whole), t.value(parts));
        let two = t.constant(Ratio::int(2));
        let twice = t.mul(two, x);
        let e2x = t.atom(Function::Exp, &[twice]);
        let squared = t.pow(ex, 2);
        assert_eq!(t.value(e2x), t.value(squared));
        let e = t.atom(Function::Exp, &[ONE]);
        let e_squared = t.atom(Function::Exp, &[two]);
        let e_times_e = t.mul(e, e);
        assert_eq!(t.value(e_squared), t.value(e_times_e));
    }

    #[test]
    fn substitution_replays_what_depends_on_the_leaf() {
        let mut t = fresh();
        let x = t.leaf();
        let z = t.leaf(); // stands for x²
        let x2 = t.mul(x, x);
        t.bind(z, x2);
        let f = t.atom(Function::Exp, &[z]);
        let replaced = t.substitute(&[f], &HashMap::from([(z, x2)]))[0];
        assert_eq!(t.value(replaced), t.value(f));
        // now f depends on x: d/dx e^{x²} = 2x e^{x²}
        let d = t.gradient(replaced, &[x])[0];
        let two_x = t.add(x, x);
        let expected = t.mul(two_x, replaced);
        assert_eq!(t.value(d), t.value(expected));
        assert_eq!(t.measure(replaced), Measure::VARIABLE);
    }

    #[test]
    fn zero_denominators_are_trouble_and_degrees_are_bounded() {
        let mut t = fresh();
        let x = t.leaf();
        let _ = t.div(x, ZERO);
        assert_eq!(t.trouble, Some(Trouble::DivisionByZero));
        let mut t = fresh();
        let x = t.leaf();
        let y = t.leaf();
        let q = t.div(x, y);
        let s = t.add(q, x);
        let m = t.measure(s);
        assert_eq!((m.numerator_degree, m.denominator_degree), (2, 1));
        assert_eq!((m.numerator_height, m.denominator_height), (1.0, 0.0));
        let p = t.pow(s, -3);
        let m = t.measure(p);
        assert_eq!((m.numerator_degree, m.denominator_degree), (3, 6));
        let big = t.constant(Ratio::int(1 << 40));
        let scaled = t.mul(big, x);
        assert_eq!(t.measure(scaled).numerator_height, 40.0);
        let four = t.constant(Ratio::int(4));
        let root = t.pow_rational(four, Ratio::new(1, 2).unwrap());
        assert_eq!(t.exact(root), Some(Ratio::int(2)));
    }
}
