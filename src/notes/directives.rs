//! MyST directives whose body is Markdown: an admonition (```` ```{note} ````), a proof-style
//! statement (```` ```{prf:example} ````, `{prf:theorem}`), an exercise or a solution, a dropdown
//! or a card. MyST (Jupyter Book, QuantEcon, Sphinx sites) writes them as fenced code, so a
//! CommonMark reader skips their formulas; MyST reads their body as the notes' own text.
//!
//! Takes: the notes' text. Gives: the same text with each such directive's opening fence, its
//! option lines (`:label: le_ex_add`, or a `---` block of them) and its closing fence made
//! spaces, byte for byte, so that its body is read as Markdown and every offset stays where it
//! was. A directive whose body is not Markdown (`{code-cell}`, `{index}`, `{raw}`, one this list
//! does not know) stays code; `{math}` is [`super::delimiters`]'s.

use super::lines::{closes_fence, line_ranges, opening_fence};
use std::borrow::Cow;
use std::ops::Range;

/// Directives whose body MyST reads as Markdown (besides every `prf:` one of sphinx-proof).
const MARKDOWN_BODIES: [&str; 34] = [
    "admonition",
    "attention",
    "caution",
    "danger",
    "error",
    "hint",
    "important",
    "note",
    "seealso",
    "tip",
    "warning",
    "todo",
    "versionadded",
    "versionchanged",
    "deprecated",
    "topic",
    "sidebar",
    "margin",
    "epigraph",
    "pull-quote",
    "highlights",
    "dropdown",
    "card",
    "grid-item-card",
    "tab-item",
    "tab-set",
    "div",
    "container",
    "figure",
    "glossary",
    "exercise",
    "solution",
    "proof",
    "theorem",
];

/// Is `name` (between the braces) a directive whose body is Markdown?
fn has_markdown_body(name: &str) -> bool {
    name.starts_with("prf:") || MARKDOWN_BODIES.contains(&name)
}

/// A directive whose body is Markdown, where it stands in the notes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    /// Its name, without the braces (`prf:example`, `exercise`).
    pub name: String,
    /// Byte range of its body (what it holds, its options aside).
    pub body: Range<usize>,
    /// Its `:label:` option, if any (`mc1_ex_1`).
    pub label: Option<String>,
    /// The word after its name on the fence (`{solution-start} mc1_ex_1`: the exercise it solves).
    pub argument: Option<String>,
    /// Byte ranges of its fences and option lines (each a whole line, without its line ending):
    /// what MyST does not show as text.
    hidden: Vec<Range<usize>>,
}

impl Directive {
    /// Is it a worked example, an exercise, a solution or a proof: a box whose letters are its own
    /// (`A = D - C` in an example says nothing of the section's A)? A note, a theorem or a
    /// definition speaks for the section.
    pub fn is_worked(&self) -> bool {
        let name = self.name.strip_prefix("prf:").unwrap_or(&self.name);
        ["example", "exercise", "solution", "proof"].contains(&name)
    }
}

/// Every directive of `source` whose body is Markdown, in the order they open (an enclosing one
/// before those it holds): fenced (```` ```{note} ```` … ```` ``` ````) or paired
/// (`{solution-start}` … `{solution-end}`, whose fences are code around a Markdown body).
pub fn directives(source: &str) -> Vec<Directive> {
    if !source.contains("```{") && !source.contains("~~~{") {
        return Vec::new();
    }
    let lines = line_ranges(source);
    let text = |j: usize| &source[lines[j].clone()];
    let mut found = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let Some((marker, name, argument)) = opening_fence(text(k)) else {
            k += 1;
            continue;
        };
        let Some(end) = (k + 1..lines.len()).find(|&j| closes_fence(text(j), marker)) else { break };
        if let Some(paired) = name.strip_suffix("-start").filter(|n| has_markdown_body(n)) {
            let closing = format!("{paired}-end");
            let last = (end + 1..lines.len()).find(|&j| opening_fence(text(j)).is_some_and(|(_, n, _)| n == closing));
            if let Some(last) = last {
                found.push(Directive {
                    name: paired.to_string(),
                    body: lines[end].end..lines[last].start,
                    label: label_among((k + 1..end).map(text)),
                    argument: argument.map(str::to_string),
                    hidden: Vec::new(),
                });
            }
            k = end + 1;
            continue;
        }
        if !has_markdown_body(name) {
            // Code (or a directive this list does not know): nothing inside it is read.
            k = end + 1;
            continue;
        }
        let mut hidden = vec![lines[k].clone(), lines[end].clone()];
        // Options: `:key: value` lines right after the fence, or a `---` block of `key: value`.
        let mut j = k + 1;
        if j < end && text(j).trim() == "---" {
            if let Some(close) = (j + 1..end).find(|&i| text(i).trim() == "---") {
                hidden.extend((j..=close).map(|i| lines[i].clone()));
                j = close + 1;
            }
        }
        while j < end && text(j).trim_start().starts_with(':') {
            hidden.push(lines[j].clone());
            j += 1;
        }
        let body = lines[j.min(end)].start..lines[end].start;
        let label = label_among(hidden.iter().map(|r| &source[r.clone()]));
        found.push(Directive { name: name.to_string(), body, label, argument: argument.map(str::to_string), hidden });
        // Its body may hold directives of its own (with shorter fences): read on inside it.
        k += 1;
    }
    found
}

/// The `label` among a directive's option lines (`:label: mc1_ex_1`, or `label: mc1_ex_1` in a
/// `---` block).
fn label_among<'a>(mut options: impl Iterator<Item = &'a str>) -> Option<String> {
    options.find_map(|line| {
        let line = line.trim();
        let value = line.strip_prefix(":label:").or_else(|| line.strip_prefix("label:"))?;
        Some(value.trim().to_string()).filter(|v| !v.is_empty())
    })
}

/// `source` with the fences and options of `directives` (found in it by [`directives`]) made
/// spaces; borrowed when there are none.
pub fn unwrap<'a>(source: &'a str, directives: &[Directive]) -> Cow<'a, str> {
    if directives.iter().all(|d| d.hidden.is_empty()) {
        return Cow::Borrowed(source);
    }
    let mut bytes = source.as_bytes().to_vec();
    for range in directives.iter().flat_map(|d| d.hidden.iter()) {
        bytes[range.clone()].fill(b' ');
    }
    // Only whole lines were overwritten, each with ASCII spaces: still UTF-8.
    Cow::Owned(String::from_utf8(bytes).unwrap_or_else(|_| source.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_markdown_bodied_directive_is_read_as_its_body_with_every_offset_kept() {
        let text = "Before.\n\n```{prf:example}\n:label: le_ex_add\n\n$$\n1 + 1 = 2\n$$\n```\n\nAfter.\n";
        let read = unwrap(text, &directives(text));
        assert_eq!(read.len(), text.len());
        assert_eq!(read.find("1 + 1 = 2"), text.find("1 + 1 = 2"));
        assert!(!read.contains("prf:example") && !read.contains(":label:") && !read.contains("```"));
        assert_eq!(read.lines().count(), text.lines().count());
    }

    #[test]
    fn code_cells_and_unknown_directives_stay_code() {
        for text in
            ["```{code-cell} ipython3\nx = 1\n```\n", "```{index} single: Vectors\n```\n", "```{foo}\n$a=b$\n```\n"]
        {
            assert!(matches!(unwrap(text, &directives(text)), Cow::Borrowed(_)), "{text}");
        }
    }

    #[test]
    fn a_directive_nested_in_a_longer_fence_and_yaml_options_are_unwrapped() {
        let text = "````{exercise}\n---\nlabel: ex1\n---\nShow $a=b$.\n```{note}\nNote $c=d$.\n```\n\n```{code-cell}\ny = 2\n```\n````\n";
        let read = unwrap(text, &directives(text));
        assert_eq!(read.len(), text.len());
        assert!(!read.contains("exercise") && !read.contains("label") && !read.contains("{note}"));
        assert_eq!(directives(text)[0].label.as_deref(), Some("ex1"));
        assert!(read.contains("```{code-cell}\ny = 2\n```"), "{read}");
    }

    #[test]
    fn a_paired_solution_is_a_worked_box_and_an_example_is_too_but_not_a_note() {
        let text = "```{solution-start} ex1\n:class: dropdown\n```\n\nHere $x=1$.\n\n```{solution-end}\n```\n```{note}\n$y$\n```\n";
        let found = directives(text);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].name, "solution");
        assert!(text[found[0].body.clone()].contains("Here $x=1$.") && found[0].is_worked());
        assert!(!found[1].is_worked());
        assert_eq!(found[0].argument.as_deref(), Some("ex1"));
        let example =
            Directive { name: "prf:example".into(), body: 0..0, label: None, argument: None, hidden: Vec::new() };
        assert!(example.is_worked());
        // The paired form's fences stay code: nothing is hidden.
        assert_eq!(unwrap(text, &found[..1]), Cow::Borrowed(text));
    }

    #[test]
    fn an_unclosed_directive_is_left_alone() {
        assert!(matches!(unwrap("```{note}\n$a=b$\n", &directives("```{note}\n$a=b$\n")), Cow::Borrowed(_)));
    }
}
