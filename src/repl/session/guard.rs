//! Nothing lost: what the session does before it would lose something the umpire did —
//! effects not yet applied, changes not saved, a state loaded, the state file loaded.
//! At a keyboard it asks; in a script (where the next line is not an answer) it is an
//! error that says how to force it.

use super::{queue_note, AtTable, Command, Io, Session};

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
                let marks = done.umpire_marks(self.game.dice());
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
        if !self.apply_or_drop(&waiting, "this question", "ask again", io) {
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

    /// Before `what` (a command, in backticks), which would leave the effects waiting
    /// no way to be applied: whether to go on — nothing waits, or the umpire applied or
    /// dropped them when asked. In a script it is an error saying to apply or drop them.
    pub(super) fn effects_first(&mut self, what: &str, io: &mut dyn Io) -> bool {
        let Some(waiting) = self.unapplied() else {
            return true;
        };
        self.apply_or_drop(&waiting, what, &format!("type {what} again"), io)
    }

    /// The effects of `waiting` are not yet applied, and `what` would lose them: at a
    /// keyboard the umpire applies them (a), drops them (d) or cancels `what` (c, an
    /// empty answer, or none); any other answer is asked again. In a script it is an
    /// error saying `:apply` or `:drop`, then `again`. True: they are applied or dropped.
    fn apply_or_drop(&mut self, waiting: &str, what: &str, again: &str, io: &mut dyn Io) -> bool {
        if !self.ask_again {
            self.fail(
                Diag::error(
                    Code::ReplEffectsNotApplied,
                    format!("the effects of `{waiting}` are not yet applied"),
                )
                .help(format!(
                    "`:apply` applies them, `:drop` drops them; then {again}"
                )),
                io,
            );
            return false;
        }
        loop {
            let answer = io.ask(&format!(
                "the effects of `{waiting}` are not yet applied: apply them now (a), drop them (d), or keep them and cancel {what} (c)? "
            ));
            let answer = answer.map(|a| a.trim().to_lowercase()).unwrap_or_default();
            match answer.as_str() {
                "a" | "apply" => return self.apply(io),
                "d" | "drop" => return self.drop_effects(io),
                "" | "c" | "cancel" => {
                    io.err(&format!(
                        "cancelled: the effects of `{waiting}` still wait (`:apply` or `:drop`)\n"
                    ));
                    self.cancelled = true;
                    return false;
                }
                _ => io.err(&format!(
                    "`{answer}` is not an answer: type a (apply them), d (drop them) or c (cancel)\n"
                )),
            }
        }
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

    /// `:save [FILE]` (`anyway`: `:save! FILE`). With no file named this game, writing
    /// over the state file loaded asks first at a keyboard; so does writing over a state
    /// file this game did not load or write, unless `anyway`. In a script each is an
    /// error saying how to force it.
    pub(super) fn save(&mut self, arg: &str, anyway: bool, io: &mut dyn Io) -> bool {
        if let Some(said) = super::paths::quote_left(arg) {
            io.err(&said);
            return false;
        }
        if let Some(dir) = (!arg.is_empty())
            .then(|| super::paths::missing_folder(arg))
            .flatten()
        {
            io.err(&format!(
                "error: cannot write {arg}: no such folder, {dir} (the state is not written)\n"
            ));
            return false;
        }
        let unknown = !anyway
            && !arg.is_empty()
            && super::paths::holds_a_state(
                arg,
                self.game.program(),
                self.game.ruleset().limits.file_bytes,
            )
            && !self.known.iter().any(|k| super::paths::same_file(k, arg));
        if unknown && !self.ask_again {
            io.err(&format!(
                "error: {arg} exists, and this game did not load or write it: `:save! {arg}` writes over it, `:save FILE` writes elsewhere\n"
            ));
            return false;
        }
        if unknown && !yes(io, &format!("{arg} exists: write over it? [y/N] ")) {
            io.err("not written: `:save FILE` writes elsewhere\n");
            return true;
        }
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
                if let Some(waiting) = self.unapplied() {
                    io.err(&format!(
                        "note: the effects of `{waiting}` are not yet applied, and are not in the saved state (`:apply`, then `:save` again, keeps them)\n"
                    ));
                }
                self.known.push(path);
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// When `text` starts with a command's name typed without its `:` (any case) and
    /// the ruleset in use gives the line no meaning: the line to type instead
    /// (`:save x.toml`).
    pub(super) fn colon_missing(&self, text: &str) -> Option<String> {
        let word = text.split_whitespace().next()?;
        let name = word.to_lowercase();
        let c = Command::parse(&name)?;
        let listed = c.name() == name || c.also().contains(&name.as_str());
        // A name the ruleset defines (a rule, a table, a constant) is its own: a
        // mistake in a question that starts with it is the question's.
        let defined = self.game.program().callable_names().contains(&word)
            || self.game.understands(word)
            || self.game.understands(text);
        if !listed || defined {
            return None;
        }
        Some(format!(":{name}{}", &text[word.len()..]))
    }
}

/// Asks a yes-or-no question; only `y` (or `yes`) is yes.
pub(super) fn yes(io: &mut dyn Io, question: &str) -> bool {
    io.ask(question)
        .is_some_and(|a| matches!(a.trim().to_lowercase().as_str(), "y" | "yes"))
}
