//! Ordered enums and membership at play: `shift(value, n)` along the order, stopping at
//! the ends, and `x in (...)`, each told in the explanation.

use super::{internal, Ev, Evaluator};
use crate::adjudication::TraceNode;
use crate::program::{Expr, Pat};
use crate::span::Span;
use crate::value::Value;
use std::rc::Rc;

impl Evaluator<'_> {
    /// `shift(value, n)`: `n` places along the enum's order (down when negative),
    /// stopping at the first and the last value.
    pub(super) fn shift(&mut self, value: &Value, n: Option<&Value>, span: Span) -> Ev {
        let (Value::Enum(e, i), Some(n)) = (value, n.and_then(Value::as_int)) else {
            return Err(internal(span, "`shift`"));
        };
        let count = self
            .prog
            .enums
            .get(usize::from(*e))
            .map_or(0, |en| en.values.len());
        let last = i64::try_from(count)
            .unwrap_or(i64::MAX)
            .saturating_sub(1)
            .max(0);
        let wanted = i64::from(*i).saturating_add(n);
        let to = wanted.clamp(0, last);
        let out = Value::Enum(*e, u16::try_from(to).unwrap_or(u16::MAX));
        if self.trace.is_some() {
            let end = if wanted > last {
                " (the last: it goes no further)"
            } else if wanted < 0 {
                " (the first: it goes no further)"
            } else {
                ""
            };
            let text = format!(
                "{} shifted {n:+} to {}{end}",
                self.show(value),
                self.show(&out)
            );
            self.push(TraceNode::Fact {
                text: Rc::from(text),
            });
        }
        Ok(out)
    }

    /// `x in (patterns)` / `x not in list`.
    pub(super) fn membership(
        &mut self,
        value: &Expr,
        pat: &Pat,
        negated: bool,
        text: &Rc<str>,
        frame: &mut [Value],
    ) -> Ev {
        let v = self.eval(value, frame)?;
        self.steps += match pat {
            Pat::Any => 1,
            Pat::Alts(a) => a.len() as u64,
        };
        let fits = pat.matches(&v);
        if self.trace.is_some() {
            let is = if fits { "is" } else { "is not" };
            let line = format!("{} {is} one of {text}", self.show(&v));
            self.push(TraceNode::Fact {
                text: Rc::from(line),
            });
        }
        Ok(Value::Bool(fits != negated))
    }
}
