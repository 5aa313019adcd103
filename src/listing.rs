//! Stage 3 — `listing`: the `formulas` listing: every formula of some notes with its parse
//! result, as plain data.
//!
//! Takes: [`Document`]s. Gives: a [`Listing`] (serializable; the JSON schema of
//! `derivcheck formulas --format json`) and the parse diagnostics. Pure: no I/O.

use crate::notes::{Document, FormulaSite, NoteWarning};
use crate::syntax::{self, ast::Statement, SyntaxError};
use serde::Serialize;

#[derive(Debug, Clone, Serialize)]
pub struct Listing {
    pub files: Vec<FileListing>,
    pub summary: ListingSummary,
}

#[derive(Debug, Clone, Serialize)]
pub struct FileListing {
    pub path: String,
    pub formulas: Vec<FormulaEntry>,
    pub warnings: Vec<NoteWarning>,
    /// For a notebook, the lines of each Markdown cell (every line reported is a line of the
    /// `.ipynb` file; a claim also says its cell and the line in it).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub cells: Vec<crate::notes::notebook::CellLines>,
}

#[derive(Debug, Clone, Serialize)]
pub struct FormulaEntry {
    pub id: String,
    pub section: Option<String>,
    pub section_title: Option<String>,
    pub line: usize,
    pub col: usize,
    /// Byte range of the TeX (without delimiters) in the file.
    pub range: (usize, usize),
    pub display: bool,
    pub tex: String,
    pub parsed: bool,
    /// The author's mark before it (`<!-- derivcheck: skip -->`), if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mark: Option<crate::notes::Mark>,
    /// What the formula is to `check` (set by the check report; absent in `formulas`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<crate::model::FormulaRole>,
    pub error: Option<String>,
    /// The parse error as data (for renderers in other languages).
    #[serde(skip)]
    pub error_kind: Option<crate::syntax::SyntaxErrorKind>,
    /// Where in the source the parse error is (1-based line and character column).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_line: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_col: Option<usize>,
    /// The tree as an S-expression (with `--ast`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ast: Option<String>,
    /// The full tree with spans (with `--ast`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tree: Option<Statement>,
}

#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct ListingSummary {
    pub formulas: usize,
    pub parsed: usize,
}

/// A formula that failed to parse, located in its file.
#[derive(Debug, Clone)]
pub struct ParseFailure {
    pub file: usize,
    pub formula: FormulaSite,
    pub error: SyntaxError,
}

impl ParseFailure {
    /// Could the formula have been a claim: does it hold a relation `check` would check (`=`,
    /// `\approx`, `:=`)? Only such failures are errors; the rest are counted.
    pub fn could_be_claim(&self) -> bool {
        let tex = self.formula.tex.as_str();
        let bytes = tex.as_bytes();
        let equals =
            tex.char_indices().any(|(i, c)| c == '=' && !(i > 0 && matches!(bytes[i - 1], b'<' | b'>' | b'!' | b'\\')));
        equals || ["\\approx", "\\coloneqq", "\\triangleq", "\\equiv"].iter().any(|r| tex.contains(r))
    }

    /// The construct the parser stopped at, as a summary names it: the unknown command, the
    /// unexpected token, or the kind of error.
    pub fn construct(&self) -> Construct {
        use crate::syntax::SyntaxErrorKind as K;
        match &self.error.kind {
            K::UnknownCommand { command } => Construct::Written(command.clone()),
            K::Unexpected { found, .. } => Construct::Written(found.chars().take(12).collect()),
            K::UnexpectedEnd { .. } => Construct::EndOfFormula,
            K::Empty => Construct::Empty,
            K::UnbalancedEnvironment { .. } => Construct::Environment,
            _ => Construct::TooLarge,
        }
    }
}

/// What a parse stopped at, as data: the report words it in its language.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Construct {
    /// A command or token as written (`\weird`, `>`).
    Written(String),
    /// The formula ended too soon.
    EndOfFormula,
    /// Nothing between the delimiters.
    Empty,
    /// `\begin` without its `\end`, or the other way round.
    Environment,
    /// Past a size limit (length, depth).
    TooLarge,
}

/// A read document with every formula parsed, in the order of `Document::formulas`: what the
/// stages after parsing take (the listing, `sema::plan`).
pub struct ParsedDocument<'a> {
    pub doc: &'a Document,
    pub results: Vec<Result<Statement, SyntaxError>>,
    /// For a formula joined from pieces that parsed only in part, the errors of the pieces left
    /// out (reported; the rest is read).
    pub piece_errors: Vec<Vec<SyntaxError>>,
}

impl<'a> ParsedDocument<'a> {
    pub fn parse(doc: &'a Document) -> Self {
        let (results, piece_errors) = doc.formulas.iter().map(|f| syntax::parse_pieces(&f.tex, &f.pieces)).unzip();
        ParsedDocument { doc, results, piece_errors }
    }

    /// The formulas that parse, each with its index into `doc.formulas`.
    pub fn statements(&self) -> impl Iterator<Item = (usize, &Statement)> {
        self.results.iter().enumerate().filter_map(|(index, r)| r.as_ref().ok().map(|s| (index, s)))
    }
}

pub fn parse_all(docs: &[Document]) -> Vec<ParsedDocument<'_>> {
    docs.iter().map(ParsedDocument::parse).collect()
}

/// Parses every formula of every document.
pub fn build(docs: &[Document], with_ast: bool) -> (Listing, Vec<ParseFailure>) {
    build_from(&parse_all(docs), with_ast)
}

/// The listing of already parsed documents.
pub fn build_from(parsed: &[ParsedDocument], with_ast: bool) -> (Listing, Vec<ParseFailure>) {
    let mut summary = ListingSummary::default();
    let mut failures = Vec::new();
    let mut files = Vec::new();
    for (file, ParsedDocument { doc, results, piece_errors }) in parsed.iter().enumerate() {
        let mut formulas = Vec::new();
        for ((site, result), left_out) in doc.formulas.iter().zip(results).zip(piece_errors) {
            let entry = entry(doc, site, result, with_ast);
            let failure = |error: &SyntaxError| ParseFailure { file, formula: site.clone(), error: error.clone() };
            if site.mark != Some(crate::notes::Mark::Skip) {
                failures.extend(left_out.iter().map(failure));
            }
            summary.formulas += 1;
            match result {
                Ok(_) => summary.parsed += 1,
                // The author asked not to check it: no diagnostic.
                Err(_) if site.mark == Some(crate::notes::Mark::Skip) => {}
                Err(error) => failures.push(failure(error)),
            }
            formulas.push(entry);
        }
        files.push(FileListing {
            path: doc.path.clone(),
            formulas,
            warnings: doc.warnings.clone(),
            cells: doc.cells.clone(),
        });
    }
    (Listing { files, summary }, failures)
}

fn entry(doc: &Document, site: &FormulaSite, result: &Result<Statement, SyntaxError>, with_ast: bool) -> FormulaEntry {
    let section = doc.section_of(site);
    let error_pos = result.as_ref().err().map(|e| doc.position_in_formula(site, e.span.start));
    FormulaEntry {
        id: site.id.clone(),
        section: section.map(|s| s.number.clone()),
        section_title: section.map(|s| s.title.clone()),
        line: site.line,
        col: site.col,
        range: (site.tex_range.start, site.tex_range.end),
        display: site.display,
        tex: site.tex.clone(),
        parsed: result.is_ok(),
        mark: site.mark,
        role: None,
        error: result.as_ref().err().map(ToString::to_string),
        error_kind: result.as_ref().err().map(|e| e.kind.clone()),
        error_line: error_pos.map(|p| p.line),
        error_col: error_pos.map(|p| p.col),
        ast: with_ast.then(|| result.as_ref().ok().map(syntax::print::statement)).flatten(),
        tree: with_ast.then(|| result.as_ref().ok().cloned()).flatten(),
    }
}

impl ListingSummary {
    pub fn rate(&self) -> f64 {
        if self.formulas == 0 {
            1.0
        } else {
            self.parsed as f64 / self.formulas as f64
        }
    }
}
