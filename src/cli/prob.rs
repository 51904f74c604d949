//! `umpire prob RULESET EXPR`: the odds of an adjudication, exact or sampled, once or
//! for each value of a `--sweep`.

use super::{load_with_state, OddsFormat as Format};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::prob::{report, svg, Distribution, Method, Settings};
use crate::Ruleset;
use std::io::IsTerminal;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Prob`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// A bundled ruleset name or a path to a .rules file.
    ruleset: String,
    /// The adjudication, e.g. 'manoeuvre(brigade.second_foot)'.
    #[arg(allow_hyphen_values = true)]
    expr: String,
    /// A game state file to adjudicate against.
    #[arg(long)]
    state: Option<String>,
    /// Read an ambiguous rule one way: NAME=READING (repeatable).
    #[arg(long, value_name = "NAME=READING")]
    pub(super) interpret: Vec<String>,
    /// Ask again for each value of NAME: NAME=A..B (whole numbers) or NAME=v1,v2,...
    /// (enum values, false,true). NAME is a free name in EXPR or a state path.
    #[arg(long, value_name = "NAME=VALUES")]
    sweep: Option<String>,
    /// Estimate from N seeded adjudications instead of enumerating.
    #[arg(long, value_name = "N")]
    samples: Option<u64>,
    /// The seed for sampling (a fresh one, reported, when not given).
    #[arg(long)]
    seed: Option<u64>,
    /// Most cases to enumerate before sampling instead.
    #[arg(long, value_name = "N", default_value_t = crate::prob::DEFAULT_LIMIT)]
    limit: usize,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: Format,
}

/// Runs `umpire prob`.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    let rules = load_with_state(
        &args.ruleset,
        args.state.as_deref(),
        &args.interpret,
        limits,
    )?;
    if args.samples == Some(0) {
        return Err(
            Diag::error(Code::ProbSamples, "--samples 0 samples nothing")
                .help("give 1 or more, e.g. --samples 100000")
                .into(),
        );
    }
    let settings = Settings {
        limit: args.limit,
        samples: args.samples,
        seed: args.seed,
        progress: std::io::stderr().is_terminal(),
    };
    match &args.sweep {
        Some(spec) => sweep(&rules, &args, spec, &settings)?,
        None => once(&rules, &args, &settings)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The odds of the expression as it stands.
fn once(rules: &Ruleset, args: &Args, settings: &Settings) -> Result<(), Diags> {
    let q = rules.question("<expression>", &args.expr)?;
    let job = crate::prob::Job::of(rules, &q);
    let d = crate::prob::odds(&job, settings)?;
    report_sampling(&d, args.seed);
    match args.format {
        Format::Json => outln!("{}", report::json(&rules.program, &args.expr, &d)),
        Format::Text => out!("{}", report::text(&rules.program, &args.expr, &d)),
        Format::Svg => out!("{}", svg::chart(&rules.program, &args.expr, &d)),
    }
    Ok(())
}

/// The odds for each value of the sweep, a row each.
fn sweep(rules: &Ruleset, args: &Args, spec: &str, settings: &Settings) -> Result<(), Diags> {
    let sw = crate::prob::sweep::parse(spec)?;
    let rows = crate::prob::sweep::run(rules, &args.expr, &sw, settings)?;
    if let Some((_, d)) = rows.first() {
        report_sampling(d, args.seed);
    }
    let (p, expr) = (&rules.program, &args.expr);
    match args.format {
        Format::Json => outln!("{}", report::sweep_json(p, expr, &sw.name, &rows)),
        Format::Text => out!("{}", report::sweep_text(p, expr, &sw.name, &rows)),
        Format::Svg => out!("{}", svg::sweep_chart(p, expr, &sw.name, &rows)),
    }
    Ok(())
}

/// On stderr, for sampled odds: why it sampled, and a fresh seed (not `--seed`) to
/// replay with.
fn report_sampling(d: &Distribution, given_seed: Option<u64>) {
    if let Method::Sampled {
        seed: s,
        over_limit,
        ..
    } = d.method
    {
        if let Some(l) = over_limit {
            errln!("too much to enumerate (more than {l} cases, or {} steps): sampling instead (--limit N enumerates more cases)", crate::prob::MAX_STEPS);
        }
        if given_seed.is_none() {
            errln!("seed: {s} (replay with --seed {s})");
        }
    }
}
