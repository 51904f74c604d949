//! A language client for the tests: `umpire lsp` started as an editor starts it, spoken to
//! with real JSON-RPC messages framed by `Content-Length`, its answers read with a time
//! limit (a server that stops answering fails the test, never hangs it).

#![allow(dead_code)]

use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// How long an answer is waited for.
pub const WAIT: Duration = Duration::from_secs(60);

/// `umpire lsp`, running.
pub struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
    /// Notifications read while waiting for an answer, in order.
    pub notes: Vec<Value>,
}

impl Client {
    /// Starts `umpire lsp` in the repository's folder, initialized.
    pub fn start() -> Client {
        let mut client = Client::spawn();
        let caps = client.request(
            "initialize",
            json!({ "processId": null, "rootUri": null, "capabilities": {} }),
        );
        assert!(caps["result"]["capabilities"].is_object(), "{caps}");
        client.notify("initialized", json!({}));
        client
    }

    /// Starts `umpire lsp`, not yet initialized.
    pub fn spawn() -> Client {
        let mut child = super::common::umpire_command(&["lsp"])
            .current_dir(super::common::root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("umpire lsp starts");
        let stdout = child.stdout.take().expect("stdout piped");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            while let Some(m) = read_message(&mut out) {
                if tx.send(m).is_err() {
                    break;
                }
            }
        });
        Client {
            stdin: child.stdin.take(),
            child,
            messages: rx,
            next_id: 0,
            notes: Vec::new(),
        }
    }

    /// Writes raw bytes to the server.
    pub fn write_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("server reads");
        stdin.flush().expect("server reads");
    }

    /// Sends one message, framed.
    pub fn send(&mut self, message: &Value) {
        let body = message.to_string();
        self.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
    }

    /// Sends a notification.
    pub fn notify(&mut self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }));
    }

    /// Sends a request and waits for its answer (the whole response: `result` or `error`).
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }));
        self.answer_to(&json!(id))
    }

    /// Waits for the response whose id is `id`, keeping notifications read on the way.
    pub fn answer_to(&mut self, id: &Value) -> Value {
        loop {
            let m = self.next();
            if m.get("method").is_none() && &m["id"] == id {
                return m;
            }
            if m.get("method").is_some() {
                self.notes.push(m);
            }
        }
    }

    /// The next message from the server.
    pub fn next(&mut self) -> Value {
        self.messages
            .recv_timeout(WAIT)
            .expect("the server answers within the time limit")
    }

    /// Opens a document with `text` at `uri`, and waits for its diagnostics.
    pub fn open(&mut self, uri: &str, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "umpire", "version": 1, "text": text } }),
        );
        self.diagnostics_for(uri)
    }

    /// Replaces a document's text, and waits for its diagnostics.
    pub fn change(&mut self, uri: &str, version: i64, text: &str) -> Vec<Value> {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{ "text": text }] }),
        );
        self.diagnostics_for(uri)
    }

    /// The next diagnostics published for `uri` (those already read first).
    pub fn diagnostics_for(&mut self, uri: &str) -> Vec<Value> {
        let is_them = |m: &Value| {
            m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri
        };
        if let Some(at) = self.notes.iter().position(is_them) {
            let m = self.notes.remove(at);
            return m["params"]["diagnostics"]
                .as_array()
                .cloned()
                .unwrap_or_default();
        }
        loop {
            let m = self.next();
            if is_them(&m) {
                return m["params"]["diagnostics"]
                    .as_array()
                    .cloned()
                    .unwrap_or_default();
            }
            self.notes.push(m);
        }
    }

    /// `textDocument/completion` at (line, character) of `uri`: the whole response.
    pub fn completion(&mut self, uri: &str, line: u32, character: u32) -> Value {
        self.request(
            "textDocument/completion",
            json!({ "textDocument": { "uri": uri },
                    "position": { "line": line, "character": character } }),
        )
    }

    /// `textDocument/codeLens` of `uri`: the whole response.
    pub fn code_lenses(&mut self, uri: &str) -> Value {
        self.request(
            "textDocument/codeLens",
            json!({ "textDocument": { "uri": uri } }),
        )
    }

    /// `workspace/executeCommand` of `command` with `arguments`: the whole response.
    pub fn execute(&mut self, command: &str, arguments: Value) -> Value {
        self.request(
            "workspace/executeCommand",
            json!({ "command": command, "arguments": arguments }),
        )
    }

    /// The next notification of `method` (those already read first).
    pub fn notification(&mut self, method: &str) -> Value {
        if let Some(at) = self.notes.iter().position(|m| m["method"] == method) {
            return self.notes.remove(at);
        }
        loop {
            let m = self.next();
            if m["method"] == method {
                return m;
            }
            self.notes.push(m);
        }
    }

    /// `shutdown` then `exit`: the server's exit code.
    pub fn stop(mut self) -> Option<i32> {
        let answer = self.request("shutdown", Value::Null);
        assert!(answer.get("error").is_none(), "{answer}");
        self.notify("exit", Value::Null);
        self.wait()
    }

    /// Closes the server's input and waits for it to end: its exit code.
    pub fn wait(&mut self) -> Option<i32> {
        self.stdin = None;
        self.child.wait().expect("server ends").code()
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One framed message, or `None` at the end of the output.
fn read_message(out: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if out.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length:") {
            length = n.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    out.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

/// A `file://` address for a path.
pub fn file_uri(path: &std::path::Path) -> String {
    format!("file://{}", path.display())
}

impl Client {
    /// A request about a place in a document (`textDocument` and `position`, and the
    /// fields of `more`): the whole response.
    pub fn at(&mut self, method: &str, uri: &str, place: (u64, u64), more: Value) -> Value {
        let mut params = json!({
            "textDocument": { "uri": uri },
            "position": { "line": place.0, "character": place.1 },
        });
        if let (Some(p), Value::Object(more)) = (params.as_object_mut(), more) {
            p.extend(more);
        }
        self.request(method, params)
    }

    /// `textDocument/definition` at a place: the whole response.
    pub fn definition(&mut self, uri: &str, place: (u64, u64)) -> Value {
        self.at("textDocument/definition", uri, place, json!({}))
    }

    /// `textDocument/rename` at a place to `new_name`: the whole response.
    pub fn rename(&mut self, uri: &str, place: (u64, u64), new_name: &str) -> Value {
        self.at(
            "textDocument/rename",
            uri,
            place,
            json!({ "newName": new_name }),
        )
    }
}

/// The (line, character) of a range's start and end.
pub fn span_of(range: &Value) -> (u64, u64, u64, u64) {
    let n = |v: &Value| v.as_u64().expect("a number");
    (
        n(&range["start"]["line"]),
        n(&range["start"]["character"]),
        n(&range["end"]["line"]),
        n(&range["end"]["character"]),
    )
}
