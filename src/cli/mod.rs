//! The command-line face: argument parsing (clap), rendering, exit codes. No
//! adjudication logic lives here: one file per subcommand, each turning its flags into
//! library calls and the results into output.
//!
//! Exit codes: 0 done (a refusal or a "not given" result is a result); 1 an error in a
//! ruleset, expression or scenario, or a failed expectation; 2 a usage error.

use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::{bundled, Ruleset};

use clap::{Parser, Subcommand, ValueEnum};
use std::process::ExitCode;

use crate::term::{write_err, write_out};

macro_rules! out {
    ($($t:tt)*) => { $crate::term::write_out(&format!($($t)*)) };
}

macro_rules! outln {
    ($($t:tt)*) => {{ $crate::term::write_out(&format!($($t)*)); $crate::term::write_out("\n"); }};
}

macro_rules! err {
    ($($t:tt)*) => { $crate::term::write_err(&format!($($t)*)) };
}

macro_rules! errln {
    ($($t:tt)*) => {{ $crate::term::write_err(&format!($($t)*)); $crate::term::write_err("\n"); }};
}

mod check;
mod config;
mod dice;
mod diff;
mod eval;
mod fmt;
mod lsp;
mod prob;
mod repl;
mod replay;
mod report;
mod run;
mod serve;
mod show;
mod test;

/// umpire: adjudicate wargame rules written as text rulesets, with the reasons shown.
#[derive(Parser, Debug)]
#[command(name = "umpire", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The configurable limits (`umpire::limits`), for every command.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits")]
struct LimitArgs {
    /// Most evaluation steps in one adjudication [default: 1000000].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,
    /// Most rules, tables and modifier lists in use inside each other [default: 1000].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_depth: Option<u32>,
    /// Most dice rolled in all in one adjudication [default: 100000].
    #[arg(long, global = true, value_name = "N")]
    max_dice: Option<u64>,
    /// Most dice in one roll (`1000d6`, `dice(1000, 6)`) [default: 1000].
    #[arg(long, global = true, value_name = "N")]
    max_dice_per_roll: Option<u32>,
    /// Most sides a die may have [default: 1000].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_sides: Option<u32>,
    /// Largest ruleset (bundled ones too), state, scenario or game-log file read, in bytes
    /// [default: 4194304, 4 MiB].
    #[arg(long, global = true, value_name = "BYTES")]
    max_file_size: Option<u64>,
}

impl LimitArgs {
    fn limits(&self) -> Limits {
        let d = Limits::default();
        Limits {
            steps: self.max_steps.unwrap_or(d.steps),
            depth: self.max_depth.unwrap_or(d.depth),
            dice: self.max_dice.unwrap_or(d.dice),
            dice_per_roll: self.max_dice_per_roll.unwrap_or(d.dice_per_roll),
            sides: self.max_sides.unwrap_or(d.sides),
            file_bytes: self.max_file_size.unwrap_or(d.file_bytes),
        }
    }
}

/// Output format.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// Text for people.
    Text,
    /// One JSON object.
    Json,
}

/// Output format of `prob` and `diff`, which can also write the odds as a table and
/// draw them. (Not `Format`: `eval`, `run` and the rest have no odds to tabulate or
/// draw, so `--format csv` and `--format svg` are no values of theirs, and clap refuses
/// them there in plain words, naming the formats they take.)
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum OddsFormat {
    /// Text for people.
    Text,
    /// One JSON object.
    Json,
    /// An SVG chart of the odds on standard output (a bar per outcome, exact percentages
    /// on the bars; `diff` needs --scenario).
    Svg,
    /// Comma-separated values, a row per outcome (`diff` needs --scenario).
    Csv,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Adjudicate one expression against a ruleset.
    Eval(eval::Args),
    /// Parse and check rulesets; print every problem.
    Check(check::Args),
    /// Run the `example` blocks of rulesets.
    Test(test::Args),
    /// Print a bundled ruleset's source, to copy and edit as a house rule.
    Show(show::Args),
    /// The odds of an adjudication: every outcome with its exact chance (or, when there
    /// are too many cases, an estimate from seeded samples).
    Prob(prob::Args),
    /// What a house rule or an edition changes: the text (tables cell by cell,
    /// modifiers, constants, rules, examples) and, with a scenario, each adjudication's
    /// odds under both side by side.
    Diff(diff::Args),
    /// Adjudicate at the table, one line at a time: `:help` lists the commands. With no
    /// ruleset, `:use NAME` picks a bundled one. Reads a script when stdin is not a
    /// terminal (exit 1 if any input failed).
    Repl(repl::Args),
    /// Run a scenario file: a ruleset and a list of adjudications.
    Run(run::Args),
    /// Replay a game log (`umpire run --log`, the REPL's `:log`): every result
    /// adjudicated again with the logged dice and under the logged limits, never past
    /// the limit flags (or their defaults; `--max-file-size` limits the log read too);
    /// says where and why any differs (exit 1).
    Replay(replay::Args),
    /// A game log as a turn-by-turn account for the players: who, what was asked, the
    /// dice (typed at the table, queued or rolled by umpire), the result in the
    /// rulebook's words, the effects applied. What was taken back is left out (struck
    /// through in Markdown and HTML).
    Report(report::Args),
    /// A language server for `.rules` files, over stdin and stdout, for editors:
    /// diagnostics as you type, hover, go to definition, completion, formatting.
    Lsp(lsp::Args),
    /// Lay out ruleset files canonically: table rows and modifiers aligned in columns,
    /// one blank line between definitions, comments kept where they are. Each file that
    /// changes is rewritten whole; with --check nothing is written, the files that would
    /// change are listed (exit 1 if any would). `-` lays out standard input on standard
    /// output.
    Fmt(fmt::Args),
    /// The table and the odds on a web page: serves one game on this machine (127.0.0.1
    /// unless --listen says) and prints two addresses — the umpire's page, whose token
    /// lets it change the game, and the players' page, which watches. Ctrl-C stops it.
    Serve(serve::Args),
}

impl Command {
    /// Whether errors are wanted as JSON on stdout too (`--format json` of eval and prob).
    fn json_errors(&self) -> bool {
        match self {
            Command::Eval(a) => a.format == Format::Json,
            Command::Prob(a) => a.format == OddsFormat::Json,
            _ => false,
        }
    }
}

/// Renders a diagnostic as miette does, without colour when stderr is not a terminal.
pub fn render(d: &dyn miette::Diagnostic) -> String {
    crate::diagnostic::render(d, crate::diagnostic::stderr_colour())
}

fn report(ds: &Diags) {
    for d in &ds.0 {
        err!("{}", render(d));
    }
}

/// Runs the CLI on `std::env::args`.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Usage errors to stderr (exit 2); `--help` and `--version` to stdout.
            if e.use_stderr() {
                write_err(&e.render().to_string());
            } else {
                write_out(&e.render().to_string());
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let limits = cli.limits.limits();
    // EXPR may begin with `-` (`-3 + 1`), but `--bogus` is a mistyped option.
    if let Command::Eval(eval::Args { expr, .. }) = &cli.command {
        if expr.starts_with("--") && expr[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            errln!("error: unknown option `{expr}` (an expression does not start with `--`)\n\nFor more information, try '--help'.");
            return ExitCode::from(2);
        }
    }
    if let Some(twice) = interpret_twice(&cli.command) {
        errln!("error: {twice}\n\nFor more information, try '--help'.");
        return ExitCode::from(2);
    }
    let json_errors = cli.command.json_errors();
    // Checked rulesets are kept between runs (`crate::cache`), except by `check`, which
    // is asked to check.
    if !matches!(cli.command, Command::Check(_)) {
        if let Some(cache) = crate::cache::Cache::from_env() {
            crate::cache::turn_on(cache);
        }
    }
    match run(cli.command, &limits) {
        Ok(code) => code,
        Err(ds) => {
            if json_errors {
                // A JSON reader gets the error as JSON too; people read stderr.
                let errors: Vec<serde_json::Value> =
                    ds.0.iter().map(crate::eval::diag_json).collect();
                outln!("{}", serde_json::json!({ "error": errors }));
            }
            report(&ds);
            ExitCode::from(1)
        }
    }
}

/// Runs one subcommand within `limits` (from the limit flags): its exit code, or the
/// errors that stopped it (exit 1).
fn run(cmd: Command, limits: &Limits) -> Result<ExitCode, Diags> {
    match cmd {
        Command::Eval(a) => eval::run(a, limits),
        Command::Check(a) => Ok(check::run(a, limits)),
        Command::Test(a) => Ok(test::run(a, limits)),
        Command::Show(a) => show::run(a),
        Command::Prob(a) => prob::run(a, limits),
        Command::Diff(a) => diff::run(a, limits),
        Command::Repl(a) => repl::run(a, limits),
        Command::Run(a) => run::run(a, limits),
        Command::Replay(a) => replay::run(a, limits),
        Command::Report(a) => report::run(a, limits),
        Command::Lsp(a) => Ok(lsp::run(a, limits)),
        Command::Fmt(a) => Ok(fmt::run(a, limits)),
        Command::Serve(a) => serve::run(a, limits),
    }
}

/// `--interpret` choosing two readings of one interpretation (the last would win
/// without a word): the sentence naming both.
fn interpret_twice(cmd: &Command) -> Option<String> {
    let choices = match cmd {
        Command::Eval(a) => &a.interpret,
        Command::Prob(a) => &a.interpret,
        _ => return None,
    };
    let name = |c: &str| c.split_once('=').map_or(c, |(n, _)| n).trim().to_string();
    for (i, later) in choices.iter().enumerate() {
        if let Some(first) = choices[..i].iter().find(|c| name(c) == name(later)) {
            return Some(format!(
                "--interpret {} is chosen twice: `--interpret {first}` and `--interpret {later}`; \
                 give one reading of it",
                name(later)
            ));
        }
    }
    None
}

/// A ruleset by name or path loaded within `limits` (its warnings shown), with a state
/// file loaded if given.
fn load_with_state(
    ruleset: &str,
    state: Option<&str>,
    interpret: &[String],
    limits: &Limits,
) -> Result<Ruleset, Diags> {
    note_bundled_over_file(ruleset);
    let mut rules = Ruleset::load_with(ruleset, limits)?;
    for choice in interpret {
        let Some((name, reading)) = choice.split_once('=') else {
            return Err(Diag::error(
                Code::CliInterpret,
                format!("--interpret {choice}: write NAME=READING"),
            )
            .into());
        };
        rules.interpret(name.trim(), reading.trim())?;
    }
    for w in &rules.warnings {
        err!("{}", render(w));
    }
    if let Some(path) = state {
        rules.load_state(path)?;
    }
    Ok(rules)
}

/// A bundled name is taken before a file of the same name: say so when both exist.
fn note_bundled_over_file(name: &str) {
    if bundled::source(name).is_none() {
        return;
    }
    for file in [name.to_string(), format!("{name}.rules")] {
        if std::path::Path::new(&file).is_file() {
            errln!("note: `{name}` is the bundled ruleset; for your file write ./{file}");
        }
    }
}

/// An exit code: 1 when something failed, else 0.
fn failed_if(failed: bool) -> ExitCode {
    if failed {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
