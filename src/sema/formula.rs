//! One formula of a section: its role from the words before it, its chains, and its conditions.

use super::bindings::origin_text;
use super::builder::{Reach, SectionBuilder, Step};
use super::chains::{equations_between_comparisons, flatten_environments, nested_relations, split_at_implications};
use super::claim::{Origin, ParsedFormula, Skipped};
use super::cues::Prose;
use super::declarations::{shape_declaration, shape_declarations};
use super::distributions;
use super::forms::{alternative_definitions, chain_keys, collect_keys, is_event, numbers_only};
use super::roles;

use crate::notes::Mark;
use crate::syntax::ast::{BinOp, Chain, Expr, ExprKind, RelOp};
use std::collections::BTreeSet;

impl<'a> SectionBuilder<'a> {
    pub(super) fn add_formula(&mut self, f: &ParsedFormula, step: Step) {
        use crate::model::FormulaRole;
        let site = &self.chapter.doc.formulas[f.index];
        // Another example opens here, or the text turns general: the open example's values end.
        if step.ends_example {
            let before = site.block.saturating_sub(1);
            self.bindings.given.iter_mut().filter(|g| g.open_example()).for_each(|g| g.until = Some(before));
        }
        // The author's mark settles what the formula is for.
        match site.mark {
            Some(Mark::Skip) => {
                self.out.skipped.push(Skipped { formula: site.id.clone(), reason: crate::model::SkipReason::Marked });
                self.out.roles.push((site.id.clone(), FormulaRole::Ignored));
                return;
            }
            Some(Mark::Condition) => {
                self.out.roles.push((site.id.clone(), FormulaRole::Condition));
                return;
            }
            _ => {}
        }
        if let Some(ignore) = self.spec.as_ref().and_then(|s| s.ignore.iter().find(|i| i.tex.trim() == site.tex.trim()))
        {
            let reason = crate::model::SkipReason::Ignored { because: ignore.reason.clone() };
            self.out.skipped.push(Skipped { formula: site.id.clone(), reason });
            self.out.roles.push((site.id.clone(), FormulaRole::Ignored));
            return;
        }
        // `$\|\mathbf A\|_F=\ldots$ 改为 $\|\mathbf A\|_F^2=\ldots$`: an erratum quotes the wrong text;
        // `this does not mean $\det(A+B) = \det A + \det B$`: the words deny it.
        let skipped = if roles::replaced_by_next(&site.trail) {
            Some(crate::model::SkipReason::Replaced)
        } else {
            roles::denies(&site.lead).then_some(crate::model::SkipReason::Denied)
        };
        if let (None, Some(reason)) = (site.mark, skipped) {
            self.out.skipped.push(Skipped { formula: site.id.clone(), reason });
            self.out.roles.push((site.id.clone(), FormulaRole::NotChecked));
            return;
        }
        let before = (self.out.claims.len(), self.bindings.definitions_made, self.out.skipped.len());
        self.current.formula_role = None;
        self.current.reach = step.reach;
        self.current.small = self.small_letter(f.index);
        self.current.supposed = self.supposed_around(f.index);
        let stated_before = self.bindings.stated.len();
        self.add_chains(f);
        // `solve this … to get $p_0 = 4.41$ and $p_1 = 1.18$`: values checked in the equations.
        if self.out.claims.len() == before.0 {
            self.add_solution_claims(f, stated_before);
        }
        self.current.reach = Reach::Section;
        self.current.small = None;
        self.current.supposed = None;
        let chains = &f.statement.chains;
        let role = if let Some(role) = self.current.formula_role.take().filter(|_| self.out.claims.len() == before.0) {
            role
        } else if self.out.claims.len() > before.0 {
            FormulaRole::Claims
        } else if self.bindings.definitions_made > before.1 || !shape_declarations(f.statement).is_empty() {
            FormulaRole::Definition
        } else if self.out.skipped.len() > before.2 {
            FormulaRole::NotChecked
        } else if chains.iter().flat_map(Chain::exprs).all(numbers_only) {
            FormulaRole::Printed
        } else {
            FormulaRole::Mention
        };
        self.out.roles.push((site.id.clone(), role));
    }

    /// How far the definitions of each of `formulas` reach, from the words before it: a worked
    /// example opens (`For example`, `Returning to our example`, `例如`) and lasts until the next
    /// one or until the text turns general (`in general`, `for any`), and takes the values its
    /// sentences gave (inline formulas; a display defines for the section) with it; a formula
    /// offered in passing (`like $X = Y^2$`) defines for its paragraph only. A worked example,
    /// exercise, solution or proof that a MyST directive boxes is an example from its first
    /// formula to its last, displays and all. Where a spec entry pins the section, or the author
    /// marks the formula, every definition is the section's.
    pub(super) fn example_steps(&self, formulas: &[&ParsedFormula]) -> Vec<Step> {
        let mut in_example = false;
        let mut last_box = None;
        formulas
            .iter()
            .map(|f| {
                let site = &self.chapter.doc.formulas[f.index];
                let (boxed, left_box) = (site.worked_box, last_box.is_some() && site.worked_box != last_box);
                let opens = (boxed.is_some() && boxed != last_box) || roles::opens_example(&site.since_previous);
                last_box = boxed;
                let turns_general = boxed.is_none() && roles::turns_general(&site.since_previous);
                let ends_example = opens || left_box || (in_example && turns_general);
                in_example = opens || (in_example && !ends_example);
                let reach = if self.pinned || site.mark.is_some() {
                    Reach::Section
                } else if roles::in_passing(&site.lead) {
                    Reach::Paragraph(site.block)
                } else if boxed.is_some() {
                    Reach::Boxed
                } else if in_example && !site.display {
                    // (A display stands apart from the example's sentences: `Putting these two
                    // pieces together gives us the softmax function:` then the definition, for
                    // the section.)
                    Reach::Example
                } else {
                    Reach::Section
                };
                Step { reach, ends_example }
            })
            .collect()
    }

    /// The claims and definitions of one formula's chains.
    pub(super) fn add_chains(&mut self, f: &ParsedFormula) {
        let site = &self.chapter.doc.formulas[f.index];
        let (chains, follows) = split_at_implications(flatten_environments(&f.statement.chains, &site.tex));
        let chains = equations_between_comparisons(chains);
        let conditions: Vec<Chain> = chains.iter().filter(|c| self.is_condition(c)).cloned().collect();
        let range = (site.tex_range.start, site.tex_range.end);
        let origin = Origin::Notes { formula: site.id.clone(), line: site.line, col: site.col, range };
        let equations: Vec<&Chain> = chains.iter().filter(|c| !self.is_condition(c)).collect();
        let (mut after_condition, mut premise_defines) = (false, false);
        let mut written = BTreeSet::new();
        f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| collect_keys(e, &mut written));
        let constants = self.constants_named_before(f.index, &written);
        let random = self.random_variables_named_before(f.index);
        let classes = self.matrix_classes_named_before(f.index);
        let kinds = self.kinds_named_before(f.index);
        let alternatives = alternative_definitions(&equations, &site.tex);
        self.index_conditions_at(site, &conditions, equations.is_empty());
        for (k, chain) in equations.iter().enumerate() {
            let id = if equations.len() == 1 { site.id.clone() } else { format!("{}.{}", site.id, k + 1) };
            if alternatives.contains(&k) {
                self.out.skipped.push(Skipped { formula: id, reason: crate::model::SkipReason::DefinitionNotTaken });
                continue;
            }
            if chain.links.is_empty() {
                if equations.len() == 1 && self.binding_in_words(chain, site) {
                    self.current.formula_role = Some(crate::model::FormulaRole::Binding);
                }
                if let Some(env) = chain.first.as_ref().and_then(nested_relations) {
                    self.out
                        .skipped
                        .push(Skipped { formula: id, reason: crate::model::SkipReason::NestedRelations { env } });
                }
                continue;
            }
            if shape_declaration(chain).is_some() {
                // A declaration, read by `plan`; `\boldsymbol\eta = [\eta_1; \eta_2] = [a; b]` also
                // gives each entry its value.
                if let [own, value, ..] = chain.links.as_slice() {
                    self.define_entries(&own.rhs, &value.rhs, &origin_text(&origin, &self.chapter.doc.path));
                }
                // (A picture by the entries of one letter names them: `a_{ij}` is entry (i, j).)
                if let (Some(first), [link]) = (&chain.first, chain.links.as_slice()) {
                    self.define_pictured_entries(first, &link.rhs, &origin_text(&origin, &self.chapter.doc.path));
                }
                continue;
            }
            if let ([link], Some(first)) = (chain.links.as_slice(), &chain.first) {
                if link.op == RelOp::Assign && self.add_recurrence(first, &link.rhs, site.line, true) {
                    continue;
                }
            }
            // `X \sim \mathrm{Bernoulli}(p)`: X's mean and standard deviation are the table's.
            // (The words may settle a name with two readings: `U(n)` under `Discrete Uniform`.)
            let words = || format!("{}\n{}\n{}", self.section_title(site), site.since_previous, site.lead);
            let stated = chain.links.iter().any(|l| l.op == RelOp::Sim);
            if let Some(named) = stated.then(|| distributions::named_distribution_in(chain, &words())).flatten() {
                self.add_distribution(&named, &origin_text(&origin, &self.chapter.doc.path));
                continue;
            }
            if chain.links.iter().any(|l| !matches!(l.op, RelOp::Eq | RelOp::Approx | RelOp::Define)) {
                // `若 $A \sim B$，则`: a supposition the claims after it rest on.
                let unmodelled = |op: RelOp| {
                    matches!(
                        op,
                        RelOp::Sim
                            | RelOp::Simeq
                            | RelOp::Equiv
                            | RelOp::Perp
                            | RelOp::Parallel
                            | RelOp::Succeq
                            | RelOp::Preceq
                    )
                };
                // (`X \sim \chi^2(n)`, `X \sim N(0, 1)`: a distribution, read elsewhere or not at
                // all; a relation is between letters, `A \sim B`, `A^\top \sim B^\top`.)
                let between_letters = |e: &Expr| {
                    matches!(e.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Transpose { .. })
                        || matches!(&e.kind, ExprKind::Power { base, .. } if matches!(base.kind, ExprKind::Symbol(_)))
                };
                let supposed = matches!(roles::cue(&site.lead), roles::Cue::Condition);
                if supposed && chain.links.iter().any(|l| unmodelled(l.op) && between_letters(&l.rhs)) {
                    self.words.hypotheses.push((chain_keys(chain), site.tex.trim().to_string()));
                }
                self.out.skipped.push(Skipped { formula: id, reason: crate::model::SkipReason::NotAnEquation });
                continue;
            }
            // `t = s, \cdots, 2, 1`, `\mathbf x = x_1, \ldots, x_d`: a list of the values t runs
            // through (of the entries of x), dots among them; `x_1 = \frac{D_1}{D}, \cdots` is not.
            let value =
                |e: &Expr| matches!(e.kind, ExprKind::Symbol(_) | ExprKind::Number { .. } | ExprKind::Subscript { .. });
            let dots = |c: &&Chain| {
                c.links.is_empty() && c.first.as_ref().is_some_and(|f| matches!(f.kind, ExprKind::Ellipsis))
            };
            let listed = |c: &&Chain| dots(c) || (c.links.is_empty() && c.first.as_ref().is_some_and(value));
            let enumerates = matches!((&chain.first, chain.links.as_slice()), (Some(first), [link])
                if value(first) && value(&link.rhs));
            if enumerates && equations.get(k + 1).is_some_and(dots) && equations[k + 1..].iter().all(listed) {
                self.out.skipped.push(Skipped { formula: id, reason: crate::model::SkipReason::Enumeration });
                continue;
            }
            // `u = u(x)`: u depends on x.
            if roles::declares_dependence(chain) {
                self.out.skipped.push(Skipped { formula: id, reason: crate::model::SkipReason::Dependence });
                continue;
            }
            // `[a_{11}-r_1, a_{11}+r_1] = [0.7, 1.3]`: intervals on every side are equal when their
            // endpoints are; an interval beside anything else is not read.
            if chain.exprs().any(roles::is_interval_like) && !roles::intervals_compared(chain) {
                self.out.skipped.push(Skipped { formula: id, reason: crate::model::SkipReason::Interval });
                continue;
            }
            // Words written between this relation and the one before it in the same formula
            // (`…, \textrm{ where } \sum_i p_i = 1`) are its lead; otherwise the sentence's.
            let follows_here = follows.contains(&chain.span.start);
            let between = k.checked_sub(1).and_then(|p| site.tex.get(equations[p].span.end..chain.span.start));
            let words = between.map(roles::words_in_formula).unwrap_or_default();
            let lead = if words.is_empty() { site.lead.clone() } else { format!("{} $ {words}", site.lead) };
            let prose = Prose {
                constants: &constants,
                random: &random,
                classes: &classes,
                kinds: &kinds,
                lead: &lead,
                block: site.block,
                in_item: site.in_item,
                point: roles::names_a_point(&lead, &site.trail),
                cue: self.cue_of(&lead, f.index),
                mark: site.mark,
                // (What follows an implication follows from its premise: refuted only where the
                // premise gave a meaning, a definition; after a premise that is itself an
                // equation or a claim, a false step may still follow from it.)
                after_condition: after_condition || (follows_here && !premise_defines),
                follows: follows_here,
                premise: follows_here.then(|| self.premise_of(&chains, chain)).flatten(),
                function: roles::function_named(&format!("{}\n{lead}", self.section_title(site))),
                substitutes: roles::substitutes_elsewhere(&site.context) || self.renamed_before(f.index),
            };
            let before = self.out.claims.len();
            self.chain_claims(chain, &id, &site.tex, origin.clone(), &conditions, Some(prose));
            if !follows_here {
                premise_defines = self.out.claims.len() == before && self.defines_at(&origin);
            }
            // `… = 0 \textrm{ and hence } \mathbf X^\top\mathbf y = …`: what follows a condition in
            // the same formula follows from it.
            after_condition |= self.out.claims[before..]
                .iter()
                .any(|c| c.reading.alternative.as_ref().is_some_and(|o| o.role == super::claim::WordsRole::Condition));
        }
    }

    /// What `chain`, written after an implication, follows from: the relation just before it
    /// among all of `chains` (the formula's); none where that is a condition on indices (`i = j
    /// \implies …`).
    fn premise_of<'c>(&self, chains: &'c [Chain], chain: &Chain) -> Option<&'c Chain> {
        chains.iter().rev().find(|c| c.span.end <= chain.span.start).filter(|c| !self.is_condition(c))
    }

    /// The title of the section the formula at `site` stands in.
    fn section_title(&self, site: &crate::notes::FormulaSite) -> &str {
        site.section.map_or("", |i| self.chapter.doc.sections[i].title.as_str())
    }

    /// Did the formula at `origin` give a letter a meaning (a definition, or a value)?
    fn defines_at(&self, origin: &Origin) -> bool {
        let here = origin_text(origin, &self.chapter.doc.path);
        self.bindings.defs.iter().any(|d| d.origin == here)
            || self.bindings.given.iter().any(|g| g.definition.origin == here)
    }

    /// `如果$i\neq j$，则`, `if $i = j$`: a relation among indices alone (the formula's
    /// `conditions`, with no equation beside them), in words of condition, restricts the indices
    /// of the claims after it, in this paragraph and the next; a newer one on the same letters
    /// replaces it (`如果$i=j$ … 如果$i\neq j$`: cases one after the other). Sets the conditions
    /// in force for the formula at `site`.
    fn index_conditions_at(&mut self, site: &crate::notes::FormulaSite, conditions: &[Chain], alone: bool) {
        if alone && !conditions.is_empty() && roles::cue(&site.lead) == roles::Cue::Condition {
            let new: BTreeSet<String> = conditions.iter().flat_map(chain_keys).collect();
            self.bindings.index_conditions.retain(|(_, c)| chain_keys(c).is_disjoint(&new));
            self.bindings.index_conditions.extend(conditions.iter().map(|c| (site.block, c.clone())));
            self.current.formula_role = Some(crate::model::FormulaRole::Condition);
        }
        self.current.index_conditions = self
            .bindings
            .index_conditions
            .iter()
            .filter(|(block, _)| *block <= site.block && site.block <= block + 1)
            .map(|(_, c)| c.clone())
            .collect();
    }

    /// A relation among index letters, numbers and sizes only, and not an equation: `k \ne j`,
    /// `j<1`, `i\le n`; or an index given a value, `j=1`; or an event, `A=a`.
    pub(super) fn is_condition(&self, chain: &Chain) -> bool {
        if is_event(chain) {
            return true;
        }
        fn integer_like(e: &Expr, letters: &[String], known: &[String]) -> bool {
            match &e.kind {
                ExprKind::Number { value } => !value.contains('.'),
                ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
                    integer_like(lhs, letters, known) && integer_like(rhs, letters, known)
                }
                _ => e.symbol_key().is_some_and(|k| letters.contains(&k) || known.contains(&k)),
            }
        }
        let sizes: Vec<String> = self.spec.as_ref().map(|s| s.sizes.keys().cloned().collect()).unwrap_or_default();
        // (`如果$i=j$`: a letter the section only writes as a subscript, `x_i`, is an index too,
        // though no sum runs over it.)
        let mut letters = self.letters.index_letters.clone();
        letters.extend(self.letters.subscript_letters.iter().filter(|l| self.index_like(l)).cloned());
        let uses_letter = chain.exprs().any(|e| e.symbol_key().is_some_and(|k| letters.contains(&k)));
        // `j=1` (as in `j=1,\dots,K` or `p_j=0,\ j=1`) names an index value; it claims nothing.
        let index_first = chain.first.as_ref().and_then(Expr::symbol_key).is_some_and(|k| letters.contains(&k));
        let relation = |op: RelOp| match op {
            RelOp::Ne | RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge => true,
            RelOp::Eq => index_first,
            _ => false,
        };
        !chain.links.is_empty()
            && uses_letter
            && chain.links.iter().all(|l| relation(l.op))
            && chain.exprs().all(|e| integer_like(e, &letters, &sizes))
    }

    /// A letter with no meaning ([`SectionBuilder::small_letter_unused`]) that is no size: one that
    /// may be an index where the section writes it as one.
    fn index_like(&self, letter: &str) -> bool {
        self.small_letter_unused(letter) && !self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(letter))
    }
}

#[cfg(test)]
mod tests {
    use crate::model::{FormulaRole, SkipReason};
    use crate::sema::testing::plans;

    #[test]
    fn a_formula_with_no_equation_to_check_is_skipped_saying_why() {
        let [less] = plans("## 1 S\n\n$$a < b$$\n").try_into().unwrap_or_else(|_| panic!("one section"));
        assert_eq!(less.roles, [("1#1".to_string(), FormulaRole::NotChecked)]);
        assert_eq!(less.skipped[0].reason, SkipReason::NotAnEquation);
        let cases = plans("## 1 S\n\n$$\\begin{cases} a = 1 \\\\ b = 2 \\end{cases}$$\n");
        assert_eq!(cases[0].skipped[0].reason, SkipReason::NestedRelations { env: "cases".into() });
        assert!(cases[0].claims.is_empty());
    }

    #[test]
    fn each_link_of_a_chain_is_a_claim_and_a_later_one_rewrites_the_side_before_it() {
        let plans = plans("## 1 S\n\n$$(x+1)^2 = x^2+2x+1 = (x+1)(x+1)$$\n");
        assert_eq!(plans[0].roles, [("1#1".to_string(), FormulaRole::Claims)]);
        let links: Vec<(&str, bool)> = plans[0].claims.iter().map(|c| (c.id.as_str(), c.reading.rewrites)).collect();
        assert_eq!(links, [("1#1.1", false), ("1#1.2", true)]);
    }
}
