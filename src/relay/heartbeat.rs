//! The best-effort `weave send relay:<event>` heartbeat. It runs only when `weave` is on
//! PATH and no bootstrap-hazard path (`relay.hazard_paths`) was touched: a `weave` built from
//! a half-changed tree is not run. At a hand-off that is the last commit (the seed's rule); at
//! a resume, HEAD is normally the hand-off commit itself, which touches only `.handoff/`, so
//! the resume looks at every commit since the loop last resumed. It never fails the caller.
//! In the Stop hook it runs within a deadline (see `hand_off::Limits`), so the hook ends well
//! inside its timeout.

use super::commit::{HANDOFF_SUBJECT, RESUME_SUBJECT};
use crate::core::exec::{self, Ended};
use crate::core::git;
use crate::core::project::Project;
use serde::Serialize;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Less time than this left before the deadline: the heartbeat is not attempted.
const MIN_TIME: Duration = Duration::from_millis(200);

/// What happened to the heartbeat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "heartbeat", rename_all = "snake_case")]
pub(crate) enum Heartbeat {
    /// `weave send` exited 0.
    Sent,
    /// No `weave` on PATH: nothing to send, and nothing to say (weave is not in use here).
    NoWeave,
    /// Not attempted; why.
    Skipped { reason: String },
    /// Attempted and did not succeed; why.
    Failed { reason: String },
}

impl Heartbeat {
    /// One line for the user; none when weave is not in use.
    pub(crate) fn line(&self, event: &str) -> Option<String> {
        match self {
            Heartbeat::Sent => Some(format!("heartbeat: sent `weave send {event}`")),
            Heartbeat::NoWeave => None,
            Heartbeat::Skipped { reason } => Some(format!("heartbeat: skipped ({reason})")),
            Heartbeat::Failed { reason } => {
                Some(format!("heartbeat: failed ({reason}); carrying on"))
            }
        }
    }
}

/// `weave` on the project's PATH.
fn weave(project: &Project) -> Option<PathBuf> {
    exec::which("weave", project.env("PATH").as_deref())
}

/// Commits a resume looks back through for the previous resume, at most.
const SINCE_RESUME_MAX: usize = 200;

/// The hazard paths touched, and by what (for the line that says the heartbeat was skipped).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hazards {
    pub(crate) paths: Vec<String>,
    /// What was looked at: `the last commit`, `a commit since the last resume`.
    pub(crate) by: &'static str,
}

const LAST_COMMIT: &str = "the last commit";
const SINCE_RESUME: &str = "a commit since the last resume";

impl Hazards {
    fn none(by: &'static str) -> Hazards {
        Hazards {
            paths: Vec::new(),
            by,
        }
    }
}

/// The hazard paths the last commit touched, if any (checked before baton's own commit).
/// Without `weave` on PATH no heartbeat is sent, so git is not read at all (its status walks
/// the whole tree).
pub(crate) fn hazard(project: &Project) -> Hazards {
    if weave(project).is_none() {
        return Hazards::none(LAST_COMMIT);
    }
    let Ok(state) = project.git() else {
        return Hazards::none(LAST_COMMIT);
    };
    let Some(repo) = state.repo() else {
        return Hazards::none(LAST_COMMIT);
    };
    hazards_in(project, &repo.last_commit_paths, LAST_COMMIT)
}

/// The hazard paths touched since the loop last resumed: every commit from HEAD back to the
/// previous `weave-loop: resume` commit (the work of the session that handed off, and its
/// hand-off). When none of the last `SINCE_RESUME_MAX` commits is a resume (the loop's first
/// resume), the relay's own commits at the top and the one commit below them, the hand-off's
/// parent. As with `hazard`, git is not read without `weave` on PATH.
pub(crate) fn hazard_since_resume(project: &Project) -> Hazards {
    if weave(project).is_none() {
        return Hazards::none(SINCE_RESUME);
    }
    let Ok(messages) = git::first_parent_messages(&project.root, SINCE_RESUME_MAX) else {
        return Hazards::none(SINCE_RESUME);
    };
    let count = messages
        .iter()
        .position(|m| m.starts_with(RESUME_SUBJECT))
        .unwrap_or_else(|| {
            let own = messages
                .iter()
                .take_while(|m| m.starts_with(RESUME_SUBJECT) || m.starts_with(HANDOFF_SUBJECT))
                .count();
            (own + 1).min(messages.len())
        });
    let paths = git::paths_changed_by_newest(&project.root, count).unwrap_or_default();
    hazards_in(project, &paths, SINCE_RESUME)
}

/// The paths among `paths` that `relay.hazard_paths` names (a file name matches in any
/// directory, a path matches that path).
fn hazards_in(project: &Project, paths: &[String], by: &'static str) -> Hazards {
    let paths = paths
        .iter()
        .filter(|p| {
            project.config().relay.hazard_paths.iter().any(|h| {
                let h = h.trim().trim_start_matches("./");
                *p == h || p.ends_with(&format!("/{h}"))
            })
        })
        .cloned()
        .collect();
    Hazards { paths, by }
}

/// Sends `event` (`relay:handoff`, `relay:resumed`) unless weave is missing or `hazards`
/// (from `hazard`) is not empty. It waits `relay.heartbeat_timeout_ms` at most, and never
/// past `deadline`.
pub(crate) fn send(
    project: &Project,
    event: &str,
    hazards: &Hazards,
    deadline: Option<Instant>,
) -> Heartbeat {
    let Some(weave) = weave(project) else {
        return Heartbeat::NoWeave;
    };
    if !hazards.paths.is_empty() {
        return Heartbeat::Skipped {
            reason: format!(
                "bootstrap hazard: {} touched {}",
                hazards.by,
                hazards.paths.join(", ")
            ),
        };
    }
    let mut timeout = Duration::from_millis(project.config().relay.heartbeat_timeout_ms);
    if let Some(deadline) = deadline {
        let left = deadline.saturating_duration_since(Instant::now());
        if left < MIN_TIME {
            return Heartbeat::Skipped {
                reason: "no time left within the Stop hook's timeout".into(),
            };
        }
        timeout = timeout.min(left);
    }
    let mut cmd = exec::command(weave);
    cmd.args(["send", event]).current_dir(&project.root);
    let run = exec::run(cmd, timeout, false);
    match run.ended {
        Ended::Exited(Some(0)) => Heartbeat::Sent,
        Ended::Exited(Some(code)) => Heartbeat::Failed {
            reason: format!("weave exited {code}"),
        },
        Ended::Exited(None) => Heartbeat::Failed {
            reason: "weave was killed by a signal".into(),
        },
        Ended::TimedOut => Heartbeat::Failed {
            reason: format!(
                "weave took longer than {} ms and was stopped",
                timeout.as_millis()
            ),
        },
        Ended::SpawnFailed(e) => Heartbeat::Failed {
            reason: format!("could not start weave: {e}"),
        },
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::config::Config;
    use crate::core::ctx::{Ctx, Env};
    use std::path::Path;

    /// A project in `root` whose PATH is `path`.
    fn project(root: &Path, path: &str, config: Config) -> Project {
        let ctx = Ctx::for_test(Env::fixed([("PATH", path)]), Clock::System, root.into());
        Project::with_config(ctx, root.into(), config)
    }

    #[test]
    fn lines_say_what_happened() {
        assert_eq!(
            Heartbeat::Sent.line("relay:handoff").as_deref(),
            Some("heartbeat: sent `weave send relay:handoff`")
        );
        let s = Heartbeat::Skipped {
            reason: "a hazard path changed".into(),
        };
        assert_eq!(
            s.line("x").as_deref(),
            Some("heartbeat: skipped (a hazard path changed)")
        );
        // Without weave, weave is not in use: nothing is said of it.
        assert_eq!(Heartbeat::NoWeave.line("x"), None);
    }

    #[test]
    fn without_weave_on_path_no_hazard_is_looked_for() {
        let t = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(t.path()).unwrap();
        std::fs::create_dir_all(t.path().join("src")).unwrap();
        std::fs::write(t.path().join("src/mcp.rs"), "x").unwrap();
        let mut idx = repo.index().unwrap();
        idx.add_path(Path::new("src/mcp.rs")).unwrap();
        let tree = repo.find_tree(idx.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        repo.commit(Some("HEAD"), &sig, &sig, "m", &tree, &[])
            .unwrap();
        let mut config = Config::default();
        config.relay.hazard_paths = vec!["src/mcp.rs".into()];
        // No weave: nothing is read and nothing is reported.
        assert!(hazard(&project(t.path(), "/nonexistent", config.clone()))
            .paths
            .is_empty());
        // With weave on PATH the last commit is looked at.
        let bin = t.path().join("bin");
        std::fs::create_dir_all(&bin).unwrap();
        std::fs::write(bin.join("weave"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(
            bin.join("weave"),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let h = hazard(&project(t.path(), bin.to_str().unwrap(), config));
        assert_eq!(h.paths, vec!["src/mcp.rs"]);
    }

    #[test]
    fn no_git_means_no_hazard() {
        let t = tempfile::tempdir().unwrap();
        if crate::core::root::git_top(t.path()).is_none() {
            let p = project(t.path(), "/nonexistent", Config::default());
            assert!(hazard(&p).paths.is_empty());
            assert!(hazard_since_resume(&p).paths.is_empty());
        }
    }
}
