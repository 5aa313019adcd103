//! Tidy: the pipeline in `src/` runs one way. Each stage may use only the stages before it
//! (README "Architecture"); `model` and `notation` are plain data at the bottom.

use std::collections::BTreeMap;
use std::path::Path;

/// Stages in pipeline order; a module may use modules of a strictly lower rank.
const STAGES: [(&str, u32); 15] = [
    ("model", 0),
    ("notation", 0),
    ("notes", 1),
    ("syntax", 2),
    ("listing", 3),
    ("spec", 3),
    ("sema", 4),
    ("eval", 5),
    ("cas", 6),
    ("numeric", 6),
    ("modular", 6),
    ("check", 7),
    ("report", 8),
    ("driver", 9),
    ("cli", 10),
];

/// Every `crate::name` a file mentions, grouped imports (`use crate::{sema, check::x}`) included.
fn crate_references(text: &str) -> Vec<String> {
    let word = |s: &str| -> String { s.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let rest = &text[i + 7..];
        if let Some(group) = rest.strip_prefix('{') {
            // Only the first path segment of each item names a module: `{a::b, c}` is a and c.
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            let mut depth = 0;
            let mut start = true;
            for (k, ch) in inner.char_indices() {
                match ch {
                    '{' => depth += 1,
                    '}' => depth -= 1,
                    ',' if depth == 0 => start = true,
                    c if start && (c.is_ascii_alphanumeric() || c == '_') => {
                        out.push(word(&inner[k..]));
                        start = false;
                    }
                    c if !c.is_whitespace() => start = false,
                    _ => {}
                }
            }
            continue;
        }
        let name = word(rest);
        if !name.is_empty() {
            out.push(name);
        }
    }
    out
}

fn files_of(module: &str, src: &Path) -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    let single = src.join(format!("{module}.rs"));
    if single.is_file() {
        files.push(single);
    }
    let dir = src.join(module);
    if dir.is_dir() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "rs") {
                files.push(path);
            }
        }
    }
    files
}

#[test]
fn no_stage_uses_a_later_one() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let rank: BTreeMap<&str, u32> = STAGES.into_iter().collect();
    let mut violations = Vec::new();
    for (module, own) in STAGES {
        let files = files_of(module, &src);
        assert!(!files.is_empty(), "module {module} has no files");
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            for used in crate_references(&text) {
                let Some(&theirs) = rank.get(used.as_str()) else { continue };
                if used != module && theirs >= own {
                    violations.push(format!(
                        "{} uses `crate::{used}` ({module} is stage {own}, {used} is stage {theirs})",
                        file.display()
                    ));
                }
            }
        }
    }
    violations.sort();
    violations.dedup();
    assert!(violations.is_empty(), "imports that point up the pipeline:\n{}", violations.join("\n"));
}

/// Each stage's module doc opens with its number from [`STAGES`] (`//! Stage 4 — `sema`: …`),
/// so the docs and this list never number the pipeline differently.
#[test]
fn module_docs_number_the_stages_as_this_list_does() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut wrong = Vec::new();
    for (module, rank) in STAGES.into_iter().filter(|(_, rank)| *rank > 0) {
        let file =
            [src.join(format!("{module}.rs")), src.join(module).join("mod.rs")].into_iter().find(|f| f.is_file());
        let first = file.map(|f| std::fs::read_to_string(f).unwrap().lines().next().unwrap_or_default().to_string());
        let expected = format!("//! Stage {rank} — `{module}`");
        if !first.as_deref().is_some_and(|l| l.starts_with(&expected)) {
            wrong.push(format!("{module}: expected `{expected}: …`, found {first:?}"));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

#[test]
fn every_module_of_src_has_a_stage() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    for line in lib.lines().filter_map(|l| l.trim().strip_prefix("pub mod ")) {
        let name = line.trim_end_matches(';');
        assert!(
            STAGES.iter().any(|(m, _)| *m == name),
            "`{name}` is in no stage of the pipeline (tests/tidy.rs, README)"
        );
    }
}

#[test]
fn the_checker_sees_a_violation() {
    assert_eq!(crate_references("use crate::cli::main; crate::eval::x"), vec!["cli", "eval"]);
    assert_eq!(crate_references("use crate::{sema::Scope, check};"), vec!["sema", "check"]);
}

/// External crates each belong to one stage (README "Architecture", invariants): a file of any
/// other stage that names one has put that stage's work in the wrong place.
const OWNED_CRATES: [(&str, &str); 3] = [("symbolica", "cas"), ("ndarray", "numeric"), ("tera", "report")];

/// Every `.rs` file under `src/`, with the stage (top module) it belongs to.
fn source_files() -> Vec<(String, std::path::PathBuf)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "rs") {
                let relative = path.strip_prefix(&src).unwrap();
                let first = relative.components().next().unwrap().as_os_str().to_string_lossy().to_string();
                out.push((first.trim_end_matches(".rs").to_string(), path));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn symbolica_ndarray_and_tera_are_each_used_by_their_own_stage_only() {
    let mut violations = Vec::new();
    for (stage, file) in source_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, owner) in OWNED_CRATES {
            let named = text.contains(&format!("{name}::")) || text.contains(&format!("use {name}"));
            if named && stage != owner {
                violations.push(format!("{} names `{name}`, which only `{owner}` may use", file.display()));
            }
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}

/// Only `cli` writes files (the user's outputs, atomically, through `driver::files`, which also
/// keeps the verdict cache's entries); the one other file is the CAS's inter-process lock, which
/// `cas::worker` takes for Symbolica's one-thread licence.
#[test]
fn only_the_cli_writes_files() {
    let writes = ["fs::write", "File::create", "fs::rename", "OpenOptions", "create_dir"];
    let mut violations = Vec::new();
    for (stage, file) in source_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let lock = file.ends_with("cas/worker.rs");
        let writer = file.ends_with("driver/files.rs");
        for call in writes.iter().filter(|w| text.contains(**w)) {
            if stage != "cli" && !writer && !(lock && *call == "OpenOptions") {
                violations.push(format!("{} calls `{call}`", file.display()));
            }
        }
    }
    assert!(violations.is_empty(), "files written outside `cli`:\n{}", violations.join("\n"));
}

/// Each package `cargo tree` lists for these dependency edges, with the features it is built with.
fn resolved_features(edges: &str) -> BTreeMap<String, String> {
    let out = std::process::Command::new(env!("CARGO"))
        .args(["tree", "--frozen", "--prefix", "none", "--edges", edges, "--format", "{p} [{f}]"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo runs");
    assert!(out.status.success(), "cargo tree: {}", String::from_utf8_lossy(&out.stderr));
    let mut packages = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let line = line.trim_end_matches(" (*)");
        let Some((package, features)) = line.split_once(" [") else { continue };
        // `name vX.Y.Z (path)` keeps only name and version.
        let package: String = package.split(' ').take(2).collect::<Vec<_>>().join(" ");
        packages.insert(package, features.trim_end_matches(']').to_string());
    }
    packages
}

/// README's two set-up commands build Symbolica once: `cargo test` adds the dev-dependencies,
/// and the features they turn on in crates the normal build shares (zerocopy's `derive` through
/// criterion, …) would otherwise give those crates — and Symbolica above them — a second build.
/// `Cargo.toml` declares them on the normal dependencies too.
#[test]
fn the_test_build_resolves_every_shared_crate_as_the_normal_build_does() {
    let normal = resolved_features("normal,build");
    let with_dev = resolved_features("normal,build,dev");
    assert!(normal.keys().any(|p| p.starts_with("symbolica ")), "symbolica is a dependency: {normal:?}");
    let differing: Vec<String> = normal
        .iter()
        .filter_map(|(package, features)| {
            let other = with_dev.get(package)?;
            (other != features)
                .then(|| format!("{package}: [{features}] normally, [{other}] with the dev-dependencies"))
        })
        .collect();
    assert!(
        differing.is_empty(),
        "declare these features on the normal dependencies (Cargo.toml):\n{}",
        differing.join("\n")
    );
}

/// The pipeline runs in `driver`: `cli` parses arguments, reads and writes files and decides the
/// exit code, and names no stage that plans or checks; the benchmarks, property tests and fuzz
/// targets run the library through the driver, never through the command line.
#[test]
fn the_cli_holds_no_pipeline_and_nothing_runs_through_it() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut violations = Vec::new();
    for file in files_of("cli", &root.join("src")) {
        let text = std::fs::read_to_string(&file).unwrap();
        for used in crate_references(&text) {
            if ["sema", "check", "eval"].contains(&used.as_str()) {
                violations.push(format!("{} uses `crate::{used}`", file.display()));
            }
        }
    }
    let mut callers: Vec<std::path::PathBuf> = vec![root.join("tests/properties.rs")];
    for dir in ["benches", "fuzz/fuzz_targets"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|x| x == "rs") {
                callers.push(path);
            }
        }
    }
    for file in callers {
        if std::fs::read_to_string(&file).unwrap().contains("derivcheck::cli") {
            violations.push(format!("{} runs the library through `derivcheck::cli`", file.display()));
        }
    }
    assert!(violations.is_empty(), "{}", violations.join("\n"));
}
