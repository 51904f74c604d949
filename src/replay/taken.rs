//! A log's `undo`, `redo`, `drop` and `apply` lines checked against the game as
//! replayed: each must take back, do again, drop or apply exactly what it names — the
//! newest change, the change taken back last, the result whose effects wait — or the
//! log is not one a game wrote. And the numbers and ids a line carries checked for what they are.

use crate::game::{Change, Failure, Game};
use serde_json::{Map, Value as Json};
use std::collections::BTreeMap;

/// The log's number of each result the replay adjudicated: the replay's own number
/// ([`crate::game::Ruling::id`]) → the `result` its `expr` line gave. A log begun late
/// (`:log` after some results) numbers them as the game did, from where it had got to.
pub(super) type Numbers = BTreeMap<u64, u64>;

/// A line's `result`, if it has one: a result's number in its game, from 1.
///
/// Errors: it is anything else (`-1`, `"1"`, `1e300`, a number past 2^64 - 1).
pub(super) fn result_number(obj: &Map<String, Json>) -> Result<Option<u64>, String> {
    match obj.get("result") {
        None => Ok(None),
        Some(v) => match v.as_u64() {
            Some(n) if n >= 1 => Ok(Some(n)),
            _ => Err(format!(
                "its `result` is {v}, not the number of a result (a whole number from 1)"
            )),
        },
    }
}

/// A line's `game_id`, if it has one: 16 hex digits.
///
/// Errors: it is anything else.
pub(super) fn game_id(line: &Json) -> Result<(), String> {
    match line.get("game_id") {
        None => Ok(()),
        Some(Json::String(s)) if s.len() == 16 && s.bytes().all(|b| b.is_ascii_hexdigit()) => {
            Ok(())
        }
        Some(v) => Err(format!(
            "its `game_id` is {v}, not a game's id (16 hex digits, as text)"
        )),
    }
}

/// What a line says it takes back or does again: its words, and the result's number.
fn named(obj: &Map<String, Json>, key: &str) -> Result<(String, Option<u64>), String> {
    let what = obj
        .get(key)
        .and_then(Json::as_str)
        .ok_or(format!("its `{key}` is not the change in words (text)"))?;
    Ok((what.to_string(), result_number(obj)?))
}

/// `WHAT` and, for a result, ` (result N)`.
fn words(what: &str, n: Option<u64>) -> String {
    match n {
        Some(n) => format!("{what} (result {n})"),
        None => what.to_string(),
    }
}

/// A change as the log would name it: its words, and its result's number in the log.
fn as_logged(c: &Change, numbers: &Numbers) -> (String, Option<u64>) {
    let n = c
        .done
        .result()
        .map(|id| numbers.get(&id).copied().unwrap_or(0));
    (c.done.to_string(), n)
}

/// An `undo` line: it takes back the newest change, which it names.
///
/// Errors: the line is not an undo of the newest change, or there is none (the game is
/// as it started, or the change was made before the log began).
pub(super) fn undo(g: &mut Game, obj: &Map<String, Json>, numbers: &Numbers) -> Result<(), String> {
    let (what, n) = named(obj, "undo")?;
    let Some(newest) = g.history().last() else {
        return Err(format!(
            "`undo` of {}, but the game as replayed has nothing to take back: it is as it started (an undo never takes back the start of the game, nor a change made before the log began)",
            words(&what, n)
        ));
    };
    let (have, m) = as_logged(newest, numbers);
    if have != what || m != n {
        return Err(format!(
            "`undo` of {}, but the newest change in the game as replayed is {}: an undo takes back the newest change, and names it",
            words(&what, n),
            words(&have, m)
        ));
    }
    g.undo_anyway().map(|_| ()).map_err(said)
}

/// A `redo` line: it does again the change taken back last, which it names.
///
/// Errors: the line is not a redo of that change, or nothing taken back waits.
pub(super) fn redo(g: &mut Game, obj: &Map<String, Json>, numbers: &Numbers) -> Result<(), String> {
    let (what, n) = named(obj, "redo")?;
    let Some(next) = g.redoable() else {
        return Err(format!(
            "`redo` of {}, but nothing taken back in the game as replayed waits to be done again",
            words(&what, n)
        ));
    };
    let (have, m) = as_logged(next, numbers);
    if have != what || m != n {
        return Err(format!(
            "`redo` of {}, but the change taken back last in the game as replayed is {}: a redo does that one again, and names it",
            words(&what, n),
            words(&have, m)
        ));
    }
    g.redo().map(|_| ()).map_err(said)
}

/// A `drop` line: it drops the effects of the result whose effects wait, which it names.
///
/// Errors: the line names another result, or no result's effects wait.
pub(super) fn drop(g: &mut Game, obj: &Map<String, Json>, numbers: &Numbers) -> Result<(), String> {
    let (text, n) = named(obj, "drop")?;
    let what = format!("the effects of `{text}`");
    let Some(waiting) = g.unapplied() else {
        return Err(format!(
            "`drop` of {}, but no result's effects wait to be applied in the game as replayed",
            words(&what, n)
        ));
    };
    let have = format!("the effects of `{}`", waiting.text());
    let m = numbers.get(&waiting.id()).copied();
    if have != what || m != n {
        return Err(format!(
            "`drop` of {}, but the effects waiting in the game as replayed are {}",
            words(&what, n),
            words(&have, m)
        ));
    }
    g.drop_effects().map(|_| ()).map_err(said)
}

/// An `apply` line: it names the result whose effects it applies — the one the game
/// would apply (its words and its number). Checked before it is applied; when no
/// result waits, applying it fails and the replay says so as a difference.
///
/// Errors: the line names another result (its text or its number).
pub(super) fn apply(g: &Game, obj: &Map<String, Json>, numbers: &Numbers) -> Result<(), String> {
    let (text, n) = named(obj, "apply")?;
    let Some(pending) = g.pending() else {
        return Ok(());
    };
    let what = format!("the effects of `{text}`");
    let have = format!("the effects of `{}`", pending.text());
    let m = numbers.get(&pending.id()).copied();
    if have != what || m != n {
        return Err(format!(
            "`apply` of {}, but the effects an apply applies in the game as replayed are {}: an apply names the result whose effects it applies",
            words(&what, n),
            words(&have, m)
        ));
    }
    Ok(())
}

/// What the game said when it could not do what the line asks (the checks before make
/// it rare).
fn said(f: Failure) -> String {
    match (&f, f.diags().first()) {
        (_, Some(d)) => d.message.clone(),
        (Failure::Refused(r), None) => r.to_string(),
        _ => "the game could not do it".into(),
    }
}
