//! The forms of expressions and chains sema asks about (a picture of a matrix, an update step,
//! a letter's family): pure functions of the syntax tree.

use super::chains::mentions_key;
use super::roles;

use crate::syntax::ast::{BinOp, Chain, Expr, ExprKind, RelOp, Statement};
use crate::syntax::print;
use std::collections::{BTreeMap, BTreeSet};

/// Does a definition written inside a worked example hold for the example only? A letter given
/// a value does; a function (`f(x) = x^2` for the rest of the section's steps) or a matrix given
/// by its entries stays the section's, as a definition outside an example would.
pub(super) fn example_scoped(function: bool, body: &Expr) -> bool {
    !function && !has_matrix(body)
}

/// Does `e` write a matrix (`\begin{bmatrix} … \end{bmatrix}`) anywhere?
pub(super) fn has_matrix(e: &Expr) -> bool {
    matches!(e.kind, ExprKind::Matrix { .. }) || e.children().any(has_matrix)
}

/// Greek letter names (`\lambda`): letters, unlike `\emptyset` or `\infty`.
pub(super) const GREEK_LETTERS: [&str; 40] = [
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

/// A number, or a matrix of numbers (`0.25`, `-1`, `\begin{bmatrix}0.1&0.2\end{bmatrix}`).
pub(super) fn numbers_only(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => numbers_only(operand),
        ExprKind::Matrix { .. } => e.children().all(numbers_only),
        _ => false,
    }
}

/// `\phi_i(x)`, `f_k(x, y)`: a subscripted letter applied to plain letters other than its
/// index — the left side of a definition of a family of functions; gives the letter (`\phi`).
pub(super) fn family_of_functions_defined(e: &Expr) -> Option<String> {
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

/// Does `body` write the family `head` only as members other than the one `member` applies
/// (`f_{m-1}(x)` in the body of `f_m(x)`), never bare nor as that member?
pub(super) fn only_other_members(body: &Expr, head: &str, member: &Expr) -> bool {
    let ExprKind::Binary { lhs, .. } = &member.kind else { return false };
    let Some(own) = lhs.symbol_key() else { return false };
    fn walk(e: &Expr, head: &str, own: &str, other: &mut bool) -> bool {
        if let ExprKind::Subscript { base, .. } = &e.kind {
            if base.symbol_key().as_deref() == Some(head) {
                let key = e.symbol_key();
                *other |= key.as_deref() != Some(own);
                return key.as_deref() != Some(own);
            }
        }
        if e.symbol_key().as_deref() == Some(head) && matches!(e.kind, ExprKind::Symbol(_)) {
            return false;
        }
        e.children().all(|c| walk(c, head, own, other))
    }
    let mut other = false;
    walk(body, head, &own, &mut other) && other
}

/// `x = x^c`, `y = \sum_i d_i y_i^2`, `a_j = \sum_{i \ne j} x_i a_i`: the left side is a letter
/// (or a member of a family) that the right side uses again, itself, another member of its family,
/// or its entries. The letter as written on the left.
pub(super) fn self_referent(lhs: &Expr, rhs: &Expr) -> Option<String> {
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
pub(super) fn update_step(lhs: &Expr, rhs: &Expr) -> Option<String> {
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
pub(super) fn monomial_of(e: &Expr, free: &dyn Fn(&str) -> bool) -> bool {
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
pub(super) fn applied_to(e: &Expr, u: &str) -> bool {
    match &e.kind {
        _ if e.symbol_key().as_deref() == Some(u) => true,
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } => !mentions_key(lhs, u) && applied_to(rhs, u),
        ExprKind::Neg { operand } => applied_to(operand, u),
        _ => false,
    }
}

/// Does `e` write a letter that `given` does not know (an entry `x_1` of a known x is known,
/// unless x is only a `number` bound for a sentence)?
pub(super) fn has_free_letter(e: &Expr, given: &dyn Fn(&str) -> bool, number: &dyn Fn(&str) -> bool) -> bool {
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
pub(super) fn depicts_a_general_matrix(e: &Expr) -> bool {
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
pub(super) fn family_member(key: &str) -> Option<&str> {
    let (base, index) = key.rsplit_once('_')?;
    let letter = index.chars().count() == 1 && index.chars().all(|c| c.is_ascii_lowercase());
    (letter && !base.is_empty() && !base.contains('_')).then_some(base)
}

/// `\begin{bmatrix}\mathbf a_1^\top \\ \vdots \\ \mathbf a_m^\top\end{bmatrix}`, `\begin{bmatrix}\mathbf
/// b_1 & \cdots & \mathbf b_n\end{bmatrix}`: a matrix pictured by its rows or columns, members of a
/// bold family — it is made of them (a value in those letters), where a picture by entries only
/// names them.
pub(super) fn depicts_blocks(e: &Expr) -> bool {
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

/// A number, or a number negated (`2`, `-0.5`).
pub(super) fn value_is_number(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number { .. } => true,
        ExprKind::Neg { operand } => value_is_number(operand),
        _ => false,
    }
}

/// `\exp(x)`, `\mathrm{softmax}(z)`: a function the notation table knows, applied; the notes
/// never define it.
pub(super) fn names_a_builtin(target: &Expr) -> bool {
    use crate::syntax::ast::{BINOMIAL, FACTORIAL};
    matches!(&target.kind, ExprKind::Apply { func, .. }
        if crate::notation::is_builtin(&func.name) || [BINOMIAL, FACTORIAL].contains(&func.name.as_str()))
}

/// The letter a signature names a function (`f: \mathbb{R}^d \to \mathbb{R}`): its key.
pub(super) fn signature_of(chain: &Chain) -> Option<String> {
    let signature = matches!(chain.links.first(), Some(l) if l.op == RelOp::Colon);
    chain.first.as_ref().filter(|e| signature && matches!(e.kind, ExprKind::Symbol(_)))?.symbol_key()
}

/// Keys of bold letters written with a subscript (`\mathbf x_i`: x names a family of vectors).
pub(super) fn collect_bold_bases(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
    if let ExprKind::Subscript { base, .. } = &e.kind {
        if roles::is_bold(base) {
            out.extend(base.symbol_key());
        }
    }
    e.children().for_each(|c| collect_bold_bases(c, out));
}

/// Every symbol key an expression writes (`x`, `x_i`, `W_Q`).
pub(super) fn collect_keys(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
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

/// The letters a formula writes bold (`\mathbf w`, `\boldsymbol x_i`) and those it writes plain
/// (`w`, `x_i`), by key, into `bold` and `plain`.
pub(super) fn letters_by_weight(
    e: &Expr,
    bold: &mut std::collections::BTreeSet<String>,
    plain: &mut std::collections::BTreeSet<String>,
) {
    if let ExprKind::Symbol(s) = &e.kind {
        let into = if s.style == Some(crate::syntax::ast::Style::Bold) { &mut *bold } else { &mut *plain };
        into.insert(s.key());
    }
    e.children().for_each(|c| letters_by_weight(c, bold, plain));
}

/// Every symbol key a chain writes ([`collect_keys`] of each of its expressions).
pub(super) fn chain_keys(chain: &Chain) -> std::collections::BTreeSet<String> {
    let mut keys = std::collections::BTreeSet::new();
    chain.exprs().for_each(|e| collect_keys(e, &mut keys));
    keys
}

/// Keys of symbols written as values (`x` in `x^2`, `ab`), not as the head of `x(…)`.
pub(super) fn is_bare_symbol(chain: &Chain) -> bool {
    chain.links.is_empty() && chain.first.as_ref().is_some_and(|e| matches!(e.kind, ExprKind::Symbol(_)))
}

/// `p_X(x) = <formula>`, `P(X = 1, Y = -1) = \frac{p}{2}`: a probability or density of random
/// variables set equal to a formula that speaks of no probability (nor is a number, which a worked
/// example may compute): the text gives the distribution.
pub(super) fn gives_a_distribution(target: &Expr, body: &Expr) -> bool {
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
pub(super) fn is_event(chain: &Chain) -> bool {
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
pub(super) fn alternative_definitions(equations: &[&Chain], tex: &str) -> BTreeSet<usize> {
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

/// `\frac{1}{\sigma_1}\mathbf A\mathbf v_1`, then the next link's `\frac{1}{\sqrt6}[…][…]`: the
/// values the next link writes for the letters of this side, where the two are the same expression
/// but for letters replaced by numbers (or matrices of numbers). Each letter with its value; none
/// where the sides differ otherwise, or no letter is replaced.
pub(super) fn values_written_next(side: &Expr, next: &Expr) -> Option<Vec<(String, Expr)>> {
    fn unify(a: &Expr, b: &Expr, out: &mut Vec<(String, Expr)>) -> bool {
        let letter =
            matches!(a.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. }).then(|| a.symbol_key()).flatten();
        let value = roles::is_number_matrix(b) || roles::is_constant(b, &|_| false);
        if let (Some(key), true) = (letter, value) {
            if let Some((_, earlier)) = out.iter().find(|(k, _)| *k == key) {
                return print::expr(earlier) == print::expr(b);
            }
            out.push((key, b.clone()));
            return true;
        }
        if !same_node(a, b) {
            return false;
        }
        let (left, right): (Vec<&Expr>, Vec<&Expr>) = (a.children().collect(), b.children().collect());
        if left.is_empty() {
            return print::expr(a) == print::expr(b);
        }
        left.into_iter().zip(right).all(|(x, y)| unify(x, y, out))
    }
    let mut out = Vec::new();
    (unify(side, next, &mut out) && !out.is_empty()).then_some(out)
}

/// Are `a` and `b` the same kind of node, with the same operator or function and as many
/// children, whatever those children are (for walking two expressions side by side)?
fn same_node(a: &Expr, b: &Expr) -> bool {
    let same_kind = std::mem::discriminant(&a.kind) == std::mem::discriminant(&b.kind)
        && match (&a.kind, &b.kind) {
            (ExprKind::Binary { op: x, .. }, ExprKind::Binary { op: y, .. }) => x == y,
            (ExprKind::Apply { func: f, .. }, ExprKind::Apply { func: g, .. }) => f.name == g.name,
            _ => true,
        };
    same_kind && a.children().count() == b.children().count()
}

/// `\frac{\partial E}{\partial y_i}\frac{\partial y_i}{\partial x_i} = \delta y_i \frac{\partial
/// y_i}{\partial x_i}`: the step writes the expression before it with one part replaced by a
/// name `is_new` accepts (a letter the text has not written), wherever that part stands. The
/// name as written, and the part it stands for; `None` where the two differ otherwise.
pub(super) fn named_by_substitution<'a>(
    before: &'a Expr,
    after: &'a Expr,
    is_new: &dyn Fn(&Expr) -> bool,
) -> Option<(&'a Expr, &'a Expr)> {
    let tex = |e: &Expr| print::explicit_tex(e, &|_| false);
    let (part, name) = single_difference(before, after, is_new, &tex).ok()??;
    // (A whole side renamed, `A^{-1}A = I`, may be a name the reader knows, the identity: only
    // a part renamed among what stays is a name introduced.)
    let whole = std::ptr::eq(name, after);
    // (A derivative renamed, the gradient a backward pass carries: `\delta y_i`, `J` for
    // `\frac{\partial F}{\partial \rho}`. Any other part may be a value the text gives the
    // letter elsewhere, `y_c` for `\varsigma(\mathbf z)_c`, read here in another way.)
    fn derivative(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Derivative { .. } | ExprKind::Partial { .. }) || e.children().any(derivative)
    }
    if whole || !derivative(part) || mentions_key(before, &name.symbol_key()?) {
        return None;
    }
    // Every place the name stands holds that part: the step is the expression before it, renamed.
    fn restore(e: &mut Expr, name: &str, part: &Expr, tex: &dyn Fn(&Expr) -> String) {
        if tex(e) == name {
            *e = part.clone();
            return;
        }
        e.children_mut().into_iter().for_each(|c| restore(c, name, part, tex));
    }
    let mut restored = after.clone();
    restore(&mut restored, &tex(name), part, &tex);
    (tex(&restored) == tex(before)).then_some((name, part))
}

/// The part of `before` that `after` writes as a name `is_new` accepts, wherever they differ:
/// `Ok(None)` where they are one expression, `Err` where they differ otherwise (another change,
/// two names, or a node of its own).
fn single_difference<'a>(
    before: &'a Expr,
    after: &'a Expr,
    is_new: &dyn Fn(&Expr) -> bool,
    tex: &dyn Fn(&Expr) -> String,
) -> Result<Option<(&'a Expr, &'a Expr)>, ()> {
    if tex(before) == tex(after) {
        return Ok(None);
    }
    if is_new(after) {
        // (`(\frac{da}{dt})^2` renamed `D^2`: the part is what the parentheses hold.)
        let mut part = before;
        while let ExprKind::Fenced { inner: Some(inner), open, .. } = &part.kind {
            if open != "(" {
                break;
            }
            part = inner;
        }
        return Ok(Some((part, after)));
    }
    // (Delimiters that differ are caught by the restoring check after.)
    if !same_node(before, after) {
        return Err(());
    }
    // (Several places may differ, each by the same name for the same part.)
    let mut found: Option<(&Expr, &Expr)> = None;
    for (b, a) in before.children().zip(after.children()) {
        if let Some((part, name)) = single_difference(b, a, is_new, tex)? {
            match found {
                Some((p, n)) if tex(p) != tex(part) || tex(n) != tex(name) => return Err(()),
                _ => found = Some((part, name)),
            }
        }
    }
    // (No child differs, yet the nodes do: an operator, a function's name.)
    found.map(Some).ok_or(())
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::syntax::first_side as side;

    #[test]
    fn the_values_a_next_link_writes_for_the_letters() {
        let this = side(r"\frac{1}{\sigma_1}\mathbf A\mathbf v_1");
        let next = side(r"\frac{1}{\sqrt6}\begin{bmatrix}1&0\\0&1\end{bmatrix}\begin{bmatrix}3\\4\end{bmatrix}");
        let values = values_written_next(&this, &next).unwrap();
        let keys: Vec<&str> = values.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, [r"\sigma_1", "A", "v_1"]);
        // Another operation, or the same letter given two values, is no substitution.
        assert!(values_written_next(&side("a + b"), &side(r"2 \cdot 3")).is_none());
        assert!(values_written_next(&side("a + a"), &side("2 + 3")).is_none());
        assert_eq!(values_written_next(&side("a + a"), &side("2 + 2")).map(|v| v.len()), Some(1));
        assert!(values_written_next(&side("a + b"), &side("a + b")).is_none(), "nothing replaced");
    }

    #[test]
    fn a_step_that_renames_one_part_of_the_expression_before_it_names_that_part() {
        let new = |e: &Expr| e.symbol_key().is_some_and(|k| k.starts_with("\\mathrm{d") || k == "D");
        let before = side(r"\frac{\partial E}{\partial y_i}\cdot\frac{\partial y_i}{\partial x_i}");
        let after = side(r"\mathrm{dy}_i\cdot\frac{\partial y_i}{\partial x_i}");
        let (name, part) = named_by_substitution(&before, &after, &new).expect("a name");
        assert_eq!(print::explicit_tex(name, &|_| false), r"{\mathrm{dy}}_{i}");
        assert!(print::explicit_tex(part, &|_| false).contains("partial"));
        // The name everywhere the part stood; a second change; a part that is no derivative (a
        // value the text may give the letter elsewhere); a whole side renamed: no name.
        let twice = side(r"(\frac{da}{dt})^2 + \frac{da}{dt}");
        assert!(named_by_substitution(&twice, &side("D^2 + D"), &new).is_some());
        assert!(named_by_substitution(&twice, &side("D^2 + a"), &new).is_none());
        assert!(named_by_substitution(&side(r"\frac{da}{dt} c"), &side("D d"), &new).is_none());
        assert!(named_by_substitution(&side("(a+b) c"), &side("D c"), &new).is_none());
        assert!(named_by_substitution(&side(r"\frac{da}{dt}"), &side("D"), &new).is_none());
    }
}
