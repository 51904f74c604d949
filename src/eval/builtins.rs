//! The built-in functions: `floor`, `min`, `inches`, `dice(n, sides)` ...

use super::{arith_err, internal, Ev, Evaluator, Flow};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::span::Span;
use crate::value::{arith, Length, Rational, Value};

impl Evaluator<'_> {
    pub(super) fn builtin(
        &mut self,
        b: Builtin,
        args: &[Expr],
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
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
            Builtin::Dice => self.dice_builtin(&vals, span)?,
        })
    }

    /// `dice(count, sides)`: a roll whose count and sides are worked out at the table,
    /// within the limits on one roll.
    fn dice_builtin(&mut self, vals: &[Value], span: Span) -> Ev {
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
                    Code::LimitDice,
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
                    Code::LimitDice,
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
        )
    }
}
