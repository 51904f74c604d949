//! The compile stage: checked bodies lowered for the evaluator's fast path
//! ([`crate::program::lowered`]), between the checker and the evaluator. It reads only
//! the program and values.
//!
//! [`prepare`] finds, once, which rules, tables, modifier lists and constants can be
//! worked out without touching the game (no dice, no `set`, no parameter `= needed`,
//! nor a call of one that does); their bodies are lowered on first use
//! ([`rule`], [`table`], [`modifiers`], [`constant`]), and a question's expression by
//! [`query`]. Lowering specialises what the checker knows: a field chain of a local
//! read in place, a comparison or sum with a whole number written out as one node,
//! constants folded (with the steps and nesting their expressions take, so limits and
//! step counts stay the tree-walker's).

mod fold;

use crate::program::lowered::*;
use crate::program::*;
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// What the fast path may call: a body of no dice, no `set`, no needed parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Def {
    Rule(usize),
    Table(usize),
    Modifiers(usize),
    Const(usize),
}

/// The lowered program of `p`, its bodies not lowered yet: which can be is worked out
/// now (a pass over the program and its calls, linear in its size).
pub fn prepare(p: &Program) -> Code {
    let mut code = Code::sized(
        p.rules.len(),
        p.tables.len(),
        p.modifiers.len(),
        p.consts.len(),
    );
    let defs: Vec<Def> = (0..p.rules.len())
        .map(Def::Rule)
        .chain((0..p.tables.len()).map(Def::Table))
        .chain((0..p.modifiers.len()).map(Def::Modifiers))
        .chain((0..p.consts.len()).map(Def::Const))
        .collect();
    let index = |d: Def| match d {
        Def::Rule(i) => i,
        Def::Table(i) => p.rules.len() + i,
        Def::Modifiers(i) => p.rules.len() + p.tables.len() + i,
        Def::Const(i) => p.rules.len() + p.tables.len() + p.modifiers.len() + i,
    };
    // Each definition: whether its own body can be lowered, and whom it uses.
    let mut fine = vec![true; defs.len()];
    let mut callers: Vec<Vec<usize>> = vec![Vec::new(); defs.len()];
    for (at, d) in defs.iter().enumerate() {
        let mut uses = Vec::new();
        let own = match *d {
            Def::Rule(i) => {
                let r = &p.rules[i];
                !needs(&r.sig) && local(p, &r.body, &mut uses, true)
            }
            Def::Table(i) => {
                let t = &p.tables[i];
                !needs(&t.sig)
                    && t.rows
                        .iter()
                        .all(|row| local(p, &row.cell, &mut uses, true))
            }
            Def::Modifiers(i) => {
                let m = &p.modifiers[i];
                !needs(&m.sig)
                    && m.modifiers.iter().all(|md| {
                        md.condition
                            .as_ref()
                            .is_none_or(|c| local(p, c, &mut uses, true))
                            && local(p, &md.amount, &mut uses, true)
                            && md.per.as_ref().is_none_or(|x| local(p, x, &mut uses, true))
                    })
            }
            // A constant is worked out at the depth of the call it is used in: one that rolls
            // dice is left to the tree-walker.
            Def::Const(i) => local(p, &p.consts[i].value, &mut uses, false),
        };
        fine[at] = own;
        for u in uses {
            callers[index(u)].push(at);
        }
    }
    // A definition that uses one that cannot be lowered cannot be either.
    let mut work: Vec<usize> = (0..defs.len()).filter(|&i| !fine[i]).collect();
    while let Some(d) = work.pop() {
        for &c in &callers[d] {
            if fine[c] {
                fine[c] = false;
                work.push(c);
            }
        }
    }
    for (d, ok) in defs.iter().zip(fine) {
        match *d {
            Def::Rule(i) => code.fast_rules[i] = ok,
            Def::Table(i) => code.fast_tables[i] = ok,
            Def::Modifiers(i) => code.fast_modifiers[i] = ok,
            Def::Const(i) => code.fast_consts[i] = ok,
        }
    }
    code
}

/// Whether a signature has a parameter `= needed` (its calls are worked out by the
/// tree-walker, which tells what was left out).
fn needs(sig: &Signature) -> bool {
    sig.params.iter().any(|p| p.needed)
}

/// Whether `e` itself can be lowered (the definitions it uses are pushed on `uses`);
/// `dice`: whether it may roll dice written out (`2d6`, `D10`).
fn local(p: &Program, e: &Expr, uses: &mut Vec<Def>, dice: bool) -> bool {
    let mut ok = true;
    e.walk(&mut |x| {
        if !ok {
            return;
        }
        match &x.kind {
            ExprKind::Dice { .. } => ok = dice,
            ExprKind::Instead { .. } => ok = false,
            ExprKind::Call(Callee::Builtin(b), _) => ok = fast_builtin(*b),
            ExprKind::Call(Callee::Rule(i), _) => uses.push(Def::Rule(*i as usize)),
            ExprKind::Call(Callee::Table(i), _) => uses.push(Def::Table(*i as usize)),
            ExprKind::Call(Callee::Modifiers(i), _) => uses.push(Def::Modifiers(*i as usize)),
            ExprKind::Const(i) => uses.push(Def::Const(*i as usize)),
            ExprKind::Block(stmts, _) => {
                ok = stmts
                    .iter()
                    .all(|s| matches!(s, Stmt::Let(..) | Stmt::Guard(_) | Stmt::Note(_)));
            }
            ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) => {
                ok = !local_and_modifiers(*op, a, b);
            }
            ExprKind::Default { of, index } => match p.default_expr(*of, *index) {
                Some(d) => ok = local(p, d, uses, false),
                None => ok = false,
            },
            _ => {}
        }
    });
    ok
}

/// The built-ins the fast path works out (not dice, pools, nor `supplied`).
fn fast_builtin(b: Builtin) -> bool {
    !(b.is_pool() || matches!(b, Builtin::Dice | Builtin::Supplied))
}

/// Whether `a op b` may be read out as a modified roll of a named roll (a term of the
/// sum is a modifier list, and another a local, which may hold a roll named by `let`):
/// the tree-walker reads that out, so it is not lowered.
fn local_and_modifiers(op: BinOp, a: &Expr, b: &Expr) -> bool {
    let (mut local, mut modifiers) = (false, false);
    each_term(op, a, b, |e, _| match &e.kind {
        ExprKind::Local(_) => local = true,
        ExprKind::Call(Callee::Modifiers(_), _) => modifiers = true,
        _ => {}
    });
    local && modifiers
}

/// Whether `a op b` is a roll summed with die roll modifiers, as the tree-walker reads it
/// out (`eval::ops`, `modifies_a_roll`) where no local holds a named roll (none does in
/// a lowered body): one dice term added, not taken away, a modifier list among the
/// terms, and no other term rolling dice.
fn modified_roll(op: BinOp, a: &Expr, b: &Expr) -> bool {
    let (mut dice, mut modifiers) = (0u32, false);
    each_term(op, a, b, |e, minus| match &e.kind {
        ExprKind::Dice { .. } => dice += if minus { 2 } else { 1 },
        ExprKind::Call(Callee::Modifiers(_), _) => modifiers = true,
        _ => {}
    });
    if dice != 1 || !modifiers {
        return false;
    }
    let mut other_rolls = false;
    each_term(op, a, b, |e, _| {
        if !matches!(e.kind, ExprKind::Dice { .. } | ExprKind::Local(_)) {
            e.walk(&mut |x| other_rolls |= matches!(x.kind, ExprKind::Dice { .. }));
        }
    });
    !other_rolls
}

/// Each term of the chain of `+` and `-` that `a op b` closes, with whether it is taken
/// away: `b` first, then along `a` from the right.
pub fn each_term<'e>(op: BinOp, a: &'e Expr, b: &'e Expr, mut f: impl FnMut(&'e Expr, bool)) {
    f(b, op == BinOp::Sub);
    let mut left = a;
    while let ExprKind::Binary(o @ (BinOp::Add | BinOp::Sub), l, r) = &left.kind {
        f(r, *o == BinOp::Sub);
        left = l;
    }
    f(left, false);
}

/// A rule's body lowered, if the fast path may work it out.
pub fn rule(p: &Program, code: &Code, id: u32) -> Option<Body> {
    let i = id as usize;
    if !*code.fast_rules.get(i)? {
        return None;
    }
    let r = p.rules.get(i)?;
    Some(Body {
        node: lower(p, &r.sig.params, &r.body),
    })
}

/// A table's cells lowered, if the fast path may work the table out.
pub fn table(p: &Program, code: &Code, id: u32) -> Option<LTable> {
    let i = id as usize;
    if !*code.fast_tables.get(i)? {
        return None;
    }
    let t = p.tables.get(i)?;
    Some(LTable {
        cells: t
            .rows
            .iter()
            .map(|r| lower(p, &t.sig.params, &r.cell))
            .collect(),
    })
}

/// A modifier list lowered, if the fast path may work it out.
pub fn modifiers(p: &Program, code: &Code, id: u32) -> Option<LModifiers> {
    let i = id as usize;
    if !*code.fast_modifiers.get(i)? {
        return None;
    }
    let list = p.modifiers.get(i)?;
    let ps = &list.sig.params;
    Some(LModifiers {
        each: list
            .modifiers
            .iter()
            .map(|m| {
                (
                    m.condition.as_ref().map(|c| lower(p, ps, c)),
                    lower(p, ps, &m.amount),
                    m.per.as_ref().map(|x| lower(p, ps, x)),
                )
            })
            .collect(),
    })
}

/// A constant's expression lowered, if the fast path may work it out.
pub fn constant(p: &Program, code: &Code, id: u32) -> Option<Body> {
    let i = id as usize;
    if !*code.fast_consts.get(i)? {
        return None;
    }
    Some(Body {
        node: lower(p, &[], &p.consts.get(i)?.value),
    })
}

/// A question's expression lowered, if the fast path may work it out (it uses only
/// definitions that may be).
pub fn query(p: &Program, code: &Code, q: &Query) -> Option<Node> {
    let mut uses = Vec::new();
    if !local(p, &q.expr, &mut uses, true) {
        return None;
    }
    let fast = |d: &Def| match *d {
        Def::Rule(i) => code.fast_rules.get(i).copied(),
        Def::Table(i) => code.fast_tables.get(i).copied(),
        Def::Modifiers(i) => code.fast_modifiers.get(i).copied(),
        Def::Const(i) => code.fast_consts.get(i).copied(),
    };
    if !uses.iter().all(|d| fast(d) == Some(true)) {
        return None;
    }
    Some(lower(p, &[], &q.expr))
}

/// Lowers `e`, which [`local`] found can be, in a body whose parameters are `ps`.
fn lower(p: &Program, ps: &[ParamInfo], e: &Expr) -> Node {
    let span = e.span;
    let node = |kind| Node { kind, span };
    let boxed = |x: &Expr| Box::new(lower(p, ps, x));
    if let Some((value, steps, depth)) = fold::fold(p, e) {
        return node(NodeKind::Value {
            value,
            steps,
            depth,
        });
    }
    node(match &e.kind {
        ExprKind::Value(v) => NodeKind::Value {
            value: v.clone(),
            steps: 1,
            depth: 1,
        },
        ExprKind::Local(s) => NodeKind::Local(*s),
        ExprKind::State(i) => NodeKind::State(*i),
        ExprKind::Const(i) => NodeKind::Const(*i),
        ExprKind::Chosen(i) => NodeKind::Chosen(*i),
        ExprKind::Field(base, name, at) => match path(e) {
            Some((slot, fields)) => NodeKind::Path {
                slot,
                fields: fields.into(),
            },
            None => NodeKind::Field(boxed(base), name.clone(), *at),
        },
        ExprKind::Member(base, key) => NodeKind::Member(boxed(base), boxed(key)),
        ExprKind::Neg(x) => NodeKind::Neg(boxed(x)),
        ExprKind::Not(x) => NodeKind::Not(boxed(x)),
        ExprKind::Binary(BinOp::And, a, b) => NodeKind::And(boxed(a), boxed(b)),
        ExprKind::Binary(BinOp::Or, a, b) => NodeKind::Or(boxed(a), boxed(b)),
        ExprKind::Binary(op @ (BinOp::Add | BinOp::Sub), a, b) if modified_roll(*op, a, b) => {
            lower_modified_roll(p, ps, *op, a, b, span)
        }
        ExprKind::Dice { count, sides } => NodeKind::Dice(*count, *sides),
        ExprKind::Binary(op, a, b) => match &b.kind {
            ExprKind::Value(Value::Int(k)) => NodeKind::BinaryInt(*op, boxed(a), *k),
            _ => NodeKind::Binary(*op, boxed(a), boxed(b)),
        },
        ExprKind::If(arms, otherwise) => NodeKind::If(
            arms.iter()
                .map(|(c, b)| (lower(p, ps, c), lower(p, ps, b)))
                .collect(),
            otherwise.as_deref().map(|o| Box::new(lower(p, ps, o))),
        ),
        ExprKind::Match(s, arms) => NodeKind::Match(
            boxed(s),
            arms.iter()
                .map(|(pat, b, _)| (pat.clone(), lower(p, ps, b)))
                .collect(),
        ),
        ExprKind::In {
            value,
            pat,
            negated,
            ..
        } => NodeKind::In(boxed(value), pat.clone(), *negated),
        ExprKind::Block(stmts, value) => NodeKind::Block(
            stmts
                .iter()
                .map(|s| match s {
                    Stmt::Let(slot, x) => LStmt::Let(*slot, lower(p, ps, x)),
                    Stmt::Guard(x) => LStmt::Guard(lower(p, ps, x)),
                    _ => LStmt::Note,
                })
                .collect(),
            boxed(value),
        ),
        ExprKind::Call(Callee::Builtin(b), args) => {
            NodeKind::Builtin(*b, args.iter().map(|a| lower(p, ps, a)).collect())
        }
        ExprKind::Call(callee, args) => lower_call(p, ps, *callee, args),
        ExprKind::Record(fields) => NodeKind::Record(
            fields
                .iter()
                .map(|(n, x)| (n.clone(), lower(p, ps, x)))
                .collect(),
        ),
        ExprKind::Pair(a, b) => NodeKind::Pair(boxed(a), boxed(b)),
        ExprKind::InRange { value, range, .. } => NodeKind::InRange(boxed(value), *range),
        // A frame of its own: its locals are not the body's parameters.
        ExprKind::Fresh { value, slots } => NodeKind::Fresh(Box::new(lower(p, &[], value)), *slots),
        ExprKind::Default { of, index } => NodeKind::Default(*of, *index),
        // What gives the fast path up: the tree-walker works the body out and refuses,
        // or says what the source does not give, as it would have.
        ExprKind::Refuse { .. } | ExprKind::NotGiven { .. } | ExprKind::Instead { .. } => {
            NodeKind::GiveUp
        }
    })
}

/// What an argument `arg` passed to `param` (at place `i`) is checked against: nothing
/// when no check can fail (no range, not a whole number, not a record type with ranges).
/// A roll summed with modifiers: the terms left to right, each after the first with the
/// sign before it and the span of the sum it closes.
fn lower_modified_roll(
    p: &Program,
    ps: &[ParamInfo],
    op: BinOp,
    a: &Expr,
    b: &Expr,
    span: crate::span::Span,
) -> NodeKind {
    let mut rest = vec![(op, lower(p, ps, b), span)];
    let mut first = a;
    while let ExprKind::Binary(o @ (BinOp::Add | BinOp::Sub), l, r) = &first.kind {
        rest.push((*o, lower(p, ps, r), first.span));
        first = l;
    }
    rest.reverse();
    NodeKind::ModifiedRoll(Box::new(lower(p, ps, first)), rest)
}

/// A call of a rule, table or modifier list: each argument with what it is checked
/// against.
fn lower_call(p: &Program, ps: &[ParamInfo], callee: Callee, args: &[Expr]) -> NodeKind {
    let params = p.signature(callee).map_or(&[][..], |s| &s.params[..]);
    NodeKind::Call(
        callee,
        args.iter()
            .enumerate()
            .map(|(i, a)| (lower(p, ps, a), check_of(p, params.get(i), i, a, ps)))
            .collect(),
    )
}

/// A parameter of the body passed on as it is, to a parameter of the same type and
/// range, was checked when it was passed in: it is not checked again.
fn check_of(
    p: &Program,
    param: Option<&ParamInfo>,
    i: usize,
    arg: &Expr,
    ps: &[ParamInfo],
) -> ArgCheck {
    let Some(param) = param else {
        return ArgCheck::None;
    };
    if let ExprKind::Local(s) = arg.kind {
        if let Some(own) = ps.get(s as usize) {
            if own.ty == param.ty && own.range == param.range {
                return ArgCheck::None;
            }
        }
    }
    let ranged_record = match &param.ty {
        Ty::Record(shape) => shape
            .record
            .and_then(|id| p.records.get(id as usize))
            .is_some_and(|r| r.ranges.iter().any(Option::is_some)),
        _ => false,
    };
    if param.range.is_some() || param.ty == Ty::Int || ranged_record {
        ArgCheck::Param(u32::try_from(i).unwrap_or(u32::MAX))
    } else {
        ArgCheck::None
    }
}

/// A field of a chain: its name and place in its record type.
type Link = (std::rc::Rc<str>, u32);

/// A field chain of a local as the tree-walker reads it in place (`u.grade`,
/// `b.front.width`: at most nine fields): the local and the fields, outermost first.
fn path(e: &Expr) -> Option<(u32, Vec<Link>)> {
    let mut fields = Vec::new();
    let mut at = e;
    loop {
        match &at.kind {
            ExprKind::Local(s) => {
                fields.reverse();
                return (fields.len() <= 9).then_some((*s, fields));
            }
            ExprKind::Field(b, name, i) => {
                fields.push((name.clone(), *i));
                at = b;
            }
            _ => return None,
        }
    }
}
