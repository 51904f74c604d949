//! The Ruleset screen's API: every definition of the ruleset in use — its kind, name,
//! signature, citation, doc comment (the `#` lines right above it), file and line, and
//! its text as written — read from the syntax trees of the ruleset's files (a house
//! rule's and its base's); and the checker's problems with the files as they are on
//! disk now (the game's thread reads them again when one changes).

use super::problem::Problem;
use super::App;
use crate::program::{signature_text, Program};
use crate::span::{FileId, SourceFile, SourceMap, Span, Spanned};
use crate::syntax::ast::{self, Item};
use axum::extract::State;
use axum::routing::get;
use axum::{Json, Router};
use serde_json::{json, Value as JsonValue};

/// The routes.
pub fn routes() -> Router<App> {
    Router::new().route("/api/rules", get(rules))
}

/// `GET /api/rules`.
async fn rules(State(app): State<App>) -> Result<Json<JsonValue>, Problem> {
    let answer = app
        .desk
        .ask(|d| {
            let r = d.game.ruleset();
            let p = &r.program;
            Ok(json!({
                "title": p.title.clone().unwrap_or_else(|| d.game.source().name().to_string()),
                "cite": p.cite.as_deref(),
                "definitions": definitions(p, &r.sources),
                "problems": d.problems,
                "deferred": d.deferred,
                "version": d.rules_version,
            }))
        })
        .await?;
    Ok(Json(answer))
}

/// Every definition of the ruleset's files, file by file (a house rule's first, then
/// its base's), each in source order.
pub fn definitions(p: &Program, sources: &SourceMap) -> Vec<JsonValue> {
    let mut out = Vec::new();
    for (i, file) in sources.files().iter().enumerate() {
        if !is_ruleset_file(&file.name) {
            continue;
        }
        let id = FileId(u32::try_from(i).unwrap_or(u32::MAX));
        let Ok(tree) = crate::syntax::parse_file(id, &file.text) else {
            continue;
        };
        for item in &tree.items {
            if let Some(def) = definition(p, file, item, "") {
                out.push(def);
            }
        }
    }
    mark_overridden(&mut out);
    out
}

/// Marks each definition a later `override` replaces or changes (a base's, under a
/// house rule's): `"overridden_by": FILE`.
fn mark_overridden(defs: &mut [JsonValue]) {
    let overrides: Vec<(String, String, JsonValue)> = defs
        .iter()
        .filter_map(|d| {
            let kind = d["kind"].as_str()?.strip_prefix("override ")?;
            let name = d["name"].as_str()?;
            Some((kind.to_string(), name.to_string(), d["file"].clone()))
        })
        .collect();
    for d in defs.iter_mut() {
        let (Some(kind), Some(name)) = (d["kind"].as_str(), d["name"].as_str()) else {
            continue;
        };
        let by = overrides
            .iter()
            .find(|(k, n, file)| k == kind && n == name && *file != d["file"])
            .map(|(_, _, file)| file.clone());
        if let Some(file) = by {
            d["overridden_by"] = file;
        }
    }
}

/// A ruleset's file (not a question's, a state's or a scenario's).
fn is_ruleset_file(name: &str) -> bool {
    name.starts_with("bundled:") || name.to_ascii_lowercase().ends_with(".rules")
}

/// What a definition is: its kind, name, citation and where its text ends (or `None`:
/// its text runs to the brace that closes its block).
struct Found<'a> {
    kind: &'static str,
    name: &'a str,
    at: Span,
    cite: Option<&'a Spanned<String>>,
    end: Option<Span>,
}

fn found(item: &Item) -> Option<Found<'_>> {
    fn braced<'a>(
        kind: &'static str,
        name: &'a ast::Name,
        cite: &'a Option<Spanned<String>>,
    ) -> Found<'a> {
        Found {
            kind,
            name: &name.node,
            at: name.span,
            cite: cite.as_ref(),
            end: None,
        }
    }
    Some(match item {
        Item::Const(c) => Found {
            end: Some(
                c.cite
                    .as_ref()
                    .map_or(c.value.span, |s| c.value.span.to(s.span)),
            ),
            ..braced("const", &c.name, &c.cite)
        },
        Item::Enum(e) => braced("enum", &e.name, &e.cite),
        Item::Record(r) => braced("record", &r.name, &r.cite),
        Item::State(r) => braced("state", &r.name, &r.cite),
        Item::Rule(r) => Found {
            end: Some(r.body.span),
            ..braced("rule", &r.name, &r.cite)
        },
        Item::Table(t) => braced("table", &t.name, &t.cite),
        Item::Modifiers(m) => braced("modifiers", &m.name, &m.cite),
        Item::Interpretation(i) => braced("interpretation", &i.name, &i.cite),
        Item::List(l) => braced("list", &l.name, &l.cite),
        Item::Example(e) => Found {
            kind: "example",
            name: &e.name.node,
            at: e.name.span,
            cite: None,
            end: None,
        },
        Item::TablePatch { name, cite, .. } => braced("override table", name, cite),
        Item::ModifiersPatch { name, cite, .. } => braced("override modifiers", name, cite),
        Item::RecordPatch(r) => braced("override record", &r.name, &r.cite),
        _ => return None,
    })
}

/// One definition as JSON; `prefix` is `override ` for an overriding one.
fn definition(p: &Program, file: &SourceFile, item: &Item, prefix: &str) -> Option<JsonValue> {
    if let Item::Override(inner, _) = item {
        return definition(p, file, inner, "override ");
    }
    let f = found(item)?;
    let text = &file.text;
    let start = line_first_word(text, f.at.start as usize);
    let end = match f.end {
        Some(s) => (s.end as usize).max(f.at.end as usize),
        None => closing_brace(text, f.at.end as usize),
    }
    .min(text.len());
    let kind = if f.kind.starts_with("override ") {
        f.kind.to_string()
    } else {
        format!("{prefix}{}", f.kind)
    };
    let mut def = json!({
        "kind": kind,
        "name": f.name,
        "signature": signature(p, f.kind, f.name),
        "cite": f.cite.map(|c| c.node.as_str()),
        "file": file.name,
        "line": line_of(file, f.at),
        "text": text.get(start..end).unwrap_or(""),
    });
    let doc = doc_comment(text, start);
    if !doc.is_empty() {
        def["doc"] = json!(doc);
    }
    Some(def)
}

/// How the definition is called or named: a rule's, table's or modifier list's
/// signature as the program in use has it, a constant's type; else `KIND NAME`.
fn signature(p: &Program, kind: &str, name: &str) -> String {
    let kind = kind.trim_start_matches("override ");
    let callable = match kind {
        "rule" => p
            .rules
            .iter()
            .find(|r| &*r.sig.name == name)
            .map(|r| (&r.sig, None)),
        "table" => p
            .tables
            .iter()
            .find(|t| &*t.sig.name == name)
            .map(|t| (&t.sig, Some(t.keys))),
        "modifiers" => p
            .modifiers
            .iter()
            .find(|m| &*m.sig.name == name)
            .map(|m| (&m.sig, None)),
        "const" => {
            if let Some(c) = p.consts.iter().find(|c| &*c.name == name) {
                return format!("const {name}: {}", c.ty.name(p));
            }
            None
        }
        _ => None,
    };
    match callable {
        Some((sig, keys)) => signature_text(p, kind, sig, keys),
        None if kind == "example" => format!("example \"{name}\""),
        None => format!("{kind} {name}"),
    }
}

/// The line (from 1) a span starts on in the file as written.
fn line_of(file: &SourceFile, at: Span) -> usize {
    let (start, _) = file.original_span(at);
    let original: &str = &file.original;
    original
        .get(..start)
        .unwrap_or(original)
        .matches('\n')
        .count()
        + 1
}

/// Where the line holding `at` starts its first word (the definition's keyword).
fn line_first_word(text: &str, at: usize) -> usize {
    let at = at.min(text.len());
    let line = text[..at].rfind('\n').map_or(0, |i| i + 1);
    text[line..at]
        .find(|c: char| !c.is_whitespace())
        .map_or(at, |i| line + i)
}

/// Just past the `}` that closes the first `{` at or after `from` (outside texts and
/// `#` comments; an inch mark after a digit, `6"`, is no text); the text's end if none.
fn closing_brace(text: &str, from: usize) -> usize {
    let bytes = text.as_bytes();
    let (mut i, mut depth) = (from, 0usize);
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            b'"' if i > 0 && bytes[i - 1].is_ascii_digit() => {}
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
            }
            b'{' => depth += 1,
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    text.len()
}

/// The `#` lines right above the line starting at `line_start`, each its own line.
fn doc_comment(text: &str, start: usize) -> String {
    let line_start = text[..start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let mut lines = Vec::new();
    let mut end = line_start;
    while end > 0 {
        let prev_start = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = text[prev_start..end - 1].trim();
        let Some(comment) = line.strip_prefix('#') else {
            break;
        };
        lines.push(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
        end = prev_start;
    }
    lines.reverse();
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_block_ends_at_its_closing_brace_past_texts_comments_and_inch_marks() {
        let text = "table t(a: A) -> Length {\n  x => 6\" # } not this\n  y => \"}\"\n}\nrest";
        let end = closing_brace(text, 6);
        assert_eq!(&text[end - 1..end], "}");
        assert_eq!(&text[end..], "\nrest");
    }

    #[test]
    fn the_doc_comment_is_the_comment_lines_right_above() {
        let text = "# not this\n\n# one\n# two\nrule r() -> Int { 1 }";
        let at = text.find("rule").unwrap_or(0);
        assert_eq!(doc_comment(text, at), "one\ntwo");
        assert_eq!(doc_comment("rule r() -> Int { 1 }", 0), "");
    }
}
