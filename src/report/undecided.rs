//! Why the undecided claims are undecided, grouped: the coverage figure an author reads to see what
//! to declare, mark or write differently. One model ([`UndecidedGroup`]), rendered by the text
//! summary, the JSON report and the appendix.

use super::{CheckReport, CheckSummary, ClaimEntry, Lang};
use crate::model::{NotRead, Reading, Reason, Status, Why};
use serde::Serialize;

/// Undecided claims sharing a reason and the construct it names.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct UndecidedGroup {
    pub why: Why,
    /// The construct or letter the reason names (`P(…)`, `f'`, `i`), where it names one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub construct: Option<String>,
    pub count: usize,
    /// `path:line` of each claim, in report order.
    pub at: Vec<String>,
}

/// Adds `more` (another chapter's groups) into `into`, keeping the largest first.
pub fn merge(into: &mut Vec<UndecidedGroup>, more: &[UndecidedGroup]) {
    for group in more {
        match into.iter_mut().find(|g| g.why == group.why && g.construct == group.construct) {
            Some(g) => {
                g.count += group.count;
                g.at.extend(group.at.iter().cloned());
            }
            None => into.push(group.clone()),
        }
    }
    into.sort_by_key(|g| std::cmp::Reverse(g.count));
}

/// The undecided claims of a report's files grouped by why, the largest group first.
pub fn groups(report: &CheckReport) -> Vec<UndecidedGroup> {
    let claims: Vec<UndecidedGroup> = report
        .files
        .iter()
        .flat_map(|file| {
            file.claims.iter().filter(|c| c.verdict == Status::Undecided).map(|claim| {
                let (why, construct) = classify(claim);
                let at = vec![format!("{}:{}", file.listing.path, claim.line)];
                UndecidedGroup { why, construct, count: 1, at }
            })
        })
        .collect();
    // Stable: equal counts keep the order of first appearance.
    let mut out = Vec::new();
    merge(&mut out, &claims);
    out
}

/// Why an undecided claim is undecided.
pub fn why(claim: &ClaimEntry) -> Why {
    classify(claim).0
}

fn classify(claim: &ClaimEntry) -> (Why, Option<String>) {
    match &claim.reason {
        Reason::NotRead { kind, detail } => {
            let why = match kind {
                NotRead::NotUnderstood => Why::NotUnderstood,
                NotRead::Ambiguous => Why::Ambiguous,
                NotRead::NeedsSpec => Why::NeedsShapeOrRange,
                NotRead::Malformed => Why::Incomplete,
                NotRead::Outside => Why::Beyond,
                NotRead::Numeric => Why::NotEvaluable,
            };
            (why, Some(construct_of(claim, detail)))
        }
        Reason::UnboundIndex { name } => (Why::IndexWithoutValue, Some(name.clone())),
        Reason::OtherReading {
            reading: Reading::Condition | Reading::Consequence | Reading::EarlierCondition | Reading::ConditionUnused,
            ..
        } => (Why::Condition, None),
        Reason::OtherReading { symbol, .. } => (Why::MeaningOpen, symbol.clone()),
        Reason::HoldsForPositive { .. } => (Why::PositiveOnly, None),
        Reason::DiffersWhereNotReal { .. } => (Why::NotReal, None),
        Reason::ApproxWithoutDecimals => (Why::ApproxWithoutDecimals, None),
        Reason::ShapeMismatch { .. } | Reason::NotScalar { .. } | Reason::TransposedLayout { .. } => {
            (Why::Shapes, None)
        }
        Reason::Budget { .. } => (Why::Budget, None),
        _ => (Why::Other, None),
    }
}

/// The construct a reason names: the first `quoted` part of its detail, as the author wrote it
/// where the detail has it as a tree (`(text "Var")` is `\textrm{Var}` in the notes), else the
/// TeX the verdict points at, else the detail's start.
fn construct_of(claim: &ClaimEntry, detail: &str) -> String {
    let focused = claim.focus.and_then(|(s, e)| claim.tex.get(s..e)).map(str::trim).filter(|t| !t.is_empty());
    let quoted = detail.split('`').nth(1).filter(|q| !q.is_empty());
    let tree = quoted.is_some_and(|q| q.starts_with('(') && q.contains(' '));
    let shown = match (quoted, focused) {
        (Some(_), Some(tex)) if tree => tex,
        (Some(q), _) => q,
        (None, Some(tex)) => tex,
        (None, None) => detail,
    };
    let short: String = shown.chars().take(40).collect();
    if short.len() < shown.len() {
        short + "…"
    } else {
        short
    }
}

/// Most constructs named per kind of reason in the text summary; the JSON report has them all.
const CONSTRUCTS: usize = 3;
/// Most places listed per kind of reason.
pub(super) const PLACES: usize = 4;

/// One kind of reason, as reports show it: how many, the constructs it names most, where.
#[derive(Debug, Clone, Serialize)]
pub struct UndecidedRow {
    pub count: usize,
    pub why: &'static str,
    /// The kind of reason, as data.
    pub kind: Why,
    /// The constructs it names most, each with its count, and whether there are more.
    pub named: Vec<(String, usize)>,
    pub more_named: bool,
    /// `` `P(…)` 25, `E[…]` 22, … `` (empty where the reason names none).
    pub constructs: String,
    /// The same, safe in a Markdown table cell (`|` written `\|`).
    pub constructs_cell: String,
    /// `` `a.md`:3, 7; `b.md`:2 (+5) ``.
    pub places: String,
}

/// One row per kind of reason, the largest first.
pub fn rows(s: &CheckSummary, lang: Lang) -> Vec<UndecidedRow> {
    let mut kinds: Vec<(Why, usize)> = Vec::new();
    for group in &s.undecided_by_why {
        match kinds.iter_mut().find(|(w, _)| *w == group.why) {
            Some((_, n)) => *n += group.count,
            None => kinds.push((group.why, group.count)),
        }
    }
    kinds.sort_by_key(|k| std::cmp::Reverse(k.1));
    kinds
        .into_iter()
        .map(|(why, count)| {
            let groups: Vec<&UndecidedGroup> = s.undecided_by_why.iter().filter(|g| g.why == why).collect();
            let named: Vec<(String, usize)> =
                groups.iter().filter_map(|g| Some((g.construct.clone()?, g.count))).take(CONSTRUCTS).collect();
            let more_named = groups.iter().filter(|g| g.construct.is_some()).count() > CONSTRUCTS;
            let mut said: Vec<String> = named.iter().map(|(c, n)| format!("`{c}` {n}")).collect();
            if more_named {
                said.push("…".into());
            }
            let places = places(groups.iter().flat_map(|g| g.at.iter()), count);
            let constructs = said.join(", ");
            let constructs_cell = constructs.replace('|', "\\|");
            let why_said = super::words::why_label(why, lang);
            UndecidedRow { count, why: why_said, kind: why, named, more_named, constructs, constructs_cell, places }
        })
        .collect()
}

/// The coverage lines after the summary: how many claims were decided, and for the rest one line
/// per kind of reason (see [`rows`]). Empty when every claim was decided.
pub fn render(s: &CheckSummary, lang: Lang) -> String {
    if s.undecided == 0 {
        return String::new();
    }
    let decided = s.verified + s.refuted;
    let percent = 100.0 * decided as f64 / s.claims.max(1) as f64;
    let mut out = super::words::decided_header(decided, s.claims, percent, lang);
    for row in rows(s, lang) {
        let named = if row.constructs.is_empty() { String::new() } else { format!(" ({})", row.constructs) };
        out.push_str(&format!("  {:>4}  {}{named}: {}\n", row.count, row.why, row.places));
    }
    out
}

/// `` `a.md`:3, 7; `b.md`:2 (+5) ``: the first distinct places, a file named once per run of its
/// lines.
fn places<'a>(at: impl Iterator<Item = &'a String>, count: usize) -> String {
    let mut shown: Vec<&str> = Vec::new();
    for place in at {
        if !shown.contains(&place.as_str()) {
            shown.push(place);
        }
        if shown.len() == PLACES {
            break;
        }
    }
    let mut out = String::new();
    let mut last_file = "";
    for place in &shown {
        let (file, line) = place.rsplit_once(':').unwrap_or(("", place));
        if file == last_file {
            out.push_str(&format!(", {line}"));
        } else {
            if !out.is_empty() {
                out.push_str("; ");
            }
            // The file in backquotes: the author's name, not a word of the report.
            out.push_str(&format!("`{file}`:{line}"));
            last_file = file;
        }
    }
    if count > shown.len() {
        out.push_str(&format!(" (+{})", count - shown.len()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(why: Why, construct: Option<&str>, at: &[&str]) -> UndecidedGroup {
        let at: Vec<String> = at.iter().map(|s| s.to_string()).collect();
        UndecidedGroup { why, construct: construct.map(str::to_string), count: at.len(), at }
    }

    #[test]
    fn places_name_each_file_once_per_run_and_count_the_rest() {
        let at = ["a.md:3", "a.md:3", "a.md:7", "b.md:2", "a.md:9", "c.md:1"].map(String::from);
        assert_eq!(places(at.iter(), 6), "`a.md`:3, 7; `b.md`:2; `a.md`:9 (+2)");
    }

    #[test]
    fn one_row_per_kind_of_reason_largest_first_in_both_languages() {
        let summary = CheckSummary {
            claims: 6,
            verified: 1,
            undecided: 5,
            undecided_by_why: vec![
                group(Why::Ambiguous, Some("E[…]"), &["p.md:4", "p.md:8"]),
                group(Why::Condition, None, &["p.md:1"]),
                group(Why::Ambiguous, Some("|A|"), &["p.md:9", "q.md:2"]),
            ],
            ..Default::default()
        };
        let rows = rows(&summary, Lang::En);
        assert_eq!(rows.len(), 2);
        assert_eq!((rows[0].count, rows[0].constructs.as_str()), (4, "`E[…]` 2, `|A|` 2"));
        assert_eq!(rows[0].constructs_cell, "`E[…]` 2, `\\|A\\|` 2");
        let text = render(&summary, Lang::En);
        assert!(text.starts_with("decided: 1 of 6 claims (17%)"), "{text}");
        assert!(render(&summary, Lang::Zh).starts_with("已判定：6 条断言中的 1 条"));
        let all_decided = CheckSummary { claims: 2, verified: 2, ..Default::default() };
        assert_eq!(render(&all_decided, Lang::En), "");
    }
}
