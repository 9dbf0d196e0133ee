//! recall's private index (issue 38) through the real binary: kept current by the searches
//! as the stores grow, shrink and change, private and out of the repository, rebuilt when it
//! cannot be read, and giving the hits a plain scan gives.

use crate::harness::Project;
use serde_json::Value;
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;

const TRAIL: &str = ".boo/runs/adhoc_20261130_1000/audit_trail.jsonl";

fn record(id: &str, text: &str) -> String {
    format!("{{\"id\":\"{id}\",\"ts\":\"2026-11-30T10:00:00Z\",\"type\":\"user_correction\",\"text\":\"{text}\"}}\n")
}

fn titles(p: &Project, q: &str, env: &[(&str, &str)]) -> Vec<String> {
    let out = p.run(&["recall", q, "--json"], b"", env);
    assert_eq!(out.code, 0, "{out:?}");
    out.json()["hits"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["title"].as_str().unwrap().to_string())
        .collect()
}

fn index_dir(p: &Project) -> PathBuf {
    let projects = p.home.path().join(".local/state/baton/projects");
    let key = std::fs::read_dir(&projects)
        .unwrap()
        .next()
        .unwrap()
        .unwrap();
    key.path().join("recall-index")
}

#[test]
fn the_index_follows_the_stores_and_stays_private() {
    let p = Project::new();
    p.write(TRAIL, &record("c-1", "no, keep the zebra cache warm"));
    assert_eq!(titles(&p, "zebra", &[]).len(), 1);
    let dir = index_dir(&p);
    let mode = |p: &PathBuf| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        assert_eq!(mode(&e.path()), 0o600, "{}", e.path().display());
    }
    // An appended record is found by the next search.
    let mut text = std::fs::read_to_string(p.root.join(TRAIL)).unwrap();
    text.push_str(&record("c-2", "the zebra table is read-only"));
    p.write(TRAIL, &text);
    assert_eq!(titles(&p, "zebra", &[]).len(), 2);
    // A rewritten file is read again: what it no longer holds is not found.
    p.write(TRAIL, &record("c-3", "the okapi moved"));
    assert!(titles(&p, "zebra", &[]).is_empty());
    assert_eq!(titles(&p, "okapi", &[]).len(), 1);
    // A session removed: its records are gone from the index too.
    std::fs::remove_dir_all(p.root.join(".boo/runs/adhoc_20261130_1000")).unwrap();
    assert!(titles(&p, "okapi", &[]).is_empty());
    // Nothing of it is in the repository.
    let status = p.run(&["status"], b"", &[]);
    assert_eq!(status.code, 0, "{status:?}");
    let git = std::process::Command::new("git")
        .args(["status", "--porcelain", "--ignored"])
        .current_dir(&p.root)
        .output()
        .unwrap();
    assert!(
        !String::from_utf8_lossy(&git.stdout).contains("recall-index"),
        "{}",
        String::from_utf8_lossy(&git.stdout)
    );
}

#[test]
fn an_index_that_cannot_be_read_is_built_again() {
    let p = Project::new();
    p.write(TRAIL, &record("c-1", "no, keep the zebra cache warm"));
    assert_eq!(titles(&p, "zebra", &[]).len(), 1);
    let dir = index_dir(&p);
    // A torn manifest, a torn segment: as a crash in the middle of a write would leave them.
    std::fs::write(dir.join("manifest.json"), "{\"version\":1,\"segm").unwrap();
    assert_eq!(titles(&p, "zebra", &[]).len(), 1);
    for e in std::fs::read_dir(&dir).unwrap().flatten() {
        if e.file_name().to_string_lossy().ends_with(".brix") {
            std::fs::write(e.path(), b"BRIX").unwrap();
        }
    }
    assert_eq!(titles(&p, "zebra", &[]).len(), 1);
    let manifest: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("manifest.json")).unwrap()).unwrap();
    assert!(manifest["segments"]
        .as_array()
        .is_some_and(|s| !s.is_empty()));
}

#[test]
fn the_index_gives_the_hits_a_scan_gives() {
    let p = Project::new();
    let mut trail = String::new();
    for i in 0..300 {
        let topic = ["cache", "queue", "billing", "auth", "logging"][i % 5];
        trail.push_str(&record(
            &format!("c-{i}"),
            &format!("no, the {topic} needs a check ({i})"),
        ));
    }
    p.write(TRAIL, &trail);
    p.write(
        ".rune/decisions.md",
        "# Decisions Log\n\n## [2026-11-20 10:15] Decision: Evict the response cache by LRU\n**Decision:** evict least-recently-used entries past 10k\n",
    );
    // No private folder to keep an index in: a plain scan.
    let scan_env = [("XDG_STATE_HOME", "/proc/baton-none")];
    for q in [
        "cache eviction",
        "what did the user say about logging",
        "billing auth",
        "db",
    ] {
        let with_index = titles(&p, q, &[]);
        let scanned = titles(&p, q, &scan_env);
        assert_eq!(with_index, scanned, "{q}");
    }
    assert!(index_dir(&p).join("manifest.json").exists());
}

#[test]
fn a_rare_synonym_counts_more_than_one_every_record_has() {
    // "sluggish" finds both "latency" and "performance" (one group of the thesaurus); the
    // index knows that nearly every record says "performance", so the one record that says
    // "latency" comes first although it is the longest.
    let p = Project::new();
    let mut text: String = (0..20)
        .map(|i| record(&format!("c-{i}"), &format!("performance review {i}")))
        .collect();
    text.push_str(&record(
        "c-rare",
        "the export job latency doubled after the upgrade and nobody noticed for a week",
    ));
    p.write(TRAIL, &text);
    let got = titles(&p, "sluggish", &[]);
    assert!(got.len() > 1, "{got:?}");
    assert!(got[0].contains("latency"), "{got:?}");
}
