//! Stage 6 — `modular`: randomized exact identity testing (Schwartz–Zippel, as Maple's `testeq`).
//!
//! Takes: a section's scope, sizes and a claim's two sides (through the evaluator). Gives: an
//! [`Outcome`]: the sides agree at random points of a prime field, with the probability that
//! they agree by chance bounded; or they differ there; or the test does not apply.
//!
//! Every leaf gets a random value modulo p = 2⁶¹ − 1; every transcendental function value
//! (e^u, ln u, √u, σ(u), σ′(u), F_i(x), π) becomes a fresh variable ([`tape`]); derivatives and
//! adjoints are exact, by reverse-mode automatic differentiation over the field with each
//! function's derivative rule. Each operation also bounds the degree of its result as a rational
//! function in those variables (and the height of its integer coefficients). If lhs − rhs is not
//! the zero function, its numerator vanishes at a uniformly random point modulo a random prime p
//! with probability at most D/p (Schwartz–Zippel) plus the chance that p divides its
//! coefficients; see [`error_bound`]. [`LANES`] independent primes and points are evaluated at
//! once, so a false "equal" has probability at most ε^LANES.
//!
//! Zero at every point proves the identity as a rational function in those variables — so for
//! the real functions too. A nonzero value is *not* a refutation: the atoms have relations the
//! test does not know (e^{a+b} = e^a e^b, ln e^x = x, sin² + cos² = 1); the caller falls back to
//! the CAS and floats. Needs no Symbolica: runs on any thread (one tape per thread).

pub mod field;
pub mod tape;

use crate::eval::{derivative_layout, Backend, Elementary, EvalError, EvalErrorKind, Instance, Scalar, Value};
use crate::syntax::ast::Span;
use field::{Ratio, LANES, PRIMES_IN_RANGE_LOG2, PRIME_BITS};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use tape::{with_tape, Function, Id, Trouble};

/// A value in the prime field: a node of this thread's tape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Residue(pub Id);

fn on_tape(f: impl FnOnce(&mut tape::Tape) -> Id) -> Residue {
    Residue(with_tape(f))
}

impl Scalar for Residue {
    fn int(n: i64) -> Self {
        on_tape(|t| t.constant(Ratio::int(i128::from(n))))
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        match Ratio::new(i128::from(numerator), i128::from(denominator)) {
            Some(r) => on_tape(|t| t.constant(r)),
            None => on_tape(|t| t.div(tape::ONE, tape::ZERO)),
        }
    }
    fn euler() -> Self {
        on_tape(|t| t.atom(Function::Exp, &[tape::ONE]))
    }
    fn pi() -> Self {
        on_tape(|t| t.atom(Function::Pi, &[]))
    }
    fn plus(&self, o: &Self) -> Self {
        on_tape(|t| t.add(self.0, o.0))
    }
    fn minus(&self, o: &Self) -> Self {
        on_tape(|t| t.sub(self.0, o.0))
    }
    fn times(&self, o: &Self) -> Self {
        on_tape(|t| t.mul(self.0, o.0))
    }
    fn over(&self, o: &Self) -> Self {
        on_tape(|t| t.div(self.0, o.0))
    }
    fn negate(&self) -> Self {
        on_tape(|t| t.neg(self.0))
    }
    /// An exact rational exponent is a power (a root where it is not an integer); e^x is the
    /// exp atom; any other a^b is e^{b ln a}.
    fn power(&self, e: &Self) -> Self {
        on_tape(|t| {
            // e^{1/2} is exp(1/2), not a root of e: the same atom as in e^{x-1/2} = e^x/e^{1/2}.
            if t.is_euler(self.0) {
                return t.atom(Function::Exp, &[e.0]);
            }
            if let Some(r) = t.exact(e.0) {
                return t.pow_rational(self.0, r);
            }
            let log = t.atom(Function::Log, &[self.0]);
            let exponent = t.mul(e.0, log);
            t.atom(Function::Exp, &[exponent])
        })
    }
    fn elementary(f: Elementary, x: &Self) -> Self {
        let function = match f {
            Elementary::Exp => Function::Exp,
            Elementary::Log => Function::Log,
            Elementary::Sin => Function::Sin,
            Elementary::Cos => Function::Cos,
            Elementary::Abs => Function::Abs,
            Elementary::Atan => Function::Atan,
            Elementary::Asin => Function::Asin,
            Elementary::Acos => Function::Acos,
        };
        on_tape(|t| t.atom(function, &[x.0]))
    }
    fn size(&self) -> usize {
        8
    }
}

/// The prime-field backend: leaves are random residues, named once (a fresh instance asking for
/// the same leaf gets the same node).
pub struct Modular {
    tape: Rc<RefCell<tape::Tape>>,
    leaves: RefCell<HashMap<String, Id>>,
    /// Leaf matrices by (key, rows, cols): made once, as their names are.
    blocks: RefCell<HashMap<(String, usize, usize), Vec<Residue>>>,
    /// Opaque leaves bound to what they stand for (for [`Backend::substitute`]).
    bound: RefCell<HashMap<Id, Id>>,
}

impl Modular {
    /// A backend on a fresh tape with new primes and a new random point from `seed`, active on
    /// this thread (values of another backend are void until it is activated again).
    pub fn new(seed: u64) -> Modular {
        let tape = tape::shared(seed);
        tape::activate(&tape);
        Modular {
            tape,
            leaves: RefCell::new(HashMap::new()),
            blocks: RefCell::new(HashMap::new()),
            bound: RefCell::new(HashMap::new()),
        }
    }

    /// Makes this backend's tape the one this thread's values live on.
    pub fn activate(&self) {
        tape::activate(&self.tape);
    }

    /// Whether something went wrong on the tape (a zero denominator, a tape too large): its
    /// values and everything cached from them must not be used again.
    pub fn troubled(&self) -> bool {
        self.tape.borrow().trouble.is_some()
    }

    /// Whether the tape outgrew its limit or its time: other claims at these sizes would too.
    pub fn too_large(&self) -> bool {
        matches!(self.tape.borrow().trouble, Some(Trouble::TooLarge | Trouble::OutOfTime))
    }

    /// The time by which the current claim's work must stop.
    pub fn set_deadline(&self, deadline: std::time::Instant) {
        self.tape.borrow_mut().deadline = Some(deadline);
    }

    fn named_leaf(&self, name: &str) -> Id {
        if let Some(id) = self.leaves.borrow().get(name) {
            return *id;
        }
        let id = with_tape(|t| t.leaf());
        self.leaves.borrow_mut().insert(name.to_string(), id);
        id
    }
}

impl Backend for Modular {
    type S = Residue;

    fn leaf(&self, name: &str, _shown: &str) -> Residue {
        Residue(self.named_leaf(name))
    }

    fn leaf_block(&self, key: &str, rows: usize, cols: usize, make: &dyn Fn(usize, usize) -> Residue) -> Vec<Residue> {
        let block = (key.to_string(), rows, cols);
        if let Some(leaves) = self.blocks.borrow().get(&block) {
            return leaves.clone();
        }
        let made: Vec<Residue> = (0..rows * cols).map(|k| make(k / cols, k % cols)).collect();
        self.blocks.borrow_mut().insert(block, made.clone());
        made
    }

    fn generic(&self, function: &str, index: Option<i64>, args: &[Residue], primes: usize) -> Residue {
        let partials = match index {
            None => vec![primes as u32],
            Some(_) => vec![0; args.len()],
        };
        let ids: Vec<Id> = args.iter().map(|a| a.0).collect();
        let f = Function::Generic { name: function.to_string(), index, partials };
        on_tape(|t| t.atom(f, &ids))
    }

    /// A fresh random variable per (function, derivative orders, argument values): only the
    /// rules of calculus relate them.
    fn unknown(&self, name: &str, args: &[Residue], partials: &[u32]) -> Residue {
        let ids: Vec<Id> = args.iter().map(|a| a.0).collect();
        let f = Function::Generic { name: format!("unknown {name}"), index: None, partials: partials.to_vec() };
        on_tape(|t| t.atom(f, &ids))
    }

    fn differentiate(
        &self,
        f: &dyn Fn() -> Result<Value<Residue>, EvalError>,
        x: &Value<Residue>,
        span: Span,
    ) -> Result<Value<Residue>, EvalError> {
        let wrt: Vec<Id> = x.data.iter().map(|r| r.0).collect();
        if let Some(not_leaf) = wrt.iter().find(|id| !with_tape(|t| t.is_leaf(**id))) {
            return Err(EvalErrorKind::NotALeaf { what: format!("node {not_leaf}") }.at(span));
        }
        let f = f()?;
        derivative_layout(&f, x, span, |i| {
            with_tape(|t| t.gradient(f.data[i].0, &wrt)).into_iter().map(Residue).collect()
        })
    }

    fn moves_leaves(&self) -> bool {
        false
    }

    fn bind(&self, leaves: &Value<Residue>, actual: &Value<Residue>) {
        for (l, a) in leaves.data.iter().zip(&actual.data) {
            with_tape(|t| t.bind(l.0, a.0));
            self.bound.borrow_mut().insert(l.0, a.0);
        }
    }

    fn substitute(&self, v: Value<Residue>, leaves: &Value<Residue>, actual: &Value<Residue>) -> Value<Residue> {
        let replace: HashMap<Id, Id> = leaves.data.iter().zip(&actual.data).map(|(l, a)| (l.0, a.0)).collect();
        let roots: Vec<Id> = v.data.iter().map(|r| r.0).collect();
        let replaced = with_tape(|t| t.substitute(&roots, &replace));
        Value { data: replaced.into_iter().map(Residue).collect(), ..v }
    }

    fn differential(&self, leaf: &Residue, span: Span) -> Result<Residue, EvalError> {
        let name = self.leaves.borrow().iter().find(|(_, id)| **id == leaf.0).map(|(n, _)| n.clone());
        let name = name.ok_or(EvalErrorKind::NotALeaf { what: format!("node {}", leaf.0) }.at(span))?;
        Ok(Residue(self.named_leaf(&format!("d{name}"))))
    }
}

/// What one comparison at one random point (in every lane) showed.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Zero in every entry and lane; the chance of that for a false identity is at most
    /// `error` (a probability).
    Zero { error: f64, degree: u64 },
    /// Nonzero at entry `entry` (1-based row, column; `None` for a scalar).
    Nonzero { entry: Option<(usize, usize)> },
    /// A denominator vanished at this point: evaluate again at another one.
    Redraw,
    /// The test does not apply (the formula divides by zero, or is too large for the tape).
    Inapplicable(String),
}

/// Compares two evaluated sides entry by entry. A shape mismatch is an error that refutes,
/// with the layout hint when the sides are transposes of each other.
pub fn compare(lhs: &Value<Residue>, rhs: &Value<Residue>, span: Span) -> Result<Outcome, EvalError> {
    let diff = match lhs.zip(rhs, "the two sides", span, false, Residue::minus) {
        Ok(diff) => diff,
        Err(e) => return Err(transposed_hint(lhs, rhs, span).unwrap_or(e)),
    };
    if let Some(trouble) = with_tape(|t| t.trouble) {
        return Ok(troubled(trouble));
    }
    let (mut degree, mut height) = (0u64, 0f64);
    for (k, d) in diff.data.iter().enumerate() {
        let (value, measure, exact) = with_tape(|t| (t.value(d.0), t.measure(d.0), t.exact(d.0)));
        let known_nonzero = exact.is_some_and(|r| !r.is_zero());
        if known_nonzero || value.iter().any(|v| *v != 0) {
            let entry = (diff.data.len() > 1).then(|| (k / diff.cols + 1, k % diff.cols + 1));
            return Ok(Outcome::Nonzero { entry });
        }
        if exact.is_none() {
            degree = degree.max(measure.numerator_degree);
            height = height.max(measure.numerator_height);
        }
    }
    let (atoms, argument) = with_tape(|t| (t.atoms_made, t.atom_argument));
    Ok(Outcome::Zero { error: error_bound(degree, height, atoms, argument), degree })
}

fn troubled(trouble: Trouble) -> Outcome {
    match trouble {
        Trouble::ZeroAtSample => Outcome::Redraw,
        Trouble::DivisionByZero => Outcome::Inapplicable("a division by zero".into()),
        Trouble::TooLarge => Outcome::Inapplicable(format!("more than {} operations", tape::MAX_NODES)),
        Trouble::OutOfTime => Outcome::Inapplicable("the claim's time ran out".into()),
    }
}

/// ε^LANES, the chance that a false identity is zero in every lane, where for one lane (a random
/// prime p ≥ 2⁶¹ and a random point) ε bounds the union of:
/// - p divides the difference's numerator, a nonzero integer polynomial of height ≤ h: it has
///   at most h/61 such prime factors among the 2^55.4 primes in range;
/// - the numerator, nonzero modulo p, of degree ≤ D vanishes at the point: ≤ D/p;
/// - two different atom arguments (each of total degree ≤ δ and height ≤ η, so their difference
///   has numerator degree ≤ 2δ and height ≤ 2η) take one value: for each of the C(m,2) pairs,
///   ≤ 2δ/p + (2η/61)/2^55.4.
///
/// A difference that is exactly the constant 0 has error 0.
pub fn error_bound(degree: u64, height: f64, atoms: u64, argument: (u64, f64)) -> f64 {
    let pairs = {
        let m = atoms as f64;
        m * (m - 1.0) / 2.0
    };
    let by_point = 2f64.powi(-PRIME_BITS);
    let by_prime = 2f64.powf(-PRIMES_IN_RANGE_LOG2) / f64::from(PRIME_BITS);
    if degree == 0 && height == 0.0 && atoms == 0 {
        return 0.0;
    }
    let per_lane =
        (degree as f64 + pairs * 2.0 * argument.0 as f64) * by_point + (height + pairs * 2.0 * argument.1) * by_prime;
    per_lane.min(1.0).powi(LANES as i32)
}

fn transposed_hint(lhs: &Value<Residue>, rhs: &Value<Residue>, span: Span) -> Option<EvalError> {
    if lhs.is_free() || rhs.is_free() || lhs.shape() != (rhs.cols, rhs.rows) || lhs.shape() == rhs.shape() {
        return None;
    }
    let t = rhs.transpose();
    let equal = lhs.data.iter().zip(&t.data).all(|(a, b)| with_tape(|tape| tape.value(a.0) == tape.value(b.0)));
    equal.then(|| EvalErrorKind::TransposedLayout { left: lhs.shape(), right: rhs.shape() }.at(span))
}

/// How many times a point is redrawn after a denominator vanished there.
pub const REDRAWS: u64 = 4;

/// Evaluates both sides of a claim in `inst` (made on a fresh [`Modular`]) and compares them.
pub fn test_at(
    inst: &Instance<Modular>,
    lhs: &crate::syntax::ast::Expr,
    rhs: &crate::syntax::ast::Expr,
    env: &crate::eval::Env,
) -> Result<Outcome, EvalError> {
    let l = inst.eval(lhs, env)?;
    let r = inst.eval(rhs, env)?;
    compare(&l, &r, Span::new(lhs.span.start, rhs.span.end))
}
