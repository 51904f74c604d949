//! The trace, recorded only when asked for: levels opened and closed around each call,
//! and what each call gave.

use super::{Ev, Evaluator, Flow};
use crate::adjudication::{Arg, Gave, Stop, TraceNode};
use crate::program::{Expr, ExprKind, ParamInfo};
use crate::value::Value;
use std::rc::Rc;

impl Evaluator<'_> {
    pub(super) fn push(&mut self, n: TraceNode) {
        if let Some(t) = &mut self.trace {
            if let Some(level) = t.last_mut() {
                level.push(n);
            }
        }
    }

    pub(super) fn open(&mut self) {
        if let Some(t) = &mut self.trace {
            t.push(Vec::new());
        }
    }

    pub(super) fn close(&mut self) -> Vec<TraceNode> {
        self.trace
            .as_mut()
            .and_then(|t| t.pop())
            .unwrap_or_default()
    }

    /// The arguments as an explanation records them, those left to their defaults
    /// marked, and a record on the table named as the state names it.
    pub(super) fn traced_args(&self, params: &[ParamInfo], args: &[Expr], f: &[Value]) -> Vec<Arg> {
        params
            .iter()
            .zip(f)
            .enumerate()
            .map(|(i, (p, v))| {
                let default = args
                    .get(i)
                    .is_some_and(|a| matches!(a.kind, ExprKind::Default { .. }));
                Arg {
                    value: v.clone(),
                    name: self.state.and_then(|st| state_name(st, v)),
                    default: default && !p.needed,
                    left_out: default && p.needed,
                }
            })
            .collect()
    }
}

/// The name of `v` in the game state when it is a record on the table — found as
/// itself (the same record, not an equal copy), as a field of the state or a member of
/// a group in it, two levels down at most: `guard_grenadiers` of `brigade`. A record
/// found at two places (one copied onto another with `:set`) is not named.
fn state_name(state: &Value, v: &Value) -> Option<Rc<str>> {
    let Value::Record(target) = v else {
        return None;
    };
    fn find(at: &Value, target: &Rc<Vec<(Rc<str>, Value)>>, depth: u8, found: &mut Vec<Rc<str>>) {
        let (Value::Record(fields) | Value::Group(fields)) = at else {
            return;
        };
        for (name, inner) in fields.iter() {
            match inner {
                Value::Record(r) if Rc::ptr_eq(r, target) => found.push(name.clone()),
                _ if depth > 0 => find(inner, target, depth - 1, found),
                _ => {}
            }
            if found.len() > 1 {
                return;
            }
        }
    }
    let mut found = Vec::new();
    find(state, target, 2, &mut found);
    match found.as_slice() {
        [one] => Some(one.clone()),
        _ => None,
    }
}

/// What a call gave, as its trace records it.
pub(super) fn gave(r: &Ev) -> Gave {
    match r {
        Ok(v) => Ok(v.clone()),
        Err(Flow::Refused(reason, cite)) => Err(Stop::Refused {
            reason: reason.clone(),
            cite: cite.clone(),
        }),
        Err(Flow::NotGiven(what, cite)) => Err(Stop::NotGiven {
            what: what.clone(),
            cite: cite.clone(),
        }),
        Err(Flow::Error(_)) => Err(Stop::Error),
    }
}
