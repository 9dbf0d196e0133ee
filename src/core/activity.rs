//! What the agent touched in the current session, read from the audit trail.
//!
//! The audit subsystem writes `.boo/runs/<id>/audit_{buffer,pending,trail}.jsonl` (format in
//! README, "audit"); the handoff (Layer 3 of an automatic artefact) and the bridge (the
//! checkpoint's files touched) read it through this one function, so no subsystem reaches
//! into another's files. No audit session, or an unreadable one: an empty list.

use super::config::Config;
use super::fsx;
use super::jsonl;
use std::path::Path;

/// The record files of one audit session, oldest records first.
const RECORD_FILES: [&str; 3] = [
    "audit_trail.jsonl",
    "audit_pending.jsonl",
    "audit_buffer.jsonl",
];

/// Paths (relative to the project) of the `change` records of the current audit session, in
/// the order they were first changed, each once.
pub fn files_changed(root: &Path, config: &Config) -> Vec<String> {
    let runs = root.join(&config.paths.audit).join("runs");
    if fsx::refuse_symlink(&root.join(&config.paths.audit)).is_err()
        || fsx::refuse_symlink(&runs).is_err()
    {
        return Vec::new();
    }
    let Ok(id) = std::fs::read_to_string(runs.join(".current_session")) else {
        return Vec::new();
    };
    let id = id.trim();
    if fsx::validate_component("audit session id", id).is_err() {
        return Vec::new();
    }
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for file in RECORD_FILES {
        let path = runs.join(id).join(file);
        if fsx::refuse_symlink(&path).is_err() {
            continue;
        }
        let Ok((records, _)) = jsonl::read(&path) else {
            continue;
        };
        for r in records {
            if r.get("type").and_then(serde_json::Value::as_str) != Some("change") {
                continue;
            }
            if let Some(p) = r.get("path").and_then(serde_json::Value::as_str) {
                if !p.is_empty() && seen.insert(p.to_string()) {
                    out.push(p.to_string());
                }
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn change_paths_of_the_current_session_once_each() {
        let t = tempfile::tempdir().unwrap();
        let runs = t.path().join(".boo/runs");
        std::fs::create_dir_all(runs.join("adhoc_20261130_1015")).unwrap();
        std::fs::write(runs.join(".current_session"), "adhoc_20261130_1015\n").unwrap();
        std::fs::write(
            runs.join("adhoc_20261130_1015/audit_pending.jsonl"),
            "{\"type\":\"change\",\"path\":\"src/a.rs\"}\n{\"type\":\"data\",\"tool\":\"Read\"}\nnot json\n",
        )
        .unwrap();
        std::fs::write(
            runs.join("adhoc_20261130_1015/audit_buffer.jsonl"),
            "{\"type\":\"change\",\"path\":\"src/b.rs\"}\n{\"type\":\"change\",\"path\":\"src/a.rs\"}\n{\"type\":\"change\",\"path\":\"\"}\n",
        )
        .unwrap();
        assert_eq!(
            files_changed(t.path(), &Config::default()),
            vec!["src/a.rs", "src/b.rs"]
        );
    }

    #[test]
    fn no_session_or_a_bad_id_is_empty() {
        let t = tempfile::tempdir().unwrap();
        assert!(files_changed(t.path(), &Config::default()).is_empty());
        let runs = t.path().join(".boo/runs");
        std::fs::create_dir_all(&runs).unwrap();
        std::fs::write(runs.join(".current_session"), "../../etc\n").unwrap();
        assert!(files_changed(t.path(), &Config::default()).is_empty());
    }
}
