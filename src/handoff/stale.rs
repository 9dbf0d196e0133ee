//! `baton handoff stale-runtime`: an advisory when a commit range changed a shipped file
//! (by default a script under `scripts/lib/*.sh` or a skill `skills/*/SKILL.md`), whose
//! change is live only where it was committed. Read-only, no network; never blocks.
//!
//! Exit 0 with the advisory (a shipped file changed) or silent (none did); 3 when git could
//! not be read or the range names no commit (fail-open: the caller goes on); 2, a usage
//! error, as datarim's `check-stale-runtime.sh` says it: an empty `--repo` or `--range`, a
//! repository folder that does not exist, or a glob of `handoff.stale_runtime_globs` that
//! does not compile.

use crate::core::io::outln;
use git2::Repository;
use globset::GlobMatcher;
use std::path::Path;

/// The advisory printed when a shipped file changed: the seed spec's generic, infra-agnostic
/// «update your Datarim install(s) per your topology» (no host names, no install command:
/// each user's topology and update mechanism are their own).
const ADVISORY: &str = "Advisory: update your other installs.
This range changed one or more shipped scripts or skills. If you run Datarim (or this
framework) on more than one machine, the change is only where it was committed so far:
update your Datarim install(s) per your topology, so that the change is not stranded on
one box. This reminder is non-blocking; go on after noting it.";

/// Runs the detector on `repo` (as given, resolved against `cwd`); returns the exit code.
pub(crate) fn run(cwd: &Path, repo: &Path, range: &str, quiet: bool, globs: &[String]) -> i32 {
    if let Err(why) = usage_problem(cwd, repo, range) {
        eprintln!("baton handoff stale-runtime: {why}");
        return 2;
    }
    let repo = &cwd.join(repo);
    let matchers = match compile(globs) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("baton handoff stale-runtime: {e}");
            return 2;
        }
    };
    let changed = match changed_paths(repo, range) {
        Ok(c) => c,
        Err(e) => {
            eprintln!(
                "baton handoff stale-runtime: git diff failed for range {range} in {}: {e} (fail-open, advisory skipped)",
                repo.display()
            );
            return 3;
        }
    };
    let shipped: Vec<&String> = changed
        .iter()
        .filter(|p| matchers.iter().any(|m| m.is_match(p)))
        .collect();
    if !shipped.is_empty() && !quiet {
        outln!("{ADVISORY}");
        outln!("Shipped files changed in {range}:");
        for p in shipped {
            outln!("  {p}");
        }
    }
    0
}

/// The usage errors datarim's detector exits 2 on, checked before git is asked anything.
fn usage_problem(cwd: &Path, repo: &Path, range: &str) -> Result<(), String> {
    if repo.as_os_str().is_empty() {
        return Err("--repo cannot be empty".into());
    }
    if range.trim().is_empty() {
        return Err("--range cannot be empty".into());
    }
    if !cwd.join(repo).is_dir() {
        return Err(format!(
            "repo not found: {} (give --repo the folder of a git repository)",
            repo.display()
        ));
    }
    Ok(())
}

fn compile(globs: &[String]) -> Result<Vec<GlobMatcher>, String> {
    globs
        .iter()
        .map(|g| {
            crate::core::glob::any_depth(g)
                .map_err(|e| format!("glob {g:?} (handoff.stale_runtime_globs): {e}"))
        })
        .collect()
}

/// The paths a range changed (`A..B`, `A...B` from the merge base, or `A` = `A..HEAD`).
fn changed_paths(repo_dir: &Path, range: &str) -> Result<Vec<String>, String> {
    let repo = Repository::discover(repo_dir).map_err(|e| e.message().to_string())?;
    let (from, to, merge_base) = if let Some((a, b)) = range.split_once("...") {
        (a, b, true)
    } else if let Some((a, b)) = range.split_once("..") {
        (a, b, false)
    } else {
        (range, "HEAD", false)
    };
    let to = if to.is_empty() { "HEAD" } else { to };
    let from = if from.is_empty() { "HEAD" } else { from };
    let commit = |rev: &str| {
        repo.revparse_single(rev)
            .and_then(|o| o.peel_to_commit())
            .map_err(|e| format!("{rev}: {}", e.message()))
    };
    let to_c = commit(to)?;
    let mut from_c = commit(from)?;
    if merge_base {
        let base = repo
            .merge_base(from_c.id(), to_c.id())
            .map_err(|e| e.message().to_string())?;
        from_c = repo
            .find_commit(base)
            .map_err(|e| e.message().to_string())?;
    }
    let from_tree = from_c.tree().map_err(|e| e.message().to_string())?;
    let to_tree = to_c.tree().map_err(|e| e.message().to_string())?;
    let diff = repo
        .diff_tree_to_tree(Some(&from_tree), Some(&to_tree), None)
        .map_err(|e| e.message().to_string())?;
    let mut paths = Vec::new();
    for d in diff.deltas() {
        for f in [d.old_file(), d.new_file()] {
            if let Some(p) = f.path() {
                let p = p.to_string_lossy().into_owned();
                if !paths.contains(&p) {
                    paths.push(p);
                }
            }
        }
    }
    Ok(paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(glob: &str, path: &str) -> bool {
        compile(&[glob.to_string()]).unwrap()[0].is_match(path)
    }

    #[test]
    fn globs_match_like_the_defaults_say() {
        assert!(matches("scripts/lib/*.sh", "scripts/lib/writer.sh"));
        assert!(matches(
            "scripts/lib/*.sh",
            "vendor/datarim/scripts/lib/x.sh"
        ));
        assert!(!matches("scripts/lib/*.sh", "scripts/lib/sub/x.sh"));
        assert!(!matches("scripts/lib/*.sh", "scripts/lib/x.sh.bak"));
        assert!(!matches("scripts/lib/*.sh", "myscripts/lib/x.sh"));
        assert!(matches("skills/*/SKILL.md", "skills/save/SKILL.md"));
        assert!(!matches("skills/*/SKILL.md", "skills/SKILL.md"));
        assert!(matches("docs/**/*.md", "docs/a/b/c.md"));
        assert!(matches("docs/**/*.md", "docs/c.md"));
        assert!(matches("a?.txt", "ab.txt"));
        assert!(!matches("a?.txt", "a/.txt"));
        assert!(matches("file(1).md", "file(1).md"));
    }
}
