//! Expressions: names, fields, records, operators, literals.

use super::*;
use crate::diagnostic::Code;

impl Checker<'_> {
    pub(super) fn expr(
        &mut self,
        e: &ast::Expr,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        crate::limits::deep(|| self.expr_inner(e, scope, expected))
    }

    fn expr_inner(
        &mut self,
        e: &ast::Expr,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let span = e.span;
        let mk = |kind| Expr { kind, span };
        match &e.kind {
            ast::ExprKind::Number(r) => (
                mk(ExprKind::Value(Value::num(*r))),
                if r.is_integer() { Ty::Int } else { Ty::Num },
            ),
            ast::ExprKind::Length(r, unit) => self.length(*r, *unit, span),
            ast::ExprKind::Time(r) => (mk(ExprKind::Value(Value::Time(*r))), Ty::Time),
            ast::ExprKind::Minutes(r) => (mk(ExprKind::Value(Value::Minutes(*r))), Ty::Minutes),
            ast::ExprKind::Bool(b) => (mk(ExprKind::Value(Value::Bool(*b))), Ty::Bool),
            // The rulebook's words in quotes, where an enum is wanted: `"Good Order"`.
            ast::ExprKind::Text(t) => match expected {
                Some(Ty::Enum(en)) => self.enum_text(*en, t, span),
                _ => (mk(ExprKind::Value(Value::Text(rc(t)))), Ty::Text),
            },
            ast::ExprKind::Dice { count, sides } => self.dice(*count, *sides, span),
            ast::ExprKind::Name(n) => self.name(n, span, scope, expected),
            ast::ExprKind::Member(base, key) => self.member(base, key, span, scope),
            ast::ExprKind::Field(base, field) => self.field(base, field, span, scope),
            ast::ExprKind::Call(name, args) => self.call(name, args, span, scope),
            ast::ExprKind::Unary(op, x) => self.unary(*op, x, span, scope),
            ast::ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span, scope),
            ast::ExprKind::If(arms, otherwise) => {
                self.if_else(arms, otherwise.as_ref(), span, scope, expected)
            }
            ast::ExprKind::Match(scrutinee, rows) => {
                self.match_expr(scrutinee, rows, span, scope, expected)
            }
            ast::ExprKind::Reading(name, rows) => self.reading(name, rows, span, scope, expected),
            ast::ExprKind::Record(fields) => self.record(fields, span, scope, expected),
            ast::ExprKind::TypedRecord(name, fields) => {
                self.typed_record(name, fields, span, scope)
            }
            ast::ExprKind::Pair(a, b) => self.pair(a, b, span, scope, expected),
            ast::ExprKind::Refuse { reason, cite } => {
                let cite = cite.as_deref().map(rc).or_else(|| self.cite.clone());
                (
                    mk(ExprKind::Refuse {
                        reason: rc(reason),
                        cite,
                    }),
                    Ty::Never,
                )
            }
            ast::ExprKind::NotGiven { what, cite } => {
                let cite = cite.as_deref().map(rc).or_else(|| self.cite.clone());
                (
                    mk(ExprKind::NotGiven {
                        what: rc(what),
                        cite,
                    }),
                    Ty::Never,
                )
            }
            ast::ExprKind::Instead { call, reason } => self.instead(call, reason, span, scope),
            ast::ExprKind::Block(b) => self.block(b, scope, expected),
            ast::ExprKind::In {
                value,
                patterns,
                negated,
            } => self.membership(value, patterns, *negated, span, scope),
        }
    }

    /// A length written out (`3"`, `2 ft`), held in inches.
    fn length(&mut self, r: Rational, unit: LengthUnit, span: Span) -> (Expr, Ty) {
        let inches = match unit {
            LengthUnit::Inches => Some(r),
            LengthUnit::Feet => r.checked_mul(&Rational::from_integer(12)),
        };
        match inches {
            Some(inches) => (
                Expr {
                    kind: ExprKind::Value(Value::Length(Length { inches, unit })),
                    span,
                },
                Ty::Length,
            ),
            None => {
                self.err(Diag::at(
                    Code::EvalOverflow,
                    "this length is too large to hold exactly",
                    span,
                    "too large",
                ));
                (dummy(span), Ty::Length)
            }
        }
    }

    /// A roll (`2d6`, `1 die`): the die named or the ruleset's, within the limits.
    fn dice(&mut self, count: u32, sides: Option<u32>, span: Span) -> (Expr, Ty) {
        let sides = match sides {
            Some(s) => s,
            None => {
                match self.prog.default_die {
                    Some(s) => s,
                    None => {
                        self.err(Diag::at(Code::CheckNoDefaultDie, "this ruleset does not say which die \"1 die\" is", span, "which die?")
                        .help("name the die, like `d6`, or declare the ruleset's die with `die d6`"));
                        6
                    }
                }
            }
        };
        let limits = self.limits;
        if count > limits.dice_per_roll {
            self.err(
                Diag::at(
                    Code::LimitDice,
                    format!("more than {} dice in one roll", limits.dice_per_roll),
                    span,
                    "too many dice",
                )
                .help("the limit on dice in one roll is set by --max-dice-per-roll"),
            );
        }
        if sides == 0 || sides > limits.sides {
            self.err(
                Diag::at(
                    Code::LimitDice,
                    format!("a die must have 1 to {} sides", limits.sides),
                    span,
                    "no such die",
                )
                .help("the limit on a die's sides is set by --max-sides"),
            );
        }
        let kind = ExprKind::Dice { count, sides };
        (Expr { kind, span }, Ty::Int)
    }

    /// `group[key]`: a member of a group.
    fn member(
        &mut self,
        base: &ast::Expr,
        key: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (be, bt) = self.expr(base, scope, None);
        let (ke, kt) = self.expr(key, scope, Some(&Ty::Text));
        self.expect_ty(&kt, &Ty::Text, key.span);
        let ty = match &bt {
            Ty::Group(t) => (**t).clone(),
            Ty::Any => Ty::Any,
            other => {
                let d = other.describe(&self.prog);
                self.err(Diag::at(
                    Code::CheckType,
                    format!("`[...]` picks a member of a group, and this is {d}"),
                    base.span,
                    "not a group",
                ));
                Ty::Any
            }
        };
        let kind = ExprKind::Member(Box::new(be), Box::new(ke));
        (Expr { kind, span }, ty)
    }

    /// `not x`, `-x`, `+x`.
    fn unary(&mut self, op: UnOp, x: &ast::Expr, span: Span, scope: &mut Scope) -> (Expr, Ty) {
        let mk = |kind| Expr { kind, span };
        let want = if op == UnOp::Not {
            Some(Ty::Bool)
        } else {
            None
        };
        let (xe, xt) = self.expr(x, scope, want.as_ref());
        match op {
            UnOp::Not => {
                self.expect_ty(&xt, &Ty::Bool, x.span);
                (mk(ExprKind::Not(Box::new(xe))), Ty::Bool)
            }
            UnOp::Neg | UnOp::Pos => {
                if !matches!(
                    xt,
                    Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Minutes | Ty::Any | Ty::Never
                ) {
                    let d = xt.describe(&self.prog);
                    self.err(Diag::at(
                        Code::CheckType,
                        format!("cannot take the sign of {d}"),
                        x.span,
                        "not a number",
                    ));
                }
                if op == UnOp::Pos {
                    (xe, xt)
                } else {
                    (mk(ExprKind::Neg(Box::new(xe))), xt)
                }
            }
        }
    }

    /// `(a, b)`: both of one type.
    fn pair(
        &mut self,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let inner = match expected {
            Some(Ty::Pair(t)) => Some((**t).clone()),
            _ => None,
        };
        let (ae, at) = self.expr(a, scope, inner.as_ref());
        let (be, bt) = self.expr(b, scope, inner.as_ref());
        let t = self.join(&at, &bt, b.span);
        let ty = self.value_depth(Ty::Pair(Box::new(t)), span);
        let kind = ExprKind::Pair(Box::new(ae), Box::new(be));
        (Expr { kind, span }, ty)
    }

    pub(super) fn name(
        &mut self,
        n: &str,
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let mk = |kind| Expr { kind, span };
        if let Some((slot, ty)) = scope.lookup_use(n) {
            return (mk(ExprKind::Local(slot)), ty);
        }
        if let Some(Ty::Enum(e)) = expected {
            if let Some(i) = self
                .prog
                .enums
                .get(usize::from(*e))
                .and_then(|en| en.values.iter().position(|v| *v.name == *n))
            {
                return (
                    mk(ExprKind::Value(Value::Enum(
                        *e,
                        u16::try_from(i).unwrap_or(u16::MAX),
                    ))),
                    Ty::Enum(*e),
                );
            }
        }
        match self.prog.globals.get(n).cloned() {
            Some(Global::Const(id)) => {
                let ty = self.const_ty(id);
                return (mk(ExprKind::Const(id)), ty);
            }
            Some(Global::Rule(_) | Global::Table(_) | Global::Modifiers(_)) => {
                self.err(
                    Diag::at(
                        Code::CheckNotCalled,
                        format!("`{n}` needs its arguments"),
                        span,
                        "call it",
                    )
                    .help(format!("write `{n}(...)`")),
                );
                return (dummy(span), Ty::Any);
            }
            Some(Global::StateField(i)) => {
                let ty = self
                    .prog
                    .state
                    .and_then(|s| self.prog.records.get(s as usize))
                    .and_then(|r| r.shape.fields.get(i as usize))
                    .map_or(Ty::Any, |(_, t)| t.clone());
                return (mk(ExprKind::State(i)), ty);
            }
            Some(Global::EnumType(_) | Global::RecordType(_)) => {
                self.err(
                    Diag::at(
                        Code::CheckTypeAsValue,
                        format!("`{n}` is a type, not a value"),
                        span,
                        "a type",
                    )
                    .help(self.type_name_help(n)),
                );
                return (dummy(span), Ty::Any);
            }
            None => {}
        }
        self.bare_value(n, span, scope, expected)
    }

    /// What to write for a type named where a value is wanted: an enum's values.
    fn type_name_help(&self, n: &str) -> String {
        match self.prog.globals.get(n) {
            Some(Global::EnumType(e)) => {
                format!(
                    "write one of its values: {}",
                    self.values_listed(*e, &format!("{n}."))
                )
            }
            _ => format!("for one of its values write `{n}.value`"),
        }
    }

    /// A name that is no local, constant, callable, state field or type: an enum value
    /// (of one enum only), or unknown.
    fn bare_value(
        &mut self,
        n: &str,
        span: Span,
        scope: &Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let mk = |kind| Expr { kind, span };
        let values = self.prog.enum_values.get(n).cloned();
        match values.as_deref() {
            Some([(e, i)]) => (mk(ExprKind::Value(Value::Enum(*e, *i))), Ty::Enum(*e)),
            Some(many) if self.ambiguous_in_slot(n, many, expected, span) => (dummy(span), Ty::Any),
            Some(many) => {
                let types: Vec<String> = many
                    .iter()
                    .filter_map(|(e, _)| {
                        self.prog
                            .enums
                            .get(usize::from(*e))
                            .map(|en| format!("{}.{n}", en.name))
                    })
                    .collect();
                self.err(
                    Diag::at(
                        Code::CheckAmbiguous,
                        format!("`{n}` is a value of more than one enum"),
                        span,
                        "which one?",
                    )
                    .help(format!("write {}", types.join(" or "))),
                );
                (dummy(span), Ty::Any)
            }
            None if n == "needed" => {
                self.err(
                    Diag::at(
                        Code::CheckUnknownName,
                        "`needed` may only be the default of a parameter of a rule, table or modifier list",
                        span,
                        "not a parameter's default",
                    )
                    .help("write `men: 0.. = needed` in the parameters: a call may leave it out, and reading it then is an error of the question; a field or constant needs a value"),
                );
                (dummy(span), Ty::Any)
            }
            None => {
                let mut names = self.all_names();
                names.extend(scope.vars.iter().map(|(v, _, _)| v.clone()));
                let d = Diag::at(
                    Code::CheckUnknownName,
                    format!("unknown name `{n}`"),
                    span,
                    "not defined",
                );
                let help = (self.alias_alone(n))
                    .or_else(|| self.list_as_value(n))
                    .or_else(|| self.unknown_name_help(n, expected, &names));
                let d = match help {
                    Some(h) => d.help(h),
                    None => d,
                };
                self.err(d);
                (dummy(span), Ty::Any)
            }
        }
    }

    /// `Grade.line`: a value of enum `e`, named with its enum.
    fn qualified_value(&mut self, e: u16, field: &ast::Name, span: Span) -> (Expr, Ty) {
        let en = &self.prog.enums[usize::from(e)];
        match en.values.iter().position(|v| *v.name == *field.node) {
            Some(i) => (
                Expr {
                    kind: ExprKind::Value(Value::Enum(e, u16::try_from(i).unwrap_or(u16::MAX))),
                    span,
                },
                Ty::Enum(e),
            ),
            None => {
                let names: Vec<String> = en.values.iter().map(|v| v.name.to_string()).collect();
                let d = Diag::at(
                    Code::CheckUnknownValue,
                    format!("`{}` is not a value of {}", field.node, en.name),
                    field.span,
                    "no such value",
                )
                .suggest(&field.node, names.iter().map(|s| s.as_str()));
                self.err(d);
                (dummy(span), Ty::Any)
            }
        }
    }

    pub(super) fn field(
        &mut self,
        base: &ast::Expr,
        field: &ast::Name,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        // `Grade.line`: a qualified enum value.
        if let ast::ExprKind::Name(n) = &base.kind {
            if scope.lookup(n).is_none() {
                if let Some(Global::EnumType(e)) = self.prog.globals.get(n).cloned() {
                    return self.qualified_value(e, field, span);
                }
            }
        }
        // `ks.SOME_CONST`, `ks.Arm`, `ks.Arm.infantry`: names of the ruleset used as
        // `ks` (`ks.k.Arm` of one it uses as `k`).
        if let Some(path) = dotted(base) {
            let first = path.split('.').next().unwrap_or_default();
            if scope.lookup(first).is_none() {
                if let Some(Global::EnumType(e)) = self.prog.globals.get(path.as_str()).cloned() {
                    return self.qualified_value(e, field, span);
                }
                let used = format!("{path}.{}", field.node);
                if self.prog.globals.contains_key(used.as_str()) {
                    return self.name(&used, span, scope, None);
                }
                if !self.prog.globals.contains_key(first) {
                    if let Some(d) = self.used_slip(&path, field, span) {
                        self.err(d);
                        return (dummy(span), Ty::Any);
                    }
                }
            }
        }
        let (be, bt) = self.expr(base, scope, None);
        // The field's name as the record type holds it: values of the type share that
        // text, so finding the field is a pointer comparison (`Value::field`).
        let mut name = rc(&field.node);
        let mut at = u32::MAX;
        let fty = match &bt {
            Ty::Record(shape) => match shape.fields.iter().position(|(n, _)| **n == *field.node) {
                Some(i) => {
                    let (n, t) = &shape.fields[i];
                    name = n.clone();
                    at = u32::try_from(i).unwrap_or(u32::MAX);
                    t.clone()
                }
                None => {
                    let names: Vec<&str> = shape.fields.iter().map(|(n, _)| &**n).collect();
                    let d = Diag::at(
                        Code::CheckUnknownField,
                        format!("{} has no field `{}`", bt.describe(&self.prog), field.node),
                        field.span,
                        "no such field",
                    )
                    .suggest(&field.node, names);
                    self.err(d);
                    Ty::Any
                }
            },
            // A member of a group by its name in the state file: known when adjudicated.
            Ty::Group(t) => {
                self.mark_member(span);
                (**t).clone()
            }
            Ty::Pair(t) => match field.node.as_str() {
                "first" | "second" => (**t).clone(),
                other => {
                    let d = Diag::at(
                        Code::CheckUnknownField,
                        format!("a pair has parts `first` and `second`, not `{other}`"),
                        field.span,
                        "no such part",
                    )
                    .suggest(other, ["first", "second"]);
                    self.err(d);
                    Ty::Any
                }
            },
            Ty::Any => Ty::Any,
            other => {
                let d = other.describe(&self.prog);
                self.err(Diag::at(
                    Code::CheckUnknownField,
                    format!("{d} has no fields"),
                    field.span,
                    "no fields here",
                ));
                Ty::Any
            }
        };
        (
            Expr {
                kind: ExprKind::Field(Box::new(be), name, at),
                span,
            },
            fty,
        )
    }

    pub(super) fn record(
        &mut self,
        fields: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let declared = match expected {
            Some(Ty::Record(shape)) if shape.name.is_some() => self
                .prog
                .records
                .iter()
                .position(|r| r.shape.name == shape.name),
            _ => None,
        };
        let mut seen: Vec<&str> = Vec::new();
        for (n, _) in fields {
            if seen.contains(&n.node.as_str()) {
                self.err(Diag::at(
                    Code::CheckDuplicate,
                    format!("field `{}` given twice", n.node),
                    n.span,
                    "again",
                ));
            }
            seen.push(&n.node);
        }
        let Some(rid) = declared else {
            let mut out = Vec::new();
            let mut tys = Vec::new();
            for (n, e) in fields {
                let (fe, ft) = self.expr(e, scope, None);
                out.push((rc(&n.node), fe));
                tys.push((rc(&n.node), ft));
            }
            return (
                Expr {
                    kind: ExprKind::Record(out),
                    span,
                },
                self.value_depth(Ty::Record(Rc::new(RecordShape::new(None, tys))), span),
            );
        };
        let info = self.prog.records[rid].clone();
        for (n, _) in fields {
            if !info.shape.fields.iter().any(|(f, _)| **f == *n.node) {
                let names: Vec<&str> = info.shape.fields.iter().map(|(f, _)| &**f).collect();
                let d = Diag::at(
                    Code::CheckUnknownField,
                    format!("{} has no field `{}`", info.name, n.node),
                    n.span,
                    "no such field",
                )
                .suggest(&n.node, names);
                self.err(d);
            }
        }
        let mut out = Vec::new();
        for (i, (fname, fty)) in info.shape.fields.iter().enumerate() {
            match fields.iter().find(|(n, _)| *n.node == **fname) {
                Some((_, e)) => {
                    let outer = self.slot.replace(Slot {
                        span: e.span,
                        subject: format!("the field `{fname}` of {}", info.name),
                        written: super::advice::Written::of(e, self.sources),
                    });
                    let (fe, ft) = self.expr(e, scope, Some(fty));
                    self.expect_ty(&ft, fty, e.span);
                    self.slot = outer;
                    let range = info.ranges.get(i).copied().flatten();
                    out.push((
                        fname.clone(),
                        self.ranged(fe, range, format!("field `{fname}` of {}", info.name)),
                    ));
                }
                None => match info.has_default.get(i) {
                    Some(true) => out.push((
                        fname.clone(),
                        Expr {
                            kind: ExprKind::Default {
                                of: DefaultOf::Record(idx(rid)),
                                index: idx(i),
                            },
                            span,
                        },
                    )),
                    _ => {
                        self.err(
                            Diag::at(
                                Code::CheckMissingField,
                                format!("{} needs `{fname}` (it has no default)", info.name),
                                span,
                                format!("no `{fname}`"),
                            )
                            .help(format!(
                                "give it here (`{fname}: ...`), or declare a default for it in `record {}`",
                                info.name
                            )),
                        );
                    }
                },
            }
        }
        (
            Expr {
                kind: ExprKind::Record(out),
                span,
            },
            Ty::Record(info.shape.clone()),
        )
    }

    /// `ChargeResult { cavalry_killed: 2 }`: a record of the declared type named, the
    /// fields left out taking their defaults.
    fn typed_record(
        &mut self,
        name: &ast::Name,
        fields: &[(ast::Name, ast::Expr)],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let shape = match self.prog.globals.get(&name.node) {
            Some(Global::RecordType(r)) => {
                self.prog.records.get(*r as usize).map(|i| i.shape.clone())
            }
            _ => None,
        };
        if let Some(shape) = shape {
            return self.record(fields, span, scope, Some(&Ty::Record(shape)));
        }
        // The declared records (the game state's own is no type to name).
        let records: Vec<String> = (self.prog.records.iter().enumerate())
            .filter(|(i, _)| self.prog.state != u32::try_from(*i).ok())
            .map(|(_, r)| r.name.clone())
            .collect();
        let known = self.prog.globals.contains_key(&name.node);
        let is_enum = matches!(self.prog.globals.get(&name.node), Some(Global::EnumType(_)));
        let d = Diag::at(
            if known {
                Code::CheckType
            } else {
                Code::CheckUnknownName
            },
            format!("`{}` is not a record type", name.node),
            name.span,
            if known {
                "not a record"
            } else {
                "no such record"
            },
        );
        let d = if is_enum {
            d.help(self.type_name_help(&name.node))
        } else if records.is_empty() {
            d.help("declare it with `record NAME { field: Type, ... }`, or write the record without a name: `{ field: value, ... }`")
        } else {
            d.suggest(&name.node, records.iter().map(String::as_str))
        };
        self.err(d);
        // The fields are still checked, for their own mistakes.
        for (_, e) in fields {
            self.expr(e, scope, None);
        }
        (dummy(span), Ty::Any)
    }

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        // `{ a: 1 } == f(x)`: the literal is read as the declared record on the other side
        // (its defaults filled), so that side is checked first. Evaluated left to right.
        if matches!(op, BinOp::Eq | BinOp::Ne) && matches!(a.kind, ast::ExprKind::Record(_)) {
            let (be, bt) = self.expr(b, scope, None);
            let hint = declared_record(&bt);
            let (ae, at) = self.expr(a, scope, hint.as_ref());
            let ty = self.binary_ty(op, &at, &bt, a.span, b.span, span);
            let kind = ExprKind::Binary(op, Box::new(ae), Box::new(be));
            return (Expr { kind, span }, ty);
        }
        let (ae, at) = match op {
            BinOp::And | BinOp::Or => self.expr(a, scope, Some(&Ty::Bool)),
            _ => self.expr(a, scope, None),
        };
        let hint = match (&at, op) {
            (Ty::Enum(_), BinOp::Eq | BinOp::Ne) => Some(at.clone()),
            (Ty::Record(_), BinOp::Eq | BinOp::Ne) => declared_record(&at),
            (_, BinOp::And | BinOp::Or) => Some(Ty::Bool),
            _ => None,
        };
        let (be, bt) = self.expr(b, scope, hint.as_ref());
        let ty = self.binary_ty(op, &at, &bt, a.span, b.span, span);
        (
            Expr {
                kind: ExprKind::Binary(op, Box::new(ae), Box::new(be)),
                span,
            },
            ty,
        )
    }

    /// Refuses a record or pair nested deeper than [`MAX_VALUE_DEPTH`].
    pub(super) fn value_depth(&mut self, ty: Ty, span: Span) -> Ty {
        if ty.depth() > MAX_VALUE_DEPTH || ty.size() > MAX_VALUE_SIZE {
            self.err(Diag::at(
                Code::LimitValueDepth,
                format!("a record or pair nested more than {MAX_VALUE_DEPTH} deep or holding more than {MAX_VALUE_SIZE} values"),
                span,
                "too large",
            ));
            return Ty::Any;
        }
        ty
    }
}

/// A declared record type, which an untyped record literal compared with it is read as
/// (its defaults filled in); `None` for any other type.
fn declared_record(t: &Ty) -> Option<Ty> {
    match t {
        Ty::Record(shape) if shape.record.is_some() || shape.name.is_some() => Some(t.clone()),
        _ => None,
    }
}

/// `ks.k.Arm` written as fields of a name: the names joined by dots.
fn dotted(e: &ast::Expr) -> Option<String> {
    match &e.kind {
        ast::ExprKind::Name(n) => Some(n.clone()),
        ast::ExprKind::Field(b, f) => dotted(b).map(|p| format!("{p}.{}", f.node)),
        _ => None,
    }
}
