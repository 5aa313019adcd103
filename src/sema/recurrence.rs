//! Recurrences the notes define (`\mathbf s_t \leftarrow \gamma\mathbf s_{t-1} + (1-\gamma)\mathbf
//! g_t^2`, `m_t = \beta m_{t-1} + (1-\beta) g_t`) and the claims written about them: a restated
//! step (`\mathbf s_t = (1-\gamma)\mathbf g_t^2 + \gamma\mathbf s_{t-1}`) and an unrolled series
//! (`= (1-\gamma)(\mathbf g_t^2 + \gamma\mathbf g_{t-1}^2 + \gamma^2\mathbf g_{t-2}^2 + \ldots)`).
//!
//! Takes: a recurrence's two sides, a claim's two sides. Gives: the claim rewritten into an
//! ordinary identity of plain letters, which every backend checks as any other, and the words
//! that say how it was read (they go into the verdict):
//! - every value of the sequence at a lag below the claim's deepest term is unrolled by the
//!   recurrence; what is left (`\mathbf s_{t-3}`) and every other term of the sequence (`\mathbf
//!   g_{t-1}`) is a free letter;
//! - a side ending in `+\ldots` (or `\cdots`) is read as its written terms plus terms *older*
//!   than the oldest written one: the claim is that the two sides differ by something that does
//!   not depend on the written lags. It is checked as `D(\text{copy }A) = D(\text{copy }B)` for
//!   the difference `D` of the sides with the written lags' letters taken twice, independently.
//! - vectors (bold) are read coordinate by coordinate, which is sound only where every operation
//!   is elementwise: sums, scalar multiples, powers, quotients, roots, `\odot`. Anything else
//!   (a transpose, a norm, a product of two vectors, a function) leaves the claim as it was.

use crate::syntax::ast::{BinOp, Expr, ExprKind, Span, Style, Symbol};
use crate::syntax::pattern::has_ellipsis;

/// The recurrence that defines the sequence `e` is a term of (`m_t`, `\mathbf s_{t-1}`): such a
/// left side is no new definition, the claim is about the sequence.
pub fn defining<'a>(e: &Expr, recurrences: &'a [Recurrence]) -> Option<&'a Recurrence> {
    let ExprKind::Subscript { base, index } = &e.kind else { return None };
    let key = sequence_key(base)?;
    recurrences.iter().rev().find(|r| r.key == key && offset(index, &r.step).is_some())
}

/// `x_t = body` where body uses `x_{t-1}` (or an older lag) and not `x_t` itself.
#[derive(Debug, Clone, PartialEq)]
pub struct Recurrence {
    /// The sequence's key (`s` for `\mathbf s`).
    pub key: String,
    /// The step letter (`t`).
    pub step: String,
    pub body: Expr,
    /// As written, for the verdict: `\mathbf{s}_t \leftarrow …` (line 16).
    pub written: String,
    /// The number of the section that wrote it: a later section's update of the same letter is
    /// a new one.
    pub section: String,
}

/// Reads `target = body` (or `target \leftarrow body`) as a recurrence. A target ahead of its
/// step (`s_{t+1} = A s_t + B a_t`, the model's next state) is the same recurrence one step
/// later: it is kept as `s_t = A s_{t-1} + B a_{t-1}`, every term of the body moved back as far.
pub fn read(target: &Expr, body: &Expr, written: String) -> Option<Recurrence> {
    let ExprKind::Subscript { base, index } = &target.kind else { return None };
    let key = sequence_key(base)?;
    let step = step_letter(index)?;
    let ahead = offset(index, &step)?;
    let body = match ahead {
        0 => body.clone(),
        1.. => moved_back(body, &step, ahead)?,
        _ => return None,
    };
    let body = &body;
    let lags = lags_of(body, &key, &step);
    (!lags.is_empty() && !lags.contains(&0)).then(|| Recurrence {
        key,
        step,
        body: body.clone(),
        written,
        section: String::new(),
    })
}

/// The first sequence defined by recursion that `lhs = rhs` writes (for a claim [`rewrite`]
/// could not read through it).
pub fn mentioned_sequence(recurrences: &[Recurrence], lhs: &Expr, rhs: &Expr) -> Option<String> {
    recurrences.iter().find(|r| mentions_sequence(lhs, r) || mentions_sequence(rhs, r)).map(|r| r.key.clone())
}

/// A claim rewritten through the recurrences it uses.
#[derive(Debug, Clone)]
pub struct Rewritten {
    pub lhs: Expr,
    pub rhs: Expr,
    /// How it was read, for the verdict.
    pub reading: crate::model::Unrolled,
}

/// The claim `lhs = rhs` read through the recurrences it reaches (those whose sequence it uses,
/// and those their steps use in turn); `None` when it reaches none, or cannot be read soundly
/// that way (steps of different letters, an operation that is not elementwise, a tail that is
/// not the oldest terms).
pub fn rewrite(recurrences: &[Recurrence], lhs: &Expr, rhs: &Expr) -> Option<Rewritten> {
    let (lhs, rhs) = &moved_to_the_step(recurrences, lhs, rhs);
    let mut used: Vec<&Recurrence> = Vec::new();
    let mut frontier: Vec<&Expr> = vec![lhs, rhs];
    while let Some(e) = frontier.pop() {
        for rec in recurrences.iter().filter(|r| mentions_sequence(e, r)) {
            if !used.iter().any(|u| u.key == rec.key) {
                used.push(rec);
                frontier.push(&rec.body);
            }
        }
    }
    let step = used.first()?.step.clone();
    if used.iter().any(|r| r.step != step) {
        return None;
    }
    // `\mathbf v_t = \beta\mathbf v_{t-1} + \mathbf g_{t, t-1}`, `m_t = m_{t-1} + g_t/t`: a step
    // written other than as a lag (`x_{t-k}`) could not be shifted with the term.
    if !used.iter().all(|r| shiftable(&r.body, &step)) {
        return None;
    }
    let bodies = used.iter().map(|r| &r.body);
    let bold = bodies.clone().chain([lhs, rhs]).any(uses_bold);
    if !bodies.chain([lhs, rhs]).all(|e| elementwise(e, bold)) {
        return None;
    }
    let defined = |key: &str| used.iter().any(|r| r.key == key);
    // The deepest lag of the other sequences written in the claim: the sequences are unrolled
    // up to it, so that each of those terms meets its counterpart.
    let (mut other_lags, mut own_lags) = (Vec::new(), Vec::new());
    for side in [lhs, rhs] {
        time_terms(side, &step, &mut |key, lag| {
            if defined(key) {
                own_lags.push(lag)
            } else {
                other_lags.push(lag)
            }
        });
    }
    let deepest = other_lags.iter().copied().max().unwrap_or(0);
    // `v_t = \beta^2 v_{t-2} + \beta g_{t-1} + g_t`: the sequence itself written at an older
    // lag is met there too (without a tail of dots, which reads its own way below).
    let dots = has_ellipsis(lhs) || has_ellipsis(rhs);
    let own = own_lags.iter().copied().max().filter(|_| !dots).unwrap_or(0);
    let below = (deepest + 1).max(own);
    let (mut l, mut r) = (lhs.clone(), rhs.clone());
    for side in [&mut l, &mut r] {
        unroll(side, &used, below)?;
    }
    let mut reading = crate::model::Unrolled {
        recurrences: used.iter().map(|r| r.written.clone()).collect(),
        lag: below,
        coordinatewise: bold,
        older_than: None,
    };
    let tails = usize::from(has_ellipsis(&l)) + usize::from(has_ellipsis(&r));
    let (lhs, rhs) = match tails {
        0 => (scalar_terms(&l, &step, ""), scalar_terms(&r, &step, "")),
        1 => {
            let tail_side = if has_ellipsis(lhs) { lhs } else { rhs };
            if !tail_only(&l) || !tail_only(&r) || !oldest_last(tail_side, &step) {
                return None;
            }
            let span = Span::new(lhs.span.start, rhs.span.end);
            let difference = Expr::new(
                ExprKind::Binary { op: BinOp::Sub, lhs: Box::new(drop_tail(&l)), rhs: Box::new(drop_tail(&r)) },
                span,
            );
            reading.older_than = Some(deepest);
            let copies = |mark: &str| scalar_terms_upto(&difference, &step, mark, deepest);
            (copies("'"), copies("''"))
        }
        _ => return None,
    };
    Some(Rewritten { lhs, rhs, reading })
}

/// A claim that writes a sequence ahead of its step (`x_{t+1} - x_t = -\eta g_t`) moved back
/// until none is (`x_t - x_{t-1} = -\eta g_{t-1}`): the step is any step, so the claim says the
/// same. As written where nothing is ahead, or the step letter stands outside an index.
fn moved_to_the_step(recurrences: &[Recurrence], lhs: &Expr, rhs: &Expr) -> (Expr, Expr) {
    for rec in recurrences {
        let mut ahead = 0;
        for side in [lhs, rhs] {
            terms_ahead(side, &rec.step, &mut |key, at| {
                if recurrences.iter().any(|r| r.key == key && r.step == rec.step) {
                    ahead = ahead.max(at);
                }
            });
        }
        if ahead > 0 {
            if let (Some(l), Some(r)) = (moved_back(lhs, &rec.step, ahead), moved_back(rhs, &rec.step, ahead)) {
                return (l, r);
            }
        }
    }
    (lhs.clone(), rhs.clone())
}

/// Calls `found(key, offset)` for each term `x_{t+k}` of any sequence in `e` (`k` of any sign).
fn terms_ahead(e: &Expr, step: &str, found: &mut dyn FnMut(&str, i64)) {
    if let ExprKind::Subscript { base, index } = &e.kind {
        if let (Some(key), Some(at)) = (sequence_key(base), offset(index, step)) {
            found(&key, at);
            return;
        }
    }
    e.children().for_each(|c| terms_ahead(c, step, found));
}

/// The side's terms, in the order written, go back in time, and the ellipsis comes after them
/// all: `g_t + \gamma g_{t-1} + \ldots`, not `g_{t-2} + g_{t-1} + \ldots` (whose tail would be
/// newer terms).
fn oldest_last(side: &Expr, step: &str) -> bool {
    let mut written: Vec<(usize, u32)> = Vec::new();
    collect_positions(side, step, &mut written);
    written.sort_by_key(|&(at, _)| at);
    let ordered = written.windows(2).all(|w| w[0].1 <= w[1].1);
    let mut tails = Vec::new();
    ellipsis_positions(side, &mut tails);
    ordered && tails.iter().all(|&at| written.iter().all(|&(term, _)| term < at))
}

fn collect_positions(e: &Expr, step: &str, out: &mut Vec<(usize, u32)>) {
    if let ExprKind::Subscript { base, index } = &e.kind {
        if let (Some(_), Some(k)) = (sequence_key(base), lag(index, step)) {
            out.push((e.span.start, k));
            return;
        }
    }
    e.children().for_each(|c| collect_positions(c, step, out));
}

fn ellipsis_positions(e: &Expr, out: &mut Vec<usize>) {
    if matches!(e.kind, ExprKind::Ellipsis) {
        out.push(e.span.start);
    }
    e.children().for_each(|c| ellipsis_positions(c, out));
}

/// The key a sequence's values are looked up by (`s` for `\mathbf s`).
fn sequence_key(base: &Expr) -> Option<String> {
    match &base.kind {
        ExprKind::Symbol(s) if s.label.is_none() => Some(s.key()),
        _ => None,
    }
}

/// The one plain letter an index is written in (`t` of `t`, `t+1`, `t-2`): the step.
fn step_letter(index: &Expr) -> Option<String> {
    match &index.kind {
        ExprKind::Symbol(s) => {
            let plain = s.accents.is_empty() && s.label.is_none() && s.name.chars().count() == 1;
            plain.then(|| s.name.clone())
        }
        ExprKind::Binary { op: BinOp::Add | BinOp::Sub, lhs, rhs } if matches!(rhs.kind, ExprKind::Number { .. }) => {
            step_letter(lhs)
        }
        ExprKind::Fenced { inner: Some(inner), .. } => step_letter(inner),
        _ => None,
    }
}

/// How far an index is ahead of the step: `t` gives 0, `t+1` gives 1, `t-2` gives −2; `None` for
/// any other index (`t+0` among them, never written for `t`).
fn offset(index: &Expr, step: &str) -> Option<i64> {
    match &index.kind {
        ExprKind::Symbol(s) if s.name == step && s.accents.is_empty() && s.label.is_none() => Some(0),
        ExprKind::Binary { op: op @ (BinOp::Add | BinOp::Sub), lhs, rhs } => {
            let ExprKind::Number { value } = &rhs.kind else { return None };
            let k: i64 = value.parse().ok()?;
            let at = if *op == BinOp::Add { Some(k).filter(|&k| k > 0)? } else { -k };
            (offset(lhs, step)? == 0).then_some(at)
        }
        ExprKind::Fenced { inner: Some(inner), .. } => offset(inner, step),
        _ => None,
    }
}

/// `body` of a recurrence written `ahead` steps ahead (`A s_t + B a_t` of `s_{t+1} = …`), every
/// term moved back by `ahead` (`A s_{t-1} + B a_{t-1}`); `None` where a term would stay ahead
/// of the step, or the step letter stands outside an index (`\eta / (t+1)`: it would have to
/// move too).
fn moved_back(body: &Expr, step: &str, ahead: i64) -> Option<Expr> {
    let mut before = Vec::new();
    let mut sound = step_offsets(body, step, &mut before);
    let moved = map(body, &mut |x| {
        let ExprKind::Subscript { base, index } = &x.kind else { return None };
        let at = offset(index, step)? - ahead;
        let back = u32::try_from(-at).ok();
        sound &= back.is_some();
        let index = lag_index(step, back.unwrap_or(0), index.span);
        Some(Expr::new(ExprKind::Subscript { base: base.clone(), index: Box::new(index) }, x.span))
    });
    // Every term moved: [`map`] does not look inside every kind (`\frac{\partial f}{\partial
    // x_t}`), and a term left where it was would pair two steps.
    let mut after = Vec::new();
    step_offsets(&moved, step, &mut after);
    let mut expected: Vec<i64> = before.iter().map(|at| at - ahead).collect();
    expected.sort_unstable();
    after.sort_unstable();
    (sound && after == expected).then_some(moved)
}

/// Does `e` write the step letter only inside the index of a term (`x_{t+1}`, `a_t`)? The
/// offset of each such term is pushed to `out` (all of them where it does).
fn step_offsets(e: &Expr, step: &str, out: &mut Vec<i64>) -> bool {
    if let ExprKind::Subscript { index, .. } = &e.kind {
        if let Some(at) = offset(index, step) {
            out.push(at);
            return true;
        }
    }
    match &e.kind {
        ExprKind::Symbol(s) => s.name != step,
        _ => e.children().all(|c| step_offsets(c, step, out)),
    }
}

/// `t` gives 0, `t-2` gives 2; `None` for any other index.
pub fn lag(index: &Expr, step: &str) -> Option<u32> {
    offset(index, step).and_then(|at| u32::try_from(-at).ok())
}

/// Calls `found(key, lag)` for each term `x_{t-k}` of any sequence in `e` (not those ahead of
/// the step).
fn time_terms(e: &Expr, step: &str, found: &mut dyn FnMut(&str, u32)) {
    terms_ahead(e, step, &mut |key, at| {
        if let Ok(lag) = u32::try_from(-at) {
            found(key, lag);
        }
    });
}

fn lags_of(e: &Expr, key: &str, step: &str) -> Vec<u32> {
    let mut out = Vec::new();
    time_terms(e, step, &mut |k, lag| {
        if k == key {
            out.push(lag)
        }
    });
    out
}

fn mentions_sequence(e: &Expr, rec: &Recurrence) -> bool {
    !lags_of(e, &rec.key, &rec.step).is_empty()
}

fn uses_bold(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => s.style == Some(Style::Bold) && !s.is_bold_one(),
        _ => e.children().any(uses_bold),
    }
}

/// A capital letter standing alone (`A`, `\Sigma`, `P^2`), as notes write a matrix.
fn is_capital(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Symbol(s) => {
            let name = s.name.trim_start_matches('\\');
            name.chars().next().is_some_and(char::is_uppercase)
        }
        ExprKind::Power { base, .. } | ExprKind::Transpose { operand: base } => is_capital(base),
        ExprKind::Fenced { inner: Some(inner), .. } => is_capital(inner),
        _ => false,
    }
}

/// Only operations that act coordinate by coordinate (where `bold`: vectors are present), and
/// only kinds [`map`] rebuilds.
fn elementwise(e: &Expr, bold: bool) -> bool {
    let ok = match &e.kind {
        ExprKind::Number { .. } | ExprKind::Symbol(_) | ExprKind::Ellipsis => true,
        ExprKind::Subscript { .. } => true,
        ExprKind::Neg { .. } | ExprKind::Frac { .. } | ExprKind::Sqrt { index: None, .. } => true,
        ExprKind::Fenced { open, .. } => matches!(open.as_str(), "(" | "[" | "\\{" | ""),
        // `\beta(1-\beta)`: a product or a function of a number, as the evaluator decides.
        ExprKind::Call { func, .. } => matches!(func.kind, ExprKind::Symbol(_)) && !uses_bold(func),
        ExprKind::Power { exponent, .. } => !bold || matches!(exponent.kind, ExprKind::Number { .. }),
        ExprKind::Binary { op, lhs, rhs } => match op {
            BinOp::Add | BinOp::Sub | BinOp::Hadamard | BinOp::Div => true,
            // A product of two vectors has no one elementwise reading; nor one with a capital
            // letter, a matrix as notes write one (`A s_{t-1}`), which is not one coordinate.
            BinOp::Implicit | BinOp::Cdot | BinOp::Times => {
                let two_vectors = uses_bold(lhs) && uses_bold(rhs);
                !(two_vectors || is_capital(lhs) || is_capital(rhs))
            }
            _ => false,
        },
        _ => false,
    };
    // A subscript is a term of a sequence or a plain name: not looked into.
    ok && (matches!(e.kind, ExprKind::Subscript { .. }) || e.children().all(|c| elementwise(c, bold)))
}

/// Rebuilds `e` bottom-up, replacing each node `f` maps to `Some`. The kinds [`elementwise`]
/// admits are looked into, and applications and lists.
pub fn map(e: &Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>) -> Expr {
    if let Some(replaced) = f(e) {
        return replaced;
    }
    let boxed = |x: &Expr, f: &mut dyn FnMut(&Expr) -> Option<Expr>| Box::new(map(x, f));
    let kind = match &e.kind {
        ExprKind::Neg { operand } => ExprKind::Neg { operand: boxed(operand, f) },
        ExprKind::Abs { operand } => ExprKind::Abs { operand: boxed(operand, f) },
        ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary { op: *op, lhs: boxed(lhs, f), rhs: boxed(rhs, f) },
        ExprKind::Frac { num, den } => ExprKind::Frac { num: boxed(num, f), den: boxed(den, f) },
        ExprKind::Sqrt { index, radicand } => {
            ExprKind::Sqrt { index: index.as_ref().map(|i| boxed(i, f)), radicand: boxed(radicand, f) }
        }
        ExprKind::Power { base, exponent } => ExprKind::Power { base: boxed(base, f), exponent: boxed(exponent, f) },
        ExprKind::Call { func, args, postfixed } => {
            ExprKind::Call { func: func.clone(), args: args.iter().map(|a| map(a, f)).collect(), postfixed: *postfixed }
        }
        ExprKind::Fenced { open, close, inner } => {
            ExprKind::Fenced { open: open.clone(), close: close.clone(), inner: inner.as_ref().map(|i| boxed(i, f)) }
        }
        // `\mathrm{Var}(X)`, `\mathrm{Cov}(X, Y)`: arguments and lists are looked into (no side a
        // recurrence unrolls has them: [`elementwise`] refuses both).
        ExprKind::Apply { func, args, parenthesized } => ExprKind::Apply {
            func: func.clone(),
            args: args.iter().map(|a| map(a, f)).collect(),
            parenthesized: *parenthesized,
        },
        ExprKind::Tuple { items, stacked } => {
            ExprKind::Tuple { items: items.iter().map(|i| map(i, f)).collect(), stacked: *stacked }
        }
        other => other.clone(),
    };
    Expr::new(kind, e.span)
}

/// Largest unrolled side, in tree nodes: a recurrence that uses two earlier terms (`F_t =
/// F_{t-1} + F_{t-2}`) doubles with every pass, and a claim at lag 60 would never finish.
const MAX_NODES: usize = 20_000;

fn nodes(e: &Expr) -> usize {
    1 + e.children().map(nodes).sum::<usize>()
}

/// The terms of the `used` sequences at lags below `below` replaced by their recurrences, until
/// none is left; `None` if that does not end (a recurrence that does not go back in time) or the
/// side grows past [`MAX_NODES`].
fn unroll(e: &mut Expr, used: &[&Recurrence], below: u32) -> Option<()> {
    let pending = |e: &Expr| used.iter().any(|r| lags_of(e, &r.key, &r.step).iter().any(|&k| k < below));
    let mut steps = 0;
    while pending(e) {
        steps += 1;
        if steps > 64 {
            return None;
        }
        *e = map(e, &mut |x| {
            let ExprKind::Subscript { base, index } = &x.kind else { return None };
            let key = sequence_key(base)?;
            let rec = used.iter().find(|r| r.key == key)?;
            let k = lag(index, &rec.step)?;
            (k < below).then(|| shifted(&rec.body, &rec.step, k, x.span))
        });
        if nodes(e) > MAX_NODES {
            return None;
        }
    }
    Some(())
}

/// Does `body` write the step letter only as the lag of a term (`x_{t-1}`), which [`shifted`]
/// moves?
fn shiftable(body: &Expr, step: &str) -> bool {
    let mut offsets = Vec::new();
    step_offsets(body, step, &mut offsets) && offsets.iter().all(|&at| at <= 0)
}

/// `body` with every lag increased by `by` (its value at `t-by`), spans set to `span`.
fn shifted(body: &Expr, step: &str, by: u32, span: Span) -> Expr {
    let mut out = map(body, &mut |x| {
        let ExprKind::Subscript { base, index } = &x.kind else { return None };
        let k = lag(index, step)?;
        Some(Expr::new(
            ExprKind::Subscript { base: base.clone(), index: Box::new(lag_index(step, k + by, index.span)) },
            x.span,
        ))
    });
    set_span(&mut out, span);
    Expr::parenthesized(out, span)
}

fn set_span(e: &mut Expr, span: Span) {
    *e = map(e, &mut |_| None);
    e.span = span;
}

fn lag_index(step: &str, k: u32, span: Span) -> Expr {
    let t = Expr::new(ExprKind::Symbol(Symbol::plain(step)), span);
    if k == 0 {
        return t;
    }
    let number = Expr::new(ExprKind::Number { value: k.to_string() }, span);
    Expr::new(ExprKind::Binary { op: BinOp::Sub, lhs: Box::new(t), rhs: Box::new(number) }, span)
}

/// Every ellipsis stands as a summand (`… + \ldots`), possibly inside parentheses multiplied by
/// a factor without an ellipsis: what it leaves out is then a sum of older terms.
fn tail_only(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Ellipsis => true,
        ExprKind::Binary { op: BinOp::Add, lhs, rhs } => tail_only(lhs) && tail_only(rhs),
        ExprKind::Binary { op: BinOp::Implicit | BinOp::Cdot | BinOp::Times, lhs, rhs } => {
            (!has_ellipsis(lhs) && tail_only(rhs)) || (tail_only(lhs) && !has_ellipsis(rhs))
        }
        ExprKind::Fenced { open, inner: Some(inner), .. } if open == "(" || open.is_empty() => tail_only(inner),
        _ => !has_ellipsis(e),
    }
}

/// The ellipsis replaced by 0.
fn drop_tail(e: &Expr) -> Expr {
    map(e, &mut |x| {
        matches!(x.kind, ExprKind::Ellipsis).then(|| Expr::new(ExprKind::Number { value: "0".into() }, x.span))
    })
}

/// Each term of a sequence made a plain letter of its own, labelled by its lag (`\mathbf g_{t-2}`
/// becomes the letter `g^{(t-2)}`, a number: one coordinate), with `mark` appended.
fn scalar_terms(e: &Expr, step: &str, mark: &str) -> Expr {
    scalar_terms_upto(e, step, mark, u32::MAX)
}

/// As [`scalar_terms`], marking only the terms at lags up to `deepest` (the others are shared).
fn scalar_terms_upto(e: &Expr, step: &str, mark: &str, deepest: u32) -> Expr {
    map(e, &mut |x| {
        let ExprKind::Subscript { base, index } = &x.kind else { return None };
        let ExprKind::Symbol(s) = &base.kind else { return None };
        let k = lag(index, step)?;
        let lag_text = if k == 0 { step.to_string() } else { format!("{step}-{k}") };
        let mark = if k <= deepest { mark } else { "" };
        // Not bold: a coordinate is a number.
        let mut accents = s.accents.clone();
        accents.retain(|a| *a != crate::syntax::ast::Accent::Vec);
        let letter = Symbol { name: s.name.clone(), accents, style: None, label: Some(format!("{lag_text}{mark}")) };
        Some(Expr::new(ExprKind::Symbol(letter), x.span))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::parse_formula;

    fn sides(tex: &str) -> (Expr, Expr) {
        let s = parse_formula(tex).unwrap();
        let chain = &s.chains[0];
        (chain.first.clone().unwrap(), chain.links[0].rhs.clone())
    }

    fn rmsprop() -> Recurrence {
        let (t, b) = sides(r"\mathbf{s}_t = \gamma \mathbf{s}_{t-1} + (1 - \gamma) \mathbf{g}_t^2");
        read(&t, &b, "s".into()).expect("a recurrence")
    }

    #[test]
    fn reads_a_recurrence_and_refuses_what_is_none() {
        assert_eq!(rmsprop().key, "s");
        for tex in [r"s_t = s_t + 1", r"s_t = g_t", r"s_{t+1} = s_{t+1} + s_{t+2}", r"s_i = s_{i-1}^\top"] {
            let (t, b) = sides(tex);
            let got = read(&t, &b, String::new()).filter(|r| elementwise(&r.body, true));
            assert!(got.is_none() || tex.contains("top"), "{tex}: {got:?}");
        }
    }

    #[test]
    fn a_series_with_a_tail_becomes_two_copies_of_its_difference() {
        let (l, r) = sides(
            r"(1 - \gamma) \mathbf{g}_t^2 + \gamma \mathbf{s}_{t-1} = (1 - \gamma) \left(\mathbf{g}_t^2 + \gamma \mathbf{g}_{t-1}^2 + \gamma^2 \mathbf{g}_{t-2} + \ldots \right)",
        );
        let got = rewrite(&[rmsprop()], &l, &r).expect("read");
        let printed = crate::syntax::print::explicit_tex(&got.lhs, &|_| false);
        assert!(printed.contains("g^{(t-2')}") && printed.contains("s^{(t-3)}"), "{printed}");
        assert!(!printed.contains("''") && !printed.contains("\\ldots"), "{printed}");
    }

    #[test]
    fn every_sequence_a_claim_reaches_is_unrolled_and_a_tail_must_hold_the_oldest_terms() {
        let (t, b) = sides(r"v_t = \beta v_{t-1} + g_t");
        let momentum = read(&t, &b, "v".into()).unwrap();
        let (t, b) = sides(r"x_t = x_{t-1} - \eta v_t");
        let step = read(&t, &b, "x".into()).unwrap();
        // x_t unrolled once brings in v_t, which is unrolled too.
        let (l, r) = sides(r"x_t = x_{t-1} - \eta(\beta v_{t-1} + g_t)");
        let got = rewrite(&[momentum.clone(), step.clone()], &l, &r).expect("read");
        let printed = crate::syntax::print::explicit_tex(&got.lhs, &|_| false);
        assert!(!printed.contains("v^{(t)}") && printed.contains("v^{(t-1)}"), "{printed}");
        // Newer terms after the ellipsis: not a tail of older ones.
        let (l, r) = sides(r"v_t = g_{t-2} + \beta g_{t-1} + \beta^2 g_t + \ldots");
        assert!(rewrite(&[momentum], &l, &r).is_none());
    }

    #[test]
    fn a_recurrence_written_a_step_ahead_is_the_same_recurrence() {
        let (t, b) = sides(r"v_{t+1} = \beta v_t + g_{t+1}");
        let ahead = read(&t, &b, "v".into()).expect("a recurrence");
        let printed = crate::syntax::print::explicit_tex(&ahead.body, &|_| false);
        assert!(printed.contains("{v}_{t-1}") && printed.contains("{g}_{t}"), "{printed}");
        // A claim ahead of the step is moved back with it, and unrolled as any other.
        let (l, r) = sides(r"v_{t+1} = \beta^2 v_{t-1} + \beta g_t + g_{t+1}");
        let got = rewrite(std::slice::from_ref(&ahead), &l, &r).expect("read");
        let printed = crate::syntax::print::explicit_tex(&got.lhs, &|_| false);
        assert!(printed.contains("v^{(t-2)}") && !printed.contains("t+1"), "{printed}");
        // A term still ahead of the target, or the step letter outside an index: no recurrence.
        for tex in [
            r"v_{t+1} = v_t + g_{t+2}",
            r"v_{t+1} = v_t + \frac{1}{t+1}",
            r"v_{t+1} = v_t - \eta\frac{\partial f}{\partial v_t}",
        ] {
            let (t, b) = sides(tex);
            assert!(read(&t, &b, String::new()).is_none(), "{tex}");
        }
        // `s_{t+1} = A s_t + B a_t`: the matrices of a linear system are no coordinates.
        let (t, b) = sides(r"s_{t+1} = A s_t + B a_t");
        let system = read(&t, &b, "s".into()).expect("a recurrence");
        let (l, r) = sides(r"s_{t+2} = A^2 s_t + B A a_t + B a_{t+1}");
        assert!(rewrite(&[system], &l, &r).is_none());
    }

    #[test]
    fn an_unrolling_that_would_explode_is_refused() {
        let (t, b) = sides(r"F_t = F_{t-1} + F_{t-2}");
        let fibonacci = read(&t, &b, "F".into()).unwrap();
        let (l, r) = sides(r"F_t = g_{t-60} + F_{t-1}");
        // Unbounded, this would build a tree of 2^60 nodes.
        assert!(rewrite(&[fibonacci], &l, &r).is_none());
    }

    #[test]
    fn a_step_written_other_than_as_a_lag_is_refused_and_the_sequence_met_at_its_own_lag() {
        // `g_{t, t-1}` and `g_t / t` would not move with the term: no reading.
        let (t, b) = sides(r"v_t = \beta v_{t-1} + g_{t, t-1}");
        let pair = read(&t, &b, "v".into()).expect("a recurrence");
        let (l, r) = sides(r"v_t = \beta^2 v_{t-2} + \beta g_{t-1, t-2} + g_{t, t-1}");
        assert!(rewrite(&[pair], &l, &r).is_none());
        let (t, b) = sides(r"w_t = w_{t-1} + g_t / t");
        let scaled = read(&t, &b, "w".into()).expect("a recurrence");
        let (l, r) = sides(r"w_t = w_{t-2} + g_{t-1} / (t-1) + g_t / t");
        assert!(rewrite(&[scaled], &l, &r).is_none());
        // `v_{t-2}` on the right: the left side is unrolled down to it.
        let (t, b) = sides(r"v_t = \beta v_{t-1} + g_t");
        let momentum = read(&t, &b, "v".into()).expect("a recurrence");
        let (l, r) = sides(r"v_t = \beta^2 v_{t-2} + \beta g_{t-1} + g_t");
        let got = rewrite(&[momentum], &l, &r).expect("read");
        let printed = crate::syntax::print::explicit_tex(&got.lhs, &|_| false);
        assert!(printed.contains("v^{(t-2)}") && !printed.contains("v^{(t-1)}"), "{printed}");
    }

    #[test]
    fn products_of_vectors_and_functions_are_not_read_coordinatewise() {
        let (l, r) = sides(r"\mathbf{s}_t = \mathbf{g}_t^\top \mathbf{s}_{t-1}");
        assert!(rewrite(&[rmsprop()], &l, &r).is_none());
        let (l, r) = sides(r"\mathbf{s}_t = \mathbf{g}_t \mathbf{s}_{t-1}");
        assert!(rewrite(&[rmsprop()], &l, &r).is_none());
    }
}
