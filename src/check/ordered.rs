//! Ordered enums and membership: `enum Odds ordered { ... }` compared, `min`/`max`,
//! `shift`, `place`; ranges of its values in patterns (`one_one-three_one`, `four_one or
//! more`); named lists of values (`list foot: Troop { ... }`); `x in (...)`.

use super::*;
use crate::diagnostic::Code;
use crate::value::EnumId;
use std::collections::{HashMap, HashSet};

/// The most enum values the ranges and lists of one ruleset may name, counted value by
/// value (a CRT names a few dozen).
const MAX_EXPANDED: usize = 1_000_000;
/// A pattern's values: (enum, index), or true and false as (`u16::MAX`, 0 or 1).
type Values = HashSet<(u16, u16)>;
/// The most values compared while looking for rows that overlap.
const OVERLAP_WORK: usize = 20_000_000;

impl Checker<'_> {
    /// Every `list NAME: Enum { values }`, once every other name is known: its name is
    /// new (no definition, enum value or other list has it), its type an enum, its values
    /// of that enum.
    pub(super) fn declare_lists(&mut self, file: &ast::File) {
        for item in &file.items {
            let ast::Item::List(l) = item else { continue };
            let name = &l.name.node;
            let clash = if self.prog.lists.contains_key(name) {
                Some("another list".to_string())
            } else if let Some(&[(e, _), ..]) = self.prog.enum_values.get(name).map(Vec::as_slice) {
                let of = self.prog.enums.get(usize::from(e)).map_or("?", |e| &e.name);
                Some(format!("a value of {of}"))
            } else if self.prog.globals.contains_key(name)
                || Builtin::ALL.iter().any(|(n, _)| n == name)
            {
                Some("a definition".to_string())
            } else {
                None
            };
            if let Some(what) = clash {
                self.err(
                    Diag::at(
                        Code::CheckDuplicate,
                        format!("the list `{name}` has the name of {what}"),
                        l.name.span,
                        "name taken",
                    )
                    .help("a list name stands for its values in patterns: give the list a name of its own"),
                );
                continue;
            }
            let Some(e) = self.list_enum(&l.of) else {
                continue;
            };
            let mut values: Vec<u16> = Vec::new();
            for v in &l.values {
                let Some(i) = self.value_of(e, v) else {
                    continue;
                };
                if values.contains(&i) {
                    self.err(Diag::at(
                        Code::CheckDuplicate,
                        format!("`{}` is listed twice in {name}", v.node),
                        v.span,
                        "listed again",
                    ));
                } else {
                    values.push(i);
                }
            }
            self.prog.lists.insert(
                name.clone(),
                ListInfo {
                    name: rc(name),
                    of: e,
                    values,
                    cite: l.cite.as_ref().map(|c| rc(&c.node)),
                },
            );
        }
    }

    /// The value `v` of enum `e`, by its place in the enum; or an error, with
    /// did-you-mean, that `e` has no such value.
    pub(super) fn value_of(&mut self, e: EnumId, v: &ast::Name) -> Option<u16> {
        // Found by name in the program's index of enum values (an enum of 65,000 values
        // is not searched value by value for each row that names one).
        if let Some(found) = self.prog.enum_values.get(v.node.as_str()) {
            if let Some((_, i)) = found.iter().find(|(f, _)| *f == e) {
                return Some(*i);
            }
        }
        let en = &self.prog.enums[usize::from(e)];
        if let Some(i) = en.values.iter().position(|x| *x.name == *v.node) {
            return Some(u16::try_from(i).unwrap_or(u16::MAX));
        }
        let names: Vec<String> = en.values.iter().map(|x| x.name.to_string()).collect();
        let d = Diag::at(
            Code::CheckUnknownValue,
            format!("`{}` is not a value of {}", v.node, en.name),
            v.span,
            format!("not a value of {}", en.name),
        )
        .suggest(&v.node, names.iter().map(String::as_str));
        self.err(d);
        None
    }

    /// The enum a list is of (`list foot: Troop`), or an error with did-you-mean.
    fn list_enum(&mut self, of: &ast::Name) -> Option<EnumId> {
        if let Some(Global::EnumType(e)) = self.prog.globals.get(&of.node) {
            return Some(*e);
        }
        let enums: Vec<String> = self.prog.enums.iter().map(|e| e.name.clone()).collect();
        let what = if self.prog.globals.contains_key(&of.node) || is_builtin_type(&of.node) {
            "is not an enum"
        } else {
            "is not declared"
        };
        self.err(
            Diag::at(
                Code::CheckUnknownName,
                format!("`{}` {what}: a list holds values of one enum", of.node),
                of.span,
                "not an enum",
            )
            .suggest(&of.node, enums.iter().map(String::as_str)),
        );
        None
    }

    /// The values of an alternative that names several (a list, a range of an ordered
    /// enum's values); `None` for any other alternative, which `pattern` reads.
    pub(super) fn several_values(&mut self, a: &ast::Alternative, ty: &Ty) -> Option<Vec<Alt>> {
        match a {
            ast::Alternative::Name(None, n) if self.prog.lists.contains_key(&n.node) => {
                Some(self.list_values(n, ty))
            }
            ast::Alternative::NameRange(lo, hi, s) => {
                Some(self.enum_run(Some(lo), Some(hi), *s, ty))
            }
            ast::Alternative::NameAtLeast(v, s) => Some(self.enum_run(Some(v), None, *s, ty)),
            ast::Alternative::NameAtMost(v, s) => Some(self.enum_run(None, Some(v), *s, ty)),
            _ => None,
        }
    }

    /// A list's values as a pattern on a key of type `ty`.
    fn list_values(&mut self, n: &ast::Name, ty: &Ty) -> Vec<Alt> {
        let Some(l) = self.prog.lists.get(&n.node) else {
            return Vec::new();
        };
        let (e, values) = (l.of, l.values.clone());
        if !matches!(ty, Ty::Any) && *ty != Ty::Enum(e) {
            let (d, of) = (
                ty.describe(&self.prog),
                self.prog.enums[usize::from(e)].name.clone(),
            );
            self.err(Diag::at(
                Code::CheckPattern,
                format!("this is {d}; `{}` is a list of {of}", n.node),
                n.span,
                "a list of another type",
            ));
            return Vec::new();
        }
        if !self.expand(values.len(), n.span) {
            return Vec::new();
        }
        values.into_iter().map(|i| Alt::Enum(e, i)).collect()
    }

    /// `lo-hi`, `lo or more`, `hi or less`: the values of an ordered enum from one end to
    /// the other, both included.
    fn enum_run(
        &mut self,
        lo: Option<&ast::EnumRef>,
        hi: Option<&ast::EnumRef>,
        span: Span,
        ty: &Ty,
    ) -> Vec<Alt> {
        let mut end = |r: Option<&ast::EnumRef>| match r {
            Some(r) => match self.enum_pattern(r.qual.as_ref(), &r.name, ty) {
                Some(Alt::Enum(e, i)) => Some((Some(e), Some(i))),
                _ => None,
            },
            None => Some((None, None)),
        };
        let (Some((e1, i1)), Some((e2, i2))) = (end(lo), end(hi)) else {
            return Vec::new();
        };
        let Some(e) = e1.or(e2) else {
            return Vec::new();
        };
        if e2.is_some_and(|x| x != e) {
            self.err(Diag::at(
                Code::CheckPattern,
                "the two ends of this range are values of different enums",
                span,
                "one enum",
            ));
            return Vec::new();
        }
        let info = &self.prog.enums[usize::from(e)];
        let (name, count) = (info.name.clone(), info.values.len());
        if !info.ordered {
            // The values the range would take in the order written, as the author
            // may list them instead (the first several when many).
            let (from, to) = (
                usize::from(i1.unwrap_or(0)),
                i2.map_or(count, |i| usize::from(i) + 1),
            );
            let run: Vec<&str> = info
                .values
                .get(from..to.max(from))
                .unwrap_or_default()
                .iter()
                .map(|v| &*v.name)
                .collect();
            let listed = match run.len() {
                0 => self.values_listed(e, ""),
                n if n <= 8 => run.join(", "),
                _ => format!("{}, …", run[..8].join(", ")),
            };
            self.err(
                Diag::at(
                    Code::CheckPattern,
                    format!("the values of {name} are not ordered, so they make no range"),
                    span,
                    "a range of an enum that is not ordered",
                )
                .help(format!(
                    "if the rulebook lists them in order, write `ordered` after the enum's name: `enum {name} ordered {{ ... }}`; otherwise list the values: `{listed}`"
                )),
            );
        }
        let last = u16::try_from(count.saturating_sub(1)).unwrap_or(u16::MAX);
        let (a, b) = (i1.unwrap_or(0), i2.unwrap_or(last));
        if a > b {
            let shown = |c: &Self, i: u16| {
                c.prog.enums[usize::from(e)].values[usize::from(i)]
                    .name
                    .clone()
            };
            let (x, y) = (shown(self, a), shown(self, b));
            self.err(
                Diag::at(
                    Code::CheckPattern,
                    format!("the range {x}-{y} is reversed: `{x}` comes after `{y}` in {name}"),
                    span,
                    "reversed",
                )
                .help(format!("write the earlier value first: `{y}-{x}`")),
            );
            return Vec::new();
        }
        if !self.expand(usize::from(b - a) + 1, span) {
            return Vec::new();
        }
        (a..=b).map(|i| Alt::Enum(e, i)).collect()
    }

    /// `<`, `<=`, `>`, `>=` where a side is an enum value: both of one ordered enum.
    pub(super) fn enum_order_ty(
        &mut self,
        a: &Ty,
        b: &Ty,
        aspan: Span,
        bspan: Span,
        span: Span,
    ) -> Ty {
        match (a, b) {
            (Ty::Enum(x), Ty::Enum(y)) if x == y => {
                self.ordered_enum(*x, span, "compare with `<`, `<=`, `>` or `>=`");
            }
            _ => {
                let (da, db) = (a.describe(&self.prog), b.describe(&self.prog));
                self.err(
                    Diag::at(
                        Code::CheckType,
                        format!("cannot compare {da} with {db}"),
                        span,
                        "different kinds of value",
                    )
                    .label(aspan, da)
                    .label(bspan, db)
                    .help("only values of one ordered enum compare with each other"),
                );
            }
        }
        Ty::Bool
    }

    /// Whether enum `e` is ordered; if not, an error saying that its values cannot `what`
    /// and to write `ordered`.
    fn ordered_enum(&mut self, e: EnumId, span: Span, what: &str) -> bool {
        let Some(info) = self.prog.enums.get(usize::from(e)) else {
            return false;
        };
        if info.ordered {
            return true;
        }
        let name = info.name.clone();
        self.err(
            Diag::at(
                Code::CheckType,
                format!("the values of {name} are not ordered, so they do not {what}"),
                span,
                "not ordered",
            )
            .help(format!(
                "if the rulebook lists them in order, lowest first, write `ordered` after the enum's name: `enum {name} ordered {{ ... }}`"
            )),
        );
        false
    }

    /// `min`/`max` of enum values: all of one ordered enum.
    pub(super) fn enum_extreme(&mut self, b: Builtin, checked: &[(Expr, Ty, Span)]) -> Ty {
        let mut t = Ty::Never;
        for (_, at, s) in checked {
            t = self.join(&t, at, *s);
        }
        if let (Ty::Enum(e), Some((_, _, s))) = (&t, checked.first()) {
            let what = format!("have a `{}`", b.name());
            self.ordered_enum(*e, *s, &what);
        }
        t
    }

    /// `shift(value, n)` and `place(value)`, `value` of an ordered enum.
    pub(super) fn ordered_builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let want = if b == Builtin::Shift { 2 } else { 1 };
        let usage = if b == Builtin::Shift {
            "`shift(value, places)`"
        } else {
            "`place(value)`"
        };
        self.unnamed_args(name, args);
        if args.len() != want {
            self.err(
                Diag::at(
                    Code::CheckArgument,
                    format!(
                        "`{}` takes {want} argument(s), given {}",
                        b.name(),
                        args.len()
                    ),
                    span,
                    "wrong number of arguments",
                )
                .help(format!("write {usage}")),
            );
            return (dummy(span), Ty::Any);
        }
        let (ve, vt) = self.expr(&args[0].value, scope, None);
        let vspan = args[0].value.span;
        let mut out = vec![ve];
        match vt {
            Ty::Enum(e) => {
                let what = format!("have a `{}`", b.name());
                self.ordered_enum(e, vspan, &what);
            }
            Ty::Any | Ty::Never => {}
            ref other => {
                let d = other.describe(&self.prog);
                self.err(
                    Diag::at(
                        Code::CheckType,
                        format!("`{}` takes a value of an ordered enum, not {d}", b.name()),
                        vspan,
                        "not an enum value",
                    )
                    .help(format!("write {usage}")),
                );
            }
        }
        if let Some(n) = args.get(1) {
            let (ne, nt) = self.expr(&n.value, scope, None);
            self.expect_ty(&nt, &Ty::Int, n.value.span);
            out.push(ne);
        }
        let ty = if b == Builtin::Shift { vt } else { Ty::Int };
        let kind = ExprKind::Call(Callee::Builtin(b), out);
        (Expr { kind, span }, ty)
    }

    /// A list's name written as a value: it is a set of values, asked of with `in`.
    pub(super) fn list_as_value(&self, n: &str) -> Option<String> {
        let l = self.prog.lists.get(n)?;
        let of = &self.prog.enums.get(usize::from(l.of))?.name;
        Some(format!(
            "`{n}` is a list of {of} values, not a value: ask whether a value is one of them with `x in {n}`, or use it as a pattern (`{n} => ...`)"
        ))
    }

    /// `x in (patterns)`, `x not in list`: true or false.
    pub(super) fn membership(
        &mut self,
        value: &ast::Expr,
        patterns: &ast::Pattern,
        negated: bool,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (ve, vt) = self.expr(value, scope, None);
        let mark = self.errors.len();
        let pat = self.pattern(patterns, &vt);
        // The patterns' errors speak of a table's key; here it is the value before `in`.
        for d in self.errors.iter_mut().skip(mark) {
            if let Some(rest) = d.message.strip_prefix("this key is ") {
                d.message = format!("the value before `in` is {rest}");
            }
        }
        let words: Vec<&str> = self
            .sources
            .snippet(patterns.span())
            .split_whitespace()
            .collect();
        let text = words.join(" ");
        let text = match patterns {
            ast::Pattern::Alternatives(alts, _) if alts.len() > 1 => format!("({text})"),
            _ => text,
        };
        let kind = ExprKind::In {
            value: Box::new(ve),
            pat,
            negated,
            text: rc(&text),
        };
        (Expr { kind, span }, Ty::Bool)
    }
}

impl Checker<'_> {
    /// Rows of a table keyed by an ordered enum (and no number, whose rows
    /// `number_rows` sweeps) that share a value on every key: the first would always win,
    /// so a range drawn one column too wide is pointed at.
    pub(super) fn enum_overlaps(&mut self, info: &TableInfo, rows: &[RowInfo]) {
        let keys = &info.sig.params[..info.keys.min(info.sig.params.len())];
        let ordered = keys.iter().any(|p| match p.ty {
            Ty::Enum(e) => self
                .prog
                .enums
                .get(usize::from(e))
                .is_some_and(|en| en.ordered),
            _ => false,
        });
        if !ordered || coverage::number_key(info).is_some() {
            return;
        }
        // Each row's values on each key (`None`: `_`). The sets are as large as the
        // patterns (bounded by `MAX_EXPANDED`); the pairs compared, by `OVERLAP_WORK`.
        let sets: Vec<Vec<Option<Values>>> = rows
            .iter()
            .map(|r| r.patterns.iter().map(value_set).collect())
            .collect();
        let domains: Vec<shadow::KeyDomain> = keys
            .iter()
            .map(|p| shadow::KeyDomain::of(&self.prog, p))
            .collect();
        let mut budget = OVERLAP_WORK;
        let mut told = 0;
        for j in 0..rows.len() {
            let found = (0..j).find_map(|i| {
                // A wider row below is the rulebook's "otherwise"; a wider row above
                // makes this one never reached (told by `shadowed_rows`).
                if shadow::holds_row(&domains, &rows[j], &rows[i])
                    || shadow::holds_row(&domains, &rows[i], &rows[j])
                {
                    return None;
                }
                let mut first = None;
                for (a, b) in sets[i].iter().zip(&sets[j]) {
                    let (Some(a), Some(b)) = (a, b) else {
                        return None;
                    };
                    let (small, big) = if a.len() <= b.len() { (a, b) } else { (b, a) };
                    budget = budget.saturating_sub(small.len() + 1);
                    // The first shared value in the enum's order, whatever the order
                    // of the set.
                    let v = small.iter().filter(|v| big.contains(v)).min()?;
                    first.get_or_insert(*v);
                }
                first.map(|v| (i, v))
            });
            if budget == 0 {
                return;
            }
            let Some((i, (e, v))) = found else { continue };
            let (earlier, later) = (&rows[i], &rows[j]);
            let on = match self.value_name(e, v) {
                Some(n) => format!(" on {n}"),
                None => String::new(),
            };
            self.err(
                Diag::at(
                    Code::CheckOverlap,
                    format!(
                        "rows {} and {} overlap{on}",
                        earlier.quoted(),
                        later.quoted()
                    ),
                    later.span,
                    "overlaps an earlier row",
                )
                .label(earlier.span, "this row")
                .help("each value belongs to one row: narrow one of the ranges"),
            );
            told += 1;
            if told >= 20 {
                return;
            }
        }
    }

    /// The name of value `i` of enum `e`.
    fn value_name(&self, e: u16, i: u16) -> Option<Rc<str>> {
        let en = self.prog.enums.get(usize::from(e))?;
        Some(en.values.get(usize::from(i))?.name.clone())
    }

    /// Counts `n` more values named by ranges and lists; false (and an error, once) past
    /// [`MAX_EXPANDED`] in all: a hostile file of huge enums and many ranges is refused,
    /// not expanded without end.
    fn expand(&mut self, n: usize, span: Span) -> bool {
        let before = self.expanded;
        self.expanded = self.expanded.saturating_add(n);
        if self.expanded <= MAX_EXPANDED {
            return true;
        }
        if before <= MAX_EXPANDED {
            self.err(
                Diag::at(
                    Code::LimitEnum,
                    format!("the ranges and lists of this ruleset name more than {MAX_EXPANDED} enum values in all"),
                    span,
                    "too many",
                )
                .help("write `_` or `otherwise` for the values a row does not single out"),
            );
        }
        false
    }
}

impl Checker<'_> {
    /// Arms of a `match` on an ordered enum that share a value: the later one would never
    /// be read for it, so a range drawn too wide is pointed at.
    pub(super) fn arm_overlaps(
        &mut self,
        st: &Ty,
        arms: &[(Pat, Expr, Rc<str>)],
        rows: &[ast::Row],
    ) {
        let Ty::Enum(e) = st else { return };
        if !self
            .prog
            .enums
            .get(usize::from(*e))
            .is_some_and(|en| en.ordered)
        {
            return;
        }
        // The first arm of each value: one pass over the arms' values.
        let mut first: HashMap<(u16, u16), usize> = HashMap::new();
        for (j, (pat, _, text)) in arms.iter().enumerate() {
            let Some(values) = value_set(pat) else {
                continue;
            };
            let earlier = values
                .iter()
                .filter_map(|v| first.get(v).map(|i| (*i, *v)))
                .min();
            if let Some((i, (e, v))) = earlier {
                let (Some(a), Some(b)) = (rows.get(i), rows.get(j)) else {
                    return;
                };
                let value = self.value_name(e, v).unwrap_or_else(|| rc("?"));
                let before = arms[i].2.clone();
                self.err(
                    Diag::at(
                        Code::CheckOverlap,
                        format!("arms `{before}` and `{text}` overlap on {value}"),
                        b.span,
                        "overlaps an earlier arm",
                    )
                    .label(a.span, "this arm")
                    .help("each value belongs to one arm: narrow one of the ranges"),
                );
                return;
            }
            for v in values {
                first.entry(v).or_insert(j);
            }
        }
    }
}

/// A pattern's values as a set (enum values, and true and false); `None` for `_`.
fn value_set(p: &Pat) -> Option<Values> {
    let Pat::Alts(alts) = p else { return None };
    Some(
        alts.iter()
            .filter_map(|a| match a {
                Alt::Enum(e, i) => Some((*e, *i)),
                Alt::Bool(b) => Some((u16::MAX, u16::from(*b))),
                _ => None,
            })
            .collect(),
    )
}

/// A type every ruleset knows (`Int`, `Length`, ...): not an enum.
fn is_builtin_type(name: &str) -> bool {
    matches!(name, "Int" | "Num" | "Length" | "Time" | "Bool" | "Text")
}
