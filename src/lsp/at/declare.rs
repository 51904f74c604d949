//! The definitions of every file the document reads, declared into the [`Index`].

use super::{Def, Hit, Index, Kind, Node};
use crate::span::FileId;
use crate::syntax::ast::{self, Item};
use std::collections::HashSet;

impl<'t> Index<'t> {
    /// Adds a definition.
    pub(super) fn add(&mut self, mut def: Def<'t>) -> usize {
        let id = self.defs.len();
        if def.kind.is_global() {
            self.globals.entry(def.full.clone()).or_default().push(id);
        }
        if matches!(def.kind, Kind::Value) {
            let full = format!("{}{}", def.prefix, def.name);
            self.values.entry(full).or_default().push(id);
        }
        if let Some(p) = def.parent {
            if !matches!(def.kind, Kind::Let) {
                self.defs[p].children.push(id);
            }
        }
        def.children.clear();
        self.spots.push((
            def.span,
            Hit::Name {
                def: id,
                decl: true,
            },
        ));
        self.by_span.insert(def.span, id);
        self.defs.push(def);
        id
    }

    /// A definition of the ruleset `prefix`.
    pub(super) fn def(
        &self,
        kind: Kind,
        name: &ast::Name,
        prefix: &str,
        node: Node<'t>,
    ) -> Def<'t> {
        Def {
            kind,
            name: name.node.clone(),
            full: format!("{prefix}{}", name.node),
            prefix: prefix.to_string(),
            span: name.span,
            parent: None,
            children: Vec::new(),
            node,
            overrides: false,
        }
    }

    /// Declares the definitions of a file (first those of the files it reads), as the
    /// ruleset `prefix` names them.
    pub(super) fn declare_file(
        &mut self,
        file: FileId,
        prefix: &str,
        depth: usize,
        seen: &mut HashSet<(FileId, String)>,
    ) {
        if depth > 16 || !seen.insert((file, prefix.to_string())) {
            return;
        }
        let trees = self.trees;
        let Some(tree) = trees.get(file) else {
            return;
        };
        for item in &tree.ast.items {
            match item {
                Item::Extends(path) => {
                    if let Some(base) = trees.find(file, &path.node) {
                        self.declare_file(base, prefix, depth + 1, seen);
                    }
                }
                Item::Use { ruleset, alias } => {
                    if let Some(used) = trees.find(file, &ruleset.node) {
                        let inner = format!("{prefix}{}.", alias.node);
                        self.declare_file(used, &inner, depth + 1, seen);
                    }
                }
                _ => {}
            }
        }
        for item in &tree.ast.items {
            self.declare(item, prefix, false);
        }
    }

    /// Declares one definition and what it holds.
    pub(super) fn declare(&mut self, item: &'t Item, prefix: &str, overrides: bool) {
        let top = |ix: &mut Index<'t>, kind, name: &ast::Name, node| {
            let mut d = ix.def(kind, name, prefix, node);
            d.overrides = overrides;
            ix.add(d)
        };
        let used = !prefix.is_empty();
        match item {
            Item::Die { sides } if !used => {
                self.die.get_or_insert(sides.node);
            }
            Item::Rule(r) => {
                let me = top(self, Kind::Rule, &r.name, Node::Rule(r));
                self.params(me, &r.params, prefix);
            }
            Item::Table(t) => {
                let me = top(self, Kind::Table, &t.name, Node::Table(t));
                self.params(me, &t.keys, prefix);
                self.params(me, &t.extra, prefix);
            }
            Item::Modifiers(m) => {
                let me = top(self, Kind::Modifiers, &m.name, Node::Modifiers(m));
                self.params(me, &m.params, prefix);
            }
            Item::Const(c) => drop(top(self, Kind::Const, &c.name, Node::Const(c))),
            Item::Enum(e) => {
                let me = top(self, Kind::Enum, &e.name, Node::Enum(e));
                for v in &e.values {
                    let mut d = self.def(Kind::Value, &v.name, prefix, Node::Value(v));
                    d.full = format!("{}.{}", self.defs[me].full, v.name.node);
                    d.parent = Some(me);
                    self.add(d);
                }
            }
            Item::Record(r) => {
                let me = top(self, Kind::Record, &r.name, Node::Record(r));
                self.fields(me, &r.fields, prefix);
            }
            Item::State(r) if !used => {
                let mut d = self.def(Kind::State, &r.name, prefix, Node::Record(r));
                d.name = "state".into();
                d.full = "state".into();
                let me = self.add(d);
                for f in self.fields(me, &r.fields, prefix) {
                    let name = self.defs[f].name.clone();
                    self.state.insert(name, f);
                }
            }
            Item::RecordPatch(r) => {
                if let Some(me) = self.type_def(&r.name.node, prefix) {
                    for f in self.fields(me, &r.fields, prefix) {
                        if self.defs[me].kind == Kind::State {
                            let name = self.defs[f].name.clone();
                            self.state.insert(name, f);
                        }
                    }
                }
            }
            Item::List(l) => drop(top(self, Kind::List, &l.name, Node::List(l))),
            Item::Interpretation(i) => {
                let me = top(self, Kind::Interpretation, &i.name, Node::Interpretation(i));
                for v in &i.readings {
                    let mut d = self.def(Kind::Reading, &v.name, prefix, Node::Value(v));
                    d.full = format!("{}.{}", self.defs[me].full, v.name.node);
                    d.parent = Some(me);
                    self.add(d);
                }
            }
            Item::Example(e) if !used => {
                let name = ast::Name::new(e.name.node.clone(), e.name.span);
                top(self, Kind::Example, &name, Node::Example(e));
            }
            Item::Override(inner, _) => self.declare(inner, prefix, true),
            _ => {}
        }
    }

    /// Declares a definition's parameters.
    pub(super) fn params(&mut self, owner: usize, params: &'t [ast::Param], prefix: &str) {
        for p in params {
            let mut d = self.def(Kind::Param, &p.name, prefix, Node::Param(p));
            d.parent = Some(owner);
            self.add(d);
        }
    }

    /// Declares a record's fields: their ids.
    pub(super) fn fields(
        &mut self,
        owner: usize,
        fields: &'t [ast::FieldDecl],
        prefix: &str,
    ) -> Vec<usize> {
        let mut out = Vec::new();
        for f in fields {
            let mut d = self.def(Kind::Field, &f.name, prefix, Node::Field(f));
            d.full = format!("{}.{}", self.defs[owner].full, f.name.node);
            d.parent = Some(owner);
            out.push(self.add(d));
        }
        out
    }
}
