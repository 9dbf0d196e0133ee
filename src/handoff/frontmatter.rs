//! The artefact's blocks and their front matter.
//!
//! An artefact is one or more blocks; each save appends one. A block is a front matter
//! between `---` lines followed by the 5-layer body:
//!
//! ```text
//! ---
//! artifact: session-handoff
//! schema_version: 1
//! session_id: SESSION-20261130-101500
//! captured_at: 2026-11-30T10:15:00Z
//! captured_by: agent
//! recommended_next: /dr-next TUNE-0420
//! next_action: Continue phase P2.
//! active_tasks:
//!   - TUNE-0420
//! ---
//!
//! ## Layer 1 — Git State
//! …
//! ```
//!
//! The front matter is line-based like datarim's (`key: value`, list items `  - x`), so
//! datarim's grep-based validator reads it. A value that plain YAML would misread is written
//! double-quoted (JSON escaping, which is also valid YAML); the reader undoes that.

use std::collections::BTreeMap;

/// What the writer puts in a block's front matter.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FrontMatter {
    pub(crate) session_id: String,
    pub(crate) captured_at: String,
    pub(crate) captured_by: String,
    pub(crate) recommended_next: String,
    pub(crate) next_action: String,
    pub(crate) active_tasks: Vec<String>,
}

/// The scalar keys every block must have, in the order they are written.
pub(crate) const REQUIRED_SCALARS: [&str; 7] = [
    "artifact",
    "schema_version",
    "session_id",
    "captured_at",
    "captured_by",
    "recommended_next",
    "next_action",
];

/// The front matter text, both fences included, each on its own line.
///
/// Written by hand, not with serde_yaml_ng: datarim's validator reads it with grep and awk,
/// line by line (`key: value` at the start of a line, `active_tasks:` alone on its line, each
/// task `  - x` indented by two blanks, fences exactly `---`), and datarim's writer prints it
/// with one printf per field in this order. A YAML serializer picks its own quoting and list
/// indentation (`- x` at the margin). `scalar` quotes only what plain YAML would misread, so
/// datarim's reader and a YAML reader see the same values.
pub(crate) fn render(fm: &FrontMatter) -> String {
    let mut out = String::from("---\nartifact: session-handoff\nschema_version: 1\n");
    for (key, value) in [
        ("session_id", &fm.session_id),
        ("captured_at", &fm.captured_at),
        ("captured_by", &fm.captured_by),
        ("recommended_next", &fm.recommended_next),
        ("next_action", &fm.next_action),
    ] {
        out.push_str(&format!("{key}: {}\n", scalar(value)));
    }
    out.push_str("active_tasks:\n");
    for task in &fm.active_tasks {
        out.push_str(&format!("  - {}\n", scalar(task)));
    }
    out.push_str("---\n");
    out
}

/// A value as written: plain when YAML reads it back as the same string, else double-quoted.
fn scalar(value: &str) -> String {
    if plain_is_safe(value) {
        value.to_string()
    } else {
        serde_json::Value::String(value.to_string()).to_string()
    }
}

fn plain_is_safe(value: &str) -> bool {
    if value.is_empty()
        || value.trim() != value
        || value.starts_with('"')
        || value.starts_with('\'')
        || value.chars().any(char::is_control)
    {
        return false;
    }
    match serde_yaml_ng::from_str::<serde_yaml_ng::Value>(&format!("k: {value}")) {
        Ok(serde_yaml_ng::Value::Mapping(m)) => {
            m.len() == 1 && m.get("k").and_then(serde_yaml_ng::Value::as_str) == Some(value)
        }
        _ => false,
    }
}

/// Reads a value back: undoes the quoting of `scalar` (and YAML single quotes).
pub(crate) fn unquote(raw: &str) -> String {
    let raw = raw.trim();
    if raw.starts_with('"') {
        if let Ok(s) = serde_json::from_str::<String>(raw) {
            return s;
        }
    }
    if raw.len() >= 2 && raw.starts_with('\'') && raw.ends_with('\'') {
        return raw[1..raw.len() - 1].replace("''", "'");
    }
    raw.to_string()
}

/// One block of an artefact.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block<'a> {
    /// 1-based line number of the block's first line in the file.
    pub(crate) first_line: usize,
    /// The front matter lines between the fences; `None` when the block has none (only the
    /// first block can lack one) or it is never closed.
    pub(crate) front: Option<Vec<&'a str>>,
    /// 1-based line number of the body's first line.
    pub(crate) body_line: usize,
    /// The body.
    pub(crate) body: &'a str,
}

/// A parsed front matter: scalars and lists, in a line-based reading.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Fields {
    pub(crate) scalars: BTreeMap<String, String>,
    pub(crate) lists: BTreeMap<String, Vec<String>>,
    /// Lines that are neither `key: value`, `key:` nor a list item.
    pub(crate) odd_lines: Vec<String>,
}

impl Fields {
    /// A scalar, unquoted.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.scalars.get(key).map(String::as_str)
    }
}

/// Parses front matter lines.
pub(crate) fn parse_fields(lines: &[&str]) -> Fields {
    let mut f = Fields::default();
    let mut list_key: Option<String> = None;
    for line in lines {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let t = line.trim_start();
        if let Some(k) = &list_key {
            if let Some(item) = t.strip_prefix("- ").or((t == "-").then_some("")) {
                f.lists.entry(k.clone()).or_default().push(unquote(item));
                continue;
            }
        }
        match split_key(line) {
            Some((key, "")) => {
                f.lists.entry(key.to_string()).or_default();
                list_key = Some(key.to_string());
            }
            Some((key, value)) => {
                f.scalars.insert(key.to_string(), unquote(value));
                list_key = None;
            }
            None => f.odd_lines.push(line.to_string()),
        }
    }
    f
}

/// `key: value` or `key:` at the start of a line (key of letters, digits, `_`, `-`).
fn split_key(line: &str) -> Option<(&str, &str)> {
    let colon = line.find(':')?;
    let key = &line[..colon];
    if key.is_empty()
        || !key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return None;
    }
    let rest = &line[colon + 1..];
    if rest.is_empty() {
        return Some((key, ""));
    }
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some((key, rest.trim()))
}

/// Whether `line` is a fence (`---`, trailing blanks allowed).
fn is_fence(line: &str) -> bool {
    line.trim_end() == "---"
}

/// Splits an artefact into blocks. A block starts at the first line when that is a fence,
/// and at every later fence whose next line is `artifact: …`.
pub(crate) fn split_blocks(text: &str) -> Vec<Block<'_>> {
    let lines: Vec<(usize, &str)> = line_offsets(text);
    let mut starts: Vec<usize> = Vec::new();
    for (i, (_, line)) in lines.iter().enumerate() {
        let opens_block = if i == 0 {
            is_fence(line)
        } else {
            is_fence(line)
                && lines
                    .get(i + 1)
                    .is_some_and(|(_, next)| next.starts_with("artifact:"))
        };
        if opens_block {
            starts.push(i);
        }
    }
    if starts.first() != Some(&0) {
        starts.insert(0, usize::MAX);
    }
    let mut blocks = Vec::new();
    for (k, &start) in starts.iter().enumerate() {
        let end_line = starts.get(k + 1).copied().unwrap_or(lines.len());
        let end_off = lines.get(end_line).map_or(text.len(), |(o, _)| *o);
        if start == usize::MAX {
            // No front matter at the top: the text before the first block.
            blocks.push(Block {
                first_line: 1,
                front: None,
                body_line: 1,
                body: &text[..end_off],
            });
            continue;
        }
        let close = (start + 1..end_line).find(|&i| is_fence(lines[i].1));
        match close {
            Some(c) => {
                let body_start = lines.get(c + 1).map_or(text.len(), |(o, _)| *o);
                blocks.push(Block {
                    first_line: start + 1,
                    front: Some(lines[start + 1..c].iter().map(|(_, l)| *l).collect()),
                    body_line: c + 2,
                    body: &text[body_start.min(end_off)..end_off],
                });
            }
            None => blocks.push(Block {
                first_line: start + 1,
                front: None,
                body_line: start + 1,
                body: &text[lines[start].0..end_off],
            }),
        }
    }
    blocks
}

/// Each line's byte offset and text (without its line break).
fn line_offsets(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut off = 0;
    for piece in text.split_inclusive('\n') {
        let line = piece.strip_suffix('\n').unwrap_or(piece);
        out.push((off, line.strip_suffix('\r').unwrap_or(line)));
        off += piece.len();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fm(next: &str, tasks: &[&str]) -> FrontMatter {
        FrontMatter {
            session_id: "SESSION-20261130-101500".into(),
            captured_at: "2026-11-30T10:15:00Z".into(),
            captured_by: "agent".into(),
            recommended_next: "/dr-next TUNE-0420".into(),
            next_action: next.into(),
            active_tasks: tasks.iter().map(|s| (*s).to_string()).collect(),
        }
    }

    #[test]
    fn renders_datarim_lines_and_closes_on_its_own_line() {
        let text = render(&fm("Continue implementation.", &["TUNE-0420", "VERD-0050"]));
        assert_eq!(
            text,
            "---\nartifact: session-handoff\nschema_version: 1\nsession_id: SESSION-20261130-101500\n\
captured_at: 2026-11-30T10:15:00Z\ncaptured_by: agent\nrecommended_next: /dr-next TUNE-0420\n\
next_action: Continue implementation.\nactive_tasks:\n  - TUNE-0420\n  - VERD-0050\n---\n"
        );
        let y: serde_yaml_ng::Value =
            serde_yaml_ng::from_str(text.trim_start_matches("---\n").trim_end_matches("---\n"))
                .unwrap();
        assert_eq!(y["active_tasks"][1], "VERD-0050");
    }

    #[test]
    fn values_yaml_would_misread_are_quoted_and_read_back() {
        for v in [
            "Fix: the parser",
            "true",
            "12",
            "# not a comment",
            "- item",
            "[x]",
            "a #b",
            "quote \" inside",
            "'single'",
            "",
            " padded ",
            "null",
        ] {
            let text = render(&fm(v, &[]));
            let line = text
                .lines()
                .find(|l| l.starts_with("next_action: "))
                .unwrap();
            let y: serde_yaml_ng::Value = serde_yaml_ng::from_str(line).unwrap();
            assert_eq!(y["next_action"].as_str(), Some(v), "{line}");
            let (_, raw) = split_key(line).unwrap();
            assert_eq!(unquote(raw), v, "{line}");
        }
        let text = render(&fm("Continue Phase P2 — implement X.", &[]));
        assert!(text.contains("\nnext_action: Continue Phase P2 — implement X.\n"));
    }

    #[test]
    fn fields_are_parsed_line_by_line() {
        let f = parse_fields(&[
            "artifact: session-handoff",
            "next_action: Fix: the thing",
            "quoted: \"a: b\"",
            "active_tasks:",
            "  - TUNE-0420",
            "  - \"X #1\"",
            "empty_list:",
            "nonsense line",
        ]);
        assert_eq!(f.get("artifact"), Some("session-handoff"));
        assert_eq!(f.get("next_action"), Some("Fix: the thing"));
        assert_eq!(f.get("quoted"), Some("a: b"));
        assert_eq!(f.lists["active_tasks"], vec!["TUNE-0420", "X #1"]);
        assert!(f.lists["empty_list"].is_empty());
        assert_eq!(f.odd_lines, vec!["nonsense line"]);
    }

    #[test]
    fn blocks_split_at_fences_followed_by_artifact() {
        let one = render(&fm("First.", &["A-0001"])) + "\n## Layer 1\nx\n---\nnot a block\n";
        let two = render(&fm("Second.", &[])) + "\n## Layer 1\ny\n";
        let text = format!("{one}\n\n{two}");
        let blocks = split_blocks(&text);
        assert_eq!(blocks.len(), 2);
        let f0 = parse_fields(blocks[0].front.as_ref().unwrap());
        assert_eq!(f0.get("next_action"), Some("First."));
        assert!(blocks[0].body.contains("---\nnot a block"));
        let f1 = parse_fields(blocks[1].front.as_ref().unwrap());
        assert_eq!(f1.get("next_action"), Some("Second."));
        assert_eq!(blocks[1].body, "\n## Layer 1\ny\n");
        assert_eq!(blocks[0].first_line, 1);
        assert_eq!(
            text.lines().nth(blocks[1].first_line - 1),
            Some("---"),
            "{blocks:?}"
        );
        assert_eq!(text.lines().nth(blocks[1].body_line), Some("## Layer 1"));
    }

    #[test]
    fn missing_or_unclosed_front_matter_is_visible() {
        let b = split_blocks("## Layer 1\nno front matter\n");
        assert_eq!(b.len(), 1);
        assert!(b[0].front.is_none());
        let b = split_blocks("---\nartifact: session-handoff\n## Layer 1\n");
        assert!(b[0].front.is_none());
        let b = split_blocks("");
        assert_eq!(b.len(), 1);
        assert!(b[0].front.is_none());
    }
}
