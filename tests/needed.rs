//! The errors of the question: a parameter declared `= needed` that a call leaves out and
//! the rule then reads (`umpire::eval::missing_argument`), and `instead CALL "reason"`
//! (`umpire::eval::ask_instead`). Neither is a refusal (a result: the rules forbid it) nor
//! "not given" (the source does not say): the question was asked wrongly, exit 1, in
//! every face. The ruleset is tests/needed/needed.rules, small and of its own.

mod common;

use common::{in_order, stderr, stdout, umpire, umpire_in, Scratch};
use umpire::Ruleset;

const RULES: &str = "tests/needed/needed.rules";

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
    let dir = Scratch::new("needed-run");
    std::fs::copy(RULES, dir.path("needed.rules")).expect("copied");
    let scenario = "ruleset = \"needed.rules\"\n\n[[adjudication]]\nname = \"wrong parameter\"\nexpr = 'action_time(infantry, embark)'\nexpect = 'missing width'\n\n[[adjudication]]\nname = \"no expectation\"\nexpr = 'terrain_movement(marsh, infantry)'\n";
    std::fs::write(dir.path("s.toml"), scenario).expect("written");
    let o = umpire_in(std::path::Path::new(&dir.path("")), &["run", "s.toml"], "");
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
        rule u(men: 0..) -> Int { men }
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
