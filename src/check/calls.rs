//! Calls: rules, tables and modifier lists with positional and named arguments; built-ins.

use super::*;
use crate::diagnostic::closest;
use crate::diagnostic::Code;

impl Checker<'_> {
    pub(super) fn call(
        &mut self,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let mk = |callee, args| Expr {
            kind: ExprKind::Call(callee, args),
            span,
        };
        if let Some((_, b)) = Builtin::ALL.iter().find(|(n, _)| *n == name.node) {
            let defined = matches!(
                self.prog.globals.get(&name.node),
                Some(Global::Rule(_) | Global::Table(_) | Global::Modifiers(_))
            );
            if !(b.gives_way() && defined) {
                return self.builtin(*b, name, args, span, scope);
            }
        }
        let (callee, what) = match self.prog.globals.get(&name.node).cloned() {
            Some(Global::Rule(id)) => (Callee::Rule(id), "rule"),
            Some(Global::Table(id)) => (Callee::Table(id), "table"),
            Some(Global::Modifiers(id)) => (Callee::Modifiers(id), "modifier list"),
            Some(_) => {
                self.err(Diag::at(
                    Code::CheckNotCallable,
                    format!("`{}` cannot be called", name.node),
                    name.span,
                    "not a rule, table or modifier list",
                ));
                return (dummy(span), Ty::Any);
            }
            None => {
                let mut names: Vec<String> = self
                    .prog
                    .callable_names()
                    .into_iter()
                    .filter(|_| self.errors.len() < MAX_ERRORS)
                    .collect::<Vec<_>>()
                    .iter()
                    .map(|s| s.to_string())
                    .collect();
                names.extend(Builtin::ALL.iter().map(|(n, _)| n.to_string()));
                let d = Diag::at(
                    Code::CheckUnknownName,
                    format!("unknown rule, table or modifier list `{}`", name.node),
                    name.span,
                    "not defined",
                )
                .suggest(&name.node, names.iter().map(|s| s.as_str()));
                let d = match self.prog.left_out.get(&name.node) {
                    Some(why) => d.help(why.clone()),
                    None => d,
                };
                self.err(d);
                for a in args {
                    self.expr(&a.value, scope, None);
                }
                return (dummy(span), Ty::Any);
            }
        };
        let params = self
            .prog
            .signature(callee)
            .map_or(Vec::new(), |s| s.params.clone());
        let ordered = self.bind_args(callee, &name.node, what, &params, args, span, scope);
        let ret = match callee {
            Callee::Rule(id) => self.rule_ret(id, span),
            Callee::Table(id) => self.table_ret(id),
            Callee::Modifiers(id) => self.modifiers_ret(id),
            Callee::Builtin(_) => Ty::Any,
        };
        (mk(callee, ordered), ret)
    }

    /// `instead CALL "reason"`: the call checked as any call of a rule, table or modifier
    /// list (its result type not asked for: it is not made), its arguments rolling no dice.
    pub(super) fn instead(
        &mut self,
        call: &ast::Expr,
        reason: &str,
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let ast::ExprKind::Call(name, args) = &call.kind else {
            return (dummy(span), Ty::Never);
        };
        let (callee, what) = match self.prog.globals.get(&name.node).cloned() {
            Some(Global::Rule(id)) => (Callee::Rule(id), "rule"),
            Some(Global::Table(id)) => (Callee::Table(id), "table"),
            Some(Global::Modifiers(id)) => (Callee::Modifiers(id), "modifier list"),
            _ => {
                // The error of any other call (an unknown name, a builtin) is the same.
                let (_, _) = self.call(name, args, call.span, scope);
                if Builtin::ALL.iter().any(|(n, _)| *n == name.node) {
                    self.err(Diag::at(
                        Code::CheckNotCallable,
                        format!("`instead` names a rule, table or modifier list of the ruleset, not the built-in `{}`", name.node),
                        name.span,
                        "a built-in",
                    ));
                }
                return (dummy(span), Ty::Never);
            }
        };
        let params = self
            .prog
            .signature(callee)
            .map_or(Vec::new(), |s| s.params.clone());
        let args = self.bind_args(callee, &name.node, what, &params, args, call.span, scope);
        for a in &args {
            if let Some((at, label)) = super::definitions::dice_in(&self.prog, a) {
                self.err(
                    Diag::at(
                        Code::CheckInsteadDice,
                        format!("the arguments of `instead {}(...)` roll dice", name.node),
                        at,
                        label,
                    )
                    .help("the call is not made, only shown to the umpire: give it values worked out without dice"),
                );
            }
        }
        let kind = ExprKind::Instead {
            callee,
            args,
            reason: rc(reason),
        };
        (Expr { kind, span }, Ty::Never)
    }

    /// Matches positional and named arguments to parameters, checking each.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bind_args(
        &mut self,
        callee: Callee,
        fname: &str,
        what: &str,
        params: &[ParamInfo],
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> Vec<Expr> {
        let mut slots: Vec<Option<Expr>> = vec![None; params.len()];
        let mut positional = 0usize;
        let mut named_seen = false;
        // Parameters an unknown argument name was a misspelling of.
        let mut meant: Vec<usize> = Vec::new();
        for a in args {
            let i = match &a.name {
                None => {
                    if named_seen {
                        self.err(Diag::at(
                            Code::CheckArgument,
                            "a positional argument after a named one",
                            a.value.span,
                            "name this argument",
                        ));
                    }
                    positional += 1;
                    if positional > params.len() {
                        self.err(Diag::at(
                            Code::CheckArgument,
                            format!("{what} `{fname}` takes {} argument(s)", params.len()),
                            a.value.span,
                            "one too many",
                        ));
                        self.expr(&a.value, scope, None);
                        continue;
                    }
                    positional - 1
                }
                Some(n) => {
                    named_seen = true;
                    match params.iter().position(|p| *p.name == *n.node) {
                        Some(i) => i,
                        None => {
                            // The parameter this was meant for is not reported missing too.
                            meant.extend(self.unknown_param(what, fname, params, n));
                            self.expr(&a.value, scope, None);
                            continue;
                        }
                    }
                }
            };
            let p = &params[i];
            let Some(e) = self.argument(fname, i, p, a, scope) else {
                slots[i] = Some(dummy(a.value.span));
                continue;
            };
            if slots[i].is_some() {
                self.err(Diag::at(
                    Code::CheckArgument,
                    format!("`{}` is given twice", p.name),
                    a.value.span,
                    "given again",
                ));
            }
            self.written_in_range(&e, p.range, &format!("`{}`", p.name));
            slots[i] = Some(e);
        }
        for (j, (p, slot)) in params.iter().zip(slots.iter_mut()).enumerate() {
            if slot.is_none() && p.has_default {
                *slot = Some(Expr {
                    kind: ExprKind::Default {
                        of: DefaultOf::Param(callee),
                        index: idx(j),
                    },
                    span,
                });
            }
        }
        let missing: Vec<&str> = params
            .iter()
            .zip(&slots)
            .enumerate()
            .filter(|(j, (_, s))| s.is_none() && !meant.contains(j))
            .map(|(_, (p, _))| &*p.name)
            .collect();
        if !missing.is_empty() {
            self.missing_args(what, fname, params, &missing, span);
        }
        slots
            .into_iter()
            .map(|s| s.unwrap_or_else(|| dummy(span)))
            .collect()
    }

    /// Checks the argument `a` given for parameter `p` (the `i`th) of `fname`, errors
    /// naming the parameter; `None` when it was reported as the rulebook's words
    /// unquoted.
    fn argument(
        &mut self,
        fname: &str,
        i: usize,
        p: &ParamInfo,
        a: &ast::Arg,
        scope: &mut Scope,
    ) -> Option<Expr> {
        if let Ty::Enum(e) = p.ty {
            if self.unquoted_words(e, &a.value) {
                return None;
            }
        }
        let subject = match &a.name {
            None => format!(
                "the {} argument of `{fname}`, `{}`,",
                super::advice::ordinal(i + 1),
                p.name
            ),
            Some(_) => format!("the argument `{}` of `{fname}`", p.name),
        };
        let outer = self.slot.replace(Slot {
            span: a.value.span,
            subject,
            written: super::advice::Written::of(&a.value, self.sources),
        });
        let (e, t) = self.expr(&a.value, scope, Some(&p.ty));
        self.expect_ty(&t, &p.ty, a.value.span);
        self.slot = outer;
        Some(e)
    }

    /// The error for an argument named `n` that is no parameter of `fname`; the parameter
    /// it was probably meant for, if one is close.
    fn unknown_param(
        &mut self,
        what: &str,
        fname: &str,
        params: &[ParamInfo],
        n: &ast::Name,
    ) -> Option<usize> {
        let names: Vec<&str> = params.iter().map(|p| &*p.name).collect();
        let meant = closest(&n.node, names.iter().copied())
            .and_then(|best| params.iter().position(|p| *p.name == *best));
        let d = Diag::at(
            Code::CheckArgument,
            format!("{what} `{fname}` has no parameter `{}`", n.node),
            n.span,
            "unknown parameter",
        )
        .suggest(&n.node, names);
        self.err(d);
        meant
    }

    /// The error for a call of `fname` without the arguments `missing`.
    fn missing_args(
        &mut self,
        what: &str,
        fname: &str,
        params: &[ParamInfo],
        missing: &[&str],
        span: Span,
    ) {
        let list: Vec<String> = params
            .iter()
            .filter(|p| p.default.is_none())
            .map(|p| format!("{}: ...", p.name))
            .collect();
        self.err(
            Diag::at(
                Code::CheckArgument,
                format!(
                    "{what} `{fname}` is missing {}",
                    missing
                        .iter()
                        .map(|m| format!("`{m}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                span,
                "missing arguments",
            )
            .help(format!("call it as {fname}({})", list.join(", "))),
        );
    }

    /// A call of a builtin (`floor`, `min`, `dice`, ...): its arguments, unnamed and as many
    /// as it takes.
    pub(super) fn builtin(
        &mut self,
        b: Builtin,
        name: &ast::Name,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        if matches!(b, Builtin::Reroll | Builtin::Explode) {
            return self.changed_dice(b, args, span, scope);
        }
        if b.is_pool() {
            return self.pool(b, args, span, scope);
        }
        if matches!(b, Builtin::Shift | Builtin::Place) {
            return self.ordered_builtin(b, name, args, span, scope);
        }
        if b == Builtin::Supplied {
            return self.supplied(args, span, scope);
        }
        self.unnamed_args(name, args);
        let checked: Vec<(Expr, Ty, Span)> = args
            .iter()
            .map(|a| {
                let (e, t) = self.expr(&a.value, scope, None);
                (e, t, a.value.span)
            })
            .collect();
        let arity = match b {
            Builtin::Min | Builtin::Max => None,
            Builtin::Dice | Builtin::Count | Builtin::Highest | Builtin::Lowest => Some(2),
            _ => Some(1),
        };
        let n = checked.len();
        let wrong = match arity {
            Some(k) => n != k,
            None => n < 2,
        };
        if wrong {
            let want = arity.map_or("at least 2".to_string(), |k| k.to_string());
            self.err(Diag::at(
                Code::CheckArgument,
                format!("`{}` takes {want} argument(s), given {n}", b.name()),
                span,
                "wrong number of arguments",
            ));
            return (dummy(span), Ty::Any);
        }
        let ty = self.builtin_ty(b, &checked);
        let args = checked.into_iter().map(|(e, _, _)| e).collect();
        (
            Expr {
                kind: ExprKind::Call(Callee::Builtin(b), args),
                span,
            },
            ty,
        )
    }

    /// `supplied(NAME)`: one bare name of a parameter or `let` of the definition (a local),
    /// looked at, not read: true unless it is a `= needed` parameter the call left out.
    fn supplied(&mut self, args: &[ast::Arg], span: Span, scope: &mut Scope) -> (Expr, Ty) {
        let local = match args {
            [a] if a.name.is_none() => {
                let (e, _) = self.expr(&a.value, scope, None);
                matches!(e.kind, ExprKind::Local(_)).then_some(e)
            }
            _ => None,
        };
        let Some(e) = local else {
            self.err(
                Diag::at(
                    Code::CheckArgument,
                    "`supplied` takes one name: a parameter of the rule or table it is in",
                    span,
                    "not one parameter's name",
                )
                .help("write `supplied(horse)`, where `horse: Bool = needed` may be left out by the question"),
            );
            return (dummy(span), Ty::Any);
        };
        (
            Expr {
                kind: ExprKind::Call(Callee::Builtin(Builtin::Supplied), vec![e]),
                span,
            },
            Ty::Bool,
        )
    }

    /// The type a builtin gives, its arguments `checked` (each with its type and where
    /// it is) being of the number it takes.
    fn builtin_ty(&mut self, b: Builtin, checked: &[(Expr, Ty, Span)]) -> Ty {
        match b {
            Builtin::Floor | Builtin::Ceil | Builtin::Round | Builtin::Trunc => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Int
            }
            Builtin::Abs => {
                let t = checked[0].1.clone();
                if !matches!(
                    t,
                    Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Minutes | Ty::Any | Ty::Never
                ) {
                    let d = t.describe(&self.prog);
                    self.err(Diag::at(
                        Code::CheckType,
                        format!("`abs` takes a number, length or time, not {d}"),
                        checked[0].2,
                        "not a number",
                    ));
                }
                t
            }
            Builtin::Min | Builtin::Max
                if checked.iter().any(|(_, t, _)| matches!(t, Ty::Enum(_))) =>
            {
                self.enum_extreme(b, checked)
            }
            Builtin::Min | Builtin::Max => {
                let mut t = Ty::Never;
                for (_, at, s) in checked {
                    if !matches!(
                        at,
                        Ty::Int
                            | Ty::Num
                            | Ty::Length
                            | Ty::Time
                            | Ty::Minutes
                            | Ty::Any
                            | Ty::Never
                    ) {
                        let d = at.describe(&self.prog);
                        self.err(Diag::at(
                            Code::CheckType,
                            format!("`{}` compares numbers, lengths or times, not {d}", b.name()),
                            *s,
                            "not a number",
                        ));
                    }
                    t = match (&t, at) {
                        (Ty::Int, Ty::Num) | (Ty::Num, Ty::Int) => Ty::Num,
                        _ => self.join(&t, at, *s),
                    };
                }
                t
            }
            Builtin::Inches | Builtin::Feet => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Length
            }
            // Checked by `ordered_builtin` and `supplied`.
            Builtin::Shift | Builtin::Place | Builtin::Supplied => Ty::Any,
            Builtin::Moves => {
                self.expect_ty(&checked[0].1, &Ty::Num, checked[0].2);
                Ty::Time
            }
            Builtin::Dice
            | Builtin::Count
            | Builtin::Highest
            | Builtin::Lowest
            | Builtin::Reroll
            | Builtin::Explode => {
                self.expect_ty(&checked[0].1, &Ty::Int, checked[0].2);
                self.expect_ty(&checked[1].1, &Ty::Int, checked[1].2);
                Ty::Int
            }
        }
    }

    /// `count(6d6, at_least: 4)`, `count(3 dice, at_most: 2)`, `highest(2, 3d6)`,
    /// `lowest(1, dice(n, 20))`: a pool of dice, each die counted on its own. Checked as
    /// `[dice, face, at_least]` for `count` and `[how many, dice]` for the others.
    fn pool(&mut self, b: Builtin, args: &[ast::Arg], span: Span, scope: &mut Scope) -> (Expr, Ty) {
        let usage = match b {
            Builtin::Count => "count(6d6, at_least: 4) or count(6d6, at_most: 2)",
            Builtin::Highest => "highest(2, 3d6)",
            _ => "lowest(1, 2d20)",
        };
        let bad = |msg: String, at: Span| {
            Diag::at(Code::CheckArgument, msg, at, "not as the pool is written")
                .help(format!("write it as {usage}"))
        };
        let dice_at = usize::from(b != Builtin::Count);
        let mut out = Vec::with_capacity(3);
        let mut ok = args.len() == 2;
        if !ok {
            self.err(bad(
                format!("`{}` takes 2 arguments, given {}", b.name(), args.len()),
                span,
            ));
        }
        for (i, a) in args.iter().enumerate() {
            let (e, t) = self.expr(&a.value, scope, None);
            let at = a.value.span;
            let want_name = match (b, i) {
                (Builtin::Count, 1) => match a.name.as_ref().map(|n| &*n.node) {
                    Some("at_least") => Some(true),
                    Some("at_most") => Some(false),
                    other => {
                        self.err(suggest_option(
                            bad(
                                "`count` needs the face named: `at_least:` or `at_most:`"
                                    .to_string(),
                                at,
                            ),
                            other,
                            &["at_least", "at_most"],
                        ));
                        ok = false;
                        None
                    }
                },
                _ => {
                    if let Some(n) = &a.name {
                        self.err(bad(
                            format!("`{}` takes this argument without a name", b.name()),
                            n.span,
                        ));
                        ok = false;
                    }
                    None
                }
            };
            if i == dice_at {
                let is_dice = is_dice(&e)
                    || matches!(
                        e.kind,
                        ExprKind::Call(Callee::Builtin(Builtin::Reroll | Builtin::Explode), _)
                    );
                if !is_dice {
                    self.err(bad(
                        format!(
                            "`{}` takes the dice themselves (`6d6`, `3 dice`, `dice(n, 6)`, `reroll(6d6, at_most: 1)`, `explode(6d6)`), not a number",
                            b.name()
                        ),
                        at,
                    ));
                    ok = false;
                }
            } else {
                self.expect_ty(&t, &Ty::Int, at);
            }
            if i == 1 && b != Builtin::Count {
                if let Some(d) = self.taken_past_pool(b, out.first(), &e, at) {
                    self.err(d);
                    ok = false;
                }
            }
            out.push(e);
            if let Some(least) = want_name {
                out.push(Expr {
                    kind: ExprKind::Value(Value::Bool(least)),
                    span: at,
                });
            }
        }
        int_call(ok, b, out, span)
    }

    /// `highest(3, 2d6)` written out: more dice taken than the pool has (or fewer than
    /// none) is an error here, not at every roll in play.
    fn taken_past_pool(
        &self,
        b: Builtin,
        taken: Option<&Expr>,
        dice: &Expr,
        at: Span,
    ) -> Option<Diag> {
        let Some(ExprKind::Value(Value::Int(k))) = taken.map(|t| &t.kind) else {
            return None;
        };
        let (k, n) = (*k, count_of(dice)?);
        (!(0..=n).contains(&k)).then(|| {
            Diag::at(
                Code::CheckArgument,
                format!("cannot take the {} {k} of {n} dice", b.name()),
                taken.map_or(at, |t| t.span),
                "not that many dice",
            )
            .help(format!("the number of dice taken must be 0 to {n}"))
        })
    }

    /// A builtin's arguments are given without names: an error at the first name.
    pub(super) fn unnamed_args(&mut self, name: &ast::Name, args: &[ast::Arg]) {
        if let Some(n) = args.iter().find_map(|a| a.name.as_ref()) {
            self.err(Diag::at(
                Code::CheckArgument,
                format!("`{}` takes its arguments without names", name.node),
                n.span,
                "remove the name",
            ));
        }
    }

    /// `reroll(3d6, at_most: 1)` (`at_least:` too) and `explode(2d6)` (`at_least: 5`
    /// optional): the dice themselves, each die changed on its own. Checked as `[dice,
    /// face, at_least]` for `reroll`, `[dice]` or `[dice, face]` for `explode`. A face
    /// written as a number is held to the die's faces here; one worked out in play, when
    /// it is rolled.
    fn changed_dice(
        &mut self,
        b: Builtin,
        args: &[ast::Arg],
        span: Span,
        scope: &mut Scope,
    ) -> (Expr, Ty) {
        let explode = b == Builtin::Explode;
        let (usage, names): (&str, &[&str]) = if explode {
            ("explode(2d6) or explode(2d6, at_least: 5)", &["at_least"])
        } else {
            (
                "reroll(3d6, at_most: 1) or reroll(3d6, at_least: 6)",
                &["at_most", "at_least"],
            )
        };
        let bad = |msg: String, at: Span| {
            Diag::at(Code::CheckArgument, msg, at, "not as the dice are written")
                .help(format!("write it as {usage}"))
        };
        let checked: Vec<(Expr, Ty)> = args
            .iter()
            .map(|a| self.expr(&a.value, scope, None))
            .collect();
        let fits = if explode {
            matches!(args.len(), 1 | 2)
        } else {
            args.len() == 2
        };
        let mut ok = fits;
        if !fits {
            let want = if explode {
                "the dice, and `at_least:` if not only the top face explodes"
            } else {
                "the dice and the faces re-rolled (`at_most:` or `at_least:`)"
            };
            let msg = match args.len() {
                1 => "`reroll` needs the faces to re-roll named: `at_most:` or `at_least:`".into(),
                n => format!("`{}` takes {want}; given {n} arguments", b.name()),
            };
            self.err(bad(msg, span));
        }
        let mut out = Vec::with_capacity(3);
        if let (Some(a), Some((e, _))) = (args.first(), checked.first()) {
            if let Some(n) = &a.name {
                self.err(bad(
                    format!("`{}` takes the dice first, without a name", b.name()),
                    n.span,
                ));
                ok = false;
            }
            if !is_dice(e) {
                self.err(bad(
                    format!(
                        "`{}` takes the dice themselves (`6d6`, `3 dice`, `dice(n, 6)`), not a number or dice already re-rolled or exploded",
                        b.name()
                    ),
                    a.value.span,
                ));
                ok = false;
            }
            out.push(e.clone());
        }
        if let (Some(a), Some((e, t))) = (args.get(1), checked.get(1)) {
            let at = a.value.span;
            let least = match option_least(b, a) {
                Ok(least) => least,
                Err((msg, given)) => {
                    let where_ = a.name.as_ref().map_or(at, |n| n.span);
                    self.err(suggest_option(bad(msg, where_), given, names));
                    ok = false;
                    true
                }
            };
            self.expect_ty(t, &Ty::Int, at);
            if let (true, Some(dice)) = (ok, out.first()) {
                self.face_within(b, dice, Some(e), least, at);
            }
            out.push(e.clone());
            if !explode {
                out.push(Expr {
                    kind: ExprKind::Value(Value::Bool(least)),
                    span: at,
                });
            }
        } else if let (true, true, Some(dice)) = (ok, explode, out.first()) {
            self.face_within(b, dice, None, true, span);
        }
        int_call(ok, b, out, span)
    }

    /// A face of `reroll` or `explode` written as a number, held to the die's faces when
    /// they are written as a number too: `at_most: 7` is no face of a d6, and `explode`
    /// with every face exploding (`at_least: 1`, or a `d1`) would never stop. `face` is
    /// `None` for `explode`'s top face.
    fn face_within(&mut self, b: Builtin, dice: &Expr, face: Option<&Expr>, least: bool, at: Span) {
        let Some(sides) = sides_of(dice) else {
            return;
        };
        let face = match face.map(|f| &f.kind) {
            None => sides,
            Some(ExprKind::Value(Value::Int(i))) => *i,
            Some(_) => return,
        };
        if let Some((msg, help)) = b.face_problem(sides, face, least) {
            self.err(Diag::at(Code::CheckArgument, msg, at, "not a face that can be").help(help));
        }
    }
}

/// The call of `b` on `args`, a whole number; or, where an argument was wrong (`ok`
/// false), a placeholder of no type.
fn int_call(ok: bool, b: Builtin, args: Vec<Expr>, span: Span) -> (Expr, Ty) {
    if !ok {
        return (dummy(span), Ty::Any);
    }
    (
        Expr {
            kind: ExprKind::Call(Callee::Builtin(b), args),
            span,
        },
        Ty::Int,
    )
}

/// Whether `e` is dice as written: `6d6`, `3 dice`, `dice(n, 6)`.
fn is_dice(e: &Expr) -> bool {
    matches!(
        e.kind,
        ExprKind::Dice { .. } | ExprKind::Call(Callee::Builtin(Builtin::Dice), _)
    )
}

/// The number of dice of a pool whose count is written as a number (`3d6`,
/// `dice(3, 6)`, `reroll(3d6, at_most: 1)`, `explode(3d6)`).
fn count_of(dice: &Expr) -> Option<i64> {
    match &dice.kind {
        ExprKind::Dice { count, .. } => Some(i64::from(*count)),
        ExprKind::Call(Callee::Builtin(Builtin::Dice), a) => match a.first().map(|x| &x.kind) {
            Some(ExprKind::Value(Value::Int(i))) => Some(*i),
            _ => None,
        },
        ExprKind::Call(Callee::Builtin(Builtin::Reroll | Builtin::Explode), a) => {
            a.first().and_then(count_of)
        }
        _ => None,
    }
}

/// The sides of dice whose sides are written as a number.
fn sides_of(dice: &Expr) -> Option<i64> {
    match &dice.kind {
        ExprKind::Dice { sides, .. } => Some(i64::from(*sides)),
        ExprKind::Call(Callee::Builtin(Builtin::Dice), a) => match a.get(1).map(|x| &x.kind) {
            Some(ExprKind::Value(Value::Int(i))) => Some(*i),
            _ => None,
        },
        _ => None,
    }
}

/// Whether the option of `reroll` or `explode` (`b`) is `at_least:` (or `at_most:`); or
/// what is wrong with its name, and the name given when it is one to correct.
fn option_least(b: Builtin, a: &ast::Arg) -> Result<bool, (String, Option<&str>)> {
    let explode = b == Builtin::Explode;
    match a.name.as_ref().map(|n| &*n.node) {
        Some("at_least") => Ok(true),
        Some("at_most") if !explode => Ok(false),
        Some("at_most") => Err((
            "`explode` takes `at_least:`: the faces that explode are the highest ones".into(),
            None,
        )),
        Some(n) => Err((format!("`{}` has no option `{n}`", b.name()), Some(n))),
        None if explode => Err(("`explode` needs the face named: `at_least:`".into(), None)),
        None => Err((
            "`reroll` needs the faces named: `at_most:` or `at_least:`".into(),
            None,
        )),
    }
}

/// `bad` with "did you mean" when the option was named and the name is close to one of
/// `names`.
fn suggest_option(bad: Diag, given: Option<&str>, names: &[&str]) -> Diag {
    match given.and_then(|n| closest(n, names.iter().copied())) {
        Some(best) => bad.help(format!("did you mean `{best}:`?")),
        None => bad,
    }
}
