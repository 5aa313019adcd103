//! Whole books: `derivcheck check DIR` over a tree of chapter folders (a `checks.toml` beside
//! notes files) and loose notes files (`*.md`, `*.markdown`, `*.mdx`), each with its own spec
//! scope, in a stable order. A unit that cannot be read or whose spec is invalid is reported and
//! the run goes on; the exit code is 2 if any input was bad, else 1 if any claim was refuted (or,
//! with `--strict`, anything is wrong).

use super::{
    emit_parse_diagnostics, read_chapter, render_diagnostics, say_strict, strict_problems, write_stdout, CheckArgs,
    CheckFailure, Checked, Format, Unparsed,
};
use crate::report::diagnostic::Severity;
use crate::report::{CheckReport, CheckSummary};
use std::path::{Path, PathBuf};

/// One unit of a book: a chapter folder (its notes files and its `checks.toml`) or a loose notes file.
#[derive(Debug, Clone, PartialEq)]
pub struct Unit {
    pub path: PathBuf,
    pub spec: Option<PathBuf>,
}

/// The units under `root`, in a stable order: a folder with a `checks.toml` is one chapter;
/// otherwise each of its notes files is checked on its own. Sub-folders are walked too (hidden
/// ones and `target` skipped).
pub fn units(root: &Path) -> std::io::Result<Vec<Unit>> {
    let mut out = Vec::new();
    walk(root, &mut out)?;
    Ok(out)
}

fn walk(dir: &Path, out: &mut Vec<Unit>) -> std::io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.filter_map(|e| e.ok().map(|e| e.path())).collect();
    entries.sort();
    let is_notes = |p: &PathBuf| p.is_file() && crate::notes::is_notes_path(p);
    let spec = dir.join("checks.toml");
    if spec.is_file() && entries.iter().any(is_notes) {
        out.push(Unit { path: dir.to_path_buf(), spec: Some(spec) });
    } else {
        out.extend(entries.iter().filter(|p| is_notes(p)).map(|p| Unit { path: p.clone(), spec: None }));
    }
    for sub in entries.iter().filter(|p| p.is_dir()) {
        let name = sub.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        if !name.starts_with('.') && name != "target" {
            walk(sub, out)?;
        }
    }
    Ok(())
}

/// What one unit gave: its report, or why it could not be checked.
enum Outcome {
    Checked(Box<Checked>),
    Failed(CheckFailure),
}

pub fn run_book(args: &CheckArgs, units: &[Unit]) -> i32 {
    let lang = crate::report::Lang::from(args.lang);
    let json = matches!(args.format, Format::Json | Format::Junit);
    let progress = super::progress::Progress::new(units.len() as u64, args.verbose, lang);
    // Every unit is read, then all that could be read are checked in one run (planned on every
    // core, one worker process for exact work for the whole book).
    let (mut chapters, mut names) = (Vec::new(), Vec::new());
    let mut failures: Vec<Option<CheckFailure>> = Vec::new();
    for unit in units {
        match read_chapter(&unit.path, unit.spec.as_ref()) {
            Ok(chapter) => {
                chapters.push(chapter);
                names.push(unit.path.display().to_string());
                failures.push(None);
            }
            Err(failure) => failures.push(Some(failure)),
        }
    }
    let shown = progress.clone();
    let mut checked =
        super::check_chapters(chapters, super::check_options(args), move |k| shown.reached(k as u64, &names[k]))
            .into_iter();
    let outcomes: Vec<(&Unit, Outcome)> = units
        .iter()
        .zip(failures)
        .map(|(unit, failure)| {
            let outcome = match failure.map_or_else(|| checked.next().expect("a result a chapter"), Err) {
                Ok(checked) => Outcome::Checked(Box::new(checked)),
                Err(failure) => Outcome::Failed(failure),
            };
            (unit, outcome)
        })
        .collect();
    progress.finish();
    if args.verbose {
        let w = crate::report::words(lang);
        eprintln!("{} {}", crate::cas::isolate::workers_started(), w.exact_workers);
    }
    let mut total = CheckSummary::default();
    let (mut bad, mut strict_failed) = (0usize, false);
    let mut text = String::new();
    // The text format's per-chapter totals, printed after every chapter's findings.
    let mut tails = String::new();
    let mut chapters: Vec<serde_json::Value> = Vec::new();
    let mut findings = super::Findings::default();
    let mut junit = CheckReport {
        schema: crate::report::JSON_SCHEMA,
        files: Vec::new(),
        summary: CheckSummary::default(),
        from_cache: 0,
        exact_workers: 0,
    };
    for (unit, outcome) in &outcomes {
        let shown = unit.path.display().to_string();
        match outcome {
            Outcome::Failed(failure) => {
                bad += 1;
                if json {
                    let error = serde_json::json!({ "kind": failure.kind(), "message": failure.message() });
                    chapters.push(serde_json::json!({ "path": shown, "error": error }));
                    super::say(Severity::Error, &failure.said(lang), lang);
                } else {
                    failure.report(false, lang);
                    text.push_str(&format!("{shown}: {}\n", crate::report::words(lang).not_checked_see_above));
                }
            }
            Outcome::Checked(checked) => {
                let report = &checked.report;
                total.add(&report.summary);
                if args.verbose {
                    let w = crate::report::words(lang);
                    eprintln!("{shown}: {} {} {} {}", report.from_cache, w.of, report.summary.claims, w.from_the_cache);
                }
                if args.strict {
                    let problems = strict_problems(report, &checked.docs, checked.spec.as_ref());
                    strict_failed |= say_strict(&problems, &checked.spec_shown, Some(&shown), lang);
                }
                let spec_file =
                    checked.spec_path.as_ref().map(|_| (checked.spec_shown.as_str(), checked.spec_source.as_str()));
                match args.format {
                    Format::Json => chapters.push(serde_json::json!({ "path": shown, "report": report })),
                    Format::Junit => junit.files.extend(report.files.iter().cloned()),
                    Format::Sarif | Format::Github => {
                        findings.add(report, &checked.docs, &checked.parse_failures, spec_file, lang)
                    }
                    Format::Text => {
                        let (findings, totals) = render_diagnostics(report, &checked.docs, spec_file, lang);
                        text.push_str(&findings);
                        tails.push_str(&totals);
                    }
                    Format::Lines => {
                        text.push_str(&crate::report::render_text(report, lang, spec_file.map(|(p, _)| p)))
                    }
                    Format::Md | Format::Html => unreachable!("`check --format` is one of CHECK_FORMATS"),
                }
            }
        }
    }
    let written = match args.format {
        Format::Json => {
            let value =
                serde_json::json!({ "schema": crate::report::JSON_SCHEMA, "chapters": chapters, "summary": total });
            write_stdout(&(serde_json::to_string_pretty(&value).expect("serializes") + "\n"))
        }
        Format::Junit => write_stdout(&crate::report::appendix::render_junit(&junit)),
        Format::Sarif | Format::Github => write_stdout(&findings.render(args.format, lang)),
        Format::Text => write_stdout(&text).and_then(|_| {
            let unparsed = if args.list_unparsed { Unparsed::All } else { Unparsed::CouldBeClaims };
            for (_, outcome) in &outcomes {
                if let Outcome::Checked(checked) = outcome {
                    emit_parse_diagnostics(&checked.docs, &checked.parse_failures, unparsed, lang);
                }
            }
            let coverage = crate::report::undecided::render(&total, lang);
            write_stdout(
                &(tails
                    + crate::report::render_book_total(&total, outcomes.len(), bad, lang).as_str()
                    + coverage.as_str()),
            )
        }),
        Format::Lines => {
            text.push_str(&crate::report::render_book_total(&total, outcomes.len(), bad, lang));
            write_stdout(&text)
        }
        Format::Md | Format::Html => unreachable!("`check --format` is one of CHECK_FORMATS"),
    };
    if let Err(code) = written {
        return code;
    }
    // (A file whose check failed inside derivcheck outranks every other outcome.)
    if outcomes.iter().any(|(_, o)| matches!(o, Outcome::Failed(f) if f.kind() == "internal")) {
        return super::EXIT_INTERNAL;
    }
    crate::model::ExitStatus::of_run(total.failed(), bad, strict_failed) as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chapters_and_loose_files_in_a_stable_order() {
        let dir = tempfile_dir();
        let root = dir.as_path();
        std::fs::create_dir_all(root.join("b-chapter")).unwrap();
        std::fs::create_dir_all(root.join("a-loose/.hidden")).unwrap();
        std::fs::write(root.join("b-chapter/notes.md"), "").unwrap();
        std::fs::write(root.join("b-chapter/checks.toml"), "").unwrap();
        std::fs::write(root.join("a-loose/two.md"), "").unwrap();
        std::fs::write(root.join("a-loose/one.md"), "").unwrap();
        std::fs::write(root.join("a-loose/.hidden/x.md"), "").unwrap();
        let got = units(root).unwrap();
        let paths: Vec<String> = got.iter().map(|u| u.path.strip_prefix(root).unwrap().display().to_string()).collect();
        assert_eq!(paths, ["a-loose/one.md", "a-loose/two.md", "b-chapter"]);
        assert!(got[2].spec.is_some() && got[0].spec.is_none());
        std::fs::remove_dir_all(root).unwrap();
    }

    fn tempfile_dir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!("derivcheck-book-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
