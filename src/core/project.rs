//! One run's view of the project: the context (env, clock, cwd), the project root, the
//! configuration with its problems, and what is costly to build — the redactor and the git
//! state — built once, on first use. Every CLI command and every hook handler gets one
//! `Project`; nothing below rebuilds these.
//!
//! A subsystem never imports a sibling. Where one needs another's data (the daily report
//! shows the bridge's blocked items; the automatic checkpoint names the files the audit
//! session changed), it asks `Project`, whose `Readers` the layer above (the CLI and the hook
//! bus) wires to the owning subsystem's reader.

use super::config::{self, Config, Effective};
use super::ctx::Ctx;
use super::error::{Error, Result};
use super::git::{self, GitState};
use super::redact::Redactor;
use super::root::project_root;
use chrono::{DateTime, Utc};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};

/// What one subsystem reads of another's state, each through the owner's own reader.
#[derive(Debug, Clone, Copy)]
pub struct Readers {
    /// The audit's: paths (relative to the project) the current audit session changed, in
    /// the order they were first changed, each once.
    pub session_changes: fn(&Project) -> Vec<String>,
    /// The bridge's: the blocked items of the newest progress entry in `.rune/progress.md`.
    pub blocked_items: fn(&Project) -> Vec<String>,
}

impl Readers {
    /// Readers that find nothing (unit tests, and a subsystem that is switched off).
    pub const NONE: Readers = Readers {
        session_changes: |_| Vec::new(),
        blocked_items: |_| Vec::new(),
    };
}

/// One run's project.
#[derive(Debug)]
pub struct Project {
    /// Environment, clock, working directory.
    pub ctx: Ctx,
    /// The project root.
    pub root: PathBuf,
    loaded: Effective,
    readers: Readers,
    redactor: OnceCell<Redactor>,
    git: OnceCell<std::result::Result<GitState, String>>,
}

impl Project {
    /// The project of a run: `explicit_root` (`--root`), else `CLAUDE_PROJECT_DIR`, else the
    /// git top of `event_cwd` (a hook event's `cwd`) or of the working directory. Loads the
    /// configuration; its problems are kept beside the defaults, never fatal.
    pub fn open(
        ctx: Ctx,
        explicit_root: Option<PathBuf>,
        event_cwd: Option<&Path>,
        readers: Readers,
    ) -> Project {
        let root = explicit_root.unwrap_or_else(|| {
            project_root(
                ctx.env.var("CLAUDE_PROJECT_DIR").as_deref(),
                event_cwd,
                &ctx.cwd,
            )
        });
        let loaded = config::load(&ctx, &root);
        Project::with_loaded(ctx, root, loaded, readers)
    }

    /// A project with a configuration already in hand (tests, and callers that load another
    /// project's config).
    pub fn with_loaded(ctx: Ctx, root: PathBuf, loaded: Effective, readers: Readers) -> Project {
        Project {
            ctx,
            root,
            loaded,
            readers,
            redactor: OnceCell::new(),
            git: OnceCell::new(),
        }
    }

    /// A project on the default configuration (unit tests).
    pub fn with_config(ctx: Ctx, root: PathBuf, config: Config) -> Project {
        let loaded = Effective {
            config,
            sources: Vec::new(),
            problems: Vec::new(),
        };
        Project::with_loaded(ctx, root, loaded, Readers::NONE)
    }

    /// The configuration in force (the defaults when a file was invalid).
    pub fn config(&self) -> &Config {
        &self.loaded.config
    }

    /// Problems found in the config files; when not empty, `config()` holds the defaults.
    pub fn config_problems(&self) -> &[Error] {
        &self.loaded.problems
    }

    /// The config files that were read, weakest first.
    pub fn config_sources(&self) -> &[PathBuf] {
        &self.loaded.sources
    }

    /// The current time (pinned by `BATON_NOW` in tests).
    pub fn now(&self) -> DateTime<Utc> {
        self.ctx.clock.now()
    }

    /// An environment variable (empty counts as unset).
    pub fn env(&self, key: &str) -> Option<String> {
        self.ctx.env.var(key)
    }

    /// The redactor: built-in rules plus the config's extra patterns, compiled once.
    pub fn redactor(&self) -> &Redactor {
        self.redactor
            .get_or_init(|| Redactor::with_extra(&self.config().redact.extra_patterns))
    }

    /// Redacts `text` with the project's redactor.
    pub fn redact(&self, text: &str) -> String {
        self.redactor().redact(text).text
    }

    /// The git state of the project's repository, read once.
    pub fn git(&self) -> Result<&GitState> {
        self.git
            .get_or_init(|| git::state(&self.root).map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| Error::Git(e.trim_start_matches("git: ").to_string()))
    }

    /// A path under the project root.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// The audit's reader: files the current audit session changed.
    pub fn session_changes(&self) -> Vec<String> {
        (self.readers.session_changes)(self)
    }

    /// The bridge's reader: blocked items of the newest progress entry.
    pub fn blocked_items(&self) -> Vec<String> {
        (self.readers.blocked_items)(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::clock::Clock;
    use crate::core::ctx::Env;

    #[test]
    fn config_problems_are_kept_beside_the_defaults() {
        let t = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(t.path().join(".claude")).unwrap();
        std::fs::write(
            t.path().join(config::PROJECT_CONFIG),
            "relay: {cycle_budget: 0}\n",
        )
        .unwrap();
        let ctx = Ctx::for_test(
            Env::fixed::<[(&str, &str); 0], _, _>([]),
            Clock::System,
            t.path().into(),
        );
        let p = Project::open(ctx, Some(t.path().to_path_buf()), None, Readers::NONE);
        assert_eq!(p.config(), &Config::default());
        assert!(p.config_problems()[0]
            .to_string()
            .contains("relay.cycle_budget"));
    }

    #[test]
    fn the_redactor_uses_the_extra_patterns() {
        let t = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        config.redact.extra_patterns = vec!["internal-[0-9]+".into()];
        let ctx = Ctx::for_test(
            Env::fixed::<[(&str, &str); 0], _, _>([]),
            Clock::System,
            t.path().into(),
        );
        let p = Project::with_config(ctx, t.path().into(), config);
        assert_eq!(p.redact("id internal-42"), "id [REDACTED]");
        assert!(std::ptr::eq(p.redactor(), p.redactor()));
    }
}
