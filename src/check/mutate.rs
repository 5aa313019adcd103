//! Mutants and repairs: the single edits of [`super::edits`] put to work.
//!
//! - [`mutate_plans`]: a self-test of every check. Each verified claim's right side is edited
//!   once in every way the edits know; each mutant is checked. A refuted mutant is killed; a
//!   verified one survived (the check cannot tell it from the formula) unless formula = mutant is
//!   itself verified, which makes it equivalent.
//! - [`repair`]: for a refuted claim, the edits (and the expression the CAS computed) that
//!   derivcheck verifies; the smallest is offered as "did you mean". Budgeted; never a guess.

use super::edits::{edits, parse_side, Edit, Letters};
use super::{check_claim, claim_scope, within_run, Decl, Scope};
use crate::model::{ClaimMutants, Mutant, MutantFate, Status, Suggestion, Verdict};
use crate::numeric;
use crate::sema::{Claim, Origin, SectionPlan};
use crate::syntax::ast::Expr;
use std::time::{Duration, Instant};

/// How long a refuted claim's repair may be searched for.
const REPAIR_TIME: Duration = Duration::from_secs(4);
/// Two edits are tried only where one gives at most this many candidates.
const PAIRS_FROM: usize = 24;

/// Every verified claim of the plans (not a worked example's), with its mutants checked.
/// `progress` is told each claim's id before its mutants run.
pub fn mutate_plans(plans: &[SectionPlan], deadline: Option<Instant>, progress: &dyn Fn(&str)) -> Vec<ClaimMutants> {
    let mut out = Vec::new();
    for plan in plans.iter().filter(|p| p.example.is_none()) {
        let Ok(scope) = &plan.scope else { continue };
        let floats = Floats::new(plan, scope);
        let floats = floats.instance(scope);
        for claim in plan.claims.iter().filter(|c| c.holds) {
            if deadline.is_some_and(|d| Instant::now() >= d) {
                return out;
            }
            let own = claim_scope(scope, claim);
            let scope = own.as_ref().unwrap_or(scope);
            let Some(sides) = Sides::of(claim) else { continue };
            if check_claim(scope, claim, Some(&floats), None).status != Status::Verified {
                continue;
            }
            progress(&claim.id);
            let letters = LettersOf::new(scope);
            let mut mutants = Vec::new();
            for edit in edits(&claim.tex, &claim.rhs, &letters.letters()) {
                let started = Instant::now();
                let Some(mutant) = sides.with_right(claim, &edit) else { continue };
                let verdict = check_claim(scope, &mutant, Some(&floats), None);
                let fate = match verdict.status {
                    Status::Refuted => MutantFate::Killed,
                    Status::Undecided => MutantFate::Undecided,
                    Status::Verified if equivalent(scope, claim, &edit) => MutantFate::Equivalent,
                    Status::Verified => MutantFate::Survived,
                };
                let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
                let reason = (fate == MutantFate::Undecided).then(|| verdict.reason.clone());
                mutants.push(Mutant {
                    edit: edit.kind,
                    tex: edit.tex.clone(),
                    fate,
                    method: verdict.method,
                    sizes: verdict.sizes.clone(),
                    reason,
                    elapsed_ms,
                });
            }
            let line = match &claim.origin {
                Origin::Notes { line, .. } | Origin::Spec { line, .. } => *line,
            };
            out.push(ClaimMutants {
                id: claim.id.clone(),
                section: claim.section.clone(),
                line,
                tex: claim.tex.clone(),
                mutants,
            });
        }
    }
    out
}

/// Is the edited side the same function as the written one (formula = mutant verified)?
fn equivalent(scope: &Scope, claim: &Claim, edit: &Edit) -> bool {
    let same = Claim { lhs: claim.rhs.clone(), rhs: edit.expr.clone(), ..claim.clone() };
    check_claim(scope, &same, None, None).status == Status::Verified
}

/// The smallest edit of a refuted claim that derivcheck verifies, if the budget finds one: the
/// single edits first (and the expression the CAS computed for the other side), then pairs.
pub(super) fn repair(scope: &Scope, claim: &Claim, refuted: &Verdict) -> Option<Suggestion> {
    let deadline = within_run(Instant::now() + REPAIR_TIME);
    let sides = Sides::of(claim)?;
    let letters = LettersOf::new(scope);
    let single = edits(&claim.tex, &claim.rhs, &letters.letters());
    let verifies = |edit: &Edit| -> Option<Verdict> {
        let mutant = sides.with_right(claim, edit)?;
        let verdict = check_claim(scope, &mutant, None, None);
        (verdict.status == Status::Verified).then_some(verdict)
    };
    let offer = |edit: &Edit, kinds: Vec<crate::model::EditKind>, verdict: Verdict| Suggestion {
        tex: format!("{}={}", sides.left, edit.tex),
        edits: kinds,
        method: verdict.method,
        sizes: verdict.sizes,
    };
    let mut found: Vec<(usize, Suggestion)> = Vec::new();
    for edit in &single {
        if Instant::now() >= deadline {
            break;
        }
        if let Some(v) = verifies(edit) {
            found.push((distance(&sides.right, &edit.tex), offer(edit, vec![edit.kind], v)));
        }
    }
    // The other side as the CAS computed it, where it is short (a scalar slip's right value).
    if found.is_empty() {
        let computed =
            refuted.counterexample.as_ref().and_then(|c| c.mismatch.as_ref()).and_then(|m| m.correct.clone());
        if let Some((tex, _, _)) = computed.filter(|(tex, _, _)| tex.chars().count() <= 80) {
            if let Some(expr) = parse_side(&tex) {
                let edit = Edit { kind: crate::model::EditKind::FlipSign, tex, expr };
                if let Some(v) = verifies(&edit) {
                    found.push((usize::MAX / 2, offer(&edit, Vec::new(), v)));
                }
            }
        }
    }
    if found.is_empty() && single.len() <= PAIRS_FROM {
        'pairs: for first in &single {
            for second in edits(&first.tex, &first.expr, &letters.letters()) {
                if Instant::now() >= deadline {
                    break 'pairs;
                }
                if let Some(v) = verifies(&second) {
                    let suggestion = offer(&second, vec![first.kind, second.kind], v);
                    found.push((distance(&sides.right, &second.tex) + 1000, suggestion));
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.tex.len().cmp(&b.1.tex.len())));
    found.into_iter().next().map(|(_, s)| s)
}

/// How far an edited side is from the written one: the characters that differ (a crude edit
/// distance on the shorter common prefix and suffix).
fn distance(written: &str, edited: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (written.chars().collect(), edited.chars().collect());
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..].iter().rev().zip(b[prefix..].iter().rev()).take_while(|(x, y)| x == y).count();
    (a.len() - prefix - suffix).max(b.len() - prefix - suffix)
}

/// A claim's two sides as written, where its tree reads back from its TeX (a claim the
/// recurrences or the zero of a vector rewrote does not).
struct Sides {
    left: String,
    right: String,
}

impl Sides {
    fn of(claim: &Claim) -> Option<Sides> {
        let text = |e: &Expr| claim.tex.get(e.span.start..e.span.end).map(str::to_string);
        let (left, right) = (text(&claim.lhs)?, text(&claim.rhs)?);
        let written = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
        let reads_back = |tex: &str, e: &Expr| parse_side(tex).is_some_and(|p| written(&p) == written(e));
        (reads_back(&left, &claim.lhs) && reads_back(&right, &claim.rhs)).then_some(Sides { left, right })
    }

    /// The claim with its right side replaced by the edit, parsed whole so every span is its own.
    fn with_right(&self, claim: &Claim, edit: &Edit) -> Option<Claim> {
        let tex = format!("{}={}", self.left, edit.tex);
        let statement = crate::syntax::parse_formula(&tex).ok()?;
        let [chain] = statement.chains.as_slice() else { return None };
        let (Some(lhs), [link]) = (&chain.first, chain.links.as_slice()) else { return None };
        Some(Claim { lhs: lhs.clone(), rhs: link.rhs.clone(), tex, ..claim.clone() })
    }
}

/// What the edits may assume about a scope's letters.
struct LettersOf<'a> {
    scope: &'a Scope,
    indices: Vec<String>,
}

impl<'a> LettersOf<'a> {
    fn new(scope: &'a Scope) -> Self {
        let mut indices: Vec<String> =
            scope.decls.iter().filter(|(_, d)| matches!(d, Decl::Index { .. })).map(|(k, _)| k.clone()).collect();
        indices.sort();
        LettersOf { scope, indices }
    }

    fn letters(&self) -> Letters<'_> {
        Letters { knows: self, indices: &self.indices }
    }
}

impl super::edits::Knows for LettersOf<'_> {
    fn matrix(&self, key: &str) -> bool {
        // `\bar{S}`: the adjoint has its matrix's shape.
        let unbarred = key.strip_prefix("\\bar{").and_then(|k| k.strip_suffix('}')).unwrap_or(key).to_string();
        [key, unbarred.as_str()].iter().any(|k| match self.scope.decls.get(*k) {
            Some(Decl::Matrix { rows, cols }) => rows != "1" && cols != "1",
            Some(Decl::Identity { .. }) => false,
            _ => self.scope.defs.get(*k).is_some_and(|d| !d.function && k.chars().any(char::is_uppercase)),
        })
    }

    fn function(&self, key: &str) -> bool {
        matches!(self.scope.decls.get(key), Some(Decl::Function(_)))
            || self.scope.defs.get(key).is_some_and(|d| d.function)
    }
}

/// The section's float instance for the cross-checks, as `check_section` builds it.
struct Floats {
    backend: numeric::Numeric,
    sizes: std::collections::BTreeMap<String, i64>,
}

impl Floats {
    fn new(plan: &SectionPlan, scope: &Scope) -> Self {
        Floats {
            backend: numeric::Numeric::new(super::section_seed(&plan.number), numeric::crosscheck::EPSILON),
            sizes: numeric::crosscheck::larger_sizes(scope, &scope.crosscheck),
        }
    }

    fn instance<'a>(&'a self, scope: &'a Scope) -> crate::eval::Instance<'a, numeric::Numeric> {
        let budget = crate::eval::Budget {
            max_steps: 20 * super::MAX_STEPS,
            max_bytes: super::MAX_BYTES,
            deadline: Instant::now() + super::CLAIM_TIME * 1000,
        };
        crate::eval::Instance::new(&self.backend, scope, &self.sizes, None, budget)
    }
}
