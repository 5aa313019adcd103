//! Syntax trees to Symbolica values at one concrete size and index assignment.
//!
//! Definitions are expanded where they are used (a definition's parameters are bound to the
//! indices it is used with); undeclared symbols become leaf variables (`s_r` at r = 2 is the
//! variable `s_2`); declared matrices become matrices of leaf variables. A definition named
//! `opaque` is not expanded but stays a leaf: that is how an adjoint ∂L/∂Y treats Y as a leaf.

use super::backend::Backend;
use super::scalar::Scalar;
use super::value::Value;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::sema::scope::{Decl, Scope};
use crate::syntax::ast::{BigOpKind, BinOp, Expr, ExprKind, Span, Symbol as TexSymbol};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::rc::Rc;
use std::time::Instant;

/// Index letters bound to values.
pub type Env = BTreeMap<String, i64>;

/// A big operator's parts, where it is written: `\sum_{lower}^{upper} body`, `\int_a^b … dx`.
#[derive(Clone, Copy)]
pub(super) struct BigOpParts<'e> {
    pub lower: Option<&'e Expr>,
    pub upper: Option<&'e Expr>,
    pub body: &'e Expr,
    pub span: Span,
}

/// Limits on one claim's work: evaluation steps, expression size and wall time.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    pub max_steps: usize,
    pub max_bytes: usize,
    pub deadline: Instant,
}

/// A definition at the values of the indices it uses: the key of the expansion cache.
type DefinitionAt = (String, Env);

/// What an instance has computed and a later one may reuse ([`Instance::into_caches`]).
pub struct Caches<S> {
    definitions: HashMap<DefinitionAt, Value<S>>,
    adjoints: HashMap<String, Value<S>>,
}

impl<S> Default for Caches<S> {
    fn default() -> Self {
        Caches { definitions: HashMap::new(), adjoints: HashMap::new() }
    }
}
/// Evaluates something again in a fresh instance (after leaves moved).
pub(super) type Recompute<'r, B> = dyn Fn(&Instance<B>) -> Result<Value<<B as Backend>::S>, EvalError> + 'r;
/// A function of one value, evaluated in an instance (a derivative's body).
pub(super) type OfValue<'r, B> =
    dyn Fn(&Instance<B>, Value<<B as Backend>::S>) -> Result<Value<<B as Backend>::S>, EvalError> + 'r;

pub struct Instance<'a, B: Backend> {
    pub backend: &'a B,
    pub(super) scope: &'a Scope,
    pub sizes: &'a BTreeMap<String, i64>,
    pub(super) opaque: Option<&'a str>,
    /// The opaque definition's shape, once known (so it is not expanded again).
    pub(super) opaque_shape: Cell<Option<(usize, usize)>>,
    /// One member of a family definition kept as a leaf (`y_2` of `y_i = \sigma(x_i)`): how
    /// ∂E/∂y_i treats y_i, the other members expanded.
    pub(super) opaque_member: RefCell<Option<(String, Vec<i64>)>>,
    pub(super) budget: Budget,
    steps: Cell<usize>,
    cache: RefCell<HashMap<DefinitionAt, Value<B::S>>>,
    pub(super) adjoints: RefCell<HashMap<String, Value<B::S>>>,
    /// Definitions, functions and index ranges being evaluated. Shared by the fresh instances a
    /// derivative or an adjoint makes: a definition met again inside one of them (a loss whose
    /// definition uses its own adjoint `\bar H`, Y = ∂Y/∂x) is a cycle, not a deeper recursion.
    /// Each with the index values a family definition was entered at (`c` at t−1; none for
    /// anything else), for [`Instance::older_member`].
    pub(super) in_progress: Rc<RefCell<HashMap<String, Vec<i64>>>>,
    /// Arguments of the notes' functions being applied (`z` in `\sigma(z)=…`), innermost last.
    /// A definition's body starts a fresh frame: arguments are lexically scoped.
    pub(super) bound: RefCell<Vec<HashMap<String, Value<B::S>>>>,
    /// Symbolica variable name -> how the notes write it, for counterexamples.
    /// Shared by the fresh instances a derivative makes, so every leaf gets its name.
    pub names: Rc<RefCell<BTreeMap<String, String>>>,
    /// Internal names of the leaves of the spec's `positive` symbols.
    pub positive_leaves: Rc<RefCell<HashSet<String>>>,
}

impl<'a, B: Backend> Instance<'a, B> {
    pub fn new(
        backend: &'a B,
        scope: &'a Scope,
        sizes: &'a BTreeMap<String, i64>,
        opaque: Option<&'a str>,
        budget: Budget,
    ) -> Self {
        Instance {
            backend,
            scope,
            sizes,
            opaque,
            opaque_shape: Cell::new(None),
            opaque_member: RefCell::new(None),
            budget,
            steps: Cell::new(0),
            cache: RefCell::new(HashMap::new()),
            adjoints: RefCell::new(HashMap::new()),
            in_progress: Rc::new(RefCell::new(HashMap::new())),
            bound: RefCell::new(Vec::new()),
            names: Rc::new(RefCell::new(BTreeMap::new())),
            positive_leaves: Rc::new(RefCell::new(HashSet::new())),
        }
    }

    /// An assumption's left side minus its right side, which must be a number (`Σ_j y_j − 1`).
    pub fn residual(&self, assumption: &crate::sema::Assumption, env: &Env) -> Result<Vec<B::S>, EvalError> {
        let span = Span::new(assumption.lhs.span.start, assumption.rhs.span.end);
        let lhs = self.eval(&assumption.lhs, env)?;
        // `\sum_i \boldsymbol z_i = \mathbf 0`: a bold zero (or a plain 0) against a vector is the
        // zero of its shape, entry by entry.
        let zero = |e: &Expr| match &e.kind {
            ExprKind::Number { value } => value == "0",
            ExprKind::Symbol(s) => s.name == "0",
            ExprKind::Subscript { base, .. } => matches!(&base.kind, ExprKind::Symbol(s) if s.name == "0"),
            _ => false,
        };
        if zero(&assumption.rhs) {
            return Ok(lhs.data);
        }
        let rhs = self.eval(&assumption.rhs, env)?;
        if lhs.is_scalar() && rhs.is_scalar() {
            return Ok(vec![lhs.data[0].minus(&rhs.data[0])]);
        }
        Ok(lhs.zip(&rhs, "an assumption's sides", span, false, |a, b| a.minus(b))?.data)
    }

    /// The values of definitions and adjoints computed so far, to serve a later instance of the
    /// same backend, scope and sizes ([`Instance::with_caches`]).
    pub fn into_caches(self) -> Caches<B::S> {
        Caches { definitions: self.cache.into_inner(), adjoints: self.adjoints.into_inner() }
    }

    /// This instance, starting from the caches of an earlier one of the same backend, scope and
    /// sizes (whose values are still valid in the backend).
    pub fn with_caches(self, caches: Caches<B::S>) -> Self {
        *self.cache.borrow_mut() = caches.definitions;
        *self.adjoints.borrow_mut() = caches.adjoints;
        self
    }

    /// Forgets the values of definitions computed so far (after leaves were given new values).
    pub fn forget_cached(&self) {
        self.cache.borrow_mut().clear();
        self.adjoints.borrow_mut().clear();
    }

    /// The section's scope.
    pub fn scope(&self) -> &Scope {
        self.scope
    }

    pub fn eval(&self, e: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        self.tick(e.span)?;
        match &e.kind {
            ExprKind::Number { value } => Ok(Value::scalar(super::numbers::number(value, e.span)?)),
            ExprKind::Symbol(sym) => self.symbol(sym, e, env),
            ExprKind::Subscript { base, index } => self.subscript(e, base, index, env),
            ExprKind::Neg { operand } => Ok(self.eval(operand, env)?.map(B::S::negate)),
            ExprKind::Binary { op: BinOp::Add | BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. }
                if has_dots_term(e) =>
            {
                self.pattern_sum(e, env)
            }
            // `\frac{dF}{dx}(u(x))`: F′ at the argument, for a function F; also at the end of a
            // product (`f(u(y))\frac{du}{dy}(y)`, which parses as (f·du/dy)·(y)).
            ExprKind::Binary { op, lhs, rhs } => {
                if *op == BinOp::Implicit {
                    if let Some(word) = super::spelled::spelled_word(e) {
                        let what = format!("`{word}` written as letters side by side: the function or name `\\{word}`, or a product of its letters? (write `\\{word}`)");
                        return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(e.span));
                    }
                    if let Some(value) = self.applied_in_product(lhs, rhs, e.span, env)? {
                        return Ok(value);
                    }
                    if let Some(value) = self.word_application(lhs, rhs, e.span, env)? {
                        return Ok(value);
                    }
                }
                let applied = (*op == BinOp::Implicit).then(|| self.applied_derivative(lhs, rhs, env)).flatten();
                let Some((before, prime, arg)) = applied else { return self.binary(*op, lhs, rhs, e.span, env) };
                let value = self.call(&prime, std::slice::from_ref(arg), false, e.span, env)?;
                match before {
                    None => Ok(value),
                    Some(before) => {
                        let factor = self.eval(before, env)?;
                        factor.zip(&value, "a product", e.span, true, |a, b| a.times(b))
                    }
                }
            }
            ExprKind::Frac { num, den } => self.quotient(num, den, e.span, env),
            ExprKind::Sqrt { index, radicand } => {
                let r = self.eval(radicand, env)?;
                let r = r.as_scalar(radicand.span, "a square root's argument")?;
                let n = match index {
                    None => 2,
                    Some(i) => self.integer(i, env)?,
                };
                if n < 1 {
                    return Err(unsupported(e));
                }
                Ok(Value::scalar(r.power(&B::S::ratio(1, n))))
            }
            ExprKind::Power { base, exponent } => self.power(base, exponent, e.span, env),
            ExprKind::Transpose { operand } => match &operand.kind {
                ExprKind::Symbol(s) if s.is_bold_one() && !self.resolves(&s.key(), env) => {
                    Ok(Value::uniform_row(B::S::int(1)))
                }
                _ => Ok(self.eval(operand, env)?.transpose()),
            },
            ExprKind::BigOp { op, lower, upper, body: Some(body) } => {
                let parts = BigOpParts { lower: lower.as_deref(), upper: upper.as_deref(), body, span: e.span };
                self.big_op(op, parts, env)
            }
            ExprKind::Apply { func, args, .. } => self.apply(func, args, e.span, env),
            ExprKind::Differential { operand } => self.differential(operand, env),
            ExprKind::Derivative { of, wrt, .. } => self.derivative(of, wrt, env),
            ExprKind::Prime { operand } => match self.sole_variable(operand, env) {
                Some(variable) => self.derivative(operand, &variable, env),
                None => Err(unsupported(e)),
            },
            ExprKind::Call { func, args, postfixed } => self.call(func, args, *postfixed, e.span, env),
            ExprKind::Fenced { inner: Some(inner), open, .. } => match open.as_str() {
                "(" | "[" | "\\left(" => self.eval(inner, env),
                open if crate::syntax::ast::opens_absolute_value(open) => self.absolute(inner, env),
                "\\|" | "\\lVert" | "\\Vert" => self.norm(inner, None, e.span, env),
                "\\langle" => self.inner_product(inner, e.span, env),
                _ => Err(unsupported(e)),
            },
            ExprKind::Abs { operand } => self.absolute(operand, env),
            ExprKind::Norm { operand } => self.norm(operand, None, e.span, env),
            ExprKind::Tuple { items, .. } if items.iter().any(|i| matches!(i.kind, ExprKind::Ellipsis)) => {
                self.pattern_list(items, e.span, env)
            }
            ExprKind::Tuple { items, .. } => {
                let entries = items.iter().map(|i| self.scalar(i, env)).collect::<Result<Vec<_>, _>>()?;
                Ok(Value::matrix(1, entries.len(), entries))
            }
            ExprKind::Matrix { env: name, rows } if name.ends_with("matrix") => {
                self.written_matrix(name, rows, e.span, env)
            }
            _ => Err(unsupported(e)),
        }
    }

    fn tick(&self, span: Span) -> Result<(), EvalError> {
        let n = self.steps.get() + 1;
        self.steps.set(n);
        if n > self.budget.max_steps {
            return Err(EvalErrorKind::Budget {
                what: format!("more than {} evaluation steps", self.budget.max_steps),
            }
            .at(span));
        }
        if n.is_multiple_of(256) {
            return self.on_time(span);
        }
        Ok(())
    }

    /// An error once the claim's deadline has passed: for loops that do much work per step
    /// (a determinant's minors).
    pub(super) fn on_time(&self, span: Span) -> Result<(), EvalError> {
        if Instant::now() > self.budget.deadline {
            return Err(EvalErrorKind::Budget { what: "time limit for this claim".into() }.at(span));
        }
        Ok(())
    }

    fn scalar(&self, e: &Expr, env: &Env) -> Result<B::S, EvalError> {
        Ok(self.eval(e, env)?.as_scalar(e.span, "this")?.clone())
    }

    // ------------------------------------------------------------------ symbols and indices

    fn symbol(&self, sym: &TexSymbol, e: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        let key = sym.key();
        // `A^*` of a matrix A the notes give no starred meaning: its adjugate (伴随矩阵), its
        // conjugate transpose, or an optimum of its own?
        if sym.label.as_deref() == Some(crate::syntax::ast::STAR_LABEL) && !self.scope.defs.contains_key(&key) {
            let plain = TexSymbol { label: None, ..sym.clone() }.key();
            // (`Q = \begin{bmatrix}…\end{bmatrix}, \quad QQ^\ast = …`: a matrix by its definition too.)
            let defined_matrix = || {
                self.scope.defs.get(&plain).is_some_and(|d| d.params.is_empty())
                    && self.named(&plain, e, env).is_ok_and(|v| v.shape() != (1, 1))
            };
            let matrix = matches!(self.scope.decls.get(&plain), Some(Decl::Matrix { .. }))
                || self.scope.usage.matrix_like.contains(&plain)
                || defined_matrix();
            if matrix {
                let what = format!(
                    "`{key}` of the matrix `{plain}`: its adjugate, its conjugate transpose, or a matrix of its own?"
                );
                return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(e.span));
            }
        }
        if self.resolves(&key, env) {
            return self.named(&key, e, env);
        }
        if sym.is_bold_one() {
            return Ok(Value::uniform(B::S::int(1)));
        }
        if let Some(target) = self.adjoint_target(e) {
            return self.adjoint(&target, e.span);
        }
        self.named(&key, e, env)
    }

    /// The value of the symbol named `key` (as the notes write it, canonically).
    pub fn value_of(&self, key: &str, env: &Env) -> Result<Value<B::S>, EvalError> {
        self.named(key, &Expr::new(ExprKind::Empty, Span::default()), env)
    }

    /// Does `key` name something here (an index value, a size, a declaration, a definition)?
    pub(super) fn resolves(&self, key: &str, env: &Env) -> bool {
        env.contains_key(key)
            || self.sizes.contains_key(key)
            || self.scope.knows(key)
            || self.opaque == Some(key)
            || self.bound.borrow().last().is_some_and(|f| f.contains_key(key))
    }

    /// A symbol (or name-like subscripted symbol such as `W_Q`) by its key.
    pub(super) fn named(&self, key: &str, e: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        if let Some(v) = self.bound.borrow().last().and_then(|f| f.get(key)) {
            return Ok(v.clone());
        }
        if let Some(v) = env.get(key).or_else(|| self.sizes.get(key)) {
            if self.is_label(*v) {
                return Err(EvalErrorKind::UnboundIndex { name: key.to_string() }.at(e.span));
            }
            return Ok(Value::scalar(B::S::int(*v)));
        }
        if self.opaque == Some(key) {
            return self.opaque_leaf(key, e.span);
        }
        if let Some(arguments) = self.scope.general_functions.get(key) {
            return self.general_function(key, arguments, env, e.span);
        }
        if let Some(def) = self.scope.defs.get(key) {
            // (`\frac{\partial f}{\partial z} = q` after `q(x,y) = x + y`: q's value, as Leibniz
            // notation writes it.)
            if let Some(value) = self.at_own_parameters(key, env, e.span) {
                return value;
            }
            if def.function {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Malformed,
                    what: format!("the function `{key}` without an argument"),
                }
                .at(e.span));
            }
            return if def.params.is_empty() {
                self.definition(key, &[], env, e.span)
            } else {
                self.assemble(key, env, e.span)
            };
        }
        match self.scope.decls.get(key) {
            Some(Decl::Matrix { rows, cols }) => {
                let (r, c) = (self.size_of(rows, e.span)?, self.size_of(cols, e.span)?);
                if key == "\\mathbf{1}" || key == "\\mathbb{1}" {
                    return Ok(Value::from_fn(r, c, |_, _| B::S::int(1))); // the ones vector, of the declared shape
                }
                Ok(self.leaf_matrix(key, r, c))
            }
            Some(Decl::Identity { n }) => {
                let n = self.size_of(n, e.span)?;
                Ok(Value::from_fn(n, n, |i, j| B::S::int(i64::from(i == j))))
            }
            Some(Decl::Index { .. }) => Err(EvalErrorKind::UnboundIndex { name: key.to_string() }.at(e.span)),
            Some(Decl::Family { .. }) => Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("`{key}` without its index"),
            }
            .at(e.span)),
            Some(Decl::Function(_)) | Some(Decl::Set { .. }) => Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("`{key}` without an argument"),
            }
            .at(e.span)),
            None if key == "e" || key == "\\mathrm{e}" => Ok(Value::scalar(B::S::euler())),
            None if key == "\\pi" => Ok(Value::scalar(B::S::pi())),
            None if self.scope.usage.matrix_like.contains(key) => {
                let capitals = matches!(&e.kind, ExprKind::Symbol(s) if s.is_bold_capitals());
                let (category, what) = super::without_shape(key, capitals);
                Err(EvalErrorKind::Unsupported { category, what }.at(e.span))
            }
            // `\frac{dF}{dx} = f` with f only ever applied elsewhere: the function, not a number.
            None if self.scope.usage.unknown_functions.contains(key) => Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: format!("the function `{key}` without an argument"),
            }
            .at(e.span)),
            None if is_operator_letter(key) => Err(operator_without_bracket(key, e.span)),
            None if !plain_symbol(e) => Err(EvalErrorKind::Unsupported {
                category: NotRead::NotUnderstood,
                what: format!("not understood: `{key}` (define it, or declare it in the spec)"),
            }
            .at(e.span)),
            None => Ok(Value::scalar(self.leaf(key, &[]))),
        }
    }

    pub(super) fn size_of(&self, name: &str, span: Span) -> Result<usize, EvalError> {
        let v = name.parse::<i64>().ok().or_else(|| self.sizes.get(name).copied());
        if let Some(v) = v.filter(|v| *v > crate::spec::MAX_SIZE) {
            let what = format!("size `{name}` = {v} (beyond {})", crate::spec::MAX_SIZE);
            return Err(EvalErrorKind::Budget { what }.at(span));
        }
        v.and_then(|v| usize::try_from(v).ok()).ok_or_else(|| {
            EvalErrorKind::Unsupported {
                category: NotRead::NeedsSpec,
                what: format!("size `{name}` has no value (declare it in the spec's sizes)"),
            }
            .at(span)
        })
    }

    /// A matrix of leaves named after `key`; the backend may reuse a block it made before.
    fn leaf_matrix(&self, key: &str, rows: usize, cols: usize) -> Value<B::S> {
        use crate::sema::scope::MatrixClass;
        let class = self.scope.classes.get(key).filter(|_| rows == cols);
        if let Some(MatrixClass::Orthogonal | MatrixClass::OrthogonalReflecting) = class {
            return self.orthogonal_matrix(key, rows, class == Some(&MatrixClass::OrthogonalReflecting));
        }
        let make = |i: usize, j: usize| match class {
            Some(MatrixClass::Diagonal) if i != j => B::S::int(0),
            Some(MatrixClass::Stochastic) if j + 1 == cols => (0..j)
                .fold(B::S::int(1), |rest, other| rest.minus(&self.leaf(key, &leaf_indices(rows, cols, i, other)))),
            Some(MatrixClass::Symmetric) if i > j => self.leaf(key, &leaf_indices(rows, cols, j, i)),
            _ => self.leaf(key, &leaf_indices(rows, cols, i, j)),
        };
        // A class makes some entries numbers or shared leaves: no block a backend remembers
        // (the numeric one keeps only leaves) may stand for it.
        let data = match class {
            Some(_) => (0..rows * cols).map(|k| make(k / cols, k % cols)).collect(),
            None => self.backend.leaf_block(key, rows, cols, &make),
        };
        Value::matrix(rows, cols, data)
    }

    /// A general orthogonal n×n matrix named after `key`: the product of the rotations in every
    /// plane (p, q), p < q, each by the angle whose half-angle tangent is a fresh leaf `t` (cos =
    /// (1−t²)/(1+t²), sin = 2t/(1+t²), exact rationals at rational points); with `reflecting`,
    /// the first row negated (determinant −1). These rotations reach every rotation of ℝⁿ, so an
    /// identity in the entries that holds for them holds for every orthogonal matrix of that
    /// determinant.
    fn orthogonal_matrix(&self, key: &str, n: usize, reflecting: bool) -> Value<B::S> {
        let mut data: Vec<B::S> = (0..n * n).map(|k| B::S::int(i64::from(k / n == k % n))).collect();
        for p in 0..n {
            for q in p + 1..n {
                let t = self.leaf(&format!("{key}^{{angle}}"), &[p as i64 + 1, q as i64 + 1]);
                let (one, two) = (B::S::int(1), B::S::int(2));
                let square = t.times(&t);
                let cos = one.minus(&square).over(&one.plus(&square));
                let sin = two.times(&t).over(&one.plus(&square));
                // Rows p and q of the product so far, turned in their plane.
                for col in 0..n {
                    let (a, b) = (data[p * n + col].clone(), data[q * n + col].clone());
                    data[p * n + col] = cos.times(&a).minus(&sin.times(&b));
                    data[q * n + col] = sin.times(&a).plus(&cos.times(&b));
                }
            }
        }
        if reflecting {
            for entry in data.iter_mut().take(n) {
                *entry = entry.negate();
            }
        }
        Value::matrix(n, n, data)
    }

    /// The leaf variable for `key` at the given (1-based) indices.
    pub fn leaf(&self, key: &str, indices: &[i64]) -> B::S {
        let (name, shown) = leaf_name(key, indices);
        let leaf = self.backend.leaf(&name, &shown);
        if self.scope.second_look.all_positive || self.scope.positive.iter().any(|p| p == key) {
            self.positive_leaves.borrow_mut().insert(name.clone());
        }
        self.names.borrow_mut().insert(name, shown);
        leaf
    }

    pub(super) fn opaque_leaf(&self, key: &str, span: Span) -> Result<Value<B::S>, EvalError> {
        let (rows, cols) = match self.opaque_shape.get() {
            Some(shape) => shape,
            None => Instance::new(self.backend, self.scope, self.sizes, None, self.budget)
                .definition(key, &[], &Env::new(), span)?
                .shape(),
        };
        self.opaque_shape.set(Some((rows, cols)));
        Ok(self.leaf_matrix(&format!("{key}°"), rows, cols))
    }

    /// The value of a definition at parameter values, expanded once and cached. Indices the
    /// definition uses without declaring them as parameters (`y` in `L=-\ln p_y`) keep the value
    /// they have where it is used.
    pub(super) fn definition(
        &self,
        key: &str,
        args: &[i64],
        outer: &Env,
        span: Span,
    ) -> Result<Value<B::S>, EvalError> {
        let def = &self.scope.defs[key];
        // A size is never an index inside a definition: in `(x_1-M)^2+\cdots+(x_n-M)^2` the run
        // binds n, while M = (x_1+\cdots+x_n)/n means the size n.
        let mut env: Env =
            outer.iter().filter(|(k, _)| !self.sizes.contains_key(*k)).map(|(k, v)| (k.clone(), *v)).collect();
        env.extend(def.params.iter().cloned().zip(args.iter().copied()));
        let used: Env =
            env.iter().filter(|(k, _)| mentions_symbol(&def.body, k)).map(|(k, v)| (k.clone(), *v)).collect();
        let cache_key = (key.to_string(), used);
        if let Some(v) = self.cache.borrow().get(&cache_key) {
            return Ok(v.clone());
        }
        if let Some(member) = self.older_member(key, args) {
            return Ok(member);
        }
        if !enter(&self.in_progress, key, args) {
            return Err(EvalErrorKind::Cyclic { key: key.to_string() }.at(span));
        }
        self.bound.borrow_mut().push(HashMap::new());
        let result = self.eval(&def.body, &env).map_err(|e| e.at(span));
        self.bound.borrow_mut().pop();
        self.in_progress.borrow_mut().remove(key);
        let value = result?;
        if value.size_hint() > self.budget.max_bytes {
            return Err(EvalErrorKind::Budget {
                what: format!("`{key}` expands beyond {} bytes", self.budget.max_bytes),
            }
            .at(span));
        }
        self.cache.borrow_mut().insert(cache_key, value.clone());
        Ok(value)
    }

    /// `c_{t-2}` met inside the definition of c_{t-1} where t is a label and the scope cuts such
    /// members ([`LetterUsage::cut_older_than`]): an unknown of its own, not an unrolling
    /// without end. Only a member of one index, at an older step than where its family's
    /// definition was entered and below the offset the scope gives, of a family defined by
    /// older steps only ([`defined_forward`]).
    ///
    /// [`LetterUsage::cut_older_than`]: crate::sema::scope::LetterUsage::cut_older_than
    fn older_member(&self, key: &str, args: &[i64]) -> Option<Value<B::S>> {
        let below = self.scope.usage.cut_older_than?;
        let [at] = args else { return None };
        let entered = self.in_progress.borrow().get(key).cloned()?;
        let older = matches!(entered.as_slice(), [first] if at < first);
        let offset = at - LABEL_VALUE;
        let plain = !self.scope.decls.contains_key(key);
        (older && offset < below && plain && defined_forward(self.scope)).then(|| Value::scalar(self.leaf(key, args)))
    }

    /// A letter read as a function nobody specified of `arguments`
    /// ([`Scope::general_functions`]): c + Σ_k a_k u_k + Σ_{k≤l} b_{kl} u_k u_l over the entries u
    /// of the arguments, with leaves of its own for c, a and b. Its value and its first and second
    /// derivatives at a point are then free numbers, as they are for a function in general.
    fn general_function(
        &self,
        key: &str,
        arguments: &[String],
        env: &Env,
        span: Span,
    ) -> Result<Value<B::S>, EvalError> {
        let anywhere = Expr::new(ExprKind::Empty, span);
        let mut entries = Vec::new();
        for argument in arguments {
            entries.extend(self.named(argument, &anywhere, env)?.data);
        }
        // (Not `{key}°`, the leaf that stands for the letter itself where a derivative is
        // taken by it: `\frac{\partial P}{\partial Q}` with Q a function of R too.)
        let coefficients = format!("{key}°°");
        let mut total = self.leaf(&coefficients, &[]);
        for (k, u) in entries.iter().enumerate() {
            let k1 = k as i64 + 1;
            total = total.plus(&self.leaf(&coefficients, &[k1]).times(u));
            for (l, w) in entries.iter().enumerate().skip(k) {
                total = total.plus(&self.leaf(&coefficients, &[k1, l as i64 + 1]).times(&u.times(w)));
            }
        }
        Ok(Value::scalar(total))
    }

    /// The leaf of member `indices` of the family `key`, where a derivative by that member keeps
    /// it a variable ([`Instance::opaque_member`]).
    pub(super) fn opaque_member_leaf(&self, key: &str, indices: &[i64]) -> Option<B::S> {
        let kept = self.opaque_member.borrow().as_ref().is_some_and(|(k, at)| k == key && at == indices);
        kept.then(|| self.leaf(&format!("{key}°"), indices))
    }

    /// A family definition `a_j = …` assembled into a vector (one parameter) or matrix (two).
    fn assemble(&self, key: &str, env: &Env, span: Span) -> Result<Value<B::S>, EvalError> {
        let def = &self.scope.defs[key];
        let ranges = def
            .params
            .iter()
            .map(|p| self.range_of(p, &[&def.body], env, span).map_err(|e| e.at(span)))
            .collect::<Result<Vec<_>, _>>()?;
        let (rows, cols) = match ranges[..] {
            [n] => (1, n as usize),
            [r, c] => (r as usize, c as usize),
            _ => {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Malformed,
                    what: format!("`{key}` with {} indices as a whole", ranges.len()),
                }
                .at(span))
            }
        };
        let mut data = Vec::with_capacity(rows * cols);
        for i in 0..rows {
            for j in 0..cols {
                let args: Vec<i64> =
                    if ranges.len() == 1 { vec![j as i64 + 1] } else { vec![i as i64 + 1, j as i64 + 1] };
                // (The member a derivative is taken by stays a variable.)
                match self.opaque_member_leaf(key, &args) {
                    Some(leaf) => data.push(leaf),
                    None => data.push(self.definition(key, &args, env, span)?.as_scalar(span, key)?.clone()),
                }
            }
        }
        Ok(Value::matrix(rows, cols, data))
    }

    fn subscript(&self, e: &Expr, base: &Expr, index: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        // `\left[ \frac{\partial E}{\partial x_i} \right]_i`: the column of the content at
        // i = 1..n, n the range of i (declared, or read off what the content indexes).
        if let Some((inner, letter)) = crate::syntax::ast::vector_builder(e) {
            let mut within = env.clone();
            within.remove(&letter);
            let n = self.range_of(&letter, &[inner], &within, e.span)?;
            let mut entries = Vec::new();
            for k in 1..=n {
                within.insert(letter.clone(), k);
                let entry = self.eval(inner, &within)?;
                entries.push(entry.as_scalar(e.span, "an entry of the bracket")?.clone());
            }
            return Ok(Value::matrix(entries.len(), 1, entries));
        }
        if let ExprKind::Symbol(s) = &base.kind {
            if let Some(bound) = s.label.as_ref().and_then(|l| env.get(l)) {
                // `x^{(i)}_j` with i bound: the leaf of example i.
                let mut s = s.clone();
                s.label = Some(bound.to_string());
                let base = Expr::new(ExprKind::Symbol(s), base.span);
                let e = Expr::new(
                    ExprKind::Subscript { base: Box::new(base.clone()), index: Box::new(index.clone()) },
                    e.span,
                );
                return self.subscript(&e, &base, index, env);
            }
        }
        if let Some(key) = e.symbol_key().filter(|k| self.resolves(k, env)) {
            return self.named(&key, e, env);
        }
        if let Some(target) = self.adjoint_target(e) {
            return self.adjoint(&target, e.span);
        }
        if let ExprKind::Symbol(s) = &base.kind {
            if s.is_bold_one() && !self.resolves(&s.key(), env) {
                return self.indicator(index, env);
            }
        }
        if let Some(norm) = super::algebra::norm_operand(base) {
            return self.norm(norm, Some(index), e.span, env);
        }
        // `n_\text{in}`: a letter of its own, not entry "in" of n.
        if let (true, Some(key)) = (crate::syntax::ast::is_label_subscript(index), e.symbol_key()) {
            return self.named(&key, e, env);
        }
        // `A_{ij}` beside `a_{ij}`: A's entry, or a cofactor, a minor, a block of A?
        if let Some(key) = base.symbol_key().filter(|k| self.scope.usage.entries_ambiguous.contains(k)) {
            let what = format!(
                "`{key}_{{…}}` beside `{}_{{…}}`: the entry of {key}, or another quantity of {key}'s (a cofactor, a minor, a block)?",
                key.to_lowercase()
            );
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(e.span));
        }
        let mut indices = match self.labelled(base, index, env) {
            Some(labelled) => self.indices(index, &labelled)?,
            None => self.indices(index, env)?,
        };
        if let Some(key) = base.symbol_key() {
            // `a_{11}`: entry (1, 1) of a family with two indices (`\mathbf A = (a_{ij})`).
            if let ExprKind::Number { value } = &index.kind {
                let two = self.scope.defs.get(&key).is_some_and(|d| d.params.len() == 2);
                if two && value.len() == 2 && value.bytes().all(|b| (b'1'..=b'9').contains(&b)) {
                    indices = value.bytes().map(|b| i64::from(b - b'0')).collect();
                }
            }
            if let Some(value) = self.indexed_name(&key, base, &indices, env, e.span)? {
                return Ok(value);
            }
        }
        let value = self.eval(base, env)?;
        // `A_{11}`: entry (1, 1) of a matrix, its two indices written without a comma.
        if let (ExprKind::Number { value: digits }, [_]) = (&index.kind, indices.as_slice()) {
            let pair = digits.len() == 2 && digits.bytes().all(|b| (b'1'..=b'9').contains(&b));
            if pair && value.rows > 1 && value.cols > 1 {
                indices = digits.bytes().map(|b| i64::from(b - b'0')).collect();
            }
        }
        component(&value, &indices, e.span)
    }

    /// `x_t`, `x_{t-1}` where t is a label ([`LetterUsage::labels`]) and x a letter with no
    /// meaning of its own, or a family the notes define (`a_i = x_i + 2`): `env` with each such
    /// label given a value of its own, far beyond any size, so that each term is a leaf of its
    /// own (`x_t` and `x_{t-1}` two independent unknowns, `x_t` twice the same one). Only a
    /// leaf's name sees that value; any other use of the label (a bound, `\delta_{ij}`, an
    /// exponent, an entry of a vector, the letter as a number) stays without a value.
    ///
    /// [`LetterUsage::labels`]: crate::sema::scope::LetterUsage::labels
    pub(super) fn labelled(&self, base: &Expr, index: &Expr, env: &Env) -> Option<Env> {
        let labels = &self.scope.usage.labels;
        let key = base.symbol_key().filter(|_| !labels.is_empty())?;
        let family = self.scope.defs.get(&key).is_some_and(|d| !d.function && !d.params.is_empty());
        let own_letter = !self.resolves(&key, env) && !is_operator_letter(&key);
        if !(family || own_letter) || matches!(base.kind, ExprKind::Fenced { .. }) {
            return None;
        }
        let mut labelled = env.clone();
        for (n, label) in (1..).zip(labels) {
            if !env.contains_key(label) && mentions_symbol(index, label) {
                labelled.insert(label.clone(), LABEL_VALUE * n);
            }
        }
        (labelled.len() > env.len()).then_some(labelled)
    }

    /// Is `value` a label's ([`Instance::labelled`]), which names a leaf and is no number? (By
    /// value: a family's definition binds its own letter to the label's value.)
    pub(super) fn is_label(&self, value: i64) -> bool {
        !self.scope.usage.labels.is_empty() && is_label_value(value)
    }

    /// The number `letter` stands for here (bound in `env`, or a size), unless it is a label's.
    fn number_of(&self, letter: &str, env: &Env) -> Option<i64> {
        env.get(letter).or_else(|| self.sizes.get(letter)).copied().filter(|v| !self.is_label(*v))
    }

    /// `a_j` for a family definition, `q_i` for a declared family, `s_r` for an undeclared
    /// symbol (a leaf per index value); `None` when the base is a value to take an entry of.
    fn indexed_name(
        &self,
        key: &str,
        base: &Expr,
        indices: &[i64],
        env: &Env,
        span: Span,
    ) -> Result<Option<Value<B::S>>, EvalError> {
        if self.opaque == Some(key) {
            return Ok(None);
        }
        if let Some(leaf) = self.opaque_member_leaf(key, indices) {
            return Ok(Some(Value::scalar(leaf)));
        }
        if self.scope.defs.get(key).is_some_and(|d| !d.function && d.params.len() == indices.len()) {
            return self.definition(key, indices, env, span).map(Some);
        }
        if let Some(Decl::Family { rows, cols }) = self.scope.decls.get(key) {
            let (r, c) = (self.size_of(rows, span)?, self.size_of(cols, span)?);
            let list: Vec<String> = indices.iter().map(i64::to_string).collect();
            let member = format!("{key}_{{{}}}", list.join(","));
            return Ok(Some(self.leaf_matrix(&member, r, c)));
        }
        // `x=0` given for a sentence, then `x_k`: a number has no entries; x_k is a letter of its own.
        let number = self
            .scope
            .defs
            .get(key)
            .is_some_and(|d| d.params.is_empty() && matches!(&d.body.kind, ExprKind::Number { .. }));
        let is_adjoint = self.adjoint_target(base).is_some();
        if is_operator_letter(key) && !self.resolves(key, env) {
            return Err(operator_without_bracket(key, span));
        }
        if (number || !self.resolves(key, env)) && !is_adjoint && key != "e" {
            return Ok(Some(Value::scalar(self.leaf(key, indices))));
        }
        Ok(None)
    }

    // ------------------------------------------------------------------ operators

    fn binary(&self, op: BinOp, lhs: &Expr, rhs: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        if op == BinOp::Div {
            return self.quotient(lhs, rhs, span, env);
        }
        if op == BinOp::Implicit && matches!(lhs.kind, ExprKind::Binary { op: BinOp::Div, .. }) {
            // `a/bc`: is it (a/b)c or a/(bc)? Authors mean both; derivcheck refuses to guess.
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: "`a/bc`: (a/b)·c or a/(bc)? write it with \\frac or parentheses".into(),
            }
            .at(span));
        }
        // `1\{i=j\}`, `1\{y^{(i)} = k\}`: the digit 1 before a condition in braces is its
        // indicator (1 times a set holding a relation means nothing else).
        if let (BinOp::Implicit, ExprKind::Number { value }, ExprKind::Fenced { open, inner: Some(inner), .. }) =
            (op, &lhs.kind, &rhs.kind)
        {
            if value == "1" && open.ends_with('{') && matches!(inner.kind, ExprKind::Relation { .. }) {
                return self.indicator(inner, env);
            }
        }
        if op == BinOp::Implicit {
            self.bare_function_against(lhs, rhs, span, env)?;
            if let (ExprKind::Number { .. }, ExprKind::Symbol(s)) = (&lhs.kind, &rhs.kind) {
                if s.name == "e" && s.style.is_none() && lhs.span.end == rhs.span.start && !self.resolves("e", env) {
                    return Err(EvalErrorKind::Unsupported {
                        category: NotRead::Ambiguous,
                        what: "`1e…`: scientific notation? write 10^{…}".into(),
                    }
                    .at(span));
                }
            }
            if let (ExprKind::Symbol(s), ExprKind::Fenced { open, inner: Some(condition), .. }) = (&lhs.kind, &rhs.kind)
            {
                if s.is_bold_one() && open == "[" && !self.resolves(&s.key(), env) {
                    return self.indicator(condition, env); // `\mathbb 1[a>0]`
                }
            }
            // `E[X^2]`, `\mathbb E[w]`, `P[A]`, `E[X - E(X)]^2`: an operator on a bracket (an
            // expectation?), never a product of an unknown letter with a bracketed group.
            let bracket = match &rhs.kind {
                ExprKind::Power { base, .. } | ExprKind::Subscript { base, .. } => base.as_ref(),
                _ => rhs,
            };
            if let (Some(key), ExprKind::Fenced { open, .. }) =
                (crate::syntax::ast::last_factor(lhs).symbol_key(), &bracket.kind)
            {
                if open == "[" && !self.resolves(&key, env) {
                    return Err(EvalErrorKind::Unsupported {
                        category: NotRead::Ambiguous,
                        what: format!("`{key}[…]`: an operator such as an expectation, or a product with a bracket? (define it, or write `\\cdot`)"),
                    }
                    .at(span));
                }
            }
            if matches!(rhs.kind, ExprKind::Number { .. }) {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Ambiguous,
                    what: format!(
                        "a number written after a factor (`{}`): write the product explicitly",
                        crate::syntax::print::expr(&Expr::new(
                            ExprKind::Binary { op, lhs: Box::new(lhs.clone()), rhs: Box::new(rhs.clone()) },
                            span
                        ))
                    ),
                }
                .at(span));
            }
        }
        let (a, b) = (self.eval(lhs, env)?, self.eval(rhs, env)?);
        match op {
            BinOp::Add => a.add_like(&b, "a sum", span, |x, y| x.plus(y)),
            BinOp::Sub => a.add_like(&b, "a difference", span, |x, y| x.minus(y)),
            // `\vec x\cdot\vec y` of two vectors of the same shape is their dot product.
            BinOp::Cdot if a.shape() == b.shape() && (a.rows == 1) != (a.cols == 1) && !a.is_free() && !b.is_free() => {
                Ok(Value::scalar(a.data.iter().zip(&b.data).fold(B::S::int(0), |acc, (x, y)| acc.plus(&x.times(y)))))
            }
            BinOp::Implicit | BinOp::Cdot => a.matmul(&b, span),
            BinOp::Times if a.is_scalar() || b.is_scalar() => a.matmul(&b, span),
            BinOp::Hadamard => a.zip(&b, "an entry-wise product", span, false, |x, y| x.times(y)),
            _ => Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("the operator {op:?} here"),
            }
            .at(span)),
        }
    }

    /// `a/b`, `\frac{a}{b}`; a derivative operator left with nothing to apply to is refused.
    fn quotient(&self, num: &Expr, den: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let bare_operator = |e: &Expr| {
            matches!(&e.kind, ExprKind::Partial { operand: None, .. })
                || matches!(&e.kind, ExprKind::Symbol(s) if s.name == "d" && s.style == Some(crate::syntax::ast::Style::Roman))
        };
        if bare_operator(num) || matches!(den.kind, ExprKind::Partial { .. }) {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: "a derivative operator with nothing after it to differentiate".into(),
            }
            .at(span));
        }
        let (a, b) = (self.eval(num, env)?, self.eval(den, env)?);
        // `-t \odot \frac{1}{x}`, `\frac{\mathbf a}{\mathbf b}`: a vector in the denominator has
        // no inverse, and notes mean the quotient entry by entry (a square matrix may mean its
        // inverse: not read).
        let vector = b.rows.min(b.cols) == 1 && !b.is_scalar() && !b.is_free();
        if vector && (a.is_scalar() || a.shape() == b.shape()) {
            return a.zip(&b, "an entry-wise quotient", span, true, |x, y| x.over(y));
        }
        let b = b.as_scalar(den.span, "a denominator")?.clone();
        Ok(a.map(|x| x.over(&b)))
    }

    /// Scalar powers; `A^2` = AA and `A^{-1}` the inverse for a square matrix A.
    fn power(&self, base: &Expr, exponent: &Expr, span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        // `x_k^1`: nobody writes a first power; a superscript 1 numbers a coordinate or an example.
        if matches!(&exponent.kind, ExprKind::Number { value } if value == "1") && plain_symbol(base) {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: "`x^1`: a first power, or a superscript that numbers a coordinate? (write x^{(1)} for a label)"
                    .into(),
            }
            .at(span));
        }
        // `(uv)^{(n)}`: a parenthesized superscript on a parenthesis is Leibniz's n-th derivative
        // as often as a power (`e^{(x-1)^2}` is a power: its base is a letter).
        let parenthesized = matches!(&exponent.kind, ExprKind::Fenced { open, .. } if open == "(");
        let of_parenthesis = matches!(&base.kind, ExprKind::Fenced { open, .. } if open == "(");
        if parenthesized && of_parenthesis && constant_magnitude(exponent).is_none() {
            let what = "`(…)^{(n)}`: the n-th derivative, or the n-th power? (write `^n` for a power)".to_string();
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        // `\pi^{(i+1)}`, `F^{(n+1)}`: a parenthesized step (a letter plus or minus a number) on a
        // letter labels a member of a sequence as often as it raises to a power.
        let step = |e: &Expr| match &e.kind {
            ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" => matches!(&inner.kind,
                ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs }
                    if matches!(lhs.kind, ExprKind::Symbol(_)) && matches!(rhs.kind, ExprKind::Number { .. })),
            _ => false,
        };
        let natural_base = matches!(&base.kind, ExprKind::Symbol(s) if matches!(s.name.as_str(), "e" | "\\mathrm{e}"));
        if step(exponent) && plain_symbol(base) && !natural_base {
            let what =
                "`x^{(t+1)}`: the member t+1 of a sequence, or a power? (write `x^{t+1}` for a power)".to_string();
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        // `10^{10^{10}}` would be computed exactly, digit by digit: refused as a budget matter.
        if constant_magnitude(exponent).is_some_and(|e| e.abs() > MAX_EXPONENT) {
            return Err(EvalErrorKind::Budget {
                what: format!(
                    "an exponent larger than {MAX_EXPONENT} (the number would be too large to compute exactly)"
                ),
            }
            .at(span));
        }
        let b = self.eval(base, env)?;
        if b.rows == 1 && b.cols == 1 {
            let exp = self.scalar(exponent, env)?;
            return Ok(Value::scalar(b.data[0].power(&exp)));
        }
        if b.rows != b.cols || b.is_free() {
            let what = format!("a power of a {}×{} matrix (entry-wise? write it with \\odot)", b.rows, b.cols);
            return Err(EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span));
        }
        // (`P^{k+1}` with k given no value: an index nobody bounded, which a reading may try at
        // small values, not a power beyond the notation.)
        let n = self.integer(exponent, env).map_err(|e| match e.kind {
            EvalErrorKind::UnboundIndex { .. } => e,
            _ => EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: "a matrix to a non-integer power".into(),
            }
            .at(span),
        })?;
        if n.unsigned_abs() > MAX_MATRIX_POWER {
            let what = format!("a matrix to a power beyond {MAX_MATRIX_POWER}");
            return Err(EvalErrorKind::Budget { what }.at(span));
        }
        let base_matrix = if n < 0 { super::algebra::inverse(&b, span, &|| self.on_time(span))? } else { b.clone() };
        let mut acc = Value::from_fn(b.rows, b.cols, |i, j| B::S::int(i64::from(i == j)));
        for _ in 0..n.unsigned_abs() {
            acc = acc.matmul(&base_matrix, span)?;
        }
        Ok(acc)
    }

    /// `x_1 + x_2 + \cdots + x_n` (see [`crate::syntax::pattern`]): the sum of the general term
    /// over its range, its end the value the scope gives the letter (a size).
    fn pattern_sum(&self, e: &Expr, env: &Env) -> Result<Value<B::S>, EvalError> {
        let Some(p) = crate::syntax::pattern::pattern_sum(e) else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: "`\\cdots` between terms that follow no one pattern".into(),
            }
            .at(e.span));
        };
        let end = self
            .number_of(&p.letter, env)
            .ok_or_else(|| EvalErrorKind::UnboundIndex { name: p.letter.clone() }.at(e.span))?;
        let mut terms: Vec<Value<B::S>> = Vec::new();
        for t in p.before.iter().chain(&p.after) {
            terms.push(self.eval(t, env)?);
        }
        for v in p.start..=end {
            let mut inner = env.clone();
            inner.insert(p.letter.clone(), v);
            terms.push(self.eval(p.general, &inner)?);
        }
        let mut acc: Option<Value<B::S>> = None;
        for term in terms {
            acc = Some(match acc {
                None => term,
                Some(a) if p.product => a.zip(&term, "a product", e.span, false, |x, y| x.times(y))?,
                Some(a) => a.zip(&term, "a sum", e.span, false, |x, y| x.plus(y))?,
            });
        }
        Ok(acc.unwrap_or_else(|| Value::scalar(B::S::int(i64::from(p.product)))))
    }

    /// `[\partial f/\partial x_1, \ldots, \partial f/\partial x_d]` (see
    /// [`crate::syntax::pattern::pattern_list`]): the row of the written entries and the general
    /// entry over its range, its end the value the scope gives the letter (a size).
    fn pattern_list(&self, items: &[Expr], span: Span, env: &Env) -> Result<Value<B::S>, EvalError> {
        let entries = self.pattern_cells(items, span, env, &|e, env| self.scalar(e, env))?;
        Ok(Value::matrix(1, entries.len(), entries))
    }

    /// The items of a list written with dots (`a_1, \ldots, a_n`), each read by `read`: those
    /// before the pattern, the general item at each value of its letter, those after.
    fn pattern_cells<T>(
        &self,
        items: &[Expr],
        span: Span,
        env: &Env,
        read: &dyn Fn(&Expr, &Env) -> Result<T, EvalError>,
    ) -> Result<Vec<T>, EvalError> {
        let Some(p) = crate::syntax::pattern::pattern_list(items) else {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: "`\\ldots` between entries that follow no one pattern".into(),
            }
            .at(span));
        };
        let end = self
            .number_of(&p.letter, env)
            .ok_or_else(|| EvalErrorKind::UnboundIndex { name: p.letter.clone() }.at(span))?;
        let mut entries = Vec::new();
        for t in &p.before {
            entries.push(read(t, env)?);
        }
        for v in p.start..=end {
            let mut inner = env.clone();
            inner.insert(p.letter.clone(), v);
            entries.push(read(p.general, &inner)?);
        }
        for t in &p.after {
            entries.push(read(t, env)?);
        }
        Ok(entries)
    }

    /// A matrix cell: a number, or a block (`\mathbf a_1^\top`, see [`Value::from_blocks`]),
    /// with where it is written.
    fn cell(&self, e: &Expr, env: &Env) -> Result<PicturedCell<B::S>, EvalError> {
        let v = self.eval(e, env)?;
        Ok((if v.is_free() { Value::scalar(v.as_scalar(e.span, "this")?.clone()) } else { v }, e.span))
    }

    /// [`Value::from_blocks`]. Blocks that do not fit are no finding: a picture of numbers with a
    /// letter the notes use for a vector elsewhere (`\begin{bmatrix} a & b \\ c & d\end{bmatrix}`
    /// beside `\mathbf b`) says the letter is a number here — the first cell that is not one is
    /// reported, as in a picture of numbers. Numbers alone misfit only in rows of different
    /// lengths: `ragged` makes that error (only when needed: this runs at every evaluation).
    fn blocks(
        cells: Vec<Vec<PicturedCell<B::S>>>,
        ragged: impl FnOnce() -> EvalError,
    ) -> Result<Value<B::S>, EvalError> {
        let first_block = cells.iter().flatten().find(|(v, _)| !v.is_scalar()).map(|(v, at)| (v.shape(), *at));
        Value::from_blocks(cells.into_iter().map(|row| row.into_iter().map(|(v, _)| v).collect()).collect()).map_err(
            |_| match first_block {
                Some(((rows, cols), at)) => EvalErrorKind::NotScalar { what: "this".into(), rows, cols }.at(at),
                None => ragged(),
            },
        )
    }

    /// `\begin{bmatrix} a_{11} & \cdots & a_{1n} \\ \vdots & \ddots & \vdots \\ a_{m1} & \cdots &
    /// a_{mn} \end{bmatrix}`: a matrix pictured by its entries. Each row is a list with dots
    /// ([`Self::pattern_list`]); the rows hidden by the row of dots are the row after it, its
    /// row letter (read off the first column, as a list) at each value between.
    fn pictured_matrix(
        &self,
        rows: &[Vec<Option<crate::syntax::ast::Statement>>],
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        let malformed =
            |what: &str| EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what: what.into() }.at(span);
        // (Owned rows: a row is read as a list, [`Self::pattern_list`].)
        let grid: Vec<Vec<Expr>> = crate::syntax::ast::matrix_cells(rows)
            .ok_or_else(|| malformed("an empty cell in a matrix pictured with dots"))?
            .into_iter()
            .map(|r| r.into_iter().cloned().collect())
            .collect();
        let is_dots = |e: &Expr| matches!(e.kind, ExprKind::Ellipsis);
        let row_of_dots = |r: &Vec<Expr>| r.iter().all(is_dots);
        let row_values = |row: &[Expr], env: &Env| -> Result<Vec<PicturedCell<B::S>>, EvalError> {
            if row.iter().any(is_dots) {
                self.pattern_cells(row, span, env, &|e, env| self.cell(e, env))
            } else {
                row.iter().map(|c| self.cell(c, env)).collect()
            }
        };
        let mut out: Vec<Vec<PicturedCell<B::S>>> = Vec::new();
        match grid.iter().position(row_of_dots) {
            None => {
                for row in &grid {
                    out.push(row_values(row, env)?);
                }
            }
            Some(at) => {
                let first_column: Vec<Expr> = grid.iter().map(|r| r[0].clone()).collect();
                let pattern = crate::syntax::pattern::pattern_list(&first_column)
                    .filter(|p| p.after.is_empty() && at + 1 == grid.len() - 1)
                    .ok_or_else(|| malformed("rows between `\\vdots` that follow no one pattern"))?;
                let end = self
                    .number_of(&pattern.letter, env)
                    .ok_or_else(|| EvalErrorKind::UnboundIndex { name: pattern.letter.clone() }.at(span))?;
                // The rows written before the dots are the general row at consecutive values,
                // cell by cell (the first column alone says nothing of the others).
                let general_row = &grid[at + 1];
                for (row, v) in grid[pattern.before.len()..at].iter().zip(pattern.start..) {
                    let fits = row.len() == general_row.len()
                        && row.iter().zip(general_row).all(|(cell, general)| match (is_dots(cell), is_dots(general)) {
                            (true, true) => true,
                            (false, false) => crate::syntax::pattern::is_instance(general, cell, &pattern.letter, v),
                            _ => false,
                        });
                    if !fits {
                        return Err(malformed("rows above `\\vdots` that are not the row below it"));
                    }
                }
                for row in &grid[..pattern.before.len()] {
                    out.push(row_values(row, env)?);
                }
                for v in pattern.start..=end {
                    let mut inner = env.clone();
                    inner.insert(pattern.letter.clone(), v);
                    out.push(row_values(&grid[at + 1], &inner)?);
                }
            }
        }
        let ragged = || malformed("a matrix pictured with dots whose rows differ in length");
        if out.first().is_none_or(Vec::is_empty) {
            return Err(ragged());
        }
        Self::blocks(out, ragged)
    }

    fn big_op(&self, op: &BigOpKind, parts: BigOpParts, env: &Env) -> Result<Value<B::S>, EvalError> {
        if *op == BigOpKind::Int {
            return self.integral(parts, env);
        }
        if *op == BigOpKind::Lim {
            return self.limit_of(parts, env);
        }
        let BigOpParts { lower, upper, body, span } = parts;
        let extremum = matches!(op, BigOpKind::Max | BigOpKind::Min);
        if !matches!(op, BigOpKind::Sum | BigOpKind::Prod) && !extremum {
            return Err(
                EvalErrorKind::Unsupported { category: NotRead::Outside, what: format!("\\{}", op.name()) }.at(span)
            );
        }
        let pick = |a: &B::S, b: &B::S| super::algebra::extremum(a, b, *op == BigOpKind::Max);
        if extremum && lower.is_none() {
            let Some(items) = crate::syntax::ast::listed(body) else {
                // `\max |x_i|`: the largest of one value is that value, so a lone expression whose
                // index has no value here is taken over that index's range, as `\max_i |x_i|`
                // ([`crate::syntax::ast::lone_extremum`]).
                return match self.eval(body, env) {
                    Err(EvalError { kind: EvalErrorKind::UnboundIndex { name }, .. }) => {
                        let index = Expr::new(ExprKind::Symbol(crate::syntax::ast::Symbol::plain(&name)), span);
                        self.big_op(op, BigOpParts { lower: Some(&index), upper, body, span }, env)
                    }
                    one => one,
                };
            };
            // `\max(a, b)`, `\max(0, x)`: of the listed values, entry by entry.
            let mut acc: Option<Value<B::S>> = None;
            for item in items {
                let v = self.eval(item, env)?;
                acc = Some(match acc {
                    None => v,
                    Some(a) => a.zip(&v, "a maximum", span, true, pick)?,
                });
            }
            return acc.ok_or(
                EvalErrorKind::Unsupported {
                    category: NotRead::Malformed,
                    what: format!("\\{} of nothing", op.name()),
                }
                .at(span),
            );
        }
        let lower = lower.ok_or(
            EvalErrorKind::Unsupported { category: NotRead::Malformed, what: "a sum without an index".into() }.at(span),
        )?;
        let assignments = self.summation_range(lower, upper, body, env)?;
        let mut acc: Option<Value<B::S>> = None;
        for inner_env in assignments {
            let term = self.eval(body, &inner_env)?;
            acc = Some(match acc {
                None => term,
                Some(a) if *op == BigOpKind::Sum => a.zip(&term, "a sum", span, false, |x, y| x.plus(y))?,
                Some(a) if extremum => a.zip(&term, "a maximum", span, false, pick)?,
                Some(a) => a.zip(&term, "a product", span, false, |x, y| x.times(y))?,
            });
        }
        match acc {
            Some(v) => Ok(v),
            None if extremum => Err(EvalErrorKind::Unsupported {
                category: NotRead::Outside,
                what: format!("\\{} over an empty range", op.name()),
            }
            .at(span)),
            None => Ok(Value::scalar(B::S::int(i64::from(*op == BigOpKind::Prod)))),
        }
    }

    pub(super) fn matrix_literal(
        &self,
        rows: &[Vec<Option<crate::syntax::ast::Statement>>],
        span: Span,
        env: &Env,
    ) -> Result<Value<B::S>, EvalError> {
        let dots = |cell: &Option<crate::syntax::ast::Statement>| {
            cell.as_ref()
                .and_then(|s| s.chains.first())
                .and_then(|c| c.first.as_ref())
                .is_some_and(|e| matches!(e.kind, ExprKind::Ellipsis))
        };
        if rows.iter().flatten().any(dots) {
            return self.pictured_matrix(rows, span, env);
        }
        let cols = rows.first().map(Vec::len).unwrap_or(0);
        let ragged = || {
            EvalErrorKind::Unsupported {
                category: NotRead::Malformed,
                what: "a matrix with rows of different lengths".into(),
            }
            .at(span)
        };
        let mut cells = Vec::new();
        for row in rows {
            if row.len() != cols {
                return Err(ragged());
            }
            let mut line = Vec::new();
            for cell in row {
                let expr = cell.as_ref().and_then(|s| s.chains.first()).and_then(|c| c.first.as_ref()).ok_or(
                    EvalErrorKind::Unsupported { category: NotRead::Malformed, what: "an empty matrix cell".into() }
                        .at(span),
                )?;
                line.push(self.cell(expr, env)?);
            }
            cells.push(line);
        }
        Self::blocks(cells, ragged)
    }
}

/// A cell of a pictured matrix, evaluated, and where it is written.
type PicturedCell<S> = (Value<S>, Span);

/// Entry of a value at 1-based indices: one index for a vector, two for a matrix.
fn component<S: Scalar>(value: &Value<S>, indices: &[i64], span: Span) -> Result<Value<S>, EvalError> {
    let check = |name: &str, v: i64, max: usize| -> Result<usize, EvalError> {
        if v >= 1 && (v as usize) <= max {
            Ok(v as usize - 1)
        } else {
            Err(EvalErrorKind::IndexOutOfRange { name: name.to_string(), value: v, max }.at(span))
        }
    };
    match indices {
        [k] if value.rows == 1 => Ok(Value::scalar(value.at(0, check("index", *k, value.cols)?).clone())),
        [k] if value.cols == 1 => Ok(Value::scalar(value.at(check("index", *k, value.rows)?, 0).clone())),
        [i, j] => Ok(Value::scalar(value.at(check("row", *i, value.rows)?, check("column", *j, value.cols)?).clone())),
        _ => Err(EvalErrorKind::Unsupported {
            category: NotRead::Malformed,
            what: format!("{} indices on a {}×{} value", indices.len(), value.rows, value.cols),
        }
        .at(span)),
    }
}

/// The internal name of a leaf and how the notes write it: (`vWx5fQ_1`, `W_Q_{1}`).
pub fn leaf_name(key: &str, indices: &[i64]) -> (String, String) {
    if indices.is_empty() {
        return (sanitize(key), key.to_string());
    }
    let list: Vec<String> = indices.iter().map(i64::to_string).collect();
    // (A variable name may not hold `-`: index -1 is written `m1`.)
    let named: Vec<String> =
        indices.iter().map(|i| if *i < 0 { format!("m{}", i.unsigned_abs()) } else { i.to_string() }).collect();
    (format!("{}_{}", sanitize(key), named.join("_")), format!("{key}_{{{}}}", list.join(",")))
}

/// Leaf indices for entry (i, j) of an r×c matrix: vectors get one index.
pub fn leaf_indices(r: usize, c: usize, i: usize, j: usize) -> Vec<i64> {
    match (r, c) {
        (1, _) => vec![j as i64 + 1],
        (_, 1) => vec![i as i64 + 1],
        _ => vec![i as i64 + 1, j as i64 + 1],
    }
}

/// A Symbolica-safe variable name for a key (`\bar{X}` -> `x5cbarx7bXx7d`).
pub fn sanitize(key: &str) -> String {
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

/// A letter (Latin or Greek, with accents, bold, a label or a subscript) that may stand for an
/// unknown number. `\mathbb E`, `\mathcal N`, `\mathrm{foo}`, `\infty` are not: they mean
/// something derivcheck does not know, so it refuses them instead of guessing.
fn plain_symbol(e: &Expr) -> bool {
    const NOT_LETTERS: [&str; 17] = [
        "infty",
        "nabla",
        "emptyset",
        "varnothing",
        "forall",
        "exists",
        "star",
        "bullet",
        "top",
        "cdot",
        "odot",
        "circ",
        "times",
        "otimes",
        "ast",
        "aleph",
        "hbar",
    ];
    match &e.kind {
        ExprKind::Symbol(s) => {
            let letter = (s.name.chars().count() == 1 && s.name.chars().all(char::is_alphabetic))
                || (crate::syntax::is_greek_or_symbol_name(&s.name) && !NOT_LETTERS.contains(&s.name.as_str()));
            letter && matches!(s.style, None | Some(crate::syntax::ast::Style::Bold))
        }
        ExprKind::Subscript { base, .. } => plain_symbol(base),
        _ => true,
    }
}

/// The value a label takes in a leaf's name ([`Instance::labelled`]): beyond every size, so no
/// entry of anything the claim ranges over; the n-th label of the scope takes n times it.
pub(super) const LABEL_VALUE: i64 = 1_000_000;

/// Is `value` in a label's range ([`LABEL_VALUE`], give or take an offset `x_{t-1}` writes)?
/// Such a value names a leaf and nothing else: as a number (a bound, an exponent, a condition)
/// it is no value ([`Instance::is_label`]).
fn is_label_value(value: i64) -> bool {
    value.abs() >= LABEL_VALUE / 2
}

/// Does every family the scope defines by one index (`c_t = f_t c_{t-1} + …`) use its members,
/// and other families' members, at its own step or older ones only (`x_t`, `x_{t-k}`), never a
/// newer one (`x_{t+1}`)? Then a member at an older step never depends on a newer one.
fn defined_forward(scope: &Scope) -> bool {
    fn older_or_same(index: &Expr, step: &str) -> bool {
        crate::sema::recurrence::lag(index, step).is_some() || !mentions_symbol(index, step)
    }
    fn uses(e: &Expr, scope: &Scope, step: &str) -> bool {
        let here = match &e.kind {
            ExprKind::Subscript { base, index } => base
                .symbol_key()
                .is_some_and(|k| scope.defs.get(&k).is_some_and(|d| !d.function && d.params.len() == 1))
                .then(|| older_or_same(index, step)),
            _ => None,
        };
        here.unwrap_or(true) && e.children().all(|c| uses(c, scope, step))
    }
    scope.defs.values().filter(|d| !d.function && d.params.len() == 1).all(|d| uses(&d.body, scope, &d.params[0]))
}

/// `key` marked in progress, entered at `args` (see [`Instance::in_progress`]); `false` where it
/// already is (a cycle), which leaves the first entry as it was.
pub(super) fn enter(in_progress: &RefCell<HashMap<String, Vec<i64>>>, key: &str, args: &[i64]) -> bool {
    match in_progress.borrow_mut().entry(key.to_string()) {
        std::collections::hash_map::Entry::Occupied(_) => false,
        std::collections::hash_map::Entry::Vacant(slot) => {
            slot.insert(args.to_vec());
            true
        }
    }
}

/// Does the symbol `key` occur anywhere in `e`? (Which indices a definition can depend on.)
pub(super) fn mentions_symbol(e: &Expr, key: &str) -> bool {
    matches!(&e.kind, ExprKind::Symbol(s) if s.to_string() == key) || e.children().any(|c| mentions_symbol(c, key))
}

/// Exponents beyond this are refused (as a budget): no notes need them, and exact arithmetic on
/// the result would not end.
const MAX_EXPONENT: f64 = 10_000.0;
const MAX_MATRIX_POWER: u64 = 64;

/// The value of an expression made of numbers only (`10^{10}`, `2^{2^{2}}`, `-3`), as a float
/// (infinite when it overflows); `None` when it holds anything else.
fn constant_magnitude(e: &Expr) -> Option<f64> {
    match &e.kind {
        ExprKind::Number { value } => value.parse::<f64>().ok(),
        ExprKind::Neg { operand } => constant_magnitude(operand).map(|v| -v),
        ExprKind::Fenced { inner: Some(inner), .. } => constant_magnitude(inner),
        ExprKind::Power { base, exponent } => Some(constant_magnitude(base)?.powf(constant_magnitude(exponent)?)),
        ExprKind::Binary { op, lhs, rhs } => {
            let (l, r) = (constant_magnitude(lhs)?, constant_magnitude(rhs)?);
            match op {
                BinOp::Add => Some(l + r),
                BinOp::Sub => Some(l - r),
                BinOp::Implicit | BinOp::Cdot | BinOp::Times => Some(l * r),
                _ => None,
            }
        }
        _ => None,
    }
}

/// A construct the evaluator does not read, named as TeX (`x'`, `\textrm{Var}`), as the user
/// wrote it, not as the parser's tree.
pub(super) fn unsupported(e: &Expr) -> EvalError {
    let written = format!("`{}`", crate::syntax::print::explicit_tex(e, &|_| false));
    // (`\mathbf{X X}^{\top}`: a style around a product that a script follows, left unread.)
    let product =
        |o: &Expr| matches!(o.kind, ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. });
    let (category, what) = match &e.kind {
        ExprKind::Styled { operand, .. } if product(operand) => (NotRead::Ambiguous, super::script_reach(&written)),
        _ => (NotRead::Outside, written),
    };
    EvalErrorKind::Unsupported { category, what }.at(e.span)
}

/// The last factor of an implicit product (`E` in `2E`), or the expression itself.
/// `\mathbb E`, `\mathbb P`, `\mathbb V`: an expectation, probability or variance, never a number
/// (`\mathbb{E}_i \nabla f_i(\mathbf x)` is an expectation over i written without a bracket).
fn is_operator_letter(key: &str) -> bool {
    matches!(key, "\\mathbb{E}" | "\\mathbb{P}" | "\\mathbb{V}" | "\\operatorname{E}" | "\\mathrm{E}")
}

fn operator_without_bracket(key: &str, span: Span) -> EvalError {
    let what = format!("`{key}` outside a bracket: an expectation or probability over what? (write `{key}[…]`)");
    EvalErrorKind::Unsupported { category: NotRead::Ambiguous, what }.at(span)
}

/// An ellipsis written as a term of this chain of `+` (`x_1 + \cdots + x_n`), or as a factor of
/// this product (`x_1 x_2 \cdots x_n`).
fn has_dots_term(e: &Expr) -> bool {
    fn chain(e: &Expr, ops: &[BinOp]) -> bool {
        match &e.kind {
            ExprKind::Binary { op, lhs, rhs } if ops.contains(op) => chain(lhs, ops) || chain(rhs, ops),
            kind => matches!(kind, ExprKind::Ellipsis),
        }
    }
    match &e.kind {
        ExprKind::Binary { op: BinOp::Add, .. } => chain(e, &[BinOp::Add]),
        _ => chain(e, &[BinOp::Implicit, BinOp::Cdot, BinOp::Times]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A leaf's variable name is one a CAS takes (letters, digits, `_`), whatever the key and
    /// indices (`x_{-1}`: index -1, as in bi-rnn's `h_{t-1}` at t = 0), and distinct indices name
    /// distinct variables.
    #[test]
    fn leaf_names_are_plain_and_distinct() {
        let names: Vec<String> = [vec![-1], vec![1], vec![11], vec![1, 1], vec![-1, 1], vec![1, -1]]
            .iter()
            .map(|i| leaf_name("h", i).0)
            .collect();
        for name in &names {
            assert!(name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'), "{name}");
        }
        let distinct: std::collections::BTreeSet<&String> = names.iter().collect();
        assert_eq!(distinct.len(), names.len(), "{names:?}");
        assert_eq!(leaf_name("h", &[-1]).1, "h_{-1}");
    }
}
