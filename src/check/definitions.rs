//! Bodies of definitions: constants, rules, tables, modifier lists, examples; result types on demand.

use super::*;

impl Checker<'_> {
    pub(super) fn check_all(&mut self) {
        // Field defaults refer to one another by reference (`ExprKind::Default`): one
        // pass checks them all, in any order.
        let pending = std::mem::take(&mut self.pend.records);
        self.record_defaults(&pending);
        self.param_defaults();
        self.check_definitions();
        self.call_cycles();
    }

    pub(super) fn record_defaults(&mut self, pending: &[(u32, Rc<ast::RecordDef>)]) {
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
        // Nodes: rules, then tables, modifier lists and constants; an edge for every
        // call or constant used in a body, a cell, a modifier or a parameter default.
        let p = &*self.prog;
        let (nr, nt, nm, nc) = (
            p.rules.len(),
            p.tables.len(),
            p.modifiers.len(),
            p.consts.len(),
        );
        let node = |c: Node| match c {
            Node::Call(Callee::Rule(i)) => Some(i as usize),
            Node::Call(Callee::Table(i)) => Some(nr + i as usize),
            Node::Call(Callee::Modifiers(i)) => Some(nr + nt + i as usize),
            Node::Const(i) => Some(nr + nt + nm + i as usize),
            Node::Call(Callee::Builtin(_)) => None,
        };
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); nr + nt + nm + nc];
        let defaults = |params: &[ParamInfo]| -> Vec<Expr> {
            params.iter().filter_map(|x| x.default.clone()).collect()
        };
        for (i, r) in p.rules.iter().enumerate() {
            let mut exprs = defaults(&r.params);
            exprs.push(r.body.clone());
            for e in &exprs {
                uses_in(e, &mut |c| edges[i].extend(node(c)));
            }
        }
        for (i, t) in p.tables.iter().enumerate() {
            let mut exprs = defaults(&t.params);
            exprs.extend(t.rows.iter().map(|row| row.cell.clone()));
            for e in &exprs {
                uses_in(e, &mut |c| edges[nr + i].extend(node(c)));
            }
        }
        for (i, m) in p.modifiers.iter().enumerate() {
            let mut exprs = defaults(&m.params);
            for md in &m.modifiers {
                exprs.push(md.amount.clone());
                exprs.extend(md.per.clone());
                exprs.extend(md.condition.clone());
            }
            for e in &exprs {
                uses_in(e, &mut |c| edges[nr + nt + i].extend(node(c)));
            }
        }
        for (i, c) in p.consts.iter().enumerate() {
            uses_in(&c.value, &mut |x| edges[nr + nt + nm + i].extend(node(x)));
        }
        let recursive: Vec<bool> = self.pend.rules.iter().map(|(d, _)| d.recursive).collect();
        let name = |n: usize| -> (String, Span) {
            let p = &*self.prog;
            if n < nr {
                (format!("`{}`", p.rules[n].name), p.rules[n].span)
            } else if n < nr + nt {
                let t = &p.tables[n - nr];
                (format!("table `{}`", t.name), t.span)
            } else if n < nr + nt + nm {
                let m = &p.modifiers[n - nr - nt];
                (format!("modifiers `{}`", m.name), m.span)
            } else {
                let c = &p.consts[n - nr - nt - nm];
                (format!("const `{}`", c.name), c.value.span)
            }
        };
        // For each node: can it reach itself? (A depth-first walk from each.)
        let mut reported = vec![false; edges.len()];
        let mut found = Vec::new();
        for start in 0..edges.len() {
            if reported[start] {
                continue;
            }
            let mut seen = vec![false; edges.len()];
            let mut stack: Vec<usize> = edges[start].clone();
            let mut cyclic = false;
            while let Some(n) = stack.pop() {
                if n == start {
                    cyclic = true;
                    break;
                }
                if !seen[n] {
                    seen[n] = true;
                    stack.extend(edges[n].iter().copied());
                }
            }
            if !cyclic {
                continue;
            }
            // The members of the cycle: those that reach `start` and that `start` reaches.
            let members: Vec<usize> = (0..edges.len())
                .filter(|&m| m == start || seen[m] && reaches(&edges, m, start))
                .collect();
            for &m in &members {
                reported[m] = true;
            }
            if members
                .iter()
                .any(|&m| recursive.get(m).copied().unwrap_or(false))
            {
                continue;
            }
            // Constants defined in terms of each other alone are reported where constants
            // are checked.
            if members.iter().all(|&m| m >= nr + nt + nm) {
                continue;
            }
            let names: Vec<String> = members.iter().map(|&m| name(m).0).collect();
            let (first, span) = name(start);
            let rule = members
                .iter()
                .find(|&&m| m < nr)
                .map(|&m| self.prog.rules[m].name.to_string());
            let mut d = Diag::at(
                "umpire::check::cycle",
                format!("{} call each other: a cycle of calls", names.join(", ")),
                span,
                "in a cycle",
            );
            d = match rule {
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
        let rules: Vec<Rc<ast::RuleDef>> = self.pend.rules.iter().map(|(d, _)| d.clone()).collect();
        for (i, def) in rules.iter().enumerate() {
            for p in &def.params {
                self.param_default(Callee::Rule(idx(i)), p);
            }
        }
        let tables: Vec<Rc<ast::TableDef>> =
            self.pend.tables.iter().map(|(d, _)| d.clone()).collect();
        for (i, def) in tables.iter().enumerate() {
            for p in def.keys.iter().chain(&def.extra) {
                self.param_default(Callee::Table(idx(i)), p);
            }
        }
        let mods: Vec<Rc<ast::ModifiersDef>> =
            self.pend.modifiers.iter().map(|(d, _)| d.clone()).collect();
        for (i, def) in mods.iter().enumerate() {
            for p in &def.params {
                self.param_default(Callee::Modifiers(idx(i)), p);
            }
        }
    }

    fn param_default(&mut self, owner: Callee, p: &ast::Param) {
        let Some(d) = &p.default else { return };
        let params = match owner {
            Callee::Rule(i) => self.prog.rules.get(i as usize).map(|r| &r.params),
            Callee::Table(i) => self.prog.tables.get(i as usize).map(|t| &t.params),
            Callee::Modifiers(i) => self.prog.modifiers.get(i as usize).map(|m| &m.params),
            Callee::Builtin(_) => None,
        };
        let Some(info) = params
            .and_then(|ps| ps.iter().find(|q| *q.name == *p.name.node))
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
        let params = match owner {
            Callee::Rule(i) => self.prog.rules.get_mut(i as usize).map(|r| &mut r.params),
            Callee::Table(i) => self.prog.tables.get_mut(i as usize).map(|t| &mut t.params),
            Callee::Modifiers(i) => self
                .prog
                .modifiers
                .get_mut(i as usize)
                .map(|m| &mut m.params),
            Callee::Builtin(_) => None,
        };
        if let Some(q) = params.and_then(|ps| ps.iter_mut().find(|q| *q.name == *p.name.node)) {
            q.default = Some(e);
        }
    }

    /// Checks a definition out of turn, because a call needs its result type. A chain of
    /// these recurses; past [`MAX_ON_DEMAND`] links the author is asked to declare types.
    fn on_demand(&mut self, check: impl FnOnce(&mut Self)) {
        if self.on_demand >= MAX_ON_DEMAND {
            if !self
                .errors
                .iter()
                .any(|d| d.code == "umpire::limit::type_chain")
            {
                self.err(Diag::error(
                    "umpire::limit::type_chain",
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
        let body_text = self.prog.sources.snippet(def.body.span);
        // (Not after an error in the body: a misspelled name would be reported twice.)
        if !body_text.contains("not given") && !body_errors {
            for (slot, p) in info.params.iter().enumerate() {
                if !scope.is_used(idx(slot)) && !p.name.starts_with('_') {
                    self.err(
                        Diag::at(
                            "umpire::check::unused_parameter",
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
        r.slots = scope.slots;
        if declared == Ty::Any {
            r.ret = ty;
        }
        self.pend.rules[i].1 = State::Done;
    }

    pub(super) fn check_table(&mut self, i: usize) {
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
        let mark = self.errors.len();
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
                if info.keys == 0 {
                    c.err(Diag::at("umpire::check::row_keys", "a table with no keys has nothing to look up", row.span, "no key to match")
                        .help("give the table a key parameter, or write a `rule` or `const` instead"));
                    continue;
                }
                if row.patterns.len() != info.keys {
                    // Inside `column KEY = ...` the row gives the other keys.
                    let (given, wanted, place) = match row.column {
                        Some(_) => (row.patterns.len() - 1, info.keys - 1, "a row inside a `column` block gives the other keys: "),
                        None => (row.patterns.len(), info.keys, ""),
                    };
                    c.err(Diag::at("umpire::check::row_keys", format!("{place}this row gives {given} key(s), and {wanted} are wanted"), row.span, "wrong number of keys")
                        .help("separate the keys of a row with `|`; alternatives within a key with `,`"));
                    continue;
                }
                let patterns: Vec<Pat> = row.patterns.iter().zip(&info.params).map(|(p, param)| c.pattern(p, &param.ty)).collect();
                let expected = if declared == Ty::Any { None } else { Some(&declared) };
                let (cell, ty) = c.expr(&row.cell, &mut scope, expected);
                let cell = c.ranged(cell, declared_range(def.returns.as_ref()), format!("a cell of `{}`", def.name.node));
                if declared == Ty::Any {
                    joined = c.join(&joined, &ty, row.cell.span);
                } else {
                    c.expect_ty(&ty, &declared, row.cell.span);
                }
                let text = c.prog.sources.snippet(row.span).split_whitespace().collect::<Vec<_>>().join(" ");
                let column = row.column.map(|col| rc(c.prog.sources.snippet(col).trim()));
                let cite = row.cite.as_ref().map(|c| rc(&c.node));
                rows.push(RowInfo { patterns, cell, text: rc(&text), column, span: row.span, cite });
            }
        });
        // (Not after an error in the rows: a misspelled key would be reported twice.)
        if self.errors.len() != mark {
            self.broken_tables.insert(i);
        } else {
            if self.number_rows(&info, &rows) {
                self.broken_tables.insert(i);
            }
            self.enum_coverage(
                &format!("table `{}` has no row", info.name),
                &info.params[..info.keys],
                rows.iter().map(|r| r.patterns.as_slice()),
                def.name.span,
            );
        }
        let t = &mut self.prog.tables[i];
        t.rows = rows;
        t.slots = scope.slots;
        t.ret = joined;
        self.pend.tables[i].1 = State::Done;
    }

    /// Rows keyed by a whole number (a die roll) that give the other keys the same way —
    /// one column of the Manoeuvre Table — must not overlap ("never last row wins"), and
    /// must leave no hole between the numbers they cover. (Rows giving the other keys
    /// more generally, `_`, count for every column they apply to; a specific row before
    /// an `_` row is the rulebook's "otherwise", not an overlap.)
    /// Returns whether a hole was found (the table's rolls are then not judged again).
    fn number_rows(&mut self, info: &TableInfo, rows: &[RowInfo]) -> bool {
        let Some(k) = reach::number_key(info) else {
            return false;
        };
        let mut holed = false;
        let mut reported = std::collections::HashSet::new();
        for col in reach::columns(self.prog, info, rows, k) {
            // Overlaps: the rows of this column that give numbers (a row `_` is the
            // rulebook's "otherwise", taking what the rows above it leave), swept in
            // order of their lowest number.
            let mut spans: Vec<(i128, i128, usize)> = col
                .rows
                .iter()
                .filter_map(|&r| reach::intervals(&rows[r].patterns[k]).map(|iv| (r, iv)))
                .flat_map(|(r, iv)| iv.into_iter().map(move |(lo, hi)| (lo, hi, r)))
                .collect();
            spans.sort();
            let mut widest: Option<(i128, usize)> = None;
            for &(lo, hi, r) in &spans {
                if let Some((top, earlier)) = widest {
                    if lo <= top && earlier != r {
                        let (ra, rb) = (earlier.min(r), earlier.max(r));
                        if reported.insert((ra, rb)) && reported.len() <= 20 {
                            let shared = (lo, top.min(hi));
                            self.err(
                                Diag::at(
                                    "umpire::check::overlap",
                                    format!(
                                        "rows {} and {} overlap on {}",
                                        rows[ra].quoted(),
                                        rows[rb].quoted(),
                                        reach::shown(shared)
                                    ),
                                    rows[rb].span,
                                    "overlaps an earlier row",
                                )
                                .label(rows[ra].span, "this row")
                                .help("each number belongs to one row: change one of them"),
                            );
                        }
                    }
                }
                if widest.is_none_or(|(top, _)| hi > top) {
                    widest = Some((hi, r));
                }
            }
            // Holes between the numbers covered, or in the range the key is declared with
            // (`roll: 1..10` must find a row for each of 1 to 10).
            let key = &info.params[k];
            let bounds = match key.range {
                Some(r) => (i128::from(r.lo), r.hi.map_or(reach::HI, i128::from)),
                None => match (col.covered.first(), col.covered.last()) {
                    (Some(first), Some(last)) => (first.0, last.1),
                    _ => continue,
                },
            };
            let holes = reach::uncovered(bounds, &col.covered);
            if let Some(&(lo, hi)) = holes.first() {
                holed = true;
                // Point at the row just before the hole (or just after, at the start).
                let covers = |n: i128| {
                    col.rows.iter().copied().find(|&r| {
                        reach::intervals(&rows[r].patterns[k])
                            .is_some_and(|iv| iv.iter().any(|&(a, b)| a <= n && n <= b))
                    })
                };
                let (at, place) = match (covers(lo - 1), covers(hi + 1)) {
                    (Some(r), _) => (Some(r), "after this row"),
                    (None, Some(r)) => (Some(r), "before this row"),
                    (None, None) => (col.rows.first().copied(), "here"),
                };
                let span = at.map_or(info.span, |r| rows[r].span);
                let (message, label) = match key.range {
                    Some(r) => (
                        format!(
                            "`{}` takes {r}, and no row of `{}` covers {}{}",
                            key.name,
                            info.name,
                            reach::shown_all(&holes),
                            col.name
                        ),
                        format!("the rows leave a number out {place}"),
                    ),
                    None => (
                        format!(
                            "no row of `{}` covers {}{}",
                            info.name,
                            reach::shown_all(&holes),
                            col.name
                        ),
                        format!("the rows leave a hole {place}"),
                    ),
                };
                let mut d = Diag::at("umpire::check::gap", message, span, label)
                    .help("add a row for it, or widen a neighbouring row");
                if key.range.is_some() {
                    d = d.label(key.span, "declared here");
                }
                self.err(d);
            }
        }
        holed
    }

    /// A table keyed by named values (enums, true/false) must have a row for every
    /// combination of keys, or an `otherwise`: one without is an error when the ruleset
    /// loads, not a surprise mid-battle. (Number keys are checked elsewhere.)
    pub(super) fn enum_coverage<'r>(
        &mut self,
        what: &str,
        keys: &[ParamInfo],
        rows: impl Iterator<Item = &'r [Pat]> + Clone,
        span: Span,
    ) {
        // Keys of named values are enumerated; a number key (a die roll) is left to
        // `number_rows`, so a row counts for a combination whatever its number.
        let mut values: Vec<Vec<Value>> = Vec::new();
        let mut named: Vec<usize> = Vec::new();
        for (ki, k) in keys.iter().enumerate() {
            if let Some(vs) = crate::program::listed_values(self.prog, &k.ty) {
                named.push(ki);
                values.push(vs.into_iter().map(|(v, _)| v).collect());
            }
        }
        let keys: Vec<&ParamInfo> = named.iter().map(|&i| &keys[i]).collect();
        let total = values
            .iter()
            .try_fold(1usize, |n, v| n.checked_mul(v.len()))
            .unwrap_or(usize::MAX);
        if values.is_empty() || total == 0 {
            return;
        }
        // Each row marks the combinations it matches (the last key fastest); work past a
        // bound (a generated table of a hundred thousand rows) leaves the table unjudged.
        const MAX_COMBINATIONS: usize = 100_000;
        const MAX_WORK: usize = 10_000_000;
        let unchecked = |c: &mut Self| {
            c.err(
                Diag::at(
                    "umpire::check::coverage_unchecked",
                    format!(
                        "not checked that every combination of keys has a row: there are {total}"
                    ),
                    span,
                    "not checked",
                )
                .warning(),
            )
        };
        if total > MAX_COMBINATIONS {
            unchecked(self);
            return;
        }
        let mut covered = vec![false; total];
        let mut left = total;
        let mut work = 0usize;
        for pats in rows.clone() {
            if left == 0 {
                break;
            }
            // The value indices this row matches, key by key.
            let matched: Vec<Vec<usize>> = named
                .iter()
                .zip(&values)
                .map(|(&i, vs)| {
                    (0..vs.len())
                        .filter(|&j| pats.get(i).is_some_and(|p| p.matches(&vs[j])))
                        .collect()
                })
                .collect();
            let n: usize = matched.iter().map(Vec::len).product();
            work += n + matched.iter().map(Vec::len).sum::<usize>();
            if work > MAX_WORK {
                unchecked(self);
                return;
            }
            let mut pick = vec![0usize; matched.len()];
            for _ in 0..n {
                let at = pick
                    .iter()
                    .zip(&matched)
                    .zip(&values)
                    .fold(0usize, |acc, ((&p, m), vs)| acc * vs.len() + m[p]);
                if !covered[at] {
                    covered[at] = true;
                    left -= 1;
                }
                for d in (0..pick.len()).rev() {
                    pick[d] += 1;
                    if pick[d] < matched[d].len() {
                        break;
                    }
                    pick[d] = 0;
                }
            }
        }
        let count = left;
        let mut missing: Vec<Vec<&Value>> = Vec::new();
        for (at, _) in covered.iter().enumerate().filter(|(_, c)| !**c).take(5) {
            let mut rest = at;
            let mut combo: Vec<&Value> = Vec::with_capacity(values.len());
            for vs in values.iter().rev() {
                combo.push(&vs[rest % vs.len()]);
                rest /= vs.len();
            }
            combo.reverse();
            missing.push(combo);
        }
        if count == 0 {
            return;
        }
        let shown: Vec<String> = missing
            .iter()
            .map(|combo| {
                keys.iter()
                    .zip(combo)
                    .map(|(k, v)| {
                        let shown = match v {
                            Value::Enum(e, i) => self
                                .prog
                                .enum_value(*e, *i)
                                .map_or("?".to_string(), |x| x.name.to_string()),
                            Value::Bool(b) => b.to_string(),
                            _ => "?".to_string(),
                        };
                        format!("{}: {shown}", k.name)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect();
        let more = if count > shown.len() {
            format!(" (and {} more)", count - shown.len())
        } else {
            String::new()
        };
        self.err(
            Diag::at("umpire::check::coverage", format!("{what} for {}{more}", shown.join("; ")), span, "not every value is covered")
                .help("add one for each, or a last `otherwise => ...` (a refusal, or `not given \"...\"` for what the source leaves out)"),
        );
    }

    pub(super) fn check_modifiers(&mut self, i: usize) {
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
                    // Written in another file than its list: a house rule put it in.
                    house: m.label.span.file != def.name.span.file,
                });
            }
        });
        let t = &mut self.prog.modifiers[i];
        t.modifiers = mods;
        t.slots = scope.slots;
        t.ret = ret;
        self.pend.modifiers[i].1 = State::Done;
    }

    pub(super) fn check_examples(&mut self, file: &ast::File) {
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
            // `interpret NAME = READING`: the readings the example is read with.
            let mut readings = Vec::new();
            for (name, reading) in &ex.readings {
                match self.reading_of(name, reading) {
                    Ok(r) => readings.push(r),
                    Err(d) => self.err(d),
                }
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
                readings,
            });
        }
    }

    /// An interpretation and one of its readings, by name.
    fn reading_of(&self, name: &ast::Name, reading: &ast::Name) -> Result<(u32, u16), Diag> {
        crate::program::find_reading(self.prog, &name.node, &reading.node).map_err(|msg| {
            Diag::at(
                "umpire::check::reading",
                msg,
                reading.span.to(name.span),
                "here",
            )
        })
    }

    pub(super) fn rule_ret(&mut self, id: u32, span: Span) -> Ty {
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
        if todo(&self.pend.rules, i) && self.prog.rules[i].ret == Ty::Any {
            self.on_demand(|c| c.check_rule(i));
        }
        self.prog.rules.get(i).map_or(Ty::Any, |r| r.ret.clone())
    }

    pub(super) fn table_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if todo(&self.pend.tables, i) && self.prog.tables[i].ret == Ty::Any {
            self.on_demand(|c| c.check_table(i));
        }
        self.prog.tables.get(i).map_or(Ty::Any, |t| t.ret.clone())
    }

    pub(super) fn modifiers_ret(&mut self, id: u32) -> Ty {
        let i = id as usize;
        if todo(&self.pend.modifiers, i) {
            self.on_demand(|c| c.check_modifiers(i));
        }
        self.prog
            .modifiers
            .get(i)
            .map_or(Ty::Int, |t| t.ret.clone())
    }

    pub(super) fn const_ty(&mut self, id: u32) -> Ty {
        let i = id as usize;
        match self.pend.consts.get(i).map(|(_, s)| *s) {
            Some(State::Todo) => self.on_demand(|c| c.check_const(i)),
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
}

/// Does `from` reach `to` in the call graph?
fn reaches(edges: &[Vec<usize>], from: usize, to: usize) -> bool {
    let mut seen = vec![false; edges.len()];
    let mut stack = vec![from];
    while let Some(n) = stack.pop() {
        if n == to {
            return true;
        }
        if !std::mem::replace(&mut seen[n], true) {
            stack.extend(edges[n].iter().copied());
        }
    }
    false
}

/// Every rule, table or modifier list an expression calls.
/// What a definition uses: calls, and constants (a cycle can run through either).
#[derive(Clone, Copy)]
enum Node {
    Call(Callee),
    Const(u32),
}

fn uses_in(e: &Expr, found: &mut dyn FnMut(Node)) {
    e.walk(&mut |x| match &x.kind {
        ExprKind::Call(c, _) => found(Node::Call(*c)),
        ExprKind::Const(i) => found(Node::Const(*i)),
        _ => {}
    });
}

/// Is definition `i` still to be checked?
fn todo<T>(pending: &[(T, State)], i: usize) -> bool {
    pending.get(i).is_some_and(|(_, s)| *s == State::Todo)
}
