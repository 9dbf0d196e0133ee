//! Instincts that conflict with a convention. The spec removes such an instinct at once: a
//! convention is the project's rule, an instinct a habit learned on the way. Without a model,
//! the conflict is read from the words: what a text recommends (the term after `use`,
//! `prefer`, `always`, `choose`) and what it rules out (the term after `never`, `don't`,
//! `avoid`, `not`, `no`, `without`, `instead of`, `rather than`, `over` after `prefer`; or
//! any `code` named in a clause that says forbidden, banned, not allowed, deprecated). An
//! instinct's action conflicts with a convention's pattern when one recommends a term the
//! other rules out. A term is a backticked span or one word (lowercase, `()` dropped).

use std::collections::BTreeSet;

/// What a text recommends and what it rules out.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Stance {
    pub(crate) recommends: BTreeSet<String>,
    pub(crate) rules_out: BTreeSet<String>,
}

const RECOMMEND: [&str; 7] = [
    "use", "uses", "using", "prefer", "prefers", "always", "choose",
];
const RULE_OUT: [&str; 9] = [
    "never", "don't", "dont", "not", "no", "avoid", "avoids", "without", "stop",
];
const CLAUSE_BANS: [&str; 6] = [
    "forbidden",
    "banned",
    "disallowed",
    "deprecated",
    "prohibited",
    "discouraged",
];
/// Verbs between a marker and its object (`never call unwrap()`).
const VERBS: [&str; 9] = [
    "call", "import", "install", "add", "rely", "depend", "pick", "pass", "go",
];
/// Words that are never a term: what stands between a marker and its object.
const FILLER: [&str; 25] = [
    "the", "a", "an", "to", "of", "for", "in", "on", "at", "with", "be", "is", "are", "it", "this",
    "that", "them", "all", "any", "only", "do", "does", "ever", "more", "than",
];

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// A backticked span.
    Code(String),
    Word(String),
    /// The end of a clause.
    End,
}

/// A term as compared: lowercase, a call's arguments dropped (`time.sleep(1)` is
/// `time.sleep`), punctuation around it trimmed.
fn term(raw: &str) -> String {
    let raw = raw.split_once('(').map_or(raw, |(name, _)| name);
    raw.trim_matches(|c: char| !c.is_alphanumeric() && !"_@#/+-.".contains(c))
        .trim_end_matches(['.', ':'])
        .to_lowercase()
}

/// The text as tokens; `,` `;` `!` `?`, a newline and a `.` or `:` before a space end a
/// clause, except inside parentheses (a list of names is one clause).
fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut depth = 0usize;
    let mut chars = text.chars().peekable();
    let flush = |word: &mut String, out: &mut Vec<Token>| {
        let t = term(word);
        if !t.is_empty() {
            out.push(Token::Word(t));
        }
        word.clear();
    };
    while let Some(c) = chars.next() {
        let ends = match c {
            ',' | ';' | '!' | '?' | '\n' => true,
            '.' | ':' => chars.peek().is_none_or(|n| n.is_whitespace()),
            _ => false,
        };
        if c == '`' {
            flush(&mut word, &mut out);
            let code: String = chars.by_ref().take_while(|&c| c != '`').collect();
            let t = term(&code);
            if !t.is_empty() {
                out.push(Token::Code(t));
            }
        } else if ends {
            flush(&mut word, &mut out);
            if depth == 0 {
                out.push(Token::End);
            }
        } else if c.is_whitespace() || c == '(' || c == ')' {
            flush(&mut word, &mut out);
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => {}
            }
        } else {
            word.push(c);
        }
    }
    flush(&mut word, &mut out);
    out.push(Token::End);
    out
}

/// What `text` recommends and rules out.
pub(crate) fn stance(text: &str) -> Stance {
    let mut s = Stance::default();
    let mut clause: Vec<Token> = Vec::new();
    for t in tokens(text) {
        if t == Token::End {
            read_clause(&clause, &mut s);
            clause.clear();
        } else {
            clause.push(t);
        }
    }
    s
}

/// One clause: markers set the polarity of the next term (ruling out wins over
/// recommending: `never use X`, `always avoid X`); a ban word rules out every code span.
fn read_clause(clause: &[Token], s: &mut Stance) {
    let word = |i: usize| match clause.get(i) {
        Some(Token::Word(w)) => w.as_str(),
        _ => "",
    };
    let bans = (0..clause.len()).any(|i| {
        CLAUSE_BANS.contains(&word(i))
            || (word(i) == "not" && ["allowed", "permitted"].contains(&word(i + 1)))
    });
    // `None`: no marker yet; `Some(true)`: recommend; `Some(false)`: rule out.
    let mut pending: Option<bool> = None;
    let mut preferring = false;
    let mut i = 0;
    while i < clause.len() {
        let w = word(i);
        let two = format!("{w} {}", word(i + 1));
        if two == "instead of" || two == "rather than" {
            pending = Some(false);
            i += 2;
            continue;
        }
        if RULE_OUT.contains(&w) || (preferring && w == "over") {
            pending = Some(false);
        } else if RECOMMEND.contains(&w) {
            preferring |= w.starts_with("prefer");
            pending = Some(pending.unwrap_or(true));
        } else if let Some(positive) = pending {
            let t = match &clause[i] {
                Token::Code(c) => Some(c.clone()),
                Token::Word(w)
                    if w.chars().count() > 1
                        && !FILLER.contains(&w.as_str())
                        && !VERBS.contains(&w.as_str()) =>
                {
                    Some(w.clone())
                }
                _ => None,
            };
            if let Some(t) = t {
                if positive && !bans {
                    s.recommends.insert(t);
                } else {
                    s.rules_out.insert(t);
                }
                pending = None;
            }
        }
        if bans {
            if let Token::Code(c) = &clause[i] {
                s.rules_out.insert(c.clone());
            }
        }
        i += 1;
    }
}

/// The term on which `instinct` (an instinct's action) and `convention` (a convention's
/// pattern) disagree, if any.
pub(crate) fn conflict(instinct: &str, convention: &str) -> Option<String> {
    let a = stance(instinct);
    let b = stance(convention);
    a.recommends
        .intersection(&b.rules_out)
        .chain(a.rules_out.intersection(&b.recommends))
        .next()
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|s| (*s).to_string()).collect()
    }

    #[test]
    fn markers_give_each_term_its_side() {
        let s = stance("Don't use `requests`, use httpx here. Prefer Zustand over Redux; never call unwrap() in library code");
        assert_eq!(s.recommends, set(&["httpx", "zustand"]));
        assert_eq!(s.rules_out, set(&["requests", "redux", "unwrap"]));
        let s = stance("Use httpx instead of requests");
        assert_eq!(
            (s.recommends, s.rules_out),
            (set(&["httpx"]), set(&["requests"]))
        );
    }

    #[test]
    fn a_ban_covers_every_code_span_of_its_clause() {
        let s = stance("All I/O functions use `async def`; blocking calls (`requests`, `open`, `time.sleep`) are forbidden in async modules");
        assert_eq!(s.recommends, set(&["async def"]));
        assert_eq!(s.rules_out, set(&["requests", "open", "time.sleep"]));
    }

    #[test]
    fn conflict_needs_opposite_sides_of_one_term() {
        let convention = "All I/O functions use `async def`; blocking calls (`requests`, `open`, `time.sleep`) are forbidden in async modules";
        assert_eq!(
            conflict("Use `asyncio.sleep` between retries", convention),
            None,
            "a different term"
        );
        assert_eq!(
            conflict("Use `time.sleep(1)` between retries", convention).as_deref(),
            Some("time.sleep")
        );
        assert_eq!(
            conflict("never use `async def` in scripts", convention).as_deref(),
            Some("async def")
        );
        assert_eq!(conflict("prefer httpx over requests", "Use httpx"), None);
        assert_eq!(
            conflict(
                "Run the formatter before committing",
                "Never commit generated files"
            ),
            None
        );
        assert_eq!(
            conflict(
                "Use expect with a message in tests",
                "Don't use unwrap in library code"
            ),
            None
        );
    }
}
