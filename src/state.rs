//! Game state files: the units on the table, the clock — a TOML file checked against the
//! ruleset's `state { ... }` declaration. Every error points at the field in the state
//! file: unknown fields (with "did you mean"), wrong kinds of value, missing fields that
//! have no default, whole numbers outside their declared range.
//!
//! The loader stands on values and types only: it evaluates nothing. A field left out
//! takes its default only when the default is written out in the ruleset (`= 0`,
//! `= false`, `= { men: 0 }`).
//!
//! ```toml
//! move = 3
//! [units.old_guard]
//! grade = "guard"
//! men = 20
//! ```

use crate::diagnostic::{Diag, Diags};
use crate::program::{IntRange, Program, RecordInfo, Ty};
use crate::span::{FileId, SourceFile, Span};
use crate::syntax::ast::ExprKind;
use crate::value::{Length, Value};
use std::rc::Rc;
use toml_edit::{Item, Table, Value as Toml};

/// Loads the state file at `path` against the program's `state` declaration.
///
/// Errors: no `state` in the ruleset, an unreadable or malformed file, and every field
/// that does not fit the declaration (all of them, each at its place in the file).
pub fn load(program: &mut Program, path: &str) -> Result<Value, Diags> {
    let text = crate::read_file(path)?;
    let Some(sid) = program.state else {
        return Err(Diag::error(
            "umpire::state::undeclared",
            "this ruleset declares no game state",
        )
        .help("declare its shape in the ruleset: `state { move: 1.. = 1, units: group of Unit }`")
        .into());
    };
    let file = program.sources.add(SourceFile::new(path, text));
    let normalised = program
        .sources
        .get(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    let attach = |ds: Vec<Diag>, p: &Program| {
        Diags(ds.into_iter().map(|d| d.with_sources(&p.sources)).collect())
    };
    let doc = match toml_edit::ImDocument::parse(normalised.as_str()) {
        Ok(doc) => doc,
        Err(e) => {
            let r = e.span().unwrap_or(0..0);
            let end = if r.end > r.start {
                r.end
            } else {
                (r.start + 1).min(normalised.len())
            };
            let d = Diag::at(
                "umpire::state::format",
                format!("state file: {}", e.message().trim()),
                Span::new(file, r.start, end),
                e.message().trim().to_string(),
            );
            return Err(attach(vec![d], program));
        }
    };
    let Some(info) = program.records.get(sid as usize).cloned() else {
        return Err(Diag::error(
            "umpire::state::undeclared",
            "this ruleset declares no game state",
        )
        .into());
    };
    let mut loader = Loader {
        program,
        file,
        errors: Vec::new(),
    };
    let whole = Span::new(file, 0, 0);
    let value = loader.record(doc.as_table(), &info, whole, "the state");
    if loader.errors.is_empty() {
        if let Some(v) = value {
            return Ok(v);
        }
    }
    let errors = std::mem::take(&mut loader.errors);
    Err(attach(errors, program))
}

struct Loader<'p> {
    program: &'p Program,
    file: FileId,
    errors: Vec<Diag>,
}

fn span_of(file: FileId, r: Option<std::ops::Range<usize>>, fallback: Span) -> Span {
    r.map_or(fallback, |r| {
        Span::new(file, r.start, r.end.max(r.start + 1))
    })
}

fn kind_of(item: &Item) -> &'static str {
    match item {
        Item::Value(Toml::String(_)) => "text",
        Item::Value(Toml::Integer(_)) => "a whole number",
        Item::Value(Toml::Float(_)) => "a decimal number",
        Item::Value(Toml::Boolean(_)) => "true/false",
        Item::Value(Toml::Datetime(_)) => "a date",
        Item::Value(Toml::Array(_)) | Item::ArrayOfTables(_) => "a list",
        Item::Value(Toml::InlineTable(_)) | Item::Table(_) => "a table",
        Item::None => "nothing",
    }
}

impl Loader<'_> {
    fn wrong(&mut self, span: Span, want: &Ty, item: &Item) {
        let want = want.describe(self.program);
        let got = kind_of(item);
        let d = Diag::at(
            "umpire::state::type",
            format!("expected {want}, found {got}"),
            span,
            format!("this is {got}"),
        );
        let d = match want.as_str() {
            "a length" => {
                d.help("write a length as text with its mark: `reach = '6\"'` or `\"2'\"`")
            }
            "a time in moves" => d.help("write a time as text: `wait = \"1/2 move\"`"),
            _ => d,
        };
        self.errors.push(d);
    }

    /// A table read as a record of `info`'s shape: every field, defaults for the ones
    /// left out that have a written-out default.
    fn record(&mut self, table: &Table, info: &RecordInfo, at: Span, what: &str) -> Option<Value> {
        let names: Vec<&str> = info.shape.fields.iter().map(|(n, _)| &**n).collect();
        for (key, _) in table.iter() {
            if !names.contains(&key) {
                let span = span_of(self.file, table.key(key).and_then(|k| k.span()), at);
                let d = Diag::at(
                    "umpire::state::unknown_field",
                    format!("{what} has no field `{key}`"),
                    span,
                    "not a field",
                )
                .suggest(key, names.iter().copied());
                self.errors
                    .push(d.help(format!("its fields: {}", names.join(", "))));
            }
        }
        let mut out = Vec::with_capacity(info.shape.fields.len());
        let mut ok = true;
        for (i, (name, ty)) in info.shape.fields.iter().enumerate() {
            let range = info.ranges.get(i).copied().flatten();
            match table.get(name) {
                Some(item) => {
                    let span = span_of(
                        self.file,
                        item.span()
                            .or_else(|| table.key(name).and_then(|k| k.span())),
                        at,
                    );
                    match self.value(item, ty, range, span, name) {
                        Some(v) => out.push((name.clone(), v)),
                        None => ok = false,
                    }
                }
                None => match info.default_values.get(i).cloned().flatten() {
                    Some(v) => out.push((name.clone(), v)),
                    None => {
                        ok = false;
                        let span = first_line(span_of(self.file, table.span(), at), self.program);
                        let d = if info.has_default.get(i) == Some(&true) {
                            Diag::at("umpire::state::missing_field", format!("{what} needs `{name}`: its default is worked out, not written out"), span, format!("no `{name}`"))
                        } else {
                            Diag::at(
                                "umpire::state::missing_field",
                                format!("{what} has no `{name}`, and it has no default"),
                                span,
                                format!("no `{name}`"),
                            )
                        };
                        self.errors.push(d.help(format!(
                            "add `{name} = ...` ({})",
                            ty.describe(self.program)
                        )));
                    }
                },
            }
        }
        ok.then(|| Value::Record(Rc::new(out)))
    }

    fn value(
        &mut self,
        item: &Item,
        ty: &Ty,
        range: Option<IntRange>,
        span: Span,
        name: &str,
    ) -> Option<Value> {
        match (ty, item) {
            (Ty::Int | Ty::Num, Item::Value(Toml::Integer(i))) => {
                let n = *i.value();
                if let Some(r) = range {
                    if n < r.lo || r.hi.is_some_and(|h| n > h) {
                        self.errors.push(Diag::at(
                            "umpire::state::range",
                            format!("`{name}` must be {r}, but is {n}"),
                            span,
                            "out of range",
                        ));
                        return None;
                    }
                }
                Some(Value::int(n))
            }
            (Ty::Num | Ty::Length | Ty::Time, Item::Value(Toml::String(s))) => {
                self.written(s.value(), ty, span, name)
            }
            (Ty::Bool, Item::Value(Toml::Boolean(b))) => Some(Value::Bool(*b.value())),
            (Ty::Text, Item::Value(Toml::String(s))) => {
                Some(Value::Text(Rc::from(s.value().as_str())))
            }
            (Ty::Enum(e), Item::Value(Toml::String(s))) => {
                let en = self.program.enums.get(usize::from(*e))?;
                match en.values.iter().position(|v| *v.name == **s.value()) {
                    Some(i) => Some(Value::Enum(*e, u16::try_from(i).unwrap_or(u16::MAX))),
                    None => {
                        let names: Vec<&str> = en.values.iter().map(|v| &*v.name).collect();
                        let d = Diag::at(
                            "umpire::state::unknown_value",
                            format!("`{}` is not a value of {}", s.value(), en.name),
                            span,
                            format!("not a value of {}", en.name),
                        )
                        .suggest(s.value(), names.iter().copied())
                        .help(format!(
                            "the values of {}: {}",
                            en.name,
                            names.join(", ")
                        ));
                        self.errors.push(d);
                        None
                    }
                }
            }
            (Ty::Record(shape), _) => {
                let table = as_table(item)?;
                let info = shape
                    .name
                    .as_ref()
                    .and_then(|n| self.program.records.iter().find(|r| &r.name == n))
                    .cloned();
                match info {
                    Some(info) => self.record(&table, &info, span, &format!("`{name}`")),
                    None => {
                        self.errors.push(Diag::at(
                            "umpire::state::type",
                            "a record in a state file needs a declared record type",
                            span,
                            "no type",
                        ));
                        None
                    }
                }
            }
            (Ty::Group(member), _) => {
                let Some(table) = as_table(item) else {
                    self.wrong(span, ty, item);
                    return None;
                };
                let mut out = Vec::new();
                let mut ok = true;
                for (key, sub) in table.iter() {
                    let sub_span = span_of(
                        self.file,
                        sub.span().or_else(|| table.key(key).and_then(|k| k.span())),
                        span,
                    );
                    match self.value(sub, member, None, sub_span, key) {
                        Some(v) => out.push((Rc::from(key), v)),
                        None => ok = false,
                    }
                }
                ok.then(|| Value::Group(Rc::new(out)))
            }
            (Ty::Pair(part), Item::Value(Toml::Array(a))) if a.len() == 2 => {
                let first = self.value(&Item::Value(a.get(0)?.clone()), part, range, span, name)?;
                let second =
                    self.value(&Item::Value(a.get(1)?.clone()), part, range, span, name)?;
                Some(Value::Pair(Rc::new((first, second))))
            }
            _ => {
                self.wrong(span, ty, item);
                None
            }
        }
    }

    /// A number, length or time written as text: `"3/4"`, `'6"'`, `"2'"`, `"1/2 move"`.
    fn written(&mut self, text: &str, ty: &Ty, span: Span, name: &str) -> Option<Value> {
        let parsed = crate::syntax::parse_expr(FileId(u32::MAX), text)
            .ok()
            .map(|e| e.kind);
        let value = match (ty, parsed) {
            (Ty::Num, Some(ExprKind::Number(r))) => Some(Value::Num(r)),
            (Ty::Length, Some(ExprKind::Length(r, unit))) => {
                let inches = match unit {
                    crate::syntax::ast::LengthUnit::Inches => Some(r),
                    crate::syntax::ast::LengthUnit::Feet => {
                        crate::value::arith::mul(r, crate::value::Rational::from_integer(12)).ok()
                    }
                };
                inches.map(|inches| Value::Length(Length { inches, unit }))
            }
            (Ty::Time, Some(ExprKind::Time(r))) => Some(Value::Time(r)),
            _ => None,
        };
        if value.is_none() {
            let want = ty.describe(self.program);
            self.errors.push(
                Diag::at(
                    "umpire::state::type",
                    format!("`{name}`: `{text}` is not {want}"),
                    span,
                    format!("not {want}"),
                )
                .help(
                    "write lengths `'6\"'` or `\"2'\"`, times `\"1/2 move\"`, fractions `\"3/4\"`",
                ),
            );
        }
        value
    }
}

/// The first line of a span (a table's header, not its whole body).
fn first_line(span: Span, program: &Program) -> Span {
    let text = program.sources.snippet(span);
    match text.find('\n') {
        Some(i) if i > 0 => Span {
            end: span.start + u32::try_from(i).unwrap_or(0),
            ..span
        },
        _ => span,
    }
}

/// A TOML table, whether written `[name]` or inline `{ ... }`.
fn as_table(item: &Item) -> Option<Table> {
    match item {
        Item::Table(t) => Some(t.clone()),
        Item::Value(Toml::InlineTable(t)) => Some(t.clone().into_table()),
        _ => None,
    }
}
