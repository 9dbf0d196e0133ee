//! The producer: writes (or appends a block to) `<sessions>/<ID>.session.md`.
//!
//! Order of work, as the spec's contract says: checks that need no disk (id, layers, claim
//! provenance), then the private folder (0700, kept out of git), the mkdir lock
//! `.lock.<ID>`, the symlink at the target unlinked (T-7), redaction (T-8), the cap, and one
//! atomic write of the whole file (0600): the earlier blocks byte for byte, then the new one.

use super::body;
use super::frontmatter::{self, FrontMatter};
use super::session::{self, MAX_BYTES};
use crate::core::config::Config;
use crate::core::error::{Error, Result};
use crate::core::fsx::{self, MkdirLock, PRIVATE_FILE};
use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::text::one_line;
use crate::core::time;
use chrono::{DateTime, Utc};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// A lock older than this is taken over (its writer died without cleaning up).
const LOCK_STALE_AFTER: Duration = Duration::from_secs(600);

/// The largest front matter a block may have: it is never cut, and the body needs the room.
const MAX_FRONT_MATTER: usize = 4096;

/// One save into the project's sessions folder.
#[derive(Debug, Clone)]
pub(crate) struct Request {
    pub(crate) session_id: String,
    /// `agent` or `operator`.
    pub(crate) captured_by: String,
    /// ISO 8601 UTC.
    pub(crate) captured_at: String,
    pub(crate) recommended_next: String,
    pub(crate) next_action: String,
    pub(crate) active_tasks: Vec<String>,
    pub(crate) body: String,
    pub(crate) lock_timeout: Duration,
}

/// What a save did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Written {
    pub(crate) path: PathBuf,
    /// 1 for a new file, 2 for the first append, …
    pub(crate) block: usize,
    pub(crate) file_bytes: usize,
    pub(crate) redacted: usize,
    /// Parts cut to honour the cap: (part, bytes).
    pub(crate) cut: Vec<(String, usize)>,
    /// A symlink found at the target and removed.
    pub(crate) unlinked_symlink: bool,
}

/// Everything wrong with the request that needs no disk, one line each: the body's required
/// layers, untagged claims, a line that would open a new block.
pub(crate) fn problems(req: &Request) -> Vec<String> {
    let mut out = Vec::new();
    if !session::is_session_id(&req.session_id) {
        out.push(format!(
            "invalid session id {:?}: must match {}, for example SESSION-20261130-101500",
            req.session_id,
            session::ID_REGEX
        ));
    }
    if let Err(e) = DateTime::parse_from_rfc3339(&req.captured_at) {
        out.push(format!(
            "--captured-at {:?} is not an ISO 8601 time ({e}); use the form 2026-11-30T10:15:00Z",
            req.captured_at
        ));
    }
    for (n, name) in [(1, "Git State"), (5, "Failed Approaches")] {
        if !body::has_layer(&req.body, n) {
            out.push(format!(
                "the body has no `## Layer {n} — {name}` heading; Layer 1 and Layer 5 are required (see the 5-layer structure in the session-handoff-writer skill)"
            ));
        }
    }
    for (what, value) in [
        ("--recommended-next", &req.recommended_next),
        ("--next-action", &req.next_action),
    ] {
        if value.trim().is_empty() {
            out.push(format!(
                "{what} is empty; say what the resumed session should do"
            ));
        }
    }
    let front = frontmatter::render(&front_matter(req, one_line)).len();
    if front > MAX_FRONT_MATTER {
        out.push(format!(
            "the front matter would be {front} bytes, over {MAX_FRONT_MATTER}: --recommended-next is {} and --next-action {} characters, with {} active tasks; keep each to one short line (details go in the body) and list only the active tasks",
            req.recommended_next.chars().count(),
            req.next_action.chars().count(),
            req.active_tasks.len()
        ));
    }
    let lines: Vec<&str> = req.body.lines().collect();
    for (i, pair) in lines.windows(2).enumerate() {
        if pair[0].trim_end() == "---" && pair[1].starts_with("artifact:") {
            out.push(format!(
                "body line {}: a `---` line followed by `artifact:` would read as a new block; change one of them",
                i + 1
            ));
        }
    }
    out.extend(
        body::untagged_claims(&req.body, 1)
            .iter()
            .map(|c| format!("body {}", c.describe())),
    );
    out
}

/// Saves one block in the project's sessions folder. Fails with `Error::Invalid` (exit 1)
/// on a bad request or a full file, `Error::LockTimeout` (exit 3) when another save holds
/// the lock.
pub(crate) fn write(req: &Request, project: &Project) -> Result<Written> {
    let config = project.config();
    check_root(&project.root, config)?;
    project.require_state()?;
    session::validate_id(&req.session_id)?;
    if let Some(first) = problems(req).first() {
        return Err(Error::Invalid(first.clone()));
    }
    let dir = session::sessions_dir(project);
    fsx::ensure_private_dir_in(&project.root, &dir)?;
    if !config.handoff.shared {
        fsx::keep_out_of_git(&dir)?;
    }
    // datarim's own writer holds this lock as a bare `mkdir` (no owner file): it is waited
    // for up to DR_SESSION_LOCK_TIMEOUT, never broken (datarim's contract: exit 3).
    let _lock = MkdirLock::acquire_with(
        &session::lock_path(&dir, &req.session_id),
        &fsx::LockOptions {
            timeout: req.lock_timeout,
            stale_after: LOCK_STALE_AFTER,
            ownerless: fsx::Ownerless::Wait,
        },
    )?;
    let path = session::artefact_path(&dir, &req.session_id);
    let unlinked_symlink = unlink_symlink(&path)?;
    let existing = read_existing(&path)?.unwrap_or_default();
    let new = NewBlock::redacted(req, project.redactor());
    let separator = separator(&existing);
    // What the cap cannot cut: the earlier blocks, the separator, the front matter and the
    // line break after it.
    let fixed = existing.len() + separator.len() + new.front.len() + 1;
    let capped = body::cap(&new.body, MAX_BYTES.saturating_sub(fixed)).map_err(|too_big| {
        if existing.is_empty() {
            Error::Invalid(format!(
                "Layer 1 and Layer 5 (never cut) and the headings alone are {} bytes; with the front matter that is over the {MAX_BYTES}-byte cap: shorten Layer 1 or Layer 5",
                too_big.min_bytes
            ))
        } else {
            Error::Invalid(format!(
                "{} is at its cap ({} of {MAX_BYTES} bytes used; this block needs at least {} more): save under a new SESSION-ID, for example --session {}; the earlier blocks stay as they are",
                session::display_path(&project.root, &path),
                existing.len(),
                fixed - existing.len() + too_big.min_bytes,
                next_free_id(&dir, project.now())
            ))
        }
    })?;
    let block = if existing.is_empty() {
        1
    } else {
        1 + frontmatter::split_blocks(&existing)
            .iter()
            .filter(|b| b.front.is_some())
            .count()
    };
    let mut text = existing;
    text.push_str(separator);
    text.push_str(&new.front);
    text.push('\n');
    text.push_str(&capped.text);
    fsx::atomic_write(&path, text.as_bytes(), PRIVATE_FILE)?;
    Ok(Written {
        path,
        block,
        file_bytes: text.len(),
        redacted: new.redacted,
        cut: capped.cut,
        unlinked_symlink,
    })
}

/// The new block, redacted (T-8), before the cap.
struct NewBlock {
    /// The front matter, both fences included.
    front: String,
    /// The body, ending with a line break.
    body: String,
    /// How many secrets were replaced in both.
    redacted: usize,
}

impl NewBlock {
    fn redacted(req: &Request, redactor: &Redactor) -> NewBlock {
        let mut redacted = 0;
        let front = frontmatter::render(&front_matter(req, |text: &str| {
            let r = redactor.redact(&one_line(text));
            redacted += r.count;
            r.text
        }));
        let body = redactor.redact(&req.body);
        let mut text = body.text;
        if !text.ends_with('\n') {
            text.push('\n');
        }
        NewBlock {
            front,
            body: text,
            redacted: redacted + body.count,
        }
    }
}

/// What goes between the earlier blocks and a new one: nothing in a new file, else a blank
/// line (two line breaks when the file does not end with one).
fn separator(existing: &str) -> &'static str {
    if existing.is_empty() {
        ""
    } else if existing.ends_with('\n') {
        "\n"
    } else {
        "\n\n"
    }
}

/// The block's front matter; `clean` makes each free-text value one safe line.
fn front_matter(req: &Request, mut clean: impl FnMut(&str) -> String) -> FrontMatter {
    FrontMatter {
        session_id: req.session_id.clone(),
        captured_at: utc_time(&req.captured_at),
        captured_by: clean(&req.captured_by),
        recommended_next: clean(&req.recommended_next),
        next_action: clean(&req.next_action),
        active_tasks: req.active_tasks.iter().map(|t| clean(t)).collect(),
    }
}

/// An ISO 8601 time as datarim writes it, in UTC to the second (`2026-11-30T10:15:00Z`);
/// a value that does not parse is returned as it is (`problems` reports it).
fn utc_time(raw: &str) -> String {
    DateTime::parse_from_rfc3339(raw).map_or_else(
        |_| raw.to_string(),
        |t| time::rfc3339(t.with_timezone(&Utc)),
    )
}

/// The root must be a directory, and not one a save would misplace (T-4).
fn check_root(root: &Path, config: &Config) -> Result<()> {
    if !root.is_dir() {
        return Err(Error::Invalid(format!(
            "root is not a directory: {}; pass the repository root with --root",
            root.display()
        )));
    }
    refuse_nested_root(root, config)
}

/// T-4: a root inside a `datarim/` folder (a consumer that passed `<repo>/datarim` for the
/// repository) would write `datarim/datarim/sessions/`; a root with `..` could go anywhere.
fn refuse_nested_root(root: &Path, config: &Config) -> Result<()> {
    use std::path::Component;
    let components: Vec<Component<'_>> = root.components().collect();
    if components.contains(&Component::ParentDir) {
        return Err(Error::Invalid(format!(
            "root {} contains `..`; pass the repository root as a plain path",
            root.display()
        )));
    }
    let store_in_datarim = config
        .paths
        .handoff
        .components()
        .next()
        .is_some_and(|c| c.as_os_str() == "datarim");
    if store_in_datarim
        && components
            .iter()
            .any(|c| c.as_os_str() == std::ffi::OsStr::new("datarim"))
    {
        return Err(Error::Invalid(format!(
            "root {} is inside a datarim/ folder (the save would go to datarim/datarim/); pass the repository root, the parent of datarim/",
            root.display()
        )));
    }
    Ok(())
}

/// T-7: a symlink at the target is removed, never followed; what it pointed to is untouched.
fn unlink_symlink(path: &Path) -> Result<bool> {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            std::fs::remove_file(path).map_err(|e| Error::io("unlink symlink", path, e))?;
            Ok(true)
        }
        _ => Ok(false),
    }
}

/// The artefact so far (`None` when there is none).
fn read_existing(path: &Path) -> Result<Option<String>> {
    match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io("inspect", path, e)),
        Ok(m) if !m.is_file() => {
            return Err(Error::Invalid(format!(
                "{} exists and is not a regular file; move it away and save again",
                path.display()
            )))
        }
        Ok(_) => {}
    }
    let bytes = fsx::read_bytes_limited(path, fsx::Limit::DOCUMENT)?.unwrap_or_default();
    String::from_utf8(bytes)
        .map(Some)
        .map_err(|_| Error::Malformed {
            path: path.into(),
            message: format!(
                "{} is not UTF-8 text; save under a new SESSION-ID",
                path.display()
            ),
        })
}

/// A session id for `now` whose artefact does not exist yet.
pub(crate) fn next_free_id(dir: &Path, now: DateTime<Utc>) -> String {
    let mut at = now;
    for _ in 0..120 {
        let id = session::id_for(at);
        if std::fs::symlink_metadata(session::artefact_path(dir, &id)).is_err() {
            return id;
        }
        at += chrono::Duration::seconds(1);
    }
    session::id_for(at)
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    fn req(body: &str) -> Request {
        Request {
            session_id: "SESSION-20261130-101500".into(),
            captured_by: "agent".into(),
            captured_at: "2026-11-30T10:15:00Z".into(),
            recommended_next: "/dr-next TUNE-0420".into(),
            next_action: "Continue.".into(),
            active_tasks: vec!["TUNE-0420".into()],
            body: body.into(),
            lock_timeout: Duration::from_millis(200),
        }
    }

    /// A project in `root`, made a git work tree (baton keeps no state outside one).
    fn project(root: &Path) -> Project {
        std::fs::create_dir_all(root.join(".git")).unwrap();
        Project::for_test(root, None)
    }

    const BODY: &str =
        "## Layer 1 — Git State\nHEAD: abc1234\n\n## Layer 5 — Failed Approaches\nNone.\n";

    #[test]
    fn problems_name_what_is_wrong() {
        assert!(problems(&req(BODY)).is_empty());
        let p = problems(&req("## Layer 1\nPR merged.\n---\nartifact: x\n"));
        assert_eq!(p.len(), 3, "{p:?}");
        assert!(p[0].contains("Layer 5"), "{p:?}");
        assert!(p[1].contains("body line 3"), "{p:?}");
        assert!(
            p[2].contains("line 2: untagged claim (\"merged\")"),
            "{p:?}"
        );
        let mut r = req(BODY);
        r.captured_at = "yesterday".into();
        r.next_action = "  ".into();
        let p = problems(&r);
        assert!(p[0].contains("--captured-at"), "{p:?}");
        assert!(p[1].contains("--next-action is empty"), "{p:?}");
    }

    #[test]
    fn captured_at_is_utc_and_the_front_matter_is_bounded() {
        assert_eq!(
            utc_time("2026-11-30T12:15:00.5+02:00"),
            "2026-11-30T10:15:00Z"
        );
        assert_eq!(utc_time("2026-11-30T10:15:00Z"), "2026-11-30T10:15:00Z");
        assert_eq!(utc_time("soon"), "soon");
        let t = tempfile::tempdir().unwrap();
        let mut r = req(BODY);
        r.next_action = "x".repeat(MAX_FRONT_MATTER);
        let p = problems(&r);
        assert!(p[0].contains("front matter would be"), "{p:?}");
        assert!(write(&r, &project(t.path())).is_err());
    }

    #[test]
    fn append_keeps_earlier_bytes_and_counts_blocks() {
        let t = tempfile::tempdir().unwrap();
        let project = project(t.path());
        let w1 = write(&req(BODY), &project).unwrap();
        assert_eq!(w1.block, 1);
        let first = std::fs::read_to_string(&w1.path).unwrap();
        let mut r2 = req(BODY);
        r2.next_action = "Second.".into();
        let w2 = write(&r2, &project).unwrap();
        assert_eq!(w2.block, 2);
        let both = std::fs::read_to_string(&w2.path).unwrap();
        assert!(both.starts_with(&first));
        assert!(both[first.len()..].starts_with("\n---\nartifact: session-handoff\n"));
        let w3 = write(&r2, &project).unwrap();
        assert_eq!(w3.block, 3);
    }

    #[test]
    fn next_free_id_skips_taken_ones() {
        let t = tempfile::tempdir().unwrap();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        assert_eq!(next_free_id(t.path(), now), "SESSION-20261130-101500");
        std::fs::write(t.path().join("SESSION-20261130-101500.session.md"), "x").unwrap();
        assert_eq!(next_free_id(t.path(), now), "SESSION-20261130-101501");
    }
}
