//! Peak memory of a whole check (a target, not a timing): the seed chapter stays under 200 MB.
//! Alone in its test binary, so the peak resident set of this process's children is that check's.
//! Without `../shared/` it skips (failing under `CI=true`): the shipped chapter is not the seed,
//! and a figure measured on it would not be the one README states.

mod common;
use common::*;

#[test]
fn checking_the_seed_stays_under_200_mb() {
    let Some(seed) = seed_path() else { return };
    let out = run(&["check", seed.to_str().unwrap(), "--spec", SPEC, "--no-cache"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let peak = children_peak_rss();
    assert!(peak < 200 << 20, "peak resident set {} MB", peak >> 20);
}
