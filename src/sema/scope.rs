//! What the symbols of one section mean: spec declarations and definitions, by canonical key.

use crate::spec::SectionSpec;
pub use crate::spec::{FunctionKind, IndexRange, SetKind, Shape};
use crate::syntax::{ast::Expr, canonical_key};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};

/// A definition `key_{params} = body`, from the notes or the spec.
#[derive(Debug, Clone, Serialize)]
pub struct Definition {
    pub key: String,
    pub params: Vec<String>,
    #[serde(skip)]
    pub body: Expr,
    /// Where it was written (`notes.md:11:3` or `checks.toml:12:5`).
    pub origin: String,
    /// Written in the notes (not supplied by the spec).
    pub from_notes: bool,
    /// A function `σ(z) = …`: `params` are its arguments (bound to values where it is applied),
    /// not index letters.
    pub function: bool,
    /// Written in an earlier section of the notes and in scope here by inheritance.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inherited: bool,
    /// Holds for its own section only (a binding `\eta = 0.2` of a new letter): the sections
    /// after it do not inherit it.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub section_only: bool,
}

impl Definition {
    /// A letter's value written in the notes (at `origin`), no function, for its section.
    pub fn value(key: String, body: Expr, origin: String) -> Definition {
        Definition {
            key,
            params: Vec::new(),
            body,
            origin,
            from_notes: true,
            function: false,
            inherited: false,
            section_only: false,
        }
    }

    /// Where it was written, without the file: `11:3` of `notes.md:11:3`.
    pub fn written_at(&self) -> String {
        let mut position: Vec<&str> = self.origin.rsplitn(3, ':').take(2).collect();
        position.reverse();
        position.join(":")
    }

    /// The line it was written on.
    pub fn line(&self) -> Option<usize> {
        self.origin.rsplit(':').nth(1)?.parse().ok()
    }

    /// The line and column it was written at.
    pub fn position(&self) -> Option<(usize, usize)> {
        position_in(&self.origin)
    }
}

/// The (line, column) of an origin `path:line:col`.
pub fn position_in(origin: &str) -> Option<(usize, usize)> {
    let mut parts = origin.rsplit(':');
    let col = parts.next()?.parse().ok()?;
    Some((parts.next()?.parse().ok()?, col))
}

/// A constraint the spec assumes (`\sum_{j=1}^q y_j = 1`): one of its variables is solved for and
/// replaced in the section's claims.
#[derive(Debug, Clone)]
pub struct Assumption {
    pub tex: String,
    pub lhs: Expr,
    pub rhs: Expr,
    /// Where it was written (`checks.toml:12:5`).
    pub origin: String,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Decl {
    /// An index letter ranging over 1..=size.
    Index {
        range: IndexRange,
    },
    /// An index set written `J_i`.
    Set {
        kind: SetKind,
    },
    Matrix {
        rows: String,
        cols: String,
    },
    /// `q_i`: a leaf matrix per index value.
    Family {
        rows: String,
        cols: String,
    },
    Identity {
        n: String,
    },
    Function(FunctionKind),
}

/// Everything a section's formulas may refer to. Plain data: built on any thread.
#[derive(Debug, Clone, Default)]
pub struct Scope {
    pub section: String,
    pub sizes: BTreeMap<String, Vec<i64>>,
    /// Sizes for the floating-point cross-check, where the spec gives them.
    pub crosscheck: BTreeMap<String, Vec<i64>>,
    pub decls: HashMap<String, Decl>,
    pub defs: HashMap<String, Definition>,
    /// The loss bars differentiate (`\bar Y` = ∂loss/∂Y).
    pub loss: Option<String>,
    /// Keys whose leaves differentials vary.
    pub vary: Vec<String>,
    /// Keys whose leaves are positive (the spec's `positive`): sampled positive, and the exact
    /// stage may use ln(ab) = ln a + ln b and √(x²) = x for them.
    pub positive: Vec<String>,
    /// How a claim's second look reads the section: every leaf positive, bars around a matrix
    /// its determinant.
    pub second_look: SecondLook,
    /// A spec entry gives this section (or the defaults): it pins the readings of its letters, so
    /// an earlier section's definition is not second-guessed.
    pub pinned: bool,
    /// The spec's `assume` equations, in order.
    pub assumptions: Vec<Assumption>,
    /// Probabilities the section's prose, tables and earlier chains set to numbers
    /// (`P(H=1) = 0.0015`): what a worked example computes with.
    pub given_values: Vec<GivenValue>,
    /// Square leaf matrices read as members of a class (a claim's second look, where the notes
    /// never say what kind of matrix a letter is).
    pub classes: BTreeMap<String, MatrixClass>,
    /// How the section's formulas and words use its letters, beyond what declares and defines
    /// them: values, vectors, shapes read off use, functions nobody specified.
    pub usage: LetterUsage,
    /// Letters nothing defines, read as a function nobody specified of the letters listed (a
    /// claim's second look: `\frac{\partial E}{\partial x_i} = \frac{\partial E}{\partial
    /// y_i}\frac{\partial y_i}{\partial x_i}` with E a general function of y). The evaluator
    /// gives such a letter a general quadratic in the entries of its arguments, with
    /// coefficients of its own.
    pub general_functions: BTreeMap<String, Vec<String>>,
}

/// What a claim's second look assumes of its section's letters and notation (see
/// [`Scope::second_look`]); the first look assumes neither.
#[derive(Debug, Clone, Copy, Default)]
pub struct SecondLook {
    /// Every leaf is positive (for [`crate::model::Reason::HoldsForPositive`]).
    pub all_positive: bool,
    /// `|A|` of a square matrix is its determinant (where the notes write bars around a matrix,
    /// as textbooks write 行列式 |A|).
    pub bars_as_determinants: bool,
}

/// How a section's formulas and words use its letters (see [`Scope::usage`]).
#[derive(Debug, Clone, Default)]
pub struct LetterUsage {
    /// Symbols the section's formulas write as values somewhere (not only directly before
    /// parentheses): for them `x(1-x)` is a product, not an application of an unknown x.
    pub values: std::collections::HashSet<String>,
    /// Symbols the section's formulas use as vectors or matrices (transposed, ⊙, bold, …): an
    /// undeclared one is refused rather than taken for a number.
    pub matrix_like: std::collections::HashSet<String>,
    /// Shapes read off use (declared among `decls` too): a shape mismatch through one of them
    /// is no refutation, and verdicts that use one list it.
    pub inferred: Vec<super::shapes::InferredShape>,
    /// Letters the section only ever applies (`g(x)`, `h(x)`, `f'(x)`), never defines, declares or
    /// writes as a value: functions nobody specified, known only through the rules of calculus.
    pub unknown_functions: std::collections::BTreeSet<String>,
    /// Letters the section writes only as subscripted heads applied to something (`f_i(\mathbf
    /// x)`, `\nabla f_i(\mathbf x)`): a family of functions nobody specified, one per index value.
    pub unknown_families: std::collections::BTreeSet<String>,
    /// Letters a named distribution takes as its parameters (`p` of `X \sim
    /// \mathrm{Bernoulli}(p)`): numbers, so `p(1-p)` is a product.
    pub parameters: std::collections::BTreeSet<String>,
    /// Letters whose shape was declared in an earlier section of the notes (`\mathbf A \in
    /// \mathbb R^{n\times k}` two sections back), or twice with different shapes in this one: a
    /// sentence may speak of other matrices than the declaration in force.
    pub declared_elsewhere: std::collections::BTreeSet<String>,
    /// Letters the section defines by a formula and also declares a vector or matrix, with the
    /// declared shape (`x = (1-\lambda)a + \lambda b`, then `\mathbf x \in \mathbb R^n`): the
    /// definition is in force, but a claim may speak of the declared one.
    pub defined_and_declared: BTreeMap<String, [String; 2]>,
    /// Letters whose definition the words present as derived (`得到 $Z = …$`, `hence $Z = …$`):
    /// a claim before it that holds only through it may be what it is derived from.
    pub derived: std::collections::BTreeSet<String>,
    /// Capitals the section writes with two indices beside their small letter with two
    /// (`A_{ij}` and `a_{ij}`, as texts write cofactors): `A_{ij}` may be the entry of A or
    /// another quantity of A's (a cofactor, a minor, a block), so it is not read as an entry.
    pub entries_ambiguous: std::collections::BTreeSet<String>,
    /// Index letters a claim's second look reads as labels (`x_t`, `x_{t-1}` where nothing gives
    /// t a value): each term they subscript on a letter with no meaning of its own is an unknown
    /// of its own. What holds for independent unknowns holds for the meant ones, so only a
    /// verification is kept (`check::labels::with_labels_general`).
    pub labels: std::collections::BTreeSet<String>,
    /// With one label (t): the members of families the notes define step by step (`c_t = f_t
    /// c_{t-1} + i_t\hat c_t`, `h_t = o_t\tanh(c_t)`) that are met again inside their own
    /// definition at an older step, below this offset from t, are unknowns of their own instead
    /// of unrolled without end (`c_{t-2}` inside c_{t-1}). Sound for a verification where every
    /// derivative the claim takes is by a member at this offset or newer, which older members
    /// cannot depend on (`check::labels::with_labels_general` sets it).
    pub cut_older_than: Option<i64>,
    /// The letters of the section written in one formula alone (`x` of `a_2 - x a_1 = a_2 -
    /// \frac{a_1^\top a_2}{a_1^\top a_1} a_1`): a claim that writes such a letter on one side only
    /// may name it (`check::readings::slip_or_constraint`).
    pub written_once: std::collections::BTreeSet<String>,
    /// Letters the words of the chapter call a statistic of others (`样本的均值$\bar{x}$`, `the
    /// sample mean $\bar x$`), each with the letter it is a statistic of (x): what they are is the
    /// words', so a refutation through one beside its family is not earned
    /// (`check::readings::reading_of_letters`). A point the words only say lies between others
    /// (`其中$\xi$是$x$和$y$之间的一点`, `for some $\xi$ between $x$ and $y$`) is here with no
    /// letter: it exists, and a claim through it is not one for every value of it.
    pub statistics: BTreeMap<String, String>,
    /// Letters a formula of the chapter puts in a finite set of numbers (`y \in \{-1, 1\}`, the
    /// labels of a classifier), each with the numbers as written: the letter, and every member
    /// or labelled copy of it (`y^{(i)}`, `y_i`), takes only those values
    /// (`check::readings::at_declared_values`).
    pub finite_sets: BTreeMap<String, Vec<String>>,
}

/// A kind of square matrix a letter may be, for [`Scope::classes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatrixClass {
    Symmetric,
    Diagonal,
    /// `\mathbf U^\top\mathbf U = \mathbf I` with determinant 1: a product of rotations in every
    /// plane of two coordinates, each by an angle drawn as a fresh leaf.
    Orthogonal,
    /// An orthogonal matrix of determinant −1: the rotations above, then the first coordinate
    /// reflected. Checked beside [`MatrixClass::Orthogonal`], so a claim about "an orthogonal
    /// matrix" holds for both kinds.
    OrthogonalReflecting,
    /// Rows summing to one (`P\mathbf 1 = \mathbf 1`, a Markov chain's transition matrix): each
    /// entry a fresh leaf but the last of its row, one minus the others. Nonnegativity is not
    /// drawn, so only a verification is taken from it (`check::readings`): a polynomial identity
    /// that holds for every such matrix holds for the stochastic ones.
    Stochastic,
}

impl Scope {
    /// Builds the scope; a spec key that is not a symbol is an error naming it.
    pub fn new(section: &str, spec: &SectionSpec, defs: Vec<Definition>) -> Result<Scope, String> {
        let mut decls = HashMap::new();
        for (k, range) in &spec.index {
            decls.insert(canonical_key(k)?, Decl::Index { range: range.get_ref().clone() });
        }
        for (k, kind) in &spec.sets {
            decls.insert(canonical_key(k)?, Decl::Set { kind: *kind.get_ref() });
        }
        for (k, shape) in &spec.matrix {
            let Shape { rows, cols } = shape.get_ref().clone();
            decls.insert(canonical_key(k)?, Decl::Matrix { rows, cols });
        }
        for (k, shape) in &spec.family {
            let Shape { rows, cols } = shape.get_ref().clone();
            decls.insert(canonical_key(k)?, Decl::Family { rows, cols });
        }
        for (k, n) in &spec.identity {
            decls.insert(canonical_key(k)?, Decl::Identity { n: n.clone() });
        }
        for (k, kind) in &spec.functions {
            decls.insert(canonical_key(k)?, Decl::Function(*kind.get_ref()));
        }
        let defs = defs.into_iter().map(|d| (d.key.clone(), d)).collect();
        let loss = spec.loss.as_deref().map(canonical_key).transpose()?;
        let vary = spec.vary.iter().map(|k| canonical_key(k)).collect::<Result<_, _>>()?;
        let positive = spec.positive.iter().map(|k| canonical_key(k)).collect::<Result<_, _>>()?;
        Ok(Scope {
            section: section.to_string(),
            sizes: spec.sizes.iter().map(|(k, v)| (k.clone(), v.get_ref().clone())).collect(),
            crosscheck: spec.crosscheck.iter().map(|(k, v)| (k.clone(), v.get_ref().clone())).collect(),
            decls,
            defs,
            loss,
            vary,
            positive,
            second_look: SecondLook::default(),
            pinned: false,
            assumptions: Vec::new(),
            classes: BTreeMap::new(),
            given_values: Vec::new(),
            usage: LetterUsage::default(),
            general_functions: BTreeMap::new(),
        })
    }

    pub fn is_index(&self, key: &str) -> bool {
        matches!(self.decls.get(key), Some(Decl::Index { .. }))
    }

    /// Is `key` already given a meaning (declared, defined, a size)?
    pub fn knows(&self, key: &str) -> bool {
        self.decls.contains_key(key)
            || self.defs.contains_key(key)
            || self.sizes.contains_key(key)
            || self.general_functions.contains_key(key)
    }

    /// Every combination of the declared sizes: `N = [2,3]`, `d = [2]` gives two assignments.
    pub fn size_assignments(&self) -> Vec<BTreeMap<String, i64>> {
        self.size_assignments_of(&|_| true)
    }

    /// How many combinations [`Scope::size_assignments`] would give (saturating).
    pub fn size_combinations(&self) -> usize {
        self.sizes.values().fold(1usize, |n, v| n.saturating_mul(v.len()))
    }

    /// Every combination of the sizes `keep` selects.
    pub fn size_assignments_of(&self, keep: &dyn Fn(&str) -> bool) -> Vec<BTreeMap<String, i64>> {
        let choices: Vec<(&String, &[i64])> =
            self.sizes.iter().filter(|(name, _)| keep(name)).map(|(n, v)| (n, v.as_slice())).collect();
        every_assignment(&BTreeMap::new(), &choices)
    }
}

/// Every assignment of one value to each name, each name taking each of its values, added to
/// `base`: the Cartesian product, the last name varying fastest. The one writing of "every
/// combination" — of sizes, of index values, of a joint table's cells.
pub fn every_assignment<K: Ord + Clone, V: Clone>(
    base: &BTreeMap<K, V>,
    choices: &[(&K, &[V])],
) -> Vec<BTreeMap<K, V>> {
    let mut out = vec![base.clone()];
    for (name, values) in choices {
        out = out
            .into_iter()
            .flat_map(|a| {
                values.iter().map(move |v| {
                    let mut a = a.clone();
                    a.insert((*name).clone(), v.clone());
                    a
                })
            })
            .collect();
    }
    out
}

/// A probability written equal to a number.
#[derive(Debug, Clone)]
pub struct GivenValue {
    /// `P(D_1 = 1 \mid H = 0)`.
    pub term: Expr,
    pub value: f64,
    /// The number as written (`0.0015`).
    pub written: String,
    /// 1-based line of the formula (or table row) that gives it.
    pub line: usize,
    /// The id of the formula that gives it; `None` for a table cell.
    pub formula: Option<String>,
}

#[cfg(test)]
mod tests {
    use crate::sema::testing::plans;

    #[test]
    fn a_letter_applied_that_nothing_defines_is_a_function_nobody_specified() {
        let plans = plans("## 1 S\n\nWe have $$g(x+y) = g(x) + g(y)$$\n");
        let scope = plans[0].scope.as_ref().expect("a scope");
        assert!(scope.usage.unknown_functions.contains("g"), "{:?}", scope.usage.unknown_functions);
        assert!(!scope.usage.unknown_functions.contains("x"));
    }
}
