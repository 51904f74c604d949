//! Sampling: the odds estimated by adjudicating many times with seeded dice, when
//! there are too many cases to work through exactly.

use super::{key, order, Case, Chance, Distribution, Job, Method, MAX_STEPS};
use crate::dice::Seeded;
use std::collections::HashMap;

/// Estimates the chances by adjudicating `samples` times with dice seeded from `seed`;
/// `tick` is called after each (a progress bar).
pub fn sample(
    job: &Job<'_>,
    samples: u64,
    seed: u64,
    over_limit: Option<usize>,
    tick: &mut dyn FnMut(u64),
) -> Distribution {
    let program = job.program;
    let mut dice = Seeded::new(seed);
    let mut found: Vec<(Case, u64)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut steps = 0u64;
    let mut taken = 0u64;
    for n in 0..samples {
        if steps > MAX_STEPS || (n.is_multiple_of(64) && crate::cancel::requested()) {
            break;
        }
        taken += 1;
        let (case, used) = job.run(&mut dice);
        steps += used;
        let k = key(&case);
        match index.get(&k) {
            Some(&i) => found[i].1 += 1,
            None => {
                index.insert(k, found.len());
                found.push((case, 1));
            }
        }
        tick(n + 1);
    }
    found.sort_by(|a, b| order(program, &a.0, &b.0));
    let samples = taken;
    let n = samples.max(1) as f64;
    let chances = found
        .into_iter()
        .map(|(case, k)| {
            let p = k as f64 / n;
            Chance {
                case,
                exact: None,
                estimate: p,
                std_error: Some((p * (1.0 - p) / n).sqrt()),
            }
        })
        .collect();
    Distribution {
        chances,
        method: Method::Sampled {
            samples,
            seed,
            over_limit,
        },
    }
}
