//! Build pipelines: whole books, the verdict cache, the mdBook preprocessor protocol and watch
//! mode, through the real binary.

mod common;
use common::*;
use serde_json::{json, Value};
use std::io::{BufRead, Write};
use std::path::Path;
use std::process::{Command, Stdio};

const GOOD: &str = "# Activations\n\n## 1 Sigmoid\n\n$$\\sigma(z)=\\frac{1}{1+e^{-z}}$$\n\n\
                    Its derivative: $$\\frac{\\mathrm d}{\\mathrm dz}\\sigma(z)=\\sigma(z)(1-\\sigma(z))$$\n";
const SECOND: &str = "# Squares\n\n## 2 Squares\n\n$$(a+b)^2=a^2+2ab+b^2$$\n";
const WRONG: &str = "# Squares\n\n## 2 Squares\n\n$$(a+b)^2=a^2+ab+b^2$$\n";

fn derivcheck(args: &[&str], dir: &Path, stdin: Option<&str>) -> std::process::Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    input.write_all(stdin.unwrap_or("").as_bytes()).unwrap();
    drop(input);
    child.wait_with_output().unwrap()
}

/// A folder holding the shipped chapter twice and a file that is not UTF-8: all three are
/// reported, the run goes on, and the exit code says an input was bad.
#[test]
fn a_book_reports_every_chapter_and_goes_on_after_a_bad_file() {
    let dir = tempfile::tempdir().unwrap();
    for copy in ["a", "b"] {
        let to = dir.path().join(copy);
        std::fs::create_dir(&to).unwrap();
        for name in ["notes.zh.md", "notes.en.md", "checks.toml"] {
            std::fs::copy(repo_path(&format!("derivations/ch15/{name}")), to.join(name)).unwrap();
        }
    }
    std::fs::write(dir.path().join("broken.md"), b"## 1 S\n\n$x=\xff$\n").unwrap();
    let out = derivcheck(&["check", ".", "--format", "lines", "--no-cache"], dir.path(), None);
    assert_eq!(out.status.code(), Some(2), "a bad input: exit 2");
    let text = stdout(&out);
    assert!(
        text.contains("./a/notes.zh.md: ") || text.contains("a/notes.zh.md\t") || text.contains("a/notes.zh.md:"),
        "{text}"
    );
    assert!(text.contains("b/notes.en.md"), "{text}");
    assert!(text.contains("broken.md: could not be checked"), "{text}");
    assert!(stderr(&out).contains("broken.md:3:"), "the bad byte's position: {}", stderr(&out));
    let total = text.lines().last().unwrap();
    assert_eq!(
        total,
        "total: 3 inputs (1 could not be checked), 236 formulas, 222 claims: 222 verified, 0 REFUTED, 0 undecided"
    );
    let out = derivcheck(&["check", ".", "--format", "json", "--no-cache"], dir.path(), None);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["chapters"].as_array().unwrap().len(), 3);
    assert_eq!(v["chapters"][0]["error"]["kind"], "input", "broken.md sorts first: {}", v["chapters"][0]);
    assert_eq!(v["summary"]["claims"], 222);
}

/// The d2l corpus: every chapter is read and checked without a crash.
#[test]
fn the_corpus_as_a_book() {
    let Some(shared) = shared_dir() else { return };
    let corpus = shared.join("corpus");
    let out = derivcheck(&["check", corpus.to_str().unwrap(), "--format", "lines"], &repo_path("."), None);
    assert!(matches!(out.status.code(), Some(0 | 1)), "{}", stderr(&out));
    assert!(!stderr(&out).contains("panicked"));
    let text = stdout(&out);
    let total = text.lines().last().unwrap();
    assert!(total.starts_with("total: 12 inputs (0 could not be checked)"), "{total}");
}

/// A second run is served from the cache; editing one definition re-checks exactly the claims
/// that depend on it.
#[test]
fn the_cache_serves_unchanged_claims_and_rechecks_dependents() {
    let dir = tempfile::tempdir().unwrap();
    let notes =
        "## 1 S\n\n$$u=x^2$$\n\n$$v=y+1$$\n\n$$\\frac{\\partial u}{\\partial x}=2x$$\n\n$$u+u=2x^2$$\n\n$$v-1=y$$\n";
    std::fs::write(dir.path().join("notes.md"), notes).unwrap();
    let run = |dir: &Path| {
        let out = derivcheck(&["check", "notes.md", "--cache", "cache", "-v", "--format", "json"], dir, None);
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let cached: usize = stderr(&out)
            .lines()
            .find_map(|l| l.strip_suffix(" claim(s) from the cache").and_then(|l| l.split(' ').next()?.parse().ok()))
            .expect("-v says how many claims came from the cache");
        (cached, v)
    };
    let (cached, first) = run(dir.path());
    assert_eq!(cached, 0);
    let (cached, second) = run(dir.path());
    assert_eq!(cached, 3, "all three claims from the cache");
    assert_eq!(first["files"][0]["claims"], second["files"][0]["claims"].clone(), "the same verdicts");
    std::fs::write(dir.path().join("notes.md"), notes.replace("u=x^2", "u=x^3")).unwrap();
    let (cached, third) = run(dir.path());
    assert_eq!(cached, 1, "only the claim about v is unchanged");
    let verdicts: Vec<&str> =
        third["files"][0]["claims"].as_array().unwrap().iter().map(|c| c["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["refuted", "refuted", "verified"]);
    // A corrupted entry is ignored and rewritten.
    for entry in walk(&dir.path().join("cache")) {
        std::fs::write(entry, "{ not json").unwrap();
    }
    let (cached, fourth) = run(dir.path());
    assert_eq!(cached, 0, "nothing trusted from corrupted files");
    assert_eq!(fourth["summary"], third["summary"]);
    assert_eq!(run(dir.path()).0, 3, "rewritten");
}

fn walk(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

fn chapter(name: &str, path: &str, content: &str, number: u32) -> Value {
    json!({"Chapter": {"name": name, "content": content, "number": [number], "sub_items": [],
                       "path": path, "source_path": path, "parent_names": []}})
}

fn book_input(root: &Path, key: &str, second: &str, marks: bool, version: &str) -> String {
    let context = json!({
        "root": root.to_str().unwrap(),
        "config": {"book": {"authors": [], "language": "en", "src": "src", "title": "A book"},
                   "preprocessor": {"derivcheck": {"command": "derivcheck mdbook", "marks": marks}}},
        "renderer": "html",
        "mdbook_version": version,
    });
    let mut book = json!({ key: [chapter("Activations", "activations.md", GOOD, 1), "Separator",
                                 chapter("Squares", "squares.md", second, 2)] });
    if key == "sections" {
        book["__non_exhaustive"] = Value::Null;
    }
    json!([context, book]).to_string()
}

/// The preprocessor protocol with mdBook 0.4's and 0.5's book JSON: the book comes back with the
/// key it came with, unchanged apart from the marks; a wrong formula fails the build and names
/// its file and line.
#[test]
fn the_mdbook_preprocessor_speaks_both_book_shapes() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    assert_eq!(derivcheck(&["mdbook", "supports", "html"], dir.path(), None).status.code(), Some(0));
    assert_ne!(derivcheck(&["mdbook", "supports", "pdf"], dir.path(), None).status.code(), Some(0));
    for (key, version) in [("sections", "0.4.40"), ("items", "0.5.0")] {
        for marks in [false, true] {
            let input = book_input(dir.path(), key, SECOND, marks, version);
            let out = derivcheck(&["mdbook"], dir.path(), Some(&input));
            assert_eq!(out.status.code(), Some(0), "{key}: {}", stderr(&out));
            let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is only the book JSON");
            let sent: Value = serde_json::from_str::<Value>(&input).unwrap()[1].clone();
            let mut unmarked = got.to_string();
            for (mark, word) in [("✓", "verified"), ("✗", "refuted"), ("?", "undecided")] {
                let html = format!("<sup class=\"derivcheck {word}\" title=\"derivcheck: {word}\">{mark}</sup>");
                unmarked = unmarked.replace(&serde_json::to_string(&html).unwrap().trim_matches('"').to_string(), "");
            }
            assert_eq!(serde_json::from_str::<Value>(&unmarked).unwrap(), sent, "{key}, marks {marks}");
            assert!(got.get(key).is_some(), "the key that came in goes out");
            let content = got[key][0]["Chapter"]["content"].as_str().unwrap();
            assert_eq!(content.contains("derivcheck verified"), marks, "{content}");
        }
        let input = book_input(dir.path(), key, WRONG, false, version);
        let out = derivcheck(&["mdbook"], dir.path(), Some(&input));
        assert_eq!(out.status.code(), Some(1), "{key}: a refuted claim fails the build");
        assert!(stderr(&out).contains("squares.md:5:1: REFUTED"), "{key}: {}", stderr(&out));
    }
}

/// `derivcheck check --watch notes.md` in `dir` with `extra` arguments: the process, and a
/// reader that waits (up to a minute) for a stdout line holding a needle, keeping every line seen.
struct Watch {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    seen: Vec<String>,
}

impl Watch {
    fn start(dir: &Path, extra: &[&str]) -> Watch {
        let mut child = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
            .args(["check", "--watch", "notes.md", "--no-cache"])
            .args(extra)
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let (sender, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        Watch { child, lines, seen: Vec::new() }
    }

    fn wait_for(&mut self, needle: &str) -> Result<(), String> {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while let Some(left) = deadline.checked_duration_since(std::time::Instant::now()) {
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let found = line.contains(needle);
                    self.seen.push(line);
                    if found {
                        return Ok(());
                    }
                }
                Err(_) => break,
            }
        }
        Err(format!("`{needle}` not seen in: {:#?}", self.seen))
    }

    fn stop(mut self) -> Vec<String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.seen
    }
}

/// Watch mode: an edit to a chapter is seen and the changed verdict reported.
#[test]
fn watch_reports_a_changed_verdict() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, SECOND).unwrap();
    let mut watch = Watch::start(dir.path(), &[]);
    let first = watch.wait_for("watching");
    std::fs::write(&notes, WRONG).unwrap();
    let changed = first.and_then(|_| watch.wait_for("newly REFUTED"));
    std::fs::write(&notes, SECOND).unwrap();
    let back = changed.and_then(|_| watch.wait_for("newly verified"));
    watch.stop();
    back.unwrap();
}

/// `--lang zh` says everything in Chinese in a book's run, in watch mode and in the mdBook
/// preprocessor (`lang = "zh"` or a `zh` book): words of three or more Latin letters appear
/// only in paths, the author's section names and ids, TeX and `code`.
#[test]
fn books_watch_mode_and_mdbook_speak_chinese_under_zh() {
    const NAMES: &[&str] = &["CAS", "spec", "derivcheck", "Ctrl", "Symbolica"];
    let dir = tempfile::tempdir().unwrap();
    let chinese = |line: &str, body: &str| {
        let english = english_words(body, NAMES);
        assert!(english.is_empty(), "English {english:?} in: {line}");
    };
    // A book: two chapters, one with a wrong formula, and a file that is not UTF-8.
    for (name, text) in [("good.md", GOOD), ("wrong.md", WRONG)] {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    std::fs::write(dir.path().join("broken.md"), b"## 1 S\n\n$x=\xff$\n").unwrap();
    let out = derivcheck(&["check", ".", "--lang", "zh", "--format", "lines", "--no-cache"], dir.path(), None);
    let text = stdout(&out);
    assert!(text.contains("总计"), "{text}");
    assert!(stderr(&out).contains("broken.md:3:4: 文件不是有效的 UTF-8"), "{}", stderr(&out));
    for line in text.lines() {
        let columns: Vec<&str> = line.split('\t').collect();
        let body = match columns.len() {
            6.. => columns[2..5].join("\t"),
            // `path: could not be checked`, `total: …`, a reason under its claim.
            _ => line.rsplit_once(".md: ").map_or(line, |(_, rest)| rest).to_string(),
        };
        chinese(line, &body);
    }
    // Watch mode: the first summary, then a verdict that changes.
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, SECOND).unwrap();
    let mut watch = Watch::start(dir.path(), &["--lang", "zh"]);
    let first = watch.wait_for("正在监视");
    std::fs::write(&notes, WRONG).unwrap();
    let changed = first.and_then(|_| watch.wait_for("变为已驳回"));
    let seen = watch.stop();
    changed.unwrap();
    for line in &seen {
        // `…/notes.md:5:1: 变为已驳回 Squares#1: reason`, the summary, `正在监视 …`
        let shown = line.replace("notes.md ", "");
        let body = shown.rsplit_once(".md:").map_or(shown.as_str(), |(_, rest)| rest);
        let body: String =
            body.split_whitespace().filter(|w| !w.contains('#') && !w.contains('/')).collect::<Vec<_>>().join(" ");
        chinese(line, &body);
    }
    // The mdBook preprocessor, told `lang = "zh"`: the refuted claim and the closing line.
    std::fs::create_dir(dir.path().join("src")).unwrap();
    let mut input: Value = serde_json::from_str(&book_input(dir.path(), "items", WRONG, true, "0.5.0")).unwrap();
    input[0]["config"]["preprocessor"]["derivcheck"]["lang"] = json!("zh");
    let out = derivcheck(&["mdbook"], dir.path(), Some(&input.to_string()));
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let errors = stderr(&out);
    assert!(errors.contains("已驳回") && errors.contains("个断言被驳回"), "{errors}");
    for line in errors.lines() {
        // `…/squares.md:5:1: 已驳回 Squares#1: reason`, `derivcheck: 1 个断言被驳回, …`
        let body = line.rsplit_once(".md:").map_or(line, |(_, rest)| rest);
        let body = body.split_once(": ").map_or(body, |(_, rest)| rest);
        // Ids (`Squares#1`) and paths (the CAS lock's, while another run holds it) are names.
        let body: String =
            body.split_whitespace().filter(|w| !w.contains('#') && !w.contains('/')).collect::<Vec<_>>().join(" ");
        chinese(line, &body);
    }
    let book: Value = serde_json::from_slice(&out.stdout).unwrap();
    let content = book["items"][2]["Chapter"]["content"].as_str().unwrap();
    assert!(content.contains("title=\"derivcheck: 已驳回\""), "{content}");
}

/// The preprocessor under a bug that panics on one chapter (planted with the test hook
/// `DERIVCHECK_PLANTED_PANIC`, issue 47): the book still comes back whole, the chapter is named
/// as an internal error, and the build fails with exit 70.
#[test]
fn the_mdbook_preprocessor_survives_a_panic_in_one_chapter() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    let planted = "# Squares\n\n## 2 Squares\n\nPLANTED $$(a+b)^2=a^2+2ab+b^2$$\n";
    let input = book_input(dir.path(), "items", planted, true, "0.5.0");
    let mut child = Command::new(env!("CARGO_BIN_EXE_derivcheck"))
        .args(["mdbook"])
        .current_dir(dir.path())
        .env("DERIVCHECK_PLANTED_PANIC", "PLANTED")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(70), "{}", stderr(&out));
    assert!(stderr(&out).contains("internal error"), "{}", stderr(&out));
    let got: Value = serde_json::from_slice(&out.stdout).expect("stdout is only the book JSON");
    let first = got["items"][0]["Chapter"]["content"].as_str().unwrap();
    assert!(first.contains("derivcheck verified"), "the other chapter is checked and marked: {first}");
}
