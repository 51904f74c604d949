//! One REPL session: a [`Game`] at the table, played a line at a time. Independent of
//! the terminal: every line goes through [`Session::input`], which parses it into a
//! [`Command`] or a question, calls the game, and renders what comes back through
//! [`Io`] — so a test (or a script on stdin) drives it exactly as a person at the
//! keyboard does.

use super::commands::Command;
use super::table::AtTable;
use crate::adjudication::Outcome;
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::game::{Candidate, Carried, DiceMode, Failure, Fit, Game, Refusal};
use crate::program::{ParamInfo, Program};
use crate::render::{effects_text, headline, report_text, rolls_text_marked, show_arg};
use crate::value::Value;
use crate::{bundled, state};
use queue::queue_note;

mod guard;
mod paths;
mod queue;

/// An input as the prompt names it: a call's name with its arguments left out
/// (`melee_on_table(…)`).
fn short(text: &str) -> String {
    match text.split_once('(') {
        Some((name, _)) => format!("{}(…)", name.trim()),
        None => text.to_string(),
    }
}

/// Where a session's output goes, and where a die rolled at the table comes from.
pub trait Io {
    /// A value or a command's answer (stdout).
    fn out(&mut self, text: &str);
    /// A diagnostic or a note about the session (stderr).
    fn err(&mut self, text: &str);
    /// Asks for one die (`prompt` names it); `None` when there is no more input.
    fn ask(&mut self, prompt: &str) -> Option<String>;
    /// Renders a diagnostic for this output (colour on a terminal, none in a pipe).
    fn render(&self, d: &dyn miette::Diagnostic) -> String;
}

/// Longest line the session takes (64 KiB).
pub const MAX_LINE: usize = 64 * 1024;

/// The code of a die not given at the table in a script (the input ended).
const CANCELLED: Code = Code::ReplCancelled;

/// What an input asks the session to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Next {
    /// Read another line.
    Go,
    /// End the session.
    Quit,
}

/// A REPL session.
pub struct Session {
    pub(super) game: Game,
    /// Whether a die typed at the table that is not a face is asked for again (at a
    /// keyboard) or is an error (in a script, where the next line is not an answer).
    pub ask_again: bool,
    /// Whether any input failed (the exit status of a scripted session).
    pub failed: bool,
    /// The last input was cancelled at a keyboard (not a failure).
    cancelled: bool,
    /// The state files this game loaded or wrote: `:save FILE` writes over them without
    /// asking.
    known: Vec<String>,
}

impl Session {
    /// A session with no ruleset, umpire rolling from `seed`.
    pub fn new(seed: u64) -> Session {
        Session {
            game: Game::new(DiceMode::seeded(seed)),
            ask_again: false,
            failed: false,
            cancelled: false,
            known: Vec::new(),
        }
    }

    /// Plays within `limits` from now on (the command line's limit flags).
    pub fn set_limits(&mut self, limits: crate::limits::Limits) {
        self.game.set_limits(limits);
    }

    /// The prompt for the next input: `umpire> `, or `umpire [table dice]> ` while the
    /// players roll — each mark a word in the brackets, so more can be added.
    pub fn prompt(&self) -> String {
        let mut marks: Vec<String> = Vec::new();
        if matches!(self.game.dice(), DiceMode::Table) {
            marks.push("table dice".to_string());
        }
        if let Some(text) = self.unapplied() {
            marks.push(format!("effects of {} not yet applied", short(&text)));
        }
        if marks.is_empty() {
            "umpire> ".to_string()
        } else {
            format!("umpire [{}]> ", marks.join(", "))
        }
    }

    /// The game at the table.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Remembers `path` as the ruleset file in use even though it did not load, so that
    /// `:reload` reads it again once it is mended.
    pub fn keep_source(&mut self, path: &str) {
        self.game.keep_source(path);
    }

    /// The ruleset in use (for completion: its names).
    pub fn program(&self) -> &Program {
        self.game.program()
    }

    /// Whether the state on the table has changed since it was loaded or saved.
    pub fn unsaved(&self) -> bool {
        self.game.unsaved()
    }

    /// The input whose result's effects are not yet applied, if any (the prompt shows
    /// that they wait).
    pub fn unapplied(&self) -> Option<String> {
        self.game.unapplied().map(|r| r.text().to_string())
    }

    /// Marks the ruleset and state loaded so far as the start of the game: `:undo`
    /// never takes them back.
    pub fn begin(&mut self) {
        self.game.begin();
    }

    /// The game state, if one is loaded.
    pub fn state(&self) -> Option<&Value> {
        self.game.state()
    }

    /// Uses a bundled ruleset or a ruleset file (`:use`).
    pub fn use_ruleset(&mut self, name: &str, io: &mut dyn Io) -> bool {
        let ok = self.use_with(name, Fit::Keep, io);
        self.settle(io);
        ok
    }

    /// Appends the game log to `path` from now on (`:log`, `--log`), holding it locked.
    /// Started part-way, it says that the results before are not in it, and that the
    /// changes before it can no longer be undone (the log starts the game there).
    pub fn log_to(&mut self, path: &str, io: &mut dyn Io) -> bool {
        if let Some(dir) = paths::missing_folder(path) {
            io.err(&format!(
                "error: cannot log to {path}: no such folder, {dir}\n"
            ));
            return false;
        }
        let new = self.game.log_path().is_none();
        let changes = !self.game.history().is_empty() || self.game.redoable().is_some();
        match self.game.log_to(path) {
            Ok(()) => {
                io.err(&format!("each adjudication is appended to {path}\n"));
                let before = self.game.results();
                if new && before > 0 {
                    let results = if before == 1 {
                        "the result adjudicated before this is".to_string()
                    } else {
                        format!("the {before} results adjudicated before this are")
                    };
                    io.err(&format!(
                        "note: {results} not in the log (`umpire repl --log FILE` keeps a game from the start)\n"
                    ));
                }
                // A new log (not the one held, named again) cut the history.
                if changes && self.game.history().is_empty() && self.game.redoable().is_none() {
                    io.err("note: changes made before this can no longer be undone: the log starts the game here\n");
                }
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    /// Loads a state file (`:load`, `--state`).
    pub fn load_state(&mut self, path: &str, io: &mut dyn Io) -> bool {
        if let Some(d) = paths::not_loadable(path, self.game.ruleset().limits.file_bytes) {
            return self.fail(d, io);
        }
        let ok = match self.game.load(path) {
            Ok(()) => {
                io.err(&format!("state loaded from {path}\n"));
                self.known.push(path.to_string());
                true
            }
            Err(f) => self.failure(f, io),
        };
        self.settle(io);
        ok
    }

    /// Takes one input: a `:command` or an expression. Failures are reported through
    /// `io` and remembered in [`Session::failed`]; only `:quit` ends the session.
    pub fn input(&mut self, line: &str, io: &mut dyn Io) -> Next {
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            return Next::Go;
        }
        // A question has at most 256 operators; a line far longer than any can be is
        // refused before it is parsed (a pasted file, a runaway script).
        if text.len() > MAX_LINE {
            self.fail(
                Diag::error(
                    Code::LimitLine,
                    format!(
                        "the line is {} long, more than a line can be ({})",
                        crate::limits::bytes_text(text.len() as u64),
                        crate::limits::bytes_text(MAX_LINE as u64)
                    ),
                )
                .help("put long definitions in a ruleset file and `:use` it"),
                io,
            );
            return Next::Go;
        }
        // `help`, `quit`, `exit` typed alone (any case) are the commands, unless the
        // ruleset in use gives the name a meaning.
        let lower = text.to_lowercase();
        let bare;
        let text = if BARE.contains(&lower.as_str()) && !self.game.understands(text) {
            bare = format!(":{lower}");
            bare.as_str()
        } else if let Some(typed) = self.colon_missing(text) {
            io.err(&format!(
                "error: `{}` is a command, and commands start with `:`: type `{typed}`\n",
                lower.split_whitespace().next().unwrap_or_default()
            ));
            self.failed = true;
            return Next::Go;
        } else {
            text
        };
        let ok = if let Some(rest) = text.strip_prefix(':') {
            let (name, arg) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            match Command::parse(name) {
                Some(Command::Quit) => {
                    if self.may_leave(io) {
                        return Next::Quit;
                    }
                    true
                }
                Some(Command::QuitAnyway) => return Next::Quit,
                // A command that would leave the effects waiting no way to be applied
                // asks first (or, in a script, is refused), as a question does.
                Some(c) if guarded(c, arg) && !self.effects_first(&format!("`{text}`"), io) => {
                    false
                }
                Some(c) => self.command(c, arg, line, io),
                None => self.fail(Command::unknown(name), io),
            }
        } else {
            self.adjudicate(text, false, io)
        };
        self.settle(io);
        // A command stopped by Ctrl-C is not a failure of the game: it is as it was.
        if !ok && !std::mem::take(&mut self.cancelled) && !crate::cancel::requested() {
            self.failed = true;
        }
        Next::Go
    }

    fn command(&mut self, c: Command, arg: &str, line: &str, io: &mut dyn Io) -> bool {
        match c {
            Command::Help => {
                io.out(&Command::help());
                true
            }
            Command::Use => self.use_with(paths::unquote(arg), Fit::Keep, io),
            Command::UseAnyway => self.use_with(paths::unquote(arg), Fit::LeaveBehind, io),
            Command::Reload => self.reload(io),
            Command::Rules => {
                let list = rules_list(self.game.program());
                if list.is_empty() {
                    io.err("no rules: `:use NAME` picks a ruleset\n");
                } else {
                    io.out(&list);
                }
                true
            }
            Command::Show if arg.is_empty() => {
                io.out(&format!(
                    "bundled rulesets: {}\n`:show NAME` prints one, to copy and edit\n",
                    bundled::names().join(", ")
                ));
                true
            }
            Command::Show => match bundled::source(arg) {
                Some(text) => {
                    io.out(text);
                    true
                }
                None => self.fail(
                    Diag::error(
                        Code::ReplUnknownRuleset,
                        format!("no bundled ruleset `{arg}`"),
                    )
                    .suggest(arg, bundled::names())
                    .help(format!("bundled rulesets: {}", bundled::names().join(", "))),
                    io,
                ),
            },
            Command::Explain if arg.is_empty() => match self.game.explain() {
                Ok(a) => {
                    io.out(&report_text(self.game.program(), &a));
                    true
                }
                Err(f) => self.failure(f, io),
            },
            Command::Explain => self.adjudicate(arg, true, io),
            Command::Prob => self.prob(arg, None, io),
            Command::Sweep => {
                // `:sweep NAME=VALUES EXPR`
                let (spec, expr) = match arg.split_once(char::is_whitespace) {
                    Some((a, b)) => (a, b.trim()),
                    None => (arg, ""),
                };
                if expr.is_empty() {
                    io.err("error: write `:sweep NAME=A..B EXPR` or `:sweep NAME=v1,v2 EXPR`\n");
                    return false;
                }
                self.prob(expr, Some(spec), io)
            }
            Command::Each => match super::each::each(self, arg, io) {
                Ok(went) => went,
                Err(f) => self.failure(f, io),
            },
            Command::Interpret => self.interpret(arg, io),
            Command::Dice => self.dice(arg, io),
            Command::Seed => self.dice(&format!("seeded {arg}"), io),
            Command::Roll => self.roll(arg, io),
            Command::Load if arg.is_empty() => {
                io.err("error: `:load` takes a state file: `:load table.toml`\n");
                false
            }
            Command::Load => self.load_state(paths::unquote(arg), io),
            Command::State => self.show_state(arg, io),
            Command::Set => self.set(line, io),
            Command::Apply => self.apply(io),
            Command::Drop => self.drop_effects(io),
            Command::Undo => self.undo(false, io),
            Command::UndoAnyway => self.undo(true, io),
            Command::Redo => match self.game.redo() {
                Ok(change) => {
                    io.out(&format!("redone: {}\n", change.done));
                    true
                }
                Err(f) => self.failure(f, io),
            },
            Command::Save => self.save(paths::unquote(arg), false, io),
            Command::SaveAnyway if arg.is_empty() => {
                io.err("error: `:save!` takes the file to write over: `:save! table.toml`\n");
                false
            }
            Command::SaveAnyway => self.save(paths::unquote(arg), true, io),
            Command::Log if arg.is_empty() => {
                match self.game.log_path() {
                    Some(p) => io.out(&format!("logging to {p}\n")),
                    None => io.out("not logging (`:log FILE` starts)\n"),
                }
                true
            }
            Command::Log => self.log_to(paths::unquote(arg), io),
            // `input` ends the session before it gets here.
            Command::Quit | Command::QuitAnyway => true,
        }
    }

    /// `:set PATH = EXPR`: the change made, and the dice it rolled.
    fn set(&mut self, line: &str, io: &mut dyn Io) -> bool {
        let mut table = AtTable::new(&mut *io, self.ask_again);
        match self.game.set(line, &mut table) {
            Ok(done) => {
                queue_note(done.queue.as_ref(), io);
                let a = &done.adjudication;
                if a.effects.is_empty() {
                    io.out("no change: the state holds that already\n");
                } else {
                    io.out(&effects_text(self.game.program(), &a.effects));
                    if !a.rolls.is_empty() {
                        let marks = done.umpire_marks(self.game.dice());
                        io.out(&format!("rolls: {}\n", rolls_text_marked(&a.rolls, &marks)));
                    }
                }
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// Says what the game could not do; false.
    fn failure(&mut self, f: Failure, io: &mut dyn Io) -> bool {
        queue_note(f.queue(), io);
        match f {
            Failure::Diags(ds) | Failure::DoesNotFit(ds) => report(&ds, io),
            Failure::Stopped { error, .. } => io.err(&io.render(&*error)),
            // Ctrl-C at a die asked for at a keyboard cancels, as it cancels a line.
            Failure::Cancelled { .. } if self.ask_again => {
                io.err("cancelled\n");
                self.cancelled = true;
            }
            Failure::Cancelled {
                die, span, sources, ..
            } => {
                let d = Diag::at(
                    CANCELLED,
                    format!("no roll typed for {die}: the adjudication is cancelled"),
                    span,
                    "this die",
                )
                .with_sources(&sources);
                io.err(&io.render(&d));
            }
            Failure::Refused(r) => io.err(&format!("error: {}\n", refusal_text(&r))),
        }
        false
    }

    fn fail(&mut self, d: Diag, io: &mut dyn Io) -> bool {
        io.err(&io.render(&d));
        self.failed = true;
        false
    }

    /// Says which lines the game log could not take: each a failure.
    fn settle(&mut self, io: &mut dyn Io) {
        for d in self.game.take_log_failures() {
            self.fail(d, io);
        }
    }

    /// `:use NAME` (`fit`: what becomes of a state that does not fit — `:use!` leaves
    /// it behind).
    fn use_with(&mut self, name: &str, fit: Fit, io: &mut dyn Io) -> bool {
        let name = name.trim();
        if name.is_empty() {
            io.err(&format!(
                "error: `:use` takes a bundled ruleset ({}) or a path to a .rules file\n",
                bundled::names().join(", ")
            ));
            return false;
        }
        let candidate = match Candidate::read(name, &self.game.ruleset().limits) {
            Ok(c) => c,
            Err(ds) => {
                report(&ds, io);
                io.err(&format!("{} stays in use\n", self.game.source()));
                return false;
            }
        };
        warnings(candidate.warnings(), io);
        match self.game.put_in_use(candidate, fit) {
            Ok(carried) => {
                say_carried(&carried, io);
                io.err(&format!("using {}\n", self.game.source()));
                true
            }
            Err(Failure::DoesNotFit(_)) => {
                io.err(&format!(
                    "error: the state on the table does not fit `{name}`, so {} stays in use. To leave the state behind, `:save FILE` it if it matters, then `:use! {name}`\n",
                    self.game.source()
                ));
                false
            }
            Err(f) => self.failure(f, io),
        }
    }

    fn reload(&mut self, io: &mut dyn Io) -> bool {
        let path = self.game.source().name().to_string();
        let candidate = match self.game.read_again() {
            Ok(c) => c,
            Err(Failure::Diags(ds)) => {
                report(&ds, io);
                io.err(&format!(
                    "{path} has errors: the ruleset loaded before stays in use\n"
                ));
                return false;
            }
            Err(f) => return self.failure(f, io),
        };
        warnings(candidate.warnings(), io);
        match self.game.put_in_use(candidate, Fit::Keep) {
            Ok(carried) => {
                say_carried(&carried, io);
                io.err(&format!("reloaded {path}\n"));
                true
            }
            Err(Failure::DoesNotFit(ds)) => {
                report(&ds, io);
                io.err("the state on the table does not fit the edited ruleset: the old ruleset stays in use\n");
                false
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// `:prob EXPR`, `:sweep NAME=VALUES EXPR`: odds against the state on the table.
    fn prob(&mut self, expr: &str, sweep: Option<&str>, io: &mut dyn Io) -> bool {
        if expr.is_empty() {
            io.err("error: `:prob` takes an expression: `:prob manoeuvre(brigade.second_foot)`\n");
            return false;
        }
        let text = match sweep {
            Some(spec) => {
                let sw = match crate::prob::sweep::parse(spec) {
                    Ok(sw) => sw,
                    Err(d) => {
                        report(&d.into(), io);
                        return false;
                    }
                };
                self.game.sweep(&sw, expr).map(|rows| {
                    crate::prob::report::sweep_text(self.game.program(), expr, &sw.name, &rows)
                })
            }
            None => self
                .game
                .odds(expr)
                .map(|d| crate::prob::report::text(self.game.program(), expr, &d)),
        };
        match text {
            Ok(text) => {
                io.out(&text);
                true
            }
            Err(f) => self.failure(f, io),
        }
    }

    /// `:interpret NAME=READING` chooses a reading; `:interpret` lists the ruleset's
    /// interpretations, their readings, and which is in use.
    fn interpret(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        if arg.is_empty() {
            let rules = self.game.ruleset();
            if rules.program.interpretations.is_empty() {
                io.err("this ruleset declares no interpretations\n");
            } else {
                io.out(&interpretations_list(rules));
            }
            return true;
        }
        let Some((name, reading)) = arg.split_once('=') else {
            io.err("error: write `:interpret NAME=READING` (`:interpret` lists them)\n");
            return false;
        };
        let (name, reading) = (name.trim(), reading.trim());
        match self.game.interpret(name, reading) {
            Ok(()) => {
                io.err(&format!("reading `{reading}` of `{name}`\n"));
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    fn dice(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        let mut words = arg.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("table"), None, _) => {
                self.game.set_dice(DiceMode::Table);
                io.err("dice at the table: each die is asked for when it is needed\n");
                true
            }
            (Some("seeded"), seed, None) => {
                let seed = match seed.map(str::parse::<u64>) {
                    None => crate::dice::fresh_seed(),
                    Some(Ok(n)) => n,
                    Some(Err(_)) => {
                        io.err("error: a seed is a whole number 0 or more: `:seed 42`\n");
                        return false;
                    }
                };
                self.game.set_dice(DiceMode::seeded(seed));
                io.err(&format!("umpire rolls, from seed {seed}\n"));
                true
            }
            (None, _, _) => {
                io.out(&match self.game.dice() {
                    DiceMode::Table => "dice: at the table\n".to_string(),
                    DiceMode::Seeded(s) => format!(
                        "dice: seeded, umpire rolls from seed {} (`--seed {}` rolls the same dice again)\n",
                        s.seed, s.seed
                    ),
                });
                true
            }
            _ => {
                io.err("error: write `:dice table` (players roll) or `:dice seeded [N]` (umpire rolls)\n");
                false
            }
        }
    }

    /// `:state` (the whole state, as a state file) or `:state PATH` (one part of it).
    fn show_state(&mut self, path: &str, io: &mut dyn Io) -> bool {
        if path.is_empty() {
            return match self.game.state() {
                Some(st) => {
                    io.out(&state::to_toml(self.game.program(), st));
                    true
                }
                None => self.failure(Refusal::NoState.into(), io),
            };
        }
        match self.game.look(path) {
            Ok(outcome) => {
                // Values by the names a state file and `:set` use (`grenadier`).
                let p = self.game.program();
                let shown = match &outcome {
                    Outcome::Value(v) => show_arg(p, v),
                    other => headline(p, other),
                };
                io.out(&format!("{shown}\n"));
                true
            }
            Err(f) => self.failure(f, io),
        }
    }
}

fn report(ds: &Diags, io: &mut dyn Io) {
    for d in &ds.0 {
        io.err(&io.render(d));
    }
}

fn warnings(ws: &[Diag], io: &mut dyn Io) {
    for w in ws {
        io.err(&io.render(w));
    }
}

/// What a new ruleset did to the game besides.
fn say_carried(c: &Carried, io: &mut dyn Io) {
    if c.left_behind {
        io.err("the state on the table is left behind\n");
    }
    if c.history_cut {
        io.err("changes made before this cannot be undone: the earlier states do not fit this ruleset\n");
    }
    if c.redo_cut {
        io.err("what was undone cannot be redone: the state it would put back does not fit this ruleset\n");
    }
    for (name, reading) in &c.readings_dropped {
        io.err(&format!(
            "the reading `{reading}` of `{name}` is not in this ruleset: it is no longer chosen\n"
        ));
    }
}

fn params_text(p: &Program, params: &[ParamInfo], keys: usize) -> String {
    let mut s = String::new();
    for (i, param) in params.iter().enumerate() {
        if i > 0 {
            s.push_str(if i == keys { "; " } else { ", " });
        }
        let ty = match param.range {
            Some(r) => r.written(),
            None => param.ty.name(p),
        };
        s.push_str(&format!("{}: {ty}", param.name));
        if param.needed {
            s.push_str(" = needed");
        } else if param.has_default {
            s.push_str(" = …");
        }
    }
    s
}

/// `:rules`: every rule, table and modifier list with its signature and citation.
pub fn rules_list(p: &Program) -> String {
    let mut out = String::new();
    let cite =
        |c: &Option<std::rc::Rc<str>>| c.as_ref().map_or(String::new(), |c| format!("  [{c}]"));
    for r in &p.rules {
        out.push_str(&format!(
            "rule {}({}) -> {}{}\n",
            r.sig.name,
            params_text(p, &r.sig.params, usize::MAX),
            r.sig.ret.name(p),
            cite(&r.sig.cite)
        ));
    }
    for t in &p.tables {
        out.push_str(&format!(
            "table {}({}) -> {}{}\n",
            t.sig.name,
            params_text(p, &t.sig.params, t.keys),
            t.sig.ret.name(p),
            cite(&t.sig.cite)
        ));
    }
    for m in &p.modifiers {
        out.push_str(&format!(
            "modifiers {}({}){}\n",
            m.sig.name,
            params_text(p, &m.sig.params, usize::MAX),
            cite(&m.sig.cite)
        ));
    }
    out
}

/// `:interpret`: each interpretation, its readings, `*` marking the one in use.
fn interpretations_list(rules: &crate::Ruleset) -> String {
    let p = &rules.program;
    let mut out = String::new();
    for (i, info) in p.interpretations.iter().enumerate() {
        out.push_str(&format!("{}: {}\n", info.name, info.text));
        let used = rules.readings.get(i).or(info.default);
        if let Some(e) = p.enums.get(usize::from(info.readings)) {
            for (j, v) in e.values.iter().enumerate() {
                let mark = if used == u16::try_from(j).ok() {
                    "*"
                } else {
                    " "
                };
                let words = v.display.as_deref().unwrap_or("");
                out.push_str(&format!("  {mark} {} — {words}\n", v.name));
            }
        }
        if used.is_none() {
            out.push_str("    (none chosen: not given in the source until one is)\n");
        }
    }
    out
}

/// Commands that may be typed without their `:`, alone on the line (in any case).
const BARE: [&str; 4] = ["help", "quit", "exit", "q"];

/// Whether `:c arg` would leave the effects waiting no way to be applied: it changes
/// the state, the ruleset or a reading, or starts a log (which starts the game there:
/// the result before it cannot be applied in the log). Looking (`:state`, `:prob`,
/// `:interpret` alone) does not.
fn guarded(c: Command, arg: &str) -> bool {
    match c {
        Command::Use | Command::UseAnyway | Command::Reload | Command::Set => true,
        Command::Interpret | Command::Load | Command::Log => !arg.is_empty(),
        _ => false,
    }
}

/// A refusal in the REPL's words (after `error: `), naming the command that mends it.
fn refusal_text(r: &Refusal) -> String {
    match r {
        Refusal::NoState => "no state loaded: `:load FILE` loads one".into(),
        Refusal::NothingAdjudicated => {
            "nothing adjudicated yet: `:explain EXPR` explains a new one".into()
        }
        Refusal::AppliedAlready(text) => {
            format!("the effects of `{text}` are applied already (`:undo` takes them back)")
        }
        Refusal::StateChanged(text) => format!(
            "the state has changed since `{text}` was adjudicated: adjudicate it again, then `:apply`"
        ),
        Refusal::NoFileToSave => "`:save FILE` names the file to write".into(),
        Refusal::TakesBackLoad(path) => format!(
            "`:undo` would take back `:load {path}`: `:undo!` takes it back (the state before it comes back)"
        ),
        Refusal::EffectsNotApplied(text) => format!(
            "the effects of `{text}` are not yet applied: `:apply` applies them, `:drop` drops them; then ask again"
        ),
        Refusal::OverLoaded(path) => format!(
            "`:save` alone would write over {path}, the state file you loaded: `:save {path}` writes over it, `:save FILE` writes elsewhere"
        ),
        Refusal::NothingToDrop => {
            "nothing to drop: no result's effects wait to be applied".into()
        }
        Refusal::NotAFile(source) => {
            format!("`:reload` reads a ruleset file again, and {source} is in use")
        }
        Refusal::NothingToApply
        | Refusal::NoEffects { .. }
        | Refusal::NothingToUndo
        | Refusal::AtStart(_)
        | Refusal::NothingToRedo => r.to_string(),
    }
}
