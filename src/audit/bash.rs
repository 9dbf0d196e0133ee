//! Whether a Bash command changes files, told cheaply from its command line (no regex, no
//! shell parsing; this runs on every PostToolUse).

/// Commands that write files when they start a pipeline stage.
const WRITERS: [&str; 12] = [
    "tee", "mv", "cp", "rm", "touch", "mkdir", "rmdir", "ln", "patch", "truncate", "install",
    "chmod",
];
/// git subcommands that change the work tree.
const GIT_WRITERS: [&str; 11] = [
    "apply",
    "checkout",
    "restore",
    "reset",
    "mv",
    "rm",
    "stash",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
];

/// Whether a Bash command writes files, and the first file it redirects stdout into. Told
/// cheaply from the command line (no regex, no shell parsing): a `>`/`>>` redirect to a file
/// other than /dev/…, or a stage starting with a writing command (`sed -i`, `tee`, `mv`,
/// `git checkout` …).
pub(crate) fn bash_change(command: &str) -> (bool, Option<String>) {
    let path = redirect_target(command);
    let writes = path.is_some()
        || command
            .split([';', '&', '|', '(', ')', '\n'])
            .any(|stage| stage_writes(stage.split_whitespace()));
    (writes, path)
}

fn stage_writes<'a>(mut words: impl Iterator<Item = &'a str>) -> bool {
    let mut first = words.next();
    // Skip `VAR=value` prefixes and sudo/env.
    while let Some(w) = first {
        if w.contains('=') || w == "sudo" || w == "env" {
            first = words.next();
        } else {
            break;
        }
    }
    let Some(cmd) = first else {
        return false;
    };
    let cmd = cmd.rsplit('/').next().unwrap_or(cmd);
    match cmd {
        "sed" => words.any(|w| {
            w == "--in-place" || (w.starts_with('-') && !w.starts_with("--") && w.contains('i'))
        }),
        "git" => words
            .find(|w| !w.starts_with('-'))
            .is_some_and(|sub| GIT_WRITERS.contains(&sub)),
        _ => WRITERS.contains(&cmd),
    }
}

/// The first file a `>` or `>>` redirect of stdout names (not `2>`, `&>`, `>&2`, /dev/…).
fn redirect_target(command: &str) -> Option<String> {
    let b = command.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'>' {
            i += 1;
            continue;
        }
        let prev = if i == 0 { b' ' } else { b[i - 1] };
        let mut j = i + 1;
        if j < b.len() && b[j] == b'>' {
            j += 1;
        }
        let next = b.get(j).copied().unwrap_or(b' ');
        if prev.is_ascii_digit()
            || matches!(prev, b'&' | b'>' | b'=' | b'-')
            || matches!(next, b'=' | b'&')
        {
            i = j;
            continue;
        }
        while j < b.len() && b[j] == b' ' {
            j += 1;
        }
        let start = j;
        while j < b.len() && !b" \t;&|<>()\n".contains(&b[j]) {
            j += 1;
        }
        let target = &command[start..j];
        if !target.is_empty() && !target.starts_with("/dev/") {
            return Some(target.trim_matches(['"', '\'']).to_string());
        }
        i = j.max(i + 1);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bash_writes_are_told_from_reads() {
        for (cmd, change) in [
            ("ls -la", false),
            ("cargo test 2>&1 | tail", false),
            ("echo hi > out.txt", true),
            ("grep x y > /dev/null", false),
            ("sed -i s/a/b/ f", true),
            ("git checkout -- f", true),
            ("git status", false),
            ("rm -rf target", true),
        ] {
            assert_eq!(bash_change(cmd).0, change, "{cmd}");
        }
        assert_eq!(
            bash_change("echo hi >> log/a.txt").1.as_deref(),
            Some("log/a.txt")
        );
        assert_eq!(bash_change("cmd 2>&1 >/dev/null").1, None);
        assert!(bash_change("ls | tee out.log").0);
        assert!(!bash_change("git -C x log").0);
        assert!(!bash_change("awk '$1 >= 3' f").0);
        assert!(bash_change("FOO=1 mv a b").0);
    }
}
