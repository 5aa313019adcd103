//! Claims about random variables: moments and laws written out, standard moments, classes of
//! values, and independence as the words state it.

use super::readings::{self, ProbabilityReading};
use crate::model::{Counterexample, Method, Mismatch, Reason, Status, Verdict};
use crate::numeric;
use crate::sema::Claim;
use crate::sema::Scope;
use crate::syntax::ast::{Expr, ExprKind};
use std::collections::{BTreeMap, BTreeSet};

/// A claim about probabilities and expectations (`P(A\mid B)`, `E[X]`), checked on random
/// joint distributions ([`numeric::probability`]); `None` where it is not one. A claim false for
/// a general distribution is refuted only if it is false for independent, identically
/// distributed and 0/1-valued variables too, and both sides speak of the distribution; else it
/// is undecided, naming the reading under which it holds.
pub(super) fn probability_verdict(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    let verdict = verdict_as_written(scope, claim);
    if verdict.is_some() {
        return verdict;
    }
    with_postfix_readings(scope, claim)
}

/// `E(X)^2`, `\mathbb{E}(\bar x - \mu)^2`: a power written after the parentheses of an
/// expectation squares the expectation or the quantity inside it, and authors write both. Each
/// such power is read both ways (at most [`MAX_POSTFIXED`] of them in a claim); a reading under
/// which the claim holds verifies it, the verdict saying how each was read, unless it makes the
/// two sides one expression. Only a verification is kept: a refutation would need the text to
/// settle the reading.
fn with_postfix_readings(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    let count = postfixed_expectations(&claim.lhs) + postfixed_expectations(&claim.rhs);
    if count == 0 || count > MAX_POSTFIXED {
        return None;
    }
    (0..1u32 << count).find_map(|choice| {
        let mut said = Vec::new();
        let mut next = 0;
        let mut inside = || {
            next += 1;
            choice >> (next - 1) & 1 == 1
        };
        let lhs = postfix_read(&claim.lhs, &mut inside, &mut said);
        let rhs = postfix_read(&claim.rhs, &mut inside, &mut said);
        // A reading that makes both sides one expression (`E(X)^2 = E(X^2)` read inside) is not
        // what the author meant: nobody writes a claim that says nothing.
        let tex = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| true);
        if tex(&lhs) == tex(&rhs) {
            return None;
        }
        let verdict = verdict_as_written(scope, &Claim { lhs, rhs, ..claim.clone() })?;
        (verdict.status == Status::Verified).then(|| {
            let mut assuming = verdict.assuming.clone();
            assuming.extend(said);
            Verdict { assuming, ..verdict }
        })
    })
}

/// The most powers after an expectation's parentheses read both ways in one claim.
const MAX_POSTFIXED: usize = 3;

/// `E(…)^k` of an expectation's operator, the power after the parentheses: the call and the power.
fn postfixed_expectation(e: &Expr) -> Option<(&Expr, &Expr, &Expr)> {
    let ExprKind::Power { base, exponent } = &e.kind else { return None };
    match &base.kind {
        ExprKind::Call { func, args, postfixed: true } if numeric::probability::is_expectation_operator(func) => {
            match args.as_slice() {
                [argument] => Some((func, argument, exponent)),
                _ => None,
            }
        }
        _ => None,
    }
}

fn postfixed_expectations(e: &Expr) -> usize {
    usize::from(postfixed_expectation(e).is_some()) + e.children().map(postfixed_expectations).sum::<usize>()
}

/// `e` with each power after an expectation's parentheses read inside (`E[(a)^k]`) or outside
/// (`(E[a])^k`) as `inside` says, in the order met; each reading said in TeX.
fn postfix_read(e: &Expr, inside: &mut dyn FnMut() -> bool, said: &mut Vec<String>) -> Expr {
    use crate::syntax::print;
    if let Some((func, argument, exponent)) = postfixed_expectation(e) {
        let argument = postfix_read(argument, inside, said);
        let tex = |x: &Expr| print::explicit_tex(x, &|_| true);
        let (head, written, power) = (tex(func), tex(&argument), tex(exponent));
        let call = |args: Vec<Expr>| {
            Expr::new(ExprKind::Call { func: Box::new(func.clone()), args, postfixed: false }, e.span)
        };
        let power_of = |base: Expr| {
            Expr::new(ExprKind::Power { base: Box::new(base), exponent: Box::new(exponent.clone()) }, e.span)
        };
        return if inside() {
            said.push(format!("{head}({written})^{{{power}}} = {head}[({written})^{{{power}}}]"));
            let atom =
                matches!(argument.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. } | ExprKind::Fenced { .. });
            call(vec![power_of(if atom { argument } else { Expr::parenthesized(argument, e.span) })])
        } else {
            said.push(format!("{head}({written})^{{{power}}} = ({head}[{written}])^{{{power}}}"));
            power_of(call(vec![argument]))
        };
    }
    let mut out = e.clone();
    for child in out.children_mut() {
        *child = postfix_read(child, inside, said);
    }
    out
}

/// Does `e` write a capital Latin letter (`Y_1`, `X`), by convention a random variable?
fn writes_a_capital(e: &crate::syntax::ast::Expr) -> bool {
    let here =
        matches!(&e.kind, ExprKind::Symbol(s) if s.name.len() == 1 && s.name.chars().all(|c| c.is_ascii_uppercase()));
    here || e.children().any(writes_a_capital)
}

fn verdict_as_written(scope: &Scope, claim: &Claim) -> Option<Verdict> {
    use crate::model::Reading;
    use numeric::probability::{self, Outcome};
    // `log\frac{P(A)}{P(B)}`: letters that spell a name are never constants multiplying.
    if [&claim.lhs, &claim.rhs].into_iter().any(|e| crate::eval::spelled_name_in(e).is_some()) {
        return None;
    }
    // A letter a sum runs over (`\sum_A P(A, B)`) is an index to the section: for a random
    // variable, that is the sum over its values; a definition by a lone letter or number is an
    // event written in prose (`$A=a$`).
    // (A formula of random variables, not a lone one.)
    let random = |body: &crate::syntax::ast::Expr| !matches!(body.kind, ExprKind::Symbol(_)) && writes_a_capital(body);
    let defined = |k: &str| {
        use crate::sema::scope::Decl;
        // `For any random variable $X$`: the words make X any random variable, whatever an
        // earlier formula made the letter.
        if claim.reading.named.random.iter().any(|r| r == k) {
            return probability::Meaning::None;
        }
        match (scope.decls.get(k), scope.defs.get(k)) {
            // (`Y = (Y_1, \ldots, Y_n)^T` gives Y a shape, with a definition or without: a
            // vector of unknown entries, a random one in an event.)
            (Some(decl), Some(d)) if !matches!(decl, Decl::Index { .. }) && random(&d.body) => {
                probability::Meaning::RandomFormula
            }
            (Some(Decl::Matrix { .. }), None) => probability::Meaning::RandomFormula,
            (Some(decl), _) if !matches!(decl, Decl::Index { .. }) => probability::Meaning::Formula,
            // `\hat\theta_n = \hat f(x_1, \ldots, x_n)` with f̂ nobody specifies: an estimator, an
            // unspecified function of the data, which is any quantity.
            (_, Some(d)) if unspecified_application(scope, &d.body) => probability::Meaning::None,
            (_, Some(d)) if random(&d.body) => probability::Meaning::RandomFormula,
            (_, Some(d)) if !matches!(d.body.kind, ExprKind::Symbol(_) | ExprKind::Number { .. }) => {
                probability::Meaning::Formula
            }
            (None, None) => probability::Meaning::None,
            _ => probability::Meaning::Letter,
        }
    };
    let other = |reading: Reading, symbol: Option<String>, domains: String| {
        let reason = Reason::OtherReading { reading, symbol, earlier: None, refuted: true };
        Verdict::undecided(reason, domains)
    };
    let words = probability::Words {
        marked: claim.reading.marked,
        constants: &claim.reading.named.constants,
        information: claim.reading.information,
        laws: &claim.reading.laws,
    };
    let (lhs, rhs) = (moments_written_out(scope, claim, &claim.lhs), moments_written_out(scope, claim, &claim.rhs));
    let (lhs, rhs) = (variables_written_out(scope, claim, lhs), variables_written_out(scope, claim, rhs));
    // The first μ_X or σ_X nobody defined, where the claim holds with them the moments (asked
    // only of a refutation).
    let moment_letter = || {
        standard_moments(scope, claim)
            .filter(|(l, r, _)| matches!(probability::check(l, r, &defined, words), Outcome::Holds { .. }))
            .map(|(_, _, letter)| letter)
    };
    // `\mu_X = a`, `\sigma_X = 2\sqrt{2p}` where the words give X's distribution value by value
    // and nothing defines μ_X: the mean (standard deviation) of X, as every probability text
    // writes it; verified so where it holds, the reading listed.
    if !claim.reading.laws.is_empty() {
        // (A bare μ names no variable here: only `\mu_X` is verified so.)
        if let Some((l, r, letter)) = standard_moments(scope, claim).filter(|(_, _, letter)| letter.contains('_')) {
            if let Outcome::Holds { values, domains } = probability::check(&l, &r, &defined, words) {
                let verdict = Verdict::new(
                    Status::Verified,
                    Some(Method::Distributions),
                    domains,
                    Reason::Checked { assignments: values, rounded: false },
                );
                let variable = letter.split_once('_').map_or("", |(_, v)| v.trim_matches(['{', '}']));
                let moment = if letter.starts_with("\\mu") {
                    format!("E[{variable}]")
                } else {
                    format!("\\sqrt{{\\mathrm{{Var}}[{variable}]}}")
                };
                return Some(Verdict { assuming: vec![format!("{letter} = {moment}")], ..verdict });
            }
        }
    }
    match probability::check(&lhs, &rhs, &defined, words) {
        Outcome::NotProbability | Outcome::NotEvaluable => None,
        Outcome::Holds { values, domains, .. } => Some(Verdict::new(
            Status::Verified,
            Some(Method::Distributions),
            domains,
            Reason::Checked { assignments: values, rounded: false },
        )),
        failed @ Outcome::Fails { .. } => {
            let class_letters = || {
                class_values(claim)
                    .filter(|(l, r, _)| matches!(probability::check(l, r, &defined, words), Outcome::Holds { .. }))
                    .map(|(_, _, letters)| letters)
            };
            let Outcome::Fails { lhs, rhs, point, domains, holds_checked, variables, .. } = &failed else {
                return None;
            };
            match readings::of_probability_failure(claim, &failed, &moment_letter, &class_letters) {
                ProbabilityReading::Other(reading, symbol) => Some(other(reading, symbol, domains.clone())),
                // The words state the independence under which it holds: verified under it, said so.
                ProbabilityReading::Stated(family) => {
                    let verdict = Verdict::new(
                        Status::Verified,
                        Some(Method::Distributions),
                        domains.clone(),
                        Reason::Checked { assignments: *holds_checked, rounded: false },
                    );
                    Some(Verdict { assuming: vec![independence_tex(family, variables)], ..verdict })
                }
                ProbabilityReading::Stands => {
                    let (lhs, rhs) = (*lhs, *rhs);
                    let mismatch = Mismatch::at_point(lhs, rhs, point.clone(), Method::Distributions);
                    let reason = Reason::Differs { entry: None, lhs, rhs, at: Vec::new(), difference: None };
                    let counterexample =
                        Counterexample { sizes: BTreeMap::new(), indices: BTreeMap::new(), mismatch: Some(mismatch) };
                    Some(Verdict::refuted(Method::Distributions, domains.clone(), reason, counterexample))
                }
            }
        }
    }
}

/// `Y = aX + b` given for the paragraph (or the section), then `\textrm{Cov}(X, Y)`: a random
/// variable the notes define by others, written out as its formula, `(aX + b)`, so that the claim
/// speaks of the variables it is made of. Only a capital letter defined by a formula (not a lone
/// letter) that uses another capital letter.
pub(super) fn variables_written_out(scope: &Scope, claim: &Claim, mut e: Expr) -> Expr {
    fn uses_capital(e: &Expr, other_than: &str) -> bool {
        e.symbol_key().is_some_and(|k| capital(&k) && k != other_than && matches!(e.kind, ExprKind::Symbol(_)))
            || e.children().any(|c| uses_capital(c, other_than))
    }
    let defined: Vec<&crate::sema::Definition> = claim
        .reading
        .overrides
        .iter()
        .chain(scope.defs.values())
        // (`X = Y` is an event, or two names of one variable, as `if $X = Y$ …` reads: no formula.)
        .filter(|d| !matches!(d.body.kind, ExprKind::Symbol(_)))
        .filter(|d| !d.function && d.params.is_empty() && capital(&d.key) && uses_capital(&d.body, &d.key))
        .collect();
    fn walk(e: &mut Expr, defined: &[&crate::sema::Definition]) {
        if let ExprKind::Symbol(s) = &e.kind {
            if let Some(d) = defined.iter().find(|d| d.key == s.key() && s.label.is_none() && s.accents.is_empty()) {
                let inner = Some(Box::new(Expr::new(d.body.kind.clone(), e.span)));
                e.kind = ExprKind::Fenced { open: "(".into(), close: ")".into(), inner };
            }
            return;
        }
        e.children_mut().into_iter().for_each(|c| walk(c, defined));
    }
    if !defined.is_empty() {
        walk(&mut e, &defined);
    }
    e
}

/// `\mu_{aX+b}`, `\sigma_{X+Y}` written out where the notes define the family by a moment
/// (`\mu_X = E[X]`, `\sigma_X = \sqrt{\mathrm{Var}(X)}`): its subscript put for the letter.
pub(super) fn moments_written_out(scope: &Scope, claim: &Claim, e: &Expr) -> Expr {
    // `\mu_X = E[X]` is a family over the random variable X: by its parameter, or (X not an
    // index of the section) by its key `\mu_X`.
    let family = |base: &str| -> Option<(&Expr, String)> {
        claim.reading.overrides.iter().chain(scope.defs.values()).find_map(|d| {
            let param = match d.params.as_slice() {
                [p] if d.key == base => p.clone(),
                [] => {
                    let letter = d.key.strip_prefix(base)?.strip_prefix('_')?;
                    let mut chars = letter.chars();
                    match (chars.next(), chars.next()) {
                        (Some(c), None) if c.is_ascii_uppercase() => letter.to_string(),
                        _ => return None,
                    }
                }
                _ => return None,
            };
            (!d.function && numeric::probability::is_moment(&d.body)).then_some((&d.body, param))
        })
    };
    // `\rho(X, Y) = \frac{\mathrm{Cov}(X, Y)}{\sigma_X \sigma_Y}`,
    // `\textrm{MSE}(\hat\theta_n, \theta) = E[(\hat\theta_n - \theta)^2]`: a function defined by
    // moments, written out at its arguments.
    let function =
        |key: &str, arity: usize| -> Option<&crate::sema::Definition> {
            claim.reading.overrides.iter().chain(scope.defs.values()).find(|d| {
                d.key == key && d.function && d.params.len() == arity && numeric::probability::is_moment(&d.body)
            })
        };
    crate::sema::recurrence::map(e, &mut |x| {
        if let Some((key, args)) = crate::syntax::ast::applied_function(x) {
            let definition = function(&key, args.len())?;
            let body = put_arguments(&definition.body, &definition.params, &args);
            return Some(Expr::parenthesized(moments_written_out(scope, claim, &body), x.span));
        }
        let ExprKind::Subscript { base, index } = &x.kind else { return None };
        if !names_a_variable(index) {
            return None;
        }
        let (body, param) = family(&base.symbol_key()?)?;
        let put = Expr::parenthesized((**index).clone(), index.span);
        let body = crate::sema::recurrence::map(body, &mut |y| {
            (matches!(y.kind, ExprKind::Symbol(_)) && y.symbol_key().as_deref() == Some(param.as_str()))
                .then(|| put.clone())
        });
        Some(Expr::parenthesized(body, x.span))
    })
}

/// `\hat f(x_1, \ldots, x_n)`: a function the notes never specify, applied.
pub(super) fn unspecified_application(scope: &Scope, body: &Expr) -> bool {
    let ExprKind::Call { func, .. } = &body.kind else { return false };
    func.symbol_key().is_some_and(|k| !scope.defs.contains_key(&k) && !scope.decls.contains_key(&k))
}

/// A function's body with each parameter replaced by its argument (in parentheses), in
/// subscripts too (`\sigma_X` at `aX + b` is `\sigma_{(aX+b)}`).
pub(super) fn put_arguments(body: &Expr, params: &[String], args: &[Expr]) -> Expr {
    crate::sema::recurrence::map(body, &mut |y| match &y.kind {
        ExprKind::Symbol(_) => {
            let key = y.symbol_key()?;
            let arg = &args[params.iter().position(|p| *p == key)?];
            Some(Expr::parenthesized(arg.clone(), y.span))
        }
        ExprKind::Subscript { base, index } => {
            if let Some(at) = y.symbol_key().and_then(|key| params.iter().position(|p| *p == key)) {
                return Some(Expr::parenthesized(args[at].clone(), y.span));
            }
            let index = Box::new(put_arguments(index, params, args));
            Some(Expr::new(ExprKind::Subscript { base: base.clone(), index }, y.span))
        }
        _ => None,
    })
}

/// The claim's sides with each `\mu_X` and `\sigma_X` the notes never define (nor the family
/// `\mu_X = E[X]`) read as the mean `E[X]` and standard deviation `\sqrt{\mathrm{Var}[X]}` of
/// X, and the first such letter as written; `None` where the claim has none.
pub(super) fn standard_moments(scope: &Scope, claim: &Claim) -> Option<(Expr, Expr, String)> {
    let template = |tex: &str| crate::syntax::parse_formula(tex).ok()?.chains.first()?.first.clone();
    let (mean, deviation) = (template("E[Q]")?, template("\\sqrt{\\mathrm{Var}[Q]}")?);
    let defined = |key: &str| {
        scope.defs.contains_key(key)
            || scope.decls.contains_key(key)
            || claim.reading.overrides.iter().any(|d| d.key == key)
    };
    // `\mathrm{Var}(X) = \mathbb E[(X-\mu)^2]` after "a random variable X with mean μ": a bare μ
    // (σ) nothing defines, in a claim about one random variable, is that variable's mean
    // (deviation) as every probability text writes it.
    let mut capitals = BTreeSet::new();
    fn capitals_in(e: &Expr, out: &mut BTreeSet<String>) {
        if let (ExprKind::Symbol(_), Some(key)) = (&e.kind, e.symbol_key()) {
            if capital(&key) {
                out.insert(key);
            }
        }
        e.children().for_each(|c| capitals_in(c, out));
    }
    capitals_in(&claim.lhs, &mut capitals);
    capitals_in(&claim.rhs, &mut capitals);
    capitals.retain(|k| !defined(k));
    let only_variable: Option<Expr> = match capitals.iter().collect::<Vec<_>>().as_slice() {
        [one] => crate::syntax::parse_formula(one).ok()?.chains.first()?.first.clone(),
        _ => None,
    };
    let mut first: Option<String> = None;
    let mut read = |e: &Expr| {
        crate::sema::recurrence::map(e, &mut |x| {
            if let (ExprKind::Symbol(_), Some(variable)) = (&x.kind, &only_variable) {
                let key = x.symbol_key()?;
                let template = match key.as_str() {
                    "\\mu" => &mean,
                    "\\sigma" => &deviation,
                    _ => return None,
                };
                if defined(&key) {
                    return None;
                }
                first.get_or_insert(key);
                let body = crate::sema::recurrence::map(template, &mut |y| {
                    (y.symbol_key().as_deref() == Some("Q")).then(|| variable.clone())
                });
                return Some(Expr::parenthesized(body, x.span));
            }
            let ExprKind::Subscript { base, index } = &x.kind else { return None };
            let key = x.symbol_key()?;
            let base_key = base.symbol_key()?;
            let template = match base_key.as_str() {
                "\\mu" => &mean,
                "\\sigma" => &deviation,
                _ => return None,
            };
            if !names_a_variable(index) || defined(&key) || defined(&base_key) {
                return None;
            }
            first.get_or_insert(key);
            let body = crate::sema::recurrence::map(template, &mut |y| {
                (y.symbol_key().as_deref() == Some("Q")).then(|| (**index).clone())
            });
            Some(Expr::parenthesized(body, x.span))
        })
    };
    let (lhs, rhs) = (read(&claim.lhs), read(&claim.rhs));
    first.map(|letter| (lhs, rhs, letter))
}

/// The claim with each capital written with two or more number subscripts (`C_1`, `C_2`) read
/// as the values of one variable (`C=1`, `C=2`): its sides, and the members as written (`C_1,
/// C_2`). `None` where no capital has two such members.
pub(super) fn class_values(claim: &Claim) -> Option<(Expr, Expr, String)> {
    static MEMBER: std::sync::LazyLock<regex::Regex> =
        std::sync::LazyLock::new(|| regex::Regex::new(r"\b([A-Z])_\{?([0-9])\}?").expect("valid regex"));
    let written = |e: &Expr| claim.tex.get(e.span.start..e.span.end).map(str::to_string);
    let (lhs, rhs) = (written(&claim.lhs)?, written(&claim.rhs)?);
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for found in MEMBER.captures_iter(&lhs).chain(MEMBER.captures_iter(&rhs)) {
        members.entry(found[1].to_string()).or_default().insert(found[2].to_string());
    }
    members.retain(|_, values| values.len() >= 2);
    if members.is_empty() {
        return None;
    }
    let read = |side: &str| {
        let rewritten = MEMBER.replace_all(side, |c: &regex::Captures| {
            if members.contains_key(&c[1]) {
                format!("{}={}", &c[1], &c[2])
            } else {
                c[0].to_string()
            }
        });
        crate::syntax::parse_formula(&rewritten).ok()?.chains.into_iter().next()?.first
    };
    let letters: Vec<String> =
        members.iter().flat_map(|(c, values)| values.iter().map(move |v| format!("{c}_{v}"))).collect();
    Some((read(&lhs)?, read(&rhs)?, letters.join(", ")))
}

/// A key of one capital Latin letter (`X`): how a random variable is written.
pub(super) fn capital(key: &str) -> bool {
    key.len() == 1 && key.chars().all(|c| c.is_ascii_uppercase())
}

/// Does a subscript name a random variable (a capital letter: `X`, `aX+b`)? `\sigma_{ij}` beside
/// `\sigma_X = …` is another name, not the family's moment.
pub(super) fn names_a_variable(e: &Expr) -> bool {
    e.symbol_key().is_some_and(|k| capital(&k)) || e.children().any(names_a_variable)
}

/// The assumption a verdict under stated independence lists, in TeX: `X \perp Y` (and
/// `X \overset{d}{=} Y` for identically distributed variables).
pub(super) fn independence_tex(family: numeric::probability::Family, variables: &[String]) -> String {
    let independent = variables.join(r" \perp ");
    match family {
        numeric::probability::Family::IndependentIdentical => {
            format!(r"{independent},\ {}", variables.join(r" \overset{d}{=} "))
        }
        _ => independent,
    }
}
