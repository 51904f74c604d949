//! Path enumeration: the one evaluator run once per path through the dice — every
//! distinct sequence of the sums its dice terms take (a term's sums by convolution, so
//! `10d10` is 91 cases, not 10^10). Slow where paths multiply, but simple: it is the
//! oracle the compositional engine is tested against.

use super::{key, order, to_f64, Case, Chance, Distribution, Job, Method, MAX_STEPS};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::dice::{DiceRequest, DiceSource};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::rc::Rc;

/// Most work (die faces × sums) spent on one term's distribution before it counts as
/// too large to enumerate.
const MAX_CONVOLUTION: u64 = 20_000_000;

/// The sums of `count` dice of `sides` faces, each with how many of the `sides^count`
/// rolls give it.
#[derive(Debug)]
struct Sums {
    sums: Vec<(i64, BigUint)>,
    total: BigUint,
}

/// The distribution of a term by convolution, one die at a time; `None` if too large.
fn sums(count: u32, sides: u32) -> Option<Sums> {
    let (c, s) = (u64::from(count), u64::from(sides));
    if c.saturating_mul(c).saturating_mul(s).saturating_mul(s) > MAX_CONVOLUTION {
        return None;
    }
    let mut ways: Vec<BigUint> = vec![BigUint::one()]; // index: sum
    for _ in 0..count {
        let mut next = vec![BigUint::zero(); ways.len() + sides as usize];
        for (sum, w) in ways.iter().enumerate() {
            if w.is_zero() {
                continue;
            }
            for f in 1..=sides as usize {
                next[sum + f] += w;
            }
        }
        ways = next;
    }
    let sums = ways
        .into_iter()
        .enumerate()
        .filter(|(_, w)| !w.is_zero())
        .map(|(sum, w)| (i64::try_from(sum).unwrap_or(i64::MAX), w))
        .collect();
    Some(Sums {
        sums,
        total: BigUint::from(sides).pow(count),
    })
}

/// Dice that follow one path through the cases: the first terms take the choices of
/// `prefix`, every later term its first sum (its other sums are cases still to run).
struct Enumerate<'a> {
    prefix: &'a [usize],
    taken: Vec<(Rc<Sums>, usize)>,
    cache: &'a mut HashMap<(u32, u32), Option<Rc<Sums>>>,
    too_large: bool,
}

impl DiceSource for Enumerate<'_> {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let d = self
            .cache
            .entry((req.count, req.sides))
            .or_insert_with(|| sums(req.count, req.sides).map(Rc::new))
            .clone();
        let Some(d) = d else {
            self.too_large = true;
            return Err(Diag::error(
                Code::ProbTooLarge,
                format!("{} has too many sums to enumerate", req.text),
            ));
        };
        let at = self.taken.len();
        let choice = self.prefix.get(at).copied().unwrap_or(0);
        let sum = d.sums.get(choice).map_or(0, |(s, _)| *s);
        self.taken.push((d, choice));
        // Faces that make the sum (an explanation is not drawn from them).
        let mut left = sum;
        for i in 0..req.count {
            let still = i64::from(req.count - i - 1);
            let f = (left - still).clamp(1, i64::from(req.sides));
            faces.push(u32::try_from(f).unwrap_or(1));
            left -= f;
        }
        Ok(sum)
    }
}

/// Works out every case of a job exactly; `None` when there are more than `limit`
/// cases (or a term has too many sums), so the caller samples instead.
pub fn exact(job: &Job<'_>, limit: usize) -> Option<Distribution> {
    exact_ticking(job, limit, &mut |_| {})
}

/// [`exact`], calling `tick` with the cases worked through so far (a progress display).
pub fn exact_ticking(
    job: &Job<'_>,
    limit: usize,
    tick: &mut dyn FnMut(u64),
) -> Option<Distribution> {
    let program = job.program;
    let mut cache = HashMap::new();
    let mut stack: Vec<Vec<usize>> = vec![Vec::new()];
    // Each outcome's chance so far as a fraction not yet reduced: paths that roll the
    // same dice share a denominator, so most additions are of numerators alone, and
    // the fraction is reduced once, at the end.
    let mut found: Vec<(Case, BigUint, BigUint)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    let mut cases = 0u64;
    let mut steps = 0u64;
    while let Some(prefix) = stack.pop() {
        cases += 1;
        if cases.is_multiple_of(10_000) {
            tick(cases);
        }
        // Ctrl-C: no odds ([`odds`] says it was cancelled).
        if cases.is_multiple_of(64) && crate::cancel::requested() {
            return None;
        }
        if cases as usize + stack.len() > limit {
            return None;
        }
        let mut dice = Enumerate {
            prefix: &prefix,
            taken: Vec::new(),
            cache: &mut cache,
            too_large: false,
        };
        let (case, used) = job.run(&mut dice);
        steps += used;
        if dice.too_large || steps > MAX_STEPS {
            return None;
        }
        // The chance of this path: each term's share of its rolls.
        let (mut num, mut den) = (BigUint::one(), BigUint::one());
        for (d, c) in &dice.taken {
            num *= &d.sums[*c].1;
            den *= &d.total;
        }
        // Every other sum of each term met first on this path is a case still to run.
        for j in (prefix.len()..dice.taken.len()).rev() {
            let before: Vec<usize> = dice.taken[..j].iter().map(|(_, c)| *c).collect();
            for i in (1..dice.taken[j].0.sums.len()).rev() {
                let mut next = before.clone();
                next.push(i);
                stack.push(next);
            }
            if cases as usize + stack.len() > limit {
                return None;
            }
        }
        let k = key(&case);
        match index.get(&k) {
            Some(&i) => {
                let (_, n, d) = &mut found[i];
                if *d == den {
                    *n += num;
                } else if (&*d % &den).is_zero() {
                    // Paths that roll more or fewer dice (a re-roll, an explosion):
                    // the denominators divide each other, so they need not multiply
                    // (which made them grow past any size, and each addition slower).
                    *n += num * (&*d / &den);
                } else if (&den % &*d).is_zero() {
                    *n = &*n * (&den / &*d) + num;
                    *d = den;
                } else {
                    *n = &*n * &den + num * &*d;
                    *d *= den;
                }
            }
            None => {
                index.insert(k, found.len());
                found.push((case, num, den));
            }
        }
    }
    found.sort_by(|a, b| order(program, &a.0, &b.0));
    let chances = found
        .into_iter()
        .map(|(case, n, d)| {
            let p = BigRational::new(BigInt::from(n), BigInt::from(d));
            Chance {
                estimate: to_f64(&p),
                exact: Some(p),
                case,
                std_error: None,
            }
        })
        .collect();
    Some(Distribution {
        chances,
        method: Method::Exact { cases },
    })
}
