//! A text with its `%XX` escapes decoded, and the way back from the decoded text to the
//! original: a secret in a query string or a form body (`token=ghp%5F…`,
//! `API_KEY%3D…`) shows only once decoded, and is replaced where it stands in the original.
//!
//! Only escapes of printable ASCII, tab and line breaks are decoded, so the decoded text is
//! UTF-8 whenever the original is and every other byte maps to itself.

use std::borrow::Cow;
use std::ops::Range;

/// A view of a text: the text itself, or its %-decoded form with a map back.
pub struct View<'a> {
    pub text: Cow<'a, str>,
    /// For each byte of `text`, where it starts in the original; empty when `text` is the
    /// original.
    map: Vec<usize>,
    len: usize,
}

impl<'a> View<'a> {
    /// The text as it is.
    pub fn plain(text: &'a str) -> Self {
        View {
            text: Cow::Borrowed(text),
            map: Vec::new(),
            len: text.len(),
        }
    }

    /// The text with its `%XX` escapes decoded; `None` when it has none to decode. One
    /// pass; a text without `%` costs one byte search.
    pub fn decoded(text: &'a str) -> Option<Self> {
        let b = text.as_bytes();
        let first = text.find('%')?;
        if !b[first..].windows(3).any(|w| escape(w).is_some()) {
            return None;
        }
        let mut out = Vec::with_capacity(b.len());
        let mut map = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            let (c, step) = b
                .get(i..i + 3)
                .and_then(escape)
                .map_or((b[i], 1), |c| (c, 3));
            out.push(c);
            map.push(i);
            i += step;
        }
        Some(View {
            text: Cow::Owned(String::from_utf8(out).ok()?),
            map,
            len: text.len(),
        })
    }

    /// The original range a range of the view stands for.
    pub fn original(&self, r: &Range<usize>) -> Range<usize> {
        if self.map.is_empty() {
            return r.clone();
        }
        let at = |i: usize| self.map.get(i).copied().unwrap_or(self.len);
        at(r.start)..at(r.end)
    }

    /// Whether a range of the view holds a decoded escape (differs from the original).
    pub fn escaped(&self, r: &Range<usize>) -> bool {
        self.original(r).len() != r.len()
    }
}

/// The byte a `%XX` escape stands for, when it is printable ASCII, a tab or a line break.
fn escape(w: &[u8]) -> Option<u8> {
    let [b'%', h, l] = *w else {
        return None;
    };
    let hex = |c: u8| char::from(c).to_digit(16);
    let c = u8::try_from(hex(h)? * 16 + hex(l)?).ok()?;
    (c == b'\t' || c == b'\n' || c == b'\r' || (0x20..0x7f).contains(&c)).then_some(c)
}

/// `text` with its `%XX` escapes of printable ASCII decoded; `None` when it has none.
pub fn decoded_text(text: &str) -> Option<String> {
    View::decoded(text).map(|v| v.text.into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_printable_escapes_and_maps_back() {
        let v = View::decoded("a%5Fb%FFc%2").unwrap();
        assert_eq!(v.text, "a_b%FFc%2");
        assert_eq!(v.original(&(1..2)), 1..4);
        assert_eq!(v.original(&(0..3)), 0..5);
        assert_eq!(v.original(&(3..9)), 5..11);
        assert!(v.escaped(&(0..3)));
        assert!(!v.escaped(&(3..9)));
        assert!(View::decoded("100% sure, %zz").is_none());
    }
}
