//! A local stand-in of the Anthropic Messages API, std only.
//!
//! It binds 127.0.0.1 on a free port, answers each connection on its own thread with one
//! HTTP/1.1 response (`Connection: close`), and records every request body it receives.
//!
//! The script (what "the model" says) is a list of turns, decided from the request alone:
//! * a main-loop request (non-empty `tools`) with N assistant turns already in `messages` gets
//!   turn N of the script (a `tool_use` block, stop reason `tool_use`, or a text, `end_turn`);
//!   past the end of the script, the text [`FINAL_TEXT`];
//! * the default script is one `Bash` call running [`TOOL_COMMAND`], then [`FINAL_TEXT`];
//! * a subagent's requests (their first message holds the marker given to
//!   [`MockApi::with_subagent`], as the Agent call's prompt does) follow the subagent's own
//!   script, counted the same way;
//! * side requests (no `tools`: titles, summaries, …) get a short text, `end_turn`;
//! * a conversation script ([`MockApi::conversation`]) instead answers by the user's prompt:
//!   the main-loop request whose last prompt holds a scripted prompt gets that prompt's turns,
//!   counted by the assistant messages since it (so several user turns, a compaction or a
//!   resumed conversation follow the script); [`Turn::Hang`] holds the answer back (the
//!   session can be killed in the middle of a turn); a compaction request (Claude Code's
//!   "create a detailed summary" prompt) gets [`COMPACT_SUMMARY`].
//!
//! Streaming requests are answered with server-sent events (`message_start`,
//! `content_block_start`/`content_block_delta`/`content_block_stop`, `message_delta`,
//! `message_stop`); non-streaming ones with a plain JSON message object.

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// The command the scripted tool call runs.
pub(crate) const TOOL_COMMAND: &str = "echo hi-from-e2e";
/// What the scripted model says at the end of the main loop.
pub(crate) const FINAL_TEXT: &str = "All done. E2E-FINAL";
/// What side requests (no tools) get.
const SIDE_TEXT: &str = "E2E side reply";
/// What a compaction request gets in a conversation script: a summary that keeps nothing, so
/// what the next turn knows is what baton gave back.
pub(crate) const COMPACT_SUMMARY: &str =
    "<summary>The conversation so far was summarised; details are not kept here.</summary>";
/// How Claude Code's compaction request starts its instructions (2.1.197).
const COMPACT_MARK: &str = "create a detailed summary of the conversation";

/// One request the stand-in received.
#[derive(Debug, Clone)]
pub(crate) struct Recorded {
    pub(crate) method: String,
    pub(crate) path: String,
    /// The body as received (UTF-8, lossy).
    pub(crate) body: String,
}

impl Recorded {
    /// The body as JSON (`Null` when it is not JSON).
    pub(crate) fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }

    /// A request of the main loop (it offers tools), not a side request (titles, summaries).
    pub(crate) fn is_main_loop(&self) -> bool {
        offers_tools(&self.json())
    }
}

/// The stand-in server; it stops accepting when dropped.
pub(crate) struct MockApi {
    addr: SocketAddr,
    requests: Arc<Mutex<Vec<Recorded>>>,
    shutdown: Arc<AtomicBool>,
    /// Answers held back by [`Turn::Hang`] so far.
    hangs: Arc<AtomicU64>,
}

impl MockApi {
    /// Binds 127.0.0.1:0 and starts the accept loop on a thread that is never joined; it stops
    /// when the value is dropped.
    pub(crate) fn start() -> MockApi {
        MockApi::with_script(default_script())
    }

    /// Like `start`, with the main loop's turns scripted by `turns`.
    pub(crate) fn with_script(turns: Vec<Turn>) -> MockApi {
        MockApi::serve(Script {
            main: turns,
            subagent: None,
            by_prompt: None,
            hangs: Arc::default(),
        })
    }

    /// A conversation script: each user prompt that holds one of `turns`' prompts gets those
    /// turns (module doc).
    pub(crate) fn conversation(turns: Vec<(String, Vec<Turn>)>) -> MockApi {
        MockApi::serve(Script {
            main: Vec::new(),
            subagent: None,
            by_prompt: Some(turns),
            hangs: Arc::default(),
        })
    }

    /// Like `with_script`, and a subagent whose prompt holds `marker` follows `subagent`.
    pub(crate) fn with_subagent(turns: Vec<Turn>, marker: &str, subagent: Vec<Turn>) -> MockApi {
        MockApi::serve(Script {
            main: turns,
            subagent: Some((marker.to_string(), subagent)),
            by_prompt: None,
            hangs: Arc::default(),
        })
    }

    fn serve(script: Script) -> MockApi {
        let hangs = Arc::clone(&script.hangs);
        let turns = Arc::new(script);
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local_addr");
        let requests = Arc::new(Mutex::new(Vec::new()));
        let shutdown = Arc::new(AtomicBool::new(false));
        let counter = Arc::new(AtomicU64::new(0));
        {
            let requests = Arc::clone(&requests);
            let shutdown = Arc::clone(&shutdown);
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if shutdown.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let requests = Arc::clone(&requests);
                    let counter = Arc::clone(&counter);
                    let turns = Arc::clone(&turns);
                    thread::spawn(move || {
                        if let Err(e) = serve(&stream, &requests, &counter, &turns) {
                            eprintln!("mock API: connection error: {e}");
                        }
                    });
                }
            });
        }
        MockApi {
            addr,
            requests,
            shutdown,
            hangs,
        }
    }

    /// How many answers the script has held back ([`Turn::Hang`]) so far.
    pub(crate) fn hangs(&self) -> u64 {
        self.hangs.load(Ordering::SeqCst)
    }

    pub(crate) fn base_url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Every request received so far, in arrival order.
    pub(crate) fn requests(&self) -> Vec<Recorded> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }
}

/// Whether a Messages request offers tools (the main loop does; side requests do not).
fn offers_tools(request: &Value) -> bool {
    request
        .get("tools")
        .and_then(Value::as_array)
        .is_some_and(|t| !t.is_empty())
}

/// The main-loop requests, in arrival order.
pub(crate) fn main_requests(requests: &[Recorded]) -> Vec<&Recorded> {
    requests.iter().filter(|r| r.is_main_loop()).collect()
}

impl Drop for MockApi {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        // Wake the blocking accept() so the loop sees the flag and ends.
        let _ = TcpStream::connect_timeout(&self.addr, Duration::from_secs(1));
    }
}

/// One HTTP request as read from the socket.
struct Request {
    method: String,
    path: String,
    body: String,
}

fn serve(
    stream: &TcpStream,
    requests: &Mutex<Vec<Recorded>>,
    counter: &AtomicU64,
    turns: &Script,
) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    stream.set_write_timeout(Some(Duration::from_secs(30)))?;
    let Some(request) = read_request(&mut BufReader::new(stream))? else {
        return Ok(()); // a bare connect (e.g. the shutdown wake-up)
    };
    if let Ok(mut r) = requests.lock() {
        r.push(Recorded {
            method: request.method.clone(),
            path: request.path.clone(),
            body: request.body.clone(),
        });
    }
    let n = counter.fetch_add(1, Ordering::SeqCst) + 1;
    let (status, content_type, payload) = respond(&request, n, turns);

    let mut out = stream;
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n\
         Cache-Control: no-cache\r\nrequest-id: req_e2e_{n:04}\r\nConnection: close\r\n\r\n",
        payload.len()
    );
    out.write_all(head.as_bytes())?;
    if request.method != "HEAD" {
        out.write_all(payload.as_bytes())?;
    }
    out.flush()?;
    let _ = stream.shutdown(Shutdown::Write);
    Ok(())
}

/// Reads the request line, the headers and a `Content-Length` or chunked body. `None` when the
/// peer closed without sending anything.
fn read_request(reader: &mut impl BufRead) -> std::io::Result<Option<Request>> {
    let mut request_line = String::new();
    if reader.read_line(&mut request_line)? == 0 {
        return Ok(None);
    }
    let mut parts = request_line.split_whitespace();
    let method = parts.next().unwrap_or_default().to_string();
    let path = parts.next().unwrap_or_default().to_string();

    let mut content_length: Option<usize> = None;
    let mut chunked = false;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line)? == 0 {
            break;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            let (name, value) = (name.trim().to_ascii_lowercase(), value.trim());
            if name == "content-length" {
                content_length = value.parse().ok();
            } else if name == "transfer-encoding" && value.to_ascii_lowercase().contains("chunked")
            {
                chunked = true;
            }
        }
    }

    let mut body = Vec::new();
    if chunked {
        read_chunked(reader, &mut body)?;
    } else if let Some(n) = content_length {
        body.resize(n, 0);
        reader.read_exact(&mut body)?;
    }
    Ok(Some(Request {
        method,
        path,
        body: String::from_utf8_lossy(&body).into_owned(),
    }))
}

/// Status line, content type and body for a request; `n` numbers the response.
fn respond(request: &Request, n: u64, turns: &Script) -> (&'static str, &'static str, String) {
    let route = request.path.split('?').next().unwrap_or_default();
    match (request.method.as_str(), route) {
        ("POST", "/v1/messages/count_tokens") => (
            "200 OK",
            "application/json",
            json!({"input_tokens": 10}).to_string(),
        ),
        ("POST", "/v1/messages") => {
            let body: Value = serde_json::from_str(&request.body).unwrap_or(Value::Null);
            let reply = script(&body, turns);
            let model = body
                .get("model")
                .and_then(Value::as_str)
                .unwrap_or("claude-e2e-mock");
            let id = format!("msg_e2e_{n:04}");
            if body.get("stream").and_then(Value::as_bool) == Some(true) {
                ("200 OK", "text/event-stream", sse_body(&id, model, &reply))
            } else {
                (
                    "200 OK",
                    "application/json",
                    json_message(&id, model, &reply).to_string(),
                )
            }
        }
        (method, path) => (
            "404 Not Found",
            "application/json",
            json!({
                "type": "error",
                "error": {
                    "type": "not_found_error",
                    "message": format!("mock API: no route for {method} {path}")
                }
            })
            .to_string(),
        ),
    }
}

fn read_chunked(reader: &mut impl BufRead, body: &mut Vec<u8>) -> std::io::Result<()> {
    loop {
        let mut size_line = String::new();
        if reader.read_line(&mut size_line)? == 0 {
            return Ok(());
        }
        let size_hex = size_line.trim().split(';').next().unwrap_or("0");
        let size = usize::from_str_radix(size_hex, 16).unwrap_or(0);
        if size == 0 {
            // Trailers, up to the empty line.
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line)? == 0 || line.trim().is_empty() {
                    return Ok(());
                }
            }
        }
        let start = body.len();
        body.resize(start + size, 0);
        reader.read_exact(&mut body[start..])?;
        let mut crlf = String::new();
        reader.read_line(&mut crlf)?;
    }
}

/// One turn of the scripted model in the main loop.
#[derive(Debug, Clone)]
pub(crate) enum Turn {
    /// Call a tool with this input.
    Tool { name: String, input: Value },
    /// Answer with this text and end the turn.
    Text(String),
    /// Answer nothing for minutes: the session waits in the middle of its turn.
    Hang,
}

impl Turn {
    /// A call of tool `name` with `input`.
    pub(crate) fn tool(name: &str, input: Value) -> Turn {
        Turn::Tool {
            name: name.into(),
            input,
        }
    }

    /// A Bash tool call.
    pub(crate) fn bash(command: &str) -> Turn {
        Turn::Tool {
            name: "Bash".into(),
            input: json!({"command": command, "description": "scripted by the e2e test"}),
        }
    }
}

/// What the scripted model says: the main loop's turns, and a subagent's (with the marker
/// its prompt holds).
struct Script {
    main: Vec<Turn>,
    subagent: Option<(String, Vec<Turn>)>,
    /// A conversation script: (prompt, its turns).
    by_prompt: Option<Vec<(String, Vec<Turn>)>>,
    /// Counts the answers held back.
    hangs: Arc<AtomicU64>,
}

impl Script {
    /// The turns for a request, and the prefix of its tool-call ids: the subagent's when its
    /// first message holds the marker (its ids differ from the main loop's, as real ones do).
    fn turns_for(&self, request: &Value) -> (&[Turn], &'static str) {
        let first = request
            .get("messages")
            .and_then(Value::as_array)
            .and_then(|m| m.first())
            .map(|m| m.get("content").map(Value::to_string).unwrap_or_default())
            .unwrap_or_default();
        match &self.subagent {
            Some((marker, turns)) if first.contains(marker.as_str()) => (turns, "toolu_e2e_sub_"),
            _ => (&self.main, "toolu_e2e_"),
        }
    }
}

/// The default script: one Bash call, then the final text.
fn default_script() -> Vec<Turn> {
    vec![Turn::bash(TOOL_COMMAND), Turn::Text(FINAL_TEXT.into())]
}

/// What the scripted model answers.
enum Reply {
    ToolUse {
        id: String,
        name: String,
        input: Value,
    },
    Text(String),
}

impl Reply {
    fn stop_reason(&self) -> &'static str {
        match self {
            Reply::ToolUse { .. } => "tool_use",
            Reply::Text(_) => "end_turn",
        }
    }
}

/// The reply to a request: side requests (no tools) get a short text; the main loop's N-th
/// request (N = assistant turns so far) gets the N-th turn of the script, and the final text
/// once the script is used up.
fn script(request: &Value, script: &Script) -> Reply {
    if !offers_tools(request) {
        return Reply::Text(SIDE_TEXT.into());
    }
    if let Some(by_prompt) = &script.by_prompt {
        return by_prompt_reply(request, by_prompt, &script.hangs);
    }
    let (turns, id_prefix) = script.turns_for(request);
    let assistant_turns = request
        .get("messages")
        .and_then(Value::as_array)
        .map_or(0, |m| {
            m.iter()
                .filter(|msg| msg.get("role").and_then(Value::as_str) == Some("assistant"))
                .count()
        });
    reply_for(
        turns.get(assistant_turns),
        &format!("{id_prefix}{:04}", assistant_turns + 1),
        &script.hangs,
    )
}

/// The reply a scripted turn gives (the final text past the end of the script).
fn reply_for(turn: Option<&Turn>, id: &str, hangs: &AtomicU64) -> Reply {
    match turn {
        Some(Turn::Tool { name, input }) => Reply::ToolUse {
            id: id.to_string(),
            name: name.clone(),
            input: input.clone(),
        },
        Some(Turn::Text(t)) => Reply::Text(t.clone()),
        Some(Turn::Hang) => {
            hangs.fetch_add(1, Ordering::SeqCst);
            thread::sleep(Duration::from_secs(600));
            Reply::Text(FINAL_TEXT.into())
        }
        None => Reply::Text(FINAL_TEXT.into()),
    }
}

/// The texts of a message's content (a string, or its `text` blocks).
fn message_text(msg: &Value) -> String {
    match msg.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The texts of a user message that the user typed: not Claude Code's reminders, hook
/// context, command markup or compaction summary.
fn typed_texts(msg: &Value) -> Vec<String> {
    let texts: Vec<String> = match msg.get("content") {
        Some(Value::String(s)) => vec![s.clone()],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("text"))
            .filter_map(|b| b.get("text").and_then(Value::as_str).map(str::to_string))
            .collect(),
        _ => Vec::new(),
    };
    texts
        .into_iter()
        .filter(|t| {
            let t = t.trim_start();
            !(t.starts_with("<system-reminder>")
                || t.starts_with("<local-command")
                || t.starts_with("<command-")
                || t.starts_with("Caveat:")
                || t.contains("hook additional context")
                || t.starts_with("This session is being continued"))
        })
        .collect()
}

/// A conversation script's reply: the turns of the newest user message that holds a scripted
/// prompt, counted by the assistant messages after it; a compaction gets its summary; a
/// prompt nobody scripted gets the final text.
fn by_prompt_reply(request: &Value, by_prompt: &[(String, Vec<Turn>)], hangs: &AtomicU64) -> Reply {
    let messages: &[Value] = request
        .get("messages")
        .and_then(Value::as_array)
        .map_or(&[], Vec::as_slice);
    if messages
        .last()
        .is_some_and(|m| message_text(m).contains(COMPACT_MARK))
    {
        return Reply::Text(COMPACT_SUMMARY.into());
    }
    for (i, msg) in messages.iter().enumerate().rev() {
        if msg.get("role").and_then(Value::as_str) != Some("user") {
            continue;
        }
        // The newest typed text of the message: Claude Code adds what hooks said (a
        // session start's context quotes earlier prompts) and its own notes as other blocks.
        let Some((n, (_, turns))) = typed_texts(msg).iter().rev().find_map(|text| {
            by_prompt
                .iter()
                .enumerate()
                .find(|(_, (prompt, _))| text.contains(prompt.as_str()))
        }) else {
            continue;
        };
        let done = messages[i..]
            .iter()
            .filter(|m| m.get("role").and_then(Value::as_str) == Some("assistant"))
            .count();
        return reply_for(
            turns.get(done),
            &format!("toolu_e2e_p{n:02}_{:04}", done + 1),
            hangs,
        );
    }
    Reply::Text(FINAL_TEXT.into())
}

fn usage() -> Value {
    json!({
        "input_tokens": 10,
        "output_tokens": 5,
        "cache_creation_input_tokens": 0,
        "cache_read_input_tokens": 0
    })
}

fn json_message(id: &str, model: &str, reply: &Reply) -> Value {
    let content = match reply {
        Reply::ToolUse { id, name, input } => {
            json!([{"type": "tool_use", "id": id, "name": name, "input": input}])
        }
        Reply::Text(text) => json!([{"type": "text", "text": text}]),
    };
    json!({
        "id": id,
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": content,
        "stop_reason": reply.stop_reason(),
        "stop_sequence": null,
        "usage": usage()
    })
}

fn sse_body(id: &str, model: &str, reply: &Reply) -> String {
    let mut events: Vec<(&str, Value)> = vec![(
        "message_start",
        json!({
            "type": "message_start",
            "message": {
                "id": id,
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": null,
                "stop_sequence": null,
                "usage": {"input_tokens": 10, "output_tokens": 1,
                          "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}
            }
        }),
    )];
    match reply {
        Reply::ToolUse { id, name, input } => {
            events.push((
                "content_block_start",
                json!({"type": "content_block_start", "index": 0,
                       "content_block": {"type": "tool_use", "id": id, "name": name, "input": {}}}),
            ));
            events.push((
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "input_json_delta", "partial_json": input.to_string()}}),
            ));
        }
        Reply::Text(text) => {
            events.push((
                "content_block_start",
                json!({"type": "content_block_start", "index": 0,
                       "content_block": {"type": "text", "text": ""}}),
            ));
            events.push((
                "content_block_delta",
                json!({"type": "content_block_delta", "index": 0,
                       "delta": {"type": "text_delta", "text": text}}),
            ));
        }
    }
    events.push((
        "content_block_stop",
        json!({"type": "content_block_stop", "index": 0}),
    ));
    events.push((
        "message_delta",
        json!({"type": "message_delta",
               "delta": {"stop_reason": reply.stop_reason(), "stop_sequence": null},
               "usage": {"output_tokens": 5}}),
    ));
    events.push(("message_stop", json!({"type": "message_stop"})));

    let mut out = String::new();
    for (name, data) in events {
        out.push_str("event: ");
        out.push_str(name);
        out.push_str("\ndata: ");
        out.push_str(&data.to_string());
        out.push_str("\n\n");
    }
    out
}
