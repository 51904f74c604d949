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
//! - B5 `umpire eval process`: `umpire eval` as a whole process, start to exit.
//!
//! `bash benches/compare.sh` runs these with the peers and writes `benches/RESULTS.md`.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;
use umpire::adjudication::Outcome;
use umpire::dice::{Given, Seeded};
use umpire::eval::Options;
use umpire::value::Value;
use umpire::Ruleset;

const STATE: &str = "examples/states/furious_reason_brigade.toml";
const MANOEUVRE: &str = "manoeuvre(brigade.second_foot)";

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
    let mut rules = furious_reason();
    let q = rules.compile("<bench>", MANOEUVRE).expect("checks");
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
    let mut dice = Seeded::new(1913);
    let a = rules
        .adjudicate(&q, &mut dice, Options::default())
        .expect("adjudicates");
    assert_eq!(
        outcome_name(&rules, &a.outcome),
        expected(a.rolls[0].faces[0])
    );

    c.bench_function("umpire manoeuvre", |b| {
        b.iter(|| rules.adjudicate(black_box(&q), &mut dice, Options::default()))
    });

    let mut g = c.benchmark_group("million");
    g.sample_size(10);
    g.bench_function("umpire 1M manoeuvres", |b| {
        b.iter(|| {
            let mut well_handled = 0u32;
            for _ in 0..1_000_000 {
                if let Ok(a) = rules.adjudicate(&q, &mut dice, Options::default()) {
                    if a.rolls[0].faces[0] >= 8 {
                        well_handled += 1;
                    }
                }
            }
            well_handled
        })
    });
    // `2d6 + drm`, the unit's DRM worked out once (as the peers do).
    let drm = rules
        .compile("<bench>", "manoeuvre_drm(brigade.second_foot)")
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
        .compile_with(
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
    g.bench_function("umpire 1M 2d6+drm", |b| {
        b.iter(|| {
            let mut sum = 0i64;
            for _ in 0..1_000_000 {
                if let Ok(a) = bound(&mut dice) {
                    if let Outcome::Value(v) = a.outcome {
                        sum += v.as_int().unwrap_or(0);
                    }
                }
            }
            sum
        })
    });
    g.finish();
}

fn b3(c: &mut Criterion) {
    let mut rules = furious_reason();
    let q = rules.compile("<bench>", MANOEUVRE).expect("checks");
    let job = umpire::prob::Job {
        program: &rules.program,
        query: &q,
        state: rules.state.as_ref(),
        locals: &[],
    };
    let d = umpire::prob::exact(&job, 100_000).expect("enumerates");
    // Well Handled 3/10; Tardy, Hold, Disengage 1/5; Retire 1/10.
    let text = umpire::prob::report::text(&rules.program, MANOEUVRE, &d);
    for want in ["3/10", "1/5", "1/10"] {
        assert!(text.contains(want), "{text}");
    }
    c.bench_function("umpire exact manoeuvre", |b| {
        b.iter(|| umpire::prob::exact(black_box(&job), 100_000))
    });

    let sums: Vec<_> = (1..=50)
        .map(|n| rules.compile("<bench>", &format!("{n}d6")).expect("checks"))
        .collect();
    let jobs: Vec<_> = sums
        .iter()
        .map(|q| umpire::prob::Job {
            program: &rules.program,
            query: q,
            state: None,
            locals: &[],
        })
        .collect();
    // 50d6: 251 sums from 50 to 300.
    let d50 = umpire::prob::exact(&jobs[49], 100_000).expect("enumerates");
    assert_eq!(d50.chances.len(), 251);
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
    assert!(
        rules.program.warnings.is_empty(),
        "{:?}",
        rules.program.warnings
    );
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
    let run = || {
        std::process::Command::new(&bin)
            .args([
                "eval",
                "furious_reason",
                MANOEUVRE,
                "--state",
                STATE,
                "--roll",
                "6",
            ])
            .output()
            .expect("umpire runs")
    };
    let o = run();
    // A 6 less 1 is 5: Tardy.
    assert!(
        String::from_utf8_lossy(&o.stdout).starts_with("Tardy"),
        "{o:?}"
    );
    let mut g = c.benchmark_group("process");
    g.sample_size(30);
    g.bench_function("umpire eval process", |b| b.iter(run));
    g.finish();
}

fn more(c: &mut Criterion) {
    let mut rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
    let q = rules
        .compile(
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
criterion_main!(benches);
