//! The account of small logs written here: undo and redo, the dice, the turns.

use super::{report, Kind};
use crate::limits::Limits;

/// Writes `lines` as a log in a scratch folder and reads it as an account.
fn account(name: &str, lines: &[&str]) -> Result<super::Report, crate::diagnostic::Diags> {
    let dir = std::env::temp_dir().join(format!("umpire-report-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let log = dir.join("game.log");
    std::fs::write(&log, lines.join("\n") + "\n").expect("the log");
    let r = report(&log.to_string_lossy(), &Limits::default());
    let _ = std::fs::remove_dir_all(&dir);
    r
}

const GAME: &str = r#"{"game": {"log": 1, "ruleset": "furious_reason", "dice": {"table": true}, "state": {"turn": 3, "brigade": {"second_foot": {"grade": "line", "lost_percent": 30}}}}}"#;

#[test]
fn a_result_undone_by_its_number_is_marked_and_a_redo_puts_it_back() {
    let r = account(
        "undo",
        &[
            GAME,
            r#"{"expr": "manoeuvre(brigade.second_foot)", "value": "tardy", "rolls": [{"dice": "D10", "sides": 10, "faces": [6], "total": 6}], "dice": {"queued": 0}, "result": 1}"#,
            r#"{"expr": "manoeuvre(brigade.second_foot)", "value": "hold", "rolls": [{"dice": "D10", "sides": 10, "faces": [1], "total": 1}], "dice": {"queued": 1}, "result": 2}"#,
            r#"{"undo": "the result of `manoeuvre(brigade.second_foot)`", "result": 1}"#,
        ],
    )
    .expect("a game log");
    let qs: Vec<_> = r
        .items
        .iter()
        .filter(|i| i.kind == Kind::Question)
        .collect();
    assert!(qs[0].undone && !qs[1].undone);
    assert_eq!(qs[1].number, Some(1));
    assert_eq!(qs[0].who, ["second_foot"]);
    assert_eq!(qs[0].dice.as_deref(), Some("D10 → 6, typed at the table"));
    assert_eq!(qs[1].dice.as_deref(), Some("D10 → 1, queued"));
    assert_eq!(r.counter.as_deref(), Some("Turn"));
    let again = account(
        "redo-result",
        &[
            GAME,
            r#"{"expr": "manoeuvre(brigade.second_foot)", "value": "tardy", "rolls": [], "result": 1}"#,
            r#"{"undo": "the result of `manoeuvre(brigade.second_foot)`", "result": 1}"#,
            r#"{"redo": "the result of `manoeuvre(brigade.second_foot)`", "result": 1}"#,
        ],
    )
    .expect("a game log");
    let q = again.items.iter().find(|i| i.kind == Kind::Question);
    assert_eq!(q.map(|q| (q.undone, q.number)), Some((false, Some(1))));
}

#[test]
fn a_change_undone_turns_the_turn_back_and_a_redo_again() {
    let set = r#"{"set": ":set turn += 1", "value": 4, "rolls": [], "effects": [{"path": "turn", "from": 3, "to": 4}]}"#;
    let r = account(
        "redo",
        &[
            GAME,
            set,
            r#"{"undo": "`:set turn += 1`"}"#,
            r#"{"expr": "1 + 1", "value": 2, "rolls": []}"#,
            r#"{"redo": "`:set turn += 1`"}"#,
            r#"{"expr": "2 + 2", "value": 4, "rolls": []}"#,
        ],
    )
    .expect("a game log");
    let turns: Vec<(Option<i64>, bool)> = r
        .items
        .iter()
        .filter(|i| i.kind != Kind::Note)
        .map(|i| (i.turn, i.undone))
        .collect();
    assert_eq!(
        turns,
        [(Some(3), false), (Some(3), false), (Some(4), false)]
    );
    assert_eq!(r.items[1].result, ["effect: turn: 3 → 4"]);
}

#[test]
fn dice_from_several_places_are_each_said() {
    let r = account(
        "dice",
        &[
            r#"{"game": {"log": 1, "ruleset": "", "dice": {"rng": "ChaCha8", "seed": 7}, "state": null}}"#,
            r#"{"expr": "D6 + 2d6", "value": 12, "rolls": [{"dice": "D6", "sides": 6, "faces": [5], "total": 5}, {"dice": "2d6", "sides": 6, "faces": [3, 4], "total": 7}], "dice": {"queued": 2, "seed": 7, "position": "0"}}"#,
        ],
    )
    .expect("a game log");
    assert_eq!(
        r.items[1].dice.as_deref(),
        Some("D6 → 5 (queued), 2d6 → 3 (queued) + 4 (rolled by umpire) = 7")
    );
    assert_eq!(r.items[1].result, ["12"]);
}

#[test]
fn a_bad_log_names_its_line() {
    let e = account("bad", &[GAME, "not json"]).expect_err("not a log");
    assert!(
        e.0[0]
            .message
            .ends_with("game.log:2: not a game log: expected ident at line 1 column 2"),
        "{}",
        e.0[0].message
    );
    let e = account("first", &[r#"{"expr": "1"}"#]).expect_err("no game line");
    assert!(
        e.0[0].message.contains(":1: not a game log"),
        "{}",
        e.0[0].message
    );
    let e = account("kind", &[GAME, r#"{"what": 1}"#]).expect_err("no such line");
    assert!(
        e.0[0].message.contains(":2: a line that is not"),
        "{}",
        e.0[0].message
    );
    let e = account("empty", &[""]).expect_err("empty");
    assert!(
        e.0[0].message.contains("an empty game log"),
        "{}",
        e.0[0].message
    );
}

#[test]
fn a_log_of_two_games_tells_the_second_as_another_and_undoes_within_it() {
    let game = |id: &str| {
        format!(
            r#"{{"game_id": "{id}", "game": {{"log": 1, "ruleset": "furious_reason", "dice": {{"table": true}}, "state": {{"turn": 3}}}}}}"#
        )
    };
    let (one, two) = (game("00000000000000a1"), game("00000000000000b2"));
    let r = account(
        "two",
        &[
            &one,
            r#"{"game_id": "00000000000000a1", "expr": "1 + 1", "value": 2, "rolls": [], "result": 1}"#,
            r#"{"game_id": "00000000000000a1", "set": ":set turn += 1", "rolls": [], "effects": [{"path": "turn", "from": 3, "to": 4}]}"#,
            &two,
            r#"{"game_id": "00000000000000b2", "expr": "2 + 2", "value": 4, "rolls": [], "result": 1}"#,
            r#"{"game_id": "00000000000000b2", "undo": "the result of `1 + 1`", "result": 1}"#,
            r#"{"game_id": "00000000000000b2", "undo": "`:set turn += 1`"}"#,
        ],
    )
    .expect("a game log");
    let shown: Vec<(&str, Option<i64>, bool)> = r
        .items
        .iter()
        .map(|i| (i.asked.as_str(), i.turn, i.undone))
        .collect();
    assert_eq!(
        shown,
        [
            (
                "Ruleset furious_reason; dice: the players roll at the table",
                Some(3),
                false
            ),
            ("1 + 1", Some(3), false),
            (":set turn += 1", Some(3), false),
            (
                "Another game; ruleset furious_reason; dice: the players roll at the table",
                Some(3),
                false
            ),
            // Result 1 of the second game is its own; the first game's change stands.
            ("2 + 2", Some(3), true),
        ]
    );
}

#[test]
fn dice_typed_at_the_table_are_counted_as_the_log_says_and_an_error_is_said() {
    let r = account(
        "table",
        &[
            GAME,
            r#"{"expr": "3d6", "value": 9, "rolls": [{"dice": "3d6", "sides": 6, "faces": [2, 3, 4], "total": 9}], "dice": {"queued": 1, "table": 1, "seed": 7, "position": "0"}}"#,
            r#"{"expr": "manoeuvre(brigade.x)", "error": {"code": "umpire::check::no_member", "message": "`brigade` has no `x`"}}"#,
            r#"{"set": ":set brigade.second_foot.lost_percent = 35", "rolls": [], "effects": [{"path": "brigade.second_foot.lost_percent", "from": 30, "to": 35}]}"#,
        ],
    )
    .expect("a game log");
    assert_eq!(
        r.items[1].dice.as_deref(),
        Some("3d6 → 2 (queued) + 3 (typed at the table) + 4 (rolled by umpire) = 9")
    );
    assert_eq!(
        r.items[2].result,
        ["error: `brigade` has no `x` (umpire::check::no_member)"]
    );
    assert_eq!(r.items[3].who, ["second_foot"]);
    assert_eq!(
        r.items[3].result,
        ["effect: brigade.second_foot.lost_percent: 30 → 35"]
    );
}

#[test]
fn effects_are_marked_not_applied_unless_an_apply_that_stands_applied_them() {
    let melee = r#"{"expr": "1 + 1", "value": 2, "rolls": [], "effects": [{"path": "turn", "from": 3, "to": 4}], "result": 1}"#;
    let apply = r#"{"apply": "1 + 1", "value": 2, "rolls": [], "effects": [{"path": "turn", "from": 3, "to": 4}], "result": 1}"#;
    let effects = |lines: &[&str]| -> Vec<String> {
        let r = account("unapplied", lines).expect("a game log");
        let q = r.items.iter().find(|i| i.kind == Kind::Question);
        q.map(|q| q.result[1..].to_vec()).unwrap_or_default()
    };
    assert_eq!(
        effects(&[GAME, melee]),
        ["effect (not applied): turn: 3 → 4"]
    );
    assert_eq!(effects(&[GAME, melee, apply]), ["effect: turn: 3 → 4"]);
    let undo = r#"{"undo": "the effects of `1 + 1`"}"#;
    assert_eq!(
        effects(&[GAME, melee, apply, undo]),
        ["effect (not applied): turn: 3 → 4"]
    );
    // A question typed over two lines is told on one.
    let two = r#"{"expr": "1 +\n   1", "value": 2, "rolls": [], "result": 1}"#;
    let r = account("one-line", &[GAME, two]).expect("a game log");
    let q = r.items.iter().find(|i| i.kind == Kind::Question);
    assert_eq!(q.map(|q| q.asked.as_str()), Some("1 + 1"));
}

#[test]
fn a_drop_is_one_entry_its_undo_takes_it_back_and_a_redo_puts_it_back() {
    let q = r#"{"expr": "1 + 1", "value": 2, "rolls": [], "effects": [{"path": "turn", "from": 3, "to": 4}], "result": 1}"#;
    let drop = r#"{"drop": "1 + 1", "result": 1}"#;
    let undo = r#"{"undo": "dropping the effects of `1 + 1`"}"#;
    let redo = r#"{"redo": "dropping the effects of `1 + 1`"}"#;
    let drops = |lines: &[&str]| -> Vec<bool> {
        let r = account("drop", lines).expect("a game log");
        r.items
            .iter()
            .filter(|i| i.kind == Kind::Drop)
            .map(|i| i.undone)
            .collect()
    };
    assert_eq!(drops(&[GAME, q, drop]), [false]);
    assert_eq!(drops(&[GAME, q, drop, undo]), [true]);
    assert_eq!(drops(&[GAME, q, drop, undo, redo]), [false]);
    let r = account("drop-text", &[GAME, q, drop]).expect("a game log");
    let text = super::render::text(&r);
    assert!(
        text.contains("2. the effects of 1 + 1 were dropped: not applied\n"),
        "{text}"
    );
}

#[test]
fn a_turn_heading_comes_again_only_when_the_turn_changed() {
    let load = r#"{"load": "t5.toml", "state": {"turn": 5}}"#;
    let r = account(
        "headings",
        &[
            GAME,
            r#"{"expr": "1 + 1", "value": 2, "rolls": []}"#,
            load,
            r#"{"undo": "`:load t5.toml`"}"#,
            r#"{"expr": "2 + 2", "value": 4, "rolls": []}"#,
        ],
    )
    .expect("a game log");
    let text = super::render::text(&r);
    assert_eq!(text.matches("Turn 3\n").count(), 1, "{text}");
    assert!(!text.contains("Turn 5"), "{text}");
}

/// A hand-written log cannot mark up the Markdown account: a line break in a question
/// or a value never starts a heading or ends the list item, and a backtick never closes
/// the code span early (so no raw HTML or link gets through).
#[test]
fn markdown_holds_hostile_text_in_its_entry() {
    let r = account(
        "md-hostile",
        &[
            GAME,
            r#"{"expr": "1 +\n# a heading\n` <img src=x onerror=alert(1)> [x](javascript:alert(1)) `", "value": "a\n# b <i>", "rolls": [], "result": 1}"#,
        ],
    )
    .expect("a game log");
    let md = super::render::markdown(&r);
    let lines: Vec<&str> = md.lines().collect();
    // The title, then the one entry (with its result under it): nothing at column 0
    // but the title, and no heading of its own.
    assert!(lines[0].starts_with("# Game record"), "{md}");
    for l in &lines[1..] {
        assert!(
            l.is_empty() || l.starts_with("- ") || l.starts_with("  - ") || l.starts_with("## "),
            "a line the entry did not make: {l:?}\n{md}"
        );
    }
    assert!(!md.contains("\n# a heading"), "{md}");
    // The question is one code span: fenced with more backticks than it holds.
    // (padded with a space, as it ends with a backtick).
    assert!(
        md.contains(
            "`` 1 + # a heading ` <img src=x onerror=alert(1)> [x](javascript:alert(1)) ` ``"
        ),
        "{md}"
    );
    assert!(!md.contains("<i>"), "{md}");
}

/// Lines of two games mixed in one log (two umpires writing at once) cannot be told
/// apart: the report refuses them as `replay` does, naming the line, instead of telling
/// one game's results as the other's.
#[test]
fn a_log_mixing_two_games_is_refused_at_the_line_where_they_mix() {
    let game = |id: &str| {
        format!(
            r#"{{"game_id": "{id}", "game": {{"log": 1, "ruleset": "furious_reason", "dice": {{"table": true}}, "state": {{"turn": 3}}}}}}"#
        )
    };
    let (one, two) = (game("00000000000000a1"), game("00000000000000b2"));
    for (name, at, lines) in [
        // A line of the first game after the second began.
        (
            "mixed-ended",
            3,
            vec![
                one.as_str(),
                two.as_str(),
                r#"{"game_id": "00000000000000a1", "expr": "1 + 1", "value": 2, "rolls": [], "result": 1}"#,
            ],
        ),
        // A line of another game that no `game` line started.
        (
            "mixed-unstarted",
            2,
            vec![
                one.as_str(),
                r#"{"game_id": "00000000000000c3", "expr": "1 + 1", "value": 2, "rolls": [], "result": 1}"#,
            ],
        ),
    ] {
        let e = account(name, &lines).expect_err("two games mixed");
        let d = &e.0[0];
        assert_eq!(
            d.code,
            crate::diagnostic::Code::ReplayMixed,
            "{}",
            d.message
        );
        assert!(
            d.message.contains(&format!("game.log:{at}: ")),
            "{}",
            d.message
        );
        assert!(
            d.message.contains("the log mixes two games"),
            "{}",
            d.message
        );
    }
}

/// Lines no game writes are refused as `replay` refuses them (the same check,
/// [`crate::gamelog::Shape`]), naming the line: a result numbered twice or skipping
/// numbers, a line doing two things, a line without the `game_id` its game's lines carry.
#[test]
fn a_line_no_game_writes_is_refused_at_its_line() {
    let q = |n: u64| {
        format!(
            r#"{{"game_id": "00000000000000a1", "expr": "1 + 1", "value": 2, "rolls": [], "result": {n}}}"#
        )
    };
    let game = r#"{"game_id": "00000000000000a1", "game": {"log": 1, "ruleset": "furious_reason", "dice": {"table": true}, "state": {"turn": 3}}}"#;
    let (one, two, seven) = (q(1), q(2), q(7));
    for (name, at, why, lines) in [
        (
            "shape-twice",
            4,
            "its result is number 2, but the result before it in its game is number 2",
            vec![game, &one, &two, &two],
        ),
        (
            "shape-skipped",
            4,
            "its result is number 7, but the result before it in its game is number 2",
            vec![game, &one, &two, &seven],
        ),
        (
            "shape-two-actions",
            3,
            "it has both `undo` and `redo`",
            vec![
                game,
                &one,
                r#"{"game_id": "00000000000000a1", "undo": "the result of `1 + 1`", "redo": "the result of `1 + 1`", "result": 1}"#,
            ],
        ),
        (
            "shape-no-id",
            3,
            "it has no `game_id`, but the lines of its game carry one",
            vec![
                game,
                &one,
                r#"{"expr": "1 + 1", "value": 2, "rolls": [], "result": 2}"#,
            ],
        ),
    ] {
        let e = account(name, &lines).expect_err("a line no game writes");
        let d = &e.0[0];
        assert_eq!(
            d.code,
            crate::diagnostic::Code::ReplayFormat,
            "{}",
            d.message
        );
        assert!(
            d.message.contains(&format!("game.log:{at}: {why}")),
            "{}",
            d.message
        );
    }
    // Numbered in turn, from any number (a log begun part-way), it is read.
    let (three, four) = (q(3), q(4));
    account("shape-in-turn", &[game, &three, &four]).expect("results numbered in turn");
}
