//! `umpire replay LOG`: adjudicate a game log's results again and say where any differs.

use crate::diagnostic::Diags;
use crate::limits::Limits;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Replay`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// The game log (JSON lines).
    log: String,
}

/// Runs `umpire replay`: exit 1 when any result differs.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    let log = args.log;
    let r = crate::replay::replay(&log, limits)?;
    for n in &r.notes {
        errln!("note: {n}");
    }
    for d in &r.differences {
        outln!("line {}: `{}`: {}", d.line, d.input, d.why);
    }
    let n = r.checked;
    if r.differences.is_empty() {
        outln!("{log}: all {n} result(s) reproduced");
        Ok(ExitCode::SUCCESS)
    } else {
        outln!("{log}: {} of {n} result(s) differ", r.differences.len());
        Ok(ExitCode::from(1))
    }
}
