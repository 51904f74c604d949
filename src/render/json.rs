//! Results as typed JSON, for programs: values in one shape everywhere (the `value` of
//! an adjudication, an argument in its trace, an effect), and the trace as objects with
//! a `kind`.

use super::{named, params, reading, table_row};
use crate::adjudication::{Adjudication, Arg, Effect, Gave, Outcome, Stop, TraceNode};
use crate::program::Program;
use crate::value::{Length, Moves, Rational, RealMinutes, Value};
use serde_json::{json, Map, Value as Json};

fn exact(r: &Rational) -> Json {
    if r.is_integer() {
        json!(r.numer())
    } else {
        json!(format!("{}/{}", r.numer(), r.denom()))
    }
}

/// A value as JSON: integers as numbers, other exact numbers as strings (`"7/4"`),
/// booleans, enum values as their names, records as objects, lengths as
/// `{ "inches": 7/4, "text": "1 3/4\"" }`, time as `{ "moves": ..., "text": ... }`,
/// pairs as `{ "first": ..., "second": ... }`.
pub fn to_json(p: &Program, v: &Value) -> Json {
    match v {
        Value::Int(i) => json!(i),
        Value::Frac(r) => exact(r),
        Value::Length(l) => json!({ "inches": exact(&l.inches), "text": Length::to_string(l) }),
        Value::Time(t) => json!({ "moves": exact(t), "text": Moves(*t).to_string() }),
        Value::Minutes(t) => json!({ "minutes": exact(t), "text": RealMinutes(*t).to_string() }),
        Value::Bool(b) => json!(b),
        Value::Text(t) => json!(&**t),
        Value::Enum(e, i) => json!(p.enum_value(*e, *i).map_or("?", |v| &*v.name)),
        Value::Record(fields) | Value::Group(fields) => {
            let mut m = Map::new();
            for (n, fv) in fields.iter() {
                m.insert(n.to_string(), to_json(p, fv));
            }
            Json::Object(m)
        }
        Value::Pair(pair) => json!({ "first": to_json(p, &pair.0), "second": to_json(p, &pair.1) }),
    }
}

/// An effect: `{"path": "units.old_guard.men", "from": 20, "to": 13}`.
fn effect_json(p: &Program, e: &Effect) -> Json {
    json!({ "path": e.path_text(), "from": to_json(p, &e.from), "to": to_json(p, &e.to) })
}

/// The adjudication as one JSON object: exactly one of `value`, `refused`, `unspecified`;
/// then `rolls`; `seed` when seeded dice were rolled; `trace` when asked for.
pub fn adjudication_json(p: &Program, a: &Adjudication) -> Json {
    let mut m = Map::new();
    match &a.outcome {
        Outcome::Value(v) => {
            m.insert("value".into(), to_json(p, v));
        }
        Outcome::Refused { reason, cite } => {
            m.insert("refused".into(), json!({ "reason": reason, "cite": cite }));
        }
        Outcome::NotGiven { what, cite } => {
            m.insert("unspecified".into(), json!({ "what": what, "cite": cite }));
        }
    }
    m.insert("rolls".into(), json!(a.rolls));
    if !a.effects.is_empty() {
        let effects: Vec<Json> = a.effects.iter().map(|e| effect_json(p, e)).collect();
        m.insert("effects".into(), Json::Array(effects));
    }
    if let Some(seed) = a.seed {
        m.insert("seed".into(), json!(seed));
    }
    if let Some(t) = &a.trace {
        m.insert("trace".into(), trace_json(p, t));
    }
    Json::Object(m)
}

/// The trace as a JSON array of steps, each an object with a `kind`.
pub fn trace_json(p: &Program, trace: &[TraceNode]) -> Json {
    Json::Array(trace.iter().map(|n| node_json(p, n)).collect())
}

/// A traced call's arguments: `[{"name": "order", "value": "disorder"}, ...]`, with
/// `"default": true` for one left to its default.
fn args_json(p: &Program, node: &TraceNode, args: &[Arg]) -> Json {
    Json::Array(
        named(params(p, node), args)
            .map(|(name, a)| {
                let mut m = Map::new();
                m.insert("name".into(), json!(name));
                if a.left_out {
                    // A needed parameter left out: no value.
                    m.insert("value".into(), Json::Null);
                    m.insert("not_given".into(), json!(true));
                    return Json::Object(m);
                }
                m.insert("value".into(), to_json(p, &a.value));
                if a.default {
                    m.insert("default".into(), json!(true));
                }
                Json::Object(m)
            })
            .collect(),
    )
}

/// What a traced call gave, as the adjudication says it: `result` (a value), `refused`,
/// `unspecified`, or `error: true`.
fn put_gave(p: &Program, g: &Gave, m: &mut Map<String, Json>) {
    match g {
        Ok(v) => m.insert("result".into(), to_json(p, v)),
        Err(Stop::Refused { reason, cite }) => m.insert(
            "refused".into(),
            json!({ "reason": &**reason, "cite": cite.as_deref() }),
        ),
        Err(Stop::NotGiven { what, cite }) => m.insert(
            "unspecified".into(),
            json!({ "what": &**what, "cite": cite.as_deref() }),
        ),
        Err(Stop::Error) => m.insert("error".into(), json!(true)),
    };
}

/// `cite`, when there is one.
fn put_cite<S: AsRef<str>>(cite: Option<S>, m: &mut Map<String, Json>) {
    if let Some(c) = cite {
        m.insert("cite".into(), json!(c.as_ref()));
    }
}

/// A table step's `name`, `args`, `row`, `column` (for a row in a column block) and
/// `cite`.
fn table_json(p: &Program, (table, row): (u32, u32), args: Json, m: &mut Map<String, Json>) {
    let found = table_row(p, table, row);
    m.insert(
        "name".into(),
        json!(found.map_or("?", |(t, _)| &*t.sig.name)),
    );
    m.insert("args".into(), args);
    m.insert("row".into(), json!(found.map_or("?", |(_, r)| &*r.text)));
    if let Some(col) = found.and_then(|(_, r)| r.column.as_ref()) {
        m.insert("column".into(), json!(&**col));
    }
    put_cite(
        found.and_then(|(t, r)| r.cite.as_ref().or(t.sig.cite.as_ref())),
        m,
    );
}

fn node_json(p: &Program, n: &TraceNode) -> Json {
    let mut m = Map::new();
    let kind = |k: &str, m: &mut Map<String, Json>| m.insert("kind".into(), json!(k));
    match n {
        TraceNode::Rule {
            rule,
            args,
            result,
            steps,
        } => {
            kind("rule", &mut m);
            let r = p.rules.get(*rule as usize);
            m.insert("name".into(), json!(r.map_or("?", |r| &*r.sig.name)));
            m.insert("args".into(), args_json(p, n, args));
            put_cite(r.and_then(|r| r.sig.cite.as_ref()), &mut m);
            put_gave(p, result, &mut m);
            m.insert("steps".into(), trace_json(p, steps));
        }
        TraceNode::Table {
            table,
            args,
            row,
            result,
            steps,
        } => {
            kind("table", &mut m);
            table_json(p, (*table, *row), args_json(p, n, args), &mut m);
            put_gave(p, result, &mut m);
            m.insert("steps".into(), trace_json(p, steps));
        }
        TraceNode::Modifiers {
            list,
            args,
            applied,
            total,
        } => {
            kind("modifiers", &mut m);
            let ml = p.modifiers.get(*list as usize);
            m.insert("name".into(), json!(ml.map_or("?", |l| &*l.sig.name)));
            m.insert("args".into(), args_json(p, n, args));
            put_cite(ml.and_then(|l| l.sig.cite.as_ref()), &mut m);
            let applied: Vec<Json> = applied
                .iter()
                .map(|a| applied_json(ml.and_then(|l| l.modifiers.get(a.modifier as usize)), a))
                .collect();
            m.insert("applied".into(), Json::Array(applied));
            m.insert("total".into(), exact(total));
        }
        TraceNode::Roll {
            dice,
            name,
            sides,
            faces,
            total,
            ..
        } => {
            kind("roll", &mut m);
            m.insert("dice".into(), json!(&**dice));
            if let Some(n) = name {
                m.insert("name".into(), json!(&**n));
            }
            m.insert("sides".into(), json!(sides));
            m.insert("faces".into(), json!(faces));
            m.insert("total".into(), json!(total));
        }
        TraceNode::Note { text } => {
            kind("note", &mut m);
            m.insert("text".into(), json!(&**text));
        }
        TraceNode::Fact { text } => {
            kind("fact", &mut m);
            m.insert("text".into(), json!(&**text));
        }
        TraceNode::Reading {
            interpretation,
            reading: r,
            chosen,
        } => {
            kind("reading", &mut m);
            let (name, _, of) = reading(p, *interpretation, *r);
            m.insert("interpretation".into(), json!(of));
            m.insert("reading".into(), json!(name));
            m.insert("chosen".into(), json!(chosen));
        }
        TraceNode::Effect(e) => {
            kind("effect", &mut m);
            if let Json::Object(e) = effect_json(p, e) {
                m.extend(e);
            }
        }
        TraceNode::Refused { reason, cite } => {
            kind("refused", &mut m);
            m.insert("reason".into(), json!(&**reason));
            put_cite(cite.as_ref(), &mut m);
        }
        TraceNode::NotGiven { what, cite } => {
            kind("not_given", &mut m);
            m.insert("what".into(), json!(&**what));
            put_cite(cite.as_ref(), &mut m);
        }
    }
    Json::Object(m)
}

/// One modifier that applied: its label as the ruleset writes it, the amount it gave, how
/// many times it counted (`times`, for a modifier given "per" something) and whether a
/// house rule put it in (`house`).
fn applied_json(
    md: Option<&crate::program::ModifierInfo>,
    a: &crate::adjudication::Applied,
) -> Json {
    let mut m = Map::new();
    m.insert("label".into(), json!(md.map_or("?", |md| &*md.label)));
    m.insert("amount".into(), exact(&a.amount));
    if md.is_some_and(|md| md.per.is_some()) {
        m.insert("times".into(), exact(&a.times));
    }
    if md.is_some_and(|md| md.house) {
        m.insert("house".into(), json!(true));
    }
    Json::Object(m)
}
