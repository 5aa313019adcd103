//! The printable report: a Markdown and an HTML appendix per language, rendered with Tera from
//! the check report alone, formulas as MathML (math-core); and JUnit XML (quick-junit) for CI.
//!
//! Takes: a [`CheckReport`], the language, the templates (built in, or the author's). Gives: the
//! file's text. Pure: the CLI writes the files (atomically). Every text from the notes reaches the
//! HTML through Tera's autoescape; only the converter's MathML is marked safe.

use super::words::{appendix_words, describe_skip, AppendixWords};
use super::{describe, CheckReport, ClaimEntry, Lang};
use crate::check::Status;
use crate::model::FormulaRole;
use serde::Serialize;

/// The templates the appendix is rendered with: built into the binary, or read from
/// `--templates DIR` (`report.md.tera`, `report.html.tera`, `macros.tera`).
#[derive(Debug, Clone)]
pub struct Templates {
    pub markdown: String,
    pub html: String,
    pub macros: String,
}

impl Templates {
    pub const FILES: [&'static str; 3] = ["report.md.tera", "report.html.tera", "macros.tera"];

    pub fn builtin() -> Templates {
        Templates {
            markdown: include_str!("../../templates/report.md.tera").to_string(),
            html: include_str!("../../templates/report.html.tera").to_string(),
            macros: include_str!("../../templates/macros.tera").to_string(),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AppendixFormat {
    Markdown,
    Html,
}

impl AppendixFormat {
    pub fn extension(self) -> &'static str {
        match self {
            AppendixFormat::Markdown => "md",
            AppendixFormat::Html => "html",
        }
    }
}

/// What the report says about the run beyond the verdicts.
#[derive(Debug, Clone, Serialize)]
pub struct RunInfo {
    /// The notes' name: the file's or the chapter folder's.
    pub title: String,
    /// The folder every path in the appendix is shown relative to (the chapter's, or the notes
    /// file's), as given; no path is shown absolute.
    #[serde(skip)]
    pub root: Option<String>,
    pub version: &'static str,
    pub spec_path: Option<String>,
    /// SHA-256 of the spec's bytes, hex.
    pub spec_sha256: Option<String>,
}

#[derive(Debug, Default, Clone, Copy, Serialize)]
struct Counts {
    claims: usize,
    verified: usize,
    refuted: usize,
    undecided: usize,
    definitions: usize,
    not_checked: usize,
}

impl Counts {
    fn add_claim(&mut self, status: Status) {
        self.claims += 1;
        match status {
            Status::Verified => self.verified += 1,
            Status::Refuted => self.refuted += 1,
            Status::Undecided => self.undecided += 1,
        }
    }

    fn add_role(&mut self, role: FormulaRole) {
        match role {
            FormulaRole::Definition | FormulaRole::ExampleDefinition => self.definitions += 1,
            FormulaRole::NotChecked | FormulaRole::NotParsed => self.not_checked += 1,
            _ => {}
        }
    }

    fn add(&mut self, other: &Counts) {
        self.claims += other.claims;
        self.verified += other.verified;
        self.refuted += other.refuted;
        self.undecided += other.undecided;
        self.definitions += other.definitions;
        self.not_checked += other.not_checked;
    }
}

/// A formula in TeX and, for HTML, as MathML (or why the converter refused it).
#[derive(Debug, Clone, Serialize)]
struct Math {
    tex: String,
    mathml: Option<String>,
    error: Option<String>,
}

#[derive(Debug, Serialize)]
struct Page {
    lang: &'static str,
    w: AppendixWords,
    run: RunInfo,
    totals: Counts,
    /// The undecided claims by why (the coverage table).
    undecided: Vec<UndecidedView>,
    sections: Vec<SectionView>,
}

#[derive(Debug, Serialize)]
struct SectionView {
    anchor: String,
    number: String,
    title: String,
    /// `15.3 Title`, or the title alone for a heading without a number (printed once).
    heading: String,
    /// Inline formulas that only mention symbols (`$x$`, `$f(x)$`): counted, not listed.
    inline_mentions: usize,
    counts: Counts,
    /// The sizes the section's claims were checked at (distinct, in order).
    sizes: Vec<Math>,
    formulas: Vec<FormulaView>,
}

impl SectionView {
    /// Counts a claim of the section and the sizes it was checked at.
    fn add_claim(&mut self, c: &ClaimEntry, math: &dyn Fn(&str, bool) -> Math) {
        self.counts.add_claim(c.verdict);
        if !c.sizes.is_empty() && !self.sizes.iter().any(|s| s.tex == sizes_tex(&c.sizes)) {
            self.sizes.push(math(&sizes_tex(&c.sizes), false));
        }
    }
}

/// A point's letter as TeX: an entry of a matrix named with a subscript (`W_K_{1,2}`) has its
/// name braced (`{W_K}_{1,2}`), a double subscript not being TeX.
fn entry_tex(name: &str) -> String {
    match name.strip_suffix('}').and_then(|n| n.rsplit_once("_{")) {
        Some((base, entry)) if base.contains(['_', '^']) => format!("{{{base}}}_{{{entry}}}"),
        _ => name.to_string(),
    }
}

/// Sizes as TeX (`n = 2, 3; d = 4`, `\epsilon^0 \dots \epsilon^1`).
fn sizes_tex(sizes: &str) -> String {
    sizes.replace('…', "\\dots")
}

/// A row of the coverage table: the constructs as maths, each place a link to its claim.
#[derive(Debug, Serialize)]
struct UndecidedView {
    count: usize,
    why: &'static str,
    named: Vec<NamedView>,
    more_named: bool,
    places: Vec<PlaceView>,
    /// Places not listed.
    more_places: usize,
}

/// Words of the report as the HTML shows them: its `code` spans (a letter, what to write in
/// the notes) set as code, the rest as text.
#[derive(Debug, Serialize)]
struct Words {
    text: String,
    parts: Vec<WordsPart>,
}

#[derive(Debug, Serialize)]
struct WordsPart {
    text: String,
    code: bool,
}

impl Words {
    fn of(text: String) -> Words {
        let parts = text
            .split('`')
            .enumerate()
            .filter(|(_, part)| !part.is_empty())
            .map(|(i, part)| WordsPart { text: part.to_string(), code: i % 2 == 1 })
            .collect();
        // (An unpaired backquote leaves the rest as code: shown as written.)
        let parts = if text.matches('`').count().is_multiple_of(2) {
            parts
        } else {
            vec![WordsPart { text: text.clone(), code: false }]
        };
        Words { text, parts }
    }
}

/// A construct the undecided claims name, and how many name it.
#[derive(Debug, Serialize)]
struct NamedView {
    construct: Math,
    count: usize,
}

/// `gd.md:236`, linking to the claim's entry where this appendix shows it.
#[derive(Debug, Serialize)]
struct PlaceView {
    label: String,
    anchor: Option<String>,
}

#[derive(Debug, Serialize)]
struct FormulaView {
    id: String,
    anchor: String,
    /// `file:line:col`, the file relative to the root.
    location: String,
    math: Math,
    role: &'static str,
    role_class: &'static str,
    /// Why a formula is ignored or not checked, or its parse error.
    note: Option<Words>,
    claims: Vec<ClaimView>,
}

#[derive(Debug, Serialize)]
struct ClaimView {
    id: String,
    anchor: String,
    status: &'static str,
    word: &'static str,
    mark: &'static str,
    method: String,
    sizes: Option<Math>,
    assuming: Vec<Math>,
    /// How it was read through recurrences, in words (empty if it was not).
    unrolled: Words,
    reason: Words,
    understood: Math,
    counterexample: Option<CounterexampleView>,
    correct: Option<CorrectView>,
    /// A refuted claim's verified repair, as math.
    suggestion: Option<Math>,
    example: Vec<MatrixView>,
}

/// A counterexample: the sizes, indices and point as maths (letters as the notes write them),
/// the entry and the two sides' values.
#[derive(Debug, Serialize)]
struct CounterexampleView {
    sizes: Option<Math>,
    indices: Option<Math>,
    entry: String,
    left: String,
    right: String,
    point: Option<Math>,
}

#[derive(Debug, Serialize)]
struct CorrectView {
    computed: Math,
    written: Math,
}

#[derive(Debug, Serialize)]
struct MatrixView {
    name: Math,
    max_difference: String,
    tolerance: String,
    rows: Vec<Vec<CellView>>,
}

#[derive(Debug, Serialize)]
struct CellView {
    printed: String,
    formulas: String,
    differences: String,
    differs: bool,
}

/// Renders one appendix. `Err` carries a template error (an author's template that does not
/// parse or render), worded for the user.
pub fn render_appendix(
    report: &CheckReport,
    run: &RunInfo,
    lang: Lang,
    format: AppendixFormat,
    templates: &Templates,
) -> Result<String, String> {
    let page = page(report, run, lang, format == AppendixFormat::Html);
    let mut tera = tera::Tera::new();
    // Names ending in .html are autoescaped; the Markdown report is not HTML.
    tera.add_raw_templates([
        ("macros.html", templates.macros.as_str()),
        ("report.md", templates.markdown.as_str()),
        ("report.html", templates.html.as_str()),
    ])
    .map_err(|e| format!("template: {e:#}"))?;
    let context = tera::Context::from_serialize(&page).map_err(|e| format!("template context: {e:#}"))?;
    let name = match format {
        AppendixFormat::Markdown => "report.md",
        AppendixFormat::Html => "report.html",
    };
    tera.render(name, &context).map_err(|e| format!("template `{name}`: {}", error_chain(&e)))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut out = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        out.push_str(&format!(": {s}"));
        source = s.source();
    }
    out
}

/// The files of a report that belong to `lang`: notes named `*.zh.md` go to the Chinese report,
/// `*.en.md` to the English one; files without a language suffix (and the spec's claims) to both.
fn in_language(path: &str, lang: Lang, all: &[&str]) -> bool {
    let suffix = |l: &str| path.ends_with(&format!(".{l}.md"));
    let own = match lang {
        Lang::Zh => "zh",
        Lang::En => "en",
    };
    let has_own = all.iter().any(|p| p.ends_with(&format!(".{own}.md")));
    if suffix("zh") || suffix("en") {
        !has_own || suffix(own)
    } else {
        true
    }
}

fn page(report: &CheckReport, run: &RunInfo, lang: Lang, html: bool) -> Page {
    let converter = html.then(|| math_core::LatexToMathML::new(math_core::MathCoreConfig::default()).ok()).flatten();
    let math = |tex: &str, block: bool| -> Math {
        let Some(converter) = &converter else { return Math { tex: tex.to_string(), mathml: None, error: None } };
        let display = if block { math_core::MathDisplay::Block } else { math_core::MathDisplay::Inline };
        match converter.convert_with_local_state(tex, display) {
            Ok(result) => Math { tex: tex.to_string(), mathml: Some(result.mathml), error: None },
            Err(e) => Math { tex: tex.to_string(), mathml: None, error: Some(e.to_string()) },
        }
    };
    let w = appendix_words(lang);
    let paths: Vec<&str> = report.files.iter().map(|f| f.listing.path.as_str()).collect();
    let shown = |path: &str| shown_path(path, run.root.as_deref());
    let mut sections: Vec<SectionView> = Vec::new();
    let section_index = |sections: &mut Vec<SectionView>, number: &str, title: &str| -> usize {
        if let Some(i) = sections.iter().position(|s| s.number == number) {
            return i;
        }
        sections.push(SectionView {
            anchor: format!("s-{}", anchor_text(number)),
            number: number.to_string(),
            title: title.to_string(),
            heading: if title.is_empty() || number == title { number.to_string() } else { format!("{number} {title}") },
            inline_mentions: 0,
            counts: Counts::default(),
            sizes: Vec::new(),
            formulas: Vec::new(),
        });
        sections.len() - 1
    };
    for file in report.files.iter().filter(|f| in_language(&f.listing.path, lang, &paths)) {
        let skipped =
            |id: &str| file.skipped.iter().find(|s| s.formula == id || s.formula.starts_with(&format!("{id}.")));
        for f in &file.listing.formulas {
            let number = f.section.clone().unwrap_or_else(|| "0".into());
            let i = section_index(&mut sections, &number, f.section_title.as_deref().unwrap_or(""));
            let role = f.role.unwrap_or(FormulaRole::Mention);
            let note = match role {
                FormulaRole::NotParsed => f.error.clone(),
                FormulaRole::Ignored | FormulaRole::NotChecked => {
                    skipped(&f.id).map(|s| describe_skip(&s.reason, lang))
                }
                _ => None,
            };
            let claims: Vec<ClaimView> = file
                .claims
                .iter()
                .filter(|c| c.range == Some(f.range))
                .map(|c| claim_view(c, lang, &w, &math))
                .collect();
            let section = &mut sections[i];
            section.counts.add_role(role);
            for c in file.claims.iter().filter(|c| c.range == Some(f.range)) {
                section.add_claim(c, &math);
            }
            if role == FormulaRole::Mention && !f.display && claims.is_empty() {
                section.inline_mentions += 1;
                continue;
            }
            let (role_word, role_class) = role_words(role, &w);
            section.formulas.push(FormulaView {
                id: f.id.clone(),
                anchor: format!("f-{}", anchor_text(&f.id)),
                location: format!("{}:{}:{}", shown(&file.listing.path), f.line, f.col),
                math: math(&f.tex, f.display),
                role: role_word,
                role_class,
                note: note.map(Words::of),
                claims,
            });
        }
        // Claims the spec states in words: under their section, after its formulas.
        for c in file.claims.iter().filter(|c| c.source == "spec") {
            let i = section_index(&mut sections, &c.section, "");
            sections[i].add_claim(c, &math);
            sections[i].formulas.push(FormulaView {
                id: c.id.clone(),
                anchor: format!("f-{}", anchor_text(&c.id)),
                location: format!("{}:{}:{}", shown(&file.listing.path), c.line, c.col),
                math: math(&c.tex, true),
                role: w.role_spec_claim,
                role_class: "claim",
                note: None,
                claims: vec![claim_view(c, lang, &w, &math)],
            });
        }
    }
    let mut totals = Counts::default();
    sections.iter().for_each(|s| totals.add(&s.counts));
    Page {
        lang: match lang {
            Lang::Zh => "zh",
            Lang::En => "en",
        },
        w,
        run: RunInfo { spec_path: run.spec_path.as_deref().map(shown), ..run.clone() },
        totals,
        undecided: undecided_views(report, lang, &shown, &paths, &math),
        sections,
    }
}

/// A path as the appendix shows it: relative to `root`; never absolute (an absolute path
/// outside the root is shown by its file name).
fn shown_path(path: &str, root: Option<&str>) -> String {
    let p = std::path::Path::new(path);
    if let Some(relative) = root.and_then(|r| p.strip_prefix(r).ok()).filter(|r| !r.as_os_str().is_empty()) {
        return relative.display().to_string();
    }
    if p.is_absolute() {
        return p.file_name().map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned());
    }
    path.trim_start_matches("./").to_string()
}

/// The coverage table's rows, each place a link to the first claim there (where it is in this
/// appendix's files).
fn undecided_views(
    report: &CheckReport,
    lang: Lang,
    shown: &dyn Fn(&str) -> String,
    in_this_language: &[&str],
    math: &dyn Fn(&str, bool) -> Math,
) -> Vec<UndecidedView> {
    let shown_here = |path: &str| in_language(path, lang, in_this_language);
    super::undecided::rows(&report.summary, lang)
        .into_iter()
        .map(|row| {
            let mut places: Vec<PlaceView> = Vec::new();
            let mut all: Vec<(String, usize)> = Vec::new();
            for file in &report.files {
                let undecided = file.claims.iter().filter(|c| c.verdict == Status::Undecided);
                for c in undecided.filter(|c| super::undecided::why(c) == row.kind) {
                    let at = (file.listing.path.clone(), c.line);
                    if all.contains(&at) {
                        continue;
                    }
                    all.push(at);
                    if places.len() < super::undecided::PLACES {
                        let anchor = shown_here(&file.listing.path).then(|| format!("c-{}", anchor_text(&c.id)));
                        places.push(PlaceView { label: format!("{}:{}", shown(&file.listing.path), c.line), anchor });
                    }
                }
            }
            UndecidedView {
                count: row.count,
                why: row.why,
                named: row.named.iter().map(|(c, n)| NamedView { construct: math(c, false), count: *n }).collect(),
                more_named: row.more_named,
                more_places: all.len() - places.len(),
                places,
            }
        })
        .collect()
}

fn role_words(role: FormulaRole, w: &AppendixWords) -> (&'static str, &'static str) {
    match role {
        FormulaRole::Claims => (w.role_claims, "claim"),
        FormulaRole::Definition => (w.role_definition, "definition"),
        FormulaRole::Mention => (w.role_mention, "mention"),
        FormulaRole::Printed => (w.role_printed, "printed"),
        FormulaRole::Ignored => (w.role_ignored, "ignored"),
        FormulaRole::NotChecked => (w.role_not_checked, "not-checked"),
        FormulaRole::NotParsed => (w.role_not_parsed, "not-parsed"),
        FormulaRole::Binding => (w.role_binding, "binding"),
        FormulaRole::Condition => (w.role_condition, "condition"),
        FormulaRole::ExampleDefinition => (w.role_example_definition, "definition"),
    }
}

/// `15.3#4.2` -> `15.3-4.2`: letters, digits, `.`, `-` and `_` kept, anything else `-`.
fn anchor_text(id: &str) -> String {
    id.chars().map(|c| if c.is_alphanumeric() || matches!(c, '.' | '-' | '_') { c } else { '-' }).collect()
}

fn claim_view(c: &ClaimEntry, lang: Lang, w: &AppendixWords, math: &dyn Fn(&str, bool) -> Math) -> ClaimView {
    let (status, word, mark) = match c.verdict {
        Status::Verified => ("verified", w.verified, "✓"),
        Status::Refuted => ("refuted", w.refuted, "✗"),
        Status::Undecided => ("undecided", w.undecided, "?"),
    };
    let labels = super::words(lang);
    let method = if c.method.is_some() { labels.method(c.method, c.error_bound_log2) } else { String::new() };
    let counterexample = c.counterexample.as_ref().map(|x| {
        let join = |m: &std::collections::BTreeMap<String, i64>| {
            m.iter().map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", ")
        };
        let mismatch = x.mismatch.as_ref();
        let value = |v: Option<f64>, im: Option<f64>| match (v, im) {
            (Some(v), Some(im)) => format!("{v:.6} {} {:.6}i", if im < 0.0 { "−" } else { "+" }, im.abs()),
            (Some(v), None) => format!("{v:.6}"),
            _ => String::new(),
        };
        let as_math = |tex: String| (!tex.is_empty()).then(|| math(&tex, false));
        CounterexampleView {
            sizes: as_math(join(&x.sizes)),
            indices: as_math(join(&x.indices)),
            entry: mismatch.and_then(|m| m.entry).map(|(r, c)| format!("({r}, {c})")).unwrap_or_default(),
            left: value(mismatch.map(|m| m.lhs), mismatch.and_then(|m| m.lhs_imaginary)),
            right: value(mismatch.map(|m| m.rhs), mismatch.and_then(|m| m.rhs_imaginary)),
            point: as_math(
                mismatch
                    .map(|m| {
                        m.point.iter().map(|(k, v)| format!("{} = {v:.4}", entry_tex(k))).collect::<Vec<_>>().join(", ")
                    })
                    .unwrap_or_default(),
            ),
        }
    });
    let correct = c.counterexample.as_ref().and_then(|x| x.mismatch.as_ref()).and_then(|m| m.correct.as_ref()).map(
        |(tex, start, end)| CorrectView {
            computed: math(tex, false),
            written: math(c.tex.get(*start..*end).unwrap_or(""), false),
        },
    );
    let example = c
        .example
        .iter()
        .flat_map(|e| &e.matrices)
        .map(|m| {
            let rows = m
                .printed
                .iter()
                .enumerate()
                .map(|(i, row)| {
                    row.iter()
                        .enumerate()
                        .map(|(j, printed)| {
                            let formulas = m.analytic.get(i).and_then(|r| r.get(j)).copied().unwrap_or(f64::NAN);
                            let differences = m.finite_difference.as_ref().and_then(|fd| fd.get(i)?.get(j).copied());
                            let differs = (formulas - printed).abs() > m.tolerance
                                || differences.is_some_and(|d| (d - printed).abs() > m.tolerance);
                            CellView {
                                printed: format!("{printed:.6}"),
                                formulas: format!("{formulas:.6}"),
                                differences: differences.map(|d| format!("{d:.6}")).unwrap_or_default(),
                                differs,
                            }
                        })
                        .collect()
                })
                .collect();
            MatrixView {
                name: math(&m.name, false),
                max_difference: format!("{:.2e}", m.max_difference),
                tolerance: format!("{:.0e}", m.tolerance),
                rows,
            }
        })
        .collect();
    ClaimView {
        id: c.id.clone(),
        anchor: format!("c-{}", anchor_text(&c.id)),
        status,
        word,
        mark,
        method: method.to_string(),
        sizes: (!c.sizes.is_empty()).then(|| math(&sizes_tex(&c.sizes), false)),
        assuming: c.assuming.iter().map(|a| math(a, false)).collect(),
        unrolled: Words::of(c.unrolled.as_ref().map(|u| crate::report::words(lang).unrolled(u)).unwrap_or_default()),
        reason: Words::of(if c.verdict == Status::Verified && c.example.is_none() {
            String::new()
        } else {
            describe(&c.reason, lang)
        }),
        understood: math(&c.understood, false),
        counterexample,
        correct,
        suggestion: c.suggestion.as_ref().map(|s| math(&s.tex, false)),
        example,
    }
}

/// JUnit XML: one test suite per file, one test case per claim; refuted is a failure with the
/// reason, undecided is skipped with it. No timestamps or times, so the output is reproducible.
pub fn render_junit(report: &CheckReport) -> String {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut junit = Report::new("derivcheck");
    for file in report.files.iter().filter(|f| !f.claims.is_empty()) {
        let mut suite = TestSuite::new(file.listing.path.clone());
        for c in &file.claims {
            let reason = describe(&c.reason, Lang::En);
            let status = match c.verdict {
                Status::Verified => TestCaseStatus::success(),
                Status::Refuted => {
                    let mut s = TestCaseStatus::non_success(NonSuccessKind::Failure);
                    s.set_message(reason.clone()).set_type("refuted");
                    s.set_description(format!("{}:{}:{}: {}\n{}", file.listing.path, c.line, c.col, c.tex, reason));
                    s
                }
                Status::Undecided => {
                    let mut s = TestCaseStatus::skipped();
                    s.set_message(reason);
                    s
                }
            };
            let mut case = TestCase::new(c.id.clone(), status);
            case.set_classname(format!("{}.{}", file.listing.path, c.section));
            suite.add_test_case(case);
        }
        junit.add_test_suite(suite);
    }
    junit.to_string().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_of_subscripted_matrices_are_tex() {
        assert_eq!(entry_tex("W_K_{1,2}"), "{W_K}_{1,2}");
        assert_eq!(entry_tex("s_{1}"), "s_{1}");
        assert_eq!(entry_tex("x"), "x");
    }

    #[test]
    fn anchors_keep_ids_readable() {
        assert_eq!(anchor_text("15.3#4.2"), "15.3-4.2");
        assert_eq!(anchor_text("15.6/spec:perm"), "15.6-spec-perm");
    }

    #[test]
    fn language_suffixes_pick_the_notes() {
        let all = ["ch/notes.zh.md", "ch/notes.en.md"];
        assert!(in_language("ch/notes.zh.md", Lang::Zh, &all));
        assert!(!in_language("ch/notes.en.md", Lang::Zh, &all));
        assert!(in_language("ch/checks.toml", Lang::Zh, &all));
        assert!(in_language("ch/notes.zh.md", Lang::En, &["ch/notes.zh.md"]), "no English notes: show them all");
    }
}
