//! The audit's records as they are on disk: one JSON object per line in
//! `runs/<id>/audit_{buffer,pending,trail}.jsonl` (docs/audit.md). `Record` is the format's
//! one typed home: the hooks build one and append it (tool_call.rs, prompt.rs), every reader
//! gets `Record`s back (trail.rs).
//!
//! Reading is as lenient as the trail has always been read: unknown fields are ignored, a
//! field of the wrong JSON type reads as absent, an unknown `type` is kept by its name. Only a
//! line that is not a JSON object, or whose `ts` is not an RFC 3339 time, is refused; `parse`
//! says why, and the reader reports it as `file:line` and skips it. Nothing rewrites a line it
//! read (moving the buffer copies bytes), so fields this version does not know are never lost.
//!
//! Writing keeps the bytes earlier versions wrote: the fields in alphabetical order (the order
//! a `serde_json` map gave them), absent ones left out, `ts` to the millisecond (several hooks
//! may write in one second).

use crate::core::text::{clip, one_line};
use crate::core::time;
use chrono::{DateTime, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// The most characters of a record's `input` shown on one line (a report, a failure list).
pub(crate) const INPUT_SHOWN: usize = 200;

/// What a record is about: its `type`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A tool call that changed nothing the audit can see.
    Data,
    /// A tool call that changed a file (Edit, Write, …, or a Bash command that writes).
    Change,
    /// A prompt.
    Conversation,
    /// A prompt that corrects the agent.
    UserCorrection,
    /// Any other type (another tool's record, a later version's), kept by name; `""` when the
    /// line has no `type`.
    Other(String),
}

impl Kind {
    /// The name on disk.
    pub(crate) fn as_str(&self) -> &str {
        match self {
            Kind::Data => "data",
            Kind::Change => "change",
            Kind::Conversation => "conversation",
            Kind::UserCorrection => "user_correction",
            Kind::Other(name) => name,
        }
    }

    fn from_name(name: String) -> Kind {
        match name.as_str() {
            "data" => Kind::Data,
            "change" => Kind::Change,
            "conversation" => Kind::Conversation,
            "user_correction" => Kind::UserCorrection,
            _ => Kind::Other(name),
        }
    }
}

impl Default for Kind {
    fn default() -> Kind {
        Kind::Other(String::new())
    }
}

impl Serialize for Kind {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Kind {
    /// Any value: a name, or `""` for a `type` that is not a string.
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Kind, D::Error> {
        Ok(match Value::deserialize(d)? {
            Value::String(name) => Kind::from_name(name),
            _ => Kind::default(),
        })
    }
}

/// How a tool call ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum Outcome {
    Ok,
    Error,
}

/// One line of a session's record files. Which fields a kind carries:
///
/// * every record: `id`, `ts`, `type`, `claude_session`; `redactions` when secrets were
///   redacted from it;
/// * `data` / `change`: `tool`, `input` (the command as it ran, or a summary of another
///   tool's input), `outcome`, and when known `path` (the changed file, `change` only; `paths`
///   when a Bash change names more than one), `exit_code`, `error`, `duration_ms`, `agent`,
///   `tool_use_id`;
/// * `conversation`: `role`, `text`;
/// * `user_correction`: `text`, `pattern`, `persisted_to`.
///
/// The fields are declared in alphabetical order: serde writes them in this order, which is
/// the order of the lines earlier versions wrote.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Record {
    /// The subagent that made the call.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) agent: Option<String>,
    /// Claude Code's session id.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) claude_session: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) duration_ms: Option<u64>,
    /// The failure text, redacted, on one line, clipped.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) error: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) exit_code: Option<i64>,
    /// `t-…` (tool call), `p-…` (prompt), `c-…` (correction): the same wherever it is
    /// computed, so a line copied twice collapses on read.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) id: Option<String>,
    /// A Bash call's command byte for byte, or a summary of another tool's input (file path,
    /// pattern), never a file's contents; redacted, not clipped (`input_line` is for display).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) input: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) outcome: Option<Outcome>,
    /// The changed file, relative to the project when inside it.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) path: Option<String>,
    /// Every file a Bash change names, when it names more than one (`path` is the first).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "strings")]
    pub(crate) paths: Option<Vec<String>>,
    /// The correction pattern the prompt matched.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) pattern: Option<String>,
    /// Where a correction was persisted to (later marks live in `persisted.jsonl`).
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "strings")]
    pub(crate) persisted_to: Option<Vec<String>>,
    /// How many secrets the redactor replaced in this record.
    #[serde(skip_serializing_if = "is_zero", deserialize_with = "lenient")]
    pub(crate) redactions: u64,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) role: Option<String>,
    /// The prompt or correction, redacted, on one line, clipped.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) text: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) tool: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient")]
    pub(crate) tool_use_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none", with = "stamp")]
    pub(crate) ts: Option<DateTime<Utc>>,
    #[serde(rename = "type")]
    pub(crate) kind: Kind,
}

impl Record {
    /// `id`, `""` when missing.
    pub(crate) fn id(&self) -> &str {
        self.id.as_deref().unwrap_or("")
    }

    /// `tool`, `""` when missing.
    pub(crate) fn tool(&self) -> &str {
        self.tool.as_deref().unwrap_or("")
    }

    /// `input`, `""` when missing.
    pub(crate) fn input(&self) -> &str {
        self.input.as_deref().unwrap_or("")
    }

    /// `input` for display: on one line, clipped to `INPUT_SHOWN` characters.
    pub(crate) fn input_line(&self) -> String {
        clip(&one_line(self.input()), INPUT_SHOWN)
    }

    /// `text`, `""` when missing.
    pub(crate) fn text(&self) -> &str {
        self.text.as_deref().unwrap_or("")
    }

    /// Whether this is a tool call (`data` or `change`).
    pub(crate) fn is_tool_call(&self) -> bool {
        matches!(self.kind, Kind::Data | Kind::Change)
    }

    /// Whether the tool call failed.
    pub(crate) fn failed(&self) -> bool {
        self.outcome == Some(Outcome::Error)
    }

    /// The files a `change` record names: `paths`, else `path` (none for other kinds, or a
    /// Bash change whose files are not known).
    pub(crate) fn changed_paths(&self) -> Vec<&str> {
        let all = match (&self.kind, &self.paths) {
            (Kind::Change, Some(all)) => all.iter().map(String::as_str).collect(),
            (Kind::Change, None) => self.path.as_deref().into_iter().collect(),
            _ => Vec::new(),
        };
        all.into_iter().filter(|p| !p.is_empty()).collect()
    }

    /// `HH:MM` (UTC) of `ts`.
    pub(crate) fn hour_minute(&self) -> Option<String> {
        self.ts.map(|t| t.format("%H:%M").to_string())
    }
}

/// Reads one line of an audit file: a session record, or a `persist` mark. `Err` says why the
/// line is skipped.
pub(crate) fn parse<T: DeserializeOwned>(line: &str) -> Result<T, String> {
    // The common case is one typed pass. serde would also take a JSON array for a struct,
    // which is no record, so only an object is tried.
    if line.trim_start().starts_with('{') {
        if let Ok(record) = serde_json::from_str(line) {
            return Ok(record);
        }
    }
    // The rare case: read the line loosely to say why it was refused, or to take an object
    // the typed pass refused for a reason reading never minded (a key given twice: the later
    // one counts).
    match serde_json::from_str::<Value>(line) {
        Err(e) => Err(format!("not valid JSON ({e})")),
        Ok(Value::Object(fields)) => match fields.get("ts") {
            Some(ts) if ts.as_str().and_then(time::parse).is_none() => {
                Err(format!("bad timestamp {ts} (expected RFC 3339)"))
            }
            _ => serde_json::from_value(Value::Object(fields))
                .map_err(|e| format!("not a valid record ({e})")),
        },
        Ok(_) => Err("not a JSON object".into()),
    }
}

/// A field's value, or its default when the line has a value of another JSON type there
/// (reading never refused a line for that).
pub(crate) fn lenient<'de, D, T>(d: D) -> Result<T, D::Error>
where
    D: Deserializer<'de>,
    T: DeserializeOwned + Default,
{
    Ok(serde_json::from_value(Value::deserialize(d)?).unwrap_or_default())
}

/// A list of strings; other values in it are skipped, and a value that is no list reads as
/// none.
fn strings<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => Some(
            items
                .into_iter()
                .filter_map(|v| match v {
                    Value::String(s) => Some(s),
                    _ => None,
                })
                .collect(),
        ),
        _ => None,
    })
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `ts` of records and marks: written to the millisecond in UTC (`2026-11-30T10:15:00.123Z`),
/// read as any RFC 3339 time.
pub(crate) mod stamp {
    use super::{time, DateTime, Deserialize, Deserializer, Serializer, Utc, Value};

    #[allow(clippy::ref_option)] // serde's `with` hands the field over by reference
    pub(crate) fn serialize<S: Serializer>(
        t: &Option<DateTime<Utc>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match t {
            Some(t) => s.serialize_str(&time::rfc3339_millis(*t)),
            None => s.serialize_none(),
        }
    }

    /// A `ts` that is present is a time, or the line is refused (`parse` says why).
    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        match Value::deserialize(d)? {
            Value::String(s) => time::parse(&s)
                .map(Some)
                .ok_or_else(|| serde::de::Error::custom("bad timestamp")),
            _ => Err(serde::de::Error::custom("bad timestamp")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_in_the_order_and_precision_earlier_versions_wrote() {
        let r = Record {
            claude_session: Some("cs".into()),
            duration_ms: Some(12),
            id: Some("t-1".into()),
            input: Some("src/a.rs".into()),
            outcome: Some(Outcome::Ok),
            path: Some("src/a.rs".into()),
            tool: Some("Write".into()),
            tool_use_id: Some("toolu_1".into()),
            ts: time::parse("2026-11-30T10:15:00Z"),
            kind: Kind::Change,
            ..Record::default()
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            "{\"claude_session\":\"cs\",\"duration_ms\":12,\"id\":\"t-1\",\"input\":\"src/a.rs\",\"outcome\":\"ok\",\"path\":\"src/a.rs\",\"tool\":\"Write\",\"tool_use_id\":\"toolu_1\",\"ts\":\"2026-11-30T10:15:00.000Z\",\"type\":\"change\"}"
        );
        assert_eq!(parse::<Record>(&serde_json::to_string(&r).unwrap()), Ok(r));
    }

    #[test]
    fn reading_is_lenient_about_fields_and_strict_about_times() {
        let r: Record = parse(
            "{\"type\":\"anomaly\",\"tool\":5,\"duration_ms\":-1,\"outcome\":\"maybe\",\"persisted_to\":[1,\"a\"],\"extra\":{\"x\":1}}",
        )
        .unwrap();
        assert_eq!(r.kind, Kind::Other("anomaly".into()));
        assert_eq!((r.tool(), r.duration_ms, r.outcome), ("", None, None));
        assert_eq!(r.persisted_to, Some(vec!["a".to_string()]));
        assert_eq!(parse::<Record>("{}").unwrap().kind.as_str(), "");
        // A key given twice: the later one counts, as it did.
        let r: Record = parse("{\"id\":\"a\",\"id\":\"b\"}").unwrap();
        assert_eq!(r.id(), "b");
        let why = |line: &str| parse::<Record>(line).unwrap_err();
        assert!(
            why("{torn").starts_with("not valid JSON"),
            "{}",
            why("{torn")
        );
        assert!(why("not json").starts_with("not valid JSON"));
        assert_eq!(why("[1]"), "not a JSON object");
        assert_eq!(why("\"x\""), "not a JSON object");
        assert_eq!(
            why("{\"ts\":\"2026-11-28T1é:00\"}"),
            "bad timestamp \"2026-11-28T1é:00\" (expected RFC 3339)"
        );
        assert_eq!(why("{\"ts\":7}"), "bad timestamp 7 (expected RFC 3339)");
        assert_eq!(
            why("{\"ts\":null}"),
            "bad timestamp null (expected RFC 3339)"
        );
    }

    #[test]
    fn a_time_with_an_offset_is_read_in_utc() {
        let r: Record = parse("{\"ts\":\"2026-12-01T00:30:00+01:00\"}").unwrap();
        assert_eq!(r.hour_minute().as_deref(), Some("23:30"));
    }
}
