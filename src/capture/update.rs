//! One update of a session's digest, at Stop, PreCompact or SessionEnd: find the session's
//! transcript, read what was added since the last update, fold it in, overlay Claude Code's
//! task files and the git state, redact, write.
//!
//! The git state (branch, HEAD) is read at PreCompact, at most every two minutes on Stop, and at
//! SessionEnd only when never read before (see `git_due`); in between, the branch comes from
//! the transcript.
//!
//! Each event gives the read a deadline well inside its hook timeout (a cold read of a very
//! large transcript continues at the next update): Stop 1 s (its timeout is 15 s, and the user
//! waits for it), PreCompact 5 s (30 s), SessionEnd 600 ms (Claude Code cuts a plugin's
//! SessionEnd off after 1.5 s, and the other handlers run too). Stop never blocks: capture
//! returns no decision, ever.

use super::digest::Vetting;
use super::fold::Fold;
use super::store::{self, Stored};
use super::tasks;
use super::transcript;
use crate::core::error::{Error, Result};
use crate::core::event::Common;
use crate::core::paths;
use crate::core::project::Project;
use crate::core::time;
use chrono::{DateTime, Utc};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// How often a Stop reads the git state at most (see `git_due`).
const GIT_EVERY: chrono::TimeDelta = chrono::TimeDelta::minutes(2);

/// Why the digest is updated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Trigger<'a> {
    /// The end of a turn; Claude Code's `last_assistant_message` is fresher than the
    /// transcript, which may not have the last line yet.
    Stop {
        last_assistant: Option<&'a str>,
        /// The prompt whose turn ended: the turn the Stop ends, when the transcript already
        /// shows it (a later turn's prompt may not be written yet).
        prompt_id: Option<&'a str>,
    },
    PreCompact,
    SessionEnd {
        reason: &'a str,
    },
    /// A later hook reads what an earlier session that did not finish (a crash, a closed
    /// terminal, a Stop before the transcript was written) left unread.
    CatchUp,
}

impl Trigger<'_> {
    /// How long to wait, at most, for Claude Code to finish writing the turn that just ended
    /// (`transcript::settle`): at PreCompact (a compaction takes seconds anyway) and at
    /// SessionEnd; never on Stop, which the user waits for at every turn.
    fn settle(self) -> Option<Duration> {
        match self {
            Trigger::PreCompact => Some(Duration::from_millis(500)),
            Trigger::SessionEnd { .. } => Some(Duration::from_millis(150)),
            Trigger::Stop { .. } | Trigger::CatchUp => None,
        }
    }

    /// How long the transcript read may take.
    fn budget(self) -> Duration {
        match self {
            Trigger::Stop { .. } => Duration::from_secs(1),
            Trigger::PreCompact => Duration::from_secs(5),
            Trigger::SessionEnd { .. } => Duration::from_millis(600),
            Trigger::CatchUp => CATCH_UP_BUDGET,
        }
    }
}

/// How long one hook spends catching up earlier sessions, all of them together: a session
/// start waits for it, and what is left is read at the next one.
pub(crate) const CATCH_UP_BUDGET: Duration = Duration::from_millis(250);
/// The most recently updated digests a catch-up looks at.
pub(crate) const CATCH_UP_LOOKS_AT: usize = 5;

/// Whether this update reads the git state (branch and HEAD). Reading it opens the repository
/// and computes its status, a millisecond on a small repository and far more on a large one,
/// so: always at PreCompact (the bridge's checkpoint reads it in the same run anyway, once
/// for both), on Stop at most every `GIT_EVERY`, at SessionEnd (1.5 s for every plugin hook)
/// only when never read before, never on a catch-up (today's state is not that session's).
/// Between reads, the branch comes from the transcript, where Claude Code records it on every
/// entry.
fn git_due(stored: &Stored, trigger: Trigger, now: DateTime<Utc>) -> bool {
    let last = stored.carry.git_read.as_deref().and_then(time::parse);
    match trigger {
        Trigger::PreCompact => true,
        Trigger::SessionEnd { .. } => last.is_none(),
        Trigger::CatchUp => false,
        // A clock set back counts as due, not as hours of silence.
        Trigger::Stop { .. } => last.is_none_or(|t| now - t >= GIT_EVERY || t > now),
    }
}

/// Updates the digest of the event's session; `Ok(None)` when the event names no transcript
/// of this project's (nothing is read or written then).
pub(crate) fn update(
    project: &Project,
    common: &Common,
    trigger: Trigger,
) -> Result<Option<PathBuf>> {
    let Some(path) = transcript::locate(project, common)? else {
        return Ok(None);
    };
    let Some(base) = store::write_base(project) else {
        return Ok(None);
    };
    // The wait for the transcript is part of the event's time, not on top of it.
    let started = Instant::now();
    if let Some(cap) = trigger.settle() {
        transcript::settle(&path, cap);
    }
    let sid = common.session_id.as_str();
    let dir = store::sessions_dir(&base, project);
    let digest_path = store::digest_path(&dir, sid);
    let mut stored = store::load(&digest_path).unwrap_or_default();
    let new = stored.cursor.is_none();
    // This hook's parent is the session's Claude Code process (a catch-up, run by another
    // session, leaves it as it was).
    stored.host = crate::core::proc::host();
    let read = Read {
        base: &base,
        digest_path: &digest_path,
        transcript: &path,
        sid,
        deadline: started + trigger.budget(),
    };
    if !apply(project, stored, &read, trigger)? {
        return Ok(None);
    }
    if new || matches!(trigger, Trigger::SessionEnd { .. }) {
        store::prune(&dir, project.config().capture.keep_sessions, sid);
    }
    Ok(Some(digest_path))
}

/// Where one update reads and writes.
struct Read<'a> {
    base: &'a Path,
    digest_path: &'a Path,
    transcript: &'a Path,
    sid: &'a str,
    deadline: Instant,
}

/// Reads what the transcript gained into `stored` and writes it; `false` when the transcript
/// does not exist (yet).
fn apply(project: &Project, mut stored: Stored, r: &Read<'_>, trigger: Trigger) -> Result<bool> {
    let Some(file) = transcript::open(r.transcript)? else {
        return Ok(false);
    };
    let plan = transcript::plan(&file, stored.cursor.as_ref())
        .map_err(|e| Error::io("inspect", r.transcript, e))?;
    if plan.restarted {
        // A note a session start left (no cursor yet) keeps when the session started.
        let started = stored
            .cursor
            .is_none()
            .then(|| stored.digest.started.take());
        let host = stored.host;
        stored = Stored::default();
        stored.digest.started = started.flatten();
        stored.host = host;
    }
    stored.digest.session_id = r.sid.to_string();
    stored.transcript = Some(r.transcript.to_path_buf());
    let before = Stated::of(&stored.digest);
    let vetted = stored.digest.clone();
    let outcome = {
        let mut fold = Fold::new(&mut stored.digest, &mut stored.carry, &project.root);
        let outcome = transcript::read(file, &plan, r.deadline, &mut |line| {
            fold.line(line);
        })
        .map_err(|e| Error::io("read", r.transcript, e))?;
        if let Trigger::Stop {
            last_assistant,
            prompt_id,
        } = trigger
        {
            // Only once the whole transcript is read: a Stop ends the turn under way.
            if !outcome.cut_short {
                fold.stop(last_assistant, prompt_id, &time::rfc3339(project.now()));
            }
        }
        outcome
    };
    stored.cursor = Some(outcome.cursor);
    note_stated(&mut stored.digest, &before, project.now());
    stored.digest.counts.bytes_read += outcome.bytes;
    stored.digest.counts.long_lines += outcome.long_lines;
    finish(project, &mut stored, r.sid, trigger);
    stored.digest.finalize(&|s| project.redact(s));
    stored
        .digest
        .vet(&Vetting::new(project.redactor(), &vetted));
    stored.carry.finalize(&|s| project.redact(s));
    store::save(r.base, r.digest_path, &stored)?;
    Ok(true)
}

/// What a session had stated before an update read more of it.
struct Stated {
    work_calls: u64,
    last_work: Option<String>,
    /// The turn under way: its prompt (or start) — a new one is a new statement.
    turn: Option<(String, Option<String>)>,
}

impl Stated {
    fn of(d: &super::digest::Digest) -> Stated {
        Stated {
            work_calls: d.counts.work_calls,
            last_work: d.last_work.clone(),
            turn: d
                .open_turn
                .as_ref()
                .map(|t| (t.request.clone(), t.started.clone())),
        }
    }
}

/// Dates what the update read anew of the session's intent (new work, a turn under way) on
/// baton's clock: the transcript's time (now, where its entries have none), but never later
/// than now.
fn note_stated(d: &mut super::digest::Digest, before: &Stated, now: DateTime<Utc>) {
    let after = Stated::of(d);
    let new_work = after.work_calls != before.work_calls;
    let new_turn = after.turn.is_some() && after.turn != before.turn;
    if !new_work && !new_turn {
        return;
    }
    // New work whose entries carry no time is dated now.
    let untimed = new_work && after.last_work == before.last_work;
    let cut_off = after.turn.and_then(|(_, started)| started);
    let newest = [after.last_work, cut_off]
        .iter()
        .flatten()
        .filter_map(|t| time::parse(t))
        .max();
    let at = newest.filter(|_| !untimed).map_or(now, |t| t.min(now));
    d.stated = Some(time::rfc3339(at));
}

/// At a session start: notes the starting session's transcript in its digest (so a crash
/// before its first Stop is caught up later), without reading it.
pub(crate) fn register(project: &Project, common: &Common) -> Result<()> {
    let Some(path) = transcript::locate(project, common)? else {
        return Ok(());
    };
    let Some(base) = store::write_base(project) else {
        return Ok(());
    };
    let dir = store::sessions_dir(&base, project);
    let digest_path = store::digest_path(&dir, &common.session_id);
    let host = crate::core::proc::host();
    if std::fs::symlink_metadata(&digest_path).is_ok() {
        // A session started again (`--continue`, `--resume`, a compaction): it runs, in this
        // process.
        let Some(mut stored) = store::load(&digest_path) else {
            return Ok(());
        };
        if stored.host == host && stored.digest.ended.is_none() {
            return Ok(());
        }
        stored.host = host;
        stored.digest.ended = None;
        return store::save(&base, &digest_path, &stored);
    }
    let mut stored = Stored::default();
    stored.digest.session_id.clone_from(&common.session_id);
    stored.digest.started = Some(time::rfc3339(project.now()));
    stored.transcript = Some(path);
    stored.host = host;
    store::save(&base, &digest_path, &stored)
}

/// Reads what the newest sessions of this project left unread (all but `except`), within
/// `budget`: a session killed in the middle of a turn, or whose last Stop came before its
/// transcript was written. A digest whose transcript did not grow costs one `stat`. Returns
/// the newest digests as they stand after it (the caller needs them; read once).
pub(crate) fn catch_up(
    project: &Project,
    except: Option<&str>,
    budget: Duration,
) -> Vec<(String, Stored)> {
    let started = Instant::now();
    let Some(base) = store::write_base(project) else {
        return Vec::new();
    };
    let dir = store::sessions_dir(&base, project);
    let me = crate::core::proc::host();
    let mut out = Vec::new();
    for (sid, digest_path, _) in store::list(&dir).into_iter().take(CATCH_UP_LOOKS_AT) {
        let Some(stored) = store::load(&digest_path) else {
            continue;
        };
        // A session still running in another terminal reads its own transcript.
        let behind =
            Some(sid.as_str()) != except && started.elapsed() < budget && !stored.running(me);
        let grown = stored
            .transcript
            .as_deref()
            .filter(|_| behind)
            .and_then(|p| transcript::recheck(project, &sid, p))
            .filter(|p| {
                std::fs::metadata(p).is_ok_and(|m| {
                    stored
                        .cursor
                        .is_none_or(|c| m.len() > c.offset || m.ino() != c.ino)
                })
            });
        let Some(path) = grown else {
            out.push((sid, stored));
            continue;
        };
        let read = Read {
            base: &base,
            digest_path: &digest_path,
            transcript: &path,
            sid: &sid,
            deadline: started + budget,
        };
        let fallback = stored.clone();
        match apply(project, stored, &read, Trigger::CatchUp) {
            Ok(true) => out.extend(store::load(&digest_path).map(|s| (sid, s))),
            _ => out.push((sid, fallback)),
        }
    }
    out
}

/// What the transcript does not say: the freshest assistant text, Claude Code's task files,
/// the git state, the end.
fn finish(project: &Project, stored: &mut Stored, sid: &str, trigger: Trigger) {
    let now = project.now();
    if git_due(stored, trigger, now) {
        if let Some(repo) = project.git().ok().and_then(|g| g.repo()) {
            stored.digest.branch.clone_from(&repo.branch);
            stored.digest.head.clone_from(&repo.head_sha);
        }
        stored.carry.git_read = Some(time::rfc3339(now));
    }
    let d = &mut stored.digest;
    if let Trigger::Stop {
        last_assistant: Some(text),
        ..
    } = trigger
    {
        if !text.trim().is_empty() {
            d.last_assistant = Some(super::entry::head(text.trim()));
        }
    }
    if let Some(claude) = paths::claude_dir(&project.ctx.env) {
        if let Ok(Some(files)) = tasks::read_folder(&claude.join("tasks").join(sid)) {
            tasks::overlay(&mut d.tasks, files);
        }
    }
    if trigger == Trigger::CatchUp {
        return;
    }
    let now = time::rfc3339(now);
    if let Trigger::SessionEnd { reason } = trigger {
        d.ended = Some(now.clone());
        d.end_reason = Some(reason.to_string());
    }
    d.updated = Some(now);
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::config::Config;
    use crate::core::ctx::{Ctx, Env};
    use serde_json::json;
    use std::io::Write;
    use std::path::Path;

    const SID: &str = "e9fc0000-0000-4000-8000-000000000001";

    struct Setup {
        _t: tempfile::TempDir,
        home: PathBuf,
        root: PathBuf,
        transcript: PathBuf,
    }

    fn setup() -> Setup {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().canonicalize().unwrap().join("home");
        let root = home.join("proj");
        std::fs::create_dir_all(&root).unwrap();
        let dir = home
            .join(".claude/projects")
            .join(transcript::folder_name(&root));
        std::fs::create_dir_all(&dir).unwrap();
        let transcript = dir.join(format!("{SID}.jsonl"));
        Setup {
            _t: t,
            home,
            root,
            transcript,
        }
    }

    impl Setup {
        fn project(&self, extra: &[(&str, &str)]) -> Project {
            let mut vars = vec![("HOME".to_string(), self.home.to_string_lossy().into_owned())];
            vars.extend(
                extra
                    .iter()
                    .map(|(k, v)| ((*k).to_string(), (*v).to_string())),
            );
            let now = time::parse("2026-11-30T10:15:00Z").unwrap();
            let ctx = Ctx::for_test(Env::fixed(vars), Clock::fixed(now), self.root.clone());
            Project::with_config(ctx, self.root.clone(), Config::default())
        }

        fn common(&self, path: &Path) -> Common {
            Common {
                session_id: SID.into(),
                transcript_path: Some(path.to_path_buf()),
                cwd: Some(self.root.clone()),
                ..Common::default()
            }
        }

        fn append(&self, lines: &[serde_json::Value]) {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&self.transcript)
                .unwrap();
            for l in lines {
                writeln!(f, "{l}").unwrap();
            }
        }

        fn stop(&self, project: &Project) -> Option<Stored> {
            let common = self.common(&self.transcript);
            let path = update(
                project,
                &common,
                Trigger::Stop {
                    last_assistant: None,
                    prompt_id: None,
                },
            )
            .unwrap()?;
            store::load(&path)
        }
    }

    fn prompt(text: &str) -> serde_json::Value {
        json!({"type": "user", "message": {"role": "user", "content": text}})
    }

    #[test]
    fn each_stop_reads_only_the_bytes_added_since_the_last() {
        let s = setup();
        let p = s.project(&[]);
        s.append(&[prompt("first request"), prompt("second")]);
        let one = s.stop(&p).unwrap();
        let size = std::fs::metadata(&s.transcript).unwrap().len();
        assert_eq!(one.digest.counts.bytes_read, size);
        assert_eq!(one.cursor.unwrap().offset, size);
        assert_eq!(one.digest.counts.prompts, 2);
        // Nothing new: nothing read.
        assert_eq!(s.stop(&p).unwrap().digest.counts.bytes_read, size);
        // Appended lines, and a last line still being written.
        s.append(&[prompt("third")]);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&s.transcript)
            .unwrap()
            .write_all(br#"{"type":"user","message":{"content":"fou"#)
            .unwrap();
        let two = s.stop(&p).unwrap();
        assert_eq!(two.digest.counts.prompts, 3);
        assert_eq!(
            two.digest.counts.malformed_lines, 0,
            "the partial line was taken"
        );
        assert_eq!(two.digest.first_request.as_deref(), Some("first request"));
        assert_eq!(two.digest.latest_request.as_deref(), Some("third"));
        std::fs::OpenOptions::new()
            .append(true)
            .open(&s.transcript)
            .unwrap()
            .write_all(b"rth\"}}\n")
            .unwrap();
        let three = s.stop(&p).unwrap();
        assert_eq!(three.digest.counts.prompts, 4);
        assert_eq!(three.digest.latest_request.as_deref(), Some("fourth"));
        assert_eq!(
            three.digest.counts.bytes_read,
            std::fs::metadata(&s.transcript).unwrap().len()
        );
    }

    #[test]
    fn a_shrunk_or_replaced_transcript_is_read_again_from_the_start() {
        let s = setup();
        let p = s.project(&[]);
        s.append(&[
            prompt("old request"),
            prompt("old two"),
            prompt("old three"),
        ]);
        s.stop(&p).unwrap();
        std::fs::remove_file(&s.transcript).unwrap();
        s.append(&[prompt("new request")]);
        let d = s.stop(&p).unwrap().digest;
        assert_eq!(d.first_request.as_deref(), Some("new request"));
        assert_eq!(d.counts.prompts, 1, "what the old file said is forgotten");
    }

    #[test]
    fn a_line_over_a_megabyte_is_skipped_and_counted() {
        let s = setup();
        let p = s.project(&[]);
        let huge = "word ".repeat(300_000);
        s.append(&[prompt("before"), prompt(&huge), prompt("after")]);
        let d = s.stop(&p).unwrap().digest;
        assert_eq!(d.counts.long_lines, 1);
        assert_eq!(d.counts.prompts, 2);
        assert_eq!(d.latest_request.as_deref(), Some("after"));
    }

    #[test]
    fn secrets_in_prompts_tool_inputs_and_outputs_never_reach_the_digest_file() {
        let s = setup();
        let p = s.project(&[]);
        let gh = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
        let aws = ["AKIA", "IOSFODNN7EXAMPLE"].concat();
        let sk = ["sk-ant-", "api03-abcdefghijklmnopqrstuvwxyz0123"].concat();
        let npm = ["npm_", "abcdefghijklmnopqrstuvwxyz0123456789"].concat();
        let pw = ["hunter2", "Secret99"].concat();
        s.append(&[
            prompt(&format!("use the token {gh} to push")),
            json!({"type": "assistant", "message": {"id": "m1", "content": [
                {"type": "text", "text": format!("I will export AWS_ACCESS_KEY_ID={aws}")},
                {"type": "tool_use", "id": "t1", "name": "Bash", "input": {"command": format!("curl -H 'Authorization: Bearer {sk}' https://x > out-{npm}.json")}},
                {"type": "tool_use", "id": "t2", "name": "TaskCreate", "input": {"subject": format!("rotate {gh}"), "description": "x"}},
                {"type": "tool_use", "id": "t3", "name": "Bash", "input": {"command": format!("DB_PASSWORD={pw} psql")}},
            ]}}),
            json!({"type": "user", "toolUseResult": format!("Error: Exit code 1\nerror: bad key {sk}"), "message": {"content": [
                {"type": "tool_result", "tool_use_id": "t1", "content": format!("Exit code 1\nerror: bad key {sk}"), "is_error": true}]}}),
        ]);
        let path = update(
            &p,
            &s.common(&s.transcript),
            Trigger::Stop {
                last_assistant: Some(&format!("Done; the key was {aws}")),
                prompt_id: None,
            },
        )
        .unwrap()
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        for secret in [&gh, &aws, &sk, &npm, &pw] {
            assert!(!text.contains(secret.as_str()), "{secret} leaked:\n{text}");
        }
        let stored = store::load(&path).unwrap();
        assert_eq!(stored.digest.failures.len(), 1, "{text}");
        assert_eq!(
            stored.carry.pending.len(),
            2,
            "the pending calls are kept, redacted"
        );
        assert!(text.contains("[REDACTED]"));
    }

    #[test]
    fn a_path_that_is_not_this_sessions_transcript_is_not_read() {
        let s = setup();
        let p = s.project(&[]);
        s.append(&[prompt("mine")]);
        let other_project = s
            .home
            .join(".claude/projects/-elsewhere")
            .join(format!("{SID}.jsonl"));
        std::fs::create_dir_all(other_project.parent().unwrap()).unwrap();
        std::fs::copy(&s.transcript, &other_project).unwrap();
        let other_name = s
            .transcript
            .with_file_name("e9fc0000-0000-4000-8000-000000000002.jsonl");
        std::fs::copy(&s.transcript, &other_name).unwrap();
        let outside = s.root.join(format!("{SID}.jsonl"));
        std::fs::copy(&s.transcript, &outside).unwrap();
        let dotted = s
            .transcript
            .parent()
            .unwrap()
            .join("../")
            .join(transcript::folder_name(&s.root))
            .join(format!("{SID}.jsonl"));
        for path in [
            &other_project,
            &other_name,
            &outside,
            &dotted,
            &PathBuf::from(format!("{SID}.jsonl")),
        ] {
            let got = update(&p, &s.common(path), Trigger::PreCompact).unwrap();
            assert_eq!(got, None, "{}", path.display());
        }
        let mut bad_id = s.common(&s.transcript);
        bad_id.session_id = "../x".into();
        assert_eq!(update(&p, &bad_id, Trigger::PreCompact).unwrap(), None);
        // Claude Code names the session in the environment: another one is not ours.
        let q = s.project(&[("CLAUDE_CODE_SESSION_ID", "someone-else")]);
        assert_eq!(
            update(&q, &s.common(&s.transcript), Trigger::PreCompact).unwrap(),
            None
        );
        assert!(
            !s.home.join(".local/state/baton").exists(),
            "nothing was written"
        );
        // CLAUDE_CONFIG_DIR moves Claude Code's folder: ~/.claude is then not it.
        let cfg = s.home.join("cfg");
        let q = s.project(&[("CLAUDE_CONFIG_DIR", cfg.to_str().unwrap())]);
        assert_eq!(
            update(&q, &s.common(&s.transcript), Trigger::PreCompact).unwrap(),
            None
        );
    }

    #[test]
    fn a_linked_or_odd_transcript_is_an_error_and_a_missing_one_is_nothing_yet() {
        let s = setup();
        let p = s.project(&[]);
        let target = s.home.join("real.jsonl");
        std::fs::write(&target, "{}\n").unwrap();
        std::os::unix::fs::symlink(&target, &s.transcript).unwrap();
        let err = update(&p, &s.common(&s.transcript), Trigger::PreCompact).unwrap_err();
        assert!(err.to_string().contains("symlink"), "{err}");
        std::fs::remove_file(&s.transcript).unwrap();
        // Not written yet (a short session's Stop can come first): nothing to read, no fault.
        let got = update(&p, &s.common(&s.transcript), Trigger::PreCompact).unwrap();
        assert_eq!(got, None);
        std::fs::create_dir(&s.transcript).unwrap();
        let err = update(&p, &s.common(&s.transcript), Trigger::PreCompact).unwrap_err();
        assert!(err.to_string().contains("directory"), "{err}");
        // A linked project folder below ~/.claude/projects.
        let elsewhere = s.home.join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();
        let dir = s.transcript.parent().unwrap().to_path_buf();
        std::fs::remove_dir(&s.transcript).unwrap();
        std::fs::remove_dir(&dir).unwrap();
        std::os::unix::fs::symlink(&elsewhere, &dir).unwrap();
        std::fs::write(elsewhere.join(format!("{SID}.jsonl")), "{}\n").unwrap();
        let err = update(&p, &s.common(&s.transcript), Trigger::PreCompact).unwrap_err();
        assert!(err.to_string().contains("symlink"), "{err}");
    }

    #[test]
    fn git_is_read_at_pre_compact_and_at_most_every_two_minutes_on_stop() {
        let at = |s: &str| time::parse(s).unwrap();
        let mut stored = Stored::default();
        let stop = Trigger::Stop {
            last_assistant: None,
            prompt_id: None,
        };
        let end = Trigger::SessionEnd { reason: "other" };
        assert!(git_due(&stored, stop, at("2026-11-30T10:00:00Z")));
        assert!(git_due(&stored, end, at("2026-11-30T10:00:00Z")));
        stored.carry.git_read = Some("2026-11-30T10:00:00Z".into());
        assert!(!git_due(&stored, stop, at("2026-11-30T10:01:59Z")));
        assert!(git_due(&stored, stop, at("2026-11-30T10:02:00Z")));
        assert!(git_due(
            &stored,
            Trigger::PreCompact,
            at("2026-11-30T10:00:01Z")
        ));
        assert!(!git_due(&stored, end, at("2026-11-30T11:00:00Z")));
        assert!(git_due(&stored, stop, at("2026-11-30T09:00:00Z")));
    }

    #[test]
    fn stop_session_end_task_files_and_the_time() {
        let s = setup();
        let p = s.project(&[]);
        s.append(&[
            prompt("build it"),
            json!({"type": "assistant", "message": {"id": "m1", "content": [{"type": "text", "text": "older words"}]}}),
        ]);
        let path = update(
            &p,
            &s.common(&s.transcript),
            Trigger::Stop {
                last_assistant: Some("fresher words"),
                prompt_id: None,
            },
        )
        .unwrap()
        .unwrap();
        let d = store::load(&path).unwrap().digest;
        assert_eq!(d.last_assistant.as_deref(), Some("fresher words"));
        assert_eq!(d.updated.as_deref(), Some("2026-11-30T10:15:00Z"));
        assert_eq!(d.ended, None);
        let tasks = s.home.join(".claude/tasks").join(SID);
        std::fs::create_dir_all(&tasks).unwrap();
        std::fs::write(tasks.join("1.json"), r#"{"id":"1","subject":"from the file","status":"in_progress","blocks":[],"blockedBy":[]}"#).unwrap();
        update(
            &p,
            &s.common(&s.transcript),
            Trigger::SessionEnd {
                reason: "prompt_input_exit",
            },
        )
        .unwrap();
        let d = store::load(&path).unwrap().digest;
        assert_eq!(d.ended.as_deref(), Some("2026-11-30T10:15:00Z"));
        assert_eq!(d.end_reason.as_deref(), Some("prompt_input_exit"));
        assert_eq!(d.tasks.len(), 1);
        assert_eq!(
            (d.tasks[0].subject.as_str(), d.tasks[0].status.as_str()),
            ("from the file", "in_progress")
        );
        let r = super::super::recap::recap(&d, &path);
        assert_eq!(
            r.tasks[0].status,
            crate::core::recap::TaskStatus::InProgress
        );
        assert_eq!(r.first_request.as_deref(), Some("build it"));
    }
}
