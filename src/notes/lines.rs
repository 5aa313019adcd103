//! The lines of the notes' text and the code fences among them, as the rewrites before the
//! Markdown reader ([`super::delimiters`], [`super::directives`]) find them.
//!
//! Takes: the notes' text, or one of its lines. Gives: byte ranges of the lines; the marker, name
//! and argument of a fence that opens a MyST directive; whether a line closes a fence.

use std::ops::Range;

/// Each line's byte range in `source`, without its line ending.
pub fn line_ranges(source: &str) -> Vec<Range<usize>> {
    let mut lines = Vec::new();
    let mut start = 0;
    for piece in source.split_inclusive('\n') {
        let text = piece.trim_end_matches(['\n', '\r']);
        lines.push(start..start + text.len());
        start += piece.len();
    }
    lines
}

/// The fence a line opens with a directive's name in braces (```` ```{note} ````,
/// `~~~~{math}`): its marker (```` ``` ````, `~~~~`), the name and the word after it, if any.
pub fn opening_fence(line: &str) -> Option<(&str, &str, Option<&str>)> {
    let line = line.trim_start();
    let first = line.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let marker_len = line.len() - line.trim_start_matches(first).len();
    let (marker, info) = line.split_at(marker_len);
    let (name, argument) = info.trim().strip_prefix('{')?.split_once('}')?;
    (marker_len >= 3).then_some((marker, name, argument.split_whitespace().next()))
}

/// Does `line` close a fence opened by `marker` (the same character, at least as many)?
pub fn closes_fence(line: &str, marker: &str) -> bool {
    let line = line.trim();
    let first = marker.chars().next().unwrap_or('`');
    line.len() >= marker.len() && line.chars().all(|c| c == first)
}
