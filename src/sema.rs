//! Stage 4 — `sema`: parsed formulas and the spec in, per-section [`SectionPlan`]s out: the
//! definitions in scope and the claims to check, each pointing at where it was written.
//!
//! An equation whose left side is a symbol not yet given a meaning in its section defines it
//! (`a_j=e^{s_j}/D` defines the family a with parameter j, since j is a declared index); every
//! other equation, and every further link of a chain `A = B = C`, is a claim. Relations between
//! indices in the same formula (`\qquad k\ne j`) are conditions on its claims. Pure data out.

mod chains;
mod declarations;
mod distributions;
mod entries;
pub mod givens;
pub mod recurrence;
pub mod roles;
pub mod scope;
pub mod shapes;
mod skeleton;

use chains::{claim_kind, contains, flatten_environments, mentions_key, nested_relations, zero_of_vectors};
use declarations::{
    bounded_sums, collect_matrix_like, collect_product_orders, collect_single_entries, collect_values, entries_letter,
    own_entries_shape, shape_declaration, shape_declarations, summation_letters, vector_cells,
};
pub use distributions::Law;
pub use skeleton::spec_skeleton;

use crate::notes::{Document, FormulaSite, Mark};
use crate::spec::{SectionSpec, Spec};
use crate::syntax::ast::{Accent, BinOp, Chain, Expr, ExprKind, RelOp, Statement};
use crate::syntax::print;
pub use scope::{Assumption, Decl, Definition, FunctionKind, IndexRange, MatrixClass, Scope, Shape};
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimKind {
    /// Two expressions are equal.
    Identity,
    /// A side is a derivative `\frac{\partial f}{\partial x}` computed by the CAS.
    Derivative,
    /// The left side is an adjoint `\bar Y` (∂L/∂Y).
    Adjoint,
    /// A side is a matrix of printed numbers.
    Printed,
}

/// Where a claim was written.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "in", rename_all = "snake_case")]
pub enum Origin {
    /// `range`: the byte range of the formula's TeX in the notes file.
    Notes {
        formula: String,
        line: usize,
        col: usize,
        range: (usize, usize),
    },
    Spec {
        name: String,
        line: usize,
        col: usize,
    },
}

#[derive(Debug, Clone)]
pub struct Claim {
    /// `15.1#3.2`: the second link of formula 15.1#3; `15.1/spec:name` for spec claims.
    pub id: String,
    pub section: String,
    pub origin: Origin,
    /// The whole formula's TeX (or the spec claim's).
    pub tex: String,
    pub kind: ClaimKind,
    pub lhs: Expr,
    pub rhs: Expr,
    pub conditions: Vec<Chain>,
    /// `false` for a spec claim the text says fails in general: shown by a counterexample.
    pub holds: bool,
    /// To be checked in the worked example's variant.
    pub variant: bool,
    /// Written with `\approx`: equal to the printed precision of a decimal side.
    pub approx: bool,
    /// The claim printed back with every operation explicit (`a_j\cdot a_k`), as read.
    pub understood: String,
    /// How the text around it bears on the claim: values in force, another plausible reading.
    pub reading: ClaimReading,
}

impl Claim {
    /// The sides as the notes write them (before a recurrence or a vector's zero rewrote them):
    /// what the TeX's spans point into, what an edit of the text changes.
    pub fn written_sides(&self) -> (&Expr, &Expr) {
        match &self.reading.written {
            Some(written) => (&written.lhs, &written.rhs),
            None => (&self.lhs, &self.rhs),
        }
    }

    /// This claim with other sides, written as its own are: read through the same rewrite.
    pub fn with_written_sides(&self, lhs: &Expr, rhs: &Expr, tex: String) -> Claim {
        let (lhs, rhs) = match &self.reading.written {
            Some(written) => written.reread(lhs, rhs),
            None => (lhs.clone(), rhs.clone()),
        };
        let mut reading = self.reading.clone();
        reading.written = None;
        Claim { lhs, rhs, tex, reading, ..self.clone() }
    }
}

/// What the prose around a claim adds to it.
#[derive(Debug, Clone, Default)]
pub struct ClaimReading {
    /// Definitions in force for this claim only, replacing the section's: a binding of the
    /// paragraph (`x=10`), an example definition made earlier in the section (`f(x)=\exp(x)`).
    pub overrides: Vec<Definition>,
    /// The bindings among them, as written (`x=10`): the verdict says it was checked with them.
    pub given: Vec<String>,
    /// Another reading the text leaves open: a counterexample then leaves the claim undecided,
    /// naming it, instead of refuting it.
    pub alternative: Option<OtherReading>,
    /// The author marked it a claim (`<!-- derivcheck: claim -->` or `wrong`): its letters mean
    /// what they mean where it stands, no other reading is tried.
    pub marked: bool,
    /// A link after the chain's first: it rewrites the side before it.
    pub rewrites: bool,
    /// Equations the text states as conditions before the claim, in its paragraph or the one
    /// before (`这里 $\sum_i\alpha_i=1$，因此 …`): a claim false in general may follow from them.
    pub stated: Vec<Assumption>,
    /// Equations the section states as conditions before that (outside the paragraph and the
    /// one before), nearest last: a refutation that one of them undoes is left undecided.
    pub stated_earlier: Vec<Assumption>,
    /// The sides as written, where sema rewrote them (through a recurrence, or a `0` read as the
    /// zero vector): an edit of the text (a repair, a mutant) is read the same way.
    pub written: Option<Box<WrittenSides>>,
    /// Letters the words call numbers (`for numbers $a$ and $b$`) earlier in its paragraph: in
    /// a claim about random variables, constants, not random.
    pub constants: Vec<String>,
    /// Letters the words before it call random variables (`For any random variable $X$`): the
    /// claim speaks of any such variable, not of what an earlier formula made the letter.
    pub random: Vec<String>,
    /// Letters the words before it call a kind of matrix (`for an orthogonal matrix
    /// $\mathbf U$`): the claim speaks of any matrix of that kind.
    pub classes: Vec<(String, MatrixClass)>,
    /// Letters the words before it call a kind of matrix derivcheck does not construct
    /// (`假设随机矩阵$A$`, `for a projection matrix $\mathbf P$`), with the kind as written.
    pub kinds: Vec<(String, String)>,
    /// A relation the words before it suppose between its letters that derivcheck does not
    /// model (`若 $A \sim B$，则 …`: similar matrices; `\perp`, `\equiv`, `\succeq`): its TeX.
    /// The claim rests on it, so it is neither verified nor refuted without it.
    pub hypothesis: Option<String>,
    /// Independence of its random variables the words before it state.
    pub independence: Option<crate::model::Independence>,
    /// How it was read through the recurrences it reaches.
    pub unrolled: Option<crate::model::Unrolled>,
    /// Distributions the words before it give a random variable value by value (`$X$ takes the
    /// value $a-2$ with probability $p$, …`), in its section.
    pub laws: Vec<Law>,
    /// The chapter's words name entropy or mutual information (`entropy`, `熵`, `互信息`):
    /// `H(X)`, `H(Y \mid X)`, `I(X, Y)` of random variables are those.
    pub information: bool,
    /// A letter the words around it call small (`for a small $\epsilon$`, `as $\epsilon
    /// \rightarrow 0$`, `对于很小的$h$`): a `\approx` in it holds to the order of that letter
    /// written on its approximate side.
    pub small: Option<String>,
}

/// A claim's sides before sema rewrote them, and what rewrote them.
#[derive(Debug, Clone)]
pub struct WrittenSides {
    pub lhs: Expr,
    pub rhs: Expr,
    /// The recurrences in force where the claim stands.
    pub recurrences: Vec<recurrence::Recurrence>,
}

impl WrittenSides {
    /// Other sides of the same claim, read as sema read the written ones.
    pub fn reread(&self, lhs: &Expr, rhs: &Expr) -> (Expr, Expr) {
        let (lhs, rhs, _) = read_sides(&self.recurrences, lhs, rhs);
        (lhs, rhs)
    }
}

/// A claim's sides as checked: through the recurrences they reach (with how they were read), or
/// with a `0` against vectors read as the zero vector.
fn read_sides(
    recurrences: &[recurrence::Recurrence],
    lhs: &Expr,
    rhs: &Expr,
) -> (Expr, Expr, Option<crate::model::Unrolled>) {
    match recurrence::rewrite(recurrences, lhs, rhs) {
        Some(read) => (read.lhs, read.rhs, Some(read.reading)),
        None => {
            let (lhs, rhs) = zero_of_vectors(lhs, rhs);
            (lhs, rhs, None)
        }
    }
}

/// A reading of a formula other than "an identity for every value of its letters".
#[derive(Debug, Clone, PartialEq)]
pub struct OtherReading {
    pub reading: crate::model::Reading,
    pub symbol: Option<String>,
    pub earlier: Option<String>,
}

/// A formula (or chain) that is not checked, and why.
#[derive(Debug, Clone, Serialize)]
pub struct Skipped {
    pub formula: String,
    pub reason: crate::model::SkipReason,
}

/// A worked example of a section: its spec and the extra definitions it brings.
#[derive(Debug, Clone)]
pub struct ExamplePlan {
    pub spec: crate::spec::ExampleSpec,
    pub defines: Vec<Definition>,
}

#[derive(Debug, Clone)]
pub struct SectionPlan {
    pub number: String,
    pub title: String,
    pub example: Option<ExamplePlan>,
    /// `Err` when the section has no spec entry or the spec entry is unusable.
    pub scope: Result<Scope, crate::model::Reason>,
    pub claims: Vec<Claim>,
    pub skipped: Vec<Skipped>,
    /// Definitions of earlier sections that this section's notes define again (and so shadow).
    pub shadowed: Vec<Shadowing>,
    /// The role of each of the section's formulas, by formula id.
    pub roles: Vec<(String, crate::model::FormulaRole)>,
    /// Spec entries that could not take effect (a define of a declared symbol, a duplicate):
    /// the run stops on them, at the spec's line.
    pub spec_problems: Vec<SpecProblem>,
    /// The recurrences in force at the end of the section (its own and earlier ones).
    pub recurrences: Vec<recurrence::Recurrence>,
}

/// A name an earlier section defined, defined again: from here on the new definition holds.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shadowing {
    pub key: String,
    /// Where the new definition is (line and column in the notes).
    pub line: usize,
    pub col: usize,
    /// Where the earlier one was, in the same notes (`11:3`).
    pub earlier: String,
}

/// A spec entry that cannot take effect, at its position in the spec file.
#[derive(Debug, Clone, PartialEq)]
pub struct SpecProblem {
    pub line: usize,
    pub col: usize,
    pub kind: crate::spec::SpecErrorKind,
}

impl From<&crate::spec::SpecError> for SpecProblem {
    fn from(error: &crate::spec::SpecError) -> SpecProblem {
        SpecProblem { line: error.line, col: error.col, kind: (*error.kind).clone() }
    }
}

/// A parsed formula of a document (failed parses are left out by the caller).
pub struct ParsedFormula<'a> {
    pub index: usize,
    pub statement: &'a Statement,
}

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
    let formulas: Vec<ParsedFormula> =
        parsed.statements().map(|(index, statement)| ParsedFormula { index, statement }).collect();
    let mut by_section: BTreeMap<Option<usize>, Vec<&ParsedFormula>> = BTreeMap::new();
    for f in &formulas {
        by_section.entry(doc.formulas[f.index].section).or_default().push(f);
    }
    // What the notes define (`\sigma(z)=…`, `z=w^\top x+b`) stays defined in the sections
    // after, unless a later section defines the same name again (which shadows it, and says so).
    let mut chapter_defs: Vec<Definition> = Vec::new();
    let mut contested: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    let mut shapes: Vec<(String, [String; 2], String)> = Vec::new();
    let mut recurrences: Vec<recurrence::Recurrence> = Vec::new();
    let mut plans: Vec<SectionPlan> = Vec::new();
    let mut document_keys = std::collections::BTreeSet::new();
    formulas
        .iter()
        .flat_map(|f| &f.statement.chains)
        .flat_map(Chain::exprs)
        .for_each(|e| collect_keys(e, &mut document_keys));
    let document_keys = std::rc::Rc::new(document_keys);
    for (section, fs) in by_section {
        let (number, title) = section
            .map(|i| (doc.sections[i].number.clone(), doc.sections[i].title.clone()))
            .unwrap_or_else(|| ("0".into(), String::new()));
        // Shapes the notes declare (`X\in\mathbb R^{n\times d}`) hold from their section on.
        let here = number.clone();
        shapes.extend(
            fs.iter().flat_map(|f| shape_declarations(f.statement)).map(|(key, dims)| (key, dims, here.clone())),
        );
        // `a_{ij}` beside `\mathbf A`: the entries of A, where nothing else is meant by it.
        let rewritten = entry_readings(&fs, &chapter_defs, &shapes, spec, &number);
        let reread: Vec<ParsedFormula> = rewritten
            .iter()
            .flat_map(|r| r.statements.iter().map(|(index, statement)| ParsedFormula { index: *index, statement }))
            .collect();
        let fs: Vec<&ParsedFormula> = if rewritten.is_some() { reread.iter().collect() } else { fs };
        let mut builder = SectionBuilder::new(doc, &number, spec, spec_text);
        builder.words.entry_letters = rewritten.as_ref().map(|r| r.letters.clone()).unwrap_or_default();
        builder.letters.notes_shapes = shapes.clone();
        builder.bindings.inherited = chapter_defs.clone();
        builder.bindings.recurrences = std::mem::take(&mut recurrences);
        builder.chapter.owns_spec = with_spec_only;
        builder.chapter.document_keys = document_keys.clone();
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
            chapter_defs.push(def);
        }
        chapter_defs.retain(|d| !contested.contains(&d.key));
        plans.push(plan);
    }
    if let (Some(spec), true) = (spec, with_spec_only) {
        let present: Vec<String> = plans.iter().map(|p| p.number.clone()).collect();
        for number in spec.extra_sections(&present) {
            let mut builder = SectionBuilder::new(doc, number, Some(spec), spec_text);
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

/// A section's plan under construction: the chapter's inputs, the section's words and letters,
/// the bindings made so far and the output, each part its own struct.
struct SectionBuilder<'a> {
    number: String,
    spec: Option<crate::spec::SectionSpec>,
    /// The notes' formulas decide the section's sizes and letters: no spec entry pins them.
    pinned: bool,
    /// What the whole chapter gives every section: its text, its spec, and what its words say once.
    chapter: ChapterInputs<'a>,
    /// What the section's words and notation say, read before its formulas are added (the cues).
    words: SectionWords,
    /// What the section declares of its letters so far: indices, shapes, functions, the keys written.
    letters: SectionLetters,
    /// The meanings the text gives letters so far: definitions (inherited and the section's), values bound for a paragraph or an example, conditions stated, recurrences, distributions.
    bindings: Bindings,
    /// What the section gives: claims, formulas not checked, roles, spec problems.
    out: SectionOutput,
    /// What the formula being added has been found to be so far.
    current: CurrentFormula,
}

/// What the whole chapter gives every section: its text, its spec, and what its words say once.
struct ChapterInputs<'a> {
    doc: &'a Document,
    spec_full: Option<&'a Spec>,
    spec_text: &'a str,
    /// Every symbol key the document writes (sizes read off use are named apart from them).
    document_keys: std::rc::Rc<std::collections::BTreeSet<String>>,
    /// This document plans the spec's own claims (one document of a chapter does, so each
    /// appears once).
    owns_spec: bool,
    /// The notes speak of entropy or mutual information ([`names_information`]).
    information: bool,
    /// The notes speak of random variables or distributions ([`names_probability`]).
    probabilistic: bool,
}

/// What the section's words and notation say, read before its formulas are added (the cues).
#[derive(Default)]
struct SectionWords {
    /// The distributions this section's words give value by value, each with the paragraph
    /// that ends it ([`distributions::laws_in`]).
    laws: Vec<(usize, Law)>,
    /// The equations this section's words call deterministic functions (read once per section).
    deterministic: Vec<Deterministic>,
    /// Relations the section's words suppose and derivcheck does not model, in order: the
    /// letters each relates and its TeX ([`ClaimReading::hypothesis`]).
    hypotheses: Vec<(BTreeSet<String>, String)>,
    /// What each formula's words say, read once: every later formula asks again.
    words_read: std::cell::RefCell<WordsRead>,
    /// See [`SectionBuilder::first_renaming`].
    first_renaming: Option<usize>,
    /// Letters the section writes bold with an index (`\mathbf a_i`): a family of vectors.
    vector_families: std::collections::BTreeSet<String>,
    /// Letters the section writes plain with one index (`x_1`, `x_n`): entries, or numbers.
    entry_letters_plain: std::collections::BTreeSet<String>,
    /// Small letters read as the entries of their capital in this section ([`entries`]).
    entry_letters: Vec<entries::EntryLetter>,
}

/// What the section declares of its letters so far: indices, shapes, functions, the keys written.
#[derive(Default)]
struct SectionLetters {
    index_letters: Vec<String>,
    known: Vec<String>,
    /// Every symbol key the section's formulas before this one write.
    written: std::collections::BTreeSet<String>,
    /// Keys the spec declares as functions (a family `R_i` may share its letter with `R(θ)`).
    declared_functions: Vec<(String, FunctionKind)>,
    /// Keys the spec declares as matrices or identities: any subscript on them is an entry.
    declared_matrices: Vec<String>,
    /// Shapes the notes declare up to this section (`w\in\mathbb R^{d}`), with the section each is
    /// declared in.
    notes_shapes: Vec<(String, [String; 2], String)>,
    /// Letters whose shape in force was declared in an earlier section, or declared twice with
    /// different shapes in this one.
    declared_elsewhere: std::collections::BTreeSet<String>,
    /// Shapes read off use in this section (declared in its spec entry from then on).
    inferred: Vec<shapes::InferredShape>,
    /// See [`Scope::parameters`].
    parameters: std::collections::BTreeSet<String>,
}

/// The meanings the text gives letters so far: definitions (inherited and the section's), values bound for a paragraph or an example, conditions stated, recurrences, distributions.
#[derive(Default)]
struct Bindings {
    defs: Vec<Definition>,
    /// Functions earlier sections of the notes define: in scope here unless redefined.
    inherited: Vec<Definition>,
    /// Values and meanings given in the prose so far, in order: each reaches the claims of the
    /// blocks up to `until` (the rest of the section where `None`).
    given: Vec<Given>,
    /// Equations read as conditions so far, with their block (see [`ClaimReading::stated`]).
    stated: Vec<(usize, Assumption)>,
    /// Sequences defined by recursion, in this section and the ones before (newest last).
    recurrences: Vec<recurrence::Recurrence>,
    /// The moment letters each named distribution of the section gives a meaning (`\mu_X`,
    /// `\sigma_X`), with what the table says of them in TeX: a claim using one lists it.
    distributions: Vec<(Vec<String>, String)>,
    /// Letters a named distribution gave their moments (`\mu_X` of `X \sim \mathrm{Binomial}(n,
    /// p)`): the notes writing them again state the table's value, a claim.
    moments_given: BTreeSet<String>,
    /// Letters defined after words that assert ([`Scope::derived`]).
    derived: BTreeSet<String>,
    /// Definitions made so far (a redefinition counts too).
    definitions_made: usize,
    /// Earlier sections' definitions this section defines again.
    shadowed: Vec<Shadowing>,
}

/// What the section gives: claims, formulas not checked, roles, spec problems.
#[derive(Default)]
struct SectionOutput {
    claims: Vec<Claim>,
    skipped: Vec<Skipped>,
    roles: Vec<(String, crate::model::FormulaRole)>,
    spec_problems: Vec<SpecProblem>,
}

/// What the formula being added has been found to be so far.
#[derive(Default)]
struct CurrentFormula {
    /// The role a binding or an example definition gave the formula being added.
    formula_role: Option<crate::model::FormulaRole>,
    /// How far the definitions of the formula being added reach.
    reach: Reach,
    /// The letter the words call small around the formula being added.
    small: Option<String>,
}

/// What the words around each formula say, by formula index (see `words_read`).
#[derive(Default)]
struct WordsRead {
    /// The kind of matrix they name ([`roles::matrix_kind_unmodelled`]).
    kinds: std::collections::HashMap<usize, Option<String>>,
    /// Whether they call the formula's letters numbers ([`roles::names_constants`]).
    constants: std::collections::HashMap<usize, bool>,
    /// Whether they call its letters random variables ([`roles::names_random_variables`]).
    random: std::collections::HashMap<usize, bool>,
    /// The kind of matrix derivcheck constructs they name ([`roles::matrix_class_named`]).
    classes: std::collections::HashMap<usize, Option<MatrixClass>>,
}

/// A value or meaning the notes give a letter mid-section: a binding (`x=10`, for its
/// paragraph) or an example definition (`f(x)=\exp(x)`, for the rest of the section).
struct Given {
    definition: Definition,
    /// The last block it reaches; `None`: the rest of the section.
    until: Option<usize>,
    /// As written, for the verdict (`x=10`); empty for an example definition.
    tex: String,
    /// Given by a worked example (a definition written inside it): it ends where the text opens
    /// another example or turns general.
    example: bool,
}

impl Given {
    /// Given by the worked example open here (not yet ended by another or by general words).
    fn open_example(&self) -> bool {
        self.example && self.until.is_none()
    }
}

/// How far the definitions of the formula being added reach.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
enum Reach {
    /// The whole section (and the sections after it).
    #[default]
    Section,
    /// From here to the end of the worked example it stands in.
    Example,
    /// Its own paragraph (block): a definition offered in passing (`like $X = Y^2$`).
    Paragraph(usize),
}

/// What the words before a formula do to worked examples: how far its definitions reach, and
/// whether the example open before it ends there. See [`SectionBuilder::example_steps`].
#[derive(Debug, Clone, Copy)]
struct Step {
    reach: Reach,
    ends_example: bool,
}

impl<'a> SectionBuilder<'a> {
    fn new(doc: &'a Document, number: &str, spec: Option<&'a Spec>, spec_text: &'a str) -> Self {
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
                information: names_information(&doc.source),
                probabilistic: names_probability(&doc.source),
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
    fn complete_from_notes(&mut self, formulas: &[&ParsedFormula]) {
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
            if declared(spec, key) || defined {
                continue;
            }
            for dim in dims.iter().filter(|d| d.parse::<u32>().is_err()) {
                if !spec.sizes.contains_key(dim) {
                    spec.sizes.insert(dim.clone(), toml::Spanned::new(0..0, DEFAULT_SIZES.to_vec()));
                }
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
    fn shapes_from_use(&mut self, formulas: &[&ParsedFormula]) {
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
    fn build_with_definitions(self, title: String, formulas: &[&ParsedFormula]) -> (SectionPlan, Vec<Definition>) {
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

    fn build(mut self, title: String, formulas: &[&ParsedFormula]) -> SectionPlan {
        // (Every formula of the section, parsed or not: the words run between them.)
        if let Some(section) = formulas.first().map(|f| self.chapter.doc.formulas[f.index].section) {
            let sites: Vec<&FormulaSite> = self.chapter.doc.formulas.iter().filter(|f| f.section == section).collect();
            self.words.laws =
                distributions::laws_in(&sites).into_iter().map(|(end, law)| (sites[end].block, law)).collect();
            self.words.deterministic = deterministic_in(self.chapter.doc, section);
        }
        self.words.vector_families = vector_families(formulas);
        self.words.entry_letters_plain = plain_with_one_index(formulas);
        self.complete_from_notes(formulas);
        let spec = self.spec.clone().expect("complete_from_notes gives every section a spec");
        let scope_base = Scope::new(&self.number, &spec, Vec::new());
        if let Ok(base) = &scope_base {
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
        self.add_spec_definitions();
        // The earlier sections' definitions come out of a map: take them in one order, so that
        // the shadowing list (and the report) is the same on every run.
        let mut inherited = std::mem::take(&mut self.bindings.inherited);
        inherited.sort_by(|a, b| a.key.cmp(&b.key));
        let steps = self.example_steps(formulas);
        for def in inherited {
            let declared = self.letters.known.contains(&def.key)
                && !self.letters.declared_functions.iter().any(|(k, _)| *k == def.key);
            let target_key = |t: &Expr| self.function_target(t).or_else(|| self.definable(t)).map(|(k, _)| k);
            let redefinition = formulas.iter().zip(&steps).find_map(|(f, step)| {
                // (`f: \mathbb{R}^d \to \mathbb{R}`: a signature names the letter a function anew,
                // one this section does not specify.)
                let signature = |c: &Chain| def.function && signature_of(c).is_some_and(|k| k == def.key);
                let chain = f.statement.chains.iter().find(|c| {
                    signature(c)
                        || matches!(c.links.first(), Some(l) if matches!(l.op, RelOp::Eq | RelOp::Define))
                            && c.first.as_ref().and_then(target_key).is_some_and(|k| k == def.key)
                })?;
                // A definition inside a worked example, or in passing, shadows nothing for the
                // section.
                // (A signature gives no value, whatever example its sentence opens.)
                let function = self.function_target(chain.first.as_ref()?).is_some();
                if !signature(chain)
                    && step.reach != Reach::Section
                    && example_scoped(function, &chain.links.first()?.rhs)
                {
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
        self.words.first_renaming = self.first_renaming(formulas);
        for (f, step) in formulas.iter().zip(steps) {
            self.add_formula(f, step);
            f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| collect_keys(e, &mut self.letters.written));
        }
        if self.chapter.owns_spec {
            self.add_spec_claims();
        }
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
        let scope = scope_base
            .and_then(|_| Scope::new(&self.number, &spec, self.bindings.defs.clone()))
            .map(|mut scope| {
                scope.values = values;
                scope.given_values = givens::given_values(self.chapter.doc, formulas);
                scope.matrix_like = matrix_like;
                scope.assumptions = self.assumptions(&spec);
                scope.pinned = self.pinned;
                scope.inferred = self.letters.inferred.clone();
                scope.declared_elsewhere = self.letters.declared_elsewhere.clone();
                scope.derived = self.bindings.derived.clone();
                scope.parameters = self.letters.parameters.clone();
                if !self.pinned {
                    scope.unknown_functions = unknown_functions(formulas, &scope);
                    // `np(1-p)` after `X \sim \mathrm{Binomial}(n, p)`: p is a number.
                    scope.unknown_functions.retain(|k| !self.letters.parameters.contains(k));
                    scope.unknown_families = unknown_families(formulas, &scope);
                }
                scope
            })
            .map_err(|detail| crate::model::Reason::SpecUnusable { detail });
        let is_function = |key: &str| {
            self.bindings.defs.iter().any(|d| d.key == key && d.function)
                || self.letters.declared_functions.iter().any(|(k, _)| k == key)
        };
        // `\frac{dF}{dx} = f`: an equation between functions, read at their variable.
        if let Ok(scope) = &scope {
            let function = |key: &str| is_function(key) || scope.unknown_functions.contains(key);
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
            .as_ref()
            .map(|s| s.unknown_functions.union(&s.unknown_families).cloned().collect())
            .unwrap_or_default();
        let applied = |key: &str| is_function(key) || unknown.contains(key);
        for claim in &mut self.out.claims {
            let (lhs, rhs) = (print::explicit_tex(&claim.lhs, &applied), print::explicit_tex(&claim.rhs, &applied));
            claim.understood = format!("{lhs} {} {rhs}", if claim.approx { "\\approx" } else { "=" });
        }
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

    fn example_plan(&self) -> Option<ExamplePlan> {
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
    fn definable_in_example(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        self.definable(target).or_else(|| target.symbol_key().map(|k| (k, Vec::new())))
    }

    fn add_spec_definitions(&mut self) {
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
    fn assumptions(&self, spec: &SectionSpec) -> Vec<Assumption> {
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

    fn add_spec_claims(&mut self) {
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

    fn add_formula(&mut self, f: &ParsedFormula, step: Step) {
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
        // `$\|\mathbf A\|_F=\ldots$ 改为 $\|\mathbf A\|_F^2=\ldots$`: an erratum quotes the wrong text.
        if site.mark.is_none() && roles::replaced_by_next(&site.trail) {
            self.out.skipped.push(Skipped { formula: site.id.clone(), reason: crate::model::SkipReason::Replaced });
            self.out.roles.push((site.id.clone(), FormulaRole::NotChecked));
            return;
        }
        let before = (self.out.claims.len(), self.bindings.definitions_made, self.out.skipped.len());
        self.current.formula_role = None;
        self.current.reach = step.reach;
        self.current.small = self.small_letter(f.index);
        self.add_chains(f);
        self.current.reach = Reach::Section;
        self.current.small = None;
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
    /// offered in passing (`like $X = Y^2$`) defines for its paragraph only. Where a spec entry
    /// pins the section, or the author marks the formula, every definition is the section's.
    fn example_steps(&self, formulas: &[&ParsedFormula]) -> Vec<Step> {
        let mut in_example = false;
        formulas
            .iter()
            .map(|f| {
                let site = &self.chapter.doc.formulas[f.index];
                let opens = roles::opens_example(&site.since_previous);
                let ends_example = opens || (in_example && roles::turns_general(&site.since_previous));
                in_example = opens || (in_example && !ends_example);
                let reach = if self.pinned || site.mark.is_some() {
                    Reach::Section
                } else if roles::in_passing(&site.lead) {
                    Reach::Paragraph(site.block)
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

    /// The letter the words call small around the formula at `index`, in its paragraph or the
    /// two before it in the section: a lone letter written after `small`, `tiny`, `很小的` (or
    /// before `is small`, `很小`), or a formula `\epsilon \rightarrow 0`, the nearest first.
    fn small_letter(&self, index: usize) -> Option<String> {
        let here = &self.chapter.doc.formulas[index];
        let letter_of = |tex: &str| {
            let statement = crate::syntax::parse_formula(tex).ok()?;
            let [chain] = statement.chains.as_slice() else { return None };
            let first = chain.first.as_ref()?;
            matches!(first.kind, ExprKind::Symbol(_)).then(|| first.symbol_key()).flatten()
        };
        (0..=index)
            .rev()
            .map(|i| &self.chapter.doc.formulas[i])
            .take_while(|site| site.section == here.section && site.block + 2 >= here.block)
            .find_map(|site| {
                let tends = roles::tends_to_zero(&site.tex).and_then(letter_of);
                let named = (roles::calls_small(&site.lead, &site.trail)).then(|| letter_of(&site.tex)).flatten();
                tends.or(named)
            })
    }

    /// The claims and definitions of one formula's chains.
    fn add_chains(&mut self, f: &ParsedFormula) {
        let site = &self.chapter.doc.formulas[f.index];
        let chains = flatten_environments(&f.statement.chains, &site.tex);
        let conditions: Vec<Chain> = chains.iter().filter(|c| self.is_condition(c)).cloned().collect();
        let range = (site.tex_range.start, site.tex_range.end);
        let origin = Origin::Notes { formula: site.id.clone(), line: site.line, col: site.col, range };
        let equations: Vec<&Chain> = chains.iter().filter(|c| !self.is_condition(c)).collect();
        let mut after_condition = false;
        let mut written = BTreeSet::new();
        f.statement.chains.iter().flat_map(Chain::exprs).for_each(|e| collect_keys(e, &mut written));
        let constants = self.constants_named_before(f.index, &written);
        let random = self.random_variables_named_before(f.index);
        let classes = self.matrix_classes_named_before(f.index);
        let kinds = self.kinds_named_before(f.index);
        let alternatives = alternative_definitions(&equations, &site.tex);
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
            let words = || {
                let title = site.section.map_or("", |i| self.chapter.doc.sections[i].title.as_str());
                format!("{title}\n{}\n{}", site.since_previous, site.lead)
            };
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
                    let mut letters = BTreeSet::new();
                    chain.exprs().for_each(|e| collect_keys(e, &mut letters));
                    self.words.hypotheses.push((letters, site.tex.trim().to_string()));
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
            let between = k.checked_sub(1).and_then(|p| site.tex.get(equations[p].span.end..chain.span.start));
            let words = between.map(roles::words_in_formula).unwrap_or_default();
            let lead = if words.is_empty() { site.lead.clone() } else { format!("{} $ {words}", site.lead) };
            let prose = Prose {
                independence: roles::independence_stated(&lead),
                constants: &constants,
                random: &random,
                classes: &classes,
                kinds: &kinds,
                lead: &lead,
                block: site.block,
                cue: self.cue_of(&lead, f.index),
                mark: site.mark,
                after_condition,
                substitutes: roles::substitutes_elsewhere(&site.context) || self.renamed_before(f.index),
            };
            let before = self.out.claims.len();
            self.chain_claims(chain, &id, &site.tex, origin.clone(), &conditions, Some(prose));
            // `… = 0 \textrm{ and hence } \mathbf X^\top\mathbf y = …`: what follows a condition in
            // the same formula follows from it.
            after_condition |= self.out.claims[before..]
                .iter()
                .any(|c| c.reading.alternative.as_ref().is_some_and(|o| o.reading == crate::model::Reading::Condition));
        }
    }

    /// Have the words of this section, up to the formula, said that one letter is written for
    /// another (`使用 $g_t$ 代替 $\tilde c_t$`)? Every derivation after that may rest on it.
    fn renamed_before(&self, index: usize) -> bool {
        self.words.first_renaming.is_some_and(|at| at <= index)
    }

    /// The first formula of the section (its index in the document, parsed or not) whose words
    /// before it write one letter for another; read once, when the section is built.
    fn first_renaming(&self, formulas: &[&ParsedFormula]) -> Option<usize> {
        let section = self.chapter.doc.formulas.get(formulas.first()?.index)?.section;
        self.chapter
            .doc
            .formulas
            .iter()
            .enumerate()
            .filter(|(_, f)| f.section == section)
            .find(|(_, f)| roles::renames_in_words(&f.context))
            .map(|(i, _)| i)
    }

    /// The cue of a formula's lead; with none near it, a supposition that began its sentence
    /// (`假设$A$的第$j$列可以表示为…：`) makes it a condition, unless a relation written between
    /// the two was what was supposed.
    fn cue_of(&self, lead: &str, index: usize) -> roles::Cue {
        let supposed = || {
            roles::formulas_after_supposition(lead).is_some_and(|n| {
                let between = &self.chapter.doc.formulas[index.saturating_sub(n)..index];
                !between.iter().any(|site| site.tex.contains('=') || site.tex.contains("\\le"))
            })
        };
        match roles::cue(lead) {
            roles::Cue::None if supposed() => roles::Cue::Condition,
            // `令样本被中心化，即 $…$`, `Let the data be centred, i.e. $…$`: the formula restates
            // what the sentence supposes.
            roles::Cue::Assert | roles::Cue::Define if roles::restates_supposition(lead) => roles::Cue::Condition,
            cue => cue,
        }
    }

    /// What `read` gives for the words of the formula at `at`, kept in `table` of
    /// [`Self::words_read`]: read the first time it is asked for, then taken from there.
    fn read_once<T: Clone>(
        &self,
        table: fn(&mut WordsRead) -> &mut std::collections::HashMap<usize, T>,
        at: usize,
        read: impl FnOnce() -> T,
    ) -> T {
        table(&mut self.words.words_read.borrow_mut()).entry(at).or_insert_with(read).clone()
    }

    /// The letters of earlier formulas in the same paragraph that the words call numbers:
    /// `for any random variable $X$ and numbers $a$ and $b$, …` names a and b.
    /// `written` holds the keys of the formula at `index`.
    fn constants_named_before(&self, index: usize, written: &BTreeSet<String>) -> Vec<String> {
        let formulas = &self.chapter.doc.formulas;
        let Some(block) = formulas.get(index).map(|f| f.block) else { return Vec::new() };
        let sites = formulas[..index].iter().enumerate().rev().take_while(|(_, f)| f.block == block);
        let names_constants = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.constants, at, || roles::names_constants(&site.lead))
        };
        let named = sites.filter(|&(at, site)| names_constants(at, site));
        let mut letters: Vec<String> = named.flat_map(|(_, site)| bare_letters(&site.tex)).collect();
        // `consider $Y=aX+b$ as any linear deterministic function of $X$`: a and b are numbers in
        // the paragraph or the one leading to a display, and wherever the section writes Y after.
        let blocks = self.blocks_leading_to(index).unwrap_or(block..=block);
        for d in self.words.deterministic.iter().filter(|d| d.index < index) {
            if blocks.contains(&d.block) || d.defined.iter().any(|k| written.contains(k)) {
                letters.extend(d.small.iter().cloned());
            }
        }
        letters
    }

    /// Letters the words call random variables before a claim (`For any random variables $X, Y$`,
    /// `$X$ and $Y$ are two independent random variables`). The claim speaks of any such variables.
    fn random_variables_named_before(&self, index: usize) -> Vec<String> {
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.random, at, || roles::names_random_variables(&site.lead, &site.trail))
                .then_some(())
        };
        self.letters_named_before(index, &named).into_iter().map(|(letter, ())| letter).collect()
    }

    /// Letters the words call a kind of matrix derivcheck does not construct, anywhere in the
    /// section before the formula at `index` (`Suppose that $P$ is stochastic`, then a proof's
    /// steps paragraphs later): the kind holds for the rest of the section. A power said to be
    /// of the kind (`since $P^k$ is stochastic`) names its base. (Only ever a reason not to
    /// refute, so the whole section is read: not as far as [`Self::matrix_classes_named_before`],
    /// whose kinds a claim is verified under.)
    fn kinds_named_before(&self, index: usize) -> Vec<(String, String)> {
        let formulas = &self.chapter.doc.formulas;
        let Some(here) = formulas.get(index) else { return Vec::new() };
        let sites: Vec<(usize, &FormulaSite)> =
            formulas[..index].iter().enumerate().filter(|(_, f)| f.section == here.section).collect();
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.kinds, at, || roles::matrix_kind_unmodelled(&site.lead, &site.trail))
        };
        letters_named_in(&sites, &named, &named_letters_or_power_bases)
    }

    /// Letters the words call a kind of matrix before a claim (`for an orthogonal matrix
    /// $\mathbf U$`, `$\mathbf S$ is symmetric`): the claim speaks of any matrix of that kind.
    fn matrix_classes_named_before(&self, index: usize) -> Vec<(String, MatrixClass)> {
        let named = |at: usize, site: &FormulaSite| {
            self.read_once(|w| &mut w.classes, at, || roles::matrix_class_named(&site.lead, &site.trail))
        };
        self.letters_named_before(index, &named)
    }

    /// The blocks whose words lead to the formula at `index`: its paragraph, or for a display
    /// standing alone, the displays before it and the paragraph before those.
    fn blocks_leading_to(&self, index: usize) -> Option<std::ops::RangeInclusive<usize>> {
        let formulas = &self.chapter.doc.formulas;
        let here = formulas.get(index)?;
        let mut first_block = here.block;
        while here.display && first_block > 0 {
            let above: Vec<&FormulaSite> = formulas[..index].iter().filter(|f| f.block == first_block - 1).collect();
            if above.is_empty() {
                break;
            }
            first_block -= 1;
            if above.iter().any(|f| !f.display) {
                break;
            }
        }
        Some(first_block..=here.block)
    }

    /// The bare letters of formulas before `index` whose words (`named` of the formula's index and site)
    /// say what they are: in its paragraph, or for a display formula standing alone, in the
    /// paragraph that leads to it (past the displays between: `Then $$…$$ $$…$$`); letters
    /// listed just before a named one (`$X$ and $Y$ are …`) are named with it.
    fn letters_named_before<T: Clone>(
        &self,
        index: usize,
        named: &dyn Fn(usize, &FormulaSite) -> Option<T>,
    ) -> Vec<(String, T)> {
        let formulas = &self.chapter.doc.formulas;
        let Some(blocks) = self.blocks_leading_to(index) else { return Vec::new() };
        let sites: Vec<(usize, &FormulaSite)> =
            formulas[..index].iter().enumerate().filter(|(_, f)| blocks.contains(&f.block)).collect();
        letters_named_in(&sites, named, &named_letters)
    }

    /// A relation among index letters, numbers and sizes only, and not an equation: `k \ne j`,
    /// `j<1`, `i\le n`; or an index given a value, `j=1`; or an event, `A=a`.
    fn is_condition(&self, chain: &Chain) -> bool {
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
        let uses_letter =
            chain.exprs().any(|e| e.symbol_key().is_some_and(|k| self.letters.index_letters.contains(&k)));
        // `j=1` (as in `j=1,\dots,K` or `p_j=0,\ j=1`) names an index value; it claims nothing.
        let index_first =
            chain.first.as_ref().and_then(Expr::symbol_key).is_some_and(|k| self.letters.index_letters.contains(&k));
        let relation = |op: RelOp| match op {
            RelOp::Ne | RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge => true,
            RelOp::Eq => index_first,
            _ => false,
        };
        !chain.links.is_empty()
            && uses_letter
            && chain.links.iter().all(|l| relation(l.op))
            && chain.exprs().all(|e| integer_like(e, &self.letters.index_letters, &sizes))
    }

    /// The first link may define its left side, bind it, or give it a new meaning; every other
    /// link is a claim. `prose` (for the notes' formulas, not the spec's) is what the words
    /// around the formula say.
    fn chain_claims(
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
        let block = prose.as_ref().map(|p| p.block);
        // Links before `skip` are taken (a definition, a binding, an example definition).
        let mut skip = 0;
        let mut alternative = None;
        // A claim about a sequence defined by recursion in this section (`m_t = …` after `m_t
        // \leftarrow …`) is read as written too: it defines nothing. An update of an earlier
        // section's sequence (Adam's v after momentum's) is a new one.
        let marked = prose.as_ref().is_some_and(Prose::marked_claim);
        let here = recurrence::defining(first, &self.bindings.recurrences).is_some_and(|r| r.section == self.number);
        let as_written = marked || (chain.links[0].op != RelOp::Define && here);
        let holds = prose.as_ref().is_none_or(|p| p.mark != Some(Mark::Wrong));
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
                return;
            }
        }
        if let Some(prose) = prose.as_ref().filter(|_| !as_written) {
            if let Some(bound) = self.binding(chain, prose, &site_origin) {
                skip = bound;
                self.current.formula_role = Some(crate::model::FormulaRole::Binding);
            }
        }
        if let (0, Some(prose)) = (skip, &prose) {
            if self.conditional_definition(first, &chain.links[0].rhs, prose, &site_origin) {
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
                self.record(notes_definition(key.clone(), Vec::new(), body, &site_origin, false, true));
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
                    self.bindings.defs.iter().any(|d| {
                        d.key == key && d.params.is_empty() && print::explicit_tex(&d.body, &|_| false) == written
                    })
                });
            let mut defined = depicted
                || by_blocks.is_some()
                || restated
                || (prose.is_some() && !approximates && self.try_define(first, body, &site_origin, true));
            if restated {
                self.current.formula_role = Some(crate::model::FormulaRole::Definition);
            }
            // `得到 $Z = \sum_k \exp(w_k\cdot x)$`: a definition the words present as derived.
            if defined && !restated && prose.as_ref().is_some_and(|p| p.cue == roles::Cue::Assert) {
                if let Some(key) = self.definable(first).map(|(key, _)| key) {
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
                        !self.letters.known.contains(&k)
                            && !self.letters.written.contains(&k)
                            && !mentions_key(first, &k)
                    })
            };
            if !defined && prose.is_some() && chain.links.len() == 1 && chain.links[0].op == RelOp::Eq {
                let rhs = &chain.links[0].rhs;
                if lone_new(rhs) && self.definable(first).is_none() && !roles::is_constant(first, &|_| false) {
                    defined = self.try_define(rhs, first, &site_origin, true);
                }
            }
            // `\hat\sigma^2 \stackrel{def}{=} …`, `a_{ij} := …` that cannot be taken: the author
            // defines, so it is no claim; it is listed as not checked.
            // `\phi_i(x) = \exp(-(x-c_i)^2)`: a family of functions defined member by member,
            // which derivcheck does not take; the author defines, so it is no claim either.
            let family = prose.is_some()
                && !self.has_meaning(first)
                && !roles::is_constant(body, &|_| false)
                && family_of_functions_defined(first).is_some_and(|head| !mentions_key(body, &head));
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
            let declined = !defined && (chain.links[0].op == RelOp::Define || family || fresh || given_distribution);
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
                        && self.try_define(&named.rhs, &value.rhs, &site_origin, true)
                    {
                        skip = 2;
                    }
                }
            } else if let Some(prose) = &prose {
                match self.example_definition(first, &chain.links[0].rhs, prose, &site_origin) {
                    Some(Ok(())) => {
                        skip = 1;
                        self.current.formula_role = Some(crate::model::FormulaRole::ExampleDefinition);
                    }
                    Some(Err(other)) => alternative = Some(other),
                    None => {}
                }
            }
        }
        let ends_in_constant = {
            let reading = self.reading_in(block);
            let fixed = |key: &str| {
                reading.overrides.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
                    || self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(key))
            };
            chain.exprs().last().is_some_and(|e| roles::is_constant(e, &fixed))
        };
        let mut prev = first;
        for (k, link) in chain.links.iter().enumerate() {
            // `x + y = [x_1; …] + [y_1; …] := [x_1 + y_1; …]`, `\|x\| := \sqrt{x^\top x}`: a link
            // written `:=` (`\stackrel{def}{=}`) defines what its left side means; it claims nothing,
            // whether or not derivcheck can take the definition.
            let claim_id = if chain.links.len() > 1 { format!("{id}.{}", k + 1) } else { id.to_string() };
            if k >= skip && link.op == RelOp::Define && !marked {
                self.out
                    .skipped
                    .push(Skipped { formula: claim_id, reason: crate::model::SkipReason::DefinitionNotTaken });
                prev = &link.rhs;
                continue;
            }
            if k >= skip {
                let mut reading = self.reading_in(block);
                reading.marked = marked;
                reading.rewrites = k > 0;
                reading.hypothesis = self
                    .words
                    .hypotheses
                    .iter()
                    .rev()
                    .find(|(letters, _)| letters.iter().any(|l| mentions_key(prev, l) || mentions_key(&link.rhs, l)))
                    .map(|(_, tex)| tex.clone());
                if link.op == RelOp::Approx {
                    reading.small = self.current.small.clone();
                }
                for (keys, tex) in &self.bindings.distributions {
                    if keys.iter().any(|key| mentions_key(prev, key) || mentions_key(&link.rhs, key)) {
                        reading.given.push(tex.clone());
                    }
                }
                reading.alternative = match (&alternative, &prose) {
                    (_, Some(prose)) if prose.marked_claim() => None,
                    // Marked a binding, yet not one derivcheck could take: never a claim.
                    (_, Some(prose)) if prose.mark == Some(Mark::Binding) => {
                        Some(OtherReading { reading: crate::model::Reading::Condition, symbol: None, earlier: None })
                    }
                    (Some(other), _) if k == 0 => Some(other.clone()),
                    (_, Some(_)) if k == 0 && !self.pinned && update_step(first, &link.rhs).is_some() => {
                        Some(OtherReading {
                            reading: crate::model::Reading::Update,
                            symbol: update_step(first, &link.rhs),
                            earlier: None,
                        })
                    }
                    (_, Some(prose)) => self
                        .condition_reading(prev, &link.rhs, prose, &reading, k, ends_in_constant)
                        .or_else(|| {
                            prose.after_condition.then_some(OtherReading {
                                reading: crate::model::Reading::Consequence,
                                symbol: None,
                                earlier: None,
                            })
                        })
                        .or_else(|| {
                            prose.substitutes.then_some(OtherReading {
                                reading: crate::model::Reading::Substitutes,
                                symbol: None,
                                earlier: None,
                            })
                        })
                        .or_else(|| {
                            // `例如 $\rho_0 = [0.9, 0.05, 0.05]$` after `设 $\rho_0 = [0.15, …]$`: a
                            // value the words give for instance replaces the earlier one.
                            let literal = k == 0 && prose.cue == roles::Cue::Define && roles::is_literal(&link.rhs);
                            let key = first.symbol_key().filter(|_| literal && !self.pinned)?;
                            let earlier =
                                self.bindings.defs.iter().find(|d| d.key == key).map(Definition::written_at).or_else(
                                    || {
                                        self.bindings
                                            .given
                                            .iter()
                                            .find(|g| g.definition.key == key)
                                            .map(|g| g.definition.written_at())
                                    },
                                )?;
                            Some(OtherReading {
                                reading: crate::model::Reading::Redefinition,
                                symbol: Some(key),
                                earlier: Some(earlier),
                            })
                        })
                        .or_else(|| {
                            // `p_1 = p_2 = 1` after `p_1 = 4/5`, `p_2 = 3/4`: letters set to one number
                            // in a new example; a later link too may give its letter a new value.
                            let exprs: Vec<&Expr> = chain.exprs().collect();
                            let (last, letters) = exprs.split_last()?;
                            let values = letters.len() > 1
                                && letters.iter().all(|e| roles::value_target(e).is_some())
                                && roles::is_constant(last, &|_| false);
                            let key = roles::value_target(prev).filter(|_| k > 0 && values && !self.pinned)?;
                            let earlier = self
                                .bindings
                                .defs
                                .iter()
                                .find(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
                                .map(Definition::written_at)?;
                            Some(OtherReading {
                                reading: crate::model::Reading::Redefinition,
                                symbol: Some(key),
                                earlier: Some(earlier),
                            })
                        })
                        .or_else(|| {
                            // `x = x^c`, `y = \sum_i d_i y_i^2`, `a_j = \sum_{i\ne j} x_i a_i` of letters
                            // the notes give no meaning, with no words that assert it: a new value
                            // of the letter from its old one, an equation in it, or a new meaning.
                            let symbol = self_referent(first, &link.rhs)
                                .filter(|_| k == 0 && !self.pinned && prose.cue != roles::Cue::Assert)
                                .filter(|_| !self.has_meaning(first))?;
                            Some(OtherReading {
                                reading: crate::model::Reading::SelfReferent,
                                symbol: Some(symbol),
                                earlier: None,
                            })
                        }),
                    _ => None,
                };
                if let Some(prose) = &prose {
                    reading.constants = prose.constants.to_vec();
                    reading.random = prose.random.to_vec();
                    reading.classes = prose.classes.to_vec();
                    reading.kinds = prose.kinds.to_vec();
                    reading.independence = prose.independence;
                }
                reading.information = self.chapter.information;
                reading.laws = self.laws_before(block);
                if let Some(block) = block {
                    reading.stated = self
                        .bindings
                        .stated
                        .iter()
                        .filter(|(b, _)| *b + 1 >= block && *b <= block)
                        .map(|(_, a)| a.clone())
                        .collect();
                    reading.stated_earlier =
                        self.bindings.stated.iter().filter(|(b, _)| *b + 1 < block).map(|(_, a)| a.clone()).collect();
                }
                let origin = self.link_origin(&origin, tex, prev, &link.rhs);
                let is_condition =
                    reading.alternative.as_ref().is_some_and(|o| o.reading == crate::model::Reading::Condition)
                        && link.op == RelOp::Eq;
                if let (true, Some(block)) = (is_condition, block) {
                    let written = format!(
                        "{}={}",
                        print::explicit_tex(prev, &|_| false),
                        print::explicit_tex(&link.rhs, &|_| false)
                    );
                    let at = match &origin {
                        Origin::Notes { line, col, .. } => format!("{}:{line}:{col}", self.chapter.doc.path),
                        Origin::Spec { line, col, .. } => format!("spec:{line}:{col}"),
                    };
                    let stated = Assumption { tex: written, lhs: prev.clone(), rhs: link.rhs.clone(), origin: at };
                    self.bindings.stated.push((block, stated));
                }
                let (lhs, rhs, how) = read_sides(&self.bindings.recurrences, prev, &link.rhs);
                if how.is_none() && reading.alternative.is_none() {
                    reading.alternative = recurrence::mentioned_sequence(&self.bindings.recurrences, prev, &link.rhs)
                        .map(|key| OtherReading {
                            reading: crate::model::Reading::RecurrenceNotRead,
                            symbol: Some(key),
                            earlier: None,
                        });
                }
                reading.unrolled = how;
                let explicit = |e: &Expr| print::explicit_tex(e, &|_| false);
                if explicit(&lhs) != explicit(prev) || explicit(&rhs) != explicit(&link.rhs) {
                    reading.written = Some(Box::new(WrittenSides {
                        lhs: prev.clone(),
                        rhs: link.rhs.clone(),
                        recurrences: self.bindings.recurrences.clone(),
                    }));
                }
                self.out.claims.push(Claim {
                    id: claim_id,
                    section: self.number.clone(),
                    origin,
                    tex: tex.to_string(),
                    kind: claim_kind(prev, &link.rhs),
                    lhs,
                    rhs,
                    conditions: conditions.to_vec(),
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

    /// The claim's position: in a formula of several lines, the line and column of its own
    /// relation sign (the first non-blank character after its left side).
    fn link_origin(&self, origin: &Origin, tex: &str, lhs: &Expr, rhs: &Expr) -> Origin {
        let Origin::Notes { formula, range, .. } = origin else { return origin.clone() };
        let Some(site) = self.chapter.doc.formulas.iter().find(|f| f.id == *formula) else { return origin.clone() };
        if !tex.contains('\n') {
            return origin.clone();
        }
        let between = tex.get(lhs.span.end..rhs.span.start).unwrap_or("");
        let skip =
            between.len() - between.trim_start_matches(|c: char| c.is_whitespace() || c == '&' || c == '\\').len();
        let at = self.chapter.doc.position_in_formula(site, lhs.span.end + skip);
        Origin::Notes { formula: formula.clone(), line: at.line, col: at.col, range: *range }
    }

    /// `target \leftarrow body` or `target = body` read as a recurrence (see [`recurrence`]),
    /// recorded from here on.
    /// `replace`: an update rule (`\leftarrow`) always takes effect; an equation does not
    /// replace a recurrence of this section (it restates it, and is a claim).
    fn add_recurrence(&mut self, target: &Expr, body: &Expr, line: usize, replace: bool) -> bool {
        let written = format!(
            "`{} \\leftarrow {}` ({}:{line})",
            print::explicit_tex(target, &|_| false),
            print::explicit_tex(body, &|_| false),
            self.chapter.doc.path,
        );
        let Some(mut found) = recurrence::read(target, body, written) else { return false };
        if !replace && self.bindings.recurrences.iter().any(|o| o.key == found.key && o.section == self.number) {
            return false;
        }
        found.section = self.number.clone();
        self.bindings.recurrences.retain(|r| r.key != found.key);
        self.bindings.recurrences.push(found);
        self.bindings.definitions_made += 1;
        true
    }

    /// `X \sim \mathrm{Bernoulli}(p)`: `\mu_X` and `\sigma_X` mean X's mean and standard
    /// deviation from here to the end of the section (a later statement about X replaces them;
    /// the sections after do not inherit them), so `\sigma_X^2 = p(1-p)` is a claim about them.
    /// Not where a spec entry pins the section's letters.
    fn add_distribution(&mut self, named: &distributions::NamedDistribution, origin: &str) {
        if self.pinned {
            return;
        }
        let plain = |e: &Expr| print::explicit_tex(e, &|_| false);
        let mut keys = Vec::new();
        let mut meanings = Vec::new();
        for (letter, value) in named.moment_letters() {
            let Some(key) = letter.symbol_key() else { continue };
            self.bindings.defs.retain(|d| d.key != key);
            meanings.push(format!("{} = {}", plain(&letter), plain(&value)));
            self.record(notes_definition(key.clone(), Vec::new(), &value, origin, false, true));
            self.bindings.moments_given.insert(key.clone());
            keys.push(key);
        }
        // `p(x)` of an earlier section is not this section's parameter p.
        let parameters = named.parameters();
        self.bindings.defs.retain(|d| !(d.inherited && parameters.contains(&d.key)));
        self.letters.parameters.extend(parameters);
        if keys.is_empty() {
            return;
        }
        self.bindings.distributions.retain(|(earlier, _)| !earlier.iter().any(|k| keys.contains(k)));
        let args: Vec<String> = named.args.iter().map(plain).collect();
        let tex = format!(
            "{} \\sim \\mathrm{{{}}}({}):\\ {}",
            plain(&named.variable),
            named.name,
            args.join(", "),
            meanings.join(",\\ ")
        );
        self.bindings.distributions.push((keys, tex));
    }

    /// The values and meanings given earlier in the prose that reach `block`.
    fn reading_in(&self, block: Option<usize>) -> ClaimReading {
        let mut reading = ClaimReading::default();
        let Some(block) = block else { return reading };
        for given in self.bindings.given.iter().filter(|g| g.until.is_none_or(|until| block <= until)) {
            reading.overrides.retain(|d| d.key != given.definition.key);
            reading.overrides.push(given.definition.clone());
            if !given.tex.is_empty() {
                reading.given.push(given.tex.clone());
            }
        }
        reading
    }

    /// `x=10`, `\mathbf v_0=\mathbf s_0=0`, `d=28^2=784`: letters given a value (a number, or
    /// arithmetic of numbers) by the first links of the chain. A letter new to the section is
    /// defined by it, as before; one that already has a meaning gets the value for this block and
    /// the next (a binding). Gives how many links it took; `None` when the chain is no binding
    /// (the words ask to solve, a letter is an entry of something known, or it already has a
    /// value of its own: `c=5` then `c=6` is a claim).
    fn binding(&mut self, chain: &Chain, prose: &Prose, origin: &str) -> Option<usize> {
        let solve = prose.cue == roles::Cue::Solve && prose.mark != Some(Mark::Binding);
        // `if and only if $x = 0$`, `当且仅当 $x = 0$ 时`: a condition, never a value.
        let iff = roles::is_if_and_only_if(prose.lead) && prose.mark != Some(Mark::Binding);
        if solve || iff || chain.links.iter().any(|l| !matches!(l.op, RelOp::Eq | RelOp::Define)) {
            return None;
        }
        let exprs: Vec<&Expr> = chain.exprs().collect();
        // A letter with a number in force (a binding, or a section definition by a number) is
        // itself a number: after `\epsilon = 10^{-7}`, `\epsilon^2 = 10^{-13}` is a claim.
        let bound = |key: &str| {
            self.bound_at(key, prose.block)
                || self.bindings.defs.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false))
        };
        let at = exprs.iter().position(|e| roles::is_constant(e, &bound))?;
        if at == 0 {
            return None;
        }
        let mut targets = Vec::new();
        for e in &exprs[..at] {
            let key = roles::value_target(e)?;
            // `x_k=1` with k an index: one member of a family set (a condition), not every one.
            if self.definable(e).is_some_and(|(_, params)| !params.is_empty()) {
                return None;
            }
            // An entry of a declared or defined matrix (`x_j=5`, `Z_1=7`) is a claim about it.
            let plain = matches!(e.kind, ExprKind::Power { .. }) || self.definable(e).is_some();
            let own_value = self.bindings.defs.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false));
            if !plain || own_value || self.letters.index_letters.contains(&key) {
                return None;
            }
            targets.push((key, *e));
        }
        let value = exprs[at];
        for (key, target) in targets {
            // `\mathbf w \in \mathbb R^d`, then `w = 2`: a number is no value of a vector, and
            // a binding never changes a declared shape; the letter stays general.
            if self.declared_not_scalar(&key) && value_is_number(value) {
                continue;
            }
            let written =
                format!("{}={}", print::explicit_tex(target, &|_| false), print::explicit_tex(value, &|_| false));
            let definition = notes_definition(key.clone(), Vec::new(), value, origin, false, true);
            let new = !self.letters.known.contains(&key) && !self.bindings.defs.iter().any(|d| d.key == key);
            // A value given under a condition (`if $x = 10$`) holds where the words say, not for
            // the whole section.
            if new && at == 1 && !prose.conditional() && !matches!(target.kind, ExprKind::Power { .. }) {
                self.record(definition);
            } else if !matches!(target.kind, ExprKind::Power { .. }) {
                self.bindings.given.push(Given {
                    definition,
                    until: Some(prose.block + 1),
                    tex: written,
                    example: false,
                });
            }
        }
        Some(at)
    }

    /// Does the spec or this section's words declare `key` a vector or matrix? (Another
    /// section's `\mathbf x \in \mathbb R^d` speaks of its own x.)
    fn declared_not_scalar(&self, key: &str) -> bool {
        let not_scalar = |rows: &str, cols: &str| !(rows == "1" && cols == "1");
        // (The section's spec holds shapes other sections' words declare too: only an entry
        // the spec file gives this section is its own.)
        let by_spec = self.pinned
            && self.spec.as_ref().is_some_and(|spec| {
                spec.matrix
                    .get(key)
                    .or_else(|| spec.family.get(key))
                    .is_some_and(|s| not_scalar(&s.get_ref().rows, &s.get_ref().cols))
            });
        by_spec
            || self
                .letters
                .notes_shapes
                .iter()
                .any(|(k, [rows, cols], section)| k == key && *section == self.number && not_scalar(rows, cols))
    }

    /// A definition under words of condition (`for $f(x)=\frac12x^2$ we have …`, `对于$f(x)=…$`,
    /// `if $g(x)=x^3$, then …`): it holds for its sentence and the next paragraph only, like a
    /// binding, and neither defines the letter for the section nor is checked against an
    /// earlier meaning. Not where a spec entry pins the section's letters.
    fn conditional_definition(&mut self, target: &Expr, body: &Expr, prose: &Prose, origin: &str) -> bool {
        if !prose.conditional() || self.pinned {
            return false;
        }
        let (key, params, function) = match self.function_target(target) {
            Some((key, params)) => (key, params, true),
            // `if $x_k=1$`: one member of the family, not a definition of all of them.
            None => match self.definable(target) {
                Some((key, params)) if params.is_empty() => (key, params, false),
                _ => return false,
            },
        };
        let declared = self.letters.known.contains(&key) && !self.bindings.defs.iter().any(|d| d.key == key);
        if declared || mentions_key(body, &key) || self.letters.index_letters.contains(&key) {
            return false;
        }
        let tex = format!(
            "{}={}",
            print::explicit_tex(target, &|k| function && k == key),
            print::explicit_tex(body, &|_| false)
        );
        let definition = notes_definition(key, params, body, origin, function, true);
        self.bindings.given.push(Given { definition, until: Some(prose.block + 1), tex, example: false });
        true
    }

    /// `we set … $\gamma$ to 0.9`: a lone letter the words after it give a number is bound to it
    /// for this paragraph and the next, as `$\gamma=0.9$` would be.
    fn binding_in_words(&mut self, chain: &Chain, site: &crate::notes::FormulaSite) -> bool {
        let Some(target) = &chain.first else { return false };
        let (Some(key), Some(value)) = (roles::value_target(target), roles::value_in_words(&site.trail)) else {
            return false;
        };
        let plain = self.definable(target).is_some() && !matches!(target.kind, ExprKind::Power { .. });
        if !plain || self.letters.index_letters.contains(&key) || (self.pinned && self.letters.known.contains(&key)) {
            return false;
        }
        let body = Expr::new(ExprKind::Number { value: value.clone() }, target.span);
        let tex = format!("{}={value}", print::explicit_tex(target, &|_| false));
        let origin = format!("{}:{}:{}", self.chapter.doc.path, site.line, site.col);
        let definition = notes_definition(key, Vec::new(), &body, &origin, false, true);
        self.bindings.given.push(Given { definition, until: Some(site.block + 1), tex, example: false });
        true
    }

    /// Is `key` given a number here (a binding in force in `block`)?
    fn bound_at(&self, key: &str, block: usize) -> bool {
        self.bindings.given.iter().any(|g| {
            g.definition.key == key
                && (g.until.is_some_and(|until| block <= until) || g.open_example())
                && roles::is_constant(&g.definition.body, &|_| false)
        })
    }

    /// A definition of a letter that already has a meaning (`f(x)=\exp(x)` after another f,
    /// `\mathbf A=\begin{bmatrix}…` after another A). With a value written out, or words that
    /// define (`the function`, `take`, `设`), it is an example: the letter means this from here
    /// on (`Ok`). Otherwise the claim about the old meaning stands, with this reading as its
    /// alternative (`Err`). `None`: not definition-shaped, or the letter is new.
    fn example_definition(
        &mut self,
        target: &Expr,
        body: &Expr,
        prose: &Prose,
        origin: &str,
    ) -> Option<Result<(), OtherReading>> {
        let (key, params, function) = match self.function_target(target) {
            Some((key, params)) => (key, params, true),
            None => {
                let (key, params) = self.definable(target)?;
                (key, params, false)
            }
        };
        let example_given = self.bindings.given.iter().filter(|g| g.open_example()).map(|g| &g.definition);
        let earlier_at =
            self.bindings.defs.iter().chain(example_given).find(|d| d.key == key).map(Definition::written_at)?;
        // `\mu_X = 2\mu` after `X \sim \mathcal N(\mu, \sigma^2)`: the distribution settles
        // what the letter means; it is a claim about it.
        let by_distribution = self.bindings.distributions.iter().any(|(keys, _)| keys.contains(&key));
        if mentions_key(body, &key) || by_distribution {
            return None;
        }
        // A spec entry for the section pins what its letters mean: only a value written out
        // gives one a new meaning there.
        if roles::is_literal(body) || (prose.cue == roles::Cue::Define && !self.pinned) {
            let definition = notes_definition(key, params, body, origin, function, false);
            self.bindings.given.retain(|g| g.definition.key != definition.key);
            self.bindings.given.push(Given { definition, until: None, tex: String::new(), example: false });
            return Some(Ok(()));
        }
        if self.pinned {
            return None;
        }
        Some(Err(OtherReading {
            reading: crate::model::Reading::Redefinition,
            symbol: Some(key),
            earlier: Some(earlier_at),
        }))
    }

    /// A link the words make a condition or an equation to solve (`where $A=A^\top$`, `solve
    /// $Av=\lambda v$`), or one that sets an expression of free letters equal to a number
    /// (`2x+y=1`, `\det(A-\lambda I)=0`) without words that assert it: if it is false as an
    /// identity, it is read as a condition.
    fn condition_reading(
        &self,
        lhs: &Expr,
        rhs: &Expr,
        prose: &Prose,
        reading: &ClaimReading,
        link: usize,
        ends_in_constant: bool,
    ) -> Option<OtherReading> {
        let condition =
            || Some(OtherReading { reading: crate::model::Reading::Condition, symbol: None, earlier: None });
        let bound =
            |key: &str| reading.overrides.iter().any(|d| d.key == key && roles::is_constant(&d.body, &|_| false));
        // A size (`n` of `\sum_{k=1}^n`) is a number too: `x_n=\frac1n` sets a letter to one.
        let size = |key: &str| self.spec.as_ref().is_some_and(|s| s.sizes.contains_key(key));
        let fixed = |key: &str| bound(key) || size(key);
        // `[0.7, 1.3]`: an interval of numbers is as fixed as a number.
        let constant = |e: &Expr| match &e.kind {
            ExprKind::Fenced { inner: Some(inner), .. } if roles::is_interval_like(e) => {
                inner.children().all(|c| roles::is_constant(c, &fixed))
            }
            _ => roles::is_constant(e, &fixed),
        };
        let (l, r) = (constant(lhs), constant(rhs));
        // The words govern the chain's first link (`solve $\mathbf A\mathbf v=\lambda\mathbf v$`);
        // a later link between two expressions rewrites one into the other and is a claim
        // (`0=(2-\lambda)(3-\lambda)-2=(4-\lambda)(1-\lambda)`).
        if matches!(prose.cue, roles::Cue::Condition | roles::Cue::Solve) && (link == 0 || l || r) {
            return condition();
        }
        if self.pinned {
            return None;
        }
        let sizes: Vec<String> = self.spec.as_ref().map(|s| s.sizes.keys().cloned().collect()).unwrap_or_default();
        // `a_{11}` of `\mathbf A = (a_{ij})` is a letter of its own until A is given a value or a
        // shape.
        let has_value = |m: &str| {
            self.bindings.defs.iter().any(|d| d.key == m)
                || self.bindings.given.iter().any(|g| g.definition.key == m)
                || self.letters.declared_matrices.iter().any(|k| k == m)
        };
        let names_unknown_entries = |d: &Definition| {
            d.params.len() == 2
                && matches!(&d.body.kind, ExprKind::Subscript { base, .. }
                    if base.symbol_key().is_some_and(|m| m != d.key && !has_value(&m)))
        };
        let defined = |k: &str| self.bindings.defs.iter().any(|d| d.key == k && !names_unknown_entries(d));
        let number = |k: &str| {
            bound(k)
                || self
                    .bindings
                    .defs
                    .iter()
                    .any(|d| d.key == k && d.params.is_empty() && matches!(d.body.kind, ExprKind::Number { .. }))
        };
        let given = |k: &str| {
            defined(k)
                || self.letters.index_letters.iter().any(|i| i == k)
                || sizes.iter().any(|n| n == k)
                || matches!(k, "\\pi" | "e" | "\\mathrm{e}")
                || bound(k)
        };
        let uses_defined = |e: &Expr| {
            self.bindings
                .defs
                .iter()
                .any(|d| !matches!(d.body.kind, ExprKind::Number { .. }) && mentions_key(e, &d.key))
        };
        if !l && !r {
            // `\mathbf A\mathbf x=\mathbf b`, `\mathbf P\mathbf v=\mathbf v`, `\mathbf S_b\mathbf
            // w=\lambda\mathbf S_w\mathbf w`, `\mathbf A\mathbf B=\mathbf B\mathbf A`: products of letters on
            // both sides, an unknown on both, read as an equation to solve (a linear system, a fixed
            // point, an eigenvector, matrices that commute) unless the words assert it.
            let matrices: Vec<String> =
                self.spec.as_ref().map(|s| s.matrix.keys().cloned().collect()).unwrap_or_default();
            let matrix =
                |e: &Expr| contains(e, &|x| roles::is_bold(x) || x.symbol_key().is_some_and(|k| matrices.contains(&k)));
            let any = |_: &str| true;
            let shared_unknown = {
                let (mut a, mut b) = (std::collections::BTreeSet::new(), std::collections::BTreeSet::new());
                collect_keys(lhs, &mut a);
                collect_keys(rhs, &mut b);
                a.intersection(&b).any(|k| !given(k))
            };
            let products = monomial_of(lhs, &any) && monomial_of(rhs, &any);
            // `(\boldsymbol\mu_0-\boldsymbol\mu_1)(\boldsymbol\mu_0-\boldsymbol\mu_1)^\top\mathbf w=\lambda\mathbf
            // S_w\mathbf w`: both sides a matrix times one unknown vector.
            let linear = {
                let mut keys = std::collections::BTreeSet::new();
                collect_keys(lhs, &mut keys);
                keys.iter().any(|u| !given(u) && applied_to(lhs, u) && applied_to(rhs, u))
            };
            if prose.cue != roles::Cue::Assert
                && (matrix(lhs) || matrix(rhs))
                && ((products && shared_unknown) || linear)
            {
                return condition();
            }
            // `\sum_i b_{ij}=\sum_j b_{ij}=0`: a chain that ends in a number constrains its free
            // letters; its links between expressions of them alone are part of the constraint.
            // (After a number it starts with, `0=(2-\lambda)(3-\lambda)-2=(4-\lambda)(1-\lambda)`,
            // the links rewrite the equation and are claims.)
            let free_only = |e: &Expr| has_free_letter(e, &given, &number) && !uses_defined(e);
            if ends_in_constant && free_only(lhs) && free_only(rhs) {
                return condition();
            }
            return None;
        }
        if l == r {
            return None;
        }
        // `2x+y=1`, `\sum_i\alpha_i=1`, `\det(\mathbf A-\lambda\mathbf I)=0` of a defined A: a number
        // against letters nothing defines is an equation to solve in them (or a constraint),
        // whatever the words. `\sum_i\hat x_i=0` of a defined x̂ is a claim when the words assert it
        // or say nothing: sums, functions and derivatives of defined letters are identities.
        let varying = if l { rhs } else { lhs };
        let identity_like = contains(varying, &|x| {
            matches!(x.kind, ExprKind::Apply { .. } | ExprKind::BigOp { .. } | ExprKind::Derivative { .. })
                && !matches!(&x.kind, ExprKind::Apply { func, .. } if func.name == "det")
        });
        if has_free_letter(varying, &given, &number) && (!identity_like || !uses_defined(varying)) {
            return condition();
        }
        None
    }

    /// The letter of `e` (or of its family, `m` of `m_t`) is defined, declared or updated by a
    /// recurrence in the section.
    fn has_meaning(&self, e: &Expr) -> bool {
        let base = match &e.kind {
            ExprKind::Subscript { base, .. } => base.symbol_key(),
            _ => None,
        };
        [e.symbol_key(), base].into_iter().flatten().any(|k| {
            // (A shape read off use, or declared in another section, is no meaning this
            // section gives.)
            self.letters.notes_shapes.iter().any(|(key, _, section)| *key == k && *section == self.number)
                || self.letters.declared_functions.iter().any(|(key, _)| *key == k)
                || self.bindings.defs.iter().any(|d| d.key == k)
                || self.bindings.recurrences.iter().any(|r| r.key == k)
        })
    }

    /// The laws the words of this section give before the paragraph `block` (or in it).
    fn laws_before(&self, block: Option<usize>) -> Vec<Law> {
        let Some(block) = block else { return Vec::new() };
        self.words.laws.iter().filter(|(end, _)| *end <= block).map(|(_, law)| law.clone()).collect()
    }

    /// `H(X)`, `I(X, Y)` in notes that speak of entropy (the entropy or mutual information of
    /// random variables), `p_X(x)` (the mass function of X): the notes do not define them.
    fn not_definable(&self, target: &Expr) -> bool {
        (self.chapter.information && crate::syntax::ast::names_information_measure(target))
            || crate::syntax::ast::names_density(target)
    }

    /// The key of the name `target` introduces, where it is a letter (`\mu_X`, `\tilde\theta`) or
    /// a letter or named operator applied (`\textrm{MSE}(…)`, `\pi_1(h_1)`) that no formula of the
    /// section wrote before and nothing gives a meaning; `None` otherwise.
    fn fresh_name(&self, target: &Expr) -> Option<String> {
        let key = match &target.kind {
            ExprKind::Symbol(_) | ExprKind::Subscript { .. } => target.symbol_key()?,
            ExprKind::Apply { func, .. } if crate::syntax::ast::PROBABILITY_OPERATORS.contains(&func.name.as_str()) => {
                return None
            }
            _ if names_a_builtin(target) || self.not_definable(target) => return None,
            _ => crate::syntax::ast::applied_function(target)?.0,
        };
        let letters = ["P", "p", "E", "e", "\\pi", "i"];
        // (`\bar U = h^\top \bar\ell`: a bar is an adjoint, or a mean, whose equation is a claim.)
        let barred = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if s.accents.contains(&Accent::Bar));
        let taken = self.pinned
            || barred(target)
            || matches!(&target.kind, ExprKind::Subscript { base, .. } if barred(base))
            || self.letters.written.contains(&key)
            || self.letters.known.contains(&key)
            || self.has_meaning(target)
            || self.letters.index_letters.contains(&key)
            || letters.contains(&key.as_str());
        (!taken).then_some(key)
    }

    /// Does the worked example open here give `key` a meaning?
    fn example_gives(&self, key: &str) -> bool {
        self.bindings.given.iter().any(|g| g.open_example() && g.definition.key == key)
    }

    /// `\mathbf A = \begin{bmatrix} a_{11} & \cdots \\ \vdots & \ddots \end{bmatrix}`: a_{ij} is entry
    /// (i, j) of A, where the letter a has no meaning yet.
    fn define_pictured_entries(&mut self, target: &Expr, body: &Expr, origin: &str) {
        let Some((_, _, (letter, params, index))) = declarations::picture_entries(target, body) else { return };
        // (`\mathbf a_i^\top` beside `a_{ij}`: the rows are another object by the same letter,
        // which one reading of `a` cannot serve.)
        if self.bindings.defs.iter().any(|d| d.key == letter)
            || self.letters.known.contains(&letter)
            || self.words.vector_families.contains(&letter)
        {
            return;
        }
        let entry =
            Expr::new(ExprKind::Subscript { base: Box::new(target.clone()), index: Box::new(index) }, body.span);
        self.record(notes_definition(letter, params, &entry, origin, false, false));
    }

    /// Records `target = body` as a definition if the target is a new symbol of this section
    /// (or a function `σ(z)`), and the body does not use it (`x = x + 1` is a claim).
    fn try_define(&mut self, target: &Expr, body: &Expr, origin: &str, from_notes: bool) -> bool {
        // `p(x) = \begin{cases} 1 & x \in [0,1] \\ 0 & \textrm{otherwise} \end{cases}` in notes about
        // random variables: the density of one example; later sections speak of other ones.
        let probabilistic = self.chapter.probabilistic;
        let example_density = |key: &str, function: bool| function && matches!(key, "p" | "P") && probabilistic;
        let new = |key: String, params: Vec<String>, function: bool| Definition {
            section_only: example_density(&key, function),
            key,
            params,
            body: body.clone(),
            origin: origin.to_string(),
            from_notes,
            function,
            inherited: false,
        };
        // `\mathbf A = (a_{ij})`: a_{ij} is entry (i, j) of A, whatever A turns out to be.
        if let Some((letter, params, index)) = entries_letter(target, body) {
            if self.bindings.defs.iter().any(|d| d.key == letter) || self.letters.known.contains(&letter) {
                return false;
            }
            let entry =
                Expr::new(ExprKind::Subscript { base: Box::new(target.clone()), index: Box::new(index) }, body.span);
            self.record(Definition { body: entry, ..new(letter, params, false) });
            return true;
        }
        if let Some((key, params)) = self.function_target(target) {
            let declared = self.letters.declared_functions.iter().find(|(k, _)| *k == key).map(|(_, kind)| *kind);
            let taken = self.bindings.defs.iter().any(|d| d.key == key)
                || self.example_gives(&key)
                || (self.letters.known.contains(&key) && declared.is_none());
            // `p(x)=0`, `\textrm{Var}(X)=0`: a constant that uses no argument is an equation (a
            // root, a case), not the definition of a constant function.
            let constant = from_notes && roles::is_constant(body, &|_| false);
            // `\sigma(X)=\frac{1}{1+e^{-x}}`: a body that never uses the argument but writes it in
            // the other case is no function of what it is applied to as written; which letter is
            // meant is the author's to say, so the formula defines nothing.
            let other_case = from_notes
                && params.iter().all(|p| {
                    !mentions_key(body, p) && other_case_letter(p).is_some_and(|other| mentions_key(body, &other))
                });
            if taken || constant || other_case || mentions_key(body, &key) {
                return false;
            }
            if declared == Some(FunctionKind::Rotation) {
                self.inconsistent_function(&key);
            }
            self.record(new(key, params, true));
            return true;
        }
        let Some((key, params)) = self.definable(target) else { return false };
        // A family `R_i = …` may share its letter with a declared function `R(θ)`.
        let shares_function = !params.is_empty() && self.letters.declared_functions.iter().any(|(k, _)| *k == key);
        let taken = self.bindings.defs.iter().any(|d| d.key == key)
            || self.example_gives(&key)
            || (self.letters.known.contains(&key) && !shares_function);
        let own_entries = own_entries_shape(target, body).is_some();
        if taken || own_entries || (!shares_function && mentions_key(body, &key)) {
            return false;
        }
        self.record(new(key, params, false));
        true
    }

    /// `[\eta_1; \eta_2] = [a; b]`: each entry written on the left is defined by the value in
    /// the same cell on the right.
    fn define_entries(&mut self, entries: &Expr, values: &Expr, origin: &str) {
        let matrices = [entries, values].iter().all(|e| matches!(e.kind, ExprKind::Matrix { .. }));
        let (Some((entries, _)), Some((values, _)), true) = (vector_cells(entries), vector_cells(values), matrices)
        else {
            return;
        };
        if entries.len() != values.len() {
            return;
        }
        for (entry, value) in entries.into_iter().zip(values) {
            if !matches!(entry.kind, ExprKind::Ellipsis) {
                self.try_define(entry, value, origin, true);
            }
        }
    }

    fn record(&mut self, definition: Definition) {
        // `Y = aX + b` here after an earlier section's `X = Y^2`: the earlier meaning would make
        // this one circular, so the earlier section's letter is a fresh one here.
        let circular: Vec<String> = self
            .bindings
            .defs
            .iter()
            .filter(|d| d.inherited && mentions_key(&definition.body, &d.key))
            .filter(|d| self.reaches(&d.body, &definition.key, &mut BTreeSet::new()))
            .map(|d| d.key.clone())
            .collect();
        for key in &circular {
            self.bindings.defs.retain(|d| !(d.inherited && d.key == *key));
            if let Some(at) = self.letters.known.iter().position(|k| k == key) {
                self.letters.known.remove(at);
            }
        }
        self.bindings.definitions_made += 1;
        // A definition inside a worked example, or offered in passing, holds from here to the
        // example's (or the paragraph's) end: the claims before it and after it do not see it.
        let until = match self.current.reach {
            Reach::Section => None,
            Reach::Example => Some(None),
            Reach::Paragraph(block) => Some(Some(block)),
        };
        let scoped =
            definition.from_notes && !definition.inherited && example_scoped(definition.function, &definition.body);
        if let Some(until) = until.filter(|_| scoped) {
            let target = if definition.function {
                format!("{}({})", definition.key, definition.params.join(", "))
            } else {
                definition.key.clone()
            };
            let tex = format!("{target}={}", print::explicit_tex(&definition.body, &|_| false));
            self.bindings.given.retain(|g| g.definition.key != definition.key);
            self.bindings.given.push(Given { definition, until, tex, example: true });
            return;
        }
        self.letters.known.push(definition.key.clone());
        self.bindings.defs.push(definition);
    }

    /// Does `e` use `key`, itself or through the definitions of the letters it uses?
    fn reaches(&self, e: &Expr, key: &str, seen: &mut BTreeSet<String>) -> bool {
        if mentions_key(e, key) {
            return true;
        }
        let used: Vec<&Definition> =
            self.bindings.defs.iter().filter(|d| !seen.contains(&d.key) && mentions_key(e, &d.key)).collect();
        used.into_iter().any(|d| {
            seen.insert(d.key.clone());
            self.reaches(&d.body, key, seen)
        })
    }

    /// The notes define a function the spec declares as something else: the spec is wrong.
    fn inconsistent_function(&mut self, key: &str) {
        let Some(spec) = &self.spec else { return };
        let entry = spec.functions.iter().find(|(k, _)| crate::syntax::canonical_key(k).ok().as_deref() == Some(key));
        if let Some((name, kind)) = entry {
            let (line, col) = Spec::position(self.chapter.spec_text, kind.span().start);
            let kind = crate::spec::SpecErrorKind::FunctionDefinedInNotes {
                section: self.number.clone(),
                name: name.clone(),
                kind: *kind.get_ref(),
            };
            self.out.spec_problems.push(SpecProblem { line, col, kind });
        }
    }

    /// `1`, `j`, `i1`, `(i,j)`: numbers and index letters, the subscript of an entry.
    fn entry_subscript(&self, index: &Expr) -> bool {
        match &index.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Symbol(_) => index.symbol_key().is_some_and(|k| self.letters.index_letters.contains(&k)),
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                self.entry_subscript(lhs) && self.entry_subscript(rhs)
            }
            ExprKind::Tuple { items, .. } => items.iter().all(|i| self.entry_subscript(i)),
            _ => false,
        }
    }

    /// `\sigma(z)`, `g(x, y)`, `\operatorname{GELU}(x)`: a name applied to distinct bare symbols
    /// that are not indices. Gives the function's key and its parameters.
    fn function_target(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        if names_a_builtin(target) || self.not_definable(target) {
            return None;
        }
        let (key, args) = crate::syntax::ast::applied_function(target)?;
        self.parameters_of(key, &args)
    }

    /// The parameters a function definition's arguments name (`x`, `\hat{\mathbf y}`, `x_1`),
    /// distinct and none an index of the section; `None` where an argument names none.
    fn parameters_of(&self, key: String, args: &[Expr]) -> Option<(String, Vec<String>)> {
        let params: Vec<String> = args
            .iter()
            .map(|a| match &a.kind {
                // `\hat{\mathbf y}` names a parameter; `\bar y` is an adjoint, never one.
                ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar) => Some(s.key()),
                // `f(x_1, x_2)`, `\textrm{MSE}(\hat\theta_n, \theta)`: a letter with a subscript
                // names a parameter too.
                ExprKind::Subscript { base, .. }
                    if matches!(&base.kind, ExprKind::Symbol(s) if !s.accents.contains(&Accent::Bar)) =>
                {
                    a.symbol_key()
                }
                _ => None,
            })
            .collect::<Option<_>>()?;
        let distinct = params.iter().enumerate().all(|(i, p)| !params[..i].contains(p));
        let no_index = params.iter().all(|p| !self.letters.index_letters.contains(p) && p != "\\pi" && p != "e");
        (distinct && no_index && !params.is_empty()).then_some((key, params))
    }

    /// `a` -> ("a", []); `a_j` with j an index -> ("a", ["j"]); `W_Q` -> ("W_Q", []);
    /// `\operatorname{LN}(x)_r` -> ("\operatorname{LN}(x)", ["r"]); bars never.
    fn definable(&self, target: &Expr) -> Option<(String, Vec<String>)> {
        if let ExprKind::Subscript { base, index } = &target.kind {
            if let ExprKind::Apply { func, args, .. } = &base.kind {
                let letters = crate::syntax::ast::index_letters(index)?;
                let key = match args.as_slice() {
                    [arg] if func.sub.is_none() && func.sup.is_none() => {
                        crate::syntax::ast::applied_key(&func.name, arg)?
                    }
                    _ => return None,
                };
                return letters.iter().all(|l| self.letters.index_letters.contains(l)).then_some((key, letters));
            }
        }
        // A bar is an adjoint where a spec entry pins the section (a loss, a worked example);
        // in notes read without one, `\bar x` (a mean) is a letter like any other.
        let adjoint = |s: &crate::syntax::ast::Symbol| {
            s.accents.contains(&Accent::Bar)
                && (self.pinned || self.spec.as_ref().is_none_or(|spec| spec.loss.is_some() || spec.example.is_some()))
        };
        match &target.kind {
            ExprKind::Symbol(s) if !adjoint(s) => Some((s.key(), Vec::new())),
            ExprKind::Subscript { base, index } => {
                let ExprKind::Symbol(s) = &base.kind else { return None };
                if adjoint(s) {
                    return None;
                }
                // `x_j = 5` with x a declared matrix, `Z_{i1} = 5` after `Z = Xw`: an entry of
                // something known is a claim about it, never a new definition.
                // (`x_a` after a family x_i is a name when a is not an index.)
                // (A number given to the letter, `W = 10`, has no entries: `W_2` is a letter.)
                let number =
                    self.bindings.defs.iter().any(|d| {
                        d.key == s.key() && d.params.is_empty() && matches!(d.body.kind, ExprKind::Number { .. })
                    });
                let base_known = !number
                    && (self.letters.known.contains(&s.key()) || self.bindings.defs.iter().any(|d| d.key == s.key()));
                let base_function = self.letters.declared_functions.iter().any(|(k, _)| *k == s.key());
                let entry = self.letters.declared_matrices.contains(&s.key()) || self.entry_subscript(index);
                if base_known && !base_function && entry {
                    return None;
                }
                let letters = crate::syntax::ast::index_letters(index).unwrap_or_default();
                if !letters.is_empty() && letters.iter().all(|l| self.letters.index_letters.contains(l)) {
                    return Some((s.key(), letters));
                }
                target.symbol_key().map(|k| (k, Vec::new()))
            }
            _ => None,
        }
    }
}

/// Does a definition written inside a worked example hold for the example only? A letter given
/// a value does; a function (`f(x) = x^2` for the rest of the section's steps) or a matrix given
/// by its entries stays the section's, as a definition outside an example would.
fn example_scoped(function: bool, body: &Expr) -> bool {
    !function && !has_matrix(body)
}

/// Does `e` write a matrix (`\begin{bmatrix} … \end{bmatrix}`) anywhere?
fn has_matrix(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Matrix { .. }) || e.children().any(has_matrix)
}

/// What the words around a formula of the notes say, for [`SectionBuilder::chain_claims`].
struct Prose<'a> {
    lead: &'a str,
    /// Letters the words call numbers earlier in the paragraph.
    constants: &'a [String],
    /// Letters the words call random variables before it.
    random: &'a [String],
    /// Letters the words call a kind of matrix before it.
    classes: &'a [(String, MatrixClass)],
    /// Letters the words call a kind of matrix derivcheck does not construct, with the kind.
    kinds: &'a [(String, String)],
    /// Independence the words state.
    independence: Option<crate::model::Independence>,
    block: usize,
    cue: roles::Cue,
    /// The author's mark, which overrides the words.
    mark: Option<Mark>,
    /// A relation before it in the same formula is a condition: this one may follow from it.
    after_condition: bool,
    /// The words before it say the derivation substitutes equations written elsewhere.
    substitutes: bool,
}

impl Prose<'_> {
    /// Marked a claim (or a deliberate slip): every link is a claim, read as written.
    fn marked_claim(&self) -> bool {
        matches!(self.mark, Some(Mark::Claim | Mark::Wrong))
    }

    /// Words of condition before it (`if`, `for`, `若`), or the author's binding mark.
    fn conditional(&self) -> bool {
        self.mark == Some(Mark::Binding) || roles::is_conditional(self.lead)
    }
}

/// Where a definition comes from, as shown: `notes.md:12:3` or `spec:4:1`.
fn origin_text(origin: &Origin, path: &str) -> String {
    match origin {
        Origin::Notes { line, col, .. } => format!("{path}:{line}:{col}"),
        Origin::Spec { line, col, .. } => format!("spec:{line}:{col}"),
    }
}

/// `X` for `x` and `x` for `X`: a one-letter name in the other case.
fn other_case_letter(name: &str) -> Option<String> {
    let mut chars = name.chars();
    let (Some(c), None) = (chars.next(), chars.next()) else { return None };
    if c.is_ascii_lowercase() {
        Some(c.to_ascii_uppercase().to_string())
    } else if c.is_ascii_uppercase() {
        Some(c.to_ascii_lowercase().to_string())
    } else {
        None
    }
}

/// A definition the notes write at `origin` (a binding, a conditional or an example
/// definition). `section_only`: the sections after do not inherit it.
fn notes_definition(
    key: String,
    params: Vec<String>,
    body: &Expr,
    origin: &str,
    function: bool,
    section_only: bool,
) -> Definition {
    Definition {
        key,
        params,
        body: body.clone(),
        origin: origin.to_string(),
        from_notes: true,
        function,
        inherited: false,
        section_only,
    }
}

/// Does the spec have an entry of its own for this section (which pins its readings)?
fn section_spec_present(spec: Option<&Spec>, number: &str) -> bool {
    spec.is_some_and(|s| s.section(number).is_some())
}

/// Greek letter names (`\lambda`): letters, unlike `\emptyset` or `\infty`.
const GREEK_LETTERS: [&str; 40] = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "varepsilon",
    "zeta",
    "eta",
    "theta",
    "vartheta",
    "iota",
    "kappa",
    "lambda",
    "mu",
    "nu",
    "xi",
    "pi",
    "varpi",
    "rho",
    "varrho",
    "sigma",
    "varsigma",
    "tau",
    "upsilon",
    "phi",
    "varphi",
    "chi",
    "psi",
    "omega",
    "Gamma",
    "Delta",
    "Theta",
    "Lambda",
    "Xi",
    "Pi",
    "Sigma",
    "Upsilon",
    "Phi",
    "Psi",
    "Omega",
];

/// Sizes a size letter takes when only the notes name it (`X\in\mathbb R^{n\times d}`).
pub const DEFAULT_SIZES: [i64; 2] = [2, 3];

/// A number, or a matrix of numbers (`0.25`, `-1`, `\begin{bmatrix}0.1&0.2\end{bmatrix}`).
fn numbers_only(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => numbers_only(operand),
        ExprKind::Matrix { .. } => e.children().all(numbers_only),
        _ => false,
    }
}

/// The notes give `name` a value (`n = 5`, `q = 10`), also as a row of `aligned`.
fn assigned_in(doc: &Document, formulas: &[&ParsedFormula], name: &str) -> bool {
    let chains = formulas.iter().flat_map(|f| flatten_environments(&f.statement.chains, &doc.formulas[f.index].tex));
    // A picture of a general matrix (`\mathbf A = \begin{bmatrix} a_{11} & \cdots \end{bmatrix}`)
    // gives it no value, nor a vector written as its own entries (`\mathbf x = [x_1, x_2]^\top`,
    // which declares its shape), nor an equation of the letter with itself (`\mathbf A =
    // \mathbf A^\top`, what symmetric means).
    chains.into_iter().any(|c| {
        let Some(first) = c.first.as_ref().filter(|e| e.symbol_key().as_deref() == Some(name)) else { return false };
        c.links.first().is_some_and(|l| {
            matches!(l.op, RelOp::Eq | RelOp::Define)
                && !depicts_a_general_matrix(&l.rhs)
                && own_entries_shape(first, &l.rhs).is_none()
                && !mentions_key(&l.rhs, name)
        })
    })
}

/// Keys of symbols the formulas use as vectors or matrices (see [`collect_matrix_like`]), and of
/// those written side by side in both orders (`AB` here, `BA` there: the order matters to the
/// notes, so A and B are not numbers).
fn matrix_like_in(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
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

/// `\phi_i(x)`, `f_k(x, y)`: a subscripted letter applied to plain letters other than its
/// index — the left side of a definition of a family of functions; gives the letter (`\phi`).
fn family_of_functions_defined(e: &Expr) -> Option<String> {
    // (`\phi_i(x)` parses as the member times the parenthesis.)
    let ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } = &e.kind else { return None };
    let (None, member, arg) = crate::syntax::ast::subscript_applied(lhs, rhs)? else { return None };
    let ExprKind::Subscript { base, index } = &member.kind else { return None };
    let indices = crate::syntax::ast::index_letters(index)?;
    let args: Vec<&Expr> = match &arg.kind {
        ExprKind::Tuple { items, stacked: false } => items.iter().collect(),
        _ => vec![arg],
    };
    let plain =
        |a: &&Expr| matches!(a.kind, ExprKind::Symbol(_)) && a.symbol_key().is_some_and(|k| !indices.contains(&k));
    args.iter().all(plain).then(|| base.symbol_key()).flatten()
}

/// `x = x^c`, `y = \sum_i d_i y_i^2`, `a_j = \sum_{i \ne j} x_i a_i`: the left side is a letter
/// (or a member of a family) that the right side uses again, itself, another member of its family,
/// or its entries. The letter as written on the left.
fn self_referent(lhs: &Expr, rhs: &Expr) -> Option<String> {
    let key = lhs.symbol_key()?;
    let base = match &lhs.kind {
        ExprKind::Symbol(_) => key.clone(),
        ExprKind::Subscript { base, .. } => base.symbol_key()?,
        _ => return None,
    };
    fn uses(e: &Expr, key: &str, base: &str) -> bool {
        let same = match &e.kind {
            ExprKind::Symbol(_) => e.symbol_key().is_some_and(|k| k == key || k == base),
            ExprKind::Subscript { base: b, .. } => {
                e.symbol_key().is_some_and(|k| k == key) || b.symbol_key().is_some_and(|k| k == base)
            }
            _ => false,
        };
        same || e.children().any(|c| uses(c, key, base))
    }
    uses(rhs, &key, &base).then_some(key)
}

/// `t=t+1`, `\theta=\theta-\eta g`: a lone letter set to itself plus or minus something, the
/// way algorithms write an update. Gives the letter.
fn update_step(lhs: &Expr, rhs: &Expr) -> Option<String> {
    // `s(i,t+1)=s(i,t)+…`: a recurrence written with function notation is a step too.
    let head = |e: &Expr| match &e.kind {
        ExprKind::Call { func, .. } => func.symbol_key().map(|k| format!("{k}(…)")),
        _ => None,
    };
    let key = match head(lhs) {
        Some(k) => k,
        None => lhs.symbol_key().filter(|_| matches!(lhs.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. }))?,
    };
    fn terms<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
        match &e.kind {
            ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
                terms(lhs, out);
                terms(rhs, out);
            }
            _ => out.push(e),
        }
    }
    let mut top = Vec::new();
    terms(rhs, &mut top);
    // For a function, one argument steps (`t+1` against `t`) and the others agree.
    let steps = |t: &Expr| {
        let (ExprKind::Call { args: a, .. }, ExprKind::Call { args: b, .. }) = (&lhs.kind, &t.kind) else {
            return false;
        };
        let written = |e: &Expr| print::explicit_tex(e, &|_| false);
        let stepped = |x: &Expr, y: &Expr| {
            matches!(&x.kind, ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs }
                if written(lhs) == written(y) && matches!(rhs.kind, ExprKind::Number { .. }))
        };
        let differing: Vec<(&Expr, &Expr)> = a.iter().zip(b).filter(|(x, y)| written(x) != written(y)).collect();
        a.len() == b.len() && matches!(differing.as_slice(), [(x, y)] if stepped(x, y) || stepped(y, x))
    };
    let same = |t: &Expr| {
        t.symbol_key().as_deref() == Some(key.as_str()) || (head(t).as_deref() == Some(key.as_str()) && steps(t))
    };
    (top.len() > 1 && top.iter().any(|t| same(t))).then_some(key)
}

/// A product of letters `free` accepts, each maybe transposed, inverted or raised to a whole
/// power, and numbers: `\mathbf A\mathbf x`, `\lambda\mathbf v`, `\mathbf W^{-1}`.
fn monomial_of(e: &Expr, free: &dyn Fn(&str) -> bool) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => !s.is_bold_one() && free(&s.key()),
        ExprKind::Subscript { .. } => e.symbol_key().is_some_and(|k| free(&k)),
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } | ExprKind::Transpose { operand } => monomial_of(operand, free),
        ExprKind::Power { base, exponent } => {
            monomial_of(base, free) && matches!(&exponent.kind, ExprKind::Number { .. } | ExprKind::Neg { .. })
        }
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
            monomial_of(lhs, free) && monomial_of(rhs, free)
        }
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" => monomial_of(inner, free),
        _ => false,
    }
}

/// `u`, `\mathbf A\mathbf u`, `\lambda\mathbf B\mathbf u`: the vector `u` (a key), once, as the last
/// factor of a product whose other factors do not write it.
fn applied_to(e: &Expr, u: &str) -> bool {
    match &e.kind {
        _ if e.symbol_key().as_deref() == Some(u) => true,
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } => !mentions_key(lhs, u) && applied_to(rhs, u),
        ExprKind::Neg { operand } => applied_to(operand, u),
        _ => false,
    }
}

/// Does `e` write a letter that `given` does not know (an entry `x_1` of a known x is known,
/// unless x is only a `number` bound for a sentence)?
fn has_free_letter(e: &Expr, given: &dyn Fn(&str) -> bool, number: &dyn Fn(&str) -> bool) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => !s.is_bold_one() && !given(&s.key()),
        ExprKind::Subscript { base, index } => match (base.symbol_key(), e.symbol_key()) {
            // An entry of a known vector (`x_1` of a defined x); a number bound to x for a sentence
            // (`x=0`) has no entries, so its x_k is a letter of its own.
            (Some(b), _) if given(&b) && !number(&b) => has_free_letter(index, given, number),
            (_, Some(k)) => !given(&k),
            (Some(_), None) => true,
            _ => e.children().any(|c| has_free_letter(c, given, number)),
        },
        ExprKind::Apply { args, .. } => args.iter().any(|a| has_free_letter(a, given, number)),
        // `\sum_{i=1}^n i`: i is bound by the sum; `\int_0^1 y\,dy`: y by the integral.
        ExprKind::BigOp { op, lower, body, .. } => {
            let letters = crate::syntax::ast::bound_letters(op, lower.as_deref(), body.as_deref());
            let inner = |k: &str| letters.iter().any(|l| l == k) || given(k);
            e.children().any(|c| has_free_letter(c, &inner, number))
        }
        _ => e.children().any(|c| has_free_letter(c, given, number)),
    }
}

/// `\begin{bmatrix} a_{11} & \cdots & a_{1n} \\ \vdots & \ddots & \vdots \end{bmatrix}`: a matrix
/// written with dots for the entries it leaves out — a picture of a general matrix, not a value.
fn depicts_a_general_matrix(e: &Expr) -> bool {
    let ExprKind::Matrix { rows, .. } = &e.kind else { return false };
    let dots = |cell: &Statement| {
        cell.chains
            .iter()
            .any(|c| c.links.is_empty() && c.first.as_ref().is_some_and(|f| matches!(f.kind, ExprKind::Ellipsis)))
    };
    rows.iter().flatten().flatten().any(dots)
}

/// `a_i`: the key of a general member of a family (one letter for its index), and the family's
/// letter; `a_1`, `a` are not.
fn family_member(key: &str) -> Option<&str> {
    let (base, index) = key.rsplit_once('_')?;
    let letter = index.chars().count() == 1 && index.chars().all(|c| c.is_ascii_lowercase());
    (letter && !base.is_empty() && !base.contains('_')).then_some(base)
}

/// The letters the formulas write bold with an index (`\mathbf a_i`, `\mathbf b_1`): families of
/// vectors.
fn vector_families(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
    let mut out = std::collections::BTreeSet::new();
    for e in formulas.iter().flat_map(|f| &f.statement.chains).flat_map(|c| c.exprs()) {
        collect_bold_bases(e, &mut out);
    }
    out
}

/// The letters the formulas write plain with one index (`x_1`, `x_n`, `x_i`).
fn plain_with_one_index(formulas: &[&ParsedFormula]) -> std::collections::BTreeSet<String> {
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

/// `\begin{bmatrix}\mathbf a_1^\top \\ \vdots \\ \mathbf a_m^\top\end{bmatrix}`, `\begin{bmatrix}\mathbf
/// b_1 & \cdots & \mathbf b_n\end{bmatrix}`: a matrix pictured by its rows or columns, members of a
/// bold family — it is made of them (a value in those letters), where a picture by entries only
/// names them.
fn depicts_blocks(e: &Expr) -> bool {
    let ExprKind::Matrix { rows, .. } = &e.kind else { return false };
    let block = |cell: &Expr| {
        let member = match &cell.kind {
            ExprKind::Transpose { operand } => operand,
            _ => cell,
        };
        matches!(&member.kind, ExprKind::Subscript { base, .. } if roles::is_bold(base))
    };
    let cells: Vec<&Expr> = rows
        .iter()
        .flatten()
        .flatten()
        .flat_map(|s| &s.chains)
        .filter(|c| c.links.is_empty())
        .filter_map(|c| c.first.as_ref())
        .filter(|f| !matches!(f.kind, ExprKind::Ellipsis))
        .collect();
    !cells.is_empty() && cells.into_iter().all(block)
}

/// The letters a formula names: a list of bare letters (`a`, `X, Y`), or the letter a
/// membership declares (`A \in \mathbb R^{n\times n}`, `A \in R^{n\times n}`); none otherwise.
fn named_letters(tex: &str) -> Vec<String> {
    let letters = bare_letters(tex);
    if !letters.is_empty() {
        return letters;
    }
    // (`A \in R^{n\times n}` with a plain R, as often as `\mathbb R`.)
    let declared = single_chain(tex).and_then(|chain| {
        let [link] = chain.links.as_slice() else { return None };
        let first = chain.first.as_ref().filter(|f| matches!(f.kind, ExprKind::Symbol(_)))?;
        (link.op == RelOp::In).then(|| first.symbol_key()).flatten()
    });
    declared.into_iter().collect()
}

/// The one chain a formula's TeX writes; `None` where it does not parse or writes several.
fn single_chain(tex: &str) -> Option<Chain> {
    let mut chains = crate::syntax::parse_formula(tex).ok()?.chains;
    (chains.len() == 1).then(|| chains.pop()).flatten()
}

/// A number, or a number negated (`2`, `-0.5`).
fn value_is_number(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => value_is_number(operand),
        _ => false,
    }
}

/// The letters of `sites` (each with its formula index) whose words (`named`, from the index and
/// the site) say what they are (`letters_of` the formula named), with the letters listed just
/// before a named one (`$X$ and $Y$ are …`, joined by `and` or a comma).
fn letters_named_in<T: Clone>(
    sites: &[(usize, &FormulaSite)],
    named: &dyn Fn(usize, &FormulaSite) -> Option<T>,
    letters_of: &dyn Fn(&str) -> Vec<String>,
) -> Vec<(String, T)> {
    let mut out = Vec::new();
    for (k, &(at, site)) in sites.iter().enumerate() {
        let Some(what) = named(at, site) else { continue };
        out.extend(letters_of(&site.tex).into_iter().map(|l| (l, what.clone())));
        for (_, before) in sites[..k].iter().rev().take_while(|(_, b)| roles::continues_a_list(&b.trail)) {
            out.extend(named_letters(&before.tex).into_iter().map(|l| (l, what.clone())));
        }
    }
    out
}

/// [`named_letters`], or the base of a power of a letter (`P^k`, `P^{k+1}`).
fn named_letters_or_power_bases(tex: &str) -> Vec<String> {
    let letters = named_letters(tex);
    if !letters.is_empty() {
        return letters;
    }
    let power_base = single_chain(tex).and_then(|chain| {
        let ExprKind::Power { base, .. } = &chain.first.as_ref().filter(|_| chain.links.is_empty())?.kind else {
            return None;
        };
        matches!(base.kind, ExprKind::Symbol(_)).then(|| base.symbol_key()).flatten()
    });
    power_base.into_iter().collect()
}

/// An equation the words right after it call a deterministic function (`$Y=aX+b$ as any linear
/// deterministic function of $X$`): its small letters are numbers in the paragraph it leads to,
/// and wherever the section writes the capitals it defines after it.
struct Deterministic {
    /// The formula's index in the document.
    index: usize,
    block: usize,
    /// The capital letters it defines (`Y`).
    defined: Vec<String>,
    /// The small single letters of their right sides (`a`, `b`).
    small: Vec<String>,
}

/// The equations the words of section `section` call deterministic functions.
fn deterministic_in(doc: &Document, section: Option<usize>) -> Vec<Deterministic> {
    let sites = doc.formulas.iter().enumerate().filter(|(_, f)| f.section == section);
    sites
        .filter(|(_, f)| roles::calls_deterministic(&f.trail))
        .map(|(index, f)| {
            let (defined, small) = small_letters_defining(&f.tex);
            Deterministic { index, block: f.block, defined, small }
        })
        .collect()
}

/// `Y = aX + b` -> ([Y], [a, b]): the capital letters an equation defines, and the small single
/// letters of their right sides.
fn small_letters_defining(tex: &str) -> (Vec<String>, Vec<String>) {
    fn small(e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Symbol(s) = &e.kind {
            if s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_lowercase()) && s.accents.is_empty() {
                out.push(s.key());
            }
        }
        e.children().for_each(|c| small(c, out));
    }
    let Ok(statement) = crate::syntax::parse_formula(tex.trim()) else { return (Vec::new(), Vec::new()) };
    let (mut defined, mut out) = (Vec::new(), Vec::new());
    for chain in &statement.chains {
        let capital = chain.first.as_ref().filter(|e| {
            matches!(&e.kind, ExprKind::Symbol(s) if s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_uppercase()))
        });
        if let ([link], Some(capital)) = (chain.links.as_slice(), capital) {
            if link.op == RelOp::Eq {
                defined.extend(capital.symbol_key());
                small(&link.rhs, &mut out);
            }
        }
    }
    (defined, out)
}

/// The letters of a formula that is only a list of bare letters (`a`, `X, Y`); none otherwise.
fn bare_letters(tex: &str) -> Vec<String> {
    let letters: Option<Vec<String>> = tex
        .split(',')
        .map(|part| {
            let chain = crate::syntax::parse_formula(part.trim()).ok()?.chains.into_iter().next()?;
            let first = chain.first.filter(|_| chain.links.is_empty())?;
            match &first.kind {
                ExprKind::Symbol(_) => first.symbol_key(),
                _ => None,
            }
        })
        .collect();
    letters.unwrap_or_default()
}

/// `\frac{dF}{dx} = f`, `f = F'`… of a function f (`function` says which letters are): the
/// equation of two functions, read at the derivative's variable, `\frac{dF}{dx} = f(x)`. `None`
/// where the sides are not a derivative of a letter by a letter and a bare function letter.
fn functions_at_their_variable(lhs: &Expr, rhs: &Expr, function: &dyn Fn(&str) -> bool) -> Option<(Expr, Expr)> {
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

/// Letters the formulas write with a subscript only as heads applied to a parenthesis
/// (`f_i(\mathbf x)`, `\nabla f_i(\mathbf x)`, `\frac1n\sum_i f_i(\mathbf x)`), never as a value
/// (`f_i`, `f_i x`): a family of functions nobody specified. Plain letters only, as for
/// [`unknown_functions`] (σ, P, E, p stay refused); not a letter the section declares, defines as a
/// family, or uses as a vector or matrix. The letter itself may name a function of its own
/// (`f(\mathbf x) = \frac1n\sum_i f_i(\mathbf x)`).
fn unknown_families(formulas: &[&ParsedFormula], scope: &Scope) -> std::collections::BTreeSet<String> {
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
                && !scope.matrix_like.contains(k)
                && !NEVER_UNSPECIFIED_FUNCTIONS.contains(&k.as_str())
        })
        .collect()
}

/// A plain Latin or Greek letter, without style or accent (`g`, `\phi`): what may name a function
/// nobody specified (`\mathcal O`, `\textrm{Var}`, `\hat f` may not).
fn may_name_a_function(s: &crate::syntax::ast::Symbol) -> bool {
    let letter = s.name.chars().count() == 1 && s.name.chars().all(char::is_alphabetic)
        || GREEK_LETTERS.contains(&s.name.as_str());
    letter && s.style.is_none() && s.accents.is_empty()
}

/// Letters never read as functions nobody specified: probability's operators (P(A\mid B), E[X],
/// p(x) a density), and σ, by convention the logistic function (p = σ(z) in every logistic
/// regression: read as an arbitrary function it would refute ∂ℓ/∂z = p - y).
const NEVER_UNSPECIFIED_FUNCTIONS: [&str; 6] = ["P", "E", "p", "e", "\\Pr", "\\sigma"];

/// Letters the formulas only ever apply (`g(x)`, `g'(h(x))`, `f(x, y)`): not defined, declared,
/// written as a value, used as a vector or matrix, nor an index. Greek and Latin letters only
/// (`\mathcal O(…)`, `\textrm{Var}(…)` stay refused), never `P`, `E` or `p` of probability, nor
/// σ, which undefined means the logistic function.
fn unknown_functions(formulas: &[&ParsedFormula], scope: &Scope) -> std::collections::BTreeSet<String> {
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
            && !scope.values.contains(k)
            && !scope.matrix_like.contains(k)
            && !NEVER_UNSPECIFIED_FUNCTIONS.contains(&k.as_str())
    });
    found
}

/// `\exp(x)`, `\mathrm{softmax}(z)`: a function the notation table knows, applied; the notes
/// never define it.
fn names_a_builtin(target: &Expr) -> bool {
    matches!(&target.kind, ExprKind::Apply { func, .. } if crate::notation::is_builtin(&func.name))
}

/// The letter a signature names a function (`f: \mathbb{R}^d \to \mathbb{R}`): its key.
fn signature_of(chain: &Chain) -> Option<String> {
    let signature = matches!(chain.links.first(), Some(l) if l.op == RelOp::Colon);
    chain.first.as_ref().filter(|e| signature && matches!(e.kind, ExprKind::Symbol(_)))?.symbol_key()
}

/// Letters a signature in `formulas` declares.
fn signed_anew(formulas: &[&ParsedFormula]) -> BTreeSet<String> {
    formulas.iter().flat_map(|f| &f.statement.chains).filter_map(signature_of).collect()
}

/// Of `inherited`, the keys of the definitions made through a letter of `renewed` (not their
/// own parameters: `\sigma(z) = \frac{1}{1+e^{-z}}` speaks of no z of the section), and of those
/// made through such a definition, and so on: they spoke of a meaning the section replaces.
fn stale_definitions<'d>(
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

/// Keys of bold letters written with a subscript (`\mathbf x_i`: x names a family of vectors).
fn collect_bold_bases(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
    if let ExprKind::Subscript { base, .. } = &e.kind {
        if roles::is_bold(base) {
            out.extend(base.symbol_key());
        }
    }
    e.children().for_each(|c| collect_bold_bases(c, out));
}

/// Every symbol key an expression writes (`x`, `x_i`, `W_Q`).
fn collect_keys(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
    if let Some(key) = e.symbol_key() {
        out.insert(key);
    }
    if let ExprKind::Apply { func, .. } = &e.kind {
        out.insert(crate::syntax::ast::operator_key(&func.name));
    }
    if let Some(word) = e.word_function_key() {
        out.insert(word);
    }
    e.children().for_each(|c| collect_keys(c, out));
}

/// Keys of symbols written as values (`x` in `x^2`, `ab`), not as the head of `x(…)`.
fn is_bare_symbol(chain: &Chain) -> bool {
    chain.links.is_empty() && chain.first.as_ref().is_some_and(|e| matches!(e.kind, ExprKind::Symbol(_)))
}

/// Do the notes speak of entropy or mutual information anywhere (`entropy`, `熵`, `互信息`)?
fn names_information(source: &str) -> bool {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\bentropy\b|\bmutual information\b|熵|互信息").expect("valid regex")
    });
    NAMES.is_match(source)
}

/// Do the notes speak of random variables or distributions (`random variable`, `density`,
/// `distribution`, `随机变量`, `概率密度`, `分布`)?
fn names_probability(source: &str) -> bool {
    static NAMES: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?i)\brandom variables?\b|\bdensity\b|\bdistribution\b|随机变量|概率密度|分布")
            .expect("valid regex")
    });
    NAMES.is_match(source)
}

/// `p_X(x) = <formula>`, `P(X = 1, Y = -1) = \frac{p}{2}`: a probability or density of random
/// variables set equal to a formula that speaks of no probability (nor is a number, which a worked
/// example may compute): the text gives the distribution.
fn gives_a_distribution(target: &Expr, body: &Expr) -> bool {
    // (`p` alone is a parameter, `\frac{p}{2}`; applied, `p(x)`, it is a probability.)
    fn probability_written(e: &Expr) -> bool {
        let named = |name: &str| matches!(name, "p" | "P" | "E" | "Pr" | "Var" | "Cov");
        match &e.kind {
            ExprKind::Symbol(s) if named(&s.name) && s.name != "p" => true,
            ExprKind::Apply { func, .. } if named(&func.name) => true,
            ExprKind::Call { func, .. }
                if matches!(&func.kind, ExprKind::Symbol(s) if named(&s.name))
                    || crate::syntax::ast::is_density_head(func) =>
            {
                true
            }
            _ => e.children().any(probability_written),
        }
    }
    let probability = crate::syntax::ast::names_density(target)
        || matches!(&target.kind, ExprKind::Call { func, .. }
            if matches!(&func.kind, ExprKind::Symbol(s) if matches!(s.name.as_str(), "p" | "P") && s.accents.is_empty()));
    probability && !probability_written(body) && !roles::is_constant(body, &|_| false)
}

/// `A=a`, `X = x`: a capital letter equal to its own small letter is a random variable taking a
/// value (an event, as in `P(A=a)`, `given $A=a$`), not an equation.
fn is_event(chain: &Chain) -> bool {
    let plain = |e: &Expr| match &e.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.label.is_none() && s.name.chars().count() == 1 => {
            s.name.chars().next()
        }
        _ => None,
    };
    match (chain.first.as_ref().and_then(plain), chain.links.as_slice()) {
        (Some(capital), [link]) if link.op == RelOp::Eq => {
            capital.is_ascii_uppercase() && plain(&link.rhs) == Some(capital.to_ascii_lowercase())
        }
        _ => false,
    }
}

/// `\eta(t) = \eta_0 e^{-\lambda t} && \textrm{exponential decay} \\ \eta(t) = \eta_0 (\beta t +
/// 1)^{-\alpha} && \textrm{polynomial decay}`: rows of one aligned block that each give the same
/// left side another value, annotated after `&&`, list alternatives — no row is a claim about
/// another, and none is the definition. Gives the indices of those equations.
fn alternative_definitions(equations: &[&Chain], tex: &str) -> BTreeSet<usize> {
    let written = |c: &Chain| {
        let [link] = c.links.as_slice() else { return None };
        let first = c.first.as_ref()?;
        let named = matches!(first.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Call { .. });
        (link.op == RelOp::Eq && named).then(|| print::explicit_tex(first, &|_| false))
    };
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (k, chain) in equations.iter().enumerate() {
        if let Some(lhs) = written(chain) {
            groups.entry(lhs).or_default().push(k);
        }
    }
    let annotated = tex.contains("&&") && (tex.contains("\\text") || tex.contains("\\mathrm"));
    groups
        .into_values()
        .filter(|ks| annotated && ks.len() >= 2)
        .filter(|ks| {
            let bodies: BTreeSet<String> =
                ks.iter().map(|k| print::explicit_tex(&equations[*k].links[0].rhs, &|_| false)).collect();
            bodies.len() == ks.len()
        })
        .flatten()
        .collect()
}
