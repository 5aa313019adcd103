//! Stage 7 — `check`: section plans in, a [`Verdict`] per claim out.
//!
//! Each claim is instantiated at every combination of the section's sizes and at every
//! assignment of its free indices that its conditions allow, and both sides are compared: by
//! randomized exact testing first (`modular`, with a stated error bound), then by the CAS where
//! that cannot prove the claim, with floats at larger sizes. A verdict says exactly what was
//! shown: the method (randomized, symbolic, numeric) and the sizes covered; a refutation carries
//! a counterexample. Runs on the CAS worker thread.

use crate::cas::{self, Agreement, Symbolic};
use crate::eval::{free_indices, index_assignments, Budget, Caches, Env, EvalError, EvalErrorKind, Instance};
pub use crate::model::{Counterexample, Method, Mismatch, Reason, Status, Verdict};
use crate::modular::{self, Outcome};
pub use cache::{fingerprint, VerdictCache};
use std::cell::RefCell;

mod cache;
mod constraint;
mod run;
pub use run::{check_files, panic_message};
pub mod edits;
pub mod mutate;
use crate::numeric;
use crate::sema::scope::IndexRange;
use crate::sema::{Claim, ClaimKind, Origin};
use crate::sema::{Decl, Definition, Scope};
use crate::syntax::ast::Statement;
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::time::{Duration, Instant};

/// A claim with its verdict: what reports are made of.
#[derive(Debug, Clone, Serialize)]
pub struct CheckedClaim {
    pub id: String,
    pub section: String,
    #[serde(flatten)]
    pub origin: Origin,
    pub tex: String,
    pub kind: ClaimKind,
    /// The claim's link (`lhs = rhs`) as a byte range inside the formula's TeX.
    pub link: (usize, usize),
    /// The claim as derivcheck read it, in TeX with every operation explicit.
    pub understood: String,
    /// How it was read through recurrences, if it was.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrolled: Option<crate::model::Unrolled>,
    pub verdict: Verdict,
    /// Served from the verdict cache (not checked again in this run).
    #[serde(skip)]
    pub from_cache: bool,
}

/// Per-claim limits.
pub const CLAIM_TIME: Duration = Duration::from_secs(20);
const MAX_STEPS: usize = 5_000_000;
const MAX_BYTES: usize = 64 * 1024 * 1024;
/// The highest power a written power series is compared through (`x^{12}` and beyond: refused).
const MAX_SERIES_ORDER: u32 = 12;

/// Runs one claim's check so that a panic inside it (Symbolica failing on a huge number) leaves
/// that claim undecided and the run going on.
fn guarded(check: impl FnOnce() -> Verdict) -> Verdict {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(check)).unwrap_or_else(|_| {
        let detail = "the CAS failed internally on this claim (see the message above)".to_string();
        Verdict::undecided(Reason::Internal { detail }, String::new())
    })
}

/// The claim as derivcheck read it: as sema printed it, but for a claim the probability check
/// decided, whose `P(X, Y)`, `p(x)`, `E(X)` are probabilities and expectations, not products.
fn understood_as_checked(claim: &Claim, verdict: &Verdict) -> String {
    if verdict.method != Some(Method::Distributions) {
        return claim.understood.clone();
    }
    let probability = |key: &str| {
        matches!(key, "P" | "p" | "E" | "\\Pr" | "\\mathbb{P}" | "\\mathbb{E}" | "\\mathrm{P}" | "\\mathrm{E}")
    };
    let (lhs, rhs) = (
        crate::syntax::print::explicit_tex(&claim.lhs, &probability),
        crate::syntax::print::explicit_tex(&claim.rhs, &probability),
    );
    format!("{lhs} {} {rhs}", if claim.approx { "\\approx" } else { "=" })
}

/// Checks one claim with `check`, timing it.
fn timed(check: impl FnOnce() -> Verdict) -> Verdict {
    let start = Instant::now();
    let verdict = check();
    Verdict { elapsed_ms: start.elapsed().as_secs_f64() * 1e3, ..verdict }
}

fn checked_claim(claim: &Claim, verdict: Verdict) -> CheckedClaim {
    CheckedClaim {
        id: claim.id.clone(),
        section: claim.section.clone(),
        origin: claim.origin.clone(),
        tex: claim.tex.clone(),
        kind: claim.kind,
        link: (claim.lhs.span.start, claim.rhs.span.end),
        understood: understood_as_checked(claim, &verdict),
        unrolled: claim.reading.unrolled.clone(),
        verdict,
        from_cache: false,
    }
}

fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The verdict of a claim the run's time limit left unchecked.
fn out_of_time() -> Verdict {
    let detail = "the run's time limit was reached before this claim".to_string();
    Verdict::undecided(Reason::Budget { detail }, String::new())
}

/// How many values an index the notes give no range is tried at (`\sum_i p_i \log p_i`: i = 1..N
/// for N = 1..4).
const FREE_RANGE_SIZES: [i64; 4] = [1, 2, 3, 4];

/// `\sum_i p_i(-\log p_i) = -\sum_i p_i\log p_i` where nothing gives i a range: the claim
/// checked again with every such index of it (`name`, and the sums' letters whose range no shape
/// gives) running over 1..N, for each N of [`FREE_RANGE_SIZES`]. Only a verification is kept
/// (what the range is remains the notes' to say), listing `i = 1, …, N` among its assumptions.
/// Tried first: an index that indexes a vector or matrix runs over its entries, as a sum's
/// letter does ([`with_ranges_read_off`]).
fn with_free_range(scope: &Scope, claim: &Claim, name: &str) -> Option<Verdict> {
    // (Written as an index: in a subscript, or a sum's letter; `A=a` names an event's value.)
    fn indexes_with(e: &Expr, letter: &str) -> bool {
        let here = match &e.kind {
            ExprKind::Subscript { index, .. } => expr_mentions(index, letter),
            ExprKind::BigOp { lower: Some(lower), .. } => expr_mentions(lower, letter),
            _ => false,
        };
        here || e.children().any(|c| indexes_with(c, letter))
    }
    let index_letter = |k: &str| {
        k.chars().count() == 1
            && k.chars().all(|c| c.is_ascii_lowercase())
            && !scope.sizes.contains_key(k)
            && !scope.defs.contains_key(k)
            && (indexes_with(&claim.lhs, k) || indexes_with(&claim.rhs, k))
    };
    if scope.pinned || !index_letter(name) {
        return None;
    }
    // `(\mathbf A\mathbf B)_{ik} = \sum_j a_{ij}b_{jk}`: first over what the index indexes, as a
    // sum's letter runs (k over the columns of B), for every value there; then at sizes 1..N.
    if let Some(verdict) = with_ranges_read_off(scope, claim, name, &index_letter) {
        return Some(verdict);
    }
    let size = ["N", "N_{0}", "N_{1}"].into_iter().find(|n| !scope.sizes.contains_key(*n) && !mentions(claim, n))?;
    let mut free = scope.clone();
    free.sizes.insert(size.to_string(), FREE_RANGE_SIZES.to_vec());
    let mut letters = vec![name.to_string()];
    for (key, decl) in &scope.decls {
        if matches!(decl, Decl::Index { range: IndexRange::Auto }) && key != name && mentions(claim, key) {
            letters.push(key.clone());
        }
    }
    let range = IndexRange::Size(size.to_string());
    let (again, letters) = checked_with_indices(&free, claim, &letters, &range, &index_letter);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.extend(letters.iter().map(|l| format!("{l} = 1, \\ldots, {size}")));
        Verdict { assuming, ..again }
    })
}

/// `claim` checked in `scope` with the index `letters` given `range`, and each index found
/// without a value on the way that `joins` admits (`c_{ij} = \sum_k …`: k, then i, then j; four
/// at most): the last verdict, and the letters given the range.
fn checked_with_indices(
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
fn refuted_with_sizes_equal(scope: &Scope, claim: &Claim) -> bool {
    [2, 3].into_iter().any(|n| {
        let mut tied = scope.clone();
        tied.sizes.values_mut().for_each(|values| *values = vec![n]);
        let unknown = |name: &str| !tied.decls.contains_key(name) && !tied.sizes.contains_key(name);
        checked_with_indices(&tied, claim, &[], &IndexRange::Auto, &unknown).0.status == Status::Refuted
    })
}

/// The claim checked again with `name` (and each index found without a value after it) ranging
/// over the entries it indexes, read off the shapes as for a sum's letter; the verification only.
fn with_ranges_read_off(
    scope: &Scope,
    claim: &Claim,
    name: &str,
    index_letter: &dyn Fn(&str) -> bool,
) -> Option<Verdict> {
    // (Only an index of something with a shape can take its range from it: `q_i` of a family
    // of vectors cannot, and the claim is not checked again for nothing.)
    fn indexes_a_shape(scope: &Scope, e: &Expr, name: &str) -> bool {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let shaped = match base.symbol_key() {
                Some(key) => {
                    matches!(scope.decls.get(&key), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
                        || (scope.defs.contains_key(&key) && scope.matrix_like.contains(&key))
                }
                None => matches!(base.kind, ExprKind::Fenced { .. }),
            };
            if shaped && expr_mentions(index, name) {
                return true;
            }
        }
        e.children().any(|c| indexes_a_shape(scope, c, name))
    }
    if !indexes_a_shape(scope, &claim.lhs, name) && !indexes_a_shape(scope, &claim.rhs, name) {
        return None;
    }
    // (Only a verification: `c_{ij} = \sum_k a_{ik}b_{kj}` with c written nowhere else is false
    // for free leaves c_{ij}, and says nothing wrong.)
    let (again, _) = checked_with_indices(scope, claim, &[name.to_string()], &IndexRange::Auto, index_letter);
    (again.status == Status::Verified).then_some(again)
}

/// A claim's verdict after the other readings of it the text allows ([`other_readings`]), with
/// a refutation's repair ([`with_repair`]), where a refutation stands only as an identity with
/// a slip, not as a constraint on letters nobody defined ([`constraint::constraint_or_slip`]).
fn judged(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    use crate::model::Reading;
    let verdict = with_repair(scope, claim, other_readings(scope, claim, verdict), terms);
    let verdict = constraint::constraint_or_slip(scope, claim, verdict);
    let verdict = change_as_one_quantity(scope, claim, verdict);
    let open_to_readings = !claim.reading.marked && !scope.pinned;
    // `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial
    // x_i}` with E given no formula: 0 = 0, which says nothing.
    if let Some(letter) = (verdict.status == Status::Verified && open_to_readings)
        .then(|| derivative_of_a_free_letter(scope, claim))
        .flatten()
    {
        return undecided_under(Reading::UnknownDerivative, Some(letter), None, verdict);
    }
    // `if $p=0$, then $p\log_2 p = 0$`: the convention 0·log 0 = 0, not a claim to verify.
    if let Some(at) = (verdict.status != Status::Undecided).then(|| log_of_zero(claim)).flatten() {
        return undecided_under(Reading::Convention, Some(at), None, verdict);
    }
    // `若 $A \sim B$，则 $r(A) = r(B)$`: checked without the supposition, decided by nothing.
    match (&claim.reading.hypothesis, verdict.status) {
        (Some(tex), Status::Verified | Status::Refuted) if open_to_readings => {
            undecided_under(Reading::Hypothesis, Some(tex.clone()), None, verdict)
        }
        _ => verdict,
    }
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

/// The first letter the claim differentiates (`\frac{\partial E}{\partial x_i}`) that nothing
/// gives a meaning: no definition (its own or its base's), declaration, binding or function
/// reading; `None` where there is none.
fn derivative_of_a_free_letter(scope: &Scope, claim: &Claim) -> Option<String> {
    let known = |key: &str| {
        scope.defs.contains_key(key)
            || scope.decls.contains_key(key)
            || scope.unknown_functions.contains(key)
            || scope.unknown_families.contains(key)
            || claim.reading.overrides.iter().any(|d| d.key == key)
    };
    fn find(e: &Expr, known: &dyn Fn(&str) -> bool) -> Option<String> {
        if let ExprKind::Derivative { of, wrt, .. } = &e.kind {
            let base = match &of.kind {
                ExprKind::Subscript { base, .. } => base.symbol_key(),
                ExprKind::Symbol(_) => of.symbol_key(),
                _ => None,
            };
            if let (Some(key), Some(base)) = (of.symbol_key(), base) {
                let same = wrt.symbol_key().as_deref() == Some(key.as_str());
                if !same && !known(&key) && !known(&base) {
                    return Some(key);
                }
            }
        }
        e.children().find_map(|c| find(c, known))
    }
    find(&claim.lhs, &known).or_else(|| find(&claim.rhs, &known))
}

/// A logarithm of a letter the claim's bindings set to 0 (`p = 0`, then `p\log_2 p`), as
/// written; `None` where there is none.
fn log_of_zero(claim: &Claim) -> Option<String> {
    let zero = |e: &Expr| {
        e.symbol_key().is_some_and(|k| {
            claim.reading.overrides.iter().any(|d| {
                d.key == k
                    && d.params.is_empty()
                    && matches!(&d.body.kind, ExprKind::Number { value } if value.parse::<f64>() == Ok(0.0))
            })
        })
    };
    fn find(e: &Expr, zero: &dyn Fn(&Expr) -> bool) -> Option<String> {
        if let ExprKind::Apply { func, args, .. } = &e.kind {
            if matches!(func.name.as_str(), "log" | "ln" | "lg") && args.first().is_some_and(zero) {
                return Some(crate::syntax::print::explicit_tex(e, &|_| false));
            }
        }
        e.children().find_map(|c| find(c, zero))
    }
    find(&claim.lhs, &zero).or_else(|| find(&claim.rhs, &zero))
}

/// `f(t + \Delta t) = f(t) + \Delta t f'(t)`, `\delta y_i`: a Δ or δ that nothing defines, written
/// before a letter, names the change of that letter as often as it multiplies it. A claim
/// verified with Δ·t holds for Δt as one quantity too where every Δ stands before the same
/// letter (Δt then takes every value as Δ does): verified, saying so. Where Δ stands elsewhere
/// too, the two readings differ, and the claim is undecided, naming Δ.
fn change_as_one_quantity(scope: &Scope, claim: &Claim, verdict: Verdict) -> Verdict {
    if verdict.status != Status::Verified || claim.reading.marked || scope.pinned {
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
    let changes: BTreeSet<String> = ["\\Delta", "\\delta"]
        .into_iter()
        .map(String::from)
        .filter(|k| !scope.defs.contains_key(k) && !scope.decls.contains_key(k))
        .collect();
    let mut after = BTreeMap::new();
    walk(&claim.lhs, &changes, &mut after);
    walk(&claim.rhs, &changes, &mut after);
    let Some((change, letters)) = after.into_iter().next() else { return verdict };
    match letters.iter().collect::<Vec<_>>().as_slice() {
        [Some(letter)] => {
            let mut assuming = verdict.assuming.clone();
            assuming.push(format!(
                "{change} {letter} read as {change}\\cdot {letter}, which takes every value {change} {letter} does"
            ));
            Verdict { assuming, ..verdict }
        }
        _ => undecided_under(crate::model::Reading::ChangeOrProduct, Some(change), None, verdict),
    }
}

/// A refuted claim with the smallest edit of it that derivcheck verifies, where the budget finds
/// one ([`mutate::repair`]).
fn with_repair(scope: &Scope, claim: &Claim, verdict: Verdict, terms: &[String]) -> Verdict {
    if verdict.status != Status::Refuted || !claim.holds || verdict.suggestion.is_some() {
        return verdict;
    }
    let own = claim_scope(scope, claim);
    let suggestion = mutate::repair(own.as_ref().unwrap_or(scope), claim, &verdict, terms);
    Verdict { suggestion, ..verdict }
}

/// The section's scope with the claim's own definitions in force (bindings of its paragraph,
/// example definitions made before it); `None` when it has none.
fn claim_scope(scope: &Scope, claim: &Claim) -> Option<Scope> {
    if claim.reading.overrides.is_empty() && claim.reading.classes.is_empty() {
        return None;
    }
    let mut own = scope.clone();
    // `\mathbf w \in \mathbb R^d`, then `w = 2`: a binding never changes a declared shape (a
    // number for a vector is no value of it).
    let declared_vector = |key: &str| {
        matches!(scope.decls.get(key), Some(Decl::Matrix { rows, cols } | Decl::Family { rows, cols })
            if !(rows == "1" && cols == "1"))
    };
    for definition in &claim.reading.overrides {
        let number = matches!(definition.body.kind, ExprKind::Number { .. } | ExprKind::Neg { .. });
        if number && definition.params.is_empty() && declared_vector(&definition.key) {
            continue;
        }
        own.defs.insert(definition.key.clone(), definition.clone());
    }
    let named: Vec<String> = claim.reading.classes.iter().map(|(key, _)| key.clone()).collect();
    make_square(&mut own, &named);
    own.classes.extend(claim.reading.classes.iter().cloned());
    Some(own)
}

/// Makes the matrices `keys` whose shape was read off use square where the uses left it open
/// (`\mathbf U\mathbf c` gives U n×m): the size of their columns becomes that of their rows,
/// for every letter sized by it. A kind of matrix (symmetric, diagonal, orthogonal) is square.
fn make_square(scope: &mut Scope, keys: &[String]) {
    for key in keys {
        // A shape the notes declare m×n (a picture of a general matrix) for a letter the words
        // then call symmetric: the claim speaks of a square one, m×m.
        if let (false, Some(Decl::Matrix { rows, cols })) = (scope.pinned, scope.decls.get_mut(key)) {
            if rows != cols && rows != "1" && cols != "1" && !scope.inferred.iter().any(|s| &s.key == key) {
                *cols = rows.clone();
            }
        }
        let Some(shape) = scope.inferred.iter().find(|s| &s.key == key && !s.identity) else { continue };
        let (from, to) = (shape.cols.clone(), shape.rows.clone());
        if from == to || from == "1" || to == "1" || from.parse::<u32>().is_ok() {
            continue;
        }
        let inferred = scope.inferred.iter_mut().map(|s| (&mut s.rows, &mut s.cols));
        let declared = scope.decls.values_mut().filter_map(|decl| match decl {
            Decl::Matrix { rows, cols } | Decl::Family { rows, cols } => Some((rows, cols)),
            _ => None,
        });
        for (rows, cols) in inferred.chain(declared) {
            for size in [rows, cols] {
                if *size == from {
                    *size = to.clone();
                }
            }
        }
    }
}

/// A claim in a scope of its own: where the words call a letter an orthogonal matrix, it must
/// hold for those of determinant 1 and −1 alike, so a verdict for the first is checked again
/// with the second (a refutation by either is a real orthogonal counterexample).
fn check_own_claim(own: &Scope, claim: &Claim) -> Verdict {
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

/// The section's definitions a claim reaches that the notes give further on, after the claim's
/// line (`choose $\epsilon = -\eta f'(x)$` after a Taylor step, `当且仅当 $x = 0$ 时` after a
/// norm): the claim was written before those meanings were given.
/// With `numbers_only`, definitions of matrices are left out (see [`with_later_letters_general`]).
fn later_definitions<'s>(scope: &'s Scope, claim: &Claim, numbers_only: bool) -> Vec<&'s Definition> {
    let Origin::Notes { line, col, .. } = &claim.origin else { return Vec::new() };
    if scope.pinned || claim.reading.marked {
        return Vec::new();
    }
    // (Further on the same line too: `a system $Ax = b$ where $A = …$`.)
    let defined_after =
        |d: &Definition| d.from_notes && !d.inherited && d.position().is_some_and(|at| at > (*line, *col));
    // A letter made general is a number (or a function of numbers): what holds for every number
    // need not hold for the matrix a later definition makes it (`(A+B)^2 = A^2+2AB+B^2`), so a
    // verification leaves definitions of matrices in force.
    fn holds_a_matrix(e: &Expr, scope: &Scope) -> bool {
        matches!(e.kind, ExprKind::Matrix { .. })
            || e.symbol_key().is_some_and(|k| scope.matrix_like.contains(&k) || scope.decls.contains_key(&k))
            || e.children().any(|c| holds_a_matrix(c, scope))
    }
    let number =
        |d: &Definition| !numbers_only || (!scope.matrix_like.contains(&d.key) && !holds_a_matrix(&d.body, scope));
    let used = crate::eval::dependencies(scope, claim);
    let mut later: Vec<&Definition> =
        scope.defs.values().filter(|d| used.contains(&d.key) && defined_after(d) && number(d)).collect();
    // The definitions are hashed: name the same letter on every run.
    later.sort_by(|a, b| a.key.cmp(&b.key));
    later
}

/// `scope` with the letters of `definitions` general: a function nobody specified for a
/// function, a free letter otherwise.
fn with_letters_general(scope: &Scope, definitions: &[&Definition]) -> Scope {
    let mut general = scope.clone();
    for d in definitions {
        general.defs.remove(&d.key);
        if d.function {
            general.unknown_functions.insert(d.key.clone());
        }
    }
    general
}

/// A claim written before the definitions of some of its letters (`f(x+\epsilon) = f(x) +
/// \epsilon f'(x) + \mathcal O(\epsilon^2)`, then `choose $\epsilon = -\eta f'(x)$` and
/// `$f(x)=x^2$` further on) may speak of any such letters. Verified when it holds with those
/// letters general — a function nobody specified, a free number — which implies it holds for
/// what they are given later; `None` otherwise (a refutation is weighed in [`other_readings`]).
/// `own` is the claim's scope where it has one ([`claim_scope`]).
fn with_later_letters_general(scope: &Scope, own: Option<&Scope>, claim: &Claim) -> Option<Verdict> {
    let later = later_definitions(scope, claim, true);
    if later.is_empty() {
        return None;
    }
    let again = guarded(|| check_own_claim(&with_letters_general(own.unwrap_or(scope), &later), claim));
    (again.status == Status::Verified).then_some(again)
}

/// A claim verified with a letter the section defines only further on, as derived (words that
/// assert before the definition), which fails with that letter general (`1 = \sum_k \frac1Z\exp(w_k\cdot x)`, then `得到 $Z = \sum_k \exp(w_k\cdot
/// x)$`): the definition may be derived from it as often as it follows from the definition, so
/// it is no evidence either way. Undecided, naming the letter and where it is defined.
fn through_later_only(scope: &Scope, own: Option<&Scope>, claim: &Claim, verdict: Verdict) -> Verdict {
    // (Only letters written as numbers: a vector or matrix made general loses its shape, and a
    // claim about it fails for that alone — the expansion about a step `\boldsymbol\epsilon`
    // defined later.)
    let mut later = later_definitions(scope, claim, false);
    later.retain(|d| {
        scope.derived.contains(&d.key) && !scope.matrix_like.contains(&d.key) && !scope.decls.contains_key(&d.key)
    });
    let Some(first) = later.first() else { return verdict };
    let general = with_letters_general(own.unwrap_or(scope), &later);
    if guarded(|| check_own_claim(&general, claim)).status == Status::Verified {
        return verdict;
    }
    undecided_under(
        crate::model::Reading::HoldsThroughLater,
        Some(first.key.clone()),
        Some(first.written_at()),
        verdict,
    )
}

/// What a kind of matrix the words name means, as an assumption the verdict lists.
fn class_tex(key: &str, class: crate::sema::MatrixClass) -> String {
    use crate::sema::MatrixClass;
    let key = bold_letter(key);
    match class {
        MatrixClass::Symmetric => format!("{key} = {key}^\\top"),
        MatrixClass::Diagonal => format!("({key})_{{ij}} = 0 \\ (i \\ne j)"),
        MatrixClass::Orthogonal | MatrixClass::OrthogonalReflecting => {
            format!("{key}^\\top {key} = \\mathbf{{I}}")
        }
    }
}

/// A refutation stands only if every plausible reading of the claim refutes it:
/// - the words make it a condition, or a new meaning of a letter (the claim's alternative);
/// - a letter an earlier section defined may be a fresh one here (unless the spec pins the
///   section): checked again with those letters fresh;
/// - it may fail only where a variable is negative or zero: checked again with every variable
///   positive.
///
/// Otherwise the claim is undecided, naming the reading (a counterexample is kept).
fn other_readings(scope: &Scope, claim: &Claim, verdict: Verdict) -> Verdict {
    let undecided = |reason: Reason, verdict: Verdict| Verdict { status: Status::Undecided, reason, ..verdict };
    // An equation the words say is to be solved (`solve Av = λv`) claims nothing whatever kept it
    // from a verdict: it is a condition, not an unread claim.
    let condition = claim.reading.alternative.as_ref().filter(|o| o.reading == crate::model::Reading::Condition);
    if let (Some(other), Status::Undecided, true) = (condition, verdict.status, claim.holds) {
        let reason = Reason::OtherReading { reading: other.reading, symbol: None, earlier: None, refuted: false };
        return undecided(reason, verdict);
    }
    if verdict.status != Status::Refuted || !claim.holds {
        return verdict;
    }
    // `2 \cdot 10^9 \cdot 16 \cdot 32 = 10^{12}`: an order of magnitude written with `=`.
    if let Some((power, sides)) = (!claim.reading.marked).then(|| order_of_magnitude(claim, &verdict)).flatten() {
        let reason = Reason::OtherReading {
            reading: crate::model::Reading::OrderOfMagnitude,
            symbol: Some(power),
            earlier: Some(sides),
            refuted: true,
        };
        return Verdict { status: Status::Undecided, reason, ..verdict };
    }
    // `\frac12(0.01-0.75136507)^2 = 0.274811083` (0.2748110835…): digits cut, not rounded.
    if let Some(truncated) = truncated_digits(claim, &verdict) {
        let mut assuming = verdict.assuming.clone();
        assuming.push(truncated);
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
    let unspecified = || scope.unknown_functions.iter().find(|f| mentions(claim, f)).cloned();
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
    // A refutation that another reading of the text would not give.
    let other_reading = |reading, symbol, earlier| Reason::OtherReading { reading, symbol, earlier, refuted: true };
    // `Ax = b` in an exercise, then `x = [m; n]` further on: a letter general here has any
    // shape that fits, so shapes that do not fit say only that the later meaning is not this one.
    if by_shape {
        if let Some(first) = later_definitions(scope, claim, false).first() {
            let reason =
                other_reading(crate::model::Reading::DefinedLater, Some(first.key.clone()), Some(first.written_at()));
            return undecided(reason, verdict);
        }
    }
    if let (true, Some(symbol)) = (
        by_shape,
        read_off.clone().or(default_scalar).or_else(listed).or_else(unspecified).or_else(named_point).or_else(acronym),
    ) {
        return undecided(other_reading(crate::model::Reading::ShapeFromUse, Some(symbol), None), verdict);
    }
    // `x + y = [x_1; \ldots; x_n] + [y_1; \ldots; y_n]`: a letter the claim writes bare and with
    // entries, which nothing declares, is a vector that was read as a number by default.
    if let Some(symbol) = (!scope.pinned && !claim.reading.marked).then(|| bare_with_entries(scope, claim)).flatten() {
        return undecided(other_reading(crate::model::Reading::ShapeFromUse, Some(symbol), None), verdict);
    }
    // `\|\mathbf X\|_F = \sqrt{\sum_{i=1}^m\sum_{j=1}^n x_{ij}^2}` with X's sizes read off use
    // (p×q): false only where the sizes derivcheck named differ from the notes' m, n.
    if let Some(symbol) = read_off.filter(|_| !scope.pinned && !refuted_with_sizes_equal(scope, claim)) {
        return undecided(other_reading(crate::model::Reading::ShapeFromUse, Some(symbol), None), verdict);
    }
    if let Some(other) = &claim.reading.alternative {
        return undecided(other_reading(other.reading, other.symbol.clone(), other.earlier.clone()), verdict);
    }
    // `假设随机矩阵$A$ … $A^T\mathbf 1 = \mathbf 1$`: a kind of matrix the words name and
    // derivcheck does not construct.
    if let Some((letter, kind)) =
        claim.reading.kinds.iter().find(|(letter, _)| !claim.reading.marked && mentions(claim, letter))
    {
        return undecided(
            other_reading(crate::model::Reading::MatrixKind, Some(letter.clone()), Some(kind.clone())),
            verdict,
        );
    }
    let base = claim_scope(scope, claim).unwrap_or_else(|| scope.clone());
    // Each reading below that checks the claim again: in a scope that reads it so; not refuted
    // there, the refutation does not stand.
    let not_refuted_in = |other: &Scope| guarded(|| check_claim(other, claim, None, None)).status != Status::Refuted;
    // `\frac{\partial L(w)}{\partial w^{(k)}}` where L reaches w but never w^{(k)}: the derivative
    // is 0 only if w^{(k)} is a letter of its own; it reads as the k-th entry of w.
    if let Some((entry, whole)) = (!claim.reading.marked).then(|| derivative_by_an_entry(&base, claim)).flatten() {
        return undecided(other_reading(crate::model::Reading::EntryOf, Some(entry), Some(whole)), verdict);
    }
    // `I^{n}S^{n}` beside `S^{(i)}` in the same formula: a power, or the n-th member written
    // without its parentheses?
    if let Some(letter) = (!claim.reading.marked).then(|| power_or_index(claim)).flatten() {
        return undecided(other_reading(crate::model::Reading::PowerOrIndex, Some(letter), None), verdict);
    }
    // `q(z)` read as q times the parenthesis, q given no meaning anywhere (written bare, or as an
    // argument, `L(q, \theta)`): refuted only if it fails with q a function nobody specified too,
    // and not as a property of that function.
    // (`P(A \mid B)` of a claim about probabilities is read by the probability check.)
    let by_distributions = verdict.method == Some(Method::Distributions);
    if let Some(letter) =
        (!base.pinned && !claim.reading.marked && !by_distributions).then(|| applied_letters(&base, claim)).flatten()
    {
        let mut applied = base.clone();
        applied.unknown_functions.insert(letter.clone());
        // (False for a general function too, it states a property of the function meant.)
        let property = unknown_function_property(&applied, claim).is_some();
        if property || not_refuted_in(&applied) {
            return undecided(other_reading(crate::model::Reading::ApplicationOrProduct, Some(letter), None), verdict);
        }
    }
    // `Dx^n = nx^{n-1}`: a D the notes never define, standing before what it acts on, is the
    // derivative operator as often as a number.
    if let Some(letter) = (!base.pinned && !claim.reading.marked).then(|| operator_letter(&base, claim)).flatten() {
        return undecided(other_reading(crate::model::Reading::OperatorOrProduct, Some(letter), None), verdict);
    }
    // A function nobody specified is known only through the rules of calculus: a claim about
    // its values alone states a property of the function the text means.
    // (Not `H(X)`, `I(X, Y)` the probability check read as entropy and mutual information.)
    if let Some(f) = unknown_function_property(scope, claim).filter(|_| !claim.reading.marked && !by_distributions) {
        return undecided(other_reading(crate::model::Reading::FunctionProperty, Some(f), None), verdict);
    }
    // Conditions the text states just before it: a claim that follows from them is right.
    // The nearest first, then with each earlier one added (one that cannot be used, not
    // linear in any variable, spoils only the tries that include it).
    let stated = &claim.reading.stated;
    for from in (0..stated.len()).rev().filter(|_| !claim.reading.marked) {
        let mut under = base.clone();
        under.assumptions.extend(stated[from..].iter().cloned());
        let again = guarded(|| check_claim(&under, claim, None, None));
        if again.status == Status::Verified {
            let mut assuming = verdict.assuming.clone();
            assuming.extend(stated[from..].iter().map(|a| a.tex.clone()));
            return Verdict { assuming, elapsed_ms: verdict.elapsed_ms, ..again };
        }
    }
    // A condition the section stated further back (`令样本被中心化，即 …` three paragraphs
    // before): a claim it makes true is not refuted, and not verified either.
    for condition in claim.reading.stated_earlier.iter().rev().filter(|_| !claim.reading.marked) {
        let mut under = base.clone();
        under.assumptions.push(condition.clone());
        if guarded(|| check_claim(&under, claim, None, None)).status == Status::Verified {
            let reason = other_reading(
                crate::model::Reading::EarlierCondition,
                Some(condition.tex.clone()),
                Some(condition.origin.clone()),
            );
            return undecided(reason, verdict);
        }
    }
    // (A probability claim's small letters are the values of its variables: `H(Y \mid X) = -\sum_x
    // \sum_y p(x, y) \log p(y \mid x)` shares X and Y with its right side through them.)
    if let Some(reason) =
        (!base.pinned && !claim.reading.marked && !by_distributions).then(|| reading_of_letters(&base, claim)).flatten()
    {
        return undecided(reason, verdict);
    }
    // `-\sum_j y_j \log\frac{\exp(o_j)}{\sum_k \exp(o_k)} = \log\sum_k\exp(o_k) - \sum_j y_j o_j`:
    // true where the entries of y sum to 1 (a one-hot label), which the words often say in
    // another section.
    if !base.pinned && !claim.reading.marked && base.assumptions.is_empty() {
        for (letter, assumption) in sums_to_one(&base, claim) {
            let mut under = base.clone();
            under.assumptions.push(assumption);
            if guarded(|| check_claim(&under, claim, None, None)).status == Status::Verified {
                return undecided(other_reading(crate::model::Reading::SumsToOne, Some(letter), None), verdict);
            }
        }
    }
    // `\|u\| = \sqrt{u_1^2+u_2^2}` with u's size read off use: the entries the claim writes (u_1,
    // u_2, and no `\cdots`) say how many u has; right at that size, it is verified there, saying so.
    if let Some((sized, resized)) = (!claim.reading.marked).then(|| at_written_entries(&base, claim)).flatten() {
        let assuming = verdict
            .assuming
            .iter()
            .map(|a| resized.iter().find(|(from, _)| from == a).map_or_else(|| a.clone(), |(_, to)| to.clone()))
            .collect();
        return Verdict { elapsed_ms: verdict.elapsed_ms, assuming, ..sized };
    }
    // A square matrix whose shape was read off use may be of a kind the words name (symmetric,
    // diagonal): refuted only if it fails for those too.
    let square: Vec<String> = shapes_from_use(&base, claim)
        .into_iter()
        .filter(|s| !s.identity && s.rows != "1" && s.cols != "1")
        .map(|s| s.key.clone())
        .collect();
    if let (false, Some(first)) = (claim.reading.marked, square.first()) {
        use crate::sema::scope::MatrixClass;
        for (class, reading) in [
            (MatrixClass::Symmetric, crate::model::Reading::Symmetric),
            (MatrixClass::Diagonal, crate::model::Reading::Diagonal),
            (MatrixClass::Orthogonal, crate::model::Reading::Orthogonal),
        ] {
            let mut special = base.clone();
            make_square(&mut special, &square);
            special.classes.extend(square.iter().map(|k| (k.clone(), class)));
            if not_refuted_in(&special) {
                return undecided(other_reading(reading, Some(first.clone()), None), verdict);
            }
        }
    }
    // The spec pins what letters mean for the section; an author's `claim` mark, for the claim.
    if !base.pinned && !claim.reading.marked {
        let used = crate::eval::dependencies(&base, claim);
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
            if not_refuted_in(&with_letters_general(&base, &inherited)) {
                let earlier = Some(first.written_at());
                let reason = other_reading(crate::model::Reading::EarlierMeaning, Some(first.key.clone()), earlier);
                return undecided(reason, verdict);
            }
        }
        // `\frac{df}{dx}(x) = \frac{dg}{dx}(x) + \frac{dh}{dx}(x)` beside functions g and h nobody
        // specified, after `$f(x) = \log(1+(x-1)^{10})$` paragraphs before: a rule stated for
        // functions in general, where f is one of them as often as the f defined before. (An f
        // defined through them, `f(x) = g(x)h(x)`, is the one meant.)
        let unspecified: Vec<&String> = base.unknown_functions.iter().filter(|f| mentions(claim, f)).collect();
        let concrete = |d: &Definition| !unspecified.iter().any(|f| expr_mentions(&d.body, f));
        let mut functions: Vec<&Definition> = base
            .defs
            .values()
            .filter(|d| d.function && mentions(claim, &d.key) && used.contains(&d.key) && concrete(d))
            .collect();
        functions.sort_by(|a, b| a.key.cmp(&b.key));
        if let (false, Some(first)) = (unspecified.is_empty(), functions.first()) {
            let general = with_letters_general(&base, &functions);
            // (With f general the claim may state a property of it: not refuted either.)
            if unknown_function_property(&general, claim).is_some() || not_refuted_in(&general) {
                let earlier = Some(first.written_at());
                let reason = other_reading(crate::model::Reading::EarlierMeaning, Some(first.key.clone()), earlier);
                return undecided(reason, verdict);
            }
        }
        // A meaning the section gives a letter further on: refuted only if the claim fails with
        // the letter general.
        let mut later = later_definitions(&base, claim, false);
        // (The step of an expansion in several variables is read general already.)
        let steps: Vec<String> = [&claim.lhs, &claim.rhs]
            .iter()
            .filter_map(|side| crate::syntax::pattern::ray_series(side)?.step.symbol_key())
            .collect();
        later.retain(|d| !steps.contains(&d.key));
        if let Some(first) = later.first() {
            if not_refuted_in(&with_letters_general(&base, &later)) {
                let at = Some(first.written_at());
                let reason = other_reading(crate::model::Reading::DefinedLater, Some(first.key.clone()), at);
                return undecided(reason, verdict);
            }
        }
        // A shape an earlier section declared (`\mathbf A\in\mathbb R^{n\times k}` for a product,
        // then an exercise's `two matrices $A$ and $B$`): refuted only if the claim fails without it.
        let elsewhere: Vec<&String> = base.declared_elsewhere.iter().filter(|k| used.contains(*k)).collect();
        if let Some(first) = elsewhere.first() {
            let mut fresh = base.clone();
            for key in &elsewhere {
                fresh.decls.remove(*key);
            }
            if not_refuted_in(&fresh) {
                let reason = other_reading(crate::model::Reading::DeclaredElsewhere, Some((*first).clone()), None);
                return undecided(reason, verdict);
            }
        }
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
    if below_zero && !base.all_positive {
        let positive = Scope { all_positive: true, ..base };
        let verdict = guarded(|| check_claim(&positive, claim, None, None));
        if verdict.status == Status::Verified {
            return undecided(Reason::HoldsForPositive { symbols }, verdict);
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
        return undecided(Reason::DiffersWhereNotReal { symbols }, verdict);
    }
    verdict
}

/// The first letter (sorted) that `claim` writes both bare and as the base of a subscript, which
/// the scope neither declares nor defines (`y` beside `y_1, \ldots, y_n`).
fn bare_with_entries(scope: &Scope, claim: &Claim) -> Option<String> {
    fn walk(e: &Expr, bare: &mut BTreeSet<String>, based: &mut BTreeSet<String>) {
        match &e.kind {
            ExprKind::Symbol(s) => {
                bare.insert(s.key());
            }
            ExprKind::Subscript { base, index } => match &base.kind {
                // (An entry's index is a number or small letters: `\mu_X`, `\sigma_Y` name the
                // moment of a variable, `h_{\text{inv}}` a label.)
                ExprKind::Symbol(s) if entry_index(index) => {
                    based.insert(s.key());
                }
                ExprKind::Symbol(_) => {}
                _ => walk(base, bare, based),
            },
            _ => e.children().for_each(|c| walk(c, bare, based)),
        }
    }
    let (mut bare, mut based) = (BTreeSet::new(), BTreeSet::new());
    walk(&claim.lhs, &mut bare, &mut based);
    walk(&claim.rhs, &mut bare, &mut based);
    bare.intersection(&based)
        .find(|k| {
            !scope.decls.contains_key(*k) && !scope.defs.contains_key(*k) && !scope.unknown_functions.contains(*k)
        })
        .cloned()
}

/// An index that names an entry: numbers and small Latin letters (`1`, `i`, `ij`, `i,j`, `t-1`).
fn entry_index(index: &Expr) -> bool {
    let tex = crate::syntax::print::explicit_tex(index, &|_| false).replace("\\cdot", "");
    tex.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || " ,+-{}".contains(c))
}

/// A claim refuted at no point (numbers only) whose one side is a printed decimal that the other
/// side's value, cut after as many digits, writes exactly (`0.274811083` of 0.27481108350…): the
/// printed digits truncate it. The reading, as the verdict lists it; `None` otherwise (a digit
/// rounded the wrong way, or any other difference, stays refuted).
fn truncated_digits(claim: &Claim, verdict: &Verdict) -> Option<String> {
    let mismatch = verdict.counterexample.as_ref()?.mismatch.as_ref()?;
    if !mismatch.point.is_empty() || mismatch.entry.is_some() || verdict.method != Some(Method::Rounded) {
        return None;
    }
    let decimals = |e: &Expr| match &e.kind {
        ExprKind::Number { value } => value.split_once('.').map(|(_, frac)| (value.clone(), frac.len() as i32)),
        _ => None,
    };
    let ((written, digits), computed) = match (decimals(&claim.rhs), decimals(&claim.lhs)) {
        (Some(printed), _) => (printed, mismatch.lhs),
        (None, Some(printed)) => (printed, mismatch.rhs),
        (None, None) => return None,
    };
    let printed: f64 = written.parse().ok()?;
    let scale = 10f64.powi(digits);
    // (Cut toward zero, in units of the last printed digit; the units compared as integers.)
    let cut = (computed * scale * (1.0 + 1e-15 * computed.signum())).trunc();
    let agrees = digits <= 15 && computed.signum() == printed.signum() && cut == (printed * scale).round();
    agrees.then(|| format!("{written} = {computed} truncated to {digits} decimals"))
}

/// `\sum_{j=1}^q y_j = 1` for each letter the claim sums over an index with a size
/// (`\sum_{j=1}^q y_j \log \hat y_j`), in the claim or in a definition it uses: the entries
/// summing to 1, as an assumption to check again under, with the letter's name.
fn sums_to_one(scope: &Scope, claim: &Claim) -> Vec<(String, crate::sema::Assumption)> {
    fn walk(e: &Expr, out: &mut Vec<(String, String)>) {
        if let ExprKind::BigOp {
            op: crate::syntax::ast::BigOpKind::Sum,
            lower: Some(lower),
            upper: Some(upper),
            body: Some(body),
        } = &e.kind
        {
            if let ExprKind::Relation { chain } = &lower.kind {
                let (index, start) = match (chain.first.as_ref(), chain.links.as_slice()) {
                    (Some(index), [link]) if link.op == crate::syntax::ast::RelOp::Eq => (index, &link.rhs),
                    _ => return e.children().for_each(|c| walk(c, out)),
                };
                let from_one = matches!(&start.kind, ExprKind::Number { value } if value == "1");
                if let (Some(index), true) = (index.symbol_key(), from_one) {
                    let mut members = Vec::new();
                    entries_indexed_by(body, &index, &mut members);
                    for member in members {
                        let upper = crate::syntax::print::explicit_tex(upper, &|_| false);
                        let tex = format!("\\sum_{{{index}=1}}^{{{upper}}} {member}_{{{index}}} = 1");
                        if !out.iter().any(|(_, t)| *t == tex) {
                            out.push((member, tex));
                        }
                    }
                }
            }
        }
        e.children().for_each(|c| walk(c, out));
    }
    fn entries_indexed_by(e: &Expr, index: &str, out: &mut Vec<String>) {
        if let ExprKind::Subscript { base, index: i } = &e.kind {
            if i.symbol_key().as_deref() == Some(index) {
                if let Some(key) = base.symbol_key().filter(|k| !out.contains(k)) {
                    out.push(key);
                }
            }
        }
        e.children().for_each(|c| entries_indexed_by(c, index, out));
    }
    let mut found = Vec::new();
    walk(&claim.lhs, &mut found);
    walk(&claim.rhs, &mut found);
    // (`\partial_{o_j} l(\mathbf y, \hat{\mathbf y})`: the sum is in the definition of l.)
    for definition in scope.defs.values().filter(|d| mentions(claim, &d.key)) {
        walk(&definition.body, &mut found);
    }
    found
        .into_iter()
        .filter_map(|(letter, tex)| {
            let statement = crate::syntax::parse_formula(&tex).ok()?;
            let [crate::syntax::ast::Chain { first: Some(lhs), links, .. }] = statement.chains.as_slice() else {
                return None;
            };
            let [link] = links.as_slice() else { return None };
            let assumption = crate::sema::Assumption {
                tex: tex.clone(),
                lhs: lhs.clone(),
                rhs: link.rhs.clone(),
                origin: String::new(),
            };
            Some((letter, assumption))
        })
        .collect()
}

/// The claim checked again with each vector whose size was read off use (never declared) given
/// as many entries as the claim writes of it by number (`u_1`, `u_2`: two), where the claim writes
/// no `\cdots` and every entry it writes of that vector has a number: `Some` only if it holds
/// there, with each shape read off use it changed, as the verdict lists it, and as it now is
/// (`\mathbf{u}\in\mathbb{R}^{q}` becomes `\mathbf{u}\in\mathbb{R}^{2}`).
fn at_written_entries(scope: &Scope, claim: &Claim) -> Option<(Verdict, Vec<(String, String)>)> {
    fn walk(e: &Expr, f: &mut impl FnMut(&Expr)) {
        f(e);
        e.children().for_each(|c| walk(c, f));
    }
    let mut ellipsis = false;
    let mut written: BTreeMap<String, Option<i64>> = BTreeMap::new();
    for side in [&claim.lhs, &claim.rhs] {
        walk(side, &mut |e| match &e.kind {
            ExprKind::Ellipsis => ellipsis = true,
            ExprKind::Subscript { base, index } => {
                if let Some(key) = base.symbol_key() {
                    let number = match &index.kind {
                        ExprKind::Number { value } => value.parse::<i64>().ok(),
                        _ => None,
                    };
                    let entry = written.entry(key).or_insert(Some(0));
                    *entry = match (*entry, number) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
            }
            _ => {}
        });
    }
    if ellipsis {
        return None;
    }
    let mut sized = scope.clone();
    let mut resized = Vec::new();
    for shape in shapes_from_use(scope, claim) {
        let Some(Some(count)) = written.get(&shape.key).copied() else { continue };
        let size_free = shape.cols == "1" && shape.rows.parse::<i64>().is_err();
        if !size_free || count < 1 || !mentions(claim, &shape.key) {
            continue;
        }
        sized.sizes.insert(shape.rows.clone(), vec![count]);
        resized.push((shape_tex(shape), format!("{}\\in\\mathbb{{R}}^{{{count}}}", bold_letter(&shape.key))));
    }
    if resized.is_empty() {
        return None;
    }
    let again = guarded(|| check_claim(&sized, claim, None, None));
    (again.status == Status::Verified).then_some((again, resized))
}

/// A derivative in the claim by a letter (`w^{(k)}`, `w_k`) its function does not reach, while
/// it reaches the letter's base (`w`): the letter and its base, where the claim has one.
fn derivative_by_an_entry(scope: &Scope, claim: &Claim) -> Option<(String, String)> {
    first_in_sides(claim, &|e| {
        let ExprKind::Derivative { of, wrt, .. } = &e.kind else { return None };
        let var = wrt.symbol_key()?;
        let whole = match &wrt.kind {
            ExprKind::Subscript { base, .. } => base.symbol_key(),
            _ => var.split(['^', '_']).next().filter(|b| !b.is_empty() && *b != var).map(str::to_string),
        };
        let reached = letters_reached(scope, of);
        whole.filter(|w| !reached.contains(&var) && reached.contains(w)).map(|whole| (var, whole))
    })
}

/// A letter the claim raises to a power (`S^{n}`) that its formula also writes with a
/// parenthesized superscript, the mark of a member of a sequence (`S^{(i)}`).
fn power_or_index(claim: &Claim) -> Option<String> {
    let Ok(statement) = crate::syntax::parse_formula(&claim.tex) else { return None };
    let mut members = BTreeSet::new();
    fn collect(e: &Expr, out: &mut BTreeSet<String>) {
        if let Some((base, _)) = e.symbol_key().as_deref().and_then(|k| k.split_once("^{(")) {
            out.insert(base.to_string());
        }
        e.children().for_each(|c| collect(c, out));
    }
    statement.chains.iter().flat_map(|c| c.exprs()).for_each(|e| collect(e, &mut members));
    first_in_sides(claim, &|e| {
        let ExprKind::Power { base, .. } = &e.kind else { return None };
        base.symbol_key().filter(|k| matches!(base.kind, ExprKind::Symbol(_)) && members.contains(k))
    })
}

/// A letter the claim writes right before a parenthesis (`q(z)`) that nothing defines or
/// declares: read as a product of letter and parenthesis, which is a guess.
fn applied_letters(scope: &Scope, claim: &Claim) -> Option<String> {
    first_in_sides(claim, &|e| {
        let ExprKind::Call { func, args, .. } = &e.kind else { return None };
        let key = func.symbol_key().filter(|_| matches!(func.kind, ExprKind::Symbol(_)) && args.len() == 1)?;
        let nothing = !scope.defs.contains_key(&key)
            && !scope.decls.contains_key(&key)
            && !scope.unknown_functions.contains(&key)
            && !scope.parameters.contains(&key);
        nothing.then_some(key)
    })
}

/// The first `D` (or `D_x`) the notes never define that stands first in a product (`Dx^n`,
/// `D\ln(x)`, `D_x f(x)`).
fn operator_letter(scope: &Scope, claim: &Claim) -> Option<String> {
    first_in_sides(claim, &|e| {
        let ExprKind::Binary { op: BinOp::Implicit, lhs, .. } = &e.kind else { return None };
        let head = match &lhs.kind {
            ExprKind::Subscript { base, .. } => base.as_ref(),
            _ => lhs.as_ref(),
        };
        let ExprKind::Symbol(s) = &head.kind else { return None };
        let key = lhs.symbol_key()?;
        let undefined = |k: &str| !scope.defs.contains_key(k) && !scope.decls.contains_key(k);
        (s.name == "D" && s.accents.is_empty() && undefined(&key) && undefined(&s.key())).then_some(key)
    })
}

/// The first node of the claim's sides, the left before the right, each in pre-order (a node
/// before its children), that `found` gives a value.
fn first_in_sides<T>(claim: &Claim, found: &dyn Fn(&Expr) -> Option<T>) -> Option<T> {
    fn first<T>(e: &Expr, found: &dyn Fn(&Expr) -> Option<T>) -> Option<T> {
        found(e).or_else(|| e.children().find_map(|c| first(c, found)))
    }
    first(&claim.lhs, found).or_else(|| first(&claim.rhs, found))
}

/// The shapes read off use that the claim reaches (its letters, and those of the definitions it
/// uses).
fn shapes_from_use<'s>(scope: &'s Scope, claim: &Claim) -> Vec<&'s crate::sema::shapes::InferredShape> {
    if scope.inferred.is_empty() {
        return Vec::new();
    }
    let used = crate::eval::dependencies(scope, claim);
    scope.inferred.iter().filter(|s| used.contains(&s.key)).collect()
}

/// A vector or matrix letter as the notes write it: `\mathbf{U}`, `\boldsymbol{\delta}`.
fn bold_letter(key: &str) -> String {
    if key.len() == 1 && key.chars().all(|c| c.is_ascii_alphabetic()) {
        format!("\\mathbf{{{key}}}")
    } else if key.starts_with('\\') && key[1..].chars().all(|c| c.is_ascii_alphabetic()) {
        format!("\\boldsymbol{{{key}}}")
    } else {
        key.to_string()
    }
}

/// `\mathbf{U}\in\mathbb{R}^{m\times m}`, `\mathbf{x}\in\mathbb{R}^{m}`: a shape read off use, as
/// the verdict lists it among what the claim was checked under.
fn shape_tex(shape: &crate::sema::shapes::InferredShape) -> String {
    let letter = bold_letter(&shape.key);
    if shape.identity {
        return format!("{letter}=I_{{{}}}", shape.rows);
    }
    match (shape.rows.as_str(), shape.cols.as_str()) {
        (rows, "1") => format!("{letter}\\in\\mathbb{{R}}^{{{rows}}}"),
        (rows, cols) => format!("{letter}\\in\\mathbb{{R}}^{{{rows}\\times {cols}}}"),
    }
}

/// The unknown function a claim applies when it takes no derivative anywhere (see
/// [`Scope::unknown_functions`]).
fn unknown_function_property(scope: &Scope, claim: &Claim) -> Option<String> {
    // A derivative of something built from functions (`(fg)'`, `\frac{d}{dx}F(u(x))`), or of
    // a function the notes define: a rule of calculus decides it. Derivatives of an unknown
    // function alone (`F'(x)`, `\frac{dF}{dx}(x)`, `\frac{d}{dx}F(x)`) only name its values:
    // `F'(x) = F(x)` is a property of F.
    fn bare(e: &Expr, scope: &Scope) -> bool {
        match &e.kind {
            ExprKind::Symbol(_) => {
                e.symbol_key().is_some_and(|k| scope.unknown_functions.contains(&k) && !scope.defs.contains_key(&k))
            }
            ExprKind::Prime { operand } => bare(operand, scope),
            ExprKind::Call { func, args, .. } => {
                bare(func, scope) && args.iter().all(|a| matches!(a.kind, ExprKind::Symbol(_)))
            }
            _ => false,
        }
    }
    fn derivative(e: &Expr, scope: &Scope) -> bool {
        let compound = match &e.kind {
            ExprKind::Derivative { of, .. } => !bare(of, scope),
            ExprKind::Prime { operand } => !bare(operand, scope),
            ExprKind::Partial { .. } | ExprKind::Differential { .. } => true,
            _ => false,
        };
        compound || e.children().any(|c| derivative(c, scope))
    }
    fn applied(e: &Expr, scope: &Scope) -> Option<String> {
        if let ExprKind::Call { func, .. } = &e.kind {
            if let Some(k) = func.symbol_key().filter(|k| scope.unknown_functions.contains(k)) {
                return Some(k);
            }
        }
        e.children().find_map(|c| applied(c, scope))
    }
    // Each side applies a function the other does not (`\int_a^b f(x)\,dx = F(b)-F(a)`,
    // `\nabla_\theta L(\theta) = \delta\nabla_\theta Q(s, a)`): no rule of calculus relates two
    // functions nobody specified, so the claim says how they are related (F an antiderivative
    // of f). A side that only drops one (`(fg)' = f'g`) is still refuted.
    let unknown = |side: &Expr| -> std::collections::BTreeSet<String> {
        let reached = crate::eval::reached(scope, vec![side]);
        scope.unknown_functions.iter().filter(|f| reached.contains(*f)).cloned().collect()
    };
    let (left, right) = (unknown(&claim.lhs), unknown(&claim.rhs));
    if let (Some(own), Some(_)) = (left.difference(&right).next(), right.difference(&left).next()) {
        return Some(own.clone());
    }
    let own = claim_scope(scope, claim);
    let with_bindings = own.as_ref().unwrap_or(scope);
    if derivative(&claim.lhs, with_bindings) || derivative(&claim.rhs, with_bindings) {
        return None;
    }
    // A power series of an unknown function (`f(x+\epsilon) = f(x) + \epsilon f'(x) + \cdots`):
    // Taylor's theorem decides it for every smooth function.
    let series = crate::syntax::pattern::truncated_series;
    let ray = crate::syntax::pattern::ray_series;
    if [&claim.lhs, &claim.rhs].iter().any(|side| series(side).is_some() || ray(side).is_some()) {
        return None;
    }
    // (The same, written with `\approx` where the words call the letter small.)
    if claim.approx && claim.reading.small.is_some() {
        return None;
    }
    // Applied in the claim, or in a definition it uses (`I(X,Y)=H(X)-H(X\mid Y)`).
    applied(&claim.lhs, scope).or_else(|| applied(&claim.rhs, scope)).or_else(|| {
        let reached = crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]);
        scope.unknown_functions.iter().find(|f| reached.contains(*f)).cloned()
    })
}

/// Readings of a refuted claim's letters that the formula alone cannot settle:
/// - a side writes a letter the other does not (`\det\mathbf A=\lambda_1\cdots\lambda_n`,
///   `\cos\theta=\frac{\mathbf v\cdot\mathbf w}{…}`, `\frac{\alpha_i}{\sum_j\alpha_j+m}` after
///   `\sum_j y_j`): an identity could not depend on it, so the words must say what it is
///   (eigenvalues, an angle, a count);
/// - `a_{ij}` beside a matrix `\mathbf A` the claim uses: A's entries by a common convention, or a
///   letter of its own.
fn reading_of_letters(scope: &Scope, claim: &Claim) -> Option<Reason> {
    let (left, right) = (letters_reached(scope, &claim.lhs), letters_reached(scope, &claim.rhs));
    // A family is shown as one of its members: `l_i`.
    let from_words = |letter: &String| Reason::OtherReading {
        reading: crate::model::Reading::LettersFromWords,
        symbol: Some(letter.replace("_•", "_i")),
        earlier: None,
        refuted: true,
    };
    if !left.is_empty() && !right.is_empty() && left.is_disjoint(&right) {
        let smaller = if left.len() <= right.len() { &left } else { &right };
        return smaller.iter().next().map(from_words);
    }
    // A later link of a chain rewrites the side before it; a number-like letter it brings in
    // (`= \frac{\alpha_i+y_i}{\sum_j\alpha_j+m}` for `\sum_j y_j`) stands for what the words say.
    if claim.reading.rewrites {
        let new = right.iter().find(|k| !left.contains(*k) && !scope.matrix_like.contains(*k) && !k.contains('\''));
        if let Some(letter) = new {
            return Some(from_words(letter));
        }
    }
    let all = crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]);
    let matrix = |k: &str| {
        matches!(scope.decls.get(k), Some(Decl::Matrix { .. } | Decl::Identity { .. })) || scope.matrix_like.contains(k)
    };
    for key in &all {
        let Some((letter, _)) = key.split_once('_') else { continue };
        let upper = letter.to_uppercase();
        let lowercase_letter = letter.chars().count() == 1 && letter.chars().all(char::is_lowercase);
        if lowercase_letter && upper != letter && all.contains(&upper) && matrix(&upper) && !scope.knows(letter) {
            return Some(Reason::OtherReading {
                reading: crate::model::Reading::EntryOf,
                symbol: Some(key.clone()),
                earlier: Some(upper),
                refuted: true,
            });
        }
    }
    None
}

/// The letters an expression depends on, through the definitions it uses: leaves, by family
/// (`x_i`, `x_1` and `x_n` are the letter x; `W_Q` is a name of its own). Sizes, indices,
/// functions and constants are not letters here.
fn letters_reached(scope: &Scope, e: &Expr) -> BTreeSet<String> {
    fn index_like(scope: &Scope, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Symbol(s) => {
                let key = s.key();
                scope.is_index(&key)
                    || scope.sizes.contains_key(&key)
                    || (key.chars().count() == 1 && key.chars().all(char::is_lowercase))
            }
            _ => e.children().all(|c| index_like(scope, c)),
        }
    }
    fn walk(scope: &Scope, e: &Expr, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>) {
        let letter = |key: String, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>| {
            if let Some(def) = scope.defs.get(&key) {
                if seen.insert(key) {
                    walk(scope, &def.body, seen, out);
                }
                return;
            }
            let other = scope.sizes.contains_key(&key)
                || matches!(scope.decls.get(&key), Some(Decl::Index { .. } | Decl::Function(_) | Decl::Set { .. }))
                || matches!(key.as_str(), "\\pi" | "e" | "\\mathrm{e}" | "\\mathbf{1}" | "1");
            if !other {
                out.insert(key);
            }
        };
        match &e.kind {
            ExprKind::Symbol(s) if !s.is_bold_one() => letter(s.key(), seen, out),
            ExprKind::Subscript { base, index } => match (base.symbol_key(), e.symbol_key()) {
                (Some(family), _)
                    if index_like(scope, index) && !scope.defs.contains_key(&e.symbol_key().unwrap_or_default()) =>
                {
                    // The entries of a vector are the vector; `l_i` of no vector l is a family
                    // of its own, not the letter l.
                    let vector = scope.defs.contains_key(&family)
                        || scope.matrix_like.contains(&family)
                        || matches!(scope.decls.get(&family), Some(Decl::Matrix { .. } | Decl::Family { .. }));
                    letter(if vector { family } else { format!("{family}_•") }, seen, out);
                    walk(scope, index, seen, out);
                }
                (_, Some(name)) => letter(name, seen, out),
                _ => e.children().for_each(|c| walk(scope, c, seen, out)),
            },
            ExprKind::Call { func, args, .. } => {
                if let Some(key) = func.symbol_key() {
                    letter(key, seen, out);
                }
                args.iter().for_each(|a| walk(scope, a, seen, out));
            }
            // `\sum_{i=0}^t \beta^i`: i is bound by the sum.
            ExprKind::BigOp { op, lower, body, .. } => {
                let mut inner = BTreeSet::new();
                e.children().for_each(|c| walk(scope, c, seen, &mut inner));
                for letter in crate::syntax::ast::bound_letters(op, lower.as_deref(), body.as_deref()) {
                    inner.remove(&letter);
                }
                out.extend(inner);
            }
            _ => e.children().for_each(|c| walk(scope, c, seen, out)),
        }
    }
    let (mut seen, mut out) = (BTreeSet::new(), BTreeSet::new());
    walk(scope, e, &mut seen, &mut out);
    out
}

/// Does the claim write the letter `key` itself (not only through a definition)?
fn mentions(claim: &Claim, key: &str) -> bool {
    expr_mentions(&claim.lhs, key) || expr_mentions(&claim.rhs, key)
}

/// A refuted claim between numbers alone, one side a power of ten `10^{k}` (|k| ≥ 3) and the
/// other within 10 % of it: the power and both values, as the reason shows them.
fn order_of_magnitude(claim: &Claim, verdict: &Verdict) -> Option<(String, String)> {
    fn power_of_ten(e: &Expr) -> Option<i64> {
        let ExprKind::Power { base, exponent } = &e.kind else { return None };
        let ten = matches!(&base.kind, ExprKind::Number { value } if value == "10");
        let k = match &exponent.kind {
            ExprKind::Number { value } => value.parse::<i64>().ok()?,
            ExprKind::Neg { operand } => -match &operand.kind {
                ExprKind::Number { value } => value.parse::<i64>().ok()?,
                _ => return None,
            },
            _ => return None,
        };
        (ten && k.abs() >= 3).then_some(k)
    }
    // Numbers multiplied, divided and raised to powers: a computation whose result the power
    // of ten rounds (a sum, `10^{30}+1`, is exact arithmetic).
    fn numbers_only(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times | BinOp::Div, lhs, rhs } => {
                numbers_only(lhs) && numbers_only(rhs)
            }
            ExprKind::Power { base, exponent } => numbers_only(base) && numbers_only(exponent),
            ExprKind::Frac { .. } | ExprKind::Fenced { .. } => e.children().all(numbers_only),
            _ => false,
        }
    }
    if !(numbers_only(&claim.lhs) && numbers_only(&claim.rhs)) || claim.approx {
        return None;
    }
    let power = power_of_ten(&claim.lhs).or_else(|| power_of_ten(&claim.rhs))?;
    let mismatch = verdict.counterexample.as_ref()?.mismatch.as_ref()?;
    let target = 10f64.powi(i32::try_from(power).ok()?);
    let other = if power_of_ten(&claim.lhs).is_some() { mismatch.rhs } else { mismatch.lhs };
    let within = ((other - target) / target).abs() < 0.1;
    within.then(|| (format!("10^{{{power}}}"), format!("{:e} against {:e}", mismatch.lhs, mismatch.rhs)))
}

/// Does `e` write the letter `key` anywhere (applied, `f(x)`, too)?
fn expr_mentions(e: &Expr, key: &str) -> bool {
    e.symbol_key().is_some_and(|k| k == key)
        || matches!(&e.kind, ExprKind::Call { func, .. } if func.symbol_key().is_some_and(|k| k == key))
        || e.children().any(|c| expr_mentions(c, key))
}

fn section_seed(number: &str) -> u64 {
    number.bytes().fold(7u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)))
}

/// Checks one claim at every size and index assignment; a verified claim is cross-checked in
/// floating point when `floats` is given.
pub fn check_claim(
    scope: &Scope,
    claim: &Claim,
    floats: Option<&Instance<numeric::Numeric>>,
    shared: Option<&SharedPoints>,
) -> Verdict {
    if claim.approx && printed_tolerance(&claim.lhs).or_else(|| printed_tolerance(&claim.rhs)).is_none() {
        return first_order_verdict(scope, claim)
            .unwrap_or_else(|| Verdict::undecided(Reason::ApproxWithoutDecimals, String::new()));
    }
    if let Some(verdict) = worked_out_verdict(scope, claim) {
        return verdict;
    }
    if let Some(verdict) = (!claim.approx).then(|| probability_verdict(scope, claim)).flatten() {
        return verdict;
    }
    if let Some(verdict) = (!claim.approx).then(|| series_verdict(scope, claim)).flatten() {
        return verdict;
    }
    // Only the sizes the claim can depend on are varied; should that leave it undecided (a size
    // reached in a way the scan does not follow), every combination is tried, when there are not
    // too many.
    let used = crate::eval::sizes_used(scope, claim);
    let restricted = scope.size_assignments_of(&|name| used.contains(name));
    let all = scope.size_combinations();
    if restricted.len() == all {
        return check_at(scope, claim, &scope.size_assignments(), floats, shared);
    }
    let verdict = check_at(scope, claim, &restricted, floats, shared);
    if verdict.status == Status::Undecided && !verdict.inconsistent && all <= crate::spec::MAX_SIZE_COMBINATIONS {
        return check_at(scope, claim, &scope.size_assignments(), floats, shared);
    }
    verdict
}

/// Checks one claim at the given size assignments: randomized exact testing first (fast, no
/// CAS; it also takes the cross-check sizes where it can); where it cannot prove the claim, the CAS
/// decides as before — within a short time when the randomized test already saw the sides
/// differ, after which a float counterexample refutes.
fn check_at(
    scope: &Scope,
    claim: &Claim,
    size_sets: &[BTreeMap<String, i64>],
    floats: Option<&Instance<numeric::Numeric>>,
    shared: Option<&SharedPoints>,
) -> Verdict {
    let deadline = within_run(Instant::now() + CLAIM_TIME);
    let free = free_indices(scope, claim);
    let sizes_text = describe_sizes(size_sets);
    if needs_quadrature(scope, claim) {
        return by_floats_alone(scope, claim, size_sets, &free, deadline);
    }
    match randomized_at(scope, claim, size_sets, &free, deadline, shared) {
        Randomized::Proven { error, assignments } => {
            let Some(floats) = floats else { return randomized_verdict(error, assignments, sizes_text) };
            // The cross-check sizes: proven there too (the verdict lists them), or — where the
            // randomized test cannot prove them — in floating point, which may find a
            // counterexample that only larger sizes show.
            let larger = vec![floats.sizes.clone()];
            if size_sets.contains(&larger[0]) {
                return randomized_verdict(error, assignments, sizes_text);
            }
            match randomized_at(scope, claim, &larger, &free, deadline, shared) {
                Randomized::Proven { error: more_error, assignments: more } => {
                    // Listed: the cross-check's values of the sizes the claim was varied over.
                    let varied = |m: &BTreeMap<String, i64>| -> BTreeMap<String, i64> {
                        let keep = |k: &String| size_sets.first().is_none_or(|s| s.contains_key(k));
                        m.iter().filter(|(k, _)| keep(k)).map(|(k, v)| (k.clone(), *v)).collect()
                    };
                    let all: Vec<_> = size_sets.iter().cloned().chain(larger.iter().map(varied)).collect();
                    randomized_verdict(error + more_error, assignments + more, describe_sizes(&all))
                }
                _ => with_numeric_crosscheck(
                    scope,
                    floats,
                    claim,
                    &free,
                    randomized_verdict(error, assignments, sizes_text),
                ),
            }
        }
        Randomized::Refutes { error, sizes, env } => refuted_by_shape(&error, claim, sizes_text, &sizes, env),
        Randomized::Differs { sizes, env } => {
            // A counterexample in floating point where the randomized test saw the sides differ
            // needs no normal form: it comes first. The exact stage then only tries to make it a
            // symbolic refutation (with the correct expression), at the smallest sizes, briefly.
            let budget = Budget { max_steps: 20 * MAX_STEPS, max_bytes: MAX_BYTES, deadline: within_run(deadline) };
            let seed = claim.id.bytes().fold(17u64, |h, b| h.wrapping_mul(31).wrapping_add(u64::from(b)));
            let floating = numeric::crosscheck::counterexample(scope, claim, &sizes, &env, seed, budget);
            let smallest: Vec<BTreeMap<String, i64>> = size_sets.iter().take(1).cloned().collect();
            let exact_sets = if floating.is_some() { &smallest[..] } else { size_sets };
            let brief = if floating.is_some() { EXACT_AFTER_FLOATS } else { EXACT_AFTER_DIFFERS };
            let exact = symbolic_at(Exact {
                scope,
                claim,
                size_sets: exact_sets,
                floats,
                deadline: deadline.min(Instant::now() + brief),
            });
            if exact.status == Status::Refuted
                || exact.inconsistent
                || (exact.status != Status::Undecided && floating.is_none())
            {
                return exact;
            }
            match floating {
                Some(mismatch) => {
                    let reason = refutation(&mismatch, &sizes, &env);
                    let counterexample = Counterexample { sizes, indices: env, mismatch: Some(mismatch) };
                    Verdict::refuted(Method::Numeric, sizes_text, reason, counterexample)
                }
                None => exact,
            }
        }
        Randomized::Inapplicable => symbolic_at(Exact { scope, claim, size_sets, floats, deadline }),
    }
}

/// A claim about probabilities and expectations (`P(A\mid B)`, `E[X]`), checked on random
/// joint distributions ([`numeric::probability`]); `None` where it is not one. A claim false for
/// a general distribution is refuted only if it is false for independent, identically
/// distributed and 0/1-valued variables too, and both sides speak of the distribution; else it
/// is undecided, naming the reading under which it holds.
fn probability_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::model::Reading;
    use numeric::probability::{self, Family, Outcome};
    // A letter a sum runs over (`\sum_A P(A, B)`) is an index to the section: for a random
    // variable, that is the sum over its values; a definition by a lone letter or number is an
    // event written in prose (`$A=a$`).
    let defined = |k: &str| {
        use crate::sema::scope::Decl;
        // `For any random variable $X$`: the words make X any random variable, whatever an
        // earlier formula made the letter.
        if claim.reading.random.iter().any(|r| r == k) {
            return probability::Meaning::None;
        }
        match (scope.decls.get(k), scope.defs.get(k)) {
            (Some(decl), _) if !matches!(decl, Decl::Index { .. }) => probability::Meaning::Formula,
            // `\hat\theta_n = \hat f(x_1, \ldots, x_n)` with f̂ nobody specifies: an estimator, an
            // unspecified function of the data, which is any quantity.
            (_, Some(d)) if unspecified_application(scope, &d.body) => probability::Meaning::None,
            (_, Some(d)) if !matches!(d.body.kind, ExprKind::Symbol(_) | ExprKind::Number { .. }) => {
                probability::Meaning::Formula
            }
            (None, None) => probability::Meaning::None,
            _ => probability::Meaning::Letter,
        }
    };
    let other = |reading: Reading, symbol: Option<String>, domains: String| {
        let reason = Reason::OtherReading { reading, symbol, earlier: None, refuted: true };
        Verdict::undecided(reason, domains)
    };
    let words = probability::Words {
        marked: claim.reading.marked,
        constants: &claim.reading.constants,
        information: claim.reading.information,
        laws: &claim.reading.laws,
    };
    let (lhs, rhs) = (moments_written_out(scope, claim, &claim.lhs), moments_written_out(scope, claim, &claim.rhs));
    let (lhs, rhs) = (variables_written_out(scope, claim, lhs), variables_written_out(scope, claim, rhs));
    // The first μ_X or σ_X nobody defined, where the claim holds with them the moments (asked
    // only of a refutation).
    let moment_letter = || {
        standard_moments(scope, claim)
            .filter(|(l, r, _)| matches!(probability::check(l, r, &defined, words), Outcome::Holds { .. }))
            .map(|(_, _, letter)| letter)
    };
    // `\mu_X = a`, `\sigma_X = 2\sqrt{2p}` where the words give X's distribution value by value
    // and nothing defines μ_X: the mean (standard deviation) of X, as every probability text
    // writes it; verified so where it holds, the reading listed.
    if !claim.reading.laws.is_empty() {
        // (A bare μ names no variable here: only `\mu_X` is verified so.)
        if let Some((l, r, letter)) = standard_moments(scope, claim).filter(|(_, _, letter)| letter.contains('_')) {
            if let Outcome::Holds { values, domains } = probability::check(&l, &r, &defined, words) {
                let verdict = Verdict::new(
                    Status::Verified,
                    Some(Method::Distributions),
                    domains,
                    Reason::Checked { assignments: values, rounded: false },
                );
                let variable = letter.split_once('_').map_or("", |(_, v)| v.trim_matches(['{', '}']));
                let moment = if letter.starts_with("\\mu") {
                    format!("E[{variable}]")
                } else {
                    format!("\\sqrt{{\\mathrm{{Var}}[{variable}]}}")
                };
                return Some(Verdict { assuming: vec![format!("{letter} = {moment}")], ..verdict });
            }
        }
    }
    match probability::check(&lhs, &rhs, &defined, words) {
        Outcome::NotProbability | Outcome::NotEvaluable => None,
        Outcome::Holds { values, domains, .. } => Some(Verdict::new(
            Status::Verified,
            Some(Method::Distributions),
            domains,
            Reason::Checked { assignments: values, rounded: false },
        )),
        Outcome::Fails { random_letter: Some(letter), domains, .. } => {
            Some(other(Reading::RandomOrConstant, Some(letter), domains))
        }
        // The words state the independence under which it holds: verified under it, said so.
        Outcome::Fails { holds_when: Some(family), holds_checked, variables, domains, .. }
            if stated_covers(claim.reading.independence, family) && variables.len() > 1 =>
        {
            let verdict = Verdict::new(
                Status::Verified,
                Some(Method::Distributions),
                domains,
                Reason::Checked { assignments: holds_checked, rounded: false },
            );
            Some(Verdict { assuming: vec![independence_tex(family, &variables)], ..verdict })
        }
        Outcome::Fails { holds_when: Some(family), variables, domains, .. } => {
            let reading = match family {
                Family::Independent => Reading::Independent,
                Family::IndependentIdentical => Reading::IndependentIdentical,
                Family::ZeroOne => Reading::ZeroOne,
                Family::Equal => Reading::EqualVariables,
            };
            Some(other(reading, Some(variables.join(", ")), domains))
        }
        // `E[(X-\mu_X)^2] = E[X^2]-\mu_X^2` where the notes never define μ_X: a constant to
        // derivcheck, the mean of X to every probability text. Refuted only if it fails read so too.
        Outcome::Fails { domains, .. } if moment_letter().is_some() => {
            Some(other(Reading::MomentLetter, moment_letter(), domains))
        }
        Outcome::Fails { specifies: true, domains, .. } => Some(other(Reading::DistributionValue, None, domains)),
        // `P(C_1|x) = \frac{P(C_1)P(x|C_1)}{P(C_1)P(x|C_1)+P(C_2)P(x|C_2)}`: C_1, C_2 are two
        // events as derivcheck reads them, and the classes C = 1, C = 2 of one variable to the
        // text (Bayes' rule over the classes). Refuted only if it fails read so too.
        Outcome::Fails { domains, .. }
            if class_values(claim).is_some_and(|(l, r, _)| {
                matches!(probability::check(&l, &r, &defined, words), Outcome::Holds { .. })
            }) =>
        {
            Some(other(Reading::ClassValues, class_values(claim).map(|(_, _, letters)| letters), domains))
        }
        Outcome::Fails { lhs, rhs, point, domains, .. } => {
            let mismatch = Mismatch::at_point(lhs, rhs, point, Method::Distributions);
            let reason = Reason::Differs { entry: None, lhs, rhs, at: Vec::new(), difference: None };
            let counterexample =
                Counterexample { sizes: BTreeMap::new(), indices: BTreeMap::new(), mismatch: Some(mismatch) };
            Some(Verdict::refuted(Method::Distributions, domains, reason, counterexample))
        }
    }
}

/// `Y = aX + b` given for the paragraph (or the section), then `\textrm{Cov}(X, Y)`: a random
/// variable the notes define by others, written out as its formula, `(aX + b)`, so that the claim
/// speaks of the variables it is made of. Only a capital letter defined by a formula (not a lone
/// letter) that uses another capital letter.
fn variables_written_out(scope: &Scope, claim: &Claim, mut e: Expr) -> Expr {
    fn uses_capital(e: &Expr, other_than: &str) -> bool {
        e.symbol_key().is_some_and(|k| capital(&k) && k != other_than && matches!(e.kind, ExprKind::Symbol(_)))
            || e.children().any(|c| uses_capital(c, other_than))
    }
    let defined: Vec<&crate::sema::Definition> = claim
        .reading
        .overrides
        .iter()
        .chain(scope.defs.values())
        // (`X = Y` is an event, or two names of one variable, as `if $X = Y$ …` reads: no formula.)
        .filter(|d| !matches!(d.body.kind, ExprKind::Symbol(_)))
        .filter(|d| !d.function && d.params.is_empty() && capital(&d.key) && uses_capital(&d.body, &d.key))
        .collect();
    fn walk(e: &mut Expr, defined: &[&crate::sema::Definition]) {
        if let ExprKind::Symbol(s) = &e.kind {
            if let Some(d) = defined.iter().find(|d| d.key == s.key() && s.label.is_none() && s.accents.is_empty()) {
                let inner = Some(Box::new(Expr::new(d.body.kind.clone(), e.span)));
                e.kind = ExprKind::Fenced { open: "(".into(), close: ")".into(), inner };
            }
            return;
        }
        e.children_mut().into_iter().for_each(|c| walk(c, defined));
    }
    if !defined.is_empty() {
        walk(&mut e, &defined);
    }
    e
}

/// `\mu_{aX+b}`, `\sigma_{X+Y}` written out where the notes define the family by a moment
/// (`\mu_X = E[X]`, `\sigma_X = \sqrt{\mathrm{Var}(X)}`): its subscript put for the letter.
fn moments_written_out(scope: &Scope, claim: &Claim, e: &Expr) -> Expr {
    // `\mu_X = E[X]` is a family over the random variable X: by its parameter, or (X not an
    // index of the section) by its key `\mu_X`.
    let family = |base: &str| -> Option<(&Expr, String)> {
        claim.reading.overrides.iter().chain(scope.defs.values()).find_map(|d| {
            let param = match d.params.as_slice() {
                [p] if d.key == base => p.clone(),
                [] => {
                    let letter = d.key.strip_prefix(base)?.strip_prefix('_')?;
                    let mut chars = letter.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_uppercase() => letter.to_string(),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            (!d.function && numeric::probability::is_moment(&d.body)).then_some((&d.body, param))
        })
    };
    // `\rho(X, Y) = \frac{\mathrm{Cov}(X, Y)}{\sigma_X \sigma_Y}`,
    // `\textrm{MSE}(\hat\theta_n, \theta) = E[(\hat\theta_n - \theta)^2]`: a function defined by
    // moments, written out at its arguments.
    let function =
        |key: &str, arity: usize| -> Option<&crate::sema::Definition> {
            claim.reading.overrides.iter().chain(scope.defs.values()).find(|d| {
                d.key == key && d.function && d.params.len() == arity && numeric::probability::is_moment(&d.body)
            })
        };
    crate::sema::recurrence::map(e, &mut |x| {
        if let Some((key, args)) = crate::syntax::ast::applied_function(x) {
            let definition = function(&key, args.len())?;
            let body = put_arguments(&definition.body, &definition.params, &args);
            return Some(Expr::parenthesized(moments_written_out(scope, claim, &body), x.span));
        }
        let ExprKind::Subscript { base, index } = &x.kind else { return None };
        if !names_a_variable(index) {
            return None;
        }
        let (body, param) = family(&base.symbol_key()?)?;
        let put = Expr::parenthesized((**index).clone(), index.span);
        let body = crate::sema::recurrence::map(body, &mut |y| {
            (matches!(y.kind, ExprKind::Symbol(_)) && y.symbol_key().as_deref() == Some(param.as_str()))
                .then(|| put.clone())
        });
        Some(Expr::parenthesized(body, x.span))
    })
}

/// `\hat f(x_1, \ldots, x_n)`: a function the notes never specify, applied.
fn unspecified_application(scope: &Scope, body: &Expr) -> bool {
    let ExprKind::Call { func, .. } = &body.kind else { return false };
    func.symbol_key().is_some_and(|k| !scope.defs.contains_key(&k) && !scope.decls.contains_key(&k))
}

/// A function's body with each parameter replaced by its argument (in parentheses), in
/// subscripts too (`\sigma_X` at `aX + b` is `\sigma_{(aX+b)}`).
fn put_arguments(body: &Expr, params: &[String], args: &[Expr]) -> Expr {
    crate::sema::recurrence::map(body, &mut |y| match &y.kind {
        ExprKind::Symbol(_) => {
            let key = y.symbol_key()?;
            let arg = &args[params.iter().position(|p| *p == key)?];
            Some(Expr::parenthesized(arg.clone(), y.span))
        }
        ExprKind::Subscript { base, index } => {
            if let Some(at) = y.symbol_key().and_then(|key| params.iter().position(|p| *p == key)) {
                return Some(Expr::parenthesized(args[at].clone(), y.span));
            }
            let index = Box::new(put_arguments(index, params, args));
            Some(Expr::new(ExprKind::Subscript { base: base.clone(), index }, y.span))
        }
        _ => None,
    })
}

/// The claim's sides with each `\mu_X` and `\sigma_X` the notes never define (nor the family
/// `\mu_X = E[X]`) read as the mean `E[X]` and standard deviation `\sqrt{\mathrm{Var}[X]}` of
/// X, and the first such letter as written; `None` where the claim has none.
fn standard_moments(scope: &Scope, claim: &Claim) -> Option<(Expr, Expr, String)> {
    let template = |tex: &str| crate::syntax::parse_formula(tex).ok()?.chains.first()?.first.clone();
    let (mean, deviation) = (template("E[Q]")?, template("\\sqrt{\\mathrm{Var}[Q]}")?);
    let defined = |key: &str| {
        scope.defs.contains_key(key)
            || scope.decls.contains_key(key)
            || claim.reading.overrides.iter().any(|d| d.key == key)
    };
    // `\mathrm{Var}(X) = \mathbb E[(X-\mu)^2]` after "a random variable X with mean μ": a bare μ
    // (σ) nothing defines, in a claim about one random variable, is that variable's mean
    // (deviation) as every probability text writes it.
    let mut capitals = BTreeSet::new();
    fn capitals_in(e: &Expr, out: &mut BTreeSet<String>) {
        if let (ExprKind::Symbol(_), Some(key)) = (&e.kind, e.symbol_key()) {
            if capital(&key) {
                out.insert(key);
            }
        }
        e.children().for_each(|c| capitals_in(c, out));
    }
    capitals_in(&claim.lhs, &mut capitals);
    capitals_in(&claim.rhs, &mut capitals);
    capitals.retain(|k| !defined(k));
    let only_variable: Option<Expr> = match capitals.iter().collect::<Vec<_>>().as_slice() {
        [one] => crate::syntax::parse_formula(one).ok()?.chains.first()?.first.clone(),
        _ => None,
    };
    let mut first: Option<String> = None;
    let mut read = |e: &Expr| {
        crate::sema::recurrence::map(e, &mut |x| {
            if let (ExprKind::Symbol(_), Some(variable)) = (&x.kind, &only_variable) {
                let key = x.symbol_key()?;
                let template = match key.as_str() {
                    "\\mu" => &mean,
                    "\\sigma" => &deviation,
                    _ => return None,
                };
                if defined(&key) {
                    return None;
                }
                first.get_or_insert(key);
                let body = crate::sema::recurrence::map(template, &mut |y| {
                    (y.symbol_key().as_deref() == Some("Q")).then(|| variable.clone())
                });
                return Some(Expr::parenthesized(body, x.span));
            }
            let ExprKind::Subscript { base, index } = &x.kind else { return None };
            let key = x.symbol_key()?;
            let base_key = base.symbol_key()?;
            let template = match base_key.as_str() {
                "\\mu" => &mean,
                "\\sigma" => &deviation,
                _ => return None,
            };
            if !names_a_variable(index) || defined(&key) || defined(&base_key) {
                return None;
            }
            first.get_or_insert(key);
            let body = crate::sema::recurrence::map(template, &mut |y| {
                (y.symbol_key().as_deref() == Some("Q")).then(|| (**index).clone())
            });
            Some(Expr::parenthesized(body, x.span))
        })
    };
    let (lhs, rhs) = (read(&claim.lhs), read(&claim.rhs));
    first.map(|letter| (lhs, rhs, letter))
}

/// The claim with each capital written with two or more number subscripts (`C_1`, `C_2`) read
/// as the values of one variable (`C=1`, `C=2`): its sides, and the members as written (`C_1,
/// C_2`). `None` where no capital has two such members.
fn class_values(claim: &Claim) -> Option<(Expr, Expr, String)> {
    static MEMBER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\b([A-Z])_\{?([0-9])\}?").expect("valid regex"));
    let written = |e: &Expr| claim.tex.get(e.span.start..e.span.end).map(str::to_string);
    let (lhs, rhs) = (written(&claim.lhs)?, written(&claim.rhs)?);
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for found in MEMBER.captures_iter(&lhs).chain(MEMBER.captures_iter(&rhs)) {
        members.entry(found[1].to_string()).or_default().insert(found[2].to_string());
    }
    members.retain(|_, values| values.len() >= 2);
    if members.is_empty() {
        return None;
    }
    let read = |side: &str| {
        let rewritten = MEMBER.replace_all(side, |c: &regex::Captures| {
            if members.contains_key(&c[1]) {
                format!("{}={}", &c[1], &c[2])
            } else {
                c[0].to_string()
            }
        });
        crate::syntax::parse_formula(&rewritten).ok()?.chains.into_iter().next()?.first
    };
    let letters: Vec<String> =
        members.iter().flat_map(|(c, values)| values.iter().map(move |v| format!("{c}_{v}"))).collect();
    Some((read(&lhs)?, read(&rhs)?, letters.join(", ")))
}

/// A key of one capital Latin letter (`X`): how a random variable is written.
fn capital(key: &str) -> bool {
    key.len() == 1 && key.chars().all(|c| c.is_ascii_uppercase())
}

/// Does a subscript name a random variable (a capital letter: `X`, `aX+b`)? `\sigma_{ij}` beside
/// `\sigma_X = …` is another name, not the family's moment.
fn names_a_variable(e: &Expr) -> bool {
    e.symbol_key().is_some_and(|k| capital(&k)) || e.children().any(names_a_variable)
}

/// Does the independence the words state give the family a claim holds on? Independent and
/// identically distributed variables are independent; the converse needs the words.
fn stated_covers(stated: Option<crate::model::Independence>, family: numeric::probability::Family) -> bool {
    use crate::model::Independence;
    use numeric::probability::Family;
    matches!(
        (stated, family),
        (Some(Independence::Independent | Independence::IndependentIdentical), Family::Independent)
            | (Some(Independence::IndependentIdentical), Family::IndependentIdentical)
    )
}

/// The assumption a verdict under stated independence lists, in TeX: `X \perp Y` (and
/// `X \overset{d}{=} Y` for identically distributed variables).
fn independence_tex(family: numeric::probability::Family, variables: &[String]) -> String {
    let independent = variables.join(r" \perp ");
    match family {
        numeric::probability::Family::IndependentIdentical => {
            format!(r"{independent},\ {}", variables.join(r" \overset{d}{=} "))
        }
        _ => independent,
    }
}

/// A link that works a printed number out of probabilities the text gives (`P(D_1=1\mid H=0)
/// P(H=0) + P(D_1=1\mid H=1) P(H=1) = 0.011485`, after `P(H=1) = 0.0015` and a table of
/// `P(D_1\mid H)`): redone with those values (given before it, outside its own formula), equal
/// to the printed digits or not. The verdict lists the values used.
fn worked_out_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
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
fn first_order_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::ast::{Span, Symbol};
    fn find<'e>(e: &'e Expr, key: &str) -> Option<&'e Expr> {
        if matches!(e.kind, ExprKind::Symbol(_)) && e.symbol_key().as_deref() == Some(key) {
            return Some(e);
        }
        e.children().find_map(|c| find(c, key))
    }
    let small = claim.reading.small.as_deref()?;
    let letter = find(&claim.lhs, small).or_else(|| find(&claim.rhs, small))?;
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
    verdict.assuming.push(format!("{} \\to 0", crate::syntax::print::explicit_tex(letter, &|_| false)));
    Some(verdict)
}

/// A side written as a power series cut off by an ellipsis (`e^x = 1 + x + \frac{x^2}{2} +
/// \cdots`, `f(x+\epsilon) = f(x) + \epsilon f'(x) + \cdots`): the other side's Taylor
/// coefficients in the series' letter about 0, through the highest power written, against the
/// written ones, exactly. `None` where no side is one, where both are, or where the written
/// coefficients use a letter the other side does not reach (`f(x) = a_0 + a_1x + \cdots`
/// names the coefficients; it does not claim them).
fn series_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
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
fn ray_series_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
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
    let powers = format!("{fresh}^0 … {fresh}^{order}, the step {step_tex} taken as {fresh}{step_tex}");
    let ray = Series { other, terms: &terms, variable: &t, order, step: Some(series.step) };
    Some(compare_as_series(scope, claim, ray, powers))
}

/// A side against written terms, as power series in `variable` through `order`.
struct Series<'a> {
    other: &'a Expr,
    terms: &'a [(bool, Expr)],
    variable: &'a Expr,
    order: u32,
    /// A ray series: the letter whose entries (symbols) are scaled by the variable.
    step: Option<&'a Expr>,
}

/// Compares [`Series`] exactly, coefficient by coefficient: verified with `powers` as the
/// sizes, or refuted at the first power that differs.
fn compare_as_series(scope: &Scope, claim: &Claim, series: Series, powers: String) -> Verdict {
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

/// Does `e` hold a definite integral (`\int_a^b`)? Only the floats evaluate one.
fn has_integral(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::BigOp { op, .. } if op.is_integral()) || e.children().any(has_integral)
}

/// Does the claim, or a definition it uses (`F(x)=\int_0^x f(y)\,dy`), hold an integral?
fn needs_quadrature(scope: &Scope, claim: &Claim) -> bool {
    if has_integral(&claim.lhs) || has_integral(&claim.rhs) {
        return true;
    }
    let with_integral: BTreeSet<&String> =
        scope.defs.iter().filter(|(_, d)| has_integral(&d.body)).map(|(k, _)| k).collect();
    !with_integral.is_empty()
        && crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]).iter().any(|k| with_integral.contains(k))
}

/// A claim only the floats can evaluate (an integral: quadrature), at several random draws of
/// its leaves: verified (labelled numeric, never symbolic) where the sides agree to 10⁻⁷ at
/// every draw, refuted where they differ by more than 10⁻³ at one, undecided between.
fn by_floats_alone(
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
fn randomized_verdict(error: f64, assignments: usize, sizes_text: String) -> Verdict {
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
const EXACT_AFTER_DIFFERS: Duration = Duration::from_secs(5);

/// How long the CAS may try to make a float counterexample a symbolic one.
const EXACT_AFTER_FLOATS: Duration = Duration::from_secs(2);
/// A randomized proof must bound its error by this (2⁻⁶⁰) to stand.
const MAX_RANDOMIZED_ERROR: f64 = 8.673_617_379_884_035e-19;

/// What the randomized test showed for a claim over its size and index assignments.
enum Randomized {
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

struct Point {
    sizes: BTreeMap<String, i64>,
    draw: u64,
    backend: modular::Modular,
    caches: Caches<modular::Residue>,
}

impl SharedPoints {
    /// The point for `sizes` and `draw`, taken out (to be put back by [`SharedPoints::put`]),
    /// or a new one.
    fn take(&self, sizes: &BTreeMap<String, i64>, draw: u64) -> Point {
        let mut points = self.points.borrow_mut();
        match points.iter().position(|p| &p.sizes == sizes && p.draw == draw) {
            Some(k) => points.swap_remove(k),
            None => Point::new(sizes, draw),
        }
    }

    /// Keeps a point for the next claims, unless something went wrong on its tape.
    fn put(&self, point: Point) {
        if point.backend.too_large() {
            self.too_large.borrow_mut().push(point.sizes.clone());
        }
        if !point.backend.troubled() {
            self.points.borrow_mut().push(point);
        }
    }

    fn is_too_large(&self, sizes: &BTreeMap<String, i64>) -> bool {
        self.too_large.borrow().contains(sizes)
    }
}

impl Point {
    fn new(sizes: &BTreeMap<String, i64>, draw: u64) -> Point {
        let seed = sizes.iter().fold(draw.wrapping_mul(0x9E37_79B9_7F4A_7C15), |h, (k, v)| {
            k.bytes().chain(v.to_le_bytes()).fold(h, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)))
        });
        let backend = modular::Modular::new(seed);
        Point { sizes: sizes.clone(), draw, backend, caches: Caches::default() }
    }
}

fn randomized_at(
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
enum Unproven {
    Differs(Env),
    Refutes(EvalError, Env),
    Inapplicable,
}

impl Unproven {
    fn at(self, sizes: &BTreeMap<String, i64>) -> Randomized {
        match self {
            Unproven::Differs(env) => Randomized::Differs { sizes: sizes.clone(), env },
            Unproven::Refutes(error, env) => Randomized::Refutes { error, sizes: sizes.clone(), env },
            Unproven::Inapplicable => Randomized::Inapplicable,
        }
    }
}

/// The claim at every index assignment at one point: the summed error bound and the count, or
/// `Err(None)` to draw another point, or how it ended.
fn test_all(
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
fn refuted_by_shape(
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
static RUN_DEADLINE: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// Time the claim under way already spent in earlier tries (a claim checked again after its
/// worker was stopped in an exact attempt, [`run`]): every deadline of the claim comes that much
/// earlier, so the tries together keep to the claim's time.
static CLAIM_TIME_SPENT: std::sync::Mutex<Duration> = std::sync::Mutex::new(Duration::ZERO);

/// A deadline every check under way must keep to (a repair search's, for the checks of its
/// candidates), where one is set ([`capped`]).
static DEADLINE_CAP: std::sync::Mutex<Option<Instant>> = std::sync::Mutex::new(None);

/// `deadline`, brought forward by the time the claim spent in earlier tries, or the run's
/// deadline or the cap ([`capped`]) where that comes first.
fn within_run(deadline: Instant) -> Instant {
    let spent = *CLAIM_TIME_SPENT.lock().unwrap_or_else(|p| p.into_inner());
    let deadline = deadline.checked_sub(spent).unwrap_or(deadline);
    let deadline = DEADLINE_CAP.lock().unwrap_or_else(|p| p.into_inner()).map_or(deadline, |cap| cap.min(deadline));
    RUN_DEADLINE.lock().unwrap_or_else(|p| p.into_inner()).map_or(deadline, |run| run.min(deadline))
}

/// Runs `work` with every deadline of the checks inside it cut to `until` (the cap before is
/// put back however `work` ends, a panic included).
fn capped<T>(until: Instant, work: impl FnOnce() -> T) -> T {
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
struct Exact<'a> {
    scope: &'a Scope,
    claim: &'a Claim,
    size_sets: &'a [BTreeMap<String, i64>],
    floats: Option<&'a Instance<'a, numeric::Numeric>>,
    deadline: Instant,
}

/// Time a child gets past a deadline (an exact job's, or a worker's claim's) to notice it and
/// answer on its own.
const EXACT_GRACE: Duration = Duration::from_millis(500);

/// The exact check at the given sizes, in a child process killed at the deadline and held to a
/// memory limit ([`cas::isolated`]): a blow-up inside Symbolica ends the claim undecided, saying
/// which budget it passed, never the run.
fn symbolic_at(job: Exact) -> Verdict {
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
fn planted_blowup(claim: &Claim) {
    // (Read once: this runs for every exact job.)
    static PLANTED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let planted = PLANTED.get_or_init(|| std::env::var("DERIVCHECK_PLANTED_BLOWUP").ok().filter(|t| !t.is_empty()));
    if planted.as_ref().is_some_and(|text| claim.tex.contains(text.as_str())) {
        let bytes = usize::try_from(2 * cas::isolate::MEMORY_LIMIT_BYTES).unwrap_or(usize::MAX);
        std::hint::black_box(vec![1u8; bytes]);
    }
}

/// Why `what` (`the exact stage`, `the check`) of a claim gave no answer, in words.
fn stopped_by(why: cas::Stopped, what: &str) -> String {
    match why {
        cas::Stopped::Deadline => format!("{what} did not finish within the claim's time ({} s)", CLAIM_TIME.as_secs()),
        cas::Stopped::Memory => {
            format!("{what} passed its memory limit ({} GB) or stopped", cas::isolate::MEMORY_LIMIT_BYTES >> 30)
        }
        cas::Stopped::Unavailable | cas::Stopped::Deferred => format!("{what} could not be started (no child process)"),
    }
}

fn symbolic_inline(job: Exact) -> Verdict {
    let Exact { scope, claim, size_sets, floats, deadline } = job;
    planted_blowup(claim);
    let budget = Budget { max_steps: MAX_STEPS, max_bytes: MAX_BYTES, deadline };
    let free = free_indices(scope, claim);
    let sizes_text = describe_sizes(size_sets);
    let mut method = Method::Symbolic;
    let mut assignments_checked = 0usize;
    for sizes in size_sets {
        let inst = Instance::new(&Symbolic, scope, sizes, None, budget);
        let envs = match index_assignments(&inst, &free, &claim.conditions, claim, &Env::new()) {
            Ok(envs) => envs,
            Err(e) => return Verdict::undecided(e.reason(), sizes_text),
        };
        for env in envs {
            assignments_checked += 1;
            match compare_at(&inst, claim, &env) {
                Ok(Agreement::Equal(m)) => method = cas::weaker(method, m),
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
    let verified = Verdict::new(Status::Verified, Some(method), sizes_text, reason);
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
fn with_numeric_crosscheck(
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

/// Where in the claim's link an evaluation error points, when it points inside the link (a
/// spec claim's positions are in the spec and are not used).
fn focus_of(e: &EvalError, claim: &Claim) -> Option<(usize, usize)> {
    let span = e.span();
    let inside = claim.lhs.span.start <= span.start && span.end <= claim.rhs.span.end && span.start < span.end;
    (inside && matches!(claim.origin, Origin::Notes { .. })).then_some((span.start, span.end))
}

/// A claim the text says does not hold in general: a counterexample verifies that.
fn check_failing_claim(scope: &Scope, claim: &Claim, shared: &SharedPoints) -> Verdict {
    expected_to_fail(check_claim(scope, claim, None, Some(shared)))
}

fn expected_to_fail(v: Verdict) -> Verdict {
    match v.status {
        Status::Refuted => {
            let reason = Reason::FailsAsTextSays { inner: Box::new(v.reason.clone()) };
            Verdict { status: Status::Verified, reason, ..v }
        }
        Status::Verified => Verdict { status: Status::Refuted, reason: Reason::HeldThoughTextSaysFails, ..v },
        Status::Undecided => v,
    }
}

fn compare_at(inst: &Instance<Symbolic>, claim: &Claim, env: &Env) -> Result<Agreement, EvalError> {
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

fn is_derivative(e: &Expr) -> bool {
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
        ExprKind::Matrix { rows, .. } => {
            let cell = |c: &Option<Statement>| {
                c.as_ref().and_then(|s| s.chains.first()).and_then(|c| c.first.as_ref()).and_then(of_number)
            };
            let all: Vec<Option<f64>> = rows.iter().flatten().map(cell).collect();
            all.iter().any(Option::is_some).then(|| all.iter().map(|t| t.unwrap_or(0.0)).collect())
        }
        _ => of_number(side).map(|t| vec![t]),
    }
}

fn refutation(m: &Mismatch, sizes: &BTreeMap<String, i64>, env: &Env) -> Reason {
    let at = sizes.iter().chain(env.iter()).map(|(k, v)| (k.clone(), *v)).collect();
    Reason::Differs { entry: m.entry, lhs: m.lhs, rhs: m.rhs, at, difference: m.difference.clone() }
}

/// `N = 2, 3, 4, 5; d = 2`: the section's sizes the claim was instantiated at. Where the sets
/// are not every combination of those values, groups that are are joined by ` | `
/// (`d = 2, 3; n = 2 | d = 8; n = 4`).
fn describe_sizes(sets: &[BTreeMap<String, i64>]) -> String {
    if is_grid(sets) {
        return describe_grid(sets);
    }
    let (grid, rest) = sets.split_at(sets.len() - 1);
    let head = if is_grid(grid) { describe_grid(grid) } else { describe_sizes(grid) };
    format!("{head} | {}", describe_grid(rest))
}

/// Whether `sets` are exactly all combinations of the values each name takes in them.
fn is_grid(sets: &[BTreeMap<String, i64>]) -> bool {
    let mut per_name: BTreeMap<&str, BTreeSet<i64>> = BTreeMap::new();
    for set in sets {
        for (k, v) in set {
            per_name.entry(k.as_str()).or_default().insert(*v);
        }
    }
    let distinct: BTreeSet<&BTreeMap<String, i64>> = sets.iter().collect();
    per_name.values().map(BTreeSet::len).product::<usize>() == distinct.len()
}

fn describe_grid(sets: &[BTreeMap<String, i64>]) -> String {
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

/// The whole `check` pipeline on read documents: parse, plan, check on the CAS worker, report.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::Definition;
    use crate::spec::SectionSpec;
    use crate::syntax::parse_formula;

    fn expr(tex: &str) -> Expr {
        parse_formula(tex).unwrap().chains[0].first.clone().unwrap()
    }

    #[test]
    fn a_moment_subscript_names_a_random_variable() {
        let subscript = |tex: &str| match expr(tex).kind {
            ExprKind::Subscript { index, .. } => names_a_variable(&index),
            other => panic!("{other:?}"),
        };
        assert!(subscript(r"\mu_X") && subscript(r"\mu_{aX+b}") && subscript(r"\sigma_{X+Y}"));
        assert!(!subscript(r"\sigma_{ij}") && !subscript(r"\mu_0") && !subscript(r"\sigma_{\mathrm{in}}"));
    }

    /// A section from a spec in TOML, definitions `key=body` and one claim `lhs=rhs`.
    fn verdict(spec_toml: &str, defs: &[(&str, &[&str], &str)], claim: &str, when: &str) -> Verdict {
        verdict_by(spec_toml, defs, claim, when, true)
    }

    /// The CAS alone, without the randomized test first.
    fn symbolic_verdict(spec_toml: &str, defs: &[(&str, &[&str], &str)], claim: &str, when: &str) -> Verdict {
        verdict_by(spec_toml, defs, claim, when, false)
    }

    fn verdict_by(
        spec_toml: &str,
        defs: &[(&str, &[&str], &str)],
        claim: &str,
        when: &str,
        randomized_first: bool,
    ) -> Verdict {
        let spec: SectionSpec = toml::from_str(spec_toml).unwrap();
        let defs = defs
            .iter()
            .map(|(k, params, body)| Definition {
                key: k.to_string(),
                params: params.iter().map(|p| p.to_string()).collect(),
                body: expr(body),
                origin: "test".into(),
                from_notes: false,
                function: false,
                inherited: false,
                section_only: false,
            })
            .collect();
        let scope = Scope::new("1", &spec, defs).unwrap();
        let chain = parse_formula(claim).unwrap().chains.remove(0);
        let conditions = if when.is_empty() { Vec::new() } else { parse_formula(when).unwrap().chains };
        let claim = Claim {
            id: "t".into(),
            section: "1".into(),
            origin: Origin::Spec { name: "t".into(), line: 1, col: 1 },
            tex: claim.into(),
            kind: ClaimKind::Identity,
            lhs: chain.first.clone().unwrap(),
            rhs: chain.links[0].rhs.clone(),
            conditions,
            holds: true,
            variant: false,
            approx: false,
            understood: String::new(),
            reading: Default::default(),
        };
        cas::worker::run(move || {
            if randomized_first {
                check_claim(&scope, &claim, None, None)
            } else {
                let size_sets = scope.size_assignments();
                symbolic_at(Exact {
                    scope: &scope,
                    claim: &claim,
                    size_sets: &size_sets,
                    floats: None,
                    deadline: Instant::now() + CLAIM_TIME,
                })
            }
        })
    }

    fn assert_randomized_proof(v: &Verdict) {
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Randomized)), "{v:?}");
        assert!(v.error_bound_log2.is_some_and(|b| b <= -60.0), "{v:?}");
    }

    const SOFTMAX: &str = "sizes = { N = [2, 3] }\nindex = { r = \"N\", j = \"N\", k = \"N\" }";

    fn softmax_defs() -> Vec<(&'static str, &'static [&'static str], &'static str)> {
        vec![("D", &[], "\\sum_r e^{s_r}"), ("a", &["j"], "e^{s_j}/D")]
    }

    #[test]
    fn identity_verified_and_refuted() {
        let v = verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 1", "");
        assert_randomized_proof(&v);
        assert_eq!(v.sizes, "N = 2, 3");
        let v = symbolic_verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 1", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        let v = symbolic_verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 2", "");
        assert_eq!((v.status, v.method), (Status::Refuted, Some(Method::Symbolic)), "{v:?}");
        let v = verdict(SOFTMAX, &softmax_defs(), "\\sum_r a_r = 2", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let cx = v.counterexample.unwrap();
        assert_eq!(cx.sizes["N"], 2);
        let m = cx.mismatch.unwrap();
        assert!((m.lhs - 1.0).abs() < 1e-12 && (m.rhs - 2.0).abs() < 1e-12, "{m:?}");
    }

    #[test]
    fn derivative_verified_and_refuted_with_index_conditions() {
        let ok = verdict(SOFTMAX, &softmax_defs(), "\\frac{\\partial a_j}{\\partial s_k}=-a_ja_k", "k\\ne j");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        assert_eq!(ok.reason, Reason::Checked { assignments: 8, rounded: false }); // N=2: 2 pairs, N=3: 6 pairs
        let bad = verdict(SOFTMAX, &softmax_defs(), "\\frac{\\partial a_j}{\\partial s_k}=-a_ja_k", "");
        assert_eq!(bad.status, Status::Refuted, "without k≠j the diagonal fails: {bad:?}");
        assert_eq!(bad.counterexample.unwrap().indices.get("j"), Some(&1));
    }

    #[test]
    fn jacobian_of_generic_vector_function() {
        let spec = "sizes = { n = [2] }\nmatrix = { x = [\"n\", \"1\"] }\nfunctions = { F = \"vector\" }\nidentity = { I = \"n\" }";
        let defs = vec![("y", &[][..], "x+F(x)")];
        let claim = "\\frac{\\partial y}{\\partial x} = I + \\frac{\\partial F(x)}{\\partial x}";
        assert_randomized_proof(&verdict(spec, &defs, claim, ""));
        let ok = symbolic_verdict(spec, &defs, claim, "");
        assert_eq!((ok.status, ok.method), (Status::Verified, Some(Method::Symbolic)), "{ok:?}");
        let bad = verdict(spec, &defs, "\\frac{\\partial y}{\\partial x} = \\frac{\\partial F(x)}{\\partial x}", "");
        assert_eq!(bad.status, Status::Refuted);
        assert_eq!(bad.counterexample.unwrap().mismatch.unwrap().entry, Some((1, 1)));
    }

    #[test]
    fn shape_mismatch_refutes_and_names_both_shapes() {
        let spec = "sizes = { n = [3], d = [2] }\nmatrix = { X = [\"n\", \"d\"], W = [\"d\", \"d\"] }";
        let ok = verdict(spec, &[], "XW = XW", "");
        assert_eq!(ok.status, Status::Verified);
        let bad = verdict(spec, &[], "WX = XW", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        assert!(matches!(bad.reason, Reason::ShapeMismatch { left: (2, 2), right: (3, 2), .. }), "{:?}", bad.reason);
    }

    #[test]
    fn unknown_functions_and_unbound_indices_are_undecided() {
        let v = verdict(SOFTMAX, &[], "\\operatorname{foo}(x) = x", "");
        assert_eq!(v.status, Status::Undecided);
        assert!(matches!(&v.reason, Reason::NotRead { detail, .. } if detail.contains("foo")), "{:?}", v.reason);
        let v = verdict("sizes = { N = [2] }", &[], "\\sum_q x_q = 1", "");
        assert_eq!(v.status, Status::Undecided);
    }

    #[test]
    fn randomized_test_falls_back_where_functions_have_relations() {
        // The exponential's law is applied before atoms are made, and sin and cos are made of
        // one half-angle tangent; ln e^x = x is a relation between atoms the test does not
        // know: the CAS proves it.
        assert_randomized_proof(&verdict("sizes = {}", &[], "e^{a+b-2c} = e^a e^b/(e^c)^2", ""));
        assert_randomized_proof(&verdict("sizes = {}", &[], "\\sin(x)^2+\\cos(x)^2 = 1", ""));
        assert_randomized_proof(&verdict("sizes = {}", &[], "\\cos(2x) = 1-2\\sin(x)^2", ""));
        let v = verdict("sizes = {}", &[], "\\cos(2x) = 1-\\sin(x)^2", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        // A constant power of e is its exponential, not a root of e.
        assert_randomized_proof(&verdict("sizes = {}", &[], "e^{x-\\frac12} = \\frac{e^x}{e^{1/2}}", ""));
        assert_randomized_proof(&verdict(
            "sizes = {}",
            &[],
            "e^{(\\ln x)^2-\\frac12} = \\frac{e^{(\\ln x)^2}}{e^{1/2}}",
            "",
        ));
        let v = verdict("sizes = {}", &[], "e^{x-\\frac12} = \\frac{e^x}{e^{1/3}}", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let v = verdict("sizes = {}", &[], "\\ln(e^{x}) = x", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        // A constant that is a multiple of a 61-bit prime is not zero.
        let v = verdict("sizes = {}", &[], "2^{61}-1 = 0", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        let v = verdict("sizes = {}", &[], "(2^{61}-1)x = 0", "");
        assert_eq!(v.status, Status::Refuted, "{v:?}");
        // Second derivatives through recorded adjoints, and a generic σ.
        let spec = "sizes = {}\nfunctions = { '\\sigma' = \"elementwise\" }";
        let defs = vec![("f", &[][..], "\\sigma(x^2)")];
        assert_randomized_proof(&verdict(spec, &defs, "\\frac{\\partial f}{\\partial x} = 2x\\sigma'(x^2)", ""));
        let bad = verdict(spec, &defs, "\\frac{\\partial f}{\\partial x} = x\\sigma'(x^2)", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn log_identities_need_the_rewrite_rules() {
        let v = verdict(SOFTMAX, &softmax_defs(), "-\\ln a_j = -s_j + \\ln D", "");
        assert_eq!((v.status, v.method), (Status::Verified, Some(Method::Symbolic)), "{v:?}");
        let v = verdict(SOFTMAX, &softmax_defs(), "-\\ln a_j = s_j + \\ln D", "");
        assert_eq!(v.status, Status::Refuted);
    }

    #[test]
    fn adjoints_verified_and_refuted() {
        let spec = "sizes = { n = [2], d = [2] }\nloss = 'L'\nmatrix = { X = [\"n\", \"d\"], W = [\"d\", \"d\"], G = [\"n\", \"d\"] }";
        let defs = vec![("Y", &[][..], "XW"), ("L", &[][..], "\\operatorname{sum}(G\\odot Y)")];
        assert_randomized_proof(&verdict(spec, &defs, "\\bar W=X^\\mathsf T\\bar Y", ""));
        let ok = symbolic_verdict(spec, &defs, "\\bar W=X^\\mathsf T\\bar Y", "");
        assert_eq!((ok.status, ok.method), (Status::Verified, Some(Method::Symbolic)), "{ok:?}");
        let bad = verdict(spec, &defs, "\\bar W=\\bar Y^\\mathsf T X", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        let ok = verdict(spec, &defs, "\\bar X=\\bar YW^\\mathsf T", "");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        // W is square, so the shapes fit and only the values refute the dropped transpose.
        let bad = verdict(spec, &defs, "\\bar X=\\bar YW", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
        let point = bad.counterexample.unwrap().mismatch.unwrap().point;
        assert!(point.iter().all(|(name, _)| !name.starts_with('v')), "leaves are shown as written: {point:?}");
    }

    #[test]
    fn differentials_verified_and_refuted() {
        let spec = "sizes = { d = [3] }\nindex = { r = \"d\" }\nmatrix = { x = [\"1\", \"d\"] }\nvary = ['x']";
        let defs = vec![("\\mu", &[][..], "\\frac1d\\sum_r x_r")];
        let ok = verdict(spec, &defs, "d\\mu=\\operatorname{mean}(dx)", "");
        assert_eq!(ok.status, Status::Verified, "{ok:?}");
        let bad = verdict(spec, &defs, "d\\mu=\\operatorname{sum}(dx)", "");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn trigonometric_identities_are_exact() {
        let spec = "sizes = { n = [3] }\nindex = { i = \"n\", j = \"n\" }\nfunctions = { R = \"rotation\" }";
        let defs = vec![("R", &["i"][..], "R(i\\omega)")];
        // sin and cos of iω, jω and (j−i)ω are made of one half-angle tangent of ω.
        assert_randomized_proof(&verdict(spec, &defs, "R_i^\\mathsf TR_j=R((j-i)\\omega)", ""));
        let bad = verdict(spec, &defs, "R_i^\\mathsf TR_j=R((i-j)\\omega)", "i\\ne j");
        assert_eq!(bad.status, Status::Refuted, "{bad:?}");
    }

    #[test]
    fn cyclic_definitions_are_undecided_not_a_hang() {
        let defs = vec![("u", &[][..], "v+1"), ("v", &[][..], "u")];
        let v = verdict("sizes = { N = [2] }", &defs, "u = 1", "");
        assert_eq!(v.status, Status::Undecided);
        assert!(matches!(&v.reason, Reason::Cyclic { .. }), "{:?}", v.reason);
    }
}
