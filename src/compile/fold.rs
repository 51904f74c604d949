//! Constants folded: an expression of numbers written out (`-1`, `1/2`, `3 * 2`, a
//! `const` of such) worked out once, with the steps and nesting the tree-walker takes
//! to work it out, so a folded value is counted as the expression was.

use crate::program::*;
use crate::syntax::ast::BinOp;
use crate::value::{arith, Value};

/// `e` worked out, if it is numbers written out: its value, its steps (one per
/// expression) and how deep it nests. `None` for anything else, or an arithmetic error
/// (left for the evaluator to report where it happens).
pub(super) fn fold(p: &Program, e: &Expr) -> Option<(Value, u32, u32)> {
    fold_in(p, e, 0)
}

/// [`fold`], `hops` constants deep (a constant naming itself is not folded forever:
/// the checker forbids it, and this stops anyway).
fn fold_in(p: &Program, e: &Expr, hops: u32) -> Option<(Value, u32, u32)> {
    if hops > 64 {
        return None;
    }
    match &e.kind {
        ExprKind::Value(v) => Some((v.clone(), 1, 1)),
        ExprKind::Neg(x) => {
            let (v, steps, depth) = fold_in(p, x, hops)?;
            let v = match v {
                Value::Int(i) => Value::Int(i.checked_neg()?),
                Value::Frac(r) => Value::num(arith::neg(r).ok()?),
                _ => return None,
            };
            Some((v, steps + 1, depth + 1))
        }
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div), a, b) => {
            let (x, sx, dx) = fold_in(p, a, hops)?;
            let (y, sy, dy) = fold_in(p, b, hops)?;
            let (x, y) = (x.as_number()?, y.as_number()?);
            let r = match op {
                BinOp::Add => arith::add(x, y),
                BinOp::Sub => arith::sub(x, y),
                BinOp::Mul => arith::mul(x, y),
                _ => arith::div(x, y),
            }
            .ok()?;
            Some((Value::num(r), sx + sy + 1, dx.max(dy) + 1))
        }
        ExprKind::Const(id) => {
            let c = p.consts.get(*id as usize)?;
            let (v, steps, depth) = fold_in(p, &c.value, hops + 1)?;
            Some((v, steps + 1, depth + 1))
        }
        _ => None,
    }
}
