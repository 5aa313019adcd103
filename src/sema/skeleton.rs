//! `derivcheck init`: a starting spec written from the section plans.

use super::{Decl, Origin, SectionPlan};

/// A starting spec for notes checked without one (`derivcheck init`): per section, the shapes,
/// sizes and index letters read from the notes as entries that load as they are, and as comments
/// what the notes define and what is still unknown. Plain text; the caller writes the file.
pub fn spec_skeleton(notes: &str, plans: &[SectionPlan]) -> String {
    let mut out = format!(
        "# derivcheck spec for {notes}, started by `derivcheck init`: what the notes leave out.\n\
         # Sizes the notes name are tried at 2 and 3; change them here. Entries left as comments\n\
         # are what derivcheck could not read from the notes: fill in those you need.\n"
    );
    for plan in plans {
        let Ok(scope) = &plan.scope else { continue };
        out.push_str(&format!("\n[section.\"{}\"]\n", plan.number));
        if !plan.title.is_empty() {
            out.push_str(&format!("# {}\n", plan.title));
        }
        if !scope.sizes.is_empty() {
            let sizes: Vec<String> = scope
                .sizes
                .iter()
                .map(|(k, v)| {
                    format!("{} = [{}]", toml_key(k), v.iter().map(i64::to_string).collect::<Vec<_>>().join(", "))
                })
                .collect();
            out.push_str(&format!("sizes = {{ {} }}\n", sizes.join(", ")));
        }
        let mut shapes: Vec<String> = scope
            .decls
            .iter()
            .filter_map(|(k, d)| match d {
                Decl::Matrix { rows, cols } => Some(format!("{} = [\"{rows}\", \"{cols}\"]", toml_key(k))),
                _ => None,
            })
            .collect();
        shapes.sort();
        if !shapes.is_empty() {
            out.push_str(&format!("# shapes the notes declare: {}\n", shapes.join(", ")));
        }
        let mut defined: Vec<&str> =
            scope.defs.values().filter(|d| d.from_notes && !d.inherited).map(|d| d.key.as_str()).collect();
        defined.sort();
        defined.dedup();
        if !defined.is_empty() {
            out.push_str(&format!("# defined in the notes: {}\n", defined.join(", ")));
        }
        let mut unknown: Vec<&String> = scope.usage.matrix_like.iter().filter(|k| !scope.knows(k)).collect();
        unknown.sort();
        if !unknown.is_empty() {
            let entries: Vec<String> = unknown.iter().map(|k| format!("{} = [\"?\", \"?\"]", toml_key(k))).collect();
            out.push_str("# used as vectors or matrices, with no shape in the notes: give their shapes\n");
            out.push_str(&format!("# matrix = {{ {} }}\n", entries.join(", ")));
        }
        let mut letters: Vec<&String> =
            scope.decls.iter().filter(|(_, d)| matches!(d, Decl::Index { .. })).map(|(k, _)| k).collect();
        letters.sort();
        if !letters.is_empty() {
            let names: Vec<&str> = letters.iter().map(|k| k.as_str()).collect();
            out.push_str(&format!("# index letters of sums, their range read off shapes: {}\n", names.join(", ")));
        }
        let mut open: Vec<String> = plan
            .claims
            .iter()
            .filter_map(|c| {
                let (Origin::Notes { line, .. }, Some(other)) = (&c.origin, &c.reading.alternative) else {
                    return None;
                };
                let choice = match (other.role, &other.symbol) {
                    (super::claim::WordsRole::Condition, _) => "a claim, or a condition".to_string(),
                    (_, Some(symbol)) => format!("`{symbol}` as before, or a new `{symbol}`"),
                    _ => "a claim, or another reading".to_string(),
                };
                let tex = c.tex.split_whitespace().collect::<Vec<_>>().join(" ");
                let short: String = tex.chars().take(70).collect();
                let more = if short.len() < tex.len() { "…" } else { "" };
                Some(format!("#   line {line}: `{short}{more}` ({choice})\n"))
            })
            .collect();
        open.dedup();
        if !open.is_empty() {
            out.push_str(
                "# the text leaves open what these are for; a mark just before the formula in the notes settles it:\n\
                 # <!-- derivcheck: claim --> (or binding, condition, skip, wrong)\n",
            );
            open.iter().for_each(|line| out.push_str(line));
        }
        out.push_str("# loss = 'L'          # for bars: \\bar Y is dL/dY\n");
        out.push_str("# positive = ['x']    # symbols that are positive (branch identities then hold)\n");
        out.push_str("# assume = ['\\sum_{j=1}^q y_j = 1']  # what the prose assumes (a one-hot label)\n");
    }
    out
}

/// A TOML key for a TeX name: bare when it is a plain word, quoted as a literal string otherwise.
fn toml_key(tex: &str) -> String {
    if tex.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        tex.to_string()
    } else {
        format!("'{tex}'")
    }
}
