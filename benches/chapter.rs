//! Benchmarks (criterion; `cargo bench`): the whole shipped chapter, the verdict cache, the
//! attention module (section 15.3) and LayerNorm backward (15.5) as their sizes grow, and a
//! synthetic book of 50 chapters. Targets and measured numbers are in the guide
//! (`docs/guide/src/speed.md`).
//! `cargo bench -- attention` runs one group.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use derivcheck::driver::{self, verdict_cache, CheckOptions};
use derivcheck::notes::Document;
use derivcheck::spec::Spec;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).to_path_buf()
}

fn document(path: &Path) -> Document {
    Document::parse(&path.display().to_string(), std::fs::read_to_string(path).unwrap())
}

fn chapter_dir() -> PathBuf {
    root().join("derivations/ch15")
}

fn shipped_spec() -> String {
    std::fs::read_to_string(chapter_dir().join("checks.toml")).unwrap()
}

/// Checks `docs` under `spec_text`, uncached unless a cache is given; every claim must be
/// verified (a benchmark of a failing check would measure the wrong thing).
fn check(docs: &[Document], spec_text: &str, options: CheckOptions) -> usize {
    let spec = Spec::parse("checks.toml", spec_text).unwrap();
    let report = driver::check(docs, Some(spec), spec_text.to_string(), options).expect("valid spec").report;
    assert_eq!(report.summary.verified, report.summary.claims, "every claim verified");
    report.summary.claims
}

fn whole_chapter(c: &mut Criterion) {
    let docs: Vec<Document> =
        ["notes.en.md", "notes.zh.md"].iter().map(|name| document(&chapter_dir().join(name))).collect();
    let spec = shipped_spec();
    let mut group = c.benchmark_group("chapter");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    group.bench_function("whole chapter, both languages (target < 0.1 s)", |b| {
        b.iter(|| check(&docs, &spec, CheckOptions::uncached()))
    });
    // The verdict cache: a run over the unchanged chapter served from a filled cache.
    let cache_dir = std::env::temp_dir().join(format!("derivcheck-bench-cache-{}", std::process::id()));
    let cached = || CheckOptions { cache: verdict_cache(Some(&cache_dir), false), ..CheckOptions::uncached() };
    check(&docs, &spec, cached());
    group.bench_function("whole chapter from the verdict cache", |b| b.iter(|| check(&docs, &spec, cached())));
    group.finish();
    let _ = std::fs::remove_dir_all(&cache_dir);
}

/// The language server's work after an edit (`derivcheck lsp`): the shipped chapter's English
/// notes checked again with its spec (a word typed in prose, then undone: each check sees a
/// changed text), the verdict cache warm, and the diagnostics it publishes made.
fn editor(c: &mut Criterion) {
    use derivcheck::report::{diagnostic::findings, Lang};
    let path = chapter_dir().join("notes.en.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let edited = text.replacen("the", "thee", 1);
    let spec_text = shipped_spec();
    let cache_dir = std::env::temp_dir().join(format!("derivcheck-bench-lsp-{}", std::process::id()));
    let diagnose = |text: &str| {
        let docs = vec![Document::parse(&path.display().to_string(), text.to_string())];
        let spec = Spec::parse("checks.toml", &spec_text).unwrap();
        let options = CheckOptions { cache: verdict_cache(Some(&cache_dir), false), ..CheckOptions::uncached() };
        let checked = driver::check(&docs, Some(spec), spec_text.clone(), options).expect("valid spec");
        findings(&checked.report, &docs, &checked.parse_failures, None, Lang::En).len()
    };
    assert_eq!(diagnose(&text), 0, "the chapter checks clean");
    let mut group = c.benchmark_group("editor");
    group.sample_size(20).measurement_time(Duration::from_secs(10));
    let mut flip = false;
    group.bench_function("notes after an edit, warm cache (target < 0.2 s)", |b| {
        b.iter(|| {
            flip = !flip;
            diagnose(if flip { &edited } else { &text })
        })
    });
    group.finish();
    let _ = std::fs::remove_dir_all(&cache_dir);
}

/// The English file with section 15.3 at n positions, width d, d_k = 4 (2 where d = 2).
fn attention(c: &mut Criterion) {
    let docs = vec![document(&chapter_dir().join("notes.en.md"))];
    let shipped = shipped_spec();
    let mut group = c.benchmark_group("attention (15.3)");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for (n, d) in [(3, 2), (4, 4), (8, 16), (16, 16)] {
        let d_k = if d == 2 { 2 } else { 4 };
        let spec = shipped
            .replacen(
                "sizes = { n = [8], d = [16], d_k = [4], N = [8] }",
                &format!("sizes = {{ n = [{n}], d = [{d}], d_k = [{d_k}], N = [8] }}"),
                1,
            )
            .replacen(
                "crosscheck = { n = [16], d = [16], d_k = [4], N = [8] }",
                &format!("crosscheck = {{ n = [{n}], d = [{d}], d_k = [{d_k}], N = [8] }}"),
                1,
            );
        group.bench_with_input(BenchmarkId::new("whole file, n × d", format!("{n}x{d}")), &spec, |b, spec| {
            b.iter(|| check(&docs, spec, CheckOptions::uncached()))
        });
    }
    group.finish();
}

/// Section 15.5 (LayerNorm backward and the FFN) at width d.
fn layer_norm(c: &mut Criterion) {
    let docs = vec![document(&chapter_dir().join("notes.en.md"))];
    let shipped = shipped_spec();
    let mut group = c.benchmark_group("layer norm (15.5)");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    for d in [2, 4, 8, 16, 32] {
        let spec = shipped.replacen(
            "sizes = { d = [2, 3, 4], n = [2], h = [3] }",
            &format!("sizes = {{ d = [{d}], n = [2], h = [3] }}\ncrosscheck = {{ d = [{d}] }}"),
            1,
        );
        group.bench_with_input(BenchmarkId::new("whole file, d", d), &spec, |b, spec| {
            b.iter(|| check(&docs, spec, CheckOptions::uncached()))
        });
    }
    group.finish();
}

/// 50 chapters: the test chapters (each with its spec) over and over.
fn book(c: &mut Criterion) {
    let dir = root().join("tests/chapters");
    let mut chapters: Vec<(Document, String)> = Vec::new();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md") && !p.ends_with("README.md"))
        .collect();
    names.sort();
    for path in names.iter().cycle().take(50) {
        let spec = std::fs::read_to_string(path.with_extension("toml")).unwrap_or_default();
        chapters.push((document(path), spec));
    }
    let mut group = c.benchmark_group("book");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    group.bench_function("50 chapters", |b| {
        b.iter(|| {
            chapters
                .iter()
                .map(|(doc, spec)| {
                    let parsed = (!spec.is_empty()).then(|| Spec::parse("spec.toml", spec).unwrap());
                    let docs = std::slice::from_ref(doc);
                    driver::check(docs, parsed, spec.clone(), CheckOptions::uncached()).unwrap().report.summary.claims
                })
                .sum::<usize>()
        })
    });
    group.finish();
}

/// The slowest single-edit mutant known: the shipped chapter's 15.3 with one transpose dropped
/// (`\bar K=\bar S^\mathsf TQ` written `\bar K=\bar SQ`), which once ran past 16 GB. Target:
/// refuted in under 30 s (the guide, `docs/guide/src/limits.md`).
fn slowest_mutant(c: &mut Criterion) {
    let text = std::fs::read_to_string(chapter_dir().join("notes.en.md")).unwrap();
    let mutant = text.replacen(r"\bar K=\bar S^\mathsf TQ", r"\bar K=\bar SQ", 1);
    assert_ne!(mutant, text, "the transpose to drop is in the chapter");
    let docs = vec![Document::parse("mutant.md", mutant)];
    let spec_text = shipped_spec();
    let mut group = c.benchmark_group("mutants");
    group.sample_size(10).measurement_time(Duration::from_secs(60));
    group.bench_function("15.3 with a transpose dropped (target < 30 s)", |b| {
        b.iter(|| {
            let spec = Spec::parse("checks.toml", &spec_text).unwrap();
            let report = driver::check(&docs, Some(spec), spec_text.clone(), CheckOptions::uncached()).unwrap().report;
            assert!(report.summary.refuted > 0, "the mutant is refuted");
        })
    });
    group.finish();
}

criterion_group!(benches, whole_chapter, editor, attention, layer_norm, book, slowest_mutant);
criterion_main!(benches);
