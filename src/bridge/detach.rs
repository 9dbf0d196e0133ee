//! Detach mode: a slow second-model call is recorded as a pending record in
//! `.rune/oracle-pending/<sessionId>.json` so the primary agent can keep working and
//! reattach later. Records follow the session-bridge schema and are validated on write and
//! on read; dispatch is idempotent on `sessionId` and on `bundleHash` (also for two
//! processes at once: the folder lock serialises them); records older than 24 h are dropped
//! at every session start. The folder is kept out of git (its own `.gitignore`).

use super::store::{self, Rune};
use crate::core::error::{Error, Result};
use crate::core::redact::Redactor;
use crate::core::{fsx, time};
use chrono::{DateTime, Duration, Utc};
use regex::Regex;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// The folder of pending records, inside `.rune/`.
pub(crate) const DIR: &str = "oracle-pending";
/// Default time a dispatch may take.
const DEFAULT_TIMEOUT_MIN: i64 = 10;
/// Records older than this are orphans.
const ORPHAN_HOURS: i64 = 24;
/// Longest response excerpt kept.
const EXCERPT_MAX: usize = 500;
const SKILLS: [&str; 3] = ["debug", "fix", "manual"];
const STATUSES: [&str; 3] = ["pending", "complete", "failed"];
const FIELDS: [&str; 10] = [
    "sessionId",
    "dispatchedAt",
    "triggerSignal",
    "sourceSkill",
    "targetModel",
    "bundleHash",
    "status",
    "timeoutAt",
    "responseId",
    "responseExcerpt",
];

/// One pending record, as the spec's schema has it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Record {
    pub(crate) session_id: String,
    pub(crate) dispatched_at: String,
    pub(crate) trigger_signal: String,
    pub(crate) source_skill: String,
    pub(crate) target_model: String,
    pub(crate) bundle_hash: String,
    pub(crate) status: String,
    pub(crate) timeout_at: String,
    pub(crate) response_id: Option<String>,
    pub(crate) response_excerpt: Option<String>,
}

/// What `baton bridge detach` reads on stdin.
#[derive(Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub(crate) struct Dispatch {
    pub(crate) session_id: Option<String>,
    pub(crate) trigger_signal: String,
    pub(crate) source_skill: String,
    pub(crate) target_model: String,
    pub(crate) bundle_hash: String,
    pub(crate) timeout_at: Option<String>,
}

fn re(pattern: &str) -> Option<Regex> {
    Regex::new(pattern).ok()
}

fn valid_session_id(id: &str) -> bool {
    re(r"^oracle-\d+-[a-z0-9]+$").is_some_and(|r| r.is_match(id)) && id.len() <= 100
}

fn parse_time(what: &str, s: &str) -> Result<DateTime<Utc>> {
    time::parse(s)
        .ok_or_else(|| Error::Invalid(format!("`{what}` {s:?} is not an ISO 8601 timestamp")))
}

impl Record {
    /// What is wrong with the record against the schema, every problem (each names its
    /// field); empty when it is valid.
    pub(crate) fn problems(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut bad = |f: &str, why: &str| out.push(format!("`{f}` {why}"));
        if !valid_session_id(&self.session_id) {
            bad(
                "sessionId",
                "must match ^oracle-<digits>-<lowercase letters or digits>$",
            );
        }
        for (f, v) in [
            ("dispatchedAt", &self.dispatched_at),
            ("timeoutAt", &self.timeout_at),
        ] {
            if time::parse(v).is_none() {
                bad(f, &format!("{v:?} is not an ISO 8601 timestamp"));
            }
        }
        if self.trigger_signal.trim().is_empty() {
            bad("triggerSignal", "is empty");
        }
        if !SKILLS.contains(&self.source_skill.as_str()) {
            bad("sourceSkill", "must be debug, fix or manual");
        }
        if self.target_model.trim().is_empty() {
            bad("targetModel", "is empty");
        }
        if !re(r"^sha256:[a-f0-9]{8,64}$").is_some_and(|r| r.is_match(&self.bundle_hash)) {
            bad("bundleHash", "must match ^sha256:[a-f0-9]{8,64}$");
        }
        if !STATUSES.contains(&self.status.as_str()) {
            bad("status", "must be pending, complete or failed");
        }
        if self
            .response_excerpt
            .as_ref()
            .is_some_and(|e| e.chars().count() > EXCERPT_MAX)
        {
            bad("responseExcerpt", "is longer than 500 characters");
        }
        // The schema: the response fields are null until the record is complete.
        let response = [
            ("responseId", self.response_id.is_some()),
            ("responseExcerpt", self.response_excerpt.is_some()),
        ];
        for (f, set) in response {
            match self.status.as_str() {
                "complete" if !set => bad(f, "is required when status is complete"),
                "pending" if set => bad(f, "must be null while status is pending"),
                _ => {}
            }
        }
        out
    }

    /// Checks the record against the schema; the error names every field that is wrong.
    pub(crate) fn check(&self) -> Result<()> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(invalid(&problems))
        }
    }

    /// Parses and checks a record file's text (every field present, nothing else).
    pub(crate) fn parse(text: &str) -> Result<Record> {
        read_record(text).map_err(|p| invalid(&p))
    }
}

fn invalid(problems: &[String]) -> Error {
    Error::Fields {
        // Each problem names its field first: "`sessionId` must match …".
        fields: problems
            .iter()
            .filter_map(|p| Some(p.strip_prefix('`')?.split_once('`')?.0.to_string()))
            .collect(),
        message: format!("pending record: {}", problems.join("; ")),
    }
}

/// A record file's text as a record, or every problem it has: JSON, the fields present
/// (and no others) with their types, then the schema's rules.
fn read_record(text: &str) -> std::result::Result<Record, Vec<String>> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| vec![format!("not valid JSON ({e})")])?;
    let Some(map) = v.as_object() else {
        return Err(vec!["not a JSON object".into()]);
    };
    let mut problems: Vec<String> = Vec::new();
    for f in FIELDS {
        let nullable = f.starts_with("response");
        match map.get(f) {
            None => problems.push(format!("`{f}` is missing")),
            Some(serde_json::Value::String(_)) => {}
            Some(serde_json::Value::Null) if nullable => {}
            Some(_) if nullable => problems.push(format!("`{f}` must be a string or null")),
            Some(_) => problems.push(format!("`{f}` must be a string")),
        }
    }
    for k in map.keys().filter(|k| !FIELDS.contains(&k.as_str())) {
        problems.push(format!("`{k}` is not a field of the schema"));
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let r: Record = serde_json::from_value(v).map_err(|e| vec![e.to_string()])?;
    let problems = r.problems();
    if problems.is_empty() {
        Ok(r)
    } else {
        Err(problems)
    }
}

/// One file of the pending folder as `bridge status` reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct FileReport {
    pub(crate) file: String,
    #[serde(rename = "sessionId")]
    pub(crate) session_id: Option<String>,
    pub(crate) status: Option<String>,
    /// Empty when the record is valid.
    pub(crate) problems: Vec<String>,
}

/// Every `.json` file of the pending folder, by name: its id, status and problems. A file
/// that is not a regular file, or too large, is reported as unreadable.
pub(crate) fn report(rune: &Rune) -> Vec<FileReport> {
    let Ok(rd) = std::fs::read_dir(dir(rune)) else {
        return Vec::new();
    };
    let mut out: Vec<FileReport> = rd
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let file = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let raw = store::read_opt(&p);
            let v = raw
                .as_ref()
                .ok()
                .and_then(|t| t.as_deref())
                .and_then(|t| serde_json::from_str::<serde_json::Value>(t).ok());
            let field = |k: &str| {
                v.as_ref()
                    .and_then(|v| v.get(k))
                    .and_then(|x| x.as_str())
                    .map(str::to_string)
            };
            let mut problems = match raw {
                Ok(Some(t)) => read_record(&t).err().unwrap_or_default(),
                Ok(None) => vec!["not a regular file".into()],
                Err(e) => vec![format!("unreadable ({e})")],
            };
            let id = field("sessionId");
            if id.as_ref().is_some_and(|id| format!("{id}.json") != file) {
                problems.push("the file name is not `<sessionId>.json`".into());
            }
            FileReport {
                file,
                session_id: id,
                status: field("status"),
                problems,
            }
        })
        .collect();
    out.sort_by(|a, b| a.file.cmp(&b.file));
    out
}

fn dir(rune: &Rune) -> PathBuf {
    rune.dir.join(DIR)
}

fn path_of(rune: &Rune, id: &str) -> Result<PathBuf> {
    fsx::validate_component("oracle session id", id)?;
    if !valid_session_id(id) {
        return Err(Error::InvalidId {
            what: "oracle session id",
            value: id.to_string(),
            reason: "must match ^oracle-<digits>-<lowercase letters or digits>$",
        });
    }
    Ok(dir(rune).join(format!("{id}.json")))
}

fn write(rune: &Rune, r: &Record) -> Result<()> {
    r.check()?;
    let d = dir(rune);
    fsx::ensure_private_dir_in(&rune.root, &d)?;
    fsx::keep_out_of_git(&d)?;
    let mut text = serde_json::to_string_pretty(r).map_err(|e| Error::Internal(e.to_string()))?;
    text.push('\n');
    fsx::atomic_write(
        &path_of(rune, &r.session_id)?,
        text.as_bytes(),
        fsx::PRIVATE_FILE,
    )
}

/// Every valid record in the folder (invalid files are skipped).
fn all(rune: &Rune) -> Vec<(PathBuf, Option<Record>)> {
    let Ok(rd) = std::fs::read_dir(dir(rune)) else {
        return Vec::new();
    };
    rd.filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .map(|p| {
            let r = store::read_opt(&p)
                .ok()
                .flatten()
                .and_then(|t| Record::parse(&t).ok());
            (p, r)
        })
        .collect()
}

/// What a dispatch did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Dispatched {
    pub(crate) session_id: String,
    /// False when an existing record was returned.
    pub(crate) created: bool,
    pub(crate) status: String,
    pub(crate) timeout_at: String,
}

/// Records a dispatch, or returns the existing record for the same id or bundle.
pub(crate) fn detach(
    rune: &Rune,
    d: &Dispatch,
    now: DateTime<Utc>,
    random: u64,
) -> Result<Dispatched> {
    let id = d
        .session_id
        .clone()
        .unwrap_or_else(|| format!("oracle-{}-{}", now.timestamp(), base36(random)));
    let ts = time::rfc3339;
    let timeout_at = match &d.timeout_at {
        Some(t) => ts(parse_time("timeoutAt", t)?),
        None => ts(now + Duration::minutes(DEFAULT_TIMEOUT_MIN)),
    };
    let record = Record {
        session_id: id.clone(),
        dispatched_at: ts(now),
        trigger_signal: d.trigger_signal.clone(),
        source_skill: d.source_skill.clone(),
        target_model: d.target_model.clone(),
        bundle_hash: d.bundle_hash.clone(),
        status: "pending".into(),
        timeout_at,
        response_id: None,
        response_excerpt: None,
    };
    record.check()?;
    let _lock = rune.lock()?;
    let existing = path_of(rune, &id)?;
    if let Some(text) = store::read_opt(&existing)? {
        let r = Record::parse(&text)?;
        return Ok(Dispatched {
            session_id: r.session_id,
            created: false,
            status: r.status,
            timeout_at: r.timeout_at,
        });
    }
    if let Some(r) = all(rune)
        .into_iter()
        .filter_map(|(_, r)| r)
        .find(|r| r.bundle_hash == record.bundle_hash && r.status == "pending")
    {
        return Ok(Dispatched {
            session_id: r.session_id,
            created: false,
            status: r.status,
            timeout_at: r.timeout_at,
        });
    }
    write(rune, &record)?;
    Ok(Dispatched {
        session_id: id,
        created: true,
        status: record.status,
        timeout_at: record.timeout_at,
    })
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[usize::try_from(n % 36).unwrap_or(0)]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).unwrap_or_default()
}

/// Stores a response: the record becomes `complete`. `red` carries the project's extra
/// redaction patterns.
pub(crate) fn complete(
    rune: &Rune,
    id: &str,
    response_id: &str,
    excerpt: &str,
    red: &Redactor,
) -> Result<Record> {
    let _lock = rune.lock()?;
    let path = path_of(rune, id)?;
    let text = store::read_opt(&path)?.ok_or_else(|| {
        Error::NotFound(format!(
            "no pending record {id}; dispatch it first with `baton bridge detach`"
        ))
    })?;
    let mut r = Record::parse(&text)?;
    if r.status != "pending" {
        return Err(Error::Invalid(format!(
            "record {id} is {}, not pending",
            r.status
        )));
    }
    r.status = "complete".into();
    r.response_id = Some(red.redact(response_id).text);
    let clean = red.redact(excerpt.trim()).text;
    r.response_excerpt = Some(clean.chars().take(EXCERPT_MAX).collect());
    write(rune, &r)?;
    Ok(r)
}

/// What a reattach found.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Reattached {
    pub(crate) session_id: String,
    /// `complete`, `not_ready` or `failed`.
    pub(crate) status: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) response_excerpt: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) reason: Option<String>,
    pub(crate) timeout_at: String,
    /// The `oracle.failed` payload when this call turned the record into a failure.
    #[serde(skip)]
    pub(crate) failed: Option<serde_json::Value>,
}

/// Reattaches: complete → the response (the record is consumed: removed); pending past its
/// timeout → failed, with the `oracle.failed` payload; pending before it → not_ready.
pub(crate) fn reattach(rune: &Rune, id: &str, now: DateTime<Utc>) -> Result<Reattached> {
    let _lock = rune.lock()?;
    let path = path_of(rune, id)?;
    let text = store::read_opt(&path)?.ok_or_else(|| {
        Error::NotFound(format!(
            "no pending record {id} (never dispatched, already consumed, or cleaned up)"
        ))
    })?;
    let mut r = Record::parse(&text)?;
    let timeout = parse_time("timeoutAt", &r.timeout_at)?;
    let mut out = Reattached {
        session_id: r.session_id.clone(),
        status: r.status.clone(),
        response_id: None,
        response_excerpt: None,
        reason: None,
        timeout_at: r.timeout_at.clone(),
        failed: None,
    };
    match r.status.as_str() {
        "complete" => {
            out.response_id.clone_from(&r.response_id);
            out.response_excerpt.clone_from(&r.response_excerpt);
            std::fs::remove_file(&path).map_err(|e| Error::io("remove", &path, e))?;
        }
        "pending" if now >= timeout => {
            r.status = "failed".into();
            write(rune, &r)?;
            out.status = "failed".into();
            out.reason = Some("timeout".into());
            out.failed = Some(serde_json::json!({
                "sessionId": r.session_id,
                "reason": "timeout",
                "sourceSkill": r.source_skill,
                "targetModel": r.target_model,
                "timeoutAt": r.timeout_at,
            }));
        }
        "pending" => out.status = "not_ready".into(),
        _ => out.reason = Some("timeout".into()),
    }
    Ok(out)
}

/// Drops records dispatched more than 24 h ago (unreadable ones by their file time).
/// Returns how many.
pub(crate) fn cleanup(rune: &Rune, now: DateTime<Utc>) -> Result<usize> {
    if !dir(rune).is_dir() {
        return Ok(0);
    }
    let cutoff = now - Duration::hours(ORPHAN_HOURS);
    let mut removed = 0;
    for (path, record) in all(rune) {
        let at = record
            .and_then(|r| parse_time("dispatchedAt", &r.dispatched_at).ok())
            .or_else(|| {
                std::fs::metadata(&path)
                    .and_then(|m| m.modified())
                    .ok()
                    .map(DateTime::<Utc>::from)
            });
        if at.is_some_and(|t| t < cutoff) {
            std::fs::remove_file(&path).map_err(|e| Error::io("remove", &path, e))?;
            removed += 1;
        }
    }
    Ok(removed)
}

#[cfg(test)]
#[allow(clippy::many_single_char_names)]
mod tests {
    use super::*;

    fn now() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    fn rune(t: &tempfile::TempDir) -> Rune {
        Rune {
            root: t.path().into(),
            dir: t.path().join(".rune"),
            rel: ".rune".into(),
        }
    }

    fn dispatch(id: Option<&str>, hash: &str) -> Dispatch {
        Dispatch {
            session_id: id.map(str::to_string),
            trigger_signal: "agent.stuck".into(),
            source_skill: "debug".into(),
            target_model: "claude-opus-4-8".into(),
            bundle_hash: hash.into(),
            timeout_at: None,
        }
    }

    #[test]
    fn idempotent_on_id_and_bundle() {
        let t = tempfile::tempdir().unwrap();
        let r = rune(&t);
        let a = detach(
            &r,
            &dispatch(Some("oracle-1-abc"), "sha256:9f3a0000"),
            now(),
            1,
        )
        .unwrap();
        assert!(a.created);
        assert_eq!(a.timeout_at, "2026-11-30T10:25:00Z");
        let b = detach(
            &r,
            &dispatch(Some("oracle-2-def"), "sha256:9f3a0000"),
            now(),
            2,
        )
        .unwrap();
        assert_eq!((b.session_id.as_str(), b.created), ("oracle-1-abc", false));
        let c = detach(
            &r,
            &dispatch(Some("oracle-1-abc"), "sha256:ffff0000"),
            now(),
            3,
        )
        .unwrap();
        assert!(!c.created);
        let gen = detach(&r, &dispatch(None, "sha256:aaaa0000"), now(), 71).unwrap();
        assert!(
            gen.session_id.starts_with("oracle-") && gen.created,
            "{gen:?}"
        );
    }

    #[test]
    fn schema_is_enforced() {
        fn fields<T: std::fmt::Debug>(r: Result<T>) -> Vec<String> {
            match r {
                Err(Error::Fields { fields, .. }) => fields,
                other => panic!("{other:?}"),
            }
        }
        let t = tempfile::tempdir().unwrap();
        let r = rune(&t);
        let d = dispatch(Some("bad id"), "sha256:9f3a0000");
        assert_eq!(fields(detach(&r, &d, now(), 1)), ["sessionId"]);
        let d = dispatch(Some("oracle-1-a"), "md5:x");
        assert_eq!(fields(detach(&r, &d, now(), 1)), ["bundleHash"]);
        let mut d = dispatch(Some("oracle-1-a"), "sha256:9f3a0000");
        d.source_skill = "cook".into();
        assert_eq!(fields(detach(&r, &d, now(), 1)), ["sourceSkill"]);
        let missing = fields(Record::parse("{\"sessionId\":\"oracle-1-a\"}"));
        assert!(missing.contains(&"dispatchedAt".to_string()), "{missing:?}");
    }

    #[test]
    fn reattach_complete_not_ready_failed() {
        let t = tempfile::tempdir().unwrap();
        let r = rune(&t);
        detach(
            &r,
            &dispatch(Some("oracle-1-a"), "sha256:11111111"),
            now(),
            1,
        )
        .unwrap();
        detach(
            &r,
            &dispatch(Some("oracle-2-b"), "sha256:22222222"),
            now(),
            1,
        )
        .unwrap();
        assert_eq!(
            reattach(&r, "oracle-1-a", now()).unwrap().status,
            "not_ready"
        );
        complete(
            &r,
            "oracle-1-a",
            "resp_1",
            &"x".repeat(900),
            &Redactor::builtin(),
        )
        .unwrap();
        let done = reattach(&r, "oracle-1-a", now()).unwrap();
        assert_eq!(done.status, "complete");
        assert_eq!(done.response_excerpt.unwrap().len(), 500);
        assert!(reattach(&r, "oracle-1-a", now()).is_err(), "consumed");
        let late = now() + Duration::minutes(11);
        let failed = reattach(&r, "oracle-2-b", late).unwrap();
        assert_eq!(
            (failed.status.as_str(), failed.reason.as_deref()),
            ("failed", Some("timeout"))
        );
        assert_eq!(failed.failed.unwrap()["reason"], "timeout");
        assert!(reattach(&r, "oracle-2-b", late).unwrap().failed.is_none());
    }

    #[test]
    fn cleanup_drops_orphans_only() {
        let t = tempfile::tempdir().unwrap();
        let r = rune(&t);
        detach(
            &r,
            &dispatch(Some("oracle-1-old"), "sha256:11111111"),
            now() - Duration::hours(25),
            1,
        )
        .unwrap();
        detach(
            &r,
            &dispatch(Some("oracle-2-new"), "sha256:22222222"),
            now() - Duration::hours(2),
            1,
        )
        .unwrap();
        assert_eq!(cleanup(&r, now()).unwrap(), 1);
        assert!(!dir(&r).join("oracle-1-old.json").exists());
        assert!(dir(&r).join("oracle-2-new.json").exists());
        assert!(dir(&r).join(".gitignore").exists());
    }
}
