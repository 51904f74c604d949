//! The odds of an adjudication: exact, by running the one evaluator over every distinct
//! value each dice term can take (a term's sums by convolution, so `10d10` is 91 cases,
//! not 10^10), or estimated by sampling when there are too many cases.
//!
//! Exact probabilities are arbitrary-precision fractions (`BigRational`): `50d6` has a
//! denominator of 6^50, past 128 bits. No floating point is used on the exact path; the
//! language's own arithmetic is the evaluator's, checked as ever.

use crate::adjudication::Outcome;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::dice::{DiceRequest, DiceSource, Seeded};
use crate::eval::{adjudicate_bound, Limits, Options, Readings};
use crate::program::{Callee, ExprKind, Program, Query};
use crate::render::show_arg;

pub mod report;
pub mod sweep;
use crate::value::{Rational, Value};
use num_bigint::{BigInt, BigUint};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashMap;
use std::rc::Rc;

/// Most cases worked through exactly before sampling instead (`--limit`).
pub const DEFAULT_LIMIT: usize = 100_000;
/// Adjudications sampled when there are too many cases and no `--samples` is given.
pub const DEFAULT_SAMPLES: u64 = 100_000;
/// Most work (die faces × sums) spent on one term's distribution before it counts as
/// too large to enumerate.
const MAX_CONVOLUTION: u64 = 20_000_000;
/// Most evaluation steps spent enumerating (past it, umpire samples instead), and
/// sampling (past it, fewer samples are taken, and the report says how many).
pub const MAX_STEPS: u64 = 200_000_000;

/// How one adjudication ended: an outcome, or an error (a roll that finds no row, a
/// value out of its range) — which is an outcome too, to a designer.
#[derive(Debug, Clone)]
pub enum Case {
    /// A value, a refusal, or "not given in the source".
    Outcome(Outcome),
    /// The adjudication failed.
    Error {
        /// Its stable code.
        code: Code,
        /// Its message.
        message: String,
        /// Its help, if any.
        help: Option<String>,
        /// What an error of the question names ([`Diag::subject`]).
        subject: Option<String>,
    },
}

impl Case {
    fn of(r: Result<crate::adjudication::Adjudication, Diag>) -> Case {
        match r {
            Ok(a) => Case::Outcome(a.outcome),
            Err(d) => Case::Error {
                code: d.code,
                message: d.message,
                help: d.help,
                subject: d.subject,
            },
        }
    }

    /// The number it is, for means and "at least" (numbers, lengths in inches, times).
    fn number(&self) -> Option<Rational> {
        match self {
            Case::Outcome(Outcome::Value(Value::Num(r))) => Some(*r),
            Case::Outcome(Outcome::Value(Value::Length(l))) => Some(l.inches),
            Case::Outcome(Outcome::Value(Value::Time(t) | Value::Minutes(t))) => Some(*t),
            _ => None,
        }
    }
}

/// One outcome and its chance.
#[derive(Debug, Clone)]
pub struct Chance {
    /// The outcome.
    pub case: Case,
    /// Exactly (when enumerated).
    pub exact: Option<BigRational>,
    /// As a fraction of one (exact, rounded; or the sampled estimate).
    pub estimate: f64,
    /// The standard error of a sampled estimate.
    pub std_error: Option<f64>,
}

/// How the chances were found.
#[derive(Debug, Clone, PartialEq)]
pub enum Method {
    /// Every case worked through.
    Exact {
        /// Cases (distinct sequences of term values) worked through.
        cases: u64,
    },
    /// Sampled with seeded dice.
    Sampled {
        /// Adjudications sampled.
        samples: u64,
        /// The seed.
        seed: u64,
        /// Why: more cases than the limit (`Some(limit)`), or asked for (`None`).
        over_limit: Option<usize>,
    },
}

/// The chances of every outcome of one adjudication.
#[derive(Debug, Clone)]
pub struct Distribution {
    /// Outcomes in order: numbers ascending, enum values as declared, then refusals,
    /// gaps in the source and errors.
    pub chances: Vec<Chance>,
    /// How they were found.
    pub method: Method,
}

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

/// A key under which equal outcomes merge: values as `==` compares them (`12"` and
/// `1'` are one length), refusals and gaps by their words and section.
pub fn key(case: &Case) -> String {
    fn value(v: &Value, out: &mut String) {
        use std::fmt::Write;
        // Written straight into the key (writing to a String cannot fail).
        let _ = match v {
            Value::Num(r) => write!(out, "n{r}"),
            Value::Length(l) => write!(out, "l{}", l.inches),
            Value::Time(t) => write!(out, "t{t}"),
            Value::Minutes(t) => write!(out, "m{t}"),
            Value::Bool(b) => out.write_str(if *b { "T" } else { "F" }),
            Value::Text(t) => write!(out, "s{t:?}"),
            Value::Enum(e, i) => write!(out, "e{e}.{i}"),
            Value::Record(fields) | Value::Group(fields) => {
                out.push('{');
                for (n, f) in fields.iter() {
                    out.push_str(n);
                    out.push(':');
                    value(f, out);
                    out.push(',');
                }
                out.write_str("}")
            }
            Value::Pair(p) => {
                out.push('(');
                value(&p.0, out);
                out.push(',');
                value(&p.1, out);
                out.write_str(")")
            }
        };
    }
    match case {
        Case::Outcome(Outcome::Value(v)) => {
            let mut out = String::from("v");
            value(v, &mut out);
            out
        }
        other => format!("{other:?}"),
    }
}

/// Orders outcomes as a reader expects them.
fn order(p: &Program, a: &Case, b: &Case) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let rank = |c: &Case| match c {
        Case::Outcome(Outcome::Value(_)) => 0,
        Case::Outcome(Outcome::Refused { .. }) => 1,
        Case::Outcome(Outcome::NotGiven { .. }) => 2,
        Case::Error { .. } => 3,
    };
    match (a, b) {
        _ if rank(a) != rank(b) => rank(a).cmp(&rank(b)),
        (Case::Outcome(Outcome::Value(x)), Case::Outcome(Outcome::Value(y))) => {
            match (a.number(), b.number(), x, y) {
                (Some(m), Some(n), _, _) => m.cmp(&n),
                (_, _, Value::Enum(e, i), Value::Enum(f, j)) => (e, i).cmp(&(f, j)),
                (_, _, Value::Bool(m), Value::Bool(n)) => m.cmp(n),
                _ => show_arg(p, x).cmp(&show_arg(p, y)),
            }
        }
        _ => Ordering::Equal,
    }
}

fn to_f64(r: &BigRational) -> f64 {
    let (n, d) = (r.numer().to_f64(), r.denom().to_f64());
    match (n, d) {
        (Some(n), Some(d)) if d.is_finite() && n.is_finite() && d != 0.0 => n / d,
        // Numbers past f64 on both sides: scale down first.
        _ => {
            let scaled =
                (r * BigRational::from_integer(BigInt::from(1_000_000_000u64))).to_integer();
            scaled.to_f64().unwrap_or(0.0) / 1e9
        }
    }
}

/// What to find the odds of: a compiled query, against a state, with its first locals
/// bound (a swept name).
#[derive(Clone, Copy)]
pub struct Job<'a> {
    /// The checked ruleset.
    pub program: &'a Program,
    /// The adjudication.
    pub query: &'a Query,
    /// The game state, if any.
    pub state: Option<&'a Value>,
    /// Values of the query's first locals.
    pub locals: &'a [Value],
    /// The readings chosen for the program's interpretations.
    pub readings: &'a Readings,
    /// The limits each case is adjudicated within.
    pub limits: Limits,
}

impl<'a> Job<'a> {
    /// The odds of `query` as `rules` adjudicates it: against its state, by its readings,
    /// within its limits, with no locals bound (`Job { locals, ..Job::of(..) }` for a
    /// swept name, `state` likewise for another state).
    pub fn of(rules: &'a crate::Ruleset, query: &'a Query) -> Job<'a> {
        Job {
            program: &rules.program,
            query,
            state: rules.state.as_ref(),
            locals: &[],
            readings: &rules.readings,
            limits: rules.limits,
        }
    }
}

impl Job<'_> {
    /// One adjudication, and the steps it took.
    fn run(&self, dice: &mut dyn DiceSource) -> (Case, u64) {
        let r = adjudicate_bound(
            self.program,
            self.query,
            dice,
            Options {
                trace: false,
                limits: self.limits,
                readings: self.readings.clone(),
            },
            self.state,
            self.locals.to_vec(),
        );
        // (An error's own count is not kept: a case stopped by the step limit took
        // the limit, any other error little.)
        let steps = match &r {
            // Each die rolled counts as a step too.
            Ok(a) => a.steps + a.rolls.iter().map(|x| x.faces.len() as u64).sum::<u64>(),
            Err(d) if d.code == Code::LimitSteps => self.limits.steps,
            Err(_) => 1_000,
        };
        (Case::of(r), steps)
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

/// A probability as a percentage with two decimals, rounded exactly: `40.00%`.
pub fn percent(p: &BigRational) -> String {
    let scaled = p * BigRational::from_integer(BigInt::from(10_000));
    let r = scaled.round().to_integer();
    let (whole, frac) = (&r / BigInt::from(100), &r % BigInt::from(100));
    format!("{whole}.{:02}%", frac.to_u32().unwrap_or(0))
}

/// An estimate as a percentage: `39.97%`.
pub fn percent_f(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// Mean, least and greatest value, when every value is a number (lengths in inches,
/// times in moves): over the cases that give a value.
pub struct Stats {
    /// Exact mean (enumerated), else `None`.
    pub mean: Option<BigRational>,
    /// Estimated mean (or the exact one, rounded).
    pub mean_f: f64,
    /// Least value.
    pub min: Value,
    /// Greatest value.
    pub max: Value,
    /// The chance a value is given (1 when nothing is refused).
    pub given: f64,
}

impl Stats {
    /// The exact mean as a value in the results' own unit (`1' 6"`, `2 1/4 moves`), when
    /// it fits an exact number.
    pub fn mean_value(&self) -> Option<Value> {
        let m = self.mean.as_ref()?;
        let r = Rational::new(m.numer().to_i64()?, m.denom().to_i64()?);
        Some(match &self.min {
            Value::Length(l) => Value::Length(crate::value::Length {
                inches: r,
                unit: l.unit,
            }),
            Value::Time(_) => Value::Time(r),
            Value::Minutes(_) => Value::Minutes(r),
            _ => Value::Num(r),
        })
    }
}

/// [`Stats`] of a distribution, if its values are numbers.
pub fn stats(d: &Distribution) -> Option<Stats> {
    let values: Vec<(&Chance, Rational)> = d
        .chances
        .iter()
        .filter_map(|c| match &c.case {
            Case::Outcome(Outcome::Value(_)) => Some(c.case.number().map(|n| (c, n))),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let (first, last) = (values.first()?, values.last()?);
    let big = |r: &Rational| BigRational::new(BigInt::from(*r.numer()), BigInt::from(*r.denom()));
    let value_of = |c: &Chance| match &c.case {
        Case::Outcome(Outcome::Value(v)) => v.clone(),
        _ => Value::Bool(false),
    };
    // Every case gives a value unless some outcome is a refusal, a gap or an error.
    let all_values = d
        .chances
        .iter()
        .all(|c| matches!(c.case, Case::Outcome(Outcome::Value(_))));
    let given: f64 = if all_values {
        1.0
    } else {
        values.iter().map(|(c, _)| c.estimate).sum()
    };
    let mean = if values.iter().all(|(c, _)| c.exact.is_some()) {
        let total: BigRational = values
            .iter()
            .filter_map(|(c, _)| c.exact.clone())
            .fold(BigRational::zero(), |a, b| a + b);
        let sum: BigRational = values
            .iter()
            .filter_map(|(c, n)| c.exact.as_ref().map(|p| p * big(n)))
            .fold(BigRational::zero(), |a, b| a + b);
        (!total.is_zero()).then(|| sum / total)
    } else {
        None
    };
    let mean_f = match &mean {
        Some(m) => to_f64(m),
        None => {
            let n: f64 = values
                .iter()
                .map(|(c, n)| c.estimate * (*n.numer() as f64 / *n.denom() as f64))
                .sum();
            if given > 0.0 {
                n / given
            } else {
                0.0
            }
        }
    };
    Some(Stats {
        mean,
        mean_f,
        min: value_of(first.0),
        max: value_of(last.0),
        given,
    })
}

/// How hard to look: the most cases to enumerate, and when and how to sample instead.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Most cases worked through exactly (`--limit`).
    pub limit: usize,
    /// Sample this many instead of enumerating (`--samples`).
    pub samples: Option<u64>,
    /// The sampling seed (`--seed`); a fresh one when `None`.
    pub seed: Option<u64>,
    /// Draw a progress bar while sampling (on a terminal).
    pub progress: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            limit: DEFAULT_LIMIT,
            samples: None,
            seed: None,
            progress: false,
        }
    }
}

impl Distribution {
    /// A limit one of its cases hit (`--max-steps` and the like): odds worked out past a
    /// limit are not the odds, so this is an error, not an outcome. So is an error of the
    /// question (a needed parameter left out, an `instead`): it was asked wrongly.
    fn limits_held(&self) -> Result<(), Diag> {
        for c in &self.chances {
            if let Case::Error {
                code,
                message,
                help,
                subject,
            } = &c.case
            {
                if matches!(code, Code::EvalMissingArgument | Code::EvalAskInstead) {
                    let mut d = Diag::error(*code, message.clone());
                    d.subject = subject.clone();
                    return Err(match help {
                        Some(h) => d.help(h.clone()),
                        None => d,
                    });
                }
                if code.phase() == crate::diagnostic::Phase::Limit {
                    return Err(Diag::error(
                        Code::ProbLimit,
                        format!("the odds cannot be worked out: in at least one case, {message}"),
                    )
                    .help("raise the limit (see `umpire help prob`: --max-steps, --max-depth, --max-dice), or ask something smaller"));
                }
            }
        }
        Ok(())
    }
}

/// The fewest cases of the biggest dice pool (`count(100d6, at_least: 4)`,
/// `explode(20d6)`, `reroll(...)`, `highest(...)`, `lowest(...)`) written with a fixed
/// number of dice in the question or in a rule it calls: each die of a pool is rolled on
/// its own, so a pool of n dice of s faces has at least s^n cases (re-rolls and
/// explosions add more). Saturates rather than overflow.
pub fn pool_cases(job: &Job<'_>) -> u64 {
    let mut most = 1u64;
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![&job.query.expr];
    while let Some(e) = todo.pop() {
        e.walk(&mut |x| {
            let ExprKind::Call(callee, args) = &x.kind else {
                return;
            };
            match callee {
                Callee::Rule(id) if seen.insert(*id) => {
                    if let Some(r) = job.program.rules.get(*id as usize) {
                        todo.push(&r.body);
                    }
                }
                Callee::Builtin(b) if b.is_pool() => {
                    for a in args {
                        if let ExprKind::Dice { count, sides } = a.kind {
                            let cases = u64::from(sides).saturating_pow(count);
                            most = most.max(cases);
                        }
                    }
                }
                _ => {}
            }
        });
    }
    most
}

/// The odds of a job: exact when its cases fit the limit, else sampled (saying so), with
/// a progress bar when asked for.
///
/// Errors: a case hit one of the limits (`--max-steps` and the like): refusals, gaps
/// in the source and other errors are outcomes, but a limit is not part of the rules;
/// cancelled by Ctrl-C ([`crate::cancel`]).
pub fn odds(job: &Job<'_>, settings: &Settings) -> Result<Distribution, Diag> {
    let d = distribution(job, settings);
    if crate::cancel::requested() {
        return Err(crate::cancel::cancelled());
    }
    d.limits_held()?;
    Ok(d)
}

fn distribution(job: &Job<'_>, settings: &Settings) -> Distribution {
    let over_limit = match settings.samples {
        Some(_) => None,
        None => {
            // A count of the cases worked through, when there are many, at a terminal.
            let counter = if settings.progress {
                indicatif::ProgressBar::new_spinner()
            } else {
                indicatif::ProgressBar::hidden()
            };
            counter.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {pos} cases worked through")
                    .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
            );
            // A pool whose dice are rolled one by one has at least faces^dice cases:
            // past the limit, sample at once rather than enumerate for minutes first.
            let found = if pool_cases(job) > settings.limit as u64 {
                None
            } else {
                exact_ticking(job, settings.limit, &mut |n| counter.set_position(n))
            };
            counter.finish_and_clear();
            match found {
                Some(d) => return d,
                None => Some(settings.limit),
            }
        }
    };
    let samples = settings.samples.unwrap_or(DEFAULT_SAMPLES);
    let seed = settings.seed.unwrap_or_else(crate::dice::fresh_seed);
    let bar = if settings.progress {
        let b = indicatif::ProgressBar::new(samples);
        b.set_style(
            indicatif::ProgressStyle::with_template(
                "sampling {bar:40} {pos}/{len} adjudications ({eta} left)",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        b
    } else {
        indicatif::ProgressBar::hidden()
    };
    let mut tick = |n: u64| {
        if n.is_multiple_of(1000) || n == samples {
            bar.set_position(n);
        }
    };
    let d = sample(job, samples, seed, over_limit, &mut tick);
    bar.finish_and_clear();
    d
}
