//! The files derivcheck writes, each atomically: [`write_atomically`] (the user's outputs, which
//! `cli` asks for) and the verdict cache on disk ([`FileCache`]): one small JSON file per claim
//! key under `target/derivcheck-cache/` (or `--cache DIR`), safe to delete. A cache file that does
//! not parse or holds another key (truncated, corrupted, from another version) is ignored and
//! rewritten.

use crate::check::{Verdict, VerdictCache};
use std::path::{Path, PathBuf};

pub const DEFAULT_DIR: &str = "target/derivcheck-cache";

pub struct FileCache {
    dir: PathBuf,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    key: String,
    verdict: Verdict,
}

impl FileCache {
    pub fn new(dir: PathBuf) -> FileCache {
        FileCache { dir }
    }

    fn path(&self, key: &str) -> Option<PathBuf> {
        let valid = key.len() == 64 && key.chars().all(|c| c.is_ascii_hexdigit());
        valid.then(|| self.dir.join(&key[..2]).join(format!("{key}.json")))
    }
}

impl VerdictCache for FileCache {
    fn get(&self, key: &str) -> Option<Verdict> {
        let text = std::fs::read_to_string(self.path(key)?).ok()?;
        let entry: Entry = serde_json::from_str(&text).ok()?;
        (entry.key == key).then_some(entry.verdict)
    }

    /// Written atomically: a reader never sees half an entry, and two processes writing the
    /// same entry do not collide. Failures are ignored (the cache only saves time).
    fn put(&self, key: &str, verdict: &Verdict) {
        let Some(path) = self.path(key) else { return };
        let Ok(text) = serde_json::to_string(&Entry { key: key.to_string(), verdict: verdict.clone() }) else { return };
        if path.parent().is_some_and(|dir| std::fs::create_dir_all(dir).is_ok()) {
            let _ = write_atomically(&path, &text);
        }
    }
}

/// Writes beside the target, then renames: a reader never sees half a file.
/// The temporary name is the writer's own (process and thread), so two writers of the same file
/// never share one.
pub fn write_atomically(target: &Path, text: &str) -> std::io::Result<()> {
    let name = target.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let thread = format!("{:?}", std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let partial = target.with_file_name(format!(".{name}.{}.{thread}.partial", std::process::id()));
    std::fs::write(&partial, text).and_then(|_| std::fs::rename(&partial, target)).inspect_err(|_| {
        let _ = std::fs::remove_file(&partial);
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Reason, Status};

    #[test]
    fn corrupted_or_foreign_entries_are_ignored_and_rewritten() {
        let dir = std::env::temp_dir().join(format!("derivcheck-cache-test-{}", std::process::id()));
        let cache = FileCache::new(dir.clone());
        let key = "ab".repeat(32);
        let verdict =
            Verdict::new(Status::Verified, None, "n = 2".into(), Reason::Checked { assignments: 1, rounded: false });
        assert!(cache.get(&key).is_none());
        cache.put(&key, &verdict);
        assert_eq!(cache.get(&key).map(|v| v.status), Some(Status::Verified));
        let path = cache.path(&key).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() / 2]).unwrap();
        assert!(cache.get(&key).is_none(), "a truncated entry is not trusted");
        std::fs::write(&path, text.replace(&key, &"cd".repeat(32))).unwrap();
        assert!(cache.get(&key).is_none(), "an entry for another key is not trusted");
        cache.put(&key, &verdict);
        assert!(cache.get(&key).is_some(), "rewritten");
        assert!(cache.get("../../etc/passwd").is_none());
        let _ = std::fs::remove_dir_all(dir);
    }
}
