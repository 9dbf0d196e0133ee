//! `baton handoff check`'s arguments, parsed here by hand, not by clap: datarim's validator
//! (`check-session-handoff.sh`), whose interface this command keeps, exits 3 on a usage
//! error, and callers written for it read 2 as "malformed"; clap would exit 2 on a usage
//! error. Its forms are few and fixed, so a loop over the arguments is all it takes.

use super::session;
use super::validate::{self, Mode, Verdict};
use crate::core::config;
use crate::core::io::outln;
use crate::core::project::Project;
use std::path::{Path, PathBuf};

const USAGE: &str = "usage:
  baton handoff check --session <SESSION-ID> [--root <repo>]
  baton handoff check --validate-frontmatter --session <SESSION-ID> [--root <repo>]
  baton handoff check --self-test
  baton handoff check <FILE>
exit: 0 ok | 1 missing | 2 malformed | 3 usage";

/// What the arguments ask for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Request {
    Help,
    SelfTest,
    Session {
        id: String,
        root: Option<PathBuf>,
        strict: bool,
    },
    File(PathBuf),
}

fn parse(args: &[String]) -> Result<Request, String> {
    let mut id = None;
    let mut root = None;
    let mut strict = false;
    let mut self_test = false;
    let mut file = None;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "-h" | "--help" => return Ok(Request::Help),
            "--session" => id = Some(value(&mut it, "--session")?),
            "--root" => root = Some(PathBuf::from(value(&mut it, "--root")?)),
            "--validate-frontmatter" => strict = true,
            "--self-test" => self_test = true,
            s if s.starts_with("--session=") => id = Some(s["--session=".len()..].to_string()),
            s if s.starts_with("--root=") => root = Some(PathBuf::from(&s["--root=".len()..])),
            s if s.starts_with('-') && s != "-" => return Err(format!("unknown option {s}")),
            s if file.is_none() => file = Some(PathBuf::from(s)),
            s => return Err(format!("unexpected argument {s}: give one FILE")),
        }
    }
    if self_test {
        return Ok(Request::SelfTest);
    }
    match (id, file) {
        (Some(_), Some(_)) => Err("give --session or a FILE, not both".into()),
        (Some(id), None) => {
            if session::is_session_id(&id) {
                Ok(Request::Session { id, root, strict })
            } else {
                Err(format!(
                    "invalid session id {id:?}: must match {}",
                    session::ID_REGEX
                ))
            }
        }
        (None, Some(f)) => Ok(Request::File(f)),
        (None, None) => Err("nothing to check: give --session ID, --self-test or a FILE".into()),
    }
}

fn value(it: &mut std::slice::Iter<'_, String>, flag: &str) -> Result<String, String> {
    match it.next() {
        Some(v) if !v.starts_with("--") => Ok(v.clone()),
        _ => Err(format!("{flag} needs a value")),
    }
}

/// Runs the check; returns datarim's exit code.
pub(crate) fn run(args: &[String], project: &Project) -> i32 {
    let request = match parse(args) {
        Ok(r) => r,
        Err(msg) => {
            eprintln!("baton handoff check: {msg}\n{USAGE}");
            return 3;
        }
    };
    let (path, expected, mode) = match request {
        Request::Help => {
            outln!("{USAGE}");
            return 0;
        }
        Request::SelfTest => return self_test(),
        Request::Session { id, root, strict } => {
            let dir = match root {
                Some(r) => other_sessions_dir(project, &r),
                None => session::sessions_dir(project),
            };
            let mode = if strict { Mode::Strict } else { Mode::Light };
            (session::artefact_path(&dir, &id), Some(id), mode)
        }
        Request::File(f) => {
            let path = project.ctx.cwd.join(f);
            let id = path
                .file_name()
                .and_then(|n| n.to_str())
                .and_then(|n| n.strip_suffix(".session.md"))
                .filter(|id| session::is_session_id(id))
                .map(str::to_string);
            (path, id, Mode::Strict)
        }
    };
    let verdict = validate::check_file(&path, expected.as_deref(), mode);
    match &verdict {
        Verdict::Ok { blocks, warnings } => {
            outln!("ok: {} ({blocks} block(s))", path.display());
            for w in warnings {
                eprintln!("baton handoff check: warning: {w}");
            }
        }
        Verdict::Missing => eprintln!("baton handoff check: no artefact at {}", path.display()),
        Verdict::Malformed(problems) => {
            for p in problems {
                eprintln!("baton handoff check: {p}");
            }
        }
    }
    verdict.exit_code()
}

/// The sessions folder of the repository `--root` names. That is another project than this
/// run's (a consumer checking a producer's artefact), so its own config says where its
/// sessions are: it is loaded here, and its problems leave the defaults in force, as they
/// would for that project's own commands.
fn other_sessions_dir(project: &Project, root: &Path) -> PathBuf {
    let root = project.ctx.cwd.join(root);
    let config = config::load(&project.ctx, &root).config;
    session::sessions_dir_at(&root, &config)
}

/// `--self-test`: 0 when the validator accepts its good samples and rejects the broken
/// ones, else 2 with one line per failure.
fn self_test() -> i32 {
    match validate::self_test() {
        Ok(()) => {
            outln!("baton handoff check: self-test OK");
            0
        }
        Err(failures) => {
            for f in failures {
                eprintln!("baton handoff check: self-test: {f}");
            }
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(args: &[&str]) -> Result<Request, String> {
        parse(&args.iter().map(|s| (*s).to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn datarim_forms_parse() {
        let id = "SESSION-20261130-101500";
        assert_eq!(
            p(&["--session", id]),
            Ok(Request::Session {
                id: id.into(),
                root: None,
                strict: false
            })
        );
        assert_eq!(
            p(&["--validate-frontmatter", "--session", id, "--root", "/r"]),
            Ok(Request::Session {
                id: id.into(),
                root: Some("/r".into()),
                strict: true
            })
        );
        assert_eq!(p(&["--self-test"]), Ok(Request::SelfTest));
        assert_eq!(
            p(&["a.session.md"]),
            Ok(Request::File("a.session.md".into()))
        );
        assert_eq!(p(&["--help"]), Ok(Request::Help));
    }

    #[test]
    fn usage_errors() {
        for bad in [
            &[][..],
            &["--session"],
            &["--session", "--root"],
            &["--bogus"],
            &["--session", "../x"],
            &["--validate-frontmatter"],
            &["a", "b"],
            &["--session", "SESSION-20261130-101500", "f.md"],
        ] {
            assert!(p(bad).is_err(), "{bad:?}");
        }
    }
}
