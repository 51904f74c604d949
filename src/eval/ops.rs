//! Operators: `and`/`or` (short-circuit), comparisons and arithmetic on numbers,
//! lengths and times.

use super::{arith_err, internal, Ev, Evaluator, Flow};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::Expr;
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::{arith, ArithError, Rational, Value};

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
        let x = self.eval(a, frame)?;
        let y = self.eval(b, frame)?;
        self.combine(op, x, y, span)
    }

    /// `x op y` on two values (not `and`/`or`, which look at their right side only when
    /// they must).
    pub(super) fn combine(&self, op: BinOp, x: Value, y: Value, span: Span) -> Ev {
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
