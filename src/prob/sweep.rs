//! Sweeps: the same question asked for each value of one name — a free name in the
//! expression (`--sweep m=-9..8`: the Manoeuvre outcomes for every total modifier) or a
//! path into the game state (`--sweep brigade.second_foot.grade=militia,line,guard`).

use super::{odds, Distribution, Job, Settings};
use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::dice::Given;
use crate::program::Ty;
use crate::span::SourceFile;
use crate::value::Value;
use crate::Ruleset;

/// Most values one sweep takes.
pub const MAX_VALUES: usize = 1000;

/// `NAME=A..B` or `NAME=v1,v2,...`, as typed.
#[derive(Debug, Clone)]
pub struct Sweep {
    /// The name swept: a free name of the expression, or a state path.
    pub name: String,
    /// Each value, as written.
    pub values: Vec<String>,
}

/// Reads `NAME=A..B` (whole numbers, both ends included) or `NAME=v1,v2,...`.
///
/// Errors: no `=`, no values, an empty range, more than [`MAX_VALUES`] values.
pub fn parse(spec: &str) -> Result<Sweep, Diag> {
    let bad = |why: &str| {
        Diag::error(Code::ProbSweep, format!("--sweep {spec}: {why}")).help(
            "write --sweep NAME=A..B (whole numbers, both included) or --sweep NAME=v1,v2,... (names, true/false)",
        )
    };
    let Some((name, values)) = spec.split_once('=') else {
        return Err(bad("no `=`"));
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(bad("no name before `=`"));
    }
    let values = values.trim();
    let range = values
        .split_once("..")
        .and_then(|(a, b)| Some((a.trim().parse::<i64>().ok()?, b.trim().parse::<i64>().ok()?)));
    let list: Vec<String> = match range {
        Some((a, b)) => {
            if b < a {
                return Err(bad(&format!("the range {a}..{b} is empty (low end first)")));
            }
            if u128::from(b.abs_diff(a)) >= MAX_VALUES as u128 {
                return Err(bad(&format!("more than {MAX_VALUES} values")));
            }
            (a..=b).map(|n| n.to_string()).collect()
        }
        None => values
            .split(',')
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect(),
    };
    if list.is_empty() {
        return Err(bad("no values"));
    }
    if list.len() > MAX_VALUES {
        return Err(bad(&format!("more than {MAX_VALUES} values")));
    }
    Ok(Sweep {
        name: name.to_string(),
        values: list,
    })
}

/// The values of a free name, and their type: whole numbers, true/false, or the values
/// of one enum.
fn free_values(rules: &Ruleset, sweep: &Sweep) -> Result<(Ty, Vec<Value>), Diag> {
    if let Some(ns) = sweep
        .values
        .iter()
        .map(|v| v.parse::<i64>().ok())
        .collect::<Option<Vec<_>>>()
    {
        return Ok((Ty::Int, ns.into_iter().map(Value::int).collect()));
    }
    if sweep.values.iter().all(|v| v == "true" || v == "false") {
        return Ok((
            Ty::Bool,
            sweep
                .values
                .iter()
                .map(|v| Value::Bool(v == "true"))
                .collect(),
        ));
    }
    let p = &rules.program;
    let mut enum_id = None;
    let mut out = Vec::new();
    for v in &sweep.values {
        // `Grade.line`: a value named with its enum.
        let found = match v.split_once('.') {
            Some((e, name)) => p
                .enums
                .iter()
                .position(|x| x.name == e)
                .and_then(|i| {
                    let id = crate::value::EnumId::try_from(i).ok()?;
                    let j = p.enums[i].values.iter().position(|x| &*x.name == name)?;
                    Some(vec![(id, u16::try_from(j).ok()?)])
                })
                .unwrap_or_default(),
            None => p.enum_values.get(v.as_str()).cloned().unwrap_or_default(),
        };
        let pick = match (enum_id, found.as_slice()) {
            (_, []) => {
                return Err(Diag::error(
                    Code::ProbSweep,
                    format!(
                        "--sweep {}: `{v}` is not a number, true/false, or a value of an enum",
                        sweep.name
                    ),
                )
                .suggest(v, p.enum_values.keys().map(String::as_str)))
            }
            (None, [one]) => *one,
            (Some(e), many) => match many.iter().find(|(id, _)| *id == e) {
                Some(x) => *x,
                None => {
                    return Err(Diag::error(
                        Code::ProbSweep,
                        format!(
                            "--sweep {}: `{v}` is not a value of the same enum as the others",
                            sweep.name
                        ),
                    ))
                }
            },
            (None, _) => {
                return Err(Diag::error(
                    Code::ProbSweep,
                    format!(
                    "--sweep {}: `{v}` is a value of more than one enum: write it with its enum, `Enum.{v}`",
                    sweep.name
                ),
                ))
            }
        };
        enum_id = Some(pick.0);
        out.push(Value::Enum(pick.0, pick.1));
    }
    let e = enum_id.unwrap_or(0);
    Ok((Ty::Enum(e), out))
}

/// Whether `name` starts with a field of the ruleset's game state.
fn is_state_path(rules: &Ruleset, name: &str) -> bool {
    let root = name.split(['.', '[']).next().unwrap_or(name).trim();
    let p = &rules.program;
    p.state
        .and_then(|s| p.records.get(s as usize))
        .is_some_and(|r| r.shape.fields.iter().any(|(n, _)| &**n == root))
}

/// The odds of `expr` for each value of the sweep, one row per value.
///
/// Errors: the expression or a value does not check; a state path with no state loaded.
pub fn run(
    rules: &Ruleset,
    expr: &str,
    sweep: &Sweep,
    settings: &Settings,
) -> Result<Vec<(String, Distribution)>, Diags> {
    let mut rows = Vec::new();
    if is_state_path(rules, &sweep.name) {
        let Some(start) = rules.state.clone() else {
            return Err(Diag::error(
                Code::ProbSweep,
                format!(
                    "--sweep {}: a path into the game state, and no state is loaded",
                    sweep.name
                ),
            )
            .help("give the state: --state FILE")
            .into());
        };
        let q = rules.question("<expression>", expr)?;
        for v in &sweep.values {
            // The state with the path set to the value, checked as `:set` is.
            let text = format!("set {} = {v}", sweep.name);
            let set = rules.question_set(SourceFile::new("<--sweep>", text))?;
            let a = rules.adjudicate(&set, &mut Given::new(vec![]), rules.options())?;
            let state = crate::state::apply(&start, &a.effects)?;
            let job = Job {
                state: Some(&state),
                ..Job::of(rules, &q)
            };
            rows.push((v.clone(), odds(&job, settings).map_err(Diags::from)?));
        }
        return Ok(rows);
    }
    let is_name = sweep
        .name
        .chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
        && sweep.name.chars().all(|c| c.is_alphanumeric() || c == '_');
    if !is_name {
        return Err(Diag::error(
            Code::ProbSweep,
            format!(
                "--sweep {}: not a name (letters, digits and `_`), nor a path into the game state",
                sweep.name
            ),
        )
        .into());
    }
    let (ty, values) = free_values(rules, sweep)?;
    let q = rules.question_with("<expression>", expr, &[(sweep.name.clone(), ty)])?;
    // A name the expression never reads would give the same row for every value.
    let mut used = false;
    q.expr.walk(&mut |e| {
        if matches!(e.kind, crate::program::ExprKind::Local(0)) {
            used = true;
        }
    });
    if !used {
        return Err(Diag::error(
            Code::ProbSweep,
            format!(
                "--sweep {}: `{}` is not used in the expression, nor a path into the game state",
                sweep.name, sweep.name
            ),
        )
        .help(format!(
            "write `{}` where the value goes, e.g. `leader_cp: {}`, or sweep a state path (`brigade.second_foot.leader_cp=0..3`, with --state)",
            sweep.name, sweep.name
        ))
        .into());
    }
    for (v, value) in sweep.values.iter().zip(values) {
        let locals = [value];
        let job = Job {
            locals: &locals,
            ..Job::of(rules, &q)
        };
        rows.push((v.clone(), odds(&job, settings).map_err(Diags::from)?));
    }
    Ok(rows)
}
