//! Jupyter notebooks (`.ipynb`): their Markdown cells, read as one Markdown text.
//!
//! Takes: a notebook's JSON text. Gives: a Markdown text in which every line of a Markdown cell
//! stands at the line of the notebook file that holds it (Jupyter writes a cell's source one
//! string a line), every other line blank, so every position derivcheck reports is a line of the
//! `.ipynb` file and a column of the cell's line; and, for each Markdown cell, its number (from
//! 1, counting every cell) and the lines it spans, so a position can also be said as a cell and
//! a line of it. Code cells and outputs are not read. A notebook whose sources are not one
//! string a line (allowed by the format, rare) has its cells placed one after the other instead,
//! a blank line between, and its positions are those of that text (said so by [`Layout`]).

use serde::Deserialize;

/// A notebook read as Markdown.
#[derive(Debug, Clone, PartialEq)]
pub struct Notebook {
    pub markdown: String,
    pub cells: Vec<CellLines>,
    pub layout: Layout,
}

/// Where a Markdown cell's lines are in [`Notebook::markdown`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct CellLines {
    /// The cell's number in the notebook, from 1 (code cells count).
    pub cell: usize,
    /// The 1-based line of the cell's first source line.
    pub first: usize,
    /// The 1-based line of its last.
    pub last: usize,
}

/// How the cells' lines were placed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// At the lines of the notebook file that hold them.
    FileLines,
    /// One after the other (the notebook writes a source as one string).
    Sequential,
}

/// Why a notebook could not be read: the JSON parser's message and position.
#[derive(Debug, Clone, PartialEq)]
pub struct NotebookError {
    pub line: usize,
    pub col: usize,
    pub message: String,
}

#[derive(Deserialize)]
struct File {
    cells: Vec<Cell>,
}

#[derive(Deserialize)]
struct Cell {
    cell_type: String,
    #[serde(default)]
    source: Source,
}

#[derive(Deserialize, Default)]
#[serde(untagged)]
enum Source {
    Lines(Vec<String>),
    One(String),
    #[default]
    Missing,
}

impl Source {
    fn lines(&self) -> Vec<String> {
        let joined = match self {
            Source::Lines(lines) => lines.concat(),
            Source::One(text) => text.clone(),
            Source::Missing => String::new(),
        };
        joined.lines().map(str::to_string).collect()
    }
}

/// The Markdown cells of the notebook `text` as one Markdown text (see the module's docs).
pub fn markdown(text: &str) -> Result<Notebook, NotebookError> {
    let file: File = serde_json::from_str(text).map_err(|e| {
        // (The message without the position serde_json appends to it: it is given apart.)
        let message = e.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(head, _)| head).to_string();
        NotebookError { line: e.line().max(1), col: e.column().max(1), message }
    })?;
    Ok(at_file_lines(text, &file).unwrap_or_else(|| one_after_another(&file)))
}

/// Each Markdown cell's lines at the file lines that hold them; `None` where a cell's source is
/// not written one string a line right after its `"source": [`.
fn at_file_lines(text: &str, file: &File) -> Option<Notebook> {
    let raw: Vec<&str> = text.lines().collect();
    let mut out = vec![""; raw.len()];
    let mut cells = Vec::new();
    let mut at = 0;
    for (number, cell) in file.cells.iter().enumerate() {
        // The cell's `"source"` key: the next line that opens with it (an escaped quote inside a
        // string never does).
        let key = (at..raw.len()).find(|&k| raw[k].trim_start().starts_with("\"source\":"))?;
        at = key + 1;
        if cell.cell_type != "markdown" {
            continue;
        }
        let Source::Lines(lines) = &cell.source else { return None };
        if lines.is_empty() {
            continue;
        }
        if !raw[key].trim_end().ends_with('[') || key + lines.len() >= raw.len() {
            return None;
        }
        for (i, line) in lines.iter().enumerate() {
            let written = raw[key + 1 + i].trim().trim_end_matches(',');
            let decoded: String = serde_json::from_str(written).ok()?;
            // (One line a string: a newline only at its end.)
            if &decoded != line || line.trim_end_matches(['\n', '\r']).contains('\n') {
                return None;
            }
            out[key + 1 + i] = &lines[i];
        }
        let first = key + 2;
        cells.push(CellLines { cell: number + 1, first, last: first + lines.len() - 1 });
        at = key + 1 + lines.len();
    }
    let markdown = out.iter().map(|l| l.trim_end_matches(['\n', '\r'])).collect::<Vec<_>>().join("\n");
    Some(Notebook { markdown, cells, layout: Layout::FileLines })
}

/// Each Markdown cell's lines one after the other, a blank line between.
fn one_after_another(file: &File) -> Notebook {
    let (mut markdown, mut cells, mut line) = (String::new(), Vec::new(), 1);
    for (number, cell) in file.cells.iter().enumerate().filter(|(_, c)| c.cell_type == "markdown") {
        let lines = cell.source.lines();
        if lines.is_empty() {
            continue;
        }
        cells.push(CellLines { cell: number + 1, first: line, last: line + lines.len() - 1 });
        for l in &lines {
            markdown.push_str(l);
            markdown.push('\n');
        }
        markdown.push('\n');
        line += lines.len() + 1;
    }
    Notebook { markdown, cells, layout: Layout::Sequential }
}

/// The cell and the line within it (both from 1) of a line of [`Notebook::markdown`].
pub fn cell_of(cells: &[CellLines], line: usize) -> Option<(usize, usize)> {
    cells.iter().find(|c| (c.first..=c.last).contains(&line)).map(|c| (c.cell, line - c.first + 1))
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOTEBOOK: &str = r##"{
 "cells": [
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "# Squares\n",
    "\n",
    "We have $(a+b)^2 = a^2 + 2ab + b^2$."
   ]
  },
  {
   "cell_type": "code",
   "execution_count": 1,
   "metadata": {},
   "outputs": [{"name": "stdout", "text": ["\"source\": [\n"]}],
   "source": [
    "x = 1  # $y = 2$"
   ]
  },
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": [
    "And $$(a-b)^2 = a^2 + b^2$$"
   ]
  }
 ],
 "metadata": {},
 "nbformat": 4,
 "nbformat_minor": 5
}"##;

    #[test]
    fn markdown_cells_stand_at_their_file_lines_and_code_is_not_read() {
        let nb = markdown(NOTEBOOK).unwrap();
        assert_eq!(nb.layout, Layout::FileLines);
        let lines: Vec<&str> = nb.markdown.lines().collect();
        assert_eq!(lines[6], "# Squares");
        assert_eq!(lines[8], "We have $(a+b)^2 = a^2 + 2ab + b^2$.");
        assert_eq!(lines[24], "And $$(a-b)^2 = a^2 + b^2$$");
        assert!(!nb.markdown.contains("x = 1"), "code cells are not read");
        assert_eq!(nb.cells, [CellLines { cell: 1, first: 7, last: 9 }, CellLines { cell: 3, first: 25, last: 25 }]);
        assert_eq!(cell_of(&nb.cells, 9), Some((1, 3)));
        assert_eq!(cell_of(&nb.cells, 25), Some((3, 1)));
        assert_eq!(cell_of(&nb.cells, 12), None);
    }

    #[test]
    fn a_source_written_as_one_string_is_read_cell_after_cell() {
        let one = r##"{"cells": [{"cell_type": "markdown", "source": "# A\n\n$x = 1$"},
            {"cell_type": "markdown", "source": ["$y = 2$"]}]}"##;
        let nb = markdown(one).unwrap();
        assert_eq!(nb.layout, Layout::Sequential);
        assert_eq!(nb.markdown, "# A\n\n$x = 1$\n\n$y = 2$\n\n");
        assert_eq!(nb.cells, [CellLines { cell: 1, first: 1, last: 3 }, CellLines { cell: 2, first: 5, last: 5 }]);
    }

    #[test]
    fn a_cell_ending_in_a_wide_character_is_read() {
        let chinese = "{\n \"cells\": [\n  {\n   \"cell_type\": \"markdown\",\n   \"source\": [\n    \"设 $x = 1$。\\n\",\n    \"于是 $x + 1 = 2$。\"\n   ]\n  }\n ]\n}";
        let nb = markdown(chinese).unwrap();
        assert_eq!(nb.layout, Layout::FileLines);
        assert_eq!(nb.markdown.lines().nth(6), Some("于是 $x + 1 = 2$。"));
        assert_eq!(nb.cells, [CellLines { cell: 1, first: 6, last: 7 }]);
    }

    #[test]
    fn a_broken_notebook_is_an_error_at_its_position() {
        let error = markdown("{\"cells\": [\n  {\"cell_type\": }\n]}").unwrap_err();
        assert_eq!(error.line, 2);
        assert!(error.col > 1, "{error:?}");
        assert!(markdown("[1, 2]").is_err());
    }

    mod generated {
        use super::super::*;
        use proptest::prelude::*;

        /// A line of a cell as Jupyter stores it: any characters but a newline, then a newline
        /// unless it is the cell's last.
        fn cell_lines() -> impl Strategy<Value = Vec<String>> {
            proptest::collection::vec("[a-z $\\\"'{}\\[\\]、。设é𝑥\\t]{0,12}", 1..5).prop_map(|lines| {
                let n = lines.len();
                lines.into_iter().enumerate().map(|(i, l)| if i + 1 < n { format!("{l}\n") } else { l }).collect()
            })
        }

        proptest! {
            #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

            /// Notebooks written as Jupyter writes them: every Markdown line at the file line
            /// that holds it, every cell's lines where `cells` says; code never read.
            #[test]
            fn every_markdown_line_stands_where_its_cell_says(cells in proptest::collection::vec((any::<bool>(), cell_lines()), 1..6)) {
                let json: Vec<serde_json::Value> = cells
                    .iter()
                    .map(|(markdown, lines)| serde_json::json!({
                        "cell_type": if *markdown { "markdown" } else { "code" },
                        "metadata": {},
                        "source": lines,
                    }))
                    .collect();
                let mut text = Vec::new();
                let formatter = serde_json::ser::PrettyFormatter::with_indent(b" ");
                let mut writer = serde_json::Serializer::with_formatter(&mut text, formatter);
                serde::Serialize::serialize(&serde_json::json!({ "cells": json }), &mut writer).unwrap();
                let nb = markdown(std::str::from_utf8(&text).unwrap()).unwrap();
                prop_assert_eq!(nb.layout, Layout::FileLines);
                let lines: Vec<&str> = nb.markdown.split('\n').collect();
                let written: Vec<&Vec<String>> = cells.iter().filter(|(m, _)| *m).map(|(_, l)| l).collect();
                prop_assert_eq!(nb.cells.len(), written.len());
                for (at, source) in nb.cells.iter().zip(written) {
                    for (k, line) in source.iter().enumerate() {
                        prop_assert_eq!(lines[at.first - 1 + k], line.trim_end_matches('\n'));
                    }
                }
            }

            /// Any text: an error or a notebook, never a panic.
            #[test]
            fn any_text_reads_or_fails_cleanly(text in "[\\[\\]{}\":, a-z\\n\\\\é。]{0,80}") {
                let _ = markdown(&text);
            }
        }
    }
}
