//! The Odds screen's API: a question's exact distribution against the state on the
//! table, as `umpire prob RULESET 'Q' --state …` answers it — the chart (`--format
//! svg`), the text report and the JSON value — once, or for each value of a sweep.
//! Any page may ask; nothing at the table changes.

use super::api::{body, failure, question_text};
use super::problem::Problem;
use super::App;
use crate::prob::{report, svg};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value as JsonValue};

/// The routes.
pub fn routes() -> Router<App> {
    Router::new().route("/api/odds", post(odds))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OddsAsk {
    question: String,
    /// `NAME=A..B` or `NAME=v1,v2,...`, as `umpire prob --sweep`.
    #[serde(default)]
    sweep: Option<String>,
}

/// `POST /api/odds`: `{"svg", "text", "json"}` of the question (and the sweep).
async fn odds(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<JsonValue>, Problem> {
    let ask: OddsAsk = body(bytes)?;
    let question = question_text(&ask.question)?;
    let sweep = match ask.sweep.as_deref().map(str::trim) {
        None | Some("") => None,
        Some(spec) => {
            question_text(spec)?;
            Some(
                crate::prob::sweep::parse(spec)
                    .map_err(|d| Problem::of(axum::http::StatusCode::BAD_REQUEST, &[d], None))?,
            )
        }
    };
    let answer = app
        .desk
        .ask_long(move |d| {
            let q = question.as_str();
            match &sweep {
                None => {
                    let dist = d.game.odds(q).map_err(|f| failure(d, f))?;
                    let p = d.game.program();
                    Ok(json!({
                        "svg": svg::chart(p, q, &dist),
                        "text": report::text(p, q, &dist),
                        "json": report::json(p, q, &dist),
                    }))
                }
                Some(s) => {
                    let rows = d.game.sweep(s, q).map_err(|f| failure(d, f))?;
                    let p = d.game.program();
                    Ok(json!({
                        "svg": svg::sweep_chart(p, q, &s.name, &rows),
                        "text": report::sweep_text(p, q, &s.name, &rows),
                        "json": report::sweep_json(p, q, &s.name, &rows),
                    }))
                }
            }
        })
        .await?;
    Ok(Json(answer))
}
