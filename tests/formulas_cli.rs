//! `derivcheck formulas`: the real binary on the seed chapter, the d2l corpus and hostile input.

mod common;
use common::*;
use std::time::Duration;

#[test]
fn seed_has_59_formulas_all_parsed() {
    let Some(seed) = seed_path() else { return };
    let out = run(&["formulas", seed.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    assert_eq!(v["summary"]["formulas"], 59);
    assert_eq!(v["summary"]["parsed"], 59);
    let formulas = v["files"][0]["formulas"].as_array().unwrap();
    assert!(formulas.iter().all(|f| f["parsed"] == true && f["error"].is_null()));
}

#[test]
fn seed_positions_are_line_and_character_column() {
    let Some(seed) = seed_path() else { return };
    let v = json(&run(&["formulas", seed.to_str().unwrap(), "--format", "json"]));
    let formulas = v["files"][0]["formulas"].as_array().unwrap();
    let find = |tex_start: &str| {
        formulas
            .iter()
            .find(|f| f["tex"].as_str().unwrap().starts_with(tex_start))
            .unwrap_or_else(|| panic!("{tex_start}"))
    };
    // `设 $D=\sum_r e^{s_r}$ ， $a_j=e^{s_j}/D$` on line 11: columns count characters, not bytes.
    let d = find("D=\\sum_r");
    assert_eq!((d["line"].as_u64(), d["col"].as_u64()), (Some(11), Some(3)));
    let a = find("a_j=e^{s_j}/D");
    assert_eq!((a["line"].as_u64(), a["col"].as_u64()), (Some(11), Some(24)));
    let s = find("\\bar S_{ij}");
    assert_eq!((s["line"].as_u64(), s["col"].as_u64()), (Some(53), Some(1)));
    let eps = find("\\epsilon=10^{-5}");
    assert_eq!(eps["line"].as_u64(), Some(83));
    assert_eq!(eps["section"], "15.4");
    assert_eq!(eps["section_title"], "小模型其余参数的梯度");
}

#[test]
fn seed_every_formula_is_in_its_section() {
    let Some(seed) = seed_path() else { return };
    // Title lines of the seed's sections (read off the file by hand).
    let starts = [
        (9, "15.1"),
        (23, "15.2"),
        (35, "15.3"),
        (69, "15.4"),
        (85, "15.5"),
        (119, "15.6"),
        (133, "15.7"),
        (143, "15.8"),
        (153, "15.9"),
    ];
    let v = json(&run(&["formulas", seed.to_str().unwrap(), "--format", "json"]));
    let mut per_section = std::collections::BTreeMap::new();
    for f in v["files"][0]["formulas"].as_array().unwrap() {
        let line = f["line"].as_u64().unwrap();
        let expected = starts.iter().rev().find(|(l, _)| *l as u64 <= line).map(|(_, s)| *s).unwrap();
        assert_eq!(f["section"], expected, "formula at line {line}");
        *per_section.entry(expected).or_insert(0) += 1;
    }
    assert_eq!(per_section.get("15.1"), Some(&4));
    assert_eq!(per_section.get("15.3"), Some(&13));
    assert_eq!(per_section.get("15.5"), Some(&17));
}

#[test]
fn text_format_lists_and_summarises() {
    let Some(seed) = seed_path() else { return };
    let out = run(&["formulas", seed.to_str().unwrap(), "--ast"]);
    let text = stdout(&out);
    assert!(text.contains("summary: 59 formulas, 59 parsed, 0 failed (100.0% parsed)"), "{text}");
    assert!(text.contains("(= (_ \\bar{W} O) (* (T Z) \\bar{R}))"), "{text}");
}

#[test]
fn shipped_chapter_folder_parses_both_languages() {
    let out = run(&["formulas", "derivations/ch15", "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let v = json(&out);
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 2);
    for f in files {
        let n = f["formulas"].as_array().unwrap().len();
        assert_eq!(n, 59, "{}", f["path"]);
        assert!(f["formulas"].as_array().unwrap().iter().all(|x| x["parsed"] == true), "{}", f["path"]);
    }
}

#[test]
fn corpus_parses_at_least_90_percent_with_diagnostics_for_the_rest() {
    let Some(shared) = shared_dir() else { return };
    let (mut total, mut parsed) = (0u64, 0u64);
    for lang in ["d2l-zh", "d2l-en"] {
        for entry in std::fs::read_dir(shared.join("corpus").join(lang)).unwrap() {
            let path = entry.unwrap().path();
            let out = run(&["formulas", path.to_str().unwrap(), "--format", "json"]);
            assert_eq!(out.status.code(), Some(0), "{}: {}", path.display(), stderr(&out));
            let v = json(&out);
            total += v["summary"]["formulas"].as_u64().unwrap();
            parsed += v["summary"]["parsed"].as_u64().unwrap();
            for f in v["files"][0]["formulas"].as_array().unwrap() {
                if f["parsed"] == false {
                    assert!(f["error"].as_str().is_some_and(|e| !e.is_empty()));
                    assert!(f["error_line"].as_u64().is_some() && f["error_col"].as_u64().is_some());
                }
            }
        }
    }
    let rate = parsed as f64 / total as f64;
    eprintln!("corpus: {parsed}/{total} formulas parsed ({:.1}%)", 100.0 * rate);
    assert!(total > 500, "corpus formulas found: {total}");
    assert!(rate >= 0.90, "parse rate {rate}");
}

fn write_temp(name: &str, bytes: &[u8]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(name);
    std::fs::write(&path, bytes).unwrap();
    (dir, path.to_str().unwrap().to_string())
}

/// Hostile input ends promptly (the limit only catches hangs; speed is a benchmark matter).
fn hostile(name: &str, bytes: &[u8]) -> std::process::Output {
    let (_dir, path) = write_temp(name, bytes);
    let out = run_with_limit(&["formulas", &path, "--format", "json"], Duration::from_secs(20));
    assert!(out.status.code().is_some(), "killed by a signal: {out:?}");
    assert!(!stderr(&out).contains("panicked"), "{}", stderr(&out));
    out
}

fn only_error(out: &std::process::Output) -> String {
    let v = json(out);
    let f = &v["files"][0]["formulas"][0];
    assert_eq!(f["parsed"], false);
    f["error"].as_str().unwrap().to_string()
}

#[test]
fn not_utf8_is_bad_input_with_position() {
    let out = hostile("bad.md", b"line one\nok $a$ \xff\xfe\n");
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.md:2:8: file is not valid UTF-8"), "{}", stderr(&out));
}

#[test]
fn empty_file_has_no_formulas() {
    let out = hostile("empty.md", b"");
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(json(&out)["summary"]["formulas"], 0);
    assert!(stderr(&out).contains("no formulas found"));
}

#[test]
fn one_megabyte_formula_is_refused() {
    let out = hostile("big.md", format!("${}a$\n", "a+".repeat(512 * 1024)).as_bytes());
    assert!(only_error(&out).contains("formula too large"));
}

#[test]
fn ten_thousand_nested_braces_are_refused() {
    let out = hostile("braces.md", format!("${}x{}$\n", "{".repeat(10_000), "}".repeat(10_000)).as_bytes());
    assert!(only_error(&out).contains("nested too deeply"));
}

#[test]
fn ten_thousand_nested_fracs_are_refused() {
    let tex = format!("${}1{}$\n", "\\frac{".repeat(10_000), "}{2}".repeat(10_000));
    assert!(only_error(&hostile("fracs.md", tex.as_bytes())).contains("formula"));
    let tex = format!("${}12$\n", "\\frac".repeat(10_000));
    assert!(only_error(&hostile("fracs2.md", tex.as_bytes())).contains("nested too deeply"));
}

#[test]
fn unknown_command_is_named_at_its_column() {
    let out = hostile("unknown.md", "文字 $a+\\foo{x}$\n".as_bytes());
    let v = json(&out);
    let f = &v["files"][0]["formulas"][0];
    assert_eq!(f["error"], "unknown command `\\foo`");
    assert_eq!((f["error_line"].as_u64(), f["error_col"].as_u64()), (Some(1), Some(7)));
}

#[test]
fn unclosed_bmatrix_is_named() {
    let out = hostile("unclosed.md", b"$$\\begin{bmatrix}1&2\\\\3&4$$\n");
    assert!(only_error(&out).contains("`\\begin{bmatrix}` is never closed"));
}

#[test]
fn lone_dollar_is_warned() {
    let out = hostile("lone.md", b"price $5 today\n\nthen $x$\n");
    let v = json(&out);
    assert_eq!(v["summary"]["formulas"], 1);
    assert_eq!(v["files"][0]["warnings"][0]["line"], 1);
    assert_eq!(v["files"][0]["warnings"][0]["col"], 7);
}

#[test]
fn missing_file_and_bad_usage_exit_2() {
    let out = run(&["formulas", "no/such/file.md"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("no/such/file.md"));
    assert_eq!(run(&["formulas"]).status.code(), Some(2));
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}
