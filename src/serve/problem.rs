//! What a failing request answers: a status and `{"error": [DIAGNOSTIC, ...]}`, each
//! diagnostic with its code, message, help, the text a terminal draws (the caret under
//! the span) and its labels placed by file, line and column where the file is known.

use crate::diagnostic::{Code, Diag, Diags};
use crate::span::SourceMap;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value as Json};

/// A request that failed: the status and the diagnostics it answers with.
#[derive(Debug)]
pub struct Problem {
    /// 400 the request is wrong, 403 no token, 404, 409 refused as things stand, 413.
    pub status: StatusCode,
    /// The diagnostics, already as JSON.
    pub errors: Vec<Json>,
}

impl Problem {
    /// A problem of diagnostics, their labels placed in `sources` where they point there.
    pub fn of(status: StatusCode, diags: &[Diag], sources: Option<&SourceMap>) -> Problem {
        Problem {
            status,
            errors: diags.iter().map(|d| diag_json(d, sources)).collect(),
        }
    }

    /// A problem of one diagnostic.
    pub fn one(status: StatusCode, diag: Diag) -> Problem {
        Problem::of(status, &[diag], None)
    }

    /// A request the server cannot read, with why (400).
    pub fn bad_request(code: Code, message: impl Into<String>) -> Problem {
        Problem::one(StatusCode::BAD_REQUEST, Diag::error(code, message))
    }

    /// The game's thread is gone (it stopped, or the server is stopping).
    pub fn gone() -> Problem {
        Problem::one(
            StatusCode::SERVICE_UNAVAILABLE,
            Diag::error(Code::ServeRequest, "the game is not being served any more")
                .help("the server is stopping; start `umpire serve` again"),
        )
    }
}

impl From<Diags> for Problem {
    fn from(ds: Diags) -> Problem {
        Problem::of(StatusCode::BAD_REQUEST, &ds.0, None)
    }
}

impl IntoResponse for Problem {
    fn into_response(self) -> Response {
        (self.status, axum::Json(json!({ "error": self.errors }))).into_response()
    }
}

/// A diagnostic as JSON: `code`, `message`, `help`, `rendered` (drawn as the terminal
/// draws it, without colour), `labels` (`file`, `line`, `column` where its file is one
/// of `sources`; `start` and `end` as byte offsets; `text`), `warning`.
pub fn diag_json(d: &Diag, sources: Option<&SourceMap>) -> Json {
    let labels: Vec<Json> = d
        .labels
        .iter()
        .map(|(span, text)| {
            let mut label = json!({ "start": span.start, "end": span.end, "text": text });
            if let Some(file) = sources.and_then(|s| s.get(span.file)) {
                let (start, _) = file.original_span(*span);
                let original: &str = &file.original;
                let before = original.get(..start).unwrap_or(original);
                let line = before.matches('\n').count() + 1;
                let line_start = before.rfind('\n').map_or(0, |i| i + 1);
                let column = before
                    .get(line_start..)
                    .map_or(1, |s| s.chars().count() + 1);
                label["file"] = json!(file.name);
                label["line"] = json!(line);
                label["column"] = json!(column);
            }
            label
        })
        .collect();
    let mut out = json!({
        "code": d.code.to_string(),
        "message": d.message,
        "rendered": crate::diagnostic::render(d, false),
        "labels": labels,
        "warning": d.warning,
    });
    if let Some(h) = &d.help {
        out["help"] = json!(h);
    }
    out
}
