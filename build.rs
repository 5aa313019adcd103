//! Build script: a hash of the sources (src/, grammar/, templates/), so that the verdict cache
//! never serves a verdict computed by different code (`check::cache` puts it in every key).

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, out);
        } else {
            out.push(path);
        }
    }
}

fn main() {
    let mut all = Vec::new();
    for dir in ["src", "grammar", "templates"] {
        println!("cargo:rerun-if-changed={dir}");
        files(Path::new(dir), &mut all);
    }
    all.sort();
    // FNV-1a, 64 bits, over each path and its contents.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for path in &all {
        let bytes = std::fs::read(path).unwrap_or_default();
        for b in path.to_string_lossy().as_bytes().iter().chain(&bytes) {
            hash ^= u64::from(*b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    println!("cargo:rustc-env=DERIVCHECK_SOURCE_HASH={hash:016x}");
}
