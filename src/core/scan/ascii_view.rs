//! A text as the rules' ASCII forms read it: every character outside ASCII replaced by one
//! ASCII byte that those forms treat as the rule's Unicode form treats the character, so a
//! rule written in ASCII runs on a byte-wise automaton that costs a third to compile
//! (`rules::ascii_regex`) and finds exactly what the Unicode form finds (a test compares
//! both on the corpora and on random text).
//!
//! Why one byte each is enough for a pattern written in ASCII (`ascii_bounds` makes its
//! `\b`, `\w` and `\d` ASCII in both forms): a character outside ASCII can match such a
//! pattern only as "any character" (`.`, a negated class, `\S`), as white space (`\s`), or,
//! case-insensitively, as the ASCII letter it folds to (U+017F LONG S to `s`, U+212A
//! KELVIN SIGN to `k`) while staying no word character to `\w` and `\b`. So white space
//! becomes `\x0B` (white space to `\s`, and in no pattern) and everything else `\x01`,
//! which no pattern names; a text with one of the two folding characters, which no byte
//! can stand for, is not given a view (`usable` is false: the Unicode forms run on it).
//! Lengths in characters are kept (`[^.\n]{0,80}` counts one per character), and every
//! offset maps back to the text (`original`).

use std::borrow::Cow;

/// What a non-ASCII white-space character becomes.
pub(super) const SPACE: u8 = 0x0B;
/// What any other character outside ASCII becomes.
pub(super) const OTHER: u8 = 0x01;

/// `text` as the ASCII forms read it.
#[derive(Debug)]
pub(crate) struct AsciiView<'a> {
    /// The view (the text itself when it is ASCII).
    pub(crate) text: Cow<'a, str>,
    /// For each replaced character: its offset in the view and the bytes the text holds
    /// beyond the view up to and including it (ascending).
    shifts: Vec<(usize, usize)>,
    /// Whether the view stands for the text (false: a character folds to an ASCII letter).
    pub(crate) usable: bool,
}

impl<'a> AsciiView<'a> {
    /// The view of `text`.
    pub(crate) fn of(text: &'a str) -> AsciiView<'a> {
        if text.is_ascii() {
            return AsciiView {
                text: Cow::Borrowed(text),
                shifts: Vec::new(),
                usable: true,
            };
        }
        if text.contains(['\u{17F}', '\u{212A}']) {
            return AsciiView {
                text: Cow::Borrowed(""),
                shifts: Vec::new(),
                usable: false,
            };
        }
        let mut out = String::with_capacity(text.len());
        let mut shifts = Vec::new();
        let mut extra = 0;
        for c in text.chars() {
            if c.is_ascii() {
                out.push(c);
                continue;
            }
            let b = if c.is_whitespace() { SPACE } else { OTHER };
            extra += c.len_utf8() - 1;
            shifts.push((out.len(), extra));
            out.push(char::from(b));
        }
        AsciiView {
            text: Cow::Owned(out),
            shifts,
            usable: true,
        }
    }

    /// The offset in the text of offset `at` of the view (a match's start or end).
    pub(crate) fn original(&self, at: usize) -> usize {
        // The characters before `at` that were replaced: the last one's running total.
        let before = self.shifts.partition_point(|(off, _)| *off < at);
        at + before
            .checked_sub(1)
            .and_then(|i| self.shifts.get(i))
            .map_or(0, |(_, extra)| *extra)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_map_back_to_the_text() {
        let text = "a — b\u{A0}c ü é\n[x]";
        let v = AsciiView::of(text);
        assert!(v.usable && v.text.is_ascii());
        assert_eq!(v.text.chars().count(), text.chars().count());
        assert_eq!(v.text, "a \u{1} b\u{b}c \u{1} \u{1}\n[x]");
        for ((vi, _), (ti, _)) in v.text.char_indices().zip(text.char_indices()) {
            assert_eq!(v.original(vi), ti, "at {vi}");
        }
        assert_eq!(v.original(v.text.len()), text.len());
        let plain = AsciiView::of("plain");
        assert!(matches!(plain.text, Cow::Borrowed(_)));
        assert_eq!(plain.original(3), 3);
        assert!(!AsciiView::of("di\u{17F}regard").usable);
    }
}
