//! The formats notes come in (issue 49): `.markdown` and `.mdx` files are read as Markdown
//! (an MDX file's `import` lines and JSX components hold no formula), MyST's math directive
//! (```` ```{math} ````, its `:label:` a comment) is a display formula, each row at its own line,
//! a directive whose body is Markdown (an example, a note, an exercise and its solution) is read
//! as the notes' text, its letters its own, a Jupyter notebook is read
//! by its Markdown cells (at the lines of the `.ipynb` file, with the cell and its line), and a
//! folder's walk picks them all up. Each has a wrong formula refuted at its line (a directive's: its fence's) and a
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
    let myst = "## 1 Sums\n\nWe have\n\n```{math}\n:label: first\n\n(x+1)^2 = x^2 + 2x + 1\n```\n\nand\n\n```{math}\n:label: second\n(x-1)^2 = x^2 + 1\n```\n\nand in rows, each at its own line:\n\n```{math}\n:label: rows\n\\begin{aligned}\n(y+1)^2 &= y^2 + 2y + 1 \\\\\n&= (y+1)y + y + 2\n\\end{aligned}\n```\n\nA fence of code is not math:\n\n```python\nx = 1 + 1 == 3\n```\n";
    let notebook = notebook();
    let claims = checked(&[
        ("a.markdown", markdown),
        ("b.mdx", mdx),
        ("c.md", myst),
        ("d.txt", "$$1 = 2$$\n"),
        ("e.ipynb", &notebook),
    ]);
    let expected = [
        ("a.markdown", 7, "verified"),
        ("a.markdown", 9, "refuted"),
        ("b.mdx", 12, "verified"),
        ("b.mdx", 14, "refuted"),
        ("c.md", 8, "verified"),
        ("c.md", 15, "refuted"),
        ("c.md", 23, "verified"),
        ("c.md", 24, "refuted"),
        ("e.ipynb", 9, "verified"),
        ("e.ipynb", 27, "refuted"),
    ];
    let got: Vec<(&str, u64, &str)> = claims.iter().map(|(f, l, s)| (f.as_str(), *l, s.as_str())).collect();
    assert_eq!(got, expected);
}

#[test]
fn a_myst_directive_whose_body_is_markdown_is_read_and_an_exercise_keeps_its_letters() {
    // An example's display (with `=` alone on its row, no heading's underline), a note's slip, an
    // exercise whose P = 2 its solution uses, and the same claim after them, where P is no
    // longer 2 (an equation in P, no claim: with the exercise's P it would verify); a code cell
    // is not read.
    let myst = "## 1 Matrices\n\n```{prf:example}\n:label: ex_add\n\n$$\n\\begin{bmatrix} 1 \\\\ 2 \\end{bmatrix}\n+\n\\begin{bmatrix} 3 \\\\ 4 \\end{bmatrix}\n=\n\\begin{bmatrix} 4 \\\\ 6 \\end{bmatrix}\n$$\n```\n\n```{note}\nA slip: $(a+b)^2 = a^2 + b^2$.\n```\n\n````{exercise}\n:label: ex1\nLet $P = 2$. Show that $P^2 = 4$.\n\n```{code-cell} python\nx = 1 + 1 == 3\n```\n````\n\n```{solution-start} ex1\n:class: dropdown\n```\n\nIndeed $P^3 = 8$.\n\n```{solution-end}\n```\n\nAfter it, $P^2 = 4$ says nothing of a P.\n";
    let claims = checked(&[("myst.md", myst)]);
    let got: Vec<(u64, &str)> = claims.iter().map(|(_, l, s)| (*l, s.as_str())).collect();
    assert_eq!(got, [(10, "verified"), (16, "refuted"), (21, "verified"), (32, "verified")], "{myst}");
}

/// A notebook as Jupyter writes it: a Markdown cell with a right formula, a code cell (whose
/// false `$y = 3$` in a comment is not read), a Markdown cell with a slip.
fn notebook() -> String {
    let cell = |kind: &str, lines: &[&str]| {
        let source: Vec<String> = lines.iter().map(|l| serde_json::to_string(l).unwrap()).collect();
        let extra = if kind == "code" {
            "   \"execution_count\": 1,\n   \"metadata\": {},\n   \"outputs\": [],\n"
        } else {
            "   \"metadata\": {},\n"
        };
        format!(
            "  {{\n   \"cell_type\": \"{kind}\",\n{extra}   \"source\": [\n    {}\n   ]\n  }}",
            source.join(",\n    ")
        )
    };
    let cells = [
        cell("markdown", &["# 1 Squares\n", "\n", "We expand $$(a+b)^2 = a^2 + 2ab + b^2$$\n"]),
        cell("code", &["x = (1+1)**2  # $y = 3$\n"]),
        cell("markdown", &["and\n", "\n", "$$(a-b)^2 = a^2 + 2ab + b^2$$"]),
    ];
    format!(
        "{{\n \"cells\": [\n{}\n ],\n \"metadata\": {{}},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}}\n",
        cells.join(",\n")
    )
}

#[test]
fn a_notebook_claim_says_its_cell_and_line_and_a_broken_notebook_is_bad_input() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("n.ipynb");
    std::fs::write(&path, notebook()).unwrap();
    let out = run(&["check", path.to_str().unwrap(), "--no-cache"]);
    let text = stdout(&out);
    assert!(text.contains("REFUTED 1#2 (cell 3, line 3)"), "{text}");
    assert!(text.contains("n.ipynb:27:3"), "{text}");
    let out = run(&["check", path.to_str().unwrap(), "--no-cache", "--format", "json"]);
    let claims = all_claims(&json(&out)).into_iter().cloned().collect::<Vec<_>>();
    let cells: Vec<(u64, u64)> =
        claims.iter().map(|c| (c["cell"]["cell"].as_u64().unwrap(), c["cell"]["line"].as_u64().unwrap())).collect();
    assert_eq!(cells, [(1, 3), (3, 3)]);
    std::fs::write(&path, "{\"cells\": [\n  {\"cell_type\": }\n]}").unwrap();
    let out = run(&["check", path.to_str().unwrap(), "--no-cache"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("n.ipynb:2:") && stderr(&out).contains("not a Jupyter notebook"), "{}", stderr(&out));
}

/// Notes pasted from an equation editor write one chain a line at a time, each line its own
/// inline formula opening with `=`: one chain, each step at its line; and a line that does not
/// parse (here its brackets cross lines, as TeX allows) is reported while the lines after it
/// still claim what they say of each other.
#[test]
fn a_chain_written_a_line_at_a_time_is_read_as_one_and_survives_a_broken_line() {
    let notes = "## 1 Squares\n\nWe expand:\n$(a+b)^2$\n$=a^2+2ab+b^2$\n$=a^2+b^2$\n\nAnd:\n$(a-b)^2$\n$={[a^2-2ab}+b^2]$\n$=a^2-2ab+b^2$\n$=b^2-2ab+a^2$\n\nApart: $x=1$ and $y$\n$=2$ on a line is no step of a chain.\n";
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.md");
    std::fs::write(&path, notes).unwrap();
    let out = run(&["check", path.to_str().unwrap(), "--format", "json", "--no-cache"]);
    let report = json(&out);
    let file = &report["files"][0];
    let got: Vec<(u64, &str)> = file["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["line"].as_u64().unwrap(), c["verdict"].as_str().unwrap()))
        .collect();
    assert_eq!(got, [(5, "verified"), (6, "refuted"), (12, "verified")], "{got:?}");
    // The broken line is reported where it is.
    let text = stderr(&run(&["check", path.to_str().unwrap(), "--no-cache"]));
    assert!(text.contains("c.md:10:"), "{text}");
}

#[test]
fn a_display_in_a_block_quote_and_rows_without_a_frame_are_read_row_by_row() {
    // The quote markers that open a display's later lines are not TeX; rows broken by `\\` with
    // no environment around them are rows, and a row that does not parse (`N.A.`) costs only
    // itself.
    let notes = "## 1 Quoted\n\n> 注意：\n>\n> $$\n> (a+b)^2 = a^2 + b^2\n> $$\n\n## 2 Rows\n\n$$\n(a-b)^2 = a^2 - 2ab + b^2 \\\\\n\\delta w = N.A. \\\\\n(a+b)^2 = a^2 + 2b^2\n$$\n";
    let got = checked(&[("q.md", notes)]);
    let want = [(6, "refuted"), (12, "verified"), (14, "refuted")];
    let got: Vec<(u64, &str)> = got.iter().map(|(_, line, v)| (*line, v.as_str())).collect();
    assert_eq!(got, want, "{got:?}");
}
