//! Which files a Bash command writes, by a small heuristic: output redirections (`>`, `>>`,
//! `&>`, `2>`), `tee`, `touch`, `mkdir`, `rm`, `mv`, `cp` and `sed -i`. It reads the command
//! as words (quotes respected, heredoc bodies skipped) split into simple commands at `;`,
//! `&&`, `||`, `|`, `&` and line breaks; it does not expand anything. Good enough to say
//! which files were in flight; the audit subsystem has the full lexer for its records.

/// The most paths taken from one command.
const MAX_PATHS: usize = 10;

/// One token of a command line.
#[derive(Debug, PartialEq, Eq)]
enum Token {
    Word(String),
    /// An output redirection (`>`, `>>`, `>|`, `&>`, `2>`, …).
    Redirect,
    /// `>&` (`2>&1`), `<`, `<<<`: the next word is a descriptor or an input, not a file
    /// written.
    NotWritten,
    /// `<<`/`<<-`: a heredoc follows; its delimiter is the next word.
    Heredoc,
    /// `;`, `&&`, `||`, `|`, `&`, a line break.
    Separator,
}

/// The paths `command` writes, in order, each once, at most `MAX_PATHS`.
pub(crate) fn written_paths(command: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut words: Vec<String> = Vec::new();
    let tokens = tokenize(command);
    let mut i = 0;
    while i < tokens.len() {
        match &tokens[i] {
            Token::Word(w) => words.push(w.clone()),
            Token::Redirect => {
                if let Some(Token::Word(target)) = tokens.get(i + 1) {
                    push_path(&mut out, target);
                    i += 1;
                }
            }
            Token::NotWritten | Token::Heredoc => i += 1,
            Token::Separator => {
                for p in command_targets(&words) {
                    push_path(&mut out, &p);
                }
                words.clear();
            }
        }
        i += 1;
    }
    for p in command_targets(&words) {
        push_path(&mut out, &p);
    }
    out.truncate(MAX_PATHS);
    out
}

fn push_path(out: &mut Vec<String>, path: &str) {
    let path = path.strip_prefix("./").unwrap_or(path);
    let device = path.starts_with("/dev/") || path.starts_with("/proc/");
    if path.is_empty() || device || path.starts_with('-') || out.iter().any(|p| p == path) {
        return;
    }
    out.push(path.to_string());
}

/// What one simple command (its words) writes.
fn command_targets(words: &[String]) -> Vec<String> {
    // Leading assignments and wrappers: `FOO=1 sudo -u x cp …`.
    let mut rest = words;
    while let Some((first, tail)) = rest.split_first() {
        let assignment = first.contains('=') && !first.starts_with('=');
        let wrapper = matches!(
            first.as_str(),
            "sudo" | "command" | "exec" | "nohup" | "time"
        );
        if assignment || wrapper {
            rest = tail;
        } else {
            break;
        }
    }
    let Some((program, args)) = rest.split_first() else {
        return Vec::new();
    };
    let program = program.rsplit('/').next().unwrap_or(program);
    let operands: Vec<&String> = args.iter().filter(|a| !a.starts_with('-')).collect();
    match program {
        "tee" | "touch" | "mkdir" | "rm" | "rmdir" | "mv" | "truncate" => {
            operands.into_iter().cloned().collect()
        }
        "cp" | "install" | "ln" => operands
            .last()
            .map(|p| vec![(*p).clone()])
            .unwrap_or_default(),
        "sed" | "gsed" => sed_in_place(args),
        _ => Vec::new(),
    }
}

/// `sed -i[SUFFIX] [-e SCRIPT]… [SCRIPT] FILE…`: the files, when it edits in place.
fn sed_in_place(args: &[String]) -> Vec<String> {
    let in_place = args.iter().any(|a| {
        a == "--in-place"
            || a.starts_with("--in-place=")
            || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
    });
    if !in_place {
        return Vec::new();
    }
    let mut has_script_flag = false;
    let mut operands = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        if a == "-e" || a == "-f" || a == "--expression" || a == "--file" {
            has_script_flag = true;
            i += 2;
            continue;
        }
        if !a.starts_with('-') {
            operands.push(a.clone());
        }
        i += 1;
    }
    if !has_script_flag && !operands.is_empty() {
        operands.remove(0);
    }
    operands
}

/// Splits a command line into tokens; heredoc bodies are left out.
fn tokenize(command: &str) -> Vec<Token> {
    let mut tokens = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut heredocs: Vec<String> = Vec::new();
    let mut chars = command.chars().peekable();
    let flush = |tokens: &mut Vec<Token>, word: &mut String, in_word: &mut bool| {
        if *in_word {
            tokens.push(Token::Word(std::mem::take(word)));
            *in_word = false;
        }
    };
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                in_word = true;
                read_quoted(&mut chars, c, &mut word);
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some('\n') | None => {}
                    Some(n) => word.push(n),
                }
            }
            '#' if !in_word => {
                // A comment, to the end of the line.
                while chars.peek().is_some_and(|&n| n != '\n') {
                    chars.next();
                }
            }
            '>' => {
                // `2>`, `&>`: the descriptor written just before belongs to the operator.
                if in_word && word.chars().all(|d| d.is_ascii_digit()) {
                    word.clear();
                    in_word = false;
                }
                flush(&mut tokens, &mut word, &mut in_word);
                if chars.peek() == Some(&'>') || chars.peek() == Some(&'|') {
                    chars.next();
                }
                if chars.peek() == Some(&'&') {
                    chars.next();
                    tokens.push(Token::NotWritten);
                } else {
                    tokens.push(Token::Redirect);
                }
            }
            '&' if chars.peek() == Some(&'>') => {
                flush(&mut tokens, &mut word, &mut in_word);
            }
            '<' => {
                flush(&mut tokens, &mut word, &mut in_word);
                input_operator(&mut chars, &mut tokens, &mut heredocs);
            }
            ';' | '|' | '&' | '(' | ')' => {
                flush(&mut tokens, &mut word, &mut in_word);
                tokens.push(Token::Separator);
            }
            '\n' => {
                flush(&mut tokens, &mut word, &mut in_word);
                tokens.push(Token::Separator);
                for delim in heredocs.drain(..) {
                    skip_heredoc_body(&mut chars, &delim);
                }
            }
            c if c.is_whitespace() => flush(&mut tokens, &mut word, &mut in_word),
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    flush(&mut tokens, &mut word, &mut in_word);
    tokens
}

/// The rest of a quoted string (after its opening `quote`) into `word`.
fn read_quoted(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    quote: char,
    word: &mut String,
) {
    while let Some(q) = chars.next() {
        match q {
            q if q == quote => break,
            '\\' if quote == '"' => word.extend(chars.next()),
            _ => word.push(q),
        }
    }
}

/// After `<`: an input redirection, a here-string (`<<<`) or a heredoc (`<<`, `<<-`, whose
/// delimiter is remembered to skip its body at the next line break).
fn input_operator(
    chars: &mut std::iter::Peekable<std::str::Chars<'_>>,
    tokens: &mut Vec<Token>,
    heredocs: &mut Vec<String>,
) {
    if chars.peek() != Some(&'<') {
        tokens.push(Token::NotWritten);
        return;
    }
    chars.next();
    if chars.peek() == Some(&'<') {
        chars.next();
        tokens.push(Token::NotWritten);
        return;
    }
    if chars.peek() == Some(&'-') {
        chars.next();
    }
    tokens.push(Token::Heredoc);
    heredocs.push(heredoc_delimiter(chars));
    tokens.push(Token::Word(String::new()));
}

/// Reads a heredoc's delimiter word (`EOF`, `'EOF'`, `"EOF"`) after `<<`.
fn heredoc_delimiter(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) -> String {
    while chars.peek().is_some_and(|c| *c == ' ' || *c == '\t') {
        chars.next();
    }
    let mut delim = String::new();
    while let Some(&c) = chars.peek() {
        if c.is_whitespace() || matches!(c, ';' | '|' | '&' | '>' | '<' | ')') {
            break;
        }
        chars.next();
        if c != '\'' && c != '"' && c != '\\' {
            delim.push(c);
        }
    }
    delim
}

/// Skips heredoc body lines up to and including the line that is the delimiter.
fn skip_heredoc_body(chars: &mut std::iter::Peekable<std::str::Chars<'_>>, delim: &str) {
    loop {
        let mut line = String::new();
        let mut ended = false;
        for c in chars.by_ref() {
            if c == '\n' {
                ended = true;
                break;
            }
            line.push(c);
        }
        if line.trim() == delim || !ended {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(c: &str) -> Vec<String> {
        written_paths(c)
    }

    #[test]
    fn redirections_and_writers() {
        assert_eq!(paths("echo hi > out.txt"), ["out.txt"]);
        assert_eq!(paths("echo hi>>log/a.log"), ["log/a.log"]);
        assert_eq!(paths("cargo test 2> err.txt 1>&2"), ["err.txt"]);
        assert_eq!(paths("make &> build.log"), ["build.log"]);
        assert_eq!(
            paths("ls | tee -a listing.txt copy.txt"),
            ["listing.txt", "copy.txt"]
        );
        assert_eq!(paths("touch a b && mkdir -p d/e"), ["a", "b", "d/e"]);
        assert_eq!(
            paths("rm -rf target/tmp; mv old.rs new.rs"),
            ["target/tmp", "old.rs", "new.rs"]
        );
        assert_eq!(paths("cp -r src/a.rs ./backup/"), ["backup/"]);
        assert_eq!(
            paths("sed -i 's/a/b/' src/lib.rs src/x.rs"),
            ["src/lib.rs", "src/x.rs"]
        );
        assert_eq!(paths("sed -i.bak -e 's/a/b/' f.txt"), ["f.txt"]);
        assert_eq!(paths("FOO=1 sudo tee /etc/x.conf < in"), ["/etc/x.conf"]);
    }

    #[test]
    fn what_is_not_a_write() {
        assert!(paths("cargo test 2>&1 | grep -v warn").is_empty());
        assert!(paths("echo 'a > b' \"c >> d\"").is_empty());
        assert!(paths("sed 's/a/b/' file.txt").is_empty());
        assert!(paths("cat x > /dev/null").is_empty());
        assert!(paths("grep -r foo . # > not-this").is_empty());
        assert!(paths("ls -la").is_empty());
        assert!(paths("cat <<< 'a > b'").is_empty());
    }

    #[test]
    fn heredoc_bodies_are_skipped() {
        let c = "cat > notes.md <<'EOF'\nline > fake.txt\nrm -rf /\nEOF\necho done >> log.txt";
        assert_eq!(paths(c), ["notes.md", "log.txt"]);
    }

    #[test]
    fn bounded_and_deduplicated() {
        let c = (0..30)
            .map(|i| format!("touch f{i}"))
            .collect::<Vec<_>>()
            .join("; ");
        assert_eq!(paths(&c).len(), MAX_PATHS);
        assert_eq!(paths("touch a; touch ./a"), ["a"]);
    }
}
