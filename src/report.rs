//! Stage 8 — `report`: listings and verdicts in, the `check` report out, as plain serializable
//! data (the JSON schema) and as text lines in Chinese or English.

use crate::check::{CheckedClaim, Status};
use crate::listing::{FileListing, Listing};
use crate::model::{FormulaRole, Reason};
use crate::sema::{Origin, Skipped};
use serde::Serialize;

/// The version of the JSON that `check --format json` writes; raised on any incompatible change.
pub const JSON_SCHEMA: u32 = 1;

#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    /// [`JSON_SCHEMA`].
    pub schema: u32,
    pub files: Vec<FileReport>,
    pub summary: CheckSummary,
    /// Claims whose verdicts came from the cache (said with `-v`; not part of the JSON, which
    /// is the same either way).
    #[serde(skip)]
    pub from_cache: usize,
    /// Bounded workers (forked processes for exact work) this process has started so far (said
    /// with `-v`; not part of the JSON).
    #[serde(skip)]
    pub exact_workers: usize,
}

impl CheckReport {
    /// 1 when a claim is refuted or inconsistent, else 0.
    pub fn exit_status(&self) -> crate::model::ExitStatus {
        crate::model::ExitStatus::of_run(self.summary.failed(), 0, false)
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    #[serde(flatten)]
    pub listing: FileListing,
    pub claims: Vec<ClaimEntry>,
    /// Relations the words around them make a condition or an equation to solve (`if $H=0$`,
    /// `solve $\mathbf A\mathbf v=\lambda\mathbf v$`) and that do not hold as identities: they
    /// claim nothing, so they are listed here, each with why, and counted as no claim.
    pub conditions: Vec<ClaimEntry>,
    pub skipped: Vec<Skipped>,
    /// Names an earlier section defined that a later one defines again.
    pub shadowed: Vec<crate::sema::Shadowing>,
}

/// Where a claim of a notebook is: its cell (from 1, code cells counted) and the line within it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct CellPosition {
    pub cell: usize,
    pub line: usize,
}

/// One claim, flat, in the schema `derivcheck check --format json` promises.
#[derive(Debug, Clone, Serialize)]
pub struct ClaimEntry {
    pub id: String,
    pub section: String,
    pub line: usize,
    pub col: usize,
    /// Byte range of the formula's TeX in the notes file (absent for spec claims).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub range: Option<(usize, usize)>,
    /// The claim's link (`lhs = rhs`) as a byte range inside the formula's TeX.
    pub link: (usize, usize),
    /// The construct the verdict is about (not understood, shapes that do not fit), as a byte
    /// range inside the formula's TeX, within `link`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub focus: Option<(usize, usize)>,
    /// `notes` or `spec` (a claim the spec states in words).
    pub source: &'static str,
    /// In a notebook: the cell and the line within it (`line` is the `.ipynb` file's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cell: Option<CellPosition>,
    pub tex: String,
    /// The claim as read, every operation explicit (TeX).
    pub understood: String,
    pub kind: crate::sema::ClaimKind,
    pub verdict: Status,
    pub method: Option<crate::model::Method>,
    /// For a randomized proof: log₂ of the bound on its error probability.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_bound_log2: Option<f64>,
    pub sizes: String,
    /// The spec's assumptions the claim was checked under, in TeX.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub assuming: Vec<String>,
    /// How it was read through recurrences (the text reports say it in words).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unrolled: Option<crate::model::Unrolled>,
    /// Why, as data (`reason` names the variant); `detail` says it in English.
    pub reason: crate::model::Reason,
    pub detail: String,
    pub counterexample: Option<crate::check::Counterexample>,
    pub numeric: Option<crate::model::NumericCheck>,
    pub example: Option<crate::model::ExampleResult>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub inconsistent: bool,
    pub elapsed_ms: f64,
    /// For a refuted claim: the smallest edit of it derivcheck verifies ("did you mean").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub suggestion: Option<crate::model::Suggestion>,
}

/// What `check` made of one file: its claims with verdicts, the formulas it skipped and why,
/// and the role of every parsed formula.
pub struct FileOutcome {
    pub claims: Vec<CheckedClaim>,
    pub skipped: Vec<Skipped>,
    pub roles: Vec<(String, FormulaRole)>,
    pub shadowed: Vec<crate::sema::Shadowing>,
}

/// Formulas by role: with the claims, they account for every formula of the notes.
#[derive(Debug, Clone, Copy, Default, Serialize)]
pub struct Coverage {
    pub with_claims: usize,
    pub definitions: usize,
    pub mentions: usize,
    pub printed: usize,
    pub ignored: usize,
    pub not_checked: usize,
    pub not_parsed: usize,
    pub bindings: usize,
    pub conditions: usize,
    pub example_definitions: usize,
}

impl Coverage {
    fn add(&mut self, other: &Coverage) {
        self.with_claims += other.with_claims;
        self.definitions += other.definitions;
        self.mentions += other.mentions;
        self.printed += other.printed;
        self.ignored += other.ignored;
        self.not_checked += other.not_checked;
        self.not_parsed += other.not_parsed;
        self.bindings += other.bindings;
        self.conditions += other.conditions;
        self.example_definitions += other.example_definitions;
    }

    fn count(&mut self, role: FormulaRole) {
        let slot = match role {
            FormulaRole::Claims => &mut self.with_claims,
            FormulaRole::Definition => &mut self.definitions,
            FormulaRole::Mention => &mut self.mentions,
            FormulaRole::Printed => &mut self.printed,
            FormulaRole::Ignored => &mut self.ignored,
            FormulaRole::NotChecked => &mut self.not_checked,
            FormulaRole::NotParsed => &mut self.not_parsed,
            FormulaRole::Binding => &mut self.bindings,
            FormulaRole::Condition => &mut self.conditions,
            FormulaRole::ExampleDefinition => &mut self.example_definitions,
        };
        *slot += 1;
    }
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct CheckSummary {
    pub formulas: usize,
    /// Every formula by its role.
    pub coverage: Coverage,
    /// Claims whose exact and floating-point checks disagree (counted under `undecided` too).
    pub inconsistent: usize,
    pub parsed: usize,
    pub claims: usize,
    pub verified: usize,
    pub refuted: usize,
    pub undecided: usize,
    /// The undecided claims grouped by why, the largest group first.
    pub undecided_by_why: Vec<undecided::UndecidedGroup>,
}

impl CheckSummary {
    /// A claim refuted, or the spec inconsistent with the notes.
    pub fn failed(&self) -> bool {
        self.refuted > 0 || self.inconsistent > 0
    }

    /// Adds another run's counts (a book's total).
    pub fn add(&mut self, other: &CheckSummary) {
        self.formulas += other.formulas;
        self.parsed += other.parsed;
        self.claims += other.claims;
        self.verified += other.verified;
        self.refuted += other.refuted;
        self.undecided += other.undecided;
        self.inconsistent += other.inconsistent;
        self.coverage.add(&other.coverage);
        undecided::merge(&mut self.undecided_by_why, &other.undecided_by_why);
    }
}

impl ClaimEntry {
    pub fn from_checked(c: &CheckedClaim) -> ClaimEntry {
        let (line, col, source, range) = match &c.origin {
            Origin::Notes { line, col, range, .. } => (*line, *col, "notes", Some(*range)),
            Origin::Spec { line, col, .. } => (*line, *col, "spec", None),
        };
        ClaimEntry {
            id: c.id.clone(),
            section: c.section.clone(),
            line,
            col,
            range,
            link: c.link,
            focus: c.verdict.focus,
            source,
            cell: None,
            tex: c.tex.clone(),
            understood: c.understood.clone(),
            kind: c.kind,
            verdict: c.verdict.status,
            method: c.verdict.method,
            error_bound_log2: c.verdict.error_bound_log2,
            sizes: c.verdict.sizes.clone(),
            assuming: c.verdict.assuming.clone(),
            unrolled: c.unrolled.clone(),
            reason: c.verdict.reason.clone(),
            detail: describe(&c.verdict.reason, Lang::En),
            counterexample: c.verdict.counterexample.clone(),
            numeric: c.verdict.numeric.clone(),
            example: c.verdict.example.clone(),
            inconsistent: c.verdict.inconsistent,
            elapsed_ms: c.verdict.elapsed_ms,
            suggestion: c.verdict.suggestion.clone(),
        }
    }
}

/// Was a checked relation left undecided because the words around it make it a condition? It
/// then claims nothing.
fn is_condition(reason: &Reason) -> bool {
    matches!(reason, Reason::OtherReading { reading: crate::model::Reading::Condition, .. })
}

/// Joins the listing with each file's checked claims. Claims the spec states are reported once,
/// under the spec's own path (after the notes files).
pub fn build(listing: Listing, checked: Vec<FileOutcome>, spec_path: Option<String>) -> CheckReport {
    let mut summary =
        CheckSummary { formulas: listing.summary.formulas, parsed: listing.summary.parsed, ..Default::default() };
    let mut spec_claims: Vec<ClaimEntry> = Vec::new();
    let from_cache = checked.iter().flat_map(|f| &f.claims).filter(|c| c.from_cache).count();
    let mut files: Vec<FileReport> = listing
        .files
        .into_iter()
        .zip(checked)
        .map(|(mut file, outcome)| {
            let mut roles: std::collections::HashMap<&str, FormulaRole> =
                outcome.roles.iter().map(|(id, role)| (id.as_str(), *role)).collect();
            // A formula whose every claim turned out a condition (false as an identity, and the
            // words make it an equation to solve) has that role.
            for (id, role) in roles.iter_mut().filter(|(_, r)| **r == FormulaRole::Claims) {
                let mut of_formula = outcome
                    .claims
                    .iter()
                    .filter(|c| c.id == *id || c.id.strip_prefix(*id).is_some_and(|rest| rest.starts_with('.')));
                if of_formula.clone().next().is_some() && of_formula.all(|c| is_condition(&c.verdict.reason)) {
                    *role = FormulaRole::Condition;
                }
            }
            for formula in &mut file.formulas {
                let role = match roles.get(formula.id.as_str()) {
                    _ if !formula.parsed && formula.mark == Some(crate::notes::Mark::Skip) => FormulaRole::Ignored,
                    _ if !formula.parsed => FormulaRole::NotParsed,
                    Some(role) => *role,
                    None => FormulaRole::Mention,
                };
                formula.role = Some(role);
                summary.coverage.count(role);
            }
            let (from_spec, mut claims): (Vec<ClaimEntry>, Vec<ClaimEntry>) =
                outcome.claims.iter().map(ClaimEntry::from_checked).partition(|c| c.source == "spec");
            for claim in &mut claims {
                claim.cell = crate::notes::notebook::cell_of(&file.cells, claim.line)
                    .map(|(cell, line)| CellPosition { cell, line });
            }
            spec_claims.extend(from_spec);
            let (conditions, claims) = claims.into_iter().partition(|c| is_condition(&c.reason));
            FileReport { listing: file, claims, conditions, skipped: outcome.skipped, shadowed: outcome.shadowed }
        })
        .collect();
    if !spec_claims.is_empty() {
        let path = spec_path.unwrap_or_else(|| "spec".into());
        let listing = FileListing { path, formulas: Vec::new(), warnings: Vec::new(), cells: Vec::new() };
        let (conditions, claims) = spec_claims.into_iter().partition(|c| is_condition(&c.reason));
        files.push(FileReport { listing, claims, conditions, skipped: Vec::new(), shadowed: Vec::new() });
    }
    for c in files.iter().flat_map(|f| &f.claims) {
        summary.claims += 1;
        summary.inconsistent += usize::from(c.inconsistent);
        match c.verdict {
            Status::Verified => summary.verified += 1,
            Status::Refuted => summary.refuted += 1,
            Status::Undecided => summary.undecided += 1,
        }
    }
    let exact_workers = crate::cas::isolate::workers_started();
    let mut report = CheckReport { schema: JSON_SCHEMA, files, summary, from_cache, exact_workers };
    report.summary.undecided_by_why = undecided::groups(&report);
    report
}

pub mod appendix;
pub mod ci;
pub mod diagnostic;
pub mod hover;
pub mod mutation;
pub mod undecided;
mod words;
pub use words::{describe, spec_error, strict_problem, syntax_error, unparsed_advice, unparsed_summary, words, Words};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lang {
    Zh,
    En,
}

/// A worked example's matrix: printed, by the backward formulas, by finite differences.
fn render_printed_matrix(m: &crate::model::PrintedMatrix, w: &Words) -> String {
    let show = |rows: &[Vec<f64>]| {
        let rows: Vec<String> =
            rows.iter().map(|r| r.iter().map(|v| format!("{v:.6}")).collect::<Vec<_>>().join(", ")).collect();
        format!("[{}]", rows.join("; "))
    };
    let mut out = format!(
        "\t  {}: {} {:.2e} ({} {:.0e})\n",
        m.name, w.max_difference, m.max_difference, w.tolerance, m.tolerance
    );
    out.push_str(&format!("\t    {} {}\n", w.printed, show(&m.printed)));
    out.push_str(&format!("\t    {} {}\n", w.backward, show(&m.analytic)));
    if let Some(fd) = &m.finite_difference {
        out.push_str(&format!("\t    {} {}\n", w.finite_differences, show(fd)));
    }
    out
}

/// The catalogue of readings `derivcheck notation` prints after the notation table: every way
/// of reading a formula other than "an identity for every value of its letters", by its JSON
/// name, in the order derivcheck tries them ([`crate::check::readings::TRIED`]), with what the
/// text leaves open and when it is tried.
pub fn readings_table() -> String {
    use crate::check::readings::TRIED;
    let mut out = String::from("| reading | what the text leaves open | tried |\n|---|---|---|\n");
    for (reading, phase) in TRIED {
        let name = serde_json::to_value(reading).ok().and_then(|v| v.as_str().map(str::to_string)).unwrap_or_default();
        let open = reading.leaves_open().replace("\\|", "‖").replace('|', "\\|");
        out.push_str(&format!("| `{name}` | {open} | {} |\n", phase.describe()));
    }
    out
}

/// One line per definition a later section makes again (it shadows the earlier one from there).
pub fn render_shadowed(file: &FileReport, lang: Lang) -> String {
    let w = words(lang);
    file.shadowed
        .iter()
        .map(|s| {
            let at = format!("{}:{}:{}", file.listing.path, s.line, s.col);
            format!("{at}\t{}\t`{}` {} ({}{})\n", w.note, s.key, w.defined_again, w.shadowing, s.earlier)
        })
        .collect()
}

/// A book's closing line: `total: 12 inputs (1 could not be checked), 340 formulas, 120
/// claims: …`.
pub fn render_book_total(total: &CheckSummary, inputs: usize, unreadable: usize, lang: Lang) -> String {
    let w = words(lang);
    format!(
        "{}: {inputs} {} ({unreadable} {}), {} {}, {} {}: {} {}, {} {}, {} {}\n",
        w.total,
        w.inputs,
        w.could_not_be_checked,
        total.formulas,
        w.formulas,
        total.claims,
        w.claims,
        total.verified,
        w.verified,
        total.refuted,
        w.refuted,
        total.undecided,
        w.undecided
    )
}

/// The closing line of every text report: every formula by its role, then claims by verdict.
pub fn render_summary(report: &CheckReport, lang: Lang) -> String {
    let w = words(lang);
    let s = &report.summary;
    let c = &s.coverage;
    let roles = [
        (c.with_claims, w.with_claims),
        (c.definitions, w.definitions),
        (c.mentions, w.mentions),
        (c.printed, w.printed_numbers),
        (c.ignored, w.ignored),
        (c.not_checked, w.not_checked),
        (c.not_parsed, w.not_parsed),
    ];
    let mut roles: Vec<String> = roles.iter().map(|(n, word)| format!("{n} {word}")).collect();
    // The roles prose gives formulas (issue 20's), shown where a chapter has them.
    let prose =
        [(c.bindings, w.bindings), (c.conditions, w.conditions), (c.example_definitions, w.example_definitions)];
    roles.extend(prose.iter().filter(|(n, _)| *n > 0).map(|(n, word)| format!("{n} {word}")));
    format!(
        "{}: {} {} ({}), {} {}: {} {}, {} {}, {} {}\n",
        w.summary,
        s.formulas,
        w.formulas,
        roles.join(", "),
        s.claims,
        w.claims,
        s.verified,
        w.verified,
        s.refuted,
        w.refuted,
        s.undecided,
        w.undecided
    ) + undecided::render(s, lang).as_str()
}

/// One line per claim (`file:line:col  section  verdict  method  sizes  id`), details indented.
pub fn render_text(report: &CheckReport, lang: Lang, spec_path: Option<&str>) -> String {
    let w = words(lang);
    let mut out = String::new();
    for file in &report.files {
        for warning in &file.listing.warnings {
            out.push_str(&format!(
                "{}:{}:{}\t{}\t{}\n",
                file.listing.path, warning.line, warning.col, w.warning, w.lone_dollar
            ));
        }
        for f in file.listing.formulas.iter().filter(|f| !f.parsed) {
            let section = f.section.as_deref().unwrap_or("-");
            out.push_str(&format!(
                "{}:{}:{}\t{section}\t{}\t-\t-\t{}\n",
                file.listing.path, f.line, f.col, w.not_parsed, f.id
            ));
            let error = match &f.error_kind {
                Some(kind) => words::syntax_error(kind, lang),
                None => f.error.clone().unwrap_or_default(),
            };
            out.push_str(&format!("\t{error}\n"));
        }
        out.push_str(&render_shadowed(file, lang));
        for c in &file.claims {
            let status = match c.verdict {
                Status::Verified => w.verified,
                Status::Refuted => w.refuted,
                Status::Undecided => w.undecided,
            };
            let method = w.method(c.method, c.error_bound_log2);
            let path = if c.source == "spec" { spec_path.unwrap_or("spec") } else { file.listing.path.as_str() };
            let mut sizes = match (c.sizes.is_empty(), c.example.is_some()) {
                (false, _) => c.sizes.clone(),
                (true, true) => w.worked_example.to_string(),
                (true, false) => "-".to_string(),
            };
            if !c.assuming.is_empty() {
                sizes.push_str(&format!("; {} {}", w.assuming, c.assuming.join(", ")));
            }
            if let Some(unrolled) = &c.unrolled {
                sizes.push_str(&format!("; {}", w.unrolled(unrolled)));
            }
            out.push_str(&format!(
                "{path}:{}:{}\t{}\t{status}\t{method}\t{sizes}\t{}\n",
                c.line, c.col, c.section, c.id
            ));
            if c.verdict != Status::Verified || c.example.is_some() {
                out.push_str(&format!("\t{}\n", describe(&c.reason, lang)));
            }
            if let Some(s) = &c.suggestion {
                out.push_str(&format!("\t{}: {}\n", w.did_you_mean, s.tex));
            }
            for m in c.example.iter().flat_map(|e| &e.matrices) {
                out.push_str(&render_printed_matrix(m, &w));
            }
        }
        for c in &file.conditions {
            let path = if c.source == "spec" { spec_path.unwrap_or("spec") } else { file.listing.path.as_str() };
            out.push_str(&format!("{path}:{}:{}\t{}\t{}\t-\t-\t{}\n", c.line, c.col, c.section, w.condition, c.id));
            out.push_str(&format!("\t{}\n", describe(&c.reason, lang)));
        }
    }
    out.push_str(&render_summary(report, lang));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(refuted: usize, inconsistent: usize) -> CheckReport {
        let summary = CheckSummary { refuted, inconsistent, ..Default::default() };
        CheckReport { schema: JSON_SCHEMA, files: Vec::new(), summary, from_cache: 0, exact_workers: 0 }
    }

    #[test]
    fn refuted_and_inconsistent_claims_fail_the_run() {
        use crate::model::ExitStatus;
        assert_eq!(report(0, 0).exit_status(), ExitStatus::Clean);
        assert_eq!(report(1, 0).exit_status(), ExitStatus::Failed);
        assert_eq!(report(0, 1).exit_status(), ExitStatus::Failed, "an INCONSISTENT claim exits 1");
    }
}
