//! The entries of a matrix written by its small letter: `a_{ij}` beside `\mathbf A`,
//! `x_{ij}` beside `\mathbf X`, by the convention of every linear-algebra text (the same one
//! that makes `v_i` an entry of `\mathbf v`). A section reads them so only where nothing else
//! could be meant: the small letter is written nowhere but with two indices (`a_{ij}`,
//! `a_{i,k}`, `a_{11}`) — or with one beside its own bold vector (`x_i` of `\mathbf x`) — the
//! notes never give it a meaning of their own (no declaration, no picture of a matrix by it, no
//! definition `a_{ij} = …` unless the matrix itself is defined, `\mathbf C = \mathbf A\mathbf B`),
//! and the capital is written as a matrix in the same section. The formulas are then rewritten,
//! `a_{ij}` to `A_{ij}` with every span kept, before anything else reads them; the verdicts that
//! use it list the reading, `a_{ij} = (\mathbf A)_{ij}`.
//!
//! Pure: the section's statements and what is known of the letters in, the letters to read so
//! and the rewritten statements out.

use crate::syntax::ast::{Expr, ExprKind, RelOp, Statement, Style};

/// A small letter read as the entries of a matrix: `a` with the capital as the section writes it
/// (`\mathbf{A}`).
#[derive(Debug, Clone)]
pub(super) struct EntryLetter {
    pub letter: String,
    pub matrix: Expr,
}

impl EntryLetter {
    /// The reading as a verdict lists it: `a_{ij} = (\mathbf{A})_{ij}`.
    pub fn tex(&self) -> String {
        let matrix = crate::syntax::print::explicit_tex(&self.matrix, &|_| false);
        format!("{}_{{ij}} = ({matrix})_{{ij}}", self.letter)
    }
}

/// The letters of `statements` (one section's formulas) to read as entries of their capital.
/// `known` says whether the notes or the spec give a key a meaning (a definition from an earlier
/// section, a declaration); `matrix_like` whether the section writes a key as a vector or matrix.
pub(super) fn entry_letters(
    statements: &[&Statement],
    known: &dyn Fn(&str) -> bool,
    matrix_like: &dyn Fn(&str) -> bool,
) -> Vec<EntryLetter> {
    let mut uses = uses_in(statements);
    // `a_{ij} = …`: the notes define the letter themselves, unless the matrix has a meaning
    // already (`\mathbf C = \mathbf A\mathbf B`, then `c_{i,j} = \sum_k a_{i,k}b_{k,j}` says
    // what its entries are).
    let gives = |chain: &crate::syntax::ast::Chain| {
        chain.links.first().is_some_and(|l| matches!(l.op, RelOp::Eq | RelOp::Define | RelOp::Assign))
    };
    let mut given: std::collections::BTreeSet<String> = std::collections::BTreeSet::new();
    for chain in statements.iter().flat_map(|s| &s.chains).filter(|c| gives(c)) {
        match chain.first.as_ref().map(|e| &e.kind) {
            Some(ExprKind::Subscript { base, .. }) => {
                if let Some(key) = base.symbol_key() {
                    uses.entry(key).or_default().defined = true;
                }
            }
            Some(ExprKind::Symbol(_)) => given.extend(chain.first.as_ref().and_then(Expr::symbol_key)),
            _ => {}
        }
    }
    let ambiguous = capitals_beside_their_entries(&uses);
    uses.into_iter()
        .filter(|(letter, _)| !ambiguous.contains(&letter.to_uppercase()))
        .filter(|(letter, u)| {
            let small = letter.chars().count() == 1 && letter.chars().all(|c| c.is_ascii_lowercase());
            // `x_i` beside `\mathbf x` too: the entries of the vector x, by the same convention.
            let as_vector = !u.as_vector || matrix_like(letter);
            let defined = u.defined && !(given.contains(&letter.to_uppercase()) || known(&letter.to_uppercase()));
            small && u.entries && !u.other && !defined && as_vector && !known(letter)
        })
        .filter_map(|(letter, _)| {
            let capital = letter.to_uppercase();
            if !matrix_like(&capital) || known(&format!("{letter}_ij")) {
                return None;
            }
            let written = |bold: bool| {
                statements
                    .iter()
                    .flat_map(|s| &s.chains)
                    .flat_map(|c| c.exprs())
                    .find_map(|e| capital_written(e, &capital, bold))
            };
            let matrix = written(true).or_else(|| written(false))?;
            Some(EntryLetter { letter, matrix })
        })
        .collect()
}

/// How each letter is written across `statements`.
fn uses_in(statements: &[&Statement]) -> std::collections::BTreeMap<String, Uses> {
    let mut uses = std::collections::BTreeMap::new();
    for chain in statements.iter().flat_map(|s| &s.chains) {
        let pictured = pictured_capitals(chain);
        for e in chain.exprs() {
            collect_uses(e, false, &pictured, &mut uses);
        }
    }
    uses
}

/// Capitals written with two indices beside their small letter written with two (`A_{ij}`
/// and `a_{ij}`): which one is the entry is not settled (`A_{ij}` is often a cofactor there).
fn capitals_beside_their_entries(
    uses: &std::collections::BTreeMap<String, Uses>,
) -> std::collections::BTreeSet<String> {
    let capital = |k: &str| k.chars().count() == 1 && k.chars().all(|c| c.is_ascii_uppercase());
    uses.iter()
        .filter(|(key, u)| capital(key) && u.entries)
        .filter(|(key, _)| uses.get(&key.to_lowercase()).is_some_and(|small| small.entries))
        .map(|(key, _)| key.clone())
        .collect()
}

/// The capitals of `statements` (one section's formulas) written with two indices beside their
/// small letter written so (`A_{ij}` and `a_{ij}`).
pub(super) fn ambiguous_entries(statements: &[&Statement]) -> std::collections::BTreeSet<String> {
    capitals_beside_their_entries(&uses_in(statements))
}

/// `statement` with every `a_{…}` of `letters` made `A_{…}`; spans unchanged.
pub(super) fn rewrite(statement: &Statement, letters: &[EntryLetter]) -> Statement {
    fn walk(e: &mut Expr, letters: &[EntryLetter]) {
        if let ExprKind::Subscript { base, index } = &mut e.kind {
            let key = base.symbol_key().filter(|_| two_indices(index));
            if let Some(entry) = letters.iter().find(|l| Some(&l.letter) == key.as_ref()) {
                // (Written plain: a bold letter with a subscript reads as one vector of a family.)
                let mut plain = entry.matrix.clone();
                if let ExprKind::Symbol(s) = &mut plain.kind {
                    s.style = None;
                }
                **base = Expr::new(plain.kind, base.span);
            }
        }
        for child in e.children_mut() {
            walk(child, letters);
        }
    }
    let mut out = statement.clone();
    for e in out.chains.iter_mut().flat_map(|c| c.exprs_mut()) {
        walk(e, letters);
    }
    out
}

/// Does `tex` write `letter` with two indices (`a_{ij}`, `a_{i,k}`; not `a_i`, `\beta_{ij}` or
/// `ba_{ij}`)?
pub(super) fn writes(tex: &str, letter: &str) -> bool {
    tex.match_indices(&format!("{letter}_{{")).any(|(at, found)| {
        let alone = tex[..at].chars().next_back().is_none_or(|c| !c.is_alphanumeric() && c != '\\');
        let rest = &tex[at + found.len()..];
        let inside: String =
            rest.chars().take_while(|&c| c != '}').filter(|c| !c.is_whitespace() && *c != ',').collect();
        alone && inside.chars().count() == 2 && inside.chars().all(char::is_alphanumeric)
    })
}

/// How a section writes a letter.
#[derive(Default)]
struct Uses {
    /// As the base of a subscript of two indices.
    entries: bool,
    /// With one index, or bold and bare: as a vector (`x_i`, `\mathbf x`).
    as_vector: bool,
    /// On the left of a definition (`a_{ij} = …`).
    defined: bool,
    /// Any other way: plain and bare, in a picture of a matrix, decorated.
    other: bool,
}

/// The capitals whose entries a picture of a matrix in `chain` may write: those the chain writes
/// outside its pictures (`\mathbf A \odot \mathbf B = \begin{bmatrix} a_{11}b_{11} & …`), but not
/// one the chain defines by its picture (`\mathbf A = \begin{bmatrix} a_{11} & …`: there the
/// small letters are letters of their own, and A is made of them).
fn pictured_capitals(chain: &crate::syntax::ast::Chain) -> std::collections::BTreeSet<String> {
    fn outside(e: &Expr, out: &mut std::collections::BTreeSet<String>) {
        match &e.kind {
            ExprKind::Matrix { .. } => {}
            ExprKind::Symbol(_) => out
                .extend(e.symbol_key().filter(|k| k.chars().count() == 1 && k.chars().all(|c| c.is_ascii_uppercase()))),
            _ => e.children().for_each(|c| outside(c, out)),
        }
    }
    let mut capitals = std::collections::BTreeSet::new();
    chain.exprs().for_each(|e| outside(e, &mut capitals));
    if let Some(defined) =
        chain.first.as_ref().filter(|e| matches!(e.kind, ExprKind::Symbol(_))).and_then(Expr::symbol_key)
    {
        capitals.remove(&defined);
    }
    capitals
}

fn collect_uses(
    e: &Expr,
    in_matrix: bool,
    pictured: &std::collections::BTreeSet<String>,
    out: &mut std::collections::BTreeMap<String, Uses>,
) {
    match &e.kind {
        ExprKind::Subscript { base, index } if matches!(base.kind, ExprKind::Symbol(_)) => {
            if let (ExprKind::Symbol(s), Some(key)) = (&base.kind, base.symbol_key()) {
                let plain = s.style.is_none() && s.accents.is_empty() && s.label.is_none();
                let one = crate::syntax::ast::index_letters(index).is_some_and(|l| l.len() == 1)
                    || matches!(&index.kind, ExprKind::Number { value } if value.len() == 1);
                let beside_capital = !in_matrix || pictured.contains(&key.to_uppercase());
                let entry = out.entry(key).or_default();
                match (plain && beside_capital, two_indices(index), one) {
                    (true, true, _) => entry.entries = true,
                    (true, false, true) => entry.as_vector = true,
                    _ => entry.other = true,
                }
            }
            collect_uses(index, in_matrix, pictured, out);
        }
        ExprKind::Symbol(s) => {
            if let Some(key) = e.symbol_key() {
                let bold = matches!(s.style, Some(Style::Bold)) && s.accents.is_empty();
                let entry = out.entry(key).or_default();
                if bold && !in_matrix {
                    entry.as_vector = true;
                } else {
                    entry.other = true;
                }
            }
        }
        ExprKind::Matrix { .. } => e.children().for_each(|c| collect_uses(c, true, pictured, out)),
        _ => e.children().for_each(|c| collect_uses(c, in_matrix, pictured, out)),
    }
}

/// `ij`, `i,k`, `ii`, `11`, `i1`: the subscript of an entry of a matrix.
fn two_indices(index: &Expr) -> bool {
    let item = |e: &Expr| match &e.kind {
        ExprKind::Number { value } => value.len() == 1 && value.bytes().all(|b| b.is_ascii_digit()),
        ExprKind::Symbol(s) => {
            s.name.chars().count() == 1 && s.accents.is_empty() && s.style.is_none() && s.label.is_none()
        }
        _ => false,
    };
    match &index.kind {
        ExprKind::Number { value } => value.len() == 2 && value.bytes().all(|b| (b'1'..=b'9').contains(&b)),
        ExprKind::Binary { op: crate::syntax::ast::BinOp::Implicit, lhs, rhs } => item(lhs) && item(rhs),
        ExprKind::Tuple { items, .. } => items.len() == 2 && items.iter().all(item),
        _ => false,
    }
}

/// The capital as the section writes it (`\mathbf{A}`), `bold` or in any style.
fn capital_written(e: &Expr, capital: &str, bold: bool) -> Option<Expr> {
    if let ExprKind::Symbol(s) = &e.kind {
        if s.key() == capital && s.label.is_none() && s.accents.is_empty() && (!bold || s.style == Some(Style::Bold)) {
            return Some(e.clone());
        }
    }
    e.children().find_map(|c| capital_written(c, capital, bold))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statements(formulas: &[&str]) -> Vec<Statement> {
        formulas.iter().map(|f| crate::syntax::parse_formula(f).expect("parses")).collect()
    }

    fn letters(formulas: &[&str]) -> Vec<String> {
        let parsed = statements(formulas);
        let refs: Vec<&Statement> = parsed.iter().collect();
        // (The capitals, and the vector x, are written as matrices.)
        entry_letters(&refs, &|_| false, &|k| k.chars().all(|c| c.is_ascii_uppercase()) || k == "x")
            .into_iter()
            .map(|l| l.letter)
            .collect()
    }

    #[test]
    fn a_small_letter_with_two_indices_beside_its_capital_is_its_entries() {
        assert_eq!(letters(&[r"(\mathbf{A}\mathbf{v})_i = \sum_j a_{ij}v_j"]), ["a"]);
        assert_eq!(letters(&[r"\|\mathbf{X}\|_F = \sqrt{\sum_{i=1}^m \sum_{j=1}^n x_{ij}^2}"]), ["x"]);
        assert_eq!(letters(&[r"\mathrm{tr}(\mathbf{A}) = \sum_i a_{ii}", r"c_{i, k} = a_{i, k}"]), ["a"]);
        // `x_i` of the vector `\mathbf x`, `x_{ij}` of the matrix `\mathbf X`.
        let both =
            [r"\|\mathbf{x}\|_1 = \sum_i |x_i|", r"\|\mathbf{X}\|_F = \sqrt{\sum_{i=1}^m \sum_{j=1}^n x_{ij}^2}"];
        assert_eq!(letters(&both), ["x"]);
    }

    #[test]
    fn a_letter_written_any_other_way_keeps_its_own_meaning() {
        // One index, bare, bold, defined, pictured, or no capital written as a matrix.
        assert!(letters(&[r"(\mathbf{A}\mathbf{v})_i = \sum_j a_{ij}v_j", r"a_i = 2"]).is_empty());
        assert!(letters(&[r"\mathbf{A}\mathbf{v} = a_{ij}", r"y = a_1"]).is_empty());
        assert!(letters(&[r"\mathbf{A}\mathbf{v} = a_{ij}", r"a = 3"]).is_empty());
        assert!(letters(&[r"\mathbf{A}^\top = \mathbf{a}_{12}"]).is_empty());
        assert!(letters(&[r"a_{ij} = \exp(e_{ij})", r"\mathbf{A}\mathbf{v} = a_{ij}"]).is_empty());
        // (Unless the matrix has a meaning: then the entries' formula is a claim about it.)
        assert_eq!(
            letters(&[r"\mathbf{C} = \mathbf{A}\mathbf{B}", r"c_{i, j} = \sum_{k} a_{i, k}b_{k, j}"]),
            ["a", "b", "c"]
        );
        assert!(letters(&[r"\mathbf{A} = \begin{bmatrix} a_{11} & a_{12} \end{bmatrix}"]).is_empty());
        // A picture of another matrix made of A's entries writes them as entries.
        assert_eq!(
            letters(&[r"\mathbf{A} \odot \mathbf{B} = \begin{bmatrix} a_{11}b_{11} & a_{12}b_{12} \end{bmatrix}"]),
            ["a", "b"]
        );
        assert!(letters(&[r"\mathbf{v} = \begin{bmatrix} a_{11} & a_{12} \end{bmatrix}"]).is_empty());
        assert!(letters(&[r"y = a_{ij}"]).is_empty());
        let parsed = statements(&[r"\mathbf{A}\mathbf{v} = a_{ij}"]);
        let refs: Vec<&Statement> = parsed.iter().collect();
        assert!(entry_letters(&refs, &|k| k == "a", &|_| true).is_empty());
    }

    #[test]
    fn a_formula_writes_the_entries_only_with_two_indices() {
        assert!(writes(r"\sum_j a_{ij}v_j", "a"));
        assert!(writes(r"a_{i, k}", "a"));
        assert!(!writes(r"\sum_i a_i + a_{1}", "a"));
        assert!(!writes(r"\beta_{ij} + ba_{ij}", "a"));
    }

    #[test]
    fn the_rewrite_keeps_every_span() {
        let parsed = statements(&[r"\mathrm{tr}(\mathbf{A}) = \sum_i a_{ii}"]);
        let refs: Vec<&Statement> = parsed.iter().collect();
        let found = entry_letters(&refs, &|_| false, &|k| k == "A");
        let rewritten = rewrite(&parsed[0], &found);
        let printed = crate::syntax::print::explicit_tex(&rewritten.chains[0].links[0].rhs, &|_| false);
        assert!(printed.contains("{A}_{i"), "{printed}");
        assert_eq!(rewritten.chains[0].span, parsed[0].chains[0].span);
        assert_eq!(found[0].tex(), r"a_{ij} = (\mathbf{A})_{ij}");
    }
}
