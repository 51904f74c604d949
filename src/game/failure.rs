//! Why a game could not do what it was asked.

use super::dice::QueueUse;
use super::Source;
use crate::diagnostic::{Diag, Diags};
use crate::span::Span;
use std::fmt;

/// Why a [`super::Game`] method did not do what it was asked. Nothing has changed.
#[derive(Debug, Clone)]
pub enum Failure {
    /// The input does not compile, a file does not load or cannot be written: every
    /// diagnostic, with its source attached.
    Diags(Diags),
    /// The adjudication stopped with an error (its source attached).
    Stopped {
        /// The error.
        error: Box<Diag>,
        /// What became of the faces queued for it (`None`: none were queued).
        queue: Option<Box<QueueUse>>,
    },
    /// A die asked for at the table was not given: the adjudication is cancelled.
    Cancelled {
        /// The dice term the die belongs to (`D10`).
        die: String,
        /// Where the term is written.
        span: Span,
        /// The sources `span` points into (the question's own text among them).
        sources: crate::span::SourceMap,
        /// What became of the faces queued for it.
        queue: Option<Box<QueueUse>>,
    },
    /// The state on the table does not fit the new ruleset: why, field by field. The
    /// ruleset in use stays.
    DoesNotFit(Diags),
    /// What the game cannot do now.
    Refused(Refusal),
}

impl Failure {
    /// The diagnostics it carries (none for a refusal or a cancellation).
    pub fn diags(&self) -> &[Diag] {
        match self {
            Failure::Diags(ds) | Failure::DoesNotFit(ds) => &ds.0,
            Failure::Stopped { error, .. } => std::slice::from_ref(&**error),
            Failure::Cancelled { .. } | Failure::Refused(_) => &[],
        }
    }

    /// What became of the faces queued for the adjudication, when one was run.
    pub fn queue(&self) -> Option<&QueueUse> {
        match self {
            Failure::Stopped { queue, .. } | Failure::Cancelled { queue, .. } => queue.as_deref(),
            _ => None,
        }
    }
}

impl From<Diags> for Failure {
    fn from(ds: Diags) -> Failure {
        Failure::Diags(ds)
    }
}

impl From<Diag> for Failure {
    fn from(d: Diag) -> Failure {
        Failure::Diags(d.into())
    }
}

impl From<Refusal> for Failure {
    fn from(r: Refusal) -> Failure {
        Failure::Refused(r)
    }
}

/// What a game cannot do now, and why.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// There is no state on the table (to change, look at or save).
    NoState,
    /// Nothing has been adjudicated (to explain again).
    NothingAdjudicated,
    /// No result since the last change to the state has effects.
    NothingToApply,
    /// The effects of the result (its input) are on the table already.
    AppliedAlready(String),
    /// The last result (its input) has no effects, and those of the one before it that
    /// has (its input) are on the table already.
    NoEffects {
        /// The last result's input.
        last: String,
        /// The input whose effects are applied already.
        applied: String,
    },
    /// The state has changed since the result (its input) was adjudicated.
    StateChanged(String),
    /// No change to take back.
    NothingToUndo,
    /// No change to take back: the game is as it started, with the state loaded from
    /// this file ([`super::Game::begin`]).
    AtStart(String),
    /// The newest change is this state file loaded: [`super::Game::undo_anyway`] takes
    /// it back.
    TakesBackLoad(String),
    /// Nothing taken back since the last change, to do again.
    NothingToRedo,
    /// A question that may change the state, while the effects of this result (its
    /// input) are not yet applied: apply or drop them first.
    EffectsNotApplied(String),
    /// No result's effects wait to be applied, to drop.
    NothingToDrop,
    /// `save` was given no file, none was named before, and it would write over the
    /// state file loaded (this one): it does so only when named.
    OverLoaded(String),
    /// `save` was given no file, and the state came from none.
    NoFileToSave,
    /// `reload` reads a ruleset file again, and this is in use.
    NotAFile(Source),
}

impl fmt::Display for Refusal {
    /// In plain words, naming no face's commands (a face says it its own way: the REPL
    /// names the command that mends it).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NoState => write!(f, "no state loaded"),
            Refusal::NothingAdjudicated => write!(f, "nothing adjudicated yet"),
            Refusal::NothingToApply => write!(
                f,
                "no result to apply: nothing adjudicated since the last change to the state has effects"
            ),
            Refusal::AppliedAlready(text) => {
                write!(f, "the effects of `{text}` are applied already")
            }
            Refusal::NoEffects { last, applied } => write!(
                f,
                "the last result, `{last}`, has no effects to apply (those of `{applied}` are applied already)"
            ),
            Refusal::StateChanged(text) => write!(
                f,
                "the state has changed since `{text}` was adjudicated: adjudicate it again"
            ),
            Refusal::NothingToUndo => write!(f, "nothing to undo"),
            Refusal::AtStart(path) => write!(
                f,
                "nothing to undo: the game is as it started, with the state loaded from {path}"
            ),
            Refusal::TakesBackLoad(path) => write!(
                f,
                "undoing would take back the state loaded from {path}, and it is taken back only when asked for in so many words"
            ),
            Refusal::NothingToRedo => write!(f, "nothing to redo"),
            Refusal::EffectsNotApplied(text) => write!(
                f,
                "the effects of `{text}` are not yet applied: apply or drop them, then ask again"
            ),
            Refusal::NothingToDrop => write!(f, "no result's effects wait to be applied"),
            Refusal::OverLoaded(path) => write!(
                f,
                "no file named to save to, and the state was loaded from {path}: it is written over only when named"
            ),
            Refusal::NoFileToSave => write!(f, "no file to save to: the state came from none"),
            Refusal::NotAFile(source) => {
                write!(f, "only a ruleset file can be read again, and {source} is in use")
            }
        }
    }
}
