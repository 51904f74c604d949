//! `umpire serve [RULESET]`: the table and the odds on a web page (`crate::serve`).

use crate::diagnostic::Diags;
use crate::game::DiceMode;
use crate::limits::Limits;
use std::net::IpAddr;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Serve`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// A bundled ruleset name or a path to a .rules file (a house rule shows beside
    /// its base on the Editions screen).
    ruleset: Option<String>,
    /// A game state file (TOML or JSON) to start from; saves go to its folder.
    #[arg(long)]
    state: Option<String>,
    /// The port to serve on (0: a free one, printed).
    #[arg(long, default_value_t = crate::serve::DEFAULT_PORT)]
    port: u16,
    /// The IP address to listen on: 127.0.0.1 (this machine only) unless given;
    /// 0.0.0.0 for every network the machine is on (the players' tablets).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    listen: IpAddr,
    /// On Ctrl-C, save unsaved changes to the state file (else they are reported, and
    /// nothing is written).
    #[arg(long)]
    save_on_exit: bool,
    /// Roll seeded dice from this seed (the same seed replays the same rolls).
    #[arg(long)]
    seed: Option<u64>,
}

/// Runs the server until Ctrl-C.
///
/// Errors: the ruleset or state cannot be read; the address cannot be bound.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    let seed = args.seed.unwrap_or_else(crate::dice::fresh_seed);
    let opts = crate::serve::Options {
        ruleset: args.ruleset,
        state: args.state,
        listen: args.listen,
        port: args.port,
        save_on_exit: args.save_on_exit,
        dice: DiceMode::seeded(seed),
        limits: *limits,
    };
    let mut out = std::io::stdout();
    crate::serve::run(opts, &mut out)?;
    Ok(ExitCode::SUCCESS)
}
