//! The one shell lexer: a command line as Claude Code's Bash tool runs it, read into simple
//! commands (words with quotes and escapes removed, and their redirections), without expanding
//! anything. Audit (is a call a change, and of which files) and capture (which files are in
//! flight) both read commands through it, and `effects` says what a line reads and writes.
//!
//! It knows what decides those answers: single, double and `$'…'` quotes and backslashes (a
//! `>` inside quotes is text); heredocs with and without quotes and `-` (their bodies are
//! data, not commands: `cat <<'EOF'` … `a > b` … `EOF` writes nothing); here-strings;
//! redirections with file descriptors (`2> err.log` writes, `2>&1` and `>&2` do not), `&>`,
//! `&>>`, `>|`, `<>`; pipes, `;`, `&&`, `||`, `&`, line breaks; subshells; command and
//! process substitutions (`$(…)`, `` `…` ``, `<(…)`, their commands read like any other;
//! nested ones up to `MAX_DEPTH`); arithmetic (`$((…))`, `((…))`) and `[[ … ]]` tests, whose
//! `<` and `>` compare; comments. No grammar beyond that, no regex: one pass over the line,
//! on every PostToolUse of a Bash call.

mod effects;
pub use effects::{effects, Effects};

/// A redirection's direction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `<`, `N<`.
    Read,
    /// `>`, `>>`, `>|`, `N>`, `&>`, `&>>`, `>& file`.
    Write,
    /// `<>`.
    ReadWrite,
}

/// A redirection to or from a file (one to a descriptor, a heredoc or a here-string is
/// none: they name no file).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub op: Op,
    /// The file, as written (quotes removed, nothing expanded).
    pub target: String,
}

/// A simple command: its words, quotes removed (a substitution kept as written), and its
/// redirections to or from files.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Command {
    pub words: Vec<String>,
    pub redirects: Vec<Redirect>,
}

/// Words that start a command without being its program.
const RESERVED: [&str; 10] = [
    "!", "{", "}", "then", "else", "elif", "do", "if", "while", "until",
];
/// Programs that run the program named after them (and their options).
const WRAPPERS: [&str; 9] = [
    "sudo", "env", "command", "exec", "nohup", "time", "nice", "timeout", "xargs",
];
/// Options of those wrappers that take the next word as their value.
const WRAPPER_VALUES: [&str; 7] = ["-u", "-g", "-n", "-I", "-P", "-s", "-k"];

impl Command {
    /// The program the command runs, by its file name (`/usr/bin/rm` is `rm`), and its
    /// arguments: past `VAR=value` prefixes, reserved words (`then`, `do`, `!` …) and
    /// wrappers (`sudo -u x`, `env`, `timeout 10`, `xargs` …).
    pub fn program(&self) -> Option<(&str, &[String])> {
        let mut rest = self.words.as_slice();
        let (mut wrapped, mut duration) = (false, false);
        while let Some((first, tail)) = rest.split_first() {
            let w = first.as_str();
            rest = tail;
            if wrapped && w.starts_with('-') {
                if WRAPPER_VALUES.contains(&w) {
                    rest = rest.get(1..).unwrap_or_default();
                }
            } else if duration {
                duration = false; // `timeout`'s
            } else if WRAPPERS.contains(&w) {
                (wrapped, duration) = (true, w == "timeout");
            } else if !(RESERVED.contains(&w) || w.find('=').is_some_and(|at| at > 0)) {
                return Some((w.rsplit('/').next().unwrap_or(w), rest));
            }
        }
        None
    }
}

/// The simple commands of `line`, in order (those of a substitution before the command that
/// holds it ends).
pub fn commands(line: &str) -> Vec<Command> {
    let mut lexer = Lexer {
        c: line.chars().collect(),
        ..Lexer::default()
    };
    lexer.run(Stop::End);
    lexer.out
}

/// How deep substitutions are read; a deeper one stays text of its word.
const MAX_DEPTH: usize = 16;

/// What ends the commands being read.
#[derive(Clone, Copy, PartialEq)]
enum Stop {
    End,
    Paren,
    Backtick,
}

/// What the next word is, after an operator.
#[derive(Clone, Copy, PartialEq, Default)]
enum Next {
    #[default]
    Word,
    Target(Op),
    /// A heredoc's delimiter (`true`: `<<-`, leading tabs stripped).
    Delimiter(bool),
    /// A here-string's text.
    Text,
}

/// The command being read.
#[derive(Default)]
struct Cur {
    cmd: Command,
    word: String,
    in_word: bool,
    next: Next,
    /// Open subshell parentheses.
    parens: usize,
}

#[derive(Default)]
struct Lexer {
    c: Vec<char>,
    i: usize,
    out: Vec<Command>,
    /// Heredocs whose bodies start at the next line break: delimiter, tabs stripped.
    heredocs: Vec<(String, bool)>,
    depth: usize,
}

impl Lexer {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.c.get(self.i + ahead).copied()
    }

    /// Where the line at the cursor ends (its line break, or the end).
    fn line_end(&self) -> usize {
        let rest = self.c.get(self.i..).unwrap_or_default();
        self.i + rest.iter().position(|&c| c == '\n').unwrap_or(rest.len())
    }

    /// Reads commands into `out` until the end of the line or what `stop` names.
    fn run(&mut self, stop: Stop) {
        let mut cur = Cur::default();
        while let Some(ch) = self.peek(0) {
            match ch {
                ')' if cur.parens == 0 && stop == Stop::Paren => break,
                '`' if stop == Stop::Backtick => break,
                ' ' | '\t' | '\r' => {
                    self.flush(&mut cur);
                    self.i += 1;
                }
                '\n' => {
                    self.i += 1;
                    self.end(&mut cur);
                    self.heredoc_bodies();
                }
                ';' | '|' | '&' | '(' | ')' => self.operator(&mut cur, ch),
                '<' | '>' if !in_test(&cur.cmd) => self.redirect(&mut cur),
                '\\' if self.peek(1) == Some('\n') => self.i += 2, // a line continued
                '#' if !cur.in_word => self.i = self.line_end(),
                _ => {
                    self.word_part(&mut cur.word);
                    cur.in_word = true;
                }
            }
        }
        self.end(&mut cur);
        self.i += 1; // past the closing `)` or backtick
    }

    /// `;`, `|`, `||`, `|&`, `&`, `&&`, `&>`, `(`, `)` at the cursor: it ends the command,
    /// but for `&>` (a redirection) and `((` (arithmetic).
    fn operator(&mut self, cur: &mut Cur, ch: char) {
        let next = self.peek(1);
        match ch {
            '&' if next == Some('>') => {
                self.flush(cur);
                self.i += if self.peek(2) == Some('>') { 3 } else { 2 };
                cur.next = Next::Target(Op::Write);
                return;
            }
            '(' if next == Some('(') && cur.cmd.words.is_empty() && !cur.in_word => {
                let start = self.i;
                self.skip_arithmetic(2);
                cur.cmd.words.push(self.c[start..self.i].iter().collect());
                return;
            }
            '(' => cur.parens += 1,
            ')' => cur.parens = cur.parens.saturating_sub(1),
            _ => {}
        }
        self.flush(cur);
        let pair = matches!((ch, next), ('|', Some('|' | '&')) | ('&', Some('&')));
        self.i += if pair { 2 } else { 1 };
        self.end(cur);
    }

    /// A redirection at the cursor (`<` or `>`): its descriptor is the digits just read.
    fn redirect(&mut self, cur: &mut Cur) {
        let fd =
            cur.in_word && !cur.word.is_empty() && cur.word.chars().all(|d| d.is_ascii_digit());
        if fd {
            cur.word.clear();
            cur.in_word = false;
        } else if matches!(self.peek(1), Some('(')) && !cur.in_word {
            // `<(…)`, `>(…)`: a word (a pipe's name) whose commands run.
            self.word_part(&mut cur.word);
            cur.in_word = true;
            return;
        }
        self.flush(cur);
        let (len, next) = match (self.peek(0), self.peek(1), self.peek(2)) {
            (Some('<'), Some('<'), Some('<')) => (3, Next::Text),
            (Some('<'), Some('<'), Some('-')) => (3, Next::Delimiter(true)),
            (Some('<'), Some('<'), _) => (2, Next::Delimiter(false)),
            (Some('<'), Some('>'), _) => (2, Next::Target(Op::ReadWrite)),
            (_, Some('&'), Some(d)) if d.is_ascii_digit() || d == '-' => {
                // To a descriptor (`2>&1`, `>&-`, `<&0`): no file.
                self.i += 3;
                while self.peek(0).is_some_and(|d| d.is_ascii_digit()) {
                    self.i += 1;
                }
                return;
            }
            (Some('<'), Some('&'), _) => (2, Next::Text),
            (Some('>'), Some('>' | '|' | '&'), _) => (2, Next::Target(Op::Write)),
            (Some('<'), _, _) => (1, Next::Target(Op::Read)),
            _ => (1, Next::Target(Op::Write)),
        };
        self.i += len;
        cur.next = next;
    }

    /// One piece of a word at the cursor: a quoted string, an escaped character, a
    /// substitution, or a plain character.
    fn word_part(&mut self, word: &mut String) {
        let ch = self.c[self.i];
        match (ch, self.peek(1), self.peek(2)) {
            ('\'', ..) => {
                self.i += 1;
                while let Some(q) = self.peek(0) {
                    self.i += 1;
                    if q == '\'' {
                        break;
                    }
                    word.push(q);
                }
            }
            ('"', ..) => self.double_quoted(word),
            ('\\', Some('\n'), _) => self.i += 2,
            ('\\', Some(next), _) => {
                word.push(next);
                self.i += 2;
            }
            ('$', Some('\''), _) => {
                self.i += 2;
                while let Some(q) = self.peek(0) {
                    self.i += 1;
                    match q {
                        '\'' => break,
                        '\\' => word.extend(self.peek(0).inspect(|_| self.i += 1)),
                        _ => word.push(q),
                    }
                }
            }
            ('$', Some('('), Some('(')) => {
                let start = self.i;
                self.i += 1;
                self.skip_arithmetic(2);
                word.extend(&self.c[start..self.i]);
            }
            ('$' | '<' | '>', Some('('), _) | ('`', ..) => self.substitution(word),
            _ => {
                word.push(ch);
                self.i += 1;
            }
        }
    }

    /// A double-quoted string at the cursor into `word`: a backslash escapes `$`, `` ` ``,
    /// `"`, `\` and a line break; substitutions inside are read as commands.
    fn double_quoted(&mut self, word: &mut String) {
        self.i += 1;
        while let Some(q) = self.peek(0) {
            match (q, self.peek(1)) {
                ('"', _) => {
                    self.i += 1;
                    return;
                }
                ('\\', Some('\n')) => self.i += 2,
                ('\\', Some(e @ ('$' | '`' | '"' | '\\'))) => {
                    word.push(e);
                    self.i += 2;
                }
                ('$', Some('(')) | ('`', _) => self.word_part(word),
                _ => {
                    word.push(q);
                    self.i += 1;
                }
            }
        }
    }

    /// `$(…)`, `<(…)`, `>(…)` or `` `…` `` at the cursor: its commands are read into `out`,
    /// and its text, as written, joins `word`.
    fn substitution(&mut self, word: &mut String) {
        let start = self.i;
        if self.depth >= MAX_DEPTH {
            word.push(self.c[self.i]);
            self.i += 1;
            return;
        }
        let stop = if self.c[self.i] == '`' {
            self.i += 1;
            Stop::Backtick
        } else {
            self.i += 2;
            Stop::Paren
        };
        self.depth += 1;
        self.run(stop);
        self.depth -= 1;
        let end = self.i.min(self.c.len());
        word.extend(&self.c[start..end]);
    }

    /// Moves past arithmetic whose `open` parentheses start at the cursor, to the one that
    /// closes them.
    fn skip_arithmetic(&mut self, open: usize) {
        self.i += open;
        let mut depth = open;
        while let Some(ch) = self.peek(0) {
            self.i += 1;
            match ch {
                '(' => depth += 1,
                ')' if depth <= 1 => return,
                ')' => depth -= 1,
                _ => {}
            }
        }
    }

    /// Ends the word being read: a word of the command, or what an operator before it
    /// takes (a redirection's file, a heredoc's delimiter).
    fn flush(&mut self, cur: &mut Cur) {
        if !cur.in_word {
            return;
        }
        let word = std::mem::take(&mut cur.word);
        cur.in_word = false;
        match std::mem::replace(&mut cur.next, Next::Word) {
            Next::Word => cur.cmd.words.push(word),
            Next::Target(op) => cur.cmd.redirects.push(Redirect { op, target: word }),
            Next::Delimiter(strip) => self.heredocs.push((word, strip)),
            Next::Text => {}
        }
    }

    /// Ends the command being read.
    fn end(&mut self, cur: &mut Cur) {
        self.flush(cur);
        cur.next = Next::Word;
        let cmd = std::mem::take(&mut cur.cmd);
        if !cmd.words.is_empty() || !cmd.redirects.is_empty() {
            self.out.push(cmd);
        }
    }

    /// Moves past the bodies of the heredocs started on the line just ended: each up to
    /// the line that is its delimiter (after leading tabs, for `<<-`).
    fn heredoc_bodies(&mut self) {
        for (delim, strip) in std::mem::take(&mut self.heredocs) {
            while self.i < self.c.len() {
                let end = self.line_end();
                let line: String = self.c[self.i..end].iter().collect();
                self.i = end + 1;
                let line = line.strip_suffix('\r').unwrap_or(&line);
                if (if strip {
                    line.trim_start_matches('\t')
                } else {
                    line
                }) == delim
                {
                    break;
                }
            }
        }
    }
}

/// Whether the command is a `[[ … ]]` test still open: its `<` and `>` compare strings.
fn in_test(cmd: &Command) -> bool {
    cmd.words.first().is_some_and(|w| w == "[[") && !cmd.words.iter().any(|w| w == "]]")
}
