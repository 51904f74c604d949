//! Rolling dice: the limits on dice, the source asked, the roll recorded.

use super::{Ev, Evaluator, Flow};
use crate::adjudication::{Roll, TraceNode};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::dice::DiceRequest;
use crate::span::Span;
use crate::value::Value;

impl Evaluator<'_> {
    /// Past `--max-dice`.
    pub(super) fn too_many_dice(&self, span: Span) -> Flow {
        Flow::from(
            Diag::at(
                Code::LimitDice,
                format!(
                    "the adjudication rolls more than {} dice in all",
                    self.limits.dice
                ),
                span,
                "one roll too many",
            )
            .help(
                "a rule may be rolling dice in a loop without end; the limit is set by --max-dice",
            ),
        )
    }

    /// Past `--max-depth`.
    pub(super) fn calls_too_deep(&self, span: Span) -> Flow {
        Flow::from(
            Diag::at(
                Code::LimitDepth,
                format!("calls nested more than {} deep", self.limits.depth),
                span,
                "one call too many",
            )
            .help("a rule may be calling itself without end; the limit is set by --max-depth"),
        )
    }

    pub(super) fn roll(&mut self, count: u32, sides: u32, span: Span) -> Ev {
        self.roll_as(count, sides, span, None)
    }

    /// [`Self::roll`], the dice called `named` (`die 2 of 3d6`) rather than as written.
    pub(super) fn roll_as(
        &mut self,
        count: u32,
        sides: u32,
        span: Span,
        named: Option<&str>,
    ) -> Ev {
        self.dice_rolled += u64::from(count);
        if self.dice_rolled > self.limits.dice {
            return Err(self.too_many_dice(span));
        }
        if sides == 0 {
            return Err(Flow::from(Diag::at(
                Code::LimitDice,
                "a die must have at least one side",
                span,
                "no such die",
            )));
        }
        // The term as written, borrowed from the sources (no copy until it is recorded).
        let (prog, sources) = (self.prog, self.sources);
        let text = named.unwrap_or_else(|| sources.snippet(span));
        let within = self
            .within
            .last()
            .and_then(|c| prog.signature(*c))
            .map(|s| &*s.name);
        // Named where `let NAME = ...` rolls it, not in a rule it calls.
        let depth = self.within.len();
        let name = self
            .roll_name
            .as_ref()
            .filter(|(_, at)| *at == depth)
            .map(|(n, _)| n.clone());
        let req = DiceRequest {
            count,
            sides,
            span,
            text,
            within,
            name: name.as_deref(),
        };
        let mut faces = Vec::with_capacity(count as usize);
        // Rolled already by the fast path, which gave up after: the same dice, the same
        // faces (the source is not asked twice).
        let total = match self.replay.pop_front() {
            Some(f) if f.len() == count as usize => {
                faces = f;
                faces.iter().map(|&x| i64::from(x)).sum()
            }
            _ => self.dice.roll(&req, &mut faces)?,
        };
        if self.trace.is_some() {
            self.push(TraceNode::Roll {
                span,
                dice: text.into(),
                name: name.clone(),
                sides,
                faces: faces.clone(),
                total,
            });
        }
        self.rolls.push(Roll {
            dice: text.to_string(),
            name: name.map(|n| n.to_string()),
            sides,
            faces,
            total,
            modifiers: Vec::new(),
            modified: None,
        });
        Ok(Value::int(total))
    }
}
