//! Words as recall sees them: runs of letters and digits, lower-cased (`src/main.rs` is
//! `src`, `main`, `rs`), the stop words a question is made of ("what did we decide about
//! the …"), a light stem so `failures` finds `failed` and `migration` finds `migrate`, and the
//! question words that name a kind of document ("decide" → decisions).

use crate::core::recall::Kind;

/// Calls `f(start, end, word)` for every word of `text`: byte offsets into `text` and the
/// word lower-cased. One buffer is reused: no allocation per word for ASCII text.
pub(crate) fn each_word(text: &str, mut f: impl FnMut(usize, usize, &str)) {
    let mut buf = String::new();
    let mut start: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_alphanumeric() {
            if start.is_none() {
                start = Some(i);
            }
        } else if let Some(s) = start.take() {
            emit(text, s, i, &mut buf, &mut f);
        }
    }
    if let Some(s) = start {
        emit(text, s, text.len(), &mut buf, &mut f);
    }
}

fn emit(text: &str, s: usize, e: usize, buf: &mut String, f: &mut impl FnMut(usize, usize, &str)) {
    let w = &text[s..e];
    buf.clear();
    if w.is_ascii() {
        buf.push_str(w);
        buf.make_ascii_lowercase();
    } else {
        buf.extend(w.chars().flat_map(char::to_lowercase));
    }
    f(s, e, buf);
}

/// The words of `text`, lower-cased.
pub(crate) fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_word(text, |_, _, w| out.push(w.to_string()));
    out
}

/// Words a question is made of that say nothing about what to find.
const STOP: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "before", "being", "but", "by", "can", "could", "did", "do", "does", "doing", "done",
    "during", "each", "ever", "for", "from", "get", "got", "had", "has", "have", "having", "he",
    "her", "here", "him", "his", "how", "i", "if", "in", "into", "is", "it", "its", "just", "last",
    "latest", "let", "me", "most", "my", "no", "not", "now", "of", "on", "once", "one", "or",
    "our", "out", "over", "recent", "recently", "said", "say", "she", "should", "so", "some",
    "than", "that", "the", "their", "them", "then", "there", "these", "they", "this", "those",
    "time", "to", "up", "us", "was", "we", "were", "what", "when", "where", "which", "while",
    "who", "whom", "why", "will", "with", "would", "you", "your",
];

/// Whether `word` (lower-cased) is a stop word.
pub(crate) fn is_stop(word: &str) -> bool {
    STOP.binary_search(&word).is_ok()
}

/// Words that ask for the newest answer ("when did it last fail?").
pub(crate) fn asks_recent(word: &str) -> bool {
    matches!(word, "last" | "latest" | "recent" | "recently" | "newest")
}

/// The kind a question word points at ("what did we decide" → decisions).
pub(crate) fn kind_hint(word: &str) -> Option<Kind> {
    Some(match word {
        "decide" | "decided" | "decides" | "deciding" | "decision" | "decisions" | "chose"
        | "choose" | "chosen" | "agreed" => Kind::Decision,
        "correct" | "corrected" | "corrects" | "correction" | "corrections" => Kind::Correction,
        "convention" | "conventions" | "invariant" | "invariants" => Kind::Convention,
        "learn" | "learned" | "learnt" | "learning" | "learnings" | "lesson" | "lessons"
        | "instinct" | "instincts" => Kind::Learning,
        "asked" | "ask" | "prompt" | "prompted" | "requested" => Kind::Prompt,
        "handoff" | "handoffs" => Kind::Handoff,
        "packet" | "packets" => Kind::Packet,
        _ => return None,
    })
}

/// Endings taken off a query word so that it matches its other forms as a prefix, longest
/// first. What is left keeps at least `STEM_MIN` characters.
const SUFFIXES: &[&str] = &[
    "ations", "ation", "ions", "ings", "ures", "ion", "ing", "ies", "ied", "ure", "ed", "es", "ly",
    "s",
];

/// The shortest stem used as a prefix.
const STEM_MIN: usize = 4;

/// The prefix a query word matches its forms by: `failures` → `fail`, `migration` →
/// `migr`, `retries` → `retr`, `expiry` → `expir` (a final `e` or `y` goes too, so `cache`
/// finds `caching`). Words with digits, and short words, stay as they are.
pub(crate) fn stem(word: &str) -> &str {
    if word.chars().any(|c| c.is_ascii_digit()) {
        return word;
    }
    let long_enough = |rest: &str| rest.chars().count() >= STEM_MIN;
    for suffix in SUFFIXES {
        if let Some(rest) = word.strip_suffix(suffix) {
            if long_enough(rest) {
                return rest;
            }
        }
    }
    match word.strip_suffix(['e', 'y']) {
        Some(rest) if long_enough(rest) => rest,
        _ => word,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercased_runs_of_letters_and_digits() {
        assert_eq!(
            words("src/main.rs: Fix WL-012"),
            vec!["src", "main", "rs", "fix", "wl", "012"]
        );
        assert_eq!(words("Überprüfung ÉCHEC"), vec!["überprüfung", "échec"]);
        let mut spans = Vec::new();
        each_word("ab, cd", |s, e, _| spans.push((s, e)));
        assert_eq!(spans, vec![(0, 2), (4, 6)]);
    }

    #[test]
    fn stop_words_are_sorted_for_the_binary_search() {
        assert!(
            STOP.windows(2).all(|w| w[0] < w[1]),
            "STOP must stay sorted"
        );
        assert!(is_stop("what") && is_stop("the") && !is_stop("cache"));
    }

    #[test]
    fn stems_match_other_forms() {
        assert_eq!(stem("failures"), "fail");
        assert_eq!(stem("failed"), "fail");
        assert_eq!(stem("migration"), "migr");
        assert_eq!(stem("retries"), "retr");
        assert_eq!(stem("caching"), "cach");
        assert_eq!(stem("tests"), "test");
        assert_eq!(stem("uses"), "uses");
        assert_eq!(stem("v2s"), "v2s");
        assert_eq!(stem("cache"), "cach");
        assert_eq!(stem("expiry"), "expir");
        assert_eq!(stem("type"), "type");
        assert_eq!(stem("eviction"), "evict");
    }

    #[test]
    fn question_words_hint_kinds() {
        assert_eq!(kind_hint("decide"), Some(Kind::Decision));
        assert_eq!(kind_hint("corrected"), Some(Kind::Correction));
        assert_eq!(kind_hint("cache"), None);
        assert!(asks_recent("last"));
    }
}
