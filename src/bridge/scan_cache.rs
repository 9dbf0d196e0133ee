//! A per-user cache of integrity verdicts, so a session start does not rescan megabytes of
//! unchanged memory. An entry is reused only while the file's device, inode, size, mtime
//! and ctime are all unchanged (ctime cannot be set back from user space, so an edit that
//! restores the mtime is still seen) and the rules are the same.
//!
//! The cache lives outside the repository: `$XDG_CACHE_HOME/baton/integrity/<key>.json`
//! (default `~/.cache/…`), one file per `.rune/` folder, 0600 in a 0700 directory.
//!
//! The cache knows stamps and counts, not the scan: what it keeps per file is the scanner's
//! own record type `F` (`integrity.rs` owns the findings and their cached form).

use crate::core::ctx::Env;
use crate::core::fsx;
use crate::core::hash::{fnv1a, sha256_hex_with_prefix};
use crate::core::paths;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// Where the cache for the folder `dir` lives; `None` without a home. The key is the FNV-1a
/// of the folder's path, so each project's folder has its own file.
pub(crate) fn location(env: &Env, dir: &Path) -> Option<PathBuf> {
    let key = fnv1a(dir.to_string_lossy().as_bytes());
    Some(
        paths::cache_dir(env)?
            .join("integrity")
            .join(format!("{key:016x}.json")),
    )
}

/// Every cache file of the folder `dir` that exists: its own and the ones beside it (a large
/// file's runs `<key>.<name>.runs` and `….runs.prev`, the origins index and its lock, the
/// background index's lock, the per-file verdicts `<key>.<name>.json` earlier versions kept),
/// for `baton clean`.
pub(crate) fn files_of(env: &Env, dir: &Path) -> Vec<PathBuf> {
    let Some(main) = location(env, dir) else {
        return Vec::new();
    };
    let (Some(parent), Some(stem)) = (main.parent(), main.file_stem()) else {
        return Vec::new();
    };
    let prefix = format!("{}.", stem.to_string_lossy());
    let mut found: Vec<PathBuf> = std::fs::read_dir(parent)
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    let name = e.file_name();
                    let name = name.to_string_lossy();
                    name.starts_with(&prefix)
                        && [
                            ".json",
                            ".runs",
                            ".runs.prev",
                            ".origins.idx",
                            ".origins.lock",
                            ".index.lock",
                        ]
                        .iter()
                        .any(|end| name.ends_with(end))
                })
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default();
    found.sort();
    found
}

/// The identity of a file's current content.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

/// A file changed less than this long ago is not cached: timestamps are coarse, and a
/// second write within the same tick would look unchanged (git's "racy" entries).
const RACY_SECS: i64 = 1;

impl Stamp {
    /// Whether the stamp is too recent to trust later. Compares with the real clock, as the
    /// file system does (the pinned test clock does not apply to file times).
    pub(crate) fn is_racy(&self) -> bool {
        let ns = |(s, n): (i64, i64)| i128::from(s) * 1_000_000_000 + i128::from(n);
        #[allow(clippy::disallowed_methods)] // compared with file times, not the session's clock
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(i128::MAX, |d| {
                i128::try_from(d.as_nanos()).unwrap_or(i128::MAX)
            });
        let window = i128::from(RACY_SECS) * 1_000_000_000;
        ns(self.mtime) > now - window || ns(self.ctime) > now - window
    }

    pub(crate) fn of(path: &Path) -> Option<Stamp> {
        let m = std::fs::symlink_metadata(path).ok()?;
        Some(Stamp {
            dev: m.dev(),
            ino: m.ino(),
            size: m.size(),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        })
    }
}

/// What load counts in a file, kept with its verdict so a session start over a large
/// folder does not read big files whole just to count them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Counts {
    /// `## [` entries.
    pub(crate) entries: usize,
    /// Newlines.
    pub(crate) lines: usize,
    /// Where the text's first HTML comment opens (`None`: it has none), so an append can be
    /// scanned without the rest of the file (see `integrity::Scanner::scan_after`); missing
    /// in entries written before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) comments: Option<Comments>,
}

/// Where a text's first HTML comment opens.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Comments {
    pub(crate) first_at: Option<u64>,
}

impl Counts {
    pub(crate) fn of(text: &str) -> Counts {
        Counts {
            entries: super::entries::count_entries_in(text),
            lines: text.matches('\n').count(),
            comments: Some(Comments {
                first_at: text.find("<!--").map(|i| i as u64),
            }),
        }
    }

    /// The counts of a text that ended with a newline and was `self`, after `added` (of
    /// length `old_len` before) was appended.
    pub(crate) fn after_append(self, old_len: u64, added: &str) -> Counts {
        let comments = self.comments.map(|c| Comments {
            first_at: c
                .first_at
                .or_else(|| added.find("<!--").map(|i| old_len + i as u64)),
        });
        Counts {
            entries: self.entries + super::entries::count_entries_in(added),
            lines: self.lines + added.matches('\n').count(),
            comments,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize)]
struct Entry<F> {
    stamp: Stamp,
    findings: Vec<F>,
    #[serde(default)]
    counts: Option<Counts>,
    /// The text the verdict is of (missing where it was not read whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    content: Option<Content>,
    /// The stamp was too recent to trust (`Stamp::is_racy`): the entry is reused only for
    /// the same content (`Cache::previous`), never by its stamp alone.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    racy: bool,
}

/// What a file held when its verdict was cached: the length of the text read and its
/// SHA-256 (`core::hash`; FNV would let someone who knows the text write another one with
/// the same hash, SHA-1 someone who prepares two). A file whose stamp changed is reused when
/// it holds the same text, and scanned from its end when it holds that text and more (an
/// append). An entry cached by a baton that kept SHA-1 has no `sha256` and matches nothing:
/// that file is scanned whole once.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Content {
    pub(crate) len: u64,
    #[serde(default)]
    pub(crate) sha256: String,
}

impl Content {
    #[cfg(test)]
    pub(crate) fn of(text: &str) -> Content {
        Content::of_after(text, None).0
    }

    /// The content of `text`, and when it begins with `previous` (and is longer), the
    /// length of that beginning: one pass over the text.
    pub(crate) fn of_after(text: &str, previous: Option<&Content>) -> (Content, Option<usize>) {
        let prefix = previous
            .filter(|p| !p.sha256.is_empty() && p.len < text.len() as u64)
            .and_then(|p| usize::try_from(p.len).ok())
            .filter(|&n| text.is_char_boundary(n));
        let (sha256, head) = sha256_hex_with_prefix(text.as_bytes(), prefix.unwrap_or(usize::MAX));
        let grown = prefix
            .zip(head)
            .and_then(|(n, h)| (previous.is_some_and(|p| p.sha256 == h)).then_some(n));
        (
            Content {
                len: text.len() as u64,
                sha256,
            },
            grown,
        )
    }
}

/// A file's cached verdict whatever its stamp now (`Cache::previous`).
pub(crate) struct Previous<'a, F> {
    pub(crate) findings: &'a [F],
    pub(crate) counts: Counts,
    pub(crate) content: &'a Content,
}

/// The cache for one folder: per file name, its stamp, the findings `F` and the counts.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Cache<F> {
    rules: String,
    files: BTreeMap<String, Entry<F>>,
    #[serde(skip)]
    dirty: bool,
}

impl<F: Serialize + DeserializeOwned> Cache<F> {
    /// Reads the cache; an unreadable or stale one is empty.
    pub(crate) fn read(path: Option<&Path>, rules: &str) -> Cache<F> {
        let cache = path
            .and_then(|p| fsx::read_bytes_limited(p, fsx::Limit::STATE).ok().flatten())
            .and_then(|b| serde_json::from_slice::<Cache<F>>(&b).ok())
            .filter(|c| c.rules == rules);
        cache.unwrap_or_else(|| Cache {
            rules: rules.to_string(),
            files: BTreeMap::new(),
            dirty: false,
        })
    }

    /// The cached findings for `file`, if its stamp is unchanged.
    pub(crate) fn get(&self, file: &str, stamp: &Stamp) -> Option<&[F]> {
        let e = self.trusted(file, stamp)?;
        Some(&e.findings)
    }

    /// The cached counts for `file`, if its stamp is unchanged.
    pub(crate) fn counts(&self, file: &str, stamp: &Stamp) -> Option<Counts> {
        self.trusted(file, stamp).and_then(|e| e.counts)
    }

    fn trusted(&self, file: &str, stamp: &Stamp) -> Option<&Entry<F>> {
        self.files
            .get(file)
            .filter(|e| &e.stamp == stamp && !e.racy)
    }

    /// The verdict cached for `file` with the text it was of, whatever the file's stamp is
    /// now: for a file read again, to reuse when it holds the same text or that text and
    /// more.
    pub(crate) fn previous(&self, file: &str) -> Option<Previous<'_, F>> {
        let e = self.files.get(file)?;
        Some(Previous {
            findings: &e.findings,
            counts: e.counts?,
            content: e.content.as_ref()?,
        })
    }

    /// Keeps `findings` and `counts` for `file` at `stamp`, with the text they are of when
    /// it was read whole; a racy stamp (`Stamp::is_racy`) is kept only with its text, and
    /// trusted only for it.
    pub(crate) fn put(
        &mut self,
        file: &str,
        stamp: Stamp,
        findings: Vec<F>,
        counts: Counts,
        content: Option<Content>,
    ) {
        let racy = content.is_some() && stamp.is_racy();
        self.files.insert(
            file.to_string(),
            Entry {
                stamp,
                counts: Some(counts),
                findings,
                content,
                racy,
            },
        );
        self.dirty = true;
    }

    /// Keeps `findings` and `counts` for `file` as the verdict of the text `content` only
    /// (never taken by its stamp): the file changed while it was read, so the stamp taken
    /// before may not be of that text, but the next scan of the file can still start from it
    /// (`previous`) instead of scanning the whole file.
    pub(crate) fn put_text_only(
        &mut self,
        file: &str,
        stamp: Stamp,
        findings: Vec<F>,
        counts: Counts,
        content: Content,
    ) {
        self.put(file, stamp, findings, counts, Some(content));
        if let Some(e) = self.files.get_mut(file) {
            e.racy = true;
        }
    }

    /// Drops entries of files that are gone.
    pub(crate) fn retain(&mut self, present: &[String]) {
        let before = self.files.len();
        self.files.retain(|k, _| present.contains(k));
        self.dirty |= self.files.len() != before;
    }

    /// Writes the cache when it changed; failures are ignored (it is only a cache).
    pub(crate) fn write(&self, path: Option<&Path>) {
        let Some(path) = path.filter(|_| self.dirty) else {
            return;
        };
        let Some(dir) = path.parent() else {
            return;
        };
        if fsx::ensure_private_dir(dir).is_err() {
            return;
        }
        if let Ok(bytes) = serde_json::to_vec(self) {
            // A cache: not synced to disk (`fsx::replace_file`); one a power loss left
            // empty or old only makes the next scan read the files again.
            let _ = fsx::replace_file(path, &bytes, fsx::PRIVATE_FILE);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_grown_from_the_cached_one_is_told_from_a_changed_one() {
        let old = Content::of("[a] one\n");
        assert_eq!(
            Content::of_after("[a] one\n", Some(&old)),
            (old.clone(), None)
        );
        let (now, grown) = Content::of_after("[a] one\n[b] two\n", Some(&old));
        assert_eq!((now, grown), (Content::of("[a] one\n[b] two\n"), Some(8)));
        assert_eq!(Content::of_after("[a] One\n[b] two\n", Some(&old)).1, None);
        // An entry of a baton that kept SHA-1 (no sha256 read): never a match.
        let sha1_era: Content = serde_json::from_str(r#"{"len":8,"sha1":"x"}"#).unwrap();
        assert_eq!(
            Content::of_after("[a] one\n[b] two\n", Some(&sha1_era)).1,
            None
        );
        assert_ne!(sha1_era, old);
    }
}
