//! How a formula's relations become claims: environments (`aligned`, `cases`) flattened into
//! chains, a claim's kind from its sides, and small questions about trees (does it mention a key,
//! hold some node). Pure functions; `sema` builds the claims with them.

use super::{roles, ClaimKind};
use crate::syntax::ast::{Accent, AlignedCell, BinOp, Chain, Expr, ExprKind, Link, RelOp, Span, Statement};

/// `\mathbf b_1+2\mathbf b_2=0`: a side `0` against a side written with vectors (bold letters)
/// is the zero vector of that side's shape, read as `0\cdot(\mathbf b_1+2\mathbf b_2)`.
pub(super) fn zero_of_vectors(lhs: &Expr, rhs: &Expr) -> (Expr, Expr) {
    let zero = |e: &Expr| matches!(&e.kind, ExprKind::Number { value } if value == "0");
    let vectors = |e: &Expr| contains(e, &|x| roles::is_bold(x));
    let scaled = |other: &Expr, at: Span| {
        let zero = Expr::new(ExprKind::Number { value: "0".into() }, at);
        Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(zero), rhs: Box::new(other.clone()) }, at)
    };
    match (zero(lhs), zero(rhs)) {
        (false, true) if vectors(lhs) => (lhs.clone(), scaled(lhs, rhs.span)),
        (true, false) if vectors(rhs) => (scaled(rhs, lhs.span), rhs.clone()),
        _ => (lhs.clone(), rhs.clone()),
    }
}

pub(super) fn claim_kind(lhs: &Expr, rhs: &Expr) -> ClaimKind {
    let is_derivative =
        |e: &Expr| contains(e, &|x| matches!(x.kind, ExprKind::Derivative { .. } | ExprKind::Partial { .. }));
    // (`vmatrix` bars make a determinant, a number.)
    let is_printed = |e: &Expr| matches!(&e.kind, ExprKind::Matrix { env, .. } if env != "vmatrix");
    let is_adjoint = matches!(&lhs.kind, ExprKind::Symbol(s) if s.accents.contains(&Accent::Bar))
        || matches!(&lhs.kind, ExprKind::Subscript { base, .. } if matches!(&base.kind, ExprKind::Symbol(s) if s.accents.contains(&Accent::Bar)));
    if is_printed(lhs) || is_printed(rhs) {
        ClaimKind::Printed
    } else if is_adjoint {
        ClaimKind::Adjoint
    } else if is_derivative(lhs) || is_derivative(rhs) {
        ClaimKind::Derivative
    } else {
        ClaimKind::Identity
    }
}

/// `m`, `n`: one letter, unaccented (a size or a letter a size may be said equal to).
pub(super) fn bare_letter(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.name.chars().count() == 1 && s.accents.is_empty())
}

/// Does `e` use the symbol (or name-like subscripted symbol) `key` anywhere?
pub(super) fn mentions_key(e: &Expr, key: &str) -> bool {
    match e.symbol_key() {
        Some(k) if k == key => true,
        // `W_Q` is a name: its subscript `Q` is not a use of `Q`.
        Some(_) if matches!(e.kind, ExprKind::Subscript { .. }) => false,
        _ => e.children().any(|c| mentions_key(c, key)),
    }
}

/// An expression holding relations where derivcheck reads none (inside `cases`, `array`,
/// `\text`, a matrix cell): the environment's name.
pub(super) fn nested_relations(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Matrix { env, rows }
            if rows.iter().flatten().flatten().any(|s| s.chains.iter().any(|c| !c.links.is_empty())) =>
        {
            Some(env.clone())
        }
        ExprKind::Aligned { env, .. } => Some(env.clone()),
        _ => e.children().find_map(nested_relations),
    }
}

/// `f(q,z) = q z \implies \frac{\partial f(q,z)}{\partial q} = z`: what an implication (`\implies`,
/// `\Rightarrow`, `\Longrightarrow`) joins are statements, each a chain of its own, in order: the
/// premise (a definition, a condition, or a claim, as it reads alone) and what follows from it.
/// Gives the chains, and the start of each that follows an implication. Split only where the
/// premise is an equation (`X \sim N(0,1) \Rightarrow \varphi(0) = \frac{1}{\sqrt{2\pi}}`
/// supposes what derivcheck does not read: the chain stays whole, and is not checked); a
/// chain without an implication passes through.
pub(super) fn split_at_implications(chains: Vec<Chain>) -> (Vec<Chain>, Vec<usize>) {
    let (mut out, mut follows) = (Vec::with_capacity(chains.len()), Vec::new());
    for chain in chains {
        let premise = chain.links.iter().take_while(|l| l.op != RelOp::Implies);
        let equation =
            premise.clone().count() > 0 && premise.clone().all(|l| matches!(l.op, RelOp::Eq | RelOp::Define));
        if !chain.links.iter().any(|l| l.op == RelOp::Implies) || !equation || chain.first.is_none() {
            out.push(chain);
            continue;
        }
        let pieces = split_at(chain, |op| op == RelOp::Implies);
        follows.extend(pieces.iter().skip(1).filter_map(|c| c.first.as_ref()).map(|e| e.span.start));
        out.extend(pieces);
    }
    (out, follows)
}

/// `L(\theta) - L(\theta^{(i)}) = A \ge B = C = D`: the equations of a chain that also
/// compares by size (<, ≤, >, ≥) are claims of their own — each run of `=` links between two
/// comparisons is a chain, in order (`L - L' = A`, `B = C = D`); the comparisons are not read. A
/// chain with any other relation (∼, ⊥, ≡, …), or with no equation, passes through whole; a
/// membership after its equations (`f(x) = \sin x + \cos x \in \mathcal C^\infty`) is dropped.
pub(super) fn equations_between_comparisons(chains: Vec<Chain>) -> Vec<Chain> {
    let comparison = |op: RelOp| matches!(op, RelOp::Lt | RelOp::Le | RelOp::Gt | RelOp::Ge);
    let equation = |op: RelOp| matches!(op, RelOp::Eq | RelOp::Approx | RelOp::Define);
    let mut out = Vec::with_capacity(chains.len());
    for mut chain in chains {
        // `f(x) = \sin x + \cos x \in \mathcal C^\infty`: a membership after equations says what
        // set the value lies in; the equations are read, the membership is not.
        // (Not `\in \mathbb R^{d \times d}`, which declares a shape.)
        let membership_last = chain.links.last().is_some_and(|l| l.op == RelOp::In && !names_a_real_space(&l.rhs));
        if chain.links.len() >= 2
            && membership_last
            && chain.links[..chain.links.len() - 1].iter().all(|l| equation(l.op))
        {
            chain.links.pop();
        }
        let split = chain.first.is_some()
            && chain.links.iter().all(|l| comparison(l.op) || equation(l.op))
            && chain.links.iter().any(|l| comparison(l.op))
            && chain.links.iter().any(|l| equation(l.op));
        if !split {
            out.push(chain);
            continue;
        }
        out.extend(split_at(chain, comparison).into_iter().filter(|piece| !piece.links.is_empty()));
    }
    out
}

/// `\mathbb R`, `\mathbb{R}^{n \times d}`, `\R^d`: a space of numbers, vectors or matrices.
fn names_a_real_space(e: &Expr) -> bool {
    let base = match &e.kind {
        ExprKind::Power { base, .. } => base.as_ref(),
        _ => e,
    };
    matches!(&base.kind, ExprKind::Symbol(s) if s.style == Some(crate::syntax::ast::Style::Blackboard) || s.name == "R")
}

/// `chain` cut at each link whose relation `at` accepts: the pieces in order, each from the
/// expression that link leads to (the first from the chain's first), with the links up to the
/// next cut — a piece may have none (`a \ge b \ge c`: b alone).
fn split_at(chain: Chain, at: impl Fn(RelOp) -> bool) -> Vec<Chain> {
    let mut pieces = Vec::new();
    let mut piece = Chain { first: chain.first.clone(), links: Vec::new(), span: chain.span };
    for link in chain.links {
        if !at(link.op) {
            piece.links.push(link);
            continue;
        }
        let next = Chain { first: Some(link.rhs.clone()), links: Vec::new(), span: link.rhs.span };
        pieces.push(with_own_span(std::mem::replace(&mut piece, next)));
    }
    pieces.push(with_own_span(piece));
    pieces
}

/// A chain's span from its first expression to its last.
fn with_own_span(mut chain: Chain) -> Chain {
    let start = chain.first.as_ref().map_or(chain.span.start, |e| e.span.start);
    let end = chain.links.last().map(|l| l.rhs.span.end).or(chain.first.as_ref().map(|e| e.span.end));
    chain.span = Span::new(start, end.unwrap_or(chain.span.end));
    chain
}

/// `\begin{equation}\begin{aligned}…\end{aligned}\end{equation}`: an environment whose one
/// cell holds nothing but another environment stands for that one (nested as deep as written);
/// any other chain is itself.
fn environment_within(chain: &Chain) -> &Chain {
    let Some(Expr { kind: ExprKind::Aligned { rows, .. }, .. }) = &chain.first else { return chain };
    let ([row], true) = (rows.as_slice(), chain.links.is_empty()) else { return chain };
    let [AlignedCell { statement: Some(statement), dangling: None }] = row.as_slice() else { return chain };
    match statement.chains.as_slice() {
        [inner]
            if inner.links.is_empty()
                && matches!(inner.first.as_ref().map(|e| &e.kind), Some(ExprKind::Aligned { .. })) =>
        {
            environment_within(inner)
        }
        _ => chain,
    }
}

/// The rows of an `aligned`/`align`/`gather`/`array` block as relation chains: a row starting
/// with a relation (`&= b`) continues the chain above, a row starting with `+`/`-` continues
/// the expression above (`&\quad - c`), any other row starts a new chain. A signed row with a
/// relation of its own before any `&` (`-2x + 4y &= 8`, `-5p_0 + 25p_1 = 75` under `x - 2y &= -4`)
/// is the next equation of a system, not more of the one above. Other chains pass through.
pub(super) fn flatten_environments(chains: &[Chain], tex: &str) -> Vec<Chain> {
    let mut out = Vec::new();
    for chain in chains {
        let chain = environment_within(chain);
        let rows: Vec<Vec<(Option<&Statement>, Option<RelOp>)>> = match (&chain.first, chain.links.is_empty()) {
            (Some(Expr { kind: ExprKind::Aligned { rows, .. }, .. }), true) => {
                rows.iter().map(|r| r.iter().map(|c| (c.statement.as_ref(), c.dangling)).collect()).collect()
            }
            (Some(Expr { kind: ExprKind::Matrix { env, rows }, .. }), true)
                if env == "array" && nested_relations(chain.first.as_ref().expect("matched")).is_some() =>
            {
                rows.iter().map(|r| r.iter().map(|c| (c.as_ref(), None)).collect()).collect()
            }
            _ => {
                out.push(without_item_label(chain, tex));
                continue;
            }
        };
        let mut current: Option<Chain> = None;
        let mut dangling: Option<RelOp> = None;
        for row in rows {
            // (`-2x + 4y &= 8`: the row's relation comes after its first cell.)
            let relation_after_first = row.first().is_some_and(|(_, dangling)| dangling.is_some())
                || row
                    .iter()
                    .skip(1)
                    .any(|(statement, _)| statement.and_then(|s| s.chains.first()).is_some_and(|c| c.first.is_none()));
            // (Whether a cell before this one in the row holds a relation.)
            let mut related = false;
            for (column, (statement, row_dangling)) in row.into_iter().enumerate() {
                let pieces = statement.map(|s| s.chains.as_slice()).unwrap_or_default();
                let relates = row_dangling.is_some() || pieces.iter().any(|p| !p.links.is_empty());
                for piece in pieces {
                    // `&= (\log a) e^{x \log a} && \text{Chain rule}`: words alone in a later cell
                    // say why the row holds; they are no expression of the chain (`\text{Total}
                    // &:= P + rP` names what the row defines).
                    let words = matches!(piece.first.as_ref().map(|e| &e.kind), Some(ExprKind::Text { .. }));
                    if column > 0 && words && piece.links.is_empty() && row_dangling.is_none() {
                        continue;
                    }
                    // `&= \sum_x p(x)\nabla\log p(x) f(x) & \text{use the fact that } \nabla\log z =
                    // \frac1z\nabla z`: a cell after the row's relation that opens with words is
                    // the row's reason, words and all; its formula is none of the chain's.
                    let right_side = dangling.is_some() || row_dangling.is_some();
                    if related && !right_side && piece.first.as_ref().is_some_and(opens_with_words) {
                        continue;
                    }
                    // `&\le \mathcal{L}(x^*) &(11)\\`: a number in parentheses alone in a cell after
                    // the row's relation numbers the row, as `\tag{11}` would.
                    let tag = piece.links.is_empty() && piece.first.as_ref().is_some_and(is_equation_tag);
                    if column > 0 && related && !right_side && tag {
                        continue;
                    }
                    // The TeX before and from the piece's first expression.
                    let around = piece.first.as_ref().map(|e| {
                        let at = e.span.start.min(tex.len());
                        (tex[..at].trim_end(), tex[at..].trim_start())
                    });
                    let signed = around.is_some_and(|(before, at)| {
                        at.starts_with(['+', '-', '−']) || before.ends_with(['+', '-', '−']) || at.starts_with("\\pm")
                    });
                    // (`& - r`, `&\quad + c`: written in the column of the row above.)
                    let aligned = around.is_some_and(|(before, _)| {
                        let before = before.trim_end_matches(['+', '-', '−']).trim_end();
                        before.trim_end_matches("\\qquad").trim_end_matches("\\quad").trim_end().ends_with('&')
                    });
                    match (&mut current, &piece.first, dangling.take()) {
                        (Some(c), None, _) => c.links.extend(piece.links.iter().cloned()),
                        (Some(c), Some(first), Some(op)) => {
                            c.links.push(Link { op, rhs: first.clone() });
                            c.links.extend(piece.links.iter().cloned());
                        }
                        (Some(c), Some(first), None)
                            if signed
                                && if piece.links.is_empty() {
                                    aligned || !relation_after_first
                                } else {
                                    aligned && !c.links.is_empty()
                                } =>
                        {
                            // `&\quad + c`: the expression above goes on.
                            let last = c
                                .links
                                .last_mut()
                                .map(|l| &mut l.rhs)
                                .or(c.first.as_mut())
                                .expect("a chain has an expression");
                            let (op, term) = match &first.kind {
                                ExprKind::Neg { operand } => (BinOp::Sub, (**operand).clone()),
                                _ => (BinOp::Add, first.clone()),
                            };
                            let span = Span::new(last.span.start, term.span.end);
                            *last = Expr::new(
                                ExprKind::Binary { op, lhs: Box::new(last.clone()), rhs: Box::new(term) },
                                span,
                            );
                            c.links.extend(piece.links.iter().cloned());
                        }
                        (_, Some(_), _) => {
                            if let Some(done) = current.take() {
                                out.push(done);
                            }
                            current = Some(piece.clone());
                        }
                        (None, None, _) => current = Some(piece.clone()),
                    }
                }
                if row_dangling.is_some() {
                    dangling = row_dangling;
                }
                related |= relates;
            }
        }
        out.extend(current);
    }
    out
}

/// Does `e` open with words set in `\text` (`\text{both multiply and divide by } p(x)`,
/// `\text{since } b = d`), the first factor of its product? (Not a name set in text right
/// before its parentheses, `\text{Var}(x)`.)
fn opens_with_words(e: &Expr) -> bool {
    let factors = e.implicit_factors();
    let applied = factors.get(1).is_some_and(|next| {
        matches!(&next.kind, ExprKind::Fenced { open, .. } if open == "(") && next.span.start == factors[0].span.end
    });
    matches!(&factors[0].kind, ExprKind::Text { text } if text.chars().any(char::is_alphabetic)) && !applied
}

/// `(11)`, `(3.2)`: a number in parentheses, alone, as equation numbers are written.
fn is_equation_tag(e: &Expr) -> bool {
    number_in_parentheses(e).is_some_and(|value| value.len() <= 6)
}

/// The number `e` writes alone in parentheses (`(4)`, `(3.2)`), as written.
fn number_in_parentheses(e: &Expr) -> Option<&str> {
    let ExprKind::Fenced { open, inner: Some(inner), .. } = &e.kind else { return None };
    match &inner.kind {
        ExprKind::Number { value } if open == "(" => Some(value),
        _ => None,
    }
}

/// `(4)P(A\bar B) = P(A) - P(AB)`: a number in parentheses opening the formula, right before a
/// letter or a function, numbers an item of a list (as `(1)`, `(2)` do in the prose); the chain
/// without it. (`(2)(3) = 6` keeps its factors.)
fn without_item_label(chain: &Chain, tex: &str) -> Chain {
    fn is_label(e: &Expr) -> bool {
        number_in_parentheses(e).is_some_and(|value| value.len() <= 2 && value.bytes().all(|b| b.is_ascii_digit()))
    }
    fn leftmost(e: &Expr) -> &Expr {
        match &e.kind {
            ExprKind::Binary { op: BinOp::Implicit, lhs, .. } => leftmost(lhs),
            _ => e,
        }
    }
    fn strip(e: &Expr) -> Option<Expr> {
        let ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } = &e.kind else { return None };
        if is_label(lhs) {
            let next = leftmost(rhs);
            return matches!(next.kind, ExprKind::Symbol(_) | ExprKind::Apply { .. } | ExprKind::Call { .. })
                .then(|| (**rhs).clone());
        }
        let lhs = strip(lhs)?;
        let span = Span::new(lhs.span.start, e.span.end);
        Some(Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(lhs), rhs: rhs.clone() }, span))
    }
    let Some(first) = &chain.first else { return chain.clone() };
    let opens = tex.get(..first.span.start).is_some_and(|before| before.trim().is_empty());
    match strip(first).filter(|_| opens) {
        Some(first) => Chain { first: Some(first), ..chain.clone() },
        None => chain.clone(),
    }
}

pub(super) fn contains(e: &Expr, pred: &dyn Fn(&Expr) -> bool) -> bool {
    pred(e) || e.children().any(|c| contains(c, pred))
}

/// Does `e` write the key `key` anywhere, a subscript included (the i of `x_i`)? Wider than
/// [`mentions_key`], which takes `W_Q` as a name.
pub(super) fn writes_key(e: &Expr, key: &str) -> bool {
    contains(e, &|x| x.symbol_key().is_some_and(|k| k == key))
}

/// `\text{Error}=E=\frac12\sum_i(x_i-t_i)^2`, `L = J = …`: a chain that opens with two or more
/// names (a letter, a letter with a subscript, a word in `\text`), each equal to the next, before
/// the value they name: the names, and the index of the link whose right side is that value.
/// The value writes a letter and is no constant (`\bar W_V=\bar W_O=\begin{bmatrix} 0.92 & …
/// \end{bmatrix}` prints values: claims); a name has no accent (a bar is an adjoint, or a mean,
/// whose equation is a claim). Which names the section may take as new is the caller's to say.
pub(super) fn leading_names(chain: &Chain) -> Option<(Vec<&Expr>, usize)> {
    let plain = |s: &crate::syntax::ast::Symbol| !s.is_bold_one() && s.accents.is_empty();
    let name = |e: &Expr| match &e.kind {
        ExprKind::Text { .. } => e.word_function_key().is_some(),
        ExprKind::Symbol(s) => plain(s),
        ExprKind::Subscript { base, .. } => matches!(&base.kind, ExprKind::Symbol(s) if plain(s)),
        _ => false,
    };
    let letter = |e: &Expr| matches!(e.kind, ExprKind::Symbol(_));
    let value = |e: &Expr| !roles::is_constant(e, &|_| false) && contains(e, &letter);
    let first = chain.first.as_ref()?;
    let mut names = vec![first];
    for (k, link) in chain.links.iter().enumerate() {
        if link.op != RelOp::Eq {
            return None;
        }
        if !name(&link.rhs) {
            return (names.len() >= 2 && value(&link.rhs)).then_some((names, k));
        }
        names.push(&link.rhs);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::{parse_formula, print};

    #[test]
    fn environments_become_one_chain_per_relation_row() {
        let cases: &[(&str, &[&str])] = &[
            (r"a = b = c", &["a = b = c"]),
            (r"\begin{aligned} x &= y + z \\ &= z + y \end{aligned}", &["x = y+z = z+y"]),
            (r"\begin{aligned} u &= 1 \\ v &= 2 \end{aligned}", &["u = 1", "v = 2"]),
            (r"\begin{aligned} p &= q \\ & + r \end{aligned}", &["p = q+r"]),
            (r"\begin{aligned} p &= q \\ & - r = s \end{aligned}", &["p = q-r = s"]),
            // A system of equations: a signed row with a relation of its own is the next one.
            (
                r"\begin{aligned} x - 2y &= -4 \\ -2x + 4y &= 8 \end{aligned}",
                &[r"x-2\cdot y = -4", r"-2\cdot x+4\cdot y = 8"],
            ),
            (r"\begin{aligned} a - b = 1 \\ -a + 2b = 3 \end{aligned}", &["a-b = 1", r"-a+2\cdot b = 3"]),
            // A cell after the row's relation that opens with words is the row's reason.
            (r"\begin{align} a &= b & \text{by one fact } c \\ &= d & \text{since } b = d \end{align}", &["a = b = d"]),
            // (Not the right side of a relation the row's first cell leaves open.)
            (r"\begin{aligned} x &= y \\ =& \text{by}\, z \end{aligned}", &[r"x = y = \text{by}\cdot z"]),
        ];
        for (tex, want) in cases {
            let statement = parse_formula(tex).unwrap();
            let got: Vec<String> = flatten_environments(&statement.chains, tex)
                .iter()
                .map(|c| {
                    let sides: Vec<String> = c.exprs().map(|e| print::explicit_tex(e, &|_| false)).collect();
                    sides.join(" = ")
                })
                .collect();
            assert_eq!(got, *want, "{tex}");
        }
    }

    #[test]
    fn the_kind_of_a_claim_comes_from_its_sides() {
        let cases = [
            (r"\frac{d}{dx}x^2 = 2x", ClaimKind::Derivative),
            (r"\bar Y = X", ClaimKind::Adjoint),
            (r"A = \begin{bmatrix}1 & 2\end{bmatrix}", ClaimKind::Printed),
            (r"(a+b)^2 = a^2+2ab+b^2", ClaimKind::Identity),
        ];
        for (tex, want) in cases {
            let chain = &parse_formula(tex).unwrap().chains[0];
            let (lhs, rhs) = (chain.first.as_ref().unwrap(), &chain.links[0].rhs);
            assert_eq!(claim_kind(lhs, rhs), want, "{tex}");
        }
    }
}
