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
use umpire::prob::{exact, odds, pool_cases, report, Case, Job, Settings};
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
                    message: d.message,
                    help: d.help,
                    subject: d.subject
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

/// Re-rolls and exploding dice (issue 17, form 6): prob's odds are the evaluator's, die by
/// die — every face of every die, re-roll and extra roll run through by brute force.
#[test]
fn rerolls_and_exploding_dice_agree_with_brute_force() {
    let rules = Ruleset::load("tests/language/dice.rules").expect("loads");
    for expr in [
        "reroll(2d4, at_most: 1)",
        "reroll(d6, at_least: 5) + d3",
        "explode(d4)",
        "explode(2d3, at_least: 2)",
        "count(reroll(2d6, at_most: 1), at_least: 4)",
        "highest(1, explode(2d4))",
        "lowest(1, reroll(2d6, at_least: 5))",
        "gun()",
        "veteran_hits(2)",
        "cautious()",
    ] {
        assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr), "{expr}");
    }
}

/// Worked by hand: a d6 re-rolled on a 1 shows 1 only if both rolls are 1 (1/36); each
/// other face comes first (1/6) or after a 1 (1/36): 7/36.
#[test]
fn a_d6_with_1s_rerolled_once_is_1_one_time_in_36() {
    let rules = Ruleset::load("tests/language/dice.rules").expect("loads");
    let mut want = vec![("1".to_string(), frac(1, 36))];
    want.extend((2..=6).map(|f| (f.to_string(), frac(7, 36))));
    assert_eq!(labelled(&rules, "reroll(d6, at_most: 1)"), want);
}

/// Worked by hand: a d6 that explodes on a 6, at most three extra rolls: 1-5 at 1/6 each,
/// 6 + 1-5 (7-11) at 1/36, 12 + 1-5 (13-17) at 1/216, and 18 + 1-6 (19-24: the third
/// extra roll is the last, a 6 on it kept) at 1/1296. Never 6, 12 or 18.
#[test]
fn an_exploding_d6_stops_after_three_extra_rolls() {
    let rules = Ruleset::load("tests/language/dice.rules").expect("loads");
    let mut want = Vec::new();
    for (base, den) in [(0, 6), (6, 36), (12, 216)] {
        want.extend((1..=5).map(|f| ((base + f).to_string(), frac(1, den))));
    }
    want.extend((19..=24).map(|t| (t.to_string(), frac(1, 1296))));
    assert_eq!(labelled(&rules, "explode(d6)"), want);
}

/// Worked by hand: one d6 re-rolled on a 1 shows 4 or more with 1/2 + 1/6 x 1/2 = 7/12,
/// so of two dice none, one or both do: 25/144, 2 x 7/12 x 5/12 = 35/72, 49/144.
#[test]
fn rerolled_dice_counted_as_worked_by_hand() {
    let rules = Ruleset::load("tests/language/dice.rules").expect("loads");
    assert_eq!(
        labelled(&rules, "count(reroll(2d6, at_most: 1), at_least: 4)"),
        vec![
            ("0".to_string(), frac(25, 144)),
            ("1".to_string(), frac(35, 72)),
            ("2".to_string(), frac(49, 144)),
        ]
    );
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
    // (Its work: 251 sums from 6 faces each, then 251 paths of 2 units: about 2,000.)
    let d = exact(&job, 10_000).expect("exact");
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

#[test]
fn minutes_outcomes_are_exact_and_told_in_minutes() {
    // "A minute for every thirty men and a minute for each gun": 30 x d6 men and one gun
    // take 2 to 7 minutes, each 1/6; a mean of 4 1/2 minutes.
    let rules = Ruleset::load("tests/language/records_lets_minutes.rules").expect("loads");
    let expr = "time_for_move(30 x d6, 1)";
    let got = labelled(&rules, expr);
    let want: Vec<(String, BigRational)> = [
        "2 minutes",
        "3 minutes",
        "4 minutes",
        "5 minutes",
        "6 minutes",
        "7 minutes",
    ]
    .iter()
    .map(|l| (l.to_string(), frac(1, 6)))
    .collect();
    assert_eq!(got, want);
    assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr));
    let (r, d) = exact_of(&rules, expr);
    let s = umpire::prob::stats(&d).expect("minutes are numbers");
    let mean = s.mean_value().expect("an exact mean");
    assert_eq!(umpire::render::show(&r.program, &mean), "4 1/2 minutes");
    // 15 x d6 men: a part of thirty gives its part of a minute, 1/2 to 3 minutes.
    let halves = labelled(&rules, "time_for_move(15 x d6, 0)");
    assert_eq!(halves[0].0, "1/2 minute");
    assert_eq!(halves[2].0, "1 1/2 minutes");
}

#[test]
fn a_typed_record_and_its_defaults_are_one_outcome_with_the_untyped_one() {
    // charge(d6): ChargeResult { cavalry_killed: roll } with infantry_killed 0 by default;
    // compared with the untyped literal leaving both defaults out, true on a 2 only.
    let rules = Ruleset::load("tests/language/records_lets_minutes.rules").expect("loads");
    let expr = "charge(d6) == { cavalry_killed: 2 }";
    let got = labelled(&rules, expr);
    let by: HashMap<String, BigRational> = got.into_iter().collect();
    assert_eq!(by["true"], frac(1, 6));
    assert_eq!(by["false"], frac(5, 6));
    assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr));
}

/// Distance bands, ratios and a printed grid (issue 17, form 2): the exact odds agree with
/// every face tried, and the grid's column reads as printed.
#[test]
fn bands_and_grids_agree_with_brute_force_and_the_printed_crt() {
    let rules = Ruleset::load("tests/language/bands.rules").expect("loads");
    for expr in [
        "attack(2)",
        "attack(d6 - 2)",
        "charge(d6 * 6\")",
        "reach(2d6 * 2\")",
        "column_of(d6 / d4)",
        "ladder(d6 / 2)",
        "ratio_attack(5, 2)",
        "ratio_attack(d4, 2)",
    ] {
        assert_eq!(exact_map(&rules, expr), brute_force(&rules, expr), "{expr}");
    }
    // The `2` column: 1 Attacker retreats, 2-3 Defender retreats, 4-6 Exchange.
    let by_label: HashMap<String, BigRational> =
        labelled(&rules, "attack(2)").into_iter().collect();
    assert_eq!(by_label["Attacker retreats"], frac(1, 6));
    assert_eq!(by_label["Defender retreats"], frac(1, 3));
    assert_eq!(by_label["Exchange"], frac(1, 2));
    // d6 x 6": 6" and 12" walk, 18" and 24" trot, 30" and 36" gallop (more than 2').
    let charge: HashMap<String, BigRational> =
        labelled(&rules, "charge(d6 * 6\")").into_iter().collect();
    assert_eq!(charge["Walk"], frac(1, 3));
    assert_eq!(charge["Trot"], frac(1, 3));
    assert_eq!(charge["Gallop"], frac(1, 3));
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

/// A pool of dice rolled one by one (`explode`, `reroll`, counted or not) has at least
/// faces^dice cases, so `prob` knows before enumerating that `count(explode(100d6),
/// at_least: 7)` is past any limit and samples at once (it enumerated up to the limit
/// first, for minutes); a pool in a rule the question calls counts too.
#[test]
fn a_pool_past_the_limit_is_known_before_enumerating() {
    let r = Ruleset::from_source(
        "pools.rules",
        "ruleset \"P\"\nrule hits() -> Int { count(reroll(20d6, at_most: 1), at_least: 4) }\n",
    )
    .expect("loads");
    let cases = |expr: &str| {
        let q = r.question("<test>", expr).expect("checks");
        pool_cases(&Job::of(&r, &q))
    };
    // A count, the highest or the lowest of plain dice are worked out by their closed
    // forms (a binomial, the kept dice face by face), not die by die.
    assert_eq!(cases("count(3d6, at_least: 4)"), 1, "a closed form");
    assert_eq!(cases("highest(2, 4d6)"), 1, "a closed form");
    assert_eq!(
        cases("count(reroll(3d6, at_most: 1), at_least: 4)"),
        216,
        "6^3"
    );
    assert!(cases("count(explode(100d6), at_least: 7)") > 100_000);
    assert!(cases("explode(1000d6)") > 100_000);
    assert!(cases("hits() + 1") > 100_000, "20 dice in the rule called");
    assert_eq!(cases("2d6 + 1"), 1, "a sum of dice is no pool");
}

/// The "done when": a hundred attacks hitting on 4+, each through a helper rule,
/// as a rule calling itself (101 calls deep), are exact under the default limits: the
/// hits are Binomial(100, 1/2), so P(50 hits) = C(100, 50) / 2^100. And `800d6` is
/// exact: 4,001 sums, the least (800) and the greatest (4,800) 1/6^800 each.
#[test]
fn a_hundred_attacks_and_eight_hundred_dice_are_exact_under_the_default_limits() {
    let r = Ruleset::from_source(
        "hits.rules",
        "ruleset \"H\"\nrule hit() -> Int { if d6 >= 4 { 1 } else { 0 } }\nrule hits(n: 0..) -> Int recursive { if n == 0 { 0 } else { hit() + hits(n - 1) } }\n",
    )
    .expect("loads");
    let q = r.question("<test>", "hits(100)").expect("checks");
    let d = odds(&Job::of(&r, &q), &Settings::default()).expect("odds");
    assert!(matches!(d.method, umpire::prob::Method::Exact { .. }));
    assert_eq!(d.chances.len(), 101);
    let mut c = BigInt::one();
    for k in 0..50u32 {
        c = c * BigInt::from(100 - k) / BigInt::from(k + 1);
    }
    let p50 = BigRational::new(c, num_traits::pow(BigInt::from(2), 100));
    assert_eq!(d.chances[50].exact, Some(p50));
    let k = Ruleset::load("kriegspiel").expect("bundled");
    let q = k.question("<test>", "800d6").expect("checks");
    let job = Job {
        state: None,
        ..Job::of(&k, &q)
    };
    let d = odds(&job, &Settings::default()).expect("odds");
    assert!(matches!(d.method, umpire::prob::Method::Exact { .. }));
    assert_eq!(d.chances.len(), 4001);
    let least = BigRational::new(BigInt::one(), num_traits::pow(BigInt::from(6), 800));
    assert_eq!(d.chances[0].exact, Some(least.clone()));
    assert_eq!(d.chances[4000].exact, Some(least));
}
