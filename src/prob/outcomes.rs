//! Outcomes as a reader meets them: merged (`key`), ordered (`order`), as percentages,
//! and the mean, least and greatest of numbers (`stats`).

use super::{Case, Chance, Distribution};
use crate::adjudication::Outcome;
use crate::diagnostic::Code;
use crate::program::Program;
use crate::render::show_arg;
use crate::value::{Rational, Value};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// A key under which equal outcomes merge: values as `==` compares them (`12"` and
/// `1'` are one length), refusals and gaps by their words and section.
pub fn key(case: &Case) -> String {
    match case {
        Case::Outcome(Outcome::Value(v)) => value_key(v),
        other => format!("{other:?}"),
    }
}

/// [`key`] of a value, written from the value where it is (no outcome built around a
/// copy of it).
pub fn value_key(v: &Value) -> String {
    let mut out = String::from("v");
    key_into(v, &mut out);
    out
}

/// A value's part of a key, written into `out`.
fn key_into(v: &Value, out: &mut String) {
    use std::fmt::Write;
    // Written straight into the key (writing to a String cannot fail).
    let _ = match v {
        Value::Int(i) => write!(out, "n{i}"),
        Value::Frac(r) => write!(out, "n{r}"),
        Value::Length(l) => write!(out, "l{}", l.inches),
        Value::Time(t) => write!(out, "t{t}"),
        Value::Minutes(t) => write!(out, "m{t}"),
        Value::Bool(b) => out.write_str(if *b { "T" } else { "F" }),
        Value::Text(t) => write!(out, "s{t:?}"),
        Value::Enum(e, i) => write!(out, "e{e}.{i}"),
        Value::Record(fields) | Value::Group(fields) => {
            out.push('{');
            for (n, f) in fields.iter() {
                out.push_str(n);
                out.push(':');
                key_into(f, out);
                out.push(',');
            }
            out.write_str("}")
        }
        Value::Pair(p) => {
            out.push('(');
            key_into(&p.0, out);
            out.push(',');
            key_into(&p.1, out);
            out.write_str(")")
        }
    };
}

/// The key under which equal outcomes merge, hashed and compared as it is (no text
/// written per outcome): it agrees with [`Value::same`] — numbers by value, lengths by
/// inches (`12"` and `1'` are one), records field by field (by name), pairs and groups
/// part by part — and refusals, gaps and errors by their words and section.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum OutKey {
    /// A number.
    Num(Rational),
    /// A length, in inches.
    Length(Rational),
    /// A time, in moves.
    Time(Rational),
    /// Real time, in minutes.
    Minutes(Rational),
    /// True or false.
    Bool(bool),
    /// A text.
    Text(std::rc::Rc<str>),
    /// An enum value: its enum and index.
    Enum(crate::value::EnumId, u16),
    /// A record: its fields sorted by name (`same` compares records by name).
    Record(Box<[(std::rc::Rc<str>, OutKey)]>),
    /// A group: its members in order.
    Group(Box<[(std::rc::Rc<str>, OutKey)]>),
    /// A pair.
    Pair(Box<(OutKey, OutKey)>),
    /// A refusal: its reason and section.
    Refused(String, Option<String>),
    /// Not given: what, and the section.
    NotGiven(String, Option<String>),
    /// An error: its code, message, help and subject.
    Error(Code, String, Option<String>, Option<String>),
}

impl OutKey {
    /// The key of an outcome.
    pub fn of(case: &Case) -> OutKey {
        match case {
            Case::Outcome(Outcome::Value(v)) => OutKey::value(v),
            Case::Outcome(Outcome::Refused { reason, cite }) => {
                OutKey::Refused(reason.clone(), cite.clone())
            }
            Case::Outcome(Outcome::NotGiven { what, cite }) => {
                OutKey::NotGiven(what.clone(), cite.clone())
            }
            Case::Error {
                code,
                message,
                help,
                subject,
            } => OutKey::Error(*code, message.clone(), help.clone(), subject.clone()),
        }
    }

    /// The key of a value.
    pub fn value(v: &Value) -> OutKey {
        let fields = |fs: &[(std::rc::Rc<str>, Value)]| -> Vec<(std::rc::Rc<str>, OutKey)> {
            fs.iter()
                .map(|(n, f)| (n.clone(), OutKey::value(f)))
                .collect()
        };
        match v {
            Value::Int(i) => OutKey::Num(Rational::from_integer(*i)),
            Value::Frac(r) => OutKey::Num(*r),
            Value::Length(l) => OutKey::Length(l.inches),
            Value::Time(t) => OutKey::Time(*t),
            Value::Minutes(t) => OutKey::Minutes(*t),
            Value::Bool(b) => OutKey::Bool(*b),
            Value::Text(t) => OutKey::Text(t.clone()),
            Value::Enum(e, i) => OutKey::Enum(*e, *i),
            Value::Record(fs) => {
                let mut fs = fields(fs);
                fs.sort_by(|a, b| a.0.cmp(&b.0));
                OutKey::Record(fs.into())
            }
            Value::Group(fs) => OutKey::Group(fields(fs).into()),
            Value::Pair(p) => OutKey::Pair(Box::new((OutKey::value(&p.0), OutKey::value(&p.1)))),
        }
    }
}

/// The number a value is, for ordering: numbers, lengths in inches, times.
fn number_of(v: &Value) -> Option<Rational> {
    match v {
        Value::Int(i) => Some(Rational::from_integer(*i)),
        Value::Frac(r) | Value::Time(r) | Value::Minutes(r) => Some(*r),
        Value::Length(l) => Some(l.inches),
        _ => None,
    }
}

/// Orders two values as a reader expects them: numbers by value, enum values as
/// declared, false before true, records field by field in order and pairs part by
/// part (each by the same rule), anything else by its text.
pub(super) fn order_values(p: &Program, x: &Value, y: &Value) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    match (x, y) {
        _ if number_of(x).is_some() && number_of(y).is_some() => number_of(x).cmp(&number_of(y)),
        (Value::Enum(e, i), Value::Enum(f, j)) => (e, i).cmp(&(f, j)),
        (Value::Bool(m), Value::Bool(n)) => m.cmp(n),
        (Value::Record(a), Value::Record(b)) | (Value::Group(a), Value::Group(b)) => a
            .iter()
            .zip(b.iter())
            .map(|((_, v), (_, w))| order_values(p, v, w))
            .find(|o| *o != Ordering::Equal)
            .unwrap_or_else(|| a.len().cmp(&b.len())),
        (Value::Pair(a), Value::Pair(b)) => {
            order_values(p, &a.0, &b.0).then_with(|| order_values(p, &a.1, &b.1))
        }
        _ => show_arg(p, x).cmp(&show_arg(p, y)),
    }
}

/// Orders outcomes as a reader expects them: values first (by [`order_values`]), then
/// refusals, gaps in the source and errors.
pub(super) fn order(p: &Program, a: &Case, b: &Case) -> std::cmp::Ordering {
    let rank = |c: &Case| match c {
        Case::Outcome(Outcome::Value(_)) => 0,
        Case::Outcome(Outcome::Refused { .. }) => 1,
        Case::Outcome(Outcome::NotGiven { .. }) => 2,
        Case::Error { .. } => 3,
    };
    match (a, b) {
        _ if rank(a) != rank(b) => rank(a).cmp(&rank(b)),
        (Case::Outcome(Outcome::Value(x)), Case::Outcome(Outcome::Value(y))) => {
            order_values(p, x, y)
        }
        // Refusals, gaps and errors by their words: the same order however the paths
        // to them were met.
        _ => key(a).cmp(&key(b)),
    }
}

pub(super) fn to_f64(r: &BigRational) -> f64 {
    let (n, d) = (r.numer(), r.denom());
    // Each cut to its top 64 bits (a shift, no division of big numbers), divided as
    // floats, then scaled by the difference of the bits cut.
    let (cn, cd) = (n.bits().saturating_sub(64), d.bits().saturating_sub(64));
    let (Some(x), Some(y)) = ((n >> cn).to_f64(), (d >> cd).to_f64()) else {
        return 0.0;
    };
    if y == 0.0 {
        return 0.0;
    }
    let scale = i32::try_from(i128::from(cn) - i128::from(cd)).unwrap_or(i32::MIN);
    x / y * 2f64.powi(scale)
}

/// A probability as a percentage with two decimals, rounded exactly: `40.00%`.
pub fn percent(p: &BigRational) -> String {
    let scaled = p * BigRational::from_integer(BigInt::from(10_000));
    let r = scaled.round().to_integer();
    let (whole, frac) = (&r / BigInt::from(100), &r % BigInt::from(100));
    format!("{whole}.{:02}%", frac.to_u32().unwrap_or(0))
}

/// Exact chances written over one shared denominator, so that percentages, running
/// totals ("at least", "at most") and the mean are integer sums and one division each,
/// not a fraction's multiply and greatest common divisor per outcome.
pub(super) struct Shared {
    /// The least common multiple of the chances' denominators.
    pub denom: BigInt,
    /// Each chance times `denom`.
    pub nums: Vec<BigInt>,
    /// Their sum (`denom` when the chances add up to one).
    pub total: BigInt,
}

impl Shared {
    /// The chances over their least common denominator (the largest first: a sum of dice
    /// has every other denominator dividing it, so one remainder each finds that).
    pub fn of<'a>(ps: impl Iterator<Item = &'a BigRational> + Clone) -> Shared {
        let mut denom = ps
            .clone()
            .map(BigRational::denom)
            .max_by_key(|d| d.bits())
            .cloned()
            .unwrap_or_else(|| BigInt::from(1));
        for p in ps.clone() {
            let d = p.denom();
            if !(&denom % d).is_zero() {
                denom = &denom / denom.gcd(d) * d;
            }
        }
        let nums: Vec<BigInt> = ps.map(|p| p.numer() * (&denom / p.denom())).collect();
        let total = nums.iter().sum();
        Shared { denom, nums, total }
    }

    /// `n / denom` (a count of this denominator, not negative) as a percentage with two
    /// decimals, rounded half up exactly as [`percent`] rounds: `40.00%`.
    pub fn percent(&self, n: &BigInt) -> String {
        // round(n * 10000 / d) = floor((2 * n * 10000 + d) / (2 * d)) for n >= 0.
        let r: BigInt = (n * 20_000u32 + &self.denom) / (&self.denom * 2u32);
        match r.to_u64() {
            Some(r) => format!("{}.{:02}%", r / 100, r % 100),
            None => percent(&BigRational::new(n.clone(), self.denom.clone())),
        }
    }
}

/// An estimate as a percentage: `39.97%`.
pub fn percent_f(p: f64) -> String {
    format!("{:.2}%", p * 100.0)
}

/// Mean, least and greatest value, when every value is a number (lengths in inches,
/// times in moves): over the cases that give a value.
pub struct Stats {
    /// Exact mean (enumerated), else `None`.
    pub mean: Option<BigRational>,
    /// Estimated mean (or the exact one, rounded).
    pub mean_f: f64,
    /// Least value.
    pub min: Value,
    /// Greatest value.
    pub max: Value,
    /// The chance a value is given (1 when nothing is refused).
    pub given: f64,
}

impl Stats {
    /// The exact mean as a value in the results' own unit (`1' 6"`, `2 1/4 moves`), when
    /// it fits an exact number.
    pub fn mean_value(&self) -> Option<Value> {
        let m = self.mean.as_ref()?;
        let r = Rational::new(m.numer().to_i64()?, m.denom().to_i64()?);
        Some(match &self.min {
            Value::Length(l) => Value::Length(crate::value::Length {
                inches: r,
                unit: l.unit,
            }),
            Value::Time(_) => Value::Time(r),
            Value::Minutes(_) => Value::Minutes(r),
            _ => Value::num(r),
        })
    }
}

/// [`Stats`] of a distribution, if its values are numbers.
pub fn stats(d: &Distribution) -> Option<Stats> {
    let values: Vec<(&Chance, Rational)> = d
        .chances
        .iter()
        .filter_map(|c| match &c.case {
            Case::Outcome(Outcome::Value(_)) => Some(c.case.number().map(|n| (c, n))),
            _ => None,
        })
        .collect::<Option<Vec<_>>>()?;
    let (first, last) = (values.first()?, values.last()?);
    let big = |r: &Rational| BigRational::new(BigInt::from(*r.numer()), BigInt::from(*r.denom()));
    let value_of = |c: &Chance| match &c.case {
        Case::Outcome(Outcome::Value(v)) => v.clone(),
        _ => Value::Bool(false),
    };
    // Every case gives a value unless some outcome is a refusal, a gap or an error.
    let all_values = d
        .chances
        .iter()
        .all(|c| matches!(c.case, Case::Outcome(Outcome::Value(_))));
    let given: f64 = if all_values {
        1.0
    } else {
        values.iter().map(|(c, _)| c.estimate).sum()
    };
    let exact: Option<Vec<&BigRational>> = values.iter().map(|(c, _)| c.exact.as_ref()).collect();
    let mean = exact.and_then(|ps| {
        // Over the chances' shared denominator, and the values' (each value times it is
        // whole): the mean is one fraction made at the end.
        let shared = Shared::of(ps.iter().copied());
        let Some(lcm) = values.iter().try_fold(1i64, |l, (_, n)| {
            l.checked_mul(*n.denom() / l.gcd(n.denom()))
        }) else {
            // Values whose denominators share no 64-bit multiple: fraction by fraction.
            let sum = values
                .iter()
                .zip(&ps)
                .map(|((_, n), p)| *p * big(n))
                .fold(BigRational::zero(), |a, b| a + b);
            let total = ps.iter().fold(BigRational::zero(), |a, b| a + *b);
            return (!total.is_zero()).then(|| sum / total);
        };
        let sum: BigInt = values
            .iter()
            .zip(&shared.nums)
            .map(|((_, n), k)| k * BigInt::from(*n.numer()) * BigInt::from(lcm / *n.denom()))
            .sum();
        (!shared.total.is_zero()).then(|| BigRational::new(sum, shared.total * BigInt::from(lcm)))
    });
    let mean_f = match &mean {
        Some(m) => to_f64(m),
        None => {
            let n: f64 = values
                .iter()
                .map(|(c, n)| c.estimate * (*n.numer() as f64 / *n.denom() as f64))
                .sum();
            if given > 0.0 {
                n / given
            } else {
                0.0
            }
        }
    };
    Some(Stats {
        mean,
        mean_f,
        min: value_of(first.0),
        max: value_of(last.0),
        given,
    })
}
