//! The result of an adjudication, as data: the value (or a refusal, or a gap in the
//! source), every roll, the effects, and — when asked for — the trace. [`crate::render`]
//! puts it into words or JSON.

use crate::span::Span;
use crate::value::{Rational, Value};
use serde::Serialize;
use std::rc::Rc;

/// What an adjudication decided.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A value.
    Value(Value),
    /// The rules refuse the action.
    Refused {
        /// Why, in the rulebook's words.
        reason: String,
        /// The rulebook section.
        cite: Option<String>,
    },
    /// The source does not give this (a chart named but not printed, a lost value).
    NotGiven {
        /// What is missing.
        what: String,
        /// The rulebook section.
        cite: Option<String>,
    },
}

/// One dice term rolled.
#[derive(Debug, Clone, PartialEq, Serialize, serde::Deserialize)]
pub struct Roll {
    /// The term as written (`2d6`, `D10`, `1 die`).
    pub dice: String,
    /// The roll's name, where a `let` binds it (`let attacker_roll = d6`); in the JSON
    /// only when it has one (a game log written before names reads as none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Faces per die.
    pub sides: u32,
    /// Each die's face, in order.
    pub faces: Vec<u32>,
    /// Their sum.
    pub total: i64,
    /// The amounts summed with the roll where a ruleset modifies it (`D10 +
    /// manoeuvre_drm(u)`: each modifier list's total, and any other amount, signed as
    /// applied), in the order written; empty for a roll not modified. Not in the JSON:
    /// the trace gives each modifier.
    #[serde(skip)]
    pub modifiers: Vec<Rational>,
    /// The modified roll (the roll and those amounts summed), where it is modified.
    #[serde(skip)]
    pub modified: Option<Rational>,
}

/// A change to the game state that an adjudication produces (applied only when asked).
#[derive(Debug, Clone, PartialEq)]
pub struct Effect {
    /// The state path, as written with member names filled in: `units.old_guard.men`.
    pub path: Vec<String>,
    /// The value before.
    pub from: Value,
    /// The value after.
    pub to: Value,
}

impl Effect {
    /// The path as text.
    pub fn path_text(&self) -> String {
        self.path.join(".")
    }
}

/// How a traced call ended: the value it gave, or what stopped it.
pub type Gave = Result<Value, Stop>;

/// What stopped a traced call before it gave a value.
#[derive(Debug, Clone, PartialEq)]
pub enum Stop {
    /// A refusal.
    Refused {
        /// Why, in the rulebook's words.
        reason: Rc<str>,
        /// The rulebook section.
        cite: Option<Rc<str>>,
    },
    /// A gap in the source.
    NotGiven {
        /// What is missing.
        what: Rc<str>,
        /// The rulebook section.
        cite: Option<Rc<str>>,
    },
    /// An error (the adjudication as a whole fails with it).
    Error,
}

/// One argument of a traced call, in parameter order (the parameter is the one at the
/// same place in the callee's list).
#[derive(Debug, Clone, PartialEq)]
pub struct Arg {
    /// The value passed.
    pub value: Value,
    /// The name it has in the game state, when it is a record on the table (the member
    /// `guard_grenadiers` of `brigade`): the explanation names it so, not by its fields.
    pub name: Option<Rc<str>>,
    /// Not given in the call: the parameter's default was used.
    pub default: bool,
    /// A needed parameter (`= needed`) the call left out: it has no value (`value` is
    /// a stand-in, never shown).
    pub left_out: bool,
}

/// One modifier that applied.
#[derive(Debug, Clone, PartialEq)]
pub struct Applied {
    /// Its place in the list's modifiers.
    pub modifier: u32,
    /// Times applied (`per`): 1 for a modifier without `per`.
    pub times: Rational,
    /// Signed amount it added (`times` included).
    pub amount: Rational,
}

/// One step of an explanation: what the evaluator did, as data (ids into the
/// [`Program`](crate::program::Program), values); `render` puts it into words or JSON.
#[derive(Debug, Clone, PartialEq)]
pub enum TraceNode {
    /// A rule was called.
    Rule {
        /// The rule (`Program::rules`).
        rule: u32,
        /// Arguments.
        args: Vec<Arg>,
        /// What it gave.
        result: Gave,
        /// What happened inside.
        steps: Vec<TraceNode>,
    },
    /// A table row was matched.
    Table {
        /// The table (`Program::tables`).
        table: u32,
        /// Keys and other arguments.
        args: Vec<Arg>,
        /// The row matched (`TableInfo::rows`).
        row: u32,
        /// The cell's value.
        result: Gave,
        /// What happened in the cell.
        steps: Vec<TraceNode>,
    },
    /// A die roll modifier list was summed.
    Modifiers {
        /// The list (`Program::modifiers`).
        list: u32,
        /// Its arguments (the unit whose roll is modified).
        args: Vec<Arg>,
        /// Each modifier that applied.
        applied: Vec<Applied>,
        /// The total.
        total: Rational,
    },
    /// Dice were rolled.
    Roll {
        /// Where the term is written.
        span: Span,
        /// The term as written (`2d6`): it may be in a question's source, which the
        /// program does not hold.
        dice: Rc<str>,
        /// The roll's name, where a `let` binds it (`let attacker_roll = d6`).
        name: Option<Rc<str>>,
        /// Faces per die.
        sides: u32,
        /// Each die's face, in order.
        faces: Vec<u32>,
        /// Their sum.
        total: i64,
    },
    /// A `note` in a rule was reached.
    Note {
        /// The note.
        text: Rc<str>,
    },
    /// An interpretation was read.
    Reading {
        /// The interpretation (`Program::interpretations`).
        interpretation: u32,
        /// The reading it went by (a value of its readings enum).
        reading: u16,
        /// Chosen (`--interpret`), not the default.
        chosen: bool,
    },
    /// A `set` recorded a change to the game state.
    Effect(Effect),
    /// A step the explanation tells in words: a membership (`spears is one of foot`),
    /// a shift along an ordered enum (`3-1 shifted by -2: 1-1`).
    Fact {
        /// The words.
        text: Rc<str>,
    },
    /// A refusal.
    Refused {
        /// Why.
        reason: Rc<str>,
        /// Rulebook section.
        cite: Option<Rc<str>>,
    },
    /// A gap in the source was reached.
    NotGiven {
        /// What is missing.
        what: Rc<str>,
        /// Rulebook section.
        cite: Option<Rc<str>>,
    },
}

/// A whole adjudication.
#[derive(Debug, Clone, PartialEq)]
pub struct Adjudication {
    /// What was decided.
    pub outcome: Outcome,
    /// Every dice term rolled, in order.
    pub rolls: Vec<Roll>,
    /// The explanation, if asked for.
    pub trace: Option<Vec<TraceNode>>,
    /// The seed of the dice, when seeded dice were rolled.
    pub seed: Option<u64>,
    /// Changes to the game state, in order (see `set` in the language).
    pub effects: Vec<Effect>,
    /// Evaluation steps it took (what the odds engine budgets by).
    pub steps: u64,
}
