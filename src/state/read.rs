//! A state read from its tree into a value, checked against the ruleset's `state`
//! declaration — from a state file's text (some fields may be read as absent: `umpire
//! diff` loads a house rule's state into the ruleset it extends), or from a JSON value
//! (a game log's `state`).

use super::{Loader, Node, NodeKind};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::program::Program;
use crate::span::{SourceFile, SourceMap, Span};
use crate::value::Value;

/// The state `root` holds, checked against the record `sid` (the `state` declaration):
/// every field that does not fit is an error, at its place in the tree, except the
/// `absent` ones (record, field), which are passed over as if not written.
pub(super) fn root(
    program: &Program,
    sources: &SourceMap,
    sid: u32,
    root: &Node,
    absent: &[(String, String)],
) -> Result<Value, Diags> {
    let Some(info) = program.records.get(sid as usize).cloned() else {
        return Err(
            Diag::error(Code::StateUndeclared, "this ruleset declares no game state").into(),
        );
    };
    let mut loader = Loader {
        program,
        sources,
        absent,
        errors: Vec::new(),
    };
    let value = loader.record(root, &info, "the state");
    if loader.errors.is_empty() {
        if let Some(v) = value {
            return Ok(v);
        }
    }
    Err(Diags(std::mem::take(&mut loader.errors)))
}

/// Loads the state file at `path` as [`super::load`] does, reading the `absent` fields as
/// [`load_text_reading_absent`] does.
///
/// Errors: as [`super::load`].
pub fn load_reading_absent(
    program: &Program,
    sources: &SourceMap,
    path: &str,
    limits: &Limits,
    absent: &[(String, String)],
) -> Result<Value, Diags> {
    let text = crate::files::read_file(path, limits)?;
    load_text_reading_absent(program, sources, path, text, absent)
}

/// Loads a state as [`super::load_text`] does, reading the `absent` fields (record, field) as if
/// they were not written: `umpire diff` loads a house rule's state, which may set a field
/// the house rule adds (`veteran = true` on a `Unit`), into the ruleset it extends, which
/// has no such field. The field's default is taken where the record gives one.
///
/// Errors: as [`super::load`].
pub fn load_text_reading_absent(
    program: &Program,
    sources: &SourceMap,
    name: &str,
    text: String,
    absent: &[(String, String)],
) -> Result<Value, Diags> {
    let path = name;
    let Some(sid) = program.state else {
        return Err(Diag::error(
            Code::StateUndeclared,
            "this ruleset declares no game state",
        )
        .help("declare its shape in the ruleset: `state { move: 1.. = 1, units: group of Unit }`")
        .into());
    };
    // The state file joins a scratch copy of the program's sources, dropped on return.
    let mut sources = sources.clone();
    let (file, normalised) = sources.add(SourceFile::new(path, text));

    let json = path.to_ascii_lowercase().ends_with(".json");
    let tree = match if json {
        super::read_json(file, &normalised)
    } else {
        super::read_toml(file, &normalised)
    } {
        Ok(tree) => tree,
        Err(d) => return Err(Diags::from(d).with_sources(&sources)),
    };
    root(program, &sources, sid, &tree, absent).map_err(|ds| ds.with_sources(&sources))
}

/// Loads a state given as a JSON value (a game log's `state`), named `name`, against the
/// program's `state` declaration, as [`super::load_text`] loads a JSON state file —
/// without writing it out as text first (`sources`: the ruleset's files). Its diagnostics
/// have no place (the value has no text): each message names the field.
///
/// Errors: as [`super::load`].
pub fn from_json(
    program: &Program,
    sources: &SourceMap,
    name: &str,
    json: &serde_json::Value,
) -> Result<Value, Diags> {
    let Some(sid) = program.state else {
        return Err(
            Diag::error(Code::StateUndeclared, "this ruleset declares no game state").into(),
        );
    };
    let mut sources = sources.clone();
    let (file, _) = sources.add(SourceFile::new(name, ""));
    let tree = node(Span::new(file, 0, 0), json);
    root(program, &sources, sid, &tree, &[]).map_err(|ds| {
        Diags(
            ds.0.into_iter()
                .map(|mut d| {
                    d.labels.clear();
                    d
                })
                .collect(),
        )
    })
}

/// A JSON value as a tree, every node at `span`.
fn node(span: Span, v: &serde_json::Value) -> Node {
    use serde_json::Value as J;
    let kind = match v {
        J::Null => NodeKind::Other("null"),
        J::Bool(b) => NodeKind::Bool(*b),
        J::Number(n) => match n.as_i64() {
            Some(i) => NodeKind::Int(i),
            None if n.is_f64() => NodeKind::Decimal(n.to_string()),
            None => NodeKind::Other("a whole number too large to hold"),
        },
        J::String(t) => NodeKind::Text(t.clone()),
        J::Array(items) => NodeKind::List(items.iter().map(|x| node(span, x)).collect()),
        J::Object(m) => NodeKind::Table(
            m.iter()
                .map(|(k, x)| (k.clone(), span, node(span, x)))
                .collect(),
        ),
    };
    Node { kind, span }
}
