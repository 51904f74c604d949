//! A game at the table: the ruleset in use, the state on the table (and the file it came
//! from), the dice, the last result and the one whose effects may be applied, the
//! history of changes that can be taken back, and the game log.
//!
//! Every face plays a game through the same typed methods: the REPL parses a line and
//! calls one; `umpire replay` calls them with what a log recorded. They return typed
//! results — the [`Adjudication`], the effects [`Applied`], the [`Change`] undone, a
//! [`Failure`] with its diagnostics — and never print: the face renders them. The
//! players' dice are asked for through a [`TableDice`] the face supplies with each
//! adjudication, so the library never prompts.
//!
//! The methods: [`Game::put_in_use`] (a [`Candidate`] ruleset read with
//! [`Candidate::read`]), [`Game::load`] / [`Game::load_value`] (a state),
//! [`Game::begin`] (what the game holds now is its start, not a change), `adjudicate`,
//! `explain`, `look` (a path into the state, rolling nothing), `odds`, `sweep`, `set`,
//! `apply`, `drop_effects`, `undo` / `undo_anyway`, `redo`, `save`, [`Game::interpret`],
//! [`Game::set_dice`], [`Game::queue`] (faces given in advance) and [`Game::log_to`].
//!
//! **History.** Every change the umpire makes is in the [`History`]: a result
//! adjudicated (the state untouched), a `set`, an `apply`, a `drop`, a state loaded.
//! `undo` takes back the newest — never the start ([`Game::begin`]); a state loaded only
//! through `undo_anyway`, the face having asked — and `redo` does it again, until a new
//! change is made. A [`Change`] says what was done in words through its `done` field
//! (`` `:set …` ``, ``the result of `…` ``); its snapshots hold the table before and
//! after. Effects are never dropped silently: while a result's effects wait
//! ([`Game::unapplied`]), a question that may change the state is refused before
//! anything is rolled ([`Refusal::EffectsNotApplied`]) until they are applied or
//! dropped.
//!
//! ```
//! use umpire::game::{DiceMode, Fit, Game, NoTable, Candidate};
//! use umpire::limits::Limits;
//!
//! let mut game = Game::new(DiceMode::seeded(7));
//! let rules = Candidate::read("furious_reason", &Limits::default()).expect("bundled");
//! game.put_in_use(rules, Fit::Keep).expect("no state to carry");
//! game.load("examples/states/furious_reason_brigade.toml").expect("the state fits");
//! game.queue(&[6]);
//! let done = game
//!     .adjudicate("manoeuvre(brigade.second_foot)", false, &mut NoTable)
//!     .expect("adjudicated");
//! assert_eq!(done.adjudication.rolls[0].faces, [6]);
//! ```
//!
//! **Threads.** A `Game` holds `Rc`s (the checked program, the values on the table, the
//! results) and is not `Send`. A web server keeps each game on one thread that owns it;
//! other threads send that thread requests (over a channel, each with a way to reply),
//! and it calls the method and renders the result — text or JSON — before replying,
//! since results hold `Rc`s too. Dice typed at the table arrive the same way: the
//! owning thread's [`TableDice`] waits for the request that carries the face.

mod dice;
mod effects;
mod failure;
mod history;
mod play;
#[cfg(test)]
mod tests;

pub use dice::{
    face_called, one_die, DiceMode, Hand, NoFace, NoTable, QueueUse, TableDice, TableDie,
};
pub use effects::may_change_state;
pub use failure::{Failure, Refusal};
pub use history::{Change, Done, History, Snapshot};

use crate::adjudication::Adjudication;
use crate::diagnostic::{Diag, Diags};
use crate::gamelog;
use crate::limits::Limits;
use crate::program::{Program, Query};
use crate::render::adjudication_json;
use crate::value::Value;
use crate::{bundled, state, Ruleset};
use serde_json::Value as Json;
use std::fmt;

/// Where the ruleset in use came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// None: expressions and dice only.
    Nothing,
    /// A bundled ruleset, by name.
    Bundled(String),
    /// A ruleset file, by path (what [`Game::read_again`] reads).
    File(String),
}

impl Source {
    /// The name it was loaded by, as a game log records it (empty for none).
    pub fn name(&self) -> &str {
        match self {
            Source::Nothing => "",
            Source::Bundled(n) | Source::File(n) => n,
        }
    }
}

impl fmt::Display for Source {
    /// `no ruleset`, ``the bundled ruleset `little_wars` ``, ``the ruleset file `house.rules` ``.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Nothing => write!(f, "no ruleset"),
            Source::Bundled(n) => write!(f, "the bundled ruleset `{n}`"),
            Source::File(p) => write!(f, "the ruleset file `{p}`"),
        }
    }
}

/// A ruleset read and checked but not yet in use, so that its warnings can be shown
/// first ([`Game::put_in_use`] puts it in use).
#[derive(Debug, Clone)]
pub struct Candidate {
    ruleset: Ruleset,
    source: Source,
}

impl Candidate {
    /// Reads a bundled ruleset by name, or a ruleset file by path.
    ///
    /// Errors: the file cannot be read, or the ruleset has errors.
    pub fn read(name: &str, limits: &Limits) -> Result<Candidate, Diags> {
        let ruleset = Ruleset::load_with(name, limits)?;
        let source = if bundled::source(name).is_some() {
            Source::Bundled(name.to_string())
        } else {
            Source::File(name.to_string())
        };
        Ok(Candidate { ruleset, source })
    }

    /// The checker's warnings (sources attached).
    pub fn warnings(&self) -> &[Diag] {
        &self.ruleset.warnings
    }

    /// Where it was read from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// The checked program.
    pub fn program(&self) -> &Program {
        &self.ruleset.program
    }

    /// The files it was read from, which its spans point into.
    pub fn sources(&self) -> &crate::span::SourceMap {
        &self.ruleset.sources
    }
}

/// What becomes of a state on the table that does not fit a new ruleset.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fit {
    /// The new ruleset is not put in use ([`Failure::DoesNotFit`]).
    Keep,
    /// The state is left behind, and the history with it.
    LeaveBehind,
}

/// What putting a ruleset in use did besides.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Carried {
    /// The state did not fit, and was left behind (with the history).
    pub left_behind: bool,
    /// The states of older changes do not fit the new ruleset: those changes can no
    /// longer be taken back.
    pub history_cut: bool,
    /// The states of changes taken back do not fit the new ruleset: they can no longer
    /// be done again (`redo`).
    pub redo_cut: bool,
    /// Readings chosen before that the new ruleset does not have, no longer chosen:
    /// (interpretation, reading).
    pub readings_dropped: Vec<(String, String)>,
}

/// A result adjudicated: what [`Game::explain`] explains again and, when it has
/// effects, what [`Game::apply`] applies.
#[derive(Debug, Clone)]
pub struct Ruling {
    id: u64,
    text: String,
    query: Query,
    adjudication: Adjudication,
    /// The state it was adjudicated against.
    state: Option<Value>,
    /// The state's number then ([`Snapshot::version`]): another state on the table
    /// puts it out of date.
    version: u64,
    /// The ruleset and readings it was adjudicated under ([`Game`]'s `era`): a result
    /// of others is never put back as the last result.
    era: u64,
    applied: bool,
}

impl Ruling {
    /// Which result of the game it is (counting from 1).
    pub fn id(&self) -> u64 {
        self.id
    }

    /// The input adjudicated.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The result.
    pub fn adjudication(&self) -> &Adjudication {
        &self.adjudication
    }

    /// Whether its effects are on the table.
    pub fn applied(&self) -> bool {
        self.applied
    }
}

/// An adjudication done, and what became of the faces queued for it.
#[derive(Debug, Clone)]
pub struct Adjudicated {
    /// The result (for a `set`, its effects are the change made; none: no change).
    pub adjudication: Adjudication,
    /// The queued faces it used and dropped (`None`: none were queued).
    pub queue: Option<QueueUse>,
    /// Who gave each face rolled, in the order of the rolls' faces.
    pub hands: Vec<Hand>,
}

impl Adjudicated {
    /// How many faces of each roll of `done` umpire rolled, where they are to be marked
    /// as umpire's: when other dice of the result were queued or typed, or the players
    /// roll (the mode is table dice) and umpire rolled anyway. Empty: none marked.
    pub fn umpire_marks(&self, mode: &DiceMode) -> Vec<usize> {
        let done = self;
        let hands = &done.hands;
        let umpire = hands.iter().filter(|h| **h == Hand::Umpire).count();
        let table = matches!(mode, DiceMode::Table);
        if umpire == 0 || (umpire == hands.len() && !table) {
            return Vec::new();
        }
        let mut at = 0;
        done.adjudication
            .rolls
            .iter()
            .map(|r| {
                let end = (at + r.faces.len()).min(hands.len());
                let by = hands[at.min(end)..end]
                    .iter()
                    .filter(|h| **h == Hand::Umpire)
                    .count();
                at = end;
                by
            })
            .collect()
    }
}

/// The effects of a result, applied to the table.
#[derive(Debug, Clone)]
pub struct Applied {
    /// The input adjudicated.
    pub text: String,
    /// Its result, whose effects were applied.
    pub adjudication: Adjudication,
}

/// A run of the evaluator with the game's dice.
struct Rolled {
    adjudication: Adjudication,
    queue: Option<QueueUse>,
    /// Who gave each face.
    hands: Vec<Hand>,
    /// Where the dice came from, as the log records it.
    dice: Json,
}

/// A game at the table (see the module documentation).
#[derive(Debug)]
pub struct Game {
    rules: Ruleset,
    source: Source,
    dice: DiceMode,
    queued: Vec<i64>,
    /// Faces queued for a roll by its name (`:roll attacker_roll=4`), in order.
    queued_named: Vec<(String, i64)>,
    last: Option<Ruling>,
    /// The last result that changes the state (a look at the table in between does not
    /// put it out of reach).
    pending: Option<Ruling>,
    history: History,
    state_path: Option<String>,
    /// The TOML state files loaded or saved in this game, each with its text as last
    /// read or written: `save` edits the text of the file it writes over, else of the
    /// state's own file (their comments and layout kept), rather than writing anew.
    state_texts: Vec<(String, String)>,
    /// The game's id, on every line it logs.
    id: String,
    log: Option<gamelog::Log>,
    log_failures: Vec<Diag>,
    /// The number of the state on the table ([`Snapshot::version`]), so a result
    /// worked out against another is not applied.
    version: u64,
    /// The numbers given to states so far.
    versions: u64,
    /// The version last loaded or saved.
    saved: u64,
    rulings: u64,
    /// Counts the rulesets and readings put in use: a result keeps the count it was
    /// adjudicated under.
    era: u64,
    /// The state file the game started with ([`Game::begin`]), if any.
    start: Option<String>,
    /// The file last named to `save`: where `save` with none writes.
    save_to: Option<String>,
    /// Results are played as before they were changes (a replay of a log written then).
    legacy: bool,
    /// The seed odds past the work limit are sampled with, when not the dice's own
    /// ([`Game::sample_odds_with`]).
    odds_seed: Option<u64>,
}

/// Reads a state of `old` into `new` (an enum's values may have moved).
fn reread(old: &Program, new: &Ruleset, v: &Value, name: &str) -> Result<Value, Diags> {
    state::load_text(&new.program, &new.sources, name, state::to_toml(old, v))
}

impl Game {
    /// A game with no ruleset and no state, its dice from `dice`.
    pub fn new(dice: DiceMode) -> Game {
        Game {
            rules: Ruleset::none(),
            source: Source::Nothing,
            dice,
            queued: Vec::new(),
            queued_named: Vec::new(),
            last: None,
            pending: None,
            history: History::default(),
            state_path: None,
            state_texts: Vec::new(),
            id: gamelog::new_game_id(),
            log: None,
            log_failures: Vec::new(),
            version: 0,
            versions: 0,
            saved: 0,
            rulings: 0,
            era: 0,
            start: None,
            save_to: None,
            legacy: false,
            odds_seed: None,
        }
    }

    /// Whether `text` is a question the ruleset in use understands (it compiles).
    pub fn understands(&self, text: &str) -> bool {
        self.rules.question("<input>", text).is_ok()
    }

    /// The checked program in use.
    pub fn program(&self) -> &Program {
        &self.rules.program
    }

    /// The ruleset in use: its program, its own files (for diagnostics), the readings
    /// chosen and the limits it was loaded with.
    pub fn ruleset(&self) -> &Ruleset {
        &self.rules
    }

    /// Plays within `limits` from now on: rulesets read, questions checked and
    /// adjudications run within them.
    pub fn set_limits(&mut self, limits: Limits) {
        self.rules.limits = limits;
    }

    /// The state on the table, if any.
    pub fn state(&self) -> Option<&Value> {
        self.rules.state.as_ref()
    }

    /// The state file loaded last (the one on the table came from it, or from a
    /// change of it).
    pub fn state_path(&self) -> Option<&str> {
        self.state_path.as_deref()
    }

    /// The file last named to `save` this game: where `save` with none writes.
    pub fn save_to(&self) -> Option<&str> {
        self.save_to.as_deref()
    }

    /// The state file the game started with ([`Game::begin`]), if any: `undo` never
    /// takes it back.
    pub fn start(&self) -> Option<&str> {
        self.start.as_deref()
    }

    /// Marks what the game holds now — the ruleset and state given when it was started
    /// — as its start, not a change: `undo` never takes it back.
    pub fn begin(&mut self) {
        self.history.clear();
        self.start = self.state_path.clone();
    }

    /// Plays results as umpire did before they were changes that can be taken back —
    /// for `umpire replay` of a log written then (its results carry no `result`
    /// number): a result is not a change `undo` takes back, and one with effects takes
    /// the place of one whose effects were not applied.
    pub fn legacy_results(&mut self, legacy: bool) {
        self.legacy = legacy;
    }

    /// Where the ruleset in use came from.
    pub fn source(&self) -> &Source {
        &self.source
    }

    /// Where the dice come from, after any queued faces.
    pub fn dice(&self) -> &DiceMode {
        &self.dice
    }

    /// The faces queued for the next adjudication.
    pub fn queued(&self) -> &[i64] {
        &self.queued
    }

    /// The changes that can be taken back.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The last result (`None` after a failed input, a new ruleset or reading).
    pub fn last(&self) -> Option<&Ruling> {
        self.last.as_ref()
    }

    /// The last result with effects: the one `apply` applies.
    pub fn pending(&self) -> Option<&Ruling> {
        self.pending.as_ref()
    }

    /// The result whose effects are not yet applied and can be: not applied, not
    /// dropped, and adjudicated against the state on the table.
    pub fn unapplied(&self) -> Option<&Ruling> {
        self.pending
            .as_ref()
            .filter(|p| !p.applied && p.version == self.version && self.rules.state.is_some())
    }

    /// The change `redo` would do again, if any.
    pub fn redoable(&self) -> Option<&Change> {
        self.history.next_redo()
    }

    /// How many results have been adjudicated in this game (the number of the last).
    pub fn results(&self) -> u64 {
        self.rulings
    }

    /// The game log appended to, if any.
    pub fn log_path(&self) -> Option<&str> {
        self.log.as_ref().map(gamelog::Log::path)
    }

    /// The game's id (16 hex digits), made fresh when it started: every line it logs
    /// carries it as `"game_id"`.
    pub fn game_id(&self) -> &str {
        &self.id
    }

    /// Whether the state on the table has changed since it was loaded or saved.
    pub fn unsaved(&self) -> bool {
        self.rules.state.is_some() && self.saved != self.version
    }

    /// The lines the game log could not take since last asked, each an error: what was
    /// done stands, but is not in the log.
    pub fn take_log_failures(&mut self) -> Vec<Diag> {
        std::mem::take(&mut self.log_failures)
    }

    /// Remembers `path` as the ruleset file in use even though it did not load, so that
    /// [`Game::read_again`] reads it once it is mended.
    pub fn keep_source(&mut self, path: &str) {
        if bundled::source(path).is_none() {
            self.source = Source::File(path.to_string());
        }
    }

    /// The ruleset file in use, read again (after an edit).
    ///
    /// Errors: no ruleset file is in use; the file cannot be read or has errors.
    pub fn read_again(&self) -> Result<Candidate, Failure> {
        let Source::File(path) = &self.source else {
            return Err(Refusal::NotAFile(self.source.clone()).into());
        };
        let ruleset = Ruleset::load_with(path, &self.rules.limits)?;
        Ok(Candidate {
            ruleset,
            source: Source::File(path.clone()),
        })
    }

    /// Puts a ruleset in use. The state on the table is read into it, and so are the
    /// states of the history; readings chosen stay chosen where it has them. The last
    /// result is forgotten. Logged as a `game` line.
    ///
    /// Errors: the state does not fit it, with [`Fit::Keep`] (nothing changes).
    pub fn put_in_use(&mut self, candidate: Candidate, fit: Fit) -> Result<Carried, Failure> {
        let Candidate {
            ruleset: mut new,
            source,
        } = candidate;
        let mut carried = Carried::default();
        if let Some(old) = &self.rules.state {
            match reread(&self.rules.program, &new, old, "<the state on the table>") {
                Ok(v) => new.state = Some(v),
                Err(ds) => match fit {
                    Fit::Keep => return Err(Failure::DoesNotFit(ds)),
                    Fit::LeaveBehind => {
                        carried.left_behind = true;
                        self.history.clear();
                        self.state_path = None;
                        self.start = None;
                        self.new_version();
                    }
                },
            }
        }
        let old = &self.rules.program;
        (carried.history_cut, carried.redo_cut) = self
            .history
            .carry(|v| reread(old, &new, v, "<an earlier state>").ok());
        for (i, info) in old.interpretations.iter().enumerate() {
            let Some(r) = self.rules.readings.get(i) else {
                continue;
            };
            let Some(reading) = old.enum_value(info.readings, r).map(|v| v.name.to_string()) else {
                continue;
            };
            if new.interpret(&info.name, &reading).is_err() {
                carried
                    .readings_dropped
                    .push((info.name.to_string(), reading));
            }
        }
        self.rules = new;
        self.source = source;
        // The state on the table is the same state, read into the new ruleset: it keeps
        // its number. Results of the old ruleset are forgotten, and never put back.
        self.last = None;
        self.pending = None;
        self.era += 1;
        self.log_game();
        Ok(carried)
    }

    /// Chooses a reading of an ambiguous rule; the last result is forgotten. Logged as
    /// a `game` line.
    ///
    /// Errors: no such interpretation or reading.
    pub fn interpret(&mut self, name: &str, reading: &str) -> Result<(), Diag> {
        self.rules.interpret(name, reading)?;
        self.last = None;
        self.pending = None;
        self.era += 1;
        self.log_game();
        Ok(())
    }

    /// Rolls the dice another way from now on. Logged as a `game` line.
    pub fn set_dice(&mut self, dice: DiceMode) {
        self.dice = dice;
        self.log_game();
    }

    /// Queues faces for the next adjudication (after any queued already): it uses them
    /// first, in order, and drops any left over.
    pub fn queue(&mut self, faces: &[i64]) {
        self.queued.extend_from_slice(faces);
    }

    /// Samples odds (past the work limit) with `seed` rather than the dice's own seed:
    /// for a face where others see the odds, who must not learn the dice's seed from them.
    pub fn sample_odds_with(&mut self, seed: u64) {
        self.odds_seed = Some(seed);
    }

    /// Queues `face` for the roll named `name` (`let name = d6`) in the next
    /// adjudication, after any queued for it already: that roll uses it before the
    /// faces queued in order; it is dropped if no roll of that name is made.
    pub fn queue_named(&mut self, name: &str, face: i64) {
        self.queued_named.push((name.to_string(), face));
    }

    /// The faces queued for rolls by name, in the order queued.
    pub fn queued_named(&self) -> &[(String, i64)] {
        &self.queued_named
    }

    /// Empties the queue.
    pub fn clear_queue(&mut self) {
        self.queued.clear();
        self.queued_named.clear();
    }

    /// Appends the game log to `path` from now on, starting with a `game` line. The
    /// file is held locked while the game logs to it: no other umpire may write to it.
    /// A new log starts the game there, as the command line's start does: the changes
    /// made before it can no longer be undone or redone (the log could not replay
    /// them). The same log named again goes on as it was.
    ///
    /// Errors: `path` is not a file a log may be appended to (the state file or the
    /// ruleset file in use, a file that is not a game log), another umpire is writing
    /// to it, or it cannot be written.
    pub fn log_to(&mut self, path: &str) -> Result<(), Diag> {
        let mut others: Vec<&str> = self.state_path.iter().map(String::as_str).collect();
        if let Source::File(p) = &self.source {
            others.push(p);
        }
        gamelog::check_target(path, &others)?;
        // The log already held (named again) stays held: it is this game's.
        let same = |log: &gamelog::Log| match (
            std::fs::canonicalize(log.path()),
            std::fs::canonicalize(path),
        ) {
            (Ok(a), Ok(b)) => a == b,
            _ => false,
        };
        if self.log.as_ref().is_some_and(same) {
            return self.write_game_line();
        }
        let log = gamelog::Log::open(path, &self.id)?;
        let before = self.log.replace(log);
        if let Err(d) = self.write_game_line() {
            self.log = before;
            return Err(d);
        }
        // The log's start is the game's start now, not the state file loaded first.
        self.history.clear();
        self.start = None;
        Ok(())
    }

    /// Appends a `game` line to the log, if logging.
    fn write_game_line(&self) -> Result<(), Diag> {
        let Some(log) = &self.log else {
            return Ok(());
        };
        let dice = match &self.dice {
            DiceMode::Seeded(s) => gamelog::Dice::Seeded(s.seed),
            DiceMode::Table => gamelog::Dice::Table,
        };
        log.append(&gamelog::game_line(&self.rules, self.source.name(), dice))
    }

    /// A change of ruleset, reading or dice starts a new `game` line in the log.
    fn log_game(&mut self) {
        if let Err(d) = self.write_game_line() {
            self.log_failures.push(d);
        }
    }

    /// Logs a result: `head` (`{"expr": TEXT}`), then the result, then where its dice
    /// came from when it rolled any.
    fn log_result(&mut self, mut head: Json, a: &Adjudication, dice: Option<Json>) {
        if self.log.is_none() {
            return;
        }
        if let (Json::Object(m), Json::Object(body)) =
            (&mut head, adjudication_json(&self.rules.program, a))
        {
            for (k, v) in body {
                if k != "trace" {
                    m.insert(k, v);
                }
            }
            if let Some(d) = dice.filter(|_| !a.rolls.is_empty()) {
                m.insert("dice".into(), d);
            }
        }
        self.log_line(head);
    }

    fn log_line(&mut self, line: Json) {
        if let Some(log) = &self.log {
            if let Err(d) = log.append(&line) {
                self.log_failures.push(d);
            }
        }
    }
}
