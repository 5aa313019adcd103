//! What an editor shows over a checked formula (the language server's hover): each claim of the
//! formula with its verdict, how derivcheck read it, why, and for a refuted one the
//! counterexample and the verified repair. Markdown, every word from the zh/en tables.

use super::words::appendix_words;
use super::{describe, words, ClaimEntry, Lang};
use crate::model::Status;

/// The hover text of a formula's claims (empty for none).
pub fn hover_markdown(claims: &[&ClaimEntry], lang: Lang) -> String {
    let (w, labels) = (appendix_words(lang), words(lang));
    let mut out: Vec<String> = Vec::new();
    for c in claims {
        let (mark, word) = match c.verdict {
            Status::Verified => ("✓", w.verified),
            Status::Refuted => ("✗", w.refuted),
            Status::Undecided => ("?", w.undecided),
        };
        let mut head = format!("**{mark} {word}** `{}`", c.id);
        if c.method.is_some() {
            head.push_str(&format!(" · {}: {}", w.method, labels.method(c.method, c.error_bound_log2)));
        }
        if !c.sizes.is_empty() {
            head.push_str(&format!(" · {}: {}", w.sizes, c.sizes));
        }
        let mut lines = vec![head, format!("{}: `{}`", w.understood, c.understood)];
        if c.verdict != Status::Verified || c.example.is_some() {
            lines.push(format!("{}: {}", w.reason, describe(&c.reason, lang)));
        }
        if let Some(point) = c.counterexample.as_ref().and_then(|x| x.mismatch.as_ref()) {
            let at: Vec<String> = point.point.iter().map(|(k, v)| format!("{k} = {v:.4}")).collect();
            let mut said = format!("{}: {} {:.6}, {} {:.6}", w.counterexample, w.left, point.lhs, w.right, point.rhs);
            if !at.is_empty() {
                said.push_str(&format!(" ({} {})", w.at_point, at.join(", ")));
            }
            lines.push(said);
        }
        if let Some(s) = &c.suggestion {
            lines.push(format!("{}: `{}`", w.did_you_mean, s.tex));
        }
        out.push(lines.join("  \n"));
    }
    out.join("\n\n---\n\n")
}
