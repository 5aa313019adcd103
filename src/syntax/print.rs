//! A compact S-expression rendering of the tree, for `derivcheck formulas --ast` and for tests;
//! and the tree printed back as TeX with every operation explicit ([`explicit_tex`]).

use super::ast::*;

pub fn statement(s: &Statement) -> String {
    s.chains.iter().map(chain).collect::<Vec<_>>().join(" ; ")
}

pub fn chain(c: &Chain) -> String {
    let mut parts: Vec<String> = Vec::new();
    if let Some(first) = &c.first {
        parts.push(expr(first));
    }
    if c.links.is_empty() {
        return parts.pop().unwrap_or_default();
    }
    let same_op = c.links.iter().all(|l| l.op == c.links[0].op);
    if same_op {
        parts.extend(c.links.iter().map(|l| expr(&l.rhs)));
        let lead = if c.first.is_none() { " _" } else { "" };
        return format!("({}{} {})", relop(c.links[0].op), lead, parts.join(" "));
    }
    for l in &c.links {
        parts.push(relop(l.op).to_string());
        parts.push(expr(&l.rhs));
    }
    format!("(rel {})", parts.join(" "))
}

fn relop(op: RelOp) -> &'static str {
    match op {
        RelOp::Eq => "=",
        RelOp::Define => ":=",
        RelOp::Ne => "!=",
        RelOp::Lt => "<",
        RelOp::Le => "<=",
        RelOp::Gt => ">",
        RelOp::Ge => ">=",
        RelOp::Approx => "approx",
        RelOp::Equiv => "equiv",
        RelOp::Sim => "sim",
        RelOp::Propto => "propto",
        RelOp::In => "in",
        RelOp::NotIn => "notin",
        RelOp::Subset => "subset",
        RelOp::To => "->",
        RelOp::Assign => "<-",
        RelOp::Implies => "=>",
        RelOp::Iff => "<=>",
        RelOp::Mid => "mid",
        RelOp::MuchLess => "<<",
        RelOp::MuchGreater => ">>",
        RelOp::Colon => ":",
        RelOp::LessApprox => "lessapprox",
        RelOp::GreaterApprox => "gtrapprox",
        RelOp::Succeq => "succeq",
        RelOp::Preceq => "preceq",
        RelOp::Simeq => "simeq",
        RelOp::Perp => "perp",
        RelOp::Parallel => "parallel",
        RelOp::Ni => "ni",
        RelOp::Supset => "supset",
    }
}

fn binop(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::PlusMinus => "+-",
        BinOp::DirectSum => "oplus",
        BinOp::Implicit => "*",
        BinOp::Cdot => "cdot",
        BinOp::Times => "times",
        BinOp::Hadamard => "odot",
        BinOp::Otimes => "otimes",
        BinOp::Compose => "circ",
        BinOp::Div => "/",
        BinOp::Intersection => "cap",
        BinOp::Union => "cup",
        BinOp::SetMinus => "setminus",
    }
}

fn opt(e: &Option<Box<Expr>>) -> String {
    e.as_deref().map(expr).unwrap_or_else(|| "_".to_string())
}

fn rows(rows: &[Vec<Option<Statement>>]) -> String {
    rows.iter()
        .map(|r| {
            let cells: Vec<String> =
                r.iter().map(|c| c.as_ref().map(statement).unwrap_or_else(|| "_".into())).collect();
            format!("[{}]", cells.join(" & "))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn aligned_rows(rows: &[Vec<AlignedCell>]) -> String {
    let cell = |c: &AlignedCell| {
        let body = c.statement.as_ref().map(statement).unwrap_or_default();
        match c.dangling {
            Some(op) => format!("{body} {}", relop(op)).trim().to_string(),
            None => {
                if body.is_empty() {
                    "_".into()
                } else {
                    body
                }
            }
        }
    };
    rows.iter()
        .map(|r| format!("[{}]", r.iter().map(cell).collect::<Vec<_>>().join(" & ")))
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn expr(e: &Expr) -> String {
    use ExprKind::*;
    match &e.kind {
        Number { value } => value.clone(),
        Symbol(s) => s.to_string(),
        Ellipsis => "...".into(),
        Text { text } => format!("(text {text:?})"),
        Empty => "{}".into(),
        Neg { operand } => format!("(neg {})", expr(operand)),
        Binary { op, lhs, rhs } => format!("({} {} {})", binop(*op), expr(lhs), expr(rhs)),
        Frac { num, den } => format!("(frac {} {})", expr(num), expr(den)),
        Sqrt { index: None, radicand } => format!("(sqrt {})", expr(radicand)),
        Sqrt { index: Some(i), radicand } => format!("(root {} {})", expr(i), expr(radicand)),
        Power { base, exponent } => format!("(^ {} {})", expr(base), expr(exponent)),
        Subscript { base, index } => format!("(_ {} {})", expr(base), expr(index)),
        Transpose { operand } => format!("(T {})", expr(operand)),
        Prime { operand } => format!("(prime {})", expr(operand)),
        BigOp { op, lower, upper, body } => {
            format!("({} {} {} {})", op.name(), opt(lower), opt(upper), opt(body))
        }
        Apply { func, args, .. } => {
            let mut head = format!("{}{}", func.name, "'".repeat(func.primes));
            if let Some(s) = &func.sub {
                head = format!("(_ {head} {})", expr(s));
            }
            if let Some(s) = &func.sup {
                head = format!("(^ {head} {})", expr(s));
            }
            let args: Vec<String> = args.iter().map(expr).collect();
            format!("(apply {head} {})", args.join(" "))
        }
        Call { func, args, .. } => {
            format!("(call {} {})", expr(func), args.iter().map(expr).collect::<Vec<_>>().join(" "))
        }
        Partial { order, operand } => format!("(partial {} {})", opt(order), opt(operand)),
        Differential { operand } => format!("(d {})", expr(operand)),
        Derivative { kind, of, wrt } => {
            let name = match kind {
                DerivativeKind::Partial => "deriv",
                DerivativeKind::Total => "dderiv",
                DerivativeKind::Gradient => "grad",
            };
            format!("({name} {} {})", expr(of), expr(wrt))
        }
        Fenced { open, close, inner } => format!("(fenced {open}{close} {})", opt(inner)),
        Abs { operand } => format!("(abs {})", expr(operand)),
        Norm { operand } => format!("(norm {})", expr(operand)),
        Tuple { items, stacked } => {
            let word = if *stacked { "stacked" } else { "tuple" };
            format!("({word} {})", items.iter().map(expr).collect::<Vec<_>>().join(" "))
        }
        Relation { chain: c } => chain(c),
        Statement { statement: s } => format!("(statement {})", statement(s)),
        Matrix { env, rows: r } => format!("({env} {})", rows(r)),
        Aligned { env, rows: r } => format!("({env} {})", aligned_rows(r)),
        Accent { accent, operand } => format!("({} {})", accent.command(), expr(operand)),
        Styled { style, operand } => format!("({} {})", style.command(), expr(operand)),
    }
}

/// A claim's sides printed back as TeX with every operation explicit, as derivcheck read them:
/// `a_j\cdot a_k`, `Z^{\top}\cdot\bar{R}`, `\operatorname{diag}\left(p\right)`. `is_function`
/// says whether a symbol written before parentheses is applied (`f(x)`) or multiplied
/// (`x\cdot(1-x)`). For the report's "what derivcheck understood".
pub fn explicit_tex(e: &Expr, is_function: &dyn Fn(&str) -> bool) -> String {
    Explicit { is_function }.expr(e)
}

struct Explicit<'a> {
    is_function: &'a dyn Fn(&str) -> bool,
}

impl Explicit<'_> {
    /// An index (or a sum's range) of letters and numbers side by side, `ij`, `ir`: each its own
    /// index, as derivcheck reads them — `i,j`, never the product `i\cdot j`.
    fn indices(&self, index: &Expr) -> String {
        let parts = index.implicit_factors();
        let atoms =
            parts.len() > 1 && parts.iter().all(|p| matches!(p.kind, ExprKind::Symbol(_) | ExprKind::Number { .. }));
        if atoms {
            parts.iter().map(|p| self.expr(p)).collect::<Vec<_>>().join(",")
        } else {
            self.expr(index)
        }
    }

    fn expr(&self, e: &Expr) -> String {
        use ExprKind::*;
        let x = |e: &Expr| self.expr(e);
        match &e.kind {
            Number { value } => value.clone(),
            Symbol(s) => s.to_string(),
            Ellipsis => "\\dots".into(),
            Text { text } => format!("\\text{{{text}}}"),
            Empty => "{}".into(),
            Neg { operand } => format!("-{}", self.grouped(operand, 2)),
            // `E[X]`, `\mathrm{Var}(X)`: an operator and its bracket, as written.
            // (`a\textrm{Cov}(X, X)`: the operator may end a product.)
            Binary { op: BinOp::Implicit, lhs, rhs }
                if moment_operator(super::ast::last_factor(lhs)) && matches!(rhs.kind, Fenced { .. }) =>
            {
                format!("{}{}", x(lhs), x(rhs))
            }
            // `f_i(\mathbf x)` of a family of functions, `P(X, Y)` of a claim about probabilities,
            // `f(y)` of a function nobody specified: applied, not multiplied (where the caller says
            // the letter is a function).
            Binary { op: BinOp::Implicit, lhs, rhs }
                if matches!(&rhs.kind, Fenced { open, inner: Some(_), .. } if open == "(")
                    && head_letter(lhs).is_some_and(|k| (self.is_function)(&k)) =>
            {
                let Fenced { inner: Some(inner), .. } = &rhs.kind else { unreachable!("matched above") };
                format!("{}\\left({}\\right)", x(lhs), x(inner))
            }
            Binary { op, lhs, rhs } => {
                let level = precedence(*op);
                let right_level = if matches!(op, BinOp::Sub | BinOp::Div) { level + 1 } else { level };
                format!("{}{}{}", self.grouped(lhs, level), explicit_op(*op), self.grouped(rhs, right_level))
            }
            Frac { num, den } => format!("\\frac{{{}}}{{{}}}", x(num), x(den)),
            Sqrt { index: None, radicand } => format!("\\sqrt{{{}}}", x(radicand)),
            Sqrt { index: Some(i), radicand } => format!("\\sqrt[{}]{{{}}}", x(i), x(radicand)),
            Power { base, exponent } => format!("{{{}}}^{{{}}}", self.grouped(base, 4), x(exponent)),
            Subscript { base, index } => format!("{{{}}}_{{{}}}", self.grouped(base, 4), self.indices(index)),
            Transpose { operand } => format!("{{{}}}^{{\\top}}", self.grouped(operand, 4)),
            Prime { operand } => format!("{{{}}}'", self.grouped(operand, 4)),
            BigOp { op, lower, upper, body } => {
                let mut out = match op {
                    BigOpKind::Named(name) => format!("\\operatorname*{{{name}}}"),
                    BigOpKind::Argmax | BigOpKind::Argmin => format!("\\operatorname*{{{}}}", op.name()),
                    _ => format!("\\{}", op.name()),
                };
                if let Some(l) = lower {
                    out.push_str(&format!("_{{{}}}", self.indices(l)));
                }
                if let Some(u) = upper {
                    out.push_str(&format!("^{{{}}}", x(u)));
                }
                if let Some(b) = body {
                    out.push_str(&format!(" {}", self.grouped(b, 2)));
                }
                out
            }
            Apply { func, args, .. } if func.name == super::ast::BINOMIAL && args.len() == 2 && func.primes == 0 => {
                format!("\\binom{{{}}}{{{}}}", x(&args[0]), x(&args[1]))
            }
            Apply { func, args, .. } if func.name == super::ast::FACTORIAL && args.len() == 1 => {
                format!("{}!", self.grouped(&args[0], 4))
            }
            Apply { func, args, .. } => {
                let mut head = format!("\\operatorname{{{}}}{}", func.name, "'".repeat(func.primes));
                if let Some(s) = &func.sub {
                    head = format!("{head}_{{{}}}", x(s));
                }
                if let Some(s) = &func.sup {
                    head = format!("{head}^{{{}}}", x(s));
                }
                format!("{head}\\left({}\\right)", args.iter().map(x).collect::<Vec<_>>().join(", "))
            }
            Call { func, args, .. } => {
                let head = match &func.kind {
                    Prime { operand } => operand.as_ref(),
                    _ => func.as_ref(),
                };
                let args = args.iter().map(x).collect::<Vec<_>>().join(", ");
                if head.symbol_key().is_some_and(|k| (self.is_function)(&k)) {
                    format!("{}\\left({args}\\right)", x(func))
                } else {
                    format!("{}\\cdot\\left({args}\\right)", x(func))
                }
            }
            Partial { order, operand } => {
                let order = order.as_deref().map(|o| format!("^{{{}}}", x(o))).unwrap_or_default();
                format!("\\partial{order} {}", operand.as_deref().map(x).unwrap_or_default())
            }
            // (`d(e^x)` keeps its parentheses: `\mathrm{d}{e}^{x}` would read as (de)^x.)
            Differential { operand } => match &operand.kind {
                ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Fenced { .. } => {
                    format!("\\mathrm{{d}}{}", self.expr(operand))
                }
                _ => format!("\\mathrm{{d}}\\left({}\\right)", self.expr(operand)),
            },
            Derivative { kind, of, wrt } => {
                let (d, of) = (derivative_symbol(kind), self.grouped(of, 4));
                match kind {
                    DerivativeKind::Gradient => format!("\\nabla_{{{}}} {of}", x(wrt)),
                    _ => format!("\\frac{{{d}}}{{{d} {}}} {of}", self.grouped(wrt, 4)),
                }
            }
            Fenced { open, close, inner } => {
                let inner = inner.as_deref().map(x).unwrap_or_default();
                format!("\\left{}{inner}\\right{}", delimiter(open), delimiter(close))
            }
            Abs { operand } => format!("\\left|{}\\right|", x(operand)),
            Norm { operand } => format!("\\left\\|{}\\right\\|", x(operand)),
            Tuple { items, stacked } => {
                items.iter().map(x).collect::<Vec<_>>().join(if *stacked { "; " } else { ", " })
            }
            Relation { chain: c } => self.chain(c),
            Statement { statement: s } => s.chains.iter().map(|c| self.chain(c)).collect::<Vec<_>>().join(",\\quad "),
            Matrix { env, rows } => {
                let env = if env.ends_with("matrix") { env.as_str() } else { "matrix" };
                let rows: Vec<String> = rows
                    .iter()
                    .map(|r| {
                        r.iter()
                            .map(|c| {
                                c.as_ref()
                                    .map(|s| s.chains.iter().map(|c| self.chain(c)).collect::<Vec<_>>().join(", "))
                                    .unwrap_or_default()
                            })
                            .collect::<Vec<_>>()
                            .join(" & ")
                    })
                    .collect();
                format!("\\begin{{{env}}}{}\\end{{{env}}}", rows.join(" \\\\ "))
            }
            Aligned { .. } => "\\dots".into(),
            Accent { accent, operand } => format!("\\{}{{{}}}", accent.command(), x(operand)),
            Styled { style, operand } => format!("\\{}{{{}}}", style.command(), x(operand)),
        }
    }

    fn chain(&self, c: &Chain) -> String {
        let mut out = c.first.as_ref().map(|e| self.expr(e)).unwrap_or_default();
        for link in &c.links {
            out.push_str(&format!(" {} {}", relation_tex(link.op), self.expr(&link.rhs)));
        }
        out
    }

    /// `e`, in `\left(…\right)` when its operator binds more loosely than `level`.
    fn grouped(&self, e: &Expr, level: u8) -> String {
        let own = match &e.kind {
            ExprKind::Binary { op, .. } => precedence(*op),
            ExprKind::Neg { .. } => 2,
            ExprKind::BigOp { .. } | ExprKind::Derivative { .. } => 1,
            ExprKind::Frac { .. } if level >= 4 => 3,
            _ => 5,
        };
        let text = self.expr(e);
        if own < level {
            format!("\\left({text}\\right)")
        } else {
            text
        }
    }
}

/// `E`, `\mathbb E`, `\mathrm{Var}`, `\textrm{Cov}`: a name that takes a bracket as its argument.
fn moment_operator(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => matches!(s.name.as_str(), "E" | "Var" | "Cov") && s.accents.is_empty(),
        ExprKind::Text { text } => matches!(text.trim(), "E" | "Var" | "Cov"),
        _ => false,
    }
}

/// The letter a head before a parenthesis names: its own (`P`, `f`) or its base's (`f_i`).
fn head_letter(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Subscript { base, .. } => base.symbol_key(),
        ExprKind::Symbol(_) => e.symbol_key(),
        _ => None,
    }
}

/// 1: + and −; 2: products; 3: ⊗ and ∘.
fn precedence(op: BinOp) -> u8 {
    match op {
        BinOp::Add | BinOp::Sub | BinOp::PlusMinus | BinOp::DirectSum => 1,
        BinOp::Implicit | BinOp::Cdot | BinOp::Times | BinOp::Hadamard | BinOp::Div => 2,
        BinOp::Otimes | BinOp::Compose => 3,
        BinOp::Intersection | BinOp::Union | BinOp::SetMinus => 2,
    }
}

fn explicit_op(op: BinOp) -> &'static str {
    match op {
        BinOp::Add => "+",
        BinOp::Sub => "-",
        BinOp::PlusMinus => "\\pm ",
        BinOp::DirectSum => "\\oplus ",
        BinOp::Implicit | BinOp::Cdot => "\\cdot ",
        BinOp::Times => "\\times ",
        BinOp::Hadamard => "\\odot ",
        BinOp::Otimes => "\\otimes ",
        BinOp::Compose => "\\circ ",
        BinOp::Div => "/",
        BinOp::Intersection => "\\cap ",
        BinOp::Union => "\\cup ",
        BinOp::SetMinus => "\\setminus ",
    }
}

fn derivative_symbol(kind: &DerivativeKind) -> &'static str {
    match kind {
        DerivativeKind::Partial => "\\partial",
        _ => "\\mathrm{d}",
    }
}

fn delimiter(d: &str) -> String {
    match d {
        "{" => "\\{".into(),
        "}" => "\\}".into(),
        "" => ".".into(),
        other => other.to_string(),
    }
}

pub fn relation_tex(op: RelOp) -> &'static str {
    match op {
        RelOp::Eq => "=",
        RelOp::Define => ":=",
        RelOp::Approx => "\\approx",
        RelOp::Ne => "\\ne",
        RelOp::Lt => "<",
        RelOp::Le => "\\le",
        RelOp::Gt => ">",
        RelOp::Ge => "\\ge",
        RelOp::In => "\\in",
        RelOp::NotIn => "\\notin",
        RelOp::Equiv => "\\equiv",
        RelOp::Sim => "\\sim",
        RelOp::Propto => "\\propto",
        RelOp::Subset => "\\subset",
        RelOp::To => "\\to",
        RelOp::Assign => "\\leftarrow",
        RelOp::Implies => "\\implies",
        RelOp::Iff => "\\iff",
        RelOp::Mid => "\\mid",
        RelOp::MuchLess => "\\ll",
        RelOp::MuchGreater => "\\gg",
        RelOp::Colon => ":",
        RelOp::LessApprox => "\\lessapprox",
        RelOp::GreaterApprox => "\\gtrapprox",
        RelOp::Succeq => "\\succeq",
        RelOp::Preceq => "\\preceq",
        RelOp::Simeq => "\\simeq",
        RelOp::Perp => "\\perp",
        RelOp::Parallel => "\\parallel",
        RelOp::Ni => "\\ni",
        RelOp::Supset => "\\supset",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn explicit(tex: &str) -> String {
        let statement = crate::syntax::parse_formula(tex).expect("parses");
        explicit_tex(statement.chains[0].first.as_ref().expect("an expression"), &|_| false)
    }

    #[test]
    fn a_moment_operator_is_applied_also_at_the_end_of_a_product() {
        assert_eq!(explicit(r"\textrm{Var}(X)"), r"\text{Var}\left(X\right)");
        let printed = explicit(r"a\textrm{Cov}(X, X)");
        assert!(printed.ends_with(r"\text{Cov}\left(X, X\right)"), "{printed}");
        // Other products keep their explicit dot.
        assert!(explicit(r"a(b+c)").contains(r"\cdot"));
    }
}
