//! `.rune/learnings.jsonl`: structured learnings, append-only. Reads take the latest entry
//! per key+type; past 100 lines the file is compacted to those winners by atomic rewrite.

use super::global::Candidate;
use super::provenance::Ledger;
use super::store::{self, Rune};
use crate::core::error::{Error, Result};
use crate::core::redact::Redactor;
use crate::core::text::one_line;
use crate::core::{fsx, jsonl, time};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// Lines past which the file is compacted.
pub(crate) const COMPACT_AFTER: usize = 100;
/// The learning types.
pub(crate) const TYPES: [&str; 5] = ["decision", "error", "insight", "convention", "performance"];

/// One learning as given (save input or `baton bridge learn`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct Learning {
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) key: String,
    pub(crate) insight: String,
    pub(crate) confidence: Option<f64>,
    pub(crate) files: Vec<String>,
    pub(crate) skill: Option<String>,
}

/// One line of the file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct Record {
    pub(crate) ts: String,
    #[serde(default)]
    pub(crate) skill: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) key: String,
    pub(crate) insight: String,
    #[serde(default)]
    pub(crate) confidence: f64,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub(crate) files: Vec<String>,
    /// Who saved it (`user.name`, see `author`); missing in older lines.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub(crate) by: String,
}

fn is_kebab(s: &str) -> bool {
    !s.is_empty()
        && s.len() <= 80
        && s.split('-').all(|p| {
            !p.is_empty()
                && p.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
        })
}

impl Learning {
    /// Checks type, key, insight and confidence; the error names the field.
    pub(crate) fn check(&self) -> Result<()> {
        if !TYPES.contains(&self.kind.as_str()) {
            return Err(Error::field(
                "type",
                format!(
                    "learning `type` {:?} is not one of {}",
                    self.kind,
                    TYPES.join(", ")
                ),
            ));
        }
        if !is_kebab(&self.key) {
            return Err(Error::field("key", format!(
                "learning `key` {:?} must be kebab-case (lowercase letters and digits joined by -), e.g. auth-lib",
                self.key
            )));
        }
        if self.insight.trim().is_empty() {
            return Err(Error::field(
                "insight",
                format!(
                    "learning {:?}: `insight` is empty; say what was learned and why",
                    self.key
                ),
            ));
        }
        if let Some(c) = self.confidence.filter(|c| !(0.1..=1.0).contains(c)) {
            return Err(Error::field(
                "confidence",
                format!(
                    "learning {:?}: `confidence` {c} is out of range (0.1 to 1.0)",
                    self.key
                ),
            ));
        }
        Ok(())
    }

    /// The learning as a cross-project candidate (confidence 0.5 when not given).
    pub(crate) fn candidate(&self) -> Candidate {
        Candidate::Learning {
            kind: self.kind.clone(),
            key: self.key.clone(),
            insight: self.insight.clone(),
            confidence: self.confidence.unwrap_or(0.5),
        }
    }

    fn record(&self, red: &Redactor, now: DateTime<Utc>, by: Option<&str>) -> Record {
        Record {
            ts: time::rfc3339(now),
            skill: self
                .skill
                .clone()
                .unwrap_or_else(|| "session-bridge".into()),
            kind: self.kind.clone(),
            key: self.key.clone(),
            insight: one_line(&red.redact(&self.insight).text),
            confidence: self.confidence.unwrap_or(0.5),
            files: self.files.iter().map(|f| red.redact(f).text).collect(),
            by: by.unwrap_or_default().to_string(),
        }
    }
}

/// Appends the learnings (checked first) and compacts when the file passed 100 lines.
/// Returns whether it compacted. Call under the folder lock.
pub(crate) fn append_all(
    rune: &Rune,
    red: &Redactor,
    items: &[Learning],
    now: DateTime<Utc>,
    by: Option<&str>,
) -> Result<bool> {
    for l in items {
        l.check()?;
    }
    let path = rune.path(store::LEARNINGS);
    fsx::refuse_symlink(&path)?;
    for l in items {
        jsonl::append(&path, &l.record(red, now, by), fsx::PRIVATE_FILE)?;
    }
    let text = store::read_opt(&path)?.unwrap_or_default();
    if text.lines().filter(|l| !l.trim().is_empty()).count() <= COMPACT_AFTER {
        return Ok(false);
    }
    fsx::atomic_write(&path, compact(&text).as_bytes(), fsx::PRIVATE_FILE)?;
    Ok(true)
}

/// Records the lines `append_all` wrote for `items` at `now` in the provenance ledger
/// (the same serialisation `jsonl::append` wrote; compaction keeps lines verbatim).
pub(crate) fn record_appended(
    ledger: &Ledger,
    red: &Redactor,
    items: &[Learning],
    now: DateTime<Utc>,
    by: Option<&str>,
) -> Result<()> {
    let lines: Vec<String> = items
        .iter()
        .filter_map(|l| serde_json::to_string(&l.record(red, now, by)).ok())
        .collect();
    ledger.record(store::LEARNINGS, &lines, "learn", now)
}

/// The compacted file: the winning line per key+type and every line that is not a record
/// (kept for a person to look at), each verbatim (unknown fields stay), in file order.
fn compact(text: &str) -> String {
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    let parsed: Vec<(usize, Record)> = lines
        .iter()
        .enumerate()
        .filter_map(|(i, l)| serde_json::from_str::<Record>(l).ok().map(|r| (i, r)))
        .collect();
    let records: Vec<Record> = parsed.iter().map(|(_, r)| r.clone()).collect();
    let mut keep = vec![true; lines.len()];
    for (i, _) in &parsed {
        keep[*i] = false;
    }
    for w in winners(&records) {
        keep[parsed[w].0] = true;
    }
    let mut out = String::new();
    for (l, k) in lines.iter().zip(keep) {
        if k {
            out.push_str(l);
            out.push('\n');
        }
    }
    out
}

/// The records of a JSONL text (bad lines skipped).
pub(crate) fn parse(text: &str) -> Vec<Record> {
    text.lines()
        .filter_map(|l| serde_json::from_str::<Record>(l).ok())
        .collect()
}

/// A record's time, parsed (offsets honoured); `None` (oldest) when unparseable.
pub(crate) fn when(r: &Record) -> Option<DateTime<Utc>> {
    time::parse(&r.ts)
}

/// The indices of the latest record per key+type by time (offsets honoured, so the order of
/// the lines — which a merge decides — does not; a tie of equal times goes to the later
/// line), oldest first.
pub(crate) fn winners(records: &[Record]) -> Vec<usize> {
    // Each time is parsed once: the sort below compares them n·log n times.
    let times: Vec<Option<DateTime<Utc>>> = records.iter().map(when).collect();
    let mut best: HashMap<(&str, &str), usize> = HashMap::new();
    for (i, r) in records.iter().enumerate() {
        let k = (r.key.as_str(), r.kind.as_str());
        match best.get(&k) {
            Some(&j) if times[j] > times[i] => {}
            _ => {
                best.insert(k, i);
            }
        }
    }
    let mut idx: Vec<usize> = best.into_values().collect();
    idx.sort_by(|&a, &b| times[a].cmp(&times[b]).then(a.cmp(&b)));
    idx
}

/// The latest record per key+type, oldest first.
pub(crate) fn latest(records: &[Record]) -> Vec<Record> {
    winners(records)
        .into_iter()
        .map(|i| records[i].clone())
        .collect()
}

/// Query: latest winners, newest first, filtered by type and skill.
pub(crate) fn query(
    rune: &Rune,
    kind: Option<&str>,
    skill: Option<&str>,
    limit: Option<usize>,
) -> Result<Vec<Record>> {
    let text = store::read_opt(&rune.path(store::LEARNINGS))?.unwrap_or_default();
    let mut out: Vec<Record> = latest(&parse(&text))
        .into_iter()
        .filter(|r| kind.is_none_or(|k| r.kind == k))
        .filter(|r| skill.is_none_or(|s| r.skill == s))
        .collect();
    out.reverse();
    if let Some(n) = limit {
        out.truncate(n);
    }
    Ok(out)
}

/// One line per learning, for people.
pub(crate) fn render(records: &[Record]) -> String {
    if records.is_empty() {
        return "No learnings recorded.\n".into();
    }
    let mut out = String::new();
    for r in records {
        out.push_str(&format!(
            "- [{}] {} `{}` ({:.1}): {}{}{}\n",
            r.ts.get(..10).unwrap_or(&r.ts),
            r.kind,
            r.key,
            r.confidence,
            r.insight,
            if r.files.is_empty() {
                String::new()
            } else {
                format!(" — {}", r.files.join(", "))
            },
            if r.by.is_empty() {
                String::new()
            } else {
                format!(" (by {})", r.by)
            }
        ));
    }
    out
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    fn rec(ts: &str, key: &str, kind: &str, insight: &str) -> Record {
        Record {
            ts: ts.into(),
            skill: "cook".into(),
            kind: kind.into(),
            key: key.into(),
            insight: insight.into(),
            confidence: 0.5,
            files: vec![],
            by: String::new(),
        }
    }

    #[test]
    fn latest_wins_per_key_and_type() {
        let rs = vec![
            rec("2026-01-01T00:00:00Z", "auth-lib", "decision", "old"),
            rec("2026-01-02T00:00:00Z", "auth-lib", "error", "other type"),
            rec("2026-01-03T00:00:00Z", "auth-lib", "decision", "new"),
        ];
        let w = latest(&rs);
        assert_eq!(w.len(), 2);
        assert_eq!(w[1].insight, "new");
    }

    #[test]
    fn checks_name_the_field() {
        let mut l = Learning {
            kind: "error".into(),
            key: "Bad Key".into(),
            insight: "x".into(),
            ..Learning::default()
        };
        let field = |l: &Learning| match l.check() {
            Err(Error::Fields { fields, .. }) => fields.join(","),
            other => panic!("{other:?}"),
        };
        assert_eq!(field(&l), "key");
        l.key = "good-key-2".into();
        assert!(l.check().is_ok());
        l.confidence = Some(1.5);
        assert_eq!(field(&l), "confidence");
        l.kind = "musing".into();
        assert_eq!(field(&l), "type");
    }

    #[test]
    fn latest_compares_times_not_strings_and_compaction_keeps_what_it_cannot_read() {
        let line = |ts: &str, insight: &str| {
            format!(
                r#"{{"ts":"{ts}","type":"insight","key":"k","insight":"{insight}","confidence":0.5}}"#
            )
        };
        let text = format!(
            "{}\n{}\n",
            line("2026-11-30T14:00:00Z", "newer"),
            line("2026-11-30T20:00:00+07:00", "older")
        );
        let l = latest(&parse(&text));
        assert_eq!(l.len(), 1);
        assert_eq!(l[0].insight, "newer");

        let tagged = r#"{"ts":"2026-11-30T15:00:00Z","type":"error","key":"e","insight":"x","confidence":0.5,"tags":["a"]}"#;
        let text = format!("{text}not json at all\n{tagged}\n");
        let out = compact(&text);
        assert_eq!(
            out,
            format!(
                "{}\nnot json at all\n{tagged}\n",
                line("2026-11-30T14:00:00Z", "newer")
            )
        );
    }

    #[test]
    fn compaction_past_100_keeps_winners() {
        let t = tempfile::tempdir().unwrap();
        let rune = Rune {
            root: t.path().to_path_buf(),
            dir: t.path().to_path_buf(),
            rel: ".rune".into(),
        };
        let red = Redactor::builtin();
        let now = DateTime::parse_from_rfc3339("2026-11-30T10:15:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let mut compacted = false;
        for i in 0..101 {
            let l = Learning {
                kind: "insight".into(),
                key: format!("k-{}", i % 10),
                insight: format!("n{i}"),
                ..Learning::default()
            };
            compacted =
                append_all(&rune, &red, &[l], now + chrono::Duration::seconds(i), None).unwrap();
        }
        assert!(compacted);
        let text = std::fs::read_to_string(t.path().join(store::LEARNINGS)).unwrap();
        assert_eq!(text.lines().count(), 10);
        assert!(text.contains("\"n100\"") && !text.contains("\"n0\""));
    }
}
