//! Base64 and hex runs that decode to text: a secret base64'd into a Kubernetes Secret, a
//! basic-auth header or an env dump, or hex-dumped, is caught by redacting the decoded text.
//!
//! One pass over the bytes finds the runs of the base64 alphabets (standard and URL-safe,
//! padded or not) 16 characters or longer; only those are decoded, and decoding stops at the
//! first byte that is not text (binary data, digests and ordinary identifiers stop within a
//! few bytes). Lines of a wrapped blob (`base64` wraps at 76 columns, `xxd -p` at 60) are
//! decoded as one.

use std::ops::Range;

/// Shorter runs are left alone: ordinary words and identifiers.
const MIN_RUN: usize = 16;

/// A run of the text and the text it decodes to.
pub struct Encoded {
    pub range: Range<usize>,
    pub text: String,
}

/// The runs of `text` that decode (as hex or base64) to UTF-8 text, in order.
pub fn runs(text: &str) -> Vec<Encoded> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // One buffer for every attempt: most runs are identifiers that stop within bytes.
    let mut buf = Vec::new();
    // Count the run each byte extends, without a branch the data decides, and look at a
    // run only once it is long enough: the scan costs about one table load per byte.
    let (mut i, mut len) = (0, 0);
    while let Some(&c) = b.get(i) {
        len = if SEXTETS[usize::from(c)] == NONE {
            0
        } else {
            len + 1
        };
        i += 1;
        if len < MIN_RUN {
            continue;
        }
        let run = run_at(b, i - MIN_RUN);
        i = run.end;
        len = 0;
        if let Some(found) = block(b, &run, &mut buf).or_else(|| single(b, &run, &mut buf)) {
            i = i.max(found.range.end);
            out.push(found);
        }
    }
    out
}

/// The run of base64 characters starting at `start`, with up to two `=` of padding.
fn run_at(b: &[u8], start: usize) -> Range<usize> {
    let mut end = start;
    while b.get(end).is_some_and(|&c| sextet(c).is_some()) {
        end += 1;
    }
    let body = end;
    while end < body + 2 && b.get(end) == Some(&b'=') {
        end += 1;
    }
    start..end
}

/// One run on its own: hex when its tail is hex (after `0x` or a glued `id_`), else base64
/// read from its start or up to three characters in (a glued `x`, or the `n` of a
/// JSON-escaped `\n`).
fn single(b: &[u8], run: &Range<usize>, buf: &mut Vec<u8>) -> Option<Encoded> {
    let s = &b[run.clone()];
    let found = |from: usize, buf: &Vec<u8>| {
        Some(Encoded {
            range: run.start + from..run.end,
            text: String::from_utf8(buf.clone()).ok()?,
        })
    };
    let mut from = s
        .iter()
        .rposition(|c| !c.is_ascii_hexdigit())
        .map_or(0, |p| p + 1);
    from += (s.len() - from) % 2;
    if s.len() - from >= MIN_RUN {
        buf.clear();
        let mut check = TextCheck::default();
        if hex(&s[from..], &mut check, buf) && check.done() {
            return found(from, buf);
        }
    }
    for off in (0..4).take_while(|&off| s.len() - off >= MIN_RUN) {
        buf.clear();
        let mut check = TextCheck::default();
        if base64(&s[off..], &mut check, buf) && check.done() {
            return found(off, buf);
        }
    }
    segment(b, run, buf)
}

/// Slashes looked at in one run: a path is a few folders deep.
const MAX_SLASHES: usize = 8;

/// A run holding `/` that does not decode whole may be a path (`/` is a base64 character):
/// its segments between slashes, one after another, are tried as runs of their own, so a
/// blob that is one folder or file name of a path (`src/<base64>/x.rs`) is found.
fn segment(b: &[u8], run: &Range<usize>, buf: &mut Vec<u8>) -> Option<Encoded> {
    let s = &b[run.clone()];
    let slashes: Vec<usize> = s
        .iter()
        .enumerate()
        .filter(|(_, &c)| c == b'/')
        .map(|(i, _)| i)
        .take(MAX_SLASHES)
        .collect();
    if slashes.is_empty() {
        return None;
    }
    let starts = std::iter::once(0).chain(slashes.iter().map(|p| p + 1));
    for from in starts {
        let ends = slashes
            .iter()
            .copied()
            .filter(|&q| q > from)
            .chain(std::iter::once(s.len()));
        for to in ends.filter(|&to| to - from >= MIN_RUN) {
            buf.clear();
            let mut check = TextCheck::default();
            if base64(&s[from..to], &mut check, buf) && check.done() {
                return Some(Encoded {
                    range: run.start + from..run.start + to,
                    text: String::from_utf8(buf.clone()).ok()?,
                });
            }
        }
    }
    None
}

/// A run that fills its line, with the runs filling the lines after it: a wrapped blob.
/// `None` unless at least two lines decode, each on its own, to text.
fn block(b: &[u8], first: &Range<usize>, buf: &mut Vec<u8>) -> Option<Encoded> {
    if !fills_line(b, first) {
        return None;
    }
    let is_hex = b[first.clone()].iter().all(u8::is_ascii_hexdigit);
    let decode = |r: &Range<usize>, check: &mut TextCheck, buf: &mut Vec<u8>| {
        let s = &b[r.clone()];
        if is_hex {
            s.iter().all(u8::is_ascii_hexdigit) && hex(s, check, buf)
        } else {
            base64(s, check, buf)
        }
    };
    // A line that the next one can continue: whole groups, no padding.
    let full = |r: &Range<usize>| {
        let s = &b[r.clone()];
        if is_hex {
            s.len().is_multiple_of(2)
        } else {
            s.len().is_multiple_of(4) && !s.ends_with(b"=")
        }
    };
    // Lines are as wide as the first; a shorter one is the last.
    let width = first.len();
    buf.clear();
    let mut check = TextCheck::default();
    if !decode(first, &mut check, buf) {
        return None;
    }
    let mut last = first.clone();
    let mut lines = 1;
    while full(&last) && last.len() == width {
        let Some(next) = next_line_run(b, last.end).filter(|r| r.len() <= width) else {
            break;
        };
        let (len, before) = (buf.len(), check);
        if !decode(&next, &mut check, buf) {
            buf.truncate(len);
            check = before;
            break;
        }
        last = next;
        lines += 1;
    }
    if lines < 2 || !check.done() {
        return None;
    }
    Some(Encoded {
        range: first.start..last.end,
        text: String::from_utf8(buf.clone()).ok()?,
    })
}

/// The run filling the line after the line break at `end`, if there is one.
fn next_line_run(b: &[u8], end: usize) -> Option<Range<usize>> {
    let rest = b.get(end..)?;
    let brk = if rest.starts_with(b"\r\n") {
        2
    } else if rest.starts_with(b"\n") {
        1
    } else {
        return None;
    };
    let mut start = end + brk;
    while b.get(start).is_some_and(|&c| c == b' ' || c == b'\t') {
        start += 1;
    }
    b.get(start).and_then(|&c| sextet(c))?;
    let run = run_at(b, start);
    fills_line(b, &run).then_some(run)
}

/// Whether only indentation stands before the run on its line and nothing after it.
fn fills_line(b: &[u8], r: &Range<usize>) -> bool {
    b.get(r.end).is_none_or(|&c| c == b'\n' || c == b'\r')
        && b[..r.start]
            .iter()
            .rev()
            .take_while(|&&c| c != b'\n')
            .all(|&c| c == b' ' || c == b'\t')
}

/// The value of a base64 character, standard (`+/`) or URL-safe (`-_`).
fn sextet(c: u8) -> Option<u8> {
    let v = SEXTETS[usize::from(c)];
    (v != NONE).then_some(v)
}

const NONE: u8 = 0xff;

/// `sextet` as a table: the scan looks every byte of the text up in it.
const SEXTETS: [u8; 256] = {
    let mut t = [NONE; 256];
    let mut i: u8 = 0;
    while i < 26 {
        t[(b'A' + i) as usize] = i;
        t[(b'a' + i) as usize] = 26 + i;
        if i < 10 {
            t[(b'0' + i) as usize] = 52 + i;
        }
        i += 1;
    }
    t[b'+' as usize] = 62;
    t[b'-' as usize] = 62;
    t[b'/' as usize] = 63;
    t[b'_' as usize] = 63;
    t
};

/// `s` decoded as base64, when the whole of it decodes to text.
pub fn base64_text(s: &[u8]) -> Option<String> {
    let mut out = Vec::new();
    let mut check = TextCheck::default();
    (base64(s, &mut check, &mut out) && check.done())
        .then(|| String::from_utf8(out).ok())
        .flatten()
}

/// Decodes base64 (either alphabet, padding optional) onto `out`; `false` at the first
/// byte that is not text.
fn base64(s: &[u8], check: &mut TextCheck, out: &mut Vec<u8>) -> bool {
    let s = s
        .strip_suffix(b"==")
        .or_else(|| s.strip_suffix(b"="))
        .unwrap_or(s);
    if s.len() % 4 == 1 {
        return false;
    }
    for chunk in s.chunks(4) {
        let mut acc: u32 = 0;
        for &c in chunk {
            let Some(v) = sextet(c) else {
                return false;
            };
            acc = acc << 6 | u32::from(v);
        }
        acc <<= 6 * (4 - chunk.len());
        let [_, x, y, z] = acc.to_be_bytes();
        for &byte in [x, y, z].iter().take(chunk.len() - 1) {
            if !check.take(byte) {
                return false;
            }
            out.push(byte);
        }
    }
    true
}

/// Decodes hex (even length) onto `out`; `false` at the first byte that is not text.
fn hex(s: &[u8], check: &mut TextCheck, out: &mut Vec<u8>) -> bool {
    let digit = |c: u8| char::from(c).to_digit(16);
    for pair in s.chunks(2) {
        let [h, l] = *pair else {
            return false;
        };
        let Some(byte) = digit(h)
            .zip(digit(l))
            .and_then(|(h, l)| u8::try_from(h * 16 + l).ok())
        else {
            return false;
        };
        if !check.take(byte) {
            return false;
        }
        out.push(byte);
    }
    true
}

/// Decoded bytes checked as they come: text (no control character but tab and line
/// breaks) in well-formed UTF-8 sequences, so that binary data stops within a few bytes.
#[derive(Clone, Copy, Default)]
struct TextCheck {
    /// Continuation bytes the current character still needs.
    need: u8,
}

impl TextCheck {
    fn take(&mut self, c: u8) -> bool {
        if self.need > 0 {
            self.need -= 1;
            return c & 0xc0 == 0x80;
        }
        self.need = match c {
            0xc2..=0xdf => 1,
            0xe0..=0xef => 2,
            0xf0..=0xf4 => 3,
            0x80.. => return false,
            _ => return (c >= 0x20 && c != 0x7f) || c == b'\t' || c == b'\n' || c == b'\r',
        };
        true
    }

    /// Whether the last character is whole.
    fn done(self) -> bool {
        self.need == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(s: &str) -> Vec<(String, String)> {
        runs(s)
            .into_iter()
            .map(|e| (s[e.range].to_string(), e.text))
            .collect()
    }

    #[test]
    fn decodes_base64_both_alphabets_and_hex() {
        // "hello world, just text" and "what? >>> yes" (URL-safe: `_`, `-`).
        let t =
            "a aGVsbG8gd29ybGQsIGp1c3QgdGV4dA== b d2hhdD8gPj4-IHllcw== c 68656c6c6f20776f726c64";
        assert_eq!(
            texts(t),
            [
                (
                    "aGVsbG8gd29ybGQsIGp1c3QgdGV4dA==".into(),
                    "hello world, just text".into()
                ),
                ("d2hhdD8gPj4-IHllcw==".into(), "what? >>> yes".into()),
                ("68656c6c6f20776f726c64".into(), "hello world".into()),
            ]
        );
    }

    #[test]
    fn binary_digests_and_identifiers_are_not_text() {
        let t = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855 \
            ordinary_code_and_prose_are_untouched /usr/local/lib/python3/site-packages \
            123e4567-e89b-12d3-a456-426614174000 iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB";
        assert!(runs(t).is_empty());
    }

    #[test]
    fn a_wrapped_blob_is_one_run() {
        // "line one of a long text, wrapped at twenty" in 20-character lines.
        let t = "x:\n  bGluZSBvbmUgb2YgYSBs\n  b25nIHRleHQsIHdyYXBw\n  ZWQgYXQgdHdlbnR5\nend";
        let found = runs(t);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].text, "line one of a long text, wrapped at twenty");
        assert!(t[found[0].range.clone()].starts_with("bGlu"));
        assert!(t[found[0].range.clone()].ends_with("bnR5"));
    }
}
