//! One REPL session: the ruleset in use, the game state on the table, the dice, the
//! last result, the changes that can be taken back. Independent of the terminal: every
//! line goes through [`Session::input`], and the session talks back through [`Io`], so
//! a test (or a script on stdin) drives it exactly as a person at the keyboard does.

use crate::adjudication::{Adjudication, Effect};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::dice::{DiceRequest, DiceSource, Seeded};
use crate::eval::Options;
use crate::program::{Program, Query};
use crate::render::{adjudication_json, effects_text, report_text};
use crate::value::Value;
use crate::{bundled, state, Ruleset};
use std::collections::VecDeque;

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

/// Where the dice of an adjudication come from, after any rolls queued with `:roll`.
#[derive(Debug, Clone)]
pub enum DiceMode {
    /// umpire rolls, from a seed (`:dice seeded [N]`, `:seed N`).
    Seeded(Box<Seeded>),
    /// The players roll, and each die is typed in when it is needed (`:dice table`).
    Table,
}

/// Where the ruleset in use came from.
#[derive(Debug, Clone, PartialEq)]
pub enum Source {
    /// None loaded: expressions and dice only.
    Nothing,
    /// A bundled ruleset, by name.
    Bundled(String),
    /// A ruleset file, by path (what `:reload` reads again).
    File(String),
}

/// The last adjudication, for `:explain` and `:apply`.
#[derive(Debug, Clone)]
struct Last {
    text: String,
    query: Query,
    adjudication: Adjudication,
    applied: bool,
    /// The state it was adjudicated against, and that state's version.
    state: Option<Value>,
    version: u64,
}

/// A change to the state that `:undo` can take back.
#[derive(Debug, Clone)]
struct Undo {
    what: String,
    before: Option<Value>,
    /// The file `:save` wrote to before (a `:load` changes it).
    path_before: Option<String>,
}

/// What becomes of a state that does not fit a new ruleset.
#[derive(Clone, Copy)]
enum Fit<'a> {
    /// `:reload`: the edited ruleset is not used.
    Reload,
    /// `:use NAME`: NAME is not used.
    Refuse(&'a str),
    /// `:use! NAME`: the state is left behind.
    Drop,
}

/// Every command, with what it does, as `:help` lists them.
pub const COMMANDS: [(&str, &str, &str); 23] = [
    (":help", "", "list these commands"),
    (
        ":use",
        "NAME|PATH",
        "use a bundled ruleset or a ruleset file",
    ),
    (
        ":use!",
        "NAME|PATH",
        "use it even though the state on the table does not fit (left behind)",
    ),
    (
        ":reload",
        "",
        "read the ruleset file again after an edit, keeping the state",
    ),
    (
        ":rules",
        "",
        "list the rules, tables and modifier lists, with their citations",
    ),
    (
        ":explain",
        "[EXPR]",
        "explain the last result (no new roll), or a new one",
    ),
    (
        ":dice",
        "table|seeded [N]",
        "players roll and type each die in / umpire rolls",
    ),
    (
        ":seed",
        "N",
        "umpire rolls, from seed N (same as :dice seeded N)",
    ),
    (
        ":roll",
        "7 3",
        "queue rolls for the next adjudication (also 7,3; `:roll clear`)",
    ),
    (
        ":prob",
        "EXPR",
        "the chance of each outcome of EXPR, exactly (or sampled)",
    ),
    (
        ":sweep",
        "NAME=A..B EXPR",
        "the chances for each value of NAME (also NAME=v1,v2)",
    ),
    (
        ":interpret",
        "[NAME=READING]",
        "read an ambiguous rule one way (alone: list them)",
    ),
    (":load", "FILE", "load a game state file"),
    (":state", "[PATH]", "show the state, or one part of it"),
    (":set", "PATH = EXPR", "change the state (+= and -= too)"),
    (":apply", "", "apply the last result's effects to the state"),
    (":undo", "", "take the last change to the state back"),
    (
        ":save",
        "[FILE]",
        "write the state (to the file it came from, if no FILE)",
    ),
    (
        ":log",
        "FILE",
        "append each adjudication to FILE as JSON lines",
    ),
    (":quit", "", "end the session (Ctrl-D too)"),
    (":q", "", "short for :quit"),
    (":exit", "", "short for :quit"),
    (
        ":show",
        "NAME",
        "print a bundled ruleset (to copy and edit)",
    ),
];

/// Longest line the session takes (64 KiB).
pub const MAX_LINE: usize = 64 * 1024;

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
    rules: Ruleset,
    source: Source,
    dice: DiceMode,
    queued: Vec<i64>,
    last: Option<Last>,
    /// The last result that changes the state, for `:apply` (a look at the state in
    /// between does not put it out of reach).
    pending: Option<Last>,
    undo: Vec<Undo>,
    state_path: Option<String>,
    log: Option<String>,
    /// The last line the log was given (or would have been, when not logging): what a
    /// replay compares.
    last_event: Option<serde_json::Value>,
    /// Where the dice of the last adjudication came from, for the log.
    last_dice: serde_json::Value,
    /// Counts changes to the state, so a result worked out before one is not applied.
    version: u64,
    /// The version last loaded or saved (`:quit` warns of changes not saved).
    saved: u64,
    /// Whether a die typed at the table that is not a face is asked for again (at a
    /// keyboard) or is an error (in a script, where the next line is not an answer).
    pub ask_again: bool,
    /// Whether any input failed (the exit status of a scripted session).
    pub failed: bool,
    /// The last input was cancelled at a keyboard (not a failure).
    cancelled: bool,
    inputs: usize,
}

fn no_ruleset() -> Ruleset {
    Ruleset::from_source("<no ruleset>", "").unwrap_or(Ruleset {
        program: Default::default(),
        sources: Default::default(),
        warnings: Vec::new(),
        state: None,
        readings: crate::eval::Readings::none(),
        limits: crate::limits::Limits::default(),
    })
}

impl Session {
    /// A session with no ruleset, umpire rolling from `seed`.
    pub fn new(seed: u64) -> Session {
        Session {
            rules: no_ruleset(),
            source: Source::Nothing,
            dice: DiceMode::Seeded(Box::new(Seeded::new(seed))),
            queued: Vec::new(),
            last: None,
            pending: None,
            undo: Vec::new(),
            state_path: None,
            log: None,
            last_event: None,
            last_dice: serde_json::Value::Null,
            version: 0,
            saved: 0,
            ask_again: false,
            failed: false,
            cancelled: false,
            inputs: 0,
        }
    }

    /// Remembers `path` as the ruleset file in use even though it did not load, so that
    /// `:reload` reads it again once it is mended.
    pub fn keep_source(&mut self, path: &str) {
        if bundled::source(path).is_none() {
            self.source = Source::File(path.to_string());
        }
    }

    /// The ruleset in use (for completion: its names).
    pub fn program(&self) -> &Program {
        &self.rules.program
    }

    /// The ruleset's own source files (a game log's digest is taken of them).
    pub fn sources(&self) -> &crate::span::SourceMap {
        &self.rules.sources
    }

    /// Whether the state on the table has changed since it was loaded or saved.
    pub fn unsaved(&self) -> bool {
        self.rules.state.is_some() && self.saved != self.version
    }

    /// Queues faces for the next adjudication, as `:roll` does (a replay's dice).
    pub fn queue_faces(&mut self, faces: Vec<i64>) {
        self.queued = faces;
    }

    /// The last line given to the game log (made whether or not a log is kept).
    pub fn last_event(&self) -> Option<&serde_json::Value> {
        self.last_event.as_ref()
    }

    /// Sets the limits rulesets are loaded, and questions checked and adjudicated, within
    /// (the ruleset in use keeps them too).
    pub fn set_limits(&mut self, limits: crate::limits::Limits) {
        self.rules.limits = limits;
    }

    /// Puts a ruleset in use, leaving any state behind (`:use!`), without logging it.
    pub fn use_fresh(&mut self, name: &str, io: &mut dyn Io) -> bool {
        let log = self.log.take();
        let ok = self.use_with(name, true, io);
        self.log = log;
        ok
    }

    /// Chooses a reading of an interpretation.
    ///
    /// Errors: no such interpretation or reading.
    pub fn interpret_quietly(&mut self, name: &str, reading: &str) -> Result<(), Diag> {
        self.rules.interpret(name, reading)
    }

    /// Puts a state on the table from state-file text in JSON (`name` for diagnostics),
    /// as `:load` does (it can be undone).
    ///
    /// Errors: the state does not fit the ruleset's declaration.
    pub fn put_state(&mut self, json: &str, name: &str) -> Result<(), Diags> {
        let v = state::load_text(
            &self.rules.program,
            &self.rules.sources,
            &format!("{name}.json"),
            json.to_string(),
        )?;
        let before = self.rules.state.replace(v);
        self.undo.push(Undo {
            what: format!("`:load {name}`"),
            before,
            path_before: self.state_path.clone(),
        });
        self.version += 1;
        Ok(())
    }

    /// The game state, if one is loaded.
    pub fn state(&self) -> Option<&Value> {
        self.rules.state.as_ref()
    }

    /// Uses a bundled ruleset or a ruleset file (`:use`).
    pub fn use_ruleset(&mut self, name: &str, io: &mut dyn Io) -> bool {
        self.use_with(name, false, io)
    }

    /// `:use NAME` (`drop`: `:use! NAME`, which leaves a state that does not fit behind).
    fn use_with(&mut self, name: &str, drop: bool, io: &mut dyn Io) -> bool {
        let name = name.trim();
        if name.is_empty() {
            io.err(&format!(
                "error: `:use` takes a bundled ruleset ({}) or a path to a .rules file\n",
                bundled::names().join(", ")
            ));
            return false;
        }
        match Ruleset::load_with(name, &self.rules.limits) {
            Err(ds) => {
                self.report(&ds, io);
                io.err(&format!("{} stays in use\n", self.describe_source()));
                false
            }
            Ok(new) => {
                let source = if bundled::source(name).is_some() && !name.contains(['/', '.']) {
                    Source::Bundled(name.to_string())
                } else {
                    Source::File(name.to_string())
                };
                self.warnings(&new, io);
                let fit = if drop { Fit::Drop } else { Fit::Refuse(name) };
                if !self.carry_state(new, io, fit) {
                    return false;
                }
                self.source = source;
                io.err(&format!("using {}\n", self.describe_source()));
                true
            }
        }
    }

    /// Puts `new` in use, carrying the state over when it fits the new declaration.
    /// A state that does not fit keeps the old ruleset in use (a reload, or a `:use`),
    /// unless it is to be left behind (`:use!`).
    fn carry_state(&mut self, mut new: Ruleset, io: &mut dyn Io, fit: Fit<'_>) -> bool {
        if let Some(old) = &self.rules.state {
            let text = state::to_toml(&self.rules.program, old);
            match state::load_text(&new.program, &new.sources, "<the state on the table>", text) {
                Ok(v) => new.state = Some(v),
                Err(ds) => match fit {
                    Fit::Reload => {
                        self.report(&ds, io);
                        io.err("the state on the table does not fit the edited ruleset: the old ruleset stays in use\n");
                        return false;
                    }
                    Fit::Refuse(name) => {
                        io.err(&format!(
                            "error: the state on the table does not fit `{name}`, so {} stays in use. To leave the state behind, `:save FILE` it if it matters, then `:use! {name}`\n",
                            self.describe_source()
                        ));
                        return false;
                    }
                    Fit::Drop => {
                        io.err("the state on the table is left behind\n");
                        self.undo.clear();
                        self.state_path = None;
                    }
                },
            }
        }
        // The states `:undo` can go back to are read into the new ruleset the same way
        // (an enum's values may have moved); from the newest that does not fit, back,
        // they cannot come back.
        let mut kept = Vec::with_capacity(self.undo.len());
        for u in std::mem::take(&mut self.undo).into_iter().rev() {
            let before = match &u.before {
                None => Some(None),
                Some(v) => {
                    let text = state::to_toml(&self.rules.program, v);
                    state::load_text(&new.program, &new.sources, "<an earlier state>", text)
                        .ok()
                        .map(Some)
                }
            };
            match before {
                Some(before) => kept.push(Undo { before, ..u }),
                None => {
                    io.err("changes made before this cannot be undone: the earlier states do not fit this ruleset\n");
                    break;
                }
            }
        }
        kept.reverse();
        self.undo = kept;
        // Readings chosen with `:interpret` stay chosen, where the new ruleset has them.
        let old = &self.rules.program;
        for (i, info) in old.interpretations.iter().enumerate() {
            let Some(r) = self.rules.readings.get(i) else {
                continue;
            };
            let Some(reading) = old.enum_value(info.readings, r).map(|v| v.name.to_string()) else {
                continue;
            };
            if new.interpret(&info.name, &reading).is_err() {
                io.err(&format!(
                    "the reading `{reading}` of `{}` is not in this ruleset: it is no longer chosen\n",
                    info.name
                ));
            }
        }
        self.rules = new;
        self.last = None;
        self.pending = None;
        let was_saved = self.saved == self.version;
        self.version += 1;
        if was_saved {
            self.saved = self.version;
        }
        true
    }

    fn describe_source(&self) -> String {
        match &self.source {
            Source::Nothing => "no ruleset".into(),
            Source::Bundled(n) => format!("the bundled ruleset `{n}`"),
            Source::File(p) => format!("the ruleset file `{p}`"),
        }
    }

    fn warnings(&self, r: &Ruleset, io: &mut dyn Io) {
        for w in &r.warnings {
            io.err(&io.render(w));
        }
    }

    fn report(&mut self, ds: &Diags, io: &mut dyn Io) {
        for d in &ds.0 {
            io.err(&io.render(d));
        }
    }

    fn fail(&mut self, d: Diag, io: &mut dyn Io) -> bool {
        io.err(&io.render(&d));
        self.failed = true;
        false
    }

    /// Loads a state file (`:load`, `--state`).
    pub fn load_state(&mut self, path: &str, io: &mut dyn Io) -> bool {
        let before = self.rules.state.clone();
        match self.rules.load_state(path) {
            Ok(()) => {
                self.undo.push(Undo {
                    what: format!("`:load {path}`"),
                    before,
                    path_before: self.state_path.replace(path.to_string()),
                });
                self.version += 1;
                self.saved = self.version;
                io.err(&format!("state loaded from {path}\n"));
                let state = match &self.rules.state {
                    Some(s) => state::to_json_value(&self.rules.program, s),
                    None => serde_json::Value::Null,
                };
                self.log_json(
                    serde_json::json!({ "load": path, "state": state }),
                    None,
                    io,
                );
                true
            }
            Err(ds) => {
                self.rules.state = before;
                self.report(&ds, io);
                false
            }
        }
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
            self.inputs += 1;
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
        self.inputs += 1;
        let ok = if let Some(rest) = text.strip_prefix(':') {
            let (cmd, arg) = match rest.find(char::is_whitespace) {
                Some(i) => (&rest[..i], rest[i..].trim()),
                None => (rest, ""),
            };
            match cmd {
                "quit" | "q" | "exit" => return Next::Quit,
                _ => self.command(cmd, arg, line, io),
            }
        } else {
            self.adjudicate(text, false, io)
        };
        if !ok && !std::mem::take(&mut self.cancelled) {
            self.failed = true;
        }
        Next::Go
    }

    fn command(&mut self, cmd: &str, arg: &str, line: &str, io: &mut dyn Io) -> bool {
        let ok = self.command_inner(cmd, arg, line, io);
        // A change of ruleset, reading or dice starts a new `game` line in the log.
        let changes_game = matches!(cmd, "use" | "use!" | "reload" | "dice" | "seed")
            || (cmd == "interpret" && !arg.is_empty());
        if ok && changes_game {
            let _ = self.log_game(io);
        }
        ok
    }

    /// Appends a `game` line to the log, if logging; false when it could not be
    /// written (said, and counted as a failure).
    fn log_game(&mut self, io: &mut dyn Io) -> bool {
        let Some(path) = self.log.clone() else {
            return true;
        };
        let name = match &self.source {
            Source::Nothing => String::new(),
            Source::Bundled(n) | Source::File(n) => n.clone(),
        };
        let dice = match &self.dice {
            DiceMode::Seeded(s) => crate::gamelog::Dice::Seeded(s.seed),
            DiceMode::Table => crate::gamelog::Dice::Table,
        };
        let line = crate::gamelog::game_line(&self.rules, &name, dice);
        match crate::gamelog::append(&path, &line) {
            Ok(()) => true,
            Err(d) => {
                io.err(&io.render(&d));
                self.failed = true;
                false
            }
        }
    }

    fn command_inner(&mut self, cmd: &str, arg: &str, line: &str, io: &mut dyn Io) -> bool {
        match cmd {
            "help" | "h" | "?" => {
                let mut s = String::new();
                for (c, args, what) in COMMANDS {
                    let usage = if args.is_empty() {
                        c.to_string()
                    } else {
                        format!("{c} {args}")
                    };
                    s.push_str(&format!("{usage:<26} {what}\n"));
                }
                s.push_str("EXPR                       adjudicate it against the state: `manoeuvre(brigade.second_foot)`\n");
                io.out(&s);
                true
            }
            "use" => self.use_ruleset(arg, io),
            "use!" => self.use_with(arg, true, io),
            "reload" => self.reload(io),
            "rules" => {
                let list = rules_list(&self.rules.program);
                if list.is_empty() {
                    io.err("no rules: `:use NAME` picks a ruleset\n");
                } else {
                    io.out(&list);
                }
                true
            }
            "show" => match bundled::source(arg) {
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
            "explain" => {
                if arg.is_empty() {
                    self.explain_last(io)
                } else {
                    self.adjudicate(arg, true, io)
                }
            }
            "prob" => self.prob(arg, None, io),
            "sweep" => {
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
            "interpret" => self.interpret(arg, io),
            "dice" => self.dice_command(arg, io),
            "seed" => self.dice_command(&format!("seeded {arg}"), io),
            "roll" => self.queue(arg, io),
            "load" => {
                if arg.is_empty() {
                    io.err("error: `:load` takes a state file: `:load table.toml`\n");
                    return false;
                }
                self.load_state(arg, io)
            }
            "state" => self.show_state(arg, io),
            "set" => self.set(line, io),
            "apply" => self.apply(io),
            "undo" => self.undo(io),
            "save" => self.save(arg, io),
            "log" => {
                if arg.is_empty() {
                    match &self.log {
                        Some(p) => io.out(&format!("logging to {p}\n")),
                        None => io.out("not logging (`:log FILE` starts)\n"),
                    }
                    return true;
                }
                let mut others: Vec<&str> = self.state_path.iter().map(String::as_str).collect();
                if let Source::File(p) = &self.source {
                    others.push(p);
                }
                if let Err(d) = crate::gamelog::check_target(arg, &others) {
                    return self.fail(d, io);
                }
                self.log = Some(arg.to_string());
                // The `game` line is written now, so a log that cannot be written is
                // found out at once.
                if !self.log_game(io) {
                    self.log = None;
                    return false;
                }
                io.err(&format!("each adjudication is appended to {arg}\n"));
                true
            }
            other => {
                let names: Vec<&str> = COMMANDS.iter().map(|(c, _, _)| *c).collect();
                let d = Diag::error(Code::ReplUnknownCommand, format!("no command `:{other}`"))
                    .suggest(&format!(":{other}"), names.iter().copied())
                    .help("`:help` lists the commands");
                self.fail(d, io)
            }
        }
    }

    /// `:prob EXPR`, `:sweep NAME=VALUES EXPR`: odds against the state on the table,
    /// sampled from the session's seed when there are too many cases.
    fn prob(&mut self, expr: &str, sweep: Option<&str>, io: &mut dyn Io) -> bool {
        if expr.is_empty() {
            io.err("error: `:prob` takes an expression: `:prob manoeuvre(brigade.second_foot)`\n");
            return false;
        }
        // Sampling (past the limit) uses the session's seed, so it replays; at the table,
        // a fresh one, which the report names.
        let settings = crate::prob::Settings {
            seed: match &self.dice {
                DiceMode::Seeded(s) => Some(s.seed),
                DiceMode::Table => None,
            },
            ..crate::prob::Settings::default()
        };
        let p = &mut self.rules;
        match sweep {
            Some(spec) => {
                let rows = crate::prob::sweep::parse(spec)
                    .map_err(Diags::from)
                    .and_then(|sw| {
                        crate::prob::sweep::run(p, expr, &sw, &settings).map(|rows| (sw, rows))
                    });
                match rows {
                    Ok((sw, rows)) => {
                        io.out(&crate::prob::report::sweep_text(
                            &p.program, expr, &sw.name, &rows,
                        ));
                        true
                    }
                    Err(ds) => {
                        self.report(&ds, io);
                        false
                    }
                }
            }
            None => match p.question("<input>", expr) {
                Ok(q) => {
                    let job = crate::prob::Job {
                        program: &p.program,
                        query: &q,
                        state: p.state.as_ref(),
                        locals: &[],
                        readings: &p.readings,
                        limits: p.limits,
                    };
                    let d = match crate::prob::odds(&job, &settings) {
                        Ok(d) => d,
                        Err(e) => {
                            io.err(&io.render(&e));
                            return false;
                        }
                    };
                    io.out(&crate::prob::report::text(&p.program, expr, &d));
                    true
                }
                Err(ds) => {
                    self.report(&ds, io);
                    false
                }
            },
        }
    }

    /// `:interpret NAME=READING` chooses a reading; `:interpret` lists the ruleset's
    /// interpretations, their readings, and which is in use.
    fn interpret(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        if arg.is_empty() {
            let p = &self.rules.program;
            if p.interpretations.is_empty() {
                io.err("this ruleset declares no interpretations\n");
                return true;
            }
            let mut out = String::new();
            for (i, info) in p.interpretations.iter().enumerate() {
                out.push_str(&format!("{}: {}\n", info.name, info.text));
                let used = self.rules.readings.get(i).or(info.default);
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
            io.out(&out);
            return true;
        }
        let Some((name, reading)) = arg.split_once('=') else {
            io.err("error: write `:interpret NAME=READING` (`:interpret` lists them)\n");
            return false;
        };
        match self.rules.interpret(name.trim(), reading.trim()) {
            Ok(()) => {
                io.err(&format!(
                    "reading `{}` of `{}`\n",
                    reading.trim(),
                    name.trim()
                ));
                self.last = None;
                self.pending = None;
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    fn reload(&mut self, io: &mut dyn Io) -> bool {
        let Source::File(path) = self.source.clone() else {
            io.err(&format!(
                "error: `:reload` reads a ruleset file again, and {} is in use\n",
                self.describe_source()
            ));
            return false;
        };
        match Ruleset::load_with(&path, &self.rules.limits) {
            Err(ds) => {
                self.report(&ds, io);
                io.err(&format!(
                    "{path} has errors: the ruleset loaded before stays in use\n"
                ));
                false
            }
            Ok(new) => {
                self.warnings(&new, io);
                if self.carry_state(new, io, Fit::Reload) {
                    io.err(&format!("reloaded {path}\n"));
                    true
                } else {
                    false
                }
            }
        }
    }

    fn dice_command(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        let mut words = arg.split_whitespace();
        match (words.next(), words.next(), words.next()) {
            (Some("table"), None, _) => {
                self.dice = DiceMode::Table;
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
                self.dice = DiceMode::Seeded(Box::new(Seeded::new(seed)));
                io.err(&format!("umpire rolls, from seed {seed}\n"));
                true
            }
            (None, _, _) => {
                io.out(match self.dice {
                    DiceMode::Table => "dice: at the table\n",
                    DiceMode::Seeded(_) => "dice: seeded\n",
                });
                true
            }
            _ => {
                io.err("error: write `:dice table` (players roll) or `:dice seeded [N]` (umpire rolls)\n");
                false
            }
        }
    }

    fn queue(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        if arg == "clear" {
            self.queued.clear();
            io.err("no rolls queued\n");
            return true;
        }
        let mut rolls = Vec::new();
        for w in arg.split(|c: char| c == ',' || c.is_whitespace()) {
            if w.is_empty() {
                continue;
            }
            match w.parse::<i64>() {
                Ok(n) if n >= 1 => rolls.push(n),
                Ok(n) => {
                    io.err(&format!(
                        "error: {n} is not a roll: a die shows 1 or more\n"
                    ));
                    return false;
                }
                Err(_) => {
                    io.err(&format!(
                        "error: `{w}` is not a roll: write the faces, `:roll 7 3` or `:roll 7,3`\n"
                    ));
                    return false;
                }
            }
        }
        if rolls.is_empty() {
            if self.queued.is_empty() {
                io.out("no rolls queued\n");
            } else {
                io.out(&format!("queued: {}\n", join(&self.queued)));
            }
            return true;
        }
        self.queued.extend(rolls);
        io.err(&format!(
            "queued for the next adjudication: {}\n",
            join(&self.queued)
        ));
        true
    }

    /// Adjudicates `text` against the state; prints it as `umpire eval` does.
    fn adjudicate(&mut self, text: &str, trace: bool, io: &mut dyn Io) -> bool {
        self.last_event = None;
        let q = match self.rules.question("<input>", text) {
            Ok(q) => q,
            Err(ds) => {
                self.report(&ds, io);
                return false;
            }
        };
        match self.run(&q, text, trace, io) {
            Some(a) => {
                io.out(&report_text(&self.rules.program, &a));
                self.log_json(serde_json::json!({ "expr": text }), Some(&a), io);
                let last = Last {
                    text: text.to_string(),
                    query: q,
                    adjudication: a,
                    applied: false,
                    state: self.rules.state.clone(),
                    version: self.version,
                };
                if !last.adjudication.effects.is_empty() {
                    self.pending = Some(last.clone());
                }
                self.last = Some(last);
                true
            }
            None => {
                // `:apply` and `:explain` never reach past a failed input to a result
                // before it.
                self.last = None;
                self.pending = None;
                false
            }
        }
    }

    /// Runs a compiled query with the session's dice: queued rolls first, then the mode.
    fn run(&mut self, q: &Query, text: &str, trace: bool, io: &mut dyn Io) -> Option<Adjudication> {
        let queued: VecDeque<i64> = std::mem::take(&mut self.queued).into();
        let had = queued.len();
        let at = match &self.dice {
            DiceMode::Seeded(s) => Some((s.seed, s.position())),
            DiceMode::Table => None,
        };
        let mut dice = SessionDice {
            queued,
            used: Vec::new(),
            mode: &mut self.dice,
            io,
            typed: text,
            ask_again: self.ask_again,
        };
        let result = self.rules.adjudicate(
            q,
            &mut dice,
            Options {
                trace,
                ..self.rules.options()
            },
        );
        let used = if dice.used.is_empty() {
            "none".to_string()
        } else {
            join(&dice.used)
        };
        let left = dice.queued.len();
        self.last_dice = crate::gamelog::dice_json(dice.used.len(), at);
        if had > 0 {
            let io = &mut *dice.io;
            if left > 0 {
                io.err(&format!(
                    "queued rolls used: {used}; not used, and dropped: {}\n",
                    join(&dice.queued.iter().copied().collect::<Vec<_>>())
                ));
            } else {
                io.err(&format!("queued rolls used: {used}\n"));
            }
        }
        match result {
            Ok(a) => Some(a),
            // Ctrl-C at a die asked for at a keyboard cancels, as it cancels a line.
            Err(d) if d.code == CANCELLED && self.ask_again => {
                dice.io.err("cancelled\n");
                self.cancelled = true;
                None
            }
            Err(d) => {
                dice.io.err(&dice.io.render(&d));
                None
            }
        }
    }

    fn explain_last(&mut self, io: &mut dyn Io) -> bool {
        let Some(last) = self.last.clone() else {
            io.err("error: nothing adjudicated yet: `:explain EXPR` explains a new one\n");
            return false;
        };
        // The same dice again: the faces the last result rolled, given in order.
        let faces: Vec<i64> = last
            .adjudication
            .rolls
            .iter()
            .flat_map(|r| r.faces.iter().map(|&f| i64::from(f)))
            .collect();
        let mut given = crate::dice::Given::new(faces);
        // Against the state as it was then, not as it is now.
        let now = std::mem::replace(&mut self.rules.state, last.state.clone());
        let explained = self.rules.adjudicate(
            &last.query,
            &mut given,
            Options {
                trace: true,
                ..self.rules.options()
            },
        );
        self.rules.state = now;
        match explained {
            Ok(a) => {
                io.out(&report_text(&self.rules.program, &a));
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    fn show_state(&mut self, path: &str, io: &mut dyn Io) -> bool {
        let Some(st) = &self.rules.state else {
            io.err("error: no state loaded: `:load FILE` loads one\n");
            return false;
        };
        if path.is_empty() {
            io.out(&state::to_toml(&self.rules.program, st));
            return true;
        }
        let q = match self.rules.question("<input>", path) {
            Ok(q) => q,
            Err(ds) => {
                self.report(&ds, io);
                return false;
            }
        };
        match self.rules.adjudicate(
            &q,
            &mut crate::dice::Given::new(vec![]),
            self.rules.options(),
        ) {
            Ok(a) => {
                // Values by the names a state file and `:set` use (`grenadier`).
                let shown = match &a.outcome {
                    crate::adjudication::Outcome::Value(v) => {
                        crate::render::show_arg(&self.rules.program, v)
                    }
                    other => crate::render::headline(&self.rules.program, other),
                };
                io.out(&format!("{shown}\n"));
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    /// `:set PATH = EXPR`: compiled as `set PATH = EXPR` in place, so carets point into
    /// the line as typed.
    fn set(&mut self, line: &str, io: &mut dyn Io) -> bool {
        self.last_event = None;
        if self.rules.state.is_none() {
            io.err("error: no state loaded: `:load FILE` loads one\n");
            return false;
        }
        let at = line.find(':').map_or(0, |i| i + 1);
        let source = crate::span::SourceFile::new("<input>", line).masked(at, line.len());
        let q = match self.rules.question_set(source) {
            Ok(q) => q,
            Err(ds) => {
                self.report(&ds, io);
                return false;
            }
        };
        let Some(a) = self.run(&q, line.trim(), false, io) else {
            return false;
        };
        if a.effects.is_empty() {
            io.out("no change: the state holds that already\n");
            return true;
        }
        let ok = self.change(&format!("`{}`", line.trim()), &a.effects, io);
        if ok {
            if !a.rolls.is_empty() {
                io.out(&format!("rolls: {}\n", crate::render::rolls_text(&a.rolls)));
            }
            self.log_json(serde_json::json!({ "set": line.trim() }), Some(&a), io);
        }
        ok
    }

    /// Applies effects to the state, remembering the state before for `:undo`.
    fn change(&mut self, what: &str, effects: &[Effect], io: &mut dyn Io) -> bool {
        let Some(st) = &self.rules.state else {
            io.err("error: no state loaded: `:load FILE` loads one\n");
            return false;
        };
        match state::apply(st, effects) {
            Ok(now) => {
                let before = self.rules.state.replace(now);
                self.undo.push(Undo {
                    what: what.to_string(),
                    before,
                    path_before: self.state_path.clone(),
                });
                self.version += 1;
                io.out(&effects_text(&self.rules.program, effects));
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    fn apply(&mut self, io: &mut dyn Io) -> bool {
        self.last_event = None;
        let Some(last) = self.pending.clone() else {
            io.err("error: no result to apply: nothing adjudicated since the last change to the state has effects\n");
            return false;
        };
        if last.applied {
            io.err(&format!(
                "error: the effects of `{}` are applied already (`:undo` takes them back)\n",
                last.text
            ));
            return false;
        }
        if last.adjudication.effects.is_empty() {
            io.err(&format!("`{}` changes nothing on the table\n", last.text));
            return true;
        }
        if last.version != self.version {
            io.err(&format!(
                "error: the state has changed since `{}` was adjudicated: adjudicate it again, then `:apply`\n",
                last.text
            ));
            return false;
        }
        let ok = self.change(
            &format!("the effects of `{}`", last.text),
            &last.adjudication.effects,
            io,
        );
        if ok {
            if let Some(l) = &mut self.pending {
                l.applied = true;
            }
            self.log_json(
                serde_json::json!({ "apply": last.text }),
                Some(&last.adjudication),
                io,
            );
        }
        ok
    }

    fn undo(&mut self, io: &mut dyn Io) -> bool {
        let Some(u) = self.undo.pop() else {
            io.err("error: nothing to undo\n");
            return false;
        };
        self.rules.state = u.before;
        self.state_path = u.path_before;
        self.version += 1;
        // Undoing an `:apply` makes its result applicable again, to the state it was
        // adjudicated against.
        if let Some(l) = &mut self.pending {
            if u.what == format!("the effects of `{}`", l.text) {
                l.applied = false;
                l.version = self.version;
            }
        }
        io.out(&format!("undone: {}\n", u.what));
        self.log_json(serde_json::json!({ "undo": u.what }), None, io);
        true
    }

    fn save(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        let Some(st) = &self.rules.state else {
            io.err("error: no state loaded: `:load FILE` loads one\n");
            return false;
        };
        let path = if arg.is_empty() {
            match &self.state_path {
                Some(p) => p.clone(),
                None => {
                    io.err("error: `:save FILE` names the file to write\n");
                    return false;
                }
            }
        } else {
            arg.to_string()
        };
        let text = state::to_file_text(&self.rules.program, st, &path);
        match state::write_atomic(&path, &text) {
            Ok(()) => {
                self.saved = self.version;
                io.err(&format!("state written to {path}\n"));
                true
            }
            Err(d) => self.fail(d, io),
        }
    }

    /// Appends one JSON line to the log, if logging (and keeps it as the last event).
    fn log_json(&mut self, mut head: serde_json::Value, a: Option<&Adjudication>, io: &mut dyn Io) {
        if let (Some(a), serde_json::Value::Object(m)) = (a, &mut head) {
            if let serde_json::Value::Object(body) = adjudication_json(&self.rules.program, a) {
                for (k, v) in body {
                    if k != "trace" {
                        m.insert(k, v);
                    }
                }
            }
            if !a.rolls.is_empty() && !m.contains_key("apply") {
                m.insert("dice".into(), self.last_dice.clone());
            }
        }
        self.last_event = Some(head.clone());
        let Some(path) = self.log.clone() else { return };
        if let Err(d) = crate::gamelog::append(&path, &head) {
            io.err(&io.render(&d));
            self.failed = true;
        }
    }
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}

pub use crate::program::type_name;

fn params_text(p: &Program, params: &[crate::program::ParamInfo], keys: usize) -> String {
    let mut s = String::new();
    for (i, param) in params.iter().enumerate() {
        if i > 0 {
            s.push_str(if i == keys { "; " } else { ", " });
        }
        let ty = match param.range {
            Some(r) => match r.hi {
                Some(hi) => format!("{}..{hi}", r.lo),
                None => format!("{}..", r.lo),
            },
            None => type_name(p, &param.ty),
        };
        s.push_str(&format!("{}: {ty}", param.name));
        if param.has_default {
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
            type_name(p, &r.sig.ret),
            cite(&r.sig.cite)
        ));
    }
    for t in &p.tables {
        out.push_str(&format!(
            "table {}({}) -> {}{}\n",
            t.sig.name,
            params_text(p, &t.sig.params, t.keys),
            type_name(p, &t.sig.ret),
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

/// The code of a die not given at the table (input ended, or Ctrl-C).
const CANCELLED: Code = Code::ReplCancelled;

/// The dice of one adjudication in a session: rolls queued with `:roll` first, then
/// umpire's seeded dice or the players', each asked for at the table.
struct SessionDice<'a> {
    queued: VecDeque<i64>,
    used: Vec<i64>,
    mode: &'a mut DiceMode,
    io: &'a mut dyn Io,
    typed: &'a str,
    ask_again: bool,
}

impl SessionDice<'_> {
    fn bad_face(req: &DiceRequest<'_>, face: i64, how: &str) -> Diag {
        Diag::at(
            Code::DiceBadFace,
            format!(
                "{face} {how} is not a face of {} (1 to {})",
                req.text, req.sides
            ),
            req.span,
            "this die",
        )
    }
}

impl DiceSource for SessionDice<'_> {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let mut sum = 0i64;
        for i in 0..req.count {
            let face = if let Some(f) = self.queued.pop_front() {
                if f < 1 || f > i64::from(req.sides) {
                    return Err(Self::bad_face(req, f, "(queued with :roll)"));
                }
                self.used.push(f);
                f
            } else {
                match self.mode {
                    DiceMode::Seeded(s) => {
                        let one = DiceRequest { count: 1, ..*req };
                        let mut f = Vec::with_capacity(1);
                        s.roll(&one, &mut f)?
                    }
                    DiceMode::Table => {
                        let which = if req.count > 1 {
                            format!(" (die {} of {})", i + 1, req.count)
                        } else {
                            String::new()
                        };
                        let within = match req.within {
                            Some(w) => format!(" for `{w}`"),
                            None => String::new(),
                        };
                        let typed = self.typed.split_whitespace().collect::<Vec<_>>().join(" ");
                        let prompt = format!(
                            "{}{which}{within} in `{typed}`, 1 to {}: ",
                            req.text, req.sides
                        );
                        loop {
                            let Some(answer) = self.io.ask(&prompt) else {
                                return Err(Diag::at(
                                    CANCELLED,
                                    format!(
                                        "no roll typed for {}: the adjudication is cancelled",
                                        req.text
                                    ),
                                    req.span,
                                    "this die",
                                ));
                            };
                            let answer = answer.trim();
                            match answer.parse::<i64>() {
                                Ok(f) if f >= 1 && f <= i64::from(req.sides) => break f,
                                _ if self.ask_again => self.io.err(&format!(
                                    "`{answer}` is not a face of {}: type 1 to {}\n",
                                    req.text, req.sides
                                )),
                                Ok(f) => return Err(Self::bad_face(req, f, "(typed)")),
                                Err(_) => {
                                    return Err(Diag::at(
                                        Code::DiceBadFace,
                                        format!(
                                            "`{answer}` is not a roll of {} (1 to {})",
                                            req.text, req.sides
                                        ),
                                        req.span,
                                        "this die",
                                    ))
                                }
                            }
                        }
                    }
                }
            };
            let face32 = u32::try_from(face).unwrap_or(0);
            faces.push(face32);
            sum += face;
        }
        Ok(sum)
    }
}
