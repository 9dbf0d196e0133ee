//! The session digest: what capture keeps of one Claude Code session, small and bounded
//! whatever the transcript's size (a few KB: texts clipped, lists capped), redacted before it
//! is written. `fold` fills it from transcript lines; `store` keeps it, with the read cursor,
//! in one private file per session; `Digest::recap` is the view other subsystems get.
//!
//! While lines are folded in, texts are held raw (each at most `entry::TEXT_HEAD` bytes, cut on
//! white space); `finalize` redacts, flattens and clips every one of them before anything is
//! stored, so the redactor runs once per update over a few KB, not once per line.

use super::tasks::Task;
use crate::core::scan::Secrets;
use crate::core::text::{clip, clip_middle, one_line, tidy_lines};
use crate::core::{time, trust};
use serde::{Deserialize, Serialize};
use std::collections::HashSet;

/// Characters kept of the first and the latest request.
const REQUEST_CHARS: usize = 1_000;
/// Characters kept of the assistant's last text, and of the newest turn's conclusion (its
/// start and its end: `text::clip_middle`).
const ASSISTANT_CHARS: usize = 1_500;
/// Characters kept of an earlier turn's conclusion (start and end).
const EARLIER_CONCLUSION_CHARS: usize = 500;
/// Characters kept of the request a turn answered.
const TURN_REQUEST_CHARS: usize = 300;
/// Characters kept of a correction, a task subject, a subagent's description.
const ITEM_CHARS: usize = 300;
/// Characters kept of a path, a command, an error line.
const LINE_CHARS: usize = 300;
/// Files kept (the most recently touched).
pub(crate) const MAX_FILES: usize = 20;
/// Failures kept (the newest).
pub(crate) const MAX_FAILURES: usize = 5;
/// Corrections kept (the newest).
pub(crate) const MAX_CORRECTIONS: usize = 5;
/// Subagent launches kept (the newest).
pub(crate) const MAX_SUBAGENTS: usize = 5;
/// Finished turns kept (the newest), each with its conclusion.
pub(crate) const MAX_TURNS: usize = 8;
/// Error lines kept per turn (the first).
pub(crate) const MAX_TURN_ERRORS: usize = 3;

/// One session's digest.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Digest {
    pub(crate) session_id: String,
    /// The first entry's time (RFC 3339).
    pub(crate) started: Option<String>,
    /// The newest entry's time.
    pub(crate) last_activity: Option<String>,
    /// When SessionEnd was seen.
    pub(crate) ended: Option<String>,
    /// SessionEnd's reason.
    pub(crate) end_reason: Option<String>,
    /// When baton last wrote the digest.
    pub(crate) updated: Option<String>,
    pub(crate) first_request: Option<String>,
    pub(crate) latest_request: Option<String>,
    /// The newest prompts that correct the agent.
    pub(crate) corrections: Vec<String>,
    /// The task list, latest status per task.
    pub(crate) tasks: Vec<Task>,
    /// Files changed (Edit, Write, MultiEdit, NotebookEdit, and what Bash commands write),
    /// least recently touched first.
    pub(crate) files: Vec<String>,
    /// The newest failed tool calls, oldest first; one that later succeeds is dropped.
    pub(crate) failures: Vec<Failure>,
    /// The assistant's last text (Stop's `last_assistant_message` when newer).
    pub(crate) last_assistant: Option<String>,
    /// The newest finished turns, oldest first: each one's request and the assistant's final
    /// message (its conclusion). A later turn never overwrites an earlier one's.
    pub(crate) turns: Vec<TurnNote>,
    /// The turn under way at the last read: asked, not answered yet. In a session that is
    /// not running any more, the turn it was cut off in (a crash, a closed terminal).
    pub(crate) open_turn: Option<TurnNote>,
    /// When the session last did work in the project: its newest tool call that can change
    /// something (an edit, a command, a task update; not a read or a search), RFC 3339.
    pub(crate) last_work: Option<String>,
    /// When the session last stated what it was doing — its last work, or the start of the
    /// turn it was cut off in — on baton's clock: the transcript's time, never later than
    /// the update that read it (so it orders against saves, which baton dates).
    pub(crate) stated: Option<String>,
    /// Its last act of work was followed by a save through baton (a checkpoint, a bridge
    /// save, a handoff): the session ended its work by saying what comes next.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) saved_last: bool,
    /// What the newest subagents were launched for.
    pub(crate) subagents: Vec<String>,
    pub(crate) branch: Option<String>,
    pub(crate) head: Option<String>,
    pub(crate) counts: Counts,
}

/// A failed tool call.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Failure {
    /// The tool (`Bash`, `Edit`, …).
    pub(crate) tool: String,
    /// The command, or the tool's target.
    pub(crate) command: String,
    /// The first line of the output that says what went wrong.
    pub(crate) error: String,
    /// The exit code, when the tool reported one.
    pub(crate) exit_code: Option<i64>,
    /// When the result was written (RFC 3339).
    pub(crate) at: Option<String>,
}

/// One turn: what the user asked and what the assistant concluded.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct TurnNote {
    /// The prompt that started the turn (empty when the turn began before the read did).
    pub(crate) request: String,
    /// The assistant's final message of the turn (so far, for an open turn).
    pub(crate) conclusion: String,
    /// When the turn started (its prompt), RFC 3339.
    pub(crate) started: Option<String>,
    /// When it ended (its final message), RFC 3339.
    pub(crate) ended: Option<String>,
    /// Tool calls that did work (see `Digest::last_work`).
    pub(crate) work: u32,
    /// Claude Code's id of the prompt that started it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) prompt_id: Option<String>,
    /// The user's next prompt corrected it: its conclusion was not taken.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) corrected: bool,
    /// What went wrong in it: the first error lines of its failed tool calls (a test run
    /// whose output shows a failure counts, whatever its exit code), the first few.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) errors: Vec<String>,
    /// Read in this update (not stored): its texts are raw, to be redacted; a turn loaded
    /// from the digest file was redacted when it was written.
    #[serde(skip)]
    pub(crate) fresh: bool,
}

/// What was read, counted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Counts {
    /// Transcript bytes read, all updates together.
    pub(crate) bytes_read: u64,
    /// Lines read as entries.
    pub(crate) entries: u64,
    /// Lines that were not a JSON object (skipped).
    pub(crate) malformed_lines: u64,
    /// Lines over the line limit (skipped unread).
    pub(crate) long_lines: u64,
    pub(crate) prompts: u64,
    /// Assistant messages (one response written as several lines counts once).
    pub(crate) assistant_messages: u64,
    /// Tool calls of the main session (each `tool_use` id once).
    pub(crate) tool_calls: u64,
    /// Tool calls that did work (see `Digest::last_work`).
    pub(crate) work_calls: u64,
    pub(crate) tool_errors: u64,
    /// `compact_boundary` entries.
    pub(crate) compactions: u64,
    /// Subagent (sidechain) entries, kept out of everything above.
    pub(crate) sidechain_entries: u64,
    pub(crate) sidechain_tool_calls: u64,
    /// Agent (Task) calls of the main session.
    pub(crate) subagent_calls: u64,
}

impl Digest {
    /// Redacts, flattens to one line and clips every text; normalises the times.
    pub(crate) fn finalize(&mut self, redact: &dyn Fn(&str) -> String) {
        let text = |s: &str, max: usize| clip(&one_line(&redact(s)), max);
        let opt = |o: &mut Option<String>, max: usize| {
            *o = o.as_deref().map(|s| text(s, max)).filter(|s| !s.is_empty());
        };
        opt(&mut self.first_request, REQUEST_CHARS);
        opt(&mut self.latest_request, REQUEST_CHARS);
        self.last_assistant = self
            .last_assistant
            .as_deref()
            .map(|s| clip_middle(&one_line(&redact(s)), ASSISTANT_CHARS))
            .filter(|s| !s.is_empty());
        keep_last(&mut self.turns, MAX_TURNS);
        let newest = self.turns.len().saturating_sub(1);
        for (i, t) in self.turns.iter_mut().enumerate() {
            let max = if i == newest {
                ASSISTANT_CHARS
            } else {
                EARLIER_CONCLUSION_CHARS
            };
            t.finalize(redact, max);
        }
        if let Some(t) = &mut self.open_turn {
            t.finalize(redact, ASSISTANT_CHARS);
        }
        opt(&mut self.end_reason, 40);
        opt(&mut self.branch, 200);
        opt(&mut self.head, 64);
        for list in [&mut self.corrections, &mut self.subagents] {
            for s in list.iter_mut() {
                *s = text(s, ITEM_CHARS);
            }
        }
        for f in &mut self.files {
            *f = text(f, LINE_CHARS);
        }
        for t in &mut self.tasks {
            t.subject = text(&t.subject, ITEM_CHARS);
            t.id = t.id.as_deref().map(|s| text(s, 40));
            t.created_by = t.created_by.as_deref().map(|s| text(s, 80));
        }
        for f in &mut self.failures {
            f.tool = text(&f.tool, 80);
            f.command = text(&f.command, LINE_CHARS);
            f.error = text(&f.error, LINE_CHARS);
            f.at = f.at.as_deref().and_then(normal_time);
        }
        for t in [
            &mut self.started,
            &mut self.last_activity,
            &mut self.ended,
            &mut self.updated,
            &mut self.last_work,
            &mut self.stated,
        ] {
            *t = t.as_deref().and_then(normal_time);
        }
        keep_last(&mut self.files, MAX_FILES);
        keep_last(&mut self.failures, MAX_FAILURES);
        keep_last(&mut self.corrections, MAX_CORRECTIONS);
        keep_last(&mut self.subagents, MAX_SUBAGENTS);
    }
}

/// The untrusted texts of a digest vetted by the integrity scan (`core::trust`): each is
/// scanned once, when it is new — `known` holds the texts of the digest as it stood before
/// this update, which were vetted when they were written.
pub(crate) struct Vetting<'a> {
    red: &'a dyn Secrets,
    known: HashSet<String>,
}

impl<'a> Vetting<'a> {
    /// Vetting against the texts of `before` (the digest as loaded, already vetted).
    pub(crate) fn new(red: &'a dyn Secrets, before: &Digest) -> Self {
        let mut known: HashSet<String> = before.untrusted_texts().map(str::to_string).collect();
        known.remove("");
        Vetting { red, known }
    }

    /// One line of untrusted text, kept unless the scan blocks it.
    fn field(&self, s: &mut String) {
        if !s.is_empty() && !self.known.contains(s.as_str()) {
            *s = trust::field(s, self.red);
        }
    }

    /// Untrusted text of many lines: only the lines the scan blocks go.
    fn lines(&self, s: &mut String) {
        if !s.is_empty() && !self.known.contains(s.as_str()) {
            *s = trust::lines(s, self.red);
        }
    }
}

impl Digest {
    /// The texts that did not come from the user: the model's words (conclusions, its last
    /// message), the tasks it made, tool calls and their output (commands, error lines,
    /// paths), subagents' descriptions, the branch. The user's prompts and corrections are
    /// the user's own.
    fn untrusted_texts(&self) -> impl Iterator<Item = &str> {
        let turns = self.turns.iter().chain(&self.open_turn);
        self.tasks
            .iter()
            .map(|t| t.subject.as_str())
            .chain(
                self.failures
                    .iter()
                    .flat_map(|f| [f.command.as_str(), f.error.as_str()]),
            )
            .chain(turns.map(|t| t.conclusion.as_str()))
            .chain(self.files.iter().map(String::as_str))
            .chain(self.subagents.iter().map(String::as_str))
            .chain(self.last_assistant.as_deref())
            .chain(self.branch.as_deref())
    }

    /// Leaves out what the integrity scan blocks in the untrusted texts (`untrusted_texts`),
    /// after `finalize`: a TAINTED fragment is never stored, so no reader of the digest (the
    /// sections, "Resume here", the compaction's instructions, the automatic checkpoint and
    /// handoff, the relay's packet, recall) can pass it on. A conclusion loses only its
    /// blocked lines; any other text is one field, kept whole or named.
    pub(crate) fn vet(&mut self, v: &Vetting<'_>) {
        for t in &mut self.tasks {
            v.field(&mut t.subject);
        }
        for f in &mut self.failures {
            v.field(&mut f.command);
            v.field(&mut f.error);
        }
        for t in self.turns.iter_mut().chain(&mut self.open_turn) {
            v.lines(&mut t.conclusion);
        }
        for s in self.files.iter_mut().chain(&mut self.subagents) {
            v.field(s);
        }
        for s in [&mut self.last_assistant, &mut self.branch]
            .into_iter()
            .flatten()
        {
            v.field(s);
        }
    }
}

impl Digest {
    /// The newest finished turn that did work, with a conclusion the user did not correct
    /// (a chat turn answers a question; it concludes no work).
    pub(crate) fn last_conclusion(&self) -> Option<&TurnNote> {
        self.turns
            .iter()
            .rev()
            .find(|t| t.work > 0 && !t.corrected && !t.conclusion.trim().is_empty())
    }
}

impl TurnNote {
    /// Redacted, on one line, the conclusion cut in its middle to `max` characters.
    /// Redacted (when read in this update; a stored turn already is), the conclusion cut in
    /// its middle to `max` characters, its lines kept: a conclusion's list of what is still
    /// open is read by its items.
    fn finalize(&mut self, redact: &dyn Fn(&str) -> String, max: usize) {
        if self.fresh {
            self.request = clip(&one_line(&redact(&self.request)), TURN_REQUEST_CHARS);
            self.conclusion = tidy_lines(&redact(&self.conclusion));
            for e in &mut self.errors {
                *e = clip(&tidy_lines(&redact(e)), LINE_CHARS);
            }
            for t in [&mut self.started, &mut self.ended] {
                *t = t.as_deref().and_then(normal_time);
            }
            self.fresh = false;
        }
        self.conclusion = clip_middle(&self.conclusion, max);
    }
}

/// An RFC 3339 time, to the second, in UTC; `None` when it does not parse.
fn normal_time(s: &str) -> Option<String> {
    time::parse(s).map(time::rfc3339)
}

/// Keeps the last `max` items.
pub(crate) fn keep_last<T>(list: &mut Vec<T>, max: usize) {
    if list.len() > max {
        list.drain(..list.len() - max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finalize_redacts_before_it_clips_and_bounds_the_lists() {
        let secret = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
        let mut d = Digest {
            first_request: Some(format!("{}use {secret} please", "x ".repeat(496))),
            latest_request: Some("  \n ".into()),
            files: (0..30).map(|i| format!("f{i}")).collect(),
            started: Some("2026-11-30T11:15:00.123+01:00".into()),
            ended: Some("yesterday".into()),
            ..Digest::default()
        };
        let r = crate::core::redact::Redactor::builtin();
        d.finalize(&|s| r.redact(s).text);
        let first = d.first_request.unwrap();
        assert!(!first.contains("ghp_"), "{first}");
        assert!(first.chars().count() <= REQUEST_CHARS);
        assert_eq!(d.latest_request, None);
        assert_eq!(d.files.len(), MAX_FILES);
        assert_eq!(d.files[0], "f10");
        assert_eq!(d.started.as_deref(), Some("2026-11-30T10:15:00Z"));
        assert_eq!(d.ended, None);
    }
}
