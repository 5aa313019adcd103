//! Stage 9 — `driver`: the pipeline as one call, for every command (`check`, `report`, books,
//! watch mode, mdBook, `mutate`, `init`) and for the benchmarks, property tests and fuzz targets.
//!
//! Takes: read documents, the parsed spec and its text, and [`CheckOptions`]. Gives: the result
//! model — a [`Checked`] (the report and the formulas that do not parse), the mutation
//! self-test's claims, a spec skeleton — or the spec entries that cannot take effect. It reads
//! no file; it writes only through [`files`] (the verdict cache's entries), and runs the CAS on
//! its one worker thread.

pub mod files;

use crate::listing::{Listing, ParseFailure, ParsedDocument};
use crate::notes::Document;
use crate::report::CheckReport;
use crate::sema::SectionPlan;
use crate::spec::Spec;
use std::path::Path;
use std::sync::Arc;

pub use crate::check::{panic_message, VerdictCache};
pub use crate::model::ClaimMutants;
pub use crate::sema::SpecProblem;

/// How a run checks: the verdict cache, and when it stops checking (claims after the deadline
/// are undecided, saying so).
#[derive(Clone)]
pub struct CheckOptions {
    pub cache: Option<Arc<dyn VerdictCache>>,
    pub deadline: Option<std::time::Instant>,
}

impl CheckOptions {
    /// The default cache and time limit.
    pub fn default_run() -> CheckOptions {
        CheckOptions::new(None, false, DEFAULT_TIME_LIMIT_SECONDS)
    }

    /// The cache in `cache_dir` (the default one without it, none if `no_cache`), and a time
    /// limit for the whole run.
    pub fn new(cache_dir: Option<&Path>, no_cache: bool, time_limit_seconds: u64) -> CheckOptions {
        CheckOptions { cache: verdict_cache(cache_dir, no_cache), deadline: deadline_after(time_limit_seconds) }
    }

    /// No cache, no time limit (benchmarks, tests of the checker itself).
    pub fn uncached() -> CheckOptions {
        CheckOptions { cache: None, deadline: None }
    }
}

/// The whole run's time limit, unless `--time-limit` says otherwise.
pub const DEFAULT_TIME_LIMIT_SECONDS: u64 = 1800;

/// The instant `seconds` from now (none if that overflows the clock).
pub fn deadline_after(seconds: u64) -> Option<std::time::Instant> {
    std::time::Instant::now().checked_add(std::time::Duration::from_secs(seconds))
}

/// The verdict cache: `dir`, or `target/derivcheck-cache` in the working folder.
pub fn verdict_cache(dir: Option<&Path>, disabled: bool) -> Option<Arc<dyn VerdictCache>> {
    let dir = dir.map(Path::to_path_buf).unwrap_or_else(|| files::DEFAULT_DIR.into());
    (!disabled).then(|| Arc::new(files::FileCache::new(dir)) as Arc<dyn VerdictCache>)
}

/// Messages the pipeline itself prints (the wait for another process's CAS work) in `lang`,
/// from now on.
pub fn speak(lang: crate::report::Lang) {
    let (before, after) = crate::report::words(lang).cas_wait;
    crate::cas::worker::set_lock_wait_words(before, after);
}

/// A checked set of documents: the report, and the formulas that do not parse (for their
/// diagnostics), so nothing is parsed twice.
pub struct Checked {
    pub report: CheckReport,
    pub parse_failures: Vec<ParseFailure>,
}

/// Parsed documents planned: the listing, the formulas that do not parse, and each file's
/// section plans.
pub struct Planned {
    pub listing: Listing,
    pub parse_failures: Vec<ParseFailure>,
    pub plans: Vec<Vec<SectionPlan>>,
}

/// Parses and plans `docs` (the first one owns the spec's sections that the notes lack). Spec
/// entries that cannot take effect stop it (`Err`, each once).
pub fn plan(docs: &[Document], spec: Option<&Spec>, spec_text: &str) -> Result<Planned, Vec<SpecProblem>> {
    let parsed = crate::listing::parse_all(docs);
    let (listing, parse_failures) = crate::listing::build_from(&parsed, false);
    let plans: Vec<Vec<SectionPlan>> = parsed
        .iter()
        .map(|document| crate::sema::plan(document, spec, spec_text, std::ptr::eq(document.doc, &docs[0])))
        .collect();
    let mut problems: Vec<SpecProblem> = Vec::new();
    for problem in plans.iter().flatten().flat_map(|p| p.spec_problems.iter()) {
        if !problems.contains(problem) {
            problems.push(problem.clone());
        }
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(Planned { listing, parse_failures, plans })
}

/// The whole `check` pipeline: parse, plan, check on the CAS worker, report. A panic (a bug in
/// derivcheck) is the caller's to catch.
pub fn check(
    docs: &[Document],
    spec: Option<Spec>,
    spec_text: String,
    options: CheckOptions,
) -> Result<Checked, Vec<SpecProblem>> {
    let chapter = Chapter { docs: docs.to_vec(), spec, spec_text };
    match check_book(std::slice::from_ref(&chapter), options, |_| {}).pop().expect("one chapter in, one out") {
        Ok(checked) => Ok(checked),
        Err(ChapterFailure::Spec(problems)) => Err(problems),
        Err(ChapterFailure::Internal(message)) => std::panic::panic_any(message),
    }
}

/// One chapter of a book run: its notes, and the spec they are checked with (and its text).
pub struct Chapter {
    pub docs: Vec<Document>,
    pub spec: Option<Spec>,
    pub spec_text: String,
}

/// Why a chapter was not checked.
#[derive(Debug)]
pub enum ChapterFailure {
    /// Spec entries that cannot take effect (each once).
    Spec(Vec<SpecProblem>),
    /// Its check panicked (a bug in derivcheck): the panic's message.
    Internal(String),
}

/// Stack of a planning thread: formula trees are walked recursively (address space only; pages
/// are touched as needed).
const PLAN_STACK_BYTES: usize = 512 * 1024 * 1024;

/// `check` over the chapters of a book, each on its own (its own spec, sections and letters),
/// in one run. Chapters are planned on every core (planning uses no CAS) and handed, in order,
/// to one job on the CAS worker, which checks each batch of chapters planned so far while the
/// rest are planned: a book starts a worker process for exact work per batch (a few), not one
/// per chapter. A chapter whose planning or check panics is that chapter's
/// [`ChapterFailure::Internal`]; the others are checked as if it were not there. `started` hears
/// each chapter's index as its claims start being checked.
pub fn check_book(
    chapters: &[Chapter],
    options: CheckOptions,
    started: impl Fn(usize) + Send + 'static,
) -> Vec<Result<Checked, ChapterFailure>> {
    let spec_paths: Vec<Option<String>> = chapters.iter().map(|c| c.spec.as_ref().map(|s| s.path.clone())).collect();
    let planned: Vec<std::sync::Mutex<Option<Result<Planned, ChapterFailure>>>> =
        chapters.iter().map(|_| std::sync::Mutex::new(None)).collect();
    let (plans_tx, plans_rx) = std::sync::mpsc::channel::<(usize, Vec<Vec<SectionPlan>>)>();
    let count = chapters.len();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let checked = std::thread::scope(|scope| {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(count);
        for _ in 0..threads {
            let plans_tx = plans_tx.clone();
            let (next, planned) = (&next, &planned);
            let work = move || loop {
                let at = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(chapter) = chapters.get(at) else { break };
                // (The CAS thread may fork a worker meanwhile: each chapter is planned whole
                // between two forks.)
                crate::cas::isolate::without_fork(|| {
                    let mut result = plan_chapter(chapter);
                    let plans = result.as_mut().map(|p| std::mem::take(&mut p.plans)).unwrap_or_default();
                    *planned[at].lock().unwrap_or_else(|p| p.into_inner()) = Some(result);
                    let _ = plans_tx.send((at, plans));
                });
            };
            std::thread::Builder::new()
                .name("derivcheck-plan".into())
                .stack_size(PLAN_STACK_BYTES)
                .spawn_scoped(scope, work)
                .expect("spawn a planning thread");
        }
        drop(plans_tx);
        crate::cas::worker::run(move || check_in_batches(count, plans_rx, options, started))
    });
    planned
        .into_iter()
        .zip(spec_paths)
        .zip(checked)
        .map(|((planned, spec_path), outcomes)| {
            let planned = planned.into_inner().unwrap_or_else(|p| p.into_inner());
            let Planned { listing, parse_failures, .. } = planned.expect("every chapter planned")?;
            let outcomes = outcomes.map_err(ChapterFailure::Internal)?;
            Ok(Checked { report: crate::report::build(listing, outcomes, spec_path), parse_failures })
        })
        .collect()
}

/// On the CAS worker: the `count` chapters' plans, as they arrive from `plans` (each with its
/// index, in any order), checked in order, each time all those that have arrived in order
/// (one [`crate::check::check_files`], one worker process for their exact work): each
/// chapter's files, or the message of a panic in its check.
fn check_in_batches(
    count: usize,
    plans: std::sync::mpsc::Receiver<(usize, Vec<Vec<SectionPlan>>)>,
    options: CheckOptions,
    started: impl Fn(usize),
) -> Vec<Result<Vec<crate::report::FileOutcome>, String>> {
    let mut arrived: Vec<Option<Vec<Vec<SectionPlan>>>> = (0..count).map(|_| None).collect();
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        // Wait for the next chapter in order, then take every one after it that is there.
        while arrived[out.len()].is_none() {
            let Ok((at, chapter)) = plans.recv() else { break };
            arrived[at] = Some(chapter);
        }
        while let Ok((at, chapter)) = plans.try_recv() {
            arrived[at] = Some(chapter);
        }
        let first = out.len();
        let batch: Vec<Vec<Vec<SectionPlan>>> = arrived[first..].iter_mut().map_while(Option::take).collect();
        if batch.is_empty() {
            // (A planning thread ended without its chapter: only a bug does that.)
            out.extend((first..count).map(|_| Err("a chapter was not planned".to_string())));
            break;
        }
        let counts: Vec<usize> = batch.iter().map(Vec::len).collect();
        let chapter_of: Vec<usize> =
            counts.iter().enumerate().flat_map(|(c, &n)| std::iter::repeat_n(first + c, n)).collect();
        let files: Vec<Vec<SectionPlan>> = batch.into_iter().flatten().collect();
        let file_started = |f: usize| started(chapter_of[f]);
        let claims = crate::check::check_files(&files, options.cache.as_deref(), options.deadline, &file_started);
        let mut outcomes = files.iter().zip(claims).map(|(plans, claims)| {
            claims.map(|claims| crate::report::FileOutcome {
                claims,
                skipped: plans.iter().flat_map(|p| p.skipped.clone()).collect(),
                roles: plans.iter().flat_map(|p| p.roles.clone()).collect(),
                shadowed: plans.iter().flat_map(|p| p.shadowed.clone()).collect(),
            })
        });
        // (Each chapter's files taken whole before one failure fails the chapter.)
        for n in counts {
            out.push(outcomes.by_ref().take(n).collect::<Vec<_>>().into_iter().collect::<Result<Vec<_>, _>>());
        }
    }
    if let Some(cache) = &options.cache {
        cache.flush();
    }
    out
}

/// One chapter planned ([`plan`]), its panic caught as its failure.
fn plan_chapter(chapter: &Chapter) -> Result<Planned, ChapterFailure> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        planted_panic(&chapter.docs);
        plan(&chapter.docs, chapter.spec.as_ref(), &chapter.spec_text)
    }))
    .map_err(|payload| ChapterFailure::Internal(crate::check::panic_message(payload.as_ref())))
    .and_then(|planned| planned.map_err(ChapterFailure::Spec))
}

/// The test hook of the per-chapter isolation (issue 47): with `DERIVCHECK_PLANTED_PANIC=TEXT`,
/// checking notes whose text contains TEXT panics, as a bug in derivcheck would.
fn planted_panic(docs: &[Document]) {
    if let Some(text) = std::env::var_os("DERIVCHECK_PLANTED_PANIC").and_then(|t| t.into_string().ok()) {
        if !text.is_empty() && docs.iter().any(|d| d.source.contains(&text)) {
            panic!("planted panic (DERIVCHECK_PLANTED_PANIC)");
        }
    }
}

/// The mutation self-test: every verified claim edited once in every known way, each mutant
/// checked (on the CAS worker). `progress` hears each claim's id before its mutants are checked.
pub fn mutate(
    docs: &[Document],
    spec: Option<&Spec>,
    spec_text: &str,
    deadline: Option<std::time::Instant>,
    progress: impl Fn(&str) + Send + 'static,
) -> Result<Vec<ClaimMutants>, Vec<SpecProblem>> {
    let Planned { plans, .. } = plan(docs, spec, spec_text)?;
    let files: Vec<String> = docs.iter().map(|d| d.path.clone()).collect();
    Ok(crate::cas::worker::run(move || {
        files
            .iter()
            .zip(&plans)
            .flat_map(|(file, plans)| crate::check::mutate::mutate_plans(file, plans, deadline, &progress))
            .collect::<Vec<_>>()
    }))
}

/// A starting spec for the first document, from what its notes declare (`derivcheck init`).
pub fn spec_skeleton(doc: &Document) -> String {
    let plans = crate::sema::plan(&ParsedDocument::parse(doc), None, "", true);
    crate::sema::spec_skeleton(&doc.path, &plans)
}
