//! The short excerpt a hit shows: the stretch of its text that holds the most query words,
//! taken from the parts that answer (a decision's decision and rationale, a turn's
//! conclusion, an error line: `Doc::answer`) when they hold any, on one line, each matched
//! word marked `**like this**`, cut ends marked `…`. When only the title matched, the
//! excerpt is the start of the first part that answers. It also says how many lines into the
//! text the stretch starts, so the hit can name the file's line.

use super::query::Query;
use super::terms::each_term;
use crate::core::text::{one_line, ELLIPSIS};
use std::collections::HashSet;
use std::ops::Range;

/// Characters of context kept before the first matched word.
const LEAD: usize = 40;

/// The excerpt of `text` for `query`, about `width` characters, and the number of line
/// breaks in `text` before its first marked word; `answer` are the parts that answer.
pub(crate) fn excerpt(
    text: &str,
    answer: &[Range<usize>],
    query: &Query,
    width: usize,
) -> (String, usize) {
    let mut all: Vec<(usize, usize, String)> = Vec::new();
    each_term(text, |s, e, t, _| {
        // A compound and its parts: the first match at a place is marked.
        let taken = all.last().is_some_and(|(_, end, _)| s < *end);
        if !taken && query.matches(t) {
            all.push((s, e, t.to_string()));
        }
    });
    let in_answer = |s: usize| answer.iter().any(|r| r.contains(&s));
    let answering: Vec<(usize, usize, String)> = all
        .iter()
        .filter(|(s, _, _)| in_answer(*s))
        .cloned()
        .collect();
    let start = match (all.is_empty(), answer.first()) {
        (true, Some(r)) if text.is_char_boundary(r.start) => r.start,
        _ if answering.is_empty() => best_start(text, &all, width).0,
        _ => {
            // A short answer is shown from its start: the words before the match say what
            // it is about.
            let (start, hit) = best_start(text, &answering, width);
            match answer.iter().find(|r| r.contains(&hit)) {
                Some(r) if text[r.start..hit].chars().count() < width / 2 => r.start,
                _ => start,
            }
        }
    };
    let hits = all;
    let end = end_at(text, start, width);
    let mut out = String::new();
    if start > 0 {
        out.push(ELLIPSIS);
    }
    let mut at = start;
    for (s, e, _) in hits.iter().filter(|(s, e, _)| *s >= start && *e <= end) {
        out.push_str(&one_line_keep_edges(&text[at..*s]));
        out.push_str("**");
        out.push_str(&text[*s..*e]);
        out.push_str("**");
        at = *e;
    }
    out.push_str(&one_line_keep_edges(&text[at..end]));
    if end < text.len() {
        out.push(ELLIPSIS);
    }
    // The line named is the first marked word's (the excerpt may start a line earlier).
    let first = hits
        .iter()
        .map(|(s, _, _)| *s)
        .find(|s| *s >= start && *s < end)
        .unwrap_or(start);
    let lines_before = text[..first].matches('\n').count();
    (collapse(&out), lines_before)
}

/// The byte offset to start at — a little before the matched word whose window holds the
/// most distinct query words (the first such word), at a word boundary — and that word's.
fn best_start(text: &str, hits: &[(usize, usize, String)], width: usize) -> (usize, usize) {
    let mut best: Option<(usize, usize)> = None;
    for (i, (s, _, _)) in hits.iter().enumerate() {
        let distinct: HashSet<&str> = hits[i..]
            .iter()
            .take_while(|(s2, _, _)| text[*s..*s2].chars().count() < width.saturating_sub(LEAD))
            .map(|(_, _, w)| w.as_str())
            .collect();
        if best.is_none_or(|(n, _)| distinct.len() > n) {
            best = Some((distinct.len(), *s));
        }
    }
    let Some((_, first)) = best else {
        return (0, 0);
    };
    // Back up LEAD characters, then forward to the start of a word.
    let back = text[..first]
        .char_indices()
        .rev()
        .nth(LEAD.saturating_sub(1))
        .map_or(0, |(i, _)| i);
    if back == 0 {
        return (0, first);
    }
    let start = text[back..first]
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map_or(back, |(i, c)| back + i + c.len_utf8());
    (start, first)
}

/// The byte offset `width` characters after `start`, moved back to a space when one is near.
fn end_at(text: &str, start: usize, width: usize) -> usize {
    let Some((i, _)) = text[start..].char_indices().nth(width) else {
        return text.len();
    };
    let end = start + i;
    text[start..end]
        .rfind(char::is_whitespace)
        .filter(|&sp| sp > i / 2)
        .map_or(end, |sp| start + sp)
}

/// `one_line`, but a leading or trailing break stays one space (the parts are glued back
/// around marked words); the text's own `**` emphasis is dropped, so the only marks left are
/// the matches.
fn one_line_keep_edges(s: &str) -> String {
    let s = &s.replace("**", "");
    let lead = s.starts_with(|c: char| c.is_whitespace() || c.is_control());
    let trail = s.ends_with(|c: char| c.is_whitespace() || c.is_control());
    let core = one_line(s);
    match (core.is_empty(), lead || trail) {
        (true, true) => " ".into(),
        (true, false) => String::new(),
        _ => format!(
            "{}{core}{}",
            if lead { " " } else { "" },
            if trail { " " } else { "" }
        ),
    }
}

/// Runs of spaces made one.
fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    out.trim().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_the_words_and_starts_near_them() {
        let q = Query::parse("cache eviction").unwrap();
        let text = format!(
            "{}\nWe evict the response cache by LRU.\nThe end.",
            "filler words here. ".repeat(20)
        );
        let (ex, lines) = excerpt(&text, &[], &q, 120);
        assert!(ex.starts_with('…'), "{ex}");
        assert!(
            ex.contains("**evict** the response **cache** by **LRU**."),
            "{ex}"
        );
        assert_eq!(lines, 1, "the line of the first marked word");
        let (ex, lines) = excerpt("one\ntwo\nthe cache\n", &[], &q, 120);
        assert_eq!(ex, "one two the **cache**");
        assert_eq!(lines, 2);
    }

    #[test]
    fn a_long_text_is_cut_and_the_line_counted() {
        let q = Query::parse("needle").unwrap();
        let text = format!(
            "{}needle here\n{}",
            "line\n".repeat(30),
            "tail ".repeat(100)
        );
        let (ex, lines) = excerpt(&text, &[], &q, 60);
        assert!(ex.contains("**needle**"), "{ex}");
        assert!(ex.ends_with('…'));
        assert!(ex.chars().count() <= 70, "{ex}");
        assert_eq!(lines, 30);
    }

    #[test]
    fn no_match_shows_the_start() {
        let q = Query::parse("zebra").unwrap();
        assert_eq!(excerpt("plain text", &[], &q, 50).0, "plain text");
    }
}
