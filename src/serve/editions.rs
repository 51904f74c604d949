//! The Editions screen's API: the ruleset in use (the house rule) beside the ruleset it
//! `extends` (the base) — what changed in the text (`umpire diff BASE HOUSE`), each
//! changed table's rows under both with the rows that differ, and a question's odds
//! under both as `umpire diff --scenario … --format svg` draws them.
//!
//! The base is only ever the one the house rule's own `extends` names (a bundled
//! ruleset, or a file beside the house rule), never a path from a request.

use super::api::{body, question_text};
use super::desk::Desk;
use super::problem::Problem;
use super::App;
use crate::diagnostic::{Code, Diag};
use crate::diff::{self, Change, Compared};
use crate::game::Source;
use crate::prob::{self, Distribution, Job, Settings};
use crate::program::{Program, TableInfo};
use crate::span::{FileId, SourceMap};
use crate::syntax::ast::Item;
use crate::Ruleset;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value as JsonValue};

/// The routes.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/api/editions", get(editions))
        .route("/api/editions/odds", post(editions_odds))
}

/// `GET /api/editions`.
async fn editions(State(app): State<App>) -> Result<Json<JsonValue>, Problem> {
    let answer = app
        .desk
        .ask(|d| {
            let house = d.game.source().name().to_string();
            let Some((base_name, base)) = base_of(d)? else {
                return Ok(json!({ "base": null, "house": house, "changes": [], "tables": [] }));
            };
            let r = d.game.ruleset();
            let changes = diff::structural(&base, r);
            let tables = changed_tables(
                &changes,
                (&base.program, &base.sources),
                (&r.program, &r.sources),
            );
            let changes: Vec<JsonValue> = changes
                .iter()
                .map(|c| json!({ "what": c.what, "detail": c.detail }))
                .collect();
            Ok(json!({ "base": base_name, "house": house, "changes": changes, "tables": tables }))
        })
        .await?;
    Ok(Json(answer))
}

/// The name the house rule's `extends` gives its base, and the base read (within the
/// game's limits); `None` when the ruleset in use extends nothing.
///
/// Errors: the base cannot be read (as when the house rule was read, it should be).
fn base_of(d: &Desk) -> Result<Option<(String, Ruleset)>, Problem> {
    let r = d.game.ruleset();
    let (main, folder) = match d.game.source() {
        Source::File(path) => (
            path.clone(),
            std::path::Path::new(path)
                .parent()
                .map(std::path::Path::to_path_buf),
        ),
        Source::Bundled(name) => (format!("bundled:{name}"), None),
        Source::Nothing => return Ok(None),
    };
    let Some(name) = extends_of(&r.sources, &main) else {
        return Ok(None);
    };
    let load = if crate::bundled::source(&name).is_some() {
        name.clone()
    } else {
        match folder.filter(|f| !f.as_os_str().is_empty()) {
            Some(f) => f.join(&name).to_string_lossy().into_owned(),
            None => name.clone(),
        }
    };
    let base = Ruleset::load_with(&load, &r.limits)
        .map_err(|ds| Problem::of(StatusCode::CONFLICT, &ds.0, None))?;
    Ok(Some((name, base)))
}

/// What the `extends` of the file `main` (one of `sources`) names.
fn extends_of(sources: &SourceMap, main: &str) -> Option<String> {
    let (i, file) = sources
        .files()
        .iter()
        .enumerate()
        .find(|(_, f)| f.name == main)?;
    let id = FileId(u32::try_from(i).ok()?);
    let tree = crate::syntax::parse_file(id, &file.text).ok()?;
    tree.items.iter().find_map(|item| match item {
        Item::Extends(s) => Some(s.node.clone()),
        _ => None,
    })
}

/// A program and the sources its spans point into.
type Side<'a> = (&'a Program, &'a SourceMap);

/// Each table the changes name (`table NAME`), with its rows under both.
fn changed_tables(changes: &[Change], old: Side<'_>, new: Side<'_>) -> Vec<JsonValue> {
    let mut names: Vec<&str> = Vec::new();
    for c in changes {
        if let Some(name) = c.what.strip_prefix("table ") {
            if !names.contains(&name) {
                names.push(name);
            }
        }
    }
    names
        .into_iter()
        .map(|name| {
            let find = |p: &'_ Program| p.tables.iter().find(|t| &*t.sig.name == name).cloned();
            let (t_old, t_new) = (find(old.0), find(new.0));
            let shape = t_new.as_ref().or(t_old.as_ref());
            let mut columns: Vec<String> = shape.map_or_else(Vec::new, |t| {
                t.sig.params[..t.keys.min(t.sig.params.len())]
                    .iter()
                    .map(|p| p.name.to_string())
                    .collect()
            });
            columns.push("→".to_string());
            let rows_old = t_old.as_ref().map_or_else(Vec::new, |t| rows(old, t));
            let rows_new = t_new.as_ref().map_or_else(Vec::new, |t| rows(new, t));
            let keys = columns.len() - 1;
            json!({
                "name": name,
                "columns": columns,
                "changed_old": differing(&rows_old, &rows_new, keys),
                "changed_new": differing(&rows_new, &rows_old, keys),
                "old": rows_old,
                "new": rows_new,
            })
        })
        .collect()
}

/// The indices of the rows of `these` that `those` lacks: no row with the same keys (as
/// written), or one with another cell.
fn differing(these: &[Vec<String>], those: &[Vec<String>], keys: usize) -> Vec<usize> {
    these
        .iter()
        .enumerate()
        .filter(|(_, row)| {
            let same_keys = those.iter().find(|o| o.get(..keys) == row.get(..keys));
            same_keys.is_none_or(|o| o.get(keys) != row.get(keys))
        })
        .map(|(i, _)| i)
        .collect()
}

/// A table's rows as cells: each key's pattern as written, then the cell as written.
fn rows((p, sources): Side<'_>, t: &TableInfo) -> Vec<Vec<String>> {
    let squash = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let keys = t.keys;
    t.rows
        .iter()
        .map(|row| {
            let mut cells = key_cells(
                sources,
                row,
                keys,
                &t.sig.params[..keys.min(t.sig.params.len())],
            );
            let cell = squash(sources.snippet(row.cell.span));
            let cell = if cell.is_empty() {
                cell_words(p, row)
            } else {
                cell
            };
            cells.push(cell);
            cells
        })
        .collect()
}

/// A cell with no text of its own (made by the checker): said in words.
fn cell_words(_p: &Program, row: &crate::program::RowInfo) -> String {
    match &row.cell.kind {
        crate::program::ExprKind::NotGiven { .. } => "not given".into(),
        crate::program::ExprKind::Refuse { .. } => ".".into(),
        _ => String::new(),
    }
}

/// A row's keys as written: its patterns split at the `|`s between keys (outside texts),
/// the pattern of its `column` block put in at that key's place.
fn key_cells(
    sources: &SourceMap,
    row: &crate::program::RowInfo,
    keys: usize,
    params: &[crate::program::ParamInfo],
) -> Vec<String> {
    let mut parts = split_keys(&row.text);
    if let Some(col) = &row.column {
        let at = column_key(sources, row)
            .and_then(|k| params.iter().position(|p| *p.name == *k))
            .unwrap_or(0)
            .min(parts.len());
        parts.insert(at, col.to_string());
    }
    if parts.len() != keys {
        // A grid's row (`roll 2-3, odds 2`) or one read otherwise: its words whole.
        let mut whole = vec![row.quoted().trim_matches('`').to_string()];
        whole.resize(keys.max(1), String::new());
        return whole;
    }
    parts
}

/// `a | b` → `["a", "b"]`, a `|` inside a text not counted.
fn split_keys(text: &str) -> Vec<String> {
    let mut parts = Vec::new();
    let (mut from, mut in_text) = (0, false);
    for (i, c) in text.char_indices() {
        match c {
            '"' if !text[..i].ends_with(|p: char| p.is_ascii_digit()) => in_text = !in_text,
            '|' if !in_text => {
                parts.push(text[from..i].trim().to_string());
                from = i + 1;
            }
            _ => {}
        }
    }
    parts.push(text[from..].trim().to_string());
    parts
}

/// The key a row's `column KEY = …` block fixes: the last `column` header before it.
fn column_key(sources: &SourceMap, row: &crate::program::RowInfo) -> Option<String> {
    let file = sources.get(row.span.file)?;
    let before = file.text.get(..row.span.start as usize)?;
    let header = &before[before.rfind("column ")? + "column ".len()..];
    let key = header.split('=').next()?.trim();
    Some(key.to_string())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OddsAsk {
    question: String,
}

/// `POST /api/editions/odds`: the question's odds under the base and the house rule.
async fn editions_odds(
    State(app): State<App>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<JsonValue>, Problem> {
    let ask: OddsAsk = body(bytes)?;
    let question = question_text(&ask.question)?;
    let answer = app
        .desk
        .ask_long(move |d| {
            let Some((base_name, base)) = base_of(d)? else {
                return Err(Problem::one(
                    StatusCode::CONFLICT,
                    Diag::error(
                        Code::ServeRefused,
                        "the ruleset in use extends no other, so there is no base to compare it with",
                    )
                    .help("serve a house rule (a ruleset file that says `extends \"…\"`) to compare it with its base"),
                ));
            };
            let house_name = d.game.source().name().to_string();
            let r = d.game.ruleset();
            let compared = compare(&base, r, &question)?;
            // The question fails under the rules in use (a limit, the dice): that is its
            // answer, never a comparison that finds "no differences".
            if let Some(Err(e)) = compared.first().map(|c| &c.new) {
                return Err(Problem::of(StatusCode::BAD_REQUEST, std::slice::from_ref(e), Some(&r.sources)));
            }
            let (pa, pb) = (&base.program, &r.program);
            let text = diff::text_report(&base_name, &house_name, pa, pb, &[], &compared);
            let svg = crate::diff::chart(&base_name, &house_name, pa, pb, &compared);
            Ok(json!({ "svg": svg, "text": text }))
        })
        .await?;
    Ok(Json(answer))
}

/// The question's odds under the base (the table's state read into it, the fields the
/// house rule adds read as absent) and under the house rule, as `umpire diff` compares
/// a scenario's adjudication (seed 0 where the odds are sampled).
///
/// Errors: the question does not check under the house rule (a 400 pointing into it).
fn compare(base: &Ruleset, house: &Ruleset, question: &str) -> Result<Vec<Compared>, Problem> {
    let settings = Settings {
        seed: Some(0),
        ..Settings::default()
    };
    let q = house
        .question("<question>", question)
        .map_err(|ds| Problem::of(StatusCode::BAD_REQUEST, &ds.0, None))?;
    let new = prob::odds(&Job::of(house, &q), &settings);
    let old = base_odds(base, house, question, &settings);
    Ok(vec![Compared {
        name: "the question".to_string(),
        expr: question.to_string(),
        old,
        new,
        absent: Vec::new(),
        at: Vec::new(),
    }])
}

/// The odds under the base, the table's state read into it.
fn base_odds(
    base: &Ruleset,
    house: &Ruleset,
    question: &str,
    settings: &Settings,
) -> Result<Distribution, Diag> {
    let mut base = base.clone();
    if let Some(state) = &house.state {
        let text = crate::state::to_json(&house.program, state);
        let added = diff::added_fields(&base.program, &house.program);
        let read = crate::state::load_text_reading_absent(
            &base.program,
            &base.sources,
            "the table's state.json",
            text,
            &added,
        )
        .map_err(|ds| first(ds.0, "the base ruleset rejects the table's state"))?;
        base.state = Some(read);
    }
    let q = base
        .question("<question>", question)
        .map_err(|ds| first(ds.0, "the question does not check under the base ruleset"))?;
    prob::odds(&Job::of(&base, &q), settings)
}

fn first(ds: Vec<Diag>, otherwise: &str) -> Diag {
    ds.into_iter()
        .next()
        .unwrap_or_else(|| Diag::error(Code::DiffExpr, otherwise))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_split_at_bars_outside_texts() {
        assert_eq!(
            split_keys("line_square | infantry"),
            ["line_square", "infantry"]
        );
        assert_eq!(split_keys("a, b | \"x|y\""), ["a, b", "\"x|y\""]);
        assert_eq!(split_keys("7 or more"), ["7 or more"]);
    }

    #[test]
    fn a_row_differs_when_its_keys_are_missing_or_its_cell_changed() {
        let row = |k: &str, v: &str| vec![k.to_string(), v.to_string()];
        let old = vec![row("a", "1"), row("b", "2"), row("c", "3")];
        let new = vec![row("a", "1"), row("b", "9"), row("d", "4")];
        assert_eq!(differing(&old, &new, 1), [1, 2]);
        assert_eq!(differing(&new, &old, 1), [1, 2]);
    }
}
