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

/// The readings of a claim are decided in one module, `check::readings` (README "Architecture"):
/// no other file names a reading (`Reading::Condition`, …) but the result model that defines
/// them and the report that words them. `sema` records what the words say (`WordsRole`); `check`
/// evaluates what the readings module asks.
#[test]
fn readings_are_decided_in_check_readings_only() {
    let allowed = |file: &Path| {
        let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let relative = file.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        relative == "model.rs"
            || relative == "check/readings.rs"
            // (The readings module's own tests, a child module of it.)
            || relative == "check/readings_tests.rs"
            || relative == "report.rs"
            || relative.starts_with("report/")
    };
    let mut violations = Vec::new();
    for (_, file) in source_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        if !allowed(&file) && names_a_reading(&text) {
            violations.push(file.display().to_string());
        }
    }
    assert!(violations.is_empty(), "files that decide a reading outside check/readings.rs:\n{}", violations.join("\n"));
}

/// Does `text` name a variant of `Reading` (`Reading::Condition`, not `OtherReading::…`)?
fn names_a_reading(text: &str) -> bool {
    text.match_indices("Reading::").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + "Reading::".len()..].chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after.is_some_and(|c| c.is_ascii_uppercase())
    })
}

#[test]
fn the_readings_checker_sees_a_reading() {
    assert!(names_a_reading("let r = crate::model::Reading::Condition;"));
    assert!(names_a_reading("(Reading::EntryOf, x)"));
    assert!(!names_a_reading("Reason::OtherReading { reading, .. }"));
    assert!(!names_a_reading("WordsReading::new()"));
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

/// Size limits (issue 48): a file, a function and a struct of state each stay small enough to
/// change with confidence. The word tables (`report/words.rs`) and the serialized report model
/// are data, not state, and keep their fields.
const LONGEST_FILE: usize = 1500;
const LONGEST_FUNCTION: usize = 150;
const MOST_FIELDS: usize = 15;
/// Stages whose structs hold state and are kept to [`MOST_FIELDS`].
const STATEFUL_STAGES: [&str; 3] = ["sema", "check", "eval"];

/// The functions of a rustfmt-formatted file (`.ci/run` checks the formatting), each with its
/// first line (1-based) and its length in lines: from `fn` to the `}` at the same indentation.
fn function_lengths(text: &str) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let Some(after) = ["pub(crate) fn ", "pub(super) fn ", "pub fn ", "fn ", "const fn ", "pub const fn "]
            .iter()
            .find_map(|p| body.strip_prefix(p))
        else {
            continue;
        };
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        // A declaration without a body (a trait's) is its one line.
        let close = format!("{indent}}}");
        let end = if line.ends_with(';') { Some(0) } else { lines[i..].iter().position(|l| *l == close) };
        let Some(end) = end else { continue };
        out.push((name, i + 1, end + 1));
    }
    out
}

/// The structs of a rustfmt-formatted file with their number of named fields.
fn struct_fields(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let Some(after) = ["pub(crate) struct ", "pub(super) struct ", "pub struct ", "struct "]
            .iter()
            .find_map(|p| body.strip_prefix(p))
        else {
            continue;
        };
        if !line.ends_with('{') {
            continue;
        }
        let name: String = after.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
        let field_indent = format!("{indent}    ");
        let close = format!("{indent}}}");
        let fields = lines[i + 1..]
            .iter()
            .take_while(|l| **l != close)
            .filter(|l| {
                l.strip_prefix(&field_indent).is_some_and(|f| {
                    let f = f
                        .trim_start_matches("pub(crate) ")
                        .trim_start_matches("pub(super) ")
                        .trim_start_matches("pub ");
                    !f.starts_with("//")
                        && !f.starts_with('#')
                        && f.split_once(':').is_some_and(|(n, _)| n.chars().all(|c| c.is_alphanumeric() || c == '_'))
                })
            })
            .count();
        out.push((name, fields));
    }
    out
}

#[test]
fn no_file_function_or_struct_of_state_is_too_large() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    // What is over a limit: its name (`src/x.rs`, `src/x.rs: fn f`) and size.
    let mut over: Vec<(String, usize, usize)> = Vec::new();
    for (stage, file) in source_files() {
        let text = std::fs::read_to_string(&file).unwrap();
        let shown = format!("src/{}", file.strip_prefix(&src).unwrap().display());
        over.push((shown.clone(), text.lines().count(), LONGEST_FILE));
        for (name, _, length) in function_lengths(&text) {
            over.push((format!("{shown}: fn {name}"), length, LONGEST_FUNCTION));
        }
        if STATEFUL_STAGES.contains(&stage.as_str()) {
            for (name, fields) in struct_fields(&text) {
                over.push((format!("{shown}: struct {name}"), fields, MOST_FIELDS));
            }
        }
    }
    let violations: Vec<String> = over
        .iter()
        .filter(|(_, size, limit)| size > limit)
        .map(|(name, size, limit)| format!("{name}: {size} (at most {limit})"))
        .collect();
    assert!(
        violations.is_empty(),
        "too large (lines of a file or function, fields of a struct):\n{}",
        violations.join("\n")
    );
}

#[test]
fn the_size_checker_sees_functions_and_fields() {
    let text = "fn a() {\n    let x = 1;\n}\n\nimpl S {\n    pub fn b(&self) {\n        x\n    }\n}\n";
    assert_eq!(function_lengths(text), vec![("a".to_string(), 1, 3), ("b".to_string(), 6, 3)]);
    let text = "struct S {\n    /// doc: not a field\n    a: u8,\n    pub b: Vec<(u8, u8)>,\n}\n";
    assert_eq!(struct_fields(text), vec![("S".to_string(), 2)]);
}

/// The sibling files (`super::name`, `crate::stage::name`) each file of a folder of `src/` names.
fn sibling_references(folder: &Path, stage: &str) -> BTreeMap<String, Vec<String>> {
    let files: Vec<std::path::PathBuf> = std::fs::read_dir(folder)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    let stems: Vec<String> = files.iter().map(|p| p.file_stem().unwrap().to_string_lossy().to_string()).collect();
    let mut edges = BTreeMap::new();
    for (file, stem) in files.iter().zip(&stems) {
        let text = std::fs::read_to_string(file).unwrap();
        let named: Vec<String> = stems
            .iter()
            .filter(|other| *other != stem)
            .filter(|other| {
                [format!("super::{other}::"), format!("crate::{stage}::{other}::"), format!("super::{{{other}")]
                    .iter()
                    .any(|p| text.contains(p.as_str()))
            })
            .cloned()
            .collect();
        edges.insert(stem.clone(), named);
    }
    edges
}

/// A circle of imports between the files of one folder, if there is one (as `a → b → a`).
fn import_circle(edges: &BTreeMap<String, Vec<String>>) -> Option<String> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut std::collections::BTreeSet<String>,
    ) -> Option<String> {
        if let Some(at) = path.iter().position(|p| p == node) {
            let mut circle = path[at..].to_vec();
            circle.push(node.to_string());
            return Some(circle.join(" → "));
        }
        if done.contains(node) {
            return None;
        }
        path.push(node.to_string());
        for next in edges.get(node).into_iter().flatten() {
            if let Some(circle) = visit(next, edges, path, done) {
                return Some(circle);
            }
        }
        path.pop();
        done.insert(node.to_string());
        None
    }
    let mut done = std::collections::BTreeSet::new();
    edges.keys().find_map(|node| visit(node, edges, &mut Vec::new(), &mut done))
}

#[test]
fn no_import_circle_between_files_of_a_folder() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut circles = Vec::new();
    for entry in std::fs::read_dir(&src).unwrap() {
        let folder = entry.unwrap().path();
        if folder.is_dir() {
            let stage = folder.file_name().unwrap().to_string_lossy().to_string();
            if let Some(circle) = import_circle(&sibling_references(&folder, &stage)) {
                circles.push(format!("src/{stage}/: {circle}"));
            }
        }
    }
    assert!(circles.is_empty(), "import circles:\n{}", circles.join("\n"));
}

#[test]
fn the_circle_checker_sees_a_circle() {
    let edges = |pairs: &[(&str, &str)]| {
        let mut map: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for (a, b) in pairs {
            map.entry(a.to_string()).or_default().push(b.to_string());
            map.entry(b.to_string()).or_default();
        }
        map
    };
    assert_eq!(import_circle(&edges(&[("a", "b"), ("b", "c"), ("c", "a")])).as_deref(), Some("a → b → c → a"));
    assert_eq!(import_circle(&edges(&[("a", "b"), ("b", "c"), ("a", "c")])), None);
}
