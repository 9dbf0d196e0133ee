//! Who wrote an entry. `bridge save` writes the author (the name git gives a commit there,
//! one line, redacted) into every entry: a `**By:** name` line at the end of a block (decisions,
//! conventions, progress, instincts), ` (by: name)` at the end of a one-line entry (the
//! session log, notes and task-notes items), `"by"` in a learning. Load names the author of
//! an entry that is not the current user's ("decided by bob, 2 days ago").

use crate::core::project::Project;
use crate::core::redact::Redactor;
use crate::core::text::{clip, one_line};

/// The label of the author line of a block entry.
pub(crate) const BY: &str = "By";

/// Characters of a name kept.
const NAME_MAX: usize = 60;

/// The current user as entries name them, as git names the author of a commit made here:
/// `GIT_AUTHOR_NAME`, else `author.name`, else `user.name` (the repository's config, then
/// the user's and the system's), cleaned; `None` when git knows no name.
pub(crate) fn current(project: &Project) -> Option<String> {
    let name = project
        .env("GIT_AUTHOR_NAME")
        .or_else(|| project.git_user_name())?;
    clean(&name, project.redactor())
}

/// `name` as an entry holds it: one line, redacted, without the characters that delimit
/// stamps, fields and the one-line form (`[ ] ( ) * \``), at most 60 characters.
pub(crate) fn clean(name: &str, red: &Redactor) -> Option<String> {
    let name = red.redact(&one_line(name)).text;
    let name: String = name
        .chars()
        .filter(|c| !matches!(c, '[' | ']' | '(' | ')' | '*' | '`'))
        .collect();
    let name = clip(name.trim(), NAME_MAX);
    (!name.is_empty()).then_some(name)
}

/// The last line of a block entry by `name`.
pub(crate) fn by_line(name: &str) -> String {
    format!("**{BY}:** {name}\n")
}

/// The end of a one-line entry by `name`.
pub(crate) fn suffix(name: &str) -> String {
    format!(" (by: {name})")
}

/// The author of a block entry (its `**By:**` line).
pub(crate) fn of_entry(entry: &str) -> Option<String> {
    let tag = format!("**{BY}:**");
    entry
        .lines()
        .rev()
        .find_map(|l| l.trim().strip_prefix(&tag).map(|v| v.trim().to_string()))
        .filter(|v| !v.is_empty())
}

/// A one-line entry without its ` (by: name)` end, and the name.
pub(crate) fn split_line(line: &str) -> (&str, Option<&str>) {
    let t = line.trim_end();
    if let Some(open) = t.strip_suffix(')').and_then(|r| r.rfind(" (by: ")) {
        let name = t[open + 6..t.len() - 1].trim();
        if !name.is_empty() && !name.contains('(') {
            return (&t[..open], Some(name));
        }
    }
    (line, None)
}

/// The author to name when showing an entry to `me`: `Some` for someone else, `None` for
/// the current user's own entries and for entries without one.
pub(crate) fn other<'a>(author: Option<&'a str>, me: Option<&str>) -> Option<&'a str> {
    author.filter(|a| me.is_none_or(|m| !a.eq_ignore_ascii_case(m)))
}

/// `age`, with "`verb` by name, " before it when the entry is someone else's:
/// "decided by bob, 2 days ago", "by bob, 1 hour ago", "2 days ago".
pub(crate) fn with_age(verb: &str, author: Option<&str>, age: &str) -> String {
    match author {
        Some(a) if verb.is_empty() => format!("by {a}, {age}"),
        Some(a) => format!("{verb} by {a}, {age}"),
        None => age.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authors_are_written_once_read_back_and_named_only_for_others() {
        let red = Redactor::builtin();
        assert_eq!(
            clean("  Bob [the] (builder)*\n x ", &red).as_deref(),
            Some("Bob the builder x")
        );
        assert_eq!(clean(" ()", &red), None);
        let entry = format!(
            "## [2026-11-30 10:15:00Z] Decision: x\n**Decision:** y\n{}",
            by_line("Bob")
        );
        assert_eq!(of_entry(&entry).as_deref(), Some("Bob"));
        assert_eq!(of_entry("## [x] Decision: y\n**By:**\n"), None);
        let line = format!("[2026-11-30 10:15:00Z] — did it{}", suffix("Bob"));
        assert_eq!(
            split_line(&line),
            ("[2026-11-30 10:15:00Z] — did it", Some("Bob"))
        );
        assert_eq!(
            split_line("- text (by the way)"),
            ("- text (by the way)", None)
        );
        assert_eq!(other(Some("Bob"), Some("bob")), None);
        assert_eq!(other(Some("Bob"), Some("Alice")), Some("Bob"));
        assert_eq!(other(Some("Bob"), None), Some("Bob"));
        assert_eq!(other(None, Some("Alice")), None);
        assert_eq!(
            with_age("decided", Some("bob"), "2 days ago"),
            "decided by bob, 2 days ago"
        );
        assert_eq!(
            with_age("", Some("bob"), "1 hour ago"),
            "by bob, 1 hour ago"
        );
        assert_eq!(with_age("decided", None, "just now"), "just now");
    }
}
