//! Go to definition, find references, rename and the outline of a document.
//!
//! - `textDocument/definition`: a name goes to where it is defined — in the document, in
//!   a file it `extends` or `use`s (its `file://` address), or in a bundled ruleset, whose
//!   text is written once, read-only (mode 0444), to umpire's own folder under the cache
//!   folder (`<cache>/bundled/<build>/NAME.rules`) and never anywhere else. The string of
//!   an `extends "x"` or `use "x"` line goes to that file's start.
//! - `textDocument/references`: every use of the definition in the document, the
//!   definition itself when asked (`includeDeclaration`).
//! - `textDocument/prepareRename` and `textDocument/rename`: a definition of the document
//!   and every use of it, as edits of the document; refused in words when the new name is
//!   not a name or is reserved, when it would clash with another definition (or a use of
//!   it would come to mean another one), or when the definition is not in the document.
//! - `textDocument/documentSymbol`: the outline: rules, tables, modifier lists,
//!   constants, enums with their values, records and the state with their fields, lists,
//!   interpretations with their readings, examples.
//!
//! Like hover, all of it reads the syntax trees (`at.rs`): a mistake elsewhere in the
//! document does not stop it, and a syntax error hides only the definition it is in —
//! but for a rename, which waits for the whole document to parse (it must see every use).

use super::at::{self, closing_brace, Hit, Index, Kind, Trees};
use super::document::Document;
use super::hover::range_in;
use super::{offset, open_doc, params, Failure};
use crate::span::{FileId, Span};
use crate::syntax::ast::{self, Item};
use lsp_server::ErrorCode;
use lsp_types::{
    DocumentSymbol, DocumentSymbolParams, GotoDefinitionParams, Location, PrepareRenameResponse,
    Range, ReferenceParams, RenameParams, SymbolKind, TextDocumentPositionParams, TextEdit, Url,
    WorkspaceEdit,
};
use serde_json::Value;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What the server says of renaming: it takes `prepareRename` too.
pub fn rename_options() -> lsp_types::OneOf<bool, lsp_types::RenameOptions> {
    lsp_types::OneOf::Right(lsp_types::RenameOptions {
        prepare_provider: Some(true),
        work_done_progress_options: lsp_types::WorkDoneProgressOptions::default(),
    })
}

/// An answer as JSON.
fn json(v: impl serde::Serialize) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

/// A refusal: an error answer in words.
fn refuse(why: String) -> Failure {
    (ErrorCode::RequestFailed, why)
}

/// Answers `textDocument/definition`.
pub fn definition(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: GotoDefinitionParams = params(p)?;
    let at = p.text_document_position_params;
    let doc = open_doc(docs, &at.text_document.uri)?;
    let offset = offset(doc, at.position)?;
    let Some(trees) = Trees::of(doc) else {
        return Ok(Value::Null);
    };
    let ix = Index::new(&trees);
    let place = match ix.at(offset) {
        Some((_, Hit::Name { def, .. })) => Some(location(doc, &trees, ix.defs[def].span)?),
        Some((_, Hit::Ruleset { written })) => Some(ruleset_start(doc, &trees, written)?),
        _ => None,
    };
    Ok(json(place))
}

/// Where a span is, as a location an editor can open.
fn location(doc: &Document, trees: &Trees, span: Span) -> Result<Location, Failure> {
    if span.file == FileId(0) {
        return Ok(Location::new(doc.uri.clone(), doc.range(span)));
    }
    let name = trees
        .get(span.file)
        .map(|t| t.source.name.clone())
        .unwrap_or_default();
    let uri = file_uri(&name)?;
    let range = range_in(trees, span).unwrap_or_default();
    Ok(Location::new(uri, range))
}

/// The start of the ruleset an `extends` or `use` line names.
fn ruleset_start(doc: &Document, trees: &Trees, written: &str) -> Result<Location, Failure> {
    let name = match trees.find(FileId(0), written) {
        Some(f) => trees
            .get(f)
            .map(|t| t.source.name.clone())
            .unwrap_or_default(),
        None => at::read_name(&doc.name, written),
    };
    let uri = file_uri(&name)?;
    Ok(Location::new(uri, Range::default()))
}

/// The address of a file the library read by `name`: a path, or `bundled:NAME` (written
/// to umpire's own folder first).
fn file_uri(name: &str) -> Result<Url, Failure> {
    if let Some(bundled) = name.strip_prefix("bundled:") {
        return bundled_copy(bundled).map_err(refuse);
    }
    let path = Path::new(name);
    if !path.is_file() {
        return Err(refuse(format!(
            "`{name}` is not a file this server can show"
        )));
    }
    let path = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    Url::from_file_path(&path)
        .map_err(|()| refuse(format!("`{}` has no file:// address", path.display())))
}

/// The folder bundled rulesets are shown from: `<cache>/bundled/<build>`.
pub fn bundled_dir() -> Option<PathBuf> {
    let cache = crate::cache::Cache::from_env()?;
    let build: String = env!("UMPIRE_BUILD_ID").chars().take(16).collect();
    Some(cache.dir().join("bundled").join(build))
}

/// The address of a read-only copy of the bundled ruleset `name`, written (once) to
/// [`bundled_dir`]: never anywhere else, and over nothing but an earlier copy.
pub fn bundled_copy(name: &str) -> Result<Url, String> {
    let Some(text) = crate::bundled::source(name) else {
        return Err(format!("`{name}` is not a bundled ruleset"));
    };
    let Some(dir) = bundled_dir() else {
        return Err(format!(
            "the bundled ruleset `{name}` has no folder to be shown from: the cache is off (UMPIRE_CACHE) or no cache folder is set (UMPIRE_CACHE_DIR, XDG_CACHE_HOME, HOME)"
        ));
    };
    let cannot = |e: std::io::Error| {
        format!(
            "the bundled ruleset `{name}` could not be written to {} to be shown: {e}",
            dir.display()
        )
    };
    std::fs::create_dir_all(&dir).map_err(cannot)?;
    let path = dir.join(format!("{name}.rules"));
    let kept = std::fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file())
        && std::fs::read_to_string(&path).is_ok_and(|t| t == text);
    if !kept {
        write_read_only(&dir, &path, name, text).map_err(cannot)?;
    }
    Url::from_file_path(&path).map_err(|()| format!("`{}` has no file:// address", path.display()))
}

/// Writes `text` whole to `path` in `dir` (a new temporary file, made read-only, put in
/// its place).
fn write_read_only(dir: &Path, path: &Path, name: &str, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id());
    let mut random = || {
        seed = seed
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        seed
    };
    let (tmp, mut file) = crate::files::create_temp(dir, name, &mut random)?;
    let written = (|| {
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        let mut perms = file.metadata()?.permissions();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            perms.set_mode(0o444);
        }
        #[cfg(not(unix))]
        perms.set_readonly(true);
        std::fs::set_permissions(&tmp, perms)?;
        std::fs::rename(&tmp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Answers `textDocument/references`.
pub fn references(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: ReferenceParams = params(p)?;
    let at = p.text_document_position;
    let doc = open_doc(docs, &at.text_document.uri)?;
    let offset = offset(doc, at.position)?;
    let Some(trees) = Trees::of(doc) else {
        return Ok(Value::Null);
    };
    let ix = Index::new(&trees);
    let Some((_, Hit::Name { def, .. })) = ix.at(offset) else {
        return Ok(Value::Null);
    };
    let places: Vec<Location> = ix
        .uses(def)
        .into_iter()
        .filter(|(_, decl)| p.context.include_declaration || !decl)
        .map(|(s, _)| Location::new(doc.uri.clone(), doc.range(s)))
        .collect();
    Ok(json(places))
}

/// The definition at a position that may be renamed, and the span of its name there.
fn renameable(ix: &Index, offset: u32) -> Result<(usize, Span), Failure> {
    let Some((span, Hit::Name { def, .. })) = ix.at(offset) else {
        return Err(refuse(
            "there is no name here to rename: put the cursor on a name".to_string(),
        ));
    };
    let d = &ix.defs[def];
    if d.span.file != FileId(0) {
        let file = ix
            .trees
            .get(d.span.file)
            .map_or("another file".to_string(), |t| t.source.name.clone());
        let file = match file.strip_prefix("bundled:") {
            Some(b) => format!("the bundled ruleset `{b}`"),
            None => format!("`{file}`"),
        };
        return Err(refuse(format!(
            "`{}` is defined in {file}, not in this document: only this document's definitions are renamed here",
            d.full
        )));
    }
    if d.overrides {
        return Err(refuse(format!(
            "`{}` overrides the base's definition of that name: renamed, it would override nothing",
            d.name
        )));
    }
    if d.kind == Kind::State {
        return Err(refuse(
            "`state` is the game state's block, not a name: rename its fields".to_string(),
        ));
    }
    if d.kind == Kind::Example {
        return Err(refuse(
            "an example is named by its text in quotes: edit the text".to_string(),
        ));
    }
    Ok((def, span))
}

/// Answers `textDocument/prepareRename`: the name's range and text, or why not.
pub fn prepare_rename(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: TextDocumentPositionParams = params(p)?;
    let doc = open_doc(docs, &p.text_document.uri)?;
    let offset = offset(doc, p.position)?;
    let trees = parsed(doc)?;
    let ix = Index::new(&trees);
    let (def, span) = renameable(&ix, offset)?;
    Ok(json(PrepareRenameResponse::RangeWithPlaceholder {
        range: doc.range(span),
        placeholder: ix.defs[def].name.clone(),
    }))
}

/// The trees of a document to be changed, or why there are none.
fn parsed(doc: &Document) -> Result<Trees, Failure> {
    Trees::whole(doc).ok_or_else(|| {
        refuse("the document does not parse: fix its syntax error first".to_string())
    })
}

/// Answers `textDocument/rename`: the edits of the document.
pub fn rename(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: RenameParams = params(p)?;
    let at = p.text_document_position;
    let doc = open_doc(docs, &at.text_document.uri)?;
    let offset = offset(doc, at.position)?;
    let trees = parsed(doc)?;
    let ix = Index::new(&trees);
    let (def, _) = renameable(&ix, offset)?;
    let edits = renamed(doc, &ix, def, &p.new_name)?;
    let mut changes = HashMap::new();
    changes.insert(doc.uri.clone(), edits);
    Ok(json(WorkspaceEdit::new(changes)))
}

/// The edits renaming `def` to `new`, or why it may not be.
fn renamed(doc: &Document, ix: &Index, def: usize, new: &str) -> Result<Vec<TextEdit>, Failure> {
    let d = &ix.defs[def];
    not_a_name(new).map_err(refuse)?;
    let uses = ix.uses(def);
    if new == d.name {
        return Ok(Vec::new());
    }
    if let Some(&other) = ix.clashes(def, new).first() {
        let o = &ix.defs[other];
        return Err(refuse(format!(
            "`{new}` is already the name of the {} `{}` ({}): two definitions here cannot share a name",
            o.kind.word(),
            o.full,
            place(doc, ix, o.span)
        )));
    }
    // Tried out: the text with the edits made must read every renamed place as the
    // renamed definition, and nothing else as it.
    let text = &doc.source.text;
    let mut out = String::with_capacity(text.len());
    let mut last = 0usize;
    let mut moved = Vec::new();
    for (s, _) in &uses {
        out.push_str(&text[last..s.start as usize]);
        moved.push(out.len());
        out.push_str(new);
        last = s.end as usize;
    }
    out.push_str(&text[last..]);
    if let Some(trees) = Trees::with_text(doc, &out) {
        let after = Index::new(&trees);
        let found: Vec<Option<usize>> = moved
            .iter()
            .map(|&m| match after.at(u32::try_from(m).unwrap_or(u32::MAX)) {
                Some((_, Hit::Name { def, .. })) => Some(def),
                _ => None,
            })
            .collect();
        let same = found.first().copied().flatten();
        let captured = match same {
            Some(n) if found.iter().all(|f| *f == Some(n)) => {
                let now = after.uses(n);
                now.iter()
                    .find(|(s, _)| !moved.contains(&(s.start as usize)))
                    .map(|(s, _)| s.start)
            }
            _ => found
                .iter()
                .zip(&uses)
                .find(|(f, _)| **f != same || f.is_none())
                .map(|(_, (s, _))| s.start),
        };
        if let Some(at) = captured {
            let line = doc
                .lines
                .position(&doc.text, doc.source.original_offset(at))
                .line
                + 1;
            return Err(refuse(format!(
                "renamed `{}` to `{new}`, a name near line {line} would mean another definition: `{new}` is already a name there",
                d.name
            )));
        }
    }
    // And a document that checked clean must check clean renamed (the checker knows
    // what the trees do not: an alias may not be a parameter's name, say).
    let limits = crate::limits::Limits::default();
    if doc.analysis.program.is_some() && out.len() as u64 <= limits.file_bytes {
        let after = crate::Ruleset::analyse_source(&doc.name, &out, &limits);
        if let Some(problem) = after.problems.iter().find(|p| !p.warning) {
            return Err(refuse(format!(
                "renamed `{}` to `{new}`, the ruleset would not check: {}",
                d.name, problem.message
            )));
        }
    }
    Ok(uses
        .into_iter()
        .map(|(s, _)| TextEdit::new(doc.range(s), new.to_string()))
        .collect())
}

/// Why `new` cannot be a name, if it cannot.
pub fn not_a_name(new: &str) -> Result<(), String> {
    if crate::names::RESERVED.contains(&new) {
        return Err(format!(
            "`{new}` is a reserved word of the language, not a name"
        ));
    }
    let dice = new.len() > 1
        && new.starts_with(['d', 'D'])
        && new[1..].chars().all(|c| c.is_ascii_digit());
    if dice {
        return Err(format!("`{new}` is dice, not a name: choose another name"));
    }
    if at::BUILTINS.contains(&new) {
        return Err(format!(
            "`{new}` is a built-in function, and no definition may take its name"
        ));
    }
    if !crate::names::is_name(new) {
        return Err(format!(
            "`{new}` is not a name: a name is letters, digits and `_`, starting with a letter or `_`"
        ));
    }
    Ok(())
}

/// `line N` of the document, or the file a span is in.
fn place(doc: &Document, ix: &Index, span: Span) -> String {
    if span.file == FileId(0) {
        return format!("line {}", doc.range(span).start.line + 1);
    }
    let name = ix
        .trees
        .get(span.file)
        .map_or("another file", |t| t.source.name.as_str());
    match range_in(ix.trees, span) {
        Some(r) => format!("{name}:{}", r.start.line + 1),
        None => name.to_string(),
    }
}

/// Answers `textDocument/documentSymbol`: the document's definitions, in order.
pub fn symbols(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: DocumentSymbolParams = params(p)?;
    let doc = open_doc(docs, &p.text_document.uri)?;
    let Some(trees) = Trees::of(doc) else {
        return Ok(Value::Null);
    };
    let Some(own) = trees.get(FileId(0)) else {
        return Ok(Value::Null);
    };
    let out: Vec<DocumentSymbol> = own
        .ast
        .items
        .iter()
        .filter_map(|i| symbol(doc, i))
        .collect();
    Ok(json(out))
}

/// One definition's symbol, with its values or fields.
fn symbol(doc: &Document, item: &Item) -> Option<DocumentSymbol> {
    let text = &doc.source.text;
    let braced = |name: &ast::Name| Span {
        end: closing_brace(text, name.span.end),
        ..name.span
    };
    let (name, kind, whole, children): (&ast::Name, SymbolKind, Span, Vec<DocumentSymbol>) =
        match item {
            Item::Rule(r) => (
                &r.name,
                SymbolKind::FUNCTION,
                r.name.span.to(r.body.span),
                vec![],
            ),
            Item::Table(t) => (&t.name, SymbolKind::METHOD, braced(&t.name), vec![]),
            Item::Modifiers(m) => (&m.name, SymbolKind::OPERATOR, braced(&m.name), vec![]),
            Item::Const(c) => {
                let mut end = c.value.span;
                if let Some(cite) = &c.cite {
                    end = end.to(cite.span);
                }
                (&c.name, SymbolKind::CONSTANT, c.name.span.to(end), vec![])
            }
            Item::Enum(e) => (
                &e.name,
                SymbolKind::ENUM,
                braced(&e.name),
                e.values
                    .iter()
                    .map(|v| leaf(doc, &v.name, SymbolKind::ENUM_MEMBER, v.name.span))
                    .collect(),
            ),
            Item::Record(r) | Item::State(r) => (
                &r.name,
                SymbolKind::STRUCT,
                braced(&r.name),
                r.fields
                    .iter()
                    .map(|f| {
                        let mut whole = f.name.span.to(f.ty.span());
                        if let Some(d) = &f.default {
                            whole = whole.to(d.span);
                        }
                        leaf(doc, &f.name, SymbolKind::FIELD, whole)
                    })
                    .collect(),
            ),
            Item::List(l) => (&l.name, SymbolKind::ARRAY, braced(&l.name), vec![]),
            Item::Interpretation(i) => (
                &i.name,
                SymbolKind::ENUM,
                braced(&i.name),
                i.readings
                    .iter()
                    .map(|v| leaf(doc, &v.name, SymbolKind::ENUM_MEMBER, v.name.span))
                    .collect(),
            ),
            Item::Example(e) => {
                let name = ast::Name::new(e.name.node.clone(), e.name.span);
                let whole = Span {
                    end: closing_brace(text, e.name.span.end),
                    ..e.name.span
                };
                return Some(named(doc, &name, SymbolKind::EVENT, whole, vec![]));
            }
            Item::Override(inner, _) => return symbol(doc, inner),
            Item::TablePatch { name, .. } => (name, SymbolKind::METHOD, braced(name), vec![]),
            Item::ModifiersPatch { name, .. } => (name, SymbolKind::OPERATOR, braced(name), vec![]),
            Item::RecordPatch(r) => (
                &r.name,
                SymbolKind::STRUCT,
                braced(&r.name),
                r.fields
                    .iter()
                    .map(|f| leaf(doc, &f.name, SymbolKind::FIELD, f.name.span.to(f.ty.span())))
                    .collect(),
            ),
            _ => return None,
        };
    Some(named(doc, name, kind, whole, children))
}

/// A symbol with no children.
fn leaf(doc: &Document, name: &ast::Name, kind: SymbolKind, whole: Span) -> DocumentSymbol {
    named(doc, name, kind, whole, Vec::new())
}

/// A symbol: its name, its whole range (from its line's first word), its name's range.
#[allow(deprecated)] // `deprecated` is a field the type still has.
fn named(
    doc: &Document,
    name: &ast::Name,
    kind: SymbolKind,
    whole: Span,
    children: Vec<DocumentSymbol>,
) -> DocumentSymbol {
    let text = &doc.source.text;
    let start = whole.start.min(name.span.start) as usize;
    let line = text[..start.min(text.len())]
        .rfind('\n')
        .map_or(0, |i| i + 1);
    let first = text[line..start.min(text.len())]
        .find(|c: char| !c.is_whitespace())
        .map_or(start, |i| line + i);
    let whole = Span {
        start: u32::try_from(first).unwrap_or(whole.start),
        end: whole.end.max(name.span.end),
        ..whole
    };
    DocumentSymbol {
        name: name.node.clone(),
        detail: None,
        kind,
        tags: None,
        deprecated: None,
        range: doc.range(whole),
        selection_range: doc.range(name.span),
        children: (!children.is_empty()).then_some(children),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;

    /// Every definition of two bundled rulesets renamed: the edits are allowed, and the text they
    /// make checks clean with as many warnings as before (every use followed the name).
    #[test]
    fn every_definition_of_a_bundled_ruleset_renames_to_a_text_that_checks() {
        // Two of them: each rename is checked twice (by the rename, and here), and the
        // larger two would take minutes in a debug build.
        for name in ["little_wars", "kriegspiel"] {
            renames_check(name);
        }
    }

    fn renames_check(name: &str) {
        let text = crate::bundled::source(name).expect("bundled");
        let uri = Url::parse("untitled:lw.rules").expect("an address");
        let limits = Limits::default();
        let doc = Document::new(uri, 1, text.to_string(), &limits);
        let warnings = doc.analysis.problems.len();
        let trees = Trees::of(&doc).expect("it parses");
        let ix = Index::new(&trees);
        let mut renamed_some = 0;
        for (def, d) in ix.defs.iter().enumerate() {
            if d.span.file != FileId(0) || matches!(d.kind, Kind::Example | Kind::State) {
                continue;
            }
            let new = format!("{}_x", d.name);
            let edits = renamed(&doc, &ix, def, &new)
                .unwrap_or_else(|e| panic!("`{}` may be renamed: {}", d.full, e.1));
            let uses = ix.uses(def);
            assert_eq!(edits.len(), uses.len());
            let mut out = text.to_string();
            for (s, _) in uses.iter().rev() {
                out.replace_range(s.start as usize..s.end as usize, &new);
            }
            let after = crate::Ruleset::analyse_source("lw.rules", &out, &limits);
            assert!(
                after.program.is_some(),
                "{name}: `{}` renamed `{new}`: {:?}",
                d.full,
                after.problems.first().map(|p| &p.message)
            );
            assert_eq!(after.problems.len(), warnings, "{name}: `{}`", d.full);
            renamed_some += 1;
        }
        assert!(renamed_some > 50, "{renamed_some}");
    }

    #[test]
    fn a_new_name_is_refused_when_it_is_no_name() {
        assert!(not_a_name("cut_off").is_ok());
        assert!(not_a_name("_x1").is_ok());
        assert!(not_a_name("if").is_err_and(|e| e.contains("reserved")));
        assert!(not_a_name("D10").is_err_and(|e| e.contains("dice")));
        assert!(not_a_name("d6_bonus").is_ok());
        assert!(not_a_name("max").is_err_and(|e| e.contains("built-in")));
        assert!(not_a_name("").is_err_and(|e| e.contains("not a name")));
        assert!(not_a_name("a-b").is_err_and(|e| e.contains("not a name")));
    }
}
