//! The players' dice at the REPL: each die asked for through the session's [`Io`],
//! several dice of a roll answered at once (`3 4`), a D10's `0` read as 10; and which
//! dice of a result umpire rolled, to mark them as umpire's.

use super::session::Io;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::game::{NoFace, TableDice, TableDie};

/// Said after a die typed wrong at a keyboard: how to leave the question instead.
const STOP: &str = " (Ctrl-C stops the question)";

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
    let left = req.count.saturating_sub(die.index);
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
    let roll = match req.name {
        Some(n) => format!("{n} ({})", req.text),
        None => req.text.to_string(),
    };
    format!("{roll}{within} in `{typed}`, {what}: ")
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
    let left = req.count.saturating_sub(die.index) as usize;
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
                        "`{bad}` is not a face of a {}: type 1 to {}{}{STOP}\n",
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
                    self.io.err(&format!("{why}{STOP}\n"));
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::DiceRequest;
    use crate::span::Span;

    /// A keyboard: the answers typed, in turn; what was asked and said, noted.
    #[derive(Default)]
    struct Keys {
        answers: Vec<&'static str>,
        asked: Vec<String>,
        said: Vec<String>,
    }

    impl Io for Keys {
        fn out(&mut self, text: &str) {
            self.said.push(text.to_string());
        }
        fn err(&mut self, text: &str) {
            self.said.push(text.to_string());
        }
        fn ask(&mut self, prompt: &str) -> Option<String> {
            self.asked.push(prompt.to_string());
            (!self.answers.is_empty()).then(|| self.answers.remove(0).to_string())
        }
        fn render(&self, d: &dyn miette::Diagnostic) -> String {
            crate::diagnostic::render(d, false)
        }
    }

    fn req(count: u32, sides: u32, text: &'static str) -> DiceRequest<'static> {
        DiceRequest {
            count,
            sides,
            span: Span::default(),
            text,
            within: Some("manoeuvre"),
            name: None,
        }
    }

    /// The faces given for each die of `r` in turn, at a keyboard (`again`) or not.
    fn faces(r: &DiceRequest<'_>, keys: &mut Keys, again: bool) -> Vec<Result<i64, String>> {
        let mut table = AtTable::new(keys, again);
        (0..r.count)
            .map(|index| {
                let die = TableDie {
                    request: r,
                    index,
                    input: "manoeuvre(brigade.second_foot)",
                };
                table.face(&die).map_err(|e| match e {
                    NoFace::Cancelled => "cancelled".to_string(),
                    NoFace::Bad(d) => format!("{}: {}", d.code, d.message),
                })
            })
            .collect()
    }

    #[test]
    fn at_a_keyboard_3_4_answers_a_2d6_and_too_many_is_asked_again() {
        let two = req(2, 6, "2d6");
        let mut keys = Keys {
            answers: vec!["3 4 5", "3 4"],
            ..Keys::default()
        };
        assert_eq!(faces(&two, &mut keys, true), [Ok(3), Ok(4)]);
        // Asked twice for the first die (the answer of three numbers refused), never
        // for the second: the `4` answered it.
        assert_eq!(keys.asked.len(), 2);
        assert!(
            keys.asked[0].contains("2 dice, each 1 to 6"),
            "{:?}",
            keys.asked
        );
        assert_eq!(
            keys.said,
            ["`3 4 5` gives 3 dice, and 2d6 asks for 2: type at most 2 numbers (Ctrl-C stops the question)\n"]
        );
        // One at a time, commas too, and a face the die does not have asked again.
        let mut keys = Keys {
            answers: vec!["2", "7", "6,"],
            ..Keys::default()
        };
        assert_eq!(faces(&two, &mut keys, true), [Ok(2), Ok(6)]);
        assert_eq!(
            keys.said,
            ["`7` is not a face of a D6: type 1 to 6 (Ctrl-C stops the question)\n"]
        );
    }

    #[test]
    fn a_d10_reads_0_as_10_and_other_dice_refuse_it() {
        let d10 = req(1, 10, "D10");
        let mut keys = Keys {
            answers: vec!["0"],
            ..Keys::default()
        };
        assert_eq!(faces(&d10, &mut keys, true), [Ok(10)]);
        assert!(keys.asked[0].ends_with("1 to 10 (0 reads as 10): "));
        let d6 = req(1, 6, "d6");
        let mut keys = Keys {
            answers: vec!["0", "5"],
            ..Keys::default()
        };
        assert_eq!(faces(&d6, &mut keys, true), [Ok(5)]);
        // In a script the answer is given to the game, which refuses a 0 on a d6.
        let mut keys = Keys {
            answers: vec!["0"],
            ..Keys::default()
        };
        assert_eq!(faces(&d6, &mut keys, false), [Ok(0)]);
        let mut keys = Keys {
            answers: vec!["1 2"],
            ..Keys::default()
        };
        assert_eq!(
            faces(&d6, &mut keys, false),
            [Err("umpire::dice::too_many_rolls: `1 2` gives 2 dice, and d6 asks for 1: type one number".to_string())]
        );
    }
}
