//! README and the user guide (`docs/guide/`, an mdBook): README stays short, keeps the two
//! set-up commands, and no link in README or the guide points to a file that is not there.

use std::path::{Path, PathBuf};

fn repo_path(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel)
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The lines of one `## ` section (its heading excluded), up to the next `## ` heading.
fn section<'a>(text: &'a str, heading: &str) -> Vec<&'a str> {
    let mut lines = text.lines().skip_while(|l| *l != heading);
    assert!(lines.next().is_some(), "no `{heading}` heading");
    lines.take_while(|l| !l.starts_with("## ")).collect()
}

/// Whether a line opens or closes a fenced code block.
fn is_fence(line: &str) -> bool {
    let t = line.trim_start();
    line.len() - t.len() <= 3 && (t.starts_with("```") || t.starts_with("~~~"))
}

/// The text outside fenced code blocks and inline code spans (a span may cross a line end; a
/// run of backticks with no run of the same length after it is literal text).
fn prose(text: &str) -> String {
    let mut outside = String::new();
    let mut in_fence = false;
    for line in text.lines() {
        if is_fence(line) {
            in_fence = !in_fence;
        } else if !in_fence {
            outside.push_str(line);
            outside.push('\n');
        }
    }
    let chars: Vec<char> = outside.chars().collect();
    let run_at = |i: usize| chars[i..].iter().take_while(|c| **c == '`').count();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] != '`' {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let n = run_at(i);
        let mut j = i + n;
        let mut close = None;
        while j < chars.len() {
            if chars[j] == '`' {
                let m = run_at(j);
                if m == n {
                    close = Some(j + m);
                    break;
                }
                j += m;
            } else {
                j += 1;
            }
        }
        match close {
            Some(end) => {
                out.push(' ');
                i = end;
            }
            None => {
                out.extend(&chars[i..i + n]);
                i += n;
            }
        }
    }
    out
}

/// The targets of the inline Markdown links (and images) outside code.
fn link_targets(text: &str) -> Vec<String> {
    let prose = prose(text);
    let mut targets = Vec::new();
    let mut rest = prose.as_str();
    while let Some(at) = rest.find("](") {
        rest = &rest[at + 2..];
        let Some(end) = rest.find(')') else { break };
        let target = rest[..end].trim();
        // An optional title after the destination: `[a](b.md "title")`.
        let target = target.split_whitespace().next().unwrap_or("");
        targets.push(target.trim_start_matches('<').trim_end_matches('>').to_string());
        rest = &rest[end..];
    }
    targets
}

/// Whether a link target is a file path relative to the file that holds it.
fn is_relative_file(target: &str) -> bool {
    !(target.is_empty()
        || target.starts_with('#')
        || target.starts_with('/')
        || target.contains("://")
        || target.starts_with("mailto:"))
}

fn guide_chapters() -> Vec<PathBuf> {
    let dir = repo_path("docs/guide/src");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
        .collect();
    files.sort();
    files
}

#[test]
fn readme_has_at_most_400_lines() {
    let lines = read(&repo_path("README.md")).lines().count();
    assert!(lines <= 400, "README.md has {lines} lines: move the long parts into the guide (docs/guide/src/)");
}

#[test]
fn readme_set_up_keeps_the_two_commands() {
    let readme = read(&repo_path("README.md"));
    let lines = section(&readme, "## Set-up");
    let start = lines.iter().position(|l| *l == "```sh").expect("`## Set-up` has a ```sh block");
    let block: Vec<&str> = lines[start + 1..].iter().take_while(|l| !is_fence(l)).copied().collect();
    assert_eq!(block, ["cargo run --release -- check derivations/ch15", "cargo test --release"]);
}

#[test]
fn every_chapter_the_guide_lists_exists() {
    let summary = repo_path("docs/guide/src/SUMMARY.md");
    let chapters: Vec<String> = link_targets(&read(&summary)).into_iter().filter(|t| is_relative_file(t)).collect();
    assert!(!chapters.is_empty(), "SUMMARY.md lists no chapter");
    for chapter in &chapters {
        let path = summary.parent().unwrap().join(chapter);
        assert!(path.is_file(), "SUMMARY.md lists {chapter}, which is not in docs/guide/src/");
    }
    assert!(repo_path("docs/guide/book.toml").is_file(), "the guide is an mdBook: docs/guide/book.toml");
}

#[test]
fn every_relative_link_of_readme_and_the_guide_points_to_a_file() {
    let mut files = vec![repo_path("README.md")];
    files.extend(guide_chapters());
    let mut broken = Vec::new();
    let mut checked = 0;
    for file in &files {
        for target in link_targets(&read(file)) {
            if !is_relative_file(&target) {
                continue;
            }
            let path = target.split('#').next().unwrap();
            checked += 1;
            if !file.parent().unwrap().join(path).exists() {
                broken.push(format!("{}: {target}", file.display()));
            }
        }
    }
    assert!(checked > 0, "no relative link found: README points to the guide");
    assert!(broken.is_empty(), "links to files that do not exist:\n{}", broken.join("\n"));
}

#[test]
fn links_are_found_outside_code_only() {
    let text = "see [a](a.md#x) and `[b](b.md)`,\n``[c](c\n.md)`` [d](<d.md> \"t\") [e](#e)\n```\n[f](f.md)\n```\n";
    assert_eq!(link_targets(text), ["a.md#x", "d.md", "#e"]);
}
