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

/// Merges `sections` (in the order given) into one text of at most `budget` characters,
/// unless the protected sections alone are longer.
pub fn fit(sections: &[Section], budget: usize) -> String {
    let rendered: Vec<String> = sections.iter().map(|s| s.render(&s.body)).collect();
    let total: usize = rendered.iter().map(|r| chars(r)).sum::<usize>()
        + SEPARATOR.len() * sections.len().saturating_sub(1);
    if total <= budget {
        return rendered.join(SEPARATOR);
    }

    let mut kept: Vec<Option<String>> = vec![None; sections.len()];
    let mut left = budget.saturating_sub(NOTE_RESERVE);
    for (i, s) in sections.iter().enumerate() {
        if s.protected {
            kept[i] = Some(rendered[i].clone());
            left = left.saturating_sub(chars(&rendered[i]) + SEPARATOR.len());
        }
    }
    // Most important first; among equals, earlier first.
    let mut order: Vec<usize> = (0..sections.len())
        .filter(|&i| !sections[i].protected)
        .collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sections[i].priority));
    let mut omitted = Vec::new();
    for i in order {
        let s = &sections[i];
        let need = chars(&rendered[i]) + SEPARATOR.len();
        if need <= left {
            kept[i] = Some(rendered[i].clone());
            left -= need;
            continue;
        }
        let marker = cut_marker(s, chars(&s.body));
        let room = left.saturating_sub(chars(&s.title) + 4 + SEPARATOR.len() + chars(&marker) + 1);
        if room >= MIN_USEFUL {
            let head = cut_at_line(&s.body, room);
            let cut = chars(&s.body) - chars(head);
            let text = s.render(&format!("{}\n{}", head.trim_end(), cut_marker(s, cut)));
            left = left.saturating_sub(chars(&text) + SEPARATOR.len());
            kept[i] = Some(text);
        } else {
            omitted.push(describe(s));
        }
    }
    let mut parts: Vec<String> = kept.into_iter().flatten().collect();
    if !omitted.is_empty() {
        parts.push(format!(
            "[baton: left out to stay within the context budget: {}]",
            omitted.join("; ")
        ));
    }
    parts.join(SEPARATOR)
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
}
