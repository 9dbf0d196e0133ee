//! `baton audit persist CORRECTION_ID --to PATH`: marks a correction as persisted (it became
//! a convention, an instinct, a note). The mark is appended to `.boo/persisted.jsonl`
//! (`{"correction_id","id","session_id","to","ts","type":"persist"}`) rather than rewriting a
//! trail, so it is crash-safe and merges like every other log; readers add the marks to the
//! correction's own `persisted_to`.

use super::record::{self, Kind, Record};
use super::store::Store;
use super::trail::{self, Records};
use crate::core::error::{Error, Result};
use crate::core::hash::fnv1a_parts;
use crate::core::jsonl;
use crate::core::text::{clip, one_line};
use crate::core::time;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// One line of `persisted.jsonl`. Read as leniently as a session record (record.rs); the
/// fields are in alphabetical order, the order earlier versions wrote them in.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub(crate) struct Mark {
    #[serde(deserialize_with = "record::lenient")]
    pub(crate) correction_id: String,
    /// `m-…`, a hash of the correction, the place and the time.
    #[serde(deserialize_with = "record::lenient")]
    pub(crate) id: String,
    /// The session the correction was made in.
    #[serde(deserialize_with = "record::lenient")]
    pub(crate) session_id: String,
    /// Where the correction now lives.
    #[serde(deserialize_with = "record::lenient")]
    pub(crate) to: String,
    #[serde(skip_serializing_if = "Option::is_none", with = "record::stamp")]
    pub(crate) ts: Option<DateTime<Utc>>,
    /// `persist`; lines of another type are not marks.
    #[serde(rename = "type", deserialize_with = "record::lenient")]
    pub(crate) kind: String,
}

/// The `type` of a mark.
const PERSIST: &str = "persist";

impl Mark {
    fn new(correction_id: &str, to: &str, session_id: &str, now: DateTime<Utc>) -> Mark {
        let ts = time::rfc3339_millis(now);
        Mark {
            correction_id: correction_id.to_string(),
            id: format!("m-{:016x}", fnv1a_parts(&[correction_id, to, &ts])),
            session_id: session_id.to_string(),
            to: to.to_string(),
            ts: Some(now),
            kind: PERSIST.into(),
        }
    }
}

/// Correction id → where it was persisted.
pub(crate) fn load(store: &Store) -> Result<HashMap<String, Vec<String>>> {
    let mut marks: Records<Mark> = Records::default();
    marks.add_file(&store.persisted_file(), "persisted.jsonl")?;
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    for m in marks.records {
        if m.kind != PERSIST || m.correction_id.is_empty() || m.to.is_empty() {
            continue;
        }
        let places = map.entry(m.correction_id).or_default();
        if !places.contains(&m.to) {
            places.push(m.to);
        }
    }
    Ok(map)
}

/// The session holding the correction `id`, newest session first.
fn session_of(store: &Store, id: &str) -> Result<Option<String>> {
    let mut ids = store.session_ids();
    ids.reverse();
    for sid in ids {
        let dir = store.run_dir(&sid)?;
        let r = trail::session_records(&dir, &sid)?;
        if r.records
            .iter()
            .any(|x| x.kind == Kind::UserCorrection && x.id() == id)
        {
            return Ok(Some(sid));
        }
    }
    Ok(None)
}

/// Marks correction `id` as persisted to `to`. Returns the line to print.
pub(crate) fn persist(store: &Store, id: &str, to: &str, now: DateTime<Utc>) -> Result<String> {
    crate::core::fsx::validate_component("correction id", id)?;
    let to = to.trim();
    if to.is_empty() || to.contains(['\n', '\r']) || to.len() > 500 {
        return Err(Error::Usage(
            "--to must be one line naming where the correction now lives (a file path)".into(),
        ));
    }
    let Some(session) = session_of(store, id)? else {
        return Err(Error::NotFound(format!(
            "no correction {id} in {}; `baton audit status` lists the unpersisted ones",
            store.runs().display()
        )));
    };
    if load(store)?
        .get(id)
        .is_some_and(|v| v.iter().any(|p| p == to))
    {
        return Ok(format!(
            "correction {id} was already marked as persisted to {to}"
        ));
    }
    jsonl::append(
        &store.persisted_file(),
        &Mark::new(id, to, &session, now),
        store.file_mode(),
    )?;
    Ok(format!(
        "correction {id} (session {session}) marked as persisted to {to}"
    ))
}

/// A correction not persisted anywhere yet.
pub(crate) struct Unpersisted {
    pub(crate) id: String,
    /// On one line, clipped.
    pub(crate) text: String,
}

/// The unpersisted corrections of a session, for `status`.
pub(crate) fn unpersisted_in(store: &Store, id: &str) -> Result<Vec<Unpersisted>> {
    let persisted = load(store)?;
    let dir = store.run_dir(id)?;
    let r = trail::session_records(&dir, id)?;
    Ok(r.records
        .iter()
        .filter(|x| x.kind == Kind::UserCorrection)
        .filter(|x| {
            let own = x.persisted_to.as_ref().is_some_and(|to| !to.is_empty());
            !own && !persisted.contains_key(x.id())
        })
        .map(|x: &Record| Unpersisted {
            id: x.id().to_string(),
            text: clip(&one_line(x.text()), 120),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bytes the untyped builder wrote (before the mark had a type), id included.
    #[test]
    fn issue_9_a_mark_is_the_line_the_untyped_builder_wrote() {
        let now = "2026-11-30T10:15:00.123456Z".parse().unwrap();
        let line = serde_json::to_string(&Mark::new(
            "c-1234abcd",
            ".rune/conventions.md",
            "adhoc_20261130_1015",
            now,
        ))
        .unwrap();
        let id = format!(
            "m-{:016x}",
            fnv1a_parts(&[
                "c-1234abcd",
                ".rune/conventions.md",
                "2026-11-30T10:15:00.123Z"
            ])
        );
        assert_eq!(
            line,
            format!("{{\"correction_id\":\"c-1234abcd\",\"id\":\"{id}\",\"session_id\":\"adhoc_20261130_1015\",\"to\":\".rune/conventions.md\",\"ts\":\"2026-11-30T10:15:00.123Z\",\"type\":\"persist\"}}")
        );
    }

    #[test]
    fn marks_of_another_type_or_without_a_place_are_not_counted() {
        let t = tempfile::tempdir().unwrap();
        let store = Store {
            root: t.path().to_path_buf(),
            dir: t.path().to_path_buf(),
            shared: false,
            recent: std::cell::RefCell::default(),
        };
        std::fs::write(
            store.persisted_file(),
            "{\"type\":\"persist\",\"correction_id\":\"c-1\",\"to\":\"a.md\"}\n\
             {\"type\":\"persist\",\"correction_id\":\"c-1\",\"to\":\"a.md\"}\n\
             {\"type\":\"other\",\"correction_id\":\"c-2\",\"to\":\"b.md\"}\n\
             {\"type\":\"persist\",\"correction_id\":\"c-3\",\"to\":7}\n\
             torn\n",
        )
        .unwrap();
        let map = load(&store).unwrap();
        assert_eq!(map.len(), 1);
        assert_eq!(map["c-1"], vec!["a.md"]);
    }
}
