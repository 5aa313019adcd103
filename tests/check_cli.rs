//! `derivcheck check`: the real binary on the seed, the shipped chapter, and edited copies.

mod common;
use common::*;
use serde_json::Value;

const SCALAR_SECTIONS: [&str; 3] = ["15.1", "15.2", "15.7"];

fn in_sections<'a>(v: &'a Value, sections: &[&str]) -> Vec<&'a Value> {
    all_claims(v).into_iter().filter(|c| sections.contains(&c["section"].as_str().unwrap())).collect()
}

fn assert_exact(c: &Value) {
    match c["method"].as_str() {
        Some("symbolic+numeric" | "symbolic") => {}
        Some("randomized") => assert!(c["error_bound_log2"].as_f64().is_some_and(|b| b <= -60.0), "{c:#}"),
        _ => panic!("not proven exactly: {c:#}"),
    }
}

#[test]
fn seed_scalar_sections_all_verified_exactly() {
    let Some(seed) = seed_path() else { return };
    let (code, v) = check_json(seed.to_str().unwrap());
    assert_eq!(code, Some(0), "{v}");
    let checked = in_sections(&v, &SCALAR_SECTIONS);
    // 15.1: two chains of two links + the spec's shift invariance; 15.2: log identity, p_j, gradient; 15.7: J_y.
    assert_eq!(checked.len(), 9, "{checked:#?}");
    for c in &checked {
        assert_eq!(c["verdict"], "verified", "{c:#}");
        // Proven exactly (or randomized-exactly, with a bound below 2^-60) at the listed sizes, and
        // at larger ones: randomized-exactly too (listed), or cross-checked in floating point.
        assert_exact(c);
        if c["method"] == "symbolic+numeric" {
            assert_eq!(c["numeric"]["agree"], true, "{c:#}");
        } else {
            let larger = if c["section"] == "15.7" { ", 6" } else { ", 10" };
            assert!(c["sizes"].as_str().unwrap().ends_with(larger), "{c:#}");
        }
    }
    let shift = checked.iter().find(|c| c["id"].as_str().unwrap().contains("shift-invariance")).expect("spec claim");
    assert_eq!(shift["source"], "spec");
    let quotient = checked.iter().find(|c| c["id"] == "15.1#3.2").unwrap();
    assert_eq!(quotient["sizes"], "N = 2, 3, 4, 5, 10", "and twice the largest size");
    assert_eq!((quotient["line"].as_u64(), quotient["col"].as_u64()), (Some(13), Some(1)));
}

/// Every claim of the shipped chapter — the attention module at n = 8, d = 16, d_k = 4 included —
/// is proven exactly or randomized-exactly (bound ≤ 2^-60). The worked example's claims compare
/// printed decimals, and a claim the text says fails is shown by a counterexample: those are
/// numeric by nature.
#[test]
fn every_claim_of_the_chapter_is_proven_exactly_or_randomized_exactly() {
    let (code, v) = check_json("derivations/ch15");
    assert_eq!(code, Some(0), "{v}");
    let claims = all_claims(&v);
    assert!(claims.len() > 100);
    let attention = claims.iter().filter(|c| c["section"] == "15.3").count();
    assert!(attention >= 18, "{attention}");
    for c in claims {
        assert_eq!(c["verdict"], "verified", "{c:#}");
        let fails_as_said = c["detail"].as_str().unwrap().starts_with("fails, as the text says");
        if c["example"].is_null() && !fails_as_said {
            assert_exact(c);
        }
        if c["section"] == "15.3" {
            assert!(c["sizes"].as_str().unwrap().starts_with("N = 8; d = 16; d_k = 4; n = 8"), "{c:#}");
        }
    }
}

#[test]
fn shipped_chapter_verifies_the_same_claims_in_both_languages() {
    let (code, v) = check_json("derivations/ch15");
    assert_eq!(code, Some(0));
    let files = v["files"].as_array().unwrap();
    assert_eq!(files.len(), 3, "two notes files, then the spec's own claims");
    for file in &files[..2] {
        let verified: Vec<&Value> = file["claims"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|c| SCALAR_SECTIONS.contains(&c["section"].as_str().unwrap()))
            .collect();
        assert_eq!(verified.len(), 8, "{}", file["path"]);
        assert!(verified.iter().all(|c| c["verdict"] == "verified" && c["source"] == "notes"), "{}", file["path"]);
    }
    // Each claim the spec states appears once, under the spec's path.
    assert_eq!(files[2]["path"], "derivations/ch15/checks.toml");
    let spec_claims = files[2]["claims"].as_array().unwrap();
    assert!(spec_claims.iter().all(|c| c["source"] == "spec"));
    let mut ids: Vec<&str> = spec_claims.iter().map(|c| c["id"].as_str().unwrap()).collect();
    let count = ids.len();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), count, "no spec claim twice");
    assert!(ids.contains(&"15.1/shift-invariance"));
}

/// Refuted at the edited line, each refutation with a counterexample.
fn assert_refuted_at(from: &str, to: &str) {
    for c in refuted_at_edit(from, to) {
        let cx = &c["counterexample"];
        assert!(cx["lhs"].is_number() && cx["rhs"].is_number(), "{c:#}");
        assert!(cx["lhs"] != cx["rhs"], "{c:#}");
        assert!(!cx["point"].as_array().unwrap().is_empty(), "{c:#}");
    }
}

fn assert_still_verified(from: &str, to: &str) {
    let (code, v, _) = check_edited_notes(from, to);
    assert_eq!(code, Some(0), "{v}");
    let checked = in_sections(&v, &SCALAR_SECTIONS);
    assert!(checked.iter().all(|c| c["verdict"] == "verified"), "{checked:#?}");
}

#[test]
fn sign_flips_are_refuted_at_their_line() {
    assert_refuted_at("=a_j(1-a_j).", "=a_j(1+a_j).");
    assert_refuted_at("=-a_ja_k,", "=a_ja_k,");
    assert_refuted_at("=p_j-\\mathbf1_{j=y}.", "=p_j+\\mathbf1_{j=y}.");
    assert_refuted_at("=-\\frac{e^{s_j}e^{s_k}}{D^2}", "=\\frac{e^{s_j}e^{s_k}}{D^2}");
}

#[test]
fn dropped_terms_are_refuted_at_their_line() {
    assert_refuted_at("=-\\ell_y+\\ln\\sum_r e^{\\ell_r}.", "=\\ln\\sum_r e^{\\ell_r}.");
    assert_refuted_at("$J_y=I+J_F.$", "$J_y=J_F.$");
    assert_refuted_at("{e^{s_j}D-e^{2s_j}}", "{e^{s_j}D}");
}

#[test]
fn swapped_indices_are_refuted_at_their_line() {
    assert_refuted_at("=-a_ja_k,", "=-a_ja_j,");
    assert_refuted_at("$e^{\\ell_j}/\\sum_r e^{\\ell_r}=p_j$", "$e^{\\ell_y}/\\sum_r e^{\\ell_r}=p_j$");
}

#[test]
fn equivalent_rewrites_stay_verified() {
    assert_still_verified("=a_j(1-a_j).", "=a_j-a_j^2.");
    assert_still_verified("=-\\ell_y+\\ln\\sum_r e^{\\ell_r}.", "=\\ln\\sum_r e^{\\ell_r}-\\ell_y.");
    assert_still_verified("=-a_ja_k,", "= - a_k \\, a_j ,");
    assert_still_verified("$J_y=I+J_F.$", "$J_y=J_F+I.$");
}

#[test]
fn two_processes_at_once_both_finish() {
    let seed = CHAPTER_ZH.to_string();
    let handles: Vec<_> = (0..2)
        .map(|_| {
            let seed = seed.clone();
            std::thread::spawn(move || run(&["check", &seed, "--spec", SPEC, "--format", "json"]))
        })
        .collect();
    for h in handles {
        let out = h.join().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(json(&out)["summary"]["refuted"], 0);
    }
}

#[test]
fn text_report_in_both_languages() {
    let out = run(&["check", "derivations/ch15", "--lang", "zh", "--format", "lines"]);
    assert!(stdout(&out).contains("已验证"), "{}", stdout(&out));
    let out = run(&["check", "derivations/ch15", "--format", "lines"]);
    let text = stdout(&out);
    let quotient = text.lines().find(|l| l.ends_with("\t15.1#3.2")).expect("15.1#3.2 listed");
    assert!(
        quotient.contains("\tverified\trandomized exact, error ≤ 2^-") && quotient.contains("\tN = 2, 3, 4, 5, 10\t"),
        "{text}"
    );
    assert!(!text.contains("SYMBOLICA"), "licence banner must not reach stdout");
}

#[test]
fn malformed_spec_is_bad_input_with_position() {
    let dir = tempfile::tempdir().unwrap();
    let spec = dir.path().join("bad.toml");
    std::fs::write(&spec, "[section.\"15.1\"]\nsizes = { N = [2, 3] }\nindex = { r = 5 }\n").unwrap();
    let out = run(&["check", "derivations/ch15/notes.en.md", "--spec", spec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.toml:3:"), "{}", stderr(&out));
    std::fs::write(&spec, "[section.\"15.1\"]\ndefine = ['\\frac{a}']\n").unwrap();
    let out = run(&["check", "derivations/ch15/notes.en.md", "--spec", spec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("bad.toml:2:"), "{}", stderr(&out));
}

/// Each spec entry takes effect or stops the run at its line (exit 2).
#[test]
fn spec_entries_that_cannot_take_effect_stop_the_run_at_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$$\\sigma(z)=\\frac{1}{1+e^{-z}}$$\n\n$$y=Xw$$\n").unwrap();
    let spec = dir.path().join("spec.toml");
    let cases = [
        ("[section.\"1\"]\nsizes = { n = [2] }\nsets = { J = \"casual\" }\n", "spec.toml:3:", "casual"),
        ("[section.\"1\"]\nsizes = { n = [2] }\nfunctions = { '\\sigma' = \"smooth\" }\n", "spec.toml:3:", "smooth"),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\n\nfunctions = { '\\sigma' = \"rotation\" }\n",
            "spec.toml:4:",
            "notes define it",
        ),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\nmatrix = { X = [\"n\", \"n\"] }\ndefine = ['X=1']\n",
            "spec.toml:4:",
            "defines nothing",
        ),
        ("[section.\"1\"]\nsizes = { n = [2] }\ndefine = ['q=1', 'q=2']\n", "spec.toml:3:", "defines nothing"),
        ("[section.\"1\"]\nsizes = { n = [2] }\ndefine = ['1=2']\n", "spec.toml:3:", "defines nothing"),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\nmatrix = { X = [\"n\", \"m\"] }\n",
            "spec.toml:3:",
            "neither a positive number nor a declared size",
        ),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\nmatrix = { X = [\"n\", \"0\"] }\n",
            "spec.toml:3:",
            "neither a positive number",
        ),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\n\nmatrix = { 'x+1' = [\"n\", \"1\"] }\n",
            "spec.toml:4:",
            "not a symbol",
        ),
        ("[section.\"1\"]\nsizes = { n = [2] }\nmatrix = { X = [\"n\", \"n\", \"n\"] }\n", "spec.toml:3:", ""),
        ("[section.\"1\"]\nsizes = { n = [2] }\nloss = '\\frac{L'\n", "spec.toml:3:", "loss"),
        ("[section.\"1\"]\nsizes = { n = [0] }\n", "spec.toml:2:", "at least 1"),
        ("[section.\"1\"]\nsizes = { n = [-2] }\n", "spec.toml:2:", "at least 1"),
        ("[section.\"1\"]\nsizes = { n = [] }\n", "spec.toml:2:", "at least 1"),
        ("[section.\"1\"]\nsizes = { n = [2] }\ndefine = ['\\exp=2']\n", "spec.toml:3:", "defines nothing"),
        (
            "[section.\"1\"]\nsizes = { n = [2] }\nclaims = [{ name = \"c\", tex = 'a=a', when = '\\frac{k' }]\n",
            "spec.toml:3:",
            "when",
        ),
    ];
    for (text, at, says) in cases {
        std::fs::write(&spec, text).unwrap();
        let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap()]);
        assert_eq!(out.status.code(), Some(2), "{text}: {}", stderr(&out));
        assert!(stderr(&out).contains(at) && stderr(&out).contains(says), "{text}: {}", stderr(&out));
        assert!(stderr(&out).contains('^'), "the entry is underlined: {}", stderr(&out));
        // Under --format json the same defect is a JSON error object on stdout.
        let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "json"]);
        assert_eq!(out.status.code(), Some(2));
        assert!(json(&out)["error"]["message"].as_str().unwrap().contains(at), "{text}");
    }
    // A spec that agrees with the notes: σ declared elementwise, the notes' definition is used.
    std::fs::write(&spec, "[section.\"1\"]\nsizes = { n = [2] }\nfunctions = { '\\sigma' = \"elementwise\" }\nclaims = [{ name = \"s\", tex = '\\sigma(0)=\\frac12' }]\n").unwrap();
    let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let report = json(&out);
    let claims = all_claims(&report);
    assert!(claims.iter().any(|c| c["id"] == "1/s" && c["verdict"] == "verified"), "{claims:#?}");
}

/// A formula that does not parse is listed by `check` and counted; a layout slip names itself.
#[test]
fn unparsed_formulas_and_layout_slips_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let spec = dir.path().join("spec.toml");
    std::fs::write(&notes, "## 1 S\n\n$$a\\oslash b=a$$\n\n$$\\nabla_w \\frac12 w^\\top w=w^\\top$$\n").unwrap();
    std::fs::write(&spec, "[defaults]\nsizes = { n = [2] }\nmatrix = { w = [\"n\", \"1\"] }\n").unwrap();
    let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "lines"]);
    let text = stdout(&out);
    assert!(text.contains(":3:1\t1\tNOT PARSED"), "{text}");
    assert!(text.contains("1 NOT PARSED"), "{text}");
    assert!(stderr(&out).contains("unknown command `\\oslash`"), "{}", stderr(&out));
    assert!(text.contains("layout slip"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

/// stdout carries only the chosen format: valid JSON for a clean run, refuted claims and bad
/// input; a closed pipe ends the run without a panic.
#[test]
fn streams_stay_clean() {
    let (code, report) = check_json("derivations/ch15");
    assert_eq!((code, report["schema"].as_u64()), (Some(0), Some(1)));
    let out =
        run(&["check", "tests/chapters/logreg.en.md", "--spec", "tests/chapters/logreg.en.toml", "--format", "json"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(json(&out)["summary"]["refuted"].as_u64().unwrap() > 0);
    let out = run(&["check", "no/such/notes.md", "--format", "json"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(json(&out)["error"]["kind"], "input");
    let text = stdout(&run(&["check", "derivations/ch15"]));
    assert!(!text.contains('\u{1b}'), "no colour codes off a terminal");
    // `derivcheck check … | head -1`: the reader goes away after one line.
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_derivcheck"))
        .args(["check", "derivations/ch15", "--format", "json"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_ne!(out.status.code(), Some(0));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("panicked"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `derivcheck init` writes a spec that loads, from the shapes the notes declare, and never
/// overwrites one without `--force`.
#[test]
fn init_writes_a_spec_that_loads_and_keeps_an_existing_one() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("linear.md");
    std::fs::copy(repo_path("tests/chapters/linear.en.md"), &notes).unwrap();
    let out = run(&["init", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let spec = dir.path().join("checks.toml");
    let text = std::fs::read_to_string(&spec).unwrap();
    assert!(text.contains("[section.\"7.1\"]") && text.contains("sizes = { d = [2, 3]"), "{text}");
    assert!(text.contains("X = [\"n\", \"d\"]"), "the shapes the notes declare: {text}");
    let (code, report) = {
        let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "json"]);
        (out.status.code(), json(&out))
    };
    assert_eq!(code, Some(1), "loads, and the planted errors are found");
    assert_eq!(report["summary"]["undecided"], 0);
    let out = run(&["init", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("--force"), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&spec).unwrap(), text, "kept");
    let out = run(&["init", notes.to_str().unwrap(), "--force"]);
    assert_eq!(out.status.code(), Some(0));
}

/// `--strict` passes on the shipped chapter and fails, with an underlined diagnostic, on notes
/// with a formula that does not parse.
#[test]
fn strict_fails_on_unparsed_formulas() {
    let out = run(&["check", CHAPTER_ZH, "--spec", SPEC, "--strict"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$$a+b=b+a$$\n\n$$a\\oslash b=a$$\n").unwrap();
    let out = run(&["check", notes.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "without --strict an unparsed formula is reported, not fatal");
    let out = run(&["check", notes.to_str().unwrap(), "--strict"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("^^^^^^^") && stderr(&out).contains("strict: 1 formula(s) do not parse"),
        "{}",
        stderr(&out)
    );
}

/// The default report points: each refuted claim is an error with its link underlined in the
/// source line and the reason beside it; verified claims are counted.
#[test]
fn the_default_report_underlines_refuted_links() {
    let out = run(&["check", "tests/chapters/logreg.en.md", "--spec", "tests/chapters/logreg.en.toml"]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("error: REFUTED 3.1#12"), "{text}");
    assert!(text.contains("tests/chapters/logreg.en.md:30:"), "points at the line: {text}");
    assert!(text.contains("^^^^") && text.contains("sides differ"), "{text}");
    assert!(text.contains("tests/chapters/logreg.en.md: 11/14 verified"), "{text}");
    assert!(text.lines().last().unwrap().starts_with("summary:"), "{text}");
}

/// MathJax's `\(…\)` and `\[…\]`, doubled backslashes (Jekyll, kramdown) and display
/// environments on their own are formulas, each claim at its own line and column.
#[test]
fn every_way_notes_write_math_is_read_with_exact_positions() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("mathjax.md");
    let text = "# MathJax\n\nInline \\((a+b)^2 = a^2 + b^2\\) and \\\\(x = x\\\\).\n\n\\[\n\\frac{d}{dx} x^3 = 3x^2\n\\]\n\n\\begin{equation}\n(u+v)^2 = u^2 + 2uv\n\\end{equation}\n\nCode `\\(c = 1\\)` is not math.\n";
    std::fs::write(&notes, text).unwrap();
    let report = json(&run(&["check", notes.to_str().unwrap(), "--format", "json", "--no-cache"]));
    let got: Vec<(u64, u64, String)> = all_claims(&report)
        .iter()
        .map(|c| (c["line"].as_u64().unwrap(), c["col"].as_u64().unwrap(), c["verdict"].as_str().unwrap().to_string()))
        .collect();
    // An inline formula is at its opening delimiter; a claim of a display, at its relation sign.
    let want = [(3, 8, "refuted"), (3, 36, "verified"), (6, 18, "verified"), (10, 9, "refuted")];
    let want: Vec<(u64, u64, String)> = want.iter().map(|(l, c, v)| (*l, *c, v.to_string())).collect();
    assert_eq!(got, want, "{report:#}");
}

/// `w` a d-vector by the spec, then `w = 2` in the words: a number is no value of a vector, so
/// `\operatorname{sum}(w) = 2` is never verified through that binding (issue 46); in the notes'
/// own words the same holds (`tests/notation/constraints.md`, group 21).
#[test]
fn a_binding_never_changes_the_shape_the_spec_declares() {
    let dir = tempfile::tempdir().unwrap();
    let (notes, spec) = (dir.path().join("w.md"), dir.path().join("w.toml"));
    std::fs::write(&notes, "# W\n\n## 1 Weights\n\nTake $w = 2$. Then $\\operatorname{sum}(w) = 2$.\n").unwrap();
    std::fs::write(&spec, "[section.\"1\"]\nmatrix = { w = [\"d\", \"1\"] }\nsizes = { d = [2, 3] }\n").unwrap();
    let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--format", "json"]);
    let report = json(&out);
    let claims = all_claims(&report);
    assert_eq!(claims.len(), 1, "{claims:#?}");
    assert_ne!(claims[0]["verdict"], "verified", "{:#}", claims[0]);
}

/// A bug that panics on one chapter of a book costs that chapter only: the others keep their
/// verdicts, the chapter is reported as an internal error (JSON `{"path", "error"}` with kind
/// `internal`), and the run ends with the documented exit code 70. The panic is planted with the
/// test hook `DERIVCHECK_PLANTED_PANIC` (issue 47).
#[test]
fn a_panic_in_one_chapter_costs_only_that_chapter() {
    let b = "# B\n\n## 1 S\n\nPLANTED $$x+x=2x$$\n";
    let failed = panic_costs_only_that_chapter(b, ("DERIVCHECK_PLANTED_PANIC", "PLANTED"));
    assert!(failed["message"].as_str().unwrap().contains("DERIVCHECK_PLANTED_PANIC"), "{failed:#}");
}

/// The same for a panic in the check of one chapter's claims, after the chapter was planned
/// (planted with `DERIVCHECK_PLANTED_CHECK_PANIC`, issue 47).
#[test]
fn a_panic_in_the_check_of_one_chapter_costs_only_that_chapter() {
    let b = "# B\n\n## 1 S\n\n$$x+x=2x$$\n\n$$(y+y)^2=4y^2$$\n";
    let failed = panic_costs_only_that_chapter(b, ("DERIVCHECK_PLANTED_CHECK_PANIC", "y+y"));
    assert!(failed["message"].as_str().unwrap().contains("DERIVCHECK_PLANTED_CHECK_PANIC"), "{failed:#}");
}

/// A book of three chapters, the second `b` and checked with the hook `planted` set: asserts
/// exit 70, the internal error of `b.md` and the other two chapters' verdicts; gives `b.md`'s
/// error object.
fn panic_costs_only_that_chapter(b: &str, planted: (&str, &str)) -> serde_json::Value {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book");
    std::fs::create_dir(&book).unwrap();
    std::fs::write(book.join("a.md"), "# A\n\n## 1 S\n\n$$(a+b)^2 = a^2 + 2ab + b^2$$\n").unwrap();
    std::fs::write(book.join("b.md"), b).unwrap();
    std::fs::write(book.join("c.md"), "# C\n\n## 1 S\n\n$$(a-b)^2 = a^2 + b^2$$\n").unwrap();
    let args = ["check", book.to_str().unwrap(), "--format", "json", "--no-cache"];
    let out = run_with_env(&args, &[planted], std::time::Duration::from_secs(120));
    assert_eq!(out.status.code(), Some(70), "{}", stderr(&out));
    assert!(stderr(&out).contains("internal error"), "{}", stderr(&out));
    let report = json(&out);
    let chapters = report["chapters"].as_array().unwrap();
    assert_eq!(chapters.len(), 3, "{report:#}");
    let by_name = |name: &str| chapters.iter().find(|c| c["path"].as_str().unwrap().ends_with(name)).unwrap();
    assert_eq!(by_name("b.md")["error"]["kind"], "internal", "{report:#}");
    let verdict = |name: &str| by_name(name)["report"]["files"][0]["claims"][0]["verdict"].clone();
    assert_eq!(verdict("a.md"), "verified", "{report:#}");
    assert_eq!(verdict("c.md"), "refuted", "{report:#}");
    by_name("b.md")["error"].clone()
}
