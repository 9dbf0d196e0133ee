//! Words as recall sees them: runs of letters and digits, lower-cased (`src/main.rs` is
//! `src`, `main`, `rs`), and the stop words a question is made of ("what did we decide about
//! the …"). terms.rs makes terms of them; intent.rs reads what a question asks for.

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
}
