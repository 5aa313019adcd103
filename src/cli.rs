//! Stage 10 — `cli`: the command line: argument parsing (clap), reading inputs, rendering
//! output, exit codes.
//!
//! This is the only module that does I/O. Exit codes: 0 success (no claim refuted), 1 a claim
//! refuted, 2 bad input or usage.

use crate::driver::files::write_atomically;
use crate::driver::{self, CheckOptions, DEFAULT_TIME_LIMIT_SECONDS};
use crate::listing::{self, Listing, ParseFailure};
use crate::model::StrictProblem;
use crate::notes::{Document, LineIndex};
use crate::report::diagnostic::{Screen, Severity};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::{Path, PathBuf};

mod book;
mod lsp;
mod mdbook;
mod mutate;
mod progress;
mod watch;

pub const EXIT_OK: i32 = crate::model::ExitStatus::Clean as i32;
pub const EXIT_REFUTED: i32 = crate::model::ExitStatus::Failed as i32;
pub const EXIT_BAD_INPUT: i32 = crate::model::ExitStatus::BadInput as i32;
/// Standard output could not be written (a closed pipe, a full disk): the run ends quietly.
pub const EXIT_OUTPUT_FAILED: i32 = 74;
/// A file's check failed inside derivcheck (a panic caught for that file): a bug to report.
/// Outranks every other outcome of the run (sysexits' EX_SOFTWARE).
pub const EXIT_INTERNAL: i32 = 70;
/// Notes and spec files larger than this are refused.
pub const MAX_FILE_BYTES: u64 = 8 * 1024 * 1024;

#[derive(Parser, Debug)]
#[command(name = "derivcheck", version, about = "Proves or refutes the mathematics in lecture notes")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// List every formula of a notes file or chapter folder, parsed or with its parse error.
    Formulas(FormulasArgs),
    /// Check every claim of a notes file or chapter folder (verified, refuted or undecided).
    Check(CheckArgs),
    /// Print the notation table (every construct derivcheck reads, and what it means), then the
    /// catalogue of readings (every way of reading a formula the text may leave open).
    Notation,
    /// Write a starting `checks.toml` beside the notes, from what the notes declare.
    Init(InitArgs),
    /// Check, then write the printable appendices: Markdown and HTML, Chinese and English.
    Report(ReportArgs),
    /// Run as an mdBook preprocessor (`[preprocessor.derivcheck]`, `command = "derivcheck mdbook"`).
    Mdbook(mdbook::MdbookArgs),
    /// Self-test: edit every verified claim once in every known way and check each mutant.
    Mutate(mutate::MutateArgs),
    /// Run as a language server on stdio, for editors: diagnostics as you write, hover, repairs.
    Lsp(lsp::LspArgs),
}

#[derive(clap::Args, Debug)]
struct InitArgs {
    /// A notes file, or a chapter folder.
    path: PathBuf,
    /// Overwrite an existing `checks.toml`.
    #[arg(long)]
    force: bool,
}

#[derive(clap::Args, Debug)]
struct CheckArgs {
    /// A notes file, or a chapter folder (its `*.md`, `*.markdown` and `*.mdx` notes and its
    /// `checks.toml`).
    path: PathBuf,
    /// The derivation spec (default: `checks.toml` in the chapter folder).
    #[arg(long)]
    spec: Option<PathBuf>,
    #[arg(long, value_parser = formats(CHECK_FORMATS), default_value = "text")]
    format: Format,
    /// Language of the text report.
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
    /// Also fail (exit 1) on a formula that does not parse or is not checked, a claim left
    /// undecided, and spec drift (an `ignore` entry or a spec section that matches nothing).
    #[arg(long)]
    strict: bool,
    /// Say on stderr what is being checked (and, with the cache, how many claims came from it).
    #[arg(short, long)]
    verbose: bool,
    /// Where verdicts are cached between runs (default: `target/derivcheck-cache`).
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Keep running: re-check when a notes or spec file under PATH changes, printing what changed.
    #[arg(long)]
    watch: bool,
    /// Stop checking after this many seconds: the claims left are undecided, saying so.
    #[arg(long, value_name = "SECONDS", default_value_t = DEFAULT_TIME_LIMIT_SECONDS)]
    time_limit: u64,
    /// Check every claim again; neither read nor write the cache.
    #[arg(long)]
    no_cache: bool,
    /// Give every formula that does not parse its own diagnostic (by default only those that
    /// hold a relation derivcheck would check; the rest are counted in one line).
    #[arg(long)]
    list_unparsed: bool,
    /// Also write the appendices (`report.{zh,en}.{md,html}`) into this folder.
    #[arg(long, value_name = "DIR")]
    report: Option<PathBuf>,
    /// Templates that replace the built-in ones (`report.md.tera`, `report.html.tera`,
    /// `macros.tera`; any subset).
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
}

#[derive(clap::Args, Debug)]
struct ReportArgs {
    /// A notes file, or a chapter folder (its `*.md`, `*.markdown` and `*.mdx` notes and its
    /// `checks.toml`).
    path: PathBuf,
    /// The derivation spec (default: `checks.toml` in the chapter folder).
    #[arg(long)]
    spec: Option<PathBuf>,
    /// The folder to write `report.<lang>.<md|html>` into (created if missing).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Languages, comma-separated.
    #[arg(long, value_enum, value_delimiter = ',', default_values_t = [LangArg::Zh, LangArg::En])]
    lang: Vec<LangArg>,
    /// Formats, comma-separated.
    #[arg(long, value_parser = formats(APPENDIX_FORMATS), value_delimiter = ',', default_values = ["md", "html"])]
    format: Vec<Format>,
    /// Templates that replace the built-in ones (`report.md.tera`, `report.html.tera`,
    /// `macros.tera`; any subset).
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
}

const ALL_LANGS: [LangArg; 2] = [LangArg::Zh, LangArg::En];

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum LangArg {
    Zh,
    En,
}

impl From<LangArg> for crate::report::Lang {
    fn from(arg: LangArg) -> Self {
        match arg {
            LangArg::Zh => crate::report::Lang::Zh,
            LangArg::En => crate::report::Lang::En,
        }
    }
}

#[derive(clap::Args, Debug)]
struct FormulasArgs {
    /// A notes file (Markdown or plain text) or a chapter folder of `*.md`, `*.markdown` and
    /// `*.mdx` notes.
    path: PathBuf,
    #[arg(long, value_parser = formats(LISTING_FORMATS), default_value = "text")]
    format: Format,
    /// Also print each formula's expression tree.
    #[arg(long)]
    ast: bool,
}

/// Every form a command's output takes (`--format`); each command accepts the ones it writes
/// ([`formats`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    /// For reading: diagnostics pointing at every claim not verified, then a summary (`check`);
    /// the listing (`formulas`); the mutants by claim (`mutate`).
    Text,
    /// One tab-separated line per claim (per formula, for `formulas`), for scripts.
    Lines,
    Json,
    /// JUnit XML: a test case per claim (refuted = failure, undecided = skipped).
    Junit,
    /// SARIF 2.1.0, for code scanning: a result per refuted or undecided claim and per formula
    /// that does not parse where a claim could be, with its region and rule.
    Sarif,
    /// GitHub Actions workflow commands: the same findings as annotations on their lines.
    Github,
    /// The appendix in Markdown.
    Md,
    /// The appendix in HTML.
    Html,
}

const CHECK_FORMATS: &[Format] =
    &[Format::Text, Format::Lines, Format::Json, Format::Junit, Format::Sarif, Format::Github];
const APPENDIX_FORMATS: &[Format] = &[Format::Md, Format::Html];
const LISTING_FORMATS: &[Format] = &[Format::Text, Format::Lines, Format::Json];
const MUTATE_FORMATS: &[Format] = &[Format::Text, Format::Json];

/// The `--format` parser of a command: the formats it writes, and no other.
fn formats(allowed: &'static [Format]) -> impl clap::builder::TypedValueParser<Value = Format> {
    use clap::builder::TypedValueParser as _;
    clap::builder::PossibleValuesParser::new(allowed.iter().filter_map(Format::to_possible_value))
        .map(|name| Format::from_str(&name, false).expect("a possible value names a format"))
}

impl Format {
    /// The renderer of an appendix format; `None` for the others.
    fn appendix(self) -> Option<crate::report::appendix::AppendixFormat> {
        use crate::report::appendix::AppendixFormat;
        match self {
            Format::Md => Some(AppendixFormat::Markdown),
            Format::Html => Some(AppendixFormat::Html),
            Format::Text | Format::Lines | Format::Json | Format::Junit | Format::Sarif | Format::Github => None,
        }
    }
}

/// Why an input could not be read. It displays in English (the JSON error object's message);
/// [`InputError::said`] says it in the run's language, from the same word tables.
#[derive(Debug, thiserror::Error)]
pub enum InputError {
    #[error("{}", self.said(crate::report::Lang::En))]
    Io { path: String, source: std::io::Error },
    #[error("{}", self.said(crate::report::Lang::En))]
    NotUtf8 { path: String, line: usize, col: usize },
    #[error("{}", self.said(crate::report::Lang::En))]
    TooLarge { path: String, limit: u64 },
    #[error("{}", self.said(crate::report::Lang::En))]
    NoNotes { path: String },
    #[error("{}", self.said(crate::report::Lang::En))]
    NotANotebook { path: String, line: usize, col: usize, message: String },
}

impl InputError {
    /// The error in the run's language (the JSON keeps the English of `Display`).
    fn said(&self, lang: crate::report::Lang) -> String {
        let w = crate::report::words(lang);
        match self {
            InputError::Io { path, source } => format!("{path}: {}: {source}", w.cannot_read),
            InputError::NotUtf8 { path, line, col } => format!("{path}:{line}:{col}: {}", w.not_utf8),
            InputError::TooLarge { path, limit } => {
                format!("{path}: {}", w.too_large.replace("{limit}", &limit.to_string()))
            }
            InputError::NoNotes { path } => format!("{path}: {}", w.no_notes),
            InputError::NotANotebook { path, line, col, message } => {
                format!("{path}:{line}:{col}: {} ({message})", w.not_a_notebook)
            }
        }
    }
}

pub fn main() -> i32 {
    // Symbolica prints a licence banner on stdout at first use unless this is set.
    std::env::set_var("SYMBOLICA_HIDE_BANNER", "1");
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { EXIT_BAD_INPUT } else { EXIT_OK };
        }
    };
    match cli.command {
        Command::Formulas(args) => run_formulas(&args),
        Command::Check(args) => run_check(&args),
        Command::Init(args) => run_init(&args),
        Command::Report(args) => run_report(&args),
        Command::Mdbook(args) => mdbook::run(&args),
        Command::Mutate(args) => mutate::run(&args),
        Command::Lsp(args) => lsp::run(&args),
        Command::Notation => {
            let text = format!("{}\n{}", crate::notation::markdown_table(), crate::report::readings_table());
            write_stdout(&text).map_or_else(|code| code, |_| EXIT_OK)
        }
    }
}

/// A checked chapter: its notes, the report, and the spec it was checked with.
pub(crate) struct Checked {
    docs: Vec<Document>,
    report: crate::report::CheckReport,
    /// The formulas that do not parse, for their diagnostics.
    parse_failures: Vec<ParseFailure>,
    spec: Option<crate::spec::Spec>,
    spec_path: Option<PathBuf>,
    /// The spec's path as shown, and its text (empty without a spec).
    spec_shown: String,
    spec_source: String,
}

/// Why a chapter could not be checked: an input or spec that cannot be read, or spec entries
/// that cannot take effect (diagnostics underlining them in the spec's text).
pub(crate) enum CheckFailure {
    Input {
        error: InputError,
        kind: &'static str,
    },
    Spec {
        path: String,
        text: String,
        errors: Vec<crate::driver::SpecProblem>,
    },
    /// The check of the file panicked: the panic's message.
    Internal {
        path: String,
        message: String,
    },
}

impl CheckFailure {
    /// In English, as the JSON error object carries it (the English of both kinds is their
    /// `Display`, which `said(En)` gives).
    fn message(&self) -> String {
        self.said(crate::report::Lang::En)
    }

    pub(crate) fn kind(&self) -> &'static str {
        match self {
            CheckFailure::Input { kind, .. } => kind,
            CheckFailure::Spec { .. } => "spec",
            CheckFailure::Internal { .. } => "internal",
        }
    }

    /// The exit code a run with this failure ends with.
    pub(crate) fn exit_code(&self) -> i32 {
        match self {
            CheckFailure::Internal { .. } => EXIT_INTERNAL,
            _ => EXIT_BAD_INPUT,
        }
    }

    /// In the run's language.
    fn said(&self, lang: crate::report::Lang) -> String {
        match self {
            CheckFailure::Input { error, .. } => error.said(lang),
            CheckFailure::Spec { path, errors, .. } => errors
                .iter()
                .map(|p| format!("{path}:{}:{}: {}", p.line, p.col, crate::report::spec_error(&p.kind, lang)))
                .collect::<Vec<_>>()
                .join("\n"),
            CheckFailure::Internal { path, message } => {
                format!("{path}: {} ({message})", crate::report::words(lang).internal_error)
            }
        }
    }

    /// Says it on stderr in the run's language (spec problems as underlined diagnostics) and,
    /// with `json`, as the JSON error object on stdout; gives the exit code.
    fn report(&self, json: bool, lang: crate::report::Lang) -> i32 {
        match (self, json) {
            (CheckFailure::Spec { path, text, errors }, false) => {
                emit_spec_diagnostics(path, text, errors, lang);
                EXIT_BAD_INPUT
            }
            _ => {
                say(Severity::Error, &self.said(lang), lang);
                if json {
                    let code = json_error(&self.message(), self.kind());
                    return if code == EXIT_BAD_INPUT { self.exit_code() } else { code };
                }
                self.exit_code()
            }
        }
    }
}

/// The cache and time limit `check` was asked for.
fn check_options(args: &CheckArgs) -> CheckOptions {
    CheckOptions::new(args.cache.as_deref(), args.no_cache, args.time_limit)
}

/// Reads the notes and the spec and checks them.
pub(crate) fn check_path(path: &Path, spec: Option<&PathBuf>, options: CheckOptions) -> Result<Checked, CheckFailure> {
    check_one(read_chapter(path, spec)?, options)
}

/// The notes at `path` and their spec (`spec`, or a folder's `checks.toml`), read, with the
/// spec's path.
pub(crate) fn read_chapter(
    path: &Path,
    spec: Option<&PathBuf>,
) -> Result<(driver::Chapter, Option<PathBuf>), CheckFailure> {
    let docs = read_notes(path).map_err(|error| CheckFailure::Input { error, kind: "input" })?;
    let spec_path = spec.cloned().or_else(|| {
        let default = path.join("checks.toml");
        (path.is_dir() && default.is_file()).then_some(default)
    });
    with_spec(docs, spec_path)
}

/// Read notes with the spec at `spec_path` (read here), if any.
fn with_spec(
    docs: Vec<Document>,
    spec_path: Option<PathBuf>,
) -> Result<(driver::Chapter, Option<PathBuf>), CheckFailure> {
    let (spec, spec_text) = match &spec_path {
        None => (None, String::new()),
        Some(p) => {
            let (spec, text) = read_spec(p)?;
            (Some(spec), text)
        }
    };
    Ok((driver::Chapter { docs, spec, spec_text }, spec_path))
}

/// Read notes checked with the spec at `spec_path` (read here), if any.
pub(crate) fn check_with_spec(
    docs: Vec<Document>,
    spec_path: Option<PathBuf>,
    options: CheckOptions,
) -> Result<Checked, CheckFailure> {
    check_one(with_spec(docs, spec_path)?, options)
}

/// One read chapter checked ([`check_chapters`]).
fn check_one(chapter: (driver::Chapter, Option<PathBuf>), options: CheckOptions) -> Result<Checked, CheckFailure> {
    check_chapters(vec![chapter], options, |_| {}).pop().expect("one chapter in, one out")
}

/// Read chapters, each with the path of its spec (if any), checked in one run
/// ([`driver::check_book`]): each chapter's report, or why it was not checked. A bug in
/// derivcheck that panics on one chapter is that chapter's failure, not the run's end.
/// `started` hears each chapter's index as its claims start being checked.
pub(crate) fn check_chapters(
    chapters: Vec<(driver::Chapter, Option<PathBuf>)>,
    options: CheckOptions,
    started: impl Fn(usize) + Send + 'static,
) -> Vec<Result<Checked, CheckFailure>> {
    let (chapters, spec_paths): (Vec<driver::Chapter>, Vec<Option<PathBuf>>) = chapters.into_iter().unzip();
    let book = || driver::check_book(&chapters, options, started);
    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(book)).unwrap_or_else(|payload| {
        let message = driver::panic_message(payload.as_ref());
        chapters.iter().map(|_| Err(driver::ChapterFailure::Internal(message.clone()))).collect()
    });
    chapters
        .into_iter()
        .zip(spec_paths)
        .zip(results)
        .map(|((chapter, spec_path), result)| {
            let driver::Chapter { docs, spec, spec_text } = chapter;
            let spec_shown = spec_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            let driver::Checked { report, parse_failures } = result.map_err(|failure| match failure {
                driver::ChapterFailure::Spec(errors) => {
                    CheckFailure::Spec { path: spec_shown.clone(), text: spec_text.clone(), errors }
                }
                driver::ChapterFailure::Internal(message) => {
                    CheckFailure::Internal { path: docs.first().map(|d| d.path.clone()).unwrap_or_default(), message }
                }
            })?;
            Ok(Checked { docs, report, parse_failures, spec, spec_path, spec_shown, spec_source: spec_text })
        })
        .collect()
}

fn run_check(args: &CheckArgs) -> i32 {
    driver::speak(args.lang.into());
    if args.watch {
        return watch::run_watch(args);
    }
    let json = matches!(args.format, Format::Json | Format::Junit);
    if args.path.is_dir() && args.spec.is_none() {
        match book::units(&args.path) {
            Ok(units) if units.len() > 1 || units.first().is_some_and(|u| u.path != args.path) => {
                return book::run_book(args, &units)
            }
            Ok(_) => {}
            Err(source) => {
                let error = InputError::Io { path: args.path.display().to_string(), source };
                return CheckFailure::Input { error, kind: "input" }.report(json, args.lang.into());
            }
        }
    }
    let lang = crate::report::Lang::from(args.lang);
    let w = crate::report::words(lang);
    let checked = check_path(&args.path, args.spec.as_ref(), check_options(args));
    if checked.as_ref().is_ok_and(|c| c.spec_path.is_none()) {
        say(Severity::Note, w.no_spec_note, lang);
    }
    let Checked { docs, report, parse_failures, spec, spec_path, spec_shown, spec_source } = match checked {
        Ok(checked) => checked,
        Err(failure) => return failure.report(json, lang),
    };
    if args.verbose {
        eprintln!("{} {} {} {}", report.from_cache, w.of, report.summary.claims, w.from_the_cache);
        eprintln!("{} {}", report.exact_workers, w.exact_workers);
    }
    if let Some(dir) = &args.report {
        let run = run_info(&args.path, spec_path.as_deref(), &spec_source);
        if let Err(code) = write_appendices(&report, &run, dir, &ALL_LANGS, APPENDIX_FORMATS, args.templates.as_deref())
        {
            return code;
        }
    }
    let unparsed = if args.list_unparsed { Unparsed::All } else { Unparsed::CouldBeClaims };
    let spec_file = spec_path.as_ref().map(|_| (spec_shown.as_str(), spec_source.as_str()));
    let written = match args.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&report).expect("report serializes") + "\n")),
        Format::Junit => write_stdout(&crate::report::appendix::render_junit(&report)),
        Format::Sarif | Format::Github => {
            let mut findings = Findings::default();
            findings.add(&report, &docs, &parse_failures, spec_file, lang);
            write_stdout(&findings.render(args.format, lang))
        }
        // Findings first (refuted, then undecided), then the formulas that do not parse, then
        // the totals: the first screen of a run shows what is wrong in the chapter.
        Format::Text => {
            let (findings, totals) = render_diagnostics(&report, &docs, spec_file, lang);
            write_stdout(&findings).and_then(|_| {
                emit_parse_diagnostics(&docs, &parse_failures, unparsed, lang);
                write_stdout(&totals)
            })
        }
        Format::Lines => {
            emit_parse_diagnostics(&docs, &parse_failures, unparsed, lang);
            write_stdout(&crate::report::render_text(&report, lang, spec_file.map(|(path, _)| path)))
        }
        Format::Md | Format::Html => unreachable!("`check --format` is one of CHECK_FORMATS"),
    };
    if let Err(code) = written {
        return code;
    }
    let mut strict_failed = false;
    if args.strict && !report.summary.failed() {
        strict_failed = say_strict(&strict_problems(&report, &docs, spec.as_ref()), &spec_shown, None, lang);
    }
    crate::model::ExitStatus::of_run(report.summary.failed(), 0, strict_failed) as i32
}

/// What `--strict` fails on beyond refutations: unparsed and not-checked formulas, undecided
/// claims, and spec entries that match nothing in the notes.
fn strict_problems(
    report: &crate::report::CheckReport,
    docs: &[Document],
    spec: Option<&crate::spec::Spec>,
) -> Vec<StrictProblem> {
    let mut out = Vec::new();
    let s = &report.summary;
    if s.formulas > s.parsed {
        out.push(StrictProblem::Unparsed(s.formulas - s.parsed));
    }
    if s.undecided > 0 {
        out.push(StrictProblem::Undecided(s.undecided));
    }
    if s.coverage.not_checked > 0 {
        out.push(StrictProblem::NotChecked(s.coverage.not_checked));
    }
    let Some(spec) = spec else { return out };
    let sections: Vec<&str> = docs.iter().flat_map(|d| d.sections.iter().map(|s| s.number.as_str())).collect();
    let formulas: Vec<&str> = docs.iter().flat_map(|d| d.formulas.iter().map(|f| f.tex.trim())).collect();
    for (number, section) in &spec.sections {
        let in_notes = sections.contains(&number.as_str());
        if !in_notes && section.claims.is_empty() && section.example.is_none() {
            out.push(StrictProblem::SectionUnmatched { section: number.clone() });
        }
        for ignore in &section.ignore {
            if !formulas.contains(&ignore.tex.trim()) {
                out.push(StrictProblem::IgnoreUnmatched { section: number.clone(), tex: ignore.tex.clone() });
            }
        }
    }
    out
}

/// `--strict`'s findings on stderr, said in the run's language, each after what it is about
/// (the spec, or in a book the chapter); whether there were any.
fn say_strict(problems: &[StrictProblem], spec_shown: &str, chapter: Option<&str>, lang: crate::report::Lang) -> bool {
    let w = crate::report::words(lang);
    for p in problems {
        let about_the_spec =
            matches!(p, StrictProblem::SectionUnmatched { .. } | StrictProblem::IgnoreUnmatched { .. });
        let said = crate::report::strict_problem(p, lang);
        let said = match (about_the_spec, chapter) {
            (true, _) => format!("{spec_shown}: {said}"),
            (false, Some(chapter)) => format!("{chapter}: {said}"),
            (false, None) => said,
        };
        say(Severity::Error, &format!("{}: {said}", w.strict), lang);
    }
    !problems.is_empty()
}

/// `derivcheck report`: check, then write the appendices. The exit code is that of `check`.
fn run_report(args: &ReportArgs) -> i32 {
    let checked = match check_path(&args.path, args.spec.as_ref(), CheckOptions::default_run()) {
        Ok(checked) => checked,
        Err(failure) => return failure.report(false, crate::report::Lang::En),
    };
    emit_parse_diagnostics(&checked.docs, &checked.parse_failures, Unparsed::CouldBeClaims, crate::report::Lang::En);
    let run = run_info(&args.path, checked.spec_path.as_deref(), &checked.spec_source);
    if let Err(code) =
        write_appendices(&checked.report, &run, &args.out, &args.lang, &args.format, args.templates.as_deref())
    {
        return code;
    }
    eprint!("{}", crate::report::render_summary(&checked.report, crate::report::Lang::En));
    checked.report.exit_status() as i32
}

fn run_info(path: &Path, spec_path: Option<&Path>, spec_source: &str) -> crate::report::appendix::RunInfo {
    use sha2::Digest;
    // Paths are shown relative to the chapter folder (a notes file's own folder).
    let root = if path.is_dir() { Some(path) } else { path.parent() };
    crate::report::appendix::RunInfo {
        title: std::fs::canonicalize(path)
            .ok()
            .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
            .unwrap_or_else(|| path.display().to_string()),
        root: root.map(|r| r.display().to_string()),
        version: env!("CARGO_PKG_VERSION"),
        spec_path: spec_path.map(|p| p.display().to_string()),
        spec_sha256: spec_path.map(|_| {
            sha2::Sha256::digest(spec_source.as_bytes()).iter().map(|b| format!("{b:02x}")).collect::<String>()
        }),
    }
}

/// Writes `DIR/report.<lang>.<ext>` for every language and format, each atomically (a temporary
/// file beside it, then renamed).
fn write_appendices(
    report: &crate::report::CheckReport,
    run: &crate::report::appendix::RunInfo,
    dir: &Path,
    langs: &[LangArg],
    formats: &[Format],
    templates: Option<&Path>,
) -> Result<(), i32> {
    use crate::report::appendix::{render_appendix, Templates};
    let mut chosen = Templates::builtin();
    if let Some(from) = templates {
        for (name, slot) in Templates::FILES.iter().zip([&mut chosen.markdown, &mut chosen.html, &mut chosen.macros]) {
            let path = from.join(name);
            if path.is_file() {
                *slot = read_text(&path).map_err(|e| input_error(false, &e.to_string(), "templates"))?;
            }
        }
    }
    std::fs::create_dir_all(dir)
        .map_err(|e| input_error(false, &format!("{}: cannot create: {e}", dir.display()), "output"))?;
    for lang in langs {
        let lang = crate::report::Lang::from(*lang);
        for format in formats {
            let Some(format) = format.appendix() else { continue };
            let text =
                render_appendix(report, run, lang, format, &chosen).map_err(|e| input_error(false, &e, "templates"))?;
            let code = if lang == crate::report::Lang::Zh { "zh" } else { "en" };
            let target = dir.join(format!("report.{code}.{}", format.extension()));
            write_atomically(&target, &text)
                .map_err(|e| input_error(false, &format!("{}: cannot write: {e}", target.display()), "output"))?;
        }
    }
    Ok(())
}

/// `derivcheck init`: the spec skeleton of the notes, written atomically beside them; an
/// existing spec is kept unless `--force`.
fn run_init(args: &InitArgs) -> i32 {
    let docs = match read_notes(&args.path) {
        Ok(docs) => docs,
        Err(e) => return input_error(false, &e.to_string(), "input"),
    };
    let dir = if args.path.is_dir() {
        args.path.clone()
    } else {
        args.path.parent().map(Path::to_path_buf).unwrap_or_default()
    };
    let target = dir.join("checks.toml");
    if target.exists() && !args.force {
        let message = format!("{} exists: derivcheck init does not overwrite it (use --force)", target.display());
        return input_error(false, &message, "init");
    }
    let text = driver::spec_skeleton(&docs[0]);
    match write_atomically(&target, &text) {
        Ok(()) => {
            let wrote = format!(
                "wrote {}: check with `derivcheck check {} --spec {}`",
                target.display(),
                args.path.display(),
                target.display()
            );
            say(Severity::Note, &wrote, crate::report::Lang::En);
            EXIT_OK
        }
        Err(e) => input_error(false, &format!("{}: cannot write: {e}", target.display()), "init"),
    }
}

/// Each line of a message about no one place, on stderr, drawn as a diagnostic: the one way
/// the commands say that an input cannot be read or an output cannot be written.
pub(crate) fn say(severity: Severity, message: &str, lang: crate::report::Lang) {
    use crate::report::diagnostic::{render_line, Diagnostic};
    for line in message.lines() {
        eprintln!("{}", render_line(&Diagnostic::general(severity, None, line), lang));
    }
}

/// Bad input: the message on stderr, and under `--format json` also a JSON error object on
/// stdout, so a consumer of the JSON always gets JSON. Exit code 2.
fn input_error(json: bool, message: &str, kind: &str) -> i32 {
    say(Severity::Error, message, crate::report::Lang::En);
    if json {
        return json_error(message, kind);
    }
    EXIT_BAD_INPUT
}

/// The JSON error object on stdout (exit code 2).
fn json_error(message: &str, kind: &str) -> i32 {
    let value = serde_json::json!({
        "schema": crate::report::JSON_SCHEMA,
        "error": { "kind": kind, "message": message },
    });
    write_stdout(&(value.to_string() + "\n")).map_or_else(|code| code, |_| EXIT_BAD_INPUT)
}

/// Writes to stdout; a closed pipe (`| head`) or a full disk ends the run quietly, never in a
/// panic.
fn write_stdout(text: &str) -> Result<(), i32> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|_| EXIT_OUTPUT_FAILED)
}

/// A spec that cannot be used: unreadable, or invalid at a position of its text.
enum SpecFailure {
    Unreadable(InputError),
    Invalid { error: crate::spec::SpecError, text: String },
}

impl From<SpecFailure> for CheckFailure {
    fn from(failure: SpecFailure) -> CheckFailure {
        match failure {
            SpecFailure::Invalid { error, text } => {
                CheckFailure::Spec { path: error.path.clone(), text, errors: vec![(&error).into()] }
            }
            SpecFailure::Unreadable(error) => CheckFailure::Input { error, kind: "spec" },
        }
    }
}

fn read_spec(path: &Path) -> Result<(crate::spec::Spec, String), SpecFailure> {
    let text = read_text(path).map_err(SpecFailure::Unreadable)?;
    match crate::spec::Spec::parse(&path.display().to_string(), &text) {
        Ok(spec) => Ok((spec, text)),
        Err(error) => Err(SpecFailure::Invalid { error, text }),
    }
}

/// Spec errors as diagnostics on stderr, each underlining its entry in the spec's text.
fn emit_spec_diagnostics(path: &str, text: &str, errors: &[crate::driver::SpecProblem], lang: crate::report::Lang) {
    use crate::report::diagnostic;
    let shown = diagnostic::of_spec_errors(path, text, errors, lang);
    eprint!("{}", diagnostic::render_terminal(&shown, &[(path, text)], screen_of(Stream::Stderr), lang));
}

fn run_formulas(args: &FormulasArgs) -> i32 {
    let Some(docs) = read_notes_or_report(&args.path) else { return EXIT_BAD_INPUT };
    let (listing, failures) = listing::build(&docs, args.ast);
    for doc in docs.iter().filter(|d| d.formulas.is_empty()) {
        let note = crate::report::diagnostic::Diagnostic::general(Severity::Note, Some(&doc.path), "no formulas found");
        eprintln!("{}", crate::report::diagnostic::render_line(&note, crate::report::Lang::En));
    }
    let written = match args.format {
        Format::Json => write_stdout(&(serde_json::to_string_pretty(&listing).expect("listing serializes") + "\n")),
        Format::Text | Format::Lines => {
            emit_parse_diagnostics(&docs, &failures, Unparsed::All, crate::report::Lang::En);
            write_stdout(&render_listing_text(&listing))
        }
        Format::Junit | Format::Sarif | Format::Github | Format::Md | Format::Html => {
            unreachable!("`formulas --format` is one of LISTING_FORMATS")
        }
    };
    written.map_or_else(|code| code, |_| EXIT_OK)
}

/// The notes files of a path: the file itself, or a folder's notes files (`*.md`, `*.markdown`,
/// `*.mdx`) in name order.
fn notes_paths(path: &Path) -> Result<Vec<PathBuf>, InputError> {
    let io = |source| InputError::Io { path: path.display().to_string(), source };
    if !path.is_dir() {
        std::fs::metadata(path).map_err(io)?;
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files: Vec<PathBuf> = std::fs::read_dir(path)
        .map_err(io)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file() && crate::notes::is_notes_path(p))
        .collect();
    files.sort();
    if files.is_empty() {
        return Err(InputError::NoNotes { path: path.display().to_string() });
    }
    Ok(files)
}

/// The notes at `path`, or `None` after saying on stderr why they cannot be read.
fn read_notes_or_report(path: &Path) -> Option<Vec<Document>> {
    read_notes(path).map_err(|e| say(Severity::Error, &e.to_string(), crate::report::Lang::En)).ok()
}

pub fn read_notes(path: &Path) -> Result<Vec<Document>, InputError> {
    notes_paths(path)?
        .iter()
        .map(|p| {
            let shown = p.display().to_string();
            let text = read_text(p)?;
            Document::read(&shown, text).map_err(|e| InputError::NotANotebook {
                path: shown,
                line: e.line,
                col: e.col,
                message: e.message,
            })
        })
        .collect()
}

/// Reads a file as UTF-8; an invalid byte is reported at its line and column.
pub fn read_text(path: &Path) -> Result<String, InputError> {
    use std::io::Read;
    let shown = path.display().to_string();
    let io = |source| InputError::Io { path: shown.clone(), source };
    // Read at most one byte past the limit: `/dev/zero` or a huge file is refused, not slurped.
    let mut bytes = Vec::new();
    std::fs::File::open(path).and_then(|f| f.take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes)).map_err(io)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(InputError::TooLarge { path: shown, limit: MAX_FILE_BYTES });
    }
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let prefix = std::str::from_utf8(&e.as_bytes()[..valid]).unwrap_or_default();
        let pos = LineIndex::new(prefix).position(valid);
        InputError::NotUtf8 { path: shown, line: pos.line, col: pos.col }
    })
}

fn render_listing_text(listing: &Listing) -> String {
    let mut out = String::new();
    for file in &listing.files {
        for f in &file.formulas {
            let status = if f.parsed { "ok   " } else { "ERROR" };
            let section = f.section.as_deref().unwrap_or("-");
            out.push_str(&format!(
                "{}:{}:{}\t{}\t{}\t{}\t{}\n",
                file.path,
                f.line,
                f.col,
                f.id,
                section,
                status,
                one_line(&f.tex)
            ));
            if let Some(err) = &f.error {
                out.push_str(&format!("\t{err}\n"));
            }
            if let Some(ast) = &f.ast {
                out.push_str(&format!("\t{ast}\n"));
            }
        }
    }
    let s = &listing.summary;
    out.push_str(&format!(
        "summary: {} formulas, {} parsed, {} failed ({:.1}% parsed)\n",
        s.formulas,
        s.parsed,
        s.formulas - s.parsed,
        100.0 * s.rate()
    ));
    out
}

fn one_line(tex: &str) -> String {
    tex.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// `check`'s text format: the findings as diagnostics under their snippets, and the totals
/// (each file's verified count, its shadowed definitions, the summary).
fn render_diagnostics(
    report: &crate::report::CheckReport,
    docs: &[Document],
    spec: Option<(&str, &str)>,
    lang: crate::report::Lang,
) -> (String, String) {
    use crate::model::Status;
    use crate::report::diagnostic;
    let w = crate::report::words(lang);
    let mut tail = String::new();
    for file in &report.files {
        let verified = file.claims.iter().filter(|c| c.verdict == Status::Verified).count();
        if !file.claims.is_empty() {
            tail.push_str(&format!("{}: {verified}/{} {}\n", file.listing.path, file.claims.len(), w.verified));
        }
        tail.push_str(&crate::report::render_shadowed(file, lang));
    }
    tail.push_str(&crate::report::render_summary(report, lang));
    let mut sources: Vec<(&str, &str)> = docs.iter().map(|d| (d.path.as_str(), d.source.as_str())).collect();
    sources.extend(spec);
    let findings = diagnostic::collapse_repeats(diagnostic::of_claims(report, spec, lang));
    (diagnostic::render_terminal(&findings, &sources, screen_of(Stream::Stdout), lang), tail)
}

#[derive(Clone, Copy)]
enum Stream {
    Stdout,
    Stderr,
}

/// How diagnostics on `stream` are drawn: in colour on a terminal, as wide as the terminal (or
/// [`Screen::DEFAULT_COLUMNS`]).
fn screen_of(stream: Stream) -> Screen {
    let (colour, term) = match stream {
        Stream::Stdout => (colour_on(std::io::stdout()), console::Term::stdout()),
        Stream::Stderr => (colour_on(std::io::stderr()), console::Term::stderr()),
    };
    Screen::new(colour, term.size_checked().map(|(_, columns)| usize::from(columns)))
}

/// The findings of a run for code scanning and pull-request annotations (`--format sarif`,
/// `--format github`; [`crate::report::diagnostic::findings`]), with the files' texts, for
/// their regions.
#[derive(Default)]
pub(crate) struct Findings {
    diagnostics: Vec<crate::report::diagnostic::Diagnostic>,
    sources: Vec<(String, String)>,
}

impl Findings {
    pub(crate) fn add(
        &mut self,
        report: &crate::report::CheckReport,
        docs: &[Document],
        parse_failures: &[ParseFailure],
        spec: Option<(&str, &str)>,
        lang: crate::report::Lang,
    ) {
        self.diagnostics.extend(crate::report::diagnostic::findings(report, docs, parse_failures, spec, lang));
        self.sources.extend(docs.iter().map(|d| (d.path.clone(), d.source.clone())));
        self.sources.extend(spec.map(|(path, text)| (path.to_string(), text.to_string())));
    }

    pub(crate) fn render(&self, format: Format, lang: crate::report::Lang) -> String {
        let sources: Vec<(&str, &str)> = self.sources.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        match format {
            Format::Sarif => crate::report::ci::render_sarif(&self.diagnostics, &sources, lang),
            _ => crate::report::ci::render_github(&self.diagnostics, &sources, lang),
        }
    }
}

/// Colour only on a terminal, and never when NO_COLOR is set (https://no-color.org).
fn colour_on(stream: impl std::io::IsTerminal) -> bool {
    stream.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
}

/// Which formulas that do not parse get a diagnostic of their own.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unparsed {
    /// Every one (`formulas`, `check --list-unparsed`).
    All,
    /// Those that hold a relation `check` would check, each with what to write instead; the
    /// rest are counted in one line naming the constructs.
    CouldBeClaims,
}

/// Compiler-style diagnostics (file:line:col, the line, a caret under the token) on stderr.
fn emit_parse_diagnostics(docs: &[Document], failures: &[ParseFailure], shown: Unparsed, lang: crate::report::Lang) {
    use crate::report::diagnostic;
    let sources: Vec<(&str, &str)> = docs.iter().map(|d| (d.path.as_str(), d.source.as_str())).collect();
    // A pathological file (a long line of `$`) would print megabytes: the first few of each kind
    // are shown, the rest counted.
    let warnings = diagnostic::of_note_warnings(docs, lang);
    let (listed, folded): (Vec<&ParseFailure>, Vec<&ParseFailure>) =
        failures.iter().partition(|f| shown == Unparsed::All || f.could_be_claim());
    let errors = diagnostic::of_parse_failures(docs, &listed[..listed.len().min(MAX_DIAGNOSTICS)], lang);
    let shown: Vec<diagnostic::Diagnostic> = warnings.iter().take(MAX_DIAGNOSTICS).cloned().chain(errors).collect();
    eprint!("{}", diagnostic::render_terminal(&shown, &sources, screen_of(Stream::Stderr), lang));
    let more = (warnings.len().saturating_sub(MAX_DIAGNOSTICS), listed.len().saturating_sub(MAX_DIAGNOSTICS));
    if more != (0, 0) {
        let w = crate::report::words(lang);
        eprintln!(
            "{}",
            w.more_diagnostics.replace("{warnings}", &more.0.to_string()).replace("{formulas}", &more.1.to_string())
        );
    }
    if !folded.is_empty() {
        let mut constructs: Vec<(crate::listing::Construct, usize)> = Vec::new();
        for failure in &folded {
            let construct = failure.construct();
            match constructs.iter_mut().find(|(c, _)| *c == construct) {
                Some((_, n)) => *n += 1,
                None => constructs.push((construct, 1)),
            }
        }
        constructs.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        constructs.truncate(8);
        eprintln!("{}", crate::report::unparsed_summary(folded.len(), &constructs, lang));
    }
}

/// Parse diagnostics shown in full per run; the rest are counted.
const MAX_DIAGNOSTICS: usize = 50;
