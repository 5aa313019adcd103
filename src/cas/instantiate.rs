//! Syntax trees to Symbolica values at one concrete size and index assignment.
//!
//! Definitions are expanded where they are used (a definition's parameters are bound to the
//! indices it is used with); undeclared symbols become leaf variables (`s_r` at r = 2 is the
//! variable `s_2`); declared matrices become matrices of leaf variables. A definition named
//! `opaque` is not expanded but stays a leaf: that is how an adjoint ∂L/∂Y treats Y as a leaf.

use super::scope::{Decl, FunctionKind, Scope};
use super::value::Value;
use super::EvalError;
use crate::syntax::ast::{BinOp, BigOpKind, Expr, ExprKind, RelOp, Span, Symbol as TexSymbol};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::time::Instant;
use symbolica::prelude::*;

/// Index letters bound to values.
pub type Env = BTreeMap<String, i64>;

/// Limits on one claim's work: evaluation steps, expression size and wall time.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub max_steps: usize,
    pub max_bytes: usize,
    pub deadline: Instant,
}

pub struct Instance<'a> {
    scope: &'a Scope,
    sizes: &'a BTreeMap<String, i64>,
    opaque: Option<&'a str>,
    budget: Budget,
    steps: Cell<usize>,
    cache: RefCell<HashMap<(String, Env), Value>>,
    in_progress: RefCell<HashSet<String>>,
    /// Symbolica variable name -> how the notes write it, for counterexamples.
    pub names: RefCell<BTreeMap<String, String>>,
}

impl<'a> Instance<'a> {
    pub fn new(scope: &'a Scope, sizes: &'a BTreeMap<String, i64>, opaque: Option<&'a str>, budget: Budget) -> Self {
        Instance {
            scope,
            sizes,
            opaque,
            budget,
            steps: Cell::new(0),
            cache: RefCell::new(HashMap::new()),
            in_progress: RefCell::new(HashSet::new()),
            names: RefCell::new(BTreeMap::new()),
        }
    }

    pub fn eval(&self, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        self.tick(e.span)?;
        match &e.kind {
            ExprKind::Number { value } => Ok(Value::scalar(decimal(value, e.span)?)),
            ExprKind::Symbol(sym) => self.symbol(sym, e, env),
            ExprKind::Subscript { base, index } => self.subscript(e, base, index, env),
            ExprKind::Neg { operand } => Ok(self.eval(operand, env)?.map(|a| -a)),
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.span, env),
            ExprKind::Frac { num, den } => self.quotient(num, den, e.span, env),
            ExprKind::Sqrt { index: None, radicand } => {
                let r = self.eval(radicand, env)?;
                Ok(Value::scalar(r.as_scalar(radicand.span, "a square root's argument")?.pow(Atom::num(1) / Atom::num(2))))
            }
            ExprKind::Power { base, exponent } => self.power(base, exponent, e.span, env),
            ExprKind::Transpose { operand } => Ok(self.eval(operand, env)?.transpose()),
            ExprKind::BigOp { op, lower, upper, body: Some(body) } => self.big_op(op, lower.as_deref(), upper.as_deref(), body, e.span, env),
            ExprKind::Apply { func, args, .. } if func.sub.is_none() && func.sup.is_none() => {
                self.named_function(&func.name, args, e.span, env)
            }
            ExprKind::Call { func, args } => self.call(func, args, e.span, env),
            ExprKind::Fenced { inner: Some(inner), open, .. } if open != "\\{" => self.eval(inner, env),
            ExprKind::Tuple { items } => {
                let entries = items.iter().map(|i| self.scalar(i, env)).collect::<Result<Vec<_>, _>>()?;
                Ok(Value::matrix(1, entries.len(), entries))
            }
            ExprKind::Matrix { env: name, rows } if name.ends_with("matrix") => self.matrix_literal(rows, e.span, env),
            _ => Err(unsupported(e)),
        }
    }

    fn tick(&self, span: Span) -> Result<(), EvalError> {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if n > self.budget.max_steps {
            return Err(EvalError::Budget { what: format!("more than {} evaluation steps", self.budget.max_steps), span });
        }
        if n % 256 == 0 && Instant::now() > self.budget.deadline {
            return Err(EvalError::Budget { what: "time limit for this claim".into(), span });
        }
        Ok(())
    }

    fn scalar(&self, e: &Expr, env: &Env) -> Result<Atom, EvalError> {
        Ok(self.eval(e, env)?.as_scalar(e.span, "this")?.clone())
    }

    // ------------------------------------------------------------------ symbols and indices

    fn symbol(&self, sym: &TexSymbol, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        let key = sym.to_string();
        if sym.name == "1" && sym.style.is_some() {
            return Ok(Value::broadcast_scalar(Atom::num(1)));
        }
        self.named(&key, e, env)
    }

    /// A symbol (or name-like subscripted symbol such as `W_Q`) by its key.
    fn named(&self, key: &str, e: &Expr, env: &Env) -> Result<Value, EvalError> {
        if let Some(v) = env.get(key).or_else(|| self.sizes.get(key)) {
            return Ok(Value::scalar(Atom::num(*v)));
        }
        if self.opaque == Some(key) {
            return self.opaque_leaf(key, e.span);
        }
        if let Some(def) = self.scope.defs.get(key) {
            if def.params.is_empty() {
                return self.definition(key, &[], env, e.span);
            }
        }
        match self.scope.decls.get(key) {
            Some(Decl::Matrix { rows, cols }) => {
                let (r, c) = (self.size_of(rows, e.span)?, self.size_of(cols, e.span)?);
                Ok(Value::from_fn(r, c, |i, j| self.leaf(key, &leaf_indices(r, c, i, j))))
            }
            Some(Decl::Identity { n }) => {
                let n = self.size_of(n, e.span)?;
                Ok(Value::from_fn(n, n, |i, j| Atom::num(i64::from(i == j))))
            }
            Some(Decl::Index { .. }) => Err(EvalError::UnboundIndex { name: key.to_string(), span: e.span }),
            Some(Decl::Function(_)) | Some(Decl::Set { .. }) => Err(EvalError::Unsupported { what: format!("`{key}` without an argument"), span: e.span }),
            None if key == "e" => Ok(Value::scalar(Atom::var(Symbol::E))),
            None => Ok(Value::scalar(self.leaf(key, &[]))),
        }
    }

    fn size_of(&self, name: &str, span: Span) -> Result<usize, EvalError> {
        let v = name.parse::<i64>().ok().or_else(|| self.sizes.get(name).copied());
        v.and_then(|v| usize::try_from(v).ok())
            .ok_or_else(|| EvalError::Unsupported { what: format!("size `{name}` has no value (declare it in the spec's sizes)"), span })
    }

    /// The leaf variable for `key` at the given (1-based) indices.
    pub fn leaf(&self, key: &str, indices: &[i64]) -> Atom {
        let mut name = sanitize(key);
        let mut shown = key.to_string();
        if !indices.is_empty() {
            let list: Vec<String> = indices.iter().map(i64::to_string).collect();
            name = format!("{name}_{}", list.join("_"));
            shown = format!("{key}_{{{}}}", list.join(","));
        }
        self.names.borrow_mut().insert(name.clone(), shown);
        Atom::var(symbol!(name.as_str()))
    }

    fn opaque_leaf(&self, key: &str, span: Span) -> Result<Value, EvalError> {
        let shape = Instance::new(self.scope, self.sizes, None, self.budget).definition(key, &[], &Env::new(), span)?;
        let leaf_key = format!("{key}°");
        Ok(Value::from_fn(shape.rows, shape.cols, |i, j| self.leaf(&leaf_key, &leaf_indices(shape.rows, shape.cols, i, j))))
    }

    /// The value of a definition at parameter values, expanded once and cached. Indices the
    /// definition uses without declaring them as parameters (`y` in `L=-\ln p_y`) keep the value
    /// they have where it is used.
    fn definition(&self, key: &str, args: &[i64], outer: &Env, span: Span) -> Result<Value, EvalError> {
        let def = &self.scope.defs[key];
        let mut env = outer.clone();
        env.extend(def.params.iter().cloned().zip(args.iter().copied()));
        let cache_key = (key.to_string(), env.clone());
        if let Some(v) = self.cache.borrow().get(&cache_key) {
            return Ok(v.clone());
        }
        if !self.in_progress.borrow_mut().insert(key.to_string()) {
            return Err(EvalError::Cyclic { key: key.to_string(), span });
        }
        let result = self.eval(&def.body, &env);
        self.in_progress.borrow_mut().remove(key);
        let value = result?;
        if value.size_hint() > self.budget.max_bytes {
            return Err(EvalError::Budget { what: format!("`{key}` expands beyond {} bytes", self.budget.max_bytes), span });
        }
        self.cache.borrow_mut().insert(cache_key, value.clone());
        Ok(value)
    }

    fn subscript(&self, e: &Expr, base: &Expr, index: &Expr, env: &Env) -> Result<Value, EvalError> {
        if let Some(key) = e.symbol_key() {
            if env.contains_key(&key) || self.sizes.contains_key(&key) || self.scope.knows(&key) || self.opaque == Some(key.as_str()) {
                return self.named(&key, e, env);
            }
        }
        if let (ExprKind::Symbol(s), ExprKind::Relation { chain }) = (&base.kind, &index.kind) {
            if s.name == "1" && s.style.is_some() {
                return self.indicator(chain, e.span, env);
            }
        }
        let indices = self.indices(index, env)?;
        let base_key = base.symbol_key();
        if let Some(key) = &base_key {
            if self.opaque != Some(key.as_str()) {
                if let Some(def) = self.scope.defs.get(key).filter(|d| !d.params.is_empty()) {
                    if def.params.len() == indices.len() {
                        return self.definition(key, &indices, env, e.span);
                    }
                }
            }
            let known = self.scope.knows(key) || self.opaque == Some(key.as_str());
            if !known && key != "e" {
                return Ok(Value::scalar(self.leaf(key, &indices)));
            }
        }
        let value = self.eval(base, env)?;
        component(&value, &indices, e.span)
    }

    /// `ir` -> [i, r]; `2` -> [2]; `i+1` -> [i+1].
    fn indices(&self, index: &Expr, env: &Env) -> Result<Vec<i64>, EvalError> {
        match &index.kind {
            ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
                let mut out = self.indices(lhs, env)?;
                out.extend(self.indices(rhs, env)?);
                Ok(out)
            }
            ExprKind::Tuple { items } => items.iter().map(|i| self.integer(i, env)).collect(),
            _ => Ok(vec![self.integer(index, env)?]),
        }
    }

    /// An integer-valued index expression: a number, a bound index, a size, sums of these.
    fn integer(&self, e: &Expr, env: &Env) -> Result<i64, EvalError> {
        match &e.kind {
            ExprKind::Number { value } => value.parse().map_err(|_| unsupported(e)),
            ExprKind::Symbol(s) => {
                let key = s.to_string();
                env.get(&key).or_else(|| self.sizes.get(&key)).copied().ok_or(EvalError::UnboundIndex { name: key, span: e.span })
            }
            ExprKind::Binary { op: BinOp::Add, lhs, rhs } => Ok(self.integer(lhs, env)? + self.integer(rhs, env)?),
            ExprKind::Binary { op: BinOp::Sub, lhs, rhs } => Ok(self.integer(lhs, env)? - self.integer(rhs, env)?),
            ExprKind::Fenced { inner: Some(inner), .. } => self.integer(inner, env),
            _ => Err(unsupported(e)),
        }
    }

    fn indicator(&self, chain: &crate::syntax::ast::Chain, span: Span, env: &Env) -> Result<Value, EvalError> {
        let holds = self.condition_holds(chain, env)?;
        let _ = span;
        Ok(Value::scalar(Atom::num(i64::from(holds))))
    }

    /// Whether a relation between indices (`k \ne j`, `j=y`) holds under `env`.
    pub fn condition_holds(&self, chain: &crate::syntax::ast::Chain, env: &Env) -> Result<bool, EvalError> {
        let first = chain.first.as_ref().ok_or(EvalError::Unsupported { what: "a condition without a left side".into(), span: chain.span })?;
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
                _ => return Err(EvalError::Unsupported { what: "this relation in a condition".into(), span: chain.span }),
            };
            if !ok {
                return Ok(false);
            }
            left = right;
        }
        Ok(true)
    }

    // ------------------------------------------------------------------ operators

    fn binary(&self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span, env: &Env) -> Result<Value, EvalError> {
        if op == BinOp::Div {
            return self.quotient(lhs, rhs, span, env);
        }
        let (a, b) = (self.eval(lhs, env)?, self.eval(rhs, env)?);
        match op {
            BinOp::Add => a.zip(&b, "a sum", span, false, |x, y| x + y),
            BinOp::Sub => a.zip(&b, "a difference", span, false, |x, y| x - y),
            BinOp::Implicit | BinOp::Cdot => a.matmul(&b, span),
            BinOp::Hadamard => a.zip(&b, "an entry-wise product", span, false, |x, y| x * y),
            _ => Err(EvalError::Unsupported { what: format!("the operator {op:?}"), span }),
        }
    }

    /// `a/b`, `\frac{a}{b}`, or a derivative when both are `\partial`.
    fn quotient(&self, num: &Expr, den: &Expr, _span: Span, env: &Env) -> Result<Value, EvalError> {
        if let (ExprKind::Partial { order: None, operand: Some(of) }, ExprKind::Partial { order: None, operand: Some(wrt) }) = (&num.kind, &den.kind) {
            return self.derivative(of, wrt, env);
        }
        let (a, b) = (self.eval(num, env)?, self.eval(den, env)?);
        let b = b.as_scalar(den.span, "a denominator")?.clone();
        Ok(a.map(|x| x / &b))
    }

    /// ∂of/∂wrt: a derivative, gradient (scalar by matrix) or Jacobian (vector by vector).
    pub fn derivative(&self, of: &Expr, wrt: &Expr, env: &Env) -> Result<Value, EvalError> {
        let f = self.eval(of, env)?;
        let x = self.eval(wrt, env)?;
        let vars = x
            .data
            .iter()
            .map(|a| match a.as_view() {
                AtomView::Var(v) => Ok(v.get_symbol()),
                _ => Err(EvalError::NotALeaf { what: a.to_string(), span: wrt.span }),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if f.is_scalar() {
            let fa = &f.data[0];
            return Ok(Value::matrix(x.rows, x.cols, vars.iter().map(|v| fa.derivative(*v)).collect()));
        }
        let is_vector = |v: &Value| v.rows == 1 || v.cols == 1;
        if is_vector(&f) && is_vector(&x) {
            let n = f.data.len();
            return Ok(Value::from_fn(n, vars.len(), |i, j| f.data[i].derivative(vars[j])));
        }
        Err(EvalError::Unsupported { what: format!("the derivative of a {}×{} matrix by a {}×{} one", f.rows, f.cols, x.rows, x.cols), span: of.span })
    }

    fn power(&self, base: &Expr, exponent: &Expr, span: Span, env: &Env) -> Result<Value, EvalError> {
        let exp = self.scalar(exponent, env)?;
        let b = self.eval(base, env)?;
        let b = b.as_scalar(base.span, "a power's base")?;
        let _ = span;
        Ok(Value::scalar(b.pow(&exp)))
    }

    fn big_op(&self, op: &BigOpKind, lower: Option<&Expr>, upper: Option<&Expr>, body: &Expr, span: Span, env: &Env) -> Result<Value, EvalError> {
        if !matches!(op, BigOpKind::Sum | BigOpKind::Prod) {
            return Err(EvalError::Unsupported { what: format!("\\{}", op.name()), span });
        }
        let lower = lower.ok_or(EvalError::Unsupported { what: "a sum without an index".into(), span })?;
        let assignments = self.summation_range(lower, upper, env)?;
        let mut acc: Option<Value> = None;
        for inner_env in assignments {
            let term = self.eval(body, &inner_env)?;
            acc = Some(match acc {
                None => term,
                Some(a) if *op == BigOpKind::Sum => a.zip(&term, "a sum", span, false, |x, y| x + y)?,
                Some(a) => a.zip(&term, "a product", span, false, |x, y| x * y)?,
            });
        }
        Ok(acc.unwrap_or_else(|| Value::scalar(Atom::num(i64::from(*op == BigOpKind::Prod)))))
    }

    /// The environments a sum runs over: `\sum_r` (r's range), `\sum_{ir}` (both), `\sum_{r\in J_i}`,
    /// `\sum_{i=1}^n`.
    fn summation_range(&self, lower: &Expr, upper: Option<&Expr>, env: &Env) -> Result<Vec<Env>, EvalError> {
        let extend = |envs: Vec<Env>, name: &str, values: Vec<i64>| -> Vec<Env> {
            envs.into_iter()
                .flat_map(|e| values.iter().map(move |v| {
                    let mut e = e.clone();
                    e.insert(name.to_string(), *v);
                    e
                }))
                .collect()
        };
        match &lower.kind {
            ExprKind::Relation { chain } if chain.links.len() == 1 => {
                let var = chain.first.as_ref().and_then(Expr::symbol_key).ok_or_else(|| unsupported(lower))?;
                let link = &chain.links[0];
                let values = match link.op {
                    RelOp::In => self.index_set(&link.rhs, env)?,
                    RelOp::Eq => {
                        let from = self.integer(&link.rhs, env)?;
                        let to = self.integer(upper.ok_or_else(|| unsupported(lower))?, env)?;
                        (from..=to).collect()
                    }
                    _ => return Err(unsupported(lower)),
                };
                Ok(extend(vec![env.clone()], &var, values))
            }
            _ => {
                let letters = index_letters(lower).ok_or_else(|| unsupported(lower))?;
                let mut envs = vec![env.clone()];
                for letter in letters {
                    let range = self.index_range(&letter, lower.span)?;
                    envs = extend(envs, &letter, (1..=range).collect());
                }
                Ok(envs)
            }
        }
    }

    pub fn index_range(&self, letter: &str, span: Span) -> Result<i64, EvalError> {
        match self.scope.decls.get(letter) {
            Some(Decl::Index { range }) => Ok(self.size_of(range, span)? as i64),
            _ => Err(EvalError::UnboundIndex { name: letter.to_string(), span }),
        }
    }

    /// `J_i` with `J = "causal"`: 1..=i; `"all"`: the full range of i.
    fn index_set(&self, set: &Expr, env: &Env) -> Result<Vec<i64>, EvalError> {
        let ExprKind::Subscript { base, index } = &set.kind else { return Err(unsupported(set)) };
        let key = base.symbol_key().ok_or_else(|| unsupported(set))?;
        let Some(Decl::Set { kind }) = self.scope.decls.get(&key) else {
            return Err(EvalError::Unsupported { what: format!("the index set `{key}` (declare it under sets in the spec)"), span: set.span });
        };
        let at = self.integer(index, env)?;
        let letter = index.symbol_key().unwrap_or_default();
        match kind.as_str() {
            "causal" => Ok((1..=at).collect()),
            "all" => Ok((1..=self.index_range(&letter, set.span)?).collect()),
            other => Err(EvalError::Unsupported { what: format!("index set kind `{other}`"), span: set.span }),
        }
    }

    fn named_function(&self, name: &str, args: &[Expr], span: Span, env: &Env) -> Result<Value, EvalError> {
        let [arg] = args else { return Err(EvalError::Unsupported { what: format!("{name} with {} arguments", args.len()), span }) };
        let value = self.eval(arg, env)?;
        let builtin = |f: Symbol| value.map(|a| FunctionBuilder::new(f).add_arg(a).finish());
        match name {
            "ln" | "log" => Ok(builtin(Symbol::LOG)),
            "exp" => Ok(builtin(Symbol::EXP)),
            "sin" => Ok(builtin(Symbol::SIN)),
            "cos" => Ok(builtin(Symbol::COS)),
            "mean" => {
                let n = value.data.len() as i64;
                let sum = value.data.iter().fold(Atom::num(0), |acc, a| acc + a);
                Ok(Value::scalar(sum / Atom::num(n)))
            }
            _ => Err(EvalError::Unsupported { what: format!("the function `{name}`"), span }),
        }
    }

    /// `F(x)`, `\sigma'(B)` for declared functions; otherwise a product (`x(1-x)`).
    fn call(&self, func: &Expr, args: &[Expr], span: Span, env: &Env) -> Result<Value, EvalError> {
        let (head, primes) = match &func.kind {
            ExprKind::Prime { operand } => (operand.as_ref(), 1),
            _ => (func, 0),
        };
        let key = head.symbol_key().unwrap_or_default();
        match self.scope.decls.get(&key) {
            Some(Decl::Function(kind)) => {
                let [arg] = args else { return Err(EvalError::Unsupported { what: format!("`{key}` with {} arguments", args.len()), span }) };
                let x = self.eval(arg, env)?;
                Ok(match kind {
                    FunctionKind::Elementwise => x.map(|a| generic_scalar_function(&key, a, primes)),
                    FunctionKind::Vector => generic_vector_function(&key, &x),
                })
            }
            _ if primes == 0 => {
                let f = self.eval(func, env)?;
                let arg = match args {
                    [one] => self.eval(one, env)?,
                    _ => return Err(EvalError::Unsupported { what: format!("`{key}(…)` with {} arguments", args.len()), span }),
                };
                f.matmul(&arg, span)
            }
            _ => Err(EvalError::Unsupported { what: format!("`{key}'` (declare `{key}` as a function in the spec)"), span }),
        }
    }

    fn matrix_literal(&self, rows: &[Vec<Option<crate::syntax::ast::Statement>>], span: Span, env: &Env) -> Result<Value, EvalError> {
        let cols = rows.first().map(Vec::len).unwrap_or(0);
        let mut data = Vec::new();
        for row in rows {
            if row.len() != cols {
                return Err(EvalError::Unsupported { what: "a matrix with rows of different lengths".into(), span });
            }
            for cell in row {
                let expr = cell
                    .as_ref()
                    .and_then(|s| s.chains.first())
                    .and_then(|c| c.first.as_ref())
                    .ok_or(EvalError::Unsupported { what: "an empty matrix cell".into(), span })?;
                data.push(self.scalar(expr, env)?);
            }
        }
        Ok(Value::matrix(rows.len(), cols, data))
    }
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
    x.map_indexed(|i| {
        let mut b = FunctionBuilder::new(f).add_arg(Atom::num(i as i64 + 1));
        for a in &x.data {
            b = b.add_arg(a);
        }
        b.finish()
    })
}

impl Value {
    fn map_indexed(&self, f: impl Fn(usize) -> Atom) -> Value {
        Value::matrix(self.rows, self.cols, (0..self.data.len()).map(f).collect())
    }
}

/// Entry of a value at 1-based indices: one index for a vector, two for a matrix.
fn component(value: &Value, indices: &[i64], span: Span) -> Result<Value, EvalError> {
    let check = |name: &str, v: i64, max: usize| -> Result<usize, EvalError> {
        if v >= 1 && (v as usize) <= max {
            Ok(v as usize - 1)
        } else {
            Err(EvalError::IndexOutOfRange { name: name.to_string(), value: v, max, span })
        }
    };
    match indices {
        [k] if value.rows == 1 => Ok(Value::scalar(value.at(0, check("index", *k, value.cols)?).clone())),
        [k] if value.cols == 1 => Ok(Value::scalar(value.at(check("index", *k, value.rows)?, 0).clone())),
        [i, j] => Ok(Value::scalar(value.at(check("row", *i, value.rows)?, check("column", *j, value.cols)?).clone())),
        _ => Err(EvalError::Unsupported { what: format!("{} indices on a {}×{} value", indices.len(), value.rows, value.cols), span }),
    }
}

/// Leaf indices for entry (i, j) of an r×c matrix: vectors get one index.
fn leaf_indices(r: usize, c: usize, i: usize, j: usize) -> Vec<i64> {
    match (r, c) {
        (1, _) => vec![j as i64 + 1],
        (_, 1) => vec![i as i64 + 1],
        _ => vec![i as i64 + 1, j as i64 + 1],
    }
}

/// `ir` -> ["i", "r"] when the subscript is a juxtaposition of letters.
pub fn index_letters(e: &Expr) -> Option<Vec<String>> {
    match &e.kind {
        ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() => Some(vec![s.to_string()]),
        ExprKind::Binary { op: BinOp::Implicit, lhs, rhs } => {
            let mut l = index_letters(lhs)?;
            l.extend(index_letters(rhs)?);
            Some(l)
        }
        _ => None,
    }
}

/// A Symbolica-safe variable name for a key (`\bar{X}` -> `x5cbarx7bXx7d`).
fn sanitize(key: &str) -> String {
    let mut out = String::from("v");
    for c in key.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c);
        } else {
            out.push_str(&format!("x{:x}", c as u32));
        }
    }
    out
}

/// `0.133562` -> 133562/1000000, exactly.
fn decimal(text: &str, span: Span) -> Result<Atom, EvalError> {
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = format!("{int}{frac}");
    let too_long = || EvalError::Unsupported { what: format!("the number {text} (too many digits)"), span };
    if digits.len() > 18 {
        return Err(too_long());
    }
    let n: i64 = digits.parse().map_err(|_| too_long())?;
    Ok(Atom::num(n) / Atom::num(10i64.pow(frac.len() as u32)))
}

fn unsupported(e: &Expr) -> EvalError {
    EvalError::Unsupported { what: format!("`{}`", crate::syntax::print::expr(e)), span: e.span }
}
