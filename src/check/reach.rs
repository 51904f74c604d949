//! Reachable rolls: which whole numbers an expression can take, worked out from its dice,
//! the declared ranges of the fields and parameters it reads (`lost_percent: 0..100`) and
//! the modifier lists it adds — so a table's rows can be checked against the rolls that
//! reach them. Furious Reason's manoeuvre roll, a D10 plus die roll modifiers running
//! from -9 to +8, reaches -8..18: every one of those must find a row in its column.
//!
//! The analysis works on the checked program (after every definition is checked) and
//! over-approximates: a range it gives holds every value the expression can take.

use super::Checker;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::Value;
use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedMul};

type Q = Ratio<i128>;

/// One end of a range: a number, or unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash)]
enum End {
    Below,
    At(Q),
    Above,
}

/// The values an expression can take: `lo..=hi`, or none (a refusal gives no value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Reach {
    None,
    Span(End, End),
}

use End::{Above, At, Below};

impl Reach {
    const ALL: Reach = Reach::Span(Below, Above);

    fn exactly(q: Q) -> Reach {
        Reach::Span(At(q), At(q))
    }

    fn known(self) -> bool {
        self != Reach::ALL
    }

    /// Ends far past any whole number a key can be (2^80) made unbounded, so that no
    /// later step overflows.
    fn tame(self) -> Reach {
        let limit: i128 = 1 << 80;
        let wild = |q: &Q| q.numer().unsigned_abs() > limit as u128 || *q.denom() > limit;
        match self {
            Reach::Span(lo, hi) => Reach::Span(
                match lo {
                    At(q) if wild(&q) => {
                        if q < Q::from_integer(0) {
                            Below
                        } else {
                            // A huge positive low end: known only to be large.
                            At(Q::from_integer(limit))
                        }
                    }
                    e => e,
                },
                match hi {
                    At(q) if wild(&q) => {
                        if q > Q::from_integer(0) {
                            Above
                        } else {
                            At(Q::from_integer(-limit))
                        }
                    }
                    e => e,
                },
            ),
            r => r,
        }
    }

    /// Both ends of `self` and `other`: the values either can take.
    fn union(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::None, r) | (r, Reach::None) => r,
            (Reach::Span(a, b), Reach::Span(c, d)) => {
                Reach::Span(if a < c { a } else { c }, if b > d { b } else { d })
            }
        }
    }

    /// Only the values a declared range allows (the range is enforced where it is declared).
    fn within(self, range: Option<IntRange>) -> Reach {
        let Some(r) = range else { return self };
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => {
                let rlo = At(Q::from_integer(r.lo.into()));
                let rhi = r.hi.map_or(Above, |h| At(Q::from_integer(h.into())));
                let (lo, hi) = (
                    if lo > rlo { lo } else { rlo },
                    if hi < rhi { hi } else { rhi },
                );
                if lo > hi {
                    Reach::None
                } else {
                    Reach::Span(lo, hi)
                }
            }
        }
    }

    /// Only the values from `lo` to `hi` (whole-number bounds; LO and HI unbounded).
    fn between(self, lo: i128, hi: i128) -> Reach {
        let Reach::Span(a, b) = self else {
            return Reach::None;
        };
        let lo = if lo <= LO {
            Below
        } else {
            At(Q::from_integer(lo))
        };
        let hi = if hi >= HI {
            Above
        } else {
            At(Q::from_integer(hi))
        };
        let (a, b) = (if a > lo { a } else { lo }, if b < hi { b } else { hi });
        if a > b {
            Reach::None
        } else {
            Reach::Span(a, b)
        }
    }

    fn neg(self) -> Reach {
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => Reach::Span(flip(hi), flip(lo)),
        }
    }

    fn add(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::None, _) | (_, Reach::None) => Reach::None,
            (Reach::Span(a, b), Reach::Span(c, d)) => Reach::Span(
                match (a, c) {
                    (At(x), At(y)) => x.checked_add(&y).map_or(Below, At),
                    _ => Below,
                },
                match (b, d) {
                    (At(x), At(y)) => x.checked_add(&y).map_or(Above, At),
                    _ => Above,
                },
            ),
        }
    }

    fn mul(self, other: Reach) -> Reach {
        let (Reach::Span(a, b), Reach::Span(c, d)) = (self, other) else {
            return Reach::None;
        };
        let mut corners = Vec::with_capacity(4);
        for x in [a, b] {
            for y in [c, d] {
                match times(x, y) {
                    Some(p) => corners.push(p),
                    None => return Reach::ALL,
                }
            }
        }
        hull(&corners)
    }

    /// `self / other`, when `other` cannot be zero and is bounded.
    fn div(self, other: Reach) -> Reach {
        match other {
            Reach::None => Reach::None,
            Reach::Span(At(c), At(d)) if c > Q::from_integer(0) || d < Q::from_integer(0) => {
                self.mul(Reach::Span(At(d.recip()), At(c.recip())))
            }
            _ => Reach::ALL,
        }
    }

    /// A monotone rounding applied to both ends.
    fn map(self, f: impl Fn(Q) -> Q) -> Reach {
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => Reach::Span(end_map(lo, &f), end_map(hi, &f)),
        }
    }

    /// The whole numbers in the range, as inclusive bounds (`None` end: unbounded).
    fn whole(self) -> Option<(Option<i128>, Option<i128>)> {
        match self {
            Reach::None => None,
            Reach::Span(lo, hi) => {
                let lo = match lo {
                    At(q) => Some(q.ceil().to_integer()),
                    _ => None,
                };
                let hi = match hi {
                    At(q) => Some(q.floor().to_integer()),
                    _ => None,
                };
                match (lo, hi) {
                    (Some(l), Some(h)) if l > h => None,
                    _ => Some((lo, hi)),
                }
            }
        }
    }
}

fn flip(e: End) -> End {
    match e {
        Below => Above,
        Above => Below,
        At(q) => At(-q),
    }
}

fn end_map(e: End, f: &impl Fn(Q) -> Q) -> End {
    match e {
        At(q) => At(f(q)),
        other => other,
    }
}

/// The product of two ends; `None` when it overflows.
fn times(x: End, y: End) -> Option<End> {
    let zero = Q::from_integer(0);
    let sign = |e: End| match e {
        Below => -1,
        Above => 1,
        At(q) if q < zero => -1,
        At(q) if q > zero => 1,
        At(_) => 0,
    };
    match (x, y) {
        (At(a), At(b)) => a.checked_mul(&b).map(At),
        _ => Some(match sign(x) * sign(y) {
            0 => At(zero),
            s if s < 0 => Below,
            _ => Above,
        }),
    }
}

fn hull(ends: &[End]) -> Reach {
    let mut it = ends.iter().copied();
    let Some(first) = it.next() else {
        return Reach::None;
    };
    let (mut lo, mut hi) = (first, first);
    for e in it {
        if e < lo {
            lo = e;
        }
        if e > hi {
            hi = e;
        }
    }
    Reach::Span(lo, hi)
}

/// What is known of a value: its range and, for records, groups and pairs, its type (so a
/// field read from it finds its declared range).
#[derive(Debug, Clone)]
struct Fact {
    reach: Reach,
    ty: Option<Ty>,
}

impl Fact {
    fn all() -> Fact {
        Fact {
            reach: Reach::ALL,
            ty: None,
        }
    }
    fn of(reach: Reach) -> Fact {
        Fact { reach, ty: None }
    }
    fn union(self, other: Fact) -> Fact {
        Fact {
            reach: self.reach.union(other.reach),
            ty: if self.ty == other.ty { self.ty } else { None },
        }
    }
}

/// Calls followed into at most this many nodes from one call site; past it, "anything".
const BUDGET: u32 = 20_000;
/// Nodes worked out for a whole ruleset; past it, every roll is "anything" (not judged).
const TOTAL_BUDGET: u64 = 2_000_000;

/// Works out reaches over a checked program.
struct Reacher<'p> {
    prog: &'p Program,
    budget: u32,
    total: u64,
    busy: Vec<Callee>,
    /// What a call gives, by what its arguments can be (a rule used twice with the same
    /// ranges is worked out once).
    memo: std::collections::HashMap<(Callee, Vec<Reach>), Fact>,
}

impl<'p> Reacher<'p> {
    fn new(prog: &'p Program) -> Self {
        Reacher {
            prog,
            budget: BUDGET,
            total: TOTAL_BUDGET,
            busy: Vec::new(),
            memo: Default::default(),
        }
    }
}

impl Reacher<'_> {
    fn param_env(&self, params: &[ParamInfo], slots: u32) -> Vec<Fact> {
        let mut env: Vec<Fact> = params
            .iter()
            .map(|p| Fact {
                reach: Reach::ALL.within(p.range),
                ty: Some(p.ty.clone()),
            })
            .collect();
        env.resize(slots as usize, Fact::all());
        env
    }

    fn fact(&mut self, e: &Expr, env: &mut Vec<Fact>) -> Fact {
        let mut f = crate::limits::deep(|| self.fact_of(e, env));
        f.reach = f.reach.tame();
        f
    }

    fn fact_of(&mut self, e: &Expr, env: &mut Vec<Fact>) -> Fact {
        if self.budget == 0 || self.total == 0 {
            return Fact::all();
        }
        self.budget -= 1;
        self.total -= 1;
        let prog = self.prog;
        match &e.kind {
            ExprKind::Value(v) => match v {
                Value::Num(r) => Fact::of(Reach::exactly(Q::new(
                    (*r.numer()).into(),
                    (*r.denom()).into(),
                ))),
                _ => Fact::all(),
            },
            ExprKind::Local(s) => env.get(*s as usize).cloned().unwrap_or_else(Fact::all),
            ExprKind::State(i) => {
                let Some(rec) = prog.state.and_then(|s| prog.records.get(s as usize)) else {
                    return Fact::all();
                };
                Fact {
                    reach: Reach::ALL.within(rec.ranges.get(*i as usize).copied().flatten()),
                    ty: rec.shape.fields.get(*i as usize).map(|(_, t)| t.clone()),
                }
            }
            ExprKind::Const(i) => match prog.consts.get(*i as usize) {
                Some(c) => {
                    let mut fresh = vec![Fact::all(); c.slots as usize];
                    self.fact(&c.value, &mut fresh)
                }
                None => Fact::all(),
            },
            ExprKind::Field(base, name, _) => {
                let base = self.fact(base, env);
                match base.ty {
                    Some(Ty::Record(shape)) => {
                        let Some(i) = shape.fields.iter().position(|(n, _)| n == name) else {
                            return Fact::all();
                        };
                        let range = shape
                            .record
                            .and_then(|r| prog.records.get(r as usize))
                            .and_then(|r| r.ranges.get(i).copied().flatten());
                        Fact {
                            reach: Reach::ALL.within(range),
                            ty: Some(shape.fields[i].1.clone()),
                        }
                    }
                    _ => Fact::all(),
                }
            }
            ExprKind::Member(group, _) => match self.fact(group, env).ty {
                Some(Ty::Group(t)) => Fact {
                    reach: Reach::ALL,
                    ty: Some(*t),
                },
                _ => Fact::all(),
            },
            ExprKind::Neg(x) => Fact::of(self.fact(x, env).reach.neg()),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.fact(a, env).reach, self.fact(b, env).reach);
                Fact::of(match op {
                    BinOp::Add => a.add(b),
                    BinOp::Sub => a.add(b.neg()),
                    BinOp::Mul => a.mul(b),
                    BinOp::Div => a.div(b),
                    _ => Reach::ALL,
                })
            }
            ExprKind::Dice { count, sides } => Fact::of(Reach::Span(
                At(Q::from_integer((*count).into())),
                At(Q::from_integer(i128::from(*count) * i128::from(*sides))),
            )),
            ExprKind::Call(callee, args) => self.call(*callee, args, env),
            ExprKind::If(branches, other) => {
                let Some(other) = other else {
                    return Fact::all();
                };
                // Each branch knows its condition held, and the ones before it did not.
                let mut otherwise = env.clone();
                let mut out = Fact::of(Reach::None);
                for (cond, value) in branches {
                    let mut then = otherwise.clone();
                    assume(cond, true, &mut then);
                    out = out.union(self.fact(value, &mut then));
                    assume(cond, false, &mut otherwise);
                }
                out.union(self.fact(other, &mut otherwise))
            }
            ExprKind::Match(x, arms) => {
                self.fact(x, env);
                let mut out = Fact::of(Reach::None);
                for (pat, v, _) in arms {
                    let mut arm = env.clone();
                    if !narrow_to(x, pat, &mut arm) {
                        continue;
                    }
                    out = out.union(self.fact(v, &mut arm));
                }
                out
            }
            ExprKind::Refuse { .. } | ExprKind::NotGiven { .. } => Fact::of(Reach::None),
            ExprKind::Block(stmts, value) => {
                for s in stmts {
                    match s {
                        Stmt::Let(slot, x) => {
                            let f = self.fact(x, env);
                            if let Some(place) = env.get_mut(*slot as usize) {
                                *place = f;
                            }
                        }
                        Stmt::Guard(g) => past_guard(g, env),
                        _ => {}
                    }
                }
                self.fact(value, env)
            }
            ExprKind::Fresh { value, slots } => {
                let mut fresh = vec![Fact::all(); *slots as usize];
                self.fact(value, &mut fresh)
            }
            ExprKind::Default { of, index } => {
                let default = match of {
                    DefaultOf::Record(r) => prog
                        .records
                        .get(*r as usize)
                        .and_then(|r| r.defaults.get(*index as usize))
                        .and_then(Option::as_ref),
                    DefaultOf::Param(c) => params_of(prog, *c)
                        .and_then(|p| p.get(*index as usize))
                        .and_then(|p| p.default.as_ref()),
                };
                match default {
                    Some(d) => self.fact(d, &mut Vec::new()),
                    None => Fact::all(),
                }
            }
            ExprKind::InRange { value, range, .. } => {
                let f = self.fact(value, env);
                Fact {
                    reach: f.reach.within(Some(*range)),
                    ty: f.ty,
                }
            }
            ExprKind::Not(_) | ExprKind::Record(_) | ExprKind::Pair(..) | ExprKind::Chosen(_) => {
                Fact::all()
            }
        }
    }

    fn call(&mut self, callee: Callee, args: &[Expr], env: &mut Vec<Fact>) -> Fact {
        let args: Vec<Fact> = args.iter().map(|a| self.fact(a, env)).collect();
        let prog = self.prog;
        if let Callee::Builtin(b) = callee {
            let first = args.first().map_or(Reach::ALL, |f| f.reach);
            return Fact::of(match b {
                Builtin::Floor => first.map(|q| q.floor()),
                Builtin::Ceil => first.map(|q| q.ceil()),
                Builtin::Round => first.map(|q| q.round()),
                Builtin::Trunc => first.map(|q| q.trunc()),
                Builtin::Abs => match first {
                    Reach::Span(lo, hi) if lo >= At(Q::from_integer(0)) => Reach::Span(lo, hi),
                    Reach::Span(lo, hi) if hi <= At(Q::from_integer(0)) => {
                        Reach::Span(lo, hi).neg()
                    }
                    Reach::Span(lo, hi) => {
                        let top = if flip(lo) > hi { flip(lo) } else { hi };
                        Reach::Span(At(Q::from_integer(0)), top)
                    }
                    Reach::None => Reach::None,
                },
                Builtin::Min | Builtin::Max => {
                    let min = b == Builtin::Min;
                    let mut it = args.iter().map(|f| f.reach);
                    let start = it.next().unwrap_or(Reach::ALL);
                    it.fold(start, |acc, r| match (acc, r) {
                        (Reach::Span(a, b), Reach::Span(c, d)) => {
                            let pick = |x: End, y: End| if (x < y) == min { x } else { y };
                            Reach::Span(pick(a, c), pick(b, d))
                        }
                        _ => Reach::None,
                    })
                }
                Builtin::Dice => match (first, args.get(1).map(|f| f.reach)) {
                    (Reach::Span(At(c), At(d)), Some(Reach::Span(_, At(s))))
                        if c >= Q::from_integer(0) =>
                    {
                        Reach::Span(At(c), d.checked_mul(&s).map_or(Above, At))
                    }
                    _ => Reach::ALL,
                },
                Builtin::Inches | Builtin::Feet | Builtin::Moves => Reach::ALL,
            });
        }
        if self.busy.contains(&callee) {
            return Fact::all();
        }
        let key = (callee, args.iter().map(|a| a.reach).collect::<Vec<_>>());
        if let Some(f) = self.memo.get(&key) {
            return f.clone();
        }
        self.busy.push(callee);
        let out = match callee {
            Callee::Rule(r) => match prog.rules.get(r as usize) {
                Some(rule) => {
                    let mut inner = bind(&rule.params, args, rule.slots);
                    let f = self.fact(&rule.body, &mut inner);
                    Fact {
                        reach: f.reach,
                        ty: Some(rule.ret.clone()),
                    }
                }
                None => Fact::all(),
            },
            Callee::Table(t) => match prog.tables.get(t as usize) {
                Some(table) => {
                    let inner = bind(&table.params, args, table.slots);
                    let k = number_key(table);
                    let mut out = Fact::of(Reach::None);
                    for row in &table.rows {
                        // In a row `1-6 => r`, the key is 1 to 6.
                        let mut env = inner.clone();
                        if let Some(k) = k {
                            let hull = row.patterns.get(k).and_then(intervals).and_then(|iv| {
                                let lo = iv.iter().map(|x| x.0).min()?;
                                let hi = iv.iter().map(|x| x.1).max()?;
                                Some((lo, hi))
                            });
                            if let (Some((lo, hi)), Some(slot)) = (hull, env.get_mut(k)) {
                                slot.reach = slot.reach.between(lo, hi);
                                if slot.reach == Reach::None {
                                    continue; // no argument reaches this row
                                }
                            }
                        }
                        let f = self.fact(&row.cell, &mut env);
                        out = out.union(f);
                    }
                    Fact {
                        reach: out.reach,
                        ty: Some(table.ret.clone()),
                    }
                }
                None => Fact::all(),
            },
            Callee::Modifiers(m) => match prog.modifiers.get(m as usize) {
                Some(list) => {
                    let mut inner = bind(&list.params, args, list.slots);
                    Fact::of(self.total(&list.modifiers, &mut inner))
                }
                None => Fact::all(),
            },
            Callee::Builtin(_) => Fact::all(),
        };
        self.busy.pop();
        self.memo.insert(key, out.clone());
        out
    }

    /// The total of a modifier list: each modifier adds its amount (times its `per`) or,
    /// when its condition may fail, nothing. Modifiers that ask whether one thing is one
    /// value or another (`u.grade == grenadier`, `u.grade == guard`) cannot both apply:
    /// at most one of them is taken.
    fn total(&mut self, modifiers: &[ModifierInfo], env: &mut Vec<Fact>) -> Reach {
        let zero = Reach::exactly(Q::from_integer(0));
        let mut total = zero;
        // For each place compared (`u.grade`): for each value asked for, the sum of the
        // modifiers that apply when the place is that value.
        let mut exclusive: Vec<(String, Vec<(String, Reach)>)> = Vec::new();
        for md in modifiers {
            let mut each = self.fact(&md.amount, env).reach;
            if let Some(per) = &md.per {
                each = each.mul(self.fact(per, env).reach);
            }
            let Some(cond) = &md.condition else {
                total = total.add(each);
                continue;
            };
            self.fact(cond, env);
            match one_value_of(cond) {
                Some((place, value)) => {
                    let values = match exclusive.iter_mut().position(|(p, _)| *p == place) {
                        Some(i) => &mut exclusive[i].1,
                        None => {
                            exclusive.push((place, Vec::new()));
                            &mut exclusive.last_mut().expect("just pushed").1
                        }
                    };
                    match values.iter_mut().find(|(v, _)| *v == value) {
                        Some((_, r)) => *r = r.add(each),
                        None => values.push((value, each)),
                    }
                }
                None => total = total.add(each.union(zero)),
            }
        }
        // One value at most holds: its modifiers together, or none of them.
        exclusive.into_iter().fold(total, |t, (_, values)| {
            t.add(values.into_iter().fold(zero, |r, (_, v)| r.union(v)))
        })
    }
}

/// For a condition `PLACE == VALUE` (an enum value): PLACE and VALUE as text. Two such
/// conditions on one place with different values cannot both hold; with the same value,
/// they hold together.
fn one_value_of(cond: &Expr) -> Option<(String, String)> {
    let ExprKind::Binary(BinOp::Eq, a, b) = &cond.kind else {
        return None;
    };
    let (place, value) = match (&a.kind, &b.kind) {
        (_, ExprKind::Value(v @ Value::Enum(..))) => (a, v),
        (ExprKind::Value(v @ Value::Enum(..)), _) => (b, v),
        _ => return None,
    };
    Some((place_text(place)?, format!("{value:?}")))
}

fn place_text(e: &Expr) -> Option<String> {
    match &e.kind {
        ExprKind::Local(s) => Some(format!("#{s}")),
        ExprKind::State(i) => Some(format!("state.{i}")),
        ExprKind::Field(base, name, _) => Some(format!("{}.{name}", place_text(base)?)),
        _ => None,
    }
}

fn bind(params: &[ParamInfo], args: Vec<Fact>, slots: u32) -> Vec<Fact> {
    let mut env: Vec<Fact> = params
        .iter()
        .zip(args)
        .map(|(p, a)| Fact {
            reach: a.reach.within(p.range),
            ty: Some(p.ty.clone()),
        })
        .collect();
    env.resize(slots as usize, Fact::all());
    env
}

fn params_of(prog: &Program, c: Callee) -> Option<&[ParamInfo]> {
    match c {
        Callee::Rule(i) => prog.rules.get(i as usize).map(|r| r.params.as_slice()),
        Callee::Table(i) => prog.tables.get(i as usize).map(|t| t.params.as_slice()),
        Callee::Modifiers(i) => prog.modifiers.get(i as usize).map(|m| m.params.as_slice()),
        Callee::Builtin(_) => None,
    }
}

/// A table called with a number key: where, and what the key can be.
struct CallSite {
    pub table: u32,
    /// The number key as written.
    pub span: Span,
    /// The values it can take.
    pub reach: Reach,
    /// The other keys, where written out (`manoeuvre_table(good_order, ...)`).
    pub others: Vec<Option<Value>>,
    /// Whether it is in an `example` (a check, not a roll).
    pub example: bool,
}

/// Finds every call of a number-keyed table and what its key can be.
struct Sites<'p> {
    reacher: Reacher<'p>,
    found: Vec<CallSite>,
    example: bool,
}

impl Sites<'_> {
    fn fact(&mut self, e: &Expr, env: &mut Vec<Fact>) -> Fact {
        self.reacher.budget = BUDGET;
        self.reacher.busy.clear();
        self.reacher.fact(e, env)
    }

    fn site(&mut self, t: u32, args: &[Expr], env: &mut Vec<Fact>) {
        let prog = self.reacher.prog;
        let Some(table) = prog.tables.get(t as usize) else {
            return;
        };
        let Some(k) = number_key(table) else { return };
        let Some(arg) = args.get(k) else { return };
        let reach = self.fact(arg, env).reach;
        let others = args
            .iter()
            .take(table.keys)
            .enumerate()
            .filter(|(i, _)| *i != k)
            .map(|(_, a)| written_value(a))
            .collect();
        self.found.push(CallSite {
            table: t,
            span: arg.span,
            reach,
            others,
            example: self.example,
        });
    }

    fn visit(&mut self, e: &Expr, env: &mut Vec<Fact>) {
        crate::limits::deep(|| self.visit_inner(e, env));
    }

    fn visit_inner(&mut self, e: &Expr, env: &mut Vec<Fact>) {
        match &e.kind {
            ExprKind::Call(callee, args) => {
                if let Callee::Table(t) = callee {
                    self.site(*t, args, env);
                }
                for a in args {
                    self.visit(a, env);
                }
            }
            ExprKind::Field(x, _, _) | ExprKind::Neg(x) | ExprKind::Not(x) => self.visit(x, env),
            ExprKind::InRange { value: x, .. } => self.visit(x, env),
            ExprKind::Member(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Pair(a, b) => {
                self.visit(a, env);
                self.visit(b, env);
            }
            ExprKind::If(branches, other) => {
                let mut otherwise = env.clone();
                for (c, v) in branches {
                    self.visit(c, &mut otherwise);
                    let mut then = otherwise.clone();
                    assume(c, true, &mut then);
                    self.visit(v, &mut then);
                    assume(c, false, &mut otherwise);
                }
                if let Some(o) = other {
                    self.visit(o, &mut otherwise);
                }
            }
            ExprKind::Match(x, arms) => {
                self.visit(x, env);
                for (pat, v, _) in arms {
                    let mut arm = env.clone();
                    if narrow_to(x, pat, &mut arm) {
                        self.visit(v, &mut arm);
                    }
                }
            }
            ExprKind::Record(fields) => {
                for (_, v) in fields {
                    self.visit(v, env);
                }
            }
            ExprKind::Block(stmts, value) => {
                for s in stmts {
                    match s {
                        Stmt::Let(slot, x) => {
                            self.visit(x, env);
                            let f = self.fact(x, env);
                            if let Some(place) = env.get_mut(*slot as usize) {
                                *place = f;
                            }
                        }
                        Stmt::Guard(x) => {
                            self.visit(x, env);
                            past_guard(x, env);
                        }
                        Stmt::Set(effect) => self.visit(&effect.value, env),
                        Stmt::Note(_) => {}
                    }
                }
                self.visit(value, env);
            }
            ExprKind::Fresh { value, slots } => {
                let mut fresh = vec![Fact::all(); *slots as usize];
                self.visit(value, &mut fresh);
            }
            ExprKind::Value(_)
            | ExprKind::State(_)
            | ExprKind::Local(_)
            | ExprKind::Const(_)
            | ExprKind::Dice { .. }
            | ExprKind::Refuse { .. }
            | ExprKind::NotGiven { .. }
            | ExprKind::Default { .. }
            | ExprKind::Chosen(_) => {}
        }
    }
}

/// The key that takes a whole number (a die roll), if a table has one.
pub(super) fn number_key(t: &TableInfo) -> Option<usize> {
    t.params[..t.keys.min(t.params.len())]
        .iter()
        .position(|p| p.ty == Ty::Int)
}

/// Below and above every whole number a key can be.
pub(super) const LO: i128 = i64::MIN as i128 - 1;
pub(super) const HI: i128 = i64::MAX as i128 + 1;

/// The whole numbers a pattern covers, as inclusive intervals (`None` for `_`).
pub(super) fn intervals(p: &Pat) -> Option<Vec<(i128, i128)>> {
    match p {
        Pat::Any => None,
        Pat::Alts(alts) => Some(
            alts.iter()
                .filter_map(|a| match a {
                    Alt::AtLeast(n) => Some((i128::from(*n), HI)),
                    Alt::AtMost(n) => Some((LO, i128::from(*n))),
                    Alt::Range(a, b) => Some((i128::from(*a), i128::from(*b))),
                    _ => None,
                })
                .collect(),
        ),
    }
}

/// Numbers as a rulebook would say them: `7`, `7-9`, `10 or more`, `0 or less`.
pub(super) fn shown((lo, hi): (i128, i128)) -> String {
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    match (lo < min, hi > max) {
        (true, true) => "every number".into(),
        (true, false) => format!("{hi} or less"),
        (false, true) => format!("{lo} or more"),
        (false, false) if lo == hi => lo.to_string(),
        // `-8..18`: a dash between negative numbers reads as a minus sign.
        (false, false) if lo < 0 => format!("{lo}..{hi}"),
        (false, false) => format!("{lo}-{hi}"),
    }
}

/// Several stretches of numbers: `3, 5-6 and 11 or more`.
pub(super) fn shown_all(iv: &[(i128, i128)]) -> String {
    let parts: Vec<String> = iv.iter().map(|&i| shown(i)).collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}

/// One way the other keys can be — one column of the Manoeuvre Table (`order:
/// good_order`) — with the rows that apply to it and the numbers they cover.
pub(super) struct Column {
    /// The other keys, each as a pattern (one value each, when they could be listed).
    pub others: Vec<Pat>,
    /// The rows that apply to it, in order (rows giving the other keys as `_` included).
    pub rows: Vec<usize>,
    /// Every number those rows cover, sorted and merged.
    pub covered: Vec<(i128, i128)>,
    /// ` in column `good_order`` or empty (a table with no other keys).
    pub name: String,
}

/// The patterns of a row's other keys (all but the number key `k`), in order.
fn other_pats(row: &RowInfo, k: usize) -> impl Iterator<Item = &Pat> {
    row.patterns
        .iter()
        .enumerate()
        .filter(move |(i, _)| *i != k)
        .map(|(_, p)| p)
}

fn others(row: &RowInfo, k: usize) -> Vec<Pat> {
    row.patterns
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, p)| p.clone())
        .collect()
}

/// Does `general` match everything `specific` does?
fn subsumes(general: &Pat, specific: &Pat) -> bool {
    match (general, specific) {
        (Pat::Any, _) => true,
        (Pat::Alts(_), Pat::Any) => false,
        (Pat::Alts(g), Pat::Alts(s)) => s.iter().all(|a| g.contains(a)),
    }
}

/// Most columns worked out for one table, and most (column, row) pairs: past them a
/// table is not judged (a chart with tens of thousands of rows is a generated file).
const MAX_COLUMNS: usize = 4096;
const MAX_COLUMN_ROWS: usize = 2_000_000;

fn finish(
    rows: &[RowInfo],
    k: usize,
    others: Vec<Pat>,
    name: String,
    applies: Vec<usize>,
) -> Column {
    let mut all: Vec<(i128, i128)> = Vec::new();
    for &r in &applies {
        match intervals(&rows[r].patterns[k]) {
            Some(iv) => all.extend(iv),
            None => all.push((LO, HI)),
        }
    }
    Column {
        others,
        rows: applies,
        covered: merge(all),
        name,
    }
}

/// The columns of a table keyed by a number at `k`: every combination of its other
/// keys when they are named values (enums, true/false), each covered by every row
/// that matches it; otherwise, the other keys as the rows write them.
pub(super) fn columns(
    prog: &Program,
    table: &TableInfo,
    rows: &[RowInfo],
    k: usize,
) -> Vec<Column> {
    let keys: Vec<&ParamInfo> = table.params[..table.keys.min(table.params.len())]
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, p)| p)
        .collect();
    // The values of each other key, if they can be listed.
    let mut values: Vec<Vec<(Value, String)>> = Vec::new();
    for p in &keys {
        match crate::program::listed_values(prog, &p.ty) {
            Some(v) => values.push(v),
            None => {
                values.clear();
                break;
            }
        }
    }
    let combos = values
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()));
    let listable = values.len() == keys.len()
        && combos
            .is_some_and(|n| n <= MAX_COLUMNS && n.saturating_mul(rows.len()) <= MAX_COLUMN_ROWS);
    let mut out = Vec::new();
    if listable {
        let mut index = vec![0usize; values.len()];
        loop {
            let combo: Vec<&(Value, String)> =
                index.iter().zip(&values).map(|(&i, vs)| &vs[i]).collect();
            let applies: Vec<usize> = (0..rows.len())
                .filter(|&r| {
                    other_pats(&rows[r], k)
                        .zip(&combo)
                        .all(|(p, (v, _))| p.matches(v))
                })
                .collect();
            if !applies.is_empty() {
                let pats = combo
                    .iter()
                    .map(|(v, _)| match v {
                        Value::Enum(e, i) => Pat::Alts(vec![Alt::Enum(*e, *i)]),
                        Value::Bool(b) => Pat::Alts(vec![Alt::Bool(*b)]),
                        _ => Pat::Any,
                    })
                    .collect();
                let name = if combo.is_empty() {
                    String::new()
                } else {
                    let names: Vec<&str> = combo.iter().map(|(_, n)| n.as_str()).collect();
                    format!(" in column `{}`", names.join(" | "))
                };
                out.push(finish(rows, k, pats, name, applies));
            }
            // Next combination, the last key fastest.
            let mut i = index.len();
            loop {
                if i == 0 {
                    return out;
                }
                i -= 1;
                index[i] += 1;
                if index[i] < values[i].len() {
                    break;
                }
                index[i] = 0;
            }
        }
    }
    // Other keys that cannot be listed (a second number, a text): columns as the rows
    // write them, each covered by the rows that give its keys as generally or more.
    let mut groups: Vec<(Vec<Pat>, String)> = Vec::new();
    for row in rows {
        let o = others(row, k);
        if !groups.iter().any(|(g, _)| *g == o) {
            if groups.len() >= MAX_COLUMNS {
                return Vec::new();
            }
            let name = row
                .column
                .as_ref()
                .map_or(String::new(), |c| format!(" in column `{c}`"));
            groups.push((o, name));
        }
    }
    if groups.len().saturating_mul(rows.len()) > MAX_COLUMN_ROWS {
        return Vec::new();
    }
    for (o, name) in groups {
        let applies: Vec<usize> = (0..rows.len())
            .filter(|&r| other_pats(&rows[r], k).zip(&o).all(|(g, s)| subsumes(g, s)))
            .collect();
        out.push(finish(rows, k, o, name, applies));
    }
    out
}

/// Sorted, overlapping and touching stretches joined.
fn merge(mut all: Vec<(i128, i128)>) -> Vec<(i128, i128)> {
    all.sort();
    let mut out: Vec<(i128, i128)> = Vec::new();
    for (lo, hi) in all {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The numbers of `lo..=hi` that `covered` (sorted, merged) leaves out.
pub(super) fn uncovered((lo, hi): (i128, i128), covered: &[(i128, i128)]) -> Vec<(i128, i128)> {
    let mut out = Vec::new();
    let mut next = lo;
    for &(a, b) in covered {
        if b < next {
            continue;
        }
        if a > hi {
            break;
        }
        if a > next {
            out.push((next, a - 1));
        }
        next = next.max(b.saturating_add(1));
        if next > hi {
            return out;
        }
    }
    if next <= hi {
        out.push((next, hi));
    }
    out
}

/// The whole numbers a reach holds, within what a key can be (a number past the 64
/// bits of a whole number overflows before it could be looked up).
fn whole_bounds(r: Reach) -> Option<(i128, i128)> {
    let (lo, hi) = r.whole()?;
    let (lo, hi) = (lo.unwrap_or(LO).max(LO), hi.unwrap_or(HI).min(HI));
    (lo <= hi).then_some((lo, hi))
}

/// The rolls a call site can make that find no row in a column they may be read on.
fn without_rows(table: &TableInfo, cols: &[Column], s: &CallSite, out: &mut Vec<Diag>) {
    let Some(bounds) = whole_bounds(s.reach) else {
        return;
    };
    if !s.reach.known() {
        return;
    }
    // A roll past the range the key is declared with fails at run time: an error here.
    let k = number_key(table).unwrap_or(0);
    let mut bounds = bounds;
    if let Some(key) = table.params.get(k) {
        if let Some(r) = key.range {
            let range = (i128::from(r.lo), r.hi.map_or(HI, i128::from));
            let outside = [
                (bounds.0, bounds.1.min(range.0 - 1)),
                (bounds.0.max(range.1.saturating_add(1)), bounds.1),
            ];
            let outside: Vec<(i128, i128)> = outside.into_iter().filter(|(a, b)| a <= b).collect();
            if !outside.is_empty() {
                let can = shown(bounds);
                out.push(
                    Diag::at(
                        "umpire::check::roll_out_of_range",
                        format!(
                            "this roll can be {can}, and `{}` of `{}` takes {r}: {} would be refused",
                            key.name,
                            table.name,
                            shown_all(&outside)
                        ),
                        s.span,
                        format!("can be {can}"),
                    )
                    .label(key.span, format!("takes {r}"))
                    .help("widen the key's range (and give rows for the new numbers), or change the roll"),
                );
            }
            bounds = (bounds.0.max(range.0), bounds.1.min(range.1));
            if bounds.0 > bounds.1 {
                return;
            }
        }
    }
    for c in cols {
        let applies = s.others.iter().zip(&c.others).all(|(v, p)| match v {
            Some(v) => p.matches(v),
            None => true,
        });
        if !applies {
            continue;
        }
        let missing = uncovered(bounds, &c.covered);
        if !missing.is_empty() {
            let can = shown(bounds);
            let what = if bounds.0 == bounds.1 {
                format!("this key is {can}")
            } else {
                format!("this roll can be {can}")
            };
            out.push(
                            Diag::at(
                                "umpire::check::roll_without_row",
                                format!(
                                    "{what}, and no row of `{}` covers {}{}",
                                    table.name,
                                    shown_all(&missing),
                                    c.name
                                ),
                                s.span,
                                format!("can be {can}"),
                            )
                            .help(format!(
                                "add a row for {}, or widen a neighbouring row (the roll's range comes from its dice and the declared ranges of what is added to them)",
                                shown_all(&missing)
                            )),
                        );
        }
    }
}

impl Checker<'_> {
    /// Every roll a call site can make must find a row in its column (an error at every
    /// load), and a row no roll reaches is a warning. Also: a table whose number key is
    /// declared with a range (`roll: 1..10`) must cover that range.
    pub(super) fn reachable_rolls(&mut self) {
        let prog: &Program = self.prog;
        let mut sites = Sites {
            reacher: Reacher::new(prog),
            found: Vec::new(),
            example: false,
        };
        for r in &prog.rules {
            let mut env = sites.reacher.param_env(&r.params, r.slots);
            sites.visit(&r.body, &mut env);
        }
        for t in &prog.tables {
            for row in &t.rows {
                let mut env = sites.reacher.param_env(&t.params, t.slots);
                sites.visit(&row.cell, &mut env);
            }
        }
        for m in &prog.modifiers {
            let mut env = sites.reacher.param_env(&m.params, m.slots);
            for md in &m.modifiers {
                for e in [Some(&md.amount), md.per.as_ref(), md.condition.as_ref()]
                    .into_iter()
                    .flatten()
                {
                    sites.visit(e, &mut env);
                }
            }
        }
        for c in &prog.consts {
            let mut env = vec![Fact::all(); c.slots as usize];
            sites.visit(&c.value, &mut env);
        }
        // Defaults are worked out where they are used, each in a scope of its own.
        let defaults = prog
            .rules
            .iter()
            .flat_map(|r| &r.params)
            .chain(prog.tables.iter().flat_map(|t| &t.params))
            .chain(prog.modifiers.iter().flat_map(|m| &m.params))
            .filter_map(|p| p.default.as_ref())
            .chain(
                prog.records
                    .iter()
                    .flat_map(|r| r.defaults.iter().flatten()),
            );
        for d in defaults {
            sites.visit(d, &mut Vec::new());
        }
        sites.example = true;
        for ex in &prog.examples {
            for check in &ex.checks {
                let mut env = vec![Fact::all(); check.query.slots as usize];
                sites.visit(&check.query.expr, &mut env);
            }
        }
        let found = sites.found;
        let mut diags = Vec::new();
        for (t, table) in prog.tables.iter().enumerate() {
            if self.broken_tables.contains(&t) {
                continue;
            }
            let Some(k) = number_key(table) else { continue };
            let cols = columns(prog, table, &table.rows, k);
            let key = &table.params[k];
            let mine: Vec<&CallSite> = found.iter().filter(|s| s.table as usize == t).collect();
            for s in &mine {
                without_rows(table, &cols, s, &mut diags);
            }
            // Rows no roll reaches: only when every roll made of the table is known.
            let rolls: Vec<&&CallSite> = mine.iter().filter(|s| !s.example).collect();
            let reachable = if rolls.is_empty() {
                match key.range {
                    Some(_) => Reach::ALL.within(key.range),
                    None => continue,
                }
            } else if rolls.iter().all(|s| s.reach.known()) {
                rolls
                    .iter()
                    .fold(Reach::None, |acc, s| acc.union(s.reach))
                    .within(key.range)
            } else {
                continue;
            };
            let Some(bounds) = whole_bounds(reachable) else {
                continue;
            };
            for row in &table.rows {
                let Some(iv) = intervals(&row.patterns[k]) else {
                    continue;
                };
                if not_given(&row.cell) {
                    continue; // a gap in the source, written down on purpose
                }
                let reached = iv.iter().any(|&(a, b)| a.max(bounds.0) <= b.min(bounds.1));
                if reached || iv.is_empty() {
                    continue;
                }
                let mut d = Diag::at(
                    "umpire::check::unreachable_row",
                    if rolls.is_empty() {
                        format!(
                            "no roll reaches row {} of `{}`: `{}` is declared {}",
                            row.quoted(),
                            table.name,
                            key.name,
                            shown(bounds)
                        )
                    } else {
                        format!(
                            "no roll reaches row {} of `{}`: the rolls made of it are {}",
                            row.quoted(),
                            table.name,
                            shown(bounds)
                        )
                    },
                    row.span,
                    "no roll reaches this row",
                )
                .help("remove the row, or check the dice and modifiers of the calls")
                .warning();
                if rolls.is_empty() {
                    d = d.label(key.span, "declared here");
                }
                if let Some(s) = rolls.first() {
                    d = d.label(
                        s.span,
                        format!("can be {}", shown(whole_bounds(s.reach).unwrap_or(bounds))),
                    );
                }
                diags.push(d);
            }
        }
        for d in diags {
            self.err(d);
        }
    }
}

/// Is a cell "not given in the source"?
fn not_given(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::NotGiven { .. } => true,
        ExprKind::InRange { value, .. } => not_given(value),
        _ => false,
    }
}

/// Does `e` give no value (a refusal, a gap in the source), whichever way it goes?
fn gives_nothing(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Refuse { .. } | ExprKind::NotGiven { .. } => true,
        ExprKind::Block(_, v) => gives_nothing(v),
        ExprKind::If(branches, Some(other)) => {
            branches.iter().all(|(_, v)| gives_nothing(v)) && gives_nothing(other)
        }
        _ => false,
    }
}

/// After a guard whose every branch refuses (`if r < 1 { refuse "..." }`), none of its
/// conditions held.
fn past_guard(g: &Expr, env: &mut [Fact]) {
    if let ExprKind::If(branches, None) = &g.kind {
        if branches.iter().all(|(_, v)| gives_nothing(v)) {
            for (c, _) in branches {
                assume(c, false, env);
            }
        }
    }
}

/// A whole number written out, as a bound.
fn constant(e: &Expr) -> Option<Q> {
    match &e.kind {
        ExprKind::Value(Value::Num(r)) => Some(Q::new((*r.numer()).into(), (*r.denom()).into())),
        ExprKind::Neg(x) => constant(x).map(|q| -q),
        _ => None,
    }
}

/// Narrows the locals `cond` compares with a number, knowing it is `truth`:
/// `r < 1` false gives r 1 or more. (Only what is certain: other conditions teach
/// nothing.)
fn assume(cond: &Expr, truth: bool, env: &mut [Fact]) {
    match &cond.kind {
        ExprKind::Not(c) => assume(c, !truth, env),
        ExprKind::Binary(BinOp::And, a, b) if truth => {
            assume(a, true, env);
            assume(b, true, env);
        }
        ExprKind::Binary(BinOp::Or, a, b) if !truth => {
            assume(a, false, env);
            assume(b, false, env);
        }
        ExprKind::Binary(op, a, b) => {
            // `slot OP c`, or `c OP slot` turned round.
            let (slot, op, c) = match (&a.kind, constant(b), constant(a), &b.kind) {
                (ExprKind::Local(s), Some(c), _, _) => (*s, *op, c),
                (_, _, Some(c), ExprKind::Local(s)) => (
                    *s,
                    match op {
                        BinOp::Lt => BinOp::Gt,
                        BinOp::Le => BinOp::Ge,
                        BinOp::Gt => BinOp::Lt,
                        BinOp::Ge => BinOp::Le,
                        other => *other,
                    },
                    c,
                ),
                _ => return,
            };
            // What holds: the operator, or its opposite.
            let op = if truth {
                op
            } else {
                match op {
                    BinOp::Lt => BinOp::Ge,
                    BinOp::Le => BinOp::Gt,
                    BinOp::Gt => BinOp::Le,
                    BinOp::Ge => BinOp::Lt,
                    BinOp::Eq => BinOp::Ne,
                    BinOp::Ne => BinOp::Eq,
                    _ => return,
                }
            };
            let Some(f) = env.get_mut(slot as usize) else {
                return;
            };
            let Reach::Span(lo, hi) = f.reach else {
                return;
            };
            // (`<` and `>` keep their bound: a value just past it is not excluded, which
            // only ever widens what is judged.)
            let (lo, hi) = match op {
                BinOp::Lt | BinOp::Le => (lo, if hi < At(c) { hi } else { At(c) }),
                BinOp::Gt | BinOp::Ge => (if lo > At(c) { lo } else { At(c) }, hi),
                BinOp::Eq => (
                    if lo > At(c) { lo } else { At(c) },
                    if hi < At(c) { hi } else { At(c) },
                ),
                _ => return,
            };
            f.reach = if lo > hi {
                Reach::None
            } else {
                Reach::Span(lo, hi)
            };
        }
        _ => {}
    }
}

/// In the arm of a `match` on a local, the local is what the arm's pattern takes (its
/// numbers' hull); false when no value of it reaches the arm.
fn narrow_to(x: &Expr, pat: &Pat, env: &mut [Fact]) -> bool {
    let ExprKind::Local(slot) = &x.kind else {
        return true;
    };
    let Some(iv) = intervals(pat) else {
        return true;
    };
    let (Some(lo), Some(hi)) = (iv.iter().map(|x| x.0).min(), iv.iter().map(|x| x.1).max()) else {
        return true;
    };
    match env.get_mut(*slot as usize) {
        Some(f) => {
            f.reach = f.reach.between(lo, hi);
            f.reach != Reach::None
        }
        None => true,
    }
}
