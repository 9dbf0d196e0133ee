//! A recall query: what the user typed, read as words (each matching its other forms as a
//! prefix: `migrat`, `migration` → `migrate`, `migrations`), "quoted phrases" (the words in
//! that order), and words joined by punctuation (`src/main.rs`, `user_correction`) read as
//! phrases. Question words are dropped ("what did we …"); words that name a kind ("decide")
//! favour that kind instead of being searched for. Regex syntax means nothing here: `.*`
//! is punctuation.
//!
//! Bad queries are usage errors that say what to do: empty, longer than `MAX_CHARS`, more
//! than `MAX_WORDS` words, or no letters or digits at all.

use super::words::{asks_recent, is_stop, kind_hint, stem, words};
use crate::core::error::{Error, Result};
use crate::core::recall::Kind;
use regex::Regex;

/// The longest query, in characters.
pub(crate) const MAX_CHARS: usize = 500;
/// The most words searched for.
pub(crate) const MAX_WORDS: usize = 16;
/// How much a prefix match counts against a whole-word match.
const PREFIX_WEIGHT: f32 = 0.75;
/// The shortest word that also matches as a prefix.
const PREFIX_MIN: usize = 3;

/// One word searched for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Term {
    /// The word, lower-cased.
    pub(crate) word: String,
    /// The prefix its other forms share, when it matches as a prefix.
    pub(crate) prefix: Option<String>,
}

impl Term {
    /// `word` (lower-cased); `explicit` when the user wrote `word*`.
    fn new(word: &str, explicit: bool) -> Term {
        let prefix = if explicit {
            Some(word.to_string())
        } else {
            let s = stem(word);
            (s.chars().count() >= PREFIX_MIN).then(|| s.to_string())
        };
        Term {
            word: word.to_string(),
            prefix,
        }
    }

    /// How well `token` (lower-cased) matches: 1 for the word itself, less for a form that
    /// shares its prefix, 0 for no match.
    pub(crate) fn weight(&self, token: &str) -> f32 {
        if token == self.word {
            1.0
        } else if self
            .prefix
            .as_ref()
            .is_some_and(|p| token.starts_with(p.as_str()))
        {
            PREFIX_WEIGHT
        } else {
            0.0
        }
    }

    /// What the prefilter looks for: the prefix anywhere, or the short word on its own (a
    /// letter or two would otherwise make every line a candidate).
    fn needle(&self) -> String {
        match &self.prefix {
            Some(p) => regex::escape(p),
            None => format!(
                r"(?:^|[^\p{{L}}\p{{N}}\n]){}(?:$|[^\p{{L}}\p{{N}}\n])",
                regex::escape(&self.word)
            ),
        }
    }

    /// How long the prefilter's literal is (the longest is the rarest, as a rule).
    fn literal_len(&self) -> usize {
        self.prefix.as_ref().unwrap_or(&self.word).len()
    }
}

/// A parsed query.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Query {
    /// The query as given, on one line.
    pub(crate) text: String,
    /// Words, any of which may match.
    pub(crate) terms: Vec<Term>,
    /// Phrases, each of which must match.
    pub(crate) phrases: Vec<Vec<Term>>,
    /// Kinds the question points at.
    pub(crate) hints: Vec<Kind>,
    /// Whether the question asks for the newest answer.
    pub(crate) recent: bool,
}

impl Query {
    /// Reads `raw`; the error says what is wrong with it.
    pub(crate) fn parse(raw: &str) -> Result<Query> {
        let len = raw.chars().count();
        if len > MAX_CHARS {
            return Err(Error::Usage(format!(
                "the query is {len} characters long; the most is {MAX_CHARS}: search for a few distinctive words"
            )));
        }
        if raw.trim().is_empty() {
            return Err(Error::Usage(
                "the query is empty: give the words to look for, e.g. `baton recall cache eviction`".into(),
            ));
        }
        let mut q = Query {
            text: crate::core::text::one_line(raw),
            terms: Vec::new(),
            phrases: Vec::new(),
            hints: Vec::new(),
            recent: false,
        };
        let mut dropped: Vec<String> = Vec::new();
        let mut hinted: Vec<String> = Vec::new();
        for (quoted, chunk) in chunks(raw) {
            let explicit = !quoted && chunk.ends_with('*');
            let ws = words(chunk);
            match ws.len() {
                0 => {}
                1 if quoted => q.add_term(Term::new(&ws[0], false)),
                1 => q.add_word(&ws[0], explicit, &mut dropped, &mut hinted),
                _ if quoted || joined(chunk) => {
                    q.phrases
                        .push(ws.iter().map(|w| Term::new(w, false)).collect());
                }
                _ => {
                    for w in &ws {
                        q.add_word(w, false, &mut dropped, &mut hinted);
                    }
                }
            }
        }
        if q.terms.is_empty() && q.phrases.is_empty() {
            // A question of stop words or kind words only: search for those after all.
            for w in hinted.iter().chain(&dropped) {
                q.add_term(Term::new(w, false));
            }
        }
        if q.terms.is_empty() && q.phrases.is_empty() {
            return Err(Error::Usage(format!(
                "no words to search for in {:?}: use letters or digits (regex syntax is not supported; characters like .* are ignored)",
                crate::core::text::clip(&q.text, 80)
            )));
        }
        let n = q.terms.len() + q.phrases.iter().map(Vec::len).sum::<usize>();
        if n > MAX_WORDS {
            return Err(Error::Usage(format!(
                "the query has {n} words to search for; the most is {MAX_WORDS}: keep the distinctive ones"
            )));
        }
        Ok(q)
    }

    fn add_word(
        &mut self,
        w: &str,
        explicit: bool,
        dropped: &mut Vec<String>,
        hinted: &mut Vec<String>,
    ) {
        if asks_recent(w) {
            self.recent = true;
        }
        if let Some(k) = kind_hint(w) {
            if !self.hints.contains(&k) {
                self.hints.push(k);
            }
            hinted.push(w.to_string());
        } else if is_stop(w) && !explicit {
            dropped.push(w.to_string());
        } else {
            self.add_term(Term::new(w, explicit));
        }
    }

    fn add_term(&mut self, t: Term) {
        if !self.terms.iter().any(|x| x.word == t.word) {
            self.terms.push(t);
        }
    }

    /// How many parts score on their own: each word and each phrase.
    pub(crate) fn units(&self) -> usize {
        self.terms.len() + self.phrases.len()
    }

    /// A case-insensitive match of any word's prefix (for a phrase, its longest word): a
    /// document without one cannot match.
    pub(crate) fn prefilter(&self) -> Result<Regex> {
        let mut needles: Vec<String> = self.terms.iter().map(Term::needle).collect();
        for p in &self.phrases {
            if let Some(longest) = p.iter().max_by_key(|t| t.literal_len()) {
                needles.push(longest.needle());
            }
        }
        Regex::new(&format!("(?im){}", needles.join("|")))
            .map_err(|e| Error::Internal(format!("recall prefilter: {e}")))
    }

    /// Whether `token` (lower-cased) matches any word or phrase word.
    pub(crate) fn matches(&self, token: &str) -> bool {
        self.terms
            .iter()
            .chain(self.phrases.iter().flatten())
            .any(|t| t.weight(token) > 0.0)
    }
}

/// Whether `chunk`'s words are joined the way a path, an identifier, an id or a date joins
/// them (one of `. _ - / : '` between each two, and nothing else): then they are a phrase
/// (`src/main.rs`, `user_correction`, `WL-012`). Other punctuation (`cache.*(lru|lfu)`) only
/// separates words.
fn joined(chunk: &str) -> bool {
    let mut gap = 0;
    for c in chunk.trim_end_matches('*').chars() {
        if c.is_alphanumeric() {
            gap = 0;
        } else if "._-/:'".contains(c) && gap == 0 {
            gap = 1;
        } else {
            return false;
        }
    }
    true
}

/// `raw` cut into whitespace-separated chunks and "quoted" parts (`true`); an unclosed quote
/// runs to the end.
fn chunks(raw: &str) -> Vec<(bool, &str)> {
    let mut out = Vec::new();
    for (i, part) in raw.split('"').enumerate() {
        if i % 2 == 1 {
            out.push((true, part));
        } else {
            out.extend(part.split_whitespace().map(|c| (false, c)));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words_of(q: &Query) -> Vec<&str> {
        q.terms.iter().map(|t| t.word.as_str()).collect()
    }

    #[test]
    fn questions_become_words_and_kind_hints() {
        let q = Query::parse("What did we decide about the cache eviction?").unwrap();
        assert_eq!(words_of(&q), vec!["cache", "eviction"]);
        assert_eq!(q.hints, vec![Kind::Decision]);
        let q = Query::parse("when did the migration test last fail").unwrap();
        assert_eq!(words_of(&q), vec!["migration", "test", "fail"]);
        assert!(q.recent);
    }

    #[test]
    fn phrases_and_joined_words_must_match_in_order() {
        let q = Query::parse("\"retry queue\" src/main.rs migrat*").unwrap();
        assert_eq!(q.phrases.len(), 2);
        assert_eq!(q.phrases[0][1].word, "queue");
        assert_eq!(q.phrases[1].len(), 3);
        assert_eq!(q.terms[0].prefix.as_deref(), Some("migrat"));
        // An unclosed quote runs to the end.
        assert_eq!(Query::parse("\"open phrase here").unwrap().phrases.len(), 1);
    }

    #[test]
    fn only_path_like_punctuation_joins_words_into_a_phrase() {
        for (q, phrases, terms) in [
            ("src/main.rs", 1, 0),
            ("WL-012", 1, 0),
            ("don't", 1, 0),
            ("cache.*(eviction|lru)+", 0, 3),
            ("a--b", 0, 1),
        ] {
            let parsed = Query::parse(q).unwrap();
            assert_eq!(
                (parsed.phrases.len(), parsed.terms.len()),
                (phrases, terms),
                "{q}"
            );
        }
    }

    #[test]
    #[allow(clippy::float_cmp)] // the weights are constants, returned as they are
    fn prefixes_and_weights() {
        let t = Term::new("failures", false);
        assert_eq!(t.weight("failures"), 1.0);
        assert_eq!(t.weight("failed"), PREFIX_WEIGHT);
        assert_eq!(t.weight("fix"), 0.0);
        let t = Term::new("go", false);
        assert_eq!(t.weight("gone"), 0.0);
    }

    #[test]
    fn bad_queries_are_clear_errors() {
        let err = |q: &str| Query::parse(q).unwrap_err().to_string();
        assert!(err("").contains("the query is empty"));
        assert!(err("   \n").contains("the query is empty"));
        assert!(err(&"x".repeat(501)).contains("501 characters"));
        assert!(err(".* [^$]+ (|) \\ ?").contains("no words to search for"));
        let many = (0..20)
            .map(|i| format!("word{i}"))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(err(&many).contains("20 words"));
        assert_eq!(Query::parse("").unwrap_err().exit_code(), 2);
    }

    #[test]
    fn regex_metacharacters_are_literal_in_the_prefilter() {
        let q = Query::parse("cache[ (retry|x)* \\d+ ^$").unwrap();
        let re = q.prefilter().unwrap();
        assert!(re.is_match("the CACHE"));
        assert!(!re.is_match("zzz (|)* $^"));
        // A one-letter word matches only on its own.
        assert!(re.is_match("x\nd\ny"));
        assert!(!re.is_match("added"));
    }

    #[test]
    fn only_stop_words_are_searched_after_all() {
        let q = Query::parse("what").unwrap();
        assert_eq!(words_of(&q), vec!["what"]);
        let q = Query::parse("decisions").unwrap();
        assert_eq!(words_of(&q), vec!["decisions"]);
        assert_eq!(q.hints, vec![Kind::Decision]);
    }
}
