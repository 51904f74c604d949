//! The game as the page shows it, in JSON: the table (the roster, the clock, the
//! questions a unit can be asked, the last result, what undo and redo would do) and a
//! result (its headline in the rulebook's words, the dice and who rolled them, the
//! modified roll, the effects, the explanation with each step's citation).

use super::desk::Desk;
use crate::adjudication::{Adjudication, Roll};
use crate::game::{DiceMode, Game};
use crate::program::{Program, Ty};
use crate::render::json::trace_json;
use crate::render::{effects_text, explain, headline, report_text_marked, show};
use crate::value::Value;
use serde_json::{json, Value as Json};

/// The table, as `GET /api/table` answers it; `can_change` says whether the page
/// asking holds the umpire's token.
pub fn table(desk: &Desk, can_change: bool) -> Json {
    let game = &desk.game;
    let p = game.program();
    let (clock, roster) = game
        .state()
        .map_or((Vec::new(), Vec::new()), |s| state_view(p, s));
    let history: Vec<String> = game.history().iter().map(|c| c.done.to_string()).collect();
    json!({
        "version": desk.version,
        "can_change": can_change,
        "ruleset": {
            "title": p.title.clone().unwrap_or_else(|| game.source().name().to_string()),
            "source": game.source().name(),
            "cite": p.cite.as_deref(),
        },
        "state_file": game.state_path(),
        "save_to": game.save_to(),
        "unsaved": game.unsaved(),
        "clock": clock,
        "roster": roster,
        "questions": questions_of(desk),
        "last": game.last().map(|r| {
            let mut j = ruling(p, r.adjudication(), r.text(), &[]);
            j["id"] = json!(r.id());
            // `last` is a copy of the result as adjudicated: `apply` marks the one
            // pending, so a result is applied when either says so.
            let applied = r.applied()
                || game
                    .pending()
                    .is_some_and(|p| p.id() == r.id() && p.applied());
            j["applied"] = json!(applied);
            j
        }),
        "unapplied": game.unapplied().map(|r| r.text().to_string()),
        "undo": game.history().last().map(|c| c.done.to_string()),
        "redo": game.redoable().map(|c| c.done.to_string()),
        "history": history,
        "dice": dice_words(game, can_change),
        "rules_deferred": desk.deferred,
    })
}

/// Who rolls; the seed only to the umpire's page (a player who knew it could foretell
/// every roll of umpire's).
fn dice_words(game: &Game, umpire: bool) -> String {
    match (game.dice(), game.dice().seed()) {
        (DiceMode::Table, _) => "the players roll".to_string(),
        (DiceMode::Seeded(_), Some(seed)) if umpire => format!("umpire rolls (seed {seed})"),
        (DiceMode::Seeded(_), _) => "umpire rolls".to_string(),
    }
}

/// A result as JSON: the question, the headline, the text `umpire eval` prints, each
/// roll (who rolled each face, the modified roll), the effects, the explanation.
/// `umpire` says how many faces of each roll umpire rolled (empty: none marked).
pub fn ruling(p: &Program, a: &Adjudication, question: &str, umpire: &[usize]) -> Json {
    let rolls: Vec<Json> = a
        .rolls
        .iter()
        .enumerate()
        .map(|(i, r)| roll(r, umpire.get(i).copied().unwrap_or(0)))
        .collect();
    let effects: Vec<String> = effects_text(p, &a.effects)
        .lines()
        .map(|l| l.trim_start_matches("effect: ").to_string())
        .collect();
    json!({
        "question": question,
        "headline": headline(p, &a.outcome),
        "text": report_text_marked(p, a, umpire),
        "rolls": rolls,
        "effects": effects,
        "applied": false,
        "explanation": a.trace.as_ref().map(|t| explain(p, t)),
        "trace": a.trace.as_ref().map(|t| trace_json(p, t)),
    })
}

fn roll(r: &Roll, by_umpire: usize) -> Json {
    let modifiers: Vec<String> = r
        .modifiers
        .iter()
        .map(|m| show(&Program::default(), &Value::num(*m)))
        .collect();
    json!({
        "dice": r.dice,
        "name": r.name,
        "faces": r.faces,
        "total": r.total,
        "modifiers": modifiers,
        "modified": r.modified.map(|m| show(&Program::default(), &Value::num(m))),
        "by_umpire": by_umpire,
    })
}

/// The state's scalars (the clock: `turn = 3`) and its units: each member of a group
/// of records (`brigade.second_foot`), and each record field (`sides.a`).
fn state_view(p: &Program, state: &Value) -> (Vec<Json>, Vec<Json>) {
    let mut clock = Vec::new();
    let mut roster = Vec::new();
    let Value::Record(fields) = state else {
        return (clock, roster);
    };
    for (name, v) in fields.iter() {
        match v {
            Value::Group(members) => {
                for (key, m) in members.iter() {
                    if let Value::Record(unit) = m {
                        let path = member_path(name, key);
                        roster.push(unit_json(p, name, key, &path, unit));
                    }
                }
            }
            Value::Record(unit) => roster.push(unit_json(p, "", name, name, unit)),
            other => clock.push(json!({ "name": &**name, "value": show(p, other) })),
        }
    }
    (clock, roster)
}

/// `brigade.second_foot`, or `brigade["2nd foot"]` where the name is not a plain word.
fn member_path(group: &str, key: &str) -> String {
    if crate::names::is_name(key) {
        format!("{group}.{key}")
    } else {
        format!("{group}[{}]", serde_json::Value::from(key))
    }
}

/// A unit: its facts are the fields that say something — not a `false` flag, not
/// a field at its default, not an empty text.
fn unit_json(
    p: &Program,
    group: &str,
    key: &str,
    path: &str,
    fields: &[(std::rc::Rc<str>, Value)],
) -> Json {
    let record = p.records.iter().find(|r| {
        r.shape
            .fields
            .iter()
            .map(|f| &f.0)
            .eq(fields.iter().map(|f| &f.0))
    });
    let facts: Vec<Json> = fields
        .iter()
        .enumerate()
        .filter(|(i, (_, v))| {
            let default = record.and_then(|r| r.default_values.get(*i).cloned().flatten());
            !matches!(v, Value::Bool(false)) && default.as_ref() != Some(v)
        })
        .filter(|(_, (_, v))| !matches!(v, Value::Text(t) if t.is_empty()))
        .map(|(_, (n, v))| json!({ "name": &**n, "value": show(p, v) }))
        .collect();
    json!({
        "group": group,
        "key": key,
        "path": path,
        "type": record.map(|r| r.name.as_str()),
        "facts": facts,
    })
}

/// The questions the page offers for the program in use, worked out once for it.
fn questions_of(desk: &Desk) -> Json {
    let program = &desk.game.ruleset().program;
    let mut kept = desk.questions.borrow_mut();
    match &*kept {
        Some((for_program, q)) if std::rc::Rc::ptr_eq(for_program, program) => q.clone(),
        _ => {
            let q = Json::from(questions(program));
            *kept = Some((program.clone(), q.clone()));
            q
        }
    }
}

/// The questions the page offers: every rule, table and modifier list, with how a
/// unit is given to it (`path`: its first parameter is a record; `key`: a `Text`,
/// the unit's name) and whether it may change the state.
fn questions(p: &Program) -> Vec<Json> {
    let mut out = Vec::new();
    for r in &p.rules {
        out.push(question(p, "rule", &r.sig, None, Some(&r.body)));
    }
    for t in &p.tables {
        out.push(question(p, "table", &t.sig, Some(t.keys), None));
    }
    for m in &p.modifiers {
        out.push(question(p, "modifiers", &m.sig, None, None));
    }
    out
}

fn question(
    p: &Program,
    kind: &str,
    sig: &crate::program::Signature,
    keys: Option<usize>,
    body: Option<&crate::program::Expr>,
) -> Json {
    let unit = match sig.params.first().map(|param| &param.ty) {
        Some(Ty::Record(_)) => Some("path"),
        Some(Ty::Text) => Some("key"),
        _ => None,
    };
    let params: Vec<Json> = sig
        .params
        .iter()
        .map(|param| {
            json!({
                "name": &*param.name,
                "type": crate::program::param_text(Some(p), param),
                "optional": param.has_default,
            })
        })
        .collect();
    json!({
        "name": &*sig.name,
        "kind": kind,
        "signature": crate::program::signature_text(p, kind, sig, keys),
        "cite": sig.cite.as_deref(),
        "unit": unit,
        "params": params,
        "changes_state": body.is_some_and(|b| crate::game::may_change_state(p, b)),
    })
}
