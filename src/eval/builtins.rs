//! Functions: the built-in ones (ln, exp, sin, cos, mean, sum, det, row softmax with or without
//! a mask), functions the notes define component-wise (`\operatorname{LN}(x)_r = …`), and the
//! spec's generic functions (σ and σ' entry-wise, F on vectors, the rotation R(θ)).

use super::algebra::{determinant, extremum, rotation, sum};
use super::backend::Backend;
use super::instance::{Env, Instance};
use super::scalar::{Elementary, Scalar};
use super::value::Value;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::sema::scope::{Decl, FunctionKind, SetKind};
use crate::syntax::ast::{BinOp, Expr, ExprKind, Function, RelOp, Span};

/// A name applied to its arguments, as written: `g''(x)` is `g` with two primes.
#[derive(Clone, Copy)]
struct Application<'e> {
    key: &'e str,
    primes: usize,
    args: &'e [Expr],
    span: Span,
}

impl<B: Backend> Instance<'_, B> {
    pub(super) fn apply(
        &self,
        func: &Function,
        args: &[Expr],
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        if let Some(sup) = &func.sup {
            // `\sin^2 x` is (sin x)², entry by entry; `\sin^{-1}` (arcsine) is not read.
            let n = self.integer(sup, env).ok().filter(|n| *n >= 1).ok_or_else(|| {
                EvalErrorKind::Unsupported {
                    category: NotRead::Outside,
                    what: format!("`\\{}^{{{}}}`", func.name, crate::syntax::print::explicit_tex(sup, &|_| false)),
                }
                .at(span)
            })?;
            let plain = Function { sup: None, ..func.clone() };
            return Ok(self.apply(&plain, args, span, env)?.map(|v| v.power(&B::S::int(n))));
        }
        let own = crate::syntax::ast::operator_key(&func.name);
        if func.sub.is_none() && self.scope.defs.get(&own).is_some_and(|d| d.function) {
            return self.apply_defined(Application { key: &own, primes: func.primes, args, span }, env);
        }
        if let (crate::syntax::ast::BINOMIAL, [n, k], 0, None) = (func.name.as_str(), args, func.primes, &func.sub) {
            return self.binomial(n, k, span, env);
        }
        if let (crate::syntax::ast::FACTORIAL, [n]) = (func.name.as_str(), args) {
            return self.factorial(n, span, env);
        }
        let [arg] = args else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("{} with {} arguments", func.name, args.len()),
            }
            .at(span));
        };
        if let Some(key) = crate::syntax::ast::applied_key(&func.name, arg).filter(|k| self.scope.defs.contains_key(k))
        {
            if func.primes > 0 {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Outside,
                    what: format!("`{}'` of a function defined component-wise", func.name),
                }
                .at(span));
            }
            return self.named(&key, arg, env);
        }
        let value = self.eval(arg, env)?;
        match (func.name.as_str(), &func.sub, func.primes) {
            // `\sum_i \mathrm{softmax}(-\frac12((x - x_i)w)^2) y_i`: a softmax of one number is
            // the softmax over an index the notes leave to the reader, never 1.
            ("softmax", _, 0) if value.is_scalar() => Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: "a softmax of one number: over which index? (write the vector, or the fraction of exponentials)"
                    .into(),
            }
            .at(span)),
            ("softmax", None, 0) => Ok(self.softmax(&value, None)),
            ("softmax", Some(set), 0) => {
                let key = set.symbol_key().unwrap_or_default();
                let kind = self.set_kind(&key, set.span)?;
                Ok(self.softmax(&value, Some(kind)))
            }
            (name, None, 0) => self.plain_function(name, value, span),
            (name, None, 1) if crate::notation::is_entrywise(name) => {
                // `\tanh'(a)`: the derivative of the built-in, entry by entry.
                let value = value.clone();
                self.entrywise_derivative(&value, span, &|inner: &Instance<B>, t: Value<B::S>| {
                    inner.plain_function(name, t, span)
                })
            }
            // `\log_2 p`, `\log_b x`: the logarithm to that base, ln x / ln b.
            ("log", Some(base), 0) => {
                let base = self.eval(base, env)?;
                let ln_base = B::S::elementary(Elementary::Log, base.as_scalar(span, "the base of a logarithm")?);
                Ok(value.map(|a| B::S::elementary(Elementary::Log, a).over(&ln_base)))
            }
            (name, Some(_), _) => Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("the function `{name}` with a subscript"),
            }
            .at(span)),
            (name, _, _) => Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("`{name}` with {} primes", func.primes),
            }
            .at(span)),
        }
    }

    /// `\binom{n}{k}` for a whole number k (written, or a size or index with a value):
    /// n(n−1)⋯(n−k+1)/k!, so n may be any scalar. A k with no whole value is refused.
    fn binomial(&self, n: &Expr, k: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let k = self.integer(k, env).ok().filter(|k| (0..=40).contains(k)).ok_or_else(|| {
            EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: "a binomial coefficient whose lower entry is not a whole number here".into(),
            }
            .at(span)
        })?;
        let upper = self.eval(n, env)?;
        let n = upper.as_scalar(span, "the upper entry of a binomial coefficient")?;
        let mut value = B::S::int(1);
        for j in 0..k {
            value = value.times(&n.minus(&B::S::int(j))).over(&B::S::int(j + 1));
        }
        Ok(Value::scalar(value))
    }

    /// `n!` of a whole number n (up to 40) that the notes or spec give; otherwise refused, never
    /// extended to other numbers.
    fn factorial(&self, n: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let n = self.integer(n, env).ok().filter(|n| (0..=40).contains(n)).ok_or_else(|| {
            EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: "a factorial of a number not known to be whole here".into(),
            }
            .at(span)
        })?;
        Ok(Value::scalar((1..=n).fold(B::S::int(1), |acc, j| acc.times(&B::S::int(j)))))
    }

    fn plain_function(&self, name: &str, value: Value<B::S>, span: Span) -> Result<Value<B::S>, EvalError> {
        let builtin = |f: Elementary| value.map(|a| B::S::elementary(f, a));
        let exp = |a: &B::S| B::S::elementary(Elementary::Exp, a);
        let half = B::S::ratio(1, 2);
        let concrete = || value.concrete(span, name);
        match name {
            "ln" | "log" => Ok(builtin(Elementary::Log)),
            "exp" => Ok(builtin(Elementary::Exp)),
            "sin" => Ok(builtin(Elementary::Sin)),
            "cos" => Ok(builtin(Elementary::Cos)),
            "tan" => {
                Ok(value.map(|a| B::S::elementary(Elementary::Sin, a).over(&B::S::elementary(Elementary::Cos, a))))
            }
            "sec" => Ok(value.map(|a| B::S::int(1).over(&B::S::elementary(Elementary::Cos, a)))),
            "csc" => Ok(value.map(|a| B::S::int(1).over(&B::S::elementary(Elementary::Sin, a)))),
            "cot" => {
                Ok(value.map(|a| B::S::elementary(Elementary::Cos, a).over(&B::S::elementary(Elementary::Sin, a))))
            }
            "abs" => Ok(builtin(Elementary::Abs)),
            "arctan" => Ok(builtin(Elementary::Atan)),
            "arcsin" => Ok(builtin(Elementary::Asin)),
            "arccos" => Ok(builtin(Elementary::Acos)),
            "sinh" => Ok(value.map(|a| exp(a).minus(&exp(&a.negate())).times(&half))),
            "cosh" => Ok(value.map(|a| exp(a).plus(&exp(&a.negate())).times(&half))),
            "tanh" => Ok(value.map(|a| {
                let e2 = exp(&a.times(&B::S::int(2)));
                e2.minus(&B::S::int(1)).over(&e2.plus(&B::S::int(1)))
            })),
            "sigmoid" => Ok(value.map(|a| B::S::int(1).over(&B::S::int(1).plus(&exp(&a.negate()))))),
            "ReLU" | "relu" => Ok(value.map(|a| extremum(&B::S::int(0), a, true))),
            "sgn" | "sign" => Ok(value.map(|a| a.over(&B::S::elementary(Elementary::Abs, a)))),
            "mean" => {
                let v = concrete()?;
                Ok(Value::scalar(sum(&v.data).over(&B::S::int(v.data.len() as i64))))
            }
            "sum" => Ok(Value::scalar(sum(&concrete()?.data))),
            "det" if value.rows == value.cols && !value.is_free() => {
                Ok(Value::scalar(determinant(&value, span, &|| self.on_time(span))?))
            }
            "tr" | "trace" | "Tr" if value.rows == value.cols && !value.is_free() => {
                Ok(Value::scalar((0..value.rows).fold(B::S::int(0), |acc, i| acc.plus(value.at(i, i)))))
            }
            "diag" if (value.rows == 1 || value.cols == 1) && !value.is_free() => {
                let n = value.data.len();
                Ok(Value::from_fn(n, n, |i, j| if i == j { value.data[i].clone() } else { B::S::int(0) }))
            }
            "shape" => Ok(Value::matrix(1, 2, vec![B::S::int(value.rows as i64), B::S::int(value.cols as i64)])),
            _ => Err(EvalErrorKind::Unsupported {
                category: NotRead::NotUnderstood,
                what: format!("not understood: the function `{name}`"),
            }
            .at(span)),
        }
    }

    /// Softmax: of a vector, over all its entries (either orientation); of a matrix, row by row;
    /// with a `causal` mask row i uses only columns 1..=i (the rest are 0).
    fn softmax(&self, s: &Value<B::S>, mask: Option<SetKind>) -> Value<B::S> {
        if s.cols == 1 && s.rows > 1 && mask.is_none() {
            return self.softmax(&s.transpose(), None).transpose();
        }
        let allowed = |i: usize, j: usize| mask != Some(SetKind::Causal) || j <= i;
        let shifts: Vec<B::S> = (0..s.rows)
            .map(|i| {
                B::S::softmax_shift(
                    &(0..s.cols).filter(|&r| allowed(i, r)).map(|r| s.at(i, r).clone()).collect::<Vec<_>>(),
                )
            })
            .collect();
        let exp = |i: usize, r: usize| B::S::elementary(Elementary::Exp, &s.at(i, r).minus(&shifts[i]));
        Value::from_fn(s.rows, s.cols, |i, j| {
            if !allowed(i, j) {
                return B::S::int(0);
            }
            let denominator = (0..s.cols).filter(|&r| allowed(i, r)).fold(B::S::int(0), |acc, r| acc.plus(&exp(i, r)));
            exp(i, j).over(&denominator)
        })
    }

    /// `F(x)`, `\sigma'(B)`, `R(\theta)`: a function the notes define, or one the spec declares;
    /// a value directly before parentheses is a product (`x(1-x)` with x known). A name that is
    /// neither is refused: an application and a product would give different verdicts.
    pub(super) fn call(
        &self,
        func: &Expr,
        args: &[Expr],
        postfixed: bool,
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        let (mut head, mut primes) = (func, 0);
        while let ExprKind::Prime { operand } = &head.kind {
            head = operand;
            primes += 1;
        }
        if let Some(word) = head.word_function_key().filter(|k| self.scope.defs.get(k).is_some_and(|d| d.function)) {
            return self.apply_defined(Application { key: &word, primes, args, span }, env);
        }
        let key = head.symbol_key().unwrap_or_default();
        // `\Gamma(a + \frac12)` where nothing defines Γ: Euler's Gamma function, as a Gamma or
        // Student-t density writes it; derivcheck does not compute it (nor Γ as a function
        // nobody specified, whose values a claim about Γ would then be a property of).
        if key == "\\Gamma" && !self.resolves(&key, env) {
            let what = "the Gamma function `\\Gamma(…)`".to_string();
            return Err(EvalErrorKind::Unsupported { category: NotRead::Outside, what }.at(span));
        }
        if self.scope.usage.unknown_functions.contains(&key) && !self.resolves(&key, env) {
            return self.apply_unknown(Application { key: &key, primes, args, span }, env);
        }
        if primes > 1 {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("`{key}` with {primes} primes here"),
            }
            .at(span));
        }
        if self.scope.defs.get(&key).is_some_and(|d| d.function) {
            return self.apply_defined(Application { key: &key, primes, args, span }, env);
        }
        let Some(Decl::Function(kind)) = self.scope.decls.get(&key) else {
            if primes > 0 {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::NeedsSpec,
                    what: format!("`{key}'`: {key} is not a function defined in the notes or declared in the spec"),
                }
                .at(span));
            }
            let [one] = args else {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Malformed,
                    what: format!("`{key}(…)` with {} arguments", args.len()),
                }
                .at(span));
            };
            if !self.resolves(&key, env)
                && self.adjoint_target(head).is_none()
                && !self.scope.usage.values.contains(&key)
            {
                let what = format!("`{key}(…)`: {key} is neither defined nor declared, so this could be a function application or a product");
                return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
            }
            // `\phi(\mathbf x)` of a letter nothing defines: a map of the vector, far more often
            // than a number times it.
            let base = match &one.kind {
                ExprKind::Subscript { base, .. } => base.as_ref(),
                _ => one,
            };
            let vector_argument =
                [one, base].iter().any(|e| e.symbol_key().is_some_and(|k| self.scope.usage.matrix_like.contains(&k)));
            if vector_argument && !self.resolves(&key, env) && !self.scope.pinned {
                let what = format!("`{key}(…)` of a vector: {key} is neither defined nor declared, so this could be a function of the vector or a number times it");
                return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
            }
            if postfixed {
                let what = format!("`{key}(…)` with a subscript or power after the parentheses: as a product of {key} and the parenthesis, the subscript or power would belong to the parenthesis only (write `{key}\\,(…)` or declare {key} a function)");
                return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
            }
            let product = self.eval(func, env)?.matmul(&self.eval(one, env)?, span);
            // Where the shapes refuse the product and no spec pins the letter's meaning, the
            // other reading, an application, is as plausible: no verdict (`p(\mathbf z)` of a
            // vector p).
            return match product {
                Err(EvalError { kind: EvalErrorKind::ShapeMismatch { .. }, .. }) if !self.scope.pinned => {
                    let what = format!("`{key}(…)`: as a product of {key} and the parenthesis the shapes do not fit, so this may be a function application (define {key} as a function, or declare it in the spec)");
                    Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span))
                }
                other => other,
            };
        };
        let [arg] = args else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("`{key}` with {} arguments", args.len()),
            }
            .at(span));
        };
        let x = self.eval(arg, env)?;
        match kind {
            FunctionKind::Elementwise => {
                Ok(x.map(|a| self.backend.generic(&key, None, std::slice::from_ref(a), primes)))
            }
            FunctionKind::Vector => Ok(x.map_indexed(|i| self.backend.generic(&key, Some(i as i64 + 1), &x.data, 0))),
            FunctionKind::Rotation => Ok(rotation(x.as_scalar(arg.span, "a rotation angle")?)),
        }
    }

    /// A function nobody specified, applied (see [`Backend::unknown`]): its arguments' entries
    /// are its variables (`f(\mathbf x)` is a function of x_1, …, x_n); `g''(x)` takes two
    /// derivatives, of a function of one variable only.
    fn apply_unknown(&self, call: Application, env: &Env) -> Result<Value<B::S>, EvalError> {
        let Application { key, primes, args, span } = call;
        let mut variables = Vec::new();
        for a in args {
            variables.extend(self.eval(a, env)?.data);
        }
        if variables.is_empty() || (primes > 0 && variables.len() != 1) {
            let what = format!("`{key}` with {primes} prime(s) and {} variables: which derivative?", variables.len());
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        let mut partials = vec![0u32; variables.len()];
        partials[0] = primes as u32;
        Ok(Value::scalar(self.backend.unknown(key, &variables, &partials)))
    }

    /// A function applied though the product reads otherwise, with the factor written before
    /// its head multiplying (`\frac1n f_i(\mathbf x)`, which parses as (1/n·f_i)·(x)):
    /// - `f_i(\mathbf x)` of a family of functions nobody specified ([`Scope::unknown_families`]):
    ///   the member for the index's value, a function of its own (`f_{2}`);
    /// - `f[g(x)]` of a function f the notes define: f applied, as brackets write it in many
    ///   textbooks (a function times a bracket means nothing).
    ///
    /// `None` where the head is neither.
    pub(super) fn applied_in_product(
        &self,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
        env: &Env,
    ) -> Result<Option<Value<B::S>>, EvalError> {
        let defined = |k: &String| {
            self.opaque != Some(k.as_str())
                && !env.contains_key(k)
                && self.scope.defs.get(k).is_some_and(|d| d.function && d.params.len() == 1)
        };
        // `\log h_\theta(x)`, which parses as (log h_θ)·(x): the operator takes the function the
        // notes define, applied.
        if let ExprKind::Apply { func, args, parenthesized: false } = &lhs.kind {
            if let [head] = args.as_slice() {
                let applied =
                    crate::syntax::ast::subscript_applied(head, rhs).is_some() && head.span.end == rhs.span.start;
                if applied && head.symbol_key().is_some_and(|k| defined(&k)) {
                    let applied = Expr::new(
                        ExprKind::Binary {
                            op: BinOp::Implicit,
                            lhs: Box::new(head.clone()),
                            rhs: Box::new(rhs.clone()),
                        },
                        Span::new(head.span.start, rhs.span.end),
                    );
                    let kind = ExprKind::Apply { func: func.clone(), args: vec![applied], parenthesized: false };
                    return self.eval(&Expr::new(kind, span), env).map(Some);
                }
            }
        }
        let written =
            crate::syntax::ast::subscript_applied(lhs, rhs).or_else(|| crate::syntax::ast::bracket_applied(lhs, rhs));
        let Some((before, head, arg)) = written else { return Ok(None) };
        // (`P_1(3)` after `P_1(x) = 2(x-1)+3`: the member the notes define, applied, as `f[g(x)]`.)
        let value = match &head.kind {
            _ if head.symbol_key().is_some_and(|k| defined(&k)) => {
                let key = head.symbol_key().unwrap_or_default();
                self.apply_defined(Application { key: &key, primes: 0, args: std::slice::from_ref(arg), span }, env)?
            }
            ExprKind::Subscript { base, index } => {
                let Some(family) = base.symbol_key().filter(|k| self.scope.usage.unknown_families.contains(k)) else {
                    return Ok(None);
                };
                if head.symbol_key().is_some_and(|k| self.resolves(&k, env)) {
                    return Ok(None);
                }
                let indices = self.indices(index, env)?;
                let (_, name) = super::instance::leaf_name(&family, &indices);
                let args: Vec<Expr> = match &arg.kind {
                    ExprKind::Tuple { items, .. } => items.clone(),
                    _ => vec![arg.clone()],
                };
                self.apply_unknown(Application { key: &name, primes: 0, args: &args, span }, env)?
            }
            _ => return Ok(None),
        };
        self.after_factor(before, value, span, env).map(Some)
    }

    /// `value` times the factor written before its head (`\frac1n f_i(\mathbf x)`), if any.
    fn after_factor(
        &self,
        before: Option<&Expr>,
        value: Value<B::S>,
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        match before {
            None => Ok(value),
            Some(before) => self.eval(before, env)?.zip(&value, "a product", span, true, |a, b| a.times(b)),
        }
    }

    /// `\textrm{MSE}(a, b)` where the notes define the word as a function: applied (the parser
    /// reads a word before a parenthesis as a product, which it is not then).
    pub(super) fn word_application(
        &self,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
        env: &Env,
    ) -> Result<Option<Value<B::S>>, EvalError> {
        let Some((before, key, args)) = crate::syntax::ast::word_applied(lhs, rhs) else { return Ok(None) };
        if !self.scope.defs.get(&key).is_some_and(|d| d.function) {
            return Ok(None);
        }
        let value = self.apply_defined(Application { key: &key, primes: 0, args: &args, span }, env)?;
        self.after_factor(before, value, span, env).map(Some)
    }

    /// `LL(\theta) = \ln L(\theta)` after `L(\theta) = …`: a function's name written bare right
    /// against a letter or an application (`lhs` times `rhs`, side by side) names something of
    /// its own (the log-likelihood LL) as often as it multiplies: refused.
    pub(super) fn bare_function_against(&self, lhs: &Expr, rhs: &Expr, span: Span, env: &Env) -> Result<(), EvalError> {
        // `E^{2}(X)`, `f^2(x)` of a letter nothing defines and nothing writes as a value: the
        // square of an application (as `\sin^2 x`), an iterate f(f(x)), or a product?
        if let Some((power, base, _)) = crate::syntax::ast::power_before_parenthesis(lhs, rhs) {
            let key = base.symbol_key().unwrap_or_default();
            if !self.resolves(&key, env) && !self.scope.usage.values.contains(&key) {
                let tex = crate::syntax::print::explicit_tex(power, &|_| true);
                let what = format!("`{tex}(…)`: the power of an application (as \\sin^2 x), an iterate, or a product? (write the power after the parentheses)");
                return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
            }
        }
        let bare_function = matches!(lhs.kind, ExprKind::Symbol(_))
            && lhs.symbol_key().and_then(|k| self.scope.defs.get(&k)).is_some_and(|d| d.function);
        let against = matches!(rhs.kind, ExprKind::Symbol(_) | ExprKind::Call { .. } | ExprKind::Subscript { .. });
        if !(bare_function && against && lhs.span.end == rhs.span.start) {
            return Ok(());
        }
        let tex = |e: &Expr| crate::syntax::print::explicit_tex(e, &|_| true);
        let what = format!(
            "`{}{}`: a name written as letters, or the function `{}` times what follows?",
            tex(lhs),
            tex(rhs),
            tex(lhs)
        );
        Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span))
    }

    /// `\frac{\partial f(q,z)}{\partial x}` after `q(x,y) = x + y`: a function written bare is its
    /// value at its own parameters ([`Self::own_parameters`]), q for q(x, y), as Leibniz notation
    /// writes it; `None` where it has none to be applied to. (Never where brackets follow it:
    /// `f[g(x)]` is f applied, [`Self::applied_in_product`].)
    pub(super) fn at_own_parameters(&self, key: &str, env: &Env, span: Span) -> Option<Result<Value<B::S>, EvalError>> {
        let args = self.own_parameters(key, env, span)?;
        Some(self.apply_defined(Application { key, primes: 0, args: &args, span }, env))
    }

    /// The parameters of the function `key` defines, as letters to apply it to: `None` unless it
    /// is a function of parameters that are plain letters, none an index or bound here.
    pub(super) fn own_parameters(&self, key: &str, env: &Env, span: Span) -> Option<Vec<Expr>> {
        let def = self.scope.defs.get(key).filter(|d| d.function && !d.params.is_empty())?;
        let letter = |param: &String| {
            let statement = crate::syntax::parse_formula(param).ok()?;
            let [chain] = statement.chains.as_slice() else { return None };
            let first =
                chain.first.clone().filter(|f| chain.links.is_empty() && matches!(f.kind, ExprKind::Symbol(_)))?;
            (!self.scope.is_index(param) && !env.contains_key(param)).then_some(Expr { span, ..first })
        };
        def.params.iter().map(letter).collect()
    }

    /// A function the notes define (`\sigma(z)=\frac{1}{1+e^{-z}}`), applied: with one argument
    /// that is a vector or matrix, entry by entry (unless the spec declares it a `vector`
    /// function); `primes` = 1 applies its derivative.
    fn apply_defined(&self, call: Application, env: &Env) -> Result<Value<B::S>, EvalError> {
        let Application { key, primes, args, span } = call;
        let def = &self.scope.defs[key];
        if args.len() != def.params.len() {
            let what = format!("`{key}` takes {} argument(s), given {}", def.params.len(), args.len());
            return Err(EvalErrorKind::Unsupported { category: NotRead::Malformed, what }.at(span));
        }
        // `E(X) = \sum_i x_i p_i`: a body that never writes its parameter depends on it through
        // letters the text ties to it in words (x_i, the values of X); at another argument
        // (`E(C_1X + C_2)`) nothing says what it is.
        let unwritten = |p: &String| !writes_key(&def.body, p);
        if let Some((param, _)) =
            def.params.iter().zip(args).find(|(p, a)| unwritten(p) && a.symbol_key().as_ref() != Some(*p))
        {
            let what = format!("`{key}` at another argument than its `{param}`: its definition never writes `{param}`, so how it depends on it is not said");
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        let values = args.iter().map(|a| self.eval(a, env)).collect::<Result<Vec<_>, _>>()?;
        // `\hat G(k) := \sum_{i=1}^k c_i` at `\hat G(2)`: a parameter given a whole number is that
        // number wherever the body counts with it (a sum's bound, an index), not a size's values.
        let mut counts = Env::new();
        for (param, arg) in def.params.iter().zip(args) {
            if let Ok(n) = self.index_value(arg, env) {
                counts.insert(param.clone(), n);
            }
        }
        // `f(\mathbf x)=\frac12\mathbf x^\top\mathbf Q\mathbf x`: a parameter written as a vector
        // takes the vector whole.
        let vector_parameter = def.params.iter().any(|p| {
            self.scope.usage.matrix_like.contains(p) || matches!(self.scope.decls.get(p), Some(Decl::Matrix { .. }))
        });
        let whole = vector_parameter || matches!(self.scope.decls.get(key), Some(Decl::Function(FunctionKind::Vector)));
        let body = |inner: &Instance<B>, bound: Vec<Value<B::S>>| -> Result<Value<B::S>, EvalError> {
            if !super::instance::enter(&inner.in_progress, key, &[]) {
                return Err(EvalErrorKind::Cyclic { key: key.to_string() }.at(span));
            }
            inner.bound.borrow_mut().push(def.params.iter().cloned().zip(bound).collect());
            let result = inner.eval(&def.body, &counts).map_err(|e| e.at(span));
            inner.bound.borrow_mut().pop();
            inner.in_progress.borrow_mut().remove(key);
            result
        };
        match (values.as_slice(), primes) {
            ([one], 0) if !whole && !one.is_scalar() => {
                let entries = one
                    .data
                    .iter()
                    .map(|a| Ok(body(self, vec![Value::scalar(a.clone())])?.as_scalar(span, key)?.clone()));
                Ok(Value { data: entries.collect::<Result<_, EvalError>>()?, ..one.clone() })
            }
            (_, 0) => body(self, values),
            ([one], 1) if !whole => {
                self.entrywise_derivative(one, span, &|inner: &Instance<B>, t: Value<B::S>| body(inner, vec![t]))
            }
            _ => Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("`{key}` with {primes} prime(s) here"),
            }
            .at(span)),
        }
    }

    /// f'(a) entry by entry: f at a fresh leaf t, differentiated by t, t replaced by each entry.
    fn entrywise_derivative(
        &self,
        at: &Value<B::S>,
        span: Span,
        f: &super::instance::OfValue<'_, B>,
    ) -> Result<Value<B::S>, EvalError> {
        let t = Value::scalar(self.leaf("derivcheck·t", &[]));
        let mut data = Vec::with_capacity(at.data.len());
        for a in &at.data {
            let actual = Value::scalar(a.clone());
            self.backend.bind(&t, &actual);
            // The leaf is made anew at each evaluation: a numeric backend moves its value.
            let recompute = || f(self, Value::scalar(self.leaf("derivcheck·t", &[])));
            let derivative = self.backend.differentiate(&recompute, &t, span)?;
            let derivative = self.backend.substitute(derivative, &t, &actual);
            data.push(derivative.as_scalar(span, "a derivative")?.clone());
        }
        Ok(Value { data, ..at.clone() })
    }

    /// |x| of a scalar, entry by entry for `\operatorname{abs}`; `|A|` of a matrix is refused
    /// (a determinant or a norm?).
    pub(super) fn absolute(&self, operand: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        let v = self.eval(operand, env)?;
        if self.scope.second_look.bars_as_determinants && v.rows == v.cols && v.rows > 1 && !v.is_free() {
            let span = operand.span;
            return Ok(Value::scalar(determinant(&v, span, &|| self.on_time(span))?));
        }
        if !(v.rows == 1 && v.cols == 1) {
            let what = format!("|·| of a {}×{} value (a determinant? a norm? write \\det or \\|·\\|)", v.rows, v.cols);
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(operand.span));
        }
        Ok(v.map(|a| B::S::elementary(Elementary::Abs, a)))
    }

    /// `\|x\|` (2-norm of a vector, Frobenius of a matrix), `\|x\|_2`, `\|A\|_F`, `\|x\|_1`.
    pub(super) fn norm(
        &self,
        operand: &Expr,
        sub: Option<&Expr>,
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        let v = self.eval(operand, env)?;
        let v = v.concrete(span, "a norm")?;
        let is_vector = v.rows == 1 || v.cols == 1;
        // `\|A\|_\textrm{F}` names the Frobenius norm as `\|A\|_F` does.
        let which = sub.map(|s| match &s.kind {
            ExprKind::Text { text } => text.trim().to_string(),
            _ => crate::syntax::print::expr(s),
        });
        let squares = || sum(&v.data.iter().map(|a| a.times(a)).collect::<Vec<_>>());
        // `\|x\|_\infty`: the largest |x_i|; `\|x\|_{-\infty}`: the smallest (the limits of the
        // p-norm as p → ±∞).
        if let (Some(largest), true) = (sub.and_then(crate::syntax::ast::infinite_limit), is_vector) {
            let magnitudes: Vec<B::S> = v.data.iter().map(|a| B::S::elementary(Elementary::Abs, a)).collect();
            let (first, rest) = magnitudes.split_first().ok_or_else(|| {
                EvalErrorKind::Unsupported { category: NotRead::Outside, what: "the norm of an empty vector".into() }
                    .at(span)
            })?;
            return Ok(Value::scalar(rest.iter().fold(first.clone(), |m, a| super::algebra::extremum(&m, a, largest))));
        }
        let kind = match which.as_deref() {
            None => "2",
            Some("2") if is_vector => "2",
            Some("F") | Some("\\mathrm{F}") => "2",
            Some("1") if is_vector => "1",
            // `\|\mathbf x\|_p`: (Σ|x_i|^p)^{1/p}, for a number p the claim leaves free (or gives).
            // (`\|x\|_A` of a matrix A, sqrt(x^T A x) as weighted norms write it: a capital, or a
            // letter written as a matrix, is no p.)
            Some(_)
                if is_vector
                    && !matches!(sub.map(|s| &s.kind), Some(ExprKind::Text { .. }))
                    && !sub.is_some_and(|s| self.names_a_matrix(s)) =>
            {
                let p = sub.and_then(|s| self.eval(s, env).ok());
                if let Some(p) = p.as_ref().filter(|p| p.is_scalar()).map(|p| p.data[0].clone()) {
                    let powers: Vec<B::S> =
                        v.data.iter().map(|a| B::S::elementary(Elementary::Abs, a).power(&p)).collect();
                    return Ok(Value::scalar(sum(&powers).power(&B::S::int(1).over(&p))));
                }
                "unread"
            }
            Some(_) => "unread",
        };
        if kind == "unread" {
            let written = sub.map(|s| crate::syntax::print::explicit_tex(s, &|_| false)).unwrap_or_default();
            let what = format!("the norm ‖·‖_{{{written}}} of a {}×{} value", v.rows, v.cols);
            return Err(EvalErrorKind::Unsupported { category: NotRead::Outside, what }.at(span));
        }
        Ok(Value::scalar(match kind {
            "1" => sum(&v.data.iter().map(|a| B::S::elementary(Elementary::Abs, a)).collect::<Vec<_>>()),
            _ => squares().power(&B::S::ratio(1, 2)),
        }))
    }

    /// A matrix written out. Between bars (`\begin{vmatrix} a & b \\ c & d \end{vmatrix}`), its
    /// determinant, as every text means it; bars around one entry (`\begin{vmatrix} \det(B)
    /// \end{vmatrix}`) are refused: its absolute value (as |·| writes it), or the determinant of a
    /// 1×1 matrix?
    pub(super) fn written_matrix(
        &self,
        name: &str,
        rows: &[Vec<Option<crate::syntax::ast::Statement>>],
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        if matches!(name, "vmatrix" | "Vmatrix") && rows.len() == 1 && rows[0].len() == 1 {
            let what = "bars around one entry (`vmatrix`): its absolute value, or the determinant of a 1×1 matrix? (write |·| or \\det)".to_string();
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        let value = self.matrix_literal(rows, span, env)?;
        if name == "vmatrix" {
            if value.rows != value.cols || value.is_free() {
                let what = "bars around a matrix that is not square (`vmatrix`): a determinant of what?".to_string();
                return Err(EvalErrorKind::Unsupported { category: NotRead::Malformed, what }.at(span));
            }
            return Ok(Value::scalar(determinant(&value, span, &|| self.on_time(span))?));
        }
        Ok(value)
    }

    /// A capital letter, or a letter the section writes or declares as a vector or matrix.
    fn names_a_matrix(&self, e: &Expr) -> bool {
        let Some(key) = e.symbol_key() else { return false };
        let capital = matches!(&e.kind, ExprKind::Symbol(s) if s.name.chars().next().is_some_and(char::is_uppercase));
        capital
            || self.scope.usage.matrix_like.contains(&key)
            || matches!(self.scope.decls.get(&key), Some(Decl::Matrix { .. } | Decl::Identity { .. }))
    }

    /// `\langle a, b\rangle`: Σ a_r b_r over two values with the same number of entries.
    pub(super) fn inner_product(&self, inner: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let ExprKind::Tuple { items, .. } = &inner.kind else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: "⟨·⟩ without two arguments".into(),
            }
            .at(span));
        };
        let [a, b] = items.as_slice() else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("⟨·⟩ with {} arguments", items.len()),
            }
            .at(span));
        };
        let (a, b) = (self.eval(a, env)?, self.eval(b, env)?);
        let same = a.shape() == b.shape()
            || ((a.rows == 1 || a.cols == 1) && (b.rows == 1 || b.cols == 1) && a.data.len() == b.data.len());
        if !same || a.is_free() || b.is_free() {
            return Err(EvalErrorKind::ShapeMismatch {
                op: "an inner product".into(),
                left: a.shape(),
                right: b.shape(),
            }
            .at(span));
        }
        Ok(Value::scalar(a.data.iter().zip(&b.data).fold(B::S::int(0), |acc, (x, y)| acc.plus(&x.times(y)))))
    }

    /// `\mathbf 1_{j=y}` (between indices: 0 or 1), `\mathbf 1_{a>0}`, `\mathbb 1[a>0]` (of real
    /// values: the step function, entry by entry).
    pub(super) fn indicator(&self, condition: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        let ExprKind::Relation { chain } = &condition.kind else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: "an indicator without a condition".into(),
            }
            .at(condition.span));
        };
        if let Ok(holds) = self.condition_holds(chain, env) {
            return Ok(Value::scalar(B::S::int(i64::from(holds))));
        }
        let (Some(left), [link]) = (&chain.first, chain.links.as_slice()) else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: "an indicator of a chained condition".into(),
            }
            .at(condition.span));
        };
        let (a, b) = (self.eval(left, env)?, self.eval(&link.rhs, env)?);
        let difference = match link.op {
            RelOp::Gt | RelOp::Ge => a.add_like(&b, "a condition", condition.span, |x, y| x.minus(y))?,
            RelOp::Lt | RelOp::Le => b.add_like(&a, "a condition", condition.span, |x, y| x.minus(y))?,
            _ => {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Outside,
                    what: "an indicator of an equation between real values".into(),
                }
                .at(condition.span))
            }
        };
        // 1_{d>0} = (1 + d/|d|)/2, exact wherever d ≠ 0 (the boundary has measure zero).
        Ok(difference
            .map(|d| B::S::int(1).plus(&d.over(&B::S::elementary(Elementary::Abs, d))).times(&B::S::ratio(1, 2))))
    }
}

/// Does `e` write the letter `key` anywhere (`x` in `x^2`, `\mathbf x` in `\mathbf x^\top \mathbf x`)?
fn writes_key(e: &Expr, key: &str) -> bool {
    e.symbol_key().is_some_and(|k| k == key) || e.children().any(|c| writes_key(c, key))
}

#[cfg(test)]
mod tests {
    use super::super::algebra::{inverse, MAX_DETERMINANT_SIZE};
    use super::*;

    /// Floats for these tests (eval may not use the later numeric stage); the entries are small
    /// integers, so every product and sum here is exact.
    #[derive(Clone, Debug, PartialEq)]
    struct Float(f64);

    impl Scalar for Float {
        fn int(n: i64) -> Self {
            Float(n as f64)
        }
        fn ratio(numerator: i64, denominator: i64) -> Self {
            Float(numerator as f64 / denominator as f64)
        }
        fn euler() -> Self {
            Float(std::f64::consts::E)
        }
        fn pi() -> Self {
            Float(std::f64::consts::PI)
        }
        fn plus(&self, o: &Self) -> Self {
            Float(self.0 + o.0)
        }
        fn minus(&self, o: &Self) -> Self {
            Float(self.0 - o.0)
        }
        fn times(&self, o: &Self) -> Self {
            Float(self.0 * o.0)
        }
        fn over(&self, o: &Self) -> Self {
            Float(self.0 / o.0)
        }
        fn negate(&self) -> Self {
            Float(-self.0)
        }
        fn power(&self, e: &Self) -> Self {
            Float(self.0.powf(e.0))
        }
        fn elementary(_: Elementary, x: &Self) -> Self {
            x.clone()
        }
        fn size(&self) -> usize {
            8
        }
    }

    fn matrix(n: usize, entries: &[f64]) -> Value<Float> {
        Value::matrix(n, n, entries.iter().map(|&v| Float(v)).collect())
    }

    fn det(m: &Value<Float>) -> Result<f64, EvalError> {
        determinant(m, Span::new(0, 0), &|| Ok(())).map(|d| d.0)
    }
    #[test]
    fn determinants_expand_by_shared_minors() {
        assert_eq!(det(&matrix(1, &[7.0])).unwrap(), 7.0);
        assert_eq!(det(&matrix(2, &[1.0, 2.0, 3.0, 4.0])).unwrap(), -2.0);
        assert_eq!(det(&matrix(3, &[2.0, 0.0, 1.0, 1.0, 3.0, 2.0, 1.0, 1.0, 2.0])).unwrap(), 6.0);
        // Swapping two rows changes the sign; a repeated row makes it zero.
        assert_eq!(det(&matrix(3, &[1.0, 3.0, 2.0, 2.0, 0.0, 1.0, 1.0, 1.0, 2.0])).unwrap(), -6.0);
        assert_eq!(det(&matrix(3, &[1.0, 2.0, 3.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0])).unwrap(), 0.0);
        // A triangular 12×12 matrix (12! terms by plain expansion): the product of its diagonal.
        let n = 12;
        let entries: Vec<f64> = (0..n * n).map(|k| if k % n >= k / n { (k % 7 + 1) as f64 } else { 0.0 }).collect();
        let diagonal: f64 = (0..n).map(|i| entries[i * n + i]).product();
        assert_eq!(det(&matrix(n, &entries)).unwrap(), diagonal);
    }

    #[test]
    fn a_determinant_past_the_size_limit_or_the_deadline_is_a_budget_error() {
        let n = MAX_DETERMINANT_SIZE + 1;
        assert!(matches!(
            det(&matrix(n, &vec![1.0; n * n])),
            Err(EvalError { kind: EvalErrorKind::Budget { .. }, .. })
        ));
        let late = || Err(EvalErrorKind::Budget { what: "time".into() }.at(Span::new(0, 0)));
        assert!(determinant(&matrix(2, &[1.0; 4]), Span::new(0, 0), &late).is_err());
        assert!(inverse(&matrix(2, &[1.0; 4]), Span::new(0, 0), &late).is_err());
        let inverted = inverse(&matrix(2, &[2.0, 1.0, 1.0, 1.0]), Span::new(0, 0), &|| Ok(())).unwrap();
        assert_eq!(inverted.data, [1.0, -1.0, -1.0, 2.0].map(Float));
    }
}
