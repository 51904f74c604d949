//! Rolls named by the `let` that rolls them (issue 17, form 7, "whose die"), through the
//! real binary: `--roll NAME=N` in any order, mixed with faces in order, a name rolling
//! twice; the name in the rolls line, the explanation and the JSON; examples giving rolls
//! by name; a game log of named rolls replayed, and one written before rolls had names.
//! The errors (a misspelt name, faces left over) are cases in `tests/commands/rolls.toml`.

mod common;

use common::{stderr, stdout, umpire_in, Scratch};

/// The probe `opposed_table_dice.rules` (../shared/reviews/authoring-probes/): an opposed
/// roll, the attacker's die then the defender's.
const OPPOSED: &str = "ruleset \"h\"
rule opposed(a: Int, d: Int) -> Int {
  let attacker_roll = d6
  let defender_roll = d6
  (attacker_roll + a) - (defender_roll + d)
}
";

fn opposed(tag: &str) -> Scratch {
    let dir = Scratch::new(tag);
    std::fs::write(dir.join("opposed.rules"), OPPOSED).expect("ruleset written");
    dir
}

/// `umpire eval opposed.rules EXPR --roll R ...` (each of `rolls`, then `more`): what it
/// prints, having succeeded.
fn eval_with(dir: &Scratch, expr: &str, rolls: &[&str], more: &[&str]) -> String {
    let mut args = vec!["eval", "opposed.rules", expr];
    for r in rolls {
        args.extend(["--roll", r]);
    }
    args.extend(more);
    let o = umpire_in(dir, &args, "");
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// `umpire eval opposed.rules EXPR --roll R ...`: what it prints, having succeeded.
fn eval(dir: &Scratch, expr: &str, rolls: &[&str]) -> String {
    eval_with(dir, expr, rolls, &[])
}

/// `umpire replay LOG` succeeds, the log's one result reproduced.
fn replays(dir: &Scratch, log: &str) {
    let o = umpire_in(dir, &["replay", log], "");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("all 1 result(s) reproduced"),
        "{}",
        stdout(&o)
    );
}

/// `umpire report LOG`: what it prints.
fn report(dir: &Scratch, log: &str) -> String {
    stdout(&umpire_in(dir, &["report", log], ""))
}

#[test]
fn rolls_given_by_name_go_to_their_rolls_in_any_order() {
    let dir = opposed("order");
    // Attacker 4 + 1 against defender 3 + 2: 5 - 5 = 0, however the names are ordered,
    // in one --roll or several.
    let want = "0\nrolls: attacker_roll: d6 → 4, defender_roll: d6 → 3\n";
    assert_eq!(
        eval(&dir, "opposed(1, 2)", &["attacker_roll=4,defender_roll=3"]),
        want
    );
    assert_eq!(
        eval(&dir, "opposed(1, 2)", &["defender_roll=3,attacker_roll=4"]),
        want
    );
    assert_eq!(
        eval(
            &dir,
            "opposed(1, 2)",
            &["defender_roll=3", "attacker_roll=4"]
        ),
        want
    );
    // Faces in order, as before names: the first die rolled is the attacker's.
    assert_eq!(eval(&dir, "opposed(1, 2)", &["4,3"]), want);
    // Mixed: the named face to its roll, the other to the roll not given by name.
    assert_eq!(eval(&dir, "opposed(1, 2)", &["defender_roll=3,4"]), want);
}

#[test]
fn a_name_rolling_twice_takes_its_faces_in_order() {
    let dir = opposed("twice");
    // The rule called twice: the attacker's 4 then 6, the defender's 2 then 3 (one by
    // name, one in order): (4 + 1) - (2 + 2) = 1, then 6 - 3 = 3; 1 + 3 = 4.
    let out = eval(
        &dir,
        "opposed(1, 2) + opposed(0, 0)",
        &["attacker_roll=4,attacker_roll=6,defender_roll=2,3"],
    );
    assert_eq!(
        out,
        "4\nrolls: attacker_roll: d6 → 4, defender_roll: d6 → 2, attacker_roll: d6 → 6, defender_roll: d6 → 3\n"
    );
}

#[test]
fn the_explanation_and_the_json_name_each_roll() {
    let dir = opposed("json");
    let out = eval_with(
        &dir,
        "opposed(1, 2)",
        &["attacker_roll=4,defender_roll=3"],
        &["--explain"],
    );
    assert!(
        out.contains("  rolled attacker_roll (d6): 4\n  rolled defender_roll (d6): 3\n"),
        "{out}"
    );
    let out = eval_with(
        &dir,
        "opposed(1, 2)",
        &["attacker_roll=4,defender_roll=3"],
        &["--format", "json", "--explain"],
    );
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(v["rolls"][0]["name"], "attacker_roll");
    assert_eq!(v["rolls"][1]["name"], "defender_roll");
    assert_eq!(v["trace"][0]["steps"][0]["name"], "attacker_roll", "{v}");
    // A roll no `let` names has no `name` (the JSON of unnamed rolls is as it was).
    let out = eval_with(&dir, "d6 + 1", &["4"], &["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert!(v["rolls"][0].get("name").is_none(), "{v}");
    // `let` in a question names its roll too.
    assert_eq!(
        eval(&dir, "let r = 2d6; r + 1", &["r=3,r=4"]),
        "8\nrolls: r: 2d6 → 3 + 4 = 7\n"
    );
}

#[test]
fn a_let_of_more_than_a_roll_names_nothing() {
    let dir = opposed("not_a_roll");
    // `d6 + 1` is worked out from a roll, not a roll: the die is unnamed.
    assert_eq!(
        eval(&dir, "let r = d6 + 1; r", &["4"]),
        "5\nrolls: d6 → 4\n"
    );
    // `_` starts a placeholder, a die rolled on purpose and not used: not a name.
    assert_eq!(eval(&dir, "let _r = d6; 1", &["4"]), "1\nrolls: d6 → 4\n");
}

#[test]
fn examples_give_rolls_by_name() {
    let dir = Scratch::new("examples");
    let text = format!(
        "{OPPOSED}example \"by name\" {{
  given rolls defender_roll 3, attacker_roll 4
  opposed(1, 2) == 0
}}
example \"by name and in order\" {{
  # The defender's 3 by name; the 6 to the attacker, the roll not given by name.
  given rolls 6, defender_roll 3
  opposed(1, 2) == 2
}}
example \"in order, as before\" {{
  given rolls 4, 3
  opposed(1, 2) == 0
}}
"
    );
    std::fs::write(dir.join("opposed.rules"), text).expect("ruleset written");
    let o = umpire_in(&dir, &["test", "opposed.rules"], "");
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("3 passed"), "{}", stdout(&o));
}

#[test]
fn a_game_log_of_named_rolls_replays_and_so_does_one_written_before_names() {
    let dir = opposed("replay");
    let o = umpire_in(
        &dir,
        &["repl", "--log", "game.log", "--table-dice", "opposed.rules"],
        ":roll defender_roll=3\nopposed(1, 2)\n4\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // The attacker's die asked for by its name; the defender's came from the queue.
    assert!(
        stderr(&o).contains("attacker_roll (d6) for `opposed` in `opposed(1, 2)`, 1 to 6:"),
        "{}",
        stderr(&o)
    );
    let log = std::fs::read_to_string(dir.join("game.log")).expect("log written");
    assert!(log.contains("\"name\":\"attacker_roll\""), "{log}");
    replays(&dir, "game.log");
    // The report names the rolls.
    let out = report(&dir, "game.log");
    assert!(
        out.contains(
            "dice: attacker_roll: d6 → 4 (typed at the table), defender_roll: d6 → 3 (queued)"
        ),
        "{out}"
    );
    // The same log as written before rolls had names: it replays.
    let old = log
        .replace("\"name\":\"attacker_roll\",", "")
        .replace("\"name\":\"defender_roll\",", "");
    assert!(!old.contains("\"name\""));
    std::fs::write(dir.join("old.log"), old).expect("old log written");
    replays(&dir, "old.log");
}

#[test]
fn a_roll_is_named_only_by_a_name() {
    let dir = opposed("bad_name");
    let o = umpire_in(
        &dir,
        &["eval", "opposed.rules", "opposed(1, 2)", "--roll", "4=3"],
        "",
    );
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("`4` is not the name of a roll: write NAME=FACE, `attacker_roll=4`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_face_queued_by_name_after_umpire_rolled_replays_from_the_seed() {
    let dir = opposed("seeded");
    // Umpire rolls the attacker's die from seed 5; the defender's 3 is queued by name, so
    // the queued face is the result's second die, not its first.
    let o = umpire_in(
        &dir,
        &["repl", "--seed", "5", "--log", "game.log", "opposed.rules"],
        ":roll defender_roll=3\nopposed(1, 2)\n",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let log = std::fs::read_to_string(dir.join("game.log")).expect("log written");
    assert!(log.contains("\"queued_dice\":[2]"), "{log}");
    replays(&dir, "game.log");
    let out = report(&dir, "game.log");
    assert!(
        out.contains("(rolled by umpire), defender_roll: d6 → 3 (queued)"),
        "{out}"
    );
}

#[test]
fn prob_gives_the_same_odds_whether_a_roll_is_named_or_not() {
    let dir = opposed("prob");
    std::fs::write(
        dir.join("unnamed.rules"),
        "ruleset \"h\"\nrule opposed(a: Int, d: Int) -> Int {\n  (d6 + a) - (d6 + d)\n}\n",
    )
    .expect("ruleset written");
    let odds = |file: &str| {
        let o = umpire_in(&dir, &["prob", file, "opposed(1, 2)"], "");
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let named = odds("opposed.rules");
    // -6 to 4; the difference of two d6 is 0 six times in 36, so -1 here.
    assert!(named.contains("(exact, over "), "{named}");
    assert!(named.contains("  -1   1/6  16.67%"), "{named}");
    // The same odds, line for line; only the work differs (rolls named by a `let` are
    // followed path by path, a sum of rolls is worked out whole), so the first line's
    // count of cases is left out.
    let rows = |s: &str| s.lines().skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(rows(&named), rows(&odds("unnamed.rules")));
    // The joint odds of one named roll read twice: six outcomes of 1/6.
    let o = umpire_in(&dir, &["prob", "opposed.rules", "let r = d6; (r, r)"], "");
    let joint = stdout(&o);
    assert!(joint.contains("(exact, over "), "{joint}");
    assert_eq!(joint.matches("1/6  16.67%").count(), 6, "{joint}");
}

/// A DBA-style opposed roll with tactical factors as a modifier list: each side's die is
/// read out with its own factors and its total (`d6 → 5, +1 = 6`), whether the die is
/// named by a `let` or written in the sum; the other side's die is never taken for one of
/// them (before: `d6 → 5, +1, -2 = 4`, the defender's total read as a modifier).
#[test]
fn each_side_of_an_opposed_roll_is_read_out_with_its_own_modifiers() {
    let dir = Scratch::new("dba");
    std::fs::write(
        dir.join("dba.rules"),
        "ruleset \"dba\"
modifiers tactical(uphill: Bool, overlaps: 0..) { \"Uphill\" +1 if uphill; \"Overlap\" -1 per overlaps }
rule opposed(a: Int, d: Int) -> Int {
  let attacker_roll = d6
  let defender_roll = d6
  (attacker_roll + a + tactical(true, 0)) - (defender_roll + d + tactical(false, 1))
}
rule combat(cf: Int) -> Int {
  let my_die = d6
  my_die + cf + tactical(true, 1)
}
",
    )
    .expect("ruleset written");
    let run = |expr: &str, roll: &str| {
        let o = umpire_in(&dir, &["eval", "dba.rules", expr, "--roll", roll], "");
        assert!(o.status.success(), "{expr}: {}", stderr(&o));
        stdout(&o)
    };
    // Attacker 5 + 4 + 1 (uphill) = 10; defender 2 + 3 - 1 (one overlap) = 4; 10 - 4 = 6.
    assert_eq!(
        run("opposed(4, 3)", "5,2"),
        "6\nrolls: attacker_roll: d6 → 5, +4, +1 = 10, defender_roll: d6 → 2, +3, -1 = 4\n"
    );
    // The same sum written with the dice in it reads the same.
    assert_eq!(
        run(
            "(d6 + 4 + tactical(true, 0)) - (d6 + 3 + tactical(false, 1))",
            "5,2"
        ),
        "6\nrolls: d6 → 5, +4, +1 = 10, d6 → 2, +3, -1 = 4\n"
    );
    // One named die, its combat factor and its factors: 3 + 2 + (1 - 1) = 5.
    assert_eq!(
        run("combat(2)", "3"),
        "5\nrolls: my_die: d6 → 3, +2, +0 = 5\n"
    );
}

/// An example's `let r = d6` names its roll as a rule's does: `given rolls r 6` gives
/// it (it was "too few rolls"), in either order of the two lines; a roll of the rule
/// called in the same example keeps its own name.
#[test]
fn an_examples_let_names_its_roll() {
    let dir = Scratch::new("example-let-names");
    let text = format!(
        "{OPPOSED}example \"given first\" {{\n  given rolls r 6\n  let r = d6\n  r == 6\n}}\n\
         example \"let first\" {{\n  let r = d6\n  given rolls r 2, attacker_roll 5, defender_roll 1\n  \
         r + opposed(0, 0) == 6\n}}\n"
    );
    std::fs::write(dir.join("ex.rules"), text).expect("ruleset written");
    let o = umpire_in(&dir, &["test", "ex.rules"], "");
    let out = format!("{}{}", stdout(&o), stderr(&o));
    assert!(o.status.success(), "{out}");
    assert!(out.contains("2 passed, 0 failed"), "{out}");
}

/// Each die of a pool whose count is worked out at the table (`dice(ceil(men / 10), 6)`)
/// says how many dice that came to, so the players know how many to throw: 25 men throw
/// three dice, and the best two of 3, 5, 1 are 8.
#[test]
fn a_pool_worked_out_at_the_table_says_how_many_dice() {
    let dir = Scratch::new("pool_count");
    std::fs::write(
        dir.join("pool.rules"),
        "ruleset \"p\"\nrule best(men: 1..) -> Int { highest(2, dice(ceil(men / 10), 6)) }\n",
    )
    .expect("ruleset written");
    let o = umpire_in(
        &dir,
        &["eval", "pool.rules", "best(25)", "--roll", "3,5,1"],
        "",
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        stdout(&o),
        "8\nrolls: die 1 of 3 (dice(ceil(men / 10), 6)) → 3, die 2 of 3 (dice(ceil(men / 10), 6)) → 5, die 3 of 3 (dice(ceil(men / 10), 6)) → 1\n"
    );
}
