//! Functions: the built-in ones (ln, exp, sin, cos, mean, sum, det, row softmax with or without
//! a mask), functions the notes define component-wise (`\operatorname{LN}(x)_r = …`), and the
//! spec's generic functions (σ and σ' entry-wise, F on vectors, the rotation R(θ)).

use super::instance::{Env, Instance};
use super::scalar::{Backend, Elementary, Scalar};
use super::scope::{Decl, FunctionKind};
use super::value::Value;
use super::EvalError;
use crate::syntax::ast::{Expr, ExprKind, Function, Span};

/// The key a component-wise definition of a function at an argument gets: `\operatorname{LN}(x)`.
pub fn applied_key(name: &str, arg: &Expr) -> Option<String> {
    Some(format!("\\operatorname{{{name}}}({})", arg.symbol_key()?))
}

impl<B: Backend> Instance<'_, B> {
    pub(super) fn apply(&self, func: &Function, args: &[Expr], span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let [arg] = args else {
            return Err(EvalError::Unsupported { what: format!("{} with {} arguments", func.name, args.len()), span });
        };
        if func.sup.is_some() {
            return Err(EvalError::Unsupported { what: format!("a power of {}", func.name), span });
        }
        if let Some(key) = applied_key(&func.name, arg).filter(|k| self.scope.defs.contains_key(k)) {
            return self.named(&key, arg, env);
        }
        let value = self.eval(arg, env)?;
        match (func.name.as_str(), &func.sub) {
            ("softmax", None) => Ok(self.softmax(&value, None)),
            ("softmax", Some(set)) => {
                let key = set.symbol_key().unwrap_or_default();
                let kind = self.set_kind(&key, set.span)?.to_string();
                Ok(self.softmax(&value, Some(kind.as_str())))
            }
            (name, None) => self.plain_function(name, value, span),
            (name, Some(_)) => Err(EvalError::Unsupported { what: format!("the function `{name}` with a subscript"), span }),
        }
    }

    fn plain_function(&self, name: &str, value: Value<B::S>, span: Span) -> Result<Value<B::S>, EvalError> {
        let builtin = |f: Elementary| value.map(|a| B::S::elementary(f, a));
        match name {
            "ln" | "log" => Ok(builtin(Elementary::Log)),
            "exp" => Ok(builtin(Elementary::Exp)),
            "sin" => Ok(builtin(Elementary::Sin)),
            "cos" => Ok(builtin(Elementary::Cos)),
            "mean" => Ok(Value::scalar(sum(&value.data).over(&B::S::int(value.data.len() as i64)))),
            "sum" => Ok(Value::scalar(sum(&value.data))),
            "det" if value.rows == value.cols => Ok(Value::scalar(determinant(&value))),
            "shape" => Ok(Value::matrix(1, 2, vec![B::S::int(value.rows as i64), B::S::int(value.cols as i64)])),
            _ => Err(EvalError::Unsupported { what: format!("the function `{name}`"), span }),
        }
    }

    /// Row-wise softmax; with a `causal` mask row i uses only columns 1..=i (the rest are 0).
    fn softmax(&self, s: &Value<B::S>, mask: Option<&str>) -> Value<B::S> {
        let allowed = |i: usize, j: usize| mask != Some("causal") || j <= i;
        let shifts: Vec<B::S> = (0..s.rows)
            .map(|i| B::S::softmax_shift(&(0..s.cols).filter(|&r| allowed(i, r)).map(|r| s.at(i, r).clone()).collect::<Vec<_>>()))
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

    /// `F(x)`, `\sigma'(B)`, `R(\theta)` for declared functions; otherwise a product (`x(1-x)`).
    pub(super) fn call(&self, func: &Expr, args: &[Expr], span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let (head, primes) = match &func.kind {
            ExprKind::Prime { operand } => (operand.as_ref(), 1),
            _ => (func, 0),
        };
        let key = head.symbol_key().unwrap_or_default();
        let Some(Decl::Function(kind)) = self.scope.decls.get(&key) else {
            if primes > 0 {
                return Err(EvalError::Unsupported { what: format!("`{key}'` (declare `{key}` as a function in the spec)"), span });
            }
            let [one] = args else {
                return Err(EvalError::Unsupported { what: format!("`{key}(…)` with {} arguments", args.len()), span });
            };
            return self.eval(func, env)?.matmul(&self.eval(one, env)?, span);
        };
        let [arg] = args else {
            return Err(EvalError::Unsupported { what: format!("`{key}` with {} arguments", args.len()), span });
        };
        let x = self.eval(arg, env)?;
        match kind {
            FunctionKind::Elementwise => Ok(x.map(|a| self.backend.generic(&key, None, std::slice::from_ref(a), primes))),
            FunctionKind::Vector => Ok(x.map_indexed(|i| self.backend.generic(&key, Some(i as i64 + 1), &x.data, 0))),
            FunctionKind::Rotation => Ok(rotation(x.as_scalar(arg.span, "a rotation angle")?)),
        }
    }
}

fn sum<S: Scalar>(xs: &[S]) -> S {
    xs.iter().fold(S::int(0), |acc, a| acc.plus(a))
}

/// Laplace expansion along the first row (the matrices here are tiny).
fn determinant<S: Scalar>(m: &Value<S>) -> S {
    if m.rows == 1 {
        return m.data[0].clone();
    }
    (0..m.cols).fold(S::int(0), |acc, j| {
        let minor = Value::from_fn(m.rows - 1, m.cols - 1, |i, k| m.at(i + 1, if k < j { k } else { k + 1 }).clone());
        let term = m.at(0, j).times(&determinant(&minor));
        if j % 2 == 0 { acc.plus(&term) } else { acc.minus(&term) }
    })
}

/// [[cos θ, −sin θ], [sin θ, cos θ]].
fn rotation<S: Scalar>(theta: &S) -> Value<S> {
    let (c, s) = (S::elementary(Elementary::Cos, theta), S::elementary(Elementary::Sin, theta));
    Value::matrix(2, 2, vec![c.clone(), s.negate(), s, c])
}

impl<S: Scalar> Value<S> {
    fn map_indexed(&self, f: impl Fn(usize) -> S) -> Value<S> {
        Value::matrix(self.rows, self.cols, (0..self.data.len()).map(f).collect())
    }
}
