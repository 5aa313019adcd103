//! A section's plan from start to end. Takes the section's parsed formulas, its spec entry (if
//! any) and what earlier sections leave in force; gives its `SectionPlan`. `build` runs the
//! passes in order (the state they fill is in [`super::builder`]); here too is what the notes
//! add to the spec (shapes, indices, sizes).

use super::builder::*;
use super::chains::{flatten_environments, leading_names, mentions_key};
use super::claim::{ExamplePlan, Origin, ParsedFormula, SectionPlan, Shadowing, SpecProblem, WrittenSides};
use super::cues::deterministic_in;
use super::declarations;
use super::declarations::{
    bounded_sums, collect_matrix_like, collect_product_orders, collect_single_entries, collect_values, entries_letter,
    names_own_entries, own_entries_shape, summation_letters,
};
use super::distributions;
use super::entries;
use super::forms::{
    collect_bold_bases, collect_keys, depicts_a_general_matrix, family_member, is_bare_symbol, signature_of,
    GREEK_LETTERS,
};
use super::givens;
use super::roles;
use super::shapes;

use super::scope::{Assumption, Decl, Definition, IndexRange, Scope, Shape};
use crate::notes::{Document, FormulaSite};
use crate::spec::{SectionSpec, Spec};
use crate::syntax::ast::{BinOp, Chain, Expr, ExprKind, RelOp, Statement};
use crate::syntax::print;
use std::collections::{BTreeMap, BTreeSet};

/// A size letter a shape writes (`n` of `n\times d`; a number is none), tried at the default sizes
/// unless the spec gives it some.
fn tried_at_default_sizes(spec: &mut SectionSpec, dim: &str) {
    if dim.parse::<u32>().is_err() && !spec.sizes.contains_key(dim) {
        spec.sizes.insert(dim.to_string(), toml::Spanned::new(0..0, DEFAULT_SIZES.to_vec()));
    }
}

impl<'a> SectionBuilder<'a> {
    pub(super) fn new(
        doc: &'a Document,
        number: &str,
        spec: Option<&'a Spec>,
        spec_text: &'a str,
        facts: ChapterFacts,
    ) -> Self {
        let section_spec = spec.and_then(|s| s.section(number));
        let index_letters = section_spec.as_ref().map(|s| s.index.keys().cloned().collect()).unwrap_or_default();
        SectionBuilder {
            number: number.to_string(),
            spec: section_spec,
            pinned: section_spec_present(spec, number),
            chapter: ChapterInputs {
                doc,
                spec_full: spec,
                spec_text,
                document_keys: Default::default(),
                owns_spec: false,
                information: facts.information,
                probabilistic: facts.probabilistic,
                euler: facts.euler,
                complex: facts.complex,
                statistics: Default::default(),
                eigenvalues: Default::default(),
                finite_sets: Default::default(),
            },
            words: SectionWords::default(),
            letters: SectionLetters { index_letters, ..Default::default() },
            bindings: Bindings::default(),
            out: SectionOutput::default(),
            current: CurrentFormula::default(),
        }
    }

    /// What the spec leaves out, read from the notes: shapes the notes declare (their size
    /// letters instantiated at 2 and 3 unless the spec gives sizes), and summation letters as
    /// indices whose range is read off the shapes they index. A section the spec does not name
    /// is checked as far as this allows.
    pub(super) fn complete_from_notes(&mut self, formulas: &[&ParsedFormula]) {
        let identities = super::cues::identities_in_words(self.chapter.doc, formulas);
        let spec = self.spec.get_or_insert_with(SectionSpec::default);
        let declared = |spec: &SectionSpec, key: &str| {
            spec.matrix
                .keys()
                .chain(spec.family.keys())
                .chain(spec.identity.keys())
                .chain(spec.functions.keys())
                .any(|k| crate::syntax::canonical_key(k).ok().as_deref() == Some(key))
        };
        // The latest declaration of a letter is in force (`\mathbf x\in\mathbb R^n`, then a later
        // section's `\mathbf x\in\mathbb R^d`).
        for (key, dims, section) in self.letters.notes_shapes.iter().rev() {
            // `O\in\mathbb R^{n\times q}` then `O = HW + b`: O is defined, not a leaf.
            let defined =
                assigned_in(self.chapter.doc, formulas, key) || self.bindings.inherited.iter().any(|d| d.key == *key);
            if declared(spec, key) {
                continue;
            }
            if defined {
                // (A vector or matrix declared in this section of a letter it also defines.)
                if *section == self.number && dims.iter().any(|d| d != "1") {
                    self.letters.defined_and_declared.insert(key.clone(), dims.clone());
                }
                continue;
            }
            for dim in dims {
                tried_at_default_sizes(spec, dim);
            }
            // (`单位矩阵 $I\in\mathbb R^{n\times n}$`: the identity of that size, not a general matrix.)
            if identities.contains(key) {
                spec.identity.insert(key.clone(), dims[0].clone());
                continue;
            }
            let shape = toml::Spanned::new(0..0, Shape::new(dims[0].clone(), dims[1].clone()));
            // `\mathbf a_i^\top\in\mathbb R^k`, "each row": every member of the family a — where
            // the section writes a bold, and never plain with one index (`x_1`, an entry of
            // `\boldsymbol x`, beside the samples `\boldsymbol x_i\in\mathbb R^d`).
            let family = family_member(key).filter(|base| {
                !declared(spec, base)
                    && self.words.vector_families.contains(*base)
                    && !self.words.entry_letters_plain.contains(*base)
            });
            match family {
                Some(base) => spec.family.insert(base.to_string(), shape),
                None => spec.matrix.insert(key.clone(), shape),
            };
            if *section != self.number {
                self.letters.declared_elsewhere.insert(key.clone());
            }
        }
        // `where $I_N$ is the identity matrix`: the identity of the size its subscript names.
        for (key, size) in super::cues::identities_named_after(self.chapter.doc, formulas) {
            if declared(spec, &key) || assigned_in(self.chapter.doc, formulas, &key) {
                continue;
            }
            tried_at_default_sizes(spec, &size);
            spec.identity.insert(key, size);
        }
        // `A\in\mathbb R^{n\times n}` for a quadratic form, then `A\in\mathbb R^{m\times n}` for a
        // Gram matrix in the same section: the latest is in force, and a claim may speak of the
        // other, as of a shape another section declared.
        let here: Vec<(&String, &[String; 2])> =
            self.letters.notes_shapes.iter().filter(|(_, _, s)| *s == self.number).map(|(k, d, _)| (k, d)).collect();
        for (key, dims) in &here {
            if here.iter().any(|(k, d)| k == key && d != dims) {
                self.letters.declared_elsewhere.insert((*key).clone());
            }
        }
        let mut letters = std::collections::BTreeSet::new();
        let mut bounded: BTreeMap<String, std::collections::BTreeSet<String>> = BTreeMap::new();
        for f in formulas {
            f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| summation_letters(e, &mut letters));
            f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| bounded_sums(e, &mut bounded));
        }
        // `\sum_{j=1}^q`: q is a size (at 2 and 3 unless given), and j, wherever the section
        // writes it free, ranges over 1..q when every such sum gives it that one bound.
        let given = |spec: &SectionSpec, name: &str| {
            spec.sizes.contains_key(name) || spec.index.contains_key(name) || declared(spec, name)
        };
        for (letter, bounds) in &bounded {
            for bound in bounds {
                if !given(spec, bound) && !assigned_in(self.chapter.doc, formulas, bound) {
                    spec.sizes.insert(bound.clone(), toml::Spanned::new(0..0, DEFAULT_SIZES.to_vec()));
                }
            }
            if letter.is_empty() {
                continue;
            }
            if let ([bound], false) = (bounds.iter().collect::<Vec<_>>().as_slice(), given(spec, letter)) {
                if spec.sizes.contains_key(*bound) {
                    spec.index.insert(letter.clone(), toml::Spanned::new(0..0, IndexRange::Size((*bound).clone())));
                }
            }
        }
        for letter in letters {
            let taken = spec.index.contains_key(&letter) || spec.sizes.contains_key(&letter);
            if !taken {
                spec.index.insert(letter, toml::Spanned::new(0..0, IndexRange::Auto));
            }
        }
        // A vector the notes write whole (bold, in softmax, under a norm) and by entries `o_j`
        // with j running over 1..q is a column of length q.
        let (mut matrix_like, mut entries) = (std::collections::HashSet::new(), BTreeMap::new());
        for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(Chain::exprs) {
            collect_matrix_like(e, &mut matrix_like);
            collect_single_entries(e, &mut entries);
        }
        self.letters.subscript_letters = entries.values().flatten().cloned().collect();
        for (key, letters) in entries {
            let ranges: std::collections::BTreeSet<&String> = letters
                .iter()
                .filter_map(|l| match spec.index.get(l).map(|r| r.get_ref()) {
                    Some(IndexRange::Size(size)) => Some(size),
                    _ => None,
                })
                .collect();
            if let ([size], true) = (ranges.into_iter().collect::<Vec<_>>().as_slice(), matrix_like.contains(&key)) {
                if spec.sizes.contains_key(*size) && !declared(spec, &key) {
                    spec.matrix.insert(key.clone(), toml::Spanned::new(0..0, Shape::new((*size).clone(), "1")));
                }
            }
        }
        self.letters.index_letters = spec.index.keys().cloned().collect();
        if !self.pinned {
            self.shapes_from_use(formulas);
        }
    }

    /// Letters used as vectors or matrices that nothing declares get the shapes their uses force
    /// (see [`shapes`]), declared for this section only; new sizes are tried at the default sizes.
    pub(super) fn shapes_from_use(&mut self, formulas: &[&ParsedFormula]) {
        let chains: Vec<Chain> = formulas
            .iter()
            .flat_map(|f| flatten_environments(&f.statement.chains, &self.chapter.doc.formulas[f.index].tex))
            .collect();
        // Only letters written as vectors or matrices themselves (bold, transposed, …), not those
        // that only stand in both orders of a product, and not members of a family (`\mathbf
        // x_i`: one vector per index value).
        let mut matrix_like = std::collections::HashSet::new();
        for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(Chain::exprs) {
            collect_matrix_like(e, &mut matrix_like);
        }
        let spec = self.spec.get_or_insert_with(SectionSpec::default);
        let canonical = |k: &String| crate::syntax::canonical_key(k).unwrap_or_else(|_| k.clone());
        let mut declared: BTreeMap<String, [String; 2]> = BTreeMap::new();
        for (k, shape) in &spec.matrix {
            let Shape { rows, cols } = shape.get_ref().clone();
            declared.insert(canonical(k), [rows, cols]);
        }
        for (k, n) in &spec.identity {
            declared.insert(canonical(k), [n.clone(), n.clone()]);
        }
        // (An earlier definition through a function this section declares anew is not inherited:
        // see `build`.)
        let stale = stale_definitions(self.bindings.inherited.iter(), signed_anew(formulas));
        let mut defined: std::collections::BTreeSet<String> =
            self.bindings.inherited.iter().map(|d| d.key.clone()).filter(|k| !stale.contains(k)).collect();
        for chain in &chains {
            if let (Some(key), Some(link)) = (chain.first.as_ref().and_then(Expr::symbol_key), chain.links.first()) {
                if matches!(link.op, RelOp::Eq | RelOp::Define) && !mentions_key(&link.rhs, &key) {
                    defined.insert(key);
                }
            }
            // `y_i = \frac{1}{1+e^{-x_i}}`: the section defines y entry by entry, as a family; its
            // uses as a whole vector (`\delta y \odot y`) give it no other shape.
            if let (Some(first), Some(link)) = (&chain.first, chain.links.first()) {
                if let ExprKind::Subscript { base, index } = &first.kind {
                    let letter_index = matches!(&index.kind, ExprKind::Symbol(s) if s.name.chars().count() == 1);
                    let defines = matches!(link.op, RelOp::Eq | RelOp::Define);
                    if let (Some(key), true) = (base.symbol_key(), letter_index && defines) {
                        // (`\theta_j := \theta_j - \alpha g_j` updates an entry, defines none.)
                        let updates = first.symbol_key().is_some_and(|entry| mentions_key(&link.rhs, &entry));
                        if !mentions_key(&link.rhs, &key) && !updates {
                            defined.insert(key);
                        }
                    }
                }
            }
        }
        // `\mathbf v = [3, 2]^\top`: a letter defined as a vector or matrix of numbers has that
        // shape for the unification (`\mathbf u - \mathbf v` then makes u a 2-vector).
        let literal_bodies =
            self.bindings.inherited.iter().filter(|d| !stale.contains(&d.key)).map(|d| (d.key.clone(), &d.body));
        let here = chains.iter().filter_map(|c| {
            let (key, link) = (c.first.as_ref().and_then(Expr::symbol_key)?, c.links.first()?);
            matches!(link.op, RelOp::Eq | RelOp::Define).then_some((key, &link.rhs))
        });
        for (key, body) in literal_bodies.chain(here) {
            if let Some(shape) = declarations::literal_shape(body) {
                declared.entry(key).or_insert(shape);
            }
        }
        let family_or_function = |k: &String| {
            // (`\mathbf u_m` of the family u declared: one of its members.)
            let member = k.split_once('_').is_some_and(|(base, _)| spec.family.keys().any(|f| canonical(f) == base));
            spec.family.keys().chain(spec.functions.keys()).any(|f| canonical(f) == *k)
                || member
                || spec.index.contains_key(k)
                || spec.sizes.contains_key(k)
        };
        let indexed = |k: &String| {
            k.split_once('_').is_some_and(|(_, sub)| {
                let sub = sub.trim_start_matches('{').trim_end_matches('}');
                sub.parse::<i64>().is_ok()
                    || spec.index.contains_key(sub)
                    || matches!(sub, "i" | "j" | "k" | "t" | "n")
                    || sub.chars().all(|c| {
                        c.is_ascii_digit()
                            || c == ','
                            || c == '+'
                            || c == '-'
                            || c == 'i'
                            || c == 'j'
                            || c == 't'
                            || c == 'k'
                    })
            })
        };
        // `\boldsymbol x_1`, `\mathbf x_i`: a bold letter with a subscript is one vector of a
        // family, so x itself is no vector whose entries they are.
        let bold_families = &self.words.vector_families;
        let targets: std::collections::BTreeSet<String> = matrix_like
            .into_iter()
            .filter(|k| {
                !declared.contains_key(k)
                    && !defined.contains(k)
                    && !family_or_function(k)
                    && !indexed(k)
                    && !bold_families.contains(k)
                    // (`\mathbf{AB}^\top`, one name no declaration can write back: none.)
                    && crate::syntax::canonical_key(k).ok().as_deref() == Some(k.as_str())
            })
            .collect();
        if targets.is_empty() {
            return;
        }
        let mut taken: std::collections::BTreeSet<String> =
            spec.sizes.keys().chain(spec.index.keys()).cloned().collect();
        taken.extend(self.chapter.document_keys.iter().cloned());
        let known = shapes::Known { targets: &targets, declared: &declared, defined: &defined, taken: &taken };
        let (inferred, sizes) = shapes::infer(&chains, &known);
        for size in sizes {
            spec.sizes.insert(size, toml::Spanned::new(0..0, DEFAULT_SIZES.to_vec()));
        }
        for shape in &inferred {
            if shape.identity {
                spec.identity.insert(shape.key.clone(), shape.rows.clone());
            } else {
                let both = Shape::new(shape.rows.clone(), shape.cols.clone());
                spec.matrix.insert(shape.key.clone(), toml::Spanned::new(0..0, both));
            }
        }
        self.letters.inferred = inferred;
    }

    /// The plan, and the definitions this section's notes make (for the sections after it).
    pub(super) fn build_with_definitions(
        self,
        title: String,
        formulas: &[&ParsedFormula],
    ) -> (SectionPlan, Vec<Definition>) {
        let inherited: Vec<String> = self.bindings.inherited.iter().map(|d| d.origin.clone()).collect();
        let plan = self.build(title, formulas);
        let defined = match &plan.scope {
            Ok(scope) => scope
                .defs
                .values()
                .filter(|d| d.from_notes && !d.inherited && !d.section_only && !inherited.contains(&d.origin))
                .cloned()
                .collect(),
            Err(_) => Vec::new(),
        };
        (plan, defined)
    }

    /// The section's plan: its passes, in order. (1) Read the words: laws, deterministic
    /// functions, families the notation writes. (2) Complete the spec from the notes: shapes,
    /// indices, sizes. (3) Declare: letters the declarations name. (4) Bind: the spec's
    /// definitions, then the earlier sections' that still hold. (5) Add each formula: its role,
    /// bindings and claims. (6) Resolve the section's scope. (7) Read each claim in that scope.
    pub(super) fn build(mut self, title: String, formulas: &[&ParsedFormula]) -> SectionPlan {
        self.read_words(formulas);
        self.complete_from_notes(formulas);
        let spec = self.spec.clone().expect("complete_from_notes gives every section a spec");
        let scope_base = Scope::new(&self.number, &spec, Vec::new());
        if let Ok(base) = &scope_base {
            self.declare(base);
        }
        self.add_spec_definitions();
        let steps = self.example_steps(formulas);
        self.inherit(formulas, &steps);
        self.words.first_renaming = self.first_renaming(formulas);
        for (f, step) in formulas.iter().zip(steps) {
            self.add_formula(f, step);
            f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| collect_keys(e, &mut self.letters.written));
        }
        if self.chapter.owns_spec {
            self.add_spec_claims();
        }
        let scope = scope_base.and_then(|_| self.section_scope(&spec, formulas));
        let scope = scope.map_err(|detail| crate::model::Reason::SpecUnusable { detail });
        self.read_claims(scope.as_ref().ok());
        let example = self.example_plan();
        SectionPlan {
            number: self.number,
            title,
            example,
            scope,
            claims: self.out.claims,
            skipped: self.out.skipped,
            roles: self.out.roles,
            shadowed: self.bindings.shadowed,
            spec_problems: self.out.spec_problems,
            recurrences: self.bindings.recurrences,
        }
    }

    /// Pass 1: what the section's words and notation say before any formula is added.
    fn read_words(&mut self, formulas: &[&ParsedFormula]) {
        // (Every formula of the section, parsed or not: the words run between them.)
        if let Some(section) = formulas.first().map(|f| self.chapter.doc.formulas[f.index].section) {
            let sites: Vec<&FormulaSite> = self.chapter.doc.formulas.iter().filter(|f| f.section == section).collect();
            self.words.laws =
                distributions::laws_in(&sites).into_iter().map(|(end, law)| (sites[end].block, law)).collect();
            self.words.deterministic = deterministic_in(self.chapter.doc, section);
        }
        self.words.vector_families = vector_families(formulas);
        self.words.entry_letters_plain = plain_with_one_index(formulas);
    }

    /// Pass 3: the letters the section's declarations (spec and notes) name.
    fn declare(&mut self, base: &Scope) {
        self.letters.known.extend(base.decls.keys().cloned());
        self.letters.known.extend(base.sizes.keys().cloned());
        for (key, decl) in &base.decls {
            match decl {
                Decl::Function(kind) => self.letters.declared_functions.push((key.clone(), *kind)),
                Decl::Matrix { .. } | Decl::Identity { .. } => self.letters.declared_matrices.push(key.clone()),
                _ => {}
            }
        }
    }

    /// Pass 4, second half: the earlier sections' definitions this section does not define
    /// again (those it does are shadowed, and listed), nor make stale by a letter it renews.
    fn inherit(&mut self, formulas: &[&ParsedFormula], steps: &[Step]) {
        // The earlier sections' definitions come out of a map: take them in one order, so that
        // the shadowing list (and the report) is the same on every run.
        let mut inherited = std::mem::take(&mut self.bindings.inherited);
        inherited.sort_by(|a, b| a.key.cmp(&b.key));
        for def in inherited {
            // (`an $m \times n$ matrix $A$` in this section's words, or `A\in\mathbb R^{m\times n}`:
            // a letter declared anew, not the earlier section's example.)
            let declared_here = !def.function
                && def.params.is_empty()
                && self.letters.notes_shapes.iter().any(|(k, _, section)| *k == def.key && *section == self.number);
            let declared = declared_here
                || self.letters.known.contains(&def.key)
                    && !self.letters.declared_functions.iter().any(|(k, _)| *k == def.key);
            let target_key = |t: &Expr| self.function_target(t).or_else(|| self.definable(t)).map(|(k, _)| k);
            let redefinition = formulas.iter().zip(steps).find_map(|(f, step)| {
                // (`f: \mathbb{R}^d \to \mathbb{R}`: a signature names the letter a function anew,
                // one this section does not specify.)
                let signature = |c: &Chain| def.function && signature_of(c).is_some_and(|k| k == def.key);
                let chain = f.statement.chains.iter().find(|c| {
                    signature(c)
                        || matches!(c.links.first(), Some(l) if matches!(l.op, RelOp::Eq | RelOp::Define))
                            && c.first.as_ref().and_then(target_key).is_some_and(|k| k == def.key)
                        // (`\text{Error}=E=…` names E anew as well.)
                        || leading_names(c).is_some_and(|(names, _)| {
                            names.iter().any(|n| target_key(n).is_some_and(|k| k == def.key))
                        })
                })?;
                // A definition that holds where it is made only (a worked example, a box a
                // directive draws, in passing: [`Reach::keeps_local`]) shadows nothing for the
                // section.
                // (A signature gives no value, whatever example its sentence opens.)
                let function = self.function_target(chain.first.as_ref()?).is_some();
                if !signature(chain) && step.reach.keeps_local(function, &chain.links.first()?.rhs) {
                    return None;
                }
                // (`g(z)=0.5` of a function whose body depends on z gives its value at a point.)
                let applied = crate::syntax::ast::applied_function(chain.first.as_ref()?).is_some();
                let value_at_a_point = applied && roles::is_constant(&chain.links.first()?.rhs, &|_| false);
                if super::bindings::varies_with_its_arguments(&def) && value_at_a_point {
                    return None;
                }
                let site = &self.chapter.doc.formulas[f.index];
                Some((site.line, site.col, chain.span))
            });
            // `a_{ij}`, entry (i, j) of an earlier section's A, where this section writes rows
            // `\mathbf a_i^\top`: another object by the same letter, fresh here.
            let entries_of_rows = def.params.len() == 2 && self.words.vector_families.contains(&def.key);
            if let Some((line, col, _)) = redefinition {
                self.bindings.shadowed.push(Shadowing { key: def.key.clone(), line, col, earlier: def.written_at() });
            } else if !declared && !entries_of_rows && !self.bindings.defs.iter().any(|d| d.key == def.key) {
                self.letters.known.push(def.key.clone());
                self.bindings.defs.push(Definition { inherited: true, ..def });
            }
        }
        // `\epsilon = -\eta f'(x)` chosen in an earlier section, then `f: \mathbb{R}^d \to
        // \mathbb{R}` here: an earlier definition through a letter this section gives a new
        // meaning spoke of the old one; it is not inherited either.
        let mut renewed: BTreeSet<String> = self.bindings.shadowed.iter().map(|s| s.key.clone()).collect();
        renewed.extend(signed_anew(formulas));
        let stale = stale_definitions(self.bindings.defs.iter().filter(|d| d.inherited), renewed);
        self.bindings.defs.retain(|d| !(d.inherited && stale.contains(&d.key)));
        self.letters.known.retain(|k| !stale.contains(k));
        self.bindings.shadowed.sort_by(|a, b| (a.line, a.col, &a.key).cmp(&(b.line, b.col, &b.key)));
    }

    /// Pass 6: the section's scope: the definitions made, the values and matrices its formulas
    /// write, the conditions, and (unless the spec pins the section) the functions nobody specified.
    fn section_scope(&self, spec: &SectionSpec, formulas: &[&ParsedFormula]) -> Result<Scope, String> {
        let mut values = std::collections::HashSet::new();
        // A signature (`f: \mathbb{R} \rightarrow \mathbb{R}`) names a function, not a value.
        let signature = |c: &Chain| signature_of(c).is_some();
        for f in formulas {
            // A bare mention (`$\sigma$` in the prose) says nothing about whether σ is a number.
            let in_relations =
                f.statement.chains.iter().filter(|c| (!c.links.is_empty() || !is_bare_symbol(c)) && !signature(c));
            // `\frac{dF}{dx} = f`: a bare letter equated to a function's derivative is a function.
            for chain in in_relations {
                let exprs: Vec<&Expr> = chain.exprs().collect();
                let beside_derivative = exprs.iter().any(|e| crate::syntax::ast::derivative_of_letter(e).is_some());
                for e in exprs {
                    if !(beside_derivative && matches!(e.kind, ExprKind::Symbol(_))) {
                        collect_values(e, &mut values);
                    }
                }
            }
        }
        let matrix_like = matrix_like_in(formulas).into_iter().collect();
        Scope::new(&self.number, spec, self.bindings.defs.clone()).map(|mut scope| {
            scope.usage.values = values;
            scope.given_values = givens::given_values(self.chapter.doc, formulas);
            scope.usage.matrix_like = matrix_like;
            scope.usage.written_once = written_once(formulas);
            scope.assumptions = self.assumptions(spec);
            scope.pinned = self.pinned;
            scope.usage.inferred = self.letters.inferred.clone();
            scope.usage.declared_elsewhere = self.letters.declared_elsewhere.clone();
            scope.usage.defined_and_declared = self.letters.defined_and_declared.clone();
            scope.usage.derived = self.bindings.derived.clone();
            let statements: Vec<&Statement> = formulas.iter().map(|f| f.statement).collect();
            scope.usage.entries_ambiguous = entries::ambiguous_entries(&statements);
            scope.usage.parameters = self.letters.parameters.clone();
            scope.usage.statistics = (*self.chapter.statistics).clone();
            scope.usage.finite_sets = (*self.chapter.finite_sets).clone();
            // (Eigenvalues the section names, or the chapter where the section speaks of
            // eigenvalues: a section that does not may use the letter otherwise.)
            let sites = || formulas.iter().map(|f| &self.chapter.doc.formulas[f.index]);
            let section = sites().next().map(|site| site.section);
            let speaks = super::cues::speaks_of_eigenvalues(sites());
            let named = self.chapter.eigenvalues.iter().filter(|(at, _)| speaks || Some(*at) == section);
            scope.usage.statistics.extend(named.map(|(_, key)| (key.clone(), String::new())));
            if !self.pinned {
                scope.usage.unknown_functions = unknown_functions(formulas, &scope);
                // `np(1-p)` after `X \sim \mathrm{Binomial}(n, p)`: p is a number.
                scope.usage.unknown_functions.retain(|k| !self.letters.parameters.contains(k));
                scope.usage.unknown_families = unknown_families(formulas, &scope);
            }
            scope
        })
    }

    /// Pass 7: each claim read in the section's scope: an equation between functions at their
    /// variable, the entry letters it writes, and how it was understood.
    fn read_claims(&mut self, scope: Option<&Scope>) {
        let is_function = |key: &str| {
            self.bindings.defs.iter().any(|d| d.key == key && d.function)
                || self.letters.declared_functions.iter().any(|(k, _)| k == key)
        };
        // `\frac{dF}{dx} = f`: an equation between functions, read at their variable.
        if let Some(scope) = scope {
            let function = |key: &str| is_function(key) || scope.usage.unknown_functions.contains(key);
            for claim in &mut self.out.claims {
                if let Some((lhs, rhs)) = functions_at_their_variable(&claim.lhs, &claim.rhs, &function) {
                    if claim.reading.written.is_none() {
                        let written =
                            WrittenSides { lhs: claim.lhs.clone(), rhs: claim.rhs.clone(), recurrences: Vec::new() };
                        claim.reading.written = Some(Box::new(written));
                    }
                    (claim.lhs, claim.rhs) = (lhs, rhs);
                }
            }
        }
        // `a_{ij}` read as entry (i, j) of `\mathbf A`: the verdict lists the reading.
        for claim in &mut self.out.claims {
            for entry in &self.words.entry_letters {
                if entries::writes(&claim.tex, &entry.letter) && !claim.reading.given.contains(&entry.tex()) {
                    claim.reading.given.push(entry.tex());
                }
            }
        }
        // Functions nobody specified are applied too, not multiplied: `f\left(y\right)`.
        let unknown: std::collections::BTreeSet<String> = scope
            .map(|s| s.usage.unknown_functions.union(&s.usage.unknown_families).cloned().collect())
            .unwrap_or_default();
        let applied = |key: &str| is_function(key) || unknown.contains(key);
        for claim in &mut self.out.claims {
            let (lhs, rhs) = (print::explicit_tex(&claim.lhs, &applied), print::explicit_tex(&claim.rhs, &applied));
            claim.understood = format!("{lhs} {} {rhs}", if claim.approx { "\\approx" } else { "=" });
        }
    }

    pub(super) fn example_plan(&self) -> Option<ExamplePlan> {
        let (spec, full) = (self.spec.as_ref()?.example.clone()?, self.chapter.spec_full?);
        let mut defines = Vec::new();
        for def in &spec.define {
            let tex = full.tex(self.chapter.spec_text, def);
            let origin = format!("{}:{}:{}", full.path, tex.line, tex.col);
            for chain in &tex.statement.chains {
                let (Some(target), Some(link)) = (&chain.first, chain.links.first()) else { continue };
                if let Some((key, params)) = self.definable_in_example(target) {
                    defines.push(Definition {
                        key,
                        params,
                        body: link.rhs.clone(),
                        origin: origin.clone(),
                        from_notes: false,
                        function: false,
                        inherited: false,
                        section_only: false,
                    });
                }
            }
        }
        Some(ExamplePlan { spec, defines })
    }

    /// In an example, bars are ordinary symbols (the backward pass defines them).
    pub(super) fn definable_in_example(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        self.definable(target).or_else(|| target.symbol_key().map(|k| (k, Vec::new())))
    }

    pub(super) fn add_spec_definitions(&mut self) {
        let (Some(spec), Some(full)) = (self.spec.clone(), self.chapter.spec_full) else { return };
        for def in &spec.define {
            let tex = full.tex(self.chapter.spec_text, def);
            let origin = format!("{}:{}:{}", full.path, tex.line, tex.col);
            for chain in &tex.statement.chains {
                let taken = match (&chain.first, chain.links.first()) {
                    (Some(target), Some(link)) if chain.links.len() == 1 && link.op == RelOp::Eq => {
                        self.try_define(target, &link.rhs, &origin, false)
                    }
                    _ => false,
                };
                if !taken {
                    let kind = crate::spec::SpecErrorKind::DefinesNothing {
                        section: self.number.clone(),
                        tex: tex.tex.clone(),
                    };
                    self.out.spec_problems.push(SpecProblem { line: tex.line, col: tex.col, kind });
                }
            }
        }
    }

    /// The spec's `assume` equations (validated as one equation each when the spec was read).
    pub(super) fn assumptions(&self, spec: &SectionSpec) -> Vec<Assumption> {
        let Some(full) = self.chapter.spec_full else { return Vec::new() };
        let mut out = Vec::new();
        for entry in &spec.assume {
            let tex = full.tex(self.chapter.spec_text, entry);
            if let [Chain { first: Some(lhs), links, .. }] = tex.statement.chains.as_slice() {
                if let [link] = links.as_slice() {
                    let origin = format!("{}:{}:{}", full.path, tex.line, tex.col);
                    out.push(Assumption { tex: tex.tex.clone(), lhs: lhs.clone(), rhs: link.rhs.clone(), origin });
                }
            }
        }
        out
    }

    pub(super) fn add_spec_claims(&mut self) {
        let (Some(spec), Some(full)) = (self.spec.clone(), self.chapter.spec_full) else { return };
        for claim in &spec.claims {
            let tex = full.tex(self.chapter.spec_text, &claim.tex);
            let conditions = claim
                .when
                .as_deref()
                .and_then(|w| crate::syntax::parse_formula(w).ok())
                .map(|s| s.chains)
                .unwrap_or_default();
            let origin = Origin::Spec { name: claim.name.clone(), line: tex.line, col: tex.col };
            let first_new = self.out.claims.len();
            for (k, chain) in tex.statement.chains.iter().enumerate() {
                let id = if tex.statement.chains.len() == 1 {
                    format!("{}/{}", self.number, claim.name)
                } else {
                    format!("{}/{}.{}", self.number, claim.name, k + 1)
                };
                self.chain_claims(chain, &id, &tex.tex, origin.clone(), &conditions, None);
            }
            self.out.claims[first_new..].iter_mut().for_each(|c| {
                c.holds = claim.holds;
                c.variant = claim.variant;
            });
        }
    }
}

/// Does the spec have an entry of its own for this section (which pins its readings)?
pub(super) fn section_spec_present(spec: Option<&Spec>, number: &str) -> bool {
    spec.is_some_and(|s| s.section(number).is_some())
}

/// Sizes a size letter takes when only the notes name it (`X\in\mathbb R^{n\times d}`).
pub const DEFAULT_SIZES: [i64; 2] = [2, 3];

/// The notes give `name` a value (`n = 5`, `q = 10`), also as a row of `aligned`.
pub(super) fn assigned_in(doc: &Document, formulas: &[&ParsedFormula], name: &str) -> bool {
    let chains = formulas.iter().flat_map(|f| flatten_environments(&f.statement.chains, &doc.formulas[f.index].tex));
    // A picture of a general matrix (`\mathbf A = \begin{bmatrix} a_{11} & \cdots \end{bmatrix}`)
    // gives it no value, nor a vector written as its own entries (`\mathbf x = [x_1, x_2]^\top`,
    // which declares its shape), nor an equation of the letter with itself (`\mathbf A =
    // \mathbf A^\top`, what symmetric means), nor another bare letter (`m = n`: sizes said equal).
    chains.into_iter().any(|c| {
        let Some(first) = c.first.as_ref().filter(|e| e.symbol_key().as_deref() == Some(name)) else { return false };
        c.links.first().is_some_and(|l| {
            matches!(l.op, RelOp::Eq | RelOp::Define)
                && !depicts_a_general_matrix(&l.rhs)
                && own_entries_shape(first, &l.rhs).is_none()
                && entries_letter(first, &l.rhs).is_none()
                && !names_own_entries(name, &l.rhs)
                && !mentions_key(&l.rhs, name)
                // (`即$m=n$`: two sizes said equal, not a value.)
                && !super::chains::bare_letter(&l.rhs)
        })
    })
}

/// The keys the formulas of a section write in one formula alone.
fn written_once(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    let mut count: BTreeMap<String, usize> = BTreeMap::new();
    for f in formulas {
        let mut keys = std::collections::BTreeSet::new();
        f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| super::forms::collect_keys(e, &mut keys));
        for key in keys {
            *count.entry(key).or_default() += 1;
        }
    }
    count.into_iter().filter(|(_, n)| *n == 1).map(|(key, _)| key).collect()
}

/// Keys of symbols the formulas use as vectors or matrices (see [`collect_matrix_like`]), and of
/// those written side by side in both orders (`AB` here, `BA` there: the order matters to the
/// notes, so A and B are not numbers).
pub(super) fn matrix_like_in(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    let (mut matrix_like, mut orders) = (std::collections::HashSet::new(), std::collections::HashSet::new());
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(Chain::exprs) {
        collect_matrix_like(e, &mut matrix_like);
        collect_product_orders(e, &mut orders);
    }
    for (a, b) in &orders {
        if a != b && orders.contains(&(b.clone(), a.clone())) {
            matrix_like.insert(a.clone());
            matrix_like.insert(b.clone());
        }
    }
    matrix_like.into_iter().collect()
}

/// The letters the formulas write bold with an index (`\mathbf a_i`, `\mathbf b_1`): families of
/// vectors.
pub(super) fn vector_families(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(|c| c.exprs()) {
        collect_bold_bases(e, &mut out);
    }
    out
}

/// The letters the formulas write plain with one index (`x_1`, `x_n`, `x_i`).
pub(super) fn plain_with_one_index(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    fn walk(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let one = matches!(&index.kind, ExprKind::Symbol(_))
                || matches!(&index.kind, ExprKind::Number { value } if value.len() == 1);
            if one && !roles::is_bold(base) && matches!(base.kind, ExprKind::Symbol(_)) {
                out.extend(base.symbol_key());
            }
        }
        e.children().for_each(|c| walk(c, out));
    }
    let mut out = std::collections::BTreeSet::new();
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(|c| c.exprs()) {
        walk(e, &mut out);
    }
    out
}

/// Letters the formulas write with a subscript only as heads applied to a parenthesis
/// (`f_i(\mathbf x)`, `\nabla f_i(\mathbf x)`, `\frac1n\sum_i f_i(\mathbf x)`), never as a value
/// (`f_i`, `f_i x`): a family of functions nobody specified. Plain letters only, as for
/// [`unknown_functions`] (σ, P, E, p stay refused); not a letter the section declares, defines as a
/// family, or uses as a vector or matrix. The letter itself may name a function of its own
/// (`f(\mathbf x) = \frac1n\sum_i f_i(\mathbf x)`).
pub(super) fn unknown_families(formulas: &[&ParsedFormula], scope: &Scope) -> std::collections::BTreeSet<String> {
    use std::collections::BTreeSet;
    fn walk(e: &Expr, applied: &mut BTreeSet<String>, valued: &mut BTreeSet<String>) {
        if let ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } = &e.kind {
            if let Some((before, member, arg)) = crate::syntax::ast::subscript_applied(lhs, rhs) {
                if let ExprKind::Subscript { base, index } = &member.kind {
                    if let ExprKind::Symbol(s) = &base.kind {
                        if may_name_a_function(s) {
                            applied.insert(s.key());
                        }
                    }
                    walk(index, applied, valued);
                }
                before.into_iter().chain([arg]).for_each(|c| walk(c, applied, valued));
                return;
            }
        }
        if let ExprKind::Subscript { base, .. } = &e.kind {
            if matches!(base.kind, ExprKind::Symbol(_)) {
                valued.extend(base.symbol_key());
            }
        }
        e.children().for_each(|c| walk(c, applied, valued));
    }
    let (mut applied, mut valued) = (BTreeSet::new(), BTreeSet::new());
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(Chain::exprs) {
        walk(e, &mut applied, &mut valued);
    }
    applied
        .into_iter()
        .filter(|k| {
            !valued.contains(k)
                && !scope.decls.contains_key(k)
                && scope.defs.get(k).is_none_or(|d| d.function)
                && !scope.usage.matrix_like.contains(k)
                && !NEVER_UNSPECIFIED_FUNCTIONS.contains(&k.as_str())
        })
        .collect()
}

/// A plain Latin or Greek letter, without style or accent (`g`, `\phi`): what may name a function
/// nobody specified (`\mathcal O`, `\textrm{Var}`, `\hat f` may not).
pub(super) fn may_name_a_function(s: &crate::syntax::ast::Symbol) -> bool {
    let letter = s.name.chars().count() == 1 && s.name.chars().all(char::is_alphabetic)
        || GREEK_LETTERS.contains(&s.name.as_str());
    letter && s.style.is_none() && s.accents.is_empty()
}

/// Letters never read as functions nobody specified: probability's operators (P(A\mid B), E[X],
/// p(x) a density), and σ, by convention the logistic function (p = σ(z) in every logistic
/// regression: read as an arbitrary function it would refute ∂ℓ/∂z = p - y).
pub(super) const NEVER_UNSPECIFIED_FUNCTIONS: [&str; 6] = ["P", "E", "p", "e", "\\Pr", "\\sigma"];

/// Letters the formulas only ever apply (`g(x)`, `g'(h(x))`, `f(x, y)`): not defined, declared,
/// written as a value, used as a vector or matrix, nor an index. Greek and Latin letters only
/// (`\mathcal O(…)`, `\textrm{Var}(…)` stay refused), never `P`, `E` or `p` of probability, nor
/// σ, which undefined means the logistic function.
pub(super) fn unknown_functions(formulas: &[&ParsedFormula], scope: &Scope) -> std::collections::BTreeSet<String> {
    fn heads(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
        if let ExprKind::Call { func, .. } = &e.kind {
            let mut head = func.as_ref();
            while let ExprKind::Prime { operand } = &head.kind {
                head = operand;
            }
            if let ExprKind::Symbol(s) = &head.kind {
                if may_name_a_function(s) {
                    out.insert(s.key());
                }
            }
        }
        e.children().for_each(|c| heads(c, out));
    }
    let mut found = std::collections::BTreeSet::new();
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(Chain::exprs) {
        heads(e, &mut found);
    }
    found.retain(|k| {
        !scope.knows(k)
            && !scope.usage.values.contains(k)
            && !scope.usage.matrix_like.contains(k)
            && !NEVER_UNSPECIFIED_FUNCTIONS.contains(&k.as_str())
    });
    found
}

/// Letters a signature in `formulas` declares.
pub(super) fn signed_anew(formulas: &[&ParsedFormula]) -> BTreeSet<String> {
    formulas.iter().flat_map(|f| &f.statement.chains).filter_map(signature_of).collect()
}

/// Of `inherited`, the keys of the definitions made through a letter of `renewed` (not their
/// own parameters: `\sigma(z) = \frac{1}{1+e^{-z}}` speaks of no z of the section), and of those
/// made through such a definition, and so on: they spoke of a meaning the section replaces.
pub(super) fn stale_definitions<'d>(
    inherited: impl Iterator<Item = &'d Definition> + Clone,
    mut renewed: BTreeSet<String>,
) -> BTreeSet<String> {
    let mut stale = BTreeSet::new();
    loop {
        let more: Vec<String> = inherited
            .clone()
            .filter(|d| !stale.contains(&d.key))
            .filter(|d| renewed.iter().any(|k| !d.params.contains(k) && mentions_key(&d.body, k)))
            .map(|d| d.key.clone())
            .collect();
        if more.is_empty() {
            return stale;
        }
        renewed.extend(more.iter().cloned());
        stale.extend(more);
    }
}

/// `\frac{dF}{dx} = f`, `f = F'`… of a function f (`function` says which letters are): the
/// equation of two functions, read at the derivative's variable, `\frac{dF}{dx} = f(x)`. `None`
/// where the sides are not a derivative of a letter by a letter and a bare function letter.
pub(super) fn functions_at_their_variable(
    lhs: &Expr,
    rhs: &Expr,
    function: &dyn Fn(&str) -> bool,
) -> Option<(Expr, Expr)> {
    let at = |derivative: &Expr, bare: &Expr| -> Option<Expr> {
        let (_, wrt) = crate::syntax::ast::derivative_of_letter(derivative)?;
        let ExprKind::Symbol(variable) = &wrt.kind else { return None };
        let ExprKind::Symbol(f) = &bare.kind else { return None };
        if !function(&f.key()) || f.key() == variable.key() {
            return None;
        }
        let call = ExprKind::Call { func: Box::new(bare.clone()), args: vec![wrt.clone()], postfixed: false };
        Some(Expr::new(call, bare.span))
    };
    if let Some(rhs) = at(lhs, rhs) {
        return Some((lhs.clone(), rhs));
    }
    at(rhs, lhs).map(|lhs| (lhs, rhs.clone()))
}

#[cfg(test)]
mod tests {
    use crate::listing::ParsedDocument;
    use crate::model::FormulaRole;
    use crate::notes::Document;
    use crate::sema::claim::WordsRole;
    use crate::sema::{plan, SectionPlan};

    /// The plans of a small document's sections, without a spec.
    fn plans(text: &str) -> Vec<SectionPlan> {
        let doc = Document::parse("t.md", text.to_string());
        plan(&ParsedDocument::parse(&doc), None, "", false)
    }

    fn roles(plan: &SectionPlan) -> Vec<FormulaRole> {
        plan.roles.iter().map(|(_, role)| *role).collect()
    }

    #[test]
    fn a_definition_binds_and_the_claim_after_it_reads_through_it() {
        let plans = plans("## 1 S\n\n$$u = x^2$$\n\n$$\\frac{\\partial u}{\\partial x} = 2x$$\n");
        let [section] = plans.as_slice() else { panic!("one section") };
        assert_eq!(roles(section), [FormulaRole::Definition, FormulaRole::Claims]);
        assert_eq!(section.claims.len(), 1);
        assert!(section.scope.as_ref().is_ok_and(|s| s.defs.contains_key("u")), "u is bound in the scope");
    }

    #[test]
    fn every_link_of_a_chain_after_a_definition_is_a_claim_of_its_own() {
        let plans = plans("## 1 S\n\n$$y = (x+1)^2 = x^2 + 2x + 1 = x^2 + 1$$\n");
        let ids: Vec<&str> = plans[0].claims.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["1#1.2", "1#1.3"], "the first link defines y; the others are claims");
    }

    #[test]
    fn a_later_section_that_defines_a_letter_again_shadows_the_earlier_one() {
        let plans = plans("## 1 A\n\n$$f(x) = x^2$$\n\n## 2 B\n\n$$f(x) = x^3$$\n\n$$f(2) = 8$$\n");
        assert!(plans[0].shadowed.is_empty());
        assert_eq!(plans[1].shadowed.iter().map(|s| s.key.as_str()).collect::<Vec<_>>(), ["f"]);
    }

    #[test]
    fn names_set_equal_before_a_value_are_defined_by_it_and_claim_nothing() {
        let planned = plans("## 1 S\n\nThe loss:\n$$\\text{Error}=E=\\frac{1}{2}\\sum_{i=1}^m(x_i-t_i)^2$$\n");
        let [section] = planned.as_slice() else { panic!("one section") };
        assert!(section.claims.is_empty(), "{:?}", section.claims.iter().map(|c| &c.tex).collect::<Vec<_>>());
        assert!(section.scope.as_ref().is_ok_and(|s| s.defs.contains_key("E")), "E is bound in the scope");
        // A name already given a meaning makes the chain a claim again.
        let planned = plans("## 1 S\n\n$$E = x^2$$\n\nThen\n$$\\text{Error}=E=x^3$$\n");
        assert!(!planned[0].claims.is_empty());
    }

    #[test]
    fn a_size_the_words_give_a_matrix_declares_its_shape() {
        let shape = |text: &str, key: &str| {
            let planned = plans(text);
            let scope = planned[0].scope.as_ref().expect("a scope");
            match scope.decls.get(key) {
                Some(crate::sema::Decl::Matrix { rows, cols }) => Some([rows.clone(), cols.clone()]),
                _ => None,
            }
        };
        let mn = Some(["m".to_string(), "n".to_string()]);
        let nn = Some(["n".to_string(), "n".to_string()]);
        assert_eq!(shape("## 1 S\n\n设$A$是$m \\times n$矩阵，则$(A^T)^T=A$。\n", "A"), mn);
        assert_eq!(shape("## 1 S\n\n设$A = (a_{ij})$是$m \\times n$矩阵，$A^T$。\n", "A"), mn);
        assert_eq!(shape("## 1 S\n\n设$A$为$n$阶方阵，$A^T$。\n", "A"), nn);
        assert_eq!(shape("## 1 S\n\nLet $A$ be an $n \\times n$ matrix and $A^T$ its transpose.\n", "A"), nn);
        assert_eq!(shape("## 1 S\n\nFor an $m \\times n$ matrix $A$, $A^T$ is its transpose.\n", "A"), mn);
        assert_eq!(shape("## 1 S\n\n设$A = (a_{ij})_{m \\times n}$，$A^T$。\n", "A"), mn);
        // One size before "matrix" says nothing of the other; other words between say nothing.
        // (A shape read off the uses may still be declared: not the one the words would give.)
        assert_ne!(shape("## 1 S\n\nLet $A$ be an $n$ matrix, $A^T$.\n", "A"), nn);
        assert_ne!(shape("## 1 S\n\n$A$ has $m \\times n$ entries, $A^T$.\n", "A"), mn);
    }

    #[test]
    fn a_capital_with_two_indices_beside_its_small_letter_is_no_entry_for_sure() {
        let planned = plans("## 1 S\n\n$a_{i1}A_{j1} + a_{i2}A_{j2} = 0$ and $AA^T = A^TA$\n");
        let scope = planned[0].scope.as_ref().expect("a scope");
        assert!(scope.usage.entries_ambiguous.contains("A"));
        let planned = plans("## 1 S\n\n$c_{ij} = a_{ij} + b_{ij}$ and $C = A + B$\n");
        assert!(planned[0].scope.as_ref().expect("a scope").usage.entries_ambiguous.is_empty());
    }

    #[test]
    fn an_update_step_written_with_an_equals_sign_is_read_as_one() {
        let plans = plans("## 1 S\n\nAt each step, $t = t + 1$.\n");
        let claim = plans[0].claims.first().expect("a claim");
        assert_eq!(claim.reading.alternative.as_ref().map(|o| o.role), Some(WordsRole::Update));
    }
}
