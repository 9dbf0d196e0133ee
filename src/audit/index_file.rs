//! How the session index lies on disk, so that a hook's work on it does not grow with the
//! number of sessions:
//!
//! * `index.json` holds every session, one entry a line, and ends with a line naming the
//!   sessions in progress and the last journal change it includes:
//!   ```text
//!   {"version":2,"sessions":[
//!   {"id":"adhoc_20261130_1015",...},
//!   {"id":"adhoc_20261130_1420",...}
//!   ],"seq":7,"unfinished":["adhoc_20261130_1420"]}
//!   ```
//!   It is still one JSON document (`Index`) for anything that reads it whole. A hook reads
//!   only its end: the newest sessions (entries are in start order) and the ids of the
//!   unfinished ones.
//! * `index.journal.jsonl` holds what hooks changed since: one line a change, numbered
//!   (`{"seq":8,"upsert":{entry}}`, `{"seq":9,"remove":"id"}`). A hook appends a line (synced)
//!   instead of rewriting the index; the index is rewritten with the journal folded in by a
//!   command, or by a hook once the journal passes `JOURNAL_MAX`. A change whose number the
//!   index already holds is not applied again, so a rewrite that a crash cut off before the
//!   journal was emptied changes nothing.
//!
//! Everything that writes either file holds the index lock (`Store::index_lock`). A reader
//! takes no lock: it reads the journal first, then the index, so a rewrite in between leaves
//! it the newer index and changes that index already holds.

use super::store::Store;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::path::PathBuf;

/// The index's end a hook reads first: the newest sessions (their figures take about a
/// kilobyte each) and the closing line. A longer end is read when this does not hold
/// `NEWEST` whole entries (a session that changed many files) or the whole closing line (many
/// sessions in progress).
const TAIL: u64 = 8 * 1024;
/// The index's end read first for its closing line alone.
const CLOSING: u64 = 4 * 1024;
/// The newest sessions a hook's read of the index holds (the recap shows five).
const NEWEST: usize = 8;
/// The journal's size past which a hook folds it into the index.
pub(super) const JOURNAL_MAX: u64 = 64 * 1024;

/// One change a hook made to the index (`E`: an entry).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(super) struct Line<E> {
    pub(super) seq: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) upsert: Option<E>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) remove: Option<String>,
}

/// What the index's end says: its last entries (or the whole index, when short), the last
/// journal change it holds, and the sessions in progress.
pub(super) enum End<E> {
    /// The whole index: short enough to read at once.
    Whole(String),
    /// The last entries, oldest first, with the closing line's fields.
    Tail {
        entries: Vec<E>,
        seq: u64,
        unfinished: Vec<String>,
    },
}

/// The closing line's fields.
#[derive(Deserialize)]
struct Closing {
    #[serde(default)]
    seq: u64,
    #[serde(default)]
    unfinished: Vec<String>,
}

pub(super) fn journal_file(store: &Store) -> PathBuf {
    store.dir.join("index.journal.jsonl")
}

/// The index as text: `version`, `entries` one a line, then the closing line with `seq` and
/// the ids of `unfinished` sessions.
pub(super) fn render<E: Serialize>(
    version: u32,
    entries: &[E],
    seq: u64,
    unfinished: &[&str],
) -> Result<String> {
    let mut text = format!("{{\"version\":{version},\"sessions\":[\n");
    for (i, e) in entries.iter().enumerate() {
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(&line(e)?);
    }
    text.push_str(&format!(
        "\n],\"seq\":{seq},\"unfinished\":{}}}\n",
        line(&unfinished)?
    ));
    Ok(text)
}

/// `value` as one line of JSON.
fn line<T: Serialize>(value: &T) -> Result<String> {
    serde_json::to_string(value).map_err(|e| Error::Internal(format!("serialize index: {e}")))
}

/// The index read from its end: at least the newest `NEWEST` entries and the closing line
/// (the window read grows until they are whole). `None` when there is no index, or its end is
/// not laid out as `render` writes it (an older version's index, a broken one): the caller
/// reads it whole.
pub(super) fn read_end<E: DeserializeOwned>(store: &Store) -> Option<End<E>> {
    read_end_with(store, TAIL, NEWEST)
}

/// The index's closing line (`End::Tail` with no entries), or the whole index when short.
fn closing_of(store: &Store) -> Option<End<serde::de::IgnoredAny>> {
    match read_end_with::<serde::de::IgnoredAny>(store, CLOSING, 0)? {
        End::Tail {
            seq, unfinished, ..
        } => Some(End::Tail {
            entries: Vec::new(),
            seq,
            unfinished,
        }),
        whole @ End::Whole(_) => Some(whole),
    }
}

/// `read_end` from a first window of `max` bytes, until it holds `at_least` whole entries
/// (or all there are) and the whole closing line; the window grows fourfold each time, up to
/// the bound of a state file (past it: `None`, and the caller's whole read reports the size).
fn read_end_with<E: DeserializeOwned>(
    store: &Store,
    mut max: u64,
    at_least: usize,
) -> Option<End<E>> {
    loop {
        let (text, whole) = fsx::read_tail(&store.index_file(), max).ok()??;
        if whole {
            return Some(End::Whole(text));
        }
        // The window starts after its first line break: its first line is whole.
        let mut lines = text.lines().rev().skip_while(|l| l.trim().is_empty());
        match lines.next() {
            // The closing line is longer than the window.
            None => {}
            Some(last) => {
                let closing: Closing =
                    serde_json::from_str(&format!("{{{}", last.strip_prefix("],")?)).ok()?;
                let mut entries: Vec<E> = lines
                    .take_while(|l| !l.starts_with("{\"version\""))
                    .map(|l| serde_json::from_str::<E>(l.strip_suffix(',').unwrap_or(l)).ok())
                    .collect::<Option<Vec<_>>>()?;
                if entries.len() >= at_least {
                    entries.reverse();
                    return Some(End::Tail {
                        entries,
                        seq: closing.seq,
                        unfinished: closing.unfinished,
                    });
                }
            }
        }
        if max >= fsx::Limit::STATE.max {
            return None;
        }
        max = max.saturating_mul(4).min(fsx::Limit::STATE.max);
    }
}

/// The changes in the journal after `seq`, in order; a torn or foreign line is skipped.
pub(super) fn journal_after<E: DeserializeOwned>(store: &Store, seq: u64) -> Result<Vec<Line<E>>> {
    Ok(changes(&read_journal(store)?, seq))
}

/// The changes of journal `text` after `seq`, in order; a torn or foreign line is skipped.
fn changes<E: DeserializeOwned>(text: &str, seq: u64) -> Vec<Line<E>> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Line<E>>(l).ok())
        .filter(|c| c.seq > seq)
        .collect()
}

/// The journal's text (empty when there is none).
pub(super) fn read_journal(store: &Store) -> Result<String> {
    Ok(fsx::read_lossy(&journal_file(store), fsx::Limit::STATE)?.unwrap_or_default())
}

/// A journal line with only the ids it changes: read without parsing the entry.
#[derive(Deserialize)]
struct Head {
    seq: u64,
    #[serde(default)]
    upsert: Option<HeadId>,
    #[serde(default)]
    remove: Option<String>,
}

#[derive(Deserialize)]
struct HeadId {
    id: String,
}

impl Head {
    /// The head of journal line `l`: read straight off a line laid out as `append` writes
    /// it, else parsed.
    fn of(l: &str) -> Option<Head> {
        Head::as_written(l).or_else(|| serde_json::from_str(l).ok())
    }

    /// `{"seq":N,"upsert":{"id":"ID",…}}` or `{"seq":N,"remove":"ID"}`, with a plain id and
    /// no escape anywhere (so no key is spelled otherwise, and a `"remove"` further on is a
    /// key or a value: either way the parser reads that line). The rest of the line is not
    /// looked at: a line is used only once it parses whole.
    fn as_written(l: &str) -> Option<Head> {
        if l.contains('\\') {
            return None;
        }
        let rest = l.strip_prefix("{\"seq\":")?;
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        let seq = rest[..digits].parse().ok()?;
        let rest = &rest[digits..];
        let plain = |id: &str| {
            !id.is_empty()
                && id
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        };
        if let Some(r) = rest.strip_prefix(",\"upsert\":{\"id\":\"") {
            let (id, _) = r.split_once('"')?;
            return (plain(id) && !r.contains("\"remove\"")).then(|| Head {
                seq,
                upsert: Some(HeadId { id: id.into() }),
                remove: None,
            });
        }
        let id = rest.strip_prefix(",\"remove\":\"")?.strip_suffix("\"}")?;
        plain(id).then(|| Head {
            seq,
            upsert: None,
            remove: Some(id.into()),
        })
    }
}

/// The changes of journal `text` after `seq` that decide where each session ends up: of the
/// lines `changes` returns, the last one that changes each session (in order).
/// Applied in order, they leave the index as all of them would, but a hook parses one entry
/// a session however often the journal changed it.
pub(super) fn last_changes<E: DeserializeOwned>(text: &str, seq: u64) -> Vec<Line<E>> {
    let heads: Vec<(&str, Head)> = text
        .lines()
        .filter_map(|l| Some((l, Head::of(l)?)))
        .filter(|(_, h)| h.seq > seq)
        .collect();
    let mut decided: std::collections::HashSet<&str> = std::collections::HashSet::new();
    let mut kept = Vec::new();
    // Newest first: the first line that parses whole and changes a session decides it.
    for (l, head) in heads.iter().rev() {
        let ids: Vec<&str> = head
            .remove
            .iter()
            .map(String::as_str)
            .chain(head.upsert.iter().map(|u| u.id.as_str()))
            .collect();
        if !ids.is_empty() && ids.iter().all(|id| decided.contains(id)) {
            continue;
        }
        let Ok(line) = serde_json::from_str::<Line<E>>(l) else {
            continue;
        };
        decided.extend(ids);
        kept.push(line);
    }
    kept.reverse();
    kept
}

/// The number of the last change made: the journal's last, else the one the index holds.
fn last_seq(store: &Store) -> u64 {
    /// Just the number of a journal line or an index.
    #[derive(Deserialize)]
    struct Seq {
        #[serde(default)]
        seq: u64,
    }
    let journal = fsx::read_tail(&journal_file(store), 16 * 1024)
        .ok()
        .flatten()
        .and_then(|(text, _)| {
            text.lines()
                .rev()
                .find_map(|l| serde_json::from_str::<Seq>(l).ok())
        });
    let index = || match closing_of(store)? {
        End::Whole(text) => serde_json::from_str::<Seq>(&text).ok(),
        End::Tail { seq, .. } => Some(Seq { seq }),
    };
    journal.or_else(index).map_or(0, |s| s.seq)
}

/// Appends `change` (numbered after the last one) to the journal and syncs it; the index
/// lock must be held. Returns the number it got and the journal's size after.
pub(super) fn append<E: Serialize>(store: &Store, mut change: Line<E>) -> Result<(u64, u64)> {
    change.seq = last_seq(store) + 1;
    let path = journal_file(store);
    let mut line = serde_json::to_vec(&change)
        .map_err(|e| Error::Internal(format!("serialize index change: {e}")))?;
    line.push(b'\n');
    let mut f = std::fs::OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(store.file_mode())
        .custom_flags(libc::O_NOFOLLOW)
        .open(&path)
        .map_err(|e| Error::io("open for append", &path, e))?;
    // A line a failed write left without its end (a full disk) would swallow this one.
    if !ends_with_newline(&mut f) {
        line.insert(0, b'\n');
    }
    f.write_all(&line)
        .map_err(|e| Error::io("append to", &path, e))?;
    f.sync_data().map_err(|e| Error::io("sync", &path, e))?;
    Ok((change.seq, f.metadata().map_or(0, |m| m.len())))
}

/// Whether the open file `f` is empty or ends with a line break.
fn ends_with_newline(f: &mut std::fs::File) -> bool {
    use std::io::{Read, Seek, SeekFrom};
    if f.metadata().map_or(true, |m| m.len() == 0) {
        return true;
    }
    let mut last = [0u8; 1];
    f.seek(SeekFrom::End(-1))
        .and_then(|_| f.read_exact(&mut last))
        .map_or(true, |()| last[0] == b'\n')
}

/// Empties the journal once the index holds its changes (the index lock must be held). Not
/// synced: a journal that comes back after a crash holds only changes the index has.
pub(super) fn clear_journal(store: &Store) {
    let path = journal_file(store);
    if std::fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() > 0) {
        if let Ok(f) = std::fs::OpenOptions::new()
            .write(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
        {
            let _ = f.set_len(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// An entry with a field that can fail to parse while its id still reads.
    #[derive(Debug, Clone, PartialEq, Deserialize)]
    struct Entry {
        id: String,
        n: u32,
    }

    /// Where the sessions end up when `lines` are applied in order, and the last number.
    fn applied(lines: Vec<Line<Entry>>) -> (BTreeMap<String, Entry>, u64) {
        let mut sessions = BTreeMap::new();
        let mut seq = 0;
        for line in lines {
            if let Some(id) = line.remove {
                sessions.remove(&id);
            }
            if let Some(e) = line.upsert {
                sessions.insert(e.id.clone(), e);
            }
            seq = seq.max(line.seq);
        }
        (sessions, seq)
    }

    /// A journal of `len` lines over five sessions: upserts, removals, upserts whose entry
    /// does not parse, a line that changes two sessions, a line that changes none, torn lines.
    fn journal(seed: &mut u64, len: u64) -> String {
        let mut next = || {
            *seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            *seed >> 33
        };
        let mut text = String::new();
        for seq in 1..=len {
            let id = format!("s{}", next() % 5);
            let other = format!("s{}", next() % 5);
            let line = match next() % 26 {
                0..=10 => format!(
                    r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":{}}}}}"#,
                    next() % 9
                ),
                11..=13 => format!(r#"{{"seq":{seq},"remove":"{id}"}}"#),
                14 | 15 => format!(r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":"bad"}}}}"#),
                16 => {
                    format!(r#"{{"seq":{seq},"remove":"{other}","upsert":{{"id":"{id}","n":1}}}}"#)
                }
                17 => format!(r#"{{"seq":{seq}}}"#),
                18 => format!(r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":"#),
                19 => format!(
                    r#"{{"seq":{seq},"remove":"{other}","upsert":{{"id":"{id}","n":"x"}}}}"#
                ),
                // Changes further on in the line, a key spelled with an escape, a number
                // with a leading zero, repeated keys.
                20 => {
                    format!(r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":2}},"remove":"{other}"}}"#)
                }
                21 => format!(
                    r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":3}},"remo\u0076e":"{other}"}}"#
                ),
                22 => format!(r#"{{"seq":0{seq},"remove":"{id}"}}"#),
                23 => format!(r#"{{"seq":{seq},"remove":"{id}","upsert":null}}"#),
                24 => format!(r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":4,"id":"{other}"}}}}"#),
                _ => format!(
                    r#"{{"seq":{seq},"upsert":{{"id":"{id}","n":5}},"upsert":{{"id":"{other}","n":6}}}}"#
                ),
            };
            text.push_str(&line);
            text.push('\n');
        }
        text
    }

    /// An index whose end never closes within a state file's bound (a hostile or broken
    /// one) is not read further: the caller's bounded whole read takes over.
    #[test]
    fn the_end_is_not_looked_for_past_a_state_files_bound() {
        let t = tempfile::tempdir().unwrap();
        let store = Store::new(t.path(), &crate::core::config::Config::default());
        store.ensure().unwrap();
        let big = usize::try_from(fsx::Limit::STATE.max).unwrap() + 1024;
        let mut text = String::from("{\"version\":2,\"sessions\":[\n");
        text.push_str(&"x".repeat(big));
        std::fs::write(store.index_file(), text).unwrap();
        assert!(read_end::<serde::de::IgnoredAny>(&store).is_none());
        assert!(closing_of(&store).is_none());
    }

    #[test]
    fn the_last_change_of_each_session_leaves_what_all_changes_leave() {
        let mut seed = 7;
        let mut parsed_fewer = false;
        for round in 0..3000 {
            let len = 1 + round % 40;
            let text = journal(&mut seed, len);
            let held = seed % (len + 1);
            let all = changes::<Entry>(&text, held);
            let last = last_changes::<Entry>(&text, held);
            parsed_fewer |= last.len() < all.len();
            assert!(last.iter().all(|l| l.seq > held));
            assert_eq!(applied(last), applied(all), "after {held}:\n{text}");
        }
        assert!(parsed_fewer, "some journal changed a session twice");
    }
}
