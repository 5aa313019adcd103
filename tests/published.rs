//! The keyed published chapters: `tests/published/chapters/` (d2l, English and Chinese, as
//! published) and `tests/published/planted/` (copies with one planted error per edited line),
//! held to `tests/published/key.toml`, whose SymPy checks `check_key.py` runs on its own.
//!
//! derivcheck runs on each chapter with no spec, as a new user would. Every line it reads a claim
//! on is keyed; a REFUTED verdict on a line not keyed `false` is a false alarm, a line keyed
//! `false` whose claims all verify is a false proof. The number of keyed lines derivcheck
//! decides is printed, and may not fall below the figure in the guide
//! (`docs/guide/src/published-text.md`, "Keyed published chapters").

mod common;
use common::*;
use std::collections::BTreeMap;

/// What the key says of one line.
#[derive(Debug, Clone)]
struct Keyed {
    key: String,
}

fn load_key() -> BTreeMap<(String, u64), Keyed> {
    let text = std::fs::read_to_string(repo_path("tests/published/key.toml")).unwrap();
    let table: toml::Table = text.parse().unwrap();
    let mut out = BTreeMap::new();
    for entry in table["line"].as_array().unwrap() {
        let file = entry["file"].as_str().unwrap().to_string();
        let line = entry["line"].as_integer().unwrap() as u64;
        let key = entry["key"].as_str().unwrap().to_string();
        assert!(
            ["true", "false", "condition", "definition", "skip"].contains(&key.as_str()),
            "{file}:{line}: key `{key}`"
        );
        assert!(out.insert((file.clone(), line), Keyed { key }).is_none(), "{file}:{line} keyed twice");
    }
    out
}

/// The keyed chapters, `chapters/<lang>/<name>.md` and `planted/<lang>/<name>.md`.
fn chapters() -> Vec<String> {
    let mut out = Vec::new();
    for group in ["chapters", "planted"] {
        for lang in ["en", "zh"] {
            let dir = repo_path(&format!("tests/published/{group}/{lang}"));
            for entry in std::fs::read_dir(dir).unwrap() {
                let name = entry.unwrap().file_name().to_string_lossy().to_string();
                if name.ends_with(".md") {
                    out.push(format!("{group}/{lang}/{name}"));
                }
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_keyed_published_chapters_get_no_false_alarm_and_no_false_proof() {
    let key = load_key();
    let files = chapters();
    assert!(files.iter().filter(|f| f.starts_with("chapters/")).count() >= 12, "at least twelve chapters: {files:?}");
    let mut failures = Vec::new();
    let (mut keyed, mut decided, mut verified, mut refuted, mut planted, mut planted_refuted) = (0, 0, 0, 0, 0, 0);
    for file in &files {
        let path = repo_path(&format!("tests/published/{file}"));
        let by_line = claims_by_line(&report_of(&["check", path.to_str().unwrap(), "--format", "json", "--no-cache"]));
        // A planted copy is keyed where it was edited; elsewhere it is its chapter.
        let original = file.replacen("planted/", "chapters/", 1);
        let key_of = |line: u64| key.get(&(file.clone(), line)).or_else(|| key.get(&(original.clone(), line)));
        for (line, got) in &by_line {
            let Some(k) = key_of(*line) else {
                failures.push(format!("{file}:{line}: claims {:?} on a line the key does not know", got[0].tex));
                continue;
            };
            failures.extend(judge_keyed_line(&format!("{file}:{line}"), &k.key, got));
        }
        let own: Vec<(&(String, u64), &Keyed)> = key.iter().filter(|((f, _), _)| f == file).collect();
        let lines: Vec<(u64, &Keyed)> = own.iter().map(|((_, l), k)| (*l, *k)).collect();
        for (line, k) in lines {
            if k.key != "true" && k.key != "false" {
                continue;
            }
            keyed += 1;
            let got = by_line.get(&line).map(Vec::as_slice).unwrap_or_default();
            let is_decided = keyed_line_decided(&k.key, got);
            if file.starts_with("planted/") {
                planted += 1;
                planted_refuted += usize::from(is_decided);
            }
            if is_decided {
                decided += 1;
                if k.key == "true" {
                    verified += 1;
                } else {
                    refuted += 1;
                }
            }
        }
    }
    println!(
        "keyed published lines: {keyed} true or false, {decided} decided ({verified} verified, {refuted} refuted); planted errors refuted: {planted_refuted} of {planted}; false alarms and false proofs: {}",
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // The figure the guide states (docs/guide/src/published-text.md); it may rise, never fall.
    assert!(decided >= 88, "{decided} keyed lines decided, docs/guide/src/published-text.md says 88");
    assert!(planted >= 20 && planted_refuted == planted, "every planted error refuted: {planted_refuted} of {planted}");
}

#[test]
fn the_key_covers_every_keyed_file_and_only_existing_lines() {
    let key = load_key();
    let files = chapters();
    for (file, line) in key.keys() {
        assert!(files.contains(file), "{file} is keyed but not in tests/published");
        let text = std::fs::read_to_string(repo_path(&format!("tests/published/{file}"))).unwrap();
        assert!((*line as usize) <= text.lines().count(), "{file}:{line} past the end");
    }
}
