//! The differential test of the exact odds (issue 19): one meaning, two engines. Every
//! question of four corpora is answered by the path-enumeration oracle
//! (`prob::paths::exact`, at most 20,000 paths, else the question is skipped and counted)
//! and by the engine (`prob::exact`, with `DEFAULT_LIMIT * 100`), and the distributions
//! must be identical: the same outcomes in the same order (by `prob::key`, a limit error by
//! its code alone), each with the identical exact fraction. The engine giving no exact odds
//! where the oracle was exact is a failure.
//!
//! 1. every check of every example of the bundled rulesets and the house rules beside the
//!    examples, asked as a question with the example's readings and `let`s; every
//!    adjudication of examples/*.toml with its state and readings;
//! 2. every question of tests/prob.rs, the examples of the rulesets it uses, and the
//!    questions written in tests/prob/regress/*.rules (`# ask: EXPR` lines);
//! 3. generated: small random rulesets as source text (tests/prob_gen/generate.rs), seeds
//!    0..200 (`UMPIRE_GEN_SEEDS=20000` to run more by hand);
//! 4. corpus 3 under tight limits (steps 60, depth 3, dice 8): the same verdict.
//!
//! `cargo test --test prob_differential -- --nocapture` prints the counts. A failure
//! prints the ruleset (its source, when generated), the question, the state and both
//! distributions: to keep it as a regression case, write the ruleset to
//! tests/prob/regress/NAME.rules with a `# ask: QUESTION` line (corpus 2 runs it).

mod common;
mod prob_gen;

use common::files;

use prob_gen::generate::generate;
use prob_gen::{difference, limit_difference, Asked, Tally};
use std::path::Path;
use umpire::adjudication::Outcome;
use umpire::diagnostic::{Code, Diag};
use umpire::dice::{DiceRequest, DiceSource, Given, Seeded};
use umpire::eval::{Evaluator, Limits, Options};
use umpire::prob::{self, Case, Chance, Distribution, Job, Method};
use umpire::program::ExprKind;
use umpire::syntax::ast::BinOp;
use umpire::value::Value;
use umpire::Ruleset;

/// The generated seeds run: 200 (the whole file in about 25 s in a debug build on two
/// busy cores; 300 took 36 s), or `UMPIRE_GEN_SEEDS`.
fn seeds() -> u64 {
    std::env::var("UMPIRE_GEN_SEEDS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(200)
}

/// Dice for an example that gives neither rolls nor a seed: a roll is an error, as
/// `Ruleset::run_examples` makes it.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self, req: &DiceRequest<'_>, _: &mut Vec<u32>) -> Result<i64, Diag> {
        Err(Diag::error(
            Code::DiceNoDice,
            format!("this rolls `{}`, but no rolls or seed are given", req.text),
        ))
    }
}

/// Every check of every example of `rules` asked as a question: with the example's
/// readings, no state (examples have none), and its `let`s worked out as the example
/// works them out (with its given rolls or seed, the checks before rolling theirs), so
/// that a check reads the values its example gives it. Given rolls play no part in the
/// odds: it is the odds of the check's expression.
///
/// (The public API has no "an example's check as a question"; this repeats the walk of
/// `Ruleset::run_examples`: its `let`s, then each check, in order.)
fn example_questions(rules: &Ruleset, path: &str, tally: &mut Tally) {
    let p = &*rules.program;
    for ex in &p.examples {
        let readings = rules.readings.with(&ex.readings);
        let opts = Options {
            readings: readings.clone(),
            ..rules.options()
        };
        let mut given = Given::with_names(
            ex.rolls.iter().map(|(r, _)| *r).collect(),
            ex.named_rolls
                .iter()
                .map(|(n, r, _)| (n.clone(), *r))
                .collect(),
        )
        .written_at(ex.named_rolls.iter().map(|(_, _, s)| *s).collect());
        let mut seeded = ex.seed.map(Seeded::new);
        let no_dice = ex.rolls.is_empty() && ex.named_rolls.is_empty() && ex.seed.is_none();
        let mut none = NoDice;
        let mut frame = vec![Value::Bool(false); ex.slots as usize];
        'example: for i in 0..=ex.checks.len() {
            for step in ex.lets.iter().filter(|l| l.before == i) {
                let dice: &mut dyn DiceSource = match (&mut seeded, no_dice) {
                    (_, true) => &mut none,
                    (Some(s), _) => s,
                    (None, _) => &mut given,
                };
                let mut ev = Evaluator::new(p, &rules.sources, dice, opts.clone());
                let r = ev.eval(&step.expr, &mut frame);
                match (ev.outcome(r), frame.get_mut(step.slot as usize)) {
                    (Ok(Outcome::Value(v)), Some(place)) => *place = v,
                    // A step that gives no value stops the example, as it does in a test.
                    _ => break 'example,
                }
            }
            let Some(chk) = ex.checks.get(i) else { break };
            let lets: Vec<String> = ex
                .lets
                .iter()
                .filter(|l| l.before <= i)
                .filter_map(|l| {
                    let v = frame.get(l.slot as usize)?;
                    Some(format!(
                        "{} = {}",
                        rules.sources.snippet(l.span).trim(),
                        umpire::render::show(p, v)
                    ))
                })
                .collect();
            let question = rules.sources.snippet(chk.span).trim().to_string();
            let state = format!(
                "no state; example \"{}\" (its readings); its lets: [{}]",
                ex.name,
                lets.join("; ")
            );
            let job = Job {
                program: p,
                query: &chk.query,
                state: None,
                locals: &frame,
                readings: &readings,
                limits: rules.limits,
            };
            let asked = Asked {
                ruleset: path,
                question: &question,
                state: &state,
            };
            let odds = tally.run(&job, &asked, difference);
            // The example's context is the example's: a check that holds in `umpire
            // test` (every example here does) and has one outcome is true for certain.
            if let (Some(d), None) = (odds, &chk.expect) {
                if d.chances.len() == 1 {
                    let c = &d.chances[0];
                    if !matches!(c.case, Case::Outcome(Outcome::Value(Value::Bool(true)))) {
                        tally.failures.push(format!(
                            "{path}: the check `{question}` does not hold as a question: {:?} ({state})",
                            c.case
                        ));
                    }
                }
            }
            // The check itself, with the example's dice, so that the steps after it
            // take the rolls the example gives them (`A == B` side by side, as a test
            // works it out).
            let dice: &mut dyn DiceSource = match (&mut seeded, no_dice) {
                (_, true) => &mut none,
                (Some(s), _) => s,
                (None, _) => &mut given,
            };
            let mut ev = Evaluator::new(p, &rules.sources, dice, opts.clone());
            match (&chk.expect, &chk.query.expr.kind) {
                (None, ExprKind::Binary(BinOp::Eq, a, b)) => {
                    let left = ev.eval(a, &mut frame);
                    if ev.outcome(left).is_ok() {
                        let right = ev.eval(b, &mut frame);
                        let _ = ev.outcome(right);
                    }
                }
                _ => {
                    let r = ev.eval(&chk.query.expr, &mut frame);
                    let _ = ev.outcome(r);
                }
            }
        }
    }
}

fn load(path: &str) -> Ruleset {
    Ruleset::load(path).unwrap_or_else(|e| panic!("{path} loads: {e:?}"))
}

/// Corpus 1: the examples of the bundled rulesets (and of the house rules beside the
/// examples), and the adjudications of the example scenarios.
#[test]
fn every_example_check_and_scenario_adjudication_has_the_same_odds_from_both_engines() {
    let mut tally = Tally::default();
    let mut rulesets = files("rulesets", "rules");
    assert!(rulesets.len() >= 4, "the bundled rulesets are found");
    rulesets.extend(files("examples/house", "rules"));
    for path in &rulesets {
        example_questions(&load(path), path, &mut tally);
    }
    let examples = tally.compared + tally.skipped;
    assert!(examples > 50, "the examples' checks are found: {examples}");
    let mut unchecked = Vec::new();
    let scenarios = files("examples", "toml");
    assert!(!scenarios.is_empty(), "the scenarios are found");
    for path in &scenarios {
        let report = umpire::scenario::run(path, false, &Limits::default())
            .unwrap_or_else(|e| panic!("{path} runs: {e:?}"));
        let plan = umpire::scenario::entries(path, &Limits::default())
            .unwrap_or_else(|e| panic!("{path} reads: {e:?}"));
        let rules = &report.ruleset;
        // Each adjudication against the state the scenario starts from, and, when its
        // effects changed it, the state it ends with too.
        let mut states = vec![("the state it starts from", report.start_state.clone())];
        if format!("{:?}", rules.state) != format!("{:?}", report.start_state) {
            states.push(("the state it ends with", rules.state.clone()));
        }
        for (name, expr) in &plan.adjudications {
            let Ok(q) = rules.question(name, expr) else {
                unchecked.push(format!("{path}: {expr}"));
                continue;
            };
            for (which, state) in &states {
                let shown = format!(
                    "{which} (scenario {path}, state file {:?}): {}",
                    plan.state,
                    state
                        .as_ref()
                        .map_or("none".to_string(), |v| umpire::render::show(
                            &rules.program,
                            v
                        ))
                );
                let job = Job {
                    state: state.as_ref(),
                    ..Job::of(rules, &q)
                };
                let asked = Asked {
                    ruleset: &report.ruleset_path,
                    question: expr,
                    state: &shown,
                };
                tally.run(&job, &asked, difference);
            }
        }
    }
    println!(
        "examples: {examples} checks of {} rulesets; scenarios: {} files ({} adjudications that are not questions: {unchecked:?})",
        rulesets.len(),
        scenarios.len(),
        unchecked.len()
    );
    tally.finish("corpus 1 (examples and scenarios)");
}

/// The questions of tests/prob.rs: (ruleset, state file, question).
const PROB_QUESTIONS: &[(&str, Option<&str>, &str)] = &[
    ("tests/prob/small.rules", None, "2d6 + d4"),
    ("tests/prob/small.rules", None, "duel(0)"),
    ("tests/prob/small.rules", None, "duel(1)"),
    ("tests/prob/small.rules", None, "duel(2)"),
    ("tests/prob/small.rules", None, "reroll()"),
    ("tests/prob/small.rules", None, "sometimes_refused()"),
    ("tests/prob/small.rules", None, "bonus(d6) + bonus(d6)"),
    ("tests/prob/small.rules", None, "d6 - d6"),
    ("tests/prob/small.rules", None, "3d4 x 2"),
    ("tests/prob/small.rules", None, "measured()"),
    ("tests/language/dice.rules", None, "reroll(2d4, at_most: 1)"),
    (
        "tests/language/dice.rules",
        None,
        "reroll(d6, at_least: 5) + d3",
    ),
    ("tests/language/dice.rules", None, "explode(d4)"),
    (
        "tests/language/dice.rules",
        None,
        "explode(2d3, at_least: 2)",
    ),
    (
        "tests/language/dice.rules",
        None,
        "count(reroll(2d6, at_most: 1), at_least: 4)",
    ),
    (
        "tests/language/dice.rules",
        None,
        "highest(1, explode(2d4))",
    ),
    (
        "tests/language/dice.rules",
        None,
        "lowest(1, reroll(2d6, at_least: 5))",
    ),
    ("tests/language/dice.rules", None, "gun()"),
    ("tests/language/dice.rules", None, "veteran_hits(2)"),
    ("tests/language/dice.rules", None, "cautious()"),
    ("tests/language/dice.rules", None, "reroll(d6, at_most: 1)"),
    ("tests/language/dice.rules", None, "explode(d6)"),
    ("furious_reason", None, "manoeuvre_table(good_order, D10)"),
    (
        "furious_reason",
        Some("examples/states/furious_reason_brigade.toml"),
        "manoeuvre(brigade.second_foot)",
    ),
    ("kriegspiel", None, "50d6"),
    ("kriegspiel", None, "d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6"),
    (
        "tests/language/records_lets_minutes.rules",
        None,
        "time_for_move(30 x d6, 1)",
    ),
    (
        "tests/language/records_lets_minutes.rules",
        None,
        "time_for_move(15 x d6, 0)",
    ),
    (
        "tests/language/records_lets_minutes.rules",
        None,
        "charge(d6) == { cavalry_killed: 2 }",
    ),
    ("tests/language/bands.rules", None, "attack(2)"),
    ("tests/language/bands.rules", None, "attack(d6 - 2)"),
    ("tests/language/bands.rules", None, "charge(d6 * 6\")"),
    ("tests/language/bands.rules", None, "reach(2d6 * 2\")"),
    ("tests/language/bands.rules", None, "column_of(d6 / d4)"),
    ("tests/language/bands.rules", None, "ladder(d6 / 2)"),
    ("tests/language/bands.rules", None, "ratio_attack(5, 2)"),
    ("tests/language/bands.rules", None, "ratio_attack(d4, 2)"),
    (
        "tests/language/ordered.rules",
        None,
        "attack(three_one, woods)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "attack(six_one, clear)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "attack(one_one, town)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "attack(shift(one_two, d6), clear)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "d6 in (2-3, 6 or more)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "shift(four_one, d6 - 4) not in (five_one or more)",
    ),
    (
        "tests/language/ordered.rules",
        None,
        "place(shift(one_one, d6 - 3))",
    ),
];

/// The inline ruleset of tests/prob.rs (`a_pool_past_the_limit_is_known_before_enumerating`).
const POOLS: &str =
    "ruleset \"P\"\nrule hits() -> Int { count(reroll(20d6, at_most: 1), at_least: 4) }\n";

/// Corpus 2: tests/prob.rs's questions, the examples of the rulesets it uses, and the
/// regression cases of tests/prob/regress.
#[test]
fn every_prob_test_question_has_the_same_odds_from_both_engines() {
    let mut tally = Tally::default();
    for (path, state, expr) in PROB_QUESTIONS {
        let mut rules = load(path);
        if let Some(s) = state {
            rules
                .load_state(s)
                .unwrap_or_else(|e| panic!("{s} loads: {e:?}"));
        }
        let q = rules
            .question("<test>", expr)
            .unwrap_or_else(|e| panic!("{path}: `{expr}` checks: {e:?}"));
        let state = state.map_or("none".to_string(), |s| format!("the file {s}"));
        let asked = Asked {
            ruleset: path,
            question: expr,
            state: &state,
        };
        tally.run(&Job::of(&rules, &q), &asked, difference);
    }
    let pools = Ruleset::from_source("pools.rules", POOLS).expect("the pools ruleset checks");
    for expr in [
        "count(3d6, at_least: 4)",
        "highest(2, 4d6)",
        "count(explode(100d6), at_least: 7)",
        "explode(1000d6)",
        "hits() + 1",
        "2d6 + 1",
    ] {
        let q = pools.question("<test>", expr).expect("checks");
        let asked = Asked {
            ruleset: POOLS,
            question: expr,
            state: "none",
        };
        tally.run(&Job::of(&pools, &q), &asked, difference);
    }
    let mut rulesets = files("tests/prob", "rules");
    rulesets.extend(
        [
            "tests/language/dice.rules",
            "tests/language/records_lets_minutes.rules",
            "tests/language/bands.rules",
            "tests/language/ordered.rules",
        ]
        .map(String::from),
    );
    for path in &rulesets {
        example_questions(&load(path), path, &mut tally);
    }
    let mut regress = 0;
    for path in files("tests/prob/regress", "rules") {
        let rules = load(&path);
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        for expr in text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("# ask: "))
        {
            let q = rules
                .question("<regress>", expr)
                .unwrap_or_else(|e| panic!("{path}: `{expr}` checks: {e:?}"));
            let asked = Asked {
                ruleset: &text,
                question: expr,
                state: "none",
            };
            tally.run(&Job::of(&rules, &q), &asked, difference);
            regress += 1;
        }
        example_questions(&rules, &path, &mut tally);
    }
    assert!(regress > 0, "the regression questions are found");
    tally.finish("corpus 2 (tests/prob.rs, its rulesets' examples, tests/prob/regress)");
}

/// How many generated rulesets and questions checked, of how many.
#[derive(Default)]
struct Checked {
    rulesets: (u64, u64),
    questions: (u64, u64),
    /// The first few that did not check, to show why.
    rejected: Vec<String>,
    /// How often each first error was met.
    why: std::collections::BTreeMap<String, u64>,
}

impl Checked {
    fn note(&mut self, e: &umpire::diagnostic::Diags) {
        let first = e.0.first().map_or(String::new(), |d| d.message.clone());
        *self.why.entry(first.clone()).or_default() += 1;
    }

    fn print_and_hold(&self, corpus: &str) {
        let pct = |(a, b): (u64, u64)| 100.0 * a as f64 / b.max(1) as f64;
        println!(
            "{corpus}: {}/{} generated rulesets check ({:.1}%), {}/{} questions check ({:.1}%)",
            self.rulesets.0,
            self.rulesets.1,
            pct(self.rulesets),
            self.questions.0,
            self.questions.1,
            pct(self.questions)
        );
        for (why, n) in &self.why {
            println!("  not checked {n} times: {why}");
        }
        // A generator that rarely makes a valid ruleset tests little.
        assert!(
            pct(self.rulesets) >= 80.0 && pct(self.questions) >= 80.0,
            "{corpus}: too few generated rulesets or questions check:\n{}",
            self.rejected.join("\n\n")
        );
    }
}

/// Runs `each` on every generated question that checks, with its source and text.
fn generated(checked: &mut Checked, mut each: impl FnMut(&Ruleset, &str, &str)) {
    for seed in 0..seeds() {
        let g = generate(seed);
        checked.rulesets.1 += 1;
        let rules = match Ruleset::from_source("generated.rules", &g.source) {
            Ok(r) => r,
            Err(e) => {
                checked.note(&e);
                if checked.rejected.len() < 10 {
                    checked
                        .rejected
                        .push(format!("seed {seed}:\n{}\n{e:?}", g.source));
                }
                continue;
            }
        };
        checked.rulesets.0 += 1;
        for expr in &g.questions {
            checked.questions.1 += 1;
            match rules.question("<generated>", expr) {
                Ok(_) => {
                    checked.questions.0 += 1;
                    each(&rules, &g.source, expr);
                }
                Err(e) => {
                    checked.note(&e);
                    if checked.rejected.len() < 10 {
                        checked.rejected.push(format!(
                            "seed {seed}:\n{}\nquestion: {expr}\n{e:?}",
                            g.source
                        ));
                    }
                }
            }
        }
    }
}

/// Corpus 3: generated rulesets and questions.
#[test]
fn generated_questions_have_the_same_odds_from_both_engines() {
    let mut tally = Tally::default();
    let mut checked = Checked::default();
    let mut most = 0;
    // How many questions have each kind of outcome (the generator reaches them all).
    let mut kinds = std::collections::BTreeMap::<&str, u64>::new();
    generated(&mut checked, |rules, source, expr| {
        let q = rules.question("<generated>", expr).expect("checked above");
        let asked = Asked {
            ruleset: source,
            question: expr,
            state: "none",
        };
        if let Some(d) = tally.run(&Job::of(rules, &q), &asked, difference) {
            if let Method::Exact { cases } = d.method {
                most = most.max(cases);
            }
            let mut seen = std::collections::BTreeSet::new();
            for c in &d.chances {
                seen.insert(match &c.case {
                    Case::Outcome(Outcome::Value(Value::Int(_) | Value::Frac(_))) => "a number",
                    Case::Outcome(Outcome::Value(Value::Bool(_))) => "true or false",
                    Case::Outcome(Outcome::Value(Value::Enum(..))) => "an enum value",
                    Case::Outcome(Outcome::Value(Value::Record(_))) => "a record",
                    Case::Outcome(Outcome::Value(_)) => "another value",
                    Case::Outcome(Outcome::Refused { .. }) => "a refusal",
                    Case::Outcome(Outcome::NotGiven { .. }) => "not given",
                    Case::Error { .. } => "an error",
                });
            }
            for k in seen {
                *kinds.entry(k).or_default() += 1;
            }
        }
    });
    checked.print_and_hold("corpus 3 (generated)");
    println!("corpus 3: the most paths of a question compared: {most}; questions with each kind of outcome: {kinds:?}");
    for kind in ["a number", "a record", "a refusal", "not given", "an error"] {
        assert!(kinds.contains_key(kind), "no generated question has {kind}");
    }
    tally.finish("corpus 3 (generated)");
}

/// Corpus 4: the generated questions under tight limits: both engines stop at the same
/// limit, or neither does.
#[test]
fn generated_questions_under_tight_limits_get_the_same_verdict_from_both_engines() {
    let mut tally = Tally::default();
    let mut checked = Checked::default();
    let mut stopped = 0;
    generated(&mut checked, |rules, source, expr| {
        let q = rules.question("<generated>", expr).expect("checked above");
        let job = Job {
            limits: Limits {
                steps: 60,
                depth: 3,
                dice: 8,
                ..rules.limits
            },
            ..Job::of(rules, &q)
        };
        let asked = Asked {
            ruleset: source,
            question: expr,
            state: "none",
        };
        if tally
            .run(&job, &asked, limit_difference)
            .is_some_and(|d| !prob_gen::limit_codes(&d).is_empty())
        {
            stopped += 1;
        }
    });
    checked.print_and_hold("corpus 4 (generated, tight limits)");
    println!("corpus 4: {stopped} questions stopped by a limit");
    tally.finish("corpus 4 (generated, tight limits)");
}

// The comparison itself can fail: distributions that differ are told apart.

fn exact_of(rules: &Ruleset, expr: &str) -> Distribution {
    let q = rules.question("<test>", expr).expect("checks");
    prob::paths::exact(&Job::of(rules, &q), 1000).expect("few cases")
}

fn error(code: Code, message: &str) -> Chance {
    Chance {
        case: Case::Error {
            code,
            message: message.into(),
            help: None,
            subject: None,
        },
        exact: Some(num_rational::BigRational::from_integer(1.into())),
        estimate: 1.0,
        std_error: None,
    }
}

fn one(c: Chance) -> Distribution {
    Distribution {
        chances: vec![c],
        method: Method::Exact { cases: 1 },
    }
}

#[test]
fn the_comparison_tells_different_distributions_apart() {
    let r = Ruleset::none();
    let d6 = exact_of(&r, "d6");
    // `7 - d6` is 1 to 6, each 1/6, in the same order: identical to `d6`.
    assert_eq!(difference(&d6, &exact_of(&r, "7 - d6")), None);
    // `d4`: four outcomes, not six.
    assert!(difference(&d6, &exact_of(&r, "d4")).is_some());
    // `d6 + 1`: the first outcome is 2, not 1.
    assert!(difference(&d6, &exact_of(&r, "d6 + 1")).is_some());
    // The same outcomes with one chance changed (1/6 made 1/3).
    let mut changed = d6.clone();
    changed.chances[0].exact = changed.chances[0].exact.clone().map(|x| x.clone() + x);
    assert!(difference(&d6, &changed).is_some());
    // The same outcomes and chances in another order.
    let mut turned = d6.clone();
    turned.chances.reverse();
    assert!(difference(&d6, &turned).is_some());
    // One outcome left out at the end.
    let mut fewer = d6.clone();
    fewer.chances.pop();
    assert!(difference(&d6, &fewer).is_some());
    assert!(difference(&fewer, &d6).is_some());
    // No exact chance where the oracle has one.
    let mut inexact = d6.clone();
    inexact.chances[2].exact = None;
    assert!(difference(&d6, &inexact).is_some());
    // A refusal is not the value; two refusals with other reasons are not one.
    let rules = Ruleset::from_source(
        "r.rules",
        "rule f(n: Int) -> Int { if n > 1 { refuse \"too many\" }\n n }\nrule g(n: Int) -> Int { if n > 1 { refuse \"too few\" }\n n }\n",
    )
    .expect("checks");
    assert!(difference(&exact_of(&rules, "f(2)"), &exact_of(&rules, "g(2)")).is_some());
    assert!(difference(&exact_of(&rules, "f(2)"), &exact_of(&rules, "f(3)")).is_none());
}

#[test]
fn any_limit_is_one_verdict_other_errors_are_compared_by_their_words() {
    let steps_here = one(error(Code::LimitSteps, "more than 60 steps at f"));
    let steps_there = one(error(Code::LimitSteps, "more than 60 steps at g"));
    let depth = one(error(Code::LimitDepth, "more than 3 calls deep"));
    assert_eq!(difference(&steps_here, &steps_there), None);
    // Any limit on both sides is one verdict: the odds cannot be worked out.
    assert_eq!(difference(&steps_here, &depth), None);
    let range_here = one(error(Code::EvalRange, "`n` must be 0 to 4, but is 5"));
    let range_there = one(error(Code::EvalRange, "`n` must be 0 to 4, but is 6"));
    assert!(difference(&range_here, &range_there).is_some());
    // Under tight limits: a limit on both sides is the same verdict (the odds cannot be
    // worked out), whichever limit each names; a limit on one side only is not.
    assert_eq!(limit_difference(&steps_here, &steps_there), None);
    assert_eq!(limit_difference(&steps_here, &depth), None);
    let d6 = exact_of(&Ruleset::none(), "d6");
    assert!(limit_difference(&steps_here, &d6).is_some());
    assert!(limit_difference(&d6, &steps_here).is_some());
    assert_eq!(limit_difference(&d6, &d6.clone()), None);
}

/// The regression directory holds questions: each file is found, checks and has `# ask:`
/// lines (corpus 2 runs them).
#[test]
fn the_regression_cases_are_rulesets_with_questions() {
    let found = files("tests/prob/regress", "rules");
    assert!(!found.is_empty());
    for path in found {
        assert!(Path::new(&path).is_file());
        let text = std::fs::read_to_string(&path).expect("readable");
        assert!(
            text.lines().any(|l| l.trim().starts_with("# ask: ")),
            "{path}"
        );
    }
}

/// A failure is counted and told with all it takes to make it a regression case: the
/// ruleset, the question, the state and both distributions.
#[test]
fn a_difference_is_a_failure_that_tells_the_ruleset_question_state_and_both_distributions() {
    let rules = Ruleset::from_source("t.rules", "rule f() -> Int { d4 + 1 }\n").expect("checks");
    let q = rules.question("<test>", "f()").expect("checks");
    let mut tally = Tally::default();
    let asked = Asked {
        ruleset: "rule f() -> Int { d4 + 1 }",
        question: "f()",
        state: "the state in words",
    };
    let forced = |_: &Distribution, _: &Distribution| Some("forced to differ".to_string());
    assert!(tally.run(&Job::of(&rules, &q), &asked, forced).is_some());
    assert_eq!((tally.compared, tally.skipped), (1, 0));
    let told = &tally.failures[0];
    for part in [
        "forced to differ",
        "rule f() -> Int { d4 + 1 }",
        "question: f()",
        "state: the state in words",
        "oracle:",
        "engine:",
        // `d4 + 1`: 2 to 5, each 1/4.
        "5  1/4",
    ] {
        assert!(told.contains(part), "{part} in {told}");
    }
    // The same question compared honestly passes.
    let mut tally = Tally::default();
    tally.run(&Job::of(&rules, &q), &asked, difference);
    assert!(tally.failures.is_empty());
}
