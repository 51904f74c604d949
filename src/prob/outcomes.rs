//! Outcomes as a reader meets them: merged (`key`), ordered (`order`), as percentages,
//! and the mean, least and greatest of numbers (`stats`).

use super::{Case, Chance, Distribution};
use crate::adjudication::Outcome;
use crate::program::Program;
use crate::render::show_arg;
use crate::value::{Rational, Value};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};

/// A key under which equal outcomes merge: values as `==` compares them (`12"` and
/// `1'` are one length), refusals and gaps by their words and section.
pub fn key(case: &Case) -> String {
    fn value(v: &Value, out: &mut String) {
        use std::fmt::Write;
        // Written straight into the key (writing to a String cannot fail).
        let _ = match v {
            Value::Num(r) => write!(out, "n{r}"),
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
                    value(f, out);
                    out.push(',');
                }
                out.write_str("}")
            }
            Value::Pair(p) => {
                out.push('(');
                value(&p.0, out);
                out.push(',');
                value(&p.1, out);
                out.write_str(")")
            }
        };
    }
    match case {
        Case::Outcome(Outcome::Value(v)) => {
            let mut out = String::from("v");
            value(v, &mut out);
            out
        }
        other => format!("{other:?}"),
    }
}

/// Orders outcomes as a reader expects them.
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
            match (a.number(), b.number(), x, y) {
                (Some(m), Some(n), _, _) => m.cmp(&n),
                (_, _, Value::Enum(e, i), Value::Enum(f, j)) => (e, i).cmp(&(f, j)),
                (_, _, Value::Bool(m), Value::Bool(n)) => m.cmp(n),
                _ => show_arg(p, x).cmp(&show_arg(p, y)),
            }
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
            _ => Value::Num(r),
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
    let mean = if values.iter().all(|(c, _)| c.exact.is_some()) {
        let total: BigRational = values
            .iter()
            .filter_map(|(c, _)| c.exact.clone())
            .fold(BigRational::zero(), |a, b| a + b);
        let sum: BigRational = values
            .iter()
            .filter_map(|(c, n)| c.exact.as_ref().map(|p| p * big(n)))
            .fold(BigRational::zero(), |a, b| a + b);
        (!total.is_zero()).then(|| sum / total)
    } else {
        None
    };
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
