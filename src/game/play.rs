//! Playing a game: adjudicating, changing the table by hand, applying results, taking
//! changes back, loading and saving the state.

use super::dice::GameDice;
use super::{
    Adjudicated, Applied, Change, Done, Failure, Game, QueueUse, Refusal, Rolled, Ruling, Snapshot,
    TableDice,
};
use crate::adjudication::{Adjudication, Effect, Outcome};
use crate::diagnostic::Diag;
use crate::dice::Given;
use crate::eval::Options;
use crate::gamelog;
use crate::program::Query;
use crate::span::SourceFile;
use crate::state;
use serde_json::{json, Value as Json};

/// Where the statement of a `set` line starts: after the REPL's `:`, if any.
fn statement_start(line: &str) -> usize {
    let lead = line.len() - line.trim_start().len();
    if line[lead..].starts_with(':') {
        lead + 1
    } else {
        0
    }
}

impl Game {
    /// Adjudicates `text` against the state, with the queued faces and then the dice
    /// (`table` asked for each die the players roll), traced when `trace`. It becomes
    /// the last result, and — when it has effects — the one `apply` applies. Logged.
    ///
    /// Errors: the text does not compile; a result's effects are not yet applied and the
    /// text may change the state ([`Refusal::EffectsNotApplied`], nothing rolled); the
    /// adjudication stops with an error or is cancelled at the table (the last result is
    /// then forgotten, and so is the one with effects unless they wait to be applied).
    pub fn adjudicate(
        &mut self,
        text: &str,
        trace: bool,
        table: &mut dyn TableDice,
    ) -> Result<Adjudicated, Failure> {
        let query = self.rules.question("<input>", text)?;
        // Effects are never dropped silently: a question that may change the state waits
        // while another result's effects wait, and rolls nothing.
        if !self.legacy {
            if let Some(p) = self.unapplied() {
                if super::effects::may_change_state(&self.rules.program, &query.expr) {
                    return Err(Refusal::EffectsNotApplied(p.text.clone()).into());
                }
            }
        }
        let rolled = match self.run(&query, text, trace, table) {
            Ok(r) => r,
            Err(f) => {
                // `apply` and `explain` never reach past a failed input to a result
                // before it — but effects waiting stay: the input could not have
                // changed the state (or it would have waited for them).
                self.last = None;
                if self.unapplied().is_none() {
                    self.pending = None;
                }
                return Err(f);
            }
        };
        self.rulings += 1;
        let id = self.rulings;
        self.log_result(
            json!({ "expr": text, "result": id }),
            &rolled.adjudication,
            Some(rolled.dice),
        );
        let ruling = Ruling {
            id,
            text: text.to_string(),
            query,
            adjudication: rolled.adjudication.clone(),
            state: self.rules.state.clone(),
            version: self.version,
            era: self.era,
            applied: false,
        };
        let before = self.snapshot();
        if !ruling.adjudication.effects.is_empty() {
            self.pending = Some(ruling.clone());
        }
        self.last = Some(ruling);
        if !self.legacy {
            let done = Done::Result {
                text: text.to_string(),
                ruling: id,
            };
            self.record(done, before);
        }
        Ok(Adjudicated {
            adjudication: rolled.adjudication,
            queue: rolled.queue,
            hands: rolled.hands,
        })
    }

    /// The last result again, traced: the same faces, against the state as it was
    /// then. Nothing is rolled, changed or logged.
    ///
    /// Errors: nothing adjudicated; an error in the evaluation.
    pub fn explain(&mut self) -> Result<Adjudication, Failure> {
        let Some(last) = &self.last else {
            return Err(Refusal::NothingAdjudicated.into());
        };
        let faces: Vec<i64> = last
            .adjudication
            .rolls
            .iter()
            .flat_map(|r| r.faces.iter().map(|&f| i64::from(f)))
            .collect();
        let query = last.query.clone();
        let then = last.state.clone();
        let now = std::mem::replace(&mut self.rules.state, then);
        let explained = self.rules.adjudicate(
            &query,
            &mut Given::new(faces),
            Options {
                trace: true,
                ..self.rules.options()
            },
        );
        self.rules.state = now;
        explained.map_err(|error| Failure::Stopped {
            error: Box::new(error),
            queue: None,
        })
    }

    /// Evaluates `text` (a path into the state: `brigade.second_foot`) against the
    /// state, rolling nothing; nothing is changed or logged.
    ///
    /// Errors: no state; the text does not compile; an error in the evaluation.
    pub fn look(&mut self, text: &str) -> Result<Outcome, Failure> {
        if self.rules.state.is_none() {
            return Err(Refusal::NoState.into());
        }
        let q = self.rules.question("<input>", text)?;
        self.rules
            .adjudicate(&q, &mut Given::new(vec![]), self.rules.options())
            .map(|a| a.outcome)
            .map_err(|error| Failure::Stopped {
                error: Box::new(error),
                queue: None,
            })
    }

    /// Settings for the odds: sampled, past the limit, from the game's seed (so they
    /// replay); at the table, from a fresh one, which the report names.
    fn odds_settings(&self) -> crate::prob::Settings {
        crate::prob::Settings {
            seed: self.odds_seed.or(self.dice.seed()),
            ..crate::prob::Settings::default()
        }
    }

    /// The chance of each outcome of `text` against the state.
    ///
    /// Errors: the text does not compile; the odds cannot be worked out.
    pub fn odds(&mut self, text: &str) -> Result<crate::prob::Distribution, Failure> {
        let settings = self.odds_settings();
        let q = self.rules.question("<input>", text)?;
        let job = crate::prob::Job::of(&self.rules, &q);
        crate::prob::odds(&job, &settings).map_err(|error| Failure::Stopped {
            error: Box::new(error),
            queue: None,
        })
    }

    /// The chances of each outcome of `text` for each value of the sweep.
    ///
    /// Errors: as [`crate::prob::sweep::run`].
    pub fn sweep(
        &mut self,
        sweep: &crate::prob::sweep::Sweep,
        text: &str,
    ) -> Result<Vec<(String, crate::prob::Distribution)>, Failure> {
        let settings = self.odds_settings();
        Ok(crate::prob::sweep::run(
            &self.rules,
            text,
            sweep,
            &settings,
        )?)
    }

    /// Changes the state by hand: `line` is `set PATH = EXPR` (`+=`, `-=`), as given —
    /// after the REPL's `:`, if it has one; diagnostics point into the line as given.
    /// Logged, and can be undone. A `set` that changes nothing has no effects.
    ///
    /// Errors: no state; the line does not compile; the value does not fit.
    pub fn set(&mut self, line: &str, table: &mut dyn TableDice) -> Result<Adjudicated, Failure> {
        if self.rules.state.is_none() {
            return Err(Refusal::NoState.into());
        }
        let at = statement_start(line);
        let source = SourceFile::new("<input>", line).masked(at, line.len());
        let q = self.rules.question_set(source)?;
        let typed = line.trim();
        let rolled = self.run(&q, typed, false, table)?;
        if rolled.adjudication.effects.is_empty() {
            return Ok(Adjudicated {
                adjudication: rolled.adjudication,
                queue: rolled.queue,
                hands: rolled.hands,
            });
        }
        let done = Done::Set {
            line: typed.to_string(),
        };
        if let Err(error) = self.change(done, &rolled.adjudication.effects) {
            return Err(Failure::Stopped {
                error: Box::new(error),
                queue: rolled.queue.map(Box::new),
            });
        }
        self.log_result(
            json!({ "set": typed }),
            &rolled.adjudication,
            Some(rolled.dice),
        );
        Ok(Adjudicated {
            adjudication: rolled.adjudication,
            queue: rolled.queue,
            hands: rolled.hands,
        })
    }

    /// Applies the effects of the last result that has any. Logged, and can be undone.
    ///
    /// Errors: no such result; its effects are applied already; the state has changed
    /// since it was adjudicated.
    pub fn apply(&mut self) -> Result<Applied, Failure> {
        let Some(p) = &self.pending else {
            return Err(Refusal::NothingToApply.into());
        };
        if p.applied {
            if let Some(l) = self.last.as_ref().filter(|l| l.id != p.id) {
                if l.adjudication.effects.is_empty() {
                    return Err(Refusal::NoEffects {
                        last: l.text.clone(),
                        applied: p.text.clone(),
                    }
                    .into());
                }
            }
            return Err(Refusal::AppliedAlready(p.text.clone()).into());
        }
        if p.version != self.version {
            return Err(Refusal::StateChanged(p.text.clone()).into());
        }
        let Some(st) = &self.rules.state else {
            return Err(Refusal::NoState.into());
        };
        let (text, ruling, adjudication) = (p.text.clone(), p.id, p.adjudication.clone());
        let now = state::apply(st, &adjudication.effects)?;
        let before = self.snapshot();
        self.rules.state = Some(now);
        self.new_version();
        if let Some(p) = &mut self.pending {
            p.applied = true;
        }
        let done = Done::Apply {
            text: text.clone(),
            ruling,
        };
        self.record(done, before);
        self.log_result(
            json!({ "apply": text, "result": ruling }),
            &adjudication,
            None,
        );
        Ok(Applied { text, adjudication })
    }

    /// Drops the effects of the result whose effects are not yet applied: `apply` no
    /// longer applies them. Logged, and can be undone. Returns the input adjudicated.
    ///
    /// Errors: no result's effects wait to be applied.
    pub fn drop_effects(&mut self) -> Result<String, Failure> {
        let Some(p) = self.unapplied() else {
            return Err(Refusal::NothingToDrop.into());
        };
        let (text, ruling) = (p.text.clone(), p.id);
        let before = self.snapshot();
        self.pending = None;
        self.record(
            Done::Drop {
                text: text.clone(),
                ruling,
            },
            before,
        );
        self.log_line(json!({ "drop": text, "result": ruling }));
        Ok(text)
    }

    /// Takes the newest change back: the table before it comes back (undoing a result
    /// puts the result before it back as the last result; undoing an `apply` makes its
    /// result applicable again). Never the start of the game ([`Game::begin`]). Logged.
    ///
    /// Errors: nothing to undo; the newest change is a state loaded
    /// ([`Refusal::TakesBackLoad`]: [`Game::undo_anyway`] takes it back).
    pub fn undo(&mut self) -> Result<Change, Failure> {
        if let Some(Change {
            done: Done::Load { path },
            ..
        }) = self.history.last()
        {
            return Err(Refusal::TakesBackLoad(path.clone()).into());
        }
        self.undo_anyway()
    }

    /// As [`Game::undo`], a state loaded too.
    ///
    /// Errors: nothing to undo.
    pub fn undo_anyway(&mut self) -> Result<Change, Failure> {
        let Some(c) = self.history.take_back().cloned() else {
            return Err(match &self.start {
                Some(path) => Refusal::AtStart(path.clone()),
                None => Refusal::NothingToUndo,
            }
            .into());
        };
        self.restore(&c.before);
        self.log_line(took("undo", &c.done));
        Ok(c)
    }

    /// Does the change taken back last again: the table after it comes back (a result
    /// is the last result again, its effects waiting again if they were not applied).
    /// Nothing is rolled again. Logged.
    ///
    /// Errors: nothing was taken back since the last change.
    pub fn redo(&mut self) -> Result<Change, Failure> {
        let Some(c) = self.history.bring_back().cloned() else {
            return Err(Refusal::NothingToRedo.into());
        };
        self.restore(&c.after);
        self.log_line(took("redo", &c.done));
        Ok(c)
    }

    /// Loads a state file; `save` writes to it from then on. Logged, and can be undone.
    ///
    /// Errors: the file cannot be read, or does not fit the ruleset's declaration.
    pub fn load(&mut self, path: &str) -> Result<(), Failure> {
        let before = self.snapshot();
        let text = crate::files::read_file(path, &self.rules.limits)?;
        let loaded =
            state::load_text(&self.rules.program, &self.rules.sources, path, text.clone())?;
        self.rules.state = Some(loaded);
        self.state_path = Some(path.to_string());
        // A TOML file's text is kept, so that `save` keeps its comments and layout.
        self.keep_text(path, text);
        self.put(path, before);
        self.saved = self.version;
        Ok(())
    }

    /// Puts a state given as a JSON value (a game log's) on the table, named `name`.
    /// Logged, and can be undone; `save` writes where it did before.
    ///
    /// Errors: it does not fit the ruleset's declaration.
    pub fn load_value(&mut self, name: &str, state: &Json) -> Result<(), Failure> {
        let v = state::from_json(&self.rules.program, &self.rules.sources, name, state)?;
        let before = self.snapshot();
        self.rules.state = Some(v);
        self.put(name, before);
        Ok(())
    }

    /// Records a state put on the table from `path`, and logs it.
    fn put(&mut self, path: &str, before: Snapshot) {
        let line = match &self.rules.state {
            Some(s) => {
                json!({ "load": path, "state": state::to_json_value(&self.rules.program, s) })
            }
            None => json!({ "load": path, "state": Json::Null }),
        };
        self.new_version();
        let done = Done::Load {
            path: path.to_string(),
        };
        self.record(done, before);
        self.log_line(line);
    }

    /// Writes the state to `path`, whole or not at all; with none, to the file last
    /// named to `save` this game. Returns the file written.
    ///
    /// Errors: no state; no file named, and the state came from a file
    /// ([`Refusal::OverLoaded`]: it is written over only when named) or from none; the
    /// file cannot be written.
    pub fn save(&mut self, path: Option<&str>) -> Result<String, Failure> {
        let Some(st) = &self.rules.state else {
            return Err(Refusal::NoState.into());
        };
        let (path, named) = match (path, &self.save_to, &self.state_path) {
            (Some(p), _, _) => (p.to_string(), true),
            (None, Some(named), _) => (named.clone(), false),
            (None, None, Some(loaded)) => return Err(Refusal::OverLoaded(loaded.clone()).into()),
            (None, None, None) => return Err(Refusal::NoFileToSave.into()),
        };
        // The file written over, else the state's own file, edited.
        let text_of = |p: &str| {
            self.state_texts
                .iter()
                .find(|(at, _)| at == p)
                .map(|(_, text)| text.as_str())
        };
        let loaded = text_of(&path).or_else(|| self.state_path.as_deref().and_then(text_of));
        let text = state::to_file_text_keeping(
            &self.rules.program,
            &self.rules.sources,
            st,
            &path,
            loaded,
        );
        state::write_state(&path, &text, &self.rules.program, &self.rules.limits)?;
        if named {
            self.save_to = Some(path.clone());
        }
        self.keep_text(&path, text);
        self.saved = self.version;
        Ok(path)
    }

    /// Remembers the text of a TOML state file read or written, for `save` to edit.
    fn keep_text(&mut self, path: &str, text: String) {
        self.state_texts.retain(|(at, _)| at != path);
        if !path.to_ascii_lowercase().ends_with(".json") {
            self.state_texts.push((path.to_string(), text));
        }
    }

    /// The table now: what a change records before and after it.
    fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.rules.state.clone(),
            path: self.state_path.clone(),
            version: self.version,
            last: self.last.clone(),
            pending: self.pending.clone(),
        }
    }

    /// Puts a table recorded back (results of another ruleset or reading are not).
    fn restore(&mut self, s: &Snapshot) {
        self.rules.state = s.state.clone();
        self.state_path = s.path.clone();
        self.version = s.version;
        self.last = s.last.clone().filter(|r| r.era == self.era);
        self.pending = s.pending.clone().filter(|r| r.era == self.era);
    }

    /// Records a change made, from the table `before` it to the table now.
    fn record(&mut self, done: Done, before: Snapshot) {
        let after = self.snapshot();
        self.history.push(Change {
            done,
            before,
            after,
        });
    }

    /// Numbers a new state on the table.
    pub(super) fn new_version(&mut self) {
        self.versions += 1;
        self.version = self.versions;
    }

    /// Applies effects to the state on the table (the callers have seen there is one),
    /// recording the change.
    fn change(&mut self, done: Done, effects: &[Effect]) -> Result<(), Diag> {
        let Some(st) = &self.rules.state else {
            return Ok(());
        };
        let now = state::apply(st, effects)?;
        let before = self.snapshot();
        self.rules.state = Some(now);
        self.new_version();
        self.record(done, before);
        Ok(())
    }

    /// Runs a compiled query with the game's dice: queued faces first, then the mode.
    fn run(
        &mut self,
        q: &Query,
        input: &str,
        trace: bool,
        table: &mut dyn TableDice,
    ) -> Result<Rolled, Failure> {
        let queued: std::collections::VecDeque<i64> = std::mem::take(&mut self.queued).into();
        let named = std::mem::take(&mut self.queued_named);
        let had = !queued.is_empty() || !named.is_empty();
        let at = self.dice.at();
        let mut dice = GameDice {
            queued,
            named,
            made: Vec::new(),
            used: Vec::new(),
            hands: Vec::new(),
            mode: &mut self.dice,
            table,
            input,
            cancelled: None,
        };
        let result = self.rules.adjudicate(
            q,
            &mut dice,
            Options {
                trace,
                ..self.rules.options()
            },
        );
        let GameDice {
            queued,
            named,
            made,
            used,
            hands,
            cancelled,
            ..
        } = dice;
        let given = used.len();
        let typed = hands.iter().filter(|h| **h == super::Hand::Table).count();
        let queue = had.then(|| QueueUse {
            used,
            dropped: queued.into_iter().collect(),
            dropped_named: named,
            made,
        });
        match (result, cancelled) {
            (Ok(adjudication), _) => Ok(Rolled {
                adjudication,
                queue,
                dice: gamelog::queued_out_of_turn(
                    gamelog::dice_json(given, typed, at),
                    &queued_at(&hands),
                ),
                hands,
            }),
            (Err(_), Some((die, span))) => Err(Failure::Cancelled {
                die,
                span,
                sources: q.sources.clone(),
                queue: queue.map(Box::new),
            }),
            (Err(error), None) => Err(Failure::Stopped {
                error: Box::new(error),
                queue: queue.map(Box::new),
            }),
        }
    }
}

/// The numbers (from 1) of the dice whose faces were queued, in the order rolled.
fn queued_at(hands: &[super::Hand]) -> Vec<usize> {
    (1..=hands.len())
        .filter(|k| hands[k - 1] == super::Hand::Queued)
        .collect()
}

/// A game log's `undo` or `redo` line (`key`) for a change: what it did in words, and
/// for a result its number.
fn took(key: &str, done: &Done) -> Json {
    let mut line = serde_json::Map::new();
    line.insert(key.into(), done.to_string().into());
    if let Some(n) = done.result() {
        line.insert("result".into(), n.into());
    }
    Json::Object(line)
}
