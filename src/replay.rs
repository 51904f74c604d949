//! `umpire replay FILE`: a game log (see [`crate::gamelog`]) played again through a
//! [`Game`] — every result adjudicated again with the logged faces, against the ruleset
//! the `game` line names (loaded again, its digest compared) and the state as logged —
//! and every difference told, with its line.

use crate::adjudication::{Adjudication, Roll};
use crate::diagnostic::{Code, Diag, Diags};
use crate::dice::Seeded;
use crate::game::{Candidate, DiceMode, Failure, Fit, Game, NoFace, Refusal, TableDice, TableDie};
use crate::gamelog::{digest, readings, Games, FORMAT, RNG};
use crate::limits::Limits;
use serde_json::Value as Json;

mod taken;

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

/// The players, in a replay: every face comes from the log, so a die asked of them is
/// one the log does not give (said, and the adjudication cancelled).
#[derive(Default)]
struct Unlogged {
    asked: bool,
}

impl TableDice for Unlogged {
    fn face(&mut self, _die: &TableDie<'_>) -> Result<i64, NoFace> {
        self.asked = true;
        Err(NoFace::Cancelled)
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
/// The log is read within `limits`, and the game played within them until a `game`
/// line gives the limits it was played within — each taken no higher than `limits`
/// (a note says where the log's were higher), so a tampered log cannot raise them.
///
/// Errors: the log cannot be read, a line is not JSON, or the first line is not a
/// `game` line; a ruleset that does not load; a result claiming more given faces than
/// it rolled; lines of two games mixed together. Differences are not errors: they are in
/// the [`Replay`].
pub fn replay(path: &str, limits: &Limits) -> Result<Replay, Diags> {
    replay_text(path, limits)
}

/// What a logged line gave when done again: its result as the log would record it
/// (`Null` for none), what was said instead, and the codes of its errors.
struct Again {
    got: Json,
    said: String,
    codes: Vec<Code>,
}

impl Again {
    fn of(game: &Game, r: Result<Option<Adjudication>, Failure>) -> Again {
        match r {
            Ok(Some(a)) => Again {
                got: crate::render::adjudication_json(game.program(), &a),
                said: String::new(),
                codes: Vec::new(),
            },
            Ok(None) => Again {
                got: Json::Null,
                said: "no change: the state holds that already".into(),
                codes: Vec::new(),
            },
            Err(f) => {
                let said = match (&f, f.diags().first()) {
                    (_, Some(d)) => format!("{}: {}", d.code, d.message),
                    (Failure::Refused(r), None) => format!("error: {r}"),
                    (Failure::Cancelled { die, .. }, None) => {
                        format!("no roll for {die}: the adjudication is cancelled")
                    }
                    _ => String::new(),
                };
                Again {
                    got: Json::Null,
                    said,
                    codes: f.diags().iter().map(|d| d.code).collect(),
                }
            }
        }
    }
}

fn replay_text(path: &str, limits: &Limits) -> Result<Replay, Diags> {
    let text = crate::files::read_file(path, limits)?;
    let given = *limits;
    let mut limits = *limits;
    let log_dir = std::path::Path::new(path)
        .parent()
        .map(std::path::Path::to_path_buf)
        .unwrap_or_default();
    let mut out = Replay::default();
    let mut playing: Option<Playing> = None;
    let mut changed: Option<String> = None;
    let mut game_seed: Option<u64> = None;
    let mut games = Games::default();
    let mut shape = crate::gamelog::Shape::default();
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let line: Json = serde_json::from_str(raw).map_err(|e| {
            Diag::error(
                Code::ReplayFormat,
                format!("{path}:{n}: not a line of a game log: {e}"),
            )
        })?;
        let bad = |what: &str| -> Diags {
            Diag::error(Code::ReplayFormat, format!("{path}:{n}: {what}")).into()
        };
        taken::game_id(&line).map_err(|why| bad(&why))?;
        let new_game = games.next(&line, n).map_err(|why| {
            Diags::from(Diag::error(Code::ReplayMixed, format!("{path}:{n}: {why}")).help(
                "two umpires wrote to this log at once: the games cannot be told apart to replay",
            ))
        })?;
        shape.check(&line).map_err(|why| bad(&why))?;
        if let Some(game) = line.get("game") {
            // Another game appended after this one starts afresh.
            let old = if new_game { None } else { playing.take() };
            let g = start(game, old, &log_dir, &given, &mut limits).map_err(|why| {
                Diags::from(Diag::error(
                    Code::ReplayGame,
                    format!("{path}:{n}: cannot start the game this line describes: {why}"),
                ))
            })?;
            changed = g.note.clone();
            if let Some(note) = g.note {
                out.notes.push(format!("line {n}: {note}"));
            }
            game_seed = g.seed;
            playing = Some(g.playing);
            continue;
        }
        let Some(Playing {
            game: g, numbers, ..
        }) = playing.as_mut()
        else {
            return Err(bad("the log does not start with a `game` line"));
        };
        let obj = line
            .as_object()
            .ok_or_else(|| bad("a line of a game log is a JSON object"))?;
        let number = taken::result_number(obj).map_err(|why| bad(&why))?;
        let text_of = |k: &str| obj.get(k).and_then(Json::as_str).map(str::to_string);
        let dice = logged_dice(obj).map_err(|why| bad(&why))?;
        let mut table = Unlogged::default();
        let (input, again) = if let Some(e) = text_of("expr") {
            // A failure logged by `run` gives the rolls it was given, or its seed.
            let faces = match obj.get("given") {
                Some(given) => given
                    .as_array()
                    .and_then(|a| a.iter().map(Json::as_i64).collect::<Option<Vec<i64>>>())
                    .ok_or_else(|| bad("its `given` is not a list of rolls"))?,
                None => logged_faces(obj),
            };
            if obj.get("given").is_none() {
                if let Some(seed) = obj.get("seed").filter(|_| obj.contains_key("error")) {
                    let seed = seed
                        .as_u64()
                        .ok_or_else(|| bad("its `seed` is not a whole number 0 or more"))?;
                    g.set_dice(DiceMode::seeded(seed));
                }
            }
            // A log written before results were changes gives them no number: played
            // as they were then.
            g.legacy_results(!obj.contains_key("result"));
            g.clear_queue();
            g.queue(&faces);
            let mut r = g.adjudicate(&e, false, &mut table);
            if let Err(Failure::Refused(Refusal::EffectsNotApplied(_))) = &r {
                // Logged by a game that lets a new result take the place of one whose
                // effects were not applied (`run` applies only what its scenario says):
                // played as it was. (Nothing was rolled: the faces are still queued.)
                g.legacy_results(true);
                r = g.adjudicate(&e, false, &mut table);
            }
            if let (Ok(_), Some(logged)) = (&r, number) {
                numbers.insert(g.results(), logged);
            }
            (e, Again::of(g, r.map(|d| Some(d.adjudication))))
        } else if let Some(e) = text_of("set") {
            g.clear_queue();
            g.queue(&logged_faces(obj));
            let r = g.set(&e, &mut table);
            let r = r.map(|d| Some(d.adjudication).filter(|a| !a.effects.is_empty()));
            (e, Again::of(g, r))
        } else if let Some(e) = text_of("apply") {
            taken::apply(g, obj, numbers).map_err(|why| bad(&why))?;
            let r = g.apply();
            let again = Again::of(g, r.map(|d| Some(d.adjudication)));
            (format!(":apply (the effects of `{e}`)"), again)
        } else if obj.contains_key("undo") {
            // Not a result: nothing to compare, but it must take back what it names.
            // (A `:load` taken back was asked for.)
            taken::undo(g, obj, numbers).map_err(|why| bad(&why))?;
            continue;
        } else if obj.contains_key("redo") {
            taken::redo(g, obj, numbers).map_err(|why| bad(&why))?;
            continue;
        } else if obj.contains_key("drop") {
            taken::drop(g, obj, numbers).map_err(|why| bad(&why))?;
            continue;
        } else if let Some(p) = text_of("load") {
            let state = obj.get("state").cloned().unwrap_or(Json::Null);
            g.load_value(&p, &state)
                .map_err(|f| Diags(f.diags().to_vec()))?;
            continue;
        } else {
            return Err(bad(
                "a line that is not a game, expr, set, apply, undo, redo, drop or load",
            ));
        };
        out.checked += 1;
        let got = &again.got;
        let mut whys = Vec::new();
        if got.is_null() && !obj.contains_key("error") {
            whys.push(format!("the replay gives no result: {}", again.said.trim()));
        }
        if table.asked {
            whys.push("the replay needed a die the log does not give".to_string());
        }
        for k in COMPARED {
            let want = obj.get(k);
            let have = got.get(k);
            let same = match (want, have) {
                // A logged error is reproduced when the replay fails with the same code.
                (Some(w), None) if k == "error" => {
                    w.get("code").and_then(Json::as_str).is_some_and(|c| {
                        // (The log holds the code's stable text: data, read back.)
                        got.is_null() && again.codes.iter().any(|code| code.as_str() == c)
                    })
                }
                // A log written before rolls had names: their names are not compared.
                (Some(w), Some(h)) if k == "rolls" => *w == unnamed_as(w, h),
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
        // An `apply` line repeats its result's rolls, whose dice its `expr` line
        // accounted for.
        let rolled_here = !obj.contains_key("apply");
        if let Some(w) = dice_not_accounted(obj, dice.as_ref(), game_seed).filter(|_| rolled_here) {
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
    if playing.is_none() {
        return Err(Diag::error(
            Code::ReplayFormat,
            format!("{path}: an empty game log: it has no `game` line"),
        )
        .into());
    }
    Ok(out)
}

/// The replay's rolls `have`, without the `name` of each roll whose logged roll in
/// `want` has none (a log written before rolls were named).
fn unnamed_as(want: &Json, have: &Json) -> Json {
    let mut have = have.clone();
    if let (Some(w), Some(h)) = (want.as_array(), have.as_array_mut()) {
        for (w, h) in w.iter().zip(h.iter_mut()) {
            if let (None, Some(h)) = (w.get("name"), h.as_object_mut()) {
                h.remove("name");
            }
        }
    }
    have
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

/// A logged result's faces, in order.
fn logged_faces(obj: &serde_json::Map<String, Json>) -> Vec<i64> {
    logged_rolls(obj)
        .iter()
        .flat_map(|r| r.faces.iter().map(|&f| i64::from(f)))
        .collect()
}

fn logged_rolls(obj: &serde_json::Map<String, Json>) -> Vec<Roll> {
    obj.get("rolls")
        .cloned()
        .and_then(|r| serde_json::from_value(r).ok())
        .unwrap_or_default()
}

/// Whether every face of a result is accounted for: given (queued), or what the seed
/// gives from the logged place in its stream — in a seeded game, from the game's seed.
fn dice_not_accounted(
    obj: &serde_json::Map<String, Json>,
    dice: Option<&LoggedDice>,
    game_seed: Option<u64>,
) -> Option<String> {
    let faces: usize = logged_rolls(obj).iter().map(|r| r.faces.len()).sum();
    let queued = dice.map_or(0, |d| d.queued);
    if faces <= queued {
        return None;
    }
    let Some((seed, pos)) = dice.and_then(|d| d.at) else {
        // Unseeded dice are the players' (at the table) or a scenario's given rolls;
        // in a seeded game every die not given comes from the seed.
        return game_seed.map(|s| {
            format!("{} of its dice are neither given nor placed in the stream of seed {s}, the game's seed", faces - queued)
        });
    };
    if let Some(g) = game_seed {
        if g != seed {
            return Some(format!(
                "its dice are said to come from seed {seed}, but the game's seed is {g}"
            ));
        }
    }
    let mut rng = Seeded::at(seed, pos);
    let (at, table) = dice.map_or((&[][..], 0), |d| (&d.queued_at[..], d.table));
    let mut k = 0usize;
    // Dice not queued out of turn, so far: the first `table` of them were typed.
    let mut others = 0usize;
    for r in logged_rolls(obj) {
        for &f in &r.faces {
            k += 1;
            let given = if at.is_empty() {
                k <= queued
            } else if at.contains(&k) {
                true
            } else {
                others += 1;
                others <= table
            };
            if given {
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

/// A game being replayed, and the ruleset its last `game` line named: as found, and
/// the digest logged.
struct Playing {
    game: Game,
    ruleset: String,
    digest: Option<String>,
    /// The log's number of each result adjudicated again.
    numbers: taken::Numbers,
}

/// The game a `game` line starts or goes on with, the seed its dice come from (`None`
/// when the players roll or each adjudication gives its own), and a note when the
/// ruleset has changed since.
struct Started {
    playing: Playing,
    seed: Option<u64>,
    note: Option<String>,
}

/// Plays a `game` line: the first starts the game — its ruleset loaded, its readings
/// chosen, its state put on the table. A later one goes on with the game as the live
/// one went on (a `:seed`, a `:use`, an `:interpret`, another run appended): a ruleset
/// other than the last line's is put in use, state and history carried; readings that
/// differ are chosen; a state that differs from the one on the table is put there.
/// Nothing else changes, so an `apply` or an `undo` after it reaches what it reached.
///
/// It is played within `limits`, the limits in force: the line's own replace them when
/// it gives them, and stay in force for the lines after.
fn start(
    game: &Json,
    old: Option<Playing>,
    log_dir: &std::path::Path,
    given: &Limits,
    limits: &mut Limits,
) -> Result<Started, String> {
    let name = game
        .get("ruleset")
        .and_then(Json::as_str)
        .ok_or("it names no ruleset (`\"ruleset\": \"NAME\"`)")?;
    match game.get("log").map(Json::as_u64) {
        Some(Some(FORMAT)) | None => {}
        _ => {
            return Err(format!(
                "it is a version of the log this umpire does not read (it reads {FORMAT})"
            ))
        }
    }
    let dice = game
        .get("dice")
        .ok_or("it does not say how the dice were rolled (`dice`)")?;
    let seed = match (dice.get("rng"), dice.get("seed"), dice.get("table")) {
        (_, _, Some(Json::Bool(true))) => None,
        (Some(Json::String(r)), s, _) if r == RNG => match s {
            Some(s) => Some(
                s.as_u64()
                    .ok_or("its seed is not a whole number 0 or more")?,
            ),
            None if dice.get("per_adjudication") == Some(&Json::Bool(true)) => None,
            None => return Err("its dice name an RNG but no seed".into()),
        },
        (Some(r), _, _) => return Err(format!("its dice come from {r}, and umpire's from {RNG}")),
        _ => return Err("its `dice` are neither seeded (`rng`, `seed`) nor at the table".into()),
    };
    let mut capped = None;
    if let Some(l) = game.get("limits") {
        (*limits, capped) = logged_limits(l, given)?;
    }
    // A ruleset file named relative to where the game was played may be beside the log.
    let name = name.trim();
    let beside = log_dir.join(name);
    let name = if name.is_empty()
        || std::path::Path::new(name).exists()
        || crate::bundled::source(name).is_some()
    {
        name.to_string()
    } else if beside.exists() {
        beside.to_string_lossy().into_owned()
    } else {
        name.to_string()
    };
    let logged_digest = game
        .get("digest")
        .and_then(Json::as_str)
        .map(str::to_string);
    let first = old.is_none();
    let (mut g, same, numbers) = match old {
        Some(p) => {
            let same = p.ruleset == name && p.digest == logged_digest;
            (p.game, same, p.numbers)
        }
        // The dice come from the log: umpire's own only where it gives none.
        None => (
            Game::new(DiceMode::seeded(seed.unwrap_or(0))),
            false,
            taken::Numbers::new(),
        ),
    };
    g.set_limits(*limits);
    // No ruleset: the game was logged before one was put in use.
    if !same && !name.is_empty() {
        let said = |ds: &[Diag]| {
            ds.first()
                .map(|d| format!("{}: {}", d.code, d.message))
                .unwrap_or_default()
        };
        let candidate = Candidate::read(&name, limits)
            .map_err(|ds| format!("its ruleset `{name}` did not load: {}", said(&ds.0)))?;
        g.put_in_use(candidate, Fit::LeaveBehind)
            .map_err(|f| format!("its ruleset `{name}` did not load: {}", said(f.diags())))?;
    }
    let mut note = None;
    let have = digest(&g.ruleset().sources);
    match logged_digest.as_deref() {
        Some(want) if want == have => {}
        Some(want) => {
            note = Some(format!(
                "the ruleset `{name}` has changed since the game was logged ({want}, now {have})"
            ))
        }
        None => {
            note = Some(format!(
                "the log gives no digest of the ruleset `{name}`, so a change to it cannot be told"
            ))
        }
    }
    if let Some(c) = capped {
        note = Some(match note {
            Some(n) => format!("{n}; {c}"),
            None => c,
        });
    }
    if let Some(m) = game.get("interpretations") {
        let m = m
            .as_object()
            .ok_or("its `interpretations` are not an object")?;
        let in_force = readings(g.program(), &g.ruleset().readings);
        for (k, v) in m {
            let r = v
                .as_str()
                .ok_or(format!("its reading of `{k}` is not a name"))?;
            if in_force.get(k).and_then(Json::as_str) != Some(r) {
                g.interpret(k, r)
                    .map_err(|d| format!("its reading of `{k}`: {}", d.message))?;
            }
        }
    }
    let logged = game.get("state").filter(|v| !v.is_null());
    let on_table = g
        .state()
        .map(|s| crate::state::to_json_value(g.program(), s));
    if let Some(state) = logged.filter(|s| first || on_table.as_ref() != Some(*s)) {
        g.load_value("<the logged state>", state).map_err(|f| {
            let why = f
                .diags()
                .first()
                .map(|d| d.message.clone())
                .unwrap_or_default();
            format!("its state does not fit the ruleset: {why}")
        })?;
    }
    if first {
        // The state the game started with is its start, not a change: an `undo` never
        // takes it back (as the REPL never does).
        g.begin();
    }
    Ok(Started {
        playing: Playing {
            game: g,
            ruleset: name,
            digest: logged_digest,
            numbers,
        },
        seed,
        note,
    })
}

/// A `game` line's `limits` (a limit left out is the default), each taken no higher
/// than the replay's own, `given` (its flags, or the defaults): a log is data, and a
/// tampered one must not make the replay run out of memory. With a note naming those
/// that were higher, and the flag that would allow them.
fn logged_limits(l: &Json, given: &Limits) -> Result<(Limits, Option<String>), String> {
    let d = Limits::default();
    let mut above = Vec::new();
    // The logged limit `k` (`d` left out), taken no higher than `most`.
    let mut limit = |k: &str, flag: &str, d: u64, most: u64| -> Result<u64, String> {
        let logged = match l.get(k) {
            None => d,
            Some(v) => v
                .as_u64()
                .ok_or(format!("its limit `{k}` is not a whole number"))?,
        };
        if logged > most {
            above.push(format!("{k} {logged} (give --max-{flag} {logged})"));
        }
        Ok(logged.min(most))
    };
    let small = |v: u64| u32::try_from(v).unwrap_or(u32::MAX);
    let limits = Limits {
        steps: limit("steps", "steps", d.steps, given.steps)?,
        depth: small(limit("depth", "depth", d.depth.into(), given.depth.into())?),
        dice: limit("dice", "dice", d.dice, given.dice)?,
        dice_per_roll: small(limit(
            "dice_per_roll",
            "dice-per-roll",
            d.dice_per_roll.into(),
            given.dice_per_roll.into(),
        )?),
        sides: small(limit("sides", "sides", d.sides.into(), given.sides.into())?),
        file_bytes: limit("file_bytes", "file-size", d.file_bytes, given.file_bytes)?,
    };
    let note = (!above.is_empty()).then(|| {
        format!(
            "the log's limits are above this replay's, which it is replayed within: {}",
            above.join(", ")
        )
    });
    Ok((limits, note))
}

/// A result's `dice`, checked: how many faces were given, and where in which seed's
/// stream the rest were drawn.
struct LoggedDice {
    /// Faces queued, and typed at the table (`table`, in logs that say it).
    queued: usize,
    /// Faces typed at the table.
    table: usize,
    /// The numbers (from 1) of the dice queued, where they are not the first
    /// (`queued_dice`); empty where they are.
    queued_at: Vec<usize>,
    at: Option<(u64, u128)>,
}

fn logged_dice(obj: &serde_json::Map<String, Json>) -> Result<Option<LoggedDice>, String> {
    let Some(d) = obj.get("dice") else {
        return Ok(None);
    };
    let m = d.as_object().ok_or("its `dice` is not an object")?;
    if let Some(k) = m
        .keys()
        .find(|k| !["queued", "table", "seed", "position", "queued_dice"].contains(&k.as_str()))
    {
        return Err(format!("its `dice` has `{k}`, which a log does not"));
    }
    let count = |key: &str| -> Result<usize, String> {
        match m.get(key) {
            None => Ok(0),
            Some(v) => v
                .as_u64()
                .map(|n| n as usize)
                .ok_or_else(|| format!("its `dice.{key}` is not a whole number")),
        }
    };
    // Faces typed at the table are given as the queued ones are: neither is the seed's.
    let table = count("table")?;
    let queued = count("queued")?.saturating_add(table);
    let queued_at: Vec<usize> = match m.get("queued_dice") {
        None => Vec::new(),
        Some(v) => v
            .as_array()
            .and_then(|a| {
                a.iter()
                    .map(|k| k.as_u64().and_then(|k| usize::try_from(k).ok()))
                    .collect::<Option<Vec<usize>>>()
            })
            .filter(|a| a.len() == count("queued").unwrap_or(0))
            .ok_or(
                "its `dice.queued_dice` is not a list of the numbers of its `dice.queued` dice",
            )?,
    };
    let at = match (m.get("seed"), m.get("position")) {
        (None, None) => None,
        (Some(s), Some(p)) => {
            let s = s
                .as_u64()
                .ok_or("its `dice.seed` is not a whole number 0 or more")?;
            let p: u128 = p.as_str().and_then(|p| p.parse().ok()).ok_or(
                "its `dice.position` is not a place in the stream (a whole number, as text)",
            )?;
            Some((s, p))
        }
        _ => {
            return Err(
                "its `dice` gives a seed without a position, or a position without a seed".into(),
            )
        }
    };
    // Faces said to be given are fed back unchecked: never more than it rolled.
    let faces = logged_faces(obj).len();
    if queued > faces {
        return Err(format!(
            "its `dice.queued` says {queued} faces were given, but it rolled {faces}"
        ));
    }
    if let Some(k) = queued_at.iter().find(|k| **k == 0 || **k > faces) {
        return Err(format!(
            "its `dice.queued_dice` names die {k}, but it rolled {faces}"
        ));
    }
    Ok(Some(LoggedDice {
        queued,
        table,
        queued_at,
        at,
    }))
}

#[cfg(test)]
mod tests;
