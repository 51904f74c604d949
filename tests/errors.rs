//! Errors as plain sentences for a club umpire (issue 16, newcomer review §1.5, F6, F7,
//! F11, F12): a type error lists the values an enum allows, a wrong argument names its
//! parameter, the rulebook's words in quotes stand for an enum value, a bare unit name is
//! answered with the group member to write, text arguments say to use quotes, and rolls a
//! refusal left unused report the refusal. Expected words come from the examples
//! and the bundled rulesets' declarations (`rulesets/*.rules`).

mod common;

use common::{stdout, umpire, Scratch};
use umpire::adjudication::Outcome;
use umpire::diagnostic::{Code, Diag};
use umpire::dice::Given;
use umpire::Ruleset;

/// A bundled ruleset, with one of `examples/states/` loaded if named.
fn rules(name: &str, state: Option<&str>) -> Ruleset {
    let mut r = Ruleset::bundled(name).expect("a bundled ruleset");
    if let Some(s) = state {
        let path = format!("{}/examples/states/{s}", env!("CARGO_MANIFEST_DIR"));
        r.load_state(&path).expect("the example state loads");
    }
    r
}

/// The first error checking `expr` gives.
fn first_error(r: &Ruleset, expr: &str) -> Diag {
    match r.question("<test>", expr) {
        Ok(_) => panic!("`{expr}` was accepted"),
        Err(ds) => ds.0.into_iter().next().expect("an error"),
    }
}

/// The headline of `expr`, adjudicated with no dice.
fn answer(r: &Ruleset, expr: &str) -> String {
    let q = r
        .question("<test>", expr)
        .unwrap_or_else(|e| panic!("`{expr}`: {e}"));
    let a = r
        .adjudicate(&q, &mut Given::new(vec![]), r.options())
        .unwrap_or_else(|e| panic!("`{expr}`: {e}"));
    umpire::render::headline(&r.program, &a.outcome)
}

fn help(d: &Diag) -> &str {
    d.help.as_deref().unwrap_or("")
}

// ------------------------------------------------------------------ 1. the values listed

#[test]
fn a_type_error_lists_the_values_of_the_enum_expected() {
    // furious_reason: `movement_rate(formation: Formation, arm: Arm)`; `line` is a Grade.
    let r = rules("furious_reason", None);
    let d = first_error(&r, "movement_rate(line, infantry)");
    assert_eq!(d.code, Code::CheckType);
    assert_eq!(
        d.message,
        "the 1st argument of `movement_rate`, `formation`, expects a Formation: line_square, \
         column, charge_in_line, charge_in_column, skirmish, rout_evade (found a Grade)"
    );
    // The value meant, and the rulebook's words as another way to write it.
    assert!(help(&d).contains("did you mean `line_square`?"), "{d:?}");
    assert!(help(&d).contains("\"Line/Square\""), "{d:?}");
}

#[test]
fn a_long_enum_is_listed_by_its_first_values() {
    let r = Ruleset::from_source(
        "many.rules",
        "enum Many { a1, a2, a3, a4, a5, a6, a7, a8, a9, a10 }\n\
         rule f(m: Many) -> Int { 1 }\n",
    )
    .expect("the ruleset checks");
    let d = first_error(&r, "f(true)");
    assert_eq!(
        d.message,
        "the 1st argument of `f`, `m`, expects a Many: a1, a2, a3, a4, a5, a6, … \
         (found true/false (Bool))"
    );
}

#[test]
fn an_enum_type_written_as_a_value_lists_its_values() {
    let r = rules("furious_reason", None);
    let d = first_error(&r, "Formation");
    assert_eq!(d.code, Code::CheckTypeAsValue);
    assert_eq!(
        help(&d),
        "write one of its values: Formation.line_square, Formation.column, \
         Formation.charge_in_line, Formation.charge_in_column, Formation.skirmish, \
         Formation.rout_evade"
    );
}

// ------------------------------------------------------------------ 2. the parameter named

#[test]
fn a_wrong_argument_names_its_parameter_and_no_other_slots_type() {
    // formation_change_cost(grade: Grade, change: Change, cadenced: Bool, rate: Length,
    // cavalry: Bool): the fifth slot is `cavalry`, true or false.
    let r = rules("furious_reason", None);
    let d = first_error(
        &r,
        "formation_change_cost(line, column_to_line_right, true, 8\", infantry)",
    );
    assert_eq!(d.code, Code::CheckType);
    assert!(
        d.message.starts_with(
            "the 5th argument of `formation_change_cost`, `cavalry`, expects true/false"
        ),
        "{d:?}"
    );
    // `infantry` is an Arm and a Mover, but neither fits this slot: not suggested.
    assert!(!help(&d).contains("Arm.infantry"), "{d:?}");
    assert!(!help(&d).contains("Mover.infantry"), "{d:?}");
    assert_eq!(help(&d), "write true or false");

    let d = first_error(
        &r,
        "formation_change_cost(line, column_to_line_right, true, 8\", Arm.infantry)",
    );
    assert_eq!(
        d.message,
        "the 5th argument of `formation_change_cost`, `cavalry`, expects true/false, found an Arm"
    );

    let d = first_error(&r, "deployments(other, cadenced: 3)");
    assert_eq!(
        d.message,
        "the argument `cadenced` of `deployments` expects true/false, found a whole number (Int)"
    );
}

#[test]
fn a_bare_number_where_a_length_is_wanted_is_shown_with_its_unit() {
    let r = rules("furious_reason", None);
    let d = first_error(&r, "crossing_cost(marsh, infantry, width: 2)");
    assert!(help(&d).contains("2\""), "{d:?}");
}

// ------------------------------------------------------------------ 3. the rulebook's words

#[test]
fn the_rulebooks_words_in_quotes_are_the_enum_value() {
    // `enum Order { good_order "Good Order", disorder "Disorder" }`.
    let r = rules("furious_reason", None);
    let want = answer(&r, "manoeuvre_table(good_order, 8)");
    assert_eq!(answer(&r, "manoeuvre_table(\"Good Order\", 8)"), want);
    // Case and spaces are ignored.
    assert_eq!(answer(&r, "manoeuvre_table(\"good  ORDER\", 8)"), want);
    assert_eq!(answer(&r, "manoeuvre_table(\"goodorder\", 8)"), want);
    // Named arguments, and the right of `==` after an enum, too.
    assert_eq!(
        answer(&r, "manoeuvre_table(order: \"Good Order\", roll: 8)"),
        want
    );
    assert_eq!(
        answer(&r, "manoeuvre_table(good_order, 8) == \"Well Handled\""),
        "true"
    );
    // Punctuation counts: "Line/Square" is written with its slash.
    assert_eq!(
        answer(&r, "movement_rate(\"Line/Square\", \"Infantry\")"),
        "8\""
    );
    let d = first_error(&r, "movement_rate(\"Line Square\", infantry)");
    assert_eq!(d.code, Code::CheckUnknownValue);
    assert!(d.message.contains("\"Line/Square\", \"Column\""), "{d:?}");
}

#[test]
fn a_quoted_text_that_is_no_value_lists_the_values() {
    let r = rules("furious_reason", None);
    let d = first_error(&r, "manoeuvre_table(\"Good Ordr\", 8)");
    assert_eq!(d.code, Code::CheckUnknownValue);
    assert_eq!(
        d.message,
        "\"Good Ordr\" is not an Order: \"Good Order\", \"Disorder\""
    );
    assert_eq!(help(&d), "did you mean \"Good Order\"?");
}

#[test]
fn bare_display_texts_stay_arithmetic_and_text_slots_take_text() {
    let r = rules("furious_reason", None);
    // `Line/Square` unquoted is `Line` divided by `Square`: neither is a name.
    assert_eq!(first_error(&r, "Line/Square").code, Code::CheckUnknownName);
    // A text in a text slot is the text.
    let lw = rules("little_wars", Some("little_wars_table.toml"));
    let q = lw
        .question("<test>", "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)")
        .expect("text arguments as before");
    let a = lw
        .adjudicate(&q, &mut Given::new(vec![]), lw.options())
        .expect("adjudicated");
    assert!(matches!(a.outcome, Outcome::Value(_)));
}

#[test]
fn the_odds_engine_sees_the_enum_value_of_the_rulebooks_words() {
    let o = umpire(&[
        "prob",
        "furious_reason",
        "manoeuvre_table(\"Good Order\", D10)",
    ]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}");
    // Good Order on a D10: 7 or more is Well Handled (rulesets/furious_reason.rules).
    assert!(out.contains("Well Handled"), "{out}");
    assert!(out.contains("40"), "4 faces in 10 are Well Handled: {out}");
}

// ------------------------------------------------------------------ 4. a bare unit name

#[test]
fn a_bare_unit_name_is_answered_with_the_group_member() {
    let r = rules("furious_reason", Some("furious_reason_brigade.toml"));
    let d = first_error(&r, "manoeuvre(second_foot)");
    assert_eq!(d.code, Code::CheckUnknownName);
    assert_eq!(help(&d), "did you mean `brigade.second_foot`?");
    // The unit's name in quotes, where the unit is wanted: the same member, unquoted.
    let d = first_error(&r, "manoeuvre(\"second_foot\")");
    assert!(d
        .message
        .starts_with("the 1st argument of `manoeuvre`, `u`, expects a Unit record"));
    assert_eq!(help(&d), "write `brigade.second_foot`, without quotes");
}

// ------------------------------------------------------------------ 5. text arguments

#[test]
fn a_text_argument_says_to_write_the_name_in_quotes() {
    // melee_on_table(attacker: Text, defender: Text, ...): the sides by their names.
    let r = rules("little_wars", Some("little_wars_table.toml"));
    let d = first_error(&r, "melee_on_table(sides.a, sides.b, 19, 13, 0, 5)");
    assert_eq!(
        d.message,
        "the 1st argument of `melee_on_table`, `attacker`, expects text: write the side's \
         name in quotes, \"a\" (found a Side record)"
    );
    let d = first_error(&r, "melee_on_table(a, b, 19, 13, 0, 5)");
    assert_eq!(help(&d), "this is text: write it in quotes, \"a\"");
}

// ------------------------------------------------------------------ 6. rolls left by a refusal

#[test]
fn rolls_a_refusal_left_unused_report_the_refusal() {
    // A marsh is "Roads Only" for guns: off the road, refused before any D10 is rolled.
    let r = rules("furious_reason", None);
    let q = r
        .question(
            "<test>",
            "crossing_cost(marsh, artillery_wagons, width: 2\")",
        )
        .expect("checks");
    let d = r
        .adjudicate(&q, &mut Given::new(vec![3]), r.options())
        .expect_err("the roll was not used");
    assert_eq!(d.code, Code::DiceRefusedUnrolled);
    assert!(d.message.starts_with("refused: Roads Only"), "{d:?}");
    assert!(help(&d).contains("not used: 3"), "{d:?}");
    // Rolls left over by a result are still too many.
    let q = r.question("<test>", "D10").expect("checks");
    let d = r
        .adjudicate(&q, &mut Given::new(vec![3, 4]), r.options())
        .expect_err("one roll too many");
    assert_eq!(d.code, Code::DiceTooManyRolls);
}

// ------------------------------------------------------------------ 7. inside a bundled ruleset

#[test]
fn an_error_inside_a_bundled_ruleset_names_the_question_typed() {
    // Side a holds fourteen prisoners and has no free men left: detailing their escorts
    // ("one man ... up to seven": two) takes its free count below 0 (little_wars:
    // `set sides[side].free -= needed`, `free: 0..`).
    let dir = Scratch::new("bundled");
    let state = dir.join("empty_a.toml");
    std::fs::write(
        &state,
        "move = 1\n[sides.a]\nfree = 0\nprisoners_held = 14\n[sides.b]\nfree = 27\n",
    )
    .expect("state written");
    let mut r = Ruleset::bundled("little_wars").expect("bundled");
    r.load_state(&state.to_string_lossy()).expect("state loads");
    drop(dir);
    let typed = "detail_escorts(\"a\")";
    let q = r.question("<test>", typed).expect("checks");
    let d = r
        .adjudicate(&q, &mut Given::new(vec![]), r.options())
        .expect_err("side a has no men to detail");
    assert_eq!(d.code, Code::EvalRange);
    assert_eq!(
        d.message,
        "`sides.a.free` is 0: taking away 2 would make it -2, and it must be 0 or more"
    );
    assert!(
        help(&d).contains(&format!("working out `{typed}` as you typed it")),
        "{d:?}"
    );
}

// ------------------------------------------------------------------ names not known

#[test]
fn an_unknown_name_where_an_enum_is_wanted_lists_its_values() {
    // `:set brigade.second_foot.grade = veteran`: Grade is militia, line, grenadier, guard.
    let r = rules("furious_reason", Some("furious_reason_brigade.toml"));
    let line = "set brigade.second_foot.grade = veteran";
    let d = match r.question_set(umpire::span::SourceFile::new("<test>", line)) {
        Ok(_) => panic!("`veteran` was accepted"),
        Err(ds) => ds.0.into_iter().next().expect("an error"),
    };
    assert_eq!(d.code, Code::CheckUnknownName);
    assert!(
        help(&d).contains("a Grade is one of: militia, line, grenadier, guard"),
        "{d:?}"
    );
    // The rulebook's word for a grade, in quotes, is the grade.
    let line = "set brigade.second_foot.grade = \"Grenadier\"";
    assert!(r
        .question_set(umpire::span::SourceFile::new("<test>", line))
        .is_ok());
    // A near miss is the enum's value, not another name of the ruleset.
    let d = first_error(&r, "movement_rate(colum, infantry)");
    assert!(help(&d).starts_with("did you mean `column`?"), "{d:?}");
}

#[test]
fn the_rulebooks_words_without_quotes_are_told_to_take_quotes() {
    let r = rules("furious_reason", None);
    // `Line/Square` is a division; in a Formation slot it is told to take quotes.
    let d = first_error(&r, "movement_rate(Line/Square, infantry)");
    assert_eq!(d.code, Code::CheckUnknownValue);
    assert_eq!(help(&d), "write \"Line/Square\"");
    // `Good Order` is two names in a row: a syntax error, with the quotes suggested.
    let d = first_error(&r, "manoeuvre_table(Good Order, 8)");
    assert_eq!(d.code, Code::ParseSyntax);
    assert!(
        help(&d).contains("write them in quotes: \"Good Order\""),
        "{d:?}"
    );
    // Not for a parameter's name missing its `:` before `true`.
    let d = first_error(&r, "deployments(other, cadenced true)");
    assert!(!help(&d).contains("in quotes"), "{d:?}");
}

#[test]
fn a_misspelt_name_in_a_text_slot_of_a_ruleset_suggests_the_name_not_quotes() {
    let loaded = Ruleset::from_source(
        "texts.rules",
        "rule g(t: Text) -> Int { 1 }\nrule f(name: Text) -> Int { g(nme) }\n",
    );
    let Err(e) = loaded else {
        panic!("`nme` is unknown")
    };
    let d =
        e.0.iter()
            .find(|d| d.code == Code::CheckUnknownName)
            .expect("an unknown name");
    assert_eq!(help(d), "did you mean `name`?");
}

#[test]
fn a_whole_group_where_one_member_is_wanted_names_its_members() {
    // examples/states/furious_reason_brigade.toml: guard_grenadiers, second_foot, ...
    let r = rules("furious_reason", Some("furious_reason_brigade.toml"));
    let d = first_error(&r, "manoeuvre(brigade)");
    assert_eq!(d.code, Code::CheckType);
    assert!(
        help(&d).contains("name one member of the group, such as `brigade.guard_grenadiers`"),
        "{d:?}"
    );
}

#[test]
fn a_record_field_in_a_text_slot_is_not_told_to_take_quotes() {
    // `b.leader` is a field holding a record, not a member of a group: no quotes advised.
    let r = Ruleset::from_source(
        "fields.rules",
        "record L { n: Int }\nrecord B { leader: L }\n\
         rule g(t: Text) -> Int { 1 }\nrule f(b: B) -> Int { g(b.leader) }\n",
    );
    let Err(e) = r else {
        panic!("a record is no text")
    };
    let d =
        e.0.iter()
            .find(|d| d.code == Code::CheckType)
            .expect("a type error");
    assert!(!d.message.contains("in quotes"), "{d:?}");
}

#[test]
fn a_number_in_quotes_is_told_to_lose_them() {
    let r = rules("furious_reason", None);
    let d = first_error(&r, "manoeuvre_table(good_order, \"8\")");
    assert!(
        d.message
            .starts_with("the 2nd argument of `manoeuvre_table`, `roll`, expects a whole number"),
        "{d:?}"
    );
    assert_eq!(help(&d), "numbers are written without quotes: 8");
}
