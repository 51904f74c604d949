//! The numbers a table's number key can be, laid out so that coverage is counted in whole
//! steps: on a whole-number key (`Int`) each number is itself; on a key that takes
//! fractions (`Num`) the number n stands at 2n and every fraction between n and n + 1 at
//! 2n + 1. Row patterns have whole-number ends, so the fractions between two whole numbers
//! are always taken or left together: `3-5` and `6 or more` leave out 11 (the fractions
//! between 5 and 6, 5 1/2 among them), which a `Num` key can be.

use super::interval::{End, Reach, HI, LO, Q};
use crate::program::{Alt, IntRange, Pat, Ty};
use crate::value::Rational;

/// How a key's numbers are counted: whole numbers only, or fractions too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::check) struct Scale {
    /// Whether the key takes fractions (a `Num`).
    pub fractions: bool,
}

impl Scale {
    /// The scale of a key of type `ty`: a `Num` or a `Length` (inches) takes fractions.
    pub(in crate::check) fn of(ty: &Ty) -> Scale {
        Scale {
            fractions: matches!(ty, Ty::Num | Ty::Length),
        }
    }

    /// Below every number of the scale.
    pub(in crate::check) fn lo(self) -> i128 {
        if self.fractions {
            2 * LO
        } else {
            LO
        }
    }

    /// Above every number of the scale.
    pub(in crate::check) fn hi(self) -> i128 {
        if self.fractions {
            2 * HI
        } else {
            HI
        }
    }

    /// Where the whole number `n` stands.
    fn at(self, n: i64) -> i128 {
        if self.fractions {
            2 * i128::from(n)
        } else {
            i128::from(n)
        }
    }

    /// Where a number stands (a fraction on a whole-number scale: the number below it).
    pub(in crate::check) fn index(self, r: &Rational) -> i128 {
        let floor = i128::from(r.floor().to_integer());
        match (self.fractions, r.is_integer()) {
            (true, true) => 2 * floor,
            (true, false) => 2 * floor + 1,
            (false, _) => floor,
        }
    }

    /// The numbers a pattern covers, as inclusive stretches of the scale (`None` for `_`).
    pub(in crate::check) fn spans(self, p: &Pat) -> Option<Vec<(i128, i128)>> {
        match p {
            Pat::Any => None,
            Pat::Alts(alts) => Some(
                alts.iter()
                    .filter_map(|a| match a {
                        Alt::AtLeast(n) => Some((self.at(*n), self.hi())),
                        Alt::AtMost(n) => Some((self.lo(), self.at(*n))),
                        Alt::Range(a, b) => Some((self.at(*a), self.at(*b))),
                        _ => None,
                    })
                    .collect(),
            ),
        }
    }

    /// A declared range (`roll: 1..10`) on the scale.
    pub(in crate::check) fn range(self, r: IntRange) -> (i128, i128) {
        (self.at(r.lo), r.hi.map_or(self.hi(), |h| self.at(h)))
    }

    /// The numbers a reach holds, on the scale, within what a key can be (a number past the
    /// 64 bits of a whole number overflows before it could be looked up).
    pub(super) fn bounds(self, r: Reach) -> Option<(i128, i128)> {
        let Reach::Span(lo, hi) = r else {
            return None;
        };
        let (lo, hi) = if self.fractions {
            let place = |q: Q| {
                let f = q.floor().to_integer();
                if q.is_integer() {
                    2 * f
                } else {
                    2 * f + 1
                }
            };
            (
                end(lo).map_or(self.lo(), place),
                end(hi).map_or(self.hi(), place),
            )
        } else {
            (
                end(lo).map_or(LO, |q| q.ceil().to_integer()),
                end(hi).map_or(HI, |q| q.floor().to_integer()),
            )
        };
        let (lo, hi) = (lo.max(self.lo()), hi.min(self.hi()));
        (lo <= hi).then_some((lo, hi))
    }

    /// Numbers as a rulebook would say them: `7`, `7-9`, `10 or more`, `0 or less`; on a
    /// key that takes fractions also `the fractions between 5 and 6`, `more than 5`.
    pub(in crate::check) fn shown(self, (lo, hi): (i128, i128)) -> String {
        let (open_lo, open_hi) = (lo <= self.lo(), hi >= self.hi());
        if !self.fractions {
            return match (open_lo, open_hi) {
                (true, true) => "every number".into(),
                (true, false) => format!("{hi} or less"),
                (false, true) => format!("{lo} or more"),
                (false, false) if lo == hi => lo.to_string(),
                // `-8..18`: a dash between negative numbers reads as a minus sign.
                (false, false) if lo < 0 => format!("{lo}..{hi}"),
                (false, false) => format!("{lo}-{hi}"),
            };
        }
        // Ends: (the whole number, whether it is itself included).
        let low = (lo.div_euclid(2), lo.rem_euclid(2) == 0);
        let high = (hi.div_euclid(2) + hi.rem_euclid(2), hi.rem_euclid(2) == 0);
        let from = |(n, closed): (i128, bool)| {
            if closed {
                format!("{n} or more")
            } else {
                format!("more than {n}")
            }
        };
        let to = |(n, closed): (i128, bool)| {
            if closed {
                format!("{n} or less")
            } else {
                format!("less than {n}")
            }
        };
        match (open_lo, open_hi) {
            (true, true) => "every number".into(),
            (true, false) => to(high),
            (false, true) => from(low),
            _ if lo == hi && low.1 => low.0.to_string(),
            _ if lo == hi => format!("the fractions between {} and {}", low.0, high.0),
            _ if low.1 && high.1 && low.0 < 0 => format!("{}..{}", low.0, high.0),
            _ if low.1 && high.1 => format!("{}-{}", low.0, high.0),
            _ => format!("{} and {}", from(low), to(high)),
        }
    }

    /// Several stretches of numbers: `3, 5-6 and 11 or more`.
    pub(in crate::check) fn shown_all(self, iv: &[(i128, i128)]) -> String {
        let parts: Vec<String> = iv.iter().map(|&i| self.shown(i)).collect();
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => parts.join(""),
        }
    }

    /// A fraction in the stretch, as the umpire would type it (`5 1/2`), when the stretch
    /// holds fractions.
    pub(in crate::check) fn a_fraction(self, (lo, hi): (i128, i128)) -> Option<String> {
        if !self.fractions {
            return None;
        }
        let odd = if lo.rem_euclid(2) == 1 { lo } else { lo + 1 };
        if odd > hi || odd <= self.lo() || odd >= self.hi() {
            return None;
        }
        let n = odd.div_euclid(2);
        Some(match n {
            -1 => "-1/2".into(),
            0 => "1/2".into(),
            n if n < -1 => format!("-{} 1/2", -(n + 1)),
            n => format!("{n} 1/2"),
        })
    }
}

fn end(e: End) -> Option<Q> {
    match e {
        End::At(q) => Some(q),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE: Scale = Scale { fractions: false };
    const FRACTIONS: Scale = Scale { fractions: true };

    #[test]
    fn num_and_length_keys_take_fractions() {
        assert_eq!(Scale::of(&Ty::Num), FRACTIONS);
        assert_eq!(Scale::of(&Ty::Length), FRACTIONS);
        assert_eq!(Scale::of(&Ty::Int), WHOLE);
    }

    #[test]
    fn fractions_stand_between_whole_numbers() {
        let r = |n, d| Rational::new(n, d);
        assert_eq!(FRACTIONS.index(&r(5, 1)), 10);
        assert_eq!(FRACTIONS.index(&r(11, 2)), 11);
        assert_eq!(FRACTIONS.index(&r(-1, 2)), -1);
        assert_eq!(WHOLE.index(&r(5, 1)), 5);
        // `3-5` on a Num key: 3 to 5 and the fractions between.
        let p = Pat::Alts(vec![Alt::Range(3, 5), Alt::AtLeast(6)]);
        assert_eq!(FRACTIONS.spans(&p), Some(vec![(6, 10), (12, 2 * HI)]));
        assert_eq!(WHOLE.spans(&p), Some(vec![(3, 5), (6, HI)]));
    }

    #[test]
    fn fractions_shown_as_a_rulebook_says_them() {
        assert_eq!(FRACTIONS.shown((11, 11)), "the fractions between 5 and 6");
        assert_eq!(FRACTIONS.shown((-1, -1)), "the fractions between -1 and 0");
        assert_eq!(FRACTIONS.shown((10, 10)), "5");
        assert_eq!(FRACTIONS.shown((6, 10)), "3-5");
        assert_eq!(FRACTIONS.shown((11, 2 * HI)), "more than 5");
        assert_eq!(FRACTIONS.shown((2 * LO, 9)), "less than 5");
        assert_eq!(FRACTIONS.shown((7, 10)), "more than 3 and 5 or less");
        assert_eq!(FRACTIONS.shown((6, 9)), "3 or more and less than 5");
        assert_eq!(FRACTIONS.a_fraction((11, 11)).as_deref(), Some("5 1/2"));
        assert_eq!(FRACTIONS.a_fraction((-3, -3)).as_deref(), Some("-1 1/2"));
        assert_eq!(FRACTIONS.a_fraction((10, 10)), None);
        assert_eq!(FRACTIONS.a_fraction((1, 1)).as_deref(), Some("1/2"));
        assert_eq!(WHOLE.shown((7, 9)), "7-9");
    }

    #[test]
    fn reaches_on_the_scale() {
        let q = |n, d| End::At(Q::new(n, d));
        let r = Reach::Span(q(1, 2), q(3, 1));
        assert_eq!(FRACTIONS.bounds(r), Some((1, 6)));
        assert_eq!(WHOLE.bounds(r), Some((1, 3)));
        assert_eq!(WHOLE.bounds(Reach::Span(q(1, 3), q(2, 3))), None);
        assert_eq!(FRACTIONS.bounds(Reach::ALL), Some((2 * LO, 2 * HI)));
    }
}
