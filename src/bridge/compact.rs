//! Around a compaction: PreCompact writes a checkpoint from what the bridge knows (git
//! state, the last progress entry, the last decisions, the previous checkpoint's resume
//! point) and asks the summary to keep that resume point; PostCompact appends Claude Code's
//! compaction summary to the session log.

use super::checkpoint::{self, CheckpointInput};
use super::entries::{heading_of, last_entries, progress_items};
use super::integrity::{self, Status};
use super::store::{self, one_line, Rune};
use crate::core::config::Config;
use crate::core::error::Result;
use crate::core::project::Project;
use crate::core::redact::Redactor;
use chrono::{DateTime, Utc};
use std::path::Path;

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
    Some(project.redact(&format!("{TOUCHED_NOTE}: {}{tail}", shown.join(", "))))
}

/// Writes the automatic checkpoint; returns the compaction instructions (when there is a
/// resume point worth keeping).
///
/// The sources (checkpoint, progress, decisions) pass the integrity scan first: a source
/// at or above the block level is not read at all. The instructions are baton's own text;
/// the resume line is quoted in them only when its source is CLEAN.
pub(crate) fn pre_compact(
    project: &Project,
    trigger: &str,
    user: &store::UserDirs,
) -> Result<Option<String>> {
    let (config, now) = (project.config(), project.now());
    let rune = Rune::new(&project.root, config);
    let red = project.redactor();
    let Sources {
        previous,
        progress,
        decisions,
        cp_status,
        progress_status,
    } = sources(&rune, config, red, user)?;
    let in_progress = progress
        .as_deref()
        .map(|p| progress_items(p, "In Progress"))
        .unwrap_or_default();
    let next = progress
        .as_deref()
        .map(|p| progress_items(p, "Next Session Should"))
        .unwrap_or_default();

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
    let mut decisions_all = previous.decisions.clone();
    for d in decisions {
        if !decisions_all.contains(&d) {
            decisions_all.push(d);
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
    // Where the resume line comes from decides whether it may be quoted to the summary.
    let resume_source = if previous.resume.is_empty() {
        cp_status.max(progress_status)
    } else {
        cp_status
    };
    let resume = if previous.resume.is_empty() {
        left.first().cloned().unwrap_or_else(|| {
            "Re-read the checkpoint's git state and the .rune/ summary, then continue the work in progress.".into()
        })
    } else {
        previous.resume.clone()
    };
    let input = CheckpointInput {
        doing,
        decisions: decisions_all,
        left,
        context,
        resume: resume.clone(),
    };
    checkpoint::write(&project.root, config, &input, now)?;
    let has_real_resume = !previous.resume.is_empty() || progress.is_some();
    if !has_real_resume {
        return Ok(None);
    }
    let text = if resume_source == Status::Clean {
        format!(
            "Keep this resume point word for word in the summary (baton saved it in {}): {}",
            rune.show(store::CHECKPOINT),
            one_line(&resume)
        )
    } else {
        format!(
            "baton saved a checkpoint in {}; say in the summary that the next step is to re-read it.",
            rune.show(store::CHECKPOINT)
        )
    };
    Ok(Some(red.redact(&text).text))
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

fn sources(
    rune: &Rune,
    config: &Config,
    red: &Redactor,
    user: &store::UserDirs,
) -> Result<Sources> {
    let block_at = integrity::block_at(config);
    let status = |file: &str| -> Result<Status> {
        if !rune.exists() {
            return Ok(Status::Clean);
        }
        integrity::file_verdict(
            rune,
            file,
            red,
            user.cache.as_deref(),
            &config.redact.extra_patterns,
        )
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
pub(crate) fn session_end(
    root: &Path,
    config: &Config,
    now: DateTime<Utc>,
    session_id: &str,
    reason: &str,
) -> Result<()> {
    let rune = Rune::new(root, config);
    if !rune.exists() {
        return Ok(());
    }
    let short: String = session_id.chars().take(8).collect();
    let line = one_line(&format!(
        "[{}] — {SESSION_END}: {}{})",
        store::stamp(now),
        if reason.is_empty() { "other" } else { reason },
        if short.is_empty() {
            String::new()
        } else {
            format!(", session {short}")
        }
    ));
    let _lock = rune.lock()?;
    rune.append(store::SESSION_LOG, &line)
}

/// Appends the compaction summary to the session log as one line.
pub(crate) fn post_compact(
    root: &Path,
    config: &Config,
    now: DateTime<Utc>,
    summary: &str,
) -> Result<()> {
    let summary = one_line(summary);
    if summary.is_empty() {
        return Ok(());
    }
    let rune = Rune::new(root, config);
    let red = Redactor::with_extra(&config.redact.extra_patterns);
    let short: String = summary.chars().take(1000).collect();
    let line = format!("[{}] — (compaction) {}", store::stamp(now), short);
    let _lock = rune.lock()?;
    rune.append(store::SESSION_LOG, &red.redact(&line).text)
}
