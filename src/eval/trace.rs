//! The trace, recorded only when asked for: levels opened and closed around each call,
//! and what each call gave.

use super::{Ev, Evaluator, Flow};
use crate::adjudication::{Arg, Gave, Stop, TraceNode};
use crate::program::{Expr, ExprKind, ParamInfo};
use crate::value::Value;

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

    /// The arguments as an explanation records them, those left to their defaults marked.
    pub(super) fn traced_args(params: &[ParamInfo], args: &[Expr], f: &[Value]) -> Vec<Arg> {
        params
            .iter()
            .zip(f)
            .enumerate()
            .map(|(i, (_, v))| Arg {
                value: v.clone(),
                default: args
                    .get(i)
                    .is_some_and(|a| matches!(a.kind, ExprKind::Default { .. })),
            })
            .collect()
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
