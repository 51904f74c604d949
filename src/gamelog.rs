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
//! Logs written before results were numbered have no `result` fields; `replay` plays
//! them as they were played then.
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
    use std::io::{BufRead, Read};
    let first = std::fs::File::open(path)
        .map(|f| {
            let mut line = String::new();
            let _ = std::io::BufReader::new(f.take(1 << 20)).read_line(&mut line);
            line
        })
        .unwrap_or_default();
    match serde_json::from_str::<Json>(first.trim()) {
        Ok(v) if v.get("game").is_some() => Ok(()),
        _ => Err(refuse("it holds something else, not a game log".into())),
    }
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
                Code::IoWrite,
                format!("cannot append to the log {path}: {e}"),
            )
        })
}
