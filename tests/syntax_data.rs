//! Parser cases as data: every `tests/data/syntax/NAME.tex` (one formula) must parse to the tree
//! in `NAME.tree` (the S-expression of `derivcheck formulas --ast`). Adding a case is adding
//! two files; `NAME.note` may say why the case is there.

use derivcheck::syntax::{parse_formula, print};
use std::path::Path;

#[test]
fn every_formula_parses_to_its_tree() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/syntax");
    let mut cases: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "tex"))
        .collect();
    cases.sort();
    assert!(cases.len() >= 90, "{} cases", cases.len());
    let mut failures = Vec::new();
    for tex_path in &cases {
        let tex = std::fs::read_to_string(tex_path).unwrap();
        let tex = tex.strip_suffix('\n').unwrap_or(&tex);
        let tree_path = tex_path.with_extension("tree");
        let expected = std::fs::read_to_string(&tree_path)
            .unwrap_or_else(|_| panic!("{} has no .tree beside it", tex_path.display()));
        let expected = expected.strip_suffix('\n').unwrap_or(&expected);
        let name = tex_path.file_stem().unwrap().to_string_lossy();
        match parse_formula(tex) {
            Ok(statement) if print::statement(&statement) == expected => {}
            Ok(statement) => failures
                .push(format!("{name}: `{tex}`\n  got      {}\n  expected {expected}", print::statement(&statement))),
            Err(e) => failures.push(format!("{name}: `{tex}` does not parse: {e}")),
        }
    }
    assert!(failures.is_empty(), "{} of {} syntax cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
