//! Tidy: the pipeline in `src/` runs one way. Each stage may use only the stages before it
//! (README "Architecture"); `model` and `notation` are plain data at the bottom.

use std::collections::BTreeMap;
use std::path::Path;

/// Stages in pipeline order; a module may use modules of a strictly lower rank.
const STAGES: [(&str, u32); 14] = [
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
    ("cli", 9),
];

/// Every `crate::name` a file mentions.
fn crate_references(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("crate::") {
        let name: String = text[i + 7..].chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
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
}
