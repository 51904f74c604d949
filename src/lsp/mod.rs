//! `umpire lsp`: a language server for `.rules` files over stdio, built on the library
//! (never on the command line's text).
//!
//! One thread: the library's rulesets hold `Rc`s. Messages are read one at a time, each
//! framed by its `Content-Length` header; `lsp-server` gives the messages' types and
//! `lsp-types` the protocol's. The framing is read here, not by `lsp-server`'s own
//! reader, so that a malformed message is answered with an error (JSON-RPC's "parse
//! error") and the server goes on serving, where that reader would stop.
//!
//! Files: `document.rs` (an open document, positions), `diagnostics.rs` (what checking
//! found, as diagnostics), `at.rs` (what is at a position: names resolved from the syntax
//! trees), `hover.rs` (hover), `navigate.rs` (definition, references, rename, outline),
//! `complete.rs` (completion), `lens.rs` (the examples' code lenses and the command that
//! runs one), `format.rs` (formatting, by `umpire fmt`).

pub mod at;
pub mod complete;
pub mod diagnostics;
pub mod document;
pub mod format;
pub mod hover;
pub mod lens;
pub mod navigate;

use crate::limits::Limits;
use document::Document;
use lsp_server::{ErrorCode, Message, Notification, Request, RequestId, Response};
use lsp_types::notification::Notification as _;
use lsp_types::request::Request as _;
use lsp_types::{notification, request, Url};
use serde::de::DeserializeOwned;
use serde_json::Value;
use std::collections::HashMap;
use std::io::{BufRead, Write};

/// The largest message read, in bytes: a document past the file-size limit is still
/// read (and told it is too big), but no message is held past this.
const MAX_MESSAGE: usize = 256 * 1024 * 1024;

/// How the server ended: `exit` after `shutdown` (0), or without it, or its input ended (1).
pub fn serve(input: impl BufRead, output: impl Write, limits: Limits) -> i32 {
    let mut server = Server {
        out: output,
        docs: HashMap::new(),
        limits,
        shut_down: false,
        runs: lens::Runs::default(),
    };
    let mut input = input;
    loop {
        let message = match read_frame(&mut input) {
            Ok(Some(body)) => body,
            Ok(None) => return 1,
            Err(Frame::Malformed(why)) => {
                server.send_error(None, ErrorCode::ParseError, why);
                continue;
            }
            Err(Frame::Broken) => return 1,
        };
        let message: Message = match serde_json::from_slice(&message) {
            Ok(m) => m,
            Err(e) => {
                let id = request_id(&message);
                let code = if id.is_some() {
                    ErrorCode::InvalidRequest
                } else {
                    ErrorCode::ParseError
                };
                server.send_error(
                    id,
                    code,
                    format!("the message is not a JSON-RPC request or notification: {e}"),
                );
                continue;
            }
        };
        match message {
            Message::Request(r) => server.request(r),
            Message::Notification(n) => {
                if n.method == notification::Exit::METHOD {
                    return if server.shut_down { 0 } else { 1 };
                }
                server.notification(n);
            }
            // The server sends no requests, so it waits for no answers.
            Message::Response(_) => {}
        }
    }
}

/// Why a message could not be read.
enum Frame {
    /// Its header was wrong: answered, and the next message read.
    Malformed(String),
    /// The input broke off.
    Broken,
}

/// One message's body: `None` when the input has ended between messages.
fn read_frame(input: &mut impl BufRead) -> Result<Option<Vec<u8>>, Frame> {
    let mut length: Option<usize> = None;
    let mut header = false;
    let mut malformed = None;
    loop {
        let mut line = String::new();
        match input.read_line(&mut line) {
            Ok(0) if !header => return Ok(None),
            Ok(0) | Err(_) => return Err(Frame::Broken),
            Ok(_) => {}
        }
        header = true;
        let line = line.trim_end_matches(['\r', '\n']);
        if line.is_empty() {
            break;
        }
        let Some((name, value)) = line.split_once(':') else {
            malformed.get_or_insert(format!("a header line has no `:`: `{line}`"));
            continue;
        };
        if name.trim().eq_ignore_ascii_case("content-length") {
            match value.trim().parse::<usize>() {
                Ok(n) => length = Some(n),
                Err(_) => {
                    malformed.get_or_insert(format!(
                        "Content-Length is not a number of bytes: `{}`",
                        value.trim()
                    ));
                }
            }
        }
    }
    let Some(length) = length else {
        return Err(Frame::Malformed(malformed.unwrap_or_else(|| {
            "the message has no Content-Length header".to_string()
        })));
    };
    if length > MAX_MESSAGE {
        // Read past it, a piece at a time, so that the next message is found.
        let mut left = length;
        let mut piece = vec![0u8; 64 * 1024];
        while left > 0 {
            let n = left.min(piece.len());
            if input.read_exact(&mut piece[..n]).is_err() {
                return Err(Frame::Broken);
            }
            left -= n;
        }
        return Err(Frame::Malformed(format!(
            "the message is {length} bytes, more than the {MAX_MESSAGE} read"
        )));
    }
    let mut body = vec![0u8; length];
    input.read_exact(&mut body).map_err(|_| Frame::Broken)?;
    match malformed {
        Some(why) => Err(Frame::Malformed(why)),
        None => Ok(Some(body)),
    }
}

/// The id of a message that is JSON but not a well-formed request, to answer it by.
fn request_id(body: &[u8]) -> Option<RequestId> {
    let value: Value = serde_json::from_slice(body).ok()?;
    serde_json::from_value(value.get("id")?.clone()).ok()
}

/// An error answer: its code and sentence.
pub type Failure = (ErrorCode, String);

/// The server's state: the open documents.
struct Server<W: Write> {
    out: W,
    docs: HashMap<Url, Document>,
    limits: Limits,
    shut_down: bool,
    /// The examples' results, worked out once per version of a document.
    runs: lens::Runs,
}

impl<W: Write> Server<W> {
    /// Answers one request.
    fn request(&mut self, r: Request) {
        let id = r.id.clone();
        let answer = if self.shut_down && r.method != request::Shutdown::METHOD {
            Err((
                ErrorCode::InvalidRequest,
                "the server is shut down: only `exit` is taken now".to_string(),
            ))
        } else {
            self.answer(r)
        };
        match answer {
            Ok(result) => self.send(Message::Response(Response::new_ok(id, result))),
            Err((code, why)) => self.send_error(Some(id), code, why),
        }
    }

    /// The result of one request, or why there is none.
    fn answer(&mut self, r: Request) -> Result<Value, Failure> {
        match r.method.as_str() {
            request::Initialize::METHOD => Ok(serde_json::json!({
                "capabilities": capabilities(),
                "serverInfo": { "name": "umpire", "version": env!("CARGO_PKG_VERSION") },
            })),
            request::Formatting::METHOD => {
                let p = params::<lsp_types::DocumentFormattingParams>(r.params)?;
                let edits = format::edits(self.doc(&p.text_document.uri)?)?;
                Ok(serde_json::to_value(edits).unwrap_or(Value::Null))
            }
            request::Shutdown::METHOD => {
                self.shut_down = true;
                Ok(Value::Null)
            }
            request::Completion::METHOD => complete::answer(&self.docs, r.params),
            request::CodeLensRequest::METHOD => lens::answer(&self.docs, &mut self.runs, r.params),
            request::ExecuteCommand::METHOD => {
                lens::execute(&self.docs, r.params).map(|(answer, said)| {
                    self.notify::<notification::ShowMessage>(said);
                    answer
                })
            }
            request::HoverRequest::METHOD => hover::answer(&self.docs, r.params),
            request::GotoDefinition::METHOD => navigate::definition(&self.docs, r.params),
            request::References::METHOD => navigate::references(&self.docs, r.params),
            request::PrepareRenameRequest::METHOD => navigate::prepare_rename(&self.docs, r.params),
            request::Rename::METHOD => navigate::rename(&self.docs, r.params),
            request::DocumentSymbolRequest::METHOD => navigate::symbols(&self.docs, r.params),
            method => Err((
                ErrorCode::MethodNotFound,
                format!("umpire's language server does not answer `{method}`"),
            )),
        }
    }

    /// Takes one notification: documents opened, changed, closed.
    fn notification(&mut self, n: Notification) {
        let done = match n.method.as_str() {
            notification::DidOpenTextDocument::METHOD => {
                params::<lsp_types::DidOpenTextDocumentParams>(n.params).map(|p| {
                    let d = p.text_document;
                    self.open(d.uri, d.version, d.text);
                })
            }
            notification::DidChangeTextDocument::METHOD => {
                params::<lsp_types::DidChangeTextDocumentParams>(n.params).map(|p| {
                    // Whole documents are sent (`TextDocumentSyncKind::FULL`): the last
                    // change is the text.
                    if let Some(change) = p.content_changes.into_iter().last() {
                        self.open(p.text_document.uri, p.text_document.version, change.text);
                    }
                })
            }
            notification::DidCloseTextDocument::METHOD => {
                params::<lsp_types::DidCloseTextDocumentParams>(n.params).map(|p| {
                    let uri = p.text_document.uri;
                    self.docs.remove(&uri);
                    self.runs.forget(&uri);
                    self.publish_empty(uri);
                })
            }
            // Anything else (`initialized`, `$/cancelRequest`, saves) needs nothing done.
            _ => Ok(()),
        };
        if let Err((_, why)) = done {
            self.log(&format!("{}: {why}", n.method));
        }
    }

    /// An open document, or why a request about it cannot be answered.
    fn doc(&self, uri: &Url) -> Result<&Document, Failure> {
        open_doc(&self.docs, uri)
    }

    /// Takes a document's text: checks it and publishes what was found.
    fn open(&mut self, uri: Url, version: i32, text: String) {
        let mut doc = Document::new(uri.clone(), version, text, &self.limits);
        doc.keep_last_checked(self.docs.get(&uri));
        let params = lsp_types::PublishDiagnosticsParams {
            uri: uri.clone(),
            diagnostics: diagnostics::of(&doc),
            version: Some(version),
        };
        self.docs.insert(uri, doc);
        self.notify::<notification::PublishDiagnostics>(params);
    }

    /// Clears a closed document's diagnostics.
    fn publish_empty(&mut self, uri: Url) {
        self.notify::<notification::PublishDiagnostics>(lsp_types::PublishDiagnosticsParams {
            uri,
            diagnostics: Vec::new(),
            version: None,
        });
    }

    /// Sends a notification.
    fn notify<N: lsp_types::notification::Notification>(&mut self, params: N::Params) {
        self.send(Message::Notification(Notification::new(
            N::METHOD.to_string(),
            params,
        )));
    }

    /// A line in the editor's log (`window/logMessage`): what could not be done with a
    /// notification, which has no answer.
    fn log(&mut self, text: &str) {
        self.notify::<notification::LogMessage>(lsp_types::LogMessageParams {
            typ: lsp_types::MessageType::ERROR,
            message: format!("umpire: {text}"),
        });
    }

    /// Sends an error answer: to the request `id`, or (JSON-RPC's `"id": null`) to a
    /// message whose id could not be read.
    fn send_error(&mut self, id: Option<RequestId>, code: ErrorCode, why: String) {
        match id {
            Some(id) => self.send(Message::Response(Response::new_err(id, code as i32, why))),
            None => {
                let body = serde_json::json!({
                    "jsonrpc": "2.0",
                    "id": null,
                    "error": { "code": code as i32, "message": why },
                })
                .to_string();
                let _ = write!(self.out, "Content-Length: {}\r\n\r\n{body}", body.len());
                let _ = self.out.flush();
            }
        }
    }

    /// Writes one message. A closed output ends nothing here: the next read finds the
    /// input closed too.
    fn send(&mut self, m: Message) {
        let _ = m.write(&mut self.out);
        let _ = self.out.flush();
    }
}

/// A request's or notification's parameters, or why they are not the ones its method
/// takes.
pub fn params<P: DeserializeOwned>(value: Value) -> Result<P, Failure> {
    serde_json::from_value(value).map_err(|e| {
        (
            ErrorCode::InvalidParams,
            format!("the parameters are not the ones this method takes: {e}"),
        )
    })
}

/// An open document, or the error answer for one that is not.
pub fn open_doc<'d>(docs: &'d HashMap<Url, Document>, uri: &Url) -> Result<&'d Document, Failure> {
    docs.get(uri).ok_or_else(|| {
        (
            ErrorCode::InvalidParams,
            format!("`{uri}` is not open: open it (`textDocument/didOpen`) first"),
        )
    })
}

/// The byte offset of a position in a document, or the error answer for one past its end.
pub fn offset(doc: &Document, at: lsp_types::Position) -> Result<u32, Failure> {
    doc.offset(at)
        .map_err(|why| (ErrorCode::InvalidParams, why))
}

/// What the server can do.
fn capabilities() -> lsp_types::ServerCapabilities {
    lsp_types::ServerCapabilities {
        text_document_sync: Some(lsp_types::TextDocumentSyncCapability::Kind(
            lsp_types::TextDocumentSyncKind::FULL,
        )),
        document_formatting_provider: Some(lsp_types::OneOf::Left(true)),
        completion_provider: Some(complete::options()),
        code_lens_provider: Some(lsp_types::CodeLensOptions {
            resolve_provider: Some(false),
        }),
        execute_command_provider: Some(lens::command_options()),
        hover_provider: Some(lsp_types::HoverProviderCapability::Simple(true)),
        definition_provider: Some(lsp_types::OneOf::Left(true)),
        references_provider: Some(lsp_types::OneOf::Left(true)),
        rename_provider: Some(navigate::rename_options()),
        document_symbol_provider: Some(lsp_types::OneOf::Left(true)),
        ..Default::default()
    }
}

/// Runs the server on stdin and stdout: the process's exit code.
pub fn serve_stdio(limits: Limits) -> i32 {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    serve(stdin.lock(), stdout.lock(), limits)
}
