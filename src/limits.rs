//! The limits that keep a hostile ruleset, state file or question from hanging umpire
//! or running it out of memory, in one place.
//!
//! Two kinds:
//! - **configurable** ([`Limits`]): file size, dice in one term, sides of a die, steps,
//!   call depth and dice rolled per adjudication. The command line sets them
//!   (`--max-steps N` and the like, see `umpire help eval`); a library user gives them
//!   where the work is done: loading a ruleset ([`crate::Ruleset::load_with`], kept in
//!   the [`crate::Ruleset`] for its questions, states and adjudications), checking
//!   ([`crate::check::CheckOptions`]) and adjudicating ([`crate::eval::Options`]).
//!   Nothing is kept per thread: where none are given, they are [`Limits::default`].
//! - **fixed**: how deeply brackets, prefix operators, expressions and records may nest
//!   ([`crate::syntax::parser::MAX_NESTING`], [`crate::syntax::parser::MAX_DEPTH`],
//!   [`crate::syntax::parser::MAX_OPERATORS`], [`crate::program::MAX_VALUE_DEPTH`],
//!   [`crate::eval::MAX_EVAL_NESTING`]). These guard the stack, so they are the same in
//!   debug and release builds and on every machine, and cannot be raised.
//!
//! A limit hit is a diagnostic (`umpire::limit::*`) naming the limit, at the span that
//! hit it. The exact-odds engine's case limit is `umpire prob --limit`.

/// The configurable limits. Each is the largest value allowed: the limit itself is
/// accepted, one past it is an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest ruleset, state or scenario file read, in bytes (4 MiB).
    pub file_bytes: u64,
    /// Most dice one term (`1000d6`) or one `dice(count, sides)` may roll (1000).
    pub dice_per_roll: u32,
    /// Most sides a die may have (1000); a die has at least one.
    pub sides: u32,
    /// Most evaluation steps in one adjudication (1,000,000): each expression worked
    /// out is a step, and each pattern alternative tried in a table row or `match`.
    pub steps: u64,
    /// Most rules, tables and modifier lists in use inside each other at once (1000).
    pub depth: u32,
    /// Most dice rolled in all in one adjudication (100,000).
    pub dice: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            file_bytes: 4 * 1024 * 1024,
            dice_per_roll: 1000,
            sides: 1000,
            steps: 1_000_000,
            depth: 1000,
            dice: 100_000,
        }
    }
}

/// Runs `f`, a step of a walk down a tree (building, checking, evaluating), on more
/// stack when little is left. The fixed nesting limits bound how deep a tree can be;
/// this makes the stack that depth needs independent of the thread umpire runs on (a
/// library user's 2 MiB thread, a debug build's larger frames): the stack grows on the
/// heap, 1 MiB at a time, instead of overflowing.
pub(crate) fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(128 * 1024, 1024 * 1024, f)
}

/// A file size in bytes as people say it: `4 MiB`, `512 KiB`, `100 bytes`.
pub fn bytes_text(n: u64) -> String {
    if n >= 1024 * 1024 && n.is_multiple_of(1024 * 1024) {
        format!("{} MiB", n / (1024 * 1024))
    } else if n >= 1024 && n.is_multiple_of(1024) {
        format!("{} KiB", n / 1024)
    } else if n == 1 {
        "1 byte".into()
    } else {
        format!("{n} bytes")
    }
}

/// Deepest nesting of brackets, braces and prefix operators a source may have (a ruleset,
/// a question, a state file): one of the fixed limits, the same in every build.
pub const MAX_NESTING: usize = 64;
