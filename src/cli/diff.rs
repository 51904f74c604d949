//! `umpire diff OLD NEW`: what a house rule or an edition changes, and with a scenario
//! each adjudication's odds under both.

use super::{load_with_state, Format};
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
    }
    Ok(if args.exit_code && crate::diff::any(&changes, &compared) {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    })
}
