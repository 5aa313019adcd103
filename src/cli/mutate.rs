//! `derivcheck mutate PATH`: the self-test of every check (see `check::mutate`). Reads the notes
//! and spec as `check` does, mutates every verified claim and prints what became of the mutants,
//! as text or JSON. Exit 0 when every decided mutant that differs from its formula is killed,
//! 1 when one survived, 2 on bad input.

use super::{formats, read_notes, read_spec, write_stdout, Format, LangArg, EXIT_OK, EXIT_REFUTED, MUTATE_FORMATS};
use std::path::PathBuf;

#[derive(clap::Args, Debug)]
pub struct MutateArgs {
    /// A notes file, or a chapter folder (its `*.md`, `*.markdown` and `*.mdx` notes and its
    /// `checks.toml`).
    path: PathBuf,
    /// The derivation spec (default: `checks.toml` in the chapter folder).
    #[arg(long)]
    spec: Option<PathBuf>,
    #[arg(long, value_parser = formats(MUTATE_FORMATS), default_value = "text")]
    format: Format,
    #[arg(long, value_enum, default_value_t = LangArg::En)]
    lang: LangArg,
    /// Stop mutating after this many seconds (the claims not reached are left out).
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<u64>,
    /// Say on stderr which claim is being mutated.
    #[arg(short, long)]
    verbose: bool,
}

pub fn run(args: &MutateArgs) -> i32 {
    let lang = crate::report::Lang::from(args.lang);
    let docs = match read_notes(&args.path) {
        Ok(docs) => docs,
        Err(error) => return super::CheckFailure::Input { error, kind: "input" }.report(false, lang),
    };
    let spec_path = args.spec.clone().or_else(|| {
        let default = args.path.join("checks.toml");
        (args.path.is_dir() && default.is_file()).then_some(default)
    });
    let (spec, spec_text) = match &spec_path {
        None => (None, String::new()),
        Some(p) => match read_spec(p) {
            Ok((spec, text)) => (Some(spec), text),
            Err(failure) => return super::CheckFailure::from(failure).report(false, lang),
        },
    };
    let deadline = args.time_limit.map(|s| std::time::Instant::now() + std::time::Duration::from_secs(s));
    let verbose = args.verbose;
    let mutating = crate::report::words(lang).mutating;
    let progress = move |id: &str| {
        if verbose {
            eprintln!("{mutating} {id}");
        }
    };
    let claims = match crate::driver::mutate(&docs, spec.as_ref(), &spec_text, deadline, progress) {
        Ok(claims) => claims,
        Err(problems) => {
            let path = spec_path.as_ref().map(|p| p.display().to_string()).unwrap_or_default();
            return super::CheckFailure::Spec { path, text: spec_text, errors: problems }.report(false, lang);
        }
    };
    let text = match args.format {
        Format::Text => crate::report::mutation::render_text(&claims, lang),
        Format::Json => {
            serde_json::to_string_pretty(&crate::report::mutation::report(&claims)).unwrap_or_default() + "\n"
        }
        other => unreachable!("`mutate --format {other:?}` is refused: one of MUTATE_FORMATS"),
    };
    if let Err(code) = write_stdout(&text) {
        return code;
    }
    let survived = claims.iter().flat_map(|c| &c.mutants).any(|m| m.fate == crate::model::MutantFate::Survived);
    if survived {
        EXIT_REFUTED
    } else {
        EXIT_OK
    }
}
