//! Stage 1 — `notes`: a chapter's Markdown text in, a [`Document`] out: its sections and every
//! formula (`$...$`, `$$...$$`) with its exact position.
//!
//! Sections come from Markdown headings and from numbered title lines standing alone as a
//! paragraph (`15.3 标题`, `第 15 章：标题`, `Chapter 15: Title`), since plain-text chapters often have
//! no `#` headings. Code blocks are never math (pulldown-cmark decides). Does no I/O: the caller
//! reads the file.

mod delimiters;
mod directives;
mod lines;
pub mod notebook;

use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
use serde::Serialize;
use std::ops::Range;
use std::sync::LazyLock;

/// One notes file, split into sections and formulas.
#[derive(Debug, Clone, Serialize)]
pub struct Document {
    pub path: String,
    #[serde(skip)]
    pub source: String,
    pub sections: Vec<Section>,
    pub formulas: Vec<FormulaSite>,
    /// Things in the text that look like math mistakes (a lone `$`).
    pub warnings: Vec<NoteWarning>,
    /// The Markdown tables, in order: where a worked example gives its values
    /// (`| $P(D_1 = 1 \mid H)$ | 1 | 0.01 |` under `| | $H=1$ | $H=0$ |`).
    pub tables: Vec<Table>,
    /// For a notebook, where each Markdown cell's lines are ([`notebook`]); empty otherwise.
    #[serde(skip)]
    pub cells: Vec<notebook::CellLines>,
}

/// A Markdown table: the text of each cell as written (a formula keeps its `$`), row by row,
/// the header row first.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Table {
    /// Index into [`Document::sections`], `None` before the first section.
    pub section: Option<usize>,
    /// 1-based line of the header row.
    pub line: usize,
    pub rows: Vec<Vec<String>>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct NoteWarning {
    pub line: usize,
    pub col: usize,
    /// Byte offset in the source.
    #[serde(skip)]
    pub offset: usize,
    /// In English (the JSON's); the report says it in the run's language from `kind`.
    pub message: String,
    #[serde(skip)]
    pub kind: NoteWarningKind,
}

/// What a [`NoteWarning`] is about.
#[derive(Debug, Clone, PartialEq)]
pub enum NoteWarningKind {
    /// A `$` that opens no formula.
    LoneDollar,
    /// `<!-- derivcheck: word -->` with a word that is no mark; `known` lists the marks.
    UnknownMark { word: String, known: String },
    /// A mark with no formula after it in its section.
    UnusedMark { mark: String },
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Section {
    /// The number as written (`15.3`), or the heading text when the heading has no number.
    pub number: String,
    pub title: String,
    pub line: usize,
    /// How deep the heading nests (`#` 1, `##` 2; a numbered title line `15.3 标题` as many as
    /// its number has parts): a section ends where a heading as deep or shallower begins.
    #[serde(skip)]
    pub depth: usize,
}

/// Where one formula stands in the notes.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FormulaSite {
    /// `15.3#2`: the second formula of section 15.3 (`0#k` before the first section).
    pub id: String,
    /// Index into [`Document::sections`], `None` before the first section.
    pub section: Option<usize>,
    pub display: bool,
    /// The TeX between the delimiters.
    pub tex: String,
    /// Byte range of the TeX (without delimiters) in the source.
    pub tex_range: Range<usize>,
    /// 1-based line and column (in characters) of the opening delimiter.
    pub line: usize,
    pub col: usize,
    /// Where each line of the TeX after its first begins in the source: a rewritten delimiter
    /// (a MyST directive's options made comments) changes the TeX's bytes, not its lines.
    #[serde(skip)]
    pub tex_line_starts: Vec<usize>,
    /// Where each formula joined on after the first begins in the TeX (`$A$` with `$=B$` on the
    /// next line is one chain; see [`Document::parse`]): parsed piece by piece where the whole
    /// does not parse.
    #[serde(skip)]
    pub pieces: Vec<usize>,
    /// The prose just before the formula, in its sentence (`we use $…$ as the initial value`
    /// gives `we use`; other formulas of the sentence appear as `$`): the words that say what the
    /// formula is for. A display formula standing alone takes the end of the paragraph above.
    pub lead: String,
    /// The prose of the stretch before the formula (its paragraph, and the ones before it up to
    /// a heading), at most a few hundred characters: what a derivation says it substitutes.
    pub context: String,
    /// The words between the previous formula of the section (or its heading) and this one, code
    /// left out, whitespace collapsed, at most [`SINCE_PREVIOUS`] characters (the last ones):
    /// where an example opens (`As another example, …`) or the text turns general again.
    pub since_previous: String,
    /// The Markdown block (paragraph, list item, heading) the formula stands in, counted from 0:
    /// what a binding (`if $x=10$, …`) reaches.
    pub block: usize,
    /// Nothing of its block comes before it (a display standing in a paragraph of its own): the
    /// words that lead to it are the paragraph above's.
    #[serde(skip)]
    pub opens_block: bool,
    /// It stands in the text of an item of a tight list (no paragraph of its own): one case or
    /// step set beside its siblings, each the next block.
    #[serde(skip)]
    pub in_item: bool,
    /// The words right after the formula, up to the next formula or the end of the sentence
    /// (at most [`TRAIL`] characters): `$\gamma$ to 0.9.` gives ` to 0.9.`.
    pub trail: String,
    /// What the author says the formula is for, in a mark before it
    /// (`<!-- derivcheck: condition -->`): it overrides what the words and shape suggest.
    pub mark: Option<Mark>,
    /// The worked example, exercise, solution or proof a MyST directive boxes it in (counted in
    /// the notes from 0), if any: its definitions reach the end of that box.
    #[serde(skip)]
    pub worked_box: Option<usize>,
}

/// An author's mark: an HTML comment `<!-- derivcheck: WORD -->` (invisible when the chapter is
/// rendered) that applies to the next formula in the same section.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mark {
    /// Every link is a claim: nothing is defined or bound by it, no condition reading.
    Claim,
    /// It gives its letters values for the paragraph that follows (`x=10`).
    Binding,
    /// A condition or an equation to solve: never checked.
    Condition,
    /// Not checked at all.
    Skip,
    /// Deliberately wrong (a rejected guess, a frequent slip): a counterexample is the expected
    /// outcome, and a proof of it is the finding.
    Wrong,
}

impl Mark {
    /// Each mark with the word that writes it.
    pub const WORDS: [(Mark, &'static str); 5] = [
        (Mark::Claim, "claim"),
        (Mark::Binding, "binding"),
        (Mark::Condition, "condition"),
        (Mark::Skip, "skip"),
        (Mark::Wrong, "wrong"),
    ];

    pub fn word(self) -> &'static str {
        Mark::WORDS.iter().find(|(m, _)| *m == self).map_or("", |(_, w)| w)
    }
}

/// A mark read but not yet given to a formula.
struct PendingMark {
    mark: Mark,
    offset: usize,
}

/// Longest trail kept, in characters.
const TRAIL: usize = 60;

/// Most characters of [`FormulaSite::since_previous`] kept.
const SINCE_PREVIOUS: usize = 1200;

/// The Markdown tables of `source`, read from its lines: a header row, a delimiter row
/// (`|---|--:|`), then the rows up to the first line that is not one. Cells split at `|` outside
/// `$…$` and not escaped, so math in a cell keeps its bars (`$|x|$`, `$p(y|x)$`) — the formulas
/// themselves are read from the text as everywhere else. Fenced code is skipped.
fn read_tables(source: &str, sections: &[Section]) -> Vec<Table> {
    fn cells(line: &str) -> Option<Vec<String>> {
        let line = line.trim();
        if !line.contains('|') {
            return None;
        }
        let line = line.strip_prefix('|').unwrap_or(line);
        let line = line.strip_suffix('|').filter(|l| !l.ends_with('\\')).unwrap_or(line);
        let (mut out, mut cell, mut math, mut escaped) = (Vec::new(), String::new(), false, false);
        for c in line.chars() {
            match c {
                '|' if !math && !escaped => out.push(std::mem::take(&mut cell).trim().to_string()),
                '$' if !escaped => {
                    math = !math;
                    cell.push(c);
                }
                _ => cell.push(c),
            }
            escaped = c == '\\' && !escaped;
        }
        out.push(cell.trim().to_string());
        Some(out)
    }
    let delimiter = |line: &str| {
        cells(line).is_some_and(|cs| {
            cs.iter().all(|c| {
                let c = c.trim_start_matches(':').trim_end_matches(':');
                !c.is_empty() && c.chars().all(|ch| ch == '-')
            })
        })
    };
    let lines: Vec<&str> = source.lines().collect();
    let mut tables = Vec::new();
    let mut fence: Option<&str> = None;
    let mut k = 0;
    while k < lines.len() {
        let trimmed = lines[k].trim_start();
        for marker in ["```", "~~~"] {
            if trimmed.starts_with(marker) {
                fence = match fence {
                    Some(open) if open == marker => None,
                    None => Some(marker),
                    other => other,
                };
            }
        }
        let header = (fence.is_none() && k + 1 < lines.len() && delimiter(lines[k + 1]))
            .then(|| cells(lines[k]))
            .flatten()
            .filter(|h| cells(lines[k + 1]).is_some_and(|d| d.len() == h.len()));
        let Some(header) = header else {
            k += 1;
            continue;
        };
        let line = k + 1;
        let mut rows = vec![header];
        k += 2;
        while k < lines.len() && !lines[k].trim().is_empty() {
            let Some(row) = cells(lines[k]) else { break };
            rows.push(row);
            k += 1;
        }
        let section = sections.iter().rposition(|s| s.line <= line);
        tables.push(Table { section, line, rows });
    }
    tables
}

/// The extensions of the files derivcheck reads as notes: Markdown (`.md`, `.markdown`, with
/// MyST's math directive), MDX (`.mdx`: its `import` lines and JSX components are prose and
/// HTML to the Markdown reader, and hold no formula) and Jupyter notebooks (`.ipynb`: their
/// Markdown cells, [`notebook`]).
pub const NOTES_EXTENSIONS: [&str; 4] = ["md", "markdown", "mdx", "ipynb"];

/// Is `path` a file of notes by its extension ([`NOTES_EXTENSIONS`])?
/// Does `words` end a sentence (a full stop, `。`, `!`, `?`, `;`)? A formula's trail is read to
/// there ([`FormulaSite::trail`]).
pub fn ends_sentence(words: &str) -> bool {
    words.contains(['.', '。', '!', '?', '；', ';'])
}

pub fn is_notes_path(path: &std::path::Path) -> bool {
    path.extension().and_then(|x| x.to_str()).is_some_and(|x| NOTES_EXTENSIONS.contains(&x))
}

/// The bodies of the worked `directives` and the box each is: its own (counted from 0), or, for
/// a solution naming the exercise it solves (`{solution-start} mc1_ex_1`), that exercise's (the
/// letters an exercise gives are its solution's too).
fn worked_boxes(directives: Vec<directives::Directive>) -> Vec<(Range<usize>, usize)> {
    let worked: Vec<directives::Directive> = directives.into_iter().filter(|d| d.is_worked()).collect();
    let solved = |d: &directives::Directive| {
        let target = d.argument.as_deref()?;
        worked.iter().position(|e| e.name.ends_with("exercise") && e.label.as_deref() == Some(target))
    };
    worked.iter().enumerate().map(|(k, d)| (d.body.clone(), solved(d).unwrap_or(k))).collect()
}

/// A 1-based line and character column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Position {
    pub line: usize,
    pub col: usize,
}

impl Document {
    /// Reads the formulas and sections of `source` (the text of `path`).
    pub fn parse(path: &str, source: String) -> Document {
        let mut doc = Document {
            path: path.to_string(),
            source,
            sections: Vec::new(),
            formulas: Vec::new(),
            warnings: Vec::new(),
            tables: Vec::new(),
            cells: Vec::new(),
        };
        doc.scan();
        doc
    }

    /// Reads the notes file `path` whose text is `text`: a Jupyter notebook (`.ipynb`) by its
    /// Markdown cells ([`notebook::markdown`]), any other file as Markdown.
    pub fn read(path: &str, text: String) -> Result<Document, notebook::NotebookError> {
        if !path.ends_with(".ipynb") {
            return Ok(Document::parse(path, text));
        }
        let notebook = notebook::markdown(&text)?;
        Ok(Document { cells: notebook.cells, ..Document::parse(path, notebook.markdown) })
    }

    fn scan(&mut self) {
        let original = std::mem::take(&mut self.source);
        // `\(…\)`, `\[…\]` and lone display environments are read as if written in dollars.
        let found = directives::directives(&original);
        let (source, map) =
            delimiters::rewrite(&original, &found).unwrap_or_else(|| (original.clone(), Default::default()));
        let worked = worked_boxes(found);
        let lines = Positions { lines: LineIndex::new(&original), map, worked };
        let mut counters: Vec<usize> = Vec::new();
        let mut before_first = 0;
        let mut block_start: Option<usize> = None;
        let mut prose = Prose::default();
        // The words since the previous formula, outside code.
        let mut since_previous = String::new();
        let mut in_code = false;
        // The formula whose trail is being read (the last one, until a sentence or block ends).
        let mut trailing: Option<usize> = None;
        let mut pending: Option<PendingMark> = None;
        // The last inline formula: its index, where it stands in `source`, and its block.
        let mut last_inline: Option<(usize, Range<usize>, usize)> = None;
        // In the text of a list item that has no paragraph of its own (a tight list's).
        let mut in_item = false;
        for (event, range) in Parser::new_ext(&source, Options::ENABLE_MATH).into_offset_iter() {
            match &event {
                Event::Start(Tag::Item) => in_item = true,
                Event::Start(Tag::Paragraph) | Event::End(TagEnd::Item) => in_item = false,
                _ => {}
            }
            match (&event, trailing) {
                (Event::Text(text) | Event::Code(text), Some(i)) => {
                    let trail = &mut self.formulas[i].trail;
                    trail.push_str(text);
                    if trail.chars().count() >= TRAIL || ends_sentence(trail) {
                        trailing = None;
                    }
                }
                (Event::SoftBreak | Event::HardBreak, Some(i)) => self.formulas[i].trail.push(' '),
                (Event::Start(_) | Event::End(_), _) => trailing = None,
                _ => {}
            }
            match &event {
                Event::Start(Tag::CodeBlock(_)) => in_code = true,
                Event::End(TagEnd::CodeBlock) => in_code = false,
                Event::Start(Tag::Heading { .. }) | Event::End(TagEnd::Heading(_)) => since_previous.clear(),
                Event::Text(text) if !in_code => {
                    since_previous.push_str(text);
                    if since_previous.len() > 2 * SINCE_PREVIOUS {
                        let cut = since_previous.char_indices().rev().nth(SINCE_PREVIOUS).map_or(0, |(i, _)| i);
                        since_previous.drain(..cut);
                    }
                }
                Event::SoftBreak | Event::HardBreak | Event::Start(Tag::Paragraph | Tag::Item) => {
                    since_previous.push(' ')
                }
                _ => {}
            }
            match &event {
                Event::Start(Tag::CodeBlock(_)) | Event::End(TagEnd::Heading(_)) => prose.clear(),
                // A paragraph may continue the sentence before it (`… we get` then a display of
                // its own); a list item or a table cell starts afresh.
                Event::Start(Tag::Paragraph) => prose.open_block(),
                Event::Start(Tag::Item) | Event::Start(Tag::TableCell) => prose.clear(),
                Event::Text(text) | Event::Code(text) => prose.push(text),
                Event::SoftBreak | Event::HardBreak => prose.push(" "),
                _ => {}
            }
            match event {
                Event::Html(ref html) | Event::InlineHtml(ref html) => {
                    if let Some(mark) = self.read_mark(html, range.start, &lines) {
                        self.warn_unused_mark(pending.replace(mark), &lines);
                    }
                }
                Event::Start(Tag::Heading { .. }) => {
                    self.warn_unused_mark(pending.take(), &lines);
                    block_start = Some(range.start);
                }
                Event::Start(Tag::Paragraph) => block_start = Some(range.start),
                Event::End(TagEnd::Heading(level)) => {
                    if let Some(start) = block_start.take() {
                        let text = heading_text(&source[start..range.end]);
                        let (line, depth) = (lines.position(start).line, level as usize);
                        self.push_section(section_from_heading(&text), line, depth, &mut counters);
                    }
                }
                Event::End(TagEnd::Paragraph) => {
                    if let Some(start) = block_start.take() {
                        if let Some(section) = numbered_title_line(&source[start..range.end]) {
                            let depth = section.0.split('.').count();
                            self.push_section(section, lines.position(start).line, depth, &mut counters);
                        }
                    }
                }
                Event::InlineMath(_) | Event::DisplayMath(_) => {
                    let display = matches!(event, Event::DisplayMath(_));
                    let joined = match &last_inline {
                        // (Its own paragraph too: `$J = …$`, a blank line, `$= …$`.)
                        Some((i, before, block)) if !display && prose.block <= *block + 1 && pending.is_none() => {
                            self.continue_inline_chain(&source, &lines, *i, before.clone(), range.clone())
                        }
                        _ => false,
                    };
                    if joined {
                        let (i, before, _) = last_inline.take().expect("matched");
                        self.formulas[i].trail.clear();
                        last_inline = Some((i, before.start..range.end, prose.block));
                        trailing = Some(i);
                        prose.push("$");
                        continue;
                    }
                    let counter = match counters.last_mut() {
                        Some(c) => c,
                        None => &mut before_first,
                    };
                    *counter += 1;
                    let mut site = self.formula_site(&source, &lines, range.clone(), display, *counter);
                    site.lead = prose.lead();
                    site.context = prose.text.split_whitespace().collect::<Vec<_>>().join(" ");
                    site.block = prose.block;
                    site.opens_block = prose.fresh;
                    site.in_item = in_item;
                    site.since_previous = since_previous.split_whitespace().collect::<Vec<_>>().join(" ");
                    since_previous.clear();
                    site.mark = pending.take().map(|p| p.mark);
                    prose.push("$");
                    self.formulas.push(site);
                    trailing = Some(self.formulas.len() - 1);
                    last_inline = (!display).then(|| (self.formulas.len() - 1, range.clone(), prose.block));
                }
                Event::Text(_) if !in_code => self.warn_lone_dollars(&source, &lines, range),
                _ => {}
            }
        }
        self.warn_unused_mark(pending, &lines);
        self.tables = read_tables(&original, &self.sections);
        self.source = original;
    }

    /// `<!-- derivcheck: WORD -->` in an HTML event starting at `start`: the mark, or a warning
    /// for a word that is none. Other HTML is not a mark.
    fn read_mark(&mut self, html: &str, start: usize, lines: &Positions) -> Option<PendingMark> {
        static MARK: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(r"<!--\s*derivcheck\s*:\s*([^\s>]*)\s*-->").expect("valid regex"));
        let found = MARK.captures(html)?;
        let offset = start + found.get(0).map_or(0, |m| m.start());
        let word = found[1].to_lowercase();
        match Mark::WORDS.iter().find(|(_, w)| *w == word) {
            Some(&(mark, _)) => Some(PendingMark { mark, offset }),
            None => {
                let known: Vec<String> = Mark::WORDS.iter().map(|(_, w)| format!("`{w}`")).collect();
                let pos = lines.position(offset);
                let message = format!("unknown derivcheck mark `{word}` (marks are {}): ignored", known.join(", "));
                self.warnings.push(NoteWarning {
                    line: pos.line,
                    col: pos.col,
                    offset: lines.map.original(offset),
                    message,
                    kind: NoteWarningKind::UnknownMark { word: word.to_string(), known: known.join(", ") },
                });
                None
            }
        }
    }

    /// A mark that no formula took (a heading, another mark or the end came first).
    fn warn_unused_mark(&mut self, unused: Option<PendingMark>, lines: &Positions) {
        if let Some(PendingMark { mark, offset }) = unused {
            let pos = lines.position(offset);
            let message = format!(
                "the mark `<!-- derivcheck: {} -->` has no formula after it in its section: it applies to the next formula",
                mark.word()
            );
            self.warnings.push(NoteWarning {
                line: pos.line,
                col: pos.col,
                offset: lines.map.original(offset),
                message,
                kind: NoteWarningKind::UnusedMark { mark: mark.word().to_string() },
            });
        }
    }

    fn push_section(
        &mut self,
        (number, title): (String, String),
        line: usize,
        depth: usize,
        counters: &mut Vec<usize>,
    ) {
        // (`### 证明` under every theorem: a heading written again names a section of its own, its
        // formulas' ids apart from the first one's.)
        let again = format!("{number} (");
        let repeated = self.sections.iter().filter(|s| s.number == number || s.number.starts_with(&again)).count();
        let number = if repeated == 0 { number } else { format!("{number} ({})", repeated + 1) };
        self.sections.push(Section { number, title, line, depth });
        counters.push(0);
    }

    fn formula_site(
        &self,
        source: &str,
        lines: &Positions,
        range: Range<usize>,
        display: bool,
        k: usize,
    ) -> FormulaSite {
        let tex_range = strip_delimiters(source, range.clone());
        let tex = without_quote_markers(source, tex_range.clone());
        let tex_line_starts =
            tex.match_indices('\n').map(|(at, _)| lines.map.original(tex_range.start + at + 1)).collect();
        let tex_range = lines.map.original(tex_range.start)..lines.map.original(tex_range.end);
        let start = tex_range.start;
        let section = self.sections.len().checked_sub(1);
        let number = section.map(|i| self.sections[i].number.as_str()).unwrap_or("0");
        let pos = lines.position(range.start);
        FormulaSite {
            id: format!("{number}#{k}"),
            section,
            display,
            tex,
            tex_range,
            line: pos.line,
            col: pos.col,
            tex_line_starts,
            pieces: Vec::new(),
            lead: String::new(),
            context: String::new(),
            since_previous: String::new(),
            block: 0,
            opens_block: false,
            in_item: false,
            trail: String::new(),
            mark: None,
            // (The innermost box: the last to open of those holding it.)
            worked_box: lines.worked.iter().rev().find(|(body, _)| body.contains(&start)).map(|(_, id)| *id),
        }
    }

    /// `$A$` with `$=B$` at the start of the next line, or of the next paragraph (nothing but
    /// spaces and blank lines between): one chain
    /// written a line at a time, as notes pasted from an equation editor do; the second formula,
    /// opening with a relation, has its left side in the first. The formula `before` (at
    /// `before` in `source`, number `i`) takes in the one at `range`: its TeX runs on over the
    /// delimiters between them, written as spaces, so every byte keeps its place. Whether it did.
    fn continue_inline_chain(
        &mut self,
        source: &str,
        lines: &Positions,
        i: usize,
        before: Range<usize>,
        range: Range<usize>,
    ) -> bool {
        let first = strip_delimiters(source, before);
        let next = strip_delimiters(source, range);
        // (An HTML comment between, which a reader never sees, is blank too: byte for byte.)
        let gap = without_html_comments(&source[first.end..next.start]);
        let blank = |c: char| c == '$' || c.is_whitespace() || is_invisible(c);
        let opens_with_relation = {
            let tex = source[next.clone()].trim_start_matches(|c: char| c.is_whitespace() || is_invisible(c));
            // (A command whole: `\le` is not the start of `\left`.)
            const RELATIONS: [&str; 12] =
                ["=", "<", ">", "\\approx", "\\leq", "\\le", "\\geq", "\\ge", "\\neq", "\\ne", "\\equiv", "\\sim"];
            RELATIONS.iter().any(|r| {
                tex.strip_prefix(r)
                    .is_some_and(|rest| !(r.starts_with('\\') && rest.starts_with(|c: char| c.is_ascii_alphabetic())))
            }) && !tex.starts_with("==")
        };
        if !(gap.contains('\n') && gap.chars().all(blank) && gap.matches('$').count() == 2 && opens_with_relation) {
            return false;
        }
        let site = &mut self.formulas[i];
        let tex = format!("{}{}{}", site.tex, gap.replace('$', " "), &source[next.clone()]);
        site.pieces.push(site.tex.len() + gap.len());
        site.tex_line_starts =
            tex.match_indices('\n').map(|(at, _)| lines.map.original(first.start + at + 1)).collect();
        site.tex_range = site.tex_range.start..lines.map.original(next.end);
        site.tex = tex;
        true
    }

    /// A `$` in plain text opened no formula: usually a typo (or a dollar sign to escape).
    fn warn_lone_dollars(&mut self, source: &str, lines: &Positions, range: Range<usize>) {
        for (i, _) in source[range.clone()].match_indices('$') {
            if source[..range.start + i].ends_with('\\') {
                continue;
            }
            let offset = lines.map.original(range.start + i);
            let pos = lines.position(range.start + i);
            let message = "a lone `$` opens no formula (unclosed math?); write `\\$` for a dollar sign".to_string();
            self.warnings.push(NoteWarning {
                line: pos.line,
                col: pos.col,
                offset,
                message,
                kind: NoteWarningKind::LoneDollar,
            });
        }
    }

    pub fn section_of(&self, site: &FormulaSite) -> Option<&Section> {
        site.section.map(|i| &self.sections[i])
    }

    /// Source position of a byte offset inside a formula's TeX.
    pub fn position_in_formula(&self, site: &FormulaSite, tex_offset: usize) -> Position {
        let tex_offset = tex_offset.min(site.tex.len());
        let row = site.tex.get(..tex_offset).map_or(0, |before| before.matches('\n').count());
        let Some(start) = row.checked_sub(1).and_then(|k| site.tex_line_starts.get(k)) else {
            return LineIndex::new(&self.source).position(site.tex_range.start + tex_offset);
        };
        // Within a later line: that line's start in the source, and the characters after it.
        let row_start = site.tex[..tex_offset].rfind('\n').map_or(0, |at| at + 1);
        let at = LineIndex::new(&self.source).position(*start);
        Position { line: at.line, col: at.col + site.tex[row_start..tex_offset].chars().count() }
    }
}

/// The running prose of the current stretch of text (cleared at headings and code blocks):
/// where each formula's lead is read from.
#[derive(Default)]
struct Prose {
    text: String,
    block: usize,
    /// Nothing pushed since the block began but space.
    fresh: bool,
}

impl Prose {
    /// Longest lead kept, in characters.
    const LEAD: usize = 160;

    fn clear(&mut self) {
        self.text.clear();
        self.block += 1;
        self.fresh = true;
    }

    /// A new block that may go on with the sentence before it (a paragraph).
    fn open_block(&mut self) {
        self.block += 1;
        self.push(" ");
        self.fresh = true;
    }

    fn push(&mut self, text: &str) {
        self.fresh &= text.trim().is_empty();
        self.text.push_str(text);
        // Only the tail can ever be a lead: keep the buffer short.
        if self.text.len() > 4 * Self::LEAD {
            let cut = self.text.char_indices().rev().nth(Self::LEAD).map_or(0, |(i, _)| i);
            self.text.drain(..cut);
        }
    }

    /// The current sentence so far: after the last sentence end (`. `, `。`, `!`, `?`, `；`),
    /// whitespace collapsed, at most [`Prose::LEAD`] characters.
    fn lead(&self) -> String {
        static SENTENCE_END: LazyLock<regex::Regex> =
            LazyLock::new(|| regex::Regex::new(r"[.!?](\s|$)|[。！？；]").expect("valid regex"));
        let text = self.text.trim_end();
        // A sentence that ended just before the formula (`… as follows.` then a display) still
        // introduces it: look for the end before that one.
        let body = text.trim_end_matches(['.', '。', ':', '：']);
        let start = SENTENCE_END.find_iter(body).last().map_or(0, |m| m.end());
        let words: Vec<&str> = body[start..].split_whitespace().collect();
        let lead = words.join(" ");
        let skip = lead.chars().count().saturating_sub(Self::LEAD);
        lead.chars().skip(skip).collect()
    }
}

/// A character that prints as nothing (a zero-width space or joiner, a byte order mark).
fn is_invisible(c: char) -> bool {
    matches!(c, '\u{200B}' | '\u{200C}' | '\u{200D}' | '\u{2060}' | '\u{FEFF}')
}

/// `text` with each HTML comment (`<!-- … -->`) written as spaces, one per byte, so that every
/// byte keeps its place.
fn without_html_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("<!--") {
        let Some(len) = rest[start..].find("-->").map(|end| end + 3) else { break };
        out.push_str(&rest[..start]);
        out.extend(std::iter::repeat_n(' ', len));
        rest = &rest[start + len..];
    }
    out.push_str(rest);
    out
}

/// Removes `$`/`$$` from a math event's byte range.
fn strip_delimiters(source: &str, range: Range<usize>) -> Range<usize> {
    let text = &source[range.clone()];
    let open = text.chars().take_while(|&c| c == '$').count().min(2);
    let close = text.chars().rev().take_while(|&c| c == '$').count().min(open);
    let (start, end) = (range.start + open, range.end - close);
    if start <= end {
        start..end
    } else {
        start..start
    }
}

fn heading_text(raw: &str) -> String {
    let first_line = raw.lines().next().unwrap_or("");
    first_line.trim().trim_start_matches('#').trim().trim_end_matches('#').trim().to_string()
}

/// `15.3 Title` -> ("15.3", "Title"); a heading without number keeps its text as both.
/// A heading's number may be a single one (`## 3 Title`); a paragraph's must be dotted.
fn section_from_heading(text: &str) -> (String, String) {
    static HEADING_NUMBER: LazyLock<regex::Regex> =
        LazyLock::new(|| regex::Regex::new(r"^(\d+(?:\.\d+)*)\.?\s+(\S.*?)\s*$").expect("valid regex"));
    if let Some(c) = HEADING_NUMBER.captures(text.trim()) {
        return (c[1].to_string(), c[2].to_string());
    }
    split_numbered_title(text).unwrap_or_else(|| (text.to_string(), text.to_string()))
}

/// The TeX at `range` of `source`, where the formula stands in a block quote (`> $$`, `> \begin{align}`
/// on the lines after): the quote markers that open its later lines are blanked, one space each,
/// so that each byte keeps its place and TeX sees what the quote holds.
fn without_quote_markers(source: &str, range: Range<usize>) -> String {
    let tex = &source[range.clone()];
    let line_start = source[..range.start].rfind('\n').map_or(0, |at| at + 1);
    let quoted = source[line_start..range.start].trim_start().starts_with('>');
    if !quoted || !tex.contains('\n') {
        return tex.to_string();
    }
    let mut out = String::with_capacity(tex.len());
    for (i, row) in tex.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
            let indent = row.len() - row.trim_start().len();
            let mut rest = &row[indent..];
            out.push_str(&row[..indent]);
            while let Some(after) = rest.strip_prefix('>') {
                out.push(' ');
                let spaces = after.len() - after.trim_start_matches([' ', '\t']).len();
                out.push_str(&after[..spaces]);
                rest = &after[spaces..];
            }
            out.push_str(rest);
        } else {
            out.push_str(row);
        }
    }
    out
}

/// A paragraph that is one short line of the form `15.3 标题` or `第 15 章：标题`.
fn numbered_title_line(paragraph: &str) -> Option<(String, String)> {
    let line = paragraph.trim();
    if line.contains('\n') || line.chars().count() > 80 || line.contains('$') {
        return None;
    }
    split_numbered_title(line)
}

static NUMBERED: LazyLock<regex::Regex> =
    LazyLock::new(|| regex::Regex::new(r"^(\d+(?:\.\d+)+)\.?\s+(\S.*?)\s*$").expect("valid regex"));
static CHAPTER: LazyLock<regex::Regex> = LazyLock::new(|| {
    regex::Regex::new(r"^(?:第\s*(\d+)\s*章|Chapter\s+(\d+))\s*[：:.]?\s*(.*?)\s*$").expect("valid regex")
});

fn split_numbered_title(line: &str) -> Option<(String, String)> {
    if let Some(c) = NUMBERED.captures(line) {
        let title = c[2].to_string();
        let sentence_end = title.ends_with(['。', '.', '，', ',', '；', ';', '：', ':']);
        return (!sentence_end).then(|| (c[1].to_string(), title));
    }
    let c = CHAPTER.captures(line)?;
    let number = c.get(1).or(c.get(2))?.as_str().to_string();
    Some((number, c[3].to_string()))
}

/// Positions in the original text of offsets in the text as read (after [`delimiters::rewrite`]).
struct Positions<'a> {
    lines: LineIndex<'a>,
    map: delimiters::OffsetMap,
    /// The bodies of the worked examples, exercises, solutions and proofs MyST directives box
    /// ([`directives::Directive::is_worked`]), in the original's offsets, in the order they open,
    /// each with the number of its box ([`worked_boxes`]).
    worked: Vec<(Range<usize>, usize)>,
}

impl Positions<'_> {
    fn position(&self, offset: usize) -> Position {
        self.lines.position(self.map.original(offset))
    }
}

/// Byte offset to 1-based line and character column.
pub struct LineIndex<'a> {
    source: &'a str,
    line_starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    pub fn new(source: &'a str) -> Self {
        let line_starts = std::iter::once(0).chain(source.match_indices('\n').map(|(i, _)| i + 1)).collect();
        LineIndex { source, line_starts }
    }

    /// The byte offset each line starts at.
    pub fn line_starts(&self) -> &[usize] {
        &self.line_starts
    }

    /// The 0-based line an offset is on.
    pub fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset).saturating_sub(1)
    }

    pub fn position(&self, offset: usize) -> Position {
        let offset = offset.min(self.source.len());
        let line = self.line_of(offset);
        let start = self.line_starts[line];
        let col = self.source.get(start..offset).map(|s| s.chars().count()).unwrap_or(offset - start);
        Position { line: line + 1, col: col + 1 }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(text: &str) -> Document {
        Document::parse("t.md", text.to_string())
    }

    #[test]
    fn a_chain_goes_on_in_the_next_paragraph_past_a_comment() {
        let d = doc("$J = (a+b)^2$ <!-- seen by nobody -->\n\n\u{200b} $= a^2 + 2ab + b^2$\n\nThen $x = 1$.\n");
        assert_eq!(d.formulas.len(), 2, "{:?}", d.formulas.iter().map(|f| &f.tex).collect::<Vec<_>>());
        assert!(d.formulas[0].tex.starts_with("J = (a+b)^2") && d.formulas[0].tex.ends_with("= a^2 + 2ab + b^2"));
        assert_eq!(without_html_comments("a<!-- b -->c"), format!("a{}c", " ".repeat(10)));
    }

    #[test]
    fn a_mark_applies_to_the_next_formula_only() {
        let d = doc("# A\n\n<!-- derivcheck: skip -->\n$$x=1$$\n\nso <!--derivcheck:Wrong-->$y=2$ and $z=3$.\n");
        let marks: Vec<Option<Mark>> = d.formulas.iter().map(|f| f.mark).collect();
        assert_eq!(marks, [Some(Mark::Skip), Some(Mark::Wrong), None]);
        assert!(d.warnings.is_empty(), "{:?}", d.warnings);
    }

    #[test]
    fn unknown_and_unused_marks_warn_at_the_mark() {
        let d = doc("# A\n\n<!-- derivcheck: maybe -->\n$x=1$\n\n<!-- derivcheck: claim -->\n\n# B\n\n$y=2$\n");
        assert_eq!(d.formulas.iter().map(|f| f.mark).collect::<Vec<_>>(), [None, None]);
        let at: Vec<(usize, bool)> = d.warnings.iter().map(|w| (w.line, w.message.contains("unknown"))).collect();
        assert_eq!(at, [(3, true), (6, false)]);
        // Other HTML comments are not marks.
        assert!(doc("<!-- a note -->\n$x$\n").warnings.is_empty());
    }

    #[test]
    fn finds_inline_and_display_math_with_positions() {
        let d = doc("intro $a=b$ and\n\n$$\nx^2\n$$\n");
        assert_eq!(d.formulas.len(), 2);
        assert_eq!((d.formulas[0].line, d.formulas[0].col, d.formulas[0].tex.as_str()), (1, 7, "a=b"));
        assert!(d.formulas[1].display);
        assert_eq!(d.formulas[1].tex.trim(), "x^2");
        assert_eq!(d.formulas[1].line, 3);
    }

    #[test]
    fn columns_count_characters_not_bytes() {
        let d = doc("设 $D=1$ ， $a_j=2$ 。");
        assert_eq!(d.formulas[0].col, 3);
        assert_eq!(d.formulas[1].col, 11);
    }

    #[test]
    fn numbered_title_lines_and_headings_are_sections() {
        let d = doc("第 15 章：标题\n\n15.1 Softmax导数\n\n$a$\n\n# 15.2 Next\n\n$b$\n\n## Plain heading\n\n$c$\n");
        let numbers: Vec<&str> = d.sections.iter().map(|s| s.number.as_str()).collect();
        assert_eq!(numbers, ["15", "15.1", "15.2", "Plain heading"]);
        assert_eq!(d.formulas[0].id, "15.1#1");
        assert_eq!(d.section_of(&d.formulas[1]).unwrap().title, "Next");
        assert_eq!(d.formulas[2].id, "Plain heading#1");
    }

    #[test]
    fn sentences_starting_with_numbers_are_not_sections() {
        let d = doc("3.5 is a number, not a title.\n\n2017 年的论文\n");
        assert!(d.sections.is_empty());
    }

    #[test]
    fn code_blocks_are_not_math() {
        let d = doc("```\n$not math$\n```\n\n`$x$` but $y$\n");
        let texs: Vec<&str> = d.formulas.iter().map(|f| f.tex.as_str()).collect();
        assert_eq!(texs, ["y"]);
    }

    #[test]
    fn lone_dollar_is_warned_escaped_one_is_not() {
        let d = doc("price $5 and \\$6\n\nnext $x$\n");
        assert_eq!(d.formulas.len(), 1);
        assert_eq!(d.warnings.len(), 1);
        assert_eq!((d.warnings[0].line, d.warnings[0].col), (1, 7));
    }

    #[test]
    fn a_formula_knows_the_words_before_it_and_its_block() {
        let d = doc(
            "Intro. We use $x=10$ as the start and assume $\\eta=0.2$.\n\nThus we solve\n\n$$a=b$$\n\n## H\n\n$$c$$\n",
        );
        let leads: Vec<&str> = d.formulas.iter().map(|f| f.lead.as_str()).collect();
        assert_eq!(leads, ["We use", "We use $ as the start and assume", "Thus we solve", ""]);
        assert_eq!(d.formulas[0].block, d.formulas[1].block);
        assert!(d.formulas[2].block > d.formulas[1].block);
        let zh = doc("设$x=1$，则$y=2$。若$z=0$");
        let leads: Vec<&str> = zh.formulas.iter().map(|f| f.lead.as_str()).collect();
        assert_eq!(leads, ["设", "设$，则", "若"]);
    }

    #[test]
    fn a_heading_written_again_names_a_section_of_its_own() {
        let doc =
            Document::parse("t.md", "# T\n\n## Proof\n\n$a=1$\n\n## Proof\n\n$b=2$\n\n## Proof\n\n$c=3$\n".to_string());
        let ids: Vec<&str> = doc.formulas.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(ids, ["Proof#1", "Proof (2)#1", "Proof (3)#1"]);
    }

    #[test]
    fn position_inside_multiline_formula() {
        let d = doc("$$\nab\ncd\n$$\n");
        let f = &d.formulas[0];
        let off = f.tex.find('d').unwrap();
        assert_eq!(d.position_in_formula(f, off), Position { line: 3, col: 2 });
    }

    #[test]
    fn tables_are_read_cell_by_cell_and_math_keeps_its_bars() {
        let d = doc("# A\n\n| | $H=1$ | $H=0$ |\n|:--|--:|--:|\n| $p(y|x)$ | 1 | 0.01 |\n| $|x|$ | a \\| b | |\n\ntext\n\n```\n| a | b |\n|---|---|\n```\n");
        assert_eq!(d.tables.len(), 1, "{:?}", d.tables);
        let t = &d.tables[0];
        assert_eq!((t.section, t.line), (Some(0), 3));
        assert_eq!(t.rows[0], ["", "$H=1$", "$H=0$"]);
        assert_eq!(t.rows[1], ["$p(y|x)$", "1", "0.01"]);
        assert_eq!(t.rows[2], ["$|x|$", "a \\| b", ""]);
        // The formulas in the cells are read as before, whole.
        let texs: Vec<&str> = d.formulas.iter().map(|f| f.tex.as_str()).collect();
        assert_eq!(texs, ["H=1", "H=0", "p(y|x)", "|x|"]);
    }

    #[test]
    fn the_words_since_the_previous_formula_leave_code_out() {
        let text = "# A\n\nFirst $x=1$.\n\n```\nfor example = 1\n```\n\nLet's look at our example where $X$ is\nhere, and $y$.\n\n# B\n\nSo $z$.\n";
        let d = doc(text);
        let since: Vec<&str> = d.formulas.iter().map(|f| f.since_previous.as_str()).collect();
        assert_eq!(since, ["First", ". Let's look at our example where", "is here, and", "So"]);
    }
}
