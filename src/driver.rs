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

pub use crate::check::VerdictCache;
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

/// The whole `check` pipeline: parse, plan, check on the CAS worker, report.
pub fn check(
    docs: &[Document],
    spec: Option<Spec>,
    spec_text: String,
    options: CheckOptions,
) -> Result<Checked, Vec<SpecProblem>> {
    let spec_path = spec.as_ref().map(|s| s.path.clone());
    let Planned { listing, parse_failures, plans } = plan(docs, spec.as_ref(), &spec_text)?;
    let outcomes = crate::cas::worker::run(move || {
        let claims = crate::check::check_files(&plans, options.cache.as_deref(), options.deadline);
        plans
            .iter()
            .zip(claims)
            .map(|(plans, claims)| crate::report::FileOutcome {
                claims,
                skipped: plans.iter().flat_map(|p| p.skipped.clone()).collect(),
                roles: plans.iter().flat_map(|p| p.roles.clone()).collect(),
                shadowed: plans.iter().flat_map(|p| p.shadowed.clone()).collect(),
            })
            .collect::<Vec<_>>()
    });
    Ok(Checked { report: crate::report::build(listing, outcomes, spec_path), parse_failures })
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
