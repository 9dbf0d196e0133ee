//! Small text shaping, written once: one line out of many, and a clip to a number of
//! characters that says it cut (`…`) and never splits a `[REDACTED]` mark.

use super::redact::MARK;

/// The ellipsis a clipped text ends with.
pub const ELLIPSIS: char = '…';

/// `text` as one line: control characters (line breaks included) become spaces, runs of
/// whitespace one space, no leading or trailing space.
pub fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text
        .split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|w| !w.is_empty())
    {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out
}

/// `text` with each line as `one_line` makes it and the empty lines left out: the line
/// structure (a list, a heading) kept, nothing else of its layout.
pub fn tidy_lines(text: &str) -> String {
    text.lines()
        .map(one_line)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` on one line (`one_line`), cut to `max` characters (`clip`).
pub fn line(text: &str, max: usize) -> String {
    clip(&one_line(text), max)
}

/// `text` for a place between a pair of `"`: on one line, its own `"` as `'` (so it cannot
/// close the quotes and go on as text of baton's), cut to `max` characters.
pub fn quotable(text: &str, max: usize) -> String {
    clip(&one_line(text).replace('"', "'"), max)
}

/// `text` as a fenced code block whose fence is longer than any run of backticks in it, so
/// no line of `text` can close the block early (CommonMark's rule).
pub fn fenced(text: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}\n{text}\n{fence}")
}

/// `text` cut to at most `max` characters, the last of them `…` when it was cut. A
/// `[REDACTED]` mark that the cut would split is dropped whole (half a mark reads like text).
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut at = text
        .char_indices()
        .nth(max.saturating_sub(1))
        .map_or(text.len(), |(i, _)| i);
    for (start, _) in text.match_indices(MARK) {
        if start < at && at < start + MARK.len() {
            at = start;
            break;
        }
    }
    format!("{}{ELLIPSIS}", &text[..at])
}

/// `text` cut to at most `max` characters by taking out its middle: its start and its end
/// are kept (a conclusion puts the result and what is still open last), joined by ` … `,
/// each cut between words where one is near, never inside a `[REDACTED]` mark.
pub fn clip_middle(text: &str, max: usize) -> String {
    let count = text.chars().count();
    if count <= max {
        return text.to_string();
    }
    let joint = " … ";
    let room = max.saturating_sub(joint.chars().count());
    if room < 20 {
        return clip(text, max);
    }
    let head_chars = room * 2 / 5;
    let tail_chars = room - head_chars;
    let head: String = text.chars().take(head_chars).collect();
    let head = match head.rfind(char::is_whitespace) {
        Some(sp) if sp * 4 >= head.len() * 3 => head[..sp].trim_end().to_string(),
        _ => head,
    };
    let tail: String = text.chars().skip(count - tail_chars).collect();
    let tail = match tail.find(char::is_whitespace) {
        Some(sp) if sp * 4 <= tail.len() => tail[sp..].trim_start().to_string(),
        _ => tail,
    };
    format!(
        "{}{joint}{}",
        whole_marks_head(&head),
        whole_marks_tail(&tail)
    )
}

/// `head` without a `[REDACTED]` mark cut at its end.
fn whole_marks_head(head: &str) -> &str {
    for k in (1..MARK.len()).rev() {
        if head.ends_with(&MARK[..k]) {
            return &head[..head.len() - k];
        }
    }
    head
}

/// `tail` without a `[REDACTED]` mark cut at its start.
fn whole_marks_tail(tail: &str) -> &str {
    for k in (1..MARK.len()).rev() {
        if tail.starts_with(&MARK[MARK.len() - k..]) {
            return &tail[k..];
        }
    }
    tail
}

/// The longest start of `text` of at most `max` bytes that does not split a character.
pub fn prefix_bytes(text: &str, max: usize) -> &str {
    let mut end = text.len().min(max);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` cut to at most `max` characters like `clip`, but at the last space before the
/// limit when that keeps at least a fifth of it (a title reads better cut between words).
pub fn clip_words(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max.saturating_sub(1)).collect();
    match head.rfind(' ') {
        Some(sp) if head[..sp].trim_end().chars().count() >= max / 5 => {
            format!("{}{ELLIPSIS}", head[..sp].trim_end())
        }
        _ => clip(text, max),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_byte_prefix_never_splits_a_character() {
        assert_eq!(prefix_bytes("abc", 10), "abc");
        assert_eq!(prefix_bytes("abc", 2), "ab");
        assert_eq!(prefix_bytes("aé", 2), "a");
        assert_eq!(prefix_bytes("", 0), "");
    }

    #[test]
    fn quoted_text_stays_on_its_line_inside_its_quotes() {
        assert_eq!(quotable("a \"b\"\nc", 100), "a 'b' c");
        assert_eq!(quotable("abcdef", 4), "abc…");
        assert_eq!(line("a\n\nb", 100), "a b");
    }

    #[test]
    fn a_fence_outlasts_every_backtick_run_inside() {
        assert_eq!(fenced("ok"), "```\nok\n```");
        assert_eq!(fenced("a\n```\nb"), "````\na\n```\nb\n````");
        assert_eq!(fenced("`````"), "``````\n`````\n``````");
    }

    #[test]
    fn one_line_flattens_controls_and_whitespace() {
        assert_eq!(one_line("  a\n\tb\r\n c\u{7}d  "), "a b c d");
        assert_eq!(one_line(""), "");
    }

    #[test]
    fn clip_counts_characters_and_marks_the_cut() {
        assert_eq!(clip("short", 10), "short");
        assert_eq!(clip(&"a".repeat(200), 10), format!("{}…", "a".repeat(9)));
        assert_eq!(clip(&"é".repeat(10), 5), format!("{}…", "é".repeat(4)));
        assert_eq!(clip("abc", 0), "…");
    }

    #[test]
    fn clip_never_splits_a_redaction_mark() {
        let text = format!("{}[REDACTED] tail", "a".repeat(5));
        assert_eq!(clip(&text, 9), "aaaaa…");
        assert_eq!(clip(&text, 16), "aaaaa[REDACTED]…");
    }

    #[test]
    fn clip_middle_keeps_the_start_and_the_end() {
        assert_eq!(clip_middle("short", 10), "short");
        let text = format!(
            "Result: parser fixed. {} Still open: the docs.",
            "filler words ".repeat(50)
        );
        let cut = clip_middle(&text, 120);
        assert!(cut.chars().count() <= 120, "{cut}");
        assert!(cut.starts_with("Result: parser fixed."), "{cut}");
        assert!(cut.ends_with("Still open: the docs."), "{cut}");
        assert!(cut.contains(" … "), "{cut}");
        let marked = format!("{}[REDACTED]{}", "a".repeat(60), "b".repeat(60));
        for max in 40..120 {
            let cut = clip_middle(&marked, max);
            assert!(
                !cut.contains("[RED") || cut.contains("[REDACTED]"),
                "{max}: {cut}"
            );
            assert!(
                !cut.contains("TED]") || cut.contains("[REDACTED]"),
                "{max}: {cut}"
            );
        }
    }

    #[test]
    fn clip_words_cuts_between_words() {
        let t = "This is a very long title that should be truncated somewhere";
        assert_eq!(clip_words(t, 30), "This is a very long title…");
        assert_eq!(
            clip_words(&"x".repeat(40), 10),
            format!("{}…", "x".repeat(9))
        );
    }
}
