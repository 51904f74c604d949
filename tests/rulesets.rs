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
