//! The best-effort `weave send relay:<event>` heartbeat. It runs only when `weave` is on
//! PATH and the last commit did not touch a bootstrap-hazard path (`relay.hazard_paths`):
//! a `weave` built from a half-changed tree is not run. It never fails the caller.

use crate::core::config::Config;
use crate::core::ctx::Ctx;
use crate::core::exec::{self, Ended};
use crate::core::git;
use serde::Serialize;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// What happened to the heartbeat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "heartbeat", rename_all = "snake_case")]
pub(crate) enum Heartbeat {
    /// `weave send` exited 0.
    Sent,
    /// Not attempted; why.
    Skipped { reason: String },
    /// Attempted and did not succeed; why.
    Failed { reason: String },
}

impl Heartbeat {
    /// One line for the user.
    pub(crate) fn line(&self, event: &str) -> String {
        match self {
            Heartbeat::Sent => format!("heartbeat: sent `weave send {event}`"),
            Heartbeat::Skipped { reason } => format!("heartbeat: skipped ({reason})"),
            Heartbeat::Failed { reason } => format!("heartbeat: failed ({reason}); carrying on"),
        }
    }
}

/// The hazard paths the last commit touched, if any (checked before baton's own commit).
pub(crate) fn hazard(root: &Path, config: &Config) -> Vec<String> {
    let Ok(state) = git::state(root) else {
        return Vec::new();
    };
    let Some(repo) = state.repo() else {
        return Vec::new();
    };
    repo.last_commit_paths
        .iter()
        .filter(|p| {
            config.relay.hazard_paths.iter().any(|h| {
                let h = h.trim().trim_start_matches("./");
                *p == h || p.ends_with(&format!("/{h}"))
            })
        })
        .cloned()
        .collect()
}

/// Sends `event` (`relay:handoff`, `relay:resumed`) unless weave is missing or `hazards`
/// (from `hazard`) is not empty.
pub(crate) fn send(
    ctx: &Ctx,
    root: &Path,
    config: &Config,
    event: &str,
    hazards: &[String],
) -> Heartbeat {
    let Some(weave) = exec::which("weave", ctx.env.var("PATH").as_deref()) else {
        return Heartbeat::Skipped {
            reason: "weave is not on PATH".into(),
        };
    };
    if !hazards.is_empty() {
        return Heartbeat::Skipped {
            reason: format!(
                "bootstrap hazard: the last commit touched {}",
                hazards.join(", ")
            ),
        };
    }
    let mut cmd = Command::new(weave);
    cmd.args(["send", event]).current_dir(root);
    let timeout = Duration::from_millis(config.relay.heartbeat_timeout_ms);
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
                config.relay.heartbeat_timeout_ms
            ),
        },
        Ended::SpawnFailed(e) => Heartbeat::Failed {
            reason: format!("could not start weave: {e}"),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_say_what_happened() {
        assert_eq!(
            Heartbeat::Sent.line("relay:handoff"),
            "heartbeat: sent `weave send relay:handoff`"
        );
        let s = Heartbeat::Skipped {
            reason: "weave is not on PATH".into(),
        };
        assert_eq!(s.line("x"), "heartbeat: skipped (weave is not on PATH)");
    }

    #[test]
    fn no_git_means_no_hazard() {
        let t = tempfile::tempdir().unwrap();
        if crate::core::root::git_top(t.path()).is_none() {
            assert!(hazard(t.path(), &Config::default()).is_empty());
        }
    }
}
