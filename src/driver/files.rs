//! The files derivcheck writes, each atomically: [`write_atomically`] (the user's outputs, which
//! `cli` asks for) and the verdict cache on disk ([`FileCache`]) under `target/derivcheck-cache/`
//! (or `--cache DIR`), safe to delete: packs of entries, one JSON file a run, read all at once on
//! the first lookup. A pack that does not parse is ignored (and removed by the next run that
//! writes), and an entry is trusted only under its own key.

use crate::check::{Verdict, VerdictCache};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

pub const DEFAULT_DIR: &str = "target/derivcheck-cache";

/// How many packs the cache keeps before a run that writes merges them into one.
const MOST_PACKS: usize = 8;

/// The verdict cache on disk. Lookups read every pack of the directory once; what a run adds is
/// held in memory and written as one pack by [`VerdictCache::flush`] (before: one file per
/// claim, whose creation cost more than a cold run's checking on a book of 500 claims).
pub struct FileCache {
    dir: PathBuf,
    state: Mutex<Option<Packs>>,
}

/// What the cache directory holds, once read, and what this run added since its last flush.
#[derive(Default)]
struct Packs {
    entries: HashMap<String, Verdict>,
    /// The pack files read (merged away when there are too many).
    files: Vec<PathBuf>,
    /// Files that do not parse as a pack: removed by the next flush.
    unreadable: Vec<PathBuf>,
    added: Vec<Entry>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Entry {
    key: String,
    verdict: Verdict,
}

impl FileCache {
    pub fn new(dir: PathBuf) -> FileCache {
        FileCache { dir, state: Mutex::new(None) }
    }

    /// Every pack of the directory (files `*.pack.json`), read.
    fn read_packs(&self) -> Packs {
        let mut packs = Packs::default();
        let Ok(listing) = std::fs::read_dir(&self.dir) else { return packs };
        let mut files: Vec<PathBuf> = listing
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".pack.json")))
            .collect();
        // Oldest first (the names start with the time written): a newer entry wins.
        files.sort();
        for file in files {
            let read: Option<Vec<Entry>> =
                std::fs::read_to_string(&file).ok().and_then(|text| serde_json::from_str(&text).ok());
            match read {
                Some(entries) => {
                    packs.entries.extend(entries.into_iter().map(|e| (e.key, e.verdict)));
                    packs.files.push(file);
                }
                None => packs.unreadable.push(file),
            }
        }
        packs
    }

    fn with_packs<T>(&self, work: impl FnOnce(&mut Packs) -> T) -> T {
        let mut state = self.state.lock().unwrap_or_else(|p| p.into_inner());
        work(state.get_or_insert_with(|| self.read_packs()))
    }
}

impl VerdictCache for FileCache {
    fn get(&self, key: &str) -> Option<Verdict> {
        self.with_packs(|packs| packs.entries.get(key).cloned())
    }

    fn put(&self, key: &str, verdict: &Verdict) {
        self.with_packs(|packs| {
            // (A key already held, from a pack or from another file of this run, is not
            // written again.)
            if packs.entries.insert(key.to_string(), verdict.clone()).is_none() {
                packs.added.push(Entry { key: key.to_string(), verdict: verdict.clone() });
            }
        });
    }

    /// Writes what this run added as one pack, atomically (a reader never sees half a pack, and
    /// two runs write two packs). With more than [`MOST_PACKS`] packs, writes every entry as one
    /// and removes the packs it merged. Failures are ignored: the cache only saves time.
    fn flush(&self) {
        self.with_packs(|packs| {
            if packs.added.is_empty() {
                return;
            }
            let merge = packs.files.len() + 1 > MOST_PACKS;
            let added = std::mem::take(&mut packs.added);
            let entries: Vec<Entry> = if merge {
                packs
                    .entries
                    .iter()
                    .map(|(key, verdict)| Entry { key: key.clone(), verdict: verdict.clone() })
                    .collect()
            } else {
                added
            };
            let Ok(text) = serde_json::to_string(&entries) else { return };
            let written = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos())
                .unwrap_or_default();
            let name = format!("{written:032}-{}.pack.json", std::process::id());
            let pack = self.dir.join(name);
            if std::fs::create_dir_all(&self.dir).is_err() || write_atomically(&pack, &text).is_err() {
                return;
            }
            let stale = if merge { std::mem::take(&mut packs.files) } else { Vec::new() };
            for file in stale.iter().chain(&packs.unreadable) {
                let _ = std::fs::remove_file(file);
            }
            packs.unreadable.clear();
            packs.files.push(pack);
        });
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
    fn a_run_writes_one_pack_and_a_corrupted_pack_is_ignored_and_removed() {
        let dir = std::env::temp_dir().join(format!("derivcheck-cache-test-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let verdict =
            Verdict::new(Status::Verified, None, "n = 2".into(), Reason::Checked { assignments: 1, rounded: false });
        let packs = || -> Vec<PathBuf> { std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect() };
        let cache = FileCache::new(dir.clone());
        let (one, two) = ("ab".repeat(32), "cd".repeat(32));
        assert!(cache.get(&one).is_none());
        cache.put(&one, &verdict);
        cache.put(&two, &verdict);
        assert_eq!(cache.get(&one).map(|v| v.status), Some(Status::Verified), "held before the flush");
        cache.flush();
        assert_eq!(packs().len(), 1, "one pack for the run");
        // A second run reads it.
        let again = FileCache::new(dir.clone());
        assert!(again.get(&one).is_some() && again.get(&two).is_some());
        assert!(again.get("../../etc/passwd").is_none());
        again.flush();
        assert_eq!(packs().len(), 1, "a run that adds nothing writes nothing");
        // A truncated pack is not trusted, and the next run that writes removes it.
        let pack = packs().remove(0);
        let text = std::fs::read_to_string(&pack).unwrap();
        std::fs::write(&pack, &text[..text.len() / 2]).unwrap();
        let third = FileCache::new(dir.clone());
        assert!(third.get(&one).is_none(), "nothing trusted from a truncated pack");
        third.put(&one, &verdict);
        third.flush();
        assert_eq!(packs().len(), 1, "the truncated pack removed, the new one written");
        assert!(FileCache::new(dir.clone()).get(&one).is_some() && FileCache::new(dir.clone()).get(&two).is_none());
        // Past MOST_PACKS packs, a run merges them into one.
        for n in 0..MOST_PACKS + 1 {
            let run = FileCache::new(dir.clone());
            run.put(&format!("{n:064}"), &verdict);
            run.flush();
        }
        assert!(packs().len() <= MOST_PACKS, "{} packs", packs().len());
        let last = FileCache::new(dir.clone());
        assert!((0..MOST_PACKS + 1).all(|n| last.get(&format!("{n:064}")).is_some()) && last.get(&one).is_some());
        let _ = std::fs::remove_dir_all(dir);
    }
}
