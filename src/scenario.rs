//! Scenarios — the batch main job: a TOML file naming a ruleset and a list of
//! adjudications, each with its own dice (a seed or given rolls) and, optionally, the
//! expected result written as an umpire expression.
//!
//! ```toml
//! ruleset = "little_wars"          # a bundled name, or a path relative to this file
//! title = "Wells's worked examples"
//!
//! [[adjudication]]
//! name = "Nine against eleven"
//! expr = 'melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)'
//! expect = '{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }'
//! # seed = 7          or    rolls = [3, 5]
//! ```
//!
//! Expressions are TOML literal strings (single quotes) so inch marks need no escaping;
//! errors in them point into the scenario file. `expect` may also be `refused` or
//! `not given`.

use crate::adjudication::{Adjudication, Outcome};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::dice::{DiceSource, Given, Seeded};
use crate::eval::Options;
use crate::limits::Limits;
use crate::program::compatible;
use crate::program::Ty;
use crate::render::{adjudication_json, explain, headline};
use crate::span::{SourceFile, Span};
use crate::Ruleset;
use serde::Deserialize;
use std::path::Path;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ScenarioFile {
    ruleset: toml::Spanned<String>,
    /// A game state file, relative to the scenario.
    state: Option<toml::Spanned<String>>,
    title: Option<String>,
    /// Readings of the ruleset's interpretations: `interpret = { forage_part_six = "fractions_rule" }`.
    #[serde(default)]
    interpret: std::collections::BTreeMap<String, String>,
    #[serde(default, rename = "adjudication")]
    adjudications: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    expr: toml::Spanned<String>,
    seed: Option<u64>,
    rolls: Option<toml::Spanned<Vec<i64>>>,
    expect: Option<toml::Spanned<String>>,
    /// Apply the adjudication's effects to the state before the next one.
    #[serde(default)]
    apply: bool,
}

/// One adjudication of a scenario, done.
#[derive(Debug)]
pub struct Done {
    /// Its name.
    pub name: String,
    /// The expression as written.
    pub expr: String,
    /// The result, or the error that stopped it.
    pub result: Result<Adjudication, Diag>,
    /// `Some(true)` if it matched its `expect`, `Some(false)` if not, `None` if none given.
    pub expected: Option<bool>,
    /// The expected result as printed, when given.
    pub expectation: Option<String>,
    /// Whether its effects were applied to the state.
    pub applied: bool,
    /// Its dice: the rolls it gives, else the seed it rolls from (a game log records
    /// them, so that one that failed replays with the same dice).
    pub dice: Option<DoneDice>,
}

/// Where an adjudication of a scenario took its dice from.
#[derive(Debug, Clone)]
pub enum DoneDice {
    /// The rolls it gives (`rolls = [...]`).
    Given(Vec<i64>),
    /// The seed it rolls from (its own `seed`, or a fresh one).
    Seed(u64),
}

/// A scenario, run.
#[derive(Debug)]
pub struct Report {
    /// The scenario's title.
    pub title: Option<String>,
    /// The ruleset it ran against.
    pub ruleset: Ruleset,
    /// The ruleset's name as given.
    pub ruleset_name: String,
    /// The ruleset as loaded: a bundled name, or the path from where umpire was run.
    pub ruleset_path: String,
    /// The state before the first adjudication.
    pub start_state: Option<crate::value::Value>,
    /// The state file it read (`state = ...`, made a path from here) and its text, which
    /// `run --write-state` edits to write the state after (its comments kept).
    pub state_file: Option<(String, String)>,
    /// Each adjudication in order.
    pub done: Vec<Done>,
}

fn toml_error(src: &SourceFile, file: crate::span::FileId, e: &toml::de::Error) -> Diag {
    let msg = e.message().trim().to_string();
    let mut d = Diag::error(Code::ScenarioFormat, format!("scenario file: {msg}"));
    if let Some(r) = e.span() {
        let end = if r.end > r.start {
            r.end
        } else {
            (r.start + 1).min(src.text.len())
        };
        d = d.label(Span::new(file, r.start, end), msg);
    }
    let d = d.help("a scenario has `ruleset = \"...\"`, optionally `state = \"FILE\"`, and `[[adjudication]]` tables with `name` and `expr` (and optional `seed`, `rolls`, `expect`, `apply`)");
    let d = d.help("write expressions in single quotes, `expr = '6\" + 1\"'`; one with a foot mark (') in triple quotes, `expr = '''12' + 6\"'''`");
    if src.name.ends_with(".rules") {
        return d.help("this looks like a ruleset: `umpire run` takes a scenario (.toml); check a ruleset with `umpire check`, try it with `umpire eval`");
    }
    d
}

/// The normalised byte range of a TOML string's contents, if it can be read in place
/// (a literal string, or a basic string without escapes).
fn content_range(text: &str, start: usize, end: usize) -> Option<(usize, usize)> {
    let raw = text.get(start..end)?;
    for q in ["'''", "\"\"\""] {
        if raw.starts_with(q) && raw.ends_with(q) && raw.len() >= 6 {
            if q == "\"\"\"" && raw.contains('\\') {
                return None;
            }
            let mut s = start + 3;
            if text[s..].starts_with('\n') {
                s += 1;
            }
            return Some((s, end - 3));
        }
    }
    if (raw.starts_with('\'') || (raw.starts_with('"') && !raw.contains('\\'))) && raw.len() >= 2 {
        return Some((start + 1, end - 1));
    }
    None
}

/// A scenario's game state (its path, relative to the scenario made absolute) and its
/// adjudications (name, expression), without running them (`umpire diff` runs them
/// under two rulesets).
///
/// Errors: the file cannot be read (or is larger than `limits.file_bytes`) or is not a
/// scenario.
pub fn entries(path: &str, limits: &Limits) -> Result<Plan, Diags> {
    let text = crate::files::read_file(path, limits)?;
    let src = SourceFile::new(path, text);
    let mut scratch = crate::span::SourceMap::default();
    let (sfile, _) = scratch.add(src.clone());
    let parsed: ScenarioFile = toml::from_str(&src.text)
        .map_err(|e| Diags(vec![toml_error(&src, sfile, &e).with_sources(&scratch)]))?;
    let base = Path::new(path).parent().unwrap_or(Path::new(""));
    let state = parsed
        .state
        .as_ref()
        .map(|s| base.join(s.get_ref()).to_string_lossy().into_owned());
    let list = parsed
        .adjudications
        .iter()
        .map(|e| {
            let expr = e
                .expr
                .get_ref()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ");
            (e.name.clone(), expr)
        })
        .collect();
    Ok(Plan {
        state,
        interpret: parsed.interpret.into_iter().collect(),
        adjudications: list,
    })
}

/// A scenario's state file and adjudications, not yet run.
#[derive(Debug, Clone)]
pub struct Plan {
    /// The state file (relative to the scenario, made a path from here).
    pub state: Option<String>,
    /// Readings chosen (interpretation, reading).
    pub interpret: Vec<(String, String)>,
    /// Each adjudication: its name, its expression.
    pub adjudications: Vec<(String, String)>,
}

/// Loads and runs a scenario file within `limits` (the scenario, its ruleset and its
/// state read, and its adjudications run, within them).
///
/// Errors: an unreadable or malformed scenario, or a ruleset that does not load. Errors
/// in one adjudication are reported in its [`Done`] and the rest still run.
pub fn run(path: &str, trace: bool, limits: &Limits) -> Result<Report, Diags> {
    let text = crate::files::read_file(path, limits)?;
    let src = SourceFile::new(path, text);
    let mut scratch = crate::span::SourceMap::default();
    let (sfile, _) = scratch.add(src.clone());
    let attach = |d: Diag| Diags(vec![d.with_sources(&scratch)]);
    let parsed: ScenarioFile =
        toml::from_str(&src.text).map_err(|e| attach(toml_error(&src, sfile, &e)))?;
    let name = parsed.ruleset.get_ref().clone();
    let (mut ruleset, target, state_file) = load(path, &parsed, sfile, &scratch, limits)?;
    let start_state = ruleset.state.clone();
    // The scenario joins a copy of the ruleset's sources, so spans in it render.
    let mut sources = ruleset.sources.clone();
    let (sfile, _) = sources.add(src.clone());
    let scenario = Scenario {
        path,
        src: &src,
        file: sfile,
        sources,
        trace,
    };
    let done = parsed
        .adjudications
        .iter()
        .map(|entry| scenario.entry(&mut ruleset, entry))
        .collect();
    Ok(Report {
        title: parsed.title,
        ruleset,
        ruleset_name: name,
        ruleset_path: target,
        start_state,
        state_file,
        done,
    })
}

/// A state file read: its path and its text.
type StateFile = (String, String);

/// The scenario's ruleset, with its readings chosen and its state loaded, the path
/// (or bundled name) it was loaded from, and the state file read (its path and text).
/// Its errors point at the scenario's lines too (`sfile` in `scratch`).
fn load(
    path: &str,
    parsed: &ScenarioFile,
    sfile: crate::span::FileId,
    scratch: &crate::span::SourceMap,
    limits: &Limits,
) -> Result<(Ruleset, String, Option<StateFile>), Diags> {
    let name = parsed.ruleset.get_ref().clone();
    let base = Path::new(path).parent().unwrap_or(Path::new(""));
    // A bundled name, else a path relative to the scenario file.
    let is_path = crate::bundled::source(&name).is_none();
    let target = if is_path {
        base.join(&name).to_string_lossy().into_owned()
    } else {
        name.clone()
    };
    let mut ruleset = Ruleset::load_with(&target, limits).map_err(|ds| {
        let r = parsed.ruleset.span();
        let mut v = ds.0;
        v.push(
            Diag::at(
                Code::ScenarioRuleset,
                format!("the scenario's ruleset `{name}` did not load"),
                Span::new(sfile, r.start, r.end),
                "this ruleset",
            )
            .with_sources(scratch),
        );
        Diags(v)
    })?;

    for (name, reading) in &parsed.interpret {
        ruleset
            .interpret(name, reading)
            .map_err(|d| Diags(vec![d]))?;
    }
    let mut state_file = None;
    if let Some(state) = &parsed.state {
        let at = base.join(state.get_ref()).to_string_lossy().into_owned();
        let loaded = crate::files::read_file(&at, limits).and_then(|text| {
            let v = crate::state::load_text(&ruleset.program, &ruleset.sources, &at, text.clone())?;
            Ok((v, text))
        });
        let (v, text) = loaded.map_err(|ds| {
            // Point at the `state = ...` line too, as for the ruleset.
            let r = state.span();
            let mut v = ds.0;
            v.push(
                Diag::at(
                    Code::ScenarioState,
                    format!("the scenario's state `{}` did not load", state.get_ref()),
                    Span::new(sfile, r.start, r.end),
                    "this state file",
                )
                .with_sources(scratch),
            );
            Diags(v)
        })?;
        ruleset.state = Some(v);
        state_file = Some((at, text));
    }
    Ok((ruleset, target, state_file))
}

/// A scenario file being run: where it is, its text, and how.
struct Scenario<'a> {
    path: &'a str,
    src: &'a SourceFile,
    /// The scenario among `sources`.
    file: crate::span::FileId,
    /// The ruleset's sources and the scenario.
    sources: crate::span::SourceMap,
    trace: bool,
}

impl Scenario<'_> {
    /// The text of one value of an entry (`what`: `expr`, `expect`) as a source of its
    /// own, at its place in the scenario where it can be found.
    fn piece(&self, entry: &Entry, s: &toml::Spanned<String>, what: &str) -> SourceFile {
        let r = s.span();
        match content_range(&self.src.text, r.start, r.end) {
            Some((a, b)) => self.src.masked(a, b),
            None => SourceFile::new(
                format!("{}: {} {what}", self.path, entry.name),
                s.get_ref().as_str(),
            ),
        }
    }

    /// Runs one adjudication of the scenario; its effects, when it applies them, change
    /// the state for the ones after it.
    fn entry(&self, ruleset: &mut Ruleset, entry: &Entry) -> Done {
        let expr_text = entry
            .expr
            .get_ref()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        let done = |result, expected, expectation, applied, dice| Done {
            name: entry.name.clone(),
            expr: expr_text.clone(),
            result,
            expected,
            expectation,
            applied,
            dice,
        };
        if let (Some(rolls), Some(_)) = (&entry.rolls, entry.seed) {
            let r = rolls.span();
            let d = Diag::at(
                Code::ScenarioDice,
                format!("\"{}\" gives both `rolls` and `seed`", entry.name),
                Span::new(self.file, r.start, r.end),
                "which dice?",
            )
            .help("use `rolls` for dice the players rolled, or `seed` for seeded dice, not both");
            let result = Err(d.with_sources(&self.sources));
            return done(result, None, None, false, None);
        }
        if let Some(exp) = &entry.expect {
            if let Some(d) = malformed_error_expected(exp.get_ref()) {
                let r = exp.span();
                let d = Diag::at(
                    Code::ScenarioExpectType,
                    d,
                    Span::new(self.file, r.start, r.end),
                    "not one of these forms",
                )
                .help("e.g. `expect = 'missing men'` (the needed parameter left out), `expect = 'asked instead crossing_cost'` (the rule or table its `instead` names)");
                return done(
                    Err(d.with_sources(&self.sources)),
                    Some(false),
                    None,
                    false,
                    None,
                );
            }
        }
        // Given rolls, else the entry's seed, else a fresh seed that is reported.
        let seed = entry.seed.unwrap_or_else(crate::dice::fresh_seed);
        let dice = Some(match &entry.rolls {
            Some(r) => DoneDice::Given(r.get_ref().clone()),
            None => DoneDice::Seed(seed),
        });
        let (result, expr_ty) = self.adjudicate(ruleset, entry, seed);
        let asked_error = entry
            .expect
            .as_ref()
            .and_then(|e| error_expected(e.get_ref()));
        let (expected, expectation) = match (&entry.expect, &result) {
            (Some(_), _) if asked_error.is_some() => {
                let want = asked_error.unwrap_or_default();
                let got = result.as_ref().err().and_then(|d| {
                    crate::eval::missing_param(d)
                        .map(|n| format!("missing {n}"))
                        .or_else(|| {
                            crate::eval::asked_instead(d).map(|c| format!("asked instead {c}"))
                        })
                });
                (
                    Some(got.as_deref() == Some(want.as_str())),
                    Some(format!("'{want}'")),
                )
            }
            (Some(exp), Ok(a)) => {
                let piece = self.piece(entry, exp, "expect");
                match expectation(ruleset, &piece, exp.get_ref(), expr_ty.as_ref()) {
                    Ok(want) => met(ruleset, &want, a),
                    Err(d) => return done(Err(d), Some(false), None, false, dice),
                }
            }
            (Some(_), Err(_)) => (Some(false), None),
            _ => (None, None),
        };
        let (result, applied) = apply(ruleset, entry.apply, result);
        done(result, expected, expectation, applied, dice)
    }

    /// The entry's expression adjudicated with its dice (given rolls, else `seed`), and
    /// its type when it compiled.
    fn adjudicate(
        &self,
        ruleset: &Ruleset,
        entry: &Entry,
        seed: u64,
    ) -> (Result<Adjudication, Diag>, Option<Ty>) {
        let mut expr_ty = None;
        let result = ruleset
            .question_from(self.piece(entry, &entry.expr, "expr"))
            .map_err(first)
            .and_then(|q| {
                expr_ty = Some(q.ty.clone());
                let mut seeded = Seeded::new(seed);
                let mut given = Given::new(
                    entry
                        .rolls
                        .as_ref()
                        .map(|r| r.get_ref().clone())
                        .unwrap_or_default(),
                );
                let dice: &mut dyn DiceSource = match &entry.rolls {
                    Some(rolls) => {
                        given.span =
                            Some(Span::new(self.file, rolls.span().start, rolls.span().end));
                        &mut given
                    }
                    None => &mut seeded,
                };
                let a = ruleset.adjudicate(
                    &q,
                    dice,
                    Options {
                        trace: self.trace,
                        ..ruleset.options()
                    },
                )?;
                // (The seeded source records its seed in `a` itself.)
                Ok(a)
            });
        (result, expr_ty)
    }
}

/// `expect = 'missing men'` / `'asked instead crossing_cost'`: the error of the question
/// expected, its words made regular (`missing men`); `None` for any other expectation.
fn error_expected(raw: &str) -> Option<String> {
    let words: Vec<&str> = raw.split_whitespace().collect();
    match words.as_slice() {
        ["missing", name] => Some(format!("missing {name}")),
        ["asked", "instead", callee] => Some(format!("asked instead {callee}")),
        _ => None,
    }
}

/// `expect = 'missing'`, `'missing y z'`, `'asked instead'`, `'asked x'`: words of an
/// error of the question not in its form; what the error says.
fn malformed_error_expected(raw: &str) -> Option<String> {
    let words: Vec<&str> = raw.split_whitespace().collect();
    let ident = |w: &str| {
        w.split('.').all(|p| {
            p.chars()
                .next()
                .is_some_and(|c| c.is_alphabetic() || c == '_')
                && p.chars().all(|c| c.is_alphanumeric() || c == '_')
        })
    };
    match words.as_slice() {
        ["missing", name] if ident(name) && !name.contains('.') => None,
        ["asked", "instead", callee] if ident(callee) => None,
        ["missing", ..] => Some(format!(
            "`expect = 'missing NAME'` names one parameter (the needed one the question leaves out): `{}` is not that form",
            words.join(" ")
        )),
        ["asked", ..] => Some(format!(
            "`expect = 'asked instead RULE'` names one rule or table (the one its `instead` names): `{}` is not that form",
            words.join(" ")
        )),
        _ => None,
    }
}

/// Whether adjudication `a` gives the outcome wanted, and the wanted outcome as text.
fn met(ruleset: &Ruleset, want: &Outcome, a: &Adjudication) -> (Option<bool>, Option<String>) {
    let ok = match (want, &a.outcome) {
        (Outcome::Value(w), Outcome::Value(v)) => w.same(v),
        (Outcome::Refused { .. }, Outcome::Refused { .. }) => true,
        (Outcome::NotGiven { .. }, Outcome::NotGiven { .. }) => true,
        _ => false,
    };
    let text = match want {
        Outcome::Refused { .. } => "a refusal".to_string(),
        Outcome::NotGiven { .. } => "\"not given in the source\"".to_string(),
        Outcome::Value(_) => headline(&ruleset.program, want),
    };
    (Some(ok), Some(text))
}

/// With `apply`, an adjudication's effects change the state for the adjudications after
/// it: the result (an error if they cannot be applied) and whether they were.
fn apply(
    ruleset: &mut Ruleset,
    apply: bool,
    mut result: Result<Adjudication, Diag>,
) -> (Result<Adjudication, Diag>, bool) {
    let mut applied = false;
    if let (true, Ok(a)) = (apply, &result) {
        match (&ruleset.state, a.effects.is_empty()) {
            (_, true) => {}
            (Some(state), false) => match crate::state::apply(state, &a.effects) {
                Ok(next) => {
                    ruleset.state = Some(next);
                    applied = true;
                }
                Err(d) => result = Err(d),
            },
            (None, false) => {}
        }
    }
    (result, applied)
}

fn first(ds: Diags) -> Diag {
    ds.0.into_iter()
        .next()
        .unwrap_or_else(|| Diag::error(Code::ScenarioFormat, "unknown error"))
}

fn expectation(
    ruleset: &Ruleset,
    src: &SourceFile,
    raw: &str,
    result_ty: Option<&Ty>,
) -> Result<Outcome, Diag> {
    match raw
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .as_str()
    {
        "refused" => {
            return Ok(Outcome::Refused {
                reason: String::new(),
                cite: None,
            })
        }
        "not given" => {
            return Ok(Outcome::NotGiven {
                what: String::new(),
                cite: None,
            })
        }
        _ => {}
    }
    let q = ruleset.question_from(src.clone()).map_err(first)?;
    // The expectation is compared as `==` would compare it: values of two kinds are a
    // mistake in the scenario, not a result that differs.
    if let Some(got) = result_ty {
        if !compatible(&q.ty, got) && !compatible(got, &q.ty) {
            let (want, have) = (
                q.ty.describe(&ruleset.program),
                got.describe(&ruleset.program),
            );
            return Err(Diag::at(
                Code::ScenarioExpectType,
                format!("`expect` is {want}, but the adjudication gives {have}"),
                q.expr.span,
                format!("this is {want}"),
            )
            .with_sources(&q.sources));
        }
    }
    let a = ruleset.adjudicate(&q, &mut NoRolls, ruleset.options())?;
    Ok(a.outcome)
}

/// Dice for an `expect`: there are none; the expected result is written out.
struct NoRolls;

impl DiceSource for NoRolls {
    fn roll(&mut self, req: &crate::dice::DiceRequest<'_>, _: &mut Vec<u32>) -> Result<i64, Diag> {
        Err(Diag::at(
            Code::ScenarioExpectDice,
            "an expected result cannot roll dice",
            req.span,
            "dice in `expect`",
        )
        .help("write the result you expect, e.g. `expect = '7'`; the `rolls` belong to `expr`"))
    }
}

/// The report as text: each adjudication with its value, expectation and explanation.
pub fn render_text(r: &Report, trace: bool) -> String {
    let mut out = String::new();
    let title = r
        .ruleset
        .program
        .title
        .clone()
        .unwrap_or_else(|| r.ruleset_name.clone());
    match &r.title {
        Some(t) => out.push_str(&format!("{t} ({title})\n")),
        None => out.push_str(&format!("{title}\n")),
    }
    for (i, d) in r.done.iter().enumerate() {
        out.push_str(&format!("\n{}. {}\n   {}\n", i + 1, d.name, d.expr));
        match &d.result {
            Ok(a) => {
                out.push_str(&format!(
                    "   = {}\n",
                    headline(&r.ruleset.program, &a.outcome)
                ));
                for line in crate::render::effects_text(&r.ruleset.program, &a.effects).lines() {
                    out.push_str(&format!("   {line}\n"));
                }
                if d.applied {
                    out.push_str("   (effects applied to the state)\n");
                }
                if !a.rolls.is_empty() {
                    out.push_str(&format!(
                        "   rolls: {}\n",
                        crate::render::rolls_text(&a.rolls)
                    ));
                }
                if let Some(seed) = a.seed {
                    out.push_str(&format!("   seed: {seed}\n"));
                }
                match (d.expected, &d.expectation) {
                    (Some(true), _) => out.push_str("   as expected\n"),
                    (Some(false), Some(e)) => {
                        out.push_str(&format!("   NOT AS EXPECTED: expected {e}\n"))
                    }
                    _ => {}
                }
                if trace {
                    if let Some(t) = a.trace.as_ref().filter(|t| !t.is_empty()) {
                        out.push_str("   why:\n");
                        for line in explain(&r.ruleset.program, t).lines() {
                            out.push_str(&format!("     {line}\n"));
                        }
                    }
                }
            }
            Err(e) => {
                out.push_str(&format!("   error: {e}\n"));
                match (d.expected, &d.expectation) {
                    (Some(true), _) => out.push_str("   as expected\n"),
                    (Some(false), Some(e)) if error_expected(e.trim_matches('\'')).is_some() => {
                        out.push_str(&format!("   NOT AS EXPECTED: expected {e}\n"))
                    }
                    _ => {}
                }
            }
        }
    }
    let errors = r
        .done
        .iter()
        .filter(|d| d.result.is_err() && d.expected != Some(true))
        .count();
    let as_expected = r.done.iter().filter(|d| d.expected == Some(true)).count();
    let not_expected = r
        .done
        .iter()
        .filter(|d| d.result.is_ok() && d.expected == Some(false))
        .count();
    let plural = |n: usize, one: &str, many: &str| {
        if n == 1 {
            format!("1 {one}")
        } else {
            format!("{n} {many}")
        }
    };
    out.push_str(&format!(
        "\n{}: {} as expected, {} not as expected, {}\n",
        plural(r.done.len(), "adjudication", "adjudications"),
        as_expected,
        not_expected,
        plural(errors, "error", "errors"),
    ));
    out
}

/// The report as JSON.
pub fn render_json(r: &Report) -> serde_json::Value {
    let items: Vec<serde_json::Value> = r
        .done
        .iter()
        .map(|d| {
            let mut m = serde_json::Map::new();
            m.insert("name".into(), d.name.clone().into());
            m.insert("expr".into(), d.expr.clone().into());
            match &d.result {
                Ok(a) => {
                    if let serde_json::Value::Object(o) = adjudication_json(&r.ruleset.program, a) {
                        m.extend(o);
                    }
                }
                Err(e) => {
                    m.insert("error".into(), crate::eval::diag_json(e));
                }
            }
            if let Some(x) = d.expected {
                m.insert("as_expected".into(), x.into());
            }
            if d.applied {
                m.insert("applied".into(), true.into());
            }
            serde_json::Value::Object(m)
        })
        .collect();
    serde_json::json!({ "title": r.title, "ruleset": r.ruleset_name, "adjudications": items })
}

/// True if every adjudication ran and met its expectation.
pub fn all_ok(r: &Report) -> bool {
    r.done
        .iter()
        .all(|d| (d.result.is_ok() || d.expected == Some(true)) && d.expected != Some(false))
}
