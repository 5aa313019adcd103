//! A run's claims, in order, with exact work bounded: the files' section plans in, each
//! file's checked claims out.
//!
//! Sections are checked in this process, one after the other, as long as they need no exact
//! work ([`cas::isolate::trial`]). At the first that does, a worker process takes over
//! ([`cas::isolate::worker`]): it checks that section from its start and every claim after it,
//! claim after claim, saying where it is; each claim has [`CLAIM_TIME`] (cut to the run's time
//! limit) before the worker is killed and a new one carries on from the next claim. So a
//! chapter that needs no exact work starts no process, and a book starts one (and one more for
//! each claim that had to be stopped), not one per claim.

use super::general::{
    following_its_premise, with_bars_as_determinants, with_both_signs, with_differentials_general, with_free_indices,
    with_inner_products_general, with_later_letters_general, with_powers_of_applications, with_primes_as_derivatives,
    with_primes_in_x, with_probabilities_general, with_shapes_of_the_claim, with_spelled_functions,
    with_superscripts_as_labels, with_unread_definitions_general, with_whole_numbers,
};
use super::readings::{derived_under_constraint, through_later_only, with_earlier_letter_general};
use super::{
    checked_claim, claim_scope, class_tex, expected_to_fail, guarded, judged, out_of_time, past, section_seed,
    shape_tex, shapes_from_use, timed, within_run, Budget, CheckedClaim, Checks, Claim, Instance, Reason, SharedPoints,
    Status, Verdict, VerdictCache, CLAIM_TIME, MAX_BYTES, MAX_STEPS,
};
use crate::cas;
use crate::numeric;
use crate::sema::SectionPlan;
use serde::{Deserialize, Serialize};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Checks every claim of every file's plans (call on the CAS worker thread): for each file, its
/// claims in order. With a cache, a claim whose fingerprint is stored is not checked again
/// (worked-example sections are always checked: their verdicts depend on the whole example).
/// Claims reached after `deadline` are undecided, saying the run's time limit was reached.
///
/// A file whose check panicked in this process (a bug in derivcheck) is `Err` with the panic's
/// message; the other files are checked as if it were not there. `started` hears each file's
/// index as its claims start being checked (for a progress bar).
pub fn check_files(
    files: &[Vec<SectionPlan>],
    cache: Option<&dyn VerdictCache>,
    deadline: Option<Instant>,
    started: &dyn Fn(usize),
) -> Vec<Result<Vec<CheckedClaim>, String>> {
    let last_started = std::cell::Cell::new(None);
    let started = |f: usize| {
        if last_started.replace(Some(f)) != Some(f) {
            started(f);
        }
    };
    *super::RUN_DEADLINE.lock().unwrap_or_else(|p| p.into_inner()) = deadline;
    let sections: Vec<(usize, usize)> =
        files.iter().enumerate().flat_map(|(f, plans)| (0..plans.len()).map(move |s| (f, s))).collect();
    let mut failed: Vec<Option<String>> = vec![None; files.len()];
    let mut verdicts: Vec<Vec<(Verdict, bool)>> = Vec::with_capacity(sections.len());
    for &(f, s) in &sections {
        if failed[f].is_some() {
            verdicts.push(Vec::new());
            continue;
        }
        started(f);
        // Verdicts of a trial that is given up are not kept: the worker finds them again.
        let held = HeldCache { inner: cache, held: Mutex::new(Vec::new()) };
        let held_cache = cache.map(|_| &held as &dyn VerdictCache);
        let tried = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            planted_check_panic(&files[f][s]);
            cas::isolate::trial(|| {
                with_section(&files[f], s, held_cache, deadline, |check| {
                    files[f][s].claims.iter().map(check).take_while(|_| !cas::isolate::deferred()).collect::<Vec<_>>()
                })
            })
        }));
        match tried {
            Ok(Some(checked)) => {
                held.keep();
                verdicts.push(checked);
            }
            Ok(None) => break,
            Err(payload) => {
                failed[f] = Some(panic_message(payload.as_ref()));
                verdicts.push(Vec::new());
            }
        }
    }
    let done = verdicts.len();
    if done < sections.len() {
        verdicts.extend(in_workers(files, &sections[done..], cache, deadline, &started));
    }
    let mut out: Vec<Vec<CheckedClaim>> = files.iter().map(|_| Vec::new()).collect();
    for (&(f, s), section) in sections.iter().zip(verdicts) {
        let plan = &files[f][s];
        let checked: Vec<CheckedClaim> = plan
            .claims
            .iter()
            .zip(section)
            .map(|(claim, (verdict, from_cache))| CheckedClaim { from_cache, ..checked_claim(claim, verdict) })
            .collect();
        out[f].extend(if plan.example.is_some() { checked } else { derived_under_constraint(checked) });
    }
    out.into_iter().zip(failed).map(|(claims, failed)| failed.map_or(Ok(claims), Err)).collect()
}

/// The test hook of the per-file isolation of the check (issue 47): with
/// `DERIVCHECK_PLANTED_CHECK_PANIC=TEXT`, checking a section with a claim whose TeX contains TEXT
/// panics, as a bug in derivcheck would.
fn planted_check_panic(plan: &SectionPlan) {
    static PLANTED: std::sync::OnceLock<Option<String>> = std::sync::OnceLock::new();
    let planted =
        PLANTED.get_or_init(|| std::env::var("DERIVCHECK_PLANTED_CHECK_PANIC").ok().filter(|t| !t.is_empty()));
    if let Some(text) = planted {
        if plan.claims.iter().any(|c| c.tex.contains(text.as_str())) {
            panic!("planted panic in the check (DERIVCHECK_PLANTED_CHECK_PANIC)");
        }
    }
}

/// What a panic said (its `&str` or `String` payload).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    cas::worker::panic_text(payload).unwrap_or("a panic without a message").to_string()
}

/// Where a worker is: the section (an index into the sections it was given) and the claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
struct Place {
    section: usize,
    claim: usize,
}

/// What a worker says.
#[derive(Serialize, Deserialize)]
enum Progress {
    /// It starts checking the claim here.
    Started(Place),
    /// The claim here is checked: its verdict, whether it came from the cache, and the cache
    /// entries its check made (the parent keeps them: what a worker process holds dies with it).
    Checked(Place, Box<Verdict>, bool, Vec<(String, Verdict)>),
}

/// The claims of `sections` checked in workers: a worker from the first claim; a worker
/// killed, or stopped by its memory limit, leaves the claim it was checking undecided (saying
/// which budget it passed) and a new one carries on from the next.
fn in_workers(
    files: &[Vec<SectionPlan>],
    sections: &[(usize, usize)],
    cache: Option<&dyn VerdictCache>,
    deadline: Option<Instant>,
    started: &dyn Fn(usize),
) -> Vec<Vec<(Verdict, bool)>> {
    let plan = |k: usize| &files[sections[k].0][sections[k].1];
    let mut verdicts: Vec<Vec<Option<(Verdict, bool)>>> =
        (0..sections.len()).map(|k| vec![None; plan(k).claims.len()]).collect();
    // A place, or the first claim after it where its section has no more (`section` past the
    // last where there is none).
    let settled = |mut place: Place| {
        while place.section < sections.len() && place.claim >= plan(place.section).claims.len() {
            place = Place { section: place.section + 1, claim: 0 };
        }
        place
    };
    let after = |place: Place| settled(Place { claim: place.claim + 1, ..place });
    // The first claim not yet checked, and the one a worker is checking.
    let mut next = settled(Place { section: 0, claim: 0 });
    // For a claim checked again because its worker was stopped inside an exact attempt: how
    // each such attempt ended (so that it ends so again at once), and the time its tries took.
    let mut replays: std::collections::HashMap<Place, Replay> = std::collections::HashMap::new();
    while next.section < sections.len() {
        if past(deadline) {
            // The run's time limit: the claims left are not started.
            for place in
                std::iter::successors(Some(next), |&p| Some(after(p))).take_while(|p| p.section < sections.len())
            {
                verdicts[place.section][place.claim] = Some((out_of_time(), false));
            }
            break;
        }
        let start = next;
        let mut checking: Option<(Place, Instant)> = None;
        let stopped = cas::isolate::worker(
            || within_run(Instant::now() + CLAIM_TIME) + super::EXACT_GRACE,
            |say: &mut dyn FnMut(Progress)| {
                for (k, &(f, s)) in sections.iter().enumerate().skip(start.section) {
                    let from = if k == start.section { start.claim } else { 0 };
                    let held = HeldCache { inner: cache, held: Mutex::new(Vec::new()) };
                    let held_cache = cache.map(|_| &held as &dyn VerdictCache);
                    with_section(&files[f], s, held_cache, deadline, |check| {
                        for (j, claim) in files[f][s].claims.iter().enumerate().skip(from) {
                            let place = Place { section: k, claim: j };
                            say(Progress::Started(place));
                            let replay = replays.get(&place);
                            if let Some(replay) = replay {
                                cas::isolate::replaying(&replay.stops);
                            }
                            *super::CLAIM_TIME_SPENT.lock().unwrap_or_else(|p| p.into_inner()) =
                                replay.map_or(Duration::ZERO, |r| r.spent);
                            let (verdict, from_cache) = check(claim);
                            // (Kept here too, for the claims after it in this worker: the
                            // other language's file of a chapter repeats most of them.)
                            let entries = held.keep();
                            say(Progress::Checked(place, Box::new(verdict), from_cache, entries));
                        }
                    })
                }
            },
            |progress| match progress {
                Progress::Started(place) => {
                    started(sections[place.section].0);
                    checking = Some((place, Instant::now()))
                }
                Progress::Checked(place, verdict, from_cache, entries) => {
                    verdicts[place.section][place.claim] = Some((*verdict, from_cache));
                    if let Some(cache) = cache {
                        for (key, verdict) in &entries {
                            cache.put(key, verdict);
                        }
                    }
                    checking = None;
                    next = after(place);
                }
            },
        );
        let Err(interrupted) = stopped else { break };
        let (place, started) = checking.unwrap_or((next, Instant::now()));
        if place.section >= sections.len() {
            break;
        }
        match interrupted.attempt {
            // The claim again, that attempt ending at once as it did here, its deadlines
            // brought forward by the time this try took.
            Some(n) => {
                let replay = replays.entry(place).or_default();
                replay.stops.push((n, interrupted.stopped));
                replay.spent += started.elapsed();
            }
            None => {
                let verdict =
                    if past(deadline) { stopped_by_the_time_limit() } else { stopped_verdict(interrupted.stopped) };
                verdicts[place.section][place.claim] = Some((verdict, false));
                next = after(place);
            }
        }
    }
    verdicts
        .into_iter()
        .map(|section| {
            section
                .into_iter()
                .map(|v| v.unwrap_or_else(|| (stopped_verdict(cas::Stopped::Unavailable), false)))
                .collect()
        })
        .collect()
}

/// The verdict of a claim whose worker was stopped by the run's time limit.
fn stopped_by_the_time_limit() -> Verdict {
    let detail = "the run's time limit was reached while this claim was checked".to_string();
    Verdict::undecided(Reason::Budget { detail }, String::new())
}

/// How a claim's earlier tries ended: the exact attempts stopped (by their number in the
/// claim's check) and the time the tries took.
#[derive(Default)]
struct Replay {
    stops: Vec<(usize, cas::Stopped)>,
    spent: Duration,
}

/// The verdict of a claim whose worker was stopped while checking it.
fn stopped_verdict(why: cas::Stopped) -> Verdict {
    Verdict::undecided(Reason::Budget { detail: super::stopped_by(why, "the check") }, String::new())
}

/// A cache whose new entries are held until [`HeldCache::keep`] puts them in the cache.
struct HeldCache<'a> {
    inner: Option<&'a dyn VerdictCache>,
    held: Mutex<Vec<(String, Verdict)>>,
}

impl HeldCache<'_> {
    /// Puts the entries held so far in the cache, and gives them (a worker hands them on to the
    /// process that started it).
    fn keep(&self) -> Vec<(String, Verdict)> {
        let held = std::mem::take(&mut *self.held.lock().unwrap_or_else(|p| p.into_inner()));
        if let Some(inner) = self.inner {
            for (key, verdict) in &held {
                inner.put(key, verdict);
            }
        }
        held
    }
}

impl VerdictCache for HeldCache<'_> {
    fn get(&self, key: &str) -> Option<Verdict> {
        self.inner.and_then(|c| c.get(key))
    }
    fn put(&self, key: &str, verdict: &Verdict) {
        self.held.lock().unwrap_or_else(|p| p.into_inner()).push((key.to_string(), verdict.clone()));
    }
}

/// Makes what the claims of section `s` share and hands `visit` the check of one claim: its
/// verdict, judged, and whether it came from the cache.
fn with_section<R>(
    plans: &[SectionPlan],
    s: usize,
    cache: Option<&dyn VerdictCache>,
    deadline: Option<Instant>,
    visit: impl FnOnce(&dyn Fn(&Claim) -> (Verdict, bool)) -> R,
) -> R {
    let plan = &plans[s];
    if plan.example.is_some() {
        // A worked example's claims are checked in the example (and its variant).
        let runs = [false, true].map(|variant| numeric::example::ExampleRun::new(plan, plans, variant));
        return visit(&|claim| {
            if past(deadline) {
                return (out_of_time(), false);
            }
            let verdict = timed(|| {
                guarded(|| match &runs[usize::from(claim.variant)] {
                    Err(detail) => Verdict::undecided(Reason::ExampleSetup { detail: detail.clone() }, String::new()),
                    Ok(run) if claim.holds => run.check(claim),
                    Ok(run) => expected_to_fail(run.check(claim)),
                })
            });
            (verdict, false)
        });
    }
    let scope = match &plan.scope {
        Ok(scope) => scope,
        Err(reason) => return visit(&|_| (Verdict::undecided(reason.clone(), String::new()), false)),
    };
    // The claims share one floating-point instance (so adjoints computed by central
    // differences for one claim serve the next).
    let sizes = numeric::crosscheck::larger_sizes(scope, &scope.crosscheck);
    let backend = numeric::Numeric::new(section_seed(&plan.number), numeric::crosscheck::EPSILON);
    let budget = Budget { max_steps: 20 * MAX_STEPS, max_bytes: MAX_BYTES, deadline: Instant::now() + CLAIM_TIME };
    let floats = Instance::new(&backend, scope, &sizes, None, budget);
    // The float points must satisfy the assumptions too; where they cannot be made to, the
    // claims get no float cross-check rather than a false disagreement.
    let assumptions_hold = scope.assumptions.iter().all(|a| numeric::satisfy(&floats, a).unwrap_or(false));
    let assuming: Vec<String> = scope.assumptions.iter().map(|a| a.tex.clone()).collect();
    let shared = SharedPoints::default();
    let terms = super::mutate::section_terms(plan);
    // (A claim rewritten by a reading, checked again with its free indices made general.)
    let again_with_free_indices = |scope: &crate::sema::Scope, claim: &Claim, verdict: Verdict| {
        with_free_indices(scope, claim, verdict, &Checks { claim })
    };
    // (`P(A \mid B)`, `p(x)` nobody defines, `\theta^T x` nobody shapes: made general.)
    // (`\hat y_j^k`, the k-th sample's output, read with k a label.)
    let made_general = |scope: &crate::sema::Scope, claim: &Claim| {
        with_probabilities_general(scope, claim, &again_with_free_indices)
            .or_else(|| with_inner_products_general(scope, claim, &again_with_free_indices))
            .or_else(|| with_superscripts_as_labels(scope, claim, &again_with_free_indices))
            .or_else(|| with_powers_of_applications(scope, claim, &again_with_free_indices))
    };
    visit(&|claim| {
        if past(deadline) {
            return (out_of_time(), false);
        }
        let key = cache.map(|_| super::fingerprint(scope, claim));
        if let Some(verdict) = cache.zip(key.as_ref()).and_then(|(c, k)| c.get(k)) {
            return (judged(scope, claim, verdict, &terms), true);
        }
        // Values the prose gives for this claim (a binding, an example definition) make a
        // scope of its own; it shares no points with the section's.
        let own = claim_scope(scope, claim);
        // How the readings module checks the claim again under another reading.
        let trial = Checks { claim };
        let verdict = timed(|| {
            let verdict = guarded(|| {
                if let Some(own) = &own {
                    let verdict = super::check_own_claim(own, claim);
                    return if claim.holds { verdict } else { expected_to_fail(verdict) };
                }
                let floats = assumptions_hold.then_some(&floats);
                if claim.holds {
                    super::check_claim(scope, claim, floats, Some(&shared))
                } else {
                    super::check_failing_claim(scope, claim, &shared)
                }
            });
            let verdict = match verdict.status {
                Status::Verified if claim.holds => through_later_only(scope, own.as_ref(), claim, verdict, &trial),
                Status::Verified => verdict,
                _ if claim.holds => with_later_letters_general(scope, own.as_ref(), claim, &trial)
                    .or_else(|| following_its_premise(own.as_ref().unwrap_or(scope), claim, &trial))
                    .unwrap_or(verdict),
                _ => verdict,
            };
            let verdict = match &verdict.reason {
                Reason::UnboundIndex { .. } if claim.holds => {
                    let scope = own.as_ref().unwrap_or(scope);
                    let verdict = with_free_indices(scope, claim, verdict, &trial);
                    match verdict.status {
                        Status::Undecided => made_general(scope, claim)
                            .or_else(|| with_earlier_letter_general(scope, claim, &verdict, &trial))
                            .unwrap_or(verdict),
                        _ => verdict,
                    }
                }
                // `tanh(x)`, `log(1+x)` spelled as letters (where that is what stopped the check):
                // read as the function; `P(A \mid B)`, `p(x)` nobody defines, `\theta^T x` nobody
                // shapes, differentials where nothing says what varies: made general; ± read with
                // both signs. Each only to verify.
                reason
                    if claim.holds
                        && (verdict.status == Status::Undecided
                            || matches!(reason, Reason::NotRead { kind: crate::model::NotRead::Ambiguous, .. })) =>
                {
                    let scope = own.as_ref().unwrap_or(scope);
                    let ambiguous = matches!(reason, Reason::NotRead { kind: crate::model::NotRead::Ambiguous, .. });
                    let unread = matches!(reason, Reason::NotRead { .. });
                    ambiguous
                        .then(|| with_spelled_functions(scope, claim))
                        .flatten()
                        .or_else(|| made_general(scope, claim))
                        .or_else(|| with_differentials_general(scope, claim))
                        .or_else(|| with_primes_in_x(scope, claim))
                        .or_else(|| with_primes_as_derivatives(scope, claim, &again_with_free_indices))
                        .or_else(|| with_bars_as_determinants(scope, claim))
                        .or_else(|| with_both_signs(scope, claim))
                        .or_else(|| with_whole_numbers(scope, claim))
                        .or_else(|| with_shapes_of_the_claim(scope, claim))
                        .or_else(|| unread.then(|| with_unread_definitions_general(scope, claim, &verdict)).flatten())
                        .unwrap_or(verdict)
                }
                _ => verdict,
            };
            let mut assuming = [assuming.clone(), verdict.assuming].concat();
            assuming.extend(claim.reading.given.iter().cloned());
            assuming.extend(shapes_from_use(own.as_ref().unwrap_or(scope), claim).iter().map(|s| shape_tex(s)));
            assuming.extend(claim.reading.named.classes.iter().map(|(key, class)| class_tex(key, *class)));
            Verdict { assuming, ..verdict }
        });
        // A verdict cut short by a time or size budget depends on the machine: not kept.
        let budget = matches!(verdict.reason, Reason::Budget { .. } | Reason::Internal { .. });
        if let (Some(cache), Some(key), false) = (cache, &key, budget) {
            cache.put(key, &verdict);
        }
        (judged(scope, claim, verdict, &terms), false)
    })
}
