//! Stage 2 — `syntax`: one formula's TeX in, an [`ast::Statement`] out (or a [`SyntaxError`]).
//!
//! Takes: the TeX between the math delimiters. Gives: relation chains of expressions, every node
//! with its byte span in that TeX. Knows nothing of Markdown, symbols' meanings, Symbolica,
//! ndarray or Tera; never panics, never does I/O.

pub mod ast;
mod error;
mod grammar_names;
mod operators;
mod parser;
pub mod pattern;
mod pieces;
pub mod print;
mod separators;

use ast::Expr;
pub use error::{Expected, SyntaxError, SyntaxErrorKind};
pub use grammar_names::{is_greek_name, is_greek_or_symbol_name, is_known_command};
pub use parser::{parse_formula, parse_formula_within, MAX_FORMULA_BYTES, MAX_NESTING};
pub use pieces::parse_pieces;

/// The first side of a formula's first chain (`a` of `a = b`), for the tests of every stage.
#[cfg(test)]
pub(crate) fn first_side(tex: &str) -> ast::Expr {
    parse_formula(tex).unwrap().chains[0].first.clone().unwrap()
}

/// `W_Q` -> `W_Q`, `\sigma` -> `\sigma`, `\bar R` -> `\bar{R}`: the key the notes' symbols get.
pub fn canonical_key(tex: &str) -> Result<String, String> {
    let statement = parse_formula(tex).map_err(|e| format!("`{tex}` is not a symbol: {e}"))?;
    let chain = statement.chains.first().filter(|c| statement.chains.len() == 1 && c.links.is_empty());
    chain
        .and_then(|c| c.first.as_ref())
        .and_then(Expr::symbol_key)
        .ok_or_else(|| format!("`{tex}` is not a symbol name"))
}
