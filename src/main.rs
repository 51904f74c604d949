//! The `umpire` binary: a thin face over the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A roomy stack for deeply nested (but limited) rulesets, switched to on this thread
    // (no second thread to start and wait for: under load that wait was most of a run's
    // start); the limits themselves are enforced by the parser and evaluator.
    stacker::grow(256 * 1024 * 1024, umpire::cli::main)
}
