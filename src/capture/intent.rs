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

/// How the next action of a session cut off in a turn starts.
pub(crate) const INTERRUPTED: &str = "Finish the interrupted request: ";

/// Characters of an action's text (the task subject, the open item, the request).
const ACTION_CHARS: usize = 160;

/// What a session left.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Intent {
    /// Work left open: the next action, whether it names something more specific than the
    /// request the session was cut off in, and whether it was taken from text that did not
    /// come from the user (a task the model made, the model's conclusion), which the
    /// integrity scan must pass before it is offered as the next action.
    Open {
        action: String,
        specific: bool,
        untrusted: bool,
    },
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
            return users("Finish the turn that was cut off".into(), false);
        }
        let action = format!(
            "{INTERRUPTED}{}",
            clip_words(&one_line(request), ACTION_CHARS)
        );
        return users(action, !bare_go_on(request));
    }
    if d.counts.work_calls == 0 && d.last_work.is_none() {
        return Intent::Nothing;
    }
    if let Some(task) = task("in_progress") {
        return open(format!("Continue task {}", task_name(task)), true);
    }
    if let Some(item) = d.last_conclusion().and_then(|t| left_open(&t.conclusion)) {
        return open(format!("Pick up what was left open: {item}"), true);
    }
    if let Some(q) = d
        .last_conclusion()
        .and_then(|t| open_question(&t.conclusion))
    {
        return open(format!("Settle the question it left open: {q}"), true);
    }
    if let Some(task) = task("pending") {
        return open(format!("Start task {}", task_name(task)), true);
    }
    Intent::Finished
}

/// Work left open, named from the session's own text (its tasks, its conclusion).
fn open(action: String, specific: bool) -> Intent {
    Intent::Open {
        action,
        specific,
        untrusted: true,
    }
}

/// Work left open, named from the user's own request (or by baton).
fn users(action: String, specific: bool) -> Intent {
    Intent::Open {
        action,
        specific,
        untrusted: false,
    }
}

/// `#2: subject` (or the subject alone for a task without an id).
fn task_name(t: &Task) -> String {
    let subject = clip_words(&one_line(&t.subject), ACTION_CHARS);
    match &t.id {
        Some(id) => format!("#{id}: {subject}"),
        None => format!(": {subject}"),
    }
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

/// How a sentence that names something still open starts (the lead-in is taken off what it
/// names). Only at the start: "the API remains unchanged", "if it fails again I'll look at
/// the logs" or "there are no pending migrations" name nothing open.
const OPEN_LEAD_INS: &[&str] = &[
    "still open",
    "still to do",
    "left to do",
    "what's left",
    "what is left",
    "remaining work",
    "remaining",
    "todo",
    "to do",
    "next steps",
    "next step",
    "next, i will",
    "next i will",
    "next, i'll",
    "next i'll",
    "next",
    "open items",
    "open questions",
    "open question",
    "open",
    "blockers",
    "blocker",
    "blocked",
    "pending",
    "follow-ups",
    "follow-up",
    "follow up",
    "outstanding",
    "not done yet",
    "not yet done",
    "i still need to",
    "we still need to",
    "still need to",
    "i will",
    "i'll",
    "waiting on",
    "waiting for",
];

/// Lead-ins that look like one above and are not ("next time, …").
const NOT_LEAD_INS: &[&str] = &["next time", "next to ", "open source", "opened", "opens "];

/// Phrases that say a sentence names something still open wherever they stand.
const OPEN_PHRASES: &[&str] = &[
    "is still open",
    "are still open",
    "still needs",
    "still need to",
    "not done yet",
    "remains to be done",
    "remain to be done",
    "is left to do",
    "are left to do",
    "still to do",
    "not yet implemented",
    "not implemented yet",
    "left for a follow-up",
    "for a follow-up",
    "in a follow-up",
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
    "no pending",
    "no follow-up",
    "no blockers",
];

/// What `conclusion` names as still open, without its lead-in: the last sentence or list
/// item that says so (a heading such as "Next steps:" takes the items under it).
pub(crate) fn left_open(conclusion: &str) -> Option<String> {
    let pieces = pieces(conclusion);
    let (i, item) = pieces
        .iter()
        .enumerate()
        .rev()
        .find_map(|(i, s)| open_item(s).map(|item| (i, item)))?;
    let heading =
        OPEN_HEADINGS.contains(&pieces[i].to_lowercase().trim_end_matches([':', '.', ' ']));
    let item = if item.is_empty() || heading {
        // A heading: the items under it.
        pieces[i + 1..]
            .iter()
            .take(3)
            .map(|s| s.trim_end_matches(['.', ';', ',', ' ']))
            .collect::<Vec<_>>()
            .join("; ")
    } else {
        item
    };
    (!item.is_empty()).then(|| clip_words(&item, ACTION_CHARS))
}

/// What sentence `s` names as open (empty for a bare heading), or `None` when it names
/// nothing open.
fn open_item(s: &str) -> Option<String> {
    let lower = s.to_lowercase();
    if NOTHING_OPEN.iter().any(|m| lower.contains(m))
        || NOT_LEAD_INS.iter().any(|m| lower.starts_with(m))
    {
        return None;
    }
    let tidy = |t: &str| {
        t.trim_start_matches([':', ',', '-', '—', ' '])
            .trim_end_matches(['.', ';', ',', ':', ' '])
            .trim()
            .to_string()
    };
    // Compared on the original's bytes (ASCII lead-ins), so the cut falls where it matched.
    let rest = OPEN_LEAD_INS.iter().find_map(|l| {
        let head = s.get(..l.len())?;
        let rest = s.get(l.len()..)?;
        (head.eq_ignore_ascii_case(l) && rest.chars().next().is_none_or(|c| !c.is_alphanumeric()))
            .then_some(rest)
    });
    if let Some(rest) = rest {
        return Some(tidy(rest));
    }
    OPEN_PHRASES
        .iter()
        .any(|m| lower.contains(m))
        .then(|| tidy(s))
}

/// Headings a list of what is open follows ("## Next steps", "Still open:").
const OPEN_HEADINGS: &[&str] = &[
    "next steps",
    "next step",
    "next",
    "still open",
    "open",
    "open items",
    "todo",
    "to do",
    "remaining",
    "left to do",
    "what's left",
    "follow-ups",
    "follow-up",
    "follow up",
    "open questions",
    "pending",
    "blockers",
    "blocked",
];

/// Questions that only offer more (they leave nothing open).
const OFFERS: &[&str] = &[
    "want me to",
    "would you like",
    "shall i",
    "should i also",
    "do you want me",
    "anything else",
    "let me know",
    "any other",
];

/// The question `conclusion` ends on, when it asks the user to decide something (not an
/// offer of more work): the session waits on the user.
pub(crate) fn open_question(conclusion: &str) -> Option<String> {
    let pieces = pieces(conclusion);
    let last = pieces.last()?;
    let lower = last.to_lowercase();
    (last.ends_with('?') && !OFFERS.iter().any(|o| lower.contains(o)))
        .then(|| clip_words(last, ACTION_CHARS))
}

/// A text as its sentences and list items, in order: split at line breaks and at `. `, `! `,
/// `? `, `; `; markdown's list markers, heading marks and emphasis taken off.
fn pieces(text: &str) -> Vec<String> {
    text.lines()
        .flat_map(|line| {
            let line = line.trim_start().trim_start_matches(['#', '>', ' ']);
            let line = strip_list_marker(line).replace("**", "").replace("__", "");
            sentences(&line)
                .into_iter()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|s| !s.is_empty())
        .collect()
}

/// `line` without a leading `- `, `* `, `+ `, `1. `, `1) ` or `[ ] `.
fn strip_list_marker(line: &str) -> &str {
    let mut rest = line;
    if let Some(r) = rest
        .strip_prefix("- ")
        .or_else(|| rest.strip_prefix("* "))
        .or_else(|| rest.strip_prefix("+ "))
    {
        rest = r;
    } else {
        let digits = rest.chars().take_while(char::is_ascii_digit).count();
        if digits > 0 && digits < 4 {
            if let Some(r) = rest[digits..]
                .strip_prefix(". ")
                .or_else(|| rest[digits..].strip_prefix(") "))
            {
                rest = r;
            }
        }
    }
    rest.strip_prefix("[ ] ").unwrap_or(rest).trim_start()
}

/// Words that say a sentence is a plan (what the assistant meant to do next), not a finding.
const PLAN_MARKS: &[&str] = &[
    "i'll ",
    "i will ",
    "i'm going to",
    "i am going to",
    "going to ",
    "let me ",
    "next",
    "i plan",
    "plan:",
    "we should",
    "i would",
    "i can ",
    "i'd ",
];

/// The sentences of a conclusion the user corrected that state findings rather than the plan
/// the correction rejected (`None` when nothing but the plan is left).
pub(crate) fn findings(conclusion: &str) -> Option<String> {
    let kept: Vec<String> = pieces(conclusion)
        .into_iter()
        .filter(|s| {
            let lower = format!("{} ", s.to_lowercase());
            !PLAN_MARKS.iter().any(|m| lower.contains(m))
        })
        .collect();
    (!kept.is_empty()).then(|| kept.join(" "))
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
            users(
                "Finish the interrupted request: No — don't use regex, write a tokenizer.".into(),
                true
            )
        );
        d.open_turn = Some(turn("go on", "", 1));
        assert_eq!(
            of(&d),
            users("Finish the interrupted request: go on".into(), false)
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
    fn open_items_in_markdown_and_questions() {
        let md = "## Summary\n- Fixed the parser\n- **Next steps:**\n  1. Add the fuzz target\n  2. Wire it into CI\n";
        assert_eq!(
            left_open(md),
            Some("Add the fuzz target; Wire it into CI".into())
        );
        let md = "## Done\n- parse() is unchanged\n\n## Next steps\n1. Run the fuzzer nightly in CI\n2. Commit the corpus";
        assert_eq!(
            left_open(md),
            Some("Run the fuzzer nightly in CI; Commit the corpus".into())
        );
        assert_eq!(
            left_open("Done with the API.\n\n**Still open:** the rate limit for /search."),
            Some("the rate limit for /search".into())
        );
        assert_eq!(
            left_open("- [x] parser\n- TODO: error messages for bad input"),
            Some("error messages for bad input".into())
        );
        assert_eq!(
            open_question(
                "Both work. Should the cache key include the tenant id, or only the user id?"
            ),
            Some("Should the cache key include the tenant id, or only the user id?".into())
        );
        assert_eq!(open_question("All tests pass. Want me to open a PR?"), None);
        assert_eq!(open_question("All tests pass."), None);
    }

    #[test]
    fn finished_work_whose_words_look_open_names_nothing() {
        for done in [
            "Renamed the flag; the public API remains unchanged.",
            "I haven't changed the public API.",
            "If it happens again I'll look at the logs.",
            "There are no pending migrations.",
            "Next time, run the suite with --release.",
            "All done. Nothing is left to do.",
            "The remaining tests pass too.",
            "Merged; no follow-up needed.",
        ] {
            assert_eq!(left_open(done), None, "{done}");
        }
        // Letters whose lower case is another length (the Kelvin sign) cut nothing wrong.
        assert_eq!(left_open("\u{212A}ept: done."), None);
        assert_eq!(
            left_open("İ. Still open: the docs."),
            Some("the docs".into())
        );
        assert_eq!(
            left_open("Pending: the release notes."),
            Some("the release notes".into())
        );
        assert_eq!(
            left_open("The parser works, but error recovery is still open."),
            Some("The parser works, but error recovery is still open".into())
        );
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
