//! Every file in rulesets/ and examples/ loads and checks; every bundled ruleset passes
//! its own `example` blocks; every example scenario meets its expectations.

use umpire::{bundled, scenario, Ruleset};

fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .expect("folder exists")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

/// Loads a ruleset file, runs its examples, fails on any that does not hold; returns
/// how many checks ran.
fn examples_pass(path: &str) -> usize {
    let r = Ruleset::load(path).unwrap_or_else(|e| panic!("{path} does not check: {e}"));
    let results = r.run_examples();
    for res in &results {
        assert!(
            res.failure.is_none(),
            "{path}: example \"{}\" fails at `{}`: {:?}",
            res.example,
            res.check,
            res.failure
        );
    }
    results.len()
}

#[test]
fn every_ruleset_file_checks_and_passes_its_examples() {
    let found = files("rulesets", "rules");
    assert!(found.len() >= 2, "rulesets/ holds the bundled rulesets");
    for path in found {
        assert!(examples_pass(&path) > 0, "{path} has worked examples");
    }
}

#[test]
fn bundled_rulesets_are_the_files_in_rulesets() {
    for (name, text) in bundled::BUNDLED {
        let on_disk = std::fs::read_to_string(format!("rulesets/{name}.rules"))
            .expect("bundled ruleset has its file");
        assert_eq!(&on_disk, text, "{name}");
        let r = Ruleset::bundled(name).unwrap_or_else(|e| panic!("bundled {name}: {e}"));
        // The bundled rulesets check clean with --deny-warnings.
        assert!(r.warnings.is_empty(), "{name}: {:?}", r.warnings);
    }
}

#[test]
fn every_example_scenario_runs_as_expected() {
    let found = files("examples", "toml");
    assert!(!found.is_empty());
    for path in found {
        let report = scenario::run(&path, true, &umpire::limits::Limits::default())
            .unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(!report.done.is_empty(), "{path} adjudicates something");
        for d in &report.done {
            assert!(
                d.result.is_ok(),
                "{path}: {} failed: {:?}",
                d.name,
                d.result
            );
            assert_ne!(
                d.expected,
                Some(false),
                "{path}: {} not as expected",
                d.name
            );
        }
    }
}

/// A wrong expectation in an example is reported, not passed: the runner can fail.
#[test]
fn a_false_example_fails() {
    let src = r#"
        rule escorts(prisoners: Int) -> Int { ceil(prisoners / 7) }
        example "wrong on purpose" { escorts(8) == 1 }
        example "refusal expected but a value given" { escorts(1) is refused }
    "#;
    let r = Ruleset::from_source("t.rules", src).expect("checks");
    let results = r.run_examples();
    assert_eq!(results.len(), 2);
    assert!(results.iter().all(|x| x.failure.is_some()));
}

#[test]
fn the_language_feature_rulesets_pass_their_examples() {
    for path in files("tests/language", "rules") {
        assert!(examples_pass(&path) > 20, "{path} has its checks");
    }
}

/// The ruleset of benches/prob_compare.sh (`wounds(20)`, `hits(100)`) checks, and its
/// attacks roll as its comments say (its examples: a wound on 3+, 4+ and no 5+ save).
#[test]
fn the_bench_ruleset_checks_and_passes_its_examples() {
    for path in files("benches/prob", "rules") {
        assert!(examples_pass(&path) >= 6, "{path} has its checks");
    }
}

/// A ranged parameter refuses a value outside its range: an error, not an answer.
#[test]
fn ranged_parameters_are_checked_at_every_call() {
    use umpire::dice::Given;
    use umpire::eval::Options;
    let r = Ruleset::load("tests/language/features.rules").expect("checks");
    // Written out, it is caught before anything is adjudicated; worked out, at the call.
    let e = r
        .question("<t>", "leader(4)")
        .expect_err("4 is out of 1..3");
    assert_eq!(e.0[0].code.as_str(), "umpire::check::range");
    let q = r.question("<t>", "leader(2 + 2)").expect("compiles");
    let e = r
        .adjudicate(&q, &mut Given::new(vec![]), Options::default())
        .expect_err("4 is out of 1..3");
    assert_eq!(e.code.as_str(), "umpire::eval::range");
    let q = r.question("<t>", "leader(3)").expect("compiles");
    assert!(r
        .adjudicate(&q, &mut Given::new(vec![]), Options::default())
        .is_ok());
}

/// `Formation.line` and `Grade.line` share a name: a bare `line` with no type to guide
/// it is refused with both spellings offered.
#[test]
fn an_ambiguous_value_name_asks_which() {
    let r = Ruleset::load("tests/language/features.rules").expect("checks");
    let e = r.question("<t>", "line").expect_err("ambiguous");
    assert_eq!(e.0[0].code.as_str(), "umpire::check::ambiguous");
    assert!(r.question("<t>", "Formation.line").is_ok());
}

/// Ranges declared on constants, `let`s and results are enforced when evaluated.
#[test]
fn declared_ranges_hold_everywhere() {
    use umpire::dice::Given;
    use umpire::eval::Options;
    // A value written out is checked at load; a computed one when adjudicated.
    let e = Ruleset::from_source("t.rules", "const c: 1..6 = 9\n").expect_err("9 is not in 1..6");
    assert_eq!(e.0[0].code.as_str(), "umpire::check::range");
    let src = "const c: 1..6 = 3 + 6\nrule r(n: Int) -> 1..6 { n }\nrule l(n: Int) -> Int { let k: 0..3 = n\n k }\n";
    let r = Ruleset::from_source("t.rules", src).expect("checks");
    for (expr, ok) in [
        ("c", false),
        ("r(6)", true),
        ("r(9)", false),
        ("l(3)", true),
        ("l(-1)", false),
    ] {
        let q = r.question("<t>", expr).expect("compiles");
        let got = r.adjudicate(&q, &mut Given::new(vec![]), Options::default());
        assert_eq!(got.is_ok(), ok, "{expr}: {got:?}");
        if let Err(e) = got {
            assert_eq!(e.code.as_str(), "umpire::eval::range", "{expr}");
        }
    }
}

/// A distance or a rate on the table is never negative: the bundled rulesets declare
/// their lengths `0"..`, so a negative one is an error of the question (exit 1, naming
/// the parameter), never a value ("a unit moves -1\"") nor a refusal (the rules forbid
/// nothing).
#[test]
fn negative_lengths_are_errors_of_the_question() {
    for (ruleset, expr, name) in [
        (
            "horse_and_musket",
            "distance_into(4\", -1\", 3 1/2\")",
            "moved",
        ),
        ("horse_and_musket", "charge(-1\", 6\")", "distance"),
        (
            "horse_and_musket",
            "may_combine(true, -1\", 2)",
            "commander_within",
        ),
        (
            "horse_and_musket",
            "forced_march_distance(yes, -4\")",
            "rate",
        ),
        (
            "furious_reason",
            "crossing_cost(marsh, infantry, width: -2\")",
            "width",
        ),
        (
            "furious_reason",
            "formation_change_cost(line, other, true, -8\", false)",
            "rate",
        ),
        ("kriegspiel", "isolated_body(-1\")", "nearest_body"),
        (
            "kriegspiel",
            "supply_within_reach(infantry, -1\")",
            "distance",
        ),
    ] {
        let r = Ruleset::bundled(ruleset).expect("bundled");
        let e = match r.question("<t>", expr) {
            Err(ds) => ds.0.into_iter().next().expect("an error"),
            Ok(q) => r
                .adjudicate(&q, &mut umpire::dice::Given::new(vec![5]), r.options())
                .expect_err(expr),
        };
        assert!(e.code.as_str().ends_with("::range"), "{expr}: {e:?}");
        assert!(
            e.message.contains(&format!("`{name}`")),
            "{expr}: {}",
            e.message
        );
        assert!(e.message.contains("0\" or more"), "{expr}: {}", e.message);
    }
}

/// Nested brackets are read once: sixty levels parse at once (a grammar that tried two
/// bracket rules in turn re-read every level twice, 2^60 times in all). A hang guard,
/// not a timing: speed is measured in benches/.
#[test]
fn nested_brackets_are_read_once() {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let r = Ruleset::bundled("kriegspiel").expect("checks");
        let text = format!("{}1{}", "(".repeat(60), ")".repeat(60));
        let ok = r.question("<t>", &text).is_ok();
        let _ = tx.send(ok);
    });
    let ok = rx
        .recv_timeout(std::time::Duration::from_secs(30))
        .expect("parses within the hang guard");
    assert!(ok);
}

/// Furious Reason's die roll modifiers run from -9 (militia, 100% lost, every minus)
/// to +8 (a leader of 3, the three +1s, guard — grenadier and guard are one grade, so
/// not both): a D10 plus them reaches -8..18. The bundled table covers every one of
/// those rolls in both columns (its ends are "0 or less" and "7/10 or more"); cut its
/// ends short and the load names the rolls left without a row.
#[test]
fn the_manoeuvre_roll_reaches_minus_8_to_18() {
    let text = bundled::source("furious_reason").expect("bundled");
    let cut = text
        .replace("    0 or less => retire", "    -7..0 => retire")
        .replace(
            "    10 or more => rally_with_elan",
            "    10-17 => rally_with_elan",
        );
    assert_ne!(cut, text, "the rows to cut are in the bundled ruleset");
    let errors = match Ruleset::from_source("cut.rules", &cut) {
        Ok(_) => panic!("a roll of -8 or 18 matches no row, yet the ruleset loaded"),
        Err(ds) => ds.0.iter().map(|d| d.message.clone()).collect::<Vec<_>>(),
    };
    let rolls: Vec<&String> = errors
        .iter()
        .filter(|m| m.starts_with("this roll can be -8..18"))
        .collect();
    assert_eq!(rolls.len(), 2, "{errors:#?}");
    assert!(
        rolls[0].ends_with("covers -8 in column `good_order`"),
        "{}",
        rolls[0]
    );
    assert!(
        rolls[1].ends_with("covers 18 in column `disorder`"),
        "{}",
        rolls[1]
    );
}

/// The shipped house rules load on top of their bases and pass their own examples,
/// the base's examples included (those a house rule changes are overridden).
#[test]
fn house_rule_files_load_and_pass_their_examples() {
    let found = files("examples/house", "rules");
    assert!(!found.is_empty(), "examples/house holds house rules");
    for path in found {
        assert!(examples_pass(&path) > 0, "{path} has examples");
    }
}

/// The authoring probes of issue 17 for records and lets, as their authors wrote them:
/// `==` against braces that leave a default out, and a `let` in an example.
#[test]
fn the_record_and_let_probes_work_as_their_authors_meant() {
    assert_eq!(
        examples_pass("tests/language/probes/record_eq_defaults.rules"),
        1
    );
    assert_eq!(
        examples_pass("tests/language/probes/let_in_example.rules"),
        2
    );
}

/// The answer of `expr` in `r`, in words, with no dice.
fn answer(r: &Ruleset, expr: &str) -> String {
    use umpire::dice::Given;
    let q = r
        .question("<t>", expr)
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    let a = r
        .adjudicate(&q, &mut Given::new(vec![]), r.options())
        .unwrap_or_else(|e| panic!("{expr}: {e}"));
    umpire::render::headline(&r.program, &a.outcome)
}

/// The authoring probes of issue 17's form 9 (copied from the shared reviews): a row of
/// a `column`-block table patched as a row or as a block, a field added to a base
/// record, and the two that cannot load saying what to write instead.
#[test]
fn the_house_rule_probes_work_or_say_what_to_write() {
    // Good order, 6 or more: Well Handled under the house row; the base's `5,6 => tardy`
    // keeps 5, and the patch itself makes no rows overlap.
    for probe in ["patch_column_block_row", "patch_column_block"] {
        let r = Ruleset::load(&format!("tests/language/probes/{probe}.rules"))
            .unwrap_or_else(|e| panic!("{probe} loads: {e}"));
        assert!(r.warnings.is_empty(), "{probe}: {:?}", r.warnings);
        assert!(answer(&r, "manoeuvre_table(good_order, 6)").starts_with("Well Handled"));
        assert!(answer(&r, "manoeuvre_table(good_order, 7)").starts_with("Well Handled"));
        assert!(answer(&r, "manoeuvre_table(good_order, 5)").starts_with("Tardy"));
        assert!(answer(&r, "manoeuvre_table(disorder, 6)").starts_with("Shaken"));
        // The trimmed base row is explained as it now reads: 5, not `5,6`.
        let q = r
            .question("<t>", "manoeuvre_table(good_order, 5)")
            .expect("checks");
        let a = r
            .adjudicate(
                &q,
                &mut umpire::dice::Given::new(vec![]),
                umpire::eval::Options {
                    trace: true,
                    ..r.options()
                },
            )
            .expect("answers");
        let why = umpire::render::explain(&r.program, a.trace.as_deref().unwrap_or(&[]));
        assert!(why.contains("row `5` of column `good_order`"), "{why}");
    }
    // The record retyped whole still loads; a state file is read with the new field.
    let mut r = Ruleset::load("tests/language/probes/side_extra_field.rules").expect("loads");
    r.load_state("tests/language/probes/side_extra_field.toml")
        .expect("the new field has a default");
    assert_eq!(answer(&r, "sides.red.immobile_on_move"), "0");
    // Two `extends`: keep one, `use` the other.
    let e = Ruleset::load("tests/language/probes/two_extends.rules").expect_err("two bases");
    assert_eq!(e.0[0].code.as_str(), "umpire::extend::twice");
    let help = e.0[0].help.clone().unwrap_or_default();
    assert!(help.contains("write `use \"kriegspiel\" as ks`"), "{help}");
    // An older docs example overriding a rule of another bundled ruleset.
    let e = Ruleset::load("tests/language/probes/doc_4_9_example.rules").expect_err("no such rule");
    assert_eq!(e.0[0].code.as_str(), "umpire::extend::unknown");
    let help = e.0[0].help.clone().unwrap_or_default();
    assert!(
        help.contains("`forced_march` is a rule of the bundled ruleset `horse_and_musket`")
            && help.contains("write `use \"horse_and_musket\" as ham`"),
        "{help}"
    );
}

/// A field added with `override record NAME { add ... }`: the base's fields kept, a
/// state file without it refused when it has no default, naming the field.
#[test]
fn a_house_rule_adds_a_field_to_a_base_record() {
    let dir = std::env::temp_dir().join(format!("umpire-add-field-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    let rules = "extends \"little_wars\"\noverride record Side {\n  add immobile_on_move: 0..\n}\n";
    let path = dir.join("g.rules");
    std::fs::write(&path, rules).expect("write");
    let mut r = Ruleset::load(path.to_str().expect("utf-8")).expect("loads");
    let e = r
        .load_state("tests/language/probes/side_extra_field.toml")
        .expect_err("no default, not in the file");
    assert_eq!(e.0[0].code.as_str(), "umpire::state::missing_field");
    assert!(
        e.0[0].message.contains("`immobile_on_move`"),
        "{}",
        e.0[0].message
    );
    std::fs::write(&path, rules.replace("0..\n", "0.. = 0\n")).expect("write");
    let mut r = Ruleset::load(path.to_str().expect("utf-8")).expect("loads");
    r.load_state("tests/language/probes/side_extra_field.toml")
        .expect("the default fills it");
    assert_eq!(answer(&r, "sides.blue.free"), "20");
    assert_eq!(answer(&r, "sides.blue.immobile_on_move"), "0");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A house row naming several values of a key takes its numbers from each base row of
/// those values: `good_order, disorder | 6` leaves Tardy on 5 and Shaken on 5 (the
/// base's `5,6` rows of both columns), and gives 6 to the house.
#[test]
fn a_house_row_of_several_columns_trims_each() {
    let r = Ruleset::from_source(
        "h.rules",
        "extends \"furious_reason\"\noverride table manoeuvre_table {\n  good_order, disorder | 6 => hold\n}\n",
    )
    .unwrap_or_else(|e| panic!("no overlap from the patch: {e}"));
    assert!(answer(&r, "manoeuvre_table(good_order, 6)").starts_with("Hold"));
    assert!(answer(&r, "manoeuvre_table(disorder, 6)").starts_with("Hold"));
    assert!(answer(&r, "manoeuvre_table(good_order, 5)").starts_with("Tardy"));
    assert!(answer(&r, "manoeuvre_table(disorder, 5)").starts_with("Shaken"));
    assert!(answer(&r, "manoeuvre_table(good_order, 7)").starts_with("Well Handled"));
}

/// A used ruleset may use another: each alias qualifies its own file's names, and the
/// outer file reaches the inner one's rules only through the middle one's.
#[test]
fn a_used_ruleset_may_use_another() {
    let dir = std::env::temp_dir().join(format!("umpire-use-chain-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch");
    std::fs::write(
        dir.join("inner.rules"),
        "enum Arm { foot \"Foot\", horse \"Horse\" }\nrule speed(a: Arm) -> Int { match a { foot => 6\n horse => 12 } }\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("middle.rules"),
        "use \"inner.rules\" as i\nrule charge(a: i.Arm) -> Int { i.speed(a) * 2 }\n",
    )
    .expect("write");
    std::fs::write(
        dir.join("outer.rules"),
        "use \"middle.rules\" as m\nrule horse_charge() -> Int { m.charge(m.i.Arm.horse) }\nrule mounted(a: m.i.Arm) -> Bool { match a {\n m.i.Arm.horse => true\n _ => false } }\n",
    )
    .expect("write");
    let r = Ruleset::load(dir.join("outer.rules").to_str().expect("utf-8"))
        .unwrap_or_else(|e| panic!("loads: {e}"));
    // A horse moves 12, and charges at twice its move.
    assert_eq!(answer(&r, "horse_charge()"), "24");
    assert_eq!(answer(&r, "m.charge(m.i.Arm.foot)"), "12");
    assert_eq!(answer(&r, "mounted(m.i.Arm.horse)"), "true");
    assert_eq!(answer(&r, "mounted(m.i.Arm.foot)"), "false");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A house rule changes one cell of a printed grid (`grid roll by odds`) with the row the
/// grid means, `3 | 2-3` (odds then roll): that cell changes, the others stay.
#[test]
fn a_house_rule_patches_one_cell_of_a_printed_grid() {
    let checks = examples_pass("tests/house/grid_cell.rules");
    assert!(checks >= 4, "the house rule's examples and the base's run");
}

/// Ranges and lists of enum values are counted value by value, within a bound: a file of
/// a large ordered enum and many `or more` rows is refused with a limit error, not
/// expanded without end (1500 rows of up to 1500 values each name over a million).
#[test]
fn ranges_of_enum_values_are_bounded() {
    let values: Vec<String> = (0..1500).map(|i| format!("v{i}")).collect();
    let rows: Vec<String> = (0..1500)
        .map(|i| format!("  v{i} or more => {i}"))
        .collect();
    let src = format!(
        "enum E ordered {{ {} }}\ntable t(e: E) -> Int {{\n{}\n}}\n",
        values.join(", "),
        rows.join("\n")
    );
    let e = Ruleset::from_source("t.rules", &src).expect_err("too many values");
    assert!(
        e.0.iter().any(|d| d.code.as_str() == "umpire::limit::enum"),
        "{:?}",
        e.0.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
}

/// Two rows of a table keyed by an ordered enum that share several values are told of
/// with the first shared value in the enum's order, the same at every check (`more to
/// than` and `less to reroll` share `less` and `than`: `less` comes first; neither
/// holds the other, which would make the lower one never reached).
#[test]
fn an_overlap_of_enum_rows_names_the_first_shared_value() {
    let src = "enum E ordered { list, grid, by, more, less, than, reroll }\n\
               table t(o: E) -> Int {\n  list-by => 1\n  more to than => 2\n  less to reroll => 3\n}\n";
    for _ in 0..8 {
        let e = Ruleset::from_source("t.rules", src).expect_err("rows overlap");
        let messages: Vec<&str> = e.0.iter().map(|d| d.message.as_str()).collect();
        assert!(
            messages.contains(&"rows `more to than` and `less to reroll` overlap on less"),
            "{messages:?}"
        );
    }
}

/// A large enum is checked in about linear time: 20,000 values, some sharing their
/// words, check in well under the time a comparison of every pair of values took (over a
/// minute on this size), and the values that read alike are still told of.
#[test]
fn a_large_enum_checks_quickly() {
    let mut values: Vec<String> = (0..20_000).map(|i| format!("v{i}")).collect();
    values.push("v_a \"V7\"".to_string());
    let src = format!("enum Big {{ {} }}\n", values.join(", "));
    let start = std::time::Instant::now();
    let r = Ruleset::from_source("big.rules", &src).expect("checks");
    assert!(
        start.elapsed() < std::time::Duration::from_secs(20),
        "took {:?}",
        start.elapsed()
    );
    assert!(
        r.warnings.iter().any(|d| d
            .message
            .contains("`v7` and `v_a` \"V7\" of Big read alike")),
        "{:?}",
        r.warnings.iter().map(|d| &d.message).collect::<Vec<_>>()
    );
}

/// A range of an enum that is not ordered is refused, and the help lists the values the
/// range would take in the order written (not a placeholder): the author may list them
/// instead.
#[test]
fn a_range_of_an_unordered_enum_lists_its_values() {
    let src = "enum Odds { one_two, one_one, two_one, three_one, four_one }\n\
               table t(o: Odds) -> Int {\n  one_one-two_one => 1\n  three_one or more => 2\n  _ => 0\n}\n";
    let e = Ruleset::from_source("t.rules", src).expect_err("not ordered");
    let helps: Vec<&str> = e.0.iter().filter_map(|d| d.help.as_deref()).collect();
    for want in ["`one_one, two_one`", "`three_one, four_one`"] {
        assert!(
            helps
                .iter()
                .any(|h| h.contains(&format!("otherwise list the values: {want}"))),
            "{helps:?}"
        );
    }
}
