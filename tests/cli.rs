//! The real binary, driven as a user drives it: the exact output contracts.

mod common;

use common::{run_piped, stderr, stdout, umpire, umpire_command, umpire_in, Scratch};
use std::process::Output;

/// One run of the binary and everything it must do: its exit status, and its stdout
/// and stderr each compared whole (casey/just's `tests/test.rs`). An output not given is
/// expected empty. Expected texts are unindented ([`unindent`]) and trailing spaces are
/// not compared (miette ends a drawn blank source line with one).
struct Test {
    args: Vec<String>,
    dir: Option<std::path::PathBuf>,
    stdin: Option<String>,
    stdout: String,
    stderr: String,
    status: i32,
    any_seed: bool,
}

impl Test {
    fn new(args: &[&str]) -> Test {
        Test {
            args: args.iter().map(|a| a.to_string()).collect(),
            dir: None,
            stdin: None,
            stdout: String::new(),
            stderr: String::new(),
            status: 0,
            any_seed: false,
        }
    }

    /// Runs in `dir` (so that file names in the output are short and the same each run).
    fn current_dir(mut self, dir: &std::path::Path) -> Test {
        self.dir = Some(dir.to_path_buf());
        self
    }

    fn stdin(mut self, text: &str) -> Test {
        self.stdin = Some(text.to_string());
        self
    }

    fn stdout(mut self, text: &str) -> Test {
        self.stdout = unindent(text);
        self
    }

    fn stderr(mut self, text: &str) -> Test {
        self.stderr = unindent(text);
        self
    }

    fn status(mut self, code: i32) -> Test {
        self.status = code;
        self
    }

    /// The dice come from a fresh seed: each seed number in the output is read as `SEED`.
    fn any_seed(mut self) -> Test {
        self.any_seed = true;
        self
    }

    /// Runs it and checks everything; the output, for what the test looks at further.
    fn run(self) -> Output {
        let mut cmd = umpire_command(&self.args);
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        let o = run_piped(&mut cmd, self.stdin.as_deref().unwrap_or(""));
        let seen = |text: String| {
            let text = if self.any_seed {
                seeds_read(&text)
            } else {
                text
            };
            tidy(&text)
        };
        let (out, err) = (seen(stdout(&o)), seen(stderr(&o)));
        let run = format!("umpire {}", self.args.join(" "));
        assert_eq!(out, tidy(&self.stdout), "stdout of `{run}`; stderr:\n{err}");
        assert_eq!(err, tidy(&self.stderr), "stderr of `{run}`; stdout:\n{out}");
        assert_eq!(o.status.code(), Some(self.status), "exit status of `{run}`");
        o
    }
}

/// `text` written indented in a test: a first newline dropped, the least-indented line
/// moved to column 0 and the others with it, and a last line of spaces (before the
/// closing quote) dropped.
fn unindent(text: &str) -> String {
    let text = text.strip_prefix('\n').unwrap_or(text);
    let indent = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    let mut out: String = text
        .lines()
        .map(|l| format!("{}\n", l.get(indent..).unwrap_or("")))
        .collect();
    if !text.ends_with('\n') {
        // The spaces before the closing quote, or a text with no final newline.
        if text.lines().last().is_some_and(|l| l.trim().is_empty()) {
            out.truncate(out.trim_end_matches([' ', '\n']).len());
            out.push('\n');
        } else {
            out.pop();
        }
    }
    out
}

/// Each line without its trailing spaces.
fn tidy(text: &str) -> String {
    let mut out: Vec<&str> = text.split('\n').map(str::trim_end).collect();
    if out.last() == Some(&"") {
        out.pop();
        return out.join("\n") + "\n";
    }
    out.join("\n")
}

/// A fresh seed, different each run, read as `SEED` wherever it is reported:
/// `seed: 123`, `--seed 123` and JSON's `"seed":123`.
fn seeds_read(text: &str) -> String {
    let mut out = text.to_string();
    for mark in ["seed: ", "--seed ", "\"seed\":"] {
        let mut done = String::new();
        let mut rest = out.as_str();
        while let Some(at) = rest.find(mark) {
            let after = &rest[at + mark.len()..];
            let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            done.push_str(&rest[..at + mark.len()]);
            done.push_str(if digits > 0 { "SEED" } else { "" });
            rest = &after[digits..];
        }
        done.push_str(rest);
        out = done;
    }
    out
}

fn json(o: &Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

/// `umpire eval little_wars EXPR --roll ROLLS --format json`, as JSON.
fn little_wars_json(expr: &str, rolls: &str) -> serde_json::Value {
    json(&umpire(&[
        "eval",
        "little_wars",
        expr,
        "--roll",
        rolls,
        "--format",
        "json",
    ]))
}

#[test]
fn nine_against_eleven_as_json() {
    // Wells: "nine against eleven have two taken prisoners, and each side seven men dead".
    let o = umpire(&[
        "eval",
        "little_wars",
        "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let v = json(&o);
    assert_eq!(
        v,
        serde_json::json!({
            "value": { "attacker_killed": 7, "defender_killed": 7, "attacker_prisoners": 0, "defender_prisoners": 2 },
            "rolls": []
        })
    );
}

#[test]
fn food_for_forty_six_and_forty_four() {
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "food_packets(men: 46, isolated: false)",
    ]);
    assert_eq!(stdout(&o), "2\n");
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "food_packets(men: 44, isolated: false)",
    ]);
    assert_eq!(stdout(&o), "1\n");
}

#[test]
fn text_value_then_explanation_citing_the_rulebook() {
    // Wells's first melee: thirteen isolated against nineteen kill man for man until
    // 19 - 7 = 12 is double 13 - 7 = 6, and the six are taken.
    Test::new(&[
        "eval",
        "little_wars",
        "melee(attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)",
        "--explain",
    ])
    .stdout("
        { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }
        melee(attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)  [Little Wars, Hand-to-Hand Fighting (3)]
          isolated(men: 13, support: 5)  [Little Wars, Hand-to-Hand Fighting (1)]
            = true
          note: (b)(i) the inferior force is isolated: they kill each other off, man for man, until one force is double the other, which is then taken prisoner
          = { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }
    ")
    .run();
}

#[test]
fn refusal_is_a_result_with_exit_zero() {
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "action_time(artillery, pass_fordable_river, men: 0)",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    let v = json(&o);
    assert_eq!(v["refused"]["reason"], "Rivers are impassable to guns");
    assert!(v.get("value").is_none() && v.get("unspecified").is_none());
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "action_time(cavalry, embark, men: 20)",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0));
    assert!(json(&o).get("unspecified").is_some());
}

#[test]
fn an_explanation_marks_arguments_left_to_their_default() {
    // `moved` is left out: the explanation says its `false` is the default, not the
    // umpire's. Guns "are supposed to have unlimited ammunition with them", and a gun
    // that has not moved may fire.
    Test::new(&["eval", "kriegspiel", "body_may_fire({ arm: artillery })", "--explain"])
        .stdout("
        true
        body_may_fire(b: { arm: artillery, across_river: false, moves_without_supply: 0, ammunition: true }, moved: false (default))  [Little Wars, Kriegspiel: supplies failing]
          body_out_of_action(b: { arm: artillery, across_river: false, moves_without_supply: 0, ammunition: true })  [Little Wars, Kriegspiel: supplies failing]
            = false
          may_fire(arm: artillery, moved: false)  [Little Wars, Kriegspiel: fire and move]
            = true
          = true
    ")
        .run();
    // `men` is needed only for boats: left out and never read, it shows as not given.
    // "Rivers are impassable to guns, to the R.E. and to Transport and Supply."
    Test::new(&[
        "eval",
        "kriegspiel",
        "action_time(artillery, pass_fordable_river)",
        "--explain",
    ])
    .stdout("
        refused: Rivers are impassable to guns [Little Wars, Kriegspiel: Artillery]
        table action_time(arm: artillery, action: pass_fordable_river, men: not given): row `artillery | pass_fordable_river`  [Little Wars, Kriegspiel: the move costs of each arm]
          refused: Rivers are impassable to guns  [Little Wars, Kriegspiel: Artillery]
    ")
    .run();
    // Given as 0, it is not marked; infantry pass a fordable river in one move.
    Test::new(&[
        "eval",
        "kriegspiel",
        "action_time(infantry, pass_fordable_river, men: 0)",
        "--explain",
    ])
    .stdout("
        1 move
        table action_time(arm: infantry, action: pass_fordable_river, men: 0): row `infantry | pass_fordable_river`  [Little Wars, Kriegspiel: the move costs of each arm]
          = 1 move
    ")
    .run();
}

#[test]
fn json_values_by_kind() {
    let o = umpire(&["eval", "kriegspiel", "1 3/4\"", "--format", "json"]);
    assert_eq!(
        json(&o)["value"],
        serde_json::json!({ "inches": "7/4", "text": "1 3/4\"" })
    );
    let o = umpire(&["eval", "kriegspiel", "7/4", "--format", "json"]);
    assert_eq!(json(&o)["value"], "7/4");
    let o = umpire(&["eval", "kriegspiel", "1/2 move", "--format", "json"]);
    assert_eq!(json(&o)["value"]["text"], "1/2 move");
    let o = umpire(&["eval", "kriegspiel", "artillery", "--format", "json"]);
    assert_eq!(json(&o)["value"], "artillery");
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "isolated_body(13')",
        "--format",
        "json",
    ]);
    assert_eq!(json(&o)["value"], true);
}

#[test]
fn an_expression_may_begin_with_a_minus() {
    let o = umpire(&["eval", "kriegspiel", "-3 + 1"]);
    assert_eq!(stdout(&o), "-2\n", "{}", stderr(&o));
}

#[test]
fn the_same_seed_gives_the_same_rolls() {
    let a = json(&umpire(&[
        "eval",
        "kriegspiel",
        "2d6 + d10",
        "--seed",
        "1913",
        "--format",
        "json",
    ]));
    let b = json(&umpire(&[
        "eval",
        "kriegspiel",
        "2d6 + d10",
        "--seed",
        "1913",
        "--format",
        "json",
    ]));
    assert_eq!(a, b);
    assert_eq!(a["seed"], 1913);
    assert_eq!(a["rolls"].as_array().map(|r| r.len()), Some(2));
}

#[test]
fn given_rolls_are_used_in_order() {
    let v = json(&umpire(&[
        "eval",
        "kriegspiel",
        "d6 - d6",
        "--roll",
        "6,2",
        "--format",
        "json",
    ]));
    assert_eq!(v["value"], 4);
    assert_eq!(v["rolls"][0]["faces"], serde_json::json!([6]));
    assert_eq!(v["rolls"][1]["faces"], serde_json::json!([2]));
    assert!(v.get("seed").is_none());
}

#[test]
fn wrong_given_rolls_are_errors() {
    Test::new(&["eval", "kriegspiel", "2d6", "--roll", "3"])
        .status(1)
        .stderr(
            "
            umpire::dice::too_few_rolls

              × too few rolls given: 1 given, and die 2 of `2d6` (a d6) still needs one
               ╭─[<expression>:1:1]
             1 │ 2d6
               · ─┬─
               ·  ╰── needs the 2nd roll
               ╰────
              help: give one more roll per die, in the order the dice are rolled
        ",
        )
        .run();
    Test::new(&["eval", "kriegspiel", "d6", "--roll", "3,4"])
        .status(1)
        .stderr(
            "
            umpire::dice::too_many_rolls

              × too many rolls given: 2 given, 1 used; not used: 4
              help: give exactly one roll per die the adjudication rolls
        ",
        )
        .run();
    Test::new(&["eval", "kriegspiel", "d6", "--roll", "7"])
        .status(1)
        .stderr(
            "
            umpire::dice::bad_face

              × the 1st roll given, 7, is not a face of a d6
               ╭─[<expression>:1:1]
             1 │ d6
               · ─┬
               ·  ╰── a d6 shows 1 to 6
               ╰────
        ",
        )
        .run();
}

#[test]
fn a_fresh_seed_is_reported() {
    // A d1 shows 1 whatever the seed, so only the seed differs from run to run.
    Test::new(&["eval", "kriegspiel", "d1"])
        .any_seed()
        .stdout(
            "
            1
            rolls: d1 → 1
        ",
        )
        .stderr("seed: SEED (replay with --seed SEED)\n")
        .run();
    let o = Test::new(&["eval", "kriegspiel", "d1", "--format", "json"])
        .any_seed()
        .stdout(concat!(
            r#"{"value":1,"rolls":[{"dice":"d1","sides":1,"faces":[1],"total":1}],"seed":SEED}"#,
            "\n"
        ))
        .run();
    assert!(json(&o)["seed"].is_u64());
    // Nothing rolled, no seed.
    Test::new(&["eval", "kriegspiel", "1 + 1"])
        .stdout("2\n")
        .run();
}

#[test]
fn errors_point_at_the_span_and_exit_one() {
    Test::new(&["eval", "kriegspiel", "6\" + 2"])
        .status(1)
        .stderr(r#"
            umpire::check::units

              × cannot add a whole number (Int) to a length
               ╭─[<expression>:1:1]
             1 │ 6" + 2
               · ─┬   ┬
               ·  │   ╰── a whole number (Int)
               ·  ╰── a length
               ╰────
              help: a length plus a plain number has no meaning: make the number a length with inches(...),
                    e.g. `4" + inches(d6)`
        "#)
        .run();
    Test::new(&[
        "eval",
        "little_wars",
        "melee(attackers: 11, defendrs: 9, attacker_support: 0, defender_support: 0)",
    ])
    .status(1)
    .stderr(
        "
        umpire::check::argument

          × rule `melee` has no parameter `defendrs`
           ╭─[<expression>:1:22]
         1 │ melee(attackers: 11, defendrs: 9, attacker_support: 0, defender_support: 0)
           ·                      ────┬───
           ·                          ╰── unknown parameter
           ╰────
          help: did you mean `defenders`?
    ",
    )
    .run();
    // A misspelt argument is one mistake: the parameter it meant is not also
    // reported missing, but one truly left out still is.
    Test::new(&[
        "eval",
        "little_wars",
        "melee(attackers: 11, defenders: 9, attacker_suport: 3)",
    ])
    .status(1)
    .stderr(
        "
        umpire::check::argument

          × rule `melee` has no parameter `attacker_suport`
           ╭─[<expression>:1:36]
         1 │ melee(attackers: 11, defenders: 9, attacker_suport: 3)
           ·                                    ───────┬───────
           ·                                           ╰── unknown parameter
           ╰────
          help: did you mean `attacker_support`?
        umpire::check::argument

          × rule `melee` is missing `defender_support`
           ╭─[<expression>:1:1]
         1 │ melee(attackers: 11, defenders: 9, attacker_suport: 3)
           · ───────────────────────────┬──────────────────────────
           ·                            ╰── missing arguments
           ╰────
          help: call it as melee(attackers: ..., defenders: ..., attacker_support: ...,
                defender_support: ...)
    ",
    )
    .run();
    Test::new(&["eval", "little_wars", "melee(attackers: 11"])
        .status(1)
        .stderr(
            r#"
            umpire::parse::syntax

              × syntax error: the `(` opened here is not closed
               ╭─[<expression>:1:6]
             1 │ melee(attackers: 11
               ·      ┬
               ·      ╰── this `(` is not closed
               ╰────
              help: close it with `)` where what it holds ends
        "#,
        )
        .run();
}

#[test]
fn usage_errors_exit_two() {
    assert_eq!(umpire(&["eval"]).status.code(), Some(2));
    assert_eq!(umpire(&["frobnicate"]).status.code(), Some(2));
    assert_eq!(
        umpire(&["eval", "kriegspiel", "1", "--format", "xml"])
            .status
            .code(),
        Some(2)
    );
}

#[test]
fn test_command_ends_with_the_count() {
    let o = umpire(&["test", "little_wars", "kriegspiel"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let last = out.lines().last().unwrap_or("");
    assert!(last.ends_with(" passed, 0 failed"), "{last}");
}

#[test]
fn show_prints_the_bundled_source() {
    let o = umpire(&["show", "little_wars"]);
    assert_eq!(
        stdout(&o),
        std::fs::read_to_string("rulesets/little_wars.rules").expect("file")
    );
    assert_eq!(umpire(&["show", "little_war"]).status.code(), Some(1));
}

#[test]
fn check_reports_every_error() {
    let dir = Scratch::new("cli");
    let path = dir.join("two_errors.rules");
    std::fs::write(
        &path,
        "rule a() -> Int { nope }\nrule b() -> Length { 6\" + 1 }\n",
    )
    .expect("write");
    Test::new(&["check", "two_errors.rules"])
        .current_dir(&dir)
        .status(1)
        .stdout("two_errors.rules: 2 error(s)\n")
        .stderr(r#"
            umpire::check::report

              × two_errors.rules: 2 errors

            Error: umpire::check::unknown_name

              × unknown name `nope`
               ╭─[two_errors.rules:1:19]
             1 │ rule a() -> Int { nope }
               ·                   ──┬─
               ·                     ╰── not defined
             2 │ rule b() -> Length { 6" + 1 }
               ╰────

            Error: umpire::check::units

              × cannot add a whole number (Int) to a length
               ╭─[two_errors.rules:2:22]
             1 │ rule a() -> Int { nope }
             2 │ rule b() -> Length { 6" + 1 }
               ·                      ─┬   ┬
               ·                       │   ╰── a whole number (Int)
               ·                       ╰── a length
               ╰────
              help: a length plus a plain number has no meaning: make the number a length with inches(...),
                    e.g. `4" + inches(d6)`
        "#)
        .run();
}

/// Past the hundred errors shown, the count still counts them all.
#[test]
fn check_counts_the_errors_it_does_not_show() {
    let dir = Scratch::new("many");
    let text: String = (0..130)
        .map(|i| format!("rule r{i}() -> Int {{ nope{i} }}\n"))
        .collect();
    std::fs::write(dir.join("many.rules"), text).expect("write");
    let o = umpire_in(&dir, &["check", "many.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "many.rules: 130 error(s)\n");
    assert_eq!(
        stderr(&o).matches("umpire::check::unknown_name").count(),
        100,
        "a hundred shown"
    );
    assert!(
        stderr(&o).ends_with(&unindent(
            "
            Error: umpire::check::more_errors

              × ... and 30 more errors
            "
        )),
        "{}",
        stderr(&o)
    );
}

#[test]
fn run_the_melee_scenario() {
    // Wells's arithmetic: 11 v 9 fight down to 4 v 2 (11 - 7 = 2 x (9 - 7)), two
    // prisoners; 19 v 13 to 12 v 6, six; 14 v 12 to 4 v 2, two; one escort for two
    // prisoners; equal numbers all die.
    Test::new(&["run", "examples/little_wars_melee.toml"])
        .stdout("
            Little Wars: Wells's own melee examples (Little Wars)

            1. Nine against eleven (Hand-to-Hand Fighting (3)(b)(i))
               melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)
               = { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }
               as expected
               why:
                 melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)  [Little Wars, Hand-to-Hand Fighting (3)]
                   isolated(men: 9, support: 0)  [Little Wars, Hand-to-Hand Fighting (1)]
                     = true
                   note: (b)(i) the inferior force is isolated: they kill each other off, man for man, until one force is double the other, which is then taken prisoner
                   = { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }

            2. First melee: A's nineteen against thirteen of B's, five of B's in support
               melee(attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)
               = { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }
               as expected
               why:
                 melee(attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)  [Little Wars, Hand-to-Hand Fighting (3)]
                   isolated(men: 13, support: 5)  [Little Wars, Hand-to-Hand Fighting (1)]
                     = true
                   note: (b)(i) the inferior force is isolated: they kill each other off, man for man, until one force is double the other, which is then taken prisoner
                   = { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }

            3. Second melee: B's fourteen against A's twelve survivors (the six prisoners do not count)
               melee(attackers: 14, defenders: 19 - 7, attacker_support: 0, defender_support: 0)
               = { attacker_killed: 10, defender_killed: 10, attacker_prisoners: 0, defender_prisoners: 2 }
               as expected
               why:
                 melee(attackers: 14, defenders: 12, attacker_support: 0, defender_support: 0)  [Little Wars, Hand-to-Hand Fighting (3)]
                   isolated(men: 12, support: 0)  [Little Wars, Hand-to-Hand Fighting (1)]
                     = true
                   note: (b)(i) the inferior force is isolated: they kill each other off, man for man, until one force is double the other, which is then taken prisoner
                   = { attacker_killed: 10, defender_killed: 10, attacker_prisoners: 0, defender_prisoners: 2 }

            4. B's escort for A's two prisoners
               escorts_needed(prisoners: 2)
               = 1
               as expected
               why:
                 escorts_needed(prisoners: 2)  [Little Wars, Hand-to-Hand Fighting (3), prisoners and escorts]
                   = 1

            5. Equal numbers: all die
               melee(attackers: 8, defenders: 8, attacker_support: 3, defender_support: 3)
               = { attacker_killed: 8, defender_killed: 8, attacker_prisoners: 0, defender_prisoners: 0 }
               as expected
               why:
                 melee(attackers: 8, defenders: 8, attacker_support: 3, defender_support: 3)  [Little Wars, Hand-to-Hand Fighting (3)]
                   note: (a) the numbers are equal: all the men on both sides are killed
                   = { attacker_killed: 8, defender_killed: 8, attacker_prisoners: 0, defender_prisoners: 0 }

            5 adjudications: 5 as expected, 0 not as expected, 0 errors
        ")
        .run();
    let v = json(&umpire(&[
        "run",
        "examples/little_wars_melee.toml",
        "--format",
        "json",
    ]));
    assert_eq!(v["adjudications"][0]["value"]["defender_prisoners"], 2);
}

#[test]
fn eval_against_a_state_file() {
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "strength(units.second_foot)",
        "--state",
        "tests/cases/state/good.toml",
    ]);
    assert_eq!(stdout(&o), "30\n", "{}", stderr(&o));
    // Every mistake of the file, each at its place: `move` is `1..`, `men` is `0..`,
    // `reeach` and `gaurd` are misspelt, the 2nd Foot's `men` has no default, and
    // `lost_percent` is a number written as text.
    Test::new(&[
        "eval",
        "tests/state/units.rules",
        "move",
        "--state",
        "tests/cases/state/every_mistake.toml",
    ])
    .status(1)
    .stderr(
        r#"
        umpire::state::range

          × `move` must be 1 or more, but is 0
           ╭─[tests/cases/state/every_mistake.toml:2:8]
         1 │ # expr: move
         2 │ move = 0
           ·        ┬
           ·        ╰── out of range
         3 │
           ╰────
        umpire::state::unknown_field

          × `old_guard` has no field `reeach`
           ╭─[tests/cases/state/every_mistake.toml:7:1]
         6 │ men = -2
         7 │ reeach = '12"'
           · ───┬──
           ·    ╰── not a field
         8 │
           ╰────
          help: did you mean `reach`?
                its fields: grade, men, lost_percent, leader_cp, reach, disordered
        umpire::state::unknown_value

          × `gaurd` is not a value of Grade
           ╭─[tests/cases/state/every_mistake.toml:5:9]
         4 │ [units.old_guard]
         5 │ grade = "gaurd"
           ·         ───┬───
           ·            ╰── not a value of Grade
         6 │ men = -2
           ╰────
          help: did you mean `guard`?
                the values of Grade: militia, line, grenadier, guard
        umpire::state::range

          × `men` must be 0 or more, but is -2
           ╭─[tests/cases/state/every_mistake.toml:6:7]
         5 │ grade = "gaurd"
         6 │ men = -2
           ·       ─┬
           ·        ╰── out of range
         7 │ reeach = '12"'
           ╰────
        umpire::state::missing_field

          × `second_foot` has no `men`, and it has no default
            ╭─[tests/cases/state/every_mistake.toml:9:1]
          8 │
          9 │ [units.second_foot]
            · ─────────┬─────────
            ·          ╰── no `men`
         10 │ grade = "line"
            ╰────
          help: add `men = ...` (a whole number (Int))
        umpire::state::type

          × expected a whole number (Int), found text
            ╭─[tests/cases/state/every_mistake.toml:11:16]
         10 │ grade = "line"
         11 │ lost_percent = "25"
            ·                ──┬─
            ·                  ╰── this is text
            ╰────
    "#,
    )
    .run();
    Test::new(&["eval", "tests/state/units.rules", "move"])
        .status(1)
        .stderr(r#"
            umpire::eval::no_state

              × `move` is part of the game state, and no state is loaded
               ╭─[<expression>:1:1]
             1 │ move
               · ──┬─
               ·   ╰── needs the state
               ╰────
              help: give a state file: `--state FILE` (`umpire eval`, `umpire repl`), `:load FILE` in the
                    REPL, or `state = "FILE"` in a scenario
        "#)
        .run();
}

#[test]
fn a_json_state_file_is_checked_too() {
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "units.old_guard.men + units.second_foot.men",
        "--state",
        "tests/state/table.json",
    ]);
    assert_eq!(stdout(&o), "50\n", "{}", stderr(&o));
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "units.old_guard.reach",
        "--state",
        "tests/state/table.json",
    ]);
    assert_eq!(stdout(&o), "12\"\n", "{}", stderr(&o));
    // Each mistake at its place: `move` on line 2, the misspelled field and value on line 4.
    Test::new(&[
        "eval",
        "tests/state/units.rules",
        "move",
        "--state",
        "tests/state/mistakes.json",
    ])
    .status(1)
    .stderr(
        r#"
        umpire::state::range

          × `move` must be 1 or more, but is 0
           ╭─[tests/state/mistakes.json:2:11]
         1 │ {
         2 │   "move": 0,
           ·           ┬
           ·           ╰── out of range
         3 │   "units": {
           ╰────
        umpire::state::unknown_field

          × `old_guard` has no field `reeach`
           ╭─[tests/state/mistakes.json:4:49]
         3 │   "units": {
         4 │     "old_guard": { "grade": "gaurd", "men": 20, "reeach": "12\"" }
           ·                                                 ────┬───
           ·                                                     ╰── not a field
         5 │   }
           ╰────
          help: did you mean `reach`?
                its fields: grade, men, lost_percent, leader_cp, reach, disordered
        umpire::state::unknown_value

          × `gaurd` is not a value of Grade
           ╭─[tests/state/mistakes.json:4:29]
         3 │   "units": {
         4 │     "old_guard": { "grade": "gaurd", "men": 20, "reeach": "12\"" }
           ·                             ───┬───
           ·                                ╰── not a value of Grade
         5 │   }
           ╰────
          help: did you mean `guard`?
                the values of Grade: militia, line, grenadier, guard
    "#,
    )
    .run();
}

#[test]
fn effects_are_part_of_the_result() {
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "take_losses(\"old_guard\", 7)",
        "--state",
        "tests/cases/state/good.toml",
    ]);
    assert_eq!(
        stdout(&o),
        "13\neffect: units.old_guard.men: 20 → 13\n",
        "{}",
        stderr(&o)
    );
    let v = json(&umpire(&[
        "eval",
        "tests/state/units.rules",
        "next_move()",
        "--state",
        "tests/cases/state/good.toml",
        "--format",
        "json",
    ]));
    assert_eq!(
        v["effects"],
        serde_json::json!([{ "path": "move", "from": 3, "to": 4 }])
    );
    // The declared range holds for the value set: twenty men cannot lose twenty-five.
    Test::new(&[
        "eval",
        "tests/state/units.rules",
        "take_losses(\"old_guard\", 25)",
        "--state",
        "tests/cases/state/good.toml",
    ])
    .status(1)
    .stderr(
        "
        umpire::eval::range

          × `units.old_guard.men` is 20: taking away 25 would make it -5, and it must be 0 or more
            ╭─[tests/state/units.rules:28:7]
         27 │ rule take_losses(name: Text, killed: 0..) -> Int {
         28 │   set units[name].men -= killed
            ·       ────────────┬────────────
            ·                   ╰── out of range
         29 │   units[name].men - killed
            ╰────
          help: this happened in the ruleset, working out `take_losses(\"old_guard\", 25)` as you typed it:
                check what you gave it against the game state
    ",
    )
    .run();
}

#[test]
fn a_scenario_plays_turns_and_writes_the_state() {
    let dir = Scratch::new("turns");
    let out = dir.join("after.toml");
    let before = std::fs::read_to_string("tests/cases/state/good.toml").expect("state");
    // The Guard's twenty lose seven twice; the move goes from 3 to 4 (reads see the
    // state as it was: `move + 1` is 4); 6 left of the Guard and the 2nd Foot's 30.
    Test::new(&[
        "run",
        "tests/state/turns.toml",
        "--brief",
        "--write-state",
        out.to_str().expect("utf-8"),
    ])
    .stdout(
        "
        State cases

        1. The Guard loses seven
           take_losses(\"old_guard\", 7)
           = 13
           effect: units.old_guard.men: 20 → 13
           (effects applied to the state)
           as expected

        2. Seven more
           take_losses(\"old_guard\", 7)
           = 6
           effect: units.old_guard.men: 13 → 6
           (effects applied to the state)
           as expected

        3. Next move
           next_move()
           = 4
           effect: move: 3 → 4
           (effects applied to the state)
           as expected

        4. What is left
           units.old_guard.men + units.second_foot.men
           = 36
           as expected

        4 adjudications: 4 as expected, 0 not as expected, 0 errors
    ",
    )
    .run();
    // The written state loads back with the effects in it; the input file is untouched.
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "move * 100 + units.old_guard.men",
        "--state",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(stdout(&o), "406\n", "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string("tests/cases/state/good.toml").expect("state"),
        before
    );
}

/// Wells: "six of B's men going as released prisoners to his back line, two of A's men
/// prisoners in the hands of B, one of B's staying with them as escort, and three of B's
/// men still actively free for action. A, at a cost of nineteen men, has disposed of
/// seventeen of B's men for good."
#[test]
fn the_two_melees_end_in_the_state_wells_describes() {
    let dir = Scratch::new("wells");
    let out = dir.join("after.toml");
    let o = umpire(&[
        "run",
        "examples/little_wars_two_melees.toml",
        "--brief",
        "--write-state",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let ask = |expr: &str| {
        stdout(&umpire(&[
            "eval",
            "little_wars",
            expr,
            "--state",
            out.to_str().expect("utf-8"),
        ]))
    };
    assert_eq!(ask("sides.b.released"), "6\n");
    assert_eq!(ask("sides.b.prisoners_held"), "2\n");
    assert_eq!(ask("sides.b.escorts"), "1\n");
    assert_eq!(ask("sides.b.free"), "3\n");
    assert_eq!(ask("sides.b.dead"), "17\n");
    // A's nineteen: seventeen dead, two in B's hands, none free.
    assert_eq!(ask("sides.a.dead + sides.b.prisoners_held"), "19\n");
    assert_eq!(ask("sides.a.free"), "0\n");
}

#[test]
fn changes_to_one_place_add_up_and_each_member_can_be_changed() {
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "twice(\"old_guard\")",
        "--state",
        "tests/cases/state/good.toml",
    ]);
    assert_eq!(
        stdout(&o),
        "20\neffect: units.old_guard.men: 20 → 17\neffect: units.old_guard.men: 17 → 13\n",
        "{}",
        stderr(&o)
    );
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "take_losses(u_name, 5)",
        "--state",
        "tests/cases/state/good.toml",
        "--each",
        "u=units",
    ]);
    assert_eq!(
        stdout(&o),
        "old_guard: 15\n  effect: units.old_guard.men: 20 → 15\nsecond_foot: 25\n  effect: units.second_foot.men: 30 → 25\n",
        "{}",
        stderr(&o)
    );
}

#[test]
fn write_state_as_json_loads_back() {
    let dir = Scratch::new("json");
    let out = dir.join("after.json");
    let o = umpire(&[
        "run",
        "tests/state/turns.toml",
        "--brief",
        "--write-state",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = umpire(&[
        "eval",
        "tests/state/units.rules",
        "move * 100 + units.old_guard.men",
        "--state",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(stdout(&o), "406\n", "{}", stderr(&o));
}

/// A state is written over a state file, and never over the scenario being run: that
/// save is refused (exit 1) and the scenario is byte for byte as it was.
#[test]
fn write_state_replaces_a_state_file_and_never_the_scenario() {
    let dir = Scratch::new("overwrite");
    let scenario = dir.join("turns.toml");
    let text = std::fs::read_to_string("tests/state/turns.toml").expect("the scenario");
    // The scenario names its ruleset and state beside it: give their full paths.
    let here = std::env::current_dir().expect("the repository");
    let text = text
        .replace(
            "\"units.rules\"",
            &format!("{:?}", here.join("tests/state/units.rules")),
        )
        .replace(
            "\"../cases/state/good.toml\"",
            &format!("{:?}", here.join("tests/cases/state/good.toml")),
        );
    std::fs::write(&scenario, &text).expect("a copy of the scenario");
    let before = std::fs::read(&scenario).expect("written");
    let s = scenario.to_str().expect("utf-8");
    let o = umpire(&["run", s, "--brief", "--write-state", s]);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert!(
        stderr(&o).contains("umpire::io::not_state"),
        "{}",
        stderr(&o)
    );
    assert_eq!(std::fs::read(&scenario).expect("still there"), before);
    // A state file there already is replaced, as before.
    let out = dir.join("after.toml");
    std::fs::write(&out, "move = 1\n").expect("an old state");
    let o = umpire(&[
        "run",
        s,
        "--brief",
        "--write-state",
        out.to_str().expect("utf-8"),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_ne!(
        std::fs::read_to_string(&out).expect("written"),
        "move = 1\n"
    );
}

#[test]
fn deny_warnings_makes_warnings_fail() {
    let dir = Scratch::new("warn");
    let path = dir.join("w.rules");
    std::fs::write(
        &path,
        "rule f(a: Int, b: Int) -> Int {\n  let c = 3\n  a\n}\n",
    )
    .expect("write");
    let p = path.to_str().expect("utf-8");
    assert_eq!(umpire(&["check", p]).status.code(), Some(0));
    assert_eq!(
        umpire(&["check", "--deny-warnings", p]).status.code(),
        Some(1)
    );
    let o = umpire(&[
        "check",
        "--deny-warnings",
        "little_wars",
        "kriegspiel",
        "horse_and_musket",
        "furious_reason",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// `umpire check` reports every problem of every file in one run, each file's under one
/// headline (errors before warnings never hide one another), and exits 1 on errors.
#[test]
fn check_groups_every_problem_under_its_file() {
    let dir = Scratch::new("group");
    std::fs::write(
        dir.join("bad.rules"),
        "rule f() -> Length { 6\" + 2 }\nrule g() -> Int { unknown_thing }\nrule h(a: Int) -> Int { 1 }\n",
    )
    .expect("write");
    std::fs::write(dir.join("warn.rules"), "rule f(a: Int) -> Int { 1 }\n").expect("write");
    // Beneath each headline its own problems, in file order.
    Test::new(&["check", "bad.rules", "warn.rules"])
        .current_dir(&dir)
        .status(1)
        .stdout("
            bad.rules: 2 error(s); 1 warning
            warn.rules: ok (1 rule, 0 tables, 0 modifier lists, 0 examples; 1 warning)
        ")
        .stderr(r#"
            umpire::check::report

              × bad.rules: 2 errors and 1 warning

            Error: umpire::check::units

              × cannot add a whole number (Int) to a length
               ╭─[bad.rules:1:22]
             1 │ rule f() -> Length { 6" + 2 }
               ·                      ─┬   ┬
               ·                       │   ╰── a whole number (Int)
               ·                       ╰── a length
             2 │ rule g() -> Int { unknown_thing }
               ╰────
              help: a length plus a plain number has no meaning: make the number a length with inches(...),
                    e.g. `4" + inches(d6)`

            Error: umpire::check::unknown_name

              × unknown name `unknown_thing`
               ╭─[bad.rules:2:19]
             1 │ rule f() -> Length { 6" + 2 }
             2 │ rule g() -> Int { unknown_thing }
               ·                   ──────┬──────
               ·                         ╰── not defined
             3 │ rule h(a: Int) -> Int { 1 }
               ╰────

            Warning: umpire::check::unused_parameter

              ⚠ rule `h` never uses its parameter `a`
               ╭─[bad.rules:3:8]
             2 │ rule g() -> Int { unknown_thing }
             3 │ rule h(a: Int) -> Int { 1 }
               ·        ┬
               ·        ╰── unused
               ╰────
              help: use it, or remove it (callers name it too)
            umpire::check::report

              ⚠ warn.rules: 1 warning

            Warning: umpire::check::unused_parameter

              ⚠ rule `f` never uses its parameter `a`
               ╭─[warn.rules:1:8]
             1 │ rule f(a: Int) -> Int { 1 }
               ·        ┬
               ·        ╰── unused
               ╰────
              help: use it, or remove it (callers name it too)
        "#)
        .run();
}

/// `umpire repl` with a script on stdin: no prompt, each value on stdout exactly as
/// `umpire eval` prints it, diagnostics on stderr, the session going on after an error,
/// and exit 1 because one input failed.
#[test]
fn a_scripted_repl_prints_values_as_eval_does() {
    // The 2nd Foot (line, 30% lost: D10 - 1 on the good-order side): the roll of 6 given
    // makes 5, Tardy; seed 5's first D10 is 3, making 2, Disengage. No prompt.
    let o = Test::new(&[
        "repl",
        "furious_reason",
        "--seed",
        "5",
        "--state",
        "examples/states/furious_reason_brigade.toml",
    ])
    .stdin(":roll 6\nmanoeuvre(brigade.second_foot)\nno_such_rule(1)\nmanoeuvre(\n  brigade.second_foot)\n")
    .status(1)
    .stdout("
        Tardy — Unit may move at 1/2 Full Move Rate
        rolls: D10 → 6, -1 = 5
        Disengage — Unit Falls Back
        rolls: D10 → 3, -1 = 2
    ")
    .stderr("
        using the bundled ruleset `furious_reason`
        state loaded from examples/states/furious_reason_brigade.toml
        queued for the next adjudication: 6
        queued rolls used: 6
        umpire::check::unknown_name

          × unknown rule, table or modifier list `no_such_rule`
           ╭─[<input>:1:1]
         1 │ no_such_rule(1)
           · ──────┬─────
           ·       ╰── not defined
           ╰────
    ")
    .run();
    // The same questions through `umpire eval`: given roll 6, then seed 5's first D10.
    let state = "examples/states/furious_reason_brigade.toml";
    let first = umpire(&[
        "eval",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--roll",
        "6",
        "--state",
        state,
    ]);
    let second = umpire(&[
        "eval",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--seed",
        "5",
        "--state",
        state,
    ]);
    assert_eq!(stdout(&o), format!("{}{}", stdout(&first), stdout(&second)));
}

/// `umpire prob` on a manoeuvre of a unit from the example state: the exact outcome
/// distribution with bars, as worked by hand (2nd Foot, D10 - 1 on the good-order side:
/// Well Handled 3/10, Tardy, Hold, Disengage 1/5 each, Retire 1/10).
#[test]
fn prob_prints_the_exact_odds_of_a_manoeuvre() {
    // Bars scaled to the likeliest outcome: Well Handled (3/10) fills all 30 blocks, so
    // each tenth is ten blocks (1/5: 20, 1/10: 10).
    Test::new(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        "examples/states/furious_reason_brigade.toml",
    ])
    .stdout(
        "
        manoeuvre(brigade.second_foot)  (exact, over 314 cases)
          Well Handled  3/10  30.00%  ██████████████████████████████
          Tardy          1/5  20.00%  ████████████████████
          Hold           1/5  20.00%  ████████████████████
          Disengage      1/5  20.00%  ████████████████████
          Retire        1/10  10.00%  ██████████
    ",
    )
    .run();
    // JSON: exact fractions.
    let o = umpire(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        "examples/states/furious_reason_brigade.toml",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(j["method"], "exact");
    assert_eq!(j["outcomes"][0]["value"], "well_handled");
    assert_eq!(j["outcomes"][0]["probability"], "3/10");
}

/// Sweeps over a modifier and over morale grades (a state path): one row per value.
#[test]
fn prob_sweeps_a_modifier_and_the_grades() {
    // Good order: 7 or more Well Handled, 5-6 Tardy, 3-4 Hold, 1-2 Disengage, 0 or less
    // Retire. m = 0: Well Handled on 7-10, 40%; m = -9: a D10 - 9 is 0 or less on 1-9,
    // Retire 90%, and 1 on a 10, Disengage; m = 6 on: 7 or more on any D10.
    Test::new(&[
        "prob",
        "furious_reason",
        "manoeuvre_table(good_order, D10 + m)",
        "--sweep",
        "m=-9..8",
    ])
    .stdout(
        "
        manoeuvre_table(good_order, D10 + m)  for each m
          m   Well Handled   Tardy    Hold  Disengage  Retire
          -9             -       -       -     10.00%  90.00%
          -8             -       -       -     20.00%  80.00%
          -7             -       -  10.00%     20.00%  70.00%
          -6             -       -  20.00%     20.00%  60.00%
          -5             -  10.00%  20.00%     20.00%  50.00%
          -4             -  20.00%  20.00%     20.00%  40.00%
          -3        10.00%  20.00%  20.00%     20.00%  30.00%
          -2        20.00%  20.00%  20.00%     20.00%  20.00%
          -1        30.00%  20.00%  20.00%     20.00%  10.00%
          0         40.00%  20.00%  20.00%     20.00%       -
          1         50.00%  20.00%  20.00%     10.00%       -
          2         60.00%  20.00%  20.00%          -       -
          3         70.00%  20.00%  10.00%          -       -
          4         80.00%  20.00%       -          -       -
          5         90.00%  10.00%       -          -       -
          6        100.00%       -       -          -       -
          7        100.00%       -       -          -       -
          8        100.00%       -       -          -       -
          (exact)
    ",
    )
    .run();
    let o = umpire(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        "examples/states/furious_reason_brigade.toml",
        "--sweep",
        "brigade.second_foot.grade=militia,line,grenadier,guard",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    // Militia -1 and 30% lost -1: D10 - 2, Well Handled on 9-10: 1/5. Guard +2 - 1:
    // D10 + 1, Well Handled on 6-10: 1/2.
    assert_eq!(j["rows"][0]["at"], "militia");
    assert_eq!(j["rows"][0]["outcomes"][0]["probability"], "1/5");
    assert_eq!(j["rows"][3]["at"], "guard");
    assert_eq!(j["rows"][3]["outcomes"][0]["probability"], "1/2");
}

/// The exact chance of each sum of seven six-sided dice: 6^7 cases, convolved die by die.
fn seven_d6() -> Vec<(i64, f64)> {
    let mut ways = vec![1u64];
    for _ in 0..7 {
        let mut next = vec![0u64; ways.len() + 6];
        for (s, w) in ways.iter().enumerate() {
            for face in 1..=6 {
                next[s + face] += w;
            }
        }
        ways = next;
    }
    let all = 6f64.powi(7);
    (7..=42).map(|s| (s as i64, ways[s] as f64 / all)).collect()
}

/// The rows of a sampled `prob` report of 7d6 from `n` adjudications: every sum shown is
/// one seven dice can make, and its share is within four standard errors of the exact
/// chance (and of a half-hundredth of a percent, the rounding); the shares make 100%.
fn sampled_like_seven_d6(out: &str, n: f64) {
    let exact = seven_d6();
    let mut total = 0.0;
    for line in out.lines().skip(2).filter(|l| l.contains('%')) {
        let mut words = line.split_whitespace();
        let sum: i64 = words.next().and_then(|w| w.parse().ok()).expect("a sum");
        let share: f64 = words
            .next()
            .and_then(|w| w.trim_end_matches('%').parse().ok())
            .expect("a share");
        let p = exact.iter().find(|(s, _)| *s == sum).map(|(_, p)| *p);
        let p = p.unwrap_or_else(|| panic!("{sum} is no sum of seven dice: {line}"));
        let se = (p * (1.0 - p) / n).sqrt();
        assert!(
            (share / 100.0 - p).abs() <= 4.0 * se + 0.00005,
            "{sum}: {share}% sampled, {:.4}% exact",
            p * 100.0
        );
        total += share;
    }
    assert!((total - 100.0).abs() < 0.2, "the shares make {total}%");
}

/// Too many cases to enumerate: sampled, and said so, with the seed to replay. Seven dice
/// have 6^7 cases, past a limit of 500; the figures are held to the exact chances of the
/// sums, not to one run's output.
#[test]
fn prob_samples_when_there_are_too_many_cases() {
    let args = [
        "prob",
        "kriegspiel",
        "d6 + d6 + d6 + d6 + d6 + d6 + d6",
        "--limit",
        "500",
    ];
    let o = umpire(&[&args[..], &["--samples", "2000", "--seed", "3"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    assert_eq!(
        out.lines().next(),
        Some("d6 + d6 + d6 + d6 + d6 + d6 + d6  (sampled: 2000 adjudications with seed 3; ± one standard error)")
    );
    sampled_like_seven_d6(&out, 2000.0);
    // The same seed gives the same figures.
    let again = umpire(&[&args[..], &["--samples", "2000", "--seed", "3"]].concat());
    assert_eq!(stdout(&again), out);
    // Not asked to sample: it says why it does, and the seed given is not repeated.
    let o = umpire(&[&args[..], &["--seed", "3"]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        stderr(&o),
        "exact odds need more than 500 cases of work: sampling instead (--limit N allows more)\n"
    );
    let out = stdout(&o);
    assert_eq!(
        out.lines().next(),
        Some("d6 + d6 + d6 + d6 + d6 + d6 + d6  (sampled: exact odds need more than 500 cases of work (--limit), so 100000 adjudications with seed 3; ± one standard error)")
    );
    sampled_like_seven_d6(&out, 100_000.0);
}

/// `umpire diff` of the printed Furious Reason and the club's house rules: the changed
/// cell and modifier, and per adjudication of the scenario the odds side by side (the
/// grenadiers, +3 in the book and +4 as veterans: Well Handled 7/10 → 4/5).
#[test]
fn diff_shows_a_house_rule_in_text_and_in_play() {
    // The grenadiers (grenadier, column, both flanks secure) roll D10 + 3 in the book and
    // D10 + 4 as veterans: Well Handled on 4-10, then 3-10; Tardy on 2-3, then 1-2; Hold
    // on a 1, then never.
    Test::new(&[
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--scenario",
        "examples/house/furious_reason_diff.toml",
    ])
    .stdout(
        r#"
        furious_reason → examples/house/furious_reason_veterans.rules

        changed in the text:
          table movement_rate: line_square | infantry: 8" → 9"
          modifiers manoeuvre_drm: added "Veteran" +1 if u.grade == grenadier
          example "die roll modifiers": changed
          example "movement rates": changed
          example "grenadiers are veterans": added

        adjudications:
          Grenadiers (veterans under the house rules) — manoeuvre(brigade.grenadiers)
            outcome            old       new    change
            Well Handled    70.00%    80.00%   +10.00%
            Tardy           20.00%    20.00%
            Hold            10.00%         -   -10.00%
          2nd Foot (line: unchanged) — manoeuvre(brigade.second_foot)
            the same
          Line infantry's movement rate — movement_rate(line_square, infantry)
            8" → 9"
    "#,
    )
    .run();
    // Differences get an exit code of their own when asked for; none is "no differences".
    let o = umpire(&[
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--exit-code",
    ]);
    assert_eq!(o.status.code(), Some(3));
    let o = umpire(&["diff", "furious_reason", "furious_reason", "--exit-code"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(
        stdout(&o),
        "no differences between furious_reason and furious_reason\n"
    );
    let o = umpire(&[
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--scenario",
        "examples/house/furious_reason_diff.toml",
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(j["differences"], true);
    assert_eq!(
        j["adjudications"][0]["old"]["outcomes"][0]["probability"],
        "7/10"
    );
    assert_eq!(
        j["adjudications"][0]["new"]["outcomes"][0]["probability"],
        "4/5"
    );
    assert_eq!(j["adjudications"][1]["differs"], false);
    // The same error on both sides (a negative width: "must be 0\" or more" in both
    // editions) is no change, and the text says so, as the JSON's `differs: false` does.
    let dir = Scratch::new("diff-same-error");
    std::fs::write(
        dir.path("s.toml"),
        "ruleset = \"furious_reason\"\n[[adjudication]]\nname = \"negative width\"\nexpr = 'crossing_cost(marsh, infantry, width: -2\")'\n",
    )
    .expect("written");
    let scenario = dir.path("s.toml");
    let o = umpire(&[
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--scenario",
        &scenario,
    ]);
    assert!(
        stdout(&o).ends_with(
            "  negative width — crossing_cost(marsh, infantry, width: -2\")\n    the same: error: `width` must be 0\" or more, but is -2\"\n"
        ),
        "{}",
        stdout(&o)
    );
}

/// A house rule that adds a field (`veteran`, +1 to manoeuvre) is compared with the
/// ruleset it extends, which reads the field as absent, in a question and in the state
/// (newcomer study F13); where only one side answers, its odds are still given. A line
/// battalion rolls D10 in the book: Well Handled on 7-10
/// (40%), Tardy 5-6, Hold 3-4, Disengage 1-2 (20% each); as veterans D10 + 1: Well
/// Handled on 6-10 (50%), Tardy 4-5, Hold 2-3 (20% each), Disengage on a 1 (10%).
#[test]
fn diff_compares_a_field_the_house_rule_adds_the_old_side_reading_it_as_absent() {
    let dir = Scratch::new("diff-added-field");
    let unit = std::fs::read_to_string("rulesets/furious_reason.rules").expect("bundled");
    let start = unit.find("record Unit").expect("record Unit");
    let end = start + unit[start..].find("\n}").expect("its end");
    let fields = &unit[unit[..end].rfind('{').map_or(start, |b| b + 1)..end];
    let house = format!(
        "ruleset \"veterans\"\nextends \"furious_reason\"\n\noverride record Unit {{{fields}\n  veteran: Bool = false,\n}}\n\noverride modifiers manoeuvre_drm {{\n  \"Veterans\" +1 if u.veteran\n}}\n\nrule veteran_line() -> Outcome {{ manoeuvre({{ grade: line, veteran: true }}) }}\n"
    );
    std::fs::write(dir.join("veterans.rules"), house).expect("write");
    std::fs::write(
        dir.join("state.toml"),
        "[brigade.old_hands]\ngrade = \"line\"\nveteran = true\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("diff.toml"),
        "ruleset = \"furious_reason\"\nstate = \"state.toml\"\n\n[[adjudication]]\nname = \"Veteran line battalion\"\nexpr = 'manoeuvre({ veteran: true, grade: line })'\n\n[[adjudication]]\nname = \"Old hands, from the state\"\nexpr = 'manoeuvre(brigade.old_hands)'\n\n[[adjudication]]\nname = \"A rule only the house rule has\"\nexpr = 'veteran_line()'\n\n[[adjudication]]\nname = \"Nothing but the new field\"\nexpr = 'manoeuvre({ veteran: true })'\n",
    )
    .expect("write");
    Test::new(&[
        "diff",
        "furious_reason",
        "veterans.rules",
        "--scenario",
        "diff.toml",
    ])
    .current_dir(&dir)
    .stdout(
        r#"
            furious_reason → veterans.rules

            changed in the text:
              modifiers manoeuvre_drm: added "Veterans" +1 if u.veteran
              rule veteran_line: added
              record Unit: field veteran added

            adjudications:
              Veteran line battalion — manoeuvre({ veteran: true, grade: line })
                (the old ruleset has no `veteran`: read as absent there)
                outcome            old       new    change
                Well Handled    40.00%    50.00%   +10.00%
                Tardy           20.00%    20.00%
                Hold            20.00%    20.00%
                Disengage       20.00%    10.00%   -10.00%
              Old hands, from the state — manoeuvre(brigade.old_hands)
                outcome            old       new    change
                Well Handled    40.00%    50.00%   +10.00%
                Tardy           20.00%    20.00%
                Hold            20.00%    20.00%
                Disengage       20.00%    10.00%   -10.00%
              A rule only the house rule has — veteran_line()
                old: error: unknown rule, table or modifier list `veteran_line`
                new: Well Handled 50.00%, Tardy 20.00%, Hold 20.00%, Disengage 10.00%
              Nothing but the new field — manoeuvre({ veteran: true })
                old: error: Unit has no field `veteran`
                new: error: Unit needs `grade` (it has no default)
        "#,
    )
    .run();
    let (house, scenario) = (dir.join("veterans.rules"), dir.join("diff.toml"));
    let (house, scenario) = (
        house.to_str().expect("utf-8"),
        scenario.to_str().expect("utf-8"),
    );
    let o = umpire(&[
        "diff",
        "furious_reason",
        house,
        "--scenario",
        scenario,
        "--format",
        "json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    assert_eq!(
        j["adjudications"][0]["old_reads_absent"],
        serde_json::json!(["veteran"])
    );
    assert_eq!(
        j["adjudications"][0]["old"]["outcomes"][0]["probability"],
        "2/5"
    );
    assert_eq!(
        j["adjudications"][0]["new"]["outcomes"][0]["probability"],
        "1/2"
    );
    assert_eq!(
        j["adjudications"][1]["old_reads_absent"],
        serde_json::json!([])
    );
    // A field neither ruleset has is an error, said with the ruleset that refused it.
    std::fs::write(
        dir.join("state.toml"),
        "[brigade.old_hands]\ngrade = \"line\"\nveteran = true\nvetran = 1\n",
    )
    .expect("write");
    let o = umpire(&["diff", "furious_reason", house, "--scenario", scenario]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(
            "the old ruleset, furious_reason, rejects the state: `old_hands` has no field `vetran`"
        ),
        "{}",
        stderr(&o)
    );
}

/// The authoring probe `side_extra_field`: a house rule of Little Wars adds
/// `immobile_on_move` to `Side`; its state sets it for red. Little Wars reads the state
/// without it (red's side as the book has it); the house rule with it.
#[test]
fn diff_of_the_side_extra_field_probe_reads_the_state_both_ways() {
    let dir = Scratch::new("diff-side-extra-field");
    let files = [
        (
            "g.rules",
            "ruleset \"g\"\nextends \"little_wars\"\noverride record Side {\n  free: 0..,\n  dead: 0.. = 0,\n  prisoners_held: 0.. = 0,\n  escorts: 0.. = 0,\n  released: 0.. = 0,\n  immobile_on_move: 0.. = 0,\n}\n",
        ),
        (
            "g.toml",
            "move = 4\n[sides.red]\nfree = 30\nimmobile_on_move = 5\n[sides.blue]\nfree = 20\n",
        ),
        (
            "s.toml",
            "ruleset = \"little_wars\"\nstate = \"g.toml\"\n[[adjudication]]\nname = \"red\"\nexpr = 'sides[\"red\"]'\n",
        ),
    ];
    for (name, text) in files {
        std::fs::write(dir.join(name), text).expect("write");
    }
    Test::new(&["diff", "little_wars", "g.rules", "--scenario", "s.toml"])
        .current_dir(&dir)
        .stdout(
            r#"
            little_wars → g.rules

            changed in the text:
              record Side: field immobile_on_move added

            adjudications:
              red — sides["red"]
                { free: 30, dead: 0, prisoners_held: 0, escorts: 0, released: 0 } → { free: 30, dead: 0, prisoners_held: 0, escorts: 0, released: 0, immobile_on_move: 5 }
        "#,
        )
        .run();
}

/// The trace shows when a house rule, not the base, decided.
#[test]
fn explanations_say_when_a_house_rule_decided() {
    // The veterans' house rule moves a line square of infantry 9" (8" in the book).
    Test::new(&[
        "eval",
        "examples/house/furious_reason_veterans.rules",
        "movement_rate(line_square, infantry)",
        "--explain",
    ])
    .stdout(r#"
        9"
        table movement_rate(formation: line_square, arm: infantry): row `line_square | infantry`  [house rule, examples/house/furious_reason_veterans.rules]
          = 9"
    "#)
    .run();
    // Grenadiers: +1 for their class and +1 as veterans, so a roll of 5 is 7, Well Handled.
    Test::new(&[
        "eval",
        "examples/house/furious_reason_veterans.rules",
        "manoeuvre({ grade: grenadier })",
        "--roll",
        "5",
        "--explain",
    ])
    .stdout("
        Well Handled — Unit may move at Full Move Rate
        manoeuvre(u: { grade: grenadier, leader_cp: 0, rear_support: false, both_flanks_secure: false, column_formation: false, lost_percent: 0, being_charged: false, enemy_in_charge_distance_flank_or_rear: false, skirmishers: false, flag_lost_or_commander_taken: false, disordered: false, stands_lost: 0, routing: false, no_formation_change_on: 0, crossed_shallow_river_on: 0, manoeuvred_on: 0, cannot_move_on: 0 })  [Furious Reason, The Manoeuvre Table]
          rolled D10: 5
          modifiers manoeuvre_drm  [Furious Reason, Die Roll Modifiers]
            +1   Grenadier Class
            +1   Veteran (house rule)
            = +2
          table manoeuvre_table(order: good_order, roll: 7): row `7 or more` of column `good_order`  [Furious Reason, The Manoeuvre Table]
            = Well Handled
          = Well Handled
    ")
    .run();
}

/// The house charts for the horse-and-musket rules fill what the excerpt leaves out: a
/// moderate forced march, "not given" in the book, becomes the house chart's d12:
/// No 1-2 (1/6), Yes 3-9 (7/12), X 10-11 (1/6), Lose 12 (1/12).
#[test]
fn diff_shows_house_charts_filling_gaps() {
    let o = umpire(&[
        "diff",
        "horse_and_musket",
        "examples/house/horse_and_musket_charts.rules",
        "--scenario",
        "examples/house/horse_and_musket_diff.toml",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("json");
    let changes = j["changes"].as_array().expect("changes");
    assert!(
        changes.iter().any(|c| c["what"] == "table movement_rate"
            && c["change"] == "line | clear: not given → 6\""),
        "{changes:?}"
    );
    let march = &j["adjudications"][2];
    assert!(
        march["old"]["outcomes"][0]["unspecified"].is_object(),
        "{march}"
    );
    let probs: Vec<(&str, &str)> = march["new"]["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            (
                o["value"].as_str().unwrap_or("?"),
                o["probability"].as_str().unwrap_or("?"),
            )
        })
        .collect();
    assert_eq!(
        probs,
        [
            ("no", "1/6"),
            ("yes", "7/12"),
            ("x", "1/6"),
            ("lose", "1/12")
        ]
    );
    assert_eq!(j["adjudications"][1]["differs"], false);
}

/// The same adjudication under two readings of an ambiguous rule gives both results, and
/// each explanation names its reading (Kriegspiel forage for 14 horses: a part-six is a
/// whole packet by default, 3; by the infantry's fractions rule two over is disregarded,
/// 2). A reading that fills a gap has no default: not given until one is chosen.
#[test]
fn readings_of_an_ambiguous_rule() {
    // 14 horses: two packets of six, and a part-six of two.
    Test::new(&["eval", "kriegspiel", "forage_packets(14)", "--explain"])
        .stdout("
            3
            forage_packets(horses: 14)  [Little Wars, Kriegspiel: Supply in the Field]
              note: reading `whole_packet` of `forage_part_six` (the default): a part-six of horses takes a whole packet: every horse must be fed
              = 3
        ")
        .run();
    Test::new(&[
        "eval",
        "kriegspiel",
        "forage_packets(14)",
        "--interpret",
        "forage_part_six=fractions_rule",
        "--explain",
    ])
    .stdout("
        2
        forage_packets(horses: 14)  [Little Wars, Kriegspiel: Supply in the Field]
          note: reading `fractions_rule` of `forage_part_six` (chosen): the infantry's fractions rule: a part-six of three or more horses counts as six, less is disregarded
          = 2
    ")
    .run();
    Test::new(&[
        "eval",
        "furious_reason",
        "charge_rate(charge_in_line, light_cavalry)",
    ])
    .stdout(r#"
        not given in the source: which of the two numbers of a cavalry charge rate (24/20") applies (no reading is chosen: --interpret charge_rate_pair=READING) [Furious Reason, Movement Rates]
    "#)
    .run();
    Test::new(&[
        "eval",
        "furious_reason",
        "charge_rate(charge_in_line, light_cavalry)",
        "--interpret",
        "charge_rate_pair=first",
    ])
    .stdout("24\"\n")
    .run();
    Test::new(&[
        "eval",
        "kriegspiel",
        "1",
        "--interpret",
        "forage_part_six=fractions",
    ])
    .status(1)
    .stderr("
        umpire::cli::interpret

          × `forage_part_six` has no reading `fractions`; its readings: whole_packet, fractions_rule,
          │ whole_sixes_only
    ")
    .run();
}

/// Runs `scenario` with its game log appended to `log`; the whole log after.
fn run_logged(scenario: &str, log: &std::path::Path) -> String {
    let l = log.to_str().expect("utf-8 path");
    let o = umpire(&["run", scenario, "--brief", "--log", l]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    std::fs::read_to_string(log).expect("the log was written")
}

#[test]
fn a_scenario_run_logged_replays_every_result() {
    let dir = Scratch::new("replay-run");
    let log = dir.join("game.log");
    let text = run_logged("examples/furious_reason_turn.toml", &log);
    let log = log.to_str().expect("utf-8 path");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    // The game line: the ruleset, its digest, the readings in force, the state.
    let game = &lines[0]["game"];
    assert_eq!(game["ruleset"], "furious_reason");
    assert!(game["digest"]
        .as_str()
        .is_some_and(|d| d.starts_with("sha256:") && d.len() == 71));
    assert_eq!(game["interpretations"]["guard_flat_cost"], "per_deployment");
    assert_eq!(game["state"]["brigade"]["second_foot"]["lost_percent"], 30);
    // The 2nd Foot's roll of 6, -1 for one whole 25% lost: 5, Tardy (the scenario's own
    // expectation, from the Manoeuvre Table).
    let second = lines
        .iter()
        .find(|l| l["expr"] == "manoeuvre(brigade.second_foot)")
        .expect("logged");
    assert_eq!(second["value"], "tardy");
    assert_eq!(second["rolls"][0]["faces"], serde_json::json!([6]));
    // The four rolls asked, then two turns played on the table (25 more).
    let n = lines.iter().filter(|l| l.get("expr").is_some()).count();
    assert_eq!(n, 29);
    Test::new(&["replay", "game.log"])
        .current_dir(&dir)
        .stdout("game.log: all 37 result(s) reproduced\n")
        .run();

    // A tampered result is found on its own line, with what differs.
    let at = lines
        .iter()
        .position(|l| l["expr"] == "manoeuvre(brigade.second_foot)")
        .expect("logged")
        + 1;
    let tampered = text.replacen("\"value\":\"tardy\"", "\"value\":\"hold\"", 1);
    std::fs::write(log, tampered).expect("write");
    assert_eq!(at, 3, "after the game line and the guard grenadiers");
    Test::new(&["replay", "game.log"])
        .current_dir(&dir)
        .status(1)
        .stdout("
            line 3: `manoeuvre(brigade.second_foot)`: the log has value `hold`, the replay gives value `tardy`
            game.log: 1 of 37 result(s) differ
        ")
        .run();
}

#[test]
fn a_repl_game_logged_with_seeded_dice_replays_and_a_wrong_seed_is_found() {
    let dir = Scratch::new("replay-repl");
    std::fs::copy(
        "examples/states/furious_reason_brigade.toml",
        dir.join("table.toml"),
    )
    .expect("copy");
    std::fs::copy(
        "examples/states/kriegspiel_garrison.toml",
        dir.join("garrison.toml"),
    )
    .expect("copy");
    let script = ":log game.log\nmanoeuvre(brigade.second_foot)\n:roll 4\nD10 + 3d6\n\
        :set brigade.second_foot.lost_percent = 55\nmanoeuvre(brigade.second_foot)\n\
        manoeuvre(brigade.grenadiers)\n:undo\n:interpret guard_flat_cost=per_deployment\n\
        2d6 + 1\n:use! kriegspiel\n:load garrison.toml\nvictual()\n:apply\npass_moves(6)\n\
        :apply\n:undo\n:undo\nvictual()\n:apply\n";
    let o = umpire_in(
        &dir,
        &[
            "repl",
            "furious_reason",
            "--state",
            "table.toml",
            "--seed",
            "11",
        ],
        script,
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = dir.join("game.log");
    let log = log.to_str().expect("utf-8 path");
    // Six adjudications and a :set in Furious Reason; three adjudications and three
    // :apply in the Kriegspiel.
    let replay = || Test::new(&["replay", "game.log"]).current_dir(&dir);
    replay()
        .stdout("game.log: all 12 result(s) reproduced\n")
        .run();

    // The same faces claimed for another seed, the game's seed too: the dice are not
    // what that seed gives.
    let text = std::fs::read_to_string(log).expect("log");
    assert!(
        text.contains("\"queued\":1"),
        "the :roll 4 was given, not seeded: {text}"
    );
    // Each seeded result is caught at its first die seed 12 does not give (the `:roll 4`
    // of line 3 is die 1, given, so its first seeded die is die 2); the Kriegspiel's
    // adjudications roll no dice.
    std::fs::write(log, text.replace("\"seed\":11", "\"seed\":12")).expect("write");
    replay()
        .status(1)
        .stdout("
            line 2: `manoeuvre(brigade.second_foot)`: die 1 (D10) shows 4 in the log, but ChaCha8 from seed 12 gives 1 there: the dice were not what the seed gives
            line 3: `D10 + 3d6`: die 2 (3d6) shows 3 in the log, but ChaCha8 from seed 12 gives 1 there: the dice were not what the seed gives
            line 5: `manoeuvre(brigade.second_foot)`: die 1 (D10) shows 6 in the log, but ChaCha8 from seed 12 gives 7 there: the dice were not what the seed gives
            line 6: `manoeuvre(brigade.grenadiers)`: die 1 (D10) shows 6 in the log, but ChaCha8 from seed 12 gives 10 there: the dice were not what the seed gives
            line 9: `2d6 + 1`: die 2 (2d6) shows 2 in the log, but ChaCha8 from seed 12 gives 1 there: the dice were not what the seed gives
            game.log: 5 of 12 result(s) differ
        ")
        .run();
    // Another seed on one line only: not the game's seed.
    let one = text.replacen("\"seed\":11,\"position\"", "\"seed\":12,\"position\"", 1);
    std::fs::write(log, one).expect("write");
    replay()
        .status(1)
        .stdout("
            line 2: `manoeuvre(brigade.second_foot)`: its dice are said to come from seed 12, but the game's seed is 11
            game.log: 1 of 12 result(s) differ
        ")
        .run();
    // Its place in the stream struck out: a seeded face no longer accounted for.
    let lines: Vec<&str> = text.lines().collect();
    let stripped = lines[1].replace(",\"seed\":11,\"position\":\"0\"", "");
    assert_ne!(stripped, lines[1]);
    let mut all = lines.clone();
    all[1] = &stripped;
    std::fs::write(log, all.join("\n")).expect("write");
    replay()
        .status(1)
        .stdout("
            line 2: `manoeuvre(brigade.second_foot)`: 1 of its dice are neither given nor placed in the stream of seed 11, the game's seed
            game.log: 1 of 12 result(s) differ
        ")
        .run();
    // A `dice` that is not what a log writes is refused, not skipped.
    let bad = lines[1].replace("\"queued\":0", "\"queued\":\"x\"");
    all[1] = &bad;
    std::fs::write(log, all.join("\n")).expect("write");
    replay()
        .status(1)
        .stderr(
            "
            umpire::replay::format

              × game.log:2: its `dice.queued` is not a whole number
        ",
        )
        .run();
}

#[test]
fn a_replay_of_a_changed_ruleset_says_so_beside_the_difference() {
    let dir = Scratch::new("replay-changed");
    let rules = std::fs::read_to_string("rulesets/furious_reason.rules").expect("bundled");
    std::fs::write(dir.join("fr.rules"), &rules).expect("write");
    std::fs::copy(
        "examples/states/furious_reason_brigade.toml",
        dir.join("table.toml"),
    )
    .expect("copy");
    let o = umpire_in(
        &dir,
        &["repl", "fr.rules", "--state", "table.toml"],
        ":log game.log\n:roll 6\nmanoeuvre(brigade.second_foot)\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A house rule: 5 and 6 no longer Tardy but Hold.
    let edited = rules.replacen(
        "5,6       => tardy\n    3,4       => hold",
        "6         => tardy\n    3,4,5     => hold",
        1,
    );
    assert_ne!(edited, rules, "the edit applies");
    std::fs::write(dir.join("fr.rules"), edited).expect("write");
    // The log names the ruleset by its full path, and its digest then and now.
    let path = std::fs::canonicalize(dir.join("fr.rules")).expect("path");
    let digest = |p: &std::path::Path| {
        let r = umpire::Ruleset::load(p.to_str().expect("utf-8 path")).expect("loads");
        umpire::gamelog::digest(&r.sources)
    };
    let changed = format!(
        "the ruleset `{}` has changed since the game was logged ({}, now {})",
        path.display(),
        digest(std::path::Path::new("rulesets/furious_reason.rules")),
        digest(&path)
    );
    // A roll of 6 less 1 is 5: Tardy then, Hold now.
    Test::new(&["replay", "game.log"])
        .current_dir(&dir)
        .status(1)
        .stdout(&format!(
            "
            line 2: `manoeuvre(brigade.second_foot)`: the log has value `tardy`, the replay gives value `hold`; ({changed})
            game.log: 1 of 1 result(s) differ
            "
        ))
        .stderr(&format!("note: line 1: {changed}\n"))
        .run();
}

#[test]
fn a_replay_refuses_what_is_not_a_game_log() {
    let dir = Scratch::new("replay-bad");
    let p = dir.join("x.log");
    let replay = || Test::new(&["replay", "x.log"]).current_dir(&dir).status(1);
    std::fs::write(&p, "{\"expr\": \"1\"}\n").expect("write");
    replay()
        .stderr(
            "
            umpire::replay::format

              × x.log:1: the log does not start with a `game` line
        ",
        )
        .run();
    std::fs::write(&p, "not json\n").expect("write");
    replay()
        .stderr(
            "
            umpire::replay::format

              × x.log:1: not a line of a game log: expected ident at line 1 column 2
        ",
        )
        .run();
    std::fs::write(&p, "").expect("write");
    replay()
        .stderr(
            "
            umpire::replay::format

              × x.log: an empty game log: it has no `game` line
        ",
        )
        .run();
}

#[test]
fn a_siege_run_with_effects_applied_replays_from_the_state_it_started_with() {
    let dir = Scratch::new("replay-siege");
    let log = dir.join("siege.log");
    let text = run_logged("examples/kriegspiel_siege.toml", &log);
    // The scenario marks seven adjudications `apply = true` (victualling and moves
    // passing, each a `set` on the garrison or the clock): seven `apply` lines.
    let applies = text.lines().filter(|l| l.starts_with("{\"apply\"")).count();
    assert_eq!(applies, 7, "{text}");
    // Eleven adjudications and the seven applied: eighteen results.
    Test::new(&["replay", "siege.log"])
        .current_dir(&dir)
        .stdout("siege.log: all 18 result(s) reproduced\n")
        .run();
}

#[test]
fn a_game_log_is_never_appended_to_a_file_umpire_reads_or_to_one_that_is_not_a_log() {
    let dir = Scratch::new("log-target");
    let scenario = dir.join("siege.toml");
    let text = std::fs::read_to_string("examples/kriegspiel_siege.toml").expect("example");
    let here = std::env::current_dir().expect("cwd");
    let text = text.replace(
        "states/",
        &format!("{}/examples/states/", here.to_string_lossy()),
    );
    std::fs::write(&scenario, &text).expect("write");
    let s = scenario.to_str().expect("utf-8 path");
    let refused = |args: &[&str], why: &str| {
        Test::new(args)
            .current_dir(&dir)
            .status(1)
            .stderr(&format!(
                "
                umpire::io::log

                  × will not append the game log to {why}
                  help: name a new file for the log, or a game log to add to (`game.log`)
                "
            ))
            .run();
    };
    refused(
        &["run", "siege.toml", "--log", "siege.toml"],
        "siege.toml: it is siege.toml, which this command also uses",
    );
    assert_eq!(
        std::fs::read_to_string(&scenario).expect("read"),
        text,
        "the scenario is untouched"
    );
    refused(
        &[
            "run",
            "siege.toml",
            "--log",
            "out.toml",
            "--write-state",
            "out.toml",
        ],
        "out.toml: it is out.toml, which this command also uses",
    );
    // A file that holds something else.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "my notes\n").expect("write");
    refused(
        &["run", "siege.toml", "--log", "notes.txt"],
        "notes.txt: it holds something else, not a game log",
    );
    assert_eq!(std::fs::read_to_string(&notes).expect("read"), "my notes\n");
    // A game log is added to: two runs, two games, one replay.
    let log = dir.join("game.log");
    run_logged(s, &log);
    let text = run_logged(s, &log);
    assert_eq!(
        text.lines().filter(|l| l.starts_with("{\"game\"")).count(),
        2
    );
    // Two runs of the siege: twice its eighteen results.
    Test::new(&["replay", "game.log"])
        .current_dir(&dir)
        .stdout("game.log: all 36 result(s) reproduced\n")
        .run();
}

#[test]
fn a_read_only_state_file_is_not_replaced() {
    use std::os::unix::fs::PermissionsExt;
    let dir = Scratch::new("read-only");
    let out = dir.join("end.toml");
    // A state of the siege's ruleset (kriegspiel), read-only.
    std::fs::write(&out, "move = 1\n").expect("write");
    std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let scenario = format!(
        "{}/examples/kriegspiel_siege.toml",
        env!("CARGO_MANIFEST_DIR")
    );
    Test::new(&["run", &scenario, "--brief", "--write-state", "end.toml"])
        .current_dir(&dir)
        .status(1)
        .stderr(
            "
            umpire::io::write

              × cannot write end.toml: it is read-only
              help: make it writable, or name another file
        ",
        )
        .run();
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "move = 1\n");
}

#[test]
fn odds_past_a_limit_are_an_error_not_an_outcome() {
    // 3d6 + 1d6 rolls four dice; with at most three, no case can be worked out; the
    // help names the flag that raises that limit. (In a sweep, the row is named first.)
    let refused = |args: &[&str], first: &str, second: &str| {
        Test::new(args)
            .status(1)
            .stderr(&format!("
                umpire::prob::limit

                  × {first}
                  │ {second}
                  help: a rule may be rolling dice in a loop without end; the limit is set by --max-dice; or ask
                        something smaller
            "))
            .run();
    };
    refused(
        &["prob", "kriegspiel", "3d6 + 1d6", "--max-dice", "3"],
        "the odds cannot be worked out: in at least one case, the adjudication rolls more than 3 dice",
        "in all",
    );
    let o = umpire(&["prob", "kriegspiel", "3d6 + 1d6", "--max-dice", "4"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // In a sweep too: `dice(3, 6)` rolls three dice, past a limit of two.
    refused(
        &[
            "prob",
            "kriegspiel",
            "dice(n, 6)",
            "--sweep",
            "n=1..3",
            "--max-dice",
            "2",
        ],
        "at n = 3: the odds cannot be worked out: in at least one case, the adjudication rolls more",
        "than 2 dice in all",
    );
}

#[test]
fn a_logged_run_whose_adjudications_hit_a_limit_replays_with_their_dice_and_limits() {
    let dir = Scratch::new("replay-limit");
    let log = dir.join("low.log");
    let l = log.to_str().expect("utf-8 path");
    // One step is too few for any manoeuvre: every adjudication fails, and the log keeps
    // the limit and each one's rolls (the scenario's `rolls = [3]`, `[6]`, `[9]`, `[1]`,
    // the same four played on the table, the river's `[4]` and turn 4's `[2]`).
    let o = umpire(&[
        "run",
        "examples/furious_reason_turn.toml",
        "--brief",
        "--max-steps",
        "1",
        "--log",
        l,
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let text = std::fs::read_to_string(&log).expect("log");
    let given: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON"))
        .filter(|v| v.get("error").is_some() && v.get("given").is_some())
        .map(|v| v["given"].clone())
        .collect();
    assert_eq!(
        given,
        [3, 6, 9, 1, 3, 6, 9, 1, 4, 2]
            .map(|r| serde_json::json!([r]))
            .to_vec(),
        "{text}"
    );
    assert!(text.contains("\"steps\":1"), "{text}");
    // Replayed without the flag: the logged limit holds again.
    Test::new(&["replay", "low.log"])
        .current_dir(&dir)
        .stdout("low.log: all 29 result(s) reproduced\n")
        .run();
}

/// F12: the result read as the table reads it. The first line is the result as before;
/// the `rolls:` line gives the die, the modifiers' total and the modified roll (the
/// Guard grenadiers: Guard +2, CP 2, rear support +1 = +5; a 3 makes 8); the
/// explanation opens with the unit's name, not its record; the JSON is as it was.
#[test]
fn eval_reads_the_modified_roll_out_and_names_the_unit() {
    let brigade = "examples/states/furious_reason_brigade.toml";
    let q = "manoeuvre(brigade.guard_grenadiers)";
    let args = [
        "eval",
        "furious_reason",
        q,
        "--state",
        brigade,
        "--roll",
        "3",
    ];
    let o = umpire(&args);
    assert_eq!(
        stdout(&o),
        "Well Handled — Unit may move at Full Move Rate\nrolls: D10 → 3, +5 = 8\n"
    );
    let o = umpire(&[&args[..], &["--explain"]].concat());
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "Well Handled — Unit may move at Full Move Rate");
    assert_eq!(
        lines[1],
        "manoeuvre(u: guard_grenadiers)  [Furious Reason, The Manoeuvre Table]"
    );
    let o = umpire(&[&args[..], &["--format", "json"]].concat());
    assert_eq!(
        stdout(&o),
        "{\"value\":\"well_handled\",\"rolls\":[{\"dice\":\"D10\",\"sides\":10,\"faces\":[3],\"total\":3}]}\n"
    );
}

/// Dice pools (issue 17, form 6): each die of the pool is rolled on its own, named in
/// the rolls, and counted or taken by its face.
#[test]
fn dice_pools_count_and_take_each_die() {
    // 4, 5 and 6 are at least 4.
    let v = little_wars_json("count(6d6, at_least: 4)", "1,2,3,4,5,6");
    assert_eq!(v["value"], 3);
    assert_eq!(v["rolls"].as_array().map(Vec::len), Some(6));
    assert_eq!(v["rolls"][0]["dice"], "die 1 of 6d6");
    assert_eq!(v["rolls"][5]["faces"], serde_json::json!([6]));
    // 1 and 2 are at most 2.
    assert_eq!(
        little_wars_json("count(6d6, at_most: 2)", "1,2,3,4,5,6")["value"],
        2
    );
    // The highest two of 2, 6, 5: 6 + 5.
    assert_eq!(little_wars_json("highest(2, 3d6)", "2,6,5")["value"], 11);
    // The lowest one of 7, 3.
    assert_eq!(little_wars_json("lowest(1, 2d20)", "7,3")["value"], 3);
    // A pool whose size is worked out in play.
    assert_eq!(
        little_wars_json("count(dice(1 + 2, 6), at_least: 5)", "5,4,6")["value"],
        2
    );
}

/// `prob` of a pool counts each die, not only the sum: three dice each at least 4
/// with chance 1/2 give 0, 1, 2, 3 successes as 1/8, 3/8, 3/8, 1/8, exactly (from the
/// binomial closed form, not the 216 rolls one by one).
#[test]
fn the_odds_of_a_pool_are_exact() {
    let o = umpire(&["prob", "little_wars", "count(3d6, at_least: 4)"]);
    let out = stdout(&o);
    assert!(out.contains("(exact, over "), "{out}");
    for (n, p) in [("0", "1/8"), ("1", "3/8"), ("2", "3/8"), ("3", "1/8")] {
        assert!(
            out.lines().any(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                w.first() == Some(&n) && w.get(1) == Some(&p)
            }),
            "{n} at {p}: {out}"
        );
    }
}

/// A pool is written with its dice: a number, an unnamed face or too many dice taken
/// are errors that say how to write it.
#[test]
fn a_pool_written_wrong_says_how_to_write_it() {
    let err = |args: &[&str]| {
        let o = umpire(args);
        assert!(!o.status.success(), "{args:?}");
        stderr(&o)
    };
    let e = err(&["eval", "little_wars", "count(7, at_least: 3)"]);
    assert!(e.contains("takes the dice themselves"), "{e}");
    let e = err(&["eval", "little_wars", "count(2d6, 3)"]);
    assert!(e.contains("`at_least:` or `at_most:`"), "{e}");
    let e = err(&["eval", "little_wars", "highest(4, 3d6)", "--roll", "1,2,3"]);
    assert!(e.contains("cannot take the highest 4 of 3 dice"), "{e}");
}

/// The checker knows what a pool can give: `count` of four dice is 0 to 4, so rows for
/// 0 and 1-4 cover it (and 1-3 leave 4 out); the highest two of 3d6 are 2 to 12, so
/// rows 2-7 and 8-12 cover it (and 3-7 leave 2 out).
#[test]
fn the_checker_knows_what_a_pool_can_give() {
    let dir = Scratch::new("pools");
    let write = |hits: &str, best: &str| {
        let text = format!(
            "table hits(n: Int) -> Int {{\n  0 => 0\n  {hits} => 1\n}}\n\
             table best(n: Int) -> Int {{\n  {best} => 0\n  8-12 => 1\n}}\n\
             rule volley() -> Int {{ hits(count(dice(4, 6), at_least: 5)) }}\n\
             rule keep() -> Int {{ best(highest(2, 3d6)) }}\n"
        );
        std::fs::write(dir.join("pool.rules"), text).expect("write");
        umpire_in(&dir, &["check", "pool.rules"], "")
    };
    let o = write("1-4", "2-7");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = write("1-3", "2-7");
    assert!(
        stderr(&o).contains("no row of `hits` covers 4"),
        "{}",
        stderr(&o)
    );
    let o = write("1-4", "3-7");
    assert!(
        stderr(&o).contains("no row of `best` covers 2"),
        "{}",
        stderr(&o)
    );
}

/// Re-rolls (issue 17, form 6): the dice of the pool first, then each re-roll needed, in
/// that order, each its own roll named by the die it re-rolls.
#[test]
fn a_reroll_rolls_each_die_then_the_faces_to_reroll_once() {
    // 1, 4, 6, then the 1 re-rolled to 5: 5 + 4 + 6.
    let v = little_wars_json("reroll(3d6, at_most: 1)", "1,4,6,5");
    assert_eq!(v["value"], 15);
    let names: Vec<&str> = v["rolls"]
        .as_array()
        .map(|a| a.iter().filter_map(|r| r["dice"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        names,
        [
            "die 1 of 3d6",
            "die 2 of 3d6",
            "die 3 of 3d6",
            "re-roll of die 1 of 3d6 (showed 1)"
        ]
    );
    // Re-rolled once: a second 1 is kept.
    assert_eq!(
        little_wars_json("reroll(d6, at_most: 1)", "1,1")["value"],
        1
    );
    // `at_least:` re-rolls the high faces: 6 re-rolled to 2, 5 re-rolled to 3.
    assert_eq!(
        little_wars_json("reroll(2d6, at_least: 5)", "6,5,2,3")["value"],
        5
    );
    // A pool of re-rolled dice: 1 re-rolled to 4; 4, 4 and 6 are at least 4.
    assert_eq!(
        little_wars_json("count(reroll(3d6, at_most: 1), at_least: 4)", "1,4,6,4")["value"],
        3
    );
}

/// Exploding dice: a die showing its top face rolls again and adds, at most three extra
/// rolls a die, each named; the text shows each roll as the rolls line always has.
#[test]
fn an_exploding_die_adds_extra_rolls_at_most_three() {
    let eval = |expr: &str, rolls: &str| {
        let o = umpire(&["eval", "little_wars", expr, "--roll", rolls]);
        assert_eq!(o.status.code(), Some(0), "{expr}: {}", stderr(&o));
        stdout(&o)
    };
    // 6 explodes: 6 + 3.
    assert_eq!(
        eval("explode(d6)", "6,3"),
        "9\nrolls: d6 → 6, extra roll 1 of d6 (exploded on 6) → 3\n"
    );
    // Three extra rolls, every one a 6: the chain stops there, 24 kept.
    assert!(eval("explode(d6)", "6,6,6,6").starts_with("24\n"));
    // Each die explodes on its own, after the pool is rolled: die 2's 6 adds 1.
    let out = eval("explode(2d6)", "2,6,1");
    assert!(out.starts_with("9\n"), "{out}");
    assert!(
        out.contains("die 2 of 2d6 → 6, extra roll 1 of die 2 of 2d6 (exploded on 6) → 1"),
        "{out}"
    );
    // 5s and 6s explode; the best die of two: 5 + 2.
    assert!(eval("highest(1, explode(2d6, at_least: 5))", "1,5,2").starts_with("7\n"));
}

/// The checker knows an exploding d6 gives 1 to 24 (three extra rolls at most), and so
/// does the best die of two, and a re-rolled d6 1 to 6, so a table looked up with them is
/// checked for coverage rightly.
#[test]
fn the_checker_knows_what_rerolled_and_exploding_dice_give() {
    let dir = Scratch::new("explode");
    let write = |top: &str| {
        let text = format!(
            "table shot(n: Int) -> Int {{\n  1-5 => 0\n  {top} => 1\n}}\n\
             rule gun() -> Int {{ shot(explode(d6)) }}\n\
             rule steady() -> Int {{ shot(reroll(d6, at_most: 1)) }}\n\
             rule best() -> Int {{ shot(highest(1, explode(2d6))) }}\n"
        );
        std::fs::write(dir.join("gun.rules"), text).expect("write");
        umpire_in(&dir, &["check", "gun.rules"], "")
    };
    let o = write("6-24");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = write("6-23");
    let e = stderr(&o);
    assert!(e.contains("no row of `shot` covers 24"), "{e}");
    // explode(d6) and the best of explode(2d6) reach 24; reroll(d6) is 1-6.
    assert_eq!(e.matches("no row of").count(), 2, "{e}");
}

/// `reroll` and `explode` are names a ruleset may still give its own rules: there the
/// ruleset's rule is called; elsewhere they are the built-ins.
#[test]
fn a_rule_named_reroll_or_explode_keeps_its_name() {
    let dir = Scratch::new("own_reroll");
    std::fs::write(
        dir.join("own.rules"),
        "rule reroll() -> Int { 3 }\nrule explode(n: Int) -> Int { n + 1 }\n",
    )
    .expect("write");
    let o = umpire_in(&dir, &["eval", "own.rules", "reroll() + explode(4)"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "8\n");
}

#[test]
fn a_question_names_a_step_with_let_and_reads_both_fields_of_one_melee() {
    // Wells: "nine against eleven have two taken prisoners, and each side seven men
    // dead" — the nine attack, so the attackers are taken prisoner.
    let o = umpire(&[
        "eval",
        "little_wars",
        "let m = melee(9, 11, 0, 0); (m.attacker_killed, m.attacker_prisoners)",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "(7, 2)");
    // Lines separated by a newline, as in a block.
    let o = umpire(&[
        "eval",
        "little_wars",
        "let m = melee(9, 11, 0, 0)\nm.defender_killed",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).trim(), "7");
}

#[test]
fn a_step_named_with_let_is_rolled_once() {
    // One roll of 2d6 taken from itself is nothing, whatever it showed.
    for seed in ["1", "2", "3"] {
        let o = umpire(&["eval", "little_wars", "--seed", seed, "let r = 2d6; r - r"]);
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert_eq!(stdout(&o).lines().next(), Some("0"));
    }
}

#[test]
fn prob_of_a_let_gives_the_joint_odds_of_one_roll() {
    // One d6 read twice: six outcomes, each 1/6 (not 36 of 1/36).
    let o = umpire(&["prob", "little_wars", "let r = d6; (r, r)"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    let rows: Vec<&str> = out.lines().filter(|l| l.contains('%')).collect();
    assert_eq!(rows.len(), 6, "{out}");
    for (i, row) in rows.iter().enumerate() {
        let n = i + 1;
        let words: Vec<&str> = row.split_whitespace().collect();
        assert_eq!(
            &words[..3],
            [&format!("({n},"), &format!("{n})"), "1/6"],
            "{out}"
        );
    }
}

/// A house rule using Kriegspiel's supply rules beside Little Wars (issue 17, form 9).
const SUPPLIED: &str = "ruleset \"Little Wars, supplied\"\nextends \"little_wars\"\nuse \"kriegspiel\" as ks\nrule rations(men: 0..) -> Int { ks.food_packets(men: men, isolated: false) }\nexample \"rations\" { rations(46) == 2 }\n";

/// `use "kriegspiel" as ks`: its rules called as `ks.NAME`, its values named `ks.Arm.x`,
/// in `eval` (the explanation citing Kriegspiel), `prob` and `test` (which runs the
/// using file's examples and the base's, never the used ruleset's).
#[test]
fn a_used_ruleset_answers_in_eval_prob_and_test() {
    let dir = Scratch::new("use");
    std::fs::write(dir.join("supplied.rules"), SUPPLIED).expect("write");
    // "Forty-six infantry require two packets of food."
    let o = umpire_in(
        &dir,
        &["eval", "supplied.rules", "rations(46)", "--explain"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("2\n"), "{out}");
    assert!(
        out.contains("ks.food_packets(men: 46, isolated: false)  [Little Wars, Kriegspiel: Supply in the Field]"),
        "{out}"
    );
    let o = umpire_in(&dir, &["eval", "supplied.rules", "ks.Arm.infantry"], "");
    assert_eq!(stdout(&o), "Infantry\n", "{}", stderr(&o));
    // Men 10 to 60 by tens: 0 (10), 1 (20, 30, 40), 2 (50, 60).
    let o = umpire_in(
        &dir,
        &[
            "prob",
            "supplied.rules",
            "ks.food_packets(men: d6 * 10, isolated: false)",
        ],
        "",
    );
    let out = stdout(&o);
    assert!(out.contains("0  1/6"), "{out}");
    assert!(out.contains("1  1/2"), "{out}");
    assert!(out.contains("2  1/3"), "{out}");
    let o = umpire_in(&dir, &["test", "supplied.rules"], "");
    let out = stdout(&o);
    assert_eq!(o.status.code(), Some(0), "{out}{}", stderr(&o));
    assert!(
        out.contains("supplied.rules: rations — rations(46) == 2"),
        "{out}"
    );
    assert!(out.contains("supplied.rules: nine against eleven"), "{out}");
    assert!(!out.contains("forty-six and forty-four infantry"), "{out}");
}

/// A used ruleset's readings are chosen as `ks.NAME=READING`, on the command line and
/// in the REPL: eight horses take two packets by the default reading (whole packets),
/// one by the fractions rule (a part-six of two is disregarded).
#[test]
fn a_used_ruleset_s_readings_are_chosen_by_its_alias() {
    let dir = Scratch::new("use-readings");
    std::fs::write(dir.join("supplied.rules"), SUPPLIED).expect("write");
    let q = "ks.forage_packets(horses: 8)";
    let o = umpire_in(&dir, &["eval", "supplied.rules", q], "");
    assert_eq!(stdout(&o), "2\n", "{}", stderr(&o));
    let o = umpire_in(
        &dir,
        &[
            "eval",
            "supplied.rules",
            q,
            "--interpret",
            "ks.forage_part_six=fractions_rule",
        ],
        "",
    );
    assert_eq!(stdout(&o), "1\n", "{}", stderr(&o));
    let o = umpire_in(
        &dir,
        &["repl", "supplied.rules"],
        &format!(":interpret ks.forage_part_six=fractions_rule\n{q}\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.lines().any(|l| l == "1"), "{out}");
}

/// A game log's digest counts the files a ruleset uses: a changed used file is told by
/// `umpire replay`, as a changed base is.
#[test]
fn a_replay_notices_a_changed_used_file() {
    let dir = Scratch::new("use-replay");
    std::fs::write(dir.join("k.rules"), "rule bonus(n: Int) -> Int { n + 1 }\n").expect("write");
    std::fs::write(
        dir.join("house.rules"),
        "use \"k.rules\" as k\nrule r() -> Int { k.bonus(1) }\n",
    )
    .expect("write");
    let o = umpire_in(&dir, &["repl", "house.rules"], ":log game.log\nr()\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = umpire_in(&dir, &["replay", "game.log"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    // Only the used file changes: 1 + 2 is 3, where the log has 2.
    std::fs::write(dir.join("k.rules"), "rule bonus(n: Int) -> Int { n + 2 }\n").expect("write");
    let o = umpire_in(&dir, &["replay", "game.log"], "");
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let all = format!("{}{}", stdout(&o), stderr(&o));
    assert!(
        all.contains("has changed since the game was logged"),
        "{all}"
    );
    assert!(
        all.contains("the log has value 2, the replay gives value 3"),
        "{all}"
    );
}

#[test]
fn a_typed_record_of_a_used_ruleset_is_written_with_its_alias() {
    // `ks.Garrison { ... }` is the used ruleset's record, its default filled
    // (Kriegspiel's `last_horse_eaten_on: 0.. = 0`).
    let dir = Scratch::new("cli");
    std::fs::write(
        dir.join("u.rules"),
        "ruleset \"A\"\nuse \"kriegspiel\" as ks\nrule g() -> ks.Garrison { ks.Garrison { men: 30, horses: 2, food: 1, forage: 1 } }\n",
    )
    .expect("write");
    let o = umpire_in(&dir, &["eval", "u.rules", "g().last_horse_eaten_on"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert_eq!(stdout(&o), "0\n");
}

/// Two readings of one interpretation on the command line: the last would win without a
/// word, so it is a usage error (exit 2) naming both choices.
#[test]
fn interpret_twice_is_a_usage_error() {
    for cmd in ["eval", "prob"] {
        let o = umpire(&[
            cmd,
            "kriegspiel",
            "forage_packets(horses: 8)",
            "--interpret",
            "forage_part_six=fractions_rule",
            "--interpret",
            "forage_part_six=whole_packet",
        ]);
        assert_eq!(o.status.code(), Some(2), "{cmd}");
        let err = stderr(&o);
        assert!(
            err.contains("--interpret forage_part_six is chosen twice"),
            "{err}"
        );
        assert!(err.contains("forage_part_six=fractions_rule"), "{err}");
        assert!(err.contains("forage_part_six=whole_packet"), "{err}");
        assert!(stdout(&o).is_empty(), "{cmd}: no answer is given");
    }
}
