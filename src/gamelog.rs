//! The game log (REPL `:log FILE`, `umpire run --log FILE`): its lines and how they are
//! appended. Its replay (`umpire replay FILE`) is [`crate::replay`].
//!
//! A log is JSON lines, appended one whole line at a time. A `game` line opens it and
//! comes again whenever the ruleset, its readings or the dice change:
//!
//! ```json
//! {"game": {"umpire": "0.1.0", "log": 1, "ruleset": "furious_reason",
//!   "digest": "sha256:…", "interpretations": {"charge_rate_pair": "first_move"},
//!   "dice": {"rng": "ChaCha8", "seed": 7}, "state": {…}}}
//! ```
//!
//! Then one line per thing done, in order: `{"expr": TEXT, "result": N, "value": …,
//! "rolls": […], "effects": […], "dice": {"queued": N, "table": T, "seed": S, "position": "P"}}`
//! (a result, N its number in the game counting from 1; or `"refused"`, `"unspecified"`,
//! `"error"`), `{"set": LINE, …}`, `{"apply": TEXT, "result": N, …}` (its effects
//! applied), `{"drop": TEXT, "result": N}` (its effects dropped: not applied),
//! `{"load": PATH, "state": {…}}`, and for a change taken back or done again
//! `{"undo": WHAT}` / `{"redo": WHAT}` — WHAT the change in words (`` `:load x` ``,
//! `` `:set …` ``, ``the effects of `…` ``, ``dropping the effects of `…` ``, and for a
//! result ``the result of `manoeuvre(brigade.second_foot)` `` with `"result": N` beside
//! it). Lines are only ever appended: an undo never rewrites the line it takes back.
//! `N` is a whole number from 1. A replay holds each `undo`, `redo`, `drop` and `apply`
//! line to what it names: the newest change (its words and number), the change taken
//! back last, the result whose effects wait or are applied — anything else is an error
//! naming the line. Each line does exactly one thing (one of [`ACTIONS`]), each result's
//! number is the next of its game, and in a game whose lines carry a `game_id` every
//! line does: `replay` and `report` both hold every line to that ([`Shape`]).
//! Logs written before results were numbered have no `result` fields; `replay` plays
//! them as they were played then.
//!
//! Every line carries `"game_id": "<16 hex digits>"` at its top level: its game's id,
//! made fresh when the game starts (a REPL session, a `run`). A log written to by one
//! umpire at a time ([`Log`] holds an OS lock on it while a game logs) holds its games
//! one after another; [`crate::replay`] replays each in turn, and refuses lines of two
//! games mixed together.
//!
//! The digest is SHA-256 over every source text of the ruleset (a house rule and what it
//! extends), so a replay can tell a changed ruleset from a changed umpire. `dice` says
//! how many faces were queued (given), how many were typed at the table (`table`; a log
//! written before it leaves it out) and, for the rest — umpire's — where in the seeded stream
//! (ChaCha8 from `seed`, at word `position`) they were drawn: a replay feeds the logged
//! faces back (so table dice replay too) and, where they were seeded, draws them again
//! from the same place to prove the dice were what the seed gives.

use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::eval::Readings;
use crate::program::Program;
use crate::span::SourceMap;
use crate::value::Value;
use crate::Ruleset;
use serde_json::{json, Value as Json};

/// The log format's version.
pub const FORMAT: u64 = 1;

/// The RNG the seeded dice use, as a log names it.
pub const RNG: &str = "ChaCha8";

/// `sha256:` and the hex SHA-256 of the ruleset's source texts, in load order, each
/// preceded by its length (so two files cannot run together into a third).
pub fn digest(sources: &SourceMap) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for f in sources.files() {
        h.update((f.text.len() as u64).to_le_bytes());
        h.update(f.text.as_bytes());
    }
    let bytes = h.finalize();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The reading in force for each interpretation, by name (the chosen one, else the
/// default; an interpretation with neither is left out).
pub fn readings(p: &Program, chosen: &Readings) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    for (i, info) in p.interpretations.iter().enumerate() {
        let r = chosen.get(i).or(info.default);
        let name = r.and_then(|r| {
            p.enums
                .get(usize::from(info.readings))
                .and_then(|e| e.values.get(usize::from(r)))
                .map(|v| v.name.to_string())
        });
        if let Some(n) = name {
            m.insert(info.name.to_string(), json!(n));
        }
    }
    m
}

/// How a game's dice are rolled, as a `game` line records it.
#[derive(Debug, Clone, Copy)]
pub enum Dice {
    /// Seeded from this seed.
    Seeded(u64),
    /// Rolled at the table and typed in.
    Table,
    /// Each adjudication gives its own rolls or seed (a scenario).
    PerAdjudication,
}

/// The `game` line: the ruleset (as named to load it), its digest, its limits, the
/// readings in force, the dice, the state.
pub fn game_line(rules: &Ruleset, ruleset: &str, dice: Dice) -> Json {
    game_line_at(rules, rules.state.as_ref(), ruleset, dice)
}

/// The `game` line for `rules` with `state` on the table.
pub fn game_line_at(rules: &Ruleset, state: Option<&Value>, ruleset: &str, dice: Dice) -> Json {
    let program = &rules.program;
    let dice = match dice {
        Dice::Seeded(s) => json!({ "rng": RNG, "seed": s }),
        Dice::Table => json!({ "table": true }),
        Dice::PerAdjudication => json!({ "rng": RNG, "per_adjudication": true }),
    };
    let state = match state {
        Some(s) => crate::state::to_json_value(program, s),
        None => Json::Null,
    };
    let l = rules.limits;
    // A ruleset file is named by its full path, so the log replays from anywhere.
    let ruleset = if crate::bundled::source(ruleset).is_none() {
        std::fs::canonicalize(ruleset)
            .map(|p| p.to_string_lossy().into_owned())
            .unwrap_or_else(|_| ruleset.to_string())
    } else {
        ruleset.to_string()
    };
    json!({ "game": {
        "umpire": env!("CARGO_PKG_VERSION"),
        "log": FORMAT,
        "ruleset": ruleset,
        "limits": {
            "steps": l.steps, "depth": l.depth, "dice": l.dice,
            "dice_per_roll": l.dice_per_roll, "sides": l.sides, "file_bytes": l.file_bytes,
        },
        "digest": digest(&rules.sources),
        "interpretations": readings(program, &rules.readings),
        "dice": dice,
        "state": state,
    }})
}

/// Where a result's dice came from: `queued` faces given first, then `table` faces
/// typed at the table when asked for, the rest drawn from the seeded stream at `at`
/// (seed, word position) when it was seeded — umpire's own.
pub fn dice_json(queued: usize, table: usize, at: Option<(u64, u128)>) -> Json {
    match at {
        Some((seed, pos)) => {
            json!({ "queued": queued, "table": table, "seed": seed, "position": pos.to_string() })
        }
        None => json!({ "queued": queued, "table": table }),
    }
}

/// A result's `dice` ([`dice_json`]) with `queued_dice`, the numbers (from 1, in the
/// order rolled) of the dice whose faces were queued, when they are not its first dice:
/// a face queued for a roll by its name (`:roll defender_roll=3`) is used when that roll
/// is made, after dice typed at the table or rolled by umpire.
pub fn queued_out_of_turn(mut dice: Json, queued: &[usize]) -> Json {
    let in_turn = queued.iter().enumerate().all(|(i, k)| *k == i + 1);
    if let (false, Some(m)) = (in_turn, dice.as_object_mut()) {
        m.insert("queued_dice".into(), json!(queued));
    }
    dice
}

/// The log of a scenario run ([`crate::scenario::run`]): a `game` line with the state
/// it started from, then each adjudication (with its dice: given rolls, or the seed it
/// was rolled from), its error, and its effects when applied.
pub fn scenario_lines(report: &crate::scenario::Report) -> Vec<Json> {
    let p = &report.ruleset.program;
    let mut lines = vec![game_line_at(
        &report.ruleset,
        report.start_state.as_ref(),
        &report.ruleset_path,
        Dice::PerAdjudication,
    )];
    for d in &report.done {
        match &d.result {
            Ok(a) => {
                let mut body = match crate::render::adjudication_json(p, a) {
                    Json::Object(m) => m,
                    _ => serde_json::Map::new(),
                };
                body.remove("trace");
                body.remove("seed");
                let faces: usize = a.rolls.iter().map(|r| r.faces.len()).sum();
                let mut line = serde_json::Map::new();
                line.insert("expr".into(), json!(d.expr));
                line.extend(body.clone());
                if faces > 0 {
                    let dice = match a.seed {
                        Some(seed) => dice_json(0, 0, Some((seed, 0))),
                        None => dice_json(faces, 0, None),
                    };
                    line.insert("dice".into(), dice);
                }
                lines.push(Json::Object(line));
                if d.applied {
                    let mut apply = serde_json::Map::new();
                    apply.insert("apply".into(), json!(d.expr));
                    apply.extend(body);
                    lines.push(Json::Object(apply));
                }
            }
            // A failure keeps its dice too, so that it fails again the same way.
            Err(e) => {
                let mut line = json!({
                    "expr": d.expr,
                    "error": { "code": e.code, "message": e.message },
                });
                match &d.dice {
                    Some(crate::scenario::DoneDice::Given(r)) => line["given"] = json!(r),
                    Some(crate::scenario::DoneDice::Seed(s)) => line["seed"] = json!(s),
                    None => {}
                }
                lines.push(line);
            }
        }
    }
    lines
}

/// Whether umpire may append a game log to `path`: a new or empty file, or one that is
/// already a game log (its first line a `game` line) — never a ruleset, state or
/// scenario file, a folder or a device, nor the same file as any of `others` (the
/// files the same command reads or writes).
///
/// Errors: which of those it is, and what to do.
pub fn check_target(path: &str, others: &[&str]) -> Result<(), Diag> {
    let refuse = |why: String| {
        Diag::error(
            Code::IoLog,
            format!("will not append the game log to {path}: {why}"),
        )
        .help("name a new file for the log, or a game log to add to (`game.log`)")
    };
    let same = |a: &str, b: &str| match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => std::path::Path::new(a) == std::path::Path::new(b),
    };
    if let Some(o) = others.iter().find(|o| same(path, o)) {
        return Err(refuse(format!("it is {o}, which this command also uses")));
    }
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() {
        return Err(refuse("it is not a regular file".into()));
    }
    if meta.len() == 0 {
        return Ok(());
    }
    use std::io::Read;
    let mut head = Vec::new();
    let _ = std::fs::File::open(path).map(|f| f.take(1 << 20).read_to_end(&mut head));
    let head = String::from_utf8_lossy(&head);
    let first = head.lines().next().unwrap_or_default();
    match serde_json::from_str::<Json>(first.trim()) {
        Ok(v) if v.get("game").is_some() => Ok(()),
        // In the words a save uses for the same file.
        _ => Err(refuse(match crate::state::holds_in_words(&head) {
            Some(what) => format!("it holds {what}"),
            None => "it holds something else, not a game log".into(),
        })),
    }
}

/// A fresh game id: 16 hex digits, made when a game starts (a REPL session, a `run`),
/// and carried by every line it logs (`"game_id"`).
pub fn new_game_id() -> String {
    format!("{:016x}", rand::random::<u64>())
}

/// A game log open for appending: the file held open with an OS lock on it, so that no
/// other umpire writes to it meanwhile (one writer per game log), and the id of the game
/// whose lines it appends.
#[derive(Debug)]
pub struct Log {
    path: String,
    /// Held for its lock (released when the log is dropped).
    _lock: std::fs::File,
    game_id: String,
}

impl Log {
    /// Opens the log at `path` for the game `game_id`, locked; refused when another
    /// umpire holds it.
    ///
    /// Errors: another umpire is writing to it (`umpire::io::log_locked`); it cannot be
    /// opened.
    pub fn open(path: &str, game_id: &str) -> Result<Log, Diag> {
        Log::open_with(path, game_id, None)
    }

    /// Opens the log at `path` for the game `game_id`, waiting for its turn while
    /// another umpire writes to it (`waiting` is called once, first, if it must wait).
    ///
    /// Errors: it cannot be opened or locked.
    pub fn open_waiting(path: &str, game_id: &str, waiting: &mut dyn FnMut()) -> Result<Log, Diag> {
        Log::open_with(path, game_id, Some(waiting))
    }

    fn open_with(
        path: &str,
        game_id: &str,
        waiting: Option<&mut dyn FnMut()>,
    ) -> Result<Log, Diag> {
        let cannot = |e: std::io::Error| {
            Diag::error(
                Code::IoWrite,
                format!("cannot append to the log {path}: {e}"),
            )
        };
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(cannot)?;
        match (file.try_lock(), waiting) {
            (Ok(()), _) => {}
            (Err(std::fs::TryLockError::WouldBlock), None) => {
                return Err(Diag::error(
                    Code::IoLogLocked,
                    format!("will not append the game log to {path}: another umpire is writing to it (one writer per game log)"),
                )
                .help("name another file for this game's log, or end the other session (or run) first"));
            }
            (Err(std::fs::TryLockError::WouldBlock), Some(waiting)) => {
                waiting();
                file.lock().map_err(cannot)?;
            }
            (Err(std::fs::TryLockError::Error(e)), _) => return Err(cannot(e)),
        }
        Ok(Log {
            path: path.to_string(),
            _lock: file,
            game_id: game_id.to_string(),
        })
    }

    /// The file's path, as given.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// The id each line gets.
    pub fn game_id(&self) -> &str {
        &self.game_id
    }

    /// Appends one line, whole, with the game's id (see [`Log::append_all`]).
    ///
    /// Errors: the file cannot be written.
    pub fn append(&self, line: &Json) -> Result<(), Diag> {
        self.append_all(std::slice::from_ref(line))
    }

    /// Appends lines in one write, each with the game's id (`"game_id"`), then flushes
    /// them to the disk, so a crash leaves every earlier line intact.
    ///
    /// Errors: the file cannot be written.
    pub fn append_all(&self, lines: &[Json]) -> Result<(), Diag> {
        use std::io::Write;
        let text: String = lines
            .iter()
            .map(|l| {
                let mut l = l.clone();
                if let Json::Object(m) = &mut l {
                    m.insert("game_id".into(), json!(self.game_id));
                }
                format!("{l}\n")
            })
            .collect();
        // Written through the path, not the file held for its lock: a log removed or
        // replaced meanwhile is an error to say, not lines lost in a file no one sees.
        std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .and_then(|mut f| {
                f.write_all(text.as_bytes())?;
                f.sync_data()
            })
            .map_err(|e| {
                Diag::error(
                    Code::IoWrite,
                    format!("cannot append to the log {}: {e}", self.path),
                )
            })
    }
}

/// The games of a log, told by the `game_id` each line carries: one after another
/// (later sessions appending to the same log) each is read in turn; lines of two games
/// mixed together cannot be told apart (`replay` and `report` refuse them). Lines without an id go on with the game before.
#[derive(Default)]
pub struct Games {
    /// The game being played, and the line where it started.
    now: Option<(String, usize)>,
    /// The games that have ended.
    ended: Vec<String>,
}

impl Games {
    /// Takes in line `n`: whether it starts another game (a `game` line with a new id).
    ///
    /// Errors: a line of a game that has ended, or of another game where no `game` line
    /// starts it.
    pub fn next(&mut self, line: &Json, n: usize) -> Result<bool, String> {
        let Some(id) = line.get("game_id").and_then(Json::as_str) else {
            return Ok(false);
        };
        let Some((now, from)) = &self.now else {
            self.now = Some((id.to_string(), n));
            return Ok(false);
        };
        if now == id {
            return Ok(false);
        }
        if self.ended.iter().any(|e| e == id) {
            return Err(format!(
                "this line is of game {id}, which ended when game {now} started at line {from}: the log mixes two games"
            ));
        }
        if line.get("game").is_none() {
            return Err(format!(
                "the second game starts here: this line is of game {id}, but game {now} (from line {from}) was being played and no `game` line starts game {id}: the log mixes two games"
            ));
        }
        self.ended.push(now.clone());
        self.now = Some((id.to_string(), n));
        Ok(true)
    }
}

/// The keys that say what a line does: each line has exactly one of them.
pub const ACTIONS: [&str; 8] = [
    "game", "expr", "set", "apply", "drop", "load", "undo", "redo",
];

/// What every reader of a log (`replay`, `report`) holds each line to, whatever it
/// does: one thing done a line; a `game_id` on every line of a game whose lines carry
/// one; each result numbered the next of its game. Read in order, line by line.
#[derive(Default)]
pub struct Shape {
    /// The id of the game being read, when its lines carry one.
    id: Option<String>,
    /// The number of its last result, when its results are numbered.
    last: Option<u64>,
}

impl Shape {
    /// Takes in the next line.
    ///
    /// Errors: it has two of the [`ACTIONS`] (`undo` and `redo`); it has no `game_id`
    /// where its game's lines carry one; it is a result whose number is not the next
    /// of its game (the first result a log holds may have any number: the log may have
    /// begun part-way through the game).
    pub fn check(&mut self, line: &Json) -> Result<(), String> {
        let Some(obj) = line.as_object() else {
            return Ok(());
        };
        let keys: Vec<&str> = ACTIONS
            .into_iter()
            .filter(|k| obj.contains_key(*k))
            .collect();
        if let [first, second, ..] = keys[..] {
            return Err(format!(
                "it has both `{first}` and `{second}`: a line of a game log does one thing (exactly one of {})",
                ACTIONS.join(", ")
            ));
        }
        let id = obj.get("game_id").and_then(Json::as_str);
        if let (Some(game), None) = (&self.id, id) {
            return Err(format!(
                "it has no `game_id`, but the lines of its game carry one (\"game_id\": \"{game}\"): a line of a game log says whose it is"
            ));
        }
        if obj.contains_key("game") {
            if id.is_none() || id != self.id.as_deref() {
                self.last = None;
            }
            self.id = id.map(str::to_string);
            return Ok(());
        }
        let Some(n) = obj
            .get("result")
            .and_then(Json::as_u64)
            .filter(|_| obj.contains_key("expr"))
        else {
            return Ok(());
        };
        if let Some(last) = self.last.filter(|l| l.checked_add(1) != Some(n)) {
            return Err(format!(
                "its result is number {n}, but the result before it in its game is number {last}: each result is numbered the next of its game ({})",
                last.saturating_add(1)
            ));
        }
        self.last = Some(n);
        Ok(())
    }
}
