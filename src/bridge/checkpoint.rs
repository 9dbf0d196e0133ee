//! Checkpoint mode: one exact resume point in `.rune/checkpoint.md`, with the git state
//! filled in by baton. `--resolve` archives it as `checkpoint-<date>.resolved.md` (last 3
//! kept). PreCompact writes one automatically from what the bridge knows.

use super::integrity;
use super::notes::Doc;
use super::provenance::{self, Ledger};
use super::store::{self, Rune};
use crate::core::error::{Error, Result};
use crate::core::project::Project;
use crate::core::text::{clip, one_line};
use chrono::{DateTime, Utc};
use serde::Deserialize;

/// What the checkpoint's `Last commit:` says before the first commit.
const NO_COMMITS: &str = "(no commits)";

/// Resolved checkpoints kept.
const RESOLVED_KEPT: usize = 3;

const DOING: &str = "What I Was Doing";
const GIT: &str = "Current Git State";
const DECISIONS: &str = "Decisions Made This Session (Load-Bearing)";
const LEFT: &str = "What's Left (Ordered)";
const CONTEXT: &str = "Context the Next Session Needs";
const RESUME: &str = "Resume Command";

/// What `baton bridge checkpoint` reads on stdin.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct CheckpointInput {
    pub(crate) doing: String,
    pub(crate) decisions: Vec<String>,
    pub(crate) left: Vec<String>,
    pub(crate) context: Vec<String>,
    pub(crate) resume: String,
}

impl CheckpointInput {
    fn check(&self) -> Result<()> {
        for (key, v) in [("doing", &self.doing), ("resume", &self.resume)] {
            if v.trim().is_empty() {
                return Err(Error::field(key, format!(
                    "checkpoint: `{key}` is required (doing: the exact task in progress; resume: the instruction for the next session)"
                )));
            }
        }
        Ok(())
    }
}

/// The git facts a checkpoint records.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct GitFacts {
    pub(crate) branch: String,
    pub(crate) commit: String,
    pub(crate) changed: Vec<String>,
    /// HEAD's subject line (read only for a checkpoint being written).
    pub(crate) subject: Option<String>,
    /// The stash's messages, newest first (read only for a checkpoint being written).
    pub(crate) stash: Vec<String>,
}

/// Characters of the commit subject and of the stash message a checkpoint keeps.
const GIT_TEXT_MAX: usize = 120;

/// The project's git facts (read once per run, through `Project`); `None` without a
/// repository or when git cannot be read.
pub(crate) fn git_facts(project: &Project) -> Option<GitFacts> {
    let r = project.git().ok()?.repo()?;
    let (branch, commit) = head_facts(project)?;
    Some(GitFacts {
        branch,
        commit,
        changed: r.status.clone(),
        ..GitFacts::default()
    })
}

/// The branch and short commit of HEAD as `git_facts` gives them, without the status.
pub(crate) fn head_facts(project: &Project) -> Option<(String, String)> {
    let h = project.git_head().ok()??;
    Some((
        h.branch.clone().unwrap_or_else(|| "(detached)".into()),
        h.sha
            .as_ref()
            .map_or_else(|| NO_COMMITS.into(), |s| s.chars().take(7).collect()),
    ))
}

/// The git facts with what only a checkpoint being written records: HEAD's subject line
/// and the stash (each one line, cut to 120 characters; redacted with the checkpoint).
fn git_facts_for_checkpoint(project: &Project) -> Option<GitFacts> {
    // Redacted before the cut: a secret cut in half is one the redactor no longer knows.
    // The repository's text must not make baton's own checkpoint fail the integrity scan
    // (a subject such as "skip hooks with --no-verify" would keep the resume point out of
    // the next session): one that matches a rule is named, not copied.
    let short = |text: &str| {
        let line = project.redact(&one_line(text));
        clip(
            &crate::core::trust::clean_field(&line, project.redactor()),
            GIT_TEXT_MAX,
        )
    };
    let mut g = git_facts(project)?;
    let dir = &project.root;
    if g.commit != NO_COMMITS {
        g.subject = crate::core::git::first_parent_messages(dir, 1)
            .ok()
            .and_then(|m| m.into_iter().next())
            .and_then(|m| m.lines().next().map(&short))
            .filter(|l| !l.is_empty());
    }
    g.stash = crate::core::git::stash_messages(dir)
        .unwrap_or_default()
        .iter()
        .map(|m| short(m))
        .collect();
    Some(g)
}

/// The `Stashed:` value: `no`, or `yes — <newest stash's message>` (with the count when
/// there are more).
fn stashed(stash: &[String]) -> String {
    match stash {
        [] => "no".into(),
        [one] => format!("yes — {one}"),
        [newest, ..] => format!("yes, {} stashes — newest: {newest}", stash.len()),
    }
}

/// Renders a checkpoint.
pub(crate) fn render(input: &CheckpointInput, g: Option<&GitFacts>, now: DateTime<Utc>) -> String {
    let mut out = format!(
        "# Checkpoint — {}\n\n## {DOING}\n{}\n\n## {GIT}\n",
        store::stamp(now),
        one_line(&input.doing)
    );
    match g {
        Some(g) => {
            let commit = match &g.subject {
                Some(s) => format!("{} {s}", g.commit),
                None => g.commit.clone(),
            };
            out.push_str(&format!(
                "- Branch: {}\n- Last commit: {commit}\n",
                g.branch
            ));
            if g.changed.is_empty() {
                out.push_str("- Uncommitted changes: clean\n");
            } else {
                out.push_str("- Uncommitted changes:\n");
                for c in g.changed.iter().take(50) {
                    out.push_str(&format!("  - {}\n", c.trim()));
                }
                if g.changed.len() > 50 {
                    out.push_str(&format!("  - …and {} more\n", g.changed.len() - 50));
                }
            }
            out.push_str(&format!("- Stashed: {}\n", stashed(&g.stash)));
        }
        None => out.push_str("- no git repository\n"),
    }
    out.push_str(&format!("\n## {DECISIONS}\n"));
    push_list(&mut out, &input.decisions, false);
    out.push_str(&format!("\n## {LEFT}\n"));
    push_list(&mut out, &input.left, true);
    out.push_str(&format!("\n## {CONTEXT}\n"));
    push_list(&mut out, &input.context, false);
    out.push_str(&format!("\n## {RESUME}\n{}\n", one_line(&input.resume)));
    out
}

fn push_list(out: &mut String, items: &[String], numbered: bool) {
    if items.is_empty() {
        out.push_str("- none\n");
    }
    for (i, item) in items.iter().enumerate() {
        if numbered {
            out.push_str(&format!("{}. {}\n", i + 1, one_line(item)));
        } else {
            out.push_str(&format!("- {}\n", one_line(item)));
        }
    }
}

/// The mark of the context note an automatic checkpoint (written at a compaction) carries.
pub(crate) const AUTO_NOTE: &str = "Auto-checkpoint written by baton";

/// Whether a checkpoint was written by baton at a compaction (not by the user or the model).
pub(crate) fn is_automatic(cp: &Parsed) -> bool {
    cp.context.iter().any(|c| c.starts_with(AUTO_NOTE))
}

/// A checkpoint read back.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Parsed {
    pub(crate) written: Option<DateTime<Utc>>,
    pub(crate) written_raw: String,
    pub(crate) doing: String,
    pub(crate) resume: String,
    pub(crate) branch: Option<String>,
    pub(crate) commit: Option<String>,
    pub(crate) dirty: usize,
    /// The paths the checkpoint listed as uncommitted (the first 50).
    pub(crate) changed: Vec<String>,
    pub(crate) left: Vec<String>,
    pub(crate) decisions: Vec<String>,
    pub(crate) context: Vec<String>,
}

fn body(doc: &Doc, name: &str) -> Vec<String> {
    doc.sections
        .iter()
        .filter(|(h, _)| h.starts_with(name))
        .flat_map(|(_, b)| b.iter().cloned())
        .filter(|l| !l.trim().is_empty())
        .collect()
}

fn items(lines: &[String]) -> Vec<String> {
    lines
        .iter()
        .filter(|l| !l.starts_with("  "))
        .map(|l| {
            let t = l.trim();
            let t = t.strip_prefix("- ").unwrap_or(t);
            let t = t
                .split_once(". ")
                .filter(|(n, _)| n.chars().all(|c| c.is_ascii_digit()) && !n.is_empty())
                .map_or(t, |(_, rest)| rest);
            t.to_string()
        })
        .filter(|t| t != "none")
        .collect()
}

/// Parses a checkpoint text (tolerant: missing parts stay empty).
pub(crate) fn parse(text: &str) -> Parsed {
    let doc = Doc::parse(text);
    let title = doc
        .pre
        .lines()
        .find_map(|l| l.strip_prefix("# Checkpoint"))
        .map(|r| r.trim_start_matches([' ', '—', '-']).trim().to_string())
        .unwrap_or_default();
    let written = store::parse_stamp(&format!("[{title}]"));
    let git = body(&doc, "Current Git State");
    let field = |name: &str| {
        git.iter().find_map(|l| {
            l.trim()
                .strip_prefix("- ")
                .and_then(|r| r.strip_prefix(name))
                .map(|v| v.trim().to_string())
        })
    };
    let dirty = git.iter().filter(|l| l.starts_with("  - ")).count();
    let changed = git
        .iter()
        .filter_map(|l| l.strip_prefix("  - "))
        .filter(|l| !l.starts_with("…and "))
        .filter_map(status_path)
        .collect();
    Parsed {
        written,
        written_raw: title,
        doing: body(&doc, "What I Was Doing").join(" "),
        resume: body(&doc, "Resume Command").join(" "),
        branch: field("Branch:"),
        // The short hash; the commit's subject follows it.
        commit: field("Last commit:").and_then(|c| {
            if c.starts_with('(') {
                Some(c)
            } else {
                c.split_whitespace().next().map(str::to_string)
            }
        }),
        dirty,
        changed,
        left: items(&body(&doc, "What's Left")),
        decisions: items(&body(&doc, "Decisions Made")),
        context: items(&body(&doc, "Context the Next Session")),
    }
}

/// The path of a `git status --porcelain` line (`XY path`, `XY old -> new`: the new one).
fn status_path(line: &str) -> Option<String> {
    let (_, path) = line.trim().split_once(' ')?;
    let path = path.trim();
    let path = path.rsplit_once(" -> ").map_or(path, |(_, new)| new);
    (!path.is_empty()).then(|| path.to_string())
}

/// How far after now a date may lie and still count (clocks of one machine's processes).
const CLOCK_SLACK_MINUTES: i64 = 5;

/// Why the active checkpoint no longer stands, when it does not: a handoff artefact saved
/// on purpose after it (and not after now), or its work committed: on the branch it was written on, commits of
/// the user's since it was written change every file it listed as uncommitted, and none of
/// them is still uncommitted. Files in baton's own state folders (`.rune/`, `.handoff/`, …,
/// which hooks change without committing) are not the work. Only checkpoints baton wrote are
/// judged; one that listed no uncommitted files of the work is not resolved by commits (what
/// its work is cannot be told), only said to be possibly outdated. Work that was stashed,
/// or left on another branch, is not committed work.
fn superseded(project: &Project, cp: &Parsed) -> Option<String> {
    let written = cp.written?;
    // An artefact dated after now (a clock that is off, a local time written as UTC) was
    // not saved after anything: it would resolve every checkpoint written until then.
    let latest = project.now() + chrono::Duration::minutes(CLOCK_SLACK_MINUTES);
    if let Some(h) = project
        .newest_handoff()
        .filter(|h| *h > written && *h <= latest)
    {
        return Some(format!(
            "a handoff artefact saved after it ({}) supersedes it",
            h.format("%Y-%m-%d %H:%M UTC")
        ));
    }
    // An automatic checkpoint is a snapshot of a session's state at a compaction: the task
    // updates that followed it (its tasks completed) or later work leave it behind.
    if is_automatic(cp) {
        if let Some(why) = project
            .session_recap(None)
            .and_then(|r| overtaken_by(cp, &r, written, latest))
        {
            return Some(why);
        }
    }
    let commit = cp.commit.as_deref()?;
    if cp.changed.len() < cp.dirty {
        return None;
    }
    // The commits since it first (a walk from HEAD that stops at once when there are
    // none): the work tree's status, which the rest needs, is read only after.
    let (branch, _) = head_facts(project)?;
    if cp.branch.as_deref() != Some(branch.as_str()) {
        return None;
    }
    let work = project.work_since(commit)?;
    let listed: Vec<&String> = cp.changed.iter().filter(|p| !work.in_state(p)).collect();
    let committed = |p: &&String| {
        let dir = p.ends_with('/').then_some(p.as_str());
        work.paths.contains(p.as_str())
            || dir.is_some_and(|d| work.paths.iter().any(|c| c.starts_with(d)))
    };
    if work.commits == 0 || listed.is_empty() || !listed.iter().all(committed) {
        return None;
    }
    let now = git_facts(project)?;
    let still = |p: &&String| {
        now.changed
            .iter()
            .any(|l| status_path(l).as_ref() == Some(*p))
    };
    let done = !listed.iter().any(still);
    done.then(|| {
        format!(
            "its work was committed ({} commit{} since it was written)",
            work.commits,
            if work.commits == 1 { "" } else { "s" }
        )
    })
}

/// How the automatic checkpoint lists the model's task `subject`: said to be the model's
/// and quoted (`compact`), so that a later look at the task list finds it again.
pub(crate) fn labelled_task(subject: &str) -> String {
    format!(
        "the model's task \"{}\"",
        crate::core::text::quotable(subject, 300)
    )
}

/// Why the newest session's record `r` leaves automatic checkpoint `cp` behind: every task
/// it listed as left that the session's task list knows is completed, or the session did
/// work after it was written.
fn overtaken_by(
    cp: &Parsed,
    r: &crate::core::recap::Recap,
    written: chrono::DateTime<chrono::Utc>,
    latest: chrono::DateTime<chrono::Utc>,
) -> Option<String> {
    use crate::core::recap::TaskStatus;
    let known: Vec<TaskStatus> = cp
        .left
        .iter()
        .filter_map(|item| {
            r.tasks
                .iter()
                .find(|t| t.subject == *item || labelled_task(&t.subject) == *item)
                .map(|t| t.status)
        })
        .collect();
    if !known.is_empty() && known.iter().all(|s| *s == TaskStatus::Completed) {
        return Some("the tasks it listed as left were completed since".into());
    }
    let work = r.last_work.filter(|w| *w > written && *w <= latest)?;
    Some(format!(
        "the session's work after it ({}) supersedes it",
        work.format("%Y-%m-%d %H:%M UTC")
    ))
}

/// At a session start: resolves the active checkpoint when it no longer stands
/// (`superseded`); the line that tells the user, when it was.
pub(crate) fn settle(project: &Project) -> Result<Option<String>> {
    let rune = Rune::of(project);
    let Some(text) = rune.read(store::CHECKPOINT).ok().flatten() else {
        return Ok(None);
    };
    if !Ledger::of(project).knows(store::CHECKPOINT, &text) {
        return Ok(None);
    }
    let Some(why) = superseded(project, &parse(&text)) else {
        return Ok(None);
    };
    Ok(resolve(project)?.map(|name| {
        format!(
            "baton: the checkpoint in {} was resolved: {why} (kept as {}).",
            rune.show(store::CHECKPOINT),
            rune.show(&name)
        )
    }))
}

/// Writes the checkpoint (one active; the previous one is replaced). Returns the git facts
/// it recorded, and whether it wrote `.rune/.gitignore` first (for the command to commit:
/// after the facts were read, so its "Last commit" is the user's).
pub(crate) fn write(
    project: &Project,
    input: &CheckpointInput,
) -> Result<(Option<GitFacts>, bool)> {
    input.check()?;
    let g = git_facts_for_checkpoint(project);
    let text = project.redact(&render(input, g.as_ref(), project.now()));
    let wrote_ignore = put(project, &text)?;
    Ok((g, wrote_ignore))
}

/// How the name of a pending checkpoint starts.
const PENDING_PREFIX: &str = "checkpoint.pending.";

/// Where the automatic checkpoint of a compaction waits until the compaction happened:
/// private, per session (`<XDG state>/projects/<key>/checkpoint.pending.<session>.md`).
fn pending_path(project: &Project, session_id: &str) -> Option<std::path::PathBuf> {
    let sid: String = session_id
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(64)
        .collect();
    let dir = crate::core::paths::project_state_dir(&project.ctx.env, &project.root)?;
    Some(dir.join(format!(
        "{PENDING_PREFIX}{}.md",
        if sid.is_empty() { "session" } else { &sid }
    )))
}

/// PreCompact's automatic checkpoint, kept aside until the compaction is seen to happen
/// (`confirm_pending`): a compaction Claude Code refuses ("Not enough messages") still runs
/// PreCompact, and must leave no checkpoint behind.
pub(crate) fn write_pending(
    project: &Project,
    session_id: &str,
    input: &CheckpointInput,
) -> Result<()> {
    input.check()?;
    let Some(path) = pending_path(project, session_id) else {
        return Ok(());
    };
    let g = git_facts_for_checkpoint(project);
    let text = project.redact(&render(input, g.as_ref(), project.now()));
    if let Some(dir) = path.parent() {
        crate::core::fsx::ensure_private_dir(dir)?;
    }
    crate::core::fsx::replace_file(&path, text.as_bytes(), crate::core::fsx::PRIVATE_FILE)
}

/// The compaction of `session_id` happened (PostCompact, or the SessionStart after it): its
/// automatic checkpoint becomes the active one, unless a checkpoint saved on purpose stands
/// there now (`stands_on_purpose`). One that does not and is not baton's automatic one (a
/// hand edit, another tool's file, one the integrity scan blocks) is set aside first, as a
/// resolved archive: kept on disk, never injected as is. Only now, not at PreCompact: a
/// compaction that was refused changes nothing. Returns whether one was put in place.
/// Idempotent.
pub(crate) fn confirm_pending(project: &Project, session_id: &str) -> Result<bool> {
    let Some(path) = pending_path(project, session_id) else {
        return Ok(false);
    };
    let Some(text) = crate::core::fsx::read_limited(&path, crate::core::fsx::Limit::DOCUMENT)?
    else {
        return Ok(false);
    };
    let rune = Rune::of(project);
    let standing = rune.read(store::CHECKPOINT).ok().flatten();
    let keep = match standing.as_deref() {
        Some(t) => stands_on_purpose(project, &rune, t)?,
        None => false,
    };
    if !keep {
        if standing
            .as_deref()
            .is_some_and(|t| !is_automatic(&parse(t)))
        {
            resolve(project)?;
        }
        put(project, &text)?;
    }
    std::fs::remove_file(&path).map_err(|e| Error::io("remove", &path, e))?;
    Ok(!keep)
}

/// Whether the checkpoint `text` (the one in `rune` now) stands on purpose, so that no
/// automatic checkpoint replaces it: written through baton by the user or the model (not at
/// a compaction), and below the integrity scan's block level (conflict markers count as
/// blocked).
pub(crate) fn stands_on_purpose(project: &Project, rune: &Rune, text: &str) -> Result<bool> {
    if is_automatic(&parse(text)) || !Ledger::of(project).knows(store::CHECKPOINT, text) {
        return Ok(false);
    }
    let (status, conflicted) =
        integrity::Scanner::cached(project, rune).file_check(rune, store::CHECKPOINT)?;
    Ok(!conflicted && status < integrity::block_at(project.config()))
}

/// Pending checkpoints older than this are of compactions that did not happen.
const PENDING_KEPT_HOURS: i64 = 24;

/// Removes the pending checkpoints of compactions that never happened (a refused `/compact`
/// leaves one that nothing confirms): those written more than a day ago, by the stamp they
/// carry (one without a readable stamp too). The folder holds only a few small files.
pub(crate) fn drop_stale_pending(project: &Project) {
    let Some(dir) = crate::core::paths::project_state_dir(&project.ctx.env, &project.root) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return;
    };
    let limit = project.now() - chrono::Duration::hours(PENDING_KEPT_HOURS);
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let path = e.path();
        if !name.starts_with(PENDING_PREFIX) || path.extension().is_none_or(|x| x != "md") {
            continue;
        }
        let written = crate::core::fsx::read_limited(&path, crate::core::fsx::Limit::DOCUMENT)
            .ok()
            .flatten()
            .and_then(|t| parse(&t).written);
        if written.is_none_or(|w| w < limit) {
            let _ = std::fs::remove_file(&path);
        }
    }
}

/// Puts `text` in place as the active checkpoint, recorded as baton's own; the folder's
/// ignore rules first (whether they were written now).
fn put(project: &Project, text: &str) -> Result<bool> {
    let rune = Rune::of(project);
    let _lock = rune.lock()?;
    let wrote_ignore = super::rules::ensure_private(&rune)?;
    rune.write(store::CHECKPOINT, text)?;
    let ledger = Ledger::of(project);
    let r = ledger.record(
        store::CHECKPOINT,
        &[text.to_string()],
        "checkpoint",
        project.now(),
    );
    // PreCompact writes checkpoints too: a hook says nothing on stderr.
    provenance::note(r, true);
    Ok(wrote_ignore)
}

/// The "Checkpoint Saved" report.
pub(crate) fn report(input: &CheckpointInput, g: Option<&GitFacts>) -> String {
    let git = g.map_or_else(
        || "no git".to_string(),
        |g| {
            let state = if g.changed.is_empty() {
                "clean".to_string()
            } else {
                format!("{} files", g.changed.len())
            };
            format!("{} @ {} — {state}", g.branch, g.commit)
        },
    );
    format!(
        "## Checkpoint Saved\n- **Resume point**: {}\n- **Git state**: {git}\n- **Remaining tasks**: {}\n- Next session will auto-detect this checkpoint and offer to resume.\n",
        one_line(&input.resume),
        input.left.len()
    )
}

/// Archives the active checkpoint; returns the new name, `None` when there was none.
pub(crate) fn resolve(project: &Project) -> Result<Option<String>> {
    let rune = Rune::of(project);
    let _lock = rune.lock()?;
    let from = rune.path(store::CHECKPOINT);
    crate::core::fsx::refuse_symlink(&from)?;
    if !from.is_file() {
        return Ok(None);
    }
    super::rules::ensure_private(&rune)?;
    let d = store::day(project.now());
    // The same day again gets the next number past every one used so far, so names sort
    // in the order they were resolved even after older ones were pruned.
    let prefix = format!("checkpoint-{d}");
    let used = std::fs::read_dir(&rune.dir).map_or(0, |rd| {
        rd.filter_map(std::result::Result::ok)
            .filter_map(|e| {
                let n = e.file_name().to_string_lossy().into_owned();
                let rest = n.strip_prefix(&prefix)?.strip_suffix(".resolved.md")?;
                if rest.is_empty() {
                    Some(1)
                } else {
                    rest.strip_prefix('-')?.parse::<u32>().ok()
                }
            })
            .max()
            .unwrap_or(0)
    });
    let name = if used == 0 {
        format!("{prefix}.resolved.md")
    } else {
        format!("{prefix}-{}.resolved.md", used + 1)
    };
    let to = rune.path(&name);
    std::fs::rename(&from, &to).map_err(|e| Error::io("rename", &from, e))?;
    prune_resolved(&rune)?;
    Ok(Some(name))
}

/// Keeps the newest three resolved checkpoints.
fn prune_resolved(rune: &Rune) -> Result<()> {
    let Ok(rd) = std::fs::read_dir(&rune.dir) else {
        return Ok(());
    };
    let mut found: Vec<(std::time::SystemTime, String)> = rd
        .filter_map(std::result::Result::ok)
        .filter_map(|e| {
            let n = e.file_name().to_string_lossy().into_owned();
            (n.starts_with("checkpoint-") && n.ends_with(".resolved.md")).then(|| {
                let t = e
                    .metadata()
                    .and_then(|m| m.modified())
                    .unwrap_or(std::time::UNIX_EPOCH);
                (t, n)
            })
        })
        .collect();
    found.sort();
    let extra = found.len().saturating_sub(RESOLVED_KEPT);
    for (_, n) in found.into_iter().take(extra) {
        let p = rune.path(&n);
        std::fs::remove_file(&p).map_err(|e| Error::io("remove", &p, e))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn render_parses_back() {
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let input = CheckpointInput {
            doing: "Phase 2 task 3: retry logic".into(),
            decisions: vec!["Exponential backoff: simpler".into()],
            left: vec!["error handling in src/api/client.ts".into(), "tests".into()],
            context: vec!["the mock server drops every 3rd call".into()],
            resume: "Continue Phase 2 Task 3 in src/api/client.ts".into(),
        };
        let g = GitFacts {
            branch: "main".into(),
            commit: "abc1234".into(),
            changed: vec![" M src/a.rs".into()],
            subject: Some("retry: back off on 503".into()),
            stash: vec!["On main: half a refactor".into(), "WIP on main: x".into()],
        };
        let text = render(&input, Some(&g), now);
        assert!(
            text.contains("- Last commit: abc1234 retry: back off on 503\n"),
            "{text}"
        );
        assert!(
            text.contains("- Stashed: yes, 2 stashes — newest: On main: half a refactor\n"),
            "{text}"
        );
        let p = parse(&text);
        assert_eq!(p.written, Some(now));
        assert_eq!(p.doing, input.doing);
        assert_eq!(p.resume, input.resume);
        assert_eq!(p.branch.as_deref(), Some("main"));
        assert_eq!(p.commit.as_deref(), Some("abc1234"));
        assert_eq!(p.dirty, 1);
        assert_eq!(p.left, input.left);
        assert_eq!(p.decisions, input.decisions);
        assert_eq!(p.context, input.context);
    }
}
