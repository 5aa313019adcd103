//! The worked example: a small model with concrete parameters, whose gradients the notes print.
//!
//! The example is computed twice, in floating point: through the notes' own backward formulas
//! (every `\bar Y = …` and `∂L/∂ℓ_j = …` of the sections the example uses becomes the definition
//! of Ȳ), and by central differences of the loss over every parameter entry, with the ε the
//! notes state. Each printed number is compared with both, to half a unit in its last printed
//! digit (plus the difference error for the finite differences).

use super::{central_differences, Num, Numeric};
use crate::eval::{leaf_indices, leaf_name, Budget, Env, EvalError, EvalErrorKind, Instance, Value};
use crate::model::NotRead;
use crate::model::{ExampleEntry, Reason, Status, Verdict};
pub use crate::model::{ExampleResult, PrintedMatrix};
use crate::sema::{Claim, ClaimKind, SectionPlan};
use crate::sema::{Definition, Scope};
use crate::spec::ExampleSpec;
use crate::syntax::ast::{Expr, ExprKind, Statement};
use ndarray::Array1;
use std::collections::BTreeMap;

/// The example, ready to evaluate.
pub struct ExampleRun {
    scope: Scope,
    sizes: BTreeMap<String, i64>,
    env: Env,
    backend: Numeric,
    spec: ExampleSpec,
    loss_key: String,
    pub epsilon: f64,
    epsilon_source: &'static str,
}

const ANALYTIC_SLACK: f64 = 1e-9;
const DIFFERENCE_SLACK: f64 = 1e-8;

impl ExampleRun {
    /// Builds the example of `plan` from the plans of the sections it uses.
    pub fn new(plan: &SectionPlan, all: &[SectionPlan], variant: bool) -> Result<ExampleRun, String> {
        let example = plan.example.as_ref().ok_or("no example")?;
        let spec = example.spec.clone();
        let own_scope = plan.scope.as_ref().map_err(|_| format!("section {} has no usable spec", plan.number))?;
        let sizes: BTreeMap<String, i64> =
            own_scope.sizes.iter().map(|(k, v)| (k.clone(), v.first().copied().unwrap_or(1))).collect();
        let target = 1 + spec
            .vocabulary
            .iter()
            .position(|t| *t == spec.target)
            .ok_or(format!("target `{}` is not in the vocabulary", spec.target))?;
        let mut defs = generated_definitions(&spec)?;
        defs.extend(example.defines.iter().cloned());
        defs.extend(own_scope.defs.values().filter(|d| !d.inherited).cloned());
        let used: Vec<&SectionPlan> = spec.uses.iter().filter_map(|u| all.iter().find(|p| p.number == *u)).collect();
        for p in &used {
            defs.extend(p.scope.iter().flat_map(|s| s.defs.values()).filter(|d| d.from_notes && !d.inherited).cloned());
        }
        for p in &used {
            defs.extend(p.claims.iter().filter_map(|c| backward_definition(c, own_scope)));
        }
        for p in &used {
            defs.extend(p.scope.iter().flat_map(|s| s.defs.values()).filter(|d| !d.from_notes).cloned());
        }
        // What earlier sections define comes last: the example's own sections decide first.
        defs.extend(own_scope.defs.values().filter(|d| d.inherited).cloned());
        let mut scope = own_scope.clone();
        scope.loss = None;
        scope.defs = first_of_each(defs);
        let loss_key = crate::syntax::canonical_key(&spec.loss)?;
        let values = parameter_values(&spec, variant);
        let mut run = ExampleRun {
            scope,
            sizes,
            env: Env::from([("y".to_string(), target as i64)]),
            backend: Numeric::new(0, 1e-5).with_values(values),
            spec,
            loss_key,
            epsilon: 1e-5,
            epsilon_source: "default (the notes state none)",
        };
        if let Some(eps) = run.stated_epsilon() {
            (run.epsilon, run.epsilon_source) = (eps, "as the notes state");
        }
        Ok(run)
    }

    fn instance(&self) -> Instance<'_, Numeric> {
        let budget = Budget {
            max_steps: 5_000_000,
            max_bytes: 1 << 26,
            deadline: std::time::Instant::now() + std::time::Duration::from_secs(30),
        };
        Instance::new(&self.backend, &self.scope, &self.sizes, None, budget)
    }

    /// ε from a definition `\epsilon = …` in the notes.
    fn stated_epsilon(&self) -> Option<f64> {
        let key = ["\\epsilon", "\\varepsilon"]
            .into_iter()
            .find(|k| self.scope.defs.get(*k).is_some_and(|d| d.from_notes))?;
        let v = self.instance().value_of(key, &self.env).ok()?;
        v.data.first().map(|n| n.value).filter(|e| *e > 0.0)
    }

    pub fn loss(&self) -> Result<f64, EvalError> {
        let v = self.instance().value_of(&self.loss_key, &self.env)?;
        Ok(v.data[0].value)
    }

    /// The gradient of the loss by the parameter `key`, by central differences.
    fn finite_difference(&self, key: &str) -> Result<Value<Num>, EvalError> {
        let leaves = self.instance().value_of(key, &Env::new())?;
        let ids: Vec<u32> = leaves.data.iter().filter_map(|n| n.leaf).collect();
        let columns =
            central_differences(&self.backend, &ids, self.epsilon, || self.loss().map(|l| Array1::from_elem(1, l)))?;
        Ok(Value::matrix(leaves.rows, leaves.cols, columns.iter().map(|c| Num::of(c[0])).collect()))
    }

    /// Checks one claim of the example's section.
    pub fn check(&self, claim: &Claim) -> Verdict {
        match self.try_check(claim) {
            Ok(v) => v,
            Err(e) => verdict(Status::Undecided, Reason::ExampleUnusable { inner: Box::new(e.reason()) }, None),
        }
    }

    fn try_check(&self, claim: &Claim) -> Result<Verdict, EvalError> {
        let inst = self.instance();
        let loss = self.loss()?;
        if claim.kind != ClaimKind::Printed {
            let free = crate::eval::free_indices(&self.scope, claim);
            let mut gap: f64 = 0.0;
            for env in crate::eval::index_assignments(&inst, &free, &claim.conditions, claim, &self.env)? {
                gap = gap.max(max_gap(&inst.eval(&claim.lhs, &env)?, &inst.eval(&claim.rhs, &env)?));
            }
            let status = if gap <= ANALYTIC_SLACK { Status::Verified } else { Status::Refuted };
            let reason = Reason::ExampleClaim { loss, largest_difference: gap };
            return Ok(verdict(
                status,
                reason,
                Some(ExampleResult { loss, epsilon: self.epsilon, matrices: Vec::new() }),
            ));
        }
        let printed = printed_values(&claim.rhs).ok_or(
            EvalErrorKind::Unsupported { category: NotRead::Outside, what: "a printed matrix of plain numbers".into() }
                .at(claim.rhs.span),
        )?;
        let mut matrices = Vec::new();
        let mut problems = Vec::new();
        for side in printed_sides(claim) {
            let name = side.symbol_key().unwrap_or_else(|| crate::syntax::print::expr(&side));
            let analytic = inst.eval(&side, &self.env)?;
            let fd = match crate::eval::unbarred_key(&side).filter(|k| self.spec.parameters.contains_key(k)) {
                Some(key) => Some(self.finite_difference(&key)?),
                None => None,
            };
            let (matrix, found) = self.compare_printed(&name, &printed, &analytic, fd.as_ref());
            problems.extend(found);
            matrices.push(matrix);
        }
        let entries: usize = matrices.len() * printed.count();
        let (status, reason) = match problems.first() {
            None => {
                let tolerance = matrices.first().map(|m| m.tolerance).unwrap_or_default();
                let epsilon_stated = self.epsilon_source == "as the notes state";
                (
                    Status::Verified,
                    Reason::ExampleMatches { entries, epsilon: self.epsilon, epsilon_stated, tolerance, loss },
                )
            }
            Some(Problem::Shape(reason)) => (Status::Refuted, reason.clone()),
            Some(Problem::Entry(_)) => {
                let entries = problems
                    .into_iter()
                    .filter_map(|p| if let Problem::Entry(e) = p { Some(e) } else { None })
                    .collect();
                (Status::Refuted, Reason::ExampleDiffers { entries })
            }
        };
        Ok(verdict(status, reason, Some(ExampleResult { loss, epsilon: self.epsilon, matrices })))
    }

    /// Compares one computed matrix with the printed one; returns it and its mismatches.
    fn compare_printed(
        &self,
        name: &str,
        printed: &Printed,
        analytic: &Value<Num>,
        fd: Option<&Value<Num>>,
    ) -> (PrintedMatrix, Vec<Problem>) {
        let tolerance = 0.5 * 10f64.powi(-(printed.decimals as i32));
        let rows = |v: &Value<Num>| {
            (0..v.rows).map(|i| (0..v.cols).map(|j| v.at(i, j).value).collect()).collect::<Vec<Vec<f64>>>()
        };
        let mut matrix = PrintedMatrix {
            name: name.to_string(),
            printed: printed.rows.clone(),
            analytic: rows(analytic),
            finite_difference: fd.map(rows),
            max_difference: 0.0,
            tolerance,
            verified: true,
        };
        if analytic.shape() != (printed.rows.len(), printed.rows[0].len()) {
            let reason = Reason::ExampleShape {
                name: name.to_string(),
                rows: analytic.rows,
                cols: analytic.cols,
                printed_rows: printed.rows.len(),
                printed_cols: printed.rows[0].len(),
            };
            matrix.verified = false;
            return (matrix, vec![Problem::Shape(reason)]);
        }
        let mut problems = Vec::new();
        for (i, row) in printed.rows.iter().enumerate() {
            for (j, p) in row.iter().enumerate() {
                let a = analytic.at(i, j).value;
                let gap_a = (a - p).abs();
                let gap_f = fd.map(|f| (f.at(i, j).value - p).abs()).unwrap_or(0.0);
                matrix.max_difference = matrix.max_difference.max(gap_a).max(gap_f);
                if gap_a > tolerance + ANALYTIC_SLACK || gap_f > tolerance + DIFFERENCE_SLACK || !a.is_finite() {
                    problems.push(Problem::Entry(ExampleEntry {
                        name: name.to_string(),
                        entry: (i + 1, j + 1),
                        printed: *p,
                        analytic: a,
                        finite_difference: fd.map(|f| f.at(i, j).value),
                    }));
                }
            }
        }
        matrix.verified = problems.is_empty();
        (matrix, problems)
    }
}

/// What is wrong with one printed matrix.
enum Problem {
    Shape(Reason),
    Entry(ExampleEntry),
}

fn verdict(status: Status, detail: Reason, example: Option<ExampleResult>) -> Verdict {
    Verdict { example, ..Verdict::new(status, Some(crate::model::Method::Numeric), String::new(), detail) }
}

/// Every symbol of the claim's chain that the printed matrix stands for: in
/// `\bar W_V=\bar W_O=[…]`, both.
fn printed_sides(claim: &Claim) -> Vec<Expr> {
    let chains = crate::syntax::parse_formula(&claim.tex).map(|s| s.chains).unwrap_or_default();
    let chain = chains.iter().find(|c| c.exprs().any(|e| e.span == claim.rhs.span && *e == claim.rhs));
    match chain {
        Some(c) => c.exprs().filter(|e| !matches!(e.kind, ExprKind::Matrix { .. })).cloned().collect(),
        None => vec![claim.lhs.clone()],
    }
}

/// `P` (one-hot rows of the input tokens) and `T` (the loss position's selector row).
fn generated_definitions(spec: &ExampleSpec) -> Result<Vec<Definition>, String> {
    let index_of =
        |t: &String| spec.vocabulary.iter().position(|v| v == t).ok_or(format!("token `{t}` is not in the vocabulary"));
    let p_rows: Vec<Vec<f64>> = spec
        .input
        .iter()
        .map(|t| index_of(t).map(|k| (0..spec.vocabulary.len()).map(|c| f64::from(u8::from(c == k))).collect()))
        .collect::<Result<_, _>>()?;
    if spec.position == 0 || spec.position > spec.input.len() {
        return Err(format!("loss position {} is outside the input of length {}", spec.position, spec.input.len()));
    }
    let t_row: Vec<f64> = (1..=spec.input.len()).map(|i| f64::from(u8::from(i == spec.position))).collect();
    [("P", p_rows), ("T", vec![t_row])]
        .into_iter()
        .map(|(key, rows)| {
            let tex = format!(
                "\\begin{{bmatrix}}{}\\end{{bmatrix}}",
                rows.iter()
                    .map(|r| r.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("&"))
                    .collect::<Vec<_>>()
                    .join("\\\\")
            );
            let body =
                crate::syntax::parse_formula(&tex).map_err(|e| e.to_string())?.chains.remove(0).first.ok_or("empty")?;
            Ok(Definition {
                key: key.to_string(),
                params: Vec::new(),
                body,
                origin: "example (generated)".into(),
                from_notes: false,
                function: false,
                inherited: false,
                section_only: false,
            })
        })
        .collect()
}

/// `\bar Y = f` (not the notation `\bar Z = \partial L/\partial Z`) and `∂L/∂ℓ_j = f` as the
/// definitions of the backward pass.
fn backward_definition(claim: &Claim, scope: &Scope) -> Option<Definition> {
    let has_partial = |e: &Expr| {
        fn any(e: &Expr) -> bool {
            matches!(e.kind, ExprKind::Derivative { .. } | ExprKind::Partial { .. }) || e.children().any(any)
        }
        any(e)
    };
    let target = match claim.kind {
        ClaimKind::Adjoint if !has_partial(&claim.rhs) => claim.lhs.clone(),
        ClaimKind::Derivative => derivative_target(&claim.lhs)?,
        _ => return None,
    };
    let letters = match &target.kind {
        ExprKind::Subscript { index, .. } => {
            crate::syntax::ast::index_letters(index).filter(|ls| ls.iter().all(|l| scope.is_index(l)))
        }
        _ => None,
    };
    let (key, params) = match (&target.kind, letters) {
        (ExprKind::Subscript { base, .. }, Some(letters)) => (base.symbol_key()?, letters),
        _ => (target.symbol_key()?, Vec::new()),
    };
    Some(Definition {
        key,
        params,
        body: claim.rhs.clone(),
        origin: format!("backward rule {}", claim.id),
        from_notes: true,
        function: false,
        inherited: false,
        section_only: false,
    })
}

/// `\frac{\partial L}{\partial\ell_j}` -> `\bar\ell_j`.
fn derivative_target(lhs: &Expr) -> Option<Expr> {
    let ExprKind::Derivative { wrt, .. } = &lhs.kind else { return None };
    let mut barred = (**wrt).clone();
    let symbol = match &mut barred.kind {
        ExprKind::Symbol(s) => s,
        ExprKind::Subscript { base, .. } => match &mut base.kind {
            ExprKind::Symbol(s) => s,
            _ => return None,
        },
        _ => return None,
    };
    symbol.accents.push(crate::syntax::ast::Accent::Bar);
    Some(barred)
}

fn first_of_each(defs: Vec<Definition>) -> std::collections::HashMap<String, Definition> {
    let mut out = std::collections::HashMap::new();
    for d in defs {
        out.entry(d.key.clone()).or_insert(d);
    }
    out
}

/// Leaf name -> value for every parameter entry (with the variant's replacements).
fn parameter_values(spec: &ExampleSpec, variant: bool) -> std::collections::HashMap<String, f64> {
    let mut params = spec.parameters.clone();
    if variant {
        params.extend(spec.variant.clone().unwrap_or_default());
    }
    let mut out = std::collections::HashMap::new();
    for (tex_key, rows) in &params {
        let Ok(key) = crate::syntax::canonical_key(tex_key) else { continue };
        let (r, c) = (rows.len(), rows.first().map(Vec::len).unwrap_or(0));
        for (i, row) in rows.iter().enumerate() {
            for (j, v) in row.iter().enumerate() {
                out.insert(leaf_name(&key, &leaf_indices(r, c, i, j)).0, *v);
            }
        }
    }
    out
}

/// The numbers of a printed matrix and the most decimals any entry shows.
struct Printed {
    rows: Vec<Vec<f64>>,
    decimals: usize,
}

impl Printed {
    fn count(&self) -> usize {
        self.rows.iter().map(Vec::len).sum()
    }
}

fn printed_values(e: &Expr) -> Option<Printed> {
    let ExprKind::Matrix { rows, .. } = &e.kind else { return None };
    let mut decimals = 0;
    let mut out = Vec::new();
    for row in rows {
        let mut values = Vec::new();
        for cell in row {
            let expr = cell.as_ref().and_then(|s: &Statement| s.chains.first()).and_then(|c| c.first.as_ref())?;
            let (negative, number) = match &expr.kind {
                ExprKind::Neg { operand } => (true, operand.as_ref()),
                _ => (false, expr),
            };
            let ExprKind::Number { value } = &number.kind else { return None };
            decimals = decimals.max(value.split_once('.').map(|(_, f)| f.len()).unwrap_or(0));
            let v: f64 = value.parse().ok()?;
            values.push(if negative { -v } else { v });
        }
        out.push(values);
    }
    Some(Printed { rows: out, decimals })
}

/// Largest entry difference of two values (infinite when the shapes differ).
fn max_gap(a: &Value<Num>, b: &Value<Num>) -> f64 {
    if a.shape() != b.shape() {
        return f64::INFINITY;
    }
    a.data.iter().zip(&b.data).map(|(x, y)| (x.value - y.value).abs()).fold(0.0, f64::max)
}
