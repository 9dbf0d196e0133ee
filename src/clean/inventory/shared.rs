//! The inventory of the shared folders, removed only with `baton clean --committed`: the
//! project memory (`paths.bridge`, default `.rune/`) and the relay's folder (`paths.relay`,
//! default `.handoff/`).
//!
//! The bridge's writers (src/bridge/): store.rs (the memory files, each rewritten atomically
//! or appended to after the journal `.append-journal`), rules.rs (`.gitattributes` and
//! `.gitignore`, each begun with baton's mark when baton creates it), checkpoint.rs
//! (`checkpoint.md`, archived as `checkpoint-YYYY-MM-DD[-N].resolved.md`), learn.rs
//! (`learnings.jsonl`), detach.rs (`oracle-pending/<sessionId>.json` and that folder's private
//! `.gitignore`). Its lock is beside the folder (`.rune.lock/`), not in it; everything else it
//! keeps is per user, outside the repository.
//!
//! The relay's (src/relay/): hand_off.rs (`packets/latest.md`), loop_state.rs
//! (`loop/loop_state.md`), verify.rs (`loop/NEEDS-HUMAN`), rules.rs (`.gitattributes`),
//! layout.rs (the lock folder `loop/.relay.lock/`).
//!
//! Where baton shares a format with Rune, a file at one of those names is the project memory
//! whoever wrote it (a `decisions.md` Rune wrote is the file baton reads and appends to), so
//! it is baton's to remove with the memory. A file baton reads but never writes stays:
//! `INVARIANTS.md` (written by hand or by `rune onboard`), the relay's `loop/STOP` (a person
//! stops the loop with it) and `loop/verify-on-resume.sh` (the user's check). So does any
//! other file (Rune's own, a note of yours), and a `.gitignore` or `.gitattributes` without
//! baton's mark (Rune's, or yours that baton added lines to).

use super::Made;
use crate::bridge::written;

/// What the bridge makes at `rel` (the names below its folder).
pub(super) fn made_in_bridge(rel: &[&str]) -> Made {
    match rel {
        [] => Made::Folder,
        [dir] if *dir == written::DETACH_DIR => Made::Folder,
        // They name only baton's files: they go with them, whatever else stays.
        [".gitignore" | ".gitattributes"] => Made::Rules,
        [name] if written::GROWING.contains(name) || *name == written::CHECKPOINT => Made::File,
        [name] if *name == written::JOURNAL || is_resolved_checkpoint(name) => Made::File,
        [name] if *name == written::INVARIANTS => Made::Read,
        // It keeps the folder out of git: it stays while anything of yours does.
        [dir, ".gitignore"] if *dir == written::DETACH_DIR => Made::Mark,
        [dir, name] if *dir == written::DETACH_DIR && is_pending_record(name) => Made::File,
        _ => Made::Nothing,
    }
}

/// The relay's lock folder, in `loop/` (relay/layout.rs).
const RELAY_LOCK: &str = ".relay.lock";

/// What the relay makes at `rel` (the names below its folder).
pub(super) fn made_in_relay(rel: &[&str]) -> Made {
    match rel {
        [] | ["packets" | "loop"] | ["loop", RELAY_LOCK] => Made::Folder,
        [".gitattributes"] => Made::Rules,
        ["packets", "latest.md"]
        | ["loop", "loop_state.md" | "NEEDS-HUMAN"]
        | ["loop", RELAY_LOCK, super::LOCK_OWNER] => Made::File,
        ["loop", "STOP" | "verify-on-resume.sh"] => Made::Read,
        _ => Made::Nothing,
    }
}

/// `checkpoint-YYYY-MM-DD.resolved.md`, or with `-N` after the date (checkpoint.rs, `resolve`).
fn is_resolved_checkpoint(name: &str) -> bool {
    let Some(rest) = name
        .strip_prefix("checkpoint-")
        .and_then(|r| r.strip_suffix(".resolved.md"))
    else {
        return false;
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let (date, n) = match rest.get(10..) {
        Some("") => (rest, None),
        Some(tail) => (&rest[..10], Some(tail.strip_prefix('-').unwrap_or(""))),
        None => return false,
    };
    let d: Vec<&str> = date.split('-').collect();
    matches!(d[..], [y, m, dd] if y.len() == 4 && m.len() == 2 && dd.len() == 2 && digits(y) && digits(m) && digits(dd))
        && n.is_none_or(digits)
}

/// `oracle-<digits>-<lowercase letters or digits>.json` (detach.rs, `valid_session_id`).
fn is_pending_record(name: &str) -> bool {
    let Some(id) = name.strip_suffix(".json") else {
        return false;
    };
    let Some((n, tag)) = id.strip_prefix("oracle-").and_then(|r| r.split_once('-')) else {
        return false;
    };
    id.len() <= 100
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
        && !tag.is_empty()
        && tag
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their folders directly
mod tests {
    use super::super::{made, remove, survey, Folder, Made};
    use crate::core::fsx;

    fn at(folder: Folder, rel: &str) -> Made {
        made(folder, &rel.split('/').collect::<Vec<_>>())
    }

    #[test]
    fn clean_inventory_names_what_the_bridge_writes_and_nothing_else() {
        let b = |rel| at(Folder::Bridge, rel);
        for file in [
            "decisions.md",
            "conventions.md",
            "progress.md",
            "session-log.md",
            "instincts.md",
            "cumulative-notes.md",
            "task-notes.md",
            "learnings.jsonl",
            "checkpoint.md",
            "checkpoint-2026-11-30.resolved.md",
            "checkpoint-2026-11-30-12.resolved.md",
            ".append-journal",
            "..append-journal.tmp.12.3",
            ".decisions.md.tmp.12.3",
            ".checkpoint.md.tmp.1.2",
            "..gitignore.tmp.1.2",
            ".baton-doctor-4242",
            "oracle-pending/oracle-1764497700-a1.json",
            "oracle-pending/.oracle-1764497700-a1.json.tmp.9.9",
            "oracle-pending/..gitignore.tmp.9.9",
        ] {
            assert_eq!(b(file), Made::File, "{file}");
        }
        assert_eq!(b("oracle-pending"), Made::Folder);
        assert_eq!(b("oracle-pending/.gitignore"), Made::Mark);
        assert_eq!(b(".gitignore"), Made::Rules);
        assert_eq!(b(".gitattributes"), Made::Rules);
        assert_eq!(b("INVARIANTS.md"), Made::Read);
        for other in [
            "notes.md",
            "metrics",
            "metrics/skills.json",
            "decisions.md/x",
            "checkpoint-2026-11-30.md",
            "checkpoint-2026-1-30.resolved.md",
            "checkpoint-2026-11-30-.resolved.md",
            "checkpoint-2026-11-30-x.resolved.md",
            "checkpoint.pending.s1.md",
            ".INVARIANTS.md.tmp.1.2",
            ".notes.md.tmp.1.2",
            ".baton-doctor-",
            ".rune.lock",
            ".baton.lock",
            "oracle-pending/mine.json",
            "oracle-pending/oracle-1-UP.json",
            "oracle-pending/oracle--a.json",
            "oracle-pending/decisions.md",
            "oracle-pending/.gitattributes",
            "drafts/.gitignore",
            "session-log.1.md",
        ] {
            assert_eq!(b(other), Made::Nothing, "{other}");
        }
    }

    #[test]
    fn clean_inventory_names_what_the_relay_writes_and_nothing_else() {
        let r = |rel| at(Folder::Relay, rel);
        for file in [
            "packets/latest.md",
            "packets/.latest.md.tmp.5.1",
            "loop/loop_state.md",
            "loop/.loop_state.md.tmp.5.1",
            "loop/NEEDS-HUMAN",
            "loop/.relay.lock/owner",
            ".baton-doctor-77",
            "..gitattributes.tmp.5.1",
        ] {
            assert_eq!(r(file), Made::File, "{file}");
        }
        for dir in ["packets", "loop", "loop/.relay.lock"] {
            assert_eq!(r(dir), Made::Folder, "{dir}");
        }
        assert_eq!(r(".gitattributes"), Made::Rules);
        assert_eq!(r("loop/STOP"), Made::Read);
        assert_eq!(r("loop/verify-on-resume.sh"), Made::Read);
        for other in [
            "notes.md",
            ".gitignore",
            "packets/older.md",
            "packets/latest.md/x",
            "latest.md",
            "loop_state.md",
            "loop/notes.md",
            "loop/.STOP.tmp.1.1",
            "loop/.relay.lock/notes",
            ".relay.lock",
            "loop/.gitattributes",
        ] {
            assert_eq!(r(other), Made::Nothing, "{other}");
        }
    }

    #[test]
    fn clean_inventory_takes_the_memorys_rules_and_keeps_a_private_folders_mark_with_what_stays() {
        let t = tempfile::tempdir().unwrap();
        let root = t.path();
        let rune = root.join(".rune");
        let pending = rune.join("oracle-pending");
        std::fs::create_dir_all(&pending).unwrap();
        let marked = format!("{}: x\n*\n", fsx::BATONS_MARK);
        std::fs::write(rune.join(".gitignore"), &marked).unwrap();
        std::fs::write(rune.join(".gitattributes"), "# Rune's own\n*.md text\n").unwrap();
        std::fs::write(rune.join("decisions.md"), "# Decisions Log\n").unwrap();
        std::fs::write(pending.join(".gitignore"), &marked).unwrap();
        std::fs::write(pending.join("oracle-1-a.json"), "{}").unwrap();
        std::fs::write(pending.join("mine.json"), "{}").unwrap();
        let s = survey(root, &rune, Folder::Bridge);
        let stays: Vec<(&str, &str)> = s.stays.iter().map(|s| (s.path.as_str(), s.why)).collect();
        assert_eq!(
            stays,
            [
                (
                    ".rune/.gitattributes",
                    "baton did not write it (it lacks baton's mark)"
                ),
                (
                    ".rune/oracle-pending/mine.json",
                    "a file baton does not write here"
                ),
            ]
        );
        assert!(!remove(root, &s).unwrap());
        // The memory's rules name only baton's files: they went with them. The pending
        // folder's mark keeps what stays there out of git.
        assert!(!rune.join(".gitignore").exists() && !rune.join("decisions.md").exists());
        assert!(!pending.join("oracle-1-a.json").exists());
        assert!(pending.join(".gitignore").is_file() && pending.join("mine.json").is_file());
        std::fs::remove_file(pending.join("mine.json")).unwrap();
        std::fs::remove_file(rune.join(".gitattributes")).unwrap();
        let s = survey(root, &rune, Folder::Bridge);
        assert!(s.stays.is_empty(), "{:?}", s.stays);
        assert!(remove(root, &s).unwrap());
        assert!(!rune.exists());
    }
}
