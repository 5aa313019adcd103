//! Values the words say solve equations stated before them (`We can solve this … to get
//! $p_0 = 4.41$ and $p_1 = 1.18$`; `$\lambda^2-\lambda+1=0$，解得$\lambda_1=…,\lambda_2=…$`):
//! each such equation at those values is a claim of the formula that gives them
//! ([`SolutionOf`] says which equation, and which values are printed rounded).
//!
//! Which equations: those the section stated as conditions (equations to solve) in the
//! formula's paragraph or the one before that write one of the letters given a value; where
//! none does, the nearest paragraph before with such equations. Roots written as labelled
//! copies of the equation's letter (`\lambda_1`, `\lambda_2` of an equation in λ) are each put
//! in it on their own.

use super::bindings::notes_definition;
use super::builder::SectionBuilder;
use super::chains::{claim_kind, mentions_key};
use super::claim::{Claim, Origin, ParsedFormula, SolutionOf};
use super::roles;
use super::scope::Assumption;
use crate::syntax::ast::{Chain, Expr, ExprKind, RelOp, Span};
use crate::syntax::print;
use std::sync::LazyLock;

/// One value a formula gives: the letter it is given to (its key), written, and the value.
struct Value<'f> {
    key: String,
    target: &'f Expr,
    value: &'f Expr,
}

/// The values put in the equations together: each with the key of the letter it is put in for
/// (the letter itself, or the one a root is a labelled copy of).
type ValueSet<'f, 'v> = Vec<(String, &'v Value<'f>)>;

impl SectionBuilder<'_> {
    /// Adds the claims of formula `f` where it gives values the words say solve equations
    /// stated before it (conditions recorded before `stated_before`, the formula's own left
    /// out); nothing where it is no such formula.
    pub(super) fn add_solution_claims(&mut self, f: &ParsedFormula, stated_before: usize) {
        let site = &self.chapter.doc.formulas[f.index];
        let cited = cites_equation_solved(&site.lead).then(|| self.equations_just_before(f.index)).flatten();
        if self.pinned || site.mark.is_some() || !(cited.is_some() || says_solved(&site.lead)) {
            return;
        }
        let Some(values) = values_given(&f.statement.chains) else { return };
        // (`Using $\varphi = \varphi Q$ … yields`: the equation cited is a condition, whatever
        // the words before it made it.)
        if cited.is_some() {
            let before = &self.chapter.doc.formulas[f.index - 1].id;
            let cited_here = |c: &&mut Claim| matches!(&c.origin, Origin::Notes { formula, .. } if formula == before);
            for claim in self.out.claims.iter_mut().filter(cited_here) {
                let role = super::claim::WordsRole::Condition;
                claim.reading.alternative = Some(super::claim::WordsReading { role, symbol: None, earlier: None });
            }
        }
        let earlier = &self.bindings.stated[..stated_before.min(self.bindings.stated.len())];
        let keys: Vec<String> = values.iter().map(|v| v.key.clone()).collect();
        // (Roots as labelled copies, `\lambda_1`, of the equation's λ: each put in on its own.)
        let bases: Option<Vec<String>> = values.iter().map(|v| labelled_root_of(v.target)).collect();
        // (The equation the words cite is the one solved, whether it writes the letters or
        // reaches them through a definition: `\psi^* = (p, 1-p)`.)
        let written = cited.map(|cited| cited.into_iter().map(|(_, a)| a).collect());
        let (equations, sets): (Vec<Assumption>, Vec<ValueSet>) =
            match written.or_else(|| equations_solved(earlier, site.block, &keys)) {
                Some(equations) => (equations, vec![values.iter().map(|v| (v.key.clone(), v)).collect()]),
                None => {
                    let Some(bases) = bases.filter(|b| b.iter().all(|k| !keys.contains(k))) else { return };
                    let Some(equations) = equations_solved(earlier, site.block, &bases) else { return };
                    (equations, bases.into_iter().zip(&values).map(|(base, v)| vec![(base, v)]).collect())
                }
            };
        let origin = Origin::Notes {
            formula: site.id.clone(),
            line: site.line,
            col: site.col,
            range: (site.tex_range.start, site.tex_range.end),
        };
        let origin_text = super::bindings::origin_text(&origin, &self.chapter.doc.path);
        // (The equations, verified only through the values defined here, are what the values
        // come from, not claims shown by them: the values' claims check them.)
        self.bindings.derived.extend(sets.iter().flatten().map(|(key, _)| key.clone()));
        let whole = Span::new(0, site.tex.len());
        let count = equations.len() * sets.len();
        let mut made = 0;
        for set in &sets {
            // (At the first value's relation sign: a display's own line.)
            let (_, first) = &set[0];
            let at = self.link_origin(&origin, &site.tex, first.target, first.value);
            for equation in &equations {
                made += 1;
                let mut reading = self.reading_in(Some(site.block));
                let mut rounded = Vec::new();
                for (key, v) in set {
                    reading.overrides.retain(|d| d.key != *key);
                    reading.overrides.push(notes_definition(
                        key.clone(),
                        Vec::new(),
                        v.value,
                        &origin_text,
                        false,
                        true,
                    ));
                    let written = |e: &Expr| print::explicit_tex(e, &|_| false);
                    reading.given.push(format!("{}={}", written(v.target), written(v.value)));
                    if let Some(printed) = printed_decimal(v.value) {
                        rounded.push((key.clone(), printed));
                    }
                }
                reading.given.push(format!("\\text{{solving }}{}\\text{{ (at {})}}", equation.tex, equation.origin));
                reading.complex = self.chapter.complex;
                reading.information = self.chapter.information;
                reading.solves = Some(SolutionOf { equation: equation.origin.clone(), rounded });
                let (lhs, rhs) = (spanning(&equation.lhs, whole), spanning(&equation.rhs, whole));
                let id = if count > 1 { format!("{}.{made}", site.id) } else { site.id.clone() };
                let (place, kind) = ((at.clone(), site.tex.clone()), claim_kind(&lhs, &rhs));
                self.out.claims.push(Claim::meant(id, self.number.clone(), place, kind, (lhs, rhs), reading));
            }
        }
    }
}

impl SectionBuilder<'_> {
    /// The equations of the formula just before formula `index` in its section, each at the
    /// block of `index` (`Using $\psi^* = \psi^* P$ … yields`: the one the words cite), the
    /// last link of each chain; `None` where it is no equation.
    fn equations_just_before(&self, index: usize) -> Option<Vec<(usize, Assumption)>> {
        let formulas = &self.chapter.doc.formulas;
        let (site, before) = (&formulas[index], &formulas[index.checked_sub(1)?]);
        if before.section != site.section {
            return None;
        }
        let statement = crate::syntax::parse_formula(&before.tex).ok()?;
        let origin = super::bindings::origin_text(
            &Origin::Notes { formula: before.id.clone(), line: before.line, col: before.col, range: (0, 0) },
            &self.chapter.doc.path,
        );
        let mut equations = Vec::new();
        for chain in &statement.chains {
            let (Some(first), Some(last)) = (&chain.first, chain.links.last()) else { continue };
            if chain.links.iter().any(|l| l.op != RelOp::Eq) {
                return None;
            }
            let lhs = chain.links.iter().rev().nth(1).map_or(first, |l| &l.rhs);
            let tex =
                format!("{}={}", print::explicit_tex(lhs, &|_| false), print::explicit_tex(&last.rhs, &|_| false));
            let assumption = Assumption { tex, lhs: lhs.clone(), rhs: last.rhs.clone(), origin: origin.clone() };
            equations.push((site.block, assumption));
        }
        (!equations.is_empty()).then_some(equations)
    }
}

/// The equations of `stated` (each with the block it was stated in) that write one of `keys`:
/// those of block `block` and the one before; where none does, those of the nearest block
/// before that has one. `None` where no equation writes them.
/// (Of a chain of equations, `\left|A-\lambda I\right| = -\lambda^3+5\lambda = 0`, the last
/// link: the equation the chain comes to, which the links before it only rewrite.)
fn equations_solved(stated: &[(usize, Assumption)], block: usize, keys: &[String]) -> Option<Vec<Assumption>> {
    let writes = |a: &Assumption| keys.iter().any(|k| mentions_key(&a.lhs, k) || mentions_key(&a.rhs, k));
    let near: Vec<&(usize, Assumption)> =
        stated.iter().filter(|(b, a)| *b + 1 >= block && *b <= block && writes(a)).collect();
    let chosen: Vec<&(usize, Assumption)> = if near.is_empty() {
        let nearest = stated.iter().filter(|(b, a)| *b <= block && writes(a)).map(|(b, _)| *b).max()?;
        stated.iter().filter(|(b, a)| *b == nearest && writes(a)).collect()
    } else {
        near
    };
    let rewritten = |a: &Assumption| {
        let next = |b: &Assumption| print::expr(&b.lhs) == print::expr(&a.rhs);
        chosen.iter().any(|(_, b)| !std::ptr::eq(a, b) && next(b))
    };
    Some(chosen.iter().filter(|(_, a)| !rewritten(a)).map(|(_, a)| a.clone()).collect())
}

/// `p_0 = 4.41 \quad \text{and} \quad p_1 = 1.18`, `\hat C=\frac23, \hat D=\frac12`: a formula
/// each of whose chains gives one letter a value that writes none of the letters given one.
/// `None` for any other formula.
fn values_given(chains: &[Chain]) -> Option<Vec<Value<'_>>> {
    let mut values = Vec::new();
    for chain in chains {
        let (Some(target), [link]) = (&chain.first, chain.links.as_slice()) else { return None };
        if link.op != RelOp::Eq || matches!(target.kind, ExprKind::Power { .. }) {
            return None;
        }
        let key = roles::value_target(target)?;
        values.push(Value { key, target, value: &link.rhs });
    }
    let circular = values.iter().any(|v| values.iter().any(|w| mentions_key(v.value, &w.key)));
    (!values.is_empty() && !circular).then_some(values)
}

/// `\lambda_1` (a letter with a number for its subscript): the key of the letter it labels.
fn labelled_root_of(target: &Expr) -> Option<String> {
    let ExprKind::Subscript { base, index } = &target.kind else { return None };
    let numbered = matches!(&index.kind, ExprKind::Number { value } if !value.contains('.'));
    matches!(base.kind, ExprKind::Symbol(_)).then(|| base.symbol_key()).flatten().filter(|_| numbered)
}

/// `4.41`, `-1.18`: a value printed with decimals, as printed (its rounding is half a unit in
/// its last digit).
fn printed_decimal(value: &Expr) -> Option<String> {
    match &value.kind {
        ExprKind::Number { value } if value.contains('.') => Some(value.clone()),
        ExprKind::Neg { operand } => printed_decimal(operand),
        _ => None,
    }
}

/// `e` with every span set to `whole`: an equation written elsewhere, checked as a claim of
/// this formula, points at this formula as a whole.
fn spanning(e: &Expr, whole: Span) -> Expr {
    let mut out = e.clone();
    fn set(e: &mut Expr, whole: Span) {
        e.span = whole;
        for child in e.children_mut() {
            set(child, whole);
        }
    }
    set(&mut out, whole);
    out
}

/// Do the words of the formula's sentence say it gives what solving equations yields (`We can
/// solve this with pencil and paper to get`, `the solution is`, `the roots are`, `解得`, `求得`,
/// `解方程得`)? A formula of values after them gives the solution of equations stated before.
pub(super) fn says_solved(lead: &str) -> bool {
    static SOLVED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)\b(solve[sd]?|solving|solutions?|roots?)\b|解得|求得|求出|解出|解为|解是|的解|解方程|根为|根是|解之",
        )
        .expect("valid regex")
    });
    // (The words since the formula before, and none after them that make the formula a
    // condition: `has the solution $x = b/\lambda$ unless $\lambda = 0$`, `the solution at $t=0$`.)
    static CONDITION: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"(?i)\b(unless|if|when|whenever|where|except|at|for|only|assume|assuming|suppose|let|initial|guess)\b|若|如果|当|除非|时|假设|设|令|初始")
            .expect("valid regex")
    });
    // (`The solution is given by:` — a colon leads into the formula; it ends no sentence here.)
    let lead = lead.trim_end().trim_end_matches([':', '：']);
    let since_formula = roles::last_sentence(lead).rsplit('$').next().unwrap_or_default();
    // (`which is solved when $p = 1/8$`: what solves it, said of the equation.)
    let solved_when = |word: regex::Match| {
        let after = since_formula[word.end()..].trim_start().to_lowercase();
        word.as_str().eq_ignore_ascii_case("solved") && ["when", "at"].iter().any(|w| after.trim_end() == *w)
    };
    SOLVED
        .find_iter(since_formula)
        .last()
        .is_some_and(|word| solved_when(word) || !CONDITION.is_match(&since_formula[word.end()..]))
}

/// Does the formula's sentence say it follows from the equation written just before it, by
/// algebra (`Using $\psi^* = \psi^* P$ and a bit of algebra yields`, `由$…$可得`, `利用$…$解得`)?
/// A formula of values after them solves that equation.
pub(super) fn cites_equation_solved(lead: &str) -> bool {
    static CITED: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(
            r"(?i)(\b(using|from|substituting|plugging|solving)\s*\$[^$]*\b(yields?|gives?|gets?|obtains?|we\s+find)|(利用|由|根据|代入|把)\s*\$[^$]*(得到?|可得|解得|求得))\W*$",
        )
        .expect("valid regex")
    });
    CITED.is_match(roles::last_sentence(lead.trim_end().trim_end_matches([':', '：'])))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    fn chains(tex: &str) -> Vec<Chain> {
        parse_formula(tex).expect("parses").chains
    }

    #[test]
    fn a_formula_of_values_gives_each_letter_its_value() {
        let parsed = chains(r"p_0 = 4.41 \quad \text{and} \quad p_1 = 1.18");
        let values = values_given(&parsed).expect("values");
        let keys: Vec<&str> = values.iter().map(|v| v.key.as_str()).collect();
        assert_eq!(keys, ["p_0", "p_1"]);
        assert_eq!(printed_decimal(values[0].value).as_deref(), Some("4.41"));
    }

    #[test]
    fn a_relation_or_a_value_written_with_another_given_letter_is_no_solution() {
        assert!(values_given(&chains(r"x = 2y, y = 1")).is_none(), "x written with y");
        assert!(values_given(&chains(r"x \le 2")).is_none());
        assert!(values_given(&chains(r"x = y = 2")).is_none(), "a chain of two links");
    }

    #[test]
    fn numbered_copies_of_a_letter_are_its_roots() {
        let parsed = chains(r"\lambda_1=\frac{1+\sqrt{3}i}{2},\lambda_2=\frac{1-\sqrt{3}i}{2}");
        let values = values_given(&parsed).expect("values");
        let bases: Vec<Option<String>> = values.iter().map(|v| labelled_root_of(v.target)).collect();
        assert_eq!(bases, [Some("\\lambda".to_string()), Some("\\lambda".to_string())]);
        assert_eq!(labelled_root_of(&chains("x_i = 1")[0].first.clone().unwrap()), None);
    }

    #[test]
    fn words_that_say_a_formula_is_the_solution() {
        for lead in [
            "We can solve this with pencil and paper to get",
            "The solution is given by:",
            "The characteristic polynomial is $，解得",
            "解方程得",
            "the roots are",
            "which is solved when",
            "，从第三个方程求出",
        ] {
            assert!(says_solved(lead), "{lead}");
        }
        for lead in [
            "We want to solve $ when",
            "has the solution $ unless",
            "the solution at",
            "To solve this equation, we assume an initial state of",
            "there are (infinitely many) solutions only for",
            "we have",
            "Using $ we have",
            "solve the following:\n\nThen we have",
        ] {
            assert!(!says_solved(lead), "{lead}");
        }
        assert!(cites_equation_solved("Using $ and a bit of algebra yields"));
        assert!(cites_equation_solved("由$可得"));
        assert!(!cites_equation_solved("Using $ we define"), "no result after the cited equation");
        assert!(!cites_equation_solved("Using $ and $ yields"), "another formula between");
    }
}
