//! What the grammar's own text names: the commands it knows and the symbol names spelled as
//! commands, read from `grammar/latex.pest` so no list here can drift from it.

use std::collections::HashSet;
use std::sync::LazyLock;

const GRAMMAR_TEXT: &str = include_str!("../../grammar/latex.pest");

/// A command is known when the grammar mentions it (so this list cannot drift from the grammar).
pub fn is_known_command(command: &str) -> bool {
    let needle = format!("\"\\\\{}", &command[1..]);
    GRAMMAR_TEXT.match_indices(&needle).any(|(i, _)| {
        let after = &GRAMMAR_TEXT[i + needle.len()..];
        !after.starts_with(|c: char| c.is_ascii_alphabetic())
    })
}

/// Whether a symbol name is spelled as a command (`ell`, `alpha`): read once from the grammar's
/// `greek`, `symbol_command` and `operator_symbol` rules, so it cannot drift from them.
pub fn is_greek_or_symbol_name(name: &str) -> bool {
    static NAMES: LazyLock<HashSet<String>> =
        LazyLock::new(|| names_in_rules(&["greek", "symbol_command", "operator_symbol"]));
    NAMES.contains(name)
}

/// Whether a symbol name is a Greek letter's (`theta`, `Theta`, `varepsilon`): the grammar's
/// `greek` rule.
pub fn is_greek_name(name: &str) -> bool {
    static NAMES: LazyLock<HashSet<String>> = LazyLock::new(|| names_in_rules(&["greek"]));
    NAMES.contains(name)
}

/// The command names the grammar's rules `rules` spell.
fn names_in_rules(rules: &[&str]) -> HashSet<String> {
    let mut names = HashSet::new();
    for rule in rules {
        let Some(start) = GRAMMAR_TEXT.find(&format!("\n{rule} = @{{")) else { continue };
        let body = &GRAMMAR_TEXT[start + 1..];
        let body = &body[..body.find("!ASCII_ALPHA").unwrap_or(body.len())];
        for piece in body.split("\"\\\\").skip(1) {
            let word: String = piece.chars().take_while(|c| c.is_ascii_alphabetic()).collect();
            if !word.is_empty() {
                names.insert(word);
            }
        }
    }
    names
}
