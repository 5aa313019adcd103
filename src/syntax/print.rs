//! A compact S-expression rendering of the tree, for `derivcheck formulas --ast` and for tests.

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
        RelOp::Implies => "=>",
        RelOp::Iff => "<=>",
        RelOp::Mid => "mid",
        RelOp::MuchLess => "<<",
        RelOp::MuchGreater => ">>",
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
        Tuple { items } => format!("(tuple {})", items.iter().map(expr).collect::<Vec<_>>().join(" ")),
        Relation { chain: c } => chain(c),
        Statement { statement: s } => format!("(statement {})", statement(s)),
        Matrix { env, rows: r } => format!("({env} {})", rows(r)),
        Aligned { env, rows: r } => format!("({env} {})", aligned_rows(r)),
        Accent { accent, operand } => format!("({} {})", accent.command(), expr(operand)),
        Styled { style, operand } => format!("({} {})", style.command(), expr(operand)),
    }
}
