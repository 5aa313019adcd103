//! Benchmarks over published text (criterion; `cargo bench --bench corpora`): `derivcheck
//! check`, the release binary as a user runs it, over `../shared/published`,
//! `../shared/published2` and the shipped chapter, each run with an empty verdict cache (cold).
//! Before the timings, every chapter of the two corpora is checked on its own and the slowest
//! are named, against issue 47's targets: no chapter over 1 s, `published` within 1 s and
//! `published2` within 5 s in all. The corpora are skipped, with a note, where `../shared` is
//! absent. Measured figures are in the guide (`docs/guide/src/speed.md`).

use criterion::{criterion_group, criterion_main, Criterion};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The longest a chapter should take on its own (issue 47).
const CHAPTER_TARGET: Duration = Duration::from_secs(1);

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

/// A corpus of `../shared`, where it is present.
fn corpus(name: &str) -> Option<PathBuf> {
    let dir = root().join("..").join("shared").join(name);
    if dir.is_dir() {
        return Some(dir);
    }
    eprintln!("note: {} is absent: its benchmark is skipped", dir.display());
    None
}

/// `derivcheck check PATH` with an empty cache of its own; its wall time.
fn check_cold(path: &Path, cache: &Path) -> Duration {
    let _ = std::fs::remove_dir_all(cache);
    let start = Instant::now();
    let out = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
        .args(["check", path.to_str().unwrap(), "--format", "json", "--cache", cache.to_str().unwrap()])
        .output()
        .expect("the derivcheck binary runs");
    let elapsed = start.elapsed();
    // 0 (all verified), 1 (a claim refuted), 2 (bad input somewhere): all are a finished run;
    // anything else (a panic, an internal error) is not a figure to keep.
    assert!(matches!(out.status.code(), Some(0..=2)), "{}: {}", path.display(), String::from_utf8_lossy(&out.stderr));
    elapsed
}

/// The chapters a book run of `dir` checks (its `*.md` files, as `derivcheck check DIR`).
fn chapters(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Each chapter of the corpora on its own (the best of three runs, cold each time), the
/// slowest five printed, and those over [`CHAPTER_TARGET`] named.
fn slowest_chapters(cache: &Path) {
    let mut timed: Vec<(Duration, PathBuf)> = Vec::new();
    for name in ["published", "published2"] {
        let Some(dir) = corpus(name) else { continue };
        for chapter in chapters(&dir) {
            let best = (0..3).map(|_| check_cold(&chapter, cache)).min().unwrap();
            timed.push((best, chapter));
        }
    }
    timed.sort_by_key(|(time, _)| std::cmp::Reverse(*time));
    eprintln!("slowest chapters (best of three cold runs each, {} chapters):", timed.len());
    for (time, chapter) in timed.iter().take(5) {
        eprintln!("  {:>7.3} s  {}", time.as_secs_f64(), chapter.display());
    }
    let over: Vec<&(Duration, PathBuf)> = timed.iter().filter(|(t, _)| *t > CHAPTER_TARGET).collect();
    if over.is_empty() {
        eprintln!("no chapter over the target of {} s", CHAPTER_TARGET.as_secs());
    }
    for (time, chapter) in over {
        eprintln!(
            "OVER THE TARGET of {} s: {} ({:.3} s)",
            CHAPTER_TARGET.as_secs(),
            chapter.display(),
            time.as_secs_f64()
        );
    }
}

fn corpora(c: &mut Criterion) {
    let scratch = tempfile::tempdir().unwrap();
    let cache = scratch.path().join("cache");
    slowest_chapters(&cache);
    let mut group = c.benchmark_group("corpora, cold cache");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    let runs: [(&str, Option<PathBuf>); 3] = [
        ("check ../shared/published (target <= 1 s)", corpus("published")),
        ("check ../shared/published2 (target <= 5 s)", corpus("published2")),
        ("check derivations/ch15 (the shipped chapter)", Some(root().join("derivations/ch15"))),
    ];
    for (name, path) in runs {
        let Some(path) = path else { continue };
        group.bench_function(name, |b| {
            b.iter_custom(|iterations| (0..iterations).map(|_| check_cold(&path, &cache)).sum())
        });
    }
    group.finish();
}

criterion_group!(benches, corpora);
criterion_main!(benches);
