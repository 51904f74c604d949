//! `:roll`: faces queued for the next adjudication, in order (`:roll 7 3`) or for a
//! roll by its name (`:roll attacker_roll=4`); and, after it, which it used and dropped.

use super::{Io, Session};
use crate::game::QueueUse;

impl Session {
    /// `:roll 7 3` queues faces, `:roll attacker_roll=4` a face for the roll of that
    /// name; `:roll` shows the queue, `:roll clear` empties it.
    pub(super) fn roll(&mut self, arg: &str, io: &mut dyn Io) -> bool {
        if arg == "clear" {
            self.game.clear_queue();
            io.err("no rolls queued\n");
            return true;
        }
        let mut rolls = Vec::new();
        let mut named = Vec::new();
        for w in arg.split(|c: char| c == ',' || c.is_whitespace()) {
            if w.is_empty() {
                continue;
            }
            let (name, face) = match w.split_once('=') {
                Some((n, f)) if crate::names::is_name(n) => (Some(n), f),
                Some(_) => {
                    io.err(&format!(
                        "error: `{w}` is not a roll by name: write NAME=FACE, `:roll attacker_roll=4`\n"
                    ));
                    return false;
                }
                None => (None, w),
            };
            match face.parse::<i64>() {
                // 0 is a D10's 10; on another die the game refuses it when it is used.
                Ok(n) if n >= 0 => match name {
                    Some(name) => named.push((name, n)),
                    None => rolls.push(n),
                },
                Ok(n) => {
                    io.err(&format!(
                        "error: {n} is not a roll: a die shows 1 or more (0 on a D10 reads as 10)\n"
                    ));
                    return false;
                }
                Err(_) => {
                    io.err(&format!(
                        "error: `{w}` is not a roll: write the faces, `:roll 7 3` or `:roll 7,3`, or a roll by name, `:roll attacker_roll=4`\n"
                    ));
                    return false;
                }
            }
        }
        // `:roll attacker_roll=4,` or `:roll 3,,4`: a comma with no face beside it is a
        // slip (a face left out?), as separators with no faces at all are.
        let gap = arg.contains(',') && arg.split(',').any(|p| p.trim().is_empty());
        if gap && !(rolls.is_empty() && named.is_empty()) {
            io.err(&format!(
                "error: `:roll {arg}` has a comma with no face beside it: was a face left out? write the faces between commas, `:roll 7,3` or `:roll attacker_roll=4,defender_roll=3`\n"
            ));
            return false;
        }
        if rolls.is_empty() && named.is_empty() && !arg.is_empty() {
            io.err("error: no faces given: write the faces the dice show, `:roll 7 3` or `:roll 7,3`\n");
            return false;
        }
        if rolls.is_empty() && named.is_empty() {
            match self.queued() {
                q if q.is_empty() => io.out("no rolls queued\n"),
                q => io.out(&format!("queued: {q}\n")),
            }
            return true;
        }
        self.game.queue(&rolls);
        for (name, face) in named {
            self.game.queue_named(name, face);
        }
        io.err(&format!(
            "queued for the next adjudication: {}\n",
            self.queued()
        ));
        true
    }

    /// The queue in words: the faces in order, then those for a roll by name
    /// (`7, 3, attacker_roll=4`).
    fn queued(&self) -> String {
        let mut all: Vec<String> = self.game.queued().iter().map(i64::to_string).collect();
        all.extend(
            self.game
                .queued_named()
                .iter()
                .map(|(n, f)| format!("{n}={f}")),
        );
        all.join(", ")
    }
}

/// Which queued faces an adjudication used, and which it dropped; a face queued for a
/// name no roll made has is said to be so, with the name meant if it is close.
pub(super) fn queue_note(q: Option<&QueueUse>, io: &mut dyn Io) {
    let Some(q) = q else { return };
    let used = if q.used.is_empty() {
        "none".to_string()
    } else {
        join(&q.used)
    };
    let mut dropped: Vec<String> = q.dropped.iter().map(i64::to_string).collect();
    dropped.extend(q.dropped_named.iter().map(|(n, f)| format!("{n}={f}")));
    if dropped.is_empty() {
        io.err(&format!("queued rolls used: {used}\n"));
        return;
    }
    io.err(&format!(
        "queued rolls used: {used}; not used, and dropped: {}\n",
        dropped.join(", ")
    ));
    let mut told: Vec<&str> = Vec::new();
    for (name, _) in &q.dropped_named {
        if q.made.contains(name) || told.contains(&name.as_str()) {
            continue;
        }
        told.push(name);
        let made: Vec<String> = q.made.iter().map(|n| format!("`{n}`")).collect();
        let rolls = if made.is_empty() {
            "no roll made has a name".to_string()
        } else {
            format!("the named rolls were {}", made.join(", "))
        };
        let meant = crate::diagnostic::closest(name, q.made.iter().map(String::as_str))
            .map_or(String::new(), |m| format!(": did you mean `{m}`?"));
        io.err(&format!(
            "no roll named `{name}` was made; {rolls}{meant}\n"
        ));
    }
}

fn join(v: &[i64]) -> String {
    v.iter()
        .map(|n| n.to_string())
        .collect::<Vec<_>>()
        .join(", ")
}
