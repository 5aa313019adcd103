//! pest front end: `grammar/latex.pest` to [`ast::Statement`](super::ast::Statement).
//!
//! `parse_formula` never panics: size and nesting are checked before pest runs (so a 1 MB formula
//! or 10,000 nested braces is refused at once), pest's call limit bounds backtracking, and every
//! failure is a [`SyntaxError`] with the byte offset, the offending token and what was expected.

use super::ast::*;
use super::error::{Expected, SyntaxError, SyntaxErrorKind};
use super::grammar_names::is_known_command;
use super::operators::{addop_of, is_minus, mulop_of};
use pest::iterators::Pair;
use pest::Parser;
use pest_derive::Parser;

use std::num::NonZeroUsize;
use std::sync::Mutex;

#[path = "parser_derivatives.rs"]
mod derivatives;
use derivatives::{
    apply_derivative_operators, derivative_quotient, differentials_of_groups, holds_a_differential, roman_differentials,
};

#[derive(Parser)]
#[grammar = "../grammar/latex.pest"]
struct LatexParser;

/// Largest formula (bytes of TeX) that is parsed at all.
pub const MAX_FORMULA_BYTES: usize = 64 * 1024;
/// Deepest nesting of groups and prefix commands that is parsed at all.
pub const MAX_NESTING: usize = 100;
/// The longest chain of operands (terms of a sum, factors, primes, …) the tree may hold.
pub const MAX_CHAIN: usize = 1500;
/// Bound on pest rule calls per formula: turns pathological backtracking into an error. It
/// grows with the formula: [`CALLS_PER_BYTE`] per byte on top of [`BASE_CALLS`], at most
/// [`CALL_LIMIT`]. Measured over the 1,242 formulas of the seed, the test chapters and the d2l
/// corpus, none needs more than 22,500 calls or, past 40 bytes, 100 calls a byte; ambiguous
/// runs of `|` bars can need millions (each attempt costs ~20 ns), so a formula's parse time is
/// bounded by its length, and a file's by its size.
const CALL_LIMIT: usize = 20_000_000;
const BASE_CALLS: usize = 100_000;
const CALLS_PER_BYTE: usize = 300;

/// The call budget of a formula of `bytes` bytes.
fn call_budget(bytes: usize) -> usize {
    BASE_CALLS.saturating_add(CALLS_PER_BYTE.saturating_mul(bytes)).min(CALL_LIMIT)
}

/// Parses one formula's TeX (without the `$` delimiters). The same TeX is parsed once per
/// thread: a chapter's formulas are parsed by the listing, again by sema's readers of the words
/// around them, and the repair search parses its candidates, many alike; pest's work was a third
/// of a run over published text.
pub fn parse_formula(tex: &str) -> Result<Statement, SyntaxError> {
    /// Entries kept before the memo starts afresh (a bound on its memory, not on correctness).
    const MEMO_ENTRIES: usize = 20_000;
    type Memo = std::collections::HashMap<String, Result<Statement, SyntaxError>>;
    thread_local! {
        static PARSED: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::new());
    }
    if let Some(known) = PARSED.with(|memo| memo.borrow().get(tex).cloned()) {
        return known;
    }
    let parsed = parse_formula_within(tex, NonZeroUsize::new(call_budget(tex.len())));
    // `a_1=\begin{bmatrix}1\\2\end{bmatrix}\ a_2=\begin{bmatrix}1\\1\end{bmatrix}`: one control
    // space (or `\,`, `\;`) after a bracket or a number and before a letter's equals sign sets two
    // definitions apart as a comma does, where the formula reads so.
    let parsed = match parsed {
        Ok(one) if one.chains.len() == 1 => {
            let defines = |c: &Chain| c.first.as_ref().is_some_and(|f| f.symbol_key().is_some());
            Ok(read_apart(super::separators::space_separated(tex), defines).unwrap_or(one))
        }
        other => other,
    };
    // `u^*=\frac1n\sum x^i \ \ \ \ \Sigma^*=…`: three control spaces or more between two
    // relations are a gap of a quad, two statements side by side, where the formula reads so.
    let parsed = read_apart(super::separators::spaced_apart(tex), |_| true).map_or(parsed, Ok);
    PARSED.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.len() >= MEMO_ENTRIES {
            memo.clear();
        }
        memo.insert(tex.to_string(), parsed.clone());
    });
    parsed
}

/// A formula read again with its TeX `rewritten` (spaces written as the separator they stand for,
/// [`super::separators`]): the statements, where that reading sets two or more relations side by
/// side, each one `apart` accepts.
fn read_apart(rewritten: Option<String>, apart: impl Fn(&Chain) -> bool) -> Option<Statement> {
    let tex = rewritten?;
    let statements = parse_formula_within(&tex, NonZeroUsize::new(call_budget(tex.len()))).ok()?;
    let side_by_side = statements.chains.len() > 1 && statements.chains.iter().all(|c| !c.links.is_empty() && apart(c));
    side_by_side.then_some(statements)
}

/// [`parse_formula`] with another bound on pest's rule calls (`None`: unbounded) — for
/// measuring what formulas need (`examples/parse_budget.rs`).
pub fn parse_formula_within(tex: &str, call_limit: Option<NonZeroUsize>) -> Result<Statement, SyntaxError> {
    check_limits(tex)?;
    let joined = super::separators::operators_across_cells(tex);
    let tex = joined.as_deref().unwrap_or(tex);
    let closed = super::separators::brackets_across_braces(tex);
    let tex = closed.as_deref().unwrap_or(tex);
    if tex.trim().is_empty() {
        return Err(SyntaxError::new(SyntaxErrorKind::Empty, Span::new(0, tex.len())));
    }
    // pest's call limit is one global setting: set it and parse under one lock, so that
    // formulas parsed on several threads (tests) each get their own budget.
    static PEST: Mutex<()> = Mutex::new(());
    let parsed = {
        let _pest = PEST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
        pest::set_call_limit(call_limit);
        LatexParser::parse(Rule::formula, tex)
    };
    let mut pairs = parsed.map_err(|e| convert_error(tex, e, call_limit))?;
    let formula = pairs.next().expect("pest returns the formula rule on success");
    let span = span_of(&formula);
    // A long sum, product or run of primes becomes a chain of that depth in the tree, and every
    // later stage walks trees recursively: refuse what no notes need before building it.
    let operands = chain_depth(formula.clone());
    if operands > MAX_CHAIN {
        let at = Span::new(span.start, span.start + 1);
        return Err(SyntaxError::new(SyntaxErrorKind::TooLong { operands, limit: MAX_CHAIN }, at));
    }
    if tex.contains('|') || tex.contains("\\vert") {
        check_bars_read_one_way(formula.clone())?;
    }
    // The builders trust the grammar's shape; should they ever disagree, report instead of crash.
    let built = std::panic::catch_unwind(|| {
        formula
            .into_inner()
            .filter(|p| p.as_rule() == Rule::statement)
            .flat_map(|s| build_statement(s).chains)
            .collect()
    });
    let mut chains: Vec<Chain> = built.map_err(|_| SyntaxError::new(SyntaxErrorKind::Internal, span))?;
    if chains.iter().flat_map(Chain::exprs).any(holds_a_differential) {
        chains.iter_mut().flat_map(Chain::exprs_mut).for_each(differentials_of_groups);
    }
    if chains.is_empty() {
        return Err(SyntaxError::new(SyntaxErrorKind::Empty, span));
    }
    Ok(Statement { chains, span })
}

/// The longest chain of operands the tree of `pair` would hold: a node's children fold into a
/// chain as long as they are many, on top of the deepest child's. Recursion here follows pest's
/// own nesting, which [`check_limits`] bounds.
fn chain_depth(pair: Pair<Rule>) -> usize {
    let children: Vec<Pair<Rule>> = pair.into_inner().collect();
    children.len() + children.into_iter().map(chain_depth).max().unwrap_or(0)
}

/// Refuses bare `|` bars that read two ways. In `|a|b|c|` the second bar may close `|a|`
/// (|a|·b·|c|, the reading pest finds first) or open an inner `|b|` (|a·|b|·c|); a guess would
/// verify or refute the wrong formula. The second reading exists when, in one sum, an absolute
/// value whose closing bar is a bare `|` without a script is followed by a juxtaposed factor,
/// and a later absolute value opened by a bare `|` is juxtaposed to the factor before it: the
/// bars around what lies between can pair up instead; it matters when what lies between may be
/// negative. `|a|\,|b|`, `|a|^2 b|c|`, `|a| + |b|` and `|a|\cdot b|c|` read one way only, and
/// `|a|\,|b|\,|c|` two ways of equal value: they are kept.
/// (`pair.into_inner().flatten()` walks the tree without recursion.)
fn check_bars_read_one_way(formula: Pair<Rule>) -> Result<(), SyntaxError> {
    for sum in formula.into_inner().flatten().filter(|p| p.as_rule() == Rule::expr) {
        // The sum's factors in order: the term each is in, and whether it is juxtaposed to the
        // factor before it.
        let mut factors: Vec<(usize, bool, Pair<Rule>)> = Vec::new();
        for (term_index, term) in sum.into_inner().filter(|p| p.as_rule() == Rule::term).enumerate() {
            let mut juxtaposed = false;
            for part in term.into_inner() {
                match part.as_rule() {
                    Rule::mulop => juxtaposed = false,
                    Rule::factor => {
                        factors.push((term_index, juxtaposed, part));
                        juxtaposed = true;
                    }
                    _ => {}
                }
            }
        }
        let n = factors.len();
        let bars: Vec<_> = factors.iter().map(|(_, _, factor)| absolute_value_bars(factor)).collect();
        // One pass from the end each, so a long sum stays linear. reopened_from[k]: a factor at k
        // or later is an absolute value opened by a bare bar, juxtaposed to the factor before it;
        // next_not_abs[k]: the first factor at k or later that is not an absolute value;
        // term_end[k]: the first factor after k in another term.
        let (mut reopened_from, mut next_not_abs, mut term_end) = (vec![false; n + 1], vec![n; n + 1], vec![n; n]);
        for k in (0..n).rev() {
            let reopens = factors[k].1 && bars[k].as_ref().is_some_and(|(open, _, _)| is_bare_bar(open.as_str()));
            reopened_from[k] = reopens || reopened_from[k + 1];
            next_not_abs[k] = if bars[k].is_some() { next_not_abs[k + 1] } else { k };
            if k + 1 < n {
                term_end[k] = if factors[k + 1].0 != factors[k].0 { k + 1 } else { term_end[k + 1] };
            }
        }
        for (i, bar) in bars.iter().enumerate() {
            let Some((_, close, scripted)) = bar else { continue };
            let followed = factors.get(i + 1).is_some_and(|(_, juxtaposed, _)| *juxtaposed);
            if !is_bare_bar(close.as_str()) || *scripted || !followed {
                continue;
            }
            // The two readings differ only if what lies between may be negative: a factor that is
            // not an absolute value, or a sign (the end of i's term). |a| |b| |c| is the same
            // either way, |a·||b||·c|.
            let signed_from = next_not_abs[i + 1].min(term_end[i]);
            if signed_from < n && reopened_from[signed_from + 1] {
                return Err(SyntaxError::new(SyntaxErrorKind::AmbiguousBars, span_of(close)));
            }
        }
    }
    Ok(())
}

/// A delimiter with `\vert` and `\Vert` spelled `|` and `\|`.
fn bar_as_written(delimiter: &str) -> &str {
    match delimiter {
        "\\vert" => "|",
        "\\Vert" => "\\|",
        "\\lbrack" => "[",
        "\\rbrack" => "]",
        other => other,
    }
}

/// A bar that is the same on both sides of an absolute value: `|`, or `\vert` (TeX's name for
/// it), unlike `\lvert`/`\rvert`.
fn is_bare_bar(bar: &str) -> bool {
    bar == "|" || bar == "\\vert"
}

/// A factor that is an absolute value: its opening and closing bars, and whether a script or
/// prime follows it.
fn absolute_value_bars<'i>(factor: &Pair<'i, Rule>) -> Option<(Pair<'i, Rule>, Pair<'i, Rule>, bool)> {
    let mut parts = factor.clone().into_inner();
    let primary = parts.next().filter(|p| p.as_rule() == Rule::abs)?;
    let scripted = parts.next().is_some();
    let mut bars = primary.into_inner().filter(|p| matches!(p.as_rule(), Rule::abs_open | Rule::abs_close));
    let (open, close) = (bars.next()?, bars.next()?);
    Some((open, close, scripted))
}

/// Refuses formulas that are too large or too deeply nested, before any recursion happens.
fn check_limits(tex: &str) -> Result<(), SyntaxError> {
    if tex.len() > MAX_FORMULA_BYTES {
        let kind = SyntaxErrorKind::TooLarge { bytes: tex.len(), limit: MAX_FORMULA_BYTES };
        return Err(SyntaxError::new(kind, Span::new(0, tex.len().min(1))));
    }
    let bytes = tex.as_bytes();
    let (mut depth, mut prefix_run) = (0usize, 0usize);
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'{' | b'(' | b'[' => depth += 1,
            b'}' | b')' | b']' => depth = depth.saturating_sub(1),
            b'\\' => {
                let name_len = bytes[i + 1..].iter().take_while(|b| b.is_ascii_alphabetic()).count();
                if name_len > 0 {
                    prefix_run += 1;
                    i += name_len;
                }
            }
            b' ' | b'\n' | b'\t' | b'\r' => {}
            _ => prefix_run = 0,
        }
        if depth + prefix_run > MAX_NESTING {
            let kind = SyntaxErrorKind::TooDeep { limit: MAX_NESTING };
            return Err(SyntaxError::new(kind, Span::new(i, i + 1)));
        }
        i += 1;
    }
    check_environments(tex)
}

/// `\begin{X}` without its `\end{X}` (or the reverse) is named as such, not as "unexpected end".
fn check_environments(tex: &str) -> Result<(), SyntaxError> {
    let mut open: Vec<(usize, &str)> = Vec::new();
    for (i, _) in tex.match_indices('\\') {
        let rest = &tex[i..];
        let (is_begin, after) = match (rest.strip_prefix("\\begin{"), rest.strip_prefix("\\end{")) {
            (Some(a), _) => (true, a),
            (_, Some(a)) => (false, a),
            _ => continue,
        };
        let Some(name) = after.split_once('}').map(|(n, _)| n) else { continue };
        if is_begin {
            open.push((i, name));
        } else if open.last().is_some_and(|(_, n)| *n == name) {
            open.pop();
        } else {
            let kind = SyntaxErrorKind::UnbalancedEnvironment {
                detail: format!("`\\end{{{name}}}` without a matching `\\begin{{{name}}}`"),
            };
            return Err(SyntaxError::new(kind, Span::new(i, i + 6 + name.len())));
        }
    }
    match open.pop() {
        Some((i, name)) => {
            let kind = SyntaxErrorKind::UnbalancedEnvironment {
                detail: format!("`\\begin{{{name}}}` is never closed by `\\end{{{name}}}`"),
            };
            Err(SyntaxError::new(kind, Span::new(i, i + 8 + name.len())))
        }
        None => Ok(()),
    }
}

fn convert_error(tex: &str, err: pest::error::Error<Rule>, call_limit: Option<NonZeroUsize>) -> SyntaxError {
    use pest::error::{ErrorVariant, InputLocation};
    let pos = match err.location {
        InputLocation::Pos(p) => p,
        InputLocation::Span((s, _)) => s,
    };
    let (positives, custom) = match &err.variant {
        ErrorVariant::ParsingError { positives, .. } => (positives.clone(), None),
        ErrorVariant::CustomError { message } => (Vec::new(), Some(message.clone())),
    };
    if custom.is_some() {
        // pest reports a reached call limit as a custom error (its only one here).
        let kind = SyntaxErrorKind::Budget { calls: call_limit.map_or(0, NonZeroUsize::get) };
        return SyntaxError::new(kind, Span::new(pos, pos));
    }
    let found = offending_token(tex, pos);
    let span = Span::new(pos, pos + found.len());
    let kind = if found.is_empty() {
        SyntaxErrorKind::UnexpectedEnd { expected: describe_expected(&positives) }
    } else if found.starts_with('\\') && found.len() > 1 && !is_known_command(&found) {
        SyntaxErrorKind::UnknownCommand { command: found }
    } else {
        SyntaxErrorKind::Unexpected { found, expected: describe_expected(&positives) }
    };
    SyntaxError::new(kind, span)
}

/// The token at `pos`: a `\command`, or one character; empty at the end of input.
fn offending_token(tex: &str, pos: usize) -> String {
    let rest = &tex[pos.min(tex.len())..];
    if let Some(after) = rest.strip_prefix('\\') {
        let name: String = after.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
        if !name.is_empty() {
            return format!("\\{name}");
        }
        return rest.chars().take(2).collect();
    }
    rest.chars().next().map(String::from).unwrap_or_default()
}

fn describe_expected(rules: &[Rule]) -> Vec<Expected> {
    let mut out: Vec<Expected> = Vec::new();
    for rule in rules {
        let expected = match rule {
            Rule::relop => Expected::Relation,
            Rule::addop | Rule::sign | Rule::factor_sign => Expected::Sign,
            Rule::mulop => Expected::Operator,
            Rule::separator | Rule::quad => Expected::Separator,
            Rule::EOI => Expected::End,
            Rule::row_break => Expected::RowBreak,
            Rule::abs_close => Expected::AbsClose,
            Rule::norm_close => Expected::NormClose,
            Rule::close_delim => Expected::RightDelimiter,
            Rule::open_delim => Expected::LeftDelimiter,
            Rule::transpose | Rule::prime | Rule::subscript | Rule::superscript | Rule::postfix => Expected::Script,
            _ => Expected::Expression,
        };
        if !out.contains(&expected) {
            out.push(expected);
        }
    }
    out
}

// ------------------------------------------------------------------------------------ builders

fn span_of(pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    Span::new(s.start(), s.end())
}

fn build_statement(pair: Pair<Rule>) -> Statement {
    let span = span_of(&pair);
    let chains = pair.into_inner().filter(|p| p.as_rule() == Rule::chain).map(build_chain).collect();
    Statement { chains, span }
}

fn build_chain(pair: Pair<Rule>) -> Chain {
    let span = span_of(&pair);
    let mut first = None;
    let mut links = Vec::new();
    let mut pending_op: Option<RelOp> = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::relop => pending_op = Some(relop_of(p.as_str())),
            Rule::expr => {
                let e = build_expr(p);
                match pending_op.take() {
                    Some(op) => links.push(Link { op, rhs: e }),
                    None => first = Some(e),
                }
            }
            _ => {}
        }
    }
    Chain { first, links, span }
}

fn relop_of(text: &str) -> RelOp {
    let t = text.trim();
    if t.starts_with("\\stackrel") || t.starts_with("\\overset") {
        return RelOp::Define;
    }
    match t {
        "=" => RelOp::Eq,
        // `x^{(2)}\text{=}\begin{bmatrix}…`: an equals sign set as text, as editors export it.
        _ if t.starts_with("\\text") && t.ends_with('}') && t.trim_end_matches('}').trim_end().ends_with('=') => {
            RelOp::Eq
        }
        _ if t.starts_with("\\not") && t.ends_with('=') => RelOp::Ne,
        _ if t.starts_with("\\not") => RelOp::NotIn,
        "\\leqslant" => RelOp::Le,
        "\\geqslant" => RelOp::Ge,
        ":" => RelOp::Colon,
        "\\lessapprox" | "\\lesssim" => RelOp::LessApprox,
        "\\gtrapprox" | "\\gtrsim" => RelOp::GreaterApprox,
        "\\succeq" | "\\succ" => RelOp::Succeq,
        "\\preceq" | "\\prec" => RelOp::Preceq,
        "\\simeq" | "\\cong" => RelOp::Simeq,
        "\\perp" => RelOp::Perp,
        "\\parallel" => RelOp::Parallel,
        "\\ni" => RelOp::Ni,
        "\\supset" | "\\supseteq" => RelOp::Supset,
        "\\subsetneq" => RelOp::Subset,
        "\\longrightarrow" => RelOp::To,
        "\\Longrightarrow" => RelOp::Implies,
        "\\Leftrightarrow" | "\\Longleftrightarrow" => RelOp::Iff,
        ":=" | "\\coloneqq" | "\\triangleq" => RelOp::Define,
        "\\ne" | "\\neq" => RelOp::Ne,
        "<" | "\\lt" => RelOp::Lt,
        ">" | "\\gt" => RelOp::Gt,
        "\\le" | "\\leq" | "<=" => RelOp::Le,
        "\\ge" | "\\geq" | ">=" => RelOp::Ge,
        "\\ll" => RelOp::MuchLess,
        "\\gg" => RelOp::MuchGreater,
        "\\approx" => RelOp::Approx,
        "\\equiv" => RelOp::Equiv,
        "\\sim" => RelOp::Sim,
        "\\propto" => RelOp::Propto,
        "\\in" => RelOp::In,
        "\\notin" => RelOp::NotIn,
        "\\subset" | "\\subseteq" => RelOp::Subset,
        "\\to" | "\\rightarrow" | "\\mapsto" => RelOp::To,
        "\\leftarrow" | "\\gets" => RelOp::Assign,
        "\\Rightarrow" | "\\implies" => RelOp::Implies,
        "\\iff" => RelOp::Iff,
        _ => RelOp::Mid,
    }
}

fn build_expr(pair: Pair<Rule>) -> Expr {
    let mut acc: Option<Expr> = None;
    // Where a leading minus sign starts (`−` is three bytes: the negation's span starts there).
    let mut negate_first: Option<usize> = None;
    let mut pending: Option<BinOp> = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::sign => negate_first = is_minus(p.as_str()).then(|| p.as_span().start()),
            Rule::addop => pending = Some(addop_of(p.as_str())),
            Rule::term => {
                let term = build_term(p);
                acc = Some(match acc {
                    None => match negate_first {
                        Some(at) => negate(term, at),
                        None => term,
                    },
                    Some(lhs) => binary(pending.take().unwrap_or(BinOp::Add), lhs, term),
                });
            }
            _ => {}
        }
    }
    acc.expect("grammar: an expr has at least one term")
}

/// `-x` with the sign written at `sign_start`.
fn negate(operand: Expr, sign_start: usize) -> Expr {
    let span = Span::new(sign_start.min(operand.span.start), operand.span.end);
    Expr::new(ExprKind::Neg { operand: Box::new(operand) }, span)
}

fn binary(op: BinOp, lhs: Expr, rhs: Expr) -> Expr {
    let span = Span::new(lhs.span.start, rhs.span.end);
    Expr::new(ExprKind::Binary { op, lhs: Box::new(lhs), rhs: Box::new(rhs) }, span)
}

fn build_term(pair: Pair<Rule>) -> Expr {
    let input = pair.as_span().get_input();
    // Factors with the operator before each (`None` = juxtaposition).
    let mut factors: Vec<(Option<BinOp>, Expr)> = Vec::new();
    let mut pending: Option<BinOp> = None;
    let mut negated: Option<usize> = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::mulop => pending = Some(mulop_of(p.as_str())),
            Rule::factor_sign => negated = is_minus(p.as_str()).then(|| p.as_span().start()),
            Rule::factor => {
                let f = build_factor(p);
                let f = match negated.take() {
                    Some(at) => negate(f, at),
                    None => f,
                };
                let op = pending.take();
                match factors.pop() {
                    Some((head_op, head))
                        if op.is_none() && (is_call(&head, called_group(&f)) || is_spaced_call(&head, &f, input)) =>
                    {
                        factors.push((head_op, call_with_postfix(head, f)))
                    }
                    Some((head_op, head)) if op.is_none() && is_derivative_power_call(&head, &f) => {
                        factors.push((head_op, derivative_power_call(head, f)))
                    }
                    Some((head_op, head)) if op.is_none() && bare_argument_call(&head, &f, input) => {
                        factors.push((head_op, extend_bare_argument(head, f)))
                    }
                    Some((head_op, head)) if op.is_none() && bare_argument_goes_on(&head, &f) => {
                        factors.push((head_op, extend_bare_product(head, f)))
                    }
                    Some((head_op, head)) if op.is_none() && is_bare_function_power(&head) => {
                        factors.push((head_op, apply_function_power(head, f)))
                    }
                    Some(prev) => factors.extend([prev, (op, f)]),
                    None => factors.push((op, f)),
                }
            }
            _ => {}
        }
    }
    let factors = apply_derivative_operators(roman_differentials(factors));
    let mut iter = factors.into_iter();
    let first = iter.next().expect("grammar: a term has at least one factor").1;
    iter.fold(first, |lhs, (op, rhs)| match (op, derivative_quotient(&lhs, &rhs)) {
        (Some(BinOp::Div), Some(kind)) => kind,
        _ => binary(op.unwrap_or(BinOp::Implicit), lhs, rhs),
    })
}

/// `\hat A ( k)`: [`is_call`] with spaces between (which TeX ignores), for a letter; whether it is
/// an application or a product is decided later, from what the symbol is. (Not with a power or
/// subscript after the parentheses: `\mathbf B (\mathbf B^\top\mathbf B)^{-1}` is B times the
/// inverse, as the space suggests; nor for a name written as a word, `\mathrm{Var} (X)`, which
/// keeps the reading its operators give it.)
fn is_spaced_call(head: &Expr, next: &Expr, input: &str) -> bool {
    let letter = matches!(&head.kind, ExprKind::Symbol(s) if is_letter_name(&s.name));
    let spaced =
        input.get(head.span.end..next.span.start).is_some_and(|gap| !gap.is_empty() && gap.chars().all(|c| c == ' '));
    letter && spaced && bare_head(head) && is_paren(next)
}

/// A symbol's name that is one letter: a single character, or a Greek letter (stored by its name,
/// `alpha` of `\alpha`: `\sin 2\alpha`, `\ln 2\pi`, `\varphi (n)`).
fn is_letter_name(name: &str) -> bool {
    name.chars().count() == 1 || name.starts_with('\\') || crate::syntax::grammar_names::is_greek_name(name)
}

/// `f(x)`, `\sigma'(B)`: a bare (possibly primed) symbol written directly before parentheses.
/// Whether it is an application or a product is decided later, from what the symbol is.
pub(super) fn is_call(head: &Expr, next: &Expr) -> bool {
    bare_head(head) && is_paren(next) && head.span.end == next.span.start || is_probability_of_braced_event(head, next)
}

/// `\mathbb P\{X = 1\}`, `P \{X_{t+1} = y \}`: a probability written with the event in braces,
/// as `P(X = 1)` (space between or not: P times a set means nothing).
fn is_probability_of_braced_event(head: &Expr, next: &Expr) -> bool {
    let probability = matches!(&head.kind, ExprKind::Symbol(s) if s.name == "P" && s.accents.is_empty() && s.label.is_none()
        && matches!(s.style, None | Some(Style::Blackboard | Style::Roman)));
    let braced = matches!(&next.kind, ExprKind::Fenced { open, inner: Some(_), .. }
        if matches!(open.as_str(), "\\{" | "\\left\\{" | "\\lbrace" | "\\left\\lbrace"));
    probability && braced
}

/// A head that may be applied: a bare symbol, primed (`f'`) or under `\partial`.
fn bare_head(head: &Expr) -> bool {
    match &head.kind {
        ExprKind::Symbol(_) => true,
        ExprKind::Prime { .. } => {
            let mut head = head;
            while let ExprKind::Prime { operand } = &head.kind {
                head = operand;
            }
            matches!(head.kind, ExprKind::Symbol(_))
        }
        ExprKind::Partial { operand: Some(operand), .. } => matches!(operand.kind, ExprKind::Symbol(_)),
        // `p_X(x)`, `p_{X, Y}(x, y)`: a density or mass function of random variables.
        ExprKind::Subscript { .. } => crate::syntax::ast::is_density_head(head),
        _ => false,
    }
}

fn is_paren(e: &Expr) -> bool {
    matches!(&e.kind, ExprKind::Fenced { open, .. } if open == "(")
}

/// `f'^2(x)`, `g''^3(x)`: a power of a derivative written before its parenthesis, the power
/// of the derivative at x, (f'(x))^2, as `\sin^2 x` is (sin x)^2. Only with a prime: `f^2(x)`
/// may be f(f(x)) as well.
fn is_derivative_power_call(head: &Expr, next: &Expr) -> bool {
    let ExprKind::Power { base, exponent } = &head.kind else { return false };
    matches!(base.kind, ExprKind::Prime { .. })
        && matches!(exponent.kind, ExprKind::Number { .. })
        && bare_head(base)
        && is_paren(next)
        && head.span.end == next.span.start
}

/// `f'^2` and `(x)` -> `(f'(x))^2`, the call marked postfixed: read as a product, x'^2 (x) would
/// not be the square of the call, so that reading is refused.
fn derivative_power_call(head: Expr, fenced: Expr) -> Expr {
    let span = Span::new(head.span.start, fenced.span.end);
    match head.kind {
        ExprKind::Power { base, exponent } => {
            let call = mark_postfixed(make_call(*base, fenced));
            Expr::new(ExprKind::Power { base: Box::new(call), exponent }, span)
        }
        kind => make_call(Expr::new(kind, head.span), fenced),
    }
}

/// `\ln\sigma(z)`: a function whose bare argument is a symbol written directly before
/// parentheses takes the call as its argument, ln(σ(z)), not ln(σ)·(z).
fn bare_argument_call(head: &Expr, next: &Expr, input: &str) -> bool {
    match &head.kind {
        ExprKind::Apply { args, parenthesized: false, .. } => {
            args.last().is_some_and(|a| is_call(a, next) || is_spaced_call(a, next, input))
        }
        _ => false,
    }
}

/// `\log a b`, `\ln xy`, `\sin 2x`: by the usual convention the bare argument of a real
/// function is the whole product of letters after it — log(ab), never (log a)·b. It stops at
/// anything else (`\sin x\cos x` is sin x · cos x, `\ln x\cdot y` is (ln x)·y).
fn bare_argument_goes_on(head: &Expr, next: &Expr) -> bool {
    const REAL: [&str; 16] = [
        "ln", "log", "lg", "exp", "sin", "cos", "tan", "sec", "csc", "cot", "sinh", "cosh", "tanh", "arctan", "arcsin",
        "arccos",
    ];
    let letter = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if is_letter_name(&s.name));
    let simple = letter(next)
        || matches!(&next.kind, ExprKind::Subscript { base, .. } | ExprKind::Power { base, .. } if letter(base));
    // (`\log p(x) f(x)`: an argument ending in a call is whole, (log p(x))·f(x).)
    let ends_in_call = |e: &Expr| matches!(e.implicit_factors().last().map(|f| &f.kind), Some(ExprKind::Call { .. }));
    match &head.kind {
        ExprKind::Apply { func, args, parenthesized: false } => {
            let whole = args.last().is_some_and(ends_in_call);
            REAL.contains(&func.name.as_str()) && func.primes == 0 && args.len() == 1 && simple && !whole
        }
        _ => false,
    }
}

/// `{{\cos }^{2}}x`, `{\sec}^{2} x` (as MathType writes `\cos^2 x`): a function name with
/// no argument, raised to a power in braces of its own, before what it is applied to.
fn is_bare_function_power(head: &Expr) -> bool {
    match &head.kind {
        ExprKind::Power { base, .. } => matches!(&base.kind,
            ExprKind::Apply { func, args, .. } if args.is_empty() && func.sup.is_none() && func.primes == 0),
        // `{{\log }_{a}}x`: the base of a logarithm, written as MathType writes it.
        ExprKind::Subscript { base, .. } => matches!(&base.kind,
            ExprKind::Apply { func, args, .. } if args.is_empty() && func.sub.is_none() && func.primes == 0
                && func.name == "log"),
        _ => false,
    }
}

/// [`is_bare_function_power`]'s power applied to `next`, as `\cos^2 x` is: the function
/// raised to the power, its argument `next` (the arguments inside `next`'s parentheses).
fn apply_function_power(head: Expr, next: Expr) -> Expr {
    let span = Span::new(head.span.start, next.span.end);
    let (base, script, power) = match head.kind {
        ExprKind::Power { base, exponent } => (base, exponent, true),
        ExprKind::Subscript { base, index } => (base, index, false),
        _ => return head,
    };
    let ExprKind::Apply { mut func, .. } = base.kind else { unreachable!("checked: a function power") };
    if power {
        func.sup = Some(script);
    } else {
        func.sub = Some(script);
    }
    let parenthesized = matches!(&next.kind, ExprKind::Fenced { open, .. } if open.ends_with('('));
    let args = if parenthesized { fenced_arguments(next) } else { vec![next] };
    Expr::new(ExprKind::Apply { func, args, parenthesized }, span)
}

fn extend_bare_product(head: Expr, next: Expr) -> Expr {
    let span = Span::new(head.span.start, next.span.end);
    let ExprKind::Apply { func, mut args, parenthesized } = head.kind else { return head };
    let last = args.pop().expect("checked: a bare argument");
    args.push(binary(BinOp::Implicit, last, next));
    Expr::new(ExprKind::Apply { func, args, parenthesized }, span)
}

fn extend_bare_argument(head: Expr, fenced: Expr) -> Expr {
    let span = Span::new(head.span.start, fenced.span.end);
    let ExprKind::Apply { func, mut args, parenthesized } = head.kind else { return head };
    let last = args.pop().expect("checked: a bare argument");
    args.push(make_call(last, fenced));
    Expr::new(ExprKind::Apply { func, args, parenthesized }, span)
}

/// The parenthesised group a postfix applies to: `(x)` in `(x)_j` or `(z)^2`, so that `f(x)_j`
/// is the entry j of f(x) and `\sigma(z)^2` the square of σ(z).
fn called_group(e: &Expr) -> &Expr {
    match &e.kind {
        ExprKind::Subscript { base, .. } | ExprKind::Power { base, .. } => called_group(base),
        _ => e,
    }
}

/// `f` and `(x)_j` -> `(f(x))_j`: the call takes the group, the postfixes stay outside it.
fn call_with_postfix(head: Expr, next: Expr) -> Expr {
    let span = Span::new(head.span.start, next.span.end);
    match next.kind {
        ExprKind::Subscript { base, index } => {
            let call = mark_postfixed(call_with_postfix(head, *base));
            Expr::new(ExprKind::Subscript { base: Box::new(call), index }, span)
        }
        ExprKind::Power { base, exponent } => {
            let call = mark_postfixed(call_with_postfix(head, *base));
            Expr::new(ExprKind::Power { base: Box::new(call), exponent }, span)
        }
        _ => make_call(head, next),
    }
}

fn mark_postfixed(mut call: Expr) -> Expr {
    if let ExprKind::Call { postfixed, .. } = &mut call.kind {
        *postfixed = true;
    }
    call
}

fn make_call(head: Expr, fenced: Expr) -> Expr {
    let span = Span::new(head.span.start, fenced.span.end);
    if let ExprKind::Partial { order, operand: Some(operand) } = head.kind {
        // `\partial f(x)` is the partial of the call, not a product with `(x)`.
        let call = make_call(*operand, fenced);
        return Expr::new(ExprKind::Partial { order, operand: Some(Box::new(call)) }, span);
    }
    let args = fenced_arguments(fenced);
    if let ExprKind::Symbol(s) = &head.kind {
        // `\mathrm{diag}(p)`, `\mathrm{softmax}(x)`: an upright name is a function, as with `\operatorname`.
        if s.style == Some(Style::Roman) && s.name.chars().count() > 1 && s.accents.is_empty() {
            let func = Function { name: s.name.clone(), primes: 0, sub: None, sup: None };
            return Expr::new(ExprKind::Apply { func, args, parenthesized: true }, span);
        }
    }
    Expr::new(ExprKind::Call { func: Box::new(head), args, postfixed: false }, span)
}

fn build_factor(pair: Pair<Rule>) -> Expr {
    let mut inner = pair.into_inner();
    let primary = inner.next().expect("grammar: a factor has a primary");
    let written = (primary.as_rule() == Rule::styled).then(|| (primary.as_str(), primary.as_span().start()));
    let mut postfixes: Vec<Pair<Rule>> = inner.collect();
    // (`\mathbf{X X}^{\top}`: the product's transpose, or X X^\top as it is typeset? Left unread.)
    let mut acc = match written {
        Some(_) if !postfixes.is_empty() => build_styled(primary, true),
        _ => build_primary(primary),
    };
    // `\mathbf{AB}`: the product of the bold capitals. (`\mathbf{AB}^\top`, the transpose of the
    // product or A B^T as it looks, is kept one name, as unread as any matrix nobody declared.)
    if let (Some((text, start)), true) = (written, postfixes.is_empty()) {
        acc = bold_capitals(acc, text, start);
    }
    if postfixes.len() >= 2 && scripts_on_one_nucleus(&acc, &postfixes[0], &postfixes[1]) {
        postfixes.swap(0, 1);
    }
    for postfix in postfixes {
        acc = apply_postfix(acc, postfix);
    }
    acc
}

/// `x^2_i`, `\sigma^2_X`, `\mathbf a^\top_i`: TeX sets both scripts on the letter, and they read
/// as the member's power or transpose — `(x_i)^2`, `(\mathbf a_i)^\top` — not an entry of the
/// power. Not for a label (`W^{(1)}_{ij}`), nor for a capital's two indices (`\mathbf A^\top_{ij}`
/// is as often the entry of the transpose), nor a capital's transpose.
fn scripts_on_one_nucleus(nucleus: &Expr, sup: &Pair<Rule>, sub: &Pair<Rule>) -> bool {
    let ExprKind::Symbol(symbol) = &nucleus.kind else { return false };
    let first = |p: &Pair<Rule>| p.clone().into_inner().next().map(|q| q.as_rule());
    if first(sub) != Some(Rule::subscript) {
        return false;
    }
    let lowercase = symbol.name.chars().next().is_some_and(char::is_lowercase);
    let index = script_of(sub.clone().into_inner().next().expect("grammar: postfix has one alternative"));
    let one_index = !matches!(&index.kind, ExprKind::Tuple { .. } | ExprKind::Binary { op: BinOp::Implicit, .. })
        && !matches!(&index.kind, ExprKind::Number { value } if value.len() > 1);
    match first(sup) {
        Some(Rule::transpose) => lowercase && one_index,
        Some(Rule::superscript) => {
            let exponent = script_of(sup.clone().into_inner().next().expect("grammar: postfix has one alternative"));
            symbol.label.is_none() && label_of(&exponent).is_none() && (lowercase || one_index)
        }
        _ => false,
    }
}

fn apply_postfix(base: Expr, postfix: Pair<Rule>) -> Expr {
    let p = postfix.into_inner().next().expect("grammar: postfix has one alternative");
    // (The larger end: scripts read out of order, `x^2_i`, keep the whole written span.)
    let span = Span::new(base.span.start, p.as_span().end().max(base.span.end));
    let kind = match p.as_rule() {
        // `0.632^T`: a number has no transpose; T is an exponent there.
        Rule::transpose
            if matches!(base.kind, ExprKind::Number { .. })
                && p.as_str().trim_start_matches(['^', '{']).starts_with('T') =>
        {
            let at = p.as_span().start() + p.as_str().find('T').unwrap_or(0);
            let exponent = Expr::new(ExprKind::Symbol(Symbol::plain("T")), Span::new(at, at + 1));
            ExprKind::Power { base: Box::new(base), exponent: Box::new(exponent) }
        }
        Rule::transpose => ExprKind::Transpose { operand: Box::new(base) },
        Rule::prime => ExprKind::Prime { operand: Box::new(base) },
        Rule::starred => match base.kind {
            ExprKind::Symbol(mut symbol) if symbol.label.is_none() => {
                symbol.label = Some(STAR_LABEL.to_string());
                ExprKind::Symbol(symbol)
            }
            kind => ExprKind::Power {
                base: Box::new(Expr::new(kind, base.span)),
                exponent: Box::new(Expr::new(ExprKind::Text { text: "*".into() }, span_of(&p))),
            },
        },
        Rule::factorial => ExprKind::Apply {
            func: Function { name: FACTORIAL.into(), primes: 0, sub: None, sup: None },
            args: vec![base],
            parenthesized: false,
        },
        // (`90^\circ`: the angle in radians, 90·π/180.)
        Rule::degree => ExprKind::Frac {
            num: Box::new(Expr::new(
                ExprKind::Binary {
                    op: crate::syntax::ast::BinOp::Implicit,
                    lhs: Box::new(base),
                    rhs: Box::new(Expr::new(ExprKind::Symbol(Symbol::plain("pi")), span_of(&p))),
                },
                span,
            )),
            den: Box::new(Expr::new(ExprKind::Number { value: "180".into() }, span_of(&p))),
        },
        Rule::percent => ExprKind::Frac {
            num: Box::new(base),
            den: Box::new(Expr::new(ExprKind::Number { value: "100".into() }, span_of(&p))),
        },
        Rule::subscript => ExprKind::Subscript { base: Box::new(base), index: Box::new(script_of(p)) },
        _ => {
            let exponent = script_of(p);
            let label = label_of(&exponent).filter(|label| !labels_a_step(&base, label));
            match (base.kind, label) {
                (ExprKind::Symbol(mut symbol), Some(label)) if symbol.label.is_none() => {
                    symbol.label = Some(label);
                    ExprKind::Symbol(symbol)
                }
                // `x_j^{(i)}`: the label is the letter's, as in `x^{(i)}_j` (the j-th entry of
                // the i-th sample), never a power of the entry.
                (ExprKind::Subscript { base: letter, index }, Some(label)) if matches!(&letter.kind, ExprKind::Symbol(s) if s.label.is_none()) =>
                {
                    let mut letter = *letter;
                    if let ExprKind::Symbol(symbol) = &mut letter.kind {
                        symbol.label = Some(label);
                    }
                    ExprKind::Subscript { base: Box::new(letter), index }
                }
                (kind, _) => {
                    ExprKind::Power { base: Box::new(Expr::new(kind, base.span)), exponent: Box::new(exponent) }
                }
            }
        }
    };
    Expr::new(kind, span)
}

/// `(1)`, `(i)`, `(l)`: a superscript in parentheses around one number or letter is a label
/// (`W^{(1)}` is "W one", not W to the first power). So is one in square brackets, as layers
/// are numbered (`a^{[2]}`, `W^{[l]}`): kept with its brackets, `[2]`, a letter of its own.
fn label_of(exponent: &Expr) -> Option<String> {
    let ExprKind::Fenced { open, inner: Some(inner), .. } = &exponent.kind else { return None };
    match open.as_str() {
        "(" => label_inside(inner),
        "[" => label_inside(inner).map(|label| format!("[{label}]")),
        _ => None,
    }
}

/// What a label's brackets hold, as the label: one number, one plain letter, or a letter plus or
/// minus a number.
fn label_inside(inner: &Expr) -> Option<String> {
    let letter = |e: &Expr| matches!(&e.kind, ExprKind::Symbol(s) if s.accents.is_empty() && s.style.is_none() && s.label.is_none());
    match &inner.kind {
        ExprKind::Number { value } => Some(value.clone()),
        ExprKind::Symbol(s) if letter(inner) => Some(s.to_string()),
        // `\pi^{(i+1)}`, `\mu_j^{(t-1)}`: a step of a sequence (a letter plus or minus a number)
        // labels its member, as `x^{(i)}` does; a power is written `x^{i+1}`.
        ExprKind::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs }
            if letter(lhs) && matches!(rhs.kind, ExprKind::Number { .. }) =>
        {
            let ExprKind::Number { value } = &rhs.kind else { return None };
            let sign = if *op == BinOp::Add { '+' } else { '-' };
            Some(format!("{}{sign}{value}", crate::syntax::print::expr(lhs)))
        }
        _ => None,
    }
}

/// `e^{(x+1)}`: Euler's number takes a power, never a label of a step.
fn labels_a_step(base: &Expr, label: &str) -> bool {
    let natural = matches!(&base.kind, ExprKind::Symbol(s) if matches!(s.name.as_str(), "e" | "\\mathrm{e}"));
    natural && label.contains(['+', '-'])
}

/// The argument of `_`, `^`, `\frac`, accents: the one inner pair.
fn script_of(pair: Pair<Rule>) -> Expr {
    let arg = pair.into_inner().next().expect("grammar: a script has an argument");
    build_arg(arg)
}

fn build_arg(arg: Pair<Rule>) -> Expr {
    match arg.as_rule() {
        Rule::single_token => build_primary(arg.into_inner().next().expect("grammar: one token")),
        _ => build_primary(arg),
    }
}

fn build_primary(pair: Pair<Rule>) -> Expr {
    let span = span_of(&pair);
    let kind = match pair.as_rule() {
        Rule::number | Rule::digit_token => ExprKind::Number { value: pair.as_str().replace("\\,", "") },
        Rule::latin_letter => ExprKind::Symbol(Symbol::plain(pair.as_str())),
        Rule::greek | Rule::symbol_command | Rule::operator_symbol => {
            ExprKind::Symbol(Symbol::plain(&pair.as_str()[1..]))
        }
        Rule::symbol_alias => ExprKind::Symbol(Symbol::plain(aliased_symbol(pair.as_str()))),
        Rule::blackboard_letter => {
            let letter = pair.as_str()[1..].to_string();
            ExprKind::Symbol(Symbol { name: letter, accents: Vec::new(), style: Some(Style::Blackboard), label: None })
        }
        Rule::ellipsis => ExprKind::Ellipsis,
        Rule::text => ExprKind::Text { text: text_body(pair) },
        Rule::fraction => build_fraction(pair),
        Rule::binomial | Rule::choose => build_binomial(pair),
        Rule::sqrt => build_sqrt(pair),
        Rule::big_operator => build_big_operator(pair),
        Rule::function_call => build_function_call(pair),
        Rule::partial => build_partial(pair),
        Rule::differential => build_differential(pair),
        Rule::environment => return build_environment(pair),
        Rule::fenced => return build_fenced(pair.into_inner().next().expect("grammar: fenced")),
        Rule::group => return group_content(pair, span),
        Rule::abs => ExprKind::Abs { operand: Box::new(inner_expr(pair)) },
        Rule::norm => ExprKind::Norm { operand: Box::new(inner_expr(pair)) },
        Rule::set_braces => ExprKind::Fenced { open: "\\{".into(), close: "\\}".into(), inner: inner_of(pair) },
        Rule::angle => ExprKind::Fenced { open: "\\langle".into(), close: "\\rangle".into(), inner: inner_of(pair) },
        Rule::accented => return build_accented(pair),
        // The expression under the brace; its note is commentary.
        Rule::braced_note => return build_arg(pair.into_inner().nth(1).expect("grammar: a brace has its expression")),
        Rule::styled => return build_styled(pair, false),
        other => unreachable!("grammar rule {other:?} is not a primary"),
    };
    Expr::new(kind, span)
}

/// The command name of a symbol the grammar's `symbol_alias` reads (`π` is `\pi`).
fn aliased_symbol(written: &str) -> &'static str {
    const ALIASES: [(&str, &str); 40] = [
        ("α", "alpha"),
        ("β", "beta"),
        ("γ", "gamma"),
        ("δ", "delta"),
        ("ε", "varepsilon"),
        ("ϵ", "epsilon"),
        ("ζ", "zeta"),
        ("η", "eta"),
        ("θ", "theta"),
        ("ϑ", "vartheta"),
        ("ι", "iota"),
        ("κ", "kappa"),
        ("λ", "lambda"),
        ("μ", "mu"),
        ("ν", "nu"),
        ("ξ", "xi"),
        ("π", "pi"),
        ("ρ", "rho"),
        ("σ", "sigma"),
        ("τ", "tau"),
        ("υ", "upsilon"),
        ("φ", "varphi"),
        ("ϕ", "phi"),
        ("χ", "chi"),
        ("ψ", "psi"),
        ("ω", "omega"),
        ("Γ", "Gamma"),
        ("Δ", "Delta"),
        ("Θ", "Theta"),
        ("Λ", "Lambda"),
        ("Ξ", "Xi"),
        ("Π", "Pi"),
        ("Σ", "Sigma"),
        ("Φ", "Phi"),
        ("Ψ", "Psi"),
        ("Ω", "Omega"),
        ("∞", "infty"),
        ("∇", "nabla"),
        ("ℓ", "ell"),
        ("\\bigtriangledown", "nabla"),
    ];
    ALIASES.iter().find(|(w, _)| *w == written).map_or("?", |(_, name)| name)
}

fn text_body(pair: Pair<Rule>) -> String {
    pair.into_inner().find(|p| p.as_rule() == Rule::text_body).map(|p| p.as_str().to_string()).unwrap_or_default()
}

fn inner_expr(pair: Pair<Rule>) -> Expr {
    let e = pair.into_inner().find(|p| p.as_rule() == Rule::expr).expect("grammar: delimited expr");
    build_expr(e)
}

fn build_fraction(pair: Pair<Rule>) -> ExprKind {
    let mut args = pair.into_inner().filter(|p| p.as_rule() != Rule::frac_cmd).map(build_arg);
    let num = args.next().expect("grammar: \\frac numerator");
    let den = args.next().expect("grammar: \\frac denominator");
    ExprKind::Frac { num: Box::new(num), den: Box::new(den) }
}

/// `\binom{n}{k}` and `{n \choose k}`: the built-in `binom` applied to n and k.
fn build_binomial(pair: Pair<Rule>) -> ExprKind {
    let args: Vec<Expr> = pair
        .into_inner()
        .filter(|p| !matches!(p.as_rule(), Rule::binom_cmd | Rule::choose_cmd))
        .map(|p| if p.as_rule() == Rule::expr { build_expr(p) } else { build_arg(p) })
        .collect();
    let func = Function { name: crate::syntax::ast::BINOMIAL.into(), primes: 0, sub: None, sup: None };
    ExprKind::Apply { func, args, parenthesized: true }
}

fn build_sqrt(pair: Pair<Rule>) -> ExprKind {
    let mut index = None;
    let mut radicand = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::sqrt_cmd => {}
            Rule::sqrt_index => index = Some(Box::new(inner_expr(p))),
            _ => radicand = Some(Box::new(build_arg(p))),
        }
    }
    ExprKind::Sqrt { index, radicand: radicand.expect("grammar: \\sqrt radicand") }
}

fn build_big_operator(pair: Pair<Rule>) -> ExprKind {
    let mut op = BigOpKind::Sum;
    let (mut lower, mut upper, mut body) = (None, None, None);
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::big_op_name => op = big_op_kind(p.as_str()),
            Rule::underset_op => {
                for q in p.into_inner() {
                    match q.as_rule() {
                        Rule::big_op_name => op = big_op_kind(q.as_str()),
                        _ => lower = Some(Box::new(build_arg(q))),
                    }
                }
            }
            Rule::limit => {
                let l = p.into_inner().next().expect("grammar: limit");
                let is_lower = l.as_rule() == Rule::lower_limit;
                let e = Box::new(script_of(l));
                // (`\sum_{i}^{}`, as MathType writes a sum with no upper limit.)
                if matches!(e.kind, ExprKind::Empty) {
                    continue;
                }
                if is_lower {
                    lower = Some(e)
                } else {
                    upper = Some(e)
                }
            }
            Rule::big_op_body => body = Some(Box::new(build_signed_term(p))),
            _ => {}
        }
    }
    ExprKind::BigOp { op, lower, upper, body }
}

/// `sign? term` (the body of a big operator).
fn build_signed_term(pair: Pair<Rule>) -> Expr {
    let mut negative = None;
    let mut out = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::sign => negative = is_minus(p.as_str()).then(|| p.as_span().start()),
            Rule::term => out = Some(build_term(p)),
            _ => {}
        }
    }
    let term = out.expect("grammar: body term");
    match negative {
        Some(at) => negate(term, at),
        None => term,
    }
}

fn big_op_kind(text: &str) -> BigOpKind {
    // `\mathop{\lim}` is `\lim`; `\arg\min` is `\argmin`.
    if let Some(inner) = text.strip_prefix("\\mathop").map(braced_name).filter(|n| n.starts_with('\\')) {
        return big_op_kind(&inner);
    }
    match text.strip_prefix("\\arg").map(str::trim_start) {
        Some("\\min") => return BigOpKind::Argmin,
        Some("\\max") => return BigOpKind::Argmax,
        _ => {}
    }
    match text {
        "\\sum" => BigOpKind::Sum,
        "\\prod" => BigOpKind::Prod,
        "\\coprod" => BigOpKind::Coprod,
        "\\int" => BigOpKind::Int,
        "\\oint" => BigOpKind::Oint,
        "\\bigcup" => BigOpKind::Union,
        "\\bigcap" => BigOpKind::Intersection,
        "\\max" => BigOpKind::Max,
        "\\min" => BigOpKind::Min,
        "\\argmax" => BigOpKind::Argmax,
        "\\argmin" => BigOpKind::Argmin,
        "\\lim" => BigOpKind::Lim,
        "\\sup" => BigOpKind::Sup,
        "\\inf" => BigOpKind::Inf,
        other => BigOpKind::Named(braced_name(other)),
    }
}

/// `\operatorname{mean}` -> `mean`; `\ln` -> `ln`.
fn braced_name(text: &str) -> String {
    match (text.find('{'), text.rfind('}')) {
        (Some(a), Some(b)) if b > a => text[a + 1..b].trim().to_string(),
        _ => text.trim_start_matches('\\').to_string(),
    }
}

fn build_function_call(pair: Pair<Rule>) -> ExprKind {
    let mut func = Function { name: String::new(), primes: 0, sub: None, sup: None };
    let mut args = Vec::new();
    let mut parenthesized = false;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::function_name => func.name = braced_name(p.as_str()),
            Rule::prime => func.primes += 1,
            Rule::limit => {
                let l = p.into_inner().next().expect("grammar: limit");
                let is_lower = l.as_rule() == Rule::lower_limit;
                let e = Some(Box::new(script_of(l)));
                if is_lower {
                    func.sub = e
                } else {
                    func.sup = e
                }
            }
            Rule::function_arg => {
                let a = p.into_inner().next().expect("grammar: function argument");
                if a.as_rule() == Rule::fenced {
                    parenthesized = true;
                    args = fenced_arguments(build_fenced(a.into_inner().next().expect("grammar: fenced")));
                } else {
                    let bare = a.into_inner().next().expect("grammar: bare argument");
                    args = vec![match bare.as_rule() {
                        Rule::factor => build_factor(bare),
                        _ => build_primary(bare),
                    }];
                }
            }
            _ => {}
        }
    }
    ExprKind::Apply { func, args, parenthesized }
}

/// `f(a, b)`: the arguments inside the parentheses.
fn fenced_arguments(fenced: Expr) -> Vec<Expr> {
    match fenced.kind {
        ExprKind::Fenced { inner: Some(inner), .. } => match inner.kind {
            ExprKind::Tuple { items, .. } => items,
            _ => vec![*inner],
        },
        _ => Vec::new(),
    }
}

fn build_partial(pair: Pair<Rule>) -> ExprKind {
    let mut order = None;
    let mut operand = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            Rule::partial_cmd => {}
            Rule::factor => operand = Some(Box::new(build_factor(p))),
            _ => order = Some(Box::new(build_arg(p))),
        }
    }
    ExprKind::Partial { order, operand }
}

fn build_differential(pair: Pair<Rule>) -> ExprKind {
    let operand = pair.into_inner().next().expect("grammar: differential operand");
    let mut inner = operand.into_inner();
    let mut acc = build_primary(inner.next().expect("grammar: differential symbol"));
    for postfix in inner {
        acc = apply_postfix(acc, postfix);
    }
    ExprKind::Differential { operand: Box::new(acc) }
}

fn build_environment(pair: Pair<Rule>) -> Expr {
    let span = span_of(&pair);
    let env = pair.into_inner().next().expect("grammar: environment");
    let is_aligned = env.as_rule() == Rule::aligned_env;
    let mut name = String::new();
    let mut rows = Vec::new();
    let mut aligned_rows = Vec::new();
    for p in env.into_inner() {
        match p.as_rule() {
            Rule::matrix_name | Rule::aligned_name | Rule::cases_name | Rule::array_name => {
                name = p.as_str().to_string()
            }
            Rule::matrix_rows => rows = build_rows(p),
            Rule::aligned_rows => aligned_rows = build_aligned_rows(p),
            _ => {}
        }
    }
    let kind = if is_aligned {
        ExprKind::Aligned { env: name, rows: aligned_rows }
    } else {
        ExprKind::Matrix { env: name, rows }
    };
    Expr::new(kind, span)
}

fn build_aligned_rows(pair: Pair<Rule>) -> Vec<Vec<AlignedCell>> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::aligned_row)
        .map(|row| row.into_inner().filter(|c| c.as_rule() == Rule::aligned_cell).map(build_aligned_cell).collect())
        .filter(|cells: &Vec<AlignedCell>| cells.iter().any(|c| c.statement.is_some() || c.dangling.is_some()))
        .collect()
}

fn build_aligned_cell(cell: Pair<Rule>) -> AlignedCell {
    let mut out = AlignedCell { statement: None, dangling: None };
    for p in cell.into_inner() {
        match p.as_rule() {
            Rule::statement => out.statement = Some(build_statement(p)),
            Rule::dangling_relop => out.dangling = Some(relop_of(p.as_str())),
            _ => {}
        }
    }
    out
}

fn build_rows(pair: Pair<Rule>) -> Vec<Vec<Option<Statement>>> {
    pair.into_inner()
        .filter(|p| p.as_rule() == Rule::matrix_row)
        .map(|row| {
            row.into_inner()
                .filter(|c| c.as_rule() == Rule::cell)
                .map(|cell| cell.into_inner().find(|p| p.as_rule() == Rule::statement).map(build_statement))
                .collect()
        })
        .filter(|cells: &Vec<Option<Statement>>| cells.iter().any(Option::is_some))
        .collect()
}

fn build_fenced(pair: Pair<Rule>) -> Expr {
    let span = span_of(&pair);
    let (mut open, mut close) = match pair.as_rule() {
        Rule::left_paren => ("(".to_string(), ")".to_string()),
        _ => ("[".to_string(), "]".to_string()),
    };
    let mut inner = None;
    for p in pair.into_inner() {
        match p.as_rule() {
            // (`\vert` is TeX's name for `|`, `\Vert` for `\|`: one spelling each from here.)
            Rule::open_delim => open = bar_as_written(p.as_str()).to_string(),
            Rule::close_delim => close = bar_as_written(p.as_str()).to_string(),
            Rule::inner => inner = Some(Box::new(statement_expr(p))),
            _ => {}
        }
    }
    Expr::new(ExprKind::Fenced { open, close, inner }, span)
}

fn inner_of(pair: Pair<Rule>) -> Option<Box<Expr>> {
    pair.into_inner().find(|p| p.as_rule() == Rule::inner).map(|p| Box::new(statement_expr(p)))
}

/// `{...}`: its content (braces are grouping only), or `Empty` for `{}`. A name in braces spans
/// the braces too, so that what is written next to the group is next to the name
/// (`{h_\theta}(x)`, a function applied, as `h_\theta(x)` is); other content keeps its own span
/// (an edit of `\frac1{n-1}` replaces what is inside the braces).
fn group_content(pair: Pair<Rule>, span: Span) -> Expr {
    match inner_of(pair) {
        Some(e) if e.symbol_key().is_some() => Expr { span, ..*e },
        Some(e) => *e,
        None => Expr::new(ExprKind::Empty, span),
    }
}

/// The content of an `inner` rule as one expression: a bare expression, a relation, a tuple of
/// expressions, or a whole statement.
fn statement_expr(inner: Pair<Rule>) -> Expr {
    let span = span_of(&inner);
    let (text, base) = (inner.as_str(), inner.as_span().start());
    let statement = build_statement(inner.into_inner().next().expect("grammar: inner statement"));
    let all_bare = statement.chains.iter().all(|c| c.links.is_empty() && c.first.is_some());
    let mut chains = statement.chains;
    if chains.len() == 1 {
        let chain = chains.pop().expect("one chain");
        if chain.links.is_empty() {
            if let Some(e) = chain.first {
                return e;
            }
        }
        return Expr::new(ExprKind::Relation { chain: Box::new(chain) }, span);
    }
    if all_bare {
        let items: Vec<Expr> = chains.into_iter().filter_map(|c| c.first).collect();
        let gap = |w: &[Expr]| text.get(w[0].span.end - base..w[1].span.start - base).unwrap_or(",");
        let stacked = items.windows(2).all(|w| gap(w).contains([';', '；']) && !gap(w).contains([',', '，']));
        return Expr::new(ExprKind::Tuple { items, stacked }, span);
    }
    Expr::new(ExprKind::Statement { statement: Box::new(Statement { chains, span }) }, span)
}

fn build_accented(pair: Pair<Rule>) -> Expr {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let accent = accent_of(inner.next().expect("grammar: accent").as_str());
    let operand = build_arg(inner.next().expect("grammar: accent operand"));
    match operand.kind {
        ExprKind::Symbol(mut sym) => {
            sym.accents.push(accent);
            Expr::new(ExprKind::Symbol(sym), span)
        }
        _ => Expr::new(ExprKind::Accent { accent, operand: Box::new(operand) }, span),
    }
}

fn accent_of(text: &str) -> Accent {
    match text {
        "\\bar" | "\\overline" => Accent::Bar,
        "\\hat" | "\\widehat" => Accent::Hat,
        "\\tilde" | "\\widetilde" => Accent::Tilde,
        "\\vec" => Accent::Vec,
        "\\dot" => Accent::Dot,
        "\\ddot" => Accent::Ddot,
        "\\check" => Accent::Check,
        "\\breve" => Accent::Breve,
        "\\overrightarrow" => Accent::RightArrow,
        "\\overleftarrow" => Accent::LeftArrow,
        _ => Accent::Underline,
    }
}

/// `\mathbf x`, `\mathbf{B X}`; `before_script`: a script follows, so letters multiplied inside
/// stay under the style (each letter styled too), unread (see [`styled_letters`]).
fn build_styled(pair: Pair<Rule>, before_script: bool) -> Expr {
    let span = span_of(&pair);
    let mut inner = pair.into_inner();
    let style = style_of(inner.next().expect("grammar: style").as_str());
    let arg = inner.next().expect("grammar: style operand");
    let operand = if arg.as_rule() == Rule::style_name {
        let word = arg.into_inner().next().expect("grammar: style word");
        Expr::new(ExprKind::Symbol(Symbol::plain(word.as_str())), span_of(&word))
    } else {
        build_arg(arg)
    };
    match operand.kind {
        ExprKind::Symbol(mut sym) if sym.style.is_none() => {
            sym.style = Some(style);
            Expr::new(ExprKind::Symbol(sym), span)
        }
        // `\mathbf{\boldsymbol{\epsilon}}`: bold twice is bold.
        ExprKind::Symbol(sym) if sym.style == Some(style) => Expr::new(ExprKind::Symbol(sym), span),
        ExprKind::Number { value } if value.len() == 1 => {
            let sym = Symbol { name: value, accents: Vec::new(), style: Some(style), label: None };
            Expr::new(ExprKind::Symbol(sym), span)
        }
        kind => {
            let operand = Expr::new(kind, operand.span);
            let product =
                matches!(operand.kind, ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, .. });
            match styled_letters(style, &operand) {
                // (Each letter's style all the same: the letters are bold, their product unread.)
                Some(letters) if before_script && product => {
                    Expr::new(ExprKind::Styled { style, operand: Box::new(letters) }, span)
                }
                Some(letters) => Expr::new(letters.kind, span),
                None => Expr::new(ExprKind::Styled { style, operand: Box::new(operand) }, span),
            }
        }
    }
}

/// `\mathbf{B X}`, `\mathbf{X\cdot X}`, `\mathbf{{w}_{i}}`: a style around letters multiplied,
/// or around a letter with an index or a power, is each letter's (the index and the power keep
/// theirs); `None` for anything else (a sum, a fraction, a letter already styled otherwise).
fn styled_letters(style: Style, e: &Expr) -> Option<Expr> {
    let kind = match &e.kind {
        ExprKind::Symbol(sym) if sym.style.is_none() || sym.style == Some(style) => {
            ExprKind::Symbol(Symbol { style: Some(style), ..sym.clone() })
        }
        ExprKind::Binary { op: op @ (BinOp::Implicit | BinOp::Cdot | BinOp::Times), lhs, rhs } => ExprKind::Binary {
            op: *op,
            lhs: Box::new(styled_letters(style, lhs)?),
            rhs: Box::new(styled_letters(style, rhs)?),
        },
        ExprKind::Subscript { base, index } => {
            ExprKind::Subscript { base: Box::new(styled_letters(style, base)?), index: index.clone() }
        }
        ExprKind::Power { base, exponent } => {
            ExprKind::Power { base: Box::new(styled_letters(style, base)?), exponent: exponent.clone() }
        }
        ExprKind::Fenced { open, close, inner: Some(inner) } if open == "{" && close == "}" => {
            return styled_letters(style, inner);
        }
        _ => return None,
    };
    Some(Expr::new(kind, e.span))
}

/// `\mathbf{AB}`, `\mathbf{QK}` (`styled`, written as `text` from `start`): bold capitals side by
/// side are the product of the bold matrices, each letter at its place (a bold name is written in
/// small letters, `\mathbf{softmax}`). Anything else is returned as it is.
fn bold_capitals(styled: Expr, text: &str, start: usize) -> Expr {
    let ExprKind::Symbol(s) = &styled.kind else { return styled };
    let Some(at) = text.find(s.name.as_str()).filter(|_| s.is_bold_capitals()) else {
        return styled;
    };
    let letter = |(k, c): (usize, char)| {
        let sym = Symbol { name: c.to_string(), accents: Vec::new(), style: Some(Style::Bold), label: None };
        Expr::new(ExprKind::Symbol(sym), Span::new(start + at + k, start + at + k + 1))
    };
    let mut letters = s.name.chars().enumerate().map(letter);
    let first = letters.next().expect("two letters or more");
    let product = letters.fold(first, |acc, next| {
        let at = Span::new(acc.span.start, next.span.end);
        Expr::new(ExprKind::Binary { op: BinOp::Implicit, lhs: Box::new(acc), rhs: Box::new(next) }, at)
    });
    Expr::new(product.kind, styled.span)
}

fn style_of(text: &str) -> Style {
    match text {
        "\\mathbf" | "\\boldsymbol" | "\\bm" | "\\pmb" => Style::Bold,
        "\\mathrm" => Style::Roman,
        "\\mathsf" => Style::Sans,
        "\\mathcal" => Style::Calligraphic,
        "\\mathbb" => Style::Blackboard,
        "\\mathit" => Style::Italic,
        "\\mathtt" => Style::Typewriter,
        "\\mathfrak" => Style::Fraktur,
        "\\cal" => Style::Calligraphic,
        _ => Style::Script,
    }
}

#[cfg(test)]
#[path = "parser_tests.rs"]
mod tests;
