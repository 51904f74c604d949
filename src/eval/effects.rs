//! `set`: changes to the game state, recorded as effects (not applied: reads see the
//! state as it was), and members of groups looked up by name.

use super::{check_range, internal, Evaluator, Flow};
use crate::adjudication::{Effect, TraceNode};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::span::Span;
use crate::syntax::ast::{BinOp, SetOp};
use crate::value::Value;

impl Evaluator<'_> {
    /// The member `name` of a group, or an error listing the members there are.
    pub(super) fn member<'v>(
        &self,
        group: &'v Value,
        name: &str,
        g: &str,
        span: Span,
    ) -> Result<&'v Value, Flow> {
        group.field(name).ok_or_else(|| {
            let names: Vec<&str> = match group {
                Value::Group(m) => m.iter().map(|(n, _)| &**n).collect(),
                _ => Vec::new(),
            };
            Flow::from(
                Diag::at(
                    Code::EvalNoMember,
                    format!("`{g}` has no `{name}` in the state"),
                    span,
                    "not in the state",
                )
                .suggest(name, names.iter().copied())
                .help(super::exprs::holds(g, &names)),
            )
        })
    }

    /// `set PATH op VALUE`: works out the path and the new value and records the effect.
    pub(super) fn set(&mut self, set: &SetEffect, frame: &mut [Value]) -> Result<(), Flow> {
        let prog = self.prog;
        let Some(state) = self.state else {
            return Err(Flow::from(
                Diag::at(Code::EvalNoState, "`set` changes the game state, and no state is loaded", set.span, "needs the state")
                    .help("give a state file: `--state FILE` (`umpire eval`, `umpire repl`), `:load FILE` in the REPL, or `state = \"FILE\"` in a scenario"),
            ));
        };
        let Some(info) = prog.state.and_then(|s| prog.records.get(s as usize)) else {
            return Err(internal(set.span, "the state"));
        };
        let root_name = info
            .shape
            .fields
            .get(set.root as usize)
            .map(|(n, _)| n.clone())
            .ok_or_else(|| internal(set.span, "the state"))?;
        let mut path = vec![root_name.to_string()];
        let mut at = state
            .field(&root_name)
            .ok_or_else(|| internal(set.span, "the state"))?;
        for step in &set.path {
            match step {
                // A member of a group named after a dot (`units.old_guard`) may be
                // missing from the state: say so, as for `units[name]`.
                PathStep::Field(name) if matches!(at, Value::Group(_)) => {
                    at = self.member(at, name, &path.join("."), set.span)?;
                    path.push(name.to_string());
                }
                PathStep::Field(name) => {
                    at = at
                        .field(name)
                        .ok_or_else(|| internal(set.span, "a state path"))?;
                    path.push(name.to_string());
                }
                PathStep::Member(key) => {
                    let Value::Text(name) = self.eval(key, frame)? else {
                        return Err(internal(key.span, "a member name"));
                    };
                    at = self.member(at, &name, &path.join("."), key.span)?;
                    path.push(name.to_string());
                }
            }
        }
        // Changes made earlier in this adjudication to the same place count: two
        // `-= 3` and `-= 4` take seven. (Reads elsewhere still see the state as it was.)
        let from = match self.effects.iter().rev().find(|e| e.path == path) {
            Some(earlier) => earlier.to.clone(),
            None => at.clone(),
        };
        let value = self.eval(&set.value, frame)?;
        let change = value.clone();
        let to = match set.op {
            SetOp::Assign => value,
            SetOp::Add => self.combine(BinOp::Add, from.clone(), value, set.span)?,
            SetOp::Sub => self.combine(BinOp::Sub, from.clone(), value, set.span)?,
        };
        if let Some(range) = set.range {
            // A count or a length, whole or exact: the umpire's words for the change.
            let counted = to.as_int().is_some() || matches!(to, Value::Length(_));
            if matches!(set.op, SetOp::Add | SetOp::Sub) && counted && !range.contains(&to) {
                return Err(self.count_out_of_range(set, &path, &from, &change, range, &to));
            }
            check_range(|| format!("`{}`", path.join(".")), range, &to, set.span)?;
        }
        // A change that changes nothing (`+= 0`) is not an effect.
        if from.same(&to) {
            return Ok(());
        }
        let effect = Effect { path, from, to };
        if self.trace.is_some() {
            self.push(TraceNode::Effect(effect.clone()));
        }
        self.effects.push(effect);
        Ok(())
    }
}

impl Evaluator<'_> {
    /// A count that `+=`/`-=` would take out of its range, in the umpire's words: what it
    /// is, what the change would make it, and what it may be.
    fn count_out_of_range(
        &self,
        set: &SetEffect,
        path: &[String],
        from: &Value,
        change: &Value,
        range: NumRange,
        to: &Value,
    ) -> Flow {
        let show = |v: &Value| crate::words::show(self.prog, v);
        let verb = match set.op {
            SetOp::Sub => "taking away",
            _ => "adding",
        };
        Flow::from(Diag::at(
            Code::EvalRange,
            format!(
                "`{}` is {}: {verb} {} would make it {}, and it must be {range}",
                path.join("."),
                show(from),
                show(change),
                show(to)
            ),
            set.span,
            "out of range",
        ))
    }
}
