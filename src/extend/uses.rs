//! `use "kriegspiel" as ks`: another ruleset's definitions, brought in under its alias.
//!
//! The used ruleset is read whole (with what it extends and uses), then each of its
//! definitions is renamed `ks.NAME` and every reference to one inside it follows, so
//! the one checked program holds both rulesets and no name of one can meet a name of
//! the other. Its `state`, `ruleset` title, `die` and examples stay behind: a rule of
//! it that reads its state (or calls one that does) is left out, and naming it from the
//! using file is an error that says which field it reads.

use crate::diagnostic::{Code, Diag};
use crate::span::{Span, Spanned};
use crate::syntax::ast::{self, Block, Expr, ExprKind, Item, Pattern, Row, Stmt, TypeExpr};
use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet};

/// Why a definition of a used ruleset was left out: the state field it reads, and the
/// definitions through which it reaches it (the last reads the field).
#[derive(Debug, Clone)]
pub(super) struct Left {
    /// The state field.
    field: String,
    /// The chain of definitions, first the one left out.
    through: Vec<String>,
}

impl Left {
    /// `` `ks.outer` calls `ks.inner`, which reads `move` of the state of `k.rules`, ...``
    fn sentence(&self, full: &str, alias: &str, ruleset: &str) -> String {
        let reads = match self.through.as_slice() {
            [_, rest @ ..] if !rest.is_empty() => format!(
                "calls `{alias}.{}`, which reads",
                rest.join(&format!("`, which calls `{alias}."))
            ),
            _ => "reads".to_string(),
        };
        format!(
            "`{full}` {reads} `{}` of the state of `{ruleset}`, and a used ruleset brings its definitions, not its state",
            self.field
        )
    }

    /// What to do instead.
    fn help(ruleset: &str) -> String {
        format!(
            "write the rule in this file, reading this ruleset's own state, or `extends \"{ruleset}\"` to play on the state of `{ruleset}`"
        )
    }
}

impl Used {
    /// Markers for the definitions left out, so that a question naming one is told why.
    pub fn left_out(&self) -> Vec<Item> {
        let a = &self.alias.node;
        self.left
            .iter()
            .map(|(n, why)| Item::LeftOut {
                name: format!("{a}.{n}"),
                why: format!(
                    "{}; {}",
                    why.sentence(&format!("{a}.{n}"), a, &self.ruleset),
                    Left::help(&self.ruleset)
                ),
            })
            .chain(self.state.iter().map(|f| Item::LeftOut {
                name: format!("{a}.{f}"),
                why: format!(
                    "`{f}` is a field of the state of `{}`, and a used ruleset brings its definitions, not its state; {}",
                    self.ruleset,
                    Left::help(&self.ruleset)
                ),
            }))
            .collect()
    }
}

/// A used ruleset's definitions, renamed: those kept, and those left out.
pub(super) struct Used {
    /// The alias.
    pub alias: ast::Name,
    /// The definitions kept, renamed `alias.NAME`.
    pub items: Vec<Item>,
    /// Definitions left out because they read the used ruleset's state, by their
    /// unqualified name.
    pub left: BTreeMap<String, Left>,
    /// The ruleset's name as `use` gave it.
    pub ruleset: String,
    /// Its state's fields, which stay behind.
    pub state: Vec<String>,
}

/// The names a ruleset defines, by kind.
#[derive(Default)]
struct Names {
    /// Rules, tables and modifier lists.
    callables: HashSet<String>,
    /// Constants.
    consts: HashSet<String>,
    /// Enums and records.
    types: HashSet<String>,
    /// Interpretations.
    readings: HashSet<String>,
    /// The state's fields.
    state: HashSet<String>,
    /// Lists of enum values.
    lists: HashSet<String>,
    /// Each enum value's enums.
    values: HashMap<String, Vec<String>>,
}

impl Names {
    fn of(items: &[Item]) -> Names {
        let mut n = Names::default();
        for item in items {
            match item {
                Item::Rule(d) => drop(n.callables.insert(d.name.node.clone())),
                Item::Table(d) => drop(n.callables.insert(d.name.node.clone())),
                Item::Modifiers(d) => drop(n.callables.insert(d.name.node.clone())),
                Item::Const(d) => drop(n.consts.insert(d.name.node.clone())),
                Item::Record(d) => drop(n.types.insert(d.name.node.clone())),
                Item::Enum(d) => {
                    n.types.insert(d.name.node.clone());
                    for v in &d.values {
                        n.values
                            .entry(v.name.node.clone())
                            .or_default()
                            .push(d.name.node.clone());
                    }
                }
                Item::Interpretation(d) => drop(n.readings.insert(d.name.node.clone())),
                Item::List(d) => drop(n.lists.insert(d.name.node.clone())),
                Item::State(d) => n.state.extend(d.fields.iter().map(|f| f.name.node.clone())),
                _ => {}
            }
        }
        n
    }
}

/// The walk down a definition that `Rename` and `Qualify` share: each reads names,
/// types and the rows of tables and matches its own way, and the rest of the tree alike.
trait Walk {
    /// A parameter's or a `let`'s name, a local from here on.
    fn local(&mut self, n: &ast::Name);

    /// A type as written.
    fn ty(&mut self, t: &mut TypeExpr);

    /// A table's rows, or a match's: each pattern, then the cell.
    fn rows(&mut self, rows: &mut [Row]) {
        for r in rows {
            for p in &mut r.patterns {
                self.pattern(p);
            }
            self.expr(&mut r.cell);
        }
    }

    /// An expression: what it names, then its `parts`.
    fn expr(&mut self, e: &mut Expr);

    /// Parameters: each a local, its type, its default.
    fn params(&mut self, ps: &mut [ast::Param]) {
        for p in ps {
            self.local(&p.name);
            self.ty(&mut p.ty);
            if let Some(d) = &mut p.default {
                self.expr(d);
            }
        }
    }

    /// A block: its statements in order (a `let` a local once its value is read), then
    /// its value.
    fn block(&mut self, b: &mut Block) {
        for s in &mut b.stmts {
            match s {
                Stmt::Let(n, t, e) => {
                    if let Some(t) = t {
                        self.ty(t);
                    }
                    self.expr(e);
                    self.local(n);
                }
                Stmt::Note(_) => {}
                Stmt::Guard(e) => self.expr(e),
                Stmt::Set { target, value, .. } => {
                    self.expr(target);
                    self.expr(value);
                }
            }
        }
        self.expr(&mut b.value);
    }

    /// The expressions and blocks inside an expression, in order (a reading's cells; a
    /// match's rows through `rows`).
    fn parts(&mut self, kind: &mut ExprKind) {
        match kind {
            ExprKind::Field(b, _) => self.expr(b),
            ExprKind::Member(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Pair(a, b) => {
                self.expr(a);
                self.expr(b);
            }
            ExprKind::Unary(_, a) => self.expr(a),
            ExprKind::Call(_, args) => {
                for a in args {
                    self.expr(&mut a.value);
                }
            }
            ExprKind::If(arms, other) => {
                for (c, b) in arms {
                    self.expr(c);
                    self.block(b);
                }
                if let Some(b) = other {
                    self.block(b);
                }
            }
            ExprKind::Match(s, rows) => {
                self.expr(s);
                self.rows(rows);
            }
            ExprKind::Reading(_, rows) => {
                for r in rows {
                    self.expr(&mut r.cell);
                }
            }
            ExprKind::Record(fields) | ExprKind::TypedRecord(_, fields) => {
                for (_, v) in fields {
                    self.expr(v);
                }
            }
            ExprKind::Block(b) => self.block(b),
            ExprKind::Instead { call, .. } => self.expr(call),
            ExprKind::In {
                value, patterns, ..
            } => {
                self.expr(value);
                self.pattern(patterns);
            }
            _ => {}
        }
    }

    /// The patterns of a row or after `in`.
    fn pattern(&mut self, _p: &mut Pattern) {}
}

/// The renaming of one definition: the names it refers to, the state fields it reads.
struct Rename<'a> {
    alias: &'a str,
    names: &'a Names,
    die: Option<u32>,
    /// Parameters and `let`s of the definition being renamed.
    locals: HashSet<String>,
    /// Definitions of the used ruleset it refers to (unqualified), in order, so that
    /// the reason one is left out is always the same.
    refs: BTreeSet<String>,
    /// The first state field it reads.
    reads: Option<String>,
}

impl Rename<'_> {
    /// Renames one definition, citing `book` where it cites nothing; false for what
    /// stays behind (its state, title, die and examples).
    fn item(&mut self, item: &mut Item, book: Option<&Spanned<String>>) -> bool {
        // Explanations of its definitions cite its rulebook.
        let cite = |c: &mut Option<Spanned<String>>| {
            if c.is_none() {
                *c = book.cloned();
            }
        };
        match item {
            Item::Rule(d) => {
                self.name(&mut d.name);
                self.params(&mut d.params);
                if let Some(t) = &mut d.returns {
                    self.ty(t);
                }
                self.block(&mut d.body);
                cite(&mut d.cite);
            }
            Item::Table(d) => {
                self.name(&mut d.name);
                self.params(&mut d.keys);
                self.params(&mut d.extra);
                if let Some(t) = &mut d.returns {
                    self.ty(t);
                }
                self.rows(&mut d.rows);
                cite(&mut d.cite);
            }
            Item::Modifiers(d) => {
                self.name(&mut d.name);
                self.params(&mut d.params);
                for m in &mut d.modifiers {
                    self.expr(&mut m.amount);
                    for e in m.per.iter_mut().chain(m.condition.iter_mut()) {
                        self.expr(e);
                    }
                }
                cite(&mut d.cite);
            }
            Item::Const(d) => {
                self.name(&mut d.name);
                if let Some(t) = &mut d.ty {
                    self.ty(t);
                }
                self.expr(&mut d.value);
                cite(&mut d.cite);
            }
            Item::Enum(d) => self.name(&mut d.name),
            Item::Record(d) => {
                self.name(&mut d.name);
                for f in &mut d.fields {
                    self.ty(&mut f.ty);
                    if let Some(e) = &mut f.default {
                        self.expr(e);
                    }
                }
            }
            Item::Interpretation(d) => self.name(&mut d.name),
            Item::List(d) => {
                self.name(&mut d.name);
                if self.names.types.contains(&d.of.node) {
                    self.name(&mut d.of);
                }
                cite(&mut d.cite);
            }
            _ => return false,
        }
        true
    }

    fn qualify(&self, n: &str) -> String {
        format!("{}.{n}", self.alias)
    }

    fn name(&mut self, n: &mut ast::Name) {
        n.node = self.qualify(&n.node);
    }

    /// `Odds.one_one` in a range of values: its enum renamed.
    fn enum_ref(&mut self, r: &mut ast::EnumRef) {
        if let Some(e) = &mut r.qual {
            if self.names.types.contains(&e.node) {
                self.name(e);
            }
        }
    }
}

impl Walk for Rename<'_> {
    fn local(&mut self, n: &ast::Name) {
        self.locals.insert(n.node.clone());
    }

    fn ty(&mut self, t: &mut TypeExpr) {
        match t {
            TypeExpr::Named(n) if self.names.types.contains(&n.node) => self.name(n),
            TypeExpr::Pair(a, b, _) => {
                self.ty(a);
                self.ty(b);
            }
            TypeExpr::Group(m, _) => self.ty(m),
            _ => {}
        }
    }

    /// Its enums and lists named under the alias.
    fn pattern(&mut self, p: &mut Pattern) {
        let Pattern::Alternatives(alts, _) = p else {
            return;
        };
        for a in alts {
            match a {
                ast::Alternative::Name(Some(e), _) if self.names.types.contains(&e.node) => {
                    self.name(e);
                }
                ast::Alternative::Name(None, n) if self.names.lists.contains(&n.node) => {
                    self.name(n);
                }
                ast::Alternative::NameRange(a, b, _) => {
                    self.enum_ref(a);
                    self.enum_ref(b);
                }
                ast::Alternative::NameAtLeast(r, _) | ast::Alternative::NameAtMost(r, _) => {
                    self.enum_ref(r)
                }
                _ => {}
            }
        }
    }

    fn expr(&mut self, e: &mut Expr) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Name(n) if self.locals.contains(n.as_str()) => {}
            ExprKind::Name(n) if self.names.consts.contains(n.as_str()) => {
                self.refs.insert(n.clone());
                *n = self.qualify(n);
            }
            ExprKind::Name(n) if self.names.types.contains(n.as_str()) => *n = self.qualify(n),
            ExprKind::Name(n) if self.names.state.contains(n.as_str()) => {
                self.reads.get_or_insert_with(|| n.clone());
            }
            ExprKind::Name(n) => {
                // A value of one enum only: named with its enum, so that a value of the
                // same name in the using ruleset does not make it ambiguous.
                if let Some([en]) = self.names.values.get(n.as_str()).map(Vec::as_slice) {
                    let qualified = Expr {
                        kind: ExprKind::Name(self.qualify(en)),
                        span,
                    };
                    e.kind = ExprKind::Field(Box::new(qualified), Spanned::new(n.clone(), span));
                }
                return;
            }
            ExprKind::Dice { sides, .. } if sides.is_none() => *sides = self.die,
            ExprKind::Call(n, _) if self.names.callables.contains(&n.node) => {
                self.refs.insert(n.node.clone());
                self.name(n);
            }
            ExprKind::Reading(n, _) if self.names.readings.contains(&n.node) => self.name(n),
            ExprKind::TypedRecord(n, _) if self.names.types.contains(&n.node) => self.name(n),
            _ => {}
        }
        self.parts(&mut e.kind);
    }
}

/// The name a definition goes by, if it is one another definition may refer to.
fn def_name(item: &Item) -> Option<&str> {
    match item {
        Item::Rule(d) => Some(&d.name.node),
        Item::Table(d) => Some(&d.name.node),
        Item::Modifiers(d) => Some(&d.name.node),
        Item::Const(d) => Some(&d.name.node),
        _ => None,
    }
}

/// A used ruleset's merged definitions, renamed under `alias`.
pub(super) fn rename(file: ast::File, alias: &ast::Name, ruleset: &str) -> Used {
    let names = Names::of(&file.items);
    let mut state: Vec<String> = names.state.iter().cloned().collect();
    state.sort_unstable();
    let mut die = None;
    let mut book: Option<Spanned<String>> = None;
    for item in &file.items {
        match item {
            Item::Die { sides } => die = Some(sides.node),
            Item::Ruleset { title, cite } => book = Some(cite.clone().unwrap_or(title.clone())),
            _ => {}
        }
    }
    let mut kept: Vec<Kept> = Vec::new();
    for mut item in file.items {
        let mut r = Rename {
            alias: &alias.node,
            names: &names,
            die,
            locals: HashSet::new(),
            refs: BTreeSet::new(),
            reads: None,
        };
        // Its state, title, die and examples stay behind.
        if r.item(&mut item, book.as_ref()) {
            let (reads, refs) = (r.reads, r.refs);
            kept.push((item, reads, refs));
        }
    }
    let left = left_out(&kept, &alias.node);
    let items = kept
        .into_iter()
        .map(|(i, _, _)| i)
        .filter(|i| def_name(i).is_none_or(|n| !left.contains_key(&unqualified(n, &alias.node))))
        .collect();
    Used {
        alias: alias.clone(),
        items,
        left,
        ruleset: ruleset.to_string(),
        state,
    }
}

/// A definition renamed: the state field it reads, the definitions it refers to.
type Kept = (Item, Option<String>, BTreeSet<String>);

/// What reads the used ruleset's state, or refers to what does: left out, with why.
fn left_out(kept: &[Kept], alias: &str) -> BTreeMap<String, Left> {
    let mut left: BTreeMap<String, Left> = BTreeMap::new();
    for (item, reads, _) in kept {
        if let (Some(field), Some(n)) = (reads, def_name(item)) {
            let n = unqualified(n, alias);
            left.insert(
                n.clone(),
                Left {
                    field: field.clone(),
                    through: vec![n],
                },
            );
        }
    }
    loop {
        let mut more = Vec::new();
        for (item, _, refs) in kept {
            let Some(n) = def_name(item).map(|n| unqualified(n, alias)) else {
                continue;
            };
            if left.contains_key(&n) {
                continue;
            }
            if let Some(why) = refs.iter().find_map(|r| left.get(r)) {
                let mut through = vec![n.clone()];
                through.extend(why.through.iter().cloned());
                more.push((
                    n,
                    Left {
                        field: why.field.clone(),
                        through,
                    },
                ));
            }
        }
        if more.is_empty() {
            return left;
        }
        left.extend(more);
    }
}

/// `ks.food_packets` → `food_packets`.
fn unqualified(n: &str, alias: &str) -> String {
    n.strip_prefix(alias)
        .and_then(|s| s.strip_prefix('.'))
        .unwrap_or(n)
        .to_string()
}

/// The using file's names of used definitions (`ks.food_packets`, `ks.Arm`; the checker
/// reads them): a name of a definition left out, or a local named as an alias, is an
/// error.
pub(super) struct Qualify<'a> {
    /// The rulesets used, by alias.
    pub used: &'a [Used],
    /// The errors found.
    pub errors: Vec<Diag>,
    /// Parameters and `let`s of the definition being read.
    locals: HashSet<String>,
}

impl<'a> Qualify<'a> {
    /// Nothing read yet.
    pub fn new(used: &'a [Used]) -> Qualify<'a> {
        Qualify {
            used,
            errors: Vec::new(),
            locals: HashSet::new(),
        }
    }

    fn alias(&self, a: &str) -> Option<&'a Used> {
        self.used.iter().find(|u| u.alias.node == a)
    }

    /// A name `alias.NAME` used: an error if that definition was left out.
    fn named(&mut self, full: &str, span: Span) {
        let Some((a, n)) = full.split_once('.') else {
            return;
        };
        let Some(u) = self.alias(a) else {
            return;
        };
        if let Some(why) = u.left.get(n) {
            let d = Diag::at(
                Code::UseState,
                why.sentence(&format!("{a}.{n}"), a, &u.ruleset),
                span,
                "reads another ruleset's state",
            )
            .help(Left::help(&u.ruleset));
            self.errors.push(d);
        }
    }

    /// Reads one definition of the using file.
    pub fn item(&mut self, item: &mut Item) {
        self.locals.clear();
        match item {
            Item::Override(inner, _) => self.item(inner),
            Item::Rule(d) => {
                self.params(&mut d.params);
                if let Some(t) = &mut d.returns {
                    self.ty(t);
                }
                self.block(&mut d.body);
            }
            Item::Table(d) => {
                self.params(&mut d.keys);
                self.params(&mut d.extra);
                if let Some(t) = &mut d.returns {
                    self.ty(t);
                }
                self.rows(&mut d.rows);
            }
            Item::TablePatch { rows, columns, .. } => {
                self.rows(rows);
                for c in columns {
                    self.rows(&mut c.rows);
                }
            }
            Item::Modifiers(d) => {
                self.params(&mut d.params);
                for m in &mut d.modifiers {
                    self.modifier(m);
                }
            }
            Item::ModifiersPatch { changes, .. } => {
                for c in changes {
                    if let ast::ModifierChange::Set(m) = c {
                        self.modifier(m);
                    }
                }
            }
            Item::Const(d) => {
                if let Some(t) = &mut d.ty {
                    self.ty(t);
                }
                self.expr(&mut d.value);
            }
            Item::Record(d) | Item::State(d) | Item::RecordPatch(d) => {
                for f in &mut d.fields {
                    self.ty(&mut f.ty);
                    if let Some(e) = &mut f.default {
                        self.expr(e);
                    }
                }
            }
            Item::Example(d) => {
                for c in &mut d.checks {
                    self.expr(&mut c.expr);
                }
            }
            _ => {}
        }
    }

    fn modifier(&mut self, m: &mut ast::Modifier) {
        self.expr(&mut m.amount);
        for e in m.per.iter_mut().chain(m.condition.iter_mut()) {
            self.expr(e);
        }
    }
}

impl Walk for Qualify<'_> {
    /// A local named as an alias is an error.
    fn local(&mut self, n: &ast::Name) {
        if self.alias(&n.node).is_some() {
            self.errors.push(
                Diag::at(
                    Code::UseAlias,
                    format!(
                        "`{}` names a used ruleset (`use ... as {}`)",
                        n.node, n.node
                    ),
                    n.span,
                    "already the alias of a used ruleset",
                )
                .help("give this one another name"),
            );
        }
        self.locals.insert(n.node.clone());
    }

    fn ty(&mut self, t: &mut TypeExpr) {
        match t {
            TypeExpr::Named(n) => self.named(&n.node.clone(), n.span),
            TypeExpr::Pair(a, b, _) => {
                self.ty(a);
                self.ty(b);
            }
            TypeExpr::Group(m, _) => self.ty(m),
            TypeExpr::Range { .. } | TypeExpr::LengthRange { .. } => {}
        }
    }

    /// `ks.foot`, a list of the ruleset used as `ks`: the list's name whole.
    fn pattern(&mut self, p: &mut Pattern) {
        let Pattern::Alternatives(alts, _) = p else {
            return;
        };
        for a in alts {
            if let ast::Alternative::Name(Some(q), n) = a {
                let full = format!("{}.{}", q.node, n.node);
                let listed = self.alias(&q.node).is_some_and(|u| {
                    u.items
                        .iter()
                        .any(|i| matches!(i, Item::List(l) if l.name.node == full))
                });
                if listed {
                    let span = q.span.to(n.span);
                    *a = ast::Alternative::Name(None, ast::Name::new(full, span));
                }
            }
        }
    }

    /// Reads an expression of the using file (a question's too).
    fn expr(&mut self, e: &mut Expr) {
        let span = e.span;
        match &mut e.kind {
            ExprKind::Field(b, f) => {
                if let ExprKind::Name(a) = &b.kind {
                    if !self.locals.contains(a) && self.alias(a).is_some() {
                        self.named(&format!("{a}.{}", f.node), span);
                        return;
                    }
                }
            }
            ExprKind::Call(n, _) => self.named(&n.node.clone(), n.span),
            _ => {}
        }
        self.parts(&mut e.kind);
    }
}
