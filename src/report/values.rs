//! A logged result read back into the program's values, so that it prints in the
//! rulebook's words exactly as `umpire eval` printed it: a game log holds each value as
//! typed JSON ([`crate::render::to_json`]), and the question's type (the expression
//! checked again) or the state's declaration (an effect's path) says what it is.

use crate::adjudication::{Effect, Outcome};
use crate::program::{ExprKind, Program, Ty};
use crate::render::{effects_text, headline};
use crate::value::{Length, LengthUnit, Rational, Value};
use crate::Ruleset;
use serde_json::Value as Json;
use std::rc::Rc;

/// An exact number as the log writes it: a whole number, or `"7/4"`.
fn exact(j: &Json) -> Option<Rational> {
    if let Some(i) = j.as_i64() {
        return Some(Rational::from_integer(i));
    }
    let (n, d) = j.as_str()?.split_once('/')?;
    let (n, d) = (n.trim().parse::<i64>().ok()?, d.trim().parse::<i64>().ok()?);
    (d != 0).then(|| Rational::new(n, d))
}

/// The enum value named `name` of enum `e`.
fn enum_value(p: &Program, e: u16, name: &str) -> Option<Value> {
    let values = &p.enums.get(usize::from(e))?.values;
    let i = values.iter().position(|v| &*v.name == name)?;
    Some(Value::Enum(e, u16::try_from(i).ok()?))
}

/// A length as the log writes it: `{"inches": 7/4, "text": "1 3/4\""}`.
fn length(j: &Json) -> Option<Value> {
    let inches = exact(j.get("inches")?)?;
    let feet = j
        .get("text")
        .and_then(Json::as_str)
        .is_some_and(|t| t.contains('\''));
    let unit = if feet {
        LengthUnit::Feet
    } else {
        LengthUnit::Inches
    };
    Some(Value::Length(Length { inches, unit }))
}

/// The value `j` holds, read as a `ty`; `None` when it does not fit (a ruleset changed
/// since the game was logged).
pub fn read(p: &Program, ty: &Ty, j: &Json) -> Option<Value> {
    match ty {
        Ty::Int | Ty::Num => exact(j).map(Value::num),
        Ty::Length => length(j),
        Ty::Time => exact(j.get("moves")?).map(Value::Time),
        Ty::Minutes => exact(j.get("minutes")?).map(Value::Minutes),
        Ty::Bool => j.as_bool().map(Value::Bool),
        Ty::Text => j.as_str().map(|s| Value::Text(Rc::from(s))),
        Ty::Enum(e) => enum_value(p, *e, j.as_str()?),
        Ty::Record(shape) => {
            let m = j.as_object()?;
            let mut fields = Vec::with_capacity(shape.fields.len());
            for (name, fty) in &shape.fields {
                fields.push((name.clone(), read(p, fty, m.get(&**name)?)?));
            }
            Some(Value::Record(Rc::new(fields)))
        }
        Ty::Pair(t) => {
            let (a, b) = (read(p, t, j.get("first")?)?, read(p, t, j.get("second")?)?);
            Some(Value::Pair(Rc::new((a, b))))
        }
        Ty::Group(t) => {
            let m = j.as_object()?;
            let mut members = Vec::with_capacity(m.len());
            for (k, v) in m {
                members.push((Rc::from(k.as_str()), read(p, t, v)?));
            }
            Some(Value::Group(Rc::new(members)))
        }
        Ty::Never | Ty::Any => guess(p, j),
    }
}

/// A value whose type is not known, read by its shape: an enum value only when one enum
/// of the program has that name.
fn guess(p: &Program, j: &Json) -> Option<Value> {
    match j {
        Json::Bool(b) => Some(Value::Bool(*b)),
        Json::Number(_) => exact(j).map(Value::num),
        Json::String(s) => {
            let mut found = p.enums.iter().enumerate().filter_map(|(e, _)| {
                u16::try_from(e)
                    .ok()
                    .and_then(|e| enum_value(p, e, s.as_str()))
            });
            match (found.next(), found.next()) {
                (Some(v), None) => Some(v),
                _ => exact(j)
                    .map(Value::num)
                    .or_else(|| Some(Value::Text(Rc::from(s.as_str())))),
            }
        }
        Json::Object(m) if m.contains_key("inches") => length(j),
        Json::Object(m) if m.contains_key("moves") => exact(m.get("moves")?).map(Value::Time),
        Json::Object(m) if m.contains_key("minutes") && m.contains_key("text") => {
            exact(m.get("minutes")?).map(Value::Minutes)
        }
        Json::Object(m) if m.len() == 2 && m.contains_key("first") => {
            let (a, b) = (guess(p, m.get("first")?)?, guess(p, m.get("second")?)?);
            Some(Value::Pair(Rc::new((a, b))))
        }
        Json::Object(m) => {
            let mut fields = Vec::with_capacity(m.len());
            for (k, v) in m {
                fields.push((Rc::from(k.as_str()), guess(p, v)?));
            }
            Some(Value::Record(Rc::new(fields)))
        }
        Json::Null | Json::Array(_) => None,
    }
}

/// The declared type of the state field at `path` (`sides.a.free`).
fn path_type(p: &Program, path: &[String]) -> Ty {
    let Some(state) = p.state.and_then(|s| p.records.get(s as usize)) else {
        return Ty::Any;
    };
    let mut ty = Ty::Record(state.shape.clone());
    for step in path {
        ty = match ty {
            Ty::Record(shape) => match shape.fields.iter().find(|(n, _)| &**n == step) {
                Some((_, t)) => t.clone(),
                None => return Ty::Any,
            },
            Ty::Group(t) => *t,
            _ => return Ty::Any,
        };
    }
    ty
}

/// The logged effects as lines, as `umpire eval` prints them (`effect: PATH: FROM → TO`);
/// a value that does not fit the ruleset is shown as logged.
pub fn effects(p: &Program, logged: Option<&Json>) -> Vec<String> {
    let Some(list) = logged.and_then(Json::as_array) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for e in list {
        let path_text = e.get("path").and_then(Json::as_str).unwrap_or("?");
        let path: Vec<String> = path_text.split('.').map(str::to_string).collect();
        let ty = path_type(p, &path);
        let (from, to) = (e.get("from"), e.get("to"));
        let read_one = |v: Option<&Json>| v.and_then(|v| read(p, &ty, v));
        match (read_one(from), read_one(to)) {
            (Some(from), Some(to)) => {
                let effect = Effect { path, from, to };
                out.push(effects_text(p, &[effect]).trim_end().to_string());
            }
            _ => out.push(format!("effect: {path_text}: {} → {}", raw(from), raw(to))),
        }
    }
    out
}

/// A logged value as the log has it, when the ruleset cannot say what it is.
fn raw(v: Option<&Json>) -> String {
    match v {
        Some(Json::String(s)) => s.clone(),
        Some(v) => v.to_string(),
        None => "?".into(),
    }
}

/// Text from a logged object's key.
fn text(j: Option<&Json>, key: &str) -> Option<String> {
    j?.get(key).and_then(Json::as_str).map(str::to_string)
}

/// A logged result's first line, as `umpire eval` prints it: the value (an enum value
/// with the rulebook's sentence), `refused: …`, `not given in the source: …`, or the
/// error that stopped it. `ty` is the question's type, when it still checks.
pub fn headline_of(p: &Program, ty: &Ty, obj: &serde_json::Map<String, Json>) -> String {
    if let Some(v) = obj.get("value") {
        return match read(p, ty, v) {
            Some(v) => headline(p, &Outcome::Value(v)),
            None => raw(Some(v)),
        };
    }
    if let Some(r) = obj.get("refused") {
        let reason = text(Some(r), "reason").unwrap_or_default();
        let cite = text(Some(r), "cite");
        return headline(p, &Outcome::Refused { reason, cite });
    }
    if let Some(u) = obj.get("unspecified") {
        let what = text(Some(u), "what").unwrap_or_default();
        let cite = text(Some(u), "cite");
        return headline(p, &Outcome::NotGiven { what, cite });
    }
    if let Some(e) = obj.get("error") {
        let message = text(Some(e), "message").unwrap_or_default();
        return match text(Some(e), "code") {
            Some(code) => format!("error: {message} ({code})"),
            None => format!("error: {message}"),
        };
    }
    "no result".into()
}

/// The question `text` checked against the ruleset again: its type, and the members of
/// the state's groups it is about (`brigade.second_foot`, or `"a"` naming `sides.a`),
/// each by its record's `name` field where it has one, else by its key. `state` is the
/// state on the table as the log last gave it.
pub fn question(rules: &Ruleset, text: &str, state: Option<&Json>) -> (Ty, Vec<String>) {
    let Ok(q) = rules.question("<the game log>", text) else {
        return (Ty::Any, Vec::new());
    };
    let p = &rules.program;
    let groups = group_fields(p);
    let mut who: Vec<String> = Vec::new();
    let mut add = |group: &str, key: &str| {
        if let Some(name) = member_name(state, group, key).filter(|n| !who.contains(n)) {
            who.push(name);
        }
    };
    let mut stack = vec![&q.expr];
    while let Some(e) = stack.pop() {
        match &e.kind {
            // A default's expression is the ruleset's, not the question's.
            ExprKind::Fresh { .. } => continue,
            ExprKind::Field(base, key, _) => {
                if let ExprKind::State(i) = base.kind {
                    if let Some(g) = groups.get(i as usize).and_then(Option::as_deref) {
                        add(g, key);
                    }
                }
            }
            ExprKind::Value(Value::Text(t)) => {
                for g in groups.iter().flatten() {
                    add(g, t);
                }
            }
            _ => {}
        }
        let mut children = Vec::new();
        e.for_each_child(|c| children.push(c));
        // In the order written.
        stack.extend(children.into_iter().rev());
    }
    (q.ty, who)
}

/// A member of a group of the state by name: its record's `name` field where it has
/// one, else its key; `None` when the state has no such member.
fn member_name(state: Option<&Json>, group: &str, key: &str) -> Option<String> {
    let member = state?.get(group)?.get(key)?;
    let name = member.get("name").and_then(Json::as_str).unwrap_or(key);
    Some(name.to_string())
}

/// The members of the state's groups that logged effects change (`sides.a.free`: `a`),
/// by name, in order.
pub fn changed(p: &Program, effects: Option<&Json>, state: Option<&Json>) -> Vec<String> {
    let groups = group_fields(p);
    let mut who: Vec<String> = Vec::new();
    for e in effects.and_then(Json::as_array).into_iter().flatten() {
        let path = e.get("path").and_then(Json::as_str).unwrap_or("");
        let mut steps = path.split('.');
        let (Some(group), Some(key)) = (steps.next(), steps.next()) else {
            continue;
        };
        if !groups.iter().flatten().any(|g| g == group) {
            continue;
        }
        if let Some(name) = member_name(state, group, key).filter(|n| !who.contains(n)) {
            who.push(name);
        }
    }
    who
}

/// For each field of the state, its name when it is a group (`brigade`, `sides`).
fn group_fields(p: &Program) -> Vec<Option<String>> {
    let Some(state) = p.state.and_then(|s| p.records.get(s as usize)) else {
        return Vec::new();
    };
    state
        .shape
        .fields
        .iter()
        .map(|(n, t)| matches!(t, Ty::Group(_)).then(|| n.to_string()))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_read_back_print_as_eval_prints_them() {
        let rules = Ruleset::load("furious_reason").expect("bundled");
        let (ty, who) = question(
            &rules,
            "manoeuvre(brigade.second_foot)",
            Some(&serde_json::json!({"brigade": {"second_foot": {"grade": "line"}}})),
        );
        assert_eq!(who, ["second_foot"]);
        let obj = serde_json::json!({"value": "tardy"});
        let obj = obj.as_object().expect("an object");
        assert_eq!(
            headline_of(&rules.program, &ty, obj),
            "Tardy — Unit may move at 1/2 Full Move Rate"
        );
    }

    #[test]
    fn a_record_with_a_name_is_named_by_it_and_text_arguments_name_members() {
        let rules = Ruleset::load("little_wars").expect("bundled");
        let state = serde_json::json!({"sides": {"a": {"name": "Red army"}, "b": {}}});
        let (_, who) = question(
            &rules,
            "melee_on_table(attacker: \"a\", defender: \"b\", attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)",
            Some(&state),
        );
        assert_eq!(who, ["Red army", "b"]);
    }

    #[test]
    fn lengths_fractions_and_unknown_shapes() {
        let p = Program::default();
        let l = read(
            &p,
            &Ty::Length,
            &serde_json::json!({"inches": "7/4", "text": "1 3/4\""}),
        );
        assert_eq!(
            l.map(|v| crate::render::show(&p, &v)).as_deref(),
            Some("1 3/4\"")
        );
        assert_eq!(read(&p, &Ty::Num, &serde_json::json!("1/0")), None);
        assert_eq!(read(&p, &Ty::Int, &serde_json::json!("x")), None);
    }
}
