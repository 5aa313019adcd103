//! Stage 6 — `numeric`: the same formulas evaluated on floating-point values (ndarray).
//!
//! Provides the floating-point [`Backend`]: leaves are bound to given or seeded random values,
//! σ is a concrete smooth function (tanh), F a concrete smooth map, and derivatives are central
//! differences [f(θ+εe_r) − f(θ−εe_r)]/(2ε) over the leaves ([`central_differences`]). Used to
//! cross-check symbolic verdicts at larger sizes and to recompute the worked example.

pub mod crosscheck;
pub mod example;
pub mod probability;
pub mod quadrature;

use crate::eval::{derivative_layout, Backend, Elementary, EvalError, EvalErrorKind, Integrand, Limit, Scalar, Value};
use crate::syntax::ast::Span;
use ndarray::{Array1, Array2};
use rand::{Rng, SeedableRng};
use std::cell::RefCell;
use std::collections::HashMap;

/// A float that remembers whether it is a leaf (and which), so derivatives know what to move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Num {
    pub value: f64,
    pub leaf: Option<u32>,
}

impl Num {
    pub fn of(value: f64) -> Num {
        Num { value, leaf: None }
    }
}

impl Scalar for Num {
    fn int(n: i64) -> Self {
        Num::of(n as f64)
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        Num::of(numerator as f64 / denominator as f64)
    }
    fn euler() -> Self {
        Num::of(std::f64::consts::E)
    }
    fn pi() -> Self {
        Num::of(std::f64::consts::PI)
    }
    fn plus(&self, o: &Self) -> Self {
        Num::of(self.value + o.value)
    }
    fn minus(&self, o: &Self) -> Self {
        Num::of(self.value - o.value)
    }
    fn times(&self, o: &Self) -> Self {
        Num::of(self.value * o.value)
    }
    fn over(&self, o: &Self) -> Self {
        Num::of(self.value / o.value)
    }
    /// Against Hadamard's bound (|det| ≤ the product of the rows' lengths): below 10⁻¹⁰ of it,
    /// the matrix is singular as far as floats can tell (`(X^\top X)^{-1}` with more columns
    /// than rows).
    fn negligible_determinant(det: &Self, entries: &[Self], n: usize) -> bool {
        let bound: f64 =
            entries.chunks(n.max(1)).map(|row| row.iter().map(|x| x.value * x.value).sum::<f64>().sqrt()).product();
        // (A NaN determinant is noise too.)
        det.value.abs().partial_cmp(&(1e-10 * bound)) != Some(std::cmp::Ordering::Greater)
    }
    fn negate(&self) -> Self {
        Num::of(-self.value)
    }
    fn power(&self, e: &Self) -> Self {
        if self.value == std::f64::consts::E {
            return Num::of(e.value.exp());
        }
        Num::of(self.value.powf(e.value))
    }
    fn elementary(f: Elementary, x: &Self) -> Self {
        Num::of(match f {
            Elementary::Exp => x.value.exp(),
            Elementary::Log => x.value.ln(),
            Elementary::Sin => x.value.sin(),
            Elementary::Cos => x.value.cos(),
            Elementary::Abs => x.value.abs(),
            Elementary::Atan => x.value.atan(),
            Elementary::Asin => x.value.asin(),
            Elementary::Acos => x.value.acos(),
        })
    }
    fn size(&self) -> usize {
        8
    }
    fn fast_matmul(a: &[Self], b: &[Self], m: usize, k: usize, n: usize) -> Option<Vec<Self>> {
        let a = Array2::from_shape_vec((m, k), a.iter().map(|x| x.value).collect()).ok()?;
        let b = Array2::from_shape_vec((k, n), b.iter().map(|x| x.value).collect()).ok()?;
        Some(a.dot(&b).iter().map(|&v| Num::of(v)).collect())
    }
    fn softmax_shift(row: &[Self]) -> Self {
        Num::of(row.iter().map(|n| n.value).fold(f64::NEG_INFINITY, f64::max).max(-1e300))
    }
}

/// Leaf values by name; unbound leaves get seeded random values in [0.1, 0.6).
pub struct Numeric {
    names: RefCell<HashMap<String, u32>>,
    blocks: RefCell<HashMap<(String, usize, usize), Vec<u32>>>,
    values: RefCell<Vec<f64>>,
    given: HashMap<String, f64>,
    rng: RefCell<rand::rngs::StdRng>,
    /// Step of the central differences.
    pub epsilon: f64,
}

impl Numeric {
    pub fn new(seed: u64, epsilon: f64) -> Numeric {
        Numeric {
            names: RefCell::new(HashMap::new()),
            blocks: RefCell::new(HashMap::new()),
            values: RefCell::new(Vec::new()),
            given: HashMap::new(),
            rng: RefCell::new(rand::rngs::StdRng::seed_from_u64(seed)),
            epsilon,
        }
    }

    /// Binds leaves by their internal names (as [`crate::eval::Instance::leaf`] makes them).
    pub fn with_values(mut self, values: HashMap<String, f64>) -> Numeric {
        self.given = values;
        self
    }

    fn id_of(&self, name: &str) -> u32 {
        if let Some(id) = self.names.borrow().get(name) {
            return *id;
        }
        let value = self.given.get(name).copied().unwrap_or_else(|| self.rng.borrow_mut().random_range(0.1..0.6));
        let mut values = self.values.borrow_mut();
        values.push(value);
        let id = (values.len() - 1) as u32;
        self.names.borrow_mut().insert(name.to_string(), id);
        id
    }

    /// Every leaf made so far, by internal name, with its value.
    pub fn point(&self) -> Vec<(String, f64)> {
        let values = self.values.borrow();
        let mut out: Vec<(String, f64)> =
            self.names.borrow().iter().map(|(name, id)| (name.clone(), values[*id as usize])).collect();
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    fn set(&self, id: u32, value: f64) {
        self.values.borrow_mut()[id as usize] = value;
    }

    fn get(&self, id: u32) -> f64 {
        self.values.borrow()[id as usize]
    }
}

/// The concrete σ used numerically, and its derivatives.
fn sigma(t: f64, primes: usize) -> f64 {
    let th = t.tanh();
    match primes {
        0 => th,
        1 => 1.0 - th * th,
        _ => -2.0 * th * (1.0 - th * th),
    }
}

impl Backend for Numeric {
    type S = Num;

    fn leaf(&self, name: &str, _shown: &str) -> Num {
        let id = self.id_of(name);
        Num { value: self.get(id), leaf: Some(id) }
    }

    fn leaf_block(&self, key: &str, rows: usize, cols: usize, make: &dyn Fn(usize, usize) -> Num) -> Vec<Num> {
        let block = (key.to_string(), rows, cols);
        if let Some(ids) = self.blocks.borrow().get(&block) {
            let values = self.values.borrow();
            return ids.iter().map(|&id| Num { value: values[id as usize], leaf: Some(id) }).collect();
        }
        let made: Vec<Num> = (0..rows * cols).map(|k| make(k / cols, k % cols)).collect();
        self.blocks.borrow_mut().insert(block, made.iter().filter_map(|n| n.leaf).collect());
        made
    }

    /// σ = tanh entry-wise; F_i(x) = tanh(Σ_j x_j / j + x_i), smooth and mixing all inputs.
    fn generic(&self, _function: &str, index: Option<i64>, args: &[Num], primes: usize) -> Num {
        match index {
            None => Num::of(sigma(args[0].value, primes)),
            Some(i) => {
                let mix: f64 = args.iter().enumerate().map(|(j, a)| a.value / (j + 1) as f64).sum();
                Num::of((mix + args[(i - 1) as usize].value).tanh())
            }
        }
    }

    /// sin(c₀ + Σ c_k a_k), with coefficients in [0.6, 1.4) drawn from the name: smooth, one per
    /// name, and every derivative exact (sin⁽ⁿ⁾(s) = sin(s + nπ/2), times Π c_k^{p_k}).
    fn unknown(&self, name: &str, args: &[Num], partials: &[u32]) -> Num {
        let mut h =
            name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3));
        let mut next = || {
            h ^= h << 13;
            h ^= h >> 7;
            h ^= h << 17;
            0.6 + 0.8 * ((h >> 11) as f64 / (1u64 << 53) as f64)
        };
        let offset = next();
        let (mut s, mut factor, mut order) = (offset, 1.0, 0u32);
        for (k, a) in args.iter().enumerate() {
            let c = next();
            s += c * a.value;
            let p = partials.get(k).copied().unwrap_or(0);
            factor *= c.powi(p as i32);
            order += p;
        }
        Num::of(factor * (s + f64::from(order) * std::f64::consts::FRAC_PI_2).sin())
    }

    fn differentiate(
        &self,
        f: &dyn Fn() -> Result<Value<Num>, EvalError>,
        x: &Value<Num>,
        span: Span,
    ) -> Result<Value<Num>, EvalError> {
        let ids = x
            .data
            .iter()
            .map(|a| a.leaf.ok_or(EvalErrorKind::NotALeaf { what: format!("{}", a.value) }.at(span)))
            .collect::<Result<Vec<_>, _>>()?;
        let shape = f()?;
        let columns = central_differences(self, &ids, self.epsilon, || {
            f().map(|v| Array1::from_iter(v.data.iter().map(|n| n.value)))
        })?;
        derivative_layout(&shape, x, span, |i| columns.iter().map(|c| Num::of(c[i])).collect())
    }

    fn bind(&self, leaves: &Value<Num>, actual: &Value<Num>) {
        for (l, a) in leaves.data.iter().zip(&actual.data) {
            if let Some(id) = l.leaf {
                self.set(id, a.value);
            }
        }
    }

    fn substitute(&self, v: Value<Num>, _leaves: &Value<Num>, _actual: &Value<Num>) -> Value<Num> {
        v
    }

    /// A fixed direction per leaf: d(leaf) is a seeded number, the same on both sides.
    fn differential(&self, leaf: &Num, span: Span) -> Result<Num, EvalError> {
        let id = leaf.leaf.ok_or(EvalErrorKind::NotALeaf { what: format!("{}", leaf.value) }.at(span))?;
        Ok(Num::of(0.5 + (id as f64 * 0.618_033_988_75).fract()))
    }

    /// Adaptive Gauss–Kronrod quadrature ([`quadrature`]): an integrand error is passed on; a
    /// value that is not finite or does not converge leaves the claim undecided.
    fn integrate(
        &self,
        integrand: &Integrand<'_, Num>,
        lower: Limit<Num>,
        upper: Limit<Num>,
        span: Span,
    ) -> Option<Result<Num, EvalError>> {
        let end = |l: Limit<Num>| match l {
            Limit::At(n) => quadrature::End::At(n.value),
            Limit::PlusInfinity => quadrature::End::PlusInfinity,
            Limit::MinusInfinity => quadrature::End::MinusInfinity,
        };
        let mut failed: Option<EvalError> = None;
        let mut f = |x: f64| {
            integrand(&Num::of(x)).map(|n| n.value).map_err(|e| {
                let shown = e.to_string();
                failed = Some(e);
                shown
            })
        };
        let result = quadrature::integrate(&mut f, end(lower), end(upper));
        Some(match result {
            Ok((value, _)) => Ok(Num::of(value)),
            Err(quadrature::Failure::Integrand(_)) => Err(failed.expect("the integrand's error")),
            Err(quadrature::Failure::NotFinite { x }) => Err(EvalErrorKind::Budget {
                what: format!("an integral whose integrand is not finite at {x:.6}"),
            }
            .at(span)),
            Err(quadrature::Failure::NoConvergence { value, estimate }) => Err(EvalErrorKind::Budget {
                what: format!(
                    "an integral the quadrature did not settle within {} intervals (≈ {value:.6}, error ≈ {estimate:.1e}): divergent or singular?",
                    quadrature::MAX_INTERVALS
                ),
            }
            .at(span)),
        })
    }
}

/// Moves one leaf so that the float points satisfy `assumption` (a one-hot sum: the last
/// y_j takes up the rest; `\frac{p}{1-p} = e^{w}`: p moved to the root): a secant step taken as
/// if the residual were linear in the leaf, then Newton steps (slopes by differences) while it
/// is not yet zero, at most [`SATISFY_STEPS`]; the residual is checked after the move. Leaves
/// are tried from the last made. `Ok(false)` when no leaf can satisfy it.
pub fn satisfy(inst: &crate::eval::Instance<Numeric>, assumption: &crate::sema::Assumption) -> Result<bool, EvalError> {
    let env = crate::eval::Env::new();
    let residuals = || {
        inst.forget_cached();
        inst.residual(assumption, &env).map(|entries| entries.into_iter().map(|n| n.value).collect::<Vec<f64>>())
    };
    let backend = inst.backend;
    let leaves = backend.values.borrow().len() as u32;
    // One equation per entry: each made to hold by moving one leaf it depends on (the last
    // such leaf not already moved for an earlier entry); then all must hold together.
    let entries = residuals()?.len();
    let mut moved: Vec<u32> = Vec::new();
    for entry in 0..entries {
        let before = residuals()?[entry];
        let close = |r: f64| r.abs() <= 1e-9 * (1.0 + before.abs());
        let mut solved = false;
        for id in (0..leaves).rev().filter(|id| !moved.contains(id)) {
            let start = backend.get(id);
            let (mut at, mut residual, mut step) = (start, before, 1.0);
            // (A residual that cannot be evaluated at a step: that leaf is given up, not the
            // assumption.)
            let residual_at = |value: f64| {
                backend.set(id, value);
                residuals().ok().map(|r| r[entry]).filter(|r| r.is_finite())
            };
            for _ in 0..SATISFY_STEPS {
                let Some(moved) = residual_at(at + step) else { break };
                let slope = (moved - residual) / step;
                if !slope.is_finite() || slope.abs() <= 1e-9 {
                    break;
                }
                at -= residual / slope;
                let Some(next) = residual_at(at) else { break };
                residual = next;
                solved = close(residual);
                if solved {
                    break;
                }
                step = 1e-6 * (1.0 + at.abs());
            }
            if solved {
                moved.push(id);
                break;
            }
            backend.set(id, start);
        }
        if !solved {
            residuals()?;
            return Ok(false);
        }
    }
    Ok(residuals()?.iter().all(|r| r.abs() <= 1e-9 * (1.0 + r.abs())))
}

/// The most steps [`satisfy`] takes moving one leaf: a secant step, then Newton's.
const SATISFY_STEPS: usize = 30;

/// Central differences of a vector-valued function over the given leaves: column r is
/// [f(θ+εe_r) − f(θ−εe_r)]/(2ε). The leaves are restored afterwards.
pub fn central_differences(
    backend: &Numeric,
    leaves: &[u32],
    epsilon: f64,
    f: impl Fn() -> Result<Array1<f64>, EvalError>,
) -> Result<Vec<Array1<f64>>, EvalError> {
    leaves
        .iter()
        .map(|&id| {
            let original = backend.get(id);
            backend.set(id, original + epsilon);
            let plus = f();
            backend.set(id, original - epsilon);
            let minus = f();
            backend.set(id, original);
            Ok((plus? - minus?) / (2.0 * epsilon))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leaves(backend: &Numeric, names: &[(&str, f64)]) -> Vec<u32> {
        names.iter().map(|(n, _)| backend.leaf(n, n).leaf.unwrap()).collect()
    }

    #[test]
    fn a_determinant_below_rounding_makes_the_inverse_noise() {
        let num = |v: f64| Num::of(v);
        // X^T X of a 2×3 X has rank 2: its 3×3 determinant is rounding noise.
        let rank_two = [1.0, 2.0, 3.0, 2.0, 4.0, 6.0, 0.5, 1.0, 1.5].map(num);
        assert!(Num::negligible_determinant(&num(3e-16), &rank_two, 3));
        let invertible = [2.0, 1.0, 1.0, 1.0].map(num);
        assert!(!Num::negligible_determinant(&num(1.0), &invertible, 2));
    }

    #[test]
    fn central_differences_match_known_derivatives() {
        let values = [("x", 0.7), ("y", -1.3)].map(|(n, v)| (n.to_string(), v)).into_iter().collect();
        let backend = Numeric::new(1, 1e-5).with_values(values);
        let ids = leaves(&backend, &[("x", 0.7), ("y", -1.3)]);
        // f(x, y) = (x² y, e^x + sin y): ∂/∂x = (2xy, e^x), ∂/∂y = (x², cos y).
        let f = || {
            let (x, y) = (backend.get(ids[0]), backend.get(ids[1]));
            Ok(Array1::from(vec![x * x * y, x.exp() + y.sin()]))
        };
        let cols = central_differences(&backend, &ids, 1e-5, f).unwrap();
        let (x, y) = (0.7f64, -1.3f64);
        assert!((cols[0][0] - 2.0 * x * y).abs() < 1e-8, "{cols:?}");
        assert!((cols[0][1] - x.exp()).abs() < 1e-8);
        assert!((cols[1][0] - x * x).abs() < 1e-8);
        assert!((cols[1][1] - y.cos()).abs() < 1e-8);
        assert_eq!((backend.get(ids[0]), backend.get(ids[1])), (0.7, -1.3), "leaves restored");
    }

    #[test]
    fn a_wrong_derivative_is_told_apart() {
        let backend = Numeric::new(2, 1e-5);
        let id = backend.leaf("t", "t").leaf.unwrap();
        let t = backend.get(id);
        let cols =
            central_differences(&backend, &[id], 1e-5, || Ok(Array1::from(vec![(backend.get(id)).powi(3)]))).unwrap();
        assert!((cols[0][0] - 3.0 * t * t).abs() < 1e-7);
        assert!((cols[0][0] - 2.0 * t * t).abs() > 1e-3, "2t² is not the derivative of t³");
    }

    #[test]
    fn sigma_derivative_is_consistent_with_differences() {
        let h = 1e-6;
        for t in [-1.0, 0.2, 0.9] {
            let fd = (sigma(t + h, 0) - sigma(t - h, 0)) / (2.0 * h);
            assert!((fd - sigma(t, 1)).abs() < 1e-8);
        }
    }
}
