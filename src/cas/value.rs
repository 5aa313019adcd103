//! Values at a concrete size: scalars, vectors and matrices of Symbolica atoms (worker thread only).

use super::EvalError;
use crate::syntax::ast::Span;
use symbolica::prelude::*;

/// A `rows × cols` matrix of atoms, row-major; a scalar is 1×1. A `broadcast` scalar (the
/// `\mathbf1` of `\operatorname{mean}(u)\mathbf1`) takes the shape of what it is added to.
#[derive(Clone, Debug)]
pub struct Value {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<Atom>,
    pub broadcast: bool,
}

impl Value {
    pub fn scalar(a: Atom) -> Value {
        Value { rows: 1, cols: 1, data: vec![a], broadcast: false }
    }

    pub fn broadcast_scalar(a: Atom) -> Value {
        Value { rows: 1, cols: 1, data: vec![a], broadcast: true }
    }

    pub fn matrix(rows: usize, cols: usize, data: Vec<Atom>) -> Value {
        debug_assert_eq!(rows * cols, data.len());
        Value { rows, cols, data, broadcast: false }
    }

    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> Atom) -> Value {
        let data = (0..rows).flat_map(|i| (0..cols).map(move |j| (i, j))).map(|(i, j)| f(i, j)).collect();
        Value::matrix(rows, cols, data)
    }

    pub fn is_scalar(&self) -> bool {
        self.rows == 1 && self.cols == 1
    }

    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    pub fn at(&self, i: usize, j: usize) -> &Atom {
        &self.data[i * self.cols + j]
    }

    pub fn as_scalar(&self, span: Span, what: &str) -> Result<&Atom, EvalError> {
        if self.is_scalar() {
            Ok(&self.data[0])
        } else {
            Err(EvalError::NotScalar { what: what.to_string(), rows: self.rows, cols: self.cols, span })
        }
    }

    pub fn map(&self, f: impl Fn(&Atom) -> Atom) -> Value {
        Value { rows: self.rows, cols: self.cols, data: self.data.iter().map(f).collect(), broadcast: self.broadcast }
    }

    pub fn transpose(&self) -> Value {
        Value::from_fn(self.cols, self.rows, |i, j| self.at(j, i).clone())
    }

    /// Entry-wise combination; scalars (and broadcast scalars) stretch to the other shape only
    /// where `allow_scalar` (products by a scalar), broadcast ones always.
    pub fn zip(&self, other: &Value, op: &str, span: Span, allow_scalar: bool, f: impl Fn(&Atom, &Atom) -> Atom) -> Result<Value, EvalError> {
        let stretch_left = self.is_scalar() && (self.broadcast || allow_scalar);
        let stretch_right = other.is_scalar() && (other.broadcast || allow_scalar);
        if self.shape() == other.shape() {
            let data = self.data.iter().zip(&other.data).map(|(a, b)| f(a, b)).collect();
            return Ok(Value { rows: self.rows, cols: self.cols, data, broadcast: self.broadcast && other.broadcast });
        }
        if stretch_left {
            return Ok(other.map(|b| f(&self.data[0], b)).unbroadcast());
        }
        if stretch_right {
            return Ok(self.map(|a| f(a, &other.data[0])).unbroadcast());
        }
        Err(EvalError::ShapeMismatch { op: op.to_string(), left: self.shape(), right: other.shape(), span })
    }

    /// Sums and differences: equal shapes, a scalar stretched to the other shape, or a row
    /// vector added to every row (a bias `XW_1+b_1`).
    pub fn add_like(&self, other: &Value, op: &str, span: Span, f: impl Fn(&Atom, &Atom) -> Atom) -> Result<Value, EvalError> {
        let row_bias = |m: &Value, row: &Value| row.rows == 1 && m.rows > 1 && row.cols == m.cols;
        if row_bias(self, other) {
            return Ok(Value::from_fn(self.rows, self.cols, |i, j| f(self.at(i, j), other.at(0, j))));
        }
        if row_bias(other, self) {
            return Ok(Value::from_fn(other.rows, other.cols, |i, j| f(self.at(0, j), other.at(i, j))));
        }
        self.zip(other, op, span, true, f)
    }

    fn unbroadcast(mut self) -> Value {
        self.broadcast = false;
        self
    }

    /// Matrix product; a scalar on either side scales.
    pub fn matmul(&self, other: &Value, span: Span) -> Result<Value, EvalError> {
        if self.is_scalar() || other.is_scalar() {
            return self.zip(other, "product", span, true, |a, b| a * b);
        }
        if self.cols != other.rows {
            return Err(EvalError::ShapeMismatch { op: "matrix product".into(), left: self.shape(), right: other.shape(), span });
        }
        Ok(Value::from_fn(self.rows, other.cols, |i, j| {
            (0..self.cols).fold(Atom::num(0), |acc, k| acc + self.at(i, k) * other.at(k, j))
        }))
    }

    /// Number of atoms nodes, a cheap size measure for budgets.
    pub fn size_hint(&self) -> usize {
        self.data.iter().map(|a| a.as_view().get_byte_size()).sum()
    }
}
