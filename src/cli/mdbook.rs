//! `derivcheck mdbook`: an mdBook preprocessor. mdBook runs `derivcheck mdbook supports
//! RENDERER` (exit 0: yes), then `derivcheck mdbook` with `[context, book]` as JSON on stdin, in
//! the book's root folder. Every chapter is checked (its spec: `checks.toml` beside the chapter's
//! source, or `spec = "…"` under `[preprocessor.derivcheck]`); the book is written back on stdout,
//! unchanged, or with a small verdict mark after each checked formula when `marks = true`. A
//! refuted claim fails the build: non-zero exit, its file and line on stderr.
//!
//! The book JSON differs between mdBook 0.4 (`sections`) and 0.5 (`items`): both are read, and the
//! key that came in is the key that goes out (the JSON is edited in place, nothing else changes).

use super::{check_with_spec, write_stdout, EXIT_BAD_INPUT, EXIT_OK, EXIT_REFUTED};
use crate::model::Status;
use crate::notes::Document;
use crate::report::diagnostic::Severity;
use crate::report::Lang;
use serde_json::Value;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Debug)]
pub struct MdbookArgs {
    #[command(subcommand)]
    pub command: Option<MdbookCommand>,
}

#[derive(clap::Subcommand, Debug)]
pub enum MdbookCommand {
    /// Exit 0 when the renderer is supported (html and markdown).
    Supports { renderer: String },
}

pub fn run(args: &MdbookArgs) -> i32 {
    if let Some(MdbookCommand::Supports { renderer }) = &args.command {
        return if matches!(renderer.as_str(), "html" | "markdown") { EXIT_OK } else { EXIT_REFUTED };
    }
    let mut input = String::new();
    if let Err(e) = std::io::Read::read_to_string(&mut std::io::stdin(), &mut input) {
        super::say(Severity::Error, &format!("derivcheck mdbook: cannot read the book from stdin: {e}"), Lang::En);
        return EXIT_BAD_INPUT;
    }
    let (context, mut book) = match serde_json::from_str::<Value>(&input) {
        Ok(Value::Array(mut pair)) if pair.len() == 2 => {
            let book = pair.pop().expect("two elements");
            (pair.pop().expect("two elements"), book)
        }
        Ok(_) => {
            super::say(Severity::Error, "derivcheck mdbook: stdin is not mdBook's [context, book] JSON", Lang::En);
            return EXIT_BAD_INPUT;
        }
        Err(e) => {
            super::say(Severity::Error, &format!("derivcheck mdbook: stdin is not JSON: {e}"), Lang::En);
            return EXIT_BAD_INPUT;
        }
    };
    let options = Options::of(&context);
    crate::driver::speak(options.lang);
    // Refuted claims, chapters that could not be checked, and of those, failed inside derivcheck.
    let mut failed = (0usize, 0usize, 0usize);
    let key = if book.get("items").is_some() { "items" } else { "sections" };
    if let Some(items) = book.get_mut(key).and_then(Value::as_array_mut) {
        for item in items {
            visit(item, &options, &mut failed);
        }
    }
    if let Err(code) = write_stdout(&book.to_string()) {
        return code;
    }
    match failed {
        (0, 0, _) => EXIT_OK,
        (refuted, bad, internal) => {
            let w = crate::report::words(options.lang);
            eprintln!("derivcheck: {refuted} {}, {bad} {}", w.claims_refuted, w.chapters_not_checked);
            if internal > 0 {
                super::EXIT_INTERNAL
            } else if bad > 0 {
                EXIT_BAD_INPUT
            } else {
                EXIT_REFUTED
            }
        }
    }
}

/// `[preprocessor.derivcheck]` options and the book's source folder.
struct Options {
    src: PathBuf,
    marks: bool,
    spec: Option<PathBuf>,
    /// The language of its messages: `lang = "zh"` in the preprocessor's table, else the book's
    /// own `language`.
    lang: crate::report::Lang,
}

impl Options {
    fn of(context: &Value) -> Options {
        let root = PathBuf::from(context["root"].as_str().unwrap_or("."));
        let config = &context["config"];
        let src = root.join(config["book"]["src"].as_str().unwrap_or("src"));
        let own = &config["preprocessor"]["derivcheck"];
        Options {
            src,
            marks: own["marks"].as_bool().unwrap_or(false),
            spec: own["spec"].as_str().map(|s| root.join(s)),
            lang: match own["lang"].as_str().or(config["book"]["language"].as_str()) {
                Some(code) if code.starts_with("zh") => crate::report::Lang::Zh,
                _ => crate::report::Lang::En,
            },
        }
    }
}

/// A book item (`{"Chapter": {…}}`, `"Separator"`, `{"PartTitle": …}`) and its sub-items.
fn visit(item: &mut Value, options: &Options, failed: &mut (usize, usize, usize)) {
    let Some(chapter) = item.get_mut("Chapter") else { return };
    if let (Some(content), Some(path)) = (chapter["content"].as_str(), chapter["path"].as_str()) {
        let source = options.src.join(path);
        match check_chapter(&source, content, options) {
            Ok((refuted, marked)) => {
                failed.0 += refuted;
                if let Some(marked) = marked {
                    chapter["content"] = Value::String(marked);
                }
            }
            Err((message, internal)) => {
                super::say(Severity::Error, &message, options.lang);
                failed.1 += 1;
                failed.2 += usize::from(internal);
            }
        }
    }
    if let Some(subs) = chapter.get_mut("sub_items").and_then(Value::as_array_mut) {
        for sub in subs {
            visit(sub, options, failed);
        }
    }
}

/// Checks one chapter's Markdown; gives how many claims are refuted and, with marks, the
/// content with a mark after each checked formula. Refuted claims are named on stderr. A
/// chapter that cannot be checked gives the message, and whether it failed inside derivcheck.
fn check_chapter(source: &Path, content: &str, options: &Options) -> Result<(usize, Option<String>), (String, bool)> {
    let beside = source.parent().map(|d| d.join("checks.toml")).filter(|p| p.is_file());
    let spec_path = options.spec.clone().or(beside);
    let doc = Document::parse(&source.display().to_string(), content.to_string());
    let checked = check_with_spec(vec![doc], spec_path, super::CheckOptions::default_run())
        .map_err(|f| (f.said(options.lang), f.kind() == "internal"))?;
    let report = &checked.report;
    let findings = crate::report::diagnostic::of_claims(report, None, options.lang);
    let errors: Vec<_> = findings.iter().filter(|d| d.severity == crate::report::diagnostic::Severity::Error).collect();
    for d in &errors {
        eprintln!("{}", crate::report::diagnostic::render_line(d, options.lang));
    }
    let refuted = errors.len();
    if !options.marks {
        return Ok((refuted, None));
    }
    let Some(file) = report.files.first() else { return Ok((refuted, None)) };
    let mut marks: Vec<(usize, &'static str, &'static str)> = Vec::new();
    for f in &file.listing.formulas {
        let claims: Vec<Status> = file.claims.iter().filter(|c| c.range == Some(f.range)).map(|c| c.verdict).collect();
        if claims.is_empty() {
            continue;
        }
        let (mark, word) = if claims.contains(&Status::Refuted) {
            ("✗", "refuted")
        } else if claims.iter().all(|s| *s == Status::Verified) {
            ("✓", "verified")
        } else {
            ("?", "undecided")
        };
        marks.push((after_delimiter(content, f.range.1), mark, word));
    }
    let mut marked = content.to_string();
    marks.sort_by_key(|m| std::cmp::Reverse(m.0));
    let w = crate::report::words(options.lang);
    for (at, mark, word) in marks {
        // The class is the stylesheet's (English); the title is read, in the book's language.
        let title = match (options.lang, word) {
            (crate::report::Lang::En, _) => word,
            (_, "refuted") => w.refuted,
            (_, "verified") => w.verified,
            _ => w.undecided,
        };
        marked.insert_str(at, &mark_html(mark, word, title));
    }
    Ok((refuted, Some(marked)))
}

/// The mark inserted after a checked formula: its class (`verified`, `refuted`, `undecided`)
/// and its title, as the reader sees it.
pub fn mark_html(mark: &str, class: &str, title: &str) -> String {
    format!("<sup class=\"derivcheck {class}\" title=\"derivcheck: {title}\">{mark}</sup>")
}

/// The byte offset just after the closing delimiter of a formula whose TeX ends at `end`.
fn after_delimiter(content: &str, end: usize) -> usize {
    let rest = &content[end..];
    for closing in ["$$", "$", "\\]", "\\)"] {
        if rest.starts_with(closing) {
            return end + closing.len();
        }
    }
    end
}
