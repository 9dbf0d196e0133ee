//! What every CLI command gets: the context, the project root and the configuration.

use crate::core::config::{self, Loaded};
use crate::core::ctx::Ctx;
use crate::core::root::project_root;
use std::path::PathBuf;

/// The environment of one CLI command.
#[derive(Debug)]
pub(crate) struct CliEnv {
    /// Environment, clock, working directory.
    pub(crate) ctx: Ctx,
    /// The project root: `--root`, else `CLAUDE_PROJECT_DIR`, else the git top of the cwd.
    pub(crate) root: PathBuf,
    /// The configuration (defaults when the file is invalid; `loaded.problems` says why).
    pub(crate) loaded: Loaded,
}

impl CliEnv {
    /// Resolves root and config for a command.
    pub(crate) fn new(ctx: Ctx, explicit_root: Option<PathBuf>) -> CliEnv {
        let root = explicit_root.unwrap_or_else(|| {
            project_root(ctx.env.var("CLAUDE_PROJECT_DIR").as_deref(), None, &ctx.cwd)
        });
        let loaded = config::load(&ctx, &root);
        CliEnv { ctx, root, loaded }
    }

    /// The configuration in force.
    pub(crate) fn config(&self) -> &config::Config {
        &self.loaded.config
    }
}
