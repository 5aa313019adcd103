//! Authors' chapters with little or no spec: assumptions, chapter scope, coverage, and
//! diagnostics that point at the construct not understood. The real binary throughout.

mod common;
use common::*;
use serde_json::Value;

fn verdicts(v: &Value) -> std::collections::BTreeMap<String, String> {
    all_claims(v)
        .into_iter()
        .map(|c| (c["id"].as_str().unwrap().to_string(), c["verdict"].as_str().unwrap().to_string()))
        .collect()
}

fn check(args: &[&str]) -> (Option<i32>, Value) {
    let mut all = vec!["check"];
    all.extend(args);
    all.extend(["--format", "json"]);
    let out = run(&all);
    (out.status.code(), json(&out))
}

/// A one-hot label: the cross-entropy chain verifies with the spec's assumption, and the link
/// that needs it is undecided without, naming the reading; every verdict names the assumption
/// it used.
#[test]
fn an_assumption_decides_the_links_that_need_it() {
    let notes = "tests/chapters/softmax.en.md";
    let (code, with) = check(&[notes, "--spec", "tests/chapters/softmax.en.toml"]);
    assert_eq!(code, Some(1), "the planted errors are refuted: {with}");
    let got = verdicts(&with);
    for id in ["4.2#4.1", "4.2#4.2", "4.2#5"] {
        assert_eq!(got[id], "verified", "{id}: {with}");
    }
    let link = all_claims(&with).into_iter().find(|c| c["id"] == "4.2#4.2").unwrap().clone();
    assert_eq!(link["assuming"][0], "\\sum_{j=1}^K y_j = 1", "{link}");
    assert_eq!(got["4.2#6"], "refuted", "a wrong gradient stays wrong under the assumption");

    // Without the spec, a link that holds only where Σ y_j = 1 is not refuted: it is undecided,
    // naming the condition the section states three paragraphs before (the label is one-hot,
    // so Σ_j y_j = 1); a slip still is refuted.
    let (_, without) = check(&[notes]);
    let got = verdicts(&without);
    assert_eq!(got["4.2#4.1"], "verified", "this link holds for any label");
    assert_eq!(got["4.2#4.2"], "undecided", "this one needs Σ y_j = 1: {without}");
    assert_eq!(got["4.2#5"], "undecided", "so does the gradient p − y");
    assert_eq!(got["4.2#6"], "refuted", "a wrong gradient is wrong for a one-hot label too");
    let link = all_claims(&without).into_iter().find(|c| c["id"] == "4.2#4.2").unwrap().clone();
    assert!(link.get("assuming").is_none(), "{link}");
    assert_eq!(link["reason"]["reading"], "earlier_condition", "{link}");
    assert_eq!(link["reason"]["symbol"], "\\sum_{j} {y}_{j}=1", "{link}");
    assert!(link["reason"]["earlier"].as_str().unwrap().ends_with("softmax.en.md:17:72"), "{link}");
}

/// An assumption that no variable can be solved from leaves the claims undecided, naming it.
#[test]
fn an_assumption_that_cannot_be_solved_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$$x^2+y^2-1=0$$\n").unwrap();
    let spec = dir.path().join("checks.toml");
    std::fs::write(&spec, "[section.\"1\"]\nassume = ['x^2 y^2 = 1']\n").unwrap();
    let (code, v) = check(&[notes.to_str().unwrap(), "--spec", spec.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{v}");
    let claim = all_claims(&v)[0].clone();
    assert_eq!(claim["verdict"], "undecided", "{claim}");
    assert!(claim["detail"].as_str().unwrap().contains("not linear"), "{claim}");

    std::fs::write(&spec, "[section.\"1\"]\nassume = ['x^2 < 1']\n").unwrap();
    let out = run(&["check", notes.to_str().unwrap(), "--spec", spec.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "a relation that is not an equation is a spec error");
    assert!(stderr(&out).contains("one equation"), "{}", stderr(&out));
    assert!(stderr(&out).contains(":2:"), "at the entry's line: {}", stderr(&out));
}

/// The real derivation of d2l's softmax regression (`aligned`, lines 215–221): with the one-hot
/// assumption every link verifies; without it, the link that drops Σ y_j is false as an identity,
/// but the words before the display say it substitutes equations written elsewhere
/// (`将 :eqref:… 代入`), so it is undecided, saying so, not refuted.
#[test]
fn d2l_softmax_cross_entropy_chain() {
    let Some(shared) = shared_dir() else { return };
    let notes = shared.join("corpus/d2l-zh/softmax-regression.md");
    let notes = notes.to_str().unwrap();
    let section = |v: &Value| -> Vec<(String, String, u64)> {
        all_claims(v)
            .into_iter()
            .filter(|c| c["id"].as_str().unwrap().starts_with("softmax及其导数#1."))
            .map(|c| (c["id"].as_str().unwrap().to_string(), c["verdict"].as_str().unwrap().to_string(), 0))
            .collect()
    };
    let (_, with) = check(&[notes, "--spec", "tests/corpus/d2l-softmax-regression.toml"]);
    let links = section(&with);
    assert_eq!(links.len(), 3, "the chain's three links: {links:?}");
    assert!(links.iter().all(|(_, v, _)| v == "verified"), "{links:?}");

    let (_, without) = check(&[notes]);
    let links = section(&without);
    let verdict_of = |id: &str| links.iter().find(|(i, _, _)| i == id).map(|(_, v, _)| v.as_str());
    assert_eq!(verdict_of("softmax及其导数#1.1"), Some("verified"), "{links:?}");
    assert_eq!(verdict_of("softmax及其导数#1.2"), Some("verified"), "{links:?}");
    assert_eq!(verdict_of("softmax及其导数#1.3"), Some("undecided"), "{links:?}");
    let third = all_claims(&without).into_iter().find(|c| c["id"] == "softmax及其导数#1.3").unwrap();
    assert_eq!(third["reason"]["reading"], "substitutes", "{third}");
}

/// The summary accounts for every formula by its role, and each formula carries its role.
#[test]
fn the_summary_accounts_for_every_formula() {
    let (_, v) = check(&[CHAPTER_ZH, "--spec", "derivations/ch15/checks.toml"]);
    let s = &v["summary"];
    let c = &s["coverage"];
    let roles = [
        "with_claims",
        "definitions",
        "mentions",
        "printed",
        "ignored",
        "not_checked",
        "not_parsed",
        "bindings",
        "conditions",
        "example_definitions",
    ];
    let total: u64 = roles.iter().map(|r| c[*r].as_u64().unwrap()).sum();
    assert_eq!(total, s["formulas"].as_u64().unwrap(), "{c}");
    assert!(c["ignored"].as_u64().unwrap() > 0, "the spec ignores hypothetical examples: {c}");
    let formulas: Vec<&Value> =
        v["files"].as_array().unwrap().iter().flat_map(|f| f["formulas"].as_array().unwrap()).collect();
    assert!(formulas.iter().all(|f| f["role"].is_string()), "every formula has a role");

    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "## 1 S\n\n$x$ and $0.25$, $x\\in\\mathbb R^{n}$, $a<b$, $f(x)=x^2$, $f(2)=4$, $\\oslash$\n";
    std::fs::write(&notes, text).unwrap();
    let (_, v) = check(&[notes.to_str().unwrap()]);
    let c = &v["summary"]["coverage"];
    let expected = [
        ("mentions", 1),
        ("printed", 1),
        ("definitions", 2),
        ("not_checked", 1),
        ("with_claims", 1),
        ("not_parsed", 1),
    ];
    for (role, n) in expected {
        assert_eq!(c[role], n, "{role}: {c}");
    }
    let text = stdout(&run(&["check", notes.to_str().unwrap(), "--format", "lines"]));
    assert!(text.contains("1 mentions, 1 printed numbers, 0 ignored, 1 not checked, 1 NOT PARSED"), "{text}");
}

/// What a section defines holds in the sections after it; a later definition shadows it, and
/// the report says so.
#[test]
fn definitions_hold_in_later_sections_and_shadowing_is_visible() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    let text = "## 1 A\n\n$$u=x^2$$\n\n## 2 B\n\n$$\\frac{\\partial u}{\\partial x}=2x$$\n\n\
                ## 3 C\n\n$$u=x^3$$\n\n$$\\frac{\\partial u}{\\partial x}=3x^2$$\n";
    std::fs::write(&notes, text).unwrap();
    let (code, v) = check(&[notes.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{v}");
    let got = verdicts(&v);
    assert_eq!(got["2#1"], "verified", "u from section 1: {v}");
    assert_eq!(got["3#2"], "verified", "u redefined in section 3: {v}");
    let shadowed = &v["files"][0]["shadowed"][0];
    assert_eq!(shadowed["key"], "u", "{v}");
    assert_eq!((shadowed["line"].as_u64(), shadowed["earlier"].as_str()), (Some(11), Some("3:1")));
    let text = stdout(&run(&["check", notes.to_str().unwrap(), "--format", "lines"]));
    assert!(text.contains(":11:1\tnote\t`u` is defined again here"), "{text}");
}

/// An undecided claim's diagnostic underlines the construct that was not understood, not the
/// whole link; an error inside a definition points at where the claim uses it.
#[test]
fn undecided_diagnostics_underline_the_construct() {
    let dir = tempfile::tempdir().unwrap();
    let notes = dir.path().join("notes.md");
    std::fs::write(&notes, "## 1 S\n\n$$a+\\mathcal V^2=a+1$$\n\n$$b=\\mathcal W^2$$\n\n$$b+1=2$$\n").unwrap();
    let (_, v) = check(&[notes.to_str().unwrap()]);
    let claims = all_claims(&v);
    let first = claims.iter().find(|c| c["id"] == "1#1").unwrap();
    assert_eq!(first["verdict"], "undecided");
    let (start, end) = (first["focus"][0].as_u64().unwrap(), first["focus"][1].as_u64().unwrap());
    assert_eq!(&first["tex"].as_str().unwrap()[start as usize..end as usize], "\\mathcal V", "{first}");
    let through_definition = claims.iter().find(|c| c["id"] == "1#3").unwrap();
    let (start, end) =
        (through_definition["focus"][0].as_u64().unwrap(), through_definition["focus"][1].as_u64().unwrap());
    assert_eq!(&through_definition["tex"].as_str().unwrap()[start as usize..end as usize], "b");

    let out = run(&["check", notes.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(text.contains("  ^^^^^^^^^^ "), "the carets sit under `\\mathcal V` only:\n{text}");
}
