//! Sampling: the odds estimated by adjudicating many times with seeded dice, when
//! there are too many cases to work through exactly.

use super::outcomes::OutKey;
use super::{order, Case, Chance, Distribution, Job, Method, MAX_STEPS};
use crate::dice::Seeded;
use std::collections::HashMap;

/// Estimates the chances by adjudicating `samples` times with dice seeded from `seed`;
/// `tick` is called after each (a progress bar). Equal outcomes merge in a hash map keyed
/// by the outcome ([`OutKey`]): the work is linear in the samples.
///
/// A count asked for (`over_limit` is `None`: `--samples N`) is taken in full: only
/// Ctrl-C stops it early. The default count (sampling because there was too much to
/// enumerate, `over_limit` is `Some`) stops at [`MAX_STEPS`] of work, and the
/// distribution's `samples` says how many were taken.
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
    let mut index: HashMap<OutKey, usize> = HashMap::new();
    // Only the default count stops at the work limit.
    let capped = over_limit.is_some();
    let mut steps = 0u64;
    let mut taken = 0u64;
    for n in 0..samples {
        if (capped && steps > MAX_STEPS) || (n.is_multiple_of(64) && crate::cancel::requested()) {
            break;
        }
        taken += 1;
        let (case, used) = job.run(&mut dice);
        steps += used;
        match index.entry(OutKey::of(&case)) {
            std::collections::hash_map::Entry::Occupied(e) => found[*e.get()].1 += 1,
            std::collections::hash_map::Entry::Vacant(e) => {
                e.insert(found.len());
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
