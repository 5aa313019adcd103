//! derivcheck: proves or refutes the mathematics in lecture notes.
//!
//! The pipeline, one module per stage, data flowing one way:
//!
//! ```text
//! notes (Markdown) --notes--> Document { sections, formulas with positions }
//! formula TeX      --syntax-> ast::Statement (spans on every node; never panics)
//! ```
//!
//! Only [`cli`] does I/O (reading files, writing output); every other stage is pure.

pub mod cas;
pub mod check;
pub mod cli;
pub mod eval;
pub mod listing;
pub mod notation;
pub mod notes;
pub mod numeric;
pub mod report;
pub mod sema;
pub mod spec;
pub mod syntax;
