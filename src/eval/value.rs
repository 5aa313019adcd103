//! Values at a concrete size: scalars, vectors and matrices over a [`Scalar`] domain.

use super::scalar::Scalar;
use super::EvalError;
use crate::syntax::ast::Span;

/// A `rows × cols` matrix, row-major; a scalar is 1×1. A `broadcast` scalar (the `\mathbf1` of
/// `\operatorname{mean}(u)\mathbf1`) takes the shape of what it is added to.
#[derive(Clone, Debug)]
pub struct Value<S> {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<S>,
    pub broadcast: bool,
}

impl<S: Scalar> Value<S> {
    pub fn scalar(a: S) -> Self {
        Value { rows: 1, cols: 1, data: vec![a], broadcast: false }
    }

    pub fn broadcast_scalar(a: S) -> Self {
        Value { rows: 1, cols: 1, data: vec![a], broadcast: true }
    }

    pub fn matrix(rows: usize, cols: usize, data: Vec<S>) -> Self {
        debug_assert_eq!(rows * cols, data.len());
        Value { rows, cols, data, broadcast: false }
    }

    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> S) -> Self {
        let mut data = Vec::with_capacity(rows * cols);
        for i in 0..rows {
            for j in 0..cols {
                data.push(f(i, j));
            }
        }
        Value::matrix(rows, cols, data)
    }

    pub fn is_scalar(&self) -> bool {
        self.rows == 1 && self.cols == 1
    }

    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    pub fn at(&self, i: usize, j: usize) -> &S {
        &self.data[i * self.cols + j]
    }

    pub fn as_scalar(&self, span: Span, what: &str) -> Result<&S, EvalError> {
        if self.is_scalar() {
            Ok(&self.data[0])
        } else {
            Err(EvalError::NotScalar { what: what.to_string(), rows: self.rows, cols: self.cols, span })
        }
    }

    pub fn map(&self, f: impl Fn(&S) -> S) -> Self {
        Value { rows: self.rows, cols: self.cols, data: self.data.iter().map(f).collect(), broadcast: self.broadcast }
    }

    pub fn transpose(&self) -> Self {
        Value::from_fn(self.cols, self.rows, |i, j| self.at(j, i).clone())
    }

    /// Entry-wise combination; scalars (and broadcast scalars) stretch to the other shape only
    /// where `allow_scalar` (products by a scalar), broadcast ones always.
    pub fn zip(&self, other: &Self, op: &str, span: Span, allow_scalar: bool, f: impl Fn(&S, &S) -> S) -> Result<Self, EvalError> {
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
    pub fn add_like(&self, other: &Self, op: &str, span: Span, f: impl Fn(&S, &S) -> S) -> Result<Self, EvalError> {
        let row_bias = |m: &Self, row: &Self| row.rows == 1 && m.rows > 1 && row.cols == m.cols;
        if row_bias(self, other) {
            return Ok(Value::from_fn(self.rows, self.cols, |i, j| f(self.at(i, j), other.at(0, j))));
        }
        if row_bias(other, self) {
            return Ok(Value::from_fn(other.rows, other.cols, |i, j| f(self.at(0, j), other.at(i, j))));
        }
        self.zip(other, op, span, true, f)
    }

    fn unbroadcast(mut self) -> Self {
        self.broadcast = false;
        self
    }

    /// Matrix product; a scalar on either side scales.
    pub fn matmul(&self, other: &Self, span: Span) -> Result<Self, EvalError> {
        if self.is_scalar() || other.is_scalar() {
            return self.zip(other, "product", span, true, S::times);
        }
        if self.cols != other.rows {
            return Err(EvalError::ShapeMismatch { op: "matrix product".into(), left: self.shape(), right: other.shape(), span });
        }
        if let Some(data) = S::fast_matmul(&self.data, &other.data, self.rows, self.cols, other.cols) {
            return Ok(Value::matrix(self.rows, other.cols, data));
        }
        Ok(Value::from_fn(self.rows, other.cols, |i, j| {
            (0..self.cols).fold(S::int(0), |acc, k| acc.plus(&self.at(i, k).times(other.at(k, j))))
        }))
    }

    pub fn size_hint(&self) -> usize {
        self.data.iter().map(S::size).sum()
    }
}
