//! Results into words and JSON: the only code that renders an [`Adjudication`], its
//! outcome, effects, rolls and trace. The evaluator records data (values, ids into the
//! [`Program`]); [`text`] writes today's words for people, [`json`] typed JSON for
//! programs.
//!
//! [`Adjudication`]: crate::adjudication::Adjudication
//! [`Program`]: crate::program::Program

pub mod json;
pub mod text;

pub use crate::words::{show, show_arg};
pub use json::{adjudication_json, to_json};
pub use text::{
    effects_text, explain, headline, report_text, report_text_marked, rolls_text, rolls_text_marked,
};

use crate::adjudication::{Applied, Arg, TraceNode};
use crate::program::{Callee, ParamInfo, Program, RowInfo, TableInfo};
use crate::value::{Mixed, Rational};

/// The names of a traced call's parameters: the callee's, else none.
fn params<'p>(p: &'p Program, node: &TraceNode) -> &'p [ParamInfo] {
    let callee = match node {
        TraceNode::Rule { rule, .. } => Callee::Rule(*rule),
        TraceNode::Table { table, .. } => Callee::Table(*table),
        TraceNode::Modifiers { list, .. } => Callee::Modifiers(*list),
        _ => return &[],
    };
    p.signature(callee).map_or(&[], |s| &s.params)
}

/// A parameter's name by its place, `?` if there is none.
fn param_name(params: &[ParamInfo], i: usize) -> &str {
    params.get(i).map_or("?", |p| &p.name)
}

/// The arguments paired with their parameters' names.
fn named<'a>(
    params: &'a [ParamInfo],
    args: &'a [Arg],
) -> impl Iterator<Item = (&'a str, &'a Arg)> + 'a {
    args.iter()
        .enumerate()
        .map(|(i, a)| (param_name(params, i), a))
}

/// A table and its matched row, if both are there.
fn table_row(p: &Program, table: u32, row: u32) -> Option<(&TableInfo, &RowInfo)> {
    let t = p.tables.get(table as usize)?;
    Some((t, t.rows.get(row as usize)?))
}

/// A modifier's label as the explanation shows it: with ` (house rule)` for one a house
/// rule put in, and ` (x2)` for one applied more than once.
fn modifier_label(p: &Program, list: u32, a: &Applied) -> String {
    let Some(md) = p
        .modifiers
        .get(list as usize)
        .and_then(|m| m.modifiers.get(a.modifier as usize))
    else {
        return "?".into();
    };
    let mut label = md.label.to_string();
    if md.house {
        label.push_str(" (house rule)");
    }
    if md.per.is_some() && a.times != Rational::from_integer(1) {
        label = format!("{label} (x{})", Mixed(a.times));
    }
    label
}

/// A reading's name and display words, and its interpretation's name.
fn reading(p: &Program, interpretation: u32, r: u16) -> (&str, String, &str) {
    let Some(info) = p.interpretations.get(interpretation as usize) else {
        return ("?", String::new(), "?");
    };
    let v = p.enum_value(info.readings, r);
    (
        v.map_or("?", |v| &v.name),
        v.map_or(String::new(), |v| {
            v.display.as_deref().unwrap_or(&v.name).to_string()
        }),
        &info.name,
    )
}

/// Text escaped for markup (HTML, SVG), in text and in attribute values: `&`, `<`, `>`
/// and quotes as entities, and control characters other than a newline and a tab (not
/// allowed in XML 1.0) as spaces.
pub fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' && c != '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}
