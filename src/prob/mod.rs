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
use crate::dice::DiceSource;
use crate::eval::{adjudicate_bound, Limits, Options, Readings};
use crate::program::{Builtin, Callee, ExprKind, Program, Query};

pub mod dist;
mod engine;
mod outcomes;
pub mod paths;
pub mod report;
mod sample;
pub mod svg;
pub mod sweep;
use crate::value::{Rational, Value};
use num_rational::BigRational;
pub use outcomes::{key, percent, percent_f, stats, value_key, OutKey, Stats};
use outcomes::{order, to_f64};

pub use sample::sample;

/// Most cases of exact work (paths followed, steps taken, outcomes combined, terms of
/// closed forms) before sampling instead (`--limit`).
pub const DEFAULT_LIMIT: usize = 5_000_000;
/// Adjudications sampled when there are too many cases and no `--samples` is given.
pub const DEFAULT_SAMPLES: u64 = 100_000;
/// Most evaluation steps spent sampling the default count (past it, fewer samples are
/// taken, and the report says how many).
pub const MAX_STEPS: u64 = 50_000_000;

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
        Case::of_outcome(r.map(|a| a.outcome))
    }

    /// An outcome, or the error the adjudication stopped with.
    fn of_outcome(r: Result<Outcome, Diag>) -> Case {
        match r {
            Ok(o) => Case::Outcome(o),
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
            Case::Outcome(Outcome::Value(v @ (Value::Int(_) | Value::Frac(_)))) => v.as_number(),
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
                engine: Default::default(),
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
                    // The limit's own help names the flag that raises it.
                    .help(match help {
                        Some(h) => format!("{h}; or ask something smaller"),
                        None => "raise the limit (see `umpire help prob`: --max-steps, --max-depth, --max-dice), or ask something smaller".to_string(),
                    }));
                }
            }
        }
        Ok(())
    }
}

/// The fewest paths of the biggest re-rolled or exploded pool (`explode(20d6)`,
/// `reroll(...)`, counted or not) written with a fixed number of dice in the question or
/// in a rule it calls: each of its dice is rolled on its own, so a pool of n dice of s
/// faces has at least s^n paths (re-rolls and explosions add more). Saturates rather
/// than overflow. (A count, the highest or the lowest of plain dice have closed forms.)
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
                // A count, the highest or the lowest of written dice have closed forms
                // (the engine's); re-rolled and exploded dice are rolled one by one.
                Callee::Builtin(Builtin::Reroll | Builtin::Explode) => {
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
            // A pool whose dice are rolled one by one has at least faces^dice paths, each
            // some hundreds of cases of work (a step and a choice per die, its re-roll, the
            // outcome merged): past the limit, sample at once rather than work for
            // seconds first and throw it away.
            let found = if pool_cases(job).saturating_mul(200) > settings.limit as u64 {
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

/// Works out the odds of a job exactly (the compositional engine, [`engine`]);
/// `None` when that takes more than `limit` units of work (evaluation steps and
/// outcomes combined), so the caller samples instead.
pub fn exact(job: &Job<'_>, limit: usize) -> Option<Distribution> {
    engine::exact(job, limit, &mut |_| {})
}

/// [`exact`], calling `tick` with the work done so far (a progress display).
pub fn exact_ticking(
    job: &Job<'_>,
    limit: usize,
    tick: &mut dyn FnMut(u64),
) -> Option<Distribution> {
    engine::exact(job, limit, tick)
}
