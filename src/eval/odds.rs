//! What the odds engine (`prob`) needs of the evaluator: a place to work out whole the
//! expressions it can ([`Oracle`]), evaluators started where another stands (a call
//! worked out once for its arguments, a sub-expression without dice), and the work a
//! path took counted as this evaluator counts it, so the limits hold as they do here.

use super::calls::check_arg;
use super::{Ev, Evaluator, Flow, MAX_EVAL_NESTING};
use crate::dice::DiceSource;
use crate::program::{Expr, ParamInfo};
use crate::span::Span;
use crate::syntax::ast::BinOp;
use crate::value::Value;

/// The odds engine, asked at every expression before it is worked out.
pub trait Oracle {
    /// The value of `e` on the path being followed, when the engine works `e` out whole
    /// (its work spent on `ev` with [`Evaluator::spend`]); `None`: the evaluator works it
    /// out as ever.
    fn expr(&mut self, ev: &mut Evaluator<'_>, e: &Expr, frame: &mut [Value]) -> Option<Ev>;
}

/// Where an evaluator stands: the work done so far on this path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Position {
    /// Evaluation steps.
    pub steps: u64,
    /// Dice rolled.
    pub dice: u64,
    /// Calls open.
    pub depth: u32,
    /// Expressions open.
    pub nesting: u32,
}

/// The work one outcome of an expression took beyond where its evaluation began: the
/// most over the paths that give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Reach {
    /// Evaluation steps.
    pub steps: u64,
    /// Dice rolled.
    pub dice: u64,
    /// The deepest calls opened, beyond those open.
    pub depth: u32,
    /// The deepest expressions opened, beyond those open.
    pub nesting: u32,
}

impl Reach {
    /// The work of one part, then another: counts add, depths take the larger.
    pub fn then(self, b: Reach) -> Reach {
        Reach {
            steps: self.steps.saturating_add(b.steps),
            dice: self.dice.saturating_add(b.dice),
            depth: self.depth.max(b.depth),
            nesting: self.nesting.max(b.nesting),
        }
    }

    /// The larger of two reaches, count by count (two paths merged into one outcome).
    pub fn most(self, b: Reach) -> Reach {
        Reach {
            steps: self.steps.max(b.steps),
            dice: self.dice.max(b.dice),
            depth: self.depth.max(b.depth),
            nesting: self.nesting.max(b.nesting),
        }
    }

    /// Nested one expression deeper.
    pub fn inside(self) -> Reach {
        Reach {
            nesting: self.nesting.saturating_add(1),
            ..self
        }
    }
}

impl<'a> Evaluator<'a> {
    /// Asks the oracle for `e`, the oracle held out of the evaluator while it works.
    pub(super) fn ask_oracle(&mut self, e: &Expr, frame: &mut [Value]) -> Option<Ev> {
        if !self.missing.is_empty() {
            // A needed parameter left out is read where it is read: not worked out whole.
            return None;
        }
        let o = self.oracle.take()?;
        let r = o.expr(self, e, frame);
        self.oracle = Some(o);
        r
    }

    /// Where this evaluator stands.
    pub fn position(&self) -> Position {
        Position {
            steps: self.steps,
            dice: self.dice_rolled,
            depth: self.depth,
            nesting: self.nesting,
        }
    }

    /// The work done since `from` (an evaluator started there by [`Evaluator::sub`]).
    pub fn reach_from(&self, from: Position) -> Reach {
        Reach {
            steps: self.steps.saturating_sub(from.steps),
            dice: self.dice_rolled.saturating_sub(from.dice),
            depth: self.max_depth.saturating_sub(from.depth),
            nesting: self.max_nesting.saturating_sub(from.nesting),
        }
    }

    /// A fresh evaluator of the same program, state, readings and limits, standing
    /// where this one stands (its limits count on from here) but `deeper` expressions
    /// further in, rolling `dice`.
    pub fn sub<'b>(&self, dice: &'b mut dyn DiceSource, deeper: u32) -> Evaluator<'b>
    where
        'a: 'b,
    {
        let mut ev = Evaluator::new(
            self.prog,
            self.sources,
            dice,
            super::Options {
                trace: false,
                limits: self.limits,
                readings: self.readings.clone(),
                engine: if self.fast {
                    super::Engine::Compiled
                } else {
                    super::Engine::Walker
                },
            },
        );
        ev.state = self.state;
        ev.asked.clone_from(&self.asked);
        ev.asked_at = self.asked_at;
        ev.steps = self.steps;
        ev.check_at = self.limits.steps.min(self.steps + super::CANCEL_EVERY);
        ev.dice_rolled = self.dice_rolled;
        ev.depth = self.depth;
        ev.max_depth = self.depth;
        ev.nesting = self.nesting.saturating_add(deeper);
        ev.max_nesting = ev.nesting;
        ev.within.clone_from(&self.within);
        ev
    }

    /// Spends the work an outcome worked out whole took (`reach`, at `span`): past a
    /// limit, the error the evaluator would have stopped with.
    pub fn spend(&mut self, reach: Reach, span: Span) -> Result<(), Flow> {
        if self.depth.saturating_add(reach.depth) > self.limits.depth {
            return Err(self.calls_too_deep(span));
        }
        if self.nesting.saturating_add(reach.nesting) > MAX_EVAL_NESTING {
            return Err(super::nested_too_deep(span));
        }
        self.dice_rolled = self.dice_rolled.saturating_add(reach.dice);
        if self.dice_rolled > self.limits.dice {
            return Err(self.too_many_dice(span));
        }
        self.steps = self.steps.saturating_add(reach.steps);
        if self.steps > self.limits.steps {
            return Err(self.too_many_steps(span));
        }
        self.max_depth = self.max_depth.max(self.depth.saturating_add(reach.depth));
        self.max_nesting = self
            .max_nesting
            .max(self.nesting.saturating_add(reach.nesting));
        Ok(())
    }

    /// `x op y` on two values, as the evaluator works it out (not `and`/`or`).
    pub fn combine_values(&self, op: BinOp, x: Value, y: Value, span: Span) -> Ev {
        self.combine(op, x, y, span)
    }

    /// Checks an argument worked out against its parameter (its type's ranges, a
    /// record's fields' ranges), as a call does.
    pub fn check_param(&self, p: &ParamInfo, v: &Value, span: Span) -> Result<(), Flow> {
        check_arg(p, v, span)?;
        self.check_record_ranges(&p.ty, v, span)
    }

    /// How many dice of how many sides `dice(count, sides)` of these values rolls, or
    /// why it cannot (a count or a die past the limits), as the evaluator says it.
    pub fn dice_size_of(&self, vals: &[Value], span: Span) -> Result<(u32, u32), Flow> {
        self.dice_size(vals, span)
    }

    /// The limits this evaluator works within.
    pub fn limits(&self) -> crate::limits::Limits {
        self.limits
    }
}
