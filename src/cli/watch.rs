//! `derivcheck check --watch PATH`: checks, then re-checks whenever a notes or spec file under
//! PATH changes (notify, debounced), printing only what changed since the last run — newly
//! refuted, newly verified, newly undecided claims — and the summary. The verdict cache makes a
//! one-formula edit quick: only the claims it touches are checked again.

use super::{check_path, CheckArgs, EXIT_BAD_INPUT};
use crate::model::Status;
use crate::report::diagnostic::{of_changes, render_line, Change, Severity};
use notify_debouncer_mini::{new_debouncer, notify::RecursiveMode, DebounceEventResult};
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Claim (file and id) -> its verdict and where it is written (line, column).
type Snapshot = BTreeMap<(String, String), (Status, (usize, usize))>;

pub fn run_watch(args: &CheckArgs) -> i32 {
    let lang = crate::report::Lang::from(args.lang);
    let w = crate::report::words(lang);
    let root = if args.path.is_dir() { args.path.clone() } else { parent_of(&args.path) };
    let (sender, events) = std::sync::mpsc::channel::<DebounceEventResult>();
    let mut debouncer = match new_debouncer(Duration::from_millis(300), sender) {
        Ok(d) => d,
        Err(e) => {
            super::say(Severity::Error, &format!("{} {}: {e}", w.cannot_watch, root.display()), lang);
            return EXIT_BAD_INPUT;
        }
    };
    if let Err(e) = debouncer.watcher().watch(&root, RecursiveMode::Recursive) {
        super::say(Severity::Error, &format!("{} {}: {e}", w.cannot_watch, root.display()), lang);
        return EXIT_BAD_INPUT;
    }
    let mut last = check_once(args, &Snapshot::new());
    say(&format!("{} {} {}\n", w.watching, args.path.display(), w.for_changes));
    for batch in events {
        let Ok(batch) = batch else { continue };
        if batch.iter().any(|e| relevant(&e.path, args)) {
            last = check_once(args, &last);
        }
    }
    EXIT_OK_WHEN_STOPPED
}

/// Watching ends only when the watcher does; that is not a failure.
const EXIT_OK_WHEN_STOPPED: i32 = super::EXIT_OK;

fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// A notes or spec file (not the cache's own files, nor editors' temporary files).
fn relevant(path: &Path, args: &CheckArgs) -> bool {
    let hidden = path.file_name().is_some_and(|n| n.to_string_lossy().starts_with('.'));
    let in_cache = path.components().any(|c| c.as_os_str() == "derivcheck-cache");
    let kind = crate::notes::is_notes_path(path) || path.extension().is_some_and(|x| x == "toml");
    let is_spec = args.spec.as_ref().is_some_and(|s| path.ends_with(s));
    !hidden && !in_cache && (kind || is_spec)
}

fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes());
    let _ = out.flush();
}

/// One run: what changed since `before`, and the summary line; gives the new snapshot.
fn check_once(args: &CheckArgs, before: &Snapshot) -> Snapshot {
    let checked = match check_path(&args.path, args.spec.as_ref(), super::check_options(args)) {
        Ok(checked) => checked,
        Err(failure) => {
            failure.report(false, crate::report::Lang::from(args.lang));
            return before.clone();
        }
    };
    let mut now = Snapshot::new();
    for file in &checked.report.files {
        for c in &file.claims {
            now.insert((file.listing.path.clone(), c.id.clone()), (c.verdict, (c.line, c.col)));
        }
    }
    let lang = crate::report::Lang::from(args.lang);
    let claims = || checked.report.files.iter().flat_map(|f| f.claims.iter().map(move |c| (f, c)));
    let mut changes: Vec<Change> = Vec::new();
    for (file, c) in claims() {
        if before.get(&(file.listing.path.clone(), c.id.clone())).map(|(s, _)| *s) != Some(c.verdict) {
            let now = Some((c.verdict, &c.reason));
            changes.push(Change { file: &file.listing.path, line: c.line, col: c.col, id: &c.id, now });
        }
    }
    for ((file, id), (_, (line, col))) in before.iter().filter(|(k, _)| !now.contains_key(k)) {
        changes.push(Change { file, line: *line, col: *col, id, now: None });
    }
    let mut text: String = of_changes(&changes, lang).iter().map(|d| render_line(d, lang) + "\n").collect();
    text.push_str(&crate::report::render_summary(&checked.report, lang));
    say(&text);
    now
}
