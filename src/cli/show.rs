//! `umpire show NAME`: print a bundled ruleset's source.

use crate::bundled;
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Show`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// A bundled ruleset name.
    name: String,
}

/// Runs `umpire show`: the source, or an error naming the bundled rulesets.
pub(super) fn run(args: Args) -> Result<ExitCode, Diags> {
    let name = args.name;
    match bundled::source(&name) {
        Some(text) => {
            out!("{text}");
            Ok(ExitCode::SUCCESS)
        }
        None => Err(Diag::error(
            Code::CliUnknownRuleset,
            format!("no bundled ruleset `{name}`"),
        )
        .suggest(&name, bundled::names())
        .help(format!("bundled rulesets: {}", bundled::names().join(", ")))
        .into()),
    }
}
