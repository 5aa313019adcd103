//! derivcheck: proves or refutes the mathematics in lecture notes.
//!
//! The pipeline, one module per stage, data flowing one way:
//!
//! ```text
//! notes → syntax → (listing, spec) → sema → eval → (cas | numeric) → check → report → driver → cli
//! ```
//!
//! `model` (results) and `notation` (the notation table) are plain data under all of them;
//! `tests/tidy.rs` keeps every import pointing down the pipeline.
//!
//! Only [`cli`] reads files and writes output; [`driver`] runs the pipeline and keeps the
//! verdict cache's files; every other stage is pure.

pub mod cas;
pub mod check;
pub mod cli;
pub mod driver;
pub mod eval;
pub mod listing;
pub mod model;
pub mod modular;
pub mod notation;
pub mod notes;
pub mod numeric;
pub mod report;
pub mod sema;
pub mod spec;
pub mod syntax;
