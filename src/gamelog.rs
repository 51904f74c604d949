//! The game log (REPL `:log FILE`, `umpire run --log FILE`) and its replay
//! (`umpire replay FILE`).
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
//! Then one line per thing done, in order: `{"expr": TEXT, "value": …, "rolls": […],
//! "effects": […], "dice": {"queued": N, "seed": S, "position": "P"}}` (a result; or
//! `"refused"`, `"unspecified"`, `"error"`), `{"set": LINE, …}`, `{"apply": TEXT, …}`,
//! `{"undo": WHAT}`, `{"load": PATH, "state": {…}}`.
//!
//! The digest is SHA-256 over every source text of the ruleset (a house rule and what it
//! extends), so a replay can tell a changed ruleset from a changed umpire. `dice` says
//! how many faces were queued (given) and, for the rest, where in the seeded stream
//! (ChaCha8 from `seed`, at word `position`) they were drawn: a replay feeds the logged
//! faces back (so table dice replay too) and, where they were seeded, draws them again
//! from the same place to prove the dice were what the seed gives.

use crate::adjudication::Roll;
use crate::diagnostic::{Diag, Diags};
use crate::dice::Seeded;
use crate::program::Program;
use crate::repl::session::{Io, Session};
use crate::value::Value;
use crate::Ruleset;
use serde_json::{json, Value as Json};

/// The log format's version.
pub const FORMAT: u64 = 1;

/// The RNG the seeded dice use, as a log names it.
pub const RNG: &str = "ChaCha8";

/// `sha256:` and the hex SHA-256 of the ruleset's source texts, in load order, each
/// preceded by its length (so two files cannot run together into a third).
pub fn digest(p: &Program) -> String {
    use sha2::{Digest, Sha256};
    let mut h = Sha256::new();
    for f in p.sources.files().iter().take(p.ruleset_files) {
        h.update((f.text.len() as u64).to_le_bytes());
        h.update(f.text.as_bytes());
    }
    let bytes = h.finalize();
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("sha256:{hex}")
}

/// The reading in force for each interpretation, by name (the chosen one, else the
/// default; an interpretation with neither is left out).
pub fn readings(p: &Program) -> serde_json::Map<String, Json> {
    let mut m = serde_json::Map::new();
    for (i, info) in p.interpretations.iter().enumerate() {
        let r = p.chosen.get(i).copied().flatten().or(info.default);
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

/// The `game` line: the ruleset (as named to load it), its digest, the readings in
/// force, the dice, the state.
pub fn game_line(rules: &Ruleset, ruleset: &str, dice: Dice) -> Json {
    game_line_at(&rules.program, rules.state.as_ref(), ruleset, dice)
}

/// The `game` line for `program` with `state` on the table.
pub fn game_line_at(program: &Program, state: Option<&Value>, ruleset: &str, dice: Dice) -> Json {
    let dice = match dice {
        Dice::Seeded(s) => json!({ "rng": RNG, "seed": s }),
        Dice::Table => json!({ "table": true }),
        Dice::PerAdjudication => json!({ "rng": RNG, "per_adjudication": true }),
    };
    let state = match state {
        Some(s) => state_json(program, s),
        None => Json::Null,
    };
    json!({ "game": {
        "umpire": env!("CARGO_PKG_VERSION"),
        "log": FORMAT,
        "ruleset": ruleset,
        "digest": digest(program),
        "interpretations": readings(program),
        "dice": dice,
        "state": state,
    }})
}

/// The state as JSON that loads back as a state file.
pub fn state_json(p: &Program, s: &Value) -> Json {
    serde_json::from_str(&crate::state::to_json(p, s)).unwrap_or(Json::Null)
}

/// Where a result's dice came from: `queued` faces given first, the rest drawn from the
/// seeded stream at `at` (seed, word position) when it was seeded.
pub fn dice_json(queued: usize, at: Option<(u64, u128)>) -> Json {
    match at {
        Some((seed, pos)) => {
            json!({ "queued": queued, "seed": seed, "position": pos.to_string() })
        }
        None => json!({ "queued": queued }),
    }
}

/// The log of a scenario run ([`crate::scenario::run`]): a `game` line with the state
/// it started from, then each adjudication (with its dice: given rolls, or the seed it
/// was rolled from), its error, and its effects when applied.
pub fn scenario_lines(report: &crate::scenario::Report) -> Vec<Json> {
    let p = &report.ruleset.program;
    let mut lines = vec![game_line_at(
        p,
        report.start_state.as_ref(),
        &report.ruleset_path,
        Dice::PerAdjudication,
    )];
    for d in &report.done {
        match &d.result {
            Ok(a) => {
                let mut body = match crate::adjudication::adjudication_json(p, a) {
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
                        Some(seed) => dice_json(0, Some((seed, 0))),
                        None => dice_json(faces, None),
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
            Err(e) => lines.push(json!({
                "expr": d.expr,
                "error": { "code": e.code, "message": e.message },
            })),
        }
    }
    lines
}

/// Appends one line to the log at `path`, whole: the line is written with one call to
/// a file opened for appending, then flushed to the disk, so a crash leaves every
/// earlier line intact.
///
/// Errors: the file cannot be opened or written.
pub fn append(path: &str, line: &Json) -> Result<(), Diag> {
    append_all(path, std::slice::from_ref(line))
}

/// Appends several lines to the log at `path` in one write (see [`append`]).
///
/// Errors: the file cannot be opened or written.
pub fn append_all(path: &str, lines: &[Json]) -> Result<(), Diag> {
    use std::io::Write;
    let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
    std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.sync_data()
        })
        .map_err(|e| {
            Diag::error(
                "umpire::io::write",
                format!("cannot append to the log {path}: {e}"),
            )
        })
}

/// One result the replay did not reproduce.
#[derive(Debug, Clone)]
pub struct Difference {
    /// The log's line number (from 1).
    pub line: usize,
    /// What was done on that line, as logged (`manoeuvre(brigade.x)`, `:apply`).
    pub input: String,
    /// What differs, and why when it can be told.
    pub why: String,
}

/// What a replay found.
#[derive(Debug, Clone, Default)]
pub struct Replay {
    /// Results (adjudications, sets, applies) checked.
    pub checked: usize,
    /// Those that differ.
    pub differences: Vec<Difference>,
    /// Things worth knowing that are not differences (a `game` line's ruleset).
    pub notes: Vec<String>,
}

/// Collects what the session says; a die is never typed in a replay.
#[derive(Default)]
struct Quiet {
    err: String,
    asked: bool,
}

impl Io for Quiet {
    fn out(&mut self, _text: &str) {}
    fn err(&mut self, text: &str) {
        self.err.push_str(text);
    }
    fn ask(&mut self, _prompt: &str) -> Option<String> {
        self.asked = true;
        None
    }
    fn render(&self, d: &dyn miette::Diagnostic) -> String {
        let mut s = String::new();
        if let Some(c) = d.code() {
            s.push_str(&format!("{c}: "));
        }
        s.push_str(&d.to_string());
        s.push('\n');
        s
    }
}

/// The keys of a logged result that a replay must reproduce.
const COMPARED: [&str; 6] = [
    "value",
    "refused",
    "unspecified",
    "rolls",
    "effects",
    "error",
];

/// Replays the log at `path`: every result adjudicated again, with the logged faces,
/// against the ruleset the `game` line names (loaded again, its digest compared) and
/// the state as logged; seeded faces drawn again from the logged seed and position.
///
/// Errors: the log cannot be read, a line is not JSON, or the first line is not a
/// `game` line; a ruleset that does not load. Differences are not errors: they are in
/// the [`Replay`].
pub fn replay(path: &str) -> Result<Replay, Diags> {
    let text = crate::read_file(path)?;
    let mut out = Replay::default();
    let mut session: Option<Session> = None;
    let mut changed: Option<String> = None;
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let line: Json = serde_json::from_str(raw).map_err(|e| {
            Diag::error(
                "umpire::replay::format",
                format!("{path}:{n}: not a line of a game log: {e}"),
            )
        })?;
        let bad = |what: &str| -> Diags {
            Diag::error("umpire::replay::format", format!("{path}:{n}: {what}")).into()
        };
        if let Some(game) = line.get("game") {
            let (s, note) = start(game, session.take()).map_err(|mut ds| {
                ds.0.push(Diag::error(
                    "umpire::replay::ruleset",
                    format!("{path}:{n}: the game's ruleset did not load"),
                ));
                ds
            })?;
            changed = note.clone();
            if let Some(note) = note {
                out.notes.push(format!("line {n}: {note}"));
            }
            session = Some(s);
            continue;
        }
        let Some(s) = session.as_mut() else {
            return Err(bad("the log does not start with a `game` line"));
        };
        let obj = line
            .as_object()
            .ok_or_else(|| bad("a line of a game log is a JSON object"))?;
        let text_of = |k: &str| obj.get(k).and_then(Json::as_str).map(str::to_string);
        let mut io = Quiet::default();
        let (input, compare) = if let Some(e) = text_of("expr") {
            queue_logged(s, obj);
            s.input(&e, &mut io);
            (e, true)
        } else if let Some(e) = text_of("set") {
            queue_logged(s, obj);
            s.input(&e, &mut io);
            (e, true)
        } else if let Some(e) = text_of("apply") {
            s.input(":apply", &mut io);
            (format!(":apply (the effects of `{e}`)"), true)
        } else if obj.contains_key("undo") {
            s.input(":undo", &mut io);
            (":undo".to_string(), false)
        } else if let Some(p) = text_of("load") {
            let state = obj.get("state").cloned().unwrap_or(Json::Null);
            s.put_state(&state.to_string(), &p)?;
            continue;
        } else {
            return Err(bad(
                "a line that is not a game, expr, set, apply, undo or load",
            ));
        };
        if !compare {
            continue;
        }
        out.checked += 1;
        let got = s.last_event().cloned().unwrap_or(Json::Null);
        let mut whys = Vec::new();
        if got.is_null() && !obj.contains_key("error") {
            let said = io.err.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
            whys.push(format!("the replay gives no result: {}", said.trim()));
        }
        if io.asked {
            whys.push("the replay needed a die the log does not give".to_string());
        }
        for k in COMPARED {
            let want = obj.get(k);
            let have = got.get(k);
            let same = match (want, have) {
                // A logged error is reproduced when the replay fails with the same code.
                (Some(w), None) if k == "error" => w
                    .get("code")
                    .and_then(Json::as_str)
                    .is_some_and(|c| got.is_null() && io.err.contains(c)),
                (w, h) => w == h,
            };
            if !same {
                whys.push(format!(
                    "the log has {}, the replay gives {}",
                    shown(k, want),
                    shown(k, have)
                ));
            }
        }
        if let Some(w) = seeded_mismatch(obj) {
            whys.push(w);
        }
        if !whys.is_empty() {
            if let Some(c) = &changed {
                whys.push(format!("({c})"));
            }
            out.differences.push(Difference {
                line: n,
                input,
                why: whys.join("; "),
            });
        }
    }
    if session.is_none() {
        return Err(Diag::error(
            "umpire::replay::format",
            format!("{path}: an empty game log: it has no `game` line"),
        )
        .into());
    }
    Ok(out)
}

/// A logged value as the difference names it.
fn shown(key: &str, v: Option<&Json>) -> String {
    match v {
        None => format!("no {key}"),
        Some(Json::String(s)) => format!("{key} `{s}`"),
        Some(v) if key == "error" => format!(
            "the error {}",
            v.get("code").and_then(Json::as_str).unwrap_or("?")
        ),
        Some(v) => format!("{key} {v}"),
    }
}

/// Queues a logged result's faces, in order, for the session's next adjudication.
fn queue_logged(s: &mut Session, obj: &serde_json::Map<String, Json>) {
    let faces: Vec<i64> = logged_rolls(obj)
        .iter()
        .flat_map(|r| r.faces.iter().map(|&f| i64::from(f)))
        .collect();
    s.queue_faces(faces);
}

fn logged_rolls(obj: &serde_json::Map<String, Json>) -> Vec<Roll> {
    obj.get("rolls")
        .cloned()
        .and_then(|r| serde_json::from_value(r).ok())
        .unwrap_or_default()
}

/// Whether the faces the log says were seeded are what the seed gives, from the
/// logged place in the stream.
fn seeded_mismatch(obj: &serde_json::Map<String, Json>) -> Option<String> {
    let dice = obj.get("dice")?;
    let seed = dice.get("seed")?.as_u64()?;
    let pos: u128 = dice.get("position")?.as_str()?.parse().ok()?;
    let queued = dice.get("queued").and_then(Json::as_u64).unwrap_or(0) as usize;
    let mut rng = Seeded::at(seed, pos);
    let mut k = 0usize;
    for r in logged_rolls(obj) {
        for &f in &r.faces {
            k += 1;
            if k <= queued {
                continue;
            }
            let again = rng.draw(r.sides);
            if again != f {
                return Some(format!(
                    "die {k} ({}) shows {f} in the log, but {RNG} from seed {seed} gives {again} there: the dice were not what the seed gives",
                    r.dice
                ));
            }
        }
    }
    None
}

/// A session for a `game` line: its ruleset loaded (digest compared), its readings
/// chosen, its state put on the table. Returns a note when the ruleset differs.
fn start(game: &Json, old: Option<Session>) -> Result<(Session, Option<String>), Diags> {
    let name = game.get("ruleset").and_then(Json::as_str).ok_or_else(|| {
        Diags::from(Diag::error(
            "umpire::replay::format",
            "a `game` line names no ruleset",
        ))
    })?;
    let seed = game
        .get("dice")
        .and_then(|d| d.get("seed"))
        .and_then(Json::as_u64)
        .unwrap_or(0);
    let mut s = old.unwrap_or_else(|| Session::new(seed));
    let mut io = Quiet::default();
    if !s.use_fresh(name, &mut io) {
        return Err(Diag::error(
            "umpire::replay::ruleset",
            format!("the ruleset `{name}` did not load: {}", io.err.trim()),
        )
        .into());
    }
    let mut note = None;
    let want = game.get("digest").and_then(Json::as_str).unwrap_or("");
    let have = digest(s.program());
    if want != have {
        note = Some(format!(
            "the ruleset `{name}` has changed since the game was logged ({want}, now {have})"
        ));
    }
    if let Some(Json::Object(m)) = game.get("interpretations") {
        for (k, v) in m {
            let r = v.as_str().unwrap_or("");
            s.interpret_quietly(k, r).map_err(Diags::from)?;
        }
    }
    if let Some(state) = game.get("state").filter(|v| !v.is_null()) {
        s.put_state(&state.to_string(), "<the logged state>")?;
    }
    Ok((s, note))
}
