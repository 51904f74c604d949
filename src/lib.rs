//! # umpire
//!
//! A rules language and its interpreter for tabletop wargames: a rulebook's tables and
//! procedures are written as a plain-text ruleset, and questions are adjudicated
//! against it with the reasons shown, citing the rulebook.
//!
//! ```
//! use umpire::{Ruleset, dice::Given, eval::Options, adjudication::{headline, explain}};
//!
//! let mut rules = Ruleset::bundled("little_wars").expect("bundled ruleset checks");
//! let q = rules
//!     .compile("<doc>", "melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)")
//!     .expect("expression checks");
//! let a = rules.adjudicate(&q, &mut Given::new(vec![]), Options { trace: true, ..Options::default() })
//!     .expect("no error");
//! assert_eq!(
//!     headline(&rules.program, &a.outcome),
//!     "{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }"
//! );
//! println!("{}", explain(a.trace.as_deref().unwrap_or(&[])));
//! ```
//!
//! Phases, one module each: [`syntax`] (text → AST) → [`check`] (AST → [`program::Program`])
//! → [`eval`] (program + dice → [`adjudication::Adjudication`]). [`cli`] is a thin face.
//! A game at the table (the state, the dice, results applied and undone, the game log) is a
//! [`game::Game`]; the REPL ([`repl`]) and `umpire replay` ([`gamelog::replay`]) play one.

#![forbid(unsafe_code)]
#![warn(missing_docs)]
#![cfg_attr(not(test), warn(clippy::unwrap_used))]

pub mod adjudication;
pub mod bundled;
pub mod check;
pub mod cli;
pub mod diagnostic;
pub mod dice;
pub mod diff;
pub mod eval;
pub mod extend;
pub mod game;
pub mod gamelog;
pub mod limits;
pub mod prob;
pub mod program;
pub mod repl;
pub mod scenario;
pub mod span;
pub mod state;
pub mod syntax;
pub mod value;

use adjudication::{Adjudication, Outcome};
use diagnostic::{Diag, Diags};
use dice::{DiceSource, Given, Seeded};
use program::{ExprKind, Program, Query};
use span::SourceFile;
use syntax::ast::{BinOp, Expectation};

/// A loaded, checked ruleset.
#[derive(Debug, Clone)]
pub struct Ruleset {
    /// The checked program (and every source loaded into it).
    pub program: Program,
    /// The game state adjudications read, once loaded (`load_state`).
    pub state: Option<value::Value>,
}

impl Ruleset {
    /// Parses and checks ruleset source text named `name` (a path, `bundled:NAME`).
    ///
    /// Errors: every syntax and check error, with the source attached for rendering.
    pub fn from_source(name: &str, text: &str) -> Result<Ruleset, Diags> {
        let mut program = Program::default();
        let file = program.sources.add(SourceFile::new(name, text));
        let most = limits::current().file_bytes;
        if text.len() as u64 > most {
            return Err(Diags(vec![too_big(name, most)]));
        }
        // A house rule or an edition is read on top of the ruleset it extends.
        let ast = extend::parse_tree(&mut program, file, name, 0)?;
        check::check_file(&mut program, &ast).map_err(|d| d.with_sources(&program.sources))?;
        program.ruleset_files = program.sources.files().len();
        let warnings = std::mem::take(&mut program.warnings);
        program.warnings = warnings
            .into_iter()
            .map(|d| d.with_sources(&program.sources))
            .collect();
        Ok(Ruleset {
            program,
            state: None,
        })
    }

    /// A bundled ruleset by name (`little_wars`, `kriegspiel`).
    pub fn bundled(name: &str) -> Result<Ruleset, Diags> {
        match bundled::source(name) {
            Some(text) => Ruleset::from_source(&format!("bundled:{name}"), text),
            None => Err(Diag::error(
                "umpire::cli::unknown_ruleset",
                format!("no bundled ruleset `{name}`"),
            )
            .suggest(name, bundled::names())
            .into()),
        }
    }

    /// A bundled name, or else a path to a ruleset file.
    ///
    /// Errors: an unreadable file (with the bundled names listed), or the ruleset's own.
    pub fn load(name_or_path: &str) -> Result<Ruleset, Diags> {
        let looks_like_path = name_or_path.contains(['/', '\\', '.']);
        if !looks_like_path {
            if bundled::source(name_or_path).is_some() {
                return Ruleset::bundled(name_or_path);
            }
            if !std::path::Path::new(name_or_path).exists() {
                let with_ext = format!("{name_or_path}.rules");
                let d = Diag::error(
                    "umpire::cli::unknown_ruleset",
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
        let text = read_file(name_or_path)?;
        Ruleset::from_source(name_or_path, &text)
    }

    /// Loads a game state file (TOML) checked against the ruleset's `state` declaration;
    /// adjudications read it from then on.
    ///
    /// Errors: every field that does not fit, at its place in the file.
    pub fn load_state(&mut self, path: &str) -> Result<(), Diags> {
        self.state = Some(state::load(&mut self.program, path)?);
        Ok(())
    }

    /// Compiles an expression typed by a user (command line, REPL) named `origin`.
    pub fn compile(&mut self, origin: &str, text: &str) -> Result<Query, Diags> {
        let file = self.program.sources.add(SourceFile::new(origin, text));
        self.compile_in(file, &[])
    }

    /// Compiles `set PATH = EXPR` (`+=`, `-=`) typed by a user (`source` may be masked
    /// to the part after `:`, so carets point into the line as typed): a query whose one
    /// effect is that change to the game state.
    ///
    /// Errors: a syntax error, a path that is not in the state, a value that does not fit.
    pub fn compile_set(&mut self, source: SourceFile) -> Result<Query, Diags> {
        let file = self.program.sources.add(source);
        let normalised = self
            .program
            .sources
            .get(file)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let stmt = syntax::parse_set(file, &normalised)
            .map_err(|d| Diags::from(d).with_sources(&self.program.sources))?;
        let len = u32::try_from(normalised.len()).unwrap_or(u32::MAX);
        check::check_set_query(
            &mut self.program,
            &stmt,
            span::Span::new(file, 0, len as usize),
        )
        .map_err(|d| d.with_sources(&self.program.sources))
    }

    /// Compiles `text` with each of `bound` (name, type) a local, in slots 0, 1, ... in
    /// that order (a swept name: `--sweep m=-9..8`).
    ///
    /// Errors: the expression's own.
    pub fn compile_with(
        &mut self,
        origin: &str,
        text: &str,
        bound: &[(String, program::Ty)],
    ) -> Result<Query, Diags> {
        let file = self.program.sources.add(SourceFile::new(origin, text));
        self.compile_in(file, bound)
    }

    /// Compiles the expression held in `source` (e.g. a scenario file masked to one
    /// expression, so that carets point into the scenario).
    pub fn compile_source(&mut self, source: SourceFile) -> Result<Query, Diags> {
        let file = self.program.sources.add(source);
        self.compile_in(file, &[])
    }

    /// Compiles `text` with `name` bound to a member of the group that `group` (an
    /// expression, e.g. `units`) evaluates to, and `name_name` to the member's name (a
    /// text, for rules that change the member: `take_losses(u_name, 7)`); returns the
    /// query and the members.
    ///
    /// Errors: `group` is not a group of the state, or either expression is wrong.
    pub fn compile_each(
        &mut self,
        origin: &str,
        text: &str,
        name: &str,
        group: &str,
    ) -> Result<(Query, value::Members), Diags> {
        let g = self.compile(&format!("{origin} (--each)"), group)?;
        let program::Ty::Group(member) = g.ty.clone() else {
            let what = g.ty.describe(&self.program);
            return Err(Diag::at(
                "umpire::cli::each",
                format!("`{group}` is {what}, not a group of the state"),
                g.expr.span,
                "not a group",
            )
            .help("--each NAME=PATH takes a group of the state, e.g. --each u=units")
            .with_sources(&self.program.sources)
            .into());
        };
        let a = self.adjudicate(&g, &mut Given::new(vec![]), eval::Options::default())?;
        let members = match a.outcome {
            Outcome::Value(value::Value::Group(m)) => m.as_ref().clone(),
            _ => Vec::new(),
        };
        let file = self.program.sources.add(SourceFile::new(origin, text));
        // The member's name is `NAME_name`, for rules that change it: `set units[name]...`.
        let bound = [
            (name.to_string(), *member),
            (format!("{name}_name"), program::Ty::Text),
        ];
        let q = self.compile_in(file, &bound)?;
        Ok((q, members))
    }

    /// Adjudicates `q` for the member `name` whose value is `bound` (see `compile_each`).
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
        .map_err(|d| d.with_sources(&self.program.sources))
    }

    /// Parses and checks the expression in `file`, with `bound` names as its first locals.
    fn compile_in(
        &mut self,
        file: span::FileId,
        bound: &[(String, program::Ty)],
    ) -> Result<Query, Diags> {
        let text = self
            .program
            .sources
            .get(file)
            .map(|f| f.text.clone())
            .unwrap_or_default();
        let ast = syntax::parse_expr(file, &text)
            .map_err(|d| Diags::from(d).with_sources(&self.program.sources))?;
        check::check_query_with(&mut self.program, &ast, bound)
            .map_err(|d| d.with_sources(&self.program.sources))
    }

    /// Adjudicates a compiled query.
    ///
    /// Errors: arithmetic, limits, dice (with the source attached).
    pub fn adjudicate(
        &self,
        q: &Query,
        dice: &mut dyn DiceSource,
        opts: eval::Options,
    ) -> Result<Adjudication, Diag> {
        eval::adjudicate(&self.program, q, dice, opts, self.state.as_ref())
            .map_err(|d| d.with_sources(&self.program.sources))
    }

    /// Chooses a reading of an ambiguous rule (`--interpret NAME=READING`): adjudications
    /// go by it from now on, and their explanations name it.
    ///
    /// Errors: no such interpretation or reading (with what there is).
    pub fn interpret(&mut self, name: &str, reading: &str) -> Result<(), Diag> {
        let (i, r) = program::find_reading(&self.program, name, reading)
            .map_err(|m| Diag::error("umpire::cli::interpret", m))?;
        if let Some(c) = self.program.chosen.get_mut(i as usize) {
            *c = Some(r);
        }
        Ok(())
    }

    /// Runs every `example` block; one result per check.
    pub fn run_examples(&self) -> Vec<ExampleResult> {
        let mut out = Vec::new();
        for ex in &self.program.examples {
            // An example that pins readings is read with them.
            let pinned;
            let program = if ex.readings.is_empty() {
                &self.program
            } else {
                let mut p = self.program.clone();
                for &(i, r) in &ex.readings {
                    if let Some(c) = p.chosen.get_mut(i as usize) {
                        *c = Some(r);
                    }
                }
                pinned = p;
                &pinned
            };
            let mut given = Given::new(ex.rolls.iter().map(|(r, _)| *r).collect());
            let mut seeded = ex.seed.map(Seeded::new);
            let mut dice_failed = false;
            let no_dice = ex.rolls.is_empty() && ex.seed.is_none();
            for (i, chk) in ex.checks.iter().enumerate() {
                let dice: &mut dyn DiceSource = match &mut seeded {
                    Some(s) => s,
                    None => &mut given,
                };
                let failure = run_check(program, &chk.query, chk.expect, dice, no_dice);
                dice_failed |= failure
                    .as_ref()
                    .is_some_and(|d| d.code.starts_with("umpire::dice::"));
                out.push(ExampleResult {
                    example: ex.name.clone(),
                    check: self.program.sources.snippet(chk.span).to_string(),
                    failure: failure.map(|d| d.with_sources(&self.program.sources)),
                    index: i,
                });
            }
            // Rolls left over after a dice error are its echo, not a second failure.
            if seeded.is_none() && !dice_failed {
                if let Err(d) = given.finish() {
                    let d = d
                        .label(ex.span, "in this example")
                        .with_sources(&self.program.sources);
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

/// The error for a file over the size limit.
fn too_big(name: &str, most: u64) -> Diag {
    Diag::error(
        "umpire::limit::file_size",
        format!(
            "{name} is larger than {}, the limit on a file's size",
            limits::bytes_text(most)
        ),
    )
    .help("the limit is set by --max-file-size BYTES")
}

/// Reads a file as UTF-8 text, refusing files over the file-size limit
/// ([`limits::Limits::file_bytes`]).
pub fn read_file(path: &str) -> Result<String, Diags> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Diag::error("umpire::io::read", format!("cannot read {path}: {e}")))?;
    let most = limits::current().file_bytes;
    if meta.len() > most {
        return Err(too_big(path, most).into());
    }
    if meta.is_dir() {
        return Err(Diag::error(
            "umpire::io::read",
            format!("{path} is a folder, not a file"),
        )
        .into());
    }
    // Read at most one byte past the limit: a device or pipe reports no size.
    let mut bytes = Vec::new();
    let file = std::fs::File::open(path)
        .map_err(|e| Diag::error("umpire::io::read", format!("cannot read {path}: {e}")))?;
    use std::io::Read;
    file.take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| Diag::error("umpire::io::read", format!("cannot read {path}: {e}")))?;
    if bytes.len() as u64 > most {
        return Err(too_big(path, most).into());
    }
    String::from_utf8(bytes).map_err(|e| {
        Diag::error(
            "umpire::io::encoding",
            format!(
                "{path} is not UTF-8 text (bad byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
        .help("save the file as UTF-8")
        .into()
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
            "umpire::dice::no_dice",
            format!("this rolls `{}`, but no rolls or seed are given", req.text),
            req.span,
            "rolls dice",
        )
        .help("add `given rolls ...` or `seed N` to the example"))
    }
}

/// Runs one check: `None` if it holds, else why not.
pub fn run_check(
    p: &Program,
    q: &Query,
    expect: Option<Expectation>,
    dice: &mut dyn DiceSource,
    no_dice: bool,
) -> Option<Diag> {
    let mut nodice = NoDice;
    let dice: &mut dyn DiceSource = if no_dice { &mut nodice } else { dice };
    let opts = eval::Options::default();
    let span = q.expr.span;
    // `A == B`: evaluate both sides, so a failure shows what each gave.
    if let (None, ExprKind::Binary(BinOp::Eq, a, b)) = (expect, &q.expr.kind) {
        let mut ev = eval::Evaluator::new(p, dice, opts);
        let mut frame = vec![value::Value::Bool(false); q.slots as usize];
        let left = ev.eval(a, &mut frame);
        let left = match ev.outcome(left) {
            Ok(o) => o,
            Err(d) => return Some(d),
        };
        let right = ev.eval(b, &mut frame);
        let right = match ev.outcome(right) {
            Ok(o) => o,
            Err(d) => return Some(d),
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
        let text = |o: &Outcome| adjudication::headline(p, o);
        return Some(
            Diag::at(
                "umpire::test::failed",
                "example does not hold",
                span,
                format!("gave {}", text(&left)),
            )
            .help(format!("expected {}", text(&right))),
        );
    }
    // Given rolls run on across the checks of an example: no `finish` here.
    let mut ev = eval::Evaluator::new(p, dice, opts);
    let mut frame = vec![value::Value::Bool(false); q.slots as usize];
    let r = ev.eval(&q.expr, &mut frame);
    let outcome = match ev.outcome(r) {
        Ok(o) => o,
        Err(d) => return Some(d),
    };
    let got = adjudication::headline(p, &outcome);
    let ok = matches!(
        (expect, &outcome),
        (None, Outcome::Value(value::Value::Bool(true)))
            | (Some(Expectation::Refused), Outcome::Refused { .. })
            | (Some(Expectation::NotGiven), Outcome::NotGiven { .. })
    );
    if ok {
        return None;
    }
    let want = match expect {
        None => "true".to_string(),
        Some(Expectation::Refused) => "a refusal".to_string(),
        Some(Expectation::NotGiven) => "\"not given in the source\"".to_string(),
    };
    Some(
        Diag::at(
            "umpire::test::failed",
            "example does not hold",
            span,
            format!("gave {got}"),
        )
        .help(format!("expected {want}")),
    )
}
