//! A local stand-in for the places a marketplace install reaches over the network, std only,
//! on 127.0.0.1: the release download (fixed files, with a delay or a cut-off on request) and,
//! for the end-to-end tests, a git repository served over HTTP the way GitHub serves a
//! marketplace (`git http-backend`, the smart protocol Claude Code's shallow clone needs).
//! Each connection gets one response (`Connection: close`); every request is recorded.
#![allow(dead_code)] // the integration and e2e binaries each use a part of it

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::Duration;

/// How a file is served.
#[derive(Debug, Clone, Default)]
pub(crate) struct Behaviour {
    /// Wait this long before answering.
    pub(crate) delay: Duration,
    /// Send only this many bytes of the body (the header still announces the whole length),
    /// then close: a download cut off half way.
    pub(crate) cut_after: Option<usize>,
}

#[derive(Default)]
struct State {
    files: HashMap<String, (Vec<u8>, Behaviour)>,
    /// `(url prefix, project root)`: requests under the prefix go to `git http-backend`.
    git: Option<(String, PathBuf)>,
    requests: Vec<String>,
}

/// The stand-in; it stops accepting when dropped.
pub(crate) struct StandIn {
    addr: SocketAddr,
    state: Arc<Mutex<State>>,
    shutdown: Arc<AtomicBool>,
}

impl StandIn {
    /// Binds 127.0.0.1:0 and serves until dropped.
    pub(crate) fn start() -> StandIn {
        let listener = TcpListener::bind(("127.0.0.1", 0)).expect("bind 127.0.0.1:0");
        let addr = listener.local_addr().expect("local_addr");
        let state = Arc::new(Mutex::new(State::default()));
        let shutdown = Arc::new(AtomicBool::new(false));
        {
            let state = Arc::clone(&state);
            let shutdown = Arc::clone(&shutdown);
            thread::spawn(move || {
                for stream in listener.incoming() {
                    if shutdown.load(Ordering::SeqCst) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let state = Arc::clone(&state);
                    thread::spawn(move || {
                        let _ = serve(stream, &state);
                    });
                }
            });
        }
        StandIn {
            addr,
            state,
            shutdown,
        }
    }

    /// `http://127.0.0.1:<port>`.
    pub(crate) fn url(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// Serves `body` at `path` (which starts with `/`).
    pub(crate) fn file(&self, path: &str, body: Vec<u8>, behaviour: Behaviour) {
        self.state
            .lock()
            .unwrap()
            .files
            .insert(path.to_string(), (body, behaviour));
    }

    /// Serves the git repositories under `root` at `<url>/git/<name>` (smart HTTP).
    pub(crate) fn git(&self, root: PathBuf) {
        self.state.lock().unwrap().git = Some(("/git".into(), root));
    }

    /// The request lines seen so far (`GET /path`).
    pub(crate) fn requests(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.clone()
    }
}

impl Drop for StandIn {
    fn drop(&mut self) {
        self.shutdown.store(true, Ordering::SeqCst);
        // Wake the accept loop so it sees the flag.
        let _ = TcpStream::connect(self.addr);
    }
}

fn serve(stream: TcpStream, state: &Mutex<State>) -> std::io::Result<()> {
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut line = String::new();
    reader.read_line(&mut line)?;
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h.trim().is_empty() {
            break;
        }
        if let Some((k, v)) = h.trim_end().split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let body = if header("transfer-encoding").eq_ignore_ascii_case("chunked") {
        read_chunked(&mut reader)?
    } else {
        let mut body = vec![0; header("content-length").parse().unwrap_or(0)];
        reader.read_exact(&mut body)?;
        body
    };
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    state
        .lock()
        .unwrap()
        .requests
        .push(format!("{method} {path}"));

    let mut out = stream;
    let git = state.lock().unwrap().git.clone();
    if let Some((prefix, root)) = git.filter(|(p, _)| path.starts_with(p.as_str())) {
        let cgi = GitRequest {
            method: &method,
            path: &path[prefix.len()..],
            query,
            content_type: header("content-type"),
            protocol: header("git-protocol"),
            encoding: header("content-encoding"),
            body: &body,
        };
        let response = git_http_backend(&root, &cgi);
        out.write_all(&response)?;
        return out.shutdown(Shutdown::Both);
    }
    let file = state.lock().unwrap().files.get(path).cloned();
    match file {
        Some((bytes, behaviour)) => {
            thread::sleep(behaviour.delay);
            let head = format!(
                "HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                bytes.len()
            );
            out.write_all(head.as_bytes())?;
            let n = behaviour.cut_after.unwrap_or(bytes.len()).min(bytes.len());
            out.write_all(&bytes[..n])?;
        }
        None => {
            out.write_all(
                b"HTTP/1.1 404 Not Found\r\ncontent-length: 10\r\nconnection: close\r\n\r\nnot found\n",
            )?;
        }
    }
    out.flush()?;
    out.shutdown(Shutdown::Both)
}

struct GitRequest<'a> {
    method: &'a str,
    path: &'a str,
    query: &'a str,
    content_type: String,
    protocol: String,
    encoding: String,
    body: &'a [u8],
}

/// A chunked request body (git sends large POSTs so).
fn read_chunked(reader: &mut impl BufRead) -> std::io::Result<Vec<u8>> {
    let mut body = Vec::new();
    loop {
        let mut size = String::new();
        reader.read_line(&mut size)?;
        let n =
            usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16).unwrap_or(0);
        let mut chunk = vec![0; n + 2];
        reader.read_exact(&mut chunk)?;
        if n == 0 {
            return Ok(body);
        }
        body.extend_from_slice(&chunk[..n]);
    }
}

/// Runs `git http-backend` as a CGI program and turns its answer into an HTTP response.
fn git_http_backend(root: &std::path::Path, r: &GitRequest<'_>) -> Vec<u8> {
    let child = Command::new("git")
        .arg("http-backend")
        .env("GIT_PROJECT_ROOT", root)
        .env("GIT_HTTP_EXPORT_ALL", "1")
        .env("PATH_INFO", r.path)
        .env("QUERY_STRING", r.query)
        .env("REQUEST_METHOD", r.method)
        .env("CONTENT_TYPE", &r.content_type)
        .env("CONTENT_LENGTH", r.body.len().to_string())
        .env("GIT_PROTOCOL", &r.protocol)
        .env("HTTP_CONTENT_ENCODING", &r.encoding)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn();
    let Ok(mut child) = child else {
        return b"HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n".to_vec();
    };
    if let Some(mut stdin) = child.stdin.take() {
        let _ = stdin.write_all(r.body);
    }
    let output = child
        .wait_with_output()
        .map(|o| o.stdout)
        .unwrap_or_default();
    let split = output
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map_or((output.as_slice(), &[][..]), |i| {
            (&output[..i], &output[i + 4..])
        });
    let (head, body) = split;
    let mut status = "200 OK".to_string();
    let mut response = Vec::new();
    let mut lines = Vec::new();
    for h in String::from_utf8_lossy(head).lines() {
        match h.split_once(':') {
            Some((k, v)) if k.eq_ignore_ascii_case("status") => status = v.trim().to_string(),
            Some(_) => lines.push(h.to_string()),
            None => {}
        }
    }
    response.extend_from_slice(format!("HTTP/1.1 {status}\r\n").as_bytes());
    for h in lines {
        response.extend_from_slice(format!("{h}\r\n").as_bytes());
    }
    response.extend_from_slice(
        format!(
            "content-length: {}\r\nconnection: close\r\n\r\n",
            body.len()
        )
        .as_bytes(),
    );
    response.extend_from_slice(body);
    response
}
