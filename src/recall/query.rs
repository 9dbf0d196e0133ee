//! A recall query: what the user typed, read the way a developer means it. Its words go
//! through the same pipeline as the records' (terms.rs: abbreviations written out, British
//! spellings made American, Snowball stems, hyphenated compounds joined), so `logging` finds
//! "log", `e2e` finds "end-to-end" and `authorised` finds "authorize". Each word also finds
//! the other words of its thesaurus groups (thesaurus.rs) and its neighbours in a table
//! derived from a sentence model (neighbours.rs), at lower weights (and lower still for a
//! common word, by its rarity in the index: `weigh_alternatives`). What the question
//! asks for beyond its words — corrections, decisions, failures, open work, the newest —
//! is its intent (intent.rs); those words and the question's filler are not searched for.
//! "quoted phrases" must match in order, and so must words joined by `. _ / :` (a path
//! `src/main.rs`, an identifier `user_correction`); words joined by `-` (`end-to-end`,
//! `read-only`, `WL-012`) are one compound term (its parts count too, less); a contraction's
//! pieces (`don't`, `what's`) are filler. `word*` asks for a prefix. Regex syntax means
//! nothing here: `.*` is punctuation.
//!
//! Bad queries are usage errors that say what to do: empty, longer than `MAX_CHARS`, more
//! than `MAX_WORDS` words, or no letters or digits at all.

use super::intent::{self, Intent, Role};
use super::neighbours::neighbours;
use super::terms::{spellings, term};
use super::thesaurus::{synonyms, SYNONYM_WEIGHT};
use super::words::{is_stop, words};
use crate::core::error::{Error, Result};
use crate::core::recall::Kind;
use regex::Regex;

/// The longest query, in characters.
pub(crate) const MAX_CHARS: usize = 500;
/// The most words searched for.
pub(crate) const MAX_WORDS: usize = 16;
/// How much a form that only shares a stem's beginning counts (`failur` / `fail`).
const NEAR_WEIGHT: f32 = 0.6;
/// How much a part of a hyphenated compound counts in the question.
const PART_WEIGHT: f32 = 0.5;
/// How much an explicit prefix match (`migrat*`) counts.
const PREFIX_WEIGHT: f32 = 0.75;
/// The shortest stem that matches its longer or shorter forms by their beginning.
const NEAR_MIN: usize = 4;
/// The most characters two such forms differ by.
const NEAR_SPAN: usize = 3;

/// One word searched for.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Term {
    /// The word as typed, lower-cased.
    pub(crate) word: String,
    /// Its term (terms.rs).
    pub(crate) norm: String,
    /// How much it counts in the question (a failure word counts less).
    pub(crate) weight: f32,
    /// Other terms that count as a match, with their weight (synonyms, expansion).
    pub(crate) alts: Vec<(String, f32)>,
    /// The prefix the user asked for with `word*`.
    pub(crate) prefix: Option<String>,
}

impl Term {
    /// The term of `word` (lower-cased); `explicit` when the user wrote `word*`.
    pub(crate) fn new(word: &str, explicit: bool) -> Term {
        let t = term(word);
        let mut alts: Vec<(String, f32)> = synonyms(&t)
            .iter()
            .map(|s| (s.clone(), SYNONYM_WEIGHT))
            .collect();
        for (n, w) in neighbours(word, &t) {
            if !alts.iter().any(|(a, _)| *a == n) {
                alts.push((n, w));
            }
        }
        Term {
            word: word.to_string(),
            norm: t,
            weight: 1.0,
            alts,
            prefix: explicit.then(|| word.to_string()),
        }
    }

    /// How well the record's term `token` matches: 1 for the term itself, less for a near
    /// form, a synonym or the asked prefix, 0 for no match.
    pub(crate) fn weight(&self, token: &str) -> f32 {
        if token == self.norm {
            return 1.0;
        }
        let mut best = 0.0f32;
        if near(token, &self.norm) {
            best = NEAR_WEIGHT;
        }
        if let Some(p) = &self.prefix {
            if token.starts_with(p.as_str()) {
                best = best.max(PREFIX_WEIGHT);
            }
        }
        for (alt, w) in &self.alts {
            if token == alt {
                best = best.max(*w);
            }
        }
        best
    }

    /// What the index looks up for this word: terms to find as they are (the word's, its
    /// synonyms', the shorter forms it is near), and beginnings of terms that may be its
    /// longer near forms or the prefix asked for; the caller checks each with `weight`.
    pub(crate) fn lookups(&self) -> (Vec<String>, Vec<String>) {
        let mut exact = vec![self.norm.clone()];
        exact.extend(self.alts.iter().map(|(a, _)| a.clone()));
        let n = self.norm.len();
        for k in NEAR_MIN.max(n.saturating_sub(NEAR_SPAN))..n {
            if self.norm.is_char_boundary(k) {
                exact.push(self.norm[..k].to_string());
            }
        }
        let mut prefixes = Vec::new();
        if n >= NEAR_MIN {
            prefixes.push(self.norm.clone());
        }
        prefixes.extend(self.prefix.clone());
        (exact, prefixes)
    }

    /// What the prefilter looks for in a record's raw text: the beginning of each form (a
    /// short one on its own), and the abbreviations and compounds that give it.
    fn needles(&self) -> Vec<String> {
        let mut out = Vec::new();
        let add = |out: &mut Vec<String>, t: &str| {
            out.push(needle(t));
            out.extend(spellings(t).iter().map(|s| whole(s)));
        };
        add(&mut out, &self.norm);
        if self.word != self.norm && self.word.chars().all(char::is_alphanumeric) {
            out.push(needle(&self.word));
        }
        for (alt, _) in &self.alts {
            add(&mut out, alt);
        }
        if let Some(p) = &self.prefix {
            out.push(regex::escape(p));
        }
        out
    }
}

/// Whether two stems are forms of one word by their beginning (`failur` / `fail`).
fn near(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    short.len() >= NEAR_MIN && long.len() - short.len() <= NEAR_SPAN && long.starts_with(short)
}

/// The prefilter's pattern for a term: its beginning (what a near form shares), or the word
/// on its own when short (a letter or two would make every line a candidate).
fn needle(t: &str) -> String {
    // A stem's `i` stands for a `y` (`retri`): the text has the word without it.
    let trimmed = t.trim_end_matches(['i', 'e']);
    let t = if trimmed.chars().count() >= NEAR_MIN {
        trimmed
    } else {
        t
    };
    let n = t.chars().count();
    if n < NEAR_MIN {
        return whole(t);
    }
    let keep = n.saturating_sub(NEAR_SPAN).max(NEAR_MIN);
    regex::escape(&t.chars().take(keep).collect::<String>())
}

/// `s` as a word on its own; a compound's hyphens may be left out or be spaces.
fn whole(s: &str) -> String {
    let body = s
        .split('-')
        .map(regex::escape)
        .collect::<Vec<_>>()
        .join("[-_ ]?");
    format!(r"(?:^|[^\p{{L}}\p{{N}}\n]){body}(?:$|[^\p{{L}}\p{{N}}\n])")
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
    /// What the question asks for beyond its words.
    pub(crate) intent: Intent,
    /// Kinds the question points at (the intent's).
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
        let all: Vec<String> = chunks(raw)
            .iter()
            .filter(|(quoted, c)| !quoted && !joined(c))
            .flat_map(|(_, c)| words(c))
            .collect();
        let (intent, roles) = intent::read(&all);
        let mut q = Query {
            text: crate::core::text::one_line(raw),
            terms: Vec::new(),
            phrases: Vec::new(),
            hints: intent.kinds.clone(),
            recent: intent.recent,
            intent,
        };
        let mut set_aside: Vec<String> = Vec::new();
        let mut at = 0;
        for (quoted, chunk) in chunks(raw) {
            let ws = words(chunk);
            if quoted || joined(chunk) {
                q.add_joined(chunk, &ws, quoted);
                continue;
            }
            for w in &ws {
                let role = roles.get(at).copied().unwrap_or(Role::Search(1.0));
                at += 1;
                let explicit = chunk.ends_with('*') && ws.len() == 1;
                match role {
                    Role::Search(weight) => {
                        let mut t = Term::new(w, explicit);
                        t.weight = weight;
                        q.add_term(t);
                    }
                    Role::Means(word) => q.add_term(Term::new(word, false)),
                    _ if explicit => q.add_term(Term::new(w, true)),
                    _ => set_aside.push(w.clone()),
                }
            }
        }
        if q.terms.is_empty() && q.phrases.is_empty() {
            // A question of stop words or kind words only: search for those after all.
            for w in &set_aside {
                q.add_term(Term::new(w, false));
            }
        }
        q.check()?;
        Ok(q)
    }

    /// A quoted phrase, or words joined by punctuation: a compound term when joined by
    /// hyphens only, a phrase otherwise.
    fn add_joined(&mut self, chunk: &str, ws: &[String], quoted: bool) {
        match ws.len() {
            0 => {}
            1 => self.add_term(Term::new(&ws[0], !quoted && chunk.ends_with('*'))),
            _ if !quoted && hyphenated(chunk) => {
                let mut t = Term::new(&ws.concat(), false);
                t.word = ws.join("-");
                self.add_term(t);
                // Its parts count too, less: a text may write them apart ("in process").
                for w in ws.iter().filter(|w| !is_stop(w) && w.chars().count() > 2) {
                    let mut part = Term::new(w, false);
                    part.weight = PART_WEIGHT;
                    self.add_term(part);
                }
            }
            _ => self
                .phrases
                .push(ws.iter().map(|w| Term::new(w, false)).collect()),
        }
    }

    fn check(&self) -> Result<()> {
        if self.terms.is_empty() && self.phrases.is_empty() {
            return Err(Error::Usage(format!(
                "no words to search for in {:?}: use letters or digits (regex syntax is not supported; characters like .* are ignored)",
                crate::core::text::clip(&self.text, 80)
            )));
        }
        let n = self.terms.len() + self.phrases.iter().map(Vec::len).sum::<usize>();
        if n > MAX_WORDS {
            return Err(Error::Usage(format!(
                "the query has {n} words to search for; the most is {MAX_WORDS}: keep the distinctive ones"
            )));
        }
        Ok(())
    }

    /// Each word's alternatives (synonyms, neighbours) weighed by how rare they are
    /// (`rarity`: 1 for the rarest, towards 0 for a term every record has). A word's own
    /// term keeps its weight; a common word reached by expansion (`sluggish` → performance)
    /// no longer counts as much as a rare one (`sluggish` → latency).
    pub(crate) fn weigh_alternatives(&mut self, rarity: impl Fn(&str) -> f32) {
        for t in &mut self.terms {
            for (alt, w) in &mut t.alts {
                *w *= rarity(alt).clamp(0.0, 1.0);
            }
        }
    }

    /// Adds `t` unless the query has its term already.
    pub(crate) fn add_term(&mut self, t: Term) {
        if !self.terms.iter().any(|x| x.norm == t.norm) {
            self.terms.push(t);
        }
    }

    /// How many parts score on their own: each word and each phrase.
    pub(crate) fn units(&self) -> usize {
        self.terms.len() + self.phrases.len()
    }

    /// The weight of each part (words, then phrases).
    pub(crate) fn unit_weights(&self) -> Vec<f32> {
        self.terms
            .iter()
            .map(|t| t.weight)
            .chain(self.phrases.iter().map(|_| 1.0))
            .collect()
    }

    /// A case-insensitive match of any form of any word (for a phrase, of its longest
    /// word): a document without one cannot match.
    pub(crate) fn prefilter(&self) -> Result<Regex> {
        let mut needles: Vec<String> = self.terms.iter().flat_map(Term::needles).collect();
        for p in &self.phrases {
            if let Some(longest) = p.iter().max_by_key(|t| t.norm.len()) {
                needles.extend(longest.needles());
            }
        }
        needles.sort();
        needles.dedup();
        Regex::new(&format!("(?im){}", needles.join("|")))
            .map_err(|e| Error::Internal(format!("recall prefilter: {e}")))
    }

    /// Whether the record's term `token` matches any word or phrase word.
    pub(crate) fn matches(&self, token: &str) -> bool {
        self.terms
            .iter()
            .chain(self.phrases.iter().flatten())
            .any(|t| t.weight(token) > 0.0)
    }
}

/// Whether `chunk`'s words are joined the way a path, an identifier, an id or a date joins
/// them (one of `. _ - / :` between each two, and nothing else): then they are one
/// compound or a phrase (`src/main.rs`, `user_correction`, `WL-012`). Other punctuation
/// (`cache.*(lru|lfu)`) only separates words.
fn joined(chunk: &str) -> bool {
    let mut gap = 0;
    let mut words = 0;
    for c in chunk.trim_end_matches(['*', '?', '!', ',', ';']).chars() {
        if c.is_alphanumeric() {
            if gap == 1 || words == 0 {
                words += 1;
            }
            gap = 0;
        } else if "._-/:".contains(c) && gap == 0 && words > 0 {
            gap = 1;
        } else {
            return false;
        }
    }
    words > 1
}

/// Whether a joined chunk's words are joined by hyphens only (`end-to-end`).
fn hyphenated(chunk: &str) -> bool {
    chunk
        .trim_end_matches(['*', '?', '!', ',', ';'])
        .chars()
        .all(|c| c.is_alphanumeric() || c == '-')
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
    use crate::recall::terms::term;

    fn words_of(q: &Query) -> Vec<&str> {
        q.terms.iter().map(|t| t.word.as_str()).collect()
    }

    #[test]
    fn questions_become_words_and_kind_hints() {
        let q = Query::parse("What did we decide about the cache eviction?").unwrap();
        assert_eq!(words_of(&q), vec!["cache", "eviction"]);
        assert_eq!(q.hints, vec![Kind::Decision, Kind::Learning]);
        let q = Query::parse("when did the migration test last fail").unwrap();
        assert_eq!(words_of(&q), vec!["migration", "test", "fail"]);
        assert!(q.recent && q.intent.when && q.intent.failure);
        assert!(q.terms[2].weight < 1.0, "a failure word counts less");
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
            // A compound and its parts (of three letters or more).
            ("WL-012", 0, 2),
            ("end-to-end", 0, 2),
            ("don't", 0, 2),
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
    fn forms_synonyms_and_prefixes_weigh_less() {
        let t = Term::new("failures", false);
        assert_eq!(t.weight(&term("failures")), 1.0);
        assert!(t.weight(&term("failed")) >= NEAR_WEIGHT);
        assert!(near("failur", "fail") && !near("log", "login") && !near("test", "testament"));
        assert_eq!(t.weight(&term("fix")), 0.0);
        let t = Term::new("go", false);
        assert_eq!(t.weight(&term("gone")), 0.0);
        let t = Term::new("toggles", false);
        assert_eq!(t.weight(&term("flag")), SYNONYM_WEIGHT);
        let t = Term::new("migrat", true);
        assert_eq!(t.weight("migrations"), PREFIX_WEIGHT);
    }

    #[test]
    #[allow(clippy::float_cmp)] // the weights are constants times a given rarity
    fn alternatives_count_by_their_rarity_and_the_word_itself_in_full() {
        let mut q = Query::parse("toggles").unwrap();
        let flag = term("flag");
        assert_eq!(q.terms[0].weight(&flag), SYNONYM_WEIGHT);
        q.weigh_alternatives(|t| if t == flag { 0.5 } else { 1.0 });
        assert_eq!(q.terms[0].weight(&flag), SYNONYM_WEIGHT * 0.5);
        assert_eq!(q.terms[0].weight(&term("toggles")), 1.0);
        // A rarity out of range neither raises a weight nor turns it negative.
        q.weigh_alternatives(|_| 7.0);
        assert_eq!(q.terms[0].weight(&flag), SYNONYM_WEIGHT * 0.5);
        q.weigh_alternatives(|_| -1.0);
        assert_eq!(q.terms[0].weight(&flag), 0.0);
    }

    #[test]
    fn abbreviations_and_compounds_reach_the_prefilter() {
        let q = Query::parse("e2e db").unwrap();
        let re = q.prefilter().unwrap();
        assert!(re.is_match("the End-to-End suite"));
        assert!(re.is_match("the database"));
        let q = Query::parse("end-to-end").unwrap();
        assert_eq!(q.terms[0].norm, "endtoend");
        assert!(q.prefilter().unwrap().is_match("run the e2e tests"));
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
        assert_eq!(q.hints, vec![Kind::Decision, Kind::Learning]);
    }
}
