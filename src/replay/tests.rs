//! The replay of logs written by a game played through the library.

use crate::game::{Candidate, DiceMode, Fit, Game, NoTable};

/// A scratch folder of the test's own, `umpire-TAG-PID`, empty (the test removes it).
fn scratch(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("umpire-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// A game logged as the REPL logs one: a `game` line again at each change of dice and
/// ruleset, with a result applied and a change undone across them.
#[test]
fn a_game_logged_across_changes_of_dice_and_ruleset_replays() {
    let dir = scratch("gamelog");
    let log = dir.join("game.log").to_string_lossy().into_owned();
    let house = "tests/repl/files/house_v1.rules";
    let mut g = Game::new(DiceMode::seeded(5));
    // Logged before any ruleset is in use: a `game` line naming none.
    g.log_to(&log).expect("a new log");
    let c = Candidate::read(house, &crate::limits::Limits::default()).expect("the house rules");
    g.put_in_use(c, Fit::Keep).expect("no state yet");
    g.load("tests/repl/files/brigade.toml")
        .expect("the brigade");
    // Rolled from seed 5, applied after the dice change to seed 9: the `apply` line
    // repeats the seeded roll, which its `expr` line accounted for.
    g.adjudicate("volley(\"second_foot\")", false, &mut NoTable)
        .expect("a volley");
    g.set_dice(DiceMode::seeded(9));
    g.apply().expect("the volley's effects");
    // A change by hand, the same ruleset put in use again (a reload), then `undo`:
    // it takes the change back, not the state the `game` line logs.
    g.set(
        ":set brigade.county_militia.lost_percent = 10",
        &mut NoTable,
    )
    .expect("a change");
    let again = Candidate::read(house, &crate::limits::Limits::default()).expect("the house rules");
    g.put_in_use(again, Fit::Keep).expect("the state fits");
    g.undo().expect("the change");
    g.adjudicate("volley(\"county_militia\")", false, &mut NoTable)
        .expect("a volley");
    assert!(g.take_log_failures().is_empty());
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    // The two volleys, the apply and the set.
    assert_eq!(r.checked, 4);
}

/// A game logged as one played before results were changes: the first melee of
/// Little Wars's two adjudicated, the second in its place, its effects applied.
/// Returns the scratch folder, the log and the game.
fn two_melees_second_applied(tag: &str) -> (std::path::PathBuf, String, Game) {
    let dir = scratch(tag);
    let log = dir.join("game.log").to_string_lossy().into_owned();
    let mut g = Game::new(DiceMode::seeded(5));
    g.legacy_results(true);
    let c = Candidate::read("little_wars", &crate::limits::Limits::default()).expect("bundled");
    g.put_in_use(c, Fit::Keep).expect("no state yet");
    g.load("examples/states/little_wars_table.toml")
        .expect("the table");
    g.log_to(&log).expect("a new log");
    g.adjudicate(
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)",
        false,
        &mut NoTable,
    )
    .expect("the first melee");
    g.adjudicate(
        "melee_on_table(\"b\", \"a\", 14, 12, 0, 0)",
        false,
        &mut NoTable,
    )
    .expect("the second, in the first's place");
    g.apply().expect("the second melee's effects");
    (dir, log, g)
}

/// A log written before results were numbered (no `result` fields) replays as it was
/// played then: a second melee took the place of the first, whose effects were never
/// applied, and an `undo` took back the `apply` before the look-up after it.
#[test]
fn a_log_written_before_results_were_numbered_replays_as_it_was_played() {
    let (dir, log, mut g) = two_melees_second_applied("oldlog");
    g.adjudicate("sides.a.dead", false, &mut NoTable)
        .expect("a look");
    g.undo().expect("the apply");
    g.apply().expect("the second melee's effects again");
    assert!(g.take_log_failures().is_empty());
    // As the umpire of then wrote it: no result numbers.
    let text = std::fs::read_to_string(&log).expect("the log");
    let old: String = text
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            if let Some(m) = v.as_object_mut() {
                m.remove("result");
            }
            format!("{v}\n")
        })
        .collect();
    assert!(!old.contains("\"result\""));
    std::fs::write(&log, old).expect("the old log");
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    // Three adjudications and two applies.
    assert_eq!(r.checked, 5);
}

/// A log that numbers its results but lets a second result take the place of one
/// whose effects were not applied (as `run` does with `apply = false`) replays too.
#[test]
fn a_result_in_the_place_of_one_not_applied_replays_as_it_was_played() {
    let (dir, log, _game) = two_melees_second_applied("inplace");
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(text.contains("\"result\":2"));
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    assert_eq!(r.checked, 3);
}

/// The players' dice, typed: each face given in turn.
struct Typed(Vec<i64>);

impl crate::game::TableDice for Typed {
    fn face(&mut self, _die: &crate::game::TableDie<'_>) -> Result<i64, crate::game::NoFace> {
        if self.0.is_empty() {
            return Err(crate::game::NoFace::Cancelled);
        }
        Ok(self.0.remove(0))
    }
}

/// A game with a face queued and one typed at the table: the log counts each
/// (`"queued": 1, "table": 1`), and replays; a log written before `table` was
/// recorded (without it) replays as well.
#[test]
fn dice_typed_at_the_table_are_counted_in_the_log_and_replay() {
    let dir = scratch("tablelog");
    let log = dir.join("game.log").to_string_lossy().into_owned();
    let mut g = Game::new(DiceMode::Table);
    let c = Candidate::read("furious_reason", &crate::limits::Limits::default()).expect("bundled");
    g.put_in_use(c, Fit::Keep).expect("no state yet");
    g.log_to(&log).expect("a new log");
    g.queue(&[3]);
    let done = g
        .adjudicate("2d6", false, &mut Typed(vec![4]))
        .expect("two dice");
    assert_eq!(
        done.hands,
        [crate::game::Hand::Queued, crate::game::Hand::Table]
    );
    let text = std::fs::read_to_string(&log).expect("the log");
    let line: serde_json::Value =
        serde_json::from_str(text.lines().last().expect("a line")).expect("JSON");
    assert_eq!(line["dice"], serde_json::json!({ "queued": 1, "table": 1 }));
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    assert_eq!(r.checked, 1);
    // The same log as written before: no `table`.
    let old = text.replace(",\"table\":1", "");
    assert!(!old.contains("\"table\":1"));
    std::fs::write(&log, old).expect("write");
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
}

/// A log begun late (`:log` after two results) numbers its results from 3, as the game
/// does: an undo and a redo naming result 3 replay, checked against the log's numbers.
#[test]
fn a_log_begun_late_replays_its_undo_and_redo_by_the_logs_numbers() {
    let dir = scratch("latelog");
    let log = dir.join("game.log").to_string_lossy().into_owned();
    let mut g = Game::new(DiceMode::seeded(5));
    g.adjudicate("1", false, &mut NoTable).expect("a result");
    g.adjudicate("2", false, &mut NoTable).expect("a result");
    g.log_to(&log).expect("a new log");
    g.adjudicate("3", false, &mut NoTable).expect("a result");
    g.undo().expect("result 3");
    g.redo().expect("result 3 again");
    assert!(g.take_log_failures().is_empty());
    let text = std::fs::read_to_string(&log).expect("the log");
    assert!(
        text.contains("\"undo\":\"the result of `3`\",\"result\":3"),
        "{text}"
    );
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    assert_eq!(r.checked, 1);
}

/// A `drop` line must drop the effects that wait: one naming another result (its number
/// or its input changed by hand) is an error naming the line.
#[test]
fn a_drop_naming_another_result_than_the_one_waiting_is_an_error_naming_its_line() {
    let dir = scratch("droplog");
    let log = dir.join("game.log").to_string_lossy().into_owned();
    let mut g = Game::new(DiceMode::seeded(5));
    let c = Candidate::read("little_wars", &crate::limits::Limits::default()).expect("bundled");
    g.put_in_use(c, Fit::Keep).expect("no state yet");
    g.load("examples/states/little_wars_table.toml")
        .expect("the table");
    g.log_to(&log).expect("a new log");
    let melee = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    g.adjudicate(melee, false, &mut NoTable).expect("a melee");
    g.drop_effects().expect("its effects dropped");
    assert!(g.take_log_failures().is_empty());
    let text = std::fs::read_to_string(&log).expect("the log");
    let r = super::replay(&log, &crate::limits::Limits::default()).expect("a game log");
    assert!(r.differences.is_empty(), "{:?}", r.differences);
    let drop = text.lines().count();
    for (from, to) in [
        ("\"result\":1,\"game_id\"", "\"result\":2,\"game_id\""),
        (
            "\"drop\":\"melee_on_table(\\\"a\\\"",
            "\"drop\":\"melee_on_table(\\\"c\\\"",
        ),
    ] {
        let last = text.lines().last().expect("the drop line");
        assert!(last.contains(from), "{last}");
        let bad = text.replace(last, &last.replace(from, to));
        std::fs::write(&log, bad).expect("the log, changed");
        let e = super::replay(&log, &crate::limits::Limits::default())
            .expect_err("a drop of another result");
        let d = e.0.first().expect("an error");
        assert_eq!(d.code, crate::diagnostic::Code::ReplayFormat);
        assert!(
            d.message.contains(&format!(
                "game.log:{drop}: `drop` of the effects of `melee_on_table("
            )),
            "{}",
            d.message
        );
        assert!(d.message.contains("but the effects waiting in the game as replayed are the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` (result 1)"), "{}", d.message);
    }
    let _ = std::fs::remove_dir_all(&dir);
}
