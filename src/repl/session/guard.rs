//! Nothing lost: what the session does before it would lose something the umpire did —
//! effects not yet applied, changes not saved, a state loaded, the state file loaded.
//! At a keyboard it asks; in a script (where the next line is not an answer) it is an
//! error that says how to force it.

use super::{queue_note, umpire_marks, AtTable, Command, Io, Session};

use crate::diagnostic::{Code, Diag};
use crate::game::{Adjudicated, Failure, Refusal};
use crate::render::{effects_text, report_text_marked};

impl Session {
    /// What leaving now would lose, each in words (effects not yet applied, changes
    /// not saved); empty when nothing.
    pub fn at_stake(&self) -> Vec<String> {
        let mut lost = Vec::new();
        if let Some(r) = self.game.unapplied() {
            lost.push(format!("the effects of `{}` are not yet applied", r.text()));
        }
        if self.game.unsaved() {
            lost.push("the changes to the state on the table are not saved".to_string());
        }
        lost
    }

    /// Whether to end the session, with nothing at stake or the umpire's leave: at a
    /// keyboard it asks (y/N) what would be lost; in a script it refuses, saying what
    /// and that `:quit!` leaves anyway (a failure: the exit status is 1).
    pub fn may_leave(&mut self, io: &mut dyn Io) -> bool {
        let lost = self.at_stake();
        if lost.is_empty() {
            return true;
        }
        let lost = lost.join(", and ");
        if self.ask_again {
            return yes(io, &format!("{lost}: leave anyway? [y/N] "));
        }
        let mut mend = Vec::new();
        if self.game.unapplied().is_some() {
            mend.push("`:apply` applies the effects (`:drop` drops them)");
        }
        if self.game.unsaved() {
            mend.push("`:save FILE` keeps the state");
        }
        io.err(&format!(
            "error: not leaving: {lost}. {}; `:quit!` leaves anyway\n",
            mend.join(", ")
        ));
        self.failed = true;
        false
    }

    /// What a script left behind when its input ended without `:quit` (not a failure):
    /// a note naming it, if anything was.
    pub fn end_note(&self) -> Option<String> {
        let lost = self.at_stake();
        (!lost.is_empty()).then(|| format!("note: the input ended, and {}\n", lost.join(", and ")))
    }

    /// Adjudicates `text` against the state; prints it as `umpire eval` does. A
    /// question that may change the state while another result's effects wait: at a
    /// keyboard the umpire chooses (apply them, drop them, or cancel the question); in
    /// a script it is an error.
    pub(super) fn adjudicate(&mut self, text: &str, trace: bool, io: &mut dyn Io) -> bool {
        match self.adjudicate_guarded(text, trace, io) {
            Ok(Some(done)) => {
                queue_note(done.queue.as_ref(), io);
                let marks = umpire_marks(&done, self.game.dice());
                io.out(&report_text_marked(
                    self.game.program(),
                    &done.adjudication,
                    &marks,
                ));
                true
            }
            Ok(None) => false,
            Err(f) => self.failure(f, io),
        }
    }

    /// The game adjudicates `text`; when it waits for effects not yet applied, the
    /// umpire chooses at a keyboard (`None`: cancelled, or applying or dropping them
    /// failed, said already) and a script gets the error (`None`, a failure).
    pub(in crate::repl) fn adjudicate_guarded(
        &mut self,
        text: &str,
        trace: bool,
        io: &mut dyn Io,
    ) -> Result<Option<Adjudicated>, Failure> {
        let done = self.adjudicate_once(text, trace, io);
        let Err(Failure::Refused(Refusal::EffectsNotApplied(waiting))) = &done else {
            return done.map(Some);
        };
        let waiting = waiting.clone();
        if !self.ask_again {
            self.fail(
                Diag::error(
                    Code::ReplEffectsNotApplied,
                    format!("the effects of `{waiting}` are not yet applied"),
                )
                .help("`:apply` applies them, `:drop` drops them; then ask again"),
                io,
            );
            return Ok(None);
        }
        let answer = io.ask(&format!(
            "the effects of `{waiting}` are not yet applied: apply them now (a), drop them (d), or keep them and cancel this question (c)? "
        ));
        let answer = answer.map(|a| a.trim().to_lowercase()).unwrap_or_default();
        let went = match answer.as_str() {
            "a" | "apply" => self.apply(io),
            "d" | "drop" => self.drop_effects(io),
            _ => {
                io.err(&format!(
                    "cancelled: the effects of `{waiting}` still wait (`:apply` or `:drop`)\n"
                ));
                self.cancelled = true;
                return Ok(None);
            }
        };
        if !went {
            return Ok(None);
        }
        self.adjudicate_once(text, trace, io).map(Some)
    }

    /// The game adjudicates `text`, the players' dice asked for through `io`.
    pub(super) fn adjudicate_once(
        &mut self,
        text: &str,
        trace: bool,
        io: &mut dyn Io,
    ) -> Result<Adjudicated, Failure> {
        let mut table = AtTable::new(&mut *io, self.ask_again);
        self.game.adjudicate(text, trace, &mut table)
    }

    /// `:apply`: says which result's effects it applied, then the effects.
    pub(super) fn apply(&mut self, io: &mut dyn Io) -> bool {
        match self.game.apply() {
            Ok(done) => {
                io.out(&format!("applied the effects of `{}`:\n", done.text));
                io.out(&effects_text(
                    self.game.program(),
                    &done.adjudication.effects,
                ));
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// After `c`: when the effects of `waiting` waited before it and no longer can be
    /// applied — the state changed by hand or loaded, another ruleset or reading put in
    /// use — says so, and why.
    pub(super) fn say_forgotten(&self, c: Command, waiting: Option<String>, io: &mut dyn Io) {
        let Some(text) = waiting else { return };
        if self.unapplied().is_some() {
            return;
        }
        let why = match c {
            Command::Set | Command::Load => {
                "the state has changed since it was adjudicated (`:undo` takes the change back)"
            }
            Command::Use | Command::UseAnyway | Command::Reload => {
                "they are forgotten with the ruleset it was adjudicated under: adjudicate it again"
            }
            Command::Interpret => {
                "they are forgotten with the reading it was adjudicated under: adjudicate it again"
            }
            _ => return,
        };
        io.err(&format!(
            "note: the effects of `{text}` can no longer be applied: {why}\n"
        ));
    }

    /// `:drop`: the effects waiting are not applied.
    pub(super) fn drop_effects(&mut self, io: &mut dyn Io) -> bool {
        match self.game.drop_effects() {
            Ok(text) => {
                io.out(&format!(
                    "dropped the effects of `{text}`: they are not applied\n"
                ));
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// `:undo` (`:undo!`: `anyway`, a state loaded taken back without asking). Taking
    /// back a `:load` asks first at a keyboard; in a script it is an error naming
    /// `:undo!`.
    pub(super) fn undo(&mut self, anyway: bool, io: &mut dyn Io) -> bool {
        let done = match self.game.undo() {
            Err(Failure::Refused(Refusal::TakesBackLoad(path))) if anyway || self.ask_again => {
                if !anyway
                    && !yes(
                        io,
                        &format!(
                            "take back `:load {path}`? The state on the table before it comes back (`:redo` loads {path} again) [y/N] "
                        ),
                    )
                {
                    io.err("not undone\n");
                    return true;
                }
                self.game.undo_anyway()
            }
            done => done,
        };
        match done {
            Ok(change) => {
                io.out(&format!("undone: {}\n", change.done));
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// `:save [FILE]`. With no file named this game, writing over the state file loaded
    /// asks first at a keyboard; in a script it is an error saying to name it.
    pub(super) fn save(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        let done = match self.game.save((!arg.is_empty()).then_some(arg)) {
            Err(Failure::Refused(Refusal::OverLoaded(path))) if self.ask_again => {
                if !yes(
                    io,
                    &format!("write over {path}, the state file you loaded? [y/N] "),
                ) {
                    io.err("not written: `:save FILE` writes elsewhere\n");
                    return true;
                }
                self.game.save(Some(&path))
            }
            done => done,
        };
        match done {
            Ok(path) => {
                io.err(&format!("state written to {path}\n"));
                true
            }
            Err(f) => self.failure(f, io),
        }
    }
}

/// Asks a yes-or-no question; only `y` (or `yes`) is yes.
pub(super) fn yes(io: &mut dyn Io, question: &str) -> bool {
    io.ask(question)
        .is_some_and(|a| matches!(a.trim().to_lowercase().as_str(), "y" | "yes"))
}
