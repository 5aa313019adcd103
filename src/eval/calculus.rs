//! Derivatives, adjoints (bars) and differentials.
//!
//! `∂f/∂x` for a leaf x is the backend's derivative (a gradient for a matrix x, a Jacobian for
//! vector by vector). For an x that is *defined* (Z = AV), the derivative flows only through
//! what is downstream of x: f is evaluated with x kept as an opaque leaf, differentiated, and
//! x's value substituted back. `\bar Y` is ∂L/∂Y for the section's loss L. `d f` is
//! Σ ∂f/∂v dv over the leaves v of the section's `vary` symbols. `\int_a^b f(x)\,dx` is the
//! backend's integral of the integrand with x bound to each point (only the floats have one).

use super::backend::{Backend, Limit};
use super::instance::{mentions_symbol, BigOpParts, Env, Instance};
use super::scalar::Scalar;
use super::value::Value;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::syntax::ast::{integrand_and_variables, Accent, BigOpKind, BinOp, Expr, ExprKind, RelOp, Span};

impl<B: Backend> Instance<'_, B> {
    /// ∂of/∂wrt.
    pub fn derivative(&self, of: &Expr, wrt: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        if let Some(whole) = self.entangled_with(of, wrt, env) {
            let what = format!(
                "a derivative by `{}` of an expression in `{whole}`: is it an entry of {whole}? The notes do not say how one depends on the other",
                wrt.symbol_key().unwrap_or_default()
            );
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(wrt.span));
        }
        // `\frac{du}{dx}` of a function u of one variable, with no argument written: u′(x).
        if let Some(prime) = self.derivative_of_function_expr(of, wrt, env) {
            return self.call(&prime, std::slice::from_ref(wrt), false, wrt.span, env);
        }
        // (`\frac{\partial f(q,z)}{\partial q}` after `q(x,y) = x + y`: by q, as Leibniz writes it.)
        let leibniz = |k: &String| self.own_parameters(k, env, wrt.span).is_some();
        if let Some(key) = wrt.symbol_key().filter(|k| self.is_defined_value(k) || leibniz(k)) {
            return self.derivative_through(key.as_str(), wrt.span, &|inner| inner.eval(of, env));
        }
        if let Some((key, indices)) = self.family_member(wrt, env)? {
            return self.derivative_through_member(&key, &indices, env, wrt.span, &|inner| inner.eval(of, env));
        }
        let x = self.eval(wrt, env)?;
        let f = || self.in_plain(|i| i.eval(of, env));
        self.backend.differentiate(&f, &x, wrt.span)
    }

    /// `\left(\frac{1}{1+e^{-z}}\right)'`: a prime on an expression (not on a function's name)
    /// whose one letter without a meaning here is the variable: that letter, to differentiate
    /// by. `None` with no such letter, or several (`(uv)'`: by what?).
    pub(super) fn sole_variable(&self, operand: &Expr, env: &Env) -> Option<Expr> {
        fn letters<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
            match &e.kind {
                ExprKind::Symbol(_) => out.push(e),
                // (A function applied is no letter; its arguments may be.)
                ExprKind::Call { args, .. } | ExprKind::Apply { args, .. } => args.iter().for_each(|a| letters(a, out)),
                _ => e.children().for_each(|c| letters(c, out)),
            }
        }
        if matches!(operand.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. }) {
            return None;
        }
        let mut found = Vec::new();
        letters(operand, &mut found);
        let free: Vec<&Expr> = found
            .into_iter()
            .filter(|e| e.symbol_key().is_some_and(|k| !self.resolves(&k, env) && !matches!(k.as_str(), "e" | "\\pi")))
            .collect();
        let key = free.first()?.symbol_key()?;
        free.iter().all(|e| e.symbol_key().as_deref() == Some(key.as_str())).then(|| free[0].clone())
    }

    /// `\frac{\partial}{\partial \theta_1} J(\theta)`, `\frac{\partial}{\partial x} (x_1 + x_2)`:
    /// the variable and a letter of the expression are one letter with and without an index,
    /// neither with a meaning here. θ₁ may be an entry of θ or a letter of its own; read as two
    /// letters the derivative is 0, which the text does not say. The bare letter, if so.
    fn entangled_with(&self, of: &Expr, wrt: &Expr, env: &Env) -> Option<String> {
        // (A subscripted term is one term: the `w` of `w_j` is no bare w.)
        fn find(e: &Expr, found: &dyn Fn(&Expr) -> Option<String>) -> Option<String> {
            let within = || match &e.kind {
                ExprKind::Subscript { .. } => None,
                _ => e.children().find_map(|c| find(c, found)),
            };
            found(e).or_else(within)
        }
        let open = |key: &str| !self.resolves(key, env);
        match &wrt.kind {
            ExprKind::Subscript { base, .. } => {
                let letter = base.symbol_key().filter(|k| open(k))?;
                find(of, &|e| {
                    matches!(e.kind, ExprKind::Symbol(_)).then(|| e.symbol_key()).flatten().filter(|k| *k == letter)
                })
            }
            ExprKind::Symbol(_) => {
                let letter = wrt.symbol_key().filter(|k| open(k))?;
                let indexed = |e: &Expr| match &e.kind {
                    ExprKind::Subscript { base, .. } => {
                        let own = e.symbol_key().is_none_or(|k| open(&k));
                        (own && base.symbol_key().as_deref() == Some(letter.as_str())).then(|| letter.clone())
                    }
                    _ => None,
                };
                find(of, &indexed)
            }
            _ => None,
        }
    }

    /// `F′` (as `Prime(F)`) where `e` is `\frac{dF}{dx}` of a bare function F of one variable:
    /// one nobody specified (only ever applied), defined with one parameter, or declared.
    fn derivative_of_function(&self, e: &Expr, env: &Env) -> Option<Expr> {
        let (of, wrt) = crate::syntax::ast::derivative_of_letter(e)?;
        self.derivative_of_function_expr(of, wrt, env)
    }

    /// `D(arg)` or `X·D(arg)` with D = `\frac{dF}{dx}` of a function ([`Self::derivative_of_function`]):
    /// the factor before it (if any), F′ and the argument.
    pub(super) fn applied_derivative<'e>(
        &self,
        lhs: &'e Expr,
        rhs: &'e Expr,
        env: &Env,
    ) -> Option<(Option<&'e Expr>, Expr, &'e Expr)> {
        let (before, derivative, arg) = crate::syntax::ast::derivative_applied(lhs, rhs)?;
        if matches!(arg.kind, ExprKind::Tuple { .. }) {
            return None;
        }
        Some((before, self.derivative_of_function(derivative, env)?, arg))
    }

    fn derivative_of_function_expr(&self, of: &Expr, wrt: &Expr, env: &Env) -> Option<Expr> {
        let (ExprKind::Symbol(_), ExprKind::Symbol(_)) = (&of.kind, &wrt.kind) else { return None };
        let key = of.symbol_key()?;
        let unknown = self.scope.usage.unknown_functions.contains(&key) && !self.resolves(&key, env);
        let defined = self.scope.defs.get(&key).is_some_and(|d| d.function && d.params.len() == 1);
        let declared = matches!(self.scope.decls.get(&key), Some(crate::sema::scope::Decl::Function(_)));
        (unknown || defined || declared).then(|| Expr::new(ExprKind::Prime { operand: Box::new(of.clone()) }, of.span))
    }

    /// An instance without an opaque definition to evaluate a function in for differentiation:
    /// this one, caches and all, when the backend evaluates once and nothing here is opaque;
    /// otherwise a fresh one.
    fn in_plain<T>(&self, f: impl FnOnce(&Instance<B>) -> T) -> T {
        if !self.backend.moves_leaves() && self.opaque.is_none() {
            f(self)
        } else {
            f(&self.fresh(None))
        }
    }

    /// A fresh instance (empty caches) of the same scope and sizes.
    fn fresh<'s>(&'s self, opaque: Option<&'s str>) -> Instance<'s, B> {
        let mut inner = Instance::new(self.backend, self.scope, self.sizes, opaque, self.budget);
        inner.names = self.names.clone();
        inner.in_progress = self.in_progress.clone();
        inner.positive_leaves = self.positive_leaves.clone();
        inner
    }

    /// A definition without parameters (a matrix or scalar quantity of the section).
    fn is_defined_value(&self, key: &str) -> bool {
        self.scope.defs.get(key).is_some_and(|d| d.params.is_empty()) || self.scope.general_functions.contains_key(key)
    }

    /// ∂f/∂Y for a defined Y: f evaluated with Y opaque, differentiated by Y's leaves, and Y's
    /// value substituted back for them.
    fn derivative_through(
        &self,
        key: &str,
        span: Span,
        f: &super::instance::Recompute<'_, B>,
    ) -> Result<Value<B::S>, EvalError> {
        // (A function by its value at its own parameters, as Leibniz notation writes it.)
        let actual = match self.at_own_parameters(key, &Env::new(), span) {
            Some(value) => value?,
            None => self.named(key, &Expr::new(ExprKind::Empty, span), &Env::new())?,
        };
        let probe = self.fresh(Some(key));
        probe.opaque_shape.set(Some(actual.shape()));
        let leaf = probe.opaque_leaf(key, span)?;
        let shape = leaf.shape();
        self.through_leaf(&leaf, &actual, span, &|| {
            let inner = self.fresh(Some(key));
            inner.opaque_shape.set(Some(shape));
            f(&inner)
        })
    }

    /// The derivative by `leaf`, standing for `actual`, of what `recompute` evaluates with it
    /// (the leaf bound to `actual`'s values for the floats), `actual` substituted back.
    fn through_leaf(
        &self,
        leaf: &Value<B::S>,
        actual: &Value<B::S>,
        span: Span,
        recompute: &dyn Fn() -> Result<Value<B::S>, EvalError>,
    ) -> Result<Value<B::S>, EvalError> {
        self.backend.bind(leaf, actual);
        let gradient = self.backend.differentiate(&recompute, leaf, span)?;
        Ok(self.backend.substitute(gradient, leaf, actual))
    }

    /// `y_i` (i bound to a number here) of a family definition `y_i = \sigma(x_i)`: its key and
    /// index values. `None` for anything else.
    fn family_member(&self, wrt: &Expr, env: &Env) -> Result<Option<(String, Vec<i64>)>, EvalError> {
        let ExprKind::Subscript { base, index } = &wrt.kind else { return Ok(None) };
        let Some(key) = base.symbol_key() else { return Ok(None) };
        let Some(def) = self.scope.defs.get(&key).filter(|d| !d.function && !d.params.is_empty()) else {
            return Ok(None);
        };
        if wrt.symbol_key().is_some_and(|k| self.resolves(&k, env)) || self.opaque == Some(key.as_str()) {
            return Ok(None);
        }
        // (`c_{t-1}` with t a label: the member at the label's step, as its value names it.)
        let indices = match self.labelled(base, index, env) {
            Some(labelled) => self.indices(index, &labelled)?,
            None => self.indices(index, env)?,
        };
        Ok((indices.len() == def.params.len()).then_some((key, indices)))
    }

    /// ∂f/∂y_i for a member of a family definition: f evaluated with that member a leaf (the
    /// other members expanded), differentiated by it, and the member's value substituted back.
    fn derivative_through_member(
        &self,
        key: &str,
        indices: &[i64],
        env: &Env,
        span: Span,
        f: &super::instance::Recompute<'_, B>,
    ) -> Result<Value<B::S>, EvalError> {
        let actual = self.definition(key, indices, env, span)?;
        actual.as_scalar(span, key)?;
        let leaf = Value::scalar(self.leaf(&format!("{key}°"), indices));
        self.through_leaf(&leaf, &actual, span, &|| {
            let inner = self.fresh(self.opaque);
            *inner.opaque_member.borrow_mut() = Some((key.to_string(), indices.to_vec()));
            f(&inner)
        })
    }

    /// The key of Y when `barred` (`\bar Y`, `\bar W_O`) is to be read as the adjoint ∂L/∂Y
    /// here: the section has a loss, Y means something, and `\bar Y` is not declared itself.
    pub(super) fn adjoint_target(&self, barred: &Expr) -> Option<String> {
        let target = unbarred_key(barred)?;
        let declared_as_such = barred.symbol_key().is_some_and(|k| self.scope.knows(&k));
        (self.scope.loss.is_some() && !declared_as_such && self.scope.knows(&target)).then_some(target)
    }

    /// `\bar Y` = ∂L/∂Y, cached per instance.
    pub(super) fn adjoint(&self, target: &str, span: Span) -> Result<Value<B::S>, EvalError> {
        if let Some(v) = self.adjoints.borrow().get(target) {
            return Ok(v.clone());
        }
        let loss = self.scope.loss.clone().ok_or(
            EvalErrorKind::Unsupported {
                category: NotRead::NeedsSpec,
                what: "a bar without a loss (set `loss` in the spec)".into(),
            }
            .at(span),
        )?;
        let anywhere = Expr::new(ExprKind::Empty, span);
        let value = if self.is_defined_value(target) {
            self.derivative_through(target, span, &|inner| inner.named(&loss, &anywhere, &Env::new()))?
        } else {
            let x = self.named(target, &anywhere, &Env::new())?;
            let f = || self.in_plain(|i| i.named(&loss, &anywhere, &Env::new()));
            self.backend.differentiate(&f, &x, span)?
        };
        self.adjoints.borrow_mut().insert(target.to_string(), value.clone());
        Ok(value)
    }

    /// `d f`: Σ over the leaves v of the `vary` symbols of ∂f/∂v · dv.
    pub(super) fn differential(&self, operand: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        if self.scope.vary.is_empty() {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::NeedsSpec,
                what: "a differential (declare `vary` in the spec)".into(),
            }
            .at(operand.span));
        }
        let anywhere = Expr::new(ExprKind::Empty, operand.span);
        let mut total: Option<Value<B::S>> = None;
        for key in &self.scope.vary {
            let leaves = self.named(key, &anywhere, &Env::new())?;
            let f = || self.in_plain(|i| i.eval(operand, env));
            let jacobian = self.backend.differentiate(&f, &leaves, operand.span)?;
            let directions: Vec<B::S> =
                leaves.data.iter().map(|l| self.backend.differential(l, operand.span)).collect::<Result<_, _>>()?;
            let n = directions.len();
            // The Jacobian has one row per entry of f (or is shaped like the leaves when f is scalar).
            let entries = jacobian.data.len() / n.max(1);
            let part: Vec<B::S> = (0..entries)
                .map(|e| (0..n).fold(B::S::int(0), |acc, k| acc.plus(&jacobian.data[e * n + k].times(&directions[k]))))
                .collect();
            let f_shape = self.eval(operand, env)?;
            let part = Value::matrix(f_shape.rows, f_shape.cols, part);
            total = Some(match total {
                None => part,
                Some(t) => t.zip(&part, "a differential", operand.span, false, B::S::plus)?,
            });
        }
        total.ok_or(
            EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: "a differential with nothing varying".into(),
            }
            .at(operand.span),
        )
    }
}

/// `\bar W_O` -> `W_O`, `\bar Z` -> `Z`: the key of what a barred symbol is the adjoint of.
pub fn unbarred_key(e: &Expr) -> Option<String> {
    let strip = |e: &Expr| -> Option<Expr> {
        let ExprKind::Symbol(s) = &e.kind else { return None };
        (s.accents.last() == Some(&Accent::Bar)).then(|| {
            let mut s = s.clone();
            s.accents.pop();
            Expr::new(ExprKind::Symbol(s), e.span)
        })
    };
    match &e.kind {
        ExprKind::Symbol(_) => strip(e)?.symbol_key(),
        ExprKind::Subscript { base, index } => {
            let base = strip(base)?;
            Expr::new(ExprKind::Subscript { base: Box::new(base), index: index.clone() }, e.span).symbol_key()
        }
        _ => None,
    }
}

/// The intervals of a box written as their product, `[a, b]\times[c, d]`, in order; `None` for
/// any other region (`\phi(U)`, `\mathbb{R}^2`, a single interval).
fn box_intervals(region: &Expr) -> Option<Vec<(&Expr, &Expr)>> {
    match &region.kind {
        ExprKind::Binary { op: BinOp::Times, lhs, rhs } => {
            let mut left = match box_intervals(lhs) {
                Some(l) => l,
                None => vec![interval(lhs)?],
            };
            left.push(interval(rhs)?);
            Some(left)
        }
        _ => None,
    }
}

/// `[a, b]`: its ends.
fn interval(e: &Expr) -> Option<(&Expr, &Expr)> {
    let ExprKind::Fenced { open, close, inner: Some(inner) } = &e.kind else { return None };
    let ExprKind::Tuple { items, stacked: false } = &inner.kind else { return None };
    match (open.as_str(), close.as_str(), items.as_slice()) {
        ("[", "]", [a, b]) => Some((a, b)),
        _ => None,
    }
}

impl<B: Backend> Instance<'_, B> {
    /// `\int_a^b f(x)\,dx`, and integrals nested directly inside it (`\int_0^\infty\int_0^{2\pi}
    /// … \,d\theta\,dr`: the innermost takes the first differential). Limits may be `\pm\infty`
    /// and may use the outer variables. A backend without integrals refuses it.
    pub(super) fn integral(&self, parts: BigOpParts, env: &Env) -> Result<Value<B::S>, EvalError> {
        let BigOpParts { lower, upper, body, span } = parts;
        let outside = |what: String| EvalErrorKind::Unsupported { category: NotRead::Outside, what }.at(span);
        // `\int_{[a, b]\times[c, d]} f(x, y)\,dx\,dy`: over a box, the first interval for the
        // first differential — the iterated integral, the first differential innermost.
        if let (Some(region), None) = (lower, upper) {
            if let Some(intervals) = box_intervals(region) {
                let (integrand, vars) = integrand_and_variables(body);
                let keys: Option<Vec<String>> = vars.iter().map(|v| v.symbol_key()).collect();
                return match keys.filter(|k| k.len() == intervals.len()) {
                    Some(keys) => {
                        let limits: Vec<(&Expr, &Expr)> = intervals.into_iter().rev().collect();
                        self.nested_integral(&limits, &keys, integrand, span, env)
                    }
                    None => {
                        Err(outside("an integral over a box whose differentials do not match its intervals".into()))
                    }
                };
            }
        }
        let (Some(lower), Some(upper)) = (lower, upper) else {
            return Err(outside("an integral without both limits (indefinite)".into()));
        };
        let mut limits = vec![(lower, upper)];
        let mut inner = body;
        while let ExprKind::BigOp { op: BigOpKind::Int, lower: Some(l), upper: Some(u), body: Some(b) } = &inner.kind {
            limits.push((l, u));
            inner = b;
        }
        let (integrand, vars) = integrand_and_variables(inner);
        let keys: Option<Vec<String>> =
            vars.iter().map(|v| matches!(v.kind, ExprKind::Symbol(_)).then(|| v.symbol_key()).flatten()).collect();
        let Some(keys) = keys.filter(|k| k.len() == limits.len()) else {
            return Err(outside("an integral whose differentials (`dx`) do not match its integral signs".into()));
        };
        // A quantity defined without parameters is a value, not a function of the integration
        // variable: `u = y^2` then `\int_0^1 u\,dy` is refused, not read with u constant.
        if let Some(integrand) = integrand {
            for (key, def) in &self.scope.defs {
                if def.params.is_empty() && mentions_symbol(integrand, key) {
                    if let Some(var) = keys.iter().find(|v| mentions_symbol(&def.body, v)) {
                        return Err(outside(format!(
                            "`{key}` inside an integral over `{var}`, defined with `{var}` but not as a function of it"
                        )));
                    }
                }
            }
        }
        self.nested_integral(&limits, &keys, integrand, span, env)
    }

    /// The integral over `limits[0]` (the outermost), with `keys.last()` its variable.
    fn nested_integral(
        &self,
        limits: &[(&Expr, &Expr)],
        keys: &[String],
        integrand: Option<&Expr>,
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        let (Some(((lower, upper), inner_limits)), Some((key, inner_keys))) = (limits.split_first(), keys.split_last())
        else {
            return match integrand {
                Some(e) => self.eval(e, env),
                None => Ok(Value::scalar(B::S::int(1))),
            };
        };
        let (lower, upper) = (self.limit(lower, env)?, self.limit(upper, env)?);
        let at = |t: &B::S| -> Result<B::S, EvalError> {
            let value =
                self.with_bound(key, t, || self.nested_integral(inner_limits, inner_keys, integrand, span, env));
            Ok(value?.as_scalar(span, "an integrand")?.clone())
        };
        let unsupported = || EvalErrorKind::Unsupported { category: NotRead::Outside, what: "\\int".into() }.at(span);
        let value = self.backend.integrate(&at, lower, upper, span).ok_or_else(unsupported)??;
        Ok(Value::scalar(value))
    }

    /// `\lim_{n\to\infty} (1+\frac1n)^n`, `\lim_{h\to 0} \frac{f(x+h)-f(x)}{h}`: the limit of a
    /// scalar body as one letter approaches a point or `\pm\infty`, where the backend takes
    /// limits ([`Backend::limit`]); otherwise refused.
    pub(super) fn limit_of(&self, parts: BigOpParts, env: &Env) -> Result<Value<B::S>, EvalError> {
        let BigOpParts { lower, body, span, .. } = parts;
        let outside =
            |what: &str| EvalErrorKind::Unsupported { category: NotRead::Outside, what: what.into() }.at(span);
        let approach = lower.and_then(|l| match &l.kind {
            ExprKind::Relation { chain } => match (&chain.first, chain.links.as_slice()) {
                (Some(v), [link]) if link.op == RelOp::To => v.symbol_key().map(|key| (key, &link.rhs)),
                _ => None,
            },
            _ => None,
        });
        let Some((key, point)) = approach else {
            return Err(outside("a limit not written `\\lim_{x \\to a}` before its expression"));
        };
        let at = self.limit(point, env)?;
        let value_at = |t: &B::S| -> Result<B::S, EvalError> {
            let value = self.with_bound(&key, t, || self.eval(body, env));
            Ok(value?.as_scalar(span, "the expression of a limit")?.clone())
        };
        let value = self.backend.limit(&value_at, at, span).ok_or_else(|| outside("\\lim"))??;
        Ok(Value::scalar(value))
    }

    /// `work` done with the letter `key` bound to the value `t` (an integration or limit
    /// variable), over the letters bound already.
    fn with_bound<T>(&self, key: &str, t: &B::S, work: impl FnOnce() -> T) -> T {
        let mut frame = self.bound.borrow().last().cloned().unwrap_or_default();
        frame.insert(key.to_string(), Value::scalar(t.clone()));
        self.bound.borrow_mut().push(frame);
        let value = work();
        self.bound.borrow_mut().pop();
        value
    }

    /// An integral's limit: `\infty`, `-\infty`, `+\infty`, or a scalar.
    fn limit(&self, e: &Expr, env: &Env) -> Result<Limit<B::S>, EvalError> {
        match crate::syntax::ast::infinite_limit(e) {
            Some(true) => Ok(Limit::PlusInfinity),
            Some(false) => Ok(Limit::MinusInfinity),
            None => Ok(Limit::At(self.eval(e, env)?.as_scalar(e.span, "an integral's limit")?.clone())),
        }
    }
}
