//! Verification by generalising what the text leaves open: what holds for free symbols holds
//! for the meant ones, so a claim the text does not pin down is checked again with its unknowns
//! made general, and only a verification is kept, saying what was assumed.
//!
//! Takes a claim whose first check stopped at something the text leaves open (an index nobody
//! bounded, a label, letters defined only further on) and the [`Trial`] `check` gives; gives the
//! verification with its assumptions, or `None` (the first verdict stands, and the readings of
//! [`super::readings`] weigh a refutation). Tried before every reading there.

use super::letters::{expr_mentions, letters_indexed_by, mentions, sizes_of_sums_over, FREE_RANGE_SIZES};
use super::readings::{later_definitions, with_letters_general, Trial};
use crate::model::{Reason, Status, Verdict};
use crate::sema::scope::IndexRange;
use crate::sema::{Claim, Decl, Scope};
use crate::syntax::ast::{Expr, ExprKind};

/// `\sum_i p_i(-\log p_i) = -\sum_i p_i\log p_i` where nothing gives i a range: the claim
/// checked again with every such index of it (`name`, and the sums' letters whose range no shape
/// gives) running over 1..N, for each N of [`FREE_RANGE_SIZES`]. Only a verification is kept
/// (what the range is remains the notes' to say), listing `i = 1, …, N` among its assumptions.
/// Tried first: an index that indexes a vector or matrix runs over its entries, as a sum's
/// letter does ([`with_ranges_read_off`]).
pub(super) fn with_free_range(scope: &Scope, claim: &Claim, name: &str, trial: &dyn Trial) -> Option<Verdict> {
    // (Written as an index: in a subscript, or a sum's letter, or the exponent of a matrix
    // power, `P^{k+1}`, which only a matrix leaves without a value; `A=a` names an event's value.)
    fn indexes_with(e: &Expr, letter: &str) -> bool {
        let here = match &e.kind {
            ExprKind::Subscript { index, .. } => expr_mentions(index, letter),
            ExprKind::BigOp { lower: Some(lower), .. } => expr_mentions(lower, letter),
            ExprKind::Power { exponent, .. } => expr_mentions(exponent, letter),
            _ => false,
        };
        here || e.children().any(|c| indexes_with(c, letter))
    }
    let index_letter = |k: &str| {
        k.chars().count() == 1
            && k.chars().all(|c| c.is_ascii_lowercase())
            && !scope.sizes.contains_key(k)
            && !scope.defs.contains_key(k)
            && (indexes_with(&claim.lhs, k) || indexes_with(&claim.rhs, k))
    };
    if scope.pinned || !index_letter(name) {
        return None;
    }
    // `(\mathbf A\mathbf B)_{ik} = \sum_j a_{ij}b_{jk}`: first over what the index indexes, as a
    // sum's letter runs (k over the columns of B), for every value there; then at sizes 1..N.
    if let Some(verdict) = with_ranges_read_off(scope, claim, name, &index_letter, trial) {
        return Some(verdict);
    }
    // `\frac{\partial y_i}{\partial x_i}` with `y_i = \frac{e^{x_i}}{\sum_{k=1}^m e^{x_k}}`: an
    // index of the family a sum runs over 1..m runs over 1..m too.
    if let Some(upper) = range_of_summed_family(scope, claim, name) {
        let range = IndexRange::Size(upper.clone());
        let (again, letters) = trial.verdict_with_indices(scope, &[name.to_string()], &range, &index_letter);
        if again.status == Status::Verified {
            let mut assuming = again.assuming.clone();
            assuming.extend(letters.iter().map(|l| format!("{l} = 1, \\ldots, {upper}")));
            return Some(Verdict { assuming, ..again });
        }
    }
    let size = ["N", "N_{0}", "N_{1}"].into_iter().find(|n| !scope.sizes.contains_key(*n) && !mentions(claim, n))?;
    let mut free = scope.clone();
    free.sizes.insert(size.to_string(), FREE_RANGE_SIZES.to_vec());
    let mut letters = vec![name.to_string()];
    for (key, decl) in &scope.decls {
        if matches!(decl, Decl::Index { range: IndexRange::Auto }) && key != name && mentions(claim, key) {
            letters.push(key.clone());
        }
    }
    let range = IndexRange::Size(size.to_string());
    let (again, letters) = trial.verdict_with_indices(&free, &letters, &range, &index_letter);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.extend(letters.iter().map(|l| format!("{l} = 1, \\ldots, {size}")));
        Verdict { assuming, ..again }
    })
}

/// The claim checked again with `name` (and each index found without a value after it) ranging
/// over the entries it indexes, read off the shapes as for a sum's letter; the verification only.
pub(super) fn with_ranges_read_off(
    scope: &Scope,
    claim: &Claim,
    name: &str,
    index_letter: &dyn Fn(&str) -> bool,
    trial: &dyn Trial,
) -> Option<Verdict> {
    // (Only an index of something with a shape can take its range from it: `q_i` of a family
    // of vectors cannot, and the claim is not checked again for nothing.)
    fn indexes_a_shape(scope: &Scope, e: &Expr, name: &str) -> bool {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let shaped = match base.symbol_key() {
                Some(key) => {
                    matches!(scope.decls.get(&key), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
                        || (scope.defs.contains_key(&key) && scope.usage.matrix_like.contains(&key))
                }
                None => matches!(base.kind, ExprKind::Fenced { .. }),
            };
            if shaped && expr_mentions(index, name) {
                return true;
            }
        }
        e.children().any(|c| indexes_a_shape(scope, c, name))
    }
    if !indexes_a_shape(scope, &claim.lhs, name) && !indexes_a_shape(scope, &claim.rhs, name) {
        return None;
    }
    // (Only a verification: `c_{ij} = \sum_k a_{ik}b_{kj}` with c written nowhere else is false
    // for free leaves c_{ij}, and says nothing wrong.)
    let (again, _) = trial.verdict_with_indices(scope, &[name.to_string()], &IndexRange::Auto, index_letter);
    (again.status == Status::Verified).then_some(again)
}

/// A claim written before the definitions of some of its letters (`f(x+\epsilon) = f(x) +
/// \epsilon f'(x) + \mathcal O(\epsilon^2)`, then `choose $\epsilon = -\eta f'(x)$` and
/// `$f(x)=x^2$` further on) may speak of any such letters. Verified when it holds with those
/// letters general — a function nobody specified, a free number — which implies it holds for
/// what they are given later; `None` otherwise (a refutation is weighed in [`super::readings::other_readings`]).
/// `own` is the claim's scope where it has one ([`super::letters::claim_scope`]).
pub(super) fn with_later_letters_general(
    scope: &Scope,
    own: Option<&Scope>,
    claim: &Claim,
    trial: &dyn Trial,
) -> Option<Verdict> {
    let later = later_definitions(scope, claim, true);
    if later.is_empty() {
        return None;
    }
    let again = trial.own_verdict_in(&with_letters_general(own.unwrap_or(scope), &later));
    (again.status == Status::Verified).then_some(again)
}

/// `x_t = f(x_{t-1})`, `\frac{\partial z_j}{\partial w_j} = x_j` where nothing gives t or j a
/// value: the claim checked again with the index `name` a label (and each other index found
/// without a value on the way, up to four): every term it subscripts on a letter with no meaning
/// of its own is an unknown of its own ([`crate::sema::scope::LetterUsage::labels`]). Holding for
/// independent unknowns, the claim holds whatever the terms are; so only a verification is kept,
/// listing the terms as `\forall\, x_{t}, x_{t-1}` among its assumptions. Tried after
/// [`with_free_range`], which reads an index over a range where it can.
pub(super) fn with_labels_general(scope: &Scope, claim: &Claim, name: &str, trial: &dyn Trial) -> Option<Verdict> {
    // (Not through a derivative by a labelled term: `\frac{\partial}{\partial x_i} \sum_j x_j^2`
    // with x_i apart from every x_j is 0, and the text means 2x_i. Independence holds for values,
    // not for derivatives.)
    if scope.pinned || differentiates_by_an_index(claim) {
        return None;
    }
    let mut general = scope.clone();
    let mut name = name.to_string();
    for _ in 0..4 {
        let written_as_index = in_a_subscript(&claim.lhs, &name) || in_a_subscript(&claim.rhs, &name);
        if !written_as_index || !general.usage.labels.insert(name.clone()) {
            return None;
        }
        let again = trial.verdict_in(&general);
        match again.reason {
            Reason::UnboundIndex { name: next } if again.status != Status::Verified => name = next,
            _ if again.status == Status::Verified => {
                // The terms the labels make unknowns, or the labels themselves where they reach
                // such terms only through definitions (`b_i` of `b_i = a_i^2`).
                let mut terms = labelled_terms(&general, claim);
                if terms.is_empty() {
                    terms = general.usage.labels.iter().cloned().collect();
                }
                let mut assuming = again.assuming.clone();
                assuming.push(format!("\\forall\\, {}", terms.join(", ")));
                return Some(Verdict { assuming, ..again });
            }
            _ => return None,
        }
    }
    None
}

/// A verdict left undecided by an index without a value, checked again with that index over a
/// small range ([`with_free_range`]) or as a label ([`with_labels_general`]); the verification
/// only, else the verdict as it was.
pub(super) fn with_free_indices(scope: &Scope, claim: &Claim, verdict: Verdict, trial: &dyn Trial) -> Verdict {
    let Reason::UnboundIndex { name } = &verdict.reason else { return verdict };
    if verdict.status == Status::Verified {
        return verdict;
    }
    let name = name.clone();
    with_free_range(scope, claim, &name, trial)
        .or_else(|| with_labels_general(scope, claim, &name, trial))
        .unwrap_or(verdict)
}

/// Is `letter` written in a subscript of `e` (`x_t`, `x_{t-1}`)? Narrower than
/// [`with_free_range`]'s test, which takes a sum's letter and a matrix power's exponent too: a
/// label only ever names terms it subscripts.
fn in_a_subscript(e: &Expr, letter: &str) -> bool {
    let here = matches!(&e.kind, ExprKind::Subscript { index, .. } if expr_mentions(index, letter));
    here || e.children().any(|c| in_a_subscript(c, letter))
}

/// The terms of the claim a label of `scope` subscripts on a letter with no meaning of its own,
/// as TeX, each once, in order.
fn labelled_terms(scope: &Scope, claim: &Claim) -> Vec<String> {
    fn walk(scope: &Scope, e: &Expr, out: &mut Vec<String>) {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let known = |key: Option<String>| key.is_some_and(|k| scope.knows(&k));
            let own_letter = base.symbol_key().is_some() && !known(base.symbol_key()) && !known(e.symbol_key());
            if own_letter && scope.usage.labels.iter().any(|l| expr_mentions(index, l)) {
                let tex = crate::syntax::print::explicit_tex(e, &|_| false);
                if !out.contains(&tex) {
                    out.push(tex);
                }
                return;
            }
        }
        e.children().for_each(|c| walk(scope, c, out));
    }
    let mut out = Vec::new();
    walk(scope, &claim.lhs, &mut out);
    walk(scope, &claim.rhs, &mut out);
    out
}

/// Does the claim differentiate by a term with an index (`\frac{\partial}{\partial x_i}`,
/// `\frac{\partial h_t}{\partial h_{t-1}}`)?
fn differentiates_by_an_index(claim: &Claim) -> bool {
    fn walk(e: &Expr) -> bool {
        let here = matches!(&e.kind, ExprKind::Derivative { wrt, .. } if has_subscript(wrt));
        here || e.children().any(walk)
    }
    fn has_subscript(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Subscript { .. }) || e.children().any(has_subscript)
    }
    walk(&claim.lhs) || walk(&claim.rhs)
}

/// The size m of `\sum_{k=1}^{m}` over the family that `name` subscripts (`x_i` beside
/// `\sum_{k=1}^m e^{x_k}`), written in the claim or in the definition of a letter it writes; the
/// one size, where every such sum agrees.
fn range_of_summed_family(scope: &Scope, claim: &Claim, name: &str) -> Option<String> {
    let mut bases = Vec::new();
    letters_indexed_by(&claim.lhs, name, &mut bases);
    letters_indexed_by(&claim.rhs, name, &mut bases);
    let mut written: Vec<&Expr> = vec![&claim.lhs, &claim.rhs];
    written.extend(scope.defs.values().filter(|d| bases.contains(&d.key) || mentions(claim, &d.key)).map(|d| &d.body));
    // (A family defined by its members, `y_i = …`, brings its body's bases along: y_i's x_k.)
    let families: Vec<&crate::sema::Definition> =
        scope.defs.values().filter(|d| bases.contains(&d.key) && d.params.len() == 1).collect();
    for d in families {
        letters_indexed_by(&d.body, &d.params[0], &mut bases);
    }
    let mut sizes = Vec::new();
    written.iter().for_each(|e| sizes_of_sums_over(e, &bases, scope, &mut sizes));
    sizes.sort();
    sizes.dedup();
    match sizes.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// The real functions notes spell without a backslash (`tanh(x)`, `log(1+x)`), read as the
/// function where the letters are exactly the name and an argument in parentheses follows; and
/// the moments of probability (`Var(x)`, `Cov(x, y)`), read as the variance and covariance.
/// Each: the letters, the function's name, how the verdict writes it.
const SPELLED_FUNCTIONS: [(&str, &str, &str); 16] = [
    ("log", "log", "\\log"),
    ("ln", "ln", "\\ln"),
    ("exp", "exp", "\\exp"),
    ("sin", "sin", "\\sin"),
    ("cos", "cos", "\\cos"),
    ("tan", "tan", "\\tan"),
    ("sec", "sec", "\\sec"),
    ("csc", "csc", "\\csc"),
    ("cot", "cot", "\\cot"),
    ("sinh", "sinh", "\\sinh"),
    ("cosh", "cosh", "\\cosh"),
    ("tanh", "tanh", "\\tanh"),
    ("Var", "Var", "\\mathrm{Var}"),
    ("var", "Var", "\\mathrm{Var}"),
    ("Cov", "Cov", "\\mathrm{Cov}"),
    ("cov", "Cov", "\\mathrm{Cov}"),
];

/// `f(x) = tanh(x) = \frac{e^x - e^{-x}}{e^x + e^{-x}}`, `log(1+x)`: a function's name written as
/// letters side by side, which could be a product of the letters. Checked again with each such
/// name (the whole run of letters, an argument in parentheses after it) read as the function;
/// only a verification is kept, saying so (`tanh(…) read as \tanh(…)`) — a refutation would
/// need the product reading ruled out, which the text does not do.
pub(super) fn with_spelled_functions(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    let mut names = Vec::new();
    let lhs = spelled_as_functions(&claim.lhs, &mut names);
    let rhs = spelled_as_functions(&claim.rhs, &mut names);
    if names.is_empty() {
        return None;
    }
    let read = Claim { lhs, rhs, ..claim.clone() };
    let again = super::check_own_claim(scope, &read);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        names.sort();
        names.dedup();
        assuming.extend(names.iter().filter_map(|n| {
            let (_, _, tex) = SPELLED_FUNCTIONS.iter().find(|(spelled, _, _)| spelled == n)?;
            Some(format!("\\text{{{n}}}(\\cdot) = {tex}(\\cdot)"))
        }));
        Verdict { assuming, ..again }
    })
}

/// `e` with every spelled function name (see [`SPELLED_FUNCTIONS`]) made an application of the
/// function, the names pushed to `names`.
fn spelled_as_functions(e: &Expr, names: &mut Vec<String>) -> Expr {
    use crate::syntax::ast::{BinOp, Function, Span};
    let letter = |f: &Expr| match &f.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() && s.label.is_none() => {
            let mut chars = s.name.chars();
            chars.next().filter(|c| c.is_ascii_alphabetic() && chars.next().is_none())
        }
        _ => None,
    };
    if matches!(e.kind, ExprKind::Binary { op: BinOp::Implicit, .. }) {
        let factors: Vec<Expr> = e.implicit_factors().into_iter().map(|f| spelled_as_functions(f, names)).collect();
        let mut out: Vec<Expr> = Vec::new();
        let mut k = 0;
        while k < factors.len() {
            // A run of adjacent letters ending in a letter applied to a parenthesis, whole.
            let mut end = k;
            while end + 1 < factors.len()
                && letter(&factors[end]).is_some()
                && factors[end].span.end == factors[end + 1].span.start
            {
                end += 1;
            }
            let call = match &factors[end].kind {
                ExprKind::Call { func, args, .. } if letter(func).is_some() => Some((func, args)),
                _ => None,
            };
            let starts_run =
                k == 0 || letter(&factors[k - 1]).is_none() || factors[k - 1].span.end != factors[k].span.start;
            if let (Some((func, args)), true) = (call, starts_run && end > k) {
                let word: String = factors[k..end].iter().filter_map(letter).chain(letter(func)).collect();
                if let Some((_, name, _)) = SPELLED_FUNCTIONS.iter().find(|(spelled, _, _)| *spelled == word) {
                    names.push(word.clone());
                    let function = Function { name: name.to_string(), primes: 0, sub: None, sup: None };
                    let span = Span::new(factors[k].span.start, factors[end].span.end);
                    let kind = ExprKind::Apply { func: function, args: args.clone(), parenthesized: true };
                    out.push(Expr::new(kind, span));
                    k = end + 1;
                    continue;
                }
            }
            out.push(factors[k].clone());
            k += 1;
        }
        let mut parts = out.into_iter();
        let first = parts.next().expect("a product has a factor");
        return parts.fold(first, |acc, next| {
            let span = Span::new(acc.span.start, next.span.end);
            Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(acc), rhs: Box::new(next) }, span)
        });
    }
    let mut out = e.clone();
    for child in out.children_mut() {
        *child = spelled_as_functions(child, names);
    }
    out
}
