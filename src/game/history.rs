//! The history of a game: every change the umpire made — a result adjudicated, the
//! table changed by hand, effects applied or dropped, a state loaded — oldest first,
//! each with what was done and the table before and after it: what `undo` puts back,
//! and what `redo` puts back again. The changes taken back wait to be done again until
//! a new change is made.

use super::Ruling;
use crate::value::Value;
use std::fmt;

/// The table as a change leaves it: the state (if any), the file `save` writes to, and
/// the results in hand.
#[derive(Debug, Clone)]
pub struct Snapshot {
    /// The state on the table.
    pub state: Option<Value>,
    /// The state file it was loaded from.
    pub path: Option<String>,
    /// Which state it is: the game numbers each state it puts on the table, and a state
    /// put back keeps its number (so a result adjudicated against it applies again,
    /// and a state saved is known as saved).
    pub version: u64,
    /// The last result.
    pub last: Option<Ruling>,
    /// The last result with effects.
    pub pending: Option<Ruling>,
}

/// What a change did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Done {
    /// A state put on the table: a state file loaded, or a state given as a value
    /// (`path` then names it).
    Load {
        /// The file, or the name the state was given under.
        path: String,
    },
    /// The state changed by hand: `set PATH = EXPR` (`+=`, `-=`), as given — the REPL's
    /// line, `:set …`, whole.
    Set {
        /// The line as given, trimmed.
        line: String,
    },
    /// The effects of a result applied.
    Apply {
        /// The input adjudicated.
        text: String,
        /// Which result ([`super::Ruling::id`]), so that undoing this makes that one
        /// applicable again.
        ruling: u64,
    },
    /// A question adjudicated: its result became the last result (and, with effects,
    /// the one `apply` applies). The state is untouched.
    Result {
        /// The input adjudicated.
        text: String,
        /// Which result ([`super::Ruling::id`]).
        ruling: u64,
    },
    /// The effects of a result dropped: `apply` no longer applies them.
    Drop {
        /// The input adjudicated.
        text: String,
        /// Which result ([`super::Ruling::id`]).
        ruling: u64,
    },
}

impl Done {
    /// The result it adjudicated, for a [`Done::Result`] (a game log's `undo` and `redo`
    /// lines name it as `"result": N`).
    pub fn result(&self) -> Option<u64> {
        match self {
            Done::Result { ruling, .. } => Some(*ruling),
            _ => None,
        }
    }
}

impl fmt::Display for Done {
    /// The change as a game log's `undo` and `redo` lines and the REPL's `undone:` name
    /// it: `` `:load table.toml` ``, `` `:set brigade.x.lost_percent = 35` ``,
    /// ``the effects of `volley("x")` ``, ``the result of `manoeuvre(brigade.x)` ``,
    /// ``dropping the effects of `volley("x")` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Done::Load { path } => write!(f, "`:load {path}`"),
            Done::Set { line } => write!(f, "`{line}`"),
            Done::Apply { text, .. } => write!(f, "the effects of `{text}`"),
            Done::Result { text, .. } => write!(f, "the result of `{text}`"),
            Done::Drop { text, .. } => write!(f, "dropping the effects of `{text}`"),
        }
    }
}

/// One change to the table.
#[derive(Debug, Clone)]
pub struct Change {
    /// What was done.
    pub done: Done,
    /// The table before it: what undoing it puts back.
    pub before: Snapshot,
    /// The table after it: what doing it again puts back.
    pub after: Snapshot,
}

/// The changes that can be taken back, oldest first, and those taken back that can be
/// done again.
#[derive(Debug, Clone, Default)]
pub struct History {
    changes: Vec<Change>,
    /// Taken back, the newest taken back last: the next `redo` does it again.
    undone: Vec<Change>,
}

impl History {
    /// Records a change, the newest. What was taken back can no longer be done again.
    pub fn push(&mut self, change: Change) {
        self.changes.push(change);
        self.undone.clear();
    }

    /// Takes the newest change off to undo it; it can be done again (until a new
    /// change is pushed).
    pub fn take_back(&mut self) -> Option<&Change> {
        let c = self.changes.pop()?;
        self.undone.push(c);
        self.undone.last()
    }

    /// Puts back the change taken back last, to do it again.
    pub fn bring_back(&mut self) -> Option<&Change> {
        let c = self.undone.pop()?;
        self.changes.push(c);
        self.changes.last()
    }

    /// The newest change.
    pub fn last(&self) -> Option<&Change> {
        self.changes.last()
    }

    /// The change `redo` would do again.
    pub fn next_redo(&self) -> Option<&Change> {
        self.undone.last()
    }

    /// Every change, oldest first.
    pub fn iter(&self) -> std::slice::Iter<'_, Change> {
        self.changes.iter()
    }

    /// How many changes can be taken back.
    pub fn len(&self) -> usize {
        self.changes.len()
    }

    /// Whether there is nothing to take back.
    pub fn is_empty(&self) -> bool {
        self.changes.is_empty()
    }

    /// Forgets every change, and every change taken back.
    pub fn clear(&mut self) {
        self.changes.clear();
        self.undone.clear();
    }

    /// Reads every change's states into another ruleset with `read` (an enum's values
    /// may have moved). From the newest change back: the first whose states do not fit
    /// is dropped, with every change before it — they can no longer be taken back; and
    /// from the next to be done again on, the first that does not fit is dropped with
    /// every one after it. Returns whether any were dropped: of the changes that can be
    /// taken back, and of those that can be done again.
    pub(crate) fn carry(&mut self, mut read: impl FnMut(&Value) -> Option<Value>) -> (bool, bool) {
        let mut read_snapshot = |s: &Snapshot| -> Option<Snapshot> {
            let state = match &s.state {
                None => None,
                Some(v) => Some(read(v)?),
            };
            Some(Snapshot { state, ..s.clone() })
        };
        let mut read_all = |changes: Vec<Change>| -> (Vec<Change>, bool) {
            let mut cut = false;
            let mut kept = Vec::with_capacity(changes.len());
            for c in changes.into_iter().rev() {
                match (read_snapshot(&c.before), read_snapshot(&c.after)) {
                    (Some(before), Some(after)) => kept.push(Change {
                        done: c.done,
                        before,
                        after,
                    }),
                    _ => {
                        cut = true;
                        break;
                    }
                }
            }
            kept.reverse();
            (kept, cut)
        };
        let (changes, undo_cut) = read_all(std::mem::take(&mut self.changes));
        let (undone, redo_cut) = read_all(std::mem::take(&mut self.undone));
        self.changes = changes;
        self.undone = undone;
        (undo_cut, redo_cut)
    }
}
