//! Around a compaction: PreCompact writes a checkpoint from what the bridge knows (git
//! state, the last progress entry, the last decisions, the previous checkpoint's resume
//! point) and asks the summary to keep that resume point; PostCompact appends Claude Code's
//! compaction summary to the user's private session log (`private_log`).

use super::checkpoint::{self, CheckpointInput, AUTO_NOTE};
use super::entries::{heading_of, newest_entries, progress_items};
use super::integrity::{self, Scanner};
use super::provenance::Ledger;
use super::store::{self, Rune};
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::recap::{Recap, RecapTask, TaskStatus};
use crate::core::scan::{Secrets, Status};
use crate::core::text::{one_line, quotable};
use crate::core::trust;

/// The resume point of an automatic checkpoint that knows nothing of the session's work: it
/// names no work of its own ("Resume here" does not let it win).
pub(crate) const GENERIC_RESUME: &str = "Re-read the checkpoint's git state and the .rune/ summary, then continue the work in progress.";

/// How the checkpoint's context names the files the audit trail saw changed.
const TOUCHED_NOTE: &str = "Files changed this session (audit trail)";
/// File names listed before "and N more".
const MAX_TOUCHED: usize = 20;

/// What the agent changed this session, committed or not, from the audit trail: one line,
/// or none when nothing was changed.
fn touched_note(project: &Project) -> Option<String> {
    let touched = project.session_changes();
    if touched.is_empty() {
        return None;
    }
    let shown: Vec<&str> = touched
        .iter()
        .take(MAX_TOUCHED)
        .map(String::as_str)
        .collect();
    let more = touched.len().saturating_sub(MAX_TOUCHED);
    let tail = if more > 0 {
        format!(" (and {more} more)")
    } else {
        String::new()
    };
    // Not redacted here: the checkpoint is redacted whole when it is written.
    Some(format!("{TOUCHED_NOTE}: {}{tail}", shown.join(", ")))
}

/// Writes the automatic checkpoint; returns the compaction instructions (when there is a
/// resume point worth keeping).
///
/// A checkpoint the user or the model wrote (`baton bridge checkpoint`) is never replaced
/// by an automatic one: it stays as it is, and its resume point is what the summary keeps.
/// Otherwise the automatic checkpoint is filled from what capture recorded of this session
/// (the request, the task list, the last failure, the files in flight), then the last
/// progress entry and decisions.
///
/// The sources (checkpoint, progress, decisions) pass the integrity scan first: a source
/// at or above the block level is not read at all; an unreviewed one (not written by
/// baton, `provenance`) is not copied. The instructions are baton's own text; the resume
/// line is quoted in them only when its source is CLEAN and baton's own.
pub(crate) fn pre_compact(
    project: &Project,
    trigger: &str,
    session_id: &str,
) -> Result<Option<String>> {
    let rune = Rune::of(project);
    // A project that does not use the bridge gets no .rune/ from a hook: the digest capture
    // keeps privately is its automatic record of the session.
    if !rune.in_use(project.config()) {
        return Ok(None);
    }
    let src = sources(project, &rune)?;
    // A checkpoint the user or the model wrote through baton is never replaced. One that is
    // unreviewed (a hand edit, another tool's, a teammate's) or blocked by the integrity scan
    // is not trusted to stand as the resume point: once the compaction is seen to happen it
    // is set aside as a resolved archive and the automatic one takes its place
    // (`checkpoint::confirm_pending`); a refused compaction leaves it where it is.
    let block_at = integrity::block_at(project.config());
    let explicit = src.written == Written::ByHand { reviewed: true } && src.cp_status < block_at;
    let recap = project.session_recap(Some(session_id).filter(|s| !s.is_empty()));
    let input = if explicit {
        None
    } else {
        let input = auto_checkpoint(project, &src, recap.as_ref(), trigger);
        // Put in place once the compaction is seen to happen (`confirm_compaction`).
        checkpoint::write_pending(project, session_id, &input)?;
        Some(input)
    };
    let resume = input
        .as_ref()
        .map_or(src.previous.resume.as_str(), |i| i.resume.as_str());
    let has_real_resume = explicit || src.progress.is_some() || recap_has_work(recap.as_ref());
    if !has_real_resume {
        return Ok(None);
    }
    // Only a checkpoint saved on purpose through baton, scanned CLEAN, is quoted to the
    // summary word for word: an automatic one is made of what the session said and did
    // (capture's compaction instructions carry that, as data).
    let text = if explicit && src.cp_status == Status::Clean && !resume.is_empty() {
        format!(
            "Keep this resume point word for word in the summary (baton saved it in {}): {}",
            rune.show(store::CHECKPOINT),
            one_line(resume)
        )
    } else {
        format!(
            "baton saved a checkpoint in {}; say in the summary that the next step is to re-read it.",
            rune.show(store::CHECKPOINT)
        )
    };
    // The hook's output stage redacts the instructions (as everything it prints).
    Ok(Some(text))
}

/// Who wrote the checkpoint that stands before a compaction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Written {
    None,
    /// baton, at an earlier compaction.
    Automatic,
    /// The user or the model (through `baton bridge checkpoint`: reviewed), or a hand edit.
    ByHand {
        reviewed: bool,
    },
}

/// Whether the recap holds something to resume: a request or an open task.
fn recap_has_work(recap: Option<&Recap>) -> bool {
    recap.is_some_and(|r| r.latest_request.is_some() || r.tasks.iter().any(is_open))
}

fn is_open(t: &RecapTask) -> bool {
    t.status != TaskStatus::Completed
}

/// The automatic checkpoint: what capture recorded of this session first (the latest request
/// and the task in progress; the open tasks in order; the last failure and the files in
/// flight), then the last progress entry's open items and the last decisions, plus one note
/// on this compaction and the files the audit trail saw changed.
fn auto_checkpoint(
    project: &Project,
    src: &Sources,
    recap: Option<&Recap>,
    trigger: &str,
) -> CheckpointInput {
    let items = |title: &str| {
        src.progress
            .as_deref()
            .map(|p| progress_items(p, title))
            .unwrap_or_default()
    };
    // What the session made and said (its tasks, the tools' output, its conclusion and next
    // action) is copied only where the scan finds nothing in it: this checkpoint is baton's
    // own memory, so the session's words must neither block it nor ride in on its trust.
    // The user's own words (the request, the corrections) are the user's.
    let red = project.redactor();
    let open: Vec<RecapTask> = recap
        .map(|r| {
            r.tasks
                .iter()
                .filter(|t| is_open(t))
                .cloned()
                .collect::<Vec<_>>()
        })
        .unwrap_or_default()
        .into_iter()
        .map(|t| RecapTask {
            subject: models_task(&t.subject, red),
            ..t
        })
        .collect();
    let current = open.iter().find(|t| t.status == TaskStatus::InProgress);
    let in_progress = items("In Progress");
    let mut left: Vec<String> = open.iter().map(|t| t.subject.clone()).collect();
    // What capture recorded of this session is this session's task list: an older bridge
    // save's items are not mixed in. Only without it (capture off, nothing read) do they fill
    // the list.
    let recorded = recap.is_some_and(|r| r.last_work.is_some() || r.latest_request.is_some());
    if !recorded {
        for item in in_progress.iter().chain(&items("Next Session Should")) {
            if !left.contains(item) {
                left.push(item.clone());
            }
        }
    }
    let request = recap.and_then(|r| r.latest_request.clone());
    let doing = match (&request, current) {
        (Some(req), Some(t)) => format!("{req} — in progress: {}", t.subject),
        (Some(req), None) => req.clone(),
        (None, Some(t)) => t.subject.clone(),
        (None, None) => in_progress.first().cloned().unwrap_or_else(|| {
            "The work of the session that was compacted (nothing was captured of it).".into()
        }),
    };
    let mut context = recap.map(|r| recap_context(r, red)).unwrap_or_default();
    context.push(format!(
        "{AUTO_NOTE} at PreCompact ({trigger}); uncommitted files are listed under the git state."
    ));
    context.extend(touched_note(project));
    // What capture says the session left open, as a short imperative, first (baton's own
    // words instead when the scan flags it).
    let resume = recap.and_then(|r| r.next_action.clone()).map_or_else(
        || match (current, left.first(), &request) {
            (Some(t), _, _) => format!(
                "Continue the task in progress: \"{}\"",
                quotable(&t.subject, QUOTED_MAX)
            ),
            (None, Some(next), _) => format!("Continue with: \"{}\"", quotable(next, QUOTED_MAX)),
            (None, None, Some(req)) => {
                format!("Continue the request: \"{}\"", quotable(req, QUOTED_MAX))
            }
            (None, None, None) => GENERIC_RESUME.into(),
        },
        |a| {
            if trust::verdict(&a, red).flagged() || trust::has_left_out(&a) {
                GENERIC_RESUME.to_string()
            } else {
                // Built from the session's tasks or its words: quoted, and said to be so.
                format!(
                    "The session's next step (its words, quoted): \"{}\"",
                    quotable(&a, QUOTED_MAX)
                )
            }
        },
    );
    CheckpointInput {
        doing,
        decisions: src.decisions.clone(),
        left,
        context,
        resume,
    }
}

/// Characters of a next step of the session's, quoted.
const QUOTED_MAX: usize = 300;

/// A task the model made, as the checkpoint shows it: said to be the model's and quoted (it
/// comes back as a next step from baton's own checkpoint), and copied only where the scan
/// finds nothing in it (`trust::clean_field`).
fn models_task(subject: &str, red: &dyn Secrets) -> String {
    checkpoint::labelled_task(&trust::clean_field(subject, red))
}

/// The recap's context lines: the user's corrections, the last failure, the files in flight,
/// the last conclusion — what is not the user's said to come from the session, quoted, and
/// copied only where the scan finds nothing in it (`trust::clean_field`).
fn recap_context(r: &Recap, red: &dyn Secrets) -> Vec<String> {
    let quoted = |s: &str| {
        format!(
            "\"{}\"",
            trust::clean_field(&one_line(s), red).replace('"', "'")
        )
    };
    let mut out: Vec<String> = r
        .corrections
        .iter()
        .map(|c| format!("The user corrected: {}", one_line(c)))
        .collect();
    if let Some(f) = &r.last_failure {
        out.push(format!(
            "Last failure (the session's tool output): {} → {}",
            quoted(&f.command),
            quoted(&f.error)
        ));
    }
    if !r.files.is_empty() {
        let shown: Vec<String> = r
            .files
            .iter()
            .rev()
            .take(MAX_TOUCHED)
            .map(|f| trust::clean_field(f, red))
            .collect();
        out.push(format!("Files in flight: {}", shown.join(", ")));
    }
    if let Some(c) = &r.conclusion {
        out.push(format!(
            "Last conclusion (the assistant's words): {}",
            quoted(c)
        ));
    }
    out
}

/// What the automatic checkpoint is built from; a source at or above the block level is
/// left empty (not read).
struct Sources {
    /// The checkpoint as it stands: none, baton's automatic one, or one the user or the model
    /// wrote (reviewed: written through baton; else a hand edit or another tool's).
    written: Written,
    previous: checkpoint::Parsed,
    progress: Option<String>,
    decisions: Vec<String>,
    cp_status: Status,
}

fn sources(project: &Project, rune: &Rune) -> Result<Sources> {
    let block_at = integrity::block_at(project.config());
    let scanner = Scanner::cached(project, rune);
    // A file a merge left with conflict markers is not read, as one at the block level.
    let status = |file: &str| -> Result<Status> {
        if !rune.exists() {
            return Ok(Status::Clean);
        }
        let (status, conflicted) = scanner.file_check(rune, file)?;
        Ok(if conflicted { Status::Tainted } else { status })
    };
    let cp_status = status(store::CHECKPOINT)?;
    let progress_status = status(store::PROGRESS)?;
    // Only what baton wrote is carried into the checkpoint it writes now: an unreviewed
    // entry copied here would come back as baton's own (provenance), and quoted to the
    // compaction summary.
    let ledger = Ledger::of(project);
    let raw = rune.read(store::CHECKPOINT)?;
    let written = match &raw {
        None => Written::None,
        Some(t) if checkpoint::is_automatic(&checkpoint::parse(t)) => Written::Automatic,
        Some(t) => Written::ByHand {
            reviewed: ledger.knows(store::CHECKPOINT, t),
        },
    };
    let previous = if cp_status < block_at {
        raw.filter(|t| ledger.knows(store::CHECKPOINT, t))
            .map(|t| checkpoint::parse(&t))
            .unwrap_or_default()
    } else {
        checkpoint::Parsed::default()
    };
    let progress = if progress_status < block_at {
        newest_entries(&rune.path(store::PROGRESS), 1)?
            .pop()
            .filter(|e| ledger.knows(store::PROGRESS, e))
    } else {
        None
    };
    let decisions: Vec<String> = if status(store::DECISIONS)? < block_at {
        newest_entries(&rune.path(store::DECISIONS), 3)?
            .iter()
            .rev()
            .filter(|e| ledger.knows(store::DECISIONS, e))
            .map(|e| heading_of(e).replacen("Decision: ", "", 1))
            .collect()
    } else {
        Vec::new()
    };

    Ok(Sources {
        written,
        previous,
        progress,
        decisions,
        cp_status,
    })
}

/// The marker of the line SessionEnd writes; load skips such lines for "last session".
pub(crate) const SESSION_END: &str = "(session end";

/// Appends one line for the end of a session to the private session log, when the project
/// has a `.rune/` folder.
pub(crate) fn session_end(project: &Project, session_id: &str, reason: &str) -> Result<()> {
    // A project that does not use the bridge keeps no session log at all.
    if !Rune::of(project).exists() {
        return Ok(());
    }
    let short: String = session_id.chars().take(8).collect();
    let line = one_line(&format!(
        "[{}] — {SESSION_END}: {}{})",
        store::stamp(project.now()),
        if reason.is_empty() { "other" } else { reason },
        if short.is_empty() {
            String::new()
        } else {
            format!(", session {short}")
        },
    ));
    append_hook_line(project, &line)?;
    Ok(())
}

/// Appends a line a hook writes to the user's private session log (`private_log`): never to
/// `.rune/session-log.md`, which is tracked.
fn append_hook_line(project: &Project, line: &str) -> Result<()> {
    super::private_log::append(project, line)
}

/// The compaction of `session_id` happened (PostCompact, or the SessionStart with source
/// `compact` after it): the automatic checkpoint PreCompact kept aside becomes the active one.
pub(crate) fn confirm_compaction(project: &Project, session_id: &str) -> Result<()> {
    checkpoint::confirm_pending(project, session_id).map(|_| ())
}

/// Confirms the compaction, then appends its summary as one line to the private session log
/// (only where `.rune/` exists).
pub(crate) fn post_compact(project: &Project, session_id: &str, summary: &str) -> Result<()> {
    confirm_compaction(project, session_id)?;
    // Redacted before the fold and the cut: a token split by a line break is found whole
    // only before the break becomes a space, and a cut could leave half of one.
    let summary = one_line(&project.redact(summary));
    if summary.is_empty() || !Rune::of(project).exists() {
        return Ok(());
    }
    let short = crate::core::text::clip(&summary, 1000);
    let line = format!("[{}] — (compaction) {short}", store::stamp(project.now()));
    append_hook_line(project, &line)?;
    Ok(())
}
