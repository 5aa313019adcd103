//! What a claim's letters are, for the readings: entries, derivatives by an entry, applied
//! letters, shapes from use, letters reached through definitions, printed precision.

use super::constraint::free_letters_of_claim;
use crate::model::{Method, Reason, Status, Verdict};
use crate::sema::Claim;
use crate::sema::{Decl, Definition, Origin, Scope};
use crate::syntax::ast::{BinOp, Expr, ExprKind};
use std::collections::{BTreeMap, BTreeSet};

/// How many values an index the notes give no range is tried at (`\sum_i p_i \log p_i`: i = 1..N
/// for N = 1..4).
pub(super) const FREE_RANGE_SIZES: [i64; 4] = [1, 2, 3, 4];

/// The first letter (sorted) that `claim` writes both bare and as the base of a subscript, which
/// the scope neither declares nor defines (`y` beside `y_1, \ldots, y_n`).
pub(super) fn bare_with_entries(scope: &Scope, claim: &Claim) -> Option<String> {
    let (mut bare, mut based) = (BTreeSet::new(), BTreeSet::new());
    bare_and_entries(&claim.lhs, &mut bare, &mut based);
    bare_and_entries(&claim.rhs, &mut bare, &mut based);
    bare.intersection(&based)
        .find(|k| {
            !scope.decls.contains_key(*k) && !scope.defs.contains_key(*k) && !scope.usage.unknown_functions.contains(*k)
        })
        .cloned()
}

/// The letters `e` writes bare (into `bare`) and as the base of an entry (into `based`: `x_i`).
fn bare_and_entries(e: &Expr, bare: &mut BTreeSet<String>, based: &mut BTreeSet<String>) {
    match &e.kind {
        ExprKind::Symbol(s) => {
            bare.insert(s.key());
        }
        ExprKind::Subscript { base, index } => match &base.kind {
            // (An entry's index is a number or small letters: `\mu_X`, `\sigma_Y` name the
            // moment of a variable, `h_{\text{inv}}` a label.)
            ExprKind::Symbol(s) if entry_index(index) => {
                based.insert(s.key());
            }
            ExprKind::Symbol(_) => {}
            _ => bare_and_entries(base, bare, based),
        },
        _ => e.children().for_each(|c| bare_and_entries(c, bare, based)),
    }
}

/// The letters the claim writes bare (`x - t`) and, in it or in a definition it reaches, with
/// entries (`x_i`; `t_i` of `E = \frac12\sum_i (x_i - t_i)^2`), which nothing declares or
/// defines: vectors read as numbers by default. With each, the size a sum over its entries runs
/// to (`\sum_{i=1}^m`), where one such sum has a size for its upper limit.
pub(super) fn vectors_by_their_entries(scope: &Scope, claim: &Claim) -> Vec<(String, Option<String>)> {
    let (mut bare, mut with_entries) = (BTreeSet::new(), BTreeSet::new());
    bare_and_entries(&claim.lhs, &mut bare, &mut with_entries);
    bare_and_entries(&claim.rhs, &mut bare, &mut with_entries);
    let reached: Vec<&Expr> =
        crate::eval::dependencies(scope, claim).iter().filter_map(|k| scope.defs.get(k)).map(|d| &d.body).collect();
    // (What a definition writes bare is no use of the claim's.)
    reached.iter().for_each(|body| bare_and_entries(body, &mut BTreeSet::new(), &mut with_entries));
    let free = |k: &String| {
        !scope.decls.contains_key(k)
            && !scope.defs.contains_key(k)
            && !scope.usage.unknown_functions.contains(k)
            && !scope.sizes.contains_key(k)
    };
    bare.intersection(&with_entries)
        .filter(|k| free(k))
        .map(|k| {
            // `\sum_{i=1}^m (x_i - t_i)^2`: the entries of x and t run to m.
            let mut sizes = Vec::new();
            for e in [&claim.lhs, &claim.rhs].into_iter().chain(reached.iter().copied()) {
                sizes_of_sums_over(e, std::slice::from_ref(k), scope, &mut sizes);
            }
            sizes.sort();
            sizes.dedup();
            let size = match sizes.as_slice() {
                [one] => Some(one.clone()),
                _ => None,
            };
            (k.clone(), size)
        })
        .collect()
}

/// The sizes m of the sums `\sum_{k=1}^{m}` in `e` (`k = 1` only: the range is then 1..m; m a
/// size of the scope) over a body that subscripts one of `bases` by k, pushed to `out`.
pub(super) fn sizes_of_sums_over(e: &Expr, bases: &[String], scope: &Scope, out: &mut Vec<String>) {
    if let Some((index, upper, body)) = sum_from_one(e) {
        if let Some(size) = upper.symbol_key().filter(|k| scope.sizes.contains_key(k)) {
            let mut summed = Vec::new();
            letters_indexed_by(body, &index, &mut summed);
            if summed.iter().any(|b| bases.contains(b)) {
                out.push(size);
            }
        }
    }
    e.children().for_each(|c| sizes_of_sums_over(c, bases, scope, out));
}

/// `\delta x = [\frac{\partial E}{\partial x_i}]_i = x - t` with `E = \frac12\sum_i (x_i - t_i)^2`:
/// a letter the claim (or a definition it reaches) writes bare and with entries, which nothing
/// declares, is the vector of those entries. Checked again with it a column of a size of its own
/// (tried at 1 to 4, its entry indices over it); only a verification is kept, saying
/// `x\in\mathbb R^{N}`.
pub(super) fn as_a_vector_of_its_entries(
    scope: &Scope,
    claim: &Claim,
    check: &dyn Fn(&Scope) -> Verdict,
) -> Option<Verdict> {
    if scope.pinned || claim.reading.marked {
        return None;
    }
    let vectors = vectors_by_their_entries(scope, claim);
    if vectors.is_empty() {
        return None;
    }
    // (One fresh size for the vectors no sum gives one: they meet in the claim, x - t.)
    let fresh = ["N", "N_{0}", "N_{1}"].into_iter().find(|n| !scope.sizes.contains_key(*n) && !mentions(claim, n))?;
    let mut vector = scope.clone();
    let mut said = Vec::new();
    for (letter, size) in &vectors {
        let size = size.clone().unwrap_or_else(|| {
            vector.sizes.insert(fresh.to_string(), FREE_RANGE_SIZES.to_vec());
            fresh.to_string()
        });
        vector.decls.insert(letter.clone(), Decl::Matrix { rows: size.clone(), cols: "1".to_string() });
        said.push(format!("{}\\in\\mathbb{{R}}^{{{size}}}", bold_letter(letter)));
    }
    let again = check(&vector);
    (again.status == Status::Verified).then(|| {
        let mut assuming = again.assuming.clone();
        assuming.extend(said);
        Verdict { assuming, ..again }
    })
}

/// An index that names an entry: numbers and small Latin letters (`1`, `i`, `ij`, `i,j`, `t-1`).
pub(super) fn entry_index(index: &Expr) -> bool {
    let tex = crate::syntax::print::explicit_tex(index, &|_| false).replace("\\cdot", "");
    tex.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || " ,+-{}".contains(c))
}

/// A claim refuted at no point (numbers only) whose one side is a printed decimal that the other
/// side's value, cut after as many digits, writes exactly (`0.274811083` of 0.27481108350…): the
/// printed digits truncate it. The reading, as the verdict lists it; `None` otherwise (a digit
/// rounded the wrong way, or any other difference, stays refuted).
pub(super) fn truncated_digits(claim: &Claim, verdict: &Verdict) -> Option<String> {
    let mismatch = verdict.counterexample.as_ref()?.mismatch.as_ref()?;
    if !mismatch.point.is_empty() || mismatch.entry.is_some() || verdict.method != Some(Method::Rounded) {
        return None;
    }
    let decimals = |e: &Expr| match &e.kind {
        ExprKind::Number { value } => value.split_once('.').map(|(_, frac)| (value.clone(), frac.len() as i32)),
        _ => None,
    };
    let ((written, digits), computed) = match (decimals(&claim.rhs), decimals(&claim.lhs)) {
        (Some(printed), _) => (printed, mismatch.lhs),
        (None, Some(printed)) => (printed, mismatch.rhs),
        (None, None) => return None,
    };
    let printed: f64 = written.parse().ok()?;
    let scale = 10f64.powi(digits);
    // (Cut toward zero, in units of the last printed digit; the units compared as integers.)
    let cut = (computed * scale * (1.0 + 1e-15 * computed.signum())).trunc();
    let agrees = digits <= 15 && computed.signum() == printed.signum() && cut == (printed * scale).round();
    agrees.then(|| format!("{written} = {computed} truncated to {digits} decimals"))
}

/// A claim between numbers alone, refuted by less than its printed decimals' rounding allows
/// (`\binom{48}{5} \cdot 0.25^5 \cdot 0.75^{43} = 1712304 \cdot 9.765625 \cdot 10^{-4} \cdot 4.24262
/// \cdot 10^{-6}`, 4.24262 rounded from 0.75⁴³ ÷ 10⁻⁶): a decimal printed to four significant digits
/// or more is a value computed and rounded (fewer, `0.25`, a quantity given), standing for the
/// values that round to it, half a unit in its last digit either way; the sides' relative
/// difference is within the sum of those relative errors (a first-order bound, exact for
/// products). The reading, as the verdict lists it; `None` otherwise.
pub(super) fn within_printed_rounding(claim: &Claim, verdict: &Verdict) -> Option<String> {
    let mismatch = verdict.counterexample.as_ref()?.mismatch.as_ref()?;
    if !mismatch.point.is_empty() || mismatch.entry.is_some() {
        return None;
    }
    // (The factors of a product only: a decimal inside a difference or a power, `(0.01 -
    // 0.75136507)^2`, is an input the example gives.)
    fn decimals(e: &Expr, out: &mut Vec<(f64, i32)>) {
        match &e.kind {
            ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
                decimals(lhs, out);
                decimals(rhs, out);
            }
            ExprKind::Number { value } => out.extend(rounded_decimal(value, 4)),
            _ => {}
        }
    }
    let product =
        |e: &Expr| matches!(&e.kind, ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. });
    let mut printed = Vec::new();
    for side in [&claim.lhs, &claim.rhs].into_iter().filter(|side| product(side)) {
        decimals(side, &mut printed);
    }
    let bound: f64 = printed.iter().filter(|(v, _)| *v != 0.0).map(|(v, d)| 0.5 * 10f64.powi(-d) / v.abs()).sum();
    let (l, r) = (mismatch.lhs, mismatch.rhs);
    let gap = (l - r).abs() / l.abs().max(r.abs());
    let within = l.is_finite() && r.is_finite() && l.signum() == r.signum() && bound > 0.0 && gap <= bound;
    if within {
        return Some(format!(
            r"\text{{each printed decimal rounded (relative difference {gap:.1e} within {bound:.1e})}}"
        ));
    }
    within_rounding_of_terms(claim, l, r)
}

/// A number printed with decimals and `significant_at_least` significant digits or more: its
/// value and how many decimals it prints; `None` for any other.
fn rounded_decimal(value: &str, significant_at_least: usize) -> Option<(f64, i32)> {
    let significant = value.chars().filter(char::is_ascii_digit).skip_while(|c| *c == '0').count();
    let (_, fraction) = value.split_once('.')?;
    let parsed = value.parse::<f64>().ok()?;
    (significant >= significant_at_least).then_some((parsed, fraction.len() as i32))
}

/// `78.5475 + (-4.9122) = 73.635263`: a claim between a sum of printed decimals (four significant
/// digits or more: values computed and rounded) and a number, where the sides differ by less than
/// the terms' rounding allows, half a unit in each one's last digit (and half a unit of the other
/// side's): the absolute errors of a sum add. The reading, as the verdict lists it.
fn within_rounding_of_terms(claim: &Claim, l: f64, r: f64) -> Option<String> {
    // Half a unit in the last digit of a decimal number, or `None` for anything but one.
    fn half_unit(e: &Expr, significant_at_least: usize) -> Option<f64> {
        match &e.kind {
            ExprKind::Number { value } => {
                rounded_decimal(value, significant_at_least).map(|(_, digits)| 0.5 * 10f64.powi(-digits))
            }
            ExprKind::Neg { operand } => half_unit(operand, significant_at_least),
            ExprKind::Fenced { inner: Some(inner), .. } => half_unit(inner, significant_at_least),
            _ => None,
        }
    }
    // The rounding of every term of a sum of decimals (`None` where a term is anything else).
    fn terms(e: &Expr, out: &mut Vec<f64>) -> Option<()> {
        match &e.kind {
            ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } => {
                terms(lhs, out)?;
                terms(rhs, out)
            }
            _ => {
                out.push(half_unit(e, 4)?);
                Some(())
            }
        }
    }
    let sum = |e: &Expr| matches!(&e.kind, ExprKind::Binary { op: BinOp::Add | BinOp::Sub, .. });
    let (summed, other) = match (sum(&claim.lhs), sum(&claim.rhs)) {
        (true, false) => (&claim.lhs, &claim.rhs),
        (false, true) => (&claim.rhs, &claim.lhs),
        _ => return None,
    };
    let mut halves = Vec::new();
    terms(summed, &mut halves)?;
    let bound: f64 = halves.iter().sum::<f64>() + half_unit(other, 1).unwrap_or(0.0);
    let gap = (l - r).abs();
    (l.is_finite() && r.is_finite() && gap <= bound * (1.0 + 1e-9))
        .then(|| format!(r"\text{{each printed decimal rounded (difference {gap:.1e} within {bound:.1e})}}"))
}

/// `\sum_{k=1}^{m} body` (its index a letter, starting at 1): the index's key, the upper
/// limit and the body.
pub(super) fn sum_from_one(e: &Expr) -> Option<(String, &Expr, &Expr)> {
    let ExprKind::BigOp {
        op: crate::syntax::ast::BigOpKind::Sum,
        lower: Some(lower),
        upper: Some(upper),
        body: Some(body),
    } = &e.kind
    else {
        return None;
    };
    let ExprKind::Relation { chain } = &lower.kind else { return None };
    let (Some(index), [link]) = (chain.first.as_ref(), chain.links.as_slice()) else { return None };
    let from_one = link.op == crate::syntax::ast::RelOp::Eq
        && matches!(&link.rhs.kind, ExprKind::Number { value } if value == "1");
    Some((index.symbol_key()?, upper.as_ref(), body.as_ref())).filter(|_| from_one)
}

/// The letters `e` subscripts by the index `index` (`y` and `x` of `y_k x_k`), each once.
pub(super) fn letters_indexed_by(e: &Expr, index: &str, out: &mut Vec<String>) {
    if let ExprKind::Subscript { base, index: i } = &e.kind {
        if i.symbol_key().as_deref() == Some(index) {
            if let Some(key) = base.symbol_key().filter(|k| !out.contains(k)) {
                out.push(key);
            }
        }
    }
    e.children().for_each(|c| letters_indexed_by(c, index, out));
}

/// `\sum_{j=1}^q y_j = 1` for each letter the claim sums over an index with a size
/// (`\sum_{j=1}^q y_j \log \hat y_j`), in the claim or in a definition it uses: the entries
/// summing to 1, as an assumption to check again under, with the letter's name.
pub(super) fn sums_to_one(scope: &Scope, claim: &Claim) -> Vec<(String, crate::sema::Assumption)> {
    fn walk(e: &Expr, out: &mut Vec<(String, String)>) {
        if let Some((index, upper, body)) = sum_from_one(e) {
            let mut members = Vec::new();
            letters_indexed_by(body, &index, &mut members);
            for member in members {
                let upper = crate::syntax::print::explicit_tex(upper, &|_| false);
                let tex = format!("\\sum_{{{index}=1}}^{{{upper}}} {member}_{{{index}}} = 1");
                if !out.iter().any(|(_, t)| *t == tex) {
                    out.push((member, tex));
                }
            }
        }
        e.children().for_each(|c| walk(c, out));
    }
    let mut found = Vec::new();
    walk(&claim.lhs, &mut found);
    walk(&claim.rhs, &mut found);
    // (`\partial_{o_j} l(\mathbf y, \hat{\mathbf y})`: the sum is in the definition of l.)
    for definition in scope.defs.values().filter(|d| mentions(claim, &d.key)) {
        walk(&definition.body, &mut found);
    }
    found
        .into_iter()
        .filter_map(|(letter, tex)| {
            let statement = crate::syntax::parse_formula(&tex).ok()?;
            let [crate::syntax::ast::Chain { first: Some(lhs), links, .. }] = statement.chains.as_slice() else {
                return None;
            };
            let [link] = links.as_slice() else { return None };
            let assumption = crate::sema::Assumption {
                tex: tex.clone(),
                lhs: lhs.clone(),
                rhs: link.rhs.clone(),
                origin: String::new(),
            };
            Some((letter, assumption))
        })
        .collect()
}

/// The scope with each vector whose size was read off use (never declared) given as many
/// entries as the claim writes of it by number (`u_1`, `u_2`: two), where the claim writes no
/// `\cdots` and every entry it writes of that vector has a number; with each shape read off use
/// it changed, as the verdict lists it, and as it now is (`\mathbf{u}\in\mathbb{R}^{q}` becomes
/// `\mathbf{u}\in\mathbb{R}^{2}`). `None` where no shape changes.
pub(super) fn written_entries_scope(scope: &Scope, claim: &Claim) -> Option<(Scope, Vec<(String, String)>)> {
    fn walk(e: &Expr, f: &mut impl FnMut(&Expr)) {
        f(e);
        e.children().for_each(|c| walk(c, f));
    }
    let mut ellipsis = false;
    let mut written: BTreeMap<String, Option<i64>> = BTreeMap::new();
    for side in [&claim.lhs, &claim.rhs] {
        walk(side, &mut |e| match &e.kind {
            ExprKind::Ellipsis => ellipsis = true,
            ExprKind::Subscript { base, index } => {
                if let Some(key) = base.symbol_key() {
                    let number = match &index.kind {
                        ExprKind::Number { value } => value.parse::<i64>().ok(),
                        _ => None,
                    };
                    let entry = written.entry(key).or_insert(Some(0));
                    *entry = match (*entry, number) {
                        (Some(a), Some(b)) => Some(a.max(b)),
                        _ => None,
                    };
                }
            }
            _ => {}
        });
    }
    if ellipsis {
        return None;
    }
    let mut sized = scope.clone();
    let mut resized = Vec::new();
    for shape in shapes_from_use(scope, claim) {
        let Some(Some(count)) = written.get(&shape.key).copied() else { continue };
        let size_free = shape.cols == "1" && shape.rows.parse::<i64>().is_err();
        if !size_free || count < 1 || !mentions(claim, &shape.key) {
            continue;
        }
        sized.sizes.insert(shape.rows.clone(), vec![count]);
        resized.push((shape_tex(shape), format!("{}\\in\\mathbb{{R}}^{{{count}}}", bold_letter(&shape.key))));
    }
    if resized.is_empty() {
        return None;
    }
    Some((sized, resized))
}

/// A derivative in the claim by a letter (`w^{(k)}`, `w_k`) its function does not reach, while
/// it reaches the letter's base (`w`): the letter and its base, where the claim has one.
pub(super) fn derivative_by_an_entry(scope: &Scope, claim: &Claim) -> Option<(String, String)> {
    first_in_sides(claim, &|e| {
        let ExprKind::Derivative { of, wrt, .. } = &e.kind else { return None };
        let var = wrt.symbol_key()?;
        let whole = match &wrt.kind {
            ExprKind::Subscript { base, .. } => base.symbol_key(),
            _ => var.split(['^', '_']).next().filter(|b| !b.is_empty() && *b != var).map(str::to_string),
        };
        let reached = letters_reached(scope, of);
        whole.filter(|w| !reached.contains(&var) && reached.contains(w)).map(|whole| (var, whole))
    })
}

/// A letter the claim raises to a power (`S^{n}`) that its formula also writes with a
/// parenthesized superscript, the mark of a member of a sequence (`S^{(i)}`), or with two
/// superscripts a whole number apart that are no numbers (`w^{t+1} = w^t - \eta g^t`,
/// `U^{n+1} = U^n + \Delta t f(U^*)`): a superscript that counts steps, as update rules write it.
pub(super) fn power_or_index(claim: &Claim) -> Option<String> {
    let Ok(statement) = crate::syntax::parse_formula(&claim.tex) else { return None };
    let mut members = BTreeSet::new();
    fn collect(e: &Expr, out: &mut BTreeSet<String>) {
        if let Some((base, _)) = e.symbol_key().as_deref().and_then(|k| k.split_once("^{(")) {
            out.insert(base.to_string());
        }
        e.children().for_each(|c| collect(c, out));
    }
    statement.chains.iter().flat_map(|c| c.exprs()).for_each(|e| collect(e, &mut members));
    // (Each letter's superscripts, as a part with letters and a whole-number offset: `t+1` is
    // (t, 1), `t` is (t, 0).)
    fn steps(e: &Expr, out: &mut BTreeMap<String, BTreeSet<(String, i64)>>) {
        if let ExprKind::Power { base, exponent } = &e.kind {
            if let (ExprKind::Symbol(_), Some(key)) = (&base.kind, base.symbol_key()) {
                let offset = |n: &Expr| match &n.kind {
                    ExprKind::Number { value } => value.parse::<i64>().ok(),
                    _ => None,
                };
                let shifted = match &exponent.kind {
                    ExprKind::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs } => {
                        offset(rhs).map(|k| (lhs.as_ref(), if *op == BinOp::Add { k } else { -k }))
                    }
                    _ => None,
                };
                let (part, by) = shifted.unwrap_or((exponent.as_ref(), 0));
                let mut letters = BTreeSet::new();
                keys_in(part, &mut letters);
                if !letters.is_empty() {
                    let tex = crate::syntax::print::explicit_tex(part, &|_| false);
                    out.entry(key).or_default().insert((tex, by));
                }
            }
        }
        e.children().for_each(|c| steps(c, out));
    }
    let mut written = BTreeMap::new();
    statement.chains.iter().flat_map(|c| c.exprs()).for_each(|e| steps(e, &mut written));
    for (key, superscripts) in written {
        let apart = superscripts.iter().any(|(part, by)| superscripts.iter().any(|(p, b)| p == part && b != by));
        if apart {
            members.insert(key);
        }
    }
    first_in_sides(claim, &|e| {
        let ExprKind::Power { base, .. } = &e.kind else { return None };
        base.symbol_key().filter(|k| matches!(base.kind, ExprKind::Symbol(_)) && members.contains(k))
    })
}

/// A letter the claim writes right before a parenthesis (`q(z)`) that nothing defines or
/// declares: read as a product of letter and parenthesis, which is a guess.
pub(super) fn applied_letters(scope: &Scope, claim: &Claim) -> Option<String> {
    first_in_sides(claim, &|e| {
        let ExprKind::Call { func, args, .. } = &e.kind else { return None };
        let key = func.symbol_key().filter(|_| matches!(func.kind, ExprKind::Symbol(_)) && args.len() == 1)?;
        let nothing = !scope.defs.contains_key(&key)
            && !scope.decls.contains_key(&key)
            && !scope.usage.unknown_functions.contains(&key)
            && !scope.usage.parameters.contains(&key);
        nothing.then_some(key)
    })
}

/// `\vec x(t) = e^{At}\vec x(0)`: a letter with an accent or in bold (`\vec x`, `\hat y`,
/// `\mathbf u`) that no formula defines, right before a parenthesis: a vector valued function
/// applied (as texts on differential equations write it) as often as the letter times the
/// parenthesis, whatever shape the text gives it. The letter, where there is one.
pub(super) fn marked_letter_applied(scope: &Scope, claim: &Claim) -> Option<String> {
    first_in_sides(claim, &|e| {
        let ExprKind::Call { func, .. } = &e.kind else { return None };
        let ExprKind::Symbol(s) = &func.kind else { return None };
        // (Not `\mathcal O(…)`, `\mathbb P(…)`: an order, an operator.)
        let marked = !s.accents.is_empty() || s.style == Some(crate::syntax::ast::Style::Bold);
        let key = func.symbol_key()?;
        (marked && !scope.defs.contains_key(&key)).then_some(key)
    })
}

/// `f^{-1}(z)`: a letter raised to −1 right before a parenthesis, where the letter is no value or
/// matrix the section gives: the inverse of a function applied (as texts on flows and changes of
/// variables write it) as often as 1/f times the parenthesis. The letter, where there is one.
pub(super) fn inverse_applied(scope: &Scope, claim: &Claim) -> Option<String> {
    let minus_one = |e: &Expr| {
        matches!(&e.kind, ExprKind::Neg { operand }
            if matches!(&operand.kind, ExprKind::Number { value } if value == "1"))
    };
    let a_value = |key: &str| {
        scope.defs.get(key).is_some_and(|d| !d.function)
            || matches!(scope.decls.get(key), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
            || scope.usage.matrix_like.contains(key)
    };
    first_in_sides(claim, &|e| {
        if !matches!(e.kind, ExprKind::Binary { op: BinOp::Implicit, .. }) {
            return None;
        }
        e.implicit_factors().windows(2).find_map(|pair| {
            let ExprKind::Power { base, exponent } = &pair[0].kind else { return None };
            let parenthesis = matches!(&pair[1].kind, ExprKind::Fenced { open, .. } if open == "(");
            let key = base.symbol_key().filter(|_| matches!(base.kind, ExprKind::Symbol(_)))?;
            (minus_one(exponent) && parenthesis && !a_value(&key)).then_some(key)
        })
    })
}

/// The first `D` (or `D_x`) the notes never define that stands first in a product (`Dx^n`,
/// `D\ln(x)`, `D_x f(x)`).
pub(super) fn operator_letter(scope: &Scope, claim: &Claim) -> Option<String> {
    first_in_sides(claim, &|e| {
        let ExprKind::Binary { op: BinOp::Implicit, lhs, .. } = &e.kind else { return None };
        let head = match &lhs.kind {
            ExprKind::Subscript { base, .. } => base.as_ref(),
            _ => lhs.as_ref(),
        };
        let ExprKind::Symbol(s) = &head.kind else { return None };
        let key = lhs.symbol_key()?;
        let undefined = |k: &str| !scope.defs.contains_key(k) && !scope.decls.contains_key(k);
        (s.name == "D" && s.accents.is_empty() && undefined(&key) && undefined(&s.key())).then_some(key)
    })
}

/// The first node of the claim's sides, the left before the right, each in pre-order (a node
/// before its children), that `found` gives a value.
pub(super) fn first_in_sides<T>(claim: &Claim, found: &dyn Fn(&Expr) -> Option<T>) -> Option<T> {
    fn first<T>(e: &Expr, found: &dyn Fn(&Expr) -> Option<T>) -> Option<T> {
        found(e).or_else(|| e.children().find_map(|c| first(c, found)))
    }
    first(&claim.lhs, found).or_else(|| first(&claim.rhs, found))
}

/// The shapes read off use that the claim reaches (its letters, and those of the definitions it
/// uses).
pub(super) fn shapes_from_use<'s>(scope: &'s Scope, claim: &Claim) -> Vec<&'s crate::sema::shapes::InferredShape> {
    if scope.usage.inferred.is_empty() {
        return Vec::new();
    }
    let used = crate::eval::dependencies(scope, claim);
    scope.usage.inferred.iter().filter(|s| used.contains(&s.key)).collect()
}

/// A vector or matrix letter as the notes write it: `\mathbf{U}`, `\boldsymbol{\delta}`.
pub(super) fn bold_letter(key: &str) -> String {
    if key.len() == 1 && key.chars().all(|c| c.is_ascii_alphabetic()) {
        format!("\\mathbf{{{key}}}")
    } else if key.starts_with('\\') && key[1..].chars().all(|c| c.is_ascii_alphabetic()) {
        format!("\\boldsymbol{{{key}}}")
    } else {
        key.to_string()
    }
}

/// With the one label `label` (t): the offset from t below which members of families defined
/// step by step are unknowns of their own ([`crate::sema::scope::LetterUsage::cut_older_than`]).
/// Every offset where the claim takes no derivative (a value claim is checked with both sides
/// cut alike); the oldest member differentiated by where each derivative of the claim and of
/// the definitions it reaches is by a member `x_t` or `x_{t-k}` and no sum or product binds an
/// index there (`\frac{\partial c_t}{\partial c_{t-1}}`: members older than t−1 cannot
/// depend on c_{t-1}); `None` where a derivative is by anything else (`\frac{\partial
/// h_t}{\partial U}` reaches U through every older step).
pub(super) fn recursion_cut(scope: &Scope, claim: &Claim, label: &str) -> Option<i64> {
    fn offset(wrt: &Expr, label: &str) -> Option<i64> {
        let ExprKind::Subscript { base, index } = &wrt.kind else { return None };
        base.symbol_key()?;
        crate::sema::recurrence::lag(index, label).map(|k| -i64::from(k))
    }
    // Each derivative's offset, or `Err` for one by anything else or a sum or product.
    fn walk(e: &Expr, label: &str, out: &mut Vec<i64>) -> Result<(), ()> {
        match &e.kind {
            ExprKind::Derivative { wrt, .. } => out.push(offset(wrt, label).ok_or(())?),
            ExprKind::Prime { .. } | ExprKind::Partial { .. } | ExprKind::Differential { .. } => return Err(()),
            ExprKind::BigOp { .. } => return Err(()),
            _ => {}
        }
        e.children().try_for_each(|c| walk(c, label, out))
    }
    // (`\frac{\partial}{\partial x_i}(x_1^2 + x_2^2)`, `x_1 + \cdots + x_n`: x_i may be one of
    // them, so every member of a family differentiated by is written at one of t's steps.)
    fn members_at_steps(e: &Expr, label: &str, bases: &BTreeSet<String>) -> bool {
        let here = match &e.kind {
            ExprKind::Ellipsis => false,
            ExprKind::Subscript { base, .. } => {
                base.symbol_key().is_none_or(|k| !bases.contains(&k)) || offset(e, label).is_some()
            }
            _ => true,
        };
        here && e.children().all(|c| members_at_steps(c, label, bases))
    }
    fn differentiated(e: &Expr, out: &mut BTreeSet<String>) {
        if let ExprKind::Derivative { wrt, .. } = &e.kind {
            if let ExprKind::Subscript { base, .. } = &wrt.kind {
                out.extend(base.symbol_key());
            }
        }
        e.children().for_each(|c| differentiated(c, out));
    }
    let reached = crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]);
    let mut offsets = Vec::new();
    let bodies = reached.iter().filter_map(|k| scope.defs.get(k)).map(|d| &d.body);
    let all: Vec<&Expr> = [&claim.lhs, &claim.rhs].into_iter().chain(bodies).collect();
    all.iter().try_for_each(|e| walk(e, label, &mut offsets)).ok()?;
    let mut bases = BTreeSet::new();
    all.iter().for_each(|e| differentiated(e, &mut bases));
    // (A derivative by a member is read of numbers: `\frac{\partial h_t}{\partial h_{t-1}} = W
    // \cdot \text{diag}(1 - h_t^2)` holds of numbers, not of the matrix W the words mean.)
    let of_numbers = offsets.is_empty() || !all.iter().any(|e| of_vectors(e));
    let steps = all.iter().all(|e| members_at_steps(e, label, &bases));
    (steps && of_numbers).then(|| offsets.into_iter().min().unwrap_or(i64::MAX))
}

/// Does `e` write an operation only vectors and matrices have (a transpose, `\odot`, `diag`, a
/// bold letter)?
fn of_vectors(e: &Expr) -> bool {
    let here = match &e.kind {
        ExprKind::Transpose { .. } | ExprKind::Binary { op: BinOp::Hadamard, .. } => true,
        ExprKind::Symbol(s) => s.style.is_some_and(|st| st == crate::syntax::ast::Style::Bold),
        ExprKind::Call { func, .. } => crate::syntax::print::explicit_tex(func, &|_| false).contains("diag"),
        ExprKind::Apply { func, .. } => func.name.contains("diag"),
        _ => false,
    };
    here || e.children().any(of_vectors)
}

/// `\mathbf{U}\in\mathbb{R}^{m\times m}`, `\mathbf{x}\in\mathbb{R}^{m}`: a shape read off use, as
/// the verdict lists it among what the claim was checked under.
pub(super) fn shape_tex(shape: &crate::sema::shapes::InferredShape) -> String {
    let letter = bold_letter(&shape.key);
    if shape.identity {
        return format!("{letter}=I_{{{}}}", shape.rows);
    }
    match (shape.rows.as_str(), shape.cols.as_str()) {
        (rows, "1") => format!("{letter}\\in\\mathbb{{R}}^{{{rows}}}"),
        (rows, cols) => format!("{letter}\\in\\mathbb{{R}}^{{{rows}\\times {cols}}}"),
    }
}

/// `Sigmoid function有一个很好的性质：$\phi'(z)=\phi(z)(1-\phi(z))$`: the function letter
/// `letter`, which nothing defines, read as the function the words name (the claim's
/// [`crate::sema::NamedLetters::function`]): the scope with it defined so, and the assumption
/// the verdict states. `None` where the words name none.
pub(super) fn as_the_function_named(scope: &Scope, claim: &Claim, letter: &str) -> Option<(Scope, String)> {
    let named = claim.reading.named.function?;
    let statement = crate::syntax::parse_formula(named.tex()).ok()?;
    let body = statement.chains.first()?.first.clone()?;
    let mut read = scope.clone();
    read.usage.unknown_functions.remove(letter);
    read.defs.insert(
        letter.to_string(),
        Definition {
            key: letter.to_string(),
            params: vec!["z".into()],
            body,
            origin: String::new(),
            from_notes: true,
            function: true,
            inherited: false,
            section_only: false,
        },
    );
    Some((read, format!("{letter}(z) = {}, the {} the words name", named.tex(), named.name())))
}

/// The unknown function a claim applies when it takes no derivative anywhere (see
/// [`Scope::unknown_functions`]).
pub(super) fn unknown_function_property(scope: &Scope, claim: &Claim) -> Option<String> {
    // A derivative of something built from functions (`(fg)'`, `\frac{d}{dx}F(u(x))`), or of
    // a function the notes define: a rule of calculus decides it. Derivatives of an unknown
    // function alone (`F'(x)`, `\frac{dF}{dx}(x)`, `\frac{d}{dx}F(x)`) only name its values:
    // `F'(x) = F(x)` is a property of F.
    fn bare(e: &Expr, scope: &Scope) -> bool {
        match &e.kind {
            ExprKind::Symbol(_) => e
                .symbol_key()
                .is_some_and(|k| scope.usage.unknown_functions.contains(&k) && !scope.defs.contains_key(&k)),
            ExprKind::Prime { operand } => bare(operand, scope),
            ExprKind::Call { func, args, .. } => {
                bare(func, scope) && args.iter().all(|a| matches!(a.kind, ExprKind::Symbol(_)))
            }
            _ => false,
        }
    }
    // (A derivative of an expression without such a function, `(\frac{1}{1+e^{-z}})'`, is a
    // value calculus gives; it decides nothing about the function.)
    fn derivative(e: &Expr, scope: &Scope) -> bool {
        let of_unknown = |of: &Expr| {
            !bare(of, scope) && {
                let reached = crate::eval::reached(scope, vec![of]);
                scope.usage.unknown_functions.iter().any(|f| reached.contains(f))
            }
        };
        let compound = match &e.kind {
            ExprKind::Derivative { of, .. } => of_unknown(of),
            ExprKind::Prime { operand } => of_unknown(operand),
            ExprKind::Partial { .. } | ExprKind::Differential { .. } => true,
            _ => false,
        };
        compound || e.children().any(|c| derivative(c, scope))
    }
    fn applied(e: &Expr, scope: &Scope) -> Option<String> {
        if let ExprKind::Call { func, .. } = &e.kind {
            if let Some(k) = func.symbol_key().filter(|k| scope.usage.unknown_functions.contains(k)) {
                return Some(k);
            }
        }
        e.children().find_map(|c| applied(c, scope))
    }
    // Each side applies a function the other does not (`\int_a^b f(x)\,dx = F(b)-F(a)`,
    // `\nabla_\theta L(\theta) = \delta\nabla_\theta Q(s, a)`): no rule of calculus relates two
    // functions nobody specified, so the claim says how they are related (F an antiderivative
    // of f). A side that only drops one (`(fg)' = f'g`) is still refuted.
    let unknown = |side: &Expr| -> std::collections::BTreeSet<String> {
        let reached = crate::eval::reached(scope, vec![side]);
        scope.usage.unknown_functions.iter().filter(|f| reached.contains(*f)).cloned().collect()
    };
    let (left, right) = (unknown(&claim.lhs), unknown(&claim.rhs));
    if let (Some(own), Some(_)) = (left.difference(&right).next(), right.difference(&left).next()) {
        return Some(own.clone());
    }
    // `\int_a^b \delta(x-\mu)\,dx = 1`: one side integrates a function nobody specified, the
    // other has none. No rule of calculus gives such an integral's value: it is a property of
    // the function meant.
    for (side, own, other) in [(&claim.lhs, &left, &right), (&claim.rhs, &right, &left)] {
        if let (Some(f), true, true) = (own.iter().next(), other.is_empty(), has_integral(side)) {
            return Some(f.clone());
        }
    }
    let own = claim_scope(scope, claim);
    let with_bindings = own.as_ref().unwrap_or(scope);
    if derivative(&claim.lhs, with_bindings) || derivative(&claim.rhs, with_bindings) {
        return None;
    }
    // A power series of an unknown function (`f(x+\epsilon) = f(x) + \epsilon f'(x) + \cdots`):
    // Taylor's theorem decides it for every smooth function.
    let series = crate::syntax::pattern::truncated_series;
    let ray = crate::syntax::pattern::ray_series;
    if [&claim.lhs, &claim.rhs].iter().any(|side| series(side).is_some() || ray(side).is_some()) {
        return None;
    }
    // (The same, written with `\approx` where the words call the letter small.)
    if claim.approx && claim.reading.named.small.is_some() {
        return None;
    }
    // Applied in the claim, or in a definition it uses (`I(X,Y)=H(X)-H(X\mid Y)`).
    applied(&claim.lhs, scope).or_else(|| applied(&claim.rhs, scope)).or_else(|| {
        let reached = crate::eval::reached(scope, vec![&claim.lhs, &claim.rhs]);
        scope.usage.unknown_functions.iter().find(|f| reached.contains(*f)).cloned()
    })
}

/// The letters an expression depends on, through the definitions it uses: leaves, by family
/// (`x_i`, `x_1` and `x_n` are the letter x; `W_Q` is a name of its own). Sizes, indices,
/// functions and constants are not letters here.
pub(super) fn letters_reached(scope: &Scope, e: &Expr) -> BTreeSet<String> {
    fn index_like(scope: &Scope, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Symbol(s) => {
                let key = s.key();
                scope.is_index(&key)
                    || scope.sizes.contains_key(&key)
                    || (key.chars().count() == 1 && key.chars().all(char::is_lowercase))
            }
            _ => e.children().all(|c| index_like(scope, c)),
        }
    }
    fn walk(scope: &Scope, e: &Expr, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>) {
        let letter = |key: String, seen: &mut BTreeSet<String>, out: &mut BTreeSet<String>| {
            if let Some(def) = scope.defs.get(&key) {
                if seen.insert(key) {
                    walk(scope, &def.body, seen, out);
                }
                return;
            }
            let other = scope.sizes.contains_key(&key)
                || matches!(scope.decls.get(&key), Some(Decl::Index { .. } | Decl::Function(_) | Decl::Set { .. }))
                || matches!(key.as_str(), "\\pi" | "e" | "\\mathrm{e}" | "\\mathbf{1}" | "1" | "\\infty");
            if !other {
                out.insert(key);
            }
        };
        match &e.kind {
            ExprKind::Symbol(s) if !s.is_bold_one() => letter(s.key(), seen, out),
            ExprKind::Subscript { base, index } => match (base.symbol_key(), e.symbol_key()) {
                (Some(family), _)
                    if index_like(scope, index) && !scope.defs.contains_key(&e.symbol_key().unwrap_or_default()) =>
                {
                    // The entries of a vector are the vector; `l_i` of no vector l is a family
                    // of its own, not the letter l.
                    let vector = scope.defs.contains_key(&family)
                        || scope.usage.matrix_like.contains(&family)
                        || matches!(scope.decls.get(&family), Some(Decl::Matrix { .. } | Decl::Family { .. }));
                    letter(if vector { family } else { format!("{family}_•") }, seen, out);
                    walk(scope, index, seen, out);
                }
                (_, Some(name)) => letter(name, seen, out),
                _ => e.children().for_each(|c| walk(scope, c, seen, out)),
            },
            ExprKind::Call { func, args, .. } => {
                if let Some(key) = func.symbol_key() {
                    letter(key, seen, out);
                }
                args.iter().for_each(|a| walk(scope, a, seen, out));
            }
            // `\sum_{i=0}^t \beta^i`: i is bound by the sum.
            ExprKind::BigOp { op, lower, body, .. } => {
                let mut inner = BTreeSet::new();
                e.children().for_each(|c| walk(scope, c, seen, &mut inner));
                for letter in crate::syntax::ast::bound_letters(op, lower.as_deref(), body.as_deref()) {
                    inner.remove(&letter);
                }
                out.extend(inner);
            }
            _ => e.children().for_each(|c| walk(scope, c, seen, out)),
        }
    }
    let (mut seen, mut out) = (BTreeSet::new(), BTreeSet::new());
    walk(scope, e, &mut seen, &mut out);
    out
}

/// Does the claim write the letter `key` itself (not only through a definition)?
pub(super) fn mentions(claim: &Claim, key: &str) -> bool {
    expr_mentions(&claim.lhs, key) || expr_mentions(&claim.rhs, key)
}

/// A refuted claim between numbers alone, one side a power of ten `10^{k}` (|k| ≥ 3) and the
/// other within 10 % of it: the power and both values, as the reason shows them.
pub(super) fn order_of_magnitude(claim: &Claim, verdict: &Verdict) -> Option<(String, String)> {
    fn power_of_ten(e: &Expr) -> Option<i64> {
        let ExprKind::Power { base, exponent } = &e.kind else { return None };
        let ten = matches!(&base.kind, ExprKind::Number { value } if value == "10");
        let k = match &exponent.kind {
            ExprKind::Number { value } => value.parse::<i64>().ok()?,
            ExprKind::Neg { operand } => -match &operand.kind {
                ExprKind::Number { value } => value.parse::<i64>().ok()?,
                _ => return None,
            },
            _ => return None,
        };
        (ten && k.abs() >= 3).then_some(k)
    }
    // Numbers multiplied, divided and raised to powers: a computation whose result the power
    // of ten rounds (a sum, `10^{30}+1`, is exact arithmetic).
    fn numbers_only(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Number { .. } => true,
            ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times | BinOp::Div, lhs, rhs } => {
                numbers_only(lhs) && numbers_only(rhs)
            }
            ExprKind::Power { base, exponent } => numbers_only(base) && numbers_only(exponent),
            ExprKind::Frac { .. } | ExprKind::Fenced { .. } => e.children().all(numbers_only),
            _ => false,
        }
    }
    if !(numbers_only(&claim.lhs) && numbers_only(&claim.rhs)) || claim.approx {
        return None;
    }
    let power = power_of_ten(&claim.lhs).or_else(|| power_of_ten(&claim.rhs))?;
    let mismatch = verdict.counterexample.as_ref()?.mismatch.as_ref()?;
    let target = 10f64.powi(i32::try_from(power).ok()?);
    let other = if power_of_ten(&claim.lhs).is_some() { mismatch.rhs } else { mismatch.lhs };
    let within = ((other - target) / target).abs() < 0.1;
    within.then(|| (format!("10^{{{power}}}"), format!("{:e} against {:e}", mismatch.lhs, mismatch.rhs)))
}

/// Does `e` write the letter `key` anywhere (applied, `f(x)`, too)?
pub(super) fn expr_mentions(e: &Expr, key: &str) -> bool {
    e.symbol_key().is_some_and(|k| k == key)
        || matches!(&e.kind, ExprKind::Call { func, .. } if func.symbol_key().is_some_and(|k| k == key))
        || e.children().any(|c| expr_mentions(c, key))
}

/// The largest size a value the words give makes the size a claim is checked at (beyond it a
/// matrix of that size is too large to check; the sizes tried stay).
const BOUND_SIZE_AT_MOST: i64 = 12;

/// The section's scope with the claim's own definitions in force (bindings of its paragraph,
/// example definitions made before it); `None` when it has none.
pub(super) fn claim_scope(scope: &Scope, claim: &Claim) -> Option<Scope> {
    if claim.reading.overrides.is_empty() && claim.reading.named.classes.is_empty() {
        return None;
    }
    let mut own = scope.clone();
    // `\mathbf w \in \mathbb R^d`, then `w = 2`: a binding never changes a declared shape (a
    // number for a vector is no value of it).
    let declared_vector = |key: &str| {
        matches!(scope.decls.get(key), Some(Decl::Matrix { rows, cols } | Decl::Family { rows, cols })
            if !(rows == "1" && cols == "1"))
    };
    for definition in &claim.reading.overrides {
        let number = matches!(definition.body.kind, ExprKind::Number { .. } | ExprKind::Neg { .. });
        if number && definition.params.is_empty() && declared_vector(&definition.key) {
            continue;
        }
        // `不妨看看$n=10$的情况` of an n×n matrix: a size the words give a small whole number is
        // that size (the claim is checked there only, not at the sizes tried).
        // (Not for the claim that writes the size alone on a side: `在$n=10$次试验中` is that value.)
        let alone = [&claim.lhs, &claim.rhs].iter().any(|e| e.symbol_key().as_deref() == Some(definition.key.as_str()));
        if let (ExprKind::Number { value }, true) = (&definition.body.kind, definition.params.is_empty() && !alone) {
            if let (Ok(n @ 1..=BOUND_SIZE_AT_MOST), Some(sizes)) =
                (value.parse::<i64>(), own.sizes.get_mut(&definition.key))
            {
                *sizes = vec![n];
            }
        }
        own.defs.insert(definition.key.clone(), definition.clone());
    }
    let named: Vec<String> = claim.reading.named.classes.iter().map(|(key, _)| key.clone()).collect();
    make_square(&mut own, &named);
    own.classes.extend(claim.reading.named.classes.iter().cloned());
    Some(own)
}

/// Makes the matrices `keys` whose shape was read off use square where the uses left it open
/// (`\mathbf U\mathbf c` gives U n×m): the size of their columns becomes that of their rows,
/// for every letter sized by it. A kind of matrix (symmetric, diagonal, orthogonal) is square.
pub(super) fn make_square(scope: &mut Scope, keys: &[String]) {
    for key in keys {
        // A shape the notes declare m×n (a picture of a general matrix) for a letter the words
        // then call symmetric: the claim speaks of a square one, m×m.
        if let (false, Some(Decl::Matrix { rows, cols })) = (scope.pinned, scope.decls.get_mut(key)) {
            if rows != cols && rows != "1" && cols != "1" && !scope.usage.inferred.iter().any(|s| &s.key == key) {
                *cols = rows.clone();
            }
        }
        let Some(shape) = scope.usage.inferred.iter().find(|s| &s.key == key && !s.identity) else { continue };
        let (from, to) = (shape.cols.clone(), shape.rows.clone());
        if from == to || from == "1" || to == "1" || from.parse::<u32>().is_ok() {
            continue;
        }
        let inferred = scope.usage.inferred.iter_mut().map(|s| (&mut s.rows, &mut s.cols));
        let declared = scope.decls.values_mut().filter_map(|decl| match decl {
            Decl::Matrix { rows, cols } | Decl::Family { rows, cols } => Some((rows, cols)),
            _ => None,
        });
        for (rows, cols) in inferred.chain(declared) {
            for size in [rows, cols] {
                if *size == from {
                    *size = to.clone();
                }
            }
        }
    }
}

/// What a kind of matrix the words name means, as an assumption the verdict lists.
pub(super) fn class_tex(key: &str, class: crate::sema::MatrixClass) -> String {
    use crate::sema::MatrixClass;
    let key = bold_letter(key);
    match class {
        MatrixClass::Symmetric => format!("{key} = {key}^\\top"),
        MatrixClass::Diagonal => format!("({key})_{{ij}} = 0 \\ (i \\ne j)"),
        MatrixClass::Orthogonal | MatrixClass::OrthogonalReflecting => {
            format!("{key}^\\top {key} = \\mathbf{{I}}")
        }
        MatrixClass::Stochastic => format!("{key}\\mathbf{{1}} = \\mathbf{{1}}"),
    }
}

/// The first letter the claim differentiates (`\frac{\partial E}{\partial x_i}`) that nothing
/// gives a meaning: no definition (its own or its base's), declaration, binding or function
/// reading; or, in a product or another expression differentiated (`\frac{\partial (EF)}{\partial
/// w}`, `\frac{\partial LL(D)}{\partial \Sigma}`) where no letter is the variable or reaches it
/// through a definition, the first such letter: its derivative is 0 only because nothing says how
/// it depends on the variable. `None` where there is none.
pub(super) fn derivative_of_a_free_letter(scope: &Scope, claim: &Claim) -> Option<String> {
    let known = |key: &str| {
        scope.defs.contains_key(key)
            || scope.decls.contains_key(key)
            || scope.usage.unknown_functions.contains(key)
            || scope.usage.unknown_families.contains(key)
            || claim.reading.overrides.iter().any(|d| d.key == key)
            || claim.reading.in_force.iter().any(|r| r.key == key)
    };
    // Does the letter `key` reach the variable `wrt` (itself, or through definitions)?
    let reaches = |key: &str, wrt: &str| {
        let mut seen = vec![key.to_string()];
        let mut at = 0;
        while at < seen.len() {
            if seen[at] == wrt {
                return true;
            }
            if let Some(d) = scope.defs.get(&seen[at]) {
                let mut keys = Vec::new();
                letter_keys(&d.body, &mut keys);
                for k in keys {
                    if !seen.contains(&k) {
                        seen.push(k);
                    }
                }
            }
            at += 1;
        }
        false
    };
    // (`\sum_s \nabla_\phi \log q(s)`: the sum's letter s is no letter left free.)
    let mut bound = Vec::new();
    letters_bound_in(&claim.lhs, &mut bound);
    letters_bound_in(&claim.rhs, &mut bound);
    let find_here = |of: &Expr, wrt: &Expr| -> Option<String> {
        let base = match &of.kind {
            ExprKind::Subscript { base, .. } => base.symbol_key(),
            ExprKind::Symbol(_) => of.symbol_key(),
            _ => None,
        };
        if let (Some(key), Some(base)) = (of.symbol_key(), base) {
            let same = wrt.symbol_key().as_deref() == Some(key.as_str());
            return (!same && !known(&key) && !known(&base)).then_some(key);
        }
        let (mut letters, mut variables) = (Vec::new(), Vec::new());
        letter_keys(of, &mut letters);
        letter_keys(wrt, &mut variables);
        // (`x_k` of `\sum_k` beside the variable `x_i`: entries of one x, which may coincide.)
        let base = |k: &str| k.split('_').next().unwrap_or(k).to_string();
        let depends = letters.iter().any(|l| variables.iter().any(|v| reaches(l, v) || base(l) == base(v)));
        (!depends && !variables.is_empty())
            .then(|| letters.into_iter().find(|l| !known(l) && !bound.contains(l)))
            .flatten()
    };
    fn find(e: &Expr, here: &dyn Fn(&Expr, &Expr) -> Option<String>) -> Option<String> {
        if let ExprKind::Derivative { of, wrt, .. } = &e.kind {
            if let Some(key) = here(of, wrt) {
                return Some(key);
            }
        }
        e.children().find_map(|c| find(c, here))
    }
    find(&claim.lhs, &find_here).or_else(|| find(&claim.rhs, &find_here))
}

/// The letters the sums, products and integrals of `e` bind, at every depth (`s` of `\sum_s`,
/// `i` of `\sum_{i=1}^n`; [`crate::syntax::ast::bound_letters`] of each).
fn letters_bound_in(e: &Expr, out: &mut Vec<String>) {
    if let ExprKind::BigOp { op, lower, body, .. } = &e.kind {
        out.extend(crate::syntax::ast::bound_letters(op, lower.as_deref(), body.as_deref()));
    }
    e.children().for_each(|c| letters_bound_in(c, out));
}

/// `\sum_s \nabla_\phi \log q(s)\, g(s)` where the section only ever applies q: an expression
/// that writes the variable nowhere, differentiated by it through a function nobody specified
/// (whose arguments do not reach it), is 0 only if the function does not depend on it, which
/// the text, differentiating it, does not mean. The function's key.
pub(super) fn applied_past_its_arguments(scope: &Scope, claim: &Claim) -> Option<String> {
    fn applied<'e>(e: &'e Expr, scope: &Scope, out: &mut Vec<(String, &'e [Expr])>) {
        if let ExprKind::Call { func, args, .. } = &e.kind {
            if let Some(key) = func.symbol_key().filter(|k| scope.usage.unknown_functions.contains(k)) {
                out.push((key, args.as_slice()));
            }
        }
        e.children().for_each(|c| applied(c, scope, out));
    }
    fn find(e: &Expr, scope: &Scope) -> Option<String> {
        if let ExprKind::Derivative { of, wrt, .. } = &e.kind {
            let mut variables = Vec::new();
            letter_keys(wrt, &mut variables);
            // (`\frac{d}{dx}\int_0^x g(y)\,dy`: what is differentiated writes x elsewhere.)
            let mut written = Vec::new();
            letter_keys(of, &mut written);
            if variables.iter().any(|v| written.contains(v)) {
                return e.children().find_map(|c| find(c, scope));
            }
            let mut calls = Vec::new();
            applied(of, scope, &mut calls);
            for (key, args) in calls {
                let mut letters = Vec::new();
                args.iter().for_each(|a| letter_keys(a, &mut letters));
                let reached = variables.iter().any(|v| letters.contains(v) || scope.defs.contains_key(v));
                if !variables.is_empty() && !reached && !letters.iter().any(|l| scope.defs.contains_key(l)) {
                    return Some(key);
                }
            }
        }
        e.children().find_map(|c| find(c, scope))
    }
    find(&claim.lhs, scope).or_else(|| find(&claim.rhs, scope))
}

/// Every symbol key `e` writes, at every depth (`x_i`, and its `x` and `i`).
pub(super) fn keys_in(e: &Expr, out: &mut BTreeSet<String>) {
    out.extend(e.symbol_key());
    e.children().for_each(|c| keys_in(c, out));
}

/// The keys of the letters `e` writes (a letter, or a letter with an index, each once), in order.
fn letter_keys(e: &Expr, out: &mut Vec<String>) {
    if let (ExprKind::Symbol(_) | ExprKind::Subscript { .. }, Some(key)) = (&e.kind, e.symbol_key()) {
        if !out.contains(&key) {
            out.push(key);
        }
        return;
    }
    e.children().for_each(|c| letter_keys(c, out));
}

/// The letters a claim differentiates `letter` (defined nowhere) by, as the arguments of a
/// function nobody specified ([`Scope::general_functions`]): each a defined letter (a family's
/// key for a member, `y` of `y_i`), less those another one's definition reaches (x, when y is
/// defined from x). `None` where one of them is neither defined nor reached through one that
/// is: E would not depend on it, and its derivative by it would be 0 for no reason the text
/// gives. `None` too where the claim takes a derivative of E's derivative (`\frac{\partial^2
/// E}{\partial y^2}`): the general function is a quadratic, general in its value and first
/// derivatives only.
pub(super) fn general_function_arguments(scope: &Scope, claim: &Claim, letter: &str) -> Option<Vec<String>> {
    fn of_a_derivative(e: &Expr, letter: &str) -> bool {
        let here = matches!(&e.kind, ExprKind::Derivative { of, .. }
            if of.symbol_key().as_deref() != Some(letter) && expr_mentions(of, letter) && has_derivative(of));
        here || e.children().any(|c| of_a_derivative(c, letter))
    }
    fn has_derivative(e: &Expr) -> bool {
        matches!(e.kind, ExprKind::Derivative { .. }) || e.children().any(has_derivative)
    }
    if of_a_derivative(&claim.lhs, letter) || of_a_derivative(&claim.rhs, letter) {
        return None;
    }
    fn by(e: &Expr, letter: &str, scope: &Scope, out: &mut BTreeSet<String>) {
        if let ExprKind::Derivative { of, wrt, .. } = &e.kind {
            if of.symbol_key().as_deref() == Some(letter) {
                let family = |b: &Expr| {
                    b.symbol_key().filter(|k| scope.defs.get(k).is_some_and(|d| !d.function && !d.params.is_empty()))
                };
                let key = match &wrt.kind {
                    ExprKind::Subscript { base, .. } => family(base).or_else(|| wrt.symbol_key()),
                    _ => wrt.symbol_key(),
                };
                out.extend(key);
            }
        }
        e.children().for_each(|c| by(c, letter, scope, out));
    }
    // Does the definition of `key` reach `leaf`: write it, or (a family's) write a member of
    // the same letter by the family's index (`x_i` of `y_i = \sigma(x_i)` reaches x_1, x_j)?
    fn reaches(scope: &Scope, key: &str, leaf: &str, depth: usize) -> bool {
        let Some(def) = scope.defs.get(key) else { return false };
        let mut written = BTreeSet::new();
        keys_in(&def.body, &mut written);
        let member = |w: &String| {
            def.params.iter().any(|p| {
                w.strip_suffix(&format!("_{{{p}}}"))
                    .is_some_and(|base| leaf.strip_prefix(base).is_some_and(|rest| rest.starts_with("_{")))
            })
        };
        written.iter().any(|w| w == leaf || member(w))
            || (depth < 8 && written.iter().any(|w| w != key && reaches(scope, w, leaf, depth + 1)))
    }
    let mut by_letters = BTreeSet::new();
    by(&claim.lhs, letter, scope, &mut by_letters);
    by(&claim.rhs, letter, scope, &mut by_letters);
    // (And in the definitions of the names the claim writes, `\delta y_i` of `\delta y_i =
    // \frac{\partial E}{\partial y_i}`: the claim differentiates E through them.)
    for def in scope.defs.values().filter(|d| !d.inherited && !d.function && mentions(claim, &d.key)) {
        if of_a_derivative(&def.body, letter) {
            return None;
        }
        by(&def.body, letter, scope, &mut by_letters);
    }
    by_letters.remove(letter);
    let defined = |k: &String| scope.defs.get(k).is_some_and(|d| !d.function);
    let arguments: Vec<String> = by_letters
        .iter()
        .filter(|k| defined(k) && !by_letters.iter().any(|other| other != *k && reaches(scope, other, k, 0)))
        .cloned()
        .collect();
    let accounted = |k: &String| arguments.contains(k) || arguments.iter().any(|a| reaches(scope, a, k, 0));
    (!arguments.is_empty() && by_letters.iter().all(accounted)).then_some(arguments)
}

/// `\frac{\partial E}{\partial z} = \frac{\partial E}{\partial y}\frac{\partial y}{\partial z}`
/// where no formula gives E or y: the chain rule as Leibniz's notation writes it. Every letter
/// the claim differentiates is read as a function nobody specified
/// ([`Scope::general_functions`]) of the letters it is differentiated by, less those another of
/// them reaches (E of y, not of z, since y is of z): the dependence the chain itself draws. By
/// letter, its arguments (none for a letter only differentiated by). `None` unless every derivative in the claim is of such a letter by a
/// letter, there are two or more, and the dependence has no cycle (`\frac{\partial F}{\partial
/// H} = \frac{\partial G}{\partial F}\frac{\partial H}{\partial G}` draws none that is sound).
pub(super) fn chain_of_unknown_letters(scope: &Scope, claim: &Claim) -> Option<BTreeMap<String, Vec<String>>> {
    let known = |key: &str| {
        scope.knows(key)
            || scope.usage.unknown_functions.contains(key)
            || scope.usage.unknown_families.contains(key)
            || claim.reading.overrides.iter().any(|d| d.key == key)
    };
    fn collect(e: &Expr, out: &mut Vec<(Option<String>, Option<String>)>) {
        if let ExprKind::Derivative { of, wrt, .. } = &e.kind {
            let letter = |x: &Expr| {
                matches!(x.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. }).then(|| x.symbol_key()).flatten()
            };
            out.push((letter(of), letter(wrt)));
        }
        e.children().for_each(|c| collect(c, out));
    }
    let mut derivatives = Vec::new();
    collect(&claim.lhs, &mut derivatives);
    collect(&claim.rhs, &mut derivatives);
    if derivatives.len() < 2 {
        return None;
    }
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (of, wrt) in derivatives {
        let (of, wrt) = (of?, wrt?);
        if of == wrt || known(&of) || known(&wrt) {
            return None;
        }
        edges.entry(of).or_default().insert(wrt);
    }
    // Does `from` reach `to` through the edges (in one step or more)?
    fn reaches(edges: &BTreeMap<String, BTreeSet<String>>, from: &str, to: &str, depth: usize) -> bool {
        let next = edges.get(from).into_iter().flatten();
        depth < 16 && next.clone().any(|n| n == to || reaches(edges, n, to, depth + 1))
    }
    if edges.keys().any(|k| reaches(&edges, k, k, 0)) {
        return None;
    }
    let mut arguments: BTreeMap<String, Vec<String>> = edges
        .iter()
        .map(|(of, by)| {
            let direct = by.iter().filter(|c| !by.iter().any(|other| other != *c && reaches(&edges, other, c, 0)));
            (of.clone(), direct.cloned().collect())
        })
        .collect();
    // (The letters only differentiated by, `z`, are free numbers: functions of nothing, so that
    // `z_l` is one letter, whatever l is, wherever the claim writes it.)
    for by in edges.values().flatten() {
        arguments.entry(by.clone()).or_default();
    }
    Some(arguments)
}

/// Does `e` hold a definite integral (`\int_a^b`)? Only the floats evaluate one.
pub(super) fn has_integral(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::BigOp { op, .. } if op.is_integral()) || e.children().any(has_integral)
}

/// `scope` with the letters of `definitions` general: a function nobody specified for a
/// function, a free letter otherwise.
pub(super) fn with_letters_general(scope: &Scope, definitions: &[&Definition]) -> Scope {
    let mut general = scope.clone();
    for d in definitions {
        general.defs.remove(&d.key);
        if d.function {
            general.usage.unknown_functions.insert(d.key.clone());
        }
    }
    general
}

/// A logarithm of a letter the claim's bindings set to 0 (`p = 0`, then `p\log_2 p`), as
/// written; `None` where there is none.
pub(super) fn log_of_zero(claim: &Claim) -> Option<String> {
    let zero = |e: &Expr| {
        e.symbol_key().is_some_and(|k| {
            claim.reading.overrides.iter().any(|d| {
                d.key == k
                    && d.params.is_empty()
                    && matches!(&d.body.kind, ExprKind::Number { value } if value.parse::<f64>() == Ok(0.0))
            })
        })
    };
    fn find(e: &Expr, zero: &dyn Fn(&Expr) -> bool) -> Option<String> {
        if let ExprKind::Apply { func, args, .. } = &e.kind {
            if matches!(func.name.as_str(), "log" | "ln" | "lg") && args.first().is_some_and(zero) {
                return Some(crate::syntax::print::explicit_tex(e, &|_| false));
            }
        }
        e.children().find_map(|c| find(c, zero))
    }
    find(&claim.lhs, &zero).or_else(|| find(&claim.rhs, &zero))
}

/// The section's definitions a claim reaches that the notes give further on, after the claim's
/// line (`choose $\epsilon = -\eta f'(x)$` after a Taylor step, `当且仅当 $x = 0$ 时` after a
/// norm): the claim was written before those meanings were given.
/// With `numbers_only`, definitions of matrices are left out (see [`with_later_letters_general`]).
pub(super) fn later_definitions<'s>(scope: &'s Scope, claim: &Claim, numbers_only: bool) -> Vec<&'s Definition> {
    let Origin::Notes { line, col, .. } = &claim.origin else { return Vec::new() };
    if scope.pinned || claim.reading.marked {
        return Vec::new();
    }
    // (Further on the same line too: `a system $Ax = b$ where $A = …$`.)
    let defined_after =
        |d: &Definition| d.from_notes && !d.inherited && d.position().is_some_and(|at| at > (*line, *col));
    // A letter made general is a number (or a function of numbers): what holds for every number
    // need not hold for the matrix a later definition makes it (`(A+B)^2 = A^2+2AB+B^2`), so a
    // verification leaves definitions of matrices in force.
    fn holds_a_matrix(e: &Expr, scope: &Scope) -> bool {
        matches!(e.kind, ExprKind::Matrix { .. })
            || e.symbol_key().is_some_and(|k| scope.usage.matrix_like.contains(&k) || scope.decls.contains_key(&k))
            || e.children().any(|c| holds_a_matrix(c, scope))
    }
    let number = |d: &Definition| {
        !numbers_only || (!scope.usage.matrix_like.contains(&d.key) && !holds_a_matrix(&d.body, scope))
    };
    let used = crate::eval::dependencies(scope, claim);
    let mut later: Vec<&Definition> =
        scope.defs.values().filter(|d| used.contains(&d.key) && defined_after(d) && number(d)).collect();
    // The definitions are hashed: name the same letter on every run.
    later.sort_by(|a, b| a.key.cmp(&b.key));
    later
}

/// `\boldsymbol x + \boldsymbol y = (x_1, \dots, x_n) + (y_1, \dots, y_n)`: a tuple written in
/// parentheses has no orientation; equal to a column but for a transpose is no slip. The tuple,
/// as written, where the verdict is such a transpose.
pub(super) fn tuple_without_orientation(scope: &Scope, claim: &Claim, verdict: &Verdict) -> Option<String> {
    let transposed = matches!(verdict.reason, Reason::TransposedLayout { .. });
    let found = written_list(claim, &["("]).filter(|_| transposed && !scope.pinned)?;
    Some(crate::syntax::print::explicit_tex(found, &|_| false))
}

/// The first list written out in one of the brackets `opens` (`(x_1, \dots, x_n)`, `[y_0, y_1]`),
/// on the claim's left side, else its right.
pub(super) fn written_list<'c>(claim: &'c Claim, opens: &[&str]) -> Option<&'c Expr> {
    fn list<'e>(e: &'e Expr, opens: &[&str]) -> Option<&'e Expr> {
        let here = matches!(&e.kind, ExprKind::Fenced { open, inner: Some(inner), .. }
            if opens.contains(&open.as_str()) && matches!(&inner.kind, ExprKind::Tuple { stacked: false, .. }));
        if here {
            return Some(e);
        }
        e.children().find_map(|c| list(c, opens))
    }
    list(&claim.lhs, opens).or_else(|| list(&claim.rhs, opens))
}

/// The first letter of the claim (through definitions) whose shape the text does not fix: a
/// letter with no value that is not declared a matrix or vector of sizes written in numbers.
pub(super) fn shape_not_fixed(scope: &Scope, claim: &Claim) -> Option<String> {
    let fixed = |key: &String| {
        let numbers = |rows: &String, cols: &String| rows.parse::<u32>().is_ok() && cols.parse::<u32>().is_ok();
        match scope.decls.get(key) {
            Some(Decl::Matrix { rows, cols } | Decl::Family { rows, cols }) => numbers(rows, cols),
            _ => false,
        }
    };
    free_letters_of_claim(scope, claim).into_iter().find(|k| !fixed(k))
}

/// `[y_0, y_1, y_2] = \frac{[y_1, y_2] - [y_0, y_1]}{x_2 - x_0}` (divided differences), `w'_1,
/// w'_2 = (1-50\%)(w_1, w_2) = 0.5w_1, 0.5w_2`: a list written out is read as a row, but it may
/// be notation of another kind (arguments, a pair split at a comma): a shape that does not fit it
/// is no evidence. The list, as written; `None` without one, or where the words make the relation
/// a condition (read as one further on).
pub(super) fn list_written_out(scope: &Scope, claim: &Claim, no_words_reading: bool) -> Option<String> {
    let found = written_list(claim, &["(", "["]).filter(|_| !scope.pinned && no_words_reading)?;
    Some(crate::syntax::print::explicit_tex(found, &|_| false))
}
