//! Calls: rules, tables and modifier lists — their arguments checked, the call depth
//! bounded, and (when tracing) each recorded with what it gave.

use super::trace::gave;
use super::{arith_err, check_range, field_at, internal, pattern_cost, Ev, Evaluator, Flow};
use crate::adjudication::{Applied, TraceNode};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::span::Span;
use crate::value::{arith, Rational, Value};

impl Evaluator<'_> {
    /// A call of a rule, a table, a modifier list or a built-in.
    pub(super) fn call(
        &mut self,
        callee: Callee,
        args: &[Expr],
        span: Span,
        frame: &mut [Value],
    ) -> Ev {
        match callee {
            Callee::Builtin(b) => self.builtin(b, args, span, frame),
            Callee::Rule(id) => self.call_rule(id, args, span, frame),
            Callee::Table(id) => self.call_table(id, args, span, frame),
            Callee::Modifiers(id) => self.call_modifiers(id, args, span, frame),
        }
    }

    /// A rule: its body, worked out with the arguments as its first locals.
    fn call_rule(&mut self, id: u32, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        let prog = self.prog;
        let r = prog
            .rules
            .get(id as usize)
            .ok_or_else(|| internal(span, "a rule"))?;
        let mut f = self.args(&r.sig, args, span, frame)?;
        if let Some(r) = self.fast_call(Callee::Rule(id), &mut f) {
            return r;
        }
        self.rule_body(id, args, f, span)
    }

    /// A rule's body, its arguments worked out (`args` as written, for the trace).
    fn rule_body(&mut self, id: u32, args: &[Expr], mut f: Vec<Value>, span: Span) -> Ev {
        let prog = self.prog;
        let r = prog
            .rules
            .get(id as usize)
            .ok_or_else(|| internal(span, "a rule"))?;
        self.enter(span, Callee::Rule(id))?;
        self.open();
        let out = self.eval(&r.body, &mut f);
        self.leave();
        let steps = self.close();
        if self.trace.is_some() {
            self.push(TraceNode::Rule {
                rule: id,
                args: self.traced_args(&r.sig.params, args, &f),
                result: gave(&out),
                steps,
            });
        }
        out
    }

    /// A table: the first row whose patterns fit the keys, then its cell.
    fn call_table(&mut self, id: u32, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        let prog = self.prog;
        let t = prog
            .tables
            .get(id as usize)
            .ok_or_else(|| internal(span, "a table"))?;
        let mut f = self.args(&t.sig, args, span, frame)?;
        if let Some(r) = self.fast_call(Callee::Table(id), &mut f) {
            return r;
        }
        self.table_body(id, args, f, span)
    }

    /// A table's row found and its cell worked out, its arguments worked out (`args` as
    /// written, for the trace).
    fn table_body(&mut self, id: u32, args: &[Expr], mut f: Vec<Value>, span: Span) -> Ev {
        let prog = self.prog;
        let t = prog
            .tables
            .get(id as usize)
            .ok_or_else(|| internal(span, "a table"))?;
        self.keys_given(t.keys, span)?;
        // Every pattern alternative tried is a step: a long row costs its length.
        let mut tried = 0u64;
        let found = t.rows.iter().position(|row| {
            row.patterns.iter().zip(f.iter()).all(|(p, v)| {
                tried += pattern_cost(p);
                p.matches(v)
            })
        });
        self.steps += tried;
        self.step(span)?;
        let Some((at, row)) = found.and_then(|at| Some((at, t.rows.get(at)?))) else {
            let keys: Vec<String> = t
                .sig
                .params
                .iter()
                .zip(&f)
                .take(t.keys)
                .map(|(p, v)| format!("{}: {}", p.name, crate::words::show_arg(self.prog, v)))
                .collect();
            return Err(Flow::from(
                Diag::at(
                    Code::EvalNoRow,
                    format!(
                        "no row of table `{}` matches {}",
                        t.sig.name,
                        keys.join(", ")
                    ),
                    span,
                    "matched no row",
                )
                .help("add a row for these keys, or `otherwise => ...`"),
            ));
        };
        self.enter(span, Callee::Table(id))?;
        self.open();
        let out = self.eval(&row.cell, &mut f);
        self.leave();
        let steps = self.close();
        if self.trace.is_some() {
            self.push(TraceNode::Table {
                table: id,
                args: self.traced_args(&t.sig.params, args, &f),
                row: u32::try_from(at).unwrap_or(u32::MAX),
                result: gave(&out),
                steps,
            });
        }
        out
    }

    /// A modifier list: the sum of the modifiers that apply.
    fn call_modifiers(&mut self, id: u32, args: &[Expr], span: Span, frame: &mut [Value]) -> Ev {
        let prog = self.prog;
        let m = prog
            .modifiers
            .get(id as usize)
            .ok_or_else(|| internal(span, "a modifier list"))?;
        let mut f = self.args(&m.sig, args, span, frame)?;
        if let Some(r) = self.fast_call(Callee::Modifiers(id), &mut f) {
            return r;
        }
        self.modifiers_body(id, args, f, span)
    }

    /// The modifiers of a list that apply summed, its arguments worked out (`args` as
    /// written, for the trace).
    fn modifiers_body(&mut self, id: u32, args: &[Expr], mut f: Vec<Value>, span: Span) -> Ev {
        let prog = self.prog;
        let m = prog
            .modifiers
            .get(id as usize)
            .ok_or_else(|| internal(span, "a modifier list"))?;
        self.enter(span, Callee::Modifiers(id))?;
        let mut total = Rational::from_integer(0);
        let mut applied = Vec::new();
        for (at, md) in m.modifiers.iter().enumerate() {
            if let Some(c) = &md.condition {
                if !self.truth(c, &mut f)? {
                    continue;
                }
            }
            let amount = self.num(&md.amount, &mut f)?;
            let times = match &md.per {
                Some(p) => self.num(p, &mut f)?,
                None => Rational::from_integer(1),
            };
            let each = arith::mul(amount, times).map_err(|er| arith_err(er, md.amount.span))?;
            if times == Rational::from_integer(0) {
                continue;
            }
            total = arith::add(total, each).map_err(|er| arith_err(er, md.amount.span))?;
            if self.trace.is_some() {
                applied.push(Applied {
                    modifier: u32::try_from(at).unwrap_or(u32::MAX),
                    times,
                    amount: each,
                });
            }
        }
        self.leave();
        if self.trace.is_some() {
            self.push(TraceNode::Modifiers {
                list: id,
                args: self.traced_args(&m.sig.params, args, &f),
                applied,
                total,
            });
        }
        Ok(Value::num(total))
    }

    /// A call of a rule, table or modifier list with its arguments already worked out
    /// and checked (the odds engine's: it works out each call once per distinct
    /// arguments), as [`Evaluator::call`] goes on from there.
    pub fn call_with(&mut self, callee: Callee, mut f: Vec<Value>, span: Span) -> Ev {
        let slots = self
            .prog
            .signature(callee)
            .map_or(0, |s| s.slots as usize)
            .max(f.len());
        f.resize(slots, Value::Bool(false));
        match callee {
            Callee::Rule(id) => self.rule_body(id, &[], f, span),
            Callee::Table(id) => self.table_body(id, &[], f, span),
            Callee::Modifiers(id) => self.modifiers_body(id, &[], f, span),
            Callee::Builtin(_) => Err(internal(span, "a call")),
        }
    }

    /// A record passed where a declared record type is wanted keeps that type's ranges,
    /// however it was built (`let b = { stands: 20, ... }` then `orders(b)`).
    pub(super) fn check_record_ranges(&self, ty: &Ty, v: &Value, span: Span) -> Result<(), Flow> {
        let Ty::Record(shape) = ty else { return Ok(()) };
        // Found by index, not by name: this runs at every call.
        let Some(info) = shape
            .record
            .and_then(|id| self.prog.records.get(id as usize))
        else {
            return Ok(());
        };
        if info.ranges.iter().all(Option::is_none) {
            return Ok(());
        }
        let name = &info.name;
        for (i, ((fname, _), range)) in info.shape.fields.iter().zip(&info.ranges).enumerate() {
            let Some(range) = range else { continue };
            if let Some(fv) = field_at(v, fname, u32::try_from(i).unwrap_or(u32::MAX)) {
                check_range(|| format!("field `{fname}` of {name}"), *range, fv, span)?;
            }
        }
        Ok(())
    }

    pub(super) fn args(
        &mut self,
        sig: &Signature,
        args: &[Expr],
        span: Span,
        frame: &mut [Value],
    ) -> Result<Vec<Value>, Flow> {
        if sig.params.iter().any(|p| p.needed) {
            return self.args_needed(sig, args, span, frame);
        }
        let slots = sig.slots;
        let mut f = Vec::with_capacity(slots as usize);
        for (p, a) in sig.params.iter().zip(args) {
            let v = self.arg(p, a, frame)?;
            f.push(v);
        }
        f.resize(slots as usize, Value::Bool(false));
        Ok(f)
    }

    /// One argument, worked out and checked against its parameter.
    pub(super) fn arg(&mut self, p: &ParamInfo, a: &Expr, frame: &mut [Value]) -> Ev {
        let v = self.eval(a, frame)?;
        check_arg(p, &v, a.span)?;
        self.check_record_ranges(&p.ty, &v, a.span)?;
        Ok(v)
    }

    pub(super) fn leave(&mut self) {
        self.depth -= 1;
        self.within.pop();
        if !self.missing.is_empty() {
            let depth = self.depth;
            self.missing.retain(|m| m.depth <= depth);
        }
    }

    pub(super) fn enter(&mut self, span: Span, callee: Callee) -> Result<(), Flow> {
        self.depth += 1;
        if self.depth > self.max_depth {
            self.max_depth = self.depth;
        }
        self.within.push(callee);
        if self.depth > self.limits.depth {
            return Err(self.calls_too_deep(span));
        }
        Ok(())
    }
}

/// Checks a value against a parameter's declared range.
pub(super) fn check_arg(p: &ParamInfo, v: &Value, span: Span) -> Result<(), Flow> {
    if p.ty == Ty::Int && v.as_int().is_none() {
        if let Value::Frac(r) = v {
            return Err(Flow::from(Diag::at(
                Code::EvalNotWhole,
                format!(
                    "`{}` must be a whole number, got {}",
                    p.name,
                    crate::value::Mixed(*r)
                ),
                span,
                "a fraction",
            )));
        }
    }
    match p.range {
        Some(range) => check_range(|| format!("`{}`", p.name), range, v, span),
        None => Ok(()),
    }
}
