//! `umpire check RULESET...`: parse and check rulesets, every problem of each file under
//! one headline, and a line per file on stdout saying what it holds or how many errors.

use super::{failed_if, render};
use crate::diagnostic::{Diags, FileReport};
use crate::limits::Limits;
use crate::Ruleset;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Check`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// Bundled names or paths.
    #[arg(required = true)]
    rulesets: Vec<String>,
    /// Fail (exit 1) on warnings too.
    #[arg(long)]
    deny_warnings: bool,
}

/// Runs `umpire check`: exit 1 if any file has errors (or warnings, when denied).
pub(super) fn run(args: Args, limits: &Limits) -> ExitCode {
    let mut failed = false;
    for name in &args.rulesets {
        failed |= match Ruleset::load_with(name, limits) {
            Ok(r) => loaded(name, &r, args.deny_warnings),
            Err(ds) => refused(name, &ds),
        };
    }
    failed_if(failed)
}

/// Reports a ruleset that loaded; true when it fails (warnings denied).
fn loaded(name: &str, r: &Ruleset, deny_warnings: bool) -> bool {
    let p = &r.program;
    if !r.warnings.is_empty() {
        err!("{}", render(&FileReport::new(name, &r.warnings)));
    }
    let warnings = r.warnings.len();
    if deny_warnings && warnings > 0 {
        outln!("{name}: {} (denied)", count(warnings, "warning"));
        return true;
    }
    outln!(
        "{name}: ok ({}, {}, {}, {}{})",
        count(p.rules.len(), "rule"),
        count(p.tables.len(), "table"),
        count(p.modifiers.len(), "modifier list"),
        count(p.examples.len(), "example"),
        noted(warnings)
    );
    false
}

/// Reports a ruleset that did not load; always a failure.
fn refused(name: &str, ds: &Diags) -> bool {
    err!("{}", render(&FileReport::new(name, &ds.0)));
    let warnings = ds.0.iter().filter(|d| d.warning).count();
    outln!("{name}: {} error(s){}", ds.error_count(), noted(warnings));
    true
}

/// `; 2 warnings` after a summary, or nothing when there are none.
fn noted(warnings: usize) -> String {
    if warnings > 0 {
        format!("; {}", count(warnings, "warning"))
    } else {
        String::new()
    }
}

/// `1 rule`, `2 rules`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}
