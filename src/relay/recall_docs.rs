//! The relay's packets as documents for `baton recall` (`core::recall`): the packet on disk,
//! the packets of earlier hand-offs (each `weave-loop: handoff` commit holds one; the newest
//! `HISTORY_MAX` commits of the branch are looked at), and the STOP / NEEDS-HUMAN sentinels.
//! The relay owns the packet format (packet.rs), so it owns this reader; the hook bus wires
//! it through `Readers`.

use super::layout::{read_opt, Layout, Sentinel};
use super::packet::Packet;
use crate::core::project::{DocSource, Project};
use crate::core::recall::{Doc, Kind, Scan, Scope};
use crate::core::text::clip;
use crate::core::time;
use std::path::Path;

/// The relay's reader, for the hook bus's `Readers`.
pub(crate) const RECALL_DOCS: DocSource = DocSource {
    name: "relay",
    kinds: &[Kind::Packet],
    scope: Scope::Project,
    read,
    indexed: false,
};

/// Commits of the branch looked at for earlier packets (first parents, newest first): bounds
/// the walk in a repository with a long history.
const HISTORY_MAX: usize = 2_000;

/// The message of a hand-off commit (`commit.rs`).
const HANDOFF_COMMIT: &str = "weave-loop: handoff";

fn read(project: &Project, scan: &mut Scan<'_>) {
    if !scan.wants(Kind::Packet) {
        return;
    }
    let layout = Layout::new(&project.root, project.config());
    let shown = Layout::show(&layout.packet_rel);
    let current = match read_opt(&layout.abs(&layout.packet_rel)) {
        Ok(t) => t,
        Err(e) => {
            scan.withheld(format!("{shown}: {e}"));
            None
        }
    };
    if let Some(text) = &current {
        packet_doc(scan, text, shown.clone());
    }
    history(
        scan,
        project,
        &layout.packet_rel,
        current.as_deref(),
        &shown,
    );
    for s in [Sentinel::NeedsHuman, Sentinel::Stop] {
        let rel = layout.sentinel_rel(s);
        if let Ok(Some(text)) = read_opt(&layout.abs(rel)) {
            let name = rel
                .file_name()
                .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
            let first = text.lines().next().unwrap_or("");
            let title = if first.starts_with(&name) {
                first.to_string()
            } else {
                format!("{name}: {first}")
            };
            let mut doc = Doc::new(Kind::Packet, Layout::show(rel), clip(&title, 160));
            doc.line = Some(1);
            doc.failed = s == Sentinel::NeedsHuman;
            doc.push(&text, true);
            scan.doc(doc);
        }
    }
}

/// A packet file as a document (one that does not parse is still searched, undated).
fn packet_doc(scan: &mut Scan<'_>, text: &str, source: String) {
    let packet = Packet::parse(text, &source).ok();
    let title = packet.as_ref().map_or_else(
        || "Relay packet (unreadable front matter)".to_string(),
        |p| format!("Relay packet {}: {}", p.loop_id, p.key_state()),
    );
    let mut doc = Doc::new(Kind::Packet, source, title);
    doc.ts = packet.as_ref().and_then(|p| time::parse(&p.written_at));
    doc.session = packet.map(|p| p.loop_id);
    doc.line = Some(1);
    doc.text = text.to_string();
    scan.doc(doc);
}

/// The packets committed by earlier hand-offs, other than the one on disk.
fn history(scan: &mut Scan<'_>, project: &Project, rel: &Path, current: Option<&str>, shown: &str) {
    let Ok(repo) = git2::Repository::discover(&project.root) else {
        return;
    };
    let Some(workdir) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return;
    };
    let Ok(root) = project.root.canonicalize() else {
        return;
    };
    let Ok(in_repo) = root.strip_prefix(&workdir).map(|p| p.join(rel)) else {
        return;
    };
    let Ok(mut walk) = repo.revwalk() else {
        return;
    };
    if walk.push_head().is_err() || walk.simplify_first_parent().is_err() {
        return;
    }
    let mut seen: Vec<String> = current.map(str::to_string).into_iter().collect();
    for oid in walk.take(HISTORY_MAX).flatten() {
        let Ok(commit) = repo.find_commit(oid) else {
            continue;
        };
        if !commit
            .summary()
            .is_some_and(|s| s.starts_with(HANDOFF_COMMIT))
        {
            continue;
        }
        let blob = commit
            .tree()
            .ok()
            .and_then(|t| t.get_path(&in_repo).ok())
            .and_then(|e| repo.find_blob(e.id()).ok());
        let Some(text) = blob.and_then(|b| String::from_utf8(b.content().to_vec()).ok()) else {
            continue;
        };
        if seen.contains(&text) {
            continue;
        }
        let short: String = oid.to_string().chars().take(7).collect();
        packet_doc(scan, &text, format!("{shown}@{short}"));
        seen.push(text);
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::recall::Filter;

    #[test]
    fn the_packet_and_a_sentinel_are_documents() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join(".handoff");
        std::fs::create_dir_all(dir.join("packets")).unwrap();
        std::fs::create_dir_all(dir.join("loop")).unwrap();
        std::fs::write(
            dir.join("packets/latest.md"),
            "---\nloop_id: WL-012\norchestrator_phase: verify\nlanded_this_session: 2\nopen_findings: [flaky login test]\ndecisions: []\nwritten_at: 2026-11-30T10:15:00Z\n---\n# Relay packet WL-012\n",
        )
        .unwrap();
        std::fs::write(
            dir.join("loop/NEEDS-HUMAN"),
            "NEEDS-HUMAN: verify-on-resume.sh exited 1\n--- output ---\nmigration 42 failed\n",
        )
        .unwrap();
        let project = Project::for_test(t.path(), None);
        let f = Filter::default();
        let mut docs = Vec::new();
        let mut sink = |d: Doc| docs.push(d);
        let mut scan = Scan::new(&f, &mut sink);
        read(&project, &mut scan);
        assert_eq!(docs.len(), 2);
        assert_eq!(
            docs[0].title,
            "Relay packet WL-012: phase verify · landed this session 2"
        );
        assert_eq!(docs[0].ts, time::parse("2026-11-30T10:15:00Z"));
        assert_eq!(docs[0].session.as_deref(), Some("WL-012"));
        assert!(docs[0].text.contains("flaky login test"));
        assert_eq!(docs[1].title, "NEEDS-HUMAN: verify-on-resume.sh exited 1");
        assert_eq!(docs[1].source, ".handoff/loop/NEEDS-HUMAN");
    }
}
