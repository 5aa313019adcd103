//! Indices: their values, their ranges (declared, or inferred from the shapes they index), the
//! environments a sum runs over, and index conditions (`k \ne j`).

use super::backend::Backend;
use super::instance::{Env, Instance};
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::sema::scope::{Decl, IndexRange, SetKind};
use crate::sema::{Claim, Scope};
use crate::syntax::ast::{BinOp, Chain, Expr, ExprKind, RelOp, Span};
use std::collections::BTreeSet;

impl<B: Backend> Instance<'_, B> {
    /// `ir` -> [i, r]; `2` -> [2]; `i+1` -> [i+1].
    pub(super) fn indices(&self, index: &Expr, env: &Env) -> Result<Vec<i64>, EvalError> {
        match &index.kind {
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                let mut out = self.indices(lhs, env)?;
                out.extend(self.indices(rhs, env)?);
                Ok(out)
            }
            ExprKind::Tuple { items, .. } => items.iter().map(|i| self.index_value(i, env)).collect(),
            _ => Ok(vec![self.index_value(index, env)?]),
        }
    }

    /// An integer-valued index expression used as a number (a bound, an exponent, a condition):
    /// [`Instance::index_value`], where a label's value is no number ([`Instance::is_label`]).
    pub(super) fn integer(&self, e: &Expr, env: &Env) -> Result<i64, EvalError> {
        let value = self.index_value(e, env)?;
        if self.is_label(value) {
            let label = self.scope.usage.labels.iter().find(|l| super::instance::mentions_symbol(e, l));
            let name = label.or_else(|| self.scope.usage.labels.first()).cloned().unwrap_or_default();
            return Err(EvalErrorKind::UnboundIndex { name }.at(e.span));
        }
        Ok(value)
    }

    /// An integer-valued index expression: a number, a bound index, a size, sums of these. A
    /// label's value only names a leaf ([`Instance::indices`]).
    pub(super) fn index_value(&self, e: &Expr, env: &Env) -> Result<i64, EvalError> {
        if let Some(v) = e.symbol_key().and_then(|k| env.get(&k).or_else(|| self.sizes.get(&k))) {
            return Ok(*v);
        }
        match &e.kind {
            ExprKind::Number { value } => value.parse().map_err(|_| super::instance::unsupported(e)),
            ExprKind::Symbol(s) => {
                let key = s.to_string();
                env.get(&key)
                    .or_else(|| self.sizes.get(&key))
                    .copied()
                    .ok_or(EvalErrorKind::UnboundIndex { name: key }.at(e.span))
            }
            ExprKind::Binary { op: BinOp::Add, lhs, rhs } => {
                Ok(self.index_value(lhs, env)? + self.index_value(rhs, env)?)
            }
            ExprKind::Binary { op: BinOp::Sub, lhs, rhs } => {
                Ok(self.index_value(lhs, env)? - self.index_value(rhs, env)?)
            }
            ExprKind::Fenced { inner: Some(inner), .. } => self.index_value(inner, env),
            ExprKind::Neg { operand } => Ok(-self.index_value(operand, env)?),
            _ => Err(super::instance::unsupported(e)),
        }
    }

    /// Whether a relation between indices (`k \ne j`, `j=y`) holds under `env`.
    pub fn condition_holds(&self, chain: &Chain, env: &Env) -> Result<bool, EvalError> {
        let first = chain.first.as_ref().ok_or(
            EvalErrorKind::Unsupported { category: NotRead::Malformed, what: "a condition without a left side".into() }
                .at(chain.span),
        )?;
        let mut left = self.integer(first, env)?;
        for link in &chain.links {
            let right = self.integer(&link.rhs, env)?;
            let ok = match link.op {
                RelOp::Eq => left == right,
                RelOp::Ne => left != right,
                RelOp::Lt => left < right,
                RelOp::Le => left <= right,
                RelOp::Gt => left > right,
                RelOp::Ge => left >= right,
                _ => {
                    return Err(EvalErrorKind::Unsupported {
                        category: NotRead::Outside,
                        what: "this relation in a condition".into(),
                    }
                    .at(chain.span))
                }
            };
            if !ok {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    /// The range 1..=n of an index letter: declared, or (for `auto`) read off how `uses` index
    /// matrices with it (`S_{ij}` with S n×n gives i, j ≤ n).
    pub fn range_of(&self, letter: &str, uses: &[&Expr], env: &Env, span: Span) -> Result<i64, EvalError> {
        match self.scope.decls.get(letter) {
            Some(Decl::Index { range: IndexRange::Auto }) => {
                // Reading the range off a matrix evaluates it, which may need this range again
                // (`X_{\ldots Z_i \ldots}`): a cycle, not an endless recursion.
                // Keyed by the expressions it is read from: reading the same range from other
                // expressions meanwhile (a definition's own sum over i) is no cycle.
                let at: Vec<usize> = uses.iter().map(|e| std::ptr::from_ref::<Expr>(e) as usize).collect();
                let key = format!("\u{1}range of {letter} in {at:?}");
                if !super::instance::enter(&self.in_progress, &key, &[]) {
                    return Err(EvalErrorKind::Cyclic { key: letter.to_string() }.at(span));
                }
                let range = uses.iter().find_map(|e| self.infer_range(letter, e, env));
                self.in_progress.borrow_mut().remove(&key);
                range.ok_or(EvalErrorKind::UnboundIndex { name: letter.to_string() }.at(span))
            }
            Some(Decl::Index { range: IndexRange::Size(size) }) => Ok(self.size_of(size, span)? as i64),
            _ => Err(EvalErrorKind::UnboundIndex { name: letter.to_string() }.at(span)),
        }
    }

    fn infer_range(&self, letter: &str, e: &Expr, env: &Env) -> Option<i64> {
        if let ExprKind::Subscript { base, index } = &e.kind {
            let letters = index_items(index).unwrap_or_default();
            if let Some(pos) = letters.iter().position(|l| l.as_deref() == Some(letter)) {
                if let Some((rows, cols)) = self.shape_of(base, env) {
                    return Some(match (letters.len(), rows, cols) {
                        (1, 1, c) => c,
                        (1, r, _) => r,
                        (_, r, c) => {
                            if pos == 0 {
                                r
                            } else {
                                c
                            }
                        }
                    } as i64);
                }
            }
        }
        e.children().find_map(|c| self.infer_range(letter, c, env))
    }

    fn shape_of(&self, base: &Expr, env: &Env) -> Option<(usize, usize)> {
        if let Some(target) = self.adjoint_target(base) {
            return self.named(&target, base, env).ok().map(|v| v.shape());
        }
        let value = self.eval(base, env).ok()?;
        (!value.is_scalar()).then(|| value.shape())
    }

    /// The environments a sum runs over: `\sum_r` (r's range), `\sum_{ir}` (both),
    /// `\sum_{r\in J_i}`, `\sum_{i=1}^n`.
    pub(super) fn summation_range(
        &self,
        lower: &Expr,
        upper: Option<&Expr>,
        body: &Expr,
        env: &Env,
    ) -> Result<Vec<Env>, EvalError> {
        if let ExprKind::Relation { chain } = &lower.kind {
            if chain.links.len() == 1 {
                let var = chain
                    .first
                    .as_ref()
                    .and_then(Expr::symbol_key)
                    .ok_or_else(|| super::instance::unsupported(lower))?;
                let link = &chain.links[0];
                let values = match link.op {
                    RelOp::In => self.index_set(&link.rhs, env)?,
                    RelOp::Eq => {
                        let from = self.integer(&link.rhs, env)?;
                        // (`\sum_{i=1} \gamma_{i,k}`, the upper limit left out: to the end of
                        // i's range, as `\sum_i` runs over it.)
                        // (Only from 1, where a range starts: `\sum_{t=0}` to T would be T+1 terms.)
                        let to = match upper {
                            Some(upper) => self.integer(upper, env)?,
                            None if from == 1 => self.range_of(&var, &[body], env, lower.span)?,
                            None => return Err(super::instance::unsupported(lower)),
                        };
                        bounded_range(from, to, lower.span)?
                    }
                    // `\sum_{k\ne j}`: the whole range of k but j's value.
                    RelOp::Ne if upper.is_none() => {
                        let except = self.integer(&link.rhs, env)?;
                        (1..=self.range_of(&var, &[body], env, lower.span)?).filter(|v| *v != except).collect()
                    }
                    _ => return Err(super::instance::unsupported(lower)),
                };
                return Ok(extend(vec![env.clone()], &var, values));
            }
        }
        let letters = crate::syntax::ast::index_letters(lower).ok_or_else(|| super::instance::unsupported(lower))?;
        if let (Some(upper), [letter]) = (upper, letters.as_slice()) {
            // `\sum_i^{n-1}`: from 1 to the upper limit, not over i's whole range.
            let to = self.integer(upper, env)?;
            return Ok(extend(vec![env.clone()], letter, bounded_range(1, to, upper.span)?));
        }
        if upper.is_some() {
            return Err(super::instance::unsupported(lower));
        }
        let mut envs = vec![env.clone()];
        for letter in letters {
            let range = self.range_of(&letter, &[body], env, lower.span)?;
            envs = extend(envs, &letter, bounded_range(1, range, lower.span)?);
            if envs.len() > MAX_TERMS {
                return Err(
                    EvalErrorKind::Budget { what: format!("a sum of more than {MAX_TERMS} terms") }.at(lower.span)
                );
            }
        }
        Ok(envs)
    }

    /// `J_i` with `J = "causal"`: 1..=i; `"all"`: the whole range of i.
    pub(super) fn index_set(&self, set: &Expr, env: &Env) -> Result<Vec<i64>, EvalError> {
        let ExprKind::Subscript { base, index } = &set.kind else { return Err(super::instance::unsupported(set)) };
        let key = base.symbol_key().ok_or_else(|| super::instance::unsupported(set))?;
        let at = self.integer(index, env)?;
        let letter = index.symbol_key().unwrap_or_default();
        match self.set_kind(&key, set.span)? {
            SetKind::Causal => Ok((1..=at).collect()),
            SetKind::All => Ok((1..=self.range_of(&letter, &[], env, set.span)?).collect()),
        }
    }

    pub(super) fn set_kind(&self, key: &str, span: Span) -> Result<SetKind, EvalError> {
        match self.scope.decls.get(key) {
            Some(Decl::Set { kind }) => Ok(*kind),
            _ => Err(EvalErrorKind::Unsupported {
                category: NotRead::NeedsSpec,
                what: format!("the index set `{key}` (declare it under sets in the spec)"),
            }
            .at(span)),
        }
    }
}

/// Sums and products of more terms than this are refused (as a budget), before any is made.
const MAX_TERMS: usize = 100_000;

/// `from..=to`, refused when longer than [`MAX_TERMS`] (`\sum_{i=1}^{10^{9}}`).
fn bounded_range(from: i64, to: i64, span: Span) -> Result<Vec<i64>, EvalError> {
    if to.saturating_sub(from) >= MAX_TERMS as i64 {
        return Err(EvalErrorKind::Budget { what: format!("a sum or product of more than {MAX_TERMS} terms") }.at(span));
    }
    Ok((from..=to).collect())
}

fn extend(envs: Vec<Env>, name: &str, values: Vec<i64>) -> Vec<Env> {
    envs.into_iter()
        .flat_map(|e| {
            values.iter().map(move |v| {
                let mut e = e.clone();
                e.insert(name.to_string(), *v);
                e
            })
        })
        .collect()
}

/// `3j` -> [None, Some("j")]: the positions of a subscript, letters named; `i, k` -> [i, k].
fn index_items(e: &Expr) -> Option<Vec<Option<String>>> {
    match &e.kind {
        ExprKind::Number { value } => Some(vec![None; value.len()]),
        ExprKind::Tuple { items, .. } => items
            .iter()
            .map(|item| match &item.kind {
                ExprKind::Number { .. } => Some(None),
                _ => Some(Some(crate::syntax::ast::index_letters(item)?.into_iter().next()?)),
            })
            .collect(),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            let mut l = index_items(lhs)?;
            l.extend(index_items(rhs)?);
            Some(l)
        }
        _ => Some(crate::syntax::ast::index_letters(e)?.into_iter().map(Some).collect()),
    }
}

/// Index letters that occur free (not bound by a sum) in the claim or its conditions.
pub fn free_indices(scope: &Scope, claim: &Claim) -> Vec<String> {
    let mut found = BTreeSet::new();
    let mut bound = Vec::new();
    collect_free(&claim.lhs, scope, &mut bound, &mut found);
    collect_free(&claim.rhs, scope, &mut bound, &mut found);
    for c in &claim.conditions {
        c.exprs().for_each(|e| collect_free(e, scope, &mut bound, &mut found));
    }
    found.into_iter().collect()
}

fn collect_free(e: &Expr, scope: &Scope, bound: &mut Vec<String>, found: &mut BTreeSet<String>) {
    // `[\ldots x_i \ldots]_i` binds i, as a sum does.
    if let Some((inner, letter)) = crate::syntax::ast::vector_builder(e) {
        bound.push(letter);
        collect_free(inner, scope, bound, found);
        bound.pop();
        return;
    }
    // `\max |x_i|`: a maximum of one expression runs over the indices it leaves free.
    if let Some(body) = crate::syntax::ast::lone_extremum(e) {
        return collect_free(body, scope, bound, &mut BTreeSet::new());
    }
    // An integral binds its variable, not an index: its limits are expressions like any other.
    if let ExprKind::BigOp { op, lower: Some(lower), upper, body, .. } = &e.kind {
        if op.is_integral() {
            return e.children().for_each(|c| collect_free(c, scope, bound, found));
        }
        let vars = summation_vars(lower);
        if let ExprKind::Relation { chain } = &lower.kind {
            chain.links.iter().for_each(|l| collect_free(&l.rhs, scope, bound, found));
        }
        if let Some(u) = upper {
            collect_free(u, scope, bound, found);
        }
        let depth = bound.len();
        bound.extend(vars);
        if let Some(b) = body {
            collect_free(b, scope, bound, found);
        }
        bound.truncate(depth);
        return;
    }
    if let Some(key) = e.symbol_key().filter(|_| matches!(e.kind, ExprKind::Symbol(_))) {
        if scope.is_index(&key) && !bound.contains(&key) {
            found.insert(key);
        }
    }
    e.children().for_each(|c| collect_free(c, scope, bound, found));
}

fn summation_vars(lower: &Expr) -> Vec<String> {
    match &lower.kind {
        ExprKind::Relation { chain } => chain.first.as_ref().and_then(Expr::symbol_key).into_iter().collect(),
        _ => crate::syntax::ast::index_letters(lower).unwrap_or_default(),
    }
}

/// Every assignment of the free indices over their ranges that satisfies the conditions.
pub fn index_assignments<B: Backend>(
    inst: &Instance<B>,
    free: &[String],
    conditions: &[Chain],
    claim: &Claim,
    base: &Env,
) -> Result<Vec<Env>, EvalError> {
    let mut ranges: Vec<Vec<i64>> = Vec::new();
    for letter in free {
        let range = inst.range_of(letter, &[&claim.lhs, &claim.rhs], base, claim.lhs.span)?;
        ranges.push((1..=range).collect());
    }
    let choices: Vec<(&String, &[i64])> = free.iter().zip(&ranges).map(|(l, r)| (l, r.as_slice())).collect();
    let envs = crate::sema::scope::every_assignment(base, &choices);
    let mut kept = Vec::new();
    for env in envs {
        let mut ok = true;
        for c in conditions {
            ok &= inst.condition_holds(c, &env)?;
        }
        if ok {
            kept.push(env);
        }
    }
    Ok(kept)
}

/// The sizes a claim can depend on: sizes it names, and those of the shapes, index ranges and
/// definitions (followed through their bodies, the loss's too) of the symbols it uses. A claim
/// about `q` alone need not be checked again for every value of an unrelated `n`.
pub fn sizes_used(scope: &Scope, claim: &Claim) -> BTreeSet<String> {
    let mut sizes = BTreeSet::new();
    for key in dependencies(scope, claim) {
        if scope.sizes.contains_key(&key) {
            sizes.insert(key.clone());
        }
        let dims: Vec<&String> = match scope.decls.get(&key) {
            Some(Decl::Index { range: IndexRange::Size(size) }) => vec![size],
            Some(Decl::Matrix { rows, cols }) | Some(Decl::Family { rows, cols }) => vec![rows, cols],
            Some(Decl::Identity { n }) => vec![n],
            _ => Vec::new(),
        };
        sizes.extend(dims.into_iter().filter(|d| scope.sizes.contains_key(*d)).cloned());
    }
    sizes
}

/// Every symbol key a claim can depend on: those it writes, and, through definitions (and the
/// section's loss), those their bodies write; `\bar X` brings X. Sorted.
pub fn dependencies(scope: &Scope, claim: &Claim) -> BTreeSet<String> {
    let mut pending: Vec<&Expr> = vec![&claim.lhs, &claim.rhs];
    pending.extend(claim.conditions.iter().flat_map(Chain::exprs));
    if let Some(loss) = scope.loss.as_ref().and_then(|l| scope.defs.get(l)) {
        pending.push(&loss.body);
    }
    reached(scope, pending)
}

/// The keys the expressions write, and those of the definitions they reach, transitively.
pub fn reached<'a>(scope: &'a Scope, mut pending: Vec<&'a Expr>) -> BTreeSet<String> {
    let mut seen: BTreeSet<String> = BTreeSet::new();
    while let Some(e) = pending.pop() {
        for key in e.symbol_key().into_iter().chain(super::calculus::unbarred_key(e)) {
            if seen.insert(key.clone()) {
                if let Some(def) = scope.defs.get(&key) {
                    pending.push(&def.body);
                }
            }
        }
        pending.extend(e.children());
    }
    seen
}
