//! The expression tree produced by the parser. Every node carries the byte span of the TeX it was
//! read from (relative to the formula's TeX), so later stages can point at the exact sub-formula.

use serde::Serialize;
use std::fmt;

/// The letters that, written before another, make a change of it (`\Delta t`, `\delta x`).
pub const CHANGE_SIGNS: [&str; 2] = ["\\Delta", "\\delta"];

/// Byte range `[start, end)` inside one formula's TeX.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// A whole formula: relation chains separated by `,`, `;` or `\quad` (`a = b,\qquad k \ne j`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Statement {
    pub chains: Vec<Chain>,
    pub span: Span,
}

/// `e0 op1 e1 op2 e2 ...`. `first` is `None` for a continuation row of an aligned block (`&= b`).
/// A chain with no links is a bare expression (`\ell_1`, `F`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Chain {
    pub first: Option<Expr>,
    pub links: Vec<Link>,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Link {
    pub op: RelOp,
    pub rhs: Expr,
}

/// The label of a starred symbol (`x^*` is "x star", a symbol of its own).
pub const STAR_LABEL: &str = "*";
/// The function name under which `n!` is an application: `factorial(n)`.
pub const FACTORIAL: &str = "factorial";

/// The function name under which `\binom{n}{k}` (and `{n \choose k}`) is an application:
/// `binom(n, k)`.
pub const BINOMIAL: &str = "binom";

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RelOp {
    Eq,
    Define,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
    Approx,
    Equiv,
    Sim,
    Propto,
    In,
    NotIn,
    Subset,
    To,
    /// `\leftarrow`, `\gets`: an update rule (`s_t \leftarrow \gamma s_{t-1} + …`).
    Assign,
    Implies,
    Iff,
    Mid,
    MuchLess,
    MuchGreater,
    /// `f: A \to B`, `\{x : x > 0\}`.
    Colon,
    LessApprox,
    GreaterApprox,
    Succeq,
    Preceq,
    Simeq,
    Perp,
    Parallel,
    Ni,
    Supset,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "node", rename_all = "snake_case")]
pub enum ExprKind {
    /// A decimal literal as written (`0.133562`).
    Number {
        value: String,
    },
    /// A (possibly decorated) symbol: `x`, `\ell`, `\bar X`, `\mathbf{x}`, `\mathrm{softmax}`.
    Symbol(Symbol),
    /// `\ldots`, `\cdots`.
    Ellipsis,
    /// `\text{...}` inside a formula.
    Text {
        text: String,
    },
    /// An empty group `{}`.
    Empty,
    Neg {
        operand: Box<Expr>,
    },
    Binary {
        op: BinOp,
        lhs: Box<Expr>,
        rhs: Box<Expr>,
    },
    Frac {
        num: Box<Expr>,
        den: Box<Expr>,
    },
    Sqrt {
        index: Option<Box<Expr>>,
        radicand: Box<Expr>,
    },
    Power {
        base: Box<Expr>,
        exponent: Box<Expr>,
    },
    Subscript {
        base: Box<Expr>,
        index: Box<Expr>,
    },
    Transpose {
        operand: Box<Expr>,
    },
    Prime {
        operand: Box<Expr>,
    },
    /// `\sum_{r\in J_i} body`, `\prod_{i=1}^n body`.
    BigOp {
        op: BigOpKind,
        lower: Option<Box<Expr>>,
        upper: Option<Box<Expr>>,
        body: Option<Box<Expr>>,
    },
    /// `\ln x`, `\exp(o_j)`, `\operatorname{LN}_1(X)`.
    Apply {
        func: Function,
        args: Vec<Expr>,
        parenthesized: bool,
    },
    /// `F(x)`, `\sigma'(B)`: a bare symbol directly followed by parentheses. An application
    /// when the symbol is a function, else a product (`x(1-x)`); later stages decide.
    /// `postfixed`: a subscript or power followed the parentheses (`f(x)_j`, `\sigma(z)^2`) and
    /// was applied to the call; read as a product, that would be wrong, so it is refused.
    Call {
        func: Box<Expr>,
        args: Vec<Expr>,
        postfixed: bool,
    },
    /// `\partial L`, `\partial^2 f`.
    Partial {
        order: Option<Box<Expr>>,
        operand: Option<Box<Expr>>,
    },
    /// A derivative, in any of its spellings: `\frac{\partial f}{\partial x}`, `\partial f/\partial x`,
    /// `\frac{\mathrm d f}{\mathrm d x}`, `\frac{d}{dx}(…)` applied to the rest of the product,
    /// `\nabla_x f`.
    Derivative {
        kind: DerivativeKind,
        of: Box<Expr>,
        wrt: Box<Expr>,
    },
    /// `dX_{ir}`: the differential of the operand.
    Differential {
        operand: Box<Expr>,
    },
    /// `(x)`, `[x]`, `\left( x \right)`, `\{x\}`; tuples `(1,0)` have a `Tuple` inside.
    Fenced {
        open: String,
        close: String,
        inner: Option<Box<Expr>>,
    },
    Abs {
        operand: Box<Expr>,
    },
    Norm {
        operand: Box<Expr>,
    },
    /// Comma-separated items inside a group or parentheses; `stacked` when every separator is
    /// a semicolon (`[x_1; x_2; x_3]`, a column in the notation of MATLAB and d2l).
    Tuple {
        items: Vec<Expr>,
        stacked: bool,
    },
    /// A relation inside a group, parentheses or a subscript (`\mathbf1_{j=y}`, `\sum_{r\in J_i}`).
    Relation {
        chain: Box<Chain>,
    },
    /// Several relations inside a group (`\{x, y = 1; z\}`), kept whole.
    Statement {
        statement: Box<Statement>,
    },
    /// `\begin{bmatrix} ... \end{bmatrix}` (and pmatrix, cases, array, ...).
    Matrix {
        env: String,
        rows: Vec<Vec<Option<Statement>>>,
    },
    /// `\begin{aligned} ... \end{aligned}`: rows of `&`-separated cells.
    Aligned {
        env: String,
        rows: Vec<Vec<AlignedCell>>,
    },
    /// `\overline{x+y}`: an accent over something that is not a single symbol.
    Accent {
        accent: Accent,
        operand: Box<Expr>,
    },
    /// `\mathbf{x+y}`: a font over something that is not a single symbol.
    Styled {
        style: Style,
        operand: Box<Expr>,
    },
}

/// How a derivative was written: `∂` (partial), `d` (total) or `\nabla` (gradient). All three
/// mean the same computation; the spelling is kept for printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DerivativeKind {
    Partial,
    Total,
    Gradient,
}

/// One `&`-separated cell of an aligned row. `a &= b` has cells `a` and `= b`; `a =& b` has
/// cells `a =` (a dangling relation) and `b`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AlignedCell {
    pub statement: Option<Statement>,
    pub dangling: Option<RelOp>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BinOp {
    Add,
    Sub,
    PlusMinus,
    DirectSum,
    /// Juxtaposition `ab`.
    Implicit,
    Cdot,
    Times,
    /// `\odot`, elementwise.
    Hadamard,
    Otimes,
    Compose,
    Div,
    /// Set operations `\cap`, `\cup`, `\setminus`: read, never evaluated.
    Intersection,
    Union,
    SetMinus,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BigOpKind {
    Sum,
    Prod,
    Coprod,
    Int,
    Oint,
    Union,
    Intersection,
    Max,
    Min,
    Argmax,
    Argmin,
    Lim,
    Sup,
    Inf,
    Named(String),
}

/// A named function with optional scripts (`\operatorname{LN}_1`, `\log_2`, `\sin^2`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Function {
    pub name: String,
    /// `\tanh'(a)`: how many primes follow the name.
    pub primes: usize,
    pub sub: Option<Box<Expr>>,
    pub sup: Option<Box<Expr>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize)]
pub struct Symbol {
    /// `x`, `ell`, `alpha`, `softmax`, `1` (for `\mathbf1`).
    pub name: String,
    /// Outermost last: `\bar{\hat x}` is `[hat, bar]`.
    pub accents: Vec<Accent>,
    pub style: Option<Style>,
    /// `W^{(1)}`, `x^{(i)}`: a parenthesized superscript is a label, not a power.
    pub label: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Accent {
    Bar,
    Hat,
    Tilde,
    Vec,
    Dot,
    Ddot,
    Check,
    Breve,
    Underline,
    RightArrow,
    LeftArrow,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Style {
    Bold,
    Roman,
    Sans,
    Calligraphic,
    Blackboard,
    Italic,
    Typewriter,
    Fraktur,
    Script,
}

impl Expr {
    pub fn new(kind: ExprKind, span: Span) -> Self {
        Expr { kind, span }
    }

    /// `(inner)`: an expression put in parentheses, as a rewrite substitutes it for a letter.
    pub fn parenthesized(inner: Expr, span: Span) -> Self {
        Expr::new(ExprKind::Fenced { open: "(".into(), close: ")".into(), inner: Some(Box::new(inner)) }, span)
    }

    /// Depth of the tree (a leaf has depth 1); used by tests and limits.
    pub fn depth(&self) -> usize {
        1 + self.children().map(Expr::depth).max().unwrap_or(0)
    }

    /// The direct sub-expressions, in source order.
    pub fn children(&self) -> Box<dyn Iterator<Item = &Expr> + '_> {
        use ExprKind::*;
        match &self.kind {
            Number { .. } | Symbol(_) | Ellipsis | Text { .. } | Empty => Box::new(std::iter::empty()),
            Neg { operand }
            | Transpose { operand }
            | Prime { operand }
            | Abs { operand }
            | Norm { operand }
            | Differential { operand }
            | Accent { operand, .. }
            | Styled { operand, .. } => Box::new(std::iter::once(operand.as_ref())),
            Binary { lhs, rhs, .. } => Box::new([lhs.as_ref(), rhs.as_ref()].into_iter()),
            Frac { num, den } => Box::new([num.as_ref(), den.as_ref()].into_iter()),
            Power { base, exponent } => Box::new([base.as_ref(), exponent.as_ref()].into_iter()),
            Subscript { base, index } => Box::new([base.as_ref(), index.as_ref()].into_iter()),
            Sqrt { index, radicand } => {
                Box::new(index.as_deref().into_iter().chain(std::iter::once(radicand.as_ref())))
            }
            BigOp { lower, upper, body, .. } => {
                Box::new(lower.as_deref().into_iter().chain(upper.as_deref()).chain(body.as_deref()))
            }
            Call { func, args, .. } => Box::new(std::iter::once(func.as_ref()).chain(args.iter())),
            Apply { func, args, .. } => {
                Box::new(func.sub.as_deref().into_iter().chain(func.sup.as_deref()).chain(args.iter()))
            }
            Partial { order, operand } => Box::new(order.as_deref().into_iter().chain(operand.as_deref())),
            Derivative { of, wrt, .. } => Box::new([of.as_ref(), wrt.as_ref()].into_iter()),
            Fenced { inner, .. } => Box::new(inner.as_deref().into_iter()),
            Tuple { items, .. } => Box::new(items.iter()),
            Relation { chain } => Box::new(chain.exprs()),
            Statement { statement } => Box::new(statement.chains.iter().flat_map(Chain::exprs)),
            Matrix { rows, .. } => {
                Box::new(rows.iter().flatten().flatten().flat_map(|s| s.chains.iter().flat_map(Chain::exprs)))
            }
            Aligned { rows, .. } => Box::new(
                rows.iter()
                    .flatten()
                    .filter_map(|c| c.statement.as_ref())
                    .flat_map(|s| s.chains.iter().flat_map(Chain::exprs)),
            ),
        }
    }
}

impl Expr {
    /// The direct sub-expressions, mutably, in the order of [`Expr::children`] (for rewrites
    /// that keep every span).
    pub fn children_mut(&mut self) -> Vec<&mut Expr> {
        use ExprKind::*;
        match &mut self.kind {
            Number { .. } | Symbol(_) | Ellipsis | Text { .. } | Empty => Vec::new(),
            Neg { operand }
            | Transpose { operand }
            | Prime { operand }
            | Abs { operand }
            | Norm { operand }
            | Differential { operand }
            | Accent { operand, .. }
            | Styled { operand, .. } => vec![operand.as_mut()],
            Binary { lhs, rhs, .. } => vec![lhs.as_mut(), rhs.as_mut()],
            Frac { num, den } => vec![num.as_mut(), den.as_mut()],
            Power { base, exponent } => vec![base.as_mut(), exponent.as_mut()],
            Subscript { base, index } => vec![base.as_mut(), index.as_mut()],
            Sqrt { index, radicand } => index.as_deref_mut().into_iter().chain([radicand.as_mut()]).collect(),
            BigOp { lower, upper, body, .. } => {
                lower.as_deref_mut().into_iter().chain(upper.as_deref_mut()).chain(body.as_deref_mut()).collect()
            }
            Call { func, args, .. } => std::iter::once(func.as_mut()).chain(args.iter_mut()).collect(),
            Apply { func, args, .. } => {
                func.sub.as_deref_mut().into_iter().chain(func.sup.as_deref_mut()).chain(args.iter_mut()).collect()
            }
            Partial { order, operand } => order.as_deref_mut().into_iter().chain(operand.as_deref_mut()).collect(),
            Derivative { of, wrt, .. } => vec![of.as_mut(), wrt.as_mut()],
            Fenced { inner, .. } => inner.as_deref_mut().into_iter().collect(),
            Tuple { items, .. } => items.iter_mut().collect(),
            Relation { chain } => chain.exprs_mut().collect(),
            Statement { statement } => statement_exprs_mut(statement),
            Matrix { rows, .. } => rows.iter_mut().flatten().flatten().flat_map(statement_exprs_mut).collect(),
            Aligned { rows, .. } => {
                rows.iter_mut().flatten().filter_map(|c| c.statement.as_mut()).flat_map(statement_exprs_mut).collect()
            }
        }
    }

    /// The factors of a product written side by side (`\Delta t f(t)`: Δ, t, f(t)), in order;
    /// anything else is its one factor.
    pub fn implicit_factors(&self) -> Vec<&Expr> {
        fn collect<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            match &e.kind {
                ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                    collect(lhs, out);
                    collect(rhs, out);
                }
                _ => out.push(e),
            }
        }
        let mut out = Vec::new();
        collect(self, &mut out);
        out
    }

    /// `\Delta`, `\delta` written as a letter: before another letter, the sign of a change
    /// (`\Delta t`), which the readings take as one quantity.
    pub fn is_change_sign(&self) -> bool {
        CHANGE_SIGNS.contains(&self.symbol_key().as_deref().unwrap_or(""))
    }

    /// The name this expression stands for when it is a symbol, possibly with a name-like
    /// subscript: `x`, `\bar{X}`, `W_Q`, `d_k`, `W_{hx}`. Used to look symbols up in a scope.
    pub fn symbol_key(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Symbol(s) => Some(s.key()),
            ExprKind::Subscript { base, index } => {
                let base = match &base.kind {
                    ExprKind::Symbol(s) => s.key(),
                    _ => return None,
                };
                let word = index.subscript_word()?;
                // `h_{\rho\beta}`: a word of several commands keeps its braces, so that the key
                // reads back as the same symbol.
                let several = matches!(index.kind, ExprKind::Binary { op: BinOp::Implicit, .. }) && word.contains('\\')
                    || matches!(index.kind, ExprKind::Fenced { .. });
                Some(if several { format!("{base}_{{{word}}}") } else { format!("{base}_{word}") })
            }
            _ => None,
        }
    }

    /// `\textrm{MSE}` before parentheses, a word the author may define as a function (never one
    /// of [`PROBABILITY_OPERATORS`]): the key
    /// `\operatorname{MSE}` it has when defined, as `\operatorname{MSE}` and `\mathrm{MSE}` do.
    pub fn word_function_key(&self) -> Option<String> {
        let ExprKind::Text { text } = &self.kind else { return None };
        let word = text.trim();
        let operator = PROBABILITY_OPERATORS.contains(&word);
        (!operator && word.chars().count() > 1 && word.chars().all(|c| c.is_ascii_alphabetic()))
            .then(|| operator_key(word))
    }

    /// `Q`, `1`, `hx` (a juxtaposition of letters and digits), `\text{in}` (a word), else `None`.
    fn subscript_word(&self) -> Option<String> {
        match &self.kind {
            ExprKind::Symbol(s) if s.accents.is_empty() => Some(s.key()),
            ExprKind::Text { text } if is_label_word(text) => Some(format!("\\text{{{}}}", text.trim())),
            ExprKind::Number { value } => Some(value.clone()),
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                let (left, right) = (lhs.subscript_word()?, rhs.subscript_word()?);
                // (`\rho x`, not `\rhox`.)
                let space = if left.contains('\\') || right.contains('\\') { " " } else { "" };
                Some(format!("{left}{space}{right}"))
            }
            // `E_{(w, b)}`: a name of the parameters it depends on, as 西瓜书 writes the loss.
            ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" => match &inner.kind {
                ExprKind::Tuple { items, stacked: false } if items.len() > 1 => {
                    let words = items
                        .iter()
                        .map(|i| matches!(i.kind, ExprKind::Symbol(_)).then(|| i.subscript_word()).flatten())
                        .collect::<Option<Vec<_>>>()?;
                    Some(format!("({})", words.join(", ")))
                }
                _ => None,
            },
            _ => None,
        }
    }
}

/// The expressions of every chain of a statement, mutably.
fn statement_exprs_mut(statement: &mut Statement) -> Vec<&mut Expr> {
    statement.chains.iter_mut().flat_map(Chain::exprs_mut).collect()
}

impl Chain {
    /// The chain's expressions in order (`first`, then each link's right side).
    pub fn exprs(&self) -> impl Iterator<Item = &Expr> {
        self.first.iter().chain(self.links.iter().map(|l| &l.rhs))
    }

    /// [`Chain::exprs`], mutably.
    pub fn exprs_mut(&mut self) -> impl Iterator<Item = &mut Expr> {
        self.first.iter_mut().chain(self.links.iter_mut().map(|l| &mut l.rhs))
    }
}

impl Symbol {
    pub fn plain(name: &str) -> Self {
        Symbol { name: name.to_string(), accents: Vec::new(), style: None, label: None }
    }
}

impl Symbol {
    /// The key this symbol is looked up by: its spelling, except that bold and `\vec` on a
    /// single letter are typography (`\mathbf x`, `\boldsymbol x`, `\vec x` and `x` are the same
    /// vector, whose entries are `x_r`).
    pub fn key(&self) -> String {
        let single_letter = self.name.chars().count() == 1 && self.name.chars().all(char::is_alphabetic)
            || super::grammar_names::is_greek_or_symbol_name(&self.name);
        if !single_letter || !(self.style == Some(Style::Bold) || self.accents.contains(&Accent::Vec)) {
            return self.to_string();
        }
        let mut plain = self.clone();
        if plain.style == Some(Style::Bold) {
            plain.style = None;
        }
        plain.accents.retain(|a| *a != Accent::Vec);
        plain.to_string()
    }

    /// `\mathbf{AB}`, `\mathbf{QKV}`: two to four bold capitals side by side, as one symbol (the
    /// parser reads them as a product, unless a script follows).
    pub fn is_bold_capitals(&self) -> bool {
        (2..=4).contains(&self.name.len())
            && self.name.bytes().all(|b| b.is_ascii_uppercase())
            && self.style == Some(Style::Bold)
    }

    /// `\mathbf 1`, `\mathbf{1}`, `\boldsymbol 1`, `\mathbb 1`: the ones vector or an indicator.
    pub fn is_bold_one(&self) -> bool {
        self.name == "1" && matches!(self.style, Some(Style::Bold | Style::Blackboard)) && self.accents.is_empty()
    }
}

impl fmt::Display for Symbol {
    /// A canonical TeX-like spelling: `\bar{X}`, `\mathbf{x}`, `\ell`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = if self.name.chars().count() == 1 || self.name.chars().all(|c| c.is_ascii_digit()) {
            self.name.clone()
        } else if super::grammar_names::is_greek_or_symbol_name(&self.name) {
            format!("\\{}", self.name)
        } else if self.style.is_none() {
            format!("\\mathrm{{{}}}", self.name)
        } else {
            self.name.clone()
        };
        if let Some(style) = self.style {
            text = format!("\\{}{{{}}}", style.command(), text);
        }
        for accent in &self.accents {
            text = format!("\\{}{{{}}}", accent.command(), text);
        }
        match self.label.as_deref() {
            Some(STAR_LABEL) => text = format!("{text}^{{*}}"),
            Some(label) if label.starts_with('[') => text = format!("{text}^{{{label}}}"),
            Some(label) => text = format!("{text}^{{({label})}}"),
            None => {}
        }
        f.write_str(&text)
    }
}

impl BigOpKind {
    /// `\int`, `\oint`: an integral, whose variable is its differential (`dx`), not an index.
    pub fn is_integral(&self) -> bool {
        matches!(self, BigOpKind::Int | BigOpKind::Oint)
    }

    pub fn name(&self) -> &str {
        match self {
            BigOpKind::Sum => "sum",
            BigOpKind::Prod => "prod",
            BigOpKind::Coprod => "coprod",
            BigOpKind::Int => "int",
            BigOpKind::Oint => "oint",
            BigOpKind::Union => "bigcup",
            BigOpKind::Intersection => "bigcap",
            BigOpKind::Max => "max",
            BigOpKind::Min => "min",
            BigOpKind::Argmax => "argmax",
            BigOpKind::Argmin => "argmin",
            BigOpKind::Lim => "lim",
            BigOpKind::Sup => "sup",
            BigOpKind::Inf => "inf",
            BigOpKind::Named(name) => name,
        }
    }
}

impl Accent {
    pub fn command(self) -> &'static str {
        match self {
            Accent::Bar => "bar",
            Accent::Hat => "hat",
            Accent::Tilde => "tilde",
            Accent::Vec => "vec",
            Accent::Dot => "dot",
            Accent::Ddot => "ddot",
            Accent::Check => "check",
            Accent::Breve => "breve",
            Accent::Underline => "underline",
            Accent::RightArrow => "overrightarrow",
            Accent::LeftArrow => "overleftarrow",
        }
    }
}

impl Style {
    pub fn command(self) -> &'static str {
        match self {
            Style::Bold => "mathbf",
            Style::Roman => "mathrm",
            Style::Sans => "mathsf",
            Style::Calligraphic => "mathcal",
            Style::Blackboard => "mathbb",
            Style::Italic => "mathit",
            Style::Typewriter => "mathtt",
            Style::Fraktur => "mathfrak",
            Style::Script => "mathscr",
        }
    }
}

/// An integral's body split into its integrand and the differentials that end it, in order:
/// `y e^{-y^2}\,dy` gives (`y e^{-y^2}`, [`y`]); `r e^{-r^2}\,d\theta\,dr` gives (`r e^{-r^2}`,
/// [`\theta`, `r`]), the first for the innermost integral; `dx` alone gives (None, [`x`]).
pub fn integrand_and_variables(body: &Expr) -> (Option<&Expr>, Vec<&Expr>) {
    let mut vars = Vec::new();
    let mut rest = Some(body);
    while let Some(e) = rest {
        match &e.kind {
            ExprKind::Differential { operand } => {
                vars.push(operand.as_ref());
                rest = None;
            }
            ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } => match &rhs.kind {
                ExprKind::Differential { operand } => {
                    vars.push(operand.as_ref());
                    rest = Some(lhs);
                }
                _ => break,
            },
            _ => break,
        }
    }
    vars.reverse();
    (rest, vars)
}

/// The variables an integral binds (its differentials' letters), for an integral's big
/// operator; nothing for any other.
pub fn integration_letters(op: &BigOpKind, body: Option<&Expr>) -> Vec<String> {
    if !op.is_integral() {
        return Vec::new();
    }
    let Some(body) = body else { return Vec::new() };
    // Nested integrals: the innermost body carries every differential.
    let mut inner = body;
    while let ExprKind::BigOp { op, body: Some(b), .. } = &inner.kind {
        if !op.is_integral() {
            break;
        }
        inner = b;
    }
    integrand_and_variables(inner).1.iter().filter_map(|v| v.symbol_key()).collect()
}

/// The letters a big operator binds: an integral's differentials' (`\int_0^1 y\,dy`: y), a
/// sum's or product's index letters (`\sum_{i=1}^n`, `\sum_{ij}`: i, j).
pub fn bound_letters(op: &BigOpKind, lower: Option<&Expr>, body: Option<&Expr>) -> Vec<String> {
    if op.is_integral() {
        return integration_letters(op, body);
    }
    lower
        .and_then(|l| match &l.kind {
            ExprKind::Relation { chain } => chain.first.as_ref().and_then(index_letters),
            _ => index_letters(l),
        })
        .unwrap_or_default()
}

/// `\infty` (`Some(true)`, also `+\infty`, which parses the same) or `-\infty` (`Some(false)`),
/// as an integral's limit.
pub fn infinite_limit(e: &Expr) -> Option<bool> {
    let infinity = |x: &Expr| matches!(&x.kind, ExprKind::Symbol(s) if s.name == "infty" && s.accents.is_empty());
    match &e.kind {
        _ if infinity(e) => Some(true),
        ExprKind::Neg { operand } if infinity(operand) => Some(false),
        _ => None,
    }
}

/// `E^{2}(X)`, `3f^2(x)`: the power of a bare letter (not e or π) by a number written right
/// before a parenthesis — the last factor of `lhs`, `rhs` the parenthesis. The power of an
/// application (as `\sin^2 x` is (sin x)^2), an iterate f(f(x)), or a product? Gives that power,
/// its letter and its exponent.
pub fn power_before_parenthesis<'e>(lhs: &'e Expr, rhs: &Expr) -> Option<(&'e Expr, &'e Expr, &'e Expr)> {
    let last = last_factor(lhs);
    let ExprKind::Power { base, exponent } = &last.kind else { return None };
    let letter = matches!(&base.kind, ExprKind::Symbol(s) if !matches!(s.name.as_str(), "e" | "\\pi"));
    let bare = letter && matches!(exponent.kind, ExprKind::Number { .. });
    (bare && right_before_parenthesis(last, rhs)).then_some((last, base.as_ref(), exponent.as_ref()))
}

/// The last factor of a product written side by side (`\textrm{Cov}` of `a\textrm{Cov}`, `f^2`
/// of `3f^2`); `e` itself where it is no such product.
pub fn last_factor(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Binary { op: BinOp::Implicit, rhs, .. } => last_factor(rhs),
        _ => e,
    }
}

/// Is `rhs` a parenthesis written right against `last`, with no space between (`f(x)`, `h_1(x)`)?
pub fn right_before_parenthesis(last: &Expr, rhs: &Expr) -> bool {
    matches!(&rhs.kind, ExprKind::Fenced { open, .. } if open == "(") && last.span.end == rhs.span.start
}

/// `\frac{dF}{dx}` of a letter F: (F, x).
pub fn derivative_of_letter(e: &Expr) -> Option<(&Expr, &Expr)> {
    match &e.kind {
        ExprKind::Derivative { kind: DerivativeKind::Total, of, wrt } if matches!(of.kind, ExprKind::Symbol(_)) => {
            Some((of, wrt))
        }
        _ => None,
    }
}

/// A subscripted letter applied to a parenthesis, alone or ending a product: `f_i(\mathbf x)`
/// gives (None, f_i, x), `\frac1n f_i(\mathbf x)` or `\frac1n \cdot f_i(\mathbf x)` — which
/// parse as (1/n·f_i)·(x) — gives (Some(1/n), f_i, x).
pub fn subscript_applied<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(Option<&'e Expr>, &'e Expr, &'e Expr)> {
    let member =
        |e: &Expr| matches!(&e.kind, ExprKind::Subscript { base, .. } if matches!(base.kind, ExprKind::Symbol(_)));
    head_applied(lhs, rhs, "(", &member)
}

/// A letter applied to a bracket, alone or ending a product: `f[g(x)]` gives (None, f, g(x)),
/// `2f[g(x)]` (which parses as (2·f)·[g(x)]) gives (Some(2), f, g(x)). Whether the letter is a
/// function the brackets apply is the reader's to say.
pub fn bracket_applied<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(Option<&'e Expr>, &'e Expr, &'e Expr)> {
    head_applied(lhs, rhs, "[", &|e: &Expr| matches!(e.kind, ExprKind::Symbol(_)))
}

/// A head (`is_head`) followed by a group opened with `open`, alone or ending a product: (the
/// factor before it, the head, what the group holds).
fn head_applied<'e>(
    lhs: &'e Expr,
    rhs: &'e Expr,
    open: &str,
    is_head: &dyn Fn(&Expr) -> bool,
) -> Option<(Option<&'e Expr>, &'e Expr, &'e Expr)> {
    let ExprKind::Fenced { open: opened, inner: Some(arg), .. } = &rhs.kind else { return None };
    if opened != open {
        return None;
    }
    match &lhs.kind {
        _ if is_head(lhs) => Some((None, lhs, arg)),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs: before, rhs: last } if is_head(last) => {
            Some((Some(before.as_ref()), last.as_ref(), arg.as_ref()))
        }
        _ => None,
    }
}

/// The arguments of `H(…)`: the variables, then those after `\mid` (`H(Y \mid X)`,
/// `H(X, Y \mid Z)`); `None` unless every one is a capital letter (not P or Q, the
/// distributions) and each is written once.
pub fn entropy_arguments(args: &[Expr]) -> Option<(Vec<String>, Vec<String>)> {
    let (mut of, mut given) = (Vec::new(), Vec::new());
    let variable = |e: &Expr| {
        e.symbol_key()
            .filter(|k| k.chars().next().is_some_and(|c| c.is_ascii_uppercase()) && !matches!(k.as_str(), "P" | "Q"))
    };
    for arg in args {
        match &arg.kind {
            ExprKind::Relation { chain } => {
                let first = chain.first.as_ref()?;
                if given.is_empty() {
                    of.push(variable(first)?)
                } else {
                    given.push(variable(first)?)
                }
                for link in &chain.links {
                    if link.op != RelOp::Mid || !given.is_empty() {
                        return None;
                    }
                    given.push(variable(&link.rhs)?);
                }
            }
            _ if given.is_empty() => of.push(variable(arg)?),
            _ => given.push(variable(arg)?),
        }
    }
    let mut all: Vec<&String> = of.iter().chain(&given).collect();
    let count = all.len();
    all.sort();
    all.dedup();
    (!of.is_empty() && all.len() == count).then_some((of, given))
}

/// `H(X)`, `H(Y \mid X)`, `I(X, Y)`: entropy or mutual information of random variables, as
/// the notation table reads them where the notes speak of entropy; an equation about one is a
/// claim, never its definition.
pub fn names_information_measure(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, args, postfixed: false } if information_measure(func, args).is_some())
}

/// `H` or `I` applied to random variables: the name, the variables, and those after `\mid`.
pub fn information_measure(func: &Expr, args: &[Expr]) -> Option<(String, Vec<String>, Vec<String>)> {
    let ExprKind::Symbol(s) = &func.kind else { return None };
    let plain = s.accents.is_empty() && s.label.is_none() && matches!(s.style, None | Some(Style::Roman));
    if !plain || !matches!(s.name.as_str(), "H" | "I") {
        return None;
    }
    let (of, given) = entropy_arguments(args)?;
    Some((s.name.clone(), of, given))
}

/// `p_X(x)`, `p_{X, Y}(x, y)`: the mass or density function of the random variables in the
/// subscript, applied; like `P(…)`, never defined by the notes.
pub fn names_density(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Call { func, .. } if is_density_head(func))
}

/// `p_X`, `p_{X, Y}`, `P_X`: p or P with capital letters (random variables) below, a head applied
/// to a parenthesis.
pub fn is_density_head(head: &Expr) -> bool {
    density_variables(head).is_some()
}

/// The variables below a density's head (`p_{X, Y}`: X, Y); `None` for any other head.
pub fn density_variables(head: &Expr) -> Option<Vec<String>> {
    let ExprKind::Subscript { base, index } = &head.kind else { return None };
    let p = matches!(&base.kind, ExprKind::Symbol(s) if matches!(s.name.as_str(), "p" | "P")
        && s.accents.is_empty() && s.label.is_none());
    let capital = |e: &Expr| match &e.kind {
        ExprKind::Symbol(s)
            if s.accents.is_empty()
                && s.style.is_none()
                && s.name.chars().count() == 1
                && s.name.chars().all(|c| c.is_ascii_uppercase()) =>
        {
            e.symbol_key()
        }
        _ => None,
    };
    let variables = match &index.kind {
        ExprKind::Tuple { items, stacked: false } => items.iter().map(capital).collect(),
        _ => capital(index).map(|k| vec![k]),
    };
    variables.filter(|_| p)
}

/// The cells of a matrix environment, row by row, skipping empty rows (a `\\` before
/// `\end{bmatrix}` leaves one); `None` where a cell is empty or holds more than one relation.
pub fn matrix_cells(rows: &[Vec<Option<Statement>>]) -> Option<Vec<Vec<&Expr>>> {
    rows.iter()
        .filter(|r| r.iter().any(Option::is_some))
        .map(|r| {
            r.iter()
                .map(|c| c.as_ref().filter(|s| s.chains.len() == 1).and_then(|s| s.chains[0].first.as_ref()))
                .collect()
        })
        .collect()
}

/// A word in `\text{…}` that can label a letter (`n_\text{in}`, `w_{\textrm{area}}`): letters and
/// digits only.
fn is_label_word(text: &str) -> bool {
    let word = text.trim();
    !word.is_empty() && word.chars().all(|c| c.is_alphanumeric())
}

/// `\left[ \frac{\partial E}{\partial x_i} \right]_i`: the vector whose i-th entry is the
/// bracket's content, a bracket subscripted by a lone letter its content indexes with. Gives
/// the content and the letter.
pub fn vector_builder(e: &Expr) -> Option<(&Expr, String)> {
    let ExprKind::Subscript { base, index } = &e.kind else { return None };
    let ExprKind::Fenced { open, inner: Some(inner), .. } = &base.kind else { return None };
    let [letter] = index_letters(index)?.try_into().ok()?;
    (matches!(open.as_str(), "[" | "\\left[") && indexes_by(inner, &letter)).then_some((&**inner, letter))
}

/// Is `letter` written as an index somewhere in `e`, among a subscript's index letters (`x_i`,
/// `a_{ij}`)?
pub fn indexes_by(e: &Expr, letter: &str) -> bool {
    let here = matches!(&e.kind, ExprKind::Subscript { index, .. }
        if index_letters(index).is_some_and(|l| l.iter().any(|x| x == letter)));
    here || e.children().any(|c| indexes_by(c, letter))
}

/// `n_\text{in}`, `n_\mathrm{out}`, `w_{\textrm{area}}`: a subscript that is a word, upright — a
/// label naming a letter of its own, never an index.
pub fn is_label_subscript(index: &Expr) -> bool {
    match &index.kind {
        ExprKind::Text { text } => is_label_word(text),
        ExprKind::Symbol(s) => s.accents.is_empty() && s.style == Some(Style::Roman) && s.name.chars().count() > 1,
        _ => false,
    }
}

/// Words the notation table reads as operators on random variables (`\mathrm{Var}(X)`,
/// `\textrm{Cov}(X, Y)`): an equation about them is a claim, never their definition.
pub const PROBABILITY_OPERATORS: [&str; 5] = ["Var", "Cov", "E", "Pr", "P"];

/// A word applied to a parenthesis, alone or ending a product: `\textrm{MSE}(a, b)` — which parses
/// as the text times the parenthesis — gives (None, `\operatorname{MSE}`, [a, b]); `2\textrm{MSE}(a,
/// b)` gives (Some(2), …). The word is a function only where the notes define it so.
pub fn word_applied<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(Option<&'e Expr>, String, Vec<Expr>)> {
    let ExprKind::Fenced { open, inner: Some(arg), .. } = &rhs.kind else { return None };
    if open != "(" {
        return None;
    }
    let args = match &arg.kind {
        ExprKind::Tuple { items, .. } => items.clone(),
        _ => vec![(**arg).clone()],
    };
    match &lhs.kind {
        ExprKind::Text { .. } => Some((None, lhs.word_function_key()?, args)),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs: before, rhs: last } => {
            Some((Some(before.as_ref()), last.word_function_key()?, args))
        }
        _ => None,
    }
}

/// `|`, `\lvert`, `\vert`: the delimiters that open an absolute value (of a scalar; around a
/// matrix, a determinant or a norm).
pub fn opens_absolute_value(open: &str) -> bool {
    matches!(open, "|" | "\\lvert" | "\\vert")
}

/// A derivative applied to a parenthesis, alone or ending a product: `D(arg)` gives (None, D,
/// arg), `X\,D(arg)` and `X \cdot D(arg)` — which parse as (X·D)·(arg) — give (Some(X), D, arg).
pub fn derivative_applied<'e>(lhs: &'e Expr, rhs: &'e Expr) -> Option<(Option<&'e Expr>, &'e Expr, &'e Expr)> {
    let ExprKind::Fenced { open, inner: Some(arg), .. } = &rhs.kind else { return None };
    if open != "(" {
        return None;
    }
    match &lhs.kind {
        ExprKind::Derivative { .. } => Some((None, lhs, arg)),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs: before, rhs: last }
            if matches!(last.kind, ExprKind::Derivative { .. }) =>
        {
            Some((Some(before.as_ref()), last.as_ref(), arg.as_ref()))
        }
        _ => None,
    }
}

/// `ir` -> ["i", "r"] when the subscript is a juxtaposition of letters.
pub fn index_letters(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() => Some(vec![s.to_string()]),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            let mut l = index_letters(lhs)?;
            l.extend(index_letters(rhs)?);
            Some(l)
        }
        _ => None,
    }
}

/// The key a named function has (`\operatorname{LN}`, `\mathrm{softmax}`, `\textrm{MSE}`):
/// `\operatorname{name}`.
pub fn operator_key(name: &str) -> String {
    format!("\\operatorname{{{name}}}")
}

/// The key a component-wise definition of a function at an argument gets: `\operatorname{LN}(x)`.
pub fn applied_key(name: &str, arg: &Expr) -> Option<String> {
    Some(format!("{}({})", operator_key(name), arg.symbol_key()?))
}

/// A function applied to its arguments, as a definition's left side or a call writes it — a
/// letter (`f(x)`, `\pi_1(h_1)`), a named function (`\operatorname{LN}(x)`, with no sub- or
/// superscript or prime) or a `\textrm` word (`\textrm{MSE}(a, b)`, which parses as the word times
/// the parenthesis): the function's key and the arguments. A call with a power or subscript after
/// its parentheses (`f(x)^2`) is not one.
pub fn applied_function(e: &Expr) -> Option<(String, Vec<Expr>)> {
    match &e.kind {
        ExprKind::Call { func, args, postfixed: false } => {
            Some((func.symbol_key().or_else(|| func.word_function_key())?, args.clone()))
        }
        ExprKind::Apply { func, args, parenthesized: true }
            if func.sub.is_none() && func.sup.is_none() && func.primes == 0 =>
        {
            Some((operator_key(&func.name), args.clone()))
        }
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => match word_applied(lhs, rhs)? {
            (None, key, args) => Some((key, args)),
            _ => None,
        },
        _ => None,
    }
}

/// `\max |x_i|`, `\min{x_i}`: a maximum or minimum with no index under it, of one expression
/// (not a list, `\max(a, b)`): it runs over the indices the expression leaves free. Its body.
pub fn lone_extremum(e: &Expr) -> Option<&Expr> {
    match &e.kind {
        ExprKind::BigOp { op: BigOpKind::Max | BigOpKind::Min, lower: None, body: Some(body), .. }
            if listed(body).is_none() =>
        {
            Some(body)
        }
        _ => None,
    }
}

/// `(a, b)`: a list in parentheses, the values of `\max(a, b)`. Its items.
pub fn listed(body: &Expr) -> Option<&[Expr]> {
    match &body.kind {
        ExprKind::Fenced { inner: Some(inner), .. } => match &inner.kind {
            ExprKind::Tuple { items, .. } => Some(items),
            _ => None,
        },
        _ => None,
    }
}
