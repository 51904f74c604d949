//! Game state files: the units on the table, the clock — a TOML or JSON file (by its
//! `.json` ending) checked against the
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

use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::program::{NumRange, Program, RecordInfo, Ty};
use crate::span::{FileId, SourceMap, Span};
use crate::value::written::{self, Written};
use crate::value::{Length, LengthUnit, Value};
use std::rc::Rc;
use toml_edit::{Item, Table, Value as Toml};

mod edit;
mod guard;
mod read;
pub use edit::to_file_text_keeping;
pub use guard::{
    holds_in_words, refuse_overwrite, state_there, write_atomic, write_atomic_with, write_state,
    SaveStage,
};
pub use read::{from_json, load_reading_absent, load_text_reading_absent};

/// Loads the state file at `path` against the program's `state` declaration (`sources`:
/// the program's files, for diagnostics that point into them; the state file is not
/// added to them).
///
/// Errors: no `state` in the ruleset, an unreadable or malformed file, and every field
/// that does not fit the declaration (all of them, each at its place in the file); a
/// file larger than `limits.file_bytes`.
pub fn load(
    program: &Program,
    sources: &SourceMap,
    path: &str,
    limits: &Limits,
) -> Result<Value, Diags> {
    let text = crate::files::read_file(path, limits)?;
    load_text(program, sources, path, text)
}

/// Loads a state from `text`, named `name` in diagnostics (JSON when the name ends in
/// `.json`, else TOML), against the program's `state` declaration — a state kept across
/// a ruleset's reload is checked against the new declaration this way.
///
/// Errors: as [`load`].
pub fn load_text(
    program: &Program,
    sources: &SourceMap,
    name: &str,
    text: String,
) -> Result<Value, Diags> {
    load_text_reading_absent(program, sources, name, text, &[])
}

/// A state file read into one tree, whatever its format: every node with its span.
#[derive(Debug, Clone)]
struct Node {
    kind: NodeKind,
    span: Span,
}

#[derive(Debug, Clone)]
enum NodeKind {
    Int(i64),
    Decimal(String),
    Text(String),
    Bool(bool),
    /// Keys in file order, each with the span of the key.
    Table(Vec<(String, Span, Node)>),
    List(Vec<Node>),
    Other(&'static str),
}

impl Node {
    fn kind_name(&self) -> &'static str {
        match &self.kind {
            NodeKind::Int(_) => "a whole number",
            NodeKind::Decimal(_) => "a decimal number",
            NodeKind::Text(_) => "text",
            NodeKind::Bool(_) => "true/false",
            NodeKind::Table(_) => "a table",
            NodeKind::List(_) => "a list",
            NodeKind::Other(what) => what,
        }
    }
}

fn span_of(file: FileId, r: Option<std::ops::Range<usize>>) -> Span {
    r.map_or(Span::new(file, 0, 0), |r| {
        Span::new(file, r.start, r.end.max(r.start + 1))
    })
}

/// A TOML state file as a tree; its syntax errors at their place.
/// The first bracket of a TOML or JSON state file's `text` nested deeper than the
/// nesting limit ([`crate::limits::MAX_NESTING`]), found before a parser recurses
/// into it: brackets inside texts (`"..."`, `'...'`, and their triple-quoted forms) and
/// `#` comments are not counted. One scanner serves both: JSON's texts are TOML's `"..."`,
/// and a JSON file with `#`, `'` or `"""` outside a text is refused by its parser at
/// that character, before any bracket after it.
fn too_deep_at(text: &str) -> Option<usize> {
    let b = text.as_bytes();
    let (mut depth, mut i) = (0usize, 0usize);
    while i < b.len() {
        match b[i] {
            b'#' => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            q @ (b'"' | b'\'') => {
                let three: &[u8] = if q == b'"' { b"\"\"\"" } else { b"'''" };
                let triple = b[i..].starts_with(three);
                i += if triple { 3 } else { 1 };
                while i < b.len() {
                    if q == b'"' && b[i] == b'\\' {
                        i += 2;
                        continue;
                    }
                    if triple && b[i..].starts_with(three) {
                        i += 2;
                        break;
                    }
                    if !triple && (b[i] == q || b[i] == b'\n') {
                        break;
                    }
                    i += 1;
                }
            }
            b'[' | b'{' => {
                depth += 1;
                if depth > crate::limits::MAX_NESTING {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
        i += 1;
    }
    None
}

/// The error for a state file whose brackets nest past the limit, at the first one past.
fn too_deep(file: FileId, at: usize) -> Diag {
    Diag::at(
        Code::LimitNesting,
        format!(
            "brackets nested more than {} deep",
            crate::limits::MAX_NESTING
        ),
        Span::new(file, at, at + 1),
        "too deep",
    )
}

fn read_toml(file: FileId, text: &str) -> Result<Node, Diag> {
    if let Some(at) = too_deep_at(text) {
        return Err(too_deep(file, at));
    }
    let doc = toml_edit::ImDocument::parse(text).map_err(|e| {
        let r = e.span().unwrap_or(0..0);
        let end = if r.end > r.start {
            r.end
        } else {
            (r.start + 1).min(text.len())
        };
        let msg = e.message().trim().to_string();
        Diag::at(
            Code::StateFormat,
            format!("state file: {msg}"),
            Span::new(file, r.start, end),
            msg,
        )
    })?;
    let mut root = toml_table(file, doc.as_table());
    root.span = Span::new(file, 0, 0);
    Ok(root)
}

fn toml_table(file: FileId, t: &Table) -> Node {
    let entries = t
        .iter()
        .map(|(k, item)| {
            let key = span_of(file, t.key(k).and_then(|k| k.span()));
            let mut node = toml_item(file, item);
            if node.span.end == 0 {
                node.span = key;
            }
            (k.to_string(), key, node)
        })
        .collect();
    Node {
        kind: NodeKind::Table(entries),
        span: span_of(file, t.span()),
    }
}

fn toml_item(file: FileId, item: &Item) -> Node {
    match item {
        Item::Table(t) => toml_table(file, t),
        Item::Value(v) => toml_value(file, v),
        Item::ArrayOfTables(a) => Node {
            kind: NodeKind::List(a.iter().map(|t| toml_table(file, t)).collect()),
            span: span_of(file, a.span()),
        },
        Item::None => Node {
            kind: NodeKind::Other("nothing"),
            span: Span::new(file, 0, 0),
        },
    }
}

fn toml_value(file: FileId, v: &Toml) -> Node {
    let span = span_of(file, v.span());
    let kind = match v {
        Toml::String(s) => NodeKind::Text(s.value().clone()),
        Toml::Integer(i) => NodeKind::Int(*i.value()),
        Toml::Float(f) => NodeKind::Decimal(f.display_repr().to_string()),
        Toml::Boolean(b) => NodeKind::Bool(*b.value()),
        Toml::Datetime(_) => NodeKind::Other("a date"),
        Toml::Array(a) => NodeKind::List(a.iter().map(|x| toml_value(file, x)).collect()),
        Toml::InlineTable(t) => {
            let entries = t
                .iter()
                .map(|(k, x)| {
                    let key = span_of(file, t.key(k).and_then(|k| k.span()));
                    (k.to_string(), key, toml_value(file, x))
                })
                .collect();
            NodeKind::Table(entries)
        }
    };
    Node { kind, span }
}

/// A JSON state file as a tree; its syntax errors at their place.
fn read_json(file: FileId, text: &str) -> Result<Node, Diag> {
    if let Some(at) = too_deep_at(text) {
        return Err(too_deep(file, at));
    }
    let options = jsonc_parser::ParseOptions {
        allow_comments: false,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
    };
    let parsed =
        jsonc_parser::parse_to_ast(text, &jsonc_parser::CollectOptions::default(), &options)
            .map_err(|e| {
                let r = e.range();
                let msg = e.kind().to_string();
                Diag::at(
                    Code::StateFormat,
                    format!("state file: {msg}"),
                    Span::new(file, r.start, r.end.max(r.start + 1)),
                    msg,
                )
            })?;
    match parsed.value {
        Some(v) => {
            let root = json_value(file, &v);
            // JSON lets a key stand twice; a state file may not (which would count?).
            match first_duplicate(&root) {
                Some((key, span)) => Err(Diag::at(
                    Code::StateDuplicate,
                    format!("`{key}` is given twice"),
                    span,
                    "given again",
                )),
                None => Ok(root),
            }
        }
        None => Err(Diag::error(Code::StateFormat, "the state file is empty")
            .help("a JSON state file is one object: { \"move\": 1, ... }")),
    }
}

fn json_value(file: FileId, v: &jsonc_parser::ast::Value<'_>) -> Node {
    use jsonc_parser::ast::Value as J;
    let r = |r: jsonc_parser::common::Range| Span::new(file, r.start, r.end.max(r.start + 1));
    match v {
        J::StringLit(s) => Node {
            kind: NodeKind::Text(s.value.to_string()),
            span: r(s.range),
        },
        J::NumberLit(n) => {
            let kind = match n.value.parse::<i64>() {
                Ok(i) => NodeKind::Int(i),
                Err(_) if n.value.contains(['.', 'e', 'E']) => {
                    NodeKind::Decimal(n.value.to_string())
                }
                Err(_) => NodeKind::Other("a whole number too large to hold"),
            };
            Node {
                kind,
                span: r(n.range),
            }
        }
        J::BooleanLit(b) => Node {
            kind: NodeKind::Bool(b.value),
            span: r(b.range),
        },
        J::NullKeyword(n) => Node {
            kind: NodeKind::Other("null"),
            span: r(n.range),
        },
        J::Array(a) => Node {
            kind: NodeKind::List(a.elements.iter().map(|x| json_value(file, x)).collect()),
            span: r(a.range),
        },
        J::Object(o) => {
            let entries: Vec<(String, Span, Node)> = o
                .properties
                .iter()
                .map(|p| {
                    let (name, key) = match &p.name {
                        jsonc_parser::ast::ObjectPropName::String(s) => {
                            (s.value.to_string(), r(s.range))
                        }
                        jsonc_parser::ast::ObjectPropName::Word(w) => {
                            (w.value.to_string(), r(w.range))
                        }
                    };
                    (name, key, json_value(file, &p.value))
                })
                .collect();
            Node {
                kind: NodeKind::Table(entries),
                span: r(o.range),
            }
        }
    }
}

struct Loader<'p> {
    program: &'p Program,
    sources: &'p SourceMap,
    /// Fields (record, field) passed over as if not written.
    absent: &'p [(String, String)],
    errors: Vec<Diag>,
}

impl Loader<'_> {
    fn wrong(&mut self, node: &Node, want: &Ty) {
        let want = want.describe(self.program);
        let got = node.kind_name();
        let d = Diag::at(
            Code::StateType,
            format!("expected {want}, found {got}"),
            node.span,
            format!("this is {got}"),
        );
        let d = match want.as_str() {
            "a length" => {
                d.help("write a length as text with its mark: `reach = '6\"'` or `\"2'\"`")
            }
            "a time in moves" => d.help("write a time as text: `wait = \"1/2 move\"`"),
            "a time in minutes" => d.help("write minutes as text: `clock = \"7 minutes\"`"),
            _ => d,
        };
        self.errors.push(d);
    }

    /// A table read as a record of `info`'s shape: every field, defaults for the ones
    /// left out that have a written-out default.
    fn record(&mut self, node: &Node, info: &RecordInfo, what: &str) -> Option<Value> {
        let NodeKind::Table(entries) = &node.kind else {
            self.wrong(node, &Ty::Record(info.shape.clone()));
            return None;
        };
        let names: Vec<&str> = info.shape.fields.iter().map(|(n, _)| &**n).collect();
        for (key, key_span, _) in entries {
            let absent = self.absent.iter().any(|(r, f)| *r == info.name && f == key);
            if !names.contains(&key.as_str()) && !absent {
                let d = Diag::at(
                    Code::StateUnknownField,
                    format!("{what} has no field `{key}`"),
                    *key_span,
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
            match entries.iter().find(|(k, _, _)| k == &**name) {
                Some((_, _, sub)) => match self.value(sub, ty, range, name) {
                    Some(v) => out.push((name.clone(), v)),
                    None => ok = false,
                },
                // A group left out of the file has no members: nothing of that kind
                // is on the table (a state file written before the group was added
                // still loads).
                None if matches!(ty, Ty::Group(_)) => {
                    out.push((name.clone(), Value::Group(Rc::new(Vec::new()))));
                }
                None => match info.default_values.get(i).cloned().flatten() {
                    Some(v) => out.push((name.clone(), v)),
                    None => {
                        ok = false;
                        let span = first_line(node.span, self.sources);
                        let d = if info.has_default.get(i) == Some(&true) {
                            Diag::at(Code::StateMissingField, format!("{what} needs `{name}`: its default is worked out, not written out"), span, format!("no `{name}`"))
                        } else {
                            Diag::at(
                                Code::StateMissingField,
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
        node: &Node,
        ty: &Ty,
        range: Option<NumRange>,
        name: &str,
    ) -> Option<Value> {
        let span = node.span;
        match (ty, &node.kind) {
            (Ty::Int | Ty::Num, NodeKind::Int(n)) => {
                self.in_range(Value::int(*n), range, span, name)
            }
            (Ty::Length, NodeKind::Text(s)) => {
                let v = self.written(s, ty, span, name)?;
                self.in_range(v, range, span, name)
            }
            (Ty::Num | Ty::Time | Ty::Minutes, NodeKind::Text(s)) => {
                self.written(s, ty, span, name)
            }
            (Ty::Num, NodeKind::Decimal(d)) => self.written(d, ty, span, name),
            (Ty::Bool, NodeKind::Bool(b)) => Some(Value::Bool(*b)),
            (Ty::Text, NodeKind::Text(s)) => Some(Value::Text(Rc::from(s.as_str()))),
            (Ty::Enum(e), NodeKind::Text(s)) => {
                let en = self.program.enums.get(usize::from(*e))?;
                match en.values.iter().position(|v| *v.name == **s) {
                    Some(i) => Some(Value::Enum(*e, u16::try_from(i).unwrap_or(u16::MAX))),
                    None => {
                        let names: Vec<&str> = en.values.iter().map(|v| &*v.name).collect();
                        let d = Diag::at(
                            Code::StateUnknownValue,
                            format!("`{s}` is not a value of {}", en.name),
                            span,
                            format!("not a value of {}", en.name),
                        )
                        .suggest(s, names.iter().copied())
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
            (Ty::Record(shape), NodeKind::Table(_)) => {
                let info = shape
                    .name
                    .as_ref()
                    .and_then(|n| self.program.records.iter().find(|r| &r.name == n))
                    .cloned();
                match info {
                    Some(info) => self.record(node, &info, &format!("`{name}`")),
                    None => {
                        self.errors.push(Diag::at(
                            Code::StateType,
                            "a record in a state file needs a declared record type",
                            span,
                            "no type",
                        ));
                        None
                    }
                }
            }
            (Ty::Group(member), NodeKind::Table(entries)) => {
                let mut out = Vec::new();
                let mut ok = true;
                for (key, key_span, sub) in entries {
                    if !crate::names::is_name(key) {
                        self.errors.push(
                            Diag::at(Code::StateMemberName, format!("`{key}` cannot be written in an expression as a member's name"), *key_span, "not a name")
                                .help("a member's name is letters, digits and `_`, starting with a letter: `second_foot`, `guard_2`"),
                        );
                        ok = false;
                        continue;
                    }
                    match self.value(sub, member, None, key) {
                        Some(v) => out.push((Rc::from(key.as_str()), v)),
                        None => ok = false,
                    }
                }
                ok.then(|| Value::Group(Rc::new(out)))
            }
            (Ty::Pair(part), NodeKind::List(items)) if items.len() == 2 => {
                let first = self.value(&items[0], part, range, name)?;
                let second = self.value(&items[1], part, range, name)?;
                Some(Value::Pair(Rc::new((first, second))))
            }
            _ => {
                self.wrong(node, ty);
                None
            }
        }
    }

    /// `v` if it lies in `range` (a whole number or a length); else an error pointing at
    /// the value, naming the field, the range and the value.
    fn in_range(
        &mut self,
        v: Value,
        range: Option<NumRange>,
        span: Span,
        name: &str,
    ) -> Option<Value> {
        let Some(r) = range.filter(|r| !r.contains(&v)) else {
            return Some(v);
        };
        let shown = match &v {
            Value::Length(l) => l.to_string(),
            other => other.as_int().map_or_else(String::new, |n| n.to_string()),
        };
        self.errors.push(Diag::at(
            Code::StateRange,
            format!("`{name}` must be {r}, but is {shown}"),
            span,
            "out of range",
        ));
        None
    }

    /// A number, length or time written as text: `"3/4"`, `'6"'`, `"2'"`, `"1/2 move"`.
    fn written(&mut self, text: &str, ty: &Ty, span: Span, name: &str) -> Option<Value> {
        // A length or time below zero (`'-1/3"'`, as the state writer writes one).
        let (negative, body) = match text.trim_start().strip_prefix('-') {
            Some(rest) if matches!(ty, Ty::Length | Ty::Time | Ty::Minutes) => (true, rest),
            _ => (false, text),
        };
        let value = match (ty, written::read(body)) {
            // `"3/4"`, `"-1 1/2"`: a fraction as the rulebook writes it.
            (Ty::Num, Some(Written::Number(r))) => Some(Value::num(r)),
            (Ty::Length, Some(Written::Length(r, unit))) => {
                let inches = match unit {
                    LengthUnit::Inches => Some(r),
                    LengthUnit::Feet => {
                        crate::value::arith::mul(r, crate::value::Rational::from_integer(12)).ok()
                    }
                };
                inches.map(|inches| Value::Length(Length { inches, unit }))
            }
            (Ty::Time, Some(Written::Time(r))) => Some(Value::Time(r)),
            (Ty::Minutes, Some(Written::Minutes(r))) => Some(Value::Minutes(r)),
            _ => None,
        };
        let value = match value {
            Some(Value::Length(Length { inches, unit })) if negative => {
                crate::value::arith::neg(inches)
                    .ok()
                    .map(|inches| Value::Length(Length { inches, unit }))
            }
            Some(Value::Time(r)) if negative => crate::value::arith::neg(r).ok().map(Value::Time),
            Some(Value::Minutes(r)) if negative => {
                crate::value::arith::neg(r).ok().map(Value::Minutes)
            }
            v => v,
        };
        if value.is_none() {
            let want = ty.describe(self.program);
            self.errors.push(
                Diag::at(
                    Code::StateType,
                    format!("`{name}`: `{text}` is not {want}"),
                    span,
                    format!("not {want}"),
                )
                .help(
                    "write lengths `'6\"'` or `\"2'\"`, times `\"1/2 move\"`, minutes `\"7 minutes\"`, fractions `\"3/4\"`",
                ),
            );
        }
        value
    }
}

/// The first key given twice in one table, anywhere in the tree.
fn first_duplicate(node: &Node) -> Option<(String, Span)> {
    match &node.kind {
        NodeKind::Table(entries) => {
            for (i, (key, span, sub)) in entries.iter().enumerate() {
                if entries[..i].iter().any(|(k, _, _)| k == key) {
                    return Some((key.clone(), *span));
                }
                if let Some(d) = first_duplicate(sub) {
                    return Some(d);
                }
            }
            None
        }
        NodeKind::List(items) => items.iter().find_map(first_duplicate),
        _ => None,
    }
}

/// The first line of a span (a table's header, not its whole body).
fn first_line(span: Span, sources: &SourceMap) -> Span {
    let text = sources.snippet(span);
    match text.find('\n') {
        Some(i) if i > 0 => Span {
            end: span.start + u32::try_from(i).unwrap_or(0),
            ..span
        },
        _ => span,
    }
}

/// The state after `effects`, applied in order (the old state is left as it was).
///
/// Errors: an effect whose path is not in the state (it was, when the effect was made,
/// unless an earlier effect replaced what lies on its way).
pub fn apply(state: &Value, effects: &[crate::adjudication::Effect]) -> Result<Value, Diag> {
    let mut now = state.clone();
    for e in effects {
        now = set_path(&now, &e.path, e.to.clone()).ok_or_else(|| {
            Diag::error(
                Code::StateApply,
                format!("`{}` is not in the state any more", e.path_text()),
            )
        })?;
    }
    Ok(now)
}

/// `v` with the value at `path` replaced by `to`; shared parts are not copied.
fn set_path(v: &Value, path: &[String], to: Value) -> Option<Value> {
    let Some((first, rest)) = path.split_first() else {
        return Some(to);
    };
    let (fields, group) = match v {
        Value::Record(f) => (f, false),
        Value::Group(f) => (f, true),
        _ => return None,
    };
    let i = fields.iter().position(|(n, _)| **n == **first)?;
    let mut out = fields.as_ref().clone();
    out[i].1 = set_path(&fields[i].1, rest, to)?;
    Some(if group {
        Value::Group(Rc::new(out))
    } else {
        Value::Record(Rc::new(out))
    })
}

/// The state as a TOML state file that loads back to the same state: whole numbers as
/// numbers, fractions as `"3/4"`, lengths `'12"'`, times `"1/2 move"`, enum values by name.
pub fn to_toml(program: &Program, state: &Value) -> String {
    let mut doc = toml_edit::DocumentMut::new();
    if let Value::Record(fields) = state {
        for (name, v) in fields.iter() {
            doc.insert(name, write_item(program, v));
        }
    }
    doc.to_string()
}

fn write_item(program: &Program, v: &Value) -> Item {
    match v {
        Value::Record(fields) | Value::Group(fields) => {
            let mut t = Table::new();
            for (name, f) in fields.iter() {
                t.insert(name, write_item(program, f));
            }
            // A table holding only tables needs no header of its own (`[units]`).
            t.set_implicit(matches!(v, Value::Group(_)));
            Item::Table(t)
        }
        other => Item::Value(write_plain(program, other)),
    }
}

fn write_plain(program: &Program, v: &Value) -> Toml {
    match v {
        Value::Int(i) => Toml::from(*i),
        Value::Frac(r) => Toml::from(crate::value::Mixed(*r).to_string()),
        Value::Length(l) => Toml::from(l.to_string()),
        Value::Time(t) => Toml::from(crate::value::Moves(*t).to_string()),
        Value::Minutes(t) => Toml::from(crate::value::RealMinutes(*t).to_string()),
        Value::Bool(b) => Toml::from(*b),
        Value::Text(t) => Toml::from(t.to_string()),
        Value::Enum(e, i) => Toml::from(
            program
                .enum_value(*e, *i)
                .map_or("?".to_string(), |x| x.name.to_string()),
        ),
        Value::Pair(p) => {
            let mut a = toml_edit::Array::new();
            a.push(write_plain(program, &p.0));
            a.push(write_plain(program, &p.1));
            Toml::Array(a)
        }
        Value::Record(_) | Value::Group(_) => {
            let mut t = toml_edit::InlineTable::new();
            if let Item::Table(table) = write_item(program, v) {
                for (k, item) in table.iter() {
                    if let Some(x) = item.as_value() {
                        t.insert(k, x.clone());
                    }
                }
            }
            Toml::InlineTable(t)
        }
    }
}

/// The state as a JSON state file that loads back (the same writing as [`to_toml`]).
pub fn to_json(program: &Program, state: &Value) -> String {
    let mut text = serde_json::to_string_pretty(&to_json_value(program, state)).unwrap_or_default();
    text.push('\n');
    text
}

/// The state as the JSON value a JSON state file holds (what [`to_json`] writes).
pub fn to_json_value(program: &Program, state: &Value) -> serde_json::Value {
    fn plain(program: &Program, v: &Value) -> serde_json::Value {
        match v {
            Value::Int(i) => serde_json::json!(i),
            Value::Frac(r) => serde_json::json!(crate::value::Mixed(*r).to_string()),
            Value::Length(l) => serde_json::json!(l.to_string()),
            Value::Time(t) => serde_json::json!(crate::value::Moves(*t).to_string()),
            Value::Minutes(t) => serde_json::json!(crate::value::RealMinutes(*t).to_string()),
            Value::Bool(b) => serde_json::json!(b),
            Value::Text(t) => serde_json::json!(&**t),
            Value::Enum(e, i) => {
                serde_json::json!(program.enum_value(*e, *i).map_or("?", |x| &*x.name))
            }
            Value::Pair(p) => serde_json::json!([plain(program, &p.0), plain(program, &p.1)]),
            Value::Record(fields) | Value::Group(fields) => {
                let mut m = serde_json::Map::new();
                for (n, f) in fields.iter() {
                    m.insert(n.to_string(), plain(program, f));
                }
                serde_json::Value::Object(m)
            }
        }
    }
    plain(program, state)
}

/// The state written the way `path` will be read: JSON for a `.json` name, else TOML.
pub fn to_file_text(program: &Program, state: &Value, path: &str) -> String {
    if path.to_ascii_lowercase().ends_with(".json") {
        to_json(program, state)
    } else {
        to_toml(program, state)
    }
}
