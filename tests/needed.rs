//! The errors of the question: a parameter declared `= needed` that a call leaves out and
//! the rule then reads (`umpire::eval::missing_argument`), and `instead CALL "reason"`
//! (`umpire::eval::ask_instead`). Neither is a refusal (a result: the rules forbid it) nor
//! "not given" (the source does not say): the question was asked wrongly, exit 1, in
//! every face. The ruleset is tests/needed/needed.rules, small and of its own.

mod common;

use common::{in_order, stderr, stdout, umpire, umpire_in, Scratch};
use umpire::Ruleset;

const RULES: &str = "tests/needed/needed.rules";

/// `umpire run` of a scenario of the needed.rules ruleset, in a scratch folder.
fn run_scenario(tag: &str, scenario: &str) -> std::process::Output {
    let dir = Scratch::new(tag);
    std::fs::copy(RULES, dir.path("needed.rules")).expect("copied");
    std::fs::write(dir.path("s.toml"), scenario).expect("written");
    umpire_in(std::path::Path::new(&dir.path("")), &["run", "s.toml"], "")
}

fn eval(expr: &str) -> std::process::Output {
    umpire(&["eval", RULES, expr])
}

#[test]
fn the_rulesets_examples_hold_the_new_forms() {
    let r = Ruleset::load(RULES).expect("loads");
    let results = r.run_examples();
    assert!(results.len() >= 13);
    for x in &results {
        assert!(x.failure.is_none(), "{}: {:?}", x.check, x.failure);
    }
}

/// `men` is read only by the embarking row: `action_time(artillery, unlimber)` answers.
#[test]
fn a_needed_parameter_not_read_changes_nothing() {
    let o = eval("action_time(artillery, unlimber)");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().next(), Some("2"));
}

#[test]
fn left_out_and_read_it_is_an_error_naming_the_call_and_parameter() {
    let o = eval("action_time(infantry, embark)");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::missing_argument",
            "action_time(infantry, embark) needs `men`: it is not given",
            "1 │ action_time(infantry, embark)",
            "asked here",
            "help: give it: action_time(infantry, embark, men: N)",
        ],
    );
    assert!(!stderr(&o).contains("refused"));
}

/// Read through a `let`, and passed on unread to another needed parameter: the outer
/// call's parameter is the one named.
#[test]
fn read_through_a_let_or_passed_on_the_outer_call_is_named() {
    let o = eval("guarded()");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &["guarded() needs `men`", "give it: guarded(men: N)"],
    );
    let o = eval("embark_twice(infantry)");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "embark_twice(infantry) needs `men`",
            "give it: embark_twice(infantry, men: N)",
        ],
    );
    // A length's example is written as a length.
    let o = eval("crossing_cost(marsh, infantry)");
    in_order(
        &stderr(&o),
        &["give it: crossing_cost(marsh, infantry, width: N\")"],
    );
}

#[test]
fn instead_names_the_question_as_asked_and_the_call_to_ask() {
    let o = eval("terrain_movement(marsh, infantry)");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).is_empty());
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::ask_instead",
            "terrain_movement(marsh, infantry): crossing this terrain costs inches",
            "asked here",
            "help: ask crossing_cost(marsh, infantry, width: …) instead",
        ],
    );
}

#[test]
fn as_json_each_is_an_error_object_as_other_eval_errors_are() {
    for (expr, code) in [
        (
            "action_time(infantry, embark)",
            "umpire::eval::missing_argument",
        ),
        (
            "terrain_movement(marsh, infantry)",
            "umpire::eval::ask_instead",
        ),
        ("7 / 0", "umpire::eval::division_by_zero"),
    ] {
        let o = umpire(&["eval", RULES, expr, "--format", "json"]);
        assert_eq!(o.status.code(), Some(1), "{expr}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("JSON");
        assert_eq!(v["error"][0]["code"], code, "{expr}");
        assert!(v.get("refused").is_none() && v.get("value").is_none());
    }
}

/// A missing argument is not an outcome with a probability: `prob` says the error.
#[test]
fn prob_refuses_a_question_asked_wrongly() {
    let o = umpire(&["prob", RULES, "action_time(infantry, embark) + d6"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains('%'), "{}", stdout(&o));
    in_order(&stderr(&o), &["umpire::eval::missing_argument", "give it:"]);
    let o = umpire(&["prob", RULES, "terrain_movement(marsh, artillery)"]);
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::ask_instead",
            "ask crossing_cost(marsh, artillery, width: …) instead",
        ],
    );
    // Answered, it has odds as ever.
    let o = umpire(&["prob", RULES, "action_time(infantry, embark, men: 30) + d6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

/// In the REPL: an error line, the session going on.
#[test]
fn the_repl_says_the_error_and_goes_on() {
    let dir = Scratch::new("needed-repl");
    let rules = common::repo(RULES);
    let o = umpire_in(
        std::path::Path::new(&dir.path("")),
        &["repl", &rules],
        "action_time(infantry, embark)\nterrain_movement(marsh, infantry)\naction_time(infantry, embark, men: 30)\n",
    );
    assert_eq!(o.status.code(), Some(1), "a script with an error exits 1");
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::missing_argument",
            "<input>:1:1",
            "umpire::eval::ask_instead",
        ],
    );
    // ceil(30 / 10) + 1 = 4
    assert!(
        stdout(&o).lines().any(|l| l.trim() == "4"),
        "{}",
        stdout(&o)
    );
}

#[test]
fn a_scenario_expects_them_by_name() {
    let o = umpire(&["run", "tests/needed/needed.toml", "--brief"]);
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    in_order(
        &stdout(&o),
        &[
            "as expected",
            "as expected",
            "3 adjudications: 3 as expected, 0 not as expected, 0 errors",
        ],
    );
    let o = run_scenario("needed-run", "ruleset = \"needed.rules\"\n\n[[adjudication]]\nname = \"wrong parameter\"\nexpr = 'action_time(infantry, embark)'\nexpect = 'missing width'\n\n[[adjudication]]\nname = \"no expectation\"\nexpr = 'terrain_movement(marsh, infantry)'\n");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stdout(&o),
        &["NOT AS EXPECTED: expected 'missing width'", "0 as expected"],
    );
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::missing_argument",
            "umpire::eval::ask_instead",
        ],
    );
}

#[test]
fn example_forms_fail_saying_what_came_instead() {
    let src = r#"
        table t(n: 1..3; men: 0.. = needed) -> Int { 1 => men  2 => 0  3 => instead u(men: 1) "ask u" }
        rule u(men: 0.., width: Int = needed) -> Int { men + width }
        example "wrong" {
          t(1) is missing width
          t(2) is missing men
          t(1) is asked instead u
          t(3) is missing men
          t(3) is asked instead t
        }
    "#;
    let r = Ruleset::from_source("t.rules", src).expect("checks");
    let results = r.run_examples();
    assert_eq!(results.len(), 5);
    let said: Vec<String> = results
        .iter()
        .map(|x| {
            let d = x.failure.as_ref().expect("each fails");
            format!("{} / {:?}", d.labels[0].1, d.help)
        })
        .collect();
    assert!(said[0].contains("gave the error umpire::eval::missing_argument: t(1) needs `men`"));
    assert!(said[0].contains("`width` is needed and not given"));
    assert!(said[1].starts_with("gave 0"), "{}", said[1]);
    assert!(said[2].contains("missing_argument"));
    assert!(
        said[3].contains("gave the error umpire::eval::ask_instead"),
        "{}",
        said[3]
    );
    assert!(
        said[4].contains("`t(...)` is to be asked instead"),
        "{}",
        said[4]
    );
}

#[test]
fn needed_anywhere_but_a_parameter_default_is_a_check_error() {
    for src in [
        "record R { x: Int = needed }",
        "const c: Int = needed",
        "rule f() -> Int { let n = needed\n n }",
    ] {
        let e = Ruleset::from_source("t.rules", src).expect_err("needed misplaced");
        let d = e.0.iter().find(|d| !d.warning).expect("an error");
        assert_eq!(d.code.as_str(), "umpire::check::unknown_name", "{src}");
        assert!(
            d.message
                .contains("`needed` may only be the default of a parameter"),
            "{src}: {}",
            d.message
        );
    }
}

#[test]
fn instead_is_checked_at_load_and_its_arguments_roll_no_dice() {
    let base = "enum T { a, b }\nrule cost(t: T, w: Length = needed) -> Length { w }\nrule roll_w() -> Length { d6 * 1\" }\n";
    let cases = [
        (
            "rule m(t: T) -> Int { instead cost(t, w: d6 * 1\") \"no\" }",
            "umpire::check::instead_dice",
        ),
        (
            "rule m(t: T) -> Int { instead cost(t, w: roll_w()) \"no\" }",
            "umpire::check::instead_dice",
        ),
        (
            "rule m(t: T) -> Int { instead cots(t) \"no\" }",
            "umpire::check::unknown_name",
        ),
        (
            "rule m(t: T) -> Int { instead cost(t, 2) \"no\" }",
            "umpire::check::type",
        ),
        (
            "rule m(t: T) -> Int { instead cost(t, x: 1\") \"no\" }",
            "umpire::check::argument",
        ),
    ];
    for (rule, code) in cases {
        let e = Ruleset::from_source("t.rules", &format!("{base}{rule}\n")).expect_err(rule);
        assert!(
            e.0.iter().any(|d| d.code.as_str() == code),
            "{rule}: {:?}",
            e.0.iter().map(|d| d.code.as_str()).collect::<Vec<_>>()
        );
    }
    // Its result type need not be the rule's: a Length asked instead of an Int.
    let ok = format!(
        "{base}rule m(t: T) -> Int {{ if t == a {{ 1 }} else {{ instead cost(t) \"no\" }} }}\n"
    );
    Ruleset::from_source("t.rules", &ok).expect("checks");
}

/// `needed` and `instead` are words only where they mean something: names elsewhere.
#[test]
fn needed_and_instead_stay_free_for_names() {
    let src = "rule f(needed: Int = 2) -> Int { needed + 1 }\nrule g(instead: Int) -> Int { instead * 2 }\nexample \"names\" { f() == 3\n g(instead: 2) == 4 }\n";
    let r = Ruleset::from_source("t.rules", src).expect("checks");
    assert!(r.run_examples().iter().all(|x| x.failure.is_none()));
}

/// The check of a ruleset's text alone: its errors, as `umpire check` shows them.
fn check_src(tag: &str, src: &str) -> (Option<i32>, String) {
    let dir = Scratch::new(tag);
    std::fs::write(dir.path("t.rules"), src).expect("written");
    let o = umpire_in(
        std::path::Path::new(&dir.path("")),
        &["check", "t.rules"],
        "",
    );
    (o.status.code(), stderr(&o))
}

/// (1) An `instead`'s arguments may not roll dice through a `let` (nor a `let` of a
/// `let` that rolls): the error is at the name in the arguments. A parameter, or a
/// `let` worked out without dice, is fine.
#[test]
fn instead_arguments_rolled_through_a_let_are_a_check_error() {
    let (code, err) = check_src(
        "needed-let-dice",
        "rule g(x: Int = needed) -> Int { x }\nrule h() -> Int {\n  let r = 1d6\n  instead g(r) \"rolled\"\n}\nrule k() -> Int {\n  let r = 1d6\n  let s = r + 1\n  instead g(s) \"rolled\"\n}\n",
    );
    assert_eq!(code, Some(1), "{err}");
    in_order(
        &err,
        &[
            "umpire::check::instead_dice",
            "the arguments of `instead g(...)` roll dice: this name is a `let` whose value rolls them",
            "4 │   instead g(r) \"rolled\"",
            "rolled by a `let`",
            "umpire::check::instead_dice",
            "9 │   instead g(s) \"rolled\"",
        ],
    );
    let (code, err) = check_src(
        "needed-let-fine",
        "rule g(x: Int = needed) -> Int { x }\nrule h(n: Int) -> Int {\n  let r = n + 1\n  instead g(r) \"worked out\"\n}\n",
    );
    assert_eq!(code, Some(0), "{err}");
}

/// (2) An `instead` that names the definition it is in, or holds another `instead` in its
/// arguments; (3) one in a constant or a record field's default.
#[test]
fn instead_in_itself_in_another_or_in_a_constant_is_a_check_error() {
    let (code, err) = check_src(
        "needed-instead-places",
        "rule g(x: Int = needed) -> Int { x }\nrule f(x: Int) -> Int { instead f(x) \"again\" }\nrule k(x: Int) -> Int { instead g(instead f(x) \"no\") \"again\" }\nconst c: Int = instead g(1) \"c\"\nrecord R { a: Int = instead g(2) \"d\" }\n",
    );
    assert_eq!(code, Some(1), "{err}");
    in_order(
        &err,
        &[
            "umpire::check::instead",
            "`instead f(...)` is inside `f` itself",
            "names the definition it is in",
            "umpire::check::instead",
            "an `instead f(...)` is inside the arguments of `instead g(...)`",
            "umpire::check::instead",
            "`instead g(...)` is in the constant `c`",
            "umpire::check::instead",
            "`instead g(...)` is in the default of `R.a`",
        ],
    );
}

/// (4) A needed parameter a call written in the ruleset leaves out: the ruleset's to
/// mend, pointed at in the ruleset, the question in the help. Not an error of the
/// question, so an example's `is missing extra` does not hold.
#[test]
fn a_ruleset_call_leaving_a_needed_parameter_out_is_the_rulesets_error() {
    let dir = Scratch::new("needed-ruleset-call");
    std::fs::write(
        dir.path("d.rules"),
        "enum K { a, b }\nmodifiers drm(k: K, extra: Int = needed) {\n  \"a\" +1 if k == a\n  \"extra\" +extra\n}\nrule roll(k: K) -> Int { 1d6 + drm(k) }\n",
    )
    .expect("written");
    std::fs::write(
        dir.path("u.rules"),
        "ruleset \"U\"\nuse \"kriegspiel\" as ks\nrule boats() -> Time { ks.action_time(infantry, embark) }\n",
    )
    .expect("written");
    let here = dir.path("");
    let at = std::path::Path::new(&here);
    let o = umpire_in(at, &["eval", "d.rules", "roll(a)", "--roll", "3"], "");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "umpire::eval::missing_argument",
            "`roll` calls `drm(k)` without `extra`, which `drm` needs here: the ruleset must give it",
            "d.rules:6:32",
            "this call leaves it out",
            "`roll(a)` cannot be answered until `roll` gives it: write `drm(k, extra: N)` in the",
        ],
    );
    assert!(!stderr(&o).contains("asked here"), "{}", stderr(&o));
    let o = umpire_in(at, &["eval", "u.rules", "boats()"], "");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "`boats` calls `ks.action_time(infantry, embark)` without `men`, which",
            "u.rules:3:24",
            "this call leaves it out",
        ],
    );
    // The question's own call still names what to give.
    let o = umpire_in(at, &["eval", "d.rules", "drm(a)"], "");
    in_order(
        &stderr(&o),
        &[
            "drm(a) needs `extra`: it is not given",
            "asked here",
            "give it: drm(a, extra: N)",
        ],
    );
}

/// (5) JSON errors carry the help, and the parameter or the call to ask; `--each` keeps
/// the members answered before the error.
#[test]
fn json_errors_carry_the_help_and_what_is_named() {
    let json = |o: &std::process::Output| -> serde_json::Value {
        serde_json::from_str(stdout(o).trim()).expect("json")
    };
    let o = umpire(&[
        "eval",
        RULES,
        "terrain_movement(marsh, infantry)",
        "--format",
        "json",
    ]);
    let e = &json(&o)["error"][0];
    assert_eq!(e["code"], "umpire::eval::ask_instead");
    assert_eq!(
        e["help"],
        "ask crossing_cost(marsh, infantry, width: …) instead"
    );
    assert_eq!(e["instead"], "crossing_cost(marsh, infantry, width: …)");
    let o = umpire(&[
        "eval",
        RULES,
        "action_time(infantry, embark)",
        "--format",
        "json",
    ]);
    let e = &json(&o)["error"][0];
    assert_eq!(e["parameter"], "men");
    assert_eq!(e["help"], "give it: action_time(infantry, embark, men: N)");
    let o = umpire(&[
        "prob",
        RULES,
        "action_time(infantry, embark)",
        "--format",
        "json",
    ]);
    assert_eq!(json(&o)["error"][0]["parameter"], "men");
    let o = umpire(&["run", "tests/needed/needed.toml", "--format", "json"]);
    let a = &json(&o)["adjudications"];
    assert_eq!(a[0]["error"]["parameter"], "men");
    assert_eq!(
        a[0]["error"]["help"],
        "give it: action_time(infantry, embark, men: N)"
    );
    assert_eq!(
        a[1]["error"]["instead"],
        "crossing_cost(marsh, infantry, width: …)"
    );
    // The Kriegspiel's field: hussars and guns are not infantry (1 move each), then
    // first_foot embarks without `men`.
    let o = umpire(&[
        "eval",
        "kriegspiel",
        "if b.arm == infantry { action_time(b.arm, embark) } else { 1 move }",
        "--each",
        "b=bodies",
        "--state",
        "examples/states/kriegspiel_field.toml",
        "--format",
        "json",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let j = json(&o);
    assert_eq!(j["each"][0]["member"], "hussars");
    assert_eq!(j["each"][1]["member"], "guns");
    assert_eq!(j["each"].as_array().map(Vec::len), Some(2));
    assert_eq!(j["error"][0]["member"], "first_foot");
    assert_eq!(j["error"][0]["parameter"], "men");
    assert!(stderr(&o).contains("umpire::eval::missing_argument"));
}

/// (6) Malformed `instead`s and example forms say what to write.
#[test]
fn malformed_forms_say_what_to_write() {
    for body in ["instead g(x)", "instead g \"r\"", "instead 3 \"r\""] {
        let (code, err) = check_src(
            "needed-bad-instead",
            &format!("rule g(x: Int) -> Int {{ x }}\nrule h(x: Int) -> Int {{\n  {body}\n}}\n"),
        );
        assert_eq!(code, Some(1), "{err}");
        in_order(
            &err,
            &[
                "umpire::parse::syntax",
                "`instead` takes a call and the reason in quotes: instead crossing_cost(terrain, mover) \"...\"",
                &format!("3 │   {body}"),
            ],
        );
    }
    // A name `instead` stays free.
    let (code, err) = check_src(
        "needed-instead-name",
        "rule h(instead: Int) -> Int { instead + 1 }\n",
    );
    assert_eq!(code, Some(0), "{err}");
    for form in [
        "g(1) is missing",
        "g(1) is asked instead",
        "g(1) is asked",
        "g(1) is asked instead 3",
        "g(1) is asked instead g(1)",
    ] {
        let (code, err) = check_src(
            "needed-bad-form",
            &format!("rule g(x: Int = needed) -> Int {{ x }}\nexample \"e\" {{\n  {form}\n  g(2) == 2\n}}\n"),
        );
        assert_eq!(code, Some(1), "{err}");
        in_order(
            &err,
            &[
                "umpire::parse::syntax",
                "an example expects an error of the question as `is missing NAME`",
                "`is asked instead RULE`",
            ],
        );
    }
}

/// (7) An example's `is missing z` with no needed `z` anywhere, `is asked instead nosuch`
/// with no such rule: errors at load. A scenario's malformed `expect`: an error at it.
#[test]
fn expectations_naming_nothing_are_errors_at_load_and_in_a_scenario() {
    let (code, err) = check_src(
        "needed-names",
        "rule g(x: Int = needed, y: Int = 1) -> Int { x + y }\nexample \"e\" {\n  g(1) is missing z\n  g(1) is missing y\n  g(1) is asked instead nosuch\n}\n",
    );
    assert_eq!(code, Some(1), "{err}");
    in_order(
        &err,
        &[
            "`is missing z` can never hold: no rule, table or modifier list has a parameter `z`",
            "`is missing y` can never hold: no rule, table or modifier list has a parameter `y` declared",
            "`is asked instead nosuch` can never hold: there is no rule, table or modifier list",
        ],
    );
    let o = run_scenario("needed-bad-expect", "ruleset = \"needed.rules\"\n\n[[adjudication]]\nname = \"two\"\nexpr = 'action_time(infantry, embark)'\nexpect = 'missing y z'\n\n[[adjudication]]\nname = \"none\"\nexpr = 'terrain_movement(marsh, infantry)'\nexpect = 'asked instead'\n\n[[adjudication]]\nname = \"bare\"\nexpr = 'action_time(artillery, unlimber)'\nexpect = 'missing'\n");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "umpire::scenario::expect_type",
            "`expect = 'missing NAME'` names one parameter",
            "6 │ expect = 'missing y z'",
            "`expect = 'asked instead RULE'` names one rule or table",
            "11 │ expect = 'asked instead'",
            "`expect = 'missing NAME'` names one parameter",
            "16 │ expect = 'missing'",
        ],
    );
    assert!(stdout(&o).contains("0 as expected, 0 not as expected, 3 errors"));
}

/// (8) An empty group: the help says the state gives no members; `--each` over it says
/// there is nothing to ask, on stderr, and exits 0.
#[test]
fn an_empty_group_says_so() {
    let dir = Scratch::new("needed-empty-group");
    std::fs::write(dir.path("s.toml"), "move = 1\n[sides.a]\nfree = 19\n").expect("written");
    let here = dir.path("");
    let at = std::path::Path::new(&here);
    let o = umpire_in(
        at,
        &[
            "eval",
            "little_wars",
            "guns.b_gun.side",
            "--state",
            "s.toml",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("`guns` has no members in the state (the state file gives none)"),
        "{}",
        stderr(&o)
    );
    for format in ["text", "json"] {
        let o = umpire_in(
            at,
            &[
                "eval",
                "little_wars",
                "g.side",
                "--each",
                "g=guns",
                "--state",
                "s.toml",
                "--format",
                format,
            ],
            "",
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        assert!(
            stderr(&o).contains("`guns` has no members: nothing to ask"),
            "{}",
            stderr(&o)
        );
        if format == "json" {
            assert_eq!(stdout(&o).trim(), "{\"each\":[]}");
        }
    }
}

/// (9) Rolls given to a question refused before any die was rolled: the help says none
/// was used; `:apply` after a result without effects says so.
#[test]
fn rolls_never_used_and_apply_without_effects_say_so() {
    let o = umpire(&[
        "eval",
        "furious_reason",
        "crossing_cost(marsh, cavalry, width: 3\")",
        "--roll",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stderr(&o),
        &[
            "umpire::dice::refused_unrolled",
            "refused: Roads Only",
            "the rule refused before any die was rolled, so none of the rolls given was used",
        ],
    );
    assert!(
        !stderr(&o).contains("answer what it asks"),
        "{}",
        stderr(&o)
    );
    let dir = Scratch::new("needed-apply");
    let o = umpire_in(
        std::path::Path::new(&dir.path("")),
        &[
            "repl",
            "little_wars",
            "--state",
            &common::repo("examples/states/little_wars_table.toml"),
        ],
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n:apply\n1 + 1\n:apply\n",
    );
    assert!(
        stderr(&o).contains("the last result, `1 + 1`, has no effects to apply (those of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` are applied already)"),
        "{}",
        stderr(&o)
    );
}

/// A house rule may give a base's needed parameter a default: the base's examples that
/// expect it missing then fail under `test`, naming the example to override, and never
/// stop the house rule loading (a check error there would lose the whole ruleset).
#[test]
fn a_house_rule_giving_a_needed_parameter_a_default_loads() {
    let house = "ruleset \"hx\" extends \"furious_reason\"\noverride table crossing_cost(terrain: Terrain, mover: Mover; width: 0\"..6\" = 1\", on_road: Bool = false, at_bridge_or_ford: Bool = false) -> Length {\n  marsh | _ => width\n  otherwise => 0\"\n}\n";
    let dir = Scratch::new("needed-house");
    std::fs::write(dir.path("hx.rules"), house).expect("written");
    let here_buf = dir.path("");
    let here = std::path::Path::new(&here_buf);
    // The house marsh costs its width, 1" unless given.
    let o = umpire_in(
        here,
        &["eval", "hx.rules", "crossing_cost(marsh, infantry)"],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "1\"\n");
    let o = umpire_in(here, &["test", "hx.rules"], "");
    assert_eq!(o.status.code(), Some(1));
    in_order(
        &stdout(&o),
        &["FAILED hx.rules: terrain: costs in inches — crossing_cost(marsh, infantry) is missing width"],
    );
    assert!(
        stderr(&o).contains("write `override example \"terrain: costs in inches\"")
            || stdout(&o).contains("write `override example \"terrain: costs in inches\""),
        "{}{}",
        stdout(&o),
        stderr(&o)
    );
}

/// `supplied(NAME)` looks at a needed parameter without reading it: Furious Reason's
/// heavy guns print one rate a cell ("Heavy Field 10\" 15\" 1\""), so they answer without
/// `horse`, and heavy guns asked as horse artillery are still refused.
#[test]
fn supplied_looks_at_a_needed_parameter_without_reading_it() {
    let r = Ruleset::bundled("furious_reason").expect("bundled");
    let ask = |expr: &str| {
        let q = r.question("<t>", expr).expect("checks");
        r.adjudicate(&q, &mut umpire::dice::Given::new(vec![]), r.options())
            .map(|a| umpire::render::headline(&r.program, &a.outcome))
            .map_err(|d| d.code.as_str().to_string())
    };
    assert_eq!(ask("artillery_rate(heavy, road)"), Ok("15\"".into()));
    assert_eq!(
        ask("artillery_rate(heavy, road, horse: false)"),
        Ok("15\"".into())
    );
    assert!(ask("artillery_rate(heavy, road, horse: true)").is_ok_and(|h| h.starts_with("refused")));
    assert_eq!(
        ask("artillery_rate(light, road)"),
        Err("umpire::eval::missing_argument".into())
    );
    // `supplied` takes one bare name.
    let e = Ruleset::from_source(
        "t.rules",
        "rule f(x: Int = needed) -> Bool { supplied(x + 1) }\n",
    )
    .expect_err("not a name");
    assert_eq!(e.0[0].code.as_str(), "umpire::check::argument");
    let r = Ruleset::from_source(
        "t.rules",
        "rule f(x: Int = needed) -> Bool { supplied(x) }\n",
    )
    .expect("checks");
    for (expr, want) in [("f()", "false"), ("f(3)", "true")] {
        let q = r.question("<t>", expr).expect("checks");
        let a = r
            .adjudicate(&q, &mut umpire::dice::Given::new(vec![]), r.options())
            .expect("answers");
        assert_eq!(
            umpire::render::headline(&r.program, &a.outcome),
            want,
            "{expr}"
        );
    }
}
