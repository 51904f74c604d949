//! `umpire lsp`: the language server on stdin and stdout (`crate::lsp`).

use crate::limits::Limits;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Lsp`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// Talk over stdin and stdout (the only way, and the default; editors pass it).
    #[arg(long)]
    stdio: bool,
}

/// Runs the server until the editor says `exit`: 0 after `shutdown`, else 1.
pub(super) fn run(_args: Args, limits: &Limits) -> ExitCode {
    ExitCode::from(u8::try_from(crate::lsp::serve_stdio(*limits)).unwrap_or(1))
}
