//! The rules read by hand on a short text with no line break (a command, a path, a title):
//! each matcher finds what its rule's flat regex (`rules::compiled_flat`) finds, at the same
//! place and with the same groups, without building a regex. Building the regexes a command
//! with secrets in it triggers was most of that PostToolUse (1.75 M of 2.45 M instructions
//! for a command with three secrets); a matcher reads the text once.
//!
//! Each matcher is the regex written out: the leftmost start from `at` where it matches, and
//! there the regex's own choices (greedy runs; the first alternative that matches). The
//! regexes are written so that no choice is ever taken back, which is what makes this
//! short. `scan::tests::each_matcher_finds_what_its_regex_finds` holds every matcher to its regex on
//! random texts; a rule without a matcher (`None`) keeps its regex.
//!
//! `\b` and `\s` are ASCII here as in the rules (Unicode mode off); `(?u:\s)` is
//! `char::is_whitespace`, the same White_Space property.

use super::groups::Groups;

fn alnum(b: u8) -> bool {
    b.is_ascii_alphanumeric()
}
fn upper_digit(b: u8) -> bool {
    b.is_ascii_uppercase() || b.is_ascii_digit()
}
fn word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}
fn word_dash(b: u8) -> bool {
    word(b) || b == b'-'
}
fn alnum_dash(b: u8) -> bool {
    alnum(b) || b == b'-'
}
fn bearer_char(b: u8) -> bool {
    alnum(b) || b"._~+/-".contains(&b)
}
fn client_char(b: u8) -> bool {
    word_dash(b) || b"./+".contains(&b)
}
fn value_char(b: u8) -> bool {
    word_dash(b) || b"+/=.~!@#$%^&*".contains(&b)
}
/// ASCII `\s`: tab, line feed, vertical tab, form feed, carriage return, space.
fn space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | b' ')
}
fn quote(b: u8) -> bool {
    b == b'"' || b == b'\''
}

/// ASCII `\b` at `i`: a word byte on one side of it and none on the other.
fn boundary(b: &[u8], i: usize) -> bool {
    let before = i
        .checked_sub(1)
        .and_then(|j| b.get(j))
        .is_some_and(|&c| word(c));
    before != b.get(i).is_some_and(|&c| word(c))
}

/// Where the run of `class` bytes from `from` ends.
fn run(b: &[u8], from: usize, class: fn(u8) -> bool) -> usize {
    from + b
        .get(from..)
        .map_or(0, |rest| rest.iter().take_while(|&&c| class(c)).count())
}

/// Where a run of at least `min` bytes of `class` from `from` ends (all of it: greedy).
fn at_least(b: &[u8], from: usize, class: fn(u8) -> bool, min: usize) -> Option<usize> {
    let end = run(b, from, class);
    (end - from >= min).then_some(end)
}

/// Where exactly `n` bytes of `class` from `from` end.
fn exactly(b: &[u8], from: usize, class: fn(u8) -> bool, n: usize) -> Option<usize> {
    let end = from + n;
    b.get(from..end)?.iter().all(|&c| class(c)).then_some(end)
}

/// Where the first of `words` that stands at `at` ends.
fn literal(b: &[u8], at: usize, words: &[&str]) -> Option<usize> {
    words
        .iter()
        .find(|w| {
            b.get(at..)
                .is_some_and(|rest| rest.starts_with(w.as_bytes()))
        })
        .map(|w| at + w.len())
}

/// Where the run of `(?u:\s)` from `from` ends.
fn unicode_spaces(text: &str, from: usize) -> usize {
    text.get(from..).map_or(from, |rest| {
        from + rest
            .char_indices()
            .find(|(_, c)| !c.is_whitespace())
            .map_or(rest.len(), |(i, _)| i)
    })
}

/// The first match of a rule with no groups: `at_start` says where a match starting at a byte
/// ends.
fn first(
    text: &str,
    at: usize,
    at_start: impl Fn(&[u8], usize) -> Option<usize>,
) -> Option<Groups> {
    let b = text.as_bytes();
    (at..b.len()).find_map(|p| at_start(b, p).map(|end| Groups::whole(p..end)))
}

/// `(?:AKIA|ASIA)[0-9A-Z]{16}\b`
pub(super) fn aws_access_key(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let end = exactly(b, literal(b, p, &["AKIA", "ASIA"])?, upper_digit, 16)?;
        boundary(b, end).then_some(end)
    })
}

/// `gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}`
pub(super) fn github_token(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        if let Some(s) = literal(b, p, &["ghp_", "gho_", "ghu_", "ghs_", "ghr_"]) {
            return at_least(b, s, alnum, 20);
        }
        at_least(b, literal(b, p, &["github_pat_"])?, word, 20)
    })
}

/// `glpat-[A-Za-z0-9_\-]{20,}`
pub(super) fn gitlab_token(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        at_least(b, literal(b, p, &["glpat-"])?, word_dash, 20)
    })
}

/// `xox[abposr]-[A-Za-z0-9\-]{10,}`
pub(super) fn slack_token(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let s = literal(b, p, &["xox"])?;
        (b.get(s).is_some_and(|c| b"abposr".contains(c)) && b.get(s + 1) == Some(&b'-'))
            .then_some(())?;
        at_least(b, s + 2, alnum_dash, 10)
    })
}

/// `AIza[0-9A-Za-z_\-]{35}`
pub(super) fn google_api_key(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        exactly(b, literal(b, p, &["AIza"])?, word_dash, 35)
    })
}

/// `(?:sk|rk|pk)_(?:live|test)_[0-9A-Za-z]{16,}`
pub(super) fn stripe_key(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let s = literal(b, p, &["sk_", "rk_", "pk_"])?;
        at_least(b, literal(b, s, &["live_", "test_"])?, alnum, 16)
    })
}

/// `sk-ant-(?:api|admin)[0-9]{2}-[A-Za-z0-9_\-]{95}|sk-(?:ant|proj)-[A-Za-z0-9_\-]{16,}`
pub(super) fn anthropic_openai_key(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let long = || {
            let s = literal(b, literal(b, p, &["sk-ant-"])?, &["api", "admin"])?;
            let s = exactly(b, s, |c| c.is_ascii_digit(), 2)?;
            exactly(b, literal(b, s, &["-"])?, word_dash, 95)
        };
        long().or_else(|| at_least(b, literal(b, p, &["sk-ant-", "sk-proj-"])?, word_dash, 16))
    })
}

/// `sk-[A-Za-z0-9_\-]{20,}`
pub(super) fn sk_key(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        at_least(b, literal(b, p, &["sk-"])?, word_dash, 20)
    })
}

/// `client_secret_[A-Za-z0-9_\-]{6,}|(?P<keep>\bclient_secret["']?\s*[:=]\s*["']?)[A-Za-z0-9_\-./+]{8,}`
pub(super) fn client_secret(text: &str, at: usize) -> Option<Groups> {
    let b = text.as_bytes();
    (at..b.len()).find_map(|p| {
        if let Some(end) =
            literal(b, p, &["client_secret_"]).and_then(|s| at_least(b, s, word_dash, 6))
        {
            return Some(Groups::whole(p..end));
        }
        if !boundary(b, p) {
            return None;
        }
        let value = after_sign(b, literal(b, p, &["client_secret"])?)?;
        let end = at_least(b, value, client_char, 8)?;
        Some(Groups {
            keep: Some(p..value),
            ..Groups::whole(p..end)
        })
    })
}

/// `npm_[A-Za-z0-9]{36}\b`
pub(super) fn npm_token(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let end = exactly(b, literal(b, p, &["npm_"])?, alnum, 36)?;
        boundary(b, end).then_some(end)
    })
}

/// `eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`
pub(super) fn jwt(text: &str, at: usize) -> Option<Groups> {
    first(text, at, |b, p| {
        let header = at_least(b, literal(b, p, &["eyJ"])?, word_dash, 8)?;
        let payload = at_least(b, literal(b, header, &[".eyJ"])?, word_dash, 8)?;
        at_least(b, literal(b, payload, &["."])?, word_dash, 8)
    })
}

/// `(?P<keep>\b(?i:bearer)\s+)[A-Za-z0-9._~+/\-]{16,}=*`
pub(super) fn bearer_token(text: &str, at: usize) -> Option<Groups> {
    let b = text.as_bytes();
    (at..b.len()).find_map(|p| {
        let said = b.get(p..p + 6)?.eq_ignore_ascii_case(b"bearer");
        if !said || !boundary(b, p) {
            return None;
        }
        let token = at_least(b, p + 6, space, 1)?;
        let end = run(b, at_least(b, token, bearer_char, 16)?, |c| c == b'=');
        Some(Groups {
            keep: Some(p..token),
            ..Groups::whole(p..end)
        })
    })
}

/// `(?P<keep>\b(?:[A-Za-z0-9_]*_(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD)|PASSWORD|PASSWD|SECRET|TOKEN)
/// (?u:\s*)=(?u:\s*))(?P<value>…)`, the value as `assigned_value` reads it. The name is a whole
/// word: `\b` before it, and `\s` or `=` after it, which a word goes on with nowhere.
pub(super) fn secret_assignment(text: &str, at: usize) -> Option<Groups> {
    let b = text.as_bytes();
    let mut p = at;
    while p < b.len() {
        if !word(b[p]) || !boundary(b, p) {
            p += 1;
            continue;
        }
        let name_end = run(b, p, word);
        let name = &b[p..name_end];
        let named = ["_KEY", "_SECRET", "_TOKEN", "_PASSWORD", "_PASSWD"]
            .iter()
            .any(|s| name.ends_with(s.as_bytes()))
            || [&b"PASSWORD"[..], b"PASSWD", b"SECRET", b"TOKEN"].contains(&name);
        let sign = unicode_spaces(text, name_end);
        if named && b.get(sign) == Some(&b'=') {
            let value = unicode_spaces(text, sign + 1);
            if let Some(end) = assigned_value(text, value) {
                return Some(Groups {
                    keep: Some(p..value),
                    value: Some(value..end),
                    ..Groups::whole(p..end)
                });
            }
        }
        p = name_end;
    }
    None
}

/// Where the assigned value from `at` ends, the first of:
/// `\\"(?:(?u:[^"\\\n])|\\(?u:[^"\n]))*\\"`, `"(?u:[^"\n])+"`, `'(?u:[^'\n])+'`,
/// `(?u:[^\s"'\[=\\])(?u:[^\s"'])*`.
fn assigned_value(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at..)?;
    if let Some(inner) = rest.strip_prefix("\\\"") {
        let mut chars = inner.char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' | '\n' => break,
                '\\' => match chars.next() {
                    Some((_, '"')) => return Some(at + 2 + i + 2),
                    Some((_, '\n')) | None => break,
                    Some(_) => {}
                },
                _ => {}
            }
        }
    }
    for q in ['"', '\''] {
        if let Some(inner) = rest.strip_prefix(q) {
            let body = inner.find([q, '\n']).unwrap_or(inner.len());
            if body > 0 && inner[body..].starts_with(q) {
                return Some(at + 1 + body + 1);
            }
        }
    }
    let first = rest.chars().next()?;
    if first.is_whitespace() || "\"'[=\\".contains(first) {
        return None;
    }
    let len = rest
        .find(|c: char| c.is_whitespace() || c == '"' || c == '\'')
        .unwrap_or(rest.len());
    Some(at + len)
}

/// `(?P<keep>["']?\b(?P<kname>[A-Za-z0-9_\-]*(?:[Kk]ey|KEY|[Ss]ecret|SECRET|[Pp]assw(?:or)?d
/// |PASSW(?:OR)?D|[Tt]oken|TOKEN))["']?\s*[:=]\s*["']?)(?P<kvalue>[A-Za-z0-9_\-+/=.~!@#$%^&*]{8,})`.
/// The name runs to the end of its run of name bytes (a quote, `\s`, `:` or `=` comes next,
/// none of them a name byte); a later start in the same run has the same end and fails
/// alike, so the search goes on after the run.
pub(super) fn secret_key_value(text: &str, at: usize) -> Option<Groups> {
    const NAMES: [&str; 15] = [
        "key", "Key", "KEY", "secret", "Secret", "SECRET", "passwd", "Passwd", "password",
        "Password", "PASSWD", "PASSWORD", "token", "Token", "TOKEN",
    ];
    let b = text.as_bytes();
    let mut p = at;
    while p < b.len() {
        let name_start = if quote(b[p]) { p + 1 } else { p };
        if !boundary(b, name_start) || !b.get(name_start).is_some_and(|&c| word_dash(c)) {
            p += 1;
            continue;
        }
        let name_end = run(b, name_start, word_dash);
        let name = &b[name_start..name_end];
        if NAMES.iter().any(|n| name.ends_with(n.as_bytes())) {
            if let Some(value) = after_sign(b, name_end) {
                if let Some(end) = at_least(b, value, value_char, 8) {
                    return Some(Groups {
                        keep: Some(p..value),
                        kname: Some(name_start..name_end),
                        kvalue: Some(value..end),
                        ..Groups::whole(p..end)
                    });
                }
            }
        }
        p = name_end;
    }
    None
}

/// `["']?\s*[:=]\s*["']?` from `at`: where the value after the sign starts.
fn after_sign(b: &[u8], at: usize) -> Option<usize> {
    let at = at + usize::from(b.get(at).is_some_and(|&c| quote(c)));
    let sign = run(b, at, space);
    if !b.get(sign).is_some_and(|c| b":=".contains(c)) {
        return None;
    }
    let value = run(b, sign + 1, space);
    Some(value + usize::from(b.get(value).is_some_and(|&c| quote(c))))
}
