//! Where number-keyed tables are called, and what their key can be there.

use super::facts::{assume, narrow_to, past_guard, Fact, Reacher, BUDGET};
use super::interval::Reach;
use super::report::number_key;
use crate::program::*;
use crate::span::Span;
use crate::value::Value;

/// A table called with a number key: where, and what the key can be.
pub(super) struct CallSite {
    pub table: u32,
    /// The number key as written.
    pub span: Span,
    /// The values it can take.
    pub reach: Reach,
    /// The other keys, where written out (`manoeuvre_table(good_order, ...)`).
    pub others: Vec<Option<Value>>,
    /// The other keys that are numbers (`crt(odds, d6)`): what each can be, and where it
    /// is written (`None` for the keys that are not numbers).
    pub other_reach: Vec<Option<(Reach, Span)>>,
    /// Whether it is in an `example` (a check, not a roll).
    pub example: bool,
}

/// Finds every call of a number-keyed table and what its key can be.
struct Sites<'p> {
    reacher: Reacher<'p>,
    found: Vec<CallSite>,
    example: bool,
}

impl Sites<'_> {
    fn fact(&mut self, e: &Expr, env: &mut Vec<Fact>) -> Fact {
        self.reacher.budget = BUDGET;
        self.reacher.busy.clear();
        self.reacher.fact(e, env)
    }

    fn site(&mut self, t: u32, args: &[Expr], env: &mut Vec<Fact>) {
        let prog = self.reacher.prog;
        let Some(table) = prog.tables.get(t as usize) else {
            return;
        };
        let Some(k) = number_key(table) else { return };
        let Some(arg) = args.get(k) else { return };
        let reach = self.fact(arg, env).reach;
        let others = args
            .iter()
            .take(table.keys)
            .enumerate()
            .filter(|(i, _)| *i != k)
            .map(|(_, a)| written_value(a))
            .collect();
        let mut other_reach = Vec::new();
        for (i, a) in args.iter().enumerate().take(table.keys) {
            let number = table
                .sig
                .params
                .get(i)
                .is_some_and(|p| matches!(p.ty, Ty::Int | Ty::Num));
            if i != k {
                other_reach.push(number.then(|| (self.fact(a, env).reach, a.span)));
            }
        }
        self.found.push(CallSite {
            table: t,
            span: arg.span,
            reach,
            others,
            other_reach,
            example: self.example,
        });
    }

    fn visit(&mut self, e: &Expr, env: &mut Vec<Fact>) {
        crate::limits::deep(|| self.visit_inner(e, env));
    }

    fn visit_inner(&mut self, e: &Expr, env: &mut Vec<Fact>) {
        if let ExprKind::Call(Callee::Table(t), args) = &e.kind {
            self.site(*t, args, env);
        }
        match &e.kind {
            ExprKind::If(branches, other) => {
                let mut otherwise = env.clone();
                for (c, v) in branches {
                    self.visit(c, &mut otherwise);
                    let mut then = otherwise.clone();
                    assume(c, true, &mut then);
                    self.visit(v, &mut then);
                    assume(c, false, &mut otherwise);
                }
                if let Some(o) = other {
                    self.visit(o, &mut otherwise);
                }
            }
            ExprKind::Match(x, arms) => {
                self.visit(x, env);
                for (pat, v, _) in arms {
                    let mut arm = env.clone();
                    if narrow_to(x, pat, &mut arm) {
                        self.visit(v, &mut arm);
                    }
                }
            }
            ExprKind::Block(stmts, value) => {
                for s in stmts {
                    match s {
                        Stmt::Let(slot, x) => {
                            self.visit(x, env);
                            let f = self.fact(x, env);
                            if let Some(place) = env.get_mut(*slot as usize) {
                                *place = f;
                            }
                        }
                        Stmt::Guard(x) => {
                            self.visit(x, env);
                            past_guard(x, env);
                        }
                        Stmt::Set(effect) => self.visit(&effect.value, env),
                        Stmt::Note(_) | Stmt::RollName(_) => {}
                    }
                }
                self.visit(value, env);
            }
            ExprKind::Fresh { value, slots } => {
                let mut fresh = vec![Fact::all(); *slots as usize];
                self.visit(value, &mut fresh);
            }
            // The rest take the same facts inside as out.
            _ => e.for_each_child(|x| self.visit(x, env)),
        }
    }
}

/// Every call of a number-keyed table in `prog`, with what its key can be.
pub(super) fn call_sites(prog: &Program) -> Vec<CallSite> {
    let mut sites = Sites {
        reacher: Reacher::new(prog),
        found: Vec::new(),
        example: false,
    };
    for r in &prog.rules {
        let mut env = sites.reacher.param_env(&r.sig);
        sites.visit(&r.body, &mut env);
    }
    for t in &prog.tables {
        for row in &t.rows {
            let mut env = sites.reacher.param_env(&t.sig);
            sites.visit(&row.cell, &mut env);
        }
    }
    for m in &prog.modifiers {
        let mut env = sites.reacher.param_env(&m.sig);
        for md in &m.modifiers {
            for e in [Some(&md.amount), md.per.as_ref(), md.condition.as_ref()]
                .into_iter()
                .flatten()
            {
                sites.visit(e, &mut env);
            }
        }
    }
    for c in &prog.consts {
        let mut env = vec![Fact::all(); c.slots as usize];
        sites.visit(&c.value, &mut env);
    }
    // Defaults are worked out where they are used, each in a scope of its own.
    let defaults = prog
        .signatures()
        .flat_map(|s| &s.params)
        .filter_map(|p| p.default.as_ref())
        .chain(
            prog.records
                .iter()
                .flat_map(|r| r.defaults.iter().flatten()),
        );
    for d in defaults {
        sites.visit(d, &mut Vec::new());
    }
    sites.example = true;
    for ex in &prog.examples {
        for check in &ex.checks {
            let mut env = vec![Fact::all(); check.query.slots as usize];
            sites.visit(&check.query.expr, &mut env);
        }
    }
    sites.found
}
