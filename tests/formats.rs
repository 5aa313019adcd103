//! The formats notes come in (issue 49): `.markdown` and `.mdx` files are read as Markdown
//! (an MDX file's `import` lines and JSX components hold no formula), MyST's math directive
//! (```` ```{math} ````, its `:label:` dropped) is a display formula, and a folder's walk picks
//! them all up. Each has a wrong formula refuted at its line (a directive's: its fence's) and a
//! right one verified.

mod common;
use common::*;

/// Writes `files` into a fresh folder and checks the folder; gives the claims by file name, as
/// (line, status).
fn checked(files: &[(&str, &str)]) -> Vec<(String, u64, String)> {
    let dir = tempfile::tempdir().unwrap();
    for (name, text) in files {
        std::fs::write(dir.path().join(name), text).unwrap();
    }
    let out = run(&["check", dir.path().to_str().unwrap(), "--format", "json", "--no-cache"]);
    let report = json(&out);
    // (A folder of loose files is a book: a report per chapter.)
    let chapters = report["chapters"].as_array().expect("a book's chapters");
    let files = chapters.iter().flat_map(|c| c["report"]["files"].as_array().cloned().unwrap_or_default());
    let mut claims = Vec::new();
    for file in files {
        let name = file["path"].as_str().unwrap().rsplit('/').next().unwrap().to_string();
        for claim in file["claims"].as_array().unwrap() {
            claims.push((
                name.clone(),
                claim["line"].as_u64().unwrap(),
                claim["verdict"].as_str().unwrap().to_string(),
            ));
        }
    }
    claims.sort();
    claims
}

#[test]
fn markdown_mdx_and_myst_files_are_read_and_refuted_at_their_lines() {
    let markdown = "---\nlayout: post\n---\n\n## 1 Squares\n\nWe expand $$(a+b)^2 = a^2 + 2ab + b^2$$\n\nand $$(a-b)^2 = a^2 + 2ab + b^2$$\n";
    let mdx = "---\ntitle: T\n---\nimport BlogImage from \"@/components/BlogImage.astro\";\n\n## 1 Products\n\n<BlogImage\n  src=\"x.png\"\n/>\n\nThen $$(a+b)c = ac + bc$$\n\nand $$(a-b)c = ac + bc$$\n";
    let myst = "## 1 Sums\n\nWe have\n\n```{math}\n:label: first\n\n(x+1)^2 = x^2 + 2x + 1\n```\n\nand\n\n```{math}\n:label: second\n(x-1)^2 = x^2 + 1\n```\n\nA fence of code is not math:\n\n```python\nx = 1 + 1 == 3\n```\n";
    let claims = checked(&[("a.markdown", markdown), ("b.mdx", mdx), ("c.md", myst), ("d.txt", "$$1 = 2$$\n")]);
    let expected = [
        ("a.markdown", 7, "verified"),
        ("a.markdown", 9, "refuted"),
        ("b.mdx", 12, "verified"),
        ("b.mdx", 14, "refuted"),
        ("c.md", 5, "verified"),
        ("c.md", 13, "refuted"),
    ];
    let got: Vec<(&str, u64, &str)> = claims.iter().map(|(f, l, s)| (f.as_str(), *l, s.as_str())).collect();
    assert_eq!(got, expected);
}
