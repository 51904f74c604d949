//! Bodies of definitions: constants, rules, modifier lists, examples (tables: `tables.rs`); result types on demand.

use super::*;
use crate::diagnostic::Code;

impl Checker<'_> {
    pub(super) fn check_all(&mut self) {
        // Field defaults refer to one another by reference (`ExprKind::Default`): one
        // pass checks them all, in any order.
        let pending = std::mem::take(&mut self.pend.records);
        self.record_defaults(&pending);
        self.param_defaults();
        self.check_definitions();
        self.call_cycles();
        self.const_dice();
    }

    pub(super) fn record_defaults(&mut self, pending: &[(u32, &ast::RecordDef)]) {
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
                    self.ranged(
                        fresh(e, &scope),
                        declared_range(Some(&f.ty)),
                        format!("the default of field `{}`", f.name.node),
                    )
                }));
            }
            if let Some(info) = self.prog.records.get_mut(id as usize) {
                info.default_values = defaults
                    .iter()
                    .map(|d| d.as_ref().and_then(written_value))
                    .collect();
                info.defaults = defaults;
            }
        }
    }

    /// A cycle of calls among rules and tables is an error unless one of its rules is
    /// marked `recursive` (then the run-time depth limit stops a runaway).
    fn call_cycles(&mut self) {
        let p = &*self.prog;
        let (nr, nt, nm) = (p.rules.len(), p.tables.len(), p.modifiers.len());
        let edges = call_graph(p);
        let recursive: Vec<bool> = self.pend.rules.iter().map(|(d, _)| d.recursive).collect();
        let name = |n: usize| node_name(&self.prog, n);
        // The cycles, as a depth-first walk from each node in turn finds them.
        let mut found = Vec::new();
        for (start, members) in cycles(&edges) {
            if members
                .iter()
                .any(|&m| recursive.get(m).copied().unwrap_or(false))
            {
                continue;
            }
            // Constants defined in terms of each other alone are reported where constants
            // are checked.
            let nc = self.prog.consts.len();
            if members
                .iter()
                .all(|&m| m >= nr + nt + nm && m < nr + nt + nm + nc)
            {
                continue;
            }
            let names: Vec<String> = members.iter().map(|&m| name(m).0).collect();
            let (first, span) = name(start);
            let rule = members
                .iter()
                .find(|&&m| m < nr)
                .map(|&m| self.prog.rules[m].sig.name.to_string());
            let mut d = Diag::at(
                Code::CheckCycle,
                format!("{} call each other: a cycle of calls", names.join(", ")),
                span,
                "in a cycle",
            );
            let through_default = members.iter().any(|&m| m >= nr + nt + nm + nc);
            d = match rule {
                _ if through_default => d.help("a field's default is worked out each time a record is built without that field: give the field where the rule builds the record (`{ field: ..., ... }`), or make the default a value that calls nothing back"),
                Some(r) if members.len() == 1 => d.help(format!("if the rule is meant to call itself, mark it: `rule {r}(...) -> Type recursive {{ ... }}`")),
                Some(r) => d.help(format!("if the rules are meant to call each other, mark one: `rule {r}(...) -> Type recursive {{ ... }}`")),
                None => d.help("tables, modifier lists and constants cannot go round: let a rule marked `recursive` carry the repetition"),
            };
            if members.len() == 1 {
                d.message = format!("{first} calls itself");
            }
            found.push(d);
        }
        for d in found {
            self.err(d);
        }
    }

    /// Parameter defaults, now that every name is declared. A default is a constant
    /// expression: no parameters in scope; consts, enum values and calls resolve.
    pub(super) fn param_defaults(&mut self) {
        let rules: Vec<&ast::RuleDef> = self.pend.rules.iter().map(|(d, _)| *d).collect();
        for (i, def) in rules.iter().enumerate() {
            for p in &def.params {
                self.param_default(Callee::Rule(idx(i)), p);
            }
        }
        let tables: Vec<&ast::TableDef> = self.pend.tables.iter().map(|(d, _)| *d).collect();
        for (i, def) in tables.iter().enumerate() {
            for p in def.keys.iter().chain(&def.extra) {
                self.param_default(Callee::Table(idx(i)), p);
            }
        }
        let mods: Vec<&ast::ModifiersDef> = self.pend.modifiers.iter().map(|(d, _)| *d).collect();
        for (i, def) in mods.iter().enumerate() {
            for p in &def.params {
                self.param_default(Callee::Modifiers(idx(i)), p);
            }
        }
    }

    fn param_default(&mut self, owner: Callee, p: &ast::Param) {
        let Some(d) = &p.default else { return };
        let Some(info) = self
            .prog
            .signature(owner)
            .and_then(|s| s.params.iter().find(|q| *q.name == *p.name.node))
            .cloned()
        else {
            return;
        };
        let mut scope = Scope::default();
        let (e, t) = self.expr(d, &mut scope, Some(&info.ty));
        self.expect_ty(&t, &info.ty, d.span);
        let e = self.ranged(
            fresh(e, &scope),
            info.range,
            format!("the default of `{}`", p.name.node),
        );
        let params = self.prog.signature_mut(owner).map(|s| &mut s.params);
        if let Some(q) = params.and_then(|ps| ps.iter_mut().find(|q| *q.name == *p.name.node)) {
            q.default = Some(e);
        }
    }

    /// Checks a definition out of turn, because a call needs its result type. A chain of
    /// these recurses; past [`MAX_ON_DEMAND`] links the author is asked to declare types.
    fn on_demand(&mut self, check: impl FnOnce(&mut Self)) {
        if self.on_demand >= MAX_ON_DEMAND {
            if !self.errors.iter().any(|d| d.code == Code::LimitTypeChain) {
                self.err(Diag::error(
                    Code::LimitTypeChain,
                    format!("more than {MAX_ON_DEMAND} rules or tables in a row have result types known only from each other"),
                )
                .help("declare result types (`rule name(...) -> Int`): then each is checked on its own"));
            }
            return;
        }
        self.on_demand += 1;
        check(self);
        self.on_demand -= 1;
    }

    pub(super) fn check_definitions(&mut self) {
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

    pub(super) fn with_cite<T>(
        &mut self,
        cite: Option<Rc<str>>,
        f: impl FnOnce(&mut Self) -> T,
    ) -> T {
        let saved = std::mem::replace(&mut self.cite, cite);
        let out = f(self);
        self.cite = saved;
        out
    }

    pub(super) fn check_const(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.consts.get(i).cloned() else {
            return;
        };
        self.pend.consts[i].1 = State::Busy;
        let declared = self.prog.consts[i].ty.clone();
        let cite = self.prog.consts[i].cite.clone();
        let mut scope = Scope::default();
        let (e, ty) = self.with_cite(cite, |c| c.expr(&def.value, &mut scope, Some(&declared)));
        let e = self.ranged(
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

    pub(super) fn check_rule(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.rules.get(i).cloned() else {
            return;
        };
        self.pend.rules[i].1 = State::Busy;
        let info = self.prog.rules[i].sig.clone();
        let mut scope = Scope::params(&info);
        let declared = info.ret.clone();
        let expected = if declared == Ty::Any {
            None
        } else {
            Some(&declared)
        };
        let mark = self.errors.iter().filter(|d| !d.warning).count();
        let (body, ty) = self.with_cite(info.cite.clone(), |c| {
            c.block(&def.body, &mut scope, expected)
        });
        let body_errors = self.errors.iter().filter(|d| !d.warning).count() > mark;
        if expected.is_some() {
            self.expect_ty(&ty, &declared, def.body.value.span);
        }
        // A parameter a rule never reads is a slip — unless the rule's body is a gap of
        // the source (`not given`), whose parameters wait for a house rule to use them.
        let body_text = self.sources.snippet(def.body.span);
        // (Not after an error in the body: a misspelled name would be reported twice.)
        if !body_text.contains("not given") && !body_errors {
            for (slot, p) in info.params.iter().enumerate() {
                if !scope.is_used(idx(slot)) && !p.name.starts_with('_') {
                    self.err(
                        Diag::at(
                            Code::CheckUnusedParameter,
                            format!("rule `{}` never uses its parameter `{}`", info.name, p.name),
                            p.span,
                            "unused",
                        )
                        .help("use it, or remove it (callers name it too)")
                        .warning(),
                    );
                }
            }
        }
        let body = self.ranged(
            body,
            declared_range(def.returns.as_ref()),
            format!("the result of `{}`", def.name.node),
        );
        let r = &mut self.prog.rules[i];
        r.body = body;
        r.sig.slots = scope.slots;
        if declared == Ty::Any {
            r.sig.ret = ty;
        }
        self.pend.rules[i].1 = State::Done;
    }

    pub(super) fn check_modifiers(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.modifiers.get(i).cloned() else {
            return;
        };
        self.pend.modifiers[i].1 = State::Busy;
        let info = self.prog.modifiers[i].sig.clone();
        let mut scope = Scope::params(&info);
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
                    // Written in another file than its list: a house rule put it in.
                    house: m.label.span.file != def.name.span.file,
                });
            }
        });
        let t = &mut self.prog.modifiers[i];
        t.modifiers = mods;
        t.sig.slots = scope.slots;
        t.sig.ret = ret;
        self.pend.modifiers[i].1 = State::Done;
    }

    /// `is missing NAME` naming no needed parameter of any rule, table or modifier list,
    /// `is asked instead NAME` naming no rule, table or modifier list: the example could
    /// never hold, an error at load.
    fn expectation_names(&self, chk: &ast::Check) -> Option<Diag> {
        let p = &*self.prog;
        match chk.expect.as_ref()? {
            ast::Expectation::Missing(n) => {
                let sigs = p
                    .rules
                    .iter()
                    .map(|r| &r.sig)
                    .chain(p.tables.iter().map(|t| &t.sig))
                    .chain(p.modifiers.iter().map(|m| &m.sig));
                let mut found = false;
                let mut any = false;
                for s in sigs {
                    for q in s.params.iter().filter(|q| &*q.name == n.as_str()) {
                        any = true;
                        found |= q.needed;
                    }
                }
                if found {
                    return None;
                }
                let why = if any {
                    format!("no rule, table or modifier list has a parameter `{n}` declared `= needed`")
                } else {
                    format!("no rule, table or modifier list has a parameter `{n}`")
                };
                Some(
                    Diag::at(
                        Code::CheckUnknownName,
                        format!("`is missing {n}` can never hold: {why}"),
                        chk.span,
                        "expects an error no question can give",
                    )
                    .help("name the needed parameter the call leaves out: `action_time(infantry, embark) is missing men`, where `men: 0.. = needed`"),
                )
            }
            ast::Expectation::AskedInstead(c) => match p.globals.get(c.as_str()) {
                Some(Global::Rule(_) | Global::Table(_) | Global::Modifiers(_)) => None,
                _ => Some(
                    Diag::at(
                        Code::CheckUnknownName,
                        format!("`is asked instead {c}` can never hold: there is no rule, table or modifier list `{c}`"),
                        chk.span,
                        "expects an error no question can give",
                    )
                    .help("name the rule or table the `instead` names: `terrain_movement(marsh, infantry) is asked instead crossing_cost`"),
                ),
            },
            _ => None,
        }
    }

    pub(super) fn check_examples(&mut self, file: &ast::File) {
        for item in &file.items {
            let ast::Item::Example(ex) = item else {
                continue;
            };
            let mut checks = Vec::new();
            // One scope for the example: a `let` is read by the checks after it.
            let mut scope = Scope::default();
            let mut lets = Vec::new();
            let mut named = Vec::new();
            for (i, chk) in ex.checks.iter().enumerate() {
                for l in ex.lets.iter().filter(|l| l.before == i) {
                    let step = self.example_let(l, &mut scope);
                    named.push((step.slot, l.name.clone()));
                    lets.push(step);
                }
                let (e, ty) = self.expr(&chk.expr, &mut scope, None);
                if chk.expect.is_none() {
                    self.expect_ty(&ty, &Ty::Bool, chk.expr.span);
                }
                // A base's example (in a file other than the one loaded) that a house rule
                // makes impossible is a failure of `test` that names the example to
                // override, never an error that stops the house rule loading.
                if chk.span.file == crate::span::FileId(0) {
                    if let Some(d) = self.expectation_names(chk) {
                        self.err(d);
                    }
                }
                checks.push(CheckInfo {
                    query: Query {
                        expr: e,
                        slots: 0,
                        ty,
                        sources: Default::default(),
                        code: None,
                    },
                    expect: chk.expect.clone(),
                    span: chk.span,
                });
            }
            for l in ex.lets.iter().filter(|l| l.before >= ex.checks.len()) {
                let step = self.example_let(l, &mut scope);
                named.push((step.slot, l.name.clone()));
                lets.push(step);
            }
            for c in &mut checks {
                c.query.slots = scope.slots;
            }
            self.unused_example_lets(&scope, &named);
            // `interpret NAME = READING`: the readings the example is read with.
            let mut readings: Vec<(u32, u16)> = Vec::new();
            let mut chosen: Vec<(u32, Span)> = Vec::new();
            for (name, reading) in &ex.readings {
                match self.reading_of(name, reading) {
                    Ok(r) => {
                        let line = name.span.to(reading.span);
                        if let Some(&(_, before)) = chosen.iter().find(|(i, _)| *i == r.0) {
                            self.err(
                                Diag::at(
                                    Code::CheckReading,
                                    format!(
                                        "example \"{}\" chooses a reading of `{}` twice",
                                        ex.name.node, name.node
                                    ),
                                    line,
                                    "chosen again",
                                )
                                .label(before, "first chosen here")
                                .help(
                                    "an example is read one way: keep one `interpret` line for it",
                                ),
                            );
                            continue;
                        }
                        chosen.push((r.0, line));
                        readings.push(r);
                    }
                    Err(d) => self.err(d),
                }
            }
            if ex.seed.is_some() && !(ex.rolls.is_empty() && ex.named_rolls.is_empty()) {
                self.err(Diag::at(Code::CheckExampleDice, format!("example \"{}\" gives both a seed and rolls", ex.name.node), ex.name.span, "which dice?")
                    .help("use `given rolls ...` for rolls the players made, or `seed N` for seeded dice, not both"));
            }
            if self.prog.examples.iter().any(|e| e.name == ex.name.node) {
                self.err(Diag::at(
                    Code::CheckDuplicate,
                    format!("example \"{}\" is defined twice", ex.name.node),
                    ex.name.span,
                    "defined again",
                ));
            }
            if ex.checks.is_empty() {
                self.err(
                    Diag::at(Code::CheckExampleEmpty, format!("example \"{}\" checks nothing: it has no check", ex.name.node), ex.name.span, "no check")
                        .help("write a check in it, a line that should be true, e.g. `forage_packets(7) == 2`")
                        .warning(),
                );
            }
            self.prog.examples.push(ExampleInfo {
                name: ex.name.node.clone(),
                rolls: ex.rolls.iter().map(|r| (r.node, r.span)).collect(),
                named_rolls: ex
                    .named_rolls
                    .iter()
                    .map(|(n, r)| (n.node.clone(), r.node, r.span))
                    .collect(),
                seed: ex.seed,
                checks,
                span: ex.name.span,
                readings,
                lets,
                slots: scope.slots,
            });
        }
    }

    /// `let r = f(3)` in an example: checked in the example's scope, then bound in it.
    fn example_let(&mut self, l: &ast::ExampleLet, scope: &mut Scope) -> ExampleStep {
        let (declared, range) = match l.ty.as_ref().map(|t| self.ty(t)) {
            Some((d, r)) => (Some(d), r),
            None => (None, None),
        };
        let (e, t) = self.expr(&l.value, scope, declared.as_ref());
        let e = self.ranged(e, range, format!("`{}`", l.name.node));
        let t = match declared {
            Some(d) => {
                self.expect_ty(&t, &d, l.value.span);
                d
            }
            None => t,
        };
        let slot = scope.bind(&l.name.node, t);
        // `let r = d6` names its roll, as in a rule: `given rolls r 6` gives it. The
        // roll is made by a `let` of the same slot, named as a rule's is.
        let e = if super::blocks::is_roll(&e) && !l.name.node.starts_with('_') {
            let span = e.span;
            Expr {
                kind: ExprKind::Block(
                    vec![Stmt::RollName(rc(&l.name.node)), Stmt::Let(slot, e)],
                    Box::new(Expr {
                        kind: ExprKind::Local(slot),
                        span,
                    }),
                ),
                span,
            }
        } else {
            e
        };
        ExampleStep {
            before: l.before,
            slot,
            expr: e,
            span: l.span,
        }
    }

    /// A warning for each `let` of an example that no check reads.
    fn unused_example_lets(&mut self, scope: &Scope, named: &[(u32, ast::Name)]) {
        for (slot, name) in named {
            if !scope.is_used(*slot) && !name.node.starts_with('_') {
                self.err(
                    Diag::at(Code::CheckUnusedLet, format!("`{}` is worked out but never used", name.node), name.span, "unused")
                        .help(format!("use it in a check after it, remove it, or name it `_{}` if it is kept on purpose (a die rolled, say)", name.node))
                        .warning(),
                );
            }
        }
    }

    /// An interpretation and one of its readings, by name.
    fn reading_of(&self, name: &ast::Name, reading: &ast::Name) -> Result<(u32, u16), Diag> {
        crate::program::find_reading(&self.prog, &name.node, &reading.node)
            .map_err(|msg| Diag::at(Code::CheckReading, msg, reading.span.to(name.span), "here"))
    }

    pub(super) fn rule_ret(&mut self, id: u32, span: Span) -> Ty {
        let i = id as usize;
        let busy = self
            .pend
            .rules
            .get(i)
            .is_some_and(|(_, s)| *s == State::Busy);
        if busy && self.prog.rules[i].sig.ret == Ty::Any {
            let name = self.prog.rules[i].sig.name.clone();
            self.err(
                Diag::at(
                    Code::CheckRecursiveResult,
                    format!("`{name}` calls itself, so its result type must be declared"),
                    span,
                    "a call of a rule still being checked",
                )
                .help(format!(
                    "declare what `{name}` gives, e.g. `rule {name}(...) -> Int`"
                )),
            );
        }
        if todo(&self.pend.rules, i) && self.prog.rules[i].sig.ret == Ty::Any {
            self.on_demand(|c| c.check_rule(i));
        }
        self.prog
            .rules
            .get(i)
            .map_or(Ty::Any, |r| r.sig.ret.clone())
    }

    pub(super) fn table_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if todo(&self.pend.tables, i) && self.prog.tables[i].sig.ret == Ty::Any {
            self.on_demand(|c| c.check_table(i));
        }
        self.prog
            .tables
            .get(i)
            .map_or(Ty::Any, |t| t.sig.ret.clone())
    }

    pub(super) fn modifiers_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if todo(&self.pend.modifiers, i) {
            self.on_demand(|c| c.check_modifiers(i));
        }
        self.prog
            .modifiers
            .get(i)
            .map_or(Ty::Int, |t| t.sig.ret.clone())
    }

    pub(super) fn const_ty(&mut self, id: u32) -> Ty {
        let i = id as usize;
        match self.pend.consts.get(i).map(|(_, s)| *s) {
            Some(State::Todo) => self.on_demand(|c| c.check_const(i)),
            Some(State::Busy) => {
                let span = self.pend.consts[i].0.name.span;
                self.err(Diag::at(
                    Code::CheckConstCycle,
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
}

/// A node of the call graph in words (`` `melee` ``, ``table `t` ``), and where it is
/// written.
fn node_name(p: &Program, n: usize) -> (String, Span) {
    let (nr, nt, nm) = (p.rules.len(), p.tables.len(), p.modifiers.len());
    if n < nr {
        (format!("`{}`", p.rules[n].sig.name), p.rules[n].sig.span)
    } else if n < nr + nt {
        let t = &p.tables[n - nr].sig;
        (format!("table `{}`", t.name), t.span)
    } else if n < nr + nt + nm {
        let m = &p.modifiers[n - nr - nt].sig;
        (format!("modifiers `{}`", m.name), m.span)
    } else if n < nr + nt + nm + p.consts.len() {
        let c = &p.consts[n - nr - nt - nm];
        (format!("const `{}`", c.name), c.value.span)
    } else {
        default_name(p, n - nr - nt - nm - p.consts.len())
    }
}

/// The expressions of each node of the call graph, in its order (a parameter's default
/// is left out: it rolls where it is left out, `ExprKind::Default`).
fn node_exprs(p: &Program) -> Vec<Vec<&Expr>> {
    let mut out: Vec<Vec<&Expr>> = Vec::new();
    out.extend(p.rules.iter().map(|r| vec![&r.body]));
    out.extend(
        p.tables
            .iter()
            .map(|t| t.rows.iter().map(|r| &r.cell).collect()),
    );
    out.extend(p.modifiers.iter().map(|m| {
        m.modifiers
            .iter()
            .flat_map(|md| [Some(&md.amount), md.per.as_ref(), md.condition.as_ref()])
            .flatten()
            .collect()
    }));
    out.extend(p.consts.iter().map(|c| vec![&c.value]));
    for r in &p.records {
        out.extend(r.defaults.iter().map(|d| d.iter().collect()));
    }
    out
}

/// Where `e` itself rolls dice, if it does: a dice term, `dice(n, s)`, or a parameter's
/// default that rolls, left out of a call.
pub(super) fn dice_in(p: &Program, e: &Expr) -> Option<(Span, &'static str)> {
    let mut found = None;
    e.walk(&mut |x| {
        if found.is_some() {
            return;
        }
        match &x.kind {
            ExprKind::Dice { .. }
            | ExprKind::Call(Callee::Builtin(Builtin::Dice | Builtin::Count), _)
            | ExprKind::Call(Callee::Builtin(Builtin::Highest | Builtin::Lowest), _) => {
                found = Some((x.span, "rolls dice"))
            }
            ExprKind::Default {
                of: DefaultOf::Param(c),
                index,
            } => {
                let default = p
                    .signature(*c)
                    .and_then(|s| s.params.get(*index as usize))
                    .and_then(|q| q.default.as_ref());
                if default.is_some_and(|d| dice_in(p, d).is_some()) {
                    found = Some((
                        x.span,
                        "a parameter left out here has a default that rolls dice",
                    ));
                }
            }
            _ => {}
        }
    });
    found
}

impl Checker<'_> {
    /// A constant has one value: one that rolls dice (`const volley = 2d6`, or a call of
    /// a rule that rolls) is an error at load. (A parameter's default may roll: it is
    /// worked out afresh at each call that leaves it out.)
    fn const_dice(&mut self) {
        let p = &*self.prog;
        let edges = call_graph(p);
        let exprs = node_exprs(p);
        let direct: Vec<Option<(Span, &str)>> = exprs
            .iter()
            .map(|es| es.iter().find_map(|e| dice_in(p, e)))
            .collect();
        // Which nodes roll, themselves or through what they use.
        let mut rolls: Vec<bool> = direct.iter().map(Option::is_some).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for n in 0..edges.len() {
                if !rolls[n] && edges[n].iter().any(|&m| rolls.get(m) == Some(&true)) {
                    rolls[n] = true;
                    changed = true;
                }
            }
        }
        let first_const = p.rules.len() + p.tables.len() + p.modifiers.len();
        let mut found = instead_dice(p, &exprs, &rolls);
        for (i, c) in p.consts.iter().enumerate() {
            let n = first_const + i;
            if !rolls.get(n).copied().unwrap_or(false) {
                continue;
            }
            let help = format!(
                "a constant has one value, worked out once; to roll each time it is used, make it a rule: `rule {}() -> Type {{ ... }}`, used as `{}()`",
                c.name, c.name
            );
            let d = match direct.get(n).copied().flatten() {
                Some((span, label)) => Diag::at(
                    Code::CheckConstDice,
                    format!("the constant `{}` rolls dice", c.name),
                    span,
                    label,
                ),
                None => {
                    let through = edges[n]
                        .iter()
                        .find(|&&m| rolls.get(m) == Some(&true))
                        .map_or(String::new(), |&m| node_name(p, m).0);
                    Diag::at(
                        Code::CheckConstDice,
                        format!(
                            "the constant `{}` rolls dice: it uses {through}, which rolls them",
                            c.name
                        ),
                        c.value.span,
                        "rolls dice",
                    )
                }
            };
            found.push(d.help(help));
        }
        for d in found {
            self.err(d);
        }
    }
}

/// A callee's node among the rules, tables and modifier lists (built-ins have none).
fn callee_node(p: &Program, c: &Callee) -> Option<usize> {
    let (nr, nt) = (p.rules.len(), p.tables.len());
    match c {
        Callee::Rule(i) => Some(*i as usize),
        Callee::Table(i) => Some(nr + *i as usize),
        Callee::Modifiers(i) => Some(nr + nt + *i as usize),
        Callee::Builtin(_) => None,
    }
}

/// Whether `e` calls a rule, table or modifier list that rolls dice (`rolls` by node).
fn calls_rolling(p: &Program, rolls: &[bool], e: &Expr) -> bool {
    let mut found = false;
    e.walk(&mut |y| {
        if let ExprKind::Call(c, _) = &y.kind {
            found |= callee_node(p, c).is_some_and(|n| rolls.get(n) == Some(&true));
        }
    });
    found
}

/// The `let`s of a body whose values roll dice — written in them, by a call that rolls,
/// or read from another such `let` (slots are not reused in a body).
fn rolled_lets(p: &Program, rolls: &[bool], body: &[&Expr]) -> std::collections::HashSet<u32> {
    let mut rolled: std::collections::HashSet<u32> = Default::default();
    let mut changed = true;
    while changed {
        changed = false;
        for e in body {
            e.walk(&mut |x| {
                let ExprKind::Block(stmts, _) = &x.kind else {
                    return;
                };
                for st in stmts {
                    let Stmt::Let(slot, v) = st else { continue };
                    if rolled.contains(slot) {
                        continue;
                    }
                    let mut reads_rolled = false;
                    v.walk(&mut |y| {
                        if let ExprKind::Local(s) = &y.kind {
                            reads_rolled |= rolled.contains(s);
                        }
                    });
                    if reads_rolled || dice_in(p, v).is_some() || calls_rolling(p, rolls, v) {
                        rolled.insert(*slot);
                        changed = true;
                    }
                }
            });
        }
    }
    rolled
}

/// Each `instead`, checked where it stands: its arguments roll no dice (no call of a
/// rule, table or modifier list that rolls, `rolls` by node, and no `let` whose value
/// rolls: dice written in them are found when checked); it does not name the definition
/// it is in, nor hold another `instead` in its arguments; and it is not in a constant or
/// a record field's default, which have one value and no question to ask again.
fn instead_dice(p: &Program, exprs: &[Vec<&Expr>], rolls: &[bool]) -> Vec<Diag> {
    let first_const = p.rules.len() + p.tables.len() + p.modifiers.len();
    let node = |c: &Callee| callee_node(p, c);
    let help =
        "the call is not made, only shown to the umpire: give it values worked out without dice";
    let mut out = Vec::new();
    for (n, body) in exprs.iter().enumerate() {
        let rolled = rolled_lets(p, rolls, body);
        for e in body {
            e.walk(&mut |x| {
                let ExprKind::Instead { callee, args, .. } = &x.kind else {
                    return;
                };
                let whom = p.signature(*callee).map_or("?", |s| &*s.name);
                if n >= first_const {
                    let what = if n < first_const + p.consts.len() {
                        format!("the constant `{}`", p.consts[n - first_const].name)
                    } else {
                        default_name(p, n - first_const - p.consts.len()).0
                    };
                    out.push(
                        Diag::at(
                            Code::CheckInstead,
                            format!("`instead {whom}(...)` is in {what}: a constant or a field's default has one value, and no question to ask again"),
                            x.span,
                            "not in a rule, table or modifier list",
                        )
                        .help("write `instead` in a rule or table: the question that reaches it is asked wrongly"),
                    );
                } else if node(callee) == Some(n) {
                    out.push(
                        Diag::at(
                            Code::CheckInstead,
                            format!("`instead {whom}(...)` is inside `{whom}` itself: the question it names would be asked wrongly again"),
                            x.span,
                            "names the definition it is in",
                        )
                        .help("name another rule or table, the one the umpire is to ask: `instead crossing_cost(terrain, mover) \"...\"`"),
                    );
                }
                for a in args {
                    a.walk(&mut |y| match &y.kind {
                        ExprKind::Instead { callee: inner, .. } => {
                            let inner = p.signature(*inner).map_or("?", |s| &*s.name);
                            out.push(
                                Diag::at(
                                    Code::CheckInstead,
                                    format!("an `instead {inner}(...)` is inside the arguments of `instead {whom}(...)`"),
                                    y.span,
                                    "an `instead` inside another",
                                )
                                .help("the arguments of the call to ask are values shown to the umpire: give them values, and one `instead`"),
                            );
                        }
                        ExprKind::Local(s) if rolled.contains(s) => {
                            out.push(
                                Diag::at(
                                    Code::CheckInsteadDice,
                                    format!("the arguments of `instead {whom}(...)` roll dice: this name is a `let` whose value rolls them"),
                                    y.span,
                                    "rolled by a `let`",
                                )
                                .help(help),
                            );
                        }
                        ExprKind::Call(c, _)
                            if node(c).is_some_and(|m| rolls.get(m) == Some(&true)) =>
                        {
                            {
                                let name = p.signature(*c).map_or("?", |s| &*s.name);
                                out.push(
                                    Diag::at(
                                        Code::CheckInsteadDice,
                                        format!("the arguments of `instead {whom}(...)` roll dice: they use `{name}`, which rolls them"),
                                        y.span,
                                        "rolls dice",
                                    )
                                    .help(help),
                                );
                            }
                        }
                        _ => {}
                    });
                }
            });
        }
    }
    out
}

/// The default of a record's field, by its place among every field of every record (the
/// nodes after the constants): `the default of `Melee.retiring``, where it is written.
fn default_name(p: &Program, at: usize) -> (String, Span) {
    let mut rest = at;
    for r in &p.records {
        if rest < r.defaults.len() {
            let field = r.shape.fields.get(rest).map_or("?", |(n, _)| n);
            let span = r.defaults[rest]
                .as_ref()
                .map_or(Span::default(), |d| d.span);
            return (format!("the default of `{}.{field}`", r.name), span);
        }
        rest -= r.defaults.len();
    }
    ("a default".into(), Span::default())
}

/// The graph of calls: nodes are rules, then tables, modifier lists, constants and the
/// defaults of record fields; an edge for every call, constant or field default used in
/// a body, a cell, a modifier, a parameter default or a field default (a record built
/// without a field works out its default: `{ y: 1 }` as an `A` uses `A.x`'s).
fn call_graph(p: &Program) -> Vec<Vec<usize>> {
    let (nr, nt, nm, nc) = (
        p.rules.len(),
        p.tables.len(),
        p.modifiers.len(),
        p.consts.len(),
    );
    let mut first_default = Vec::with_capacity(p.records.len());
    let mut nd = 0;
    for r in &p.records {
        first_default.push(nd);
        nd += r.defaults.len();
    }
    let node = |c: Node| match c {
        Node::Call(Callee::Rule(i)) => Some(i as usize),
        Node::Call(Callee::Table(i)) => Some(nr + i as usize),
        Node::Call(Callee::Modifiers(i)) => Some(nr + nt + i as usize),
        Node::Const(i) => Some(nr + nt + nm + i as usize),
        Node::Default(r, i) => first_default
            .get(r as usize)
            .map(|f| nr + nt + nm + nc + f + i as usize),
        Node::Call(Callee::Builtin(_)) => None,
    };
    let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nr + nt + nm + nc + nd];
    for (r, rec) in p.records.iter().enumerate() {
        for (i, d) in rec.defaults.iter().enumerate() {
            let Some(d) = d else { continue };
            let at = nr + nt + nm + nc + first_default[r] + i;
            uses_in(d, &mut |x| edges[at].extend(node(x)));
        }
    }
    // Each body read where it is, not copied to be walked.
    fn defaults(params: &[ParamInfo]) -> Vec<&Expr> {
        params.iter().filter_map(|x| x.default.as_ref()).collect()
    }
    for (i, r) in p.rules.iter().enumerate() {
        let mut exprs = defaults(&r.sig.params);
        exprs.push(&r.body);
        for e in exprs {
            uses_in(e, &mut |c| edges[i].extend(node(c)));
        }
    }
    for (i, t) in p.tables.iter().enumerate() {
        let mut exprs = defaults(&t.sig.params);
        exprs.extend(t.rows.iter().map(|row| &row.cell));
        for e in exprs {
            uses_in(e, &mut |c| edges[nr + i].extend(node(c)));
        }
    }
    for (i, m) in p.modifiers.iter().enumerate() {
        let mut exprs = defaults(&m.sig.params);
        for md in &m.modifiers {
            exprs.push(&md.amount);
            exprs.extend(md.per.as_ref());
            exprs.extend(md.condition.as_ref());
        }
        for e in exprs {
            uses_in(e, &mut |c| edges[nr + nt + i].extend(node(c)));
        }
    }
    for (i, c) in p.consts.iter().enumerate() {
        uses_in(&c.value, &mut |x| edges[nr + nt + nm + i].extend(node(x)));
    }
    edges
}

/// Every cycle of the call graph, as the first member it was found from and its members in
/// ascending order, in the order of those first members. From each node not yet in a
/// cycle found, in order, a depth-first walk that stops where it comes back to the node:
/// the node and those the walk met that reach it. (A walk stopped early can leave some of
/// a strongly connected component to a later walk of its own.) The walks stay inside the
/// node's strongly connected component, found first (linear, Tarjan's); a node outside it
/// cannot reach back, and the walk's order among the component's nodes is the same without
/// them. So each walk costs what it meets, and all it meets are the cycle's members.
fn cycles(edges: &[Vec<usize>]) -> Vec<(usize, Vec<usize>)> {
    let (comp, mut components) = components(edges);
    let mut reported = vec![false; edges.len()];
    // `seen[n] == walk`: met by the walk numbered `walk` (from 1).
    let mut seen = vec![0usize; edges.len()];
    let mut walk = 0usize;
    let mut found = Vec::new();
    for (c, members) in components.iter_mut().enumerate() {
        members.sort_unstable();
        let inside = |n: &usize| comp[*n] == c;
        for &start in members.iter() {
            if reported[start] {
                continue;
            }
            walk += 1;
            let mut met = Vec::new();
            let mut stack: Vec<usize> = edges[start].iter().copied().filter(inside).collect();
            let mut cyclic = false;
            while let Some(n) = stack.pop() {
                if n == start {
                    cyclic = true;
                    break;
                }
                if seen[n] != walk {
                    seen[n] = walk;
                    met.push(n);
                    stack.extend(edges[n].iter().copied().filter(inside));
                }
            }
            if !cyclic {
                continue;
            }
            met.push(start);
            met.sort_unstable();
            for &m in &met {
                reported[m] = true;
            }
            found.push((start, met));
        }
    }
    found.sort_unstable_by_key(|(start, _)| *start);
    found
}

/// The strongly connected components of the call graph: each node's component, and each
/// component's members. (Tarjan's algorithm, iterative: a chain of calls can be as long as
/// the ruleset.)
fn components(edges: &[Vec<usize>]) -> (Vec<usize>, Vec<Vec<usize>>) {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0usize; n];
    let mut on_stack = vec![false; n];
    let mut comp = vec![0usize; n];
    let mut stack: Vec<usize> = Vec::new();
    // The walk: a node and how many of its edges it has followed.
    let mut walk: Vec<(usize, usize)> = Vec::new();
    let mut next = 0usize;
    let mut components = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        walk.push((root, 0));
        while let Some(&(v, i)) = walk.last() {
            if let Some(&w) = edges[v].get(i) {
                if let Some(top) = walk.last_mut() {
                    top.1 += 1;
                }
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    walk.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            walk.pop();
            if let Some(&(parent, _)) = walk.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    comp[w] = components.len();
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(members);
            }
        }
    }
    (comp, components)
}

/// Every rule, table or modifier list an expression calls.
/// What a definition uses: calls, and constants (a cycle can run through either).
#[derive(Clone, Copy)]
enum Node {
    Call(Callee),
    Const(u32),
    /// The default of field `.1` of record `.0`.
    Default(u32, u32),
}

fn uses_in(e: &Expr, found: &mut dyn FnMut(Node)) {
    e.walk(&mut |x| match &x.kind {
        ExprKind::Call(c, _) => found(Node::Call(*c)),
        ExprKind::Const(i) => found(Node::Const(*i)),
        ExprKind::Default {
            of: DefaultOf::Record(r),
            index,
        } => found(Node::Default(*r, *index)),
        _ => {}
    });
}

/// Is definition `i` still to be checked?
fn todo<T>(pending: &[(T, State)], i: usize) -> bool {
    pending.get(i).is_some_and(|(_, s)| *s == State::Todo)
}
