//! One run's view of the project: the context (env, clock, cwd), the project root, the
//! configuration with its problems, and what is costly to build — the redactor and the git
//! state — built once, on first use. Every CLI command and every hook handler gets one
//! `Project`; nothing below rebuilds these.
//!
//! A subsystem never imports a sibling. Where one needs another's data (the daily report
//! shows the bridge's blocked items; the automatic checkpoint names the files the audit
//! session changed; the automatic saves use what capture read of the session's transcript), it
//! asks `Project`, whose `Readers` the layer above (the CLI and the hook bus) wires to the
//! owning subsystem's reader.

use super::config::{self, Config, Effective};
use super::ctx::Ctx;
use super::error::{Error, Result};
use super::git::{self, GitState, Outcome};
use super::recall::{Kind, Scan, Scope};
use super::recap::Recap;
use super::redact::Redactor;
use super::root::project_root;
use chrono::{DateTime, Utc};
use std::cell::OnceCell;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What one subsystem reads of another's state, each through the owner's own reader.
#[derive(Debug, Clone, Copy)]
pub struct Readers {
    /// The audit's: paths (relative to the project) the current audit session changed, in
    /// the order they were first changed, each once.
    pub session_changes: fn(&Project) -> Vec<String>,
    /// The bridge's: the blocked items of the newest progress entry in `.rune/progress.md`
    /// written before the given time (a report of an earlier day shows what was blocked then).
    pub blocked_items: fn(&Project, DateTime<Utc>) -> Vec<String>,
    /// The capture's: the recap of the given Claude Code session, or (`None`) of the
    /// project's most recently updated one.
    pub session_recap: fn(&Project, Option<&str>) -> Option<Recap>,
    /// The handoff's: when the newest artefact saved on purpose (not at a compaction) was
    /// captured; a checkpoint older than it is superseded.
    pub newest_handoff: fn(&Project) -> Option<DateTime<Utc>>,
    /// Every store's reader of documents for `baton recall`, each owned by the subsystem
    /// that writes the store (see `core::recall`).
    pub doc_sources: &'static [DocSource],
}

impl Readers {
    /// Readers that find nothing (unit tests, and a subsystem that is switched off).
    pub const NONE: Readers = Readers {
        session_changes: |_| Vec::new(),
        blocked_items: |_, _| Vec::new(),
        session_recap: |_, _| None,
        newest_handoff: |_| None,
        doc_sources: &[],
    };
}

/// One reader of documents, owned by the subsystem that writes the store.
#[derive(Debug, Clone, Copy)]
pub struct DocSource {
    /// A short name for messages (`audit`, `bridge`).
    pub name: &'static str,
    /// The kinds it can give: a search for other kinds does not call it.
    pub kinds: &'static [Kind],
    /// Whose store it reads.
    pub scope: Scope,
    /// Hands every document of the store to the scan.
    pub read: fn(&Project, &mut Scan<'_>),
    /// Whether recall's index may hold its documents: every document comes from a file the
    /// reader passes to `Scan::visit` first (not so for git history).
    pub indexed: bool,
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
    repo: OnceCell<std::result::Result<Option<Repo>, String>>,
    git: OnceCell<std::result::Result<GitState, String>>,
    head: OnceCell<std::result::Result<Option<git::Head>, String>>,
    /// The first `work_since` asked and its answer (a session start asks it twice).
    work: OnceCell<(String, Option<git::Work>)>,
    /// The folder was named on the command line (`--root`): the user chose it, so it may hold
    /// state outside a git work tree (datarim's writer is called so on any folder).
    root_named: bool,
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
        let named = explicit_root.is_some();
        let root = explicit_root.unwrap_or_else(|| {
            project_root(
                ctx.env.var("CLAUDE_PROJECT_DIR").as_deref(),
                event_cwd,
                &ctx.cwd,
            )
        });
        let loaded = config::load(&ctx, &root);
        let mut project = Project::with_loaded(ctx, root, loaded, readers);
        project.root_named = named;
        project
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
            repo: OnceCell::new(),
            git: OnceCell::new(),
            head: OnceCell::new(),
            work: OnceCell::new(),
            root_named: false,
        }
    }

    /// Another project folder (a relay work tree, a `--root` given to a subcommand) in the
    /// same run: the same context and readers, that folder's own config.
    #[must_use]
    pub fn for_root(&self, root: PathBuf) -> Project {
        let loaded = config::load(&self.ctx, &root);
        Project::with_loaded(self.ctx.clone(), root, loaded, self.readers)
    }

    /// A project on the default configuration (unit tests).
    pub fn with_config(ctx: Ctx, root: PathBuf, config: Config) -> Project {
        let loaded = Effective {
            config,
            sources: Vec::new(),
            problems: Vec::new(),
            ignored: Vec::new(),
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

    /// The first config problem as a line to show: a problem can quote the repository's
    /// config (an unknown key's name, a value), text from a file of the repository, so it is
    /// held to the trust rule (`core::trust::field`: what the scan blocks is named).
    pub fn config_problem_line(&self) -> Option<String> {
        self.loaded
            .problems
            .first()
            .map(|p| super::trust::field(&p.to_string(), self.redactor()))
    }

    /// Keys that widen trust that a file in the repository set: ignored (`config::TRUST_KEYS`).
    pub fn config_ignored(&self) -> &[String] {
        &self.loaded.ignored
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

    /// The git state of the project's repository, read once per run and kept: a handler that
    /// runs after another one wrote or committed sees the state from before (read
    /// `git::state` afresh where that matters).
    pub fn git(&self) -> Result<&GitState> {
        self.git
            .get_or_init(|| match self.repo() {
                Ok(Some(repo)) => git::state_in(repo)
                    .map(GitState::Repo)
                    .map_err(|e| e.to_string()),
                Ok(None) => Ok(GitState::NoGit),
                Err(e) => Err(e.to_string()),
            })
            .as_ref()
            .map_err(|e| git_error(e))
    }

    /// The repository that holds the project (`None` outside one), opened once per run:
    /// opening one reads its config files, which cost a session start more than what it
    /// then asks.
    fn repo(&self) -> Result<Option<&git2::Repository>> {
        self.repo
            .get_or_init(|| {
                git::open(&self.root)
                    .map(|r| r.map(Repo))
                    .map_err(|e| e.to_string())
            })
            .as_ref()
            .map(|r| r.as_ref().map(|r| &r.0))
            .map_err(|e| git_error(e))
    }

    /// The user's work committed since commit `from` (`git::work_since`, baton's own state
    /// folders left out); `None` when git cannot say. The first answer is kept for the run.
    pub fn work_since(&self, from: &str) -> Option<git::Work> {
        if let Some((asked, work)) = self.work.get() {
            if asked == from {
                return work.clone();
            }
        }
        let own = super::footprint::own_folders(&self.root, self.config());
        let work = self
            .repo()
            .ok()
            .flatten()
            .and_then(|repo| git::work_since(repo, from, &own).ok().flatten());
        let _ = self.work.set((from.to_string(), work.clone()));
        work
    }

    /// The name git gives the author of a commit here (`git::user_name`).
    pub fn git_user_name(&self) -> Option<String> {
        git::user_name(self.repo().ok().flatten())
    }

    /// Where HEAD is (`None` outside a repository), from `git` when that was read already,
    /// else without reading the work tree's status; kept as `git` is.
    pub fn git_head(&self) -> Result<Option<&git::Head>> {
        self.head
            .get_or_init(|| match self.git.get() {
                Some(Ok(state)) => Ok(state.repo().map(|r| git::Head {
                    sha: r.head_sha.clone(),
                    branch: r.branch.clone(),
                })),
                _ => self
                    .repo()
                    .map(|r| r.map(git::head_in))
                    .map_err(|e| e.to_string()),
            })
            .as_ref()
            .map(Option::as_ref)
            .map_err(|e| git_error(e))
    }

    /// Why baton must not create state in this project, when it must not: the root is `/` or
    /// the user's home folder (no project was named and no git work tree found), or it is not
    /// inside a git work tree, was not named with `--root`, and the config does not say
    /// `state_outside_git: true`. Hooks
    /// then stay silent; commands that write say this line.
    pub fn state_refusal(&self) -> Option<String> {
        let root = &self.root;
        if root.parent().is_none() {
            return Some(format!(
                "baton keeps no state in {}: the project folder is the file system root (start Claude Code in a project, or pass --root)",
                root.display()
            ));
        }
        let home = self.env("HOME").map(PathBuf::from);
        if home.as_deref().is_some_and(|h| same_dir(h, root)) {
            return Some(format!(
                "baton keeps no state in {}: that is your home folder, not a project (start Claude Code in a project, or pass --root)",
                root.display()
            ));
        }
        if is_git_dir(root) {
            return Some(format!(
                "baton keeps no state in {}: it is a git directory (a bare repository or inside .git), not a work tree",
                root.display()
            ));
        }
        if !self.config().state_outside_git
            && !self.root_named
            && super::root::git_top(root).is_none()
        {
            return Some(format!(
                "baton keeps no state in {}: it is not inside a git work tree (run `git init` there, or set `state_outside_git: true` in {})",
                root.display(),
                config::PROJECT_CONFIG
            ));
        }
        None
    }

    /// `Ok` when baton may create state here; else the refusal as an error.
    pub fn require_state(&self) -> Result<()> {
        match self.state_refusal() {
            Some(why) => Err(Error::Invalid(why)),
            None => Ok(()),
        }
    }

    /// `Ok` unless baton's committed folders (the bridge's and the relay's, `paths.bridge`
    /// and `paths.relay`) hold an unresolved merge: paths the index has unmerged, or files
    /// with conflict markers. Then the error is one line naming the files and the fix,
    /// starting with `what` ("not saved"): checked before a command writes or commits there,
    /// so nothing is written or staged. `read_files: false` looks at the index only (cheap
    /// enough for a hook); `true` also reads the files git tracks there for markers.
    pub fn refuse_unresolved(&self, what: &str, read_files: bool) -> Result<()> {
        self.refuse_unresolved_knowing(what, read_files, &|_| None)
    }

    /// `refuse_unresolved` with what the caller knows of some files' markers (see
    /// `git::unresolved_with`): the bridge vouches for the memory files whose integrity
    /// verdicts are cached, so a save does not read them.
    pub fn refuse_unresolved_knowing(
        &self,
        what: &str,
        read_files: bool,
        known: &dyn Fn(&Path) -> Option<Option<usize>>,
    ) -> Result<()> {
        let c = self.config();
        let dirs = [c.paths.bridge.as_path(), c.paths.relay.as_path()];
        let look = if read_files {
            git::Look::Tracked
        } else {
            git::Look::Index
        };
        let found = git::unresolved_with(&self.root, &dirs, look, known);
        if found.is_empty() {
            return Ok(());
        }
        Err(Error::Invalid(git::refusal_line(what, &found)))
    }

    /// Commits exactly `paths` (relative to the project root, which may be a subdirectory of
    /// the work tree) through the git guard (`core::git`): only on a branch, never during a
    /// merge, rebase or other operation, with the repository's hooks and signing, within
    /// `deadline`. A refusal is a value (`Outcome::NotCommitted`) whose line says why and
    /// what to run.
    pub fn commit(&self, paths: &[&Path], message: &str, deadline: Duration) -> Result<Outcome> {
        let path_env = self.env("PATH");
        let base = super::paths::private_base(&self.ctx.env);
        git::commit_paths_guarded(
            &self.root,
            paths,
            message,
            &git::CommitOptions::new(deadline, path_env.as_deref()).scratch_under(base.as_deref()),
        )
    }

    /// A path under the project root.
    pub fn path(&self, rel: impl AsRef<Path>) -> PathBuf {
        self.root.join(rel)
    }

    /// The audit's reader: files the current audit session changed.
    pub fn session_changes(&self) -> Vec<String> {
        (self.readers.session_changes)(self)
    }

    /// The bridge's reader: blocked items of the newest progress entry written before
    /// `until`.
    pub fn blocked_items(&self, until: DateTime<Utc>) -> Vec<String> {
        (self.readers.blocked_items)(self, until)
    }

    /// The handoff's reader: when the newest artefact saved on purpose was captured.
    pub fn newest_handoff(&self) -> Option<DateTime<Utc>> {
        (self.readers.newest_handoff)(self)
    }

    /// The capture's reader: what baton captured of Claude Code session `session_id` (from
    /// its transcript, without the model), or of this project's most recently updated
    /// session when `None`. `None` when nothing was captured (or capture is off).
    pub fn session_recap(&self, session_id: Option<&str>) -> Option<Recap> {
        (self.readers.session_recap)(self, session_id)
    }

    /// The readers of documents for recall, one per store.
    pub fn doc_sources(&self) -> &'static [DocSource] {
        self.readers.doc_sources
    }
}

/// An open repository; `Debug` names only its git directory.
struct Repo(git2::Repository);

impl std::fmt::Debug for Repo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Repo").field(&self.0.path()).finish()
    }
}

/// A git error kept as text (`Project::git`, `git_head`) made an error again.
fn git_error(kept: &str) -> Error {
    Error::Git(kept.trim_start_matches("git: ").to_string())
}

#[cfg(test)]
impl Project {
    /// A project at `root` on the default config, with an empty environment and the clock
    /// stopped at `now` (RFC 3339) or the system clock: what unit tests need.
    pub(crate) fn for_test(root: impl Into<PathBuf>, now: Option<&str>) -> Project {
        use super::clock::Clock;
        let clock = now
            .and_then(super::time::parse)
            .map_or(Clock::System, Clock::Fixed);
        let root = root.into();
        let ctx = Ctx::for_test(
            super::ctx::Env::fixed::<[(&str, &str); 0], _, _>([]),
            clock,
            root.clone(),
        );
        Project::with_config(ctx, root, Config::default())
    }
}

/// Whether `dir` is a git directory (a bare repository, or `.git` or a folder inside it):
/// state written there would land in the repository's own database.
fn is_git_dir(dir: &Path) -> bool {
    dir.components().any(|c| c.as_os_str() == ".git")
        || (dir.join("HEAD").is_file() && dir.join("objects").is_dir() && dir.join("refs").is_dir())
}

/// Whether two paths name the same folder (after resolving links; as given when they cannot
/// be resolved).
fn same_dir(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
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

    /// Commits `file` on HEAD of `repo` (libgit2, a fixed identity).
    fn commit(repo: &git2::Repository, file: &str) -> git2::Oid {
        let root = repo.workdir().unwrap().to_path_buf();
        std::fs::write(root.join(file), file).unwrap();
        let mut idx = repo.index().unwrap();
        idx.add_path(Path::new(file)).unwrap();
        idx.write().unwrap();
        let tree = repo.find_tree(idx.write_tree().unwrap()).unwrap();
        let sig = git2::Signature::now("t", "t@example.invalid").unwrap();
        let parent = repo.head().ok().and_then(|h| h.peel_to_commit().ok());
        let parents: Vec<&git2::Commit<'_>> = parent.iter().collect();
        repo.commit(Some("HEAD"), &sig, &sig, file, &tree, &parents)
            .unwrap()
    }

    /// The repository is opened once per run, and `work_since` keeps its first answer: a
    /// question about another commit gets its own answer, not the kept one.
    #[test]
    fn work_since_answers_each_commit_asked_and_sees_one_repository() {
        let t = tempfile::tempdir().unwrap();
        let repo = git2::Repository::init(t.path()).unwrap();
        let base = commit(&repo, "a.txt").to_string();
        commit(&repo, "b.txt");
        let p = Project::for_test(t.path(), None);
        let commits = |from: &str| p.work_since(from).map(|w| w.commits);
        assert_eq!(commits(&base), Some(1));
        assert_eq!(commits("deadbee"), None);
        assert_eq!(commits(&base[..7]), Some(1));
        assert_eq!(commits(&base[..7]), Some(1));
        let head = p.git_head().unwrap().unwrap().sha.clone().unwrap();
        assert_eq!(commits(&head), Some(0));
        assert!(matches!(p.git().unwrap(), GitState::Repo(r) if r.head_sha == Some(head)));

        let outside = tempfile::tempdir().unwrap();
        let q = Project::for_test(outside.path(), None);
        if crate::core::root::git_top(outside.path()).is_none() {
            assert_eq!(q.git().unwrap(), &GitState::NoGit);
            assert_eq!(q.git_head().unwrap(), None);
            assert_eq!(q.work_since(&base), None);
        }
    }

    /// The project Claude Code names with CLAUDE_PROJECT_DIR (not `--root`).
    fn at(root: &Path, home: &Path) -> Project {
        let ctx = Ctx::for_test(
            Env::fixed([
                ("HOME", home.to_str().unwrap()),
                ("CLAUDE_PROJECT_DIR", root.to_str().unwrap()),
            ]),
            Clock::System,
            root.into(),
        );
        Project::open(ctx, None, None, Readers::NONE)
    }

    #[test]
    fn issue_10_no_state_at_the_file_system_root_in_home_or_outside_git() {
        let t = tempfile::tempdir().unwrap();
        let home = t.path().join("home");
        let plain = t.path().join("plain");
        let repo = t.path().join("repo");
        for d in [&home, &plain, &repo.join(".git")] {
            std::fs::create_dir_all(d).unwrap();
        }
        assert!(at(Path::new("/"), &home)
            .state_refusal()
            .unwrap()
            .contains("file system root"));
        assert!(at(&home, &home)
            .state_refusal()
            .unwrap()
            .contains("home folder"));
        if crate::core::root::git_top(&plain).is_none() {
            let why = at(&plain, &home).state_refusal().unwrap();
            assert!(why.contains("not inside a git work tree"), "{why}");
            // Named on the command line (`--root`), a plain folder may hold state.
            let named = Project::open(
                Ctx::for_test(
                    Env::fixed([("HOME", home.to_str().unwrap())]),
                    Clock::System,
                    plain.clone(),
                ),
                Some(plain.clone()),
                None,
                Readers::NONE,
            );
            assert_eq!(named.state_refusal(), None);
            std::fs::create_dir_all(plain.join(".claude")).unwrap();
            std::fs::write(
                plain.join(config::PROJECT_CONFIG),
                "state_outside_git: true\n",
            )
            .unwrap();
            assert_eq!(at(&plain, &home).state_refusal(), None);
        }
        assert_eq!(at(&repo, &home).state_refusal(), None);
        assert_eq!(at(&repo.join("sub"), &home).state_refusal(), None);
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
