//! The command-line face: argument parsing (clap), rendering, exit codes. No
//! adjudication logic lives here.
//!
//! Exit codes: 0 done (a refusal or a "not given" result is a result); 1 an error in a
//! ruleset, expression or scenario, or a failed expectation; 2 a usage error.

use crate::diagnostic::{Diag, Diags, FileReport};
use crate::dice::{DiceSource, Given, Seeded};
use crate::eval::Options;
use crate::render::{adjudication_json, effects_text, explain, headline, report_text};
use crate::{bundled, scenario, Ruleset};

use clap::{Parser, Subcommand, ValueEnum};
use std::io::IsTerminal;
use std::process::ExitCode;

/// umpire: adjudicate wargame rules written as text rulesets, with the reasons shown.
#[derive(Parser, Debug)]
#[command(name = "umpire", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    limits: LimitArgs,
}

/// The configurable limits (`umpire::limits`), for every command.
#[derive(clap::Args, Debug)]
#[command(next_help_heading = "Limits")]
struct LimitArgs {
    /// Most evaluation steps in one adjudication [default: 1000000].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    max_steps: Option<u64>,
    /// Most rules, tables and modifier lists in use inside each other [default: 100].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_depth: Option<u32>,
    /// Most dice rolled in all in one adjudication [default: 100000].
    #[arg(long, global = true, value_name = "N")]
    max_dice: Option<u64>,
    /// Most dice in one roll (`1000d6`, `dice(1000, 6)`) [default: 1000].
    #[arg(long, global = true, value_name = "N")]
    max_dice_per_roll: Option<u32>,
    /// Most sides a die may have [default: 1000].
    #[arg(long, global = true, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    max_sides: Option<u32>,
    /// Largest ruleset (bundled ones too), state, scenario or game-log file read, in bytes
    /// [default: 4194304, 4 MiB].
    #[arg(long, global = true, value_name = "BYTES")]
    max_file_size: Option<u64>,
}

impl LimitArgs {
    fn limits(&self) -> crate::limits::Limits {
        let d = crate::limits::Limits::default();
        crate::limits::Limits {
            steps: self.max_steps.unwrap_or(d.steps),
            depth: self.max_depth.unwrap_or(d.depth),
            dice: self.max_dice.unwrap_or(d.dice),
            dice_per_roll: self.max_dice_per_roll.unwrap_or(d.dice_per_roll),
            sides: self.max_sides.unwrap_or(d.sides),
            file_bytes: self.max_file_size.unwrap_or(d.file_bytes),
        }
    }
}

/// Output format.
#[derive(Debug, Clone, Copy, ValueEnum, PartialEq, Eq)]
pub enum Format {
    /// Text for people.
    Text,
    /// One JSON object.
    Json,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Adjudicate one expression against a ruleset.
    Eval {
        /// A bundled ruleset name (little_wars, kriegspiel, furious_reason, horse_and_musket) or a path to a .rules file.
        ruleset: String,
        /// The expression, e.g. 'melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)'.
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// Roll seeded dice (the same seed gives the same rolls everywhere).
        #[arg(long, conflicts_with = "roll")]
        seed: Option<u64>,
        /// Use these rolls, in order, as the players rolled them: --roll 7,3.
        #[arg(long, value_delimiter = ',', allow_negative_numbers = true, value_parser = parse_roll)]
        roll: Option<Vec<i64>>,
        /// Show the explanation.
        #[arg(long)]
        explain: bool,
        /// A game state file (TOML) to adjudicate against.
        #[arg(long)]
        state: Option<String>,
        /// Read an ambiguous rule one way: NAME=READING (repeatable; see the ruleset's
        /// `interpretation`s).
        #[arg(long, value_name = "NAME=READING")]
        interpret: Vec<String>,
        /// Adjudicate EXPR once for every member of a group of the state, bound to NAME:
        /// --each u=units (one line per member).
        #[arg(long, value_name = "NAME=PATH", requires = "state")]
        each: Option<String>,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Parse and check rulesets; print every problem.
    Check {
        /// Bundled names or paths.
        #[arg(required = true)]
        rulesets: Vec<String>,
        /// Fail (exit 1) on warnings too.
        #[arg(long)]
        deny_warnings: bool,
    },
    /// Run the `example` blocks of rulesets.
    Test {
        /// Bundled names or paths.
        #[arg(required = true)]
        rulesets: Vec<String>,
    },
    /// Print a bundled ruleset's source, to copy and edit as a house rule.
    Show {
        /// A bundled ruleset name.
        name: String,
    },
    /// The odds of an adjudication: every outcome with its exact chance (or, when there
    /// are too many cases, an estimate from seeded samples).
    Prob {
        /// A bundled ruleset name or a path to a .rules file.
        ruleset: String,
        /// The adjudication, e.g. 'manoeuvre(brigade.second_foot)'.
        #[arg(allow_hyphen_values = true)]
        expr: String,
        /// A game state file to adjudicate against.
        #[arg(long)]
        state: Option<String>,
        /// Read an ambiguous rule one way: NAME=READING (repeatable).
        #[arg(long, value_name = "NAME=READING")]
        interpret: Vec<String>,
        /// Ask again for each value of NAME: NAME=A..B (whole numbers) or NAME=v1,v2,...
        /// (enum values, false,true). NAME is a free name in EXPR or a state path.
        #[arg(long, value_name = "NAME=VALUES")]
        sweep: Option<String>,
        /// Estimate from N seeded adjudications instead of enumerating.
        #[arg(long, value_name = "N")]
        samples: Option<u64>,
        /// The seed for sampling (a fresh one, reported, when not given).
        #[arg(long)]
        seed: Option<u64>,
        /// Most cases to enumerate before sampling instead.
        #[arg(long, value_name = "N", default_value_t = crate::prob::DEFAULT_LIMIT)]
        limit: usize,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// What a house rule or an edition changes: the text (tables cell by cell,
    /// modifiers, constants, rules, examples) and, with a scenario, each adjudication's
    /// odds under both side by side.
    Diff {
        /// The ruleset before (a bundled name or a path).
        old: String,
        /// The ruleset after.
        new: String,
        /// A scenario whose adjudications are run under both (its own ruleset is replaced).
        #[arg(long)]
        scenario: Option<String>,
        /// Exit 3 when there are differences (0 when there are none; 1 stays an error).
        #[arg(long)]
        exit_code: bool,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
    },
    /// Adjudicate at the table, one line at a time: `:help` lists the commands. With no
    /// ruleset, `:use NAME` picks a bundled one. Reads a script when stdin is not a
    /// terminal (exit 1 if any input failed).
    Repl {
        /// A bundled ruleset name or a path to a .rules file.
        ruleset: Option<String>,
        /// A game state file (TOML or JSON) to start from.
        #[arg(long)]
        state: Option<String>,
        /// Roll seeded dice from this seed (the same seed replays the same rolls).
        #[arg(long, conflicts_with = "table_dice")]
        seed: Option<u64>,
        /// Start with the players rolling: each die is asked for (`:dice table`).
        #[arg(long)]
        table_dice: bool,
    },
    /// Run a scenario file: a ruleset and a list of adjudications.
    Run {
        /// The scenario (TOML).
        scenario: String,
        /// Output format.
        #[arg(long, value_enum, default_value = "text")]
        format: Format,
        /// Leave out the explanations.
        #[arg(long)]
        brief: bool,
        /// Write the state, after the effects applied (`apply = true`), to FILE (written
        /// whole or not at all).
        #[arg(long, value_name = "FILE")]
        write_state: Option<String>,
        /// Append the game log to FILE: the ruleset's digest, the readings, the state,
        /// every result with its dice (`umpire replay FILE` checks it).
        #[arg(long, value_name = "FILE")]
        log: Option<String>,
    },
    /// Replay a game log (`umpire run --log`, the REPL's `:log`): every result
    /// adjudicated again with the logged dice and under the logged limits (the limit
    /// flags do not change them; `--max-file-size` limits the log read); says where and
    /// why any differs (exit 1).
    Replay {
        /// The game log (JSON lines).
        log: String,
    },
}

/// Writes to standard output. A closed pipe (`umpire show x | head -1`) ends the
/// program quietly with 141, the status of a program stopped by a closed pipe, so a
/// failing run piped into `head` is not taken for a success; any other failure (a full
/// disk) ends it with exit code 1, so a truncated `umpire show x > file` is not
/// reported as done.
pub(crate) fn write_out(text: &str) {
    use std::io::Write;
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
    use std::io::Write;
    let mut e = std::io::stderr().lock();
    let _ = e.write_all(text.as_bytes()).and_then(|()| e.flush());
}

macro_rules! out {
    ($($t:tt)*) => { write_out(&format!($($t)*)) };
}

macro_rules! outln {
    ($($t:tt)*) => {{ write_out(&format!($($t)*)); write_out("\n"); }};
}

macro_rules! err {
    ($($t:tt)*) => { write_err(&format!($($t)*)) };
}

macro_rules! errln {
    ($($t:tt)*) => {{ write_err(&format!($($t)*)); write_err("\n"); }};
}

/// A roll as typed: `3`, ` 4` (spaces allowed round each number).
fn parse_roll(s: &str) -> Result<i64, String> {
    let s = s.trim();
    s.parse::<i64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
            format!("`{s}` is too large for a roll")
        }
        _ => format!("`{s}` is not a whole number"),
    })
}

/// Renders a diagnostic as miette does, without colour when stderr is not a terminal.
pub fn render(d: &dyn miette::Diagnostic) -> String {
    crate::diagnostic::render(d, crate::diagnostic::stderr_colour())
}

fn report(ds: &Diags) {
    for d in &ds.0 {
        err!("{}", render(d));
    }
}

/// Runs the CLI on `std::env::args`.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(c) => c,
        Err(e) => {
            // Usage errors to stderr (exit 2); `--help` and `--version` to stdout.
            if e.use_stderr() {
                write_err(&e.render().to_string());
            } else {
                write_out(&e.render().to_string());
            }
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    crate::limits::set(cli.limits.limits());
    // EXPR may begin with `-` (`-3 + 1`), but `--bogus` is a mistyped option.
    if let Command::Eval { expr, .. } = &cli.command {
        if expr.starts_with("--") && expr[2..].starts_with(|c: char| c.is_ascii_alphabetic()) {
            errln!("error: unknown option `{expr}` (an expression does not start with `--`)\n\nFor more information, try '--help'.");
            return ExitCode::from(2);
        }
    }
    let json_errors = matches!(
        cli.command,
        Command::Eval {
            format: Format::Json,
            ..
        } | Command::Prob {
            format: Format::Json,
            ..
        }
    );
    match run(cli.command) {
        Ok(code) => code,
        Err(ds) => {
            if json_errors {
                // A JSON reader gets the error as JSON too; people read stderr.
                let errors: Vec<serde_json::Value> =
                    ds.0.iter()
                        .map(|d| serde_json::json!({ "code": d.code, "message": d.message }))
                        .collect();
                outln!("{}", serde_json::json!({ "error": errors }));
            }
            report(&ds);
            ExitCode::from(1)
        }
    }
}

/// A ruleset by name or path (its warnings shown), with a state file loaded if given.
fn load_with_state(
    ruleset: &str,
    state: Option<&str>,
    interpret: &[String],
) -> Result<Ruleset, Diags> {
    note_bundled_over_file(ruleset);
    let mut rules = Ruleset::load(ruleset)?;
    for choice in interpret {
        let Some((name, reading)) = choice.split_once('=') else {
            return Err(Diag::error(
                "umpire::cli::interpret",
                format!("--interpret {choice}: write NAME=READING"),
            )
            .into());
        };
        rules.interpret(name.trim(), reading.trim())?;
    }
    for w in &rules.program.warnings {
        err!("{}", render(w));
    }
    if let Some(path) = state {
        rules.load_state(path)?;
    }
    Ok(rules)
}

fn run(cmd: Command) -> Result<ExitCode, Diags> {
    match cmd {
        Command::Eval {
            ruleset,
            expr,
            seed,
            roll,
            explain: want,
            state,
            interpret,
            each,
            format,
        } => {
            let mut rules = load_with_state(&ruleset, state.as_deref(), &interpret)?;
            if let Some(each) = &each {
                return eval_each(&mut rules, &expr, each, seed, roll, want, format);
            }
            let q = rules.compile("<expression>", &expr)?;
            let fresh = seed.is_none() && roll.is_none();
            let seed = seed.unwrap_or_else(crate::dice::fresh_seed);
            let mut seeded = Seeded::new(seed);
            let mut given = Given::new(roll.clone().unwrap_or_default());
            let dice: &mut dyn DiceSource = if roll.is_some() {
                &mut given
            } else {
                &mut seeded
            };
            let mut a = rules.adjudicate(
                &q,
                dice,
                Options {
                    trace: want,
                    ..Options::default()
                },
            )?;
            if roll.is_none() && !a.rolls.is_empty() {
                a.seed = Some(seed);
            }
            match format {
                Format::Json => outln!("{}", adjudication_json(&rules.program, &a)),
                Format::Text => {
                    out!("{}", report_text(&rules.program, &a));
                    if fresh && !a.rolls.is_empty() {
                        errln!("seed: {seed} (replay with --seed {seed})");
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Check {
            rulesets,
            deny_warnings,
        } => {
            let mut failed = false;
            for name in &rulesets {
                match Ruleset::load(name) {
                    Ok(r) => {
                        if !r.program.warnings.is_empty() {
                            err!("{}", render(&FileReport::new(name, &r.program.warnings)));
                        }
                        let p = &r.program;
                        let warnings = p.warnings.len();
                        if deny_warnings && warnings > 0 {
                            outln!("{name}: {} (denied)", count(warnings, "warning"));
                            failed = true;
                        } else {
                            let noted = if warnings > 0 {
                                format!("; {}", count(warnings, "warning"))
                            } else {
                                String::new()
                            };
                            outln!(
                                "{name}: ok ({}, {}, {}, {}{noted})",
                                count(p.rules.len(), "rule"),
                                count(p.tables.len(), "table"),
                                count(p.modifiers.len(), "modifier list"),
                                count(p.examples.len(), "example")
                            );
                        }
                    }
                    Err(ds) => {
                        err!("{}", render(&FileReport::new(name, &ds.0)));
                        let n = error_count(&ds);
                        let warnings = ds.0.iter().filter(|d| d.warning).count();
                        let noted = if warnings > 0 {
                            format!("; {}", count(warnings, "warning"))
                        } else {
                            String::new()
                        };
                        outln!("{name}: {n} error(s){noted}");
                        failed = true;
                    }
                }
            }
            Ok(if failed {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Test { rulesets } => {
            let (mut passed, mut failed) = (0usize, 0usize);
            for name in &rulesets {
                let r = match Ruleset::load(name) {
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
            Ok(if failed > 0 {
                ExitCode::from(1)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Prob {
            ruleset,
            expr,
            state,
            interpret,
            sweep,
            samples,
            seed,
            limit,
            format,
        } => {
            let mut rules = load_with_state(&ruleset, state.as_deref(), &interpret)?;
            if samples == Some(0) {
                return Err(
                    Diag::error("umpire::prob::samples", "--samples 0 samples nothing")
                        .help("give 1 or more, e.g. --samples 100000")
                        .into(),
                );
            }
            let settings = crate::prob::Settings {
                limit,
                samples,
                seed,
                progress: std::io::stderr().is_terminal(),
            };
            let report_seed = |d: &crate::prob::Distribution| {
                if let crate::prob::Method::Sampled {
                    seed: s,
                    over_limit,
                    ..
                } = d.method
                {
                    if let Some(l) = over_limit {
                        errln!("too much to enumerate (more than {l} cases, or {} steps): sampling instead (--limit N enumerates more cases)", crate::prob::MAX_STEPS);
                    }
                    if seed.is_none() {
                        errln!("seed: {s} (replay with --seed {s})");
                    }
                }
            };
            match sweep {
                Some(spec) => {
                    let sw = crate::prob::sweep::parse(&spec)?;
                    let rows = crate::prob::sweep::run(&mut rules, &expr, &sw, &settings)?;
                    if let Some((_, d)) = rows.first() {
                        report_seed(d);
                    }
                    match format {
                        Format::Json => outln!(
                            "{}",
                            crate::prob::report::sweep_json(&rules.program, &expr, &sw.name, &rows)
                        ),
                        Format::Text => out!(
                            "{}",
                            crate::prob::report::sweep_text(&rules.program, &expr, &sw.name, &rows)
                        ),
                    }
                }
                None => {
                    let q = rules.compile("<expression>", &expr)?;
                    let job = crate::prob::Job {
                        program: &rules.program,
                        query: &q,
                        state: rules.state.as_ref(),
                        locals: &[],
                    };
                    let d = crate::prob::odds(&job, &settings)?;
                    report_seed(&d);
                    match format {
                        Format::Json => {
                            outln!("{}", crate::prob::report::json(&rules.program, &expr, &d))
                        }
                        Format::Text => {
                            out!("{}", crate::prob::report::text(&rules.program, &expr, &d))
                        }
                    }
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Diff {
            old,
            new,
            scenario,
            exit_code,
            format,
        } => {
            let mut a = load_with_state(&old, None, &[])?;
            let mut b = load_with_state(&new, None, &[])?;
            let changes = crate::diff::structural(&a.program, &b.program);
            let settings = crate::prob::Settings {
                seed: Some(0),
                ..crate::prob::Settings::default()
            };
            let compared = match &scenario {
                Some(path) => crate::diff::behavioural(&mut a, &mut b, path, &settings)?,
                None => Vec::new(),
            };
            match format {
                Format::Json => outln!(
                    "{}",
                    crate::diff::json_report(&a.program, &b.program, &changes, &compared)
                ),
                Format::Text => out!(
                    "{}",
                    crate::diff::text_report(
                        &old, &new, &a.program, &b.program, &changes, &compared
                    )
                ),
            }
            Ok(if exit_code && crate::diff::any(&changes, &compared) {
                ExitCode::from(3)
            } else {
                ExitCode::SUCCESS
            })
        }
        Command::Repl {
            ruleset,
            state,
            seed,
            table_dice,
        } => Ok(crate::repl::main(ruleset, state, seed, table_dice)),
        Command::Show { name } => match bundled::source(&name) {
            Some(text) => {
                out!("{text}");
                Ok(ExitCode::SUCCESS)
            }
            None => Err(Diag::error(
                "umpire::cli::unknown_ruleset",
                format!("no bundled ruleset `{name}`"),
            )
            .suggest(&name, bundled::names())
            .help(format!("bundled rulesets: {}", bundled::names().join(", ")))
            .into()),
        },
        Command::Run {
            scenario: path,
            format,
            brief,
            write_state,
            log,
        } => {
            if let Some(log) = &log {
                let mut others = vec![path.as_str()];
                others.extend(write_state.as_deref());
                crate::gamelog::check_target(log, &others).map_err(|d| Diags(vec![d]))?;
            }
            let r = scenario::run(&path, !brief)?;
            if let Some(log) = &log {
                crate::gamelog::append_all(log, &crate::gamelog::scenario_lines(&r))
                    .map_err(|d| Diags(vec![d]))?;
            }
            if let Some(out) = &write_state {
                let Some(state) = &r.ruleset.state else {
                    return Err(Diag::error(
                        "umpire::cli::write_state",
                        "the scenario has no state to write",
                    )
                    .help("name a state file in the scenario: `state = \"table.toml\"`")
                    .into());
                };
                crate::state::write_atomic(
                    out,
                    &crate::state::to_file_text(&r.ruleset.program, state, out),
                )
                .map_err(|d| Diags(vec![d]))?;
            }
            for d in r.done.iter() {
                if let Err(e) = &d.result {
                    err!("{}", render(e));
                }
            }
            match format {
                Format::Json => outln!("{}", scenario::render_json(&r)),
                Format::Text => out!("{}", scenario::render_text(&r, !brief)),
            }
            Ok(if scenario::all_ok(&r) {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            })
        }
        Command::Replay { log } => {
            let r = crate::gamelog::replay(&log)?;
            for n in &r.notes {
                errln!("note: {n}");
            }
            for d in &r.differences {
                outln!("line {}: `{}`: {}", d.line, d.input, d.why);
            }
            let n = r.checked;
            if r.differences.is_empty() {
                outln!("{log}: all {n} result(s) reproduced");
                Ok(ExitCode::SUCCESS)
            } else {
                outln!("{log}: {} of {n} result(s) differ", r.differences.len());
                Ok(ExitCode::from(1))
            }
        }
    }
}

/// Dice for several adjudications in a row: given rolls run on from one to the next,
/// and are checked for leftovers only at the end.
struct RunOn<'a>(&'a mut dyn DiceSource);

impl DiceSource for RunOn<'_> {
    fn roll(
        &mut self,
        req: &crate::dice::DiceRequest<'_>,
        faces: &mut Vec<u32>,
    ) -> Result<i64, Diag> {
        self.0.roll(req, faces)
    }
}

/// `umpire eval ... --each NAME=PATH`: one adjudication per member of the group.
fn eval_each(
    rules: &mut Ruleset,
    expr: &str,
    each: &str,
    seed: Option<u64>,
    roll: Option<Vec<i64>>,
    want: bool,
    format: Format,
) -> Result<ExitCode, Diags> {
    let usage = |why: &str| {
        errln!("error: --each takes NAME=PATH, e.g. --each u=units: {why}\n\nFor more information, try '--help'.");
        Ok(ExitCode::from(2))
    };
    let Some((name, path)) = each.split_once('=') else {
        return usage("there is no `=`");
    };
    let (name, path) = (name.trim(), path.trim());
    let is_name = name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_alphanumeric() || c == '_')
        && !crate::syntax::parser::RESERVED.contains(&name);
    if !is_name {
        return usage(&format!("`{name}` is not a name to stand for each member"));
    }
    if path.is_empty() {
        return usage("PATH is empty");
    }
    let (q, members) = rules.compile_each("<expression>", expr, name, path)?;
    let fresh = seed.is_none() && roll.is_none();
    let seed = seed.unwrap_or_else(crate::dice::fresh_seed);
    let mut seeded = Seeded::new(seed);
    let mut given = Given::new(roll.clone().unwrap_or_default());
    let mut rolled = false;
    let mut json = Vec::new();
    {
        let source: &mut dyn DiceSource = if roll.is_some() {
            &mut given
        } else {
            &mut seeded
        };
        let mut dice = RunOn(source);
        for (member, value) in members {
            let a = rules
                .adjudicate_bound(
                    &q,
                    &member,
                    value,
                    &mut dice,
                    Options {
                        trace: want,
                        ..Options::default()
                    },
                )
                .map_err(|mut d| {
                    // Say which member it was.
                    d.message = format!("{member}: {}", d.message);
                    Diags(vec![d])
                })?;
            rolled |= !a.rolls.is_empty();
            match format {
                Format::Json => {
                    let mut m = serde_json::Map::new();
                    m.insert("member".into(), member.to_string().into());
                    if let serde_json::Value::Object(o) = adjudication_json(&rules.program, &a) {
                        m.extend(o);
                    }
                    json.push(serde_json::Value::Object(m));
                }
                Format::Text => {
                    outln!("{member}: {}", headline(&rules.program, &a.outcome));
                    for line in effects_text(&rules.program, &a.effects).lines() {
                        outln!("  {line}");
                    }
                    if let Some(t) = &a.trace {
                        for line in explain(&rules.program, t).lines() {
                            outln!("  {line}");
                        }
                    }
                }
            }
        }
    }
    if roll.is_some() {
        given.finish().map_err(|d| Diags(vec![d]))?;
    }
    if format == Format::Json {
        let mut top = serde_json::Map::new();
        top.insert("each".into(), serde_json::Value::Array(json));
        if roll.is_none() && rolled {
            top.insert("seed".into(), seed.into());
        }
        outln!("{}", serde_json::Value::Object(top));
    } else if fresh && rolled {
        errln!("seed: {seed} (replay with --seed {seed})");
    }
    Ok(ExitCode::SUCCESS)
}

/// A bundled name is taken before a file of the same name: say so when both exist.
fn note_bundled_over_file(name: &str) {
    if bundled::source(name).is_none() {
        return;
    }
    for file in [name.to_string(), format!("{name}.rules")] {
        if std::path::Path::new(&file).is_file() {
            errln!("note: `{name}` is the bundled ruleset; for your file write ./{file}");
        }
    }
}

/// How many errors a check found, counting those past the hundred shown.
fn error_count(ds: &Diags) -> usize {
    ds.0.iter()
        .filter(|d| !d.warning)
        .map(|d| match d.code {
            // "... and N more errors" stands for N.
            "umpire::check::more_errors" => d
                .message
                .split_whitespace()
                .find_map(|w| w.parse().ok())
                .unwrap_or(0),
            _ => 1,
        })
        .sum()
}

/// `1 rule`, `2 rules`.
fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}
