//! A value in words, as a wargamer reads it: `1 3/4"`, `1/2 move`, `{ prisoners: 2 }`.
//!
//! It sits below the evaluator because the evaluator's error messages quote values
//! ("no row of table `t` matches roll: 4"); everything else that puts results into words
//! is in [`crate::render`], which re-exports these two.

use crate::program::Program;
use crate::value::{Mixed, Moves, Value};
use std::fmt::Write as _;

/// A value printed as a wargamer reads it: `1 3/4"`, `1/2 move`, `{ prisoners: 2 }`,
/// an enum value by the rulebook's words.
pub fn show(p: &Program, v: &Value) -> String {
    let mut s = String::new();
    write_value(p, v, false, &mut s);
    s
}

/// A value as an argument is shown: like [`show`], but enum values by the name a rule
/// author types (`artillery`), not the rulebook's display words.
pub fn show_arg(p: &Program, v: &Value) -> String {
    let mut s = String::new();
    write_value(p, v, true, &mut s);
    s
}

/// Writes `v`; enum values by name when `names`, else by their display words.
fn write_value(p: &Program, v: &Value, names: bool, out: &mut String) {
    match v {
        Value::Int(i) => {
            let _ = write!(out, "{i}");
        }
        Value::Frac(r) => {
            let _ = write!(out, "{}", Mixed(*r));
        }
        Value::Length(l) => {
            let _ = write!(out, "{l}");
        }
        Value::Time(t) => {
            let _ = write!(out, "{}", Moves(*t));
        }
        Value::Minutes(t) => {
            let _ = write!(out, "{}", crate::value::RealMinutes(*t));
        }
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Text(t) => {
            let _ = write!(out, "{t:?}");
        }
        Value::Enum(e, i) => match p.enum_value(*e, *i) {
            Some(info) if names => out.push_str(&info.name),
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
                write_value(p, fv, names, out);
            }
            out.push_str(" }");
        }
        Value::Pair(pair) => {
            out.push('(');
            write_value(p, &pair.0, names, out);
            out.push_str(", ");
            write_value(p, &pair.1, names, out);
            out.push(')');
        }
    }
}
