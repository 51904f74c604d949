//! Helpers of the differential test (tests/prob_differential.rs): one question run by
//! both exact engines, the path-enumeration oracle (`prob::paths::exact`) and the engine
//! `prob::exact`, and their distributions compared outcome by outcome; a tally per
//! corpus; and the generator of small random rulesets (`generate`).

pub mod generate;

use std::collections::BTreeSet;
use umpire::diagnostic::{Code, Phase};
use umpire::prob::{self, Case, Distribution, Job};
use umpire::program::Program;

/// Most paths the oracle works through before the question is skipped.
pub const ORACLE_LIMIT: usize = 20_000;

/// The limit the engine is run with: it must do all the oracle does, and more.
pub fn engine_limit() -> usize {
    prob::DEFAULT_LIMIT * 100
}

/// Where a question came from, printed with a failure so that it can be made a
/// regression case.
pub struct Asked<'a> {
    /// The ruleset: its path, or its source text when generated.
    pub ruleset: &'a str,
    /// The question as typed (or the check as written, for an example).
    pub question: &'a str,
    /// The state, and any locals bound (an example's `let`s), in words.
    pub state: &'a str,
}

/// The code of a limit error (`--max-steps` and the like): only its code is compared,
/// as its message may name another span.
fn limit_code(c: &Case) -> Option<Code> {
    match c {
        Case::Error { code, .. } if code.phase() == Phase::Limit => Some(*code),
        _ => None,
    }
}

/// What two outcomes are compared by: the merge key, or a limit error's code alone.
fn compared_key(c: &Case) -> String {
    match limit_code(c) {
        Some(code) => format!("limit error {code:?}"),
        None => prob::key(c),
    }
}

/// The first difference between the oracle's distribution and the engine's, in words;
/// `None` when they are identical: the same outcomes (by [`compared_key`]) in the same
/// order, each with the identical exact fraction. Where a path passes a limit (or asks
/// for more dice than a roll may have), odds worked out past it are not the odds: the
/// whole answer is that error (`prob::odds` turns it into `umpire::prob::limit`), so
/// then it is enough that both say so ([`limit_difference`]); the engine stops at the
/// first such path, the oracle goes on and lists the other outcomes too.
pub fn difference(oracle: &Distribution, engine: &Distribution) -> Option<String> {
    if !limit_codes(oracle).is_empty() || !limit_codes(engine).is_empty() {
        return limit_difference(oracle, engine);
    }
    exact_difference(oracle, engine)
}

/// [`difference`] outcome by outcome.
fn exact_difference(oracle: &Distribution, engine: &Distribution) -> Option<String> {
    for (i, (o, e)) in oracle.chances.iter().zip(&engine.chances).enumerate() {
        let (ko, ke) = (compared_key(&o.case), compared_key(&e.case));
        if ko != ke {
            return Some(format!(
                "outcome {} differs: the oracle has {ko}, the engine {ke}",
                i + 1
            ));
        }
        match (&o.exact, &e.exact) {
            (Some(a), Some(b)) if a == b => {}
            (a, b) => {
                return Some(format!(
                    "the chance of {ko} differs: the oracle gives {}, the engine {}",
                    fraction(a),
                    fraction(b)
                ))
            }
        }
    }
    if oracle.chances.len() != engine.chances.len() {
        return Some(format!(
            "the oracle has {} outcomes, the engine {}",
            oracle.chances.len(),
            engine.chances.len()
        ));
    }
    None
}

/// The limit codes among a distribution's outcomes.
pub fn limit_codes(d: &Distribution) -> BTreeSet<String> {
    d.chances
        .iter()
        .filter_map(|c| limit_code(&c.case))
        .map(|c| format!("{c:?}"))
        .collect()
}

/// Under tight limits, the verdicts differ unless both give an error outcome of a limit
/// or neither gives one (and then, the limits not reached, the distributions must be
/// identical as ever). Which limit is named may differ: where several paths pass
/// different limits (one too many steps, another too many dice), each engine names the
/// first it meets, and they meet paths in different orders; the answer is the same
/// refusal to give odds (`umpire::prob::limit`) either way.
pub fn limit_difference(oracle: &Distribution, engine: &Distribution) -> Option<String> {
    let (a, b) = (limit_codes(oracle), limit_codes(engine));
    match (a.is_empty(), b.is_empty()) {
        (true, true) => exact_difference(oracle, engine),
        (false, false) => None,
        _ => Some(format!(
            "the verdicts under tight limits differ: the oracle stops at {a:?}, the engine at {b:?}"
        )),
    }
}

fn fraction(f: &Option<num_rational::BigRational>) -> String {
    f.as_ref()
        .map_or_else(|| "no exact chance".to_string(), |r| r.to_string())
}

/// A distribution in words, one outcome a line: its label, exact chance and key.
pub fn show(p: &Program, d: &Distribution) -> String {
    let mut out = format!("    ({:?})\n", d.method);
    for c in &d.chances {
        out.push_str(&format!(
            "    {}  {}  [{}]\n",
            prob::report::label(p, &c.case),
            fraction(&c.exact),
            prob::key(&c.case)
        ));
    }
    out
}

/// Questions compared and skipped in one corpus, and the failures, in words.
#[derive(Default)]
pub struct Tally {
    /// Questions both engines answered, compared.
    pub compared: u64,
    /// Questions the oracle could not answer within [`ORACLE_LIMIT`] paths.
    pub skipped: u64,
    /// Each failure, with all it takes to make it a regression case.
    pub failures: Vec<String>,
    /// When the corpus began.
    pub began: Option<std::time::Instant>,
}

impl Tally {
    /// Runs both engines on `job` and compares them with `compare` ([`difference`] or
    /// [`limit_difference`]). Returns the oracle's distribution, `None` if it skipped.
    pub fn run(
        &mut self,
        job: &Job<'_>,
        asked: &Asked<'_>,
        compare: fn(&Distribution, &Distribution) -> Option<String>,
    ) -> Option<Distribution> {
        self.began.get_or_insert_with(std::time::Instant::now);
        // A pool of dice rolled one by one has at least faces^dice paths: past the
        // limit, skipped at once (as `prob::odds` samples at once).
        if prob::pool_cases(job) > ORACLE_LIMIT as u64 {
            self.skipped += 1;
            return None;
        }
        let Some(oracle) = prob::paths::exact(job, ORACLE_LIMIT) else {
            self.skipped += 1;
            return None;
        };
        self.compared += 1;
        let engine = prob::exact(job, engine_limit());
        let why = match &engine {
            None => Some(format!(
                "the engine gave no exact odds (limit {}) where the oracle was exact",
                engine_limit()
            )),
            Some(e) => compare(&oracle, e),
        };
        if let Some(why) = why {
            let p = job.program;
            self.failures.push(format!(
                "{why}\n  ruleset:\n{}\n  question: {}\n  state: {}\n  limits: steps {}, depth {}, dice {}\n  oracle:\n{}  engine:\n{}",
                indent(asked.ruleset),
                asked.question,
                asked.state,
                job.limits.steps,
                job.limits.depth,
                job.limits.dice,
                show(p, &oracle),
                engine.as_ref().map_or_else(|| "    none\n".to_string(), |e| show(p, e)),
            ));
        }
        Some(oracle)
    }

    /// Prints the count (`-- --nocapture`) and fails with every failure told.
    pub fn finish(self, corpus: &str) {
        println!(
            "{corpus}: {} questions compared, {} skipped (more than {ORACLE_LIMIT} paths), in {:.1} s",
            self.compared,
            self.skipped,
            self.began.map_or(0.0, |t| t.elapsed().as_secs_f64())
        );
        if !self.failures.is_empty() {
            let shown: Vec<&String> = self.failures.iter().take(5).collect();
            panic!(
                "{corpus}: {} of {} questions differ between the oracle and the engine (the first {} below)\n\n{}",
                self.failures.len(),
                self.compared,
                shown.len(),
                shown
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join("\n\n")
            );
        }
    }
}

fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
