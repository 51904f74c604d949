//! Benchmarks: one adjudication of a bundled rule, the ruleset loaded once, no trace.
#![allow(missing_docs)]

use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use umpire::adjudication::Outcome;
use umpire::dice::{Given, Seeded};
use umpire::eval::Options;
use umpire::value::Value;
use umpire::Ruleset;

fn melee(c: &mut Criterion) {
    let mut rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
    let q = rules
        .compile(
            "<bench>",
            "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)",
        )
        .expect("expression checks");
    // The result is right before it is timed: Wells's nine against eleven.
    let a = rules
        .adjudicate(&q, &mut Given::new(vec![]), Options::default())
        .expect("adjudicates");
    assert!(
        matches!(&a.outcome, Outcome::Value(v) if v.field("defender_prisoners") == Some(&Value::int(2)))
    );
    c.bench_function("little_wars melee, no trace", |b| {
        b.iter(|| rules.adjudicate(black_box(&q), &mut Given::new(vec![]), Options::default()))
    });
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
}

fn dice(c: &mut Criterion) {
    let mut rules = Ruleset::bundled("kriegspiel").expect("bundled ruleset checks");
    let q = rules
        .compile("<bench>", "2d6 + 1")
        .expect("expression checks");
    let mut dice = Seeded::new(1913);
    c.bench_function("2d6 + 1, seeded", |b| {
        b.iter(|| rules.adjudicate(black_box(&q), &mut dice, Options::default()))
    });
}

fn load(c: &mut Criterion) {
    c.bench_function("parse + check little_wars", |b| {
        b.iter(|| Ruleset::bundled(black_box("little_wars")))
    });
}

fn odds(c: &mut Criterion) {
    let mut rules = Ruleset::bundled("furious_reason").expect("bundled ruleset checks");
    rules
        .load_state("examples/states/furious_reason_brigade.toml")
        .expect("state loads");
    for expr in ["manoeuvre(brigade.second_foot)", "10d10", "3d6 + 3d6 + 3d6"] {
        let q = rules.compile("<bench>", expr).expect("expression checks");
        let job = umpire::prob::Job {
            program: &rules.program,
            query: &q,
            state: rules.state.as_ref(),
            locals: &[],
        };
        assert!(umpire::prob::exact(&job, 100_000).is_some());
        c.bench_function(&format!("exact odds of {expr}"), |b| {
            b.iter(|| umpire::prob::exact(black_box(&job), 100_000))
        });
    }
}

criterion_group!(benches, melee, dice, load, odds);
criterion_main!(benches);
