//! The evaluator: one checked expression, a dice source → an [`Adjudication`].
//!
//! A refusal and a gap in the source are results, carried out of any depth as
//! [`Flow`]; errors (overflow, a limit hit, too few given rolls) are diagnostics at the
//! span that caused them. The trace is built only when asked for.

use crate::adjudication::{Adjudication, Applied, Arg, Gave, Outcome, Roll, Stop, TraceNode};
use crate::diagnostic::Diag;
use crate::dice::{DiceRequest, DiceSource};
use crate::program::*;
use crate::span::Span;
use crate::syntax::ast::{BinOp, SetOp};
use crate::value::{arith, ArithError, Length, Rational, Value};
use std::rc::Rc;

pub use crate::limits::Limits;

/// Deepest nesting of expressions (calls included) in one adjudication.
pub const MAX_EVAL_NESTING: u32 = 4096;

/// Options for one adjudication.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Build the explanation.
    pub trace: bool,
    /// Limits (by default those in force on this thread, [`crate::limits::current`]).
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            trace: false,
            limits: crate::limits::current(),
        }
    }
}

/// How evaluation leaves an expression early.
#[derive(Debug)]
pub enum Flow {
    /// A refusal: a result.
    Refused(Rc<str>, Option<Rc<str>>),
    /// A gap in the source: a result.
    NotGiven(Rc<str>, Option<Rc<str>>),
    /// An error.
    Error(Box<Diag>),
}

impl From<Diag> for Flow {
    fn from(d: Diag) -> Flow {
        Flow::Error(Box::new(d))
    }
}

type Ev = Result<Value, Flow>;

/// Adjudicates `query` against `program`, rolling with `dice`.
///
/// Errors: arithmetic overflow, division by zero, a limit hit, a dice-source error
/// (too few or too many given rolls, a face the die does not have).
pub fn adjudicate(
    program: &Program,
    query: &Query,
    dice: &mut dyn DiceSource,
    opts: Options,
    state: Option<&Value>,
) -> Result<Adjudication, Diag> {
    adjudicate_bound(program, query, dice, opts, state, Vec::new())
}

/// Like [`adjudicate`], with the query's first locals set to `bound` (in order).
pub fn adjudicate_bound(
    program: &Program,
    query: &Query,
    dice: &mut dyn DiceSource,
    opts: Options,
    state: Option<&Value>,
    bound: Vec<Value>,
) -> Result<Adjudication, Diag> {
    let mut ev = Evaluator::new(program, dice, opts);
    ev.state = state;
    let mut frame = bound;
    frame.resize((query.slots as usize).max(frame.len()), Value::Bool(false));
    let result = ev.eval(&query.expr, &mut frame);
    let outcome = ev.outcome(result)?;
    ev.dice.finish()?;
    Ok(Adjudication {
        outcome,
        rolls: ev.rolls,
        trace: ev.trace.map(|mut t| t.pop().unwrap_or_default()),
        seed: None,
        effects: ev.effects,
        steps: ev.steps,
    })
}

/// The evaluator's state for one adjudication.
pub struct Evaluator<'a> {
    prog: &'a Program,
    /// The dice source.
    pub dice: &'a mut dyn DiceSource,
    /// Every roll so far.
    pub rolls: Vec<Roll>,
    /// Open trace levels (innermost last), when tracing.
    pub trace: Option<Vec<Vec<TraceNode>>>,
    steps: u64,
    depth: u32,
    /// The rules, tables and modifier lists being worked out, innermost last (a die
    /// asked for at the table names the one that rolls it).
    within: Vec<Callee>,
    dice_rolled: u64,
    nesting: u32,
    /// The game state (a record of the ruleset's `state` shape), if loaded.
    pub state: Option<&'a Value>,
    /// Changes to the state produced so far (not applied: reads see the state as it was).
    pub effects: Vec<crate::adjudication::Effect>,
    limits: Limits,
}

fn arith_err(e: ArithError, span: Span) -> Flow {
    let code = match e {
        ArithError::Overflow => "umpire::eval::overflow",
        ArithError::DivisionByZero => "umpire::eval::division_by_zero",
    };
    Flow::from(Diag::at(code, e.to_string(), span, "here"))
}

fn internal(span: Span, what: &str) -> Flow {
    Flow::from(
        Diag::at(
            "umpire::eval::type",
            format!("a value of the wrong kind reached {what}"),
            span,
            "here",
        )
        .help("this is a bug in umpire's checker: please report it with the ruleset"),
    )
}

impl<'a> Evaluator<'a> {
    /// A fresh evaluator.
    pub fn new(prog: &'a Program, dice: &'a mut dyn DiceSource, opts: Options) -> Self {
        Evaluator {
            prog,
            dice,
            rolls: Vec::new(),
            trace: opts.trace.then(|| vec![Vec::new()]),
            steps: 0,
            depth: 0,
            within: Vec::new(),
            dice_rolled: 0,
            nesting: 0,
            state: None,
            effects: Vec::new(),
            limits: opts.limits,
        }
    }

    /// Turns the flow of a finished evaluation into an outcome.
    pub fn outcome(&mut self, r: Ev) -> Result<Outcome, Diag> {
        match r {
            Ok(v) => Ok(Outcome::Value(v)),
            Err(Flow::Refused(reason, cite)) => Ok(Outcome::Refused {
                reason: reason.to_string(),
                cite: cite.map(|c| c.to_string()),
            }),
            Err(Flow::NotGiven(what, cite)) => Ok(Outcome::NotGiven {
                what: what.to_string(),
                cite: cite.map(|c| c.to_string()),
            }),
            Err(Flow::Error(d)) => Err(*d),
        }
    }

    fn push(&mut self, n: TraceNode) {
        if let Some(t) = &mut self.trace {
            if let Some(level) = t.last_mut() {
                level.push(n);
            }
        }
    }

    fn open(&mut self) {
        if let Some(t) = &mut self.trace {
            t.push(Vec::new());
        }
    }

    fn close(&mut self) -> Vec<TraceNode> {
        self.trace
            .as_mut()
            .and_then(|t| t.pop())
            .unwrap_or_default()
    }

    #[inline(always)]
    fn step(&mut self, span: Span) -> Result<(), Flow> {
        self.steps += 1;
        if self.steps > self.limits.steps {
            return Err(self.too_many_steps(span));
        }
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_many_steps(&self, span: Span) -> Flow {
        Flow::from(
            Diag::at(
                "umpire::limit::steps",
                format!(
                    "the adjudication took more than {} steps",
                    self.limits.steps
                ),
                span,
                "still working here",
            )
            .help("a rule may be calling itself without end; the limit is set by --max-steps"),
        )
    }

    /// A value in words, for an error message.
    fn show(&self, v: &Value) -> String {
        crate::words::show(self.prog, v)
    }

    /// Evaluates `e` with locals in `frame`.
    pub fn eval(&mut self, e: &Expr, frame: &mut [Value]) -> Ev {
        // Expressions inside calls inside expressions: the whole nesting is bounded, not
        // just the calls, so a deep body called a hundred deep cannot exhaust the stack.
        self.nesting += 1;
        if self.nesting > MAX_EVAL_NESTING {
            self.nesting -= 1;
            return Err(Flow::from(
                Diag::at("umpire::limit::depth", format!("the adjudication nests more than {MAX_EVAL_NESTING} expressions deep"), e.span, "too deep here")
                    .help("a rule may be calling itself too deeply; write it with fewer calls or shorter chains"),
            ));
        }
        // Checking the stack costs a little: every 16 levels is enough (16 frames are
        // well inside the 128 KiB `deep` keeps in hand).
        let r = if self.nesting.is_multiple_of(16) {
            crate::limits::deep(|| self.eval_inner(e, frame))
        } else {
            self.eval_inner(e, frame)
        };
        self.nesting -= 1;
        r
    }

    fn eval_inner(&mut self, e: &Expr, frame: &mut [Value]) -> Ev {
        self.step(e.span)?;
        match &e.kind {
            ExprKind::Value(v) => Ok(v.clone()),
            ExprKind::State(i) => match self.state {
                Some(state) => match state {
                    Value::Record(fields) => fields.get(*i as usize).map(|(_, v)| v.clone()).ok_or_else(|| internal(e.span, "the state")),
                    _ => Err(internal(e.span, "the state")),
                },
                None => Err(Flow::from(
                    Diag::at("umpire::eval::no_state", format!("`{}` is part of the game state, and no state is loaded", self.prog.sources.snippet(e.span)), e.span, "needs the state")
                        .help("give a state file: `--state FILE` (`umpire eval`, `umpire repl`), `:load FILE` in the REPL, or `state = \"FILE\"` in a scenario"),
                )),
            },
            ExprKind::Local(s) => frame
                .get(*s as usize)
                .cloned()
                .ok_or_else(|| internal(e.span, "a local")),
            ExprKind::Const(id) => {
                let c = self
                    .prog
                    .consts
                    .get(*id as usize)
                    .ok_or_else(|| internal(e.span, "a constant"))?;
                let mut f = vec![Value::Bool(false); c.slots as usize];
                self.eval(&c.value, &mut f)
            }
            ExprKind::Member(base, key) => {
                let b = self.eval(base, frame)?;
                let Value::Text(name) = self.eval(key, frame)? else {
                    return Err(internal(key.span, "a member name"));
                };
                let g = self.prog.sources.snippet(base.span).to_string();
                self.member(&b, &name, &g, e.span).cloned()
            }
            ExprKind::Field(base, name, at) => {
                // `u.grade`, `brigade.second_foot.lost_percent`: read in place, without
                // copying the records on the way (each part still a step).
                if let Some(v) = self
                    .in_place(base, frame)
                    .and_then(|b| field_at(b, name, *at))
                {
                    return Ok(v.clone());
                }
                let b = self.eval(base, frame)?;
                field_at(&b, name, *at).cloned().ok_or_else(|| match &b {
                    // A member named in the state file: say which there are.
                    Value::Group(members) => {
                        let names: Vec<&str> = members.iter().map(|(n, _)| &**n).collect();
                        let group = self.prog.sources.snippet(base.span).to_string();
                        Flow::from(
                            Diag::at("umpire::eval::no_member", format!("`{group}` has no `{name}` in the state"), e.span, "not in the state")
                                .suggest(name, names.iter().copied())
                                .help(format!("`{group}` holds: {}", names.join(", "))),
                        )
                    }
                    _ => Flow::from(Diag::at(
                        "umpire::eval::field",
                        format!("{} has no field `{name}`", self.show(&b)),
                        e.span,
                        "no such field",
                    )),
                })
            }
            ExprKind::Neg(x) => match self.eval(x, frame)? {
                Value::Num(r) => arith::neg(r)
                    .map(Value::Num)
                    .map_err(|er| arith_err(er, e.span)),
                Value::Length(l) => arith::neg(l.inches)
                    .map(|i| {
                        Value::Length(Length {
                            inches: i,
                            unit: l.unit,
                        })
                    })
                    .map_err(|er| arith_err(er, e.span)),
                Value::Time(t) => arith::neg(t)
                    .map(Value::Time)
                    .map_err(|er| arith_err(er, e.span)),
                _ => Err(internal(e.span, "`-`")),
            },
            ExprKind::Not(x) => match self.eval(x, frame)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                _ => Err(internal(e.span, "`not`")),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, e.span, frame),
            ExprKind::Dice { count, sides } => self.roll(*count, *sides, e.span),
            ExprKind::Call(callee, args) => self.call(*callee, args, e.span, frame),
            ExprKind::If(arms, otherwise) => {
                for (c, body) in arms {
                    if self.truth(c, frame)? {
                        return self.eval(body, frame);
                    }
                }
                match otherwise {
                    Some(o) => self.eval(o, frame),
                    None => Ok(Value::Bool(false)),
                }
            }
            ExprKind::Match(scrutinee, arms) => {
                let v = self.eval(scrutinee, frame)?;
                for (pat, body, _) in arms {
                    self.steps += pattern_cost(pat);
                    if matches(pat, &v) {
                        self.step(e.span)?;
                        return self.eval(body, frame);
                    }
                }
                self.step(e.span)?;
                Err(Flow::from(
                    Diag::at(
                        "umpire::eval::no_match",
                        format!("no arm of this `match` covers {}", self.show(&v)),
                        scrutinee.span,
                        "matched nothing",
                    )
                    .help("add an arm for it, or `otherwise => ...`"),
                ))
            }
            ExprKind::Record(fields) => {
                let mut out = Vec::with_capacity(fields.len());
                for (n, fe) in fields {
                    out.push((n.clone(), self.eval(fe, frame)?));
                }
                Ok(Value::Record(Rc::new(out)))
            }
            ExprKind::Pair(a, b) => {
                let a = self.eval(a, frame)?;
                let b = self.eval(b, frame)?;
                Ok(Value::Pair(Rc::new((a, b))))
            }
            ExprKind::Refuse { reason, cite } => {
                if self.trace.is_some() {
                    self.push(TraceNode::Refused {
                        reason: reason.clone(),
                        cite: cite.clone(),
                    });
                }
                Err(Flow::Refused(reason.clone(), cite.clone()))
            }
            ExprKind::Chosen(i) => {
                let prog = self.prog;
                let Some(info) = prog.interpretations.get(*i as usize) else {
                    return Err(internal(e.span, "an interpretation"));
                };
                let chosen = prog.chosen.get(*i as usize).copied().flatten();
                match chosen.or(info.default) {
                    Some(r) => {
                        // The explanation names the reading it went by.
                        if self.trace.is_some() {
                            self.push(TraceNode::Reading {
                                interpretation: *i,
                                reading: r,
                                chosen: chosen.is_some(),
                            });
                        }
                        Ok(Value::Enum(info.readings, r))
                    }
                    None => {
                        let what: Rc<str> = Rc::from(format!(
                            "{} (no reading is chosen: --interpret {}=READING)",
                            info.text, info.name
                        ));
                        if self.trace.is_some() {
                            self.push(TraceNode::NotGiven {
                                what: what.clone(),
                                cite: info.cite.clone(),
                            });
                        }
                        Err(Flow::NotGiven(what, info.cite.clone()))
                    }
                }
            }
            ExprKind::NotGiven { what, cite } => {
                if self.trace.is_some() {
                    self.push(TraceNode::NotGiven {
                        what: what.clone(),
                        cite: cite.clone(),
                    });
                }
                Err(Flow::NotGiven(what.clone(), cite.clone()))
            }
            ExprKind::Fresh { value, slots } => {
                let mut f = vec![Value::Bool(false); *slots as usize];
                self.eval(value, &mut f)
            }
            ExprKind::Default { of, index } => {
                let prog = self.prog;
                let i = *index as usize;
                let default = match of {
                    DefaultOf::Record(r) => prog
                        .records
                        .get(*r as usize)
                        .and_then(|r| r.defaults.get(i))
                        .and_then(Option::as_ref),
                    DefaultOf::Param(Callee::Rule(id)) => prog
                        .rules
                        .get(*id as usize)
                        .and_then(|r| r.params.get(i))
                        .and_then(|p| p.default.as_ref()),
                    DefaultOf::Param(Callee::Table(id)) => prog
                        .tables
                        .get(*id as usize)
                        .and_then(|t| t.params.get(i))
                        .and_then(|p| p.default.as_ref()),
                    DefaultOf::Param(Callee::Modifiers(id)) => prog
                        .modifiers
                        .get(*id as usize)
                        .and_then(|m| m.params.get(i))
                        .and_then(|p| p.default.as_ref()),
                    DefaultOf::Param(Callee::Builtin(_)) => None,
                };
                let default = default.ok_or_else(|| internal(e.span, "a default"))?;
                // A default uses no locals of where it is used.
                self.eval(default, &mut [])
            }
            ExprKind::InRange { value, range, what } => {
                let v = self.eval(value, frame)?;
                check_range(|| what.to_string(), *range, &v, e.span)?;
                Ok(v)
            }
            ExprKind::Block(stmts, value) => {
                for s in stmts {
                    match s {
                        Stmt::Let(slot, x) => {
                            let v = self.eval(x, frame)?;
                            match frame.get_mut(*slot as usize) {
                                Some(place) => *place = v,
                                None => return Err(internal(x.span, "a `let`")),
                            }
                        }
                        Stmt::Note(text) => self.push(TraceNode::Note { text: text.clone() }),
                        Stmt::Guard(x) => {
                            self.eval(x, frame)?;
                        }
                        Stmt::Set(set) => self.set(set, frame)?,
                    }
                }
                self.eval(value, frame)
            }
        }
    }

    /// The value a local, or a field of one (of a field ...), holds, borrowed where it
    /// is, each part counted as a step; `None` for anything else (or a field that is
    /// not there: the caller works it out the long way, and reports it).
    fn in_place<'f>(&mut self, e: &Expr, frame: &'f [Value]) -> Option<&'f Value> {
        let mut chain: [Option<(&Rc<str>, u32)>; 8] = [None; 8];
        let mut n = 0;
        let mut at = e;
        let slot = loop {
            match &at.kind {
                ExprKind::Local(s) => break *s,
                ExprKind::Field(b, name, i) if n < chain.len() => {
                    chain[n] = Some((name, *i));
                    n += 1;
                    at = b;
                }
                _ => return None,
            }
        };
        let mut v = frame.get(slot as usize)?;
        for link in chain[..n].iter().rev() {
            let (name, i) = (*link)?;
            v = field_at(v, name, i)?;
        }
        // Counted only once it is known to be read here.
        for _ in 0..=n {
            self.step(e.span).ok()?;
        }
        Some(v)
    }

    fn truth(&mut self, c: &Expr, frame: &mut [Value]) -> Result<bool, Flow> {
        match self.eval(c, frame)? {
            Value::Bool(b) => Ok(b),
            _ => Err(internal(c.span, "a condition")),
        }
    }

    fn num(&mut self, e: &Expr, frame: &mut [Value]) -> Result<Rational, Flow> {
        match self.eval(e, frame)? {
            Value::Num(r) => Ok(r),
            _ => Err(internal(e.span, "a number")),
        }
    }

    fn roll(&mut self, count: u32, sides: u32, span: Span) -> Ev {
        self.dice_rolled += u64::from(count);
        if self.dice_rolled > self.limits.dice {
            return Err(Flow::from(
                Diag::at(
                    "umpire::limit::dice",
                    format!(
                        "the adjudication rolls more than {} dice in all",
                        self.limits.dice
                    ),
                    span,
                    "one roll too many",
                )
                .help("a rule may be rolling dice in a loop without end; the limit is set by --max-dice"),
            ));
        }
        if sides == 0 {
            return Err(Flow::from(Diag::at(
                "umpire::limit::dice",
                "a die must have at least one side",
                span,
                "no such die",
            )));
        }
        // The term as written, borrowed from the program (no copy until it is recorded).
        let prog = self.prog;
        let text = prog.sources.snippet(span);
        let within = match self.within.last() {
            Some(Callee::Rule(i)) => prog.rules.get(*i as usize).map(|r| &*r.name),
            Some(Callee::Table(i)) => prog.tables.get(*i as usize).map(|t| &*t.name),
            Some(Callee::Modifiers(i)) => prog.modifiers.get(*i as usize).map(|m| &*m.name),
            _ => None,
        };
        let req = DiceRequest {
            count,
            sides,
            span,
            text,
            within,
        };
        let mut faces = Vec::with_capacity(count as usize);
        let total = self.dice.roll(&req, &mut faces)?;
        if self.trace.is_some() {
            self.push(TraceNode::Roll {
                span,
                sides,
                faces: faces.clone(),
                total,
            });
        }
        self.rolls.push(Roll {
            dice: text.to_string(),
            sides,
            faces,
            total,
        });
        Ok(Value::int(total))
    }

    fn binary(&mut self, op: BinOp, a: &Expr, b: &Expr, span: Span, frame: &mut [Value]) -> Ev {
        // `and` / `or` short-circuit.
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(a, frame)? && self.truth(b, frame)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(a, frame)? || self.truth(b, frame)?)),
            _ => {}
        }
        let x = self.eval(a, frame)?;
        let y = self.eval(b, frame)?;
        self.combine(op, x, y, span)
    }

    /// The member `name` of a group, or an error listing the members there are.
    fn member<'v>(
        &self,
        group: &'v Value,
        name: &str,
        g: &str,
        span: Span,
    ) -> Result<&'v Value, Flow> {
        group.field(name).ok_or_else(|| {
            let names: Vec<&str> = match group {
                Value::Group(m) => m.iter().map(|(n, _)| &**n).collect(),
                _ => Vec::new(),
            };
            Flow::from(
                Diag::at(
                    "umpire::eval::no_member",
                    format!("`{g}` has no `{name}` in the state"),
                    span,
                    "not in the state",
                )
                .suggest(name, names.iter().copied())
                .help(format!("`{g}` holds: {}", names.join(", "))),
            )
        })
    }

    /// `set PATH op VALUE`: works out the path and the new value and records the effect.
    fn set(&mut self, set: &SetEffect, frame: &mut [Value]) -> Result<(), Flow> {
        let prog = self.prog;
        let Some(state) = self.state else {
            return Err(Flow::from(
                Diag::at("umpire::eval::no_state", "`set` changes the game state, and no state is loaded", set.span, "needs the state")
                    .help("give a state file: `--state FILE` (`umpire eval`, `umpire repl`), `:load FILE` in the REPL, or `state = \"FILE\"` in a scenario"),
            ));
        };
        let Some(info) = prog.state.and_then(|s| prog.records.get(s as usize)) else {
            return Err(internal(set.span, "the state"));
        };
        let root_name = info
            .shape
            .fields
            .get(set.root as usize)
            .map(|(n, _)| n.clone())
            .ok_or_else(|| internal(set.span, "the state"))?;
        let mut path = vec![root_name.to_string()];
        let mut at = state
            .field(&root_name)
            .ok_or_else(|| internal(set.span, "the state"))?;
        for step in &set.path {
            match step {
                // A member of a group named after a dot (`units.old_guard`) may be
                // missing from the state: say so, as for `units[name]`.
                PathStep::Field(name) if matches!(at, Value::Group(_)) => {
                    at = self.member(at, name, &path.join("."), set.span)?;
                    path.push(name.to_string());
                }
                PathStep::Field(name) => {
                    at = at
                        .field(name)
                        .ok_or_else(|| internal(set.span, "a state path"))?;
                    path.push(name.to_string());
                }
                PathStep::Member(key) => {
                    let Value::Text(name) = self.eval(key, frame)? else {
                        return Err(internal(key.span, "a member name"));
                    };
                    at = self.member(at, &name, &path.join("."), key.span)?;
                    path.push(name.to_string());
                }
            }
        }
        // Changes made earlier in this adjudication to the same place count: two
        // `-= 3` and `-= 4` take seven. (Reads elsewhere still see the state as it was.)
        let from = match self.effects.iter().rev().find(|e| e.path == path) {
            Some(earlier) => earlier.to.clone(),
            None => at.clone(),
        };
        let value = self.eval(&set.value, frame)?;
        let to = match set.op {
            SetOp::Assign => value,
            SetOp::Add => self.combine(BinOp::Add, from.clone(), value, set.span)?,
            SetOp::Sub => self.combine(BinOp::Sub, from.clone(), value, set.span)?,
        };
        if let Some(range) = set.range {
            check_range(|| format!("`{}`", path.join(".")), range, &to, set.span)?;
        }
        // A change that changes nothing (`+= 0`) is not an effect.
        if from.same(&to) {
            return Ok(());
        }
        let effect = crate::adjudication::Effect { path, from, to };
        if self.trace.is_some() {
            self.push(TraceNode::Effect(effect.clone()));
        }
        self.effects.push(effect);
        Ok(())
    }

    /// `x op y` on two values (not `and`/`or`, which look at their right side only when
    /// they must).
    fn combine(&self, op: BinOp, x: Value, y: Value, span: Span) -> Ev {
        let ar = |r: Result<Rational, ArithError>| r.map_err(|er| arith_err(er, span));
        use Value::*;
        Ok(match (op, &x, &y) {
            (BinOp::Eq, _, _) => Bool(x.same(&y)),
            (BinOp::Ne, _, _) => Bool(!x.same(&y)),
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, _, _) => {
                let (p, q) = match (&x, &y) {
                    // Whole numbers compare without cross-multiplying.
                    (Num(p), Num(q)) if p.is_integer() && q.is_integer() => {
                        let (a, b) = (*p.numer(), *q.numer());
                        return Ok(Bool(match op {
                            BinOp::Lt => a < b,
                            BinOp::Le => a <= b,
                            BinOp::Gt => a > b,
                            _ => a >= b,
                        }));
                    }
                    (Num(p), Num(q)) | (Time(p), Time(q)) => (*p, *q),
                    (Length(p), Length(q)) => (p.inches, q.inches),
                    _ => return Err(internal(span, "a comparison")),
                };
                Bool(match op {
                    BinOp::Lt => p < q,
                    BinOp::Le => p <= q,
                    BinOp::Gt => p > q,
                    _ => p >= q,
                })
            }
            (BinOp::Add, Num(p), Num(q)) => Num(ar(arith::add(*p, *q))?),
            (BinOp::Sub, Num(p), Num(q)) => Num(ar(arith::sub(*p, *q))?),
            (BinOp::Mul, Num(p), Num(q)) => Num(ar(arith::mul(*p, *q))?),
            (BinOp::Div, Num(p), Num(q)) => Num(ar(arith::div(*p, *q))?),
            (BinOp::Rem, Num(p), Num(q)) if p.is_integer() && q.is_integer() => {
                Value::int(arith::rem(*p.numer(), *q.numer()).map_err(|er| arith_err(er, span))?)
            }
            (BinOp::Add, Length(p), Length(q)) => Length(crate::value::Length {
                inches: ar(arith::add(p.inches, q.inches))?,
                unit: crate::value::Length::unit_of(p.unit, q.unit),
            }),
            (BinOp::Sub, Length(p), Length(q)) => Length(crate::value::Length {
                inches: ar(arith::sub(p.inches, q.inches))?,
                unit: crate::value::Length::unit_of(p.unit, q.unit),
            }),
            (BinOp::Mul, Length(p), Num(q)) | (BinOp::Mul, Num(q), Length(p)) => {
                Length(crate::value::Length {
                    inches: ar(arith::mul(p.inches, *q))?,
                    unit: p.unit,
                })
            }
            (BinOp::Div, Length(p), Num(q)) => Length(crate::value::Length {
                inches: ar(arith::div(p.inches, *q))?,
                unit: p.unit,
            }),
            (BinOp::Div, Length(p), Length(q)) => Num(ar(arith::div(p.inches, q.inches))?),
            (BinOp::Add, Time(p), Time(q)) => Time(ar(arith::add(*p, *q))?),
            (BinOp::Sub, Time(p), Time(q)) => Time(ar(arith::sub(*p, *q))?),
            (BinOp::Mul, Time(p), Num(q)) | (BinOp::Mul, Num(q), Time(p)) => {
                Time(ar(arith::mul(*p, *q))?)
            }
            (BinOp::Div, Time(p), Num(q)) => Time(ar(arith::div(*p, *q))?),
            (BinOp::Div, Time(p), Time(q)) => Num(ar(arith::div(*p, *q))?),
            _ => {
                return Err(Flow::from(Diag::at(
                    "umpire::eval::units",
                    format!(
                        "cannot compute {} {} {}",
                        self.show(&x),
                        op.symbol(),
                        self.show(&y)
                    ),
                    span,
                    "mixed units",
                )))
            }
        })
    }

    /// A record passed where a declared record type is wanted keeps that type's ranges,
    /// however it was built (`let b = { stands: 20, ... }` then `orders(b)`).
    fn check_record_ranges(&self, ty: &Ty, v: &Value, span: Span) -> Result<(), Flow> {
        let Ty::Record(shape) = ty else { return Ok(()) };
        // Found by index, not by name: this runs at every call.
        let Some(info) = shape
            .record
            .and_then(|id| self.prog.records.get(id as usize))
        else {
            return Ok(());
        };
        if info.ranges.iter().all(Option::is_none) {
            return Ok(());
        }
        let name = &info.name;
        for (i, ((fname, _), range)) in info.shape.fields.iter().zip(&info.ranges).enumerate() {
            let Some(range) = range else { continue };
            if let Some(fv) = field_at(v, fname, u32::try_from(i).unwrap_or(u32::MAX)) {
                check_range(|| format!("field `{fname}` of {name}"), *range, fv, span)?;
            }
        }
        Ok(())
    }

    fn args(
        &mut self,
        params: &[ParamInfo],
        args: &[Expr],
        slots: u32,
        frame: &mut [Value],
    ) -> Result<Vec<Value>, Flow> {
        let mut f = Vec::with_capacity(slots as usize);
        for (p, a) in params.iter().zip(args) {
            let v = self.eval(a, frame)?;
            check_arg(p, &v, a.span)?;
            self.check_record_ranges(&p.ty, &v, a.span)?;
            f.push(v);
        }
        f.resize(slots as usize, Value::Bool(false));
        Ok(f)
    }

    /// The arguments as an explanation records them, those left to their defaults marked.
    fn traced_args(params: &[ParamInfo], args: &[Expr], f: &[Value]) -> Vec<Arg> {
        params
            .iter()
            .zip(f)
            .enumerate()
            .map(|(i, (_, v))| Arg {
                value: v.clone(),
                default: args
                    .get(i)
                    .is_some_and(|a| matches!(a.kind, ExprKind::Default { .. })),
            })
            .collect()
    }

    fn leave(&mut self) {
        self.depth -= 1;
        self.within.pop();
    }

    fn enter(&mut self, span: Span, callee: Callee) -> Result<(), Flow> {
        self.depth += 1;
        self.within.push(callee);
        if self.depth > self.limits.depth {
            return Err(Flow::from(
                Diag::at(
                    "umpire::limit::depth",
                    format!("calls nested more than {} deep", self.limits.depth),
                    span,
                    "one call too many",
                )
                .help("a rule may be calling itself without end; the limit is set by --max-depth"),
            ));
        }
        Ok(())
    }

    fn call(&mut self, callee: Callee, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        match callee {
            Callee::Builtin(b) => self.builtin(b, args, span, frame),
            Callee::Rule(id) => {
                let prog = self.prog;
                let r = prog
                    .rules
                    .get(id as usize)
                    .ok_or_else(|| internal(span, "a rule"))?;
                let mut f = self.args(&r.params, args, r.slots, frame)?;
                self.enter(span, Callee::Rule(id))?;
                self.open();
                let out = self.eval(&r.body, &mut f);
                self.leave();
                let steps = self.close();
                if self.trace.is_some() {
                    self.push(TraceNode::Rule {
                        rule: id,
                        args: Self::traced_args(&r.params, args, &f),
                        result: gave(&out),
                        steps,
                    });
                }
                out
            }
            Callee::Table(id) => {
                let prog = self.prog;
                let t = prog
                    .tables
                    .get(id as usize)
                    .ok_or_else(|| internal(span, "a table"))?;
                let mut f = self.args(&t.params, args, t.slots, frame)?;
                // Every pattern alternative tried is a step: a long row costs its length.
                let mut tried = 0u64;
                let found = t.rows.iter().position(|row| {
                    row.patterns.iter().zip(f.iter()).all(|(p, v)| {
                        tried += pattern_cost(p);
                        matches(p, v)
                    })
                });
                self.steps += tried;
                self.step(span)?;
                let Some((at, row)) = found.and_then(|at| Some((at, t.rows.get(at)?))) else {
                    let keys: Vec<String> = t
                        .params
                        .iter()
                        .zip(&f)
                        .take(t.keys)
                        .map(|(p, v)| {
                            format!("{}: {}", p.name, crate::words::show_arg(self.prog, v))
                        })
                        .collect();
                    return Err(Flow::from(
                        Diag::at(
                            "umpire::eval::no_row",
                            format!("no row of table `{}` matches {}", t.name, keys.join(", ")),
                            span,
                            "matched no row",
                        )
                        .help("add a row for these keys, or `otherwise => ...`"),
                    ));
                };
                self.enter(span, Callee::Table(id))?;
                self.open();
                let out = self.eval(&row.cell, &mut f);
                self.leave();
                let steps = self.close();
                if self.trace.is_some() {
                    self.push(TraceNode::Table {
                        table: id,
                        args: Self::traced_args(&t.params, args, &f),
                        row: u32::try_from(at).unwrap_or(u32::MAX),
                        result: gave(&out),
                        steps,
                    });
                }
                out
            }
            Callee::Modifiers(id) => {
                let prog = self.prog;
                let m = prog
                    .modifiers
                    .get(id as usize)
                    .ok_or_else(|| internal(span, "a modifier list"))?;
                let mut f = self.args(&m.params, args, m.slots, frame)?;
                self.enter(span, Callee::Modifiers(id))?;
                let mut total = Rational::from_integer(0);
                let mut applied = Vec::new();
                for (at, md) in m.modifiers.iter().enumerate() {
                    if let Some(c) = &md.condition {
                        if !self.truth(c, &mut f)? {
                            continue;
                        }
                    }
                    let amount = self.num(&md.amount, &mut f)?;
                    let times = match &md.per {
                        Some(p) => self.num(p, &mut f)?,
                        None => Rational::from_integer(1),
                    };
                    let each =
                        arith::mul(amount, times).map_err(|er| arith_err(er, md.amount.span))?;
                    if times == Rational::from_integer(0) {
                        continue;
                    }
                    total = arith::add(total, each).map_err(|er| arith_err(er, md.amount.span))?;
                    if self.trace.is_some() {
                        applied.push(Applied {
                            modifier: u32::try_from(at).unwrap_or(u32::MAX),
                            times,
                            amount: each,
                        });
                    }
                }
                self.leave();
                if self.trace.is_some() {
                    self.push(TraceNode::Modifiers {
                        list: id,
                        applied,
                        total,
                    });
                }
                Ok(Value::Num(total))
            }
        }
    }

    fn builtin(&mut self, b: Builtin, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, frame)?);
        }
        let first = vals
            .first()
            .cloned()
            .ok_or_else(|| internal(span, "a builtin"))?;
        let num = |v: &Value| match v {
            Value::Num(r) => Ok(*r),
            _ => Err(internal(span, b.name())),
        };
        Ok(match b {
            Builtin::Floor => Value::Num(arith::floor(num(&first)?)),
            Builtin::Ceil => Value::Num(arith::ceil(num(&first)?)),
            Builtin::Round => {
                Value::Num(arith::round(num(&first)?).map_err(|e| arith_err(e, span))?)
            }
            Builtin::Trunc => Value::Num(arith::trunc(num(&first)?)),
            Builtin::Abs => match first {
                Value::Num(r) if r < Rational::from_integer(0) => {
                    Value::Num(arith::neg(r).map_err(|e| arith_err(e, span))?)
                }
                Value::Length(l) if l.inches < Rational::from_integer(0) => Value::Length(Length {
                    inches: arith::neg(l.inches).map_err(|e| arith_err(e, span))?,
                    unit: l.unit,
                }),
                Value::Time(t) if t < Rational::from_integer(0) => {
                    Value::Time(arith::neg(t).map_err(|e| arith_err(e, span))?)
                }
                other => other,
            },
            Builtin::Min | Builtin::Max => {
                let key = |v: &Value| match v {
                    Value::Num(r) | Value::Time(r) => Ok(*r),
                    Value::Length(l) => Ok(l.inches),
                    _ => Err(internal(span, b.name())),
                };
                let mut best = first.clone();
                for v in &vals[1..] {
                    let better = if b == Builtin::Min {
                        key(v)? < key(&best)?
                    } else {
                        key(v)? > key(&best)?
                    };
                    if better {
                        best = v.clone();
                    }
                }
                best
            }
            Builtin::Inches => Value::Length(Length {
                inches: num(&first)?,
                unit: crate::syntax::ast::LengthUnit::Inches,
            }),
            Builtin::Feet => Value::Length(Length {
                inches: arith::mul(num(&first)?, Rational::from_integer(12))
                    .map_err(|e| arith_err(e, span))?,
                unit: crate::syntax::ast::LengthUnit::Feet,
            }),
            Builtin::Moves => Value::Time(num(&first)?),
            Builtin::Dice => {
                let count = vals
                    .first()
                    .and_then(Value::as_int)
                    .ok_or_else(|| internal(span, "dice"))?;
                let sides = vals
                    .get(1)
                    .and_then(Value::as_int)
                    .ok_or_else(|| internal(span, "dice"))?;
                let max_d = i64::from(self.limits.dice_per_roll);
                let max_s = i64::from(self.limits.sides);
                if !(0..=max_d).contains(&count) {
                    return Err(Flow::from(
                        Diag::at(
                            "umpire::limit::dice",
                            format!("cannot roll {count} dice: the count must be 0 to {max_d}"),
                            span,
                            "bad dice count",
                        )
                        .help("the limit on dice in one roll is set by --max-dice-per-roll"),
                    ));
                }
                if !(1..=max_s).contains(&sides) {
                    return Err(Flow::from(
                        Diag::at(
                            "umpire::limit::dice",
                            format!("there is no die with {sides} sides: a die has 1 to {max_s}"),
                            span,
                            "bad die",
                        )
                        .help("the limit on a die's sides is set by --max-sides"),
                    ));
                }
                self.roll(
                    u32::try_from(count).unwrap_or(0),
                    u32::try_from(sides).unwrap_or(1),
                    span,
                )?
            }
        })
    }
}

/// What a call gave, as its trace records it.
fn gave(r: &Ev) -> Gave {
    match r {
        Ok(v) => Ok(v.clone()),
        Err(Flow::Refused(reason, cite)) => Err(Stop::Refused {
            reason: reason.clone(),
            cite: cite.clone(),
        }),
        Err(Flow::NotGiven(what, cite)) => Err(Stop::NotGiven {
            what: what.clone(),
            cite: cite.clone(),
        }),
        Err(Flow::Error(_)) => Err(Stop::Error),
    }
}

/// Checks a value against a parameter's declared range.
fn check_arg(p: &ParamInfo, v: &Value, span: Span) -> Result<(), Flow> {
    if p.ty == Ty::Int && v.as_int().is_none() {
        if let Value::Num(r) = v {
            return Err(Flow::from(Diag::at(
                "umpire::eval::not_whole",
                format!(
                    "`{}` must be a whole number, got {}",
                    p.name,
                    crate::value::Mixed(*r)
                ),
                span,
                "a fraction",
            )));
        }
    }
    match p.range {
        Some(range) => check_range(|| format!("`{}`", p.name), range, v, span),
        None => Ok(()),
    }
}

/// The field `name` of `v`: at place `at` in a record of the type the checker saw (its
/// name shared with the type, so found by address), else searched for by name (a
/// record built otherwise, a group's member, a pair's part).
fn field_at<'v>(v: &'v Value, name: &Rc<str>, at: u32) -> Option<&'v Value> {
    if let Value::Record(fields) = v {
        if let Some((n, fv)) = fields.get(at as usize) {
            if Rc::ptr_eq(n, name) || n == name {
                return Some(fv);
            }
        }
    }
    v.field(name)
}

/// Checks a whole number against a declared range (bounds inclusive).
fn check_range(
    what: impl FnOnce() -> String,
    range: IntRange,
    v: &Value,
    span: Span,
) -> Result<(), Flow> {
    let ok = match v.as_int() {
        Some(i) => i >= range.lo && range.hi.is_none_or(|h| i <= h),
        None => false,
    };
    if ok {
        return Ok(());
    }
    let got = match v {
        Value::Num(r) => crate::value::Mixed(*r).to_string(),
        _ => "a value of another kind".to_string(),
    };
    Err(Flow::from(Diag::at(
        "umpire::eval::range",
        format!("{} must be {range}, got {got}", what()),
        span,
        "out of range",
    )))
}

/// Steps charged for trying a pattern: one per alternative.
fn pattern_cost(p: &Pat) -> u64 {
    match p {
        Pat::Any => 1,
        Pat::Alts(a) => a.len() as u64,
    }
}

/// Does `v` match pattern `p`? (See [`Pat::matches`].)
pub fn matches(p: &Pat, v: &Value) -> bool {
    p.matches(v)
}
