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
    pub(super) format: Format,
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
    // Running writes nothing: what the scenario read is known before anything is written.
    let r = scenario::run(path, !args.brief, limits)?;
    if let (Some(out), Some((read, _))) = (&args.write_state, &r.state_file) {
        refuse_own_state(out, read)?;
    }
    if let (Some(log), Some((read, _))) = (&args.log, &r.state_file) {
        crate::gamelog::check_target(log, &[read]).map_err(|d| Diags(vec![d]))?;
    }
    if let Some(log) = &args.log {
        // One writer per game log: a REPL or another run logging to it goes first.
        let mut waiting = || {
            errln!("waiting for {log}: another umpire is writing to it (this run's log is appended when it ends)");
        };
        let id = crate::gamelog::new_game_id();
        crate::gamelog::Log::open_waiting(log, &id, &mut waiting)
            .and_then(|l| l.append_all(&crate::gamelog::scenario_lines(&r)))
            .map_err(|d| Diags(vec![d]))?;
    }
    if let Some(out) = &args.write_state {
        write_state(&r, out)?;
    }
    // An error of the question the scenario expects (`expect = 'missing men'`) is its result.
    for d in r.done.iter().filter(|d| d.expected != Some(true)) {
        if let Err(e) = &d.result {
            err!("{}", render(e));
        }
    }
    match args.format {
        Format::Json => outln!("{}", scenario::render_json(&r)),
        Format::Text | Format::Csv => out!("{}", scenario::render_text(&r, !args.brief)),
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
    // The scenario's TOML state file edited: its comments and layout kept.
    let loaded = r
        .state_file
        .as_ref()
        .filter(|(read, _)| !read.to_ascii_lowercase().ends_with(".json"))
        .map(|(_, text)| text.as_str());
    let text = crate::state::to_file_text_keeping(
        &r.ruleset.program,
        &r.ruleset.sources,
        state,
        out,
        loaded,
    );
    crate::state::write_state(out, &text, &r.ruleset.program, &r.ruleset.limits)
        .map_err(|d| Diags(vec![d]))
}

/// `--write-state FILE` never replaces the state file the scenario reads: the next run
/// would start from the state after, not the one the scenario was written for.
fn refuse_own_state(out: &str, read: &str) -> Result<(), Diags> {
    let same = match (std::fs::canonicalize(out), std::fs::canonicalize(read)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    if !same {
        return Ok(());
    }
    Err(Diag::error(
        Code::CliWriteState,
        format!("will not write the state over {out}: it is the state file the scenario reads (`state = ...`), which it would then start from"),
    )
    .help("name a new file for the state after (`--write-state after.toml`): the scenario's state file is left as it is")
    .into())
}
