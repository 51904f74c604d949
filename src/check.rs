//! The checker: AST → [`Program`]. Resolves every name to an index, types every
//! expression (units included: a length plus a plain number is an error), and collects
//! every problem it finds rather than stopping at the first.

use crate::diagnostic::{Diag, Diags};
use crate::program::*;
use crate::span::Span;
use crate::syntax::ast;
use crate::syntax::ast::{BinOp, LengthUnit, UnOp};
use crate::value::{Length, Rational, Value};
use num_traits::CheckedMul;
use std::rc::Rc;

/// Most dice one term may roll.
pub const MAX_DICE: u32 = 1000;
/// Most sides a die may have.
pub const MAX_SIDES: u32 = 1000;

#[derive(Clone, Copy, PartialEq)]
enum State {
    Todo,
    Busy,
    Done,
}

struct Pending {
    consts: Vec<(Rc<ast::ConstDef>, State)>,
    rules: Vec<(Rc<ast::RuleDef>, State)>,
    tables: Vec<(Rc<ast::TableDef>, State)>,
    modifiers: Vec<(Rc<ast::ModifiersDef>, State)>,
    records: Vec<(u32, Rc<ast::RecordDef>)>,
}

/// Local names in scope, innermost last.
#[derive(Default)]
struct Scope {
    vars: Vec<(String, u32, Ty)>,
    slots: u32,
}

impl Scope {
    fn bind(&mut self, name: &str, ty: Ty) -> u32 {
        let slot = self.slots;
        self.slots += 1;
        self.vars.push((name.to_string(), slot, ty));
        slot
    }
    fn lookup(&self, name: &str) -> Option<(u32, Ty)> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, t)| (*s, t.clone()))
    }
}

/// Checks a parsed ruleset file into a program (the sources must already hold `file`).
pub fn check_file(program: &mut Program, ast: &ast::File) -> Result<(), Diags> {
    let mut c = Checker {
        prog: program,
        pend: Pending {
            consts: vec![],
            rules: vec![],
            tables: vec![],
            modifiers: vec![],
            records: vec![],
        },
        errors: vec![],
        cite: None,
    };
    c.declare(ast);
    c.check_all();
    c.check_examples(ast);
    let errors = std::mem::take(&mut c.errors);
    if errors.iter().any(|d| !d.warning) {
        Err(Diags(errors))
    } else {
        program.warnings.extend(errors);
        Ok(())
    }
}

/// Compiles an expression against a checked program.
pub fn check_query(program: &mut Program, expr: &ast::Expr) -> Result<Query, Diags> {
    let mut c = Checker {
        prog: program,
        pend: Pending {
            consts: vec![],
            rules: vec![],
            tables: vec![],
            modifiers: vec![],
            records: vec![],
        },
        errors: vec![],
        cite: None,
    };
    let mut scope = Scope::default();
    let (e, ty) = c.expr(expr, &mut scope, None);
    if c.errors.iter().any(|d| !d.warning) {
        return Err(Diags(c.errors));
    }
    Ok(Query {
        expr: e,
        slots: scope.slots,
        ty,
    })
}

struct Checker<'p> {
    prog: &'p mut Program,
    pend: Pending,
    errors: Vec<Diag>,
    /// The citation of the definition being checked (refusals inherit it).
    cite: Option<Rc<str>>,
}

fn rc(s: &str) -> Rc<str> {
    Rc::from(s)
}

fn dummy(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Value(Value::Bool(false)),
        span,
    }
}

fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'p> Checker<'p> {
    fn err(&mut self, d: Diag) {
        self.errors.push(d);
    }

    fn all_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.prog.globals.keys().cloned().collect();
        v.extend(self.prog.enum_values.keys().cloned());
        v.extend(Builtin::ALL.iter().map(|(n, _)| n.to_string()));
        v
    }

    // ------------------------------------------------------------------ declarations

    fn define(&mut self, name: &ast::Name, g: Global) {
        if self.prog.globals.contains_key(&name.node) {
            self.err(Diag::at(
                "umpire::check::duplicate",
                format!("`{}` is defined twice", name.node),
                name.span,
                "defined again here",
            ));
            return;
        }
        if Builtin::ALL.iter().any(|(n, _)| *n == name.node) {
            self.err(Diag::at(
                "umpire::check::builtin_name",
                format!("`{}` is the name of a built-in function", name.node),
                name.span,
                "choose another name",
            ));
            return;
        }
        self.prog.globals.insert(name.node.clone(), g);
    }

    fn declare(&mut self, file: &ast::File) {
        // Types first: enums, then records (whose fields may name enums and records).
        for item in &file.items {
            match item {
                ast::Item::Ruleset { title, cite } => {
                    if self.prog.title.is_some() {
                        self.err(Diag::at(
                            "umpire::check::duplicate",
                            "a second `ruleset` title",
                            title.span,
                            "the ruleset is already named",
                        ));
                    }
                    self.prog.title = Some(title.node.clone());
                    self.prog.cite = cite.as_ref().map(|c| rc(&c.node));
                }
                ast::Item::Die { sides } => {
                    if sides.node == 0 || sides.node > MAX_SIDES {
                        self.err(Diag::at(
                            "umpire::limit::dice",
                            format!("a die must have 1 to {MAX_SIDES} sides"),
                            sides.span,
                            "here",
                        ));
                    }
                    if self.prog.default_die.is_some() {
                        self.err(Diag::at(
                            "umpire::check::duplicate",
                            "the ruleset's die is declared twice",
                            sides.span,
                            "declared again",
                        ));
                    }
                    self.prog.default_die = Some(sides.node);
                }
                ast::Item::Enum(e) => {
                    if e.values.len() > usize::from(u16::MAX)
                        || self.prog.enums.len() >= usize::from(u16::MAX)
                    {
                        self.err(Diag::at(
                            "umpire::limit::enum",
                            format!("more than {} enums or enum values", u16::MAX),
                            e.name.span,
                            "too many",
                        ));
                        continue;
                    }
                    let id = u16::try_from(self.prog.enums.len()).unwrap_or(u16::MAX);
                    self.define(&e.name, Global::EnumType(id));
                    let mut values = Vec::new();
                    for (i, v) in e.values.iter().enumerate() {
                        if values
                            .iter()
                            .any(|x: &EnumValueInfo| *x.name == *v.name.node)
                        {
                            self.err(Diag::at(
                                "umpire::check::duplicate",
                                format!("`{}` is listed twice in {}", v.name.node, e.name.node),
                                v.name.span,
                                "listed again",
                            ));
                            continue;
                        }
                        let i = u16::try_from(i).unwrap_or(u16::MAX);
                        self.prog
                            .enum_values
                            .entry(v.name.node.clone())
                            .or_default()
                            .push((id, i));
                        values.push(EnumValueInfo {
                            name: rc(&v.name.node),
                            display: v.display.as_deref().map(rc),
                            sentence: v.sentence.as_deref().map(rc),
                        });
                    }
                    self.prog.enums.push(EnumInfo {
                        name: e.name.node.clone(),
                        cite: e.cite.as_ref().map(|c| rc(&c.node)),
                        values,
                    });
                }
                _ => {}
            }
        }
        for item in &file.items {
            if let ast::Item::Record(r) = item {
                let id = idx(self.prog.records.len());
                self.define(&r.name, Global::RecordType(id));
                self.prog.records.push(RecordInfo {
                    name: r.name.node.clone(),
                    shape: Rc::new(RecordShape {
                        name: Some(r.name.node.clone()),
                        fields: vec![],
                    }),
                    defaults: vec![],
                    ranges: vec![],
                });
            }
        }
        // Record fields (now that every record name is known). A field may have the
        // type of a record declared later: each pass sees the shapes of the one before,
        // so as many passes as records settle every shape; errors count on the last.
        let passes = file
            .items
            .iter()
            .filter(|i| matches!(i, ast::Item::Record(_)))
            .count();
        for pass in 0..passes {
            let last = pass + 1 == passes;
            let mark = self.errors.len();
            for item in &file.items {
                if let ast::Item::Record(r) = item {
                    let Some(Global::RecordType(id)) = self.prog.globals.get(&r.name.node).cloned()
                    else {
                        continue;
                    };
                    let mut fields = Vec::new();
                    let mut ranges = Vec::new();
                    for f in &r.fields {
                        if fields
                            .iter()
                            .any(|(n, _): &(Rc<str>, Ty)| **n == *f.name.node)
                        {
                            self.err(Diag::at(
                                "umpire::check::duplicate",
                                format!("field `{}` is declared twice", f.name.node),
                                f.name.span,
                                "declared again",
                            ));
                            continue;
                        }
                        let (ty, range) = self.ty(&f.ty);
                        fields.push((rc(&f.name.node), ty));
                        ranges.push(range);
                    }
                    if last {
                        self.pend.records.push((id, Rc::new(r.clone())));
                    }
                    if let Some(info) = self.prog.records.get_mut(id as usize) {
                        info.shape = Rc::new(RecordShape {
                            name: Some(r.name.node.clone()),
                            fields,
                        });
                        info.ranges = ranges;
                    }
                }
            }
            if !last {
                self.errors.truncate(mark);
            }
        }
        // Then everything callable, with parameter types known.
        for item in &file.items {
            match item {
                ast::Item::Const(c) => {
                    let id = idx(self.prog.consts.len());
                    self.define(&c.name, Global::Const(id));
                    let ty = c.ty.as_ref().map_or(Ty::Any, |t| self.ty(t).0);
                    self.prog.consts.push(ConstInfo {
                        name: rc(&c.name.node),
                        ty,
                        value: dummy(c.name.span),
                        slots: 0,
                        cite: c.cite.as_ref().map(|c| rc(&c.node)),
                    });
                    self.pend.consts.push((Rc::new(c.clone()), State::Todo));
                }
                ast::Item::Rule(r) => {
                    let id = idx(self.prog.rules.len());
                    self.define(&r.name, Global::Rule(id));
                    let params = self.params(&r.params);
                    let ret = r.returns.as_ref().map_or(Ty::Any, |t| self.ty(t).0);
                    self.prog.rules.push(RuleInfo {
                        name: rc(&r.name.node),
                        params,
                        ret,
                        cite: r.cite.as_ref().map(|c| rc(&c.node)),
                        body: dummy(r.name.span),
                        slots: 0,
                        span: r.name.span,
                    });
                    self.pend.rules.push((Rc::new(r.clone()), State::Todo));
                }
                ast::Item::Table(t) => {
                    let id = idx(self.prog.tables.len());
                    self.define(&t.name, Global::Table(id));
                    let mut params = self.params(&t.keys);
                    params.extend(self.params(&t.extra));
                    let ret = t.returns.as_ref().map_or(Ty::Any, |r| self.ty(r).0);
                    self.prog.tables.push(TableInfo {
                        name: rc(&t.name.node),
                        params,
                        keys: t.keys.len(),
                        ret,
                        cite: t.cite.as_ref().map(|c| rc(&c.node)),
                        rows: vec![],
                        slots: 0,
                        span: t.name.span,
                    });
                    self.pend.tables.push((Rc::new(t.clone()), State::Todo));
                }
                ast::Item::Modifiers(m) => {
                    let id = idx(self.prog.modifiers.len());
                    self.define(&m.name, Global::Modifiers(id));
                    let params = self.params(&m.params);
                    self.prog.modifiers.push(ModifiersInfo {
                        name: rc(&m.name.node),
                        params,
                        cite: m.cite.as_ref().map(|c| rc(&c.node)),
                        modifiers: vec![],
                        slots: 0,
                        ret: Ty::Int,
                        span: m.name.span,
                    });
                    self.pend.modifiers.push((Rc::new(m.clone()), State::Todo));
                }
                _ => {}
            }
        }
    }

    fn params(&mut self, ps: &[ast::Param]) -> Vec<ParamInfo> {
        let mut out: Vec<ParamInfo> = Vec::new();
        for p in ps {
            if out.iter().any(|q| *q.name == *p.name.node) {
                self.err(Diag::at(
                    "umpire::check::duplicate",
                    format!("parameter `{}` is declared twice", p.name.node),
                    p.name.span,
                    "declared again",
                ));
                continue;
            }
            let (ty, range) = self.ty(&p.ty);
            // A default is a constant expression: no parameters in scope. Names of
            // consts and enum values resolve; a rule called here is checked on demand.
            let default = p.default.as_ref().map(|d| {
                let mut scope = Scope::default();
                let (e, t) = self.expr(d, &mut scope, Some(&ty));
                self.expect_ty(&t, &ty, d.span);
                ranged(
                    fresh(e, &scope),
                    range,
                    format!("the default of `{}`", p.name.node),
                )
            });
            out.push(ParamInfo {
                name: rc(&p.name.node),
                ty,
                range,
                span: p.name.span,
                default,
            });
        }
        out
    }

    fn ty(&mut self, t: &ast::TypeExpr) -> (Ty, Option<IntRange>) {
        match t {
            ast::TypeExpr::Range { lo, hi, span } => {
                if hi.is_some_and(|h| h < *lo) {
                    self.err(Diag::at(
                        "umpire::check::range",
                        "empty range: the upper bound is below the lower",
                        *span,
                        "empty",
                    ));
                }
                (Ty::Int, Some(IntRange { lo: *lo, hi: *hi }))
            }
            ast::TypeExpr::Pair(a, b, span) => {
                let (ta, _) = self.ty(a);
                let (tb, _) = self.ty(b);
                if ta != tb {
                    self.err(Diag::at(
                        "umpire::check::pair_type",
                        "both parts of a pair have one type",
                        *span,
                        "two different types",
                    ));
                }
                (Ty::Pair(Box::new(ta)), None)
            }
            ast::TypeExpr::Named(n) => {
                let ty = match n.node.as_str() {
                    "Int" => Ty::Int,
                    "Num" | "Number" => Ty::Num,
                    "Length" => Ty::Length,
                    "Time" | "Moves" => Ty::Time,
                    "Bool" => Ty::Bool,
                    "Text" => Ty::Text,
                    other => match self.prog.globals.get(other) {
                        Some(Global::EnumType(e)) => Ty::Enum(*e),
                        Some(Global::RecordType(r)) => self
                            .prog
                            .records
                            .get(*r as usize)
                            .map_or(Ty::Any, |r| Ty::Record(r.shape.clone())),
                        _ => {
                            let mut names: Vec<String> =
                                ["Int", "Num", "Length", "Time", "Bool", "Text"]
                                    .iter()
                                    .map(|s| s.to_string())
                                    .collect();
                            names.extend(
                                self.prog
                                    .globals
                                    .iter()
                                    .filter(|(_, g)| {
                                        matches!(g, Global::EnumType(_) | Global::RecordType(_))
                                    })
                                    .map(|(k, _)| k.clone()),
                            );
                            let d = Diag::at(
                                "umpire::check::unknown_type",
                                format!("unknown type `{other}`"),
                                n.span,
                                "not a type",
                            )
                            .suggest(other, names.iter().map(|s| s.as_str()));
                            self.err(d);
                            Ty::Any
                        }
                    },
                };
                (ty, None)
            }
        }
    }

    // ------------------------------------------------------------------ definitions

    fn check_all(&mut self) {
        // Field defaults may build records declared later: as with the shapes, each pass
        // sees the defaults of the one before; errors count on the last.
        let pending = std::mem::take(&mut self.pend.records);
        for pass in 0..pending.len() {
            let mark = self.errors.len();
            self.record_defaults(&pending);
            if pass + 1 < pending.len() {
                self.errors.truncate(mark);
            }
        }
        self.check_definitions();
    }

    fn record_defaults(&mut self, pending: &[(u32, Rc<ast::RecordDef>)]) {
        for (id, def) in pending.iter().cloned() {
            let Some(info) = self.prog.records.get(id as usize).cloned() else {
                continue;
            };
            let mut defaults = Vec::new();
            for f in &def.fields {
                let fty = info
                    .shape
                    .fields
                    .iter()
                    .find(|(n, _)| **n == *f.name.node)
                    .map(|(_, t)| t.clone())
                    .unwrap_or(Ty::Any);
                defaults.push(f.default.as_ref().map(|d| {
                    let mut scope = Scope::default();
                    let (e, t) = self.expr(d, &mut scope, Some(&fty));
                    self.expect_ty(&t, &fty, d.span);
                    ranged(
                        fresh(e, &scope),
                        declared_range(Some(&f.ty)),
                        format!("the default of field `{}`", f.name.node),
                    )
                }));
            }
            if let Some(info) = self.prog.records.get_mut(id as usize) {
                info.defaults = defaults;
            }
        }
    }

    fn check_definitions(&mut self) {
        for i in 0..self.pend.consts.len() {
            self.check_const(i);
        }
        for i in 0..self.pend.rules.len() {
            self.check_rule(i);
        }
        for i in 0..self.pend.tables.len() {
            self.check_table(i);
        }
        for i in 0..self.pend.modifiers.len() {
            self.check_modifiers(i);
        }
    }

    fn with_cite<T>(&mut self, cite: Option<Rc<str>>, f: impl FnOnce(&mut Self) -> T) -> T {
        let saved = std::mem::replace(&mut self.cite, cite);
        let out = f(self);
        self.cite = saved;
        out
    }

    fn check_const(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.consts.get(i).cloned() else {
            return;
        };
        self.pend.consts[i].1 = State::Busy;
        let declared = self.prog.consts[i].ty.clone();
        let cite = self.prog.consts[i].cite.clone();
        let mut scope = Scope::default();
        let (e, ty) = self.with_cite(cite, |c| c.expr(&def.value, &mut scope, Some(&declared)));
        let e = ranged(
            e,
            declared_range(def.ty.as_ref()),
            format!("constant `{}`", def.name.node),
        );
        let ty = if declared == Ty::Any {
            ty
        } else {
            self.expect_ty(&ty, &declared, def.value.span);
            declared
        };
        let info = &mut self.prog.consts[i];
        info.value = e;
        info.ty = ty;
        info.slots = scope.slots;
        self.pend.consts[i].1 = State::Done;
    }

    fn check_rule(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.rules.get(i).cloned() else {
            return;
        };
        self.pend.rules[i].1 = State::Busy;
        let info = self.prog.rules[i].clone();
        let mut scope = Scope::default();
        for p in &info.params {
            scope.bind(&p.name, p.ty.clone());
        }
        let declared = info.ret.clone();
        let expected = if declared == Ty::Any {
            None
        } else {
            Some(&declared)
        };
        let (body, ty) = self.with_cite(info.cite.clone(), |c| {
            c.block(&def.body, &mut scope, expected)
        });
        if expected.is_some() {
            self.expect_ty(&ty, &declared, def.body.value.span);
        }
        let body = ranged(
            body,
            declared_range(def.returns.as_ref()),
            format!("the result of `{}`", def.name.node),
        );
        let r = &mut self.prog.rules[i];
        r.body = body;
        r.slots = scope.slots;
        if declared == Ty::Any {
            r.ret = ty;
        }
        self.pend.rules[i].1 = State::Done;
    }

    fn check_table(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.tables.get(i).cloned() else {
            return;
        };
        self.pend.tables[i].1 = State::Busy;
        let info = self.prog.tables[i].clone();
        let mut scope = Scope::default();
        for p in &info.params {
            scope.bind(&p.name, p.ty.clone());
        }
        let declared = info.ret.clone();
        let mut joined = if declared == Ty::Any {
            Ty::Never
        } else {
            declared.clone()
        };
        let mut rows = Vec::new();
        self.with_cite(info.cite.clone(), |c| {
            for row in &def.rows {
                // `otherwise => ...` alone stands for every key.
                let expanded;
                let row = if info.keys > 1 && row.patterns.len() == 1 && matches!(row.patterns[0], ast::Pattern::Any(_)) {
                    expanded = ast::Row { patterns: vec![row.patterns[0].clone(); info.keys], ..row.clone() };
                    &expanded
                } else {
                    row
                };
                if row.patterns.len() != info.keys {
                    c.err(Diag::at("umpire::check::row_keys", format!("this row gives {} key(s); the table has {}", row.patterns.len(), info.keys), row.span, "wrong number of keys")
                        .help("separate the keys of a row with `|`; alternatives within a key with `,`"));
                    continue;
                }
                let patterns: Vec<Pat> = row.patterns.iter().zip(&info.params).map(|(p, param)| c.pattern(p, &param.ty)).collect();
                let expected = if declared == Ty::Any { None } else { Some(&declared) };
                let (cell, ty) = c.expr(&row.cell, &mut scope, expected);
                let cell = ranged(cell, declared_range(def.returns.as_ref()), format!("a cell of `{}`", def.name.node));
                if declared == Ty::Any {
                    joined = c.join(&joined, &ty, row.cell.span);
                } else {
                    c.expect_ty(&ty, &declared, row.cell.span);
                }
                let mut text = c.prog.sources.snippet(row.span).split_whitespace().collect::<Vec<_>>().join(" ");
                if let Some(col) = row.column {
                    text = format!("{text}` of column `{}", c.prog.sources.snippet(col).trim());
                }
                rows.push(RowInfo { patterns, cell, text: rc(&text) });
            }
        });
        let t = &mut self.prog.tables[i];
        t.rows = rows;
        t.slots = scope.slots;
        t.ret = joined;
        self.pend.tables[i].1 = State::Done;
    }

    fn check_modifiers(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.modifiers.get(i).cloned() else {
            return;
        };
        self.pend.modifiers[i].1 = State::Busy;
        let info = self.prog.modifiers[i].clone();
        let mut scope = Scope::default();
        for p in &info.params {
            scope.bind(&p.name, p.ty.clone());
        }
        let mut ret = Ty::Int;
        let mut mods = Vec::new();
        self.with_cite(info.cite.clone(), |c| {
            for m in &def.modifiers {
                let (amount, t) = c.expr(&m.amount, &mut scope, Some(&Ty::Num));
                c.expect_ty(&t, &Ty::Num, m.amount.span);
                if t == Ty::Num {
                    ret = Ty::Num;
                }
                let per = m.per.as_ref().map(|p| {
                    let (e, t) = c.expr(p, &mut scope, Some(&Ty::Num));
                    c.expect_ty(&t, &Ty::Num, p.span);
                    if t == Ty::Num {
                        ret = Ty::Num;
                    }
                    e
                });
                let condition = m.condition.as_ref().map(|p| {
                    let (e, t) = c.expr(p, &mut scope, Some(&Ty::Bool));
                    c.expect_ty(&t, &Ty::Bool, p.span);
                    e
                });
                mods.push(ModifierInfo {
                    label: rc(&m.label.node),
                    amount,
                    per,
                    condition,
                });
            }
        });
        let t = &mut self.prog.modifiers[i];
        t.modifiers = mods;
        t.slots = scope.slots;
        t.ret = ret;
        self.pend.modifiers[i].1 = State::Done;
    }

    fn check_examples(&mut self, file: &ast::File) {
        for item in &file.items {
            let ast::Item::Example(ex) = item else {
                continue;
            };
            let mut checks = Vec::new();
            for chk in &ex.checks {
                let mut scope = Scope::default();
                let (e, ty) = self.expr(&chk.expr, &mut scope, None);
                if chk.expect.is_none() {
                    self.expect_ty(&ty, &Ty::Bool, chk.expr.span);
                }
                checks.push(CheckInfo {
                    query: Query {
                        expr: e,
                        slots: scope.slots,
                        ty,
                    },
                    expect: chk.expect,
                    span: chk.span,
                });
            }
            if ex.seed.is_some() && !ex.rolls.is_empty() {
                self.err(Diag::at("umpire::check::example_dice", format!("example \"{}\" gives both a seed and rolls", ex.name.node), ex.name.span, "which dice?")
                    .help("use `given rolls ...` for rolls the players made, or `seed N` for seeded dice, not both"));
            }
            if self.prog.examples.iter().any(|e| e.name == ex.name.node) {
                self.err(Diag::at(
                    "umpire::check::duplicate",
                    format!("example \"{}\" is defined twice", ex.name.node),
                    ex.name.span,
                    "defined again",
                ));
            }
            self.prog.examples.push(ExampleInfo {
                name: ex.name.node.clone(),
                rolls: ex.rolls.iter().map(|r| (r.node, r.span)).collect(),
                seed: ex.seed,
                checks,
                span: ex.name.span,
            });
        }
    }

    fn rule_ret(&mut self, id: u32, span: Span) -> Ty {
        let i = id as usize;
        let busy = self
            .pend
            .rules
            .get(i)
            .is_some_and(|(_, s)| *s == State::Busy);
        if busy && self.prog.rules[i].ret == Ty::Any {
            let name = self.prog.rules[i].name.clone();
            self.err(
                Diag::at(
                    "umpire::check::recursive_result",
                    format!("`{name}` calls itself, so its result type must be declared"),
                    span,
                    "a call of a rule still being checked",
                )
                .help(format!(
                    "declare what `{name}` gives, e.g. `rule {name}(...) -> Int`"
                )),
            );
        }
        if self
            .pend
            .rules
            .get(i)
            .is_some_and(|(_, s)| *s == State::Todo)
            && self.prog.rules[i].ret == Ty::Any
        {
            self.check_rule(i);
        }
        self.prog.rules.get(i).map_or(Ty::Any, |r| r.ret.clone())
    }

    fn table_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if self
            .pend
            .tables
            .get(i)
            .is_some_and(|(_, s)| *s == State::Todo)
            && self.prog.tables[i].ret == Ty::Any
        {
            self.check_table(i);
        }
        self.prog.tables.get(i).map_or(Ty::Any, |t| t.ret.clone())
    }

    fn modifiers_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if self
            .pend
            .modifiers
            .get(i)
            .is_some_and(|(_, s)| *s == State::Todo)
        {
            self.check_modifiers(i);
        }
        self.prog
            .modifiers
            .get(i)
            .map_or(Ty::Int, |t| t.ret.clone())
    }

    fn const_ty(&mut self, id: u32) -> Ty {
        let i = id as usize;
        match self.pend.consts.get(i).map(|(_, s)| *s) {
            Some(State::Todo) => self.check_const(i),
            Some(State::Busy) => {
                let span = self.pend.consts[i].0.name.span;
                self.err(Diag::at(
                    "umpire::check::const_cycle",
                    format!("constant `{}` depends on itself", self.prog.consts[i].name),
                    span,
                    "defined in terms of itself",
                ));
            }
            _ => {}
        }
        self.prog.consts.get(i).map_or(Ty::Any, |c| c.ty.clone())
    }

    // ------------------------------------------------------------------ types

    /// Reports an error unless a value of type `actual` may stand where `expected` is wanted.
    fn expect_ty(&mut self, actual: &Ty, expected: &Ty, span: Span) -> bool {
        if compatible(actual, expected) {
            return true;
        }
        let mut d = Diag::at(
            "umpire::check::type",
            format!(
                "expected {}, found {}",
                expected.describe(self.prog),
                actual.describe(self.prog)
            ),
            span,
            format!("this is {}", actual.describe(self.prog)),
        );
        d = match (actual, expected) {
            (Ty::Num, Ty::Int) => {
                d.help("this may be a fraction: round it with floor(...), ceil(...) or round(...)")
            }
            (Ty::Int | Ty::Num, Ty::Length) => {
                d.help("make the number a length explicitly: inches(...) or feet(...)")
            }
            (Ty::Int | Ty::Num, Ty::Time) => {
                d.help("make the number a time explicitly: moves(...)")
            }
            _ => d,
        };
        self.err(d);
        false
    }

    /// The type of a value that may be either (branches of an `if`, cells of a table).
    fn join(&mut self, a: &Ty, b: &Ty, span: Span) -> Ty {
        match (a, b) {
            (Ty::Never, t) | (t, Ty::Never) => t.clone(),
            (Ty::Any, _) | (_, Ty::Any) => Ty::Any,
            (Ty::Int, Ty::Num) | (Ty::Num, Ty::Int) => Ty::Num,
            (Ty::Record(x), Ty::Record(y)) if compatible(a, b) && compatible(b, a) => {
                if x.name.is_some() {
                    a.clone()
                } else if y.name.is_some() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            _ if a == b => a.clone(),
            _ => {
                self.err(Diag::at(
                    "umpire::check::type",
                    format!("this is {}, but the value before it is {}", b.describe(self.prog), a.describe(self.prog)),
                    span,
                    "different type",
                ).help("every branch of an `if` or `match`, every cell of a table, both parts of a pair and all the arguments of `min`/`max` are the same kind of value"));
                Ty::Any
            }
        }
    }

    // ------------------------------------------------------------------ patterns

    fn pattern(&mut self, p: &ast::Pattern, ty: &Ty) -> Pat {
        let ast::Pattern::Alternatives(alts, _) = p else {
            return Pat::Any;
        };
        let mut out = Vec::new();
        for a in alts {
            let alt = match a {
                ast::Alternative::AtLeast(n, s) => self.int_pat(ty, *s).then_some(Alt::AtLeast(*n)),
                ast::Alternative::AtMost(n, s) => self.int_pat(ty, *s).then_some(Alt::AtMost(*n)),
                ast::Alternative::Range(a, b, s) => {
                    self.int_pat(ty, *s).then_some(Alt::Range(*a, *b))
                }
                ast::Alternative::Int(n, s) => self.int_pat(ty, *s).then_some(Alt::Range(*n, *n)),
                ast::Alternative::Bool(b, s) => {
                    if compatible(&Ty::Bool, ty) {
                        Some(Alt::Bool(*b))
                    } else {
                        self.err(Diag::at(
                            "umpire::check::pattern",
                            format!("this key is {}, not true/false", ty.describe(self.prog)),
                            *s,
                            "wrong kind of pattern",
                        ));
                        None
                    }
                }
                ast::Alternative::Name(q, n) => self.enum_pattern(q.as_ref(), n, ty),
            };
            out.extend(alt);
        }
        Pat::Alts(out)
    }

    fn int_pat(&mut self, ty: &Ty, span: Span) -> bool {
        if matches!(ty, Ty::Int | Ty::Num | Ty::Any) {
            return true;
        }
        self.err(Diag::at(
            "umpire::check::pattern",
            format!("this key is {}, not a number", ty.describe(self.prog)),
            span,
            "a number pattern",
        ));
        false
    }

    fn enum_pattern(&mut self, qual: Option<&ast::Name>, n: &ast::Name, ty: &Ty) -> Option<Alt> {
        let want = match (qual, ty) {
            (Some(q), _) => match self.prog.globals.get(&q.node) {
                Some(Global::EnumType(e)) => Some(*e),
                _ => {
                    self.err(Diag::at(
                        "umpire::check::unknown_name",
                        format!("`{}` is not an enum", q.node),
                        q.span,
                        "not an enum",
                    ));
                    return None;
                }
            },
            (None, Ty::Enum(e)) => Some(*e),
            (None, Ty::Any) => None,
            (None, other) => {
                let d = other.describe(self.prog);
                self.err(Diag::at(
                    "umpire::check::pattern",
                    format!("this key is {d}, not a named value"),
                    n.span,
                    "a name pattern",
                ));
                return None;
            }
        };
        match want {
            Some(e) => {
                let found = self
                    .prog
                    .enums
                    .get(usize::from(e))
                    .and_then(|en| en.values.iter().position(|v| *v.name == *n.node));
                match found {
                    Some(i) => Some(Alt::Enum(e, u16::try_from(i).unwrap_or(u16::MAX))),
                    None => {
                        let en = &self.prog.enums[usize::from(e)];
                        let names: Vec<String> =
                            en.values.iter().map(|v| v.name.to_string()).collect();
                        let d = Diag::at(
                            "umpire::check::unknown_value",
                            format!("`{}` is not a value of {}", n.node, en.name),
                            n.span,
                            format!("not a value of {}", en.name),
                        )
                        .suggest(&n.node, names.iter().map(|s| s.as_str()));
                        self.err(d);
                        None
                    }
                }
            }
            None => match self.prog.enum_values.get(&n.node).map(|v| v.as_slice()) {
                Some([(e, i)]) => Some(Alt::Enum(*e, *i)),
                _ => {
                    self.err(Diag::at(
                        "umpire::check::unknown_value",
                        format!("`{}` is not a known value", n.node),
                        n.span,
                        "unknown",
                    ));
                    None
                }
            },
        }
    }

    // ------------------------------------------------------------------ expressions

    fn block(&mut self, b: &ast::Block, scope: &mut Scope, expected: Option<&Ty>) -> (Expr, Ty) {
        let mark = scope.vars.len();
        let mut stmts = Vec::new();
        for s in &b.stmts {
            match s {
                ast::Stmt::Let(name, ty, value) => {
                    let (declared, range) = match ty.as_ref().map(|t| self.ty(t)) {
                        Some((d, r)) => (Some(d), r),
                        None => (None, None),
                    };
                    let (e, t) = self.expr(value, scope, declared.as_ref());
                    let e = ranged(e, range, format!("`{}`", name.node));
                    let t = match declared {
                        Some(d) => {
                            self.expect_ty(&t, &d, value.span);
                            d
                        }
                        None => t,
                    };
                    let slot = scope.bind(&name.node, t);
                    stmts.push(Stmt::Let(slot, e));
                }
                ast::Stmt::Note(n) => stmts.push(Stmt::Note(rc(&n.node))),
                ast::Stmt::Guard(e) => {
                    let (e, _) = self.guard(e, scope);
                    stmts.push(Stmt::Guard(e));
                }
            }
        }
        let (v, t) = self.expr(&b.value, scope, expected);
        scope.vars.truncate(mark);
        if stmts.is_empty() {
            return (v, t);
        }
        (
            Expr {
                kind: ExprKind::Block(stmts, Box::new(v)),
                span: b.span,
            },
            t,
        )
    }

    /// An `if` used as a statement: branches may be of any type; no `else` needed.
    fn guard(&mut self, e: &ast::Expr, scope: &mut Scope) -> (Expr, Ty) {
        let ast::ExprKind::If(arms, otherwise) = &e.kind else {
            return self.expr(e, scope, None);
        };
        let mut out = Vec::new();
        // A guard stops the rule (a refusal, a gap) or lets it go on: a value from one of
        // its branches would be thrown away, so it is an error, not a silent no-op.
        let unused = |c: &mut Self, t: &Ty, span: Span| {
            if !matches!(t, Ty::Never) {
                c.err(
                    Diag::at("umpire::check::unused_value", "this `if` gives a value that is not used", span, "value not used")
                        .help("an `if` before a block's last line may only `refuse` or say `not given`; to choose a value, make the `if` the last line, with an `else`"),
                );
            }
        };
        for (c, b) in arms {
            let (ce, ct) = self.expr(c, scope, Some(&Ty::Bool));
            self.expect_ty(&ct, &Ty::Bool, c.span);
            let (be, bt) = self.block(b, scope, None);
            unused(self, &bt, b.value.span);
            out.push((ce, be));
        }
        let other = otherwise.as_ref().map(|b| {
            let (be, bt) = self.block(b, scope, None);
            unused(self, &bt, b.value.span);
            Box::new(be)
        });
        (
            Expr {
                kind: ExprKind::If(out, other),
                span: e.span,
            },
            Ty::Any,
        )
    }

    fn expr(&mut self, e: &ast::Expr, scope: &mut Scope, expected: Option<&Ty>) -> (Expr, Ty) {
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            ast::ExprKind::Number(r) => (
                mk(ExprKind::Value(Value::Num(*r))),
                if r.is_integer() { Ty::Int } else { Ty::Num },
            ),
            ast::ExprKind::Length(r, unit) => {
                let inches = match unit {
                    LengthUnit::Inches => Some(*r),
                    LengthUnit::Feet => r.checked_mul(&Rational::from_integer(12)),
                };
                match inches {
                    Some(inches) => (
                        mk(ExprKind::Value(Value::Length(Length {
                            inches,
                            unit: *unit,
                        }))),
                        Ty::Length,
                    ),
                    None => {
                        self.err(Diag::at(
                            "umpire::eval::overflow",
                            "this length is too large to hold exactly",
                            span,
                            "too large",
                        ));
                        (dummy(span), Ty::Length)
                    }
                }
            }
            ast::ExprKind::Time(r) => (mk(ExprKind::Value(Value::Time(*r))), Ty::Time),
            ast::ExprKind::Bool(b) => (mk(ExprKind::Value(Value::Bool(*b))), Ty::Bool),
            ast::ExprKind::Text(t) => (mk(ExprKind::Value(Value::Text(rc(t)))), Ty::Text),
            ast::ExprKind::Dice { count, sides } => {
                let sides = match sides {
                    Some(s) => *s,
                    None => match self.prog.default_die {
                        Some(s) => s,
                        None => {
                            self.err(Diag::at("umpire::check::no_default_die", "this ruleset does not say which die \"1 die\" is", span, "which die?")
                                .help("name the die, like `d6`, or declare the ruleset's die with `die d6`"));
                            6
                        }
                    },
                };
                if *count > MAX_DICE {
                    self.err(Diag::at(
                        "umpire::limit::dice",
                        format!("more than {MAX_DICE} dice in one roll"),
                        span,
                        "too many dice",
                    ));
                }
                if sides == 0 || sides > MAX_SIDES {
                    self.err(Diag::at(
                        "umpire::limit::dice",
                        format!("a die must have 1 to {MAX_SIDES} sides"),
                        span,
                        "no such die",
                    ));
                }
                (
                    mk(ExprKind::Dice {
                        count: *count,
                        sides,
                    }),
                    Ty::Int,
                )
            }
            ast::ExprKind::Name(n) => self.name(n, span, scope, expected),
            ast::ExprKind::Field(base, field) => self.field(base, field, span, scope),
            ast::ExprKind::Call(name, args) => self.call(name, args, span, scope),
            ast::ExprKind::Unary(op, x) => {
                let want = if *op == UnOp::Not {
                    Some(Ty::Bool)
                } else {
                    None
                };
                let (xe, xt) = self.expr(x, scope, want.as_ref());
                match op {
                    UnOp::Not => {
                        self.expect_ty(&xt, &Ty::Bool, x.span);
                        (mk(ExprKind::Not(Box::new(xe))), Ty::Bool)
                    }
                    UnOp::Neg | UnOp::Pos => {
                        if !matches!(
                            xt,
                            Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Any | Ty::Never
                        ) {
                            let d = xt.describe(self.prog);
                            self.err(Diag::at(
                                "umpire::check::type",
                                format!("cannot take the sign of {d}"),
                                x.span,
                                "not a number",
                            ));
                        }
                        if *op == UnOp::Pos {
                            (xe, xt)
                        } else {
                            (mk(ExprKind::Neg(Box::new(xe))), xt)
                        }
                    }
                }
            }
            ast::ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span, scope),
            ast::ExprKind::If(arms, otherwise) => {
                let Some(otherwise) = otherwise else {
                    self.err(Diag::at("umpire::check::if_without_else", "this `if` has no `else`, so it gives no value when its condition is false", span, "no `else`")
                        .help("add `else { ... }`; an `if` without `else` may only stand as a guard before a block's last line"));
                    return (dummy(span), Ty::Any);
                };
                let mut out = Vec::new();
                let mut ty = Ty::Never;
                for (c, b) in arms {
                    let (ce, ct) = self.expr(c, scope, Some(&Ty::Bool));
                    self.expect_ty(&ct, &Ty::Bool, c.span);
                    let (be, bt) = self.block(b, scope, expected);
                    ty = self.join(&ty, &bt, b.value.span);
                    out.push((ce, be));
                }
                let (oe, ot) = self.block(otherwise, scope, expected);
                ty = self.join(&ty, &ot, otherwise.value.span);
                (mk(ExprKind::If(out, Some(Box::new(oe)))), ty)
            }
            ast::ExprKind::Match(scrutinee, rows) => {
                let (se, st) = self.expr(scrutinee, scope, None);
                let mut arms = Vec::new();
                let mut ty = Ty::Never;
                for row in rows {
                    if row.patterns.len() != 1 {
                        self.err(Diag::at(
                            "umpire::check::row_keys",
                            "a `match` arm has one pattern",
                            row.span,
                            "use `,` between alternatives",
                        ));
                        continue;
                    }
                    let pat = self.pattern(&row.patterns[0], &st);
                    let (ce, ct) = self.expr(&row.cell, scope, expected);
                    ty = self.join(&ty, &ct, row.cell.span);
                    let text = self
                        .prog
                        .sources
                        .snippet(row.span)
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" ");
                    arms.push((pat, ce, rc(&text)));
                }
                (mk(ExprKind::Match(Box::new(se), arms)), ty)
            }
            ast::ExprKind::Record(fields) => self.record(fields, span, scope, expected),
            ast::ExprKind::Pair(a, b) => {
                let inner = match expected {
                    Some(Ty::Pair(t)) => Some((**t).clone()),
                    _ => None,
                };
                let (ae, at) = self.expr(a, scope, inner.as_ref());
                let (be, bt) = self.expr(b, scope, inner.as_ref());
                let t = self.join(&at, &bt, b.span);
                (
                    mk(ExprKind::Pair(Box::new(ae), Box::new(be))),
                    Ty::Pair(Box::new(t)),
                )
            }
            ast::ExprKind::Refuse { reason, cite, .. } => {
                let cite = cite.as_deref().map(rc).or_else(|| self.cite.clone());
                (
                    mk(ExprKind::Refuse {
                        reason: rc(reason),
                        cite,
                    }),
                    Ty::Never,
                )
            }
            ast::ExprKind::NotGiven { what, cite } => {
                let cite = cite.as_deref().map(rc).or_else(|| self.cite.clone());
                (
                    mk(ExprKind::NotGiven {
                        what: rc(what),
                        cite,
                    }),
                    Ty::Never,
                )
            }
            ast::ExprKind::Block(b) => self.block(b, scope, expected),
        }
    }

    fn name(&mut self, n: &str, span: Span, scope: &Scope, expected: Option<&Ty>) -> (Expr, Ty) {
        let mk = |kind| Expr { kind, span };
        if let Some((slot, ty)) = scope.lookup(n) {
            return (mk(ExprKind::Local(slot)), ty);
        }
        if let Some(Ty::Enum(e)) = expected {
            if let Some(i) = self
                .prog
                .enums
                .get(usize::from(*e))
                .and_then(|en| en.values.iter().position(|v| *v.name == *n))
            {
                return (
                    mk(ExprKind::Value(Value::Enum(
                        *e,
                        u16::try_from(i).unwrap_or(u16::MAX),
                    ))),
                    Ty::Enum(*e),
                );
            }
        }
        match self.prog.globals.get(n).cloned() {
            Some(Global::Const(id)) => {
                let ty = self.const_ty(id);
                return (mk(ExprKind::Const(id)), ty);
            }
            Some(Global::Rule(_) | Global::Table(_) | Global::Modifiers(_)) => {
                self.err(
                    Diag::at(
                        "umpire::check::not_called",
                        format!("`{n}` needs its arguments"),
                        span,
                        "call it",
                    )
                    .help(format!("write `{n}(...)`")),
                );
                return (dummy(span), Ty::Any);
            }
            Some(Global::EnumType(_) | Global::RecordType(_)) => {
                self.err(
                    Diag::at(
                        "umpire::check::type_as_value",
                        format!("`{n}` is a type, not a value"),
                        span,
                        "a type",
                    )
                    .help(format!("for one of its values write `{n}.value`")),
                );
                return (dummy(span), Ty::Any);
            }
            None => {}
        }
        match self.prog.enum_values.get(n).map(|v| v.as_slice()) {
            Some([(e, i)]) => (mk(ExprKind::Value(Value::Enum(*e, *i))), Ty::Enum(*e)),
            Some(many) => {
                let types: Vec<String> = many
                    .iter()
                    .filter_map(|(e, _)| {
                        self.prog
                            .enums
                            .get(usize::from(*e))
                            .map(|en| format!("{}.{n}", en.name))
                    })
                    .collect();
                self.err(
                    Diag::at(
                        "umpire::check::ambiguous",
                        format!("`{n}` is a value of more than one enum"),
                        span,
                        "which one?",
                    )
                    .help(format!("write {}", types.join(" or "))),
                );
                (dummy(span), Ty::Any)
            }
            None => {
                let mut names = self.all_names();
                names.extend(scope.vars.iter().map(|(v, _, _)| v.clone()));
                let d = Diag::at(
                    "umpire::check::unknown_name",
                    format!("unknown name `{n}`"),
                    span,
                    "not defined",
                )
                .suggest(n, names.iter().map(|s| s.as_str()));
                self.err(d);
                (dummy(span), Ty::Any)
            }
        }
    }

    fn field(
        &mut self,
        base: &ast::Expr,
        field: &ast::Name,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        // `Grade.line`: a qualified enum value.
        if let ast::ExprKind::Name(n) = &base.kind {
            if scope.lookup(n).is_none() {
                if let Some(Global::EnumType(e)) = self.prog.globals.get(n).cloned() {
                    let en = &self.prog.enums[usize::from(e)];
                    return match en.values.iter().position(|v| *v.name == *field.node) {
                        Some(i) => (
                            Expr {
                                kind: ExprKind::Value(Value::Enum(
                                    e,
                                    u16::try_from(i).unwrap_or(u16::MAX),
                                )),
                                span,
                            },
                            Ty::Enum(e),
                        ),
                        None => {
                            let names: Vec<String> =
                                en.values.iter().map(|v| v.name.to_string()).collect();
                            let d = Diag::at(
                                "umpire::check::unknown_value",
                                format!("`{}` is not a value of {}", field.node, en.name),
                                field.span,
                                "no such value",
                            )
                            .suggest(&field.node, names.iter().map(|s| s.as_str()));
                            self.err(d);
                            (dummy(span), Ty::Any)
                        }
                    };
                }
            }
        }
        let (be, bt) = self.expr(base, scope, None);
        let fty = match &bt {
            Ty::Record(shape) => match shape.fields.iter().find(|(n, _)| **n == *field.node) {
                Some((_, t)) => t.clone(),
                None => {
                    let names: Vec<&str> = shape.fields.iter().map(|(n, _)| &**n).collect();
                    let d = Diag::at(
                        "umpire::check::unknown_field",
                        format!("{} has no field `{}`", bt.describe(self.prog), field.node),
                        field.span,
                        "no such field",
                    )
                    .suggest(&field.node, names);
                    self.err(d);
                    Ty::Any
                }
            },
            Ty::Pair(t) => match field.node.as_str() {
                "first" | "second" => (**t).clone(),
                other => {
                    let d = Diag::at(
                        "umpire::check::unknown_field",
                        format!("a pair has parts `first` and `second`, not `{other}`"),
                        field.span,
                        "no such part",
                    )
                    .suggest(other, ["first", "second"]);
                    self.err(d);
                    Ty::Any
                }
            },
            Ty::Any => Ty::Any,
            other => {
                let d = other.describe(self.prog);
                self.err(Diag::at(
                    "umpire::check::unknown_field",
                    format!("{d} has no fields"),
                    field.span,
                    "no fields here",
                ));
                Ty::Any
            }
        };
        (
            Expr {
                kind: ExprKind::Field(Box::new(be), rc(&field.node)),
                span,
            },
            fty,
        )
    }

    fn record(
        &mut self,
        fields: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let declared = match expected {
            Some(Ty::Record(shape)) if shape.name.is_some() => self
                .prog
                .records
                .iter()
                .position(|r| r.shape.name == shape.name),
            _ => None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (n, _) in fields {
            if seen.contains(&n.node.as_str()) {
                self.err(Diag::at(
                    "umpire::check::duplicate",
                    format!("field `{}` given twice", n.node),
                    n.span,
                    "again",
                ));
            }
            seen.push(&n.node);
        }
        let Some(rid) = declared else {
            let mut out = Vec::new();
            let mut tys = Vec::new();
            for (n, e) in fields {
                let (fe, ft) = self.expr(e, scope, None);
                out.push((rc(&n.node), fe));
                tys.push((rc(&n.node), ft));
            }
            return (
                Expr {
                    kind: ExprKind::Record(out),
                    span,
                },
                Ty::Record(Rc::new(RecordShape {
                    name: None,
                    fields: tys,
                })),
            );
        };
        let info = self.prog.records[rid].clone();
        for (n, _) in fields {
            if !info.shape.fields.iter().any(|(f, _)| **f == *n.node) {
                let names: Vec<&str> = info.shape.fields.iter().map(|(f, _)| &**f).collect();
                let d = Diag::at(
                    "umpire::check::unknown_field",
                    format!("{} has no field `{}`", info.name, n.node),
                    n.span,
                    "no such field",
                )
                .suggest(&n.node, names);
                self.err(d);
            }
        }
        let mut out = Vec::new();
        for (i, (fname, fty)) in info.shape.fields.iter().enumerate() {
            match fields.iter().find(|(n, _)| *n.node == **fname) {
                Some((_, e)) => {
                    let (fe, ft) = self.expr(e, scope, Some(fty));
                    self.expect_ty(&ft, fty, e.span);
                    let range = info.ranges.get(i).copied().flatten();
                    out.push((
                        fname.clone(),
                        ranged(fe, range, format!("field `{fname}` of {}", info.name)),
                    ));
                }
                None => match info.defaults.get(i).cloned().flatten() {
                    Some(d) => out.push((fname.clone(), d)),
                    None => {
                        self.err(Diag::at(
                            "umpire::check::missing_field",
                            format!("field `{fname}` of {} is missing", info.name),
                            span,
                            format!("no `{fname}`"),
                        ));
                    }
                },
            }
        }
        (
            Expr {
                kind: ExprKind::Record(out),
                span,
            },
            Ty::Record(info.shape.clone()),
        )
    }

    fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (ae, at) = match op {
            BinOp::And | BinOp::Or => self.expr(a, scope, Some(&Ty::Bool)),
            _ => self.expr(a, scope, None),
        };
        let hint = match (&at, op) {
            (Ty::Enum(_), BinOp::Eq | BinOp::Ne) => Some(at.clone()),
            (_, BinOp::And | BinOp::Or) => Some(Ty::Bool),
            _ => None,
        };
        let (be, bt) = self.expr(b, scope, hint.as_ref());
        let ty = self.binary_ty(op, &at, &bt, a.span, b.span, span);
        (
            Expr {
                kind: ExprKind::Binary(op, Box::new(ae), Box::new(be)),
                span,
            },
            ty,
        )
    }

    fn binary_ty(&mut self, op: BinOp, a: &Ty, b: &Ty, aspan: Span, bspan: Span, span: Span) -> Ty {
        use Ty::*;
        let dim = |t: &Ty| -> Option<u8> {
            match t {
                Int | Num => Some(0),
                Length => Some(1),
                Time => Some(2),
                _ => None,
            }
        };
        if matches!(a, Any | Never) || matches!(b, Any | Never) {
            return match op {
                BinOp::Eq
                | BinOp::Ne
                | BinOp::Lt
                | BinOp::Le
                | BinOp::Gt
                | BinOp::Ge
                | BinOp::And
                | BinOp::Or => Bool,
                _ => {
                    let other = if matches!(a, Any | Never) { b } else { a };
                    if matches!(other, Any | Never) {
                        Any
                    } else {
                        other.clone()
                    }
                }
            };
        }
        let describe = |c: &Self, t: &Ty| t.describe(c.prog);
        match op {
            BinOp::And | BinOp::Or => {
                self.expect_ty(a, &Bool, aspan);
                self.expect_ty(b, &Bool, bspan);
                Bool
            }
            BinOp::Eq | BinOp::Ne => {
                let ok = compatible(a, b) || compatible(b, a);
                if !ok {
                    let (da, db) = (describe(self, a), describe(self, b));
                    self.err(
                        Diag::at(
                            "umpire::check::type",
                            format!("cannot compare {da} with {db}"),
                            span,
                            "different kinds of value",
                        )
                        .label(aspan, da)
                        .label(bspan, db),
                    );
                }
                Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                if dim(a).is_none() || dim(a) != dim(b) {
                    let (da, db) = (describe(self, a), describe(self, b));
                    let mut d = Diag::at(
                        "umpire::check::type",
                        format!("cannot compare {da} with {db}"),
                        span,
                        "different kinds of value",
                    )
                    .label(aspan, da.clone())
                    .label(bspan, db);
                    if dim(a) == Some(1) || dim(b) == Some(1) {
                        d = d.help("a length compares only with a length: write the number with its unit, like `6\"`");
                    }
                    self.err(d);
                }
                Bool
            }
            BinOp::Add | BinOp::Sub => match (dim(a), dim(b)) {
                (Some(x), Some(y)) if x == y => {
                    if x == 0 {
                        if *a == Int && *b == Int {
                            Int
                        } else {
                            Num
                        }
                    } else {
                        a.clone()
                    }
                }
                _ => {
                    let (da, db) = (describe(self, a), describe(self, b));
                    let verb = if op == BinOp::Add { "add" } else { "subtract" };
                    let mut d = Diag::at(
                        "umpire::check::units",
                        format!(
                            "cannot {verb} {db} {} {da}",
                            if op == BinOp::Add { "to" } else { "from" }
                        ),
                        span,
                        "mixed units",
                    )
                    .label(aspan, da)
                    .label(bspan, db);
                    if matches!((dim(a), dim(b)), (Some(1), Some(0)) | (Some(0), Some(1))) {
                        d = d.help("a length plus a plain number has no meaning: make the number a length with inches(...), e.g. `4\" + inches(d6)`");
                    } else if matches!((dim(a), dim(b)), (Some(2), Some(0)) | (Some(0), Some(2))) {
                        d = d.help("make the number a time with moves(...)");
                    }
                    self.err(d);
                    Any
                }
            },
            BinOp::Mul => match (dim(a), dim(b)) {
                (Some(0), Some(0)) => {
                    if *a == Int && *b == Int {
                        Int
                    } else {
                        Num
                    }
                }
                (Some(0), Some(_)) => b.clone(),
                (Some(_), Some(0)) => a.clone(),
                _ => {
                    let (da, db) = (describe(self, a), describe(self, b));
                    self.err(
                        Diag::at(
                            "umpire::check::units",
                            format!("cannot multiply {da} by {db}"),
                            span,
                            "no such unit",
                        )
                        .label(aspan, da)
                        .label(bspan, db)
                        .help("multiply a length or time by a plain number"),
                    );
                    Any
                }
            },
            BinOp::Div => match (dim(a), dim(b)) {
                (Some(0), Some(0)) => Num,
                (Some(x), Some(y)) if x == y => Num,
                (Some(_), Some(0)) => a.clone(),
                _ => {
                    let (da, db) = (describe(self, a), describe(self, b));
                    self.err(
                        Diag::at(
                            "umpire::check::units",
                            format!("cannot divide {da} by {db}"),
                            span,
                            "no such unit",
                        )
                        .label(aspan, da)
                        .label(bspan, db),
                    );
                    Any
                }
            },
            BinOp::Rem => {
                self.expect_ty(a, &Int, aspan);
                self.expect_ty(b, &Int, bspan);
                Int
            }
        }
    }

    fn call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let mk = |callee, args| Expr {
            kind: ExprKind::Call(callee, args),
            span,
        };
        if let Some((_, b)) = Builtin::ALL.iter().find(|(n, _)| *n == name.node) {
            return self.builtin(*b, name, args, span, scope);
        }
        let (callee, params, what) = match self.prog.globals.get(&name.node).cloned() {
            Some(Global::Rule(id)) => (
                Callee::Rule(id),
                self.prog.rules[id as usize].params.clone(),
                "rule",
            ),
            Some(Global::Table(id)) => (
                Callee::Table(id),
                self.prog.tables[id as usize].params.clone(),
                "table",
            ),
            Some(Global::Modifiers(id)) => (
                Callee::Modifiers(id),
                self.prog.modifiers[id as usize].params.clone(),
                "modifier list",
            ),
            Some(_) => {
                self.err(Diag::at(
                    "umpire::check::not_callable",
                    format!("`{}` cannot be called", name.node),
                    name.span,
                    "not a rule, table or modifier list",
                ));
                return (dummy(span), Ty::Any);
            }
            None => {
                let mut names: Vec<String> = self
                    .prog
                    .callable_names()
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                names.extend(Builtin::ALL.iter().map(|(n, _)| n.to_string()));
                let d = Diag::at(
                    "umpire::check::unknown_name",
                    format!("unknown rule or table `{}`", name.node),
                    name.span,
                    "not defined",
                )
                .suggest(&name.node, names.iter().map(|s| s.as_str()));
                self.err(d);
                for a in args {
                    self.expr(&a.value, scope, None);
                }
                return (dummy(span), Ty::Any);
            }
        };
        let ordered = self.bind_args(&name.node, what, &params, args, span, scope);
        let ret = match callee {
            Callee::Rule(id) => self.rule_ret(id, span),
            Callee::Table(id) => self.table_ret(id),
            Callee::Modifiers(id) => self.modifiers_ret(id),
            Callee::Builtin(_) => Ty::Any,
        };
        (mk(callee, ordered), ret)
    }

    /// Matches positional and named arguments to parameters, checking each.
    fn bind_args(
        &mut self,
        fname: &str,
        what: &str,
        params: &[ParamInfo],
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> Vec<Expr> {
        let mut slots: Vec<Option<Expr>> = vec![None; params.len()];
        let mut positional = 0usize;
        let mut named_seen = false;
        for a in args {
            let i = match &a.name {
                None => {
                    if named_seen {
                        self.err(Diag::at(
                            "umpire::check::argument",
                            "a positional argument after a named one",
                            a.value.span,
                            "name this argument",
                        ));
                    }
                    positional += 1;
                    if positional > params.len() {
                        self.err(Diag::at(
                            "umpire::check::argument",
                            format!("{what} `{fname}` takes {} argument(s)", params.len()),
                            a.value.span,
                            "one too many",
                        ));
                        self.expr(&a.value, scope, None);
                        continue;
                    }
                    positional - 1
                }
                Some(n) => {
                    named_seen = true;
                    match params.iter().position(|p| *p.name == *n.node) {
                        Some(i) => i,
                        None => {
                            let names: Vec<&str> = params.iter().map(|p| &*p.name).collect();
                            let d = Diag::at(
                                "umpire::check::argument",
                                format!("{what} `{fname}` has no parameter `{}`", n.node),
                                n.span,
                                "unknown parameter",
                            )
                            .suggest(&n.node, names);
                            self.err(d);
                            self.expr(&a.value, scope, None);
                            continue;
                        }
                    }
                }
            };
            let p = &params[i];
            let (e, t) = self.expr(&a.value, scope, Some(&p.ty));
            self.expect_ty(&t, &p.ty, a.value.span);
            if slots[i].is_some() {
                self.err(Diag::at(
                    "umpire::check::argument",
                    format!("`{}` is given twice", p.name),
                    a.value.span,
                    "given again",
                ));
            }
            slots[i] = Some(e);
        }
        for (p, slot) in params.iter().zip(slots.iter_mut()) {
            if slot.is_none() {
                *slot = p.default.clone();
            }
        }
        let missing: Vec<&str> = params
            .iter()
            .zip(&slots)
            .filter(|(_, s)| s.is_none())
            .map(|(p, _)| &*p.name)
            .collect();
        if !missing.is_empty() {
            let list: Vec<String> = params
                .iter()
                .filter(|p| p.default.is_none())
                .map(|p| format!("{}: ...", p.name))
                .collect();
            self.err(
                Diag::at(
                    "umpire::check::argument",
                    format!(
                        "{what} `{fname}` is missing {}",
                        missing
                            .iter()
                            .map(|m| format!("`{m}`"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                    span,
                    "missing arguments",
                )
                .help(format!("call it as {fname}({})", list.join(", "))),
            );
        }
        slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| dummy(span)))
            .collect()
    }

    fn builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        if let Some(n) = args.iter().find_map(|a| a.name.as_ref()) {
            self.err(Diag::at(
                "umpire::check::argument",
                format!("`{}` takes its arguments without names", name.node),
                n.span,
                "remove the name",
            ));
        }
        let checked: Vec<(Expr, Ty, Span)> = args
            .iter()
            .map(|a| {
                let (e, t) = self.expr(&a.value, scope, None);
                (e, t, a.value.span)
            })
            .collect();
        let arity = match b {
            Builtin::Min | Builtin::Max => None,
            Builtin::Dice => Some(2),
            _ => Some(1),
        };
        let n = checked.len();
        let wrong = match arity {
            Some(k) => n != k,
            None => n < 2,
        };
        if wrong {
            let want = arity.map_or("at least 2".to_string(), |k| k.to_string());
            self.err(Diag::at(
                "umpire::check::argument",
                format!("`{}` takes {want} argument(s), given {n}", b.name()),
                span,
                "wrong number of arguments",
            ));
            return (dummy(span), Ty::Any);
        }
        let ty = match b {
            Builtin::Floor | Builtin::Ceil | Builtin::Round | Builtin::Trunc => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Int
            }
            Builtin::Abs => {
                let t = checked[0].1.clone();
                if !matches!(
                    t,
                    Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Any | Ty::Never
                ) {
                    let d = t.describe(self.prog);
                    self.err(Diag::at(
                        "umpire::check::type",
                        format!("`abs` takes a number, length or time, not {d}"),
                        checked[0].2,
                        "not a number",
                    ));
                }
                t
            }
            Builtin::Min | Builtin::Max => {
                let mut t = Ty::Never;
                for (_, at, s) in &checked {
                    if !matches!(
                        at,
                        Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Any | Ty::Never
                    ) {
                        let d = at.describe(self.prog);
                        self.err(Diag::at(
                            "umpire::check::type",
                            format!("`{}` compares numbers, lengths or times, not {d}", b.name()),
                            *s,
                            "not a number",
                        ));
                    }
                    t = match (&t, at) {
                        (Ty::Int, Ty::Num) | (Ty::Num, Ty::Int) => Ty::Num,
                        _ => self.join(&t, at, *s),
                    };
                }
                t
            }
            Builtin::Inches | Builtin::Feet => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Length
            }
            Builtin::Moves => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Time
            }
            Builtin::Dice => {
                self.expect_ty(&checked[0].1, &Ty::Int, checked[0].2);
                self.expect_ty(&checked[1].1, &Ty::Int, checked[1].2);
                Ty::Int
            }
        };
        let args = checked.into_iter().map(|(e, _, _)| e).collect();
        (
            Expr {
                kind: ExprKind::Call(Callee::Builtin(b), args),
                span,
            },
            ty,
        )
    }
}

/// An expression checked in its own scope, to be evaluated in its own frame.
fn fresh(e: Expr, scope: &Scope) -> Expr {
    if scope.slots == 0 {
        return e;
    }
    let span = e.span;
    Expr {
        kind: ExprKind::Fresh {
            value: Box::new(e),
            slots: scope.slots,
        },
        span,
    }
}

/// The range of a declared type, if it is a range.
fn declared_range(t: Option<&ast::TypeExpr>) -> Option<IntRange> {
    match t {
        Some(ast::TypeExpr::Range { lo, hi, .. }) => Some(IntRange { lo: *lo, hi: *hi }),
        _ => None,
    }
}

/// Wraps `e` in a range check when a range is declared.
fn ranged(e: Expr, range: Option<IntRange>, what: String) -> Expr {
    match range {
        Some(range) => {
            let span = e.span;
            Expr {
                kind: ExprKind::InRange {
                    value: Box::new(e),
                    range,
                    what: rc(&what),
                },
                span,
            }
        }
        None => e,
    }
}

/// May a value of type `actual` stand where `expected` is wanted?
pub fn compatible(actual: &Ty, expected: &Ty) -> bool {
    match (actual, expected) {
        (Ty::Any | Ty::Never, _) | (_, Ty::Any) => true,
        (Ty::Int, Ty::Num) => true,
        (Ty::Record(a), Ty::Record(b)) => {
            a.fields.len() == b.fields.len()
                && b.fields
                    .iter()
                    .all(|(n, t)| a.fields.iter().any(|(m, u)| m == n && compatible(u, t)))
        }
        (Ty::Pair(a), Ty::Pair(b)) => compatible(a, b),
        _ => actual == expected,
    }
}
