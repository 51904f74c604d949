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

use super::document::Document;
use super::Failure;
use crate::program::{Builtin, Global, Program, Signature, Ty};
use crate::Ruleset;
use lsp_server::ErrorCode;
use lsp_types::{
    CompletionItem, CompletionItemKind, CompletionOptions, CompletionParams, Documentation, Url,
};
use serde_json::Value;
use std::collections::{HashMap, HashSet};

/// What the server says of its completion: `.` and `(` ask for it as they are typed.
pub fn options() -> CompletionOptions {
    CompletionOptions {
        trigger_characters: Some(vec![".".to_string(), "(".to_string()]),
        ..Default::default()
    }
}

/// An open document, or why a request about it cannot be answered.
pub fn open_doc<'d>(docs: &'d HashMap<Url, Document>, uri: &Url) -> Result<&'d Document, Failure> {
    docs.get(uri).ok_or_else(|| {
        (
            ErrorCode::InvalidParams,
            format!("`{uri}` is not open: open it (`textDocument/didOpen`) first"),
        )
    })
}

/// Answers `textDocument/completion`: the items, or an error for bad parameters, a
/// document not open or a position past its end.
pub fn answer(docs: &HashMap<Url, Document>, params: Value) -> Result<Value, Failure> {
    let p: CompletionParams = super::params(params)?;
    let at = p.text_document_position;
    let doc = open_doc(docs, &at.text_document.uri)?;
    let offset = doc
        .offset(at.position)
        .map_err(|why| (ErrorCode::InvalidParams, why))?;
    let items = items(doc, offset as usize);
    serde_json::to_value(items).map_err(|e| (ErrorCode::InternalError, e.to_string()))
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
    let scope = Scope::read(text, at, doc.checked.as_deref());
    let mut out = Items::default();
    scope.complete(&mut out);
    out.items
}

/// Whether byte `at` is inside a quoted text or a comment of its line (nothing is
/// completed there). A `"` straight after a digit, outside a text, is an inch mark.
fn in_text_or_comment(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let mut quoted = false;
    let mut escaped = false;
    let mut last = ' ';
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' if quoted => quoted = false,
            '"' if !last.is_ascii_digit() => quoted = true,
            '#' if !quoted => return true,
            _ => {}
        }
        last = c;
    }
    quoted
}

// ---------------------------------------------------------------- the lexer

/// A token of the text: a word (a name or keyword), a number, a quoted text, or a mark.
#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Word,
    Number,
    Text,
    Mark(&'static str),
}

/// One token and where it is.
#[derive(Debug, Clone)]
struct Token {
    tok: Tok,
    start: usize,
    end: usize,
    /// Written at the first column of its line.
    first_column: bool,
    /// The first token on its line.
    line_start: bool,
}

/// The marks the language writes, longest first.
const MARKS: [&str; 28] = [
    "=>", "==", "!=", "<=", ">=", "->", "..", "+=", "-=", "(", ")", "{", "}", "[", "]", ",", ":",
    ";", "|", ".", "=", "<", ">", "+", "-", "*", "/", "%",
];

/// The tokens of `text` (comments and spaces left out).
fn lex(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let mut column0 = true;
    while let Some(c) = text[i..].chars().next() {
        let start = i;
        if c == '\n' {
            i += 1;
            line_start = true;
            column0 = true;
            continue;
        }
        if c.is_whitespace() {
            i += c.len_utf8();
            column0 = false;
            continue;
        }
        let tok = if c == '#' {
            i = text[i..].find('\n').map_or(text.len(), |n| i + n);
            continue;
        } else if c == '"' {
            i += 1;
            let bytes = text.as_bytes();
            while i < text.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len());
            while !text.is_char_boundary(i) {
                i += 1;
            }
            Tok::Text
        } else if c.is_ascii_digit() {
            i += text[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - i);
            // A length's mark: `6"`, `2'`.
            if let Some(m) = text[i..].chars().next().filter(|m| "\"'″′".contains(*m)) {
                i += m.len_utf8();
            }
            Tok::Number
        } else if is_word_char(c) {
            i += text[i..]
                .find(|c: char| !is_word_char(c))
                .unwrap_or(text.len() - i);
            Tok::Word
        } else if let Some(m) = MARKS.iter().find(|m| text[i..].starts_with(**m)) {
            i += m.len();
            Tok::Mark(m)
        } else {
            i += c.len_utf8();
            Tok::Mark("?")
        };
        out.push(Token {
            tok,
            start,
            end: i,
            first_column: column0,
            line_start,
        });
        line_start = false;
        column0 = false;
    }
    out
}

/// A character of a name.
fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// The keywords a definition starts with.
const DEFINITIONS: [&str; 15] = [
    "ruleset",
    "die",
    "extends",
    "use",
    "const",
    "enum",
    "list",
    "record",
    "state",
    "rule",
    "table",
    "modifiers",
    "example",
    "interpretation",
    "override",
];

/// Keywords that may start an expression.
const EXPRESSION_KEYWORDS: [&str; 8] = [
    "if", "match", "not", "true", "false", "refuse", "reading", "instead",
];

/// Keywords that may start a statement of a block.
const STATEMENT_KEYWORDS: [&str; 3] = ["let", "note", "set"];

/// Keywords that may start a line of an example.
const EXAMPLE_KEYWORDS: [&str; 4] = ["given rolls", "seed", "interpret", "let"];

/// The types every ruleset has.
const TYPES: [&str; 7] = ["Int", "Num", "Length", "Time", "Minutes", "Bool", "Text"];

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

/// A definition's header read from its tokens: its keyword, name and parameters
/// (name, type as written), and how many are keys (a table's).
struct Header {
    keyword: String,
    name: String,
    params: Vec<(String, String)>,
    keys: usize,
    /// The type it gives, as written.
    returns: Option<String>,
    /// Index (into the definition's tokens) of the `(` of its parameters, and of its
    /// body's `{`.
    paren: Option<usize>,
    body: Option<usize>,
}

impl<'a> Scope<'a> {
    /// Reads the text before byte `at`.
    fn read(text: &'a str, at: usize, ruleset: Option<&'a Ruleset>) -> Scope<'a> {
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
        scope.context = scope.context_of(text, toks, &header, word_start, at_column0);
        scope
    }

    /// Works out the context, binding the locals on the way.
    fn context_of(
        &mut self,
        text: &str,
        toks: &[Token],
        header: &Header,
        word_start: usize,
        at_column0: bool,
    ) -> Context {
        let (stack, lets) = brackets(text, toks, self.line_begin);
        // Parameters are in scope inside the body (and in a modifier list's).
        if header.body.is_some_and(|b| stack.first() == Some(&b)) {
            let sig = self.signature_of(&header.name);
            for (i, (name, written)) in header.params.iter().enumerate() {
                let ty = sig
                    .and_then(|s| s.params.get(i))
                    .filter(|p| *p.name == **name)
                    .map_or_else(|| self.resolve(written), |p| p.ty.clone());
                self.locals.push(Local {
                    name: name.clone(),
                    ty,
                    written: Some(written.clone()),
                    param: true,
                });
            }
        }
        for (name, written, value) in lets {
            let ty = match &written {
                Some(w) => self.resolve(w),
                None => self.type_of(&value).unwrap_or(Ty::Any),
            };
            self.locals.push(Local {
                name,
                ty,
                written,
                param: false,
            });
        }
        let before = text[..word_start].trim_end();
        if text[..word_start].ends_with('.') {
            let end = word_start - 1;
            return Context::Member(operand_before(text, end).to_string());
        }
        let Some(&open) = stack.last() else {
            let closed = header.body.is_some();
            return if closed || at_column0 || toks.len() <= 1 {
                Context::TopLevel
            } else if before.ends_with(':') && !before.ends_with("::") {
                Context::Type
            } else {
                Context::Expression(None)
            };
        };
        let last = toks.last();
        let last_mark = last.and_then(|t| match t.tok {
            Tok::Mark(m) => Some(m),
            _ => None,
        });
        if matches!(last_mark, Some("==") | Some("!=")) {
            let end = last.map_or(0, |t| t.start);
            return Context::Compared(operand_before(text, end).to_string());
        }
        if Some(open) == header.paren {
            return if last_mark == Some(":") {
                Context::Type
            } else {
                Context::Expression(None)
            };
        }
        if last_mark == Some(":") && is_let_type(text, toks) {
            return Context::Type;
        }
        let opener = &toks[open];
        match opener.tok {
            Tok::Mark("(") => self.in_paren(text, toks, open),
            Tok::Mark("{") if Some(open) == header.body => match header.keyword.as_str() {
                "table" => self.in_rows(toks, open, header, None),
                "example" => self.statement(toks, open, true),
                "record" | "state" => {
                    if last_mark == Some(":") {
                        Context::Type
                    } else {
                        Context::Expression(None)
                    }
                }
                "enum" | "list" | "interpretation" => Context::Nothing,
                _ => self.statement(toks, open, false),
            },
            Tok::Mark("{") => {
                let words: Vec<&str> = toks[..open]
                    .iter()
                    .rev()
                    .take_while(|t| !matches!(t.tok, Tok::Mark("{" | "}" | ";")))
                    .map(|t| &text[t.start..t.end])
                    .collect();
                let mut words = words;
                words.reverse();
                if let Some(m) = words.iter().rposition(|w| *w == "match") {
                    let subject = words[m + 1..].join(" ");
                    if self.in_pattern(toks, open) {
                        return Context::Pattern(self.type_of(&subject));
                    }
                    return Context::Expression(None);
                }
                let name = operand_before(text, toks[open].start);
                if let Some(Global::RecordType(r)) =
                    self.program().and_then(|p| p.globals.get(name))
                {
                    return self.in_record(text, toks, open, *r);
                }
                if words.first() == Some(&"column") && header.keyword == "table" {
                    let key = words.get(1).copied();
                    return self.in_rows(toks, open, header, key);
                }
                self.statement(toks, open, false)
            }
            _ => Context::Expression(None),
        }
    }

    /// In a `(`: a call's arguments, an `in (...)`'s patterns, or brackets.
    fn in_paren(&self, text: &str, toks: &[Token], open: usize) -> Context {
        let head = open.checked_sub(1).map(|i| &toks[i]);
        match head {
            Some(h) if h.tok == Tok::Word && &text[h.start..h.end] == "in" => {
                let mut end = h.start;
                if let Some(n) = open.checked_sub(2).map(|i| &toks[i]) {
                    if &text[n.start..n.end] == "not" {
                        end = n.start;
                    }
                }
                return Context::Compared(operand_before(text, end).to_string());
            }
            Some(h) if h.tok == Tok::Word && h.end == toks[open].start => {}
            _ => return Context::Expression(None),
        }
        let callee = operand_before(text, toks[open].start).to_string();
        let mut named = Vec::new();
        let mut placed = 0;
        let mut value_of = None;
        let mut depth = 0usize;
        let mut arg_start = open + 1;
        for (i, t) in toks.iter().enumerate().skip(open + 1) {
            match t.tok {
                Tok::Mark("(" | "[" | "{") => depth += 1,
                Tok::Mark(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tok::Mark(",") if depth == 0 => {
                    match arg_name(text, &toks[arg_start..i]) {
                        Some(n) => named.push(n),
                        None => placed += 1,
                    }
                    arg_start = i + 1;
                }
                _ => {}
            }
        }
        if let Some(n) = arg_name(text, &toks[arg_start..]) {
            value_of = Some(n);
        }
        Context::Call {
            callee,
            named,
            placed,
            value_of,
        }
    }

    /// In the braces (opened at `open`) of a record of the declared type `record`.
    fn in_record(&self, text: &str, toks: &[Token], open: usize, record: u32) -> Context {
        let mut given = Vec::new();
        let mut depth = 0usize;
        let mut field_start = open + 1;
        for (i, t) in toks.iter().enumerate().skip(open + 1) {
            match t.tok {
                Tok::Mark("(" | "[" | "{") => depth += 1,
                Tok::Mark(")" | "]" | "}") => depth = depth.saturating_sub(1),
                Tok::Mark(",") if depth == 0 => {
                    given.extend(arg_name(text, &toks[field_start..i]));
                    field_start = i + 1;
                }
                _ => {}
            }
        }
        Context::Record {
            record,
            given,
            value_of: arg_name(text, &toks[field_start..]),
        }
    }

    /// In a table's body (or a `column` block of it, whose key is `fixed`): a row's
    /// pattern for a key, or its cell.
    fn in_rows(
        &self,
        toks: &[Token],
        open: usize,
        header: &Header,
        fixed: Option<&str>,
    ) -> Context {
        let sig = self.signature_of(&header.name);
        if !self.in_pattern(toks, open) {
            // A cell: of the table's type.
            let written = header.returns.as_deref().map(|w| self.resolve(w));
            return Context::Cell(sig.map(|s| s.ret.clone()).or(written));
        }
        let bars = self
            .on_line(toks, open)
            .iter()
            .filter(|t| t.tok == Tok::Mark("|"))
            .count();
        // The keys as written, or (a patch of a base's table: `override table NAME {`)
        // as the last program has them.
        let keys: Vec<(String, Ty)> = if header.keys > 0 {
            header.params[..header.keys.min(header.params.len())]
                .iter()
                .enumerate()
                .map(|(k, (name, written))| {
                    let ty = sig
                        .and_then(|s| s.params.get(k))
                        .filter(|p| *p.name == **name)
                        .map_or_else(|| self.resolve(written), |p| p.ty.clone());
                    (name.clone(), ty)
                })
                .collect()
        } else {
            let keys = self.program().and_then(|p| {
                p.tables
                    .iter()
                    .find(|t| *t.sig.name == header.name)
                    .map(|t| t.keys)
            });
            sig.map_or_else(Vec::new, |s| {
                s.params
                    .iter()
                    .take(keys.unwrap_or(0))
                    .map(|p| (p.name.to_string(), p.ty.clone()))
                    .collect()
            })
        };
        let keys: Vec<&Ty> = keys
            .iter()
            .filter(|(name, _)| Some(name.as_str()) != fixed)
            .map(|(_, ty)| ty)
            .collect();
        Context::Pattern(keys.get(bars).map(|t| (*t).clone()))
    }

    /// The tokens of the cursor's line before it (those after the bracket `open`).
    fn on_line<'t>(&self, toks: &'t [Token], open: usize) -> &'t [Token] {
        let first = toks
            .iter()
            .position(|t| t.start >= self.line_begin)
            .unwrap_or(toks.len())
            .max(open + 1)
            .min(toks.len());
        &toks[first..]
    }

    /// In a block of rows opened at `open`: whether the cursor is in a row's patterns (no
    /// `=>` on its line before it) rather than its cell.
    fn in_pattern(&self, toks: &[Token], open: usize) -> bool {
        !self
            .on_line(toks, open)
            .iter()
            .any(|t| t.tok == Tok::Mark("=>"))
    }

    /// In the block opened at `open`: a statement (or an example's line) may start at the
    /// cursor (the first on its line, or after `{` or `;`), or only an expression.
    fn statement(&self, toks: &[Token], open: usize, example: bool) -> Context {
        let starts = self.on_line(toks, open).is_empty()
            || matches!(toks.last().map(|t| &t.tok), Some(Tok::Mark("{" | ";")));
        Context::Expression(starts.then_some(example))
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

    /// The items of the context.
    fn complete(&self, out: &mut Items) {
        match &self.context {
            Context::TopLevel => {
                for k in DEFINITIONS {
                    out.keyword(k, "a definition");
                }
            }
            Context::Type => self.types(out),
            Context::Member(before) => self.members(before, out),
            Context::Pattern(ty) => {
                if let Some(ty) = ty {
                    self.values_of(ty, "0", out);
                }
                out.keyword("otherwise", "any value not matched above");
            }
            Context::Compared(before) => {
                if let Some(ty) = self.type_of(before) {
                    self.values_of(&ty, "0", out);
                }
                self.names(out);
            }
            Context::Call {
                callee,
                named,
                placed,
                value_of,
            } => {
                self.arguments(callee, named, *placed, value_of.as_deref(), out);
                self.names(out);
                self.expression_keywords(out);
            }
            Context::Record {
                record,
                given,
                value_of,
            } => self.record_fields(*record, given, value_of.as_deref(), out),
            Context::Cell(ty) => {
                if let Some(ty) = ty {
                    self.values_of(ty, "0", out);
                }
                self.names(out);
                self.expression_keywords(out);
            }
            Context::Nothing => {}
            Context::Expression(statement) => {
                self.names(out);
                match statement {
                    Some(true) => {
                        for k in EXAMPLE_KEYWORDS {
                            out.keyword(k, "a line of an example");
                        }
                    }
                    Some(false) => {
                        for k in STATEMENT_KEYWORDS {
                            out.keyword(k, "a statement");
                        }
                    }
                    None => {}
                }
                self.expression_keywords(out);
            }
        }
    }

    /// The keywords that start an expression.
    fn expression_keywords(&self, out: &mut Items) {
        for k in EXPRESSION_KEYWORDS {
            out.keyword(k, "an expression");
        }
    }

    /// Type names.
    fn types(&self, out: &mut Items) {
        for t in TYPES {
            out.push(t, CompletionItemKind::STRUCT, "a type", "2");
        }
        out.push(
            "group of",
            CompletionItemKind::KEYWORD,
            "a group of members",
            "3",
        );
        if let Some(p) = self.program() {
            for e in &p.enums {
                out.push(&e.name, CompletionItemKind::ENUM, &enum_detail(e), "1");
            }
            for r in &p.records {
                let detail = record_detail(p, &r.name, &r.shape.fields);
                out.push(&r.name, CompletionItemKind::STRUCT, &detail, "1");
            }
        }
        for (keyword, name, line) in &self.written {
            match keyword.as_str() {
                "enum" => {
                    out.push(name, CompletionItemKind::ENUM, line, "1");
                }
                "record" => {
                    out.push(name, CompletionItemKind::STRUCT, line, "1");
                }
                _ => {}
            }
        }
    }

    /// After `before.`: a used ruleset's names, an enum's values, or a value's fields.
    fn members(&self, before: &str, out: &mut Items) {
        let before = before.trim();
        let p = self.program();
        if self.aliases.iter().any(|(a, _)| a == before) || self.is_alias(before) {
            let prefix = format!("{before}.");
            let mut names = Items::default();
            self.globals(&mut names);
            for mut item in names.items {
                if let Some(rest) = item.label.strip_prefix(&prefix) {
                    if rest.contains('.') {
                        continue;
                    }
                    item.label = rest.to_string();
                    item.insert_text = None;
                    out.seen.insert(item.label.clone());
                    out.items.push(item);
                }
            }
            return;
        }
        if let Some(Global::EnumType(e)) = p.and_then(|p| p.globals.get(before)) {
            self.values_of(&Ty::Enum(*e), "0", out);
            return;
        }
        match self.type_of(before) {
            Some(Ty::Record(shape)) => {
                for (name, ty) in &shape.fields {
                    let detail = p.map_or_else(|| "a field".to_string(), |p| ty.name(p));
                    out.push(name, CompletionItemKind::FIELD, &detail, "0");
                }
            }
            Some(Ty::Pair(t)) => {
                let detail = p.map_or_else(String::new, |p| t.name(p));
                out.push("first", CompletionItemKind::FIELD, &detail, "0");
                out.push("second", CompletionItemKind::FIELD, &detail, "0");
            }
            _ => {}
        }
    }

    /// Whether `name` is the alias of a used ruleset in the last program.
    fn is_alias(&self, name: &str) -> bool {
        let prefix = format!("{name}.");
        self.program()
            .is_some_and(|p| p.globals.keys().any(|k| k.starts_with(&prefix)))
            && !self.program().is_some_and(|p| p.globals.contains_key(name))
    }

    /// The values of an enum type (and `true`/`false`), sorted by `rank`.
    fn values_of(&self, ty: &Ty, rank: &str, out: &mut Items) {
        match ty {
            Ty::Enum(e) => {
                let Some(info) = self.program().and_then(|p| p.enums.get(usize::from(*e))) else {
                    return;
                };
                for (i, v) in info.values.iter().enumerate() {
                    let detail = match &v.display {
                        Some(d) => format!("{}: \"{d}\"", info.name),
                        None => info.name.clone(),
                    };
                    let kind = CompletionItemKind::ENUM_MEMBER;
                    if let Some(item) = out.push(&v.name, kind, &detail, rank) {
                        // In the order declared.
                        item.sort_text = Some(format!("{rank}{i:05}"));
                        if let Some(s) = &v.sentence {
                            item.documentation = Some(Documentation::String(s.to_string()));
                        }
                    }
                }
            }
            Ty::Bool => {
                out.push("true", CompletionItemKind::KEYWORD, "Bool", rank);
                out.push("false", CompletionItemKind::KEYWORD, "Bool", rank);
            }
            _ => {}
        }
    }

    /// A call's parameters not given yet, and the values of the one being written.
    fn arguments(
        &self,
        callee: &str,
        named: &[String],
        placed: usize,
        value_of: Option<&str>,
        out: &mut Items,
    ) {
        let params: Vec<(String, Ty, String)> = match self.signature_of(callee) {
            Some(sig) => sig
                .params
                .iter()
                .map(|p| {
                    let ty = p.ty.clone();
                    (p.name.to_string(), ty, param_text(self.program(), p))
                })
                .collect(),
            None => self
                .written_params(callee)
                .into_iter()
                .map(|(n, w)| (n, self.resolve(&w), w))
                .collect(),
        };
        let current = match value_of {
            Some(name) => params.iter().find(|(n, _, _)| n == name),
            None => params.get(placed),
        };
        if let Some((_, ty, _)) = current {
            self.values_of(ty, "0a", out);
        }
        if value_of.is_some() {
            return;
        }
        for (i, (name, _, detail)) in params.iter().enumerate() {
            if i < placed || named.contains(name) {
                continue;
            }
            let label = format!("{name}:");
            if let Some(item) = out.push(&label, CompletionItemKind::FIELD, detail, "0b") {
                item.insert_text = Some(format!("{name}: "));
                item.filter_text = Some(name.clone());
            }
        }
    }

    /// A record's fields not given yet (`men:`), or the names and values for the one
    /// whose value is being written.
    fn record_fields(
        &self,
        record: u32,
        given: &[String],
        value_of: Option<&str>,
        out: &mut Items,
    ) {
        let Some(p) = self.program() else {
            return;
        };
        let Some(info) = p.records.get(record as usize) else {
            return;
        };
        if let Some(field) = value_of {
            if let Some((_, ty)) = info.shape.fields.iter().find(|(n, _)| &**n == field) {
                self.values_of(ty, "0", out);
            }
            self.names(out);
            self.expression_keywords(out);
            return;
        }
        for (i, (name, ty)) in info.shape.fields.iter().enumerate() {
            if given.iter().any(|g| **g == **name) {
                continue;
            }
            let label = format!("{name}:");
            let detail = match info.has_default.get(i) {
                Some(true) => format!("{}: {} = …", name, ty.name(p)),
                _ => format!("{}: {}", name, ty.name(p)),
            };
            if let Some(item) = out.push(&label, CompletionItemKind::FIELD, &detail, "0") {
                item.insert_text = Some(format!("{name}: "));
                item.filter_text = Some(name.to_string());
                item.sort_text = Some(format!("0{i:05}"));
            }
        }
    }

    /// The parameters of a definition written in the text (one the last ruleset that
    /// checked does not have).
    fn written_params(&self, name: &str) -> Vec<(String, String)> {
        let toks = lex(self.text);
        for (i, t) in toks.iter().enumerate() {
            if t.first_column && is_definition(self.text, t) {
                let h = header(self.text, &toks[i..]);
                if h.name == name {
                    return h.params;
                }
            }
        }
        Vec::new()
    }

    /// The names in scope: locals, then the definitions, then the built-in functions.
    fn names(&self, out: &mut Items) {
        for l in self.locals.iter().rev() {
            let detail = match (&l.ty, self.program(), &l.written) {
                // A parameter's type as written (`0..` says more than `Int`).
                (_, _, Some(w)) if l.param => w.clone(),
                (Ty::Any, _, Some(w)) => w.clone(),
                (Ty::Any, _, None) => String::new(),
                (ty, Some(p), _) => ty.name(p),
                (_, None, Some(w)) => w.clone(),
                (_, None, None) => String::new(),
            };
            let what = if l.param { "parameter" } else { "let" };
            let detail = if detail.is_empty() {
                what.to_string()
            } else {
                format!("{what}: {detail}")
            };
            out.push(&l.name, CompletionItemKind::VARIABLE, &detail, "1");
        }
        self.globals(out);
        for (alias, ruleset) in &self.aliases {
            let detail = format!("use \"{ruleset}\"");
            out.push(alias, CompletionItemKind::MODULE, &detail, "2");
        }
        for (name, _) in Builtin::ALL {
            out.push(name, CompletionItemKind::FUNCTION, "built-in function", "3");
        }
    }

    /// The definitions: the last checked program's, then those written since.
    fn globals(&self, out: &mut Items) {
        if let Some(p) = self.program() {
            let mut names: Vec<(&String, &Global)> = p.globals.iter().collect();
            names.sort_by(|a, b| a.0.cmp(b.0));
            for (name, g) in names {
                let (kind, detail) = global_detail(p, name, g);
                out.push(name, kind, &detail, "2");
            }
            let mut lists: Vec<_> = p.lists.values().collect();
            lists.sort_by(|a, b| a.name.cmp(&b.name));
            for l in lists {
                let of = p
                    .enums
                    .get(usize::from(l.of))
                    .map_or("?", |e| e.name.as_str());
                let detail = format!("list {}: {of}", l.name);
                out.push(&l.name, CompletionItemKind::CONSTANT, &detail, "2");
            }
        }
        for (keyword, name, line) in &self.written {
            let kind = match keyword.as_str() {
                "rule" | "table" | "modifiers" => CompletionItemKind::FUNCTION,
                "enum" => CompletionItemKind::ENUM,
                "record" => CompletionItemKind::STRUCT,
                _ => CompletionItemKind::CONSTANT,
            };
            out.push(name, kind, line, "2");
        }
    }
}

/// Whether token `t` (at a line's first column) is a definition's keyword.
fn is_definition(text: &str, t: &Token) -> bool {
    t.tok == Tok::Word && DEFINITIONS.contains(&&text[t.start..t.end])
}

/// The header of the definition whose tokens start `toks`.
fn header(text: &str, toks: &[Token]) -> Header {
    let word = |i: usize| toks.get(i).map_or("", |t| &text[t.start..t.end]);
    let mut k = 0;
    if word(0) == "override" {
        k = 1;
    }
    let keyword = word(k).to_string();
    let name = if keyword == "example" || keyword == "state" {
        String::new()
    } else {
        word(k + 1).to_string()
    };
    let mut h = Header {
        keyword,
        name,
        params: Vec::new(),
        keys: 0,
        returns: None,
        paren: None,
        body: None,
    };
    let mut depth = 0usize;
    let mut param_start = None;
    let mut semicolon = false;
    for (i, t) in toks.iter().enumerate().skip(k + 1) {
        if i > k + 1 && t.first_column && is_definition(text, t) {
            break;
        }
        match t.tok {
            Tok::Mark("(") if h.paren.is_none() && h.body.is_none() && depth == 0 => {
                if matches!(h.keyword.as_str(), "rule" | "table" | "modifiers") {
                    h.paren = Some(i);
                    param_start = Some(i + 1);
                }
                depth += 1;
            }
            Tok::Mark("(" | "[") => depth += 1,
            Tok::Mark(")" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some(s) = param_start.take() {
                        push_param(text, &toks[s..i], &mut h.params);
                        if !semicolon {
                            h.keys = h.params.len();
                        }
                    }
                }
            }
            Tok::Mark("," | ";") if depth == 1 && param_start.is_some() => {
                if let Some(s) = param_start {
                    push_param(text, &toks[s..i], &mut h.params);
                }
                if t.tok == Tok::Mark(";") && !semicolon {
                    semicolon = true;
                    h.keys = h.params.len();
                }
                param_start = Some(i + 1);
            }
            Tok::Mark("{") if depth == 0 => {
                h.body = Some(i);
                break;
            }
            _ => {}
        }
    }
    if let Some(s) = param_start {
        push_param(text, &toks[s..], &mut h.params);
    }
    if !semicolon && h.keyword == "table" {
        h.keys = h.params.len();
    }
    let end = h.body.unwrap_or(toks.len());
    if let Some(arrow) = toks[..end].iter().position(|t| t.tok == Tok::Mark("->")) {
        let ty: Vec<&Token> = toks[arrow + 1..end]
            .iter()
            .take_while(|t| !matches!(&text[t.start..t.end], "cite" | "recursive"))
            .collect();
        if let (Some(a), Some(b)) = (ty.first(), ty.last()) {
            h.returns = Some(text[a.start..b.end].to_string());
        }
    }
    h
}

/// `name: Type (= default)?` from a parameter's tokens.
fn push_param(text: &str, toks: &[Token], out: &mut Vec<(String, String)>) {
    let [name, colon, ty @ ..] = toks else {
        return;
    };
    if name.tok != Tok::Word || colon.tok != Tok::Mark(":") {
        return;
    }
    let end = ty
        .iter()
        .position(|t| t.tok == Tok::Mark("="))
        .unwrap_or(ty.len());
    let written = match (ty.first(), end.checked_sub(1).and_then(|e| ty.get(e))) {
        (Some(a), Some(b)) => text[a.start..b.end].to_string(),
        _ => String::new(),
    };
    out.push((text[name.start..name.end].to_string(), written));
}

/// The brackets open at the end of `toks` (indices into it, outermost first), and the
/// `let`s whose block is still open: (name, type as written, value as written). A `let`
/// on the cursor's line (starting at byte `line_begin`) is the one being written: its
/// name is not in scope yet.
#[allow(clippy::type_complexity)]
fn brackets(
    text: &str,
    toks: &[Token],
    line_begin: usize,
) -> (Vec<usize>, Vec<(String, Option<String>, String)>) {
    let mut stack: Vec<usize> = Vec::new();
    let mut lets: Vec<(usize, String, Option<String>, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Mark("(" | "{" | "[") => stack.push(i),
            Tok::Mark(")" | "}" | "]") => {
                stack.pop();
                lets.retain(|l| l.0 <= stack.len());
            }
            Tok::Word if &text[t.start..t.end] == "let" && t.start < line_begin => {
                if let Some(l) = read_let(text, &toks[i..]) {
                    lets.push((stack.len(), l.0, l.1, l.2));
                }
            }
            _ => {}
        }
    }
    (
        stack,
        lets.into_iter().map(|(_, n, t, v)| (n, t, v)).collect(),
    )
}

/// `let NAME (: Type)? = VALUE`: the value read to the end of its line (and on while its
/// brackets are open).
fn read_let(text: &str, toks: &[Token]) -> Option<(String, Option<String>, String)> {
    let name = toks.get(1).filter(|t| t.tok == Tok::Word)?;
    let eq = toks.iter().position(|t| t.tok == Tok::Mark("="))?;
    let ty = match toks.get(2) {
        Some(t) if t.tok == Tok::Mark(":") && eq > 3 => {
            Some(text[toks[3].start..toks[eq - 1].end].to_string())
        }
        _ => None,
    };
    let mut depth = 0i32;
    let mut end = None;
    for t in &toks[eq + 1..] {
        if depth == 0 && end.is_some() && (t.line_start || t.tok == Tok::Mark(";")) {
            break;
        }
        match t.tok {
            Tok::Mark("(" | "{" | "[") => depth += 1,
            Tok::Mark(")" | "}" | "]") => {
                depth -= 1;
                if depth < 0 {
                    break;
                }
            }
            _ => {}
        }
        end = Some(t.end);
    }
    let start = toks.get(eq + 1)?.start;
    let value = text.get(start..end?)?.to_string();
    Some((text[name.start..name.end].to_string(), ty, value))
}

/// Whether the tokens end with `let NAME :`.
fn is_let_type(text: &str, toks: &[Token]) -> bool {
    matches!(toks, [.., l, n, c] if &text[l.start..l.end] == "let" && n.tok == Tok::Word && c.tok == Tok::Mark(":"))
}

/// The name of an argument written `name: value`.
fn arg_name(text: &str, toks: &[Token]) -> Option<String> {
    match toks {
        [n, c, ..] if n.tok == Tok::Word && c.tok == Tok::Mark(":") => {
            Some(text[n.start..n.end].to_string())
        }
        _ => None,
    }
}

/// The operand that ends at byte `end` of `text`: a name, a field path, a call or a
/// member (`u.pos`, `melee(9, 11, 0, 0)`, `units[name]`), spaces before `end` skipped.
fn operand_before(text: &str, end: usize) -> &str {
    let bytes = text.as_bytes();
    let mut i = text[..end].trim_end().len();
    let stop = i;
    while i > 0 {
        let c = text[..i].chars().next_back().unwrap_or(' ');
        if is_word_char(c) || c == '.' {
            i -= c.len_utf8();
        } else if c == ')' || c == ']' || c == '}' {
            let (open, close) = match c {
                ')' => (b'(', b')'),
                ']' => (b'[', b']'),
                _ => (b'{', b'}'),
            };
            let mut depth = 0;
            let mut j = i;
            while j > 0 {
                j -= 1;
                if bytes[j] == close {
                    depth += 1;
                } else if bytes[j] == open {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            if depth != 0 {
                break;
            }
            i = j;
            if c == '}' {
                // A typed record: `Unit { ... }`, its name before the brace.
                i = text[..i].trim_end().len();
            }
        } else {
            break;
        }
    }
    while !text.is_char_boundary(i) {
        i += 1;
    }
    &text[i..stop]
}

/// The definitions written in the text (keyword, name, its first line), and the aliases
/// of the rulesets it uses (alias, ruleset).
#[allow(clippy::type_complexity)]
fn definitions(
    text: &str,
    toks: &[Token],
) -> (Vec<(String, String, String)>, Vec<(String, String)>) {
    let mut defs = Vec::new();
    let mut aliases = Vec::new();
    let word = |t: Option<&Token>| t.map_or("", |t| &text[t.start..t.end]);
    for (i, t) in toks.iter().enumerate() {
        if !(t.first_column && is_definition(text, t)) {
            continue;
        }
        let mut k = i;
        if word(Some(t)) == "override" {
            k += 1;
        }
        let keyword = word(toks.get(k));
        if keyword == "use" {
            let ruleset = word(toks.get(k + 1)).trim_matches('"');
            if word(toks.get(k + 2)) == "as" {
                aliases.push((word(toks.get(k + 3)).to_string(), ruleset.to_string()));
            }
            continue;
        }
        let named = [
            "const",
            "enum",
            "list",
            "record",
            "rule",
            "table",
            "modifiers",
        ];
        let name = toks.get(k + 1).filter(|n| n.tok == Tok::Word);
        if let (true, Some(n)) = (named.contains(&keyword), name) {
            let line_end = text[t.start..]
                .find('\n')
                .map_or(text.len(), |e| t.start + e);
            let line = text[t.start..line_end].trim_end_matches(['{', ' ']).trim();
            defs.push((
                keyword.to_string(),
                word(Some(n)).to_string(),
                line.to_string(),
            ));
        }
    }
    (defs, aliases)
}

// ---------------------------------------------------------------- the items

/// The items gathered, each label once.
#[derive(Default)]
struct Items {
    items: Vec<CompletionItem>,
    seen: HashSet<String>,
}

impl Items {
    /// Adds an item (unless one of that label is in already): the one added.
    fn push(
        &mut self,
        label: &str,
        kind: CompletionItemKind,
        detail: &str,
        rank: &str,
    ) -> Option<&mut CompletionItem> {
        if !self.seen.insert(label.to_string()) {
            return None;
        }
        self.items.push(CompletionItem {
            label: label.to_string(),
            kind: Some(kind),
            detail: (!detail.is_empty()).then(|| detail.to_string()),
            sort_text: Some(format!("{rank}{label}")),
            ..Default::default()
        });
        self.items.last_mut()
    }

    /// Adds a keyword.
    fn keyword(&mut self, word: &str, what: &str) {
        self.push(word, CompletionItemKind::KEYWORD, what, "4");
    }
}

/// A parameter as a signature writes it: `men: 0.. = needed`, `support: Int = 0`.
fn param_text(p: Option<&Program>, param: &crate::program::ParamInfo) -> String {
    let ty = match (&param.range, p) {
        (Some(r), _) => r.written(),
        (None, Some(p)) => param.ty.name(p),
        (None, None) => "?".to_string(),
    };
    let default = if param.needed {
        " = needed"
    } else if param.has_default {
        " = …"
    } else {
        ""
    };
    format!("{}: {ty}{default}", param.name)
}

/// A callable's signature: `rule melee(attackers: Int, ...) -> MeleeResult`.
fn signature_text(p: &Program, keyword: &str, sig: &Signature, keys: Option<usize>) -> String {
    let mut params = String::new();
    for (i, param) in sig.params.iter().enumerate() {
        if i > 0 {
            params.push_str(if Some(i) == keys { "; " } else { ", " });
        }
        params.push_str(&param_text(Some(p), param));
    }
    let ret = sig.ret.name(p);
    format!("{keyword} {}({params}) -> {ret}", sig.name)
}

/// `enum Arm { infantry, cavalry, artillery }` (the first values, when many).
fn enum_detail(e: &crate::program::EnumInfo) -> String {
    let names: Vec<&str> = e.values.iter().take(6).map(|v| &*v.name).collect();
    let more = if e.values.len() > 6 { ", …" } else { "" };
    format!("enum {} {{ {}{more} }}", e.name, names.join(", "))
}

/// `record Unit { men: Int, arm: Arm }`.
fn record_detail(p: &Program, name: &str, fields: &[(std::rc::Rc<str>, Ty)]) -> String {
    let f: Vec<String> = fields
        .iter()
        .map(|(n, t)| format!("{n}: {}", t.name(p)))
        .collect();
    format!("record {name} {{ {} }}", f.join(", "))
}

/// A definition's kind and detail.
fn global_detail(p: &Program, name: &str, g: &Global) -> (CompletionItemKind, String) {
    use CompletionItemKind as K;
    match g {
        Global::Const(i) => {
            let ty = p
                .consts
                .get(*i as usize)
                .map_or("?".into(), |c| c.ty.name(p));
            (K::CONSTANT, format!("const {name}: {ty}"))
        }
        Global::Rule(i) => (
            K::FUNCTION,
            p.rules
                .get(*i as usize)
                .map_or_else(String::new, |r| signature_text(p, "rule", &r.sig, None)),
        ),
        Global::Table(i) => (
            K::FUNCTION,
            p.tables.get(*i as usize).map_or_else(String::new, |t| {
                signature_text(p, "table", &t.sig, Some(t.keys))
            }),
        ),
        Global::Modifiers(i) => (
            K::FUNCTION,
            p.modifiers.get(*i as usize).map_or_else(String::new, |m| {
                signature_text(p, "modifiers", &m.sig, None)
            }),
        ),
        Global::EnumType(e) => (
            K::ENUM,
            p.enums
                .get(usize::from(*e))
                .map_or_else(String::new, enum_detail),
        ),
        Global::RecordType(r) => (
            K::STRUCT,
            p.records
                .get(*r as usize)
                .map_or_else(String::new, |r| record_detail(p, &r.name, &r.shape.fields)),
        ),
        Global::StateField(f) => {
            let ty = p
                .state
                .and_then(|s| p.records.get(s as usize))
                .and_then(|r| r.shape.fields.get(*f as usize))
                .map_or("?".into(), |(_, t)| t.name(p));
            (K::FIELD, format!("state field: {ty}"))
        }
    }
}

#[cfg(test)]
mod tests {
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
}
