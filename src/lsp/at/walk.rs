//! The walk down the document's definitions: each name resolved in its scope.

use super::{item_bounds, Hit, Index, Kind, Node, Tree, Ty};
use crate::span::Span;
use crate::syntax::ast::{
    self, Alternative, Block, EnumRef, Expr, ExprKind, Item, Modifier, ModifierChange, Pattern,
    Row, Stmt, TypeExpr,
};

/// Walks the document's own tree into `ix`.
pub(super) fn document<'t>(ix: &mut Index<'t>, own: &'t Tree) {
    let mut walk = Walk {
        ix,
        scope: Vec::new(),
        owner: None,
        item: (0, 0),
        blocks: Vec::new(),
        rolls: Vec::new(),
    };
    for item in &own.ast.items {
        walk.item = item_bounds(&own.source.text, item);
        walk.item(item);
    }
    walk.named_rolls();
}

/// The walk down the document's definitions: every name it writes resolved in its scope.
pub(super) struct Walk<'a, 't> {
    pub(super) ix: &'a mut Index<'t>,
    /// Parameters and `let`s in scope, innermost last.
    pub(super) scope: Vec<(String, usize)>,
    /// The definition being walked (the owner of its `let`s).
    pub(super) owner: Option<usize>,
    /// Where the definition being walked starts (its name's end) and ends (its `}`).
    pub(super) item: (u32, u32),
    /// The ends of the blocks being walked, innermost last.
    pub(super) blocks: Vec<u32>,
    /// `given rolls NAME N` of the examples, resolved once every `let` is known.
    pub(super) rolls: Vec<&'t ast::Name>,
}

impl<'t> Walk<'_, 't> {
    /// Marks `span` as naming `def`.
    pub(super) fn name(&mut self, span: Span, def: usize) {
        self.ix.spots.push((span, Hit::Name { def, decl: false }));
    }

    /// The definition declared at a name.
    pub(super) fn declared(&self, name: &ast::Name) -> Option<usize> {
        self.ix.by_span.get(&name.span).copied()
    }

    /// Starts a definition with `params` in scope.
    pub(super) fn enter(&mut self, owner: Option<usize>) {
        self.scope.clear();
        self.blocks.clear();
        self.owner = owner;
        if let Some(o) = owner {
            for &c in &self.ix.defs[o].children {
                if self.ix.defs[c].kind == Kind::Param {
                    self.scope.push((self.ix.defs[c].name.clone(), c));
                    self.ix.locals.push((c, self.item.0, self.item.1));
                }
            }
        }
    }

    /// Each `given rolls NAME N` of the examples: the `let` of that name, when the
    /// document has one only.
    pub(super) fn named_rolls(&mut self) {
        for name in std::mem::take(&mut self.rolls) {
            let mut lets = self
                .ix
                .defs
                .iter()
                .enumerate()
                .filter(|(_, d)| d.kind == Kind::Let && d.name == name.node)
                .map(|(i, _)| i);
            if let (Some(only), None) = (lets.next(), lets.next()) {
                self.name(name.span, only);
            }
        }
    }

    /// A top-level definition: its names resolved, its body walked.
    pub(super) fn item(&mut self, item: &'t Item) {
        match item {
            Item::Rule(r) => {
                let me = self.declared(&r.name);
                self.enter(me);
                self.params(&r.params);
                let want = r.returns.as_ref().map(|t| self.ty(t));
                self.block(&r.body, want.as_ref());
            }
            Item::Table(t) => {
                let me = self.declared(&t.name);
                self.enter(me);
                self.params(&t.keys);
                self.params(&t.extra);
                let want = t.returns.as_ref().map(|r| self.ty(r));
                let keys: Vec<Option<Ty>> =
                    t.keys.iter().map(|k| Some(self.ix.ty(&k.ty, ""))).collect();
                self.rows(&t.rows, &keys, want.as_ref());
            }
            Item::Modifiers(m) => {
                let me = self.declared(&m.name);
                self.enter(me);
                self.params(&m.params);
                for one in &m.modifiers {
                    self.modifier(one, me);
                }
            }
            Item::Const(c) => {
                self.enter(None);
                let want = c.ty.as_ref().map(|t| self.ty(t));
                self.expr(&c.value, want.as_ref());
            }
            Item::Record(r) | Item::State(r) => self.record(r, false),
            Item::RecordPatch(r) => self.record(r, true),
            Item::List(l) => self.list(l),
            Item::Interpretation(i) => self.interpretation(i),
            Item::Example(e) => self.example(e),
            Item::Extends(path) => self.ruleset(path),
            Item::Use { ruleset, .. } => self.ruleset(ruleset),
            Item::Override(inner, _) => self.item(inner),
            Item::TablePatch {
                name,
                rows,
                columns,
                ..
            } => self.table_patch(name, rows, columns),
            Item::ModifiersPatch { name, changes, .. } => {
                let list = self.callee(name);
                self.enter(list);
                for c in changes {
                    if let ModifierChange::Set(m) = c {
                        self.modifier(m, list);
                    }
                }
            }
            _ => {}
        }
    }

    /// A record's or the state's fields (a patch's name naming the record it patches).
    fn record(&mut self, r: &'t ast::RecordDef, patch: bool) {
        self.enter(None);
        if patch {
            if let Some(d) = self.ix.type_def(&r.name.node, "") {
                self.name(r.name.span, d);
            }
        }
        for f in &r.fields {
            let want = self.ty(&f.ty);
            if let Some(d) = &f.default {
                self.expr(d, Some(&want));
            }
        }
    }

    /// A list: its enum and the values it names.
    fn list(&mut self, l: &'t ast::ListDef) {
        if let Some(e) = self.ix.type_def(&l.of.node, "") {
            self.name(l.of.span, e);
            for v in &l.values {
                if let Some(d) = self.ix.child(e, &v.node) {
                    self.name(v.span, d);
                }
            }
        }
    }

    /// An interpretation: the reading it takes by default.
    fn interpretation(&mut self, i: &'t ast::InterpretationDef) {
        if let (Some(me), Some(d)) = (self.declared(&i.name), &i.default) {
            if let Some(r) = self.ix.child(me, &d.node) {
                self.name(d.span, r);
            }
        }
    }

    /// An `extends` or `use` line's path.
    fn ruleset(&mut self, path: &'t ast::Name) {
        self.ix.spots.push((
            path.span,
            Hit::Ruleset {
                written: &path.node,
            },
        ));
    }

    /// A patch of a base's table (`override table NAME {`): its rows and `column` blocks
    /// walked with the base's keys.
    fn table_patch(&mut self, name: &ast::Name, rows: &'t [Row], columns: &'t [ast::ColumnPatch]) {
        let table = self.callee(name);
        self.enter(table);
        let Some(t) = table else { return };
        let Node::Table(def) = self.ix.defs[t].node else {
            return;
        };
        let prefix = self.ix.defs[t].prefix.clone();
        let keys: Vec<Option<Ty>> = def
            .keys
            .iter()
            .map(|k| Some(self.ix.ty(&k.ty, &prefix)))
            .collect();
        let want = def.returns.as_ref().map(|r| self.ix.ty(r, &prefix));
        self.rows(rows, &keys, want.as_ref());
        for c in columns {
            let at = def.keys.iter().position(|k| k.name.node == c.key.node);
            if let Some(p) = self.ix.child(t, &c.key.node) {
                self.name(c.key.span, p);
            }
            let key = at.and_then(|i| keys.get(i).cloned()).flatten();
            self.pattern(&c.pattern, key.as_ref());
            let others: Vec<Option<Ty>> = keys
                .iter()
                .enumerate()
                .filter(|(i, _)| Some(*i) != at)
                .map(|(_, k)| k.clone())
                .collect();
            self.rows(&c.rows, &others, want.as_ref());
        }
    }

    /// A rule, table or modifier list the document names `name` (marked there).
    pub(super) fn callee(&mut self, name: &ast::Name) -> Option<usize> {
        let d = self.ix.globals.get(&name.node).and_then(|v| {
            v.iter().rev().copied().find(|&d| {
                matches!(
                    self.ix.defs[d].kind,
                    Kind::Rule | Kind::Table | Kind::Modifiers
                )
            })
        })?;
        self.name(name.span, d);
        Some(d)
    }

    /// The names in a type as the document writes it; the type.
    pub(super) fn ty(&mut self, te: &'t TypeExpr) -> Ty {
        match te {
            TypeExpr::Named(n) => {
                if let Some(d) = self.ix.type_def(&n.node, "") {
                    self.name(n.span, d);
                }
            }
            TypeExpr::Pair(a, b, _) => {
                self.ty(a);
                self.ty(b);
            }
            TypeExpr::Group(t, _) => drop(self.ty(t)),
            _ => {}
        }
        self.ix.ty(te, "")
    }

    /// Parameters' types and defaults.
    pub(super) fn params(&mut self, params: &'t [ast::Param]) {
        for p in params {
            let want = self.ty(&p.ty);
            if let Some(d) = &p.default {
                self.expr(d, Some(&want));
            }
        }
    }

    /// A modifier: its label a spot, its expressions walked.
    pub(super) fn modifier(&mut self, m: &'t Modifier, list: Option<usize>) {
        self.ix
            .spots
            .push((m.label.span, Hit::Modifier { modifier: m, list }));
        self.expr(&m.amount, None);
        if let Some(p) = &m.per {
            self.expr(p, None);
        }
        if let Some(c) = &m.condition {
            self.expr(c, Some(&Ty::Named("Bool".into())));
        }
    }

    /// An example: its `let`s in scope from where they stand, its checks, its readings.
    pub(super) fn example(&mut self, e: &'t ast::ExampleDef) {
        let me = self.ix.by_span.get(&e.name.span).copied();
        self.enter(me);
        self.rolls.extend(e.named_rolls.iter().map(|(n, _)| n));
        let mut lets = e.lets.iter().peekable();
        for (i, check) in e.checks.iter().enumerate() {
            while let Some(l) = lets.next_if(|l| l.before <= i) {
                self.let_(&l.name, l.ty.as_ref(), &l.value);
            }
            self.expr(&check.expr, None);
            self.expectation(check);
        }
        for l in lets {
            self.let_(&l.name, l.ty.as_ref(), &l.value);
        }
        for (interp, reading) in &e.readings {
            if let Some(i) = self.ix.global(&interp.node) {
                self.name(interp.span, i);
                if let Some(r) = self.ix.child(i, &reading.node) {
                    self.name(reading.span, r);
                }
            }
        }
    }

    /// The name at the end of `is missing NAME` (a needed parameter: of the callee
    /// asked, else any) or `is asked instead NAME` (a rule or table).
    pub(super) fn expectation(&mut self, check: &'t ast::Check) {
        let name = match &check.expect {
            Some(ast::Expectation::Missing(n) | ast::Expectation::AskedInstead(n)) => n,
            _ => return,
        };
        if name.is_empty() || !self.ix.trees.text(check.span).ends_with(name.as_str()) {
            return;
        }
        let len = u32::try_from(name.len()).unwrap_or(u32::MAX);
        let span = Span {
            start: check.span.end.saturating_sub(len),
            ..check.span
        };
        let def = match &check.expect {
            Some(ast::Expectation::Missing(_)) => {
                let needed = |ix: &Index, p: usize| {
                    ix.defs[p].name == *name
                        && matches!(ix.defs[p].node, Node::Param(q) if q.needed)
                };
                let asked = match &check.expr.kind {
                    ExprKind::Call(callee, _) => self.ix.global(&callee.node),
                    _ => None,
                };
                let of_asked = asked.and_then(|c| {
                    self.ix.defs[c]
                        .children
                        .iter()
                        .copied()
                        .find(|&p| needed(self.ix, p))
                });
                of_asked.or_else(|| (0..self.ix.defs.len()).find(|&p| needed(self.ix, p)))
            }
            _ => self.ix.global(name),
        };
        if let Some(d) = def {
            self.name(span, d);
        }
    }

    /// A `let`: its value walked, then its name in scope.
    pub(super) fn let_(&mut self, name: &'t ast::Name, ty: Option<&'t TypeExpr>, value: &'t Expr) {
        let want = ty.map(|t| self.ty(t));
        let got = self.expr(value, want.as_ref());
        let mut d = self.ix.def(Kind::Let, name, "", Node::Let(ty, value));
        d.parent = self.owner;
        let id = self.ix.add(d);
        let until = self.blocks.last().copied().unwrap_or(self.item.1);
        self.ix.locals.push((id, value.span.end, until));
        if let Some(t) = want.or(got) {
            self.ix.let_types.insert(id, t);
        }
        self.scope.push((name.node.clone(), id));
    }

    /// A block: its statements in order, then its value.
    pub(super) fn block(&mut self, b: &'t Block, want: Option<&Ty>) -> Option<Ty> {
        let mark = self.scope.len();
        self.blocks.push(b.span.end);
        for s in &b.stmts {
            match s {
                Stmt::Let(n, t, e) => self.let_(n, t.as_ref(), e),
                Stmt::Note(_) => {}
                Stmt::Guard(e) => drop(self.expr(e, None)),
                Stmt::Set { target, value, .. } => {
                    let t = self.expr(target, None);
                    self.expr(value, t.as_ref());
                }
            }
        }
        let out = self.expr(&b.value, want);
        self.scope.truncate(mark);
        self.blocks.pop();
        out
    }

    /// Rows: each pattern against its key's type, then the cell.
    pub(super) fn rows(
        &mut self,
        rows: &'t [Row],
        keys: &[Option<Ty>],
        want: Option<&Ty>,
    ) -> Option<Ty> {
        let mut out = None;
        for r in rows {
            if let Some(column) = r.column {
                self.column_key(column);
            }
            for (i, p) in r.patterns.iter().enumerate() {
                let key = keys.get(i).cloned().flatten();
                self.pattern(p, key.as_ref());
            }
            let got = self.expr(&r.cell, want);
            out = out.or(got);
        }
        out
    }

    /// The key named by `column KEY = PATTERN` of a table's row, the pattern at `column`
    /// (the tree keeps the pattern only: the key is read back from the text before it).
    pub(super) fn column_key(&mut self, column: Span) {
        let Some(owner) = self.owner else { return };
        let Some(tree) = self.ix.trees.get(column.file) else {
            return;
        };
        let before = tree.source.text.get(..column.start as usize).unwrap_or("");
        let Some(head) = before.trim_end().strip_suffix('=') else {
            return;
        };
        let head = head.trim_end();
        let word = head
            .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
            .next()
            .unwrap_or("");
        let Some(key) = self.ix.child(owner, word) else {
            return;
        };
        let end = u32::try_from(head.len()).unwrap_or(u32::MAX);
        let len = u32::try_from(word.len()).unwrap_or(u32::MAX);
        let span = Span {
            file: column.file,
            start: end.saturating_sub(len),
            end,
        };
        self.name(span, key);
    }

    /// A pattern matched against a value of type `ty`.
    pub(super) fn pattern(&mut self, p: &'t Pattern, ty: Option<&Ty>) {
        let Pattern::Alternatives(alts, _) = p else {
            return;
        };
        for a in alts {
            match a {
                Alternative::Name(qual, name) => {
                    let of = match qual {
                        Some(q) => self.enum_named(q),
                        None => None,
                    };
                    if qual.is_none() {
                        let list = self
                            .ix
                            .global(&name.node)
                            .filter(|&d| matches!(self.ix.defs[d].kind, Kind::List));
                        if let Some(l) = list {
                            self.name(name.span, l);
                            continue;
                        }
                    }
                    self.value(name, of.map(Ty::Def).as_ref().or(ty));
                }
                Alternative::NameRange(a, b, _) => {
                    self.enum_ref(a, ty);
                    self.enum_ref(b, ty);
                }
                Alternative::NameAtLeast(r, _) | Alternative::NameAtMost(r, _) => {
                    self.enum_ref(r, ty)
                }
                _ => {}
            }
        }
    }

    pub(super) fn enum_ref(&mut self, r: &'t EnumRef, ty: Option<&Ty>) {
        let of = r.qual.as_ref().and_then(|q| self.enum_named(q));
        self.value(&r.name, of.map(Ty::Def).as_ref().or(ty));
    }

    /// The enum (or interpretation) written `q` before a value, marked there.
    pub(super) fn enum_named(&mut self, q: &ast::Name) -> Option<usize> {
        let d = self.ix.type_def(&q.node, "")?;
        self.name(q.span, d);
        Some(d)
    }

    /// A value written `name` where a `ty` is wanted: marked, and its enum given.
    pub(super) fn value(&mut self, name: &ast::Name, ty: Option<&Ty>) -> Option<Ty> {
        let d = self.value_def(&name.node, ty)?;
        self.name(name.span, d);
        self.ix.defs[d].parent.map(Ty::Def)
    }

    /// The value named `name`: of the enum `ty` when it has one of that name, else the
    /// only value of that name, else the first.
    pub(super) fn value_def(&self, name: &str, ty: Option<&Ty>) -> Option<usize> {
        if let Some(Ty::Def(e)) = ty {
            if let Some(v) = self.ix.child(*e, name) {
                return Some(v);
            }
        }
        self.ix.values.get(name).and_then(|v| v.first()).copied()
    }
}
