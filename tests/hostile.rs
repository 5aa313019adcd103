//! Hostile input: every case ends within a minute with exit 0, 1 or 2 and a clear message, never
//! a panic, an abort or a stack overflow. Each limit has an input past it here.

mod common;
use common::*;
use std::time::Duration;

const LIMIT: Duration = Duration::from_secs(60);

fn notes_with(formula: &str) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.md");
    std::fs::write(&path, format!("## 1 S\n\n$${formula}$$\n")).unwrap();
    let path = path.to_str().unwrap().to_string();
    (dir, path)
}

fn ends_cleanly(out: &std::process::Output) {
    let err = stderr(out);
    assert!(matches!(out.status.code(), Some(0..=2)), "exit {:?}: {err}", out.status.code());
    assert!(!err.contains("panicked") && !err.contains("overflow") && !err.contains("aborting"), "{err}");
    // Every case here stays under 2 GB (the largest peak of the checks run so far).
    let peak = children_peak_rss();
    assert!(peak < 2 << 30, "a hostile case reached {} MB", peak >> 20);
}

#[test]
fn long_chains_are_refused_before_any_recursion() {
    let cases = [
        vec!["x"; 27_000].join("+") + "=1",
        "x".repeat(30_000) + "=1",
        format!("x{}=1", "'".repeat(30_000)),
        vec!["x"; 30_000].join("-") + "=1",
        vec!["x"; 5_000].join("^") + "=1",
    ];
    for formula in cases {
        let (_dir, path) = notes_with(&formula);
        for args in [vec!["formulas", path.as_str(), "--ast"], vec!["check", path.as_str(), "--no-cache"]] {
            let out = run_with_limit(&args, LIMIT);
            ends_cleanly(&out);
            assert!(stderr(&out).contains("formula too long"), "{}", stderr(&out));
        }
    }
}

#[test]
fn huge_numbers_sums_and_powers_are_budgeted() {
    let cases = [
        ("10^{10^{10}}=1", "exponent larger than"),
        ("2^{2^{2^{2^{2^{2}}}}}=1", "exponent larger than"),
        ("x^{100000}=x", "exponent larger than"),
        ("\\sum_{i=1}^{1000000000} i=1", "more than 100000 terms"),
    ];
    for (formula, message) in cases {
        let (_dir, path) = notes_with(formula);
        let out = run_with_limit(&["check", &path, "--no-cache", "--format", "json"], LIMIT);
        ends_cleanly(&out);
        let v = json(&out);
        let claim = &all_claims(&v)[0];
        assert_eq!(claim["verdict"], "undecided", "{formula}: {claim}");
        assert!(claim["detail"].as_str().unwrap().contains(message), "{formula}: {claim}");
    }
}

#[test]
fn a_matrix_power_is_never_silently_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$A\\in\\mathbb R^{2\\times 2}$. Thus\n\n$$A^{100}=A^{64}$$\n").unwrap();
    let out = run_with_limit(&["check", notes.to_str().unwrap(), "--no-cache", "--format", "json"], LIMIT);
    ends_cleanly(&out);
    let v = json(&out);
    assert_eq!(all_claims(&v)[0]["verdict"], "undecided", "{v}");
}

/// A determinant past 16×16 (its expansion keeps 2ⁿ minors) is a budget matter, undecided.
#[test]
fn a_determinant_past_its_size_is_undecided() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "## 1 S\n\n$A\\in\\mathbb R^{17\\times 17}$\n\n$$\\det(A^\\top)=\\det(A)$$\n";
    std::fs::write(&notes, text).unwrap();
    let out = run_with_limit(&["check", notes.to_str().unwrap(), "--no-cache", "--format", "json"], LIMIT);
    ends_cleanly(&out);
    let v = json(&out);
    let claim = all_claims(&v)[0];
    assert_eq!(claim["verdict"], "undecided", "{v}");
    assert!(claim["detail"].as_str().unwrap().contains("17×17"), "{v}");
}

#[test]
fn sizes_past_the_limits_are_spec_errors() {
    let specs = [
        "sizes = { n = [9223372036854775807] }",
        "sizes = { n = [4294967297] }",
        "sizes = { n = [100000000] }",
        "sizes = { n = [2] }\ncrosscheck = { n = [100000000] }",
        "sizes = { n = [2] }\nmatrix = { X = [\"100000000\", \"n\"] }",
        "sizes = { a = [1,2,3,4,5,6,7,8,9,10], b = [1,2,3,4,5,6,7,8,9,10], c = [1,2,3,4,5,6,7,8,9,10] }",
    ];
    let (dir, path) = notes_with("x+y=y+x");
    for (k, body) in specs.iter().enumerate() {
        let spec = dir.path().join(format!("spec{k}.toml"));
        std::fs::write(&spec, format!("[section.\"1\"]\n{body}\n")).unwrap();
        let out = run_with_limit(&["check", &path, "--spec", spec.to_str().unwrap(), "--no-cache"], LIMIT);
        ends_cleanly(&out);
        assert_eq!(out.status.code(), Some(2), "{body}: {}", stderr(&out));
        assert!(stderr(&out).contains(":2:") || stderr(&out).contains(":3:"), "at the entry: {}", stderr(&out));
    }
    let (_dir, path) = notes_with("X^\\top X=X^\\top X,\\quad X\\in\\mathbb R^{100000000}");
    let out = run_with_limit(&["check", &path, "--no-cache", "--format", "json"], LIMIT);
    ends_cleanly(&out);
}

#[test]
fn endless_or_huge_files_are_refused() {
    let (_dir, path) = notes_with("x=x");
    for args in [vec!["check", "/dev/zero"], vec!["check", path.as_str(), "--spec", "/dev/zero"]] {
        let out = run_with_limit(&args, LIMIT);
        assert_eq!(out.status.code(), Some(2));
        assert!(stderr(&out).contains("larger than"), "{}", stderr(&out));
    }
}

#[test]
fn a_line_of_dollars_gives_bounded_diagnostics() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "$".repeat(10_000)).unwrap();
    for command in ["formulas", "check"] {
        let out = run_with_limit(
            &[command, notes.to_str().unwrap(), "--no-cache"][..if command == "check" { 3 } else { 2 }],
            LIMIT,
        );
        ends_cleanly(&out);
        assert!(out.stderr.len() < 2_000_000, "{command}: {} bytes of diagnostics", out.stderr.len());
        // `formulas` lists each (the first few); `check` counts those that hold no relation.
        let counted =
            if command == "check" { "do not parse state no relation" } else { "more formula(s) that do not parse" };
        assert!(stderr(&out).contains(counted), "{command}");
    }
}

#[test]
fn the_run_time_limit_leaves_the_rest_undecided() {
    let out =
        run_with_limit(&["check", "derivations/ch15", "--time-limit", "0", "--no-cache", "--format", "json"], LIMIT);
    ends_cleanly(&out);
    let v = json(&out);
    assert!(all_claims(&v).iter().all(|c| c["verdict"] == "undecided"));
    assert!(all_claims(&v)[0]["detail"].as_str().unwrap().contains("time limit"));
}

/// Inputs the fuzzers found slow or crashing, kept in `tests/data/fuzz/`: ambiguous `|` bars
/// (backtracking until pest's fixed call limit, about 0.4 s a formula, before the budget grew
/// with the length), and an index whose `auto` range was read off a matrix whose subscript
/// needed that range again (an endless recursion: SIGSEGV in the fuzzer, an abort in the
/// binary, before the cycle became an `undecided`), and two documents of integrals the
/// `document` target's float cross-check took 2.6 s and 6.1 s over (nested quadrature, within its
/// budget; the binary checks each in under a second). As notes and as one display formula, they
/// end with verdicts or parse errors. Kept in `tests/data/fuzz/`.
#[test]
fn inputs_the_fuzzers_found_end_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        let as_notes = tempfile::tempdir().unwrap();
        let notes = as_notes.path().join("notes.md");
        std::fs::write(&notes, &text).unwrap();
        let (_formula_dir, formula) = notes_with(text.trim());
        for path in [notes.to_str().unwrap(), formula.as_str()] {
            ends_cleanly(&run_with_limit(&["formulas", path], LIMIT));
            ends_cleanly(&run_with_limit(&["check", path, "--no-cache"], LIMIT));
        }
    }
}

/// Hundreds of formulas of ambiguous `|` bars in one file: each gets a parse budget that grows
/// with its length (not pest's fixed limit, ~0.4 s each, which made such a file take minutes),
/// and each is a parse error that says what to write instead.
#[test]
fn a_file_of_ambiguous_bars_is_read_in_bounded_time() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let formula = "||l".repeat(60) + "|l|o|l|";
    let text: String = (0..300).map(|i| format!("## {i} S\n\n$${formula}$$\n\n")).collect();
    std::fs::write(&notes, text).unwrap();
    for command in ["formulas", "check"] {
        let out = run_with_limit(&[command, notes.to_str().unwrap()], LIMIT);
        ends_cleanly(&out);
        let named = if command == "check" { "do not parse state no relation" } else { "too ambiguous to read within" };
        assert!(stderr(&out).contains(named), "{command}: {}", stderr(&out));
    }
}

/// Specs and notes the spec-and-notes fuzzers found (`tests/data/fuzz-check/NAME.md` with
/// `NAME.toml`): a tanh layer of width 93 made the CAS's normal form run past 24 GB before
/// the normal form was limited to differences of at most 64 transcendental atoms; a loss whose
/// definition used its own adjoint overflowed the stack through the fresh instances of the
/// derivatives; a determinant cross-checked at n = 12 took 12! products before the expansion
/// shared its minors.
#[test]
fn specs_the_check_fuzzer_found_end_cleanly() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fuzz-check");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let notes = entry.unwrap().path();
        if notes.extension().is_some_and(|e| e == "md") {
            let spec = notes.with_extension("toml");
            let out = run_with_limit(
                &["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap(), "--no-cache"],
                LIMIT,
            );
            ends_cleanly(&out);
            assert!(stdout(&out).contains("verified"), "{}", stdout(&out));
        }
    }
}

/// Other math delimiters by the hundred thousand, unclosed or closed far away: each closer is
/// looked up, never scanned for again.
#[test]
fn many_unclosed_mathjax_delimiters_end_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "\\(a ".repeat(100_000) + &"\\[b ".repeat(100_000) + &"\\begin{align} ".repeat(50_000) + "\\)";
    std::fs::write(&notes, text).unwrap();
    let out = run_with_limit(&["check", notes.to_str().unwrap(), "--no-cache"], LIMIT);
    ends_cleanly(&out);
}

/// Being stoppable costs nothing where nothing needs stopping: a chapter whose claims the
/// randomized test decides starts no bounded worker (`-v` counts them); a printed decimal,
/// which the CAS rounds, starts one.
#[test]
fn a_chapter_that_needs_no_exact_work_starts_no_worker() {
    let workers = |notes: &str| -> usize {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("notes.md");
        std::fs::write(&path, notes).unwrap();
        let out = run(&["check", path.to_str().unwrap(), "--no-cache", "-v"]);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        let line = stderr(&out).lines().find(|l| l.contains("bounded worker")).map(str::to_string);
        let line = line.unwrap_or_else(|| panic!("-v counts the workers: {}", stderr(&out)));
        line.split_whitespace().next().unwrap().parse().unwrap()
    };
    let randomized = "## 1 Rules\n\n$$(a+b)^2=a^2+2ab+b^2$$\n\n$$\\frac{d}{dx}e^{2x}=2e^{2x}$$\n";
    assert_eq!(workers(randomized), 0);
    let printed = format!("{randomized}\n$$\\sqrt{{2}}\\approx 1.414$$\n");
    assert_eq!(workers(&printed), 1);
}

/// One worker does a chapter's exact work, claim after claim (issue 47): three printed
/// decimals, which the CAS rounds, start one worker, not three. A claim whose exact stage passes
/// the memory limit (planted with the test hook `DERIVCHECK_PLANTED_BLOWUP`) stops its worker:
/// that claim is undecided, saying so, a new worker carries on, and the claims after it keep
/// their verdicts, in the order of the notes.
#[test]
fn one_worker_checks_claim_after_claim_and_a_blown_memory_limit_costs_one_claim() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.md");
    let notes = "## 1 Roots\n\n$$\\sqrt{2}\\approx 1.414$$\n\n$$\\sqrt{3}\\approx 1.732$$\n\n$$\\sqrt{5}\\approx 2.236$$\n\n$$\\sqrt{7}\\approx 2.7$$\n";
    std::fs::write(&path, notes).unwrap();
    let path = path.to_str().unwrap();
    let checked = |planted: &str| {
        let args = ["check", path, "--no-cache", "--format", "json", "-v"];
        let out = run_with_env(&args, &[("DERIVCHECK_PLANTED_BLOWUP", planted)], LIMIT);
        let line = stderr(&out).lines().find(|l| l.contains("bounded worker")).map(str::to_string);
        let workers: usize = line.and_then(|l| l.split_whitespace().next()?.parse().ok()).unwrap();
        let v = json(&out);
        let verdicts: Vec<(String, String)> = all_claims(&v)
            .iter()
            .map(|c| (c["verdict"].as_str().unwrap().to_string(), c["detail"].as_str().unwrap_or("").to_string()))
            .collect();
        (out.status.code(), workers, verdicts)
    };
    let (code, workers, verdicts) = checked("");
    assert_eq!(code, Some(1), "{verdicts:?}");
    assert_eq!(workers, 1, "one worker for the chapter: {verdicts:?}");
    let statuses: Vec<&str> = verdicts.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(statuses, ["verified", "verified", "verified", "refuted"], "{verdicts:?}");
    let (code, workers, verdicts) = checked("\\sqrt{3}");
    assert_eq!(code, Some(1), "{verdicts:?}");
    assert_eq!(workers, 2, "the stopped worker is replaced once: {verdicts:?}");
    let statuses: Vec<&str> = verdicts.iter().map(|(v, _)| v.as_str()).collect();
    assert_eq!(statuses, ["verified", "undecided", "verified", "refuted"], "{verdicts:?}");
    assert!(verdicts[1].1.contains("memory limit"), "{verdicts:?}");
}

/// Issue 47's reduction of a published chapter: Chinese prose with multi-byte separators before
/// a supposition word, `$` pairs around it. The supposition's offset was counted as if every
/// separator were one byte, and the cut fell inside a character (a panic that ended the run).
#[test]
fn mixed_prose_around_a_supposition_checks_without_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.md");
    let texts = [
        "## 1\n\nproblem: $ l : loss $ 参数 假设$\\theta$是集合：suppose that $\\theta$ has $\\theta_1=2$\n",
        "## 1\n\n参数：，assume that $x$ 满足 $x_1=2$，suppose 假设 $y$：$y=1$\n",
    ];
    for text in texts {
        std::fs::write(&path, text).unwrap();
        let out = run_with_limit(&["check", path.to_str().unwrap(), "--no-cache"], LIMIT);
        ends_cleanly(&out);
    }
}
