//! Operators: `and`/`or` (short-circuit), comparisons and arithmetic on numbers,
//! lengths and times.

use super::{arith_err, internal, Ev, Evaluator, Flow};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::{Callee, Expr, ExprKind};
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::{arith, ArithError, Rational, Value};

/// A modified roll summed: the sum, which roll is the die's, and the amounts added to
/// it (`None` when one is not a number).
type Summed = (Value, Option<usize>, Option<Vec<Rational>>);

impl Evaluator<'_> {
    pub(super) fn binary(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        // `and` / `or` short-circuit.
        match op {
            BinOp::And => return Ok(Value::Bool(self.truth(a, frame)? && self.truth(b, frame)?)),
            BinOp::Or => return Ok(Value::Bool(self.truth(a, frame)? || self.truth(b, frame)?)),
            _ => {}
        }
        if matches!(op, BinOp::Add | BinOp::Sub)
            && modifies_a_roll(op, a, b, |slot| self.roll_local(slot).is_some())
        {
            return self.modified_roll(op, a, b, span, frame);
        }
        let x = self.eval(a, frame)?;
        let y = self.eval(b, frame)?;
        self.combine(op, x, y, span)
    }

    /// A roll and its modifiers summed (`D10 + manoeuvre_drm(u)`, `2 dice +
    /// order_drm(b) - 1`): worked out exactly as the sum is written — the same steps,
    /// in the same order — and the roll recorded with the amounts added to it and the
    /// modified roll, as the umpire reads it out.
    fn modified_roll(
        &mut self,
        op: BinOp,
        a: &Expr,
        b: &Expr,
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        // The terms, left to right: each after the first with the `+`/`-` before it and
        // the sum it closes (whose span an arithmetic error points at).
        let mut rest = vec![(op, b, span)];
        let mut first = a;
        while let ExprKind::Binary(o @ (BinOp::Add | BinOp::Sub), l, r) = &first.kind {
            // Each inner sum is a step, taken before its terms, as `eval` takes it.
            self.step(first.span)?;
            rest.push((*o, &**r, first.span));
            first = l;
        }
        rest.reverse();
        let inner = u32::try_from(rest.len() - 1).unwrap_or(u32::MAX);
        self.nesting = self.nesting.saturating_add(inner);
        let done = self.modified_terms(first, &rest, frame);
        self.nesting = self.nesting.saturating_sub(inner);
        let (sum, roll, amounts) = done?;
        self.read_out(roll, &sum, amounts);
        Ok(sum)
    }

    /// The terms of a modified roll summed in order: the sum, which roll is the die's,
    /// and the amounts added to it (`None` when one is not a number).
    fn modified_terms(
        &mut self,
        first: &Expr,
        rest: &[(BinOp, &Expr, Span)],
        frame: &mut [Value],
    ) -> Result<Summed, Flow> {
        let mut roll = None;
        let mut amounts = Some(Vec::new());
        let mut term = |ev: &mut Self, e: &Expr, minus: bool, frame: &mut [Value]| -> Ev {
            let before = ev.rolls.len();
            let v = ev.eval(e, frame)?;
            let named = match e.kind {
                ExprKind::Local(slot) => ev.roll_local(slot),
                _ => None,
            };
            if matches!(e.kind, ExprKind::Dice { .. }) && ev.rolls.len() > before {
                roll = Some(before);
            } else if named.is_some() {
                roll = named;
            } else {
                add_amount(&mut amounts, &v, minus);
            }
            Ok(v)
        };
        let mut sum = term(self, first, false, frame)?;
        for (o, e, at) in rest {
            let y = term(self, e, *o == BinOp::Sub, frame)?;
            sum = self.combine(*o, sum, y, *at)?;
        }
        Ok((sum, roll, amounts))
    }

    /// A modified roll read out: the roll at `roll` records the amounts added to it and
    /// the modified roll `sum` (when every amount and the sum are numbers).
    pub(super) fn read_out(
        &mut self,
        roll: Option<usize>,
        sum: &Value,
        amounts: Option<Vec<Rational>>,
    ) {
        if let (Some(at), Some(modified), Some(amounts)) = (roll, sum.as_number(), amounts) {
            if let Some(r) = self.rolls.get_mut(at) {
                r.modifiers = amounts;
                r.modified = Some(modified);
            }
        }
    }

    /// The roll a local of this block holds, where it holds a named roll of one roll
    /// (`let attacker_roll = d6`): its place in the rolls.
    pub(super) fn roll_local(&self, slot: u32) -> Option<usize> {
        self.roll_locals
            .iter()
            .rev()
            .find(|(depth, s, _)| *depth == self.depth && *s == slot)
            .map(|(_, _, at)| *at)
    }

    /// `x op y` on two values (not `and`/`or`, which look at their right side only when
    /// they must).
    pub(super) fn combine(&self, op: BinOp, x: Value, y: Value, span: Span) -> Ev {
        // Whole numbers first, in 64 bits: no fraction is made unless `/` makes one.
        if let (Value::Int(a), Value::Int(b)) = (&x, &y) {
            if let Some(v) = whole(op, *a, *b) {
                return v.map_err(|er| arith_err(er, span));
            }
        }
        let ar = |r: Result<Rational, ArithError>| r.map_err(|er| arith_err(er, span));
        let (nx, ny) = (x.as_number(), y.as_number());
        use Value::*;
        Ok(match (op, &x, &y) {
            (BinOp::Eq, _, _) => Bool(x.same(&y)),
            (BinOp::Ne, _, _) => Bool(!x.same(&y)),
            (BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge, _, _) => {
                let (p, q) = match (&x, &y) {
                    _ if nx.is_some() && ny.is_some() => {
                        (nx.unwrap_or_default(), ny.unwrap_or_default())
                    }
                    (Time(p), Time(q)) | (Minutes(p), Minutes(q)) => (*p, *q),
                    (Length(p), Length(q)) => (p.inches, q.inches),
                    // Values of one ordered enum, by their place in its order.
                    (Enum(e, i), Enum(f, j)) if e == f => (
                        Rational::from_integer(i64::from(*i)),
                        Rational::from_integer(i64::from(*j)),
                    ),
                    _ => return Err(internal(span, "a comparison")),
                };
                Bool(match op {
                    BinOp::Lt => p < q,
                    BinOp::Le => p <= q,
                    BinOp::Gt => p > q,
                    _ => p >= q,
                })
            }
            (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, _, _)
                if nx.is_some() && ny.is_some() =>
            {
                let (p, q) = (nx.unwrap_or_default(), ny.unwrap_or_default());
                Value::num(ar(match op {
                    BinOp::Add => arith::add(p, q),
                    BinOp::Sub => arith::sub(p, q),
                    BinOp::Mul => arith::mul(p, q),
                    _ => arith::div(p, q),
                })?)
            }
            (BinOp::Add, Length(p), Length(q)) => Length(crate::value::Length {
                inches: ar(arith::add(p.inches, q.inches))?,
                unit: crate::value::Length::unit_of(p.unit, q.unit),
            }),
            (BinOp::Sub, Length(p), Length(q)) => Length(crate::value::Length {
                inches: ar(arith::sub(p.inches, q.inches))?,
                unit: crate::value::Length::unit_of(p.unit, q.unit),
            }),
            (BinOp::Mul, Length(p), _) | (BinOp::Mul, _, Length(p)) if nx.or(ny).is_some() => {
                Length(crate::value::Length {
                    inches: ar(arith::mul(p.inches, nx.or(ny).unwrap_or_default()))?,
                    unit: p.unit,
                })
            }
            (BinOp::Div, Length(p), _) if ny.is_some() => Length(crate::value::Length {
                inches: ar(arith::div(p.inches, ny.unwrap_or_default()))?,
                unit: p.unit,
            }),
            (BinOp::Div, Length(p), Length(q)) => Value::num(ar(arith::div(p.inches, q.inches))?),
            (BinOp::Add, Time(p), Time(q)) => Time(ar(arith::add(*p, *q))?),
            (BinOp::Sub, Time(p), Time(q)) => Time(ar(arith::sub(*p, *q))?),
            (BinOp::Mul, Time(p), _) | (BinOp::Mul, _, Time(p)) if nx.or(ny).is_some() => {
                Time(ar(arith::mul(*p, nx.or(ny).unwrap_or_default()))?)
            }
            (BinOp::Div, Time(p), _) if ny.is_some() => {
                Time(ar(arith::div(*p, ny.unwrap_or_default()))?)
            }
            (BinOp::Div, Time(p), Time(q)) => Value::num(ar(arith::div(*p, *q))?),
            (BinOp::Add, Minutes(p), Minutes(q)) => Minutes(ar(arith::add(*p, *q))?),
            (BinOp::Sub, Minutes(p), Minutes(q)) => Minutes(ar(arith::sub(*p, *q))?),
            (BinOp::Mul, Minutes(p), _) | (BinOp::Mul, _, Minutes(p)) if nx.or(ny).is_some() => {
                Minutes(ar(arith::mul(*p, nx.or(ny).unwrap_or_default()))?)
            }
            (BinOp::Div, Minutes(p), _) if ny.is_some() => {
                Minutes(ar(arith::div(*p, ny.unwrap_or_default()))?)
            }
            (BinOp::Div, Minutes(p), Minutes(q)) => Value::num(ar(arith::div(*p, *q))?),
            _ => {
                return Err(Flow::from(Diag::at(
                    Code::EvalUnits,
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
}

/// `a op b` on two whole numbers, in 64 bits, checked; `None` for an operator this does
/// not do on whole numbers alone (`/`, which may make a fraction; `and`, `or`).
pub(crate) fn whole(op: BinOp, a: i64, b: i64) -> Option<Result<Value, ArithError>> {
    let over = |r: Option<i64>| r.map(Value::Int).ok_or(ArithError::Overflow);
    Some(match op {
        BinOp::Add => over(a.checked_add(b)),
        BinOp::Sub => over(a.checked_sub(b)),
        BinOp::Mul => over(a.checked_mul(b)),
        BinOp::Rem => arith::rem(a, b).map(Value::Int),
        BinOp::Eq => Ok(Value::Bool(a == b)),
        BinOp::Ne => Ok(Value::Bool(a != b)),
        BinOp::Lt => Ok(Value::Bool(a < b)),
        BinOp::Le => Ok(Value::Bool(a <= b)),
        BinOp::Gt => Ok(Value::Bool(a > b)),
        BinOp::Ge => Ok(Value::Bool(a >= b)),
        _ => return None,
    })
}

/// Whether `a op b` sums a roll with die roll modifiers: along its chain of `+` and
/// `-` (`a` may be one), one term is a dice term added (not taken away) and one at least
/// is a modifier list used, and no other term rolls dice. Nothing is allocated for a sum
/// of no roll and no modifier list: this is asked at every sum.
fn modifies_a_roll(op: BinOp, a: &Expr, b: &Expr, rolled: impl Fn(u32) -> bool) -> bool {
    let (mut dice, mut modifiers) = (0u32, false);
    crate::compile::each_term(op, a, b, |e, minus| match &e.kind {
        ExprKind::Dice { .. } if !minus => dice += 1,
        ExprKind::Dice { .. } => dice += 2,
        ExprKind::Local(slot) if rolled(*slot) => dice += if minus { 2 } else { 1 },
        ExprKind::Call(Callee::Modifiers(_), _) => modifiers = true,
        _ => {}
    });
    if dice != 1 || !modifiers {
        return false;
    }
    // A term that rolls dice of its own (`(a_roll + m(a)) - (d_roll + m(d))`, the other
    // side of an opposed roll) is no modifier: the sum is not one roll read out.
    let mut other_rolls = false;
    crate::compile::each_term(op, a, b, |e, _| {
        if !matches!(e.kind, ExprKind::Dice { .. } | ExprKind::Local(_)) {
            e.walk(&mut |x| {
                other_rolls |= match x.kind {
                    ExprKind::Dice { .. } => true,
                    ExprKind::Local(slot) => rolled(slot),
                    _ => false,
                }
            });
        }
    });
    !other_rolls
}

/// An amount added to a modified roll, signed as applied; `amounts` becomes `None` when
/// one is not a number, or cannot be negated (the roll is then not read out with them).
pub(super) fn add_amount(amounts: &mut Option<Vec<Rational>>, v: &Value, minus: bool) {
    let signed = match v.as_number() {
        Some(r) if minus => arith::neg(r).ok(),
        r => r,
    };
    match (signed, amounts.as_mut()) {
        (Some(r), Some(list)) => list.push(r),
        _ => *amounts = None,
    }
}
