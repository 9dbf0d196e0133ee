//! Keeps the origins index (`origins`) current: reads the memory folder's history since the
//! commits it holds, oldest first, and for each commit that changed a memory file records
//! the entries the file gained (their digests) as that commit's. A file that only grew (the
//! usual commit of memory: entries appended, a union merge) is read from its last entry on;
//! its text before comes from the commit before, read once.
//!
//! A session start asks for a bounded update (`Budget::Hook`): at most `HOOK_COMMITS` new
//! commits and `HOOK_BYTES` of memory files to read, all or nothing; past that it starts
//! `baton bridge index` in the background (`later`, off the hook path) and goes on with the index
//! as it is: the entries it cannot place yet show with an unknown origin, never as reviewed.
//! Commands (`bridge review`, `bridge index`) read the whole backlog, saving as they go,
//! so a killed update resumes where it stopped.

use super::origins::{self, Commit, Index};
use super::provenance::{self, digest, entries};
use super::store::Rune;
use crate::core::fsx;
use crate::core::git::FolderLog;
use crate::core::project::Project;
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::time::{Duration, Instant};

/// New commits a session start reads at most.
const HOOK_COMMITS: usize = 64;
/// Bytes of memory files (blobs) a session start reads at most.
const HOOK_BYTES: usize = 256 * 1024;
/// The largest memory file read (a larger version is skipped: its entries stay unknown).
const BLOB_MAX: usize = 256 * 1024 * 1024;
/// How often a whole update saves what it did.
const SAVE_EVERY: Duration = Duration::from_secs(2);

/// How much an update may do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Budget {
    /// A hook: a little, all or nothing.
    Hook,
    /// A command: everything.
    Whole,
}

/// What an update leaves.
#[derive(Debug)]
pub(crate) enum State {
    /// The index holds the history up to HEAD: an entry it does not know is not committed.
    Current(Index),
    /// It does not yet (more than a hook may read, or another update is running).
    Behind(Index),
    /// No history to read (not a git repository, or the folder is outside its work tree).
    NoHistory,
}

/// Brings the index of `rune`'s folder up to HEAD as far as `budget` allows.
pub(crate) fn update(project: &Project, rune: &Rune, budget: Budget) -> State {
    let Some(path) = origins::location(&project.ctx.env, &rune.dir) else {
        return State::NoHistory;
    };
    let Some(log) = FolderLog::open(&project.root, &rune.dir) else {
        return State::NoHistory;
    };
    let folder = rune.rel.to_string_lossy().into_owned();
    let mut index = Index::read(Some(&path));
    if index.folder != folder {
        index = Index::default();
    }
    let Some(head) = log.head() else {
        // No commit yet: nothing is committed.
        return State::Current(index);
    };
    if index.tips.contains(&head) {
        return State::Current(index);
    }
    // One update at a time; a hook does not wait for another.
    let Some(_lock) = try_lock(&path) else {
        return State::Behind(index);
    };
    let max = (budget == Budget::Hook).then_some(HOOK_COMMITS);
    let Some(commits) = log.since(&index.tips, max) else {
        return State::Behind(index);
    };
    // A hook first sums what it would read, so that it gives up before it reads anything.
    if budget == Budget::Hook && blob_bytes(&log, &commits) > HOOK_BYTES {
        return State::Behind(index);
    }
    let mut run = Run::new(&log, index, &path, &folder, budget);
    match run.read(&commits) {
        Some(()) => {
            run.save(&[head]);
            State::Current(Index::read(Some(&path)))
        }
        None => State::Behind(Index::read(Some(&path))),
    }
}

/// The bytes of the memory files `commits` changed, before and after (what reading them
/// would inflate), as their objects' headers say.
fn blob_bytes(log: &FolderLog, commits: &[String]) -> usize {
    let mut seen: HashSet<String> = HashSet::new();
    let mut total = 0;
    for id in commits {
        let Some((_, changes)) = log.commit(id) else {
            continue;
        };
        for c in changes
            .iter()
            .filter(|c| provenance::FILES.contains(&c.name.as_str()))
        {
            for blob in std::iter::once(&c.new).chain(&c.old) {
                if seen.insert(blob.clone()) {
                    total += log.blob_size(blob).unwrap_or(usize::MAX / 4);
                }
            }
        }
    }
    total
}

/// The lock of an update (an advisory lock on a file beside the index); `None` when another
/// update holds it.
fn try_lock(index: &Path) -> Option<std::fs::File> {
    fsx::try_lock_file(&index.with_extension("lock"))
}

/// One update: the index's commits and entries, added to commit by commit.
struct Run<'a> {
    log: &'a FolderLog,
    path: &'a Path,
    folder: &'a str,
    budget: Budget,
    commits: Vec<Commit>,
    numbers: HashMap<String, usize>,
    map: HashMap<String, usize>,
    /// The commits read whose children are not read yet (with the index's tips).
    frontier: HashSet<String>,
    /// The last text read of each file, by blob: the next commit's text before.
    last: HashMap<String, (String, String)>,
    bytes: usize,
    saved: Instant,
}

impl<'a> Run<'a> {
    fn new(
        log: &'a FolderLog,
        index: Index,
        path: &'a Path,
        folder: &'a str,
        budget: Budget,
    ) -> Self {
        let frontier = index.tips.iter().cloned().collect();
        let (commits, map) = index.into_parts();
        let numbers = commits
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        Run {
            log,
            path,
            folder,
            budget,
            commits,
            numbers,
            map,
            frontier,
            last: HashMap::new(),
            bytes: 0,
            saved: Instant::now(),
        }
    }

    /// Reads `commits` (oldest first); `None` when a hook's budget ran out (nothing is
    /// saved then).
    fn read(&mut self, commits: &[String]) -> Option<()> {
        for id in commits {
            let Some((info, changes)) = self.log.commit(id) else {
                continue;
            };
            for c in changes
                .iter()
                .filter(|c| provenance::FILES.contains(&c.name.as_str()))
            {
                let Some(gained) = self.gained(&c.name, &c.new, &c.old) else {
                    if self.budget == Budget::Hook {
                        return None;
                    }
                    continue;
                };
                let n = self.number(&info);
                for d in gained {
                    self.map.insert(d, n);
                }
            }
            for p in &info.parents {
                self.frontier.remove(p);
            }
            self.frontier.insert(info.id.clone());
            if self.budget == Budget::Whole && self.saved.elapsed() > SAVE_EVERY {
                let tips: Vec<String> = self.frontier.iter().cloned().collect();
                self.save(&tips);
                self.saved = Instant::now();
            }
        }
        Some(())
    }

    /// The number of commit `info` in the index (added when new).
    fn number(&mut self, info: &crate::core::git::CommitInfo) -> usize {
        if let Some(n) = self.numbers.get(&info.id) {
            return *n;
        }
        self.commits.push(Commit {
            id: info.id.clone(),
            committer_email: info.committer_email.clone(),
            author: info.author.clone(),
        });
        let n = self.commits.len() - 1;
        self.numbers.insert(info.id.clone(), n);
        n
    }

    /// The text of blob `id` of file `name` (the last one read, when it is that); `None`
    /// when it cannot be read or a hook's budget does not reach it.
    fn text(&mut self, name: &str, id: &str) -> Option<String> {
        if let Some((blob, text)) = self.last.get(name) {
            if blob == id {
                return Some(text.clone());
            }
        }
        let size = self.log.blob_size(id)?;
        self.bytes += size;
        if self.budget == Budget::Hook && self.bytes > HOOK_BYTES {
            return None;
        }
        self.log.blob_text(id, BLOB_MAX)
    }

    /// The digests of the entries file `name` has in blob `new` and had in none of `old`.
    fn gained(&mut self, name: &str, new: &str, old: &[String]) -> Option<Vec<String>> {
        let now = self.text(name, new)?;
        let before: Vec<String> = old
            .iter()
            .map(|o| self.text(name, o))
            .collect::<Option<_>>()?;
        let gained = gained_entries(name, &now, &before);
        self.last.insert(name.to_string(), (new.to_string(), now));
        Some(gained)
    }

    fn save(&self, tips: &[String]) {
        origins::write(self.path, self.folder, tips, &self.commits, &self.map);
    }
}

/// The digests of the entries `now` has and none of `before` had: when `now` is the one text
/// before and more, only its end from that text's last entry is read.
pub(crate) fn gained_entries(name: &str, now: &str, before: &[String]) -> Vec<String> {
    let digests = |text: &str| -> Vec<String> {
        entries(name, text)
            .iter()
            .map(|e| digest(name, &e.text))
            .collect()
    };
    if let [old] = before {
        if let Some(cut) = now
            .starts_with(old.as_str())
            .then(|| provenance::last_entry_start(name, old))
            .flatten()
        {
            let had: HashSet<String> = digests(&old[cut..]).into_iter().collect();
            return digests(&now[cut..])
                .into_iter()
                .filter(|d| !had.contains(d))
                .collect();
        }
    }
    let had: HashSet<String> = before.iter().flat_map(|t| digests(t)).collect();
    digests(now)
        .into_iter()
        .filter(|d| !had.contains(d))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bridge::store;

    #[test]
    fn the_entries_a_grown_file_gained_are_read_from_its_end() {
        let old = "# Decisions Log\n\n## [2026-11-30 10:15] Decision: a\n\n**Decision:** x\n";
        let now =
            format!("{old}**Impact:** y\n\n## [2026-11-30 10:16] Decision: b\n\n**Decision:** z\n");
        let gained = gained_entries(store::DECISIONS, &now, &[old.to_string()]);
        // The last entry grew (a new digest) and one came.
        let whole: HashSet<String> = entries(store::DECISIONS, &now)
            .iter()
            .map(|e| digest(store::DECISIONS, &e.text))
            .collect();
        assert_eq!(gained.len(), 2);
        assert!(gained.iter().all(|d| whole.contains(d)));
        // An edit in the middle: the whole text compared.
        let edited = now.replace("**Decision:** x", "**Decision:** X");
        assert_eq!(
            gained_entries(store::DECISIONS, &edited, std::slice::from_ref(&now)).len(),
            1
        );
        // Lines.
        let log = "# Session Log\n[a] — one\n";
        let more = format!("{log}[b] — two\n");
        assert_eq!(
            gained_entries(store::SESSION_LOG, &more, &[log.to_string()]).len(),
            1
        );
        // A merge: what neither parent had.
        let other = format!("{log}[c] — three\n");
        let merged = format!("{log}[b] — two\n[c] — three\n[d] — four\n");
        assert_eq!(
            gained_entries(store::SESSION_LOG, &merged, &[more, other]).len(),
            1
        );
    }
}
