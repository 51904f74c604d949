//! Dead code the checker warns about once every definition is checked: enum values
//! nothing can produce or read. (Unused `let`s and parameters are found while checking
//! each body; see `definitions.rs` and `blocks.rs`.)

use super::Checker;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::value::Value;
use std::collections::HashSet;

impl Checker<'_> {
    /// An enum value counts as used when something produces or reads it (a cell, a
    /// comparison, a row or `match` pattern, a default), or when its enum types a field
    /// or a parameter (the value can then come from a caller or a state file) — which
    /// takes in every enum that keys a table, rows declared "not given" included. An
    /// enum that only ever comes out of tables and rules (an outcome) and has a value no
    /// cell gives is warned about: a rulebook outcome was left out, or misspelled twice.
    /// Examples do not count: a check of a value nothing produces fails anyway.
    pub(in crate::check) fn unused_enum_values(&mut self) {
        let prog: &Program = &self.prog;
        let typed = typed_enums(prog);
        let seen = values_used(prog);
        let mut found = Vec::new();
        for (id, e) in prog.enums.iter().enumerate() {
            // An ordered enum's values are reached by `shift` and ranges as well.
            if typed.contains(&id) || e.ordered {
                continue;
            }
            let unused: Vec<&EnumValueInfo> = e
                .values
                .iter()
                .enumerate()
                .filter(|(i, _)| u16::try_from(*i).map_or(true, |i| !seen.contains(&(id, i))))
                .map(|(_, v)| v)
                .collect();
            let Some(first) = unused.first() else {
                continue;
            };
            // A generated enum of thousands of values is told by its first few: the
            // message and its labels stay the size of a screen.
            let shown = &unused[..unused.len().min(MAX_NAMED)];
            let names: Vec<String> = shown.iter().map(|v| format!("`{}`", v.name)).collect();
            let more = unused.len() - shown.len();
            let (list, it) = match names.split_last() {
                _ if more > 0 => (
                    format!("{} or {more} more values", names.join(", ")),
                    "them",
                ),
                Some((last, rest)) if !rest.is_empty() => {
                    (format!("{} or {last}", rest.join(", ")), "them")
                }
                _ => (names.join(""), "it"),
            };
            let mut d = Diag::at(
                Code::CheckUnusedEnumValue,
                format!("nothing produces or reads {list} of `{}`", e.name),
                first.span,
                "never produced or read",
            )
            .help(format!(
                "no cell, rule or pattern gives or asks for {it}, and no field or parameter is {}: give {it} where the rulebook does, or remove {it}",
                Ty::Enum(id_of(id)).describe(prog)
            ))
            .warning();
            for v in &shown[1..] {
                d = d.label(v.span, "never produced or read");
            }
            found.push(d);
        }
        for d in found {
            self.err(d);
        }
    }
}

/// Most unused values of one enum named in its warning (and labelled in the source).
const MAX_NAMED: usize = 10;

fn id_of(i: usize) -> crate::value::EnumId {
    crate::value::EnumId::try_from(i).unwrap_or(crate::value::EnumId::MAX)
}

/// Every enum a type holds, inside pairs, groups and records.
fn enums_in(t: &Ty, out: &mut HashSet<usize>) {
    match t {
        Ty::Enum(e) => {
            out.insert(usize::from(*e));
        }
        Ty::Pair(t) | Ty::Group(t) => enums_in(t, out),
        Ty::Record(s) => {
            for (_, t) in &s.fields {
                enums_in(t, out);
            }
        }
        _ => {}
    }
}

fn values_in(v: &Value, out: &mut HashSet<(usize, u16)>) {
    match v {
        Value::Enum(e, i) => {
            out.insert((usize::from(*e), *i));
        }
        Value::Record(fields) | Value::Group(fields) => {
            for (_, v) in fields.iter() {
                values_in(v, out);
            }
        }
        Value::Pair(p) => {
            values_in(&p.0, out);
            values_in(&p.1, out);
        }
        _ => {}
    }
}

fn pattern_values(p: &Pat, out: &mut HashSet<(usize, u16)>) {
    if let Pat::Alts(alts) = p {
        for a in alts {
            if let Alt::Enum(e, i) = a {
                out.insert((usize::from(*e), *i));
            }
        }
    }
}

/// The enums that type a field or a parameter.
fn typed_enums(prog: &Program) -> HashSet<usize> {
    let mut typed: HashSet<usize> = HashSet::new();
    let params = prog.signatures().flat_map(|s| &s.params);
    for p in params {
        enums_in(&p.ty, &mut typed);
    }
    for r in &prog.records {
        for (_, t) in &r.shape.fields {
            enums_in(t, &mut typed);
        }
    }
    typed
}

/// The enum values something produces or reads: a value written out, a `match` arm or
/// a row's pattern.
fn values_used(prog: &Program) -> HashSet<(usize, u16)> {
    let mut seen: HashSet<(usize, u16)> = HashSet::new();
    let mut look = |e: &Expr| {
        e.walk(&mut |x| match &x.kind {
            ExprKind::Value(v) => values_in(v, &mut seen),
            ExprKind::Match(_, arms) => {
                for (p, _, _) in arms {
                    pattern_values(p, &mut seen);
                }
            }
            ExprKind::In { pat, .. } => pattern_values(pat, &mut seen),
            _ => {}
        })
    };
    for r in &prog.rules {
        look(&r.body);
    }
    for t in &prog.tables {
        for row in &t.rows {
            look(&row.cell);
        }
    }
    for m in &prog.modifiers {
        for md in &m.modifiers {
            [Some(&md.amount), md.per.as_ref(), md.condition.as_ref()]
                .into_iter()
                .flatten()
                .for_each(&mut look);
        }
    }
    prog.signatures()
        .flat_map(|s| &s.params)
        .filter_map(|p| p.default.as_ref())
        .for_each(&mut look);
    for c in &prog.consts {
        look(&c.value);
    }
    for r in &prog.records {
        r.defaults.iter().flatten().for_each(&mut look);
    }
    for t in &prog.tables {
        for row in &t.rows {
            for p in &row.patterns {
                pattern_values(p, &mut seen);
            }
        }
    }
    seen
}
