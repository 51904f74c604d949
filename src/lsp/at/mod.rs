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

use crate::span::{FileId, Span};
use crate::syntax::ast::{self, Expr, Item, Modifier, TypeExpr};
use std::collections::{HashMap, HashSet};

mod declare;
mod expr;
mod trees;
mod walk;

pub use trees::{read_name, recover, Tree, Trees};

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
            walk::document(&mut ix, own);
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

/// The offset just past the `}` closing the first `{` after `from`
/// ([`crate::syntax::closing_brace`]); `from` when there is none.
pub fn closing_brace(text: &str, from: u32) -> u32 {
    crate::syntax::closing_brace(text, from as usize)
        .and_then(|end| u32::try_from(end).ok())
        .unwrap_or(from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::limits::Limits;
    use crate::lsp::document::Document;
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
