//! Stage 2 — `syntax`: one formula's TeX in, an [`ast::Statement`] out (or a [`SyntaxError`]).
//!
//! Takes: the TeX between the math delimiters. Gives: relation chains of expressions, every node
//! with its byte span in that TeX. Knows nothing of Markdown, symbols' meanings, Symbolica,
//! ndarray or Tera; never panics, never does I/O.

pub mod ast;
mod error;
mod parser;
pub mod print;

pub use error::{SyntaxError, SyntaxErrorKind};
pub use parser::{is_greek_or_symbol_name, is_known_command, parse_formula, MAX_FORMULA_BYTES, MAX_NESTING};
