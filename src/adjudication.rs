//! The result of an adjudication and how it is shown: the value (or a refusal, or a gap
//! in the source), every roll, and — when asked for — the trace, rendered as an indented
//! explanation citing the rulebook, or as JSON.

use crate::program::Program;
use crate::value::{Length, Mixed, Moves, Rational, Value};
use serde::Serialize;
use serde_json::json;
use std::fmt::Write as _;

/// What an adjudication decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A value.
    Value(Value),
    /// The rules refuse the action.
    Refused {
        /// Why, in the rulebook's words.
        reason: String,
        /// The rulebook section.
        cite: Option<String>,
    },
    /// The source does not give this (a chart named but not printed, a lost value).
    NotGiven {
        /// What is missing.
        what: String,
        /// The rulebook section.
        cite: Option<String>,
    },
}

/// One dice term rolled.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Roll {
    /// The term as written (`2d6`, `D10`, `1 die`).
    pub dice: String,
    /// Faces per die.
    pub sides: u32,
    /// Each die's face, in order.
    pub faces: Vec<u32>,
    /// Their sum.
    pub total: i64,
}

/// A change to the game state that an adjudication produces (applied only when asked).
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    /// The state path, as written with member names filled in: `units.old_guard.men`.
    pub path: Vec<String>,
    /// The value before.
    pub from: Value,
    /// The value after.
    pub to: Value,
}

impl Effect {
    /// The path as text.
    pub fn path_text(&self) -> String {
        self.path.join(".")
    }
}

/// One argument or key as shown in a trace.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Shown {
    /// Parameter name.
    pub name: String,
    /// Value as printed.
    pub value: String,
    /// Not given in the call: the parameter's default was used.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub default: bool,
}

/// One modifier that applied.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Applied {
    /// The rulebook's label.
    pub label: String,
    /// Signed amount, as printed (`+1`, `-2`).
    pub amount: String,
}

/// One step of an explanation.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TraceNode {
    /// A rule was called.
    Rule {
        /// Rule name.
        name: String,
        /// Arguments.
        args: Vec<Shown>,
        /// Rulebook section.
        #[serde(skip_serializing_if = "Option::is_none")]
        cite: Option<String>,
        /// What it gave.
        result: String,
        /// What happened inside.
        steps: Vec<TraceNode>,
    },
    /// A table row was matched.
    Table {
        /// Table name.
        name: String,
        /// Key and other arguments.
        args: Vec<Shown>,
        /// The row's patterns as written.
        row: String,
        /// Rulebook section.
        #[serde(skip_serializing_if = "Option::is_none")]
        cite: Option<String>,
        /// The cell's value.
        result: String,
        /// What happened in the cell.
        steps: Vec<TraceNode>,
    },
    /// A die roll modifier list was summed.
    Modifiers {
        /// List name.
        name: String,
        /// Rulebook section.
        #[serde(skip_serializing_if = "Option::is_none")]
        cite: Option<String>,
        /// Each modifier that applied.
        applied: Vec<Applied>,
        /// The total.
        total: String,
    },
    /// Dice were rolled.
    Roll(Roll),
    /// A `note` in a rule was reached.
    Note {
        /// The note.
        text: String,
    },
    /// A refusal.
    Refused {
        /// Why.
        reason: String,
        /// Rulebook section.
        #[serde(skip_serializing_if = "Option::is_none")]
        cite: Option<String>,
    },
    /// A gap in the source was reached.
    NotGiven {
        /// What is missing.
        what: String,
        /// Rulebook section.
        #[serde(skip_serializing_if = "Option::is_none")]
        cite: Option<String>,
    },
}

/// A whole adjudication.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudication {
    /// What was decided.
    pub outcome: Outcome,
    /// Every dice term rolled, in order.
    pub rolls: Vec<Roll>,
    /// The explanation, if asked for.
    pub trace: Option<Vec<TraceNode>>,
    /// The seed of the dice, when seeded dice were rolled.
    pub seed: Option<u64>,
    /// Changes to the game state, in order (see `set` in the language).
    pub effects: Vec<Effect>,
    /// Evaluation steps it took (what the odds engine budgets by).
    pub steps: u64,
}

/// The dice rolled, as a line shows them: `D10 → 7, 2d6 → 9`.
pub fn rolls_text(rolls: &[Roll]) -> String {
    rolls
        .iter()
        .map(|r| format!("{} → {}", r.dice, r.total))
        .collect::<Vec<_>>()
        .join(", ")
}

/// An adjudication as `umpire eval` prints it (and the REPL, each value on its own
/// line): the result, its effects (`effect: PATH: FROM → TO`), then either the dice
/// rolled (`rolls: D10 → 7`) or, when traced, the whole explanation.
pub fn report_text(p: &Program, a: &Adjudication) -> String {
    let mut out = format!("{}\n", headline(p, &a.outcome));
    out.push_str(&effects_text(p, &a.effects));
    match &a.trace {
        Some(t) => out.push_str(&explain(t)),
        None if !a.rolls.is_empty() => {
            out.push_str(&format!("rolls: {}\n", rolls_text(&a.rolls)));
        }
        None => {}
    }
    out
}

/// The effects as lines: `units.old_guard.men: 20 → 13`.
pub fn effects_text(p: &Program, effects: &[Effect]) -> String {
    effects
        .iter()
        .map(|e| {
            format!(
                "effect: {}: {} → {}\n",
                e.path_text(),
                show(p, &e.from),
                show(p, &e.to)
            )
        })
        .collect()
}

/// A value printed as a wargamer reads it: `1 3/4"`, `1/2 move`, `{ prisoners: 2 }`,
/// an enum value by the rulebook's words.
pub fn show(p: &Program, v: &Value) -> String {
    let mut s = String::new();
    write_value(p, v, &mut s);
    s
}

fn write_value(p: &Program, v: &Value, out: &mut String) {
    match v {
        Value::Num(r) => {
            let _ = write!(out, "{}", Mixed(*r));
        }
        Value::Length(l) => {
            let _ = write!(out, "{l}");
        }
        Value::Time(t) => {
            let _ = write!(out, "{}", Moves(*t));
        }
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Text(t) => {
            let _ = write!(out, "{t:?}");
        }
        Value::Enum(e, i) => match p.enum_value(*e, *i) {
            Some(info) => out.push_str(info.display.as_deref().unwrap_or(&info.name)),
            None => out.push('?'),
        },
        Value::Record(fields) | Value::Group(fields) => {
            out.push_str("{ ");
            for (i, (n, fv)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(n);
                out.push_str(": ");
                write_value(p, fv, out);
            }
            out.push_str(" }");
        }
        Value::Pair(pair) => {
            out.push('(');
            write_value(p, &pair.0, out);
            out.push_str(", ");
            write_value(p, &pair.1, out);
            out.push(')');
        }
    }
}

/// A value as an argument is shown: like [`show`], but enum values by the name a rule
/// author types (`artillery`), not the rulebook's display words.
pub fn show_arg(p: &Program, v: &Value) -> String {
    match v {
        Value::Enum(e, i) => p
            .enum_value(*e, *i)
            .map_or("?".to_string(), |info| info.name.to_string()),
        Value::Record(fields) | Value::Group(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|(n, f)| format!("{n}: {}", show_arg(p, f)))
                .collect();
            format!("{{ {} }}", inner.join(", "))
        }
        Value::Pair(pair) => format!("({}, {})", show_arg(p, &pair.0), show_arg(p, &pair.1)),
        other => show(p, other),
    }
}

/// The first line of `umpire eval`: the value (an enum value with the rulebook's
/// sentence), `refused: reason (cite)`, or `not given in the source: what (cite)`.
pub fn headline(p: &Program, o: &Outcome) -> String {
    let cited = |c: &Option<String>| c.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
    match o {
        Outcome::Value(Value::Enum(e, i)) => match p.enum_value(*e, *i) {
            Some(info) => match &info.sentence {
                Some(s) => format!("{} — {s}", info.display.as_deref().unwrap_or(&info.name)),
                None => show(p, &Value::Enum(*e, *i)),
            },
            None => "?".into(),
        },
        Outcome::Value(v) => show(p, v),
        Outcome::Refused { reason, cite } => format!("refused: {reason}{}", cited(cite)),
        Outcome::NotGiven { what, cite } => {
            format!("not given in the source: {what}{}", cited(cite))
        }
    }
}

/// The trace as an indented explanation, two spaces per level.
pub fn explain(trace: &[TraceNode]) -> String {
    let mut out = String::new();
    for n in trace {
        write_node(n, 0, &mut out);
    }
    out
}

fn args_text(args: &[Shown]) -> String {
    args.iter()
        .map(|a| {
            let d = if a.default { " (default)" } else { "" };
            format!("{}: {}{d}", a.name, a.value)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// Inner steps, then `= result` — unless the last step already says it (a refusal).
fn write_steps(steps: &[TraceNode], result: &str, depth: usize, out: &mut String) {
    for s in steps {
        write_node(s, depth + 1, out);
    }
    if !matches!(
        steps.last(),
        Some(TraceNode::Refused { .. } | TraceNode::NotGiven { .. })
    ) {
        let _ = writeln!(out, "{}  = {result}", "  ".repeat(depth));
    }
}

fn write_node(n: &TraceNode, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    let cited = |c: &Option<String>| c.as_ref().map(|c| format!("  [{c}]")).unwrap_or_default();
    match n {
        TraceNode::Rule {
            name,
            args,
            cite,
            result,
            steps,
        } => {
            let _ = writeln!(out, "{pad}{name}({}){}", args_text(args), cited(cite));
            write_steps(steps, result, depth, out);
        }
        TraceNode::Table {
            name,
            args,
            row,
            cite,
            result,
            steps,
        } => {
            let _ = writeln!(
                out,
                "{pad}table {name}({}): row `{row}`{}",
                args_text(args),
                cited(cite)
            );
            write_steps(steps, result, depth, out);
        }
        TraceNode::Modifiers {
            name,
            cite,
            applied,
            total,
        } => {
            let _ = writeln!(out, "{pad}modifiers {name}{}", cited(cite));
            if applied.is_empty() {
                let _ = writeln!(out, "{pad}  (none applies)");
            }
            for a in applied {
                let _ = writeln!(out, "{pad}  {:<4} {}", a.amount, a.label);
            }
            let _ = writeln!(out, "{pad}  = {total}");
        }
        TraceNode::Roll(r) => {
            if r.faces.len() > 1 {
                let faces: Vec<String> = r.faces.iter().map(|f| f.to_string()).collect();
                let _ = writeln!(
                    out,
                    "{pad}rolled {}: {} = {}",
                    r.dice,
                    faces.join(" + "),
                    r.total
                );
            } else {
                let _ = writeln!(out, "{pad}rolled {}: {}", r.dice, r.total);
            }
        }
        TraceNode::Note { text } => {
            let _ = writeln!(out, "{pad}note: {text}");
        }
        TraceNode::Refused { reason, cite } => {
            let _ = writeln!(out, "{pad}refused: {reason}{}", cited(cite));
        }
        TraceNode::NotGiven { what, cite } => {
            let _ = writeln!(out, "{pad}not given in the source: {what}{}", cited(cite));
        }
    }
}

fn exact(r: &Rational) -> serde_json::Value {
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
pub fn to_json(p: &Program, v: &Value) -> serde_json::Value {
    match v {
        Value::Num(r) => exact(r),
        Value::Length(l) => json!({ "inches": exact(&l.inches), "text": Length::to_string(l) }),
        Value::Time(t) => json!({ "moves": exact(t), "text": Moves(*t).to_string() }),
        Value::Bool(b) => json!(b),
        Value::Text(t) => json!(&**t),
        Value::Enum(e, i) => json!(p.enum_value(*e, *i).map_or("?", |v| &*v.name)),
        Value::Record(fields) | Value::Group(fields) => {
            let mut m = serde_json::Map::new();
            for (n, fv) in fields.iter() {
                m.insert(n.to_string(), to_json(p, fv));
            }
            serde_json::Value::Object(m)
        }
        Value::Pair(pair) => json!({ "first": to_json(p, &pair.0), "second": to_json(p, &pair.1) }),
    }
}

/// The adjudication as one JSON object: exactly one of `value`, `refused`, `unspecified`;
/// then `rolls`; `seed` when seeded dice were rolled; `trace` when asked for.
pub fn adjudication_json(p: &Program, a: &Adjudication) -> serde_json::Value {
    let mut m = serde_json::Map::new();
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
        let effects: Vec<serde_json::Value> = a
            .effects
            .iter()
            .map(|e| json!({ "path": e.path_text(), "from": to_json(p, &e.from), "to": to_json(p, &e.to) }))
            .collect();
        m.insert("effects".into(), serde_json::Value::Array(effects));
    }
    if let Some(seed) = a.seed {
        m.insert("seed".into(), json!(seed));
    }
    if let Some(t) = &a.trace {
        m.insert("trace".into(), json!(t));
    }
    serde_json::Value::Object(m)
}
