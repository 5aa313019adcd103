//! Shapes read off use. A letter the notes write as a vector or matrix (bold, transposed, under a
//! norm, multiplied in both orders) but never declare gets the shape its uses force, by
//! unification over the section's equations: `\mathbf x = \mathbf U\mathbf x` makes U square with
//! as many rows as x has entries; `\mathbf u^\top\mathbf v` gives u and v one length. What the
//! uses leave open follows the convention of the notation table: a lowercase letter is a column
//! vector (a row only where a use forces it), an uppercase one a matrix whose sizes are tried at 2
//! and 3 each, and `\mathbf I` is the identity. A letter whose uses disagree (a product that does
//! not fit, an equation of two shapes) is left without a shape, as before: undecided, naming it.
//!
//! Pure: chains and what is already declared in, shapes out; `sema` records them as declarations
//! of the section, and the verdicts of claims that use them say they were read off use.

use crate::syntax::ast::{BigOpKind, BinOp, Chain, Expr, ExprKind, RelOp};
use std::collections::{BTreeMap, BTreeSet};

/// A shape read off use: the letter's key and its two sizes (a number or a size's name).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InferredShape {
    pub key: String,
    pub rows: String,
    pub cols: String,
    /// `\mathbf I`: the identity of `rows` × `rows`, not a free matrix.
    pub identity: bool,
}

/// What the section already says about a letter, for [`infer`].
pub(super) struct Known<'a> {
    /// The letters to give a shape: used as vectors or matrices, neither declared nor defined.
    pub targets: &'a BTreeSet<String>,
    /// Declared shapes (the spec's `matrix`, the notes' `\in\mathbb R^{…}`), and identities as
    /// (n, n).
    pub declared: &'a BTreeMap<String, [String; 2]>,
    /// Letters the section defines (their shape comes from the definition).
    pub defined: &'a BTreeSet<String>,
    /// Every name the document writes: the names of new sizes avoid them.
    pub taken: &'a BTreeSet<String>,
}

/// The shapes the uses in `chains` force on `known.targets`, and the new sizes they name (each to
/// be tried at the default sizes).
pub(super) fn infer(chains: &[Chain], known: &Known) -> (Vec<InferredShape>, Vec<String>) {
    let mut state = Unifier::new(known);
    let mut contested = BTreeSet::new();
    for chain in chains {
        if !chain.links.iter().all(|l| matches!(l.op, RelOp::Eq | RelOp::Approx | RelOp::Define | RelOp::Assign)) {
            continue;
        }
        let saved = state.clone();
        if state.chain(chain).is_err() {
            // A use that does not fit the others: no shape is trusted for the letters it writes.
            state = saved;
            for e in chain.exprs() {
                targets_in(e, known.targets, &mut contested);
            }
        }
    }
    state.finish(&contested)
}

/// The targets an expression writes.
fn targets_in(e: &Expr, targets: &BTreeSet<String>, out: &mut BTreeSet<String>) {
    if let Some(key) = e.symbol_key().filter(|k| targets.contains(k)) {
        out.insert(key);
    }
    e.children().for_each(|c| targets_in(c, targets, out));
}

/// A use that does not fit: two different fixed sizes made one.
#[derive(Debug)]
struct Conflict;

#[derive(Debug, Clone, Copy, PartialEq)]
enum Shape {
    Scalar,
    /// Not known here (a function's value, a derivative): constrains nothing.
    Any,
    /// Rows and columns, as dimension variables.
    Mat(usize, usize),
}

/// Dimension variables with union–find; a class may be fixed to a number or a declared size.
#[derive(Clone)]
struct Unifier<'a> {
    parent: Vec<usize>,
    fixed: Vec<Option<String>>,
    letters: BTreeMap<String, (usize, usize)>,
    /// The order in which targets were first met (sizes are named in it).
    order: Vec<String>,
    /// The variables made for declared shapes.
    declared_dims: Vec<usize>,
    /// The sums from 1 to a size being read, innermost last: (letter, size).
    bounds: Vec<(String, String)>,
    known: &'a Known<'a>,
}

impl<'a> Unifier<'a> {
    fn new(known: &'a Known<'a>) -> Self {
        Unifier {
            parent: Vec::new(),
            fixed: Vec::new(),
            letters: BTreeMap::new(),
            order: Vec::new(),
            declared_dims: Vec::new(),
            bounds: Vec::new(),
            known,
        }
    }

    fn fresh(&mut self, fixed: Option<String>) -> usize {
        self.parent.push(self.parent.len());
        self.fixed.push(fixed);
        self.parent.len() - 1
    }

    fn find(&mut self, mut a: usize) -> usize {
        while self.parent[a] != a {
            self.parent[a] = self.parent[self.parent[a]];
            a = self.parent[a];
        }
        a
    }

    fn union(&mut self, a: usize, b: usize) -> Result<(), Conflict> {
        let (a, b) = (self.find(a), self.find(b));
        if a == b {
            return Ok(());
        }
        let fixed = match (self.fixed[a].take(), self.fixed[b].take()) {
            (Some(x), Some(y)) if x != y => return Err(Conflict),
            (x, y) => x.or(y),
        };
        self.parent[a] = b;
        self.fixed[b] = fixed;
        Ok(())
    }

    fn unify(&mut self, x: Shape, y: Shape) -> Result<Shape, Conflict> {
        match (x, y) {
            (Shape::Mat(a, b), Shape::Mat(c, d)) => {
                self.union(a, c)?;
                self.union(b, d)?;
                Ok(x)
            }
            (Shape::Mat(..), _) => Ok(x),
            (_, Shape::Mat(..)) => Ok(y),
            (Shape::Scalar, Shape::Scalar) => Ok(Shape::Scalar),
            _ => Ok(Shape::Any),
        }
    }

    /// The shape of a letter: declared, a target's variables, or a number.
    fn letter(&mut self, key: &str) -> Shape {
        if let Some([rows, cols]) = self.known.declared.get(key) {
            let (rows, cols) = (rows.clone(), cols.clone());
            let (r, c) = (self.fresh(Some(rows)), self.fresh(Some(cols)));
            self.declared_dims.extend([r, c]);
            return Shape::Mat(r, c);
        }
        if self.known.targets.contains(key) {
            if let Some(&(r, c)) = self.letters.get(key) {
                return Shape::Mat(r, c);
            }
            let (r, c) = (self.fresh(None), self.fresh(None));
            if is_identity(key) {
                self.parent[c] = r;
            }
            self.letters.insert(key.to_string(), (r, c));
            self.order.push(key.to_string());
            return Shape::Mat(r, c);
        }
        if self.known.defined.contains(key) {
            return Shape::Any;
        }
        Shape::Scalar
    }

    /// Unifies the sides of every link of the chain.
    fn chain(&mut self, chain: &Chain) -> Result<(), Conflict> {
        let mut shapes = Vec::new();
        for e in chain.exprs() {
            shapes.push((self.shape(e)?, is_zero(e)));
        }
        for pair in shapes.windows(2) {
            let ((x, x_zero), (y, y_zero)) = (pair[0], pair[1]);
            // `(\mathbf A-\lambda\mathbf I)\mathbf v = 0`: a written 0 is the zero of any shape.
            if !x_zero && !y_zero {
                self.unify(x, y)?;
            }
        }
        Ok(())
    }

    fn shape(&mut self, e: &Expr) -> Result<Shape, Conflict> {
        match &e.kind {
            ExprKind::Number { .. } => Ok(Shape::Scalar),
            ExprKind::Symbol(s) if s.is_bold_one() => Ok(Shape::Any),
            ExprKind::Symbol(s) => Ok(self.letter(&s.key())),
            ExprKind::Subscript { base, index } => self.subscript_shape(e, base, index),
            ExprKind::Neg { operand } => self.shape(operand),
            ExprKind::Binary { op, lhs, rhs } => {
                let (x, y) = (self.shape(lhs)?, self.shape(rhs)?);
                match op {
                    BinOp::Add | BinOp::Sub | BinOp::PlusMinus | BinOp::Hadamard => self.unify(x, y),
                    BinOp::Implicit | BinOp::Times | BinOp::Cdot => self.product(*op, lhs, rhs, x, y),
                    BinOp::Div if y == Shape::Scalar => Ok(x),
                    _ => Ok(Shape::Any),
                }
            }
            ExprKind::Frac { num, den } => {
                let (x, y) = (self.shape(num)?, self.shape(den)?);
                Ok(if y == Shape::Scalar { x } else { Shape::Any })
            }
            ExprKind::Power { base, exponent } => {
                let (x, _) = (self.shape(base)?, self.shape(exponent)?);
                match x {
                    // `A^{-1}`, `A^2`: square. A vector's power is read entry by entry in some
                    // notes (`\mathbf g_t^2`): no constraint.
                    Shape::Mat(r, c) if integer(exponent) && !lowercase_target(base, self.known.targets) => {
                        self.union(r, c)?;
                        Ok(x)
                    }
                    Shape::Mat(..) => Ok(Shape::Any),
                    other => Ok(other),
                }
            }
            ExprKind::Transpose { operand } => Ok(match self.shape(operand)? {
                Shape::Mat(r, c) => Shape::Mat(c, r),
                other => other,
            }),
            ExprKind::Sqrt { radicand, .. } => {
                let x = self.shape(radicand)?;
                Ok(if x == Shape::Scalar { x } else { Shape::Any })
            }
            ExprKind::Norm { operand } | ExprKind::Abs { operand } => {
                self.shape(operand)?;
                Ok(Shape::Scalar)
            }
            ExprKind::Apply { func, args, .. } => {
                let mut shapes = Vec::new();
                for a in args {
                    shapes.push(self.shape(a)?);
                }
                let plain = func.sub.is_none() && func.sup.is_none() && func.primes == 0;
                match (func.name.as_str(), shapes.as_slice()) {
                    ("det" | "tr" | "trace" | "Tr", [x]) => {
                        if let Shape::Mat(r, c) = *x {
                            self.union(r, c)?;
                        }
                        Ok(Shape::Scalar)
                    }
                    (name, [x]) if plain && crate::notation::is_entrywise(name) => Ok(*x),
                    _ => Ok(Shape::Any),
                }
            }
            // `\mathbf A(\mathbf x+\mathbf y)`: a vector or matrix before parentheses multiplies.
            ExprKind::Call { func, args, .. } => {
                let x = self.shape(func)?;
                let mut shapes = Vec::new();
                for a in args {
                    shapes.push(self.shape(a)?);
                }
                match (x, shapes.as_slice()) {
                    (Shape::Mat(..), [y]) => self.product(BinOp::Implicit, func, &args[0], x, *y),
                    _ => Ok(Shape::Any),
                }
            }
            ExprKind::Fenced { open, inner: Some(inner), .. } => self.fenced_shape(open, inner),
            // (Between bars, a determinant: a number.)
            ExprKind::Matrix { env, .. } if env == "vmatrix" => Ok(Shape::Scalar),
            ExprKind::Matrix { env, rows } if env.ends_with("matrix") => {
                let mut scalars = true;
                for cell in rows.iter().flatten() {
                    let single = cell.as_ref().filter(|s| s.chains.len() == 1 && s.chains[0].links.is_empty());
                    match single.and_then(|s| s.chains[0].first.as_ref()) {
                        Some(x) if !matches!(x.kind, ExprKind::Ellipsis) => scalars &= self.shape(x)? == Shape::Scalar,
                        _ => scalars = false,
                    }
                }
                let width = rows.first().map_or(0, Vec::len);
                if !scalars || rows.is_empty() || rows.iter().any(|r| r.len() != width) {
                    return Ok(Shape::Any);
                }
                let (r, c) = (self.fresh(Some(rows.len().to_string())), self.fresh(Some(width.to_string())));
                Ok(Shape::Mat(r, c))
            }
            // The gradient of a number by a vector or matrix has the variable's shape.
            ExprKind::Derivative { of, wrt, .. } => {
                let (x, y) = (self.shape(of)?, self.shape(wrt)?);
                Ok(if matches!(x, Shape::Scalar | Shape::Any) { y } else { Shape::Any })
            }
            ExprKind::BigOp { op, lower, upper, body: Some(body) } => {
                let bound = (*op == BigOpKind::Sum).then(|| sum_from_one(lower.as_deref(), upper.as_deref())).flatten();
                let pushed = bound.is_some();
                self.bounds.extend(bound);
                let x = self.shape(body);
                if pushed {
                    self.bounds.pop();
                }
                let x = x?;
                Ok(match op {
                    BigOpKind::Sum => x,
                    BigOpKind::Prod if x == Shape::Scalar => x,
                    _ => Shape::Any,
                })
            }
            _ => Ok(Shape::Any),
        }
    }

    /// The shape of `base_{index}`: a letter of its own, an entry of a vector or matrix, a
    /// member of a family, or an entry of a product.
    fn subscript_shape(&mut self, e: &Expr, base: &Expr, index: &Expr) -> Result<Shape, Conflict> {
        if let Some(key) = e.symbol_key().filter(|k| self.known.targets.contains(k)) {
            return Ok(self.letter(&key));
        }
        match base.symbol_key() {
            // An entry of a vector or matrix (`u_i`, `A_{ij}`).
            Some(key) if self.known.targets.contains(&key) || self.known.declared.contains_key(&key) => {
                self.bounded_entry(&key, index)?;
                Ok(Shape::Scalar)
            }
            Some(key) if self.known.defined.contains(&key) => Ok(Shape::Any),
            Some(_) => {
                let key = e.symbol_key();
                Ok(key.map_or(Shape::Any, |k| self.letter(&k)))
            }
            // `\|\mathbf c - \boldsymbol\delta\|_2`: a norm's operand has a shape.
            None if matches!(base.kind, ExprKind::Norm { .. } | ExprKind::Abs { .. }) => self.shape(base),
            // `(\mathbf A\mathbf B)_{ik}`: an entry of a product, whose factors must fit.
            None => {
                self.shape(base)?;
                Ok(Shape::Any)
            }
        }
    }

    /// The shape of a bracketed expression: an inner product `\langle x, y\rangle`, a list of
    /// numbers (a row, or a column where stacked), or what it encloses.
    fn fenced_shape(&mut self, open: &str, inner: &Expr) -> Result<Shape, Conflict> {
        match &inner.kind {
            ExprKind::Tuple { items, .. } if open == "\\langle" && items.len() == 2 => {
                let (x, y) = (self.shape(&items[0])?, self.shape(&items[1])?);
                self.unify(x, y)?;
                Ok(Shape::Scalar)
            }
            ExprKind::Tuple { items, stacked } if open == "[" => {
                let mut scalars = true;
                for item in items {
                    scalars &= self.shape(item)? == Shape::Scalar && !matches!(item.kind, ExprKind::Ellipsis);
                }
                if !scalars {
                    return Ok(Shape::Any);
                }
                let (one, n) = (self.fresh(Some("1".into())), self.fresh(Some(items.len().to_string())));
                Ok(if *stacked { Shape::Mat(n, one) } else { Shape::Mat(one, n) })
            }
            ExprKind::Tuple { items, .. } => {
                for item in items {
                    self.shape(item)?;
                }
                Ok(Shape::Any)
            }
            _ if open == "(" || open == "[" || open == "\\{" => self.shape(inner),
            _ => Ok(Shape::Any),
        }
    }

    /// `\sum_{i=1}^m \sum_{j=1}^n X_{ij}^2`: an entry of a matrix read off use, at an index a sum
    /// runs over from 1 to a size, makes that side of the matrix the size (X is m×n). Only for
    /// matrices (two indices): `\sum_{i=1}^t x_i` is as often a partial sum of a longer vector.
    fn bounded_entry(&mut self, key: &str, index: &Expr) -> Result<(), Conflict> {
        if !self.known.targets.contains(key) || self.bounds.is_empty() {
            return Ok(());
        }
        let Some(letters) = crate::syntax::ast::index_letters(index).or_else(|| match &index.kind {
            ExprKind::Tuple { items, .. } => items.iter().map(|i| i.symbol_key()).collect(),
            _ => None,
        }) else {
            return Ok(());
        };
        let [first, second] = letters.as_slice() else { return Ok(()) };
        let Shape::Mat(r, c) = self.letter(key) else { return Ok(()) };
        for (letter, dim) in [(first, r), (second, c)] {
            if let Some((_, size)) = self.bounds.iter().rev().find(|(l, _)| l == letter) {
                let fixed = self.fresh(Some(size.clone()));
                self.union(dim, fixed)?;
            }
        }
        Ok(())
    }

    /// `AB`, `\lambda\mathbf v`, `\mathbf v\cdot\mathbf w` (a dot product of two vectors).
    fn product(&mut self, op: BinOp, lhs: &Expr, rhs: &Expr, x: Shape, y: Shape) -> Result<Shape, Conflict> {
        match (x, y) {
            (Shape::Scalar, other) | (other, Shape::Scalar) => Ok(other),
            (Shape::Mat(a, b), Shape::Mat(c, d)) => {
                let vectors = lowercase_target(lhs, self.known.targets) && lowercase_target(rhs, self.known.targets);
                if op == BinOp::Cdot && vectors {
                    self.unify(x, y)?;
                    return Ok(Shape::Scalar);
                }
                self.union(b, c)?;
                Ok(Shape::Mat(a, d))
            }
            _ => Ok(Shape::Any),
        }
    }

    /// The shapes of the targets every use agreed on, with new sizes named for what is left
    /// free.
    fn finish(mut self, contested: &BTreeSet<String>) -> (Vec<InferredShape>, Vec<String>) {
        let mut order: Vec<String> = self.order.iter().filter(|k| !contested.contains(*k)).cloned().collect();
        // The sizes of matrices: a vector's free side that is one of them is its length, not 1
        // (`\boldsymbol\pi=\boldsymbol\pi\mathbf P` makes π a row).
        let mut matrix_dims: Vec<usize> = self.declared_dims.clone();
        matrix_dims.extend(self.letters.iter().filter(|(k, _)| !lowercase(k)).flat_map(|(_, &(r, c))| [r, c]));
        let matrix_roots: BTreeSet<usize> = matrix_dims.into_iter().map(|d| self.find(d)).collect();
        // A lowercase letter is a vector: a column unless a use makes it a row.
        let mut undecidable = BTreeSet::new();
        for key in &order {
            let (r, c) = self.letters[key];
            if !lowercase(key) {
                continue;
            }
            let (r, c) = (self.find(r), self.find(c));
            let (fr, fc) = (self.fixed[r].clone(), self.fixed[c].clone());
            let one = Some("1".to_string());
            match (fr, fc) {
                (None, None) if !matrix_roots.contains(&c) => self.fixed[c] = one,
                (None, None) if !matrix_roots.contains(&r) => self.fixed[r] = one,
                // Both sides are sizes of matrices: no vector reading fits.
                (None, None) => {
                    undecidable.insert(key.clone());
                }
                (Some(x), None) if x != "1" => self.fixed[c] = one,
                (None, Some(x)) if x != "1" => self.fixed[r] = one,
                _ => {}
            }
        }
        order.retain(|k| !undecidable.contains(k));
        let mut names = NAMES.iter().map(|n| n.to_string()).chain((1..).map(|i| format!("n_{{{i}}}")));
        let mut named: BTreeMap<usize, String> = BTreeMap::new();
        let mut sizes = Vec::new();
        let mut out = Vec::new();
        for key in &order {
            let (r, c) = self.letters[key];
            let mut dim = |this: &mut Self, v: usize| {
                let root = this.find(v);
                if let Some(fixed) = &this.fixed[root] {
                    return fixed.clone();
                }
                named
                    .entry(root)
                    .or_insert_with(|| {
                        let name = names.by_ref().find(|n| !this.known.taken.contains(n)).expect("names never end");
                        sizes.push(name.clone());
                        name
                    })
                    .clone()
            };
            let (rows, cols) = (dim(&mut self, r), dim(&mut self, c));
            out.push(InferredShape { key: key.clone(), identity: is_identity(key) && rows == cols, rows, cols });
        }
        (out, sizes)
    }
}

/// Names for sizes read off use, in order of preference (skipping any the document writes).
const NAMES: [&str; 8] = ["n", "m", "k", "p", "q", "r", "s", "l"];

/// `\sum_{i=1}^m`: the letter and the size it runs to (a lone letter, `m`, `n_1`).
fn sum_from_one(lower: Option<&Expr>, upper: Option<&Expr>) -> Option<(String, String)> {
    let ExprKind::Relation { chain } = &lower?.kind else { return None };
    let (Some(letter), [link]) = (&chain.first, chain.links.as_slice()) else { return None };
    let one = matches!(&link.rhs.kind, ExprKind::Number { value } if value == "1");
    let upper = upper?;
    let size = upper.symbol_key().filter(|_| matches!(upper.kind, ExprKind::Symbol(_) | ExprKind::Subscript { .. }));
    (link.op == RelOp::Eq && one).then(|| Some((letter.symbol_key()?, size?))).flatten()
}

fn is_identity(key: &str) -> bool {
    key == "I"
}

fn is_zero(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Number { value } if value == "0")
}

fn integer(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Number { value } => value.parse::<i64>().is_ok(),
        ExprKind::Neg { operand } => integer(operand),
        _ => false,
    }
}

/// A key written with a lowercase letter (`x`, `\bar{x}`, `\epsilon`): a vector by convention.
fn lowercase(key: &str) -> bool {
    let name = key.trim_start_matches('\\');
    let name = ["bar{", "hat{", "tilde{", "dot{"].iter().fold(name, |n, p| n.strip_prefix(p).unwrap_or(n));
    let name = name.trim_start_matches('\\');
    name.chars().next().is_some_and(char::is_lowercase)
}

fn lowercase_target(e: &Expr, targets: &BTreeSet<String>) -> bool {
    e.symbol_key().is_some_and(|k| targets.contains(&k) && lowercase(&k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    /// (formulas of one section, the letters to give a shape, what is declared, the shapes as
    /// `key:rows×cols`, `I` marked `=identity`).
    type Case<'a> = (&'a [&'a str], &'a [&'a str], &'a [(&'a str, &'a str, &'a str)], &'a [&'a str]);

    fn run(formulas: &[&str], targets: &[&str], declared: &[(&str, &str, &str)]) -> Vec<String> {
        let chains: Vec<Chain> = formulas.iter().flat_map(|f| parse_formula(f).unwrap().chains).collect();
        let targets: BTreeSet<String> = targets.iter().map(|t| t.to_string()).collect();
        let declared: BTreeMap<String, [String; 2]> =
            declared.iter().map(|(k, r, c)| (k.to_string(), [r.to_string(), c.to_string()])).collect();
        let (defined, taken) = (BTreeSet::new(), ["n".to_string()].into_iter().collect());
        let known = Known { targets: &targets, declared: &declared, defined: &defined, taken: &taken };
        let (shapes, _) = infer(&chains, &known);
        shapes
            .iter()
            .map(|s| format!("{}:{}×{}{}", s.key, s.rows, s.cols, if s.identity { "=identity" } else { "" }))
            .collect()
    }

    #[test]
    fn shapes_the_uses_force() {
        let cases: &[Case] = &[
            // A fixed point: U is square, x a column of its size (`n` is taken: `m`).
            (&[r"\mathbf x = \mathbf U\mathbf x"], &["x", "U"], &[], &["x:m×1", "U:m×m"]),
            // An eigen equation with the identity.
            (
                &[r"(\mathbf A-\lambda\mathbf I)\mathbf v = 0"],
                &["A", "I", "v"],
                &[],
                &["A:m×m", "I:m×m=identity", "v:m×1"],
            ),
            // A dot product written two ways: one length.
            (&[r"\mathbf u^\top\mathbf v = \sum_i u_iv_i"], &["u", "v"], &[], &["u:m×1", "v:m×1"]),
            (&[r"\mathbf u\cdot\mathbf v = \mathbf v\cdot\mathbf u"], &["u", "v"], &[], &["u:m×1", "v:m×1"]),
            // A declared matrix fixes the vector's length; a bias added to the product too.
            (
                &[r"\mathbf y = \mathbf W\mathbf x + \mathbf b"],
                &["x", "y", "b"],
                &[("W", "d", "q")],
                &["y:d×1", "x:q×1", "b:d×1"],
            ),
            // Written out: the length is the number of entries.
            (&[r"\mathbf w = [1, 2, 3]^\top + \mathbf v"], &["v"], &[], &["v:3×1"]),
            // Rectangular where nothing makes it square; an inverse makes it square.
            (&[r"(\mathbf A\mathbf B)^\top = \mathbf B^\top\mathbf A^\top"], &["A", "B"], &[], &["A:m×k", "B:k×p"]),
            (&[r"\mathbf A^{-1}\mathbf A = \mathbf I"], &["A", "I"], &[], &["A:m×m", "I:m×m=identity"]),
            // Uses that disagree leave the letter without a shape.
            (
                &[r"\mathbf x = \mathbf U\mathbf x", r"\mathbf x = [1, 2]^\top", r"\mathbf x = [1, 2, 3]^\top"],
                &["x", "U"],
                &[],
                &["U:2×2"],
            ),
            // A row vector where the matrix's side is taken; then the same letters elsewhere.
            (
                &[r"\boldsymbol\pi = \boldsymbol\pi\mathbf P", r"\mathbf P\mathbf v = \mathbf v"],
                &["\\pi", "P", "v"],
                &[],
                &["\\pi:1×m", "P:m×m", "v:m×1"],
            ),
            // A vector squared entry by entry says nothing about its shape.
            (&[r"\mathbf s = \gamma\mathbf s + \mathbf g^2"], &["s", "g"], &[], &["s:m×1", "g:k×1"]),
        ];
        for (formulas, targets, declared, want) in cases {
            let want: Vec<String> = want.iter().map(|w| w.to_string()).collect();
            assert_eq!(run(formulas, targets, declared), want, "{formulas:?}");
        }
    }
}
