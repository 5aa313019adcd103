//! The verdict cache's contract: a key of everything that decides a claim's verdict, and the
//! store the CLI provides (this stage does no I/O). A changed definition upstream changes the
//! key of every claim that uses it, so a cached verdict is never stale.

use super::Verdict;
use crate::sema::{Claim, Scope};
use crate::syntax::print;
use sha2::Digest;

/// Raised whenever what a key covers changes.
const CACHE_SCHEMA: u32 = 7;

/// Verdicts of earlier runs, by [`fingerprint`].
pub trait VerdictCache: Send + Sync {
    fn get(&self, key: &str) -> Option<Verdict>;
    fn put(&self, key: &str, verdict: &Verdict);
    /// Stores what `put` gave since the last flush, where the store holds it back (called at the
    /// end of each check run).
    fn flush(&self) {}
}

/// A hex SHA-256 of the derivcheck version (and its sources' hash) and everything the verdict of `claim` depends on: the
/// claim (its sides, conditions, id and kind), the section's sizes, assumptions and options, and
/// for every symbol it reaches (through definitions, and the loss) its declaration, definition
/// and how the notes use it.
pub fn fingerprint(scope: &Scope, claim: &Claim) -> String {
    // The sources' hash (build.rs): code that changed may decide differently.
    let mut text =
        format!("derivcheck {} {} cache {CACHE_SCHEMA}\n", env!("CARGO_PKG_VERSION"), env!("DERIVCHECK_SOURCE_HASH"));
    text.push_str(&format!(
        "claim {} {} {:?} {} {} {}\n{}\n{}\n",
        claim.id,
        claim.section,
        claim.kind,
        claim.holds,
        claim.variant,
        claim.approx,
        print::expr(&claim.lhs),
        print::expr(&claim.rhs)
    ));
    // What the words make of it: marked a claim, letters they call numbers, independence.
    text.push_str(&format!(
        "reading marked {} named {:?} independence {:?}\n",
        claim.reading.marked,
        // (Every field of what the words name, whole: a field added later is covered too.)
        claim.reading.named,
        claim.reading.independence
    ));
    for condition in &claim.conditions {
        text.push_str(&format!("when {}\n", print::chain(condition)));
    }
    let mut positive = scope.positive.clone();
    positive.sort();
    text.push_str(&format!(
        "sizes {:?}\ncrosscheck {:?}\nloss {:?}\nvary {:?}\npositive {:?}\n",
        scope.sizes, scope.crosscheck, scope.loss, scope.vary, positive
    ));
    for assumption in &scope.assumptions {
        text.push_str(&format!("assume {}\n", assumption.tex));
    }
    // A worked example's numbers: a link that combines given probabilities is redone with them.
    for given in &scope.given_values {
        text.push_str(&format!(
            "given {} = {} at {} in {:?}\n",
            print::expr(&given.term),
            given.written,
            given.line,
            given.formula
        ));
    }
    for key in crate::eval::dependencies(scope, claim) {
        text.push_str(&format!(
            "key {key} decl {:?} value {} matrix {} unknown function {}\n",
            scope.decls.get(&key),
            scope.usage.values.contains(&key),
            scope.usage.matrix_like.contains(&key),
            scope.usage.unknown_functions.contains(&key)
        ));
        if let Some(def) = scope.defs.get(&key) {
            text.push_str(&format!("def {:?} {} {}\n", def.params, def.function, print::expr(&def.body)));
        }
    }
    sha2::Sha256::digest(text.as_bytes()).iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sema::scope::Definition;
    use crate::syntax::parse_formula;

    fn claim(tex: &str) -> Claim {
        let chain = parse_formula(tex).unwrap().chains.remove(0);
        let origin = crate::sema::Origin::Spec { name: "t".into(), line: 1, col: 1 };
        Claim::for_tests("1#1", origin, tex, chain.first.clone().unwrap(), chain.links[0].rhs.clone())
    }

    fn scope(defs: &[(&str, &str)]) -> Scope {
        let defs = defs
            .iter()
            .map(|(key, body)| {
                Definition::value(
                    key.to_string(),
                    parse_formula(body).unwrap().chains.remove(0).first.unwrap(),
                    String::new(),
                )
            })
            .collect();
        Scope::new("1", &Default::default(), defs).unwrap()
    }

    #[test]
    fn a_changed_definition_changes_exactly_the_keys_that_use_it() {
        let before = scope(&[("u", "x^2"), ("v", "y+1")]);
        let after = scope(&[("u", "x^3"), ("v", "y+1")]);
        let uses_u = claim("u=x^2");
        let uses_v = claim("v=1+y");
        assert_ne!(fingerprint(&before, &uses_u), fingerprint(&after, &uses_u));
        assert_eq!(fingerprint(&before, &uses_v), fingerprint(&after, &uses_v));
        assert_eq!(fingerprint(&before, &uses_v), fingerprint(&before, &uses_v), "stable");
    }

    #[test]
    fn what_the_words_name_is_in_the_key() {
        let scope = scope(&[]);
        let plain = claim("f(z)=z");
        let mut named = plain.clone();
        named.reading.named.function = Some(crate::sema::roles::NamedFunction::Sigmoid);
        assert_ne!(fingerprint(&scope, &plain), fingerprint(&scope, &named));
        let mut small = plain.clone();
        small.reading.named.small = Some("z".into());
        assert_ne!(fingerprint(&scope, &plain), fingerprint(&scope, &small));
    }

    #[test]
    fn a_changed_given_value_changes_the_key() {
        let before = scope(&[]);
        let mut after = scope(&[]);
        after.given_values.push(crate::sema::scope::GivenValue {
            term: parse_formula("P(H=1)").unwrap().chains.remove(0).first.unwrap(),
            value: 0.02,
            written: "0.02".into(),
            line: 3,
            formula: Some("1#1".into()),
        });
        let worked = claim("P(H=1) + P(H=1) = 0.04");
        assert_ne!(fingerprint(&before, &worked), fingerprint(&after, &worked));
    }
}
