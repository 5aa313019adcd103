//! The state of a section being planned: the builder's six parts (the chapter's inputs, the
//! section's words, its letters, its bindings, its output, the formula being added) and what
//! they hold. The passes that fill them are `section`'s `build` and the methods of the files
//! beside it.

use super::claim::{Claim, Shadowing, Skipped, SpecProblem};

use super::distributions::Law;
use super::entries;
use super::forms::example_scoped;
use super::recurrence;
use super::shapes;

use super::scope::{Assumption, Definition, FunctionKind, MatrixClass};
use crate::notes::Document;
use crate::spec::Spec;
use crate::syntax::ast::{Chain, Expr};
use std::collections::BTreeSet;

/// A section's plan under construction: the chapter's inputs, the section's words and letters,
/// the bindings made so far and the output, each part its own struct.
pub(super) struct SectionBuilder<'a> {
    pub(super) number: String,
    pub(super) spec: Option<crate::spec::SectionSpec>,
    /// The notes' formulas decide the section's sizes and letters: no spec entry pins them.
    pub(super) pinned: bool,
    /// What the whole chapter gives every section: its text, its spec, and what its words say once.
    pub(super) chapter: ChapterInputs<'a>,
    /// What the section's words and notation say, read before its formulas are added (the cues).
    pub(super) words: SectionWords,
    /// What the section declares of its letters so far: indices, shapes, functions, the keys written.
    pub(super) letters: SectionLetters,
    /// The meanings the text gives letters so far: definitions (inherited and the section's), values bound for a paragraph or an example, conditions stated, recurrences, distributions.
    pub(super) bindings: Bindings,
    /// What the section gives: claims, formulas not checked, roles, spec problems.
    pub(super) out: SectionOutput,
    /// What the formula being added has been found to be so far.
    pub(super) current: CurrentFormula,
}

/// What the whole chapter says once, read before its sections are built (each section's
/// builder takes it, rather than reading the whole text again).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct ChapterFacts {
    /// The notes speak of entropy or mutual information (`cues::names_information`).
    pub(super) information: bool,
    /// The notes speak of random variables or distributions (`cues::names_probability`).
    pub(super) probabilistic: bool,
    /// The notes write `e` as a power's base (`cues::writes_euler_powers`).
    pub(super) euler: bool,
    /// The notes speak of complex numbers (`cues::names_complex_numbers`).
    pub(super) complex: bool,
}

/// What the whole chapter gives every section: its text, its spec, and what its words say once.
pub(super) struct ChapterInputs<'a> {
    pub(super) doc: &'a Document,
    pub(super) spec_full: Option<&'a Spec>,
    pub(super) spec_text: &'a str,
    /// Every symbol key the document writes (sizes read off use are named apart from them).
    pub(super) document_keys: std::rc::Rc<std::collections::BTreeSet<String>>,
    /// This document plans the spec's own claims (one document of a chapter does, so each
    /// appears once).
    pub(super) owns_spec: bool,
    /// The notes speak of entropy or mutual information ([`ChapterFacts::information`]).
    pub(super) information: bool,
    /// The notes speak of random variables or distributions ([`ChapterFacts::probabilistic`]).
    pub(super) probabilistic: bool,
    /// The notes write `e` as a power's base: it is Euler's number ([`ChapterFacts::euler`]).
    pub(super) euler: bool,
    /// The notes speak of complex numbers ([`ChapterFacts::complex`]).
    pub(super) complex: bool,
    /// Letters the words call a statistic of others, each with the letter it is one of (the
    /// cues' `statistics_named`), read once for the chapter.
    pub(super) statistics: std::rc::Rc<std::collections::BTreeMap<String, String>>,
    /// Letters the chapter names eigenvalues, each with the section that names it (the cues'
    /// `eigenvalues_named`), read once for the chapter.
    pub(super) eigenvalues: std::rc::Rc<Vec<(Option<usize>, String)>>,
    /// Letters a formula of the chapter puts in a finite set of numbers (the cues'
    /// `finite_sets`), read once for the chapter.
    pub(super) finite_sets: std::rc::Rc<std::collections::BTreeMap<String, Vec<String>>>,
}

/// What the section's words and notation say, read before its formulas are added (the cues).
#[derive(Default)]
pub(super) struct SectionWords {
    /// The distributions this section's words give value by value, each with the paragraph
    /// that ends it ([`distributions::laws_in`]).
    pub(super) laws: Vec<(usize, Law)>,
    /// The equations this section's words call deterministic functions (read once per section).
    pub(super) deterministic: Vec<Deterministic>,
    /// Relations the section's words suppose and derivcheck does not model, in order: the
    /// letters each relates and its TeX ([`ClaimReading::hypothesis`]).
    pub(super) hypotheses: Vec<(BTreeSet<String>, String)>,
    /// Letters the section defines and then approximates (`f(x) := e^x`, then `f(t+\Delta t)
    /// \approx …`), in order, each with the line and column of the approximation: later steps
    /// may write their approximate values with `=` ([`super::claim::WordsRole::Approximated`]),
    /// until the letter is given another meaning.
    pub(super) approximated: Vec<(String, String)>,
    /// What each formula's words say, read once: every later formula asks again.
    pub(super) words_read: std::cell::RefCell<WordsRead>,
    /// See [`SectionBuilder::first_renaming`].
    pub(super) first_renaming: Option<usize>,
    /// Letters the section writes bold with an index (`\mathbf a_i`): a family of vectors.
    pub(super) vector_families: std::collections::BTreeSet<String>,
    /// Letters the section writes plain with one index (`x_1`, `x_n`): entries, or numbers.
    pub(super) entry_letters_plain: std::collections::BTreeSet<String>,
    /// Small letters read as the entries of their capital in this section ([`entries`]).
    pub(super) entry_letters: Vec<entries::EntryLetter>,
}

/// What the section declares of its letters so far: indices, shapes, functions, the keys written.
#[derive(Default)]
pub(super) struct SectionLetters {
    pub(super) index_letters: Vec<String>,
    /// Letters the section writes as a subscript of one letter (`x_i`, `y_j`): indices, though
    /// no sum runs over them.
    pub(super) subscript_letters: BTreeSet<String>,
    pub(super) known: Vec<String>,
    /// Every symbol key the section's formulas before this one write.
    pub(super) written: std::collections::BTreeSet<String>,
    /// Keys the spec declares as functions (a family `R_i` may share its letter with `R(θ)`).
    pub(super) declared_functions: Vec<(String, FunctionKind)>,
    /// Keys the spec declares as matrices or identities: any subscript on them is an entry.
    pub(super) declared_matrices: Vec<String>,
    /// Shapes the notes declare up to this section (`w\in\mathbb R^{d}`), with the section each is
    /// declared in.
    pub(super) notes_shapes: Vec<(String, [String; 2], String)>,
    /// Letters whose shape in force was declared in an earlier section, or declared twice with
    /// different shapes in this one.
    pub(super) declared_elsewhere: std::collections::BTreeSet<String>,
    /// See [`Scope::defined_and_declared`](super::scope::LetterUsage::defined_and_declared).
    pub(super) defined_and_declared: std::collections::BTreeMap<String, [String; 2]>,
    /// Shapes read off use in this section (declared in its spec entry from then on).
    pub(super) inferred: Vec<shapes::InferredShape>,
    /// See [`Scope::parameters`].
    pub(super) parameters: std::collections::BTreeSet<String>,
}

/// The meanings the text gives letters so far: definitions (inherited and the section's), values bound for a paragraph or an example, conditions stated, recurrences, distributions.
#[derive(Default)]
pub(super) struct Bindings {
    pub(super) defs: Vec<Definition>,
    /// Functions earlier sections of the notes define: in scope here unless redefined.
    pub(super) inherited: Vec<Definition>,
    /// Values and meanings given in the prose so far, in order: each reaches the claims of the
    /// blocks up to `until` (the rest of the section where `None`).
    pub(super) given: Vec<Given>,
    /// Equations read as conditions so far, with their block (see [`ClaimReading::stated`]).
    pub(super) stated: Vec<(usize, Assumption)>,
    /// Relations among index letters the words state as conditions (`如果$i=j$，则`, `if $i
    /// \neq j$`), with their block: the claims of that block and the next that write those
    /// letters hold for the index values that satisfy them.
    pub(super) index_conditions: Vec<(usize, Chain)>,
    /// Sequences defined by recursion, in this section and the ones before (newest last).
    pub(super) recurrences: Vec<recurrence::Recurrence>,
    /// The moment letters each named distribution of the section gives a meaning (`\mu_X`,
    /// `\sigma_X`), with what the table says of them in TeX: a claim using one lists it.
    pub(super) distributions: Vec<(Vec<String>, String)>,
    /// Letters a named distribution gave their moments (`\mu_X` of `X \sim \mathrm{Binomial}(n,
    /// p)`): the notes writing them again state the table's value, a claim.
    pub(super) moments_given: BTreeSet<String>,
    /// Letters defined after words that assert ([`Scope::derived`]).
    pub(super) derived: BTreeSet<String>,
    /// Definitions made so far (a redefinition counts too).
    pub(super) definitions_made: usize,
    /// Earlier sections' definitions this section defines again.
    pub(super) shadowed: Vec<Shadowing>,
}

/// What the section gives: claims, formulas not checked, roles, spec problems.
#[derive(Default)]
pub(super) struct SectionOutput {
    pub(super) claims: Vec<Claim>,
    pub(super) skipped: Vec<Skipped>,
    pub(super) roles: Vec<(String, crate::model::FormulaRole)>,
    pub(super) spec_problems: Vec<SpecProblem>,
}

/// What the formula being added has been found to be so far.
#[derive(Default)]
pub(super) struct CurrentFormula {
    /// The role a binding or an example definition gave the formula being added.
    pub(super) formula_role: Option<crate::model::FormulaRole>,
    /// How far the definitions of the formula being added reach.
    pub(super) reach: Reach,
    /// The letter the words call small around the formula being added.
    pub(super) small: Option<String>,
    /// The index conditions the words state before the formula being added
    /// ([`Bindings::index_conditions`]).
    pub(super) index_conditions: Vec<Chain>,
    /// What the words before the formula being added suppose in words alone
    /// ([`SectionBuilder::supposed_around`]).
    pub(super) supposed: Option<String>,
}

/// What the words around each formula say, by formula index (see `words_read`).
#[derive(Default)]
pub(super) struct WordsRead {
    /// The kind of matrix they name ([`roles::matrix_kind_unmodelled`]).
    pub(super) kinds: std::collections::HashMap<usize, Option<String>>,
    /// Whether they call the formula's letters numbers ([`roles::names_constants`]).
    pub(super) constants: std::collections::HashMap<usize, bool>,
    /// Whether they call its letters random variables ([`roles::names_random_variables`]).
    pub(super) random: std::collections::HashMap<usize, bool>,
    /// The kind of matrix derivcheck constructs they name ([`roles::matrix_class_named`]).
    pub(super) classes: std::collections::HashMap<usize, Option<MatrixClass>>,
}

/// A value or meaning the notes give a letter mid-section: a binding (`x=10`, for its
/// paragraph) or an example definition (`f(x)=\exp(x)`, for the rest of the section).
pub(super) struct Given {
    pub(super) definition: Definition,
    /// The last block it reaches; `None`: the rest of the section.
    pub(super) until: Option<usize>,
    /// As written, for the verdict (`x=10`); empty for an example definition.
    pub(super) tex: String,
    /// Given by a worked example (a definition written inside it): it ends where the text opens
    /// another example or turns general.
    pub(super) example: bool,
}

impl Given {
    /// Given by the worked example open here (not yet ended by another or by general words).
    pub(super) fn open_example(&self) -> bool {
        self.example && self.until.is_none()
    }
}

/// How far the definitions of the formula being added reach.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) enum Reach {
    /// The whole section (and the sections after it).
    #[default]
    Section,
    /// From here to the end of the worked example it stands in.
    Example,
    /// From here to the end of the worked example, exercise, solution or proof a MyST directive
    /// boxes it in: everything it defines (a matrix, a function) is the box's.
    Boxed,
    /// Its own paragraph (block): a definition offered in passing (`like $X = Y^2$`).
    Paragraph(usize),
}

impl Reach {
    /// Does a definition made at this reach (of a function or not, with this body) hold there
    /// only? Made for the section, no; in a box a directive draws, yes, whatever it defines; in
    /// an example or in passing, as [`example_scoped`] says (a letter given a value does, a
    /// function or a matrix stays the section's).
    pub(super) fn keeps_local(self, function: bool, body: &Expr) -> bool {
        match self {
            Reach::Section => false,
            Reach::Boxed => true,
            Reach::Example | Reach::Paragraph(_) => example_scoped(function, body),
        }
    }
}

/// What the words before a formula do to worked examples: how far its definitions reach, and
/// whether the example open before it ends there. See [`SectionBuilder::example_steps`].
#[derive(Debug, Clone, Copy)]
pub(super) struct Step {
    pub(super) reach: Reach,
    pub(super) ends_example: bool,
}

/// An equation the words right after it call a deterministic function (`$Y=aX+b$ as any linear
/// deterministic function of $X$`): its small letters are numbers in the paragraph it leads to,
/// and wherever the section writes the capitals it defines after it.
pub(super) struct Deterministic {
    /// The formula's index in the document.
    pub(super) index: usize,
    pub(super) block: usize,
    /// The capital letters it defines (`Y`).
    pub(super) defined: Vec<String>,
    /// The small single letters of their right sides (`a`, `b`).
    pub(super) small: Vec<String>,
}
