//! `umpire test RULESET...`: run the `example` blocks of rulesets, a line per check,
//! and the count passed and failed.

use super::{failed_if, render, report};
use crate::limits::Limits;
use crate::Ruleset;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Test`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// Bundled names or paths.
    #[arg(required = true)]
    rulesets: Vec<String>,
}

/// Runs `umpire test`: exit 1 if any check failed or any ruleset did not load.
pub(super) fn run(args: Args, limits: &Limits) -> ExitCode {
    let (mut passed, mut failed) = (0usize, 0usize);
    for name in &args.rulesets {
        let r = match Ruleset::load_with(name, limits) {
            Ok(r) => r,
            Err(ds) => {
                report(&ds);
                outln!("{name}: does not load");
                failed += 1;
                continue;
            }
        };
        for res in r.run_examples() {
            match &res.failure {
                None => {
                    passed += 1;
                    outln!("ok     {name}: {} — {}", res.example, one_line(&res.check));
                }
                Some(d) => {
                    failed += 1;
                    outln!("FAILED {name}: {} — {}", res.example, one_line(&res.check));
                    err!("{}", render(d));
                }
            }
        }
    }
    outln!("{passed} passed, {failed} failed");
    failed_if(failed > 0)
}

/// A check's text on one line, its runs of white space each one space.
fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
