//! The walk through an expression: every name in it marked; what it holds, when known.

use super::walk::Walk;
use super::{Hit, Kind, Ty};
use crate::span::Span;
use crate::syntax::ast::{self, BinOp, Block, Expr, ExprKind, Row, UnOp};

/// What `a op b` holds, when both sides' types are known and the result is sure: a
/// sum of two alike, a whole number times a measure, a remainder of whole numbers.
/// (A number written out may be a fraction, and a quotient is exact: those are left
/// unknown rather than guessed.)
fn arithmetic(op: BinOp, a: Option<Ty>, b: Option<Ty>) -> Option<Ty> {
    let int = Ty::Named("Int".into());
    let (a, b) = (a?, b?);
    match op {
        BinOp::Add | BinOp::Sub if a == b => Some(a),
        BinOp::Mul if a == int => Some(b),
        BinOp::Mul if b == int => Some(a),
        BinOp::Rem if a == int && b == int => Some(int),
        _ => None,
    }
}

/// `3d6 + 1`, `2d6 - 2`, `1 + d6`: the dice and the whole number added.
fn dice_sum(op: BinOp, a: &Expr, b: &Expr) -> Option<(u32, Option<u32>, i64)> {
    let whole = |e: &Expr| match &e.kind {
        ExprKind::Number(n) if n.is_integer() => Some(n.to_integer()),
        _ => None,
    };
    let dice = |e: &Expr| match &e.kind {
        ExprKind::Dice { count, sides } => Some((*count, *sides)),
        _ => None,
    };
    match op {
        BinOp::Add => match (dice(a), dice(b)) {
            (Some((c, s)), None) => Some((c, s, whole(b)?)),
            (None, Some((c, s))) => Some((c, s, whole(a)?)),
            _ => None,
        },
        BinOp::Sub => {
            let (c, s) = dice(a)?;
            Some((c, s, whole(b)?.checked_neg()?))
        }
        _ => None,
    }
}

impl<'t> Walk<'_, 't> {
    /// An expression: every name in it marked; what it holds, when known.
    pub(super) fn expr(&mut self, e: &'t Expr, want: Option<&Ty>) -> Option<Ty> {
        match &e.kind {
            ExprKind::Length(..) => Some(Ty::Named("Length".into())),
            ExprKind::Time(_) => Some(Ty::Named("Time".into())),
            ExprKind::Minutes(_) => Some(Ty::Named("Minutes".into())),
            ExprKind::Bool(_) => Some(Ty::Named("Bool".into())),
            ExprKind::Text(_) => Some(Ty::Named("Text".into())),
            ExprKind::Dice { count, sides } => {
                self.ix.spots.push((
                    e.span,
                    Hit::Dice {
                        count: *count,
                        sides: *sides,
                        plus: 0,
                    },
                ));
                Some(Ty::Named("Int".into()))
            }
            ExprKind::Name(n) => self.bare(n, e.span, want),
            ExprKind::Field(base, field) => self.field(e, base, field),
            ExprKind::Member(a, b) => {
                let t = self.expr(a, None);
                self.expr(b, Some(&Ty::Named("Text".into())));
                match t {
                    Some(Ty::Group(inner)) => Some(*inner),
                    _ => None,
                }
            }
            ExprKind::Call(name, args) => self.call(name, args),
            ExprKind::Unary(op, a) => {
                let t = self.expr(a, want);
                match op {
                    UnOp::Not => Some(Ty::Named("Bool".into())),
                    _ => t,
                }
            }
            ExprKind::Binary(op, a, b) => self.binary(e.span, *op, a, b),
            ExprKind::If(arms, other) => self.if_(arms, other.as_ref(), want),
            ExprKind::Match(s, rows) => {
                let t = self.expr(s, None);
                self.rows(rows, &[t], want)
            }
            ExprKind::Reading(name, rows) => self.reading(name, rows, want),
            ExprKind::Record(fields) => {
                let rec = match want {
                    Some(Ty::Def(d)) if self.ix.defs[*d].kind == Kind::Record => Some(*d),
                    _ => None,
                };
                self.fields(rec, fields);
                rec.map(Ty::Def)
            }
            ExprKind::TypedRecord(name, fields) => {
                let rec = self.ix.type_def(&name.node, "");
                if let Some(r) = rec {
                    self.name(name.span, r);
                }
                self.fields(rec, fields);
                rec.map(Ty::Def)
            }
            ExprKind::Pair(a, b) => {
                self.expr(a, None);
                self.expr(b, None);
                None
            }
            ExprKind::Instead { call, .. } => self.expr(call, want),
            ExprKind::Block(b) => self.block(b, want),
            ExprKind::In {
                value, patterns, ..
            } => {
                let t = self.expr(value, None);
                self.pattern(patterns, t.as_ref());
                Some(Ty::Named("Bool".into()))
            }
            _ => None,
        }
    }

    /// `a op b` (a dice term with a whole number added marked as one).
    fn binary(&mut self, span: Span, op: BinOp, a: &'t Expr, b: &'t Expr) -> Option<Ty> {
        if let Some((count, sides, plus)) = dice_sum(op, a, b) {
            self.ix.spots.push((span, Hit::Dice { count, sides, plus }));
        }
        let ta = self.expr(a, None);
        let compare = matches!(op, BinOp::Eq | BinOp::Ne);
        let tb = self.expr(b, if compare { ta.as_ref() } else { None });
        match op {
            BinOp::Or
            | BinOp::And
            | BinOp::Eq
            | BinOp::Ne
            | BinOp::Lt
            | BinOp::Le
            | BinOp::Gt
            | BinOp::Ge => Some(Ty::Named("Bool".into())),
            _ => arithmetic(op, ta, tb),
        }
    }

    /// `if ... else ...`: what its first block telling holds.
    fn if_(
        &mut self,
        arms: &'t [(Expr, Block)],
        other: Option<&'t Block>,
        want: Option<&Ty>,
    ) -> Option<Ty> {
        let mut out = None;
        for (c, b) in arms {
            self.expr(c, Some(&Ty::Named("Bool".into())));
            let got = self.block(b, want);
            out = out.or(got);
        }
        if let Some(b) = other {
            let got = self.block(b, want);
            out = out.or(got);
        }
        out
    }

    /// `reading NAME { ... }`: the interpretation named, its rows walked.
    fn reading(&mut self, name: &'t ast::Name, rows: &'t [Row], want: Option<&Ty>) -> Option<Ty> {
        let interp = self
            .ix
            .global(&name.node)
            .filter(|&d| self.ix.defs[d].kind == Kind::Interpretation);
        if let Some(i) = interp {
            self.name(name.span, i);
        }
        self.rows(rows, &[interp.map(Ty::Def)], want)
    }

    /// A record's fields (of `rec` when known, else of the one record with such a
    /// field), each value walked as that field's type.
    pub(super) fn fields(&mut self, rec: Option<usize>, fields: &'t [(ast::Name, Expr)]) {
        for (name, value) in fields {
            let field = match rec {
                Some(r) => self.ix.child(r, &name.node),
                None => self.only_field(&name.node),
            };
            let want = field.and_then(|f| self.ix.type_of(f));
            if let Some(f) = field {
                self.name(name.span, f);
            }
            self.expr(value, want.as_ref());
        }
    }

    /// The field named `name` when one record (of the document's own) has one.
    pub(super) fn only_field(&self, name: &str) -> Option<usize> {
        let mut found = self.ix.defs.iter().enumerate().filter(|(_, d)| {
            d.kind == Kind::Field
                && d.name == name
                && d.prefix.is_empty()
                && d.parent
                    .is_some_and(|p| self.ix.defs[p].kind == Kind::Record)
        });
        let first = found.next().map(|(i, _)| i);
        if found.next().is_some() {
            None
        } else {
            first
        }
    }

    /// A bare name: a parameter or `let`, a state field, a definition, an enum value.
    pub(super) fn bare(&mut self, n: &str, span: Span, want: Option<&Ty>) -> Option<Ty> {
        if let Some(&(_, d)) = self.scope.iter().rev().find(|(s, _)| s == n) {
            self.name(span, d);
            return self.ix.type_of(d);
        }
        if let Some(&d) = self.ix.state.get(n) {
            self.name(span, d);
            return self.ix.type_of(d);
        }
        if let Some(d) = self.ix.global(n) {
            self.name(span, d);
            return match self.ix.defs[d].kind {
                Kind::Enum | Kind::Record => Some(Ty::Def(d)),
                _ => self.ix.type_of(d),
            };
        }
        let d = self.value_def(n, want)?;
        self.name(span, d);
        self.ix.defs[d].parent.map(Ty::Def)
    }

    /// `base.field`: a used ruleset's definition (`ks.supply_interval`), an enum's value
    /// (`Grade.line`, `ks.Arm.infantry`), or a field of a record.
    pub(super) fn field(
        &mut self,
        e: &'t Expr,
        base: &'t Expr,
        field: &'t ast::Name,
    ) -> Option<Ty> {
        if let Some(q) = self.path(base) {
            let local = self
                .scope
                .iter()
                .any(|(s, _)| Some(s.as_str()) == q.split('.').next());
            if !local {
                if let Some(d) = self.ix.global(&format!("{q}.{}", field.node)) {
                    self.name(e.span, d);
                    return match self.ix.defs[d].kind {
                        Kind::Enum | Kind::Record => Some(Ty::Def(d)),
                        _ => self.ix.type_of(d),
                    };
                }
                if let Some(t) = self.ix.type_def(&q, "") {
                    if matches!(self.ix.defs[t].kind, Kind::Enum | Kind::Interpretation) {
                        self.name(base.span, t);
                        if let Some(v) = self.ix.child(t, &field.node) {
                            self.name(field.span, v);
                        }
                        return Some(Ty::Def(t));
                    }
                }
            }
        }
        let t = self.expr(base, None);
        let found = match &t {
            Some(Ty::Def(r)) => self.ix.child(*r, &field.node),
            Some(Ty::Group(inner)) => return Some((**inner).clone()),
            _ => self.only_field(&field.node),
        };
        let f = found?;
        self.name(field.span, f);
        self.ix.type_of(f)
    }

    /// `a.b.c` as a dotted name, when the expression is only names.
    pub(super) fn path(&self, e: &Expr) -> Option<String> {
        match &e.kind {
            ExprKind::Name(n) => Some(n.clone()),
            ExprKind::Field(b, f) => Some(format!("{}.{}", self.path(b)?, f.node)),
            _ => None,
        }
    }

    /// A call: the callee marked, each argument walked as its parameter's type (a named
    /// one's name marked as the parameter); the callee's result.
    pub(super) fn call(&mut self, name: &'t ast::Name, args: &'t [ast::Arg]) -> Option<Ty> {
        let callee = self.callee(name);
        let params: Vec<usize> = callee
            .map(|c| {
                self.ix.defs[c]
                    .children
                    .iter()
                    .copied()
                    .filter(|&p| self.ix.defs[p].kind == Kind::Param)
                    .collect()
            })
            .unwrap_or_default();
        let mut first = None;
        for (i, a) in args.iter().enumerate() {
            let param = match &a.name {
                Some(n) => {
                    let p = params
                        .iter()
                        .copied()
                        .find(|&p| self.ix.defs[p].name == n.node);
                    if let Some(p) = p {
                        self.name(n.span, p);
                    }
                    p
                }
                None => params.get(i).copied(),
            };
            let want = param.and_then(|p| self.ix.type_of(p));
            let got = self.expr(&a.value, want.as_ref());
            if i == 0 {
                first = got;
            }
        }
        match callee {
            Some(c) => self.ix.type_of(c),
            None if matches!(name.node.as_str(), "min" | "max" | "abs") => first,
            None => None,
        }
    }
}
