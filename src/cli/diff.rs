//! `umpire diff OLD NEW`: what a house rule or an edition changes, and with a scenario
//! each adjudication's odds under both.

use super::{load_with_state, OddsFormat as Format};
use crate::diagnostic::Diags;
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
    /// Exit 3 when there are differences (0 when there are none; 1 stays an error).
    #[arg(long)]
    exit_code: bool,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
}

/// Runs `umpire diff`: exit 3 with `--exit-code` when anything differs.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    if args.format == Format::Svg && args.scenario.is_none() {
        errln!("error: --format svg draws the odds of a scenario's adjudications under both rulesets: give --scenario FILE (what changed in the text is told by --format text or json)\n\nFor more information, try '--help'.");
        return Ok(ExitCode::from(2));
    }
    let mut a = load_with_state(&args.old, None, &[], limits)?;
    let mut b = load_with_state(&args.new, None, &[], limits)?;
    let changes = crate::diff::structural(&a, &b);
    let settings = crate::prob::Settings {
        seed: Some(0),
        ..crate::prob::Settings::default()
    };
    let compared = match &args.scenario {
        Some(path) => {
            crate::diff::behavioural((&mut a, &args.old), (&mut b, &args.new), path, &settings)?
        }
        None => Vec::new(),
    };
    let (pa, pb) = (&a.program, &b.program);
    match args.format {
        Format::Json => outln!("{}", crate::diff::json_report(pa, pb, &changes, &compared)),
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
    use crate::prob::svg;
    fn side(
        r: &Result<crate::prob::Distribution, crate::diagnostic::Diag>,
    ) -> Result<&crate::prob::Distribution, String> {
        r.as_ref().map_err(|e| e.message.clone())
    }
    let shown: Vec<svg::Compared<'_>> = compared
        .iter()
        .map(|c| svg::Compared {
            name: &c.name,
            expr: &c.expr,
            old: side(&c.old),
            new: side(&c.new),
            absent: &c.absent,
        })
        .collect();
    svg::diff_chart(&args.old, &args.new, &a.program, &b.program, &shown)
}
