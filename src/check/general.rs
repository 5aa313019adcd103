//! Verification by generalising what the text leaves open: what holds for free symbols holds
//! for the meant ones, so a claim the text does not pin down is checked again with its unknowns
//! made general, and only a verification is kept, saying what was assumed.
//!
//! Takes a claim whose first check stopped at something the text leaves open (an index nobody
//! bounded, a label, letters defined only further on) and the [`Trial`] `check` gives; gives the
//! verification with its assumptions, or `None` (the first verdict stands, and the readings of
//! [`super::readings`] weigh a refutation). Tried before every reading there.

use super::letters::later_definitions;
use super::letters::with_letters_general;
use super::letters::{expr_mentions, keys_in, letters_indexed_by, mentions, sizes_of_sums_over, FREE_RANGE_SIZES};
use super::readings::Trial;
use crate::model::{Reason, Status, Verdict};
use crate::sema::scope::{IndexRange, SecondLook};
use crate::sema::{Claim, Decl, Scope, WordsRole};
use crate::syntax::ast::{Expr, ExprKind};
use std::collections::{BTreeMap, BTreeSet};

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
    // (A capital is a sum's letter only where a sum runs over it: `\sum_Z P(Z \mid Y)`, over the
    // values of Z.)
    fn sums_over(e: &Expr, letter: &str) -> bool {
        let here = matches!(&e.kind, ExprKind::BigOp { lower: Some(lower), .. } if lower.symbol_key().as_deref() == Some(letter));
        here || e.children().any(|c| sums_over(c, letter))
    }
    let index_letter = |k: &str| {
        k.chars().count() == 1
            && k.chars().all(|c| {
                c.is_ascii_lowercase()
                    || (c.is_ascii_uppercase() && (sums_over(&claim.lhs, k) || sums_over(&claim.rhs, k)))
            })
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
        if let Some(verified) = verified_saying(again, letters.iter().map(|l| format!("{l} = 1, \\ldots, {upper}"))) {
            return Some(verified);
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
    verified_saying(again, letters.iter().map(|l| format!("{l} = 1, \\ldots, {size}")))
}

/// `again`, a claim's second look, kept only where it verifies, listing after what it assumed
/// what the second look read (`said`: the ranges tried, the readings taken).
fn verified_saying(again: Verdict, said: impl IntoIterator<Item = String>) -> Option<Verdict> {
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.extend(said);
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

/// A verdict left undecided by an index without a value, checked again with that index over a
/// small range ([`with_free_range`]) or as a label ([`super::labels::with_labels_general`]); the verification
/// only, else the verdict as it was.
pub(super) fn with_free_indices(scope: &Scope, claim: &Claim, verdict: Verdict, trial: &dyn Trial) -> Verdict {
    let Reason::UnboundIndex { name } = &verdict.reason else { return verdict };
    if verdict.status == Status::Verified {
        return verdict;
    }
    let name = name.clone();
    with_free_range(scope, claim, &name, trial)
        .or_else(|| super::labels::with_labels_general(scope, claim, &name, trial))
        .unwrap_or(verdict)
}

/// `0 = \frac{1}{a} g + \lambda \implies a = -\frac{1}{\lambda} g`: a claim written after a
/// condition in the same formula (a consequence, [`WordsRole::Consequence`]) checked again under
/// what it follows from: the relation just before the implication, then with the conditions its
/// paragraph states before it added, the nearest first (`\log\frac{p_1}{p_0} = w\cdot x
/// \Rightarrow \ldots \Rightarrow \frac{p_1}{1-p_1} = e^{w\cdot x}`: each step from the one
/// before). An index without a value on the way is made general as for any claim. A verification
/// lists what it assumed: the claim holds wherever that does, which is what the formula says.
/// Only to verify (a step may also use what the words beside it say: `\lambda = -n` "because"
/// the γ sum to 1), so a failure leaves the consequence undecided.
pub(super) fn following_its_premise(scope: &Scope, claim: &Claim, trial: &dyn Trial) -> Option<Verdict> {
    let consequence = claim.reading.alternative.as_ref().is_some_and(|w| w.role == WordsRole::Consequence);
    if !consequence || claim.reading.marked {
        return None;
    }
    let (premise, stated) = (&claim.reading.conditions.premise, &claim.reading.conditions.stated);
    // (The premise is often among the conditions stated too: not assumed twice.)
    let stated: Vec<&crate::sema::Assumption> =
        stated.iter().filter(|s| !premise.iter().any(|p| p.tex == s.tex)).collect();
    let premise_alone = (!premise.is_empty()).then(Vec::new);
    let tries = premise_alone.into_iter().chain((0..stated.len()).rev().map(|from| stated[from..].to_vec()));
    tries.into_iter().find_map(|conditions| {
        let assumed: Vec<crate::sema::Assumption> = premise.iter().chain(conditions).cloned().collect();
        let mut under = scope.clone();
        under.assumptions.extend(assumed.iter().cloned());
        let again = with_free_indices(&under, claim, trial.own_verdict_in(&under), trial);
        verified_saying(again, assumed.iter().map(|a| a.tex.clone()))
    })
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
const SPELLED_FUNCTIONS: [(&str, &str, &str); 18] = [
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
    ("tr", "tr", "\\operatorname{tr}"),
    ("trace", "trace", "\\operatorname{tr}"),
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
    names.sort();
    names.dedup();
    verified_saying(
        again,
        names.iter().filter_map(|n| {
            let (_, _, tex) = SPELLED_FUNCTIONS.iter().find(|(spelled, _, _)| spelled == n)?;
            Some(format!("\\text{{{n}}}(\\cdot) = {tex}(\\cdot)"))
        }),
    )
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
                // (The longest name the run ends in: `bdCov(x, y)` is b times d times Cov(x, y).)
                let spelled = |from: usize| -> String {
                    factors[from..end].iter().filter_map(letter).chain(letter(func)).collect()
                };
                let found = (k..end).find_map(|from| {
                    let word = spelled(from);
                    SPELLED_FUNCTIONS.iter().find(|(s, _, _)| *s == word).map(|(_, name, _)| (from, word, *name))
                });
                if let Some((from, word, name)) = found {
                    out.extend(factors[k..from].iter().cloned());
                    names.push(word);
                    let function = Function { name: name.to_string(), primes: 0, sub: None, sup: None };
                    let span = Span::new(factors[from].span.start, factors[end].span.end);
                    let kind = ExprKind::Apply { func: function, args: args.clone(), parenthesized: true };
                    out.push(Expr::new(kind, span));
                    k = end + 1;
                    continue;
                }
            }
            // `log\frac{P(A)}{P(B)}`, `log\prod_{t=1}^T A_t`: a whole run of letters that is a
            // name, then a fraction, a sum or a product written right after it, which the
            // function takes. (The run above ends there, adjacent to its last letter.)
            let operand = |f: &Expr| matches!(f.kind, ExprKind::Frac { .. } | ExprKind::BigOp { .. });
            let fraction = Some(&factors[end]).filter(|f| operand(f) && end > k + 1);
            let word: String = factors[k..end].iter().filter_map(letter).collect();
            let named = SPELLED_FUNCTIONS.iter().find(|(s, _, _)| *s == word && word.chars().count() == end - k);
            if let (Some(fraction), Some((_, name, _)), true) = (fraction, named, starts_run) {
                names.push(word.clone());
                let function = Function { name: name.to_string(), primes: 0, sub: None, sup: None };
                let span = Span::new(factors[k].span.start, fraction.span.end);
                let kind = ExprKind::Apply { func: function, args: vec![fraction.clone()], parenthesized: false };
                out.push(Expr::new(kind, span));
                k = end + 1;
                continue;
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

/// `h(x) = -\log_2 p(x) = \log_2\frac{1}{p(x)}`, `0\cdot\mathbb P\{X=0\} + 1\cdot\mathbb P\{X=1\}
/// = \mathbb P\{X=1\}`, `\log\frac{q(z \mid x)}{p(z \mid x)} = \log q(z\mid x) - \log p(z\mid x)`:
/// a probability (`P`, `p`, `\Pr`, `\mathbb P`, `p_X`) nobody defines, or a function nobody
/// specifies applied to events and conditions. Checked again with each such application an
/// unknown function of the letters and numbers it is written with, one function for each head
/// and way of writing its arguments (`P(Y=1 \mid x)` and `P(Y=0 \mid x)` one function at other
/// arguments; `P(A \mid B)` and `P(A, B)` two functions): what holds for every function holds
/// for the probability the text means. Only a verification is kept, listing the heads
/// (`\forall\, P`); the laws of probability are not used, so a claim that needs them stays
/// undecided, never refuted so.
///
/// `free_indices` checks the claim so read again where an index has no value (`\sum_Z P(Z \mid
/// Y)` with nothing giving Z a range), as for [`with_inner_products_general`].
pub(super) fn with_probabilities_general(
    scope: &Scope,
    claim: &Claim,
    free_indices: &dyn Fn(&Scope, &Claim, Verdict) -> Verdict,
) -> Option<Verdict> {
    if scope.pinned {
        return None;
    }
    let past = differentiated_past_arguments(scope, [&claim.lhs, &claim.rhs]);
    let mut general = scope.clone();
    let mut heads = Vec::new();
    let mut written = Vec::new();
    let lhs = applications_general(&claim.lhs, &mut general, &past, &mut heads, &mut written);
    let rhs = applications_general(&claim.rhs, &mut general, &past, &mut heads, &mut written);
    if heads.is_empty() {
        return None;
    }
    // (`h(x) = -\log_2 p(x)` defined before `h(x) = \log_2\frac{1}{p(x)}`: the definitions
    // the claim reads are made general alike, each application the same function as the
    // claim's.)
    let read_by_the_claim: Vec<String> = general.defs.keys().filter(|k| mentions(claim, k)).cloned().collect();
    for key in read_by_the_claim {
        let body = general.defs[&key].body.clone();
        let mut found = Vec::new();
        let made = applications_general(&body, &mut general, &past, &mut found, &mut Vec::new());
        if found.is_empty() {
            continue;
        }
        for head in found {
            if !heads.contains(&head) {
                heads.push(head);
            }
        }
        if let Some(def) = general.defs.get_mut(&key) {
            def.body = made;
        }
    }
    let read = Claim { lhs, rhs, ..claim.clone() };
    let mut again = free_indices(&general, &read, super::check_own_claim(&general, &read));
    if again.status != Status::Verified {
        // (`log\frac{P(Y \mid X)}{P(\bar Y \mid X)}`: a spelled function beside them.)
        again = with_spelled_functions(&general, &read).unwrap_or(again);
    }
    (again.status == Status::Verified).then(|| {
        // (An assumption the check states of an application, `p(x) > 0` under a logarithm,
        // is written as the text writes it.)
        written.sort_by_key(|(general, _)| std::cmp::Reverse(general.len()));
        let as_written = |a: &String| written.iter().fold(a.clone(), |a, (general, text)| a.replace(general, text));
        let mut assuming: Vec<String> = again.assuming.iter().map(as_written).collect();
        let also = past.iter().map(|by| crate::syntax::print::explicit_tex(by, &|_| false)).collect::<Vec<_>>();
        assuming.push(match also.is_empty() {
            true => format!("\\forall\\, {}", heads.join(", ")),
            false => format!("\\forall\\, {} \\text{{ (also of }} {} \\text{{)}}", heads.join(", "), also.join(", ")),
        });
        Verdict { assuming, ..again }
    })
}

/// `\nabla_\theta \sum_x p(x) f(x)` with p(x) short for p(x; θ): the letters the claim
/// differentiates by (as written, once each) that no probability [`general_head`] accepts is
/// written of. Made general, such a probability is a function of them too (what holds for every
/// function of x and θ holds for the one the text means, which may not depend on θ at all).
fn differentiated_past_arguments(scope: &Scope, sides: [&Expr; 2]) -> Vec<Expr> {
    fn collect<'e>(e: &'e Expr, scope: &Scope, by: &mut Vec<&'e Expr>, of: &mut Vec<String>) {
        match &e.kind {
            ExprKind::Derivative { wrt, .. } => by.push(wrt),
            ExprKind::Call { func, args, .. } if general_head(func, args, scope).is_some() => {
                of.extend(args.iter().flat_map(base_letters));
            }
            _ => {}
        }
        e.children().for_each(|c| collect(c, scope, by, of));
    }
    let (mut by, mut of) = (Vec::new(), Vec::new());
    sides.into_iter().for_each(|side| collect(side, scope, &mut by, &mut of));
    let mut past: Vec<Expr> = Vec::new();
    for wrt in by {
        let letters = base_letters(wrt);
        let tex = crate::syntax::print::explicit_tex(wrt, &|_| false);
        let seen = past.iter().any(|p| crate::syntax::print::explicit_tex(p, &|_| false) == tex);
        if !letters.is_empty() && letters.iter().all(|l| !of.contains(l)) && !seen {
            past.push(wrt.clone());
        }
    }
    past
}

/// The head of a probability or of a function nobody specified, as TeX, where `func` applied
/// to `args` is one [`with_probabilities_general`] makes general: a probability head nothing in
/// `scope` defines or declares (`P`, `p`, `\mathbb P`, `p_X`), or a function nobody specified
/// with an event or a condition among its arguments (`q(z \mid x)`).
fn general_head(func: &Expr, args: &[Expr], scope: &Scope) -> Option<String> {
    use crate::syntax::ast::Style;
    let key = func.symbol_key().unwrap_or_else(|| crate::syntax::print::explicit_tex(func, &|_| false));
    if scope.knows(&key) || scope.usage.values.contains(&key) || scope.usage.matrix_like.contains(&key) {
        return None;
    }
    let probability = match &func.kind {
        ExprKind::Symbol(s) => {
            matches!(s.name.as_str(), "P" | "p")
                && s.accents.is_empty()
                && s.label.is_none()
                && matches!(s.style, None | Some(Style::Blackboard))
        }
        _ => crate::syntax::ast::is_density_head(func),
    };
    let event = args.iter().any(|a| matches!(a.kind, ExprKind::Relation { .. }));
    (probability || (event && scope.usage.unknown_functions.contains(&key))).then_some(key)
}

/// The letters `e` writes, a subscripted letter as its base (`x` of `x_i`), indices left out.
fn base_letters(e: &Expr) -> Vec<String> {
    match &e.kind {
        ExprKind::Symbol(_) => e.symbol_key().into_iter().collect(),
        ExprKind::Subscript { base, .. } => base_letters(base),
        _ => e.children().flat_map(base_letters).collect(),
    }
}

/// `e` with every application [`general_head`] accepts replaced by an application of an unknown
/// function of its own (added to `scope`'s unknown functions), named by the head, by how the
/// arguments are written and by the letters they write, applied to the letters and numbers of
/// the arguments in order; each head pushed to `heads` once, and each replacement to `written`
/// as TeX, beside the original.
fn applications_general(
    e: &Expr,
    scope: &mut Scope,
    past: &[Expr],
    heads: &mut Vec<String>,
    written: &mut Vec<(String, String)>,
) -> Expr {
    use crate::syntax::ast::Symbol;
    let call = match &e.kind {
        ExprKind::Call { func, args, .. } => Some((general_head(func, args, scope), args)),
        ExprKind::Apply { func, args, .. } if func.name == "Pr" && func.sub.is_none() && func.sup.is_none() => {
            Some((Some("\\Pr".to_string()), args))
        }
        _ => None,
    };
    if let Some((Some(head), args)) = call {
        let mut leaves = Vec::new();
        let mut shape = Vec::new();
        // (`Z \mid Y, \theta`: relations and letters kept as one statement, a chain each; in
        // the order written.)
        let pieces: Vec<Result<&crate::syntax::ast::Chain, &Expr>> = args
            .iter()
            .flat_map(|arg| match &arg.kind {
                ExprKind::Relation { chain } => vec![Ok(chain.as_ref())],
                ExprKind::Statement { statement } => statement.chains.iter().map(Ok).collect(),
                _ => vec![Err(arg)],
            })
            .collect();
        for piece in pieces {
            match piece {
                Ok(chain) => {
                    leaves.extend(chain.first.iter().map(|c| applications_general(c, scope, past, heads, written)));
                    let ops: Vec<String> = chain.links.iter().map(|l| format!("{:?}", l.op)).collect();
                    shape.push(ops.join(" "));
                    leaves
                        .extend(chain.links.iter().map(|l| applications_general(&l.rhs, scope, past, heads, written)));
                }
                Err(arg) => {
                    leaves.push(applications_general(arg, scope, past, heads, written));
                    shape.push("·".to_string());
                }
            }
        }
        // (`p(x)` and `p(y)` are the distributions of two variables, as the notes abuse one
        // letter for both: a function per set of letters written, the indices aside — `p(x_i)`
        // and `p(x_j)` are one.)
        // (`p(x)` short for `p(x; \theta)` where the claim differentiates by θ.)
        for by in past {
            let written_of: Vec<String> = leaves.iter().flat_map(base_letters).collect();
            if base_letters(by).iter().all(|l| !written_of.contains(l)) {
                leaves.push(by.clone());
                shape.push("·".to_string());
            }
        }
        let mut letters: Vec<String> = leaves.iter().flat_map(base_letters).collect();
        letters.sort();
        letters.dedup();
        let name = format!("{head} of ({}) in {}", shape.join(", "), letters.join(" "));
        let symbol = Symbol { name, accents: Vec::new(), style: None, label: None };
        scope.usage.unknown_functions.insert(symbol.key());
        if !heads.contains(&head) {
            heads.push(head);
        }
        let func = Box::new(Expr::new(ExprKind::Symbol(symbol), e.span));
        let general = Expr::new(ExprKind::Call { func, args: leaves, postfixed: false }, e.span);
        let tex = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| true);
        written.push((tex(&general), tex(e)));
        return general;
    }
    let mut out = e.clone();
    for child in out.children_mut() {
        *child = applications_general(child, scope, past, heads, written);
    }
    out
}

/// `y\log\frac{1}{1+e^{-\theta^T x^{(i)}}} = -y\log(1+e^{-\theta^T x^{(i)}})` where nothing gives θ
/// or x a shape: each product `a^T b` of a letter the notes give no meaning, transposed, and a
/// letter is a number (it stands in an exponent or beside numbers), and the claim is checked
/// again with each such product a number of its own (`\theta^T x^{(i)}` one per i). What holds
/// for every number holds for the product, so only a verification is kept, listing the
/// products; never where the claim differentiates, integrates or takes a limit, which the
/// product's letters would reach.
///
/// `free_indices` checks a claim again whose first verdict stopped at an index without a value
/// ([`with_free_indices`] with a trial of that claim; given by the caller, which owns trials).
pub(super) fn with_inner_products_general(
    scope: &Scope,
    claim: &Claim,
    free_indices: &dyn Fn(&Scope, &Claim, Verdict) -> Verdict,
) -> Option<Verdict> {
    fn calculus(e: &Expr) -> bool {
        let here = match &e.kind {
            ExprKind::Derivative { .. } | ExprKind::Partial { .. } | ExprKind::Prime { .. } => true,
            ExprKind::BigOp { op, .. } => op.is_integral() || matches!(op, crate::syntax::ast::BigOpKind::Lim),
            _ => false,
        };
        here || e.children().any(calculus)
    }
    if scope.pinned || calculus(&claim.lhs) || calculus(&claim.rhs) {
        return None;
    }
    // (Each product a letter the claim and the section leave free: `\varpi`, `\varrho`, ….)
    let mut spare: Vec<&str> = ["varpi", "varrho", "varsigma", "vartheta", "varphi"]
        .into_iter()
        .filter(|name| {
            let key = format!("\\{name}");
            !scope.knows(&key) && !mentions(claim, &key)
        })
        .collect();
    let mut products = Vec::new();
    let lhs = inner_products_as_numbers(&claim.lhs, scope, &mut spare, &mut products);
    let rhs = inner_products_as_numbers(&claim.rhs, scope, &mut spare, &mut products);
    if products.is_empty() || products.iter().any(|(_, _, letter)| letter.is_none()) {
        return None;
    }
    let products: Vec<String> = products.into_iter().map(|(_, written, _)| written).collect();
    let read = Claim { lhs, rhs, ..claim.clone() };
    // (`\sum_{i=1}^m (\ldots)x_j^{(i)}` with nothing giving j a value: j over a small range, or a
    // label, as for any claim.)
    let again = super::check_own_claim(scope, &read);
    let again = free_indices(scope, &read, again);
    verified_saying(again, [format!("\\forall\\, {} \\in \\mathbb{{R}}", products.join(", "))])
}

/// `e` with every product `a^T b` [`with_inner_products_general`] reads as a number replaced by
/// a letter of its own taken from `spare`, keeping b's label or subscript (`\theta^T x^{(i)}`
/// stays one per i); each pair a, b pushed to `products` once, with the product as first written
/// and its letter (`None` where none was spare).
fn inner_products_as_numbers(
    e: &Expr,
    scope: &Scope,
    spare: &mut Vec<&str>,
    products: &mut Vec<(String, String, Option<String>)>,
) -> Expr {
    use crate::syntax::ast::{BinOp, Symbol};
    // (No meaning but a shape read off its uses.)
    let unknown = |e: &Expr| {
        e.symbol_key().is_some_and(|k| {
            let inferred = scope.usage.inferred.iter().any(|s| s.key == k);
            !scope.defs.contains_key(&k)
                && !scope.general_functions.contains_key(&k)
                && (!scope.decls.contains_key(&k) || inferred)
        })
    };
    if let ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot, lhs, rhs } = &e.kind {
        let transposed = match &lhs.kind {
            ExprKind::Transpose { operand } if matches!(operand.kind, ExprKind::Symbol(_)) && unknown(operand) => {
                Some(operand)
            }
            _ => None,
        };
        // (b a letter, a letter with a label, or its subscripted member.)
        let (base, index) = match &rhs.kind {
            ExprKind::Subscript { base, index } => (base.as_ref(), Some(index)),
            _ => (rhs.as_ref(), None),
        };
        if let (Some(a), ExprKind::Symbol(b)) = (transposed, &base.kind) {
            if unknown(base) {
                let tex = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
                // (One letter per pair a, b: the label or subscript tells the members apart.)
                let pair = format!("{}^T {}", tex(a), Symbol { label: None, ..b.clone() });
                let letter = match products.iter().find(|(p, _, _)| *p == pair) {
                    Some((_, _, letter)) => letter.clone(),
                    None => {
                        let letter = (!spare.is_empty()).then(|| spare.remove(0).to_string());
                        products.push((pair, tex(e), letter.clone()));
                        letter
                    }
                };
                let name = letter.unwrap_or_default();
                let number = Symbol { name, accents: Vec::new(), style: None, label: b.label.clone() };
                let mut out = Expr::new(ExprKind::Symbol(number), e.span);
                if let Some(index) = index {
                    out = Expr::new(ExprKind::Subscript { base: Box::new(out), index: index.clone() }, e.span);
                }
                return out;
            }
        }
    }
    let mut out = e.clone();
    for child in out.children_mut() {
        *child = inner_products_as_numbers(child, scope, spare, products);
    }
    out
}

/// `d(uv) = u\,dv + v\,du`, `d(\sin x) = \cos x\,dx` where no spec says what varies: checked
/// again with the letters whose differentials the claim writes varying, each `d` the total
/// differential in them, their differentials independent. What holds for independent
/// differentials holds however the letters depend on each other (`u = u(x)`: du = u'(x) dx, by
/// the chain rule), so only a verification is kept, listing the differentials (`\forall\,
/// \mathrm{d}u, \mathrm{d}v`). A letter the notes define is left out: its differential goes
/// through its definition.
pub(super) fn with_differentials_general(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    fn written(e: &Expr, letters: &mut Vec<String>) {
        if let ExprKind::Differential { operand } = &e.kind {
            letters.extend(operand.symbol_key());
        }
        e.children().for_each(|c| written(c, letters));
    }
    if scope.pinned || !scope.vary.is_empty() {
        return None;
    }
    let mut letters = Vec::new();
    written(&claim.lhs, &mut letters);
    written(&claim.rhs, &mut letters);
    letters.retain(|k| !scope.defs.contains_key(k) && !matches!(scope.decls.get(k), Some(Decl::Index { .. })));
    letters.sort();
    letters.dedup();
    if letters.is_empty() {
        return None;
    }
    let general = Scope { vary: letters.clone(), ..scope.clone() };
    let again = super::check_own_claim(&general, claim);
    let differentials: Vec<String> = letters.iter().map(|k| format!("\\mathrm{{d}}{k}")).collect();
    verified_saying(again, [format!("\\forall\\, {}", differentials.join(", "))])
}

/// `y = \sin x` then `{y}' = \cos x` (a table of derivatives): a prime on a letter the notes
/// define, with `x` among the letters of its definition, read as the derivative in x, as
/// Lagrange's notation writes y = f(x). Only a verification is kept, saying so (`y' =
/// \frac{dy}{dx}`): other letters of the definition may be the variable (`y = x e^t`).
pub(super) fn with_primes_in_x(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::ast::DerivativeKind;
    fn the_x(e: &Expr) -> Option<&Expr> {
        match &e.kind {
            ExprKind::Symbol(s) if s.name == "x" && s.accents.is_empty() && s.label.is_none() => Some(e),
            _ => e.children().find_map(the_x),
        }
    }
    fn in_x(e: &Expr, scope: &Scope, read: &mut Vec<String>) -> Expr {
        let mut out = e.clone();
        if let ExprKind::Prime { operand } = &e.kind {
            let key = operand.symbol_key();
            let definition = key.as_ref().and_then(|k| scope.defs.get(k)).filter(|d| d.params.is_empty());
            if let (Some(key), Some(x)) = (key.clone(), definition.and_then(|d| the_x(&d.body))) {
                if !scope.defs.contains_key("x") {
                    read.push(key);
                    let wrt = Expr::new(x.kind.clone(), operand.span);
                    let of = Box::new(operand.as_ref().clone());
                    out.kind = ExprKind::Derivative { kind: DerivativeKind::Total, of, wrt: Box::new(wrt) };
                    return out;
                }
            }
        }
        for child in out.children_mut() {
            *child = in_x(child, scope, read);
        }
        out
    }
    let mut read = Vec::new();
    let lhs = in_x(&claim.lhs, scope, &mut read);
    let rhs = in_x(&claim.rhs, scope, &mut read);
    if read.is_empty() {
        return None;
    }
    let again = super::check_own_claim(scope, &Claim { lhs, rhs, ..claim.clone() });
    read.sort();
    read.dedup();
    verified_saying(again, read.iter().map(|k| format!("{k}' = \\frac{{\\mathrm{{d}}{k}}}{{\\mathrm{{d}}x}}")))
}

/// `(u\pm v)' = u' \pm v'`, `(uv)' = uv' + vu'` (a table of derivative rules, after "u = u(x)"
/// or with nothing said): a prime is the derivative in one variable, `x` (written in the claim
/// or not), and every letter primed or written inside a primed expression, nowhere defined, is a
/// function nobody specified of it ([`Scope::general_functions`]: its value and first two
/// derivatives free numbers). What holds for every function holds for those the text means, so
/// only a verification is kept, listing them (`\forall\, u(x), v(x)`). Not past a second
/// derivative (a general function's third is not free), nor with any letter inside a primed
/// expression read as a constant (`(uv)' = uv'` with u a constant would verify a slip).
pub(super) fn with_primes_as_derivatives(
    scope: &Scope,
    claim: &Claim,
    free_indices: &dyn Fn(&Scope, &Claim, Verdict) -> Verdict,
) -> Option<Verdict> {
    use crate::syntax::ast::{DerivativeKind, Symbol};
    /// The bare letters primed, or written inside a primed expression, in `e`; the most primes
    /// on one path.
    fn primed_letters(e: &Expr, depth: usize, out: &mut BTreeSet<String>) -> usize {
        match &e.kind {
            ExprKind::Symbol(s) if depth > 0 && s.accents.is_empty() && s.label.is_none() => {
                out.insert(s.key());
                depth
            }
            // (A member, `h_1`, is a letter of its own, by its whole key.)
            ExprKind::Subscript { .. } if depth > 0 && e.symbol_key().is_some() => {
                out.extend(e.symbol_key());
                depth
            }
            ExprKind::Prime { operand } => primed_letters(operand, depth + 1, out),
            _ => e.children().map(|c| primed_letters(c, depth, out)).max().unwrap_or(depth),
        }
    }
    /// `e` with each prime a derivative in `x`.
    fn in_x(e: &Expr, x: &Expr) -> Expr {
        let mut out = e.clone();
        if let ExprKind::Prime { operand } = &e.kind {
            let of = Box::new(in_x(operand, x));
            out.kind = ExprKind::Derivative { kind: DerivativeKind::Total, of, wrt: Box::new(x.clone()) };
            return out;
        }
        for child in out.children_mut() {
            *child = in_x(child, x);
        }
        out
    }
    /// A derivative written otherwise (`\frac{d}{dx}`, `\partial`, `\mathrm d`), whose order the
    /// second-derivative bound would not count; or one of `letters` applied (`u(x)`), which a
    /// letter read as a function of x cannot be.
    fn out_of_reach(e: &Expr, letters: &BTreeSet<String>) -> bool {
        let one_of = |e: &Expr| e.symbol_key().is_some_and(|k| letters.contains(&k));
        let here = match &e.kind {
            ExprKind::Derivative { .. } | ExprKind::Partial { .. } | ExprKind::Differential { .. } => true,
            ExprKind::Call { func, .. } => one_of(func),
            // (`h_1(x)`, a subscripted letter right before its parenthesis: applied, or a product?)
            ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs, rhs } => {
                let last = crate::syntax::ast::last_factor(lhs);
                one_of(last) && crate::syntax::ast::right_before_parenthesis(last, rhs)
            }
            _ => false,
        };
        here || e.children().any(|c| out_of_reach(c, letters))
    }
    if scope.pinned || claim.reading.marked || scope.knows("x") {
        return None;
    }
    let mut letters = BTreeSet::new();
    let primes = primed_letters(&claim.lhs, 0, &mut letters).max(primed_letters(&claim.rhs, 0, &mut letters));
    letters.remove("x");
    let known = |l: &String| scope.knows(l) || l == "e" || l == "\\pi";
    let elsewhere = out_of_reach(&claim.lhs, &letters) || out_of_reach(&claim.rhs, &letters);
    if !(1..=2).contains(&primes) || letters.iter().any(known) || elsewhere {
        return None;
    }
    let x = Expr::new(ExprKind::Symbol(Symbol::plain("x")), claim.lhs.span);
    let read = Claim { lhs: in_x(&claim.lhs, &x), rhs: in_x(&claim.rhs, &x), ..claim.clone() };
    let mut general = scope.clone();
    for letter in &letters {
        general.general_functions.insert(letter.clone(), vec!["x".to_string()]);
    }
    let mut again = free_indices(&general, &read, super::check_own_claim(&general, &read));
    if again.status != Status::Verified {
        // (`(u\pm v)' = u' \pm v'`: with both signs.)
        again = with_both_signs(&general, &read).unwrap_or(again);
    }
    let functions: Vec<String> = letters.iter().map(|l| format!("{l}(x)")).collect();
    let said = if functions.is_empty() {
        "(\\cdot)' = \\frac{\\mathrm d}{\\mathrm dx}".to_string()
    } else {
        format!("\\forall\\, {}", functions.join(", "))
    };
    verified_saying(again, [said])
}

/// `\sum_k \mu^2(X)`, `E^{2}(X)`: a power of a letter nothing defines right before its
/// parenthesis, which the evaluator refuses (the power of an application, an iterate, or a
/// product?). Checked again read as the power of the application, as `\sin^2 x` is (sin x)^2,
/// each such letter a function nobody specified; a verification under that reading is kept,
/// naming it (`\mu^2(X) = (\mu(X))^2`), never a refutation.
pub(super) fn with_powers_of_applications(
    scope: &Scope,
    claim: &Claim,
    free_indices: &dyn Fn(&Scope, &Claim, Verdict) -> Verdict,
) -> Option<Verdict> {
    fn read(e: &Expr, heads: &mut Vec<(String, String)>) -> Expr {
        /// `lhs` with its last factor (side by side) replaced by `new`.
        fn with_last_factor(lhs: &Expr, new: Expr) -> Expr {
            match &lhs.kind {
                ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs: left, rhs: right } => {
                    let right = Box::new(with_last_factor(right, new));
                    let kind =
                        ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs: left.clone(), rhs: right };
                    Expr::new(kind, lhs.span)
                }
                _ => new,
            }
        }
        if let ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs, rhs } = &e.kind {
            let power = crate::syntax::ast::power_before_parenthesis(lhs, rhs);
            if let (Some((power, base, exponent)), ExprKind::Fenced { inner: Some(inner), .. }) = (power, &rhs.kind) {
                let args = match &inner.kind {
                    ExprKind::Tuple { items, .. } => items.iter().map(|a| read(a, heads)).collect(),
                    _ => vec![read(inner, heads)],
                };
                let tex = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| false);
                let (b, k, a) = (tex(base), tex(exponent), tex(inner));
                let said = format!("{b}^{{{k}}}({a}) = \\left({b}({a})\\right)^{{{k}}}");
                heads.push((base.symbol_key().unwrap_or_default(), said));
                let span = crate::syntax::ast::Span::new(power.span.start, rhs.span.end);
                let call = ExprKind::Call { func: Box::new(base.clone()), args, postfixed: false };
                let call = Box::new(Expr::new(call, span));
                let read_power = Expr::new(ExprKind::Power { base: call, exponent: Box::new(exponent.clone()) }, span);
                return with_last_factor(&read(lhs, heads), read_power);
            }
        }
        let mut out = e.clone();
        for child in out.children_mut() {
            *child = read(child, heads);
        }
        out
    }
    let mut heads = Vec::new();
    let again = Claim { lhs: read(&claim.lhs, &mut heads), rhs: read(&claim.rhs, &mut heads), ..claim.clone() };
    if heads.is_empty()
        || scope.pinned
        || claim.reading.marked
        || heads.iter().any(|(key, _)| key.is_empty() || scope.knows(key) || scope.usage.values.contains(key))
    {
        return None;
    }
    let mut general = scope.clone();
    general.usage.unknown_functions.extend(heads.iter().map(|(key, _)| key.clone()));
    let verdict = free_indices(&general, &again, super::check_own_claim(&general, &again));
    let mut said: Vec<String> = heads.iter().map(|(_, said)| said.clone()).collect();
    said.sort();
    said.dedup();
    verified_saying(verdict, said)
}

/// `|AB| = |A||B|`, `|A^T| = |A|`: bars around a square matrix, which may be its determinant
/// (行列式 |A|, as textbooks write it) or a norm. Checked again with every such `|·|` the
/// determinant; only a verification is kept, saying so (`|A| = \det A`).
pub(super) fn with_bars_as_determinants(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    fn barred(e: &Expr) -> bool {
        matches!(&e.kind, ExprKind::Abs { .. })
            || matches!(&e.kind, ExprKind::Fenced { open, .. } if crate::syntax::ast::opens_absolute_value(open))
            || e.children().any(barred)
    }
    if scope.second_look.bars_as_determinants || !(barred(&claim.lhs) || barred(&claim.rhs)) {
        return None;
    }
    let general =
        Scope { second_look: SecondLook { bars_as_determinants: true, ..scope.second_look }, ..scope.clone() };
    let again = super::check_own_claim(&general, claim);
    verified_saying(again, ["|A| = \\det A".to_string()])
}

/// `(A \pm B)^T = A^T \pm B^T`, `D(X \pm Y) = D(X) + D(Y)`: ± with the same sign wherever the
/// claim writes it, both signs checked; verified where both hold, stating it (`\pm: +, -`). Not
/// for a claim that also writes ∓ (whose sign is the other one), and only a verification is
/// kept: texts write with ± what they then call not necessarily true (不一定成立).
pub(super) fn with_both_signs(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::syntax::ast::BinOp;
    fn signed(e: &Expr, op: BinOp, found: &mut bool) -> Expr {
        let mut out = e.clone();
        if let ExprKind::Binary { op: written @ BinOp::PlusMinus, .. } = &mut out.kind {
            *written = op;
            *found = true;
        }
        for child in out.children_mut() {
            *child = signed(child, op, found);
        }
        out
    }
    if claim.tex.contains("\\mp") {
        return None;
    }
    let mut found = false;
    let with = |op: BinOp, found: &mut bool| Claim {
        lhs: signed(&claim.lhs, op, found),
        rhs: signed(&claim.rhs, op, found),
        ..claim.clone()
    };
    let plus = with(BinOp::Add, &mut found);
    if !found {
        return None;
    }
    let minus = with(BinOp::Sub, &mut found);
    let added = super::check_own_claim(scope, &plus);
    if added.status != Status::Verified {
        return None;
    }
    let subtracted = super::check_own_claim(scope, &minus);
    (subtracted.status == Status::Verified).then(|| {
        let mut assuming = added.assuming.clone();
        assuming.extend(subtracted.assuming.iter().filter(|a| !added.assuming.contains(a)).cloned());
        assuming.push("\\pm\\colon +, -".to_string());
        Verdict { assuming, ..added }
    })
}

/// `\frac{\partial}{\partial \hat y_j^k} \frac12 \sum_j (\hat y_j^k - y_j^k)^2` (the k-th sample's
/// output, 西瓜书's BP): a one-letter superscript that nothing defines, never a size, never bound,
/// and written nowhere in the claim but as the superscript of letters nothing defines, each
/// always with it, labels them (the sample, the layer, the step) as `^{(k)}` would. Checked
/// again with those superscripts as labels, free indices made general as in the first check;
/// only a verification is kept, saying so (`\hat{y}^{k}: k a label`). Not `e^x`, not `^T`.
pub(super) fn with_superscripts_as_labels(
    scope: &Scope,
    claim: &Claim,
    free_indices: &dyn Fn(&Scope, &Claim, Verdict) -> Verdict,
) -> Option<Verdict> {
    /// The letter a power labels: its base a letter (or a letter with an index) nothing defines.
    fn labelled<'e>(scope: &Scope, e: &'e Expr) -> Option<(&'e Expr, String)> {
        let ExprKind::Power { base, exponent } = &e.kind else { return None };
        let ExprKind::Symbol(label) = &exponent.kind else { return None };
        let letter = match &base.kind {
            ExprKind::Symbol(_) => base.as_ref(),
            ExprKind::Subscript { base: inner, .. } if matches!(inner.kind, ExprKind::Symbol(_)) => inner.as_ref(),
            _ => return None,
        };
        let ExprKind::Symbol(symbol) = &letter.kind else { return None };
        let key = letter.symbol_key()?;
        let one_letter = label.name.chars().count() == 1 && label.name.chars().all(|c| c.is_ascii_alphabetic());
        let plain = label.accents.is_empty() && label.style.is_none() && label.label.is_none();
        let open =
            symbol.label.is_none() && key != "e" && !scope.defs.contains_key(&key) && !scope.decls.contains_key(&key);
        (one_letter && plain && open && !matches!(label.name.as_str(), "T" | "H")).then(|| (letter, label.name.clone()))
    }
    /// Every letter used as a label, with the letters it labels; and every letter written, with
    /// how often (a label counted where it labels).
    fn survey(scope: &Scope, e: &Expr, labels: &mut Vec<(String, String)>, written: &mut Vec<String>) {
        if let Some((letter, label)) = labelled(scope, e) {
            labels.push((label, letter.symbol_key().unwrap_or_default()));
            if let ExprKind::Power { base, .. } = &e.kind {
                survey_base(scope, base, labels, written);
            }
            return;
        }
        if let ExprKind::Symbol(s) = &e.kind {
            written.push(s.key());
        }
        e.children().for_each(|c| survey(scope, c, labels, written));
    }
    /// The base of a labelled power: its index letters count as written, its letter does not.
    fn survey_base(scope: &Scope, base: &Expr, labels: &mut Vec<(String, String)>, written: &mut Vec<String>) {
        if let ExprKind::Subscript { index, .. } = &base.kind {
            survey(scope, index, labels, written);
        }
    }
    fn relabel(scope: &Scope, e: &Expr, chosen: &[String]) -> Expr {
        if let Some((_, label)) = labelled(scope, e).filter(|(_, l)| chosen.contains(l)) {
            let ExprKind::Power { base, .. } = &e.kind else { return e.clone() };
            let mut out = base.as_ref().clone();
            let symbol = match &mut out.kind {
                ExprKind::Symbol(s) => s,
                ExprKind::Subscript { base: inner, .. } => match &mut inner.kind {
                    ExprKind::Symbol(s) => s,
                    _ => return e.clone(),
                },
                _ => return e.clone(),
            };
            symbol.label = Some(label);
            out.span = e.span;
            return out;
        }
        let mut out = e.clone();
        for child in out.children_mut() {
            *child = relabel(scope, child, chosen);
        }
        out
    }
    if scope.pinned || claim.reading.marked {
        return None;
    }
    let (mut labels, mut written) = (Vec::new(), Vec::new());
    survey(scope, &claim.lhs, &mut labels, &mut written);
    survey(scope, &claim.rhs, &mut labels, &mut written);
    let labelled_letters: Vec<&String> = labels.iter().map(|(_, letter)| letter).collect();
    let mut chosen: Vec<String> = labels
        .iter()
        .map(|(label, _)| label.clone())
        .filter(|label| {
            !written.contains(label)
                && !scope.defs.contains_key(label)
                && !scope.sizes.contains_key(label)
                && !scope.decls.contains_key(label)
        })
        .collect();
    chosen.sort();
    chosen.dedup();
    // (A letter written both with the label and without it: `y^k` beside `y` relates them.)
    if chosen.is_empty() || labelled_letters.iter().any(|letter| written.contains(letter)) {
        return None;
    }
    let read =
        Claim { lhs: relabel(scope, &claim.lhs, &chosen), rhs: relabel(scope, &claim.rhs, &chosen), ..claim.clone() };
    let again = free_indices(scope, &read, super::check_own_claim(scope, &read));
    verified_saying(again, chosen.iter().map(|label| format!("{label}\\ \\text{{a label}}")))
}

/// `\binom{m-1}{i} + \binom{m-1}{i-1} = \binom{m}{i}`, `n! = n\,(n-1)!`: a factorial or a
/// binomial coefficient of letters nothing gives a value says those letters are whole numbers.
/// Checked again at whole values of them (0 to [`WHOLE_UP_TO`], every combination where each
/// factorial's argument is whole and not negative and each binomial coefficient's lower entry
/// lies between 0 and its upper one); only a verification is kept, listing the letters and the
/// combinations checked (a proof for those values, not for every whole number).
pub(super) fn with_whole_numbers(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    /// The arguments a factorial or a binomial coefficient takes, each with whether it is a
    /// binomial's (upper, lower) pair.
    fn counted<'e>(e: &'e Expr, out: &mut Vec<(&'e Expr, Option<&'e Expr>)>) {
        if let ExprKind::Apply { func, args, .. } = &e.kind {
            match (func.name.as_str(), args.as_slice()) {
                (crate::syntax::ast::FACTORIAL, [n]) => out.push((n, None)),
                (crate::syntax::ast::BINOMIAL, [n, k]) => out.push((n, Some(k))),
                _ => {}
            }
        }
        e.children().for_each(|c| counted(c, out));
    }
    /// The whole value of `e` (numbers, the letters' values, +, −, ×), if it has one.
    fn whole(e: &Expr, at: &BTreeMap<String, i64>) -> Option<i64> {
        use crate::syntax::ast::BinOp;
        match &e.kind {
            ExprKind::Number { value } => value.parse().ok(),
            ExprKind::Symbol(_) => at.get(&e.symbol_key()?).copied(),
            ExprKind::Neg { operand } => whole(operand, at).map(|v| -v),
            ExprKind::Fenced { inner: Some(inner), open, .. } if open == "(" || open == "{" => whole(inner, at),
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (whole(lhs, at)?, whole(rhs, at)?);
                match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Implicit | BinOp::Cdot | BinOp::Times => a.checked_mul(b),
                    _ => None,
                }
            }
            _ => None,
        }
    }
    fn letters_of(e: &Expr, out: &mut Vec<String>) {
        if let (ExprKind::Symbol(s), Some(key)) = (&e.kind, e.symbol_key()) {
            let small = s.name.chars().count() == 1 && s.name.chars().all(|c| c.is_ascii_lowercase());
            if small && s.accents.is_empty() && s.style.is_none() && s.label.is_none() && !out.contains(&key) {
                out.push(key);
            }
        }
        e.children().for_each(|c| letters_of(c, out));
    }
    if scope.pinned || claim.reading.marked {
        return None;
    }
    let mut arguments = Vec::new();
    counted(&claim.lhs, &mut arguments);
    counted(&claim.rhs, &mut arguments);
    let mut letters = Vec::new();
    for (n, k) in &arguments {
        letters_of(n, &mut letters);
        k.iter().for_each(|k| letters_of(k, &mut letters));
    }
    // (A size the section gives, `n` of `\sum_{i=1}^n`, keeps its values.)
    let meaning = |key: &String| scope.defs.contains_key(key) || scope.decls.contains_key(key);
    letters.retain(|key| !scope.sizes.contains_key(key));
    if letters.is_empty() || letters.len() > 3 || letters.iter().any(meaning) {
        return None;
    }
    let values: Vec<i64> = (0..=WHOLE_UP_TO).collect();
    let choices: Vec<(&String, &[i64])> = letters.iter().map(|l| (l, values.as_slice())).collect();
    let defined = |at: &BTreeMap<String, i64>| {
        arguments.iter().all(|(n, k)| match (whole(n, at), k.map(|k| whole(k, at))) {
            (Some(n), None) => n >= 0,
            (Some(n), Some(Some(k))) => 0 <= k && k <= n,
            (None, Some(Some(k))) => k >= 0,
            _ => false,
        })
    };
    // Every combination of the sizes the section gives with whole values of the letters, where
    // each factorial and binomial coefficient is defined.
    let sets: Vec<BTreeMap<String, i64>> = scope
        .size_assignments()
        .iter()
        .flat_map(|sizes| crate::sema::scope::every_assignment(sizes, &choices))
        .filter(defined)
        .take(MAX_WHOLE_COMBINATIONS)
        .collect();
    if sets.len() < 3 {
        return None;
    }
    let mut general = scope.clone();
    for letter in &letters {
        general.sizes.insert(letter.clone(), values.clone());
    }
    let again = super::where_defined(&general, claim, &sets, None, None);
    let listed = format!("{}\\ \\text{{whole}}", letters.join(", "));
    verified_saying(again, [listed])
}

/// The largest whole value [`with_whole_numbers`] gives a letter, and how many combinations it
/// checks at most.
const WHOLE_UP_TO: i64 = 6;
const MAX_WHOLE_COMBINATIONS: usize = 48;

/// `(\mathbf W\mathbf W^\top)^\top = \mathbf W\mathbf W^\top` where the section's uses of W do not
/// fit one another, so W has no shape: checked again with the shapes the claim's own sides force
/// on the vectors and matrices nothing declares ([`crate::sema::shapes_of_one_claim`]), new
/// sizes tried at 2 and 3. Only a verification is kept, listing the shapes: what holds at every
/// shape the claim allows holds at the one the text means.
pub(super) fn with_shapes_of_the_claim(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    if scope.pinned || claim.reading.marked {
        return None;
    }
    let (shaped, shapes) = crate::sema::shapes_of_one_claim(scope, &claim.lhs, &claim.rhs)?;
    let again = super::check_own_claim(&shaped, claim);
    verified_saying(again, shapes.iter().map(super::letters::shape_tex))
}

/// `{\varsigma}'(z) = \varsigma(z)(1-\varsigma(z))` where z's definition writes what derivcheck
/// cannot read (`z = \sum w_j x_j + b`, a sum without an index), `\frac{\partial}{\partial
/// \boldsymbol X}\log|\det \boldsymbol X|` after `X := \{\boldsymbol x_1, \dots\}`: a claim left
/// unread at a letter the section defines by a value (not a function), the verdict's `focus` on
/// it, is checked again with that letter made general; what holds for every value holds for the
/// one defined. Not where the claim differentiates or integrates by anything but that letter, nor
/// through a prime on anything but a function's name; only a verification is kept, listing the
/// letter (`\forall\, z`).
pub(super) fn with_unread_definitions_general(scope: &Scope, claim: &Claim, verdict: &Verdict) -> Option<Verdict> {
    /// The keys of the letters written within `focus` (a letter, or a letter with an index).
    fn at_focus(e: &Expr, focus: (usize, usize), out: &mut Vec<String>) {
        let within = focus.0 <= e.span.start && e.span.end <= focus.1;
        if let (true, ExprKind::Symbol(_) | ExprKind::Subscript { .. }, Some(key)) = (within, &e.kind, e.symbol_key()) {
            if !out.contains(&key) {
                out.push(key);
            }
            return;
        }
        e.children().for_each(|c| at_focus(c, focus, out));
    }
    /// The letters the claim differentiates or integrates by (the whole of a derivative's `wrt`,
    /// a bare ∂'s or d's operand, an integral); `None` for a prime on anything but a letter
    /// (`(x^2)'`: by what?).
    fn varied(e: &Expr, out: &mut BTreeSet<String>) -> Option<()> {
        match &e.kind {
            ExprKind::Derivative { wrt, .. } => keys_in(wrt, out),
            ExprKind::Partial { operand: Some(operand), .. } | ExprKind::Differential { operand } => {
                keys_in(operand, out)
            }
            ExprKind::BigOp { op, body: Some(body), .. } if op.is_integral() => {
                crate::syntax::ast::integrand_and_variables(body).1.iter().for_each(|v| keys_in(v, out))
            }
            ExprKind::Prime { operand } if !matches!(operand.kind, ExprKind::Symbol(_)) => return None,
            _ => {}
        }
        e.children().try_for_each(|c| varied(c, out))
    }
    if scope.pinned || claim.reading.marked {
        return None;
    }
    let mut variables = BTreeSet::new();
    varied(&claim.lhs, &mut variables)?;
    varied(&claim.rhs, &mut variables)?;
    let focus = verdict.focus?;
    let mut unread = Vec::new();
    at_focus(&claim.lhs, focus, &mut unread);
    at_focus(&claim.rhs, focus, &mut unread);
    // (One letter marked, not a stretch of the claim.)
    let [letter] = unread.as_slice() else { return None };
    let definition = scope.defs.get(letter).filter(|d| !d.function && d.params.is_empty())?;
    // (A derivative only by the letter made general, `\frac{\partial}{\partial \boldsymbol X}`: by
    // anything else, a product of letters nobody defines, `LL(D)` read as L·L·D, has the
    // derivative 0, which says nothing. The letter's own definition never reaches it.)
    if variables.iter().any(|v| v != letter) {
        return None;
    }
    let general = with_letters_general(scope, &[definition]);
    let said = format!("\\forall\\, {letter}");
    // (A letter made general has no shape of its own: the claim's sides may give it one.)
    verified_saying(super::check_own_claim(&general, claim), [said.clone()])
        .or_else(|| with_shapes_of_the_claim(&general, claim).and_then(|v| verified_saying(v, [said])))
}

/// `Q = \begin{bmatrix}\cos 90 & -\sin 90 \\ \sin 90 & \cos 90\end{bmatrix} = \begin{bmatrix}0 & -1
/// \\ 1 & 0\end{bmatrix}` (`rotating by $90^\circ$`): a trigonometric function of a whole number
/// of degrees written without the sign (a multiple of 15 up to 360, which no one means in
/// radians). A claim refuted with the number read in radians is checked again with every such
/// argument read in degrees, in the claim and in the definitions of the section; a verification
/// so is kept, saying so. `None` where the claim writes no such argument or fails so too (the
/// refutation stands: false either way).
pub(super) fn in_degrees(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    fn whole_degrees(e: &Expr) -> bool {
        let ExprKind::Number { value } = &e.kind else { return false };
        value.parse::<i64>().is_ok_and(|n| n > 0 && n <= 360 && n % 15 == 0)
    }
    fn degrees_read(e: &Expr, found: &mut bool) -> Expr {
        use crate::syntax::ast::{BinOp, Symbol};
        const TRIGONOMETRIC: [&str; 6] = ["sin", "cos", "tan", "cot", "sec", "csc"];
        let mut out = e.clone();
        if let ExprKind::Apply { func, args, .. } = &mut out.kind {
            if TRIGONOMETRIC.contains(&func.name.as_str()) {
                for arg in args.iter_mut() {
                    if whole_degrees(arg) {
                        *found = true;
                        let span = arg.span;
                        let pi = Expr::new(ExprKind::Symbol(Symbol::plain("pi")), span);
                        let product =
                            ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(arg.clone()), rhs: Box::new(pi) };
                        let num = Box::new(Expr::new(product, span));
                        let den = Box::new(Expr::new(ExprKind::Number { value: "180".into() }, span));
                        *arg = Expr::new(ExprKind::Frac { num, den }, span);
                    }
                }
            }
        }
        for child in out.children_mut() {
            *child = degrees_read(child, found);
        }
        out
    }
    if claim.reading.marked || scope.pinned {
        return None;
    }
    let mut found = false;
    let read =
        Claim { lhs: degrees_read(&claim.lhs, &mut found), rhs: degrees_read(&claim.rhs, &mut found), ..claim.clone() };
    let mut in_degrees = scope.clone();
    for def in in_degrees.defs.values_mut() {
        def.body = degrees_read(&def.body, &mut found);
    }
    if !found {
        return None;
    }
    let again = super::check_own_claim(&in_degrees, &read);
    verified_saying(again, ["\\text{trigonometric arguments in degrees}".to_string()])
}

/// `x^\top A x = \sum_i\sum_j A_{ij}x_ix_j = x_1A_{11}x_1 + x_1A_{12}x_2 + x_2A_{21}x_1 +
/// x_2A_{22}x_2`: a side written out entry by entry, with whole-number indices and no `\cdots`,
/// shows the claim at one size, the largest index written. A claim refuted at the sizes tried
/// for shapes nobody fixed (where the spec does not pin them) is checked again with every free
/// size that one; a verification so is kept, saying the size. `None` where the claim writes no
/// such entries, writes an ellipsis, or fails at that size too (the refutation stands).
pub(super) fn at_the_size_written_out(scope: &Scope, claim: &Claim, trial: &dyn Trial) -> Option<Verdict> {
    fn largest_index(e: &Expr, ellipsis: &mut bool, largest: &mut i64, entries: &mut usize) {
        match &e.kind {
            ExprKind::Ellipsis => *ellipsis = true,
            ExprKind::Subscript { base, index } if matches!(base.kind, ExprKind::Symbol(_)) => {
                let digits = match &index.kind {
                    ExprKind::Number { value } if value.chars().all(|c| c.is_ascii_digit()) => Some(value.as_str()),
                    _ => None,
                };
                if let Some(digits) = digits {
                    // (`A_{12}`: two indices of one digit each.)
                    let each: Vec<i64> = if digits.len() == 2 {
                        digits.chars().filter_map(|c| c.to_digit(10)).map(i64::from).collect()
                    } else {
                        digits.parse().ok().into_iter().collect()
                    };
                    *largest = each.into_iter().fold(*largest, i64::max);
                    *entries += 1;
                }
            }
            _ => {}
        }
        e.children().for_each(|c| largest_index(c, ellipsis, largest, entries));
    }
    if scope.pinned || claim.reading.marked || scope.usage.inferred.is_empty() {
        return None;
    }
    let (mut ellipsis, mut largest, mut entries) = (false, 0, 0);
    largest_index(&claim.lhs, &mut ellipsis, &mut largest, &mut entries);
    largest_index(&claim.rhs, &mut ellipsis, &mut largest, &mut entries);
    if ellipsis || entries < 2 || !(2..=9).contains(&largest) {
        return None;
    }
    let mut written = scope.clone();
    for values in written.sizes.values_mut() {
        *values = vec![largest];
    }
    written.crosscheck.clear();
    let again = trial.own_verdict_in(&written);
    verified_saying(again, [format!("\\text{{the size the entries written out show: }} {largest}")])
}

/// `\lambda_1 = \frac{1+\sqrt3 i}{2}` of `\lambda^2 - \lambda + 1 = 0`, `(1+i)^2 = 2i`, in notes
/// that speak of complex numbers (`复数`, `imaginary`), i defined nowhere: left open as a letter
/// (`imaginary_or_letter`), the claim is checked again with i the imaginary unit,
/// `\sqrt{-1}`. Only a verification is kept, saying so (`i=\sqrt{-1}`): derivcheck's numbers are
/// real, so a counterexample through a complex value is no evidence.
pub(super) fn with_the_imaginary_unit(scope: &Scope, claim: &Claim, trial: &dyn Trial) -> Option<Verdict> {
    if !claim.reading.complex || scope.defs.contains_key("i") || scope.decls.contains_key("i") {
        return None;
    }
    let unit = crate::syntax::parse_formula(r"\sqrt{-1}").ok()?.chains.first()?.first.clone()?;
    let mut own = super::letters::claim_scope(scope, claim).unwrap_or_else(|| scope.clone());
    own.defs.insert("i".into(), crate::sema::Definition::value("i".into(), unit, r"i = \sqrt{-1}".into()));
    let again = trial.own_verdict_in(&own);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.push(r"i=\sqrt{-1}".into());
        Verdict { assuming, ..again }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::syntax::first_side as side;

    /// `\nabla_\theta p(x)` with p(x) short for p(x; θ): made general, p is a function of θ too.
    #[test]
    fn a_probability_made_general_depends_on_what_the_claim_differentiates_by() {
        let scope = Scope::default();
        let past = |l: &str, r: &str| differentiated_past_arguments(&scope, [&side(l), &side(r)]).len();
        assert_eq!(past(r"\nabla_{\theta} \sum_x p(x) f(x)", r"\sum_x \nabla_{\theta} p(x) f(x)"), 1);
        assert_eq!(past(r"\frac{\partial}{\partial \theta} \log p(x \mid \theta)", r"\frac{1}{p(x \mid \theta)}"), 0);
        assert_eq!(past(r"P(A \mid B) P(B)", r"P(A, B)"), 0);
        let (mut general, mut heads, mut written) = (Scope::default(), Vec::new(), Vec::new());
        let by = [side(r"\theta")];
        let read = applications_general(&side("p(x) f(x)"), &mut general, &by, &mut heads, &mut written);
        let tex = crate::syntax::print::explicit_tex(&read, &|_| false);
        assert!(tex.contains(r"\theta"), "{tex}");
    }

    /// One function per way of writing the arguments and set of letters written: `P(A \mid B)`,
    /// `P(A, B)`, `P(B)` and `P(C \mid B)` are four, `p(x)` and `p(x_1)` one, `p(y)` another.
    #[test]
    fn each_way_of_writing_a_probability_is_a_function_of_its_own() {
        let mut scope = Scope::default();
        let (mut heads, mut written) = (Vec::new(), Vec::new());
        let e = side(r"P(A \mid B) + P(A, B) + P(B) + P(C \mid B) + p(x) + p(x_1) + p(y)");
        let general = applications_general(&e, &mut scope, &[], &mut heads, &mut written);
        assert_eq!(heads, ["P", "p"]);
        // P(A|B), P(A,B), P(B), P(C|B), p of x (x and x_1), p of y.
        assert_eq!(scope.usage.unknown_functions.len(), 6, "{:?}", scope.usage.unknown_functions);
        assert_eq!(written.len(), 7);
        assert!(written.iter().any(|(_, text)| text.contains(r"A \mid B")), "{written:?}");
        assert!(!crate::syntax::print::explicit_tex(&general, &|_| true).contains(r"\mid"));
        // A letter the scope defines is not made general.
        let mut defined = Scope::default();
        defined.usage.values.insert("P".to_string());
        let (mut heads, mut written) = (Vec::new(), Vec::new());
        applications_general(&side("P(x)"), &mut defined, &[], &mut heads, &mut written);
        assert!(heads.is_empty());
    }

    /// `\theta^T x^{(i)}` becomes a spare letter with the label i, the same letter wherever θ
    /// and x meet; a product of a letter the scope defines stays.
    #[test]
    fn an_inner_product_of_unknown_letters_is_a_number_per_label() {
        let scope = Scope::default();
        let (mut spare, mut products) = (vec!["varpi", "varrho"], Vec::new());
        let e = side(r"e^{-\theta^T x^{(i)}} + \theta^T x^{(1)} + w^T x_j");
        let read = inner_products_as_numbers(&e, &scope, &mut spare, &mut products);
        let tex = crate::syntax::print::explicit_tex(&read, &|_| false);
        assert!(
            tex.contains(r"\varpi^{(i)}") && tex.contains(r"\varpi^{(1)}") && tex.contains(r"{\varrho}_{j}"),
            "{tex}"
        );
        assert_eq!(products.len(), 2, "{products:?}");
        let mut defined = Scope::default();
        let body = side("2");
        let w = crate::sema::Definition::value("w".into(), body, "notes.md:1:1".into());
        defined.defs.insert("w".into(), w);
        let (mut spare, mut products) = (vec!["varpi"], Vec::new());
        inner_products_as_numbers(&side("w^T x"), &defined, &mut spare, &mut products);
        assert!(products.is_empty());
    }
}
