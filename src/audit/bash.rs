//! Whether a Bash command changes files, told from its command line by a small shell lexer:
//! words with quotes and backslashes honoured, the separators that end a pipeline stage, and
//! redirects. No expansion, no grammar beyond that, no regex.
//!
//! This runs on every PostToolUse, so it is one linear pass over the characters of one
//! command line: microseconds, and nothing compiled per run (each hook is a fresh process, so
//! a regex would be compiled every time). The lexer earns its place over substring tests,
//! which read `grep '>' f` or `awk '$1 > 3'` as writes, and `git -C x checkout` as a read.

/// Commands that write files when they start a pipeline stage.
const WRITERS: [&str; 12] = [
    "tee", "mv", "cp", "rm", "touch", "mkdir", "rmdir", "ln", "patch", "truncate", "install",
    "chmod",
];
/// git subcommands that change the work tree (`stash` unless `list`/`show`).
const GIT_WRITERS: [&str; 15] = [
    "apply",
    "am",
    "checkout",
    "switch",
    "restore",
    "reset",
    "clean",
    "pull",
    "mv",
    "rm",
    "stash",
    "merge",
    "rebase",
    "cherry-pick",
    "revert",
];
/// git's global options that take their value as the next word.
const GIT_VALUE_OPTIONS: [&str; 5] = ["-C", "-c", "--git-dir", "--work-tree", "--namespace"];

/// A piece of a command line.
#[derive(Debug, PartialEq)]
enum Tok {
    /// A word, quotes removed.
    Word(String),
    /// `;`, newline, `|`, `&`, `(`, `)`: ends a pipeline stage.
    Sep,
    /// A redirect; `file` when it writes stdout to a file (`>`, `>>`, `>|`, `1>`, `&>`,
    /// `&>>`), the next word being the file. Other redirects (`2>`, `<`) still take the next
    /// word as their target.
    Redirect { file: bool },
    /// A redirect to a file descriptor (`>&2`, `2>&1`): no target word.
    Dup,
}

/// Whether a Bash command writes files, and the first file it redirects stdout into. Told
/// cheaply from the command line (one pass, no regex): quotes and backslashes are honoured,
/// so a `>` inside `'…'` is not a redirect; a `>`, `>>`, `>|`, `&>` or `&>>` redirect to a
/// file other than /dev/…, or a stage starting with a writing command (`sed -i`, `tee`,
/// `mv`, `git checkout` …).
pub(crate) fn bash_change(command: &str) -> (bool, Option<String>) {
    let toks = lex(command);
    let mut path = None;
    let mut writes = false;
    let mut stage: Vec<&str> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        match &toks[i] {
            Tok::Word(w) => stage.push(w),
            Tok::Sep => {
                writes |= stage_writes(stage.drain(..));
            }
            Tok::Dup => {}
            Tok::Redirect { file } => {
                if let Some(Tok::Word(target)) = toks.get(i + 1) {
                    i += 1;
                    if *file && !target.is_empty() && !target.starts_with("/dev/") {
                        writes = true;
                        if path.is_none() {
                            path = Some(target.clone());
                        }
                    }
                }
            }
        }
        i += 1;
    }
    writes |= stage_writes(stage.drain(..));
    (writes, path)
}

/// Splits a command line into words, separators and redirects, tracking quotes.
fn lex(command: &str) -> Vec<Tok> {
    let c: Vec<char> = command.chars().collect();
    let mut toks = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut i = 0;
    while i < c.len() {
        match c[i] {
            q @ ('\'' | '"') => {
                in_word = true;
                i = quoted(&c, i, q, &mut word);
            }
            '\\' => {
                in_word = true;
                if let Some(&next) = c.get(i + 1) {
                    word.push(next);
                }
                i += 2;
            }
            ' ' | '\t' | '\r' => {
                flush(&mut toks, &mut word, &mut in_word);
                i += 1;
            }
            '&' if c.get(i + 1) == Some(&'>') => {
                flush(&mut toks, &mut word, &mut in_word);
                i += 2;
                if c.get(i) == Some(&'>') {
                    i += 1;
                }
                toks.push(Tok::Redirect { file: true });
            }
            ';' | '\n' | '|' | '&' | '(' | ')' => {
                flush(&mut toks, &mut word, &mut in_word);
                toks.push(Tok::Sep);
                i += 1;
            }
            '<' => {
                flush(&mut toks, &mut word, &mut in_word);
                while c.get(i) == Some(&'<') {
                    i += 1;
                }
                toks.push(Tok::Redirect { file: false });
            }
            '>' if (in_word && word.ends_with(['=', '-'])) || c.get(i + 1) == Some(&'=') => {
                // `=>`, `->`, `>=`: text, not a redirect (as the older rule had it).
                in_word = true;
                word.push('>');
                i += 1;
            }
            '>' => i = redirect_out(&c, i, &mut toks, &mut word, &mut in_word),
            ch => {
                in_word = true;
                word.push(ch);
                i += 1;
            }
        }
    }
    flush(&mut toks, &mut word, &mut in_word);
    toks
}

/// Ends the word being read, if any.
fn flush(toks: &mut Vec<Tok>, word: &mut String, in_word: &mut bool) {
    if *in_word {
        toks.push(Tok::Word(std::mem::take(word)));
        *in_word = false;
    }
}

/// The redirect at `c[at]` (a `>`): of stdout to a file (`>`, `>>`, `>|`, `1>`), of another
/// descriptor (`2>`: the digits read so far are its number, not a word), or to a descriptor
/// (`>&2`). Returns the index after it.
fn redirect_out(
    c: &[char],
    at: usize,
    toks: &mut Vec<Tok>,
    word: &mut String,
    in_word: &mut bool,
) -> usize {
    let fd = if *in_word && !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) {
        *in_word = false;
        Some(std::mem::take(word))
    } else {
        flush(toks, word, in_word);
        None
    };
    let mut i = at + 1;
    if matches!(c.get(i), Some('>' | '|')) {
        i += 1;
    }
    if c.get(i) == Some(&'&') {
        i += 1;
        toks.push(Tok::Dup);
    } else {
        toks.push(Tok::Redirect {
            file: fd.is_none_or(|f| f == "1"),
        });
    }
    i
}

/// Reads the `q`-quoted text starting at `c[at]` (the quote) into `word`; returns the index
/// after the closing quote. Inside double quotes a backslash escapes the next character.
fn quoted(c: &[char], at: usize, q: char, word: &mut String) -> usize {
    let mut i = at + 1;
    while i < c.len() && c[i] != q {
        if q == '"' && c[i] == '\\' && i + 1 < c.len() {
            i += 1;
        }
        word.push(c[i]);
        i += 1;
    }
    i + 1
}

/// The arguments of baton when a Bash command runs it (`…/bin/baton audit end` gives
/// `["audit", "end"]`): the first pipeline stage that does more than `cd` runs a program
/// named `baton`. A command that only mentions baton (`echo baton`, `grep baton`) is not one.
pub(crate) fn baton_args(command: &str) -> Option<Vec<String>> {
    let mut stage: Vec<String> = Vec::new();
    let mut stages = Vec::new();
    for tok in lex(command) {
        match tok {
            Tok::Word(w) => stage.push(w),
            Tok::Sep if !stage.is_empty() => stages.push(std::mem::take(&mut stage)),
            _ => {}
        }
    }
    stages.push(stage);
    let stage = stages
        .iter()
        .find(|s| s.first().is_some_and(|w| w != "cd"))?;
    let mut words = stage.iter().map(String::as_str);
    let cmd = command_word(&mut words)?;
    (cmd == "baton").then(|| words.map(str::to_string).collect())
}

/// The name of the program a pipeline stage runs (its file name), past `VAR=value` prefixes
/// and sudo/env; `words` is left at its first argument.
fn command_word<'a>(words: &mut impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let cmd = words.find(|w| !(w.contains('=') || *w == "sudo" || *w == "env"))?;
    Some(cmd.rsplit('/').next().unwrap_or(cmd))
}

fn stage_writes<'a>(mut words: impl Iterator<Item = &'a str>) -> bool {
    let Some(cmd) = command_word(&mut words) else {
        return false;
    };
    match cmd {
        "sed" => words.any(|w| {
            w == "--in-place" || (w.starts_with('-') && !w.starts_with("--") && w.contains('i'))
        }),
        "git" => git_writes(words),
        _ => WRITERS.contains(&cmd),
    }
}

/// Whether a git command line (after `git`) changes the work tree: global options (and the
/// values of `-C DIR`, `-c KEY=VALUE` …) are skipped to find the subcommand.
fn git_writes<'a>(mut words: impl Iterator<Item = &'a str>) -> bool {
    while let Some(w) = words.next() {
        if GIT_VALUE_OPTIONS.contains(&w) {
            words.next();
            continue;
        }
        if w.starts_with('-') {
            continue;
        }
        if w == "stash" {
            return !matches!(words.next(), Some("list" | "show"));
        }
        return GIT_WRITERS.contains(&w);
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// (command, writes, redirect target)
    const CASES: &[(&str, bool, Option<&str>)] = &[
        ("ls -la", false, None),
        ("cargo test 2>&1 | tail", false, None),
        ("echo hi > out.txt", true, Some("out.txt")),
        ("echo hi >out.txt", true, Some("out.txt")),
        ("echo hi 1> out.txt", true, Some("out.txt")),
        ("echo hi >> log/a.txt", true, Some("log/a.txt")),
        ("echo hi >| forced.txt", true, Some("forced.txt")),
        ("make &> build.log", true, Some("build.log")),
        ("make &>> build.log", true, Some("build.log")),
        ("make > \"my log.txt\"", true, Some("my log.txt")),
        ("grep x y > /dev/null", false, None),
        ("cmd 2>&1 >/dev/null", false, None),
        ("cmd 2> err.log", false, None),
        ("cmd >&2", false, None),
        ("cmd > ", false, None),
        ("cmd >", false, None),
        ("cmd > ; ls", false, None),
        ("grep '<div>' index.html", false, None),
        ("grep \"<div>\" index.html", false, None),
        ("grep \\> index.html", false, None),
        ("awk '$1 > 3' f.txt", false, None),
        ("awk '$1 >= 3' f", false, None),
        ("python3 -c 'print(1 > 2)'", false, None),
        ("echo '; rm -rf x'", false, None),
        ("sort < in.txt", false, None),
        ("sed -i s/a/b/ f", true, None),
        ("rm -rf target", true, None),
        ("ls | tee out.log", true, None),
        ("FOO=1 mv a b", true, None),
        ("cd x && touch y", true, None),
        ("git status", false, None),
        ("git -C x log", false, None),
        ("git -C sub status", false, None),
        ("git -c core.pager=cat diff", false, None),
        ("git --no-pager log -p", false, None),
        ("git stash list", false, None),
        ("git checkout -- f", true, None),
        ("git -C sub checkout main", true, None),
        ("git -c user.name=x checkout main", true, None),
        ("git commit -m 'a > b'", false, None),
        ("git pull", true, None),
        ("git switch feature", true, None),
        ("git clean -fd", true, None),
        ("git restore f", true, None),
        ("git stash", true, None),
        ("git stash pop", true, None),
        ("git stash apply", true, None),
        ("git merge topic", true, None),
        ("git rebase main", true, None),
        ("git cherry-pick abc", true, None),
        ("git reset --hard", true, None),
    ];

    #[test]
    fn bash_changes_and_redirect_targets_table() {
        for (cmd, writes, target) in CASES {
            assert_eq!(
                bash_change(cmd),
                (*writes || target.is_some(), target.map(str::to_string)),
                "{cmd}"
            );
        }
    }

    #[test]
    fn baton_runs_are_told_from_mentions() {
        let args = |c: &str| baton_args(c).map(|a| a.join(" "));
        for (cmd, want) in [
            ("/p/bin/baton audit end", Some("audit end")),
            (
                "\"/p q/bin/baton\" audit end --json",
                Some("audit end --json"),
            ),
            ("cd /work && baton status", Some("status")),
            (
                "BATON_NOW=x baton audit start 'a task'",
                Some("audit start a task"),
            ),
            ("baton", Some("")),
            ("echo baton audit end", None),
            ("grep -r baton src", None),
            ("ls; baton status", None),
            ("batons audit end", None),
            ("", None),
        ] {
            assert_eq!(args(cmd).as_deref(), want, "{cmd}");
        }
    }

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
