//! The result model: every outcome of a check as plain serializable data, at the bottom of the
//! dependency graph (it imports no stage). Stages produce these values; renderers (text, JSON,
//! and later Markdown, HTML, JUnit) read only these values.

use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Verified,
    Refuted,
    Undecided,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Verdict {
    pub status: Status,
    /// `symbolic` or `numeric` for a verified claim; how a refutation was found.
    pub method: Option<Method>,
    /// The instantiated sizes, e.g. `N = 2, 3, 4, 5`; empty when none are needed.
    pub sizes: String,
    /// Why: as data, worded by the renderers.
    pub reason: Reason,
    pub counterexample: Option<Counterexample>,
    /// The floating-point cross-check of a verified claim.
    pub numeric: Option<NumericCheck>,
    /// What the worked example showed, for claims of a section with one.
    pub example: Option<ExampleResult>,
    /// The construct the verdict is about (what was not understood, the operation whose shapes
    /// do not fit), as a byte range in the formula's TeX; within the claim's link.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub focus: Option<(usize, usize)>,
    /// The spec's assumptions (TeX) the section's claims were checked under.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// The exact and floating-point stages disagree on the same size and point: a bug in one of
    /// them, never a finding about the formula. Fails the run like a refutation.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub inconsistent: bool,
    /// For the `randomized` method: log₂ of the bound on the probability that the claim is
    /// false although every test passed (−64 means at most 2⁻⁶⁴).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_bound_log2: Option<f64>,
    /// Wall time of the check, in milliseconds.
    pub elapsed_ms: f64,
    /// For a refuted claim: the smallest edit of it that derivcheck verifies ("did you mean").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<Suggestion>,
}

impl Verdict {
    pub fn new(status: Status, method: Option<Method>, sizes: String, reason: Reason) -> Verdict {
        Verdict {
            status,
            method,
            sizes,
            reason,
            counterexample: None,
            numeric: None,
            example: None,
            focus: None,
            assuming: Vec::new(),
            inconsistent: false,
            error_bound_log2: None,
            elapsed_ms: 0.0,
            suggestion: None,
        }
    }

    pub fn undecided(reason: Reason, sizes: String) -> Verdict {
        Verdict::new(Status::Undecided, None, sizes, reason)
    }

    pub fn refuted(method: Method, sizes: String, reason: Reason, counterexample: Counterexample) -> Verdict {
        Verdict { counterexample: Some(counterexample), ..Verdict::new(Status::Refuted, Some(method), sizes, reason) }
    }
}

/// What `--strict` fails on beyond refutations.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StrictProblem {
    /// This many formulas do not parse.
    Unparsed(usize),
    /// This many claims are undecided.
    Undecided(usize),
    /// This many formulas hold a relation other than an equation.
    NotChecked(usize),
    /// A spec section that matches no section of the notes and states no claim.
    SectionUnmatched { section: String },
    /// A spec `ignore` entry that matches no formula.
    IgnoreUnmatched { section: String, tex: String },
}

/// How a run ends: 0 nothing wrong, 1 a claim refuted or inconsistent, 2 bad input or usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExitStatus {
    Clean = 0,
    Failed = 1,
    BadInput = 2,
}

impl ExitStatus {
    /// The one place a run's end is decided: a bad input first; then a claim refuted or
    /// inconsistent, or (with `--strict`) anything `--strict` fails on; else clean.
    pub fn of_run(refuted_or_inconsistent: bool, bad_inputs: usize, strict_failed: bool) -> ExitStatus {
        if bad_inputs > 0 {
            ExitStatus::BadInput
        } else if refuted_or_inconsistent || strict_failed {
            ExitStatus::Failed
        } else {
            ExitStatus::Clean
        }
    }
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Counterexample {
    pub sizes: BTreeMap<String, i64>,
    pub indices: BTreeMap<String, i64>,
    #[serde(flatten)]
    pub mismatch: Option<Mismatch>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Method {
    /// The difference's normal form is zero (or, for a refutation, a nonzero rational function).
    Symbolic,
    /// Agreement to 200-bit precision at random points (the normal form did not reach zero).
    Numeric,
    /// Symbolic, and the floating-point cross-check at larger sizes agrees.
    #[serde(rename = "symbolic+numeric")]
    SymbolicNumeric,
    /// A printed decimal matches to half a unit in its last printed digit.
    Rounded,
    /// Floating point alone, at random values of the leaves (several draws): what only the
    /// floats can evaluate (an integral, by adaptive Gauss–Kronrod quadrature). Agreement to
    /// 10⁻⁷ relative at every draw verifies; a difference above 10⁻³ refutes.
    Quadrature,
    /// Randomized exact identity testing: zero at random points of a prime field, every
    /// transcendental function value a variable (Schwartz–Zippel); the verdict's
    /// `error_bound_log2` bounds the chance that a false identity passed.
    Randomized,
    /// Probabilities and expectations evaluated in floating point on random joint distributions
    /// of the claim's random variables (numeric evidence over the distributions drawn; the
    /// verdict's sizes say what the variables ranged over).
    Distributions,
    /// A side written as a power series cut off by an ellipsis: the other side's Taylor
    /// coefficients about 0, through the highest power written, equal the written ones exactly
    /// (the terms not written, and convergence, are not checked).
    Series,
}

/// Where two values differ: the entry, a point, both sides there, and the exact difference.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Mismatch {
    /// 1-based (row, column) for matrices; `None` for scalars.
    pub entry: Option<(usize, usize)>,
    pub lhs: f64,
    pub rhs: f64,
    /// Imaginary parts, where a side is not real at the point (a log or root of a negative).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lhs_imaginary: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rhs_imaginary: Option<f64>,
    pub point: Vec<(String, f64)>,
    /// The normal form of lhs − rhs, when short.
    pub difference: Option<String>,
    /// For a scalar claim: the computed side simplified, as TeX (the derivative the CAS took, or
    /// the left side), with the byte range in the formula's TeX of the side it should replace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub correct: Option<(String, usize, usize)>,
    /// The printed precision a rounded comparison allowed (half a unit in the last digit).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tolerance: Option<f64>,
    pub method: Method,
}

impl Mismatch {
    /// Two real values that differ at a point, found by `method`; nothing else known yet.
    pub fn at_point(lhs: f64, rhs: f64, point: Vec<(String, f64)>, method: Method) -> Mismatch {
        Mismatch {
            entry: None,
            lhs,
            rhs,
            lhs_imaginary: None,
            rhs_imaginary: None,
            point,
            difference: None,
            correct: None,
            tolerance: None,
            method,
        }
    }
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct NumericCheck {
    /// The sizes evaluated at, e.g. `n = 8; d = 16`.
    pub sizes: String,
    pub assignments: usize,
    pub max_difference: f64,
    pub agree: bool,
    pub detail: String,
    /// Both sides where they differ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub differs: Option<(f64, f64)>,
}

/// What the example shows for one printed matrix.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct PrintedMatrix {
    pub name: String,
    pub printed: Vec<Vec<f64>>,
    /// Through the notes' backward formulas.
    pub analytic: Vec<Vec<f64>>,
    /// Central differences of the loss.
    pub finite_difference: Option<Vec<Vec<f64>>>,
    pub max_difference: f64,
    pub tolerance: f64,
    pub verified: bool,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ExampleResult {
    pub loss: f64,
    pub epsilon: f64,
    /// One per symbol the printed matrix stands for (`\bar W_V=\bar W_O=[…]` gives two).
    pub matrices: Vec<PrintedMatrix>,
}

/// Why a construct was not read: the kind decides the sentence in every language; the English
/// text of the error adds the details.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NotRead {
    /// A name or construct outside the notation table.
    NotUnderstood,
    /// Notation that could mean several things (`a/bc`, `x(…)` with x unknown, `|A|`).
    Ambiguous,
    /// Something only the spec can say (a size, a loss, `vary`, an index range).
    NeedsSpec,
    /// Written incompletely (an operator with nothing to apply to, a wrong argument count).
    Malformed,
    /// Read, but beyond what derivcheck checks (∫, lim, higher derivatives, other norms).
    Outside,
    /// The sides cannot be evaluated at any point tried.
    Numeric,
}

/// Why a claim got its verdict, as data: every renderer words it in its language (the zh and
/// en tables in `report`), nothing here is prose.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum Reason {
    /// Verified at every assignment (`rounded`: equal to the printed digits).
    Checked {
        assignments: usize,
        rounded: bool,
    },
    /// The sides differ (the counterexample has the point and values).
    Differs {
        entry: Option<(usize, usize)>,
        lhs: f64,
        rhs: f64,
        at: Vec<(String, i64)>,
        difference: Option<String>,
    },
    /// The shapes of two operands (or of the two sides) do not fit.
    ShapeMismatch {
        op: String,
        left: (usize, usize),
        right: (usize, usize),
    },
    /// The sides are transposes of each other: a layout slip.
    TransposedLayout {
        left: (usize, usize),
        right: (usize, usize),
    },
    /// A matrix where a number is expected.
    NotScalar {
        what: String,
        rows: usize,
        cols: usize,
    },
    /// A construct not read; `detail` is the English description.
    NotRead {
        kind: NotRead,
        detail: String,
    },
    IndexOutOfRange {
        name: String,
        value: i64,
        max: usize,
    },
    UnboundIndex {
        name: String,
    },
    NotALeaf {
        what: String,
    },
    Cyclic {
        key: String,
    },
    Budget {
        detail: String,
    },
    /// The CAS contradicted itself (a bug; please report).
    Internal {
        detail: String,
    },
    /// The spec entry of the section cannot be used.
    SpecUnusable {
        detail: String,
    },
    /// `\approx` without a printed decimal.
    ApproxWithoutDecimals,
    /// No index assignment satisfies the conditions.
    NoAssignment {
        conditions: Vec<String>,
    },
    /// The exact check proved it where the floating-point check disagrees.
    Inconsistent {
        exact: bool,
        float_sizes: String,
        lhs: f64,
        rhs: f64,
    },
    /// The floating-point check at larger sizes disagrees, and the exact check there gave no answer.
    Unsettled {
        proven_sizes: String,
        float_sizes: String,
        exact: Box<Reason>,
    },
    /// Only the floats could evaluate it, and their sides differ by more than rounding and
    /// less than a refutation (`worst`, relative).
    FloatsInconclusive {
        worst: f64,
    },
    /// A claim the text says fails: it does.
    FailsAsTextSays {
        inner: Box<Reason>,
    },
    /// A claim the text says fails held at every size checked.
    HeldThoughTextSaysFails,
    /// The worked example: the printed entries match.
    ExampleMatches {
        entries: usize,
        epsilon: f64,
        epsilon_stated: bool,
        tolerance: f64,
        loss: f64,
    },
    /// The worked example: a printed matrix has the wrong shape.
    ExampleShape {
        name: String,
        rows: usize,
        cols: usize,
        printed_rows: usize,
        printed_cols: usize,
    },
    /// The worked example: printed entries differ.
    ExampleDiffers {
        entries: Vec<ExampleEntry>,
    },
    /// The worked example: a claim of its section, evaluated in it.
    ExampleClaim {
        loss: f64,
        largest_difference: f64,
    },
    /// The worked example could not be set up or evaluated.
    ExampleUnusable {
        inner: Box<Reason>,
    },
    /// The worked example's spec cannot be used.
    ExampleSetup {
        detail: String,
    },
    /// False as an identity, but the text leaves another reading open under which it claims
    /// nothing false (an equation to solve, a new meaning of a letter): not a finding.
    OtherReading {
        reading: Reading,
        /// The letter whose meaning is in question, for [`Reading::Redefinition`] and
        /// [`Reading::EarlierMeaning`].
        #[serde(default, skip_serializing_if = "Option::is_none")]
        symbol: Option<String>,
        /// Where the earlier meaning was written (`12:3`), where there is one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        earlier: Option<String>,
        /// Checked as an identity and found false (a condition the tool could not even
        /// evaluate is not).
        #[serde(default = "yes", skip_serializing_if = "Clone::clone")]
        refuted: bool,
    },
    /// False at a point where a variable is negative or zero (a log, a root, a real power), true
    /// wherever the variables are positive: the verdict's counterexample is the point. Fails the
    /// run only under `--strict`.
    HoldsForPositive {
        symbols: Vec<String>,
    },
    /// The sides differ only at points where one of them is not a real number (a log or an even
    /// root of a negative value, where they may differ by a branch), at the points tried,
    /// positive ones too: no real counterexample. The verdict's counterexample is such a point.
    DiffersWhereNotReal {
        symbols: Vec<String>,
    },
}

fn yes() -> bool {
    true
}

/// How a claim about sequences defined by recursion was read (the report says it in words):
/// the recurrences (as written) unrolled to a lag, vectors coordinate by coordinate, and a
/// trailing `\ldots` read as the terms older than a lag.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Unrolled {
    pub recurrences: Vec<String>,
    pub lag: u32,
    /// Bold letters: read coordinate by coordinate (every operation is elementwise).
    pub coordinatewise: bool,
    /// A `\ldots` read as the terms older than this lag; the sides' difference is checked not
    /// to depend on lags 0..this (two independent copies).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub older_than: Option<u32>,
}

/// Independence of a claim's random variables that the words before it state (`if $X$ and $Y$
/// are independent`): a probability claim that holds for such variables is verified under it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Independence {
    /// Mutually independent.
    Independent,
    /// Independent and identically distributed.
    IndependentIdentical,
}

/// A way of reading a formula other than "an identity for every value of its letters".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// A condition or an equation to solve (`2x+y=1`, `\det(A-\lambda I)=0`, "where A = Aᵀ").
    Condition,
    /// An example that gives the letter a new meaning (`f(x)=\exp(x)` after another f).
    Redefinition,
    /// The letter may be a fresh one rather than the one an earlier section defined.
    EarlierMeaning,
    /// The letter's shape was declared in an earlier section; the claim may speak of another.
    DeclaredElsewhere,
    /// The section defines the letter by a formula and also declares it a vector or matrix
    /// (`x = (1-\lambda)a + \lambda b`, then `\mathbf x \in \mathbb R^n`): the claim may speak of
    /// the declared one.
    DefinedAndDeclared,
    /// `\bar\alpha_t = \prod_{i=1}^T \alpha_i`: a definition of a family (`x_t`) whose body never
    /// writes the index gives every member one value — as often a slip in the definition (T for
    /// t) as what was meant; a claim false only through it is not refuted.
    FamilyOfOneValue,
    /// False with a letter as the section defines it further on (`当且仅当 $x = 0$ 时` after
    /// `\|x\|_2 = …`), not refuted with the letter general: the claim was written before that
    /// meaning was given.
    DefinedLater,
    /// The letter's shape was read off its uses, and this claim does not fit it.
    ShapeFromUse,
    /// Written after a condition in the same formula (`… = 0 \textrm{ and hence } …`), and not
    /// shown to follow from it: false where it holds too, or it could not be read there (a
    /// step may use what the words beside it say).
    Consequence,
    /// A letter the words give its meaning, not a formula: the letters of one side where the
    /// sides share none (`\det\mathbf A=\lambda_1\cdots\lambda_n`: eigenvalues), a letter a later
    /// link brings in, a letter the words call a statistic (the sample mean `\bar x`).
    LettersFromWords,
    /// `Ax = b`, `\psi P = \psi`, `q^s = q^d`: false for general values of letters the text
    /// never defines, which one side writes and the other does not, and no single small edit
    /// makes it an identity: an equation those letters satisfy (to solve, a condition, a
    /// property the words state), not an identity with a slip.
    Constraint,
    /// `q_0^s = -10 + 20p_0`, `z^l = W^l a^{l-1} + b^l`: a superscript letter nothing defines
    /// labels the quantity (supply, a layer) as often as it raises it to a power; read as a
    /// label, the formula defines the labelled letter.
    SuperscriptLabel,
    /// `若 $A \sim B$，则 $r(A) = r(B)$`: the claim rests on a relation the words suppose
    /// (similar, orthogonal, congruent, an ordering) that derivcheck does not model; checked
    /// without it, neither a verification nor a counterexample is evidence.
    Hypothesis,
    /// `如果它是标准正交基，由于 $B^\top B = I$`: the claim rests on what the words before it
    /// suppose in words alone (an `if` clause saying what something is, no formula in it); a
    /// counterexample without that supposition is no evidence. (A verification stands: what
    /// holds for every value holds under the supposition.)
    SupposedInWords,
    /// `\Delta t`, `\delta y_i` with Δ, δ undefined and written before different letters (or
    /// alone): the change of each letter, or a number times it? The readings differ.
    ChangeOrProduct,
    /// `\sum_{n=1}^N e^n = 12.4`: e raised to the index of a sum is Euler's number to the power
    /// n, or the n-th member of a sequence e (the n-th sample's error) written with a superscript.
    EulerOrLetter,
    /// `i \cdot (a + bi) = -b + ai`, `e^{it} = \cos t + i\sin t` in notes that speak of complex
    /// numbers: a bare i nothing defines is the imaginary unit as often as a real letter;
    /// derivcheck computes with real numbers, so a counterexample with i real is no evidence.
    ImaginaryOrLetter,
    /// `\begin{bmatrix} a & b \\ c & d \end{bmatrix} = ad - bc`: a square matrix written out
    /// beside a number stands for its determinant (bars or `\det` left out); a matrix is no
    /// number, so the literal reading is not the one meant.
    MatrixForDeterminant,
    /// `P(C_1|x)` beside `P(C_2|x)`: two events, or the classes C = 1, C = 2 of one variable?
    ClassValues,
    /// `P(x_3, x_4 \mid x_1)`, `P(c_i \mid \boldsymbol x)`: a value with an index is the value
    /// of its own variable (X_3 = x_3), or one of the values of one variable X?
    IndexedValues,
    /// `1 = \sum_k \frac1Z \exp(w_k\cdot x)`, then `得到 $Z = \sum_k \exp(w_k\cdot x)$`: true only
    /// through a definition written after it, which the text may derive from it.
    HoldsThroughLater,
    /// `if $p = 0$, then $p\log_2 p = 0$`: a function taken where it is not defined (log 0, under
    /// the value the words give): the formula states a convention (a limit), not an identity.
    Convention,
    /// `\frac{\partial E}{\partial x_i}` with nothing defining E: its derivative is unknown, not
    /// the 0 an independent letter would give; a verification through it is no evidence, unless
    /// the claim holds with E any function of the letters it is differentiated through.
    UnknownDerivative,
    /// `a_{ij}` beside a matrix `\mathbf A`: the entries of A, or a letter of its own?
    EntryOf,
    /// A matrix the notes never declare: false for a general one, true where it is symmetric
    /// (the words may say it is: a covariance, a Hessian, a similarity matrix).
    Symmetric,
    /// As [`Reading::Symmetric`], true where the matrix is diagonal.
    Diagonal,
    /// As [`Reading::Symmetric`], true where the matrix is orthogonal (a rotation).
    Orthogonal,
    /// A claim about a function the notes never specify that no rule of calculus makes true
    /// (`g(x+y)=g(x)+g(y)`, `I(X,Y)=I(Y,X)`): a property of that function, which the words may
    /// give.
    FunctionProperty,
    /// False as an identity, true under a condition the section stated earlier, outside the
    /// claim's paragraph and the one before (`令样本被中心化，即 $\sum_i \boldsymbol z_i=\mathbf 0$`,
    /// three paragraphs before `\sum_i b_{ij} = 0`): whether it still holds there is the
    /// words' to say.
    EarlierCondition,
    /// A condition the text states just before the claim (its paragraph or the one before) on
    /// the claim's letters, which derivcheck could not use (`if $\psi^* P = \psi^*$` with the
    /// shapes of its letters unknown, an equation it cannot solve): the claim may follow from it.
    /// Not one that gives a quantity the claim never writes its value (`P(Y=1\mid x) = …`).
    ConditionUnused,
    /// `2 \cdot 10^9 \cdot 16 \cdot 32 = 10^{12}`: numbers against a power of ten they come
    /// within 10 % of, an order of magnitude written with `=`.
    OrderOfMagnitude,
    /// False for a general vector, true where the entries the claim sums sum to 1 (`\sum_j y_j
    /// = 1`: a one-hot label, a probability vector), as softmax and cross-entropy steps use and
    /// the words may say elsewhere.
    SumsToOne,
    /// `t=t+1`, `\theta=\theta-\eta g`: an update step of an algorithm, written with `=` where
    /// `\leftarrow` is meant.
    Update,
    /// `x = x^c`, `y = \sum_i d_i y_i^2`: the letter on the left is used again on the right, with
    /// no words that assert the equation: an assignment, an equation in the letter, or a new meaning
    /// of it; not an identity.
    SelfReferent,
    /// `\mathbf v_t` defined by recursion (`\mathbf v_t = \beta\mathbf v_{t-1} + \mathbf
    /// g_{t, t-1}`) in a way the claim cannot be read through (a step written other than as a
    /// lag, an operation not taken entry by entry): with the sequence a free letter the claim
    /// fails, which says nothing.
    RecurrenceNotRead,
    /// `f(x) := e^x`, then `f(t+\Delta t) \approx f(t)(1+\Delta t)` earlier in the section (or in
    /// the same chain): once the text approximates a letter it has defined, later steps may write
    /// its approximate values with `=` (Euler's method, a first-order step), until it gives the
    /// letter another meaning; false for the exact letter, which says nothing.
    Approximated,
    /// Values the words say solve an equation stated before, which satisfy it only at some
    /// values of letters it keeps of its own (a partial solution, `x = 2y`, as often as a slip),
    /// or miss it by more than the rounding of their printed digits allows to first order and
    /// less than twice that.
    SolvedInPart,
    /// A derivation the words say substitutes equations written elsewhere (`将式(6.9)代入`,
    /// `substituting (3.4)`): its links may rest on them.
    Substitutes,
    /// A claim about probabilities false for a general joint distribution, true where the
    /// variables are independent (`P(A\mid B)=P(A)`): an assumption the words may state.
    Independent,
    /// As [`Reading::Independent`], true where they are independent and identically distributed.
    IndependentIdentical,
    /// As [`Reading::Independent`], true where every variable takes only the values 0 and 1.
    ZeroOne,
    /// As [`Reading::Independent`], true where the variables are equal (one a copy of the
    /// other, or an invertible function of it): `H(X, Y) = H(X)`.
    EqualVariables,
    /// A claim about a union of events (`P(A \cup B) = P(A) + P(B)`) false for general events,
    /// that may hold for mutually exclusive ones, which the words may assume (互斥, disjoint).
    MutuallyExclusive,
    /// One side has no probability or expectation in it (`P(H=1)=0.0015`, `E[X]=np`): a value the
    /// text gives a distribution it describes in words, not an identity.
    DistributionValue,
    /// A small letter met only inside expectations: false with it a constant, true with it random
    /// (or the other way round).
    RandomOrConstant,
    /// `\mu_X`, `\sigma_X` the notes never define: false with it a constant, true with it the
    /// mean (standard deviation) of X, as probability texts use the letter.
    MomentLetter,
    /// `q(z)` of a letter the notes never define: false read as q times the parenthesis, not
    /// refuted read as a function nobody specified.
    ApplicationOrProduct,
    /// `f^{-1}(z)` of a letter that is no value the section gives: false read as 1/f times the
    /// parenthesis; the inverse of a function applied in many texts, which derivcheck does not read.
    InverseOrPower,
    /// `Dx^n`, `D\ln(x)` with D the notes never define: false read as D times what follows; D
    /// is the derivative operator in many texts (`Df(x)`, `D_x f`), which derivcheck does not read.
    OperatorOrProduct,
    /// False for a general matrix, and the words call it a kind of matrix derivcheck does not
    /// construct (stochastic, a projection, positive definite): it may hold for those.
    MatrixKind,
    /// `S^{n}` beside `S^{(i)}` in the same formula: a power, or the n-th member of the sequence
    /// written without its parentheses?
    PowerOrIndex,
}

impl Reading {
    /// What the text leaves open under this reading (the catalogue `derivcheck notation`
    /// prints, in the order `check::readings::TRIED` tries them).
    pub fn leaves_open(self) -> &'static str {
        match self {
            Reading::Condition => "A condition or an equation to solve (`2x+y=1`, `\\det(A-\\lambda I)=0`, \"where A = Aᵀ\").",
            Reading::Redefinition => "An example that gives the letter a new meaning (`f(x)=\\exp(x)` after another f).",
            Reading::EarlierMeaning => "The letter may be a fresh one rather than the one an earlier section defined.",
            Reading::DeclaredElsewhere => "The letter's shape was declared in an earlier section; the claim may speak of another.",
            Reading::DefinedAndDeclared => "The section defines the letter by a formula and also declares it a vector or matrix (`x = (1-\\lambda)a + \\lambda b`, then `\\mathbf x \\in \\mathbb R^n`): the claim may speak of the declared one.",
            Reading::DefinedLater => "False with a letter as the section defines it further on (`当且仅当 $x = 0$ 时` after `\\|x\\|_2 = …`), not refuted with the letter general: the claim was written before that meaning was given.",
            Reading::ShapeFromUse => "The letter's shape was read off its uses, and this claim does not fit it. A letter written bare and by its entries (`x - t` beside `\\sum_{i=1}^m (x_i - t_i)^2`) that nothing declares is tried as the vector of those entries (length m where a sum gives it, else 1 to 4): a claim that holds so is verified, saying `\\mathbf x\\in\\mathbb R^m`.",
            Reading::Consequence => "Written after a condition in the same formula (`… = 0 \\textrm{ and hence } …`): it is checked where the condition holds, and verified there, assuming it; false there too, it stays undecided (a step may use what the words beside it say).",
            Reading::FamilyOfOneValue => "`\\bar\\alpha_t = \\prod_{i=1}^T \\alpha_i`: a family whose definition never writes its index has one value for every member, as often a slip in the definition (T for t) as what was meant: what the family means is then in doubt, and a claim false through it is not refuted.",
            Reading::LettersFromWords => "A letter the words give its meaning, not a formula: where the sides share no letter (`\\det\\mathbf A=\\lambda_1\\cdots\\lambda_n`, `\\cos\\theta=…`: eigenvalues, an angle), a number-like letter a later link brings in, a letter the words call a statistic (`样本的均值$\\bar{x}$`, the sample mean), a point they only say exists (`ξ` between x and y, for some ξ).",
            Reading::Constraint => "`Ax = b`, `\\psi P = \\psi`, `q^s = q^d`: false for general values of letters the text never defines, which one side writes and the other does not, and no single small edit makes it an identity: an equation those letters satisfy (to solve, a condition, a property the words state), not an identity with a slip.",
            Reading::SuperscriptLabel => "`q_0^s = -10 + 20p_0`, `z^l = W^l a^{l-1} + b^l`: a superscript letter nothing defines labels the quantity (supply, a layer) as often as it raises it to a power; read as a label, the formula defines the labelled letter.",
            Reading::Hypothesis => "`若 $A \\sim B$，则 $r(A) = r(B)$`: the claim rests on a relation the words suppose (similar, orthogonal, congruent, an ordering) that derivcheck does not model; checked without it, neither a verification nor a counterexample is evidence.",
            Reading::SupposedInWords => "`如果它是标准正交基，由于 $B^\\top B = I$`, `If the basis is orthonormal, then …`: the claim rests on what an `if` clause supposes in words alone (what something is, no formula in it); a counterexample without that supposition is no evidence, a verification stands.",
            Reading::ChangeOrProduct => "`\\Delta t`, `\\delta y_i` with Δ, δ undefined and written before different letters (or alone): the change of each letter, or a number times it? The readings differ.",
            Reading::ImaginaryOrLetter => "`i \\cdot (a + bi) = -b + ai`, `e^{it} = \\cos t + i\\sin t` where the notes speak of complex numbers: a bare i nothing defines or binds is the imaginary unit as often as a real letter; derivcheck computes with real numbers, so a counterexample with i real is no evidence.",
            Reading::EulerOrLetter => "`\\sum_{n=1}^N e^n = 12.4`: e raised to the index of a sum is Euler's number to the power n, or the n-th member of a sequence e (the n-th sample's error) written with a superscript.",
            Reading::MatrixForDeterminant => "`\\begin{bmatrix} a & b \\\\ c & d \\end{bmatrix} = ad - bc`: a square matrix written out beside a number stands for its determinant (bars or `\\det` left out); a matrix is no number, so the literal reading is not the one meant. Read as the determinant, a claim that holds is verified, saying so; one that does not is left undecided.",
            Reading::ClassValues => "`P(C_1|x)` beside `P(C_2|x)`: two events, or the classes C = 1, C = 2 of one variable?",
            Reading::IndexedValues => "`P(x_3, x_4 \\mid x_1)`, `P(c_i \\mid \\boldsymbol x)`: a value with an index is the value of its own variable (X_3 = x_3), or one of the values of one variable X? A claim that holds read so holds for every distribution, so for either; one that fails is not refuted.",
            Reading::HoldsThroughLater => "`1 = \\sum_k \\frac1Z \\exp(w_k\\cdot x)`, then `得到 $Z = \\sum_k \\exp(w_k\\cdot x)$`: true only through a definition written after it, which the text may derive from it.",
            Reading::Convention => "`if $p = 0$, then $p\\log_2 p = 0$`: a function taken where it is not defined (log 0, under the value the words give): the formula states a convention (a limit), not an identity.",
            Reading::UnknownDerivative => "`\\frac{\\partial E}{\\partial x_i}` with nothing defining E: its derivative is unknown, not the 0 an independent letter would give; a verification through it is no evidence. Unless the claim holds with E any function of the defined letters it differentiates E by, those another's definition reaches left out (`\\frac{\\partial E}{\\partial x_i} = \\frac{\\partial E}{\\partial y_i}\\frac{\\partial y_i}{\\partial x_i}` with y_i defined from x_i: E of y): then it is verified, saying `\\forall\\, E(y)`. Where nothing defines the letters between either, the chain the claim writes draws the dependence: each letter it differentiates is any function of the letters it is differentiated by, those another of them reaches left out (`\\frac{\\partial E}{\\partial z} = \\frac{\\partial E}{\\partial y}\\frac{\\partial y}{\\partial z}`: E of y, y of z, whatever index they carry), and a claim that holds so is verified, saying `\\forall\\, E(y), y(z)`; a slip stays undecided.",
            Reading::EntryOf => "`a_{ij}` beside a matrix `\\mathbf A`: the entries of A, or a letter of its own?",
            Reading::Symmetric => "A matrix the notes never declare: false for a general one, true where it is symmetric (the words may say it is: a covariance, a Hessian, a similarity matrix).",
            Reading::Diagonal => "As [`Reading::Symmetric`], true where the matrix is diagonal.",
            Reading::Orthogonal => "As [`Reading::Symmetric`], true where the matrix is orthogonal (a rotation).",
            Reading::FunctionProperty => "A claim about a function the notes never specify that no rule of calculus makes true (`g(x+y)=g(x)+g(y)`, `I(X,Y)=I(Y,X)`): a property of that function, which the words may give.",
            Reading::EarlierCondition => "False as an identity, true under a condition the section stated earlier, outside the claim's paragraph and the one before (`令样本被中心化，即 $\\sum_i \\boldsymbol z_i=\\mathbf 0$`, three paragraphs before `\\sum_i b_{ij} = 0`): whether it still holds there is the words' to say.",
            Reading::ConditionUnused => "A condition the text states just before the claim (its paragraph or the one before) on the claim's letters, which derivcheck could not use (`if $\\psi^* P = \\psi^*$` with the shapes of its letters unknown, an equation it cannot solve): the claim may follow from it. One that gives a quantity the claim never writes its value (`P(Y=1\\mid x) = \\frac{e^{w\\cdot x}}{1+e^{w\\cdot x}}` above a claim about w and x) restricts none of its letters, and is not weighed.",
            Reading::OrderOfMagnitude => "`2 \\cdot 10^9 \\cdot 16 \\cdot 32 = 10^{12}`: numbers against a power of ten they come within 10 % of, an order of magnitude written with `=`.",
            Reading::SumsToOne => "False for a general vector, true where the entries the claim sums sum to 1 (`\\sum_j y_j = 1`: a one-hot label, a probability vector), as softmax and cross-entropy steps use and the words may say elsewhere.",
            Reading::Update => "`t=t+1`, `\\theta=\\theta-\\eta g`: an update step of an algorithm, written with `=` where `\\leftarrow` is meant.",
            Reading::SelfReferent => "`x = x^c`, `y = \\sum_i d_i y_i^2`: the letter on the left is used again on the right, with no words that assert the equation: an assignment, an equation in the letter, or a new meaning of it; not an identity.",
            Reading::RecurrenceNotRead => "`\\mathbf v_t` defined by recursion (`\\mathbf v_t = \\beta\\mathbf v_{t-1} + \\mathbf g_{t, t-1}`) in a way the claim cannot be read through (a step written other than as a lag, an operation not taken entry by entry): with the sequence a free letter the claim fails, which says nothing.",
            Reading::SolvedInPart => "`solve this … to get $x = 2y$`, `p_0 = 4.41`: values the words say solve an equation stated before, which satisfy it only for some values of the letters it keeps (a partial solution, one unknown in terms of another, as often as a slip), or miss it by more than their printed rounding allows to first order but less than twice that.",
            Reading::Approximated => "`f(x) := e^x`, then `f(t+\\Delta t) \\approx f(t)(1+\\Delta t)` earlier in the section (or in the same chain): once the text approximates a letter it has defined, later steps may write its approximate values with `=` (Euler's method, a first-order step), until it gives the letter another meaning; false for the exact letter, which says nothing. A function nobody specified is not approximated: its claims stay exact.",
            Reading::Substitutes => "A derivation the words say substitutes equations written elsewhere (`将式(6.9)代入`, `substituting (3.4)`): its links may rest on them.",
            Reading::Independent => "A claim about probabilities false for a general joint distribution, true where the variables are independent (`P(A\\mid B)=P(A)`): an assumption the words may state.",
            Reading::IndependentIdentical => "As [`Reading::Independent`], true where they are independent and identically distributed.",
            Reading::ZeroOne => "As [`Reading::Independent`], true where every variable takes only the values 0 and 1.",
            Reading::EqualVariables => "As [`Reading::Independent`], true where the variables are equal (one a copy of the other, or an invertible function of it): `H(X, Y) = H(X)`.",
            Reading::MutuallyExclusive => "A claim about a union of events (`P(A \\cup B) = P(A) + P(B)`) false for general events, that may hold for mutually exclusive ones, which the words may assume (互斥, disjoint).",
            Reading::DistributionValue => "One side has no probability or expectation in it (`P(H=1)=0.0015`, `E[X]=np`): a value the text gives a distribution it describes in words, not an identity.",
            Reading::RandomOrConstant => "A small letter met only inside expectations, or a capital written outside them too (E(C_1 X) = C_1 E(X): a coefficient?): false with it read one way, random or a constant, true the other way.",
            Reading::MomentLetter => "`\\mu_X`, `\\sigma_X` the notes never define: false with it a constant, true with it the mean (standard deviation) of X, as probability texts use the letter.",
            Reading::ApplicationOrProduct => "`q(z)` of a letter the notes never define: false read as q times the parenthesis, not refuted read as a function nobody specified.",
            Reading::OperatorOrProduct => "`Dx^n`, `D\\ln(x)` with D the notes never define: false read as D times what follows; D is the derivative operator in many texts (`Df(x)`, `D_x f`), which derivcheck does not read.",
            Reading::MatrixKind => "False for a general matrix, and the words call it a kind of matrix derivcheck does not construct (a projection, positive definite, doubly stochastic): it may hold for those. A stochastic one is constructed with rows summing to one, to verify only (no sign is drawn).",
            Reading::InverseOrPower => "`f^{-1}(z)` of a letter that is no value the section gives: false read as 1/f times the parenthesis; in many texts the inverse of a function applied (`f^{-1}(z) = 2z+1`), which derivcheck does not read.",
            Reading::PowerOrIndex => "`S^{n}` beside `S^{(i)}` in the same formula, or `w^{t+1}` beside `w^t` (an update step by step, `w^{t+1} = w^t - \\eta g^t`): a power, or the n-th member of the sequence written without its parentheses?",
        }
    }
}

/// A printed entry of the worked example that differs.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct ExampleEntry {
    pub name: String,
    pub entry: (usize, usize),
    pub printed: f64,
    pub analytic: f64,
    pub finite_difference: Option<f64>,
}

/// Why a formula (or one chain of it) makes no claim.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
#[serde(tag = "reason", rename_all = "snake_case")]
pub enum SkipReason {
    /// A relation other than =, := and ≈ (`<`, `\in`, `\to`): not checked.
    NotAnEquation,
    /// Relations inside an environment derivcheck does not read as a chain (`cases`).
    NestedRelations { env: String },
    /// A definition (`:=`, `\stackrel{def}{=}`) whose left side is not a symbol derivcheck can
    /// give a meaning (`\hat\sigma^2`): it is not a claim either.
    DefinitionNotTaken,
    /// The spec's `ignore` entry, with the author's reason.
    Ignored { because: String },
    /// A side is `[a, b]`: an interval or a row of two? Not read.
    Interval,
    /// `u = u(x)`: the letter depends on the variable; a declaration, not an equation.
    Dependence,
    /// `t = s, \cdots, 2, 1`, `i = 1, \ldots, n`: the values a letter runs through.
    Enumeration,
    /// The author's mark `<!-- derivcheck: skip -->` before it.
    Marked,
    /// The words after it replace it with the next formula (an erratum's `$…$ 改为 $…$`): a
    /// quote of the wrong text, not a claim.
    Replaced,
    /// The words deny it (`this does not mean $…$`, `并不是指 $…$`, struck through with `~~`):
    /// the text says it does not hold, which is no claim that it does.
    Denied,
    /// A step that writes the expression before it with one part renamed by a letter the text
    /// had not written (`… = \delta y_i \frac{\partial y_i}{\partial x_i}` after `\frac{\partial
    /// E}{\partial y_i}\frac{\partial y_i}{\partial x_i}`): it introduces the name, a definition.
    NamedHere { name: String, part: String },
}

/// What a formula of the notes is to derivcheck; every formula has exactly one role, so the
/// summary accounts for all of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FormulaRole {
    /// Holds at least one claim (it may define something too).
    Claims,
    /// Defines or declares (`z = w^\top x + b`, `X\in\mathbb R^{n\times d}`) and claims nothing.
    Definition,
    /// An expression without a relation (`$\sigma$`, `$x_j$`): nothing to check.
    Mention,
    /// Numbers only (`$0.25$`, a printed matrix without a left side).
    Printed,
    /// The spec's `ignore` names it.
    Ignored,
    /// A relation derivcheck does not check (`<`, `\to`, relations inside `cases`).
    NotChecked,
    /// The formula does not parse.
    NotParsed,
    /// Gives a letter a value for the sentence or paragraph that follows (`x=10`,
    /// `\mathbf v_0=\mathbf s_0=0`); later claims there are checked with that value.
    Binding,
    /// A condition or an equation to solve (`H=0`, `2x+y=1`, `0=(2-\lambda)(3-\lambda)-2`):
    /// false as an identity, and the words around it say it is not one.
    Condition,
    /// An example that gives a letter a new meaning from here on (`f(x)=\exp(x)`,
    /// `\mathbf A=\begin{bmatrix}…`), shadowing the earlier one.
    ExampleDefinition,
}

/// What one edit of a formula's side does (a mutant, or a repair).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EditKind {
    FlipSign,
    SwapDifference,
    AddTranspose,
    DropTranspose,
    SwapFactors,
    TogglePrime,
    DropTerm,
    ConstantFactor,
    IndexLetter,
    Exponent,
    SumBound,
    /// Repairs only: a factor squared (`1-\tanh(a)` → `1-\tanh(a)^2`).
    AddPower,
    /// Repairs only: a fraction turned over (`\frac{n-1}{n}` → `\frac{n}{n-1}`).
    Reciprocal,
    /// Repairs only: a term another formula of the section writes, added or subtracted.
    AddTerm,
    /// Repairs only: an approximation's number rounded from the value computed, to its digits.
    Rounding,
    /// Repairs only: a letter the claim writes put before a term (`+\gamma \mathbf{s}_{t-1}`).
    InsertFactor,
    /// Repairs only: a function's argument replaced by another the claim writes (`f(y)` →
    /// `f(u(y))`).
    Argument,
}

impl EditKind {
    /// How drastic the edit is, for ranking repairs of equal size: a sign before a transpose or
    /// a swap, those before a changed number, a dropped or added term last.
    pub fn rank(self) -> u8 {
        use EditKind::*;
        match self {
            FlipSign | SwapDifference => 0,
            AddTranspose | DropTranspose | SwapFactors | TogglePrime => 1,
            IndexLetter | Exponent | SumBound | Argument => 2,
            ConstantFactor | AddPower | Reciprocal | Rounding => 3,
            DropTerm | AddTerm | InsertFactor => 4,
        }
    }
}

/// A formula derivcheck verified, offered for a refuted claim: the claim with its right side
/// edited, as the author would write it.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Suggestion {
    /// The claim's link as it should read (`\frac{\partial L}{\partial z}=p-y`).
    pub tex: String,
    /// The edits that make it from the written one.
    pub edits: Vec<EditKind>,
    /// How the suggestion was verified, and at which sizes.
    pub method: Option<Method>,
    pub sizes: String,
}

/// What became of one mutant of a verified claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MutantFate {
    /// Refuted: the check tells the mutant from the formula.
    Killed,
    /// Verified although it differs from the formula: the check cannot tell them apart.
    Survived,
    /// Mathematically equal to the formula (checked: formula = mutant is verified).
    Equivalent,
    /// Not a formula at the stated shapes (an index past its range, a matrix where a number is
    /// expected, notation derivcheck refuses): the edit made no mutant worth checking, as a
    /// mutant that does not compile in program mutation testing.
    IllFormed,
    /// Checked without an answer (a budget ran out): counts against the kill rate.
    Undecided,
}

impl MutantFate {
    /// The fate of a mutant whose check ended `undecided` for `reason`.
    pub fn undecided_for(reason: &Reason) -> MutantFate {
        match reason {
            Reason::NotRead { .. }
            | Reason::IndexOutOfRange { .. }
            | Reason::UnboundIndex { .. }
            | Reason::NotScalar { .. }
            | Reason::NotALeaf { .. }
            | Reason::ShapeMismatch { .. } => MutantFate::IllFormed,
            _ => MutantFate::Undecided,
        }
    }
}

/// One mutant of a claim: an edit of its right side, and how checking it ended.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Mutant {
    pub edit: EditKind,
    /// The mutated right side.
    pub tex: String,
    pub fate: MutantFate,
    /// The mutant's verdict: for a survivor its method and sizes say why the check could not
    /// tell; for an undecided one the reason says what stopped it.
    pub method: Option<Method>,
    pub sizes: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<Reason>,
    pub elapsed_ms: f64,
}

/// The mutants of one verified claim.
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ClaimMutants {
    /// The notes file (or spec) the claim is read from.
    pub file: String,
    pub id: String,
    pub section: String,
    pub line: usize,
    pub tex: String,
    pub mutants: Vec<Mutant>,
}

#[cfg(test)]
mod exit_status_tests {
    use super::ExitStatus;

    #[test]
    fn a_bad_input_outranks_a_refutation_which_outranks_strict() {
        assert_eq!(ExitStatus::of_run(true, 1, true), ExitStatus::BadInput);
        assert_eq!(ExitStatus::of_run(true, 0, false), ExitStatus::Failed);
        assert_eq!(ExitStatus::of_run(false, 0, true), ExitStatus::Failed);
        assert_eq!(ExitStatus::of_run(false, 0, false), ExitStatus::Clean);
    }
}

/// The self-test's counts of one section (or of all): what `derivcheck mutate` tallies.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Tally {
    pub mutants: usize,
    pub killed: usize,
    pub survived: usize,
    pub equivalent: usize,
    pub ill_formed: usize,
    pub undecided: usize,
    /// Killed among the mutants that differ from the formula and are formulas (killed, survived
    /// or undecided), in percent.
    pub killed_percent: f64,
    pub slowest_ms: f64,
}

/// The kind of an undecided verdict's reason, without its particulars (the undecided table
/// groups claims by it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Why {
    NotUnderstood,
    Ambiguous,
    NeedsShapeOrRange,
    Incomplete,
    Beyond,
    NotEvaluable,
    IndexWithoutValue,
    Condition,
    MeaningOpen,
    PositiveOnly,
    NotReal,
    ApproxWithoutDecimals,
    Shapes,
    Budget,
    Other,
}
