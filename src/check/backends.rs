//! Running a claim's evaluations on the backends: floats alone, the randomized exact test with
//! its error bound, the CAS within the run's deadline, and the numeric cross-check.

use super::{check_at, check_claim, CLAIM_TIME, MAX_BYTES, MAX_STEPS};
use crate::cas::{self, Agreement, Symbolic};
use crate::eval::{free_indices, index_assignments, Budget, Caches, Env, EvalError, EvalErrorKind, Instance};
use crate::model::{Counterexample, Method, Mismatch, Reason, Status, Verdict};
use crate::modular::{self, Outcome};
use crate::numeric;
use crate::sema::Scope;
use crate::sema::{Claim, ClaimKind, Origin};
use crate::syntax::ast::Statement;
use crate::syntax::ast::{BigOpKind, BinOp, Expr, ExprKind};
use std::cell::RefCell;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// A claim only the floats can evaluate (an integral: quadrature), at several random draws of
/// its leaves: verified (labelled numeric, never symbolic) where the sides agree to 10⁻⁷ at
/// every draw, refuted where they differ by more than 10⁻³ at one, undecided between.
pub(super) fn by_floats_alone(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    free: &[String],
    deadline: Instant,
) -> Verdict {
    use numeric::crosscheck::FloatsAlone;
    let budget = Budget { max_steps: 20 * MAX_STEPS, max_bytes: MAX_BYTES, deadline };
    let sizes_text = describe_sizes(size_sets);
    match numeric::crosscheck::floats_alone(scope, claim, size_sets, free, budget) {
        FloatsAlone::Agree { assignments, .. } => Verdict::new(
            Status::Verified,
            Some(Method::Quadrature),
            sizes_text,
            Reason::Checked { assignments, rounded: false },
        ),
        FloatsAlone::Differs { mismatch, sizes, env } => {
            let reason = refutation(&mismatch, &sizes, &env);
            let counterexample = Counterexample { sizes, indices: env, mismatch: Some(mismatch) };
            Verdict::refuted(Method::Quadrature, sizes_text, reason, counterexample)
        }
        FloatsAlone::Inconclusive { worst } => Verdict::undecided(Reason::FloatsInconclusive { worst }, sizes_text),
        FloatsAlone::Failed(e) => Verdict { focus: focus_of(&e, claim), ..Verdict::undecided(e.reason(), sizes_text) },
    }
}

/// A claim the randomized test proved. An error of 0 means every difference was the exact
/// constant 0 (exact rational arithmetic, no random point involved): a symbolic proof.
pub(super) fn randomized_verdict(error: f64, assignments: usize, sizes_text: String) -> Verdict {
    let reason = Reason::Checked { assignments, rounded: false };
    if error == 0.0 {
        return Verdict::new(Status::Verified, Some(Method::Symbolic), sizes_text, reason);
    }
    Verdict {
        error_bound_log2: Some(error.log2().floor()),
        ..Verdict::new(Status::Verified, Some(Method::Randomized), sizes_text, reason)
    }
}

/// How long the CAS may look for an exact counterexample after the randomized test saw the
/// sides differ (large sizes are then refuted in floating point).
pub(super) const EXACT_AFTER_DIFFERS: Duration = Duration::from_secs(5);

/// How long the CAS may try to make a float counterexample a symbolic one.
pub(super) const EXACT_AFTER_FLOATS: Duration = Duration::from_secs(2);
/// A randomized proof must bound its error by this (2⁻⁶⁰) to stand.
pub(super) const MAX_RANDOMIZED_ERROR: f64 = 8.673_617_379_884_035e-19;

/// What the randomized test showed for a claim over its size and index assignments.
pub(super) enum Randomized {
    /// Zero everywhere; `error` bounds the chance of that for a false claim (union over all
    /// assignments).
    Proven { error: f64, assignments: usize },
    /// Nonzero at this assignment: not a refutation (atoms have relations), but a hint.
    Differs { sizes: BTreeMap<String, i64>, env: Env },
    /// An evaluation error that refutes (shapes that do not fit).
    Refutes { error: EvalError, sizes: BTreeMap<String, i64>, env: Env },
    /// Not applicable here (assumptions, printed decimals, an error, a weak bound).
    Inapplicable,
}

/// The random points of a section: per size assignment (and redraw), a backend whose tape holds
/// one random point, and the values computed there. The section's claims share them, so a
/// definition or an adjoint is computed once per section (each claim's error bound holds
/// whatever other claims were tested at the same point).
#[derive(Default)]
pub struct SharedPoints {
    points: RefCell<Vec<Point>>,
    /// Sizes at which a tape outgrew its limit: not tried again in this section.
    too_large: RefCell<Vec<BTreeMap<String, i64>>>,
}

pub(super) struct Point {
    pub(super) sizes: BTreeMap<String, i64>,
    pub(super) draw: u64,
    pub(super) backend: modular::Modular,
    pub(super) caches: Caches<modular::Residue>,
}

impl SharedPoints {
    /// The point for `sizes` and `draw`, taken out (to be put back by [`SharedPoints::put`]),
    /// or a new one.
    pub(super) fn take(&self, sizes: &BTreeMap<String, i64>, draw: u64) -> Point {
        let mut points = self.points.borrow_mut();
        match points.iter().position(|p| &p.sizes == sizes && p.draw == draw) {
            Some(k) => points.swap_remove(k),
            None => Point::new(sizes, draw),
        }
    }

    /// Keeps a point for the next claims, unless something went wrong on its tape.
    pub(super) fn put(&self, point: Point) {
        if point.backend.too_large() {
            self.too_large.borrow_mut().push(point.sizes.clone());
        }
        if !point.backend.troubled() {
            self.points.borrow_mut().push(point);
        }
    }

    pub(super) fn is_too_large(&self, sizes: &BTreeMap<String, i64>) -> bool {
        self.too_large.borrow().contains(sizes)
    }
}

impl Point {
    pub(super) fn new(sizes: &BTreeMap<String, i64>, draw: u64) -> Point {
        let seed = sizes.iter().fold(draw.wrapping_mul(0x9E37_79B9_7F4A_7C15), |h, (k, v)| {
            k.bytes().chain(v.to_le_bytes()).fold(h, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)))
        });
        let backend = modular::Modular::new(seed);
        Point { sizes: sizes.clone(), draw, backend, caches: Caches::default() }
    }
}

pub(super) fn randomized_at(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    free: &[String],
    deadline: Instant,
    shared: Option<&SharedPoints>,
) -> Randomized {
    let printed = printed_tolerance(&claim.lhs).is_some() || printed_tolerance(&claim.rhs).is_some();
    if !scope.assumptions.is_empty() || claim.approx || claim.kind == ClaimKind::Printed || printed {
        return Randomized::Inapplicable;
    }
    let budget = Budget { max_steps: 20 * MAX_STEPS, max_bytes: MAX_BYTES, deadline };
    let own = SharedPoints::default();
    let shared = shared.unwrap_or(&own);
    let (mut error, mut assignments) = (0.0f64, 0usize);
    for sizes in size_sets {
        if shared.is_too_large(sizes) {
            return Randomized::Inapplicable;
        }
        let mut settled = false;
        for draw in 0..modular::REDRAWS {
            let mut point = shared.take(sizes, draw);
            point.backend.activate();
            point.backend.set_deadline(deadline);
            let inst = Instance::new(&point.backend, scope, sizes, None, budget)
                .with_caches(std::mem::take(&mut point.caches));
            let outcome = test_all(&inst, claim, free);
            point.caches = inst.into_caches();
            shared.put(point);
            match outcome {
                Ok((here_error, here_assignments)) => {
                    error += here_error;
                    assignments += here_assignments;
                    settled = true;
                    break;
                }
                Err(None) => continue,
                Err(Some(verdict)) => return verdict.at(sizes),
            }
        }
        if !settled {
            return Randomized::Inapplicable;
        }
    }
    if assignments == 0 || error > MAX_RANDOMIZED_ERROR {
        return Randomized::Inapplicable;
    }
    Randomized::Proven { error, assignments }
}

/// How a claim ended at one point when it was not proven there.
pub(super) enum Unproven {
    Differs(Env),
    Refutes(EvalError, Env),
    Inapplicable,
}

impl Unproven {
    pub(super) fn at(self, sizes: &BTreeMap<String, i64>) -> Randomized {
        match self {
            Unproven::Differs(env) => Randomized::Differs { sizes: sizes.clone(), env },
            Unproven::Refutes(error, env) => Randomized::Refutes { error, sizes: sizes.clone(), env },
            Unproven::Inapplicable => Randomized::Inapplicable,
        }
    }
}

/// The claim at every index assignment at one point: the summed error bound and the count, or
/// `Err(None)` to draw another point, or how it ended.
pub(super) fn test_all(
    inst: &Instance<modular::Modular>,
    claim: &Claim,
    free: &[String],
) -> Result<(f64, usize), Option<Unproven>> {
    let envs = index_assignments(inst, free, &claim.conditions, claim, &Env::new())
        .map_err(|_| Some(Unproven::Inapplicable))?;
    let (mut error, mut assignments) = (0.0, 0);
    for env in envs {
        match modular::test_at(inst, &claim.lhs, &claim.rhs, &env) {
            Ok(Outcome::Zero { error: e, .. }) => {
                error += e;
                assignments += 1;
            }
            Ok(Outcome::Nonzero { .. }) => return Err(Some(Unproven::Differs(env))),
            Ok(Outcome::Redraw) => return Err(None),
            Ok(Outcome::Inapplicable(_)) => return Err(Some(Unproven::Inapplicable)),
            Err(e) if e.refutes() => return Err(Some(Unproven::Refutes(e, env))),
            Err(_) => return Err(Some(Unproven::Inapplicable)),
        }
    }
    Ok((error, assignments))
}

/// A claim whose shapes do not fit: refuted, pointing at the operation.
pub(super) fn refuted_by_shape(
    e: &EvalError,
    claim: &Claim,
    sizes_text: String,
    sizes: &BTreeMap<String, i64>,
    env: Env,
) -> Verdict {
    let refuted = Verdict::refuted(
        Method::Symbolic,
        sizes_text,
        e.reason(),
        Counterexample { sizes: sizes.clone(), indices: env, mismatch: None },
    );
    Verdict { focus: focus_of(e, claim), ..refuted }
}

/// The CAS at the given size assignments, until `deadline`.
/// The whole run's deadline (`--time-limit`), which every claim's own deadline is cut to.
pub(super) static RUN_DEADLINE: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// Time the claim under way already spent in earlier tries (a claim checked again after its
/// worker was stopped in an exact attempt, [`run`]): every deadline of the claim comes that much
/// earlier, so the tries together keep to the claim's time.
pub(super) static CLAIM_TIME_SPENT: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

/// A deadline every check under way must keep to (a repair search's, for the checks of its
/// candidates), where one is set ([`capped`]).
pub(super) static DEADLINE_CAP: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// `deadline`, brought forward by the time the claim spent in earlier tries, or the run's
/// deadline or the cap ([`capped`]) where that comes first.
pub(super) fn within_run(deadline: Instant) -> Instant {
    let spent = *CLAIM_TIME_SPENT.lock().unwrap_or_else(|p| p.into_inner());
    let deadline = deadline.checked_sub(spent).unwrap_or(deadline);
    let deadline = DEADLINE_CAP.lock().unwrap_or_else(|p| p.into_inner()).map_or(deadline, |cap| cap.min(deadline));
    RUN_DEADLINE.lock().unwrap_or_else(|p| p.into_inner()).map_or(deadline, |run| run.min(deadline))
}

/// Runs `work` with every deadline of the checks inside it cut to `until` (the cap before is
/// put back however `work` ends, a panic included).
pub(super) fn capped<T>(until: Instant, work: impl FnOnce() -> T) -> T {
    struct Restore(Option<Instant>);
    impl Drop for Restore {
        fn drop(&mut self) {
            *DEADLINE_CAP.lock().unwrap_or_else(|p| p.into_inner()) = self.0;
        }
    }
    let before = {
        let mut cap = DEADLINE_CAP.lock().unwrap_or_else(|p| p.into_inner());
        let capped = cap.map_or(until, |earlier| earlier.min(until));
        cap.replace(capped)
    };
    let _restore = Restore(before);
    work()
}

/// One claim for the exact stage: at these sizes, with the floating-point instance (for a
/// counterexample's values) where there is one, by this deadline.
#[derive(Clone, Copy)]
pub(super) struct Exact<'a> {
    pub(super) scope: &'a Scope,
    pub(super) claim: &'a Claim,
    pub(super) size_sets: &'a [BTreeMap<String, i64>],
    pub(super) floats: Option<&'a Instance<'a, numeric::Numeric>>,
    pub(super) deadline: Instant,
}

/// Time a child gets past a deadline (an exact job's, or a worker's claim's) to notice it and
/// answer on its own.
pub(super) const EXACT_GRACE: Duration = Duration::from_millis(500);

/// The exact check at the given sizes, in a child process killed at the deadline and held to a
/// memory limit ([`cas::isolated`]): a blow-up inside Symbolica ends the claim undecided, saying
/// which budget it passed, never the run.
pub(super) fn symbolic_at(job: Exact) -> Verdict {
    let job = Exact { deadline: within_run(job.deadline), ..job };
    match cas::isolated(job.deadline + EXACT_GRACE, || symbolic_inline(job)) {
        Ok(verdict) => verdict,
        Err(stopped) => {
            let detail = stopped_by(stopped, "the exact stage");
            Verdict::undecided(Reason::Budget { detail }, describe_sizes(job.size_sets))
        }
    }
}

/// The test hook of the memory limit (issue 47): with `DERIVCHECK_PLANTED_BLOWUP=TEXT`, the
/// exact stage of a claim whose TeX contains TEXT asks for twice the memory it may have, as a
/// blow-up inside Symbolica would.
pub(super) fn planted_blowup(claim: &Claim) {
    // (Read once: this runs for every exact job.)
    static PLANTED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let planted = PLANTED.get_or_init(|| std::env::var("DERIVCHECK_PLANTED_BLOWUP").ok().filter(|t| !t.is_empty()));
    if planted.as_ref().is_some_and(|text| claim.tex.contains(text.as_str())) {
        let bytes = usize::try_from(2 * cas::isolate::MEMORY_LIMIT_BYTES).unwrap_or(usize::MAX);
        std::hint::black_box(vec![1u8; bytes]);
    }
}

/// Why `what` (`the exact stage`, `the check`) of a claim gave no answer, in words.
pub(super) fn stopped_by(why: cas::Stopped, what: &str) -> String {
    match why {
        cas::Stopped::Deadline => format!("{what} did not finish within the claim's time ({} s)", CLAIM_TIME.as_secs()),
        cas::Stopped::Memory => {
            format!("{what} passed its memory limit ({} GB) or stopped", cas::isolate::MEMORY_LIMIT_BYTES >> 30)
        }
        cas::Stopped::Unavailable | cas::Stopped::Deferred => format!("{what} could not be started (no child process)"),
    }
}

pub(super) fn symbolic_inline(job: Exact) -> Verdict {
    let Exact { scope, claim, size_sets, floats, deadline } = job;
    planted_blowup(claim);
    let budget = Budget { max_steps: MAX_STEPS, max_bytes: MAX_BYTES, deadline };
    let free = free_indices(scope, claim);
    let sizes_text = describe_sizes(size_sets);
    let mut method = Method::Symbolic;
    let mut assignments_checked = 0usize;
    let mut where_logs_defined: Vec<String> = Vec::new();
    for sizes in size_sets {
        let inst = Instance::new(&Symbolic, scope, sizes, None, budget);
        let envs = match index_assignments(&inst, &free, &claim.conditions, claim, &Env::new()) {
            Ok(envs) => envs,
            Err(e) => return Verdict::undecided(e.reason(), sizes_text),
        };
        for env in envs {
            assignments_checked += 1;
            match compare_at(&inst, claim, &env) {
                Ok(Agreement::Equal(m, positive)) => {
                    method = cas::weaker(method, m);
                    where_logs_defined
                        .extend(positive.into_iter().filter(|p| !where_logs_defined.contains(p)).collect::<Vec<_>>());
                }
                Ok(Agreement::Different(mismatch)) => {
                    let reason = refutation(&mismatch, sizes, &env);
                    let method = mismatch.method;
                    return Verdict::refuted(
                        method,
                        sizes_text,
                        reason,
                        Counterexample { sizes: sizes.clone(), indices: env, mismatch: Some(mismatch) },
                    );
                }
                Err(e) if e.refutes() => return refuted_by_shape(&e, claim, sizes_text, sizes, env),
                Err(e) => {
                    let inconsistent = matches!(e.kind, EvalErrorKind::Inconsistent { .. });
                    return Verdict {
                        inconsistent,
                        focus: focus_of(&e, claim),
                        ..Verdict::undecided(e.reason(), sizes_text)
                    };
                }
            }
        }
    }
    if assignments_checked == 0 {
        let conditions: Vec<String> = claim.conditions.iter().map(crate::syntax::print::chain).collect();
        return Verdict::undecided(Reason::NoAssignment { conditions }, sizes_text);
    }
    let reason = Reason::Checked { assignments: assignments_checked, rounded: method == Method::Rounded };
    let mut verified = Verdict::new(Status::Verified, Some(method), sizes_text, reason);
    // (Proven where the claim's own logarithms are defined: their arguments are listed, as
    // written where the claim writes them.)
    if !where_logs_defined.is_empty() {
        let written = written_log_arguments(claim);
        verified.assuming.extend(if written.is_empty() { where_logs_defined } else { written });
    }
    match floats {
        Some(floats) if method != Method::Rounded => with_numeric_crosscheck(scope, floats, claim, &free, verified),
        _ => verified,
    }
}

/// Adds the floating-point cross-check at larger sizes to a verified verdict. Agreement makes
/// the method `symbolic+numeric`; a disagreement with a symbolic proof is reported loudly.
/// A disagreement at the larger sizes is settled by the exact check at those sizes: a
/// counterexample there refutes the claim (the verdict names the size); only an exact proof at
/// the very size where floats disagree makes the result INCONSISTENT.
pub(super) fn with_numeric_crosscheck(
    scope: &Scope,
    floats: &Instance<numeric::Numeric>,
    claim: &Claim,
    free: &[String],
    mut v: Verdict,
) -> Verdict {
    let mut check = numeric::crosscheck::crosscheck(floats, claim, free);
    if !check.agree && check.assignments > 0 {
        // Central differences lose digits to rounding when the function is large (a loss over
        // thousands of entries): a disagreement that a larger step removes was rounding.
        let coarse = numeric::Numeric::new(7, numeric::crosscheck::COARSE_EPSILON);
        let budget = Budget {
            max_steps: 20 * MAX_STEPS,
            max_bytes: MAX_BYTES,
            deadline: within_run(Instant::now() + CLAIM_TIME),
        };
        let retry =
            numeric::crosscheck::crosscheck(&Instance::new(&coarse, scope, floats.sizes, None, budget), claim, free);
        if retry.agree {
            check = retry;
        }
    }
    let evaluated = check.assignments > 0;
    if check.agree && v.method == Some(Method::Symbolic) {
        v.method = Some(Method::SymbolicNumeric);
    } else if !check.agree && evaluated {
        let larger = vec![floats.sizes.clone()];
        let exact = check_at(scope, claim, &larger, None, None);
        match exact.status {
            Status::Refuted => return Verdict { numeric: Some(check), ..exact },
            Status::Undecided => {
                v.status = Status::Undecided;
                v.reason = Reason::Unsettled {
                    proven_sizes: v.sizes.clone(),
                    float_sizes: check.sizes.clone(),
                    exact: Box::new(exact.reason),
                };
                v.numeric = Some(check);
                return v;
            }
            Status::Verified => {}
        }
        v.status = Status::Undecided;
        v.inconsistent = true;
        let (lhs, rhs) = check.differs.unwrap_or((f64::NAN, f64::NAN));
        v.reason = Reason::Inconsistent {
            exact: v.method == Some(Method::Symbolic),
            float_sizes: check.sizes.clone(),
            lhs,
            rhs,
        };
    }
    v.numeric = Some(check);
    v
}

/// The arguments of the logarithms a claim writes, each as TeX `u > 0`, leaving out one built
/// from the others by products, quotients, powers and `\prod` (`\frac{\pi(x_i)}{1-\pi(x_i)}`
/// beside `\pi(x_i)` and `1-\pi(x_i)`): where a claim is meant, each is positive.
fn written_log_arguments(claim: &Claim) -> Vec<String> {
    fn walk<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        if let ExprKind::Apply { func, args, .. } = &e.kind {
            if matches!(func.name.as_str(), "ln" | "log" | "lg") && func.primes == 0 && args.len() == 1 {
                out.push(&args[0]);
            }
        }
        e.children().for_each(|c| walk(c, out));
    }
    let mut found = Vec::new();
    walk(&claim.lhs, &mut found);
    walk(&claim.rhs, &mut found);
    let key = |e: &Expr| crate::syntax::print::expr(unfenced(e));
    let keys: Vec<String> = found.iter().map(|e| key(e)).collect();
    // Built from the other arguments (and numbers) by ×, ÷, powers and products over an index.
    fn built(e: &Expr, keys: &[String], own: &str) -> bool {
        let e = unfenced(e);
        let k = crate::syntax::print::expr(e);
        if k != own && keys.contains(&k) {
            return true;
        }
        match &e.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times | BinOp::Div, lhs, rhs } => {
                built(lhs, keys, own) && built(rhs, keys, own)
            }
            ExprKind::Frac { num, den } => built(num, keys, own) && built(den, keys, own),
            ExprKind::Power { base, .. } => built(base, keys, own),
            ExprKind::BigOp { op: BigOpKind::Prod, body: Some(body), .. } => built(body, keys, own),
            _ => false,
        }
    }
    let mut out: Vec<String> = Vec::new();
    let mut seen: Vec<&String> = Vec::new();
    for (e, k) in found.iter().zip(&keys) {
        if !built(e, &keys, k) && !seen.contains(&k) {
            seen.push(k);
            out.push(format!("{} > 0", crate::syntax::print::explicit_tex(unfenced(e), &|_| true)));
        }
    }
    out
}

/// `e` without the parentheses or brackets around it.
fn unfenced(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Fenced { inner: Some(inner), .. } => unfenced(inner),
        _ => e,
    }
}

/// Where in the claim's link an evaluation error points, when it points inside the link (a
/// spec claim's positions are in the spec and are not used).
pub(super) fn focus_of(e: &EvalError, claim: &Claim) -> Option<(usize, usize)> {
    let span = e.span();
    let inside = claim.lhs.span.start <= span.start && span.end <= claim.rhs.span.end && span.start < span.end;
    (inside && matches!(claim.origin, Origin::Notes { .. })).then_some((span.start, span.end))
}

/// A claim the text says does not hold in general: a counterexample verifies that.
pub(super) fn check_failing_claim(scope: &Scope, claim: &Claim, shared: &SharedPoints) -> Verdict {
    expected_to_fail(check_claim(scope, claim, None, Some(shared)))
}

pub(super) fn expected_to_fail(v: Verdict) -> Verdict {
    match v.status {
        Status::Refuted => {
            let reason = Reason::FailsAsTextSays { inner: Box::new(v.reason.clone()) };
            Verdict { status: Status::Verified, reason, ..v }
        }
        Status::Verified => Verdict { status: Status::Refuted, reason: Reason::HeldThoughTextSaysFails, ..v },
        Status::Undecided => v,
    }
}

pub(super) fn compare_at(inst: &Instance<Symbolic>, claim: &Claim, env: &Env) -> Result<Agreement, EvalError> {
    let lhs = inst.eval(&claim.lhs, env)?;
    let rhs = inst.eval(&claim.rhs, env)?;
    let span = crate::syntax::ast::Span::new(claim.lhs.span.start, claim.rhs.span.end);
    let (lhs, rhs) = cas::under_assumptions(inst, env, span, lhs, rhs)?;
    let seed = claim.id.bytes().fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
    let printed = printed_tolerance(&claim.rhs).or_else(|| printed_tolerance(&claim.lhs));
    let agreement = cas::compare(inst, &lhs, &rhs, span, seed, &cas::Assumptions { printed })?;
    Ok(match agreement {
        // What the computed side really is: the derivative the CAS took, else the left side.
        Agreement::Different(mut mismatch) if mismatch.entry.is_none() && claim.kind != ClaimKind::Printed => {
            let derivative_on_right = !is_derivative(&claim.lhs) && is_derivative(&claim.rhs);
            let (computed, other) = if derivative_on_right { (&rhs, &claim.lhs) } else { (&lhs, &claim.rhs) };
            mismatch.correct = cas::correct_tex(inst, computed).map(|tex| (tex, other.span.start, other.span.end));
            Agreement::Different(mismatch)
        }
        other => other,
    })
}

pub(super) fn is_derivative(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Derivative { .. })
}

/// A side printed as decimals (`0.7311`, `-1.25`, a bmatrix of them): half a unit in the last
/// printed digit of each entry. Integers are exact and give none.
pub fn printed_tolerance(side: &Expr) -> Option<Vec<f64>> {
    fn of_number(e: &Expr) -> Option<f64> {
        match &e.kind {
            ExprKind::Number { value } => value.split_once('.').map(|(_, frac)| 0.5 * 10f64.powi(-(frac.len() as i32))),
            ExprKind::Neg { operand } => of_number(operand),
            _ => None,
        }
    }
    match &side.kind {
        ExprKind::Matrix { rows, env } if env != "vmatrix" => {
            let cell = |c: &Option<Statement>| {
                c.as_ref().and_then(|s| s.chains.first()).and_then(|c| c.first.as_ref()).and_then(of_number)
            };
            let all: Vec<Option<f64>> = rows.iter().flatten().map(cell).collect();
            all.iter().any(Option::is_some).then(|| all.iter().map(|t| t.unwrap_or(0.0)).collect())
        }
        _ => of_number(side).map(|t| vec![t]),
    }
}

pub(super) fn refutation(m: &Mismatch, sizes: &BTreeMap<String, i64>, env: &Env) -> Reason {
    let at = sizes.iter().chain(env.iter()).map(|(k, v)| (k.clone(), *v)).collect();
    Reason::Differs { entry: m.entry, lhs: m.lhs, rhs: m.rhs, at, difference: m.difference.clone() }
}

/// `N = 2, 3, 4, 5; d = 2`: the section's sizes the claim was instantiated at. Where the sets
/// are not every combination of those values, groups that are are joined by ` | `
/// (`d = 2, 3; n = 2 | d = 8; n = 4`).
pub(super) fn describe_sizes(sets: &[BTreeMap<String, i64>]) -> String {
    if is_grid(sets) {
        return describe_grid(sets);
    }
    let (grid, rest) = sets.split_at(sets.len() - 1);
    let head = if is_grid(grid) { describe_grid(grid) } else { describe_sizes(grid) };
    format!("{head} | {}", describe_grid(rest))
}

/// Whether `sets` are exactly all combinations of the values each name takes in them.
pub(super) fn is_grid(sets: &[BTreeMap<String, i64>]) -> bool {
    let mut per_name: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
    for set in sets {
        for (k, v) in set {
            per_name.entry(k.as_str()).or_default().insert(*v);
        }
    }
    let distinct: BTreeSet<&BTreeMap<String, i64>> = sets.iter().collect();
    per_name.values().map(BTreeSet::len).product::<usize>() == distinct.len()
}

pub(super) fn describe_grid(sets: &[BTreeMap<String, i64>]) -> String {
    let mut per_name: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
    for set in sets {
        for (k, v) in set {
            per_name.entry(k.as_str()).or_default().insert(*v);
        }
    }
    per_name
        .iter()
        .map(|(k, vs)| format!("{k} = {}", vs.iter().map(i64::to_string).collect::<Vec<_>>().join(", ")))
        .collect::<Vec<_>>()
        .join("; ")
}
