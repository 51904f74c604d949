//! The history of a game: every change to the table, oldest first, each with what was
//! done and the table before and after it — what `undo` puts back, and what a redo
//! would put back again.

use crate::value::Value;
use std::fmt;

/// The table as a change leaves it: the state (if any) and the file `save` writes to.
#[derive(Debug, Clone, PartialEq)]
pub struct Snapshot {
    /// The state on the table.
    pub state: Option<Value>,
    /// The state file it was loaded from, or last saved to.
    pub path: Option<String>,
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
}

impl fmt::Display for Done {
    /// The change as a game log's `undo` line and the REPL's `undone:` name it:
    /// `` `:load table.toml` ``, `` `:set brigade.x.lost_percent = 35` ``,
    /// ``the effects of `volley("x")` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Done::Load { path } => write!(f, "`:load {path}`"),
            Done::Set { line } => write!(f, "`{line}`"),
            Done::Apply { text, .. } => write!(f, "the effects of `{text}`"),
        }
    }
}

/// One change to the table.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// What was done.
    pub done: Done,
    /// The table before it: what undoing it puts back.
    pub before: Snapshot,
    /// The table after it: what doing it again would put back.
    pub after: Snapshot,
}

/// The changes that can be taken back, oldest first.
#[derive(Debug, Clone, Default)]
pub struct History {
    changes: Vec<Change>,
}

impl History {
    /// Records a change, the newest.
    pub fn push(&mut self, change: Change) {
        self.changes.push(change);
    }

    /// Takes the newest change off (to undo it).
    pub fn pop(&mut self) -> Option<Change> {
        self.changes.pop()
    }

    /// The newest change.
    pub fn last(&self) -> Option<&Change> {
        self.changes.last()
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

    /// Forgets every change.
    pub fn clear(&mut self) {
        self.changes.clear();
    }

    /// Reads every change's states into another ruleset with `read` (an enum's values
    /// may have moved). From the newest change back: the first whose states do not fit
    /// is dropped, with every change before it — they can no longer be taken back.
    /// Returns whether any were dropped.
    pub(crate) fn carry(&mut self, mut read: impl FnMut(&Value) -> Option<Value>) -> bool {
        let mut read_snapshot = |s: &Snapshot| -> Option<Snapshot> {
            let state = match &s.state {
                None => None,
                Some(v) => Some(read(v)?),
            };
            Some(Snapshot {
                state,
                path: s.path.clone(),
            })
        };
        let mut kept = Vec::with_capacity(self.changes.len());
        let mut cut = false;
        for c in std::mem::take(&mut self.changes).into_iter().rev() {
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
        self.changes = kept;
        cut
    }
}
