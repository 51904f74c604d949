//! Expressions and blocks: names, fields, records, operators.

use super::*;

impl Checker<'_> {
    pub(super) fn block(
        &mut self,
        b: &ast::Block,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let mark = scope.vars.len();
        let mut stmts = Vec::new();
        let mut lets: Vec<(u32, ast::Name)> = Vec::new();
        for s in &b.stmts {
            match s {
                ast::Stmt::Let(name, ty, value) => {
                    let (declared, range) = match ty.as_ref().map(|t| self.ty(t)) {
                        Some((d, r)) => (Some(d), r),
                        None => (None, None),
                    };
                    let (e, t) = self.expr(value, scope, declared.as_ref());
                    let e = self.ranged(e, range, format!("`{}`", name.node));
                    let t = match declared {
                        Some(d) => {
                            self.expect_ty(&t, &d, value.span);
                            d
                        }
                        None => t,
                    };
                    let slot = scope.bind(&name.node, t);
                    lets.push((slot, name.clone()));
                    stmts.push(Stmt::Let(slot, e));
                }
                ast::Stmt::Note(n) => stmts.push(Stmt::Note(rc(&n.node))),
                ast::Stmt::Guard(e) => {
                    let (e, _) = self.guard(e, scope);
                    stmts.push(Stmt::Guard(e));
                }
                ast::Stmt::Set { target, op, value } => {
                    if let Some(set) = self.set(target, *op, value, scope) {
                        stmts.push(Stmt::Set(Box::new(set)));
                    }
                }
            }
        }
        let (v, t) = self.expr(&b.value, scope, expected);
        for (slot, name) in lets {
            if !scope.is_used(slot) && !name.node.starts_with('_') {
                self.err(
                    Diag::at("umpire::check::unused_let", format!("`{}` is worked out but never used", name.node), name.span, "unused")
                        .help(format!("use it, remove it, or name it `_{}` if it is kept on purpose (a die rolled, say)", name.node))
                        .warning(),
                );
            }
        }
        scope.vars.truncate(mark);
        if stmts.is_empty() {
            return (v, t);
        }
        (
            Expr {
                kind: ExprKind::Block(stmts, Box::new(v)),
                span: b.span,
            },
            t,
        )
    }

    /// The arms of a `match` (or a `reading`) on a value of type `st`: one pattern each,
    /// the values joined, and every value of an enum covered (or an `otherwise`).
    #[allow(clippy::too_many_arguments)]
    fn arms(
        &mut self,
        rows: &[ast::Row],
        st: &Ty,
        span: Span,
        kind: &str,
        missing: &str,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Vec<(Pat, Expr, Rc<str>)>, Ty) {
        let mut arms = Vec::new();
        let mut ty = Ty::Never;
        for row in rows {
            if row.patterns.len() != 1 {
                self.err(Diag::at(
                    "umpire::check::row_keys",
                    format!("a {kind} arm has one pattern"),
                    row.span,
                    "use `,` between alternatives",
                ));
                continue;
            }
            let pat = self.pattern(&row.patterns[0], st);
            let (ce, ct) = self.expr(&row.cell, scope, expected);
            ty = self.join(&ty, &ct, row.cell.span);
            let text = self
                .prog
                .sources
                .snippet(row.span)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            arms.push((pat, ce, rc(&text)));
        }
        let key = ParamInfo {
            name: rc("value"),
            ty: st.clone(),
            range: None,
            span,
            default: None,
            has_default: false,
        };
        let pats: Vec<Vec<Pat>> = arms.iter().map(|(p, _, _)| vec![p.clone()]).collect();
        self.enum_coverage(
            missing,
            std::slice::from_ref(&key),
            pats.iter().map(Vec::as_slice),
            span,
        );
        (arms, ty)
    }

    /// An `if` used as a statement: branches may be of any type; no `else` needed.
    pub(super) fn guard(&mut self, e: &ast::Expr, scope: &mut Scope) -> (Expr, Ty) {
        let ast::ExprKind::If(arms, otherwise) = &e.kind else {
            return self.expr(e, scope, None);
        };
        let mut out = Vec::new();
        // A guard stops the rule (a refusal, a gap) or lets it go on: a value from one of
        // its branches would be thrown away, so it is an error, not a silent no-op.
        let mut unused: Vec<Span> = Vec::new();
        for (c, b) in arms {
            let (ce, ct) = self.expr(c, scope, Some(&Ty::Bool));
            self.expect_ty(&ct, &Ty::Bool, c.span);
            let (be, bt) = self.block(b, scope, None);
            if !matches!(bt, Ty::Never) {
                unused.push(b.value.span);
            }
            out.push((ce, be));
        }
        let other = otherwise.as_ref().map(|b| {
            let (be, bt) = self.block(b, scope, None);
            if !matches!(bt, Ty::Never) {
                unused.push(b.value.span);
            }
            Box::new(be)
        });
        if let Some((&first, rest)) = unused.split_first() {
            let mut d = Diag::at("umpire::check::unused_value", "this `if` gives a value that is not used", first, "value not used")
                .help("an `if` before a block's last line may only `refuse` or say `not given`; to choose a value, make the `if` the last line, with an `else`");
            for &span in rest {
                d = d.label(span, "value not used");
            }
            self.err(d);
        }
        (
            Expr {
                kind: ExprKind::If(out, other),
                span: e.span,
            },
            Ty::Any,
        )
    }

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
                mk(ExprKind::Value(Value::Num(*r))),
                if r.is_integer() { Ty::Int } else { Ty::Num },
            ),
            ast::ExprKind::Length(r, unit) => {
                let inches = match unit {
                    LengthUnit::Inches => Some(*r),
                    LengthUnit::Feet => r.checked_mul(&Rational::from_integer(12)),
                };
                match inches {
                    Some(inches) => (
                        mk(ExprKind::Value(Value::Length(Length {
                            inches,
                            unit: *unit,
                        }))),
                        Ty::Length,
                    ),
                    None => {
                        self.err(Diag::at(
                            "umpire::eval::overflow",
                            "this length is too large to hold exactly",
                            span,
                            "too large",
                        ));
                        (dummy(span), Ty::Length)
                    }
                }
            }
            ast::ExprKind::Time(r) => (mk(ExprKind::Value(Value::Time(*r))), Ty::Time),
            ast::ExprKind::Bool(b) => (mk(ExprKind::Value(Value::Bool(*b))), Ty::Bool),
            ast::ExprKind::Text(t) => (mk(ExprKind::Value(Value::Text(rc(t)))), Ty::Text),
            ast::ExprKind::Dice { count, sides } => {
                let sides = match sides {
                    Some(s) => *s,
                    None => match self.prog.default_die {
                        Some(s) => s,
                        None => {
                            self.err(Diag::at("umpire::check::no_default_die", "this ruleset does not say which die \"1 die\" is", span, "which die?")
                                .help("name the die, like `d6`, or declare the ruleset's die with `die d6`"));
                            6
                        }
                    },
                };
                let limits = crate::limits::current();
                if *count > limits.dice_per_roll {
                    self.err(
                        Diag::at(
                            "umpire::limit::dice",
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
                            "umpire::limit::dice",
                            format!("a die must have 1 to {} sides", limits.sides),
                            span,
                            "no such die",
                        )
                        .help("the limit on a die's sides is set by --max-sides"),
                    );
                }
                (
                    mk(ExprKind::Dice {
                        count: *count,
                        sides,
                    }),
                    Ty::Int,
                )
            }
            ast::ExprKind::Name(n) => self.name(n, span, scope, expected),
            ast::ExprKind::Member(base, key) => {
                let (be, bt) = self.expr(base, scope, None);
                let (ke, kt) = self.expr(key, scope, Some(&Ty::Text));
                self.expect_ty(&kt, &Ty::Text, key.span);
                let ty = match &bt {
                    Ty::Group(t) => (**t).clone(),
                    Ty::Any => Ty::Any,
                    other => {
                        let d = other.describe(self.prog);
                        self.err(Diag::at(
                            "umpire::check::type",
                            format!("`[...]` picks a member of a group, and this is {d}"),
                            base.span,
                            "not a group",
                        ));
                        Ty::Any
                    }
                };
                (mk(ExprKind::Member(Box::new(be), Box::new(ke))), ty)
            }
            ast::ExprKind::Field(base, field) => self.field(base, field, span, scope),
            ast::ExprKind::Call(name, args) => self.call(name, args, span, scope),
            ast::ExprKind::Unary(op, x) => {
                let want = if *op == UnOp::Not {
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
                            Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Any | Ty::Never
                        ) {
                            let d = xt.describe(self.prog);
                            self.err(Diag::at(
                                "umpire::check::type",
                                format!("cannot take the sign of {d}"),
                                x.span,
                                "not a number",
                            ));
                        }
                        if *op == UnOp::Pos {
                            (xe, xt)
                        } else {
                            (mk(ExprKind::Neg(Box::new(xe))), xt)
                        }
                    }
                }
            }
            ast::ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span, scope),
            ast::ExprKind::If(arms, otherwise) => {
                let Some(otherwise) = otherwise else {
                    self.err(Diag::at("umpire::check::if_without_else", "this `if` has no `else`, so it gives no value when its condition is false", span, "no `else`")
                        .help("add `else { ... }`; an `if` without `else` may only stand as a guard before a block's last line"));
                    return (dummy(span), Ty::Any);
                };
                let mut out = Vec::new();
                let mut ty = Ty::Never;
                for (c, b) in arms {
                    let (ce, ct) = self.expr(c, scope, Some(&Ty::Bool));
                    self.expect_ty(&ct, &Ty::Bool, c.span);
                    let (be, bt) = self.block(b, scope, expected);
                    ty = self.join(&ty, &bt, b.value.span);
                    out.push((ce, be));
                }
                let (oe, ot) = self.block(otherwise, scope, expected);
                ty = self.join(&ty, &ot, otherwise.value.span);
                (mk(ExprKind::If(out, Some(Box::new(oe)))), ty)
            }
            ast::ExprKind::Match(scrutinee, rows) => {
                let (se, st) = self.expr(scrutinee, scope, None);
                // Every value of an enum (or true and false) has an arm, or an `otherwise`.
                let (arms, ty) = self.arms(
                    rows,
                    &st,
                    scrutinee.span,
                    "`match`",
                    "this `match` has no arm",
                    scope,
                    expected,
                );
                (mk(ExprKind::Match(Box::new(se), arms)), ty)
            }
            ast::ExprKind::Reading(name, rows) => {
                let found = self
                    .prog
                    .interpretations
                    .iter()
                    .position(|i| *i.name == *name.node);
                let Some(i) = found else {
                    let names: Vec<String> = self
                        .prog
                        .interpretations
                        .iter()
                        .map(|i| i.name.to_string())
                        .collect();
                    self.err(
                        Diag::at(
                            "umpire::check::unknown_name",
                            format!("no interpretation `{}`", name.node),
                            name.span,
                            "not declared",
                        )
                        .suggest(&name.node, names.iter().map(String::as_str))
                        .help("declare it: `interpretation NAME \"what is ambiguous\" { reading \"words\" default, ... }`"),
                    );
                    return (dummy(span), Ty::Any);
                };
                // A `match` on the reading chosen.
                let st = Ty::Enum(self.prog.interpretations[i].readings);
                let what = format!("this `reading {}` has no arm", name.node);
                let (arms, ty) =
                    self.arms(rows, &st, name.span, "`reading`", &what, scope, expected);
                let scrutinee = Expr {
                    kind: ExprKind::Chosen(idx(i)),
                    span: name.span,
                };
                (mk(ExprKind::Match(Box::new(scrutinee), arms)), ty)
            }
            ast::ExprKind::Record(fields) => self.record(fields, span, scope, expected),
            ast::ExprKind::Pair(a, b) => {
                let inner = match expected {
                    Some(Ty::Pair(t)) => Some((**t).clone()),
                    _ => None,
                };
                let (ae, at) = self.expr(a, scope, inner.as_ref());
                let (be, bt) = self.expr(b, scope, inner.as_ref());
                let t = self.join(&at, &bt, b.span);
                let ty = self.value_depth(Ty::Pair(Box::new(t)), span);
                (mk(ExprKind::Pair(Box::new(ae), Box::new(be))), ty)
            }
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
            ast::ExprKind::Block(b) => self.block(b, scope, expected),
        }
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
                        "umpire::check::not_called",
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
                        "umpire::check::type_as_value",
                        format!("`{n}` is a type, not a value"),
                        span,
                        "a type",
                    )
                    .help(format!("for one of its values write `{n}.value`")),
                );
                return (dummy(span), Ty::Any);
            }
            None => {}
        }
        match self.prog.enum_values.get(n).map(|v| v.as_slice()) {
            Some([(e, i)]) => (mk(ExprKind::Value(Value::Enum(*e, *i))), Ty::Enum(*e)),
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
                        "umpire::check::ambiguous",
                        format!("`{n}` is a value of more than one enum"),
                        span,
                        "which one?",
                    )
                    .help(format!("write {}", types.join(" or "))),
                );
                (dummy(span), Ty::Any)
            }
            None => {
                let mut names = self.all_names();
                names.extend(scope.vars.iter().map(|(v, _, _)| v.clone()));
                let d = Diag::at(
                    "umpire::check::unknown_name",
                    format!("unknown name `{n}`"),
                    span,
                    "not defined",
                );
                // Yes and no are written `true` and `false`.
                let d = match n.to_lowercase().as_str() {
                    "yes" | "no" | "true" | "false" | "y" | "n" => {
                        d.help("yes and no are written `true` and `false`")
                    }
                    _ => d.suggest(n, names.iter().map(|s| s.as_str())),
                };
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
                    let en = &self.prog.enums[usize::from(e)];
                    return match en.values.iter().position(|v| *v.name == *field.node) {
                        Some(i) => (
                            Expr {
                                kind: ExprKind::Value(Value::Enum(
                                    e,
                                    u16::try_from(i).unwrap_or(u16::MAX),
                                )),
                                span,
                            },
                            Ty::Enum(e),
                        ),
                        None => {
                            let names: Vec<String> =
                                en.values.iter().map(|v| v.name.to_string()).collect();
                            let d = Diag::at(
                                "umpire::check::unknown_value",
                                format!("`{}` is not a value of {}", field.node, en.name),
                                field.span,
                                "no such value",
                            )
                            .suggest(&field.node, names.iter().map(|s| s.as_str()));
                            self.err(d);
                            (dummy(span), Ty::Any)
                        }
                    };
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
                        "umpire::check::unknown_field",
                        format!("{} has no field `{}`", bt.describe(self.prog), field.node),
                        field.span,
                        "no such field",
                    )
                    .suggest(&field.node, names);
                    self.err(d);
                    Ty::Any
                }
            },
            // A member of a group by its name in the state file: known when adjudicated.
            Ty::Group(t) => (**t).clone(),
            Ty::Pair(t) => match field.node.as_str() {
                "first" | "second" => (**t).clone(),
                other => {
                    let d = Diag::at(
                        "umpire::check::unknown_field",
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
                let d = other.describe(self.prog);
                self.err(Diag::at(
                    "umpire::check::unknown_field",
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
                    "umpire::check::duplicate",
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
                    "umpire::check::unknown_field",
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
                    let (fe, ft) = self.expr(e, scope, Some(fty));
                    self.expect_ty(&ft, fty, e.span);
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
                        self.err(Diag::at(
                            "umpire::check::missing_field",
                            format!("field `{fname}` of {} is missing", info.name),
                            span,
                            format!("no `{fname}`"),
                        ));
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

    pub(super) fn binary(
        &mut self,
        op: BinOp,
        a: &ast::Expr,
        b: &ast::Expr,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let (ae, at) = match op {
            BinOp::And | BinOp::Or => self.expr(a, scope, Some(&Ty::Bool)),
            _ => self.expr(a, scope, None),
        };
        let hint = match (&at, op) {
            (Ty::Enum(_), BinOp::Eq | BinOp::Ne) => Some(at.clone()),
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
                "umpire::limit::value_depth",
                format!("a record or pair nested more than {MAX_VALUE_DEPTH} deep or holding more than {MAX_VALUE_SIZE} values"),
                span,
                "too large",
            ));
            return Ty::Any;
        }
        ty
    }

    /// `set PATH op VALUE`: PATH must be a path into the game state (a state field, then
    /// `.field` and `[name]` steps).
    pub(super) fn set(
        &mut self,
        target: &ast::Expr,
        op: ast::SetOp,
        value: &ast::Expr,
        scope: &mut Scope,
    ) -> Option<SetEffect> {
        let (_, target_ty) = self.expr(target, scope, None);
        let mut steps = Vec::new();
        let mut at = target;
        let root = loop {
            match &at.kind {
                ast::ExprKind::Field(base, name) => {
                    steps.push(PathStep::Field(rc(&name.node)));
                    at = base;
                }
                ast::ExprKind::Member(base, key) => {
                    let (ke, _) = self.expr(key, scope, Some(&Ty::Text));
                    steps.push(PathStep::Member(ke));
                    at = base;
                }
                ast::ExprKind::Name(n) if scope.lookup(n).is_none() => {
                    match self.prog.globals.get(n) {
                        Some(Global::StateField(i)) => break Some(*i),
                        _ => break None,
                    }
                }
                _ => break None,
            }
        };
        let Some(root) = root else {
            self.err(
                Diag::at("umpire::check::set_target", "`set` changes the game state: its target is a path into the state", target.span, "not a path into the state")
                    .help("write the state's own names: `set units.old_guard.men -= 7`, `set units[name].disordered = true`, `set move += 1`"),
            );
            return None;
        };
        steps.reverse();
        // The range of the field set, when its record declares one.
        let range = self.path_range(root, &steps);
        let (ve, vt) = self.expr(value, scope, Some(&target_ty));
        match op {
            ast::SetOp::Assign => {
                self.expect_ty(&vt, &target_ty, value.span);
            }
            ast::SetOp::Add | ast::SetOp::Sub => {
                let bop = if op == ast::SetOp::Add {
                    BinOp::Add
                } else {
                    BinOp::Sub
                };
                let t = self.binary_ty(
                    bop,
                    &target_ty,
                    &vt,
                    target.span,
                    value.span,
                    target.span.to(value.span),
                );
                self.expect_ty(&t, &target_ty, value.span);
            }
        }
        Some(SetEffect {
            root,
            path: steps,
            op,
            value: ve,
            range,
            span: target.span.to(value.span),
        })
    }

    /// The declared range at the end of a state path, if its last step is a ranged field.
    fn path_range(&self, root: u32, steps: &[PathStep]) -> Option<IntRange> {
        let state = self.prog.records.get(self.prog.state? as usize)?;
        let mut ty = state.shape.fields.get(root as usize)?.1.clone();
        let mut range = state.ranges.get(root as usize).copied().flatten();
        for step in steps {
            match (step, &ty) {
                (PathStep::Field(name), Ty::Record(shape)) => {
                    let info = match shape.record {
                        Some(id) => self.prog.records.get(id as usize)?,
                        None => self
                            .prog
                            .records
                            .iter()
                            .find(|r| r.shape.name == shape.name)?,
                    };
                    let i = info.shape.fields.iter().position(|(n, _)| n == name)?;
                    range = info.ranges.get(i).copied().flatten();
                    ty = info.shape.fields[i].1.clone();
                }
                // `units[name]`, or `units.old_guard`: a member of a group.
                (PathStep::Member(_) | PathStep::Field(_), Ty::Group(member)) => {
                    range = None;
                    ty = (**member).clone();
                }
                _ => return None,
            }
        }
        range
    }
}
