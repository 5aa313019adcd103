//! Findings where pull requests are reviewed: SARIF 2.1.0 (code scanning: one result per
//! finding, a rule per kind of finding, the verified repair as a fix) and GitHub Actions
//! workflow commands (annotations on the changed lines).
//!
//! Takes: the [`Diagnostic`]s of a run (the same verdicts, places and words as `check`'s text)
//! and the files' texts, for the end of each region. Gives: the output's text. Pure.

use super::diagnostic::{Diagnostic, Severity};
use super::{words, Lang};
use crate::notes::LineIndex;
use serde_json::{json, Value};

/// Where a diagnostic is, 1-based, columns in characters; the end column is the one after the
/// place (SARIF's `endColumn`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

/// The files' texts, each with its line index.
struct Sources<'a> {
    files: Vec<(&'a str, LineIndex<'a>)>,
}

impl<'a> Sources<'a> {
    fn new(sources: &[(&'a str, &'a str)]) -> Sources<'a> {
        Sources { files: sources.iter().map(|(path, text)| (*path, LineIndex::new(text))).collect() }
    }

    /// The region of `bytes` in `file`, if the file is known.
    fn region_of(&self, file: &str, bytes: &std::ops::Range<usize>) -> Option<Region> {
        let (_, index) = self.files.iter().find(|(path, _)| *path == file)?;
        let (start, end) = (index.position(bytes.start), index.position(bytes.end.max(bytes.start)));
        Some(Region { start_line: start.line, start_column: start.col, end_line: end.line, end_column: end.col })
    }

    /// A diagnostic's region: its span, or its line and column (one character there).
    fn region(&self, d: &Diagnostic) -> Option<Region> {
        match &d.span {
            Some(span) => self.region_of(&d.file, span),
            None if d.line > 0 => Some(Region {
                start_line: d.line,
                start_column: d.col.max(1),
                end_line: d.line,
                end_column: d.col.max(1) + 1,
            }),
            None => None,
        }
    }
}

/// What a diagnostic says beyond its headline: the label, the notes, the repair (as `check`
/// prints them under it).
pub fn details(d: &Diagnostic, lang: Lang) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    if !d.label.is_empty() {
        out.push(d.label.clone());
    }
    out.extend(d.notes.iter().cloned());
    out.extend(d.repair_note(lang));
    out
}

/// SARIF's `artifactLocation` of a path: relative paths under `%SRCROOT%` (the checkout code
/// scanning resolves them against), absolute ones as `file://` URIs.
fn artifact_location(path: &str) -> Value {
    let encoded: String = path
        .split(std::path::MAIN_SEPARATOR)
        .map(|part| percent_encoding::utf8_percent_encode(part, PATH_SEGMENT).to_string())
        .collect::<Vec<_>>()
        .join("/");
    if std::path::Path::new(path).is_absolute() {
        json!({ "uri": format!("file://{encoded}") })
    } else {
        json!({ "uri": encoded.trim_start_matches("./"), "uriBaseId": "%SRCROOT%" })
    }
}

/// Characters a URI path segment may hold as they are (RFC 3986's unreserved, and `@`).
const PATH_SEGMENT: &percent_encoding::AsciiSet =
    &percent_encoding::NON_ALPHANUMERIC.remove(b'-').remove(b'.').remove(b'_').remove(b'~').remove(b'@');

fn level(severity: Severity) -> &'static str {
    match severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Note => "note",
    }
}

/// The headline of a rule: what its findings are (`refuted.differs` → the words for refuted).
fn rule_description(rule: &str, lang: Lang) -> String {
    let w = words(lang);
    let (kind, detail) = rule.split_once('.').unwrap_or((rule, ""));
    let kind = match kind {
        "refuted" => w.refuted,
        "undecided" => w.undecided,
        "not_parsed" => w.not_parsed,
        _ => w.warning,
    };
    if detail.is_empty() {
        kind.to_string()
    } else {
        format!("{kind}: {}", detail.replace('_', " "))
    }
}

/// The run as one SARIF 2.1.0 log.
pub fn render_sarif(diagnostics: &[Diagnostic], sources: &[(&str, &str)], lang: Lang) -> String {
    let sources = Sources::new(sources);
    let mut rules: Vec<&str> = Vec::new();
    for d in diagnostics {
        if !rules.contains(&d.rule.as_str()) {
            rules.push(&d.rule);
        }
    }
    let results: Vec<Value> = diagnostics
        .iter()
        .map(|d| {
            let details = details(d, lang);
            let text = if details.is_empty() { d.message.clone() } else { format!("{}: {}", d.message, details.join("; ")) };
            let mut result = json!({
                "ruleId": d.rule,
                "ruleIndex": rules.iter().position(|r| *r == d.rule),
                "level": level(d.severity),
                "message": { "text": text },
            });
            if let Some(region) = sources.region(d) {
                result["locations"] = json!([{ "physicalLocation": {
                    "artifactLocation": artifact_location(&d.file),
                    "region": region_json(region),
                }}]);
            }
            if let (Some(tex), Some(replaces)) = (&d.suggestion, &d.replaces) {
                if let Some(region) = sources.region_of(&d.file, replaces) {
                    result["fixes"] = json!([{
                        "description": { "text": format!("{}: {tex}", words(lang).did_you_mean) },
                        "artifactChanges": [{
                            "artifactLocation": artifact_location(&d.file),
                            "replacements": [{ "deletedRegion": region_json(region), "insertedContent": { "text": tex } }],
                        }],
                    }]);
                }
            }
            if let Some(claim) = &d.claim {
                result["partialFingerprints"] = json!({ "derivcheckClaim/v1": format!("{}#{claim}", d.file) });
            }
            result
        })
        .collect();
    let rules: Vec<Value> = rules
        .iter()
        .map(|id| json!({ "id": id, "shortDescription": { "text": rule_description(id, lang) } }))
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "derivcheck",
                "version": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    });
    serde_json::to_string_pretty(&log).expect("a SARIF log serializes") + "\n"
}

fn region_json(r: Region) -> Value {
    json!({ "startLine": r.start_line, "startColumn": r.start_column, "endLine": r.end_line, "endColumn": r.end_column })
}

/// The run as GitHub Actions workflow commands (`::error file=…,line=…::…`): each finding an
/// annotation on its lines of the pull request.
pub fn render_github(diagnostics: &[Diagnostic], sources: &[(&str, &str)], lang: Lang) -> String {
    let sources = Sources::new(sources);
    let mut out = String::new();
    for d in diagnostics {
        let command = match d.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "notice",
        };
        let mut properties: Vec<String> = Vec::new();
        if !d.file.is_empty() {
            properties.push(format!("file={}", property(&d.file)));
        }
        if let Some(r) = sources.region(d) {
            properties.push(format!("line={}", r.start_line));
            properties.push(format!("endLine={}", r.end_line));
            // (GitHub takes columns only on one line.)
            if r.start_line == r.end_line {
                properties.push(format!("col={}", r.start_column));
                properties.push(format!("endColumn={}", r.end_column.saturating_sub(1).max(r.start_column)));
            }
        }
        properties.push(format!("title={}", property(&d.message)));
        let details = details(d, lang);
        let message = if details.is_empty() { d.message.clone() } else { details.join("\n") };
        out.push_str(&format!("::{command} {}::{}\n", properties.join(","), data(&message)));
    }
    out
}

/// A workflow command's message: `%`, CR and LF escaped.
fn data(text: &str) -> String {
    text.replace('%', "%25").replace('\r', "%0D").replace('\n', "%0A")
}

/// A workflow command's property value: as [`data`], and `:` and `,` too.
fn property(text: &str) -> String {
    data(text).replace(':', "%3A").replace(',', "%2C")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refuted() -> Diagnostic {
        Diagnostic {
            severity: Severity::Error,
            file: "ch/notes.md".into(),
            line: 2,
            col: 5,
            span: Some(10..13),
            message: "REFUTED 1#1".into(),
            label: "sides differ".into(),
            notes: vec!["x = 1.5".into()],
            suggestion: Some("x=2".into()),
            replaces: Some(10..13),
            rule: "refuted.differs".into(),
            claim: Some("1#1".into()),
        }
    }

    const TEXT: &str = "# 1 A\nSo $x=3$, 100%, a: b.\n";

    #[test]
    fn github_commands_escape_what_the_syntax_uses() {
        let mut d = refuted();
        d.notes = vec!["100%: a, b".into()];
        let out = render_github(&[d], &[("ch/notes.md", TEXT)], Lang::En);
        assert_eq!(
            out,
            "::error file=ch/notes.md,line=2,endLine=2,col=5,endColumn=7,title=REFUTED 1#1::sides differ%0A100%25: a, b%0Adid you mean (verified): `x=2`\n"
        );
    }

    #[test]
    fn sarif_results_carry_the_rule_the_region_and_the_repair() {
        let out = render_sarif(&[refuted()], &[("ch/notes.md", TEXT)], Lang::En);
        let log: Value = serde_json::from_str(&out).unwrap();
        let result = &log["runs"][0]["results"][0];
        assert_eq!(result["ruleId"], "refuted.differs");
        assert_eq!(log["runs"][0]["tool"]["driver"]["rules"][0]["id"], "refuted.differs");
        let location = &result["locations"][0]["physicalLocation"];
        assert_eq!(location["artifactLocation"]["uri"], "ch/notes.md");
        assert_eq!(location["region"], json!({"startLine": 2, "startColumn": 5, "endLine": 2, "endColumn": 8}));
        let replacement = &result["fixes"][0]["artifactChanges"][0]["replacements"][0];
        assert_eq!(replacement["insertedContent"]["text"], "x=2");
    }

    #[test]
    fn uris_are_relative_to_the_checkout_or_file_uris() {
        assert_eq!(artifact_location("a b/数.md"), json!({"uri": "a%20b/%E6%95%B0.md", "uriBaseId": "%SRCROOT%"}));
        assert_eq!(artifact_location("/tmp/x.md"), json!({"uri": "file:///tmp/x.md"}));
    }
}
