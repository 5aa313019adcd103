//! Approximations: worked-out examples, first-order and series claims (`\approx` to the order of a
//! small letter), and what needs quadrature.

use super::backends::{printed_tolerance, within_run, EXACT_GRACE};
use super::letters::{expr_mentions, has_integral, letters_reached, mentions};
use super::{guarded, section_seed, CLAIM_TIME, MAX_BYTES, MAX_SERIES_ORDER, MAX_STEPS};
use crate::cas::{self, Symbolic};
use crate::eval::{Budget, Env, Instance};
use crate::model::{Counterexample, Method, Mismatch, Reason, Status, Verdict};
use crate::numeric;
use crate::sema::{Claim, Origin};
use crate::sema::{Decl, Scope};
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use std::collections::{BTreeMap, BTreeSet};
use std::time::Instant;

/// A link that works a printed number out of probabilities the text gives (`P(D_1=1\mid H=0)
/// P(H=0) + P(D_1=1\mid H=1) P(H=1) = 0.011485`, after `P(H=1) = 0.0015` and a table of
/// `P(D_1\mid H)`): redone with those values (given before it, outside its own formula), equal
/// to the printed digits or not. The verdict lists the values used.
pub(super) fn worked_out_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    let (side, printed) = match (&claim.lhs.kind, &claim.rhs.kind) {
        (_, ExprKind::Number { .. }) => (&claim.lhs, &claim.rhs),
        (ExprKind::Number { .. }, _) => (&claim.rhs, &claim.lhs),
        _ => return None,
    };
    let line: usize = match &claim.origin {
        Origin::Notes { line, .. } if !scope.given_values.is_empty() => *line,
        _ => return None,
    };
    let ExprKind::Number { value: written } = &printed.kind else { return None };
    let tolerance = printed_tolerance(printed).and_then(|t| t.first().copied()).unwrap_or(0.0);
    // `15.3#2.1` is the first link of formula `15.3#2`.
    let own = match claim.id.rsplit_once('.') {
        Some((head, tail)) if head.contains('#') && tail.chars().all(|c| c.is_ascii_digit()) => head,
        _ => claim.id.as_str(),
    };
    let givens = &scope.given_values;
    let usable = |g: &crate::sema::scope::GivenValue| g.line <= line && g.formula.as_deref() != Some(own);
    let values: Vec<(&Expr, f64, bool)> = givens.iter().map(|g| (&g.term, g.value, usable(g))).collect();
    let worked = numeric::probability::worked_out(side, &values)?;
    let shown = |g: &crate::sema::scope::GivenValue| {
        format!("{} = {} ({})", crate::syntax::print::explicit_tex(&g.term, &|_| true), g.written, g.line)
    };
    let mut used: Vec<String> = worked.used.iter().map(|&k| shown(&givens[k])).collect();
    used.extend(worked.two_valued.iter().map(|v| format!("|{v}| = 2")));
    let sizes = used.join("; ");
    let printed_value: f64 = written.parse().ok()?;
    if (worked.value - printed_value).abs() <= tolerance.max(1e-12 * printed_value.abs()) {
        return Some(Verdict::new(
            Status::Verified,
            Some(Method::Rounded),
            sizes,
            Reason::Checked { assignments: 1, rounded: true },
        ));
    }
    if worked.contested {
        return None;
    }
    let (lhs, rhs) =
        if std::ptr::eq(side, &claim.lhs) { (worked.value, printed_value) } else { (printed_value, worked.value) };
    let reason = Reason::Differs { entry: None, lhs, rhs, at: Vec::new(), difference: None };
    let mismatch = Mismatch::at_point(lhs, rhs, Vec::new(), Method::Numeric);
    let counterexample = Counterexample { sizes: BTreeMap::new(), indices: BTreeMap::new(), mismatch: Some(mismatch) };
    Some(Verdict::refuted(Method::Numeric, sizes, reason, counterexample))
}

/// `u(x+\epsilon) \approx u(x) + \epsilon \frac{du}{dx}(x)` where the words call ε small: the
/// approximate side (a sum of powers of ε, times factors free of it) is the other side's power
/// series through the highest power of ε it writes, as `+ \mathcal O(\epsilon^2)` would say; the
/// verdict assumes `\epsilon \to 0`. `None` where no letter is called small, or neither side is
/// such a sum.
pub(super) fn first_order_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::ast::{Span, Symbol};
    fn find<'e>(e: &'e Expr, key: &str) -> Option<&'e Expr> {
        if matches!(e.kind, ExprKind::Symbol(_)) && e.symbol_key().as_deref() == Some(key) {
            return Some(e);
        }
        e.children().find_map(|c| find(c, key))
    }
    // (No letter called small: a change the claim writes, `f(t + \Delta t) \approx f(t) + \Delta
    // t f'(t)`, is what `\approx` makes small, as a first-order step reads. Only to verify: the
    // words did not say which letter is small.)
    let named = claim.reading.named.small.as_deref();
    let change = || change_in(&claim.lhs).or_else(|| change_in(&claim.rhs));
    let (letter, written) = match named {
        Some(small) => {
            let letter = find(&claim.lhs, small).or_else(|| find(&claim.rhs, small))?;
            (letter, letter)
        }
        None => change()?,
    };
    let with_order = |side: &Expr, order: usize| {
        let span = Span::new(side.span.end, side.span.end);
        let number = Expr::new(ExprKind::Number { value: (order + 1).to_string() }, span);
        let power = Expr::new(ExprKind::Power { base: Box::new(letter.clone()), exponent: Box::new(number) }, span);
        let big_o = Expr::new(ExprKind::Symbol(Symbol::plain("O")), span);
        let term = Expr::new(ExprKind::Call { func: Box::new(big_o), args: vec![power], postfixed: false }, span);
        let whole = Span::new(side.span.start, side.span.end);
        Expr::new(ExprKind::Binary { op: BinOp::Add, lhs: Box::new(side.clone()), rhs: Box::new(term) }, whole)
    };
    // The approximate side and the order it is written to: the lowest order at which it reads
    // as a cut-off series (the right side first).
    let (lhs, rhs) = (0..=MAX_SERIES_ORDER as usize).find_map(|order| {
        let right = with_order(&claim.rhs, order);
        if crate::syntax::pattern::truncated_series(&right).is_some() {
            return Some((claim.lhs.clone(), right));
        }
        let left = with_order(&claim.lhs, order);
        crate::syntax::pattern::truncated_series(&left).is_some().then(|| (left, claim.rhs.clone()))
    })?;
    let series = Claim { lhs, rhs, approx: false, ..claim.clone() };
    let mut verdict = series_verdict(scope, &series)?;
    if named.is_none() && verdict.status != Status::Verified {
        return None;
    }
    let plain = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
    let written = match &written.kind {
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => format!("{} {}", plain(lhs), plain(rhs)),
        _ => plain(written),
    };
    verdict.assuming.push(format!("{written} \\to 0"));
    Some(verdict)
}

/// The first change written in `e`: `\Delta t` (Δ times a letter, Δ the series' letter, with the
/// product as written), or a change the notes name as one symbol (`\mathrm{Deltat}`).
fn change_in(e: &Expr) -> Option<(&Expr, &Expr)> {
    let named =
        |x: &Expr| x.symbol_key().is_some_and(|k| k.starts_with("\\mathrm{Delta") || k.starts_with("\\mathrm{delta"));
    match &e.kind {
        ExprKind::Symbol(_) if named(e) => Some((e, e)),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs }
            if lhs.is_change_sign() && matches!(rhs.kind, ExprKind::Symbol(_)) =>
        {
            Some((lhs, e))
        }
        _ => e.children().find_map(change_in),
    }
}

/// A side written as a power series cut off by an ellipsis (`e^x = 1 + x + \frac{x^2}{2} +
/// \cdots`, `f(x+\epsilon) = f(x) + \epsilon f'(x) + \cdots`): the other side's Taylor
/// coefficients in the series' letter about 0, through the highest power written, against the
/// written ones, exactly. `None` where no side is one, where both are, or where the written
/// coefficients use a letter the other side does not reach (`f(x) = a_0 + a_1x + \cdots`
/// names the coefficients; it does not claim them).
pub(super) fn series_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::pattern::truncated_series;
    let (series, other) = match (truncated_series(&claim.lhs), truncated_series(&claim.rhs)) {
        (Some(s), None) => (s, &claim.rhs),
        (None, Some(s)) => (s, &claim.lhs),
        (None, None) => return ray_series_verdict(scope, claim),
        _ => return None,
    };
    let reached = letters_reached(scope, other);
    let written: BTreeSet<String> = series.terms.iter().flat_map(|(_, t)| letters_reached(scope, t)).collect();
    if !written.is_subset(&reached) || !reached.contains(&series.variable.symbol_key()?) {
        return None;
    }
    let order = u32::try_from(series.order).ok().filter(|&n| n <= MAX_SERIES_ORDER)?;
    let variable = crate::syntax::print::expr(series.variable);
    let powers = format!("{variable}^0 … {variable}^{order}");
    let terms: Vec<(bool, Expr)> = series.terms.iter().map(|(negated, t)| (*negated, (*t).clone())).collect();
    let series = Series { other, terms: &terms, variable: series.variable, order, step: None };
    Some(compare_as_series(scope, claim, series, powers))
}

/// `f(\mathbf x + \boldsymbol\epsilon) = f(\mathbf x) + \boldsymbol\epsilon^\top \nabla f(\mathbf x) +
/// \mathcal{O}(\|\boldsymbol\epsilon\|^2)`: the step ε made tε, for a fresh number t, on both
/// sides, and the sides compared as power series in t through the order the O leaves, exactly.
/// ε's entries stay symbols, so agreement holds along every direction, which is the claim (its
/// terms of each order are polynomials in ε); the verdict says so. `None` where no side is one.
pub(super) fn ray_series_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::ast::{Span, Symbol};
    use crate::syntax::pattern::ray_series;
    let (series, other) = match (ray_series(&claim.lhs), ray_series(&claim.rhs)) {
        (Some(s), None) => (s, &claim.rhs),
        (None, Some(s)) => (s, &claim.lhs),
        _ => return None,
    };
    let step = series.step.symbol_key()?;
    let order = u32::try_from(series.order).ok().filter(|&n| n <= MAX_SERIES_ORDER)?;
    // `\boldsymbol\epsilon = -\mathbf H^{-1}\nabla f(\mathbf x)` in the same section: the expansion
    // is about any step, so ε is read as a free letter of the shape its value has.
    let free;
    let scope = match scope.defs.get(&step).filter(|d| !d.function) {
        None => scope,
        Some(definition) => {
            let sizes = scope.size_assignments().into_iter().next().unwrap_or_default();
            let backend = numeric::Numeric::new(section_seed(&claim.id), numeric::crosscheck::EPSILON);
            let budget = Budget { max_steps: MAX_STEPS, max_bytes: MAX_BYTES, deadline: Instant::now() + CLAIM_TIME };
            let value =
                Instance::new(&backend, scope, &sizes, None, budget).eval(&definition.body, &Env::new()).ok()?;
            let mut unbound = scope.clone();
            unbound.defs.remove(&step);
            let (rows, cols) = (value.rows.to_string(), value.cols.to_string());
            unbound.decls.insert(step.clone(), Decl::Matrix { rows, cols });
            free = unbound;
            &free
        }
    };
    let fresh = ["t", "s", "\\tau"].into_iter().find(|name| {
        let key = Symbol::plain(name.trim_start_matches('\\')).key();
        !mentions(claim, &key) && !scope.defs.contains_key(&key) && !scope.decls.contains_key(&key)
    })?;
    let span = Span::new(series.step.span.start, series.step.span.start);
    let t = Expr::new(ExprKind::Symbol(Symbol::plain(fresh.trim_start_matches('\\'))), span);
    if !expr_mentions(other, &step) {
        return None;
    }
    let terms: Vec<(bool, Expr)> = series.terms.iter().map(|(negated, term)| (*negated, (*term).clone())).collect();
    let step_tex = crate::syntax::print::expr(series.step);
    // (In maths, not words: the sizes are shown in either language.)
    let powers = format!("{fresh}^0 … {fresh}^{order};\\ {step_tex} \\mapsto {fresh}{step_tex}");
    let ray = Series { other, terms: &terms, variable: &t, order, step: Some(series.step) };
    Some(compare_as_series(scope, claim, ray, powers))
}

/// A side against written terms, as power series in `variable` through `order`.
pub(super) struct Series<'a> {
    pub(super) other: &'a Expr,
    pub(super) terms: &'a [(bool, Expr)],
    pub(super) variable: &'a Expr,
    pub(super) order: u32,
    /// A ray series: the letter whose entries (symbols) are scaled by the variable.
    pub(super) step: Option<&'a Expr>,
}

/// Compares [`Series`] exactly, coefficient by coefficient: verified with `powers` as the
/// sizes, or refuted at the first power that differs.
pub(super) fn compare_as_series(scope: &Scope, claim: &Claim, series: Series, powers: String) -> Verdict {
    let Series { other, terms, variable: variable_expr, order, step } = series;
    let variable = crate::syntax::print::expr(variable_expr);
    let sizes = scope.size_assignments().into_iter().next().unwrap_or_default();
    let deadline = within_run(Instant::now() + CLAIM_TIME);
    let span = crate::syntax::ast::Span::new(claim.lhs.span.start, claim.rhs.span.end);
    let job = || {
        guarded(|| {
            let budget = Budget { max_steps: MAX_STEPS, max_bytes: MAX_BYTES, deadline };
            let inst = Instance::new(&Symbolic, scope, &sizes, None, budget);
            let env = Env::new();
            let seed = claim.id.bytes().fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            let compared = (|| {
                let whole = inst.eval(other, &env)?;
                let v = inst.eval(variable_expr, &env)?;
                let mut written = inst.eval(&terms[0].1, &env)?;
                if terms[0].0 {
                    written = written.map(|t| -t);
                }
                for (negated, term) in &terms[1..] {
                    let t = inst.eval(term, &env)?;
                    written =
                        written.zip(&t, "a term", term.span, false, |a, b| if *negated { a - b } else { a + b })?;
                }
                let (whole, written) = match step {
                    None => (whole, written),
                    Some(step) => {
                        // ε's entries, each a symbol, become t times themselves.
                        use crate::eval::{Backend as _, Scalar as _};
                        let leaves = inst.eval(step, &env)?;
                        if v.data.len() != 1 || !leaves.data.iter().all(cas::is_symbol) {
                            return Ok(cas::SeriesAgreement::NotASeries);
                        }
                        let scaled = leaves.map(|leaf| v.data[0].times(leaf));
                        (Symbolic.substitute(whole, &leaves, &scaled), Symbolic.substitute(written, &leaves, &scaled))
                    }
                };
                cas::compare_series(&inst, &whole, &written, &v, order, span, seed)
            })();
            match compared {
                Ok(cas::SeriesAgreement::Equal(method)) => {
                    let method = if method == Method::Symbolic { Method::Series } else { method };
                    let reason = Reason::Checked { assignments: order as usize + 1, rounded: false };
                    Verdict::new(Status::Verified, Some(method), powers.clone(), reason)
                }
                Ok(cas::SeriesAgreement::Different { power, mismatch }) => {
                    let reason = Reason::Differs {
                        entry: None,
                        lhs: mismatch.lhs,
                        rhs: mismatch.rhs,
                        at: Vec::new(),
                        difference: mismatch.difference.clone(),
                    };
                    let counterexample =
                        Counterexample { sizes: BTreeMap::new(), indices: BTreeMap::new(), mismatch: Some(mismatch) };
                    // `[x^2]`: the coefficient of x² (the notation of generating functions).
                    Verdict::refuted(Method::Series, format!("[{variable}^{power}]"), reason, counterexample)
                }
                Ok(cas::SeriesAgreement::NotASeries) => {
                    let detail = format!("a power series in `{variable}`: a side, or `{variable}`, is not a number");
                    Verdict::undecided(Reason::NotRead { kind: crate::model::NotRead::Outside, detail }, powers.clone())
                }
                Err(e) => Verdict::undecided(e.reason(), powers.clone()),
            }
        })
    };
    match cas::isolated(deadline + EXACT_GRACE, job) {
        Ok(verdict) => verdict,
        Err(_) => Verdict::undecided(
            Reason::Budget { detail: "the power series did not finish within the claim's time".into() },
            powers,
        ),
    }
}

/// Does the claim, or a definition it uses (`F(x)=\int_0^x f(y)\,dy`), hold an integral?
pub(super) fn needs_quadrature(scope: &Scope, claim: &Claim) -> bool {
    if has_integral(&claim.lhs) || has_integral(&claim.rhs) {
        return true;
    }
    let with_integral: BTreeSet<&String> =
        scope.defs.iter().filter(|(_, d)| has_integral(&d.body)).map(|(k, _)| k).collect();
    !with_integral.is_empty()
        && crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]).iter().any(|k| with_integral.contains(k))
}
