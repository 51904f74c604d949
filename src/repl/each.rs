//! `:each NAME=PATH EXPR`: a question asked of every member of a group, as `umpire eval
//! --each` asks it on the command line — `:each u=brigade manoeuvre(u)`.
//!
//! EXPR is checked once, with NAME standing for a member (and `NAME_name` for its name),
//! so a mistake is shown once, against the line as typed. Then each member's question
//! is asked of the game as if typed — `manoeuvre(brigade.guard_grenadiers)` — so the dice
//! are asked for (at the table) or rolled member by member, each is logged as a typed
//! question is and is a result of the game, and the last one is the last result.
//! Faces queued with `:roll` run on from one member to the next.
//!
//! Effects are never dropped: each member's question is put as a typed one is, so when
//! a member's question may change the state while the effects of the member before it
//! are not yet applied, the umpire is asked at a keyboard (apply them, drop them, or
//! stop) and a script gets the error that says `:apply` or `:drop` them — `:each` stops
//! there, the members after it not adjudicated. Nothing is applied for the umpire.

use super::session::{Io, Session};
use crate::adjudication::Adjudication;
use crate::diagnostic::{Code, Diag, Diags};
use crate::game::{Failure, Game, Refusal};
use crate::program::ExprKind;
use crate::render::report_text;

/// How to write `:each`, for its errors.
const USAGE: &str = "write `:each NAME=PATH EXPR`, e.g. `:each u=brigade manoeuvre(u)`";

/// `:each NAME=PATH EXPR`: the question for each member of the group, each result printed
/// under the member's name. Returns whether every member was adjudicated.
///
/// Errors: the argument is not `NAME=PATH EXPR`; no state; PATH is not a group of the
/// state, or EXPR does not check; a member's adjudication fails (the members after it
/// are not asked).
pub fn each(session: &mut Session, arg: &str, io: &mut dyn Io) -> Result<bool, Failure> {
    let (name, path, expr) = parts(arg).map_err(|why| {
        Failure::from(Diags::from(
            Diag::error(Code::CliEach, format!("`:each` {why}")).help(USAGE),
        ))
    })?;
    if session.game.state().is_none() {
        return Err(Refusal::NoState.into());
    }
    let questions = questions(&session.game, name, path, expr)?;
    if questions.is_empty() {
        io.err(&format!(
            "`{path}` has no members on the table: nothing to adjudicate\n"
        ));
        return Ok(true);
    }
    let mut queued = session.game.queued().to_vec();
    let mut named = session.game.queued_named().to_vec();
    session.game.clear_queue();
    let mut used: Vec<i64> = Vec::new();
    for (member, text) in &questions {
        if crate::cancel::requested() {
            // Ctrl-C between members: those done stay done, the rest are not asked.
            io.err(&format!(
                "`:each` stopped before {member}: the members after it are not adjudicated\n"
            ));
            return Err(Failure::from(Diags::from(crate::cancel::cancelled())));
        }
        session.game.queue(&queued);
        for (name, face) in &named {
            session.game.queue_named(name, *face);
        }
        let stopped = |io: &mut dyn Io| {
            io.err(&format!(
                "`:each` stopped at {member} (`{text}`): the members after it are not adjudicated\n"
            ));
        };
        let done = match session.adjudicate_guarded(text, false, io) {
            Ok(Some(done)) => done,
            Ok(None) => {
                stopped(io);
                return Ok(false);
            }
            Err(f) => {
                stopped(io);
                return Err(f);
            }
        };
        if let Some(q) = done.queue {
            used.extend(q.used);
            queued = q.dropped;
            named = q.dropped_named;
        }
        io.out(&under(member, &session.game, &done.adjudication));
    }
    if !used.is_empty() || !queued.is_empty() || !named.is_empty() {
        let list = |v: &[i64]| v.iter().map(i64::to_string).collect::<Vec<_>>().join(", ");
        let mut note = format!("queued rolls used: {}", list(&used));
        let mut dropped = list(&queued);
        for (name, face) in &named {
            let sep = if dropped.is_empty() { "" } else { ", " };
            dropped.push_str(&format!("{sep}{name}={face}"));
        }
        if !dropped.is_empty() {
            note.push_str(&format!("; not used, and dropped: {dropped}"));
        }
        io.err(&format!("{note}\n"));
    }
    Ok(true)
}

/// A result printed under its member's name: `second_foot: Tardy — …`, the lines after
/// the first (effects, rolls) indented.
fn under(member: &str, game: &Game, a: &Adjudication) -> String {
    let text = report_text(game.program(), a);
    let mut out = String::new();
    for (i, line) in text.lines().enumerate() {
        if i == 0 {
            out.push_str(&format!("{member}: {line}\n"));
        } else {
            out.push_str(&format!("  {line}\n"));
        }
    }
    out
}

/// `NAME=PATH EXPR` taken apart, or why it cannot be.
fn parts(arg: &str) -> Result<(&str, &str, &str), String> {
    let (spec, expr) = arg
        .split_once(char::is_whitespace)
        .map_or((arg, ""), |(a, b)| (a, b.trim()));
    let Some((name, path)) = spec.split_once('=') else {
        return Err("takes NAME=PATH first, and there is no `=`".into());
    };
    let (name, path) = (name.trim(), path.trim());
    if !crate::names::is_name(name) {
        return Err(format!(
            "needs a name to stand for each member, not `{name}`"
        ));
    }
    if path.is_empty() {
        return Err("needs the group after `=`: `u=brigade`".into());
    }
    if expr.is_empty() {
        return Err("needs the question to ask of each member after NAME=PATH".into());
    }
    Ok((name, path, expr))
}

/// Each member of the group at `path` and the question `expr` asks of it, written out
/// as the umpire would type it: NAME replaced by the member's path
/// (`brigade.second_foot`) and `NAME_name` by its name in quotes.
///
/// Errors: `path` is not a group of the state; `expr` does not check with NAME bound.
fn questions(
    game: &Game,
    name: &str,
    path: &str,
    expr: &str,
) -> Result<Vec<(String, String)>, Failure> {
    let (q, members) = game
        .ruleset()
        .question_each("<input>", expr, name, path)
        .map_err(|ds| {
            Diags(
                ds.0.into_iter()
                    .map(|mut d| {
                        if d.code == Code::CliEach {
                            d.help = Some(format!("`:each NAME=PATH EXPR` takes a group of the state as PATH, e.g. `:each u={}`", group_example(game)));
                        }
                        d
                    })
                    .collect(),
            )
        })?;
    // Where NAME (slot 0) and `NAME_name` (slot 1) are written in `expr`.
    let mut at: Vec<(usize, usize, bool)> = Vec::new();
    let mut stack = vec![&q.expr];
    while let Some(e) = stack.pop() {
        match e.kind {
            ExprKind::Fresh { .. } => continue,
            ExprKind::Local(slot @ (0 | 1)) => {
                let (s, t) = (e.span.start as usize, e.span.end as usize);
                let word = if slot == 0 {
                    name.to_string()
                } else {
                    format!("{name}_name")
                };
                if expr.get(s..t) == Some(word.as_str()) {
                    at.push((s, t, slot == 1));
                }
            }
            _ => {}
        }
        e.for_each_child(|c| stack.push(c));
    }
    at.sort_unstable();
    at.dedup();
    let plain = |s: &str| s.split('.').all(crate::names::is_name);
    let group = if plain(path) {
        path.to_string()
    } else {
        format!("({path})")
    };
    Ok(members
        .iter()
        .map(|(member, _)| {
            let whole = if crate::names::is_name(member) {
                format!("{group}.{member}")
            } else {
                format!("{group}[\"{member}\"]")
            };
            let mut text = String::with_capacity(expr.len());
            let mut from = 0;
            for &(s, t, is_name) in &at {
                text.push_str(&expr[from..s]);
                if is_name {
                    text.push_str(&format!("\"{member}\""));
                } else {
                    text.push_str(&whole);
                }
                from = t;
            }
            text.push_str(&expr[from..]);
            (member.to_string(), text)
        })
        .collect())
}

/// A group of the state to name in a help (`brigade`), else `units`.
fn group_example(game: &Game) -> String {
    let p = game.program();
    p.state
        .and_then(|s| p.records.get(s as usize))
        .and_then(|r| {
            r.shape
                .fields
                .iter()
                .find(|(_, t)| matches!(t, crate::program::Ty::Group(_)))
                .map(|(n, _)| n.to_string())
        })
        .unwrap_or_else(|| "units".into())
}

#[cfg(test)]
mod tests {
    use super::parts;

    #[test]
    fn the_argument_is_name_path_and_question() {
        assert_eq!(
            parts("u=brigade manoeuvre(u)"),
            Ok(("u", "brigade", "manoeuvre(u)"))
        );
        assert!(parts("brigade manoeuvre(u)").is_err());
        assert!(parts("1=brigade manoeuvre(u)").is_err());
        assert!(parts("u= manoeuvre(u)").is_err());
        assert!(parts("u=brigade").is_err());
    }
}
