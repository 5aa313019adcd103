//! Golden (snapshot) tests of the reports: the shipped chapter's text report in both languages.
//! Regenerate after an intended change with `UPDATE_GOLDEN=1 cargo test --test golden_reports`.

mod common;
use common::*;

fn golden(name: &str, args: &[&str]) {
    let out = run(args);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", stderr(&out));
    let actual = stdout(&out);
    let path = repo_path(&format!("tests/golden/{name}"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::write(&path, &actual).unwrap();
        return;
    }
    let expected = std::fs::read_to_string(&path)
        .unwrap_or_else(|_| panic!("{} missing: run with UPDATE_GOLDEN=1", path.display()));
    if actual != expected {
        let first = actual.lines().zip(expected.lines()).position(|(a, e)| a != e).unwrap_or(0);
        panic!(
            "{name} differs from the golden file at line {}:\n  got:      {:?}\n  expected: {:?}",
            first + 1,
            actual.lines().nth(first),
            expected.lines().nth(first)
        );
    }
}

#[test]
fn chapter_text_report_english() {
    golden("ch15.en.txt", &["check", "derivations/ch15", "--lang", "en"]);
}

#[test]
fn chapter_text_report_chinese() {
    golden("ch15.zh.txt", &["check", "derivations/ch15", "--lang", "zh"]);
}

#[test]
fn chapter_formulas_listing() {
    golden("ch15.formulas.txt", &["formulas", "derivations/ch15"]);
}
