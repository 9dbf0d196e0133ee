//! `baton audit persist CORRECTION_ID --to PATH`: marks a correction as persisted (it became
//! a convention, an instinct, a note). The mark is appended to `.boo/persisted.jsonl`
//! (`{"id","ts","type":"persist","correction_id","to"}`) rather than rewriting a trail, so it
//! is crash-safe and merges like every other log; readers add the marks to the correction's
//! own `persisted_to`.

use super::record;
use super::store::Store;
use super::trail::{self, field, kind, Records};
use crate::core::error::{Error, Result};
use crate::core::jsonl;
use chrono::{DateTime, Utc};
use serde_json::json;
use std::collections::HashMap;

/// Correction id → where it was persisted.
pub(crate) fn load(store: &Store) -> Result<HashMap<String, Vec<String>>> {
    let mut r = Records::default();
    r.add_file(&store.persisted_file(), "persisted.jsonl")?;
    let mut map: HashMap<String, Vec<String>> = HashMap::new();
    for m in r.records.iter().filter(|m| kind(m) == "persist") {
        let (id, to) = (field(m, "correction_id"), field(m, "to"));
        if !id.is_empty() && !to.is_empty() {
            let v = map.entry(id.to_string()).or_default();
            if !v.iter().any(|p| p == to) {
                v.push(to.to_string());
            }
        }
    }
    Ok(map)
}

/// Whether a correction with `id` exists in any session (newest first).
fn find(store: &Store, id: &str) -> Result<Option<String>> {
    let mut ids = store.session_ids();
    ids.reverse();
    for sid in ids {
        let dir = store.run_dir(&sid)?;
        let r = trail::session_records(&dir, &sid)?;
        if r.records
            .iter()
            .any(|x| kind(x) == "user_correction" && field(x, "id") == id)
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
    let Some(session) = find(store, id)? else {
        return Err(Error::Invalid(format!(
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
    let ts = record::ts(now);
    jsonl::append(
        &store.persisted_file(),
        &json!({
            "id": format!("m-{:016x}", record::fnv(&[id, to, &ts])),
            "ts": ts,
            "type": "persist",
            "correction_id": id,
            "to": to,
            "session_id": session,
        }),
        store.file_mode(),
    )?;
    Ok(format!(
        "correction {id} (session {session}) marked as persisted to {to}"
    ))
}

/// The unpersisted corrections of a session, for `end` and `status`.
pub(crate) fn unpersisted_in(store: &Store, id: &str) -> Result<Vec<(String, String)>> {
    let persisted = load(store)?;
    let dir = store.run_dir(id)?;
    let r = trail::session_records(&dir, id)?;
    Ok(r.records
        .iter()
        .filter(|x| kind(x) == "user_correction")
        .filter(|x| {
            let own = x
                .get("persisted_to")
                .and_then(serde_json::Value::as_array)
                .is_some_and(|a| !a.is_empty());
            !own && !persisted.contains_key(field(x, "id"))
        })
        .map(|x| {
            (
                field(x, "id").to_string(),
                record::cut_redacted(field(x, "text"), 120),
            )
        })
        .collect())
}
