//! The exact odds engine against brute force (every face of every die), against
//! sampling (fixed seed, stated tolerance), and against hand computations from the
//! rulebooks.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;
use umpire::diagnostic::Diag;
use umpire::dice::{DiceRequest, DiceSource};
use umpire::eval::{adjudicate, Options};
use umpire::prob::{exact, odds, report, Case, Job, Settings};
use umpire::Ruleset;

/// Dice that follow a sequence of single faces; a die past the sequence shows 1 and is
/// noted (its other faces are paths still to run).
struct Faces<'a> {
    prefix: &'a [u32],
    sides: Vec<u32>,
}

impl DiceSource for Faces<'_> {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let mut sum = 0;
        for _ in 0..req.count {
            let f = self.prefix.get(self.sides.len()).copied().unwrap_or(1);
            self.sides.push(req.sides);
            faces.push(f);
            sum += i64::from(f);
        }
        Ok(sum)
    }
}

/// Every outcome's chance by running every sequence of faces, each die on its own.
fn brute_force(rules: &Ruleset, expr: &str) -> HashMap<String, BigRational> {
    let r = rules;
    let q = r.question("<test>", expr).expect("checks");
    let mut out: HashMap<String, BigRational> = HashMap::new();
    let mut stack: Vec<Vec<u32>> = vec![Vec::new()];
    while let Some(prefix) = stack.pop() {
        let mut dice = Faces {
            prefix: &prefix,
            sides: Vec::new(),
        };
        let result = adjudicate(
            &r.program,
            &q,
            &mut dice,
            Options::default(),
            r.state.as_ref(),
        );
        for j in prefix.len()..dice.sides.len() {
            let mut before: Vec<u32> = prefix.clone();
            before.extend(std::iter::repeat_n(1, j - prefix.len()));
            for f in 2..=dice.sides[j] {
                let mut next = before.clone();
                next.push(f);
                stack.push(next);
            }
        }
        let p = dice.sides.iter().fold(BigRational::one(), |acc, s| {
            acc / BigRational::from_integer(BigInt::from(*s))
        });
        let key = match result {
            Ok(a) => format!("{:?}", Case::Outcome(a.outcome)),
            Err(d) => format!(
                "{:?}",
                Case::Error {
                    code: d.code,
                    message: d.message
                }
            ),
        };
        *out.entry(key).or_insert_with(BigRational::zero) += p;
    }
    out
}

/// The exact odds of `expr` (and the ruleset they were worked out with, for labels).
fn exact_of(rules: &Ruleset, expr: &str) -> (Ruleset, umpire::prob::Distribution) {
    let r = rules.clone();
    let q = r.question("<test>", expr).expect("checks");
    let job = Job::of(&r, &q);
    let d = exact(&job, 1_000_000).expect("few enough cases");
    (r, d)
}

fn exact_map(rules: &Ruleset, expr: &str) -> HashMap<String, BigRational> {
    let (_, d) = exact_of(rules, expr);
    let total = d
        .chances
        .iter()
        .filter_map(|c| c.exact.clone())
        .fold(BigRational::zero(), |a, b| a + b);
    assert_eq!(
        total,
        BigRational::one(),
        "{expr}: the chances sum to exactly 1"
    );
    d.chances
        .into_iter()
        .map(|c| (format!("{:?}", c.case), c.exact.expect("exact")))
        .collect()
}

fn frac(n: i64, d: i64) -> BigRational {
    BigRational::new(BigInt::from(n), BigInt::from(d))
}

/// Each outcome's label and exact chance, in the report's order.
fn labelled(rules: &Ruleset, expr: &str) -> Vec<(String, BigRational)> {
    let (r, d) = exact_of(rules, expr);
    d.chances
        .iter()
        .map(|c| {
            (
                report::label(&r.program, &c.case),
                c.exact.clone().expect("exact"),
            )
        })
        .collect()
}

#[test]
fn exact_odds_agree_with_brute_force() {
    let rules = Ruleset::load("tests/prob/small.rules").expect("loads");
    for expr in [
        "2d6 + d4",
        "duel(0)",
        "duel(2)",
        "reroll()",
        "sometimes_refused()",
        "bonus(d6) + bonus(d6)",
        "d6 - d6",
        "3d4 x 2",
    ] {
        assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr), "{expr}");
    }
}

#[test]
fn the_manoeuvre_table_with_a_d10_and_no_modifier_is_well_handled_two_in_five() {
    // Good order: 7 or more is Well Handled — 7, 8, 9, 10 of a D10: 4/10 = 2/5;
    // 5,6 Tardy, 3,4 Hold, 1,2 Disengage: 1/5 each; no Retire (0 or less).
    let rules = Ruleset::load("furious_reason").expect("bundled");
    let m = exact_map(&rules, "manoeuvre_table(good_order, D10)");
    assert_eq!(m.len(), 4, "no Retire: a D10 never makes 0 or less");
    let by_label: HashMap<String, BigRational> =
        labelled(&rules, "manoeuvre_table(good_order, D10)")
            .into_iter()
            .collect();
    assert_eq!(by_label["Well Handled"], frac(2, 5));
    assert_eq!(by_label["Tardy"], frac(1, 5));
    assert_eq!(by_label["Hold"], frac(1, 5));
    assert_eq!(by_label["Disengage"], frac(1, 5));
}

#[test]
fn a_battalion_of_the_example_state_manoeuvres_as_worked_by_hand() {
    // 2nd Foot: Line, 30% lost (one whole 25%: -1), good order. D10 - 1:
    // Well Handled on 8-10 (3/10), Tardy 6-7, Hold 4-5, Disengage 2-3 (1/5 each),
    // Retire on a 1 (1/10).
    let mut rules = Ruleset::load("furious_reason").expect("bundled");
    rules
        .load_state("examples/states/furious_reason_brigade.toml")
        .expect("state");
    let got = labelled(&rules, "manoeuvre(brigade.second_foot)");
    let want = vec![
        ("Well Handled".to_string(), frac(3, 10)),
        ("Tardy".to_string(), frac(1, 5)),
        ("Hold".to_string(), frac(1, 5)),
        ("Disengage".to_string(), frac(1, 5)),
        ("Retire".to_string(), frac(1, 10)),
    ];
    assert_eq!(got, want);
}

#[test]
fn many_dice_are_summed_by_convolution_with_exact_big_fractions() {
    // 50d6: 251 sums, not 6^50 paths; P(50) = 1/6^50, a denominator past 128 bits.
    let r = Ruleset::load("kriegspiel").expect("bundled");
    let q = r.question("<test>", "50d6").expect("checks");
    let job = Job {
        state: None,
        ..Job::of(&r, &q)
    };
    let d = exact(&job, 1000).expect("exact");
    assert_eq!(d.chances.len(), 251);
    let six50 = num_traits::pow(BigInt::from(6), 50);
    assert_eq!(
        d.chances[0].exact,
        Some(BigRational::new(BigInt::one(), six50))
    );
    let total = d
        .chances
        .iter()
        .filter_map(|c| c.exact.clone())
        .fold(BigRational::zero(), |a, b| a + b);
    assert_eq!(total, BigRational::one());
}

#[test]
fn sampling_agrees_with_the_exact_odds_within_four_standard_errors() {
    let rules = Ruleset::load("tests/prob/small.rules").expect("loads");
    for expr in ["duel(1)", "2d6 + d4", "sometimes_refused()"] {
        let r = &rules;
        let q = r.question("<test>", expr).expect("checks");
        let job = Job {
            state: None,
            ..Job::of(r, &q)
        };
        let exact_d = exact(&job, 100_000).expect("exact");
        let settings = Settings {
            samples: Some(20_000),
            seed: Some(7),
            ..Settings::default()
        };
        let sampled = odds(&job, &settings).expect("no limit is hit");
        for c in &exact_d.chances {
            let p = c.estimate;
            let est = sampled
                .chances
                .iter()
                .find(|s| format!("{:?}", s.case) == format!("{:?}", c.case))
                .map_or(0.0, |s| s.estimate);
            let se = (p * (1.0 - p) / 20_000.0).sqrt();
            assert!(
                (est - p).abs() <= 4.0 * se + 1e-9,
                "{expr}: {:?} exact {p}, sampled {est}",
                c.case
            );
        }
    }
}

#[test]
fn too_many_cases_fall_back_to_sampling() {
    let r = Ruleset::load("kriegspiel").expect("bundled");
    let q = r
        .question("<test>", "d6 + d6 + d6 + d6 + d6 + d6 + d6 + d6")
        .expect("checks");
    let job = Job {
        state: None,
        ..Job::of(&r, &q)
    };
    assert!(exact(&job, 1000).is_none(), "6^8 cases are more than 1000");
    let d = odds(
        &job,
        &Settings {
            limit: 1000,
            samples: None,
            seed: Some(1),
            progress: false,
        },
    )
    .expect("no limit is hit");
    assert!(matches!(
        d.method,
        umpire::prob::Method::Sampled {
            over_limit: Some(1000),
            seed: 1,
            ..
        }
    ));
}

#[test]
fn equal_values_written_in_other_units_are_one_outcome() {
    let rules = Ruleset::load("tests/prob/small.rules").expect("loads");
    let got = labelled(&rules, "measured()");
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got[0].1, BigRational::one());
}

/// The odds-ratio CRT of tests/language/ordered.rules, its column shifted by terrain
/// (issue 17, form 1). 3-1 in woods is read on 2-1: 1-3 DR (1/2), 4 EX (1/6), 5-6 AR
/// (1/3). 6-1 in the open is read on "5-1 or more": 1-3 DE, 4-5 DR, 6 EX. 1-1 in a town
/// is worse than 1-2: AE, no die rolled.
#[test]
fn a_crt_column_shifted_by_terrain_has_the_odds_worked_by_hand() {
    let rules = Ruleset::load("tests/language/ordered.rules").expect("loads");
    let chances = |expr: &str| -> HashMap<String, BigRational> {
        labelled(&rules, expr).into_iter().collect()
    };
    let woods = chances("attack(three_one, woods)");
    assert_eq!(woods.len(), 3);
    assert_eq!(woods["DR"], frac(1, 2));
    assert_eq!(woods["EX"], frac(1, 6));
    assert_eq!(woods["AR"], frac(1, 3));
    let open = chances("attack(six_one, clear)");
    assert_eq!(open["DE"], frac(1, 2));
    assert_eq!(open["DR"], frac(1, 3));
    assert_eq!(open["EX"], frac(1, 6));
    let town = chances("attack(one_one, town)");
    assert_eq!(town.len(), 1);
    assert_eq!(town["AE"], BigRational::one());
    // Membership and shifts are deterministic: prob's enumeration agrees with every face.
    for expr in [
        "attack(three_one, woods)",
        "attack(shift(one_two, d6), clear)",
        "d6 in (2-3, 6 or more)",
        "shift(four_one, d6 - 4) not in (five_one or more)",
        "place(shift(one_one, d6 - 3))",
    ] {
        assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr), "{expr}");
    }
}
