//! The one context budget. Everything baton injects into the model's context in one event is
//! merged into one text under one character budget. Sections have priorities; protected
//! sections are never cut; a section that is cut or left out says so, and where its full text
//! lives.

/// One piece of text a handler wants the model to see.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Section {
    /// A heading; empty for none.
    pub title: String,
    /// The text.
    pub body: String,
    /// Higher is kept first when the budget is short.
    pub priority: u8,
    /// Never cut (a resume line, an integrity warning).
    pub protected: bool,
    /// Where the full text can be read when this section is cut (a path or a command).
    pub source: Option<String>,
}

impl Section {
    /// An ordinary section.
    pub fn new(title: impl Into<String>, body: impl Into<String>, priority: u8) -> Self {
        Section {
            title: title.into(),
            body: body.into(),
            priority,
            protected: false,
            source: None,
        }
    }

    /// Marks the section as never cut.
    #[must_use]
    pub fn protected(mut self) -> Self {
        self.protected = true;
        self
    }

    /// Names where the full text lives.
    #[must_use]
    pub fn source(mut self, source: impl Into<String>) -> Self {
        self.source = Some(source.into());
        self
    }

    fn render(&self, body: &str) -> String {
        if self.title.is_empty() {
            body.to_string()
        } else {
            format!("## {}\n{}", self.title, body)
        }
    }
}

/// Characters kept back for the notes about what was cut.
const NOTE_RESERVE: usize = 240;
/// A section is shortened rather than left out only if this much of it still fits.
const MIN_USEFUL: usize = 160;
const SEPARATOR: &str = "\n\n";

/// Merges `sections` (in the order given) into one text of at most `budget` characters.
/// Protected sections are kept first and whole; only when they alone would not fit are they
/// cut too, the lowest priority first (later first among equals), each with a marker.
pub fn fit(sections: &[Section], budget: usize) -> String {
    let mut rendered: Vec<String> = sections.iter().map(|s| s.render(&s.body)).collect();
    let total: usize = rendered.iter().map(|r| chars(r)).sum::<usize>()
        + SEPARATOR.len() * sections.len().saturating_sub(1);
    if total <= budget {
        return rendered.join(SEPARATOR);
    }

    let mut left = budget.saturating_sub(NOTE_RESERVE);
    let mut omitted = Vec::new();
    shrink_protected(sections, &mut rendered, left, &mut omitted);
    let mut kept: Vec<Option<String>> = vec![None; sections.len()];
    for (i, s) in sections.iter().enumerate() {
        if s.protected && !rendered[i].is_empty() {
            left = left.saturating_sub(chars(&rendered[i]) + SEPARATOR.len());
            kept[i] = Some(std::mem::take(&mut rendered[i]));
        }
    }
    // Most important first; among equals, earlier first.
    let mut order: Vec<usize> = (0..sections.len())
        .filter(|&i| !sections[i].protected)
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sections[i].priority));
    for i in order {
        let s = &sections[i];
        let need = chars(&rendered[i]) + SEPARATOR.len();
        if need <= left {
            kept[i] = Some(rendered[i].clone());
            left -= need;
            continue;
        }
        match cut_to(s, left) {
            Some(text) => {
                left = left.saturating_sub(chars(&text) + SEPARATOR.len());
                kept[i] = Some(text);
            }
            None => omitted.push(describe(s)),
        }
    }
    let mut parts: Vec<String> = kept.into_iter().flatten().collect();
    if !omitted.is_empty() {
        let note = format!(
            "[baton: left out to stay within the context budget: {}]",
            omitted.join("; ")
        );
        parts.push(clip_note(
            &note,
            NOTE_RESERVE.saturating_sub(SEPARATOR.len()),
        ));
    }
    // Only a budget too small for the marker lines themselves gets here.
    clip_note(&parts.join(SEPARATOR), budget)
}

/// `s` cut to fit in `room` characters (its separator included), with the marker; `None`
/// when less than `MIN_USEFUL` of its body would be left.
fn cut_to(s: &Section, room: usize) -> Option<String> {
    let marker = cut_marker(s, chars(&s.body));
    let room = room.saturating_sub(chars(&s.title) + 4 + SEPARATOR.len() + chars(&marker) + 1);
    if room < MIN_USEFUL {
        return None;
    }
    let head = cut_at_line(&s.body, room);
    let cut = chars(&s.body) - chars(head);
    Some(s.render(&format!("{}\n{}", head.trim_end(), cut_marker(s, cut))))
}

/// When the protected sections alone take more than `room`, cuts them (their rendered text
/// in `rendered`) until they fit: the lowest priority first, later first among equals; one
/// with too little left is left out (emptied, and named in `omitted`).
fn shrink_protected(
    sections: &[Section],
    rendered: &mut [String],
    room: usize,
    omitted: &mut Vec<String>,
) {
    let used = |r: &[String]| -> usize {
        sections
            .iter()
            .zip(r)
            .filter(|(s, t)| s.protected && !t.is_empty())
            .map(|(_, t)| chars(t) + SEPARATOR.len())
            .sum()
    };
    let mut order: Vec<usize> = (0..sections.len())
        .filter(|&i| sections[i].protected)
        .collect();
    order.sort_by_key(|&i| (sections[i].priority, std::cmp::Reverse(i)));
    for i in order {
        let over = used(rendered).saturating_sub(room);
        if over == 0 {
            return;
        }
        let s = &sections[i];
        let mine = chars(&rendered[i]) + SEPARATOR.len();
        // Too little left of it: left out, and named in the note about what was left out.
        if let Some(text) = cut_to(s, mine.saturating_sub(over)) {
            rendered[i] = text;
        } else {
            rendered[i].clear();
            omitted.push(describe(s));
        }
    }
}

/// The note about what was left out, at most `max` characters.
fn clip_note(note: &str, max: usize) -> String {
    if chars(note) <= max {
        return note.to_string();
    }
    let head: String = note.chars().take(max.saturating_sub(2)).collect();
    format!("{head}…]")
}

fn cut_marker(s: &Section, cut_chars: usize) -> String {
    match &s.source {
        Some(src) => format!("[… {cut_chars} more characters cut; full text: {src}]"),
        None => format!("[… {cut_chars} more characters cut]"),
    }
}

fn describe(s: &Section) -> String {
    let name = if s.title.is_empty() {
        "a section"
    } else {
        s.title.as_str()
    };
    match &s.source {
        Some(src) => format!("{name} (see {src})"),
        None => name.to_string(),
    }
}

/// The longest prefix of `text` of at most `max` characters that ends at a line break when
/// one is near, else at a character boundary.
fn cut_at_line(text: &str, max: usize) -> &str {
    let end = text.char_indices().nth(max).map_or(text.len(), |(i, _)| i);
    let head = &text[..end];
    match head.rfind('\n') {
        Some(nl) if nl >= end / 2 => &head[..nl],
        _ => head,
    }
}

/// Length in characters (what Claude Code's 10,000 cap counts, near enough).
pub fn chars(text: &str) -> usize {
    text.chars().count()
}

/// A rough token estimate: one token per four characters, rounded up.
pub fn estimate_tokens(text: &str) -> usize {
    chars(text).div_ceil(4)
}

/// Cuts `text` to at most `max_tokens` estimated tokens, at a line break where possible,
/// and says how much was left out. For recall levels with a token budget.
pub fn cut_to_tokens(text: &str, max_tokens: usize) -> String {
    if estimate_tokens(text) <= max_tokens {
        return text.to_string();
    }
    let head = cut_at_line(text, max_tokens.saturating_mul(4).saturating_sub(60));
    let cut = chars(text) - chars(head);
    format!("{}\n[… {cut} more characters cut]", head.trim_end())
}

/// One part of a text that `share_tokens` fits into a budget with others.
#[derive(Debug, Clone, Copy)]
pub struct Part<'a> {
    /// The text.
    pub text: &'a str,
    /// Its claim on the budget, relative to the other parts' (a part shorter than its share
    /// keeps all of it and leaves the rest to the others).
    pub weight: usize,
    /// Where its full text is (a path or a command), named when it is cut.
    pub source: Option<&'a str>,
}

/// Fits `parts` together into `max_tokens` estimated tokens, joined by line breaks. When
/// they do not fit, each part gets a share instead of the first ones taking everything: a
/// part shorter than its share is kept whole, the rest of the budget is split among the
/// longer ones by weight, and each of those is cut at a line break with a note that says how
/// much was left out and where the full text is.
pub fn share_tokens(parts: &[Part<'_>], max_tokens: usize) -> String {
    let texts: Vec<&str> = parts.iter().map(|p| p.text.trim_end()).collect();
    let joined = texts.join("\n");
    if estimate_tokens(&joined) <= max_tokens {
        return joined;
    }
    let budget = max_tokens
        .saturating_mul(4)
        .saturating_sub(parts.len().saturating_sub(1));
    let sizes: Vec<usize> = texts.iter().map(|t| chars(t)).collect();
    let weights: Vec<usize> = parts.iter().map(|p| p.weight.max(1)).collect();
    let allotted = fair_shares(&sizes, &weights, budget);
    parts
        .iter()
        .zip(texts)
        .zip(allotted)
        .map(|((part, text), allot)| cut_with_note(text, allot, part.source))
        .filter(|t| !t.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits `budget` among parts of `sizes` by `weights`: a part that needs less than its share
/// gets what it needs, and what it leaves is shared again among the others (max-min fair).
fn fair_shares(sizes: &[usize], weights: &[usize], budget: usize) -> Vec<usize> {
    let mut out = vec![0; sizes.len()];
    let mut open: Vec<usize> = (0..sizes.len()).collect();
    let mut left = budget;
    loop {
        let total: usize = open.iter().map(|&i| weights[i]).sum();
        if total == 0 {
            return out;
        }
        let share = |i: usize| left.saturating_mul(weights[i]) / total;
        let (fits, rest): (Vec<usize>, Vec<usize>) =
            open.iter().partition(|&&i| sizes[i] <= share(i));
        if fits.is_empty() {
            for &i in &rest {
                out[i] = share(i);
            }
            return out;
        }
        for &i in &fits {
            out[i] = sizes[i];
            left = left.saturating_sub(sizes[i]);
        }
        open = rest;
    }
}

/// `text` cut to at most `max` characters at a line break, with a note naming `source`.
fn cut_with_note(text: &str, max: usize, source: Option<&str>) -> String {
    if chars(text) <= max {
        return text.to_string();
    }
    let note = |cut: usize| match source {
        Some(src) => format!("[… {cut} more characters cut; full text: {src}]"),
        None => format!("[… {cut} more characters cut]"),
    };
    // The note for the whole text is the longest it can be.
    let room = max.saturating_sub(chars(&note(chars(text))) + 1);
    let head = cut_at_line(text, room).trim_end();
    let cut = chars(text) - chars(head);
    if head.is_empty() {
        note(cut)
    } else {
        format!("{head}\n{}", note(cut))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn everything_fits_in_order() {
        let s = [Section::new("A", "one", 1), Section::new("", "two", 9)];
        assert_eq!(fit(&s, 8000), "## A\none\n\ntwo");
    }

    #[test]
    fn protected_survive_and_low_priority_goes_first() {
        let big = "x\n".repeat(3000);
        let s = [
            Section::new("Low", big.clone(), 1).source(".rune/progress.md"),
            Section::new("Resume", "do the thing", 0).protected(),
            Section::new("High", big.clone(), 9),
        ];
        let out = fit(&s, 2000);
        assert!(chars(&out) <= 2000, "{}", chars(&out));
        assert!(out.contains("## Resume\ndo the thing"));
        assert!(out.contains("## High"));
        assert!(out.contains("more characters cut"));
        assert!(
            out.contains("left out to stay within the context budget: Low (see .rune/progress.md)")
        );
        // order of what is kept is the order given
        assert!(out.find("## Resume").unwrap() < out.find("## High").unwrap());
    }

    /// Protected sections that alone exceed the budget are cut too, the lowest priority
    /// first, so the text never exceeds the budget; a higher one stays whole.
    #[test]
    fn the_budget_holds_even_when_protected_sections_overflow_it() {
        let big = "y\n".repeat(3000);
        let s = [
            Section::new("Resume here", "Next: do the thing", 100).protected(),
            Section::new("Checkpoint", "c\n".repeat(6000), 40)
                .protected()
                .source(".rune/checkpoint.md"),
            Section::new("Relay", big.clone(), 30).protected(),
            Section::new("Memory", big, 50),
        ];
        for budget in [400, 2000, 8000] {
            let out = fit(&s, budget);
            assert!(chars(&out) <= budget, "{budget}: {}", chars(&out));
            assert!(out.contains("Next: do the thing"), "{budget}: {out}");
        }
        let out = fit(&s, 8000);
        assert!(out.contains("full text: .rune/checkpoint.md"), "{out}");
        assert!(out.contains("context budget: Relay"), "{out}");
        // Many left-out sections: the note is bounded too.
        let many: Vec<Section> = (0..200)
            .map(|i| Section::new(format!("Section number {i}"), "z".repeat(500), 1))
            .collect();
        assert!(chars(&fit(&many, 1000)) <= 1000);
    }

    #[test]
    fn cut_section_names_its_source() {
        let s = [Section::new("Log", "line\n".repeat(1000), 5).source("baton audit recover full")];
        let out = fit(&s, 1000);
        assert!(out.contains("full text: baton audit recover full"), "{out}");
        assert!(chars(&out) <= 1000);
    }

    #[test]
    fn multibyte_text_is_cut_on_char_boundaries() {
        let s = [Section::new("U", "äöü€".repeat(2000), 5)];
        let out = fit(&s, 900);
        assert!(chars(&out) <= 900);
    }

    #[test]
    fn token_estimate_and_cut() {
        assert_eq!(estimate_tokens("abcd"), 1);
        assert_eq!(estimate_tokens("abcde"), 2);
        let long = "word ".repeat(1000);
        let cut = cut_to_tokens(&long, 200);
        assert!(estimate_tokens(&cut) <= 200, "{}", estimate_tokens(&cut));
        assert!(cut.ends_with("more characters cut]"));
        assert_eq!(cut_to_tokens("short", 200), "short");
    }

    #[test]
    fn shares_keep_every_part_and_give_short_ones_what_they_need() {
        let long = "line of text\n".repeat(400);
        let short = "## 6. Backlog\n\n- one item";
        let parts = [
            Part {
                text: &long,
                weight: 2,
                source: Some("baton recall"),
            },
            Part {
                text: short,
                weight: 1,
                source: None,
            },
            Part {
                text: &long,
                weight: 1,
                source: Some(".boo/reports/daily_20261130.md"),
            },
        ];
        let out = share_tokens(&parts, 500);
        assert!(estimate_tokens(&out) <= 500, "{}", estimate_tokens(&out));
        assert!(out.contains("## 6. Backlog\n\n- one item"), "{out}");
        assert!(out.contains("full text: baton recall]"), "{out}");
        assert!(
            out.contains("full text: .boo/reports/daily_20261130.md]"),
            "{out}"
        );
        // By weight: the first long part keeps about twice what the last one keeps.
        let first = out.find("full text: baton recall]").unwrap();
        let second = out.len() - out.find("## 6.").unwrap();
        assert!(first > second * 3 / 2, "{first} vs {second}");
        // Everything fits: unchanged.
        assert_eq!(share_tokens(&parts[1..2], 500), short);
    }

    #[test]
    fn fair_shares_hand_back_what_a_part_does_not_need() {
        assert_eq!(
            fair_shares(&[10, 100, 100], &[1, 1, 1], 110),
            vec![10, 50, 50]
        );
        assert_eq!(fair_shares(&[100, 100], &[3, 1], 80), vec![60, 20]);
        assert_eq!(fair_shares(&[], &[], 80), Vec::<usize>::new());
    }
}
