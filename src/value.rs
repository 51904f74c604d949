//! Runtime values: exact numbers, lengths, time in moves, real time in minutes, records,
//! pairs.
//!
//! Arithmetic is exact ([`Rational`], 64-bit numerator and denominator) and checked:
//! overflow and division by zero are errors, never a wrap or a panic. Numbers print the
//! way a rulebook writes them — `1 3/4`, lengths `1 3/4"` or `2'`, time `1/2 move`.

use num_integer::Integer;
use num_traits::{CheckedAdd, CheckedDiv, CheckedMul, CheckedSub, Signed, Zero};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::rc::Rc;

pub mod written;

/// The unit a length was written in, which is the unit it prints in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LengthUnit {
    /// `"` inches
    Inches,
    /// `'` feet (12 inches)
    Feet,
}

/// An exact number.
pub type Rational = num_rational::Ratio<i64>;

/// Why an arithmetic operation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ArithError {
    /// The result does not fit in 64-bit numerator and denominator.
    #[error("the result is too large to hold exactly")]
    Overflow,
    /// Division or remainder by zero.
    #[error("division by zero")]
    DivisionByZero,
}

/// Checked exact arithmetic on [`Rational`].
pub mod arith {
    use super::*;

    /// `whole(a, b)` when both are whole numbers (the common case: no common
    /// denominator to find), else `any(a, b)`; `None` from either is an overflow.
    fn either(
        a: Rational,
        b: Rational,
        whole: fn(i64, i64) -> Option<i64>,
        any: fn(&Rational, &Rational) -> Option<Rational>,
    ) -> Result<Rational, ArithError> {
        let r = if a.is_integer() && b.is_integer() {
            whole(*a.numer(), *b.numer()).map(Rational::from_integer)
        } else {
            any(&a, &b)
        };
        r.ok_or(ArithError::Overflow)
    }
    /// `a + b`
    pub fn add(a: Rational, b: Rational) -> Result<Rational, ArithError> {
        either(a, b, i64::checked_add, |a, b| a.checked_add(b))
    }
    /// `a - b`
    pub fn sub(a: Rational, b: Rational) -> Result<Rational, ArithError> {
        either(a, b, i64::checked_sub, |a, b| a.checked_sub(b))
    }
    /// `a × b`
    pub fn mul(a: Rational, b: Rational) -> Result<Rational, ArithError> {
        either(a, b, i64::checked_mul, |a, b| a.checked_mul(b))
    }
    /// `a / b`
    pub fn div(a: Rational, b: Rational) -> Result<Rational, ArithError> {
        if b.is_zero() {
            return Err(ArithError::DivisionByZero);
        }
        a.checked_div(&b).ok_or(ArithError::Overflow)
    }
    /// `a % b` on whole numbers; the result has the sign of `a` (`-7 % 3 == -1`).
    pub fn rem(a: i64, b: i64) -> Result<i64, ArithError> {
        if b == 0 {
            return Err(ArithError::DivisionByZero);
        }
        // i64::MIN % -1 is 0; only the machine instruction overflows.
        if b == -1 {
            return Ok(0);
        }
        a.checked_rem(b).ok_or(ArithError::Overflow)
    }
    /// `-a`
    pub fn neg(a: Rational) -> Result<Rational, ArithError> {
        Rational::new_raw(0, 1)
            .checked_sub(&a)
            .ok_or(ArithError::Overflow)
    }
    /// Round down, toward minus infinity: `floor(-1/2) == -1`.
    pub fn floor(a: Rational) -> Rational {
        Rational::from_integer(a.numer().div_floor(a.denom()))
    }
    /// Round up, toward plus infinity: `ceil(-1/2) == 0`.
    pub fn ceil(a: Rational) -> Rational {
        // Widened: `-numer` of i64::MIN does not fit in i64. The result always fits.
        let n = -i128::from(*a.numer());
        let q = -Integer::div_floor(&n, &i128::from(*a.denom()));
        Rational::from_integer(i64::try_from(q).unwrap_or(i64::MAX))
    }
    /// Nearest whole number, halves away from zero: `round(5/2) == 3`, `round(-5/2) == -3`.
    pub fn round(a: Rational) -> Result<Rational, ArithError> {
        // In 128 bits: (2|n| + d) / 2d, floored, with the sign put back. The result of
        // rounding a 64-bit fraction always fits in 64 bits.
        let n = i128::from(*a.numer());
        let d = i128::from(*a.denom());
        let q = (2 * n.abs() + d) / (2 * d);
        let q = if n < 0 { -q } else { q };
        i64::try_from(q)
            .map(Rational::from_integer)
            .map_err(|_| ArithError::Overflow)
    }
    /// Toward zero: `trunc(-3/2) == -1`.
    pub fn trunc(a: Rational) -> Rational {
        Rational::from_integer(a.numer() / a.denom())
    }
}

/// A length in exact inches, remembering whether the ruleset measured it in feet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Length {
    /// Exact inches.
    pub inches: Rational,
    /// How to print it.
    pub unit: LengthUnit,
}

impl Length {
    /// The unit of a result combining two lengths: feet only if both are in feet.
    pub fn unit_of(a: LengthUnit, b: LengthUnit) -> LengthUnit {
        if a == LengthUnit::Feet && b == LengthUnit::Feet {
            LengthUnit::Feet
        } else {
            LengthUnit::Inches
        }
    }
}

impl fmt::Display for Length {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let twelve = Rational::from_integer(12);
        let big = self.inches >= twelve || self.inches <= -twelve;
        if self.unit == LengthUnit::Feet && big {
            // `2'`, or `2' 6"` when not whole feet.
            // In 128 bits, so the most negative length prints too.
            let sign = if self.inches.is_negative() { "-" } else { "" };
            let n = i128::from(*self.inches.numer()).abs();
            let d = i128::from(*self.inches.denom());
            let feet = n / (12 * d);
            let rest_n = n - feet * 12 * d;
            if rest_n == 0 {
                write!(f, "{sign}{feet}'")
            } else {
                write!(f, "{sign}{feet}' {}\"", MixedWide(rest_n, d))
            }
        } else {
            write!(f, "{}\"", Mixed(self.inches))
        }
    }
}

/// A non-negative fraction `n/d` in 128 bits, printed as a mixed fraction.
struct MixedWide(i128, i128);

impl fmt::Display for MixedWide {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (n, d) = (self.0, self.1);
        let g = gcd(n, d).max(1);
        let (n, d) = (n / g, d / g);
        let (whole, rest) = (n / d, n % d);
        match (whole, rest) {
            (w, 0) => write!(f, "{w}"),
            (0, r) => write!(f, "{r}/{d}"),
            (w, r) => write!(f, "{w} {r}/{d}"),
        }
    }
}

fn gcd(a: i128, b: i128) -> i128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// Prints a rational as a mixed fraction: `7`, `3/4`, `1 3/4`, `-1 3/4`.
#[derive(Debug, Clone, Copy)]
pub struct Mixed(pub Rational);

impl fmt::Display for Mixed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let r = self.0;
        if r.is_integer() {
            return write!(f, "{}", r.numer());
        }
        let sign = if r.is_negative() { "-" } else { "" };
        // |numer| may be i64::MIN: widen before taking the absolute value.
        let n = i128::from(*r.numer()).abs();
        let d = i128::from(*r.denom());
        let whole = n / d;
        let rest = n % d;
        if whole == 0 {
            write!(f, "{sign}{rest}/{d}")
        } else {
            write!(f, "{sign}{whole} {rest}/{d}")
        }
    }
}

/// Time in moves, printed `1/2 move`, `1 move`, `2 moves`.
#[derive(Debug, Clone, Copy)]
pub struct Moves(pub Rational);

impl fmt::Display for Moves {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // "0 moves", "1/2 move", "1 move", "1 1/2 moves".
        counted(f, self.0, "move", "moves")
    }
}

/// Real time at the table, printed `1/2 minute`, `1 minute`, `7 minutes`, `1 1/2 minutes`.
#[derive(Debug, Clone, Copy)]
pub struct RealMinutes(pub Rational);

impl fmt::Display for RealMinutes {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Plural as for moves: "0 minutes", "1/2 minute", "1 minute", "1 1/2 minutes".
        counted(f, self.0, "minute", "minutes")
    }
}

/// `n` as a mixed number, then its unit: `singular` from -1 to 1 but for 0, `plural`
/// otherwise.
fn counted(f: &mut fmt::Formatter<'_>, n: Rational, singular: &str, plural: &str) -> fmt::Result {
    let one = Rational::from_integer(1);
    let many = n > one || n < -one || n == Rational::from_integer(0);
    write!(f, "{} {}", Mixed(n), if many { plural } else { singular })
}

/// The named members of a group, in order (`units`: `old_guard`, `second_foot`, ...).
pub type Members = Vec<(Rc<str>, Value)>;

/// Index of an enum type in the checked program.
pub type EnumId = u16;

/// A runtime value.
///
/// A number is [`Value::Int`] when it is whole and [`Value::Frac`] only when it is not:
/// [`Value::num`] keeps that true, so equal numbers are equal values and whole-number
/// arithmetic never touches a fraction.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Value {
    /// A whole number.
    Int(i64),
    /// A number that is not whole (`1/2`, `-1 3/4`); never a whole number.
    Frac(Rational),
    /// A length.
    Length(Length),
    /// Time, in moves.
    Time(Rational),
    /// Real time at the table, in minutes (`7 minutes`): not game time.
    Minutes(Rational),
    /// `true` / `false`
    Bool(bool),
    /// Text.
    Text(Rc<str>),
    /// An enum value: its enum and its index.
    Enum(EnumId, u16),
    /// A record: fields in order.
    Record(Rc<Vec<(Rc<str>, Value)>>),
    /// Two values in one cell (`24/20"` as `(24", 20")`): `.first` and `.second`.
    Pair(Rc<(Value, Value)>),
    /// Named members, in the order the state file gives them (`units.old_guard`).
    Group(Rc<Vec<(Rc<str>, Value)>>),
}

impl Value {
    /// A whole number.
    pub fn int(i: i64) -> Value {
        Value::Int(i)
    }

    /// A number: [`Value::Int`] when whole, else [`Value::Frac`].
    pub fn num(r: Rational) -> Value {
        if r.is_integer() {
            Value::Int(*r.numer())
        } else {
            Value::Frac(r)
        }
    }

    /// The whole number this value holds, if it is one.
    pub fn as_int(&self) -> Option<i64> {
        match self {
            Value::Int(i) => Some(*i),
            _ => None,
        }
    }

    /// The number this value holds, whole or not, if it is a number.
    pub fn as_number(&self) -> Option<Rational> {
        match self {
            Value::Int(i) => Some(Rational::from_integer(*i)),
            Value::Frac(r) => Some(*r),
            _ => None,
        }
    }

    /// A record field by name.
    pub fn field(&self, name: &str) -> Option<&Value> {
        match self {
            Value::Record(fields) | Value::Group(fields) => {
                fields.iter().find(|(n, _)| &**n == name).map(|(_, v)| v)
            }
            Value::Pair(p) => match name {
                "first" => Some(&p.0),
                "second" => Some(&p.1),
                _ => None,
            },
            _ => None,
        }
    }

    /// Equality as the rulebook means it: records compare field by field whatever
    /// their order; lengths compare by inches whatever the unit.
    pub fn same(&self, other: &Value) -> bool {
        match (self, other) {
            (Value::Length(a), Value::Length(b)) => a.inches == b.inches,
            // The same shared value is the same: no need to walk it.
            (Value::Record(a), Value::Record(b)) if Rc::ptr_eq(a, b) => true,
            (Value::Pair(a), Value::Pair(b)) if Rc::ptr_eq(a, b) => true,
            (Value::Group(a), Value::Group(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|((n, v), (m, w))| n == m && v.same(w))
            }
            (Value::Record(a), Value::Record(b)) => {
                a.len() == b.len()
                    && a.iter()
                        .all(|(n, v)| other.field(n).is_some_and(|w| v.same(w)))
                    && b.iter().all(|(n, _)| self.field(n).is_some())
            }
            (Value::Pair(a), Value::Pair(b)) => a.0.same(&b.0) && a.1.same(&b.1),
            _ => self == other,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn mixed_fractions_print_as_a_rulebook_writes_them() {
        assert_eq!(Mixed(r(7, 4)).to_string(), "1 3/4");
        assert_eq!(Mixed(r(-7, 4)).to_string(), "-1 3/4");
        assert_eq!(Mixed(r(3, 4)).to_string(), "3/4");
        assert_eq!(Mixed(r(6, 1)).to_string(), "6");
        let l = Length {
            inches: r(7, 4),
            unit: LengthUnit::Inches,
        };
        assert_eq!(l.to_string(), "1 3/4\"");
        let ft = Length {
            inches: r(24, 1),
            unit: LengthUnit::Feet,
        };
        assert_eq!(ft.to_string(), "2'");
        let ft = Length {
            inches: r(30, 1),
            unit: LengthUnit::Feet,
        };
        assert_eq!(ft.to_string(), "2' 6\"");
        assert_eq!(Moves(r(1, 2)).to_string(), "1/2 move");
        assert_eq!(Moves(r(2, 1)).to_string(), "2 moves");
        assert_eq!(RealMinutes(r(1, 1)).to_string(), "1 minute");
        assert_eq!(RealMinutes(r(7, 1)).to_string(), "7 minutes");
        assert_eq!(RealMinutes(r(3, 2)).to_string(), "1 1/2 minutes");
        assert_eq!(RealMinutes(r(1, 2)).to_string(), "1/2 minute");
        assert_eq!(RealMinutes(r(0, 1)).to_string(), "0 minutes");
    }

    #[test]
    fn rounding_on_negatives_is_defined() {
        assert_eq!(arith::floor(r(-1, 2)), r(-1, 1));
        assert_eq!(arith::ceil(r(-1, 2)), r(0, 1));
        assert_eq!(arith::round(r(-5, 2)), Ok(r(-3, 1)));
        assert_eq!(arith::round(r(5, 2)), Ok(r(3, 1)));
        assert_eq!(arith::trunc(r(-3, 2)), r(-1, 1));
    }

    #[test]
    fn overflow_and_zero_are_errors() {
        let big = Rational::from_integer(i64::MAX);
        assert_eq!(arith::add(big, big), Err(ArithError::Overflow));
        assert_eq!(
            arith::div(big, Rational::zero()),
            Err(ArithError::DivisionByZero)
        );
        assert_eq!(arith::rem(i64::MIN, -1), Ok(0));
        assert_eq!(
            arith::round(Rational::new(i64::MAX, 2)),
            Ok(Rational::from_integer(i64::MAX / 2 + 1))
        );
        let min = Length {
            inches: Rational::from_integer(i64::MIN),
            unit: LengthUnit::Feet,
        };
        assert_eq!(min.to_string(), "-768614336404564650' 8\"");
        assert_eq!(
            arith::neg(Rational::from_integer(i64::MIN)),
            Err(ArithError::Overflow)
        );
    }
}
