//! Session ids and where their artefacts live.
//!
//! An id is `SESSION-YYYYMMDD-HHMMSS` (the spec's T-1 regex `^SESSION-[0-9]{8}-[0-9]{6}$`); it
//! is checked before it becomes a path. The artefact of a session is
//! `<paths.handoff>/<ID>.session.md` (default `datarim/sessions/`). `baton clean` removes
//! from that folder only what its inventory lists (src/clean/inventory.rs): a new file
//! written there is added there too.

use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};

/// The spec's size cap of one artefact file, in bytes.
pub(crate) const MAX_BYTES: usize = 32_768;

/// The regex a session id must match (for messages).
pub(crate) const ID_REGEX: &str = "^SESSION-[0-9]{8}-[0-9]{6}$";

/// The suffix of an artefact file.
const SUFFIX: &str = ".session.md";

/// Whether `id` matches `^SESSION-[0-9]{8}-[0-9]{6}$`.
pub(crate) fn is_session_id(id: &str) -> bool {
    let b = id.as_bytes();
    b.len() == 23
        && id.starts_with("SESSION-")
        && b[8..16].iter().all(u8::is_ascii_digit)
        && b[16] == b'-'
        && b[17..].iter().all(u8::is_ascii_digit)
}

/// Checks `id`; the error says what a valid id looks like.
pub(crate) fn validate_id(id: &str) -> Result<()> {
    if is_session_id(id) {
        Ok(())
    } else {
        Err(Error::InvalidId {
            what: "session id",
            value: id.to_string(),
            reason: "must match ^SESSION-[0-9]{8}-[0-9]{6}$, for example SESSION-20261130-101500",
        })
    }
}

/// The id for a save at `at`.
pub(crate) fn id_for(at: DateTime<Utc>) -> String {
    at.format("SESSION-%Y%m%d-%H%M%S").to_string()
}

/// `YYYY-MM-DD HH:MM` from the timestamp inside the id (never from the clock: a second
/// clock reading would be a second identifier).
pub(crate) fn saved_time(id: &str) -> Option<String> {
    if !is_session_id(id) {
        return None;
    }
    let d = &id[8..16];
    let t = &id[17..];
    Some(format!(
        "{}-{}-{} {}:{}",
        &d[..4],
        &d[4..6],
        &d[6..],
        &t[..2],
        &t[2..4]
    ))
}

/// The project's sessions folder (`paths.handoff`, default `datarim/sessions/`).
pub(crate) fn sessions_dir(project: &Project) -> PathBuf {
    sessions_dir_at(&project.root, project.config())
}

/// The sessions folder of `root` under `config`: another repository's, for `check --root`.
pub(crate) fn sessions_dir_at(root: &Path, config: &Config) -> PathBuf {
    root.join(&config.paths.handoff)
}

/// The artefact path of `id` in `dir` (the id must be valid).
pub(crate) fn artefact_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!("{id}{SUFFIX}"))
}

/// The lock directory of `id` in `dir`.
pub(crate) fn lock_path(dir: &Path, id: &str) -> PathBuf {
    dir.join(format!(".lock.{id}"))
}

/// The path shown to the user: relative to the root when it is inside it.
pub(crate) fn display_path(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
}

/// The ids of the saved sessions in `dir` (regular files only, never symlinks), newest first.
/// The id embeds its time, so the newest id is the newest session.
pub(crate) fn list(dir: &Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut ids: Vec<String> = entries
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let id = name.strip_suffix(SUFFIX)?;
            is_session_id(id).then(|| id.to_string())
        })
        .collect();
    ids.sort_unstable_by(|a, b| b.cmp(a));
    ids
}

/// The id of artefact `id` as a resume point (`core::resume_log`).
pub(crate) fn point_id(id: &str) -> String {
    format!("handoff:{id}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_checked_by_the_spec_regex() {
        for ok in ["SESSION-20261130-101500", "SESSION-00000000-000000"] {
            assert!(is_session_id(ok), "{ok}");
            validate_id(ok).unwrap();
        }
        for bad in [
            "",
            "SESSION-../../etc/passwd",
            "not-a-session-id",
            "SESSION-2026113-101500",
            "SESSION-20261130-1015000",
            "session-20261130-101500",
            "SESSION-20261130_101500",
            "SESSION-2026113a-101500",
            "SESSION-20261130-101500/",
            "SESSION-٢٠٢٦١١٣٠-101500",
        ] {
            assert!(!is_session_id(bad), "{bad}");
            let e = validate_id(bad).unwrap_err();
            assert!(matches!(e, Error::InvalidId { .. }), "{e}");
        }
    }

    #[test]
    fn saved_time_comes_from_the_id() {
        assert_eq!(
            saved_time("SESSION-20261225-093045").as_deref(),
            Some("2026-12-25 09:30")
        );
        assert_eq!(saved_time("SESSION-x"), None);
        let at = DateTime::parse_from_rfc3339("2026-11-30T10:15:07Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(id_for(at), "SESSION-20261130-101507");
    }

    #[test]
    fn list_is_newest_first_and_skips_symlinks_and_strangers() {
        let t = tempfile::tempdir().unwrap();
        for name in [
            "SESSION-20261130-101500.session.md",
            "SESSION-20261201-000000.session.md",
            "SESSION-20250101-000000.session.md",
            "notes.md",
            "SESSION-bad.session.md",
        ] {
            std::fs::write(t.path().join(name), "x").unwrap();
        }
        std::os::unix::fs::symlink(
            t.path().join("notes.md"),
            t.path().join("SESSION-20991231-000000.session.md"),
        )
        .unwrap();
        assert_eq!(
            list(t.path()),
            vec![
                "SESSION-20261201-000000",
                "SESSION-20261130-101500",
                "SESSION-20250101-000000"
            ]
        );
        assert!(list(&t.path().join("absent")).is_empty());
    }
}
