//! Ctrl-C cancels the running command, not the game.
//!
//! A face that runs commands (the REPL) calls [`install`] once, then runs each command
//! inside [`during`]: a Ctrl-C (SIGINT) then sets a flag instead of ending the process.
//! The work that can take long polls [`requested`] where it already counts its work —
//! the evaluator with its steps, the odds with their cases, a save before its rename —
//! and stops with [`cancelled`], an error of its own (`umpire::limit::cancelled`), leaving
//! the game as it was. Outside a command (between commands, or in a command-line tool
//! that never installs it) Ctrl-C ends the process as usual. At a line editor's prompt
//! the terminal is in raw mode: Ctrl-C is a key there, which the editor reads itself.
//!
//! On a terminal rustyline cannot drive (`TERM=dumb`) the line is read in the terminal's
//! usual mode, where Ctrl-C is a signal: a face reads such a line inside [`at_prompt`],
//! and a Ctrl-C there drops the line typed so far (the terminal does) and shows the prompt
//! again, rather than ending the process; inside a command it asks the command to stop.
//!
//! A command is armed on its own thread: only work on that thread sees the request (so
//! that threads of a test binary do not cancel each other's work).

use crate::diagnostic::{Code, Diag};
use std::cell::Cell;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// A Ctrl-C came while a command ran.
static REQUESTED: AtomicBool = AtomicBool::new(false);
/// How many threads are running a command now.
static ARMED: AtomicUsize = AtomicUsize::new(0);
/// The prompt a line is being read at ([`at_prompt`]), if one is.
static PROMPT: Mutex<Option<String>> = Mutex::new(None);
/// Whether the handler is installed.
static INSTALLED: std::sync::Once = std::sync::Once::new();

thread_local! {
    /// This thread runs a command that Ctrl-C cancels.
    static ARMED_HERE: Cell<bool> = const { Cell::new(false) };
    /// A cancellation asked for on this thread alone (by a test).
    static REQUESTED_HERE: Cell<bool> = const { Cell::new(false) };
}

/// Installs the Ctrl-C handler, once in a process: while a command runs ([`during`]) a
/// Ctrl-C asks it to stop; at any other time it ends the process (exit 130, as the
/// shell reports an interrupted program). Where it cannot be installed, Ctrl-C keeps
/// its usual meaning.
pub fn install() {
    INSTALLED.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            let prompt = prompt_now();
            let armed = ARMED.load(Ordering::SeqCst) > 0;
            if armed {
                REQUESTED.store(true, Ordering::SeqCst);
            }
            // The terminal has dropped the line typed so far; the read goes on.
            let said = match (armed, prompt) {
                (true, Some(_)) => "\nCtrl-C: press Enter to stop this command\n".to_string(),
                (false, Some(p)) => format!("\n{p}"),
                (true, None) => return,
                (false, None) => std::process::exit(130),
            };
            let mut out = std::io::stdout();
            let _ = out.write_all(said.as_bytes());
            let _ = out.flush();
        });
    });
}

/// The prompt a line is being read at, if one is.
fn prompt_now() -> Option<String> {
    PROMPT
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
        .clone()
}

/// Reads a line with `read`, asked for with `prompt`: a Ctrl-C meanwhile (a signal only
/// where the terminal is in its usual mode, as a line editor leaves it on a `dumb`
/// terminal) shows the prompt again, the line typed so far dropped, instead of ending
/// the process; inside a command ([`during`]) it asks the command to stop, and
/// [`requested`] is true once the line is read.
pub fn at_prompt<T>(prompt: &str, read: impl FnOnce() -> T) -> T {
    /// Forgets the prompt when the line is read, however it ends.
    struct Reading(Option<String>);
    impl Drop for Reading {
        fn drop(&mut self) {
            *PROMPT.lock().unwrap_or_else(|p| p.into_inner()) = self.0.take();
        }
    }
    let before = PROMPT
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .replace(prompt.to_string());
    let _reading = Reading(before);
    read()
}

/// Runs one command `f`, which a Ctrl-C asks to stop ([`requested`] is true in it, on
/// this thread, once one comes). A request left over from before is forgotten first, and
/// one that came too late to stop anything is forgotten after.
pub fn during<T>(f: impl FnOnce() -> T) -> T {
    /// Disarms when the command ends, however it ends.
    struct Armed;
    impl Drop for Armed {
        fn drop(&mut self) {
            ARMED_HERE.with(|a| a.set(false));
            ARMED.fetch_sub(1, Ordering::SeqCst);
            clear();
        }
    }
    clear();
    ARMED.fetch_add(1, Ordering::SeqCst);
    ARMED_HERE.with(|a| a.set(true));
    let _armed = Armed;
    f()
}

/// Whether the command running on this thread is asked to stop.
#[inline]
pub fn requested() -> bool {
    ARMED_HERE.with(Cell::get)
        && (REQUESTED.load(Ordering::Relaxed) || REQUESTED_HERE.with(Cell::get))
}

/// Forgets a request to stop.
pub fn clear() {
    REQUESTED.store(false, Ordering::SeqCst);
    REQUESTED_HERE.with(|r| r.set(false));
}

/// Asks every command running now to stop, as a Ctrl-C does: a server stopping, or an
/// umpire's page asking to stop the work in hand.
pub fn request() {
    REQUESTED.store(true, Ordering::SeqCst);
}

/// Asks the command running on this thread to stop, as a Ctrl-C does (for tests: no
/// other thread sees it).
pub fn request_here() {
    REQUESTED_HERE.with(|r| r.set(true));
}

/// The error of a command stopped by Ctrl-C.
pub fn cancelled() -> Diag {
    Diag::error(
        Code::LimitCancelled,
        "cancelled (Ctrl-C): the game is as it was",
    )
    .help("nothing of this command was done; unsaved changes are still on the table")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_is_seen_only_while_a_command_runs() {
        request_here();
        assert!(!requested(), "no command runs");
        let seen = during(|| {
            request_here();
            requested()
        });
        assert!(seen);
        assert!(!requested());
        // A request before the command is forgotten when it starts.
        request_here();
        assert!(!during(requested));
    }
}
