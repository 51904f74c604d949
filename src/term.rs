//! Terminal output shared by the faces (the CLI and the REPL): writing to standard
//! output and standard error, and what a closed pipe or a full disk means there.

use std::io::Write;

/// Writes to standard output. A closed pipe (`umpire show x | head -1`) ends the
/// program quietly with 141, the status of a program stopped by a closed pipe, so a
/// failing run piped into `head` is not taken for a success; any other failure (a full
/// disk) ends it with exit code 1, so a truncated `umpire show x > file` is not
/// reported as done.
pub(crate) fn write_out(text: &str) {
    let mut o = std::io::stdout().lock();
    if let Err(e) = o.write_all(text.as_bytes()).and_then(|()| o.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(141);
        }
        write_err(&format!("error: cannot write the output: {e}\n"));
        std::process::exit(1);
    }
}

/// Writes to standard error; if even that fails there is no one left to tell.
pub(crate) fn write_err(text: &str) {
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
}
