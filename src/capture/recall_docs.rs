//! The session digests as documents for `baton recall` (`core::recall`), kind `session`:
//! what each captured session asked, its tasks, its last failure, its files and its last
//! words. Capture owns the digest format, so it owns this reader; the hook bus wires it through
//! `Readers`. The digests are private state of this user (plugin data or XDG state), so only
//! this user's own are ever read.

use super::store;
use crate::core::project::{DocSource, Project};
use crate::core::recall::{Doc, Kind, Scan, Scope};
use crate::core::recap::Recap;
use std::collections::HashSet;

/// Capture's reader, for the hook bus's `Readers`.
pub(crate) const RECALL_DOCS: DocSource = DocSource {
    name: "capture",
    kinds: &[Kind::Session],
    scope: Scope::Project,
    read,
};

fn read(project: &Project, scan: &mut Scan<'_>) {
    if !scan.wants(Kind::Session) || !project.config().capture.enabled {
        return;
    }
    let mut seen = HashSet::new();
    for base in store::read_bases(project) {
        let dir = store::sessions_dir(&base, project);
        for (id, path, _) in store::list(&dir) {
            if !seen.insert(id.clone()) {
                continue;
            }
            let Some(stored) = store::load(&path) else {
                scan.corrupt(&path.display().to_string(), 1, "not a session digest");
                continue;
            };
            let recap = super::recap::recap(&stored.digest, &path);
            if !scan.overlaps(recap.started, recap.last_activity) {
                continue;
            }
            scan.doc(session_doc(&recap, &id));
        }
    }
}

/// One captured session as a document: its request as the title, the rest as the body.
fn session_doc(r: &Recap, id: &str) -> Doc {
    let request = r
        .latest_request
        .as_deref()
        .or(r.first_request.as_deref())
        .unwrap_or("(no request captured)");
    let mut doc = Doc::new(
        Kind::Session,
        r.digest_path.display().to_string(),
        format!("Claude session {}: {request}", short(id)),
    );
    doc.ts = r.last_activity.or(r.started);
    doc.id = Some(id.to_string());
    doc.session = Some(id.to_string());
    doc.author = Some("captured".into());
    let mut text = Vec::new();
    if let Some(first) = &r.first_request {
        text.push(format!("asked: {first}"));
    }
    for t in &r.tasks {
        text.push(format!("task ({}): {}", t.status.as_str(), t.subject));
    }
    if let Some(f) = &r.last_failure {
        text.push(format!("failed: {} → {}", f.command, f.error));
    }
    for c in &r.corrections {
        text.push(format!("corrected: {c}"));
    }
    if !r.files.is_empty() {
        text.push(format!("files: {}", r.files.join(", ")));
    }
    if let Some(last) = &r.last_assistant {
        text.push(format!("last words: {last}"));
    }
    doc.text = text.join("\n");
    doc
}

/// The first 8 characters of a session id, as people read it.
fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
