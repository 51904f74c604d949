//! `umpire report LOG`: a game log (see [`crate::gamelog`]) as a turn-by-turn account for
//! the players after the game — for each thing done, in order: who it was about, what was
//! asked (on one line), the dice (typed at the table, queued, or rolled by umpire), the
//! result in the rulebook's words, and its effects — `effect (not applied):` when no
//! `apply` that stands applied them; effects dropped (a `drop` line), state loads and
//! ruleset changes in a line.
//!
//! The report reads the record, it does not play the game again: each logged value is
//! read back through the ruleset's types ([`values`]) and printed by the same code as
//! `umpire eval` ([`crate::render::text`]). So the account is what happened at the table
//! even when the ruleset has been edited since, needs no dice or state replayed, and a
//! value the ruleset can no longer read is shown as logged. A result or change taken
//! back (an `undo` line) is marked so ([`Item::undone`]); a `redo` line puts it back.
//!
//! [`render`] writes the account as text, Markdown or one HTML page.

pub mod render;
pub mod values;

use crate::adjudication::Roll;
use crate::diagnostic::{Code, Diag, Diags};
use crate::limits::Limits;
use crate::program::Ty;
use crate::Ruleset;
use serde_json::{Map, Value as Json};

/// What an entry of the account is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A question adjudicated (an `expr` line).
    Question,
    /// The state changed by hand (a `set` line).
    Set,
    /// A result's effects applied (an `apply` line).
    Apply,
    /// A result's effects dropped: not applied (a `drop` line).
    Drop,
    /// A note: a state loaded, the ruleset, its readings or the dice changed.
    Note,
}

/// One thing done, as the account tells it.
#[derive(Debug, Clone)]
pub struct Item {
    /// What it is.
    pub kind: Kind,
    /// The log's line (from 1).
    pub line: usize,
    /// Its number in the account (from 1), counting what stands; `None` for a note or
    /// for what was taken back.
    pub number: Option<usize>,
    /// The turn (or move) it was done in, when the state counts them.
    pub turn: Option<i64>,
    /// Whom it was about: members of the state's groups, by name.
    pub who: Vec<String>,
    /// What was asked (`manoeuvre(brigade.second_foot)`, `:set turn += 1`) on one line
    /// (each run of spaces and line breaks one space), the question whose effects were
    /// applied or dropped, or the note's words.
    pub asked: String,
    /// The dice, with where they came from (`D10 → 3, typed at the table`).
    pub dice: Option<String>,
    /// The result in the rulebook's words, then its `effect:` lines (`effect (not
    /// applied):` when no `apply` that stands applied them); for a change by hand or an
    /// `apply`, the `effect:` lines.
    pub result: Vec<String>,
    /// Taken back (an `undo` line), and not put back since.
    pub undone: bool,
    /// The result's number in its game (`"result": N`), for `undo` lines that name it.
    result_id: Option<u64>,
    /// How an `undo` line names this change (`` `:set turn += 1` ``), if it is one.
    change: Option<String>,
    /// The turn before and after, for a change.
    turns: (Option<i64>, Option<i64>),
    /// Which game of the log it was done in (from 0).
    game: usize,
    /// For an `apply` or a `drop`: the result (an index into the items) whose effects
    /// it applied or dropped, when the log still holds it.
    of: Option<usize>,
}

/// A game log as an account.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// The log's path, as given.
    pub log: String,
    /// What the state counts turns in (`Turn`, `Move`), if it counts them.
    pub counter: Option<String>,
    /// Everything done, in order.
    pub items: Vec<Item>,
}

/// The dice of a game, as its `game` line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GameDice {
    Seeded,
    Table,
    Scenario,
}

/// A game log being read.
struct Reader {
    dir: std::path::PathBuf,
    limits: Limits,
    rules: Ruleset,
    ruleset: Option<(String, Option<String>)>,
    readings: Option<Json>,
    dice_json: Option<Json>,
    dice: GameDice,
    state: Option<Json>,
    turn: Option<i64>,
    /// Changes that stand, newest last (indexes into the items).
    changes: Vec<usize>,
    /// Changes taken back, newest last.
    undone: Vec<usize>,
    /// The id of the game being read, when its lines carry one.
    game_id: Option<String>,
    /// Which game of the log it is (from 0).
    game: usize,
    /// The next `game` line opens another game.
    new_game_note: bool,
    out: Report,
}

/// Where a face of a result came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Origin {
    Queued,
    Given,
    Table,
    Umpire,
}

impl Origin {
    fn words(self) -> &'static str {
        match self {
            Origin::Queued => "queued",
            Origin::Given => "given",
            Origin::Table => "typed at the table",
            Origin::Umpire => "rolled by umpire",
        }
    }
}

/// Reads the game log at `path` (within `limits`: its size, and the rulesets it names) as
/// an account.
///
/// Errors: the log cannot be read or is too big; a line is not JSON, not an object, or
/// not a line a game log holds; the first line is not a `game` line — each naming its
/// line.
pub fn report(path: &str, limits: &Limits) -> Result<Report, Diags> {
    let text = crate::files::read_file(path, limits)?;
    let mut r = Reader {
        dir: std::path::Path::new(path)
            .parent()
            .map(std::path::Path::to_path_buf)
            .unwrap_or_default(),
        limits: *limits,
        rules: Ruleset::none(),
        ruleset: None,
        readings: None,
        dice_json: None,
        dice: GameDice::Seeded,
        state: None,
        turn: None,
        changes: Vec::new(),
        undone: Vec::new(),
        game_id: None,
        game: 0,
        new_game_note: false,
        out: Report {
            log: path.to_string(),
            ..Report::default()
        },
    };
    let mut started = false;
    let mut games = crate::gamelog::Games::default();
    let mut shape = crate::gamelog::Shape::default();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let bad = |what: String| -> Diags {
            Diag::error(Code::ReplayFormat, format!("{path}:{n}: {what}"))
                .help("`umpire report` reads a game log: `umpire run --log FILE` or the REPL's `:log FILE` writes one")
                .into()
        };
        let line: Json =
            serde_json::from_str(raw).map_err(|e| bad(format!("not a game log: {e}")))?;
        let not_object = || bad("not a game log: each line of one is a JSON object".into());
        if !line.is_object() {
            return Err(not_object());
        }
        games.next(&line, n).map_err(|why| {
            Diags::from(
                Diag::error(Code::ReplayMixed, format!("{path}:{n}: {why}")).help(
                    "two umpires wrote to this log at once: the games cannot be told apart to report",
                ),
            )
        })?;
        shape.check(&line).map_err(bad)?;
        let Json::Object(obj) = line else {
            return Err(not_object());
        };
        if let Some(game) = obj.get("game") {
            let id = obj
                .get("game_id")
                .and_then(Json::as_str)
                .map(str::to_string);
            if id.is_some() && id != r.game_id {
                if r.game_id.is_some() {
                    r.new_game();
                }
                r.game_id = id;
            }
            r.game(n, game);
            started = true;
            continue;
        }
        if !started {
            return Err(bad(
                "not a game log: its first line is not a `game` line".into()
            ));
        }
        r.line(n, &obj).map_err(bad)?;
    }
    if !started {
        return Err(Diag::error(
            Code::ReplayFormat,
            format!("{path}: an empty game log: it has no `game` line"),
        )
        .into());
    }
    let mut number = 0;
    for item in &mut r.out.items {
        if item.kind != Kind::Note && !item.undone {
            number += 1;
            item.number = Some(number);
        }
    }
    mark_unapplied(&mut r.out.items);
    Ok(r.out)
}

/// Marks the effect lines of each result that stands whose effects no `apply` that
/// stands applied (none was logged, it was taken back, or they were dropped):
/// `effect (not applied): …`.
fn mark_unapplied(items: &mut [Item]) {
    let applied: Vec<usize> = items
        .iter()
        .filter(|i| i.kind == Kind::Apply && !i.undone)
        .filter_map(|i| i.of)
        .collect();
    for (k, item) in items.iter_mut().enumerate() {
        if item.kind != Kind::Question || item.undone || applied.contains(&k) {
            continue;
        }
        for line in &mut item.result {
            if let Some(rest) = line.strip_prefix("effect:") {
                *line = format!("effect (not applied):{rest}");
            }
        }
    }
}

/// `text` on one line: each run of spaces and line breaks made one space (an input
/// typed over several lines, a bracket left open at the end of the first).
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// How a `game` line's dice read in a note.
fn dice_words(d: &Json) -> String {
    if d.get("table").and_then(Json::as_bool) == Some(true) {
        "the players roll at the table".into()
    } else if d.get("per_adjudication").and_then(Json::as_bool) == Some(true) {
        "each question gives its own dice".into()
    } else if let Some(seed) = d.get("seed").and_then(Json::as_u64) {
        format!("umpire rolls (seed {seed})")
    } else {
        "umpire rolls".into()
    }
}

/// The readings a `game` line gives, as a note says them.
fn readings_words(r: &Json) -> String {
    let Some(m) = r.as_object().filter(|m| !m.is_empty()) else {
        return "the default readings".into();
    };
    let list: Vec<String> = m
        .iter()
        .map(|(k, v)| format!("{k} = {}", v.as_str().unwrap_or("?")))
        .collect();
    format!("readings {}", list.join(", "))
}

impl Reader {
    /// A `game` line: the ruleset (loaded for its words), the readings, the dice, the
    /// state — a note of what is new.
    fn game(&mut self, n: usize, g: &Json) {
        let name = g
            .get("ruleset")
            .and_then(Json::as_str)
            .unwrap_or("")
            .trim()
            .to_string();
        let digest = g.get("digest").and_then(Json::as_str).map(str::to_string);
        let mut said = Vec::new();
        let first = self.ruleset.is_none();
        if self.ruleset.as_ref() != Some(&(name.clone(), digest.clone())) {
            let shown = if name.is_empty() {
                "no ruleset".to_string()
            } else {
                format!("ruleset {name}")
            };
            self.rules = self.load(&name).unwrap_or_else(|| {
                said.push(format!("{shown} (not found now: values as logged)"));
                Ruleset::none()
            });
            if said.is_empty() {
                said.push(shown);
            }
            self.ruleset = Some((name, digest));
        }
        let readings = g.get("interpretations").cloned();
        if readings != self.readings {
            if !first
                || readings
                    .as_ref()
                    .is_some_and(|r| r != &Json::Object(Map::new()))
            {
                said.push(readings_words(readings.as_ref().unwrap_or(&Json::Null)));
            }
            self.readings = readings;
        }
        let dice = g.get("dice").cloned();
        if dice != self.dice_json {
            let d = dice.clone().unwrap_or(Json::Null);
            self.dice = if d.get("table").and_then(Json::as_bool) == Some(true) {
                GameDice::Table
            } else if d.get("per_adjudication").and_then(Json::as_bool) == Some(true) {
                GameDice::Scenario
            } else {
                GameDice::Seeded
            };
            said.push(format!("dice: {}", dice_words(&d)));
            self.dice_json = dice;
        }
        // The table as the line gives it (another `run` appended starts again).
        if let Some(s) = g.get("state").filter(|s| !s.is_null()) {
            self.state = Some(s.clone());
            self.turn_from_state();
        }
        if std::mem::take(&mut self.new_game_note) {
            said.insert(0, "another game".into());
        }
        if !said.is_empty() {
            let mut words = said.join("; ");
            if let Some(c) = words.get(..1) {
                words = c.to_uppercase() + &words[1..];
            }
            self.note(n, words);
        }
    }

    /// Another game in the same log (its `game_id` differs): its `game` line is told
    /// whole, and what its `undo` lines take back is looked for in it alone.
    fn new_game(&mut self) {
        self.ruleset = None;
        self.readings = None;
        self.dice_json = None;
        self.changes.clear();
        self.undone.clear();
        self.game += 1;
        self.new_game_note = true;
    }

    /// The ruleset a `game` line names (a path not there is looked for beside the log).
    fn load(&self, name: &str) -> Option<Ruleset> {
        if name.is_empty() {
            return Some(Ruleset::none());
        }
        let beside = self.dir.join(name);
        let path = if std::path::Path::new(name).exists()
            || crate::bundled::source(name).is_some()
            || !beside.exists()
        {
            name.to_string()
        } else {
            beside.to_string_lossy().into_owned()
        };
        Ruleset::load_with(&path, &self.limits).ok()
    }

    /// The turn as the state on the table counts it (`turn`, else `move`).
    fn turn_from_state(&mut self) {
        let Some(s) = &self.state else { return };
        for (key, word) in [("turn", "Turn"), ("move", "Move")] {
            if let Some(t) = s.get(key).and_then(Json::as_i64) {
                self.turn = Some(t);
                if self.out.counter.is_none() {
                    self.out.counter = Some(word.into());
                }
                return;
            }
        }
    }

    fn note(&mut self, n: usize, words: String) {
        self.push(Item {
            kind: Kind::Note,
            line: n,
            number: None,
            turn: self.turn,
            who: Vec::new(),
            asked: words,
            dice: None,
            result: Vec::new(),
            undone: false,
            result_id: None,
            change: None,
            turns: (None, None),
            game: self.game,
            of: None,
        });
    }

    fn push(&mut self, item: Item) -> usize {
        self.out.items.push(item);
        self.out.items.len() - 1
    }

    /// A line after the first `game` line.
    fn line(&mut self, n: usize, obj: &Map<String, Json>) -> Result<(), String> {
        let text_of = |k: &str| obj.get(k).and_then(Json::as_str).map(str::to_string);
        if let Some(e) = text_of("expr") {
            let (ty, who) = values::question(&self.rules, &e, self.state.as_ref());
            self.entry(n, Kind::Question, e, who, &ty, obj);
        } else if let Some(line) = text_of("set") {
            let change = format!("`{line}`");
            let who = values::changed(&self.rules.program, obj.get("effects"), self.state.as_ref());
            let i = self.entry(n, Kind::Set, line, who, &Ty::Any, obj);
            self.changed(i, change, obj);
        } else if let Some(text) = text_of("apply") {
            let change = format!("the effects of `{text}`");
            let (_, who) = values::question(&self.rules, &text, self.state.as_ref());
            let i = self.entry(n, Kind::Apply, text, who, &Ty::Any, obj);
            self.changed(i, change, obj);
        } else if let Some(text) = text_of("drop") {
            let change = format!("dropping the effects of `{text}`");
            let (_, who) = values::question(&self.rules, &text, self.state.as_ref());
            let i = self.entry(n, Kind::Drop, text, who, &Ty::Any, obj);
            self.changed(i, change, obj);
        } else if let Some(what) = text_of("undo") {
            self.undo_or_redo(&what, obj.get("result").and_then(Json::as_u64), true);
        } else if let Some(what) = text_of("redo") {
            self.undo_or_redo(&what, obj.get("result").and_then(Json::as_u64), false);
        } else if let Some(path) = text_of("load") {
            let before = self.turn;
            if let Some(s) = obj.get("state").filter(|s| !s.is_null()) {
                self.state = Some(s.clone());
                self.turn_from_state();
            }
            self.note(n, format!("State loaded from {path}"));
            let i = self.out.items.len() - 1;
            self.out.items[i].change = Some(format!("`:load {path}`"));
            self.out.items[i].turns = (before, self.turn);
            self.changes.push(i);
            self.undone.clear();
        } else {
            return Err(
                "a line that is not a game, expr, set, apply, drop, undo, redo or load line".into(),
            );
        }
        Ok(())
    }

    /// A result, a change by hand or an `apply`: who, what, the dice, the result.
    fn entry(
        &mut self,
        n: usize,
        kind: Kind,
        asked: String,
        who: Vec<String>,
        ty: &Ty,
        obj: &Map<String, Json>,
    ) -> usize {
        let p = &self.rules.program;
        let asked = one_line(&asked);
        let mut result = Vec::new();
        if kind == Kind::Question {
            result.push(values::headline_of(p, ty, obj));
        }
        result.extend(values::effects(p, obj.get("effects")));
        let id = obj.get("result").and_then(Json::as_u64);
        let of = matches!(kind, Kind::Apply | Kind::Drop)
            .then(|| self.result_of(id, &asked))
            .flatten();
        // An `apply` right after its result: its effects are the lines just above.
        if kind == Kind::Apply {
            let above = self.out.items.last().filter(|i| {
                i.kind == Kind::Question
                    && !i.undone
                    && i.asked == asked
                    && i.result.ends_with(&result)
            });
            if above.is_some() {
                result.clear();
            }
        }
        // An `apply` repeats its result's rolls, which that result showed.
        let dice = (kind == Kind::Question || kind == Kind::Set)
            .then(|| self.dice_text(obj))
            .flatten();
        self.push(Item {
            kind,
            line: n,
            number: None,
            turn: self.turn,
            who,
            asked,
            dice,
            result,
            undone: false,
            result_id: id,
            change: None,
            turns: (None, None),
            game: self.game,
            of,
        })
    }

    /// The result an `apply` or `drop` line is about: the one it numbers, else (a log
    /// without numbers) the newest that stands asking `asked`, in this game.
    fn result_of(&self, id: Option<u64>, asked: &str) -> Option<usize> {
        let items = &self.out.items;
        (0..items.len()).rev().find(|&i| {
            let it = &items[i];
            it.kind == Kind::Question
                && !it.undone
                && it.game == self.game
                && match id {
                    Some(id) => it.result_id == Some(id),
                    None => it.asked == asked,
                }
        })
    }

    /// Records item `i` as a change to the state that an `undo` line may take back; the
    /// turn follows an effect on it.
    fn changed(&mut self, i: usize, change: String, obj: &Map<String, Json>) {
        let before = self.turn;
        let counter = match self.out.counter.as_deref() {
            Some("Move") => "move",
            _ => "turn",
        };
        for e in obj
            .get("effects")
            .and_then(Json::as_array)
            .into_iter()
            .flatten()
        {
            if e.get("path").and_then(Json::as_str) == Some(counter) {
                if let Some(t) = e.get("to").and_then(Json::as_i64) {
                    self.turn = Some(t);
                }
            }
        }
        self.out.items[i].change = Some(change);
        self.out.items[i].turns = (before, self.turn);
        self.changes.push(i);
        self.undone.clear();
    }

    /// An `undo` line (`undo`) or a `redo` line: the result it numbers; else the newest
    /// change it names (else the newest change) of those that stand, taken back, or of
    /// those taken back, put back — the turn going back or on with it.
    fn undo_or_redo(&mut self, what: &str, result: Option<u64>, undo: bool) {
        if let Some(i) = self.result_item(what, result, !undo) {
            self.out.items[i].undone = undo;
            return;
        }
        let (from, to) = if undo {
            (&mut self.changes, &mut self.undone)
        } else {
            (&mut self.undone, &mut self.changes)
        };
        let items = &mut self.out.items;
        let at = from
            .iter()
            .rposition(|i| items[*i].change.as_deref() == Some(what))
            .or_else(|| from.len().checked_sub(1));
        if let Some(at) = at {
            let i = from.remove(at);
            to.push(i);
            items[i].undone = undo;
            let (before, after) = items[i].turns;
            self.turn = if undo { before } else { after }.or(self.turn);
        }
    }

    /// The result an `undo` or `redo` line names: by its number, else (a log without
    /// numbers) the newest question ``the result of `TEXT` `` names, taken back or not
    /// as `undone` says.
    fn result_item(&self, what: &str, result: Option<u64>, undone: bool) -> Option<usize> {
        let items = &self.out.items;
        let question = |i: &usize| {
            let it = &items[*i];
            it.kind == Kind::Question && it.undone == undone && it.game == self.game
        };
        if let Some(id) = result {
            return (0..items.len())
                .rev()
                .filter(question)
                .find(|i| items[*i].result_id == Some(id));
        }
        let text = one_line(what.strip_prefix("the result of `")?.strip_suffix('`')?);
        (0..items.len())
            .rev()
            .filter(question)
            .find(|i| items[*i].asked == text)
    }

    /// The dice of a logged result, each face with where it came from, as the log says:
    /// the first `queued` were queued (given, in a scenario), the next `table` typed at
    /// the table, the rest rolled by umpire — in a game at the table, a face not queued
    /// and drawn from no seed was typed there.
    fn dice_text(&self, obj: &Map<String, Json>) -> Option<String> {
        let rolls: Vec<Roll> = serde_json::from_value(obj.get("rolls")?.clone()).ok()?;
        if rolls.is_empty() {
            return None;
        }
        let d = obj.get("dice");
        let count = |k: &str| d.and_then(|d| d.get(k)).and_then(Json::as_u64);
        let queued = count("queued").unwrap_or(0) as usize;
        let seeded = d.and_then(|d| d.get("seed")).is_some();
        let table = match count("table") {
            Some(t) => t as usize,
            None if !seeded && self.dice == GameDice::Table => usize::MAX,
            None => 0,
        };
        let queued_as = if self.dice == GameDice::Scenario {
            Origin::Given
        } else {
            Origin::Queued
        };
        // The dice queued, by number from 1, where they are not the first (a face queued
        // for a roll by its name).
        let queued_at: Vec<u64> = d
            .and_then(|d| d.get("queued_dice"))
            .and_then(Json::as_array)
            .map(|a| a.iter().filter_map(Json::as_u64).collect())
            .unwrap_or_default();
        let mut k = 0usize;
        let mut others = 0usize;
        let mut per_roll: Vec<Rolled> = Vec::new();
        for r in &rolls {
            let faces = r
                .faces
                .iter()
                .map(|&f| {
                    k += 1;
                    let from = if queued_at.is_empty() {
                        if k <= queued {
                            queued_as
                        } else if k - 1 - queued < table {
                            Origin::Table
                        } else {
                            Origin::Umpire
                        }
                    } else if queued_at.contains(&(k as u64)) {
                        queued_as
                    } else {
                        others += 1;
                        if others <= table {
                            Origin::Table
                        } else {
                            Origin::Umpire
                        }
                    };
                    (f, from)
                })
                .collect();
            // A named roll is shown by its name: `attacker_roll: d6 → 4`.
            let dice = match &r.name {
                Some(n) => format!("{n}: {}", r.dice),
                None => r.dice.clone(),
            };
            per_roll.push((dice, faces, r.total));
        }
        Some(dice_line(&per_roll))
    }
}

/// A roll as the account shows it: the dice as written, each face with where it came
/// from, the total.
type Rolled = (String, Vec<(u32, Origin)>, i64);

/// The dice line: each roll (`D10 → 3`, `2d6 → 3 + 4 = 7`), then where the dice came
/// from — once at the end when they all came from one place, else after each roll (or
/// each face, when a roll's faces came from different places).
fn dice_line(rolls: &[Rolled]) -> String {
    let all: Vec<Origin> = rolls
        .iter()
        .flat_map(|(_, faces, _)| faces.iter().map(|f| f.1))
        .collect();
    let one = all.first().filter(|o| all.iter().all(|x| x == *o)).copied();
    let mut parts = Vec::new();
    for (dice, faces, total) in rolls {
        let same = faces.first().filter(|f| faces.iter().all(|x| x.1 == f.1));
        let face = |(f, o): &(u32, Origin)| match (one, same) {
            (None, None) => format!("{f} ({})", o.words()),
            _ => f.to_string(),
        };
        let mut s = if faces.len() > 1 || (same.is_none() && !faces.is_empty()) {
            let shown: Vec<String> = faces.iter().map(face).collect();
            format!("{dice} → {} = {total}", shown.join(" + "))
        } else {
            format!("{dice} → {total}")
        };
        if let (None, Some((_, o))) = (one, same) {
            s.push_str(&format!(" ({})", o.words()));
        }
        parts.push(s);
    }
    let mut line = parts.join(", ");
    if let Some(o) = one {
        line.push_str(&format!(", {}", o.words()));
    }
    line
}

#[cfg(test)]
mod tests;
