//! Reading a hook's event from stdin. A tool's response rides along in PostToolUse and can
//! be megabytes (a build log, a file read whole), while baton records only a few of its
//! fields (an exit code). So stdin is read to its end in chunks through a small JSON lexer
//! that keeps the event as it is but for the strings inside `tool_response`: each keeps its
//! first `STRING_KEEP` bytes. A 10 MB response costs the copy out of the pipe and one pass
//! of `memchr`, not a 10 MB buffer, its page faults and a parse of it.
//!
//! What comes out is still one JSON text (a cut string is closed where it is cut, never in
//! an escape or a character), so `event::parse` reads it as before. Malformed input is
//! passed on as it is read, for `event::parse` to reject.

use std::io::Read;

/// Bytes of each string inside `tool_response` kept.
pub const STRING_KEEP: usize = 4096;

/// The size of one read.
const CHUNK: usize = 64 * 1024;

/// Reads the whole of `input`, keeping `tool_response`'s strings short (see the module doc).
/// A read error ends the reading: what was read is returned.
pub fn read(input: &mut dyn Read) -> Vec<u8> {
    let mut lexer = Lexer::default();
    let mut buf = vec![0u8; CHUNK];
    loop {
        match input.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => lexer.feed(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(_) => break,
        }
    }
    lexer.out
}

/// The lexer's state between chunks.
#[derive(Default)]
struct Lexer {
    out: Vec<u8>,
    /// Nesting of objects and arrays outside strings.
    depth: usize,
    in_string: bool,
    /// Where in an escape the string is.
    escape: Escape,
    /// Bytes of the current string seen.
    string_len: usize,
    /// The current string is being dropped (past `STRING_KEEP` inside `tool_response`).
    dropping: bool,
    /// The string at depth 1 that ended last, when short (a key, maybe); where it started
    /// in `out`.
    last_string: Option<usize>,
    /// The value at depth 1 being read belongs to `tool_response`.
    in_response: bool,
}

/// Where in an escape a string is.
#[derive(Default, Clone, Copy, PartialEq, Eq)]
enum Escape {
    #[default]
    No,
    /// The byte after a backslash comes next.
    Letter,
    /// Hex digits of a `\uXXXX` escape still to come.
    Hex(usize),
}

impl Lexer {
    fn feed(&mut self, mut chunk: &[u8]) {
        while !chunk.is_empty() {
            let used = if self.in_string {
                self.string(chunk)
            } else {
                self.structure(chunk)
            };
            chunk = &chunk[used..];
        }
    }

    /// Consumes bytes of a string; how many.
    fn string(&mut self, chunk: &[u8]) -> usize {
        if self.dropping || !self.in_response {
            // No cut to place: the string is passed through whole, or dropped, in one pass.
            return self.through(chunk, !self.dropping);
        }
        if self.escape == Escape::Letter {
            // The byte after a backslash; a `\uXXXX` keeps its four digits with it.
            self.escape = if chunk[0] == b'u' {
                Escape::Hex(4)
            } else {
                Escape::No
            };
            self.keep(&chunk[..1]);
            self.string_len += 1;
            return 1;
        }
        if let Escape::Hex(left) = self.escape {
            let n = left.min(chunk.len());
            self.escape = if n == left {
                Escape::No
            } else {
                Escape::Hex(left - n)
            };
            self.keep(&chunk[..n]);
            self.string_len += n;
            return n;
        }
        let take = memchr::memchr2(b'"', b'\\', chunk).unwrap_or(chunk.len());
        if self.in_response && !self.dropping && self.string_len + take > STRING_KEEP {
            // Cut at the first byte from the kept length on that starts a character; when a
            // character goes on past `take`, keep it whole and cut after it.
            let room = STRING_KEEP.saturating_sub(self.string_len).min(take);
            if let Some(p) = chunk[room..take].iter().position(|b| b & 0xC0 != 0x80) {
                let cut = room + p;
                self.keep(&chunk[..cut]);
                self.string_len += cut;
                self.dropping = true;
                return cut;
            }
        }
        self.keep(&chunk[..take]);
        self.string_len += take;
        if take == chunk.len() {
            return take;
        }
        if chunk[take] == b'\\' {
            self.keep(b"\\");
            self.escape = Escape::Letter;
        } else {
            self.out.push(b'"');
            self.end_string();
        }
        take + 1
    }

    /// Consumes bytes of a string kept whole (`keep`) or dropped, up to and including its
    /// closing quote; how many. Its end is the first quote after an even run of backslashes
    /// (a `\uXXXX`'s digits are neither), so only quotes are looked for: a build log's
    /// escaped line ends cost nothing.
    fn through(&mut self, chunk: &[u8], keep: bool) -> usize {
        // The byte after an odd run of backslashes that ended the chunk before is escaped.
        let mut from = usize::from(self.escape == Escape::Letter);
        self.escape = Escape::No;
        let backslashes_before = |from: usize, at: usize| {
            chunk[from..at]
                .iter()
                .rev()
                .take_while(|&&b| b == b'\\')
                .count()
        };
        let ended = loop {
            let Some(p) = chunk
                .get(from..)
                .and_then(|rest| memchr::memchr(b'"', rest))
            else {
                if backslashes_before(from.min(chunk.len()), chunk.len()) % 2 == 1 {
                    self.escape = Escape::Letter;
                }
                break None;
            };
            let at = from + p;
            if backslashes_before(from, at) % 2 == 0 {
                break Some(at);
            }
            from = at + 1;
        };
        let used = ended.map_or(chunk.len(), |at| at + 1);
        if keep {
            self.out.extend_from_slice(&chunk[..used]);
        } else if ended.is_some() {
            self.out.push(b'"');
        }
        if ended.is_some() {
            self.end_string();
        }
        used
    }

    /// Copies `bytes` of a string unless it is being dropped.
    fn keep(&mut self, bytes: &[u8]) {
        if !self.dropping {
            self.out.extend_from_slice(bytes);
        }
    }

    fn end_string(&mut self) {
        self.in_string = false;
        self.dropping = false;
        self.escape = Escape::No;
    }

    /// Consumes bytes outside strings, up to and including a string's opening quote; how many.
    fn structure(&mut self, chunk: &[u8]) -> usize {
        for (i, &b) in chunk.iter().enumerate() {
            match b {
                b'"' => {
                    if self.depth == 1 {
                        self.last_string = Some(self.out.len());
                    }
                    self.out.push(b);
                    self.in_string = true;
                    self.string_len = 0;
                    return i + 1;
                }
                b':' if self.depth == 1 => {
                    let key = self.last_string.map(|at| self.out[at..].trim_ascii_end());
                    self.in_response = key == Some(b"\"tool_response\"");
                }
                b',' if self.depth == 1 => self.in_response = false,
                b'{' | b'[' => self.depth += 1,
                b'}' | b']' => self.depth = self.depth.saturating_sub(1),
                _ => {}
            }
            if !b.is_ascii_whitespace() && b != b':' && self.depth == 1 {
                self.last_string = None;
            }
            self.out.push(b);
        }
        chunk.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    /// Reads `text` through the lexer in chunks of `step` bytes.
    fn through(text: &str, step: usize) -> Vec<u8> {
        let mut l = Lexer::default();
        for c in text.as_bytes().chunks(step) {
            l.feed(c);
        }
        l.out
    }

    #[test]
    fn an_event_reads_the_same_but_for_long_strings_in_the_tool_response() {
        let long = format!("{}é\\\"end\u{1F600}x", "ab\n\u{0007}ü".repeat(1500));
        let event = json!({
            "session_id": "s", "hook_event_name": "PostToolUse",
            "tool_input": {"command": long.clone()},
            "tool_response": {"stdout": long.clone(), "exit_code": 3, "lines": [long.clone(), "x"]},
            "tool_use_id": "toolu_1", "duration_ms": 7,
        });
        let text = serde_json::to_string(&event).unwrap();
        for step in [1, 2, 3, 7, 64, 1000, 1 << 20] {
            let out = through(&text, step);
            let v: Value = serde_json::from_slice(&out)
                .unwrap_or_else(|e| panic!("step {step}: {e}: {}", String::from_utf8_lossy(&out)));
            assert_eq!(v["tool_input"]["command"], long, "step {step}");
            assert_eq!(v["tool_use_id"], "toolu_1");
            assert_eq!(v["duration_ms"], 7);
            assert_eq!(v["tool_response"]["exit_code"], 3);
            let stdout = v["tool_response"]["stdout"].as_str().unwrap();
            // Its first STRING_KEEP bytes as written (escapes count as written).
            assert!(
                stdout.len() <= STRING_KEEP && stdout.len() > STRING_KEEP / 2,
                "{}",
                stdout.len()
            );
            assert!(long.starts_with(stdout));
            assert_eq!(v["tool_response"]["lines"][1], "x");
        }
        // A small event passes through byte for byte.
        let small = r#"{"a":"x\"y","tool_response":{"b":[1,{"c":"d"}]},"e":{"f":"g"}}"#;
        assert_eq!(through(small, 3), small.as_bytes());
        // Malformed input is passed on as read.
        assert_eq!(through("{\"a\":", 2), b"{\"a\":");
    }

    /// A 10 MB response (a build log with escapes on every line) comes out small; the event
    /// reads the same but for the response's long strings.
    #[test]
    fn a_ten_megabyte_response_is_kept_short() {
        let log = "error: \"x\" failed\tat line 12 \u{e9}\n".repeat(300_000);
        let event = json!({
            "session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "make"},
            "tool_response": {"stdout": log, "stderr": log, "exit_code": 2, "interrupted": false},
            "tool_use_id": "toolu_9", "duration_ms": 70,
        });
        let text = serde_json::to_vec(&event).unwrap();
        assert!(text.len() > 10_000_000);
        let out = read(&mut text.as_slice());
        assert!(out.len() < 3 * STRING_KEEP, "{}", out.len());
        let v: Value = serde_json::from_slice(&out).unwrap();
        for key in [
            "session_id",
            "hook_event_name",
            "tool_name",
            "tool_input",
            "tool_use_id",
        ] {
            assert_eq!(v[key], event[key], "{key}");
        }
        assert_eq!(v["duration_ms"], 70);
        assert_eq!(v["tool_response"]["exit_code"], 2);
        assert_eq!(v["tool_response"]["interrupted"], false);
    }

    /// Every prefix of an event (stdin closed early) is unreadable read this way exactly when
    /// it is unreadable read whole; hostile texts (the key elsewhere, the response a string,
    /// an escaped key, an array, trailing text) read the same but for the cut strings.
    #[test]
    fn a_truncated_or_hostile_event_parses_as_it_did() {
        use crate::core::event::parse;
        let long = "y\"\u{1F600}".repeat(4000);
        let event = json!({
            "session_id": "s", "hook_event_name": "PostToolUse", "tool_name": "Bash",
            "tool_input": {"command": "ls", "tool_response": long.clone()},
            "tool_response": {"stdout": long.clone(), "exit_code": 1},
            "tool_use_id": "toolu_1",
        });
        let text = serde_json::to_vec(&event).unwrap();
        for end in (0..text.len())
            .step_by(97)
            .chain([text.len() - 1, text.len()])
        {
            let cut = &text[..end];
            let whole = parse(cut, None);
            let read_in = parse(&read(&mut &cut[..]), None);
            assert_eq!(whole.is_ok(), read_in.is_ok(), "prefix of {end} bytes");
        }
        let s = serde_json::to_string(&long).unwrap();
        let hostile = [
            format!(r#"{{"tool_response":{s},"tool_input":{{"tool_response":{s}}}}}"#),
            format!(r#"{{"a":"tool_response","b":["tool_response",{{"tool_response":{s}}}]}}"#),
            format!(r#"{{"tool\u005fresponse":{s},"x":1}}"#),
            format!(r#"[{{"tool_response":{s}}}]"#),
            format!(r#"{{"tool_response" : {s} , "k":"v"}}"#),
            format!(r#"{{"tool_response":{{"a":{s}}}}}}}{{"tool_response":"x"#),
            format!(r#"{{"tool_response":{{"a":{s}}}"#),
        ];
        for (i, h) in hostile.iter().enumerate() {
            let out = read(&mut h.as_bytes());
            let whole = serde_json::from_str::<Value>(h);
            let read_in = serde_json::from_slice::<Value>(&out);
            assert_eq!(whole.is_ok(), read_in.is_ok(), "case {i}");
            let (Ok(whole), Ok(read_in)) = (whole, read_in) else {
                continue;
            };
            if i == 0 || i == 4 {
                assert_eq!(whole["tool_input"], read_in["tool_input"], "case {i}");
                let kept = read_in["tool_response"].as_str().unwrap();
                assert!(long.starts_with(kept), "case {i}: {}", kept.len());
                // A character that goes on past the cut is kept whole.
                assert!(kept.len() <= STRING_KEEP + 3, "case {i}: {}", kept.len());
            } else {
                assert_eq!(whole, read_in, "case {i}");
            }
        }
    }

    /// Random events (strings with escapes and characters of every width, nested values in
    /// the response) read in random chunks come out as JSON that holds the same everywhere but
    /// in the response's strings, which are prefixes; random bytes never panic.
    #[test]
    fn random_events_and_bytes() {
        use crate::core::clock::Xorshift as Rng;
        let mut rng = Rng::new(0x00E7_E0D5);
        let alphabet = [
            "a",
            "\n",
            "\"",
            "\\",
            "é",
            "\u{1F600}",
            "\u{0001}",
            "/",
            " ",
        ];
        let word = |rng: &mut Rng| -> String {
            (0..rng.below(3000))
                .map(|_| alphabet[rng.below(alphabet.len())])
                .collect()
        };
        for round in 0..200 {
            let resp = json!({"stdout": word(&mut rng), "n": rng.below(9), "deep": [{"x": word(&mut rng)}]});
            let event =
                json!({"cwd": word(&mut rng), "tool_response": resp, "after": word(&mut rng)});
            let text = serde_json::to_string(&event).unwrap();
            // Tiny chunks every other round: escapes and backslash runs across their ends.
            let step = if round % 2 == 0 {
                1 + rng.below(8)
            } else {
                1 + rng.below(5000)
            };
            let out = through(&text, step);
            let v: Value = serde_json::from_slice(&out).unwrap();
            assert_eq!((&v["cwd"], &v["after"]), (&event["cwd"], &event["after"]));
            assert_eq!(v["tool_response"]["n"], event["tool_response"]["n"]);
            let kept = v["tool_response"]["stdout"].as_str().unwrap();
            assert!(event["tool_response"]["stdout"]
                .as_str()
                .unwrap()
                .starts_with(kept));
        }
        for _ in 0..200 {
            let pool = b"{}[]\":,\\u ab\xC3\xA9";
            let bytes: Vec<u8> = (0..rng.below(500))
                .map(|_| pool[rng.below(pool.len())])
                .collect();
            let mut l = Lexer::default();
            for c in bytes.chunks(1 + rng.below(7)) {
                l.feed(c);
            }
        }
    }
}
