//! `:each NAME=PATH EXPR`: a question asked of every member of a group, as `umpire eval
//! --each` asks it, each result printed under the member's name — driven through the
//! binary as a script.

use crate::common::{in_order, root, stderr, stdout, umpire_in, Scratch};
use std::path::Path;

/// The REPL run on `script` in `dir` with `ruleset` and `state` (from `examples/`):
/// (stdout, stderr, exit code).
fn repl(dir: &Path, ruleset: &str, state: &str, script: &str) -> (String, String, Option<i32>) {
    let state = root().join("examples/states").join(state);
    let args = [
        "repl",
        ruleset,
        "--state",
        &state.to_string_lossy(),
        "--seed",
        "1",
    ];
    let o = umpire_in(dir, &args, script);
    (stdout(&o), stderr(&o), o.status.code())
}

// The brigade's four manoeuvre rolls of examples/furious_reason_turn.toml: with rolls
// of 3, 6, 9 and 1 the Manoeuvre Table gives Well Handled, Tardy, Rally and Hold.
const RESULTS: [&str; 4] = [
    "guard_grenadiers: Well Handled — Unit may move at Full Move Rate\n",
    "second_foot: Tardy — Unit may move at 1/2 Full Move Rate\n",
    "county_militia: Rally — Unit rallies in good order, may move at 1/2\n",
    "grenadiers: Hold — Unit cannot move or change Formation\n",
];

#[test]
fn each_member_is_adjudicated_with_the_queued_rolls_and_named() {
    let dir = Scratch::new("queued");
    let (out, err, code) = repl(
        &dir,
        "furious_reason",
        "furious_reason_brigade.toml",
        ":roll 3 6 9 1\n:each u=brigade manoeuvre(u)\n:explain\n",
    );
    assert_eq!(code, Some(0), "{err}");
    in_order(&out, &RESULTS);
    // The last member's result is the last result: `:explain` explains the grenadiers'.
    in_order(
        &out,
        &[
            RESULTS[3],
            "\nHold — Unit cannot move or change Formation\n",
        ],
    );
    assert!(err.contains("queued rolls used: 3, 6, 9, 1\n"), "{err}");
}

#[test]
fn at_the_table_each_members_die_is_asked_for_in_turn_and_each_result_logged() {
    let dir = Scratch::new("table");
    let (out, err, code) = repl(
        &dir,
        "furious_reason",
        "furious_reason_brigade.toml",
        ":log game.log\n:dice table\n:each u=brigade manoeuvre(u)\n3\n6\n9\n1\n",
    );
    assert_eq!(code, Some(0), "{err}");
    in_order(&out, &RESULTS);
    // The die of each member is asked for with that member's question.
    in_order(
        &err,
        &[
            "manoeuvre(brigade.guard_grenadiers)",
            "manoeuvre(brigade.second_foot)",
            "manoeuvre(brigade.county_militia)",
            "manoeuvre(brigade.grenadiers)",
        ],
    );
    // Each is a result of the game, logged as a typed question: the replay reproduces
    // them, and the report names each member.
    let log = std::fs::read_to_string(dir.join("game.log")).expect("the log");
    assert_eq!(
        log.matches("\"expr\":\"manoeuvre(brigade.").count(),
        4,
        "{log}"
    );
    let replay = umpire_in(&dir, &["replay", "game.log"], "");
    assert!(replay.status.success(), "{}", stdout(&replay));
    let report = stdout(&umpire_in(&dir, &["report", "game.log"], ""));
    in_order(
        &report,
        &[
            "1. guard_grenadiers: manoeuvre(brigade.guard_grenadiers)\n   dice: D10 → 3, typed at the table\n",
            "2. second_foot: manoeuvre(brigade.second_foot)\n   dice: D10 → 6, typed at the table\n",
            "3. county_militia: manoeuvre(brigade.county_militia)\n",
            "4. grenadiers: manoeuvre(brigade.grenadiers)\n",
        ],
    );
}

#[test]
fn in_a_script_each_stops_before_a_second_result_with_effects_and_drops_nothing() {
    let dir = Scratch::new("effects");
    // Both sides hold prisoners, so each details an escort (Little Wars: one man to
    // every seven prisoners, and one for fewer): two results with effects. The first
    // waits to be applied; the second is not adjudicated over it (a script cannot be
    // asked), so `:each` stops there and the first one's effects are still applied.
    let (out, err, code) = repl(
        &dir,
        "little_wars",
        "little_wars_table.toml",
        ":set sides.a.prisoners_held = 2\n:set sides.b.prisoners_held = 3\n\
         :each s=sides detail_escorts(side: s_name)\n:apply\n\
         :state sides.a.escorts\n:state sides.b.escorts\n",
    );
    assert_eq!(code, Some(1), "{err}");
    in_order(
        &out,
        &[
            "a: 1\n  effect: sides.a.escorts: 0 → 1\n",
            "applied the effects of `detail_escorts(side: \"a\")`:\neffect: sides.a.escorts: 0 → 1\n",
            "1\n0\n",
        ],
    );
    assert!(!out.contains("b: 1"), "{out}");
    assert!(
        err.contains("the effects of `detail_escorts(side: \"a\")` are not yet applied"),
        "{err}"
    );
    assert!(
        err.contains("`:each` stopped at b (`detail_escorts(side: \"b\")`): the members after it are not adjudicated"),
        "{err}"
    );
}

#[test]
fn a_wrong_each_says_what_to_type() {
    let dir = Scratch::new("wrong");
    for (line, said) in [
        (
            ":each brigade manoeuvre(u)",
            "`:each` takes NAME=PATH first, and there is no `=`",
        ),
        (
            ":each u=brigade",
            "`:each` needs the question to ask of each member",
        ),
        (
            ":each u=turn manoeuvre(u)",
            "`turn` is a whole number (Int), not a group of the state",
        ),
        (":each u=brigade manoeuvre(v)", "unknown name `v`"),
    ] {
        let (out, err, code) = repl(
            &dir,
            "furious_reason",
            "furious_reason_brigade.toml",
            &format!("{line}\n"),
        );
        assert_eq!(code, Some(1), "{line}");
        assert!(err.contains(said), "{line}: {err}");
        assert!(out.is_empty(), "{line}: {out}");
    }
}

#[test]
fn an_empty_group_is_said_to_have_no_members() {
    let dir = Scratch::new("empty");
    let state = dir.join("empty.toml");
    std::fs::write(&state, "turn = 3\n[brigade]\n").expect("a state with an empty brigade");
    // (A path joined to an absolute one is that one.)
    let (out, err, code) = repl(
        &dir,
        "furious_reason",
        &state.to_string_lossy(),
        ":each u=brigade manoeuvre(u)\n",
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(
        err.contains("`brigade` has no members on the table: nothing to adjudicate"),
        "{err}"
    );
}
