//! What a session left open, read from its digest: the one next action an automatic source
//! names in "Resume here", as a short imperative — from the task list, the turn it was cut
//! off in, or what its last conclusion says is still open — or that it finished its work and
//! left nothing open. Never a quoted prompt of any length: a request appears only as the
//! turn that was cut off, clipped.

use super::digest::{Digest, TurnNote};
use super::tasks::Task;
use crate::core::text::{clip_words, one_line};
use crate::core::time;
use chrono::{DateTime, Utc};

/// Characters of an action's text (the task subject, the open item, the request).
const ACTION_CHARS: usize = 160;

/// What a session left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Intent {
    /// Work left open: the next action, and whether it names something more specific than
    /// the request the session was cut off in.
    Open { action: String, specific: bool },
    /// It did work and finished it: nothing open.
    Finished,
    /// It did no work in the project (a chat, a look around): it says nothing about what
    /// comes next.
    Nothing,
}

/// When the session last stated its intent (its newest work, or the start of the turn it was
/// cut off in), on baton's clock (`Digest::stated`); the transcript's time for a digest that
/// has none.
pub(crate) fn stated_at(d: &Digest) -> Option<DateTime<Utc>> {
    if let Some(t) = d.stated.as_deref().and_then(time::parse) {
        return Some(t);
    }
    let work = d.last_work.as_deref().and_then(time::parse);
    let cut = d
        .open_turn
        .as_ref()
        .filter(|t| cut_off(t))
        .and_then(|t| t.started.as_deref())
        .and_then(time::parse);
    work.max(cut)
}

/// Whether a turn under way counts as cut off: it was asked for, or did work.
fn cut_off(t: &TurnNote) -> bool {
    !t.request.trim().is_empty() || t.work > 0
}

/// What session `d` left open (its turn under way counts as cut off: a session start reads
/// the digest of a session that is not running in this conversation).
pub(crate) fn of(d: &Digest) -> Intent {
    let task = |status: &str| d.tasks.iter().find(|t| t.status == status);
    if let Some(t) = d.open_turn.as_ref().filter(|t| cut_off(t)) {
        if let Some(task) = task("in_progress") {
            return open(format!("Continue task {}", task_name(task)), true);
        }
        let request = t.request.trim();
        if request.is_empty() {
            return open("Finish the turn that was cut off".into(), false);
        }
        let action = format!(
            "Finish the interrupted request: {}",
            clip_words(&one_line(request), ACTION_CHARS)
        );
        return open(action, !bare_go_on(request));
    }
    if d.last_work.is_none() {
        return Intent::Nothing;
    }
    if let Some(task) = task("in_progress") {
        return open(format!("Continue task {}", task_name(task)), true);
    }
    if let Some(item) = last_work_turn(d).and_then(|t| left_open(&t.conclusion)) {
        return open(format!("Pick up what was left open: {item}"), true);
    }
    if let Some(task) = task("pending") {
        return open(format!("Start task {}", task_name(task)), true);
    }
    Intent::Finished
}

fn open(action: String, specific: bool) -> Intent {
    Intent::Open { action, specific }
}

/// `#2: subject` (or the subject alone for a task without an id).
fn task_name(t: &Task) -> String {
    let subject = clip_words(&one_line(&t.subject), ACTION_CHARS);
    match &t.id {
        Some(id) => format!("#{id}: {subject}"),
        None => format!(": {subject}"),
    }
}

/// The newest finished turn that did work and whose conclusion the user did not correct.
fn last_work_turn(d: &Digest) -> Option<&TurnNote> {
    d.turns.iter().rev().find(|t| t.work > 0 && !t.corrected)
}

/// Prompts that only say "go on" (they name no work of their own).
const GO_ON: &[&str] = &[
    "go on",
    "continue",
    "carry on",
    "keep going",
    "proceed",
    "resume",
    "go ahead",
    "next",
    "yes",
    "ok",
    "okay",
    "sure",
    "do it",
    "go",
    "please continue",
    "continue please",
    "go on please",
    "where were we",
    "where were we?",
    "pick up where you left off",
];

/// Whether `request` only says "go on".
pub(crate) fn bare_go_on(request: &str) -> bool {
    let r: String = one_line(request)
        .to_lowercase()
        .trim_end_matches(['.', '!', ' '])
        .to_string();
    GO_ON.contains(&r.as_str())
}

/// Words that say a sentence names something still open.
const OPEN_MARKS: &[&str] = &[
    "still open",
    "still to do",
    "left to do",
    "still need",
    "remaining",
    "remains",
    "todo",
    "to do:",
    "next step",
    "next:",
    "next,",
    "next i ",
    "next, i",
    "blocked",
    "blocker",
    "not yet",
    "haven't",
    "have not",
    "didn't get to",
    "did not get to",
    "pending",
    "follow-up",
    "follow up",
    "open question",
    "waiting on",
    "waiting for",
    "outstanding",
    "what's left",
    "is left",
    "are left",
    "i will ",
    "i'll ",
];

/// Words that say nothing is open (a sentence with them names nothing).
const NOTHING_OPEN: &[&str] = &[
    "nothing left",
    "nothing remaining",
    "nothing is left",
    "nothing else",
    "nothing open",
    "no open",
    "no remaining",
    "nothing more to do",
    "nothing pending",
];

/// Lead-ins taken off an open item, so what is left reads as the thing to do.
const ITEM_LEAD_INS: &[&str] = &[
    "still open:",
    "still to do:",
    "left to do:",
    "remaining:",
    "todo:",
    "to do:",
    "next steps:",
    "next step:",
    "next:",
    "open:",
    "blocked:",
    "blocker:",
    "next, i will",
    "next i will",
    "next, i'll",
    "next i'll",
    "i will",
    "i'll",
    "i still need to",
    "still need to",
];

/// The last sentence of `conclusion` that names something still open, without its lead-in.
pub(crate) fn left_open(conclusion: &str) -> Option<String> {
    let text = one_line(conclusion);
    let sentence = sentences(&text).into_iter().rev().find(|s| {
        let lower = s.to_lowercase();
        OPEN_MARKS.iter().any(|m| lower.contains(m))
            && !NOTHING_OPEN.iter().any(|m| lower.contains(m))
    })?;
    let lower = sentence.to_lowercase();
    let item = ITEM_LEAD_INS
        .iter()
        .find(|l| lower.starts_with(*l))
        .map_or(sentence, |l| sentence[l.len()..].trim_start());
    let item = item.trim_end_matches(['.', ';', ',', ' ']).trim();
    (!item.is_empty()).then(|| clip_words(item, ACTION_CHARS))
}

/// `text` cut into sentences (at `. `, `! `, `? `, `; ` and the end), trimmed, non-empty.
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    for (i, b) in bytes.iter().enumerate() {
        let end =
            matches!(b, b'.' | b'!' | b'?' | b';') && bytes.get(i + 1).is_none_or(|n| *n == b' ');
        if end {
            out.push(text[start..=i].trim());
            start = i + 1;
        }
    }
    out.push(text[start..].trim());
    out.retain(|s| !s.is_empty());
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn task(id: &str, subject: &str, status: &str) -> Task {
        Task {
            id: Some(id.into()),
            subject: subject.into(),
            status: status.into(),
            ..Task::default()
        }
    }

    fn turn(request: &str, conclusion: &str, work: u32) -> TurnNote {
        TurnNote {
            request: request.into(),
            conclusion: conclusion.into(),
            work,
            started: Some("2026-12-01T10:00:00Z".into()),
            ..TurnNote::default()
        }
    }

    fn worked(turns: Vec<TurnNote>, tasks: Vec<Task>) -> Digest {
        Digest {
            last_work: Some("2026-12-01T10:05:00Z".into()),
            turns,
            tasks,
            ..Digest::default()
        }
    }

    #[test]
    fn the_task_in_progress_first() {
        let d = worked(
            vec![turn("fix it", "Still open: the docs.", 3)],
            vec![
                task("1", "Parser", "completed"),
                task("2", "Widget tests", "in_progress"),
            ],
        );
        assert_eq!(of(&d), open("Continue task #2: Widget tests".into(), true));
    }

    #[test]
    fn then_what_the_conclusion_leaves_open_then_a_pending_task() {
        let mut d = worked(
            vec![turn(
                "fix the bug",
                "Found it: an off-by-one in parse_all, fixed and tested. Still open: the flaky retry test in tests/net.rs.",
                4,
            )],
            vec![task("3", "Update the docs", "pending")],
        );
        assert_eq!(
            of(&d),
            open(
                "Pick up what was left open: the flaky retry test in tests/net.rs".into(),
                true
            )
        );
        d.turns[0].conclusion = "Fixed, all tests pass.".into();
        assert_eq!(of(&d), open("Start task #3: Update the docs".into(), true));
        d.tasks.clear();
        assert_eq!(of(&d), Intent::Finished);
        d.turns[0].conclusion = "Done; nothing left to do.".into();
        assert_eq!(of(&d), Intent::Finished);
    }

    #[test]
    fn a_chat_that_did_no_work_says_nothing() {
        let d = Digest {
            turns: vec![turn("hi, where were we?", "We were fixing the parser.", 0)],
            ..Digest::default()
        };
        assert_eq!(of(&d), Intent::Nothing);
    }

    #[test]
    fn a_turn_cut_off_names_its_request_or_task() {
        let mut d = worked(
            vec![turn("fix the parser", "I will rewrite it with regex.", 2)],
            vec![],
        );
        d.turns[0].corrected = true;
        d.open_turn = Some(turn("No — don't use regex, write a tokenizer.", "", 1));
        assert_eq!(
            of(&d),
            open(
                "Finish the interrupted request: No — don't use regex, write a tokenizer.".into(),
                true
            )
        );
        d.open_turn = Some(turn("go on", "", 1));
        assert_eq!(
            of(&d),
            open("Finish the interrupted request: go on".into(), false)
        );
        d.tasks = vec![task("4", "Tokenizer", "in_progress")];
        assert_eq!(of(&d), open("Continue task #4: Tokenizer".into(), true));
        let t = stated_at(&d).unwrap();
        assert_eq!(time::rfc3339(t), "2026-12-01T10:05:00Z");
    }

    #[test]
    fn a_corrected_conclusion_is_not_taken() {
        let mut d = worked(
            vec![turn("do it", "Next: rewrite it with regex.", 2)],
            vec![],
        );
        d.turns[0].corrected = true;
        assert_eq!(of(&d), Intent::Finished);
    }

    #[test]
    fn open_items_and_sentences() {
        assert_eq!(left_open("All done."), None);
        assert_eq!(
            left_open("Tests pass. Next I will wire the CLI flag; the docs can wait"),
            Some("wire the CLI flag".into())
        );
        assert_eq!(
            left_open("Blocked: the staging DB is down, waiting on ops."),
            Some("the staging DB is down, waiting on ops".into())
        );
        assert_eq!(left_open("Version 1.2.3 is out. Nothing left to do."), None);
        assert!(
            bare_go_on("Go on.") && bare_go_on("continue") && !bare_go_on("go on with the tests")
        );
    }
}
