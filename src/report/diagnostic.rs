//! One diagnostic model: everything derivcheck tells a user about a place in their files — a
//! refuted or undecided claim, a formula that does not parse, a warning about the notes, a spec
//! entry that cannot take effect — becomes a [`Diagnostic`] (severity, file, span, message,
//! notes, suggestion), every word from the zh/en tables. Renderers: [`render_terminal`]
//! (codespan's underlined snippets, for `check`'s text format and stderr) and [`render_line`]
//! (one line, for watch mode and the mdBook preprocessor). The lines, JSON and JUnit formats
//! render the `CheckReport` itself, which holds the same verdicts as data.

use super::{describe, syntax_error, unparsed_advice, words, CheckReport, FileReport, Lang};
use crate::listing::ParseFailure;
use crate::model::Status;
use crate::notes::{Document, LineIndex, NoteWarningKind};
use codespan_reporting::diagnostic::{Diagnostic as Snippet, Label, Severity as SnippetSeverity};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor};
use std::ops::Range;

mod window;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    /// Neither wrong nor doubtful: a claim that became verified, one that is gone.
    Note,
}

/// Something to tell the user about a place in a file.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub severity: Severity,
    /// The file as shown (a notes file or the spec).
    pub file: String,
    /// 1-based line and column of the place.
    pub line: usize,
    pub col: usize,
    /// The place as a byte range of the file's text, where known.
    pub span: Option<Range<usize>>,
    /// The headline: `REFUTED 15.3#4`, `公式 2#1 无法解析`.
    pub message: String,
    /// What is wrong at the place (shown under it).
    pub label: String,
    pub notes: Vec<String>,
    /// An edit that makes it right, verified (`did you mean`), in TeX.
    pub suggestion: Option<String>,
    /// The bytes of the file the suggestion replaces (the claim's link), where the file's text
    /// holds the formula as written (not in a notebook's JSON).
    pub replaces: Option<Range<usize>>,
    /// The kind of finding, a stable id (SARIF's rule): `refuted.differs`,
    /// `undecided.index_without_value`, `not_parsed`, `notes.lone_dollar`, `spec`, `change`.
    pub rule: String,
    /// The claim it is about, by id.
    pub claim: Option<String>,
}

/// The refuted claims of a report, then the undecided ones (the first screen of a run shows
/// what is wrong). `spec` is the spec's path and text, for claims the spec states.
pub fn of_claims(report: &CheckReport, spec: Option<(&str, &str)>, lang: Lang) -> Vec<Diagnostic> {
    let w = words(lang);
    let findings = [Status::Refuted, Status::Undecided]
        .into_iter()
        .flat_map(|status| report.files.iter().map(move |file| (status, file)))
        .flat_map(|(status, file)| file.claims.iter().filter(move |c| c.verdict == status).map(move |c| (file, c)));
    findings
        .map(|(file, c): (&FileReport, _)| {
            let (severity, status, rule) = match c.verdict {
                Status::Refuted => (Severity::Error, w.refuted, format!("refuted.{}", reason_name(&c.reason))),
                _ => (Severity::Warning, w.undecided, format!("undecided.{}", why_name(super::undecided::why(c)))),
            };
            // The construct not understood when the verdict names one, else the failing link.
            let (start, end) = c.focus.unwrap_or(c.link);
            let (path, span) = match (c.range, spec) {
                (Some(range), _) => (file.listing.path.clone(), Some(range.0 + start..range.0 + end)),
                (None, Some((path, text))) => {
                    let at = offset_of(text, c.line, c.col);
                    (path.to_string(), Some(at..at + 1))
                }
                (None, None) => (file.listing.path.clone(), None),
            };
            let mut notes = Vec::new();
            if let Some(point) =
                c.counterexample.as_ref().and_then(|x| x.mismatch.as_ref()).filter(|m| !m.point.is_empty())
            {
                let values: Vec<String> = point.point.iter().map(|(k, v)| format!("{k} = {v:.4}")).collect();
                notes.push(values.join(", "));
            }
            // (What a refutation was checked under: the values a binding or a solution gives.)
            if c.verdict == Status::Refuted && !c.assuming.is_empty() {
                notes.push(format!("{}: {}", w.assuming, c.assuming.join(", ")));
            }
            Diagnostic {
                severity,
                file: path,
                line: c.line,
                col: c.col,
                span,
                // (In a notebook the line is the `.ipynb` file's; the cell and its line follow.)
                message: match c.cell {
                    Some(at) => format!(
                        "{status} {} ({})",
                        c.id,
                        w.in_cell.replace("{cell}", &at.cell.to_string()).replace("{line}", &at.line.to_string())
                    ),
                    None => format!("{status} {}", c.id),
                },
                label: describe(&c.reason, lang),
                notes,
                suggestion: c.suggestion.as_ref().map(|s| s.tex.clone()),
                replaces: match (c.range, c.cell, &c.suggestion) {
                    (Some(range), None, Some(_)) => Some(range.0 + c.link.0..range.0 + c.link.1),
                    _ => None,
                },
                rule,
                claim: Some(c.id.clone()),
            }
        })
        .collect()
}

/// A reason's name, as the JSON report tags it (`differs`, `shape_mismatch`).
fn reason_name(reason: &crate::model::Reason) -> String {
    serde_json::to_value(reason)
        .ok()
        .and_then(|v| v.get("reason").and_then(|r| r.as_str().map(str::to_string)))
        .unwrap_or_else(|| "other".to_string())
}

/// Why a claim is undecided, as the JSON report names it (`index_without_value`).
fn why_name(why: crate::model::Why) -> String {
    serde_json::to_value(why).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_else(|| "other".into())
}

/// The diagnostics with a file's repeated warnings of one kind at one line (undecided claims
/// of one formula, for one reason) said once, naming every claim.
pub fn collapse_repeats(diagnostics: Vec<Diagnostic>) -> Vec<Diagnostic> {
    /// Claims named in one collapsed warning; the rest are counted.
    const NAMED: usize = 4;
    let mut out: Vec<(Diagnostic, Vec<String>)> = Vec::new();
    for d in diagnostics {
        let repeat = out.iter_mut().find(|(kept, _)| {
            d.severity == Severity::Warning
                && kept.severity == d.severity
                && (&kept.file, kept.line, &kept.rule, &kept.label) == (&d.file, d.line, &d.rule, &d.label)
                && kept.claim.is_some()
                && d.claim.is_some()
        });
        match (repeat, d.claim.clone()) {
            (Some((_, claims)), Some(claim)) => claims.push(claim),
            _ => out.push((d, Vec::new())),
        }
    }
    out.into_iter()
        .map(|(mut d, more)| {
            if let (Some(first), false) = (&d.claim, more.is_empty()) {
                let mut named: Vec<&str> =
                    std::iter::once(first.as_str()).chain(more.iter().map(String::as_str)).collect();
                let all = named.len();
                named.truncate(NAMED);
                let mut list = named.join(", ");
                if all > NAMED {
                    list.push_str(&format!(" (+{})", all - NAMED));
                }
                d.message = d.message.replacen(first.as_str(), &list, 1);
            }
            d
        })
        .collect()
}

/// The findings of a checked run, for tools (code scanning, pull-request annotations, the
/// editor): one per refuted or undecided claim, per warning about the notes, and per formula
/// that does not parse where a claim could be.
pub fn findings(
    report: &CheckReport,
    docs: &[Document],
    parse_failures: &[ParseFailure],
    spec: Option<(&str, &str)>,
    lang: Lang,
) -> Vec<Diagnostic> {
    let could_be_claims: Vec<&ParseFailure> = parse_failures.iter().filter(|f| f.could_be_claim()).collect();
    let mut out = of_claims(report, spec, lang);
    out.extend(of_note_warnings(docs, lang));
    out.extend(of_parse_failures(docs, &could_be_claims, lang));
    out
}

/// A claim whose verdict changed between two runs (watch mode): where it is, its id, and its
/// verdict now (`None`: the claim is gone), with the reason the report gives.
pub struct Change<'a> {
    pub file: &'a str,
    pub line: usize,
    pub col: usize,
    pub id: &'a str,
    pub now: Option<(Status, &'a crate::model::Reason)>,
}

/// What changed since the last run: newly refuted, undecided or verified claims, and the gone.
pub fn of_changes(changes: &[Change], lang: Lang) -> Vec<Diagnostic> {
    let w = words(lang);
    changes
        .iter()
        .map(|c| {
            let (severity, message, label) = match c.now {
                Some((Status::Refuted, why)) => (Severity::Error, w.refuted, describe(why, lang)),
                Some((Status::Undecided, why)) => (Severity::Warning, w.undecided, describe(why, lang)),
                Some((Status::Verified, _)) => (Severity::Note, w.verified, String::new()),
                None => (Severity::Note, w.gone, String::new()),
            };
            let newly = if c.now.is_some() { w.newly } else { "" };
            Diagnostic {
                severity,
                file: c.file.to_string(),
                line: c.line,
                col: c.col,
                span: None,
                message: format!("{newly}{message} {}", c.id),
                label,
                notes: Vec::new(),
                suggestion: None,
                replaces: None,
                rule: "change".to_string(),
                claim: Some(c.id.to_string()),
            }
        })
        .collect()
}

/// The notes' own warnings (an unclosed `$`, an unknown mark), in the language of the run.
pub fn of_note_warnings(docs: &[Document], lang: Lang) -> Vec<Diagnostic> {
    let w = words(lang);
    docs.iter()
        .flat_map(|d| d.warnings.iter().map(move |warning| (d, warning)))
        .map(|(d, warning)| Diagnostic {
            severity: Severity::Warning,
            file: d.path.clone(),
            line: warning.line,
            col: warning.col,
            span: Some(warning.offset..warning.offset + 1),
            rule: match &warning.kind {
                NoteWarningKind::LoneDollar => "notes.lone_dollar",
                NoteWarningKind::UnknownMark { .. } => "notes.unknown_mark",
                NoteWarningKind::UnusedMark { .. } => "notes.unused_mark",
            }
            .to_string(),
            claim: None,
            message: match &warning.kind {
                NoteWarningKind::LoneDollar => w.lone_dollar.to_string(),
                NoteWarningKind::UnknownMark { word, known } => {
                    w.unknown_mark.replace("{word}", word).replace("{known}", known)
                }
                NoteWarningKind::UnusedMark { mark } => w.unused_mark.replace("{mark}", mark),
            },
            label: String::new(),
            notes: Vec::new(),
            suggestion: None,
            replaces: None,
        })
        .collect()
}

/// Formulas that do not parse (each with advice, where it could have been a claim).
pub fn of_parse_failures(docs: &[Document], failures: &[&ParseFailure], lang: Lang) -> Vec<Diagnostic> {
    let w = words(lang);
    failures
        .iter()
        .map(|failure| {
            let start = failure.formula.tex_range.start + failure.error.span.start;
            let end = (failure.formula.tex_range.start + failure.error.span.end).max(start);
            let doc = &docs[failure.file];
            let at = doc.position_in_formula(&failure.formula, failure.error.span.start);
            Diagnostic {
                severity: Severity::Error,
                file: doc.path.clone(),
                line: at.line,
                col: at.col,
                span: Some(start..end),
                message: w
                    .does_not_parse
                    .replace("{id}", &failure.formula.id)
                    .replace("{error}", &syntax_error(&failure.error.kind, lang)),
                label: syntax_error(&failure.error.kind, lang),
                notes: if failure.could_be_claim() { vec![unparsed_advice(&failure.error.kind, lang)] } else { vec![] },
                suggestion: None,
                replaces: None,
                rule: "not_parsed".to_string(),
                claim: None,
            }
        })
        .collect()
}

/// Spec entries that cannot take effect, each underlined in the spec's text.
pub fn of_spec_errors(path: &str, text: &str, errors: &[crate::sema::SpecProblem], lang: Lang) -> Vec<Diagnostic> {
    errors
        .iter()
        .map(|problem| {
            let (line, col) = (&problem.line, &problem.col);
            let start = offset_of(text, *line, *col);
            let end = text[start..].find(['\n', ',', '}', ']']).map_or(text.len(), |k| start + k.max(1));
            Diagnostic {
                severity: Severity::Error,
                file: path.to_string(),
                line: *line,
                col: *col,
                span: Some(start..end),
                message: super::words::spec_error(&problem.kind, lang),
                label: String::new(),
                notes: Vec::new(),
                suggestion: None,
                replaces: None,
                rule: "spec".to_string(),
                claim: None,
            }
        })
        .collect()
}

/// How wide a terminal report may be: the columns of the terminal, or [`Screen::DEFAULT_COLUMNS`]
/// when the output is not one.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Screen {
    pub colour: bool,
    /// Columns a line of the file (and a note) may take, besides codespan's gutter.
    pub columns: usize,
}

impl Screen {
    /// Where the output is not a terminal (a pipe, a file, CI logs).
    pub const DEFAULT_COLUMNS: usize = 120;
    /// Narrower than this, snippets would be unreadable: clipped to this anyway.
    const MIN_COLUMNS: usize = 40;

    pub fn new(colour: bool, columns: Option<usize>) -> Screen {
        Screen { colour, columns: columns.unwrap_or(Self::DEFAULT_COLUMNS).max(Self::MIN_COLUMNS) }
    }
}

/// The diagnostics as codespan draws them, each under its snippet of the file — a long line
/// clipped to a window around the place, notes wrapped — so that no line is wider than the
/// screen besides the gutter; `sources` are the files' paths and texts.
pub fn render_terminal(diagnostics: &[Diagnostic], sources: &[(&str, &str)], screen: Screen, lang: Lang) -> String {
    let lines: Vec<LineIndex> = sources.iter().map(|(_, text)| LineIndex::new(text)).collect();
    let no_file = SimpleFile::new(String::new(), String::new());
    let mut out = String::new();
    let config = term::Config::default();
    let wrap = |text: &str| textwrap::fill(text, textwrap::Options::new(screen.columns).break_words(true));
    for d in diagnostics {
        let severity = match d.severity {
            Severity::Error => SnippetSeverity::Error,
            Severity::Warning => SnippetSeverity::Warning,
            Severity::Note => SnippetSeverity::Note,
        };
        let snippet = Snippet::new(severity).with_message(wrap(&d.message));
        let file = sources.iter().position(|(path, _)| *path == d.file);
        let mut notes = Vec::new();
        let window = match (file, &d.span) {
            (Some(at), Some(span)) => {
                Some(window::Window::new(&d.file, sources[at].1, &lines[at], span.clone(), screen.columns))
            }
            _ => None,
        };
        // A label that would run past the screen after the carets goes under the snippet.
        let label_fits = |w: &window::Window| w.span_end_column + 1 + window::columns(&d.label) <= screen.columns;
        let label = match &window {
            Some(w) if label_fits(w) => d.label.clone(),
            _ => {
                if !d.label.is_empty() {
                    notes.push(d.label.clone());
                }
                String::new()
            }
        };
        notes.extend(d.notes.iter().cloned());
        notes.extend(d.repair_note(lang));
        let notes: Vec<String> = notes.iter().map(|n| wrap(n)).collect();
        let mut one = if screen.colour { termcolor::Buffer::ansi() } else { termcolor::Buffer::no_color() };
        let _ = match &window {
            Some(win) => {
                let snippet = snippet.with_labels(vec![Label::primary((), win.span.clone()).with_message(label)]);
                term::emit(&mut one, &config, win, &snippet.with_notes(notes))
            }
            None => term::emit(&mut one, &config, &no_file, &snippet.with_notes(notes)),
        };
        out.push_str(&in_words(&String::from_utf8_lossy(one.as_slice()), d.severity, lang));
    }
    out
}

/// codespan heads a diagnostic with its severity in English (`error`, `warning`): the header's
/// word, said from the word tables.
fn in_words(rendered: &str, severity: Severity, lang: Lang) -> String {
    let w = words(lang);
    let (english, said) = match severity {
        Severity::Error => ("error", w.error),
        Severity::Warning => ("warning", w.warning),
        Severity::Note => ("note", w.note),
    };
    let (header, rest) = rendered.split_once('\n').unwrap_or((rendered, ""));
    let header = header.replacen(english, said, 1);
    if rendered.contains('\n') {
        format!("{header}\n{rest}")
    } else {
        header
    }
}

impl Diagnostic {
    /// The verified repair as a note: `did you mean (verified): `…``.
    pub fn repair_note(&self, lang: Lang) -> Option<String> {
        self.suggestion.as_ref().map(|tex| format!("{}: `{tex}`", words(lang).did_you_mean))
    }

    /// A message about no one place in a file (an input that cannot be read, an output that
    /// cannot be written), or about a whole file when `file` is given.
    pub fn general(severity: Severity, file: Option<&str>, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            severity,
            file: file.unwrap_or_default().to_string(),
            line: 0,
            col: 0,
            span: None,
            message: message.into(),
            label: String::new(),
            notes: Vec::new(),
            suggestion: None,
            replaces: None,
            rule: "general".to_string(),
            claim: None,
        }
    }
}

/// One line: `file:line:col: message: label` (watch mode, the mdBook preprocessor's stderr);
/// `file: message` for a whole file; `error: message` for a message about no place.
pub fn render_line(d: &Diagnostic, lang: Lang) -> String {
    let mut out = match (d.file.is_empty(), d.line) {
        (true, _) => {
            let w = words(lang);
            let severity = match d.severity {
                Severity::Error => w.error,
                Severity::Warning => w.warning,
                Severity::Note => w.note,
            };
            format!("{severity}: {}", d.message)
        }
        (false, 0) => format!("{}: {}", d.file, d.message),
        (false, _) => format!("{}:{}:{}: {}", d.file, d.line, d.col, d.message),
    };
    if !d.label.is_empty() {
        out.push_str(&format!(": {}", d.label));
    }
    out
}

/// The byte offset of a 1-based line and character column.
pub fn offset_of(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text.split_inclusive('\n').take(line.saturating_sub(1)).map(str::len).sum();
    let rest = &text[start.min(text.len())..];
    start + rest.char_indices().nth(col.saturating_sub(1)).map_or(rest.len().min(1), |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_warnings_in_the_language_of_the_run() {
        let doc = Document::parse("n.md", "Costs $5 and\n\n<!-- derivcheck: clam -->\n$x=1$\n".to_string());
        let en = of_note_warnings(std::slice::from_ref(&doc), Lang::En);
        let zh = of_note_warnings(std::slice::from_ref(&doc), Lang::Zh);
        assert_eq!(en.len(), 2, "{en:#?}");
        assert!(en.iter().any(|d| d.message.contains("lone `$`")), "{en:#?}");
        assert!(en.iter().any(|d| d.message.contains("unknown derivcheck mark `clam`")), "{en:#?}");
        assert!(zh.iter().all(|d| !d.message.contains("unknown") && !d.message.contains("lone")), "{zh:#?}");
        assert_eq!((en[0].line, en[0].col), (zh[0].line, zh[0].col));
    }

    #[test]
    fn a_spec_error_is_underlined_at_its_entry_and_said_in_one_line() {
        let text = "[section.\"1\"]\nsizes = { n = [0] }\n";
        let kind = crate::spec::SpecErrorKind::SizeValues { section: "1".into(), size: "n".into(), values: vec![0] };
        let problem = crate::sema::SpecProblem { line: 2, col: 11, kind };
        let shown = of_spec_errors("s.toml", text, std::slice::from_ref(&problem), Lang::En);
        let d = &shown[0];
        assert_eq!(&text[d.span.clone().unwrap()], "n = [0", "up to the entry's first delimiter");
        assert_eq!(
            render_line(d, Lang::En),
            "s.toml:2:11: section 1: size `n` must list values of at least 1, not [0]"
        );
        let zh = of_spec_errors("s.toml", text, &[problem], Lang::Zh);
        assert_eq!(zh[0].message, "第 1 节：尺寸 `n` 的取值须不小于 1，而不是 [0]");
        let drawn = render_terminal(&shown, &[("s.toml", text)], Screen::new(false, None), Lang::En);
        assert!(drawn.contains("error") && drawn.contains("^^^^^^"), "{drawn}");
    }
}
