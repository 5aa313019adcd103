//! Functions: the built-in ones (ln, exp, sin, cos, mean, sum, det, row softmax with or without
//! a mask), functions the notes define component-wise (`\operatorname{LN}(x)_r = …`), and the
//! spec's generic functions (σ and σ' entry-wise, F on vectors, the rotation R(θ)).

use super::instantiate::{sanitize, Env, Instance};
use super::scope::{Decl, FunctionKind};
use super::value::Value;
use super::EvalError;
use crate::syntax::ast::{Expr, ExprKind, Function, Span};
use symbolica::prelude::*;

/// The key a component-wise definition of a function at an argument gets: `\operatorname{LN}(x)`.
pub fn applied_key(name: &str, arg: &Expr) -> Option<String> {
    Some(format!("\\operatorname{{{name}}}({})", arg.symbol_key()?))
}

impl Instance<'_> {
    pub(super) fn apply(&self, func: &Function, args: &[Expr], span: Span, env: &Env) -> Result<Value, EvalError> {
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

    fn plain_function(&self, name: &str, value: Value, span: Span) -> Result<Value, EvalError> {
        let builtin = |f: Symbol| value.map(|a| FunctionBuilder::new(f).add_arg(a).finish());
        match name {
            "ln" | "log" => Ok(builtin(Symbol::LOG)),
            "exp" => Ok(builtin(Symbol::EXP)),
            "sin" => Ok(builtin(Symbol::SIN)),
            "cos" => Ok(builtin(Symbol::COS)),
            "mean" => Ok(Value::scalar(sum(&value.data) / Atom::num(value.data.len() as i64))),
            "sum" => Ok(Value::scalar(sum(&value.data))),
            "det" if value.rows == value.cols => Ok(Value::scalar(determinant(&value))),
            "shape" => Ok(Value::matrix(1, 2, vec![Atom::num(value.rows as i64), Atom::num(value.cols as i64)])),
            _ => Err(EvalError::Unsupported { what: format!("the function `{name}`"), span }),
        }
    }

    /// Row-wise softmax; with a `causal` mask row i uses only columns 1..=i (the rest are 0).
    fn softmax(&self, s: &Value, mask: Option<&str>) -> Value {
        let allowed = |i: usize, j: usize| mask != Some("causal") || j <= i;
        let exp = |a: &Atom| FunctionBuilder::new(Symbol::EXP).add_arg(a).finish();
        Value::from_fn(s.rows, s.cols, |i, j| {
            if !allowed(i, j) {
                return Atom::num(0);
            }
            let denominator = (0..s.cols).filter(|&r| allowed(i, r)).fold(Atom::num(0), |acc, r| acc + exp(s.at(i, r)));
            exp(s.at(i, j)) / denominator
        })
    }

    /// `F(x)`, `\sigma'(B)`, `R(\theta)` for declared functions; otherwise a product (`x(1-x)`).
    pub(super) fn call(&self, func: &Expr, args: &[Expr], span: Span, env: &Env) -> Result<Value, EvalError> {
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
            FunctionKind::Elementwise => Ok(x.map(|a| generic_scalar_function(&key, a, primes))),
            FunctionKind::Vector => Ok(generic_vector_function(&key, &x)),
            FunctionKind::Rotation => Ok(rotation(x.as_scalar(arg.span, "a rotation angle")?)),
        }
    }
}

fn sum(atoms: &[Atom]) -> Atom {
    atoms.iter().fold(Atom::num(0), |acc, a| acc + a)
}

/// Laplace expansion along the first row (the matrices here are tiny).
fn determinant(m: &Value) -> Atom {
    if m.rows == 1 {
        return m.data[0].clone();
    }
    (0..m.cols).fold(Atom::num(0), |acc, j| {
        let minor = Value::from_fn(m.rows - 1, m.cols - 1, |i, k| m.at(i + 1, if k < j { k } else { k + 1 }).clone());
        let sign = if j % 2 == 0 { Atom::num(1) } else { Atom::num(-1) };
        acc + sign * m.at(0, j) * determinant(&minor)
    })
}

/// [[cos θ, −sin θ], [sin θ, cos θ]].
fn rotation(theta: &Atom) -> Value {
    let f = |s: Symbol| FunctionBuilder::new(s).add_arg(theta).finish();
    let (c, s) = (f(Symbol::COS), f(Symbol::SIN));
    Value::matrix(2, 2, vec![c.clone(), -s.clone(), s, c])
}

/// σ(a), or σ'(a) as Symbolica's derivative of σ at a.
fn generic_scalar_function(key: &str, a: &Atom, primes: usize) -> Atom {
    let f = symbol!(sanitize(key).as_str());
    if primes == 0 {
        return FunctionBuilder::new(f).add_arg(a).finish();
    }
    let t = symbol!("derivcheck_tmp_t");
    let mut d = FunctionBuilder::new(f).add_arg(Atom::var(t)).finish();
    for _ in 0..primes {
        d = d.derivative(t);
    }
    d.replace(Atom::var(t).to_pattern()).with(a.to_pattern())
}

/// F(x) for a vector x: entry i is F(i, x_1, …, x_n), a generic function of all inputs.
fn generic_vector_function(key: &str, x: &Value) -> Value {
    let f = symbol!(sanitize(key).as_str());
    let data = (0..x.data.len())
        .map(|i| {
            let mut b = FunctionBuilder::new(f).add_arg(Atom::num(i as i64 + 1));
            for a in &x.data {
                b = b.add_arg(a);
            }
            b.finish()
        })
        .collect();
    Value::matrix(x.rows, x.cols, data)
}
