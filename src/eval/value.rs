//! Values at a concrete size: scalars, vectors and matrices over a [`Scalar`] domain.
//!
//! A dimension may be *free*: the all-ones `\mathbf 1` has the shape its context gives it, so its
//! length is unknown until it meets something of known shape (`\mathbf 1^\top\bar Y` sums the
//! rows of Ȳ; `u-\mu\mathbf 1` subtracts μ from every entry of u). A free dimension is stored
//! once (length 1) and all entries along it are equal; it takes a length when combined with a
//! known one. Where nothing decides it (`\mathbf 1^\top\mathbf 1`), the value is refused as
//! ambiguous rather than guessed.

use super::scalar::Scalar;
use super::{EvalError, EvalErrorKind};
use crate::model::NotRead;
use crate::syntax::ast::Span;

/// A `rows × cols` matrix, row-major; a scalar is 1×1. `free_rows`/`free_cols` mark dimensions
/// whose length the context decides (stored as 1).
#[derive(Clone, Debug)]
pub struct Value<S> {
    pub rows: usize,
    pub cols: usize,
    pub data: Vec<S>,
    pub free_rows: bool,
    pub free_cols: bool,
}

/// Two blocks of a matrix that do not fit: the shapes that met (rows × columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BlockMisfit {
    pub left: (usize, usize),
    pub right: (usize, usize),
}

impl<S> Value<S> {
    pub fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    /// A matrix made of blocks: each row of `cells` side by side (all as tall), the rows stacked
    /// (all as wide). Numbers are 1×1 blocks, so a picture of numbers is the plain matrix;
    /// `\begin{bmatrix}\mathbf a_1^\top \\ \mathbf a_2^\top\end{bmatrix}` stacks two rows. (The
    /// evaluator makes a free `\mathbf 1` a number first.) Blocks that do not fit give the two
    /// shapes that met.
    pub fn from_blocks(cells: Vec<Vec<Self>>) -> Result<Self, BlockMisfit> {
        let mut data: Vec<S> = Vec::new();
        let (mut height_so_far, mut width) = (0, None);
        for row in cells {
            let height = row.first().map_or(0, |b| b.rows);
            if let Some(block) = row.iter().find(|b| b.rows != height) {
                return Err(BlockMisfit { left: (height, row[0].cols), right: block.shape() });
            }
            let strip_width: usize = row.iter().map(|b| b.cols).sum();
            match width {
                Some(w) if w != strip_width => {
                    return Err(BlockMisfit { left: (height_so_far, w), right: (height, strip_width) })
                }
                _ => width = Some(strip_width),
            }
            // (Moved, not cloned: each block gives its lines in turn.)
            let mut blocks: Vec<(usize, std::vec::IntoIter<S>)> =
                row.into_iter().map(|b| (b.cols, b.data.into_iter())).collect();
            for _ in 0..height {
                for (cols, entries) in &mut blocks {
                    data.extend(entries.by_ref().take(*cols));
                }
            }
            height_so_far += height;
        }
        Ok(Value { rows: height_so_far, cols: width.unwrap_or(0), data, free_rows: false, free_cols: false })
    }
}

impl<S: Scalar> Value<S> {
    pub fn scalar(a: S) -> Self {
        Value { rows: 1, cols: 1, data: vec![a], free_rows: false, free_cols: false }
    }

    /// `\mathbf 1`: all entries `a`, of whatever shape the context gives.
    pub fn uniform(a: S) -> Self {
        Value { rows: 1, cols: 1, data: vec![a], free_rows: true, free_cols: true }
    }

    /// `\mathbf 1^\top`: a row of entries `a` whose length the context gives.
    pub fn uniform_row(a: S) -> Self {
        Value { rows: 1, cols: 1, data: vec![a], free_rows: false, free_cols: true }
    }

    pub fn matrix(rows: usize, cols: usize, data: Vec<S>) -> Self {
        debug_assert_eq!(rows * cols, data.len());
        Value { rows, cols, data, free_rows: false, free_cols: false }
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

    /// A known 1×1 value (a free one is not a scalar: its length is not known to be 1).
    pub fn is_scalar(&self) -> bool {
        self.rows == 1 && self.cols == 1 && !self.is_free()
    }

    pub fn is_free(&self) -> bool {
        self.free_rows || self.free_cols
    }

    pub fn at(&self, i: usize, j: usize) -> &S {
        &self.data[i * self.cols + j]
    }

    /// The one entry of a scalar. Where only a scalar fits, a free `\mathbf 1` is the number 1.
    pub fn as_scalar(&self, span: Span, what: &str) -> Result<&S, EvalError> {
        if self.rows == 1 && self.cols == 1 {
            Ok(&self.data[0])
        } else {
            Err(EvalErrorKind::NotScalar { what: what.to_string(), rows: self.rows, cols: self.cols }.at(span))
        }
    }

    /// Fails on a free dimension: summing over all entries needs their number.
    pub fn concrete(&self, span: Span, what: &str) -> Result<&Self, EvalError> {
        if self.is_free() {
            return Err(EvalErrorKind::Unsupported {
                category: NotRead::Ambiguous,
                what: format!("{what} of \\mathbf 1 whose length nothing here decides"),
            }
            .at(span));
        }
        Ok(self)
    }

    pub fn map(&self, f: impl Fn(&S) -> S) -> Self {
        Value { data: self.data.iter().map(f).collect(), ..self.clone_shape() }
    }

    fn clone_shape(&self) -> Value<S> {
        Value {
            rows: self.rows,
            cols: self.cols,
            data: Vec::new(),
            free_rows: self.free_rows,
            free_cols: self.free_cols,
        }
    }

    pub fn transpose(&self) -> Self {
        let mut t = Value::from_fn(self.cols, self.rows, |i, j| self.at(j, i).clone());
        t.free_rows = self.free_cols;
        t.free_cols = self.free_rows;
        t
    }

    /// This value with free dimensions given lengths (`None` keeps a dimension as it is).
    pub fn resolve(&self, rows: Option<usize>, cols: Option<usize>) -> Self {
        let r = rows.filter(|_| self.free_rows);
        let c = cols.filter(|_| self.free_cols);
        if r.is_none() && c.is_none() {
            return self.clone();
        }
        let (nr, nc) = (r.unwrap_or(self.rows), c.unwrap_or(self.cols));
        let mut v = Value::from_fn(nr, nc, |i, j| {
            let (si, sj) = (if r.is_some() { 0 } else { i }, if c.is_some() { 0 } else { j });
            self.at(si, sj).clone()
        });
        v.free_rows = self.free_rows && r.is_none();
        v.free_cols = self.free_cols && c.is_none();
        v
    }

    /// Both values with free dimensions resolved against each other (for entry-wise work).
    fn unify(&self, other: &Self) -> (Self, Self) {
        let rows = |a: &Self, b: &Self| (a.free_rows && !b.free_rows).then_some(b.rows);
        let cols = |a: &Self, b: &Self| (a.free_cols && !b.free_cols).then_some(b.cols);
        (self.resolve(rows(self, other), cols(self, other)), other.resolve(rows(other, self), cols(other, self)))
    }

    /// Entry-wise combination; a scalar stretches to the other shape only where `allow_scalar`
    /// (products by a scalar); free dimensions take the other side's length.
    pub fn zip(
        &self,
        other: &Self,
        op: &str,
        span: Span,
        allow_scalar: bool,
        f: impl Fn(&S, &S) -> S,
    ) -> Result<Self, EvalError> {
        if allow_scalar && self.is_scalar() && !other.is_scalar() {
            return Ok(other.map(|y| f(&self.data[0], y)));
        }
        if allow_scalar && other.is_scalar() && !self.is_scalar() {
            return Ok(self.map(|x| f(x, &other.data[0])));
        }
        let (a, b) = self.unify(other);
        if a.shape() == b.shape() {
            let data = a.data.iter().zip(&b.data).map(|(x, y)| f(x, y)).collect();
            return Ok(Value {
                data,
                free_rows: a.free_rows && b.free_rows,
                free_cols: a.free_cols && b.free_cols,
                ..a.clone_shape()
            });
        }
        if a.is_scalar() && allow_scalar {
            return Ok(b.map(|y| f(&a.data[0], y)));
        }
        if b.is_scalar() && allow_scalar {
            return Ok(a.map(|x| f(x, &b.data[0])));
        }
        Err(EvalErrorKind::ShapeMismatch { op: op.to_string(), left: self.shape(), right: other.shape() }.at(span))
    }

    /// Sums and differences: equal shapes, a scalar stretched to the other shape, or a row
    /// vector added to every row (a bias `XW_1+b_1`).
    pub fn add_like(&self, other: &Self, op: &str, span: Span, f: impl Fn(&S, &S) -> S) -> Result<Self, EvalError> {
        let row_bias =
            |m: &Self, row: &Self| !m.is_free() && !row.is_free() && row.rows == 1 && m.rows > 1 && row.cols == m.cols;
        if row_bias(self, other) {
            return Ok(Value::from_fn(self.rows, self.cols, |i, j| f(self.at(i, j), other.at(0, j))));
        }
        if row_bias(other, self) {
            return Ok(Value::from_fn(other.rows, other.cols, |i, j| f(self.at(0, j), other.at(i, j))));
        }
        self.zip(other, op, span, true, f)
    }

    /// Matrix product; a scalar on either side scales. A free inner dimension takes the other
    /// side's length; two free inner dimensions are ambiguous.
    pub fn matmul(&self, other: &Self, span: Span) -> Result<Self, EvalError> {
        if self.is_scalar() || other.is_scalar() {
            return self.zip(other, "product", span, true, S::times);
        }
        let (a, b) = match (self.free_cols, other.free_rows) {
            (true, true) => {
                return Err(EvalErrorKind::Unsupported {
                    category: NotRead::Ambiguous,
                    what: "a product over \\mathbf 1 whose length nothing here decides".into(),
                }
                .at(span))
            }
            (true, false) => (self.resolve(None, Some(other.rows)), other.clone()),
            (false, true) => (self.clone(), other.resolve(Some(self.cols), None)),
            (false, false) => (self.clone(), other.clone()),
        };
        if a.cols != b.rows {
            return Err(EvalErrorKind::ShapeMismatch {
                op: "matrix product".into(),
                left: a.shape(),
                right: b.shape(),
            }
            .at(span));
        }
        let mut product = match S::fast_matmul(&a.data, &b.data, a.rows, a.cols, b.cols) {
            Some(data) => Value::matrix(a.rows, b.cols, data),
            None => Value::from_fn(a.rows, b.cols, |i, j| {
                (0..a.cols).fold(S::int(0), |acc, k| acc.plus(&a.at(i, k).times(b.at(k, j))))
            }),
        };
        product.free_rows = a.free_rows;
        product.free_cols = b.free_cols;
        Ok(product)
    }

    pub fn size_hint(&self) -> usize {
        self.data.iter().map(S::size).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(rows: usize, cols: usize, data: &[f64]) -> Value<f64> {
        Value { rows, cols, data: data.to_vec(), free_rows: false, free_cols: false }
    }

    #[test]
    fn blocks_stack_side_by_side_then_down() {
        // Two rows of a matrix, each a 1×2 block: the 2×2 matrix.
        let rows = vec![vec![numbers(1, 2, &[1.0, 2.0])], vec![numbers(1, 2, &[3.0, 4.0])]];
        let m = Value::from_blocks(rows).expect("fits");
        assert_eq!((m.shape(), m.data.clone()), ((2, 2), vec![1.0, 2.0, 3.0, 4.0]));
        // Two columns side by side.
        let cols = vec![vec![numbers(2, 1, &[1.0, 3.0]), numbers(2, 1, &[2.0, 4.0])]];
        let m = Value::from_blocks(cols).expect("fits");
        assert_eq!((m.shape(), m.data.clone()), ((2, 2), vec![1.0, 2.0, 3.0, 4.0]));
        // Numbers are 1×1 blocks.
        let one = |a: f64| numbers(1, 1, &[a]);
        let plain = vec![vec![one(1.0), one(2.0)], vec![one(3.0), one(4.0)]];
        assert_eq!(Value::from_blocks(plain).expect("fits").data, vec![1.0, 2.0, 3.0, 4.0]);
    }

    #[test]
    fn blocks_that_do_not_fit_give_the_shapes_that_met() {
        let tall_beside_short = vec![vec![numbers(2, 1, &[1.0, 2.0]), numbers(1, 1, &[3.0])]];
        assert!(Value::from_blocks(tall_beside_short).is_err());
        let wide_over_narrow = vec![vec![numbers(1, 2, &[1.0, 2.0])], vec![numbers(1, 1, &[3.0])]];
        assert_eq!(Value::from_blocks(wide_over_narrow).err(), Some(BlockMisfit { left: (1, 2), right: (1, 1) }));
    }
}
