//! The table's API: the table, the events every page hears, and what the umpire's page
//! does — adjudicate with the players' dice or umpire's, apply, drop, undo, redo,
//! save — each refused without the umpire's token. A question asked "what if" with
//! chosen dice changes nothing, and any page may ask it.

use super::desk::Desk;
use super::problem::Problem;
use super::{view, App, MAX_QUESTION};
use crate::diagnostic::{Code, Diag};
use crate::game::{Failure, NoTable};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::sse::{Event as SseEvent, KeepAlive, Sse};
use axum::routing::{get, post};
use axum::{Json, Router};
use futures_util::stream::{self, Stream};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value as JsonValue};
use std::convert::Infallible;
use std::path::{Component, Path};

/// The most dice one request may give.
const MAX_DICE: usize = 1000;

/// The table's routes.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/api/table", get(table))
        .route("/api/events", get(events))
        .route("/api/adjudicate", post(adjudicate))
        .route("/api/what_if", post(what_if))
        .route("/api/apply", post(apply))
        .route("/api/drop", post(drop_effects))
        .route("/api/undo", post(undo))
        .route("/api/redo", post(redo))
        .route("/api/save", post(save))
        .route("/api/cancel", post(cancel))
}

/// Stops the work in hand (the odds of a long question): it answers that it was
/// cancelled, and the game is as it was. The umpire's page only.
async fn cancel(State(app): State<App>, headers: HeaderMap) -> Result<Json<JsonValue>, Problem> {
    need_token(&app, &headers)?;
    crate::cancel::request();
    Ok(Json(json!({ "done": "asked the work in hand to stop" })))
}

/// What an unknown address answers (404, as JSON).
pub async fn not_found() -> Problem {
    Problem::one(
        StatusCode::NOT_FOUND,
        Diag::error(Code::ServeRequest, "there is nothing at this address")
            .help("the page is at /, the API under /api/ (docs/serve.md)"),
    )
}

/// What an address answers asked with a method it does not take (405, as JSON):
/// `GET /api/apply`, say.
pub async fn method_not_allowed(method: axum::http::Method, uri: axum::http::Uri) -> Problem {
    let posted = [
        "/api/adjudicate",
        "/api/what_if",
        "/api/apply",
        "/api/drop",
        "/api/undo",
        "/api/redo",
        "/api/save",
        "/api/cancel",
        "/api/odds",
        "/api/editions/odds",
    ];
    let help = if posted.contains(&uri.path()) {
        "this address changes or computes something: send it a POST (docs/serve.md)"
    } else {
        "this address is only read: send it a GET (docs/serve.md)"
    };
    Problem::one(
        StatusCode::METHOD_NOT_ALLOWED,
        Diag::error(
            Code::ServeRequest,
            format!("{} does not take a {method} request", uri.path()),
        )
        .help(help),
    )
}

/// Whether the request carries the umpire's token (`X-Umpire-Token`).
pub fn holds_token(app: &App, headers: &HeaderMap) -> bool {
    let given = headers
        .get("x-umpire-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    // Compared whole, every byte, whatever the first difference.
    given.len() == app.token.len()
        && given
            .bytes()
            .zip(app.token.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// Refuses a change without the umpire's token (403).
pub fn need_token(app: &App, headers: &HeaderMap) -> Result<(), Problem> {
    if holds_token(app, headers) {
        return Ok(());
    }
    Err(Problem::one(
        StatusCode::FORBIDDEN,
        Diag::error(
            Code::ServeToken,
            "this page only watches the game: it cannot change it",
        )
        .help(
            "changes are made from the umpire's page, the address with `?token=…` that \
             `umpire serve` printed when it started",
        ),
    ))
}

/// A request body read as JSON, within the body limit; any fault a 400 or 413 with
/// a diagnostic.
pub fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, Problem> {
    let bytes = bytes.map_err(|e| {
        let status = e.status();
        let message = if status == StatusCode::PAYLOAD_TOO_LARGE {
            format!(
                "the request is larger than the {} KiB taken",
                super::MAX_BODY / 1024
            )
        } else {
            format!("the request's body could not be read: {e}")
        };
        Problem::one(status, Diag::error(Code::ServeRequest, message))
    })?;
    let bytes: &[u8] = if bytes.iter().all(u8::is_ascii_whitespace) {
        b"{}"
    } else {
        &bytes
    };
    serde_json::from_slice(bytes).map_err(|e| {
        Problem::bad_request(
            Code::ServeRequest,
            format!("the request's JSON could not be read: {e}"),
        )
    })
}

/// A question within the length taken.
pub fn question_text(q: &str) -> Result<String, Problem> {
    if q.len() > MAX_QUESTION {
        return Err(Problem::bad_request(
            Code::ServeRequest,
            format!(
                "the question is {} bytes long; at most {MAX_QUESTION} are taken",
                q.len()
            ),
        ));
    }
    if q.trim().is_empty() {
        return Err(Problem::bad_request(
            Code::ServeRequest,
            "no question was given",
        ));
    }
    Ok(q.to_string())
}

/// A failure of the game as a problem: a refusal 409 in words, else the diagnostics.
pub fn failure(desk: &Desk, f: Failure) -> Problem {
    let sources = Some(&desk.game.ruleset().sources);
    match f {
        Failure::Refused(r) => Problem::one(
            StatusCode::CONFLICT,
            Diag::error(Code::ServeRefused, r.to_string()),
        ),
        Failure::Cancelled { die, .. } => Problem::one(
            StatusCode::BAD_REQUEST,
            Diag::error(
                Code::ServeRequest,
                format!("no face was given for the {die}"),
            ),
        ),
        other => Problem::of(StatusCode::BAD_REQUEST, other.diags(), sources),
    }
}

async fn table(State(app): State<App>, headers: HeaderMap) -> Result<Json<JsonValue>, Problem> {
    let can_change = holds_token(&app, &headers);
    let t = app
        .desk
        .ask(move |d| Ok(view::table(d, can_change)))
        .await?;
    Ok(Json(t))
}

/// The events every page hears, until the server stops.
async fn events(State(app): State<App>) -> Sse<impl Stream<Item = Result<SseEvent, Infallible>>> {
    let rx = app.events.subscribe();
    let stopping = app.stopping.clone();
    let s = stream::unfold((rx, stopping), |(mut rx, mut stopping)| async move {
        if *stopping.borrow() {
            return None;
        }
        tokio::select! {
            got = rx.recv() => match got {
                Ok(e) => {
                    let ev = SseEvent::default().event(e.kind).data(e.data);
                    Some((Ok(ev), (rx, stopping)))
                }
                // A page that fell behind hears that the table changed.
                Err(tokio::sync::broadcast::error::RecvError::Lagged(_)) => {
                    let ev = SseEvent::default().event("table").data("{}");
                    Some((Ok(ev), (rx, stopping)))
                }
                Err(tokio::sync::broadcast::error::RecvError::Closed) => None,
            },
            _ = stopping.changed() => None,
        }
    });
    Sse::new(s).keep_alive(KeepAlive::default())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Ask {
    question: String,
    #[serde(default)]
    dice: Vec<i64>,
}

impl Ask {
    /// The request's question and dice, each within its limit.
    fn read(bytes: Result<Bytes, BytesRejection>) -> Result<Ask, Problem> {
        let ask: Ask = body(bytes)?;
        question_text(&ask.question)?;
        dice_given(&ask.dice)?;
        Ok(ask)
    }
}

fn dice_given(dice: &[i64]) -> Result<(), Problem> {
    if dice.len() > MAX_DICE {
        return Err(Problem::bad_request(
            Code::ServeRequest,
            format!(
                "{} dice were given; at most {MAX_DICE} are taken",
                dice.len()
            ),
        ));
    }
    Ok(())
}

async fn adjudicate(
    State(app): State<App>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<JsonValue>, Problem> {
    need_token(&app, &headers)?;
    let ask = Ask::read(bytes)?;
    let question = ask.question.clone();
    let answer = app
        .desk
        .ask(move |d| {
            d.game.clear_queue();
            d.game.queue(&ask.dice);
            let done = d.game.adjudicate(&question, true, &mut NoTable);
            d.game.clear_queue();
            let done = done.map_err(|f| failure(d, f))?;
            let marks = done.umpire_marks(d.game.dice());
            let mut ruling = view::ruling(d.game.program(), &done.adjudication, &question, &marks);
            ruling["id"] = json!(d.game.last().map(|r| r.id()));
            ruling["dice_note"] = json!(done
                .queue
                .as_ref()
                .filter(|q| !q.dropped.is_empty())
                .map(|q| unused_faces(&q.dropped)));
            d.changed(&format!("adjudicated `{question}`"));
            Ok(json!({ "ruling": ruling, "table": view::table(d, true) }))
        })
        .await?;
    Ok(Json(answer))
}

fn unused_faces(dropped: &[i64]) -> String {
    let faces: Vec<String> = dropped.iter().map(i64::to_string).collect();
    match dropped.len() {
        1 => format!("the face {} given was not rolled for", faces.join(", ")),
        _ => format!("the faces {} given were not rolled for", faces.join(", ")),
    }
}

async fn what_if(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<JsonValue>, Problem> {
    let ask = Ask::read(bytes)?;
    let question = ask.question.clone();
    let answer = app
        .desk
        .ask(move |d| {
            let rules = d.game.ruleset();
            let q = rules.question("<question>", &question)?;
            let mut dice = crate::dice::Given::new(ask.dice);
            let mut opts = rules.options();
            opts.trace = true;
            let a = rules
                .adjudicate(&q, &mut dice, opts)
                .map_err(|e| Problem::of(StatusCode::BAD_REQUEST, &[e], Some(&rules.sources)))?;
            Ok(json!({ "ruling": view::ruling(d.game.program(), &a, &question, &[]) }))
        })
        .await?;
    Ok(Json(answer))
}

/// Runs a change of the umpire's (`apply`, `drop`, `undo`, `redo`) and answers what was
/// done and the table.
async fn change(
    app: App,
    headers: HeaderMap,
    what: fn(&mut Desk) -> Result<String, Failure>,
) -> Result<Json<JsonValue>, Problem> {
    need_token(&app, &headers)?;
    let answer = app
        .desk
        .ask(move |d| {
            let done = what(d).map_err(|f| failure(d, f))?;
            d.changed(&done);
            Ok(json!({ "done": done, "table": view::table(d, true) }))
        })
        .await?;
    Ok(Json(answer))
}

async fn apply(State(app): State<App>, headers: HeaderMap) -> Result<Json<JsonValue>, Problem> {
    change(app, headers, |d| {
        let a = d.game.apply()?;
        Ok(format!("applied the effects of `{}`", a.text))
    })
    .await
}

async fn drop_effects(
    State(app): State<App>,
    headers: HeaderMap,
) -> Result<Json<JsonValue>, Problem> {
    change(app, headers, |d| {
        let text = d.game.drop_effects()?;
        Ok(format!("dropped the effects of `{text}`"))
    })
    .await
}

async fn undo(State(app): State<App>, headers: HeaderMap) -> Result<Json<JsonValue>, Problem> {
    change(app, headers, |d| {
        let c = d.game.undo()?;
        Ok(format!("took back {}", c.done))
    })
    .await
}

async fn redo(State(app): State<App>, headers: HeaderMap) -> Result<Json<JsonValue>, Problem> {
    change(app, headers, |d| {
        let c = d.game.redo()?;
        Ok(format!("did again {}", c.done))
    })
    .await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SaveAsk {
    to: Option<String>,
    #[serde(default)]
    confirm: bool,
}

async fn save(
    State(app): State<App>,
    headers: HeaderMap,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<JsonValue>, Problem> {
    need_token(&app, &headers)?;
    let ask: SaveAsk = body(bytes)?;
    if let Some(to) = &ask.to {
        plain_file_name(to)?;
    }
    let answer = app
        .desk
        .ask(move |d| {
            let path = save_path(d, ask.to.as_deref(), ask.confirm)?;
            let saved = d.game.save(Some(&path)).map_err(|f| failure(d, f))?;
            d.changed(&format!("saved the state to {saved}"));
            Ok(json!({ "saved": saved, "table": view::table(d, true) }))
        })
        .await?;
    Ok(Json(answer))
}

/// A file name to save to: a name, in no folder, not `.` or `..`.
fn plain_file_name(to: &str) -> Result<(), Problem> {
    let mut parts = Path::new(to).components();
    let plain = matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    ) && !to.contains(['/', '\\', '\0', ':']);
    // A state file's name, as a person would type it: `after-turn-3.toml`.
    let lower = to.to_ascii_lowercase();
    let named = to.trim() == to
        && !to.starts_with(['.', '-', '~'])
        && (lower.ends_with(".toml") || lower.ends_with(".json"));
    if plain && named && to.len() <= 255 {
        return Ok(());
    }
    Err(Problem::one(
        StatusCode::BAD_REQUEST,
        Diag::error(
            Code::ServePath,
            format!(
                "`{to}` is not a file name: the state is saved in the state file's folder, \
                 under a name with no folder in it"
            ),
        )
        .help("give a name ending in .toml or .json, such as `after-turn-3.toml`"),
    ))
}

/// Where a save writes: a new file in the state file's folder (over an existing one
/// only when confirmed), or the state file loaded (only when confirmed).
fn save_path(d: &Desk, to: Option<&str>, confirm: bool) -> Result<String, Problem> {
    let confirm_needed = |path: &str| {
        Problem::one(
            StatusCode::CONFLICT,
            Diag::error(
                Code::ServeConfirm,
                format!("this would write over `{path}`"),
            )
            .help("ask again with `\"confirm\": true` to write over it"),
        )
    };
    match to {
        Some(name) => {
            let path = d.folder.join(name);
            let path = path.to_string_lossy().into_owned();
            let there = std::fs::symlink_metadata(&path).ok();
            // A save writes through a symbolic link: one in the folder could lead out.
            if there.as_ref().is_some_and(|m| m.file_type().is_symlink()) {
                return Err(Problem::one(
                    StatusCode::BAD_REQUEST,
                    Diag::error(
                        Code::ServePath,
                        format!(
                            "`{name}` is a link to a file elsewhere: the state is saved only \
                             in the state file's folder"
                        ),
                    )
                    .help("give the name of a new file, or of a state file in that folder"),
                ));
            }
            if there.is_some() && !confirm {
                return Err(confirm_needed(&path));
            }
            Ok(path)
        }
        None => {
            let Some(loaded) = d.game.save_to().or(d.game.state_path()) else {
                return Err(Problem::one(
                    StatusCode::CONFLICT,
                    Diag::error(
                        Code::ServeRefused,
                        "the state came from no file: give a file name to save it to",
                    ),
                ));
            };
            if !confirm {
                return Err(confirm_needed(loaded));
            }
            Ok(loaded.to_string())
        }
    }
}

/// What stopping the server did with the game: saved it (`--save-on-exit`), or what
/// was left unsaved.
pub fn finish(d: &mut Desk, save_on_exit: bool) -> String {
    let mut said = Vec::new();
    if let Some(r) = d.game.unapplied() {
        said.push(format!("the effects of `{}` were not applied", r.text()));
    }
    if d.game.unsaved() {
        if save_on_exit {
            let to = d.game.save_to().or(d.game.state_path()).map(str::to_string);
            match to {
                Some(path) => match d.game.save(Some(&path)) {
                    Ok(p) => said.push(format!("saved the state to {p}")),
                    Err(f) => said.push(format!(
                        "the state could not be saved: {}",
                        f.diags()
                            .first()
                            .map_or_else(|| "refused".to_string(), |e| e.message.clone())
                    )),
                },
                None => said.push("the state came from no file, so it was not saved".to_string()),
            }
        } else {
            said.push(
                "the changes to the state were not saved (--save-on-exit saves them)".to_string(),
            );
        }
    }
    if said.is_empty() {
        "Stopped: nothing was left unsaved.".to_string()
    } else {
        format!("Stopped: {}.", said.join("; "))
    }
}

/// Refuses what a page of another site could send: a request addressed to a host name
/// (not an IP address or `localhost` — a name another site could point at this machine)
/// and a body that is not JSON (a form another site's page could post without asking).
pub async fn only_this_machine_and_json(
    request: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    use axum::response::IntoResponse;
    let headers = request.headers();
    if let Some(host) = headers.get(axum::http::header::HOST) {
        let host = host.to_str().unwrap_or("");
        if !host_is_this_machine(host) {
            return Problem::one(
                StatusCode::FORBIDDEN,
                Diag::error(
                    Code::ServeRequest,
                    format!("this server answers only its own addresses, not `{host}`"),
                )
                .help("open the address `umpire serve` printed (an IP address, or localhost)"),
            )
            .into_response();
        }
    }
    let empty = headers
        .get(axum::http::header::CONTENT_LENGTH)
        .is_some_and(|v| v.as_bytes() == b"0");
    let has_body = !empty
        && (headers.contains_key(axum::http::header::CONTENT_LENGTH)
            || headers.contains_key(axum::http::header::TRANSFER_ENCODING));
    let json = headers
        .get(axum::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| {
            v.split(';')
                .next()
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
        });
    if has_body && !json {
        return Problem::one(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Diag::error(Code::ServeRequest, "the request's body is not sent as JSON")
                .help("send it with `Content-Type: application/json`"),
        )
        .into_response();
    }
    next.run(request).await
}

/// `127.0.0.1:7878`, `[::1]:7878`, `localhost:7878`, `192.168.1.20` — not a host name.
fn host_is_this_machine(host: &str) -> bool {
    let name = if let Some(rest) = host.strip_prefix('[') {
        rest.split(']').next().unwrap_or("")
    } else {
        host.rsplit_once(':').map_or(host, |(h, port)| {
            if port.bytes().all(|b| b.is_ascii_digit()) {
                h
            } else {
                host
            }
        })
    };
    name.parse::<std::net::IpAddr>().is_ok() || name.eq_ignore_ascii_case("localhost")
}
