//! What a command line reads and writes, told from its commands (`super::commands`): the
//! files it redirects from and to (any descriptor: `2> errors.log` writes), and the files the
//! programs that read or change files name (`tee`, `touch`, `mkdir`, `rm`, `mv`, `cp`, `sed
//! -i`, `dd of=`, `curl -o` …; `cat`, `head`, `diff`, `source` … read). A program that changes
//! files without naming them (`git checkout`, `patch`) makes the line a change with no path.
//! Nothing is expanded: `$OUT` is the path `$OUT`. A heuristic, good enough to say which
//! files a call touched; what it cannot see (a script that writes) it does not guess.

use super::{commands, Op};

/// The most paths named per command line, read or written.
const MAX_PATHS: usize = 10;

/// What one command line reads and writes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Effects {
    /// Files read, in order, each once (`./` dropped; devices and `-` left out).
    pub reads: Vec<String>,
    /// Files written, created, moved or removed, the same way.
    pub writes: Vec<String>,
    /// Whether the line changes files: it writes one, or runs a program that does.
    pub changes: bool,
}

impl Effects {
    fn read(&mut self, path: &str) {
        push(&mut self.reads, path);
    }

    fn write(&mut self, path: &str) {
        self.changes |= push(&mut self.writes, path);
    }
}

/// Adds `path` to `list` unless it names no file; whether it names one.
fn push(list: &mut Vec<String>, path: &str) -> bool {
    let path = path.strip_prefix("./").unwrap_or(path);
    let device = ["/dev/", "/proc/", "<(", ">("]
        .iter()
        .any(|p| path.starts_with(p));
    if path.is_empty() || path.starts_with('-') || device {
        return false;
    }
    if list.len() < MAX_PATHS && !list.iter().any(|p| p == path) {
        list.push(path.to_string());
    }
    true
}

/// What `line` reads and writes.
pub fn effects(line: &str) -> Effects {
    let mut e = Effects::default();
    for cmd in commands(line) {
        for r in &cmd.redirects {
            if matches!(r.op, Op::Read | Op::ReadWrite) {
                e.read(&r.target);
            }
            if matches!(r.op, Op::Write | Op::ReadWrite) {
                e.write(&r.target);
            }
        }
        if let Some((program, args)) = cmd.program() {
            program_effects(program, args, &mut e);
        }
    }
    e
}

/// Options that take the next word as their value, by program.
const VALUE_OPTIONS: [(&str, &[&str]); 9] = [
    ("head", &["-n", "-c"]),
    ("tail", &["-n", "-c"]),
    ("truncate", &["-s", "-r"]),
    ("mkdir", &["-m"]),
    ("touch", &["-d", "-t", "-r"]),
    ("install", &["-m", "-o", "-g", "-t", "-S"]),
    ("sed", &["-e", "-f", "-l", "--expression", "--file"]),
    (
        "curl",
        &["-H", "-d", "-X", "-u", "-A", "-e", "--data", "--header"],
    ),
    ("sort", &["-k", "-t", "-S", "-T"]),
];

/// Options that name a file the program writes, by program.
const OUTPUT_OPTIONS: [(&str, &[&str]); 3] = [
    ("curl", &["-o", "--output"]),
    ("wget", &["-O", "--output-document"]),
    ("sort", &["-o", "--output"]),
];

/// The operands of `args`: past options (and their values), everything after `--`.
fn operands<'a>(program: &str, args: &'a [String]) -> Vec<&'a str> {
    let of = |table: &[(&str, &'static [&'static str])]| {
        table
            .iter()
            .find(|(p, _)| *p == program)
            .map_or(&[][..], |(_, v)| *v)
    };
    let (values, outputs) = (of(&VALUE_OPTIONS), of(&OUTPUT_OPTIONS));
    let mut out = Vec::new();
    let mut words = args.iter().map(String::as_str);
    while let Some(w) = words.next() {
        if w == "--" {
            out.extend(words.by_ref());
        } else if values.contains(&w) || outputs.contains(&w) {
            words.next();
        } else if !w.starts_with('-') {
            out.push(w);
        }
    }
    out
}

/// What one program, run with `args`, reads and writes.
fn program_effects(program: &str, args: &[String], e: &mut Effects) {
    let outputs = OUTPUT_OPTIONS.iter().find(|(p, _)| *p == program);
    let mut words = args.iter();
    while let Some(a) = words.next() {
        if outputs.is_some_and(|(_, flags)| flags.contains(&a.as_str())) {
            words.next().inspect(|p| e.write(p));
        }
    }
    let ops = operands(program, args);
    let none: &[&str] = &[];
    // (read, written, changes files even when it names none: `xargs rm` removes some)
    let (read, written, changes) = match program {
        "tee" => (none, &ops[..], false),
        "touch" | "mkdir" | "rm" | "rmdir" | "mv" | "truncate" | "shred" | "unlink" => {
            (none, &ops[..], true)
        }
        "cp" | "install" | "ln" => match ops.split_last() {
            Some((last, sources)) => (sources, std::slice::from_ref(last), true),
            None => (none, none, true),
        },
        "chmod" | "chown" | "chgrp" => (none, ops.get(1..).unwrap_or_default(), true),
        "cat" | "less" | "more" | "head" | "tail" | "wc" | "diff" | "cmp" | "sort" | "uniq"
        | "source" | "." => (&ops[..], none, false),
        "sed" | "gsed" => return sed(args, &ops, e),
        "dd" => {
            for a in args {
                a.strip_prefix("if=").inspect(|p| e.read(p));
                a.strip_prefix("of=").inspect(|p| e.write(p));
            }
            (none, none, false)
        }
        "git" => (none, none, git_writes(args)),
        "patch" => (none, none, true),
        _ => (none, none, false),
    };
    for p in read {
        e.read(p);
    }
    for p in written {
        e.write(p);
    }
    e.changes |= changes;
}

/// `sed [-i[SUFFIX]] [-e SCRIPT]… [SCRIPT] FILE…`: the files are read, and written when it
/// edits in place.
fn sed(args: &[String], ops: &[&str], e: &mut Effects) {
    let in_place = args.iter().any(|a| {
        a == "--in-place"
            || a.starts_with("--in-place=")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
    });
    let scripted = args
        .iter()
        .any(|a| matches!(a.as_str(), "-e" | "-f" | "--expression" | "--file"));
    for file in ops.iter().skip(usize::from(!scripted)) {
        e.read(file);
        if in_place {
            e.write(file);
        }
    }
}

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

/// Whether a git command line (after `git`) changes the work tree: global options (and the
/// values of `-C DIR`, `-c KEY=VALUE` …) are skipped to find the subcommand.
fn git_writes(args: &[String]) -> bool {
    let mut words = args.iter().map(String::as_str);
    while let Some(w) = words.next() {
        if GIT_VALUE_OPTIONS.contains(&w) {
            words.next();
        } else if w == "stash" {
            return !matches!(words.next(), Some("list" | "show"));
        } else if !w.starts_with('-') {
            return GIT_WRITERS.contains(&w);
        }
    }
    false
}
