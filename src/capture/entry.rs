//! One line of Claude Code's transcript (`~/.claude/projects/<dir>/<session>.jsonl`), read
//! into only what capture uses. The format is Claude Code's, undocumented and growing, so
//! every type here is lenient: unknown entry types and fields are skipped, and a known field
//! of an unexpected shape is read as absent instead of failing the line. Only a line that is
//! not a JSON object at all is malformed.
//!
//! Reading is cheap on purpose (a cold read of a 50 MB transcript must stay well under a
//! quarter second): fields capture does not use are skipped by serde without being built, and
//! a text is kept only up to `TEXT_HEAD` bytes, its start and its end — a file's contents in a
//! tool result or a long prompt never make a line cost more than its parse.

use serde::de::{
    self, value::MapAccessDeserializer, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor,
};
use serde::Deserialize;
use std::fmt;

/// The most bytes of one text kept while reading, before redaction. The cut falls on white
/// space, so a secret (a token has none) is either kept whole, for the redactor to find, or
/// left out; never half of it.
pub(crate) const TEXT_HEAD: usize = 4096;

/// One transcript line.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Entry {
    /// `user`, `assistant`, `system`, `attachment`, … (anything else is ignored).
    #[serde(rename = "type")]
    pub(crate) kind: Text,
    /// A subagent's entry (kept apart from the main session's).
    #[serde(rename = "isSidechain")]
    pub(crate) sidechain: Flag,
    /// The subagent that wrote a sidechain entry.
    #[serde(rename = "agentId")]
    pub(crate) agent_id: Text,
    /// Text Claude Code injected (hook feedback, caveats), not typed by the user.
    #[serde(rename = "isMeta")]
    pub(crate) meta: Flag,
    /// The summary that replaces the conversation after a compaction.
    #[serde(rename = "isCompactSummary")]
    pub(crate) compact_summary: Flag,
    /// `compact_boundary` on a `system` entry.
    pub(crate) subtype: Text,
    /// RFC 3339.
    pub(crate) timestamp: Text,
    /// The prompt whose turn the entry belongs to (Claude Code 2.1.197).
    #[serde(rename = "promptId")]
    pub(crate) prompt_id: Text,
    /// The git branch when the entry was written (Claude Code records it on every entry).
    #[serde(rename = "gitBranch")]
    pub(crate) git_branch: Text,
    /// The API message of a `user` or `assistant` entry.
    pub(crate) message: ObjectOr<Message>,
    /// What a tool returned, tool-specific (the object hooks get as `tool_response`).
    #[serde(rename = "toolUseResult")]
    pub(crate) tool_use_result: ToolUseResult,
}

impl Entry {
    /// Parses one line; `None` when it is not a JSON object.
    pub(crate) fn parse(line: &[u8]) -> Option<Entry> {
        let first = line.iter().find(|b| !b.is_ascii_whitespace())?;
        if *first != b'{' {
            return None;
        }
        serde_json::from_slice(line).ok()
    }
}

/// An API message.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Message {
    /// Shared by every line one streamed response was written as.
    pub(crate) id: Text,
    pub(crate) content: Content,
    /// An assistant message's `end_turn` (the turn is over), `tool_use`, `max_tokens`, ….
    pub(crate) stop_reason: Text,
    /// The model; `<synthetic>` for text Claude Code writes itself ("No response
    /// requested." when a cut-off conversation is resumed, API error notices).
    pub(crate) model: Text,
}

/// A message's (or a tool result's) content: a string, or a list of blocks.
#[derive(Debug, Default)]
pub(crate) enum Content {
    #[default]
    None,
    Text(String),
    Blocks(Vec<Block>),
}

impl Content {
    /// The text of the content: the string, or the `text` blocks joined by a line break.
    pub(crate) fn text(&self) -> String {
        match self {
            Content::None => String::new(),
            Content::Text(t) => t.clone(),
            Content::Blocks(blocks) => blocks
                .iter()
                .filter(|b| b.kind.is("text"))
                .map(|b| b.text.0.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }
}

/// One content block: `text`, `tool_use`, `tool_result` (others — `thinking`, `image` — are
/// read as blocks with nothing capture uses).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Block {
    #[serde(rename = "type")]
    pub(crate) kind: Text,
    pub(crate) text: Text,
    /// A `tool_use`'s id.
    pub(crate) id: Text,
    /// A `tool_use`'s tool.
    pub(crate) name: Text,
    pub(crate) input: ObjectOr<ToolInput>,
    /// A `tool_result`'s call.
    pub(crate) tool_use_id: Text,
    /// A `tool_result`'s output.
    pub(crate) content: Content,
    pub(crate) is_error: Flag,
}

/// The inputs of the tools capture follows (everything else in an input is skipped).
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ToolInput {
    /// Bash.
    pub(crate) command: Text,
    /// Edit, Write, MultiEdit, Read.
    pub(crate) file_path: Text,
    /// NotebookEdit.
    pub(crate) notebook_path: Text,
    /// TaskCreate, TaskUpdate.
    pub(crate) subject: Text,
    /// Agent / Task (a subagent), TaskCreate.
    pub(crate) description: Text,
    /// TaskUpdate (a string in 2.1.197; a number is taken too).
    #[serde(rename = "taskId")]
    pub(crate) task_id: Text,
    /// TaskUpdate.
    pub(crate) status: Text,
    /// TodoWrite (before TaskCreate existed): the whole list, each call.
    pub(crate) todos: Items<Todo>,
}

/// One TodoWrite item.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct Todo {
    pub(crate) content: Text,
    pub(crate) status: Text,
}

/// `toolUseResult`: a string (an error), an object (tool-specific), or absent.
#[derive(Debug, Default)]
pub(crate) enum ToolUseResult {
    #[default]
    None,
    Text(String),
    Fields(ResultFields),
}

/// The parts of a tool-specific result capture reads.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct ResultFields {
    /// TaskCreate: `{"task": {"id": "1", "subject": …}}`.
    pub(crate) task: ObjectOr<TaskRef>,
    /// Bash.
    pub(crate) stderr: Text,
    /// An exit code, where a tool reports one.
    #[serde(rename = "exitCode")]
    pub(crate) exit_code: Number,
    #[serde(rename = "returnCode")]
    pub(crate) return_code: Number,
}

/// The task a TaskCreate made.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub(crate) struct TaskRef {
    pub(crate) id: Text,
}

// ------------------------------------------------------------------------------------------
// Lenient field types
// ------------------------------------------------------------------------------------------

/// A string (or a number, as text), kept up to `TEXT_HEAD` bytes; anything else is empty.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub(crate) struct Text(pub(crate) String);

impl Text {
    /// Whether the text is exactly `s`.
    pub(crate) fn is(&self, s: &str) -> bool {
        self.0 == s
    }

    /// The text, `None` when empty.
    pub(crate) fn get(&self) -> Option<&str> {
        (!self.0.is_empty()).then_some(self.0.as_str())
    }
}

/// `text`, or (when longer than `TEXT_HEAD` bytes) its first and its last half of that, each
/// cut at white space and joined by ` … `: the end of a long text is where a conclusion says
/// what is still open and a test run says what failed.
pub(crate) fn head(text: &str) -> String {
    if text.len() <= TEXT_HEAD {
        return text.to_string();
    }
    let half = TEXT_HEAD / 2;
    let mut end = half;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let first = &text[..end];
    let first = first
        .rfind(char::is_whitespace)
        .map_or("", |at| first[..at].trim_end());
    let mut start = text.len() - half;
    while !text.is_char_boundary(start) {
        start += 1;
    }
    let last = &text[start..];
    let last = last
        .find(char::is_whitespace)
        .map_or("", |at| last[at..].trim_start());
    match (first.is_empty(), last.is_empty()) {
        (true, true) => "…".to_string(),
        (false, true) => format!("{first} …"),
        (true, false) => format!("… {last}"),
        (false, false) => format!("{first} … {last}"),
    }
}

/// A bool; anything else is false.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Flag(pub(crate) bool);

/// An integer; anything else is `None`.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Number(pub(crate) Option<i64>);

/// A value read as `T` when it is an object, skipped otherwise.
#[derive(Debug)]
pub(crate) struct ObjectOr<T>(pub(crate) Option<T>);

impl<T> Default for ObjectOr<T> {
    fn default() -> Self {
        ObjectOr(None)
    }
}

/// A list of `T` objects; items of another shape, and a value that is not a list, are skipped.
#[derive(Debug)]
pub(crate) struct Items<T>(pub(crate) Vec<T>);

impl<T> Default for Items<T> {
    fn default() -> Self {
        Items(Vec::new())
    }
}

/// Skips the rest of a list.
fn drain_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<(), A::Error> {
    while seq.next_element::<IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Skips the rest of an object.
fn drain_map<'de, A: MapAccess<'de>>(mut map: A) -> Result<(), A::Error> {
    while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
    Ok(())
}

/// Implements the scalar callbacks of a lenient visitor: each gives `$none`.
macro_rules! other_shapes_are {
    ($none:expr) => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
        fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok($none)
        }
    };
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
                Ok(Text(head(v)))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
                Ok(Text(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Text, A::Error> {
                drain_seq(seq).map(|()| Text::default())
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Text, A::Error> {
                drain_map(map).map(|()| Text::default())
            }
            other_shapes_are!(Text::default());
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Flag {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Flag;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a bool")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Flag, E> {
                Ok(Flag(v))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_f64<E: de::Error>(self, _: f64) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_none<E: de::Error>(self) -> Result<Flag, E> {
                Ok(Flag(false))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Flag, A::Error> {
                drain_seq(seq).map(|()| Flag(false))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Flag, A::Error> {
                drain_map(map).map(|()| Flag(false))
            }
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Number;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an integer")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Number, E> {
                Ok(Number(Some(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Number, E> {
                Ok(Number(i64::try_from(v).ok()))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Number, E> {
                Ok(Number(v.trim().parse().ok()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Number, A::Error> {
                drain_seq(seq).map(|()| Number(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Number, A::Error> {
                drain_map(map).map(|()| Number(None))
            }
            other_shapes_are!(Number(None));
        }
        d.deserialize_any(V)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for ObjectOr<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = ObjectOr<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                T::deserialize(MapAccessDeserializer::new(map)).map(|t| ObjectOr(Some(t)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
                drain_seq(seq).map(|()| ObjectOr(None))
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(ObjectOr(None))
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(ObjectOr(None))
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(ObjectOr(None))
            }
            other_shapes_are!(ObjectOr(None));
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Items<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = Items<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a list")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut items = Vec::new();
                while let Some(item) = seq.next_element::<ObjectOr<T>>()? {
                    items.extend(item.0);
                }
                Ok(Items(items))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
                drain_map(map).map(|()| Items::default())
            }
            fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
                Ok(Items::default())
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
                Ok(Items::default())
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
                Ok(Items::default())
            }
            other_shapes_are!(Items::default());
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

impl<'de> Deserialize<'de> for Content {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Content;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string or a list of blocks")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Content, E> {
                Ok(Content::Text(head(v)))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Content, A::Error> {
                let mut blocks = Vec::new();
                while let Some(block) = seq.next_element::<ObjectOr<Block>>()? {
                    blocks.extend(block.0);
                }
                Ok(Content::Blocks(blocks))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Content, A::Error> {
                drain_map(map).map(|()| Content::None)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<Content, E> {
                Ok(Content::None)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<Content, E> {
                Ok(Content::None)
            }
            other_shapes_are!(Content::None);
        }
        d.deserialize_any(V)
    }
}

impl<'de> Deserialize<'de> for ToolUseResult {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = ToolUseResult;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a tool result")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::Text(head(v)))
            }
            fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<ToolUseResult, A::Error> {
                ResultFields::deserialize(MapAccessDeserializer::new(map))
                    .map(ToolUseResult::Fields)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<ToolUseResult, A::Error> {
                drain_seq(seq).map(|()| ToolUseResult::None)
            }
            fn visit_i64<E: de::Error>(self, _: i64) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::None)
            }
            fn visit_u64<E: de::Error>(self, _: u64) -> Result<ToolUseResult, E> {
                Ok(ToolUseResult::None)
            }
            other_shapes_are!(ToolUseResult::None);
        }
        d.deserialize_any(V)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tool_use_line_reads_its_input_and_skips_the_rest() {
        let line = br#"{"type":"assistant","isSidechain":false,"uuid":"x","message":{"id":"msg_1","model":"m","content":[{"type":"thinking","thinking":"hmm","signature":"s"},{"type":"tool_use","id":"toolu_1","name":"Write","input":{"file_path":"/p/a.rs","content":"fn main() {}\n"}}],"usage":{"input_tokens":3}},"brand_new":{"x":[1,2]}}"#;
        let e = Entry::parse(line).unwrap();
        assert!(e.kind.is("assistant"));
        let m = e.message.0.unwrap();
        assert_eq!(m.id.0, "msg_1");
        let Content::Blocks(blocks) = m.content else {
            panic!()
        };
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[1].name.0, "Write");
        assert_eq!(blocks[1].input.0.as_ref().unwrap().file_path.0, "/p/a.rs");
    }

    #[test]
    fn wrong_shapes_are_absent_not_errors() {
        let line = br#"{"type":"user","isSidechain":"yes","isMeta":null,"message":"just a string","toolUseResult":[1,{"a":2}],"timestamp":5}"#;
        let e = Entry::parse(line).unwrap();
        assert!(!e.sidechain.0 && !e.meta.0);
        assert!(e.message.0.is_none());
        assert!(matches!(e.tool_use_result, ToolUseResult::None));
        assert_eq!(e.timestamp.0, "5");
        let line = br#"{"type":"assistant","message":{"id":7,"content":[3,"x",{"type":"tool_use","input":"not an object","name":["a"]}]}}"#;
        let e = Entry::parse(line).unwrap();
        let Content::Blocks(blocks) = e.message.0.unwrap().content else {
            panic!()
        };
        assert_eq!(blocks.len(), 1);
        assert!(blocks[0].input.0.is_none() && blocks[0].name.0.is_empty());
    }

    #[test]
    fn results_as_text_or_fields() {
        let e =
            Entry::parse(br#"{"type":"user","toolUseResult":"Error: Exit code 1\nboom"}"#).unwrap();
        assert!(matches!(e.tool_use_result, ToolUseResult::Text(ref t) if t.ends_with("boom")));
        let e = Entry::parse(br#"{"type":"user","toolUseResult":{"task":{"id":"3","subject":"x"},"exitCode":2,"stdout":"big"}}"#).unwrap();
        let ToolUseResult::Fields(f) = e.tool_use_result else {
            panic!()
        };
        assert_eq!(f.task.0.unwrap().id.0, "3");
        assert_eq!(f.exit_code.0, Some(2));
    }

    #[test]
    fn not_an_object_is_malformed() {
        for bad in [
            &b"[1,2]"[..],
            b"\"x\"",
            b"{\"type\":",
            b"",
            b"   ",
            b"{\"a\":1}{",
        ] {
            assert!(Entry::parse(bad).is_none(), "{bad:?}");
        }
    }

    #[test]
    fn long_texts_keep_their_start_and_end_cut_at_white_space() {
        let secret = ["ghp_", "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"].concat();
        // A token across the head's cut and another across the tail's: neither is halved.
        let mut text = "word ".repeat((TEXT_HEAD / 2 - 10) / 5);
        text.push_str(&secret);
        text.push_str(&" middle".repeat(1000));
        text.push_str(&secret);
        text.push_str(&" word".repeat((TEXT_HEAD / 2 - 30) / 5));
        text.push_str(" Still open: the docs.");
        let h = head(&text);
        assert!(h.len() <= TEXT_HEAD + 8, "{}", h.len());
        assert!(h.starts_with("word word") && h.ends_with("Still open: the docs."));
        assert!(h.contains(" … "));
        for piece in h.split_whitespace().filter(|p| *p != secret.as_str()) {
            let half = piece.len() > 3 && (secret.contains(piece) || piece.contains("ghp_"));
            assert!(!half, "half a token: {piece}");
        }
        assert_eq!(head("short"), "short");
        assert_eq!(head(&"x".repeat(TEXT_HEAD + 1)), "…");
    }
}
