//! umpire's benchmarks, B1–B5 of `benches/RESULTS.md` (whose peers are in `peers/`),
//! and a few more. Each asserts its result is right before it is timed.
//!
//! - B1 `umpire manoeuvre`: one Furious Reason manoeuvre of `brigade.second_foot`
//!   (the unit's DRMs from the state, the Manoeuvre Table, a seeded D10), the ruleset
//!   loaded once, no explanation built.
//! - B2 `umpire 1M manoeuvres`, `umpire 1M 2d6+drm`: a million of each.
//! - B3 `umpire exact manoeuvre`, `umpire exact Nd6 1..50`, `umpire exact 50d6`.
//! - B4 `umpire parse+check 1000 lines`: a generated ruleset of tables, modifier lists
//!   and rules.
//! - B5 `umpire eval process`: `umpire eval furious_reason '1 + 1'` as a whole process,
//!   start to exit, taking turns in one loop with the hello-world process of `peers/`.
//!
//! `bash benches/compare.sh` runs these with the peers and writes `benches/RESULTS.md`.
//!
//! Run with `UMPIRE_BENCH_COUNT=b1:N` (or `b4:N`) set, the binary runs no criterion
//! bench: it does B1's manoeuvre (B4's parse and check) N times and exits, for
//! `benches/callgrind.sh` to count the instructions of exactly the timed workload.
#![allow(missing_docs)]

use criterion::{criterion_group, Criterion};
use std::hint::black_box;
use std::time::Duration;
use umpire::adjudication::{Adjudication, Outcome};
use umpire::dice::{Given, Seeded};
use umpire::eval::Options;
use umpire::value::Value;
use umpire::Ruleset;

const STATE: &str = "examples/states/furious_reason_brigade.toml";
const MANOEUVRE: &str = "manoeuvre(brigade.second_foot)";
/// B5's command line, after the binary.
const B5_ARGS: [&str; 3] = ["eval", "furious_reason", "1 + 1"];

fn furious_reason() -> Ruleset {
    let mut rules = Ruleset::bundled("furious_reason").expect("bundled ruleset checks");
    rules.load_state(STATE).expect("state loads");
    rules
}

/// The outcome's enum value name (`tardy`).
fn outcome_name(rules: &Ruleset, o: &Outcome) -> String {
    match o {
        Outcome::Value(Value::Enum(e, i)) => rules.program.enums[usize::from(*e)].values
            [usize::from(*i)]
        .name
        .to_string(),
        other => panic!("not an outcome: {other:?}"),
    }
}

/// The Manoeuvre Table, good order, for the 2nd Foot (Line, 30% lost: DRM -1): D10 = r
/// gives r - 1.
fn expected(face: u32) -> &'static str {
    match face as i64 - 1 {
        7.. => "well_handled",
        5 | 6 => "tardy",
        3 | 4 => "hold",
        1 | 2 => "disengage",
        _ => "retire",
    }
}

fn b1_b2(c: &mut Criterion) {
    let rules = furious_reason();
    let q = rules.question("<bench>", MANOEUVRE).expect("checks");
    // Right before timed: every face of the D10 gives the table's outcome.
    for face in 1..=10u32 {
        let a = rules
            .adjudicate(
                &q,
                &mut Given::new(vec![i64::from(face)]),
                Options::default(),
            )
            .expect("adjudicates");
        assert_eq!(
            outcome_name(&rules, &a.outcome),
            expected(face),
            "D10 = {face}"
        );
    }
    // The peers' seed (peers/rust/src/lib.rs `SEED`).
    let mut dice = Seeded::new(1813);
    let a = rules
        .adjudicate(&q, &mut dice, Options::default())
        .expect("adjudicates");
    assert_eq!(
        outcome_name(&rules, &a.outcome),
        expected(a.rolls[0].faces[0])
    );
    // A million, tallied by outcome as the peers tally them, within 0.005 of the
    // table's chances: Well Handled 3/10, Tardy, Hold, Disengage 1/5, Retire 1/10.
    let outcomes = rules.program.enums[match &a.outcome {
        Outcome::Value(Value::Enum(e, _)) => usize::from(*e),
        o => panic!("{o:?}"),
    }]
    .values
    .len();
    let million = |rules: &Ruleset, dice: &mut Seeded| -> Vec<u32> {
        let mut tally = vec![0u32; outcomes];
        for _ in 0..1_000_000 {
            match rules.adjudicate(&q, dice, Options::default()) {
                Ok(Adjudication {
                    outcome: Outcome::Value(Value::Enum(_, i)),
                    ..
                }) => tally[usize::from(i)] += 1,
                other => panic!("a manoeuvre that is not an outcome: {other:?}"),
            }
        }
        tally
    };
    let tally = million(&rules, &mut dice);
    for (name, p) in [
        ("well_handled", 0.3),
        ("tardy", 0.2),
        ("hold", 0.2),
        ("disengage", 0.2),
        ("retire", 0.1),
    ] {
        let i = rules.program.enum_values[name][0].1;
        let f = f64::from(tally[usize::from(i)]) / 1e6;
        assert!(
            (f - p).abs() < 0.005,
            "{name}: {f} where the table gives {p}"
        );
    }

    c.bench_function("umpire manoeuvre", |b| {
        b.iter(|| rules.adjudicate(black_box(&q), &mut dice, Options::default()))
    });

    let mut g = c.benchmark_group("million");
    g.sample_size(10);
    g.bench_function("umpire 1M manoeuvres", |b| {
        b.iter(|| million(&rules, &mut dice))
    });
    // `2d6 + drm`, the unit's DRM worked out once (as the peers do).
    let drm = rules
        .question("<bench>", "manoeuvre_drm(brigade.second_foot)")
        .expect("checks");
    let drm = match rules
        .adjudicate(&drm, &mut Given::new(vec![]), Options::default())
        .expect("adjudicates")
        .outcome
    {
        Outcome::Value(v) => v,
        o => panic!("{o:?}"),
    };
    assert_eq!(drm, Value::int(-1));
    let roll = rules
        .question_with(
            "<bench>",
            "2d6 + drm",
            &[("drm".to_string(), umpire::program::Ty::Int)],
        )
        .expect("checks");
    let bound = |dice: &mut dyn umpire::dice::DiceSource| {
        umpire::eval::adjudicate_bound(
            &rules.program,
            &roll,
            dice,
            Options::default(),
            None,
            vec![drm.clone()],
        )
    };
    let a = bound(&mut Given::new(vec![6, 6])).expect("adjudicates");
    assert_eq!(a.outcome, Outcome::Value(Value::int(11)));
    let sum_million = |dice: &mut Seeded| -> i64 {
        let mut sum = 0i64;
        for _ in 0..1_000_000 {
            match bound(dice) {
                Ok(Adjudication {
                    outcome: Outcome::Value(v),
                    ..
                }) => sum += v.as_int().expect("a whole number"),
                other => panic!("`2d6 + drm` gave {other:?}"),
            }
        }
        sum
    };
    // 2d6 - 1 averages 6.
    let mean = sum_million(&mut dice) as f64 / 1e6;
    assert!((mean - 6.0).abs() < 0.02, "mean of 2d6 - 1: {mean}");
    g.bench_function("umpire 1M 2d6+drm", |b| b.iter(|| sum_million(&mut dice)));
    g.finish();
}

fn b3(c: &mut Criterion) {
    let rules = furious_reason();
    let q = rules.question("<bench>", MANOEUVRE).expect("checks");
    let job = umpire::prob::Job::of(&rules, &q);
    let d = umpire::prob::exact(&job, 100_000).expect("enumerates");
    // Exactly, outcome by outcome: Well Handled 3/10; Tardy, Hold, Disengage 1/5;
    // Retire 1/10 (the Manoeuvre Table, good order, D10 - 1).
    let json = umpire::prob::report::json(&rules.program, MANOEUVRE, &d);
    let chances: Vec<(String, String)> = json["outcomes"]
        .as_array()
        .expect("outcomes")
        .iter()
        .map(|o| {
            (
                o["value"].as_str().unwrap_or("").to_string(),
                o["probability"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String)> = [
        ("well_handled", "3/10"),
        ("tardy", "1/5"),
        ("hold", "1/5"),
        ("disengage", "1/5"),
        ("retire", "1/10"),
    ]
    .iter()
    .map(|(a, b)| (a.to_string(), b.to_string()))
    .collect();
    assert_eq!(chances, want, "{json}");
    c.bench_function("umpire exact manoeuvre", |b| {
        b.iter(|| umpire::prob::exact(black_box(&job), 100_000))
    });

    let sums: Vec<_> = (1..=50)
        .map(|n| {
            rules
                .question("<bench>", &format!("{n}d6"))
                .expect("checks")
        })
        .collect();
    let jobs: Vec<_> = sums
        .iter()
        .map(|q| umpire::prob::Job {
            state: None,
            ..umpire::prob::Job::of(&rules, q)
        })
        .collect();
    // 3d6: a 10 comes 27 ways in 216. 50d6: 251 sums from 50 to 300, 50 once in 6^50,
    // mean 175.
    let d3 = umpire::prob::report::json(
        &rules.program,
        "3d6",
        &umpire::prob::exact(&jobs[2], 100_000).expect("enumerates"),
    );
    let ten = d3["outcomes"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["value"] == 10))
        .expect("10 is an outcome of 3d6");
    assert_eq!(ten["probability"], "1/8", "27/216 = 1/8: {d3}");
    let d50 = umpire::prob::exact(&jobs[49], 100_000).expect("enumerates");
    assert_eq!(d50.chances.len(), 251);
    let j50 = umpire::prob::report::json(&rules.program, "50d6", &d50);
    assert_eq!(j50["mean"], "175", "{}", j50["mean"]);
    assert_eq!(
        j50["outcomes"][0]["probability"],
        format!("1/{}", num_bigint::BigUint::from(6u32).pow(50)),
    );
    let mut g = c.benchmark_group("sums");
    g.sample_size(10);
    g.bench_function("umpire exact Nd6 1..50", |b| {
        b.iter(|| {
            jobs.iter()
                .map(|j| umpire::prob::exact(j, 100_000).map_or(0, |d| d.chances.len()))
                .sum::<usize>()
        })
    });
    g.bench_function("umpire exact 50d6", |b| {
        b.iter(|| umpire::prob::exact(black_box(&jobs[49]), 100_000))
    });
    g.finish();
}

/// A ruleset of `n` lines or a few more: enums, modifier lists, tables keyed by an enum
/// and a roll, rules using them — the shapes of the bundled rulesets, renamed.
pub fn generated_ruleset(n: usize) -> String {
    let mut s = String::from("ruleset \"generated\"\nenum Order { good_order, disorder }\n");
    s.push_str("record Unit {\n  leader: 0..3 = 0,\n  support: Bool = false,\n  lost: 0..100 = 0,\n  charged: Bool = false,\n}\n");
    let mut i = 0;
    while s.lines().count() < n {
        s.push_str(&format!(
            "modifiers drm{i}(u: Unit) cite \"Rules, DRM {i}\" {{\n  \"Leader\" +u.leader if u.leader > 0\n  \"Support\" +1 if u.support\n  \"Each 25% lost\" -1 per floor(u.lost / 25)\n  \"Charged\" -1 if u.charged\n}}\n\
             table t{i}(order: Order, roll: Int) -> Int cite \"Rules, Table {i}\" {{\n  column order = good_order {{\n    7 or more => 3\n    5,6 => 2\n    3,4 => 1\n    2 or less => 0\n  }}\n  column order = disorder {{\n    9 or more => 2\n    5-8 => 1\n    4 or less => 0\n  }}\n}}\n\
             rule r{i}(u: Unit, o: Order) -> Int cite \"Rules, {i}\" {{\n  let roll = D10 + drm{i}(u)\n  t{i}(o, roll)\n}}\n"
        ));
        i += 1;
    }
    s
}

fn b4(c: &mut Criterion) {
    let text = generated_ruleset(1000);
    let lines = text.lines().count();
    let rules =
        Ruleset::from_source("generated.rules", &text).expect("the generated ruleset checks");
    assert!(rules.warnings.is_empty(), "{:?}", rules.warnings);
    println!("generated ruleset: {lines} lines");
    if let Ok(dir) = std::env::var("UMPIRE_BENCH_META") {
        let _ = std::fs::create_dir_all(&dir);
        let _ = std::fs::write(format!("{dir}/parse_check_lines.txt"), lines.to_string());
    }
    let mut g = c.benchmark_group("load");
    g.sample_size(20);
    g.bench_function("umpire parse+check 1000 lines", |b| {
        b.iter(|| Ruleset::from_source("generated.rules", black_box(&text)))
    });
    g.finish();
}

fn b5(c: &mut Criterion) {
    // The release binary, built by `cargo build --release` (compare.sh does).
    let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
    let bin = std::path::Path::new(&dir).join("release/umpire");
    if !bin.exists() {
        eprintln!(
            "skipping `umpire eval process`: build {} first",
            bin.display()
        );
        return;
    }
    // The B5: `umpire eval furious_reason '1 + 1'`, the bundled ruleset loaded
    // and a question answered, as a user's process meets it.
    let run = || {
        std::process::Command::new(&bin)
            .args(B5_ARGS)
            .output()
            .expect("umpire runs")
    };
    let o = run();
    assert!(o.status.success(), "{o:?}");
    assert_eq!(String::from_utf8_lossy(&o.stdout), "2\n", "{o:?}");
    let mut g = c.benchmark_group("process");
    g.sample_size(30);
    // The hello-world peer (peers/rust, built by compare.sh first), timed in the same
    // loop as umpire: the two take turns, each timed only on its own turn, so both are
    // measured under the same load on this noisy machine.
    let hello = std::path::Path::new("peers/rust/target/release/hello");
    if hello.exists() {
        let say_hello = || {
            let o = std::process::Command::new(hello)
                .output()
                .expect("hello runs");
            assert_eq!(o.stdout, b"hello\n");
        };
        g.bench_function("umpire eval process", |b| {
            b.iter_custom(|n| {
                let mut spent = Duration::ZERO;
                for _ in 0..n {
                    say_hello();
                    let t = std::time::Instant::now();
                    black_box(run());
                    spent += t.elapsed();
                }
                spent
            })
        });
        g.bench_function("hello-world process, in turn with umpire", |b| {
            b.iter_custom(|n| {
                let mut spent = Duration::ZERO;
                for _ in 0..n {
                    black_box(run());
                    let t = std::time::Instant::now();
                    say_hello();
                    spent += t.elapsed();
                }
                spent
            })
        });
    } else {
        g.bench_function("umpire eval process", |b| b.iter(run));
    }
    g.finish();
}

fn more(c: &mut Criterion) {
    let rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
    let q = rules
        .question(
            "<bench>",
            "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)",
        )
        .expect("expression checks");
    // Wells's nine against eleven: two taken prisoners.
    let a = rules
        .adjudicate(&q, &mut Given::new(vec![]), Options::default())
        .expect("adjudicates");
    assert!(
        matches!(&a.outcome, Outcome::Value(v) if v.field("defender_prisoners") == Some(&Value::int(2)))
    );
    c.bench_function("little_wars melee, with trace", |b| {
        b.iter(|| {
            rules.adjudicate(
                black_box(&q),
                &mut Given::new(vec![]),
                Options {
                    trace: true,
                    ..Options::default()
                },
            )
        })
    });
    c.bench_function("parse + check little_wars", |b| {
        b.iter(|| Ruleset::bundled(black_box("little_wars")))
    });
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

criterion_group! {
    name = benches;
    config = config();
    targets = b1_b2, b3, b4, b5, more
}

/// `UMPIRE_BENCH_COUNT=b1:N`: B1's manoeuvre N times (the ruleset and state loaded once,
/// the peers' seed, no explanation); `b4:N`: B4's generated ruleset parsed and checked N
/// times, its line count printed. Nothing timed: `benches/callgrind.sh` counts two runs'
/// instructions and takes the difference, so the loading is not counted.
fn count(spec: &str) -> Result<(), String> {
    let (what, n) = spec
        .split_once(':')
        .and_then(|(w, n)| Some((w, n.parse::<u32>().ok()?)))
        .ok_or_else(|| {
            format!("UMPIRE_BENCH_COUNT is {spec:?}; it should be b1:N or b4:N, N a count")
        })?;
    match what {
        "b1" => {
            let rules = furious_reason();
            let q = rules.question("<bench>", MANOEUVRE).expect("checks");
            let mut dice = Seeded::new(1813);
            for _ in 0..n {
                match rules.adjudicate(black_box(&q), &mut dice, Options::default()) {
                    Ok(Adjudication {
                        outcome: Outcome::Value(Value::Enum(..)),
                        ..
                    }) => {}
                    other => return Err(format!("a manoeuvre that is not an outcome: {other:?}")),
                }
            }
        }
        "b4" => {
            let text = generated_ruleset(1000);
            // The line count, for instructions per line.
            println!("{}", text.lines().count());
            for _ in 0..n {
                if let Err(e) = Ruleset::from_source("generated.rules", black_box(&text)) {
                    return Err(format!("the generated ruleset does not check: {e:?}"));
                }
            }
        }
        _ => {
            return Err(format!(
                "UMPIRE_BENCH_COUNT names {what:?}; it can count b1 or b4"
            ))
        }
    }
    Ok(())
}

fn main() {
    if let Ok(spec) = std::env::var("UMPIRE_BENCH_COUNT") {
        if let Err(e) = count(&spec) {
            eprintln!("{e}");
            std::process::exit(1);
        }
        return;
    }
    // What `criterion_main!(benches)` does.
    benches();
    Criterion::default().configure_from_args().final_summary();
}
