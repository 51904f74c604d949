//! Completion (`textDocument/completion`): what may be typed at the cursor.
//!
//! A document being typed seldom checks and often does not parse, so completion reads
//! two things, neither of which needs the text to parse:
//! - the text around the cursor, read by a small lexer ([`lex`]): the definition the
//!   cursor is in (the last line starting at its first column with a definition's
//!   keyword), its parameters and the `let`s whose block is still open at the cursor,
//!   the brackets open at the cursor (a call's `(`, a table's or a `match`'s `{`), and
//!   what stands just before it (a `.`, a `==`, an argument's name);
//! - the last ruleset that checked for the document ([`Document::checked`]): the names
//!   it defines (and those of what it extends, and `ks.NAME` of what it uses), their
//!   signatures and types. The types of the expressions the context needs (the value
//!   before a `.`, the left of a `==`, a `let`'s value, a `match`'s subject) are asked
//!   of the checker itself ([`Ruleset::question_with`]), the cursor's definition's
//!   parameters and `let`s bound as locals. Definitions written since it last checked are
//!   found in the text and offered with the line that defines them as their detail.
//!
//! Contexts: after `.` the fields of the value's record (an enum's values after its
//! name, a used ruleset's names after its alias); a table row's key of an enum type (and
//! its cell, when the table gives an enum), a
//! `match` arm, a call's argument for an enum parameter, the right of `==`/`!=` and the
//! patterns of `in (...)`: that enum's values first; in a call's brackets the parameters
//! not yet given (`attackers:`), in a record written in place (`Unit { `) its fields;
//! after `:` in a parameter, a field or a `let`: the types;
//! at a definition's start, the keywords of definitions; elsewhere the names in scope
//! and the keywords that may start a statement or an expression there.

use super::at::{Index, Node, Trees};
use super::document::Document;
use super::Failure;
use crate::program::{Global, Program, Signature, Ty};
use crate::Ruleset;
use lsp_server::ErrorCode;
use lsp_types::{CompletionItem, CompletionOptions, CompletionParams, Url};
use serde_json::Value;
use std::collections::HashMap;

mod context;
mod items;
mod text;

use items::Items;
use text::{definitions, header, in_text_or_comment, is_definition, is_word_char, lex, Tok};

/// What the server says of its completion: `.` and `(` ask for it as they are typed.
pub fn options() -> CompletionOptions {
    CompletionOptions {
        trigger_characters: Some(vec![".".to_string(), "(".to_string()]),
        ..Default::default()
    }
}

/// Answers `textDocument/completion`: the items, or an error for bad parameters, a
/// document not open or a position past its end.
pub fn answer(docs: &HashMap<Url, Document>, params: Value) -> Result<Value, Failure> {
    let p: CompletionParams = super::params(params)?;
    let at = p.text_document_position;
    let doc = super::open_doc(docs, &at.text_document.uri)?;
    let offset = super::offset(doc, at.position)?;
    let items = items(doc, offset as usize);
    serde_json::to_value(items).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// A `let` in scope: its name, its type as written and its value as written.
type Let = (String, Option<String>, String);

/// The `let`s in scope at byte `at` read from the syntax trees ([`Index::locals_at`]),
/// when the whole document parses (else `None`, and the text is read instead), but those
/// of the line `at` is on (from `line_begin`): the one being written is not in scope yet.
fn parsed_lets(doc: &Document, at: usize, line_begin: usize) -> Option<Vec<Let>> {
    doc.ast.as_ref()?;
    let trees = Trees::of(doc)?;
    let ix = Index::new(&trees);
    let lets = ix
        .locals_at(u32::try_from(at).ok()?)
        .into_iter()
        .filter_map(|d| match ix.defs[d].node {
            Node::Let(ty, value) if (ix.defs[d].span.start as usize) < line_begin => Some((
                ix.defs[d].name.clone(),
                ty.map(|t| trees.text(t.span()).to_string()),
                trees.text(value.span).to_string(),
            )),
            _ => None,
        })
        .collect();
    Some(lets)
}

/// The items at byte `at` of the document's (normalised) text.
pub fn items(doc: &Document, at: usize) -> Vec<CompletionItem> {
    let text: &str = &doc.source.text;
    let mut at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    if in_text_or_comment(text, at) {
        return Vec::new();
    }
    let scope = Scope::read(text, at, doc.checked.as_deref(), |from, line| {
        parsed_lets(doc, from, line)
    });
    let mut out = Items::default();
    scope.complete(&mut out);
    out.items
}

// ---------------------------------------------------------------- the scope

/// A local name: a parameter or a `let`.
struct Local {
    name: String,
    ty: Ty,
    /// Its type as written, when it is a parameter or a `let` with one.
    written: Option<String>,
    /// A parameter (else a `let`).
    param: bool,
}

/// Where the cursor is.
enum Context {
    /// Where a definition may start.
    TopLevel,
    /// After `.`: what the value or name before it holds.
    Member(String),
    /// After `:` in a parameter, a field or a `let`.
    Type,
    /// A table row's or a `match` arm's pattern, of this type.
    Pattern(Option<Ty>),
    /// In a call's brackets: its callee, the parameters named already, how many are given
    /// by place, and the parameter whose value is being written (by name).
    Call {
        callee: String,
        named: Vec<String>,
        placed: usize,
        value_of: Option<String>,
    },
    /// After `==`, `!=`, or in `in (...)`: the value compared.
    Compared(String),
    /// An expression; a statement may start here in a block (`Some(false)`) or an
    /// example (`Some(true)`).
    Expression(Option<bool>),
    /// In a record of a declared type written in place (`Unit { `): the record, the
    /// fields given already, and the field whose value is being written.
    Record {
        record: u32,
        given: Vec<String>,
        value_of: Option<String>,
    },
    /// A table's cell, of the table's type (its values first, where it is an enum).
    Cell(Option<Ty>),
    /// Nothing to offer (an enum's values being declared).
    Nothing,
}

/// What completion knows at the cursor.
struct Scope<'a> {
    text: &'a str,
    ruleset: Option<&'a Ruleset>,
    locals: Vec<Local>,
    context: Context,
    /// Definitions in the text: (keyword, name, its line).
    written: Vec<(String, String, String)>,
    /// Aliases of used rulesets: (alias, ruleset).
    aliases: Vec<(String, String)>,
    /// Where the cursor's line starts.
    line_begin: usize,
}

impl<'a> Scope<'a> {
    /// Reads the text before byte `at`.
    fn read(
        text: &'a str,
        at: usize,
        ruleset: Option<&'a Ruleset>,
        parsed: impl FnOnce(usize, usize) -> Option<Vec<Let>>,
    ) -> Scope<'a> {
        let word_start = text[..at]
            .char_indices()
            .rev()
            .take_while(|(_, c)| is_word_char(*c))
            .last()
            .map_or(at, |(i, _)| i);
        let all = lex(&text[..word_start]);
        let (written, aliases) = definitions(text, &lex(text));
        let def = all
            .iter()
            .rposition(|t| t.first_column && t.tok == Tok::Word && is_definition(text, t));
        let line_begin = text[..word_start].rfind('\n').map_or(0, |i| i + 1);
        let mut scope = Scope {
            text,
            ruleset,
            locals: Vec::new(),
            context: Context::TopLevel,
            written,
            aliases,
            line_begin,
        };
        let at_column0 = line_begin == word_start;
        let Some(def) = def else {
            return scope;
        };
        let toks = &all[def..];
        let header = header(text, toks);
        let parsed = parsed(word_start, line_begin);
        scope.context = scope.context_of(text, toks, &header, word_start, at_column0, parsed);
        scope
    }

    /// The program of the last ruleset that checked.
    fn program(&self) -> Option<&'a Program> {
        self.ruleset.map(|r| &*r.program)
    }

    /// The signature of a rule, table or modifier list, by name.
    fn signature_of(&self, name: &str) -> Option<&'a Signature> {
        let p = self.program()?;
        let callee = match p.globals.get(name)? {
            Global::Rule(i) => crate::program::Callee::Rule(*i),
            Global::Table(i) => crate::program::Callee::Table(*i),
            Global::Modifiers(i) => crate::program::Callee::Modifiers(*i),
            _ => return None,
        };
        p.signature(callee)
    }

    /// A type as written (`Int`, `Arm`, `0..`, `group of Unit`, `ks.Arm`).
    fn resolve(&self, written: &str) -> Ty {
        let w = written.trim();
        match w {
            "Int" => return Ty::Int,
            "Num" => return Ty::Num,
            "Length" => return Ty::Length,
            "Time" => return Ty::Time,
            "Minutes" => return Ty::Minutes,
            "Bool" => return Ty::Bool,
            "Text" => return Ty::Text,
            _ => {}
        }
        if let Some(of) = w.strip_prefix("group of ") {
            return Ty::Group(Box::new(self.resolve(of)));
        }
        if let Some(inner) = w.strip_prefix('(') {
            let first = inner.split(',').next().unwrap_or("");
            return Ty::Pair(Box::new(self.resolve(first)));
        }
        if w.contains("..") {
            return if w.contains(['"', '\'', '″', '′']) {
                Ty::Length
            } else {
                Ty::Int
            };
        }
        let Some(p) = self.program() else {
            return Ty::Any;
        };
        match p.globals.get(w) {
            Some(Global::EnumType(e)) => Ty::Enum(*e),
            Some(Global::RecordType(r)) => p
                .records
                .get(*r as usize)
                .map_or(Ty::Any, |r| Ty::Record(r.shape.clone())),
            _ => Ty::Any,
        }
    }

    /// The type of an expression written at the cursor, the locals bound, as the checker
    /// finds it; `None` when it does not check.
    fn type_of(&self, expr: &str) -> Option<Ty> {
        let ruleset = self.ruleset?;
        if expr.trim().is_empty() {
            return None;
        }
        let bound: Vec<(String, Ty)> = self
            .locals
            .iter()
            .map(|l| (l.name.clone(), l.ty.clone()))
            .collect();
        let q = ruleset.question_with("<completion>", expr, &bound).ok()?;
        Some(q.ty)
    }
}

#[cfg(test)]
mod tests {
    use super::text::operand_before;
    use super::*;

    #[test]
    fn the_lexer_reads_names_marks_texts_lengths_and_skips_comments() {
        let text = "let w = 6\" + f(\"a # b\") # the rest\nx => 2d6";
        let toks: Vec<&str> = lex(text).iter().map(|t| &text[t.start..t.end]).collect();
        assert_eq!(
            toks,
            [
                "let",
                "w",
                "=",
                "6\"",
                "+",
                "f",
                "(",
                "\"a # b\"",
                ")",
                "x",
                "=>",
                "2d6"
            ]
        );
        let first: Vec<bool> = lex(text).iter().map(|t| t.line_start).collect();
        assert_eq!(first.iter().filter(|b| **b).count(), 2);
    }

    #[test]
    fn the_operand_before_a_dot_or_an_operator_takes_calls_members_and_records() {
        let op = |text: &str| operand_before(text, text.len()).to_string();
        assert_eq!(op("2 * u.pos"), "u.pos");
        assert_eq!(op("x + melee(9, f(1), 0)"), "melee(9, f(1), 0)");
        assert_eq!(op("a == units[name]  "), "units[name]");
        assert_eq!(op("1 + Unit { men: 3 }"), "Unit { men: 3 }");
        // An unmatched bracket stops it, never reads past the text's start.
        assert_eq!(op("f(1))"), "");
    }

    #[test]
    fn completion_at_every_place_of_broken_texts_never_panics() {
        let uri = Url::parse("untitled:fuzz.rules").expect("an address");
        let limits = crate::limits::Limits::default();
        let good = "ruleset \"F\"\nenum E { a \"A\", b }\nrecord R { x: Int, e: E }\n\
                    table t(e: E; n: Int = 0) -> E { a => b\n _ => a }\n\
                    rule r(v: R) -> Int { let y = v.x\n y }\n";
        let good = Document::new(uri.clone(), 1, good.to_string(), &limits);
        assert!(good.checks());
        let broken = [
            "rule r(v: R) -> Int { let y = v.\n  match v.e {\n a | ",
            "table t(e: E) -> E {\n  a | b => (\"x\" + 6\" + t(e: ",
            "example \"x\" {\n  given rolls 3, 4\n  r(R { x: 1, e: ) == \"½👍",
            ")))}}}]]] . . == != in ( \\ \" # é ½ 👍 let let = = :",
            "override table t {\n  column e = a {\n  ",
            "const c: group of (Int, ",
            "use \"nowhere\" as q\nconst d = q.",
        ];
        let labels = |doc: &Document, at: usize| -> Vec<String> {
            items(doc, at).into_iter().map(|i| i.label).collect()
        };
        for text in broken {
            let mut doc = Document::new(uri.clone(), 2, text.to_string(), &limits);
            doc.keep_last_checked(Some(&good));
            for at in (0..=text.len()).filter(|i| text.is_char_boundary(*i)) {
                let _ = items(&doc, at);
            }
            // And what the last program knows still answers: `v.` gives R's fields, the
            // pattern after `match v.e {` E's values.
            if text.starts_with("rule r") {
                let dot = text.find("v.\n").expect("v.") + 2;
                assert_eq!(labels(&doc, dot), ["x", "e"]);
                let arm = text.find(" a | ").expect("an arm") + 1;
                assert_eq!(labels(&doc, arm)[..2], ["a", "b"]);
            }
        }
    }

    #[test]
    fn texts_and_comments_are_told_from_inch_marks() {
        let at_end = |text: &str| in_text_or_comment(text, text.len());
        assert!(at_end("note \"half"));
        assert!(at_end("x + 1 # a comm"));
        assert!(!at_end("let w = 6\" + u"));
        assert!(!at_end("note \"Rule 3\" u"));
        assert!(at_end("note \"a \\\" b"));
    }
    #[test]
    fn the_lets_of_a_parsed_document_are_read_from_its_trees_and_not_of_a_broken_one() {
        let limits = crate::limits::Limits::default();
        let uri = Url::parse("untitled:l.rules").expect("an address");
        let text = "ruleset \"L\"\n\
                    rule r(n: Int) -> Int {\n\
                    \x20 let a = n + 1\n\
                    \x20 let b: Int = if a > 1 {\n\
                    \x20   let inner = 2\n\
                    \x20   inner\n\
                    \x20 } else { 0 }\n\
                    \x20 a + b\n\
                    }\n";
        let doc = Document::new(uri.clone(), 1, text.to_string(), &limits);
        let lets_at = |line: &str| {
            let at = text.find(line).expect("the line");
            parsed_lets(&doc, at, at).expect("it parses")
        };
        // Past both: `a` with its value, `b` with its type; `inner`'s block is closed.
        let a = ("a".to_string(), None, "n + 1".to_string());
        let b = (
            "b".to_string(),
            Some("Int".to_string()),
            "if a > 1 {\n    let inner = 2\n    inner\n  } else { 0 }".to_string(),
        );
        assert_eq!(lets_at("a + b"), vec![a.clone(), b]);
        // In `b`'s value: `a` and `inner`, not `b` itself.
        let inner = ("inner".to_string(), None, "2".to_string());
        assert_eq!(lets_at("inner\n  } else"), vec![a, inner]);
        // A `let` of the cursor's line is the one being written.
        let at = text.find("a + b").expect("the line");
        let line_begin = text.find("  let b").expect("b's line");
        let lets = parsed_lets(&doc, at, line_begin).expect("it parses");
        assert_eq!(lets.len(), 1);
        // A document that does not parse is read from its text.
        let broken = Document::new(uri, 2, format!("{text}rule s( {{"), &limits);
        assert_eq!(parsed_lets(&broken, text.len() - 2, 0), None);
    }
}
