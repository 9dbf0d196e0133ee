//! `baton status`: one screen on what baton keeps in this project (`core::footprint`), the
//! bridge's one-line summary, and whether the config has problems.

use crate::bridge;
use crate::core::footprint::{self, SubsystemState};
use crate::core::io;
use crate::core::project::Project;
use std::path::Path;

/// Runs `baton status`; returns the exit code.
pub(crate) fn run(project: &Project, json: bool) -> i32 {
    let states = footprint::state_folders(&project.root, project.config());
    let problems: Vec<String> = project
        .config_problems()
        .iter()
        .map(|p| crate::core::trust::field(&p.to_string(), project.redactor()))
        .collect();
    let details: Vec<String> = bridge::summary_line(project).into_iter().collect();
    if json {
        io::print_json(&serde_json::json!({
            "root": project.root,
            "version": env!("CARGO_PKG_VERSION"),
            "subsystems": states,
            "details": details,
            "config_problems": problems,
        }));
    } else {
        let note = (!problems.is_empty())
            .then(|| format!("{} problem(s); run `baton doctor`", problems.len()));
        let mut out = render(&project.root, &states, note.as_deref());
        for line in &details {
            out.push_str(&format!("  {line}\n"));
        }
        io::print(&out);
    }
    0
}

/// The `baton status` screen.
pub(crate) fn render(root: &Path, states: &[SubsystemState], config_note: Option<&str>) -> String {
    let mut out = format!("baton {} — {}\n", env!("CARGO_PKG_VERSION"), root.display());
    for s in states {
        let state = if s.has_state {
            "has state"
        } else {
            "no state yet"
        };
        let enabled = if s.enabled { "" } else { "  (disabled)" };
        out.push_str(&format!("  {:<8} {:<20} {state}{enabled}\n", s.name, s.dir));
    }
    if let Some(note) = config_note {
        out.push_str(&format!("  config   {note}\n"));
    }
    out
}
