//! Around a compaction: PreCompact writes a checkpoint from what the bridge knows (git
//! state, the last progress entry, the last decisions, the previous checkpoint's resume
//! point) and asks the summary to keep that resume point; PostCompact appends Claude Code's
//! compaction summary to the session log.

use super::checkpoint::{self, CheckpointInput};
use super::entries::{heading_of, last_entries, progress_items};
use super::integrity::{self, Scanner, Status};
use super::store::{self, Rune};
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::text::one_line;

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
/// The sources (checkpoint, progress, decisions) pass the integrity scan first: a source
/// at or above the block level is not read at all. The instructions are baton's own text;
/// the resume line is quoted in them only when its source is CLEAN.
pub(crate) fn pre_compact(project: &Project, trigger: &str) -> Result<Option<String>> {
    let rune = Rune::of(project);
    let src = sources(project, &rune)?;
    let input = auto_checkpoint(project, &src, trigger);
    checkpoint::write(project, &input)?;
    let has_real_resume = !src.previous.resume.is_empty() || src.progress.is_some();
    if !has_real_resume {
        return Ok(None);
    }
    // Where the resume line comes from decides whether it may be quoted to the summary.
    let resume_source = if src.previous.resume.is_empty() {
        src.cp_status.max(src.progress_status)
    } else {
        src.cp_status
    };
    let text = if resume_source == Status::Clean {
        format!(
            "Keep this resume point word for word in the summary (baton saved it in {}): {}",
            rune.show(store::CHECKPOINT),
            one_line(&input.resume)
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

/// The automatic checkpoint: the previous one's content, merged with the last progress
/// entry's open items and the last decisions, plus one note on this compaction and the
/// files the audit trail saw changed.
fn auto_checkpoint(project: &Project, src: &Sources, trigger: &str) -> CheckpointInput {
    let previous = &src.previous;
    let items = |title: &str| {
        src.progress
            .as_deref()
            .map(|p| progress_items(p, title))
            .unwrap_or_default()
    };
    let in_progress = items("In Progress");
    let next = items("Next Session Should");
    let doing = if !previous.doing.is_empty() {
        previous.doing.clone()
    } else if let Some(first) = in_progress.first() {
        first.clone()
    } else {
        "The work of the session that was compacted (no explicit checkpoint was saved).".into()
    };
    let mut left: Vec<String> = previous.left.clone();
    for item in in_progress.iter().chain(&next) {
        if !left.contains(item) {
            left.push(item.clone());
        }
    }
    let mut decisions = previous.decisions.clone();
    for d in &src.decisions {
        if !decisions.contains(d) {
            decisions.push(d.clone());
        }
    }
    // One auto note, however many compactions there were.
    let mut context: Vec<String> = previous
        .context
        .iter()
        .filter(|c| !c.starts_with(AUTO_NOTE) && !c.starts_with(TOUCHED_NOTE))
        .cloned()
        .collect();
    context.push(format!(
        "{AUTO_NOTE} at PreCompact ({trigger}); uncommitted files are listed under the git state."
    ));
    context.extend(touched_note(project));
    let resume = if previous.resume.is_empty() {
        left.first().cloned().unwrap_or_else(|| {
            "Re-read the checkpoint's git state and the .rune/ summary, then continue the work in progress.".into()
        })
    } else {
        previous.resume.clone()
    };
    CheckpointInput {
        doing,
        decisions,
        left,
        context,
        resume,
    }
}

/// What the automatic checkpoint is built from; a source at or above the block level is
/// left empty (not read).
struct Sources {
    previous: checkpoint::Parsed,
    progress: Option<String>,
    decisions: Vec<String>,
    cp_status: Status,
    progress_status: Status,
}

fn sources(project: &Project, rune: &Rune) -> Result<Sources> {
    let block_at = integrity::block_at(project.config());
    let scanner = Scanner::cached(project, rune);
    let status = |file: &str| -> Result<Status> {
        if !rune.exists() {
            return Ok(Status::Clean);
        }
        scanner.file_verdict(rune, file)
    };
    let cp_status = status(store::CHECKPOINT)?;
    let progress_status = status(store::PROGRESS)?;
    let previous = if cp_status < block_at {
        rune.read(store::CHECKPOINT)?
            .map(|t| checkpoint::parse(&t))
            .unwrap_or_default()
    } else {
        checkpoint::Parsed::default()
    };
    let progress = if progress_status < block_at {
        last_entries(&rune.path(store::PROGRESS), 1)?.pop()
    } else {
        None
    };
    let decisions: Vec<String> = if status(store::DECISIONS)? < block_at {
        last_entries(&rune.path(store::DECISIONS), 3)?
            .iter()
            .map(|e| heading_of(e).replacen("Decision: ", "", 1))
            .collect()
    } else {
        Vec::new()
    };

    Ok(Sources {
        previous,
        progress,
        decisions,
        cp_status,
        progress_status,
    })
}

/// How the automatic checkpoint marks its context note.
const AUTO_NOTE: &str = "Auto-checkpoint written by baton";

/// The marker of the line SessionEnd writes; load skips such lines for "last session".
pub(crate) const SESSION_END: &str = "(session end";

/// Appends one line for the end of a session, when the project has a `.rune/` folder.
pub(crate) fn session_end(project: &Project, session_id: &str, reason: &str) -> Result<()> {
    let rune = Rune::of(project);
    if !rune.exists() {
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
        }
    ));
    if rune.append_line_unlocked(store::SESSION_LOG, &line)? {
        return Ok(());
    }
    let _lock = rune.lock()?;
    rune.append(store::SESSION_LOG, &line).map(drop)
}

/// Appends the compaction summary to the session log as one line.
pub(crate) fn post_compact(project: &Project, summary: &str) -> Result<()> {
    let summary = one_line(summary);
    if summary.is_empty() {
        return Ok(());
    }
    let rune = Rune::of(project);
    let short: String = summary.chars().take(1000).collect();
    let line = format!("[{}] — (compaction) {}", store::stamp(project.now()), short);
    let line = project.redact(&line);
    if rune.append_line_unlocked(store::SESSION_LOG, &line)? {
        return Ok(());
    }
    let _lock = rune.lock()?;
    rune.append(store::SESSION_LOG, &line).map(drop)
}
