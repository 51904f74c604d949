//! What an expression can be worked out to: `Reacher` follows the IR (calls, tables,
//! modifier lists, conditions) and gives each expression a `Fact`.

use super::interval::flip;
use super::interval::{End, Reach, Q};
use super::report::{intervals, number_key};
use crate::program::*;
use crate::syntax::ast::BinOp;
use crate::value::Value;
use num_traits::CheckedMul;
use std::rc::Rc;
use End::{Above, At, Below};

/// What is known of a value: its range and, for records, groups and pairs, its type (so a
/// field read from it finds its declared range).
#[derive(Debug, Clone)]
pub(super) struct Fact {
    pub(super) reach: Reach,
    pub(super) ty: Option<Ty>,
}

impl Fact {
    pub(super) fn all() -> Fact {
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
pub(super) const BUDGET: u32 = 20_000;
/// Nodes worked out for a whole ruleset; past it, every roll is "anything" (not judged).
const TOTAL_BUDGET: u64 = 2_000_000;

/// Works out reaches over a checked program.
pub(super) struct Reacher<'p> {
    pub(super) prog: &'p Program,
    pub(super) budget: u32,
    total: u64,
    pub(super) busy: Vec<Callee>,
    /// What a call gives, by what its arguments can be (a rule used twice with the same
    /// ranges is worked out once).
    memo: std::collections::HashMap<(Callee, Vec<Reach>), Fact>,
}

impl<'p> Reacher<'p> {
    pub(super) fn new(prog: &'p Program) -> Self {
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
    pub(super) fn param_env(&self, sig: &Signature) -> Vec<Fact> {
        let mut env: Vec<Fact> = sig
            .params
            .iter()
            .map(|p| Fact {
                reach: Reach::ALL.within(p.range.and_then(crate::program::NumRange::int)),
                ty: Some(p.ty.clone()),
            })
            .collect();
        env.resize(sig.slots as usize, Fact::all());
        env
    }

    pub(super) fn fact(&mut self, e: &Expr, env: &mut Vec<Fact>) -> Fact {
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
                Value::Int(_) | Value::Frac(_) => {
                    let r = v.as_number().unwrap_or_default();
                    Fact::of(Reach::exactly(Q::new(
                        (*r.numer()).into(),
                        (*r.denom()).into(),
                    )))
                }
                _ => Fact::all(),
            },
            ExprKind::Local(s) => env.get(*s as usize).cloned().unwrap_or_else(Fact::all),
            ExprKind::State(i) => self.state_fact(*i),
            ExprKind::Const(i) => match prog.consts.get(*i as usize) {
                Some(c) => {
                    let mut fresh = vec![Fact::all(); c.slots as usize];
                    self.fact(&c.value, &mut fresh)
                }
                None => Fact::all(),
            },
            ExprKind::Field(base, name, _) => self.field_fact(base, name, env),
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
            ExprKind::If(branches, other) => match other {
                Some(other) => self.if_fact(branches, other, env),
                None => Fact::all(),
            },
            ExprKind::Match(x, arms) => self.match_fact(x, arms, env),
            ExprKind::Refuse { .. } | ExprKind::NotGiven { .. } | ExprKind::Instead { .. } => {
                Fact::of(Reach::None)
            }
            ExprKind::Block(stmts, value) => self.block_fact(stmts, value, env),
            ExprKind::Fresh { value, slots } => {
                let mut fresh = vec![Fact::all(); *slots as usize];
                self.fact(value, &mut fresh)
            }
            ExprKind::Default { of, index } => self.default_fact(*of, *index),
            ExprKind::InRange { value, range, .. } => {
                let f = self.fact(value, env);
                Fact {
                    reach: f.reach.within(range.int()),
                    ty: f.ty,
                }
            }
            ExprKind::Not(_)
            | ExprKind::Record(_)
            | ExprKind::Pair(..)
            | ExprKind::Chosen(_)
            | ExprKind::In { .. } => Fact::all(),
        }
    }

    /// Field `i` of the state: its declared range and type.
    fn state_fact(&self, i: u32) -> Fact {
        let prog = self.prog;
        let Some(rec) = prog.state.and_then(|s| prog.records.get(s as usize)) else {
            return Fact::all();
        };
        Fact {
            reach: Reach::ALL.within(
                rec.ranges
                    .get(i as usize)
                    .copied()
                    .flatten()
                    .and_then(crate::program::NumRange::int),
            ),
            ty: rec.shape.fields.get(i as usize).map(|(_, t)| t.clone()),
        }
    }

    /// Field `name` of a record: its declared range and type.
    fn field_fact(&mut self, base: &Expr, name: &Rc<str>, env: &mut Vec<Fact>) -> Fact {
        let base = self.fact(base, env);
        match base.ty {
            Some(Ty::Record(shape)) => {
                let Some(i) = shape.fields.iter().position(|(n, _)| n == name) else {
                    return Fact::all();
                };
                let range = shape
                    .record
                    .and_then(|r| self.prog.records.get(r as usize))
                    .and_then(|r| r.ranges.get(i).copied().flatten())
                    .and_then(crate::program::NumRange::int);
                Fact {
                    reach: Reach::ALL.within(range),
                    ty: Some(shape.fields[i].1.clone()),
                }
            }
            _ => Fact::all(),
        }
    }

    /// An `if` with an `else`: each branch knows its condition held, and the ones before
    /// it did not.
    fn if_fact(&mut self, branches: &[(Expr, Expr)], other: &Expr, env: &[Fact]) -> Fact {
        let mut otherwise = env.to_vec();
        let mut out = Fact::of(Reach::None);
        for (cond, value) in branches {
            let mut then = otherwise.clone();
            assume(cond, true, &mut then);
            out = out.union(self.fact(value, &mut then));
            assume(cond, false, &mut otherwise);
        }
        out.union(self.fact(other, &mut otherwise))
    }

    /// A `match`: each arm knows its pattern took the value (arms no value reaches are
    /// left out).
    fn match_fact(&mut self, x: &Expr, arms: &[(Pat, Expr, Rc<str>)], env: &mut Vec<Fact>) -> Fact {
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

    /// A block: its `let`s and guards teach the locals, then its value.
    fn block_fact(&mut self, stmts: &[Stmt], value: &Expr, env: &mut Vec<Fact>) -> Fact {
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

    /// A default value, worked out in a scope of its own.
    fn default_fact(&mut self, of: DefaultOf, index: u32) -> Fact {
        match self.prog.default_expr(of, index) {
            Some(d) => self.fact(d, &mut Vec::new()),
            None => Fact::all(),
        }
    }

    fn call(&mut self, callee: Callee, exprs: &[Expr], env: &mut Vec<Fact>) -> Fact {
        let args: Vec<Fact> = exprs.iter().map(|a| self.fact(a, env)).collect();
        let prog = self.prog;
        if let Callee::Builtin(b) = callee {
            if b.is_pool() {
                return Fact::of(self.pool(b, exprs, env));
            }
            return Fact::of(builtin(b, &args));
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
                    let mut inner = bind(&rule.sig, args);
                    let f = self.fact(&rule.body, &mut inner);
                    Fact {
                        reach: f.reach,
                        ty: Some(rule.sig.ret.clone()),
                    }
                }
                None => Fact::all(),
            },
            Callee::Table(t) => match prog.tables.get(t as usize) {
                Some(table) => self.table_fact(table, args),
                None => Fact::all(),
            },
            Callee::Modifiers(m) => match prog.modifiers.get(m as usize) {
                Some(list) => {
                    let mut inner = bind(&list.sig, args);
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

    /// What a pool gives: `count` from none to all of its dice; `highest(k, ...)` and
    /// `lowest(k, ...)` from `min(k, dice)` (each die shows at least 1) to `min(k, dice)`
    /// times the most one die gives (its sides; an exploding die, its sides for each of
    /// its rolls); `reroll(dice, ...)` and `explode(dice)` from one to that most per die.
    fn pool(&mut self, b: Builtin, exprs: &[Expr], env: &mut Vec<Fact>) -> Reach {
        let zero = Q::from_integer(0);
        let at = match b {
            Builtin::Count | Builtin::Reroll | Builtin::Explode => 0,
            _ => 1,
        };
        let mut dice = exprs.get(at);
        // `reroll(...)` and `explode(...)` of dice, alone or as a pool: the dice inside.
        // Each die gives one face, an exploding die up to one face for each of its rolls.
        let changed = match (b, dice.map(|e| &e.kind)) {
            (Builtin::Reroll | Builtin::Explode, _) => Some(b),
            (
                _,
                Some(ExprKind::Call(
                    Callee::Builtin(inner @ (Builtin::Reroll | Builtin::Explode)),
                    a,
                )),
            ) => {
                dice = a.first();
                Some(*inner)
            }
            _ => None,
        };
        let rolls = if changed == Some(Builtin::Explode) {
            MAX_EXTRA_ROLLS + 1
        } else {
            1
        };
        // The count's and the sides' reach, from the dice as written.
        let (count, sides) = match dice.map(|e| &e.kind) {
            Some(ExprKind::Dice { count, sides }) => {
                let c = At(Q::from_integer(i128::from(*count)));
                let s = At(Q::from_integer(i128::from(*sides)));
                ((c, c), s)
            }
            Some(ExprKind::Call(_, a)) if a.len() == 2 => {
                let c = self.fact(&a[0], env).reach;
                let s = self.fact(&a[1], env).reach;
                match (c, s) {
                    (Reach::Span(lo, hi), Reach::Span(_, s)) => ((lo, hi), s),
                    _ => ((Below, Above), Above),
                }
            }
            _ => ((Below, Above), Above),
        };
        let sides = match sides {
            At(s) => s
                .checked_mul(&Q::from_integer(i128::from(rolls)))
                .map_or(Above, At),
            other => other,
        };
        let times = |n: End, s: End| match (n, s) {
            (At(n), At(s)) => n.checked_mul(&s).map_or(Above, At),
            _ => Above,
        };
        match b {
            Builtin::Count => return Reach::Span(At(zero), count.1),
            Builtin::Reroll | Builtin::Explode => {
                let lo = match count.0 {
                    At(q) if q > zero => At(q),
                    _ => At(zero),
                };
                return Reach::Span(lo, times(count.1, sides));
            }
            _ => {}
        }
        let k = exprs
            .first()
            .map_or(Reach::ALL, |e| self.fact(e, env).reach);
        let Reach::Span(k_lo, k_hi) = k else {
            return Reach::None;
        };
        let least = |a: End, c: End| if a < c { a } else { c };
        let lo = match least(k_lo, count.0) {
            At(q) if q > zero => At(q),
            _ => At(zero),
        };
        let hi = times(least(k_hi, count.1), sides);
        Reach::Span(lo, hi)
    }

    /// A table called with `args`: what its rows give, each row only for the numbers
    /// its pattern takes.
    fn table_fact(&mut self, table: &TableInfo, args: Vec<Fact>) -> Fact {
        let inner = bind(&table.sig, args);
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
            ty: Some(table.sig.ret.clone()),
        }
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

/// What a builtin gives, from what its arguments can be.
fn builtin(b: Builtin, args: &[Fact]) -> Reach {
    let first = args.first().map_or(Reach::ALL, |f| f.reach);
    match b {
        Builtin::Floor => first.map(|q| q.floor()),
        Builtin::Ceil => first.map(|q| q.ceil()),
        Builtin::Round => first.map(|q| q.round()),
        Builtin::Trunc => first.map(|q| q.trunc()),
        Builtin::Abs => match first {
            Reach::Span(lo, hi) if lo >= At(Q::from_integer(0)) => Reach::Span(lo, hi),
            Reach::Span(lo, hi) if hi <= At(Q::from_integer(0)) => Reach::Span(lo, hi).neg(),
            Reach::Span(lo, hi) => {
                let top = if flip(lo) > hi { flip(lo) } else { hi };
                Reach::Span(At(Q::from_integer(0)), top)
            }
            Reach::None => Reach::None,
        },
        Builtin::Shift | Builtin::Supplied => Reach::ALL,
        Builtin::Place => Reach::Span(At(Q::from_integer(1)), End::Above),
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
            (Reach::Span(At(c), At(d)), Some(Reach::Span(_, At(s)))) if c >= Q::from_integer(0) => {
                Reach::Span(At(c), d.checked_mul(&s).map_or(Above, At))
            }
            _ => Reach::ALL,
        },
        Builtin::Count => Reach::Span(At(Q::from_integer(0)), Above),
        Builtin::Inches
        | Builtin::Feet
        | Builtin::Moves
        | Builtin::Highest
        | Builtin::Lowest
        | Builtin::Reroll
        | Builtin::Explode => Reach::ALL,
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

fn bind(sig: &Signature, args: Vec<Fact>) -> Vec<Fact> {
    let mut env: Vec<Fact> = sig
        .params
        .iter()
        .zip(args)
        .map(|(p, a)| Fact {
            reach: a
                .reach
                .within(p.range.and_then(crate::program::NumRange::int)),
            ty: Some(p.ty.clone()),
        })
        .collect();
    env.resize(sig.slots as usize, Fact::all());
    env
}

/// Does `e` give no value (a refusal, a gap in the source), whichever way it goes?
fn gives_nothing(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Refuse { .. } | ExprKind::NotGiven { .. } | ExprKind::Instead { .. } => true,
        ExprKind::Block(_, v) => gives_nothing(v),
        ExprKind::If(branches, Some(other)) => {
            branches.iter().all(|(_, v)| gives_nothing(v)) && gives_nothing(other)
        }
        _ => false,
    }
}

/// After a guard whose every branch refuses (`if r < 1 { refuse "..." }`), none of its
/// conditions held.
pub(super) fn past_guard(g: &Expr, env: &mut [Fact]) {
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
        ExprKind::Value(v @ (Value::Int(_) | Value::Frac(_))) => {
            let r = v.as_number()?;
            Some(Q::new((*r.numer()).into(), (*r.denom()).into()))
        }
        ExprKind::Neg(x) => constant(x).map(|q| -q),
        _ => None,
    }
}

/// Narrows the locals `cond` compares with a number, knowing it is `truth`:
/// `r < 1` false gives r 1 or more. (Only what is certain: other conditions teach
/// nothing.)
pub(super) fn assume(cond: &Expr, truth: bool, env: &mut [Fact]) {
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
pub(super) fn narrow_to(x: &Expr, pat: &Pat, env: &mut [Fact]) -> bool {
    let ExprKind::Local(slot) = &x.kind else {
        return true;
    };
    // (Only whole, inclusive bounds: on a `Num` local `more than 2` or `1/2 or more`
    // takes numbers a whole-number hull would leave out.)
    if let Pat::Alts(alts) = pat {
        let whole = |n: &crate::value::Rational| n.is_integer();
        if !alts.iter().all(|a| match a {
            Alt::AtLeast(n) | Alt::AtMost(n) => whole(n),
            Alt::Range(a, b) => whole(a) && whole(b),
            Alt::MoreThan(_) | Alt::LessThan(_) => false,
            _ => true,
        }) {
            return true;
        }
    }
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
