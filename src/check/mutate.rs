//! Mutants and repairs: the single edits of [`super::edits`] put to work.
//!
//! - [`mutate_plans`]: a self-test of every check. Each verified claim's right side is edited
//!   once in every way the edits know; each mutant is checked. A refuted mutant is killed; a
//!   verified one survived (the check cannot tell it from the formula) unless formula = mutant is
//!   itself verified, which makes it equivalent.
//! - [`repair`]: for a refuted claim, the edits (and the expression the CAS computed) that
//!   derivcheck verifies; the smallest is offered as "did you mean". Budgeted; never a guess.

use super::edits::{claim_arguments, edits, parse_side, repair_edits, sum_terms, Edit, Letters};
use super::{check_claim, claim_scope, within_run, Decl, Scope};
use crate::model::{ClaimMutants, Mutant, MutantFate, Status, Suggestion, Verdict};
use crate::numeric;
use crate::sema::{Claim, Origin, SectionPlan};
use crate::syntax::ast::{Expr, ExprKind};
use std::time::{Duration, Instant};

/// How long a refuted claim's repair may be searched for.
const REPAIR_TIME: Duration = Duration::from_secs(4);
/// Two edits are tried only where one gives at most this many candidates.
const PAIRS_FROM: usize = 24;

/// Every verified claim of the plans (not a worked example's), with its mutants checked.
/// `file` names the notes the plans are read from; `progress` is told each claim's id before
/// its mutants run.
pub fn mutate_plans(
    file: &str,
    plans: &[SectionPlan],
    deadline: Option<Instant>,
    progress: &dyn Fn(&str),
) -> Vec<ClaimMutants> {
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
            for edit in edits(&claim.tex, claim.written_sides().1, &letters.letters()) {
                let started = Instant::now();
                let Some(mutant) = sides.with_right(claim, &edit) else { continue };
                let verdict = check_claim(scope, &mutant, Some(&floats), None);
                let (fate, reason) = match verdict.status {
                    Status::Refuted => (MutantFate::Killed, None),
                    Status::Undecided => (MutantFate::undecided_for(&verdict.reason), Some(verdict.reason.clone())),
                    Status::Verified => match equivalent(scope, claim, &edit) {
                        Ok(()) => (MutantFate::Equivalent, None),
                        Err(why) => (MutantFate::Survived, why),
                    },
                };
                let elapsed_ms = started.elapsed().as_secs_f64() * 1e3;
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
                file: file.to_string(),
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

/// Is the edited side the same function as the written one? `formula = mutant` is checked at
/// sizes one past the section's largest (where it has sizes), so a mutant the stated sizes cannot
/// tell from the formula (a product of 1 × 1 matrices commutes) is a survivor, not an
/// equivalent; `Err` carries what the larger sizes found (the difference that shows the sizes
/// too small), if anything.
fn equivalent(scope: &Scope, claim: &Claim, edit: &Edit) -> Result<(), Option<crate::model::Reason>> {
    let same = claim.with_written_sides(claim.written_sides().1, &edit.expr, claim.tex.clone());
    let larger = (!scope.sizes.is_empty()).then(|| {
        let mut larger = scope.clone();
        for values in larger.sizes.values_mut() {
            *values = vec![values.iter().max().copied().unwrap_or(1) + 1];
        }
        larger
    });
    let verdict = check_claim(larger.as_ref().unwrap_or(scope), &same, None, None);
    match verdict.status {
        Status::Verified => Ok(()),
        _ => Err(Some(verdict.reason)),
    }
}

/// Does `edited` keep every subscript of `written` but with fewer letters in their indices?
fn drops_an_index_letter(written: &Expr, edited: &Expr) -> bool {
    fn count(e: &Expr, in_index: bool, subscripts: &mut usize, letters: &mut usize) {
        match &e.kind {
            ExprKind::Subscript { base, index } => {
                *subscripts += 1;
                count(base, in_index, subscripts, letters);
                count(index, true, subscripts, letters);
            }
            ExprKind::Symbol(_) if in_index => *letters += 1,
            _ => e.children().for_each(|c| count(c, in_index, subscripts, letters)),
        }
    }
    let (mut s0, mut l0, mut s1, mut l1) = (0, 0, 0, 0);
    count(written, false, &mut s0, &mut l0);
    count(edited, false, &mut s1, &mut l1);
    s0 == s1 && l1 < l0
}

/// The smallest edit of a refuted claim that derivcheck verifies, if the budget finds one: the
/// single edits of either side (those of [`super::edits::repair_edits`], `terms` being the
/// additive terms the section's other formulas write), an approximation's number rounded from
/// the value computed, the expression the CAS computed for the other side where it is short,
/// then pairs of edits of the right side. Ranked by how much of the text changes, then by how
/// drastic the edit is.
/// The search and the checks of its candidates keep to [`REPAIR_TIME`] in all.
pub(super) fn repair(scope: &Scope, claim: &Claim, refuted: &Verdict, terms: &[String]) -> Option<Suggestion> {
    let deadline = within_run(Instant::now() + REPAIR_TIME);
    super::capped(deadline, || repair_until(scope, claim, refuted, terms, deadline))
}

fn repair_until(
    scope: &Scope,
    claim: &Claim,
    refuted: &Verdict,
    terms: &[String],
    deadline: Instant,
) -> Option<Suggestion> {
    let sides = Sides::of(claim)?;
    let letters = LettersOf::new(scope);
    let relation = if claim.approx { "\\approx " } else { "=" };
    // A side made the other one (`P(A\mid B)=P(A\mid B)`), or one side made to stand inside the
    // other where the written sides did not (`P(A\mid B)=\frac{P(A\mid B)P(A)}{P(A)}`,
    // `P(B\mid A)=\frac{P(B\mid A)P(A)}{P(A)}`), holds by cancelling and says nothing the author
    // meant: such a candidate is never checked, nor offered.
    let nested = |l: &str, r: &str| (l.len() > 2 && r.contains(l)) || (r.len() > 2 && l.contains(r));
    let written_nested = nested(&sides.left, &sides.right);
    // A power series cut off earlier (`e^x = 1 + x + \cdots` for a wrong `\frac{x^2}{3}`) claims
    // less than the author wrote: not a repair.
    let series_terms = |e: &Expr| crate::syntax::pattern::truncated_series(e).map_or(0, |s| s.terms.len());
    let (left_terms, right_terms) = (series_terms(&claim.lhs), series_terms(&claim.rhs));
    // Nor is a changed function beside a series (`\log(1+x) + \frac{x^3}{6} = x - \cdots`): the
    // series is what the author computed.
    let print = crate::syntax::print::expr;
    let shortened = |mutant: &Claim| {
        series_terms(&mutant.lhs) < left_terms
            || series_terms(&mutant.rhs) < right_terms
            || (left_terms > 0 && print(&mutant.rhs) != print(&claim.rhs))
            || (right_terms > 0 && print(&mutant.lhs) != print(&claim.lhs))
    };
    // `\mathbf g_{t-2}` → `\mathbf g_{-2}`: an index that lost its letter names no entry the
    // author meant (a recurrence absorbs it into `\ldots`).
    let (written_left, written_right) = claim.written_sides();
    let stripped = |written: &Expr, written_tex: &str, tex: &str| {
        tex != written_tex && parse_side(tex).is_some_and(|edited| drops_an_index_letter(written, &edited))
    };
    let verifies = |left: &str, right: &str, mutant: Option<Claim>| -> Option<Verdict> {
        let mutant = mutant?;
        // (`\boldsymbol e_1 = e_1`: one letter, written two ways, is the same side.)
        let same_letter = mutant.lhs.symbol_key().is_some() && mutant.lhs.symbol_key() == mutant.rhs.symbol_key();
        if print(&mutant.lhs) == print(&mutant.rhs)
            || same_letter
            || (!written_nested && nested(left, right))
            || shortened(&mutant)
            || stripped(written_left, &sides.left, left)
            || stripped(written_right, &sides.right, right)
        {
            return None;
        }
        let verdict = check_claim(scope, &mutant, None, None);
        (verdict.status == Status::Verified).then_some(verdict)
    };
    let offer = |left: &str, right: &str, kinds: Vec<crate::model::EditKind>, verdict: Verdict| Suggestion {
        tex: format!("{left}{relation}{right}"),
        edits: kinds,
        method: verdict.method,
        sizes: verdict.sizes,
    };
    let rank =
        |kinds: &[crate::model::EditKind], changed: usize| (changed, kinds.iter().map(|k| k.rank()).max().unwrap_or(9));
    let mut found: Vec<((usize, u8), Suggestion)> = Vec::new();
    let factors = scalar_letters(claim, &letters);
    let single = edits(&claim.tex, written_right, &letters.letters());
    let arguments = claim_arguments(&claim.tex, [written_left, written_right]);
    let (right_lacks, left_lacks) = (
        letters_lacking(&claim.tex, written_left, written_right),
        letters_lacking(&claim.tex, written_right, written_left),
    );
    let right_edits =
        repair_edits(&claim.tex, written_right, single.clone(), terms, &factors, &right_lacks, &arguments);
    let left_single = edits(&claim.tex, written_left, &letters.letters());
    let left_edits = repair_edits(&claim.tex, written_left, left_single, terms, &factors, &left_lacks, &arguments);
    // In turn, each only where the one before found nothing: edits of the right side (what a
    // formula claims of the left), of the left side, then a term or factor added to the right
    // side, then to the left.
    let added = |e: &&Edit| matches!(e.kind, crate::model::EditKind::AddTerm | crate::model::EditKind::InsertFactor);
    let phases: [(bool, Vec<&Edit>); 4] = [
        (true, right_edits.iter().filter(|e| !added(e)).collect()),
        (false, left_edits.iter().filter(|e| !added(e)).collect()),
        (true, right_edits.iter().filter(added).collect()),
        (false, left_edits.iter().filter(added).collect()),
    ];
    for (right, candidates) in phases {
        if !found.is_empty() {
            break;
        }
        for edit in candidates {
            if Instant::now() >= deadline {
                break;
            }
            let (mutant, written) = if right {
                (sides.with_right(claim, edit), &sides.right)
            } else {
                (sides.with_left(claim, edit), &sides.left)
            };
            let (left, right_tex) = if right { (&sides.left, &edit.tex) } else { (&edit.tex, &sides.right) };
            if let Some(v) = verifies(left, right_tex, mutant) {
                found.push((
                    rank(&[edit.kind], distance(written, &edit.tex)),
                    offer(left, right_tex, vec![edit.kind], v),
                ));
            }
        }
    }
    let counterexample = refuted.counterexample.as_ref();
    // `\sqrt5\approx 2.4`: the left side's value to the written number's digits.
    if let (true, ExprKind::Number { value }, Some(c)) =
        (claim.approx, &claim.rhs.kind, counterexample.and_then(|c| c.mismatch.as_ref()))
    {
        let decimals = value.split_once('.').map_or(0, |(_, d)| d.len());
        let tex = format!("{:.*}", decimals, c.lhs);
        if let Some(expr) = parse_side(&tex) {
            let edit = Edit { kind: crate::model::EditKind::Rounding, tex, expr };
            if let Some(v) = verifies(&sides.left, &edit.tex, sides.with_right(claim, &edit)) {
                found.push((
                    rank(&[edit.kind], distance(&sides.right, &edit.tex)),
                    offer(&sides.left, &edit.tex, vec![edit.kind], v),
                ));
            }
        }
    }
    // The other side as the CAS computed it, where it is short (a scalar slip's right value).
    if found.is_empty() {
        let computed = counterexample.and_then(|c| c.mismatch.as_ref()).and_then(|m| m.correct.clone());
        if let Some((tex, _, _)) = computed.filter(|(tex, _, _)| tex.chars().count() <= 80) {
            if let Some(expr) = parse_side(&tex) {
                let edit = Edit { kind: crate::model::EditKind::FlipSign, tex, expr };
                if let Some(v) = verifies(&sides.left, &edit.tex, sides.with_right(claim, &edit)) {
                    found.push(((usize::MAX / 2, 9), offer(&sides.left, &edit.tex, Vec::new(), v)));
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
                if let Some(v) = verifies(&sides.left, &second.tex, sides.with_right(claim, &second)) {
                    let kinds = vec![first.kind, second.kind];
                    let (changed, drastic) = rank(&kinds, distance(&sides.right, &second.tex));
                    found.push(((changed + 1000, drastic), offer(&sides.left, &second.tex, kinds, v)));
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

/// A claim's two sides as written, where its tree reads back from its TeX. A claim sema rewrote
/// (`\mathbf{s}_{t-1}` read as the update's earlier step, a `0` as the zero vector) keeps its
/// written sides: those are what reads back and what an edit changes, and the edited claim is
/// read through the same rewrite.
struct Sides {
    left: String,
    right: String,
}

impl Sides {
    fn of(claim: &Claim) -> Option<Sides> {
        let (lhs, rhs) = claim.written_sides();
        let text = |e: &Expr| claim.tex.get(e.span.start..e.span.end).map(str::to_string);
        let (left, right) = (text(lhs)?, text(rhs)?);
        let written = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
        let reads_back = |tex: &str, e: &Expr| parse_side(tex).is_some_and(|p| written(&p) == written(e));
        (reads_back(&left, lhs) && reads_back(&right, rhs)).then_some(Sides { left, right })
    }

    /// The claim with its right side replaced by the edit, parsed whole so every span is its own.
    fn with_right(&self, claim: &Claim, edit: &Edit) -> Option<Claim> {
        Self::claim(claim, &self.left, &edit.tex)
    }

    /// The claim with its left side replaced by the edit.
    fn with_left(&self, claim: &Claim, edit: &Edit) -> Option<Claim> {
        Self::claim(claim, &edit.tex, &self.right)
    }

    fn claim(claim: &Claim, left: &str, right: &str) -> Option<Claim> {
        let tex = format!("{left}={right}");
        let statement = crate::syntax::parse_formula(&tex).ok()?;
        let [chain] = statement.chains.as_slice() else { return None };
        let (Some(lhs), [link]) = (&chain.first, chain.links.as_slice()) else { return None };
        Some(claim.with_written_sides(lhs, &link.rhs, tex))
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

/// The terms of every sum the section's claims write, anywhere in either side (as TeX, each
/// once, numbers, ellipses and long terms left out): what a repair may add to a side that dropped one.
pub(super) fn section_terms(plan: &SectionPlan) -> Vec<String> {
    const MOST: usize = 24;
    const LONGEST: usize = 60;
    fn walk(tex: &str, e: &Expr, out: &mut Vec<String>) {
        for term in sum_terms(e) {
            let operand = match &term.kind {
                ExprKind::Neg { operand } => operand,
                _ => term,
            };
            let Some(text) = tex.get(operand.span.start..operand.span.end) else { continue };
            // An added `\ldots` would only loosen the claim (older terms may then differ).
            let trivial =
                matches!(operand.kind, ExprKind::Number { .. } | ExprKind::Ellipsis) || text.chars().count() > LONGEST;
            if !trivial && !out.iter().any(|t| t == text) {
                out.push(text.to_string());
            }
        }
        for c in e.children() {
            walk(tex, c, out);
        }
    }
    let mut out = Vec::new();
    for claim in &plan.claims {
        let (lhs, rhs) = claim.written_sides();
        walk(&claim.tex, lhs, &mut out);
        walk(&claim.tex, rhs, &mut out);
    }
    out.truncate(MOST);
    out
}

/// The letters (as written, `y_i`) that `from` writes and `into` does not (by their base
/// letter), three at most: what a slip may have dropped from `into`.
fn letters_lacking(tex: &str, from: &Expr, into: &Expr) -> Vec<String> {
    fn walk<'e>(e: &'e Expr, out: &mut Vec<(String, &'e Expr)>) {
        match &e.kind {
            ExprKind::Symbol(s) => out.push((s.key(), e)),
            ExprKind::Subscript { base, .. } => {
                if let ExprKind::Symbol(s) = &base.kind {
                    out.push((s.key(), e));
                }
            }
            _ => e.children().for_each(|c| walk(c, out)),
        }
    }
    let (mut written, mut there) = (Vec::new(), Vec::new());
    walk(from, &mut written);
    walk(into, &mut there);
    let mut out: Vec<String> = Vec::new();
    for (key, e) in written {
        let text = tex.get(e.span.start..e.span.end).map(str::trim).unwrap_or("");
        let letter = key.chars().count() == 1 && key.chars().all(char::is_alphabetic);
        if letter && !there.iter().any(|(k, _)| *k == key) && !text.is_empty() && !out.iter().any(|o| o == text) {
            out.push(text.to_string());
        }
    }
    out.truncate(3);
    out
}

/// The plain letters a claim writes (not bold, no matrix, no function, no index), as TeX:
/// factors a repair may put before a term that lost one.
fn scalar_letters(claim: &Claim, letters: &LettersOf) -> Vec<String> {
    use super::edits::Knows;
    fn walk(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Symbol(symbol) = &e.kind {
            if symbol.style.is_none() && symbol.accents.is_empty() && symbol.label.is_none() {
                let tex =
                    if symbol.name.chars().count() > 1 { format!("\\{}", symbol.name) } else { symbol.name.clone() };
                if !out.contains(&tex) {
                    out.push(tex);
                }
            }
        }
        let index = |c: &Expr| matches!(&e.kind, ExprKind::Subscript { index, .. } if std::ptr::eq(index.as_ref(), c));
        for c in e.children().filter(|c| !index(c)) {
            walk(c, out);
        }
    }
    let mut out = Vec::new();
    let (lhs, rhs) = claim.written_sides();
    walk(lhs, &mut out);
    walk(rhs, &mut out);
    out.retain(|l| {
        !letters.matrix(l) && !letters.function(l) && !letters.indices.contains(l) && parse_side(l).is_some()
    });
    out.truncate(6);
    out
}

#[cfg(test)]
mod tests {
    use super::drops_an_index_letter;

    fn side(tex: &str) -> crate::syntax::ast::Expr {
        crate::syntax::parse_formula(tex).unwrap().chains.remove(0).first.unwrap()
    }

    #[test]
    fn an_edit_that_strips_an_index_of_its_letter_is_told_apart() {
        let written = side(r"\gamma^2 \mathbf{g}_{t-2} + \mathbf{g}_{t}");
        assert!(drops_an_index_letter(&written, &side(r"\gamma^2 \mathbf{g}_{-2} + \mathbf{g}_{t}")));
        // Squaring a term, or dropping a whole term, keeps every index as it was.
        assert!(!drops_an_index_letter(&written, &side(r"\gamma^2 \mathbf{g}_{t-2}^2 + \mathbf{g}_{t}")));
        assert!(!drops_an_index_letter(&written, &side(r"\mathbf{g}_{t}")));
        // Another letter in its place is an edit of the index, not a loss.
        assert!(!drops_an_index_letter(&written, &side(r"\gamma^2 \mathbf{g}_{s-2} + \mathbf{g}_{t}")));
    }
}
