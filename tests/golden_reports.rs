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
    golden("ch15.en.txt", &["check", "derivations/ch15", "--lang", "en", "--format", "lines"]);
}

#[test]
fn chapter_text_report_chinese() {
    golden("ch15.zh.txt", &["check", "derivations/ch15", "--lang", "zh", "--format", "lines"]);
}

#[test]
fn chapter_formulas_listing() {
    golden("ch15.formulas.txt", &["formulas", "derivations/ch15"]);
}

/// The Chinese report says everything in Chinese: labels and every reason come from the zh
/// table. Words of three or more Latin letters may appear only in paths, TeX and `code`.
#[test]
fn chinese_reports_have_no_english_sentences() {
    let runs: [&[&str]; 5] = [
        // A recurrence unrolled, and a published chapter's own notation.
        &["check", "tests/published/chapters/zh/rmsprop.md", "--lang", "zh", "--format", "lines", "--no-cache"],
        &["check", "tests/published/chapters/zh/probability.md", "--lang", "zh", "--format", "lines", "--no-cache"],
        &["check", "derivations/ch15", "--lang", "zh", "--format", "lines"],
        &[
            "check",
            "tests/chapters/logreg.zh.md",
            "--spec",
            "tests/chapters/logreg.zh.toml",
            "--lang",
            "zh",
            "--format",
            "lines",
        ],
        &[
            "check",
            "tests/notation/outside.md",
            "--spec",
            "tests/notation/outside.toml",
            "--lang",
            "zh",
            "--format",
            "lines",
        ],
    ];
    for args in runs {
        let text = stdout(&run(args));
        for line in text.lines() {
            // A path in a verdict (where a recurrence is written) is the author's name.
            let without_paths =
                |column: &str| column.split(' ').filter(|w| !w.contains(".md:")).collect::<Vec<_>>().join(" ");
            let line = &line.split('\t').map(without_paths).collect::<Vec<_>>().join("\t");
            // The location, section and id columns are the author's names, not ours.
            let shown: Vec<&str> = line.split('\t').collect();
            let body = match shown.len() {
                6.. => shown[2..5].join("\t"),
                3 => shown[1..].join("\t"), // location, `注`, the note
                _ => line.to_string(),
            };
            let english = english_words(&body, &["CAS", "spec", "derivcheck"]);
            assert!(english.is_empty(), "English {english:?} in: {line}");
        }
    }
}

/// The text format under `--lang zh`: codespan's headers (`错误`, `警告`), the verdicts, a formula
/// that does not parse and what it expected, and the notes' warnings, on stdout and stderr, in
/// Chinese. The source lines codespan quotes and the `= a = …` values are the author's.
#[test]
fn the_chinese_text_format_says_its_headers_and_parse_errors_in_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "## 1 Sums\n\n$$a+b = b+a+1$$\n\n$$a = (b + $$\n\n$$y = \\foo{2} + 1$$\n\nA lone $ sign.\n\n$$(a+b)^2 = a^2+2ab+b^2$$\n";
    std::fs::write(&notes, text).unwrap();
    let path = notes.to_str().unwrap();
    let out = run(&["check", path, "--lang", "zh", "--no-cache", "--list-unparsed"]);
    let (shown, errors) = (stdout(&out), stderr(&out));
    assert!(shown.contains("错误: 已驳回") && errors.contains("错误: 公式"), "{shown}\n{errors}");
    assert!(errors.contains("应为"), "the parser's expectation is said: {errors}");
    for line in shown.lines().chain(errors.lines()) {
        // Quoted source (`3 │ $$a+b…`), the gutter, the file's place and a counterexample's values.
        let quoted = line.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit() || c == '│' || c == '┌');
        if quoted || line.trim_start().starts_with("= a =") {
            continue;
        }
        // Paths (the notes', the CAS lock's while another run holds it) are names.
        let body: String = line.split_whitespace().filter(|w| !w.contains('/')).collect::<Vec<_>>().join(" ");
        let english = english_words(&body, &["CAS", "spec", "derivcheck", "Symbolica"]);
        assert!(english.is_empty(), "English {english:?} in: {line}");
    }
}

/// A spec that cannot take effect is said in Chinese under `--lang zh`: every kind of entry the
/// spec refuses (a kind, a shape, a size, a range, TeX that does not parse, a define that takes
/// nothing, TOML's own refusal quoted as code), and in English without it.
#[test]
fn spec_errors_are_said_in_the_runs_language() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$$\\sigma(z) = z$$\n\n$$a+b=b+a$$\n").unwrap();
    let specs = [
        "[section.\"1\"]\nsets = { J = \"past\" }\n",
        "[section.\"1\"]\nfunctions = { F = \"vectr\" }\n",
        "[section.\"1\"]\nmatrix = { X = [\"2\", \"2\", \"2\"] }\n",
        "[section.\"1\"]\nsizes = { n = [0] }\n",
        "[section.\"1\"]\nindex = { i = \"m\" }\n",
        "[section.\"1\"]\ndefine = ['\\foo = 1']\n",
        "[section.\"1\"]\nassume = ['a < b']\n",
        "[section.\"1\"]\ndefine = ['a + b = 1']\n",
        "[section.\"1\"]\nfunctions = { '\\sigma' = \"rotation\" }\n",
        "[section.\"1\"]\nbogus = 1\n",
    ];
    for (k, spec) in specs.iter().enumerate() {
        let path = dir.path().join(format!("s{k}.toml"));
        std::fs::write(&path, spec).unwrap();
        let args = ["check", notes.to_str().unwrap(), "--spec", path.to_str().unwrap(), "--no-cache"];
        let english = run(&args);
        assert_eq!(english.status.code(), Some(2), "{spec}: {}", stderr(&english));
        let out = run(&[&args[..], &["--lang", "zh"]].concat());
        assert_eq!(out.status.code(), Some(2), "{spec}");
        let errors = stderr(&out);
        assert!(errors.contains("错误"), "{spec}: {errors}");
        // (A message wider than the screen is wrapped: its lines are read as one.)
        let mut messages: Vec<String> = Vec::new();
        for line in errors.lines() {
            let quoted = line.trim_start().chars().next().is_some_and(|c| c.is_ascii_digit() || c == '│' || c == '┌');
            match messages.last_mut() {
                _ if quoted || line.trim().is_empty() => messages.push(String::new()),
                Some(last) if !last.is_empty() && !line.starts_with("错误") => last.push_str(&format!(" {line}")),
                _ => messages.push(line.to_string()),
            }
        }
        for line in messages.iter().filter(|m| !m.is_empty()) {
            let body: String = line.split_whitespace().filter(|w| !w.contains('/')).collect::<Vec<_>>().join(" ");
            let words = english_words(&body, &["CAS", "spec", "derivcheck", "Symbolica", "TOML"]);
            assert!(words.is_empty(), "English {words:?} in: {line}\n(spec {spec})");
        }
    }
}
