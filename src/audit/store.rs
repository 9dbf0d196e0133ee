//! Where the audit keeps its files, and the session files themselves: `session.json`,
//! `.current_session`, session ids.
//!
//! ```text
//! .boo/                      0700, `.gitignore` with `*` unless `audit.shared`
//!   index.json               one entry per session (see index.rs)
//!   index.journal.jsonl      the hooks' changes to it since it was written (index_file.rs)
//!   persisted.jsonl          `baton audit persist` marks
//!   reports/daily_YYYYMMDD.md
//!   runs/.current_session    the current session's id
//!   runs/<id>/session.json   task, times, status
//!   runs/<id>/audit_buffer.jsonl   hot-path appends
//!   runs/<id>/audit_pending.jsonl  buffer moved here at Stop / PreCompact / SessionEnd
//!   runs/<id>/audit_trail.jsonl    everything, once, at `baton audit end`
//!   runs/<id>/summary.json         running figures of what moved (sidecar.rs)
//!   runs/<id>/session_summary.md
//! ```
//!
//! `baton clean` removes from this folder only what its inventory lists
//! (src/clean/inventory.rs): a new file written here is added there too.

use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::fsx;
use chrono::{DateTime, SubsecRound, Utc};
use serde::{Deserialize, Serialize};
use std::any::Any;
use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// File names inside a run directory.
pub(crate) const BUFFER: &str = "audit_buffer.jsonl";
pub(crate) const PENDING: &str = "audit_pending.jsonl";
pub(crate) const TRAIL: &str = "audit_trail.jsonl";
pub(crate) const SESSION: &str = "session.json";
pub(crate) const SUMMARY: &str = "session_summary.md";
pub(crate) const SIDECAR: &str = "summary.json";

/// The statuses a session can have.
pub(crate) const STATUSES: [&str; 3] = ["in_progress", "completed", "abandoned"];

/// The task of a session the hooks started on their own (`audit.auto_start`), until
/// `/baton:start` names it.
pub(crate) const AUTO_TASK: &str = "(auto)";

/// `started_by` of a session the hooks began.
pub(crate) const AUTO_STARTER: &str = "auto";

/// How long a command or hook waits for the audit's locks (session start and end, the index).
pub(crate) const LOCK_WAIT: Duration = Duration::from_secs(5);

/// The audit's directory layout for one project.
#[derive(Debug)]
pub(crate) struct Store {
    /// The project root: every folder below it is checked for links on the way.
    pub(crate) root: PathBuf,
    /// `.boo/` (absolute).
    pub(crate) dir: PathBuf,
    /// Whether the trail is meant to be committed (`audit.shared`).
    pub(crate) shared: bool,
    /// What `index::recent` read, with this run's own changes to the index applied since,
    /// so a hook reads the index's end and journal once however many of its steps ask. The
    /// index owns the type; a clone starts without it.
    pub(crate) recent: RefCell<Option<Box<dyn Any + Send>>>,
}

impl Clone for Store {
    fn clone(&self) -> Store {
        Store {
            root: self.root.clone(),
            dir: self.dir.clone(),
            shared: self.shared,
            recent: RefCell::default(),
        }
    }
}

impl Store {
    pub(crate) fn new(root: &Path, config: &Config) -> Store {
        Store {
            root: root.to_path_buf(),
            dir: root.join(&config.paths.audit),
            shared: config.audit.shared,
            recent: RefCell::new(None),
        }
    }

    pub(crate) fn runs(&self) -> PathBuf {
        self.dir.join("runs")
    }

    pub(crate) fn current_file(&self) -> PathBuf {
        self.runs().join(".current_session")
    }

    /// The id of the session `end` ended last (so the prompt or tool call that ran `end`,
    /// which Claude Code reports after it, joins that session instead of starting one).
    pub(crate) fn last_ended_file(&self) -> PathBuf {
        self.runs().join(".last_ended")
    }

    pub(crate) fn index_file(&self) -> PathBuf {
        self.dir.join("index.json")
    }

    pub(crate) fn persisted_file(&self) -> PathBuf {
        self.dir.join("persisted.jsonl")
    }

    pub(crate) fn reports(&self) -> PathBuf {
        self.dir.join("reports")
    }

    /// The run directory of `id` (validated; no link from the project root down to it, so
    /// a `.boo/runs/<id>` linked elsewhere is refused before anything is written there).
    pub(crate) fn run_dir(&self, id: &str) -> Result<PathBuf> {
        fsx::validate_component("session id", id)?;
        let dir = self.runs().join(id);
        fsx::check_inside(&self.root, &dir)?;
        Ok(dir)
    }

    /// The mode of files the audit writes.
    pub(crate) fn file_mode(&self) -> u32 {
        if self.shared {
            fsx::SHARED_FILE
        } else {
            fsx::PRIVATE_FILE
        }
    }

    /// Creates `.boo/` and `runs/` (0700) and keeps them out of git unless shared.
    pub(crate) fn ensure(&self) -> Result<()> {
        fsx::ensure_private_dir_in(&self.root, &self.dir)?;
        if self.shared {
            // Shared trails are merged by git's union driver; ids collapse duplicates on read.
            // A session's summary.json is derived: merged the same way it stops matching the
            // files and is rebuilt, instead of stopping a merge with a conflict.
            let attributes = self.dir.join(".gitattributes");
            if std::fs::symlink_metadata(&attributes).is_err() {
                fsx::atomic_write(
                    &attributes,
                    b"*.jsonl merge=union\nsummary.json merge=union\n",
                    fsx::SHARED_FILE,
                )?;
            }
        } else {
            fsx::keep_out_of_git(&self.dir)?;
        }
        fsx::ensure_private_dir_in(&self.root, &self.runs())
    }

    /// The current session's id, if one is set (and valid).
    pub(crate) fn current(&self) -> Result<Option<String>> {
        let path = self.current_file();
        fsx::refuse_symlink(&path)?;
        match fsx::read_limited(&path, fsx::Limit::POINTER)? {
            Some(text) => {
                let id = text.trim();
                if id.is_empty() {
                    return Ok(None);
                }
                fsx::validate_component("session id in .current_session", id)?;
                Ok(Some(id.to_string()))
            }
            None => Ok(None),
        }
    }

    pub(crate) fn set_current(&self, id: &str) -> Result<()> {
        self.set_pointer(&self.current_file(), id)
    }

    /// The session `end` ended last, if the pointer names a valid id.
    pub(crate) fn last_ended(&self) -> Option<String> {
        let path = self.last_ended_file();
        fsx::refuse_symlink(&path).ok()?;
        let text = fsx::read_limited(&path, fsx::Limit::POINTER).ok()??;
        let id = text.trim();
        fsx::validate_component("session id", id).ok()?;
        Some(id.to_string())
    }

    pub(crate) fn set_last_ended(&self, id: &str) -> Result<()> {
        self.set_pointer(&self.last_ended_file(), id)
    }

    /// Writes session id `id` to the pointer file `path` under `runs/`. Its temp file is made
    /// in `.boo/`: `runs/` holds a folder per session ever recorded.
    ///
    /// Not synced, as its removal (`clear_current`) never was: after a power loss the
    /// pointer may be empty (no session current) or name the session before, and every
    /// reader takes both (an ended session's pointer is cleared at the next start, records
    /// appended to it after its end go to its trail). The session itself is durable:
    /// `session.json` and its index line are synced before the pointer is written
    /// (`lifecycle::begin`), so a session the pointer lost is listed as unfinished at the
    /// next start, and an automatic one is closed as abandoned. Two fsyncs fewer at every
    /// session start (the synced write took 0.45–0.66 ms on the 2-core VM).
    fn set_pointer(&self, path: &Path, id: &str) -> Result<()> {
        fsx::check_inside(&self.root, &self.runs())?;
        fsx::replace_file_staged(
            path,
            &self.dir,
            format!("{id}\n").as_bytes(),
            self.file_mode(),
        )
    }

    pub(crate) fn clear_current(&self) -> Result<()> {
        match std::fs::remove_file(self.current_file()) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
            Err(e) => Err(Error::io("remove", &self.current_file(), e)),
        }
    }

    /// The lock that serialises session creation (`start`, the hooks' automatic start): on
    /// `runs/` itself. `ensure` first.
    pub(crate) fn start_lock(&self) -> Result<fsx::FolderLock> {
        fsx::FolderLock::acquire(&self.runs(), LOCK_WAIT)
    }

    /// The lock that serialises writes to the session index and its journal: on `.boo/`
    /// itself. `ensure` first.
    pub(crate) fn index_lock(&self) -> Result<fsx::FolderLock> {
        fsx::FolderLock::acquire(&self.dir, LOCK_WAIT)
    }

    /// The lock that serialises ending session `id`: on its run folder itself.
    pub(crate) fn end_lock(&self, id: &str) -> Result<fsx::FolderLock> {
        fsx::FolderLock::acquire(&self.run_dir(id)?, LOCK_WAIT)
    }

    /// Every session id that has a run directory, sorted.
    pub(crate) fn session_ids(&self) -> Vec<String> {
        let mut ids: Vec<String> = std::fs::read_dir(self.runs())
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| e.file_name().into_string().ok())
            .filter(|n| fsx::validate_component("id", n).is_ok())
            .collect();
        ids.sort();
        ids
    }
}

/// `session.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct SessionMeta {
    pub(crate) session_id: String,
    pub(crate) task: String,
    /// Whole seconds (`2026-11-30T10:15:00Z`): `new` drops the fraction.
    pub(crate) start_time: DateTime<Utc>,
    pub(crate) status: String,
    #[serde(default)]
    pub(crate) expected_record_types: Vec<String>,
    /// Whole seconds, as `start_time`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) end_time: Option<DateTime<Utc>>,
    /// HEAD when the session started (for the integrity check); none when unknown.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) git_head: Option<String>,
    /// Paths already dirty in git when the session started.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) git_dirty_at_start: Vec<String>,
    /// Where `git_head` and `git_dirty_at_start` come from: `start` (read when the session
    /// began) or `derived` (worked out by `end` from the start time, for a session a
    /// tool-call hook started, which reads no git); none: not recorded yet.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) git_baseline: Option<String>,
    /// How the session began: `start` (by command) or `auto`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) started_by: Option<String>,
    /// The Claude Code session it began in (the hook event's `session_id`, or
    /// `CLAUDE_CODE_SESSION_ID` for `start`). An automatic session belongs to it: it ends
    /// with that Claude session, and `/baton:start` names it only from there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) claude_session: Option<String>,
    /// What the integrity check at `end` found (empty: passed; none: not checked yet). Kept
    /// here as well as in the index so a rebuilt index does not turn failures into passes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) integrity: Option<Vec<String>>,
}

impl SessionMeta {
    /// A session starting `now`. The start is kept to the second: chrono writes a fraction
    /// when there is one, and session.json and the index have always held whole seconds.
    pub(crate) fn new(id: &str, task: &str, now: DateTime<Utc>) -> SessionMeta {
        SessionMeta {
            session_id: id.to_string(),
            task: task.to_string(),
            start_time: now.trunc_subsecs(0),
            status: "in_progress".into(),
            expected_record_types: vec!["data".into(), "change".into(), "conversation".into()],
            end_time: None,
            git_head: None,
            git_dirty_at_start: Vec::new(),
            git_baseline: None,
            started_by: None,
            claude_session: None,
            integrity: None,
        }
    }

    /// Whether the hooks started it and nobody has named it yet.
    pub(crate) fn is_auto(&self) -> bool {
        self.started_by.as_deref() == Some(AUTO_STARTER)
    }

    /// Whether the status is one the audit knows.
    pub(crate) fn status_ok(&self) -> bool {
        STATUSES.contains(&self.status.as_str())
    }
}

/// Reads `session.json` of `id`. A bad file is an error that names it; a status that is not
/// one of the known ones is kept (callers report it via `status_ok`).
pub(crate) fn read_meta(store: &Store, id: &str) -> Result<SessionMeta> {
    let path = store.run_dir(id)?.join(SESSION);
    fsx::refuse_symlink(&path)?;
    let text = fsx::read_limited(&path, fsx::Limit::STATE)?.ok_or_else(|| {
        Error::io(
            "read",
            &path,
            std::io::Error::from(std::io::ErrorKind::NotFound),
        )
    })?;
    serde_json::from_str(&text).map_err(|e| Error::Malformed {
        message: format!(
            "{} is not a valid session file ({e}); fix or remove it",
            path.display()
        ),
        path,
    })
}

pub(crate) fn write_meta(store: &Store, meta: &SessionMeta) -> Result<()> {
    let path = store.run_dir(&meta.session_id)?.join(SESSION);
    let mut text = serde_json::to_string_pretty(meta)
        .map_err(|e| Error::Internal(format!("serialize session.json: {e}")))?;
    text.push('\n');
    fsx::atomic_write(&path, text.as_bytes(), store.file_mode())
}

/// A new session id `adhoc_YYYYMMDD_HHMM`, with `_2`, `_3` … when taken. Creates its run
/// directory (the creation is what claims the id).
pub(crate) fn claim_new_id(store: &Store, now: DateTime<Utc>) -> Result<String> {
    store.ensure()?;
    fsx::check_inside(&store.root, &store.runs())?;
    let base = format!("adhoc_{}", now.format("%Y%m%d_%H%M"));
    for n in 1..1000 {
        let id = if n == 1 {
            base.clone()
        } else {
            format!("{base}_{n}")
        };
        let dir = store.runs().join(&id);
        match std::fs::create_dir(&dir) {
            Ok(()) => {
                fsx::ensure_private_dir_in(&store.root, &dir)?;
                return Ok(id);
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(Error::io("create directory", &dir, e)),
        }
    }
    Err(Error::Invalid(format!(
        "999 sessions named {base}_* exist already; end or remove some under {}",
        store.runs().display()
    )))
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    fn store(t: &Path) -> Store {
        Store {
            root: t.to_path_buf(),
            dir: t.join(".boo"),
            shared: false,
            recent: std::cell::RefCell::default(),
        }
    }

    #[test]
    fn ids_get_suffixes_and_dirs_are_private() {
        use std::os::unix::fs::PermissionsExt;
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let now = "2026-11-30T10:15:00Z".parse().unwrap();
        assert_eq!(claim_new_id(&s, now).unwrap(), "adhoc_20261130_1015");
        assert_eq!(claim_new_id(&s, now).unwrap(), "adhoc_20261130_1015_2");
        let mode = std::fs::metadata(s.runs().join("adhoc_20261130_1015"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o700);
        assert!(s.dir.join(".gitignore").exists());
    }

    #[test]
    fn current_session_round_trip_and_bad_id() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        s.ensure().unwrap();
        assert_eq!(s.current().unwrap(), None);
        s.set_current("adhoc_20261130_1015").unwrap();
        assert_eq!(s.current().unwrap().as_deref(), Some("adhoc_20261130_1015"));
        std::fs::write(s.current_file(), "../etc\n").unwrap();
        assert!(s.current().is_err());
        s.clear_current().unwrap();
        s.clear_current().unwrap();
    }

    /// chrono's serde writes a fraction of a second when there is one; session.json has always
    /// held whole seconds, and older files (any RFC 3339 offset) still read.
    #[test]
    fn session_times_are_whole_seconds_and_old_files_read() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let now = "2026-11-30T10:15:00.750Z".parse().unwrap();
        let id = claim_new_id(&s, now).unwrap();
        let mut m = SessionMeta::new(&id, "t", now);
        m.end_time = Some(m.start_time);
        write_meta(&s, &m).unwrap();
        let text = std::fs::read_to_string(s.runs().join(&id).join(SESSION)).unwrap();
        assert!(
            text.contains("\"start_time\": \"2026-11-30T10:15:00Z\""),
            "{text}"
        );
        assert!(
            text.contains("\"end_time\": \"2026-11-30T10:15:00Z\""),
            "{text}"
        );
        std::fs::write(
            s.runs().join(&id).join(SESSION),
            "{\"session_id\":\"x\",\"task\":\"t\",\"start_time\":\"2026-11-30T11:15:00+01:00\",\"status\":\"in_progress\",\"end_time\":null}",
        )
        .unwrap();
        let back = read_meta(&s, &id).unwrap();
        assert_eq!(
            back.start_time,
            "2026-11-30T10:15:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        assert_eq!(back.end_time, None);
    }

    #[test]
    fn bad_status_is_kept_and_flagged() {
        let t = tempfile::tempdir().unwrap();
        let s = store(t.path());
        let now = "2026-11-30T10:15:00Z".parse().unwrap();
        let id = claim_new_id(&s, now).unwrap();
        let mut m = SessionMeta::new(&id, "t", now);
        m.status = "wibble".into();
        write_meta(&s, &m).unwrap();
        let back = read_meta(&s, &id).unwrap();
        assert!(!back.status_ok());
        std::fs::write(s.runs().join(&id).join(SESSION), "{not json").unwrap();
        let e = read_meta(&s, &id).unwrap_err();
        assert!(
            matches!(&e, Error::Malformed { path, .. } if path.ends_with(SESSION)),
            "{e}"
        );
    }
}
