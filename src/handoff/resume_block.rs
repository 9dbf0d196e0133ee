//! The resume block printed after every successful save (the spec's rendering rules).
//!
//! - the command line carries the exact SESSION-ID given, never a re-derived one;
//! - the TASK-ID comes from RECOMMENDED_NEXT only (`[A-Z]+-[0-9]{4}`; a `SESSION-…` id is not
//!   a task); with none, the `↳` and `Next:` lines are left out, never invented;
//! - the title is the 5th `·` field of the task's Active line in `datarim/tasks.md`,
//!   sanitised (control characters, backticks and `$(…)` removed, line breaks collapsed, a
//!   leading `/` stripped, at most 55 characters cut on a word boundary + `…`), plain prose;
//!   no title → `↳ TASK-ID` alone, no em-dash;
//! - the saved time is `YYYY-MM-DD HH:MM` from the id, never from the clock;
//! - "Also active this session" lists the other active task ids only (sorted, unique), and
//!   is left out when there are none.

use super::session;
use crate::core::error::Result;
use crate::core::redact::Redactor;
use crate::core::text::{self, ELLIPSIS};
use regex::Regex;
use std::sync::LazyLock;

static TASK_ID: LazyLock<Option<Regex>> = LazyLock::new(|| Regex::new("[A-Z]+-[0-9]{4}").ok());
static ACTIVE_TASK_ID: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new("^[A-Z]{2,10}-[0-9]{4}(?:-[A-Za-z0-9]+)*$").ok());
static SUBSTITUTION: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r"\$\([^)]*\)|`[^`]*`").ok());

/// The longest annotation (the `Next:` line), in characters, `…` included.
const ANNOTATION_MAX: usize = 80;
/// The longest title on the `↳` line, in characters, `…` included.
const TITLE_MAX: usize = 55;

/// What the block is rendered from (the positional arguments of datarim's renderer).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Input<'a> {
    pub(crate) session_id: &'a str,
    pub(crate) recommended_next: &'a str,
    pub(crate) next_action: &'a str,
    /// The active tasks file's text (one task per line, `TASK-ID | status`).
    pub(crate) active_tasks: &'a str,
    /// `datarim/tasks.md`'s text, when there is one.
    pub(crate) tasks_md: Option<&'a str>,
    /// Where the artefact was saved, as shown to the user.
    pub(crate) saved_to: &'a str,
    /// The resume slash command (`/baton:dr-continue`).
    pub(crate) command: &'a str,
}

/// Renders the block, redacted. An id that is not `SESSION-YYYYMMDD-HHMMSS` is refused (the
/// block's command line is meant to be copied and run), as the writer refuses it.
///
/// The free text (the next action, the task's title) is redacted before it is sanitised and
/// cut: a cut through a secret would leave a piece that the redactor no longer recognises.
/// The whole block is redacted once more after.
pub(crate) fn render(input: &Input<'_>, redactor: &Redactor) -> Result<String> {
    session::validate_id(input.session_id)?;
    let mut out = format!(
        "Session saved → {}\n\nTo resume in a fresh window, copy this line exactly:\n\n  {} {}\n\n",
        input.saved_to, input.command, input.session_id
    );
    let task = task_id(input.recommended_next);
    if let Some(task) = &task {
        out.push_str(&task_lines(input, task, redactor));
    }
    let mut active = task_ids(input.active_tasks);
    active.sort();
    active.dedup();
    let others: Vec<&str> = active
        .iter()
        .map(String::as_str)
        .filter(|t| Some(*t) != task.as_deref())
        .collect();
    if !others.is_empty() {
        out.push_str(&format!(
            "    Also active this session: {}\n",
            others.join(" ")
        ));
    }
    out.push_str(&warning(input.session_id, input.command));
    Ok(redactor.redact(&out).text)
}

/// The `↳ TASK-ID — title   (saved …)` line and the `Next:` line.
fn task_lines(input: &Input<'_>, task: &str, redactor: &Redactor) -> String {
    let title = input
        .tasks_md
        .and_then(|md| lookup_title(task, md))
        .map(|t| sanitize_title(&redactor.redact(&t).text))
        .filter(|t| !t.is_empty());
    let mut out = format!("  ↳ {task}");
    if let Some(title) = &title {
        out.push_str(&format!(" — {title}"));
    }
    if let Some(saved) = session::saved_time(input.session_id) {
        out.push_str(&format!("   (saved {saved} UTC)"));
    }
    out.push('\n');
    let next = sanitize_annotation(&redactor.redact(input.next_action).text);
    if !next.is_empty() {
        out.push_str(&format!("    Next: {next}\n"));
    }
    out
}

/// The closing note: datarim's warning that the id alone selects the session, then how to
/// resume. (datarim's last two lines forbade other products' resume commands by name; baton
/// says what to do instead, issue 39.)
fn warning(id: &str, cmd: &str) -> String {
    format!(
        "\n{id} is the only argument that selects this saved session — a bare\n\
{cmd} may grab another agent's session in a shared workspace. The\n\
task name and date are labels for you, not command input.\n\n\
Resume it in a fresh session with the line above: it re-checks the saved\n\
state against the repository first.\n"
    )
}

/// The TASK-ID named in RECOMMENDED_NEXT: the first `[A-Z]+-[0-9]{4}` that is not part of a
/// session id.
pub(crate) fn task_id(recommended_next: &str) -> Option<String> {
    let re = TASK_ID.as_ref()?;
    re.find_iter(recommended_next)
        .map(|m| m.as_str())
        .find(|m| !m.starts_with("SESSION-"))
        .map(str::to_string)
}

/// Whether `word` is a datarim task id: `^[A-Z]{2,10}-[0-9]{4}(-[A-Za-z0-9]+)*$` (the
/// task-id part of datarim's `ONELINER_RE`, e.g. `TUNE-0420`, `DEV-1183-fix`).
pub(crate) fn is_task_id(word: &str) -> bool {
    ACTIVE_TASK_ID.as_ref().is_some_and(|re| re.is_match(word))
}

/// An active tasks file, read: the task ids in file order, and the lines that name none.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct ActiveTasks {
    pub(crate) ids: Vec<String>,
    /// (1-based line number, the line) of each line that is neither blank, a comment nor
    /// starts with a task id.
    pub(crate) skipped: Vec<(usize, String)>,
}

/// Reads an active tasks file (`TASK-ID | status` per line). A line's task id is its first
/// word (after an optional `- `/`* ` bullet, up to a `|`, `·` or blank) when that word is a
/// task id; blank lines and comments (`#…`, `<!--…`) are skipped silently, any other line is
/// skipped and reported.
pub(crate) fn read_active_tasks(text: &str) -> ActiveTasks {
    let mut out = ActiveTasks::default();
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if t.is_empty() || t.starts_with('#') || t.starts_with("<!--") {
            continue;
        }
        let t = t
            .strip_prefix("- ")
            .or_else(|| t.strip_prefix("* "))
            .unwrap_or(t)
            .trim_start();
        let end = t
            .find(|c: char| c == '|' || c == '·' || c.is_whitespace())
            .unwrap_or(t.len());
        let word = &t[..end];
        if is_task_id(word) {
            out.ids.push(word.to_string());
        } else {
            out.skipped.push((i + 1, line.to_string()));
        }
    }
    out
}

/// The task ids of an active tasks file, in file order (see `read_active_tasks`).
pub(crate) fn task_ids(text: &str) -> Vec<String> {
    read_active_tasks(text).ids
}

/// The raw title of `task` in tasks.md: its Active line is
/// `- {TASK-ID} · {status} · {prio} · {level} · {TITLE} → tasks/…`.
pub(crate) fn lookup_title(task: &str, tasks_md: &str) -> Option<String> {
    let prefix = format!("- {task} ·");
    let line = tasks_md.lines().find(|l| l.starts_with(&prefix))?;
    let field = line.split(" · ").nth(4)?;
    let title = field.split(" → ").next().unwrap_or(field).trim();
    (!title.is_empty()).then(|| title.to_string())
}

/// Whether `c` is an invisible formatting character: a bidi control (which can make a line
/// read differently from what it holds) or a zero-width one.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{061c}'
            | '\u{200b}'..='\u{200f}'
            | '\u{202a}'..='\u{202e}'
            | '\u{2060}'..='\u{2064}'
            | '\u{2066}'..='\u{2069}'
            | '\u{feff}'
    )
}

/// One line of at most 80 characters, without control characters, bidi or zero-width
/// characters, backticks or `$(…)`. Redact before: the cut does not know a secret.
pub(crate) fn sanitize_annotation(raw: &str) -> String {
    let flat: String = raw
        .chars()
        .filter(|c| !is_invisible(*c))
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let stripped = match SUBSTITUTION.as_ref() {
        Some(re) => re.replace_all(&flat, "").into_owned(),
        None => flat,
    };
    let stripped = stripped.replace('`', "").replace("$(", "(");
    let line = text::one_line(&stripped);
    if line.chars().count() <= ANNOTATION_MAX {
        return line;
    }
    // `text::clip`, without a blank before the `…` (`a very…`, not `a very …`).
    let clipped = text::clip(&line, ANNOTATION_MAX);
    let head = clipped.strip_suffix(ELLIPSIS).unwrap_or(&clipped);
    format!("{}{ELLIPSIS}", head.trim_end())
}

/// A title for the `↳` line: the annotation rules, a leading `/` stripped (it could forge a
/// command line), at most 55 characters cut on a word boundary + `…`.
pub(crate) fn sanitize_title(raw: &str) -> String {
    let base = sanitize_annotation(raw);
    let t = base.strip_prefix('/').unwrap_or(&base).trim_start();
    if t.chars().count() <= TITLE_MAX {
        return t.to_string();
    }
    // datarim's cut (`_session_sanitize_title`), not `text::clip_words`: it looks for the last
    // blank within the first 55 characters (clip_words: 54) and cuts there when at least 5
    // characters stay (clip_words: a fifth of the limit), so the two differ on some titles.
    let prefix: String = t.chars().take(TITLE_MAX).collect();
    match prefix.rfind(' ') {
        Some(sp) if prefix[..sp].trim_end().chars().count() >= 5 => {
            format!("{}{ELLIPSIS}", prefix[..sp].trim_end())
        }
        // No word boundary to cut at (one long word): a hard cut.
        _ => text::clip(t, TITLE_MAX),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(id: &str) -> Input<'_> {
        Input {
            session_id: id,
            recommended_next: "/dr-next TUNE-0420",
            next_action: "go",
            active_tasks: "TUNE-0420 | wip\n",
            tasks_md: None,
            saved_to: "datarim/sessions/x.session.md",
            command: "/baton:dr-continue",
        }
    }

    #[test]
    fn render_refuses_an_invalid_id() {
        for bad in [
            "../../etc/x; rm -rf ~",
            "SESSION-20261130-101500 extra",
            "SESSION-20261130-101500\n",
            "",
        ] {
            let err = render(&input(bad), &Redactor::builtin())
                .unwrap_err()
                .to_string();
            assert!(err.contains("^SESSION-[0-9]{8}-[0-9]{6}$"), "{err}");
        }
        let ok = render(&input("SESSION-20261130-101500"), &Redactor::builtin()).unwrap();
        assert!(
            ok.contains("\n  /baton:dr-continue SESSION-20261130-101500\n"),
            "{ok}"
        );
    }

    #[test]
    fn task_id_comes_from_recommended_next_only() {
        assert_eq!(task_id("/dr-next TUNE-0441").as_deref(), Some("TUNE-0441"));
        assert_eq!(task_id("continue"), None);
        assert_eq!(task_id("/baton:dr-continue SESSION-20261130-101500"), None);
        assert_eq!(
            task_id("/baton:dr-continue SESSION-20261130-101500 then AB-1234").as_deref(),
            Some("AB-1234")
        );
    }

    #[test]
    fn task_ids_are_first_tokens() {
        assert_eq!(
            task_ids("TUNE-0420 | in_progress\n\nVERD-0050|done\n  XY-0001 wip\n- AB-0002 · x\n"),
            vec!["TUNE-0420", "VERD-0050", "XY-0001", "AB-0002"]
        );
    }

    #[test]
    fn stray_lines_are_no_task_ids() {
        let read = read_active_tasks(
            "# Active\n\n<!-- c -->\nTUNE-0420 | wip\nnotes: x\n| y |\nX-0001 | one letter\ntune-0001\nTUNE-04201\n$(id) | z\nDEV-1183-fix\tdone\n",
        );
        assert_eq!(read.ids, vec!["TUNE-0420", "DEV-1183-fix"]);
        let lines: Vec<usize> = read.skipped.iter().map(|(n, _)| *n).collect();
        assert_eq!(lines, vec![5, 6, 7, 8, 9, 10]);
        assert_eq!(read.skipped[0].1, "notes: x");
        for ok in ["TUNE-0420", "AB-0001", "ABCDEFGHIJ-9999", "DEV-1183-fix-2"] {
            assert!(is_task_id(ok), "{ok}");
        }
        for bad in [
            "#",
            "A-0001",
            "ABCDEFGHIJK-0001",
            "TUNE-042",
            "TUNE-0420-",
            "SESSION-20261130-101500",
            "TUNE-0420;x",
        ] {
            assert!(!is_task_id(bad), "{bad}");
        }
    }

    #[test]
    fn title_is_the_fifth_field() {
        let md = "# Tasks\n\n## Active\n- TUNE-0441 · in_progress · P2 · L2 · Improve the block → tasks/TUNE-0441.md\n- VERD-0050 · x · P2 · L4\n";
        assert_eq!(
            lookup_title("TUNE-0441", md).as_deref(),
            Some("Improve the block")
        );
        assert_eq!(lookup_title("VERD-0050", md), None);
        assert_eq!(lookup_title("NOPE-0001", md), None);
        assert_eq!(lookup_title("TUNE-044", md), None);
    }

    #[test]
    fn annotation_is_one_safe_line() {
        let evil = "do `evil` $(rm -rf /) thing\nwith a very very very very very very very very very very very very very long tail";
        let s = sanitize_annotation(evil);
        assert!(
            !s.contains('`') && !s.contains("$(") && !s.contains('\n'),
            "{s}"
        );
        assert!(s.chars().count() <= 80, "{s}");
        assert!(s.starts_with("do thing with a very"), "{s}");
        assert!(s.ends_with('…'));
        assert_eq!(sanitize_annotation("a\u{7}b\tc"), "a b c");
        assert_eq!(sanitize_annotation("unclosed $(x"), "unclosed (x");
        assert_eq!(
            sanitize_annotation("a\u{202e}b\u{2066}c\u{200b}d\u{feff}e\u{2028}f"),
            "abcde f"
        );
    }

    #[test]
    fn a_cut_drops_a_redaction_mark_it_would_split() {
        let s = sanitize_annotation(&format!("{} [REDACTED] tail", "a".repeat(72)));
        assert_eq!(s, format!("{}…", "a".repeat(72)));
        let t = sanitize_title(&format!("{}[REDACTED]", "b".repeat(50)));
        assert_eq!(t, format!("{}…", "b".repeat(50)));
    }

    #[test]
    fn title_rules() {
        assert_eq!(
            sanitize_title("/dr-continue forged-title-attempt"),
            "dr-continue forged-title-attempt"
        );
        let long = "This is a very long title that should be truncated because it exceeds the fifty-five character limit";
        let t = sanitize_title(long);
        assert_eq!(t, "This is a very long title that should be truncated…");
        assert!(t.chars().count() <= 56);
        let one_word = "x".repeat(70);
        let t = sanitize_title(&one_word);
        assert_eq!(t.chars().count(), 55);
        assert!(t.ends_with('…'));
        assert_eq!(
            sanitize_title("Title with `whoami` and $(id) payload"),
            "Title with and payload"
        );
        assert_eq!(sanitize_title("Short"), "Short");
    }
}
