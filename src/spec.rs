//! Stage 3 — `spec`: a chapter's derivation spec (`checks.toml`) in, [`Spec`] out.
//!
//! The spec says what the notes leave to prose or to an earlier chapter, per section: index
//! ranges, sizes to instantiate, matrix shapes, generic functions, definitions in TeX, and claims
//! stated only in words. Claims and definitions written in the notes are *not* repeated here.
//! Errors carry the spec file's line and column. Pure: the caller reads the file.

use crate::notes::LineIndex;
use crate::syntax::{self, ast::Statement};
use serde::Deserialize;
use std::collections::BTreeMap;
use toml::Spanned;

#[derive(Debug, Clone, Default)]
pub struct Spec {
    pub path: String,
    pub defaults: SectionSpec,
    /// The spec has a `[defaults]` table: every section of the notes inherits it.
    pub has_defaults: bool,
    /// The spec's text, for positions of entries that carry none.
    pub text: String,
    pub sections: BTreeMap<String, SectionSpec>,
}

/// What one section needs beyond its own formulas. Every field is optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SectionSpec {
    /// Size parameters and the values to instantiate them at: `N = [2, 3, 4, 5]`.
    #[serde(default)]
    pub sizes: BTreeMap<String, Spanned<Vec<i64>>>,
    /// Sizes for the floating-point cross-check (default: twice the largest symbolic size).
    #[serde(default)]
    pub crosscheck: BTreeMap<String, Spanned<Vec<i64>>>,
    /// Index letters and their ranges: `r = "N"` (1..N), `i = "n"`, or `"auto"`.
    #[serde(default)]
    pub index: BTreeMap<String, Spanned<IndexRange>>,
    /// Index sets written `J_i`: `J = "causal"` (1..=i) or `J = "all"` (the whole range of the index).
    #[serde(default)]
    pub sets: BTreeMap<String, Spanned<SetKind>>,
    /// Matrices and vectors with their shapes in size parameters: `X = ["n", "d"]`, `x = ["n", "1"]`.
    #[serde(default)]
    pub matrix: BTreeMap<String, Spanned<Shape>>,
    /// Families of matrices or vectors, one per index value: `q = ["2", "1"]` makes `q_i` a 2×1
    /// leaf vector for each i.
    #[serde(default)]
    pub family: BTreeMap<String, Spanned<Shape>>,
    /// The scalar loss that bars differentiate: `\bar Y` is ∂L/∂Y for `loss = 'L'`. Upstream
    /// gradients (the bar of a module's output) are declared as leaf matrices.
    #[serde(default)]
    pub loss: Option<String>,
    /// Leaves whose differentials `d` formulas are about: `vary = ['x']` makes `d f` mean
    /// Σ ∂f/∂x_r dx_r.
    #[serde(default)]
    pub vary: Vec<String>,
    /// Symbols whose values are positive (`positive = ['x', '\sigma']`): sampled positive, and
    /// the exact stage may use ln(ab) = ln a + ln b and √(x²) = x for them.
    #[serde(default)]
    pub positive: Vec<String>,
    /// Constraints the prose states and the formulas rely on, as equations in TeX: a one-hot
    /// label `'\sum_{j=1}^q y_j = 1'`. Each is solved for one of its variables (it must be linear
    /// in one) and that variable is replaced in every claim of the section, exactly and in
    /// floating point; verdicts name the assumptions they used.
    #[serde(default)]
    pub assume: Vec<Spanned<String>>,
    /// Identity matrices: `I = "n"`.
    #[serde(default)]
    pub identity: BTreeMap<String, String>,
    /// Generic functions: `sigma = "elementwise"` (σ and σ' applied entry by entry),
    /// `F = "vector"` (a generic map from vectors to vectors of the same length), or
    /// `R = "rotation"` (the 2×2 rotation by an angle).
    #[serde(default)]
    pub functions: BTreeMap<String, Spanned<FunctionKind>>,
    /// Definitions the notes only state in words, in TeX: `p_j=\frac{e^{\ell_j}}{\sum_r e^{\ell_r}}`.
    #[serde(default)]
    pub define: Vec<Spanned<String>>,
    /// Claims the notes state only in words.
    #[serde(default)]
    pub claims: Vec<SpecClaim>,
    /// Formulas of the notes that are not claims (hypothetical examples), by their exact TeX.
    #[serde(default)]
    pub ignore: Vec<Ignore>,
    /// A worked example: the section's printed numbers are checked against it.
    #[serde(default)]
    pub example: Option<ExampleSpec>,
}

/// A small model with concrete parameters whose gradients the notes print.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExampleSpec {
    /// Sections whose notes formulas (definitions and backward rules) the example runs through.
    pub uses: Vec<String>,
    pub vocabulary: Vec<String>,
    pub input: Vec<String>,
    pub target: String,
    /// 1-based position whose output the loss is taken at.
    pub position: usize,
    /// The loss symbol (defined in one of the `uses` sections).
    pub loss: String,
    /// Parameter matrices by symbol, as rows.
    pub parameters: BTreeMap<String, Vec<Vec<f64>>>,
    /// Definitions the example needs beyond the notes (forward pieces from an earlier chapter,
    /// and the glue the notes state in words), in TeX. `P` (one-hot input rows), `T` (the loss
    /// position's selector row) and the target index `y` are provided.
    #[serde(default)]
    pub define: Vec<Spanned<String>>,
    /// Parameter values replaced, for a counterexample variant (`W_V = [[1, 2], [0, 1]]`).
    #[serde(default)]
    pub variant: Option<BTreeMap<String, Vec<Vec<f64>>>>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecClaim {
    pub name: String,
    pub tex: Spanned<String>,
    /// Conditions restricting the index assignments, in TeX (`k \ne j`).
    #[serde(default)]
    pub when: Option<String>,
    /// `false` for a claim the text says does *not* hold in general: verified by a counterexample.
    #[serde(default = "default_true")]
    pub holds: bool,
    /// Check it in the section's worked example with the example's `variant` parameters.
    #[serde(default)]
    pub variant: bool,
}

fn default_true() -> bool {
    true
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Ignore {
    pub tex: String,
    pub reason: String,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    #[serde(default)]
    defaults: Option<SectionSpec>,
    #[serde(default)]
    section: BTreeMap<String, SectionSpec>,
}

/// A spec that cannot be used, with where in the spec file.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{path}:{line}:{col}: {kind}")]
pub struct SpecError {
    pub path: String,
    pub line: usize,
    pub col: usize,
    /// Boxed: a spec error travels in `Result`s that are otherwise small.
    pub kind: Box<SpecErrorKind>,
}

impl SpecError {
    /// What is wrong, in English (the JSON's words; the report says it in either language).
    pub fn message(&self) -> String {
        self.kind.to_string()
    }
}

/// Why a spec entry cannot take effect. Displays in English; `report::words::spec_error` says it
/// in the run's language.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SpecErrorKind {
    /// The file is not the spec's TOML (TOML's own words, or a kind or shape it refused).
    #[error("{message}")]
    Toml { message: String },
    /// A `sets` or `functions` entry of a kind there is not.
    #[error("{what} kind `{given}`: the kinds are {}", allowed.join(", "))]
    UnknownKind { what: String, given: String, allowed: Vec<&'static str> },
    #[error("a shape must be two sizes [rows, columns], not {given}")]
    ShapeNotTwo { given: String },
    #[error("section {section}: `{tex}` does not parse: {error}")]
    DoesNotParse { section: String, tex: String, error: syntax::SyntaxErrorKind },
    #[error("section {section}: assumption `{tex}` does not parse: {error}")]
    AssumptionDoesNotParse { section: String, tex: String, error: syntax::SyntaxErrorKind },
    #[error("section {section}: assumption `{tex}` must be one equation `left = right`")]
    AssumptionNotOneEquation { section: String, tex: String },
    #[error(
        "section {section}: the sizes make more than {MAX_SIZE_COMBINATIONS} combinations to check; give fewer values"
    )]
    TooManyCombinations { section: String },
    #[error("section {section}: size `{size}` = {value} is beyond what can be instantiated (at most {MAX_SIZE}); exact checks grow steeply with size, and a few small sizes are the evidence")]
    SizeBeyond { section: String, size: String, value: i64 },
    #[error("section {section}: size `{size}` must list values of at least 1, not {values:?}")]
    SizeValues { section: String, size: String, values: Vec<i64> },
    #[error("section {section}: claim `{claim}`: `when` does not parse: {error}")]
    WhenDoesNotParse { section: String, claim: String, error: syntax::SyntaxErrorKind },
    #[error("section {section}: the shape of `{name}` uses {dim}, beyond the largest size {MAX_SIZE}")]
    ShapeBeyond { section: String, name: String, dim: String },
    #[error(
        "section {section}: the shape of `{name}` uses `{dim}`, which is neither a positive number nor a declared size"
    )]
    ShapeUnknownSize { section: String, name: String, dim: String },
    #[error("section {section}: {entry} name: `{tex}` is not a symbol name")]
    NotASymbol { section: String, entry: NameEntry, tex: String },
    #[error("section {section}: index `{letter}` ranges over `{range}`, which is not a declared size")]
    IndexRangeUnknown { section: String, letter: String, range: String },
    /// A `define` the notes' section cannot take (read when the section is planned).
    #[error("section {section}: `{tex}` defines nothing: its left side must be a symbol not declared or defined before (a matrix, a size, a built-in, an earlier define), and its right side must not use it")]
    DefinesNothing { section: String, tex: String },
    /// A letter the spec declares a function of a kind, that the notes define by a formula.
    #[error("section {section}: the spec declares `{name}` a {kind} function, but the notes define it by a formula: remove the entry (the notes' definition is used) or make it `elementwise`")]
    FunctionDefinedInNotes { section: String, name: String, kind: FunctionKind },
}

/// The spec entries whose names must be symbols.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum NameEntry {
    #[error("`loss`")]
    Loss,
    #[error("a matrix")]
    Matrix,
    #[error("an identity")]
    Identity,
    #[error("a function")]
    Function,
    #[error("a set")]
    Set,
    #[error("an index")]
    Index,
    #[error("`vary`")]
    Vary,
    #[error("`positive`")]
    Positive,
}

/// A TeX string of the spec, parsed, with its position in the spec file.
#[derive(Debug, Clone)]
pub struct SpecTex {
    pub tex: String,
    pub statement: Statement,
    pub line: usize,
    pub col: usize,
}

/// Where `needle` is first written in the spec (quoted, as a TOML key or string), for entries
/// whose own position TOML does not keep; the start of the file if it cannot be found.
fn text_position_of(text: &str, needle: &str) -> usize {
    ["'", "\""].iter().find_map(|q| text.find(&format!("{q}{needle}{q}"))).or_else(|| text.find(needle)).unwrap_or(0)
}

/// The range of a spec's `index` letter: 1..=size.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(from = "String")]
pub enum IndexRange {
    /// A size's name or a number: `"N"`, `"3"`.
    Size(String),
    /// `"auto"`: read off the shapes the index is used with.
    Auto,
}

impl From<String> for IndexRange {
    fn from(text: String) -> IndexRange {
        if text == "auto" {
            IndexRange::Auto
        } else {
            IndexRange::Size(text)
        }
    }
}

/// The largest size a spec may ask for (`n = [..]`, a cross-check size, a shape's number).
pub const MAX_SIZE: i64 = 256;
/// The most combinations of size values one section may ask to check.
pub const MAX_SIZE_COMBINATIONS: usize = 256;

/// What a spec's `sets` entry makes of `J_i`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum SetKind {
    /// `causal`: 1..=i.
    Causal,
    /// `all`: the whole range of the index.
    All,
}

/// What a spec's `functions` entry says a letter is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub enum FunctionKind {
    /// σ: applied entry by entry; σ' is its derivative.
    Elementwise,
    /// F: vectors to vectors of the same length, each output depending on every input.
    Vector,
    /// R(θ): the 2×2 rotation matrix by θ.
    Rotation,
}

/// A matrix's shape, `[rows, columns]`: each a size's name or a positive number.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Vec<String>")]
pub struct Shape {
    pub rows: String,
    pub cols: String,
}

impl Shape {
    pub fn new(rows: impl Into<String>, cols: impl Into<String>) -> Shape {
        Shape { rows: rows.into(), cols: cols.into() }
    }

    pub fn dims(&self) -> [&String; 2] {
        [&self.rows, &self.cols]
    }
}

/// Marks a value the spec's types refuse, inside TOML's error: `Spec::parse` reads it back.
const REFUSED: &str = "\u{1}refused\u{1}";

/// A TOML error as a spec error: a value the spec's types refused, typed again; else TOML's
/// own words.
fn refused_value(message: &str) -> SpecErrorKind {
    let Some(rest) = message.find(REFUSED).map(|at| &message[at + REFUSED.len()..]) else {
        return SpecErrorKind::Toml { message: message.to_string() };
    };
    let (what, given) = rest.split_once('\u{1}').unwrap_or((rest, ""));
    let allowed = match what {
        "set" => SetKind::words(),
        "function" => FunctionKind::words(),
        _ => return SpecErrorKind::ShapeNotTwo { given: given.to_string() },
    };
    SpecErrorKind::UnknownKind { what: what.to_string(), given: given.to_string(), allowed }
}

/// A spec value spelled by one of a few words: the words, in one table per kind.
trait Spelled: Copy + PartialEq + 'static {
    const WHAT: &'static str;
    const WORDS: &'static [(&'static str, Self)];

    /// The value a word spells; an unknown word is refused with a message TOML passes on, which
    /// [`Spec::parse`] reads back as [`SpecErrorKind::UnknownKind`].
    fn read(text: &str) -> Result<Self, String> {
        Self::WORDS
            .iter()
            .find(|(w, _)| *w == text)
            .map(|(_, k)| *k)
            .ok_or_else(|| format!("{REFUSED}{}\u{1}{text}", Self::WHAT))
    }

    fn words() -> Vec<&'static str> {
        Self::WORDS.iter().map(|(w, _)| *w).collect()
    }

    fn word(self) -> &'static str {
        Self::WORDS.iter().find(|(_, k)| *k == self).map_or("?", |(w, _)| w)
    }
}

impl Spelled for SetKind {
    const WHAT: &'static str = "set";
    const WORDS: &'static [(&'static str, Self)] = &[("causal", SetKind::Causal), ("all", SetKind::All)];
}

impl Spelled for FunctionKind {
    const WHAT: &'static str = "function";
    const WORDS: &'static [(&'static str, Self)] = &[
        ("elementwise", FunctionKind::Elementwise),
        ("vector", FunctionKind::Vector),
        ("rotation", FunctionKind::Rotation),
    ];
}

impl TryFrom<String> for SetKind {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Self::read(&text)
    }
}

impl TryFrom<String> for FunctionKind {
    type Error = String;
    fn try_from(text: String) -> Result<Self, String> {
        Self::read(&text)
    }
}

impl std::fmt::Display for SetKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

impl std::fmt::Display for FunctionKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.word())
    }
}

impl TryFrom<Vec<String>> for Shape {
    type Error = String;
    fn try_from(dims: Vec<String>) -> Result<Self, String> {
        match <[String; 2]>::try_from(dims) {
            Ok([rows, cols]) => Ok(Shape { rows, cols }),
            Err(dims) => Err(format!("{REFUSED}shape\u{1}{dims:?}")),
        }
    }
}

impl Spec {
    /// The 1-based line and column of a byte offset in the spec's text.
    pub fn position(text: &str, offset: usize) -> (usize, usize) {
        let pos = LineIndex::new(text).position(offset);
        (pos.line, pos.col)
    }

    pub fn parse(path: &str, text: &str) -> Result<Spec, SpecError> {
        let lines = LineIndex::new(text);
        let error_at = |offset: usize, kind: SpecErrorKind| {
            let pos = lines.position(offset);
            SpecError { path: path.to_string(), line: pos.line, col: pos.col, kind: Box::new(kind) }
        };
        let raw: RawSpec = toml::from_str(text).map_err(|e| {
            let offset = e.span().map(|s| s.start).unwrap_or(0);
            error_at(offset, refused_value(e.message().trim()))
        })?;
        let has_defaults = raw.defaults.is_some();
        let spec = Spec {
            path: path.to_string(),
            defaults: raw.defaults.unwrap_or_default(),
            has_defaults,
            sections: raw.section,
            text: text.to_string(),
        };
        spec.validate(&error_at)?;
        Ok(spec)
    }

    /// Every TeX string parses and every range names a size; reported at the offending entry.
    fn validate(&self, error_at: &dyn Fn(usize, SpecErrorKind) -> SpecError) -> Result<(), SpecError> {
        for (name, section) in
            std::iter::once(("defaults", &self.defaults)).chain(self.sections.iter().map(|(k, v)| (k.as_str(), v)))
        {
            let example_defs = section.example.iter().flat_map(|e| e.define.iter());
            for def in section.define.iter().chain(section.claims.iter().map(|c| &c.tex)).chain(example_defs) {
                if let Err(e) = syntax::parse_formula(def.get_ref()) {
                    let kind = SpecErrorKind::DoesNotParse {
                        section: name.to_string(),
                        tex: def.get_ref().clone(),
                        error: e.kind,
                    };
                    return Err(error_at(def.span().start, kind));
                }
            }
            for assumption in &section.assume {
                let one_equation = syntax::parse_formula(assumption.get_ref()).map(|s| {
                    matches!(s.chains.as_slice(), [c] if c.first.is_some() && c.links.len() == 1
                        && c.links[0].op == crate::syntax::ast::RelOp::Eq)
                });
                let (section, tex) = (name.to_string(), assumption.get_ref().clone());
                let problem = match one_equation {
                    Err(e) => Some(SpecErrorKind::AssumptionDoesNotParse { section, tex, error: e.kind }),
                    Ok(false) => Some(SpecErrorKind::AssumptionNotOneEquation { section, tex }),
                    Ok(true) => None,
                };
                if let Some(problem) = problem {
                    return Err(error_at(assumption.span().start, problem));
                }
            }
            let mut combinations: usize = 1;
            for values in section.sizes.values() {
                combinations = combinations.saturating_mul(values.get_ref().len());
                if combinations > MAX_SIZE_COMBINATIONS {
                    let kind = SpecErrorKind::TooManyCombinations { section: name.to_string() };
                    return Err(error_at(values.span().start, kind));
                }
            }
            for (size, values) in section.sizes.iter().chain(&section.crosscheck) {
                if let Some(v) = values.get_ref().iter().find(|v| **v > MAX_SIZE) {
                    let kind = SpecErrorKind::SizeBeyond { section: name.to_string(), size: size.clone(), value: *v };
                    return Err(error_at(values.span().start, kind));
                }
                if values.get_ref().is_empty() || values.get_ref().iter().any(|v| *v < 1) {
                    let (section, size, values_given) = (name.to_string(), size.clone(), values.get_ref().clone());
                    let kind = SpecErrorKind::SizeValues { section, size, values: values_given };
                    return Err(error_at(values.span().start, kind));
                }
            }
            if let Some(loss) = &section.loss {
                if crate::syntax::canonical_key(loss).is_err() {
                    let kind = SpecErrorKind::NotASymbol {
                        section: name.to_string(),
                        entry: NameEntry::Loss,
                        tex: loss.clone(),
                    };
                    return Err(error_at(text_position_of(&self.text, loss), kind));
                }
            }
            for claim in &section.claims {
                if let Some(when) = &claim.when {
                    if let Err(e) = syntax::parse_formula(when) {
                        let at = text_position_of(&self.text, when);
                        let (section, claim) = (name.to_string(), claim.name.clone());
                        return Err(error_at(at, SpecErrorKind::WhenDoesNotParse { section, claim, error: e.kind }));
                    }
                }
            }
            for (name_tex, shape) in section.matrix.iter().chain(&section.family) {
                for dim in shape.get_ref().dims() {
                    let number = dim.parse::<i64>().ok();
                    let (section, shaped, dim_text) = (name.to_string(), name_tex.clone(), dim.clone());
                    if number.is_some_and(|n| n > MAX_SIZE) {
                        let kind = SpecErrorKind::ShapeBeyond { section, name: shaped, dim: dim_text };
                        return Err(error_at(shape.span().start, kind));
                    }
                    let known = self.size_names(name).any(|s| s == dim) || number.is_some_and(|n| n >= 1);
                    if !known {
                        let kind = SpecErrorKind::ShapeUnknownSize { section, name: shaped, dim: dim_text };
                        return Err(error_at(shape.span().start, kind));
                    }
                }
            }
            let names = section.matrix.keys().chain(section.family.keys()).map(|k| (NameEntry::Matrix, k));
            let names = names
                .chain(section.identity.keys().map(|k| (NameEntry::Identity, k)))
                .chain(section.functions.keys().map(|k| (NameEntry::Function, k)))
                .chain(section.sets.keys().map(|k| (NameEntry::Set, k)))
                .chain(section.index.keys().map(|k| (NameEntry::Index, k)))
                .chain(section.vary.iter().map(|k| (NameEntry::Vary, k)))
                .chain(section.positive.iter().map(|k| (NameEntry::Positive, k)));
            for (entry, tex) in names {
                if crate::syntax::canonical_key(tex).is_err() {
                    let at = text_position_of(&self.text, tex);
                    return Err(error_at(
                        at,
                        SpecErrorKind::NotASymbol { section: name.to_string(), entry, tex: tex.clone() },
                    ));
                }
            }
            for (letter, range) in &section.index {
                let IndexRange::Size(text) = range.get_ref() else { continue };
                let known = self.size_names(name).any(|s| s == text);
                if !known && text.parse::<i64>().is_err() {
                    let (section, letter, range_text) = (name.to_string(), letter.clone(), text.clone());
                    let kind = SpecErrorKind::IndexRangeUnknown { section, letter, range: range_text };
                    return Err(error_at(range.span().start, kind));
                }
            }
        }
        Ok(())
    }

    fn size_names<'a>(&'a self, section: &str) -> impl Iterator<Item = &'a str> + 'a {
        let own = self.sections.get(section).map(|s| s.sizes.keys()).into_iter().flatten();
        own.chain(self.defaults.sizes.keys()).map(String::as_str)
    }

    /// The section's spec merged over the defaults (the section wins). A section the spec does
    /// not name gets the defaults, when the spec has a `[defaults]` table.
    pub fn section(&self, number: &str) -> Option<SectionSpec> {
        let own = match self.sections.get(number) {
            Some(own) => own,
            None if self.has_defaults => return Some(self.defaults.clone()),
            None => return None,
        };
        let mut merged = self.defaults.clone();
        merged.sizes.extend(own.sizes.clone());
        merged.crosscheck.extend(own.crosscheck.clone());
        merged.index.extend(own.index.clone());
        merged.sets.extend(own.sets.clone());
        merged.matrix.extend(own.matrix.clone());
        merged.identity.extend(own.identity.clone());
        merged.family.extend(own.family.clone());
        merged.loss = own.loss.clone().or(merged.loss);
        merged.vary.extend(own.vary.iter().cloned());
        merged.positive.extend(own.positive.iter().cloned());
        merged.assume.extend(own.assume.iter().cloned());
        merged.functions.extend(own.functions.clone());
        merged.define.extend(own.define.iter().cloned());
        merged.claims.extend(own.claims.iter().cloned());
        merged.ignore.extend(own.ignore.iter().cloned());
        merged.example = own.example.clone();
        Some(merged)
    }

    /// Sections the spec describes that the notes do not have (claims stated only in words).
    pub fn extra_sections<'a>(&'a self, present: &'a [String]) -> impl Iterator<Item = &'a String> + 'a {
        self.sections.keys().filter(move |k| !present.contains(k))
    }

    /// Parses a spec TeX string (already validated) with its file position.
    pub fn tex(&self, text: &str, value: &Spanned<String>) -> SpecTex {
        let pos = LineIndex::new(text).position(value.span().start);
        let statement = syntax::parse_formula(value.get_ref()).expect("validated in Spec::parse");
        SpecTex { tex: value.get_ref().clone(), statement, line: pos.line, col: pos.col }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sections_and_merges_defaults() {
        let text = r#"
[defaults]
sizes = { N = [2, 3] }
[section."15.1"]
index = { r = "N", j = "N" }
define = ['p_j=\frac{e^{s_j}}{\sum_r e^{s_r}}']
claims = [{ name = "shift", tex = 'a=b' }]
"#;
        let spec = Spec::parse("c.toml", text).unwrap();
        let s = spec.section("15.1").unwrap();
        assert_eq!(s.sizes["N"].get_ref(), &vec![2, 3]);
        assert_eq!(s.index["j"].get_ref(), &IndexRange::Size("N".into()));
        assert_eq!(s.define.len(), 1);
        let tex = spec.tex(text, &s.define[0]);
        assert_eq!(tex.line, 6);
        assert_eq!(
            spec.section("15.9").unwrap().sizes["N"].get_ref(),
            &vec![2, 3],
            "a section not named gets the defaults"
        );
        let without = Spec::parse("c.toml", "[section.\"1\"]\nsizes = { n = [2] }\n").unwrap();
        assert!(without.section("2").is_none());
    }

    #[test]
    fn toml_errors_have_line_and_column() {
        let err = Spec::parse("c.toml", "[section.\"15.1\"]\nindex = { r = 3 }\n").unwrap_err();
        assert_eq!((err.line, err.path.as_str()), (2, "c.toml"));
        let err = Spec::parse("c.toml", "[section.\"15.1\"]\nbogus = 1\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message().contains("bogus"), "{}", err.message());
    }

    #[test]
    fn kinds_and_shapes_are_typed_when_read() {
        let spec = Spec::parse(
            "c.toml",
            "[section.\"1\"]\nsizes = { n = [2] }\nsets = { J = \"causal\" }\nfunctions = { F = \"vector\" }\nmatrix = { X = [\"n\", \"1\"] }\n",
        )
        .unwrap();
        let s = spec.section("1").unwrap();
        assert_eq!(*s.sets["J"].get_ref(), SetKind::Causal);
        assert_eq!(*s.functions["F"].get_ref(), FunctionKind::Vector);
        assert_eq!(s.matrix["X"].get_ref(), &Shape::new("n", "1"));
        let err = Spec::parse("c.toml", "[section.\"1\"]\nfunctions = { F = \"vectr\" }\n").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(err.message().contains("the kinds are elementwise, vector, rotation"), "{}", err.message());
        let err = Spec::parse("c.toml", "[section.\"1\"]\nsets = { J = \"past\" }\n").unwrap_err();
        assert!(err.message().contains("set kind `past`"), "{}", err.message());
        let err = Spec::parse("c.toml", "[section.\"1\"]\nmatrix = { X = [\"2\", \"2\", \"2\"] }\n").unwrap_err();
        assert_eq!(err.line, 2, "{err}");
        assert!(err.message().contains("two sizes [rows, columns]"), "{}", err.message());
    }

    #[test]
    fn unparsable_tex_and_unknown_ranges_are_errors() {
        let err = Spec::parse("c.toml", "[section.\"1\"]\n\ndefine = ['\\foo=1']\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message().contains("unknown command"), "{}", err.message());
        let err = Spec::parse("c.toml", "[section.\"1\"]\nindex = { r = \"M\" }\n").unwrap_err();
        assert!(err.message().contains("not a declared size"), "{}", err.message());
        assert_eq!((err.line, err.col), (2, 15), "at the range itself");
    }
}
