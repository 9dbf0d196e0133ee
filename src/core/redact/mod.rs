//! The secret redactor. Every byte baton persists or injects passes through it.
//!
//! Each rule has literal triggers; its regex runs only when one of them occurs in the text,
//! so a text with no secret costs one substring search per trigger (this runs on every
//! PostToolUse). Regexes are compiled on first use (`rules`); on a short text with no line
//! break (a command, a path) most rules are read by hand instead (`flat`: the same matches,
//! nothing to compile). A match is replaced by
//! `[REDACTED]`; rules with capture groups named `keep` and `tail` leave those parts (a
//! variable name, a user name, the `@` of a URL) in place (`scan`).
//!
//! Secrets hidden from the plain rules are looked for in three more ways, each cheap when
//! there is nothing to find: glued to a word (`id_ghp_…`) and wrapped onto the next line
//! (the rules allow both); `%XX`-escaped, by running the rules on the decoded text and
//! replacing where the secret stands in the original (`view`, only when the text holds an
//! escape); base64- or hex-encoded, by decoding the runs of 16 or more base64 characters
//! that decode to text and redacting that text (`encoded`): a run that holds a secret is
//! replaced whole.

mod flat;
mod groups;
mod rules;
mod scan;

#[cfg(test)]
mod corpus;

use crate::core::scan::needles::{self, Finder};
use crate::core::scan::percent::View;
use crate::core::scan::{encoded, Secrets};
use regex::Regex;
use rules::{compiled, compiled_flat, compiled_short, triggered, RULES, SHORT_TEXT};
use std::borrow::Cow;
use std::ops::Range;
use std::sync::OnceLock;

/// What a redacted secret becomes.
pub const MARK: &str = "[REDACTED]";

/// How deep encoded text is decoded: base64 inside base64 (a Secret holding a config that
/// holds a base64'd token) is caught, a third level is not.
const MAX_DEPTH: u8 = 2;

/// A redactor: the built-in rules plus the project's extra patterns.
#[derive(Debug, Default)]
pub struct Redactor {
    extra: Vec<Extra>,
    /// The words the extra patterns need (`core::scan::needles`): a pattern is compiled only the
    /// first time a text holds them (compiling them all cost every hook run half a
    /// millisecond per pattern).
    needles: Option<Finder>,
}

/// One of the project's patterns, compiled on first need (`None`: it does not compile; the
/// config check and `baton doctor` name it).
#[derive(Debug)]
struct Extra {
    pattern: String,
    regex: OnceLock<Option<Regex>>,
}

/// The result of redacting a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redacted {
    /// The text with every secret replaced by `[REDACTED]`.
    pub text: String,
    /// How many secrets were replaced.
    pub count: usize,
}

impl Redactor {
    /// The built-in rules only.
    pub fn builtin() -> Self {
        Redactor::default()
    }

    /// The built-in rules plus `patterns` (invalid ones are skipped; config validation
    /// reports them by key).
    pub fn with_extra(patterns: &[String]) -> Self {
        if patterns.is_empty() {
            return Redactor::default();
        }
        Redactor {
            extra: patterns
                .iter()
                .map(|p| Extra {
                    pattern: p.clone(),
                    regex: OnceLock::new(),
                })
                .collect(),
            needles: Some(Finder::new(
                &patterns
                    .iter()
                    .map(|p| needles::derive(p, needles::Flags::default()))
                    .collect::<Vec<_>>(),
            )),
        }
    }

    /// The extra patterns that may match `text`, compiled.
    fn extras_for(&self, text: &str) -> Vec<&Regex> {
        let Some(finder) = &self.needles else {
            return Vec::new();
        };
        finder
            .candidates(text)
            .into_iter()
            .zip(&self.extra)
            .filter(|(may, _)| *may)
            .filter_map(|(_, e)| e.regex.get_or_init(|| Regex::new(&e.pattern).ok()).as_ref())
            .collect()
    }

    /// Redacts `text`. A token split by a character that a writer later folds into a space
    /// (`core::text::one_line`: a tab, U+2028, NEL, …) or that shows as nothing (a
    /// zero-width space) is found as one split by a line break is (`split_view`); the text
    /// comes back with that character as a line break only where it split a secret.
    pub fn redact(&self, text: &str) -> Redacted {
        let plain = self.redact_at(text, 0);
        let Some(view) = split_view(&plain.text) else {
            return plain;
        };
        let more = self.redact_at(&view, 0);
        if more.count == 0 {
            return plain;
        }
        Redacted {
            text: more.text,
            count: plain.count + more.count,
        }
    }

    /// The names of the built-in rules (for `doctor` and docs/safety.md).
    pub fn rule_names() -> Vec<&'static str> {
        RULES.iter().map(|r| r.name).collect()
    }

    /// Redacts `text`, which is `depth` decodings deep.
    fn redact_at(&self, text: &str, depth: u8) -> Redacted {
        let mut work = Work::new(text);
        // Secrets that show only once %XX escapes are decoded: an escape in the secret or
        // in its label. Those the plain text shows are left to the rules below, which see
        // them whole (`https://u:p%40ss@host`).
        let escaped = View::decoded(&work.text).map(|view| {
            self.find_all(&view.text)
                .into_iter()
                .filter(|hit| view.escaped(&(hit.from..hit.secret.end)))
                .map(|hit| Region::one(view.original(&hit.secret)))
                .collect()
        });
        let has_escapes = escaped.is_some();
        if let Some(regions) = escaped {
            work.apply(regions);
            // Each of these was found by every rule at once and counted once; the rules
            // below must not count it again.
            work.fresh.clear();
        }
        for (i, rule) in RULES.iter().enumerate() {
            if !triggered(rule, &work.text) {
                continue;
            }
            if let Some(re) = compiled_for(i, &work.text) {
                let found = scan::find(re, &work.text, Some(rule));
                work.apply(found.into_iter().map(|h| Region::one(h.secret)).collect());
            }
        }
        for re in self.extras_for(&work.text) {
            let found = scan::find(scan::Compiled::Full(re), &work.text, None);
            work.apply(found.into_iter().map(|h| Region::one(h.secret)).collect());
        }
        if depth < MAX_DEPTH {
            let regions = {
                // Marks hold no `%`: a text without escapes has none after redaction either.
                let view = has_escapes
                    .then(|| View::decoded(&work.text))
                    .flatten()
                    .unwrap_or_else(|| View::plain(&work.text));
                encoded::runs(&view.text)
                    .into_iter()
                    .filter_map(|run| {
                        let inner = self.redact_at(&run.text, depth + 1);
                        (inner.count > 0).then(|| Region {
                            range: view.original(&run.range),
                            count: inner.count,
                        })
                    })
                    .collect()
            };
            work.apply(regions);
        }
        Redacted {
            text: work.text.into_owned(),
            count: work.count,
        }
    }

    /// Every secret any rule finds in `text`, each rule on the same text.
    fn find_all(&self, text: &str) -> Vec<scan::Hit> {
        let mut found = Vec::new();
        for (i, rule) in RULES.iter().enumerate() {
            if !triggered(rule, text) {
                continue;
            }
            if let Some(re) = compiled_for(i, text) {
                found.extend(scan::find(re, text, Some(rule)));
            }
        }
        for re in self.extras_for(text) {
            found.extend(scan::find(scan::Compiled::Full(re), text, None));
        }
        found
    }
}

/// Rule `i`'s regex for `text`: the short one for a short text (`rules::compiled_short`);
/// for a short text on one line the rule read by hand (`flat`), or where it has no such
/// reading, the short regex without its line-break allowances (`rules::compiled_flat`).
fn compiled_for(i: usize, text: &str) -> Option<scan::Compiled<'static>> {
    if text.len() <= SHORT_TEXT && !text.contains(['\n', '\r']) {
        match RULES.get(i)?.by_hand {
            Some(matcher) => Some(scan::Compiled::Hand(matcher)),
            None => compiled_flat(i).map(scan::Compiled::Short),
        }
    } else if text.len() <= SHORT_TEXT {
        compiled_short(i).map(scan::Compiled::Short)
    } else {
        compiled(i).map(scan::Compiled::Full)
    }
}

/// `text` with every run of split characters (`splits_a_token`) that stands between two
/// characters of a token made a line break, which the rules read through (`wrapped!`);
/// `None` when there is none (the common case: one pass over the bytes).
fn split_view(text: &str) -> Option<String> {
    let odd = |b: &u8| (b.is_ascii_control() && *b != b'\n') || !b.is_ascii();
    if !text.as_bytes().iter().any(odd) {
        return None;
    }
    let token =
        |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric() || "_-+/=".contains(c));
    let mut out = String::with_capacity(text.len());
    let mut changed = false;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !splits_a_token(c) {
            out.push(c);
            continue;
        }
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = chars.peek().filter(|(_, d)| splits_a_token(*d)) {
            end = j + d.len_utf8();
            chars.next();
        }
        if token(text[..i].chars().next_back()) && token(text[end..].chars().next()) {
            out.push('\n');
            changed = true;
        } else {
            out.push_str(&text[i..end]);
        }
    }
    changed.then_some(out)
}

/// A character that can stand inside a token without being seen as a break by the rules:
/// what `one_line` folds into a space (white space and control characters other than a
/// space and a line break) and the invisible ones (zero-width, soft hyphen, word joiner).
fn splits_a_token(c: char) -> bool {
    c != ' '
        && c != '\n'
        && (c.is_whitespace()
            || c.is_control()
            || matches!(c, '\u{AD}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}'))
}

/// A range to replace, and how many secrets it holds.
struct Region {
    range: Range<usize>,
    count: usize,
}

impl Region {
    fn one(range: Range<usize>) -> Self {
        Region { range, count: 1 }
    }
}

/// A text being redacted, with the marks this run has put in it.
struct Work<'a> {
    text: Cow<'a, str>,
    /// Where the marks this run put start. A later rule that finds one of them again (a
    /// token that was the password of a URL) counts it, as it always has; a mark that was
    /// in the input counts nothing, so redacting twice finds nothing the second time.
    fresh: Vec<usize>,
    count: usize,
}

impl<'a> Work<'a> {
    fn new(text: &'a str) -> Self {
        Work {
            text: Cow::Borrowed(text),
            fresh: Vec::new(),
            count: 0,
        }
    }

    /// Replaces each region by the mark. Regions that overlap become one; a region that
    /// ends or starts inside a mark takes the whole mark, so a mark is never split.
    fn apply(&mut self, mut regions: Vec<Region>) {
        if regions.is_empty() {
            return;
        }
        for r in &mut regions {
            r.range = widen(&self.text, r.range.clone());
        }
        regions.sort_by_key(|r| (r.range.start, r.range.end));
        let mut merged: Vec<Region> = Vec::with_capacity(regions.len());
        for r in regions {
            match merged.last_mut() {
                Some(last) if r.range.start < last.range.end => {
                    last.range.end = last.range.end.max(r.range.end);
                    last.count = last.count.max(r.count);
                }
                _ => merged.push(r),
            }
        }
        let text = &self.text;
        let mut out = String::with_capacity(text.len());
        let mut fresh = Vec::with_capacity(self.fresh.len() + merged.len());
        let mut old = self.fresh.iter().copied().peekable();
        let mut copied = 0;
        for r in merged {
            while let Some(f) = old.next_if(|&f| f < r.range.start) {
                fresh.push(out.len() + f - copied);
            }
            out.push_str(&text[copied..r.range.start]);
            let again = old.next_if_eq(&r.range.start).is_some();
            while old.next_if(|&f| f < r.range.end).is_some() {}
            let is_mark = &text[r.range.clone()] == MARK;
            if !is_mark || again {
                fresh.push(out.len());
                self.count += r.count;
            }
            out.push_str(MARK);
            copied = r.range.end;
        }
        for f in old {
            fresh.push(out.len() + f - copied);
        }
        out.push_str(&text[copied..]);
        self.text = Cow::Owned(out);
        self.fresh = fresh;
    }
}

/// `r`, grown to take in whole any mark it starts or ends inside.
fn widen(text: &str, mut r: Range<usize>) -> Range<usize> {
    let b = text.as_bytes();
    let n = MARK.len();
    // A mark that starts before `at` and ends after it.
    let around = |at: usize| {
        (at.saturating_sub(n - 1)..at)
            .find(|&p| b.get(p..p + n) == Some(MARK.as_bytes()))
            .filter(|&p| at < p + n)
    };
    if let Some(p) = around(r.start) {
        r.start = p;
    }
    if let Some(p) = around(r.end) {
        r.end = p + n;
    }
    r
}

/// Redacts `text` with the built-in rules.
pub fn redact(text: &str) -> Redacted {
    Redactor::builtin().redact(text)
}

impl Secrets for Redactor {
    fn hide(&self, text: &str) -> (String, usize) {
        let r = self.redact(text);
        (r.text, r.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Test secrets are assembled at run time so this file holds no string a secret scanner
    // would flag.
    fn joined(parts: &[&str]) -> String {
        parts.concat()
    }

    #[test]
    fn every_rule_compiles() {
        for (i, rule) in RULES.iter().enumerate() {
            assert!(compiled(i).is_some(), "rule {} does not compile", rule.name);
            assert!(
                compiled_short(i).is_some(),
                "rule {} (short) does not compile",
                rule.name
            );
            assert!(
                compiled_flat(i).is_some(),
                "rule {} (one line) does not compile",
                rule.name
            );
        }
    }

    /// Issue 37: the regexes built for short texts find what the `regex` crate's find, at
    /// every start, on the corpus (each sample glued, wrapped, split, encoded) and on texts
    /// that hold every rule's trigger.
    #[test]
    fn issue_37_the_short_text_regexes_find_the_same() {
        use corpus::{samples_from, ENCODINGS};
        let mut texts: Vec<String> = Vec::new();
        for s in samples_from(37) {
            for e in ENCODINGS {
                texts.extend(e.apply(&s).into_iter().map(|(t, _)| t));
            }
            texts.push(s.text.clone());
        }
        let triggers: Vec<&str> = RULES
            .iter()
            .flat_map(|r| r.triggers.iter().copied())
            .collect();
        texts.push(format!(
            "{} = 'x1y2z3w4v5' : \"é\" id_ghp_\n{}",
            triggers.join(" "),
            "A".repeat(40)
        ));
        let mut compared = 0;
        for text in texts.iter().filter(|t| t.len() <= rules::SHORT_TEXT) {
            for (i, rule) in RULES.iter().enumerate() {
                let (full, short) = (compiled(i).unwrap(), compiled_for(i, text).unwrap());
                let hits = |re| {
                    scan::find(re, text, Some(rule))
                        .into_iter()
                        .map(|h| (h.from, h.secret))
                        .collect::<Vec<_>>()
                };
                assert_eq!(
                    hits(scan::Compiled::Full(full)),
                    hits(short),
                    "{} on {text:?}",
                    rule.name
                );
                compared += 1;
            }
        }
        assert!(compared > 1000, "{compared}");
        let one_line = texts
            .iter()
            .filter(|t| t.len() <= rules::SHORT_TEXT && !t.contains(['\n', '\r']))
            .count();
        assert!(one_line > 50, "{one_line} texts on one line");
    }

    #[test]
    fn each_listed_pattern_is_removed() {
        let cases = [
            joined(&["AKIA", "IOSFODNN7EXAMPLE"]),
            joined(&[
                "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\nabc\n-----END RSA ",
                "PRIVATE KEY-----",
            ]),
            joined(&["-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA"]),
            joined(&["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghs_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["gho_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghu_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&["ghr_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"]),
            joined(&[
                "github_pat_",
                "11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz",
            ]),
            joined(&["sk-", "abcdefghijklmnopqrstuvwxyz012345"]),
            joined(&["sk-ant-", "api03-abcdefghijklmnopqrstuvwxyz-0123456789"]),
            joined(&["sk-proj-", "abcdefghijklmnopqrstuvwxyz0123456789"]),
            joined(&["client_secret_", "abcdef123456"]),
            joined(&["glpat-", "abcdefghij0123456789"]),
            joined(&["xoxb-", "1234567890-abcdefghij"]),
            joined(&["xoxp-", "1234567890-abcdefghij"]),
            joined(&["AIza", "SyA1234567890abcdefghijklmnopqrstuv"]),
            joined(&["sk_live_", "abcdefghijklmnop1234"]),
            joined(&["rk_live_", "abcdefghijklmnop1234"]),
            joined(&["npm_", "abcdefghijklmnopqrstuvwxyz0123456789"]),
            joined(&[
                "eyJ",
                "hbGciOiJIUzI1NiJ9.eyJ",
                "zdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            ]),
        ];
        for secret in &cases {
            let text = format!("before {secret} after");
            let r = redact(&text);
            assert!(
                !r.text.contains(secret.as_str()),
                "not removed: {secret}\n{}",
                r.text
            );
            assert!(r.text.contains(MARK), "{secret}");
            assert!(r.text.starts_with("before "), "{}", r.text);
            assert!(r.count >= 1);
        }
    }

    #[test]
    fn contextual_rules_keep_the_label() {
        let bearer = joined(&["Authorization: Bearer ", "abcdefghijklmnop0123456789"]);
        assert_eq!(redact(&bearer).text, "Authorization: Bearer [REDACTED]");
        let url = joined(&[
            "git clone https://alice:",
            "hunter2pass@example.com/repo.git",
        ]);
        assert_eq!(
            redact(&url).text,
            "git clone https://alice:[REDACTED]@example.com/repo.git"
        );
        let env = joined(&[
            "export OPENAI_API_KEY=",
            "abc123def456\nDB_PASSWORD='p4ss w0rd'\nPASSWORD=",
            "x9y8z7",
        ]);
        let r = redact(&env);
        assert_eq!(
            r.text,
            "export OPENAI_API_KEY=[REDACTED]\nDB_PASSWORD=[REDACTED]\nPASSWORD=[REDACTED]"
        );
        assert_eq!(r.count, 3);
        let token = joined(&["GITHUB_TOKEN=\"", "abc def\""]);
        assert_eq!(redact(&token).text, "GITHUB_TOKEN=[REDACTED]");
    }

    #[test]
    fn ordinary_code_and_prose_are_untouched() {
        let text = r#"
commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39 (HEAD -> main)
id: 123e4567-e89b-12d3-a456-426614174000
let max_token = tokens.len(); // the token budget
fn secret_key(&self) -> &str { &self.key }
data: aGVsbG8gd29ybGQsIHRoaXMgaXMganVzdCBiYXNlNjQ=
See https://example.com/docs/api:v2 and task-sk-12 in the backlog.
const API_KEY_HEADER: &str = "x-api-key";
if password == "" { return Err(e) }
The PASSWORD field is required.
Bearer tokens are sent in the Authorization header.
sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
"#;
        let r = redact(text);
        assert_eq!(r.count, 0, "{}", r.text);
        assert_eq!(r.text, text);
    }

    #[test]
    fn key_value_secrets_in_config_json_and_yaml() {
        let cases = [
            (
                joined(&[
                    "aws_secret_access_key = ",
                    "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                ]),
                "aws_secret_access_key = [REDACTED]",
            ),
            (
                joined(&["{\"api_key\": \"", "a1b2c3d4e5f6g7h8\"}"]),
                "{\"api_key\": \"[REDACTED]\"}",
            ),
            (
                joined(&["password: ", "hunter2hunter2"]),
                "password: [REDACTED]",
            ),
            (
                joined(&["client_secret: '", "Zx9yW8vU7tS6'"]),
                "client_secret: '[REDACTED]'",
            ),
            (
                joined(&["API_KEY=\\\"", "abc def\\\""]),
                "API_KEY=[REDACTED]",
            ),
            (
                joined(&["curl https://:", "tok3nvalue@example.com"]),
                "curl https://:[REDACTED]@example.com",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(redact(&text).text, want, "{text}");
        }
    }

    #[test]
    fn code_that_names_keys_is_left_alone() {
        let text = "MAX_TOKEN = 4096\nSORT_KEY=name\nPRIMARY_KEY = 'id'\nif API_KEY == \"\" { }\n\
            struct C { password: String, api_key: Option<String> }\nlet token = get_token();\n\
            secret: SecretString,\nAPI_KEY=$API_KEY\nmax_tokens: 4096\n";
        let r = redact(text);
        assert_eq!(r.text, text);
        assert_eq!(r.count, 0);
    }

    #[test]
    fn an_orphan_key_body_is_removed() {
        let text = joined(&[
            "log start\nMIIEowIBAAKCAQEAx7\nabcdefghijklmnopqrstuvwxyz012345\n-----END RSA ",
            "PRIVATE KEY-----\ntest failed\n",
        ]);
        let r = redact(&text);
        assert_eq!(r.text, "log start\n[REDACTED]\ntest failed\n");
    }

    #[test]
    fn extra_patterns_apply() {
        let r = Redactor::with_extra(&["ACME-[0-9]{6}".to_string()]).redact("id ACME-123456 ok");
        assert_eq!(r.text, "id [REDACTED] ok");
        assert_eq!(r.count, 1);
    }

    /// A project's pattern is compiled only once a text holds the words it needs (each cost
    /// every hook run half a millisecond); one with no such words, or that does not build, is
    /// handled as before.
    #[test]
    fn issue_15_extra_patterns_compile_only_when_their_words_occur() {
        let red = Redactor::with_extra(&[
            "ACME-[0-9]{6}".to_string(),
            "[0-9]{3}-[0-9]{4}".to_string(),
            "(".to_string(),
        ]);
        let compiled = |r: &Redactor| -> Vec<bool> {
            r.extra.iter().map(|e| e.regex.get().is_some()).collect()
        };
        assert_eq!(red.redact("cargo test --quiet").count, 0);
        assert_eq!(compiled(&red), vec![false, true, true]);
        let r = red.redact("id acme-123456, ACME-654321 and 555-0100");
        assert_eq!(r.text, "id acme-123456, [REDACTED] and [REDACTED]");
        assert_eq!(compiled(&red), vec![true, true, true]);
    }

    #[test]
    fn redaction_is_idempotent() {
        let once = redact(&joined(&[
            "TOKEN=",
            "abc ghp_",
            "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789",
        ]))
        .text;
        let twice = redact(&once);
        assert_eq!(twice.text, once);
        assert_eq!(twice.count, 0);
    }
    fn ghp() -> String {
        joined(&["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"])
    }

    #[test]
    fn issue_10_base64_secrets_in_a_kubernetes_secret_are_replaced_whole() {
        let env = joined(&["API_KEY=", "Zx9yW8vU7tS6rQ5p\nDEBUG=1\n"]);
        let text = format!(
            "apiVersion: v1\nkind: Secret\ndata:\n  token: {}\n  config: {}\n  user: {}\n",
            corpus::b64(ghp().as_bytes()),
            corpus::b64(env.as_bytes()),
            corpus::b64(b"alice"),
        );
        let r = redact(&text);
        assert_eq!(
            r.text,
            "apiVersion: v1\nkind: Secret\ndata:\n  token: [REDACTED]\n  config: [REDACTED]\n  \
             user: YWxpY2U=\n"
        );
        assert_eq!(r.count, 2);
    }

    #[test]
    fn issue_10_encoded_secrets_in_headers_dumps_and_layers() {
        let basic = format!(
            "Authorization: Basic {}",
            corpus::b64(format!("alice:{}", ghp()).as_bytes())
        );
        assert_eq!(redact(&basic).text, "Authorization: Basic [REDACTED]");
        // base64 of base64, as a Secret holding a config that holds a token.
        let twice = corpus::b64(corpus::b64(ghp().as_bytes()).as_bytes());
        assert_eq!(redact(&format!("v: {twice}")).text, "v: [REDACTED]");
        // An env dump base64'd and wrapped at 76 columns, as `base64` prints it.
        let dump = joined(&[
            "HOME=/home/ada\nSHELL=/bin/zsh\nLANG=en_US.UTF-8\nOPENAI_API_KEY=",
            "sk-",
            "abcdefghijklmnopqrstuvwxyz012345\nPATH=/usr/bin\n",
        ]);
        let b = corpus::b64(dump.as_bytes());
        let wrapped: Vec<&str> = b
            .as_bytes()
            .chunks(76)
            .map(|c| std::str::from_utf8(c).unwrap())
            .collect();
        assert!(wrapped.len() > 1);
        let r = redact(&format!("$ env | base64\n{}\n$ ", wrapped.join("\n")));
        assert_eq!(r.text, "$ env | base64\n[REDACTED]\n$ ");
        // Hex after `0x`, and base64 glued to the `n` of a JSON-escaped line break.
        let hex = format!("key = 0x{}", corpus::hex(ghp().as_bytes()));
        assert_eq!(redact(&hex).text, "key = 0x[REDACTED]");
        let json = format!("{{\"out\": \"ok\\n{}\"}}", corpus::b64(ghp().as_bytes()));
        assert_eq!(redact(&json).text, "{\"out\": \"ok\\n[REDACTED]\"}");
    }

    #[test]
    fn issue_10_url_encoding_and_plain_escapes() {
        let form = joined(&[
            "grant_type=x&client_secret%3D",
            "Zx9yW8vU7tS6rQ5p&scope=read",
        ]);
        assert!(!redact(&form).text.contains("Zx9yW8vU7tS6rQ5p"));
        let tok = format!("GET /cb?t={}", ghp().replace('_', "%5F"));
        let r = redact(&tok);
        assert_eq!((r.text.as_str(), r.count), ("GET /cb?t=[REDACTED]", 1));
        // An escape inside a password the plain rule sees whole: one secret, once.
        let url = joined(&["https://alice:", "p%40ssw0rd%21@example.com"]);
        let r = redact(&url);
        assert_eq!(
            (r.text.as_str(), r.count),
            ("https://alice:[REDACTED]@example.com", 1)
        );
        // An escape in the label, a password the plain rule finds again: still one.
        let url = joined(&["http://%25DOMAIN:", "foobar99@example.com/"]);
        let r = redact(&url);
        assert_eq!(
            (r.text.as_str(), r.count),
            ("http://%25DOMAIN:[REDACTED]@example.com/", 1)
        );
    }

    #[test]
    fn issue_10_a_token_ending_a_line_leaves_the_next_line_alone() {
        let cases = [
            (format!("{}\nand more", ghp()), "[REDACTED]\nand more"),
            (format!("{}\nDone.", ghp()), "[REDACTED]\nDone."),
            (
                joined(&["API_KEY=", "abc123def456\nDB2_HOST=db\nNEXT=1"]),
                "API_KEY=[REDACTED]\nDB2_HOST=db\nNEXT=1",
            ),
            (
                joined(&["password: ", "hunter2hunter2\nretries3: 5"]),
                "password: [REDACTED]\nretries3: 5",
            ),
            (
                joined(&["DB_PASSWORD='p4ss w0rd'", "\nx9y8z7"]),
                "DB_PASSWORD=[REDACTED]\nx9y8z7",
            ),
        ];
        for (text, want) in cases {
            assert_eq!(redact(&text).text, want, "{text}");
        }
    }

    #[test]
    fn issue_10_generic_prefixes_glued_to_a_word_must_look_random() {
        let text = "mask-image-transition-duration-200ms task_test_parsehttp2frames \
            risk-assessment-framework-v2 google_client_secret_file_path";
        assert_eq!(redact(text).text, text);
        let glued = joined(&["id_sk-", "aB3dEfGh1jKlMn0pQrStUvWx"]);
        assert_eq!(redact(&glued).text, "id_[REDACTED]");
    }

    #[test]
    fn a_token_in_a_url_password_counts_twice_once() {
        // The token rule and the URL rule both fire, as they always have; redacting the
        // result again finds nothing.
        let text = format!("git push https://x:{}@example.invalid", ghp());
        let r = redact(&text);
        assert_eq!(r.text, "git push https://x:[REDACTED]@example.invalid");
        assert_eq!(r.count, 2);
        assert_eq!(redact(&r.text).count, 0);
    }

    #[test]
    fn a_token_split_by_a_character_a_writer_folds_is_found() {
        let tok = ghp();
        let (a, b) = tok.split_at(16);
        for sep in [
            "\u{2028}",
            "\u{85}",
            "\t",
            "\u{200B}",
            "\u{2029}",
            "\u{A0}",
            "\r",
            "\u{200B}\u{200B}",
        ] {
            let r = redact(&format!("summary {a}{sep}{b} done"));
            assert_eq!(r.count, 1, "{sep:?}: {}", r.text);
            assert!(
                !r.text.contains(&b[..12]) && !r.text.contains(&a[4..]),
                "{sep:?}: {}",
                r.text
            );
        }
        // Elsewhere such a character is left as it is.
        let t = "a\tb\u{2028}c 👩\u{200D}💻 x\u{A0}y";
        assert_eq!(redact(t).text, t);
    }

    #[test]
    fn a_mark_is_never_split() {
        let r = Redactor::with_extra(&["TED\\] tail".to_string()]).redact("a [REDACTED] tail");
        assert_eq!(r.text, "a [REDACTED]");
    }
}
