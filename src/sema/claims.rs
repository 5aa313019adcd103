//! The claims of one chain: which links define or bind (and are taken), and a claim for each
//! link after them, with its reading and position.

use super::bindings::{notes_definition, origin_text};
use super::builder::SectionBuilder;
use super::chains::{bare_letter, claim_kind, leading_names, mentions_key, writes_key};
use super::claim::{read_sides, Claim, Origin, Skipped, WordsReading, WrittenSides};
use super::cues::Prose;
use super::forms::{
    chain_keys, depicts_a_general_matrix, depicts_blocks, family_of_functions_defined, gives_a_distribution,
    values_written_next, GREEK_LETTERS,
};
use super::recurrence;
use super::roles;

use super::readings::LinkAt;
use super::scope::Assumption;
use crate::notes::Mark;
use crate::syntax::ast::{Chain, Expr, ExprKind, RelOp};
use crate::syntax::print;

impl<'a> SectionBuilder<'a> {
    /// The first link may define its left side, bind it, or give it a new meaning; every other
    /// link is a claim. `prose` (for the notes' formulas, not the spec's) is what the words
    /// around the formula say.
    pub(super) fn chain_claims(
        &mut self,
        chain: &Chain,
        id: &str,
        tex: &str,
        origin: Origin,
        conditions: &[Chain],
        prose: Option<Prose>,
    ) {
        let Some(first) = &chain.first else { return };
        let site_origin = origin_text(&origin, &self.chapter.doc.path);
        // A claim about a sequence defined by recursion in this section (`m_t = …` after `m_t
        // \leftarrow …`) is read as written too: it defines nothing. An update of an earlier
        // section's sequence (Adam's v after momentum's) is a new one.
        let marked = prose.as_ref().is_some_and(Prose::marked_claim);
        let here = recurrence::defining(first, &self.bindings.recurrences).is_some_and(|r| r.section == self.number);
        // `除非$\mu=\bar{x}$，否则…`: the exception, read as written: a condition by its words,
        // never a value for what follows.
        let excepted = prose.as_ref().is_some_and(Prose::excepts);
        let follows = prose.as_ref().is_some_and(|p| p.follows);
        let as_written = marked || excepted || follows || (chain.links[0].op != RelOp::Define && here);
        let site = ChainSite { chain, first, id, tex, origin: &origin, conditions, prose: &prose, marked };
        let Some((skip, alternative)) = self.taken_links(&site, &site_origin, as_written) else { return };
        self.link_claims(&site, skip, alternative);
    }

    /// How many of the chain's first links are taken (a binding, a definition, a recurrence, an
    /// example definition) and another reading the first leaves open; `None` where the formula
    /// is no claim at all (one case of a function defined by cases).
    fn taken_links(
        &mut self,
        site: &ChainSite,
        site_origin: &str,
        as_written: bool,
    ) -> Option<(usize, Option<WordsReading>)> {
        let ChainSite { chain, first, id, origin, prose, .. } = *site;
        // Links before `skip` are taken (a definition, a binding, an example definition).
        let mut skip = 0;
        let mut alternative = None;
        // `h(x) = (x/c)^\alpha$ if $x < c$; otherwise $h(x) = 1`: one case of a function defined by
        // cases in the words. Neither case is the function: the letter loses its meaning for the
        // section, and this formula is no claim.
        let another_case = prose.as_ref().is_some_and(|p| roles::opens_another_case(p.lead) && !p.marked_claim());
        if let Some((key, _)) = self.function_target(first).filter(|_| another_case && !self.pinned) {
            let earlier = self.bindings.defs.iter().any(|d| d.key == key)
                || self.bindings.given.iter().any(|g| g.definition.key == key);
            if earlier {
                self.bindings.defs.retain(|d| d.key != key);
                self.bindings.given.retain(|g| g.definition.key != key);
                self.letters.known.retain(|k| *k != key);
                self.out
                    .skipped
                    .push(Skipped { formula: id.to_string(), reason: crate::model::SkipReason::DefinitionNotTaken });
                return None;
            }
        }
        if let Some(prose) = prose.as_ref().filter(|_| !as_written) {
            if let Some(bound) = self.binding(chain, prose, site_origin) {
                skip = bound;
                self.current.formula_role = Some(crate::model::FormulaRole::Binding);
            }
        }
        if let (0, Some(prose)) = (skip, &prose) {
            if self.conditional_definition(first, &chain.links[0].rhs, prose, site_origin) {
                skip = 1;
                self.current.formula_role = Some(crate::model::FormulaRole::Binding);
            }
        }
        // `m_t = \beta m_{t-1} + (1-\beta) g_t` defines m by recursion, unless m already is.
        if let (0, false, Some(_), Origin::Notes { line, .. }) = (skip, as_written, &prose, &origin) {
            if chain.links[0].op != RelOp::Approx && self.add_recurrence(first, &chain.links[0].rhs, *line, false) {
                skip = 1;
            }
        }
        // `if $x_k=1$`, `如果令某个$x_k=1$`: one member of a family set to a value (or under a
        // condition), which defines nothing: which member, or all of them?
        let constant = roles::is_constant(&chain.links[0].rhs, &|_| false);
        let family_member = (constant || prose.as_ref().is_some_and(Prose::conditional))
            && prose.is_some()
            && self.function_target(first).is_none()
            && self.definable(first).is_some_and(|(_, params)| !params.is_empty());
        if skip == 0 && !as_written && !family_member {
            (skip, alternative) = self.define_first_link(site, site_origin);
        }
        Some((skip, alternative))
    }

    /// The first link's left side given a meaning by the link, where the text allows: a picture
    /// of a matrix, a definition (or one restated), a letter named right to left, a definition
    /// declined (no claim either), an example definition. How many links that takes, and
    /// another reading the first link leaves open.
    fn define_first_link(&mut self, site: &ChainSite, site_origin: &str) -> (usize, Option<WordsReading>) {
        let ChainSite { chain, first, id, prose, .. } = *site;
        if let Some(skip) = self.define_names(site, site_origin) {
            return (skip, None);
        }
        let (mut skip, mut alternative) = (0, None);
        // `\mathbf A = \begin{bmatrix} a_{11} & \cdots \\ \vdots & \ddots \end{bmatrix}`: a picture
        // of a general matrix, not a value; A stays what its declaration or its uses make it.
        let body = &chain.links[0].rhs;
        let pictured = depicts_a_general_matrix(body);
        let blocks = pictured && depicts_blocks(body);
        let depicted = prose.is_some()
            && pictured
            && !blocks
            && self.function_target(first).is_none()
            && self.definable(first).is_some_and(|(_, params)| params.is_empty());
        // (`p_X(x) \approx \sum_i \epsilon p_{X, Y}(x, \epsilon i)` approximates; it defines no function.)
        let approximates = chain.links[0].op == RelOp::Approx && self.function_target(first).is_some();
        // `\mathbf A = \begin{bmatrix}\mathbf a_1^\top \\ \vdots \\ \mathbf a_m^\top\end{bmatrix}`: A is
        // made of its rows (a value in them), though its declaration gave it a shape already —
        // in this section; a later one (the exercises) speaks of matrices in general.
        let by_blocks = (prose.is_some() && blocks && matches!(first.kind, ExprKind::Symbol(_)))
            .then(|| first.symbol_key())
            .flatten()
            .filter(|key| !self.bindings.defs.iter().any(|d| d.key == *key) && !mentions_key(body, key));
        if let Some(key) = &by_blocks {
            self.record(notes_definition(key.clone(), Vec::new(), body, site_origin, false, true));
        }
        // `$\overline{X} = \frac1n\sum_i X_i$` again, twenty lines after `样本均值：` gave it: a
        // definition recalled, written as it was, is a definition still, not a claim verified.
        let restated = prose.as_ref().is_some_and(|p| p.cue != roles::Cue::Assert)
            && chain.links[0].op == RelOp::Eq
            && first.symbol_key().is_some_and(|key| {
                if self.bindings.moments_given.contains(&key) {
                    return false;
                }
                let written = print::explicit_tex(body, &|_| false);
                self.bindings
                    .defs
                    .iter()
                    .any(|d| d.key == key && d.params.is_empty() && print::explicit_tex(&d.body, &|_| false) == written)
            });
        // `即$m=n$` where m bounds a sum and n is new: the sizes are equal, n named by m (as
        // written right to left), so m keeps its values.
        let size_named = prose.is_some()
            && chain.links.len() == 1
            && chain.links[0].op == RelOp::Eq
            && self.names_a_size_by_a_size(first, body, site_origin);
        // (A function the section defined before is restated or redefined here, not derived.)
        let function_had_meaning = self.function_target(first).is_some() && self.has_meaning(first);
        let mut defined = depicted
            || by_blocks.is_some()
            || restated
            || size_named
            || (prose.is_some() && !approximates && self.try_define(first, body, site_origin, true));
        if restated {
            self.current.formula_role = Some(crate::model::FormulaRole::Definition);
        }
        // `得到 $Z = \sum_k \exp(w_k\cdot x)$`: a definition the words present as derived.
        if defined && !restated && prose.as_ref().is_some_and(|p| p.cue == roles::Cue::Assert) {
            // (`即 $f(x) = x^2 + 2x$`: a function so defined is derived as much as a letter.)
            let function = || self.function_target(first).filter(|_| !function_had_meaning);
            let key = self.definable(first).or_else(function).map(|(key, _)| key);
            if let Some(key) = key {
                self.bindings.derived.insert(key);
            }
        }
        // `\sum_{i=1}^N l_i = l`, `\sum_j y_j = m`: a new letter alone on the right, with an
        // expression that does not use it on the left, is named by the equation (written
        // right to left).
        let letter = |e: &Expr| {
            matches!(&e.kind, ExprKind::Symbol(s) if !s.is_bold_one()
                && (s.name.chars().count() == 1 && s.name.chars().all(char::is_alphabetic)
                    || GREEK_LETTERS.contains(&s.name.as_str())))
        };
        let lone_new = |e: &Expr| {
            letter(e)
                && e.symbol_key().is_some_and(|k| {
                    !self.letters.known.contains(&k) && !self.letters.written.contains(&k) && !mentions_key(first, &k)
                })
        };
        if !defined && prose.is_some() && chain.links.len() == 1 && chain.links[0].op == RelOp::Eq {
            let rhs = &chain.links[0].rhs;
            if lone_new(rhs) && self.definable(first).is_none() && !roles::is_constant(first, &|_| false) {
                defined = self.try_define(rhs, first, site_origin, true);
            }
        }
        // `\hat\sigma^2 \stackrel{def}{=} …`, `a_{ij} := …` that cannot be taken: the author
        // defines, so it is no claim; it is listed as not checked.
        // `\phi_i(x) = \exp(-(x-c_i)^2)`: a family of functions defined member by member,
        // which derivcheck does not take; the author defines, so it is no claim either.
        // (`f_m(x) = f_{m-1}(x) + \alpha_m G_m(x)`: a recurrence, each member from the one before,
        // defines the family too; the same member on both sides is an equation.)
        let family = prose.is_some()
            && !self.has_meaning(first)
            && !roles::is_constant(body, &|_| false)
            && family_of_functions_defined(first)
                .is_some_and(|head| !mentions_key(body, &head) || super::forms::only_other_members(body, &head, first));
        // `\textrm{pmi}(x, y) = \log\frac{p_{X, Y}(x, y)}{p_X(x) p_Y(y)}`: a name the section has
        // not written before, given a body derivcheck cannot take (a construct outside the
        // notation, parameters it does not read): the author names something, which is no
        // claim either, unless the words say it is stated as true.
        let fresh = prose.as_ref().is_some_and(|p| p.cue != roles::Cue::Assert && p.cue != roles::Cue::Condition)
            && chain.links[0].op == RelOp::Eq
            && !roles::is_constant(body, &|_| false)
            && self.fresh_name(first).is_some_and(|head| !mentions_key(body, &head));
        // `p_X(x) = \frac{1}{\sqrt{2\pi}} e^{-x^2/2}`, `P(X = 1, Y = -1) = \frac{p}{2}`: the
        // distribution of an example, given; no claim about a distribution written elsewhere.
        let given_distribution = prose.is_some()
            && chain.links.len() == 1
            && chain.links[0].op == RelOp::Eq
            && gives_a_distribution(first, body);
        let chosen = prose.as_ref().is_some_and(|p| self.set_by_choosing(first, chain, p));
        let declined =
            !defined && (chain.links[0].op == RelOp::Define || family || fresh || given_distribution || chosen);
        if declined {
            self.out
                .skipped
                .push(Skipped { formula: id.to_string(), reason: crate::model::SkipReason::DefinitionNotTaken });
        }
        if defined || declined {
            skip = 1;
            // `定义 $u = f(x) = 3x^2 - 4x$`, `let $y = f(x) = x^3$`: the middle names a function the
            // section gives no meaning yet, and words that define make the chain define it too.
            let define = prose.as_ref().is_some_and(|p| p.cue == roles::Cue::Define);
            if let ([named, value, ..], true) = (chain.links.as_slice(), defined && define) {
                let fresh = self
                    .function_target(&named.rhs)
                    .is_some_and(|(key, _)| !self.has_meaning(&named.rhs) && !self.letters.known.contains(&key));
                if fresh
                    && matches!(value.op, RelOp::Eq | RelOp::Define)
                    && self.try_define(&named.rhs, &value.rhs, site_origin, true)
                {
                    skip = 2;
                }
            }
        } else if let Some(prose) = &prose {
            match self.example_definition(first, &chain.links[0].rhs, prose, site_origin) {
                Some(Ok(())) => {
                    skip = 1;
                    self.current.formula_role = Some(crate::model::FormulaRole::ExampleDefinition);
                }
                Some(Err(other)) => alternative = Some(other),
                None => {}
            }
        }
        (skip, alternative)
    }

    /// `we let $c_{-1} = c_{n-1}$`, `令$x_n = \frac{x_n-\mu_n}{s_n}$`: a relation a verb of
    /// choosing governs is what the author sets (a convention, a value chosen), not a claim, even
    /// where derivcheck cannot take it as a definition. Only of a member or an entry written with
    /// a subscript, or a name applied to what is no parameter: a letter or a function is defined,
    /// or given an example, elsewhere; an expression so set, `令 $1-\kappa = 1/\vartheta$`, is a
    /// condition the claims after it use.
    fn set_by_choosing(&self, first: &Expr, chain: &Chain, prose: &Prose) -> bool {
        let named = matches!(first.kind, ExprKind::Subscript { .. })
            || (matches!(first.kind, ExprKind::Apply { .. }) && self.function_target(first).is_none());
        prose.chooses() && chain.links.len() == 1 && named
    }

    /// `\text{Error}=E=-\sum_i t_i\log x_i`: names the section gives no meaning yet, each set
    /// equal to the next before a value, name one quantity (words that assert or suppose aside): no
    /// claim, and each letter among them is defined as the value. How many links that takes.
    fn define_names(&mut self, site: &ChainSite, origin: &str) -> Option<usize> {
        let prose = site.prose.as_ref()?;
        if matches!(prose.cue, roles::Cue::Assert | roles::Cue::Condition) {
            return None;
        }
        let (names, value_at) = leading_names(site.chain)?;
        let value = &site.chain.links[value_at].rhs;
        let mut letters = Vec::new();
        for name in &names {
            if matches!(name.kind, ExprKind::Text { .. }) {
                continue;
            }
            let (key, params) = self.definable(name)?;
            let new = params.is_empty() && !self.has_meaning(name) && !mentions_key(value, &key);
            if !new {
                return None;
            }
            letters.push(*name);
        }
        let mut defined = false;
        for name in letters {
            defined |= self.try_define(name, value, origin, true);
        }
        defined.then_some(value_at + 1)
    }

    /// `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial
    /// x_i} = \delta y_i\frac{\partial y_i}{\partial x_i}`: a step of a derivation that renames a
    /// derivative in the expression before it by a letter no formula of the section has written
    /// ([`forms::named_by_substitution`]) introduces that name, as `\delta y_i :=
    /// \frac{\partial E}{\partial y_i}` would: a definition from here on, and no claim. Recorded
    /// where the name can be defined.
    fn named_here(&mut self, before: &Expr, step: &Expr, origin: &Origin, id: &str) -> bool {
        // (A shape the words or later uses give the name, `\delta y \odot y`, is no value: the
        // name's entries are what the step gives.)
        let is_new = |e: &Expr| {
            let keys = super::bindings::keys_of_letter(e);
            let written = |k: &String| {
                self.letters.written.contains(k)
                    || self.letters.index_letters.contains(k)
                    || self.spec.as_ref().is_some_and(|spec| spec.sizes.contains_key(k))
                    || super::bindings::NEVER_NEW.contains(&k.as_str())
            };
            let letter = matches!(e.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. });
            letter && !self.pinned && !keys.is_empty() && !keys.iter().any(written) && !self.has_value(e)
        };
        let Some((name, part)) = super::forms::named_by_substitution(before, step, &is_new) else { return false };
        let origin = origin_text(origin, &self.chapter.doc.path);
        // (The entries of a vector only a shape declared, `\delta y_i` of `\delta y` n×1: the
        // step gives each entry, the family.)
        let entries = match &name.kind {
            ExprKind::Subscript { base, index } => {
                base.symbol_key().zip(crate::syntax::ast::index_letters(index)).filter(|(key, letters)| {
                    let free = |l: &String| {
                        self.letters.index_letters.contains(l)
                            || !(self.bindings.defs.iter().any(|d| d.key == *l) || self.letters.known.contains(l))
                    };
                    !self.bindings.defs.iter().any(|d| d.key == *key) && letters.iter().all(free)
                })
            }
            _ => None,
        };
        if !self.try_define(name, part, &origin, true) {
            let Some((key, letters)) = entries else { return false };
            self.record(super::bindings::notes_definition(key, letters, part, &origin, false, false));
        }
        let plain = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
        let reason = crate::model::SkipReason::NamedHere { name: plain(name), part: plain(part) };
        self.out.skipped.push(Skipped { formula: id.to_string(), reason });
        true
    }

    /// A claim for each link of the chain after the first `skip`, with its reading and position.
    fn link_claims(&mut self, site: &ChainSite, skip: usize, alternative: Option<WordsReading>) {
        let ChainSite { chain, first, id, tex, origin, conditions, prose, marked } = *site;
        let block = prose.as_ref().map(|p| p.block);
        let holds = prose.as_ref().is_none_or(|p| p.mark != Some(Mark::Wrong));
        let ends_in_constant = {
            let reading = self.reading_in(block);
            let fixed = |key: &str| {
                reading.overrides.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
                    || self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(key))
            };
            chain.exprs().last().is_some_and(|e| roles::is_constant(e, &fixed))
        };
        // `记为 $\chi^2=\chi^2(n)$`, `denoted by $…$`: notation the words introduce, as `:=` does.
        let notation = prose.as_ref().is_some_and(|p| roles::names_notation(p.lead));
        let mut prev = first;
        for (k, link) in chain.links.iter().enumerate() {
            // `x + y = [x_1; …] + [y_1; …] := [x_1 + y_1; …]`, `\|x\| := \sqrt{x^\top x}`: a link
            // written `:=` (`\stackrel{def}{=}`) defines what its left side means; it claims nothing,
            // whether or not derivcheck can take the definition.
            let claim_id = if chain.links.len() > 1 { format!("{id}.{}", k + 1) } else { id.to_string() };
            if k >= skip && (link.op == RelOp::Define || notation) && !marked {
                self.out
                    .skipped
                    .push(Skipped { formula: claim_id, reason: crate::model::SkipReason::DefinitionNotTaken });
                prev = &link.rhs;
                continue;
            }
            if k >= skip.max(1) && !marked && self.named_here(prev, &link.rhs, origin, &claim_id) {
                prev = &link.rhs;
                continue;
            }
            if k >= skip {
                let mut reading = self.reading_in(block);
                reading.marked = marked;
                reading.rewrites = k > 0;
                reading.conditions.hypothesis = self
                    .words
                    .hypotheses
                    .iter()
                    .rev()
                    .find(|(letters, _)| letters.iter().any(|l| mentions_key(prev, l) || mentions_key(&link.rhs, l)))
                    .map(|(_, tex)| tex.clone());
                reading.conditions.supposed = self.current.supposed.clone();
                reading.conditions.shown_next = self.shown_next(chain, k, origin);
                if link.op == RelOp::Approx {
                    reading.named.small = self.current.small.clone();
                }
                for (keys, tex) in &self.bindings.distributions {
                    if keys.iter().any(|key| mentions_key(prev, key) || mentions_key(&link.rhs, key)) {
                        reading.given.push(tex.clone());
                    }
                }
                let at = LinkAt { chain, first, prev, rhs: &link.rhs, k, prose, ends_in_constant };
                reading.alternative = self.link_alternative(&at, &reading, &alternative);
                if let Some(prose) = &prose {
                    reading.named.constants = prose.constants.to_vec();
                    reading.named.random = prose.random.to_vec();
                    reading.named.classes = prose.classes.to_vec();
                    reading.named.kinds = prose.kinds.to_vec();
                    reading.named.function = prose.function;
                    reading.independence = prose.independence();
                }
                reading.information = self.chapter.information;
                reading.complex = self.chapter.complex;
                reading.laws = self.laws_before(block);
                if let Some(block) = block {
                    reading.conditions.stated = self
                        .bindings
                        .stated
                        .iter()
                        .filter(|(b, _)| *b + 1 >= block && *b <= block)
                        .map(|(_, a)| a.clone())
                        .collect();
                    reading.conditions.stated_earlier =
                        self.bindings.stated.iter().filter(|(b, _)| *b + 1 < block).map(|(_, a)| a.clone()).collect();
                }
                if let Some(premise) = prose.as_ref().and_then(|p| p.premise) {
                    reading.conditions.premise = self.premise_conditions(premise, origin, tex);
                }
                let origin = self.link_origin(origin, tex, prev, &link.rhs);
                let is_condition =
                    reading.alternative.as_ref().is_some_and(|o| o.role == super::claim::WordsRole::Condition)
                        && link.op == RelOp::Eq;
                if let (true, Some(block)) = (is_condition, block) {
                    let stated = self.condition_at(prev, &link.rhs, &origin);
                    self.bindings.stated.push((block, stated));
                }
                let (lhs, rhs, how) = read_sides(&self.bindings.recurrences, prev, &link.rhs);
                if how.is_none() && reading.alternative.is_none() {
                    reading.alternative = recurrence::mentioned_sequence(&self.bindings.recurrences, prev, &link.rhs)
                        .map(|key| WordsReading {
                            role: super::claim::WordsRole::RecurrenceNotRead,
                            symbol: Some(key),
                            earlier: None,
                        });
                }
                // `f(t+\Delta t) \approx f(t)(1+\Delta t)` before it: steps may write f's
                // approximate values with `=`.
                if reading.alternative.is_none() && link.op != RelOp::Approx && prose.is_some() {
                    reading.alternative = self.words.approximated.iter().rev().find_map(|(key, at)| {
                        (mentions_key(prev, key) || mentions_key(&link.rhs, key)).then(|| WordsReading {
                            role: super::claim::WordsRole::Approximated,
                            symbol: Some(key.clone()),
                            earlier: Some(at.clone()),
                        })
                    });
                }
                // (Only a letter the text has given a meaning: the approximation is of that
                // meaning, and a claim about a function nobody specified stays exact.)
                if let (RelOp::Approx, Some(key), Origin::Notes { line, col, .. }) =
                    (link.op, approximated_letter(prev), &origin)
                {
                    if self.bindings.defs.iter().any(|d| d.key == key) {
                        self.words.approximated.push((key, format!("{line}:{col}")));
                    }
                }
                reading.unrolled = how;
                reading.in_force = self.bindings.recurrences.clone();
                let explicit = |e: &Expr| print::explicit_tex(e, &|_| false);
                if explicit(&lhs) != explicit(prev) || explicit(&rhs) != explicit(&link.rhs) {
                    reading.written = Some(Box::new(WrittenSides {
                        lhs: prev.clone(),
                        rhs: link.rhs.clone(),
                        recurrences: self.bindings.recurrences.clone(),
                    }));
                }
                // (An index condition of the words only where the claim writes all its letters:
                // `i = j` says nothing of a step that writes only i.)
                let mut conditions = conditions.to_vec();
                let writes = |c: &Chain| chain_keys(c).iter().all(|l| writes_key(&lhs, l) || writes_key(&rhs, l));
                conditions.extend(self.current.index_conditions.iter().filter(|c| writes(c)).cloned());
                self.out.claims.push(Claim {
                    id: claim_id,
                    section: self.number.clone(),
                    origin,
                    tex: tex.to_string(),
                    kind: claim_kind(prev, &link.rhs),
                    lhs,
                    rhs,
                    conditions,
                    holds,
                    variant: false,
                    approx: link.op == RelOp::Approx,
                    understood: String::new(),
                    reading,
                });
            }
            prev = &link.rhs;
        }
    }

    /// The equations of `premise`, the relation an implication follows, as conditions at their
    /// own positions; none where one of its links is not an equation (`a > 0 \implies …`: not
    /// a condition derivcheck can assume).
    fn premise_conditions(&self, premise: &Chain, origin: &Origin, tex: &str) -> Vec<Assumption> {
        let Some(first) = &premise.first else { return Vec::new() };
        if premise.links.iter().any(|l| l.op != RelOp::Eq) {
            return Vec::new();
        }
        let mut prev = first;
        let mut out = Vec::new();
        for link in &premise.links {
            out.push(self.condition_at(prev, &link.rhs, &self.link_origin(origin, tex, prev, &link.rhs)));
            prev = &link.rhs;
        }
        out
    }

    /// The values link `k + 1` of `chain` writes for the letters of link `k`'s right side, as
    /// definitions ([`values_written_next`]); letters the section defines keep their meaning.
    fn shown_next(&self, chain: &Chain, k: usize, origin: &Origin) -> Vec<super::scope::Definition> {
        let (Some(link), Some(next)) = (chain.links.get(k), chain.links.get(k + 1)) else { return Vec::new() };
        if next.op != RelOp::Eq {
            return Vec::new();
        }
        let values = values_written_next(&link.rhs, &next.rhs).unwrap_or_default();
        let origin = origin_text(origin, &self.chapter.doc.path);
        values
            .into_iter()
            .filter(|(key, _)| !self.bindings.defs.iter().any(|d| d.key == *key))
            .map(|(key, body)| super::scope::Definition {
                key,
                params: Vec::new(),
                body,
                origin: origin.clone(),
                from_notes: true,
                function: false,
                inherited: false,
                section_only: true,
            })
            .collect()
    }

    /// `lhs = rhs` as a condition claims may be checked under, written where `origin` says.
    fn condition_at(&self, lhs: &Expr, rhs: &Expr, origin: &Origin) -> Assumption {
        let tex = format!("{}={}", print::explicit_tex(lhs, &|_| false), print::explicit_tex(rhs, &|_| false));
        Assumption { tex, lhs: lhs.clone(), rhs: rhs.clone(), origin: origin_text(origin, &self.chapter.doc.path) }
    }

    /// The claim's position: in a formula of several lines, the line and column of its own
    /// relation sign (the first non-blank character after its left side).
    pub(super) fn link_origin(&self, origin: &Origin, tex: &str, lhs: &Expr, rhs: &Expr) -> Origin {
        let Origin::Notes { formula, range, .. } = origin else { return origin.clone() };
        let Some(site) = self.chapter.doc.formulas.iter().find(|f| f.id == *formula) else { return origin.clone() };
        if !tex.contains('\n') {
            return origin.clone();
        }
        // (Past white space, `&`, `\\` and TeX comments, `%` to the end of its line.)
        let mut rest = tex.get(lhs.span.end..rhs.span.start).unwrap_or("");
        let whole = rest.len();
        loop {
            rest = rest.trim_start_matches(|c: char| c.is_whitespace() || c == '&' || c == '\\');
            match rest.strip_prefix('%') {
                Some(comment) => rest = comment.find('\n').map_or("", |end| &comment[end..]),
                None => break,
            }
        }
        let skip = whole - rest.len();
        let at = self.chapter.doc.position_in_formula(site, lhs.span.end + skip);
        Origin::Notes { formula: formula.clone(), line: at.line, col: at.col, range: *range }
    }
}

impl SectionBuilder<'_> {
    /// `m = n` with m a size of the section (a sum's bound) and n a bare letter the section has
    /// given no meaning: n is defined as m (the sizes are equal), and m keeps its values; with n
    /// a size too, the formula is a condition on the sizes (taken, no claim).
    fn names_a_size_by_a_size(&mut self, first: &Expr, body: &Expr, site_origin: &str) -> bool {
        let (Some(size), Some(other)) = (first.symbol_key(), body.symbol_key()) else { return false };
        let is_size = |k: &str| self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(k));
        if !(bare_letter(first) && bare_letter(body) && is_size(&size)) {
            return false;
        }
        // (Both sizes already: the words tie them, which the sizes tried apart do not; a
        // condition, never a claim refuted at m = 2, n = 3.)
        if is_size(&other) {
            self.current.formula_role = Some(crate::model::FormulaRole::Condition);
            return true;
        }
        let new = !self.letters.known.contains(&other) && !self.bindings.defs.iter().any(|d| d.key == other);
        new && self.try_define(body, first, site_origin, true)
    }
}

/// The letter an approximation `f(t+\Delta t) \approx …`, `y \approx …` is about: the function
/// applied, or the letter itself.
fn approximated_letter(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Call { func, .. } => func.symbol_key(),
        ExprKind::Symbol(_) | ExprKind::Subscript { .. } => e.symbol_key(),
        _ => None,
    }
}

/// One chain of a formula, with what is known of it before its links become claims.
#[derive(Clone, Copy)]
struct ChainSite<'c> {
    chain: &'c Chain,
    first: &'c Expr,
    id: &'c str,
    tex: &'c str,
    origin: &'c Origin,
    conditions: &'c [Chain],
    prose: &'c Option<Prose<'c>>,
    marked: bool,
}
