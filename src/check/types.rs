//! Types and units: what may stand where, joining branch types, patterns, operator typing.

use super::*;
use crate::diagnostic::Code;

impl Checker<'_> {
    /// Reports an error unless a value of type `actual` may stand where `expected` is wanted.
    pub(super) fn expect_ty(&mut self, actual: &Ty, expected: &Ty, span: Span) -> bool {
        if compatible(actual, expected) {
            return true;
        }
        let found = actual.describe(&self.prog);
        let d = self.type_diag(&found, Some(actual), expected, span);
        self.err(d);
        false
    }

    /// The type of a value that may be either (branches of an `if`, cells of a table).
    pub(super) fn join(&mut self, a: &Ty, b: &Ty, span: Span) -> Ty {
        match (a, b) {
            (Ty::Never, t) | (t, Ty::Never) => t.clone(),
            (Ty::Any, _) | (_, Ty::Any) => Ty::Any,
            (Ty::Int, Ty::Num) | (Ty::Num, Ty::Int) => Ty::Num,
            (Ty::Record(x), Ty::Record(y)) if compatible(a, b) && compatible(b, a) => {
                if x.name.is_some() {
                    a.clone()
                } else if y.name.is_some() {
                    b.clone()
                } else {
                    a.clone()
                }
            }
            _ if a == b => a.clone(),
            _ => {
                let (da, db) = self.describe_apart(a, b);
                self.err(Diag::at(
                    Code::CheckType,
                    format!("this is {db}, but the value before it is {da}"),
                    span,
                    "different type",
                ).help("every branch of an `if` or `match`, every cell of a table, both parts of a pair and all the arguments of `min`/`max` are the same kind of value"));
                Ty::Any
            }
        }
    }

    // ------------------------------------------------------------------ patterns

    pub(super) fn pattern(&mut self, p: &ast::Pattern, ty: &Ty) -> Pat {
        let ast::Pattern::Alternatives(alts, _) = p else {
            return Pat::Any;
        };
        let mut out = Vec::new();
        for a in alts {
            if let Some(values) = self.several_values(a, ty) {
                out.extend(values);
                continue;
            }
            let alt = match a {
                ast::Alternative::AtLeast(n, s) => self
                    .bound_pat(ty, *s, &[n])
                    .then_some(Alt::AtLeast(n.value)),
                ast::Alternative::AtMost(n, s) => {
                    self.bound_pat(ty, *s, &[n]).then_some(Alt::AtMost(n.value))
                }
                ast::Alternative::MoreThan(n, s) => self
                    .bound_pat(ty, *s, &[n])
                    .then_some(Alt::MoreThan(n.value)),
                ast::Alternative::LessThan(n, s) => self
                    .bound_pat(ty, *s, &[n])
                    .then_some(Alt::LessThan(n.value)),
                ast::Alternative::Range(a, b, s) => self
                    .bound_pat(ty, *s, &[a, b])
                    .then_some(Alt::Range(a.value, b.value)),
                ast::Alternative::Int(n, s) => {
                    let ok = self.bound_pat(ty, *s, &[n]) && self.whole_value(ty, n);
                    ok.then_some(Alt::Range(n.value, n.value))
                }
                ast::Alternative::Bool(b, s) => {
                    if compatible(&Ty::Bool, ty) {
                        Some(Alt::Bool(*b))
                    } else {
                        self.err(Diag::at(
                            Code::CheckPattern,
                            format!("this key is {}, not true/false", ty.describe(&self.prog)),
                            *s,
                            "wrong kind of pattern",
                        ));
                        None
                    }
                }
                ast::Alternative::Name(q, n) => self.enum_pattern(q.as_ref(), n, ty),
                // Read by `several_values`.
                ast::Alternative::NameRange(..)
                | ast::Alternative::NameAtLeast(..)
                | ast::Alternative::NameAtMost(..) => None,
            };
            out.extend(alt);
        }
        Pat::Alts(out)
    }

    /// A number pattern's bounds against its key: a number on an `Int` or `Num` key, a
    /// length on a `Length` key (`6"`, not `6`), each told what to write.
    fn bound_pat(&mut self, ty: &Ty, span: Span, bounds: &[&ast::Bound]) -> bool {
        if !matches!(ty, Ty::Length) && !self.int_pat(ty, span) {
            return false;
        }
        let mut ok = true;
        for b in bounds {
            let written = crate::value::Mixed(b.value);
            let wrong = match (ty, b.length) {
                (Ty::Length, false) => Some((
                    format!("this key is a Length, and `{written}` is a number, not a length"),
                    format!("write `{written}\"` (inches) or the length in feet (`2'` is `24\"`)"),
                )),
                (Ty::Int | Ty::Num, true) => Some((
                    format!(
                        "this key is {}, and `{}` is a length",
                        ty.describe(&self.prog),
                        crate::value::Length {
                            inches: b.value,
                            unit: crate::value::LengthUnit::Inches
                        }
                    ),
                    format!("write the number alone: `{written}`, not `{written}\"`; or make the key a `Length` to read distances"),
                )),
                _ => None,
            };
            if let Some((message, help)) = wrong {
                ok = false;
                self.err(
                    Diag::at(Code::CheckPattern, message, b.span, "wrong kind of bound").help(help),
                );
            }
        }
        ok
    }

    /// A single value on a whole-number key must be whole: `1/2` alone never matches.
    fn whole_value(&mut self, ty: &Ty, b: &ast::Bound) -> bool {
        if *ty != Ty::Int || b.value.is_integer() {
            return true;
        }
        let written = crate::value::Mixed(b.value);
        self.err(
            Diag::at(
                Code::CheckPattern,
                format!("this key is a whole number, and is never `{written}`"),
                b.span,
                "a fraction",
            )
            .help(format!("write a whole number, or a bound such as `{written} or more` or `less than {written}`")),
        );
        false
    }

    pub(super) fn int_pat(&mut self, ty: &Ty, span: Span) -> bool {
        if matches!(ty, Ty::Int | Ty::Num | Ty::Any) {
            return true;
        }
        self.err(Diag::at(
            Code::CheckPattern,
            format!("this key is {}, not a number", ty.describe(&self.prog)),
            span,
            "a number pattern",
        ));
        false
    }

    pub(super) fn enum_pattern(
        &mut self,
        qual: Option<&ast::Name>,
        n: &ast::Name,
        ty: &Ty,
    ) -> Option<Alt> {
        let want = match (qual, ty) {
            (Some(q), _) => match self.prog.globals.get(&q.node) {
                Some(Global::EnumType(e)) if matches!(ty, Ty::Enum(k) if k != e) => {
                    let d = ty.describe(&self.prog);
                    self.err(Diag::at(
                        Code::CheckPattern,
                        format!("this key is {d}; `{}` is another enum", q.node),
                        q.span,
                        "a value of another enum never matches",
                    ));
                    return None;
                }
                Some(Global::EnumType(e)) => Some(*e),
                _ => {
                    self.err(Diag::at(
                        Code::CheckUnknownName,
                        format!("`{}` is not an enum", q.node),
                        q.span,
                        "not an enum",
                    ));
                    return None;
                }
            },
            (None, Ty::Enum(e)) => Some(*e),
            (None, Ty::Any) => None,
            (None, other) => {
                let d = other.describe(&self.prog);
                self.err(Diag::at(
                    Code::CheckPattern,
                    format!("this key is {d}, not a named value"),
                    n.span,
                    "a name pattern",
                ));
                return None;
            }
        };
        match want {
            Some(e) => self.value_of(e, n).map(|i| Alt::Enum(e, i)),
            None => match self.prog.enum_values.get(&n.node).map(|v| v.as_slice()) {
                Some([(e, i)]) => Some(Alt::Enum(*e, *i)),
                _ => {
                    self.err(Diag::at(
                        Code::CheckUnknownValue,
                        format!("`{}` is not a known value", n.node),
                        n.span,
                        "unknown",
                    ));
                    None
                }
            },
        }
    }

    // ------------------------------------------------------------------ expressions

    pub(super) fn binary_ty(
        &mut self,
        op: BinOp,
        a: &Ty,
        b: &Ty,
        aspan: Span,
        bspan: Span,
        span: Span,
    ) -> Ty {
        use Ty::*;
        if matches!(a, Any | Never) || matches!(b, Any | Never) {
            return unknown_operand_ty(op, a, b);
        }
        match op {
            BinOp::And | BinOp::Or => {
                self.expect_ty(a, &Bool, aspan);
                self.expect_ty(b, &Bool, bspan);
                Bool
            }
            BinOp::Eq | BinOp::Ne => {
                let ok = compatible(a, b) || compatible(b, a);
                if !ok {
                    let (da, db) = self.describe_apart(a, b);
                    // `who == charged`, `charged` being a parameter that hides a value.
                    let hidden = match (a, b) {
                        (Enum(e), _) => self.hidden_value(bspan, *e),
                        (_, Enum(e)) => self.hidden_value(aspan, *e),
                        _ => None,
                    };
                    let mut d = Diag::at(
                        Code::CheckType,
                        format!("cannot compare {da} with {db}"),
                        span,
                        "different kinds of value",
                    )
                    .label(aspan, da)
                    .label(bspan, db);
                    if let Some(h) = hidden {
                        d = d.help(h);
                    }
                    self.err(d);
                }
                Bool
            }
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge => {
                self.order_ty(a, b, aspan, bspan, span)
            }
            BinOp::Add | BinOp::Sub => self.sum_ty(op, a, b, aspan, bspan, span),
            BinOp::Mul | BinOp::Div => self.product_ty(op, a, b, aspan, bspan, span),
            BinOp::Rem => {
                self.expect_ty(a, &Int, aspan);
                self.expect_ty(b, &Int, bspan);
                Int
            }
        }
    }

    /// `<`, `<=`, `>`, `>=`: numbers, lengths or times, each with its own kind.
    fn order_ty(&mut self, a: &Ty, b: &Ty, aspan: Span, bspan: Span, span: Span) -> Ty {
        let describe = |c: &Self, t: &Ty| t.describe(&c.prog);
        if matches!(a, Ty::Enum(_)) || matches!(b, Ty::Enum(_)) {
            return self.enum_order_ty(a, b, aspan, bspan, span);
        }
        if dim(a).is_none() || dim(a) != dim(b) {
            let (da, db) = (describe(self, a), describe(self, b));
            let mut d = Diag::at(
                Code::CheckType,
                format!("cannot compare {da} with {db}"),
                span,
                "different kinds of value",
            )
            .label(aspan, da.clone())
            .label(bspan, db);
            if dim(a) == Some(1) || dim(b) == Some(1) {
                d = d.help("a length compares only with a length: write the number with its unit, like `6\"`");
            } else if let Some(h) = minutes_help(dim(a), dim(b)) {
                d = d.help(h);
            }
            self.err(d);
        }
        Ty::Bool
    }

    /// `+` and `-`: of one unit.
    fn sum_ty(&mut self, op: BinOp, a: &Ty, b: &Ty, aspan: Span, bspan: Span, span: Span) -> Ty {
        use Ty::*;
        let describe = |c: &Self, t: &Ty| t.describe(&c.prog);
        match (dim(a), dim(b)) {
            (Some(x), Some(y)) if x == y => {
                if x == 0 {
                    if *a == Int && *b == Int {
                        Int
                    } else {
                        Num
                    }
                } else {
                    a.clone()
                }
            }
            _ => {
                let (da, db) = (describe(self, a), describe(self, b));
                let verb = if op == BinOp::Add { "add" } else { "subtract" };
                let mut d = Diag::at(
                    Code::CheckUnits,
                    format!(
                        "cannot {verb} {db} {} {da}",
                        if op == BinOp::Add { "to" } else { "from" }
                    ),
                    span,
                    "mixed units",
                )
                .label(aspan, da)
                .label(bspan, db);
                if matches!((dim(a), dim(b)), (Some(1), Some(0)) | (Some(0), Some(1))) {
                    d = d.help("a length plus a plain number has no meaning: make the number a length with inches(...), e.g. `4\" + inches(d6)`");
                } else if matches!((dim(a), dim(b)), (Some(2), Some(0)) | (Some(0), Some(2))) {
                    d = d.help("make the number a time with moves(...)");
                } else if let Some(h) = minutes_help(dim(a), dim(b)) {
                    d = d.help(h);
                }
                self.err(d);
                Any
            }
        }
    }

    /// `x` and `/`: a unit by a plain number (or, dividing, by the same unit).
    fn product_ty(
        &mut self,
        op: BinOp,
        a: &Ty,
        b: &Ty,
        aspan: Span,
        bspan: Span,
        span: Span,
    ) -> Ty {
        use Ty::*;
        let describe = |c: &Self, t: &Ty| t.describe(&c.prog);
        if op == BinOp::Mul {
            return match (dim(a), dim(b)) {
                (Some(0), Some(0)) => {
                    if *a == Int && *b == Int {
                        Int
                    } else {
                        Num
                    }
                }
                (Some(0), Some(_)) => b.clone(),
                (Some(_), Some(0)) => a.clone(),
                _ => {
                    let (da, db) = (describe(self, a), describe(self, b));
                    self.err(
                        Diag::at(
                            Code::CheckUnits,
                            format!("cannot multiply {da} by {db}"),
                            span,
                            "no such unit",
                        )
                        .label(aspan, da)
                        .label(bspan, db)
                        .help("multiply a length or time by a plain number, e.g. `2 minutes x 3`"),
                    );
                    Any
                }
            };
        }
        match (dim(a), dim(b)) {
            (Some(0), Some(0)) => Num,
            (Some(x), Some(y)) if x == y => Num,
            (Some(_), Some(0)) => a.clone(),
            _ => {
                let (da, db) = (describe(self, a), describe(self, b));
                self.err(
                    Diag::at(
                        Code::CheckUnits,
                        format!("cannot divide {da} by {db}"),
                        span,
                        "no such unit",
                    )
                    .label(aspan, da)
                    .label(bspan, db),
                );
                Any
            }
        }
    }
}

/// The kind of a number: plain (0), a length (1), a time in moves (2) or in minutes (3).
fn dim(t: &Ty) -> Option<u8> {
    match t {
        Ty::Int | Ty::Num => Some(0),
        Ty::Length => Some(1),
        Ty::Time => Some(2),
        Ty::Minutes => Some(3),
        _ => None,
    }
}

/// What to write where minutes meet a plain number or moves (§2.4).
pub(super) fn minutes_help(a: Option<u8>, b: Option<u8>) -> Option<&'static str> {
    match (a, b) {
        (Some(3), Some(0)) | (Some(0), Some(3)) => Some(
            "minutes combine only with minutes: write the number with its unit, like `7 minutes`, or multiply it by one minute, like `men / 30 x 1 minute`",
        ),
        (Some(3), Some(2)) | (Some(2), Some(3)) => Some(
            "minutes are real time at the table and moves are game time: they never combine; write both in minutes (`7 minutes`) or both in moves (`2 moves`)",
        ),
        _ => None,
    }
}

/// An operator on a value not known (after an error) or that never comes (a refusal):
/// comparisons are still truth values; anything else is not known either, so one
/// mistake is reported once, not again where its result is used.
fn unknown_operand_ty(op: BinOp, a: &Ty, b: &Ty) -> Ty {
    use Ty::*;
    match op {
        BinOp::Eq
        | BinOp::Ne
        | BinOp::Lt
        | BinOp::Le
        | BinOp::Gt
        | BinOp::Ge
        | BinOp::And
        | BinOp::Or => Bool,
        // Not known (after an error): not known either, so one mistake is
        // reported once, not again where its result is used.
        _ if matches!(a, Any) || matches!(b, Any) => Any,
        _ => {
            let other = if matches!(a, Never) { b } else { a };
            if matches!(other, Never) {
                Any
            } else {
                other.clone()
            }
        }
    }
}
