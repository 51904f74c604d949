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
        if b.is_pool() {
            return self.pool(b, args, span, frame);
        }
        if b == Builtin::Supplied {
            // Looked at, not read: a needed parameter left out is not an error here.
            return match args.first().map(|a| &a.kind) {
                Some(ExprKind::Local(s)) => Ok(Value::Bool(self.left_out(*s).is_none())),
                _ => Err(internal(span, b.name())),
            };
        }
        let mut vals = Vec::with_capacity(args.len());
        for a in args {
            vals.push(self.eval(a, frame)?);
        }
        self.apply_builtin(b, &vals, span)
    }

    /// A built-in (not a pool, not `supplied`) on its arguments' values.
    pub(super) fn apply_builtin(&mut self, b: Builtin, vals: &[Value], span: Span) -> Ev {
        let first = vals
            .first()
            .cloned()
            .ok_or_else(|| internal(span, "a builtin"))?;
        let num = |v: &Value| v.as_number().ok_or_else(|| internal(span, b.name()));
        Ok(match b {
            // A whole number rounds to itself.
            Builtin::Floor | Builtin::Ceil | Builtin::Round | Builtin::Trunc
                if matches!(first, Value::Int(_)) =>
            {
                first
            }
            Builtin::Floor => Value::num(arith::floor(num(&first)?)),
            Builtin::Ceil => Value::num(arith::ceil(num(&first)?)),
            Builtin::Round => {
                Value::num(arith::round(num(&first)?).map_err(|e| arith_err(e, span))?)
            }
            Builtin::Trunc => Value::num(arith::trunc(num(&first)?)),
            Builtin::Abs => match first {
                Value::Int(i) if i < 0 => Value::Int(
                    i.checked_neg()
                        .ok_or_else(|| arith_err(crate::value::ArithError::Overflow, span))?,
                ),
                Value::Frac(r) if r < Rational::from_integer(0) => {
                    Value::num(arith::neg(r).map_err(|e| arith_err(e, span))?)
                }
                Value::Length(l) if l.inches < Rational::from_integer(0) => Value::Length(Length {
                    inches: arith::neg(l.inches).map_err(|e| arith_err(e, span))?,
                    unit: l.unit,
                }),
                Value::Time(t) if t < Rational::from_integer(0) => {
                    Value::Time(arith::neg(t).map_err(|e| arith_err(e, span))?)
                }
                Value::Minutes(t) if t < Rational::from_integer(0) => {
                    Value::Minutes(arith::neg(t).map_err(|e| arith_err(e, span))?)
                }
                other => other,
            },
            Builtin::Min | Builtin::Max => {
                let key = |v: &Value| match v {
                    Value::Int(i) => Ok(Rational::from_integer(*i)),
                    Value::Frac(r) | Value::Time(r) | Value::Minutes(r) => Ok(*r),
                    Value::Length(l) => Ok(l.inches),
                    Value::Enum(_, i) => Ok(Rational::from_integer(i64::from(*i))),
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
                let (count, sides) = self.dice_size(vals, span)?;
                self.roll(count, sides, span)?
            }
            Builtin::Count
            | Builtin::Highest
            | Builtin::Lowest
            | Builtin::Reroll
            | Builtin::Explode
            | Builtin::Supplied => return Err(internal(span, b.name())),
            Builtin::Shift => self.shift(&first, vals.get(1), span)?,
            Builtin::Place => match first {
                Value::Enum(_, i) => Value::int(i64::from(i) + 1),
                _ => return Err(internal(span, b.name())),
            },
        })
    }

    /// `count(6d6, at_least: 4)`, `highest(2, 3d6)`, `lowest(1, dice(n, 20))`: each die
    /// of the pool rolled (and asked for, and enumerated by `prob`) on its own, as
    /// `die 1 of 3d6`, `die 2 of 3d6`, ...
    fn pool(&mut self, b: Builtin, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        if matches!(b, Builtin::Reroll | Builtin::Explode) {
            let faces = self.changed_faces(b, args, span, frame)?;
            return Ok(Value::int(faces.iter().sum()));
        }
        let (dice, number) = match (b, args) {
            (Builtin::Count, [d, n, ..]) | (_, [n, d]) => (d, n),
            _ => return Err(internal(span, b.name())),
        };
        let number = self
            .eval(number, frame)?
            .as_int()
            .ok_or_else(|| internal(span, b.name()))?;
        if b == Builtin::Count {
            count_face(dice, args, number)?;
        }
        let mut faces = self.pool_faces(dice, frame)?;
        if b == Builtin::Count {
            let at_least = matches!(
                args.get(2).map(|e| &e.kind),
                Some(ExprKind::Value(Value::Bool(true)))
            );
            let n = faces
                .iter()
                .filter(|f| {
                    if at_least {
                        **f >= number
                    } else {
                        **f <= number
                    }
                })
                .count();
            return Ok(Value::int(i64::try_from(n).unwrap_or(i64::MAX)));
        }
        let k = usize::try_from(number)
            .ok()
            .filter(|k| *k <= faces.len())
            .ok_or_else(|| {
                Flow::from(
                    Diag::at(
                        Code::EvalRange,
                        format!(
                            "cannot take the {} {number} of {} dice",
                            if b == Builtin::Highest {
                                "highest"
                            } else {
                                "lowest"
                            },
                            faces.len()
                        ),
                        span,
                        "not that many dice",
                    )
                    .help(format!(
                        "the number of dice taken must be 0 to {}",
                        faces.len()
                    )),
                )
            })?;
        faces.sort_unstable();
        if b == Builtin::Highest {
            faces.reverse();
        }
        Ok(Value::int(faces[..k].iter().sum()))
    }

    /// Each die's face of a pool's dice (an exploded die's whole sum): `3d6`, `3 dice`,
    /// `dice(n, 6)`, `reroll(...)` or `explode(...)` of them.
    fn pool_faces(&mut self, dice: &Expr, frame: &mut [Value]) -> Result<Vec<i64>, Flow> {
        if let ExprKind::Call(Callee::Builtin(b @ (Builtin::Reroll | Builtin::Explode)), a) =
            &dice.kind
        {
            return self.changed_faces(*b, a, dice.span, frame);
        }
        let (count, sides) = self.pool_size(dice, frame)?;
        self.each_die(dice.span, count, sides)
    }

    /// How many dice and of how many sides: `3d6`, `dice(n, 6)`.
    fn pool_size(&mut self, dice: &Expr, frame: &mut [Value]) -> Result<(u32, u32), Flow> {
        match &dice.kind {
            ExprKind::Dice { count, sides } => Ok((*count, *sides)),
            ExprKind::Call(Callee::Builtin(Builtin::Dice), a) => {
                let mut vals = Vec::with_capacity(2);
                for x in a {
                    vals.push(self.eval(x, frame)?);
                }
                self.dice_size(&vals, dice.span)
            }
            _ => Err(internal(dice.span, "a pool")),
        }
    }

    /// Each die of `count` dice written at `at` rolled on its own, as `die 1 of 3d6`,
    /// `die 2 of 3d6`, ... (one die: as written).
    fn each_die(&mut self, at: Span, count: u32, sides: u32) -> Result<Vec<i64>, Flow> {
        let mut faces = Vec::with_capacity(count as usize);
        for i in 0..count {
            let name = self.die_name(at, i, count);
            let face = self.roll_as(1, sides, at, Some(&name))?;
            faces.push(face.as_int().ok_or_else(|| internal(at, "a pool"))?);
        }
        Ok(faces)
    }

    /// Die `i` (from 0) of `count` dice written at `at`: `die 2 of 3d6`, or `d6` alone;
    /// where the count is worked out, how many it came to, so the players know how many
    /// to throw: `die 1 of 4 (dice(ceil(chargers / 10), 6))`.
    fn die_name(&self, at: Span, i: u32, count: u32) -> String {
        let written = self.sources.snippet(at);
        if count <= 1 {
            written.to_string()
        } else if written.starts_with(|c: char| c.is_ascii_digit()) {
            format!("die {} of {written}", i + 1)
        } else {
            format!("die {} of {count} ({written})", i + 1)
        }
    }

    /// `reroll(dice, at_most: n)` (`at_least:`), `explode(dice)` (`at_least: n`): the
    /// dice rolled, each die on its own, then for each die in turn its re-roll (`re-roll
    /// of die 1 of 3d6 (showed 1)`), or its extra rolls while it shows a face that
    /// explodes, at most [`MAX_EXTRA_ROLLS`] (`extra roll 1 of die 2 of 2d6 (exploded
    /// on 6)`): each die's face, an exploded die's sum. The face is looked at before a
    /// die is rolled: one that is no face of the dice (or makes every face explode) is
    /// an error.
    fn changed_faces(
        &mut self,
        b: Builtin,
        args: &[Expr],
        span: Span,
        frame: &mut [Value],
    ) -> Result<Vec<i64>, Flow> {
        let dice = args.first().ok_or_else(|| internal(span, b.name()))?;
        let option = match args.get(1) {
            Some(e) => Some((
                self.eval(e, frame)?
                    .as_int()
                    .ok_or_else(|| internal(e.span, b.name()))?,
                e.span,
            )),
            None => None,
        };
        let least = b == Builtin::Explode
            || matches!(
                args.get(2).map(|e| &e.kind),
                Some(ExprKind::Value(Value::Bool(true)))
            );
        let (count, sides) = self.pool_size(dice, frame)?;
        let (face, at) = option.unwrap_or((i64::from(sides), span));
        if let Some((msg, help)) = b.face_problem(i64::from(sides), face, least) {
            return Err(Flow::from(
                Diag::at(Code::EvalRange, msg, at, "not a face that can be").help(help),
            ));
        }
        let hits = |f: i64| if least { f >= face } else { f <= face };
        let mut faces = self.each_die(dice.span, count, sides)?;
        for (i, f) in (0..count).zip(faces.iter_mut()) {
            if !hits(*f) {
                continue;
            }
            let die = self.die_name(dice.span, i, count);
            if b == Builtin::Reroll {
                let name = format!("re-roll of {die} (showed {f})");
                *f = self.one_die(dice.span, sides, &name)?;
                continue;
            }
            let mut last = *f;
            for extra in 1..=MAX_EXTRA_ROLLS {
                if !hits(last) {
                    break;
                }
                let name = format!("extra roll {extra} of {die} (exploded on {last})");
                last = self.one_die(dice.span, sides, &name)?;
                *f = f.saturating_add(last);
            }
        }
        Ok(faces)
    }

    /// One die of `sides` faces rolled as `name`.
    fn one_die(&mut self, at: Span, sides: u32, name: &str) -> Result<i64, Flow> {
        self.roll_as(1, sides, at, Some(name))?
            .as_int()
            .ok_or_else(|| internal(at, "a die"))
    }

    /// `dice(count, sides)`: a roll whose count and sides are worked out at the table,
    /// within the limits on one roll.
    pub(super) fn dice_size(&self, vals: &[Value], span: Span) -> Result<(u32, u32), Flow> {
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
        Ok((
            u32::try_from(count).unwrap_or(0),
            u32::try_from(sides).unwrap_or(1),
        ))
    }
}

/// `count(3d6, at_least: 7)`: a face the dice do not have counts no die (or, `at_most:
/// 0`, none), always: an error, as for `reroll` and `explode`, looked at before a die is
/// rolled. The dice written as `3d6` (or re-rolled: `reroll(3d6, ...)`); an exploded
/// die's sum may pass its faces, so `count(explode(3d6), at_least: 7)` is fine.
fn count_face(dice: &Expr, args: &[Expr], number: i64) -> Result<(), Flow> {
    let plain = match &dice.kind {
        ExprKind::Call(Callee::Builtin(Builtin::Reroll), a) => a.first(),
        ExprKind::Call(Callee::Builtin(Builtin::Explode), _) => None,
        _ => Some(dice),
    };
    let Some(ExprKind::Dice { sides, .. }) = plain.map(|d| &d.kind) else {
        return Ok(());
    };
    let sides = i64::from(*sides);
    if (1..=sides).contains(&number) {
        return Ok(());
    }
    let at_least = matches!(
        args.get(2).map(|e| &e.kind),
        Some(ExprKind::Value(Value::Bool(true)))
    );
    let (option, never) = if at_least {
        ("at_least", number > sides)
    } else {
        ("at_most", number < 1)
    };
    let at = args.get(1).map_or(dice.span, |e| e.span);
    let counted = if never {
        "no die, ever"
    } else {
        "every die, always"
    };
    Err(Flow::from(
        Diag::at(
            Code::EvalRange,
            format!("`{option}: {number}` is not a face of a d{sides}, which shows 1 to {sides}: it counts {counted}"),
            at,
            "not a face that can be",
        )
        .help(format!("count a face the dice have, `{option}: 1` to `{option}: {sides}`")),
    ))
}
