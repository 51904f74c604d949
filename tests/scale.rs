//! A large ruleset is checked in full and told in brief: warnings past the first hundred
//! are counted, not shown, and an enum of thousands of unused values is one warning
//! naming its first few. (How fast and in how much memory: `benches/scale.sh`.)

use std::process::Command;
use umpire::diagnostic::Code;
use umpire::Ruleset;

/// `rules` rules, each with `lets` `let`s it never reads: one warning for each.
fn unused_lets(rules: usize, lets: usize) -> String {
    let mut s = String::from("ruleset \"Many warnings\"\n");
    for r in 0..rules {
        s.push_str(&format!("rule r{r}() -> Int {{\n"));
        for l in 0..lets {
            s.push_str(&format!("  let x{l} = {l}\n"));
        }
        s.push_str("  0\n}\n");
    }
    s
}

/// One enum of `n` values, `v0` to `v{n-1}`, that nothing produces or reads.
fn big_enum(n: usize) -> String {
    let mut s = String::from("ruleset \"Big enum\"\nenum Big {\n");
    for i in 0..n {
        s.push_str(&format!("  v{i},\n"));
    }
    s.push_str("}\n");
    s
}

#[test]
fn ten_thousand_warnings_are_a_hundred_and_a_count_of_the_rest() {
    // 2,000 rules × 5 unused `let`s: 10,000 warnings, no error.
    let text = unused_lets(2000, 5);
    let rules = Ruleset::from_source("many.rules", &text).expect("warnings are not errors");
    assert_eq!(rules.warnings.len(), 101);
    let shown = &rules.warnings[..100];
    assert!(shown
        .iter()
        .all(|d| d.warning && d.code == Code::CheckUnusedLet));
    let last = &rules.warnings[100];
    assert_eq!(last.code, Code::CheckMoreWarnings);
    assert!(last.warning);
    assert_eq!(last.message, "... and 9900 more warnings");
}

#[test]
fn umpire_check_prints_a_hundred_warnings_and_how_many_more() {
    let dir = std::env::temp_dir().join(format!("umpire-scale-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let path = dir.join("many.rules");
    std::fs::write(&path, unused_lets(2000, 5)).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .arg("check")
        .arg(&path)
        .env("NO_COLOR", "1")
        .output()
        .expect("umpire runs");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(
        out.status.code(),
        Some(0),
        "warnings only: the check passes"
    );
    let told = String::from_utf8_lossy(&out.stderr);
    assert!(told.contains("... and 9900 more warnings"), "{told}");
    // A hundred warnings drawn, and the count. Each is a dozen lines (its code, its
    // message, the `let` with a line either side and the mark under it, the help, the
    // blank lines between): the report stays near 1,200 lines however many more there are.
    let drawn = told.matches("umpire::check::unused_let").count();
    assert_eq!(drawn, 100, "{told}");
    assert!(
        told.lines().count() < 100 * 13,
        "{} lines",
        told.lines().count()
    );
}

#[test]
fn an_enum_of_65000_values_nothing_uses_is_one_warning_naming_ten() {
    let rules = Ruleset::from_source("big.rules", &big_enum(65_000)).expect("checks clean");
    assert_eq!(rules.warnings.len(), 1);
    let d = &rules.warnings[0];
    assert_eq!(d.code, Code::CheckUnusedEnumValue);
    let first_ten: Vec<String> = (0..10).map(|i| format!("`v{i}`")).collect();
    assert_eq!(
        d.message,
        format!(
            "nothing produces or reads {} or 64990 more values of `Big`",
            first_ten.join(", ")
        )
    );
    // Each value named is marked where it is written, and no other.
    assert_eq!(d.labels.len(), 10);
}

#[test]
fn an_enum_of_ten_unused_values_names_them_all() {
    let rules = Ruleset::from_source("ten.rules", &big_enum(10)).expect("checks clean");
    let d = &rules.warnings[0];
    let first_nine: Vec<String> = (0..9).map(|i| format!("`v{i}`")).collect();
    assert_eq!(
        d.message,
        format!(
            "nothing produces or reads {} or `v9` of `Big`",
            first_nine.join(", ")
        )
    );
    assert_eq!(d.labels.len(), 10);
}

#[test]
fn the_furious_reason_shapes_many_times_over_check_clean() {
    // The shapes `benches/scale.sh` grows to 4 MiB: tables of many rows by a number and
    // by two enums, each row's value its own. Every row is reached and no roll is left
    // without one, so the check is clean.
    let mut s = String::from("ruleset \"Tables\"\n");
    for t in 0..20 {
        s.push_str(&format!(
            "enum Side{t} {{ attacker{t}, defender{t} }}\n\
             table roll{t}(side: Side{t}, roll: Int) -> Int {{\n  column side = attacker{t} {{\n    201 or more => 201\n"
        ));
        for r in (1..=200).rev() {
            s.push_str(&format!("    {r} => {}\n", 2 * r - 1));
        }
        s.push_str("    0 or less => 0\n  }\n");
        s.push_str(&format!(
            "  column side = defender{t} {{\n    201 or more => 0\n"
        ));
        for r in (2..=200).rev().step_by(2) {
            s.push_str(&format!("    {}..{r} => {r}\n", r - 1));
        }
        s.push_str("    0 or less => 1\n  }\n}\n");
        s.push_str(&format!(
            "example \"table {t}\" {{\n  roll{t}(attacker{t}, 1) == 1\n  roll{t}(defender{t}, 200) == 200\n  roll{t}(attacker{t}, 205) == 201\n}}\n"
        ));
    }
    let rules = Ruleset::from_source("tables.rules", &s).expect("checks clean");
    assert!(rules.warnings.is_empty(), "{:?}", rules.warnings);
    let results = rules.run_examples();
    assert_eq!(results.len(), 60);
    assert!(results.iter().all(|r| r.failure.is_none()));
}

/// `n` rules `r0` to `r{n-1}`, each calling the one before; `r0` calls `r{n-1}` when `ring`
/// (a cycle through all of them), else nothing (a chain). `recursive` marks every rule.
fn calls(n: usize, ring: bool, recursive: bool) -> String {
    let mark = if recursive { " recursive" } else { "" };
    let mut s = String::from("ruleset \"Calls\"\n");
    let first = if ring {
        format!("r{}(a) + 1", n - 1)
    } else {
        "a".to_string()
    };
    s.push_str(&format!("rule r0(a: Int) -> Int{mark} {{ {first} }}\n"));
    for i in 1..n {
        s.push_str(&format!(
            "rule r{i}(a: Int) -> Int{mark} {{ r{}(a) + 1 }}\n",
            i - 1
        ));
    }
    s
}

#[test]
fn a_chain_and_a_ring_of_twenty_thousand_rules_check() {
    // A chain of calls 20,000 long has no cycle: it checks.
    let chain = Ruleset::from_source("chain.rules", &calls(20_000, false, false))
        .expect("a chain of calls is no cycle");
    assert!(chain.warnings.is_empty(), "{:?}", chain.warnings.first());
    // The same rules in a ring, each marked `recursive`: a cycle allowed.
    Ruleset::from_source("ring.rules", &calls(20_000, true, true))
        .expect("a ring of recursive rules checks");
    // Unmarked, the ring is one cycle of 20,000 rules, named in order from `r0`.
    let e = Ruleset::from_source("ring.rules", &calls(20_000, true, false))
        .expect_err("a ring of unmarked rules is a cycle");
    let errors: Vec<_> = e.0.iter().filter(|d| !d.warning).collect();
    assert_eq!(errors.len(), 1, "{:?}", errors.first());
    let d = errors[0];
    assert_eq!(d.code, Code::CheckCycle);
    assert!(
        d.message.starts_with("`r0`, `r1`, `r2`, "),
        "{}",
        &d.message[..40]
    );
    assert!(
        d.message
            .ends_with("`r19998`, `r19999` call each other: a cycle of calls"),
        "{}",
        &d.message[d.message.len() - 60..]
    );
}

/// A table with one row for each of an enum's 20,000 values (and a `match` of the same
/// arms): each row's value found by name, and the table's coverage worked out, without
/// trying every value against every row. The rows cover every value, so the table
/// checks with no warning, and the last row gives its own number.
#[test]
fn a_table_and_a_match_over_twenty_thousand_enum_values_check_clean() {
    let n = 20_000;
    let values: Vec<String> = (0..n).map(|i| format!("v{i} \"V {i}\"")).collect();
    let rows: Vec<String> = (0..n).map(|i| format!("  v{i} => {i}")).collect();
    let src = format!(
        "enum Big {{ {} }}\ntable t(b: Big) -> Int {{\n{}\n}}\nrule m(b: Big) -> Int {{ match b {{\n{}\n}} }}\n",
        values.join(" "),
        rows.join("\n"),
        rows.join("\n")
    );
    let rules = Ruleset::from_source("big.rules", &src).expect("checks");
    assert!(rules.warnings.is_empty(), "{:?}", rules.warnings);
    for q in ["t(v19999)", "m(v19999)"] {
        let q = rules.question("<test>", q).expect("a question");
        let a = rules
            .adjudicate(&q, &mut umpire::dice::Given::new(vec![]), rules.options())
            .expect("adjudicates");
        assert_eq!(
            a.outcome,
            umpire::adjudication::Outcome::Value(umpire::value::Value::int(19_999))
        );
    }
}
