//! The numbers a table's number key can be, laid out so that coverage is counted in whole
//! steps: on a whole-number key (`Int`) each number is itself; on a key that takes
//! fractions (`Num`, `Length` in inches) the rows' bounds cut the numbers into steps of
//! `1/denom` (`denom` the least common denominator of every bound the rows write: 1 for
//! `3-5`, 2 for `1 1/2-3`), the step point `n/denom` standing at `2n` and every number
//! strictly between it and the next at `2n + 1`. So the numbers between two bounds are
//! always taken or left together: `3-5` and `6 or more` leave out 11 (the fractions
//! between 5 and 6, 5 1/2 among them), which a `Num` key can be; `more than 2'` takes
//! 49 on a length key and up, `2' or less` up to 48.

use super::interval::{End, Reach, HI, LO, Q};
use crate::program::{Alt, IntRange, Pat, RowInfo, Ty};
use crate::value::{Mixed, Rational};
use num_integer::Integer;

/// One end of a stretch of numbers: the bound and whether it is included (`None`: none).
type Bound = Option<(Rational, bool)>;

/// How a key's numbers are counted: whole numbers only, or fractions too.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::check) struct Scale {
    /// Whether the key takes fractions (a `Num`, a `Length`).
    pub fractions: bool,
    /// Each whole number is cut into this many steps (every bound a multiple of one).
    pub denom: i128,
    /// A `Length` key: its numbers are inches, shown `6"`.
    pub length: bool,
    /// A `Length` key whose rows write feet: whole feet are shown `2'`.
    pub feet: bool,
}

/// The most steps a whole number is cut into (past it the bounds are placed between
/// steps, which a hostile ruleset of unlikely fractions may blur, never overflow).
const MAX_DENOM: i128 = 1 << 40;

impl Scale {
    /// A whole-number key.
    pub(in crate::check) const WHOLE: Scale = Scale {
        fractions: false,
        denom: 1,
        length: false,
        feet: false,
    };

    /// The scale of a key of type `ty` whose bounds are all whole: a `Num` or a `Length`
    /// (inches) takes fractions.
    pub(in crate::check) fn of(ty: &Ty) -> Scale {
        Scale {
            fractions: matches!(ty, Ty::Num | Ty::Length),
            denom: 1,
            length: *ty == Ty::Length,
            feet: false,
        }
    }

    /// The scale of key `k` of type `ty`, cut at every bound `rows` write for it.
    pub(in crate::check) fn of_key(ty: &Ty, rows: &[RowInfo], k: usize) -> Scale {
        let mut scale = Scale::of(ty);
        if !scale.fractions {
            return scale;
        }
        // (A row's words hold a foot mark only in a length: names and numbers have none.)
        scale.feet = scale.length && rows.iter().any(|r| r.text.contains(['\'', '′']));
        for row in rows {
            let Some(Pat::Alts(alts)) = row.patterns.get(k) else {
                continue;
            };
            for a in alts {
                for b in bounds_of(a) {
                    let d = i128::from(*b.denom());
                    let l = scale.denom.lcm(&d);
                    if l <= MAX_DENOM {
                        scale.denom = l;
                    }
                }
            }
        }
        scale
    }

    /// Below every number of the scale.
    pub(in crate::check) fn lo(self) -> i128 {
        if self.fractions {
            2 * LO * self.denom
        } else {
            LO
        }
    }

    /// Above every number of the scale.
    pub(in crate::check) fn hi(self) -> i128 {
        if self.fractions {
            2 * HI * self.denom
        } else {
            HI
        }
    }

    /// Where the whole number `n` stands.
    fn at(self, n: i64) -> i128 {
        if self.fractions {
            2 * i128::from(n) * self.denom
        } else {
            i128::from(n)
        }
    }

    /// Where a number stands (a fraction on a whole-number scale: the number below it).
    pub(in crate::check) fn index(self, r: &Rational) -> i128 {
        self.place(Q::new(i128::from(*r.numer()), i128::from(*r.denom())))
    }

    /// Where a number stands: a step point at `2n`, a number between steps at `2n + 1`.
    fn place(self, q: Q) -> i128 {
        if !self.fractions {
            return q.floor().to_integer();
        }
        let y = q * Q::from_integer(self.denom);
        let f = y.floor().to_integer();
        if y.is_integer() {
            2 * f
        } else {
            2 * f + 1
        }
    }

    /// The stretch of the scale an alternative covers, if any number.
    fn span(self, a: &Alt) -> Option<(i128, i128)> {
        let q = |r: &Rational| Q::new(i128::from(*r.numer()), i128::from(*r.denom()));
        let (lo, hi) = if self.fractions {
            match a {
                Alt::AtLeast(n) => (self.place(q(n)), self.hi()),
                Alt::MoreThan(n) => (self.above(q(n)), self.hi()),
                Alt::AtMost(n) => (self.lo(), self.place(q(n))),
                Alt::LessThan(n) => (self.lo(), self.below(q(n))),
                Alt::Range(a, b) => (self.place(q(a)), self.place(q(b))),
                _ => return None,
            }
        } else {
            let ceil = |r: &Rational| i128::from(r.ceil().to_integer());
            let floor = |r: &Rational| i128::from(r.floor().to_integer());
            match a {
                Alt::AtLeast(n) => (ceil(n), self.hi()),
                Alt::MoreThan(n) => (floor(n) + 1, self.hi()),
                Alt::AtMost(n) => (self.lo(), floor(n)),
                Alt::LessThan(n) => (self.lo(), ceil(n) - 1),
                Alt::Range(a, b) => (ceil(a), floor(b)),
                _ => return None,
            }
        };
        (lo <= hi).then_some((lo, hi))
    }

    /// The first place past the number `q`.
    fn above(self, q: Q) -> i128 {
        let p = self.place(q);
        if p % 2 == 0 {
            p + 1
        } else {
            p
        }
    }

    /// The last place before the number `q`.
    fn below(self, q: Q) -> i128 {
        let p = self.place(q);
        if p % 2 == 0 {
            p - 1
        } else {
            p
        }
    }

    /// The numbers a pattern covers, as inclusive stretches of the scale (`None` for `_`).
    pub(in crate::check) fn spans(self, p: &Pat) -> Option<Vec<(i128, i128)>> {
        match p {
            Pat::Any => None,
            Pat::Alts(alts) => Some(alts.iter().filter_map(|a| self.span(a)).collect()),
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
            (
                end(lo).map_or(self.lo(), |q| self.place(q)),
                end(hi).map_or(self.hi(), |q| self.place(q)),
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

    /// The number at step point `n` (`2n` on the scale), as the rulebook writes it:
    /// `5`, `1 1/2`, or on a length key `24"`.
    fn number(self, n: i128) -> String {
        let mark = if self.length { "\"" } else { "" };
        let q = Q::new(n, self.denom);
        let foot = Q::from_integer(12);
        if self.feet && q != Q::from_integer(0) && (q / foot).is_integer() {
            return format!("{}'", (q / foot).to_integer());
        }
        match (i64::try_from(*q.numer()), i64::try_from(*q.denom())) {
            (Ok(a), Ok(b)) => format!("{}{mark}", Mixed(Rational::new(a, b))),
            _ => format!("{n}/{}{mark}", self.denom),
        }
    }

    /// A bound as the rows write it: `5`, `1/10007`, `2'`, `24 1/2"`.
    fn bound(self, r: Rational) -> String {
        let mark = if self.length { "\"" } else { "" };
        let foot = Rational::from_integer(12);
        if self.feet && r != Rational::from_integer(0) && (r / foot).is_integer() {
            return format!("{}'", (r / foot).to_integer());
        }
        format!("{}{mark}", Mixed(r))
    }

    /// A stretch given by its ends (`(v, true)`: `v` included; `None`: no bound) as a
    /// rulebook would say it: `more than 1/7 and less than 1/5`, `1/2`, `less than 1`.
    pub(in crate::check) fn stretch(self, (lo, hi): (Bound, Bound)) -> String {
        let from = |(v, closed): (Rational, bool)| said_end(self.bound(v), closed, true);
        let to = |(v, closed): (Rational, bool)| said_end(self.bound(v), closed, false);
        match (lo, hi) {
            (None, None) => "every number".into(),
            (None, Some(h)) => to(h),
            (Some(l), None) => from(l),
            (Some((v, true)), Some((w, true))) if v == w => self.bound(v),
            (Some((v, true)), Some((w, true))) if v >= Rational::from_integer(0) => {
                format!("{}-{}", self.bound(v), self.bound(w))
            }
            (Some(l), Some(h)) => format!("{} and {}", from(l), to(h)),
        }
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
        // Ends: (the step point, whether it is itself included).
        let low = (lo.div_euclid(2), lo.rem_euclid(2) == 0);
        let high = (hi.div_euclid(2) + hi.rem_euclid(2), hi.rem_euclid(2) == 0);
        let from = |(n, closed): (i128, bool)| said_end(self.number(n), closed, true);
        let to = |(n, closed): (i128, bool)| said_end(self.number(n), closed, false);
        let what = if self.length { "lengths" } else { "fractions" };
        match (open_lo, open_hi) {
            (true, true) => "every number".into(),
            (true, false) => to(high),
            (false, true) => from(low),
            _ if lo == hi && low.1 => self.number(low.0),
            _ if lo == hi => format!(
                "the {what} between {} and {}",
                self.number(low.0),
                self.number(high.0)
            ),
            _ if low.1 && high.1 && low.0 < 0 => {
                format!("{}..{}", self.number(low.0), self.number(high.0))
            }
            _ if low.1 && high.1 => format!("{}-{}", self.number(low.0), self.number(high.0)),
            _ => format!("{} and {}", from(low), to(high)),
        }
    }

    /// Several stretches of numbers: `3, 5-6 and 11 or more`; when one is itself two
    /// bounds (`more than 1/7 and less than 1/5`), each apart: `...; more than 1/3 and ...`.
    pub(in crate::check) fn shown_all(self, iv: &[(i128, i128)]) -> String {
        let parts: Vec<String> = iv.iter().map(|&i| self.shown(i)).collect();
        if parts.len() > 1 && parts.iter().any(|p| p.contains(" and ")) {
            return parts.join("; ");
        }
        match parts.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => parts.join(""),
        }
    }

    /// A fraction in the stretch, as the umpire would type it (`5 1/2`, `24 1/2"`), when
    /// the stretch holds numbers between the steps.
    pub(in crate::check) fn a_fraction(self, (lo, hi): (i128, i128)) -> Option<String> {
        if !self.fractions {
            return None;
        }
        let odd = if lo.rem_euclid(2) == 1 { lo } else { lo + 1 };
        if odd > hi || odd <= self.lo() || odd >= self.hi() {
            return None;
        }
        // Halfway between the step points on either side.
        let q = Q::new(odd, 2 * self.denom);
        let mark = if self.length { "\"" } else { "" };
        match (i64::try_from(*q.numer()), i64::try_from(*q.denom())) {
            (Ok(a), Ok(b)) => Some(format!("{}{mark}", Mixed(Rational::new(a, b)))),
            _ => None,
        }
    }
}

/// The numbers an alternative is bounded by.
fn bounds_of(a: &Alt) -> Vec<Rational> {
    match a {
        Alt::AtLeast(n) | Alt::AtMost(n) | Alt::MoreThan(n) | Alt::LessThan(n) => vec![*n],
        Alt::Range(a, b) => vec![*a, *b],
        _ => Vec::new(),
    }
}

fn end(e: End) -> Option<Q> {
    match e {
        End::At(q) => Some(q),
        _ => None,
    }
}

/// One end of a stretch as a rulebook says it: `5 or more` / `more than 5` (`upward`),
/// `5 or less` / `less than 5`; `closed`: the number itself included.
fn said_end(number: String, closed: bool, upward: bool) -> String {
    match (closed, upward) {
        (true, true) => format!("{number} or more"),
        (false, true) => format!("more than {number}"),
        (true, false) => format!("{number} or less"),
        (false, false) => format!("less than {number}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const WHOLE: Scale = Scale::WHOLE;
    const FRACTIONS: Scale = Scale {
        fractions: true,
        denom: 1,
        length: false,
        feet: false,
    };

    #[test]
    fn num_and_length_keys_take_fractions() {
        assert_eq!(Scale::of(&Ty::Num), FRACTIONS);
        assert!(Scale::of(&Ty::Length).fractions && Scale::of(&Ty::Length).length);
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
        let n = Rational::from_integer;
        let p = Pat::Alts(vec![Alt::Range(n(3), n(5)), Alt::AtLeast(n(6))]);
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
    fn strict_and_fractional_bounds_on_a_length_key() {
        let inches = Scale {
            fractions: true,
            denom: 2,
            length: true,
            feet: true,
        };
        let n = Rational::from_integer;
        // `more than 2'` (24") starts just past 24" (at 2 x 48 + 1); `2' or less` ends on it.
        let more = Pat::Alts(vec![Alt::MoreThan(n(24))]);
        let upto = Pat::Alts(vec![Alt::AtMost(n(24))]);
        assert_eq!(inches.spans(&more), Some(vec![(97, inches.hi())]));
        assert_eq!(inches.spans(&upto), Some(vec![(inches.lo(), 96)]));
        // `less than 1/2"`: up to just short of the half inch (2 x 1).
        let less = Pat::Alts(vec![Alt::LessThan(Rational::new(1, 2))]);
        assert_eq!(inches.spans(&less), Some(vec![(inches.lo(), 1)]));
        assert_eq!(inches.shown((96, 96)), "2'");
        assert_eq!(
            inches.shown((95, 95)),
            "the lengths between 23 1/2\" and 2'"
        );
        assert_eq!(inches.a_fraction((95, 95)).as_deref(), Some("23 3/4\""));
        // On a whole-number key, strict bounds are the next whole number in.
        let six = Pat::Alts(vec![
            Alt::MoreThan(n(6)),
            Alt::LessThan(Rational::new(1, 2)),
        ]);
        assert_eq!(WHOLE.spans(&six), Some(vec![(7, HI), (LO, 0)]));
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
