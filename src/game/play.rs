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
    /// Errors: the text does not compile; the adjudication stops with an error or is
    /// cancelled at the table (the last result is then forgotten).
    pub fn adjudicate(
        &mut self,
        text: &str,
        trace: bool,
        table: &mut dyn TableDice,
    ) -> Result<Adjudicated, Failure> {
        let query = self.rules.question("<input>", text)?;
        let rolled = match self.run(&query, text, trace, table) {
            Ok(r) => r,
            Err(f) => {
                // `apply` and `explain` never reach past a failed input to a result
                // before it.
                self.last = None;
                self.pending = None;
                return Err(f);
            }
        };
        self.log_result(
            json!({ "expr": text }),
            &rolled.adjudication,
            Some(rolled.dice),
        );
        self.rulings += 1;
        let ruling = Ruling {
            id: self.rulings,
            text: text.to_string(),
            query,
            adjudication: rolled.adjudication.clone(),
            state: self.rules.state.clone(),
            version: self.version,
            applied: false,
        };
        if !ruling.adjudication.effects.is_empty() {
            self.pending = Some(ruling.clone());
        }
        self.last = Some(ruling);
        Ok(Adjudicated {
            adjudication: rolled.adjudication,
            queue: rolled.queue,
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
            seed: self.dice.seed(),
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
            });
        }
        let done = Done::Set {
            line: typed.to_string(),
        };
        if let Err(error) = self.change(done, &rolled.adjudication.effects) {
            return Err(Failure::Stopped {
                error: Box::new(error),
                queue: rolled.queue,
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
            return Err(Refusal::AppliedAlready(p.text.clone()).into());
        }
        if p.version != self.version {
            return Err(Refusal::StateChanged(p.text.clone()).into());
        }
        if self.rules.state.is_none() {
            return Err(Refusal::NoState.into());
        }
        let (text, ruling, adjudication) = (p.text.clone(), p.id, p.adjudication.clone());
        let done = Done::Apply {
            text: text.clone(),
            ruling,
        };
        self.change(done, &adjudication.effects)?;
        if let Some(p) = &mut self.pending {
            p.applied = true;
        }
        self.log_result(json!({ "apply": text }), &adjudication, None);
        Ok(Applied { text, adjudication })
    }

    /// Takes the last change back. Undoing an `apply` makes its result applicable
    /// again. Logged.
    ///
    /// Errors: nothing to undo.
    pub fn undo(&mut self) -> Result<Change, Failure> {
        let Some(c) = self.history.pop() else {
            return Err(Refusal::NothingToUndo.into());
        };
        self.rules.state = c.before.state.clone();
        self.state_path = c.before.path.clone();
        self.version += 1;
        if let (Done::Apply { ruling, .. }, Some(p)) = (&c.done, &mut self.pending) {
            if p.id == *ruling {
                // Against the state it was adjudicated against, which is back.
                p.applied = false;
                p.version = self.version;
            }
        }
        self.log_line(json!({ "undo": c.done.to_string() }));
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
        let after = self.snapshot();
        self.history.push(Change {
            done: Done::Load {
                path: path.to_string(),
            },
            before,
            after,
        });
        self.version += 1;
        self.log_line(line);
    }

    /// Writes the state to `path`, or to the file it came from; whole or not at all.
    /// Returns the file written.
    ///
    /// Errors: no state; no file to write; the file cannot be written.
    pub fn save(&mut self, path: Option<&str>) -> Result<String, Failure> {
        let Some(st) = &self.rules.state else {
            return Err(Refusal::NoState.into());
        };
        let path = match path {
            Some(p) => p.to_string(),
            None => self.state_path.clone().ok_or(Refusal::NoFileToSave)?,
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
        state::write_state(&path, &text)?;
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

    fn snapshot(&self) -> Snapshot {
        Snapshot {
            state: self.rules.state.clone(),
            path: self.state_path.clone(),
        }
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
        let after = self.snapshot();
        self.history.push(Change {
            done,
            before,
            after,
        });
        self.version += 1;
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
        let had = !queued.is_empty();
        let at = self.dice.at();
        let mut dice = GameDice {
            queued,
            used: Vec::new(),
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
            used,
            cancelled,
            ..
        } = dice;
        let given = used.len();
        let queue = had.then(|| QueueUse {
            used,
            dropped: queued.into_iter().collect(),
        });
        match (result, cancelled) {
            (Ok(adjudication), _) => Ok(Rolled {
                adjudication,
                queue,
                dice: gamelog::dice_json(given, at),
            }),
            (Err(_), Some((die, span))) => Err(Failure::Cancelled {
                die,
                span,
                sources: q.sources.clone(),
                queue,
            }),
            (Err(error), None) => Err(Failure::Stopped {
                error: Box::new(error),
                queue,
            }),
        }
    }
}
