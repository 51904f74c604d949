//! `umpire run SCENARIO`: run a scenario file, optionally writing the state after and
//! appending the game log.

use super::{failed_if, render, Format};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::scenario;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Run`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// The scenario (TOML).
    scenario: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Leave out the explanations.
    #[arg(long)]
    brief: bool,
    /// Write the state, after the effects applied (`apply = true`), to FILE (written
    /// whole or not at all).
    #[arg(long, value_name = "FILE")]
    write_state: Option<String>,
    /// Append the game log to FILE: the ruleset's digest, the readings, the state,
    /// every result with its dice (`umpire replay FILE` checks it).
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
}

/// Runs `umpire run`: exit 1 when an adjudication failed or was not as expected.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    let path = &args.scenario;
    if let Some(log) = &args.log {
        let mut others = vec![path.as_str()];
        others.extend(args.write_state.as_deref());
        crate::gamelog::check_target(log, &others).map_err(|d| Diags(vec![d]))?;
    }
    let r = scenario::run(path, !args.brief, limits)?;
    if let Some(log) = &args.log {
        crate::gamelog::append_all(log, &crate::gamelog::scenario_lines(&r))
            .map_err(|d| Diags(vec![d]))?;
    }
    if let Some(out) = &args.write_state {
        write_state(&r, out)?;
    }
    for d in r.done.iter() {
        if let Err(e) = &d.result {
            err!("{}", render(e));
        }
    }
    match args.format {
        Format::Json => outln!("{}", scenario::render_json(&r)),
        Format::Text => out!("{}", scenario::render_text(&r, !args.brief)),
    }
    Ok(failed_if(!scenario::all_ok(&r)))
}

/// `--write-state FILE`: the state after the scenario, written whole or not at all.
fn write_state(r: &scenario::Report, out: &str) -> Result<(), Diags> {
    let Some(state) = &r.ruleset.state else {
        return Err(
            Diag::error(Code::CliWriteState, "the scenario has no state to write")
                .help("name a state file in the scenario: `state = \"table.toml\"`")
                .into(),
        );
    };
    crate::state::write_state(
        out,
        &crate::state::to_file_text(&r.ruleset.program, state, out),
    )
    .map_err(|d| Diags(vec![d]))
}
