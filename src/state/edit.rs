//! A state written over the TOML state file it was loaded from — that file's text
//! *edited*, not written anew: its comments, key order and layout stay as the umpire
//! wrote them. A value that changed is replaced in place (keeping the comment beside
//! it), a field new to the state is added, a field gone from it is removed; a value
//! that is what the file already says is left exactly as written (`"3/4"`, `'6"'`, a
//! field left to its default stays left out).

use super::{write_item, write_plain};
use crate::program::Program;
use crate::span::SourceMap;
use crate::value::Value;
use std::rc::Rc;
use toml_edit::{DocumentMut, Item, TableLike};

/// The state as the text of the file at `path`: JSON for a `.json` name; else, when
/// `loaded` is the text of the TOML state file it was loaded from, that text edited to
/// hold the state (see the module documentation); else TOML written anew
/// ([`super::to_toml`]). `sources`: the program's files (the loaded text is read
/// against the program, to tell which values changed).
pub fn to_file_text_keeping(
    program: &Program,
    sources: &SourceMap,
    state: &Value,
    path: &str,
    loaded: Option<&str>,
) -> String {
    match loaded {
        Some(text) if !path.to_ascii_lowercase().ends_with(".json") => {
            edited(program, sources, state, text)
        }
        _ => super::to_file_text(program, state, path),
    }
}

/// `text` (a TOML state file) edited to hold `state`, with the line endings it has
/// (CRLF when its first line ends so) and its byte-order mark, if it has one; written
/// anew when it does not read as TOML.
fn edited(program: &Program, sources: &SourceMap, state: &Value, text: &str) -> String {
    let bom = text.starts_with('\u{feff}');
    let crlf = text.find('\n').is_some_and(|i| text[..i].ends_with('\r'));
    let plain = text.trim_start_matches('\u{feff}');
    let plain = if crlf {
        plain.replace("\r\n", "\n")
    } else {
        plain.to_string()
    };
    let mut out = if bom {
        "\u{feff}".to_string()
    } else {
        String::new()
    };
    let body = edited_plain(program, sources, state, &plain);
    if crlf {
        out.push_str(&body.replace("\r\n", "\n").replace('\n', "\r\n"));
    } else {
        out.push_str(&body);
    }
    out
}

/// `text` (a TOML state file, no byte-order mark, `\n` line endings) edited to hold
/// `state`; written anew when it does not read as TOML.
fn edited_plain(program: &Program, sources: &SourceMap, state: &Value, text: &str) -> String {
    let (Ok(mut doc), Value::Record(fields)) = (text.parse::<DocumentMut>(), state) else {
        return super::to_toml(program, state);
    };
    // What the file says, as a state: a value equal to it is left as written. (A file
    // that no longer fits the ruleset has every value written again.)
    let was = super::load_text(program, sources, "<the loaded state>", text.to_string()).ok();
    let was = match &was {
        Some(Value::Record(f)) => Some(f.as_slice()),
        _ => None,
    };
    edit_table(program, doc.as_table_mut(), fields, was, false);
    doc.to_string()
}

type Fields = [(Rc<str>, Value)];

/// A table (or an inline one, `inline`) made to hold `fields`; `was`: what it held.
fn edit_table(
    program: &Program,
    t: &mut dyn TableLike,
    fields: &Fields,
    was: Option<&Fields>,
    inline: bool,
) {
    let gone: Vec<String> = t
        .iter()
        .map(|(k, _)| k.to_string())
        .filter(|k| !fields.iter().any(|(n, _)| **n == **k))
        .collect();
    for k in gone {
        t.remove(&k);
    }
    for (name, v) in fields {
        let before = was.and_then(|w| w.iter().find(|(n, _)| n == name).map(|(_, x)| x));
        match t.get_mut(name) {
            Some(item) => edit_item(program, item, v, before, inline),
            // A field left out of the file (its default) and still the same stays out.
            None if before == Some(v) => {}
            None if inline => {
                t.insert(name, Item::Value(write_plain(program, v)));
            }
            None => {
                t.insert(name, write_item(program, v));
            }
        }
    }
}

/// One item made to hold `v`; `before`: what it held.
fn edit_item(program: &Program, item: &mut Item, v: &Value, before: Option<&Value>, inline: bool) {
    if before == Some(v) {
        return;
    }
    let inner = match before {
        Some(Value::Record(f) | Value::Group(f)) => Some(f.as_slice()),
        _ => None,
    };
    match (&mut *item, v) {
        (Item::Table(t), Value::Record(f) | Value::Group(f)) => {
            edit_table(program, t, f, inner, false);
        }
        (Item::Value(toml_edit::Value::InlineTable(t)), Value::Record(f) | Value::Group(f)) => {
            edit_table(program, t, f, inner, true);
        }
        (Item::Value(old), v) if inline || !matches!(v, Value::Record(_) | Value::Group(_)) => {
            // The comment before and after the value stays with it.
            let decor = old.decor().clone();
            let mut new = write_plain(program, v);
            *new.decor_mut() = decor;
            *old = new;
        }
        (item, v) => *item = write_item(program, v),
    }
}
