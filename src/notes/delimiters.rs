//! Math written in the other ways notes write it, rewritten to dollars so that one Markdown
//! reader finds every formula: MathJax's `\(…\)` and `\[…\]`, the doubled backslashes Jekyll and
//! kramdown sites need (`\\(…\\)`, `\\[…\\]`), and display environments standing on their own
//! (`\begin{equation}…\end{equation}`, `align`, `gather`, `multline`, `eqnarray`), MyST's
//! math directive (a ```` ```{math} ```` fence, its option lines such as `:label:` dropped), and
//! displays an HTML block wraps for their look alone (`<center>$$…$$</center>`, `<div>`).
//!
//! Takes: the notes' text. Gives: the rewritten text and an [`OffsetMap`] from its byte offsets
//! back to the original's, so every position reported stays exact. Code (spans and blocks),
//! HTML and formulas already in dollars are left alone. The TeX between the delimiters is never
//! changed, byte for byte.

use super::directives::{self, Directive};
use super::lines::{closes_fence, line_ranges, opening_fence};
use pulldown_cmark::{Event, Options, Parser, Tag};
use std::ops::Range;
use std::sync::LazyLock;

/// Maps offsets in the rewritten text to offsets in the original.
#[derive(Debug, Clone, Default)]
pub struct OffsetMap {
    /// Copied stretches: (start in the rewritten text, start in the original, length).
    pieces: Vec<(usize, usize, usize)>,
    /// The map of a rewrite made before this one (its "original" is that rewrite's output).
    before: Option<Box<OffsetMap>>,
}

impl OffsetMap {
    /// The original offset of a rewritten one (a position inside a rewritten delimiter maps to
    /// where that delimiter was).
    pub fn original(&self, offset: usize) -> usize {
        let own = if self.pieces.is_empty() {
            offset
        } else {
            let i = self.pieces.partition_point(|&(new, _, _)| new <= offset).saturating_sub(1);
            let (new, old, len) = self.pieces[i];
            old + offset.saturating_sub(new).min(len)
        };
        self.before.as_ref().map_or(own, |before| before.original(own))
    }
}

impl OffsetMap {
    /// This map, for a rewrite made of the output of the one `first` maps back.
    fn on_top_of(mut self, first: OffsetMap) -> OffsetMap {
        self.before = Some(Box::new(match self.before.take() {
            Some(before) => before.on_top_of(first),
            None => first,
        }));
        self
    }
}

/// Display environments that are formulas on their own in Markdown.
const ENVIRONMENTS: [&str; 10] =
    ["equation", "equation*", "align", "align*", "gather", "gather*", "multline", "multline*", "eqnarray", "eqnarray*"];

/// Longest formula looked for between a pair of delimiters, in bytes.
const LONGEST: usize = 20_000;

/// The text with every other math delimiter made a dollar one (after MyST's Markdown-bodied
/// `directives`, found in it by [`directives::directives`], are unwrapped), and the map back;
/// `None` when there is nothing to rewrite.
pub fn rewrite(source: &str, directives: &[Directive]) -> Option<(String, OffsetMap)> {
    let unwrapped = directives::unwrap(source, directives);
    let Some((joined, first)) = displays_as_blocks(&unwrapped) else {
        return match (rewrite_joined(&unwrapped), unwrapped) {
            (Some(rewritten), _) => Some(rewritten),
            // Unwrapping moved no offset: the map back is the identity.
            (None, std::borrow::Cow::Owned(text)) => Some((text, OffsetMap::default())),
            (None, std::borrow::Cow::Borrowed(_)) => None,
        };
    };
    Some(match rewrite_joined(&joined) {
        Some((text, map)) => (text, map.on_top_of(first)),
        None => (joined, first),
    })
}

/// A rewritten text and the map back to the text it was made of.
type Rewritten = (String, OffsetMap);

/// One rewrite of the text; `None` when it has nothing to rewrite.
type Pass = fn(&str) -> Option<Rewritten>;

/// [`rewrite`] after [`displays_as_blocks`]: [`myst_math`], [`html_wrapped_displays`] and
/// [`rewrite_delimiters`], each on the text the one before gave.
fn rewrite_joined(source: &str) -> Option<(String, OffsetMap)> {
    let passes: [Pass; 3] = [myst_math, html_wrapped_displays, rewrite_delimiters];
    passes.iter().fold(None, |done: Option<Rewritten>, pass| match done {
        None => pass(source),
        Some((text, map)) => Some(match pass(&text) {
            Some((again, next)) => (again, next.on_top_of(map)),
            None => (text, map),
        }),
    })
}

/// Tags an HTML block may wrap a display in for its look alone (`<center>`, `<span
/// style="color:…">`, `<div align="center">`, `<p>`, `<font>`).
const LOOK_TAGS: [&str; 6] = ["center", "span", "div", "p", "font", "br"];

/// `<center><span style="color:#0060C6">$$e = \lim_{n\to\infty}(1+\frac1n)^n$$</span></center>`:
/// an HTML block holding displays, which MathJax typesets as it does any other, but Markdown
/// reads as HTML. Where every tag of the block is one of [`LOOK_TAGS`], the block becomes its
/// displays alone, one line each; blocks with other tags (`<pre>`, `<script>`, a table) or
/// without a display are left alone. `None` when there is no such block.
fn html_wrapped_displays(source: &str) -> Option<(String, OffsetMap)> {
    static TAG: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"</?([A-Za-z][A-Za-z0-9]*)\b[^<>]*>").expect("valid regex"));
    if !source.contains("$$") || !source.contains('<') {
        return None;
    }
    let (mut out, mut map, mut copied) = (String::with_capacity(source.len()), OffsetMap::default(), 0);
    for (event, block) in Parser::new_ext(source, Options::ENABLE_MATH).into_offset_iter() {
        if !matches!(event, Event::Start(Tag::HtmlBlock)) || block.start < copied {
            continue;
        }
        let text = &source[block.clone()];
        let tags: Vec<regex::Captures> = TAG.captures_iter(text).collect();
        let only_look = tags.iter().all(|t| LOOK_TAGS.contains(&t[1].to_ascii_lowercase().as_str()));
        // Outside the tags, nothing but the displays and white space.
        let mut between = TAG.replace_all(text, "").to_string();
        let displays: Vec<Range<usize>> =
            display_pairs(text).into_iter().map(|r| block.start + r.start..block.start + r.end).collect();
        for d in &displays {
            between = between.replacen(&source[d.clone()], "", 1);
        }
        if tags.is_empty() || !only_look || displays.is_empty() || !between.trim().is_empty() {
            continue;
        }
        copy(&mut out, &mut map, source, copied..block.start);
        for (k, display) in displays.iter().enumerate() {
            if k > 0 {
                out.push_str("\n\n");
            }
            copy(&mut out, &mut map, source, display.clone());
        }
        out.push('\n');
        copied = block.end;
    }
    if copied == 0 {
        return None;
    }
    copy(&mut out, &mut map, source, copied..source.len());
    Some((out, map))
}

/// The `$$…$$` pairs of `text`, in order (each range with its dollars).
fn display_pairs(text: &str) -> Vec<Range<usize>> {
    let marks: Vec<usize> = text.match_indices("$$").map(|(i, _)| i).collect();
    marks.chunks_exact(2).map(|pair| pair[0]..pair[1] + 2).collect()
}

/// MyST's math directive, a fence whose info is `{math}` (```` ```{math} ````, `~~~{math}`),
/// rewritten to `$$ … $$`: its option lines (`:label: two_eq_demand`) and blank lines made TeX
/// comments (`%`: a blank line would end the display in Markdown, and a line dropped would move
/// every row after it up a line), every other line copied as it is. `None` when there is none.
fn myst_math(source: &str) -> Option<(String, OffsetMap)> {
    if !source.contains("{math}") {
        return None;
    }
    let lines = line_ranges(source);
    let fence_of = |line| opening_fence(line).filter(|(_, name, argument)| *name == "math" && argument.is_none());
    let (mut out, mut map, mut copied) = (String::with_capacity(source.len()), OffsetMap::default(), 0);
    let mut k = 0;
    while k < lines.len() {
        let Some((marker, ..)) = fence_of(&source[lines[k].clone()]) else {
            k += 1;
            continue;
        };
        let Some(end) = (k + 1..lines.len()).find(|&j| closes_fence(&source[lines[j].clone()], marker)) else { break };
        copy(&mut out, &mut map, source, copied..lines[k].start);
        out.push_str("$$");
        let mut options = true;
        for line in &lines[k + 1..end] {
            let text = source[line.clone()].trim();
            options &= text.starts_with(':');
            out.push('\n');
            if options || text.is_empty() {
                out.push('%');
                continue;
            }
            copy(&mut out, &mut map, source, line.clone());
        }
        out.push_str("\n$$");
        copied = lines[end].end;
        k = end + 1;
    }
    if copied == 0 {
        return None;
    }
    copy(&mut out, &mut map, source, copied..source.len());
    Some((out, map))
}

/// How a row that goes on with the relation or sum of the row before it opens.
const CONTINUATIONS: [&str; 12] =
    ["=", "&", "+", "-", "<", ">", "\\approx", "\\le", "\\ge", "\\cdot", "\\times", "\\quad"];

/// Lines a display may span between its `$$` lines, at most.
const LONGEST_DISPLAY_LINES: usize = 100;

/// A display written between two lines that hold only `$$` is one block, as Typora, VS Code and
/// markdown-it read it, where CommonMark would end the paragraph at the first blank line and read
/// a row holding only `=` as a heading's underline: a blank line before a row that goes on
/// (`= 2`) made a TeX comment (`%`), one between two equations a line break (`\\`), a row that
/// opens block syntax ([`opens_block`]) indented four spaces (a lazy continuation line to
/// Markdown, a space to TeX), every other line copied as it is. A
/// `$$` line opens only where the `$$` before it pair up (`$$x = 1` and a lone `$$` closing it
/// open nothing), and a display another `$$` or a code fence interrupts is left alone. `None`
/// when there is none.
fn displays_as_blocks(source: &str) -> Option<(String, OffsetMap)> {
    if !source.contains("$$") {
        return None;
    }
    let lines = line_ranges(source);
    let fence = |line: &str| line.trim_start().starts_with("```") || line.trim_start().starts_with("~~~");
    let (mut out, mut map, mut copied) = (String::with_capacity(source.len() + 16), OffsetMap::default(), 0);
    let (mut in_code, mut dollars_before) = (false, 0usize);
    let mut k = 0;
    while k < lines.len() {
        let line = &source[lines[k].clone()];
        if fence(line) {
            in_code = !in_code;
        }
        if in_code {
            k += 1;
            continue;
        }
        let opens = line.trim() == "$$" && dollars_before % 2 == 0;
        dollars_before += outside_code_spans(line).matches("$$").count();
        if !opens {
            k += 1;
            continue;
        }
        let last = (k + LONGEST_DISPLAY_LINES).min(lines.len());
        let stop = (k + 1..last).find(|&j| {
            let inner = &source[lines[j].clone()];
            inner.contains("$$") || fence(inner)
        });
        let Some(end) = stop.filter(|&j| source[lines[j].clone()].trim() == "$$") else {
            k += 1;
            continue;
        };
        dollars_before += 1;
        let text = |j: usize| source[lines[j].clone()].trim();
        for (j, line) in lines.iter().enumerate().take(end).skip(k + 1) {
            if !text(j).is_empty() {
                // A row Markdown would read as block syntax (`=` alone: a heading's underline)
                // is indented past it, a space to TeX.
                if opens_block(text(j)) {
                    copy(&mut out, &mut map, source, copied..line.start);
                    out.push_str("    ");
                    copied = line.start;
                }
                continue;
            }
            // A blank line between two rows of a chain (the next opens with `=`, `+`, …) is
            // nothing; between two equations it breaks the line, as `\\` would (unless the
            // row before ends with one).
            let before = (k + 1..j).rev().map(text).find(|t| !t.is_empty());
            let after = (j + 1..end).map(text).find(|t| !t.is_empty());
            let continues = after.is_none_or(|t| CONTINUATIONS.iter().any(|c| t.starts_with(c)));
            let broken = before.is_none_or(|t| t.ends_with("\\\\"));
            copy(&mut out, &mut map, source, copied..line.start);
            out.push_str(if continues || broken { "%" } else { "\\\\" });
            copied = line.end;
        }
        k = end + 1;
    }
    if copied == 0 {
        return None;
    }
    copy(&mut out, &mut map, source, copied..source.len());
    Some((out, map))
}

/// Would Markdown read `row` (trimmed), inside a paragraph, as block syntax rather than its text:
/// a setext heading's underline (`=`, `---`), a list item (`- a`, `+ b`, `1. c`), an ATX
/// heading or a block quote? A display between `$$` lines is such a paragraph.
fn opens_block(row: &str) -> bool {
    let underline = |c: char| !row.is_empty() && row.chars().all(|x| x == c);
    let bullet = ["- ", "+ ", "* "].iter().any(|m| row.starts_with(m));
    let ordered = row.strip_prefix('1').is_some_and(|r| r.starts_with(". ") || r.starts_with(") "));
    underline('=') || underline('-') || bullet || ordered || row.starts_with('#') || row.starts_with('>')
}

/// `line` without its code spans (`` `$$` `` is no delimiter).
fn outside_code_spans(line: &str) -> String {
    line.split('`').step_by(2).collect()
}

/// [`rewrite`] of every delimiter but MyST's directive.
fn rewrite_delimiters(source: &str) -> Option<(String, OffsetMap)> {
    if !source.contains("\\(") && !source.contains("\\[") && !source.contains("\\begin{") && !source.contains('$') {
        return None;
    }
    let skip = untouchable(source);
    let mut closers = Closers::new(source);
    let mut out = String::with_capacity(source.len() + 64);
    let mut map = OffsetMap::default();
    let mut copied = 0;
    let mut at = 0;
    while let Some(found) = next_opening(source, at) {
        let (open, close_text, inner_start, dollars) = found;
        if inside(&skip, open.start) {
            at = open.end;
            continue;
        }
        let Some(close) = closers.find(source, inner_start, close_text) else {
            at = open.end;
            continue;
        };
        // An environment keeps its `\begin`/`\end` inside the formula.
        // (A padded formula drops the spaces inside its dollars.)
        let tex = match dollars {
            Dollars::Environment => open.start..close.end,
            Dollars::Padded => match padded_tex(source, &skip, inner_start..close.start) {
                Some(tex) => tex,
                None => {
                    at = open.end;
                    continue;
                }
            },
            _ => inner_start..close.start,
        };
        let delimiter = if matches!(dollars, Dollars::Inline | Dollars::Padded) { "$" } else { "$$" };
        copy(&mut out, &mut map, source, copied..open.start);
        out.push_str(delimiter);
        copy(&mut out, &mut map, source, tex.clone());
        out.push_str(delimiter);
        copied = close.end;
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
    /// `$\psi^* P = \psi^* $`, `$ x $`: dollars with a space inside, which MathJax, Jupyter and
    /// MyST read as math and CommonMark's math extension does not.
    Padded,
}

/// The TeX of a padded formula between `inner` (its dollars' insides), trimmed: where the
/// insides have a space at an end, read as no other formula, open with no digit (`$5 and $10`
/// are prices) unless they write a command (`$ 0 \times (-2) + 3 = 1$`), and write something of
/// math (a command, a script, an operator or a lone letter).
fn padded_tex(source: &str, skip: &[Range<usize>], inner: Range<usize>) -> Option<Range<usize>> {
    let text = &source[inner.clone()];
    let tex = text.trim();
    let padded = text.starts_with([' ', '\t']) || text.ends_with([' ', '\t']);
    let mathy = tex.contains(['\\', '^', '_', '=', '+', '<', '>'])
        || (tex.chars().count() == 1 && tex.chars().all(char::is_alphabetic));
    let clear = !tex.contains('$') && (inner.start..inner.end).all(|i| !inside(skip, i));
    let start = inner.start + (text.len() - text.trim_start().len());
    // (`$ 0 \times (-2) + 3 = 1$`: a digit first, then a command no price writes.)
    let command = tex.as_bytes().windows(2).any(|w| w[0] == b'\\' && w[1].is_ascii_alphabetic());
    let priced = tex.starts_with(|c: char| c.is_ascii_digit()) && !command;
    (padded && mathy && clear && !tex.is_empty() && !priced).then(|| start..start + tex.len())
}

/// The next opening delimiter from `at`: its range, the closing text to look for, where the TeX
/// starts, and what it becomes.
fn next_opening(source: &str, at: usize) -> Option<(Range<usize>, String, usize, Dollars)> {
    static OPEN: LazyLock<regex::Regex> = LazyLock::new(|| {
        regex::Regex::new(r"\\\\?\(|\\\\?\[|\\begin\{([a-z]+\*?)\}|(?P<dollar>\$+)").expect("valid regex")
    });
    let mut from = at;
    loop {
        let m = OPEN.captures_at(source, from)?;
        let whole = m.get(0).expect("a match");
        let text = whole.as_str();
        let range = whole.range();
        if m.name("dollar").is_some() {
            // (One dollar, not escaped and not after a word's letter: `US$`, `\$`, `$$` are not.)
            let after_word =
                source[..range.start].chars().next_back().is_some_and(|c| c.is_alphanumeric() || c == '\\');
            if text.len() == 1 && !after_word {
                return Some((range.clone(), "$".to_string(), range.end, Dollars::Padded));
            }
            from = range.end;
            continue;
        }
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

/// Where each closing delimiter and each blank line is, found once: looking a closer up is a
/// binary search, so a file of a million unclosed `\(` takes no longer than one.
struct Closers {
    /// Sorted positions per closing text.
    at: std::collections::HashMap<String, Vec<usize>>,
    blank_lines: Vec<usize>,
}

impl Closers {
    fn new(source: &str) -> Self {
        let blank_lines = source.match_indices("\n\n").chain(source.match_indices("\n\r\n")).map(|(i, _)| i).collect();
        let mut blank_lines: Vec<usize> = blank_lines;
        blank_lines.sort_unstable();
        Closers { at: Default::default(), blank_lines }
    }

    /// The closing delimiter after `from`, within [`LONGEST`] bytes and, but for an
    /// environment, before a blank line (a formula does not run across paragraphs).
    fn find(&mut self, source: &str, from: usize, close: String) -> Option<Range<usize>> {
        let environment = close.starts_with("\\end{");
        let positions = self
            .at
            .entry(close.clone())
            .or_insert_with(|| source.match_indices(close.as_str()).map(|(i, _)| i).collect());
        let at = *positions.get(positions.partition_point(|&p| p < from))?;
        let blank = self.blank_lines.get(self.blank_lines.partition_point(|&p| p < from)).is_some_and(|&b| b < at);
        let inner = &source[from..at];
        if at - from > LONGEST || inner.trim().is_empty() || (!environment && blank) {
            return None;
        }
        Some(at..at + close.len())
    }
}

/// Is `offset` inside one of the sorted, disjoint `ranges`?
fn inside(ranges: &[Range<usize>], offset: usize) -> bool {
    let i = ranges.partition_point(|r| r.start <= offset);
    i > 0 && ranges[i - 1].contains(&offset)
}

/// Code spans and blocks, HTML, and formulas already in dollars: never rewritten. Sorted and
/// merged into disjoint ranges.
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
    out.sort_by_key(|r| r.start);
    let mut merged: Vec<Range<usize>> = Vec::with_capacity(out.len());
    for range in out {
        match merged.last_mut() {
            Some(last) if range.start <= last.end => last.end = last.end.max(range.end),
            _ => merged.push(range),
        }
    }
    merged
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rewritten(text: &str) -> String {
        rewrite_all(text).map(|(t, _)| t).unwrap_or_else(|| text.to_string())
    }

    /// [`rewrite`] with the text's own directives.
    fn rewrite_all(text: &str) -> Option<(String, OffsetMap)> {
        rewrite(text, &directives::directives(text))
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
            (r"if $\psi^* P = \psi^* $.", r"if $\psi^* P = \psi^*$."),
            ("so $ x $ and $ a+b$ hold", "so $x$ and $a+b$ hold"),
            ("costs $5 and $ 10 or US$ x $", "costs $5 and $ 10 or US$ x $"),
            ("costs $5 + $10 = $15", "costs $5 + $10 = $15"),
            (r"outputs $ 0 \times (-2) + 3 = 3$.", r"outputs $0 \times (-2) + 3 = 3$."),
            ("`$ x $` and $y$", "`$ x $` and $y$"),
            ("$ words only $", "$ words only $"),
        ];
        for (text, want) in cases {
            assert_eq!(rewritten(text), want, "{text}");
        }
    }

    #[test]
    fn offsets_map_back_to_the_original() {
        let text = r"ab \\(x\\) cd \(y\) ef";
        let (new, map) = rewrite_all(text).unwrap();
        for (needle, original) in
            [("x", text.find('x').unwrap()), ("y", text.find('y').unwrap()), ("ef", text.find("ef").unwrap())]
        {
            assert_eq!(map.original(new.find(needle).unwrap()), original, "{needle} in {new}");
        }
    }

    #[test]
    fn a_myst_math_directive_is_a_display_with_its_options_made_comments() {
        let text = "Demand:\n\n```{math}\n:label: demand\n\nq = 100 - 10 p \\\\\nr = \\(s\\)\n```\n\nafter \\(t\\)\n";
        let (new, map) = rewrite_all(text).unwrap();
        assert_eq!(new, "Demand:\n\n$$\n%\n%\nq = 100 - 10 p \\\\\nr = \\(s\\)\n$$\n\nafter $t$\n");
        for needle in ["q = 100", "r = ", "after"] {
            assert_eq!(map.original(new.find(needle).unwrap()), text.find(needle).unwrap(), "{needle}");
            // Every row keeps its line: the option line and the blank line are still lines.
            let line = |t: &str| t[..t.find(needle).unwrap()].matches('\n').count();
            assert_eq!(line(&new), line(text), "{needle}");
        }
        // Through both rewrites: the t of `\\(t\\)` after the directive.
        assert_eq!(map.original(new.rfind('t').unwrap()), text.rfind('t').unwrap());
        // Another fence, or one never closed, is code.
        for code in ["```python\nx = 1\n```\n", "```{math}\nx = 1\n"] {
            assert_eq!(rewritten(code), code);
        }
        assert_eq!(rewritten("~~~~{math}\na=b\n~~~~\n"), "$$\na=b\n$$\n");
    }

    #[test]
    fn a_display_between_dollar_lines_goes_on_across_blank_lines() {
        let text = "计算：\n\n$$\nnet = w_1 * i_1 \\\\\n\nnet = 0.15 * 0.05 = 0.0075\n$$\n\nand \\(t\\)\n";
        let (new, map) = rewrite_all(text).unwrap();
        assert_eq!(new, "计算：\n\n$$\nnet = w_1 * i_1 \\\\\n%\nnet = 0.15 * 0.05 = 0.0075\n$$\n\nand $t$\n");
        for needle in ["net = 0.15", "and"] {
            assert_eq!(map.original(new.find(needle).unwrap()), text.find(needle).unwrap(), "{needle}");
        }
        // Through both rewrites: the t of `\\(t\\)`.
        assert_eq!(map.original(new.rfind('t').unwrap()), text.rfind('t').unwrap());
        // Displays that close before a blank line, and a `$$` that closes `$$x = 1`, are left
        // alone: the text between two displays is never joined.
        for alone in ["$$\na = b\n$$\n\ntext\n\n$$\nc = d\n$$\n", "$$x = 1\n$$\n\ntext\n\n$$\ny = 2\n$$\n"] {
            assert_eq!(rewritten(alone), alone);
        }
        // Two equations a blank line parts are two rows.
        assert_eq!(rewritten("$$\na = b\n\nc = d\n$$\n"), "$$\na = b\n\\\\\nc = d\n$$\n");
        // A code fence inside is no display.
        let code = "$$\n\n```\nx\n```\n$$\n";
        assert_eq!(rewritten(code), code);
    }

    #[test]
    fn a_display_row_markdown_would_read_as_block_syntax_is_indented_past_it() {
        // `=` alone under a row would underline a heading; `- x` would open a list.
        let text = "$$
A
=
B
- x
$$
";
        let (new, map) = rewrite_all(text).unwrap();
        assert_eq!(new, "$$\nA\n    =\nB\n    - x\n$$\n");
        assert_eq!(map.original(new.find("B").unwrap()), text.find("B").unwrap());
        let doc = crate::notes::Document::parse("t.md", format!("# T\n\n{text}"));
        assert_eq!(doc.sections.len(), 1, "{:?}", doc.sections);
        assert_eq!(doc.formulas.len(), 1);
        assert_eq!(doc.position_in_formula(&doc.formulas[0], doc.formulas[0].tex.find('B').unwrap()).line, 6);
        // Rows that open nothing stay as they are: `-2`, `=B`.
        assert_eq!(rewritten("$$\n-2\n=B\n$$\n"), "$$\n-2\n=B\n$$\n");
    }

    #[test]
    fn a_display_an_html_block_wraps_for_its_look_is_read() {
        let text = "Theorem:\n\n<center><span style=\"color:#0060C6\">$$e = \\lim_{n \\to \\infty} (1+\\frac1n)^n$$</span></center>\n\nProof.\n";
        let (new, map) = rewrite_all(text).unwrap();
        assert!(new.contains("\n$$e = \\lim"), "{new}");
        assert!(!new.contains("<center>"), "{new}");
        assert_eq!(map.original(new.find("\\lim").unwrap()), text.find("\\lim").unwrap());
        let doc = crate::notes::Document::parse("t.md", format!("# T\n\n{text}"));
        assert_eq!(doc.formulas.len(), 1, "{:?}", doc.formulas);
        let at = doc.position_in_formula(&doc.formulas[0], 0);
        assert_eq!((at.line, at.col), (5, 39), "the TeX after the tags and the dollars");
        // Not through code, scripts or tables, nor a block with text besides its displays.
        for kept in [
            "<pre>$$x = 1$$</pre>\n",
            "<script>$$x = 1$$</script>\n",
            "<div>Note: $$x = 1$$</div>\n",
            "<table><tr><td>$$x = 1$$</td></tr></table>\n",
        ] {
            assert_eq!(rewritten(kept), kept);
        }
    }
}
