//! The notation suite: `tests/notation/*.md`, each line marked with the verdict it must get,
//! checked by the real binary with the spec of the same name. See `tests/notation/README.md`.

mod common;
use common::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// Verdicts, and the roles of formulas that claim nothing (or nothing that could fail):
/// `binding` (a value for the sentence that follows), `condition` (an equation to solve, or a
/// chain whose only false link is one), `example` (a letter given a new meaning), `skipped`
/// (a relation not checked: intervals, `<`), `ignored` (the author's `skip` mark, or the spec's
/// `ignore`).
const WORDS: [&str; 10] = [
    "verified",
    "refuted",
    "undecided",
    "unsupported",
    "definition",
    "binding",
    "condition",
    "example",
    "skipped",
    "ignored",
];

/// The expectation written at the start of a line (`- verified: $…$`) or at its end, as an
/// HTML comment an author's reader never sees (`… $…$ <!-- refuted -->`).
fn expectation(line: &str) -> Option<&'static str> {
    if let Some(rest) = line.trim_start().strip_prefix("- ") {
        if let Some(word) = WORDS.into_iter().find(|word| rest.starts_with(&format!("{word}:"))) {
            return Some(word);
        }
    }
    let comment = line.trim_end().strip_suffix("-->")?;
    let word = comment[comment.rfind("<!--")? + 4..].trim();
    WORDS.into_iter().find(|w| *w == word)
}

/// What one line got: the verdicts of its claims and whether its formulas parsed.
#[derive(Default, Debug)]
struct Got {
    verdicts: Vec<String>,
    unparsed: bool,
    /// The roles of the line's formulas (`claims`, `binding`, …).
    roles: Vec<String>,
    /// Claims left undecided because the words around them read the formula as a condition.
    conditions: usize,
}

fn got_by_line(report: &Value) -> BTreeMap<u64, Got> {
    let mut out: BTreeMap<u64, Got> = BTreeMap::new();
    for file in report["files"].as_array().unwrap() {
        for f in file["formulas"].as_array().unwrap() {
            let got = out.entry(f["line"].as_u64().unwrap()).or_default();
            got.unparsed |= f["parsed"] == false;
            got.roles.push(f["role"].as_str().unwrap_or_default().to_string());
        }
        for c in file["claims"].as_array().unwrap().iter().filter(|c| c["source"] == "notes") {
            let got = out.entry(c["line"].as_u64().unwrap()).or_default();
            got.verdicts.push(c["verdict"].as_str().unwrap().to_string());
        }
        // A link read as a condition claims nothing: it is counted, not a verdict.
        for c in file["conditions"].as_array().unwrap().iter().filter(|c| c["source"] == "notes") {
            out.entry(c["line"].as_u64().unwrap()).or_default().conditions += 1;
        }
    }
    out
}

/// `refuted`: some claim refuted and none undecided (a chain may hold true links);
/// `verified`/`undecided`: every claim so; `unsupported`: never verified or refuted.
fn matches(expected: &str, got: &Got) -> bool {
    let all = |v: &str| !got.verdicts.is_empty() && got.verdicts.iter().all(|g| g == v);
    match expected {
        "verified" => all("verified") && !got.unparsed,
        "undecided" => all("undecided"),
        "refuted" => got.verdicts.iter().any(|g| g == "refuted") && !got.verdicts.iter().any(|g| g == "undecided"),
        "unsupported" => (got.unparsed || !got.verdicts.is_empty()) && got.verdicts.iter().all(|g| g == "undecided"),
        "definition" => {
            got.verdicts.is_empty()
                && got.conditions == 0
                && !got.unparsed
                && got.roles.iter().all(|r| r == "definition" || r == "mention")
        }
        "binding" | "example" | "skipped" | "ignored" => {
            let role = match expected {
                "binding" => "binding",
                "example" => "example_definition",
                "ignored" => "ignored",
                _ => "not_checked",
            };
            got.verdicts.is_empty()
                && got.conditions == 0
                && got.roles.iter().any(|r| r == role)
                && got.roles.iter().all(|r| r == role || r == "mention")
        }
        // Nothing refuted, and at least one relation read as a condition (a chain's true links
        // may still verify: `0 = (2-\lambda)(3-\lambda)-2 = (4-\lambda)(1-\lambda)`).
        "condition" => {
            !got.verdicts.iter().any(|g| g == "refuted")
                && (got.conditions > 0 || (!got.roles.is_empty() && got.roles.iter().all(|r| r == "condition")))
        }
        _ => false,
    }
}

#[test]
fn every_marked_formula_gets_its_verdict() {
    let mut files = Vec::new();
    for dir in ["tests/notation", "tests/chapters"] {
        let found = std::fs::read_dir(repo_path(dir)).unwrap().map(|e| e.unwrap().path());
        files.extend(
            found.filter(|p| {
                p.extension().is_some_and(|x| x == "md") && p.file_name().is_some_and(|n| n != "README.md")
            }),
        );
    }
    files.sort();
    assert!(files.len() >= 10, "the suite is there: {files:?}");
    let mut failures = Vec::new();
    let mut cases = 0;
    for notes in &files {
        // A chapter without a `.toml` beside it is checked with no spec at all.
        let spec = notes.with_extension("toml");
        let mut args = vec!["check", notes.to_str().unwrap(), "--format", "json"];
        if spec.is_file() {
            args.extend(["--spec", spec.to_str().unwrap()]);
        }
        let got = got_by_line(&report_of(&args));
        let text = std::fs::read_to_string(notes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        // A claim on a line that says nothing would go unchecked: every one is marked.
        for (line, g) in &got {
            let marked = lines.get(*line as usize - 1).is_some_and(|l| expectation(l).is_some());
            if !marked && (!g.verdicts.is_empty() || g.unparsed) {
                let name = notes.file_name().unwrap().to_string_lossy();
                failures.push(format!("{name}:{line}: claims {:?} on a line without an expected verdict", g.verdicts));
            }
        }
        for (k, line) in text.lines().enumerate() {
            let Some(expected) = expectation(line) else { continue };
            cases += 1;
            let empty = Got::default();
            let g = got.get(&(k as u64 + 1)).unwrap_or(&empty);
            if !matches(expected, g) {
                let name = notes.file_name().unwrap().to_string_lossy();
                failures.push(format!(
                    "{name}:{}: expected {expected}, got {:?}{}  {}",
                    k + 1,
                    g.verdicts,
                    if g.unparsed { " (not parsed)" } else { "" },
                    line.trim()
                ));
            }
        }
    }
    assert!(cases >= 100, "{cases} cases");
    assert!(failures.is_empty(), "{} of {cases} notation cases wrong:\n{}", failures.len(), failures.join("\n"));
}

/// The guide's chapter on reading formulas (`docs/guide/src/notation.md`).
const GUIDE_CHAPTER: &str = "docs/guide/src/notation.md";

/// The text of the guide's chapter between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
fn guide_section(name: &str) -> String {
    let guide = std::fs::read_to_string(repo_path(GUIDE_CHAPTER)).unwrap();
    let (start, end) = (format!("<!-- {name}:start -->\n"), format!("<!-- {name}:end -->"));
    let from = guide.find(&start).unwrap_or_else(|| panic!("{GUIDE_CHAPTER} has the {name} markers")) + start.len();
    let to = guide[from..].find(&end).expect("end marker") + from;
    guide[from..to].to_string()
}

/// The guide's chapter on reading formulas shows the table `derivcheck notation` prints.
#[test]
fn the_guide_shows_the_notation_table_of_the_code() {
    assert_eq!(
        guide_section("notation-table"),
        derivcheck::notation::markdown_table(),
        "the guide's notation table ({GUIDE_CHAPTER}) differs from src/notation.rs: paste the output of `derivcheck notation` between the markers"
    );
}

/// The same chapter shows the catalogue of readings `derivcheck notation` prints after the table,
/// and the command prints both.
#[test]
fn the_guide_and_the_command_show_the_catalogue_of_readings() {
    let catalogue = derivcheck::report::readings_table();
    assert_eq!(
        guide_section("readings-table"),
        catalogue,
        "the guide's catalogue of readings ({GUIDE_CHAPTER}) differs from the code: paste it from `derivcheck notation`"
    );
    let printed = std::process::Command::new(env!("CARGO_BIN_EXE_derivcheck")).arg("notation").output().unwrap();
    let printed = String::from_utf8(printed.stdout).unwrap();
    assert!(printed.starts_with(&derivcheck::notation::markdown_table()) && printed.ends_with(&catalogue));
    assert!(catalogue.contains("| `shape_from_use` |") && catalogue.contains("| `condition` |"), "{catalogue}");
}

#[test]
fn every_example_of_the_notation_table_is_verified() {
    let dir = tempfile::tempdir().unwrap();
    let (notes, spec) = (dir.path().join("examples.md"), dir.path().join("examples.toml"));
    let examples: Vec<&str> =
        derivcheck::notation::NOTATION.iter().map(|n| n.example).filter(|e| !e.is_empty()).collect();
    let body: Vec<String> = examples.iter().map(|e| format!("$${e}$$\n")).collect();
    // (Some readings depend on the words: `H(X)` is an entropy where the notes speak of entropy.)
    let words = "Examples of every construct of the notation table: sums, calculus, probability and entropy.";
    std::fs::write(&notes, format!("## 1 Examples\n\n{words}\n\n{}", body.join("\n"))).unwrap();
    std::fs::write(&spec, derivcheck::notation::EXAMPLE_SPEC).unwrap();
    let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "json"]);
    let report = json(&out);
    let claims = all_claims(&report);
    assert!(claims.len() >= examples.len(), "every example makes a claim: {claims:#?}");
    for c in claims {
        assert_eq!(c["verdict"], "verified", "{c:#}");
    }
}

/// The logistic-regression chapters are checked from their own text: their specs give only
/// sizes and shapes, and each has a planted wrong formula refuted at its line.
#[test]
fn the_logistic_regression_chapters_need_only_sizes_and_shapes() {
    for lang in ["en", "zh"] {
        let spec_path = repo_path(&format!("tests/chapters/logreg.{lang}.toml"));
        let spec: toml::Table = std::fs::read_to_string(&spec_path).unwrap().parse().unwrap();
        for (_, section) in spec["section"].as_table().unwrap() {
            for key in section.as_table().unwrap().keys() {
                assert!(["sizes", "matrix"].contains(&key.as_str()), "{lang}: `{key}` is more than sizes and shapes");
            }
        }
        let notes = repo_path(&format!("tests/chapters/logreg.{lang}.md"));
        let out = run(&["check", notes.to_str().unwrap(), "--spec", spec_path.to_str().unwrap(), "--format", "json"]);
        assert_eq!(out.status.code(), Some(1), "a planted error makes the run fail: {}", stderr(&out));
        let report = json(&out);
        let claims = all_claims(&report);
        let text = std::fs::read_to_string(&notes).unwrap();
        let planted: Vec<u64> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.ends_with("<!-- refuted -->"))
            .map(|(k, _)| k as u64 + 1)
            .collect();
        let refuted: Vec<u64> =
            claims.iter().filter(|c| c["verdict"] == "refuted").map(|c| c["line"].as_u64().unwrap()).collect();
        assert_eq!(refuted, planted, "{lang}: refuted exactly at the planted lines");
        assert!(
            claims.iter().filter(|c| c["verdict"] != "refuted").all(|c| c["verdict"] == "verified"),
            "{lang}: {claims:#?}"
        );
        assert!(
            claims.iter().any(|c| c["tex"].as_str().unwrap().contains("\\mathbf 1^\\top")),
            "bias gradient with 1^T"
        );
    }
}
