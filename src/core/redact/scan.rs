//! Where a regex finds secrets in a text: each match becomes the byte range to replace,
//! after the checks its capture groups ask for.
//!
//! Capture groups: `keep` (a label before the secret) and `tail` (after it) stay in place;
//! `value` must not be trivial; `kvalue` must not be trivial and must hold a letter and a
//! digit; `kname` must name a secret (`rules::secret_name`). A rule may also ask that a match
//! glued to a word look random, and that a secret ending a line take the next line's start
//! with it when that looks like the rest of a wrapped token.

use super::groups::{Groups, Matcher};
use super::rules::{secret_name, Rule};
use super::MARK;
use regex::Regex;
use regex_automata::meta;
use std::ops::Range;

/// A compiled rule: the `regex` crate's, or for a short text one built without a lazy DFA
/// or literal prefilters (`rules::compiled_short`), whose compile and first search cost a
/// fraction (the same matches: both are `regex_automata::meta` regexes), or for a short text
/// on one line the rule read by hand (`flat`), which builds nothing.
#[derive(Clone, Copy)]
pub(super) enum Compiled<'r> {
    Full(&'r Regex),
    Short(&'r meta::Regex),
    Hand(Matcher),
}

impl Compiled<'_> {
    /// The first match in `text` at or after `at` (what is before `at` is still seen by
    /// `\b` and the like).
    pub(super) fn groups_at(self, text: &str, at: usize) -> Option<Groups> {
        match self {
            Compiled::Hand(matcher) => matcher(text, at),
            Compiled::Full(re) => {
                let caps = re.captures_at(text, at)?;
                let span = |name: &str| caps.name(name).map(|m| m.range());
                Some(Groups {
                    whole: caps.get(0)?.range(),
                    keep: span("keep"),
                    tail: span("tail"),
                    value: span("value"),
                    kname: span("kname"),
                    kvalue: span("kvalue"),
                })
            }
            Compiled::Short(re) => {
                let mut caps = re.create_captures();
                re.search_captures(&regex_automata::Input::new(text).range(at..), &mut caps);
                let span = |name: &str| caps.get_group_by_name(name).map(|s| s.range());
                Some(Groups {
                    whole: caps.get_match()?.range(),
                    keep: span("keep"),
                    tail: span("tail"),
                    value: span("value"),
                    kname: span("kname"),
                    kvalue: span("kvalue"),
                })
            }
        }
    }
}

/// A secret found: the range to replace, and where the match began (a kept label included).
pub(super) struct Hit {
    pub(super) secret: Range<usize>,
    pub(super) from: usize,
}

/// The secrets `re` finds in `text`, in order and apart.
pub(super) fn find(re: Compiled<'_>, text: &str, rule: Option<&Rule>) -> Vec<Hit> {
    let mut found = Vec::new();
    let mut at = 0;
    while at <= text.len() {
        let Some(caps) = re.groups_at(text, at) else {
            break;
        };
        let m = caps.whole.clone();
        let after = if m.is_empty() {
            next_char(text, m.end)
        } else {
            m.end
        };
        match judge(&caps, text, rule) {
            Verdict::Secret(secret) => {
                at = after.max(secret.end);
                found.push(Hit {
                    secret,
                    from: m.start,
                });
            }
            Verdict::Skip => at = after,
            Verdict::RetryFrom(pos) => at = pos.max(next_char(text, m.start)),
        }
    }
    found
}

enum Verdict {
    Secret(Range<usize>),
    /// Not a secret; go on after the match.
    Skip,
    /// Not a secret, but a secret may start inside the match: search again from here.
    RetryFrom(usize),
}

fn judge(caps: &Groups, text: &str, rule: Option<&Rule>) -> Verdict {
    let m = &caps.whole;
    let part = |r: &Range<usize>| text.get(r.clone()).unwrap_or("");
    if let Some(value) = &caps.value {
        if trivial(part(value)) {
            return Verdict::Skip;
        }
    }
    let start = caps.keep.as_ref().map_or(m.start, |k| k.end);
    let mut end = caps.tail.as_ref().map_or(m.end, |t| t.start);
    if let Some(value) = &caps.kvalue {
        if let Some(name) = &caps.kname {
            if !secret_name(part(name)) {
                // The value may itself be the name of the next pair (`a: api_key: …`).
                return Verdict::RetryFrom(value.start);
            }
        }
        // A wrapped value is judged whole: its digit may be on the next line.
        if let Some(class) = rule.and_then(|r| r.wraps) {
            end = unwrap_tail(text, end, class);
        }
        let v = text.get(value.start..end).unwrap_or("");
        let secret_like =
            v.bytes().any(|b| b.is_ascii_digit()) && v.bytes().any(|b| b.is_ascii_alphabetic());
        if trivial(v) || !secret_like {
            return Verdict::Skip;
        }
    }
    let Some(rule) = rule else {
        return Verdict::Secret(start..end);
    };
    if rule.random_if_glued
        && glued(text, start)
        && !looks_random(text.get(start..end).unwrap_or(""))
    {
        return Verdict::RetryFrom(next_char(text, m.start));
    }
    if let (Some(class), None) = (rule.wraps, &caps.tail) {
        end = unwrap_tail(text, end, class);
    }
    Verdict::Secret(start..end)
}

/// A value that cannot be a secret worth hiding: already redacted, a number, a few
/// characters, a `$VAR` reference.
pub(super) fn trivial(value: &str) -> bool {
    let v = value.trim_matches(|c| c == '"' || c == '\'' || c == '\\');
    v.is_empty()
        || v.contains(MARK)
        || v.len() <= 4
        || v.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        || v.starts_with('$')
}

/// Whether a word character stands right before `at`.
fn glued(text: &str, at: usize) -> bool {
    at.checked_sub(1)
        .and_then(|i| text.as_bytes().get(i))
        .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
}

/// Upper and lower case letters and a digit: a generated key, not an identifier.
fn looks_random(s: &str) -> bool {
    let has = |f: fn(&u8) -> bool| s.as_bytes().iter().any(f);
    has(u8::is_ascii_uppercase) && has(u8::is_ascii_lowercase) && has(u8::is_ascii_digit)
}

/// Where a secret ending at `end` really ends when it was wrapped: while it runs to the end
/// of its line and the next line starts with `class` bytes that look like the rest of a
/// token (`token_like`) and end there (then a
/// space, the line's end, a quote or closing punctuation), that start belongs to it.
/// `NEXT_VAR=1`, `and more` or `Done.` on the next line are left alone.
fn unwrap_tail(text: &str, mut end: usize, class: fn(u8) -> bool) -> usize {
    let b = text.as_bytes();
    while end > 0 && b.get(end - 1).is_some_and(|&c| class(c)) {
        let rest = &b[end..];
        let brk = if rest.starts_with(b"\r\n") {
            2
        } else if rest.starts_with(b"\n") {
            1
        } else {
            break;
        };
        let from = end + brk;
        let mut to = from;
        while b.get(to).is_some_and(|&c| class(c)) {
            to += 1;
        }
        let mut past = to;
        while b.get(past) == Some(&b'=') {
            past += 1;
        }
        let closes = b
            .get(past)
            .is_none_or(|c| c.is_ascii_whitespace() || b"\"'`,;)]}>&|<\\".contains(c));
        if to == from || !closes || !token_like(&b[from..to]) {
            break;
        }
        end = past;
    }
    end
}

/// A digit, a lower-case letter before an upper-case one (`xYz`), or two upper-case letters
/// and a lower-case one (`OCJphi`): not a word such as `Done`, `NEXT` or `and`.
fn token_like(seg: &[u8]) -> bool {
    let upper = seg.iter().filter(|c| c.is_ascii_uppercase()).count();
    let lower = seg.iter().position(u8::is_ascii_lowercase);
    seg.iter().any(u8::is_ascii_digit)
        || lower.is_some_and(|i| upper >= 2 || seg[i..].iter().any(u8::is_ascii_uppercase))
}

/// The index of the character after the one at `i` (or `i + 1` past the end).
fn next_char(text: &str, i: usize) -> usize {
    text.get(i..)
        .and_then(|s| s.chars().next())
        .map_or(i + 1, |c| i + c.len_utf8())
}

#[cfg(test)]
mod tests {
    use super::super::rules::{compiled_flat, RULES};
    use super::*;
    use crate::core::clock::Xorshift;

    #[test]
    fn a_wrapped_tail_is_taken_only_when_it_looks_like_one() {
        let alnum: fn(u8) -> bool = |b| b.is_ascii_alphanumeric();
        let t = "tok abcdef\nXy9z end";
        assert_eq!(unwrap_tail(t, 10, alnum), 15);
        assert_eq!(unwrap_tail("tok abcdef\nOCJphi", 10, alnum), 17);
        for t in [
            "tok abcdef\nand more",
            "tok abcdef\nDone.",
            "tok abcdef\nNEXT2=1",
            "tok abcdef\nTODO",
        ] {
            assert_eq!(unwrap_tail(t, 10, alnum), 10, "{t}");
        }
        assert_eq!(unwrap_tail("tok abcdef\r\na1\nb2", 10, alnum), 17);
    }

    #[test]
    fn random_looking() {
        assert!(looks_random("sk-aB3dEfGh"));
        assert!(!looks_random("sk-image-transition-duration"));
        assert!(!looks_random("sk_test_parse_http2_frames"));
    }

    /// What each rule's texts are made of: its own words, the runs its tokens are made of,
    /// and what stands around a secret (signs, quotes, blanks of both kinds, escapes, letters
    /// beyond ASCII).
    fn pieces(rule: &str) -> (&'static [&'static str], Vec<&'static str>) {
        let own: &[&str] = match rule {
            "aws-access-key" => &["AKIA", "ASIA", "AKI"],
            "github-token" => &[
                "ghp_",
                "gho_",
                "ghu_",
                "ghs_",
                "ghr_",
                "ghx_",
                "github_pat_",
                "gh",
            ],
            "gitlab-token" => &["glpat-", "glpat"],
            "slack-token" => &["xoxb-", "xoxp-", "xoxz-", "xox", "xoxa"],
            "google-api-key" => &["AIza", "AIz"],
            "stripe-key" => &[
                "sk_", "rk_", "pk_", "live_", "test_", "sk_live_", "pk_test_",
            ],
            "anthropic-openai-key" => {
                &["sk-ant-", "sk-proj-", "api", "admin", "03", "sk-ant-api03-"]
            }
            "sk-key" => &["sk-", "sk", "-"],
            "client-secret" => &[
                "client_secret",
                "client_secret_",
                "client_secret=",
                "xclient_secret",
            ],
            "npm-token" => &["npm_", "npm"],
            "jwt" => &[
                "eyJ",
                ".eyJ",
                ".",
                "ey",
                "eyJhbGciOiJI.eyJ",
                "eyJhbGciOiJI.eyJzdWIiOiJi.",
                "eyJhbGci.eyJzdWIiOiJi.",
                "eyJhbG.eyJzdWIiOiJi.",
            ],
            "bearer-token" => &[
                "Bearer ", "bearer", "BEARER", "bEaReR", "Bearer\t", "xBearer ",
            ],
            "secret-assignment" => &[
                "KEY",
                "_KEY",
                "SECRET",
                "_SECRET",
                "TOKEN",
                "_TOKEN",
                "PASSWORD",
                "_PASSWD",
                "PASSWD",
                "API",
                "DB_",
                "=",
                "==",
                "\\\"",
                "\\\\",
                "\\",
                "API_TOKEN=\\\"",
                "X_KEY = \\\"",
                "SECRET='",
                "PASSWD=\"",
                "\\\"",
                "\\\"",
                "\\\\\\\"",
            ],
            "secret-key-value" => &[
                "key", "Key", "KEY", "kEY", "secret", "Secret", "password", "Passwd", "PASSWORD",
                "token", "Token", "api_", "api-", "x-", ":", "=", ":=",
            ],
            _ => &[],
        };
        let around = [
            " ", " ", "  ", "\t", "\u{b}", "\u{c}", "\u{a0}", "\u{2003}", "=", ":", "\"", "'",
            "\\\"", "[", "@", "/", "+", ".", "-", "_", "$", "é", "ß", "x", "Q", "7", "=", "==",
            "\u{85}", "\u{2028}", "\u{3000}", "\"\"", "''",
        ];
        (own, own.iter().chain(&around).copied().collect())
    }

    /// A run of token characters of a length near a rule's bound, most often of the rule's
    /// own characters.
    fn run(rng: &mut Xorshift, rule: &str) -> String {
        const ALPHABETS: [&str; 5] = [
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789",
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-",
            "abcdefXYZ0123._~+/-",
            "abcXYZ019_-+/=.~!@#$%^&*",
        ];
        const LENGTHS: [usize; 18] = [
            1, 3, 5, 6, 7, 8, 9, 10, 15, 16, 17, 19, 20, 21, 35, 36, 37, 95,
        ];
        let own = match rule {
            "aws-access-key" => 1,
            "gitlab-token" | "google-api-key" | "anthropic-openai-key" | "sk-key" | "jwt" => 2,
            "bearer-token" => 3,
            "secret-assignment" | "secret-key-value" | "client-secret" => 4,
            _ => 0,
        };
        let pick = if rng.below(4) == 0 {
            rng.below(ALPHABETS.len())
        } else {
            own
        };
        let alphabet = ALPHABETS[pick].as_bytes();
        let n = LENGTHS[rng.below(LENGTHS.len())] + usize::from(rng.below(4) == 0);
        (0..n)
            .map(|_| char::from(alphabet[rng.below(alphabet.len())]))
            .collect()
    }

    /// Every matcher finds what its rule's flat regex finds, at the same place with the same
    /// groups, on random one-line texts built around the rule's words; each finds something
    /// often enough that the comparison means something.
    #[test]
    fn each_matcher_finds_what_its_regex_finds() {
        let mut rng = Xorshift::new(0x5eed_f1a7_0bad_cafe);
        for (i, rule) in RULES.iter().enumerate() {
            let Some(hand) = rule.by_hand else {
                continue;
            };
            let regex = Compiled::Short(compiled_flat(i).unwrap());
            let (own, pieces) = pieces(rule.name);
            let mut found = 0;
            let texts = 5000;
            for _ in 0..texts {
                let mut text = String::new();
                for _ in 0..=rng.below(10) {
                    match rng.below(4) {
                        0 => text.push_str(&run(&mut rng, rule.name)),
                        1 => {
                            text.push_str(own[rng.below(own.len())]);
                            text.push_str(&run(&mut rng, rule.name));
                        }
                        _ => text.push_str(pieces[rng.below(pieces.len())]),
                    }
                }
                let mut at = 0;
                while at <= text.len() {
                    let want = regex.groups_at(&text, at);
                    let got = Compiled::Hand(hand).groups_at(&text, at);
                    assert_eq!(got, want, "{} on {text:?} from {at}", rule.name);
                    found += usize::from(at == 0 && want.is_some());
                    let Some(m) = want else { break };
                    at = m.whole.start + 1;
                    while !text.is_char_boundary(at) {
                        at += 1;
                    }
                }
                // From inside a word too, where `\b` looks at the byte before `at`.
                for _ in 0..2 {
                    let mut at = rng.below(text.len() + 1);
                    while !text.is_char_boundary(at) {
                        at += 1;
                    }
                    let want = regex.groups_at(&text, at);
                    let got = Compiled::Hand(hand).groups_at(&text, at);
                    assert_eq!(got, want, "{} on {text:?} from {at}", rule.name);
                }
            }
            eprintln!("{}: {found} of {texts} texts matched", rule.name);
            assert!(
                found * 50 >= texts,
                "{}: {found} of {texts} texts matched",
                rule.name
            );
        }
    }
}
