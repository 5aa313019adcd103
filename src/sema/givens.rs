//! The numbers a worked example gives its probabilities: `P(H=1) = 0.0015` in the prose, a
//! table of conditional probabilities (`| $P(D_1 = 1 \mid H)$ | 1 | 0.01 |` under
//! `| | $H=1$ | $H=0$ |`), and the value an earlier chain worked out (`P(D_1 = 1) = … =
//! 0.011485`). A later link that only combines such probabilities (`… = 0.1306`) is then a
//! computation the check can redo.
//!
//! Takes: a section's parsed formulas and the document's tables. Gives: [`GivenValue`]s, in the
//! order the text gives them. Which probabilities these are is read by the check
//! (`numeric::probability`); here they are only found.

use super::chains::flatten_environments;
use super::scope::GivenValue;
use super::ParsedFormula;
use crate::notes::Document;
use crate::syntax::ast::{Chain, Expr, ExprKind, Link, RelOp};

/// Every probability the section's formulas and tables set to a number.
pub fn given_values(doc: &Document, formulas: &[&ParsedFormula]) -> Vec<GivenValue> {
    let mut out = Vec::new();
    let section = formulas.first().and_then(|f| doc.formulas[f.index].section);
    for f in formulas {
        let site = &doc.formulas[f.index];
        for chain in flatten_environments(&f.statement.chains, &site.tex) {
            let (Some(first), Some(last)) = (chain.first.as_ref(), chain.links.last()) else { continue };
            let ExprKind::Number { value } = &last.rhs.kind else { continue };
            if !is_probability(first) || last.op != RelOp::Eq || chain.links.iter().any(|l| l.op != RelOp::Eq) {
                continue;
            }
            if let Ok(number) = value.parse::<f64>() {
                out.push(GivenValue {
                    term: first.clone(),
                    value: number,
                    written: value.clone(),
                    line: site.line,
                    formula: Some(site.id.clone()),
                });
            }
        }
    }
    if section.is_some() {
        for table in doc.tables.iter().filter(|t| t.section == section) {
            table_values(table, &mut out);
        }
    }
    out.sort_by_key(|g| g.line);
    out
}

/// `P(…)` or `\Pr(…)` applied.
fn is_probability(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Call { func, postfixed: false, .. } => {
            matches!(&func.kind, ExprKind::Symbol(s) if s.name == "P" && s.accents.is_empty() && s.label.is_none())
        }
        ExprKind::Apply { func, .. } => func.name == "Pr",
        _ => false,
    }
}

/// A table whose header cells (after the first) are `V = v` and whose rows start with a
/// probability conditioned on the bare V (`P(D_1 = 1 \mid H)`): each number in the row is that
/// probability with V at the column's value.
fn table_values(table: &crate::notes::Table, out: &mut Vec<GivenValue>) {
    let formula = |cell: &str| -> Option<Chain> {
        let tex = cell.strip_prefix('$')?.strip_suffix('$')?;
        let statement = crate::syntax::parse_formula(tex).ok()?;
        let [chain] = statement.chains.as_slice() else { return None };
        Some(chain.clone())
    };
    let Some((header, rows)) = table.rows.split_first() else { return };
    // `H = 1`: the column's variable and its value.
    let columns: Vec<Option<Chain>> = header
        .iter()
        .skip(1)
        .map(|c| {
            formula(c).filter(|ch| {
                matches!(ch.links.as_slice(), [Link { op: RelOp::Eq, rhs }] if matches!(rhs.kind, ExprKind::Number { .. }))
            })
        })
        .collect();
    for (k, row) in rows.iter().enumerate() {
        let Some(first) =
            row.first().and_then(|c| formula(c)).and_then(|c| if c.links.is_empty() { c.first } else { None })
        else {
            continue;
        };
        for (cell, column) in row.iter().skip(1).zip(&columns) {
            let (Some(column), Ok(value)) = (column, cell.trim().parse::<f64>()) else { continue };
            if let Some(term) = at_column(&first, column) {
                out.push(GivenValue {
                    term,
                    value,
                    written: cell.trim().to_string(),
                    line: table.line + 2 + k,
                    formula: None,
                });
            }
        }
    }
}

/// `P(D_1 = 1 \mid H)` with the column `H = 1`: `P(D_1 = 1 \mid H = 1)` — the bare variable the
/// row conditions on, last in it, takes the column's value.
fn at_column(row: &Expr, column: &Chain) -> Option<Expr> {
    let ExprKind::Call { func, args, postfixed: false } = &row.kind else { return None };
    if !is_probability(row) {
        return None;
    }
    let [arg] = args.as_slice() else { return None };
    let ExprKind::Relation { chain } = &arg.kind else { return None };
    let last = chain.links.last()?;
    let variable = column.first.as_ref()?.symbol_key()?;
    if last.op != RelOp::Mid || last.rhs.symbol_key()? != variable {
        return None;
    }
    let mut filled = chain.as_ref().clone();
    filled.links.extend(column.links.iter().cloned());
    let arg = Expr::new(ExprKind::Relation { chain: Box::new(filled) }, arg.span);
    Some(Expr::new(ExprKind::Call { func: func.clone(), args: vec![arg], postfixed: false }, row.span))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_of_conditional_probabilities_gives_one_value_per_cell() {
        let source = "# Test\n\n| Conditional probability | $H=1$ | $H=0$ |\n|:--|--:|--:|\n| $P(D_1 = 1 \\mid H)$ | 1 | 0.01 |\n| $P(D_1 = 0 \\mid H)$ | 0 | 0.99 |\n\nAssume $P(H=1) = 0.0015$.\n";
        let doc = Document::parse("t.md", source.to_string());
        let parsed: Vec<_> = doc.formulas.iter().map(|f| crate::syntax::parse_formula(&f.tex).unwrap()).collect();
        let formulas: Vec<ParsedFormula> =
            parsed.iter().enumerate().map(|(index, statement)| ParsedFormula { index, statement }).collect();
        let refs: Vec<&ParsedFormula> = formulas.iter().collect();
        let shown: Vec<String> = given_values(&doc, &refs)
            .iter()
            .map(|g| format!("{}={}@{}", crate::syntax::print::explicit_tex(&g.term, &|_| true), g.written, g.line))
            .collect();
        assert_eq!(
            shown,
            [
                r"P\left({D}_{1} = 1 \mid H = 1\right)=1@5",
                r"P\left({D}_{1} = 1 \mid H = 0\right)=0.01@5",
                r"P\left({D}_{1} = 0 \mid H = 1\right)=0@6",
                r"P\left({D}_{1} = 0 \mid H = 0\right)=0.99@6",
                r"P\left(H = 1\right)=0.0015@8",
            ]
        );
    }
}
