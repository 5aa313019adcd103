//! The notation table: every construct derivcheck gives a meaning, and that meaning. Anything
//! outside it is a parse error or `undecided` with the reason, never a guess.
//!
//! Plain data, importing nothing: the guide's table (`docs/guide/src/notation.md`) is generated
//! from [`NOTATION`] (a test compares them), `derivcheck notation` prints it, and every example
//! is checked to be verified (a test checks them all, in one chapter, with the spec
//! [`EXAMPLE_SPEC`]).

/// How a built-in function takes a vector or matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Takes {
    /// Entry by entry: `\tanh'(a)` is the derivative entry by entry, and a shape read off use
    /// passes through.
    EntryByEntry,
    /// Whole: `\det`, `\operatorname{softmax}`, a sign of a number.
    Whole,
}

/// Every function name the evaluator knows by itself (the notation table lists them), and how
/// it takes a vector or matrix: a formula `\sin(x)=…` is never a definition of one.
pub const BUILTIN_FUNCTIONS: [(&str, Takes); 30] = {
    use Takes::{EntryByEntry as E, Whole as W};
    [
        ("ln", E),
        ("log", E),
        ("exp", E),
        ("sin", E),
        ("cos", E),
        ("tan", E),
        ("sec", E),
        ("csc", E),
        ("cot", E),
        ("abs", E),
        ("sinh", E),
        ("cosh", E),
        ("tanh", E),
        ("arcsin", E),
        ("arccos", E),
        ("arctan", E),
        ("sigmoid", E),
        ("ReLU", E),
        ("relu", E),
        ("sgn", W),
        ("sign", W),
        ("mean", W),
        ("sum", W),
        ("det", W),
        ("tr", W),
        ("trace", W),
        ("Tr", W),
        ("diag", W),
        ("shape", W),
        ("softmax", W),
    ]
};

/// A function the evaluator knows by itself.
pub fn is_builtin(name: &str) -> bool {
    BUILTIN_FUNCTIONS.iter().any(|(n, _)| *n == name)
}

/// A built-in function that acts entry by entry on a vector or matrix.
pub fn is_entrywise(name: &str) -> bool {
    BUILTIN_FUNCTIONS.iter().any(|(n, takes)| *n == name && *takes == Takes::EntryByEntry)
}

/// One row of the table.
pub struct Notation {
    pub group: &'static str,
    /// How authors write it (TeX, shown as code).
    pub written: &'static str,
    pub meaning: &'static str,
    /// A true formula using it, verified with [`EXAMPLE_SPEC`] (empty: it needs a spec of its own).
    pub example: &'static str,
}

/// The spec the examples are checked with: scalars a, b, t; vectors u, v (n×1); matrices A, B.
pub const EXAMPLE_SPEC: &str = r#"[defaults]
sizes = { n = [2, 3] }
index = { i = "n" }
matrix = { u = ["n", "1"], v = ["n", "1"], A = ["n", "n"], B = ["n", "n"] }
"#;

pub const NOTATION: &[Notation] = &[
    // ------------------------------------------------------------------ derivatives
    Notation {
        group: "derivatives",
        written: r"\frac{\partial f}{\partial x}, \partial f/\partial x",
        meaning: "the derivative, computed by the CAS. Layouts, stated once: the gradient of a scalar has the shape of the variable; a vector by a vector is the Jacobian (numerator layout); by a scalar, entry by entry. A claim off only by that transpose is refuted with a hint",
        example: r"\frac{\partial (a^2b)}{\partial a}=2ab",
    },
    Notation {
        group: "derivatives",
        written: r"\frac{\mathrm d f}{\mathrm d x}, \frac{df}{dx}, \frac{\mathrm d(x^2)}{\mathrm dx}, \frac{dF(t)}{dt}, \frac{dPe^{rt}}{dt}",
        meaning: "the same derivative, written with d; the d of the numerator is the differential of everything after it (F(t), P e^{rt}), unless another differential follows (\\frac{dx\\,dy}{dt})",
        example: r"\frac{\mathrm d(t^3)}{\mathrm dt}=3t^2",
    },
    Notation {
        group: "derivatives",
        written: r"\frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial x_i} = \delta y_i\frac{\partial y_i}{\partial x_i}",
        meaning: r"a step that writes the expression before it with a derivative renamed by a letter no formula of the section has written (the δ a backward pass carries, J for a Jacobian) introduces that name, as := would: its definition from there on, and no claim. Not a whole side renamed (= I may be the identity), nor a part that is no derivative (a value the text may give the letter elsewhere). A loss nothing defines is then any function of what it is differentiated by, through the name too (\frac{\partial E}{\partial x_i} = \delta y_i\, y_i(1-y_i): verified for every E(y))",
        example: r"\frac{\partial (a^2 b)}{\partial b}=a^2",
    },
    Notation {
        group: "derivatives",
        written: r"\frac{d}{dx}…, \frac{\mathrm d}{\mathrm dx}…, \frac{\partial}{\partial x}…",
        meaning: "a derivative operator: applied to the rest of the product after it (a group, a function application, or several factors); with nothing after it, refused. In a Leibniz numerator the d or ∂ takes everything after it (\\frac{\\partial \\mathbf x^T \\mathbf B \\mathbf x}{\\partial \\mathbf x} is of x^T B x)",
        example: r"\frac{\mathrm d}{\mathrm dt}e^{2t}=2e^{2t}",
    },
    Notation {
        group: "derivatives",
        written: r"\nabla_w f",
        meaning: "the gradient, in the layout of ∂f/∂w, applied to the rest of the product",
        example: r"\nabla_u \frac12 u^\top u=u",
    },
    Notation {
        group: "derivatives",
        written: r"f'(x), \sigma'(B), \tanh'(a)",
        meaning: "the derivative of a function the notes define, the spec declares, or the table knows, at the argument (entry by entry)",
        example: r"\tanh'(a)=1-\tanh^2 a",
    },
    Notation {
        group: "derivatives",
        written: r"g(x), g'(h(x)), g''(x), f'^2(x), f(x, y), f(\mathbf x), f_i(\mathbf x), \nabla f_i(\mathbf x)",
        meaning: "a letter the notes only ever apply (never define, declare, or write as a value; not P, E or p, nor σ, which undefined means the logistic function and is left undecided) is a function nobody specified, where no spec pins the section: claims about it hold when the rules of calculus make them hold for every function (the product, quotient and chain rules verify; their slips are refuted, at a real smooth function); a vector argument makes it a function of the entries. A letter written with a subscript only as a head applied to a parenthesis (f_i(\\mathbf x), even beside a function f of its own) is a family of such functions, one per index value. A power of a derivative written before its parenthesis (f'^2(x)) is the power of the derivative at x, (f'(x))^2; without a prime (f^2(x), which may be f(f(x))) it is not read. A claim about its values alone (g(x+y)=g(x)+g(y)) is a property of the function meant: undecided. \\mathbb E, \\mathbb P outside a bracket (\\mathbb E_i \\nabla f_i) are refused, never a number. A power of a letter nothing defines right before its parenthesis, f^2(x), E^{2}(X), is not read (the power of the application, as \\sin^2 x, an iterate f(f(x)), or a product?); where the claim is otherwise left undecided, it is checked again read as (f(x))^2, f a function nobody specified, and a verification names that reading",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\theta^T x^{(i)}, w^T x",
        meaning: "a transposed letter times a letter, where nothing gives either a meaning but a shape read off its uses and the claim is left undecided otherwise, is a number (in an exponent, beside numbers): the claim is checked again with each such product a number of its own, one per label or subscript of the second letter (\\theta^T x^{(1)}, \\theta^T x^{(2)}); a verification there holds for the vectors meant and is kept, stating `\\forall \\theta^T x^{(i)} \\in \\mathbb R`. Never where the claim differentiates, integrates or takes a limit; nothing is refuted this way",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"p(x), P(Y=1 \mid x), \mathbb P\{X=1\}, \Pr(A \mid B), q(z \mid x)",
        meaning: "a probability nothing defines (P, p, \\Pr, \\mathbb P, p_X), or a function nobody specified applied to an event or a condition, where its claim is left undecided otherwise: checked again with each such application an unknown function of the letters and numbers written in it, one function per head, way of writing the arguments and letters written (P(A \\mid B) and P(A, B) are two; p(x) and p(y), a density each variable's, are two, p(x_i) and p(x_j) one); a verification there holds for the probability meant and is kept, stating `\\forall P`. The laws of probability are not used, so nothing is refuted this way; nor is it done where the claim differentiates by a letter no such application writes (\\nabla_\\theta p(x), p(x) short for p(x; θ))",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\left(\frac{1}{1+e^{-t}}\right)', (t^3)'",
        meaning: "a prime on an expression (not on a function's name) is the derivative by the expression's one letter without a meaning; with several such letters ((x^2y)': by what?) it is not read. A prime on a letter the notes define with x in its definition (y = \\sin x, then {y}' = \\cos x) is checked again read as the derivative in x, as Lagrange's notation writes y = f(x); only a verification is kept, saying y' = dy/dx. Where the claim is otherwise left undecided ((uv)' = uv' + vu', a table of rules), each letter primed or inside a primed expression, nowhere defined, is checked again as a function nobody specified of one variable x, up to second derivatives; a verification is kept, stating `\\forall u(x), v(x)`, never a refutation (a letter inside may be a constant)",
        example: r"(t^3+\sin t)'=3t^2+\cos t",
    },
    Notation {
        group: "derivatives",
        written: r"q(x,y)=x+y, f(q,z)=qz, \frac{\partial f(q,z)}{\partial x}, \frac{\partial f(q,z)}{\partial q}",
        meaning: "Leibniz notation through definitions: a function the notes define, written bare where nothing applies it (an argument, a side), is its value at its own parameters (q for q(x, y)); a derivative by it is by that value; written right against a letter or an application (LL(\\theta) after L(\\theta) = …) it is not read: a name of its own (the log-likelihood), or L times L(θ)?",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\frac{dF}{dx} = f, f = \frac{dF}{dx}",
        meaning: "an equation between a derivative of a letter and a bare function letter (one the notes define as a function or only ever apply) is an equation of functions: read at the derivative's variable, \\frac{dF}{dx} = f(x)",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\nabla f(\mathbf x), \nabla f(\mathbf x)^\top, \nabla \log f(x)",
        meaning: "the gradient of the application after it, by its argument, in the shape of the argument; before a function every reader knows of such an application (\\log f(x), \\exp f(x)), the gradient of that by the same argument",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\nabla^2 f(\mathbf x)",
        meaning: "the Hessian: the gradient of the gradient of the application after it, by its argument",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"f(\mathbf x) + \boldsymbol\epsilon^\top \nabla f(\mathbf x) + \frac12 \boldsymbol\epsilon^\top \nabla^2 f(\mathbf x) \boldsymbol\epsilon + \mathcal{O}(\|\boldsymbol\epsilon\|^3)",
        meaning: "a Taylor expansion in several variables, cut off by O (or o) of a power of the norm of one letter ε: both sides with ε replaced by tε, for a fresh number t, are compared exactly as power series in t through the order the O leaves (the power below it), ε's entries staying symbols — the expansion along every direction, which is the claim (a step the section defines, ε = -H^{-1}∇f, is read as a free letter of its value's shape). Labelled symbolic, as a power series, with the step named; a refutation names the coefficient [t^k]. A signature f: \\mathbb{R}^d \\to \\mathbb{R} in a section makes f a function of its own there, whatever an earlier section defined",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"\bar Y",
        meaning: "the adjoint ∂L/∂Y for the section's `loss`: the derivative flows only through what the definitions put downstream of Y",
        example: "",
    },
    Notation {
        group: "derivatives",
        written: r"d f, dX_{ir}, d\mu, d(uv) = u\,dv + v\,du, d(\sin x) = \cos x\,dx",
        meaning: "the differential Σ ∂f/∂v dv over the leaves of the section's `vary` symbols (`d` written directly before a symbol; `d_k` is a symbol; in a formula that writes differentials, `d(…)` is the differential of the parenthesis). Where no spec says what varies, a claim is checked again with the letters whose differentials it writes varying and their differentials independent; what holds so holds however the letters depend on each other (the chain rule), so only a verification is kept (\\forall\\, \\mathrm{d}u, \\mathrm{d}v)",
        example: "",
    },
    // ------------------------------------------------------------------ delimiters
    Notation {
        group: "delimiters",
        written: r"|x|, \lvert x\rvert, \vert x\vert, \left|x\right|",
        meaning: "the absolute value of a scalar; of a vector or matrix it is refused (a determinant? a norm?), except that a claim so left open is checked again with bars around a square matrix read as its determinant (|AB| = |A||B|, as textbooks write 行列式 |A|): only a verification is kept, saying |A| = \\det A. Bare bars that read two ways (|a|b|c|: |a|·b·|c| or |a·|b|·c|) are a parse error",
        example: r"|a-b|=|b-a|",
    },
    Notation {
        group: "delimiters",
        written: r"\|x\|, ||x||, \lVert x\rVert, \Vert x\Vert, \left\|x\right\|, \|x\|_2, \|A\|_F, \|x\|_1, \|x\|_p, \|x\|_\infty, \max{|x_i|}",
        meaning: "the 2-norm of a vector, the Frobenius norm of a matrix (also written _F); _1 the sum of absolute values; _p of a vector, for a number p (a letter or a value), (Σ|x_i|^p)^{1/p}; _∞ of a vector the largest |x_i|, _{-∞} the smallest; other norms (of a matrix but the Frobenius) are refused. A bare || is a norm, never |(|x|)|. A \\max or \\min with no index under it, of one expression (not a list: \\max(a, b) is of its values), runs over the index that expression leaves free: \\max{|x_i|} is \\max_i |x_i|",
        example: r"\|u\|^2=u^\top u",
    },
    Notation {
        group: "delimiters",
        written: r"\langle a,b\rangle",
        meaning: "the inner product Σ a_r b_r of two values with the same number of entries",
        example: r"\langle u,v\rangle=u^\top v",
    },
    Notation {
        group: "delimiters",
        written: r"`$\psi^* P = \psi^* $`, `$ x $`",
        meaning: "inline math with a space inside its dollars, as MathJax, Jupyter and MyST read it: a formula, where the dollar follows no letter of a word, the inside opens with no digit (`$5 and $10` are prices) and writes some math (a command, a script, an operator, a lone letter)",
        example: "",
    },
    Notation {
        group: "delimiters",
        written: r"( ), [ ], \left( \right), \bigl( \bigr), \Big, \bigg, {[a+b}]",
        meaning: "grouping; the size commands only size. A bracket opened first thing in a brace group and closed right after the group ({[a+b}], as formula editors write a sum's operand) is the pair the reader sees, [a+b]: braces are not typeset",
        example: r"\bigl(a+b\bigr)^2=a^2+2ab+b^2",
    },
    // ------------------------------------------------------------------ ones and indicators
    Notation {
        group: "ones and indicators",
        written: r"\mathbf 1, \mathbf{1}, \boldsymbol 1, \mathbf 1^\top",
        meaning: "the all-ones vector (or matrix) of the shape its context gives; `\\mathbf 1^\\top` is a row; where nothing decides the length (`\\mathbf 1^\\top\\mathbf 1`) it is refused; a spec `matrix` entry for it fixes its shape",
        example: r"\mathbf 1^\top u=\sum_i u_i",
    },
    Notation {
        group: "ones and indicators",
        written: r"\mathbf 1_{j=y}, \mathbf 1_{a>0}, \mathbb 1[a>0], 1\{i=j\}",
        meaning: "an indicator: of a condition between indices, 0 or 1; of real values, the step function (1 + d/|d|)/2, exact wherever d ≠ 0. The digit 1 before a condition in braces (1\\{i=j\\}) is one too",
        example: r"\mathbf 1_{a>0}+\mathbf 1_{a<0}=1",
    },
    // ------------------------------------------------------------------ functions
    Notation {
        group: "functions",
        written: r"\ln, \log, \exp, e^x, \sin, \cos, \tan, \sec, \csc, \cot, \sinh, \cosh, \tanh, \arcsin, \arccos, \arctan, \sqrt{x}, \sqrt[n]{x}",
        meaning: "the real functions (log is natural; sec = 1/cos, csc = 1/sin, cot = cos/sin; the inverse sine, cosine and tangent on their principal branches, whose identities beyond their derivatives are verified numerically), entry by entry on matrices; `\\sin^2 x` is (sin x)², and so is MathType's `{{\\sin }^{2}}x`; its `(\\ln x{)}'` is `(\\ln x)'`",
        example: r"\cosh^2 a-\sinh^2 a=1",
    },
    Notation {
        group: "functions",
        written: r"\lim_{x\to 0}\frac{\sin x}{x}, \lim_{n\to\infty}(1+\frac1n)^n, \underset{h\to 0}{\mathop{\lim}}\,\frac{f(x+h)-f(x)}{h}",
        meaning: "a limit, by the exact stage only (symbolic): the expression's series in the step h about the point (x = a + h, or ±1/h at infinity), whose constant term is the limit where no negative power and no logarithm of h remains; a limit that is infinite, or at a finite point of a root or absolute value (whose two sides may differ), is refused",
        example: r"\lim_{h\to 0}\frac{(a+h)^2-a^2}{h}=2a",
    },
    Notation {
        group: "functions",
        written: r"\log_2 x, \log_{10} x, \log_b x",
        meaning: "the logarithm to the base in the subscript, ln x / ln b (a plain \\log stays natural, whatever base the words choose)",
        example: r"\log_2 8 = 3",
    },
    Notation {
        group: "functions",
        written: r"\textrm{MSE}(\hat\theta_n, \theta) = E[(\hat\theta_n - \theta)^2], f(x_1, x_2) = x_1^2 + 2x_2^2",
        meaning: "a function the notes define: a letter, an \\operatorname or \\mathrm name, or a word in \\textrm or \\text (not Var, Cov, E, P, Pr) applied to parameters — letters, accented or with a subscript — is that function wherever it is applied after. An equation whose left side is a name the section has not written before (no spec pinning it, no bar, not P, E or p), stated without a cue that asserts it, defines that name even where derivcheck cannot read the right side: no claim; a claim using the name later is undecided where the body is not read. A body that never writes a parameter (`E(X) = \\sum_i x_i p_i`, tied to X only by the words) is read at that parameter only: at another argument nothing says what it is",
        example: "",
    },
    Notation {
        group: "functions",
        written: r"\max(a,b), \min(a,b), \max_j x_j, \operatorname{ReLU}, \operatorname{sgn}, \operatorname{abs}",
        meaning: "maximum and minimum ((a+b±|a−b|)/2), over listed values or an index range; ReLU(x) = max(0, x); sgn(x) = x/|x|",
        example: r"\max(a,b)+\min(a,b)=a+b",
    },
    Notation {
        group: "functions",
        written: r"\operatorname{softmax}, \operatorname{softmax}_J, \operatorname{sigmoid}",
        meaning: "softmax of a vector over its entries (either orientation), of a matrix row by row, masked by a spec set J; sigmoid 1/(1+e^{−x})",
        example: r"\sum_i\operatorname{softmax}(u)_i=1",
    },
    Notation {
        group: "functions",
        written: r"f[g(x)]",
        meaning: "brackets after a function the notes define apply it, as many textbooks write (a function times a bracket means nothing)",
        example: "",
    },
    Notation {
        group: "functions",
        written: r"\phi'(z)=\phi(z)(1-\phi(z)) after `Sigmoid function…`, `# Sigmoid求导性质`",
        meaning: "a function letter nothing defines, where the words before the claim or the section's title name the sigmoid (logistic, S 形函数) or tanh (双曲正切), is tried as that function: only a verification is kept, stating the function; otherwise the claim stays a property of the function meant",
        example: "",
    },
    Notation {
        group: "functions",
        written: r"\ln u, \log u",
        meaning: "a logarithm the claim writes is real only where its argument is positive, and there the claim is checked: the normal form may split \\ln of a product or power over such arguments (the log of a likelihood), the verdict listing them (`u > 0`); a point there where the sides differ refutes, both sides real",
        example: r"\ln(ab)=\ln a+\ln b",
    },
    Notation {
        group: "functions",
        written: r"\operatorname{mean}, \operatorname{sum}, \operatorname{diag}, \operatorname{tr}, \det, \begin{vmatrix}…\end{vmatrix}, \operatorname{shape}",
        meaning: "mean and sum over all entries; diag of a vector is the diagonal matrix; trace; determinant, also of a square matrix written between vmatrix bars (bars around one entry are refused: an absolute value, or a 1×1 determinant?); shape as (rows, cols)",
        example: r"\operatorname{tr}(AB)=\operatorname{tr}(BA)",
    },
    Notation {
        group: "functions",
        written: r"\mathrm{name}(…)",
        meaning: "the same as \\operatorname{name}(…)",
        example: r"\mathrm{diag}(u)\mathbf 1=u",
    },
    Notation {
        group: "functions",
        written: r"\sigma(z)=…, g(x)=\ln(1+e^x), \operatorname{GELU}(x)=…",
        meaning: "a function the notes define: used as defined (entry by entry on a vector or matrix, unless the spec declares it a `vector` function), in the sections after its definition too; a spec that also declares it must agree. Set equal to a number at an argument (g(z)=0.5 where the words give z = 0, g(0)=0.5), a function whose definition writes its argument is given its value there, a claim (or, with the argument free, an equation to solve), not defined anew as a constant",
        example: "",
    },
    Notation {
        group: "functions",
        written: r"x(…)",
        meaning: "an application when x is a function (defined or declared); a product when x is a value the notes write elsewhere (`x(1-x)`); otherwise refused",
        example: r"a(b+c)=ab+ac",
    },
    Notation {
        group: "functions",
        written: r"\binom{n}{k}, {n \choose k}",
        meaning: "the binomial coefficient n(n−1)⋯(n−k+1)/k! for a whole number k (written, or a size with a value); any other k is refused",
        example: r"\binom{a}{2}=\frac{a(a-1)}{2}",
    },
    Notation {
        group: "functions",
        written: r"n!, (m-1)!, \binom{m}{i} \text{ of letters}",
        meaning: "a factorial or binomial coefficient of letters nothing gives a value says they are whole: a claim left open is checked again at whole values of them (0 to 6, each factorial's argument not negative, each lower entry between 0 and the upper one), only to verify, listing the values; never the definition of the built-in",
        example: r"n!=n(n-1)!",
    },
    Notation {
        group: "sums",
        written: r"\sum_r, \sum_{ir}, \sum_{i=1}^n, \sum_i^{m}, \sum_{r\in J_i}, \sum_{k\ne j}, \prod",
        meaning: "over index ranges: declared in the spec (or read off the shapes indexed), or the limits written (an empty one, MathType's `\\sum_{i}^{}`, is none); the body is the rest of the product (`\\sum_r h_rU_{rj}+b_j` sums only h_rU_{rj})",
        example: r"\sum_{i=1}^{n} i=\frac{n(n+1)}{2}",
    },
    Notation {
        group: "sums",
        written: r"\left[ \frac{\partial E}{\partial x_i} \right]_i, [3u_i^2]_i",
        meaning: "a bracket subscripted by a lone letter its content indexes with is the column of the content at each value of the letter, 1..n, n the letter's range (declared, or read off what the content indexes, as for a sum); the letter is bound inside",
        example: "",
    },
    Notation {
        group: "sums",
        written: r"\sum_i p_i\log p_i, \sum_k a_{ik}b_{kj} with no range anywhere",
        meaning: "an index the notes give no range (neither limits, nor the spec, nor a vector whose entries it runs over), written as an index (a subscript, a sum's letter, the exponent of a matrix power: P^{k+1} = PP^k), is tried over 1..N for N = 1, 2, 3, 4, every such index of the claim over the same N; a claim that holds there is verified, listing i = 1, …, N among what it assumed; one that fails stays undecided (the range is the notes' to give). An index of a family that a sum in the claim (or in the definition of a letter it writes) runs over 1..m runs over 1..m first (\\frac{\\partial y_i}{\\partial x_i} with y_i = e^{x_i}/\\sum_{k=1}^m e^{x_k}: i = 1, …, m). A letter the section defines entry by entry (y_i = …) takes no shape from its uses as a whole vector (\\delta y \\odot y): it is that family. A sum's bound set equal to a bare letter (即 m = n) is no value of it: a new letter is named by it, and two bounds said equal are a condition on the sizes, never a claim refuted at m = 2, n = 3",
        example: "",
    },
    Notation {
        group: "sums",
        written: r"y_i = \frac{1}{1+e^{-x_i}}, r_i = \sum_{j \neq i} |a_{ij}|, 如果 i \neq j 则, if i = j",
        meaning: "a letter subscripted by letters that mean nothing in the section, with a body that writes those letters only as indices (and not the letter itself), defines every member of the family for its section: y_1, y_j, \\sum_j y_j^2 are its values. A derivative by a member (\\frac{\\partial E}{\\partial y_i}) is taken with that member a variable, the others as defined. A body that uses the letter as a quantity (z_x = 6x + y) names z_x alone. \\sum_{j \\neq i} runs j over what it indexes but i. A relation among indices alone (i = j, i \\neq j) in words of condition restricts the index values of the claims of its paragraph and the next that write its letters; a newer one on the same letters replaces it (the cases of a softmax derivative)",
        example: "",
    },
    Notation {
        group: "sums",
        written: r"\int_a^b f(x)\,dx, \int_a^b f(x)\,\mathrm{d}x, \int_0^\infty, \int_{-\infty}^{\infty}, \int_0^\infty\int_0^{2\pi} … \,d\theta\,dr",
        meaning: "a definite integral over the variable of its differential (bound: not an index), limits numbers, letters or ±∞; nested integrals take the differentials innermost first. Evaluated in floating point only (adaptive Gauss–Kronrod quadrature, 10⁻¹⁰ relative) at 4 random draws of the other letters: agreement to 10⁻⁷ verifies, labelled numeric; a difference above 10⁻³ refutes; a divergent or singular integral is undecided. Sides applying different unknown functions (F(b)−F(a)) are undecided; an indefinite ∫ is refused",
        example: r"\int_0^1 3x^2\,dx=1",
    },
    Notation {
        group: "sums",
        written: r"\int_{[a,b]\times[c,d]} f(x,y)\,dx\,dy",
        meaning: "an integral over a box: the iterated integral, the first interval for the first differential (innermost), evaluated as definite integrals are",
        example: r"\int_{[0, 1]\times[0, 2]} x y\,dx\,dy = 1",
    },
    Notation {
        group: "sums",
        written: r"x_1 + x_2 + \cdots + x_n, w_1x_1 + \cdots + w_dx_d + b, x_1 x_2 \cdots x_n, [x_1,x_2,\ldots,x_d]^\top",
        meaning: "the sum, product or list an ellipsis abbreviates: the term after the dots is the general term in its index letter, which ends the range (a size: tried at 2 and 3 where nothing gives it); the written terms before the dots must be that term at consecutive values ending the run. Refused where two letters fit, or the written terms follow no one pattern (`[\\partial f/\\partial x_1, \\ldots, 2\\partial f/\\partial x_d]`)",
        example: r"x_1+x_2+\cdots+x_n=\sum_{i=1}^n x_i",
    },
    Notation {
        group: "sums",
        written: r"1 + x + \frac{x^2}{2} + \cdots, x - \frac{x^3}{6} + \ldots, f(x) + \epsilon f'(x) + \mathcal{O}(\epsilon^2), o(h)",
        meaning: "a power series cut off: a side that is a sum of powers of one letter (rising, each times factors free of it) ending in an ellipsis, or in O(v^k) / o(v^k) of a power of the letter, times factors free of it that a big O ignores (`O(\\eta^2 f'^2(x))`: the letter is the one of the argument the terms before rise in; refused where two fit). The other side's Taylor coefficients in that letter about 0 are compared exactly with the written ones through the highest power written (the power below a big O, the power of a little o), labelled symbolic, as a power series; a refutation names the coefficient [v^k]. The terms not written and convergence are not checked; a series whose coefficients use letters the other side does not reach (a_0 + a_1x + ⋯) names them and is not checked",
        example: r"e^x = 1 + x + \frac{x^2}{2} + \frac{x^3}{6} + \cdots",
    },
    // ------------------------------------------------------------------ probability
    Notation {
        group: "probability",
        written: r"P(A), P(A,B \mid C), P(X = x), P(D_1=1 \mid H=0), p(y \mid x), \Pr(A), \sum_a P(A=a), P(AB), P(A\bar B \mid C), \mathbb P\{X = 1\}",
        meaning: "(`\\mathbb P\\{X = 1\\}`, the event in braces, spaced or not, is `\\mathbb P(X = 1)`) the probability of events of discrete random variables (capital letters; a bare one takes its own value, for every value; a small letter in an event is the value of the variable of its capital; events side by side, AB, happen together, a barred bare capital, \\bar A, is the complement: the variable takes another value, and a union of up to four, A \\cup B or A\\bigcup B, is read by inclusion and exclusion; a claim about a union false for general events is undecided, naming mutually exclusive events, never refuted), P undefined by the notes. Checked in floating point on 6 random joint distributions, each variable on 2 or 3 values, or on exactly the numbers the claim compares it with (two or more): agreement to 10⁻⁹ at every value verifies, labelled numeric (random joint distributions). A claim false in general is refuted only if it is false for independent, for i.i.d. and for 0/1-valued variables too, and both sides hold a probability or an expectation; otherwise undecided, naming the assumption (independence, …) or calling it a value the text gives the distribution. A Greek letter after `\\mid` or `;` (`P(y, z \\mid \\theta)`, `P(Z=k; \\hat\\Theta)`) is a parameter: where every probability of the claim is given the same ones, it is one distribution of a family, and the claim is verified where it holds for every distribution, never refuted (the family may be a model where it holds). A variable the notes define by random variables or only give a shape (`Y = (Y_1, \\ldots, Y_n)^T`) is likewise any variable, to verify only",
        example: r"P(C \mid D) = \frac{P(D \mid C) P(C)}{P(D)}",
    },
    Notation {
        group: "probability",
        written: r"E[X], \mathbb E[X], \mathbb E X, E_{x \sim P}[f(x)], \mathrm{Var}[X], \textrm{Var}(X), \mathrm{Cov}(X,Y), E(X)^2, Var(X)",
        meaning: "expectations over the same joint distributions (`\\mathbb E X`, `\\mathbb E X_t`: a capital alone after the operator is what it takes the expectation of; `\\mathbb E X^2` is not read); E_{x∼P}[f(x)] is Σ_x f(x)P(X=x); a random variable outside every expectation makes the claim one between random quantities, checked at every outcome. A small letter inside an expectation may be random or a constant: both readings are tried and must agree (a `claim` mark reads it as a constant). A power after an expectation's parentheses, E(X)^2, squares the expectation or what is inside it: each reading is tried, and one under which the claim holds verifies it, named in the verdict (not one that makes the two sides one expression); such a claim is never refuted. After a bracket, E[X]^2 squares the expectation, but not where the bracket itself writes an expectation (E[X - E(X)]^2: the square of 0, or the variance as textbooks write it?), which is not read; nor is a letter before a bracket with a power after it, read as a product. Var(X) and Cov(X, Y) written as letters side by side are checked again read as the moments, only to verify; letters written before the name multiply it (abCov(Y, X) is a·b·Cov(Y, X)). The letters of events the words name (`for any events $A$ and $B$`, `设$A, B$是两个事件`) are random variables whatever an earlier formula made them. Not read: a name with an accent or an index right before a parenthesis (\\hat R_Z(\\mathcal F): applied, or a product?), E[X | Y], sets (∪, ∩, \\mathcal A), densities over a continuum, letters the notes define",
        example: r"\mathrm{Var}[X] = E[X^2] - E[X]^2",
    },
    Notation {
        group: "probability",
        written: r"p_X(x), p_{X, Y}(x, y), E_{(x, y) \sim P}[f(x, y)], \int_{-\infty}^{\infty} p_{X, Y}(x, y)\, dy, \int_x \cdots dx",
        meaning: "the mass function of the variables in the subscript at the values in the parenthesis (never defined by the notes: `p_X(x) = <formula without a probability>` gives an example's distribution and is no claim); an expectation over several values; an integral over all of a variable's values (no limits, the whole line, or its own letter below) read on these discrete distributions as the sum over them, which the verdict says",
        example: r"p_X(x) = \int_{-\infty}^\infty p_{X, Y}(x, y) \; dy",
    },
    Notation {
        group: "probability",
        written: r"$X$ takes the value $a-2$ with probability $p$, $a+2$ with probability $p$ and $a$ with probability $1-2p$; $Y$以概率$q$取值$1$，以概率$1-q$取值$0$",
        meaning: "a distribution the words give one variable value by value, in force for the rest of its section: a claim about that variable alone whose other letters are all the law's is checked with it, at random values of those letters where every probability is in (0, 1] and they sum to one (labelled numeric); μ_X, σ_X the notes do not define read as its mean and standard deviation, the reading listed. A claim writing another letter is read as any other",
        example: "",
    },
    Notation {
        group: "probability",
        written: r"H(X), H(X, Y), H(Y \mid X), I(X, Y)",
        meaning: "where the notes speak of entropy or mutual information (`entropy`, `熵`, `互信息`): the entropy, joint and conditional entropy (H(X, Y) − H(X)) and mutual information (H(X) + H(Y) − H(X, Y)) of random variables (capital letters other than P, Q), in nats, on the same joint distributions; never defined by the notes. A claim between entropies false in general is also tried with the variables equal (one a copy, or an invertible function, of the other): true there, it is undecided, naming that reading",
        example: r"H(Y \mid X) = H(X, Y) - H(X)",
    },
    Notation {
        group: "probability",
        written: r"\mu_X, \sigma_X, \sigma_X^2, \mu_{aX+b}, \sigma_{X+Y}, \rho(aX+b, Y)",
        meaning: "a letter with a random variable's subscript that the notes define by a moment (`\\mu_X = E[X]`, `\\sigma_X = \\sqrt{\\mathrm{Var}(X)}`): written out, its subscript put for the variable, so the family holds for sums and scalings too; likewise a function of random variables the notes define by moments (`\\rho(X, Y) = \\frac{\\mathrm{Cov}(X, Y)}{\\sigma_X\\sigma_Y}`), written out at its arguments",
        example: "",
    },
    Notation {
        group: "probability",
        written: r"X \sim \mathrm{Bernoulli}(p), \mathrm{Binomial}(n, p), \mathrm{Poisson}(\lambda), U(a, b), \mathcal N(\mu, \sigma^2), \mathrm{Beta}(\alpha, \beta)",
        meaning: "a named distribution stated of one random variable: from there to the end of the section, `\\mu_X` and `\\sigma_X` are its mean and standard deviation from the table (each row checked against its probability mass or density in the tests), listed in the verdict of every claim that uses them, and the distribution's lone letters are numbers (`p(1-p)` a product). Names with two readings give nothing: `U(n)` ({1, …, n} or [0, n]), `\\mathcal N(\\mu, \\sigma)` (a variance or a deviation second), exponential and gamma (a rate or a scale); nor does a joint (X, Y) ∼ …",
        example: "",
    },
    Notation {
        group: "probability",
        written: r"for numbers $a$ and $b$, …; if $X$ and $Y$ are independent, …; For any random variable $X$, …; 对常数$a$、$b$；若$X$与$Y$相互独立",
        meaning: "what the words of the sentence say of a claim's letters. Letters an earlier formula of the paragraph calls numbers (numbers, constants, scalars, 常数, 实数, 标量) are constants, not random. Letters the words call random variables (for any random variable $X$; $X$ and $Y$ are two independent random variables; consider $X$ as any random variable; 任意随机变量$X$), in the claim's paragraph or the one leading to a display, are any such variables, whatever an earlier formula of the section made the letter (`relationships like $X = Y^2$`). Independence stated before the claim (independent, i.i.d., 相互独立, 独立同分布) verifies a claim that holds for independent variables, listing X ⊥ Y as assumed; words that deny it or make it conditional (not, neither, conditionally, given, if and only if, 不, 非, 条件, 给定) state nothing",
        example: "",
    },
    Notation {
        group: "probability",
        written: r"\int P(Y) P(X \mid Y)\,dY",
        meaning: "an integral without limits over a random variable's differential: on discrete distributions, the sum over its values (said in the verdict)",
        example: r"\int P(X, Y)\,dY = P(X)",
    },
    Notation {
        group: "probability",
        written: r"P(H=1) = 0.0015, | $P(D=1 \mid H)$ | 1 | 0.01 |, … = 0.011485",
        meaning: "a worked example: the probabilities the section sets to numbers before a link (in a formula, in a Markdown table of P(E | V) by the column's value V = v, or as the number an earlier chain ends in) are the values of those probabilities; a link that only combines them with arithmetic, equal to a printed number, is redone to the printed digits (the complement 1 − P(V=v) where V is seen with exactly two values). The verdict lists the values used; a probability given two different numbers is not used to refute",
        example: "",
    },
    // ------------------------------------------------------------------ matrices
    Notation {
        group: "matrices",
        written: r"A^\top, A^\mathsf T, A^T, A^\intercal",
        meaning: "the transpose",
        example: r"(AB)^\top=B^\top A^\top",
    },
    Notation {
        group: "matrices",
        written: r"A^2, A^{-1}",
        meaning: "AA and the inverse, for a square matrix; a power of a non-square vector or matrix is refused (entry-wise? write ⊙)",
        example: r"A^2=AA",
    },
    Notation {
        group: "matrices",
        written: r"AB, A\cdot B, A*B, A\odot B, a\times b",
        meaning: "the matrix product (a scalar scales); `·` of two vectors of the same shape is their dot product; ⊙ entry by entry; × between scalars only",
        example: r"(A\odot B)^\top=A^\top\odot B^\top",
    },
    Notation {
        group: "matrices",
        written: r"XW+b",
        meaning: "a row vector added to a matrix is added to every row (a bias)",
        example: "",
    },
    // ------------------------------------------------------------------ symbols and numbers
    Notation {
        group: "symbols",
        written: r"hU, a_ja_k, W_Q, d_k, E_{(w, b)}",
        meaning: "one letter is one symbol (hU is h·U); a subscript of index letters or numbers is an entry; other subscripts make names, and so does a parenthesized list of letters (E_{(w, b)}, a loss named by its parameters, as 西瓜书 writes it)",
        example: r"u_iv_i=v_iu_i",
    },
    Notation {
        group: "symbols",
        written: r"\color{red}{a+b}, \textcolor{red}{a+b}, \color{red} a",
        meaning: "read through: a colour changes how the maths looks, not what it says",
        example: r"\color{red}{a+b}=b+a",
    },
    Notation {
        group: "symbols",
        written: r"π, λ, ∞, ∇, −, ×, ·, \bigtriangledown, \centerdot, \lbrack a\rbrack",
        meaning: "a letter, symbol or operator written as its Unicode character or under another name: the same as its command (π is \\pi, − is -, × is \\times, ▽ is \\nabla); a zero-width or no-break space is a space",
        example: "−π\u{200b}·2 = -2\\pi",
    },
    Notation {
        group: "symbols",
        written: r"\R, \N, \Z, \Q, \C, \cal X",
        meaning: "KaTeX's short names: \\mathbb R, \\mathbb N and so on; \\cal X is \\mathcal X",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"60^\circ, \cos 90",
        meaning: "an angle in degrees, 60·π/180; a trigonometric function of a whole number of degrees written without the sign (a multiple of 15, up to 360), refuted read in radians, is checked again read in degrees, a verification so saying it",
        example: r"\cos 60^\circ = \frac{1}{2}",
    },
    Notation {
        group: "relations",
        written: r"a_1=\begin{bmatrix}1\\2\end{bmatrix}\ a_2=\begin{bmatrix}1\\1\end{bmatrix}; a_2 - x a_1 = a_2 - \frac{a_1^\top a_2}{a_1^\top a_1} a_1",
        meaning: "one control space (\\ , \\, or \\;) after a bracket, an environment's end or a number and before a letter's equals sign sets two relations apart, as a comma does (where each reads as one with a letter on its left); a free letter on one side of a claim only, written in that formula and nowhere else in the section, is named by it (the coefficient x): false for general values, not refuted",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`this does not mean $…$`, `并不是指 $…$`, `~~ … $…$ ~~`; `$…$ if and only if`, `$…$ holds only when`, `$…$ 当且仅当`",
        meaning: "a formula the words right before it deny, or struck through, is not checked (the text says it does not hold); an equation the words right after it make hold only under a condition is that condition's case, and one the words make what remains to be proved (`it suffices to show that $…$`, `只需证明`, `使 $…$ 即可证明`) a goal: a condition, not an identity",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"a+b % a comment",
        meaning: "a TeX comment, to the end of its line: not read (\\% is a percent sign)",
        example: r"a+b=b+a % commuted",
    },
    Notation {
        group: "symbols",
        written: r"\mathbf x, \boldsymbol x, \vec x",
        meaning: "the same as x: the vector whose entries are x_r; but a shape declared of the letter written bold does not reach a later section that writes it only plain (\\boldsymbol w \\in \\mathbb R^d, then a one-variable section's w x_i: a number there)",
        example: r"\mathbf u^\top\vec v=\sum_i u_iv_i",
    },
    Notation {
        group: "symbols",
        written: r"\bar x, \hat x, \tilde x, W^{(1)}, x^{(i)}, \pi^{(i+1)}, a^{[2]}",
        meaning: "symbols of their own; a superscript in parentheses is a label, not a power: around a number, a letter or a step of a sequence (a letter plus or minus a number: \\pi^{(i+1)}, \\mu_j^{(t-1)}, the member of the sequence; not on Euler's e, e^{(x+1)} being a power). Members are symbols of their own: x^{(i+1)} is not computed from x^{(i)}. So is one in square brackets, as layers are numbered (a^{[2]}, W^{[l]})",
        example: r"\hat a^{(1)}+b=b+\hat a^{(1)}",
    },
    Notation {
        group: "symbols",
        written: r"m_t = \beta m_{t-1} + g_t, x_{t+1} = x_t - \eta g_t",
        meaning: "a sequence defined by recursion: the first relation that writes a letter at its step from its older steps, where the letter has no other meaning in the section, defines it (a restatement after it is a claim). Claims about its terms are unrolled through it, the older terms left free. Written a step ahead (x_{t+1} = …) it is the same recurrence one step later, and a claim ahead of the step is moved back with it. Vectors are read entry by entry only where every operation is (no product of two vectors, nor with a capital, a matrix as notes write one: s_{t+1} = A s_t + B a_t defines s, and claims through it are not read)",
        example: r"\beta m_{1} + g_2 = g_2 + \beta m_{1}",
    },
    Notation {
        group: "symbols",
        written: r"\pi, e, \mathrm e",
        meaning: "the constants π and Euler's number; in notes that write e as a power's base (e^x), `e = \\lim_{n\\to\\infty}(1+\\frac1n)^n` and `e \\approx 2.71828` are claims about the number, never a letter given a value",
        example: r"\cos(\pi)=-1",
    },
    Notation {
        group: "symbols",
        written: r"i \text{ in notes on complex numbers}: e^{i\theta} = \cos\theta + i\sin\theta, \lambda_1 = \frac{1+\sqrt3 i}{2}",
        meaning: r"where the notes speak of complex numbers (complex number, complex plane, imaginary, 复数, 虚数) and nothing defines or binds i, a claim false with i a real letter is checked again with i the imaginary unit, \sqrt{-1}: verified there, saying so; never refuted so (derivcheck's numbers are real, so a counterexample through a complex value is no evidence)",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"10\,000, 0.7311",
        meaning: "numbers: a thin space groups digits; a decimal side is a printed value, equal to half a unit in its last digit",
        example: r"10\,000=10^4",
    },
    Notation {
        group: "symbols",
        written: r"\mathbb E, \mathcal N, \operatorname{foo}, \int x\,dx, \arg\min_x, \lfloor x\rfloor, a/bc, 1e-5",
        meaning: "not in this table, or ambiguous ((a/b)c or a/(bc)?): refused (undecided, or a parse error), unless the notes define the name or the spec declares it",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"X\in\mathbb R^{n\times d}, w\in\mathbb R^{d}, b\in\mathbb R^{1\times m}, \mathbf x = [x_1,x_2]^\top, \mathbf x = [x_1,\ldots,x_d]^\top",
        meaning: "a shape declared in the notes (w a column; a vector written as the column or row of its own entries, x_1 its first, gives no value), from its section on; size letters the spec does not give are tried at 2 and 3. A symbol used as a vector or matrix (transposed, ⊙, bold, a norm, diag/tr/det) that nothing declares gets the shape its uses in the section force (next row); one multiplied in both orders (AB here, BA there) only, or whose uses disagree, is refused, never taken for a number",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"`设$A$是$m \times n$矩阵`, `$A$为$n$阶方阵`, `Let $A$ be an $n \times n$ matrix`, `an $m\times n$ matrix $A$`, `A = (a_{ij})_{m\times n}`",
        meaning: "a size the words give a matrix: a letter (or letters listed, or A = (a_{ij})) and a size formula side by side in one paragraph, with only is, be, 是, 为 (a, an, two, 两个) between and matrix, 矩阵, 方阵 after (or the size, then matrix, then the letter); one letter for the size needs 阶, 方阵 or square. It declares the shape from that section on, as A ∈ ℝ^{m×n} does; a subscript m×n on the bracket of entries declares it too",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"`$a_{i1}A_{j1}+a_{i2}A_{j2}$`, `$AA^{*}$`",
        meaning: "a capital written with two indices in a section that writes its small letter with two as well (A_{ij} beside a_{ij}: texts write cofactors so) is not read as the entry of A: refused (undecided), and a_{ij} is then not read as A's entry either. A star on a matrix letter (A^{*}) the notes do not define is refused: the adjugate (伴随矩阵), the conjugate transpose, or a matrix of its own?",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"\mathbf x=\mathbf U\mathbf x, \mathbf u^\top\mathbf v, (\mathbf A\mathbf B)^{-1}",
        meaning: "shapes read off use where no spec pins the section: a side written out entry by entry with whole-number indices and no \\cdots (x_1A_{11}x_1 + … + x_2A_{22}x_2) shows the claim at its largest index, where a claim refuted at other sizes is checked again, to verify only; sizes the uses tie together are one size; a lowercase letter is a column (a row only where a use forces it), an uppercase one a matrix (square where an inverse, a power, det or tr needs it), bold I the identity, and so is a plain I added to or taken from another term (A - \\lambda I); new sizes are tried at 2 and 3 and the verdict lists the shapes. A bold letter with a subscript (\\mathbf x_i) is one vector of a family. A shape mismatch through such a shape is undecided, and a matrix read off use (made square where its uses leave that open) refutes only if the claim fails for symmetric, diagonal and orthogonal matrices too",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"\mathbf A=\begin{bmatrix} a_{11} & \cdots & a_{1n} \\ \vdots & \ddots & \vdots \end{bmatrix}, two matrices $\mathbf A$ and $\mathbf B$",
        meaning: "a matrix written with dots (\\cdots, \\vdots, \\ddots) is a picture of a general matrix, not a value: the letter stays what its declaration or its uses make it; drawn by the entries of one letter (a_{11} … a_{mn}), it declares the shape m×n (the last entry's subscript) and a_{ij} is entry (i, j). On a claim's side, a picture is the matrix it draws: each row a list with dots, the rows the row of dots hides the row below it at each value of its row letter (read off the first column; rows above that are not it at consecutive values leave the claim undecided). Words that call the letter symmetric, diagonal or orthogonal make it square for the claim. A claim refuted only through a shape declared elsewhere — an earlier section (A ∈ ℝ^{n×k} for a product, then an exercise's two matrices A and B), or another declaration of the letter in the same section (A ∈ ℝ^{n×n} for a quadratic form, A ∈ ℝ^{m×n} for a Gram matrix) — is undecided unless it fails with the shapes its uses give, or the author marks it a claim",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"\begin{bmatrix} 4 & + & 3 \\ -2 & \times & -7 \end{bmatrix}",
        meaning: "a matrix row set out in columns around a cell that holds an operator alone (+, −, \\times, \\cdot, \\div) is the one expression the row shows, 4 + 3 (a lone operator is no entry); after a written product sign a sign belongs to the factor, −2 × −7 = 14",
        example: r"\begin{bmatrix} 4 & + & 3 \\ -2 & \times & -7 \end{bmatrix} = \begin{bmatrix} 7 \\ 14 \end{bmatrix}",
    },
    Notation {
        group: "symbols",
        written: r"\mathbf A=\begin{bmatrix}\mathbf a^\top_1 \\ \vdots \\ \mathbf a^\top_m\end{bmatrix}, \mathbf B=\begin{bmatrix}\mathbf b_1 & \cdots & \mathbf b_n\end{bmatrix}, \mathbf a^\top_i \in \mathbb R^k, \mathbf{AB}",
        meaning: "a matrix pictured by its rows or columns, bold members of a family, is made of them for the rest of its section (an earlier section's a_{ij} entries of the same letter yield to the rows there); a cell that is a vector or matrix is a block, the blocks of a row side by side and the rows stacked (blocks that do not fit are refused, as a vector in a picture of numbers). A declaration of one member with a letter index (\\mathbf a^\\top_i \\in \\mathbb R^k, the row's transpose, or \\mathbf b_j \\in \\mathbb R^k) declares every member, where the letter is written bold and never plain with one index. Bold capitals side by side (\\mathbf{AB}) are their product, and one name where a script follows (\\mathbf{AB}^\\top: the product's or B's?). Both scripts on one letter (x^2_i, \\sigma^2_X, \\mathbf a^\\top_i) are the member's power or transpose, as TeX sets them; not a capital's transpose or a capital's two indices (\\mathbf A^\\top_{ij})",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"for an orthogonal matrix $\mathbf U$, $\mathbf S$ is a symmetric matrix, 对角矩阵$\boldsymbol\Lambda$",
        meaning: "a kind of matrix the words name before a claim, in its paragraph (or the one leading to a display): the claim speaks of any square matrix of that kind — orthogonal ones of determinant 1 and −1 both (exact rational rotations, one reflected), symmetric, diagonal — and the verdict lists it (\\mathbf U^\\top\\mathbf U = \\mathbf I)",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"\mathbf A = (a_{ij}), A = [a_{ij}]",
        meaning: "a matrix named with the letter of its entries: a_{ij} (and a_{11}, two digits read as row and column) is entry (i, j) of A, whatever value or shape A is given later; A itself is not defined by it",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"(\mathbf A\mathbf v)_i = \sum_j a_{ij}v_j, \|\mathbf X\|_F = \sqrt{\sum_{i=1}^m\sum_{j=1}^n x_{ij}^2}",
        meaning: "where nothing names them, a small letter with two indices beside its bold capital is that matrix's entries (x_i beside \\mathbf x stays the vector's): only where the section writes the letter no other way (bare, with one index, in the picture that defines the capital, defined — unless the matrix is, C = AB before c_{i,j} = …) and gives it no meaning; in a picture of another matrix (\\mathbf A \\odot \\mathbf B = \\begin{bmatrix} a_{11}b_{11} & \\cdots \\end{bmatrix}) they are the entries of the capitals the formula writes; the verdict lists the reading (a_{ij} = (\\mathbf A)_{ij}). A sum from 1 to a size over such entries gives the matrix that side, and a free index runs over what it indexes",
        example: "",
    },
    Notation {
        group: "symbols",
        written: r"\bar x, 0.632^T, x^1, \text{tr}(X), \text{ln}L, \text{log}\frac{p}{q}",
        meaning: "where no spec pins the section, a bar is a letter (a mean), not an adjoint; ^T on a number is a power of T; a first power x^1 is refused (a power, or a superscript that numbers a coordinate?); a classic operator's name set as text (\\text{ln}, log, exp, sin, cos, tan, det, tr) is that operator, as \\ln is; diag, softmax, sigmoid and sign set as text are that function before parentheses",
        example: "",
    },
    // ------------------------------------------------------------------ relations
    Notation {
        group: "relations",
        written: r"a=b=c, :=, \text{=}",
        meaning: "an equation whose left side is a new symbol (or f(x) with new f) defines it; every other equation and link is a claim (an entry of something known, a declared leaf, `x=x+1`); in a chain that also compares by size (`A \\ge B = C`), each run of = links is a claim of its own, the comparisons not read. An equals, plus or minus sign set as text (`\\text{=}`, `\\text{+}`, as editors export them) is the sign",
        example: r"(a+b)^2=(a+b)(a+b)=a^2+2ab+b^2",
    },
    Notation {
        group: "relations",
        written: r"(a \pm b)^2 = a^2 \pm 2ab + b^2, (A \pm B)^T = A^T \pm B^T",
        meaning: "a claim written with ± (and no ∓) is checked with each sign, the same sign everywhere, and verified where both hold, stating it (\\pm\\colon +, -); never refuted so, since texts write with ± what they then call not necessarily true (不一定成立)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"A \implies B, A \Rightarrow B, A \Longrightarrow B",
        meaning: "two statements: the premise, read alone (a definition, a condition or a claim), and what follows it, read as written (never a definition or a value), refuted only where the premise gave a meaning by definition; a premise that is no equation (X \\sim N(0,1) \\Rightarrow …) leaves the chain unread",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"a\approx 0.731",
        meaning: "a claim that a side equals a printed decimal to its printed precision (with `=` too; and `= 10^{k}`, |k| ≥ 3, against numbers within 10 % of it is an order of magnitude: undecided, never refuted). Without a printed decimal, where the words call a letter small (`for a small $\\epsilon$`, `a tiny $h$`, `$h$ is small`, `很小的`, `as $\\epsilon \\rightarrow 0$`, in the paragraph or the two before): the side written as a sum of powers of that letter (times factors free of it) is the other side's power series through the highest power written, as a `+\\mathcal O(\\epsilon^{k+1})` after it would say, the verdict assuming ε → 0. Where no letter is called small and the claim writes a change (f(t + \\Delta t) \\approx f(t) + \\Delta t f'(t)), the change is the small letter, only to verify (a slip is left undecided: the words did not say which letter is small); otherwise undecided",
        example: r"\frac13\approx0.333",
    },
    Notation {
        group: "relations",
        written: r"a=1,\ b=2; \quad \hspace{1cm} \text{ for all } \; \textrm{and} \; \textrm{, where } \text{且}",
        meaning: "separate statements: commas, semicolons, \\quad, a gap of a whole em, cm or inch or more (\\hspace{1cm}; a thinner \\hspace is space), words set off by a space inside \\text, and a connective alone (and, or, where, with, hence, thus, so, then, i.e.; 和, 且, 及, 以及, 并且, 其中, 或, 因此, 所以, 于是)",
        example: r"x+y=y+x,\quad 2x=x+x",
    },
    Notation {
        group: "relations",
        written: r"k\ne j, j<1, i\le n, p \gt 1, q \lt 2",
        meaning: "conditions on the index assignments the formula's claims are checked at; none satisfied: undecided",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"\begin{aligned} a&=b\\&=c\end{aligned}, align, gather, array; rows broken by \\ with no environment",
        meaning: "each `&=` row is a link of one chain; words alone in a cell (`&& \\text{chain rule}`) say why a row holds and are no part of it, nor is a number in parentheses alone in a cell after the row's relation (`&(11)`, the row's equation number); a row starting with + or − goes on with the expression above; other rows start new chains. Rows broken by \\\\ in a display with no environment around them are rows the same way. A row that does not parse costs only itself (and the link above it, unless it opens an equation of its own: a side that parses alone, then =). In a block quote, the > markers opening a display's later lines are not TeX. `cases` is read as a definition that cannot be evaluated (undecided)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"binding: `using $x=10$ as the initial value`, `if $\epsilon=10^{-7}$, then $\epsilon^2=10^{-14}$`, `设$\sigma^2=1$`",
        meaning: "a letter (or its power) set to a number, not a claim: the value holds for that paragraph and the next, where claims are checked with it (a new letter keeps it for the section); a size so set to a whole number up to 12 (`不妨看看$n=10$的情况` of an n×n matrix) is the size those claims are checked at. Not after words that assert (then, hence, 因此, 则) when the letter already has a value, nor for an entry of a known matrix — unless a verb of choosing governs it (take, let, choose, 取, 令, 选取: `取自由变量为$x_3=1$`), which sets the value anew and never claims it (an entry so chosen is given no value); any relation such a verb governs that derivcheck cannot take as a definition (`i.e. we let $c_{-1} = c_{n-1}$`, a convention) is what the author sets: not checked. In an item of a tight list the value holds for that item only: the next item is a case of its own (`Never takers $T=0$`, `Always takers $T=1$`)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"binding by words: `for $f(x)=\frac12x^2$ we have …`, `if $g(x)=x^3$`, `对于$f(x)=…$`, `若`, `当`, `假设`",
        meaning: "a definition after if, for, when, suppose, assume (对于, 若, 如果, 当, 假设, 给定) holds for its paragraph and the next only, and is never checked against an earlier meaning. A letter's value at a point the words name (`the maximum is attained at $x=\\mu$`, `在$x=\\mu$处取得`; not `we arrive at`, `look at`) holds for its own paragraph only",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"condition: `solve $2x+y=1$`, `for what $p$ does $a+4\sqrt{2p}=a+2$`, `such that $\sum_i\alpha_i=1$`, `使得$\mathbf A\mathbf v=\lambda\mathbf v$`, `$0=(2-\lambda)(3-\lambda)-2=(4-\lambda)(1-\lambda)$`",
        meaning: "an equation to solve or a constraint: after solve, find, where, such that, if and only if, satisfies (解, 求解, 使得, 满足, 其中, 若), or a question for the value (for what, at which … does, 取何值时), a restatement of what the sentence supposes (`Let the data be centred, i.e. $…$`, `令样本被中心化，即 $…$`: a sentence opening with let, suppose, assume, 令, 设, 假设, and i.e., that is, namely, 即, 也就是 before the formula), or a side that is a number against letters the notes never define. Never refuted, and not a claim unless it holds as an identity (listed as a condition, with why); in a chain, the links after it between two expressions are still claims",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"solution: `solve this … to get $$p_0 = 4.41 \quad\text{and}\quad p_1 = 1.18$$`, `$\lambda^2-\lambda+1=0$，解得$\lambda_1=…,\lambda_2=…$`, `Using $\psi^* = \psi^* P$ … yields $p = \frac{\beta}{\alpha+\beta}$`",
        meaning: r"a formula of values (each a letter = a value that writes no other letter given one) after words that say it solves (solve … to get, the solution is, the roots are, which is solved when, 解得, 求得, 求出, 解方程得; not with unless, if, when, at, for, assume after them), or after an equation the sentence cites (using, from, 由, 利用 $…$ … yields, gives, 可得): each equation the section stated as a condition in its paragraph or the one before that writes those letters (else the nearest before; of a chain, its last link), or the cited one, is checked at the values, a claim of the values' formula. Labelled copies (\lambda_1, \lambda_2) of the equation's letter are roots, each put in alone. A value printed with decimals stands for those within half a unit of its last digit: verified where the residual is within what that rounding moves it (exact for linear equations, to first order otherwise), refuted beyond twice that; an equation that keeps a letter no definition writes (x = 2y into x + y = 3: a partial solution) is not refuted. The equations themselves, true only through these values, are conditions, not claims",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"example definition: `take $f(x)=\exp(x)$`, `例如，取$g(x)=\exp(x)$`, `$\mathbf A=\begin{bmatrix}…\end{bmatrix}$` for a letter defined before",
        meaning: "a definition-shaped formula of a letter that already has a meaning, with a value written out or words that define (take, let, consider, special case, 设, 令, 取, 特例), or opening an enumerated item (`(2) $y=x^\\alpha$`, `3.`, `（3）`) as the earlier definition did (items of one list are parallel cases, as in a table of derivatives): the letter means this from here on in its section. Without such words, a claim about the earlier meaning that is refuted only under it is undecided, naming both places. A letter two sections define differently is not carried into the sections after; what a section defines or declares reaches the end of the section holding it (a `###` subsection's letters end where the next `##` or `#` begins), as a block's names end with the block",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"equation to solve by shape: `$\mathbf A\mathbf x=\mathbf b$`, `$\mathbf P\mathbf v=\mathbf v$`, `$\mathbf S_b\mathbf w=\lambda\mathbf S_w\mathbf w$`, `$\mathbf A\mathbf B=\mathbf B\mathbf A$`, `$\sum_i b_{ij}=\sum_j b_{ij}=0$`",
        meaning: r"products of letters with one unknown on both sides (a linear system, a fixed point, an eigenvector, matrices that commute), or a chain that ends in a number over letters nothing defines: a condition, unless words assert it (thus, hence, we used, consequently; 因此, 则, 使用了). `we used $\mathbf x=\mathbf U\mathbf x$` is a claim, and refuted",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"conditions stated before: `这里$\sum_i\alpha_i=1$，因此$\lambda\sum_i\alpha_i=\lambda$`, `… = 0 \textrm{ and hence } …`",
        meaning: "a claim false in general that holds under the conditions its paragraph (or the one before) states is verified, assuming them (listed in the verdict); one that holds under a condition the section stated further back is undecided, naming it and where; a relation after a condition in the same formula follows from it: undecided if it does not hold alone. A vector condition (`\\sum_i \\mathbf z_i = \\mathbf 0`) is one equation per entry",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"letters from words: `$\det\mathbf A=\lambda_1\cdots\lambda_n$`, `$\cos\theta=\frac{\mathbf v\cdot\mathbf w}{…}$`, `将式(6.9)代入`",
        meaning: "refuted only under every reading: sides that share no letter (the words say what one side's letters are), sizes alone that the sides do not share (`r=m=n`, `n^2 = 1024 \\times 1024`: which case or which size the text considers, where derivcheck tried sizes of its own), a claim through a letter a formula of the chapter puts in a finite set of numbers (`y \\in \\{-1, 1\\}`, and its labelled copies y^{(i)}) is checked at those numbers: verified there, saying so, or refuted at one of them, a later link that brings in a new scalar letter (a fact substituted), a letter the words call a statistic (样本的均值 $\\bar{x}$, the sample mean), a_ij beside a matrix A that the section also writes another way (its entries?), and a derivation the words say substitutes numbered equations written elsewhere (代入, substituting (3.4), :eqref:), and any after words that write one letter for another in the section (使用 $g_t$ 代替 $\\tilde c_t$, in place of, instead of, replacing … by …) are undecided, naming the letter or the reading",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$t=t+1$`, `$\sum_{i=1}^N l_i=l$`, `$x_k=1$`, `$p(x)=0$`",
        meaning: "a letter set to itself plus something is an update step (as ← writes it), not a claim; a new letter alone on the right of an expression that does not use it is named by it (a definition written right to left); one member of a family set to a value, and a function set to a constant, define nothing (conditions)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$$\text{Error}=E=\frac{1}{2}\sum_{i=1}^m(x_i-t_i)^2$$`",
        meaning: "names the section gives no meaning yet (letters, or words in \\text), each set equal to the next before a value that writes a letter: the words name one quantity twice; each letter is defined as the value, and the chain claims nothing (words that assert it, or suppose it, make it a claim or a condition again; printed numbers are claims)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$x=x^c$`, `$y=\sum_{i=1}^r d_i y_i^2$`, `$a_j=\sum_{i\ne j}x_i a_i$`",
        meaning: "a letter the notes give no meaning, used again on its own right (itself, its entries, another member of its family), with no words that assert the equation: an assignment, an equation in the letter or a new meaning of it; undecided if false as an identity. After thus, hence, we used (因此, 使用了) it is a claim",
        example: "",
    },
    Notation {
        group: "matrices",
        written: r"`$\|u\|=\sqrt{u_1^2+u_2^2}$` with u's size read off use",
        meaning: r"the entries a claim writes of a vector by number (u_1, u_2, and no `\cdots`) give its size where nothing declares one: a claim refuted at the sizes tried that holds at that size is verified there, listing u ∈ ℝ² among what it assumed",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`假设随机矩阵$A$ … $A^T\mathbf 1=\mathbf 1$`, `for a projection matrix $\mathbf P$`, `$\frac{\partial L(w)}{\partial w^{(k)}}$`, `$I^{n}S^{n}$ beside $S^{(i)}$`, `$q(z)=\prod_i q(z_i)$`",
        meaning: r"refuted only under every reading: a kind of matrix the words name and derivcheck does not construct (stochastic, projection, positive definite, 随机, 正定, …; named anywhere before it in the section, or of a power of the letter: `since $P^k$ is stochastic`), a derivative by a letter its function never reaches while it reaches the letter's base (the k-th entry of w?), a power of a letter the formula also writes as a member of a sequence (S^{(i)}: an index without parentheses?), and a letter before a parenthesis that nothing defines, false read as a product and not refuted as a function nobody specified, are undecided, naming the letter",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"identity or constraint: `$\frac{\partial E}{\partial x_i}=x_i-t_i$` with E given no formula, `$A x=b$`, `$\psi P=\psi$`",
        meaning: "a refutation stands where the claim is an identity — the letters nothing defines (sizes, e, π, bound and index letters aside) are the same on both sides, or one side's are among the other's — or where one edit of the kind a slip makes (a sign, a factor, an exponent, a transpose, an index, a bound) makes it verify. Sides that each bring letters of their own relate them (an equation to solve, a condition, a property the words state): undecided, naming them; a refuted link of its chain is undecided as a consequence",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"superscript labels: `$q_0^s = -10 + 20p_0$`, `$z^l = W^l a^{l-1} + b^l$`, `$x_j^{(i)}$`",
        meaning: "a side that is a letter raised to a superscript of letters nothing defines, whose letter the other side never writes (a letter right after Δ or δ, n\\,\\Delta t, writes the change Δt, not t), reads as a labelled letter defined there as often as a power: a refutation is undecided, naming it. A superscript in parentheses on a letter with a subscript labels the letter (x_j^{(i)} is x^{(i)}_j, the j-th entry of the i-th sample), never a power",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"supposition: `若 $A \sim B$，则 …`, `if $\mathbf u \perp \mathbf v$, then …`",
        meaning: "a relation between letters the words suppose (after if, suppose, when, 若, 假设, …) that derivcheck does not model (∼ between letters, ≃, ≡, ⊥, ∥, ⪰, ⪯; not a distribution, X ∼ N(0, 1)): the claims after it in its section that write its letters are undecided, naming it; checked without it, holding is no evidence either",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$f(t) + \Delta t f(t) = f(t)(1 + \Delta t)$`, `$\delta y_i$`",
        meaning: "Δ or δ that nothing defines, before a letter: the change of it, or a number times it. A claim verified with Δ·t holds for Δt as one quantity where every Δ stands before the same letter (Δt takes every value Δ does): verified, saying so; where Δ stands before several letters or alone, undecided, naming it. Where the notes set one such pair alone on the left of an equation (δx = [\\partial E/\\partial x_i]_i) and δ stands before several letters and never alone, δ names a quantity per letter in the whole chapter: δx is one symbol (\\mathrm{deltax}), δy_i a member of the family δy",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$\|x\| := \sqrt{x^\top x}$`, `$x + y = … := …$`, a definition written again",
        meaning: "a link written := (or \\stackrel{def}{=}) defines its left side and claims nothing, taken or not; a definition written again as it was (the sample mean twice) is a definition, not a verified claim (a moment a named distribution gives, restated, is a claim)",
        example: "",
    },
    Notation {
        group: "probability",
        written: r"conventions: `with mean $\mu$ … $\mathbb E[(X-\mu)^2]$`, `$\sum_{n=1}^N e^n = 12.4$`, `$P(C_2|x) = 1 - P(C_1|x)$`",
        meaning: "where a convention and the literal reading part ways the claim is not refuted: a bare μ (σ) nothing defines, in a claim about one random variable, is its mean (deviation) as well as a constant; e raised to the letter a sum runs over is the n-th member of a sequence e as well as Euler's number; capitals written with two or more number subscripts in events (C_1, C_2) are the values of one variable (Bayes' classes) as well as separate events. Undecided, naming the letter; a slip false under both readings is refuted",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`$\frac{\partial E}{\partial x_i}=\frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial x_i}$` with E given no formula; `if $p=0$, then $p\log_2 p=0$`; `$1=\sum_k\frac1Z\exp(a_k)$`, then `we get $Z=\sum_k\exp(a_k)$`",
        meaning: "no verification without evidence: a claim that differentiates a letter nothing defines (its derivative unknown, not the 0 of an independent letter), a function taken where a value the words give leaves it undefined (log 0: a convention, the value of a limit), and a claim that holds only through a definition the words then derive from it (and fails with that letter general) are undecided, naming the letter. A claim that differentiates such a letter and holds with it any function of the defined letters it is differentiated by, those another's definition reaches left out (E of y, with y defined from x; a general quadratic in their entries, coefficients free), is verified, saying \\forall\\, E(y): the chain rule through a layer holds for whatever loss the text means, as long as the loss depends on x through y",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"printed digits cut: `$\frac12(0.01-0.75136507)^2 = 0.274811083$`",
        meaning: "a number printed as decimals agrees with the value where its digits round it or where they truncate it (the value cut after as many digits, same sign), with no letter left: the verdict lists the truncation; decimals of four significant digits or more in a product or a sum (`78.5475 + (-4.9122) = 73.635263`) are values computed and rounded, each within half a unit of its last digit, and the sides may differ by what those roundings add up to; any other difference is refuted",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`For $t = s, \cdots, 2, 1$`, `$\mathbf x = x_1, \ldots, x_d$`, `假设$A$的第$j$列可以表示为…：$$…$$`",
        meaning: "a letter set to a value and followed by dots and more values lists what it runs through: not checked; a supposition that begins the sentence (suppose, assume, 假设, 假定), with no relation written between it and the formula, makes the formula a condition",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"`\log a b=\log a+\log b`, `\sqrt{x^2}=x`",
        meaning: "a claim false only where a letter is zero or negative (a root, a real power) and true for positive values: undecided, saying so (holds for positive x), unless `--strict`. A logarithm the claim writes is the exception: real only for a positive argument, it is checked there (\\ln u above), so \\log a b = \\log a + \\log b verifies, listing a > 0 and b > 0",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"$$f(x+\epsilon) = f(x) + \epsilon f'(x) + \mathcal{O}(\epsilon^2)$$ … choose $\epsilon = -\eta f'(x)$ … $f(x)=x^2$",
        meaning: "a claim written before the definitions of some of its letters (later in its section) is verified when it holds with those letters general — a function nobody specified, a free number — which implies it holds for what they are given later; refuted only if it fails with them general too, else undecided, naming the letter and where it is defined. A letter made general is a number: a later definition of a matrix is never set aside to verify",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"设 $u=u(x)$, $y = y(t)$, $t_1=t_1(y_{i-1}=1,y_i=2,x,i)$; if and only if $x = 0$, 当且仅当 $x = 0$ 时",
        meaning: "a letter equated to itself applied to variables (or to variables given values) declares that it depends on them: not checked. After if and only if (iff, 当且仅当) an equation is a condition, never a value; a value given under if, when, for (若, 当, 对于) holds for its paragraph and the next, never for the whole section",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"log(x+c), Sigma = …, cos, {(uv)}^{(n)}",
        meaning: "a name written as letters side by side without a backslash (log, exp, sin, cos, tan, max, min, det, tr, diag, var, softmax, Greek names: sigma, theta, lambda, …) is refused (the name, or a product of its letters?), never a product; a real function's name alone as its letters, or the trace (tr, trace), with an argument in parentheses (tanh(x), log(1+x), trace(A)) or a fraction, a sum or a product right after it (log\\frac{P(A)}{P(B)}, log\\prod_t a_t), is checked again read as the function, and a verification so says it (\\text{tanh}(·) = \\tanh(·)); a refutation needs the product reading ruled out, so it stays undecided. So is a parenthesized superscript on a parenthesis, ${(uv)}^{(n)}$ (Leibniz's n-th derivative, or a power?)",
        example: "",
    },
    Notation {
        group: "relations",
        written: r"[a_{11}-r_1, a_{11}+r_1] = [0.7, 1.3]",
        meaning: "intervals written with the same brackets on every side are equal when their endpoints are: checked endpoint by endpoint. An interval or a pair in brackets compared with anything else is not checked (an interval or a row of two?)",
        example: "",
    },
];

/// The table in Markdown, as the guide (`docs/guide/src/notation.md`) shows it between its
/// `notation-table` markers.
pub fn markdown_table() -> String {
    let mut out = String::from("| group | written | meaning | a verified example |\n|---|---|---|---|\n");
    for n in NOTATION {
        let example = if n.example.is_empty() { "—".to_string() } else { format!("`${}$`", n.example) };
        let written = n.written.split(", ").map(|w| format!("`{w}`")).collect::<Vec<_>>().join(", ");
        let cell = |text: &str| text.replace('|', "\\|");
        out.push_str(&format!("| {} | {} | {} | {} |\n", n.group, cell(&written), cell(n.meaning), cell(&example)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_says_something() {
        for n in NOTATION {
            assert!(!n.written.is_empty() && n.meaning.len() > 10, "{}", n.written);
        }
        assert!(markdown_table().lines().count() == NOTATION.len() + 2);
    }
}
