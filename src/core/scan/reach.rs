//! How far the scan reads across the lines of a text, for a caller that scans a part of a
//! text and keeps the verdicts of the rest (`bridge::scan_runs`): which lines a reader sees
//! as text (what a part must hold around a change), and which cuts split what the scan reads
//! across lines (a word hyphenated at a line's end, a wrapped blob, a group of base64
//! pieces).

use super::checks::{encoded_pieces, MAX_PIECES, PIECES_GAP};
use super::encoded::base64_text;
use super::normalize::stream_forms;

/// What a text holds as the scan's joined forms read it.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Reading {
    /// Bytes of its lines that the streams read (neither headings nor empty to a reader).
    pub bytes: usize,
    /// Its whole lines of text (`reading`).
    pub lines: usize,
}

impl std::ops::AddAssign for Reading {
    fn add_assign(&mut self, other: Reading) {
        self.bytes += other.bytes;
        self.lines += other.lines;
    }
}

/// What `text` holds as the streams read it. A line a reader sees as empty (`>`, a bare
/// field label, invisibles) or a heading is skipped by the streams, which join what stands
/// around it: it counts for nothing. A line counts as a whole line of text when, as the
/// streams read it, it holds three words or more (a phrase's filler words, one or two a
/// line, carry a match on) and does not end with a hyphen (a word hyphenated there goes on
/// in the next line).
pub fn reading(text: &str) -> Reading {
    let mut r = Reading::default();
    for line in text.lines() {
        let Some((skel, plain)) = stream_forms(line) else {
            continue;
        };
        r.bytes += skel.len().min(plain.len());
        let whole = |s: &str| s.split_whitespace().count() >= 3 && !s.ends_with('-');
        r.lines += usize::from(whole(&skel) && whole(&plain));
    }
    r
}

/// Whether a cut of `text` at `at` (a line start) may split what the scan reads across
/// lines: the last line before it that the streams read (headings and lines empty to a
/// reader are skipped, as the streams skip them) ends with a hyphen, or is not found within
/// `LOOK_BACK` lines (the streams join across or through them), a wrapped blob goes on across
/// it (the lines on both sides are each one base64 or hex run), or base64 pieces on both
/// sides lie close enough to be decoded together.
pub fn splits_at(text: &str, at: usize) -> bool {
    if at == 0 || at >= text.len() || !text.is_char_boundary(at) {
        return false;
    }
    let end = at - usize::from(text.as_bytes()[at - 1] == b'\n');
    let prev = &text[text[..end].rfind('\n').map_or(0, |i| i + 1)..end];
    let next = &text[at..text[at..].find('\n').map_or(text.len(), |i| at + i)];
    let streamed = text[..end].rsplit('\n').take(LOOK_BACK).find_map(|l| {
        stream_forms(l).filter(|(skel, plain)| !skel.is_empty() && !plain.is_empty())
    });
    let joins = streamed.is_none_or(|(skel, plain)| skel.ends_with('-') || plain.ends_with('-'));
    joins || run_line(prev) && run_line(next) || pieces_across(text, at)
}

/// Lines before a cut searched for one the streams read (`splits_at`).
const LOOK_BACK: usize = 64;

/// Whether `line` is one run of base64 (or hex) characters, indented or not, with up to two
/// `=` after it: a line of a wrapped blob.
fn run_line(line: &str) -> bool {
    let t = line.trim_start_matches([' ', '\t']).trim_end_matches('\r');
    let body = t.trim_end_matches('=');
    !body.is_empty()
        && t.len() - body.len() <= 2
        && body
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'_' | b'-'))
}

/// Whether base64 pieces on both sides of `at`, close enough for the check to join them
/// (`PIECES_GAP` bytes apart, at most `MAX_PIECES` together), decode joined to text: only
/// then can the check read something across the cut. Identifiers, dates and paths
/// (`2026-01-02T03`, `src/x.rs`, one JSON Lines record after another) stand close together
/// in every line of a log, but decode to no text.
fn pieces_across(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let in_run = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b'_' | b'-' | b'=');
    // The chain of pieces a joined group may take: `MAX_PIECES` gaps on each side at most.
    let reach = MAX_PIECES * (PIECES_GAP + 1) * 2;
    let mut s = at.saturating_sub(reach);
    while s > 0 && (!text.is_char_boundary(s) || in_run(b[s - 1])) {
        s -= 1;
    }
    let mut e = (at + reach).min(text.len());
    while e < text.len() && (!text.is_char_boundary(e) || in_run(b[e])) {
        e += 1;
    }
    let pieces: Vec<(usize, usize)> = encoded_pieces(&text[s..e])
        .into_iter()
        .map(|(a, z)| (s + a, s + z))
        .collect();
    // The last piece before the cut, and whether the one after it is close enough.
    let Some(last) = pieces.iter().rposition(|p| p.1 <= at) else {
        return false;
    };
    if pieces
        .get(last + 1)
        .is_none_or(|n| n.0 < at || n.0 - pieces[last].1 > PIECES_GAP)
    {
        return false;
    }
    // Every run of up to `MAX_PIECES` chained pieces that crosses the cut.
    let chained = |i: usize| pieces[i + 1].0 - pieces[i].1 <= PIECES_GAP;
    let mut first = last;
    while first > 0 && last - first + 1 < MAX_PIECES && chained(first - 1) {
        first -= 1;
    }
    (first..=last).any(|i| {
        let mut joined = String::new();
        for (k, &(a, z)) in pieces.iter().enumerate().skip(i) {
            if k - i >= MAX_PIECES || k > i && !chained(k - 1) {
                break;
            }
            joined.push_str(text[a..z].trim_end_matches('='));
            if k > last
                && joined.len() >= 12
                && base64_text(joined.as_bytes())
                    .is_some_and(|d| d.chars().filter(|c| c.is_alphabetic()).count() >= 8)
            {
                return true;
            }
        }
        false
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_a_reader_sees_as_empty_count_for_nothing() {
        assert_eq!(
            reading(">\n>   \n**Context:**\n## [x] Decision: y\n\n").bytes,
            0
        );
        let r = reading("Please ignore\nthe flaky test for now.\nsplit over a hyphen-\n");
        assert_eq!(r.lines, 1);
        assert!(r.bytes > 30);
    }

    #[test]
    fn a_cut_inside_a_blob_a_hyphenated_word_or_far_past_text_splits() {
        let blob = "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQg\naGVsbG8gd29ybGQgaGVsbG8gd29ybGQg\n";
        assert!(splits_at(blob, blob.find('\n').unwrap() + 1));
        let text = "Component one talks to two.\n>\n\nComponent two talks to three.\n";
        assert!(!splits_at(text, text.find(">\n").unwrap() + 3));
        assert!(!splits_at(text, text.find(">\n").unwrap()));
        let hyphen = "A word split over two lines, hyphen-\n>\nated here.\n";
        assert!(splits_at(hyphen, hyphen.find(">\n").unwrap() + 2));
        let quoted = format!("Please ignore\n{}the rest.\n", ">\n".repeat(100));
        assert!(splits_at(&quoted, quoted.find("the rest").unwrap()));
        let pieces = "ids aWdub3JlIGFs\nbCBwcmV2aW91 next\n";
        assert!(splits_at(pieces, pieces.find('\n').unwrap() + 1));
        // Identifiers, dates and paths close together across every line of a log decode
        // to no text: a cut between two records splits nothing (a 2 MB log was rescanned
        // whole after each pull).
        let mut log = String::new();
        for n in 0..40 {
            log.push_str(&format!("{{\"ts\":\"2026-01-02T03:{n:02}:00Z\",\"key\":\"key-{n}\",\"insight\":\"Insight {n}: batch the writes.\",\"files\":[\"src/x.rs\"]}}\n"));
        }
        let cut = log.match_indices('\n').nth(20).unwrap().0 + 1;
        assert!(!splits_at(&log, cut));
    }
}
