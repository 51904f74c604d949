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
const MAX_MESSAGE: usize = 64 * 1024 * 1024;

/// The longest header line read; the rest of a longer one is passed over.
const MAX_HEADER_LINE: usize = 8 * 1024;

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
        let (body, junk) = match read_frame(&mut input) {
            Ok(Some(frame)) => frame,
            Ok(None) => return 1,
            Err(Frame::Malformed(why)) => {
                server.send_error(None, ErrorCode::ParseError, why);
                continue;
            }
            Err(Frame::Broken) => return 1,
        };
        if let Some(why) = junk {
            server.send_error(None, ErrorCode::ParseError, why);
        }
        let message = match message(&body) {
            Ok(m) => m,
            Err((id, code, why)) => {
                server.send_error(id, code, why);
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

/// A message's body read as a request, a notification or a response; or the id to
/// answer (none when it cannot be read), the error's code and why.
fn message(body: &[u8]) -> Result<Message, (Option<RequestId>, ErrorCode, String)> {
    let value: Value = serde_json::from_slice(body).map_err(|e| {
        (
            None,
            ErrorCode::ParseError,
            format!("the message is not JSON: {e}"),
        )
    })?;
    let id = value.get("id");
    let readable_id = id.and_then(|id| serde_json::from_value::<RequestId>(id.clone()).ok());
    let invalid = |why: String| (readable_id.clone(), ErrorCode::InvalidRequest, why);
    match (id, value.get("method")) {
        // A request's id is a whole number or a text (JSON-RPC); read as a notification,
        // it would go unanswered.
        (Some(id), Some(_)) if readable_id.is_none() => {
            return Err(invalid(format!(
                "the request's id `{id}` is neither a whole number nor a text"
            )))
        }
        (Some(_), None) if value.get("result").is_none() && value.get("error").is_none() => {
            return Err(invalid(
                "the message has an id but no method (nor the result or error of an answer)"
                    .to_string(),
            ))
        }
        _ => {}
    }
    serde_json::from_value(value).map_err(|e| {
        invalid(format!(
            "the message is not a JSON-RPC request or notification: {e}"
        ))
    })
}

/// A message's body, and what was wrong in its header that did not stop it being read.
type Read = (Vec<u8>, Option<String>);

/// Why a message could not be read.
enum Frame {
    /// Its header was wrong: answered, and the next message read.
    Malformed(String),
    /// The input broke off.
    Broken,
}

/// One header line, without its line break, as text (a byte that is not UTF-8 shown
/// as `�`); no more than [`MAX_HEADER_LINE`] bytes of it kept, the rest passed over.
/// `None` at the end of the input.
fn header_line(input: &mut impl BufRead) -> Result<Option<(String, bool)>, Frame> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let room = (MAX_HEADER_LINE + 1).saturating_sub(line.len());
        let mut piece = Vec::new();
        let n = std::io::Read::take(&mut *input, room.max(1) as u64)
            .read_until(b'\n', &mut piece)
            .map_err(|_| Frame::Broken)?;
        if n == 0 {
            return Ok((!line.is_empty()).then(|| (lossy(&line), too_long)));
        }
        let ended = piece.last() == Some(&b'\n');
        if line.len() < MAX_HEADER_LINE {
            line.extend_from_slice(&piece);
        }
        if line.len() > MAX_HEADER_LINE {
            line.truncate(MAX_HEADER_LINE);
            too_long = true;
        }
        if ended {
            return Ok(Some((lossy(&line), too_long)));
        }
    }
}

/// Bytes as text, the line break taken off.
fn lossy(line: &[u8]) -> String {
    String::from_utf8_lossy(line)
        .trim_end_matches(['\r', '\n'])
        .to_string()
}

/// One message's body, and what was wrong in its header that did not stop it being read
/// (junk before its `Content-Length`, as when the message before it was shorter than its
/// length said); `None` when the input has ended between messages.
fn read_frame(input: &mut impl BufRead) -> Result<Option<Read>, Frame> {
    const NAME: &str = "content-length:";
    let mut length: Option<usize> = None;
    let mut header = false;
    let mut malformed = None;
    loop {
        let Some((line, too_long)) = header_line(input)? else {
            return if header { Err(Frame::Broken) } else { Ok(None) };
        };
        header = true;
        if too_long {
            malformed.get_or_insert(format!(
                "a header line is longer than {MAX_HEADER_LINE} bytes"
            ));
        }
        if line.is_empty() {
            break;
        }
        // Found anywhere in the line: a message read short leaves its rest before it.
        let Some(at) = line.to_ascii_lowercase().find(NAME) else {
            if !line.contains(':') {
                malformed.get_or_insert(format!("a header line has no `:`: `{line}`"));
            }
            continue;
        };
        if at > 0 {
            malformed.get_or_insert(format!(
                "`{}` came before a Content-Length header",
                &line[..at]
            ));
        }
        let value = line[at + NAME.len()..].trim();
        match value.parse::<usize>() {
            Ok(n) => length = Some(n),
            Err(_) => {
                malformed.get_or_insert(format!(
                    "Content-Length is not a number of bytes: `{value}`"
                ));
            }
        }
    }
    let Some(length) = length else {
        return Err(Frame::Malformed(malformed.unwrap_or_else(|| {
            "the message has no Content-Length header".to_string()
        })));
    };
    if length > MAX_MESSAGE {
        // Most likely a wrong header: its body is not skipped (that could swallow every
        // message after it), but read as what follows.
        return Err(Frame::Malformed(format!(
            "the message says it is {length} bytes, more than the {MAX_MESSAGE} read"
        )));
    }
    let mut body = vec![0u8; length];
    input.read_exact(&mut body).map_err(|_| Frame::Broken)?;
    Ok(Some((body, malformed)))
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
                let edits = format::edits(self.doc(&p.text_document.uri)?, &self.limits)?;
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
                params::<lsp_types::DidChangeTextDocumentParams>(n.params).and_then(|p| {
                    let uri = p.text_document.uri;
                    if !self.docs.contains_key(&uri) {
                        return Err((
                            ErrorCode::InvalidParams,
                            format!("`{uri}` is changed but was never opened: open it first"),
                        ));
                    }
                    // Whole documents are sent (`TextDocumentSyncKind::FULL`): the last
                    // change is the text. A change of a range is not one the server
                    // asked for, and taken as the whole text it would be wrong.
                    let Some(change) = p.content_changes.into_iter().last() else {
                        return Ok(());
                    };
                    if change.range.is_some() {
                        return Err((
                            ErrorCode::InvalidParams,
                            "a change of a range: the server takes whole documents \
                             (TextDocumentSyncKind::FULL); the document is left as it was"
                                .to_string(),
                        ));
                    }
                    self.open(uri, p.text_document.version, change.text);
                    Ok(())
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
