//! Small documents planned for the passes' unit tests (test builds only).

use crate::listing::ParsedDocument;
use crate::notes::Document;
use crate::sema::{plan, Claim, SectionPlan};

/// The plans of a small document's sections, without a spec.
pub(super) fn plans(text: &str) -> Vec<SectionPlan> {
    let doc = Document::parse("t.md", text.to_string());
    plan(&ParsedDocument::parse(&doc), None, "", false)
}

/// The claims of a one-section document (a heading is added).
pub(super) fn claims(body: &str) -> Vec<Claim> {
    plans(&format!("## 1 S\n\n{body}\n")).into_iter().flat_map(|p| p.claims).collect()
}

/// The claim of a one-section document whose TeX is `tex`.
pub(super) fn claim(body: &str, tex: &str) -> Claim {
    let all = claims(body);
    let texts: Vec<String> = all.iter().map(|c| c.tex.clone()).collect();
    all.into_iter().find(|c| c.tex.trim() == tex).unwrap_or_else(|| panic!("no claim `{tex}` among {texts:?}"))
}
