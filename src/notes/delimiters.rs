//! Math written in the other ways notes write it, rewritten to dollars so that one Markdown
//! reader finds every formula: MathJax's `\(…\)` and `\[…\]`, the doubled backslashes Jekyll and
//! kramdown sites need (`\\(…\\)`, `\\[…\\]`), and display environments standing on their own
//! (`\begin{equation}…\end{equation}`, `align`, `gather`, `multline`, `eqnarray`).
//!
//! Takes: the notes' text. Gives: the rewritten text and an [`OffsetMap`] from its byte offsets
//! back to the original's, so every position reported stays exact. Code (spans and blocks),
//! HTML and formulas already in dollars are left alone. The TeX between the delimiters is never
//! changed, byte for byte.

use pulldown_cmark::{Event, Options, Parser, Tag};
use std::ops::Range;
use std::sync::LazyLock;

/// Maps offsets in the rewritten text to offsets in the original.
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    /// Copied stretches: (start in the rewritten text, start in the original, length).
    pieces: Vec<(usize, usize, usize)>,
}

impl OffsetMap {
    /// The original offset of a rewritten one (a position inside a rewritten delimiter maps to
    /// where that delimiter was).
    pub fn original(&self, offset: usize) -> usize {
        if self.pieces.is_empty() {
            return offset;
        }
        let i = self.pieces.partition_point(|&(new, _, _)| new <= offset).saturating_sub(1);
        let (new, old, len) = self.pieces[i];
        old + offset.saturating_sub(new).min(len)
    }
}

/// Display environments that are formulas on their own in Markdown.
const ENVIRONMENTS: [&str; 10] =
    ["equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*", "eqnarray", "eqnarray*"];

/// Longest formula looked for between a pair of delimiters, in bytes.
const LONGEST: usize = 20_000;

/// The text with every other math delimiter made a dollar one, and the map back; `None` when
/// there is nothing to rewrite.
pub fn rewrite(source: &str) -> Option<(String, OffsetMap)> {
    if !source.contains("\\(") && !source.contains("\\[") && !source.contains("\\begin{") {
        return None;
    }
    let skip = untouchable(source);
    let mut out = String::with_capacity(source.len() + 64);
    let mut map = OffsetMap::default();
    let mut copied = 0;
    let mut at = 0;
    while let Some(found) = next_opening(source, at) {
        let (open, close_text, inner_start, dollars) = found;
        if skip.iter().any(|r| r.contains(&open.start)) {
            at = open.end;
            continue;
        }
        let Some(close) = find_close(source, inner_start, close_text) else {
            at = open.end;
            continue;
        };
        // An environment keeps its `\begin`/`\end` inside the formula.
        let (tex, close_len) = match dollars {
            Dollars::Environment => (open.start..close.end, 0),
            _ => (inner_start..close.start, close.len()),
        };
        let delimiter = if dollars == Dollars::Inline { "$" } else { "$$" };
        copy(&mut out, &mut map, source, copied..open.start);
        out.push_str(delimiter);
        copy(&mut out, &mut map, source, tex.clone());
        out.push_str(delimiter);
        copied = tex.end + close_len;
        at = copied;
    }
    if copied == 0 {
        return None;
    }
    copy(&mut out, &mut map, source, copied..source.len());
    Some((out, map))
}

fn copy(out: &mut String, map: &mut OffsetMap, source: &str, range: Range<usize>) {
    map.pieces.push((out.len(), range.start, range.len()));
    out.push_str(&source[range]);
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Dollars {
    Inline,
    Display,
    Environment,
}

/// The next opening delimiter from `at`: its range, the closing text to look for, where the TeX
/// starts, and what it becomes.
fn next_opening(source: &str, at: usize) -> Option<(Range<usize>, String, usize, Dollars)> {
    static OPEN: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"\\\\?\(|\\\\?\[|\\begin\{([a-z]+\*?)\}").expect("valid regex"));
    let mut from = at;
    loop {
        let m = OPEN.captures_at(source, from)?;
        let whole = m.get(0).expect("a match");
        let text = whole.as_str();
        let range = whole.range();
        if let Some(env) = m.get(1) {
            if ENVIRONMENTS.contains(&env.as_str()) {
                return Some((range.clone(), format!("\\end{{{}}}", env.as_str()), range.end, Dollars::Environment));
            }
            from = range.end;
            continue;
        }
        // `\\[2pt]` is a line break with space, not a formula (outside math it is rare; inside,
        // math is skipped anyway).
        let doubled = text.starts_with("\\\\");
        let close = match (text.ends_with('('), doubled) {
            (true, false) => "\\)",
            (true, true) => "\\\\)",
            (false, false) => "\\]",
            (false, true) => "\\\\]",
        };
        let kind = if text.ends_with('(') { Dollars::Inline } else { Dollars::Display };
        return Some((range.clone(), close.to_string(), range.end, kind));
    }
}

/// The closing delimiter after `from`, within [`LONGEST`] bytes and before a blank line (a
/// formula does not run across paragraphs).
fn find_close(source: &str, from: usize, close: String) -> Option<Range<usize>> {
    let end = (from + LONGEST).min(source.len());
    let end = (end..=source.len()).find(|&i| source.is_char_boundary(i)).unwrap_or(source.len());
    let window = &source[from..end];
    let at = window.find(close.as_str())?;
    let inner = &window[..at];
    let environment = close.starts_with("\\end{");
    if inner.trim().is_empty() || (!environment && (inner.contains("\n\n") || inner.contains("\n\r\n"))) {
        return None;
    }
    Some(from + at..from + at + close.len())
}

/// Code spans and blocks, HTML, and formulas already in dollars: never rewritten.
fn untouchable(source: &str) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    for (event, range) in Parser::new_ext(source, Options::ENABLE_MATH).into_offset_iter() {
        match event {
            Event::Start(Tag::CodeBlock(_) | Tag::HtmlBlock)
            | Event::Code(_)
            | Event::Html(_)
            | Event::InlineHtml(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_) => out.push(range),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> String {
        rewrite(text).map(|(t, _)| t).unwrap_or_else(|| text.to_string())
    }

    #[test]
    fn every_spelling_becomes_dollars() {
        let cases = [
            (r"so \(x^2\) holds", r"so $x^2$ holds"),
            (r"so \\(x^2\\) holds", r"so $x^2$ holds"),
            ("\\[a=b\\]", "$$a=b$$"),
            ("\\\\[a=b\\\\]", "$$a=b$$"),
            ("\\begin{equation}a=b\\end{equation}", "$$\\begin{equation}a=b\\end{equation}$$"),
            ("\\begin{itemize}x\\end{itemize}", "\\begin{itemize}x\\end{itemize}"),
            ("`\\(x\\)` and $\\[y\\]$", "`\\(x\\)` and $\\[y\\]$"),
            ("```\n\\(x\\)\n```\n", "```\n\\(x\\)\n```\n"),
            ("\\(a\n\nb\\)", "\\(a\n\nb\\)"),
            ("\\(\\)", "\\(\\)"),
        ];
        for (text, want) in cases {
            assert_eq!(rewritten(text), want, "{text}");
        }
    }

    #[test]
    fn offsets_map_back_to_the_original() {
        let text = r"ab \\(x\\) cd \(y\) ef";
        let (new, map) = rewrite(text).unwrap();
        for (needle, original) in
            [("x", text.find('x').unwrap()), ("y", text.find('y').unwrap()), ("ef", text.find("ef").unwrap())]
        {
            assert_eq!(map.original(new.find(needle).unwrap()), original, "{needle} in {new}");
        }
    }
}
