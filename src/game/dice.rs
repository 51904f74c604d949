//! The dice of a game: faces queued for the next adjudication first, then umpire's
//! seeded dice or the players' — each die the players roll asked for through a
//! [`TableDice`] the face supplies.

use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::dice::{DiceRequest, DiceSource, Seeded};
use crate::span::Span;
use std::collections::VecDeque;

/// Where the dice of an adjudication come from, after any faces queued for it.
#[derive(Debug, Clone)]
pub enum DiceMode {
    /// umpire rolls, from a seed.
    Seeded(Box<Seeded>),
    /// The players roll, and each die is asked for when it is needed.
    Table,
}

impl DiceMode {
    /// umpire rolls, from `seed`.
    pub fn seeded(seed: u64) -> DiceMode {
        DiceMode::Seeded(Box::new(Seeded::new(seed)))
    }

    /// The seed umpire rolls from (`None` when the players roll).
    pub fn seed(&self) -> Option<u64> {
        match self {
            DiceMode::Seeded(s) => Some(s.seed),
            DiceMode::Table => None,
        }
    }

    /// The seed and the place in its stream the next die is drawn from.
    pub(super) fn at(&self) -> Option<(u64, u128)> {
        match self {
            DiceMode::Seeded(s) => Some((s.seed, s.position())),
            DiceMode::Table => None,
        }
    }
}

/// One die the players are asked for.
#[derive(Debug, Clone, Copy)]
pub struct TableDie<'a> {
    /// The dice term it belongs to (its text, faces, place, and the rule rolling it).
    pub request: &'a DiceRequest<'a>,
    /// Which die of the term, from 0 (`2d6` asks for die 0, then die 1).
    pub index: u32,
    /// The input being adjudicated, as given (`manoeuvre(brigade.second_foot)`).
    pub input: &'a str,
}

/// Why the players gave no face for a die.
#[derive(Debug, Clone)]
pub enum NoFace {
    /// None was given (the input ended, or Ctrl-C): the adjudication is cancelled.
    Cancelled,
    /// The answer is not a roll: the adjudication stops with this error.
    Bad(Diag),
}

/// The players' dice: the face asks for each die an adjudication rolls at the table
/// (in [`DiceMode::Table`], once the queued faces are used up). The REPL asks at the
/// keyboard or reads the next line of a script; the game itself never prompts.
pub trait TableDice {
    /// The face the players rolled for `die`. A number that is not a face of the die
    /// is refused by the game (`umpire::dice::bad_face`).
    ///
    /// Errors: no face given ([`NoFace::Cancelled`]), or an answer that is not a roll.
    fn face(&mut self, die: &TableDie<'_>) -> Result<i64, NoFace>;
}

/// No players at the table: a die asked of them cancels the adjudication (for a game
/// whose dice are all seeded or queued).
#[derive(Debug, Clone, Copy, Default)]
pub struct NoTable;

impl TableDice for NoTable {
    fn face(&mut self, _die: &TableDie<'_>) -> Result<i64, NoFace> {
        Err(NoFace::Cancelled)
    }
}

/// A face as the players call it: `0` on a ten-sided die is its 10 (a D10 shows 0
/// where it means 10); any other number is itself.
pub fn face_called(face: i64, sides: u32) -> i64 {
    if face == 0 && sides == 10 {
        10
    } else {
        face
    }
}

/// Who gave a die its face.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hand {
    /// Queued for the adjudication (`:roll`, a replayed log).
    Queued,
    /// Typed at the table when it was asked for.
    Table,
    /// Rolled by umpire, from the seed.
    Umpire,
}

/// What an adjudication did with the faces queued for it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QueueUse {
    /// The faces it used, in order.
    pub used: Vec<i64>,
    /// The faces left over, dropped.
    pub dropped: Vec<i64>,
    /// The faces queued for a roll by name (`:roll attacker_roll=4`) left over, dropped.
    pub dropped_named: Vec<(String, i64)>,
    /// The names of the rolls made, each once, first made first.
    pub made: Vec<String>,
}

/// The dice of one adjudication: queued faces, then the mode.
pub(super) struct GameDice<'a> {
    pub queued: VecDeque<i64>,
    /// Faces queued for a roll by its name, in the order queued.
    pub named: Vec<(String, i64)>,
    /// The names of the rolls made, each once, first made first.
    pub made: Vec<String>,
    /// The queued faces used.
    pub used: Vec<i64>,
    /// Who gave each face rolled, in the order rolled.
    pub hands: Vec<Hand>,
    pub mode: &'a mut DiceMode,
    pub table: &'a mut dyn TableDice,
    pub input: &'a str,
    /// The die a player gave no face for: its term and place.
    pub cancelled: Option<(String, Span)>,
}

/// One die of a roll, named as a rulebook names it: `D10`, `D6`.
pub fn one_die(sides: u32) -> String {
    format!("D{sides}")
}

fn bad_face(req: &DiceRequest<'_>, face: i64, how: &str) -> Diag {
    Diag::at(
        Code::DiceBadFace,
        format!(
            "{face} {how} is not a face of a {} (1 to {}{})",
            one_die(req.sides),
            req.sides,
            if req.sides == 10 {
                "; 0 reads as 10"
            } else {
                ""
            }
        ),
        req.span,
        "this die",
    )
}

impl DiceSource for GameDice<'_> {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let mut sum = 0i64;
        let fits = |f: i64| f >= 1 && f <= i64::from(req.sides);
        if let Some(n) = req.name.filter(|n| !self.made.iter().any(|m| m == n)) {
            self.made.push(n.to_string());
        }
        for index in 0..req.count {
            let by_name = req
                .name
                .and_then(|n| self.named.iter().position(|(m, _)| m == n));
            let queued = match by_name {
                Some(i) => Some(self.named.remove(i).1),
                None => self.queued.pop_front(),
            };
            let face = if let Some(f) = queued {
                let f = face_called(f, req.sides);
                if !fits(f) {
                    return Err(bad_face(req, f, "(given before the roll)"));
                }
                self.used.push(f);
                self.hands.push(Hand::Queued);
                f
            } else {
                match self.mode {
                    DiceMode::Seeded(s) => {
                        let one = DiceRequest { count: 1, ..*req };
                        let mut f = Vec::with_capacity(1);
                        let face = s.roll(&one, &mut f)?;
                        self.hands.push(Hand::Umpire);
                        face
                    }
                    DiceMode::Table => {
                        let die = TableDie {
                            request: req,
                            index,
                            input: self.input,
                        };
                        match self.table.face(&die).map(|f| face_called(f, req.sides)) {
                            Ok(f) if fits(f) => {
                                self.hands.push(Hand::Table);
                                f
                            }
                            Ok(f) => return Err(bad_face(req, f, "(typed)")),
                            Err(NoFace::Bad(d)) => return Err(d),
                            Err(NoFace::Cancelled) => {
                                let die = match req.name {
                                    Some(n) => format!("{n} ({})", req.text),
                                    None => req.text.to_string(),
                                };
                                // Stops the evaluation; the game reports the cancellation
                                // itself, from `cancelled`.
                                let d = Diag::at(
                                    Code::ReplCancelled,
                                    format!("no roll given for {die}"),
                                    req.span,
                                    "this die",
                                );
                                self.cancelled = Some((die, req.span));
                                return Err(d);
                            }
                        }
                    }
                }
            };
            faces.push(u32::try_from(face).unwrap_or(0));
            sum += face;
        }
        Ok(sum)
    }
}
