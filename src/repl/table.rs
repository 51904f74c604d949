//! The players' dice at the REPL: each die asked for through the session's [`Io`],
//! several dice of a roll answered at once (`3 4`), a D10's `0` read as 10; and which
//! dice of a result umpire rolled, to mark them as umpire's.

use super::session::Io;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::game::{Adjudicated, DiceMode, Hand, NoFace, TableDice, TableDie};

/// How many faces of each roll of `done` umpire rolled, where they are to be marked
/// as umpire's: when other dice of the result were queued or typed, or the players
/// roll (the mode is table dice) and umpire rolled anyway. Empty: none marked.
pub(super) fn umpire_marks(done: &Adjudicated, mode: &DiceMode) -> Vec<usize> {
    let hands = &done.hands;
    let umpire = hands.iter().filter(|h| **h == Hand::Umpire).count();
    let table = matches!(mode, DiceMode::Table);
    if umpire == 0 || (umpire == hands.len() && !table) {
        return Vec::new();
    }
    let mut at = 0;
    done.adjudication
        .rolls
        .iter()
        .map(|r| {
            let end = (at + r.faces.len()).min(hands.len());
            let by = hands[at.min(end)..end]
                .iter()
                .filter(|h| **h == Hand::Umpire)
                .count();
            at = end;
            by
        })
        .collect()
}

/// The players' dice, asked for through the session's [`Io`]: at a keyboard a wrong
/// answer is asked again; in a script the next line is the answer, right or wrong. An
/// answer may give several dice of one roll at once (`3 4` for a 2d6); those after the
/// first are kept for the dice asked for next.
pub(super) struct AtTable<'a> {
    io: &'a mut dyn Io,
    ask_again: bool,
    /// Faces typed ahead for the rest of the roll written at this place.
    ahead: Option<(crate::span::Span, std::collections::VecDeque<i64>)>,
}

impl<'a> AtTable<'a> {
    /// Asks through `io`; at a keyboard (`ask_again`) a wrong answer is asked again.
    pub(super) fn new(io: &'a mut dyn Io, ask_again: bool) -> Self {
        AtTable {
            io,
            ask_again,
            ahead: None,
        }
    }
}

/// The prompt for one die: the roll as written, the rule rolling it, the input, and
/// what to type.
fn die_prompt(die: &TableDie<'_>) -> String {
    let req = die.request;
    let within = match req.within {
        Some(w) => format!(" for `{w}`"),
        None => String::new(),
    };
    let typed = die.input.split_whitespace().collect::<Vec<_>>().join(" ");
    let zero = if req.sides == 10 {
        " (0 reads as 10)"
    } else {
        ""
    };
    let left = req.count - die.index;
    let what = if req.count == 1 {
        format!("1 to {}{zero}", req.sides)
    } else if die.index == 0 {
        format!(
            "{} dice, each 1 to {}{zero} (all at once, `3 4`, or one at a time)",
            req.count, req.sides
        )
    } else if left == 1 {
        format!("the last die, 1 to {}{zero}", req.sides)
    } else {
        format!(
            "{left} dice left, each 1 to {}{zero} (`3 4`, or one at a time)",
            req.sides
        )
    };
    format!("{}{within} in `{typed}`, {what}: ", req.text)
}

/// The faces an answer gives for the dice asked for (`0` on a D10 read as 10); or why
/// it gives none, in words, with the code of the error it is in a script.
fn read_faces(answer: &str, die: &TableDie<'_>) -> Result<Vec<i64>, (Code, String)> {
    let req = die.request;
    let words: Vec<&str> = answer
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let name = crate::game::one_die(req.sides);
    let zero = if req.sides == 10 {
        " (0 reads as 10)"
    } else {
        ""
    };
    if words.is_empty() {
        return Err((
            Code::DiceBadFace,
            format!("no roll typed: type 1 to {}{zero}", req.sides),
        ));
    }
    let left = (req.count - die.index) as usize;
    if words.len() > left {
        let asked = if die.index == 0 {
            format!("{} asks for {left}", req.text)
        } else {
            format!("{} has {left} left to roll", req.text)
        };
        let most = if left == 1 {
            "one number".to_string()
        } else {
            format!("at most {left} numbers")
        };
        return Err((
            Code::DiceTooManyRolls,
            format!(
                "`{answer}` gives {} dice, and {asked}: type {most}",
                words.len()
            ),
        ));
    }
    words
        .iter()
        .map(|w| match w.parse::<i64>() {
            Ok(f) => Ok(crate::game::face_called(f, req.sides)),
            Err(_) => Err((
                Code::DiceBadFace,
                format!(
                    "`{w}` is not a face of a {name}: type 1 to {}{zero}",
                    req.sides
                ),
            )),
        })
        .collect()
}

impl TableDice for AtTable<'_> {
    fn face(&mut self, die: &TableDie<'_>) -> Result<i64, NoFace> {
        let req = die.request;
        if let Some((span, faces)) = &mut self.ahead {
            if *span == req.span && die.index > 0 {
                if let Some(f) = faces.pop_front() {
                    return Ok(f);
                }
            }
            self.ahead = None;
        }
        let prompt = die_prompt(die);
        loop {
            let Some(answer) = self.io.ask(&prompt) else {
                return Err(NoFace::Cancelled);
            };
            let answer = answer.trim();
            let faces = read_faces(answer, die);
            let fits = |f: &i64| *f >= 1 && *f <= i64::from(req.sides);
            let faces = match faces {
                Ok(fs) if fs.iter().all(fits) => fs,
                Ok(fs) if self.ask_again => {
                    let bad = fs.iter().find(|f| !fits(f)).copied().unwrap_or(0);
                    self.io.err(&format!(
                        "`{bad}` is not a face of a {}: type 1 to {}{}\n",
                        crate::game::one_die(req.sides),
                        req.sides,
                        if req.sides == 10 {
                            " (0 reads as 10)"
                        } else {
                            ""
                        }
                    ));
                    continue;
                }
                // Not a face: the game refuses it.
                Ok(fs) => fs,
                Err((_, why)) if self.ask_again => {
                    self.io.err(&format!("{why}\n"));
                    continue;
                }
                Err((code, why)) => {
                    return Err(NoFace::Bad(Diag::at(code, why, req.span, "this roll")));
                }
            };
            let mut faces: std::collections::VecDeque<i64> = faces.into();
            let first = faces.pop_front().unwrap_or(0);
            if !faces.is_empty() {
                self.ahead = Some((req.span, faces));
            }
            return Ok(first);
        }
    }
}
