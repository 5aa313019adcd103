//! Stage 6 — `cas`: exact checking with Symbolica.
//!
//! Provides the exact [`Backend`] for the evaluator (leaves are Symbolica variables, generic
//! functions stay generic, derivatives are symbolic) and [`compare`]: do two values agree —
//! exactly (rational normal form with exp atoms, log and trig rewrites) or, where that cannot
//! decide, at random points with 200-bit floats — with a counterexample when they do not.
//! All Symbolica work happens on one worker thread ([`worker`]); only plain data leaves it.

mod compare;
pub mod isolate;
pub mod worker;

pub use crate::model::{Method, Mismatch};
pub use compare::{compare, weaker, Agreement, Assumptions};
pub use isolate::{inline, isolated, Stopped};

/// The name of [`euler`]'s symbol, shown to readers as 𝑒.
const EULER_NAME: &str = "derivcheck_euler";

/// Euler's number as the CAS holds it: a positive constant of derivcheck's own, never
/// Symbolica's built-in `E`.
///
/// Symbolica 3.0.0 rewrites a power of its `E` whenever the exponent contains a log, and where
/// that rewrite does not apply it drops the power: `E^(log(x)^2)` normalizes to `log(x)^2`,
/// `E^(log(x)^2-1/2)` to `log(x)^2-1/2` (`simplify_exp_log` in its `normalize.rs`). Every
/// normalization can hit this — building an exponential, a derivative, a substitution of a
/// leaf by an expression with a log — so the CAS never uses `E`: ℯ^u is an ordinary power of a
/// positive constant, `log(ℯ)` (which the derivative of a power leaves) is replaced by 1
/// ([`derivative`]), and e^{n ln z} = z^n is applied by the normal form itself.
pub fn euler() -> Atom {
    Atom::var(symbol!(EULER_NAME; Positive, Real))
}

/// d a / d x, with `log(ℯ)` replaced by 1 (Symbolica's rule for a power leaves it).
pub fn derivative(a: &Atom, x: Symbol) -> Atom {
    let d = a.derivative(x);
    if !d.contains_symbol(euler_symbol()) {
        return d;
    }
    let log_e = FunctionBuilder::new(Symbol::LOG).add_arg(euler()).finish();
    d.replace(log_e.to_pattern()).with(Atom::num(1).to_pattern())
}

/// The coefficients of v^0 … v^order in the Taylor series of `a` about v = 0 (the k-th
/// derivative in v at 0, over k!); `None` where `v` is not a variable.
fn taylor_coefficients(a: &Atom, v: &Atom, order: u32) -> Option<Vec<Atom>> {
    let AtomView::Var(var) = v.as_view() else { return None };
    let symbol = var.get_symbol();
    let mut derivative_k = a.clone();
    let mut factorial = 1i64;
    let mut out = Vec::new();
    for k in 0..=order {
        if k > 0 {
            derivative_k = derivative(&derivative_k, symbol);
            factorial = factorial.checked_mul(i64::from(k))?;
        }
        let at_zero = derivative_k.replace(v.to_pattern()).with(Atom::num(0).to_pattern());
        out.push(at_zero / Atom::num(factorial));
    }
    Some(out)
}

/// Is `a` a lone symbol (a leaf nothing gave a value)?
pub fn is_symbol(a: &Atom) -> bool {
    matches!(a.as_view(), AtomView::Var(_))
}

/// How a function compares with a power series written through `v^order`.
pub enum SeriesAgreement {
    /// Every coefficient through `v^order` agrees (by `Method::Symbolic`, or only numerically).
    Equal(Method),
    /// The coefficient of `v^power` differs.
    Different { power: u32, mismatch: Mismatch },
    /// `v` is not a variable (a defined letter, a matrix), or a side is not a number.
    NotASeries,
}

/// The Taylor coefficients of `whole` in `v` about 0 against those of the written polynomial
/// `written`, through `v^order`, each pair compared as [`compare`] does.
pub fn compare_series(
    inst: &crate::eval::Instance<Symbolic>,
    whole: &Value<Atom>,
    written: &Value<Atom>,
    v: &Value<Atom>,
    order: u32,
    span: Span,
    seed: u64,
) -> Result<SeriesAgreement, EvalError> {
    if !(whole.is_scalar() && written.is_scalar() && v.is_scalar()) {
        return Ok(SeriesAgreement::NotASeries);
    }
    let (Some(of_whole), Some(of_written)) = (
        taylor_coefficients(&whole.data[0], &v.data[0], order),
        taylor_coefficients(&written.data[0], &v.data[0], order),
    ) else {
        return Ok(SeriesAgreement::NotASeries);
    };
    let mut method = Method::Symbolic;
    for (power, (a, b)) in (0u32..).zip(of_whole.into_iter().zip(of_written)) {
        match compare(inst, &Value::scalar(a), &Value::scalar(b), span, seed, &Assumptions { printed: None })? {
            Agreement::Equal(m, positive) if positive.is_empty() => method = weaker(method, m),
            // (A coefficient equal only where the logarithms are defined: not this check's.)
            Agreement::Equal(..) => return Ok(SeriesAgreement::NotASeries),
            Agreement::Different(mismatch) => return Ok(SeriesAgreement::Different { power, mismatch }),
        }
    }
    Ok(SeriesAgreement::Equal(method))
}

fn euler_symbol() -> Symbol {
    match euler().as_view() {
        AtomView::Var(v) => v.get_symbol(),
        _ => unreachable!("euler() is a variable"),
    }
}

use crate::eval::{derivative_layout, sanitize, Backend, Elementary, EvalError, EvalErrorKind, Scalar, Value};
use crate::model::NotRead;
use crate::syntax::ast::Span;
use symbolica::prelude::*;

impl Scalar for Atom {
    fn int(n: i64) -> Self {
        Atom::num(n)
    }
    fn ratio(numerator: i64, denominator: i64) -> Self {
        Atom::num(numerator) / Atom::num(denominator)
    }
    fn euler() -> Self {
        euler()
    }
    fn pi() -> Self {
        Atom::var(Symbol::PI)
    }
    fn plus(&self, other: &Self) -> Self {
        self + other
    }
    fn minus(&self, other: &Self) -> Self {
        self - other
    }
    fn times(&self, other: &Self) -> Self {
        self * other
    }
    fn over(&self, other: &Self) -> Self {
        self / other
    }
    fn negate(&self) -> Self {
        -self
    }
    fn power(&self, exponent: &Self) -> Self {
        self.pow(exponent)
    }
    fn elementary(f: Elementary, x: &Self) -> Self {
        if f == Elementary::Abs {
            return (x * x).pow(Atom::num(1) / Atom::num(2));
        }
        if f == Elementary::Exp {
            return euler().pow(x);
        }
        let symbol = match f {
            Elementary::Exp => unreachable!("handled above"),
            Elementary::Log => Symbol::LOG,
            Elementary::Sin => Symbol::SIN,
            Elementary::Cos => Symbol::COS,
            Elementary::Abs => unreachable!("handled above"),
            Elementary::Atan => symbolica::transcendental::atan(),
            Elementary::Asin => symbolica::transcendental::asin(),
            Elementary::Acos => symbolica::transcendental::acos(),
        };
        FunctionBuilder::new(symbol).add_arg(x).finish()
    }
    fn size(&self) -> usize {
        self.as_view().get_byte_size()
    }
    /// A determinant that expands to 0 (`X^\top X` with more columns than rows): the matrix is
    /// singular for every value of its letters, and its inverse is undefined, not a quotient
    /// left for the floats to evaluate.
    fn negligible_determinant(det: &Self, entries: &[Self], n: usize) -> bool {
        let _ = (entries, n);
        det.expand().is_zero()
    }
}

/// The exact backend: Symbolica variables and symbolic derivatives.
pub struct Symbolic;

impl Backend for Symbolic {
    type S = Atom;

    fn leaf(&self, name: &str, _shown: &str) -> Atom {
        Atom::var(symbol!(name))
    }

    /// σ(a), σ'(a) as Symbolica's derivative of σ at a, or F(i, x_1, …, x_n).
    fn generic(&self, function: &str, index: Option<i64>, args: &[Atom], primes: usize) -> Atom {
        let f = symbol!(sanitize(function).as_str());
        if let Some(i) = index {
            return args.iter().fold(FunctionBuilder::new(f).add_arg(Atom::num(i)), |b, a| b.add_arg(a)).finish();
        }
        if primes == 0 {
            return FunctionBuilder::new(f).add_arg(&args[0]).finish();
        }
        let t = symbol!("derivcheck_tmp_t");
        let mut d = FunctionBuilder::new(f).add_arg(Atom::var(t)).finish();
        for _ in 0..primes {
            d = d.derivative(t);
        }
        d.replace(Atom::var(t).to_pattern()).with(args[0].to_pattern())
    }

    /// f(t_1, …, t_n) differentiated `partials[k]` times in t_k, then t_k replaced by the
    /// arguments: Symbolica's `der` records the orders, so two spellings of one derivative agree.
    fn unknown(&self, name: &str, args: &[Atom], partials: &[u32]) -> Atom {
        let f = symbol!(format!("unknown_{}", sanitize(name)).as_str());
        let ts: Vec<Symbol> = (0..args.len()).map(|k| symbol!(format!("derivcheck_tmp_u{k}").as_str())).collect();
        let mut value = ts.iter().fold(FunctionBuilder::new(f), |b, t| b.add_arg(Atom::var(*t))).finish();
        for (t, order) in ts.iter().zip(partials) {
            for _ in 0..*order {
                value = value.derivative(*t);
            }
        }
        for (t, arg) in ts.iter().zip(args) {
            value = value.replace(Atom::var(*t).to_pattern()).with(arg.to_pattern());
        }
        value
    }

    fn differentiate(
        &self,
        f: &dyn Fn() -> Result<Value<Atom>, EvalError>,
        x: &Value<Atom>,
        span: Span,
    ) -> Result<Value<Atom>, EvalError> {
        let f = f()?;
        let vars = leaf_symbols(x, span)?;
        derivative_layout(&f, x, span, |i| vars.iter().map(|v| derivative(&f.data[i], *v)).collect())
    }

    fn moves_leaves(&self) -> bool {
        false
    }

    fn bind(&self, _leaves: &Value<Atom>, _actual: &Value<Atom>) {}

    fn substitute(&self, v: Value<Atom>, leaves: &Value<Atom>, actual: &Value<Atom>) -> Value<Atom> {
        let substitutions: Vec<Replacement> = leaves
            .data
            .iter()
            .zip(&actual.data)
            .map(|(l, a)| Replacement::new(l.to_pattern(), a.to_pattern()))
            .collect();
        v.map(|g| g.replace_multiple(&substitutions))
    }

    fn differential(&self, leaf: &Atom, span: Span) -> Result<Atom, EvalError> {
        let AtomView::Var(v) = leaf.as_view() else {
            return Err(EvalErrorKind::NotALeaf { what: leaf.to_string() }.at(span));
        };
        Ok(Atom::var(symbol!(format!("d{}", v.get_symbol().get_stripped_name()).as_str())))
    }

    fn limit(
        &self,
        body: &crate::eval::Integrand<'_, Atom>,
        at: crate::eval::Limit<Atom>,
        span: Span,
    ) -> Option<Result<Atom, EvalError>> {
        Some(limit_by_series(body, at, span))
    }
}

/// Whether `a` applies a function other than log, sin, cos and the inverse trigonometric ones
/// (one the notes do not specify) to something that uses `h`.
fn has_unknown_function_of(a: AtomView<'_>, h: Symbol) -> bool {
    compare::any_node(a, &|node| {
        let AtomView::Fun(f) = node else { return false };
        !elementary_function(f.get_symbol()) && node.to_owned().contains_symbol(h)
    })
}

/// The functions Symbolica knows itself, whose values a point does not assign: log, sin, cos,
/// √, |·| and the inverse tangent, sine and cosine.
pub(super) fn elementary_function(f: Symbol) -> bool {
    use symbolica::transcendental::{acos, asin, atan};
    [Symbol::LOG, Symbol::SIN, Symbol::COS, Symbol::SQRT, Symbol::ABS, atan(), asin(), acos()].contains(&f)
}

/// Whether `a` has a power with an exponent that is not a whole number whose base uses `h`.
fn has_root_of(a: AtomView<'_>, h: Symbol) -> bool {
    compare::any_node(a, &|node| {
        let AtomView::Pow(p) = node else { return false };
        let (base, exponent) = p.get_base_exp();
        compare::integer(exponent).is_none() && base.to_owned().contains_symbol(h)
    })
}

/// The constant term of the body's series in h about 0, where the point is `a + h` (or `±1/h`
/// at infinity); see [`Backend::limit`].
fn limit_by_series(
    body: &crate::eval::Integrand<'_, Atom>,
    at: crate::eval::Limit<Atom>,
    span: Span,
) -> Result<Atom, EvalError> {
    use crate::eval::Limit;
    use symbolica::domains::rational::Rational;
    let no_limit =
        |why: &str| EvalErrorKind::Unsupported { category: NotRead::Outside, what: format!("a limit {why}") }.at(span);
    let h = symbol!("derivcheck_limit_h");
    let step = Atom::var(h);
    let (point, finite) = match &at {
        Limit::At(a) => (a + &step, true),
        Limit::PlusInfinity => (Atom::num(1) / &step, false),
        Limit::MinusInfinity => (Atom::num(-1) / &step, false),
    };
    let value = body(&point)?;
    // (|x| is √(x²): its series about a point takes one side's branch.)
    if finite && has_root_of(value.as_view(), h) {
        return Err(no_limit("at a point of a root or absolute value, whose two sides may differ"));
    }
    // (`\lim_{x\to a} f(x) = f(a)` with f nobody specified: its series would assume f smooth.)
    if has_unknown_function_of(value.as_view(), h) {
        return Err(no_limit("of a function the notes do not specify, which may not be continuous there"));
    }
    let series = value.series(h, Atom::num(0), 0).map_err(|_| no_limit("whose series derivcheck cannot expand"))?;
    let grid = i64::try_from(series.get_ramification()).unwrap_or(1).max(1);
    if finite && grid > 1 {
        return Err(no_limit("at a point where a fractional power makes the two sides differ"));
    }
    let trailing = series.get_trailing_exponent();
    if trailing < -64 {
        return Err(no_limit("that is infinite (a pole of high order)"));
    }
    let zero = Rational::from(0);
    let mut exponent = trailing;
    while exponent < zero {
        let coefficient = series.coefficient(exponent.clone()).unwrap_or_else(|| Atom::num(1));
        if !coefficient.expand().is_zero() {
            return Err(no_limit("that is infinite or does not exist (a negative power of the step remains)"));
        }
        exponent += Rational::from((1, grid));
    }
    let constant = series.coefficient(zero).ok_or_else(|| no_limit("whose series derivcheck cannot expand"))?;
    if constant.contains_symbol(h) {
        return Err(no_limit("with a logarithm of the step, which has no finite value"));
    }
    // (The series of `(1 + 1/n)^n` leaves Symbolica's own E, which the CAS never holds: see
    // [`euler`]. Left as it is, a point would sample it as a letter.)
    Ok(constant.replace(Atom::var(Symbol::E).to_pattern()).with(euler().to_pattern()))
}

/// Both sides of a claim under the section's assumptions: each is solved for one variable,
/// which is then replaced on both sides (and in the assumptions after it).
pub fn under_assumptions(
    inst: &crate::eval::Instance<Symbolic>,
    env: &crate::eval::Env,
    span: Span,
    mut lhs: Value<Atom>,
    mut rhs: Value<Atom>,
) -> Result<(Value<Atom>, Value<Atom>), EvalError> {
    let mut solved: Vec<(Atom, Atom)> = Vec::new();
    for assumption in &inst.scope().assumptions {
        // (One it cannot read is the notes' or the spec's to make readable; one it reads but
        // cannot solve is beyond what it checks.)
        let unusable = |why: String, category: NotRead| {
            EvalErrorKind::Unsupported {
                category,
                what: format!("the assumption `{}` ({}) {why}", assumption.tex, assumption.origin),
            }
            .at(span)
        };
        // A vector equation is one equation per entry (`\sum_i \boldsymbol z_i = \mathbf 0`).
        let entries = inst
            .residual(assumption, env)
            .map_err(|e| unusable(format!("cannot be evaluated: {e}"), NotRead::NeedsSpec))?;
        for mut residual in entries {
            for (variable, value) in &solved {
                residual = residual.replace(variable.to_pattern()).with(value.to_pattern());
            }
            // An equation that holds identically (`g(x) - g(-x) = x` of the g defined) constrains
            // nothing.
            if compare::vanishes(inst, &residual, span) {
                continue;
            }
            let (variable, value) = solve_over_one_denominator(&residual).ok_or_else(|| {
                unusable(
                    "is not linear in any one of its variables, so it cannot be solved for one".into(),
                    NotRead::Outside,
                )
            })?;
            lhs = replace_variable(lhs, &variable, &value);
            rhs = replace_variable(rhs, &variable, &value);
            solved.push((variable, value));
        }
    }
    Ok((lhs, rhs))
}

/// A scalar value simplified and printed as TeX in the notes' names (`p_{1}-y_{1}`): the correct
/// expression a refuted claim's report shows. `None` for matrices and long expressions.
pub fn correct_tex(inst: &crate::eval::Instance<Symbolic>, v: &Value<Atom>) -> Option<String> {
    const LONGEST: usize = 400;
    if !v.is_scalar() {
        return None;
    }
    let simplified = compare::guarded_normal_form(&v.data[0])?;
    let text = format!("{}", simplified.printer(PrintOptions::latex())).replace(EULER_NAME, "e");
    let text = compare::shown(inst, &text);
    (text.chars().count() <= LONGEST).then_some(text)
}

/// [`solve_for_a_variable`], else the same for the numerator of `residual` over one denominator
/// (`\frac{a}{1-a} = e^b`: linear in a once multiplied out).
fn solve_over_one_denominator(residual: &Atom) -> Option<(Atom, Atom)> {
    solve_for_a_variable(residual)
        .or_else(|| compare::numerator_over_one_denominator(residual).and_then(|n| solve_for_a_variable(&n)))
}

/// Solves `residual = 0` for one of its variables: one it is linear in, with a coefficient that
/// is nonzero and free of it. Gives the variable and its value; the last such variable by name
/// is taken (`y_q` of a one-hot sum). `None` when no variable qualifies.
fn solve_for_a_variable(residual: &Atom) -> Option<(Atom, Atom)> {
    let mut candidates = compare::unknowns(residual, &Atom::num(0));
    candidates.reverse();
    for variable in candidates {
        let AtomView::Var(v) = variable.as_view() else { continue };
        let symbol = v.get_symbol();
        let slope = derivative(residual, symbol);
        if slope.contains_symbol(symbol) {
            continue;
        }
        let by_a_number = match compare::guarded_normal_form(&slope) {
            Some(s) if !s.is_zero() => matches!(s.as_view(), AtomView::Num(_)),
            _ => continue,
        };
        let Some(value) = compare::guarded_normal_form(&(&variable - residual / &slope)) else { continue };
        // (`\psi P = \psi` solved for ψ gives ψ = 0, the solution every homogeneous equation
        // has and no text means: every claim with a factor ψ would hold. A letter set to zero by
        // a number, `b = 0`, `2x = 0`, is meant.)
        let trivial = value.is_zero() && !by_a_number;
        if !value.contains_symbol(symbol) && !trivial {
            return Some((variable, value));
        }
    }
    None
}

/// `v` with `variable` replaced by `value` everywhere.
fn replace_variable(v: Value<Atom>, variable: &Atom, value: &Atom) -> Value<Atom> {
    v.map(|a| a.replace(variable.to_pattern()).with(value.to_pattern()))
}

fn leaf_symbols(x: &Value<Atom>, span: Span) -> Result<Vec<Symbol>, EvalError> {
    x.data
        .iter()
        .map(|a| match a.as_view() {
            AtomView::Var(v) => Ok(v.get_symbol()),
            _ => Err(EvalErrorKind::NotALeaf { what: a.to_string() }.at(span)),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The value `residual = 0` gives the variable it is solved for, as text; `None` unsolved.
    fn solved(residual: &str) -> Option<(String, String)> {
        let residual = residual.to_string();
        inline(move || {
            let residual = symbolica::parse!(residual.as_str());
            solve_over_one_denominator(&residual).map(|(v, value)| (v.to_string(), value.to_string()))
        })
    }

    /// `\frac{a}{1-a} = b^2` is linear in a once over one denominator: a = b²/(1+b²); an
    /// equation linear in no variable, however written, stays unsolved.
    #[test]
    fn an_equation_is_solved_over_one_denominator() {
        assert_eq!(solved("a + 1 - b"), Some(("b".into(), "1+a".into())));
        let (variable, value) = solved("a/(1-a) - b^2").expect("linear in a over 1 - a");
        assert_eq!(variable, "a");
        let back = inline(move || {
            let at = symbolica::parse!(format!("({value})/(1-({value})) - b^2").as_str());
            compare::guarded_normal_form(&at).map(|a| a.is_zero())
        });
        assert_eq!(back, Some(true), "the value solves the equation");
        assert_eq!(solved("a^2 + b^2 - 1"), None);
    }
}
