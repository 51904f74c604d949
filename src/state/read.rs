//! A state read from its tree into a value, checked against the ruleset's `state`
//! declaration — from a state file's tree, or from a JSON value (a game log's `state`).

use super::{Loader, Node, NodeKind};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
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
