//! A tiny HTTP/1.1 client and a server runner for the tests of `umpire serve`: starts
//! the real binary with `--port 0` in a folder of its own, reads the addresses it
//! prints, talks to it over `std::net::TcpStream`, and stops it with SIGINT.
//!
//! Used by `tests/serve.rs` and `tests/serve_screens.rs` (`#[path = "serve/client.rs"]`).
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How long a server may take to start, a request to be answered, a stop to finish.
pub const WAIT: Duration = Duration::from_secs(20);

/// The repository's root (for `examples/`).
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A folder of its own under the system's temporary folder, removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    /// A new empty folder named after `name`, this process and a counter.
    pub fn new(name: &str) -> TempDir {
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::SeqCst);
        let path = std::env::temp_dir().join(format!(
            "umpire-serve-test-{name}-{}-{n}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).expect("make the test's folder");
        TempDir(path)
    }

    /// A path inside the folder.
    pub fn join(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder holding a copy of `examples/states/furious_reason_brigade.toml` (as
/// `brigade.toml`).
pub fn brigade_folder(name: &str) -> TempDir {
    let dir = TempDir::new(name);
    std::fs::copy(
        repo().join("examples/states/furious_reason_brigade.toml"),
        dir.join("brigade.toml"),
    )
    .expect("copy the brigade's state");
    dir
}

/// A running `umpire serve`.
pub struct Server {
    /// The process.
    pub child: Child,
    /// `127.0.0.1:PORT`: where it serves.
    pub addr: String,
    /// The umpire's token, read from the umpire's page's address.
    pub token: String,
    /// The umpire's page's address as printed.
    pub umpire_page: String,
    /// The players' page's address as printed.
    pub players_page: String,
    /// Every line of stdout read so far.
    pub said: Vec<String>,
    lines: mpsc::Receiver<String>,
}

/// The result of a command run to its end.
pub struct Ran {
    /// How it exited.
    pub status: ExitStatus,
    /// Its stdout.
    pub stdout: String,
    /// Its stderr.
    pub stderr: String,
}

/// Runs `umpire ARGS` in `dir` to its end (killed, and the test failed, past [`WAIT`]).
pub fn run_umpire(dir: &Path, args: &[&str]) -> Ran {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start umpire");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stdout.read_to_string(&mut s);
        s
    });
    let err = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let status = wait_for(&mut child, WAIT).unwrap_or_else(|| {
        let _ = child.kill();
        let _ = child.wait();
        panic!("`umpire {}` did not end within {WAIT:?}", args.join(" "))
    });
    Ran {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    }
}

fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Ok(Some(status)) = child.try_wait() {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    None
}

impl Server {
    /// Starts `umpire serve ARGS --port 0` in `dir` and waits for the two pages'
    /// addresses it prints.
    pub fn start(dir: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
            .arg("serve")
            .args(args)
            .args(["--port", "0"])
            .current_dir(dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start umpire serve");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Server {
            child,
            addr: String::new(),
            token: String::new(),
            umpire_page: String::new(),
            players_page: String::new(),
            said: Vec::new(),
            lines,
        };
        server.read_pages();
        server
    }

    fn read_pages(&mut self) {
        let start = Instant::now();
        while self.umpire_page.is_empty() || self.players_page.is_empty() {
            let left = WAIT.saturating_sub(start.elapsed());
            let Ok(line) = self.lines.recv_timeout(left) else {
                let _ = self.child.kill();
                let mut err = String::new();
                if let Some(mut e) = self.child.stderr.take() {
                    let _ = e.read_to_string(&mut err);
                }
                panic!(
                    "umpire serve printed no addresses; stdout: {:?}; stderr: {err}",
                    self.said
                );
            };
            if let Some(rest) = line.strip_prefix("umpire's page:") {
                self.umpire_page = rest.trim().to_string();
            } else if let Some(rest) = line.strip_prefix("players' page:") {
                self.players_page = rest.trim().to_string();
            }
            self.said.push(line);
        }
        let (addr, token) = self
            .umpire_page
            .strip_prefix("http://")
            .and_then(|s| s.split_once("/?token="))
            .expect("the umpire's page is http://ADDR/?token=TOKEN");
        self.addr = addr.to_string();
        self.token = token.to_string();
    }

    /// A request to the server; `token` adds the umpire's token.
    pub fn send(&self, method: &str, path: &str, token: bool, body: Option<&str>) -> Response {
        let token = token.then_some(self.token.as_str());
        let headers: Vec<(&str, &str)> = token
            .map(|t| vec![("X-Umpire-Token", t)])
            .unwrap_or_default();
        request(&self.addr, method, path, &headers, body.map(str::as_bytes))
    }

    /// `GET path`, without the token.
    pub fn get(&self, path: &str) -> Response {
        self.send("GET", path, false, None)
    }

    /// `POST path` with the umpire's token and a JSON body (or none).
    pub fn post(&self, path: &str, body: Option<&str>) -> Response {
        self.send("POST", path, true, body)
    }

    /// `GET /api/table` (without the token), as JSON.
    pub fn table(&self) -> serde_json::Value {
        let r = self.get("/api/table");
        assert_eq!(r.status, 200, "GET /api/table: {}", r.body);
        r.json()
    }

    /// Stops the server with SIGINT (Ctrl-C) and waits for it; answers how it exited
    /// and every line it printed after its addresses.
    pub fn interrupt(&mut self) -> (ExitStatus, Vec<String>) {
        let pid = self.child.id().to_string();
        let killed = Command::new("kill")
            .args(["-INT", &pid])
            .status()
            .expect("run kill");
        assert!(killed.success(), "kill -INT {pid}");
        let status = wait_for(&mut self.child, WAIT).unwrap_or_else(|| {
            let _ = self.child.kill();
            panic!("umpire serve did not stop within {WAIT:?} of SIGINT")
        });
        let mut rest = Vec::new();
        while let Ok(line) = self.lines.recv_timeout(Duration::from_secs(2)) {
            rest.push(line);
        }
        (status, rest)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// An answer: the status, the headers (names lower-cased) and the body.
#[derive(Debug)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The headers, names lower-cased.
    pub headers: Vec<(String, String)>,
    /// The body, as text.
    pub body: String,
}

impl Response {
    /// The body as JSON (the test fails when it is not).
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| {
            panic!(
                "the answer ({}) is not JSON: {e}: {:?}",
                self.status, self.body
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

    /// The codes of the answer's diagnostics (`{"error": [...]}`).
    pub fn codes(&self) -> Vec<String> {
        self.json()["error"]
            .as_array()
            .map(|errors| {
                errors
                    .iter()
                    .filter_map(|e| e["code"].as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// One HTTP/1.1 request (`Connection: close`) and its whole answer.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<&[u8]>,
) -> Response {
    let mut stream = TcpStream::connect(addr).expect("connect to the server");
    stream.set_read_timeout(Some(WAIT)).expect("timeout");
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (name, value) in headers {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    if let Some(b) = body {
        head.push_str(&format!(
            "Content-Type: application/json\r\nContent-Length: {}\r\n",
            b.len()
        ));
    } else if method == "POST" {
        head.push_str("Content-Length: 0\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).expect("send the request");
    if let Some(b) = body {
        // A server may answer (413) before it reads a large body, and close.
        let _ = stream.write_all(b);
    }
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    parse(&raw)
}

/// Sends `bytes` as they are (a request written by hand) and reads the whole answer.
pub fn raw(addr: &str, bytes: &[u8]) -> Response {
    let mut stream = TcpStream::connect(addr).expect("connect to the server");
    stream.set_read_timeout(Some(WAIT)).expect("timeout");
    // A server may answer (413) before it reads all of a large body, and close.
    let _ = stream.write_all(bytes);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    parse(&answer)
}

fn parse(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .unwrap_or_else(|| panic!("no HTTP head in {:?}", String::from_utf8_lossy(raw)));
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let rest = &raw[split + 4..];
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap_or_default();
    let status: u16 = status_line
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("a status line: {status_line:?}"));
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        unchunk(rest)
    } else {
        rest.to_vec()
    };
    Response {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

fn unchunk(mut rest: &[u8]) -> Vec<u8> {
    let mut body = Vec::new();
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&rest[..eol]);
        let size_text = size_text.split(';').next().unwrap_or("").trim();
        let Ok(size) = usize::from_str_radix(size_text, 16) else {
            break;
        };
        if size == 0 {
            break;
        }
        let start = eol + 2;
        let end = (start + size).min(rest.len());
        body.extend_from_slice(&rest[start..end]);
        rest = rest.get(end + 2..).unwrap_or(&[]);
    }
    body
}

/// An open `GET /api/events` stream: reads what the server sends, as it comes.
pub struct Events {
    stream: TcpStream,
    seen: String,
}

impl Events {
    /// Opens the events and waits for the answer's head.
    pub fn open(addr: &str) -> Events {
        let mut stream = TcpStream::connect(addr).expect("connect to the server");
        stream
            .set_read_timeout(Some(Duration::from_millis(200)))
            .expect("timeout");
        let head = format!(
            "GET /api/events HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
        );
        stream.write_all(head.as_bytes()).expect("send the request");
        let mut events = Events {
            stream,
            seen: String::new(),
        };
        assert!(
            events.wait_for("\r\n\r\n"),
            "no answer to GET /api/events: {:?}",
            events.seen
        );
        assert!(
            events.seen.starts_with("HTTP/1.1 200"),
            "GET /api/events: {:?}",
            events.seen
        );
        assert!(
            events
                .seen
                .to_ascii_lowercase()
                .contains("text/event-stream"),
            "{:?}",
            events.seen
        );
        events
    }

    /// Reads until `text` has been sent (true) or [`WAIT`] passed (false).
    pub fn wait_for(&mut self, text: &str) -> bool {
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        while !self.seen.contains(text) {
            if start.elapsed() > WAIT {
                return false;
            }
            match self.stream.read(&mut buf) {
                Ok(0) => return self.seen.contains(text),
                Ok(n) => self.seen.push_str(&String::from_utf8_lossy(&buf[..n])),
                Err(_) => {}
            }
        }
        true
    }

    /// Everything sent so far.
    pub fn seen(&self) -> &str {
        &self.seen
    }
}
