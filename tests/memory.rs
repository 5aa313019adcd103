//! Peak memory of a whole check (a target, not a timing): the seed chapter stays under 200 MB.
//! Alone in its test binary, so the peak resident set of this process's children is that check's.

mod common;
use common::*;

#[test]
fn checking_the_seed_stays_under_200_mb() {
    let target = seed_path().map(|p| p.to_str().unwrap().to_string()).unwrap_or("derivations/ch15".into());
    let out = run(&["check", &target, "--spec", SPEC, "--no-cache"]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let peak = children_peak_rss();
    assert!(peak < 200 << 20, "peak resident set {} MB", peak >> 20);
}
