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
    /// (enum values, false,true). NAME is a free name in EXPR or a state path. Repeat it
    /// to sweep several names: every combination, the first sweep outermost.
    #[arg(long, value_name = "NAME=VALUES")]
    sweep: Vec<String>,
    /// Estimate from N seeded adjudications instead of enumerating (all N are taken).
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
    // Left for the process's end to take back: freeing a checked program piece by piece
    // costs more than answering a question.
    let rules = std::mem::ManuallyDrop::new(load_with_state(
        &args.ruleset,
        args.state.as_deref(),
        &args.interpret,
        limits,
    )?);
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
    if args.sweep.is_empty() {
        once(&rules, &args, &settings)?;
    } else {
        sweep(&rules, &args, &settings)?;
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
        Format::Csv => out!("{}", report::csv(&rules.program, &d)?),
    }
    Ok(())
}

/// The odds for each value of the sweep (each combination of the sweeps' values), a row
/// each.
fn sweep(rules: &Ruleset, args: &Args, settings: &Settings) -> Result<(), Diags> {
    let sweeps = args
        .sweep
        .iter()
        .map(|spec| crate::prob::sweep::parse(spec))
        .collect::<Result<Vec<_>, _>>()?;
    let rows = crate::prob::sweep::run_many(rules, &args.expr, &sweeps, settings)?;
    if let Some((_, d)) = rows.first() {
        report_sampling(d, args.seed);
    }
    let (p, expr) = (&rules.program, &args.expr);
    let names: Vec<String> = sweeps.iter().map(|s| s.name.clone()).collect();
    match args.format {
        Format::Csv => out!("{}", report::sweeps_csv(p, &names, &rows)?),
        // One sweep: `{"sweep": NAME, "rows": [{"at": VALUE, ...}]}`, as ever.
        Format::Json if names.len() == 1 => {
            let rows: Vec<(String, Distribution)> = rows
                .into_iter()
                .map(|(mut at, d)| (at.pop().unwrap_or_default(), d))
                .collect();
            outln!("{}", report::sweep_json(p, expr, &names[0], &rows))
        }
        Format::Json => outln!("{}", report::sweeps_json(p, expr, &names, &rows)),
        Format::Text => out!("{}", report::sweeps_text(p, expr, &names, &rows)),
        // Several sweeps: a row per combination, named by its values in order.
        Format::Svg => {
            let rows: Vec<(String, Distribution)> =
                rows.into_iter().map(|(at, d)| (at.join(", "), d)).collect();
            out!("{}", svg::sweep_chart(p, expr, &names.join(" and "), &rows))
        }
    }
    Ok(())
}

/// On stderr, for sampled odds: why it sampled, and a fresh seed (not `--seed`) to
/// replay with.
fn report_sampling(d: &Distribution, given_seed: Option<u64>) {
    if let Method::Sampled {
        seed: s,
        over_limit,
        samples,
    } = d.method
    {
        if let Some(l) = over_limit {
            let cases = if l == 1 { "case" } else { "cases" };
            errln!("exact odds need more than {l} {cases} of work: sampling instead (--limit N allows more)");
            if let Some(asked) = report::samples_asked(&d.method).filter(|a| *a > samples) {
                errln!("sampling stopped by the work limit after {samples} of {asked} adjudications (--samples N takes all N)");
            }
        }
        if given_seed.is_none() {
            errln!("seed: {s} (replay with --seed {s})");
        }
    }
}
