//! Derivatives, adjoints (bars) and differentials.
//!
//! `∂f/∂x` for a leaf x is Symbolica's derivative (a gradient for a matrix x, a Jacobian for
//! vector by vector). For an x that is *defined* (Z = AV), the derivative flows only through
//! what is downstream of x: f is expanded with x kept as an opaque leaf, differentiated, and
//! x's value substituted back. `\bar Y` is ∂L/∂Y for the section's loss L. `d f` is
//! Σ ∂f/∂v dv over the leaves v of the section's `vary` symbols.

use super::instantiate::{Env, Instance};
use super::value::Value;
use super::EvalError;
use crate::syntax::ast::{Accent, Expr, ExprKind, Span};
use symbolica::prelude::*;

impl Instance<'_> {
    /// ∂of/∂wrt.
    pub fn derivative(&self, of: &Expr, wrt: &Expr, env: &Env) -> Result<Value, EvalError> {
        if let Some(key) = wrt.symbol_key().filter(|k| self.is_defined_value(k)) {
            return self.derivative_through(key.as_str(), wrt.span, |inner| inner.eval(of, env));
        }
        let f = self.eval(of, env)?;
        let x = self.eval(wrt, env)?;
        differentiate(&f, &x, wrt.span, of.span)
    }

    /// A definition without parameters (a matrix or scalar quantity of the section).
    fn is_defined_value(&self, key: &str) -> bool {
        self.scope.defs.get(key).is_some_and(|d| d.params.is_empty())
    }

    /// ∂f/∂Y for a defined Y: f evaluated with Y opaque, differentiated by Y's leaves, and Y's
    /// value substituted back for them.
    fn derivative_through(&self, key: &str, span: Span, f: impl FnOnce(&Instance) -> Result<Value, EvalError>) -> Result<Value, EvalError> {
        let inner = Instance::new(self.scope, self.sizes, Some(key), self.budget);
        let value = f(&inner)?;
        let leaf = inner.opaque_leaf(key, span)?;
        let gradient = differentiate(&value, &leaf, span, span)?;
        self.names.borrow_mut().extend(inner.names.borrow().clone());
        let actual = self.named(key, &Expr::new(ExprKind::Empty, span), &Env::new())?;
        let substitutions: Vec<Replacement> =
            leaf.data.iter().zip(&actual.data).map(|(l, a)| Replacement::new(l.to_pattern(), a.to_pattern())).collect();
        Ok(gradient.map(|g| g.replace_multiple(&substitutions)))
    }

    /// Is `\bar Y` (with `target` = Y's key) to be read as the adjoint ∂L/∂Y here?
    pub(super) fn is_adjoint_target(&self, barred: &Expr, target: &str) -> bool {
        let declared_as_such = barred.symbol_key().is_some_and(|k| self.scope.knows(&k));
        self.scope.loss.is_some() && !declared_as_such && (self.scope.knows(target) || self.scope.defs.contains_key(target))
    }

    /// `\bar Y` = ∂L/∂Y, cached per instance.
    pub(super) fn adjoint(&self, target: &str, span: Span) -> Result<Value, EvalError> {
        if let Some(v) = self.adjoints.borrow().get(target) {
            return Ok(v.clone());
        }
        let loss = self.scope.loss.clone().ok_or(EvalError::Unsupported { what: "a bar without a loss (set `loss` in the spec)".into(), span })?;
        let loss_expr = Expr::new(ExprKind::Empty, span);
        let value = if self.is_defined_value(target) {
            self.derivative_through(target, span, |inner| inner.named(&loss, &loss_expr, &Env::new()))?
        } else {
            let l = self.named(&loss, &loss_expr, &Env::new())?;
            let x = self.named(target, &loss_expr, &Env::new())?;
            differentiate(&l, &x, span, span)?
        };
        self.adjoints.borrow_mut().insert(target.to_string(), value.clone());
        Ok(value)
    }

    /// `d f`: Σ over the leaves v of the `vary` symbols of ∂f/∂v · dv.
    pub(super) fn differential(&self, operand: &Expr, env: &Env) -> Result<Value, EvalError> {
        if self.scope.vary.is_empty() {
            return Err(EvalError::Unsupported { what: "a differential (declare `vary` in the spec)".into(), span: operand.span });
        }
        let f = self.eval(operand, env)?;
        let mut leaves: Vec<(Symbol, Atom)> = Vec::new();
        for key in &self.scope.vary {
            for atom in self.named(key, operand, &Env::new())?.data {
                let AtomView::Var(v) = atom.as_view() else { continue };
                let name = format!("d{}", v.get_symbol().get_stripped_name());
                let shown = format!("d{}", super::compare::shown(self, &atom.to_string()));
                self.names.borrow_mut().insert(name.clone(), shown);
                leaves.push((v.get_symbol(), Atom::var(symbol!(name.as_str()))));
            }
        }
        Ok(f.map(|a| leaves.iter().fold(Atom::num(0), |acc, (v, dv)| acc + a.derivative(*v) * dv)))
    }
}

/// ∂f/∂x for a value x whose entries are leaf variables.
fn differentiate(f: &Value, x: &Value, wrt_span: Span, of_span: Span) -> Result<Value, EvalError> {
    let vars = x
        .data
        .iter()
        .map(|a| match a.as_view() {
            AtomView::Var(v) => Ok(v.get_symbol()),
            _ => Err(EvalError::NotALeaf { what: a.to_string(), span: wrt_span }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if f.is_scalar() {
        let fa = &f.data[0];
        return Ok(Value::matrix(x.rows, x.cols, vars.iter().map(|v| fa.derivative(*v)).collect()));
    }
    let is_vector = |v: &Value| v.rows == 1 || v.cols == 1;
    if is_vector(f) && is_vector(x) {
        return Ok(Value::from_fn(f.data.len(), vars.len(), |i, j| f.data[i].derivative(vars[j])));
    }
    Err(EvalError::Unsupported { what: format!("the derivative of a {}×{} matrix by a {}×{} one", f.rows, f.cols, x.rows, x.cols), span: of_span })
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
