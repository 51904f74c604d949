//! The dice a command rolls: the rolls given with `--roll`, else seeded dice from
//! `--seed`, else from a fresh seed (which is reported, so the rolls can be replayed).

use crate::diagnostic::Diag;
use crate::dice::{fresh_seed, DiceSource, Given, Seeded};

/// Where a command's dice come from, as its flags say.
pub(super) enum Dice {
    /// `--roll 6,2`: the players' rolls, in order.
    Given(Given),
    /// `--seed N`, or a fresh seed (`fresh`) when neither flag is given.
    Seeded {
        /// The dice.
        dice: Box<Seeded>,
        /// True when the seed was drawn fresh, not given.
        fresh: bool,
    },
}

impl Dice {
    /// The dice for `--seed` and `--roll` (at most one of them is given).
    pub(super) fn new(seed: Option<u64>, roll: Option<Vec<GivenRoll>>) -> Dice {
        match (roll, seed) {
            (Some(rolls), _) => {
                let mut faces = Vec::new();
                let mut named = Vec::new();
                for r in rolls {
                    match r.name {
                        Some(n) => named.push((n, r.face)),
                        None => faces.push(r.face),
                    }
                }
                Dice::Given(Given::with_names(faces, named))
            }
            (None, Some(seed)) => Dice::Seeded {
                dice: Box::new(Seeded::new(seed)),
                fresh: false,
            },
            (None, None) => Dice::Seeded {
                dice: Box::new(Seeded::new(fresh_seed())),
                fresh: true,
            },
        }
    }

    /// The source to roll from.
    pub(super) fn source(&mut self) -> &mut dyn DiceSource {
        match self {
            Dice::Given(g) => g,
            Dice::Seeded { dice, .. } => dice.as_mut(),
        }
    }

    /// The seed the dice come from (`None` for given rolls).
    pub(super) fn seed(&self) -> Option<u64> {
        match self {
            Dice::Given(_) => None,
            Dice::Seeded { dice, .. } => Some(dice.seed),
        }
    }

    /// True when the seed was drawn fresh: the user has not seen it, so it is reported.
    pub(super) fn is_fresh(&self) -> bool {
        matches!(self, Dice::Seeded { fresh: true, .. })
    }

    /// Ends a run of adjudications: given rolls left over are an error.
    pub(super) fn finish(&mut self) -> Result<(), Diag> {
        self.source().finish()
    }
}

/// One roll of `--roll`: a face for the next die, or for the roll of a name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct GivenRoll {
    /// The roll it is given to (`attacker_roll=4`), if named.
    name: Option<String>,
    /// The face.
    face: i64,
}

/// A roll as typed: `3`, ` 4` (spaces allowed round each number), or a roll named by the
/// `let` that rolls it, `attacker_roll=4`.
pub(super) fn parse_roll(s: &str) -> Result<GivenRoll, String> {
    let Some((name, face)) = s.split_once('=') else {
        return Ok(GivenRoll {
            name: None,
            face: parse_face(s)?,
        });
    };
    let name = name.trim();
    if !crate::names::is_name(name) {
        return Err(format!(
            "`{name}` is not the name of a roll: write NAME=FACE, `attacker_roll=4`"
        ));
    }
    Ok(GivenRoll {
        name: Some(name.to_string()),
        face: parse_face(face)?,
    })
}

/// A face as typed: `3`, ` 4`.
fn parse_face(s: &str) -> Result<i64, String> {
    let s = s.trim();
    s.parse::<i64>().map_err(|e| match e.kind() {
        std::num::IntErrorKind::PosOverflow | std::num::IntErrorKind::NegOverflow => {
            format!("`{s}` is too large for a roll")
        }
        _ => format!("`{s}` is not a whole number"),
    })
}
