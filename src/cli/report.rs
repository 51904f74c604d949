//! `umpire report LOG`: a game log as a turn-by-turn account for the players, as text,
//! Markdown or one HTML page.

use crate::diagnostic::Diags;
use crate::limits::Limits;
use std::process::ExitCode;

/// How the account is written.
#[derive(Debug, Clone, Copy, clap::ValueEnum, PartialEq, Eq)]
pub(super) enum ReportFormat {
    /// Text for people (what was taken back left out).
    Text,
    /// Markdown: a heading per turn, a list per entry.
    Markdown,
    /// One self-contained HTML page.
    Html,
}

// No doc comment: the subcommand's help is the one written on `Command::Report`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// The game log (JSON lines), from `umpire run --log` or the REPL's `:log`.
    log: String,
    /// How the account is written.
    #[arg(long, value_enum, default_value = "text")]
    format: ReportFormat,
}

/// Runs `umpire report`: exit 1 when the log cannot be read.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    let r = crate::report::report(&args.log, limits)?;
    let text = match args.format {
        ReportFormat::Text => crate::report::render::text(&r),
        ReportFormat::Markdown => crate::report::render::markdown(&r),
        ReportFormat::Html => crate::report::render::html(&r),
    };
    out!("{text}");
    Ok(ExitCode::SUCCESS)
}
