//! The printable reports (`derivcheck report`, `check --report`) and JUnit: golden files of the
//! shipped chapter and of a copy with one wrong formula, determinism, escaping, MathML, JUnit's
//! counts, and printing in a real browser (headless Chromium, then pdftotext).
//! Regenerate the golden files after an intended change with
//! `UPDATE_GOLDEN=1 cargo test --release --test reports`.

mod common;
use common::*;
use std::path::{Path, PathBuf};
use std::process::Command;

const REPORTS: [&str; 4] = ["report.zh.md", "report.en.md", "report.zh.html", "report.en.html"];

/// Runs derivcheck in `dir` (so the paths the report shows are relative and stable).
fn run_in(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_derivcheck")).args(args).current_dir(dir).output().expect("derivcheck runs")
}

/// A copy of the shipped chapter in a temporary folder, as `ch15/`, with `edit` applied to both
/// notes files.
fn chapter_copy(edit: Option<(&str, &str)>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let to = dir.path().join("ch15");
    std::fs::create_dir(&to).unwrap();
    for name in ["notes.zh.md", "notes.en.md", "checks.toml"] {
        let mut text = std::fs::read_to_string(repo_path(&format!("derivations/ch15/{name}"))).unwrap();
        if let Some((from, into)) = edit.filter(|_| name.ends_with(".md")) {
            assert!(text.contains(from), "{name}");
            text = text.replacen(from, into, 1);
        }
        std::fs::write(to.join(name), text).unwrap();
    }
    dir
}

fn golden(name: &str, actual: &str) {
    let path = repo_path(&format!("tests/golden/report/{name}"));
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, actual).unwrap();
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

fn report_of(dir: &Path, args: &[&str]) -> Vec<String> {
    let out = run_in(dir, args);
    assert!(out.status.code().is_some_and(|c| c <= 1), "{}", stderr(&out));
    REPORTS.iter().map(|r| std::fs::read_to_string(dir.join("out").join(r)).unwrap()).collect()
}

#[test]
fn the_shipped_chapter_report_is_pinned_and_reproducible() {
    let dir = chapter_copy(None);
    let first = report_of(dir.path(), &["report", "ch15", "--out", "out"]);
    for (name, text) in REPORTS.iter().zip(&first) {
        golden(&format!("ch15.{name}"), text);
    }
    let second = report_of(dir.path(), &["report", "ch15", "--out", "out"]);
    assert!(first == second, "two runs give identical bytes");
    // `check --report` writes the same files.
    let third = report_of(dir.path(), &["check", "ch15", "--report", "out", "--format", "json"]);
    assert!(first == third, "check --report writes the same reports");
    let html = &first[2];
    assert!(!html.contains("<script"), "no JavaScript");
    assert!(!html.contains("http://") && !html.contains("https://"), "no network");
    assert!(html.contains("@media print"), "print rules");
    assert!(html.contains("id=\"c-15.3-"), "an anchor per claim");
    assert!(html.contains("id=\"s-15.3\""), "an anchor per section");
    // Both languages state the same facts: the same claims with the same verdicts.
    let facts = |md: &str| -> Vec<String> {
        md.lines().filter(|l| l.contains("id=\"c-")).map(|l| l.split('`').nth(1).unwrap_or("").to_string()).collect()
    };
    assert_eq!(facts(&first[0]).len(), 67, "every claim");
    assert_eq!(facts(&first[0]), facts(&first[1]));
}

#[test]
fn a_wrong_formula_shows_its_counterexample_and_the_correct_expression() {
    let dir = chapter_copy(Some(("e^{s_j}D-e^{2s_j}", "e^{s_j}D+e^{2s_j}")));
    let reports = report_of(dir.path(), &["report", "ch15", "--out", "out"]);
    for (name, text) in REPORTS.iter().zip(&reports) {
        golden(&format!("ch15-wrong.{name}"), text);
    }
    let (zh, en) = (&reports[0], &reports[1]);
    assert!(en.contains("✗ REFUTED** `15.1#3.1`"), "{en}");
    assert!(zh.contains("✗ 已驳回** `15.1#3.1`"), "{zh}");
    assert!(
        en.contains("| Sizes | Indices | Entry | Left side | Right side | At the point |"),
        "a counterexample table"
    );
    assert!(en.contains("The computed side is $"), "the correct expression");
    assert!(zh.contains("计算所得为 $"), "the correct expression");
}

#[test]
fn every_parsed_formula_is_mathml_and_notes_text_is_escaped() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "## 1 <b>Bold</b> heading\n\n$$x+y=y+x$$\n\n$$a=\\text{<script>alert(1)</script>}$$\n\n\
                $$\\frac{1}{2}=0.6$$\n\n$$\\oslash$$\n";
    std::fs::write(&notes, text).unwrap();
    let out = run_in(dir.path(), &["report", "notes.md", "--out", "out", "--format", "html", "--lang", "en"]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let html = std::fs::read_to_string(dir.path().join("out/report.en.html")).unwrap();
    assert!(!html.contains("<script>alert"), "escaped: {html}");
    assert!(!html.contains("<b>Bold</b>"), "headings escaped");
    assert!(html.contains("&lt;b&gt;Bold&lt;&#x2F;b&gt;") || html.contains("&lt;b&gt;Bold&lt;/b&gt;"), "{html}");
    assert!(html.matches("<math").count() >= 3, "the parsed formulas are MathML");
    assert!(!dir.path().join("out/report.en.md").exists(), "only the formats asked for");
}

#[test]
fn the_seed_report_has_mathml_for_every_parsed_formula() {
    let Some(seed) = seed_path() else { return };
    let dir = tempfile::tempdir().unwrap();
    let spec = repo_path("derivations/ch15/checks.toml");
    let out = run_in(
        dir.path(),
        &["report", seed.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--out", "out", "--format", "html"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let html = std::fs::read_to_string(dir.path().join("out/report.zh.html")).unwrap();
    let formulas = html.matches("class=\"formula ").count();
    let spec_claims = html.matches("class=\"formula claim\"").count() - html.matches("role\">断言<").count();
    assert!(formulas >= 59, "{formulas}");
    assert_eq!(html.matches("<code class=\"tex\">").count(), 0, "no formula fell back to TeX");
    assert!(html.matches("<math").count() >= 59 + spec_claims, "a <math> per formula");
    assert!(!html.contains("<script"));
}

#[test]
fn junit_parses_and_counts_match_the_json_summary() {
    let junit = stdout(&run(&[
        "check",
        "tests/chapters/softmax.en.md",
        "--spec",
        "tests/chapters/softmax.en.toml",
        "--format",
        "junit",
    ]));
    let parsed = quick_junit::Report::deserialize_from_str(&junit).expect("JUnit XML parses");
    assert!(junit.starts_with("<?xml"), "{junit}");
    assert!(junit.contains("<testsuites") && junit.contains("<testsuite ") && junit.contains("<testcase "));
    let json = json(&run(&[
        "check",
        "tests/chapters/softmax.en.md",
        "--spec",
        "tests/chapters/softmax.en.toml",
        "--format",
        "json",
    ]));
    let summary = &json["summary"];
    assert_eq!(parsed.tests as u64, summary["claims"].as_u64().unwrap());
    assert_eq!(parsed.failures as u64, summary["refuted"].as_u64().unwrap());
    let skipped: usize = parsed
        .test_suites
        .iter()
        .flat_map(|s| &s.test_cases)
        .filter(|c| matches!(c.status, quick_junit::TestCaseStatus::Skipped { .. }))
        .count();
    assert_eq!(skipped as u64, summary["undecided"].as_u64().unwrap());
    let second = stdout(&run(&[
        "check",
        "tests/chapters/softmax.en.md",
        "--spec",
        "tests/chapters/softmax.en.toml",
        "--format",
        "junit",
    ]));
    assert_eq!(junit, second, "reproducible");
}

#[test]
fn author_templates_replace_the_built_in_ones() {
    let dir = chapter_copy(None);
    let templates = dir.path().join("templates");
    std::fs::create_dir(&templates).unwrap();
    std::fs::write(templates.join("report.md.tera"), "{{ w.title }}: {{ totals.verified }}/{{ totals.claims }}\n")
        .unwrap();
    let out = run_in(
        dir.path(),
        &["report", "ch15", "--out", "out", "--format", "md", "--lang", "en", "--templates", "templates"],
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        std::fs::read_to_string(dir.path().join("out/report.en.md")).unwrap(),
        "Appendix: checked derivations: 67/67\n"
    );
    std::fs::write(templates.join("report.md.tera"), "{{ w.title ").unwrap();
    let out = run_in(
        dir.path(),
        &["report", "ch15", "--out", "out", "--format", "md", "--lang", "en", "--templates", "templates"],
    );
    assert_eq!(out.status.code(), Some(2), "a broken template is bad input");
    assert!(stderr(&out).contains("template"), "{}", stderr(&out));
}

fn find_chromium() -> Option<PathBuf> {
    ["chromium", "chromium-browser", "google-chrome"].iter().find_map(|name| {
        std::env::var_os("PATH")?.to_str()?.split(':').map(|d| Path::new(d).join(name)).find(|p| p.is_file())
    })
}

/// Chromium, installed by the project's own script when missing (where it can be); under
/// `CI=true` a browser that is still missing fails the test.
fn chromium() -> Option<PathBuf> {
    if find_chromium().is_none() {
        let _ = Command::new(repo_path(".ci/install-browser")).status();
    }
    let found = find_chromium();
    if found.is_none() {
        assert!(
            std::env::var("CI").as_deref() != Ok("true"),
            "CI=true: chromium must be installed (.ci/install-browser)"
        );
        eprintln!("skipping: no chromium (run .ci/install-browser)");
    }
    found
}

/// Prints `html` to A4 PDF in headless Chromium, with a screenshot of its first page beside it:
/// the PDF's text, and what pdfinfo says of it.
fn print_in_browser(browser: &Path, html: &Path) -> (String, String) {
    let pdf = html.with_extension("pdf");
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}", html.display());
    let flags = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--no-pdf-header-footer",
    ];
    let user_data = format!("--user-data-dir={}", profile.path().display());
    let printed = Command::new(browser)
        .args(flags)
        .arg(&user_data)
        .arg(format!("--print-to-pdf={}", pdf.display()))
        .arg(&url)
        .output()
        .unwrap();
    assert!(pdf.is_file(), "chromium printed {}: {}", html.display(), String::from_utf8_lossy(&printed.stderr));
    let shot = html.with_extension("png");
    Command::new(browser)
        .args(flags)
        .arg(&user_data)
        .arg(format!("--screenshot={}", shot.display()))
        .arg("--window-size=1000,1400")
        .arg(&url)
        .output()
        .unwrap();
    assert!(shot.is_file(), "a screenshot of the first page");
    let text = Command::new("pdftotext").arg(&pdf).arg("-").output().expect("pdftotext (poppler-utils) runs");
    let info = Command::new("pdfinfo").arg(&pdf).output().unwrap();
    (String::from_utf8_lossy(&text.stdout).into_owned(), String::from_utf8_lossy(&info.stdout).into_owned())
}

/// Prints both HTML reports to A4 PDF in headless Chromium; the PDF's text holds the headings
/// (Chinese included), the verdict words, and no raw TeX; a screenshot lands beside the report.
#[test]
fn the_html_reports_print_in_a_real_browser() {
    let Some(browser) = chromium() else { return };
    let out_dir = repo_path("target/report-browser-test");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = run(&["report", "derivations/ch15", "--out", out_dir.to_str().unwrap(), "--format", "html"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    for (lang, heading, verified) in [("zh", "15.3 注意力模块的矩阵反传", "已验证"), ("en", "Summary", "verified")]
    {
        let (text, info) = print_in_browser(&browser, &out_dir.join(format!("report.{lang}.html")));
        assert!(text.contains(heading), "{lang}: the heading `{heading}` in the PDF text");
        assert!(text.contains(verified), "{lang}: the verdict word");
        assert!(!text.contains("\\frac"), "{lang}: no raw TeX");
        let pages: usize = info.lines().find_map(|l| l.strip_prefix("Pages:")).unwrap().trim().parse().unwrap();
        assert!(pages > 1, "{lang}: several pages");
        assert!(info.contains("A4"), "{lang}: A4: {info}");
    }
}

/// The text of a Markdown appendix outside maths (`$…$`, `$$…$$`) and code spans.
fn markdown_prose(text: &str) -> String {
    let mut out = String::new();
    for (i, part) in text.split("$$").enumerate() {
        if i % 2 == 0 {
            for (j, piece) in part.split('$').enumerate() {
                if j % 2 == 0 {
                    out.extend(piece.split('`').step_by(2));
                }
            }
        }
    }
    out
}

/// The text of an HTML appendix's body outside `<math>`, `<code>` and tags.
fn html_prose(html: &str) -> String {
    let body = &html[html.find("<body>").unwrap_or(0)..];
    let mut out = String::new();
    let mut rest = body;
    while let Some(start) = rest.find('<') {
        out.push_str(&rest[..start]);
        let tag = &rest[start..];
        let skip_to = ["<math", "<code"].iter().find(|t| tag.starts_with(*t)).map(|t| format!("</{}>", &t[1..]));
        let end = match skip_to {
            Some(close) => tag.find(&close).map_or(tag.len(), |i| i + close.len()),
            None => tag.find('>').map_or(tag.len(), |i| i + 1),
        };
        rest = &tag[end..];
    }
    out.push_str(rest);
    out
}

/// A published chapter's appendix (issue 50), asked for by its absolute path: no path is
/// shown absolute, every location is a link, and outside maths and code there is no TeX and no
/// backquote — in the Markdown, and in the printed HTML as a reader sees it.
#[test]
fn a_published_chapters_appendix_shows_maths_and_links_not_tex_and_paths() {
    let Some(shared) = shared_dir() else { return };
    let notes = std::fs::canonicalize(shared.join("published/d2l-en/gd.md")).unwrap();
    let folder = notes.parent().unwrap().display().to_string();
    let out_dir = repo_path("target/report-published-test");
    let _ = std::fs::remove_dir_all(&out_dir);
    let out = run(&["report", notes.to_str().unwrap(), "--out", out_dir.to_str().unwrap()]);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    for lang in ["en", "zh"] {
        let markdown = std::fs::read_to_string(out_dir.join(format!("report.{lang}.md"))).unwrap();
        let html = std::fs::read_to_string(out_dir.join(format!("report.{lang}.html"))).unwrap();
        for (name, text) in [("md", &markdown), ("html", &html)] {
            assert!(!text.contains(&folder), "{lang}.{name}: an absolute path");
        }
        assert!(markdown.contains("[gd.md:14:1](#f-"), "{lang}: a location links to its entry");
        assert!(html.contains("<a href=\"#c-"), "{lang}: a place in the coverage table links to its claim");
        for (name, prose) in [("md", markdown_prose(&markdown)), ("html", html_prose(&html))] {
            for bad in ["\\", "`"] {
                let line = prose.lines().find(|l| l.contains(bad));
                assert!(line.is_none(), "{lang}.{name}: `{bad}` outside maths and code: {line:?}");
            }
        }
        let Some(browser) = chromium() else { continue };
        let (printed, _) = print_in_browser(&browser, &out_dir.join(format!("report.{lang}.html")));
        assert!(printed.contains("gd.md:14:1"), "{lang}: the locations are printed");
        for bad in ["`", folder.as_str()] {
            let line = printed.lines().find(|l| l.contains(bad));
            assert!(line.is_none(), "{lang}.html printed: `{bad}`: {line:?}");
        }
    }
}

/// A counterexample names each letter as the notes write it, even where one letter's name is
/// inside another's (`a` in `\varepsilon`).
#[test]
fn a_counterexample_names_letters_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "# Names\n\nWith $p = \\frac{1-\\varepsilon}{2}$:\n\n$$\n\\ln(a^p) = \\ln(a)\n$$\n")
        .unwrap();
    let out = run_in(dir.path(), &["check", "notes.md", "--no-cache"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("REFUTED"), "{text}");
    assert!(text.contains("\\varepsilon = ") && !text.contains("\\arepsilon"), "{text}");
}
