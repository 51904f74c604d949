//! Whole numbers as ranges with unbounded ends, and the arithmetic on them that the
//! coverage analysis needs: each result holds every value the operation can give.

use crate::program::IntRange;
use num_rational::Ratio;
use num_traits::{CheckedAdd, CheckedMul};

/// A number as the analysis holds it: an exact fraction, wide enough for any product of
/// two whole numbers a ruleset writes.
pub(super) type Q = Ratio<i128>;

/// Below and above every whole number a key can be.
pub(in crate::check) const LO: i128 = i64::MIN as i128 - 1;
pub(in crate::check) const HI: i128 = i64::MAX as i128 + 1;

/// One end of a range: a number, or unbounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Hash)]
pub(super) enum End {
    Below,
    At(Q),
    Above,
}

/// The values an expression can take: `lo..=hi`, or none (a refusal gives no value).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Reach {
    None,
    Span(End, End),
}

pub(super) use End::{Above, At, Below};

impl Reach {
    pub(super) const ALL: Reach = Reach::Span(Below, Above);

    pub(super) fn exactly(q: Q) -> Reach {
        Reach::Span(At(q), At(q))
    }

    pub(super) fn known(self) -> bool {
        self != Reach::ALL
    }

    /// Ends whose numbers have grown past 2^80 (in their top or bottom) widened to a
    /// whole number, or made unbounded when far past any whole number a key can be, so
    /// that no later step overflows. Only ever widened: a low end goes down, a high end
    /// up (a tiny low end such as 1/2^81 becomes 0, not 2^80).
    pub(super) fn tame(self) -> Reach {
        let limit: i128 = 1 << 80;
        let wild = |q: &Q| q.numer().unsigned_abs() > limit as u128 || *q.denom() > limit;
        let tame_whole = |w: Q| w.numer().unsigned_abs() <= limit as u128;
        match self {
            Reach::Span(lo, hi) => Reach::Span(
                match lo {
                    At(q) if wild(&q) => match q.floor() {
                        w if tame_whole(w) => At(w),
                        _ if q < Q::from_integer(0) => Below,
                        // A huge positive low end: known only to be large.
                        _ => At(Q::from_integer(limit)),
                    },
                    e => e,
                },
                match hi {
                    At(q) if wild(&q) => match q.ceil() {
                        w if tame_whole(w) => At(w),
                        _ if q > Q::from_integer(0) => Above,
                        _ => At(Q::from_integer(-limit)),
                    },
                    e => e,
                },
            ),
            r => r,
        }
    }

    /// Both ends of `self` and `other`: the values either can take.
    pub(super) fn union(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::None, r) | (r, Reach::None) => r,
            (Reach::Span(a, b), Reach::Span(c, d)) => {
                Reach::Span(if a < c { a } else { c }, if b > d { b } else { d })
            }
        }
    }

    /// Only the values a declared range allows (the range is enforced where it is declared).
    pub(super) fn within(self, range: Option<IntRange>) -> Reach {
        let Some(r) = range else { return self };
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => {
                let rlo = At(Q::from_integer(r.lo.into()));
                let rhi = r.hi.map_or(Above, |h| At(Q::from_integer(h.into())));
                let (lo, hi) = (
                    if lo > rlo { lo } else { rlo },
                    if hi < rhi { hi } else { rhi },
                );
                if lo > hi {
                    Reach::None
                } else {
                    Reach::Span(lo, hi)
                }
            }
        }
    }

    /// Only the values from `lo` to `hi` (whole-number bounds; LO and HI unbounded).
    pub(super) fn between(self, lo: i128, hi: i128) -> Reach {
        let Reach::Span(a, b) = self else {
            return Reach::None;
        };
        let lo = if lo <= LO {
            Below
        } else {
            At(Q::from_integer(lo))
        };
        let hi = if hi >= HI {
            Above
        } else {
            At(Q::from_integer(hi))
        };
        let (a, b) = (if a > lo { a } else { lo }, if b < hi { b } else { hi });
        if a > b {
            Reach::None
        } else {
            Reach::Span(a, b)
        }
    }

    pub(super) fn neg(self) -> Reach {
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => Reach::Span(flip(hi), flip(lo)),
        }
    }

    pub(super) fn add(self, other: Reach) -> Reach {
        match (self, other) {
            (Reach::None, _) | (_, Reach::None) => Reach::None,
            (Reach::Span(a, b), Reach::Span(c, d)) => Reach::Span(
                match (a, c) {
                    (At(x), At(y)) => x.checked_add(&y).map_or(Below, At),
                    _ => Below,
                },
                match (b, d) {
                    (At(x), At(y)) => x.checked_add(&y).map_or(Above, At),
                    _ => Above,
                },
            ),
        }
    }

    pub(super) fn mul(self, other: Reach) -> Reach {
        let (Reach::Span(a, b), Reach::Span(c, d)) = (self, other) else {
            return Reach::None;
        };
        let mut corners = Vec::with_capacity(4);
        for x in [a, b] {
            for y in [c, d] {
                match times(x, y) {
                    Some(p) => corners.push(p),
                    None => return Reach::ALL,
                }
            }
        }
        hull(&corners)
    }

    /// `self / other`, when `other` cannot be zero and is bounded.
    pub(super) fn div(self, other: Reach) -> Reach {
        match other {
            Reach::None => Reach::None,
            Reach::Span(At(c), At(d)) if c > Q::from_integer(0) || d < Q::from_integer(0) => {
                self.mul(Reach::Span(At(d.recip()), At(c.recip())))
            }
            _ => Reach::ALL,
        }
    }

    /// A monotone rounding applied to both ends.
    pub(super) fn map(self, f: impl Fn(Q) -> Q) -> Reach {
        match self {
            Reach::None => Reach::None,
            Reach::Span(lo, hi) => Reach::Span(end_map(lo, &f), end_map(hi, &f)),
        }
    }
}

pub(super) fn flip(e: End) -> End {
    match e {
        Below => Above,
        Above => Below,
        At(q) => At(-q),
    }
}

fn end_map(e: End, f: &impl Fn(Q) -> Q) -> End {
    match e {
        At(q) => At(f(q)),
        other => other,
    }
}

/// The product of two ends; `None` when it overflows.
fn times(x: End, y: End) -> Option<End> {
    let zero = Q::from_integer(0);
    let sign = |e: End| match e {
        Below => -1,
        Above => 1,
        At(q) if q < zero => -1,
        At(q) if q > zero => 1,
        At(_) => 0,
    };
    match (x, y) {
        (At(a), At(b)) => a.checked_mul(&b).map(At),
        _ => Some(match sign(x) * sign(y) {
            0 => At(zero),
            s if s < 0 => Below,
            _ => Above,
        }),
    }
}

fn hull(ends: &[End]) -> Reach {
    let mut it = ends.iter().copied();
    let Some(first) = it.next() else {
        return Reach::None;
    };
    let (mut lo, mut hi) = (first, first);
    for e in it {
        if e < lo {
            lo = e;
        }
        if e > hi {
            hi = e;
        }
    }
    Reach::Span(lo, hi)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `lo..=hi`, both ends whole numbers.
    fn span(lo: i128, hi: i128) -> Reach {
        Reach::Span(at(lo), at(hi))
    }
    fn at(n: i128) -> End {
        At(Q::from_integer(n))
    }
    fn frac(n: i128, d: i128) -> End {
        At(Q::new(n, d))
    }

    #[test]
    fn ends_order_below_numbers_above() {
        assert!(Below < at(i128::MIN));
        assert!(at(-1) < at(0));
        assert!(at(i128::MAX) < Above);
        assert!(!Reach::ALL.known() && span(1, 6).known());
    }

    /// A tiny end (a huge bottom) is widened to the whole number past it, never moved
    /// inwards: 1/2^81 as a low end is 0 (it was made 2^80, claiming every value that
    /// large), -1/2^81 as a high end is 0.
    #[test]
    fn tame_widens_tiny_ends_to_whole_numbers() {
        let tiny = Q::new(1, 1 << 81);
        let r = Reach::Span(At(tiny), At(Q::from_integer(6))).tame();
        assert_eq!(r, span(0, 6));
        let r = Reach::Span(At(Q::from_integer(-6)), At(-tiny)).tame();
        assert_eq!(r, span(-6, 0));
        let r = Reach::Span(At(-tiny), At(tiny)).tame();
        assert_eq!(r, span(-1, 1));
        // A moderate value with a huge top and bottom keeps its whole part: (2^90 + 1)/2^80
        // is a little over 1024.
        let big = Q::new((1 << 90) + 1, 1 << 80);
        assert_eq!(Reach::Span(At(big), At(big)).tame(), span(1024, 1025));
    }

    #[test]
    fn tame_keeps_ordinary_ends_and_opens_huge_ones() {
        let big: i128 = 1 << 81;
        let limit: i128 = 1 << 80;
        assert_eq!(span(-8, 18).tame(), span(-8, 18));
        // Exactly 2^80 is not past the limit.
        assert_eq!(span(-limit, limit).tame(), span(-limit, limit));
        // A huge negative low end and a huge positive high end: unbounded.
        assert_eq!(span(-big, big).tame(), Reach::ALL);
        // A huge positive low end is known only to be large: 2^80 and up.
        assert_eq!(span(big, big).tame(), Reach::Span(at(limit), Above));
        // A huge negative high end: at most -2^80.
        assert_eq!(span(-big, -big).tame(), Reach::Span(Below, at(-limit)));
        assert_eq!(Reach::None.tame(), Reach::None);
    }

    #[test]
    fn union_takes_the_outer_ends() {
        assert_eq!(span(1, 3).union(span(5, 7)), span(1, 7));
        assert_eq!(span(5, 7).union(span(1, 3)), span(1, 7));
        assert_eq!(span(2, 4).union(Reach::None), span(2, 4));
        assert_eq!(Reach::None.union(span(2, 4)), span(2, 4));
        assert_eq!(
            Reach::Span(Below, at(2)).union(Reach::Span(at(0), Above)),
            Reach::ALL
        );
    }

    #[test]
    fn add_sums_the_ends() {
        // 1..6 + -2..3 = -1..9
        assert_eq!(span(1, 6).add(span(-2, 3)), span(-1, 9));
        // An unbounded end stays unbounded: ..2 + 1 = ..3
        assert_eq!(
            Reach::Span(Below, at(2)).add(span(1, 1)),
            Reach::Span(Below, at(3))
        );
        assert_eq!(Reach::ALL.add(span(1, 1)), Reach::ALL);
        // Nothing plus anything gives nothing.
        assert_eq!(Reach::None.add(span(1, 1)), Reach::None);
        assert_eq!(span(1, 1).add(Reach::None), Reach::None);
        // Minus: 1..6 - 2..3 = 1..6 + -3..-2 = -2..4
        assert_eq!(span(1, 6).add(span(2, 3).neg()), span(-2, 4));
    }

    #[test]
    fn add_overflow_opens_the_end() {
        // i128::MAX + 1 overflows: the high end becomes unbounded.
        assert_eq!(
            span(0, i128::MAX).add(span(1, 1)),
            Reach::Span(at(1), Above)
        );
        // i128::MIN + -1 overflows: the low end becomes unbounded.
        assert_eq!(
            span(i128::MIN, 0).add(span(-1, -1)),
            Reach::Span(Below, at(-1))
        );
    }

    #[test]
    fn neg_flips_and_swaps_the_ends() {
        assert_eq!(span(-2, 5).neg(), span(-5, 2));
        assert_eq!(Reach::Span(Below, at(3)).neg(), Reach::Span(at(-3), Above));
        assert_eq!(Reach::None.neg(), Reach::None);
    }

    #[test]
    fn mul_takes_the_hull_of_the_corners() {
        // -2..3 x 4..5: corners -8, -10, 12, 15 → -10..15
        assert_eq!(span(-2, 3).mul(span(4, 5)), span(-10, 15));
        // 1.. x 2..3: corners 2, 3, above, above → 2..
        assert_eq!(
            Reach::Span(at(1), Above).mul(span(2, 3)),
            Reach::Span(at(2), Above)
        );
        // 0.. x -1..2: corners 0, 0, below (above x -1), above → everything
        assert_eq!(Reach::Span(at(0), Above).mul(span(-1, 2)), Reach::ALL);
        // Zero times an unbounded end is zero: 0 x 1.. = 0
        assert_eq!(span(0, 0).mul(Reach::Span(at(1), Above)), span(0, 0));
        assert_eq!(Reach::None.mul(span(1, 2)), Reach::None);
        assert_eq!(span(1, 2).mul(Reach::None), Reach::None);
    }

    #[test]
    fn mul_overflow_gives_everything() {
        // i128::MAX x 2 overflows: nothing is known.
        assert_eq!(span(1, i128::MAX).mul(span(2, 2)), Reach::ALL);
    }

    #[test]
    fn div_multiplies_by_the_reciprocals() {
        // 1..6 / 2..3 = 1..6 x 1/3..1/2: corners 1/3, 1/2, 2, 3 → 1/3..3
        assert_eq!(span(1, 6).div(span(2, 3)), Reach::Span(frac(1, 3), at(3)));
        // -6..-2 / -2..-1 = -6..-2 x -1..-1/2: corners 6, 3, 2, 1 → 1..6
        assert_eq!(span(-6, -2).div(span(-2, -1)), span(1, 6));
    }

    #[test]
    fn div_by_what_may_be_zero_or_is_unbounded_gives_everything() {
        assert_eq!(span(1, 6).div(span(-1, 1)), Reach::ALL);
        assert_eq!(span(1, 6).div(span(0, 3)), Reach::ALL);
        assert_eq!(span(1, 6).div(Reach::Span(at(1), Above)), Reach::ALL);
        assert_eq!(span(1, 6).div(Reach::None), Reach::None);
    }

    #[test]
    fn within_and_between_cut_to_the_bounds() {
        let r = IntRange {
            lo: 1,
            hi: Some(10),
        };
        assert_eq!(span(0, 20).within(Some(r)), span(1, 10));
        assert_eq!(Reach::ALL.within(Some(r)), span(1, 10));
        assert_eq!(span(30, 40).within(Some(r)), Reach::None);
        assert_eq!(span(30, 40).within(None), span(30, 40));
        let open = IntRange { lo: 0, hi: None };
        assert_eq!(Reach::ALL.within(Some(open)), Reach::Span(at(0), Above));
        // LO and HI stand for unbounded.
        assert_eq!(Reach::ALL.between(LO, 5), Reach::Span(Below, at(5)));
        assert_eq!(Reach::ALL.between(-3, HI), Reach::Span(at(-3), Above));
        assert_eq!(span(1, 10).between(4, 6), span(4, 6));
        assert_eq!(span(1, 10).between(11, 12), Reach::None);
    }

    #[test]
    fn map_rounds_both_ends() {
        let r = Reach::Span(frac(-3, 2), frac(5, 2));
        assert_eq!(r.map(|q| q.floor()), span(-2, 2));
        assert_eq!(r.map(|q| q.ceil()), span(-1, 3));
        assert_eq!(Reach::ALL.map(|q| q.floor()), Reach::ALL);
    }
}
