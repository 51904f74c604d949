//! What `umpire prob` and `umpire diff` print around the odds: outcomes ordered by value,
//! bars scaled to the likeliest, several sweeps, `--format csv`, sampling's words, and
//! `diff --sweep`. Every expected value is worked from the dice by hand (see each comment).

mod common;

use common::{stderr, stdout, umpire, Scratch};
use umpire::prob::report::{method_text, samples_asked};
use umpire::prob::{odds, Job, Method, OutKey, Settings};
use umpire::Ruleset;

fn json(args: &[&str]) -> serde_json::Value {
    let o = umpire(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    serde_json::from_str(&stdout(&o)).expect("json")
}

fn ok(args: &[&str]) -> String {
    let o = umpire(args);
    assert!(o.status.success(), "{args:?}: {}", stderr(&o));
    stdout(&o)
}

/// Records are ordered field by field by value (5 before 10, false before true), not as
/// text ("{ hits: 10" sorts before "{ hits: 5" as text); pairs part by part.
#[test]
fn records_and_pairs_are_ordered_by_value_not_as_text() {
    // d2 * 5 is 5 or 10, d2 == 1 is true or false: four records, 1/4 each.
    let out = ok(&[
        "prob",
        "kriegspiel",
        "{hits: d2 * 5, lost: d2 == 1}",
        "--format",
        "csv",
    ]);
    let labels: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split("\",").next().unwrap_or(l))
        .collect();
    assert_eq!(
        labels,
        [
            "\"{ hits: 5, lost: false }",
            "\"{ hits: 5, lost: true }",
            "\"{ hits: 10, lost: false }",
            "\"{ hits: 10, lost: true }",
        ]
    );
    // A d6 of 5-6 gives (10, 1), 3-4 (9, 2), 1-2 (5, 3): by first part 5, 9, 10.
    let out = ok(&[
        "prob",
        "kriegspiel",
        "let r = d6; if r >= 5 { (10, 1) } else if r >= 3 { (9, 2) } else { (5, 3) }",
    ]);
    let firsts: Vec<&str> = out
        .lines()
        .skip(1)
        .filter_map(|l| l.trim().split(')').next())
        .collect();
    assert_eq!(firsts, ["(5, 3", "(9, 2", "(10, 1"]);
}

/// The likeliest outcome's bar is full (30 blocks), the others in proportion.
#[test]
fn bars_are_scaled_to_the_likeliest_outcome() {
    let out = ok(&["prob", "kriegspiel", "2d6"]);
    let bar = |sum: &str| {
        out.lines()
            .find(|l| l.split_whitespace().next() == Some(sum))
            .map_or(0, |l| l.chars().filter(|c| *c == '█').count())
    };
    // 7 is the likeliest (6/36): 30 blocks. 6 is 5/36: 25. 2 is 1/36: 5.
    assert_eq!(bar("7"), 30);
    assert_eq!(bar("6"), 25);
    assert_eq!(bar("2"), 5);
}

/// `--format csv`: a header, then a row per outcome with its fraction, decimal,
/// percentage and running totals.
#[test]
fn prob_as_csv_has_a_row_per_outcome() {
    let out = ok(&["prob", "kriegspiel", "2d6", "--format", "csv"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "outcome,fraction,probability,percent,at least,at most"
    );
    // Eleven sums, 2 to 12.
    assert_eq!(lines.len(), 12);
    // 2: 1/36 = 2.78%, at least 2 is certain, at most 2 is 1/36.
    assert_eq!(lines[1], "2,1/36,0.027777777777777776,2.78%,100.00%,2.78%");
    // 7: 6/36 = 1/6; at least 7 is 21/36 = 58.33%, at most 7 also 21/36.
    assert_eq!(lines[6], "7,1/6,0.16666666666666666,16.67%,58.33%,58.33%");
    // An outcome that is not a number leaves at least / at most empty; a label with a
    // comma is quoted. The Manoeuvre Table of the 2nd Foot: Well Handled 3/10 (the
    // text report's worked example, docs §9).
    let out = ok(&[
        "prob",
        "furious_reason",
        "manoeuvre(brigade.second_foot)",
        "--state",
        "examples/states/furious_reason_brigade.toml",
        "--format",
        "csv",
    ]);
    assert_eq!(out.lines().nth(1), Some("Well Handled,3/10,0.3,30.00%,,"));
}

/// csv where there is no table of odds is refused, with a reason: the formats the
/// command takes.
#[test]
fn csv_is_refused_where_it_makes_no_sense() {
    for args in [
        &["eval", "kriegspiel", "2d6", "--format", "csv"][..],
        &["run", "examples/orders.toml", "--format", "csv"][..],
    ] {
        let o = umpire(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(
            stderr(&o).contains("invalid value 'csv' for '--format <FORMAT>'")
                && stderr(&o).contains("[possible values: text, json]"),
            "{}",
            stderr(&o)
        );
        assert!(stdout(&o).is_empty());
    }
    fails_saying(
        &[
            "diff",
            "furious_reason",
            "examples/house/furious_reason_veterans.rules",
            "--format",
            "csv",
        ],
        "--format csv needs --scenario FILE",
    );
}

/// Two sweeps: every combination, the first outermost; each row says its values.
#[test]
fn several_sweeps_give_every_combination_in_order() {
    let args = [
        "prob",
        "kriegspiel",
        "dice(n, s)",
        "--sweep",
        "n=1..2",
        "--sweep",
        "s=2,3",
    ];
    let out = ok(&args);
    let rows: Vec<Vec<&str>> = out
        .lines()
        .skip(2)
        .take(4)
        .map(|l| l.split_whitespace().take(2).collect())
        .collect();
    assert_eq!(rows, [["1", "2"], ["1", "3"], ["2", "2"], ["2", "3"]]);
    assert!(out.starts_with("dice(n, s)  for each n and s\n"));
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let j = json(&with_json);
    assert_eq!(j["sweeps"], serde_json::json!(["n", "s"]));
    assert_eq!(j["rows"][1]["at"], serde_json::json!({"n": 1, "s": 3}));
    // Two d3: a sum of 4 is (1,3), (2,2), (3,1): 3/9 = 1/3, the third of five sums.
    assert_eq!(j["rows"][3]["outcomes"][2]["value"], 4);
    assert_eq!(j["rows"][3]["outcomes"][2]["probability"], "1/3");
    let mut with_csv = args.to_vec();
    with_csv.extend(["--format", "csv"]);
    let out = ok(&with_csv);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "n,s,outcome,fraction,probability,percent,at least,at most"
    );
    // One d2: 1 and 2 at 1/2; one d3: three rows; two d2: 2, 3, 4; two d3: five.
    assert_eq!(lines.len(), 1 + 2 + 3 + 3 + 5);
    assert_eq!(lines[1], "1,2,1,1/2,0.5,50.00%,100.00%,50.00%");
    // Two d2 give 3 two ways in four: 1/2; at least 3 is 3/4, at most 3 is 3/4.
    assert_eq!(lines[7], "2,2,3,1/2,0.5,50.00%,75.00%,75.00%");
    // One sweep keeps its JSON: "sweep" and a plain "at".
    let j = json(&[
        "prob",
        "kriegspiel",
        "dice(n, 6)",
        "--sweep",
        "n=1..2",
        "--format",
        "json",
    ]);
    assert_eq!(j["sweep"], "n");
    assert_eq!(j["rows"][1]["at"], 2);
    assert!(j.get("sweeps").is_none());
}

#[test]
fn a_name_swept_twice_is_refused() {
    fails_saying(
        &[
            "prob",
            "kriegspiel",
            "dice(n, 6)",
            "--sweep",
            "n=1..2",
            "--sweep",
            "n=3",
        ],
        "--sweep n: swept twice",
    );
}

/// `--samples N` takes all N; sampled extremes are "seen", never least/greatest.
#[test]
fn sampled_odds_take_every_sample_asked_and_call_extremes_seen() {
    let j = json(&[
        "prob",
        "kriegspiel",
        "3d6",
        "--samples",
        "3000",
        "--seed",
        "5",
        "--format",
        "json",
    ]);
    assert_eq!(j["method"], "sampled");
    assert_eq!(j["samples"], 3000);
    assert_eq!(j["samples_asked"], 3000);
    assert!(j.get("min").is_none() && j.get("max").is_none());
    // 3d6 is 3 to 18; 3000 samples of it meet a sum of at most 18 and at least 3.
    let (lo, hi) = (
        j["min_seen"].as_i64().unwrap_or(0),
        j["max_seen"].as_i64().unwrap_or(0),
    );
    assert!((3..=18).contains(&lo) && (3..=18).contains(&hi) && lo < hi);
    let out = ok(&[
        "prob",
        "kriegspiel",
        "3d6",
        "--samples",
        "3000",
        "--seed",
        "5",
    ]);
    assert!(out.contains(", lowest seen ") && out.contains(", highest seen "));
    assert!(!out.contains("least 3,") && !out.contains("greatest"));
    // Exact odds keep least / greatest and min / max.
    let out = ok(&["prob", "kriegspiel", "3d6"]);
    assert!(out.contains("mean 10 1/2 (≈ 10.50), least 3, greatest 18"));

    // The library: an asked-for count is never cut short by the work limit (only the
    // default count is); a hundred thousand d6 rolls are far below it anyway.
    let r = Ruleset::load("kriegspiel").expect("bundled");
    let q = r.question("<test>", "d6").expect("checks");
    let d = odds(
        &Job::of(&r, &q),
        &Settings {
            samples: Some(100_000),
            seed: Some(1),
            ..Settings::default()
        },
    )
    .expect("odds");
    assert!(matches!(
        d.method,
        Method::Sampled {
            samples: 100_000,
            over_limit: None,
            ..
        }
    ));
}

/// The default count stopped by the work limit says how many of how many it took.
#[test]
fn a_sampling_stopped_by_the_work_limit_says_so() {
    let m = Method::Sampled {
        samples: 37_412,
        seed: 9,
        over_limit: Some(100_000),
    };
    // The default count (100,000) was asked for: sampling past the case limit.
    assert_eq!(samples_asked(&m), Some(100_000));
    assert!(method_text(&m)
        .starts_with("sampled: 37,412 of 100,000 adjudications, stopped by the work limit"));
    // All taken: said as before.
    let all = Method::Sampled {
        samples: 100_000,
        seed: 9,
        over_limit: Some(100_000),
    };
    assert!(method_text(&all)
        .starts_with("sampled: exact odds need more than 100000 cases of work (--limit)"));
    // --samples N: N asked, N taken.
    let asked = Method::Sampled {
        samples: 500,
        seed: 9,
        over_limit: None,
    };
    assert_eq!(samples_asked(&asked), Some(500));
}

/// Outcomes merge under a key that agrees with `Value::same`: `12"` is `1'`, a record is
/// its fields by name whatever their order, a number is its value.
#[test]
fn outcome_keys_agree_with_equality() {
    use std::rc::Rc;
    use umpire::value::{Length, LengthUnit, Rational, Value};
    let inches = |n: i64, unit| {
        Value::Length(Length {
            inches: Rational::from_integer(n),
            unit,
        })
    };
    let (a, b) = (inches(12, LengthUnit::Inches), inches(12, LengthUnit::Feet));
    assert!(a.same(&b));
    assert_eq!(OutKey::value(&a), OutKey::value(&b));
    let rec = |fields: Vec<(&str, Value)>| {
        Value::Record(Rc::new(
            fields.into_iter().map(|(n, v)| (Rc::from(n), v)).collect(),
        ))
    };
    let x = rec(vec![("hits", Value::int(5)), ("lost", Value::Bool(true))]);
    let y = rec(vec![("lost", Value::Bool(true)), ("hits", Value::int(5))]);
    assert!(x.same(&y));
    assert_eq!(OutKey::value(&x), OutKey::value(&y));
    // 10/2 is 5; 5 is not 10, nor a length of 5 inches.
    assert_eq!(
        OutKey::value(&Value::num(Rational::new(10, 2))),
        OutKey::value(&Value::int(5))
    );
    assert_ne!(
        OutKey::value(&Value::int(5)),
        OutKey::value(&Value::int(10))
    );
    assert_ne!(
        OutKey::value(&Value::int(5)),
        OutKey::value(&inches(5, LengthUnit::Inches))
    );
    // Through the engine: both faces give one record, certain.
    let r = Ruleset::load("kriegspiel").expect("bundled");
    let q = r
        .question(
            "<test>",
            "if d2 == 1 { {a: 12\", b: 1} } else { {a: 1', b: 1} }",
        )
        .expect("checks");
    let d = umpire::prob::exact(&Job::of(&r, &q), 1000).expect("exact");
    assert_eq!(d.chances.len(), 1);
}

/// `diff --sweep`: each adjudication for each value, old beside new.
#[test]
fn diff_sweeps_a_state_path_old_beside_new() {
    let args = [
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--scenario",
        "examples/house/furious_reason_diff.toml",
        "--sweep",
        "brigade.grenadiers.leader_cp=0..1",
    ];
    let out = ok(&args);
    // leader_cp 0 is the state as written: the documented comparison (docs §9), the
    // veterans' +1 taking Well Handled from 70% to 80% (7 or more on D10 + DRM: each +1
    // moves a tenth). leader_cp 1 adds +1 both ways: old 80%, new 90%.
    assert!(
        out.contains(
            "  Grenadiers (veterans under the house rules) — manoeuvre(brigade.grenadiers)
    brigade.grenadiers.leader_cp = 0
      outcome            old       new    change
      Well Handled    70.00%    80.00%   +10.00%
      Tardy           20.00%    20.00%          
      Hold            10.00%         -   -10.00%
    brigade.grenadiers.leader_cp = 1
      outcome            old       new    change
      Well Handled    80.00%    90.00%   +10.00%
      Tardy           20.00%    10.00%   -10.00%
"
        ),
        "{out}"
    );
    let mut with_json = args.to_vec();
    with_json.extend(["--format", "json"]);
    let j = json(&with_json);
    // Three adjudications, two values each.
    let adj = j["adjudications"].as_array().map_or(0, Vec::len);
    assert_eq!(adj, 6);
    assert_eq!(
        j["adjudications"][1]["at"],
        serde_json::json!({"brigade.grenadiers.leader_cp": 1})
    );
    assert_eq!(
        j["adjudications"][1]["new"]["outcomes"][0]["probability"],
        "9/10"
    );
    let mut with_csv = args.to_vec();
    with_csv.extend(["--format", "csv"]);
    let out = ok(&with_csv);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "adjudication,expr,brigade.grenadiers.leader_cp,outcome,old,new,change"
    );
    assert_eq!(
        lines[3],
        "Grenadiers (veterans under the house rules),manoeuvre(brigade.grenadiers),0,Hold,10.00%,-,-10.00%"
    );
}

/// A free name swept counts for the adjudications that name it; the others are compared
/// once.
#[test]
fn diff_sweeps_a_free_name_where_it_is_named() {
    let dir = Scratch::new("diff-sweep");
    let scenario = dir.path("modifier.toml");
    std::fs::write(
        &scenario,
        "ruleset = \"furious_reason\"\n\
         [[adjudication]]\nname = \"Good order\"\nexpr = 'manoeuvre_table(good_order, D10 + m)'\n\
         [[adjudication]]\nname = \"Rate\"\nexpr = 'movement_rate(line_square, infantry)'\n",
    )
    .expect("write");
    let out = ok(&[
        "diff",
        "furious_reason",
        "examples/house/furious_reason_veterans.rules",
        "--scenario",
        &scenario,
        "--sweep",
        "m=0..1",
    ]);
    // The house rules leave the Manoeuvre Table as printed: the same for each m; the
    // movement rate (8" → 9" in the house rules) once.
    assert!(
        out.contains(
            "  Good order — manoeuvre_table(good_order, D10 + m)
    m = 0
      the same
    m = 1
      the same
  Rate — movement_rate(line_square, infantry)
    8\" → 9\"
"
        ),
        "{out}"
    );
}

/// A free name that no adjudication names would change nothing: refused, with a reason.
#[test]
fn diff_sweep_of_a_name_no_adjudication_names_is_refused() {
    fails_saying(
        &[
            "diff",
            "furious_reason",
            "examples/house/furious_reason_veterans.rules",
            "--scenario",
            "examples/house/furious_reason_diff.toml",
            "--sweep",
            "drm=0..1",
        ],
        "--sweep drm: no adjudication of the scenario names `drm`",
    );
    // Without --scenario there is nothing to sweep.
    fails_saying(
        &[
            "diff",
            "furious_reason",
            "examples/house/furious_reason_veterans.rules",
            "--sweep",
            "m=0..1",
        ],
        "--sweep m=0..1 needs --scenario FILE",
    );
}

/// A fraction wider than a line is left to JSON and CSV: `100d6 > 100d6` is false with
/// 155-digit odds. By symmetry the two sums are each greater half of the time they
/// differ; they tie with chance Σ w_k² / 6^200 ≈ 1.66%, so `true` is (1 − 1.66%) / 2 ≈
/// 49.17% and `false` (greater or equal for the other side) 50.83%.
#[test]
fn a_fraction_too_wide_for_a_line_is_shown_as_an_ellipsis() {
    let o = umpire(&["prob", "kriegspiel", "100d6 > 100d6"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("(exact, over "), "{out}");
    assert!(out.contains("  false  …  50.83%"), "{out}");
    assert!(out.contains("  true   …  49.17%"), "{out}");
    assert!(
        out.contains("shown as …: --format json or csv gives them"),
        "{out}"
    );
    // JSON keeps the whole fraction.
    let o = umpire(&["prob", "kriegspiel", "100d6 > 100d6", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).expect("JSON");
    let p = v["outcomes"][1]["probability"]
        .as_str()
        .expect("a fraction");
    assert!(p.len() > 300, "{p}");
}

/// Runs umpire with `args`, which must fail (exit 1) saying `words`.
fn fails_saying(args: &[&str], words: &str) {
    let o = umpire(args);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains(words), "{}", stderr(&o));
}
