//! The fast path: bodies lowered by [`crate::compile`] worked out without building a
//! diagnostic, a trace or a frame per call (one stack of values, frames by offset),
//! counting steps, calls and nesting as the tree-walker counts them.
//!
//! Only bodies that cannot change the game are lowered (no `set`, no parameter `=
//! needed`), so the fast path can give up at any point and leave no mark: where anything
//! is not plain — an error, a refusal, a limit reached or Ctrl-C pressed, a value of a
//! kind it does not expect — it returns `None`, its work is undone (steps, call depth,
//! nesting, the stack, the rolls recorded), and the tree-walker works the same body out,
//! giving the error or refusal exactly as it always has. Dice it rolled before it gave up
//! are not rolled again: the tree-walker takes their faces in the same order
//! (`Evaluator::replay`). An error of the dice source is the one error it gives itself,
//! as the tree-walker would at that roll. Once the fast path has given up, the
//! tree-walker works out the rest of the adjudication alone (each call it entered on its
//! way to what stopped the fast path would give up again at the same place). So the fast
//! path gives up only where the tree-walker will stop too (an error, a refusal, a limit)
//! or at its own nesting cap: anything else it does not work out costs the rest of the
//! adjudication its speed.

use super::calls::check_arg;
use super::{field_at, pattern_cost, Ev, Evaluator};
use crate::compile;
use crate::program::lowered::*;
use crate::program::*;
use crate::syntax::ast::BinOp;
use crate::value::{arith, Length, Rational, Value};
use std::rc::Rc;

/// How deep the fast path nests before it leaves the rest to the tree-walker (well
/// inside [`super::MAX_EVAL_NESTING`], so that limit is only ever met by the walker).
const FAST_NESTING: u32 = 512;

/// What the fast path must undo when it gives up.
struct Mark {
    steps: u64,
    depth: u32,
    nesting: u32,
    stack: usize,
    rolls: usize,
    dice: u64,
    within: usize,
}

impl<'a> Evaluator<'a> {
    /// Whether the fast path may be taken: the program's code in use, no explanation
    /// built, no odds engine asking, no needed parameter left out.
    #[inline]
    fn fast_on(&self) -> bool {
        self.fast && self.oracle.is_none() && self.missing.is_empty()
    }

    fn mark(&self, st: &[Value]) -> Mark {
        Mark {
            steps: self.steps,
            depth: self.depth,
            nesting: self.nesting,
            stack: st.len(),
            rolls: self.rolls.len(),
            dice: self.dice_rolled,
            within: self.within.len(),
        }
    }

    /// Past `check_at` on the fast path: where the step limit is passed (or Ctrl-C was
    /// pressed) it gives up, for the tree-walker to stop there as it does; else this was
    /// only the look at Ctrl-C, which is moved on as `Evaluator::checkpoint` moves it.
    /// (Giving up at each look made a long computation quadratic: each call the
    /// tree-walker then entered gave up again at the same look, until the tree-walker
    /// itself had worked its way there.)
    #[cold]
    #[inline(never)]
    fn fast_checkpoint(&mut self) -> bool {
        if self.steps > self.limits.steps || crate::cancel::requested() {
            return false;
        }
        self.check_at = self.limits.steps.min(self.steps + super::CANCEL_EVERY);
        true
    }

    /// Past the fast path's nesting cap (it gives up) or `check_at`
    /// ([`Evaluator::fast_checkpoint`]): whether to go on.
    #[cold]
    #[inline(never)]
    fn fast_on_past(&mut self) -> bool {
        self.nesting <= FAST_NESTING && self.fast_checkpoint()
    }

    /// Ends a fast attempt begun at `m`: its value; or an error of the dice source; or,
    /// having given up, `None` with its work undone, its rolls kept to be replayed, and
    /// the tree-walker left to work out the rest of the adjudication alone. What gives up
    /// (a refusal, an error, a limit) ends the adjudication as the tree-walker goes on to
    /// meet it, and each call the tree-walker entered on its way there would otherwise be
    /// tried on the fast path again and give up again at the same place: the work done
    /// over once per level, quadratic in the depth of a recursion that ends in a refusal
    /// (or passes the fast path's nesting cap, which the tree-walker goes on past).
    fn end(&mut self, v: Option<Value>, m: Mark, st: &mut Vec<Value>) -> Option<Ev> {
        if let Some(v) = v {
            return Some(Ok(v));
        }
        if let Some(e) = self.fast_error.take() {
            return Some(Err(e));
        }
        self.fast = false;
        self.steps = m.steps;
        self.depth = m.depth;
        self.nesting = m.nesting;
        self.dice_rolled = m.dice;
        self.within.truncate(m.within);
        st.truncate(m.stack);
        let made: Vec<Vec<u32>> = self.rolls.drain(m.rolls..).map(|r| r.faces).collect();
        for faces in made.into_iter().rev() {
            self.replay.push_front(faces);
        }
        None
    }

    /// The question's expression on the fast path, if it is lowered and the fast path
    /// sees it through.
    pub(super) fn fast_query(&mut self, q: &'a Query, frame: &mut Vec<Value>) -> Option<Ev> {
        if !self.fast_on() {
            return None;
        }
        let node = q.code.as_ref()?;
        let m = self.mark(frame);
        let v = self.fast(node, frame, 0);
        self.end(v, m, frame)
    }

    /// A call of a rule, table or modifier list, its arguments worked out in `f`, on the
    /// fast path — entered as the tree-walker enters it — if it is lowered and the fast
    /// path sees it through.
    pub(super) fn fast_call(&mut self, callee: Callee, f: &mut Vec<Value>) -> Option<Ev> {
        if !self.fast_on() || !self.lowered(callee) {
            return None;
        }
        let m = self.mark(f);
        let v = self.fast_body(callee, f, 0);
        self.end(v, m, f)
    }

    /// Whether the fast path may work `callee` out (its body is lowered, on first use).
    fn lowered(&self, callee: Callee) -> bool {
        let code = &self.prog.code;
        let may = match callee {
            Callee::Rule(id) => code.fast_rules.get(id as usize),
            Callee::Table(id) => code.fast_tables.get(id as usize),
            Callee::Modifiers(id) => code.fast_modifiers.get(id as usize),
            Callee::Builtin(_) => None,
        };
        may.copied().unwrap_or(false)
    }

    /// A constant's expression on the fast path, in `f` (its frame).
    pub(super) fn fast_const(&mut self, id: u32, f: &mut Vec<Value>) -> Option<Ev> {
        if !self.fast_on() {
            return None;
        }
        let prog = self.prog;
        let body = prog
            .code
            .consts
            .get(id as usize)?
            .get_or_init(|| compile::constant(prog, &prog.code, id))
            .as_ref()?;
        let m = self.mark(f);
        let v = self.fast(&body.node, f, 0);
        self.end(v, m, f)
    }

    /// A call's body, its frame at `base` of `st` (arguments in place): as the
    /// tree-walker's `enter`, the body, `leave`.
    fn fast_body(&mut self, callee: Callee, st: &mut Vec<Value>, base: usize) -> Option<Value> {
        let prog = self.prog;
        let code = &prog.code;
        self.depth += 1;
        if self.depth > self.limits.depth {
            return None;
        }
        // The rule a die is rolled in names it to the dice source, as `enter` records.
        self.within.push(callee);
        let v = match callee {
            Callee::Rule(id) => {
                let body = code
                    .rules
                    .get(id as usize)?
                    .get_or_init(|| compile::rule(prog, code, id))
                    .as_ref()?;
                self.fast(&body.node, st, base)?
            }
            Callee::Table(id) => {
                let t = prog.tables.get(id as usize)?;
                let lowered = code
                    .tables
                    .get(id as usize)?
                    .get_or_init(|| compile::table(prog, code, id))
                    .as_ref()?;
                // The first row whose patterns fit, each alternative tried a step, as
                // the tree-walker finds it (before it enters the table).
                let keys = st.get(base..)?;
                let mut tried = 0u64;
                let at = t.rows.iter().position(|row| {
                    row.patterns.iter().zip(keys).all(|(p, v)| {
                        tried += pattern_cost(p);
                        p.matches(v)
                    })
                })?;
                self.steps += tried + 1;
                if self.steps > self.check_at && !self.fast_checkpoint() {
                    return None;
                }
                self.fast(lowered.cells.get(at)?, st, base)?
            }
            Callee::Modifiers(id) => {
                let lowered = code
                    .modifiers
                    .get(id as usize)?
                    .get_or_init(|| compile::modifiers(prog, code, id))
                    .as_ref()?;
                self.fast_modifiers(lowered, st, base)?
            }
            Callee::Builtin(_) => return None,
        };
        self.within.pop();
        self.depth -= 1;
        Some(v)
    }

    /// The modifiers that apply, summed (in 64 bits while every amount is whole).
    fn fast_modifiers(
        &mut self,
        m: &'a LModifiers,
        st: &mut Vec<Value>,
        base: usize,
    ) -> Option<Value> {
        let mut whole = 0i64;
        let mut total: Option<Rational> = None;
        for (condition, amount, per) in &m.each {
            if let Some(c) = condition {
                if !self.fast_truth(c, st, base)? {
                    continue;
                }
            }
            let amount = self.fast(amount, st, base)?;
            let times = match per {
                Some(p) => self.fast(p, st, base)?,
                None => Value::Int(1),
            };
            match (&amount, &times, total) {
                (Value::Int(a), Value::Int(t), None) => {
                    let each = a.checked_mul(*t)?;
                    if *t == 0 {
                        continue;
                    }
                    whole = whole.checked_add(each)?;
                }
                _ => {
                    let each = arith::mul(amount.as_number()?, times.as_number()?).ok()?;
                    if times.as_number()? == Rational::from_integer(0) {
                        continue;
                    }
                    let sum = total.unwrap_or_else(|| Rational::from_integer(whole));
                    total = Some(arith::add(sum, each).ok()?);
                }
            }
        }
        Some(match total {
            Some(r) => Value::num(r),
            None => Value::Int(whole),
        })
    }

    /// A condition: the common shapes (`u.rear_support`, `u.leader_cp > 0`, `u.grade ==
    /// guard`) read where their values are, no value made; the steps counted as `eval`
    /// counts them.
    fn fast_truth(&mut self, n: &'a Node, st: &mut Vec<Value>, base: usize) -> Option<bool> {
        match &n.kind {
            NodeKind::Path { slot, fields } => {
                self.count(1 + fields.len() as u64)?;
                match read_path(st, base, *slot, fields)? {
                    Value::Bool(b) => Some(*b),
                    _ => None,
                }
            }
            NodeKind::BinaryInt(op, a, k) => {
                if let NodeKind::Path { slot, fields } = &a.kind {
                    // The comparison, the path (its local and fields), the number.
                    self.count(3 + fields.len() as u64)?;
                    let Value::Int(i) = read_path(st, base, *slot, fields)? else {
                        return None;
                    };
                    return match super::ops::whole(*op, *i, *k)? {
                        Ok(Value::Bool(b)) => Some(b),
                        _ => None,
                    };
                }
                self.fast_bool(n, st, base)
            }
            NodeKind::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                if let (NodeKind::Path { slot, fields }, NodeKind::Value { value, steps, .. }) =
                    (&a.kind, &b.kind)
                {
                    if matches!(value, Value::Enum(..) | Value::Bool(_) | Value::Int(_)) {
                        self.count(2 + fields.len() as u64 + u64::from(*steps))?;
                        let v = read_path(st, base, *slot, fields)?;
                        // Values of these kinds are the same exactly when equal.
                        let same = match (v, value) {
                            (Value::Enum(..), Value::Enum(..))
                            | (Value::Bool(_), Value::Bool(_))
                            | (Value::Int(_), Value::Int(_)) => v == value,
                            _ => return None,
                        };
                        return Some(same == (*op == BinOp::Eq));
                    }
                }
                self.fast_bool(n, st, base)
            }
            _ => self.fast_bool(n, st, base),
        }
    }

    fn fast_bool(&mut self, n: &'a Node, st: &mut Vec<Value>, base: usize) -> Option<bool> {
        match self.fast(n, st, base)? {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// `n` more steps, as the tree-walker counts them; `None` past the limit (or Ctrl-C
    /// pressed), where the tree-walker takes over.
    #[inline(always)]
    fn count(&mut self, n: u64) -> Option<()> {
        self.steps += n;
        if self.steps > self.check_at && !self.fast_checkpoint() {
            return None;
        }
        Some(())
    }

    /// One lowered expression: a step and a level of nesting, as `eval` counts them.
    fn fast(&mut self, n: &'a Node, st: &mut Vec<Value>, base: usize) -> Option<Value> {
        self.nesting += 1;
        self.steps += 1;
        // One test on the hot path; past it, the cap and the steps are told apart.
        if (self.nesting > FAST_NESTING || self.steps > self.check_at) && !self.fast_on_past() {
            return None;
        }
        // The stack looked at every 16 levels, as `eval` looks.
        let v = if self.nesting.is_multiple_of(16) {
            crate::limits::deep(|| self.fast_inner(n, st, base))
        } else {
            self.fast_inner(n, st, base)
        };
        self.nesting -= 1;
        v
    }

    fn fast_inner(&mut self, n: &'a Node, st: &mut Vec<Value>, base: usize) -> Option<Value> {
        match &n.kind {
            NodeKind::Value { value, steps, .. } => {
                if *steps > 1 {
                    self.steps += u64::from(*steps - 1);
                    if self.steps > self.check_at && !self.fast_checkpoint() {
                        return None;
                    }
                }
                Some(value.clone())
            }
            NodeKind::Local(s) => st.get(base + *s as usize).cloned(),
            NodeKind::State(i) => match self.state? {
                Value::Record(fields) => fields.get(*i as usize).map(|(_, v)| v.clone()),
                _ => None,
            },
            NodeKind::Path { slot, fields } => {
                self.count(fields.len() as u64)?;
                read_path(st, base, *slot, fields).cloned()
            }
            NodeKind::Field(b, name, at) => {
                let v = self.fast(b, st, base)?;
                field_at(&v, name, *at).cloned()
            }
            NodeKind::Neg(x) => match self.fast(x, st, base)? {
                Value::Int(i) => i.checked_neg().map(Value::Int),
                Value::Frac(r) => arith::neg(r).ok().map(Value::num),
                Value::Length(l) => arith::neg(l.inches).ok().map(|inches| {
                    Value::Length(Length {
                        inches,
                        unit: l.unit,
                    })
                }),
                Value::Time(t) => arith::neg(t).ok().map(Value::Time),
                Value::Minutes(t) => arith::neg(t).ok().map(Value::Minutes),
                _ => None,
            },
            NodeKind::Not(x) => Some(Value::Bool(!self.fast_truth(x, st, base)?)),
            NodeKind::And(a, b) => Some(Value::Bool(
                self.fast_truth(a, st, base)? && self.fast_truth(b, st, base)?,
            )),
            NodeKind::Or(a, b) => Some(Value::Bool(
                self.fast_truth(a, st, base)? || self.fast_truth(b, st, base)?,
            )),
            NodeKind::Binary(op, a, b) => {
                let x = self.fast(a, st, base)?;
                let y = self.fast(b, st, base)?;
                self.fast_combine(*op, x, y, n)
            }
            NodeKind::BinaryInt(op, a, k) => {
                let x = self.fast(a, st, base)?;
                // The number written out: a step of its own.
                self.steps += 1;
                if self.steps > self.check_at && !self.fast_checkpoint() {
                    return None;
                }
                self.fast_combine(*op, x, Value::Int(*k), n)
            }
            NodeKind::If(arms, otherwise) => {
                for (c, body) in arms {
                    if self.fast_truth(c, st, base)? {
                        return self.fast(body, st, base);
                    }
                }
                match otherwise {
                    Some(o) => self.fast(o, st, base),
                    None => Some(Value::Bool(false)),
                }
            }
            NodeKind::Block(stmts, value) => {
                for s in stmts {
                    match s {
                        LStmt::Let(slot, x) => {
                            let v = self.fast(x, st, base)?;
                            *st.get_mut(base + *slot as usize)? = v;
                        }
                        LStmt::Guard(x) => {
                            self.fast(x, st, base)?;
                        }
                        LStmt::Note => {}
                    }
                }
                self.fast(value, st, base)
            }
            NodeKind::Call(callee, args) => self.fast_call_node(*callee, args, st, base, n),
            NodeKind::Dice(count, sides) => match self.roll(*count, *sides, n.span) {
                Ok(v) => Some(v),
                Err(e) => {
                    self.fast_error = Some(e);
                    None
                }
            },
            NodeKind::ModifiedRoll(first, rest) => self.fast_modified_roll(first, rest, st, base),
            NodeKind::GiveUp => None,
            _ => self.fast_rare(n, st, base),
        }
    }

    /// The kinds of expression seldom met where speed counts (kept out of
    /// [`Evaluator::fast_inner`], so that its frame stays small).
    #[inline(never)]
    fn fast_rare(&mut self, n: &'a Node, st: &mut Vec<Value>, base: usize) -> Option<Value> {
        match &n.kind {
            NodeKind::Member(b, k) => {
                let group = self.fast(b, st, base)?;
                let Value::Text(name) = self.fast(k, st, base)? else {
                    return None;
                };
                group.field(&name).cloned()
            }
            // As the tree-walker's `neg` (a length or time too: `-1"` is no fraction to
            // fold, and giving up on it sent the rest of the adjudication to the walker).
            NodeKind::Match(s, arms) => {
                let v = self.fast(s, st, base)?;
                for (pat, body) in arms {
                    self.steps += pattern_cost(pat);
                    if pat.matches(&v) {
                        self.steps += 1;
                        if self.steps > self.check_at && !self.fast_checkpoint() {
                            return None;
                        }
                        return self.fast(body, st, base);
                    }
                }
                None
            }
            NodeKind::In(x, pat, negated) => {
                let v = self.fast(x, st, base)?;
                self.steps += pattern_cost(pat);
                Some(Value::Bool(pat.matches(&v) != *negated))
            }
            NodeKind::Builtin(b, args) => match &args[..] {
                // One argument (`floor`, `abs`, `place` ...): no list made for it.
                [a] => {
                    let v = self.fast(a, st, base)?;
                    self.apply_builtin(*b, std::slice::from_ref(&v), n.span)
                        .ok()
                }
                _ => {
                    let mut vals = Vec::with_capacity(args.len());
                    for a in args {
                        vals.push(self.fast(a, st, base)?);
                    }
                    self.apply_builtin(*b, &vals, n.span).ok()
                }
            },
            NodeKind::Const(id) => {
                let prog = self.prog;
                let c = prog.consts.get(*id as usize)?;
                let body = prog
                    .code
                    .consts
                    .get(*id as usize)?
                    .get_or_init(|| compile::constant(prog, &prog.code, *id))
                    .as_ref()?;
                let nb = st.len();
                st.resize(nb + c.slots as usize, Value::Bool(false));
                let v = self.fast(&body.node, st, nb)?;
                st.truncate(nb);
                Some(v)
            }
            NodeKind::Record(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (name, x) in fields {
                    out.push((name.clone(), self.fast(x, st, base)?));
                }
                Some(Value::Record(Rc::new(out)))
            }
            NodeKind::Pair(a, b) => {
                let a = self.fast(a, st, base)?;
                let b = self.fast(b, st, base)?;
                Some(Value::Pair(Rc::new((a, b))))
            }
            NodeKind::InRange(x, range) => {
                let v = self.fast(x, st, base)?;
                range.contains(&v).then_some(v)
            }
            NodeKind::Fresh(x, slots) => {
                let nb = st.len();
                st.resize(nb + *slots as usize, Value::Bool(false));
                let v = self.fast(x, st, nb)?;
                st.truncate(nb);
                Some(v)
            }
            NodeKind::Chosen(i) => {
                let info = self.prog.interpretations.get(*i as usize)?;
                let r = self.readings.get(*i as usize).or(info.default)?;
                Some(Value::Enum(info.readings, r))
            }
            NodeKind::Default(of, index) => {
                // A default is worked out by the tree-walker where it is used (it may
                // build a record with defaults of its own); it changes nothing.
                let prog = self.prog;
                let d = prog.default_expr(*of, *index)?;
                self.eval(d, &mut []).ok()
            }
            _ => None,
        }
    }

    /// A roll and its modifiers summed, as the tree-walker sums them (`eval::ops`): each
    /// inner sum a step taken before the terms, the terms left to right, and the roll
    /// read out with the amounts added to it and the modified roll.
    fn fast_modified_roll(
        &mut self,
        first: &'a Node,
        rest: &'a [(BinOp, Node, crate::span::Span)],
        st: &mut Vec<Value>,
        base: usize,
    ) -> Option<Value> {
        let inner = rest.len().saturating_sub(1) as u32;
        self.count(u64::from(inner))?;
        self.nesting += inner;
        let mut roll = None;
        let mut amounts = Some(Vec::new());
        let mut sum = self.fast_term(first, false, st, base, &mut roll, &mut amounts)?;
        for (op, term, at) in rest {
            let y = self.fast_term(term, *op == BinOp::Sub, st, base, &mut roll, &mut amounts)?;
            sum = match (&sum, &y) {
                (Value::Int(a), Value::Int(b)) => match super::ops::whole(*op, *a, *b) {
                    Some(r) => r.ok()?,
                    None => self.combine(*op, sum, y, *at).ok()?,
                },
                _ => self.combine(*op, sum, y, *at).ok()?,
            };
        }
        self.nesting -= inner;
        self.read_out(roll, &sum, amounts);
        Some(sum)
    }

    /// A term of a modified roll: the roll's place in the rolls if it is the dice, else
    /// its amount, signed as applied (`None` for all when one is not a number).
    fn fast_term(
        &mut self,
        e: &'a Node,
        minus: bool,
        st: &mut Vec<Value>,
        base: usize,
        roll: &mut Option<usize>,
        amounts: &mut Option<Vec<Rational>>,
    ) -> Option<Value> {
        let before = self.rolls.len();
        let v = self.fast(e, st, base)?;
        if matches!(e.kind, NodeKind::Dice(..)) && self.rolls.len() > before {
            *roll = Some(before);
        } else {
            super::ops::add_amount(amounts, &v, minus);
        }
        Some(v)
    }

    /// `x op y`: whole numbers in 64 bits, anything else as the tree-walker combines.
    fn fast_combine(&self, op: BinOp, x: Value, y: Value, n: &Node) -> Option<Value> {
        if let (Value::Int(a), Value::Int(b)) = (&x, &y) {
            if let Some(r) = super::ops::whole(op, *a, *b) {
                return r.ok();
            }
        }
        self.combine(op, x, y, n.span).ok()
    }

    /// A call: its arguments worked out and checked as the tree-walker checks them,
    /// pushed on the stack as the callee's frame.
    fn fast_call_node(
        &mut self,
        callee: Callee,
        args: &'a [(Node, ArgCheck)],
        st: &mut Vec<Value>,
        base: usize,
        n: &Node,
    ) -> Option<Value> {
        let prog = self.prog;
        let sig = prog.signature(callee)?;
        let nb = st.len();
        for (a, check) in args {
            let v = self.fast(a, st, base)?;
            if let ArgCheck::Param(i) = check {
                let p = sig.params.get(*i as usize)?;
                check_arg(p, &v, n.span).ok()?;
                self.check_record_ranges(&p.ty, &v, n.span).ok()?;
            }
            st.push(v);
        }
        st.resize(nb + sig.slots as usize, Value::Bool(false));
        let v = self.fast_body(callee, st, nb)?;
        st.truncate(nb);
        Some(v)
    }
}

/// The value a local's field chain holds, where it is.
#[inline]
fn read_path<'v>(
    st: &'v [Value],
    base: usize,
    slot: u32,
    fields: &[(Rc<str>, u32)],
) -> Option<&'v Value> {
    let mut v = st.get(base + slot as usize)?;
    for (name, at) in fields {
        v = field_at(v, name, *at)?;
    }
    Some(v)
}

thread_local! {
    /// Stacks of values given back by finished adjudications, for the next ones.
    static STACKS: std::cell::RefCell<Vec<Vec<Value>>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An empty stack of values for an adjudication: one given back before, else new.
pub(super) fn stack() -> Vec<Value> {
    STACKS
        .try_with(|s| s.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_else(|| Vec::with_capacity(64))
}

/// A stack emptied and kept for the next adjudication (a few of modest size).
pub(super) fn give_back(mut v: Vec<Value>) {
    v.clear();
    if v.capacity() <= 4096 {
        let _ = STACKS.try_with(|s| {
            let mut s = s.borrow_mut();
            if s.len() < 8 {
                s.push(v);
            }
        });
    }
}
