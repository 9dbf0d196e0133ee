//! Claude Code's transcript of a session: which file that is, and reading only what was added
//! since the last read.
//!
//! **Which file.** The event names the transcript (`transcript_path`), and an event is only
//! JSON on stdin: whoever can run `baton hook` can write any path there. So the path must be
//! where Claude Code itself puts this session's transcript, `<claude>/projects/<dir>/<session
//! id>.jsonl`, where `<claude>` is `CLAUDE_CONFIG_DIR` or `$HOME/.claude` (from the
//! environment, not the event) and `<dir>` is this project's folder name as Claude Code makes
//! it (every character of the project path that is not a letter or digit becomes `-`; a name
//! over 200 characters is cut and gets a hash) — so a transcript of another project is never
//! read, nor any other file. When Claude Code gives `CLAUDE_CODE_SESSION_ID`, the event's
//! session must be that one. A path that fails these checks is not ours: it is skipped
//! without a word. The file itself must then be a regular file reached without a symlink
//! below `<claude>/projects` (no FIFO, no device, no link to elsewhere), owned by the owner of
//! that folder; one that is not is skipped with an error line. One that does not exist yet is
//! skipped quietly: Claude Code writes the transcript lazily (a short session's Stop can come
//! before the file; a session without a prompt never gets one).
//!
//! **What was added.** A `Cursor` (byte offset, the file's identity — device and inode — its
//! size, and a hash of the bytes just before the offset) is kept with the digest. A read
//! continues at the offset when the identity matches and the file did not shrink or change
//! before it; otherwise (a transcript replaced or rewritten) it starts again from the top.
//! The file is streamed from the offset, never held whole; a line over `MAX_LINE` is skipped
//! without being buffered whole; a last line without its newline yet is left for the next
//! read; the read stops at the file's size when it began, and at a deadline.

use crate::core::error::{Error, Result};
use crate::core::event::Common;
use crate::core::fsx;
use crate::core::hash::fnv1a;
use crate::core::paths;
use crate::core::project::Project;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::{FileExt, MetadataExt};
use std::path::{Component, Path, PathBuf};
use std::time::Instant;

/// The longest line read; a longer one is skipped (a pasted image, a huge tool output).
pub(crate) const MAX_LINE: u64 = 1024 * 1024;
/// Bytes before the offset whose hash tells an unchanged file from a rewritten one.
const TAIL: usize = 64;
/// How Claude Code shortens a long project folder name.
const DIR_NAME_MAX: usize = 200;

/// The transcript of the event's session in this project: `Ok(None)` when the event names
/// no transcript of ours (see the module doc), an error when it does but the file cannot be
/// read safely.
pub(crate) fn locate(project: &Project, common: &Common) -> Result<Option<PathBuf>> {
    let sid = common.session_id.as_str();
    if fsx::validate_component("session id", sid).is_err() {
        return Ok(None);
    }
    if project
        .env("CLAUDE_CODE_SESSION_ID")
        .is_some_and(|env_sid| env_sid != sid)
    {
        return Ok(None);
    }
    let (Some(path), Some(claude)) = (&common.transcript_path, paths::claude_dir(&project.ctx.env))
    else {
        return Ok(None);
    };
    let plain = path.is_absolute()
        && path
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
    let projects = claude.join("projects");
    let dir = path
        .parent()
        .filter(|d| d.parent() == Some(projects.as_path()));
    let named = path.file_name().and_then(|n| n.to_str()) == Some(&format!("{sid}.jsonl"));
    let Some(dir_name) = dir.and_then(Path::file_name).and_then(|n| n.to_str()) else {
        return Ok(None);
    };
    if !plain || !named || !belongs(dir_name, project, common) {
        return Ok(None);
    }
    fsx::check_inside(&projects, path)?;
    Ok(Some(path.clone()))
}

/// A transcript path kept with a digest (`Stored::transcript`), checked again before a later
/// hook reads it for session `sid` (a catch-up runs in another session, so the environment
/// does not name this one): `<claude>/projects/<dir>/<sid>.jsonl` with `<dir>` this
/// project's folder or one of a folder inside it (a session started in a subfolder), reached
/// without a symlink. `None` when it is not.
pub(crate) fn recheck(project: &Project, sid: &str, path: &Path) -> Option<PathBuf> {
    fsx::validate_component("session id", sid).ok()?;
    let claude = paths::claude_dir(&project.ctx.env)?;
    let projects = claude.join("projects");
    let plain = path.is_absolute()
        && path
            .components()
            .all(|c| matches!(c, Component::RootDir | Component::Normal(_)));
    let dir = path
        .parent()
        .filter(|d| d.parent() == Some(projects.as_path()))?;
    let dir_name = dir.file_name()?.to_str()?;
    let named = path.file_name().and_then(|n| n.to_str()) == Some(&format!("{sid}.jsonl"));
    let mut roots = vec![project.root.clone()];
    roots.extend(project.root.canonicalize().ok());
    let ours = roots.iter().any(|r| {
        let want = folder_name(r);
        dir_name == want
            || dir_name
                .strip_prefix(want.as_str())
                .is_some_and(|rest| rest.starts_with('-'))
    });
    if !plain || !named || !ours || fsx::check_inside(&projects, path).is_err() {
        return None;
    }
    Some(path.to_path_buf())
}

/// Whether `dir_name` is Claude Code's folder name for this project (its root, the folder
/// Claude Code was started in, or the session's cwd inside the project).
fn belongs(dir_name: &str, project: &Project, common: &Common) -> bool {
    let mut candidates = vec![project.root.clone()];
    if let Ok(c) = project.root.canonicalize() {
        candidates.push(c);
    }
    if let Some(d) = project.env("CLAUDE_PROJECT_DIR") {
        candidates.push(PathBuf::from(d));
    }
    if let Some(cwd) = common.cwd.as_ref().filter(|c| c.starts_with(&project.root)) {
        candidates.push(cwd.clone());
    }
    candidates.iter().any(|c| {
        let want = folder_name(c);
        dir_name == want
            || (want.len() > DIR_NAME_MAX
                && dir_name.len() > DIR_NAME_MAX
                && dir_name.starts_with(&want[..DIR_NAME_MAX]))
    })
}

/// Claude Code's folder name for a project path: every UTF-16 unit that is not an ASCII
/// letter or digit becomes `-` (as its JavaScript `replace(/[^a-zA-Z0-9]/g, "-")` does).
pub(crate) fn folder_name(path: &Path) -> String {
    path.to_string_lossy()
        .encode_utf16()
        .map(|u| match u8::try_from(u) {
            Ok(b) if b.is_ascii_alphanumeric() => char::from(b),
            _ => '-',
        })
        .collect()
}

/// Opens the transcript at `path` (from `locate`): a regular file, no link, owned by the
/// owner of the projects folder above it. `Ok(None)` when it does not exist (yet): Claude Code
/// writes it lazily — a short session's Stop can fire before the file is there, and a session
/// without a prompt never gets one — so that is nothing to read, not a fault.
pub(crate) fn open(path: &Path) -> Result<Option<File>> {
    let Some(file) = fsx::open_regular(path)? else {
        return Ok(None);
    };
    let meta = file.metadata().map_err(|e| Error::io("inspect", path, e))?;
    let projects = path.parent().and_then(Path::parent).unwrap_or(path);
    let owner = std::fs::metadata(projects).map_err(|e| Error::io("inspect", projects, e))?;
    if meta.uid() != owner.uid() {
        return Err(Error::Invalid(format!(
            "transcript {} is not owned by the owner of {}; not read",
            path.display(),
            projects.display()
        )));
    }
    Ok(Some(file))
}

/// How long a transcript must have been left alone to count as written out: Claude Code
/// writes its lines in batches, about a tenth of a second behind the events (a Stop can fire
/// before the last tool result is on disk).
const QUIET: std::time::Duration = std::time::Duration::from_millis(150);

/// Waits, at most `cap`, until the transcript at `path` has not changed for `QUIET`: what
/// Claude Code is about to write of the turn that just ended (its last tool result, its
/// final message) is read too. Used where a short wait costs nothing the user notices
/// (PreCompact, SessionEnd, the start after a compaction), never on Stop.
pub(crate) fn settle(path: &Path, cap: std::time::Duration) {
    let deadline = Instant::now() + cap;
    loop {
        let Ok(age) = std::fs::metadata(path)
            .and_then(|m| m.modified())
            .map(|t| t.elapsed().unwrap_or_default())
        else {
            return;
        };
        let now = Instant::now();
        if age >= QUIET || now >= deadline {
            return;
        }
        std::thread::sleep(
            QUIET
                .saturating_sub(age)
                .min(deadline.saturating_duration_since(now)),
        );
    }
}

/// Where the last read stopped.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Cursor {
    /// The byte after the last line read.
    pub(crate) offset: u64,
    pub(crate) dev: u64,
    pub(crate) ino: u64,
    /// The file's size when it was read.
    pub(crate) size: u64,
    /// FNV-1a of the (up to) 64 bytes before `offset`.
    pub(crate) tail: u64,
    /// `offset` is inside a line over `MAX_LINE` that a deadline cut the skipping of: the next
    /// read goes on skipping it to its end.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) in_long_line: bool,
}

/// Where the next read starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Plan {
    pub(crate) start: u64,
    /// The file is not the one the cursor was for (or there was none): read from the top,
    /// and forget what was read before.
    pub(crate) restarted: bool,
    /// The size now: the read stops there.
    pub(crate) end: u64,
    dev: u64,
    ino: u64,
    /// The read starts inside a long line (`Cursor::in_long_line`).
    in_long_line: bool,
}

/// Decides where to read `file` from, given the stored cursor.
pub(crate) fn plan(file: &File, cursor: Option<&Cursor>) -> std::io::Result<Plan> {
    let meta = file.metadata()?;
    let (dev, ino, end) = (meta.dev(), meta.ino(), meta.len());
    let same = cursor.filter(|c| {
        c.dev == dev
            && c.ino == ino
            && c.size <= end
            && c.offset <= c.size
            && tail_hash(file, c.offset) == c.tail
    });
    Ok(Plan {
        start: same.map_or(0, |c| c.offset),
        restarted: same.is_none(),
        end,
        dev,
        ino,
        in_long_line: same.is_some_and(|c| c.in_long_line),
    })
}

/// What one read did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ReadOutcome {
    /// Where the next read continues.
    pub(crate) cursor: Cursor,
    /// Bytes consumed (complete lines, skipped ones included).
    pub(crate) bytes: u64,
    /// Lines over `MAX_LINE`, skipped.
    pub(crate) long_lines: u64,
    /// The deadline cut the read short (the rest waits for the next one).
    pub(crate) cut_short: bool,
}

/// Reads the complete lines of `file` from `plan.start` to `plan.end`, giving each (without
/// its newline) to `on_line`, until `deadline` — checked inside a line too: a line over
/// `MAX_LINE` is skipped in steps, and a skip the deadline cuts goes on at the next read.
pub(crate) fn read(
    file: File,
    plan: &Plan,
    deadline: Instant,
    on_line: &mut dyn FnMut(&[u8]),
) -> std::io::Result<ReadOutcome> {
    let mut file = file;
    file.seek(SeekFrom::Start(plan.start))?;
    let mut reader =
        BufReader::with_capacity(64 * 1024, file.take(plan.end.saturating_sub(plan.start)));
    let mut buf = Vec::new();
    let mut at = Progress {
        offset: plan.start,
        ..Progress::default()
    };
    // A line over the limit the last read did not finish skipping goes on being skipped.
    if plan.in_long_line && !at.skipped(&skip_line(&mut reader, &mut buf, 0, deadline)?) {
        at.in_long_line = true;
    }
    let mut lines: u32 = 0;
    while !at.in_long_line {
        lines = lines.wrapping_add(1);
        if lines.is_multiple_of(64) && Instant::now() >= deadline {
            at.cut_short = true;
            break;
        }
        let line = next_line(&mut reader, &mut buf, MAX_LINE, deadline)?;
        match line {
            Line::Complete(n) => {
                on_line(&buf);
                at.offset += n;
            }
            Line::Partial | Line::End => break,
            _ => {
                at.skipped(&line);
            }
        }
    }
    let file = reader.into_inner().into_inner();
    Ok(ReadOutcome {
        cursor: Cursor {
            offset: at.offset,
            dev: plan.dev,
            ino: plan.ino,
            size: plan.end,
            tail: tail_hash(&file, at.offset),
            in_long_line: at.in_long_line,
        },
        bytes: at.offset - plan.start,
        long_lines: at.long_lines,
        cut_short: at.cut_short,
    })
}

/// Where a read stands.
#[derive(Default)]
struct Progress {
    offset: u64,
    long_lines: u64,
    cut_short: bool,
    in_long_line: bool,
}

impl Progress {
    /// Counts what `line` says of a line over the limit (skipped whole, cut by the deadline,
    /// or skipped up to the end of what is written yet); false for any other line.
    fn skipped(&mut self, line: &Line) -> bool {
        match *line {
            Line::TooLong(n) => {
                self.long_lines += 1;
                self.offset += n;
            }
            Line::Cut(n) => {
                self.offset += n;
                (self.cut_short, self.in_long_line) = (true, true);
            }
            Line::Skipping(n) => {
                self.offset += n;
                self.in_long_line = true;
            }
            Line::Complete(_) | Line::Partial | Line::End => return false,
        }
        true
    }
}

/// FNV-1a of the up to `TAIL` bytes before `offset` (of nothing when they cannot be read).
fn tail_hash(file: &File, offset: u64) -> u64 {
    let from = offset.saturating_sub(TAIL as u64);
    let mut buf = [0u8; TAIL];
    let want = usize::try_from(offset - from).unwrap_or(0);
    match file.read_exact_at(&mut buf[..want], from) {
        Ok(()) => fnv1a(&buf[..want]),
        Err(_) => fnv1a(b"unreadable"),
    }
}

/// What `next_line` found.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// A whole line (in the buffer, without its newline) of this many bytes with the newline.
    Complete(u64),
    /// A line over the limit, skipped: this many bytes with the newline.
    TooLong(u64),
    /// The end came before a newline: the line is not finished yet.
    Partial,
    /// The deadline came while a line over the limit was skipped: this many bytes of it were.
    Cut(u64),
    /// The end came inside a line over the limit: this many bytes of it were skipped.
    Skipping(u64),
    /// Nothing more.
    End,
}

/// Reads the next line into `buf`, holding at most `max` + 1 bytes of it: a longer line is
/// skipped (`skip_line`).
fn next_line(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: u64,
    deadline: Instant,
) -> std::io::Result<Line> {
    buf.clear();
    let n = r.by_ref().take(max + 1).read_until(b'\n', buf)? as u64;
    if n == 0 {
        return Ok(Line::End);
    }
    if buf.last() == Some(&b'\n') {
        buf.pop();
        return Ok(Line::Complete(n));
    }
    if n <= max {
        return Ok(Line::Partial);
    }
    skip_line(r, buf, n, deadline)
}

/// Skips the rest of a line, `skipped` bytes of which are behind, in 64 KB steps up to its
/// newline, looking at `deadline` every 16 steps (a megabyte): `Cut` when it passes first.
fn skip_line(
    r: &mut impl BufRead,
    buf: &mut Vec<u8>,
    mut skipped: u64,
    deadline: Instant,
) -> std::io::Result<Line> {
    let mut steps: u32 = 0;
    loop {
        steps = steps.wrapping_add(1);
        if steps.is_multiple_of(16) && Instant::now() >= deadline {
            buf.clear();
            return Ok(Line::Cut(skipped));
        }
        buf.clear();
        let m = r.by_ref().take(64 * 1024).read_until(b'\n', buf)? as u64;
        if m == 0 {
            buf.clear();
            return Ok(Line::Skipping(skipped));
        }
        skipped += m;
        if buf.last() == Some(&b'\n') {
            buf.clear();
            return Ok(Line::TooLong(skipped));
        }
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use std::io::Write;
    use std::time::Duration;

    fn read_all(path: &Path, cursor: Option<&Cursor>) -> (Plan, ReadOutcome, Vec<String>) {
        let file = File::open(path).unwrap();
        let plan = plan(&file, cursor).unwrap();
        let mut lines = Vec::new();
        let read = read(
            file,
            &plan,
            Instant::now() + Duration::from_secs(60),
            &mut |l| {
                lines.push(String::from_utf8_lossy(l).into_owned());
            },
        )
        .unwrap();
        (plan, read, lines)
    }

    fn far() -> Instant {
        Instant::now() + Duration::from_secs(60)
    }

    fn append(path: &Path, text: &str) {
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .unwrap()
            .write_all(text.as_bytes())
            .unwrap();
    }

    /// Issue 36, finding 8: the deadline is looked at inside a line being skipped (a 4 GB
    /// one-line transcript cost a Stop 13 s of its 15), and the next read goes on from there.
    #[test]
    fn issue_36_8_a_huge_line_is_skipped_within_the_deadline_and_then_finished() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        append(&p, "{\"a\":1}\n");
        // A line of 1.5 GB of zeros (a sparse file: nothing is written), then a line after it.
        let huge = 1536 * 1024 * 1024_u64;
        let f = std::fs::OpenOptions::new().write(true).open(&p).unwrap();
        f.set_len(8 + huge).unwrap();
        drop(f);
        append(&p, "\n{\"a\":2}\n");
        let file = File::open(&p).unwrap();
        let plan1 = plan(&file, None).unwrap();
        let mut lines = Vec::new();
        let started = Instant::now();
        let r1 = read(
            file,
            &plan1,
            Instant::now() + Duration::from_millis(50),
            &mut |l| {
                lines.push(String::from_utf8_lossy(l).into_owned());
            },
        )
        .unwrap();
        assert!(started.elapsed() < Duration::from_secs(20));
        assert!(r1.cut_short && r1.cursor.in_long_line, "{r1:?}");
        assert!(
            r1.cursor.offset > 8 && r1.cursor.offset < 8 + huge,
            "{r1:?}"
        );
        assert_eq!(lines, ["{\"a\":1}"]);
        // The next read, with time, skips the rest of the line and reads the one after it.
        let (_, r2, lines) = read_all(&p, Some(&r1.cursor));
        assert!(!r2.cursor.in_long_line && r2.long_lines == 1, "{r2:?}");
        assert_eq!(lines, ["{\"a\":2}"]);
    }

    #[test]
    fn appended_lines_are_read_once_and_a_partial_line_waits() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        append(&p, "{\"a\":1}\n{\"a\":2}\n{\"a\":");
        let (plan1, r1, lines) = read_all(&p, None);
        assert!(plan1.restarted);
        assert_eq!(lines, ["{\"a\":1}", "{\"a\":2}"]);
        assert_eq!(r1.cursor.offset, 16);
        append(&p, "3}\n{\"a\":4}\n");
        let (plan2, r2, lines) = read_all(&p, Some(&r1.cursor));
        assert!(!plan2.restarted);
        assert_eq!(plan2.start, 16);
        assert_eq!(lines, ["{\"a\":3}", "{\"a\":4}"]);
        assert_eq!(r2.bytes, 16);
        let (_, r3, lines) = read_all(&p, Some(&r2.cursor));
        assert!(lines.is_empty() && r3.bytes == 0);
    }

    #[test]
    fn a_shrunk_rewritten_or_replaced_file_is_read_from_the_top() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        append(&p, "{\"a\":1}\n{\"a\":2}\n");
        let (_, r1, _) = read_all(&p, None);
        // Shrunk.
        std::fs::write(&p, "{\"b\":1}\n").unwrap();
        let (plan, _, lines) = read_all(&p, Some(&r1.cursor));
        assert!(plan.restarted);
        assert_eq!(lines, ["{\"b\":1}"]);
        // Rewritten in place, as long or longer: the bytes before the offset changed.
        std::fs::write(&p, "{\"c\":1}\n{\"c\":2}\n{\"c\":3}\n").unwrap();
        let (plan, _, lines) = read_all(&p, Some(&r1.cursor));
        assert!(plan.restarted);
        assert_eq!(lines.len(), 3);
        // Replaced by another file (another inode), even with the same bytes.
        let (_, r2, _) = read_all(&p, None);
        let q = t.path().join("new.jsonl");
        std::fs::write(&q, std::fs::read(&p).unwrap()).unwrap();
        std::fs::rename(&q, &p).unwrap();
        let (plan, _, lines) = read_all(&p, Some(&r2.cursor));
        assert!(plan.restarted, "a new inode must be read again");
        assert_eq!(lines.len(), 3);
        // An identity change alone (same path, cursor from elsewhere) restarts too.
        let other = Cursor {
            dev: r2.cursor.dev + 1,
            ..r2.cursor
        };
        assert!(read_all(&p, Some(&other)).0.restarted);
    }

    #[test]
    fn a_line_over_the_limit_is_skipped_without_holding_it() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        let big = format!(
            "{{\"x\":\"{}\"}}\n",
            "y".repeat(usize::try_from(MAX_LINE).unwrap() + 10)
        );
        append(&p, "{\"a\":1}\n");
        append(&p, &big);
        append(&p, "{\"a\":2}\n");
        let (_, r, lines) = read_all(&p, None);
        assert_eq!(lines, ["{\"a\":1}", "{\"a\":2}"]);
        assert_eq!(r.long_lines, 1);
        assert_eq!(r.cursor.offset, std::fs::metadata(&p).unwrap().len());
        // A line of exactly the limit is still read.
        let mut buf = Vec::new();
        let line = format!("{}\n", "z".repeat(10));
        let mut rd = std::io::Cursor::new(line.as_bytes());
        assert_eq!(
            next_line(&mut rd, &mut buf, 10, far()).unwrap(),
            Line::Complete(11)
        );
        let mut rd = std::io::Cursor::new(line.as_bytes());
        assert_eq!(
            next_line(&mut rd, &mut buf, 9, far()).unwrap(),
            Line::TooLong(11)
        );
        // An unfinished overlong line is skipped as far as it goes (the next read goes on).
        let mut rd = std::io::Cursor::new(&b"zzzzzzzzzzzz"[..]);
        assert_eq!(
            next_line(&mut rd, &mut buf, 4, far()).unwrap(),
            Line::Skipping(12)
        );
    }

    #[test]
    fn a_past_deadline_stops_the_read_at_a_line_boundary() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("s.jsonl");
        append(&p, &"{\"a\":1}\n".repeat(1000));
        let file = File::open(&p).unwrap();
        let plan = plan(&file, None).unwrap();
        let mut n = 0;
        let r = read(file, &plan, Instant::now(), &mut |_| n += 1).unwrap();
        assert!(r.cut_short);
        assert_eq!(r.cursor.offset, 8 * n);
        let (_, r2, lines) = read_all(&p, Some(&r.cursor));
        assert_eq!(lines.len() as u64 + n, 1000);
        assert!(!r2.cut_short);
    }

    #[test]
    fn folder_names_follow_claude_code() {
        assert_eq!(
            folder_name(Path::new("/home/me/my.proj")),
            "-home-me-my-proj"
        );
        assert_eq!(folder_name(Path::new("/tmp/é😀")), "-tmp----");
    }
}
