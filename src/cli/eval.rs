//! `umpire eval RULESET EXPR`: one adjudication (or one per member of a group, with
//! `--each`), as text or JSON.

use super::dice::{parse_roll, Dice, GivenRoll};
use super::{load_with_state, Format};
use crate::diagnostic::{Diag, Diags};
use crate::dice::DiceSource;
use crate::eval::Options;
use crate::limits::Limits;
use crate::render::{adjudication_json, effects_text, explain, headline, report_text};
use crate::Ruleset;
use std::process::ExitCode;

// No doc comment: the subcommand's help is the one written on `Command::Eval`.
#[derive(clap::Args, Debug)]
pub(super) struct Args {
    /// A bundled ruleset name (little_wars, kriegspiel, furious_reason, horse_and_musket) or a path to a .rules file.
    ruleset: String,
    /// The expression, e.g. 'melee(attackers: 11, defenders: 9, attacker_support: 0, defender_support: 0)'.
    #[arg(allow_hyphen_values = true)]
    pub(super) expr: String,
    /// Roll seeded dice (the same seed gives the same rolls everywhere).
    #[arg(long, conflicts_with = "roll")]
    seed: Option<u64>,
    /// Use these rolls, in order, as the players rolled them: --roll 7,3; a roll named
    /// by its `let` takes its own: --roll attacker_roll=4,defender_roll=3.
    #[arg(long, value_delimiter = ',', allow_negative_numbers = true, value_parser = parse_roll)]
    roll: Option<Vec<GivenRoll>>,
    /// Show the explanation.
    #[arg(long)]
    explain: bool,
    /// A game state file (TOML) to adjudicate against.
    #[arg(long)]
    state: Option<String>,
    /// Read an ambiguous rule one way: NAME=READING (repeatable; see the ruleset's
    /// `interpretation`s).
    #[arg(long, value_name = "NAME=READING")]
    pub(super) interpret: Vec<String>,
    /// Adjudicate EXPR once for every member of a group of the state, bound to NAME:
    /// --each u=units (one line per member).
    #[arg(long, value_name = "NAME=PATH", requires = "state")]
    each: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub(super) format: Format,
}

/// Runs `umpire eval`.
pub(super) fn run(args: Args, limits: &Limits) -> Result<ExitCode, Diags> {
    // Left for the process's end to take back: freeing a checked program piece by piece
    // costs more than answering a question.
    let rules = std::mem::ManuallyDrop::new(load_with_state(
        &args.ruleset,
        args.state.as_deref(),
        &args.interpret,
        limits,
    )?);
    let mut dice = Dice::new(args.seed, args.roll);
    if let Some(each) = &args.each {
        return eval_each(
            &rules,
            &args.expr,
            each,
            &mut dice,
            args.explain,
            args.format,
        );
    }
    let q = rules.question("<expression>", &args.expr)?;
    let a = rules.adjudicate(
        &q,
        dice.source(),
        Options {
            trace: args.explain,
            ..rules.options()
        },
    )?;
    match args.format {
        Format::Json => outln!("{}", adjudication_json(&rules.program, &a)),
        Format::Text => {
            out!("{}", report_text(&rules.program, &a));
            if let Some(seed) = a.seed.filter(|_| dice.is_fresh()) {
                errln!("seed: {seed} (replay with --seed {seed})");
            }
        }
    }
    Ok(ExitCode::SUCCESS)
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

/// Why `--each NAME=PATH` cannot be used as written, if it cannot: `(name, path)`.
fn each_parts(each: &str) -> Result<(&str, &str), String> {
    let Some((name, path)) = each.split_once('=') else {
        return Err("there is no `=`".into());
    };
    let (name, path) = (name.trim(), path.trim());
    if !crate::names::is_name(name) {
        return Err(format!("`{name}` is not a name to stand for each member"));
    }
    if path.is_empty() {
        return Err("PATH is empty".into());
    }
    Ok((name, path))
}

/// `--each` in JSON, stopped by an error at `member`: the members answered before it,
/// then the error (also reported on stderr); exit 1.
fn each_error_json(json: Vec<serde_json::Value>, member: &str, d: Diag) -> ExitCode {
    let mut top = serde_json::Map::new();
    top.insert("each".into(), serde_json::Value::Array(json));
    let mut e = crate::eval::diag_json(&d);
    if let serde_json::Value::Object(o) = &mut e {
        o.insert("member".into(), member.into());
    }
    top.insert("error".into(), serde_json::json!([e]));
    outln!("{}", serde_json::Value::Object(top));
    super::report(&Diags(vec![d]));
    ExitCode::from(1)
}

/// `umpire eval ... --each NAME=PATH`: one adjudication per member of the group.
fn eval_each(
    rules: &Ruleset,
    expr: &str,
    each: &str,
    dice: &mut Dice,
    want: bool,
    format: Format,
) -> Result<ExitCode, Diags> {
    let (name, path) = match each_parts(each) {
        Ok(parts) => parts,
        Err(why) => {
            errln!("error: --each takes NAME=PATH, e.g. --each u=units: {why}\n\nFor more information, try '--help'.");
            return Ok(ExitCode::from(2));
        }
    };
    let (q, members) = rules.question_each("<expression>", expr, name, path)?;
    if members.is_empty() {
        errln!("`{path}` has no members: nothing to ask");
    }
    let mut rolled = false;
    // The last refusal (or "not given"), with its member: rolls left over after it were
    // left by it.
    let mut refused = None;
    let mut json = Vec::new();
    {
        let mut source = RunOn(dice.source());
        for (member, value) in members {
            let a = rules
                .adjudicate_bound(
                    &q,
                    &member,
                    value,
                    &mut source,
                    Options {
                        trace: want,
                        ..rules.options()
                    },
                )
                .map_err(|mut d| {
                    // Say which member it was.
                    d.message = format!("{member}: {}", d.message);
                    d
                });
            let a = match a {
                Ok(a) => a,
                Err(d) if format == Format::Json => return Ok(each_error_json(json, &member, d)),
                Err(d) => return Err(Diags(vec![d])),
            };
            rolled |= !a.rolls.is_empty();
            if crate::eval::refused(&a.outcome) {
                refused = Some((member.to_string(), a.outcome.clone()));
            }
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
    dice.finish().map_err(|d| {
        Diags(vec![match &refused {
            Some((member, outcome)) => {
                let mut d = crate::eval::unused_after_refusal(outcome, d, rolled);
                d.message = format!("{member}: {}", d.message);
                d
            }
            None => d,
        }])
    })?;
    let seed = dice.seed().filter(|_| rolled);
    if format == Format::Json {
        let mut top = serde_json::Map::new();
        top.insert("each".into(), serde_json::Value::Array(json));
        if let Some(seed) = seed {
            top.insert("seed".into(), seed.into());
        }
        outln!("{}", serde_json::Value::Object(top));
    } else if let Some(seed) = seed.filter(|_| dice.is_fresh()) {
        errln!("seed: {seed} (replay with --seed {seed})");
    }
    Ok(ExitCode::SUCCESS)
}
