//! Stage 4 — `sema`: parsed formulas and the spec in, per-section [`SectionPlan`]s out: the
//! definitions in scope and the claims to check, each pointing at where it was written.
//!
//! An equation whose left side is a symbol not yet given a meaning in its section defines it
//! (`a_j=e^{s_j}/D` defines the family a with parameter j, since j is a declared index); every
//! other equation, and every further link of a chain `A = B = C`, is a claim. Relations between
//! indices in the same formula (`\qquad k\ne j`) are conditions on its claims. Pure data out.

mod bindings;
mod builder;
mod chains;
mod changes;
mod claim;
mod claims;
mod cues;
mod declarations;
mod distributions;
mod entries;
mod forms;
mod formula;
pub mod givens;
mod readings;
pub mod recurrence;
pub mod roles;
pub mod scope;
mod section;
pub mod shapes;
mod skeleton;
mod solutions;
#[cfg(test)]
mod testing;

use declarations::shape_declarations;
pub use distributions::Law;
pub use skeleton::spec_skeleton;

use crate::spec::Spec;
use crate::syntax::ast::{Chain, Statement};
use crate::syntax::print;
pub use scope::{Assumption, Decl, Definition, FunctionKind, IndexRange, MatrixClass, Scope, Shape};
use std::collections::BTreeMap;

use builder::SectionBuilder;
pub use claim::*;
use forms::*;
use section::{matrix_like_in, section_spec_present};

/// Builds the plans of one document's sections, in order of appearance. With
/// `with_spec_only`, sections the spec has and the notes do not (claims stated only in words,
/// with their own definitions) are planned too, after the others.
pub fn plan(
    parsed: &crate::listing::ParsedDocument,
    spec: Option<&Spec>,
    spec_text: &str,
    with_spec_only: bool,
) -> Vec<SectionPlan> {
    let doc = parsed.doc;
    // `\delta x = …` beside `\delta y_i`: a prefix that names a quantity per letter, made one
    // symbol in every formula of the chapter.
    let statements: Vec<(usize, &Statement)> = parsed.statements().collect();
    let renamed = changes::changes_as_names(&statements);
    let formulas: Vec<ParsedFormula> = match &renamed {
        Some(renamed) => renamed.iter().map(|(index, statement)| ParsedFormula { index: *index, statement }).collect(),
        None => statements.iter().map(|&(index, statement)| ParsedFormula { index, statement }).collect(),
    };
    let mut by_section: BTreeMap<Option<usize>, Vec<&ParsedFormula>> = BTreeMap::new();
    for f in &formulas {
        by_section.entry(doc.formulas[f.index].section).or_default().push(f);
    }
    // What the notes define (`\sigma(z)=…`, `z=w^\top x+b`) stays defined in the sections
    // after, unless a later section defines the same name again (which shadows it, and says so).
    let mut chapter_defs: Vec<Definition> = Vec::new();
    let mut contested: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut shapes: Vec<(String, [String; 2], String)> = Vec::new();
    // The shapes declared of a letter written bold in the declaring section: (key, section).
    let mut declared_bold: std::collections::BTreeSet<(String, String)> = std::collections::BTreeSet::new();
    let mut recurrences: Vec<recurrence::Recurrence> = Vec::new();
    let mut plans: Vec<SectionPlan> = Vec::new();
    let mut document_keys = std::collections::BTreeSet::new();
    formulas
        .iter()
        .flat_map(|f| &f.statement.chains)
        .flat_map(Chain::exprs)
        .for_each(|e| collect_keys(e, &mut document_keys));
    let document_keys = std::rc::Rc::new(document_keys);
    let mut statistics = cues::statistics_named(doc.formulas.iter());
    statistics.extend(cues::points_named(&doc.formulas));
    let statistics = std::rc::Rc::new(statistics);
    let eigenvalues = std::rc::Rc::new(cues::eigenvalues_named(&doc.formulas, &statements));
    let finite_sets = std::rc::Rc::new(cues::finite_sets(statements.iter().map(|(_, s)| *s)));
    let facts = cues::chapter_facts(doc);
    // How deep the section each carried definition was made in: a section's definitions reach
    // the end of the section that holds it (a `###` subsection's, the end of its `##`), as a
    // block's bindings reach the end of the enclosing block.
    let mut made_at_depth: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    let mut previous_section: Option<usize> = None;
    let mut depth_of_number: std::collections::BTreeMap<String, usize> = std::collections::BTreeMap::new();
    for (section, fs) in by_section {
        let (number, title) = section
            .map(|i| (doc.sections[i].number.clone(), doc.sections[i].title.clone()))
            .unwrap_or_else(|| ("0".into(), String::new()));
        let depth = section.map_or(0, |i| doc.sections[i].depth);
        // (The shallowest heading since the section before with formulas closes what it
        // nests in: `### 1.1.4`'s definitions end at `## 1.6`, which holds no formula itself.)
        let passed = section.map_or(0, |i| {
            let from = previous_section.map_or(0, |p: usize| p + 1);
            doc.sections[from.min(i)..=i].iter().map(|s| s.depth).min().unwrap_or(depth)
        });
        previous_section = section.or(previous_section);
        chapter_defs.retain(|d| made_at_depth.get(&d.key).is_none_or(|made| *made <= passed));
        shapes.retain(|(_, _, made_in)| depth_of_number.get(made_in).is_none_or(|made| *made <= passed));
        depth_of_number.insert(number.clone(), depth);
        // Shapes the notes declare (`X\in\mathbb R^{n\times d}`) hold from their section on.
        let here = number.clone();
        shapes.extend(
            fs.iter().flat_map(|f| shape_declarations(f.statement)).map(|(key, dims)| (key, dims, here.clone())),
        );
        // `设$A$是$m \times n$矩阵`: a size the words give a matrix.
        shapes.extend(cues::shapes_in_words(doc, &fs).into_iter().map(|(key, dims)| (key, dims, here.clone())));
        // `\boldsymbol w = (w_1; …; w_d)` in one section, then a section that writes w only plain
        // (`E_{(w, b)} = \sum_i (y_i - w x_i - b)^2`, a one-variable regression): the vector
        // declared bold is not the plain letter there.
        let (mut bold, mut plain) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
        fs.iter()
            .flat_map(|f| &f.statement.chains)
            .flat_map(Chain::exprs)
            .for_each(|e| forms::letters_by_weight(e, &mut bold, &mut plain));
        declared_bold.extend(
            shapes
                .iter()
                .filter(|(key, _, made)| *made == here && bold.contains(key))
                .map(|(k, _, m)| (k.clone(), m.clone())),
        );
        let section_shapes: Vec<(String, [String; 2], String)> = shapes
            .iter()
            .filter(|(key, _, made)| {
                *made == here
                    || !declared_bold.contains(&(key.clone(), made.clone()))
                    || bold.contains(key)
                    || !plain.contains(key)
            })
            .cloned()
            .collect();
        // `a_{ij}` beside `\mathbf A`: the entries of A, where nothing else is meant by it.
        let rewritten = entry_readings(&fs, &chapter_defs, &section_shapes, spec, &number);
        let reread: Vec<ParsedFormula> = rewritten
            .iter()
            .flat_map(|r| r.statements.iter().map(|(index, statement)| ParsedFormula { index: *index, statement }))
            .collect();
        let fs: Vec<&ParsedFormula> = if rewritten.is_some() { reread.iter().collect() } else { fs };
        let mut builder = SectionBuilder::new(doc, &number, spec, spec_text, facts);
        builder.words.entry_letters = rewritten.as_ref().map(|r| r.letters.clone()).unwrap_or_default();
        builder.letters.notes_shapes = section_shapes;
        builder.bindings.inherited = chapter_defs.clone();
        builder.bindings.recurrences = std::mem::take(&mut recurrences);
        builder.chapter.owns_spec = with_spec_only;
        builder.chapter.document_keys = document_keys.clone();
        builder.chapter.statistics = statistics.clone();
        builder.chapter.eigenvalues = eigenvalues.clone();
        builder.chapter.finite_sets = finite_sets.clone();
        let (plan, defined) = builder.build_with_definitions(title, &fs);
        recurrences = plan.recurrences.clone();
        for def in defined {
            // A letter two sections define differently (`f` of each worked example) has no one
            // meaning to carry on: the sections after that do not define it see it undefined.
            let written = |d: &Definition| print::explicit_tex(&d.body, &|_| false);
            let differs = chapter_defs.iter().any(|f| f.key == def.key && written(f) != written(&def));
            chapter_defs.retain(|f| f.key != def.key);
            if differs {
                contested.insert(def.key.clone());
            }
            made_at_depth.insert(def.key.clone(), depth);
            chapter_defs.push(def);
        }
        chapter_defs.retain(|d| !contested.contains(&d.key));
        plans.push(plan);
    }
    if let (Some(spec), true) = (spec, with_spec_only) {
        let present: Vec<String> = plans.iter().map(|p| p.number.clone()).collect();
        for number in spec.extra_sections(&present) {
            let mut builder = SectionBuilder::new(doc, number, Some(spec), spec_text, facts);
            builder.chapter.owns_spec = true;
            plans.push(builder.build(String::new(), &[]));
        }
    }
    plans
}

/// The section's formulas with the small letters that write a matrix's entries (see
/// [`entries`]) rewritten as entries of it, and those letters; `None` where there are none.
fn entry_readings(
    formulas: &[&ParsedFormula],
    chapter_defs: &[Definition],
    shapes: &[(String, [String; 2], String)],
    spec: Option<&Spec>,
    number: &str,
) -> Option<EntryReading> {
    if spec.is_some_and(|spec| section_spec_present(Some(spec), number)) {
        return None;
    }
    let statements: Vec<&Statement> = formulas.iter().map(|f| f.statement).collect();
    // (A shape declared for the small letter as a vector, `\mathbf x\in\mathbb R^n`, is the
    // vector whose entries `x_i` are: no other meaning.)
    let known = |k: &str| {
        chapter_defs.iter().any(|d| d.key == k)
            || shapes.iter().any(|(key, dims, _)| key == k && !dims.contains(&"1".to_string()))
    };
    let matrix_like = matrix_like_in(formulas);
    let is_matrix = |k: &str| {
        matrix_like.contains(k) || shapes.iter().any(|(key, dims, _)| key == k && dims.iter().all(|d| d != "1"))
    };
    let letters = entries::entry_letters(&statements, &known, &is_matrix);
    if letters.is_empty() {
        return None;
    }
    let statements = formulas.iter().map(|f| (f.index, entries::rewrite(f.statement, &letters))).collect();
    Some(EntryReading { letters, statements })
}

/// A section's formulas read with small letters as the entries of their matrices.
struct EntryReading {
    letters: Vec<entries::EntryLetter>,
    /// Each formula's index with its statement rewritten.
    statements: Vec<(usize, Statement)>,
}

/// `(\mathbf W\mathbf W^\top)^\top = \mathbf W\mathbf W^\top` in a section whose uses of W do not
/// fit one another (so [`shapes::infer`] gave it no shape): the shapes the claim's own two sides force on
/// the letters they write as vectors or matrices and nothing in `scope` declares, defines or
/// sizes: the scope with those shapes declared and the new sizes they name (at the default
/// sizes), and the shapes. `None` where there is no such letter, or the sides leave
/// one without a shape. For a second look that only verifies: what holds at every shape the claim
/// allows holds at the one the text means.
pub fn shapes_of_one_claim(
    scope: &Scope,
    lhs: &crate::syntax::ast::Expr,
    rhs: &crate::syntax::ast::Expr,
) -> Option<(Scope, Vec<shapes::InferredShape>)> {
    let mut matrix_like = std::collections::HashSet::new();
    declarations::collect_matrix_like(lhs, &mut matrix_like);
    declarations::collect_matrix_like(rhs, &mut matrix_like);
    let targets: std::collections::BTreeSet<String> = matrix_like
        .into_iter()
        .filter(|k| {
            !scope.decls.contains_key(k)
                && !scope.defs.contains_key(k)
                && !scope.sizes.contains_key(k)
                && !k.contains('_')
                && !scope.usage.unknown_functions.contains(k)
        })
        .collect();
    if targets.is_empty() {
        return None;
    }
    let declared: BTreeMap<String, [String; 2]> = scope
        .decls
        .iter()
        .filter_map(|(k, d)| match d {
            Decl::Matrix { rows, cols } => Some((k.clone(), [rows.clone(), cols.clone()])),
            Decl::Identity { n } => Some((k.clone(), [n.clone(), n.clone()])),
            _ => None,
        })
        .collect();
    let defined: std::collections::BTreeSet<String> = scope.defs.keys().cloned().collect();
    let mut taken: std::collections::BTreeSet<String> = scope.sizes.keys().chain(scope.decls.keys()).cloned().collect();
    fn keys(e: &crate::syntax::ast::Expr, out: &mut std::collections::BTreeSet<String>) {
        out.extend(e.symbol_key());
        e.children().for_each(|c| keys(c, out));
    }
    keys(lhs, &mut taken);
    keys(rhs, &mut taken);
    let chain = Chain {
        first: Some(lhs.clone()),
        links: vec![crate::syntax::ast::Link { op: crate::syntax::ast::RelOp::Eq, rhs: rhs.clone() }],
        span: lhs.span,
    };
    let known = shapes::Known { targets: &targets, declared: &declared, defined: &defined, taken: &taken };
    let (inferred, sizes) = shapes::infer(std::slice::from_ref(&chain), &known);
    if !targets.iter().all(|t| inferred.iter().any(|s| s.key == *t)) {
        return None;
    }
    let mut shaped = scope.clone();
    for size in sizes {
        shaped.sizes.insert(size, section::DEFAULT_SIZES.to_vec());
    }
    for shape in &inferred {
        let decl = if shape.identity {
            Decl::Identity { n: shape.rows.clone() }
        } else {
            Decl::Matrix { rows: shape.rows.clone(), cols: shape.cols.clone() }
        };
        shaped.decls.insert(shape.key.clone(), decl);
    }
    Some((shaped, inferred))
}
