//! Dice sources: one interface the evaluator asks for every dice term.
//!
//! - [`Seeded`]: a ChaCha8 RNG from a seed, so a seed gives the same rolls on every
//!   machine and every version that pins `rand`/`rand_chacha`;
//! - [`Given`]: the players rolled real dice and typed the faces, used in order;
//! - the exact enumerating source of the probability engine, `prob::paths::Enumerate`.

use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::span::Span;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One dice term to roll: `count` dice of `sides` faces, written as `text` at `span`.
#[derive(Debug, Clone, Copy)]
pub struct DiceRequest<'a> {
    /// How many dice.
    pub count: u32,
    /// Faces per die.
    pub sides: u32,
    /// Where the term is written.
    pub span: Span,
    /// The term as written (`2d6`, `1 die`, `D10`).
    pub text: &'a str,
    /// The rule, table or modifier list that rolls it (`None`: the expression typed).
    pub within: Option<&'a str>,
    /// The roll's name, where a `let` binds it (`let attacker_roll = d6`): dice given
    /// by name go to it (`--roll attacker_roll=4`).
    pub name: Option<&'a str>,
}

/// A fresh seed from the operating system, below 2^53: it can be written back into a
/// scenario file (TOML integers are signed 64-bit) and read from JSON by any program
/// (a JavaScript number holds whole numbers exactly only up to 2^53).
pub fn fresh_seed() -> u64 {
    rand::random::<u64>() >> 11
}

/// Where dice come from.
pub trait DiceSource {
    /// Rolls every die of `req`, pushing each face to `faces`; returns their sum.
    ///
    /// Errors: given rolls exhausted (naming the die still needed) or a face the die
    /// does not have.
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag>;

    /// Called when an adjudication ends: given rolls left over are an error.
    fn finish(&mut self) -> Result<(), Diag> {
        Ok(())
    }

    /// The seed whose stream, from its start, gives the rolls this source gives next,
    /// if there is one: seeded dice not yet drawn from know theirs. The evaluator
    /// records it in the adjudication, so that `--seed` or a game log replays it.
    fn seed(&self) -> Option<u64> {
        None
    }
}

/// Seeded dice: ChaCha8 from a 64-bit seed, faces by `gen_range(1..=sides)` (unbiased).
#[derive(Debug, Clone)]
pub struct Seeded {
    rng: ChaCha8Rng,
    /// The seed, for reporting.
    pub seed: u64,
}

impl Seeded {
    /// Dice from `seed`.
    pub fn new(seed: u64) -> Seeded {
        Seeded {
            rng: ChaCha8Rng::seed_from_u64(seed),
            seed,
        }
    }

    /// Dice from `seed`, at word `position` of its stream ([`Seeded::position`]): the
    /// rolls a game log says were drawn there.
    pub fn at(seed: u64, position: u128) -> Seeded {
        let mut s = Seeded::new(seed);
        s.rng.set_word_pos(position);
        s
    }

    /// Where in the seed's stream the next die is drawn from.
    pub fn position(&self) -> u128 {
        self.rng.get_word_pos()
    }

    /// One die of `sides` faces (1 to `sides`, uniformly: the rand crate's range
    /// sampling, no modulo bias).
    pub fn draw(&mut self, sides: u32) -> u32 {
        self.rng.gen_range(1..=sides.max(1))
    }

    /// Dice from a fresh seed drawn from the operating system.
    pub fn fresh() -> Seeded {
        Seeded::new(fresh_seed())
    }
}

impl DiceSource for Seeded {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        let mut sum = 0i64;
        for _ in 0..req.count {
            let f = self.rng.gen_range(1..=req.sides);
            faces.push(f);
            sum += i64::from(f);
        }
        Ok(sum)
    }

    fn seed(&self) -> Option<u64> {
        (self.position() == 0).then_some(self.seed)
    }
}

/// Rolls given by the players: those given for a roll by its name
/// (`attacker_roll=4`) go to the rolls of that name, in order; the others to the rest
/// of the dice, in the order they are rolled.
#[derive(Debug, Clone)]
pub struct Given {
    rolls: Vec<i64>,
    next: usize,
    /// Faces given by name, in the order given, each with whether it is used yet.
    named: Vec<(String, i64, bool)>,
    /// Where each face given by name was written, where it was.
    named_at: Vec<Span>,
    /// The names of the rolls made, each once, first made first.
    made: Vec<String>,
    /// Whether a roll with no name was made.
    unnamed: bool,
    /// Where the rolls were typed (for errors), if anywhere.
    pub span: Option<Span>,
}

impl Given {
    /// These rolls, in order.
    pub fn new(rolls: Vec<i64>) -> Given {
        Given::with_names(rolls, Vec::new())
    }

    /// `rolls` in order, and each of `named` (name, face) to the roll of that name.
    pub fn with_names(rolls: Vec<i64>, named: Vec<(String, i64)>) -> Given {
        Given {
            rolls,
            next: 0,
            named: named.into_iter().map(|(n, f)| (n, f, false)).collect(),
            named_at: Vec::new(),
            made: Vec::new(),
            unnamed: false,
            span: None,
        }
    }

    /// These rolls, with where each roll given by name was written (for errors).
    pub fn written_at(mut self, named: Vec<Span>) -> Given {
        self.named_at = named;
        self
    }

    /// How many rolls were given, by name or not.
    fn given(&self) -> usize {
        self.rolls.len() + self.named.len()
    }

    /// The rolls made, by name: "the rolls were a, b" (or "the named rolls were ...").
    fn made_text(&self) -> String {
        let names: Vec<String> = self.made.iter().map(|n| format!("`{n}`")).collect();
        match (names.is_empty(), self.unnamed) {
            (true, _) => "no roll made has a name".into(),
            (false, false) => format!("the rolls were {}", names.join(", ")),
            (false, true) => format!("the named rolls were {}", names.join(", ")),
        }
    }

    /// A face given by a name no roll made has, close to `name` (a slip in it).
    fn misnamed(&self, name: &str) -> Option<&str> {
        self.named
            .iter()
            .filter(|(n, _, used)| !used && !self.made.contains(n))
            .find(|(n, _, _)| crate::diagnostic::closest(n, [name]).is_some())
            .map(|(n, _, _)| n.as_str())
    }

    /// The error for a die of `req` left without a roll (`which`: "die 2 of ").
    fn too_few(&self, req: &DiceRequest<'_>, which: &str) -> Diag {
        if let Some((name, slip)) = req.name.and_then(|n| Some((n, self.misnamed(n)?))) {
            return Diag::at(
                Code::DiceNoSuchRoll,
                format!("no roll named `{slip}` was made; {}", self.made_text()),
                req.span,
                format!("`{name}` has no roll given"),
            )
            .help(format!("did you mean `{name}`?"));
        }
        let term = match req.name {
            Some(n) => format!("`{n}` (`{}`, a d{})", req.text, req.sides),
            None => format!("`{}` (a d{})", req.text, req.sides),
        };
        Diag::at(
            Code::DiceTooFewRolls,
            format!(
                "too few rolls given: {} given, and {which}{term} still needs one",
                self.given(),
            ),
            req.span,
            match req.name {
                Some(n) => format!("`{n}` needs a roll"),
                None => format!("needs the {} roll", ordinal(self.next + 1)),
            },
        )
        .help(match (req.name, self.unmade()) {
            (_, Some(n)) => format!(
                "a roll is given for `{n}`, but no roll of that name has been made ({}): a roll is named by the `let` that rolls it",
                self.made_text()
            ),
            (Some(n), None) => format!("give one more roll: by its name (`{n}`), or in the order the dice are rolled"),
            (None, None) => "give one more roll per die, in the order the dice are rolled".into(),
        })
    }

    /// The name of a roll given by name, not used, that no roll made so far has.
    fn unmade(&self) -> Option<&str> {
        self.named
            .iter()
            .find(|(n, _, used)| !used && !self.made.contains(n))
            .map(|(n, _, _)| n.as_str())
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (1, 11) | (2, 12) | (3, 13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

impl DiceSource for Given {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        match req.name {
            Some(n) if !self.made.iter().any(|m| m == n) => self.made.push(n.to_string()),
            Some(_) => {}
            None => self.unnamed = true,
        }
        let mut sum = 0i64;
        for i in 0..req.count {
            let by_name = req
                .name
                .and_then(|n| self.named.iter_mut().find(|(m, _, used)| !used && m == n));
            let (r, whose) = if let Some(given) = by_name {
                given.2 = true;
                (given.1, format!("roll given for `{}`", given.0))
            } else if let Some(&r) = self.rolls.get(self.next) {
                self.next += 1;
                (r, format!("{} roll given", ordinal(self.next)))
            } else {
                let which = if req.count == 1 {
                    String::new()
                } else {
                    format!("die {} of ", i + 1)
                };
                return Err(self.too_few(req, &which));
            };
            if r < 1 || r > i64::from(req.sides) {
                let mut d = Diag::at(
                    Code::DiceBadFace,
                    format!("the {whose}, {r}, is not a face of a d{}", req.sides),
                    req.span,
                    format!("a d{} shows 1 to {}", req.sides, req.sides),
                );
                if let Some(s) = self.span {
                    d = d.label(s, "given here");
                }
                return Err(d);
            }
            faces.push(u32::try_from(r).unwrap_or(0));
            sum += r;
        }
        Ok(sum)
    }

    fn finish(&mut self) -> Result<(), Diag> {
        let left = |name: &str| -> Vec<String> {
            self.named
                .iter()
                .filter(|(n, _, used)| !used && n == name)
                .map(|(_, f, _)| f.to_string())
                .collect()
        };
        let d = if let Some((name, _, _)) = self.named.iter().find(|(_, _, used)| !used) {
            if self.made.contains(name) {
                let left = left(name);
                let given = self.named.iter().filter(|(n, _, _)| n == name).count();
                Diag::error(
                    Code::DiceTooManyRolls,
                    format!(
                        "too many rolls given for `{name}`: {given} given, {} used; not used: {}",
                        given - left.len(),
                        left.join(", ")
                    ),
                )
                .help(format!(
                    "give `{name}` one roll per die it rolls, each time it is rolled"
                ))
            } else {
                let mut d = Diag::error(
                    Code::DiceNoSuchRoll,
                    format!("no roll named `{name}` was made; {}", self.made_text()),
                );
                let at = self
                    .named
                    .iter()
                    .position(|(n, _, used)| !used && n == name);
                if let Some(s) = at.and_then(|i| self.named_at.get(i)) {
                    d = d.label(*s, "given here");
                }
                match crate::diagnostic::closest(name, self.made.iter().map(String::as_str)) {
                    Some(best) => d.help(format!("did you mean `{best}`?")),
                    None => d.help(format!(
                        "a roll is named by the `let` that rolls it (`let {name} = d6`); give the rolls with no name in order"
                    )),
                }
            }
        } else if self.next < self.rolls.len() {
            let left: Vec<String> = self.rolls[self.next..]
                .iter()
                .map(|r| r.to_string())
                .collect();
            Diag::error(
                Code::DiceTooManyRolls,
                format!(
                    "too many rolls given: {} given, {} used; not used: {}",
                    self.given(),
                    self.given() - left.len(),
                    left.join(", ")
                ),
            )
            .help("give exactly one roll per die the adjudication rolls")
        } else {
            return Ok(());
        };
        Err(match self.span {
            Some(s) => d.label(s, "given here"),
            None => d,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_seed_gives_the_same_rolls_every_time() {
        let req = DiceRequest {
            count: 5,
            sides: 6,
            span: Span::default(),
            text: "5d6",
            within: None,
            name: None,
        };
        let mut a = Vec::new();
        let mut b = Vec::new();
        Seeded::new(42).roll(&req, &mut a).ok();
        Seeded::new(42).roll(&req, &mut b).ok();
        assert_eq!(a, b);
        assert!(a.iter().all(|f| (1..=6).contains(f)));
    }

    #[test]
    fn seeded_dice_say_their_seed_until_drawn_from() {
        let req = DiceRequest {
            count: 1,
            sides: 6,
            span: Span::default(),
            text: "d6",
            within: None,
            name: None,
        };
        let mut s = Seeded::new(7);
        assert_eq!(s.seed(), Some(7));
        s.roll(&req, &mut Vec::new()).ok();
        assert_eq!(s.seed(), None, "the next rolls are not the seed's first");
        assert_eq!(Given::new(vec![3]).seed(), None);
    }

    #[test]
    fn given_rolls_are_used_in_order_and_checked() {
        let req = DiceRequest {
            count: 2,
            sides: 6,
            span: Span::default(),
            text: "2d6",
            within: None,
            name: None,
        };
        let mut g = Given::new(vec![3, 5, 6]);
        let mut faces = Vec::new();
        assert_eq!(g.roll(&req, &mut faces).ok(), Some(8));
        assert_eq!(faces, vec![3, 5]);
        assert_eq!(
            g.finish().err().map(|d| d.code),
            Some(Code::DiceTooManyRolls)
        );
        let mut g = Given::new(vec![7]);
        let one = DiceRequest {
            count: 1,
            sides: 6,
            span: Span::default(),
            text: "d6",
            within: None,
            name: None,
        };
        assert_eq!(
            g.roll(&one, &mut faces).err().map(|d| d.code),
            Some(Code::DiceBadFace)
        );
        let mut g = Given::new(vec![]);
        assert_eq!(
            g.roll(&one, &mut faces).err().map(|d| d.code),
            Some(Code::DiceTooFewRolls)
        );
    }

    fn named(name: &'static str) -> DiceRequest<'static> {
        DiceRequest {
            count: 1,
            sides: 6,
            span: Span::default(),
            text: "d6",
            within: None,
            name: Some(name),
        }
    }

    #[test]
    fn given_rolls_by_name_go_to_their_rolls_and_the_rest_in_order() {
        let faces = &mut Vec::new();
        // The defender's 3 by name; the attacker (not given by name) takes the 4.
        let mut g = Given::with_names(vec![4], vec![("defender_roll".into(), 3)]);
        assert_eq!(g.roll(&named("attacker_roll"), faces).ok(), Some(4));
        assert_eq!(g.roll(&named("defender_roll"), faces).ok(), Some(3));
        assert!(g.finish().is_ok());
        // A name rolling twice takes its faces in the order given.
        let mut g = Given::with_names(vec![], vec![("a".into(), 2), ("a".into(), 5)]);
        assert_eq!(g.roll(&named("a"), faces).ok(), Some(2));
        assert_eq!(g.roll(&named("a"), faces).ok(), Some(5));
        assert!(g.finish().is_ok());
    }

    #[test]
    fn a_name_no_roll_has_is_an_error_naming_the_rolls_made() {
        let faces = &mut Vec::new();
        let mut g = Given::with_names(
            vec![],
            vec![
                ("attacker_roll".into(), 4),
                ("defender_roll".into(), 3),
                ("defnder_roll".into(), 2),
            ],
        );
        g.roll(&named("attacker_roll"), faces).ok();
        g.roll(&named("defender_roll"), faces).ok();
        let d = g.finish().err();
        assert_eq!(d.as_ref().map(|d| d.code), Some(Code::DiceNoSuchRoll));
        assert_eq!(
            d.as_ref().map(|d| d.message.as_str()),
            Some("no roll named `defnder_roll` was made; the rolls were `attacker_roll`, `defender_roll`")
        );
        assert_eq!(
            d.and_then(|d| d.help),
            Some("did you mean `defender_roll`?".to_string())
        );
        // Misspelt where the roll meant has no face: said when that roll is made.
        let mut g = Given::with_names(
            vec![],
            vec![("attacker_roll".into(), 4), ("defnder_roll".into(), 3)],
        );
        g.roll(&named("attacker_roll"), faces).ok();
        let d = g.roll(&named("defender_roll"), faces).err();
        assert_eq!(d.map(|d| d.code), Some(Code::DiceNoSuchRoll));
        // More faces for a name than it rolled.
        let mut g = Given::with_names(vec![], vec![("a".into(), 2), ("a".into(), 5)]);
        g.roll(&named("a"), faces).ok();
        let d = g.finish().err();
        assert_eq!(d.map(|d| d.code), Some(Code::DiceTooManyRolls));
    }
}
