//! The 5-layer body: its layers, the claim-provenance gate, raw-output hints and the cap.
//!
//! A layer starts at a line `## Layer N` (any title after the number). Layer 1 (git state)
//! and Layer 5 (failed approaches) are required and never cut; when a block is over the cap,
//! Layer 4 is cut first, then Layer 3, then Layer 2, then anything else, each cut ending in a
//! `<!-- session-truncated: … -->` marker line.

/// Words that claim something happened; a line holding one (any case, anywhere in a word,
/// as datarim's `grep -Ei` reads it) must carry `verified:` or `assumed:`.
pub(crate) const CLAIM_KEYWORDS: [&str; 5] = ["pushed", "merged", "deployed", "green", "passing"];

/// The layers that are never cut.
const PROTECTED: [u32; 2] = [1, 5];

/// The number of a `## Layer N` heading line.
pub(crate) fn layer_number(line: &str) -> Option<u32> {
    let rest = line.strip_prefix("## Layer ")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    if digits.is_empty() {
        return None;
    }
    digits.parse().ok()
}

/// Whether `text` has a `## Layer n` heading.
pub(crate) fn has_layer(text: &str, n: u32) -> bool {
    text.lines().any(|l| layer_number(l) == Some(n))
}

/// The text of layer `n` (without its heading), if present.
pub(crate) fn layer_text(text: &str, n: u32) -> Option<&str> {
    segments(text)
        .into_iter()
        .find(|s| s.layer == Some(n))
        .map(|s| s.content)
}

/// One untagged claim.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Claim {
    /// 1-based line number (counted from the `first_line` given).
    pub(crate) line: usize,
    pub(crate) keyword: &'static str,
    pub(crate) text: String,
}

impl Claim {
    /// The one-line report.
    pub(crate) fn describe(&self) -> String {
        let shown: String = self.text.trim().chars().take(100).collect();
        format!(
            "line {}: untagged claim ({:?}): {shown:?} — add `verified: <evidence>` or `assumed: <why>` on the same line",
            self.line, self.keyword
        )
    }
}

/// The claim keyword in `line`, if any.
pub(crate) fn claim_keyword(line: &str) -> Option<&'static str> {
    let lower = line.to_ascii_lowercase();
    CLAIM_KEYWORDS.into_iter().find(|k| lower.contains(k))
}

/// Whether `line` carries a provenance tag, `verified:` or `assumed:` (lower case, as
/// datarim's `grep -v -E '(verified:|assumed:)'` reads it) at the start of a word.
pub(crate) fn is_tagged(line: &str) -> bool {
    has_tag(line, "verified:") || has_tag(line, "assumed:")
}

/// Whether `tag` occurs in `line` at the start of a word: at the line's start or after a
/// character that is not a letter, a digit, `_` or `-`. So `unverified:`,
/// `non-verified:` and `reassumed:` are not tags; `(verified:`, `` `verified:` `` and
/// `**assumed:**` are.
pub(crate) fn has_tag(line: &str, tag: &str) -> bool {
    tag_positions(line, tag).next().is_some()
}

/// The byte offsets in `line` where `tag` occurs at the start of a word (see `has_tag`).
pub(crate) fn tag_positions<'a>(line: &'a str, tag: &'a str) -> impl Iterator<Item = usize> + 'a {
    line.match_indices(tag).map(|(at, _)| at).filter(|&at| {
        line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '-'))
    })
}

/// Every line with a claim keyword and no provenance tag. Line numbers start at
/// `first_line`.
pub(crate) fn untagged_claims(text: &str, first_line: usize) -> Vec<Claim> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !is_tagged(l))
        .filter_map(|(i, l)| {
            claim_keyword(l).map(|keyword| Claim {
                line: first_line + i,
                keyword,
                text: l.to_string(),
            })
        })
        .collect()
}

/// Longest line that does not look like pasted tool output.
const LONG_LINE: usize = 400;
/// Longest fenced block that does not look like a dump.
const LONG_FENCE: usize = 40;

/// Hints that the body holds raw tool output (long lines, long fenced dumps, stack traces),
/// which the spec forbids: it should be summarised. Advisory; never fails the save.
pub(crate) fn raw_output_hints(body: &str) -> Vec<String> {
    let mut hints = Vec::new();
    let mut fence_start: Option<usize> = None;
    for (i, line) in body.lines().enumerate() {
        let n = i + 1;
        let len = line.chars().count();
        if len > LONG_LINE {
            hints.push(format!(
                "body line {n} is {len} characters long: it looks like raw tool output; summarise it instead"
            ));
        }
        if line.contains("Traceback (most recent call last)") || line.starts_with("goroutine ") {
            hints.push(format!(
                "body line {n} starts a stack trace: summarise the error instead of pasting it"
            ));
        }
        if line.trim_start().starts_with("```") {
            match fence_start.take() {
                None => fence_start = Some(n),
                Some(start) if n - start - 1 > LONG_FENCE => hints.push(format!(
                    "body lines {start}–{n}: a fenced block of {} lines looks like a raw dump (command output, log, diff); summarise it instead",
                    n - start - 1
                )),
                Some(_) => {}
            }
        }
    }
    hints
}

/// A part of the body: the text before the first layer, or one layer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Segment<'a> {
    /// The layer number; `None` for the text before the first layer.
    pub(crate) layer: Option<u32>,
    /// The heading line with its line break (empty for the text before the first layer).
    pub(crate) heading: &'a str,
    /// The rest.
    pub(crate) content: &'a str,
}

/// Splits a body at its `## Layer N` headings.
pub(crate) fn segments(body: &str) -> Vec<Segment<'_>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut current: Option<(u32, usize)> = None; // (layer, heading end)
    let mut off = 0;
    for piece in body.split_inclusive('\n') {
        if let Some(n) = layer_number(piece.trim_end_matches(['\n', '\r'])) {
            push_segment(&mut out, body, start, off, current);
            start = off;
            current = Some((n, off + piece.len()));
        }
        off += piece.len();
    }
    push_segment(&mut out, body, start, body.len(), current);
    out
}

fn push_segment<'a>(
    out: &mut Vec<Segment<'a>>,
    body: &'a str,
    start: usize,
    end: usize,
    current: Option<(u32, usize)>,
) {
    match current {
        Some((n, heading_end)) => out.push(Segment {
            layer: Some(n),
            heading: &body[start..heading_end],
            content: &body[heading_end..end],
        }),
        None if end > start => out.push(Segment {
            layer: None,
            heading: "",
            content: &body[start..end],
        }),
        None => {}
    }
}

/// A body after the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Capped {
    pub(crate) text: String,
    /// What was cut: (part name, bytes dropped).
    pub(crate) cut: Vec<(String, usize)>,
}

/// The smallest the body can get: its protected layers and headings. Returned when even
/// that is over `max`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct TooBig {
    pub(crate) min_bytes: usize,
}

/// Cuts `body` to at most `max` bytes: Layer 4, then 3, then 2, then other text; never
/// Layer 1 or 5. Cuts fall on line breaks and end with a marker line.
pub(crate) fn cap(body: &str, max: usize) -> Result<Capped, TooBig> {
    if body.len() <= max {
        return Ok(Capped {
            text: body.to_string(),
            cut: Vec::new(),
        });
    }
    let segs = segments(body);
    let mut kept: Vec<&str> = segs.iter().map(|s| s.content).collect();
    let mut cut: Vec<usize> = vec![0; segs.len()];
    let size = |kept: &[&str], cut: &[usize]| -> usize {
        segs.iter()
            .enumerate()
            .map(|(i, s)| {
                s.heading.len()
                    + kept[i].len()
                    + if cut[i] > 0 {
                        marker(s.layer, cut[i]).len()
                    } else {
                        0
                    }
            })
            .sum()
    };
    let mut order: Vec<usize> = (0..segs.len())
        .filter(|&i| !segs[i].layer.is_some_and(|n| PROTECTED.contains(&n)))
        .collect();
    order.sort_by_key(|&i| (cut_rank(segs[i].layer), std::cmp::Reverse(i)));
    for i in order {
        let total = size(&kept, &cut);
        if total <= max {
            break;
        }
        let content = segs[i].content;
        if content.is_empty() {
            continue;
        }
        let over = total - max;
        let marker_len = marker(segs[i].layer, content.len()).len();
        let allowed = content.len().saturating_sub(over + marker_len);
        let head = prefix_at_line(content, allowed);
        kept[i] = head;
        cut[i] = content.len() - head.len();
    }
    let total = size(&kept, &cut);
    if total > max {
        return Err(TooBig { min_bytes: total });
    }
    let mut text = String::with_capacity(total);
    let mut report = Vec::new();
    for (i, s) in segs.iter().enumerate() {
        text.push_str(s.heading);
        text.push_str(kept[i]);
        if cut[i] > 0 {
            text.push_str(&marker(s.layer, cut[i]));
            report.push((part_name(s.layer), cut[i]));
        }
    }
    Ok(Capped { text, cut: report })
}

/// Which parts go first: Layer 4, 3, 2, then any other layer, then the text before Layer 1.
fn cut_rank(layer: Option<u32>) -> u8 {
    match layer {
        Some(4) => 0,
        Some(3) => 1,
        Some(2) => 2,
        Some(_) => 3,
        None => 4,
    }
}

fn part_name(layer: Option<u32>) -> String {
    layer.map_or_else(|| "text before the layers".into(), |n| format!("Layer {n}"))
}

/// The marker line after a cut.
fn marker(layer: Option<u32>, bytes: usize) -> String {
    format!(
        "<!-- session-truncated: {} lost {bytes} bytes to honour the 32 KB cap -->\n",
        part_name(layer)
    )
}

/// The longest prefix of `text` of at most `max` bytes that ends with a line break.
fn prefix_at_line(text: &str, max: usize) -> &str {
    if max >= text.len() {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    match text[..end].rfind('\n') {
        Some(nl) => &text[..=nl],
        None => "",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BODY: &str = "## Layer 1 — Git State\nrepo: .  HEAD: abc1234\n\n## Layer 2 — Active Tasks\nT-0001 | wip\n\n## Layer 3 — Related Files\n- src/a.rs\n\n## Layer 4 — Open Questions\nNone.\n\n## Layer 5 — Failed Approaches\nTried X.\n";

    #[test]
    fn layers_are_found_by_heading() {
        assert_eq!(layer_number("## Layer 1 — Git State"), Some(1));
        assert_eq!(layer_number("## Layer 5"), Some(5));
        assert_eq!(layer_number("## Layer 12x"), Some(12));
        assert_eq!(layer_number("## Layer one"), None);
        assert_eq!(layer_number(" ## Layer 1"), None);
        assert!(has_layer(BODY, 1) && has_layer(BODY, 5));
        assert!(!has_layer("text ## Layer 1\n", 1));
        assert_eq!(layer_text(BODY, 3), Some("- src/a.rs\n\n"));
        let segs = segments("intro\n## Layer 1\nx\n## Layer 5\ny");
        assert_eq!(segs.len(), 3);
        assert_eq!(segs[0].layer, None);
        assert_eq!(segs[2].content, "y");
    }

    #[test]
    fn each_claim_keyword_needs_a_tag() {
        for k in CLAIM_KEYWORDS {
            let line = format!("The branch was {k} today.");
            let found = untagged_claims(&line, 7);
            assert_eq!(found.len(), 1, "{k}");
            assert_eq!(found[0].line, 7);
            assert_eq!(found[0].keyword, k);
            assert!(found[0].describe().starts_with("line 7: untagged claim"));
            assert!(untagged_claims(&format!("{line} verified: CI run 12"), 1).is_empty());
            assert!(untagged_claims(&format!("{line} assumed: not re-run"), 1).is_empty());
            let upper = line.to_uppercase();
            assert_eq!(untagged_claims(&upper, 1).len(), 1, "case-insensitive: {k}");
        }
        assert!(untagged_claims("Nothing claimed here.\n", 1).is_empty());
        // The tag must be on the same line.
        assert_eq!(
            untagged_claims("Tests passing.\nverified: yes\n", 1).len(),
            1
        );
    }

    #[test]
    fn tags_must_start_a_word() {
        for tagged in [
            "verified: CI run 7",
            "green (verified: run 7)",
            "pushed `verified:` abc1234",
            "merged **assumed:** PR open",
            "deployed; assumed: not checked",
            "green\tverified: x",
            "green —verified: x",
            "unverified: no, then verified: yes",
        ] {
            assert!(is_tagged(tagged), "{tagged}");
        }
        for untagged in [
            "CI is green, unverified: nobody looked",
            "deployed, unassumed: x",
            "passing (non-verified: flaky)",
            "pushed re_verified: x",
            "merged 2verified: x",
            "green Verified: by eye",
            "green verified - no colon",
        ] {
            assert!(!is_tagged(untagged), "{untagged}");
            assert_eq!(untagged_claims(untagged, 1).len(), 1, "{untagged}");
        }
    }

    #[test]
    fn raw_output_is_hinted() {
        assert!(raw_output_hints(BODY).is_empty());
        let long = format!("## Layer 3\n{}\n", "x".repeat(600));
        assert!(raw_output_hints(&long)[0].contains("line 2 is 600 characters"));
        let fenced = format!("```\n{}```\n", "log line\n".repeat(50));
        assert!(raw_output_hints(&fenced)[0].contains("fenced block of 50 lines"));
        let short = format!("```\n{}```\n", "ok\n".repeat(5));
        assert!(raw_output_hints(&short).is_empty());
        assert!(!raw_output_hints("Traceback (most recent call last):\n").is_empty());
    }

    #[test]
    fn body_under_the_cap_is_unchanged() {
        let c = cap(BODY, BODY.len()).unwrap();
        assert_eq!(c.text, BODY);
        assert!(c.cut.is_empty());
    }

    #[test]
    fn cap_cuts_layer_4_then_3_and_keeps_1_and_5() {
        let big = format!(
            "## Layer 1 — Git\nHEAD: protectedhash\n## Layer 2\nkeep me\n## Layer 3\n{}## Layer 4\n{}## Layer 5 — Failed\nprotected-approach\n",
            "file line\n".repeat(500),
            "question\n".repeat(500)
        );
        let c = cap(&big, 3000).unwrap();
        assert!(c.text.len() <= 3000, "{}", c.text.len());
        assert!(c.text.contains("HEAD: protectedhash"));
        assert!(c.text.contains("protected-approach"));
        assert!(c.text.contains("keep me"));
        assert_eq!(c.cut[0].0, "Layer 3");
        assert_eq!(c.cut[1], ("Layer 4".to_string(), 4500));
        assert!(c
            .text
            .contains("<!-- session-truncated: Layer 4 lost 4500 bytes to honour the 32 KB cap -->\n## Layer 5"));
        // Layer 3 kept what fit, whole lines only.
        let l3 = layer_text(&c.text, 3).unwrap();
        assert!(l3.lines().filter(|l| *l == "file line").count() > 100);
        assert!(l3
            .lines()
            .all(|l| l == "file line" || l.starts_with("<!--")));

        // Only Layer 4 over: Layer 3 untouched.
        let c = cap(&big, big.len() - 100).unwrap();
        assert_eq!(c.cut.len(), 1);
        assert_eq!(c.cut[0].0, "Layer 4");
        assert!(c.text.len() <= big.len() - 100);
    }

    #[test]
    fn protected_layers_alone_over_the_cap_is_an_error() {
        let big = format!(
            "## Layer 1\n{}## Layer 3\nx\n## Layer 5\ny\n",
            "sha line\n".repeat(1000)
        );
        let err = cap(&big, 2000).unwrap_err();
        assert!(err.min_bytes > 9000);
    }

    #[test]
    fn multibyte_text_is_cut_on_line_and_char_boundaries() {
        let big = format!(
            "## Layer 1\na\n## Layer 3\n{}## Layer 5\nb\n",
            "äöü€\n".repeat(400)
        );
        let c = cap(&big, 1000).unwrap();
        assert!(c.text.len() <= 1000);
        assert!(c.text.ends_with("## Layer 5\nb\n"));
    }
}
