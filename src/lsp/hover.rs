//! Hover (`textDocument/hover`), in Markdown: on a definition or a name that refers to
//! one, its signature and type, its citation and its doc comment (the `#` lines right
//! above it); on an enum value its display text and sentence; on a modifier its label,
//! amount and condition; on a dice term (and on the `+` of `3d6 + 1`) its exact
//! distribution in one line.
//!
//! What a name refers to is found from the syntax trees (`at.rs`), so a mistake elsewhere
//! in the document does not stop it. Types are the ones written; a constant's or a
//! rule's that is not written is taken from the checked program when the document checks
//! clean.

use super::at::{Hit, Index, Kind, Node, Trees};
use super::document::{Document, LineIndex};
use super::{offset, open_doc, params, Failure};
use crate::prob::dist;
use crate::span::{FileId, Span};
use crate::syntax::ast::{self, Modifier};
use lsp_types::{Hover, HoverContents, HoverParams, MarkupContent, MarkupKind, Url};
use num_bigint::BigUint;
use serde_json::Value;
use std::collections::HashMap;

/// Answers `textDocument/hover`.
pub fn answer(docs: &HashMap<Url, Document>, p: Value) -> Result<Value, Failure> {
    let p: HoverParams = params(p)?;
    let at = p.text_document_position_params;
    let doc = open_doc(docs, &at.text_document.uri)?;
    let hover = hover(doc, at.position)?;
    Ok(serde_json::to_value(hover).unwrap_or(Value::Null))
}

/// The hover at a position: `None` where there is nothing to say.
pub fn hover(doc: &Document, at: lsp_types::Position) -> Result<Option<Hover>, Failure> {
    let offset = offset(doc, at)?;
    let Some(trees) = Trees::of(doc) else {
        return Ok(None);
    };
    let ix = Index::new(&trees);
    let Some((span, hit)) = ix.at(offset) else {
        return Ok(None);
    };
    let text = match hit {
        Hit::Name { def, .. } => definition(doc, &ix, def),
        Hit::Modifier { modifier, list } => modifier_text(&ix, modifier, list),
        Hit::Dice { count, sides, plus } => {
            let written = trees.text(span);
            match sides.or(ix.die) {
                Some(s) => format!("`{written}`: {}", distribution(count, s, plus)),
                None => format!(
                    "`{written}`: this ruleset does not say which die \"1 die\" is (`die d6`)"
                ),
            }
        }
        Hit::Ruleset { written } => match trees.find(FileId(0), written).and_then(|f| trees.get(f))
        {
            Some(tree) => {
                let mut s = format!("the ruleset `{}`", tree.source.name);
                let title = tree.ast.items.iter().find_map(|i| match i {
                    ast::Item::Ruleset { title, cite } => Some((title, cite)),
                    _ => None,
                });
                if let Some((title, cite)) = title {
                    s.push_str(&format!(": **{}**", title.node));
                    if let Some(c) = cite {
                        s.push_str(&format!(" — {}", c.node));
                    }
                }
                s
            }
            None => format!("the ruleset `{written}` (not read: see the diagnostics)"),
        },
    };
    Ok(Some(Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: text,
        }),
        range: Some(doc.range(span)),
    }))
}

/// A fenced block of the language.
fn code(lines: &str) -> String {
    format!("```umpire\n{lines}\n```")
}

/// What a definition is: its signature, citation, doc comment and file.
fn definition(doc: &Document, ix: &Index, def: usize) -> String {
    let d = &ix.defs[def];
    let t = |s: Span| one_line(ix.trees.text(s));
    let ty_text = |te: &ast::TypeExpr| t(te.span());
    let param = |p: &ast::Param| {
        let mut s = format!("{}: {}", p.name.node, ty_text(&p.ty));
        if p.needed {
            s.push_str(" = needed");
        } else if let Some(dft) = &p.default {
            s.push_str(&format!(" = {}", t(dft.span)));
        }
        s
    };
    let params = |ps: &[ast::Param]| ps.iter().map(param).collect::<Vec<_>>().join(", ");
    // A result or constant type not written: the checked program's, when there is one.
    let checked = |full: &str, kind: Kind| -> Option<String> {
        let p = doc.analysis.program.as_ref()?;
        let sig = match kind {
            Kind::Rule => p.rules.iter().map(|r| &r.sig).find(|s| &*s.name == full)?,
            Kind::Table => p.tables.iter().map(|t| &t.sig).find(|s| &*s.name == full)?,
            _ => {
                let c = p.consts.iter().find(|c| &*c.name == full)?;
                return Some(c.ty.name(p));
            }
        };
        Some(sig.ret.name(p))
    };
    let returns = |r: &Option<ast::TypeExpr>, kind: Kind| match r {
        Some(r) => format!(" -> {}", ty_text(r)),
        None => checked(&d.full, kind).map_or(String::new(), |r| format!(" -> {r}")),
    };
    let mut cite = None;
    let mut more = String::new();
    let sig = match d.node {
        Node::Rule(r) => {
            cite = r.cite.as_ref();
            format!(
                "rule {}({}){}",
                d.full,
                params(&r.params),
                returns(&r.returns, Kind::Rule)
            )
        }
        Node::Table(tb) => {
            cite = tb.cite.as_ref();
            let extra = if tb.extra.is_empty() {
                String::new()
            } else {
                format!("; {}", params(&tb.extra))
            };
            format!(
                "table {}({}{extra}){}",
                d.full,
                params(&tb.keys),
                returns(&tb.returns, Kind::Table)
            )
        }
        Node::Modifiers(m) => {
            cite = m.cite.as_ref();
            let mut s = format!("modifiers {}({})", d.full, params(&m.params));
            for one in m.modifiers.iter().take(12) {
                s.push_str(&format!("\n  {}", modifier_line(ix, one)));
            }
            if m.modifiers.len() > 12 {
                s.push_str(&format!("\n  … {} more", m.modifiers.len() - 12));
            }
            s
        }
        Node::Const(c) => {
            cite = c.cite.as_ref();
            let ty = match &c.ty {
                Some(te) => Some(ty_text(te)),
                None => checked(&d.full, Kind::Const),
            };
            match ty {
                Some(ty) => format!("const {}: {ty} = {}", d.full, t(c.value.span)),
                None => format!("const {} = {}", d.full, t(c.value.span)),
            }
        }
        Node::Enum(e) => {
            cite = e.cite.as_ref();
            let ordered = if e.ordered { " ordered" } else { "" };
            let mut s = format!("enum {}{ordered} {{", d.full);
            for v in e.values.iter().take(20) {
                s.push_str(&format!("\n  {}", value_line(v)));
            }
            if e.values.len() > 20 {
                s.push_str(&format!("\n  … {} more", e.values.len() - 20));
            }
            s.push_str("\n}");
            s
        }
        Node::Value(v) => {
            more = match (&v.display, &v.sentence) {
                (Some(dt), Some(st)) => format!("**{dt}** — {st}"),
                (Some(dt), None) => format!("**{dt}**"),
                (None, Some(st)) => format!("{} — {st}", v.name.node),
                (None, None) => String::new(),
            };
            let words = quoted(v);
            format!("{}{}", d.full, &words[v.name.node.len()..])
        }
        Node::Record(r) => {
            cite = r.cite.as_ref();
            let word = if d.kind == Kind::State {
                "state"
            } else {
                "record"
            };
            let name = if d.kind == Kind::State {
                ""
            } else {
                d.full.as_str()
            };
            let mut s = format!("{word} {name}{}{{", if name.is_empty() { "" } else { " " });
            for &f in &d.children {
                if let Node::Field(fd) = ix.defs[f].node {
                    s.push_str(&format!("\n  {}", field_line(ix, fd)));
                }
            }
            s.push_str("\n}");
            s
        }
        Node::Field(f) => {
            let of = d.parent.map_or(String::new(), |p| ix.defs[p].full.clone());
            format!("{of}.{}", field_line(ix, f))
        }
        Node::Param(p) => {
            if let Some(owner) = d.parent {
                let o = &ix.defs[owner];
                more = format!("a parameter of the {} `{}`", o.kind.word(), o.full);
            }
            param(p)
        }
        Node::Let(ty, value) => {
            let ty = match ty {
                Some(te) => Some(ty_text(te)),
                None => ix.type_of(def).map(|t| ix.ty_name(&t)),
            };
            match ty {
                Some(ty) => format!("let {}: {ty} = {}", d.name, t(value.span)),
                None => format!("let {} = {}", d.name, t(value.span)),
            }
        }
        Node::List(l) => {
            cite = l.cite.as_ref();
            let values: Vec<&str> = l.values.iter().map(|v| v.node.as_str()).collect();
            format!("list {}: {} {{ {} }}", d.full, l.of.node, values.join(", "))
        }
        Node::Interpretation(i) => {
            cite = i.cite.as_ref();
            let mut s = format!("interpretation {} \"{}\" {{", d.full, i.text.node);
            for v in &i.readings {
                let dft = i.default.as_ref().is_some_and(|x| x.node == v.name.node);
                s.push_str(&format!(
                    "\n  reading {}{}",
                    quoted(v),
                    if dft { " default" } else { "" }
                ));
            }
            s.push_str("\n}");
            s
        }
        Node::Example(e) => format!("example \"{}\"", e.name.node),
    };
    let mut out = code(&match cite {
        Some(c) => format!("{sig}\n  cite \"{}\"", c.node),
        None => sig,
    });
    if !more.is_empty() {
        out.push_str("\n\n");
        out.push_str(&more);
    }
    let comment = doc_comment(ix.trees, d.span);
    if !comment.is_empty() {
        out.push_str("\n\n");
        out.push_str(&comment);
    }
    if d.span.file != FileId(0) {
        let name = ix
            .trees
            .get(d.span.file)
            .map_or("another file", |t| t.source.name.as_str());
        out.push_str(&format!("\n\nDefined in `{name}`."));
    }
    out
}

/// `name "Display" "Sentence"` as written.
fn quoted(v: &ast::EnumValueDef) -> String {
    let mut s = v.name.node.clone();
    for t in [&v.display, &v.sentence].into_iter().flatten() {
        s.push_str(&format!(" \"{t}\""));
    }
    s
}

/// An enum value's line in its enum.
fn value_line(v: &ast::EnumValueDef) -> String {
    quoted(v)
}

/// `field: Type = default`.
fn field_line(ix: &Index, f: &ast::FieldDecl) -> String {
    let mut s = format!("{}: {}", f.name.node, one_line(ix.trees.text(f.ty.span())));
    if let Some(d) = &f.default {
        s.push_str(&format!(" = {}", one_line(ix.trees.text(d.span))));
    }
    s
}

/// A modifier as written: `"Label" +1 per X if C`.
fn modifier_line(ix: &Index, m: &Modifier) -> String {
    let t = |s: Span| one_line(ix.trees.text(s));
    let mut s = format!("\"{}\" {}", m.label.node, t(m.amount.span));
    if let Some(p) = &m.per {
        s.push_str(&format!(" per {}", t(p.span)));
    }
    if let Some(c) = &m.condition {
        s.push_str(&format!(" if {}", t(c.span)));
    }
    s
}

/// A modifier's hover: its label, amount, and when it applies.
fn modifier_text(ix: &Index, m: &Modifier, list: Option<usize>) -> String {
    let t = |s: Span| one_line(ix.trees.text(s));
    let mut out = code(&modifier_line(ix, m));
    out.push_str(&format!(
        "\n\nThe modifier **{}**{}: `{}` to the roll",
        m.label.node,
        list.map_or(String::new(), |l| format!(" of `{}`", ix.defs[l].full)),
        t(m.amount.span)
    ));
    if let Some(p) = &m.per {
        out.push_str(&format!(", once per `{}`", t(p.span)));
    }
    match &m.condition {
        Some(c) => out.push_str(&format!(", when `{}`.", t(c.span))),
        None => out.push_str(", always."),
    }
    out
}

/// The `#` lines right above the line a definition's name is on, when the name starts
/// its line (after its keywords): the comment written for it.
fn doc_comment(trees: &Trees, at: Span) -> String {
    let Some(tree) = trees.get(at.file) else {
        return String::new();
    };
    let text = &tree.source.text;
    let start = (at.start as usize).min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |i| i + 1);
    let before = &text[line_start..start];
    if !before
        .chars()
        .all(|c| c.is_alphabetic() || c == ' ' || c == '\t')
    {
        return String::new();
    }
    let lines = crate::syntax::comment_lines_above(text, line_start);
    // Each comment line its own line (Markdown's hard break: two spaces), as written.
    lines.join("  \n")
}

/// A text's first line, cut to 100 characters.
fn one_line(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim_end();
    let mut out: String = first.chars().take(100).collect();
    if out.len() < first.len() || text.trim_end().contains('\n') {
        out.push_str(" …");
    }
    out
}

/// The exact distribution of the sum of `count` dice of `sides` and `plus`, in one
/// line: `2 (1/36), 3 (2/36), …, 12 (1/36); mean 7`, each sum's ways over
/// `sides^count`.
pub fn distribution(count: u32, sides: u32, plus: i64) -> String {
    let plus = i128::from(plus);
    if count == 0 || sides == 0 {
        return format!("no dice: always {plus}");
    }
    let lo = i128::from(count) + plus;
    let hi = i128::from(count) * i128::from(sides) + plus;
    // The mean is count × (sides + 1) / 2 + plus: whole, or a half.
    let twice = i128::from(count) * (i128::from(sides) + 1) + 2 * plus;
    let sign = if twice < 0 { "-" } else { "" };
    let whole = twice.unsigned_abs() / 2;
    let mean = match (twice % 2 == 0, whole) {
        (true, _) => format!("{}", twice / 2),
        (false, 0) => format!("{sign}1/2"),
        (false, _) => format!("{sign}{whole} 1/2"),
    };
    // Past this many, the weights are not worked out (each is a long number anyway).
    if u64::from(count) * u64::from(sides) > 5_000 {
        return format!("{lo} to {hi}; mean {mean}");
    }
    let ways = dist::sums(count, sides);
    let denom = BigUint::from(sides).pow(count);
    let one = |i: usize, w: &BigUint| format!("{} ({w}/{denom})", lo + i as i128);
    let parts: Vec<String> = if ways.len() <= 24 {
        ways.iter().enumerate().map(|(i, w)| one(i, w)).collect()
    } else {
        let n = ways.len();
        let mut p: Vec<String> = ways
            .iter()
            .take(3)
            .enumerate()
            .map(|(i, w)| one(i, w))
            .collect();
        p.push("…".to_string());
        p.extend(ways.iter().enumerate().skip(n - 3).map(|(i, w)| one(i, w)));
        p
    };
    format!("{}; mean {mean}", parts.join(", "))
}

/// Where a span is in a file other than the document, in the protocol's positions.
pub fn range_in(trees: &Trees, span: Span) -> Option<lsp_types::Range> {
    let tree = trees.get(span.file)?;
    let original = &tree.source.original;
    let lines = LineIndex::new(original);
    let (start, len) = tree.source.original_span(span);
    Some(lsp_types::Range::new(
        lines.position(original, start),
        lines.position(original, start + len),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use lsp_types::Url;

    /// Every place of every bundled ruleset is asked what is there, and each thing found
    /// told, without a panic; and every parameter of a rule and every `let` (which the
    /// checker, finding these rulesets clean, found read, but for a `_name`) is found read
    /// at least once.
    #[test]
    fn every_place_of_the_bundled_rulesets_is_told_and_every_local_found_read() {
        for (name, text) in crate::bundled::BUNDLED {
            let uri = Url::parse(&format!("untitled:{name}.rules")).expect("an address");
            let doc = Document::new(uri, 1, text.to_string(), &Limits::default());
            assert!(doc.analysis.program.is_some(), "{name} checks clean");
            let trees = Trees::of(&doc).expect("a bundled ruleset parses");
            let ix = Index::new(&trees);
            for offset in 0..=u32::try_from(text.len()).expect("a small text") {
                let _ = ix.at(offset);
            }
            for (span, hit) in &ix.spots {
                let told = match *hit {
                    Hit::Name { def, .. } => definition(&doc, &ix, def),
                    Hit::Modifier { modifier, list } => modifier_text(&ix, modifier, list),
                    Hit::Dice { count, sides, plus } => {
                        distribution(count, sides.unwrap_or(6), plus)
                    }
                    Hit::Ruleset { written } => written.to_string(),
                };
                assert!(!told.is_empty(), "{name}: {span:?}");
            }
            for (i, d) in ix.defs.iter().enumerate() {
                let local = match d.kind {
                    Kind::Let => true,
                    Kind::Param => d.parent.is_some_and(|p| ix.defs[p].kind == Kind::Rule),
                    _ => false,
                };
                if local && d.span.file == FileId(0) && !d.name.starts_with('_') {
                    let read = ix.uses(i).iter().filter(|(_, decl)| !decl).count();
                    assert!(read > 0, "{name}: `{}` is never found read", d.name);
                }
            }
        }
    }

    #[test]
    fn distributions_are_the_ways_over_all_throws() {
        // d6: each face one way in six; mean (1 + 6) / 2.
        assert_eq!(
            distribution(1, 6, 0),
            "1 (1/6), 2 (1/6), 3 (1/6), 4 (1/6), 5 (1/6), 6 (1/6); mean 3 1/2"
        );
        // 2d4: sums 2..8 in 1, 2, 3, 4, 3, 2, 1 ways of 16; mean 5.
        assert_eq!(
            distribution(2, 4, 0),
            "2 (1/16), 3 (2/16), 4 (3/16), 5 (4/16), 6 (3/16), 7 (2/16), 8 (1/16); mean 5"
        );
        // 3d10: 28 sums, the ends shown: 3 one way, 4 three, 5 six of 1000.
        let d = distribution(3, 10, 0);
        assert!(
            d.starts_with("3 (1/1000), 4 (3/1000), 5 (6/1000), …"),
            "{d}"
        );
        assert!(d.ends_with("30 (1/1000); mean 16 1/2"), "{d}");
        // d4 - 3: each of -2..1 one way in four; mean 2 1/2 - 3.
        assert_eq!(
            distribution(1, 4, -3),
            "-2 (1/4), -1 (1/4), 0 (1/4), 1 (1/4); mean -1/2"
        );
        // 2d6 + 1: 3..13; mean 8.
        let d = distribution(2, 6, 1);
        assert!(d.starts_with("3 (1/36), 4 (2/36)"), "{d}");
        assert!(d.ends_with("13 (1/36); mean 8"), "{d}");
    }
}
