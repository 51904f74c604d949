//! The arms of [`Evaluator::eval_inner`](super::Evaluator): one method per kind of
//! expression that needs more than a line.

use super::{field_at, internal, pattern_cost, Ev, Evaluator, Flow};
use crate::adjudication::TraceNode;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::span::Span;
use crate::value::{arith, Length, Rational, Value};
use std::rc::Rc;

impl Evaluator<'_> {
    /// `brigade`: a field of the game state.
    pub(super) fn state_field(&self, i: u32, span: Span) -> Ev {
        match self.state {
            Some(state) => match state {
                Value::Record(fields) => fields.get(i as usize).map(|(_, v)| v.clone()).ok_or_else(|| internal(span, "the state")),
                _ => Err(internal(span, "the state")),
            },
            None => Err(Flow::from(
                Diag::at(Code::EvalNoState, format!("`{}` is part of the game state, and no state is loaded", self.sources.snippet(span)), span, "needs the state")
                    .help("give a state file: `--state FILE` (`umpire eval`, `umpire repl`), `:load FILE` in the REPL, or `state = \"FILE\"` in a scenario"),
            )),
        }
    }

    /// A named constant, worked out where it is used.
    pub(super) fn constant(&mut self, id: u32, span: Span) -> Ev {
        let c = self
            .prog
            .consts
            .get(id as usize)
            .ok_or_else(|| internal(span, "a constant"))?;
        let mut f = vec![Value::Bool(false); c.slots as usize];
        if let Some(r) = self.fast_const(id, &mut f) {
            return r;
        }
        self.eval(&c.value, &mut f)
    }

    /// `units[name]`: a member of a group by a name worked out at the table.
    pub(super) fn member_of(
        &mut self,
        base: &Expr,
        key: &Expr,
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        let b = self.eval(base, frame)?;
        let Value::Text(name) = self.eval(key, frame)? else {
            return Err(internal(key.span, "a member name"));
        };
        let g = self.sources.snippet(base.span).to_string();
        self.member(&b, &name, &g, span).cloned()
    }

    /// `u.grade`, `brigade.second_foot.lost_percent`.
    #[inline]
    pub(super) fn field(
        &mut self,
        base: &Expr,
        name: &Rc<str>,
        at: u32,
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        // Read in place, without copying the records on the way (each part still a step).
        if let Some(v) = self
            .in_place(base, frame)
            .and_then(|b| field_at(b, name, at))
        {
            return Ok(v.clone());
        }
        let b = self.eval(base, frame)?;
        field_at(&b, name, at).cloned().ok_or_else(|| match &b {
            // A member named in the state file: say which there are.
            Value::Group(members) => {
                let names: Vec<&str> = members.iter().map(|(n, _)| &**n).collect();
                let group = self.sources.snippet(base.span).to_string();
                Flow::from(
                    Diag::at(
                        Code::EvalNoMember,
                        format!("`{group}` has no `{name}` in the state"),
                        span,
                        "not in the state",
                    )
                    .suggest(name, names.iter().copied())
                    .help(holds(&group, &names)),
                )
            }
            _ => Flow::from(Diag::at(
                Code::EvalField,
                format!("{} has no field `{name}`", self.show(&b)),
                span,
                "no such field",
            )),
        })
    }

    /// `-x` on a number, a length or a time.
    pub(super) fn neg(&mut self, x: &Expr, span: Span, frame: &mut [Value]) -> Ev {
        let err = |er| super::arith_err(er, span);
        match self.eval(x, frame)? {
            Value::Int(i) => i
                .checked_neg()
                .map(Value::Int)
                .ok_or_else(|| err(crate::value::ArithError::Overflow)),
            Value::Frac(r) => arith::neg(r).map(Value::num).map_err(err),
            Value::Length(l) => arith::neg(l.inches)
                .map(|i| {
                    Value::Length(Length {
                        inches: i,
                        unit: l.unit,
                    })
                })
                .map_err(err),
            Value::Time(t) => arith::neg(t).map(Value::Time).map_err(err),
            Value::Minutes(t) => arith::neg(t).map(Value::Minutes).map_err(err),
            _ => Err(internal(span, "`-`")),
        }
    }

    /// `if c { ... } else if ... else { ... }`: the first arm whose condition holds.
    #[inline]
    pub(super) fn if_else(
        &mut self,
        arms: &[(Expr, Expr)],
        otherwise: Option<&Expr>,
        frame: &mut [Value],
    ) -> Ev {
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

    /// `match x { pattern => ... }`: the first arm whose pattern fits.
    pub(super) fn match_arms(
        &mut self,
        scrutinee: &Expr,
        arms: &[(Pat, Expr, Rc<str>)],
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        let v = self.eval(scrutinee, frame)?;
        for (pat, body, _) in arms {
            self.steps += pattern_cost(pat);
            if pat.matches(&v) {
                self.step(span)?;
                return self.eval(body, frame);
            }
        }
        self.step(span)?;
        Err(Flow::from(
            Diag::at(
                Code::EvalNoMatch,
                format!("no arm of this `match` covers {}", self.show(&v)),
                scrutinee.span,
                "matched nothing",
            )
            .help("add an arm for it, or `otherwise => ...`"),
        ))
    }

    /// `{ name: value, ... }`.
    pub(super) fn record(&mut self, fields: &[(Rc<str>, Expr)], frame: &mut [Value]) -> Ev {
        let mut out = Vec::with_capacity(fields.len());
        for (n, fe) in fields {
            out.push((n.clone(), self.eval(fe, frame)?));
        }
        Ok(Value::Record(Rc::new(out)))
    }

    /// `refuse "reason"`: a result, carried out as a [`Flow`].
    pub(super) fn refuse(&mut self, reason: &Rc<str>, cite: &Option<Rc<str>>) -> Ev {
        if self.trace.is_some() {
            self.push(TraceNode::Refused {
                reason: reason.clone(),
                cite: cite.clone(),
            });
        }
        Err(Flow::Refused(reason.clone(), cite.clone()))
    }

    /// `not given "what"`: a gap in the source, carried out as a [`Flow`].
    pub(super) fn not_given(&mut self, what: &Rc<str>, cite: &Option<Rc<str>>) -> Ev {
        if self.trace.is_some() {
            self.push(TraceNode::NotGiven {
                what: what.clone(),
                cite: cite.clone(),
            });
        }
        Err(Flow::NotGiven(what.clone(), cite.clone()))
    }

    /// `reading NAME { ... }`: the reading chosen, else the default, else not given.
    pub(super) fn chosen(&mut self, i: u32, span: Span) -> Ev {
        let prog = self.prog;
        let Some(info) = prog.interpretations.get(i as usize) else {
            return Err(internal(span, "an interpretation"));
        };
        let chosen = self.readings.get(i as usize);
        match chosen.or(info.default) {
            Some(r) => {
                // The explanation names the reading it went by.
                if self.trace.is_some() {
                    self.push(TraceNode::Reading {
                        interpretation: i,
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
                self.not_given(&what, &info.cite)
            }
        }
    }

    /// A parameter's or a record field's default, where it was left out.
    pub(super) fn default(&mut self, of: DefaultOf, index: u32, span: Span) -> Ev {
        let prog = self.prog;
        let default = prog
            .default_expr(of, index)
            .ok_or_else(|| internal(span, "a default"))?;
        // A default uses no locals of where it is used.
        self.eval(default, &mut [])
    }

    /// `let`, `note`, guards and `set`s, then the block's value.
    #[inline]
    pub(super) fn block(&mut self, stmts: &[Stmt], value: &Expr, frame: &mut [Value]) -> Ev {
        let mut roll_name = None;
        let held = self.roll_locals.len();
        let v = self.block_steps(stmts, value, frame, &mut roll_name);
        self.roll_locals.truncate(held);
        v
    }

    /// The steps of [`Evaluator::block`], then its value.
    fn block_steps<'s>(
        &mut self,
        stmts: &'s [Stmt],
        value: &Expr,
        frame: &mut [Value],
        roll_name: &mut Option<&'s Rc<str>>,
    ) -> Ev {
        for s in stmts {
            match s {
                Stmt::RollName(name) => *roll_name = Some(name),
                Stmt::Let(slot, x) => {
                    let v = match roll_name.take() {
                        Some(name) => {
                            let before = self.rolls.len();
                            let v = self.named_roll(name, x, frame)?;
                            if self.rolls.len() == before + 1 {
                                self.roll_locals.push((self.depth, *slot, before));
                            }
                            v
                        }
                        None => self.eval(x, frame)?,
                    };
                    match frame.get_mut(*slot as usize) {
                        Some(place) => *place = v,
                        None => return Err(internal(x.span, "a `let`")),
                    }
                }
                Stmt::Note(text) => {
                    if self.trace.is_some() {
                        self.push(TraceNode::Note { text: text.clone() });
                    }
                }
                Stmt::Guard(x) => {
                    self.eval(x, frame)?;
                }
                Stmt::Set(set) => self.set(set, frame)?,
            }
        }
        self.eval(value, frame)
    }

    /// The roll of `let NAME = d6`: its dice, rolled in this call (not in the rules its
    /// count is worked out by), are NAME's.
    fn named_roll(&mut self, name: &Rc<str>, x: &Expr, frame: &mut [Value]) -> Ev {
        let outer = self.roll_name.replace((name.clone(), self.within.len()));
        let v = self.eval(x, frame);
        self.roll_name = outer;
        v
    }

    /// The value a local, or a field of one (of a field ...), holds, borrowed where it
    /// is, each part counted as a step; `None` for anything else (or a field that is
    /// not there: the caller works it out the long way, and reports it).
    pub(super) fn in_place<'f>(&mut self, e: &Expr, frame: &'f [Value]) -> Option<&'f Value> {
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

    pub(super) fn truth(&mut self, c: &Expr, frame: &mut [Value]) -> Result<bool, Flow> {
        match self.eval(c, frame)? {
            Value::Bool(b) => Ok(b),
            _ => Err(internal(c.span, "a condition")),
        }
    }

    pub(super) fn num(&mut self, e: &Expr, frame: &mut [Value]) -> Result<Rational, Flow> {
        self.eval(e, frame)?
            .as_number()
            .ok_or_else(|| internal(e.span, "a number"))
    }
}

/// What a group of the state holds, for an error naming a member it does not: its
/// members, or that the state gives none.
pub(super) fn holds(group: &str, names: &[&str]) -> String {
    if names.is_empty() {
        format!("`{group}` has no members in the state (the state file gives none)")
    } else {
        format!("`{group}` holds: {}", names.join(", "))
    }
}
