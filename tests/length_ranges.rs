//! Ranges of lengths (`width: 0"..`, `bank: 1/2"..12'`): checked where whole-number
//! ranges are — at each call, in a state file at load, at a `set` — with the same codes
//! and the same kind of message. The ruleset is `tests/length_ranges/ranges.rules`.

mod common;

use common::{stderr, stdout, umpire};

const RULES: &str = "tests/length_ranges/ranges.rules";

/// Runs `umpire eval RULES EXPR` (with a state file, if given): exit code, stdout, stderr.
fn eval(state: Option<&str>, expr: &str) -> (i32, String, String) {
    let mut args = vec!["eval", RULES];
    if let Some(s) = state {
        args.extend(["--state", s]);
    }
    args.push(expr);
    let o = umpire(&args);
    (o.status.code().unwrap_or(-1), stdout(&o), stderr(&o))
}

#[test]
fn the_ruleset_checks_and_its_examples_pass() {
    let o = umpire(&["test", RULES]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("3 passed, 0 failed"), "{}", stdout(&o));
}

/// A written-out length outside the range is an error of the question before anything is
/// adjudicated, naming the parameter, the value and the range; exit 1.
#[test]
fn a_negative_width_written_out_is_refused_by_name() {
    let (code, out, err) = eval(None, "crossing_cost(-2\")");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("umpire::check::range"), "{err}");
    assert!(
        err.contains("`width` must be 0\" or more, but is -2\""),
        "{err}"
    );
}

/// `bank: 1/2"..12'`: 13 feet is past the upper end; 12 feet and 1/2" are the ends.
#[test]
fn a_bounded_length_range_takes_its_ends_and_nothing_past_them() {
    let (code, _, err) = eval(None, "crossing_cost(2\", bank: 13')");
    assert_eq!(code, 1);
    assert!(
        err.contains("`bank` must be 1/2\"..12', but is 13'"),
        "{err}"
    );
    // Half of 2" is 1", and the bank of 12' (144") makes 145" (a sum of inches and
    // feet is in inches: docs §2.2).
    let (code, out, err) = eval(None, "crossing_cost(2\", bank: 12')");
    assert_eq!((code, out.trim()), (0, "145\""), "{err}");
    // Half of 2" is 1", and the bank of 1/2" makes 1 1/2".
    let (code, out, err) = eval(None, "crossing_cost(2\", bank: 1/2\")");
    assert_eq!((code, out.trim()), (0, "1 1/2\""), "{err}");
}

/// A length worked out to below the range is caught when the call is made: the
/// evaluator's range error, as for a whole number (`umpire::eval::range`).
#[test]
fn a_computed_length_outside_the_range_is_an_error_of_the_question() {
    let (code, out, err) = eval(None, "crossing_cost(1\" - 3\")");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("umpire::eval::range"), "{err}");
    assert!(
        err.contains("`width` must be 0\" or more, got -2\""),
        "{err}"
    );
}

/// A record field's range: `depth: 0"..1' 6"` takes no 2'.
#[test]
fn a_record_field_outside_its_range_is_refused() {
    let (code, _, err) = eval(None, "wade({ width: 1\", depth: 2' })");
    assert_eq!(code, 1);
    assert!(
        err.contains("field `depth` of Stream must be 0\"..1' 6\", but is 2'"),
        "{err}"
    );
}

/// A state file whose stream is -1" wide: refused at load, pointing at the value.
#[test]
fn a_state_file_length_outside_its_range_is_refused_at_load() {
    let (code, out, err) = eval(
        Some("tests/length_ranges/bad_state.toml"),
        "wade(streams.ford)",
    );
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("umpire::state::range"), "{err}");
    assert!(
        err.contains("`width` must be 0\" or more, but is -1\""),
        "{err}"
    );
    assert!(err.contains("width = '-1\"'"), "{err}");
    // The good file: 3" wide and 1/2" deep, 3 1/2" to wade.
    let (code, out, err) = eval(Some("tests/length_ranges/state.toml"), "wade(streams.ford)");
    assert_eq!((code, out.trim()), (0, "3 1/2\""), "{err}");
}

/// `marched: 0"..` is 2" in the state: marching back 2" makes it 0" (the lowest it may
/// be); marching back 3" would make it -1", which the `set` refuses.
#[test]
fn a_set_that_would_take_a_length_out_of_its_range_is_refused() {
    let state = Some("tests/length_ranges/state.toml");
    let (code, out, err) = eval(state, "march(-2\")");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("marched: 2\" → 0\""), "{out}");
    let (code, out, err) = eval(state, "march(-3\")");
    assert_eq!(code, 1);
    assert_eq!(out, "");
    assert!(err.contains("umpire::eval::range"), "{err}");
    assert!(
        err.contains(
            "`marched` is 2\": adding -3\" would make it -1\", and it must be 0\" or more"
        ),
        "{err}"
    );
}

/// `= needed` on a ranged length: leaving it out is the missing-argument error, not a
/// range error.
#[test]
fn a_needed_ranged_length_left_out_is_missing() {
    let (code, _, err) = eval(None, "may_need()");
    assert_eq!(code, 1);
    assert!(err.contains("umpire::eval::missing_argument"), "{err}");
    let (code, _, err) = eval(None, "may_need(width: -1\")");
    assert_eq!(code, 1);
    assert!(err.contains("`width` must be 0\" or more"), "{err}");
}

/// The REPL's `:rules` prints each range as written.
#[test]
fn rules_listing_prints_length_ranges_as_written() {
    let o = common::umpire_in(common::root(), &["repl", RULES], ":rules\n");
    let out = stdout(&o);
    assert!(
        out.contains("rule crossing_cost(width: 0\".., bank: 1/2\"..12' = …) -> Length"),
        "{out}"
    );
    assert!(
        out.contains("rule may_need(width: 0\".. = needed) -> Length"),
        "{out}"
    ); // Written in feet below a foot, printed in feet; a negative end as written.
    assert!(
        out.contains("rule pace(step: 1/2'..1' = …) -> Length"),
        "{out}"
    );
    assert!(out.contains("rule drift(by: -6\"..6\") -> Length"), "{out}");
}

/// `by: -6"..6"`: a range may run below zero; -6" is its lower end, -7" is past it.
#[test]
fn a_range_may_have_a_negative_end() {
    let (code, out, err) = eval(None, "drift(-6\")");
    assert_eq!((code, out.trim()), (0, "-6\""), "{err}");
    let (code, _, err) = eval(None, "drift(-7\")");
    assert_eq!(code, 1);
    assert!(err.contains("`by` must be -6\"..6\", but is -7\""), "{err}");
    // `pace(step: 1/2'..1')`: 2' is past the upper end, said in the units written.
    let (code, _, err) = eval(None, "pace(step: 2')");
    assert_eq!(code, 1);
    assert!(err.contains("`step` must be 1/2'..1', but is 2'"), "{err}");
}

/// A plain number where a length is wanted is one error, of its kind ("expects a
/// length"), never also "out of range" (`2` is not below 0").
#[test]
fn a_number_without_its_unit_is_a_type_error_only() {
    let (code, _, err) = eval(None, "crossing_cost(2)");
    assert_eq!(code, 1);
    assert!(err.contains("umpire::check::type"), "{err}");
    assert!(!err.contains("umpire::check::range"), "{err}");
    assert!(!err.contains("must be 0\" or more"), "{err}");
}
