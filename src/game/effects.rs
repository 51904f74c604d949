//! Whether a question may change the state, told from the program before anything is
//! rolled: so that a question that may have effects waits while another result's
//! effects are not yet applied, and no die is rolled (or asked for) in vain.

use crate::program::{Callee, DefaultOf, Expr, ExprKind, Program, Stmt};
use std::collections::HashSet;

/// Whether evaluating `expr` may change the state: it, or a rule, table, modifier list,
/// constant or default it reaches, holds a `set`. It may say yes for a question whose
/// `set` is on a path not taken.
pub fn may_change_state(p: &Program, expr: &Expr) -> bool {
    let mut seen = HashSet::new();
    let mut todo = vec![expr];
    while let Some(e) = todo.pop() {
        let mut found = false;
        e.walk(&mut |x| {
            let key = match &x.kind {
                ExprKind::Block(stmts, _) => {
                    found |= stmts.iter().any(|s| matches!(s, Stmt::Set(_)));
                    return;
                }
                ExprKind::Call(callee, _) => Reach::Callee(*callee),
                ExprKind::Const(i) => Reach::Const(*i),
                ExprKind::Default {
                    of: DefaultOf::Record(r),
                    index,
                } => Reach::FieldDefault(*r, *index),
                ExprKind::Default {
                    of: DefaultOf::Param(c),
                    index,
                } => Reach::ParamDefault(*c, *index),
                _ => return,
            };
            if seen.insert(key) {
                todo.extend(reached(p, key));
            }
        });
        if found {
            return true;
        }
    }
    false
}

/// What has been looked into already (a recursive rule reaches itself).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Reach {
    Callee(Callee),
    Const(u32),
    FieldDefault(u32, u32),
    ParamDefault(Callee, u32),
}

/// The expressions what `key` names is written with: a constant's value, a default,
/// or a callee's (see [`callee_exprs`]).
fn reached(p: &Program, key: Reach) -> Vec<&Expr> {
    match key {
        Reach::Callee(c) => callee_exprs(p, c),
        Reach::Const(i) => p
            .consts
            .get(i as usize)
            .map(|c| &c.value)
            .into_iter()
            .collect(),
        Reach::FieldDefault(r, i) => p
            .default_expr(DefaultOf::Record(r), i)
            .into_iter()
            .collect(),
        Reach::ParamDefault(c, i) => p.default_expr(DefaultOf::Param(c), i).into_iter().collect(),
    }
}

/// The expressions a callee is written with: a rule's body, a table's cells, a modifier
/// list's amounts, counts and conditions, and the parameters' defaults.
fn callee_exprs(p: &Program, c: Callee) -> Vec<&Expr> {
    let mut out: Vec<&Expr> = Vec::new();
    match c {
        Callee::Rule(i) => out.extend(p.rules.get(i as usize).map(|r| &r.body)),
        Callee::Table(i) => {
            if let Some(t) = p.tables.get(i as usize) {
                out.extend(t.rows.iter().map(|r| &r.cell));
            }
        }
        Callee::Modifiers(i) => {
            if let Some(m) = p.modifiers.get(i as usize) {
                for x in &m.modifiers {
                    out.push(&x.amount);
                    out.extend(x.per.iter());
                    out.extend(x.condition.iter());
                }
            }
        }
        Callee::Builtin(_) => {}
    }
    if let Some(sig) = p.signature(c) {
        out.extend(sig.params.iter().filter_map(|x| x.default.as_ref()));
    }
    out
}
