//! A tiny HTTP/1.1 client over `std::net::TcpStream` for the tests of `umpire serve`
//! (`tests/serve.rs`, `tests/serve_screens.rs`), and the server started as the real
//! binary on a free port (`--port 0`), its addresses read from its stdout.
//!
//! Use it with `#[path = "serve/client.rs"] mod client;`.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a request, or the server's start, may take.
pub const WAIT: Duration = Duration::from_secs(60);

/// A running `umpire serve`: killed when dropped.
pub struct Server {
    /// The process.
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The umpire's token (from the umpire's page's address).
    pub token: String,
    /// The lines of stdout after the addresses, as they come.
    pub rest: mpsc::Receiver<String>,
    /// The lines of stdout read before the addresses (with them).
    pub opening: Vec<String>,
}

/// An answer: its status, its headers (names lower-cased), its body.
#[derive(Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body (chunked bodies put together).
    pub body: Vec<u8>,
}

impl Answer {
    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    /// The body as JSON (panics, naming the body, when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "status {}: the body is not JSON ({e}): {}",
                self.status,
                self.text()
            )
        })
    }

    /// A header's value.
    pub fn header(&self, name: &str) -> Option<&str> {
        let name = name.to_ascii_lowercase();
        self.headers
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first error's code (`umpire::serve::token`), when the body is `{"error": [...]}`.
    pub fn code(&self) -> Option<String> {
        let j: serde_json::Value = serde_json::from_slice(&self.body).ok()?;
        j["error"][0]["code"].as_str().map(str::to_string)
    }
}

/// The `umpire` binary built for the tests.
pub fn umpire() -> &'static str {
    env!("CARGO_BIN_EXE_umpire")
}

/// The repository's root (where `examples/` is).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh empty folder in the temporary folder, named for `what` (removed when
/// dropped).
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new folder.
    pub fn new(what: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static N: AtomicUsize = AtomicUsize::new(0);
        let n = N.fetch_add(1, Ordering::SeqCst);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        let dir = std::env::temp_dir().join(format!(
            "umpire-serve-{what}-{}-{n}-{nanos}",
            std::process::id()
        ));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        TempDir(dir)
    }

    /// A path inside it.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }

    /// Copies `from` (relative to the repository's root) into it as `name`.
    pub fn copy(&self, from: &str, name: &str) -> PathBuf {
        let to = self.join(name);
        std::fs::copy(root().join(from), &to).expect("copy an example");
        to
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Server {
    /// Starts `umpire serve ARGS --port 0` in `dir` (`None`: the repository's root) and
    /// waits for its two addresses.
    pub fn start(args: &[&str], dir: Option<&Path>) -> Server {
        let mut cmd = Command::new(umpire());
        cmd.arg("serve").args(args).args(["--port", "0"]);
        cmd.current_dir(dir.map_or_else(root, Path::to_path_buf));
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd.spawn().expect("start umpire serve");
        let stdout = child.stdout.take().expect("stdout");
        let rx = lines_of(stdout);
        let mut opening = Vec::new();
        let (mut umpire_page, mut players_page) = (None, None);
        let until = Instant::now() + WAIT;
        while umpire_page.is_none() || players_page.is_none() {
            let left = until.saturating_duration_since(Instant::now());
            match rx.recv_timeout(left) {
                Ok(line) => {
                    if let Some(a) = line.strip_prefix("umpire's page:") {
                        umpire_page = Some(a.trim().to_string());
                    }
                    if let Some(a) = line.strip_prefix("players' page:") {
                        players_page = Some(a.trim().to_string());
                    }
                    opening.push(line);
                }
                Err(_) => {
                    let _ = child.kill();
                    let out = child.wait_with_output().ok();
                    let err = out.map_or_else(String::new, |o| {
                        String::from_utf8_lossy(&o.stderr).into_owned()
                    });
                    panic!("umpire serve did not print its addresses: {opening:?}\n{err}");
                }
            }
        }
        let umpire_page = umpire_page.unwrap_or_default();
        let players_page = players_page.unwrap_or_default();
        let addr = players_page
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .to_string();
        let token = umpire_page
            .split_once("?token=")
            .map(|(_, t)| t.to_string())
            .expect("the umpire's page carries the token");
        Server {
            child,
            addr,
            token,
            rest: rx,
            opening,
        }
    }

    /// `GET PATH`.
    pub fn get(&self, path: &str) -> Answer {
        request(&self.addr, "GET", path, &[], None)
    }

    /// `POST PATH` with a JSON body, without the token.
    pub fn post(&self, path: &str, body: &str) -> Answer {
        request(
            &self.addr,
            "POST",
            path,
            &[("Content-Type", "application/json")],
            Some(body.as_bytes()),
        )
    }

    /// `POST PATH` with a JSON body and the umpire's token.
    pub fn post_token(&self, path: &str, body: &str) -> Answer {
        request(
            &self.addr,
            "POST",
            path,
            &[
                ("Content-Type", "application/json"),
                ("X-Umpire-Token", &self.token),
            ],
            Some(body.as_bytes()),
        )
    }

    /// Any request.
    pub fn send(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: Option<&[u8]>,
    ) -> Answer {
        request(&self.addr, method, path, headers, body)
    }

    /// The next line of stdout (after the addresses) within `wait`.
    pub fn next_line(&self, wait: Duration) -> Option<String> {
        self.rest.recv_timeout(wait).ok()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Stdout's lines, read on a thread of their own.
fn lines_of(stdout: ChildStdout) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// One request on a connection of its own (`Connection: close`), the whole answer read.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Answer {
    let mut s = TcpStream::connect(addr).expect("connect to umpire serve");
    s.set_read_timeout(Some(WAIT)).expect("a read timeout");
    s.set_write_timeout(Some(WAIT)).expect("a write timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!("Content-Length: {}\r\n", b.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("send the request");
    if let Some(b) = body {
        // The server may answer (413) before it has read all of a large body.
        let _ = s.write_all(b);
    }
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse(&raw)
}

/// An answer read from its bytes.
pub fn parse(raw: &[u8]) -> Answer {
    let end = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no header in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[end + 4..];
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_vec()
    };
    Answer {
        status,
        headers,
        body,
    }
}

/// A chunked body put together.
fn unchunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&rest[..eol]);
        let size_text = size_text.split(';').next().unwrap_or("").trim().to_string();
        let Ok(size) = usize::from_str_radix(&size_text, 16) else {
            break;
        };
        if size == 0 {
            break;
        }
        let from = eol + 2;
        let to = (from + size).min(rest.len());
        body.extend_from_slice(&rest[from..to]);
        rest = rest.get(to + 2..).unwrap_or(&[]);
    }
    body
}

/// An open stream of server-sent events (`GET /api/events`).
pub struct Events {
    stream: BufReader<TcpStream>,
}

impl Events {
    /// Opens `/api/events` and reads past the answer's head.
    pub fn open(addr: &str) -> Events {
        let mut s = TcpStream::connect(addr).expect("connect to umpire serve");
        s.set_read_timeout(Some(Duration::from_millis(500)))
            .expect("a read timeout");
        let head = format!(
            "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        s.write_all(head.as_bytes()).expect("send the request");
        let mut stream = BufReader::new(s);
        let until = Instant::now() + WAIT;
        let mut line = String::new();
        while Instant::now() < until {
            line.clear();
            match stream.read_line(&mut line) {
                Ok(0) => panic!("the events stream closed"),
                Ok(_) if line == "\r\n" => break,
                _ => {}
            }
        }
        Events { stream }
    }

    /// The next event named `kind` within `wait`: its data.
    pub fn next(&mut self, kind: &str, wait: Duration) -> Option<String> {
        let until = Instant::now() + wait;
        let mut current: Option<String> = None;
        let mut line = String::new();
        while Instant::now() < until {
            line.clear();
            match self.stream.read_line(&mut line) {
                Ok(0) => return None,
                Ok(_) => {
                    let l = line.trim_end();
                    if let Some(k) = l.strip_prefix("event:") {
                        current = Some(k.trim().to_string());
                    } else if let Some(d) = l.strip_prefix("data:") {
                        if current.as_deref() == Some(kind) {
                            return Some(d.trim().to_string());
                        }
                    } else if l.is_empty() {
                        current = None;
                    }
                }
                Err(_) => {}
            }
        }
        None
    }
}
