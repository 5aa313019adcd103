//! Helpers for integration tests: run the real binary, find `../shared/` (skip when absent).
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

pub const SEED: &str = "seeds/000_cc5c6c9d7e2419a2.txt";

/// `../shared/` beside the repository, or `None` (a user's clone has none: the test skips, and
/// says so). Under `CI=true` a missing `../shared/` fails the test instead: CI always has it, so
/// a test that skipped there would pass without having run.
pub fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared");
    if dir.join(SEED).is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var("CI").as_deref() != Ok("true"),
        "CI=true: ../shared/ (the seed chapter and the published corpora) must be beside the repository"
    );
    eprintln!("skipping: ../shared/ not found beside the repository (CI always has it)");
    None
}

pub fn seed_path() -> Option<PathBuf> {
    shared_dir().map(|d| d.join(SEED))
}

pub fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

/// Runs derivcheck; a run that has not ended after `limit` is killed and fails the test (a hang).
pub fn run_with_limit(args: &[&str], limit: Duration) -> Output {
    run_with_env(args, &[], limit)
}

/// [`run_with_limit`] with these environment variables set (the test hooks).
pub fn run_with_env(args: &[&str], vars: &[(&str, &str)], limit: Duration) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
        .args(args)
        .envs(vars.iter().copied())
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("derivcheck binary runs");
    // Drain both pipes while waiting, or a large output would block the child forever.
    let drain = |mut r: Box<dyn std::io::Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = r.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().expect("piped")));
    let err = drain(Box::new(child.stderr.take().expect("piped")));
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            let (stdout, stderr) = (out.join().expect("stdout"), err.join().expect("stderr"));
            return Output { status, stdout, stderr };
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("derivcheck {args:?} still running after {limit:?}: a hang");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

pub fn run(args: &[&str]) -> Output {
    run_with_limit(args, Duration::from_secs(120))
}

pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

pub fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("stdout is not JSON ({e}): {}", stdout(o)))
}

/// The shipped chapter's spec (relative to the repository root, where tests run the binary).
pub const SPEC: &str = "derivations/ch15/checks.toml";

/// The JSON report of `derivcheck` run with `args`, which must end in a verdict: exit 0 or 1,
/// and no panic.
pub fn report_of(args: &[&str]) -> serde_json::Value {
    let out = run(args);
    assert!(!stderr(&out).contains("panicked"), "{args:?}: {}", stderr(&out));
    assert!(matches!(out.status.code(), Some(0 | 1)), "{args:?}: exit {:?}: {}", out.status.code(), stderr(&out));
    json(&out)
}

/// `derivcheck check PATH --spec SPEC --format json`: exit code and report.
pub fn check_json(path: &str) -> (Option<i32>, serde_json::Value) {
    let out = run(&["check", path, "--spec", SPEC, "--format", "json"]);
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    (out.status.code(), json(&out))
}

/// Every claim of every file of a report.
pub fn all_claims(v: &serde_json::Value) -> Vec<&serde_json::Value> {
    v["files"].as_array().unwrap().iter().flat_map(|f| f["claims"].as_array().unwrap()).collect()
}

/// Every relation a report lists as a condition (it claims nothing), across its files.
#[allow(dead_code)]
pub fn all_conditions(v: &serde_json::Value) -> Vec<&serde_json::Value> {
    v["files"].as_array().unwrap().iter().flat_map(|f| f["conditions"].as_array().unwrap()).collect()
}

/// One claim as the test sees it: its verdict, and whether it was read as a condition.
pub struct Got {
    pub verdict: String,
    pub condition: bool,
    pub tex: String,
}

pub fn claims_by_line(report: &serde_json::Value) -> BTreeMap<u64, Vec<Got>> {
    let mut out: BTreeMap<u64, Vec<Got>> = BTreeMap::new();
    let conditions = all_conditions(report).into_iter().map(|c| (c, true));
    let claims = all_claims(report).into_iter().map(|c| (c, false)).chain(conditions);
    for (c, condition) in claims.filter(|(c, _)| c["source"] == "notes") {
        out.entry(c["line"].as_u64().unwrap()).or_default().push(Got {
            verdict: c["verdict"].as_str().unwrap().to_string(),
            condition,
            tex: c["tex"].as_str().unwrap_or_default().chars().take(80).collect(),
        });
    }
    out
}

/// What a key says of a line's claims: the failures (a refuted line not keyed false is a false
/// alarm; a line keyed false whose claims all verify is a false proof).
pub fn judge_keyed_line(at: &str, key: &str, got: &[Got]) -> Vec<String> {
    let mut failures = Vec::new();
    for g in got.iter().filter(|g| g.verdict == "refuted") {
        if key != "false" {
            failures.push(format!("{at}: FALSE ALARM, refuted a line keyed {key}: {}", g.tex));
        }
    }
    if key == "false" && got.iter().all(|g| g.verdict == "verified") {
        failures.push(format!("{at}: FALSE PROOF, verified a line keyed false: {}", got[0].tex));
    }
    failures
}

/// Whether derivcheck decided a line keyed true (every claim verified) or false (one refuted).
pub fn keyed_line_decided(key: &str, got: &[Got]) -> bool {
    let claims: Vec<&Got> = got.iter().filter(|g| !g.condition).collect();
    match key {
        "true" => !claims.is_empty() && claims.iter().all(|g| g.verdict == "verified"),
        _ => got.iter().any(|g| g.verdict == "refuted"),
    }
}

/// The in-repo chapter's Chinese notes: the seed's formulas, in every clone.
pub const CHAPTER_ZH: &str = "derivations/ch15/notes.zh.md";

/// Checks a copy of the chapter's Chinese notes with `from` replaced by `to`; also gives the
/// edited line.
pub fn check_edited_notes(from: &str, to: &str) -> (Option<i32>, serde_json::Value, u64) {
    let text = std::fs::read_to_string(repo_path(CHAPTER_ZH)).unwrap();
    let at = text.find(from).unwrap_or_else(|| panic!("`{from}` not in {CHAPTER_ZH}"));
    let line = text[..at].matches('\n').count() as u64 + 1;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("edited.txt");
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    let (code, v) = check_json(path.to_str().unwrap());
    (code, v, line)
}

/// Checks edited notes and asserts it is refuted at the edited line; the worked example
/// (15.4), which runs the notes' backward formulas, may refute its printed numbers as a
/// consequence. Returns the refuted claims outside the example.
pub fn refuted_at_edit(from: &str, to: &str) -> Vec<serde_json::Value> {
    let (code, v, line) = check_edited_notes(from, to);
    assert_eq!(code, Some(1), "edit {from} -> {to} not refuted: {v}");
    let refuted: Vec<&serde_json::Value> = all_claims(&v).into_iter().filter(|c| c["verdict"] == "refuted").collect();
    assert!(refuted.iter().any(|c| c["line"].as_u64() == Some(line)), "{refuted:#?}");
    let outside: Vec<serde_json::Value> = refuted.into_iter().filter(|c| c["section"] != "15.4").cloned().collect();
    for c in &outside {
        assert_eq!(c["line"].as_u64(), Some(line), "{c:#}");
    }
    outside
}

/// The largest peak resident set (bytes) of the children this process has waited for.
pub fn children_peak_rss() -> u64 {
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the struct we own; RUSAGE_CHILDREN is a valid selector.
    let status = unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    assert_eq!(status, 0, "getrusage failed");
    u64::try_from(usage.ru_maxrss).unwrap() * 1024 // kilobytes on Linux
}

/// The English words (three or more Latin letters) of a line of Chinese output, outside `code`
/// and TeX commands; `names` are words any language shows (derivcheck's own name, `spec`, …).
#[allow(dead_code)]
pub fn english_words(text: &str, names: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut in_code = false;
    let mut word = String::new();
    let mut chars = text.chars().chain([' ']).peekable();
    while let Some(c) = chars.next() {
        if c == '`' {
            in_code = !in_code;
        } else if c == '\\' {
            while chars.peek().is_some_and(|c| c.is_ascii_alphabetic()) {
                chars.next();
            }
        } else if !in_code && c.is_ascii_alphabetic() {
            word.push(c);
            continue;
        }
        if word.len() >= 3 && !names.contains(&word.as_str()) {
            found.push(word.clone());
        }
        word.clear();
    }
    found
}
