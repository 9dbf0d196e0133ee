//! The session digests as documents for `baton recall` (`core::recall`), kind `session`: one
//! per captured session (what it asked, its tasks, its failures, its files, its last words)
//! and one per turn it keeps (what was asked, what the assistant concluded, what went wrong
//! in it) — a turn's conclusion and its error lines are the parts that answer. Capture owns
//! the digest format, so it owns this reader; the hook bus wires it through `Readers`. The
//! digests are private state of this user (plugin data or XDG state), so only this user's
//! own are ever read.

use super::digest::{Digest, TurnNote};
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
    indexed: true,
};

fn read(project: &Project, scan: &mut Scan<'_>) {
    if !scan.wants(Kind::Session) || !project.config().capture.enabled {
        return;
    }
    let mut seen = HashSet::new();
    for base in store::read_bases(project) {
        let dir = store::sessions_dir(&base, project);
        for (id, path, _) in store::list(&dir) {
            if !seen.insert(id.clone()) || !scan.visit(&[&path]) {
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
            scan.doc(session_doc(&recap, &stored.digest, &id));
            for (i, turn) in stored.digest.turns.iter().enumerate() {
                scan.doc(turn_doc(&recap, turn, &id, i + 1));
            }
        }
    }
}

/// One captured session as a document: its request as the title, the rest as the body.
fn session_doc(r: &Recap, d: &Digest, id: &str) -> Doc {
    let request = r
        .latest_request
        .as_deref()
        .or(r.first_request.as_deref())
        .unwrap_or("(no request captured)");
    // With turns kept, each is its own document with its request: this one is the
    // session's overview (its tasks, failures, corrections and files).
    let title = if d.turns.is_empty() {
        format!("Claude session {}: {request}", short(id))
    } else {
        format!("Claude session {} (overview)", short(id))
    };
    let mut doc = Doc::new(Kind::Session, r.digest_path.display().to_string(), title);
    doc.ts = r.last_activity.or(r.started);
    doc.id = Some(id.to_string());
    doc.session = Some(id.to_string());
    doc.author = Some("captured".into());
    if let Some(first) = r.first_request.as_ref().filter(|_| d.turns.is_empty()) {
        doc.push(&format!("asked: {first}"), false);
    }
    for t in &r.tasks {
        doc.push(
            &format!("task ({}): {}", t.status.as_str(), t.subject),
            false,
        );
    }
    for f in &d.failures {
        doc.push(&format!("failed: {} → {}", f.command, f.error), true);
    }
    doc.failed = !d.failures.is_empty();
    for c in &r.corrections {
        doc.push(&format!("corrected: {c}"), true);
    }
    if !r.files.is_empty() {
        doc.push(&format!("files: {}", r.files.join(", ")), false);
    }
    // A kept turn is its own document, with its conclusion: the last words only when none is.
    if let Some(last) = r.last_assistant.as_ref().filter(|_| d.turns.is_empty()) {
        doc.push(&format!("last words: {last}"), true);
    }
    doc
}

/// One turn of a captured session: its request as the title; its conclusion and what went
/// wrong in it as the parts that answer.
fn turn_doc(r: &Recap, t: &TurnNote, id: &str, n: usize) -> Doc {
    let request = if t.request.is_empty() {
        "(a turn begun before capture read)"
    } else {
        &t.request
    };
    let mut doc = Doc::new(
        Kind::Session,
        r.digest_path.display().to_string(),
        format!("Claude session {} turn {n}: {request}", short(id)),
    );
    doc.ts = t
        .ended
        .as_deref()
        .or(t.started.as_deref())
        .and_then(crate::core::time::parse)
        .or(r.last_activity);
    doc.id = Some(format!("{id}#{n}"));
    doc.session = Some(id.to_string());
    doc.author = Some("captured".into());
    for e in &t.errors {
        doc.push(&format!("error: {e}"), true);
    }
    doc.failed = !t.errors.is_empty();
    if !t.conclusion.is_empty() {
        let label = if t.corrected {
            "concluded (the user corrected it)"
        } else {
            "concluded"
        };
        doc.push(&format!("{label}: {}", t.conclusion), !t.corrected);
    }
    doc
}

/// The first 8 characters of a session id, as people read it.
fn short(id: &str) -> &str {
    id.get(..8).unwrap_or(id)
}
