//! `umpire diff OLD NEW`: what a house rule or an edition changes, and with a scenario
//! each adjudication's odds under both.

use super::{load_with_state, OddsFormat as Format};
use crate::diagnostic::{Code, Diag, Diags};
use crate::limits::Limits;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Diff`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// The ruleset before (a bundled name or a path).
    old: String,
    /// The ruleset after.
    new: String,
    /// A scenario whose adjudications are run under both (its own ruleset is replaced).
    #[arg(long)]
    scenario: Option<String>,
    /// With --scenario: ask each adjudication again for each value of NAME, old beside
    /// new: NAME=A..B (whole numbers) or NAME=v1,v2,... (enum values, false,true). NAME is
    /// a free name of the adjudications (those that name it) or a path into the
    /// scenario's state. Repeat it to sweep several names: every combination.
    #[arg(long, value_name = "NAME=VALUES")]
    sweep: Vec<String>,
    /// Exit 3 when there are differences (0 when there are none; 1 stays an error).
    #[arg(long)]
    exit_code: bool,
    /// Output format (csv: the odds of --scenario's adjudications, a row per outcome;
    /// svg: them drawn, old beside new).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `umpire diff`: exit 3 with `--exit-code` when anything differs.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    if args.scenario.is_none() {
        let refused = match (args.sweep.first(), args.format) {
            (Some(s), _) => Some(format!("--sweep {s} needs --scenario FILE: it sweeps the scenario's adjudications")),
            (None, Format::Csv) => Some("--format csv needs --scenario FILE: it writes the odds of the scenario's adjudications (the changes in the text are in --format text or json)".to_string()),
            (None, Format::Svg) => Some("--format svg needs --scenario FILE: it draws the odds of the scenario's adjudications under both rulesets (the changes in the text are in --format text or json)".to_string()),
            _ => None,
        };
        if let Some(why) = refused {
            return Err(Diag::error(Code::DiffExpr, why).into());
        }
    }
    let sweeps = args
        .sweep
        .iter()
        .map(|s| crate::prob::sweep::parse(s))
        .collect::<Result<Vec<_>, _>>()?;
    let mut a = load_with_state(&args.old, None, &[], limits)?;
    let mut b = load_with_state(&args.new, None, &[], limits)?;
    let changes = crate::diff::structural(&a, &b);
    let settings = crate::prob::Settings {
        seed: Some(0),
        ..crate::prob::Settings::default()
    };
    let compared = match &args.scenario {
        Some(path) => crate::diff::behavioural_swept(
            (&mut a, &args.old),
            (&mut b, &args.new),
            path,
            &sweeps,
            &settings,
        )?,
        None => Vec::new(),
    };
    let (pa, pb) = (&a.program, &b.program);
    match args.format {
        Format::Json => outln!("{}", crate::diff::json_report(pa, pb, &changes, &compared)),
        Format::Csv => out!("{}", crate::diff::csv_report(pa, pb, &compared)?),
        Format::Text => out!(
            "{}",
            crate::diff::text_report(&args.old, &args.new, pa, pb, &changes, &compared)
        ),
        Format::Svg => out!("{}", svg(&args, &a, &b, &compared)),
    }
    Ok(if args.exit_code && crate::diff::any(&changes, &compared) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}

/// The scenario's adjudications under both rulesets as a chart.
fn svg(
    args: &Args,
    a: &crate::Ruleset,
    b: &crate::Ruleset,
    compared: &[crate::diff::Compared],
) -> String {
    crate::diff::chart(&args.old, &args.new, &a.program, &b.program, compared)
}
