//! Blocks and branches: a block's statements, guards and `set`s, `if`, `match` and
//! `reading`, and the arms of a `match`.

use super::*;
use crate::diagnostic::Code;

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
                    // `let _roll = d12`: a die rolled on purpose and not used; its
                    // name is a placeholder, not the roll's.
                    if is_roll(&e) && !name.node.starts_with('_') {
                        stmts.push(Stmt::RollName(rc(&name.node)));
                    }
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
                    Diag::at(Code::CheckUnusedLet, format!("`{}` is worked out but never used", name.node), name.span, "unused")
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
}

/// Whether a `let`'s value is a roll of dice, which the `let` names: `d6`, `2d6`, `N
/// dice`, `dice(n, 6)`, or a pool (`count(3d6, at_least: 4)`, `highest(2, 3d6)`),
/// with no other dice written in it.
pub(super) fn is_roll(e: &Expr) -> bool {
    let term = match &e.kind {
        ExprKind::Dice { .. } => true,
        ExprKind::Call(Callee::Builtin(b), _) => *b == Builtin::Dice || b.is_pool(),
        _ => false,
    };
    // The term itself, or a pool's dice, and nothing else that rolls.
    let mut terms = 0;
    e.walk(&mut |x| {
        if matches!(
            x.kind,
            ExprKind::Dice { .. } | ExprKind::Call(Callee::Builtin(Builtin::Dice), _)
        ) {
            terms += 1;
        }
    });
    term && terms == 1
}

impl Checker<'_> {
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
                    Code::CheckRowKeys,
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
            needed: false,
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
            let mut d = Diag::at(Code::CheckUnusedValue, "this `if` gives a value that is not used", first, "value not used")
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
            // The state's own fields, to start the path with; the example is this
            // ruleset's (a group's member and field, or a plain field), not another game's.
            let fields: Vec<(std::rc::Rc<str>, Ty)> = self
                .prog
                .state
                .and_then(|i| self.prog.records.get(i as usize))
                .map(|r| r.shape.fields.clone())
                .unwrap_or_default();
            let example = fields
                .iter()
                .find(|(_, t)| matches!(t, Ty::Group(_)))
                .map(|(n, _)| format!("`set {n}.NAME.FIELD = …` (NAME a member of `{n}`)"))
                .or_else(|| fields.first().map(|(n, _)| format!("`set {n} = …`")));
            let help = match example {
                None => "this ruleset declares no game state, so nothing can be set".to_string(),
                Some(example) => {
                    let names: Vec<String> = fields.iter().map(|(n, _)| format!("`{n}`")).collect();
                    format!(
                        "a path starts at one of the state's fields, {}: {example}",
                        names.join(", ")
                    )
                }
            };
            self.err(
                Diag::at(
                    Code::CheckSetTarget,
                    "`set` changes the game state: its target is a path into the state",
                    target.span,
                    "not a path into the state",
                )
                .help(help),
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
    fn path_range(&self, root: u32, steps: &[PathStep]) -> Option<NumRange> {
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

    /// `if c { a } else if ... else { b }`: every condition a truth value, every branch
    /// one type; an `if` without `else` gives no value.
    pub(super) fn if_else(
        &mut self,
        arms: &[(ast::Expr, ast::Block)],
        otherwise: Option<&ast::Block>,
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let Some(otherwise) = otherwise else {
            self.err(Diag::at(Code::CheckIfWithoutElse, "this `if` has no `else`, so it gives no value when its condition is false", span, "no `else`")
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
        let kind = ExprKind::If(out, Some(Box::new(oe)));
        (Expr { kind, span }, ty)
    }

    /// `match x { ... }`: every value of an enum (or true and false) has an arm, or an
    /// `otherwise`.
    pub(super) fn match_expr(
        &mut self,
        scrutinee: &ast::Expr,
        rows: &[ast::Row],
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
        let (se, st) = self.expr(scrutinee, scope, None);
        let (arms, ty) = self.arms(
            rows,
            &st,
            scrutinee.span,
            "`match`",
            "this `match` has no arm",
            scope,
            expected,
        );
        self.arm_overlaps(&st, &arms, rows);
        let kind = ExprKind::Match(Box::new(se), arms);
        (Expr { kind, span }, ty)
    }

    /// `reading NAME { ... }`: a `match` on the reading chosen of an interpretation.
    pub(super) fn reading(
        &mut self,
        name: &ast::Name,
        rows: &[ast::Row],
        span: Span,
        scope: &mut Scope,
        expected: Option<&Ty>,
    ) -> (Expr, Ty) {
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
                    Code::CheckUnknownName,
                    format!("no interpretation `{}`", name.node),
                    name.span,
                    "not declared",
                )
                .suggest(&name.node, names.iter().map(String::as_str))
                .help("declare it: `interpretation NAME \"what is ambiguous\" { reading \"words\" default, ... }`"),
            );
            return (dummy(span), Ty::Any);
        };
        let st = Ty::Enum(self.prog.interpretations[i].readings);
        let what = format!("this `reading {}` has no arm", name.node);
        let (arms, ty) = self.arms(rows, &st, name.span, "`reading`", &what, scope, expected);
        let scrutinee = Expr {
            kind: ExprKind::Chosen(idx(i)),
            span: name.span,
        };
        let kind = ExprKind::Match(Box::new(scrutinee), arms);
        (Expr { kind, span }, ty)
    }
}
