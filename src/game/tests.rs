//! A game at the table, on the bundled rulesets and their example states. Each expected
//! value is worked out from the rulebook (quoted beside it) and the ruleset.

use super::*;
use crate::adjudication::{Adjudication, Outcome};
use crate::diagnostic::Code;
use crate::dice::DiceRequest;
use crate::limits::Limits;
use crate::render::{headline, show_arg};
use std::collections::VecDeque;

/// Furious Reason: Guard grenadiers (leader CP 2, rear support), the 2nd Foot (Line,
/// 30% lost), the county militia (disordered, being charged), grenadiers (column, both
/// flanks secure).
const BRIGADE: &str = "examples/states/furious_reason_brigade.toml";
/// Little Wars: side A with 19 men free, side B with 27.
const TABLE: &str = "examples/states/little_wars_table.toml";

fn game(ruleset: &str, state: &str) -> Game {
    let mut g = Game::new(DiceMode::seeded(1));
    let c = Candidate::read(ruleset, &Limits::default()).expect("a bundled ruleset");
    g.put_in_use(c, Fit::Keep).expect("no state to carry yet");
    g.load(state).expect("the example state fits");
    g
}

/// An outcome as `:state` shows it: values by their names (`tardy`, `{ free: 12, … }`).
fn shown(g: &Game, o: &Outcome) -> String {
    match o {
        Outcome::Value(v) => show_arg(g.program(), v),
        other => headline(g.program(), other),
    }
}

fn value(g: &Game, a: &Adjudication) -> String {
    shown(g, &a.outcome)
}

/// A part of the state on the table.
fn at(g: &mut Game, path: &str) -> String {
    let o = g.look(path).expect("a path into the state");
    shown(g, &o)
}

/// Adjudicates `text` with `faces` queued.
fn roll(g: &mut Game, faces: &[i64], text: &str) -> Adjudicated {
    g.queue(faces);
    g.adjudicate(text, false, &mut NoTable)
        .unwrap_or_else(|f| panic!("{text}: {f:?}"))
}

/// What `text` gives, rolling nothing.
fn cost_of(g: &mut Game, text: &str) -> String {
    let a = roll(g, &[], text);
    value(g, &a.adjudication)
}

fn codes(f: &Failure) -> Vec<Code> {
    f.diags().iter().map(|d| d.code).collect()
}

fn scratch(name: &str) -> String {
    let dir = std::env::temp_dir().join(format!("umpire-game-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir.to_string_lossy().into_owned()
}

#[test]
fn a_manoeuvre_reads_the_faces_given_with_the_die_roll_modifiers() {
    let mut g = game("furious_reason", BRIGADE);
    // 2nd Foot: Line, 30% lost — "Each 25% lost -1" once: 6 - 1 = 5, "5,6 Tardy".
    let a = roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    assert_eq!(value(&g, &a.adjudication), "tardy");
    assert_eq!(a.adjudication.rolls[0].faces, [6]);
    assert_eq!(
        a.queue,
        Some(QueueUse {
            used: vec![6],
            dropped: vec![],
            dropped_named: Vec::new(),
            made: Vec::new(),
        })
    );
    // Guard grenadiers: "Guard Class +2", "Attached Leader +CP" (2), "Rear Support +1":
    // 3 + 5 = 8, "7 or more Well Handled".
    let a = roll(&mut g, &[3], "manoeuvre(brigade.guard_grenadiers)");
    assert_eq!(value(&g, &a.adjudication), "well_handled");
    // County militia: disordered, so the Disorder column; "Militia Class -1", "Being
    // Charged -1": 5 - 2 = 3, "3,4 Wavering".
    let a = roll(&mut g, &[5], "manoeuvre(brigade.county_militia)");
    assert_eq!(value(&g, &a.adjudication), "wavering");
    // Grenadiers: "Grenadier Class +1", "Column Formation +1", "Both Flanks Secure +1":
    // 1 + 3 = 4, "3,4 Hold". A face queued and not needed is dropped.
    let a = roll(&mut g, &[1, 9], "manoeuvre(brigade.grenadiers)");
    assert_eq!(value(&g, &a.adjudication), "hold");
    assert_eq!(
        a.queue,
        Some(QueueUse {
            used: vec![1],
            dropped: vec![9],
            dropped_named: Vec::new(),
            made: Vec::new(),
        })
    );
    assert!(g.queued().is_empty());
    // A manoeuvre changes nothing on the table: nothing to apply.
    assert_eq!(
        g.last().map(Ruling::text),
        Some("manoeuvre(brigade.grenadiers)")
    );
    assert!(g.pending().is_none());
    assert!(matches!(
        g.apply(),
        Err(Failure::Refused(Refusal::NothingToApply))
    ));
}

#[test]
fn the_same_seed_rolls_the_same_dice() {
    let mut a = Game::new(DiceMode::seeded(7));
    let mut b = Game::new(DiceMode::seeded(7));
    let x = a
        .adjudicate("3d6", false, &mut NoTable)
        .expect("no ruleset needed");
    let y = b
        .adjudicate("3d6", false, &mut NoTable)
        .expect("no ruleset needed");
    assert_eq!(x.adjudication.rolls, y.adjudication.rolls);
    assert_eq!(x.queue, None);
    assert!(x.adjudication.rolls[0]
        .faces
        .iter()
        .all(|f| (1..=6).contains(f)));
}

#[test]
fn a_change_by_hand_is_checked_made_and_taken_back() {
    let mut g = game("furious_reason", BRIGADE);
    assert_eq!(g.history().len(), 1, "the load");
    assert!(!g.unsaved());
    let line = ":set brigade.second_foot.lost_percent = 55";
    let done = g.set(line, &mut NoTable).expect("55 is in 0..100");
    let e = &done.adjudication.effects;
    assert_eq!(e.len(), 1);
    assert_eq!(e[0].path_text(), "brigade.second_foot.lost_percent");
    assert!(g.unsaved());
    // 55% lost is two whole 25%s: 6 - 2 = 4, "3,4 Hold".
    let a = roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    assert_eq!(value(&g, &a.adjudication), "hold");
    // The result is the newest thing done: taken back first, the state untouched.
    let r = g.undo().expect("the result");
    assert_eq!(
        r.done.to_string(),
        "the result of `manoeuvre(brigade.second_foot)`"
    );
    assert!(g.last().is_none());
    assert_eq!(at(&mut g, "brigade.second_foot.lost_percent"), "55");
    // Then the set: 30% again.
    let c = g.undo().expect("the set");
    assert_eq!(
        c.done,
        Done::Set {
            line: line.to_string()
        }
    );
    assert_eq!(c.done.to_string(), format!("`{line}`"));
    assert_eq!(at(&mut g, "brigade.second_foot.lost_percent"), "30");
    assert_eq!(c.before.state.as_ref(), g.state());
    // "lost_percent: 0..100": 120 is refused, and nothing changes.
    let f = g
        .set("set brigade.second_foot.lost_percent = 120", &mut NoTable)
        .expect_err("out of range");
    assert_eq!(codes(&f), [Code::EvalRange]);
    assert_eq!(at(&mut g, "brigade.second_foot.lost_percent"), "30");
    assert_eq!(g.history().len(), 1);
    // No change: no effects, nothing to take back.
    let same = g
        .set("set brigade.second_foot.lost_percent += 0", &mut NoTable)
        .expect("a set");
    assert!(same.adjudication.effects.is_empty());
    assert_eq!(g.history().len(), 1);
    // The load itself is taken back only when asked for in so many words: then no
    // state, nothing left to undo.
    assert!(matches!(
        g.undo(),
        Err(Failure::Refused(Refusal::TakesBackLoad(p))) if p == BRIGADE
    ));
    assert!(matches!(
        g.undo_anyway().map(|c| c.done),
        Ok(Done::Load { .. })
    ));
    assert!(g.state().is_none());
    assert!(matches!(
        g.undo(),
        Err(Failure::Refused(Refusal::NothingToUndo))
    ));
    assert!(matches!(
        g.set(line, &mut NoTable),
        Err(Failure::Refused(Refusal::NoState))
    ));
}

#[test]
fn wells_two_melees_applied_leave_the_table_as_he_tells_it() {
    let mut g = game("little_wars", TABLE);
    // "if A moves up nineteen men into a melee with thirteen of B's—B having only five in
    // support—A makes six prisoners, kills seven men, and has seven of his own killed."
    let first = "melee_on_table(\"a\", \"b\", attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)";
    let a = roll(&mut g, &[], first);
    assert_eq!(
        value(&g, &a.adjudication),
        "{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }"
    );
    // Adjudicated, not yet applied: the table is as it was.
    assert_eq!(at(&mut g, "sides.a.free"), "19");
    let applied = g.apply().expect("the melee's effects");
    assert_eq!(applied.text, first);
    assert_eq!(
        at(&mut g, "sides.a"),
        "{ free: 12, dead: 7, prisoners_held: 6, escorts: 0, released: 0 }"
    );
    assert_eq!(at(&mut g, "sides.b.free"), "14");
    assert!(matches!(
        g.apply(),
        Err(Failure::Refused(Refusal::AppliedAlready(t))) if t == first
    ));
    // "B has fourteen men in the second melee and A twelve, B makes two prisoners, kills
    // ten of A's men, and has ten of his own killed."
    let second = "melee_on_table(\"b\", \"a\", attackers: 14, defenders: 12, attacker_support: 0, defender_support: 0)";
    let a = roll(&mut g, &[], second);
    assert_eq!(
        value(&g, &a.adjudication),
        "{ attacker_killed: 10, defender_killed: 10, attacker_prisoners: 0, defender_prisoners: 2 }"
    );
    g.apply().expect("the second melee's effects");
    // "the six prisoners originally made by A are left without an escort, and are
    // therefore recaptured by B."
    let a = roll(&mut g, &[], "recapture(\"b\", \"a\")");
    assert_eq!(value(&g, &a.adjudication), "6");
    g.apply().expect("the recapture");
    // "one man within six inches of any number of prisoners up to seven can escort
    // these prisoners": B's two prisoners need one escort.
    let a = roll(&mut g, &[], "detail_escorts(\"b\")");
    assert_eq!(value(&g, &a.adjudication), "1");
    g.apply().expect("the escort");
    // "six of B's men going as released prisoners to his back line ..., two of A's men
    // prisoners in the hands of B, one of B's staying with them as escort, and three of
    // B's men still actively free for action. A, at a cost of nineteen men, has
    // disposed of seventeen of B's men for good."
    assert_eq!(
        at(&mut g, "sides.b"),
        "{ free: 3, dead: 17, prisoners_held: 2, escorts: 1, released: 6 }"
    );
    assert_eq!(
        at(&mut g, "sides.a"),
        "{ free: 0, dead: 17, prisoners_held: 0, escorts: 0, released: 0 }"
    );
    // Every apply and result taken back, newest first: the table as it began.
    let undone: Vec<String> = (0..8)
        .map(|_| g.undo().expect("an apply or a result").done.to_string())
        .collect();
    assert_eq!(
        undone,
        [
            "the effects of `detail_escorts(\"b\")`".to_string(),
            "the result of `detail_escorts(\"b\")`".to_string(),
            "the effects of `recapture(\"b\", \"a\")`".to_string(),
            "the result of `recapture(\"b\", \"a\")`".to_string(),
            format!("the effects of `{second}`"),
            format!("the result of `{second}`"),
            format!("the effects of `{first}`"),
            format!("the result of `{first}`"),
        ]
    );
    assert_eq!(at(&mut g, "sides.a.free"), "19");
    assert_eq!(at(&mut g, "sides.b.free"), "27");
}

#[test]
fn undoing_an_apply_makes_its_result_applicable_again_and_a_change_puts_it_out_of_date() {
    let mut g = game("little_wars", TABLE);
    let melee = "melee_on_table(\"a\", \"b\", attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)";
    roll(&mut g, &[], melee);
    let id = g.pending().map(Ruling::id).expect("a result with effects");
    g.apply().expect("applied");
    let c = g.undo().expect("the apply");
    assert_eq!(
        c.done,
        Done::Apply {
            text: melee.to_string(),
            ruling: id
        }
    );
    assert!(g.pending().is_some_and(|p| !p.applied()));
    // "nine against eleven have two taken prisoners, and each side seven men dead":
    // A's 19 free lose 7 killed, B's 27 lose 7 killed and 2 prisoners.
    g.apply().expect("applicable again");
    assert_eq!(at(&mut g, "sides.a.free"), "12");
    assert_eq!(at(&mut g, "sides.b.free"), "18");
    g.undo().expect("the apply again");
    // A change by hand since the result: it is out of date.
    g.set("set sides.a.free = 20", &mut NoTable)
        .expect("a change");
    assert!(matches!(
        g.apply(),
        Err(Failure::Refused(Refusal::StateChanged(t))) if t == melee
    ));
    // A failed adjudication forgets the result before it.
    let f = g
        .adjudicate("recapture(\"c\", \"a\")", false, &mut NoTable)
        .expect_err("there is no side c");
    assert_eq!(codes(&f), [Code::EvalNoMember]);
    assert!(g.pending().is_none() && g.last().is_none());
}

#[test]
fn explain_gives_the_last_result_again_against_the_state_it_was_adjudicated_against() {
    let mut g = game("furious_reason", BRIGADE);
    assert!(matches!(
        g.explain(),
        Err(Failure::Refused(Refusal::NothingAdjudicated))
    ));
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    g.set("set brigade.second_foot.lost_percent = 55", &mut NoTable)
        .expect("a change");
    // With 30% lost, as then: 6 - 1 = 5, Tardy — not 6 - 2 = 4, Hold.
    let a = g.explain().expect("explained");
    assert_eq!(value(&g, &a), "tardy");
    assert_eq!(a.rolls[0].faces, [6]);
    assert!(a.trace.is_some());
    assert_eq!(at(&mut g, "brigade.second_foot.lost_percent"), "55");
}

/// Players who roll `faces` in turn, noting each die they are asked for.
struct Players {
    faces: VecDeque<Result<i64, NoFace>>,
    asked: Vec<String>,
}

impl TableDice for Players {
    fn face(&mut self, die: &TableDie<'_>) -> Result<i64, NoFace> {
        let r: &DiceRequest<'_> = die.request;
        self.asked.push(format!(
            "{} {} of {} for {:?} in {}",
            r.text, die.index, r.count, r.within, die.input
        ));
        self.faces.pop_front().unwrap_or(Err(NoFace::Cancelled))
    }
}

fn players(faces: Vec<Result<i64, NoFace>>) -> Players {
    Players {
        faces: faces.into(),
        asked: Vec::new(),
    }
}

#[test]
fn dice_at_the_table_are_asked_of_the_players_after_the_queued_faces() {
    let mut g = game("furious_reason", BRIGADE);
    g.set_dice(DiceMode::Table);
    // Guard grenadiers, +5: a 3 makes 8, Well Handled.
    let mut p = players(vec![Ok(3)]);
    let a = g
        .adjudicate("manoeuvre(brigade.guard_grenadiers)", false, &mut p)
        .expect("rolled at the table");
    assert_eq!(value(&g, &a.adjudication), "well_handled");
    assert_eq!(
        p.asked,
        ["D10 0 of 1 for Some(\"manoeuvre\") in manoeuvre(brigade.guard_grenadiers)"]
    );
    // A queued 4 is the first die of 2d6; the players give the second: 4 + 6 = 10.
    g.queue(&[4]);
    let mut p = players(vec![Ok(6)]);
    let a = g.adjudicate("2d6", false, &mut p).expect("rolled");
    assert_eq!(value(&g, &a.adjudication), "10");
    assert_eq!(p.asked, ["2d6 1 of 2 for None in 2d6"]);
    // 11 is not a face of a D10.
    let mut p = players(vec![Ok(11)]);
    let f = g
        .adjudicate("manoeuvre(brigade.second_foot)", false, &mut p)
        .expect_err("no such face");
    assert_eq!(codes(&f), [Code::DiceBadFace]);
    // No face given: cancelled, a failure of its own kind, and nothing is left to explain.
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    let mut p = players(vec![Err(NoFace::Cancelled)]);
    let f = g
        .adjudicate("manoeuvre(brigade.second_foot)", false, &mut p)
        .expect_err("cancelled");
    assert!(matches!(&f, Failure::Cancelled { die, queue: None, .. } if die == "D10"));
    assert!(codes(&f).is_empty());
    assert!(g.last().is_none());
}

#[test]
fn a_state_given_as_a_value_is_checked_against_the_declaration_and_can_be_undone() {
    let mut g = game("furious_reason", BRIGADE);
    let state = serde_json::json!({
        "turn": 4,
        "brigade": { "second_foot": { "grade": "line", "lost_percent": 80 } },
    });
    g.load_value("<a logged state>", &state).expect("it fits");
    // 80% lost: three whole 25%s, 10 - 3 = 7, "7 or more Well Handled".
    let a = roll(&mut g, &[10], "manoeuvre(brigade.second_foot)");
    assert_eq!(value(&g, &a.adjudication), "well_handled");
    assert_eq!(g.state_path(), Some(BRIGADE), "save writes where it did");
    // A grade the ruleset does not have: refused, nothing changes.
    let bad = serde_json::json!({ "brigade": { "x": { "grade": "hero" } } });
    let f = g.load_value("<bad>", &bad).expect_err("no grade `hero`");
    assert_eq!(codes(&f), [Code::StateUnknownValue]);
    assert_eq!(at(&mut g, "turn"), "4");
    g.undo().expect("the result");
    assert_eq!(
        g.undo_anyway().map(|c| c.done).ok(),
        Some(Done::Load {
            path: "<a logged state>".into()
        })
    );
    // The file's state again: turn 3.
    assert_eq!(at(&mut g, "turn"), "3");
}

#[test]
fn a_reading_chosen_changes_the_result_and_stays_chosen_where_the_ruleset_has_it() {
    let mut g = game("furious_reason", BRIGADE);
    // "Guard 1"/inf": a Column to Line Right with Cadence takes two deployments; paid
    // for each (the default reading) that is 2", paid once 1".
    let cost = "formation_change_cost(guard, column_to_line_right, true, 8\", false)";
    assert_eq!(cost_of(&mut g, cost), "2\"");
    g.interpret("guard_flat_cost", "once").expect("a reading");
    assert!(g.last().is_none(), "a new reading forgets the last result");
    assert_eq!(cost_of(&mut g, cost), "1\"");
    let d = g
        .interpret("guard_flat_cost", "twice")
        .expect_err("no such reading");
    assert_eq!(d.code, Code::CliInterpret);
    // The same ruleset again (a reload): the reading, the state and the history stay.
    let again = Candidate::read("furious_reason", &Limits::default()).expect("bundled");
    let carried = g.put_in_use(again, Fit::Keep).expect("the state fits");
    assert_eq!(carried, Carried::default());
    // The load and the two results before the reload; the third after it.
    assert_eq!(cost_of(&mut g, cost), "1\"");
    assert_eq!(g.history().len(), 4);
    assert!(g.state().is_some());
}

#[test]
fn a_ruleset_the_state_does_not_fit_is_refused_unless_the_state_is_left_behind() {
    let mut g = game("furious_reason", BRIGADE);
    g.interpret("guard_flat_cost", "once").expect("a reading");
    let lw = Candidate::read("little_wars", &Limits::default()).expect("bundled");
    assert_eq!(lw.source(), &Source::Bundled("little_wars".into()));
    let f = g.put_in_use(lw.clone(), Fit::Keep).expect_err("no brigade");
    assert!(matches!(f, Failure::DoesNotFit(ref ds) if !ds.0.is_empty()));
    assert_eq!(g.source(), &Source::Bundled("furious_reason".into()));
    assert!(g.state().is_some());
    let carried = g.put_in_use(lw, Fit::LeaveBehind).expect("left behind");
    assert!(carried.left_behind);
    assert_eq!(
        carried.readings_dropped,
        [("guard_flat_cost".to_string(), "once".to_string())]
    );
    assert!(g.state().is_none() && g.history().is_empty() && g.state_path().is_none());
    assert_eq!(g.source(), &Source::Bundled("little_wars".into()));
    // A bundled ruleset is not read again from a file.
    assert!(matches!(
        g.read_again(),
        Err(Failure::Refused(Refusal::NotAFile(Source::Bundled(_))))
    ));
}

#[test]
fn save_writes_the_state_that_loads_back() {
    let dir = scratch("save");
    let mut g = game("furious_reason", BRIGADE);
    g.set("set brigade.second_foot.lost_percent = 55", &mut NoTable)
        .expect("a change");
    assert!(g.unsaved());
    let path = format!("{dir}/after.toml");
    assert_eq!(g.save(Some(&path)).expect("written"), path);
    assert!(!g.unsaved());
    // Loaded into another game: 55% lost, so 6 - 2 = 4, "3,4 Hold".
    let mut h = game("furious_reason", &path);
    assert_eq!(at(&mut h, "brigade.second_foot.lost_percent"), "55");
    let a = roll(&mut h, &[6], "manoeuvre(brigade.second_foot)");
    assert_eq!(value(&h, &a.adjudication), "hold");
    // A state that came from no file is saved only to a file named.
    let mut k = Game::new(DiceMode::seeded(1));
    assert!(matches!(
        k.save(None),
        Err(Failure::Refused(Refusal::NoState))
    ));
    let c = Candidate::read("furious_reason", &Limits::default()).expect("bundled");
    k.put_in_use(c, Fit::Keep).expect("no state");
    let state = crate::state::to_json_value(h.program(), h.state().expect("loaded"));
    k.load_value("<given>", &state).expect("it fits");
    assert!(matches!(
        k.save(None),
        Err(Failure::Refused(Refusal::NoFileToSave))
    ));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_log_records_each_result_change_and_undo_and_a_line_it_cannot_write_is_said() {
    let dir = scratch("log");
    let log = format!("{dir}/game.log");
    let mut g = game("furious_reason", BRIGADE);
    // Not the state file the game reads.
    let refused = g.log_to(BRIGADE).expect_err("the state file");
    assert_eq!(refused.code, Code::IoLog);
    g.log_to(&log).expect("a new file");
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    g.set(":set brigade.second_foot.lost_percent = 55", &mut NoTable)
        .expect("a change");
    g.undo().expect("the set");
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines[0].starts_with("{\"game\":{\"umpire\":"));
    // The face was queued (given), so no place in the seed's stream is needed for it;
    // the seed and place are those of the next die umpire would roll.
    // Every line carries the game's id, last.
    let id = g.game_id().to_string();
    assert!(
        id.len() == 16 && id.chars().all(|c| c.is_ascii_hexdigit()),
        "{id}"
    );
    assert!(lines[0].ends_with(&format!(r#","game_id":"{id}"}}"#)));
    assert_eq!(
        lines[1],
        format!(
            r#"{{"expr":"manoeuvre(brigade.second_foot)","result":1,"value":"tardy","rolls":[{{"dice":"D10","sides":10,"faces":[6],"total":6}}],"dice":{{"queued":1,"table":0,"seed":1,"position":"0"}},"game_id":"{id}"}}"#
        )
    );
    assert!(lines[2].starts_with(r#"{"set":":set brigade.second_foot.lost_percent = 55","value":"#));
    assert_eq!(
        lines[3],
        format!(r#"{{"undo":"`:set brigade.second_foot.lost_percent = 55`","game_id":"{id}"}}"#)
    );
    assert!(g.take_log_failures().is_empty());
    // The log turned into a folder: what is done stands, and the line that could not
    // be written is a failure to say.
    std::fs::remove_file(&log).expect("remove");
    std::fs::create_dir(&log).expect("a folder in its place");
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    let failed = g.take_log_failures();
    assert_eq!(
        failed.iter().map(|d| d.code).collect::<Vec<_>>(),
        [Code::IoWrite]
    );
    assert!(g.last().is_some());
    let _ = std::fs::remove_dir_all(&dir);
}

/// A game started as `umpire repl RULESET --state FILE` starts one.
fn started(ruleset: &str, state: &str) -> Game {
    let mut g = game(ruleset, state);
    g.begin();
    g
}

#[test]
fn undoing_a_mistyped_roll_takes_back_the_result_and_never_the_state_the_game_started_with() {
    let mut g = started("furious_reason", BRIGADE);
    assert!(g.history().is_empty());
    // The player called 9, the umpire typed 2: the militia (disordered, being charged,
    // Militia -1, being charged -1) on 2 - 2 = 0 is Shattered.
    let a = roll(&mut g, &[2], "manoeuvre(brigade.county_militia)");
    assert_eq!(value(&g, &a.adjudication), "shattered");
    let before = g.state().cloned();
    let c = g.undo().expect("the result");
    assert_eq!(
        c.done.to_string(),
        "the result of `manoeuvre(brigade.county_militia)`"
    );
    assert_eq!(c.done.result(), Some(1));
    // The result is forgotten; the state is untouched and still loaded.
    assert!(g.last().is_none());
    assert_eq!(g.state().cloned(), before);
    assert_eq!(g.state_path(), Some(BRIGADE));
    // Nothing more to undo: the start of the game is not a change.
    assert!(matches!(
        g.undo(),
        Err(Failure::Refused(Refusal::AtStart(p))) if p == BRIGADE
    ));
    assert!(matches!(
        g.undo_anyway(),
        Err(Failure::Refused(Refusal::AtStart(_)))
    ));
    assert!(g.state().is_some());
    // 9 - 2 = 7 on the disorder side: Rally.
    let a = roll(&mut g, &[9], "manoeuvre(brigade.county_militia)");
    assert_eq!(value(&g, &a.adjudication), "rally");
    assert_eq!(g.last().map(Ruling::id), Some(2));
}

#[test]
fn undo_puts_the_result_before_back_and_redo_does_again_what_undo_took_back() {
    let mut g = started("little_wars", TABLE);
    let first = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    roll(&mut g, &[], first);
    g.apply().expect("the first melee");
    let look = "recapture(\"b\", \"a\")";
    roll(&mut g, &[], look);
    assert_eq!(g.last().map(Ruling::text), Some(look));
    // Undoing the recapture: the melee is the last result again, its effects applied.
    g.undo().expect("the recapture's result");
    assert_eq!(g.last().map(Ruling::text), Some(first));
    assert!(g.pending().is_some_and(Ruling::applied));
    // Undoing the apply: the melee's effects wait again, and the table is as it began.
    g.undo().expect("the apply");
    assert_eq!(at(&mut g, "sides.a.free"), "19");
    assert_eq!(g.unapplied().map(Ruling::text), Some(first));
    // Redone: the effects are on the table again (7 killed and 0 taken of A's 19).
    let c = g.redo().expect("the apply");
    assert_eq!(c.done.to_string(), format!("the effects of `{first}`"));
    assert_eq!(at(&mut g, "sides.a.free"), "12");
    assert!(g.unapplied().is_none());
    // Then the recapture's result, rolled not again but put back.
    let c = g.redo().expect("the result");
    assert_eq!(c.done.result(), Some(2));
    assert_eq!(g.last().map(Ruling::text), Some(look));
    assert!(matches!(
        g.redo(),
        Err(Failure::Refused(Refusal::NothingToRedo))
    ));
    // A new change clears what can be redone.
    g.undo().expect("the recapture's result");
    assert!(g.redoable().is_some());
    g.set("set move += 1", &mut NoTable).expect("a change");
    assert!(g.redoable().is_none());
    assert!(matches!(
        g.redo(),
        Err(Failure::Refused(Refusal::NothingToRedo))
    ));
}

#[test]
fn a_question_with_effects_waits_while_another_results_effects_are_not_applied() {
    let mut g = started("little_wars", TABLE);
    let first = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    let second = "melee_on_table(\"b\", \"a\", 14, 12, 0, 0)";
    roll(&mut g, &[], first);
    assert_eq!(g.unapplied().map(Ruling::text), Some(first));
    // The second melee may change the state: refused before anything is rolled (the
    // queued faces stay queued), the first melee's effects still waiting.
    g.queue(&[4]);
    let f = g
        .adjudicate(second, false, &mut NoTable)
        .expect_err("the first melee's effects wait");
    assert!(matches!(f, Failure::Refused(Refusal::EffectsNotApplied(ref t)) if t == first));
    assert_eq!(g.queued(), [4]);
    assert_eq!(g.last().map(Ruling::text), Some(first));
    g.clear_queue();
    // A question that cannot change the state is answered meanwhile; one that fails
    // leaves the effects waiting.
    roll(&mut g, &[], "sides.a.free");
    assert_eq!(g.unapplied().map(Ruling::text), Some(first));
    let f = g
        .adjudicate("sides[\"c\"].free", false, &mut NoTable)
        .expect_err("there is no side c");
    assert_eq!(codes(&f), [Code::EvalNoMember]);
    assert_eq!(g.unapplied().map(Ruling::text), Some(first));
    // Applied: Wells's account. A's 19 lose 7 killed; B's 27 lose 7 killed and 6 taken.
    g.apply().expect("the first melee");
    assert_eq!(
        at(&mut g, "sides.a"),
        "{ free: 12, dead: 7, prisoners_held: 6, escorts: 0, released: 0 }"
    );
    // Now the second: B's 14 against A's 12, ten killed each side, two of A's taken —
    // A's dead are 7 + 10 = 17, never the 10 of the second melee alone.
    roll(&mut g, &[], second);
    g.apply().expect("the second melee");
    assert_eq!(
        at(&mut g, "sides.a"),
        "{ free: 0, dead: 17, prisoners_held: 6, escorts: 0, released: 0 }"
    );
}

#[test]
fn dropped_effects_are_a_change_that_can_be_taken_back() {
    let mut g = started("little_wars", TABLE);
    let first = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    roll(&mut g, &[], first);
    assert_eq!(g.drop_effects().expect("waiting"), first);
    assert!(g.unapplied().is_none());
    assert!(matches!(
        g.apply(),
        Err(Failure::Refused(Refusal::NothingToApply))
    ));
    assert!(matches!(
        g.drop_effects(),
        Err(Failure::Refused(Refusal::NothingToDrop))
    ));
    let c = g.undo().expect("the drop");
    assert_eq!(
        c.done.to_string(),
        format!("dropping the effects of `{first}`")
    );
    assert_eq!(g.unapplied().map(Ruling::text), Some(first));
    g.apply().expect("applicable again");
    assert_eq!(at(&mut g, "sides.a.free"), "12");
}

#[test]
fn a_change_by_hand_taken_back_makes_a_result_before_it_applicable_again() {
    let mut g = started("little_wars", TABLE);
    let first = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    roll(&mut g, &[], first);
    g.set("set move += 1", &mut NoTable).expect("a change");
    assert!(matches!(
        g.apply(),
        Err(Failure::Refused(Refusal::StateChanged(_)))
    ));
    g.undo().expect("the set");
    // The state the melee was adjudicated against is back, and so is the melee.
    assert!(!g.unsaved());
    g.apply()
        .expect("the melee, against the state it was adjudicated against");
}

#[test]
fn which_questions_may_change_the_state_is_told_before_rolling() {
    let g = started("little_wars", TABLE);
    let may = |text: &str| {
        let q = g.ruleset().question("<input>", text).expect("compiles");
        super::effects::may_change_state(g.program(), &q.expr)
    };
    assert!(may("melee_on_table(\"a\", \"b\", 19, 13, 0, 5)"));
    assert!(may("detail_escorts(\"b\")"));
    assert!(!may("melee(19, 13, 0, 5)"));
    assert!(!may("sides.a.free + 1d6"));
    let f = started("furious_reason", BRIGADE);
    let q = f
        .ruleset()
        .question("<input>", "manoeuvre(brigade.second_foot)")
        .expect("compiles");
    assert!(!super::effects::may_change_state(f.program(), &q.expr));
}

#[test]
fn a_bare_save_writes_to_the_file_last_named_and_over_the_loaded_file_only_when_named() {
    let dir = scratch("bare-save");
    let loaded = format!("{dir}/start.toml");
    std::fs::copy(BRIGADE, &loaded).expect("a copy");
    let mut g = started("furious_reason", &loaded);
    g.set("set turn += 1", &mut NoTable).expect("a change");
    assert!(matches!(
        g.save(None),
        Err(Failure::Refused(Refusal::OverLoaded(p))) if p == loaded
    ));
    let other = format!("{dir}/turn3_end.toml");
    g.save(Some(&other)).expect("written");
    g.set("set turn += 1", &mut NoTable)
        .expect("another change");
    assert_eq!(g.save(None).expect("written"), other);
    assert_eq!(
        std::fs::read(&loaded).expect("the loaded file"),
        std::fs::read(BRIGADE).expect("the example")
    );
    // Named, the loaded file is written over, and a bare save writes there from then on.
    assert_eq!(g.save(Some(&loaded)).expect("written"), loaded);
    assert_eq!(g.save_to(), Some(loaded.as_str()));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_log_names_the_result_each_undo_and_redo_takes_back() {
    let dir = scratch("log-undo");
    let log = format!("{dir}/game.log");
    let mut g = started("furious_reason", BRIGADE);
    g.log_to(&log).expect("a new file");
    roll(&mut g, &[2], "manoeuvre(brigade.county_militia)");
    g.undo().expect("the result");
    g.redo().expect("the result");
    g.undo().expect("the result");
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 5, "{text}");
    assert!(lines[1].starts_with(
        r#"{"expr":"manoeuvre(brigade.county_militia)","result":1,"value":"shattered""#
    ));
    let id = g.game_id().to_string();
    let undo = format!(
        r#"{{"undo":"the result of `manoeuvre(brigade.county_militia)`","result":1,"game_id":"{id}"}}"#
    );
    assert_eq!(lines[2], undo);
    assert_eq!(
        lines[3],
        format!(
            r#"{{"redo":"the result of `manoeuvre(brigade.county_militia)`","result":1,"game_id":"{id}"}}"#
        )
    );
    assert_eq!(lines[4], undo);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A log begun part-way starts the game there: what was done before it can no longer be
/// undone nor redone (the log could not replay it); the same log named again goes on.
#[test]
fn a_new_log_cuts_the_history_before_it_and_the_same_log_again_does_not() {
    let dir = scratch("log-cut");
    let mut g = started("furious_reason", BRIGADE);
    roll(&mut g, &[2], "manoeuvre(brigade.county_militia)");
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    g.undo().expect("the second result");
    g.log_to(&format!("{dir}/game.log")).expect("a new file");
    assert!(g.history().is_empty() && g.redoable().is_none());
    assert!(matches!(
        g.undo(),
        Err(Failure::Refused(Refusal::NothingToUndo))
    ));
    assert!(g.redo().is_err());
    roll(&mut g, &[6], "manoeuvre(brigade.second_foot)");
    g.log_to(&format!("{dir}/game.log")).expect("the same log");
    g.undo().expect("the result after the log began");
    let _ = std::fs::remove_dir_all(&dir);
}
