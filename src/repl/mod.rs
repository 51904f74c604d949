//! `umpire repl`: interactive adjudication at the table.
//!
//! [`session`] plays a [`crate::game::Game`] one input at a time, each parsed into a
//! [`commands::Command`] or a question;
//! [`editor`] is the rustyline face (history, completion, hints, multi-line input);
//! this module starts a session and feeds it lines — from the keyboard, or from a
//! script on stdin (one input a line, a line ending inside an open bracket or with only
//! `let` steps going on to the next, each die asked for at the table read from the next
//! line).

pub mod commands;
pub mod each;
pub mod editor;
pub mod session;
mod table;

use crate::value::Value;
pub use session::{Io, Next, Session};
use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

/// Whether `text` leaves a bracket open — `(`, `[` or `{` not yet closed, outside
/// texts and `#` comments — so the input goes on on the next line.
pub fn open_brackets(text: &str) -> bool {
    crate::syntax::brackets(text, |_, _| true) > 0
}

/// Whether `text` is an unfinished input that goes on on the next line: a bracket left
/// open ([`open_brackets`]), or only `let` steps (`let x = 2d6`) with the question that
/// uses them still to come.
pub fn unfinished(text: &str) -> bool {
    open_brackets(text) || crate::syntax::only_lets(text)
}

/// Whether `line` is a REPL command (`:save`, `:quit`): where an input with a bracket
/// open would go on, such a line ends it instead and is read as the next input.
pub fn is_command(line: &str) -> bool {
    line.trim_start().starts_with(':')
}

/// Which stream a scripted session writes a piece of text to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stream {
    /// An input line, as read (only when echoing, for transcripts).
    Input,
    /// Standard output: values, answers to commands.
    Out,
    /// Standard error: diagnostics, notes, the prompt for a die.
    Err,
}

/// A session driven by lines of text (stdin that is not a terminal, or a test).
pub struct Script<'a> {
    input: &'a mut dyn BufRead,
    sink: &'a mut dyn FnMut(Stream, &str),
    /// Colour in diagnostics.
    pub colour: bool,
    /// Hand each input line to the sink too (for transcripts).
    pub echo: bool,
    ended: bool,
    /// Lines read so far.
    lines: usize,
    /// A line that was not text, or input that could not be read.
    bad: bool,
    /// A command line read where an unfinished input went on: the next input.
    pending: Option<String>,
    /// `let` steps still waiting for their question while a command typed among them
    /// runs (`let a = d6`, `:roll a=6`, `a + 1`): the next input goes on from them.
    held: Option<String>,
}

impl<'a> Script<'a> {
    /// A script reading `input`, writing to `sink`.
    pub fn new(input: &'a mut dyn BufRead, sink: &'a mut dyn FnMut(Stream, &str)) -> Self {
        Script {
            input,
            sink,
            colour: false,
            echo: false,
            ended: false,
            lines: 0,
            bad: false,
            pending: None,
            held: None,
        }
    }

    fn line(&mut self) -> Option<String> {
        if self.ended {
            return None;
        }
        let mut buf = Vec::new();
        match self.input.read_until(b'\n', &mut buf) {
            Ok(0) => {
                self.ended = true;
                None
            }
            Ok(_) => {
                self.lines += 1;
                let line = match String::from_utf8(buf) {
                    Ok(text) => text,
                    Err(_) => {
                        // Not text: said, and skipped; the session goes on.
                        (self.sink)(
                            Stream::Err,
                            &format!("error: line {} is not UTF-8 text: skipped\n", self.lines),
                        );
                        self.bad = true;
                        String::new()
                    }
                };
                let line = line.trim_end_matches(['\n', '\r']).to_string();
                if self.echo {
                    (self.sink)(Stream::Input, &line);
                }
                Some(line)
            }
            Err(e) => {
                (self.sink)(Stream::Err, &format!("error: cannot read the input: {e}\n"));
                self.bad = true;
                self.ended = true;
                None
            }
        }
    }

    /// The next whole input: a line, and the lines after it while a bracket is open or only
    /// `let` steps have been given (the question that uses them comes next) — up
    /// to a line that is a command (starts with `:`), which ends the unfinished input
    /// (an error then says which bracket is not closed) and is the next input itself.
    pub fn next_input(&mut self) -> Option<String> {
        let mut text = match (self.pending.take(), self.held.take()) {
            (Some(line), held) => {
                self.held = held;
                line
            }
            (None, Some(held)) => held,
            (None, None) => self.line()?,
        };
        while unfinished(&text) {
            match self.line() {
                // A command among `let` steps runs; the steps wait on for the question.
                Some(more) if is_command(&more) && !open_brackets(&text) => {
                    self.held = Some(text);
                    return Some(more);
                }
                Some(more) if is_command(&more) => {
                    self.pending = Some(more);
                    break;
                }
                Some(more) => {
                    text.push('\n');
                    text.push_str(&more);
                }
                None => break,
            }
        }
        Some(text)
    }

    /// Feeds every input to `session` until the input ends or `:quit`; says which.
    pub fn run(&mut self, session: &mut Session) -> Next {
        let mut next = Next::Go;
        while let Some(text) = self.next_input() {
            // Ctrl-C while it runs cancels this input, not the session.
            if crate::cancel::during(|| session.input(&text, self)) == Next::Quit {
                next = Next::Quit;
                break;
            }
        }
        if self.bad {
            session.failed = true;
        }
        next
    }
}

impl Io for Script<'_> {
    fn out(&mut self, text: &str) {
        (self.sink)(Stream::Out, text);
    }
    fn err(&mut self, text: &str) {
        (self.sink)(Stream::Err, text);
    }
    fn ask(&mut self, prompt: &str) -> Option<String> {
        (self.sink)(Stream::Err, &format!("{prompt}\n"));
        self.line()
    }
    fn render(&self, d: &dyn miette::Diagnostic) -> String {
        crate::diagnostic::render(d, self.colour)
    }
}

/// The first screen's one line: how to begin, with a question the ruleset in use can
/// answer (`manoeuvre(brigade.guard_grenadiers)`), or how to pick a ruleset.
pub fn welcome(session: &Session) -> String {
    match example_question(session.program(), session.state()) {
        Some(q) => format!(
            "umpire: type a question such as {q}; :rules lists the rules, :help the commands, Ctrl-D ends\n"
        ),
        None if session.program().rules.is_empty() => format!(
            "umpire: `:use NAME` picks a ruleset ({}); :help lists the commands, Ctrl-D ends\n",
            crate::bundled::names().join(", ")
        ),
        None => "umpire: type a question (:rules lists the rules); :help lists the commands, Ctrl-D ends\n".to_string(),
    }
}

/// Six inches, the length a newcomer's example question gives.
fn six_inches() -> Value {
    Value::Length(crate::value::Length {
        inches: crate::value::Rational::from_integer(6),
        unit: crate::value::LengthUnit::Inches,
    })
}

/// A question to show a newcomer: the first rule whose parameters can all be given —
/// preferring one that takes a record on the table (a unit of the state), named by its
/// path — each argument the first that fits (a state path, an enum's first value, a
/// small number, `false`, `6"`); parameters with defaults left out.
pub fn example_question(p: &crate::program::Program, state: Option<&Value>) -> Option<String> {
    use crate::program::Ty;
    let arg = |ty: &Ty, declared: Option<crate::program::NumRange>| -> Option<(String, bool)> {
        let range = declared.and_then(crate::program::NumRange::int);
        Some(match ty {
            Ty::Record(shape) => (record_path(shape, state?, "")?, true),
            Ty::Enum(id) => {
                let e = p.enums.get(usize::from(*id))?;
                let v = &e.values.first()?.name;
                let shared = p.enum_values.get(v.as_ref()).map_or(0, Vec::len) > 1;
                let written = if shared {
                    format!("{}.{v}", e.name)
                } else {
                    v.to_string()
                };
                (written, false)
            }
            Ty::Int | Ty::Num => {
                let lo = range.map_or(1, |r| r.lo);
                let n = match range.and_then(|r| r.hi) {
                    Some(hi) if hi < 1 => lo,
                    _ => lo.max(1),
                };
                (n.to_string(), false)
            }
            Ty::Bool => ("false".to_string(), false),
            // `6"`, or the shortest a declared range of lengths allows when `6"` is not in it.
            Ty::Length => match declared {
                Some(crate::program::NumRange::Length(r))
                    if !declared.is_some_and(|d| d.contains(&six_inches())) =>
                {
                    (r.lo.to_string(), false)
                }
                _ => ("6\"".to_string(), false),
            },
            _ => return None,
        })
    };
    let mut first = None;
    for r in &p.rules {
        let mut args = Vec::new();
        let mut on_table = false;
        let mut fits = true;
        for param in r.sig.params.iter().take_while(|x| !x.has_default) {
            match arg(&param.ty, param.range) {
                Some((a, table)) => {
                    on_table |= table;
                    args.push(a);
                }
                None => {
                    fits = false;
                    break;
                }
            }
        }
        if !fits {
            continue;
        }
        let q = format!("{}({})", r.sig.name, args.join(", "));
        if on_table {
            return Some(q);
        }
        first.get_or_insert(q);
    }
    first
}

/// The path of the first record in `v` (the state) of `shape`'s fields, in order:
/// `brigade.guard_grenadiers`.
fn record_path(shape: &crate::program::RecordShape, v: &Value, at: &str) -> Option<String> {
    let (Value::Record(fields) | Value::Group(fields)) = v else {
        return None;
    };
    for (name, inner) in fields.iter() {
        let path = if at.is_empty() {
            name.to_string()
        } else {
            format!("{at}.{name}")
        };
        if let Value::Record(f) = inner {
            let same = f.len() == shape.fields.len()
                && f.iter().zip(&shape.fields).all(|((a, _), (b, _))| a == b);
            if same {
                return Some(path);
            }
        }
        if at.is_empty() {
            if let Some(found) = record_path(shape, inner, &path) {
                return Some(found);
            }
        }
    }
    None
}

/// Starts a session within `limits`: the ruleset and state given on the command line,
/// if any.
pub fn start(
    ruleset: Option<&str>,
    state: Option<&str>,
    seed: Option<u64>,
    table: bool,
    limits: &crate::limits::Limits,
    io: &mut dyn Io,
) -> Session {
    // A fresh seed is not announced: the game log records it, and `:dice` says it.
    let seed = seed.unwrap_or_else(crate::dice::fresh_seed);
    let mut s = Session::new(seed);
    s.set_limits(*limits);
    if table {
        s.input(":dice table", io);
    }
    if let Some(r) = ruleset {
        if !s.use_ruleset(r, io) {
            s.failed = true;
            s.keep_source(r);
        }
    }
    if let Some(st) = state {
        if !s.load_state(st, io) {
            s.failed = true;
        }
    }
    // The ruleset and state given on the command line are the start of the game.
    s.begin();
    s
}

/// Whether the game may go on as the command line asked: the state file given
/// (`--state`) loaded, and the game log given (`--log`) is kept from now on. If not, it
/// says so (the error said already) and the REPL does not start: a game played without
/// the state or the log asked for would lose what the umpire counts on.
pub fn started(
    session: &mut Session,
    state: Option<&str>,
    log: Option<&str>,
    io: &mut dyn Io,
) -> bool {
    if let Some(st) = state.filter(|_| session.state().is_none()) {
        io.err(&format!(
            "error: not starting: the state file {st} did not load (mend it, or start without `--state` and `:load` one)\n"
        ));
        return false;
    }
    if let Some(l) = log {
        if !session.log_to(l, io) {
            io.err(&format!(
                "error: not starting: the game cannot be logged to {l}, so nothing of it would be kept (name another file with `--log`)\n"
            ));
            return false;
        }
    }
    true
}

/// `umpire repl [RULESET] [--state FILE] [--seed N] [--log FILE]`: at a terminal, the
/// line editor; otherwise a script on stdin. Exits 1 if any input failed. Rulesets are
/// loaded, and questions checked and adjudicated, within `limits`. With `log`, the game
/// log is kept from the first line, as `:log FILE` keeps it.
pub fn main(
    ruleset: Option<String>,
    state: Option<String>,
    seed: Option<u64>,
    table: bool,
    log: Option<String>,
    limits: &crate::limits::Limits,
) -> ExitCode {
    crate::cancel::install();
    let code = if std::io::stdin().is_terminal() {
        let log = log.as_deref();
        editor::interactive(
            ruleset.as_deref(),
            state.as_deref(),
            seed,
            table,
            log,
            limits,
        )
    } else {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let colour = crate::diagnostic::stderr_colour();
        let mut sink = |s: Stream, text: &str| match s {
            Stream::Out => crate::term::write_out(text),
            Stream::Err | Stream::Input => crate::term::write_err(text),
        };
        let mut script = Script::new(&mut input, &mut sink);
        script.colour = colour;
        let mut session = start(
            ruleset.as_deref(),
            state.as_deref(),
            seed,
            table,
            limits,
            &mut script,
        );
        if !started(&mut session, state.as_deref(), log.as_deref(), &mut script) {
            return ExitCode::from(1);
        }
        if script.run(&mut session) == Next::Go {
            // The input ended without `:quit`: what was left is said, not a failure.
            if let Some(note) = session.end_note() {
                script.err(&note);
            }
        }
        session.failed
    };
    if code {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
