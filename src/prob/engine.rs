//! The compositional exact-odds engine. The one evaluator follows each path through
//! the question, but what can be worked out whole is worked out whole, as a
//! distribution, and met on a path as one choice among its outcomes:
//!
//! - a dice term by its closed form (`800d6`: 4,001 sums), a pool's count, highest or
//!   lowest dice by theirs (`count(100d6, at_least: 4)`: 101 counts, not 6^100 rolls);
//! - a sum, a difference, a comparison, `and`/`or`, `not`, a record of parts worked out
//!   whole from their parts' distributions (independent: no name is shared between
//!   them, for a name read on a path holds the value that path gave it), merging equal
//!   outcomes at every step (`100d6 > 100d6`: two outcomes from 501 + 501 sums);
//! - a call of a rule, table or modifier list, once for each distinct arguments (memoised:
//!   the work is shared, never the dice — `f(x) + f(x)` is two rolls), its body worked
//!   out by following its own paths. A rule calling itself `n` times over is `n` entries.
//!
//! A name bound to a roll (`let a = d6`) and read twice is a choice on the path, so
//! correlation is exact (`a - a` is 0). Refusals, gaps and errors are outcomes; each
//! outcome carries the most work a path to it took ([`Reach`]), spent on the path that
//! meets it, so the limits stop exactly the questions the evaluator stops. What cannot
//! be worked out whole (a `set`, a needed parameter left out, an `if` over dice) is
//! followed path by path, as the path engine (`paths.rs`, the test oracle) does.

use super::dist::{binomial, kept, sums, Builder, Dist, Entry, Out};
use super::{order, to_f64, Case, Chance, Distribution, Job, Method};
use crate::diagnostic::{Code, Diag, Phase};
use crate::dice::{DiceRequest, DiceSource};
use crate::eval::{query_outcome, Evaluator, Flow, Options, Oracle, Reach};
use crate::program::{Builtin, Callee, Expr, ExprKind, Program, Stmt};
use crate::syntax::ast::BinOp;
use crate::value::Value;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;

/// Why exact work stopped.
#[derive(Debug)]
enum Halt {
    /// More work than `--limit` allows.
    Work,
    /// Ctrl-C.
    Cancelled,
    /// A path passed one of the adjudication's limits: the odds are that error.
    Limit(Box<Diag>),
}

/// The odds of `job` worked out exactly, spending at most `limit` units of work (steps
/// of evaluation and outcomes combined); `None` past it or on Ctrl-C.
pub fn exact(job: &Job<'_>, limit: usize, tick: &mut dyn FnMut(u64)) -> Option<Distribution> {
    let mut nodice = NoDice;
    let mut root = Evaluator::new(
        job.program,
        &job.query.sources,
        &mut nodice,
        Options {
            trace: false,
            limits: job.limits,
            readings: job.readings.clone(),
            engine: Default::default(),
        },
    );
    root.state = job.state;
    root.asked = job
        .query
        .sources
        .snippet(job.query.expr.span)
        .trim()
        .to_string();
    let mut engine = Engine {
        program: job.program,
        facts: Facts::new(job.program),
        memo: HashMap::new(),
        work: 0,
        limit: limit as u64,
        halt: None,
        tick,
        next_tick: 1 << 16,
    };
    let mut frame = job.locals.to_vec();
    frame.resize(
        (job.query.slots as usize).max(frame.len()),
        Value::Bool(false),
    );
    let expr = &job.query.expr;
    let found = engine.enumerate(&root, 0, &mut |ev| {
        let mut f = frame.clone();
        ev.eval(expr, &mut f)
    });
    let cases = engine.work;
    let mut dist = match found {
        Ok(d) => d,
        Err(Halt::Limit(d)) => {
            return Some(Distribution {
                chances: vec![Chance {
                    case: Case::of_outcome(Err(*d)),
                    exact: Some(BigRational::one()),
                    estimate: 1.0,
                    std_error: None,
                }],
                method: Method::Exact { cases },
            })
        }
        Err(_) => return None,
    };
    dist.normalise();
    let primes = small_primes(&dist.denom);
    let mut chances: Vec<Chance> = dist
        .entries
        .into_iter()
        .map(|e| {
            let p = lowest_terms(e.w, &dist.denom, primes.as_deref());
            Chance {
                case: Case::of_outcome(query_outcome(job.query, e.out.ev())),
                estimate: to_f64(&p),
                exact: Some(p),
                std_error: None,
            }
        })
        .collect();
    chances.sort_by(|a, b| order(job.program, &a.case, &b.case));
    Some(Distribution {
        chances,
        method: Method::Exact { cases },
    })
}

/// The primes of a denominator made of die sides (each at most a thousand), with their
/// powers; `None` if something else divides it.
fn small_primes(d: &BigUint) -> Option<Vec<(u32, u32)>> {
    let mut left = d.clone();
    let mut out = Vec::new();
    let mut p = 2u32;
    while !left.is_one() {
        if p > 1000 {
            return None;
        }
        let mut k = 0;
        loop {
            let (q, r) = left.div_rem(&BigUint::from(p));
            if !r.is_zero() {
                break;
            }
            left = q;
            k += 1;
        }
        if k > 0 {
            out.push((p, k));
        }
        p += 1;
    }
    Some(out)
}

/// `w / d` in lowest terms: divided by the denominator's own primes while both share
/// them (no greatest common divisor of two big numbers to find), else by their gcd.
fn lowest_terms(mut w: BigUint, d: &BigUint, primes: Option<&[(u32, u32)]>) -> BigRational {
    let Some(primes) = primes else {
        return BigRational::new(BigInt::from(w), BigInt::from(d.clone()));
    };
    let mut d = d.clone();
    if w.is_zero() {
        return BigRational::new(BigInt::zero(), BigInt::one());
    }
    for &(p, k) in primes {
        let p = BigUint::from(p);
        for _ in 0..k {
            let (q, r) = w.div_rem(&p);
            if !r.is_zero() {
                break;
            }
            w = q;
            d /= &p;
        }
    }
    BigRational::new_raw(BigInt::from(w), BigInt::from(d))
}

/// No dice: the root evaluator only stands where the question starts.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self, req: &DiceRequest<'_>, _: &mut Vec<u32>) -> Result<i64, Diag> {
        Err(Diag::at(
            Code::ProbTooLarge,
            "no dice here",
            req.span,
            "rolled here",
        ))
    }
}

/// The engine's memory for one job.
struct Engine<'j, 't> {
    program: &'j Program,
    facts: Facts<'j>,
    /// Calls worked out, by callee and arguments.
    memo: HashMap<(Callee, String), Rc<Dist>>,
    /// Work spent (the report's "cases"): paths followed, evaluation steps taken,
    /// outcomes combined, terms of closed forms.
    work: u64,
    limit: u64,
    halt: Option<Halt>,
    tick: &'t mut dyn FnMut(u64),
    /// When to tell `tick` next.
    next_tick: u64,
}

/// The choices of one path: those it must take (`prefix`, each with the distribution
/// it was made from) and those it took.
struct PathState {
    prefix: Vec<(Rc<Dist>, usize)>,
    taken: Vec<(Rc<Dist>, usize)>,
    /// The steps of what was worked out whole, spent on the path but not taken again
    /// (the engine's work counts the steps taken).
    credited: u64,
}

impl PathState {
    /// The choice at the next place: the prefix's, else the first outcome of `d`.
    fn choose(&mut self, make: impl FnOnce() -> Result<Rc<Dist>, Halt>) -> Result<Rc<Dist>, Halt> {
        let at = self.taken.len();
        let (d, c) = match self.prefix.get(at) {
            Some((d, c)) => (d.clone(), *c),
            None => (make()?, 0),
        };
        self.taken.push((d.clone(), c));
        Ok(d)
    }

    fn last(&self) -> usize {
        self.taken.last().map_or(0, |(_, c)| *c)
    }
}

/// Dice asked for by the evaluator itself (a pool re-rolled or exploded, `dice(n, s)`):
/// each term a choice among its sums.
struct PathDice {
    path: Rc<RefCell<PathState>>,
    /// The work left; a term past it stops exact work (`stopped` says so).
    left: u64,
    stopped: Rc<std::cell::Cell<bool>>,
}

impl DiceSource for PathDice {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let (count, sides) = (req.count, req.sides);
        if dice_cost(count, sides) > self.left {
            self.stopped.set(true);
            return Err(Diag::error(Code::ProbTooLarge, "stopped"));
        }
        let mut p = self.path.borrow_mut();
        let d = p
            .choose(|| Ok(Rc::new(dice_dist(count, sides, Reach::default()))))
            .map_err(|_| Diag::error(Code::ProbTooLarge, "stopped"))?;
        let sum = d.entries[p.last()]
            .out
            .ev()
            .ok()
            .and_then(|v| v.as_int())
            .unwrap_or(0);
        // Faces that make the sum (an explanation is not drawn from them).
        let mut left = sum;
        for i in 0..count {
            let still = i64::from(count - i - 1);
            let f = (left - still).clamp(1, i64::from(sides));
            faces.push(u32::try_from(f).unwrap_or(1));
            left -= f;
        }
        Ok(sum)
    }
}

/// The work of a dice term's closed form: each of its sums from the sides before it,
/// each a number of [`words`] as wide as the term's count of rolls.
fn dice_cost(count: u32, sides: u32) -> u64 {
    let len = u64::from(count).saturating_mul(u64::from(sides.saturating_sub(1))) + 1;
    let bits = f64::from(count) * f64::from(sides.max(2)).log2();
    len.saturating_mul(u64::from(sides))
        .saturating_mul(words(bits as u64))
}

/// Big numbers cost by their width: a unit of work is an operation on 256 bits.
fn words(bits: u64) -> u64 {
    bits / 256 + 1
}

/// The sums of a dice term, each reached by `reach`.
fn dice_dist(count: u32, sides: u32, reach: Reach) -> Dist {
    let denom = BigUint::from(sides).pow(count);
    Dist::from_dense(i64::from(count), sums(count, sides), denom, reach)
}

/// The engine as the evaluator of one path meets it.
struct Hook<'e, 'j, 't> {
    engine: &'e mut Engine<'j, 't>,
    path: Rc<RefCell<PathState>>,
}

impl Oracle for Hook<'_, '_, '_> {
    fn expr(
        &mut self,
        ev: &mut Evaluator<'_>,
        e: &Expr,
        frame: &mut [Value],
    ) -> Option<Result<Value, Flow>> {
        if self.engine.halt.is_some() {
            return Some(Err(stopped()));
        }
        if !self.engine.facts.whole_root(e) {
            return None;
        }
        let chosen = {
            let mut p = self.path.borrow_mut();
            let engine = &mut *self.engine;
            p.choose(|| engine.dist(ev, e, frame, 0))
                .map(|d| (d, p.last()))
        };
        let (d, c) = match chosen {
            Ok(x) => x,
            Err(h) => {
                self.engine.halt = Some(h);
                return Some(Err(stopped()));
            }
        };
        let entry = d.entries.get(c)?;
        {
            let mut p = self.path.borrow_mut();
            p.credited = p.credited.saturating_add(entry.reach.steps);
        }
        if let Err(f) = ev.spend(entry.reach, e.span) {
            return Some(Err(f));
        }
        Some(entry.out.ev())
    }
}

fn stopped() -> Flow {
    Flow::from(Diag::error(Code::ProbTooLarge, "exact work stopped"))
}

/// The work of a node worked out whole: its own step and level, then its parts'.
fn node(r: Reach) -> Reach {
    Reach {
        steps: r.steps.saturating_add(1),
        nesting: r.nesting.saturating_add(1),
        ..r
    }
}

impl Engine<'_, '_> {
    /// Spends `units` of work; past the limit, exact work stops.
    fn spend(&mut self, units: u64) -> Result<(), Halt> {
        self.work = self.work.saturating_add(units);
        if self.work > self.limit {
            return Err(Halt::Work);
        }
        Ok(())
    }

    /// Follows every path of `run` in evaluators started where `ev` stands, `deeper`
    /// expressions in: the distribution of what they give, each outcome's work counted
    /// from there.
    fn enumerate(
        &mut self,
        ev: &Evaluator<'_>,
        deeper: u32,
        run: &mut dyn FnMut(&mut Evaluator<'_>) -> Result<Value, Flow>,
    ) -> Result<Dist, Halt> {
        let mut stack: Vec<Vec<(Rc<Dist>, usize)>> = vec![Vec::new()];
        let mut out = Builder::default();
        let mut paths = 0u64;
        while let Some(prefix) = stack.pop() {
            paths += 1;
            if paths.is_multiple_of(64) && crate::cancel::requested() {
                return Err(Halt::Cancelled);
            }
            let fixed = prefix.len();
            let path = Rc::new(RefCell::new(PathState {
                prefix,
                taken: Vec::new(),
                credited: 0,
            }));
            let stopped = Rc::new(std::cell::Cell::new(false));
            let mut dice = PathDice {
                path: path.clone(),
                left: self.limit.saturating_sub(self.work),
                stopped: stopped.clone(),
            };
            let (r, reach) = {
                let mut hook = Hook {
                    engine: self,
                    path: path.clone(),
                };
                let mut sub = ev.sub(&mut dice, deeper);
                let from = sub.position();
                sub.oracle = Some(&mut hook);
                let r = run(&mut sub);
                let reach = sub.reach_from(from);
                (r, reach)
            };
            if let Some(h) = self.halt.take() {
                return Err(h);
            }
            if stopped.get() {
                return Err(Halt::Work);
            }
            let taken = reach.steps.saturating_sub(path.borrow().credited);
            self.spend(taken.saturating_add(1))?;
            if self.work >= self.next_tick {
                (self.tick)(self.work);
                self.next_tick = self.work.saturating_add(1 << 16);
            }
            if let Err(Flow::Error(d)) = &r {
                if d.code.phase() == Phase::Limit {
                    return Err(Halt::Limit(d.clone()));
                }
            }
            let st = path.borrow();
            let (mut w, mut denom) = (BigUint::one(), BigUint::one());
            for (d, c) in &st.taken {
                w *= &d.entries[*c].w;
                denom *= &d.denom;
            }
            // Every other outcome of each choice first met on this path is a path
            // still to follow.
            for j in (fixed..st.taken.len()).rev() {
                for i in (1..st.taken[j].0.entries.len()).rev() {
                    let mut next = st.taken[..j].to_vec();
                    next.push((st.taken[j].0.clone(), i));
                    stack.push(next);
                }
            }
            out.add(Out::of(r), w, &denom, reach);
        }
        Ok(out.finish())
    }

    /// The distribution of `e` (which [`Facts`] says may be worked out whole, or has
    /// no dice) in `frame`, `at` expressions inside the one the evaluator `ev` was at;
    /// each outcome's work counted from `e`'s parent.
    fn dist(
        &mut self,
        ev: &Evaluator<'_>,
        e: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Rc<Dist>, Halt> {
        if !self.facts.random(e) {
            return self.fixed(ev, e, frame, at);
        }
        let d = match &e.kind {
            ExprKind::Dice { count, sides } => {
                self.spend(dice_cost(*count, *sides))?;
                dice_dist(
                    *count,
                    *sides,
                    Reach {
                        steps: 1,
                        dice: u64::from(*count),
                        depth: 0,
                        nesting: 1,
                    },
                )
            }
            ExprKind::Binary(op @ (BinOp::And | BinOp::Or), a, b) => {
                self.either(ev, *op, a, b, frame, at)?
            }
            ExprKind::Binary(op, a, b) => self.binary(ev, *op, a, b, e, frame, at)?,
            ExprKind::Not(x) => {
                let d = self.dist(ev, x, frame, at + 1)?;
                map(&d, |o| match o {
                    Out::Val(Value::Bool(b)) => Out::Val(Value::Bool(!b)),
                    other => other.clone(),
                })
            }
            ExprKind::Record(fields) => {
                let parts: Vec<&Expr> = fields.iter().map(|(_, x)| x).collect();
                let names: Vec<Rc<str>> = fields.iter().map(|(n, _)| n.clone()).collect();
                self.product(ev, &parts, frame, at, &mut |vals| {
                    Ok(Value::Record(Rc::new(
                        names.iter().cloned().zip(vals.iter().cloned()).collect(),
                    )))
                })?
            }
            ExprKind::Pair(a, b) => self.product(ev, &[a, b], frame, at, &mut |v| {
                Ok(Value::Pair(Rc::new((v[0].clone(), v[1].clone()))))
            })?,
            ExprKind::Default { of, index } => {
                let x = self.program.default_expr(*of, *index).ok_or(Halt::Work)?;
                let d = self.dist(ev, x, &mut [], at + 1)?;
                map_reach(&d, node)
            }
            ExprKind::Call(Callee::Builtin(Builtin::Dice), args) => {
                self.dice_call(ev, args, e, frame, at)?
            }
            ExprKind::Call(Callee::Builtin(b), args) => self.pool(*b, args)?,
            ExprKind::Call(callee, args) => self.call(ev, *callee, args, e, frame, at)?,
            // Not worked out whole (Facts says so): never asked.
            _ => return Err(Halt::Work),
        };
        Ok(Rc::new(d))
    }

    /// An expression without dice, worked out by the evaluator itself.
    fn fixed(
        &mut self,
        ev: &Evaluator<'_>,
        e: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Rc<Dist>, Halt> {
        let mut nodice = NoDice;
        let mut sub = ev.sub(&mut nodice, at);
        let from = sub.position();
        let r = sub.eval(e, frame);
        let reach = sub.reach_from(from);
        if let Err(Flow::Error(d)) = &r {
            if d.code.phase() == Phase::Limit {
                return Err(Halt::Limit(d.clone()));
            }
        }
        self.spend(reach.steps.saturating_add(1))?;
        Ok(Rc::new(Dist::certain(Out::of(r), reach)))
    }

    /// `a and b`, `a or b`: `b` worked out only where `a` does not decide.
    fn either(
        &mut self,
        ev: &Evaluator<'_>,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Dist, Halt> {
        let da = self.dist(ev, a, frame, at + 1)?;
        let mut out = Builder::default();
        let mut db: Option<Rc<Dist>> = None;
        for ea in &da.entries {
            let decides = match &ea.out {
                Out::Val(Value::Bool(x)) => *x == (op == BinOp::Or),
                _ => true,
            };
            if decides {
                out.add(ea.out.clone(), ea.w.clone(), &da.denom, node(ea.reach));
                continue;
            }
            let db = match &db {
                Some(d) => d.clone(),
                None => {
                    let d = self.dist(ev, b, frame, at + 1)?;
                    db = Some(d.clone());
                    d
                }
            };
            let denom = &da.denom * &db.denom;
            for eb in &db.entries {
                out.add(
                    eb.out.clone(),
                    &ea.w * &eb.w,
                    &denom,
                    node(ea.reach.then(eb.reach)),
                );
            }
        }
        self.spend(out.added)?;
        Ok(out.finish())
    }

    /// `a op b` for arithmetic and comparisons: the two independent, so each pair of
    /// outcomes combined (sums and comparisons of whole numbers as arrays).
    #[allow(clippy::too_many_arguments)]
    fn binary(
        &mut self,
        ev: &Evaluator<'_>,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        e: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Dist, Halt> {
        let da = self.dist(ev, a, frame, at + 1)?;
        if !da.any_value() {
            return Ok(map_reach(&da, node));
        }
        let db = self.dist(ev, b, frame, at + 1)?;
        if let (Some(x), Some(y)) = (da.dense(), db.dense()) {
            // Spent before it is done: a product too large is never half worked out.
            let wide = words(da.denom.bits() + db.denom.bits());
            self.spend(
                (x.1.len() as u64)
                    .saturating_mul(y.1.len() as u64)
                    .saturating_mul(wide),
            )?;
            let denom = &da.denom * &db.denom;
            let reach = node(x.2.then(y.2));
            if let Some(d) = dense_binary(op, &x, &y, denom, reach) {
                return Ok(d);
            }
        }
        let pairs = (da.entries.len() as u64).saturating_mul(db.entries.len() as u64);
        self.spend(pairs.saturating_mul(words(da.denom.bits() + db.denom.bits())))?;
        let mut out = Builder::default();
        let denom = &da.denom * &db.denom;
        for ea in &da.entries {
            let Out::Val(x) = &ea.out else {
                out.add(ea.out.clone(), ea.w.clone(), &da.denom, node(ea.reach));
                continue;
            };
            for eb in &db.entries {
                let o = match &eb.out {
                    Out::Val(y) => Out::of(ev.combine_values(op, x.clone(), y.clone(), e.span)),
                    stop => stop.clone(),
                };
                out.add(o, &ea.w * &eb.w, &denom, node(ea.reach.then(eb.reach)));
            }
        }
        Ok(out.finish())
    }

    /// The parts worked out in order, each independent of the others, a stop ending
    /// the whole; `make` builds the value from the parts' values.
    fn product(
        &mut self,
        ev: &Evaluator<'_>,
        parts: &[&Expr],
        frame: &mut [Value],
        at: u32,
        make: &mut dyn FnMut(&[Value]) -> Result<Value, Flow>,
    ) -> Result<Dist, Halt> {
        let (stops, tuples, denom) = self.tuples(ev, parts, frame, at, &mut |_, _| Ok(()))?;
        let mut out = stops;
        for (vals, w, reach) in tuples {
            out.add(Out::of(make(&vals)), w, &denom, node(reach));
        }
        self.spend(out.added)?;
        Ok(out.finish())
    }

    /// Every joint outcome of `parts` worked out left to right: the stops (in a
    /// builder, their work with the node's own), and the tuples of values with their
    /// weights over the denominator returned; `check` looks at each part's value as
    /// it is found (an argument against its parameter).
    #[allow(clippy::type_complexity)]
    fn tuples(
        &mut self,
        ev: &Evaluator<'_>,
        parts: &[&Expr],
        frame: &mut [Value],
        at: u32,
        check: &mut dyn FnMut(usize, &Value) -> Result<(), Flow>,
    ) -> Result<(Builder, Vec<(Vec<Value>, BigUint, Reach)>, BigUint), Halt> {
        let mut stops = Builder::default();
        let mut tuples: Vec<(Vec<Value>, BigUint, Reach)> =
            vec![(Vec::new(), BigUint::one(), Reach::default())];
        let mut denom = BigUint::one();
        for (i, p) in parts.iter().enumerate() {
            if tuples.is_empty() {
                break;
            }
            let d = self.dist(ev, p, frame, at + 1)?;
            self.spend((tuples.len() as u64).saturating_mul(d.entries.len() as u64))?;
            let mut next = Vec::new();
            denom *= &d.denom;
            for (vals, w, reach) in &tuples {
                for x in &d.entries {
                    let r = reach.then(x.reach);
                    let ww = w * &x.w;
                    match &x.out {
                        Out::Val(v) => match check(i, v) {
                            Ok(()) => {
                                let mut vs = vals.clone();
                                vs.push(v.clone());
                                next.push((vs, ww, r));
                            }
                            Err(f) => stops.add(Out::of(Err(f)), ww, &denom, node(r)),
                        },
                        stop => stops.add(stop.clone(), ww, &denom, node(r)),
                    }
                }
            }
            tuples = next;
        }
        Ok((stops, tuples, denom))
    }

    /// `dice(count, sides)`: for each joint outcome of its arguments, the sums of that
    /// many dice (or why they cannot be rolled, as the evaluator says it).
    fn dice_call(
        &mut self,
        ev: &Evaluator<'_>,
        args: &[Expr],
        e: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Dist, Halt> {
        let parts: Vec<&Expr> = args.iter().collect();
        let (mut out, tuples, denom) = self.tuples(ev, &parts, frame, at, &mut |_, _| Ok(()))?;
        for (vals, w, reach) in tuples {
            match ev.dice_size_of(&vals, e.span) {
                Err(f) => out.add(Out::of(Err(f)), w, &denom, node(reach)),
                Ok((count, sides)) => {
                    self.spend(dice_cost(count, sides))?;
                    let rolled = Reach {
                        dice: u64::from(count),
                        ..Reach::default()
                    };
                    let d = dice_dist(count, sides, rolled);
                    let both = &denom * &d.denom;
                    for x in d.entries {
                        out.add(x.out, &w * &x.w, &both, node(reach.then(x.reach)));
                    }
                }
            }
        }
        Ok(out.finish())
    }

    /// A call of a rule, table or modifier list: its arguments' joint outcomes, each
    /// checked, then the call worked out once for each (memoised).
    fn call(
        &mut self,
        ev: &Evaluator<'_>,
        callee: Callee,
        args: &[Expr],
        e: &Expr,
        frame: &mut [Value],
        at: u32,
    ) -> Result<Dist, Halt> {
        let program = self.program;
        let sig = program.signature(callee).ok_or(Halt::Work)?;
        let parts: Vec<&Expr> = args.iter().collect();
        let (mut out, tuples, denom) = self.tuples(ev, &parts, frame, at, &mut |i, v| match (
            sig.params.get(i),
            args.get(i),
        ) {
            (Some(p), Some(a)) => ev.check_param(p, v, a.span),
            _ => Ok(()),
        })?;
        for (vals, w, reach) in tuples {
            let body = self.memo(ev, callee, vals, e, at + 1)?;
            let d = &denom * &body.denom;
            self.spend(body.entries.len() as u64)?;
            for x in &body.entries {
                out.add(x.out.clone(), &w * &x.w, &d, node(reach.then(x.reach)));
            }
        }
        Ok(out.finish())
    }

    /// The outcomes of `callee` called with `vals`, worked out once.
    fn memo(
        &mut self,
        ev: &Evaluator<'_>,
        callee: Callee,
        vals: Vec<Value>,
        e: &Expr,
        deeper: u32,
    ) -> Result<Rc<Dist>, Halt> {
        let mut key = String::new();
        for v in &vals {
            key.push_str(&super::value_key(v));
            key.push('\u{1f}');
        }
        if let Some(d) = self.memo.get(&(callee, key.clone())) {
            return Ok(d.clone());
        }
        let span = e.span;
        let mut d = crate::limits::deep(|| {
            self.enumerate(ev, deeper, &mut |sub| {
                sub.call_with(callee, vals.clone(), span)
            })
        })?;
        d.normalise();
        let d = Rc::new(d);
        self.memo.insert((callee, key), d.clone());
        Ok(d)
    }

    /// A pool's count, highest or lowest dice by their closed forms (the pools
    /// [`Facts`] lets through: written dice, a written number).
    fn pool(&mut self, b: Builtin, args: &[Expr]) -> Result<Dist, Halt> {
        let (dice, number) = match (b, args) {
            (Builtin::Count, [d, n, ..]) | (_, [n, d]) => (d, n),
            _ => return Err(Halt::Work),
        };
        let (ExprKind::Dice { count, sides }, Some(k)) = (&dice.kind, literal(number)) else {
            return Err(Halt::Work);
        };
        let (count, sides) = (*count, *sides);
        // The pool's own step, its number's; every die rolled.
        let reach = Reach {
            steps: 2,
            dice: u64::from(count),
            depth: 0,
            nesting: 2,
        };
        let denom = BigUint::from(sides).pow(count);
        // Spent before it is worked out: the kept dice's states are dice × dice × sums
        // for each face.
        let (n, f) = (u64::from(count), u64::from(sides));
        let k = u64::try_from(k).unwrap_or(0);
        let cost = if b == Builtin::Count {
            n.saturating_mul(4)
        } else {
            f.saturating_mul(n)
                .saturating_mul(n)
                .saturating_mul(k.saturating_mul(f) + 1)
        };
        self.spend(cost.saturating_mul(words(denom.bits())))?;
        Ok(if b == Builtin::Count {
            let at_least = matches!(
                args.get(2).map(|e| &e.kind),
                Some(ExprKind::Value(Value::Bool(true)))
            );
            let k = u32::try_from(k).unwrap_or(0);
            let hits = if at_least { sides + 1 - k } else { k };
            Dist::from_dense(0, binomial(count, hits, sides), denom, reach)
        } else {
            let k = u32::try_from(k).unwrap_or(0);
            Dist::from_dense(
                0,
                kept(count, sides, k, b == Builtin::Highest),
                denom,
                reach,
            )
        })
    }
}

/// A whole number written as it is.
fn literal(e: &Expr) -> Option<i64> {
    match &e.kind {
        ExprKind::Value(v) => v.as_int(),
        _ => None,
    }
}

/// Each outcome mapped, equal ones merged; the node's own work added.
fn map(d: &Dist, f: impl Fn(&Out) -> Out) -> Dist {
    let mut out = Builder::default();
    for e in &d.entries {
        out.add(f(&e.out), e.w.clone(), &d.denom, node(e.reach));
    }
    out.finish()
}

/// The same outcomes, their work changed.
fn map_reach(d: &Dist, f: impl Fn(Reach) -> Reach) -> Dist {
    Dist {
        entries: d
            .entries
            .iter()
            .map(|e| Entry {
                out: e.out.clone(),
                w: e.w.clone(),
                reach: f(e.reach),
            })
            .collect(),
        denom: d.denom.clone(),
    }
}

/// Sums, differences and comparisons of two arrays of whole numbers.
fn dense_binary(
    op: BinOp,
    (alo, aw, _): &(i64, Vec<BigUint>, Reach),
    (blo, bw, _): &(i64, Vec<BigUint>, Reach),
    denom: BigUint,
    reach: Reach,
) -> Option<Dist> {
    let (alo, blo) = (*alo, *blo);
    match op {
        BinOp::Add | BinOp::Sub => {
            let sub = op == BinOp::Sub;
            let bhi = blo.checked_add(i64::try_from(bw.len()).ok()? - 1)?;
            let lo = if sub {
                alo.checked_sub(bhi)?
            } else {
                alo.checked_add(blo)?
            };
            // Values stay far inside i64: sums of dice.
            if lo.abs() > 1 << 40 || bhi.abs() > 1 << 40 || alo.abs() > 1 << 40 {
                return None;
            }
            let mut w = vec![BigUint::zero(); aw.len() + bw.len() - 1];
            let n = bw.len();
            for (i, x) in aw.iter().enumerate() {
                if x.is_zero() {
                    continue;
                }
                for (j, y) in bw.iter().enumerate() {
                    if y.is_zero() {
                        continue;
                    }
                    let at = if sub { i + (n - 1 - j) } else { i + j };
                    w[at] += x * y;
                }
            }
            Some(Dist::from_dense(lo, w, denom, reach))
        }
        BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne => {
            // below[k]: the weight of b's values less than blo + k.
            let mut below = Vec::with_capacity(bw.len() + 1);
            let mut acc = BigUint::zero();
            below.push(acc.clone());
            for y in bw {
                acc += y;
                below.push(acc.clone());
            }
            let total = acc;
            let idx = |v: i64| -> usize {
                // How many of b's slots lie below v.
                let k = v.saturating_sub(blo);
                usize::try_from(k.clamp(0, bw.len() as i64)).unwrap_or(0)
            };
            let mut yes = BigUint::zero();
            for (i, x) in aw.iter().enumerate() {
                if x.is_zero() {
                    continue;
                }
                let v = alo + i as i64;
                let lt = &below[idx(v)]; // b < v
                let le = &below[idx(v + 1)]; // b <= v
                let count = match op {
                    BinOp::Gt => lt.clone(),
                    BinOp::Ge => le.clone(),
                    BinOp::Lt => &total - le,
                    BinOp::Le => &total - lt,
                    BinOp::Eq => le - lt,
                    _ => &total - &(le - lt),
                };
                yes += x * count;
            }
            let all = &denom;
            let no = all - &yes;
            let mut entries = Vec::new();
            for (b, w) in [(false, no), (true, yes)] {
                if !w.is_zero() {
                    entries.push(Entry {
                        out: Out::Val(Value::Bool(b)),
                        w,
                        reach,
                    });
                }
            }
            Some(Dist { entries, denom })
        }
        _ => None,
    }
}

/// What the engine knows of the program: which expressions roll dice, which may be
/// worked out whole, which callees change the state.
struct Facts<'p> {
    program: &'p Program,
    /// Per callee: (rolls dice, changes the state or reads a needed parameter).
    callees: HashMap<Callee, (bool, bool)>,
    exprs: RefCell<HashMap<*const Expr, (bool, bool)>>,
}

impl<'p> Facts<'p> {
    fn new(program: &'p Program) -> Facts<'p> {
        let mut all: Vec<(Callee, Vec<&Expr>, bool)> = Vec::new();
        for (i, r) in program.rules.iter().enumerate() {
            let c = Callee::Rule(i as u32);
            let mut xs = vec![&r.body];
            xs.extend(r.sig.params.iter().filter_map(|p| p.default.as_ref()));
            all.push((c, xs, r.sig.params.iter().any(|p| p.needed)));
        }
        for (i, t) in program.tables.iter().enumerate() {
            let c = Callee::Table(i as u32);
            let mut xs: Vec<&Expr> = t.rows.iter().map(|r| &r.cell).collect();
            xs.extend(t.sig.params.iter().filter_map(|p| p.default.as_ref()));
            all.push((c, xs, t.sig.params.iter().any(|p| p.needed)));
        }
        for (i, m) in program.modifiers.iter().enumerate() {
            let c = Callee::Modifiers(i as u32);
            let mut xs: Vec<&Expr> = Vec::new();
            for md in &m.modifiers {
                xs.extend(md.condition.iter());
                xs.push(&md.amount);
                xs.extend(md.per.iter());
            }
            xs.extend(m.sig.params.iter().filter_map(|p| p.default.as_ref()));
            all.push((c, xs, m.sig.params.iter().any(|p| p.needed)));
        }
        // Direct facts and calls, then to a fixed point over the calls.
        let mut facts: HashMap<Callee, (bool, bool)> = HashMap::new();
        let mut calls: Vec<(Callee, Vec<Callee>)> = Vec::new();
        for (c, xs, needed) in &all {
            let (mut random, mut sets, mut callees) = (false, *needed, Vec::new());
            for x in xs {
                direct(program, x, &mut random, &mut sets, &mut callees);
            }
            facts.insert(*c, (random, sets));
            calls.push((*c, callees));
        }
        loop {
            let mut changed = false;
            for (c, cs) in &calls {
                let mut f = facts.get(c).copied().unwrap_or_default();
                for d in cs {
                    let g = facts.get(d).copied().unwrap_or_default();
                    f = (f.0 || g.0, f.1 || g.1);
                }
                if facts.get(c) != Some(&f) {
                    facts.insert(*c, f);
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        Facts {
            program,
            callees: facts,
            exprs: RefCell::new(HashMap::new()),
        }
    }

    /// (rolls dice, may be worked out whole) of `e`.
    fn of(&self, e: &Expr) -> (bool, bool) {
        let k = e as *const Expr;
        if let Some(f) = self.exprs.borrow().get(&k) {
            return *f;
        }
        let f = self.work_out(e);
        self.exprs.borrow_mut().insert(k, f);
        f
    }

    fn random(&self, e: &Expr) -> bool {
        self.of(e).0
    }

    /// Worth working out whole where the evaluator meets it: it rolls, and may be.
    fn whole_root(&self, e: &Expr) -> bool {
        let (r, w) = self.of(e);
        r && w
    }

    /// A part of something worked out whole: worked out whole itself, or without
    /// dice and without effects (the evaluator works it out).
    fn part(&self, e: &Expr) -> bool {
        let (r, w) = self.of(e);
        w || (!r && self.quiet(e))
    }

    /// No `set` in it, nor in what it calls.
    fn quiet(&self, e: &Expr) -> bool {
        let (mut random, mut sets, mut callees) = (false, false, Vec::new());
        direct(self.program, e, &mut random, &mut sets, &mut callees);
        !sets
            && callees
                .iter()
                .all(|c| !self.callees.get(c).is_some_and(|f| f.1))
    }

    fn work_out(&self, e: &Expr) -> (bool, bool) {
        let random = {
            let (mut random, mut sets, mut callees) = (false, false, Vec::new());
            direct(self.program, e, &mut random, &mut sets, &mut callees);
            random
                || callees
                    .iter()
                    .any(|c| self.callees.get(c).is_some_and(|f| f.0))
        };
        if !random {
            return (false, false);
        }
        let whole = match &e.kind {
            ExprKind::Dice { sides, .. } => *sides > 0,
            ExprKind::Binary(_, a, b) => self.part(a) && self.part(b),
            ExprKind::Not(x) => self.part(x),
            ExprKind::Record(fields) => fields.iter().all(|(_, x)| self.part(x)),
            ExprKind::Pair(a, b) => self.part(a) && self.part(b),
            ExprKind::Default { of, index } => self
                .program
                .default_expr(*of, *index)
                .is_some_and(|x| self.part(x)),
            ExprKind::Call(Callee::Builtin(Builtin::Dice), args) => {
                args.iter().all(|a| self.part(a))
            }
            ExprKind::Call(Callee::Builtin(b), args) => pool_whole(*b, args),
            ExprKind::Call(c, args) => {
                !self.callees.get(c).is_some_and(|f| f.1) && args.iter().all(|a| self.part(a))
            }
            _ => false,
        };
        (true, whole)
    }
}

/// A pool the closed forms cover: written dice (`10d6`), a written number the
/// evaluator would take without error.
fn pool_whole(b: Builtin, args: &[Expr]) -> bool {
    let (dice, number) = match (b, args) {
        (Builtin::Count, [d, n, ..]) => (d, n),
        (Builtin::Highest | Builtin::Lowest, [n, d]) => (d, n),
        _ => return false,
    };
    let (ExprKind::Dice { count, sides }, Some(k)) = (&dice.kind, literal(number)) else {
        return false;
    };
    if *sides == 0 {
        return false;
    }
    match b {
        Builtin::Count => (1..=i64::from(*sides)).contains(&k),
        _ => (0..=i64::from(*count)).contains(&k),
    }
}

/// What `e` itself says: whether it rolls, whether it has a `set`, what it calls
/// (a parameter's default followed into).
fn direct(
    program: &Program,
    e: &Expr,
    random: &mut bool,
    sets: &mut bool,
    callees: &mut Vec<Callee>,
) {
    e.walk(&mut |x| match &x.kind {
        ExprKind::Dice { .. } => *random = true,
        ExprKind::Call(Callee::Builtin(b), _) if b.is_pool() || *b == Builtin::Dice => {
            *random = true;
        }
        ExprKind::Call(Callee::Builtin(_), _) => {}
        ExprKind::Call(c, _) => callees.push(*c),
        ExprKind::Block(stmts, _) if stmts.iter().any(|s| matches!(s, Stmt::Set(_))) => {
            *sets = true;
        }
        ExprKind::Default { of, index } => {
            if let Some(d) = program.default_expr(*of, *index) {
                direct(program, d, random, sets, callees);
            }
        }
        _ => {}
    });
}
