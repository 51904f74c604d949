//! The `umpire` binary: a thin face over the library.

use std::process::ExitCode;

fn main() -> ExitCode {
    // A roomy stack for deeply nested (but limited) rulesets; the limits themselves
    // are enforced by the parser and evaluator.
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024 * 1024)
        .spawn(umpire::cli::main);
    match worker.map(|h| h.join()) {
        Ok(Ok(code)) => code,
        _ => ExitCode::from(101),
    }
}
