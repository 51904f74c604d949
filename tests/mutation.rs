//! Seeded mutation: the bundled rulesets and some questions, damaged at random (bytes
//! cut, repeated, or replaced by the characters that break parsers), must each load or
//! fail with diagnostics — never panic. What loads runs its examples, which must end in
//! a result or a diagnostic too. The seed is fixed: a failure here replays exactly.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::panic::{catch_unwind, AssertUnwindSafe};
use umpire::dice::Seeded;
use umpire::eval::Options;
use umpire::{bundled, Ruleset};

/// Pieces that break parsers: brackets, quotes, operators, dice, line endings, text
/// that is not ASCII.
const PIECES: [&str; 24] = [
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "\"",
    "#",
    "=>",
    "|",
    "-",
    "- - -",
    "x",
    "d6",
    "0d0",
    "999999999999999999999",
    "\r",
    "\r\n",
    "\u{feff}",
    "é½中",
    "_",
    ",",
    "..",
    "if",
];

fn mutate(text: &str, rng: &mut ChaCha8Rng) -> String {
    let mut b: Vec<char> = text.chars().collect();
    for _ in 0..rng.gen_range(1..4) {
        if b.is_empty() {
            break;
        }
        let at = rng.gen_range(0..b.len());
        let len = rng.gen_range(0..8usize).min(b.len() - at);
        match rng.gen_range(0..4) {
            0 => {
                b.drain(at..at + len);
            }
            1 => {
                let piece: Vec<char> = b[at..at + len].to_vec();
                for (i, c) in piece.into_iter().enumerate() {
                    b.insert(at + i, c);
                }
            }
            2 => {
                let piece = PIECES[rng.gen_range(0..PIECES.len())];
                for (i, c) in piece.chars().enumerate() {
                    b.insert(at + i, c);
                }
            }
            _ => {
                let piece = PIECES[rng.gen_range(0..PIECES.len())];
                b.drain(at..at + len);
                for (i, c) in piece.chars().enumerate() {
                    b.insert(at + i, c);
                }
            }
        }
    }
    b.into_iter().collect()
}

#[test]
fn damaged_rulesets_load_or_fail_with_diagnostics() {
    let mut rng = ChaCha8Rng::seed_from_u64(1913);
    let mut loaded = 0;
    let mut refused = 0;
    for name in bundled::names() {
        let text = bundled::source(name).expect("bundled");
        for i in 0..100 {
            let damaged = mutate(text, &mut rng);
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                match Ruleset::from_source("damaged.rules", &damaged) {
                    Ok(r) => {
                        // Its examples end in results or diagnostics.
                        let _ = r.run_examples();
                        true
                    }
                    Err(ds) => {
                        assert!(!ds.0.is_empty(), "an error with no diagnostic");
                        false
                    }
                }
            }));
            match outcome {
                Ok(true) => loaded += 1,
                Ok(false) => refused += 1,
                Err(_) => panic!("{name}, mutation {i} panicked; the damaged text:\n{damaged}"),
            }
        }
    }
    assert!(
        loaded > 0 && refused > 0,
        "loaded {loaded}, refused {refused}"
    );
}

#[test]
fn damaged_questions_end_in_a_result_or_a_diagnostic() {
    let mut rng = ChaCha8Rng::seed_from_u64(1866);
    let questions = [
        ("little_wars", "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)"),
        ("kriegspiel", "action_time(infantry, embark, men: 45) + 1/2 move"),
        ("furious_reason", "manoeuvre_table(good_order, D10 + manoeuvre_drm({ grade: militia, lost_percent: 50 }))"),
        ("horse_and_musket", "distance_into(from_rate: 4\", moved: 2\", to_rate: 3 1/2\")"),
    ];
    for (name, q) in questions {
        let rules = Ruleset::bundled(name).expect("bundled");
        for i in 0..200 {
            let damaged = mutate(q, &mut rng);
            let r = &rules;
            let outcome = catch_unwind(AssertUnwindSafe(|| {
                if let Ok(query) = r.question("<damaged>", &damaged) {
                    let _ = r.adjudicate(&query, &mut Seeded::new(i), Options::default());
                }
            }));
            assert!(
                outcome.is_ok(),
                "{name}, mutation {i} panicked: {damaged:?}"
            );
        }
    }
}
