//! A window on a file for one diagnostic: the lines its span covers, each long one clipped to
//! the columns around the span with `…` where text is cut (as rustc does), so a paragraph
//! written as one 4,000-character line prints as one screen line. codespan reads the window
//! through [`Files`], which gives back the file's own line and column numbers.

use crate::notes::LineIndex;
use codespan_reporting::files::{Error, Files};
use std::ops::Range;
use unicode_width::UnicodeWidthChar;

/// Where text is cut.
const MARK: &str = "…";
/// Columns a tab takes (codespan's default `tab_width`).
const TAB_COLUMNS: usize = 4;

/// The display columns of one character.
pub(super) fn columns_of(c: char) -> usize {
    if c == '\t' {
        TAB_COLUMNS
    } else {
        c.width().unwrap_or(0)
    }
}

/// The display columns of a text.
pub(super) fn columns(text: &str) -> usize {
    text.chars().map(columns_of).sum()
}

/// One line of the window: where it starts in the window's text, and what was cut before it.
struct WindowLine {
    start: usize,
    /// Characters of the file's line left out before the window.
    skipped_chars: usize,
    /// Bytes of the `…` mark written in their place (0 when nothing was cut).
    mark_bytes: usize,
}

/// The lines of a file a span covers, clipped to a width.
pub(super) struct Window {
    name: String,
    text: String,
    lines: Vec<WindowLine>,
    /// The 1-based number, in the file, of the window's first line.
    first_line: usize,
    /// The span, in the window's text.
    pub span: Range<usize>,
    /// The display column (0-based, in the window) where the span ends on its last line.
    pub span_end_column: usize,
}

impl Window {
    /// The window on `source` (its `lines`) around `span`, each line at most `width` columns.
    pub fn new(name: &str, source: &str, lines: &LineIndex, span: Range<usize>, width: usize) -> Window {
        let at = |offset: usize| source.floor_char_boundary(offset);
        let (from, to) = (at(span.start), at(span.end.max(span.start)));
        let starts = lines.line_starts();
        let first = lines.line_of(from);
        // (A span ending just after a newline ends on the line before.)
        let last = lines.line_of(if to > from { to - 1 } else { to }).max(first);
        let mut window = Window {
            name: name.to_string(),
            text: String::new(),
            lines: Vec::new(),
            first_line: first + 1,
            span: 0..0,
            span_end_column: 0,
        };
        for line in first..=last {
            let start = starts[line];
            let end = starts.get(line + 1).map_or(source.len(), |&next| next - 1);
            let full = source[start..end].trim_end_matches('\r');
            // The span's part on this line, relative to it.
            let a = from.saturating_sub(start).min(full.len());
            let b = to.saturating_sub(start).min(full.len()).max(a);
            let kept = clip(full, a..b, width);
            let skipped_chars = full[..kept.start].chars().count();
            let mark_bytes = if kept.start > 0 { MARK.len() } else { 0 };
            let line_start = window.text.len();
            window.lines.push(WindowLine { start: line_start, skipped_chars, mark_bytes });
            if kept.start > 0 {
                window.text.push_str(MARK);
            }
            window.text.push_str(&full[kept.clone()]);
            if kept.end < full.len() {
                window.text.push_str(MARK);
            }
            let in_window = |x: usize| line_start + mark_bytes + x.clamp(kept.start, kept.end) - kept.start;
            if line == first {
                window.span.start = in_window(a);
            }
            if line == last {
                window.span.end = in_window(b).max(window.span.start);
                window.span_end_column = columns(&window.text[line_start..window.span.end]);
            }
            if line != last {
                window.text.push('\n');
            }
        }
        window
    }
}

/// The byte range of `line` to show within `width` columns (two of them kept for the `…`
/// marks): all of it when it fits, else the span with as much around it on both sides as fits,
/// or the span's start when the span alone is wider.
fn clip(line: &str, span: Range<usize>, width: usize) -> Range<usize> {
    if columns(line) <= width {
        return 0..line.len();
    }
    let budget = width.saturating_sub(2 * MARK.chars().count()).max(1);
    let chars: Vec<(usize, usize)> = line.char_indices().map(|(i, c)| (i, columns_of(c))).collect();
    let index_of = |byte: usize| chars.partition_point(|&(i, _)| i < byte);
    let (mut lo, span_end) = (index_of(span.start), index_of(span.end));
    let span_columns: usize = chars[lo..span_end].iter().map(|c| c.1).sum();
    // Half of what the span leaves goes before it; the rest after, and back before it again
    // when the line ends first.
    let mut before = budget.saturating_sub(span_columns) / 2;
    while lo > 0 && chars[lo - 1].1 <= before {
        lo -= 1;
        before -= chars[lo].1;
    }
    let (mut hi, mut used) = (lo, 0);
    while hi < chars.len() && used + chars[hi].1 <= budget {
        used += chars[hi].1;
        hi += 1;
    }
    while lo > 0 && used + chars[lo - 1].1 <= budget {
        lo -= 1;
        used += chars[lo].1;
    }
    let byte = |index: usize| chars.get(index).map_or(line.len(), |c| c.0);
    byte(lo)..byte(hi.max(lo + 1).min(chars.len()))
}

impl<'a> Files<'a> for Window {
    type FileId = ();
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.name)
    }

    fn source(&'a self, (): ()) -> Result<&'a str, Error> {
        Ok(&self.text)
    }

    fn line_index(&'a self, (): (), byte_index: usize) -> Result<usize, Error> {
        Ok(self.lines.partition_point(|l| l.start <= byte_index).saturating_sub(1))
    }

    fn line_number(&'a self, (): (), line_index: usize) -> Result<usize, Error> {
        Ok(self.first_line + line_index)
    }

    /// The column in the file's line: the characters cut before the window count.
    fn column_number(&'a self, (): (), line_index: usize, byte_index: usize) -> Result<usize, Error> {
        let line =
            self.lines.get(line_index).ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?;
        let shown_from = (line.start + line.mark_bytes).min(self.text.len());
        let upto = byte_index.clamp(shown_from, self.text.len());
        let upto = self.text.floor_char_boundary(upto);
        Ok(line.skipped_chars + self.text[shown_from..upto].chars().count() + 1)
    }

    fn line_range(&'a self, (): (), line_index: usize) -> Result<Range<usize>, Error> {
        let line =
            self.lines.get(line_index).ok_or(Error::LineTooLarge { given: line_index, max: self.lines.len() })?;
        let end = self.lines.get(line_index + 1).map_or(self.text.len(), |next| next.start);
        Ok(line.start..end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn window(source: &str, span: Range<usize>, width: usize) -> Window {
        Window::new("n.md", source, &LineIndex::new(source), span, width)
    }

    #[test]
    fn a_short_line_is_shown_whole() {
        let w = window("one\ntwo $x=1$ three\n", 8..13, 40);
        assert_eq!(w.text, "two $x=1$ three");
        assert_eq!(&w.text[w.span.clone()], "$x=1$");
        assert_eq!(w.line_number((), 0).unwrap(), 2);
        assert_eq!(w.column_number((), 0, w.span.start).unwrap(), 5);
    }

    #[test]
    fn a_long_line_is_clipped_around_the_span_keeping_the_file_column() {
        let line = format!("{}$a+b=c${}", "x".repeat(3000), "y".repeat(3000));
        let w = window(&line, 3000..3007, 40);
        assert!(columns(&w.text) <= 40, "{}", w.text);
        assert!(w.text.starts_with('…') && w.text.ends_with('…'), "{}", w.text);
        assert_eq!(&w.text[w.span.clone()], "$a+b=c$");
        assert_eq!(w.column_number((), 0, w.span.start).unwrap(), 3001);
    }

    #[test]
    fn wide_characters_count_twice_and_a_span_wider_than_the_screen_keeps_its_start() {
        let line = format!("{}$x$", "数学".repeat(400));
        let at = line.find('$').unwrap();
        let w = window(&line, at..at + 3, 30);
        assert!(columns(&w.text) <= 30, "{}", w.text);
        assert_eq!(&w.text[w.span.clone()], "$x$");
        let wide = window(&line, 0..at, 30);
        assert!(columns(&wide.text) <= 30 && wide.text.starts_with("数学"), "{}", wide.text);
    }

    #[test]
    fn a_span_over_lines_keeps_each_line_and_its_number() {
        let source = "a\n$$\nx = 1\n$$\nb\n";
        let w = window(source, 2..13, 80);
        assert_eq!(w.text, "$$\nx = 1\n$$");
        assert_eq!(w.line_number((), 2).unwrap(), 4);
        assert_eq!(&w.text[w.span.clone()], "$$\nx = 1\n$$");
    }
}
