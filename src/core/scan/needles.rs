//! Which of several regexes could match a text, decided without compiling them. Every match
//! of a regex contains certain words (its needles); a text that lacks them cannot match, so
//! the regex is not compiled or run for it. Compiling a regex costs far more than reading a
//! text for a few words (a hook that compiles the integrity rules, a user's redaction
//! patterns or the correction patterns pays milliseconds per process), and most texts match
//! none of them.
//!
//! The needles of a pattern are, for each of its alternatives, a list of clauses; a clause is
//! a list of words, one of which every match of that alternative contains (letters in any
//! case: words and texts are compared in lower case). A text may match only if, for some
//! alternative, every clause has a word in the text. A pattern with an alternative that
//! needs no word has no needles (`None`): it is always run. `derive` reads them off the
//! pattern's syntax tree (cheap next to compiling); `Finder` looks for the words of many
//! patterns in one Aho-Corasick pass.
//!
//! Case-insensitive matching in Unicode mode folds two characters outside ASCII to ASCII
//! letters (U+212A KELVIN SIGN to `k`, U+017F LONG S to `s`; a test checks there are no
//! others): a text that holds either runs every pattern.

use crate::core::hash::{fnv1a, Fnv};
use aho_corasick::{AhoCorasick, AhoCorasickKind, MatchKind};
use regex_syntax::hir::{Class, Hir, HirKind, Look};
use std::collections::{BTreeSet, HashMap};
use std::hash::BuildHasherDefault;
use std::ops::Range;
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

/// Most alternatives a part of a sequence keeps; a wider one is merged where it stands.
const MAX_CHOICE: usize = 8;

/// What a word that must start the text begins with in `Needles` (a NUL: patterns with a
/// literal NUL get no needles, see `text_of`).
pub const ANCHORED: char = '\0';

/// What a word that must start at a word boundary begins with in `Needles`: the pattern has
/// `\b` right before it, so the character before it in a match is not an ASCII letter, digit
/// or `_` (a word of a pattern compiled in ASCII mode is never marked so: there a letter
/// outside ASCII, such as `ſ`, which the search folds to `s`, is not a word character).
pub const AT_WORD: char = '\u{1}';

/// What a word that must start a line begins with in `Needles`: the pattern has a multi-line
/// `^` before it with only blanks and `#` between (`(?m)^\s*(?:#+\s*)?assistant`), so in a
/// match only those stand between it and a line break or the start of the text.
pub const AT_LINE: char = '\u{2}';

/// Where a part of a pattern stands in every match (what its first word is marked with).
#[derive(Debug, Clone, Copy, Default)]
struct At {
    /// At the start of the text (`^` without multi-line mode): `ANCHORED`.
    start: bool,
    /// At the start of a line, after blanks and `#` at most: `AT_LINE`.
    line: bool,
    /// At a word boundary: `AT_WORD`.
    word: bool,
}

/// Characters outside ASCII that case-insensitive matching folds to an ASCII letter.
const FOLDS_TO_ASCII: [char; 2] = ['\u{212A}', '\u{017F}'];

/// Whether `text` holds a character that case-insensitive matching folds to an ASCII letter
/// (a text a search for ASCII words cannot rule out).
pub fn folds_to_ascii(text: &str) -> bool {
    text.contains(FOLDS_TO_ASCII)
}

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
    let unmark = |c: Clause| -> Clause {
        if flags.ascii {
            c.into_iter()
                .map(|w| w.strip_prefix(AT_WORD).map_or(w.clone(), str::to_string))
                .collect()
        } else {
            c
        }
    };
    let alts: BTreeSet<BTreeSet<Clause>> = dnf(&hir, At::default())
        .into_iter()
        .map(|a| a.into_iter().map(unmark).collect())
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

/// The alternatives of `h` with their clauses; `at` says where `h` matches (at the start of
/// the text, of a line, of a word), so the word it starts with is marked as such.
fn dnf(h: &Hir, at: At) -> Dnf {
    match h.kind() {
        HirKind::Concat(items) => concat(items, at),
        HirKind::Alternation(alts) => {
            let parts: Vec<Dnf> = alts.iter().map(|a| dnf(a, at)).collect();
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
        HirKind::Repetition(r) if r.min >= 1 => dnf(&r.sub, at),
        HirKind::Capture(c) => dnf(&c.sub, at),
        _ => vec![text_of(h)
            .map(|w| vec![Clause::from([mark(w, at)])])
            .unwrap_or_default()],
    }
}

/// A concatenation: fixed texts next to each other are one word; the parts' alternatives are
/// combined ("and"). What follows the start of the text (`^` without multi-line mode) is at
/// the start; what follows a multi-line `^` and blanks at most, at a line's start; what
/// follows `\b` (or what the whole sequence starts with, given `at.word`) is at a word
/// boundary.
fn concat(items: &[Hir], mut at: At) -> Dnf {
    // A part alone between assertions (regex-syntax lifts a `\b` every branch starts with
    // out of the alternation) is read as if it stood alone: its alternatives stay whole.
    let mut parts = items
        .iter()
        .filter(|i| !matches!(i.kind(), HirKind::Look(_)));
    if let (Some(only), None) = (parts.next(), parts.next()) {
        let starts = matches!(
            items.first().map(Hir::kind),
            Some(HirKind::Look(Look::Start))
        );
        let before = || items.iter().take_while(|i| !std::ptr::eq(*i, only));
        return dnf(
            only,
            At {
                start: at.start || starts,
                line: at.line || before().any(is_line_start),
                word: at.word || before().any(is_word_start),
            },
        );
    }
    let mut out: Dnf = vec![Vec::new()];
    // The texts the run of fixed parts so far can be (one, or a few when a part is a choice
    // of fixed texts: `n(?:c|cat|etcat)` is `nc`, `ncat` or `netcat`, one word each, not the
    // two clauses `n` and `c`, which almost every text holds).
    let mut run: Vec<String> = Vec::new();
    let mut run_at = At::default();
    // `at`: where the next part stands.
    for item in items {
        if matches!(item.kind(), HirKind::Look(Look::Start))
            && out == [Vec::<Clause>::new()]
            && run.is_empty()
        {
            at.start = true;
            continue;
        }
        if run.is_empty() && is_line_start(item) {
            at.line = true;
            continue;
        }
        // Blanks and `#` after a line's start leave the next part at the line's start.
        if run.is_empty() && at.line && blank_or_hash(item) {
            continue;
        }
        if run.is_empty() && is_word_start(item) {
            at.word = true;
            continue;
        }
        if let Some(texts) = texts_of(item).filter(|t| run.len().max(1) * t.len() <= MAX_TEXTS) {
            if run.is_empty() {
                run_at = at;
                run = texts;
            } else {
                run = joined(&run, &texts);
            }
            at = At::default();
            continue;
        }
        flush_run(&mut out, &mut run, run_at);
        let part = dnf(item, at);
        // A wide choice inside a sequence is merged where it stands, so that what comes
        // before and after it stays clauses of their own instead of being merged with it.
        if part.len() > MAX_CHOICE {
            and(&mut out, &[merge(&part)]);
        } else {
            and(&mut out, &part);
        }
        at = At::default();
    }
    flush_run(&mut out, &mut run, run_at);
    out
}

/// Every text of `firsts` followed by every text of `thens`.
fn joined(firsts: &[String], thens: &[String]) -> Vec<String> {
    firsts
        .iter()
        .flat_map(|a| thens.iter().map(move |b| format!("{a}{b}")))
        .collect()
}

/// Whether `h` is a multi-line `^`: what follows it starts a line.
fn is_line_start(h: &Hir) -> bool {
    matches!(h.kind(), HirKind::Look(Look::StartLF | Look::StartCRLF))
}

/// Whether every text `h` matches is blanks and `#` (`\s*`, `(?:#+\s*)?`).
fn blank_or_hash(h: &Hir) -> bool {
    let allowed = |c: char| c == '#' || c.is_whitespace();
    match h.kind() {
        HirKind::Empty => true,
        HirKind::Literal(l) => std::str::from_utf8(&l.0).is_ok_and(|t| t.chars().all(allowed)),
        HirKind::Class(Class::Unicode(c)) => c.ranges().iter().all(|r| {
            u32::from(r.end()) - u32::from(r.start()) < 64 && (r.start()..=r.end()).all(allowed)
        }),
        HirKind::Class(Class::Bytes(c)) => c
            .ranges()
            .iter()
            .all(|r| (r.start()..=r.end()).all(|b| b.is_ascii() && allowed(char::from(b)))),
        HirKind::Repetition(r) => blank_or_hash(&r.sub),
        HirKind::Capture(c) => blank_or_hash(&c.sub),
        HirKind::Concat(items) | HirKind::Alternation(items) => items.iter().all(blank_or_hash),
        HirKind::Look(_) => false,
    }
}

/// Whether `h` is `\b` or a start-of-word assertion: what follows it (a word character)
/// has no word character before it.
fn is_word_start(h: &Hir) -> bool {
    matches!(
        h.kind(),
        HirKind::Look(
            Look::WordAscii
                | Look::WordUnicode
                | Look::WordStartAscii
                | Look::WordStartUnicode
                | Look::WordStartHalfAscii
                | Look::WordStartHalfUnicode
        )
    )
}

/// Most texts a run of fixed parts is read as; a part that would make more starts a new run.
const MAX_TEXTS: usize = 16;

/// Adds the run of fixed parts to `out` as one clause (one of its texts is in every match)
/// and empties it. A run that can be empty requires nothing.
fn flush_run(out: &mut Dnf, run: &mut Vec<String>, at: At) {
    let texts = std::mem::take(run);
    if texts.is_empty() || texts.iter().any(String::is_empty) {
        return;
    }
    // A text that holds another of the run's texts needs no word of its own (`nc`, `ncat`);
    // where the run starts the text or a word, only one that begins with it (`no`, `nope`:
    // `bash` holds `sh`, but not at its start).
    let covers = |w: &String, v: &String| {
        v != w
            && if at.start || at.line || at.word {
                w.starts_with(v.as_str())
            } else {
                w.contains(v.as_str())
            }
    };
    let clause: Clause = texts
        .iter()
        .filter(|w| !texts.iter().any(|v| covers(w, v)))
        .map(|w| mark(w.clone(), at))
        .collect();
    and(out, &[vec![clause]]);
}

/// Every text `h` can match, when they are few and fixed up to case (a literal, a class of
/// one character in its cases, a choice or a sequence of those; an assertion is the empty
/// text), lower case; `None` otherwise.
fn texts_of(h: &Hir) -> Option<Vec<String>> {
    match h.kind() {
        HirKind::Look(_) | HirKind::Empty => Some(vec![String::new()]),
        HirKind::Capture(c) => texts_of(&c.sub),
        HirKind::Repetition(r) if r.min == 0 && r.max == Some(1) => {
            let mut out = vec![String::new()];
            out.extend(texts_of(&r.sub)?);
            (out.len() <= MAX_TEXTS).then_some(out)
        }
        HirKind::Alternation(alts) => {
            let mut out: Vec<String> = Vec::new();
            for a in alts {
                for t in texts_of(a)? {
                    if !out.contains(&t) {
                        out.push(t);
                    }
                }
                if out.len() > MAX_TEXTS {
                    return None;
                }
            }
            Some(out)
        }
        HirKind::Concat(items) => {
            let mut out = vec![String::new()];
            for item in items {
                let texts = texts_of(item)?;
                if out.len() * texts.len() > MAX_TEXTS {
                    return None;
                }
                out = joined(&out, &texts);
            }
            Some(out)
        }
        _ => text_of(h).map(|t| vec![t]),
    }
}

/// Marks a word that must start the text, or else one that must start a line, or else one
/// that starts at a word boundary (when it starts with a word character: for `\b-x` the
/// boundary is about the character after).
fn mark(word: String, at: At) -> String {
    if at.start {
        format!("{ANCHORED}{word}")
    } else if at.line {
        format!("{AT_LINE}{word}")
    } else if at.word && word.starts_with(|c: char| c.is_ascii_alphanumeric() || c == '_') {
        format!("{AT_WORD}{word}")
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

/// One alternative true of all of `alts`: the clauses every alternative has (a word that
/// starts every match, say `<!--`), then up to `MERGED_CLAUSES` clauses that each take one
/// clause of every alternative, best first (a match satisfies its alternative's clause, so
/// their union). None of the latter when an alternative has no other clause.
fn merge(alts: &Dnf) -> Vec<Clause> {
    let Some((first, others)) = alts.split_first() else {
        return Vec::new();
    };
    let mut out: Vec<Clause> = first
        .iter()
        .filter(|c| others.iter().all(|a| a.contains(c)))
        .cloned()
        .collect();
    let mut ranked: Vec<Vec<&Clause>> = Vec::with_capacity(alts.len());
    for a in alts {
        let mut rest: Vec<&Clause> = a.iter().filter(|c| !out.contains(c)).collect();
        if rest.is_empty() {
            return out;
        }
        rest.sort_by_key(|c| std::cmp::Reverse(rank(c)));
        ranked.push(rest);
    }
    for round in 0..MERGED_CLAUSES {
        let mut union = Clause::new();
        for rest in &ranked {
            union.extend(rest[round.min(rest.len() - 1)].iter().cloned());
        }
        if !out.contains(&union) {
            out.push(union);
        }
    }
    out
}

/// How many clauses a merge builds from the alternatives' own.
const MERGED_CLAUSES: usize = 3;

/// How good a clause is as a needle: one with no function word first (a clause is met by any
/// of its words, and almost every text holds `the` or `all`: a merge that took `all` for
/// `all api keys` woke a rule on any English text), then the longer its shortest word, then
/// the fewer words. Any clause of an alternative is true of its matches: this only picks.
fn rank(c: &Clause) -> (bool, usize, std::cmp::Reverse<usize>) {
    let shortest = c.iter().map(String::len).min().unwrap_or(0);
    let common = c.iter().any(|w| is_function_word(w));
    (!common, shortest, std::cmp::Reverse(c.len()))
}

/// Whether `word` (its mark aside) is an English function word, which nearly every text holds.
fn is_function_word(word: &str) -> bool {
    const WORDS: [&str; 52] = [
        "a", "about", "all", "also", "an", "and", "any", "are", "as", "at", "be", "by", "do",
        "each", "every", "for", "from", "here", "in", "into", "is", "it", "just", "me", "my", "no",
        "not", "now", "of", "on", "only", "or", "our", "out", "so", "than", "that", "the", "then",
        "there", "these", "this", "those", "to", "up", "was", "we", "were", "which", "with", "you",
        "your",
    ];
    WORDS.contains(&word.trim_start_matches([ANCHORED, AT_WORD, AT_LINE]))
}

/// The text `h` matches when it is one fixed text up to case: a literal, or a class of one
/// character in its cases (an ASCII letter with the two non-ASCII folds, or a letter outside
/// ASCII whose cases all lower to it). Lower case (`lower`).
fn text_of(h: &Hir) -> Option<String> {
    let members: Vec<char> = match h.kind() {
        HirKind::Literal(l) => return std::str::from_utf8(&l.0).ok().map(lower),
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
    match ascii.into_iter().collect::<Vec<_>>()[..] {
        [only] => members
            .iter()
            .all(|c| fold(*c) == Some(only))
            .then(|| only.to_string()),
        // `И` and `и`: every member folds to one and the same character.
        [] => {
            let mut folded = members.iter().map(|c| fold(*c));
            let first = folded.next().flatten()?;
            folded.all(|l| l == Some(first)).then(|| first.to_string())
        }
        _ => None,
    }
}

/// `c` in lower case when that is one character.
fn lower_char(c: char) -> Option<char> {
    let mut l = c.to_lowercase();
    match (l.next(), l.next()) {
        (Some(one), None) => Some(one),
        _ => None,
    }
}

/// The characters whose lower case is not the one their other cases share (`ς` and `σ`
/// both match `Σ` case-insensitively), each with that one (a test checks the table).
const ODD_FOLDS: [(char, char); 25] = [
    ('\u{B5}', 'μ'),
    ('ſ', 's'),
    ('\u{345}', 'ι'),
    ('ς', 'σ'),
    ('ϐ', 'β'),
    ('ϑ', 'θ'),
    ('ϕ', 'φ'),
    ('ϖ', 'π'),
    ('ϰ', 'κ'),
    ('ϱ', 'ρ'),
    ('ϵ', 'ε'),
    ('ᲀ', 'в'),
    ('ᲁ', 'д'),
    ('ᲂ', 'о'),
    ('ᲃ', 'с'),
    ('ᲄ', 'т'),
    ('ᲅ', 'т'),
    ('ᲆ', 'ъ'),
    ('ᲇ', 'ѣ'),
    ('ᲈ', 'ꙋ'),
    ('ẛ', 'ṡ'),
    ('\u{1FBE}', 'ι'),
    ('\u{1FD3}', '\u{390}'),
    ('\u{1FE3}', '\u{3B0}'),
    ('\u{FB05}', '\u{FB06}'),
];

/// The one character every case of `c` folds to here: its lower case, or `ODD_FOLDS`.
fn fold(c: char) -> Option<char> {
    if c.is_ascii() {
        return Some(c.to_ascii_lowercase());
    }
    match ODD_FOLDS.iter().find(|(odd, _)| *odd == c) {
        Some((_, common)) => Some(*common),
        None => lower_char(c),
    }
}

/// `text` folded one character at a time (`fold`; no rule that looks at the neighbours,
/// such as a final sigma), so that a text holding a word, in any case, holds it folded:
/// needles and the texts searched for them are folded alike.
fn lower(text: &str) -> String {
    if text.is_ascii() {
        return text.to_ascii_lowercase();
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match fold(c) {
            Some(f) => out.push(f),
            None => out.extend(c.to_lowercase()),
        }
    }
    out
}

/// A text up to this long is searched in one pass over its pairs of bytes (`ByPair`); a
/// longer one in one Aho-Corasick pass. Building the automaton of the integrity rules'
/// thousand words costs a millisecond; so did looking for them one by one (a vectorised
/// search each, most of its cost setting each search up) in a text of 16 KB, and every
/// memory file a session start rescans is read in four forms. On megabytes the automaton
/// is kept: its cost per byte does not grow with the words that begin with a common pair of
/// English letters, as the pairs pass's does.
const BY_PAIR: usize = 64 * 1024;

/// Buckets of `ByPair` (a power of two).
const BUCKETS: usize = 4096;

/// The bucket of a word or a place in a text that begins with the bytes `a`, `b`.
fn bucket(a: u8, b: u8) -> usize {
    (usize::from(a) * 31 + usize::from(b)) & (BUCKETS - 1)
}

/// A finder's words by their first two bytes, so that one pass over a text looks only at
/// the few words that begin with each pair it holds; the words of one byte apart.
#[derive(Debug)]
struct ByPair {
    /// Word indices, bucket after bucket.
    order: Vec<usize>,
    /// Per entry of `order`: the word's first eight bytes (`Head`), compared in one step
    /// before the rest: most words that begin with a common pair of letters differ from the
    /// text within eight bytes, and a call to compare each cost more than the pass.
    heads: Vec<Head>,
    /// Where each bucket starts in `order` (one entry more than buckets).
    starts: Vec<usize>,
    /// Words of one byte.
    singles: Vec<usize>,
}

/// A word's first eight bytes as one little-endian word, with the mask of those it has.
#[derive(Debug, Clone, Copy)]
struct Head {
    bytes: u64,
    mask: u64,
}

impl Head {
    fn of(word: &[u8]) -> Head {
        let n = word.len().min(8);
        let mut b = [0u8; 8];
        b[..n].copy_from_slice(&word[..n]);
        Head {
            bytes: u64::from_le_bytes(b),
            mask: if n == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * n)) - 1
            },
        }
    }
}

/// The eight bytes of `hay` from `at` as one little-endian word (zeros past its end).
fn eight_at(hay: &[u8], at: usize) -> u64 {
    let mut b = [0u8; 8];
    let rest = &hay[at..];
    let n = rest.len().min(8);
    b[..n].copy_from_slice(&rest[..n]);
    u64::from_le_bytes(b)
}

/// The places of a text (up to `u32::MAX` bytes), bucket after bucket by their first two
/// bytes (`bucket`), and by their first four (`quad`): a word of four bytes or more is
/// looked for only where the text's four bytes fall in its bucket, which in English text
/// holds a few places where its pair's holds hundreds.
struct Places {
    pairs: Buckets,
    quads: Buckets,
}

/// Places bucket after bucket: a counting sort, one pass to count and one to place.
struct Buckets {
    order: Vec<u32>,
    starts: Vec<u32>,
}

impl Buckets {
    /// The places `0..keys.len()` by their keys (each under `BUCKETS`).
    fn of(keys: &[u16]) -> Buckets {
        let mut starts = vec![0u32; BUCKETS + 1];
        for &k in keys {
            starts[usize::from(k) + 1] += 1;
        }
        for k in 1..=BUCKETS {
            starts[k] += starts[k - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0u32; keys.len()];
        for (at, &k) in keys.iter().enumerate() {
            let k = usize::from(k);
            order[next[k] as usize] = u32::try_from(at).unwrap_or(u32::MAX);
            next[k] += 1;
        }
        Buckets { order, starts }
    }

    fn get(&self, k: usize) -> &[u32] {
        &self.order[self.starts[k] as usize..self.starts[k + 1] as usize]
    }
}

/// The bucket of a place or a word that begins with the four bytes `b`.
fn quad(b: &[u8]) -> usize {
    let w = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
    // The high bits of a multiplicative hash: 12 of them, `BUCKETS`.
    (w.wrapping_mul(0x9E37_79B1) >> 20) as usize
}

impl Places {
    fn of(hay: &[u8]) -> Places {
        let key = |k: usize| u16::try_from(k).unwrap_or(0);
        let pairs: Vec<u16> = hay.windows(2).map(|p| key(bucket(p[0], p[1]))).collect();
        let quads: Vec<u16> = hay.windows(4).map(|q| key(quad(q))).collect();
        Places {
            pairs: Buckets::of(&pairs),
            quads: Buckets::of(&quads),
        }
    }

    /// The places where `word` (two bytes or more) may start: those whose first bytes fall
    /// in its bucket (others too: the caller compares the bytes).
    fn of_word(&self, word: &[u8]) -> &[u32] {
        match word {
            [a, b, c, d, ..] => self.quads.get(quad(&[*a, *b, *c, *d])),
            [a, b, ..] => self.pairs.get(bucket(*a, *b)),
            _ => &[],
        }
    }
}

impl ByPair {
    fn of(words: &[String]) -> ByPair {
        let key = |w: &String| match w.as_bytes() {
            [a, b, ..] => Some(bucket(*a, *b)),
            _ => None,
        };
        let mut starts = vec![0; BUCKETS + 1];
        for k in words.iter().filter_map(key) {
            starts[k + 1] += 1;
        }
        for k in 1..=BUCKETS {
            starts[k] += starts[k - 1];
        }
        let mut next = starts.clone();
        let mut order = vec![0; starts[BUCKETS]];
        let mut singles = Vec::new();
        for (i, w) in words.iter().enumerate() {
            match key(w) {
                Some(k) => {
                    order[next[k]] = i;
                    next[k] += 1;
                }
                None => singles.push(i),
            }
        }
        let heads = order
            .iter()
            .map(|&i| Head::of(words[i].as_bytes()))
            .collect();
        ByPair {
            order,
            heads,
            starts,
            singles,
        }
    }
}

/// The one multi-pattern finder: which of several patterns may match a text, from the words
/// of their needles. It picks how to look by the text's length (measured, docs/performance.md
/// "One finder"): a finder of a table written in the source looks a text of up to
/// `TABLE_TEXT_MAX` bytes up in the table itself, building nothing (`table_candidates`);
/// otherwise its index is built once per process, and a text of up to `BY_PAIR` bytes is read
/// in one pass over its pairs of bytes, a longer one in one Aho-Corasick pass. One
/// Aho-Corasick automaton for every text, built at first use, cost a session start after a
/// memory change 1.4 ms more (the integrity rules' thousand words).
#[derive(Debug)]
pub struct Finder {
    /// The table, when the finder is of one (`of_table`).
    table: Option<Table<'static>>,
    index: OnceLock<Index>,
}

/// The words of several patterns' needles, found in one pass. The needles are kept flat (a
/// table holds thousands of words: a vector for each clause cost more to build than a
/// session start's scan).
#[derive(Debug)]
struct Index {
    /// Per pattern: its alternatives, a range of `alts` (`None`: always run).
    patterns: Vec<Option<Range<usize>>>,
    /// Per alternative: its clauses, a range of `clauses`.
    alts: Vec<Range<usize>>,
    /// Per clause: its words, a range of `terms` (one of them is enough).
    clauses: Vec<Range<usize>>,
    /// The words of every clause, clause after clause.
    terms: Vec<Word>,
    /// Every word looked for anywhere, each once (a word's index is its pattern in `ac`).
    words: Vec<String>,
    /// Per word of `words`: where it has to stand to count.
    at: Vec<Mark>,
    /// The words that must start the text.
    starts: Vec<String>,
    by_pair: OnceLock<ByPair>,
    ac: OnceLock<Option<AhoCorasick>>,
}

/// Where a word of `Index::words` counts: anywhere, at a word boundary (`AT_WORD`), at a
/// line's start (`AT_LINE`).
#[derive(Debug, Clone, Copy, PartialEq)]
enum Mark {
    Anywhere,
    Word,
    Line,
}

impl Mark {
    /// The mark a needle's word starts with, and the word without it.
    fn of(word: &str) -> (Mark, &str) {
        if let Some(w) = word.strip_prefix(AT_WORD) {
            (Mark::Word, w)
        } else if let Some(w) = word.strip_prefix(AT_LINE) {
            (Mark::Line, w)
        } else {
            (Mark::Anywhere, word)
        }
    }

    /// Whether a word found at `at` in `hay` stands where it has to.
    fn holds(self, hay: &[u8], at: usize) -> bool {
        match self {
            Mark::Anywhere => true,
            Mark::Word => starts_word(hay, at),
            Mark::Line => starts_line(hay, at),
        }
    }
}

/// A word of a clause: one of `Index::words`, or one of `Index::starts`.
#[derive(Debug, Clone, Copy)]
enum Word {
    Anywhere(usize),
    Starts(usize),
}

impl Finder {
    /// A finder for patterns with these needles (`None`: always run).
    pub fn new(needles: &[Option<Needles>]) -> Finder {
        let index = Index::build(needles.iter().map(|n| {
            n.as_ref()
                .map(|alts| alts.iter().map(|cs| cs.iter().map(|ws| ws.iter())))
        }));
        Finder {
            table: None,
            index: OnceLock::from(index),
        }
    }

    /// A finder for a table written in the source (see `check_table`); nothing is built
    /// until a text longer than `TABLE_TEXT_MAX` comes.
    pub fn of_table(table: Table<'static>) -> Finder {
        Finder {
            table: Some(table),
            index: OnceLock::new(),
        }
    }

    /// Which patterns may match `text` (`true`: run it).
    pub fn candidates(&self, text: &str) -> Vec<bool> {
        match self.table {
            Some(table) if text.len() <= TABLE_TEXT_MAX => table_candidates(table, text),
            _ => self.indexed(text),
        }
    }

    /// `candidates` from the index, whatever the text's length.
    fn indexed(&self, text: &str) -> Vec<bool> {
        let table = self.table.unwrap_or_default();
        let index = self.index.get_or_init(|| {
            Index::build(
                table
                    .iter()
                    .map(|n| n.map(|alts| alts.iter().map(|cs| cs.iter().map(|ws| ws.iter())))),
            )
        });
        index.candidates(text)
    }
}

impl Index {
    /// Per pattern: alternatives → clauses → words.
    fn build<P, A, C, W>(needles: impl Iterator<Item = Option<P>> + Clone) -> Index
    where
        P: Iterator<Item = A>,
        A: Iterator<Item = C>,
        C: Iterator<Item = W>,
        W: AsRef<str>,
    {
        // Sized first (a walk of the table): growing the vectors word by word cost more in
        // copies and page faults than filling them.
        let (mut alts, mut clauses, mut terms) = (0, 0, 0);
        for p in needles.clone().flatten() {
            for a in p {
                alts += 1;
                for c in a {
                    clauses += 1;
                    terms += c.count();
                }
            }
        }
        let mut f = Index {
            patterns: Vec::with_capacity(needles.size_hint().0),
            alts: Vec::with_capacity(alts),
            clauses: Vec::with_capacity(clauses),
            terms: Vec::with_capacity(terms),
            words: Vec::with_capacity(terms / 2),
            at: Vec::with_capacity(terms / 2),
            starts: Vec::new(),
            by_pair: OnceLock::new(),
            ac: OnceLock::new(),
        };
        // Each distinct word once, numbered as first met (a table repeats its words many
        // times), keyed by the word's FNV-1a (no allocation per lookup); a word whose hash
        // another word has is kept again, which finds the same.
        let mut index: HashMap<u64, usize, BuildHasherDefault<Fnv>> =
            HashMap::with_capacity_and_hasher(terms / 2, BuildHasherDefault::default());
        for pattern in needles {
            let Some(alts) = pattern else {
                f.patterns.push(None);
                continue;
            };
            let first_alt = f.alts.len();
            for clauses in alts {
                let first_clause = f.clauses.len();
                for words in clauses {
                    let first_term = f.terms.len();
                    for w in words {
                        let w = w.as_ref();
                        let term = if let Some(start) = w.strip_prefix(ANCHORED) {
                            f.starts.push(start.to_string());
                            Word::Starts(f.starts.len() - 1)
                        } else {
                            let (mark, plain) = Mark::of(w);
                            let key = fnv1a(w.as_bytes());
                            match index.get(&key) {
                                Some(&i) if f.at[i] == mark && f.words[i] == plain => {
                                    Word::Anywhere(i)
                                }
                                _ => {
                                    f.words.push(plain.to_string());
                                    f.at.push(mark);
                                    index.insert(key, f.words.len() - 1);
                                    Word::Anywhere(f.words.len() - 1)
                                }
                            }
                        };
                        f.terms.push(term);
                    }
                    f.clauses.push(first_term..f.terms.len());
                }
                f.alts.push(first_clause..f.clauses.len());
            }
            f.patterns.push(Some(first_alt..f.alts.len()));
        }
        f
    }

    /// Which words occur in `lowered` (by index in `words`); `None` when they cannot be
    /// looked for.
    fn present(&self, lowered: &str) -> Option<Vec<bool>> {
        if lowered.len() <= BY_PAIR {
            return Some(self.present_by_pair(lowered.as_bytes()));
        }
        let ac = self
            .ac
            .get_or_init(|| {
                AhoCorasick::builder()
                    .match_kind(MatchKind::Standard)
                    .kind(Some(AhoCorasickKind::NoncontiguousNFA))
                    .build(&self.words)
                    .ok()
            })
            .as_ref()?;
        let mut present = vec![false; self.words.len()];
        for m in ac.find_overlapping_iter(lowered) {
            let i = m.pattern().as_usize();
            if self.at[i].holds(lowered.as_bytes(), m.start()) {
                present[i] = true;
            }
        }
        Some(present)
    }

    /// `present` for a text of up to `BY_PAIR` bytes: at each place, the words that begin
    /// with its two bytes.
    fn present_by_pair(&self, hay: &[u8]) -> Vec<bool> {
        let index = self.by_pair.get_or_init(|| ByPair::of(&self.words));
        let mut present = vec![false; self.words.len()];
        for &i in &index.singles {
            if let Some(&b) = self.words[i].as_bytes().first() {
                present[i] = memchr::memchr_iter(b, hay).any(|at| self.at[i].holds(hay, at));
            }
        }
        for (at, pair) in hay.windows(2).enumerate() {
            let k = bucket(pair[0], pair[1]);
            let (from, to) = (index.starts[k], index.starts[k + 1]);
            if from == to {
                continue;
            }
            // Zeros past the text's end: a word's head has its own bytes there, and the
            // whole comparison below decides.
            let eight = eight_at(hay, at);
            for (&i, head) in index.order[from..to].iter().zip(&index.heads[from..to]) {
                if !present[i]
                    && eight & head.mask == head.bytes
                    && hay[at..].starts_with(self.words[i].as_bytes())
                    && self.at[i].holds(hay, at)
                {
                    present[i] = true;
                }
            }
        }
        present
    }

    /// Which patterns may match `text` (`true`: run it).
    fn candidates(&self, text: &str) -> Vec<bool> {
        let all = || vec![true; self.patterns.len()];
        if self.patterns.iter().all(Option::is_none) {
            return all();
        }
        let lowered = lower(text);
        let Some(present) = self.present(&lowered) else {
            return all();
        };
        let has = |w: &Word| match *w {
            Word::Starts(i) => lowered.starts_with(self.starts[i].as_str()),
            Word::Anywhere(i) => present[i],
        };
        let clause = |c: &Range<usize>| self.terms[c.clone()].iter().any(has);
        let alt = |a: &Range<usize>| self.clauses[a.clone()].iter().all(clause);
        self.patterns
            .iter()
            .map(|p| {
                p.as_ref()
                    .is_none_or(|r| self.alts[r.clone()].iter().any(alt))
            })
            .collect()
    }
}

/// The longest text `table_candidates` is meant for: as long as the pairs pass reads
/// (`BY_PAIR`). Building the index of the integrity rules' thousands of words (their strings,
/// a map, the pairs) was a seventh of a session start that rescanned an edit's 11 KB window
/// (perf, the bench's team repository); the table's lookup builds only the text's places.
const TABLE_TEXT_MAX: usize = BY_PAIR;

/// What the index of `table` gives for `text`, without building it, for a text of up to
/// `TABLE_TEXT_MAX` bytes (a memory file's new lines or changed part, a prompt). Each word of
/// the table is looked for where the index would look for it: at the places of the text that
/// begin with its first two bytes (the text's places, bucketed by their pair in one counting
/// pass), its first eight bytes compared in one step before the rest.
fn table_candidates<'a>(table: Table<'a>, text: &str) -> Vec<bool> {
    if table.iter().all(Option::is_none) {
        return vec![true; table.len()];
    }
    let lowered = lower(text);
    let hay = lowered.as_bytes();
    let places = Places::of(hay);
    let search = |word: &str| -> bool {
        if let Some(start) = word.strip_prefix(ANCHORED) {
            return lowered.starts_with(start);
        }
        let (mark, plain) = Mark::of(word);
        match plain.as_bytes() {
            [] => false,
            [b] => memchr::memchr_iter(*b, hay).any(|at| mark.holds(hay, at)),
            p @ [_, _, ..] => {
                let head = Head::of(p);
                places.of_word(p).iter().any(|&at| {
                    let at = at as usize;
                    eight_at(hay, at) & head.mask == head.bytes
                        && hay[at..].starts_with(p)
                        && mark.holds(hay, at)
                })
            }
        }
    };
    // The table names many words again and again: each is looked for once, known by where
    // the program keeps it (the compiler keeps one copy of equal literals; a word kept twice
    // is looked for twice, which finds the same). Hashing each word's bytes at each of its
    // 24,000 mentions cost more than the searches.
    let mut seen: HashMap<(usize, usize), bool, BuildHasherDefault<Fnv>> =
        HashMap::with_capacity_and_hasher(4096, BuildHasherDefault::default());
    let mut has = |word: &'a str| -> bool {
        *seen
            .entry((word.as_ptr() as usize, word.len()))
            .or_insert_with(|| search(word))
    };
    table
        .iter()
        .map(|pattern| {
            pattern.is_none_or(|alts| {
                alts.iter()
                    .any(|clauses| clauses.iter().all(|words| words.iter().any(|w| has(w))))
            })
        })
        .collect()
}

/// Whether a word found at `at` in `hay` may start at a word boundary: nothing before it, or
/// a character that is not an ASCII letter, digit or `_`. A character outside ASCII before it
/// could be a word character or not as the pattern reads it, so it does not rule it out.
fn starts_word(hay: &[u8], at: usize) -> bool {
    match at.checked_sub(1).and_then(|i| hay.get(i)) {
        Some(&b) => !(b.is_ascii_alphanumeric() || b == b'_'),
        None => true,
    }
}

/// Whether a word found at `at` in `hay` may start a line as a multi-line `^\s*(?:#+\s*)?`
/// before it reads: between it and the start of the text or a line break (`\n`, `\r`) only
/// blanks and `#`. A byte outside ASCII could be a blank outside ASCII (`\s` holds them),
/// so it does not rule it out.
fn starts_line(hay: &[u8], at: usize) -> bool {
    for &b in hay[..at].iter().rev() {
        match b {
            b'\n' | b'\r' => return true,
            b'#' | b' ' | b'\t' | 0x0B | 0x0C => {}
            _ if !b.is_ascii() => {}
            _ => return false,
        }
    }
    true
}

/// A needles table as the source writes it (`Finder::of_table`'s input).
pub type Table<'a> = &'a [Option<&'a [&'a [&'a [&'a str]]]>];

/// Checks a needles table written in the source against what `derive` gives for its patterns
/// (`derived`, one per pattern, each with a label for the comment above it). `Err` holds the
/// table to paste, as `pub(super) const NAME: &[Needles] = …`.
#[cfg(test)]
pub fn check_table(
    name: &str,
    table: Table<'_>,
    derived: &[(&str, Option<Needles>)],
) -> Result<(), String> {
    let owned: Vec<Option<Needles>> = table
        .iter()
        .map(|n| {
            n.map(|alts| {
                alts.iter()
                    .map(|cs| {
                        cs.iter()
                            .map(|ws| ws.iter().map(|w| (*w).to_string()).collect())
                            .collect()
                    })
                    .collect()
            })
        })
        .collect();
    if owned.iter().eq(derived.iter().map(|(_, n)| n)) {
        return Ok(());
    }
    let list = |items: Vec<String>| format!("&[{}]", items.join(", "));
    let mut code = format!("#[rustfmt::skip]\npub(super) const {name}: &[Needles] = &[\n");
    for (label, n) in derived {
        code.push_str(&format!("    // {label}\n"));
        let Some(alts) = n else {
            code.push_str("    None,\n");
            continue;
        };
        code.push_str("    Some(&[\n");
        for clauses in alts {
            let clauses = clauses
                .iter()
                .map(|ws| list(ws.iter().map(|w| format!("{w:?}")).collect()))
                .collect();
            code.push_str(&format!("        {},\n", list(clauses)));
        }
        code.push_str("    ]),\n");
    }
    code.push_str("];\n");
    Err(code)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::scan::prefilter::NEEDLES;

    fn needles(p: &str) -> Option<Needles> {
        derive(p, Flags::default())
    }

    #[test]
    fn words_come_from_literals_and_case_classes() {
        // regex-syntax factors `all|any` into `a(?:ll|ny)`: read back as the two words, not
        // as `a` and `ll|ny` (which almost every text holds).
        assert_eq!(
            needles(r"(?i)\bignore\s+(?:all|any)\s+previous\b"),
            Some(vec![vec![
                vec!["\u{1}ignore".to_string()],
                vec!["all".into(), "any".into()],
                vec!["previous".into()]
            ]])
        );
        assert_eq!(
            needles(r"\b(?:nc|ncat|netcat)\s"),
            // `ncat` holds `nc`: one of the two words is in every match.
            Some(vec![vec![vec![
                "\u{1}nc".to_string(),
                "\u{1}netcat".into()
            ]]])
        );
        // What may stand between two fixed texts keeps them apart; a part that may be empty
        // requires nothing.
        assert_eq!(
            needles(r"key\s*(?:id|name)"),
            Some(vec![vec![
                vec!["id".to_string(), "name".into()],
                vec!["key".into()]
            ]])
        );
        assert_eq!(
            needles(r"ab(?:|cd)ef"),
            Some(vec![vec![vec!["abcdef".to_string(), "abef".into()]]])
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
            Some(vec![vec![vec!["\u{2}stop".to_string()]]]),
            "after a multi-line `^`: `stop` starts a line"
        );
        assert_eq!(needles(r"[A-Za-z0-9+/]{120,}"), None);
        assert_eq!(needles(r"x|\s*"), None);
        assert_eq!(needles(r"("), None);
        assert!(parses("(").is_err());
        assert!(parses("a(b)").is_ok());
    }

    /// Past MAX_ALTERNATIVES the merged alternative keeps the words every alternative needs:
    /// `<!--` before forty different words stays a needle of its own.
    #[test]
    fn a_merge_keeps_what_every_alternative_needs() {
        let words: Vec<String> = (0..40).map(|i| format!("w{i}x")).collect();
        let p = format!(
            r"<!--.*(?:{}).*(?:end|stop\s+now)",
            words.join("|").replace('x', r"\s+x")
        );
        let n = needles(&p).expect("needles");
        assert!(
            n.iter().all(|alt| alt.contains(&vec!["<!--".to_string()])),
            "{n:?}"
        );
        let f = Finder::new(&[Some(n)]);
        assert_eq!(f.candidates("w3 x then end"), vec![false]);
        assert_eq!(f.candidates("<!-- w3 x then end"), vec![true]);
    }

    #[test]
    fn the_finder_runs_only_what_may_match() {
        let f = Finder::new(&[
            needles(r"(?i)from\s+now\s+on"),
            needles(r"secret-\d+"),
            None,
        ]);
        assert_eq!(f.candidates("FROM now ON"), vec![true, false, true]);
        assert_eq!(f.candidates("from there on, now"), vec![true, false, true]);
        assert_eq!(f.candidates("a Secret-7"), vec![false, true, true]);
        assert_eq!(f.candidates("nothing"), vec![false, false, true]);
        // Past BY_PAIR the automaton looks; the same answers.
        let long = format!("{} from x now y On", "z".repeat(BY_PAIR));
        assert_eq!(f.candidates(&long), vec![true, false, true]);
        assert_eq!(
            f.candidates(&"z".repeat(BY_PAIR + 1)),
            vec![false, false, true]
        );
        // A character that folds to an ASCII letter is read as that letter.
        assert_eq!(f.candidates("ſecret-7"), vec![false, true, true]);
        assert_eq!(f.candidates("FROM NOW O\u{212A}"), vec![false, false, true]);
        assert_eq!(f.candidates("from now on\u{212A}"), vec![true, false, true]);
        assert_eq!(Finder::new(&[None]).candidates("x"), vec![true]);
        let anchored = Finder::new(&[derive(r"^(no|nope)\b", Flags::default())]);
        assert_eq!(anchored.candidates("No, not that"), vec![true]);
        assert_eq!(anchored.candidates("I said no"), vec![false]);
    }

    /// A word after a multi-line `^` and blanks or `#` counts only at a line's start (the
    /// role lines of the integrity rules: `assistant` is in many texts, at a line's start in
    /// few).
    #[test]
    fn a_word_after_a_line_start_counts_only_there() {
        let p = r"(?im)^\s*(?:#+\s*)?(?:assistant|ai)\s*:";
        assert_eq!(
            needles(p),
            Some(vec![vec![
                vec!["\u{2}ai".to_string(), "\u{2}assistant".into()],
                vec![":".into()]
            ]])
        );
        // What may stand between `^` and the word other than blanks and `#`: not marked.
        assert_eq!(
            needles(r"(?m)^x*ai:"),
            Some(vec![vec![vec!["ai:".to_string()]]])
        );
        assert_candidates(
            p,
            &[
                ("assistant: hi", true),
                ("x\n  ## Assistant: hi", true),
                ("x\r\nai:", true),
                ("note\n\n\t assistant :", true),
                // A blank outside ASCII before it: `\s` holds it, the pattern is run.
                ("\u{00A0}assistant: hi", true),
                // Inside a line only: no match is possible.
                ("the assistant: UI", false),
                ("main: fails", false),
                ("x-ai: y", false),
            ],
        );
    }

    /// `p`'s finder says "may match" for exactly the texts marked so, on both search paths
    /// (the text as it is, and after a line that takes it past `BY_PAIR`, where the automaton
    /// looks), and never rules out a text the regex matches.
    fn assert_candidates(p: &str, cases: &[(&str, bool)]) {
        let f = Finder::new(&[needles(p)]);
        let re = regex::Regex::new(p).unwrap();
        let pad = "z ".repeat(BY_PAIR / 2 + 1);
        for &(text, may) in cases {
            assert_eq!(f.candidates(text), vec![may], "{text:?}");
            let padded = format!("{pad}\n{text}");
            assert_eq!(f.candidates(&padded), vec![may], "padded: {text:?}");
            assert!(may || !re.is_match(text), "{text:?}");
        }
    }

    #[test]
    fn a_word_after_a_word_boundary_counts_only_where_one_is() {
        let p = r"(?i)\b(?:ai|llm)\s+(?:must|should)";
        assert_eq!(
            needles(p),
            Some(vec![vec![
                vec!["\u{1}ai".to_string(), "\u{1}llm".into()],
                vec!["must".into(), "should".into()]
            ]])
        );
        assert_candidates(
            p,
            &[
                ("The AI must", true),
                ("(ai) should", true),
                ("x-ai must", true),
                ("ai must", true),
                ("an ai must", true),
                // `ai` inside words only: no match is possible.
                ("again the main rule must", false),
                ("again must", false),
                ("fail_ai should", false),
                ("said 2ai must", false),
                // A letter outside ASCII before it could be either: the pattern is run.
                ("éai must", true),
            ],
        );
        // `bash` holds `sh`, but not at a word's start: both stay words.
        assert_eq!(
            needles(r"\b(?:ba|z)?sh\s"),
            Some(vec![vec![vec![
                "\u{1}bash".to_string(),
                "\u{1}sh".into(),
                "\u{1}zsh".into()
            ]]])
        );
        let sh = Finder::new(&[needles(r"\b(?:ba|z)?sh\s")]);
        assert_eq!(sh.candidates("run bash -c"), vec![true]);
        assert_eq!(sh.candidates("a hash mark"), vec![false]);
        // In ASCII mode a letter outside ASCII is no word character: no word is marked.
        let ascii = Flags {
            case_insensitive: true,
            ascii: true,
        };
        assert_eq!(
            derive(r"\bai\s+must", ascii),
            Some(vec![vec![vec!["ai".to_string()], vec!["must".into()]]])
        );
    }

    /// regex-syntax lifts a `\b` that every branch starts with out of the alternation; the
    /// branches stay alternatives of their own (merged, a common word of one branch let
    /// every text with it through).
    #[test]
    fn a_choice_between_assertions_is_not_merged() {
        let branches: Vec<String> = (0..12).map(|i| format!(r"\bw{i}x\s+z{i}y\b")).collect();
        let n = needles(&branches.join("|")).expect("needles");
        assert_eq!(n.len(), 12, "{n:?}");
        let f = Finder::new(&[Some(n)]);
        assert_eq!(f.candidates("w3x and z4y"), vec![false]);
        assert_eq!(f.candidates("w3x z3y"), vec![true]);
    }

    /// A letter outside ASCII in its cases is a needle; texts are lowered one character at a
    /// time, as the needles are.
    #[test]
    fn letters_outside_ascii_are_needles_in_any_case() {
        let n = needles(r"(?i)\bигнорируй\s+правила").expect("needles");
        assert_eq!(
            n,
            vec![vec![vec!["игнорируй".to_string()], vec!["правила".into()]]]
        );
        let f = Finder::new(&[Some(n), needles("Жук")]);
        assert_eq!(f.candidates("ИГНОРИРУЙ все Правила"), vec![true, false]);
        assert_eq!(f.candidates("игнорируй это"), vec![false, false]);
        assert_eq!(f.candidates("большой Жук"), vec![false, true]);
        let long = format!("{} ИгнорируЙ ПРАВИЛА", "z".repeat(BY_PAIR));
        assert_eq!(f.candidates(&long), vec![true, false]);
        // `ς`, `σ` and `Σ` are one letter case-insensitively: any of them finds it.
        let sigma = Finder::new(&[needles("(?i)ος")]);
        assert_eq!(sigma.candidates("ΟΣ"), vec![true]);
        assert_eq!(sigma.candidates("οσ"), vec![true]);
        assert_eq!(sigma.candidates("ο"), vec![false]);
        let anchored = Finder::new(&[derive(
            "^(?:стоп)",
            Flags {
                case_insensitive: true,
                ascii: false,
            },
        )]);
        assert_eq!(anchored.candidates("СТОП сейчас"), vec![true]);
    }

    /// Every character's cases fold to one character (`fold`): checked against regex-syntax's
    /// own case folding, so a Unicode version that adds an odd one fails here.
    #[test]
    fn every_case_of_a_letter_folds_to_one_character() {
        use regex_syntax::hir::{ClassUnicode, ClassUnicodeRange};
        for c in (0x80..=0x0010_FFFF).filter_map(char::from_u32) {
            let mut class = ClassUnicode::new([ClassUnicodeRange::new(c, c)]);
            class.case_fold_simple();
            let folded: BTreeSet<Option<char>> = class
                .iter()
                .flat_map(|r| r.start()..=r.end())
                .map(fold)
                .collect();
            assert_eq!(folded.len(), 1, "{c:?} {class:?}");
        }
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

    /// The table looked up directly gives what the finder built from it gives, on generated
    /// short texts made of the table's own words (in any case, run together or apart, at
    /// line starts or inside other words) and noise.
    #[test]
    fn a_short_text_is_looked_up_in_the_table_as_the_finder_would() {
        let finder = Finder::of_table(NEEDLES);
        let indexed = |text: &str| finder.indexed(text);
        let mut words: Vec<&str> = NEEDLES
            .iter()
            .flatten()
            .flat_map(|alts| alts.iter())
            .flat_map(|clauses| clauses.iter())
            .flat_map(|ws| ws.iter())
            .map(|w| w.trim_start_matches(['\0', '\u{1}', '\u{2}']))
            .collect();
        words.sort_unstable();
        words.dedup();
        let seps = [
            " ", "  ", "\n", "\n# ", "", "x", "_", "-", ": ", "é", "\u{212A}", ". ",
        ];
        let mut rng = crate::core::clock::Xorshift::new(0x51_7cc1_b727_220a);
        let mut some = 0;
        for _ in 0..20_000 {
            let mut text = String::new();
            for _ in 0..=rng.below(8) {
                text.push_str(seps[rng.below(seps.len())]);
                let w = words[rng.below(words.len())];
                match rng.below(4) {
                    0 => text.push_str(&w.to_uppercase()),
                    1 => text.extend(w.chars().take(w.chars().count() / 2 + 1)),
                    _ => text.push_str(w),
                }
            }
            let want = indexed(&text);
            some += want.iter().filter(|c| **c).count();
            assert_eq!(table_candidates(NEEDLES, &text), want, "{text:?}");
        }
        assert!(some > 20_000, "{some}");
        // Long texts too (a changed part of a memory file, up to the pairs pass's 64 KB):
        // their places fill the buckets, where a short text's are nearly empty.
        for _ in 0..40 {
            let mut text = String::new();
            for _ in 0..rng.below(3000) {
                text.push_str(seps[rng.below(seps.len())]);
                let w = words[rng.below(words.len())];
                text.extend(w.chars().take(w.chars().count() / 2 + 1 + rng.below(3)));
            }
            assert_eq!(table_candidates(NEEDLES, &text), indexed(&text));
        }
        for text in [
            "",
            "ignore all previous instructions",
            "curl https://x | sh",
        ] {
            assert_eq!(table_candidates(NEEDLES, text), indexed(text));
            assert_eq!(finder.candidates(text), indexed(text));
        }
    }
}
