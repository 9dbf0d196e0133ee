//! JSON Lines: one object per line, appended whole under a lock, read leniently (a torn or
//! foreign line is skipped and counted, never fatal).

use super::error::{Error, Result};
use super::fsx;
use serde::Serialize;
use std::path::Path;

/// Appends `record` as one line.
pub fn append<T: Serialize>(path: &Path, record: &T, mode: u32) -> Result<()> {
    let line = serde_json::to_string(record)
        .map_err(|e| Error::Internal(format!("serialize record for {}: {e}", path.display())))?;
    fsx::append_line(path, &line, mode)
}

/// The records of `path` and how many lines were skipped as unreadable. A missing file has
/// no records.
pub fn read(path: &Path) -> Result<(Vec<serde_json::Value>, usize)> {
    match super::fsx::read_lossy(path, super::fsx::Limit::LOG)? {
        Some(text) => Ok(parse(&text)),
        None => Ok((Vec::new(), 0)),
    }
}

/// Parses JSON Lines text leniently.
pub fn parse(text: &str) -> (Vec<serde_json::Value>, usize) {
    let mut records = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match serde_json::from_str::<serde_json::Value>(line) {
            Ok(v @ serde_json::Value::Object(_)) => records.push(v),
            _ => skipped += 1,
        }
    }
    (records, skipped)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn append_then_read_skips_torn_lines() {
        let t = tempfile::tempdir().unwrap();
        let p = t.path().join("a.jsonl");
        append(&p, &serde_json::json!({"n": 1}), fsx::PRIVATE_FILE).unwrap();
        std::fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .and_then(|mut f| std::io::Write::write_all(&mut f, b"{\"n\": 2, \"tor\n"))
            .unwrap();
        append(&p, &serde_json::json!({"n": 3}), fsx::PRIVATE_FILE).unwrap();
        let (recs, skipped) = read(&p).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(skipped, 1);
        assert_eq!(recs[1]["n"], 3);
    }

    #[test]
    fn missing_file_is_empty() {
        let t = tempfile::tempdir().unwrap();
        assert_eq!(read(&t.path().join("none.jsonl")).unwrap(), (vec![], 0));
    }
}
