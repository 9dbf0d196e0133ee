//! Unresolved merges in baton's own folders (`.rune/`, `.handoff/`): paths the index holds as
//! unmerged, and files whose text still has conflict markers (a merge resolved by `git add`
//! without removing them, or a file edited by hand). A command that writes or commits there
//! refuses while either is so; a reader never passes such a file on as it is.

use super::pathspec;
use crate::core::fsx;
use git2::Repository;
use std::path::{Path, PathBuf};

/// Where a marker of an unresolved conflict is: a line that opens one (`<<<<<<<`), closes
/// one (`>>>>>>>`), starts the base of a diff3 one (`|||||||`), or, after an opening line,
/// separates its sides (`=======`). The 1-based line numbers.
pub fn marker_lines(text: &str) -> Vec<usize> {
    let marker = |l: &str, c: u8| {
        let b = l.as_bytes();
        b.len() >= 7
            && b[..7].iter().all(|&x| x == c)
            && b.get(7)
                .is_none_or(|&x| x == b' ' || x == b'\t' || x == b'\r')
    };
    let mut open = false;
    let mut out = Vec::new();
    // Cheap first: most texts hold none of the three openers.
    if memchr::memmem::find(text.as_bytes(), b"<<<<<<<").is_none()
        && memchr::memmem::find(text.as_bytes(), b">>>>>>>").is_none()
        && memchr::memmem::find(text.as_bytes(), b"|||||||").is_none()
    {
        return out;
    }
    for (i, l) in text.split('\n').enumerate() {
        if marker(l, b'<') {
            open = true;
        } else if marker(l, b'>') {
            open = false;
        } else if !(marker(l, b'|') || open && l.trim_end() == "=======") {
            continue;
        }
        out.push(i + 1);
    }
    out
}

/// One unresolved file in a folder baton writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unresolved {
    /// The path relative to the project directory, `/`-separated.
    pub path: String,
    /// The first line with a conflict marker; `None` when the index holds the path unmerged
    /// (whatever the file says).
    pub line: Option<usize>,
}

impl Unresolved {
    /// `path (unmerged)` or `path (conflict marker at line N)`.
    pub fn describe(&self) -> String {
        match self.line {
            None => format!("{} (unmerged)", self.path),
            Some(n) => format!("{} (conflict marker at line {n})", self.path),
        }
    }
}

/// Files this deep below a folder are looked at (`.handoff/packets/latest.md` is two down).
const MAX_DEPTH: usize = 3;

/// How far `unresolved` looks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// The index's unmerged paths only (cheap enough for a hook).
    Index,
    /// Those, and the conflict markers of the files git tracks (what a merge wrote; a
    /// private file such as the relay's NEEDS-HUMAN, which holds command output, is not
    /// read).
    Tracked,
    /// Those, and the conflict markers of every file (what is about to be committed).
    Files,
}

/// The unresolved files in or under `dirs` (files or folders, relative to `project_dir`):
/// unmerged index entries, then files with conflict markers as `look` says (regular files
/// only, no link followed, bounded reads). Outside a repository only files are read, with
/// `Look::Files`.
pub fn unresolved(project_dir: &Path, dirs: &[&Path], look: Look) -> Vec<Unresolved> {
    unresolved_with(project_dir, dirs, look, &|_| None)
}

/// `unresolved`, with what the caller already knows of a file's markers: `known(path)` is
/// `Some(first marker line or None)` for a file it vouches for (a cache of its verdicts for
/// the file's current content), and such a file is not read.
pub fn unresolved_with(
    project_dir: &Path,
    dirs: &[&Path],
    look: Look,
    known: &dyn Fn(&Path) -> Option<Option<usize>>,
) -> Vec<Unresolved> {
    if look == Look::Index && index_without_conflicts(project_dir) {
        return Vec::new();
    }
    let repo = Repository::discover(project_dir).ok();
    let mut out = repo
        .as_ref()
        .map(|r| unmerged_under(r, project_dir, dirs))
        .unwrap_or_default();
    if look == Look::Index {
        return out;
    }
    let index = repo.as_ref().and_then(|r| r.index().ok());
    let top = repo
        .as_ref()
        .and_then(|r| r.workdir())
        .and_then(|t| t.canonicalize().ok());
    let tracked = |f: &Path| {
        let (Some(index), Some(top)) = (&index, &top) else {
            return false;
        };
        f.canonicalize()
            .ok()
            .and_then(|a| a.strip_prefix(top).ok().map(Path::to_path_buf))
            .is_some_and(|rel| index.get_path(&rel, 0).is_some())
    };
    for dir in dirs {
        let mut files = Vec::new();
        walk(&project_dir.join(dir), 0, &mut files);
        files.sort();
        for f in files {
            if look == Look::Tracked && !tracked(&f) {
                continue;
            }
            let first = known(&f).unwrap_or_else(|| {
                fsx::read_lossy(&f, fsx::Limit::DOCUMENT)
                    .ok()
                    .flatten()
                    .and_then(|text| marker_lines(&text).first().copied())
            });
            let Some(line) = first else {
                continue;
            };
            let rel = shown(project_dir, &f);
            if !out.iter().any(|u| u.path == rel) {
                out.push(Unresolved {
                    path: rel,
                    line: Some(line),
                });
            }
        }
    }
    out
}

/// The one line a command that refuses prints: which files and what to do.
pub fn refusal_line(what: &str, found: &[Unresolved]) -> String {
    let all: Vec<String> = found.iter().map(Unresolved::describe).collect();
    format!(
        "{what}: unresolved merge conflicts in {}; resolve them first (edit out the <<<<<<< ======= >>>>>>> lines, or keep one side with `git checkout --ours|--theirs -- <file>`; then `git add` the files and finish the merge with `git commit`), then run the command again",
        super::guard::some_of(&all, 5)
    )
}

/// `dir` when it is a file, else the files under it, `depth` folders down (no link
/// followed).
fn walk(dir: &Path, depth: usize, out: &mut Vec<PathBuf>) {
    match std::fs::symlink_metadata(dir) {
        Ok(m) if m.is_file() && depth == 0 => {
            out.push(dir.to_path_buf());
            return;
        }
        Ok(m) if m.is_dir() => {}
        _ => return,
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.filter_map(std::result::Result::ok) {
        let Ok(t) = e.file_type() else { continue };
        if t.is_dir() && depth + 1 < MAX_DEPTH {
            walk(&e.path(), depth + 1, out);
        } else if t.is_file() {
            out.push(e.path());
        }
    }
}

/// `path` relative to `project_dir` when it is below it, else as it is.
fn shown(project_dir: &Path, path: &Path) -> String {
    path.strip_prefix(project_dir)
        .map_or_else(|_| path.display().to_string(), |r| r.display().to_string())
}

/// Whether the index of the repository that holds `dir` has no conflicts, read without
/// opening the repository (its config is most of an open, and hooks ask this at every
/// write to the memory); `false` when that cannot be told so (then the repository is
/// opened and asked).
fn index_without_conflicts(dir: &Path) -> bool {
    let Ok(git_dir) = Repository::discover_path(dir, std::iter::empty::<&std::ffi::OsStr>()) else {
        return false;
    };
    git2::Index::open(&git_dir.join("index")).is_ok_and(|i| !i.has_conflicts())
}

/// The index's unmerged paths under `dirs`, relative to `project_dir`.
fn unmerged_under(repo: &Repository, project_dir: &Path, dirs: &[&Path]) -> Vec<Unresolved> {
    let Some(top) = repo.workdir() else {
        return Vec::new();
    };
    let Ok(specs) = pathspec::relative(project_dir, top, dirs) else {
        return Vec::new();
    };
    let Ok(index) = repo.index() else {
        return Vec::new();
    };
    if !index.has_conflicts() {
        return Vec::new();
    }
    // The project directory relative to the top, to show paths as the user names them.
    let prefix = pathspec::relative(project_dir, top, &[Path::new(".")])
        .ok()
        .and_then(|mut v| v.pop());
    let mut out: Vec<Unresolved> = Vec::new();
    for path in super::guard::unmerged(&index) {
        if !specs.iter().any(|s| pathspec::under(s, path.as_bytes())) {
            continue;
        }
        let rel = prefix
            .as_deref()
            .and_then(|p| path.strip_prefix(&format!("{p}/")))
            .unwrap_or(&path)
            .to_string();
        out.push(Unresolved {
            path: rel,
            line: None,
        });
    }
    out
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // tests set up their repositories directly
mod tests {
    use super::*;
    use crate::core::git::testkit::Fx;
    use crate::core::git::Outcome;

    #[test]
    fn unmerged_paths_and_markers_are_found_where_asked() {
        let fx = Fx::new();
        fx.write(".rune/d.md", "base\n");
        fx.git(&["add", ".rune/d.md"]);
        fx.git(&["commit", "-q", "-m", "base"]);
        fx.git(&["checkout", "-q", "-b", "other"]);
        fx.write(".rune/d.md", "other\n");
        fx.git(&["commit", "-q", "-am", "other"]);
        fx.git(&["checkout", "-q", "main"]);
        fx.write(".rune/d.md", "main\n");
        fx.git(&["commit", "-q", "-am", "main"]);
        assert!(index_without_conflicts(&fx.root));
        // A linked work tree has its own index: its conflicts are its own.
        let wt = fx.root.with_file_name("wt");
        fx.git(&[
            "worktree",
            "add",
            "-q",
            wt.to_str().unwrap(),
            "-b",
            "wt",
            "other",
        ]);
        std::fs::write(wt.join(".rune/d.md"), "wt\n").unwrap();
        let in_wt = |args: &[&str]| {
            std::process::Command::new("git")
                .args(["-c", "user.name=t", "-c", "user.email=t@example.invalid"])
                .args(args)
                .current_dir(&wt)
                .output()
                .unwrap()
        };
        assert!(in_wt(&["commit", "-q", "-am", "wt"]).status.success());
        assert!(!in_wt(&["merge", "main"]).status.success());
        assert!(!index_without_conflicts(&wt) && index_without_conflicts(&fx.root));
        assert_eq!(unresolved(&wt, &[Path::new(".rune")], Look::Index).len(), 1);
        assert!(unresolved(&fx.root, &[Path::new(".rune")], Look::Index).is_empty());
        fx.git_fails(&["merge", "other"]);
        assert!(!index_without_conflicts(&fx.root));
        // A private file with marker-like output is not the merge's.
        fx.write(".handoff/loop/NEEDS-HUMAN", "<<<<<<< diff in the output\n");
        let dirs = [Path::new(".rune"), Path::new(".handoff")];
        let unmerged = Unresolved {
            path: ".rune/d.md".into(),
            line: None,
        };
        assert_eq!(
            unresolved(&fx.root, &dirs, Look::Index),
            vec![unmerged.clone()]
        );
        assert_eq!(
            unresolved(&fx.root, &dirs, Look::Tracked),
            vec![unmerged.clone()]
        );
        let all = unresolved(&fx.root, &dirs, Look::Files);
        assert_eq!(all.len(), 2, "{all:?}");
        assert_eq!(
            all[1].describe(),
            ".handoff/loop/NEEDS-HUMAN (conflict marker at line 1)"
        );
        // Added as it is: no longer unmerged, but its markers are found, and not committed.
        fx.git(&["add", ".rune/d.md"]);
        fx.git(&["commit", "-q", "--no-edit"]);
        let found = unresolved(&fx.root, &dirs[..1], Look::Tracked);
        assert_eq!(
            found[0].describe(),
            ".rune/d.md (conflict marker at line 1)"
        );
        let line = refusal_line("not saved", &found);
        assert!(line.starts_with("not saved: unresolved merge conflicts in .rune/d.md (conflict marker at line 1); resolve them first"), "{line}");
        let out = fx.commit(&fx.root, &[".rune"]);
        assert!(
            matches!(&out, Outcome::NotCommitted { why: crate::core::git::Refusal::ConflictMarkers(f), .. } if f == &vec![".rune/d.md (conflict marker at line 1)".to_string()]),
            "{out:?}"
        );
    }

    #[test]
    fn markers_are_found_and_ordinary_rules_are_not() {
        let text =
            "# Log\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> origin/main\nTitle\n=======\n";
        assert_eq!(marker_lines(text), vec![2, 4, 6]);
        assert_eq!(
            marker_lines("a\n<<<<<<< ours\nx\n||||||| base\ny\n=======\nz\n>>>>>>> theirs"),
            vec![2, 4, 6, 8]
        );
        // A setext heading, a shift in code, a longer run: not markers.
        assert!(marker_lines("Title\n=======\n`a <<<<<<<< b`\n<<<<<<<<x\n").is_empty());
        assert!(marker_lines("").is_empty());
    }
}
