//! Distributions: each distinct outcome of an expression with its exact chance (a
//! whole-number weight over one denominator), and the work the paths to it took.
//! Closed forms for dice: the sums of a term, a count of a pool, the highest or lowest
//! dice of a pool.

use super::{key, value_key, Case};
use crate::adjudication::Outcome;
use crate::diagnostic::Diag;
use crate::eval::{Flow, Reach};
use crate::value::Value;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::rc::Rc;

/// How an expression came out: a value, or how it stopped.
#[derive(Debug, Clone)]
pub enum Out {
    /// A value.
    Val(Value),
    /// A refusal, with its cite.
    Refused(Rc<str>, Option<Rc<str>>),
    /// A gap in the source, with its cite.
    NotGiven(Rc<str>, Option<Rc<str>>),
    /// An error.
    Error(Rc<Diag>),
}

impl Out {
    /// From the evaluator's result.
    pub fn of(r: Result<Value, Flow>) -> Out {
        match r {
            Ok(v) => Out::Val(v),
            Err(Flow::Refused(a, b)) => Out::Refused(a, b),
            Err(Flow::NotGiven(a, b)) => Out::NotGiven(a, b),
            Err(Flow::Error(d)) => Out::Error(Rc::new(*d)),
        }
    }

    /// Back into the evaluator's result.
    pub fn ev(&self) -> Result<Value, Flow> {
        match self {
            Out::Val(v) => Ok(v.clone()),
            Out::Refused(a, b) => Err(Flow::Refused(a.clone(), b.clone())),
            Out::NotGiven(a, b) => Err(Flow::NotGiven(a.clone(), b.clone())),
            Out::Error(d) => Err(Flow::Error(Box::new((**d).clone()))),
        }
    }

    /// The key equal outcomes merge under (values as `==` compares them): a value's
    /// written from it where it is (this is met once per path and per pair combined).
    fn key(&self) -> String {
        let case = match self {
            Out::Val(v) => return value_key(v),
            Out::Refused(r, c) => Case::Outcome(Outcome::Refused {
                reason: r.to_string(),
                cite: c.as_ref().map(|c| c.to_string()),
            }),
            Out::NotGiven(r, c) => Case::Outcome(Outcome::NotGiven {
                what: r.to_string(),
                cite: c.as_ref().map(|c| c.to_string()),
            }),
            Out::Error(d) => Case::Error {
                code: d.code,
                message: d.message.clone(),
                help: d.help.clone(),
                subject: d.subject.clone(),
            },
        };
        key(&case)
    }

    /// The whole number it is, if it is one.
    fn int(&self) -> Option<i64> {
        match self {
            Out::Val(v) => v.as_int(),
            _ => None,
        }
    }
}

/// One outcome: its weight (its chance is `w / denom`) and the most work a path to it
/// took.
#[derive(Debug, Clone)]
pub struct Entry {
    /// The outcome.
    pub out: Out,
    /// Its weight.
    pub w: BigUint,
    /// The work of the paths to it, the most of each count.
    pub reach: Reach,
}

/// Outcomes with exact chances: the weights sum to `denom`.
#[derive(Debug, Clone)]
pub struct Dist {
    /// Distinct outcomes, in the order first met.
    pub entries: Vec<Entry>,
    /// The denominator every weight is over.
    pub denom: BigUint,
}

impl Dist {
    /// One outcome, certain.
    pub fn certain(out: Out, reach: Reach) -> Dist {
        Dist {
            entries: vec![Entry {
                out,
                w: BigUint::one(),
                reach,
            }],
            denom: BigUint::one(),
        }
    }

    /// Whether some outcome is a value (so what follows it is worked out at all).
    pub fn any_value(&self) -> bool {
        self.entries.iter().any(|e| matches!(e.out, Out::Val(_)))
    }

    /// Every outcome a whole number reached by the same work: `(lowest, weights by
    /// value from it, the work)`, for the array forms of sums and comparisons.
    pub fn dense(&self) -> Option<(i64, Vec<BigUint>, Reach)> {
        let first = self.entries.first()?;
        let reach = first.reach;
        let mut lo = i64::MAX;
        let mut hi = i64::MIN;
        for e in &self.entries {
            let v = e.out.int()?;
            if e.reach != reach {
                return None;
            }
            lo = lo.min(v);
            hi = hi.max(v);
        }
        let span = usize::try_from(hi.checked_sub(lo)?).ok()?;
        // Sparse values spread wide are not worth an array.
        if span > 4 * self.entries.len() + 64 {
            return None;
        }
        let mut w = vec![BigUint::zero(); span + 1];
        for e in &self.entries {
            let v = e.out.int()?;
            w[usize::try_from(v - lo).ok()?] += &e.w;
        }
        Some((lo, w, reach))
    }

    /// From an array of weights by value (zero weights left out).
    pub fn from_dense(lo: i64, w: Vec<BigUint>, denom: BigUint, reach: Reach) -> Dist {
        let entries = w
            .into_iter()
            .enumerate()
            .filter(|(_, w)| !w.is_zero())
            .map(|(i, w)| Entry {
                out: Out::Val(Value::int(lo + i as i64)),
                w,
                reach,
            })
            .collect();
        Dist { entries, denom }
    }

    /// The chances in lowest terms: every weight and the denominator divided by what
    /// they share.
    pub fn normalise(&mut self) {
        let mut g = self.denom.clone();
        for e in &self.entries {
            if g.is_one() {
                return;
            }
            g = g.gcd(&e.w);
        }
        if g.is_one() || g.is_zero() {
            return;
        }
        self.denom /= &g;
        for e in &mut self.entries {
            e.w /= &g;
        }
    }
}

/// Builds a distribution outcome by outcome: equal outcomes merge (their weights add,
/// their work is the most of either), weights over different denominators are brought
/// to one.
pub struct Builder {
    entries: Vec<Entry>,
    index: HashMap<String, usize>,
    denom: BigUint,
    /// Outcomes added, merged or not (the work of building it).
    pub added: u64,
}

impl Default for Builder {
    fn default() -> Self {
        Builder {
            entries: Vec::new(),
            index: HashMap::new(),
            denom: BigUint::one(),
            added: 0,
        }
    }
}

impl Builder {
    /// Adds `out` with chance `w / denom`.
    pub fn add(&mut self, out: Out, mut w: BigUint, denom: &BigUint, reach: Reach) {
        self.added += 1;
        if *denom != self.denom {
            let (q, r) = self.denom.div_rem(denom);
            if r.is_zero() {
                w *= q;
            } else {
                let l = self.denom.lcm(denom);
                let up = &l / &self.denom;
                if !up.is_one() {
                    for e in &mut self.entries {
                        e.w *= &up;
                    }
                }
                w *= &l / denom;
                self.denom = l;
            }
        }
        let k = out.key();
        match self.index.get(&k) {
            Some(&i) => {
                let e = &mut self.entries[i];
                e.w += w;
                e.reach = e.reach.most(reach);
            }
            None => {
                self.index.insert(k, self.entries.len());
                self.entries.push(Entry { out, w, reach });
            }
        }
    }

    /// The distribution built.
    pub fn finish(self) -> Dist {
        Dist {
            entries: self.entries,
            denom: self.denom,
        }
    }
}

/// The ways each sum of `count` dice of `sides` faces comes up, from the lowest sum
/// `count`: the coefficients of (x + x² + … + x^sides)^count, by the recurrence for a
/// power of a polynomial (each coefficient from the `sides` before it), exact.
pub fn sums(count: u32, sides: u32) -> Vec<BigUint> {
    let (n, s) = (count as usize, sides as usize);
    let len = n * (s - 1) + 1;
    if s == 1 || n == 0 {
        return vec![BigUint::one()];
    }
    // (1 + x + ... + x^(s-1))^n = Σ c_k x^k; with p(x) = 1 + x + ... + x^(s-1),
    // k c_k = Σ_{j=1}^{min(k,s-1)} ((n+1) j - k) c_{k-j} (J. C. P. Miller), all terms
    // whole; signed, so worked in BigInt.
    use num_bigint::BigInt;
    let mut c: Vec<BigInt> = Vec::with_capacity(len);
    c.push(BigInt::one());
    let n1 = (n + 1) as i64;
    for k in 1..len {
        let mut acc = BigInt::zero();
        for j in 1..=k.min(s - 1) {
            let f = n1 * j as i64 - k as i64;
            if f != 0 {
                acc += &c[k - j] * f;
            }
        }
        c.push(acc / k as i64);
    }
    c.into_iter()
        .map(|x| x.to_biguint().unwrap_or_default())
        .collect()
}

/// Binomial weights: the ways `k` of `n` dice come up among `a` of `s` faces, for k =
/// 0..=n, over s^n.
pub fn binomial(n: u32, a: u32, s: u32) -> Vec<BigUint> {
    let b = s - a;
    // The powers of a and of b, each from the one before (no big power taken anew).
    let powers = |x: u32| {
        let x = BigUint::from(x);
        let mut p = Vec::with_capacity(n as usize + 1);
        p.push(BigUint::one());
        for k in 1..=n as usize {
            let next = &p[k - 1] * &x;
            p.push(next);
        }
        p
    };
    let (pa, pb) = (powers(a), powers(b));
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut choose = BigUint::one();
    for k in 0..=n {
        if k > 0 {
            choose = choose * BigUint::from(n - k + 1) / BigUint::from(k);
        }
        out.push(&choose * &pa[k as usize] * &pb[(n - k) as usize]);
    }
    out
}

/// The sum of the `keep` highest (or lowest) of `n` dice of `s` faces: weights by sum
/// from 0 (keep × s + 1 of them), over s^n. Faces are placed from the best down: a
/// state is (dice placed, sum kept), and `c` dice showing face `f` come in C(left, c)
/// ways, the first of them still kept while fewer than `keep` are.
pub fn kept(n: u32, s: u32, keep: u32, highest: bool) -> Vec<BigUint> {
    let (n, s, keep) = (n as usize, s as usize, keep as usize);
    let top = keep * s;
    // ways[m][sum]
    let mut ways = vec![vec![BigUint::zero(); top + 1]; n + 1];
    ways[0][0] = BigUint::one();
    let faces: Vec<usize> = if highest {
        (1..=s).rev().collect()
    } else {
        (1..=s).collect()
    };
    // Binomial coefficients C(i, j), i, j ≤ n.
    let mut choose = vec![vec![BigUint::zero(); n + 1]; n + 1];
    for i in 0..=n {
        choose[i][0] = BigUint::one();
        for j in 1..=i {
            choose[i][j] = &choose[i - 1][j - 1] + &choose[i - 1][j];
        }
    }
    for (fi, &f) in faces.iter().enumerate() {
        let last = fi + 1 == faces.len();
        let mut next = vec![vec![BigUint::zero(); top + 1]; n + 1];
        for (m, row) in ways.iter().enumerate() {
            for (sum, here) in row.iter().enumerate() {
                if here.is_zero() {
                    continue;
                }
                let left = n - m;
                // The last face takes every die left.
                let range = if last { left..=left } else { 0..=left };
                for c in range {
                    let kept_now = c.min(keep.saturating_sub(m));
                    let ns = sum + kept_now * f;
                    let add = here * &choose[left][c];
                    next[m + c][ns] += add;
                }
            }
        }
        ways = next;
    }
    ways.swap_remove(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big(v: &[u64]) -> Vec<BigUint> {
        v.iter().map(|x| BigUint::from(*x)).collect()
    }

    #[test]
    fn sums_of_two_and_three_dice() {
        // 2d6: 1 2 3 4 5 6 5 4 3 2 1 ways of 2..12.
        assert_eq!(sums(2, 6), big(&[1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]));
        // 3d4: sums 3..12, 64 rolls: 1 3 6 10 12 12 10 6 3 1.
        assert_eq!(sums(3, 4), big(&[1, 3, 6, 10, 12, 12, 10, 6, 3, 1]));
        let total: BigUint = sums(800, 6).iter().sum();
        assert_eq!(total, BigUint::from(6u32).pow(800));
        assert_eq!(sums(800, 6).len(), 4001);
    }

    #[test]
    fn binomial_weights() {
        // Two dice, hits on 4+ (3 faces of 6): 9, 18, 9 of 36.
        assert_eq!(binomial(2, 3, 6), big(&[9, 18, 9]));
    }

    #[test]
    fn highest_and_lowest() {
        // highest(1, 2d6): max of two dice: 1 3 5 7 9 11 ways of 1..6 (index = sum).
        assert_eq!(kept(2, 6, 1, true), big(&[0, 1, 3, 5, 7, 9, 11]));
        // lowest(1, 2d6): 11 9 7 5 3 1.
        assert_eq!(kept(2, 6, 1, false), big(&[0, 11, 9, 7, 5, 3, 1]));
        // highest(2, 2d3) is the sum of both: 2d3's 1 2 3 2 1 ways of 2..6.
        assert_eq!(kept(2, 3, 2, true), big(&[0, 0, 1, 2, 3, 2, 1]));
        let total: BigUint = kept(10, 6, 3, true).iter().sum();
        assert_eq!(total, BigUint::from(6u32).pow(10));
    }
}
