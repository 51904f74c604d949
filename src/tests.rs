//! Limits and readings are given, not kept per thread or in the checked program.

use crate::adjudication::Outcome;
use crate::diagnostic::Code;
use crate::dice::Given;
use crate::eval::Options;
use crate::limits::Limits;
use crate::value::Value;
use crate::Ruleset;
use std::rc::Rc;

/// The headline of adjudicating `expr` against `rules` with its own options, each die
/// rolled showing 3 (an error's code when it fails).
fn answer(rules: &mut Ruleset, expr: &str) -> Result<String, Code> {
    let dice = expr
        .split_once('d')
        .map_or(0, |(n, _)| n.parse().unwrap_or(0));
    let q = rules
        .question("<test>", expr)
        .map_err(|ds| ds.0.first().map_or(Code::TestFailed, |d| d.code))?;
    let a = rules
        .adjudicate(&q, &mut Given::new(vec![3; dice]), rules.options())
        .map_err(|d| d.code)?;
    Ok(crate::render::headline(&rules.program, &a.outcome))
}

#[test]
fn two_rulesets_on_one_thread_each_keep_the_limits_they_were_loaded_with() {
    let few = Limits {
        dice_per_roll: 10,
        dice: 5,
        file_bytes: 100,
        ..Limits::default()
    };
    let mut small = Ruleset::load_with(
        "kriegspiel",
        &Limits {
            file_bytes: u64::MAX,
            ..few
        },
    )
    .expect("loads");
    let mut plain = Ruleset::load("kriegspiel").expect("loads");
    // Interleaved on one thread: each question is checked and adjudicated within its
    // own ruleset's limits, whichever was loaded last.
    assert_eq!(answer(&mut small, "20d6"), Err(Code::LimitDice));
    assert_eq!(answer(&mut plain, "20d6"), Ok("60".into()));
    assert_eq!(
        answer(&mut small, "6d6"),
        Err(Code::LimitDice),
        "6 dice > 5"
    );
    assert_eq!(answer(&mut plain, "6d6"), Ok("18".into()));
    assert_eq!(answer(&mut small, "4d6"), Ok("12".into()));
    // The file-size limit is the loader's: the same text loads under one and not the
    // other.
    let text = format!(
        "# {}\nruleset \"t\"\n",
        "a comment longer than 100 bytes ".repeat(4)
    );
    let refused = Ruleset::from_source_with("t.rules", &text, &few).expect_err("too big");
    assert_eq!(refused.0.first().map(|d| d.code), Some(Code::LimitFileSize));
    assert!(Ruleset::from_source("t.rules", &text).is_ok());
    // An evaluation's own options: the default is the default limits, whatever else
    // was loaded on this thread.
    assert_eq!(Options::default().limits, Limits::default());
    let q = plain.question("<test>", "6d6").expect("checks");
    let tight = Options {
        limits: few,
        ..plain.options()
    };
    let err = plain
        .adjudicate(&q, &mut Given::new(vec![1; 6]), tight)
        .expect_err("6 dice > 5");
    assert_eq!(err.code, Code::LimitDice);
    let a = plain
        .adjudicate(&q, &mut Given::new(vec![1; 6]), Options::default())
        .expect("within the default limits");
    assert!(matches!(a.outcome, Outcome::Value(Value::Int(6))));
}

#[test]
fn an_example_pinning_a_reading_leaves_the_rulesets_own_reading() {
    // Kriegspiel's example "forage, read with the infantry's fractions rule" pins
    // `forage_part_six = fractions_rule`; the default reading is `whole_packet`.
    let mut rules = Ruleset::bundled("kriegspiel").expect("loads");
    let before = answer(&mut rules, "forage_packets(14)");
    assert_eq!(before, Ok("3".into()), "whole packets: ceil(14 / 6)");
    let failures: Vec<_> = rules
        .run_examples()
        .into_iter()
        .filter_map(|r| r.failure.map(|d| format!("{}: {}", r.example, d.message)))
        .collect();
    assert!(failures.is_empty(), "{failures:?}");
    assert!(
        rules.readings.is_empty(),
        "no reading chosen for the ruleset"
    );
    assert_eq!(answer(&mut rules, "forage_packets(14)"), before);
    // A reading the ruleset chose stays chosen, and the example still goes by its own.
    rules
        .interpret("forage_part_six", "whole_sixes_only")
        .expect("a reading");
    let chosen = rules.readings.clone();
    let pinned = "forage, read with the infantry's fractions rule";
    let results = rules.run_examples();
    let of_pinned: Vec<_> = results.iter().filter(|r| r.example == pinned).collect();
    assert!(!of_pinned.is_empty(), "the example is there");
    assert!(of_pinned.iter().all(|r| r.failure.is_none()));
    assert_eq!(rules.readings, chosen);
    assert_eq!(answer(&mut rules, "forage_packets(14)"), Ok("2".into()));
    assert_eq!(answer(&mut rules, "forage_packets(17)"), Ok("2".into()));
}

/// Questions and state files leave the ruleset as it was: its sources stay its own
/// files (they grew by one file per question and per state file before).
#[test]
fn questions_and_states_do_not_grow_the_ruleset() {
    let mut rules = Ruleset::bundled("furious_reason").expect("bundled ruleset checks");
    let own = rules.sources.files().len();
    assert_eq!(own, 1);
    let shared = Rc::clone(&rules.program);
    for i in 0..1000 {
        let q = rules
            .question("<test>", &format!("{} + 1", i % 7))
            .expect("checks");
        // The question's own text lives with it, after the ruleset's files.
        assert_eq!(q.sources.files().len(), own + 1);
        rules
            .load_state("examples/states/furious_reason_brigade.toml")
            .expect("state loads");
    }
    assert_eq!(rules.sources.files().len(), own);
    // Nothing copied the program either: it is still the one shared above.
    assert!(Rc::ptr_eq(&shared, &rules.program));
}

/// A question's mistake is still drawn from its own text.
#[test]
fn a_questions_diagnostic_has_its_source() {
    let rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
    let e = rules.question("<q>", "1 +").expect_err("a syntax error");
    let d = e.0.first().expect("one diagnostic");
    assert!(d
        .span()
        .is_some_and(|s| s.file.0 as usize == rules.sources.files().len()));
    let drawn = crate::diagnostic::render(d, false);
    assert!(drawn.contains("<q>:1:"), "{drawn}");
    assert!(drawn.contains("1 +"), "{drawn}");
}

/// Furious Reason's manoeuvre, "D10 + manoeuvre_drm(u)": the roll records the die roll
/// modifiers' total and the modified roll (Guard +2, CP 2, rear support +1 = +5; a 3
/// makes 8, Well Handled), worked out in the same steps, with the same trace, as a sum
/// that is not a roll's (`1 x D10` is a product, not a dice term) — two steps more for
/// the `1 x`.
#[test]
fn a_roll_summed_with_its_modifiers_records_the_modified_roll_and_nothing_else_changes() {
    let mut rules = Ruleset::load("furious_reason").expect("bundled");
    rules
        .load_state("examples/states/furious_reason_brigade.toml")
        .expect("the brigade");
    let run = |rules: &Ruleset, expr: &str| {
        let q = rules.question("<test>", expr).expect("checks");
        let opts = Options {
            trace: true,
            ..rules.options()
        };
        rules
            .adjudicate(&q, &mut Given::new(vec![3]), opts)
            .expect("adjudicates")
    };
    let unit = "brigade.guard_grenadiers";
    let a = run(&rules, &format!("D10 + manoeuvre_drm({unit}) - 1"));
    assert_eq!(a.outcome, Outcome::Value(Value::int(7)));
    let r = &a.rolls[0];
    let n = |i: i64| crate::value::Rational::from_integer(i);
    assert_eq!(r.modifiers, [n(5), n(-1)]);
    assert_eq!(r.modified, Some(n(7)));
    assert_eq!(crate::render::rolls_text(&a.rolls), "D10 → 3, +5, -1 = 7");
    let plain = run(&rules, &format!("1 x D10 + manoeuvre_drm({unit}) - 1"));
    assert_eq!(plain.outcome, a.outcome);
    assert_eq!(plain.rolls[0].modified, None, "not a dice term summed");
    assert_eq!(plain.steps, a.steps + 2);
    let explained = |t: &Option<Vec<crate::adjudication::TraceNode>>| {
        crate::render::explain(&rules.program, t.as_deref().unwrap_or_default())
    };
    assert_eq!(explained(&plain.trace), explained(&a.trace));
    assert!(explained(&a.trace).contains("rolled D10: 3"));
    // The rule itself: its roll read out as the scenario's worked example reads it.
    let m = run(&rules, &format!("manoeuvre({unit})"));
    assert_eq!(crate::render::rolls_text(&m.rolls), "D10 → 3, +5 = 8");
    // A roll with no modifier list in the sum is not a modified roll.
    let bare = run(&rules, "D10 + 1");
    assert_eq!(crate::render::rolls_text(&bare.rolls), "D10 → 3");
}

// A state saved as the state file it was loaded from, edited (`state/edit.rs`).

const EDIT_RULES: &str = r#"
ruleset "T"
enum Grade { line, guard }
record Unit { grade: Grade, men: 0.. = 10, shaken: Bool = false }
state { turn: 1.. = 1, ratio: Num = 0, units: group of Unit }
"#;

fn edit_rules() -> Ruleset {
    Ruleset::from_source("t.rules", EDIT_RULES).expect("the test ruleset")
}

fn read_state(r: &Ruleset, text: &str) -> crate::value::Value {
    crate::state::load_text(&r.program, &r.sources, "s.toml", text.to_string())
        .expect("the state fits")
}

const FILE: &str = "# The table before the fight.\nturn = 3 # the third turn\nratio = \"3/4\"\n\n# Our side.\n[units.a]\ngrade = \"line\"   # steady\nmen = 12\n\n[units.b]\ngrade = 'guard'\n";

#[test]
fn an_unchanged_state_is_written_as_the_file_was() {
    let r = edit_rules();
    let s = read_state(&r, FILE);
    let out = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.toml", Some(FILE));
    assert_eq!(out, FILE);
}

#[test]
fn a_changed_value_is_replaced_in_place_with_its_comment() {
    let r = edit_rules();
    let changed = FILE
        .replace("men = 12", "men = 7")
        .replace("turn = 3 ", "turn = 4 ");
    let changed = format!("{changed}\n[units.c]\ngrade = \"line\"\n");
    let s = read_state(&r, &changed);
    // Loaded from FILE, changed to `s`: FILE edited.
    let out = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.toml", Some(FILE));
    assert!(out.starts_with("# The table before the fight.\nturn = 4 # the third turn\nratio = \"3/4\"\n\n# Our side.\n[units.a]\ngrade = \"line\"   # steady\nmen = 7\n"), "{out}");
    assert!(out.contains("[units.b]\ngrade = 'guard'\n"), "{out}");
    // A member new to the state is added; the defaults it takes are written out.
    assert!(
        out.contains("[units.c]\ngrade = \"line\"\nmen = 10\nshaken = false\n"),
        "{out}"
    );
    assert_eq!(read_state(&r, &out), s);
}

#[test]
fn a_member_gone_from_the_state_is_removed() {
    let r = edit_rules();
    let without = FILE
        .split("[units.b]")
        .next()
        .unwrap_or_default()
        .to_string();
    let s = read_state(&r, &without);
    let out = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.toml", Some(FILE));
    assert!(!out.contains("units.b"), "{out}");
    assert!(out.contains("# Our side.\n[units.a]"), "{out}");
    assert_eq!(read_state(&r, &out), s);
}

#[test]
fn json_or_no_loaded_file_is_written_anew() {
    let r = edit_rules();
    let s = read_state(&r, FILE);
    let json = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.json", Some(FILE));
    assert!(json.trim_start().starts_with('{'));
    let fresh = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.toml", None);
    assert!(!fresh.contains('#'));
    assert_eq!(read_state(&r, &fresh), s);
}

#[test]
fn minutes_in_a_state_file_are_written_as_text_and_read_back() {
    let r = Ruleset::from_source(
        "t.rules",
        "ruleset \"T\"\nstate { clock: Minutes = 0 minutes, left: Minutes }\n",
    )
    .expect("the test ruleset");
    let file = "clock = \"7 minutes\"\nleft = \"1 1/2 minutes\"\n";
    let s = read_state(&r, file);
    let minutes = |n, d| Value::Minutes(crate::value::Rational::new(n, d));
    assert_eq!(s.field("clock"), Some(&minutes(7, 1)));
    assert_eq!(s.field("left"), Some(&minutes(3, 2)));
    let fresh = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.toml", None);
    assert!(fresh.contains("clock = \"7 minutes\""), "{fresh}");
    assert!(fresh.contains("left = \"1 1/2 minutes\""), "{fresh}");
    assert_eq!(read_state(&r, &fresh), s);
    let json = crate::state::to_file_text_keeping(&r.program, &r.sources, &s, "x.json", None);
    assert!(json.contains("\"clock\": \"7 minutes\""), "{json}");
    let back = crate::state::load_text(&r.program, &r.sources, "s.json", json)
        .expect("the JSON state fits");
    assert_eq!(back, s);
    // Moves are not minutes: a state file's `"2 moves"` for a Minutes field is refused.
    let wrong = crate::state::load_text(
        &r.program,
        &r.sources,
        "s.toml",
        "clock = \"2 moves\"\nleft = \"1 minute\"\n".to_string(),
    );
    assert!(wrong.is_err());
}
