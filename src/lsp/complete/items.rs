//! The items offered in each context, and their details.

use super::text::{header, is_definition, lex};
use super::{Context, Scope};
use crate::program::{Builtin, Global, Program, Ty};
use lsp_types::{CompletionItem, CompletionItemKind, Documentation};
use std::collections::HashSet;

/// The keywords a definition starts with.
pub(super) const DEFINITIONS: [&str; 15] = [
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
pub(super) const EXPRESSION_KEYWORDS: [&str; 8] = [
    "if", "match", "not", "true", "false", "refuse", "reading", "instead",
];

/// Keywords that may start a statement of a block.
pub(super) const STATEMENT_KEYWORDS: [&str; 3] = ["let", "note", "set"];

/// Keywords that may start a line of an example.
pub(super) const EXAMPLE_KEYWORDS: [&str; 4] = ["given rolls", "seed", "interpret", "let"];

/// The types every ruleset has.
pub(super) const TYPES: [&str; 7] = ["Int", "Num", "Length", "Time", "Minutes", "Bool", "Text"];

impl<'a> Scope<'a> {
    /// The items of the context.
    pub(super) fn complete(&self, out: &mut Items) {
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
    pub(super) fn expression_keywords(&self, out: &mut Items) {
        for k in EXPRESSION_KEYWORDS {
            out.keyword(k, "an expression");
        }
    }

    /// Type names.
    pub(super) fn types(&self, out: &mut Items) {
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
    pub(super) fn members(&self, before: &str, out: &mut Items) {
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
    pub(super) fn is_alias(&self, name: &str) -> bool {
        let prefix = format!("{name}.");
        self.program()
            .is_some_and(|p| p.globals.keys().any(|k| k.starts_with(&prefix)))
            && !self.program().is_some_and(|p| p.globals.contains_key(name))
    }

    /// The values of an enum type (and `true`/`false`), sorted by `rank`.
    pub(super) fn values_of(&self, ty: &Ty, rank: &str, out: &mut Items) {
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
    pub(super) fn arguments(
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
                    (
                        p.name.to_string(),
                        ty,
                        crate::program::param_text(self.program(), p),
                    )
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
    pub(super) fn record_fields(
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
    pub(super) fn written_params(&self, name: &str) -> Vec<(String, String)> {
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
    pub(super) fn names(&self, out: &mut Items) {
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
    pub(super) fn globals(&self, out: &mut Items) {
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

// ---------------------------------------------------------------- the items

/// The items gathered, each label once.
#[derive(Default)]
pub(super) struct Items {
    pub(super) items: Vec<CompletionItem>,
    pub(super) seen: HashSet<String>,
}

impl Items {
    /// Adds an item (unless one of that label is in already): the one added.
    pub(super) fn push(
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
    pub(super) fn keyword(&mut self, word: &str, what: &str) {
        self.push(word, CompletionItemKind::KEYWORD, what, "4");
    }
}

/// `enum Arm { infantry, cavalry, artillery }` (the first values, when many).
pub(super) fn enum_detail(e: &crate::program::EnumInfo) -> String {
    let names: Vec<&str> = e.values.iter().take(6).map(|v| &*v.name).collect();
    let more = if e.values.len() > 6 { ", …" } else { "" };
    format!("enum {} {{ {}{more} }}", e.name, names.join(", "))
}

/// `record Unit { men: Int, arm: Arm }`.
pub(super) fn record_detail(p: &Program, name: &str, fields: &[(std::rc::Rc<str>, Ty)]) -> String {
    let f: Vec<String> = fields
        .iter()
        .map(|(n, t)| format!("{n}: {}", t.name(p)))
        .collect();
    format!("record {name} {{ {} }}", f.join(", "))
}

/// A definition's kind and detail.
pub(super) fn global_detail(p: &Program, name: &str, g: &Global) -> (CompletionItemKind, String) {
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
            p.rules.get(*i as usize).map_or_else(String::new, |r| {
                crate::program::signature_text(p, "rule", &r.sig, None)
            }),
        ),
        Global::Table(i) => (
            K::FUNCTION,
            p.tables.get(*i as usize).map_or_else(String::new, |t| {
                crate::program::signature_text(p, "table", &t.sig, Some(t.keys))
            }),
        ),
        Global::Modifiers(i) => (
            K::FUNCTION,
            p.modifiers.get(*i as usize).map_or_else(String::new, |m| {
                crate::program::signature_text(p, "modifiers", &m.sig, None)
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
