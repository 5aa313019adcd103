//! The self-test's report (`derivcheck mutate`): per section how many mutants were killed,
//! survived, equivalent or undecided, every survivor with its verdict, the slowest mutant; as
//! text (zh/en) or JSON. Reads only the result model.

use super::{words, Lang};
use crate::model::{ClaimMutants, MutantFate, Tally};
use serde::Serialize;
use std::collections::BTreeMap;

impl Tally {
    fn add(&mut self, claims: &[&ClaimMutants]) {
        for m in claims.iter().flat_map(|c| &c.mutants) {
            self.mutants += 1;
            match m.fate {
                MutantFate::Killed => self.killed += 1,
                MutantFate::Survived => self.survived += 1,
                MutantFate::Equivalent => self.equivalent += 1,
                MutantFate::IllFormed => self.ill_formed += 1,
                MutantFate::Undecided => self.undecided += 1,
            }
            self.slowest_ms = self.slowest_ms.max(m.elapsed_ms);
        }
        let counted = self.killed + self.survived + self.undecided;
        self.killed_percent = if counted == 0 { 100.0 } else { 100.0 * self.killed as f64 / counted as f64 };
    }
}

/// The JSON report: every claim's mutants, per-section tallies and the total.
#[derive(Debug, Serialize)]
pub struct MutationReport<'a> {
    pub schema: u32,
    pub claims: &'a [ClaimMutants],
    pub sections: BTreeMap<String, Tally>,
    pub total: Tally,
}

pub fn report(claims: &[ClaimMutants]) -> MutationReport<'_> {
    let mut by_section: BTreeMap<String, Vec<&ClaimMutants>> = BTreeMap::new();
    for c in claims {
        by_section.entry(c.section.clone()).or_default().push(c);
    }
    let sections = by_section
        .iter()
        .map(|(s, cs)| {
            let mut t = Tally::default();
            t.add(cs);
            (s.clone(), t)
        })
        .collect();
    let mut total = Tally::default();
    total.add(&claims.iter().collect::<Vec<_>>());
    MutationReport { schema: super::JSON_SCHEMA, claims, sections, total }
}

/// Text: a line per section, then every survivor and undecided mutant (file:line, the edit, the
/// mutant, why), then the total.
pub fn render_text(claims: &[ClaimMutants], lang: Lang) -> String {
    let r = report(claims);
    let mut out = String::new();
    for (section, t) in &r.sections {
        out.push_str(&words::mutation_tally(section, t, lang));
    }
    for c in claims {
        for m in c.mutants.iter().filter(|m| matches!(m.fate, MutantFate::Survived | MutantFate::Undecided)) {
            let why = match &m.reason {
                Some(reason) if m.fate == MutantFate::Survived => words::survivor_why(reason, lang),
                Some(reason) => super::describe(reason, lang),
                None => format!("{}, {}", words::words(lang).method(m.method, None), m.sizes),
            };
            out.push_str(&format!(
                "{}:{}\t{}\t{}\t{}\t{why}\n",
                c.file,
                c.line,
                words::fate_name(m.fate, lang),
                words::edit_name(m.edit, lang),
                m.tex
            ));
        }
    }
    out.push_str(&words::mutation_tally(words::total_name(lang), &r.total, lang));
    out
}
