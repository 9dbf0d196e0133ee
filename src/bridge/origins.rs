//! Where a memory entry came from, without git blame on the hook path: a private index of
//! which commit brought each entry's text (by the entry's digest, `provenance::digest`),
//! kept current from the memory folder's history (`origins_update`): the commits since the
//! last ones indexed, oldest first, each read once. A session start looks entries up in it
//! (a binary search that reads the lines it needs, not the file); it never walks history.
//!
//! **Where**: per user, beside the integrity verdict cache:
//! `$XDG_CACHE_HOME/baton/integrity/<key>.origins.idx` (the key is the folder's, as the
//! cache's). It is derived data: deleted, it is built again.
//!
//! **Format** (text, so it can be read with `less`):
//!
//! ```text
//! baton-origins 1
//! folder .rune
//! tips <commit id> …            the commits whose history is indexed
//! commits N
//! <id>\t<committer email>\t<author>      N lines, numbered from 0
//! entries M
//! <entry digest> <commit number, 8 hex digits>   M lines of 50 bytes, sorted
//! ```

use super::scan_cache;
use crate::core::ctx::Env;
use crate::core::fsx;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const MAGIC: &str = "baton-origins 1";
/// One entry line: 40 hex digits, a space, 8 hex digits, a newline.
const LINE: usize = 50;

/// Who committed an entry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Origin {
    /// The commit (7 hex digits).
    pub(crate) commit: String,
    /// `Name <email>` of its author.
    pub(crate) author: String,
    /// Its committer's email (the identity a team's trusted list names).
    pub(crate) committer_email: String,
}

/// A commit the index names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Commit {
    pub(crate) id: String,
    pub(crate) committer_email: String,
    pub(crate) author: String,
}

/// Where the index of the memory folder `dir` lives; `None` without a home.
pub(crate) fn location(env: &Env, dir: &Path) -> Option<PathBuf> {
    Some(scan_cache::location(env, dir)?.with_extension("origins.idx"))
}

/// The index as read from its file (or empty): its head read, its entry lines left in the
/// file and read as a lookup needs them (a binary search reads about 15 of them), so that a
/// start that looks a few entries up reads a few kilobytes of an index of any size.
#[derive(Debug, Default)]
pub(crate) struct Index {
    /// The memory folder it is of, relative to the work tree's top.
    pub(crate) folder: String,
    /// The commits whose history it holds.
    pub(crate) tips: Vec<String>,
    commits: Vec<Commit>,
    /// The file, open (a replacement of it, by rename, leaves this one as it was).
    file: Option<std::fs::File>,
    /// Where the entry lines start, and how many there are.
    entries: u64,
    count: usize,
}

/// The first part of the file read for its head; doubled until the head is in it.
const HEAD_CHUNK: usize = 64 * 1024;

impl Index {
    /// The index at `path`; an empty one when it is missing, unreadable or of another format.
    pub(crate) fn read(path: Option<&Path>) -> Index {
        path.and_then(|p| fsx::open_regular(p).ok().flatten())
            .and_then(Index::open)
            .unwrap_or_default()
    }

    fn open(file: std::fs::File) -> Option<Index> {
        use std::os::unix::fs::FileExt;
        let len = file.metadata().ok()?.len();
        if len > fsx::Limit::DOCUMENT.max {
            return None;
        }
        let mut chunk = HEAD_CHUNK;
        loop {
            let n = usize::try_from(len).ok()?.min(chunk);
            let mut head = vec![0u8; n];
            file.read_exact_at(&mut head, 0).ok()?;
            match parse_head(&head) {
                Head::Whole(folder, tips, commits, count, entries) => {
                    let entries = entries as u64;
                    return (len == entries + (count * LINE) as u64).then_some(Index {
                        folder,
                        tips,
                        commits,
                        file: Some(file),
                        entries,
                        count,
                    });
                }
                Head::Cut if n < usize::try_from(len).ok()? => chunk *= 2,
                _ => return None,
            }
        }
    }

    fn count(&self) -> usize {
        self.count
    }

    /// Entry line `i` without its newline; `None` when it cannot be read.
    fn record(&self, i: usize) -> Option<[u8; LINE - 1]> {
        use std::os::unix::fs::FileExt;
        let mut rec = [0u8; LINE - 1];
        let at = self.entries + (i * LINE) as u64;
        self.file.as_ref()?.read_exact_at(&mut rec, at).ok()?;
        Some(rec)
    }

    /// The commit that brought the entry with digest `digest` (40 hex digits), if any.
    pub(crate) fn lookup(&self, digest: &str) -> Option<Origin> {
        let key = digest.as_bytes();
        let (mut lo, mut hi) = (0, self.count());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            let rec = self.record(mid)?;
            match rec[..40].cmp(key) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => {
                    let idx = std::str::from_utf8(&rec[41..49]).ok()?;
                    let c = self.commits.get(usize::from_str_radix(idx, 16).ok()?)?;
                    return Some(Origin {
                        commit: c.id.chars().take(7).collect(),
                        author: c.author.clone(),
                        committer_email: c.committer_email.clone(),
                    });
                }
            }
        }
        None
    }

    /// Everything it holds, to be added to: its commits and a map from entry digest to
    /// commit number.
    pub(crate) fn into_parts(self) -> (Vec<Commit>, HashMap<String, usize>) {
        use std::os::unix::fs::FileExt;
        let mut map = HashMap::with_capacity(self.count());
        let mut all = vec![0u8; self.count() * LINE];
        if let Some(f) = &self.file {
            if f.read_exact_at(&mut all, self.entries).is_err() {
                // Shrunk or unreadable: nothing of it is kept (an update reads it all again).
                all.clear();
            }
        }
        for rec in all.chunks_exact(LINE) {
            let (Ok(d), Ok(n)) = (
                std::str::from_utf8(&rec[..40]),
                std::str::from_utf8(&rec[41..49]),
            ) else {
                continue;
            };
            if let Ok(n) = usize::from_str_radix(n, 16) {
                map.insert(d.to_string(), n);
            }
        }
        (self.commits, map)
    }
}

/// What the first bytes of an index file say.
enum Head {
    /// Its folder, tips, commits, number of entries, and where the entry lines start.
    Whole(String, Vec<String>, Vec<Commit>, usize, usize),
    /// More bytes are needed to read the head.
    Cut,
    /// Not an index of this format.
    Other,
}

/// The head of an index file from its first bytes `bytes`.
fn parse_head(bytes: &[u8]) -> Head {
    let mut at = 0;
    let mut cut = false;
    let mut line = || {
        let Some(end) = memchr::memchr(b'\n', &bytes[at..]).map(|i| i + at) else {
            cut = true;
            return None;
        };
        let l = std::str::from_utf8(&bytes[at..end]).ok()?.to_string();
        at = end + 1;
        Some(l)
    };
    let head = (|| {
        if line()? != MAGIC {
            return None;
        }
        let folder = line()?.strip_prefix("folder ")?.to_string();
        let tips = line()?
            .strip_prefix("tips")?
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let n: usize = line()?.strip_prefix("commits ")?.parse().ok()?;
        let mut commits = Vec::with_capacity(n.min(1 << 16));
        for _ in 0..n {
            let l = line()?;
            let mut f = l.splitn(3, '\t');
            commits.push(Commit {
                id: f.next()?.to_string(),
                committer_email: f.next()?.to_string(),
                author: f.next()?.to_string(),
            });
        }
        let m: usize = line()?.strip_prefix("entries ")?.parse().ok()?;
        Some((folder, tips, commits, m))
    })();
    match head {
        Some((folder, tips, commits, m)) => Head::Whole(folder, tips, commits, m, at),
        None if cut => Head::Cut,
        None => Head::Other,
    }
}

/// Writes an index (a cache: replaced without fsync; failures are ignored, the next update
/// builds it again).
pub(crate) fn write(
    path: &Path,
    folder: &str,
    tips: &[String],
    commits: &[Commit],
    map: &HashMap<String, usize>,
) {
    let clean = |s: &str| s.replace(['\t', '\n', '\r'], " ");
    let mut out = format!(
        "{MAGIC}\nfolder {}\ntips {}\ncommits {}\n",
        clean(folder),
        tips.join(" "),
        commits.len()
    );
    for c in commits {
        out.push_str(&format!(
            "{}\t{}\t{}\n",
            c.id,
            clean(&c.committer_email),
            clean(&c.author)
        ));
    }
    let mut entries: Vec<(&String, &usize)> = map.iter().filter(|(d, _)| d.len() == 40).collect();
    entries.sort();
    out.push_str(&format!("entries {}\n", entries.len()));
    for (d, n) in entries {
        out.push_str(&format!("{d} {n:08x}\n"));
    }
    if let Some(dir) = path.parent() {
        if fsx::ensure_private_dir(dir).is_ok() {
            let _ = fsx::replace_file(path, out.as_bytes(), fsx::PRIVATE_FILE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_index_written_is_read_back_and_looked_up() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("x.origins.idx");
        let commits = vec![
            Commit {
                id: "a".repeat(40),
                committer_email: "c@x".into(),
                author: "A\tB <a@x>".into(),
            },
            Commit {
                id: "b".repeat(40),
                committer_email: "d@x".into(),
                author: "D <d@x>".into(),
            },
        ];
        let mut map = HashMap::new();
        for i in 0..300 {
            map.insert(
                crate::core::hash::sha1_hex(format!("{i}").as_bytes()),
                i % 2,
            );
        }
        write(&path, ".rune", &["f".repeat(40)], &commits, &map);
        let idx = Index::read(Some(&path));
        assert_eq!(idx.folder, ".rune");
        assert_eq!(idx.tips, vec!["f".repeat(40)]);
        for i in 0..300 {
            let o = idx
                .lookup(&crate::core::hash::sha1_hex(format!("{i}").as_bytes()))
                .unwrap();
            assert_eq!(o.commit, if i % 2 == 0 { "aaaaaaa" } else { "bbbbbbb" });
        }
        assert_eq!(idx.lookup(&"0".repeat(40)), None);
        assert_eq!(
            idx.lookup(&crate::core::hash::sha1_hex(b"0"))
                .unwrap()
                .author,
            "A B <a@x>"
        );
        let (c, m) = Index::read(Some(&path)).into_parts();
        assert_eq!((c.len(), m.len()), (2, 300));
        std::fs::write(&path, "baton-origins 1\nfolder .rune\n").unwrap();
        assert_eq!(Index::read(Some(&path)).count(), 0);
    }

    /// A head longer than the first read (hundreds of commits) is read on; the entry lines
    /// are read as lookups need them; a file cut short is no index.
    #[test]
    fn an_index_of_a_long_history_is_read_in_parts() {
        let t = tempfile::tempdir().unwrap();
        let path = t.path().join("x.origins.idx");
        let commits: Vec<Commit> = (0..2000)
            .map(|i| Commit {
                id: format!("{i:040x}"),
                committer_email: format!("dev{i}@example.invalid"),
                author: format!("Developer Number {i} <dev{i}@example.invalid>"),
            })
            .collect();
        let map: HashMap<String, usize> = (0..5000)
            .map(|i| {
                (
                    crate::core::hash::sha1_hex(format!("{i}").as_bytes()),
                    i % 2000,
                )
            })
            .collect();
        write(&path, ".rune", &["f".repeat(40)], &commits, &map);
        let bytes = crate::core::fsx::read_bytes_limited(&path, fsx::Limit::DOCUMENT)
            .unwrap()
            .unwrap();
        let head = bytes.windows(8).position(|w| w == b"entries ").unwrap();
        assert!(head > 2 * HEAD_CHUNK, "{head}");
        let idx = Index::read(Some(&path));
        assert_eq!(idx.count(), 5000);
        for i in [0, 1, 1999, 2000, 4999] {
            let o = idx
                .lookup(&crate::core::hash::sha1_hex(format!("{i}").as_bytes()))
                .unwrap();
            assert_eq!(
                o.author,
                format!(
                    "Developer Number {} <dev{}@example.invalid>",
                    i % 2000,
                    i % 2000
                )
            );
        }
        let (c, m) = Index::read(Some(&path)).into_parts();
        assert_eq!((c.len(), m.len()), (2000, 5000));
        std::fs::write(&path, &bytes[..bytes.len() - 1]).unwrap();
        assert_eq!(Index::read(Some(&path)).count(), 0);
        std::fs::write(&path, &bytes[..head]).unwrap();
        assert_eq!(Index::read(Some(&path)).count(), 0);
    }
}
