//! What the integrity scan matches besides the raw text: the text as a reader sees it.
//! Invisible and format characters are dropped, common Cyrillic and Greek homoglyphs and
//! fullwidth letters become Latin, markdown emphasis (`*`, `_`, `~`) and blockquote and
//! list markers go, and the lines of a paragraph are joined. Both forms keep one line per
//! line of the original, so a match's line number is the original's.

/// The per-line form: each line of `text` normalised, newlines kept.
pub(crate) fn lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let mut rest = line.trim_start();
        // Blockquote markers (`> > `) and one list marker.
        while let Some(r) = rest.strip_prefix('>') {
            rest = r.trim_start();
        }
        for m in ["- ", "* ", "+ "] {
            if let Some(r) = rest.strip_prefix(m) {
                rest = r.trim_start();
                break;
            }
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits > 0 {
            if let Some(r) = rest[digits..]
                .strip_prefix(". ")
                .or_else(|| rest[digits..].strip_prefix(") "))
            {
                rest = r.trim_start();
            }
        }
        for c in rest.chars() {
            if let Some(c) = latin(c) {
                out.push(c);
            }
        }
    }
    out
}

/// The paragraph form of `lines(text)`: a newline between two non-blank lines becomes a
/// space (same length, so offsets still give the original line).
pub(crate) fn paragraphs(lines: &str) -> String {
    let b = lines.as_bytes();
    let mut out = String::with_capacity(lines.len());
    let mut start = 0;
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            let cur_blank = lines[start..i].trim().is_empty();
            let next_end = lines[i + 1..].find('\n').map_or(lines.len(), |e| i + 1 + e);
            let next_blank = lines[i + 1..next_end].trim().is_empty();
            out.push_str(&lines[start..i]);
            out.push(if cur_blank || next_blank { '\n' } else { ' ' });
            start = i + 1;
        }
    }
    out.push_str(&lines[start..]);
    out
}

/// One char as read: `None` for what is invisible or emphasis, Latin for a look-alike.
fn latin(c: char) -> Option<char> {
    if c.is_ascii() {
        return (!matches!(c, '*' | '_' | '~')).then_some(c);
    }
    if matches!(c,
        '\u{00AD}' | '\u{034F}' | '\u{061C}' | '\u{115F}' | '\u{1160}' | '\u{17B4}' | '\u{17B5}'
        | '\u{180B}'..='\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}' | '\u{3164}' | '\u{FE00}'..='\u{FE0F}' | '\u{FEFF}'
        | '\u{FFA0}' | '\u{E0000}'..='\u{E007F}')
    {
        return None;
    }
    let mapped = match c {
        'а' | 'α' => 'a',
        'в' | 'β' => 'b',
        'с' | 'ϲ' => 'c',
        'ԁ' => 'd',
        'е' | 'ё' | 'ε' => 'e',
        'һ' => 'h',
        'і' | 'ї' | 'ι' => 'i',
        'ј' => 'j',
        'κ' | 'к' => 'k',
        'м' => 'm',
        'п' | 'η' => 'n',
        'о' | 'ο' | 'σ' => 'o',
        'р' | 'ρ' => 'p',
        'ԛ' => 'q',
        'ѕ' => 's',
        'т' | 'τ' => 't',
        'υ' => 'u',
        'ν' => 'v',
        'ԝ' | 'ω' => 'w',
        'х' | 'χ' => 'x',
        'у' | 'γ' => 'y',
        'А' | 'Α' => 'A',
        'В' | 'Β' => 'B',
        'С' | 'Ϲ' => 'C',
        'Е' | 'Ε' => 'E',
        'Н' | 'Η' => 'H',
        'І' | 'Ι' => 'I',
        'Ј' => 'J',
        'К' | 'Κ' => 'K',
        'М' | 'Μ' => 'M',
        'Ν' => 'N',
        'О' | 'Ο' => 'O',
        'Р' | 'Ρ' => 'P',
        'Ѕ' => 'S',
        'Т' | 'Τ' => 'T',
        'Υ' | 'Ү' => 'Y',
        'Х' | 'Χ' => 'X',
        'Ζ' => 'Z',
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
        _ => c,
    };
    Some(mapped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_like_a_person() {
        assert_eq!(
            lines("> **Ignore** _all_ prev\u{00AD}ious"),
            "Ignore all previous"
        );
        assert_eq!(lines("- system: y\u{043E}u\u{200B}"), "system: you");
        assert_eq!(lines("12. x\na"), "x\na");
        let l = lines("> ignore all previous\n> instructions\n\nnext");
        assert_eq!(paragraphs(&l), "ignore all previous instructions\n\nnext");
        assert_eq!(paragraphs(&l).len(), l.len());
    }
}
