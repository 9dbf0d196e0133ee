//! README is for users, so what it names must exist (issue 17): every `/baton:…` slash command
//! has its file in `commands/`, every `baton …` command it shows in code parses (its `--help`
//! exits 0), and every link to a page of this repository leads to a file. The install blocks'
//! commands are run in order by the end-to-end tests (`tests/e2e/readme.rs`).

use crate::harness::Project;
use std::collections::BTreeSet;
use std::path::Path;

const REPO: &str = env!("CARGO_MANIFEST_DIR");

fn readme() -> String {
    std::fs::read_to_string(Path::new(REPO).join("README.md")).unwrap()
}

/// The commands in a markdown text: ```sh blocks and inline code spans (other blocks show
/// output, not commands).
fn code_of(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut fence: Option<(bool, String)> = None;
    for line in text.lines() {
        if let Some(info) = line.trim_start().strip_prefix("```") {
            match fence.take() {
                Some((true, block)) => out.push(block),
                Some((false, _)) => {}
                None => fence = Some((matches!(info.trim(), "sh" | "bash"), String::new())),
            }
            continue;
        }
        if let Some((_, block)) = fence.as_mut() {
            block.push_str(line);
            block.push('\n');
            continue;
        }
        out.extend(line.split('`').skip(1).step_by(2).map(str::to_string));
    }
    out
}

/// `/baton:<name>` anywhere in the text.
fn slash_commands(text: &str) -> BTreeSet<String> {
    text.match_indices("/baton:")
        .map(|(i, m)| {
            text[i + m.len()..]
                .chars()
                .take_while(|c| c.is_ascii_lowercase() || *c == '-')
                .collect::<String>()
        })
        .collect()
}

/// The subcommand words of each `baton …` in code: the lowercase words after `baton` up to
/// the first flag, placeholder or punctuation.
fn cli_commands(code: &[String]) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::new();
    for chunk in code {
        for line in chunk.lines() {
            let words: Vec<&str> = line.split_whitespace().collect();
            for (i, w) in words.iter().enumerate() {
                if *w != "baton" || i > 0 && !matches!(words[i - 1], "|" | "&&" | ";" | "$") {
                    continue;
                }
                let sub: Vec<String> = words[i + 1..]
                    .iter()
                    .take_while(|w| {
                        !w.is_empty()
                            && w.chars().all(|c| c.is_ascii_lowercase() || c == '-')
                            && !w.starts_with('-')
                    })
                    .map(|w| (*w).to_string())
                    .collect();
                out.insert(sub);
            }
        }
    }
    out
}

#[test]
fn issue_17_every_slash_command_the_readme_names_exists() {
    let text = readme();
    let names = slash_commands(&text);
    assert!(names.len() >= 9, "{names:?}");
    for name in &names {
        let file = Path::new(REPO).join(format!("commands/{name}.md"));
        assert!(
            file.is_file(),
            "README names /baton:{name}, but {} is missing",
            file.display()
        );
    }
}

#[test]
fn issue_17_every_cli_command_the_readme_shows_parses() {
    let text = readme();
    let commands = cli_commands(&code_of(&text));
    for must in [
        vec!["doctor"],
        vec!["clean"],
        vec!["bridge", "save"],
        vec!["bridge", "checkpoint"],
    ] {
        let must: Vec<String> = must.into_iter().map(String::from).collect();
        assert!(
            commands.contains(&must),
            "README shows no `baton {}`",
            must.join(" ")
        );
    }
    let p = Project::new();
    for sub in &commands {
        let mut args: Vec<&str> = sub.iter().map(String::as_str).collect();
        args.push("--help");
        let out = p.run(&args, b"", &[]);
        assert_eq!(
            out.code,
            0,
            "README shows `baton {}`, which baton does not have: {}",
            sub.join(" "),
            out.stderr
        );
    }
}

#[test]
fn issue_17_the_input_schemas_are_in_help() {
    let p = Project::new();
    for (args, key) in [
        (&["bridge", "save", "--help"][..], "task_notes:"),
        (&["bridge", "checkpoint", "--help"][..], "resume:"),
    ] {
        let out = p.run(args, b"", &[]);
        assert!(
            out.stdout.contains(key) && out.stdout.contains("EXAMPLE"),
            "{out:?}"
        );
    }
}

#[test]
fn issue_17_readme_links_lead_to_files_and_the_page_stays_short() {
    let text = readme();
    for link in text.split("](").skip(1) {
        let target = link.split(')').next().unwrap();
        if target.starts_with("http") {
            continue;
        }
        let file = target.split('#').next().unwrap();
        assert!(
            Path::new(REPO).join(file).is_file(),
            "README links to {target}, which is not a file"
        );
    }
    let lines = text.lines().count();
    assert!(
        lines <= 230,
        "README has {lines} lines: the detail belongs in docs/"
    );
    assert!(
        !text.contains("DESIGN.md"),
        "DESIGN.md is not in the repository"
    );
}

#[test]
fn the_readme_parser_finds_what_it_should() {
    let code = code_of("run `baton bridge save --json` or\n```sh\nx | baton audit recover L0\n```\nnot baton status\n");
    let found = cli_commands(&code);
    let want: BTreeSet<Vec<String>> = [vec!["bridge", "save"], vec!["audit", "recover"]]
        .into_iter()
        .map(|v| v.into_iter().map(String::from).collect())
        .collect();
    assert_eq!(found, want);
    assert_eq!(
        slash_commands("use /baton:dr-save, then /baton:dr-continue ID"),
        ["dr-continue", "dr-save"]
            .into_iter()
            .map(String::from)
            .collect()
    );
}

/// Every file of `dir` (recursively) whose name ends with one of `exts`.
fn files_under(dir: &Path, exts: &[&str]) -> Vec<std::path::PathBuf> {
    walkdir::WalkDir::new(dir)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_file())
        .map(walkdir::DirEntry::into_path)
        .filter(|p| exts.iter().any(|x| p.to_string_lossy().ends_with(x)))
        .collect()
}

/// Issue 12's vocabulary rule: every slash command baton prints, or tells the model or the
/// user to run, exists in this plugin (`commands/<name>.md`); the seed tools' own commands
/// (`/weave-loop`, `/dr-next`, `/dr-save`, `/dr-continue`) are never printed by the code
/// (they appear only where a user configures them).
#[test]
fn issue_12_every_slash_command_baton_prints_exists() {
    let repo = Path::new(REPO);
    let mut texts: Vec<(String, String)> = Vec::new();
    for dir in ["src", "commands", "skills", "docs", "hooks", "plugin"] {
        for f in files_under(&repo.join(dir), &[".rs", ".md", ".json", ".sh"]) {
            if let Ok(t) = std::fs::read_to_string(&f) {
                texts.push((f.display().to_string(), t));
            }
        }
    }
    assert!(texts.len() > 50, "{}", texts.len());
    let mut missing = Vec::new();
    for (file, text) in &texts {
        // A Rust file's tests may name made-up commands on purpose; what it prints is above.
        let text = text.split("#[cfg(test)]").next().unwrap_or("");
        for name in slash_commands(text) {
            if name.is_empty() {
                continue;
            }
            if !repo.join("commands").join(format!("{name}.md")).is_file() {
                missing.push(format!("{file}: /baton:{name}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "slash commands that do not exist: {missing:?}"
    );
    let mut foreign = Vec::new();
    let rust = |f: &String| Path::new(f).extension().is_some_and(|x| x == "rs");
    for (file, text) in texts.iter().filter(|(f, _)| rust(f)) {
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        for line in code.lines().filter(|l| !l.trim_start().starts_with("//")) {
            for cmd in ["/weave-loop", "/dr-next", "/dr-save", "/dr-continue"] {
                if line.contains(cmd) {
                    foreign.push(format!("{file}: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        foreign.is_empty(),
        "printed commands of other tools: {foreign:?}"
    );
}
