//! Which of several regexes could match a text, decided without compiling them. Every match
//! of a regex contains certain words (its needles); a text that lacks them cannot match, so
//! the regex is not compiled or run for it. Compiling a regex costs far more than reading a
//! text for a few words (a hook that compiles the integrity rules, a user's redaction
//! patterns or the correction patterns pays milliseconds per process), and most texts match
//! none of them.
//!
//! The needles of a pattern are, for each of its alternatives, a list of clauses; a clause is
//! a list of words, one of which every match of that alternative contains (ASCII letters in
//! any case). A text may match only if, for some alternative, every clause has a word in the
//! text. A pattern with an alternative that needs no word has no needles (`None`): it is
//! always run. `derive` reads them off the pattern's syntax tree (cheap next to compiling);
//! `Finder` looks for the words of many patterns in one Aho-Corasick pass.
//!
//! Case-insensitive matching in Unicode mode folds two characters outside ASCII to ASCII
//! letters (U+212A KELVIN SIGN to `k`, U+017F LONG S to `s`; a test checks there are no
//! others): a text that holds either runs every pattern.

use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use std::collections::BTreeSet;
use std::sync::OnceLock;

/// Per alternative, the clauses all its matches satisfy; a clause is words, lower case.
pub type Needles = Vec<Vec<Vec<String>>>;

/// Words one of which every match contains.
type Clause = BTreeSet<String>;

/// Alternatives, each the clauses all its matches satisfy (an empty list: no clause).
type Dnf = Vec<Vec<Clause>>;

/// Most alternatives a pattern is split into; past it, alternatives are merged (fewer,
/// weaker needles, still true of every match).
const MAX_ALTERNATIVES: usize = 32;

/// What a word that must start the text begins with in `Needles` (a NUL: patterns with a
/// literal NUL get no needles, see `text_of`).
pub const ANCHORED: char = '\0';

/// Characters outside ASCII that case-insensitive matching folds to an ASCII letter.
const FOLDS_TO_ASCII: [char; 2] = ['\u{212A}', '\u{017F}'];

/// How a pattern is compiled, so it is read the same way here.
#[derive(Debug, Clone, Copy, Default)]
pub struct Flags {
    /// `(?i)` for the whole pattern.
    pub case_insensitive: bool,
    /// ASCII classes (`RegexBuilder::unicode(false)`).
    pub ascii: bool,
}

/// The needles of `pattern` compiled with `flags`; `None` when some alternative needs no
/// word, or the pattern does not parse.
pub fn derive(pattern: &str, flags: Flags) -> Option<Needles> {
    let hir = regex_syntax::ParserBuilder::new()
        .case_insensitive(flags.case_insensitive)
        .unicode(!flags.ascii)
        .build()
        .parse(pattern)
        .ok()?;
    let alts: BTreeSet<BTreeSet<Clause>> = dnf(&hir, false)
        .into_iter()
        .map(|a| a.into_iter().collect())
        .collect();
    if alts.iter().any(BTreeSet::is_empty) {
        return None;
    }
    // An alternative whose clauses include all of another's adds nothing to the "or".
    let kept = alts
        .iter()
        .filter(|a| !alts.iter().any(|b| b != *a && b.is_subset(a)))
        .map(|a| a.iter().map(|c| c.iter().cloned().collect()).collect())
        .collect();
    Some(kept)
}

/// Whether `pattern` is a valid regex (its syntax; compiling it can still hit the size
/// limit, which `baton doctor` checks). Cheap: the config check runs on every hook.
pub fn parses(pattern: &str) -> Result<(), String> {
    regex_syntax::Parser::new()
        .parse(pattern)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// The alternatives of `h` with their clauses; with `at_start`, `h` matches at the start of
/// the text, so the word it starts with is marked as such (`ANCHORED`).
fn dnf(h: &Hir, at_start: bool) -> Dnf {
    match h.kind() {
        HirKind::Concat(items) => concat(items, at_start),
        HirKind::Alternation(alts) => {
            let parts: Vec<Dnf> = alts.iter().map(|a| dnf(a, at_start)).collect();
            // Alternatives that are one word each stay one clause.
            let words: Option<Clause> = parts
                .iter()
                .map(|p| match &p[..] {
                    [one] if one.len() == 1 => Some(one[0].clone()),
                    _ => None,
                })
                .collect::<Option<Vec<_>>>()
                .map(|cs| cs.into_iter().flatten().collect());
            match words {
                Some(union) => vec![vec![union]],
                None => parts.into_iter().flatten().collect(),
            }
        }
        HirKind::Repetition(r) if r.min >= 1 => dnf(&r.sub, at_start),
        HirKind::Capture(c) => dnf(&c.sub, at_start),
        _ => vec![text_of(h)
            .map(|w| vec![Clause::from([anchor(w, at_start)])])
            .unwrap_or_default()],
    }
}

/// A concatenation: fixed texts next to each other are one word; the parts' alternatives are
/// combined ("and"). What follows the start of the text (`^` without multi-line mode) is at
/// the start.
fn concat(items: &[Hir], mut at_start: bool) -> Dnf {
    let mut out: Dnf = vec![Vec::new()];
    let mut word = String::new();
    let mut word_at_start = false;
    for item in items {
        if matches!(item.kind(), HirKind::Look(Look::Start))
            && out == [Vec::<Clause>::new()]
            && word.is_empty()
        {
            at_start = true;
            continue;
        }
        if let Some(s) = text_of(item) {
            if word.is_empty() {
                word_at_start = at_start;
            }
            word.push_str(&s);
            at_start = false;
            continue;
        }
        if !word.is_empty() {
            let w = anchor(std::mem::take(&mut word), word_at_start);
            and(&mut out, &[vec![Clause::from([w])]]);
        }
        and(&mut out, &dnf(item, at_start));
        at_start = false;
    }
    if !word.is_empty() {
        and(
            &mut out,
            &[vec![Clause::from([anchor(word, word_at_start)])]],
        );
    }
    out
}

/// Marks a word that must start the text.
fn anchor(word: String, at_start: bool) -> String {
    if at_start {
        format!("{ANCHORED}{word}")
    } else {
        word
    }
}

/// `out` and `part`: every alternative of one with every alternative of the other.
fn and(out: &mut Dnf, part: &[Vec<Clause>]) {
    let mut next = Vec::new();
    for a in out.iter() {
        for b in part {
            next.push(a.iter().chain(b).cloned().collect());
        }
    }
    *out = if next.len() > MAX_ALTERNATIVES {
        vec![merge(&next)]
    } else {
        next
    };
}

/// One alternative true of all of `alts`: a clause of the words of each alternative's best
/// clause (none when an alternative has no clause).
fn merge(alts: &Dnf) -> Vec<Clause> {
    let mut union = Clause::new();
    for a in alts {
        match best(a) {
            Some(c) => union.extend(c.iter().cloned()),
            None => return Vec::new(),
        }
    }
    vec![union]
}

/// The clause with the longest shortest word (then the fewest words).
fn best(clauses: &[Clause]) -> Option<&Clause> {
    clauses.iter().max_by_key(|c| {
        let shortest = c.iter().map(String::len).min().unwrap_or(0);
        (shortest, std::cmp::Reverse(c.len()))
    })
}

/// The text `h` matches when it is one fixed text up to ASCII case: a literal, or a class of
/// one character in its cases (with the two non-ASCII folds). Lower case.
fn text_of(h: &Hir) -> Option<String> {
    let members: Vec<char> = match h.kind() {
        HirKind::Literal(l) => return std::str::from_utf8(&l.0).ok().map(str::to_ascii_lowercase),
        HirKind::Class(Class::Unicode(c)) => {
            let mut v = Vec::new();
            for r in c.iter() {
                if u32::from(r.end()) - u32::from(r.start()) > 3 || v.len() > 4 {
                    return None;
                }
                v.extend(r.start()..=r.end());
            }
            v
        }
        HirKind::Class(Class::Bytes(c)) => {
            let mut v = Vec::new();
            for r in c.iter() {
                if r.end() - r.start() > 3 || v.len() > 4 || !r.end().is_ascii() {
                    return None;
                }
                v.extend((r.start()..=r.end()).map(char::from));
            }
            v
        }
        _ => return None,
    };
    let ascii: BTreeSet<char> = members
        .iter()
        .filter(|c| c.is_ascii())
        .map(char::to_ascii_lowercase)
        .collect();
    let [only] = ascii.into_iter().collect::<Vec<_>>()[..] else {
        return None;
    };
    let folds = members
        .iter()
        .filter(|c| !c.is_ascii())
        .all(|c| (*c == '\u{212A}' && only == 'k') || (*c == '\u{017F}' && only == 's'));
    folds.then(|| only.to_string())
}

/// A text up to this long is searched word by word; a longer one in one Aho-Corasick pass
/// (building the automaton costs more than searching a small text for each word).
const SMALL_TEXT: usize = 16 * 1024;

/// The words of several patterns' needles, found in one pass.
#[derive(Debug)]
pub struct Finder {
    needles: Vec<Option<Needles>>,
    /// Every word, sorted (a word's index is its pattern in `ac`).
    words: Vec<String>,
    ac: OnceLock<Option<AhoCorasick>>,
}

impl Finder {
    /// A finder for patterns with these needles (`None`: always run).
    pub fn new(needles: Vec<Option<Needles>>) -> Finder {
        let mut words: Vec<String> = needles
            .iter()
            .flatten()
            .flatten()
            .flatten()
            .flatten()
            .filter(|w| !w.starts_with(ANCHORED))
            .cloned()
            .collect();
        words.sort_unstable();
        words.dedup();
        Finder {
            needles,
            words,
            ac: OnceLock::new(),
        }
    }

    /// Which words occur in `text` (by index in `words`); `None` when they cannot be looked
    /// for.
    fn present(&self, text: &str) -> Option<Vec<bool>> {
        if text.len() <= SMALL_TEXT {
            let lower = text.to_ascii_lowercase();
            return Some(
                self.words
                    .iter()
                    .map(|w| lower.contains(w.as_str()))
                    .collect(),
            );
        }
        let ac = self
            .ac
            .get_or_init(|| {
                AhoCorasick::builder()
                    .ascii_case_insensitive(true)
                    .match_kind(MatchKind::Standard)
                    .kind(Some(AhoCorasickKind::NoncontiguousNFA))
                    .build(&self.words)
                    .ok()
            })
            .as_ref()?;
        let mut present = vec![false; self.words.len()];
        for m in ac.find_overlapping_iter(text) {
            present[m.pattern().as_usize()] = true;
        }
        Some(present)
    }

    /// Which patterns may match `text` (`true`: run it).
    pub fn candidates(&self, text: &str) -> Vec<bool> {
        let all = || vec![true; self.needles.len()];
        if self.needles.iter().all(Option::is_none) {
            return all();
        }
        if text.contains(FOLDS_TO_ASCII) {
            return all();
        }
        let Some(present) = self.present(text) else {
            return all();
        };
        let has = |w: &String| match w.strip_prefix(ANCHORED) {
            Some(start) => text
                .get(..start.len())
                .is_some_and(|t| t.eq_ignore_ascii_case(start)),
            None => self.words.binary_search(w).is_ok_and(|i| present[i]),
        };
        self.needles
            .iter()
            .map(|n| match n {
                Some(alts) => alts
                    .iter()
                    .any(|clauses| clauses.iter().all(|words| words.iter().any(has))),
                None => true,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn needles(p: &str) -> Option<Needles> {
        derive(p, Flags::default())
    }

    #[test]
    fn words_come_from_literals_and_case_classes() {
        // regex-syntax factors `all|any` into `a(?:ll|ny)`: both parts stay needles.
        assert_eq!(
            needles(r"(?i)\bignore\s+(?:all|any)\s+previous\b"),
            Some(vec![vec![
                vec!["a".to_string()],
                vec!["ignore".into()],
                vec!["ll".into(), "ny".into()],
                vec!["previous".into()]
            ]])
        );
        assert_eq!(
            needles(r"(?i)x\w+y|<!--z"),
            Some(vec![
                vec![vec!["<!--z".to_string()]],
                vec![vec!["x".into()], vec!["y".into()]]
            ])
        );
        let ci = Flags {
            case_insensitive: true,
            ascii: true,
        };
        assert_eq!(
            derive("^STOP\\b", ci),
            Some(vec![vec![vec!["\0stop".to_string()]]])
        );
        assert_eq!(
            derive("^(no|nope)([,.]|$)", ci),
            Some(vec![vec![vec!["\0no".to_string()]]]),
            "`no(?:pe)?` after the start: `no` starts the text"
        );
        assert_eq!(
            derive("(?m)^stop", ci),
            Some(vec![vec![vec!["stop".to_string()]]])
        );
        assert_eq!(needles(r"[A-Za-z0-9+/]{120,}"), None);
        assert_eq!(needles(r"x|\s*"), None);
        assert_eq!(needles(r"("), None);
        assert!(parses("(").is_err());
        assert!(parses("a(b)").is_ok());
    }

    #[test]
    fn the_finder_runs_only_what_may_match() {
        let f = Finder::new(vec![
            needles(r"(?i)from\s+now\s+on"),
            needles(r"secret-\d+"),
            None,
        ]);
        assert_eq!(f.candidates("FROM now ON"), vec![true, false, true]);
        assert_eq!(f.candidates("from there on, now"), vec![true, false, true]);
        assert_eq!(f.candidates("a Secret-7"), vec![false, true, true]);
        assert_eq!(f.candidates("nothing"), vec![false, false, true]);
        // Past SMALL_TEXT the automaton looks; the same answers.
        let long = format!("{} from x now y On", "z".repeat(SMALL_TEXT));
        assert_eq!(f.candidates(&long), vec![true, false, true]);
        assert_eq!(
            f.candidates(&"z".repeat(SMALL_TEXT + 1)),
            vec![false, false, true]
        );
        // A character that folds to an ASCII letter: every pattern runs.
        assert_eq!(f.candidates("ſecret"), vec![true, true, true]);
        assert_eq!(Finder::new(vec![None]).candidates("x"), vec![true]);
        let anchored = Finder::new(vec![derive(r"^(no|nope)\b", Flags::default())]);
        assert_eq!(anchored.candidates("No, not that"), vec![true]);
        assert_eq!(anchored.candidates("I said no"), vec![false]);
    }

    /// Only U+212A and U+017F fold to an ASCII letter case-insensitively.
    #[test]
    fn only_two_characters_outside_ascii_fold_to_ascii_letters() {
        let letter = regex::Regex::new("(?i)^[a-z]$").unwrap();
        let folding: Vec<char> = (0x80..=0x0010_FFFF)
            .filter_map(char::from_u32)
            .filter(|c| letter.is_match(c.encode_utf8(&mut [0; 4])))
            .collect();
        assert_eq!(
            folding,
            FOLDS_TO_ASCII.iter().rev().copied().collect::<Vec<_>>()
        );
    }
}
