//! `umpire repl [RULESET]`: adjudicate at the table, one line at a time (the REPL face
//! itself is `crate::repl`).

use crate::limits::Limits;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Repl`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// A bundled ruleset name or a path to a .rules file.
    ruleset: Option<String>,
    /// A game state file (TOML or JSON) to start from.
    #[arg(long)]
    state: Option<String>,
    /// Roll seeded dice from this seed (the same seed replays the same rolls).
    #[arg(long, conflicts_with = "table_dice")]
    seed: Option<u64>,
    /// Start with the players rolling: each die is asked for (`:dice table`). Without
    /// this or --seed, `UMPIRE_DICE=table|seeded`, else `dice = "table"` in
    /// $XDG_CONFIG_HOME/umpire/config.toml, says who rolls.
    #[arg(long)]
    table_dice: bool,
    /// Append the game log to FILE from the first line (as `:log FILE`): held locked,
    /// so no other umpire writes to it meanwhile.
    #[arg(long, value_name = "FILE")]
    log: Option<String>,
}

/// Runs `umpire repl`: who rolls as the flags say, else the environment
/// (`UMPIRE_DICE`), else the configuration file (`dice = "table"`).
///
/// Errors: the environment or the configuration file says something umpire cannot
/// read (the REPL does not start).
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, crate::diagnostic::Diags> {
    let configured = super::config::dice(limits)?;
    let table = if args.seed.is_some() || args.table_dice {
        args.table_dice
    } else {
        configured == Some(super::config::Roller::Table)
    };
    Ok(crate::repl::main(
        args.ruleset,
        args.state,
        args.seed,
        table,
        args.log,
        limits,
    ))
}
