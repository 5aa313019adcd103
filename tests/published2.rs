//! The keyed chapters of `../shared/published2/` (sources nobody tuned derivcheck for), held to
//! `tests/published2/keys/<source>.toml`, whose SymPy checks `check_key.py` runs on its own.
//!
//! The chapters are read where they are (several carry no licence to copy them); the repository
//! keeps only their keys. derivcheck runs on each keyed chapter with no spec, as a new user would:
//! every line it reads a claim on is keyed; a REFUTED verdict on a line not keyed `false` is a false
//! alarm, a line keyed `false` whose claims all verify is a false proof. Then each chapter's
//! planted errors (`[[plant]]`: one edit on a line derivcheck verifies) are applied to a temporary
//! copy, and each must be refuted at its line, with no new refutation elsewhere. The figures are
//! printed per source and may not fall below `DECIDED_AT_LEAST` (stated in the guide,
//! `docs/guide/src/published-text.md`, "Keyed chapters of published2").

mod common;
use common::*;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// What the key says of one line.
struct Keyed {
    key: String,
}

/// One planted error: on `line` of `file`, `from` replaced by `to`.
struct Plant {
    file: String,
    line: u64,
    from: String,
    to: String,
}

struct Key {
    lines: BTreeMap<(String, u64), Keyed>,
    plants: Vec<Plant>,
}

/// Keyed lines decided per source, at least: the figures the guide states; they may rise, never fall.
const DECIDED_AT_LEAST: &[(&str, usize)] = &[
    ("coursera-ml-ng-zh", 14),
    ("dl500q", 22),
    ("karpathy", 3),
    ("lihang", 22),
    ("luweiagi-ml-notes", 39),
    ("mbernste", 27),
    ("quantecon-intro", 25),
];

/// Planted errors, at least (each must be refuted at its line).
const PLANTS_AT_LEAST: usize = 46;

fn load_keys() -> Key {
    let mut key = Key { lines: BTreeMap::new(), plants: Vec::new() };
    let dir = repo_path("tests/published2/keys");
    let mut paths: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    paths.sort();
    for path in paths.iter().filter(|p| p.extension().is_some_and(|e| e == "toml")) {
        let table: toml::Table = std::fs::read_to_string(path).unwrap().parse().unwrap();
        let text = |entry: &toml::Value, field: &str| entry[field].as_str().unwrap().to_string();
        for entry in table.get("line").and_then(|v| v.as_array()).into_iter().flatten() {
            let (file, line) = (text(entry, "file"), entry["line"].as_integer().unwrap() as u64);
            let k = text(entry, "key");
            assert!(
                ["true", "false", "condition", "definition", "skip"].contains(&k.as_str()),
                "{file}:{line}: key `{k}`"
            );
            assert!(key.lines.insert((file.clone(), line), Keyed { key: k }).is_none(), "{file}:{line} keyed twice");
        }
        for entry in table.get("plant").and_then(|v| v.as_array()).into_iter().flatten() {
            key.plants.push(Plant {
                file: text(entry, "file"),
                line: entry["line"].as_integer().unwrap() as u64,
                from: text(entry, "from"),
                to: text(entry, "to"),
            });
        }
    }
    key
}

fn source_of(file: &str) -> &str {
    file.split('/').next().unwrap()
}

/// The chapter's claims by line, checked with no spec and no cache.
fn check_chapter(path: &Path) -> BTreeMap<u64, Vec<Got>> {
    claims_by_line(&report_of(&["check", path.to_str().unwrap(), "--format", "json", "--no-cache"]))
}

/// A copy of `text` with the plants applied, each on its own line (line numbers do not move).
fn planted_copy(file: &str, text: &str, plants: &[&Plant]) -> String {
    let mut lines: Vec<String> = text.split('\n').map(str::to_string).collect();
    for plant in plants {
        let line = &mut lines[plant.line as usize - 1];
        assert_eq!(
            line.matches(&plant.from).count(),
            1,
            "{file}:{}: `{}` not once on the line",
            plant.line,
            plant.from
        );
        *line = line.replacen(&plant.from, &plant.to, 1);
    }
    lines.join("\n")
}

/// Per source: keyed true/false lines, decided lines, plants, plants refuted.
#[derive(Default)]
struct Figures {
    keyed: usize,
    decided: usize,
    plants: usize,
    plants_refuted: usize,
}

#[test]
fn the_keyed_published2_chapters_get_no_false_alarm_and_no_false_proof() {
    let Some(shared) = shared_dir() else { return };
    let published = shared.join("published2");
    let key = load_keys();
    let files: BTreeSet<&String> = key.lines.keys().map(|(f, _)| f).collect();
    let sources: BTreeSet<&str> = files.iter().map(|f| source_of(f)).collect();
    assert!(sources.len() >= 6, "keys from at least six sources: {sources:?}");
    let mut failures = Vec::new();
    let mut figures: BTreeMap<&str, Figures> = BTreeMap::new();
    let tmp = tempfile::tempdir().unwrap();
    for file in &files {
        let fig = figures.entry(source_of(file)).or_default();
        let path = published.join(file);
        let by_line = check_chapter(&path);
        for (line, got) in &by_line {
            match key.lines.get(&((*file).clone(), *line)) {
                None => {
                    failures.push(format!("{file}:{line}: claims {:?} on a line the key does not know", got[0].tex))
                }
                Some(k) => failures.extend(judge_keyed_line(&format!("{file}:{line}"), &k.key, got)),
            }
        }
        for ((_, line), k) in key.lines.iter().filter(|((f, _), k)| f == *file && (k.key == "true" || k.key == "false"))
        {
            fig.keyed += 1;
            let got = by_line.get(line).map(Vec::as_slice).unwrap_or_default();
            fig.decided += usize::from(keyed_line_decided(&k.key, got));
        }
        let plants: Vec<&Plant> = key.plants.iter().filter(|p| &&p.file == file).collect();
        if plants.is_empty() {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let dir = tmp.path().join(source_of(file));
        std::fs::create_dir_all(&dir).unwrap();
        let copy = dir.join(path.file_name().unwrap());
        std::fs::write(&copy, planted_copy(file, &text, &plants)).unwrap();
        let planted_lines = check_chapter(&copy);
        let planted_at: BTreeSet<u64> = plants.iter().map(|p| p.line).collect();
        for (line, got) in &planted_lines {
            let at = format!("{file} (planted):{line}");
            if planted_at.contains(line) {
                continue;
            }
            match key.lines.get(&((*file).clone(), *line)) {
                None => failures.push(format!("{at}: claims {:?} on a line the key does not know", got[0].tex)),
                Some(k) => failures.extend(judge_keyed_line(&at, &k.key, got)),
            }
        }
        for plant in plants {
            fig.plants += 1;
            let got = planted_lines.get(&plant.line).map(Vec::as_slice).unwrap_or_default();
            if keyed_line_decided("false", got) {
                fig.plants_refuted += 1;
            } else {
                failures.push(format!(
                    "{file}:{}: planted error `{}` → `{}` not refuted",
                    plant.line, plant.from, plant.to
                ));
            }
        }
    }
    let mut total = Figures::default();
    for (source, fig) in &figures {
        println!(
            "{source}: {} keyed true or false, {} decided ({:.0} %); planted errors refuted: {} of {}",
            fig.keyed,
            fig.decided,
            100.0 * fig.decided as f64 / fig.keyed.max(1) as f64,
            fig.plants_refuted,
            fig.plants
        );
        total.keyed += fig.keyed;
        total.decided += fig.decided;
        total.plants += fig.plants;
        total.plants_refuted += fig.plants_refuted;
    }
    println!(
        "published2 keyed: {} lines true or false, {} decided; planted errors refuted: {} of {}; false alarms, false proofs and unkeyed claims: {}",
        total.keyed,
        total.decided,
        total.plants_refuted,
        total.plants,
        failures.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (source, floor) in DECIDED_AT_LEAST {
        let decided = figures.get(source).map_or(0, |f| f.decided);
        assert!(decided >= *floor, "{source}: {decided} keyed lines decided, the guide says {floor}");
    }
    assert!(total.plants >= PLANTS_AT_LEAST, "{} planted errors, the guide says {PLANTS_AT_LEAST}", total.plants);
}

#[test]
fn the_published2_keys_name_existing_lines_and_plants_keyed_true() {
    let Some(shared) = shared_dir() else { return };
    let key = load_keys();
    for (file, line) in key.lines.keys() {
        let text = std::fs::read_to_string(shared.join("published2").join(file))
            .unwrap_or_else(|e| panic!("{file} is keyed but not readable in ../shared/published2: {e}"));
        assert!((*line as usize) <= text.split('\n').count(), "{file}:{line} past the end");
    }
    for plant in &key.plants {
        let keyed = key.lines.get(&(plant.file.clone(), plant.line)).map(|k| k.key.as_str());
        assert_eq!(keyed, Some("true"), "{}:{}: a plant goes on a line keyed true", plant.file, plant.line);
    }
}
