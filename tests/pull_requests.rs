//! Where authors review: `--format sarif` (valid SARIF 2.1.0, one result per finding) and
//! `--format github` (workflow commands), and terminal diagnostics that fit the screen on a
//! chapter written as one long line per paragraph.

mod common;
use common::{run, stdout};

/// A chapter with a slip (refuted, with a verified repair), a claim derivcheck cannot decide and
/// a right one, each paragraph one long line.
fn chapter() -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let filler =
        "This paragraph is written as one long line, as editors export prose and as most Chinese notes are written. "
            .repeat(20);
    let text = format!(
        "# 1 Squares\n\n{filler}So $(a+b)^2 = a^2 + b^2$ and then {filler}\n\n{filler}Also $\\frac{{d}}{{dx}} x^3 = 3x^2$, and $y_t = Q(y_{{t-1}}) = R(y_{{t-2}})$ {filler}\n\n数学{}然后 $\\sin(2x) = 2\\sin x$。\n",
        "很长的一段话，没有空格。".repeat(180)
    );
    let path = dir.path().join("notes.md");
    std::fs::write(&path, &text).unwrap();
    (dir, path.display().to_string())
}

#[test]
fn sarif_validates_against_the_schema_and_has_a_result_per_finding() {
    let (_dir, path) = chapter();
    let out = run(&["check", &path, "--no-cache", "--format", "sarif"]);
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    let log: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    // (The schema as OASIS publishes it, vendored: tests/data/README.md.)
    let schema_path = common::repo_path("tests/data/sarif-schema-2.1.0.json");
    let mut schemas = boon::Schemas::new();
    let schema =
        boon::Compiler::new().compile(schema_path.to_str().unwrap(), &mut schemas).expect("the schema compiles");
    if let Err(error) = schemas.validate(&log, schema) {
        panic!("not valid SARIF 2.1.0: {error:#}");
    }
    // (And the validator is not a rubber stamp: a result without a message is refused.)
    let mut broken = log.clone();
    broken["runs"][0]["results"][0].as_object_mut().unwrap().remove("message");
    assert!(schemas.validate(&broken, schema).is_err());

    let report = common::report_of(&["check", &path, "--no-cache", "--format", "json"]);
    let claims = common::all_claims(&report);
    let findings = claims.iter().filter(|c| c["verdict"] != "verified").count();
    let results = log["runs"][0]["results"].as_array().unwrap();
    let of_claims: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r["ruleId"].as_str().is_some_and(|id| id.starts_with("refuted.") || id.starts_with("undecided.")))
        .collect();
    assert_eq!(of_claims.len(), findings, "{results:#?}");
    let undecided = of_claims.iter().find(|r| r["level"] == "warning").expect("the undecided claim is a result");
    assert!(undecided["ruleId"].as_str().unwrap().starts_with("undecided."), "{undecided:#}");
    // The slip: an error at its line and columns, with the verified repair as a fix.
    let slip = of_claims.iter().find(|r| r["level"] == "error").expect("the slip is a result");
    let region = &slip["locations"][0]["physicalLocation"]["region"];
    let line3 = std::fs::read_to_string(&path).unwrap().lines().nth(2).unwrap().to_string();
    let column = line3.chars().take_while(|&c| c != '$').count() as u64 + 2;
    assert_eq!((region["startLine"].as_u64(), region["startColumn"].as_u64()), (Some(3), Some(column)), "{slip:#}");
    let fix = &slip["fixes"][0]["artifactChanges"][0]["replacements"][0]["insertedContent"]["text"];
    assert!(fix.as_str().is_some_and(|t| t.contains("2 a b")), "{slip:#}");
    let rules = log["runs"][0]["tool"]["driver"]["rules"].as_array().unwrap();
    for r in results {
        let index = r["ruleIndex"].as_u64().unwrap() as usize;
        assert_eq!(rules[index]["id"], r["ruleId"], "each result names its rule");
    }
}

#[test]
fn github_format_annotates_each_finding_on_its_line() {
    let (_dir, path) = chapter();
    let out = run(&["check", &path, "--no-cache", "--format", "github"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.iter().all(|l| l.starts_with("::error ") || l.starts_with("::warning ") || l.starts_with("::notice ")),
        "{text}"
    );
    let slip = lines.iter().find(|l| l.starts_with("::error ")).expect("the slip is an error");
    assert!(slip.starts_with(&format!("::error file={},line=3,endLine=3,col=", path.replace(':', "%3A"))), "{slip}");
    assert!(slip.contains("title=REFUTED 1#1::") && slip.contains("did you mean"), "{slip}");
    let sin = lines.iter().find(|l| l.contains("line=7")).expect("the Chinese paragraph's slip");
    assert!(sin.starts_with("::error "), "{sin}");
    assert!(lines.iter().all(|l| !l.contains('\r')), "one command per line");
}

/// Display columns (a CJK character takes two).
fn columns(line: &str) -> usize {
    line.chars()
        .map(|c| if ('\u{2e80}'..='\u{9fff}').contains(&c) || ('\u{ff00}'..='\u{ffef}').contains(&c) { 2 } else { 1 })
        .sum()
}

#[test]
fn diagnostics_fit_the_screen_on_a_chapter_of_long_lines() {
    let (_dir, path) = chapter();
    let long = std::fs::read_to_string(&path).unwrap().lines().map(columns).max().unwrap();
    assert!(long > 4000, "the test needs a 4,000-column line, has {long}");
    for lang in ["en", "zh"] {
        let out = run(&["check", &path, "--no-cache", "--lang", lang]);
        let text = stdout(&out);
        assert!(text.contains("^^^"), "the snippets are drawn: {text}");
        // Every line of the diagnostics (before the totals): not a terminal, so 120 columns
        // besides the gutter `NN │ `.
        let gutter = 6;
        let diagnostics: Vec<&str> = text.lines().take_while(|l| !l.starts_with(&path)).collect();
        assert!(diagnostics.iter().filter(|l| l.contains('┌')).count() >= 2, "both slips drawn: {text}");
        for line in diagnostics {
            assert!(columns(line) <= 120 + gutter, "{} columns: {line}", columns(line));
        }
        assert!(text.contains("…"), "a clipped line is marked: {text}");
        let slip = text.lines().find(|l| l.contains("(a+b)^2")).expect("the slip's line is shown");
        assert!(slip.starts_with("3 │ …"), "{slip}");
    }
}

#[test]
fn repeated_warnings_at_one_line_are_said_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.md");
    std::fs::write(&path, "# 1 A\n\n$$u_t = Q(u_{t-1}) = R(u_{t-2}) = S(u_{t-3})$$\n").unwrap();
    let path = path.to_str().unwrap();
    let report = common::report_of(&["check", path, "--no-cache", "--format", "json"]);
    let undecided: Vec<String> = common::all_claims(&report)
        .iter()
        .filter(|c| c["verdict"] == "undecided")
        .map(|c| c["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(undecided, ["1#1.2", "1#1.3"], "{report:#}");
    let text = stdout(&run(&["check", path, "--no-cache"]));
    let headlines: Vec<&str> = text.lines().filter(|l| l.starts_with("warning: undecided")).collect();
    assert_eq!(headlines, ["warning: undecided 1#1.2, 1#1.3"], "{text}");
    // Each is still a finding of its own where a tool reads them.
    let github = stdout(&run(&["check", path, "--no-cache", "--format", "github"]));
    assert_eq!(github.lines().filter(|l| l.starts_with("::warning ")).count(), 2, "{github}");
}
