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
pub fn is_state_path(rules: &Ruleset, name: &str) -> bool {
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
    let rows = run_many(rules, expr, std::slice::from_ref(sweep), settings)?;
    Ok(rows
        .into_iter()
        .map(|(mut at, d)| (at.pop().unwrap_or_default(), d))
        .collect())
}

/// Most rows of several sweeps together (every combination of their values).
pub const MAX_ROWS: usize = 10_000;

/// How one sweep sets its values: as a free name of the expression (its local's index
/// and values), or as a path into the state (the effects of each value's `set`).
enum Swept {
    Free(usize, Vec<Value>),
    State(Vec<Vec<crate::adjudication::Effect>>),
}

/// The odds of `expr` for every combination of the sweeps' values, in order (the first
/// sweep outermost, the last changing fastest): one row per combination, with the value
/// of each sweep as written.
///
/// Errors: the expression or a value does not check; a state path with no state loaded;
/// a name swept twice; more than [`MAX_ROWS`] combinations.
pub fn run_many(
    rules: &Ruleset,
    expr: &str,
    sweeps: &[Sweep],
    settings: &Settings,
) -> Result<Vec<(Vec<String>, Distribution)>, Diags> {
    prepare(rules, "<expression>", expr, sweeps)?.run(settings)
}

/// Sweeps checked against a question, ready to run: [`prepare`].
pub struct Prepared<'a> {
    rules: &'a Ruleset,
    sweeps: &'a [Sweep],
    query: crate::program::Query,
    how: Vec<Swept>,
    free: usize,
    combos: usize,
}

/// Checks the sweeps and the question `expr` (named `origin` in its errors) with the
/// swept free names bound, working out each state path's `set` once.
///
/// Errors: as [`run_many`], but for the odds.
pub fn prepare<'a>(
    rules: &'a Ruleset,
    origin: &str,
    expr: &str,
    sweeps: &'a [Sweep],
) -> Result<Prepared<'a>, Diags> {
    for (i, sw) in sweeps.iter().enumerate() {
        if sweeps[..i].iter().any(|x| x.name == sw.name) {
            return Err(Diag::error(
                Code::ProbSweep,
                format!("--sweep {}: swept twice; give its values once", sw.name),
            )
            .help(format!(
                "write all its values in one --sweep, e.g. --sweep {}=1..6 or --sweep {}=a,b,c",
                sw.name, sw.name
            ))
            .into());
        }
    }
    let combos = sweeps
        .iter()
        .try_fold(1usize, |n, sw| n.checked_mul(sw.values.len()))
        .filter(|n| *n <= MAX_ROWS);
    let Some(combos) = combos else {
        return Err(Diag::error(
            Code::ProbSweep,
            format!("the sweeps together give more than {MAX_ROWS} combinations"),
        )
        .help("sweep fewer values, or fewer names at once")
        .into());
    };
    let mut free: Vec<(String, Ty)> = Vec::new();
    let mut how: Vec<Swept> = Vec::new();
    for sw in sweeps {
        if is_state_path(rules, &sw.name) {
            if rules.state.is_none() {
                return Err(Diag::error(
                    Code::ProbSweep,
                    format!(
                        "--sweep {}: a path into the game state, and no state is loaded",
                        sw.name
                    ),
                )
                .help("give the state: --state FILE")
                .into());
            }
            // Each value's `set`, checked as `:set` is; its effects applied per row.
            let mut effects = Vec::new();
            for v in &sw.values {
                let text = format!("set {} = {v}", sw.name);
                let set = rules.question_set(SourceFile::new("<--sweep>", text))?;
                let a = rules.adjudicate(&set, &mut Given::new(vec![]), rules.options())?;
                effects.push(a.effects);
            }
            how.push(Swept::State(effects));
            continue;
        }
        let is_name = sw
            .name
            .chars()
            .next()
            .is_some_and(|c| c.is_alphabetic() || c == '_')
            && sw.name.chars().all(|c| c.is_alphanumeric() || c == '_');
        if !is_name {
            return Err(Diag::error(
                Code::ProbSweep,
                format!(
                    "--sweep {}: not a name (letters, digits and `_`), nor a path into the game state",
                    sw.name
                ),
            )
            .into());
        }
        let (ty, values) = free_values(rules, sw)?;
        how.push(Swept::Free(free.len(), values));
        free.push((sw.name.clone(), ty));
    }
    let q = if free.is_empty() {
        rules.question(origin, expr)?
    } else {
        rules.question_with(origin, expr, &free)?
    };
    // A name the expression never reads would give the same row for every value.
    let mut used = vec![false; free.len()];
    q.expr.walk(&mut |e| {
        if let crate::program::ExprKind::Local(i) = e.kind {
            if let Some(u) = used.get_mut(i as usize) {
                *u = true;
            }
        }
    });
    if let Some(i) = used.iter().position(|u| !u) {
        let name = &free[i].0;
        return Err(Diag::error(
            Code::ProbSweep,
            format!(
                "--sweep {name}: `{name}` is not used in the expression, nor a path into the game state"
            ),
        )
        .help(format!(
            "write `{name}` where the value goes, e.g. `leader_cp: {name}`, or sweep a state path (`brigade.second_foot.leader_cp=0..3`, with --state)"
        ))
        .into());
    }
    Ok(Prepared {
        rules,
        sweeps,
        query: q,
        how,
        free: free.len(),
        combos,
    })
}

impl Prepared<'_> {
    /// The odds for every combination of the sweeps' values, in order (the first sweep
    /// outermost): a row each, with the value of each sweep as written.
    ///
    /// Errors: the odds of a row cannot be worked out ([`odds`]); a value's `set`
    /// cannot be applied to the state.
    pub fn run(&self, settings: &Settings) -> Result<Vec<(Vec<String>, Distribution)>, Diags> {
        let Prepared {
            rules,
            sweeps,
            query: q,
            how,
            free,
            combos,
        } = self;
        let (rules, sweeps, free, combos) = (*rules, *sweeps, *free, *combos);
        let mut rows = Vec::with_capacity(combos);
        // Each sweep's value index, the last changing fastest.
        let mut at = vec![0usize; sweeps.len()];
        for _ in 0..combos {
            let mut locals = vec![Value::Bool(false); free];
            let mut state = rules.state.clone();
            for (h, &i) in how.iter().zip(&at) {
                match h {
                    Swept::Free(j, values) => locals[*j] = values[i].clone(),
                    Swept::State(effects) => {
                        if let Some(s) = &state {
                            state = Some(crate::state::apply(s, &effects[i])?);
                        }
                    }
                }
            }
            let job = Job {
                state: state.as_ref(),
                locals: &locals,
                ..Job::of(rules, q)
            };
            let values: Vec<String> = sweeps
                .iter()
                .zip(&at)
                .map(|(sw, &i)| sw.values[i].clone())
                .collect();
            // An error of one row is the sweep's: it says which row.
            let d = odds(&job, settings).map_err(|d| {
                let row: Vec<String> = sweeps
                    .iter()
                    .zip(&values)
                    .map(|(sw, v)| format!("{} = {v}", sw.name))
                    .collect();
                let mut d = d;
                d.message = format!("at {}: {}", row.join(", "), d.message);
                Diags::from(d)
            })?;
            rows.push((values, d));
            // The next combination.
            for k in (0..at.len()).rev() {
                at[k] += 1;
                if at[k] < sweeps[k].values.len() {
                    break;
                }
                at[k] = 0;
            }
        }
        Ok(rows)
    }
}
