//! Terms: what a word of a question or of a record is compared by. One pipeline for both
//! sides, so whatever form a word takes in either, the two meet:
//!
//! * words are runs of letters and digits (Unicode-aware), lower-cased; a camelCase word is
//!   also read as its parts (`retryQueue` → `retry`, `queue`);
//! * words joined by single hyphens or slashes (`end-to-end`, `read-only`, `sign-in`) also
//!   give one joined term (`endtoend`), which is what their abbreviation or closed spelling
//!   (`e2e`, `readonly`, `signin`) gives too;
//! * common abbreviations of software words are written out (`db` → database, `auth` →
//!   authentication, `config` → configuration, `e2e` → end-to-end; `ABBREVIATIONS`), and
//!   British spellings take the American form (`authorised` → authorized);
//! * every word is then stemmed by the Snowball English stemmer (`logging` → log,
//!   `migrations` → migrat, `users` → user).
//!
//! Snowball comes from rust-stemmers (the stemmer tantivy uses): a hand-rolled list of
//! suffixes missed irregular forms and over-cut short words.

use super::words::each_word;
use rust_stemmers::{Algorithm, Stemmer};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::OnceLock;

/// Abbreviations and other short forms of software words, and the word they stand for.
/// Both sides of a search write them out, so `db` finds "database" and the other way round.
/// A compound is written with hyphens: its joined form is the term (`end-to-end` → endtoend).
pub(crate) const ABBREVIATIONS: &[(&str, &str)] = &[
    ("a11y", "accessibility"),
    ("args", "arguments"),
    ("arg", "argument"),
    ("async", "asynchronous"),
    ("auth", "authentication"),
    ("authn", "authentication"),
    ("authz", "authorization"),
    ("cfg", "configuration"),
    ("conf", "configuration"),
    ("config", "configuration"),
    ("configs", "configurations"),
    ("creds", "credentials"),
    ("db", "database"),
    ("dbs", "databases"),
    ("dep", "dependency"),
    ("deps", "dependencies"),
    ("dev", "development"),
    ("dir", "directory"),
    ("dirs", "directories"),
    ("doc", "documentation"),
    ("docs", "documentation"),
    ("e2e", "end-to-end"),
    ("env", "environment"),
    ("envs", "environments"),
    ("err", "error"),
    ("errs", "errors"),
    ("fn", "function"),
    ("func", "function"),
    ("i18n", "internationalization"),
    ("impl", "implementation"),
    ("init", "initialization"),
    ("k8s", "kubernetes"),
    ("l10n", "localization"),
    ("lib", "library"),
    ("libs", "libraries"),
    ("msg", "message"),
    ("msgs", "messages"),
    ("oom", "out-of-memory"),
    ("param", "parameter"),
    ("params", "parameters"),
    ("perf", "performance"),
    ("perms", "permissions"),
    ("pkg", "package"),
    ("pkgs", "packages"),
    ("pr", "pull-request"),
    ("prs", "pull-requests"),
    ("prod", "production"),
    ("repo", "repository"),
    ("repos", "repositories"),
    ("req", "request"),
    ("reqs", "requests"),
    ("resp", "response"),
    ("spec", "specification"),
    ("specs", "specifications"),
    ("tmp", "temporary"),
    ("temp", "temporary"),
    ("ws", "websocket"),
];

/// British spellings that the suffix rule below does not cover.
const SPELLINGS: &[(&str, &str)] = &[
    ("behaviour", "behavior"),
    ("behaviours", "behaviors"),
    ("cancelled", "canceled"),
    ("cancelling", "canceling"),
    ("catalogue", "catalog"),
    ("colour", "color"),
    ("favour", "favor"),
    ("labelled", "labeled"),
    ("licence", "license"),
    ("modelled", "modeled"),
    ("modelling", "modeling"),
    ("signalled", "signaled"),
];

/// British `-ise` endings and their American `-ize` (`authorised` → authorized).
const ISE: &[(&str, &str)] = &[
    ("isation", "ization"),
    ("isations", "izations"),
    ("ising", "izing"),
    ("ised", "ized"),
    ("iser", "izer"),
    ("isers", "izers"),
    ("ises", "izes"),
    ("ise", "ize"),
];

/// Words that end in `-ise` and are no British spelling.
const NOT_ISE: &[&str] = &[
    "advertise",
    "advise",
    "comprise",
    "compromise",
    "concise",
    "devise",
    "enterprise",
    "exercise",
    "expertise",
    "franchise",
    "merchandise",
    "noise",
    "otherwise",
    "precise",
    "premise",
    "promise",
    "raise",
    "revise",
    "rise",
    "supervise",
    "surprise",
    "televise",
    "wise",
];

fn stemmer() -> &'static Stemmer {
    static S: OnceLock<Stemmer> = OnceLock::new();
    S.get_or_init(|| Stemmer::create(Algorithm::English))
}

fn abbreviation(word: &str) -> Option<&'static str> {
    static MAP: OnceLock<HashMap<&'static str, &'static str>> = OnceLock::new();
    MAP.get_or_init(|| ABBREVIATIONS.iter().copied().collect())
        .get(word)
        .copied()
}

/// `word` (lower-cased) in its American spelling.
fn american(word: &str) -> Cow<'_, str> {
    if let Some((_, us)) = SPELLINGS.iter().find(|(uk, _)| *uk == word) {
        return Cow::Borrowed(us);
    }
    for (uk, us) in ISE {
        if let Some(root) = word.strip_suffix(uk) {
            let base = format!("{root}ise");
            let not = NOT_ISE.contains(&base.as_str())
                || base.ends_with("wise")
                || base.ends_with("cise");
            if root.chars().count() >= 3 && !not {
                return Cow::Owned(format!("{root}{us}"));
            }
        }
    }
    Cow::Borrowed(word)
}

/// The term of one word (lower-cased): written out, in American spelling, stemmed. Words
/// with digits stay as they are (`v2`, `0042`), but for the abbreviations that have them.
pub(crate) fn term(word: &str) -> String {
    thread_local! {
        static CACHE: RefCell<HashMap<String, String>> = RefCell::new(HashMap::new());
    }
    CACHE.with(|c| {
        if let Some(t) = c.borrow().get(word) {
            return t.clone();
        }
        let t = compute(word);
        let mut c = c.borrow_mut();
        if c.len() > 200_000 {
            c.clear();
        }
        c.insert(word.to_string(), t.clone());
        t
    })
}

fn compute(word: &str) -> String {
    if let Some(full) = abbreviation(word) {
        return joined_term(full);
    }
    if word.chars().any(|c| c.is_ascii_digit()) {
        return word.to_string();
    }
    let us = american(word);
    stemmer().stem(&us).into_owned()
}

/// The term of a hyphenated compound (`end-to-end` → `endtoend`), or of a plain word.
fn joined_term(full: &str) -> String {
    compute(&full.replace('-', ""))
}

/// Calls `f(start, end, term, joined)` for every term of `text`, in order: each word's term,
/// the parts of a camelCase word, and after a run of words joined by single `-` or `/`, the
/// joined term (`joined` is true for those extras, which a phrase does not count as words).
pub(crate) fn each_term(text: &str, mut f: impl FnMut(usize, usize, &str, bool)) {
    let mut run: Option<(usize, usize, String, usize)> = None; // start, end, joined, parts
    each_word(text, |s, e, w| {
        let glued = run
            .as_ref()
            .is_some_and(|(_, end, _, _)| matches!(&text[*end..s], "-" | "/"));
        if !glued {
            flush(&mut run, &mut f);
        }
        f(s, e, &term(w), false);
        camel_parts(&text[s..e], s, &mut f);
        match &mut run {
            Some((_, end, joined, parts)) if glued => {
                *end = e;
                joined.push_str(w);
                *parts += 1;
            }
            _ => run = Some((s, e, w.to_string(), 1)),
        }
    });
    flush(&mut run, &mut f);
}

fn flush(
    run: &mut Option<(usize, usize, String, usize)>,
    f: &mut impl FnMut(usize, usize, &str, bool),
) {
    if let Some((s, e, joined, parts)) = run.take() {
        if parts > 1 {
            f(s, e, &term(&joined), true);
        }
    }
}

/// The parts of a camelCase or PascalCase word (`retryQueue`), as extra terms.
fn camel_parts(word: &str, at: usize, f: &mut impl FnMut(usize, usize, &str, bool)) {
    let bounds: Vec<usize> = word
        .char_indices()
        .zip(word.chars().skip(1))
        .filter(|((_, a), b)| a.is_lowercase() && b.is_uppercase())
        .map(|((i, a), _)| i + a.len_utf8())
        .collect();
    if bounds.is_empty() {
        return;
    }
    let mut start = 0;
    for b in bounds.into_iter().chain(std::iter::once(word.len())) {
        let part = word[start..b].to_lowercase();
        f(at + start, at + b, &term(&part), true);
        start = b;
    }
}

/// The terms of `text`, in order (joined and camelCase extras included).
pub(crate) fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    each_term(text, |_, _, t, _| out.push(t.to_string()));
    out
}

/// The spellings of `term` as they may stand in a text, for the prefilter: the abbreviations
/// that give it, and a compound's parts with or without their hyphens.
pub(crate) fn spellings(term: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (short, full) in ABBREVIATIONS {
        if joined_term(full) == term {
            out.push((*short).to_string());
            if full.contains('-') {
                out.push((*full).to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms_of_a_word_meet() {
        for (a, b) in [
            ("logging", "log"),
            ("users", "user"),
            ("migrations", "migrate"),
            ("authorised", "authorized"),
            ("db", "database"),
            ("config", "configuration"),
            ("auth", "authentication"),
            ("behaviour", "behavior"),
            ("retries", "retry"),
        ] {
            assert_eq!(term(a), term(b), "{a} / {b}");
        }
        assert_eq!(term("v2"), "v2");
        assert_ne!(term("promise"), term("promize"));
    }

    #[test]
    fn compounds_are_also_one_term() {
        let t = terms("the end-to-end suite");
        assert!(t.contains(&term("e2e")), "{t:?}");
        assert!(t.contains(&"end".to_string()));
        assert_eq!(terms("read-only"), vec!["read", "onli", "readon"]);
        assert_eq!(term("readonly"), "readon");
        let t = terms("retryQueue");
        assert_eq!(t, vec!["retryqueu", "retri", "queue"]);
    }

    #[test]
    fn spans_point_into_the_text() {
        let mut got = Vec::new();
        each_term("Fix sign-in", |s, e, t, j| {
            got.push((s, e, t.to_string(), j));
        });
        assert_eq!(got[0], (0, 3, "fix".into(), false));
        assert_eq!(got.last().unwrap(), &(4, 11, "signin".into(), true));
    }

    #[test]
    fn abbreviations_give_their_spellings() {
        assert!(spellings(&term("database")).contains(&"db".to_string()));
        assert!(spellings("endtoend").contains(&"e2e".to_string()));
        assert!(spellings("endtoend").contains(&"end-to-end".to_string()));
    }
}
