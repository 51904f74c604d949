//! What is at a position of a document: every name it writes and the definition that name
//! stands for, every modifier, dice term and `extends`/`use` path, found from the syntax
//! trees alone.
//!
//! The checker refuses a document with any error, so the navigation does not wait for
//! it: it reads the document's own syntax tree (there whenever the text parses) and the
//! trees of the files it `extends` and `use`s (parsed again from the sources the check
//! read), and resolves names the way the language does — a parameter or `let` in scope,
//! then a field of the state, then a definition (of this file, or of its base; a used
//! ruleset's as `alias.NAME`), then an enum value, the enum a value is wanted of telling
//! two of one name apart. The types it follows (to find `u.men`'s record, or which
//! `line` is meant) are the ones written: a parameter's, a field's, a result's, a `let`'s,
//! or what a `let`'s value is (a call's result, a record, another name). A mistake
//! elsewhere in the document blinds nothing but the mistake; when the document does not
//! parse, each definition holding a syntax error is blanked out and the rest read
//! ([`recover`]).
//!
//! [`Trees::of`] gathers the trees; [`Index::new`] reads them; [`Index::at`] answers
//! what is at an offset, [`Index::uses`] every use of a definition in the document,
//! [`Index::locals_at`] the parameters and `let`s in scope at an offset, and
//! [`Index::global`] a top-level definition by the name the document writes.

use super::document::Document;
use crate::span::{FileId, SourceFile, Span};
use crate::syntax::ast::{self, BinOp, UnOp};
use crate::syntax::ast::{
    Alternative, Block, EnumRef, Expr, ExprKind, Item, Modifier, ModifierChange, Pattern, Row,
    Stmt, TypeExpr,
};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::Arc;

/// One file's syntax tree and its text.
#[derive(Debug)]
pub struct Tree {
    /// Its text, as the library read it (spans count in its normalised text).
    pub source: Arc<SourceFile>,
    /// Its syntax tree.
    pub ast: ast::File,
}

/// The trees of a document (file 0) and of the files it reads, each at its place in the
/// check's sources (its `FileId`); `None` where a source does not parse.
#[derive(Debug)]
pub struct Trees {
    /// By file id.
    pub files: Vec<Option<Tree>>,
}

impl Trees {
    /// The trees of `doc`. When its text does not parse, the tree of what does: each
    /// definition holding a syntax error is blanked out (its bytes made spaces, so that
    /// every offset stays where it was) and the rest parsed again. `None` when nothing
    /// parses so.
    pub fn of(doc: &Document) -> Option<Trees> {
        let own = match &doc.ast {
            Some(own) => own.clone(),
            None => recover(&doc.source.text)?,
        };
        Some(Trees::with(doc, Arc::new(doc.source.clone()), own))
    }

    /// The trees of `doc` only when all of its text parses (a rename must see every use).
    pub fn whole(doc: &Document) -> Option<Trees> {
        let own = doc.ast.clone()?;
        Some(Trees::with(doc, Arc::new(doc.source.clone()), own))
    }

    /// The trees of `doc` with its own text replaced by `text` (a rename tried out), or
    /// `None` when that does not parse.
    pub fn with_text(doc: &Document, text: &str) -> Option<Trees> {
        let source = SourceFile::new(doc.name.clone(), text);
        let own = crate::syntax::parse_file(FileId(0), &source.text).ok()?;
        Some(Trees::with(doc, Arc::new(source), own))
    }

    fn with(doc: &Document, source: Arc<SourceFile>, own: ast::File) -> Trees {
        let mut files = vec![Some(Tree { source, ast: own })];
        for (i, file) in doc.analysis.sources.files().iter().enumerate().skip(1) {
            let id = FileId(u32::try_from(i).unwrap_or(u32::MAX));
            let ast = crate::syntax::parse_file(id, &file.text).ok();
            files.push(ast.map(|ast| Tree {
                source: file.clone(),
                ast,
            }));
        }
        Trees { files }
    }

    /// The tree of a file.
    pub fn get(&self, file: FileId) -> Option<&Tree> {
        self.files.get(file.0 as usize).and_then(Option::as_ref)
    }

    /// The text a span covers (empty when it is not in these files).
    pub fn text(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|t| t.source.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// The file that `extends "written"` or `use "written"` in the file `from` reads.
    pub fn find(&self, from: FileId, written: &str) -> Option<FileId> {
        let from = &self.get(from)?.source.name;
        let want = read_name(from, written);
        let at = self
            .files
            .iter()
            .position(|t| t.as_ref().is_some_and(|t| t.source.name == want))?;
        Some(FileId(u32::try_from(at).ok()?))
    }
}

/// The most definitions blanked out to find a tree of the rest.
const MOST_BLANKED: usize = 8;

/// The syntax tree of `text` with each top-level definition that holds a syntax error
/// blanked out: from the line it starts on (a line starting with a word, not indented)
/// to the next such line. `None` when that leaves errors still, or the text is past the
/// default file-size limit.
pub fn recover(text: &str) -> Option<ast::File> {
    if text.len() as u64 > crate::limits::Limits::default().file_bytes {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..MOST_BLANKED {
        let now = std::str::from_utf8(&bytes).ok()?;
        let error = match crate::syntax::parse_file(FileId(0), now) {
            Ok(tree) => return Some(tree),
            Err(e) => e,
        };
        let at = error.labels.first().map(|(s, _)| s.start as usize)?;
        let at = at.min(bytes.len());
        let starts_item = |i: usize| {
            (i == 0 || bytes[i - 1] == b'\n') && bytes.get(i).is_some_and(u8::is_ascii_alphabetic)
        };
        let start = (0..=at).rev().find(|&i| starts_item(i)).unwrap_or(0);
        let end = (at + 1..bytes.len())
            .find(|&i| starts_item(i))
            .unwrap_or(bytes.len());
        let mut changed = false;
        for b in &mut bytes[start..end] {
            if *b != b'\n' && *b != b' ' {
                *b = b' ';
                changed = true;
            }
        }
        if !changed {
            return None;
        }
    }
    None
}

/// The name the library gives the file that `extends "written"` in the file `from`
/// reads: `bundled:NAME` for a bundled ruleset, else the path beside `from`.
pub fn read_name(from: &str, written: &str) -> String {
    if crate::bundled::source(written).is_some() {
        return format!("bundled:{written}");
    }
    let dir = Path::new(from.strip_prefix("bundled:").unwrap_or(from))
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !from.starts_with("bundled:"));
    match dir {
        Some(d) => d.join(written).to_string_lossy().into_owned(),
        None => written.to_string(),
    }
}

/// What kind of definition.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `rule`
    Rule,
    /// `table`
    Table,
    /// `modifiers`
    Modifiers,
    /// `const`
    Const,
    /// `enum`
    Enum,
    /// A value of an enum.
    Value,
    /// `record`
    Record,
    /// `state`
    State,
    /// A field of a record or of the state.
    Field,
    /// A parameter of a rule, table or modifier list.
    Param,
    /// A `let` of a rule or an example.
    Let,
    /// `list`
    List,
    /// `interpretation`
    Interpretation,
    /// A reading of an interpretation.
    Reading,
    /// `example`
    Example,
}

impl Kind {
    /// The kind in words.
    pub fn word(self) -> &'static str {
        match self {
            Kind::Rule => "rule",
            Kind::Table => "table",
            Kind::Modifiers => "modifier list",
            Kind::Const => "constant",
            Kind::Enum => "enum",
            Kind::Value => "enum value",
            Kind::Record => "record",
            Kind::State => "state",
            Kind::Field => "field",
            Kind::Param => "parameter",
            Kind::Let => "`let`",
            Kind::List => "list",
            Kind::Interpretation => "interpretation",
            Kind::Reading => "reading",
            Kind::Example => "example",
        }
    }

    /// Named at the top of a ruleset (so two of them may not share a name).
    pub fn is_global(self) -> bool {
        matches!(
            self,
            Kind::Rule
                | Kind::Table
                | Kind::Modifiers
                | Kind::Const
                | Kind::Enum
                | Kind::Record
                | Kind::List
                | Kind::Interpretation
        )
    }
}

/// The syntax a definition was written with.
#[derive(Debug, Clone, Copy)]
pub enum Node<'t> {
    /// A rule.
    Rule(&'t ast::RuleDef),
    /// A table.
    Table(&'t ast::TableDef),
    /// A modifier list.
    Modifiers(&'t ast::ModifiersDef),
    /// A constant.
    Const(&'t ast::ConstDef),
    /// An enum.
    Enum(&'t ast::EnumDef),
    /// An enum value or a reading.
    Value(&'t ast::EnumValueDef),
    /// A record or the state.
    Record(&'t ast::RecordDef),
    /// A field.
    Field(&'t ast::FieldDecl),
    /// A parameter.
    Param(&'t ast::Param),
    /// A `let`: its declared type and its value.
    Let(Option<&'t TypeExpr>, &'t Expr),
    /// A list.
    List(&'t ast::ListDef),
    /// An interpretation.
    Interpretation(&'t ast::InterpretationDef),
    /// An example.
    Example(&'t ast::ExampleDef),
}

/// One definition.
#[derive(Debug, Clone)]
pub struct Def<'t> {
    /// What kind.
    pub kind: Kind,
    /// Its name as written where it is defined.
    pub name: String,
    /// Its name as the document writes it: `ks.` before a used ruleset's.
    pub full: String,
    /// The alias prefix of the ruleset it is in, as the document sees it (`ks.`, or empty).
    pub prefix: String,
    /// Where its name is written.
    pub span: Span,
    /// The enum of a value, the record of a field, the definition of a parameter or
    /// `let`, the interpretation of a reading.
    pub parent: Option<usize>,
    /// Its values, fields or parameters, in order.
    pub children: Vec<usize>,
    /// Its syntax.
    pub node: Node<'t>,
    /// Written as `override`: it replaces the base's definition of its name.
    pub overrides: bool,
}

/// A type as the navigation follows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ty {
    /// An enum, a record or the state (a definition).
    Def(usize),
    /// `group of` a type.
    Group(Box<Ty>),
    /// Any other type, by name (`Int`, `Length`).
    Named(String),
}

/// What is at a place of the document.
#[derive(Debug, Clone, Copy)]
pub enum Hit<'t> {
    /// A name: the definition it is (`decl`) or refers to.
    Name {
        /// The definition.
        def: usize,
        /// Written at its definition.
        decl: bool,
    },
    /// A modifier of a modifier list (its label).
    Modifier {
        /// The modifier.
        modifier: &'t Modifier,
        /// Its list.
        list: Option<usize>,
    },
    /// A dice term: `count` dice of `sides` (`None`: the ruleset's die, `1 die`), and a
    /// whole number added (`3d6 + 1`) or taken away.
    Dice {
        /// How many.
        count: u32,
        /// Faces.
        sides: Option<u32>,
        /// Added to the sum.
        plus: i64,
    },
    /// The ruleset an `extends` or `use` line reads, as written.
    Ruleset {
        /// The name or path written.
        written: &'t str,
    },
}

/// Every definition the document can name and every place it names one.
#[derive(Debug)]
pub struct Index<'t> {
    /// The trees read.
    pub trees: &'t Trees,
    /// The definitions.
    pub defs: Vec<Def<'t>>,
    /// Places in the files and what is there (for the document: every one).
    pub spots: Vec<(Span, Hit<'t>)>,
    /// Top-level definitions by the name the document writes.
    globals: HashMap<String, Vec<usize>>,
    /// Enum values by the name the document writes (`prefix` + name).
    values: HashMap<String, Vec<usize>>,
    /// The state's fields, by name.
    state: HashMap<String, usize>,
    /// What each `let` holds, when known.
    let_types: HashMap<usize, Ty>,
    /// The definition named at each name span.
    by_span: HashMap<Span, usize>,
    /// The ruleset's die (`die d6`), if any file says.
    pub die: Option<u32>,
    /// Each parameter and `let` of the document and the stretch it is in scope over:
    /// `(def, from, to)`, offsets of the document.
    locals: Vec<(usize, u32, u32)>,
}

/// The built-in functions: no definition stands behind them.
pub const BUILTINS: [&str; 14] = [
    "floor", "ceil", "round", "trunc", "abs", "min", "max", "inches", "feet", "moves", "dice",
    "count", "highest", "lowest",
];

impl<'t> Index<'t> {
    /// Reads the trees: the definitions of every file the document reads, then every
    /// name the document writes.
    pub fn new(trees: &'t Trees) -> Index<'t> {
        let mut ix = Index {
            trees,
            defs: Vec::new(),
            spots: Vec::new(),
            globals: HashMap::new(),
            values: HashMap::new(),
            state: HashMap::new(),
            let_types: HashMap::new(),
            by_span: HashMap::new(),
            die: None,
            locals: Vec::new(),
        };
        let mut seen = HashSet::new();
        ix.declare_file(FileId(0), "", 0, &mut seen);
        if let Some(own) = trees.get(FileId(0)) {
            let mut walk = Walk {
                ix: &mut ix,
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
        ix
    }

    /// What is at `offset` of the document: the narrowest spot holding it (a name
    /// before a call, a dice term before the modifier it is in).
    pub fn at(&self, offset: u32) -> Option<(Span, Hit<'t>)> {
        let holds = |s: &Span| s.file == FileId(0) && s.start <= offset && offset <= s.end;
        self.spots
            .iter()
            .filter(|(s, _)| holds(s))
            .min_by_key(|(s, h)| {
                // Inside before touching the end; narrower first; names first.
                (
                    offset == s.end,
                    s.end - s.start,
                    !matches!(h, Hit::Name { .. }),
                )
            })
            .copied()
    }

    /// Every place of the document naming `def` (its definition too, when it is there),
    /// in the order written, each with whether it is the definition.
    pub fn uses(&self, def: usize) -> Vec<(Span, bool)> {
        let mut out: Vec<(Span, bool)> = self
            .spots
            .iter()
            .filter_map(|(s, h)| match h {
                Hit::Name { def: d, decl } if *d == def && s.file == FileId(0) => Some((*s, *decl)),
                _ => None,
            })
            .collect();
        // A place both defines and names it (an interpretation's default reading is
        // written at the reading): once, as its definition. Places never overlap.
        out.sort_by_key(|(s, decl)| (s.start, !decl));
        let mut end = 0;
        out.retain(|(s, _)| {
            let apart = s.start >= end;
            if apart {
                end = s.end;
            }
            apart
        });
        out
    }

    /// The parameters and `let`s in scope at `offset` of the document, innermost last
    /// (one named like an outer one hides it): what a name typed there may be, beside
    /// the top-level definitions ([`Index::defs`] of a global [`Kind`]).
    pub fn locals_at(&self, offset: u32) -> Vec<usize> {
        let mut found: Vec<(u32, usize)> = self
            .locals
            .iter()
            .filter(|(_, from, to)| *from <= offset && offset <= *to)
            .map(|&(d, from, _)| (from, d))
            .collect();
        found.sort();
        found.into_iter().map(|(_, d)| d).collect()
    }

    /// The top-level definitions the document names `full` (the last one read: the
    /// document's own override before its base's).
    pub fn global(&self, full: &str) -> Option<usize> {
        self.globals.get(full).and_then(|v| v.last()).copied()
    }

    /// Every definition that shares a namespace with `def` and is named `name`: another
    /// top-level definition or state field, a value of the same enum, a field of the
    /// same record, a parameter or `let` of the same definition.
    pub fn clashes(&self, def: usize, name: &str) -> Vec<usize> {
        let d = &self.defs[def];
        let full = format!("{}{name}", d.prefix);
        let mut out = Vec::new();
        if d.kind.is_global() || self.state.values().any(|&f| f == def) {
            out.extend(self.globals.get(&full).into_iter().flatten());
            out.extend(self.state.get(name));
        } else if let Some(p) = d.parent {
            out.extend(
                self.defs
                    .iter()
                    .enumerate()
                    .filter(|(_, o)| o.parent == Some(p) && o.name == name)
                    .map(|(i, _)| i),
            );
        }
        out.retain(|&o| o != def);
        out
    }

    /// A type as written in a definition of the ruleset `prefix`.
    pub fn ty(&self, te: &TypeExpr, prefix: &str) -> Ty {
        match te {
            TypeExpr::Named(n) => match self.type_def(&n.node, prefix) {
                Some(d) => Ty::Def(d),
                None => Ty::Named(n.node.clone()),
            },
            TypeExpr::Range { .. } => Ty::Named("Int".into()),
            TypeExpr::LengthRange { .. } => Ty::Named("Length".into()),
            TypeExpr::Pair(a, b, _) => {
                let (a, b) = (self.ty(a, prefix), self.ty(b, prefix));
                Ty::Named(format!("({}, {})", self.ty_name(&a), self.ty_name(&b)))
            }
            TypeExpr::Group(t, _) => Ty::Group(Box::new(self.ty(t, prefix))),
        }
    }

    /// A type's name as the document writes it.
    pub fn ty_name(&self, ty: &Ty) -> String {
        match ty {
            Ty::Def(d) => self.defs[*d].full.clone(),
            Ty::Group(t) => format!("group of {}", self.ty_name(t)),
            Ty::Named(n) => n.clone(),
        }
    }

    /// What a definition holds, when it is known: a parameter's or field's type, a
    /// constant's declared one, a `let`'s, an enum value's enum, a callable's result.
    pub fn type_of(&self, def: usize) -> Option<Ty> {
        let d = &self.defs[def];
        match d.node {
            Node::Param(p) => Some(self.ty(&p.ty, &d.prefix)),
            Node::Field(f) => Some(self.ty(&f.ty, &d.prefix)),
            Node::Const(c) => c.ty.as_ref().map(|t| self.ty(t, &d.prefix)),
            Node::Let(..) => self.let_types.get(&def).cloned(),
            Node::Value(_) => d.parent.map(Ty::Def),
            Node::Rule(r) => r.returns.as_ref().map(|t| self.ty(t, &d.prefix)),
            Node::Table(t) => t.returns.as_ref().map(|t| self.ty(t, &d.prefix)),
            Node::Modifiers(_) => Some(Ty::Named("Int".into())),
            _ => None,
        }
    }

    /// An enum, record or state named `name` in the ruleset `prefix`.
    fn type_def(&self, name: &str, prefix: &str) -> Option<usize> {
        let is_type = |d: &usize| {
            matches!(
                self.defs[*d].kind,
                Kind::Enum | Kind::Record | Kind::State | Kind::Interpretation
            )
        };
        let mine = format!("{prefix}{name}");
        let found = [mine.as_str(), name].into_iter().find_map(|n| {
            self.globals
                .get(n)
                .and_then(|v| v.iter().rev().find(|d| is_type(d)))
                .copied()
        });
        found
    }

    /// A child of `parent` named `name`.
    fn child(&self, parent: usize, name: &str) -> Option<usize> {
        self.defs[parent]
            .children
            .iter()
            .copied()
            .find(|&c| self.defs[c].name == name)
    }

    /// Adds a definition.
    fn add(&mut self, mut def: Def<'t>) -> usize {
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
    fn def(&self, kind: Kind, name: &ast::Name, prefix: &str, node: Node<'t>) -> Def<'t> {
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
    fn declare_file(
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
    fn declare(&mut self, item: &'t Item, prefix: &str, overrides: bool) {
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
    fn params(&mut self, owner: usize, params: &'t [ast::Param], prefix: &str) {
        for p in params {
            let mut d = self.def(Kind::Param, &p.name, prefix, Node::Param(p));
            d.parent = Some(owner);
            self.add(d);
        }
    }

    /// Declares a record's fields: their ids.
    fn fields(&mut self, owner: usize, fields: &'t [ast::FieldDecl], prefix: &str) -> Vec<usize> {
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

/// Where a top-level definition of the document starts (its name's end: what comes
/// after is its own) and ends (its body's `}`).
fn item_bounds(text: &str, item: &Item) -> (u32, u32) {
    let named = |n: &ast::Name| (n.span.end, closing_brace(text, n.span.end));
    match item {
        Item::Rule(r) => (r.name.span.end, r.body.span.end),
        Item::Table(t) => named(&t.name),
        Item::Modifiers(m) => named(&m.name),
        Item::TablePatch { name, .. } | Item::ModifiersPatch { name, .. } => named(name),
        Item::Example(e) => (e.name.span.end, closing_brace(text, e.name.span.end)),
        Item::Override(inner, _) => item_bounds(text, inner),
        _ => (0, 0),
    }
}

/// The offset just past the `}` closing the first `{` after `from` (texts in quotes and
/// comments passed over, inch marks known from quotes); `from` when there is none.
pub fn closing_brace(text: &str, from: u32) -> u32 {
    let bytes = text.as_bytes();
    let mut i = from as usize;
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // An inch mark (`6"`, `1 1/2"`) follows a digit; a text's quote does not.
            b'"' if i > 0 && bytes[i - 1].is_ascii_digit() => {}
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return u32::try_from(i + 1).unwrap_or(from);
                }
            }
            _ => {}
        }
        i += 1;
    }
    from
}

/// What `a op b` holds, when both sides' types are known and the result is sure: a
/// sum of two alike, a whole number times a measure, a remainder of whole numbers.
/// (A number written out may be a fraction, and a quotient is exact: those are left
/// unknown rather than guessed.)
fn arithmetic(op: BinOp, a: Option<Ty>, b: Option<Ty>) -> Option<Ty> {
    let int = Ty::Named("Int".into());
    let (a, b) = (a?, b?);
    match op {
        BinOp::Add | BinOp::Sub if a == b => Some(a),
        BinOp::Mul if a == int => Some(b),
        BinOp::Mul if b == int => Some(a),
        BinOp::Rem if a == int && b == int => Some(int),
        _ => None,
    }
}

/// `3d6 + 1`, `2d6 - 2`, `1 + d6`: the dice and the whole number added.
fn dice_sum(op: BinOp, a: &Expr, b: &Expr) -> Option<(u32, Option<u32>, i64)> {
    let whole = |e: &Expr| match &e.kind {
        ExprKind::Number(n) if n.is_integer() => Some(n.to_integer()),
        _ => None,
    };
    let dice = |e: &Expr| match &e.kind {
        ExprKind::Dice { count, sides } => Some((*count, *sides)),
        _ => None,
    };
    match op {
        BinOp::Add => match (dice(a), dice(b)) {
            (Some((c, s)), None) => Some((c, s, whole(b)?)),
            (None, Some((c, s))) => Some((c, s, whole(a)?)),
            _ => None,
        },
        BinOp::Sub => {
            let (c, s) = dice(a)?;
            Some((c, s, whole(b)?.checked_neg()?))
        }
        _ => None,
    }
}

/// The walk down the document's definitions: every name it writes resolved in its scope.
struct Walk<'a, 't> {
    ix: &'a mut Index<'t>,
    /// Parameters and `let`s in scope, innermost last.
    scope: Vec<(String, usize)>,
    /// The definition being walked (the owner of its `let`s).
    owner: Option<usize>,
    /// Where the definition being walked starts (its name's end) and ends (its `}`).
    item: (u32, u32),
    /// The ends of the blocks being walked, innermost last.
    blocks: Vec<u32>,
    /// `given rolls NAME N` of the examples, resolved once every `let` is known.
    rolls: Vec<&'t ast::Name>,
}

impl<'t> Walk<'_, 't> {
    /// Marks `span` as naming `def`.
    fn name(&mut self, span: Span, def: usize) {
        self.ix.spots.push((span, Hit::Name { def, decl: false }));
    }

    /// The definition declared at a name.
    fn declared(&self, name: &ast::Name) -> Option<usize> {
        self.ix.by_span.get(&name.span).copied()
    }

    /// Starts a definition with `params` in scope.
    fn enter(&mut self, owner: Option<usize>) {
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
    fn named_rolls(&mut self) {
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

    fn item(&mut self, item: &'t Item) {
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
            Item::Record(r) | Item::State(r) | Item::RecordPatch(r) => {
                self.enter(None);
                if matches!(item, Item::RecordPatch(_)) {
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
            Item::List(l) => {
                if let Some(e) = self.ix.type_def(&l.of.node, "") {
                    self.name(l.of.span, e);
                    for v in &l.values {
                        if let Some(d) = self.ix.child(e, &v.node) {
                            self.name(v.span, d);
                        }
                    }
                }
            }
            Item::Interpretation(i) => {
                if let (Some(me), Some(d)) = (self.declared(&i.name), &i.default) {
                    if let Some(r) = self.ix.child(me, &d.node) {
                        self.name(d.span, r);
                    }
                }
            }
            Item::Example(e) => self.example(e),
            Item::Extends(path) => self.ix.spots.push((
                path.span,
                Hit::Ruleset {
                    written: &path.node,
                },
            )),
            Item::Use { ruleset, .. } => self.ix.spots.push((
                ruleset.span,
                Hit::Ruleset {
                    written: &ruleset.node,
                },
            )),
            Item::Override(inner, _) => self.item(inner),
            Item::TablePatch {
                name,
                rows,
                columns,
                ..
            } => {
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

    /// A rule, table or modifier list the document names `name` (marked there).
    fn callee(&mut self, name: &ast::Name) -> Option<usize> {
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
    fn ty(&mut self, te: &'t TypeExpr) -> Ty {
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
    fn params(&mut self, params: &'t [ast::Param]) {
        for p in params {
            let want = self.ty(&p.ty);
            if let Some(d) = &p.default {
                self.expr(d, Some(&want));
            }
        }
    }

    /// A modifier: its label a spot, its expressions walked.
    fn modifier(&mut self, m: &'t Modifier, list: Option<usize>) {
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
    fn example(&mut self, e: &'t ast::ExampleDef) {
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
    fn expectation(&mut self, check: &'t ast::Check) {
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
    fn let_(&mut self, name: &'t ast::Name, ty: Option<&'t TypeExpr>, value: &'t Expr) {
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
    fn block(&mut self, b: &'t Block, want: Option<&Ty>) -> Option<Ty> {
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
    fn rows(&mut self, rows: &'t [Row], keys: &[Option<Ty>], want: Option<&Ty>) -> Option<Ty> {
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
    fn column_key(&mut self, column: Span) {
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
    fn pattern(&mut self, p: &'t Pattern, ty: Option<&Ty>) {
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

    fn enum_ref(&mut self, r: &'t EnumRef, ty: Option<&Ty>) {
        let of = r.qual.as_ref().and_then(|q| self.enum_named(q));
        self.value(&r.name, of.map(Ty::Def).as_ref().or(ty));
    }

    /// The enum (or interpretation) written `q` before a value, marked there.
    fn enum_named(&mut self, q: &ast::Name) -> Option<usize> {
        let d = self.ix.type_def(&q.node, "")?;
        self.name(q.span, d);
        Some(d)
    }

    /// A value written `name` where a `ty` is wanted: marked, and its enum given.
    fn value(&mut self, name: &ast::Name, ty: Option<&Ty>) -> Option<Ty> {
        let d = self.value_def(&name.node, ty)?;
        self.name(name.span, d);
        self.ix.defs[d].parent.map(Ty::Def)
    }

    /// The value named `name`: of the enum `ty` when it has one of that name, else the
    /// only value of that name, else the first.
    fn value_def(&self, name: &str, ty: Option<&Ty>) -> Option<usize> {
        if let Some(Ty::Def(e)) = ty {
            if let Some(v) = self.ix.child(*e, name) {
                return Some(v);
            }
        }
        self.ix.values.get(name).and_then(|v| v.first()).copied()
    }

    /// An expression: every name in it marked; what it holds, when known.
    fn expr(&mut self, e: &'t Expr, want: Option<&Ty>) -> Option<Ty> {
        match &e.kind {
            ExprKind::Length(..) => Some(Ty::Named("Length".into())),
            ExprKind::Time(_) => Some(Ty::Named("Time".into())),
            ExprKind::Minutes(_) => Some(Ty::Named("Minutes".into())),
            ExprKind::Bool(_) => Some(Ty::Named("Bool".into())),
            ExprKind::Text(_) => Some(Ty::Named("Text".into())),
            ExprKind::Dice { count, sides } => {
                self.ix.spots.push((
                    e.span,
                    Hit::Dice {
                        count: *count,
                        sides: *sides,
                        plus: 0,
                    },
                ));
                Some(Ty::Named("Int".into()))
            }
            ExprKind::Name(n) => self.bare(n, e.span, want),
            ExprKind::Field(base, field) => self.field(e, base, field),
            ExprKind::Member(a, b) => {
                let t = self.expr(a, None);
                self.expr(b, Some(&Ty::Named("Text".into())));
                match t {
                    Some(Ty::Group(inner)) => Some(*inner),
                    _ => None,
                }
            }
            ExprKind::Call(name, args) => self.call(name, args),
            ExprKind::Unary(op, a) => {
                let t = self.expr(a, want);
                match op {
                    UnOp::Not => Some(Ty::Named("Bool".into())),
                    _ => t,
                }
            }
            ExprKind::Binary(op, a, b) => {
                if let Some((count, sides, plus)) = dice_sum(*op, a, b) {
                    self.ix
                        .spots
                        .push((e.span, Hit::Dice { count, sides, plus }));
                }
                let ta = self.expr(a, None);
                let compare = matches!(op, BinOp::Eq | BinOp::Ne);
                let tb = self.expr(b, if compare { ta.as_ref() } else { None });
                match op {
                    BinOp::Or
                    | BinOp::And
                    | BinOp::Eq
                    | BinOp::Ne
                    | BinOp::Lt
                    | BinOp::Le
                    | BinOp::Gt
                    | BinOp::Ge => Some(Ty::Named("Bool".into())),
                    _ => arithmetic(*op, ta, tb),
                }
            }
            ExprKind::If(arms, other) => {
                let mut out = None;
                for (c, b) in arms {
                    self.expr(c, Some(&Ty::Named("Bool".into())));
                    let got = self.block(b, want);
                    out = out.or(got);
                }
                if let Some(b) = other {
                    let got = self.block(b, want);
                    out = out.or(got);
                }
                out
            }
            ExprKind::Match(s, rows) => {
                let t = self.expr(s, None);
                self.rows(rows, &[t], want)
            }
            ExprKind::Reading(name, rows) => {
                let interp = self
                    .ix
                    .global(&name.node)
                    .filter(|&d| self.ix.defs[d].kind == Kind::Interpretation);
                if let Some(i) = interp {
                    self.name(name.span, i);
                }
                self.rows(rows, &[interp.map(Ty::Def)], want)
            }
            ExprKind::Record(fields) => {
                let rec = match want {
                    Some(Ty::Def(d)) if self.ix.defs[*d].kind == Kind::Record => Some(*d),
                    _ => None,
                };
                self.fields(rec, fields);
                rec.map(Ty::Def)
            }
            ExprKind::TypedRecord(name, fields) => {
                let rec = self.ix.type_def(&name.node, "");
                if let Some(r) = rec {
                    self.name(name.span, r);
                }
                self.fields(rec, fields);
                rec.map(Ty::Def)
            }
            ExprKind::Pair(a, b) => {
                self.expr(a, None);
                self.expr(b, None);
                None
            }
            ExprKind::Instead { call, .. } => self.expr(call, want),
            ExprKind::Block(b) => self.block(b, want),
            ExprKind::In {
                value, patterns, ..
            } => {
                let t = self.expr(value, None);
                self.pattern(patterns, t.as_ref());
                Some(Ty::Named("Bool".into()))
            }
            _ => None,
        }
    }

    /// A record's fields (of `rec` when known, else of the one record with such a
    /// field), each value walked as that field's type.
    fn fields(&mut self, rec: Option<usize>, fields: &'t [(ast::Name, Expr)]) {
        for (name, value) in fields {
            let field = match rec {
                Some(r) => self.ix.child(r, &name.node),
                None => self.only_field(&name.node),
            };
            let want = field.and_then(|f| self.ix.type_of(f));
            if let Some(f) = field {
                self.name(name.span, f);
            }
            self.expr(value, want.as_ref());
        }
    }

    /// The field named `name` when one record (of the document's own) has one.
    fn only_field(&self, name: &str) -> Option<usize> {
        let mut found = self.ix.defs.iter().enumerate().filter(|(_, d)| {
            d.kind == Kind::Field
                && d.name == name
                && d.prefix.is_empty()
                && d.parent
                    .is_some_and(|p| self.ix.defs[p].kind == Kind::Record)
        });
        let first = found.next().map(|(i, _)| i);
        if found.next().is_some() {
            None
        } else {
            first
        }
    }

    /// A bare name: a parameter or `let`, a state field, a definition, an enum value.
    fn bare(&mut self, n: &str, span: Span, want: Option<&Ty>) -> Option<Ty> {
        if let Some(&(_, d)) = self.scope.iter().rev().find(|(s, _)| s == n) {
            self.name(span, d);
            return self.ix.type_of(d);
        }
        if let Some(&d) = self.ix.state.get(n) {
            self.name(span, d);
            return self.ix.type_of(d);
        }
        if let Some(d) = self.ix.global(n) {
            self.name(span, d);
            return match self.ix.defs[d].kind {
                Kind::Enum | Kind::Record => Some(Ty::Def(d)),
                _ => self.ix.type_of(d),
            };
        }
        let d = self.value_def(n, want)?;
        self.name(span, d);
        self.ix.defs[d].parent.map(Ty::Def)
    }

    /// `base.field`: a used ruleset's definition (`ks.supply_interval`), an enum's value
    /// (`Grade.line`, `ks.Arm.infantry`), or a field of a record.
    fn field(&mut self, e: &'t Expr, base: &'t Expr, field: &'t ast::Name) -> Option<Ty> {
        if let Some(q) = self.path(base) {
            let local = self
                .scope
                .iter()
                .any(|(s, _)| Some(s.as_str()) == q.split('.').next());
            if !local {
                if let Some(d) = self.ix.global(&format!("{q}.{}", field.node)) {
                    self.name(e.span, d);
                    return match self.ix.defs[d].kind {
                        Kind::Enum | Kind::Record => Some(Ty::Def(d)),
                        _ => self.ix.type_of(d),
                    };
                }
                if let Some(t) = self.ix.type_def(&q, "") {
                    if matches!(self.ix.defs[t].kind, Kind::Enum | Kind::Interpretation) {
                        self.name(base.span, t);
                        if let Some(v) = self.ix.child(t, &field.node) {
                            self.name(field.span, v);
                        }
                        return Some(Ty::Def(t));
                    }
                }
            }
        }
        let t = self.expr(base, None);
        let found = match &t {
            Some(Ty::Def(r)) => self.ix.child(*r, &field.node),
            Some(Ty::Group(inner)) => return Some((**inner).clone()),
            _ => self.only_field(&field.node),
        };
        let f = found?;
        self.name(field.span, f);
        self.ix.type_of(f)
    }

    /// `a.b.c` as a dotted name, when the expression is only names.
    fn path(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Name(n) => Some(n.clone()),
            ExprKind::Field(b, f) => Some(format!("{}.{}", self.path(b)?, f.node)),
            _ => None,
        }
    }

    /// A call: the callee marked, each argument walked as its parameter's type (a named
    /// one's name marked as the parameter); the callee's result.
    fn call(&mut self, name: &'t ast::Name, args: &'t [ast::Arg]) -> Option<Ty> {
        let callee = self.callee(name);
        let params: Vec<usize> = callee
            .map(|c| {
                self.ix.defs[c]
                    .children
                    .iter()
                    .copied()
                    .filter(|&p| self.ix.defs[p].kind == Kind::Param)
                    .collect()
            })
            .unwrap_or_default();
        let mut first = None;
        for (i, a) in args.iter().enumerate() {
            let param = match &a.name {
                Some(n) => {
                    let p = params
                        .iter()
                        .copied()
                        .find(|&p| self.ix.defs[p].name == n.node);
                    if let Some(p) = p {
                        self.name(n.span, p);
                    }
                    p
                }
                None => params.get(i).copied(),
            };
            let want = param.and_then(|p| self.ix.type_of(p));
            let got = self.expr(&a.value, want.as_ref());
            if i == 0 {
                first = got;
            }
        }
        match callee {
            Some(c) => self.ix.type_of(c),
            None if matches!(name.node.as_str(), "min" | "max" | "abs") => first,
            None => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use lsp_types::Url;

    fn doc(text: &str) -> Document {
        let uri = Url::parse("untitled:t.rules").expect("an address");
        Document::new(uri, 1, text.to_string(), &Limits::default())
    }

    /// The name of what the `nth` (0-based) `word` of the text refers to.
    fn resolves(text: &str, word: &str, nth: usize) -> Option<String> {
        let d = doc(text);
        let trees = Trees::of(&d)?;
        let ix = Index::new(&trees);
        let at = text.match_indices(word).nth(nth)?.0;
        match ix.at(u32::try_from(at).ok()? + 1)?.1 {
            Hit::Name { def, .. } => Some(format!(
                "{} {}",
                ix.defs[def].kind.word(),
                ix.defs[def].full
            )),
            _ => None,
        }
    }

    #[test]
    fn names_resolve_through_scopes_types_and_enums() {
        let text = "enum Grade { guard, line }\n\
                    enum Formation { line, column }\n\
                    record Unit { grade: Grade, men: Int }\n\
                    rule r(u: Unit, line: Int) -> Bool {\n  let g = u.grade\n  g == line\n}\n\
                    rule s(f: Formation) -> Bool { f == line }\n";
        // `line` in r is the parameter (a scope before the enums).
        assert_eq!(resolves(text, "line", 3).as_deref(), Some("parameter line"));
        // In s, compared with a Formation, it is Formation's value.
        assert_eq!(
            resolves(text, "line", 4).as_deref(),
            Some("enum value Formation.line")
        );
        assert_eq!(
            resolves(text, "grade", 1).as_deref(),
            Some("field Unit.grade")
        );
        assert_eq!(resolves(text, "g ==", 0).as_deref(), Some("`let` g"));
    }

    #[test]
    fn the_locals_in_scope_are_those_declared_before_and_around() {
        let text = "rule r(n: Int) -> Int {\n  let a = n\n  let b = a + 1\n  b\n}\nconst c = 1\n";
        let d = doc(text);
        let trees = Trees::of(&d).expect("parses");
        let ix = Index::new(&trees);
        let names = |at: &str| -> Vec<String> {
            let offset = u32::try_from(text.find(at).expect("there")).expect("small");
            ix.locals_at(offset)
                .into_iter()
                .map(|l| ix.defs[l].name.clone())
                .collect()
        };
        // In `a`'s value: the parameter only; in `b`'s: `a` too; at the end all three.
        assert_eq!(names("n\n  let b"), vec!["n"]);
        assert_eq!(names("a + 1"), vec!["n", "a"]);
        assert_eq!(names("b\n}"), vec!["n", "a", "b"]);
        // Outside the rule: none.
        assert_eq!(names("const c"), Vec::<String>::new());
    }

    #[test]
    fn a_body_ends_at_its_brace_past_texts_comments_and_inch_marks() {
        // One inch mark: read as a quote, it would open a text running to the next
        // quote, past the `}`.
        let text = "table t(n: 1..2) -> Length cite \"a } b\" {\n  1 => 6\" # }\n  _ => 0\n}\nconst c = \"x\"\n";
        let end = closing_brace(text, 7);
        assert_eq!(
            &text[..end as usize],
            text.trim_end_matches("\nconst c = \"x\"\n")
        );
    }

    #[test]
    fn a_lets_type_is_told_only_when_sure() {
        let text = "rule r(n: Int, l: Length) -> Int {\n\
                    \x20 let sum = n + n\n\
                    \x20 let far = n x l\n\
                    \x20 let half = n / 2\n\
                    \x20 let more = n + 1\n\
                    \x20 let d = 2d6\n\
                    \x20 sum\n}\n";
        let d = doc(text);
        let trees = Trees::of(&d).expect("parses");
        let ix = Index::new(&trees);
        let ty = |name: &str| {
            let (i, _) = ix
                .defs
                .iter()
                .enumerate()
                .find(|(_, d)| d.kind == Kind::Let && d.name == name)
                .expect("the let");
            ix.type_of(i).map(|t| ix.ty_name(&t))
        };
        assert_eq!(ty("sum").as_deref(), Some("Int"));
        assert_eq!(ty("far").as_deref(), Some("Length"));
        // `n / 2` may be a fraction (a Num), `1` might have been `1/2`: not guessed.
        assert_eq!(ty("half"), None);
        assert_eq!(ty("more"), None);
        assert_eq!(ty("d").as_deref(), Some("Int"));
    }

    #[test]
    fn a_column_blocks_key_is_the_tables_parameter() {
        let text = "enum Order { good, bad }\n\
                    table t(order: Order, roll: 1..2) -> Int {\n\
                    \x20 column order = good {\n\
                    \x20   1 => 1\n\
                    \x20   2 => 2\n\
                    \x20 }\n\
                    \x20 _ | _ => 0\n\
                    }\n";
        assert_eq!(
            resolves(text, "order =", 0).as_deref(),
            Some("parameter order")
        );
        // Written once, found once, though two rows come from the block.
        let d = doc(text);
        let trees = Trees::of(&d).expect("parses");
        let ix = Index::new(&trees);
        let (_, hit) = ix
            .at(u32::try_from(text.find("order:").expect("there")).expect("small"))
            .expect("a name");
        let Hit::Name { def, .. } = hit else {
            panic!("a name")
        };
        assert_eq!(ix.uses(def).len(), 2);
    }

    #[test]
    fn a_mistake_elsewhere_blinds_nothing_else() {
        let text = "const a = 1\nrule r() -> Int { a + nowhere }\n";
        assert_eq!(resolves(text, "a +", 0).as_deref(), Some("constant a"));
        assert_eq!(resolves(text, "nowhere", 0), None);
    }
}
