//! Results in words, for people: the headline, effects, rolls and the indented
//! explanation citing the rulebook.

use super::{modifier_label, named, params, reading, show, show_arg, table_row};
use crate::adjudication::{
    Adjudication, Applied, Arg, Effect, Gave, Outcome, Roll, Stop, TraceNode,
};
use crate::program::Program;
use crate::value::{Mixed, Rational, Value};
use std::fmt::Write as _;

/// The dice rolled, as a line shows them: `D10 → 7, 2d6 → 4 + 5 = 9` (several dice each
/// face, then their sum); a modified roll as the umpire reads it out, the die, each
/// amount added and the modified roll: `D10 → 3, +5 = 8`.
pub fn rolls_text(rolls: &[Roll]) -> String {
    rolls_text_marked(rolls, &[])
}

/// [`rolls_text`], with the faces umpire rolled marked as umpire's: `umpire[i]` is how
/// many of roll `i`'s faces umpire rolled (its last ones; the rest were given), and a
/// roll past the list's end has none: `D10 → 3 (rolled by umpire), +5 = 8`, `2d6 → 3 + 4
/// = 7 (umpire rolled the 4)`.
pub fn rolls_text_marked(rolls: &[Roll], umpire: &[usize]) -> String {
    rolls
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let by = umpire.get(i).copied().unwrap_or(0).min(r.faces.len());
            let mark = if by == 0 {
                String::new()
            } else if by == r.faces.len() {
                " (rolled by umpire)".to_string()
            } else {
                let faces: Vec<String> = r.faces[r.faces.len() - by..]
                    .iter()
                    .map(|f| format!("the {f}"))
                    .collect();
                format!(" (umpire rolled {})", faces.join(" and "))
            };
            let faces = if r.faces.len() > 1 {
                let each: Vec<String> = r.faces.iter().map(u32::to_string).collect();
                format!("{} = ", each.join(" + "))
            } else {
                String::new()
            };
            let named = r.name.as_ref().map_or(String::new(), |n| format!("{n}: "));
            let mut text = format!("{named}{} → {faces}{}{mark}", r.dice, r.total);
            if let Some(m) = r.modified {
                for a in &r.modifiers {
                    text.push_str(&format!(", {}", signed(*a, true)));
                }
                text.push_str(&format!(" = {}", Mixed(m)));
            }
            text
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// An adjudication as `umpire eval` prints it (and the REPL, each value on its own
/// line): the result, its effects (`effect: PATH: FROM → TO`), then either the dice
/// rolled (`rolls: D10 → 7`) or, when traced, the whole explanation.
pub fn report_text(p: &Program, a: &Adjudication) -> String {
    report_text_marked(p, a, &[])
}

/// [`report_text`], with umpire's dice marked on the `rolls:` line (see
/// [`rolls_text_marked`]).
pub fn report_text_marked(p: &Program, a: &Adjudication, umpire: &[usize]) -> String {
    let mut out = format!("{}\n", headline(p, &a.outcome));
    out.push_str(&effects_text(p, &a.effects));
    match &a.trace {
        Some(t) => out.push_str(&explain(p, t)),
        None if !a.rolls.is_empty() => {
            out.push_str(&format!("rolls: {}\n", rolls_text_marked(&a.rolls, umpire)));
        }
        None => {}
    }
    out
}

/// One effect in words: `units.old_guard.men: 20 → 13`.
fn effect_text(p: &Program, e: &Effect) -> String {
    format!(
        "{}: {} → {}",
        e.path_text(),
        show(p, &e.from),
        show(p, &e.to)
    )
}

/// The effects as lines: `effect: units.old_guard.men: 20 → 13`.
pub fn effects_text(p: &Program, effects: &[Effect]) -> String {
    effects
        .iter()
        .map(|e| format!("effect: {}\n", effect_text(p, e)))
        .collect()
}

/// The first line of `umpire eval`: the value (an enum value with the rulebook's
/// sentence), `refused: reason (cite)`, or `not given in the source: what (cite)`.
pub fn headline(p: &Program, o: &Outcome) -> String {
    let cited = |c: &Option<String>| c.as_ref().map(|c| format!(" [{c}]")).unwrap_or_default();
    match o {
        Outcome::Value(Value::Enum(e, i)) => match p.enum_value(*e, *i) {
            Some(info) => match &info.sentence {
                Some(s) => format!("{} — {s}", info.display.as_deref().unwrap_or(&info.name)),
                None => show(p, &Value::Enum(*e, *i)),
            },
            None => "?".into(),
        },
        Outcome::Value(v) => show(p, v),
        Outcome::Refused { reason, cite } => format!("refused: {reason}{}", cited(cite)),
        Outcome::NotGiven { what, cite } => {
            format!("not given in the source: {what}{}", cited(cite))
        }
    }
}

/// The trace as an indented explanation, two spaces per level.
pub fn explain(p: &Program, trace: &[TraceNode]) -> String {
    let mut out = String::new();
    for n in trace {
        write_node(p, n, 0, &mut out);
    }
    out
}

/// A traced call's arguments: `order: disorder, men: 0 (default)`.
fn args_text(p: &Program, node: &TraceNode, args: &[Arg]) -> String {
    named(params(p, node), args)
        .map(|(name, a)| {
            let d = if a.default { " (default)" } else { "" };
            if a.left_out {
                return format!("{name}: not given");
            }
            match &a.name {
                Some(n) => format!("{name}: {n}{d}"),
                None => format!("{name}: {}{d}", show_arg(p, &a.value)),
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What a traced call gave, in words.
fn gave_text(p: &Program, g: &Gave) -> String {
    match g {
        Ok(v) => show(p, v),
        Err(Stop::Refused { reason, .. }) => format!("refused: {reason}"),
        Err(Stop::NotGiven { what, .. }) => format!("not given in the source: {what}"),
        Err(Stop::Error) => "error".into(),
    }
}

/// Inner steps, then `= result` — unless the last step already says it (a refusal).
fn write_steps(p: &Program, steps: &[TraceNode], result: &Gave, depth: usize, out: &mut String) {
    for s in steps {
        write_node(p, s, depth + 1, out);
    }
    if !matches!(
        steps.last(),
        Some(TraceNode::Refused { .. } | TraceNode::NotGiven { .. })
    ) {
        let _ = writeln!(out, "{}  = {}", "  ".repeat(depth), gave_text(p, result));
    }
}

/// `  [cite]` after a line, or nothing.
fn cited<S: AsRef<str>>(c: Option<S>) -> String {
    c.map(|c| format!("  [{}]", c.as_ref())).unwrap_or_default()
}

/// `+1`, `-2`, `0`: a signed amount (`+` when `plus_zero` and it is 0, as a modifier's
/// own amount is written; a total of 0 is written `0`).
fn signed(r: Rational, plus_zero: bool) -> String {
    let zero = Rational::from_integer(0);
    let sign = if r > zero || (plus_zero && r == zero) {
        "+"
    } else {
        ""
    };
    format!("{sign}{}", Mixed(r))
}

/// A modifier list's lines: its name, each modifier that applied, the total.
fn write_modifiers(
    p: &Program,
    list: u32,
    applied: &[Applied],
    total: Rational,
    pad: &str,
    out: &mut String,
) {
    let m = p.modifiers.get(list as usize);
    let name = m.map_or("?", |m| &m.sig.name);
    let _ = writeln!(
        out,
        "{pad}modifiers {name}{}",
        cited(m.and_then(|m| m.sig.cite.as_ref()))
    );
    if applied.is_empty() {
        let _ = writeln!(out, "{pad}  (none applies)");
    }
    for a in applied {
        let amount = signed(a.amount, true);
        let _ = writeln!(out, "{pad}  {amount:<4} {}", modifier_label(p, list, a));
    }
    let _ = writeln!(out, "{pad}  = {}", signed(total, false));
}

fn write_node(p: &Program, n: &TraceNode, depth: usize, out: &mut String) {
    let pad = "  ".repeat(depth);
    match n {
        TraceNode::Rule {
            rule,
            args,
            result,
            steps,
        } => {
            let r = p.rules.get(*rule as usize);
            let name = r.map_or("?", |r| &r.sig.name);
            let cite = cited(r.and_then(|r| r.sig.cite.as_ref()));
            let _ = writeln!(out, "{pad}{name}({}){cite}", args_text(p, n, args));
            write_steps(p, steps, result, depth, out);
        }
        TraceNode::Table {
            table,
            args,
            row,
            result,
            steps,
        } => {
            let (name, row, cite) = match table_row(p, *table, *row) {
                Some((t, r)) => (
                    &*t.sig.name,
                    r.quoted(),
                    cited(r.cite.as_ref().or(t.sig.cite.as_ref())),
                ),
                None => ("?", "`?`".into(), String::new()),
            };
            let _ = writeln!(
                out,
                "{pad}table {name}({}): row {row}{cite}",
                args_text(p, n, args)
            );
            write_steps(p, steps, result, depth, out);
        }
        TraceNode::Modifiers {
            list,
            applied,
            total,
            ..
        } => write_modifiers(p, *list, applied, *total, &pad, out),
        TraceNode::Roll {
            dice,
            name,
            faces,
            total,
            ..
        } => {
            let dice = match name {
                Some(n) => format!("{n} ({dice})"),
                None => dice.to_string(),
            };
            if faces.len() > 1 {
                let faces: Vec<String> = faces.iter().map(|f| f.to_string()).collect();
                let _ = writeln!(out, "{pad}rolled {dice}: {} = {total}", faces.join(" + "));
            } else {
                let _ = writeln!(out, "{pad}rolled {dice}: {total}");
            }
        }
        TraceNode::Note { text } => {
            let _ = writeln!(out, "{pad}note: {text}");
        }
        TraceNode::Fact { text } => {
            let _ = writeln!(out, "{pad}{text}");
        }
        TraceNode::Reading {
            interpretation,
            reading: r,
            chosen,
        } => {
            let (name, words, of) = reading(p, *interpretation, *r);
            let how = if *chosen { "chosen" } else { "the default" };
            let _ = writeln!(
                out,
                "{pad}note: reading `{name}` of `{of}` ({how}): {words}"
            );
        }
        TraceNode::Effect(e) => {
            let _ = writeln!(out, "{pad}note: effect: {}", effect_text(p, e));
        }
        TraceNode::Refused { reason, cite } => {
            let _ = writeln!(out, "{pad}refused: {reason}{}", cited(cite.as_ref()));
        }
        TraceNode::NotGiven { what, cite } => {
            let _ = writeln!(
                out,
                "{pad}not given in the source: {what}{}",
                cited(cite.as_ref())
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{rolls_text, rolls_text_marked};
    use crate::adjudication::Roll;
    use crate::value::Rational;

    fn roll(dice: &str, faces: &[u32], modifiers: &[i64]) -> Roll {
        let total: i64 = faces.iter().map(|&f| i64::from(f)).sum();
        let modifiers: Vec<Rational> = modifiers
            .iter()
            .map(|&m| Rational::from_integer(m))
            .collect();
        let modified = (!modifiers.is_empty()).then(|| {
            modifiers
                .iter()
                .fold(Rational::from_integer(total), |a, m| a + m)
        });
        Roll {
            dice: dice.into(),
            name: None,
            sides: 10,
            faces: faces.to_vec(),
            total,
            modifiers,
            modified,
        }
    }

    #[test]
    fn several_dice_show_each_face_then_their_sum() {
        assert_eq!(
            rolls_text(&[roll("2d10", &[3, 4], &[])]),
            "2d10 → 3 + 4 = 7"
        );
        assert_eq!(rolls_text(&[roll("D10", &[3], &[])]), "D10 → 3");
        assert_eq!(rolls_text(&[roll("D10", &[3], &[5])]), "D10 → 3, +5 = 8");
        assert_eq!(
            rolls_text(&[roll("2 dice", &[3, 4], &[1])]),
            "2 dice → 3 + 4 = 7, +1 = 8"
        );
        assert_eq!(
            rolls_text_marked(
                &[roll("2d6", &[4, 2], &[]), roll("D10", &[3], &[5])],
                &[1, 1]
            ),
            "2d6 → 4 + 2 = 6 (umpire rolled the 2), D10 → 3 (rolled by umpire), +5 = 8"
        );
    }
}
