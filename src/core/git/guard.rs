//! Whether a repository is in a state baton may commit in (on a branch that has a commit, a
//! work tree, no operation in progress, no conflicts), and why not when it is not: each
//! `Refusal` is one line for the user with the fix.

use crate::core::fsx;
use git2::{ErrorCode, Repository, RepositoryState};
use std::fmt;
use std::path::Path;
use std::time::Duration;

/// A git operation in progress, which a commit would land in the middle of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Operation {
    Merge,
    /// Either backend (`rebase-merge/` or `rebase-apply/`), interactive or not.
    Rebase,
    CherryPick,
    Revert,
    Bisect,
    /// `git am`.
    Am,
    /// `rebase-apply/` without saying which of the two it is.
    AmOrRebase,
}

impl Operation {
    /// Its name in a sentence ("a merge is in progress").
    pub fn name(self) -> &'static str {
        match self {
            Operation::Merge => "merge",
            Operation::Rebase => "rebase",
            Operation::CherryPick => "cherry-pick",
            Operation::Revert => "revert",
            Operation::Bisect => "bisect",
            Operation::Am => "`git am`",
            Operation::AmOrRebase => "`git am` or rebase",
        }
    }

    /// The commands that end it.
    fn finish(self) -> &'static str {
        match self {
            Operation::Merge => "`git merge --continue` or `git merge --abort`",
            Operation::Rebase => "`git rebase --continue` or `git rebase --abort`",
            Operation::CherryPick => "`git cherry-pick --continue` or `git cherry-pick --abort`",
            Operation::Revert => "`git revert --continue` or `git revert --abort`",
            Operation::Bisect => "`git bisect reset`",
            Operation::Am => "`git am --continue` or `git am --abort`",
            Operation::AmOrRebase => "`git am --abort` or `git rebase --abort`",
        }
    }
}

/// Why baton did not commit. `Display` is the one line the user sees (reason and fix, the
/// fix naming "<paths>"); `line` names the paths.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// HEAD is not on a branch: the commit would be left behind at the next checkout.
    DetachedHead,
    /// The branch has no commit yet; baton never makes a repository's first commit.
    Unborn { branch: Option<String> },
    /// A bare repository: no work tree to commit from.
    Bare,
    /// The project directory is inside a git directory (`.git/…`).
    InsideGitDir,
    /// A merge, rebase, … is in progress.
    Operation(Operation),
    /// The index has unmerged (conflicted) paths.
    Unmerged(Vec<String>),
    /// A file to commit still holds conflict markers (`path (conflict marker at line N)`).
    ConflictMarkers(Vec<String>),
    /// A path to commit is not inside the work tree.
    OutsideWorkTree(String),
    /// A commit hook exited non-zero; the first line of its output.
    HookRejected { hook: String, first_line: String },
    /// Signing the commit failed (`commit.gpgsign`); the line that says why.
    SigningFailed(String),
    /// git (hooks and signing included) was still running at the deadline: killed.
    TimedOut(Duration),
    /// No `git` on PATH: baton commits only through git, which honours hooks and signing.
    NoGitCli,
    /// Anything else git said; its first line.
    Failed(String),
}

impl Refusal {
    /// A short machine name (`detached_head`, `hook_rejected`, …) for `--json`.
    pub fn kind(&self) -> &'static str {
        match self {
            Refusal::DetachedHead => "detached_head",
            Refusal::Unborn { .. } => "unborn",
            Refusal::Bare => "bare",
            Refusal::InsideGitDir => "inside_git_dir",
            Refusal::Operation(_) => "operation_in_progress",
            Refusal::Unmerged(_) => "unmerged",
            Refusal::ConflictMarkers(_) => "conflict_markers",
            Refusal::OutsideWorkTree(_) => "outside_work_tree",
            Refusal::HookRejected { .. } => "hook_rejected",
            Refusal::SigningFailed(_) => "signing_failed",
            Refusal::TimedOut(_) => "timed_out",
            Refusal::NoGitCli => "no_git_cli",
            Refusal::Failed(_) => "failed",
        }
    }

    /// What is wrong, without the fix.
    pub fn reason(&self) -> String {
        match self {
            Refusal::DetachedHead => {
                "HEAD is detached (no branch), so the commit would be left behind at the next checkout".into()
            }
            Refusal::Unborn { branch } => format!(
                "{} has no commit yet, and baton does not make a repository's first commit",
                branch
                    .as_deref()
                    .map_or_else(|| "the branch".to_string(), |b| format!("branch `{b}`"))
            ),
            Refusal::Bare => "the repository is bare (it has no work tree)".into(),
            Refusal::InsideGitDir => "the project directory is inside a git directory".into(),
            Refusal::Operation(op) => format!("a {} is in progress", op.name()),
            Refusal::Unmerged(paths) => {
                format!("the index has unmerged paths ({})", some_of(paths, 3))
            }
            Refusal::ConflictMarkers(files) => {
                format!("a merge left conflict markers in {}", some_of(files, 3))
            }
            Refusal::OutsideWorkTree(p) => format!("{p} is outside the work tree"),
            Refusal::HookRejected { hook, first_line } if first_line.is_empty() => {
                format!("the {hook} hook rejected the commit (it printed nothing)")
            }
            Refusal::HookRejected { hook, first_line } => {
                format!("the {hook} hook rejected the commit: {first_line}")
            }
            Refusal::SigningFailed(line) => format!("signing the commit failed: {line}"),
            Refusal::TimedOut(d) => format!(
                "git did not finish within {:.1} s (its hooks or signing were still running)",
                d.as_secs_f64()
            ),
            Refusal::NoGitCli => "there is no git on PATH (baton commits through git, so that \
                                   the repository's hooks and signing run)"
                .into(),
            Refusal::Failed(msg) => format!("git failed: {msg}"),
        }
    }

    /// What the user can do, with `cmd` the commands that commit the files by hand.
    fn fix(&self, cmd: &str) -> String {
        match self {
            Refusal::DetachedHead => format!("check out a branch, then run {cmd}"),
            Refusal::Unborn { .. } => format!("make the first commit yourself, e.g. {cmd}"),
            Refusal::Bare | Refusal::InsideGitDir => {
                "run baton in a checkout with a work tree (the files written here are in no commit)"
                    .into()
            }
            Refusal::Operation(op) => {
                format!("finish it or abort it ({}), then run {cmd}", op.finish())
            }
            Refusal::Unmerged(_) => format!("resolve the conflicts and commit, then run {cmd}"),
            Refusal::ConflictMarkers(_) => format!(
                "edit the files to remove the <<<<<<< ======= >>>>>>> lines, then run {cmd}"
            ),
            Refusal::OutsideWorkTree(_) => "commit it from the repository that holds it".into(),
            Refusal::HookRejected { .. } => format!("fix what the hook reports, then run {cmd}"),
            Refusal::SigningFailed(_) => {
                format!("fix signing (gpg.program, the signing key, the agent), then run {cmd}")
            }
            Refusal::TimedOut(_) => format!("run {cmd} yourself"),
            Refusal::NoGitCli => format!("put git on PATH, then run {cmd}"),
            Refusal::Failed(_) => format!("run {cmd} yourself to see why"),
        }
    }

    /// The one line for the user: "not committed: <reason>; <fix>", the fix naming `paths`
    /// (work-tree-relative) in the commands that commit them by hand.
    pub fn line<S: AsRef<str>>(&self, paths: &[S]) -> String {
        let spec = if paths.is_empty() {
            "<paths>".to_string()
        } else {
            paths
                .iter()
                .map(|p| shell_quote(p.as_ref()))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let cmd = format!("`git add -A -- {spec} && git commit -m 'chore: baton state' -- {spec}`");
        format!("not committed: {}; {}", self.reason(), self.fix(&cmd))
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line::<&str>(&[]))
    }
}

/// The first `n` of `items` joined by commas, then `, … N in all` when there are more.
pub(super) fn some_of<S: AsRef<str>>(items: &[S], n: usize) -> String {
    let shown: Vec<&str> = items.iter().take(n).map(AsRef::as_ref).collect();
    if items.len() > n {
        format!("{}, … {} in all", shown.join(", "), items.len())
    } else {
        shown.join(", ")
    }
}

/// `s` as one shell word.
fn shell_quote(s: &str) -> String {
    if !s.is_empty()
        && s.bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"._-/+@:,".contains(&b))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

/// Why baton may not commit in the repository that holds `project_dir` right now, if it may
/// not: checked before a command writes, where refusing up front is better. Not inside a git
/// repository is `None` (nothing to commit into, nothing to refuse).
pub fn commit_blocker(project_dir: &Path) -> Option<Refusal> {
    match Repository::discover(project_dir) {
        Ok(repo) => blocker(&repo, project_dir),
        Err(e) if e.code() == ErrorCode::NotFound => None,
        Err(e) => Some(Refusal::Failed(format!(
            "open {}: {}",
            project_dir.display(),
            e.message()
        ))),
    }
}

/// Why baton may not commit in `repo` (discovered from `project_dir`), if it may not. Order:
/// no work tree, an operation in progress (a rebase also detaches HEAD: name the rebase),
/// conflicts, then where HEAD is.
pub(super) fn blocker(repo: &Repository, project_dir: &Path) -> Option<Refusal> {
    if repo.is_bare() || repo.workdir().is_none() {
        return Some(Refusal::Bare);
    }
    if inside_git_dir(repo, project_dir) {
        return Some(Refusal::InsideGitDir);
    }
    if let Some(op) = operation(repo) {
        return Some(Refusal::Operation(op));
    }
    match repo.index() {
        Ok(index) if index.has_conflicts() => return Some(Refusal::Unmerged(unmerged(&index))),
        Ok(_) => {}
        Err(e) => return Some(Refusal::Failed(format!("index: {}", e.message()))),
    }
    match repo.head_detached() {
        Ok(true) => return Some(Refusal::DetachedHead),
        Ok(false) => {}
        Err(e) => return Some(Refusal::Failed(format!("HEAD: {}", e.message()))),
    }
    match repo.head() {
        Ok(_) => None,
        Err(e) if matches!(e.code(), ErrorCode::UnbornBranch | ErrorCode::NotFound) => {
            Some(Refusal::Unborn {
                branch: super::unborn_branch(repo),
            })
        }
        Err(e) => Some(Refusal::Failed(format!("HEAD: {}", e.message()))),
    }
}

/// Whether `project_dir` is inside the repository's git directory (a `.git/` or a bare
/// repository's folder reached through a work tree's `.git`).
fn inside_git_dir(repo: &Repository, project_dir: &Path) -> bool {
    let Ok(project) = project_dir.canonicalize() else {
        return false;
    };
    [repo.path(), repo.commondir()]
        .iter()
        .filter_map(|d| d.canonicalize().ok())
        .any(|d| project.starts_with(d))
}

/// The operation in progress, from the files git keeps in the git directory.
fn operation(repo: &Repository) -> Option<Operation> {
    let op = match repo.state() {
        RepositoryState::Clean => None,
        RepositoryState::Merge => Some(Operation::Merge),
        RepositoryState::Revert | RepositoryState::RevertSequence => Some(Operation::Revert),
        RepositoryState::CherryPick | RepositoryState::CherryPickSequence => {
            Some(Operation::CherryPick)
        }
        RepositoryState::Bisect => Some(Operation::Bisect),
        RepositoryState::Rebase
        | RepositoryState::RebaseInteractive
        | RepositoryState::RebaseMerge => Some(Operation::Rebase),
        RepositoryState::ApplyMailbox => Some(Operation::Am),
        RepositoryState::ApplyMailboxOrRebase => Some(Operation::AmOrRebase),
    };
    op.or_else(|| {
        // What libgit2 does not look at: a bisect started without a log yet, and a
        // multi-commit cherry-pick or revert between two picks (only `sequencer/` is left).
        let dir = repo.path();
        if dir.join("BISECT_START").exists() {
            return Some(Operation::Bisect);
        }
        let todo = fsx::read_lossy(&dir.join("sequencer/todo"), fsx::Limit::STATE).ok()??;
        let first = todo
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty() && !l.starts_with('#'))
            .unwrap_or("");
        Some(if first.starts_with("revert") {
            Operation::Revert
        } else {
            Operation::CherryPick
        })
    })
}

/// The paths of the index's conflict entries.
pub(super) fn unmerged(index: &git2::Index) -> Vec<String> {
    let mut paths: Vec<String> = index
        .conflicts()
        .map(|cs| {
            cs.filter_map(std::result::Result::ok)
                .filter_map(|c| c.our.or(c.their).or(c.ancestor))
                .map(|e| String::from_utf8_lossy(&e.path).into_owned())
                .collect()
        })
        .unwrap_or_default();
    paths.sort();
    paths.dedup();
    paths
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their files and folders directly
mod tests {
    use super::*;
    use crate::core::git::testkit::Fx;
    use crate::core::git::Outcome;

    /// Writes `.rune/p`, asks for a commit of `.rune`, and checks it was refused with a
    /// reason `expect` accepts: HEAD, the index and the work tree (status), and the file are
    /// as they were.
    fn refused(fx: &Fx, expect: impl Fn(&Refusal) -> bool) -> Refusal {
        fx.write(".rune/p", "progress\n");
        let (head, status) = (fx.head(), fx.status());
        assert!(status.contains("?? .rune/p"), "{status}");
        let out = fx.commit(&fx.root, &[".rune"]);
        let Outcome::NotCommitted { why, paths } = &out else {
            panic!("{out:?}")
        };
        assert!(expect(why), "{why:?}");
        assert_eq!(paths, &vec![".rune".to_string()]);
        assert_eq!(fx.head(), head);
        assert_eq!(fx.status(), status, "index or work tree changed");
        assert_eq!(fx.read(".rune/p"), "progress\n");
        assert_eq!(commit_blocker(&fx.root).as_ref(), Some(why));
        why.clone()
    }

    #[test]
    fn a_branch_at_rest_has_no_blocker() {
        let fx = Fx::new();
        assert_eq!(commit_blocker(&fx.root), None);
        let plain = tempfile::tempdir().unwrap();
        if crate::core::root::git_top(plain.path()).is_none() {
            assert_eq!(commit_blocker(plain.path()), None);
        }
    }

    #[test]
    fn detached_head_is_refused() {
        let fx = Fx::new();
        fx.git(&["checkout", "-q", "--detach"]);
        let why = refused(&fx, |w| *w == Refusal::DetachedHead);
        assert_eq!(
            why.line(&[".rune"]),
            "not committed: HEAD is detached (no branch), so the commit would be left behind at \
             the next checkout; check out a branch, then run \
             `git add -A -- .rune && git commit -m 'chore: baton state' -- .rune`"
        );
    }

    #[test]
    fn an_unborn_branch_is_refused() {
        let fx = Fx::unborn();
        let why = refused(&fx, |w| matches!(w, Refusal::Unborn { .. }));
        assert_eq!(
            why,
            Refusal::Unborn {
                branch: Some("main".into())
            }
        );
        assert_eq!(fx.head(), "");
    }

    #[test]
    fn a_bare_repository_and_a_git_dir_are_refused() {
        let fx = Fx::new();
        fx.git_in(fx.tmp.path(), &["init", "-q", "--bare", "b.git"]);
        let bare = fx.tmp.path().join("b.git");
        std::fs::create_dir_all(bare.join(".rune")).unwrap();
        std::fs::write(bare.join(".rune/p"), "p").unwrap();
        let out = fx.commit(&bare, &[".rune"]);
        assert_eq!(out.refusal(), Some(&Refusal::Bare), "{out:?}");
        assert_eq!(std::fs::read_to_string(bare.join(".rune/p")).unwrap(), "p");
        let refs = fx.git_in(&bare, &["for-each-ref"]);
        assert_eq!(refs, "", "the bare repository got a commit");

        let head = fx.head();
        let out = fx.commit(&fx.root.join(".git"), &["x"]);
        assert_eq!(out.refusal(), Some(&Refusal::InsideGitDir), "{out:?}");
        assert_eq!(fx.head(), head);
    }

    #[test]
    fn a_merge_with_conflicts_is_refused() {
        let fx = Fx::new();
        fx.diverge();
        fx.git_fails(&["merge", "other"]);
        refused(&fx, |w| *w == Refusal::Operation(Operation::Merge));
    }

    #[test]
    fn unmerged_paths_without_an_operation_are_refused() {
        let fx = Fx::new();
        fx.diverge();
        fx.git_fails(&["merge", "other"]);
        for f in ["MERGE_HEAD", "MERGE_MSG", "MERGE_MODE", "AUTO_MERGE"] {
            let _ = std::fs::remove_file(fx.root.join(".git").join(f));
        }
        refused(&fx, |w| *w == Refusal::Unmerged(vec!["f".into()]));
    }

    #[test]
    fn a_rebase_of_either_kind_is_refused() {
        for backend in ["--merge", "--apply"] {
            let fx = Fx::new();
            fx.diverge();
            fx.git(&["checkout", "-q", "other"]);
            fx.git_fails(&["rebase", backend, "main"]);
            refused(&fx, |w| *w == Refusal::Operation(Operation::Rebase));
        }
    }

    #[test]
    fn a_cherry_pick_and_a_revert_are_refused() {
        let fx = Fx::new();
        fx.diverge();
        fx.git_fails(&["cherry-pick", "other"]);
        refused(&fx, |w| *w == Refusal::Operation(Operation::CherryPick));

        let fx = Fx::new();
        fx.diverge();
        // Reverting "base" (which made f) conflicts with "main" (which changed it).
        fx.git_fails(&["revert", "--no-edit", "HEAD~1"]);
        refused(&fx, |w| *w == Refusal::Operation(Operation::Revert));
    }

    #[test]
    fn a_bisect_is_refused() {
        let fx = Fx::new();
        fx.diverge();
        fx.git(&["bisect", "start"]);
        refused(&fx, |w| *w == Refusal::Operation(Operation::Bisect));
    }

    #[test]
    fn an_am_is_refused() {
        let fx = Fx::new();
        fx.diverge();
        let patch = fx.tmp.path().join("other.patch");
        let text = fx.git(&["format-patch", "-1", "--stdout", "other"]);
        std::fs::write(&patch, text).unwrap();
        fx.git_fails(&["am", patch.to_str().unwrap()]);
        refused(&fx, |w| *w == Refusal::Operation(Operation::Am));
    }
}
