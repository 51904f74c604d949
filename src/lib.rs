//! # umpire
//!
//! A rules language and its interpreter for tabletop wargames: a rulebook's tables and
//! procedures are written as a plain-text ruleset, and questions are adjudicated
//! against it with the reasons shown, citing the rulebook.
//!
//! ```
//! use umpire::{Ruleset, dice::Given, eval::Options, render::{headline, explain}};
//!
//! let rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
//! let q = rules
//!     .question("<doc>", "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)")
//!     .expect("expression checks");
//! let a = rules.adjudicate(&q, &mut Given::new(vec![]), Options { trace: true, ..rules.options() })
//!     .expect("no error");
//! assert_eq!(
//!     headline(&rules.program, &a.outcome),
//!     "{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }"
//! );
//! println!("{}", explain(&rules.program, a.trace.as_deref().unwrap_or(&[])));
//! ```
//!
//! Phases, one module each: [`syntax`] (text → AST) → [`check`] (AST → [`program::Program`])
//! → [`eval`] (program + dice → [`adjudication::Adjudication`]). [`cli`] is a thin face.
//! A game at the table (the state, the dice, results applied and undone, the game log) is a
//! [`game::Game`]; the REPL ([`repl`]) and `umpire replay` ([`replay::replay`]) play one.
//! Results become words and JSON in [`render`]; an error is a [`diagnostic::Diag`] (its
//! `Display` is the bare message: [`diagnostic::render`] draws it with its source, caret
//! and help, as the command line does). `src/README.md` is the map of the modules.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod adjudication;
pub mod bundled;
pub mod cache;
pub mod cancel;
pub mod check;
pub mod cli;
pub mod compile;
pub mod diagnostic;
pub mod dice;
pub mod diff;
pub mod eval;
pub mod extend;
pub mod files;
pub mod fmt;
pub mod game;
pub mod gamelog;
pub mod limits;
pub mod lsp;
pub mod names;
pub mod prob;
pub mod program;
pub mod render;
pub mod repl;
pub mod replay;
pub mod report;
pub mod scenario;
pub mod serve;
pub mod span;
pub mod state;
pub mod syntax;
mod term;
pub mod value;
pub mod words;

use crate::diagnostic::Code;
use adjudication::{Adjudication, Outcome};
use diagnostic::{Diag, Diags};
use dice::{DiceSource, Given, Seeded};
pub use files::read_file;
use files::too_big;
use limits::Limits;
use program::{ExprKind, Program, Query};
use span::{SourceFile, SourceMap};
use std::rc::Rc;
use std::sync::Arc;
use syntax::ast::{BinOp, Expectation};

/// A loaded, checked ruleset.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// The checked program, shared: questions, examples and games read it and never
    /// change it.
    pub program: Rc<Program>,
    /// The ruleset's own files (the file loaded, then what it extends), which the
    /// program's spans point into. A question's text is not added: it lives with its
    /// [`Query`].
    pub sources: SourceMap,
    /// The warnings found while checking it, with their sources attached.
    pub warnings: Vec<Diag>,
    /// The game state adjudications read, once loaded (`load_state`).
    pub state: Option<value::Value>,
    /// The readings chosen for the program's interpretations ([`Ruleset::interpret`]):
    /// its adjudications go by them.
    pub readings: eval::Readings,
    /// The limits it was loaded with: its questions are checked, its state files read
    /// and its adjudications run ([`Ruleset::options`]) within them.
    pub limits: Limits,
}

impl Ruleset {
    /// No ruleset: expressions and dice only (an empty program, no state).
    pub fn none() -> Ruleset {
        Ruleset::from_source("<no ruleset>", "").unwrap_or(Ruleset {
            program: Default::default(),
            sources: Default::default(),
            warnings: Vec::new(),
            state: None,
            readings: eval::Readings::none(),
            limits: Limits::default(),
        })
    }

    /// Parses and checks ruleset source text named `name` (a path, `bundled:NAME`),
    /// within the default limits.
    ///
    /// Errors: every syntax and check error, with the source attached for rendering.
    pub fn from_source(name: &str, text: &str) -> Result<Ruleset, Diags> {
        Ruleset::from_source_with(name, text, &Limits::default())
    }

    /// Parses and checks ruleset source text named `name` within `limits` (the text no
    /// larger than `limits.file_bytes`), which the ruleset keeps.
    ///
    /// Errors: as [`Ruleset::from_source`].
    pub fn from_source_with(name: &str, text: &str, limits: &Limits) -> Result<Ruleset, Diags> {
        Ok(Ruleset::from_checked(
            Ruleset::check_source(name, text, limits)?,
            limits,
        ))
    }

    /// Parses and checks ruleset source text named `name` within `limits`: the program,
    /// its sources and its warnings (bare), as the cache keeps them
    /// ([`Ruleset::from_checked`] makes the ruleset).
    ///
    /// Errors: as [`Ruleset::from_source`] (with the sources attached).
    pub fn check_source(name: &str, text: &str, limits: &Limits) -> Result<cache::Checked, Diags> {
        let mut sources = SourceMap::default();
        let (program, warnings) = check_into(&mut sources, name, text, limits)?;
        Ok(cache::Checked {
            program,
            sources,
            warnings,
        })
    }

    /// Checks ruleset source text as [`Ruleset::check_source`] does, for an editor: the
    /// files read (kept when checking fails, so that a diagnostic's span in a base or a
    /// used ruleset can be told apart from one in `name`'s own text, always
    /// [`span::FileId`] 0) and every problem found, bare, errors and warnings alike.
    pub fn analyse_source(name: &str, text: &str, limits: &Limits) -> Analysis {
        let mut sources = SourceMap::default();
        match check_into(&mut sources, name, text, limits) {
            Ok((program, warnings)) => Analysis {
                program: Some(program),
                problems: warnings,
                sources,
            },
            Err(ds) => Analysis {
                program: None,
                problems: ds.0,
                sources,
            },
        }
    }

    /// A checked ruleset ([`Ruleset::check_source`], or read back from the cache) within
    /// `limits`, its warnings' sources attached.
    pub fn from_checked(checked: cache::Checked, limits: &Limits) -> Ruleset {
        let cache::Checked {
            program,
            sources,
            warnings,
        } = checked;
        let warnings = warnings
            .into_iter()
            .map(|d| d.with_sources(&sources))
            .collect();
        let mut program = program;
        program.code = compile::prepare(&program);
        Ruleset {
            program: Rc::new(program),
            sources,
            warnings,
            state: None,
            readings: eval::Readings::none(),
            limits: *limits,
        }
    }

    /// Parses and checks the ruleset `name` whose text is `text` (a bundled ruleset or a
    /// file, with what it extends and uses), through the cache of checked rulesets
    /// when one is turned on ([`cache::turn_on`]): read back from it when it holds the
    /// same texts checked by this build within the same limits, else checked and kept
    /// in it.
    ///
    /// Errors: as [`Ruleset::from_source`] (a ruleset with errors is never kept).
    fn load_source(name: &str, text: &str, limits: &Limits) -> Result<Ruleset, Diags> {
        let Some(cache) = cache::in_use() else {
            return Ruleset::from_source_with(name, text, limits);
        };
        if let Some(checked) = cache.load(name, text, limits) {
            return Ok(Ruleset::from_checked(checked, limits));
        }
        let checked = Ruleset::check_source(name, text, limits)?;
        cache.store(name, text, limits, &checked);
        Ok(Ruleset::from_checked(checked, limits))
    }

    /// A bundled ruleset by name (`little_wars`, `kriegspiel`), within the default limits.
    pub fn bundled(name: &str) -> Result<Ruleset, Diags> {
        Ruleset::bundled_with(name, &Limits::default())
    }

    /// A bundled ruleset by name, within `limits`.
    fn bundled_with(name: &str, limits: &Limits) -> Result<Ruleset, Diags> {
        match bundled::source(name) {
            Some(text) => Ruleset::load_source(&format!("bundled:{name}"), text, limits),
            None => Err(Diag::error(
                Code::CliUnknownRuleset,
                format!("no bundled ruleset `{name}`"),
            )
            .suggest(name, bundled::names())
            .into()),
        }
    }

    /// A bundled name, or else a path to a ruleset file, within the default limits.
    ///
    /// Errors: an unreadable file (with the bundled names listed), or the ruleset's own.
    pub fn load(name_or_path: &str) -> Result<Ruleset, Diags> {
        Ruleset::load_with(name_or_path, &Limits::default())
    }

    /// A bundled name, or else a path to a ruleset file, within `limits` (no file larger
    /// than `limits.file_bytes` is read), which the ruleset keeps. Read back from the
    /// cache of checked rulesets when the process turned one on ([`cache::turn_on`]) and
    /// it holds these texts, else parsed and checked (and kept there).
    ///
    /// Errors: as [`Ruleset::load`].
    pub fn load_with(name_or_path: &str, limits: &Limits) -> Result<Ruleset, Diags> {
        let looks_like_path = name_or_path.contains(['/', '\\', '.']);
        if !looks_like_path {
            if bundled::source(name_or_path).is_some() {
                return Ruleset::bundled_with(name_or_path, limits);
            }
            if !std::path::Path::new(name_or_path).exists() {
                let with_ext = format!("{name_or_path}.rules");
                let d = Diag::error(
                    Code::CliUnknownRuleset,
                    format!("no bundled ruleset or file `{name_or_path}`"),
                );
                // A house-rule file beside it is more likely meant than a bundled name.
                let d = if std::path::Path::new(&with_ext).is_file() {
                    d.help(format!("did you mean the file `{with_ext}`?"))
                } else {
                    d.suggest(name_or_path, bundled::names())
                };
                return Err(d
                    .help(format!(
                        "bundled rulesets: {}; or give a path to a .rules file",
                        bundled::names().join(", ")
                    ))
                    .into());
            }
        }
        let text = read_file(name_or_path, limits)?;
        Ruleset::load_source(name_or_path, &text, limits)
    }

    /// Loads a game state file (TOML) checked against the ruleset's `state` declaration;
    /// adjudications read it from then on.
    ///
    /// Errors: every field that does not fit, at its place in the file.
    pub fn load_state(&mut self, path: &str) -> Result<(), Diags> {
        self.state = Some(state::load(
            &self.program,
            &self.sources,
            path,
            &self.limits,
        )?);
        Ok(())
    }

    /// The options its adjudications go by unless told otherwise: its readings and its
    /// limits, no explanation (`Options { trace: true, ..rules.options() }` for one).
    pub fn options(&self) -> eval::Options {
        eval::Options {
            trace: false,
            limits: self.limits,
            readings: self.readings.clone(),
            engine: Default::default(),
        }
    }

    /// What its questions are checked with: its limits.
    fn check_options(&self) -> check::CheckOptions {
        let mut members = Vec::new();
        if let Some(state) = &self.state {
            group_members(state, "", 0, &mut members);
        }
        check::CheckOptions {
            limits: self.limits,
            members,
        }
    }

    /// Parses and checks a question typed by a user (command line, REPL), named
    /// `origin`. The ruleset is left as it was: the question's text lives with the query.
    ///
    /// Errors: a syntax or type error, with the question's source attached.
    pub fn question(&self, origin: &str, text: &str) -> Result<Query, Diags> {
        self.question_in(SourceFile::new(origin, text), &[])
    }

    /// Parses and checks `set PATH = EXPR` (`+=`, `-=`) typed by a user (`source` may be
    /// masked to the part after `:`, so carets point into the line as typed): a query
    /// whose one effect is that change to the game state.
    ///
    /// Errors: a syntax error, a path that is not in the state, a value that does not fit.
    pub fn question_set(&self, source: SourceFile) -> Result<Query, Diags> {
        let (sources, file, text) = self.scratch(source);
        let stmt =
            syntax::parse_set(file, &text).map_err(|d| Diags::from(d).with_sources(&sources))?;
        let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
        let opts = self.check_options();
        check::check_set_query(
            &self.program,
            &sources,
            &stmt,
            span::Span::new(file, 0, len as usize),
            &opts,
        )
        .map_err(|d| d.with_sources(&sources))
    }

    /// Parses and checks `text` with each of `bound` (name, type) a local, in slots 0,
    /// 1, ... in that order (a swept name: `--sweep m=-9..8`).
    ///
    /// Errors: the expression's own.
    pub fn question_with(
        &self,
        origin: &str,
        text: &str,
        bound: &[(String, program::Ty)],
    ) -> Result<Query, Diags> {
        self.question_in(SourceFile::new(origin, text), bound)
    }

    /// Parses and checks the expression held in `source` (e.g. a scenario file masked
    /// to one expression, so that carets point into the scenario).
    ///
    /// Errors: the expression's own.
    pub fn question_from(&self, source: SourceFile) -> Result<Query, Diags> {
        self.question_in(source, &[])
    }

    /// Parses and checks `text` with `name` bound to a member of the group that `group`
    /// (an expression, e.g. `units`) evaluates to, and `name_name` to the member's name
    /// (a text, for rules that change the member: `take_losses(u_name, 7)`); returns
    /// the query and the members.
    ///
    /// Errors: `group` is not a group of the state, or either expression is wrong.
    pub fn question_each(
        &self,
        origin: &str,
        text: &str,
        name: &str,
        group: &str,
    ) -> Result<(Query, value::Members), Diags> {
        let g = self.question(&format!("{origin} (--each)"), group)?;
        let program::Ty::Group(member) = g.ty.clone() else {
            let what = g.ty.describe(&self.program);
            return Err(Diag::at(
                Code::CliEach,
                format!("`{group}` is {what}, not a group of the state"),
                g.expr.span,
                "not a group",
            )
            .help("--each NAME=PATH takes a group of the state, e.g. --each u=units")
            .with_sources(&g.sources)
            .into());
        };
        let a = self.adjudicate(&g, &mut Given::new(vec![]), self.options())?;
        let members = match a.outcome {
            Outcome::Value(value::Value::Group(m)) => m.as_ref().clone(),
            _ => Vec::new(),
        };
        // The member's name is `NAME_name`, for rules that change it: `set units[name]...`.
        let bound = [
            (name.to_string(), *member),
            (format!("{name}_name"), program::Ty::Text),
        ];
        let q = self.question_in(SourceFile::new(origin, text), &bound)?;
        Ok((q, members))
    }

    /// Adjudicates `q` for the member `name` whose value is `bound` (see
    /// `question_each`).
    pub fn adjudicate_bound(
        &self,
        q: &Query,
        name: &str,
        bound: value::Value,
        dice: &mut dyn DiceSource,
        opts: eval::Options,
    ) -> Result<Adjudication, Diag> {
        eval::adjudicate_bound(
            &self.program,
            q,
            dice,
            opts,
            self.state.as_ref(),
            vec![bound, value::Value::Text(std::rc::Rc::from(name))],
        )
        .map_err(|d| d.with_sources(&q.sources))
    }

    /// A scratch copy of the ruleset's sources (sharing their text) with `source` added:
    /// a question's, dropped with it. Returns it, the question's file and its text.
    fn scratch(&self, source: SourceFile) -> (SourceMap, span::FileId, Arc<str>) {
        let mut sources = self.sources.clone();
        let (file, text) = sources.add(source);
        (sources, file, text)
    }

    /// Parses and checks the expression in `source`, with `bound` names as its first
    /// locals.
    fn question_in(
        &self,
        source: SourceFile,
        bound: &[(String, program::Ty)],
    ) -> Result<Query, Diags> {
        let (sources, file, text) = self.scratch(source);
        let ast =
            syntax::parse_expr(file, &text).map_err(|d| Diags::from(d).with_sources(&sources))?;
        let opts = self.check_options();
        let mut q = check::check_query_with(&self.program, &sources, &ast, bound, &opts)
            .map_err(|d| d.with_sources(&sources))?;
        q.code = compile::query(&self.program, &self.program.code, &q);
        Ok(q)
    }

    /// Adjudicates a query made by [`Ruleset::question`] (or its kin).
    ///
    /// Errors: arithmetic, limits, dice (with the source attached).
    pub fn adjudicate(
        &self,
        q: &Query,
        dice: &mut dyn DiceSource,
        opts: eval::Options,
    ) -> Result<Adjudication, Diag> {
        eval::adjudicate(&self.program, q, dice, opts, self.state.as_ref())
            .map_err(|d| d.with_sources(&q.sources))
    }

    /// Chooses a reading of an ambiguous rule (`--interpret NAME=READING`): adjudications
    /// with [`Ruleset::options`] go by it from now on, and their explanations name it.
    ///
    /// Errors: no such interpretation or reading (with what there is).
    pub fn interpret(&mut self, name: &str, reading: &str) -> Result<(), Diag> {
        let (i, r) = program::find_reading(&self.program, name, reading)
            .map_err(|m| Diag::error(Code::CliInterpret, m))?;
        self.readings.choose(i, r);
        Ok(())
    }

    /// Runs every `example` block, within the ruleset's limits and with its readings;
    /// one result per check.
    pub fn run_examples(&self) -> Vec<ExampleResult> {
        let mut out = Vec::new();
        for ex in &self.program.examples {
            // An example that pins readings is read with them (the ruleset's own stay).
            let opts = eval::Options {
                readings: self.readings.with(&ex.readings),
                ..self.options()
            };
            let mut given = Given::with_names(
                ex.rolls.iter().map(|(r, _)| *r).collect(),
                ex.named_rolls
                    .iter()
                    .map(|(n, r, _)| (n.clone(), *r))
                    .collect(),
            )
            .written_at(ex.named_rolls.iter().map(|(_, _, s)| *s).collect());
            let mut seeded = ex.seed.map(Seeded::new);
            let mut dice_failed = false;
            let no_dice = ex.rolls.is_empty() && ex.named_rolls.is_empty() && ex.seed.is_none();
            // One frame for the example: each `let` is worked out once, into it.
            let mut frame = vec![value::Value::Bool(false); ex.slots as usize];
            let mut stopped = false;
            for i in 0..=ex.checks.len() {
                for step in ex.lets.iter().filter(|l| l.before == i) {
                    let dice: &mut dyn DiceSource = match &mut seeded {
                        Some(s) => s,
                        None => &mut given,
                    };
                    let run = (dice, no_dice, opts.clone());
                    let Some(d) = self.run_step(step, run, &mut frame) else {
                        continue;
                    };
                    dice_failed |= d.code.phase() == crate::diagnostic::Phase::Dice;
                    out.push(ExampleResult {
                        example: ex.name.clone(),
                        check: self.sources.snippet(step.span).to_string(),
                        failure: Some(d.with_sources(&self.sources)),
                        index: i,
                    });
                    stopped = true;
                    break;
                }
                let Some(chk) = ex.checks.get(i).filter(|_| !stopped) else {
                    break;
                };
                let dice: &mut dyn DiceSource = match &mut seeded {
                    Some(s) => s,
                    None => &mut given,
                };
                let failure = run_check_in(
                    &self.program,
                    &self.sources,
                    &chk.query,
                    chk.expect.clone(),
                    (dice, no_dice, opts.clone()),
                    &mut frame,
                );
                dice_failed |= failure
                    .as_ref()
                    .is_some_and(|d| d.code.phase() == crate::diagnostic::Phase::Dice);
                let failure = failure.map(|d| self.base_example(d, &ex.name, ex.span));
                out.push(ExampleResult {
                    example: ex.name.clone(),
                    check: self.sources.snippet(chk.span).to_string(),
                    failure: failure.map(|d| d.with_sources(&self.sources)),
                    index: i,
                });
            }
            // Rolls left over after a dice error are its echo, not a second failure; after
            // a step that gave no value, the checks left were not run to use them.
            if seeded.is_none() && !dice_failed && !stopped {
                if let Err(d) = given.finish() {
                    let d = d
                        .label(ex.span, "in this example")
                        .with_sources(&self.sources);
                    out.push(ExampleResult {
                        example: ex.name.clone(),
                        check: "given rolls".into(),
                        failure: Some(d),
                        index: ex.checks.len(),
                    });
                }
            }
        }
        out
    }
}

impl Ruleset {
    /// A failed check of an example that the ruleset it extends gives (`span` is not in
    /// the file loaded): the house rule changed what it checks, so the help says which
    /// example to override in the house-rule file.
    fn base_example(&self, d: Diag, name: &str, span: span::Span) -> Diag {
        let Some(own) = self.sources.files().first() else {
            return d;
        };
        let file = self.sources.get(span.file);
        if span.file == span::FileId(0) || d.code != Code::TestFailed {
            return d;
        }
        d.help(format!(
            "this example is the base's ({}), and the house rule changes what it checks: to check it as the house plays, write `override example \"{name}\" {{ ... }}` in {} (its checks, as the house rule answers them)",
            file.map_or("the base", |f| f.name.as_str()),
            own.name
        ))
    }
}

/// An error that points into a base (or a used ruleset) and also into the file loaded
/// (a house rule's row overlapping a base row) points into the file loaded first: a
/// diagnostic draws one file, and the house rule is what its reader wrote. The base's
/// place is told in words.
fn house_first(mut d: Diag, sources: &SourceMap) -> Diag {
    let own = span::FileId(0);
    let Some(first) = d.labels.first().map(|(s, _)| *s) else {
        return d;
    };
    if first.file == own {
        return d;
    }
    let Some(at) = d.labels.iter().position(|(s, _)| s.file == own) else {
        return d;
    };
    let house = d.labels.remove(at);
    d.labels.insert(0, house);
    if let Some(file) = sources.get(first.file) {
        let before = file.text.get(..first.start as usize).unwrap_or("");
        let line = before.matches('\n').count() + 1;
        let what = sources.snippet(first);
        d = d.help(format!("the other is `{what}`, {}:{line}", file.name));
    }
    d
}

/// What checking a ruleset's text found ([`Ruleset::analyse_source`]).
#[derive(Debug, Clone)]
pub struct Analysis {
    /// The checked program, when there were no errors.
    pub program: Option<Program>,
    /// The files read: the text checked first (its id 0), then what it extends and uses.
    pub sources: SourceMap,
    /// Every error and warning, in the order found.
    pub problems: Vec<Diag>,
}

/// Parses and checks `text` (the file `name`) within `limits`, adding the files it reads
/// to `sources`: the program and its warnings (bare).
fn check_into(
    sources: &mut SourceMap,
    name: &str,
    text: &str,
    limits: &Limits,
) -> Result<(Program, Vec<Diag>), Diags> {
    let most = limits.file_bytes;
    if text.len() as u64 > most {
        return Err(Diags(vec![too_big(name, most)]));
    }
    // A house rule or an edition is read on top of the ruleset it extends.
    let ast = extend::parse_tree(sources, SourceFile::new(name, text), 0, limits)?;
    let opts = check::CheckOptions {
        limits: *limits,
        ..Default::default()
    };
    check::check_file(&ast, sources, &opts).map_err(|d| {
        Diags(d.0.into_iter().map(|d| house_first(d, sources)).collect()).with_sources(sources)
    })
}

/// The result of one check of one example.
#[derive(Debug, Clone)]
pub struct ExampleResult {
    /// The example's name.
    pub example: String,
    /// The check as written.
    pub check: String,
    /// Why it failed; `None` if it passed.
    pub failure: Option<Diag>,
    /// Which check of the example.
    pub index: usize,
}

/// A dice source for examples and scenarios that give neither rolls nor a seed.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self, req: &dice::DiceRequest<'_>, _: &mut Vec<u32>) -> Result<i64, Diag> {
        Err(Diag::at(
            Code::DiceNoDice,
            format!("this rolls `{}`, but no rolls or seed are given", req.text),
            req.span,
            "rolls dice",
        )
        .help("add `given rolls ...` or `seed N` to the example"))
    }
}

/// Runs one check of an example (its spans in `sources`, the ruleset's), evaluated with
/// `opts`: `None` if it holds, else why not.
pub fn run_check(
    p: &Program,
    sources: &SourceMap,
    q: &Query,
    expect: Option<Expectation>,
    dice: &mut dyn DiceSource,
    no_dice: bool,
    opts: eval::Options,
) -> Option<Diag> {
    let mut frame = vec![value::Value::Bool(false); q.slots as usize];
    run_check_in(p, sources, q, expect, (dice, no_dice, opts), &mut frame)
}

/// The dice an example's check or step is worked out with (and whether the example gives
/// none), and the options.
type ExampleRun<'d> = (&'d mut dyn DiceSource, bool, eval::Options);

impl Ruleset {
    /// Works out a `let` of an example into `frame`: `None` when it gives a value, else
    /// why it did not (an error, a refusal, "not given").
    fn run_step(
        &self,
        step: &program::ExampleStep,
        (dice, no_dice, opts): ExampleRun<'_>,
        frame: &mut [value::Value],
    ) -> Option<Diag> {
        let mut nodice = NoDice;
        let dice: &mut dyn DiceSource = if no_dice { &mut nodice } else { dice };
        let mut ev = eval::Evaluator::new(&self.program, &self.sources, dice, opts);
        let r = ev.eval(&step.expr, frame);
        let gave =
            match ev.outcome(r) {
                Ok(Outcome::Value(v)) => return match frame.get_mut(step.slot as usize) {
                    Some(place) => {
                        *place = v;
                        None
                    }
                    None => Some(
                        Diag::at(
                            Code::EvalType,
                            "an example's `let` has no place to be kept",
                            step.span,
                            "here",
                        )
                        .help(
                            "this is a bug in umpire's checker: please report it with the ruleset",
                        ),
                    ),
                },
                Ok(o) => render::headline(&self.program, &o),
                Err(d) => return Some(d),
            };
        Some(
            Diag::at(
                Code::TestFailed,
                "this step of the example gives no value",
                step.span,
                format!("gave {gave}"),
            )
            .help("a `let` names a value for the checks after it, which were not run; to expect a refusal, write the check itself, like `f(3) is refused`"),
        )
    }
}

/// [`run_check`] in the example's `frame`, which holds its `let`s worked out so far.
fn run_check_in(
    p: &Program,
    sources: &SourceMap,
    q: &Query,
    expect: Option<Expectation>,
    (dice, no_dice, opts): ExampleRun<'_>,
    frame: &mut [value::Value],
) -> Option<Diag> {
    let mut nodice = NoDice;
    let dice: &mut dyn DiceSource = if no_dice { &mut nodice } else { dice };
    let span = q.expr.span;
    // `A == B`: evaluate both sides, so a failure shows what each gave.
    if let (None, ExprKind::Binary(BinOp::Eq, a, b)) = (&expect, &q.expr.kind) {
        let mut ev = eval::Evaluator::new(p, sources, dice, opts);
        let left = ev.eval(a, frame);
        let left = match ev.outcome(left) {
            Ok(o) => o,
            Err(d) => return Some(eval::at_the_question(d, span)),
        };
        let right = ev.eval(b, frame);
        let right = match ev.outcome(right) {
            Ok(o) => o,
            Err(d) => return Some(eval::at_the_question(d, span)),
        };
        let same = match (&left, &right) {
            (Outcome::Value(x), Outcome::Value(y)) => x.same(y),
            (Outcome::Refused { reason: a, .. }, Outcome::Refused { reason: b, .. }) => a == b,
            (Outcome::NotGiven { what: a, .. }, Outcome::NotGiven { what: b, .. }) => a == b,
            _ => false,
        };
        if same {
            return None;
        }
        let text = |o: &Outcome| render::headline(p, o);
        return Some(
            Diag::at(
                Code::TestFailed,
                "example does not hold",
                span,
                format!("gave {}", text(&left)),
            )
            .help(format!("expected {}", text(&right))),
        );
    }
    // Given rolls run on across the checks of an example: no `finish` here.
    let mut ev = eval::Evaluator::new(p, sources, dice, opts);
    ev.asked = sources.snippet(span).trim().to_string();
    let r = ev.eval(&q.expr, frame);
    let outcome = match (ev.outcome(r), &expect) {
        (Ok(o), _) => o,
        (Err(d), Some(want @ (Expectation::Missing(_) | Expectation::AskedInstead(_)))) => {
            return question_error_check(d, want, span)
        }
        (Err(d), _) => return Some(eval::at_the_question(d, span)),
    };
    let got = render::headline(p, &outcome);
    let ok = matches!(
        (&expect, &outcome),
        (None, Outcome::Value(value::Value::Bool(true)))
            | (Some(Expectation::Refused), Outcome::Refused { .. })
            | (Some(Expectation::NotGiven), Outcome::NotGiven { .. })
    );
    if ok {
        return None;
    }
    let want = match &expect {
        None => "true".to_string(),
        Some(Expectation::Refused) => "a refusal".to_string(),
        Some(Expectation::NotGiven) => "\"not given in the source\"".to_string(),
        Some(w) => expected_error(w),
    };
    Some(
        Diag::at(
            Code::TestFailed,
            "example does not hold",
            span,
            format!("gave {got}"),
        )
        .help(format!("expected {want}")),
    )
}

/// What `is missing NAME` / `is asked instead CALLEE` expect, in words.
fn expected_error(want: &Expectation) -> String {
    match want {
        Expectation::Missing(n) => format!("the error that `{n}` is needed and not given"),
        Expectation::AskedInstead(c) => format!("the error that `{c}(...)` is to be asked instead"),
        _ => String::new(),
    }
}

/// `EXPR is missing NAME` / `EXPR is asked instead CALLEE` against the error `d` the
/// check's expression (at `span`) gave: `None` if it is the one expected.
fn question_error_check(d: Diag, want: &Expectation, span: span::Span) -> Option<Diag> {
    let holds = match want {
        Expectation::Missing(n) => eval::missing_param(&d) == Some(n.as_str()),
        Expectation::AskedInstead(c) => eval::asked_instead(&d) == Some(c.as_str()),
        _ => false,
    };
    if holds {
        return None;
    }
    Some(
        Diag::at(
            Code::TestFailed,
            "example does not hold",
            span,
            format!("gave the error {}: {}", d.code, d.message),
        )
        .help(format!("expected {}", expected_error(want))),
    )
}

#[cfg(test)]
mod tests;

/// Each member of a group in `v` (a record of the state, at `path`): (the group's path,
/// the member's name), groups within records looked into a few levels down.
fn group_members(v: &value::Value, path: &str, depth: u32, out: &mut Vec<(String, String)>) {
    const MAX_MEMBERS: usize = 10_000;
    let value::Value::Record(fields) = v else {
        return;
    };
    for (name, field) in fields.iter() {
        let here = if path.is_empty() {
            name.to_string()
        } else {
            format!("{path}.{name}")
        };
        match field {
            value::Value::Group(members) => {
                for (m, _) in members.iter().take(MAX_MEMBERS.saturating_sub(out.len())) {
                    out.push((here.clone(), m.to_string()));
                }
            }
            value::Value::Record(_) if depth < 3 => group_members(field, &here, depth + 1, out),
            _ => {}
        }
    }
}
