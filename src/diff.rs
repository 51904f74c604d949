//! `umpire diff OLD NEW`: what a house rule or an edition changes — in its text (tables
//! cell by cell, modifiers, constants, rules, records, enums, examples) and in play (the
//! adjudications of a scenario under each, their odds side by side).

use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::prob::sweep::Sweep;
use crate::prob::{self, report, Distribution, Job, OutKey, Settings};
use crate::program::{next_combination, Pat, Program};
use crate::span::SourceMap;
use crate::value::Value;
use crate::Ruleset;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// Definitions by name, each with a text that stands for it.
type Named = Vec<(String, String)>;

/// One difference in the text of the two rulesets.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// The definition: `table movement_rate`, `modifiers manoeuvre_drm`.
    pub what: String,
    /// What changed: `line_square | infantry: 8" → 9"`, `added "Veteran" +1 if u.veteran`.
    pub detail: String,
}

fn squash(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A ruleset's program, with the sources its spans point into.
#[derive(Clone, Copy)]
struct Side<'a> {
    program: &'a Program,
    sources: &'a SourceMap,
}

impl std::ops::Deref for Side<'_> {
    type Target = Program;
    fn deref(&self) -> &Program {
        self.program
    }
}

impl<'a> Side<'a> {
    fn of(r: &'a Ruleset) -> Side<'a> {
        Side {
            program: &r.program,
            sources: &r.sources,
        }
    }
}

fn text(p: &Side<'_>, span: crate::span::Span) -> String {
    squash(p.sources.snippet(span))
}

/// A table cell as text: `6"`, `not given`, `refused: no guns`.
fn cell_text(p: &Side<'_>, e: &crate::program::Expr) -> String {
    match &e.kind {
        crate::program::ExprKind::NotGiven { .. } => "not given".into(),
        crate::program::ExprKind::Refuse { reason, .. } => format!("refused: {reason}"),
        crate::program::ExprKind::InRange { value, .. } => cell_text(p, value),
        _ => text(p, e.span),
    }
}

/// The values of the keys of a table, when they can be listed (enums, true/false).
fn key_values(
    p: &Program,
    keys: &[crate::program::ParamInfo],
) -> Option<Vec<Vec<(Value, String)>>> {
    keys.iter()
        .map(|k| crate::program::listed_values(p, &k.ty))
        .collect()
}

/// The cell a table gives for these key values: the first row that matches.
fn cell_for(p: &Side<'_>, t: &crate::program::TableInfo, combo: &[&Value]) -> String {
    t.rows
        .iter()
        .find(|r| {
            r.patterns
                .iter()
                .zip(combo)
                .all(|(pat, v): (&Pat, &&Value)| pat.matches(v))
        })
        .map_or("no row".into(), |r| cell_text(p, &r.cell))
}

/// Most changed cells listed for one table.
const MAX_CELLS: usize = 40;

fn tables(old: &Side<'_>, new: &Side<'_>, out: &mut Vec<Change>) {
    for t in &old.tables {
        let Some(n) = new.tables.iter().find(|x| x.sig.name == t.sig.name) else {
            out.push(Change {
                what: format!("table {}", t.sig.name),
                detail: "removed".into(),
            });
            continue;
        };
        let what = format!("table {}", t.sig.name);
        let keys = &t.sig.params[..t.keys];
        let same_keys = keys.len() == n.keys
            && keys
                .iter()
                .zip(&n.sig.params)
                .all(|(a, b)| a.name == b.name && a.ty == b.ty);
        let listed = key_values(old, keys)
            .filter(|vs| vs.iter().map(Vec::len).product::<usize>() <= 4096 && same_keys);
        let mut changes = Vec::new();
        match listed {
            // Cell by cell: every combination of the keys.
            Some(values) if !values.is_empty() => {
                let mut index = vec![0usize; values.len()];
                loop {
                    let combo: Vec<&(Value, String)> =
                        index.iter().zip(&values).map(|(&i, vs)| &vs[i]).collect();
                    let vals: Vec<&Value> = combo.iter().map(|(v, _)| v).collect();
                    let (a, b) = (cell_for(old, t, &vals), cell_for(new, n, &vals));
                    if a != b {
                        let names: Vec<&str> = combo.iter().map(|(_, s)| s.as_str()).collect();
                        changes.push(format!("{}: {a} → {b}", names.join(" | ")));
                    }
                    if !next_combination(&mut index, &values) {
                        break;
                    }
                }
            }
            // Rows keyed by numbers: row by row, by their keys as written.
            _ => {
                let rows = |p: &Side<'_>, t: &crate::program::TableInfo| -> Vec<(String, String)> {
                    t.rows
                        .iter()
                        .map(|r| (r.quoted(), cell_text(p, &r.cell)))
                        .collect()
                };
                let (a, b) = (rows(old, t), rows(new, n));
                for (k, v) in &a {
                    match b.iter().find(|(k2, _)| k2 == k) {
                        Some((_, v2)) if v2 != v => changes.push(format!("{k}: {v} → {v2}")),
                        Some(_) => {}
                        None => changes.push(format!("row {k} removed (was {v})")),
                    }
                }
                for (k, v) in &b {
                    if !a.iter().any(|(k1, _)| k1 == k) {
                        changes.push(format!("row {k} added: {v}"));
                    }
                }
            }
        }
        let more = changes.len().saturating_sub(MAX_CELLS);
        for c in changes.into_iter().take(MAX_CELLS) {
            out.push(Change {
                what: what.clone(),
                detail: c,
            });
        }
        if more > 0 {
            out.push(Change {
                what: what.clone(),
                detail: format!("... and {more} more cells"),
            });
        }
        if !same_keys {
            out.push(Change {
                what,
                detail: "keys changed".into(),
            });
        }
    }
    for n in &new.tables {
        if !old.tables.iter().any(|t| t.sig.name == n.sig.name) {
            out.push(Change {
                what: format!("table {}", n.sig.name),
                detail: "added".into(),
            });
        }
    }
}

fn modifiers(old: &Side<'_>, new: &Side<'_>, out: &mut Vec<Change>) {
    let entry = |p: &Side<'_>, m: &crate::program::ModifierInfo| {
        // The amount with its sign, as a modifier list writes it (`+1`).
        let mut s = text(p, m.amount.span);
        if !s.starts_with(['+', '-']) {
            s.insert(0, '+');
        }
        if let Some(per) = &m.per {
            s.push_str(&format!(" per {}", text(p, per.span)));
        }
        if let Some(c) = &m.condition {
            s.push_str(&format!(" if {}", text(p, c.span)));
        }
        s
    };
    for m in &old.modifiers {
        let what = format!("modifiers {}", m.sig.name);
        let Some(n) = new.modifiers.iter().find(|x| x.sig.name == m.sig.name) else {
            out.push(Change {
                what,
                detail: "removed".into(),
            });
            continue;
        };
        for a in &m.modifiers {
            match n.modifiers.iter().find(|b| b.label == a.label) {
                Some(b) => {
                    let (x, y) = (entry(old, a), entry(new, b));
                    if x != y {
                        out.push(Change {
                            what: what.clone(),
                            detail: format!("\"{}\": {x} → {y}", a.label),
                        });
                    }
                }
                None => out.push(Change {
                    what: what.clone(),
                    detail: format!("removed \"{}\" {}", a.label, entry(old, a)),
                }),
            }
        }
        for b in &n.modifiers {
            if !m.modifiers.iter().any(|a| a.label == b.label) {
                out.push(Change {
                    what: what.clone(),
                    detail: format!("added \"{}\" {}", b.label, entry(new, b)),
                });
            }
        }
    }
    for n in &new.modifiers {
        if !old.modifiers.iter().any(|m| m.sig.name == n.sig.name) {
            out.push(Change {
                what: format!("modifiers {}", n.sig.name),
                detail: "added".into(),
            });
        }
    }
}

/// Definitions compared as wholes: by a text that stands for each.
fn wholes(
    kind: &str,
    old: Vec<(String, String)>,
    new: Vec<(String, String)>,
    out: &mut Vec<Change>,
) {
    for (name, a) in &old {
        match new.iter().find(|(n, _)| n == name) {
            Some((_, b)) if a != b => out.push(Change {
                what: format!("{kind} {name}"),
                detail: "changed".into(),
            }),
            Some(_) => {}
            None => out.push(Change {
                what: format!("{kind} {name}"),
                detail: "removed".into(),
            }),
        }
    }
    for (name, _) in &new {
        if !old.iter().any(|(n, _)| n == name) {
            out.push(Change {
                what: format!("{kind} {name}"),
                detail: "added".into(),
            });
        }
    }
}

/// Every difference in the text of two rulesets, definition by definition.
pub fn structural(old: &Ruleset, new: &Ruleset) -> Vec<Change> {
    let (old, new) = (&Side::of(old), &Side::of(new));
    let mut out = Vec::new();
    tables(old, new, &mut out);
    modifiers(old, new, &mut out);
    consts(old, new, &mut out);
    let rules = |p: &Side<'_>| {
        p.rules
            .iter()
            .map(|r| {
                let params: Vec<String> = r.sig.params.iter().map(|x| x.name.to_string()).collect();
                (
                    r.sig.name.to_string(),
                    format!("{} {}", params.join(","), text(p, r.body.span)),
                )
            })
            .collect()
    };
    wholes("rule", rules(old), rules(new), &mut out);
    let enums = |p: &Side<'_>| {
        p.enums
            .iter()
            .map(|e| {
                let vs: Vec<&str> = e.values.iter().map(|v| &*v.name).collect();
                (e.name.clone(), vs.join(","))
            })
            .collect()
    };
    wholes("enum", enums(old), enums(new), &mut out);
    records(old, new, &mut out);
    // Interpretations: their readings (their enums, above) and which is the default.
    let interps = |p: &Side<'_>| {
        p.interpretations
            .iter()
            .map(|i| {
                let default = i
                    .default
                    .and_then(|d| p.enum_value(i.readings, d))
                    .map_or("none".to_string(), |v| v.name.to_string());
                (i.name.to_string(), format!("{} default {default}", i.text))
            })
            .collect()
    };
    wholes("interpretation", interps(old), interps(new), &mut out);
    let examples = |p: &Side<'_>| {
        p.examples
            .iter()
            .map(|e| {
                let checks: Vec<String> = e.checks.iter().map(|c| text(p, c.span)).collect();
                (format!("\"{}\"", e.name), checks.join("; "))
            })
            .collect()
    };
    wholes("example", examples(old), examples(new), &mut out);
    out
}

/// Constants: a value changed (old → new), and constants added or removed.
fn consts(old: &Side<'_>, new: &Side<'_>, out: &mut Vec<Change>) {
    let consts = |p: &Side<'_>| {
        p.consts
            .iter()
            .map(|c| (c.name.to_string(), text(p, c.value.span)))
            .collect()
    };
    // Constants with their values, old and new.
    let co: Named = consts(old);
    let cn: Named = consts(new);
    for (name, a) in &co {
        if let Some((_, b)) = cn.iter().find(|(n, _)| n == name) {
            if a != b {
                out.push(Change {
                    what: format!("const {name}"),
                    detail: format!("{a} → {b}"),
                });
            }
        }
    }
    let drop_same = |xs: &[(String, String)], ys: &[(String, String)]| -> Vec<(String, String)> {
        xs.iter()
            .filter(|(n, _)| !ys.iter().any(|(m, _)| m == n))
            .cloned()
            .collect()
    };
    wholes("const", drop_same(&co, &cn), drop_same(&cn, &co), out);
}

/// Records: fields added (named), and records added, removed or changed.
fn records(old: &Program, new: &Program, out: &mut Vec<Change>) {
    let records = |p: &Program| {
        p.records
            .iter()
            .map(|r| {
                let fs: Vec<String> = r
                    .shape
                    .fields
                    .iter()
                    .map(|(n, t)| format!("{n}:{}", t.name(p)))
                    .collect();
                (r.name.clone(), fs.join(","))
            })
            .collect()
    };
    // Fields added to a record are named.
    for r in &old.records {
        if let Some(n) = new.records.iter().find(|x| x.name == r.name) {
            for (f, _) in &n.shape.fields {
                if !r.shape.fields.iter().any(|(g, _)| g == f) {
                    out.push(Change {
                        what: format!("record {}", r.name),
                        detail: format!("field {f} added"),
                    });
                }
            }
        }
    }
    let mut rec = Vec::new();
    wholes("record", records(old), records(new), &mut rec);
    out.extend(rec.into_iter().filter(|c| {
        // (A record whose only change is added fields is already said.)
        !(c.detail == "changed" && out_has_added_fields(old, new, &c.what))
    }));
}

/// Whether the only change to a record is fields added at its end.
fn out_has_added_fields(old: &Program, new: &Program, what: &str) -> bool {
    let name = what.trim_start_matches("record ");
    match (
        old.records.iter().find(|r| r.name == name),
        new.records.iter().find(|r| r.name == name),
    ) {
        (Some(a), Some(b)) => {
            b.shape.fields.len() > a.shape.fields.len()
                && a.shape
                    .fields
                    .iter()
                    .zip(&b.shape.fields)
                    .all(|(x, y)| x == y)
        }
        _ => false,
    }
}

/// One adjudication of the scenario under both rulesets.
pub struct Compared {
    /// The scenario's name for it.
    pub name: String,
    /// The expression.
    pub expr: String,
    /// The odds under the old ruleset, or why it failed.
    pub old: Result<Distribution, Diag>,
    /// The odds under the new one.
    pub new: Result<Distribution, Diag>,
    /// Fields the expression gives that the new ruleset adds to a record and the old
    /// one lacks (`veteran`): the old ruleset reads them as absent.
    pub absent: Vec<String>,
    /// With `--sweep`: each swept name and its value in this comparison (empty without).
    pub at: Vec<(String, String)>,
}

fn odds_of(r: &Ruleset, expr: &str, settings: &Settings) -> Result<Distribution, Diag> {
    let q = r.question("<scenario>", expr).map_err(|ds| {
        ds.0.into_iter()
            .next()
            .unwrap_or_else(|| Diag::error(Code::DiffExpr, "does not check"))
    })?;
    let job = Job::of(r, &q);
    prob::odds(&job, settings)
}

/// Fields the new program adds to a record the old one has too: (record, field).
pub fn added_fields(old: &Program, new: &Program) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for r in &old.records {
        if let Some(n) = new.records.iter().find(|x| x.name == r.name) {
            for (f, _) in &n.shape.fields {
                if !r.shape.fields.iter().any(|(g, _)| g == f) {
                    out.push((r.name.clone(), f.to_string()));
                }
            }
        }
    }
    out
}

/// The odds of `expr` under the old ruleset, the fields the new one adds (`added`) read
/// as absent: each such field given in a record (`{ grade: line, veteran: true }`) is
/// taken out of the text, and the record takes its old shape and defaults. Also the
/// fields taken out.
fn old_odds_of(
    r: &Ruleset,
    expr: &str,
    settings: &Settings,
    added: &[(String, String)],
) -> (Result<Distribution, Diag>, Vec<String>) {
    old_asked(expr, added, &mut |text| {
        let q = r.question("<scenario>", text)?;
        Ok(prob::odds(&Job::of(r, &q), settings))
    })
}

/// A question asked of a text: `Err` when it does not check, else its answer.
type Asker<'a, T> = dyn FnMut(&str) -> Result<Result<T, Diag>, Diags> + 'a;

/// What `ask` answers for `expr` under the old ruleset, the fields the new one adds
/// (`added`) taken out of the text, as [`old_odds_of`] says; and the fields taken out.
/// `ask` gives the errors of a question that does not check as `Err`, its answer (which
/// may be an error of its own) as `Ok`.
fn old_asked<T>(
    expr: &str,
    added: &[(String, String)],
    ask: &mut Asker<'_, T>,
) -> (Result<T, Diag>, Vec<String>) {
    let mut text = expr.to_string();
    let mut absent: Vec<String> = Vec::new();
    // The error of the field taken out last: said instead of one about text the author
    // did not write (a record left with no field, `{ }`, does not read).
    let mut unknown: Option<Diag> = None;
    // Each round takes one field out; a question has a bounded number of them.
    for _ in 0..=text.matches(':').count() {
        let ds = match ask(&text) {
            Ok(answer) => return (answer, absent),
            Err(ds) => ds,
        };
        if let Some(d) = unknown
            .take()
            .filter(|_| ds.0.iter().any(|d| d.code == Code::ParseSyntax))
        {
            return (Err(d), Vec::new());
        }
        let cut = ds.0.iter().find_map(|d| {
            let span = d.span().filter(|_| d.code == Code::CheckUnknownField)?;
            let (start, end) = (span.start as usize, span.end as usize);
            let field = text.get(start..end)?;
            added
                .iter()
                .any(|(rec, f)| f == field && d.message == format!("{rec} has no field `{f}`"))
                .then(|| Some((without_field(&text, start, end)?, field.to_string(), d)))?
        });
        match cut {
            Some((shorter, field, d)) => {
                unknown = Some(d.clone());
                text = shorter;
                if !absent.contains(&field) {
                    absent.push(field);
                }
            }
            None => {
                let first = ds.0.into_iter().next();
                let d = first.unwrap_or_else(|| Diag::error(Code::DiffExpr, "does not check"));
                return (Err(d), absent);
            }
        }
    }
    (Err(Diag::error(Code::DiffExpr, "does not check")), absent)
}

/// `text` without the record field `name: value` whose name is at `start..end`, and
/// the `,` that parts it from its neighbour.
fn without_field(text: &str, start: usize, end: usize) -> Option<String> {
    let after_name = text.get(end..)?;
    let colon = end + (after_name.len() - after_name.trim_start().len());
    if !text.get(colon..)?.starts_with(':') {
        return None;
    }
    let mut depth = 0usize;
    let mut in_text = false;
    let mut escaped = false;
    let mut stop = None;
    for (i, c) in text.get(colon + 1..)?.char_indices() {
        let at = colon + 1 + i;
        if in_text {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_text = false,
                _ => {}
            }
            continue;
        }
        match c {
            // A `"` after a digit is an inch mark (`6"`), not a text.
            '"' => in_text = !text[..at].ends_with(|p: char| p.is_ascii_digit()),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' | ',' if depth == 0 => {
                stop = Some((at, c == ','));
                break;
            }
            ')' | ']' | '}' => depth -= 1,
            _ => {}
        }
    }
    let (stop, comma) = stop?;
    if comma {
        let next = &text[stop + 1..];
        let next_at = stop + 1 + (next.len() - next.trim_start().len());
        return Some(format!("{}{}", &text[..start], &text[next_at..]));
    }
    // The last field: the `,` before it goes with it.
    let before = text[..start].trim_end();
    let from = before.strip_suffix(',').map_or(start, str::len);
    let value_end = text[..stop].trim_end().len();
    Some(format!("{}{}", &text[..from], &text[value_end..]))
}

/// A state error said with the ruleset that raised it: `umpire diff` loads one state
/// into two rulesets.
fn rejected(ds: Diags, which: &str, name: &str) -> Diags {
    Diags(
        ds.0.into_iter()
            .map(|mut d| {
                if d.code.phase() == crate::diagnostic::Phase::State {
                    d.message = format!(
                        "the {which} ruleset, {name}, rejects the state: {}",
                        d.message
                    );
                }
                d
            })
            .collect(),
    )
}

/// The scenario's adjudications under both rulesets (the scenario's state loaded into
/// each; its own ruleset replaced), each within its own ruleset's limits (the scenario
/// read within the old one's).
///
/// Errors: the scenario or its state cannot be read.
pub fn behavioural(
    old: (&mut Ruleset, &str),
    new: (&mut Ruleset, &str),
    scenario: &str,
    settings: &Settings,
) -> Result<Vec<Compared>, Diags> {
    behavioural_swept(old, new, scenario, &[], settings)
}

/// As [`behavioural`], each adjudication asked again for every combination of the
/// sweeps' values (`--sweep NAME=VALUES`, as `umpire prob --sweep`: a free name of the
/// adjudication or a path into the scenario's state): a comparison per combination, in
/// order (the first sweep outermost), each saying its values (`at`). An adjudication
/// whose expression reads no swept name is compared once, as without a sweep.
///
/// Errors: the scenario or its state cannot be read.
pub fn behavioural_swept(
    (old, old_name): (&mut Ruleset, &str),
    (new, new_name): (&mut Ruleset, &str),
    scenario: &str,
    sweeps: &[Sweep],
    settings: &Settings,
) -> Result<Vec<Compared>, Diags> {
    let plan = crate::scenario::entries(scenario, &old.limits)?;
    for (name, reading) in &plan.interpret {
        old.interpret(name, reading)?;
        new.interpret(name, reading)?;
    }
    // A field the new ruleset adds is read as absent by the old one, in the state as in
    // the questions: the comparison is of the same units before and after.
    let added = added_fields(&old.program, &new.program);
    if let Some(s) = &plan.state {
        let state =
            crate::state::load_reading_absent(&old.program, &old.sources, s, &old.limits, &added)
                .map_err(|ds| rejected(ds, "old", old_name))?;
        old.state = Some(state);
        new.load_state(s)
            .map_err(|ds| rejected(ds, "new", new_name))?;
    }
    let (old, new) = (&*old, &*new);
    let words_of = |expr: &str| -> HashSet<String> {
        expr.split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .map(str::to_string)
            .collect()
    };
    // A free name that no adjudication names would change nothing: a slip, said so.
    for s in sweeps {
        let named = plan
            .adjudications
            .iter()
            .any(|(_, expr)| words_of(expr).contains(&s.name));
        if !named && !prob::sweep::is_state_path(new, &s.name) {
            return Err(Diag::error(
                Code::ProbSweep,
                format!(
                    "--sweep {}: no adjudication of the scenario names `{}`, and it is not a path into its state",
                    s.name, s.name
                ),
            )
            .help("sweep a name an adjudication's expression uses (`m` in `manoeuvre_table(good_order, D10 + m)`) or a state path (`brigade.grenadiers.leader_cp=0..3`)")
            .into());
        }
    }
    let mut out = Vec::new();
    for (name, expr) in plan.adjudications {
        // A free name swept counts only for the adjudications that name it.
        let words = words_of(&expr);
        let these: Vec<Sweep> = sweeps
            .iter()
            .filter(|s| prob::sweep::is_state_path(new, &s.name) || words.contains(&s.name))
            .cloned()
            .collect();
        if these.is_empty() {
            let (old, absent) = old_odds_of(old, &expr, settings, &added);
            out.push(Compared {
                old,
                new: odds_of(new, &expr, settings),
                name,
                expr,
                absent,
                at: Vec::new(),
            });
            continue;
        }
        out.extend(swept(old, new, name, expr, &these, settings, &added));
    }
    Ok(out)
}

/// The comparisons of one adjudication for every combination of the sweeps' values:
/// each side's rows side by side. A side that fails as a whole (its question does not
/// check, a sweep does not fit it) fails in every comparison.
fn swept(
    old: &Ruleset,
    new: &Ruleset,
    name: String,
    expr: String,
    sweeps: &[Sweep],
    settings: &Settings,
    added: &[(String, String)],
) -> Vec<Compared> {
    let first = |ds: Diags| {
        ds.0.into_iter()
            .next()
            .unwrap_or_else(|| Diag::error(Code::DiffExpr, "does not check"))
    };
    let rows_of = |r: &Ruleset, text: &str| -> Result<Result<_, Diag>, Diags> {
        let ready = prob::sweep::prepare(r, "<scenario>", text, sweeps)?;
        Ok(ready.run(settings).map_err(first))
    };
    let (old_rows, absent) = old_asked(&expr, added, &mut |text| rows_of(old, text));
    let new_rows = rows_of(new, &expr).unwrap_or_else(|ds| Err(first(ds)));
    // Every combination, in order, whichever side answers.
    let mut combos: Vec<Vec<String>> = vec![Vec::new()];
    for sw in sweeps {
        combos = combos
            .into_iter()
            .flat_map(|c| {
                sw.values.iter().map(move |v| {
                    let mut c = c.clone();
                    c.push(v.clone());
                    c
                })
            })
            .collect();
    }
    let side = |rows: &Result<Vec<(Vec<String>, Distribution)>, Diag>, i: usize| match rows {
        Ok(rows) => rows.get(i).map(|(_, d)| d.clone()).ok_or_else(|| {
            Diag::error(Code::DiffExpr, "no odds for this combination of the sweeps")
        }),
        Err(e) => Err(e.clone()),
    };
    combos
        .into_iter()
        .enumerate()
        .map(|(i, values)| Compared {
            old: side(&old_rows, i),
            new: side(&new_rows, i),
            name: name.clone(),
            expr: expr.clone(),
            absent: absent.clone(),
            at: sweeps.iter().map(|s| s.name.clone()).zip(values).collect(),
        })
        .collect()
}

/// Whether a comparison shows a difference: exact odds that are not equal, or sampled
/// ones that differ by more than three standard errors.
fn differs(c: &Compared) -> bool {
    match (&c.old, &c.new) {
        (Ok(a), Ok(b)) => {
            let exact = a
                .chances
                .iter()
                .chain(&b.chances)
                .all(|x| x.exact.is_some());
            if exact {
                return a.chances.len() != b.chances.len()
                    || a.chances.iter().zip(&b.chances).any(|(x, y)| {
                        x.exact != y.exact || OutKey::of(&x.case) != OutKey::of(&y.case)
                    });
            }
            // Each side's chances by outcome, made once: a hash lookup per outcome.
            let by_key = |d: &Distribution| -> HashMap<OutKey, (f64, f64)> {
                d.chances
                    .iter()
                    .map(|x| {
                        let k = OutKey::of(&x.case);
                        (k, (x.estimate, x.std_error.unwrap_or(0.0)))
                    })
                    .collect()
            };
            let (in_a, in_b) = (by_key(a), by_key(b));
            let find = |m: &HashMap<OutKey, (f64, f64)>, k: &OutKey| {
                m.get(k).copied().unwrap_or((0.0, 0.0))
            };
            in_a.keys().chain(in_b.keys()).any(|k| {
                let ((p, se_p), (q, se_q)) = (find(&in_a, k), find(&in_b, k));
                (p - q).abs() > 3.0 * (se_p * se_p + se_q * se_q).sqrt().max(1e-12)
            })
        }
        (Err(a), Err(b)) => a.message != b.message,
        _ => true,
    }
}

/// Whether anything differs at all.
pub fn any(changes: &[Change], compared: &[Compared]) -> bool {
    !changes.is_empty() || compared.iter().any(differs)
}

/// The outcomes of two distributions side by side: label, old, new, change.
fn side_by_side(
    p_old: &Program,
    p_new: &Program,
    a: &Distribution,
    b: &Distribution,
) -> Vec<(String, String, String, String)> {
    // Every outcome of either side, in the order met, found again by a hash lookup.
    let mut keys: Vec<OutKey> = Vec::new();
    let mut labels: Vec<String> = Vec::new();
    let mut seen: HashSet<OutKey> = HashSet::new();
    for (p, d) in [(p_old, a), (p_new, b)] {
        for c in &d.chances {
            let k = OutKey::of(&c.case);
            if seen.insert(k.clone()) {
                keys.push(k);
                labels.push(report::label(p, &c.case));
            }
        }
    }
    let index = |d: &Distribution| -> HashMap<OutKey, usize> {
        d.chances
            .iter()
            .enumerate()
            .map(|(i, c)| (OutKey::of(&c.case), i))
            .collect()
    };
    let (in_a, in_b) = (index(a), index(b));
    let find = |d: &Distribution, m: &HashMap<OutKey, usize>, k: &OutKey| {
        m.get(k).map(|&i| d.chances[i].clone())
    };
    keys.iter()
        .zip(labels)
        .map(|(k, label)| {
            let (x, y) = (find(a, &in_a, k), find(b, &in_b, k));
            let pct = |c: &Option<prob::Chance>| match c {
                Some(c) => match &c.exact {
                    Some(e) => prob::percent(e),
                    None => prob::percent_f(c.estimate),
                },
                None => "-".into(),
            };
            let change = match (
                x.as_ref()
                    .and_then(|c| c.exact.clone())
                    .or_else(|| x.is_none().then(BigRational::zero)),
                y.as_ref()
                    .and_then(|c| c.exact.clone())
                    .or_else(|| y.is_none().then(BigRational::zero)),
            ) {
                (Some(p), Some(q)) => {
                    let d = &q - &p;
                    if d.is_zero() {
                        "".into()
                    } else {
                        let sign = if d > BigRational::zero() { "+" } else { "-" };
                        format!("{sign}{}", prob::percent(&d.abs()))
                    }
                }
                _ => {
                    let e = |c: &Option<prob::Chance>| c.as_ref().map_or(0.0, |c| c.estimate);
                    format!("{:+.2}%", (e(&y) - e(&x)) * 100.0)
                }
            };
            (label, pct(&x), pct(&y), change)
        })
        .collect()
}

/// The comparison as text.
pub fn text_report(
    old_name: &str,
    new_name: &str,
    p_old: &Program,
    p_new: &Program,
    changes: &[Change],
    compared: &[Compared],
) -> String {
    if !any(changes, compared) {
        return format!("no differences between {old_name} and {new_name}\n");
    }
    let mut out = format!("{old_name} → {new_name}\n");
    if !changes.is_empty() {
        out.push_str("\nchanged in the text:\n");
        for c in changes {
            out.push_str(&format!("  {}: {}\n", c.what, c.detail));
        }
    }
    if !compared.is_empty() {
        out.push_str("\nadjudications:\n");
    }
    let mut last: Option<(&str, &str)> = None;
    for c in compared {
        // A swept adjudication is named once, then each combination under it.
        let again = c.at.is_empty() || last != Some((c.name.as_str(), c.expr.as_str()));
        last = Some((c.name.as_str(), c.expr.as_str()));
        if again {
            out.push_str(&format!("  {} — {}\n", c.name, c.expr));
            if !c.absent.is_empty() {
                let fields: Vec<String> = c.absent.iter().map(|f| format!("`{f}`")).collect();
                out.push_str(&format!(
                    "    (the old ruleset has no {}: read as absent there)\n",
                    fields.join(", ")
                ));
            }
        }
        let ind = if c.at.is_empty() {
            "    "
        } else {
            let at: Vec<String> = c.at.iter().map(|(n, v)| format!("{n} = {v}")).collect();
            out.push_str(&format!("    {}\n", at.join(", ")));
            "      "
        };
        compared_text(&mut out, c, p_old, p_new, ind);
    }
    out
}

/// One comparison's odds, each line indented by `ind`.
fn compared_text(out: &mut String, c: &Compared, p_old: &Program, p_new: &Program, ind: &str) {
    match (&c.old, &c.new) {
        (Ok(a), Ok(b)) => {
            if !differs(c) {
                out.push_str(&format!("{ind}the same\n"));
                return;
            }
            // Certain both ways: the one value each.
            if let ([x], [y]) = (a.chances.as_slice(), b.chances.as_slice()) {
                out.push_str(&format!(
                    "{ind}{} → {}\n",
                    report::label(p_old, &x.case),
                    report::label(p_new, &y.case)
                ));
                return;
            }
            let rows = side_by_side(p_old, p_new, a, b);
            let w = rows
                .iter()
                .map(|r| r.0.chars().count())
                .max()
                .unwrap_or(0)
                .max(7);
            out.push_str(&format!(
                "{ind}{:<w$}  {:>8}  {:>8}  {:>8}\n",
                "outcome", "old", "new", "change"
            ));
            for (l, x, y, d) in rows {
                out.push_str(&format!("{ind}{l:<w$}  {x:>8}  {y:>8}  {d:>8}\n"));
            }
        }
        (Err(e), Err(_)) if !differs(c) => {
            // The same error both ways (a check error of the question, say): no change.
            out.push_str(&format!("{ind}the same: error: {}\n", e.message));
        }
        (a, b) => {
            // The side that answers keeps its odds (a certain result alone).
            let side = |r: &Result<Distribution, Diag>, p: &Program| match r {
                Ok(d) if d.chances.len() == 1 => d
                    .chances
                    .iter()
                    .map(|c| report::label(p, &c.case))
                    .collect::<Vec<_>>()
                    .join(", "),
                Ok(d) => d
                    .chances
                    .iter()
                    .map(|c| {
                        let pct = match &c.exact {
                            Some(e) => prob::percent(e),
                            None => prob::percent_f(c.estimate),
                        };
                        format!("{} {pct}", report::label(p, &c.case))
                    })
                    .collect::<Vec<_>>()
                    .join(", "),
                Err(e) => format!("error: {}", e.message),
            };
            out.push_str(&format!(
                "{ind}old: {}\n{ind}new: {}\n",
                side(a, p_old),
                side(b, p_new)
            ));
        }
    }
}

/// The comparison as JSON.
pub fn json_report(
    p_old: &Program,
    p_new: &Program,
    changes: &[Change],
    compared: &[Compared],
) -> serde_json::Value {
    let changes: Vec<serde_json::Value> = changes
        .iter()
        .map(|c| json!({ "what": c.what, "change": c.detail }))
        .collect();
    let adjudications: Vec<serde_json::Value> = compared
        .iter()
        .map(|c| {
            let side = |r: &Result<Distribution, Diag>, p: &Program| match r {
                Ok(d) => report::json(p, &c.expr, d),
                Err(e) => json!({ "error": { "code": e.code, "message": e.message } }),
            };
            let mut j = json!({
                "name": c.name,
                "expr": c.expr,
                "old_reads_absent": c.absent,
                "differs": differs(c),
                "old": side(&c.old, p_old),
                "new": side(&c.new, p_new),
            });
            // Swept (`--sweep`): the values of this comparison, after its name and expr.
            if let (false, serde_json::Value::Object(m)) = (c.at.is_empty(), &mut j) {
                let at: serde_json::Map<String, serde_json::Value> =
                    c.at.iter()
                        .map(|(n, v)| (n.clone(), report::swept_json(v)))
                        .collect();
                m.shift_insert(2, "at".into(), serde_json::Value::Object(at));
            }
            j
        })
        .collect();
    json!({
        "differences": !changes.is_empty() || compared.iter().any(differs),
        "changes": changes,
        "adjudications": adjudications,
    })
}

/// The scenario's adjudications as CSV: a row per outcome of each comparison —
/// `adjudication`, `expr`, a column per swept name (`--sweep`), `outcome`, `old`, `new`,
/// `change` (the percentages as the text report gives them; `-` where a side lacks the
/// outcome). A side that fails gives one outcome, `error: ...`, certain on that side.
///
/// Errors: the CSV cannot be written (not expected: it is written to memory).
pub fn csv_report(p_old: &Program, p_new: &Program, compared: &[Compared]) -> Result<String, Diag> {
    let failed =
        |e: csv::Error| Diag::error(Code::IoWrite, format!("the CSV could not be written: {e}"));
    // Every swept name, in the order first met.
    let mut names: Vec<&str> = Vec::new();
    for c in compared {
        for (n, _) in &c.at {
            if !names.contains(&n.as_str()) {
                names.push(n);
            }
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = ["adjudication", "expr"]
        .into_iter()
        .chain(names.iter().copied())
        .chain(["outcome", "old", "new", "change"]);
    w.write_record(header).map_err(failed)?;
    let certain = |r: &Result<Distribution, Diag>| -> Distribution {
        match r {
            Ok(d) => d.clone(),
            Err(e) => Distribution {
                chances: vec![prob::Chance {
                    case: prob::Case::Error {
                        code: e.code,
                        message: e.message.clone(),
                        help: None,
                        subject: None,
                    },
                    exact: Some(BigRational::from_integer(1.into())),
                    estimate: 1.0,
                    std_error: None,
                }],
                method: prob::Method::Exact { cases: 1 },
            },
        }
    };
    for c in compared {
        let (a, b) = (certain(&c.old), certain(&c.new));
        let at: Vec<&str> = names
            .iter()
            .map(|n| {
                c.at.iter()
                    .find(|(m, _)| m == n)
                    .map_or("", |(_, v)| v.as_str())
            })
            .collect();
        for (label, x, y, change) in side_by_side(p_old, p_new, &a, &b) {
            let row = [c.name.as_str(), c.expr.as_str()]
                .into_iter()
                .chain(at.iter().copied())
                .chain([label.as_str(), &x, &y, &change]);
            w.write_record(row).map_err(failed)?;
        }
    }
    let bytes = w.into_inner().map_err(|e| {
        Diag::error(
            Code::IoWrite,
            format!("the CSV could not be written: {}", e.error()),
        )
    })?;
    String::from_utf8(bytes)
        .map_err(|e| Diag::error(Code::IoWrite, format!("the CSV could not be written: {e}")))
}

/// The comparison drawn as `umpire diff --format svg` draws it: each adjudication's odds
/// under `old` (program `pa`) beside those under `new` (`pb`), an error in words.
pub fn chart(old: &str, new: &str, pa: &Program, pb: &Program, compared: &[Compared]) -> String {
    use crate::prob::svg;
    fn side(r: &Result<Distribution, Diag>) -> Result<&Distribution, String> {
        r.as_ref().map_err(|e| e.message.clone())
    }
    let shown: Vec<svg::Compared<'_>> = compared
        .iter()
        .map(|c| svg::Compared {
            name: &c.name,
            expr: &c.expr,
            old: side(&c.old),
            new: side(&c.new),
            absent: &c.absent,
        })
        .collect();
    svg::diff_chart(old, new, pa, pb, &shown)
}

#[cfg(test)]
mod tests {
    use super::without_field;

    /// The field named at `name` taken out of `text`, with its `,`.
    fn cut(text: &str, name: &str) -> Option<String> {
        let start = text.find(name)?;
        without_field(text, start, start + name.len())
    }

    #[test]
    fn a_field_is_taken_out_with_its_comma() {
        let t = "f({ grade: line, veteran: true })";
        assert_eq!(cut(t, "veteran").as_deref(), Some("f({ grade: line })"));
        let t = "f({ veteran: true, grade: line })";
        assert_eq!(cut(t, "veteran").as_deref(), Some("f({ grade: line })"));
        // A value with brackets, texts holding `,` and `}`, and an inch mark.
        let t = r#"f({ reach: max(6", 1'), note: "a, b }", men: 3 })"#;
        assert_eq!(
            cut(t, "reach").as_deref(),
            Some(r#"f({ note: "a, b }", men: 3 })"#)
        );
        assert_eq!(
            cut(t, "note").as_deref(),
            Some(r#"f({ reach: max(6", 1'), men: 3 })"#)
        );
        // Not a field: no `:` after the name.
        assert_eq!(cut("veteran + 1", "veteran"), None);
    }
}
