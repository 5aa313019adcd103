//! What sema gives: the section plans and their claims, each with where it was written and how
//! the text around it reads it.

use super::chains::zero_of_vectors;
use super::distributions::Law;
use super::recurrence;

use super::scope::{Assumption, Definition, MatrixClass, Scope};
use crate::syntax::ast::{Chain, Expr, Statement};
use serde::Serialize;

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
    /// A claim `lhs = rhs` of kind `kind` meant to hold (no conditions of its own, not written
    /// with `\approx`), read as `reading` says.
    pub(crate) fn meant(
        id: String,
        section: String,
        at: (Origin, String),
        kind: ClaimKind,
        sides: (Expr, Expr),
        reading: ClaimReading,
    ) -> Claim {
        let ((origin, tex), (lhs, rhs)) = (at, sides);
        Claim {
            id,
            section,
            origin,
            tex,
            kind,
            lhs,
            rhs,
            conditions: Vec::new(),
            holds: true,
            variant: false,
            approx: false,
            understood: String::new(),
            reading,
        }
    }

    /// A claim `lhs = rhs` for unit tests: an identity meant to hold, with no words around it.
    #[cfg(test)]
    pub(crate) fn for_tests(id: &str, origin: Origin, tex: &str, lhs: Expr, rhs: Expr) -> Claim {
        let at = (origin, tex.to_string());
        Claim::meant(id.into(), "1".into(), at, ClaimKind::Identity, (lhs, rhs), Default::default())
    }
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
    pub alternative: Option<WordsReading>,
    /// The author marked it a claim (`<!-- derivcheck: claim -->` or `wrong`): its letters mean
    /// what they mean where it stands, no other reading is tried.
    pub marked: bool,
    /// A link after the chain's first: it rewrites the side before it.
    pub rewrites: bool,
    /// The sides as written, where sema rewrote them (through a recurrence, or a `0` read as the
    /// zero vector): an edit of the text (a repair, a mutant) is read the same way.
    pub written: Option<Box<WrittenSides>>,
    /// Independence of its random variables the words before it state.
    pub independence: Option<crate::model::Independence>,
    /// How it was read through the recurrences it reaches.
    pub unrolled: Option<crate::model::Unrolled>,
    /// The recurrences in force where it stands (`c_t = f_t c_{t-1} + i_t\hat c_t`): a second
    /// look that reads their step letter as a label reads each as the definition of its members
    /// (`check::labels::with_labels_general`).
    pub in_force: Vec<recurrence::Recurrence>,
    /// Distributions the words before it give a random variable value by value (`$X$ takes the
    /// value $a-2$ with probability $p$, …`), in its section.
    pub laws: Vec<Law>,
    /// The chapter's words name entropy or mutual information (`entropy`, `熵`, `互信息`):
    /// `H(X)`, `H(Y \mid X)`, `I(X, Y)` of random variables are those.
    pub information: bool,
    /// The chapter's words speak of complex numbers (`imaginary`, `复数`): a bare `i` nothing
    /// defines may be the imaginary unit.
    pub complex: bool,
    /// What the words before it call its letters: numbers, random variables, kinds of matrix,
    /// small.
    pub named: NamedLetters,
    /// The conditions the text states before it, and a relation it supposes.
    pub conditions: StatedConditions,
    /// Values the words say solve an equation stated before: the claim is that equation at them.
    pub solves: Option<SolutionOf>,
}

/// A claim that values solve an equation stated before them (`solve this … to get $p_0 =
/// 4.41$`): the equation, at the values its claim gives as definitions for it alone.
#[derive(Debug, Clone, Default)]
pub struct SolutionOf {
    /// Where the equation is written (`notes.md:7:26`).
    pub equation: String,
    /// The values printed with decimals, each with the key of its letter: rounded, they stand
    /// for the values within half a unit of their last digit.
    pub rounded: Vec<(String, String)>,
}

/// What the words before a claim call its letters.
#[derive(Debug, Clone, Default)]
pub struct NamedLetters {
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
    /// A letter the words around it call small (`for a small $\epsilon$`, `as $\epsilon
    /// \rightarrow 0$`, `对于很小的$h$`): a `\approx` in it holds to the order of that letter
    /// written on its approximate side.
    pub small: Option<String>,
    /// The function every reader knows by name that the words before it name (`Sigmoid
    /// function有一个很好的性质`, a section titled `Sigmoid求导性质`): a function letter nothing
    /// defines may be that one.
    pub function: Option<super::roles::NamedFunction>,
}

/// The conditions the text states before a claim, and a relation it supposes.
#[derive(Debug, Clone, Default)]
pub struct StatedConditions {
    /// Equations the text states as conditions before the claim, in its paragraph or the one
    /// before (`这里 $\sum_i\alpha_i=1$，因此 …`): a claim false in general may follow from them.
    pub stated: Vec<Assumption>,
    /// Equations the section states as conditions before that (outside the paragraph and the
    /// one before), nearest last: a refutation that one of them undoes is left undecided.
    pub stated_earlier: Vec<Assumption>,
    /// The relations just before the implication it follows (`0 = \frac{g}{a} + \lambda
    /// \implies a = -\frac{g}{\lambda}`), as conditions: what the formula says it follows from,
    /// whatever its own role. Empty where it follows no implication or a relation not an equation.
    pub premise: Vec<Assumption>,
    /// A relation the words before it suppose between its letters that derivcheck does not
    /// model (`若 $A \sim B$，则 …`: similar matrices; `\perp`, `\equiv`, `\succeq`): its TeX.
    /// The claim rests on it, so it is neither verified nor refuted without it.
    pub hypothesis: Option<String>,
    /// What the words right before it suppose in words alone (`如果它是标准正交基`, `if the
    /// basis is orthonormal`: [`super::roles::supposed_in_words`]), as written: a refutation
    /// without it is no evidence.
    pub supposed: Option<String>,
    /// The values the chain's next link writes for this link's letters (`u_1 = \frac{1}{\sigma_1}
    /// \mathbf A\mathbf v_1 = \frac{1}{\sqrt6}[…][…]`: v₁ the vector written there), as
    /// definitions: a claim false in general may hold at them.
    pub shown_next: Vec<super::scope::Definition>,
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
pub(super) fn read_sides(
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

/// What the words around a formula make of it, other than "an identity for every value of its
/// letters": a fact of the text, which `check::readings` turns into the reading it allows.
#[derive(Debug, Clone, PartialEq)]
pub struct WordsReading {
    pub role: WordsRole,
    /// The letter concerned, where there is one.
    pub symbol: Option<String>,
    /// Where the letter's earlier meaning is written, where there is one.
    pub earlier: Option<String>,
}

/// The part the words give a formula that is not "a claim for every value of its letters".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordsRole {
    /// A condition or an equation to solve (`solve $Av=\lambda v$`, `where $A=A^\top$`, or an
    /// expression of free letters set to a number with no words that assert it).
    Condition,
    /// An update step of an algorithm written with `=` (`t=t+1`).
    Update,
    /// Written after a condition in the same formula (`and hence`).
    Consequence,
    /// The words say the derivation substitutes equations written elsewhere.
    Substitutes,
    /// A value or definition given for instance, after another meaning of the letter.
    Redefinition,
    /// The letter on the left used again on the right, with no words that assert it.
    SelfReferent,
    /// A sequence defined by a recursion the claim cannot be read through.
    RecurrenceNotRead,
    /// A letter the text approximates before the claim (`f(t+\Delta t) \approx …`).
    Approximated,
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
