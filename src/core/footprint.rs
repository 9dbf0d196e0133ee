//! What baton keeps in a project: which subsystems have a state folder with something in it.
//! `baton status` shows it; the SessionStart status line says it in one sentence.

use crate::core::config::Config;
use serde::Serialize;
use std::path::{Path, PathBuf};

/// One subsystem's state in a project.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SubsystemState {
    /// relay, audit, handoff or bridge.
    pub name: &'static str,
    /// Whether its hooks run.
    pub enabled: bool,
    /// Its state directory, relative to the project root.
    pub dir: String,
    /// Whether that directory exists and holds anything.
    pub has_state: bool,
}

/// Surveys the four subsystems' state directories (one `read_dir` each).
pub fn state_folders(root: &Path, config: &Config) -> Vec<SubsystemState> {
    [
        ("relay", config.relay.enabled, &config.paths.relay),
        ("audit", config.audit.enabled, &config.paths.audit),
        ("handoff", config.handoff.enabled, &config.paths.handoff),
        ("bridge", config.bridge.enabled, &config.paths.bridge),
    ]
    .into_iter()
    .map(|(name, enabled, dir)| SubsystemState {
        name,
        enabled,
        dir: format!("{}/", dir.display()),
        has_state: std::fs::read_dir(root.join(dir)).is_ok_and(|mut d| d.next().is_some()),
    })
    .collect()
}

/// The four state folders of the project at `root`, as absolute paths (what counts as
/// baton's own when it tells a commit of its state from the user's work).
pub fn own_folders(root: &Path, config: &Config) -> Vec<PathBuf> {
    [
        &config.paths.relay,
        &config.paths.audit,
        &config.paths.handoff,
        &config.paths.bridge,
    ]
    .into_iter()
    .map(|dir| root.join(dir))
    .collect()
}

/// The one line SessionStart injects.
pub fn active_line(states: &[SubsystemState]) -> String {
    let with: Vec<String> = states
        .iter()
        .filter(|s| s.has_state)
        .map(|s| format!("{} ({})", s.name, s.dir))
        .collect();
    let off: Vec<&str> = states
        .iter()
        .filter(|s| !s.enabled)
        .map(|s| s.name)
        .collect();
    let mut line = String::from("baton is active. ");
    if with.is_empty() {
        line.push_str("No subsystem has state in this repository yet.");
    } else {
        line.push_str(&format!("State in this repository: {}.", with.join(", ")));
    }
    if !off.is_empty() {
        line.push_str(&format!(" Disabled by config: {}.", off.join(", ")));
    }
    line
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;

    #[test]
    fn state_folders_are_seen_when_not_empty() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".rune")).unwrap();
        std::fs::write(t.path().join(".rune/progress.md"), "x").unwrap();
        std::fs::create_dir_all(t.path().join(".boo")).unwrap();
        let s = state_folders(t.path(), &Config::default());
        let with: Vec<_> = s.iter().filter(|s| s.has_state).map(|s| s.name).collect();
        assert_eq!(with, vec!["bridge"]);
        assert_eq!(
            active_line(&s),
            "baton is active. State in this repository: bridge (.rune/)."
        );
    }

    #[test]
    fn empty_repo_line_and_disabled_subsystems() {
        let t = tempfile::tempdir().unwrap();
        let mut c = Config::default();
        c.audit.enabled = false;
        let line = active_line(&state_folders(t.path(), &c));
        assert_eq!(
            line,
            "baton is active. No subsystem has state in this repository yet. Disabled by config: audit."
        );
    }
}
