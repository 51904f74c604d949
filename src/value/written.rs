//! Numbers, lengths and times read from text as a rulebook writes them: the digits of a
//! number (`7`, `2.5`, `3/4`, `1 3/4`), shared with the ruleset parser, and the values a
//! state file holds as text (`"3/4"`, `"1 3/4"`, `'6"'`, `"2'"`, `"12' 6\""`,
//! `"1/2 move"`, `"2 moves"`, minutes `"7 minutes"`).
//!
//! It reads what the language reads, the way the grammar does (`grammar/umpire.pest`,
//! `number_text`, `length_lit`, `time_lit`), without the grammar: this is the ground
//! floor, below the parser.

use super::{arith, LengthUnit, Rational};
use num_traits::CheckedAdd;

/// Why a number's digits do not make an exact number.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumberError {
    /// A whole number (or a part of a fraction or decimal) past 64 bits.
    TooLarge,
    /// A decimal whose value is past 64 bits.
    DecimalTooLarge,
    /// A decimal with more places than 64 bits can hold exactly.
    TooManyDigits,
    /// A fraction with 0 below the line.
    ZeroBelow,
    /// A mixed number whose fraction is one or more, or not in lowest terms (`1 2/4`);
    /// with what it comes to, when that fits.
    NotMixed(Option<Rational>),
    /// A fraction not in lowest terms (`24/20`): its top and bottom as written, and its
    /// value.
    NotLowest {
        /// Above the line.
        numer: i64,
        /// Below the line.
        denom: i64,
        /// What it comes to.
        value: Rational,
    },
}

/// Reads one number's digits, as the grammar's `number_text` matched them: `7`, `2.5`,
/// `3/4` (in lowest terms, as a rulebook prints a fraction), `1 3/4` (the fraction less
/// than one, in lowest terms).
///
/// Errors: see [`NumberError`].
pub fn number(text: &str) -> Result<Rational, NumberError> {
    let int = |s: &str| s.trim().parse::<i64>().map_err(|_| NumberError::TooLarge);
    let s = text.trim();
    if s.contains(' ') || s.contains('/') {
        let mixed = s.contains(' ');
        let (whole, frac) = match s.rsplit_once(' ') {
            Some((w, f)) => (int(w)?, f.trim()),
            None => (0, s),
        };
        let (n, d) = frac.split_once('/').unwrap_or((frac, "1"));
        let (n, d) = (int(n)?, int(d)?);
        if d == 0 {
            return Err(NumberError::ZeroBelow);
        }
        let r = Rational::new(n, d);
        if mixed && (n >= d || *r.denom() != d) {
            return Err(NumberError::NotMixed(
                Rational::from_integer(whole).checked_add(&r),
            ));
        }
        if !mixed && *r.denom() != d {
            return Err(NumberError::NotLowest {
                numer: n,
                denom: d,
                value: r,
            });
        }
        Rational::from_integer(whole)
            .checked_add(&r)
            .ok_or(NumberError::TooLarge)
    } else if let Some((w, f)) = s.split_once('.') {
        let den = 10i64
            .checked_pow(u32::try_from(f.len()).unwrap_or(u32::MAX))
            .ok_or(NumberError::TooManyDigits)?;
        let num = int(w)?
            .checked_mul(den)
            .and_then(|x| x.checked_add(int(f).ok()?))
            .ok_or(NumberError::DecimalTooLarge)?;
        Ok(Rational::new(num, den))
    } else {
        Ok(Rational::from_integer(int(s)?))
    }
}

/// A value written as text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Written {
    /// `3/4`, `-1 1/2`, `2.5`: a number, which may be a division and carry signs.
    Number(Rational),
    /// `6"`, `2'`, `12' 6"`: the number in its unit (feet, for feet and inches).
    Length(Rational, LengthUnit),
    /// `1/2 move`, `2 moves`.
    Time(Rational),
    /// `1 minute`, `7 minutes`, `1 1/2 minutes`: real time.
    Minutes(Rational),
}

/// The language's white space (the grammar's `WHITESPACE`).
fn is_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{A0}')
}

/// Most signs in a row in front of one number, as in the language (`MAX_NESTING`).
const MAX_SIGNS: usize = 64;

/// Reads a number, length or time written out as text, the whole text (white space
/// round it aside): a length `6"`, `1 3/4"`, `2'`, `12' 6"` (`″` and `′` too); a time
/// `1/2 move`, `2 moves`; minutes `1 minute`, `7 minutes`; or a number `7`, `2.5`, `1 3/4`, `3/4`, with `-` signs and
/// `/` divisions as an expression of them reads (`-3/4`, `6/8`). A length or time
/// carries no sign.
///
/// `None` when it is none of these, or its number is not one (see [`number`]).
pub fn read(text: &str) -> Option<Written> {
    let uncommented = without_comments(text);
    let s = unbracketed(uncommented.trim_matches(is_space))?;
    let mut operators = 0;
    length(s)
        .or_else(|| time(s))
        .or_else(|| quotient(s, 0, &mut operators).map(Written::Number))
}

/// `text` without its comments: from a `#` to the end of its line, as the language
/// reads them (`"3/4 # as measured"`).
fn without_comments(text: &str) -> String {
    text.split_inclusive('\n')
        .map(|line| match line.find('#') {
            Some(at) if line.ends_with('\n') => format!("{}\n", &line[..at]),
            Some(at) => line[..at].to_string(),
            None => line.to_string(),
        })
        .collect()
}

/// `s` without the brackets round the whole of it (`(6")`, `((1 move))`), as the
/// language reads a bracketed value; `None` past the language's nesting limit.
fn unbracketed(mut s: &str) -> Option<&str> {
    for _ in 0..=MAX_SIGNS {
        match s.strip_prefix('(') {
            Some(inner) if closing(inner) == Some(inner.len() - 1) => {
                s = inner[..inner.len() - 1].trim_matches(is_space);
            }
            _ => return Some(s),
        }
    }
    None
}

/// Where the `)` that closes a `(` just before `s` stands in `s`, if it does.
fn closing(s: &str) -> Option<usize> {
    let mut depth = 0usize;
    for (i, c) in s.char_indices() {
        match c {
            '(' => depth += 1,
            ')' if depth == 0 => return Some(i),
            ')' => depth -= 1,
            _ => {}
        }
    }
    None
}

/// The number at the start of `s`, in the grammar's order (mixed, fraction, decimal,
/// whole), and what is left. Without `fraction`, `3/4` is not one number but `3` (in an
/// expression it is a division).
fn number_text(s: &str, fraction: bool) -> Option<(&str, &str)> {
    let digits = |s: &str| s.bytes().take_while(u8::is_ascii_digit).count();
    let lead = digits(s);
    if lead == 0 {
        return None;
    }
    let after = &s[lead..];
    // `1 3/4`: digits, spaces, digits `/` digits.
    let spaces = after.bytes().take_while(|&b| b == b' ').count();
    if spaces > 0 {
        let frac = &after[spaces..];
        let n = digits(frac);
        if n > 0 && frac[n..].starts_with('/') {
            let d = digits(&frac[n + 1..]);
            if d > 0 {
                return Some(s.split_at(lead + spaces + n + 1 + d));
            }
        }
    }
    // `3/4` and `2.5`.
    for mark in ['/', '.'] {
        if mark == '/' && !fraction {
            continue;
        }
        if let Some(rest) = after.strip_prefix(mark) {
            let n = digits(rest);
            if n > 0 {
                return Some(s.split_at(lead + 1 + n));
            }
        }
    }
    Some(s.split_at(lead))
}

/// `6"`, `2'`, `12' 6"`, the whole of `s`.
fn length(s: &str) -> Option<Written> {
    let (n, rest) = number_text(s, true)?;
    if let Some(after) = inch(rest) {
        return after
            .is_empty()
            .then(|| Some(Written::Length(number(n).ok()?, LengthUnit::Inches)))?;
    }
    let after = rest.strip_prefix('\'').or_else(|| rest.strip_prefix('′'))?;
    if after.is_empty() {
        return Some(Written::Length(number(n).ok()?, LengthUnit::Feet));
    }
    // `12' 6"`: the inches are carried as a fraction of a foot, and are less than 12.
    let (i, rest) = number_text(after.trim_start_matches(' '), true)?;
    if !inch(rest)?.is_empty() {
        return None;
    }
    let inches = number(i).ok()?;
    if inches >= Rational::from_integer(12) {
        return None;
    }
    let extra = arith::div(inches, Rational::from_integer(12)).ok()?;
    let feet = arith::add(number(n).ok()?, extra).ok()?;
    Some(Written::Length(feet, LengthUnit::Feet))
}

/// `s` after an inch mark at its start.
fn inch(s: &str) -> Option<&str> {
    s.strip_prefix('"').or_else(|| s.strip_prefix('″'))
}

/// `1/2 move`, `2 moves`, the whole of `s`.
fn time(s: &str) -> Option<Written> {
    let (n, rest) = number_text(s, true)?;
    let word = rest.strip_prefix(' ')?.trim_start_matches(' ');
    match word {
        "move" | "moves" => Some(Written::Time(number(n).ok()?)),
        "minute" | "minutes" => Some(Written::Minutes(number(n).ok()?)),
        _ => None,
    }
}

/// Most operators in one value, as in one expression of the language.
const MAX_OPERATORS: usize = 256;

/// Numbers divided (`/` or `÷`), each with any `-` signs in front and each perhaps in
/// brackets (`(3)/(4)`, `-(3/4)`): the whole of `s`. `depth`: the brackets round it;
/// `operators`: the divisions read so far, in the whole value.
fn quotient(s: &str, depth: usize, operators: &mut usize) -> Option<Rational> {
    let (mut value, mut rest) = signed(s, depth, operators)?;
    loop {
        rest = rest.trim_start_matches(is_space);
        if rest.is_empty() {
            return Some(value);
        }
        let after = rest.strip_prefix('/').or_else(|| rest.strip_prefix('÷'))?;
        *operators += 1;
        if *operators > MAX_OPERATORS {
            return None;
        }
        let (by, more) = signed(after.trim_start_matches(is_space), depth, operators)?;
        value = arith::div(value, by).ok()?;
        rest = more;
    }
}

/// A number, or a bracketed quotient, with any `-` signs in front (`-3`, `- -1 1/2`,
/// `-(3/4)`), and what is left.
fn signed<'s>(s: &'s str, depth: usize, operators: &mut usize) -> Option<(Rational, &'s str)> {
    let mut negative = false;
    let mut rest = s;
    for _ in 0..=MAX_SIGNS {
        match rest.strip_prefix('-') {
            Some(after) => {
                negative = !negative;
                rest = after.trim_start_matches(is_space);
            }
            None => {
                let (value, after) = match rest.strip_prefix('(') {
                    Some(inner) if depth < MAX_SIGNS => {
                        let end = closing(inner)?;
                        let v =
                            quotient(inner[..end].trim_matches(is_space), depth + 1, operators)?;
                        (v, &inner[end + 1..])
                    }
                    Some(_) => return None,
                    None => {
                        let (n, after) = number_text(rest, false)?;
                        (number(n).ok()?, after)
                    }
                };
                let value = if negative {
                    arith::neg(value).ok()?
                } else {
                    value
                };
                return Some((value, after));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn numbers_as_written() {
        // Each worked by hand from the rulebook reading of the text.
        assert_eq!(number("7"), Ok(r(7, 1)));
        assert_eq!(number("2.5"), Ok(r(5, 2)));
        assert_eq!(number("0.75"), Ok(r(3, 4)));
        assert_eq!(number("3/4"), Ok(r(3, 4)));
        assert_eq!(number("1 3/4"), Ok(r(7, 4)));
        assert_eq!(number("1   3/4"), Ok(r(7, 4)));
        assert_eq!(number("1 2/4"), Err(NumberError::NotMixed(Some(r(3, 2)))));
        assert_eq!(number("1 5/4"), Err(NumberError::NotMixed(Some(r(9, 4)))));
        let not_lowest = NumberError::NotLowest {
            numer: 24,
            denom: 20,
            value: r(6, 5),
        };
        assert_eq!(number("24/20"), Err(not_lowest));
        assert_eq!(number("3/0"), Err(NumberError::ZeroBelow));
        assert_eq!(number("9223372036854775808"), Err(NumberError::TooLarge));
        assert_eq!(
            number("0.0000000000000000001"),
            Err(NumberError::TooManyDigits)
        );
        assert_eq!(
            // 922337203685477580.7 is i64::MAX tenths, and fits; .8 does not.
            number("922337203685477580.8"),
            Err(NumberError::DecimalTooLarge)
        );
    }

    #[test]
    fn a_state_files_values() {
        use LengthUnit::{Feet, Inches};
        let cases = [
            ("3/4", Some(Written::Number(r(3, 4)))),
            ("6/8", Some(Written::Number(r(3, 4)))),
            (" 1 3/4 ", Some(Written::Number(r(7, 4)))),
            ("-1 1/2", Some(Written::Number(r(-3, 2)))),
            ("-3/4", Some(Written::Number(r(-3, 4)))),
            ("3 / -4", Some(Written::Number(r(-3, 4)))),
            ("1/2/3", Some(Written::Number(r(1, 6)))),
            ("1 3/4/2", Some(Written::Number(r(7, 8)))),
            ("- -2", Some(Written::Number(r(2, 1)))),
            ("0.75", Some(Written::Number(r(3, 4)))),
            ("3÷4", Some(Written::Number(r(3, 4)))),
            ("6\"", Some(Written::Length(r(6, 1), Inches))),
            ("1 3/4\"", Some(Written::Length(r(7, 4), Inches))),
            ("2.5″", Some(Written::Length(r(5, 2), Inches))),
            ("2'", Some(Written::Length(r(2, 1), Feet))),
            ("1/2′", Some(Written::Length(r(1, 2), Feet))),
            // 12 feet and 6/12 of a foot.
            ("12' 6\"", Some(Written::Length(r(25, 2), Feet))),
            ("12'6\"", Some(Written::Length(r(25, 2), Feet))),
            // 1 foot and 6 1/2 inches: 1 + 13/24 = 37/24 feet.
            ("1' 6 1/2\"", Some(Written::Length(r(37, 24), Feet))),
            ("1/2 move", Some(Written::Time(r(1, 2)))),
            ("2 moves", Some(Written::Time(r(2, 1)))),
            ("7 minutes", Some(Written::Minutes(r(7, 1)))),
            ("1 minute", Some(Written::Minutes(r(1, 1)))),
            ("1 1/2 minutes", Some(Written::Minutes(r(3, 2)))),
            ("1/2 minute", Some(Written::Minutes(r(1, 2)))),
            ("2 minutesx", None),
            ("1 1/2  moves", Some(Written::Time(r(3, 2)))),
            // Refused: not in lowest terms, not a rulebook's mixed number, no unit
            // apart from the number, inches of a foot or more, a sign on a length.
            ("24/20\"", None),
            ("24/20 moves", None),
            ("1 2/4", None),
            ("1 2/4\"", None),
            ("6 \"", None),
            ("1' 13\"", None),
            ("2' 6", None),
            ("-6\"", None),
            ("+3", None),
            ("3/0", None),
            ("2 movesx", None),
            ("1 move 2", None),
            ("2d6", None),
            ("3 x 4", None),
            ("1e3", None),
            ("", None),
            ("-", None),
        ];
        for (text, want) in cases {
            assert_eq!(read(text), want, "{text:?}");
        }
        let many = format!("{}1", "-".repeat(MAX_SIGNS));
        assert_eq!(read(&many), Some(Written::Number(r(1, 1))));
        assert_eq!(read(&format!("-{many}")), None);
    }

    /// Brackets and comments read as the language reads them in an expression (the state
    /// loader used the language's parser before, and state files may hold them).
    #[test]
    fn brackets_and_comments_read_as_the_language_reads_them() {
        assert_eq!(read("(3/4)"), Some(Written::Number(r(3, 4))));
        assert_eq!(read("-(3/4)"), Some(Written::Number(r(-3, 4))));
        assert_eq!(read("(3)/(4)"), Some(Written::Number(r(3, 4))));
        assert_eq!(read("((((1))))"), Some(Written::Number(r(1, 1))));
        // (1/2) / (3/4) = 2/3, not 1/2/3/4 = 1/24: brackets group.
        assert_eq!(read("(1/2)/(3/4)"), Some(Written::Number(r(2, 3))));
        assert_eq!(
            read("(6\")"),
            Some(Written::Length(r(6, 1), LengthUnit::Inches))
        );
        assert_eq!(read("(1 move)"), Some(Written::Time(r(1, 1))));
        assert_eq!(
            read("6\" # as measured"),
            Some(Written::Length(r(6, 1), LengthUnit::Inches))
        );
        assert_eq!(read("3/4 # c"), Some(Written::Number(r(3, 4))));
        assert_eq!(read("2 moves # c"), Some(Written::Time(r(2, 1))));
        assert_eq!(read("#0'\n7"), Some(Written::Number(r(7, 1))));
        // Unbalanced or empty brackets are not values.
        assert_eq!(read("(3/4"), None);
        assert_eq!(read("3/4)"), None);
        assert_eq!(read("()"), None);
        // As many divisions as an expression may hold, and not one more.
        let at_limit = format!("1{}", "/1".repeat(256));
        assert_eq!(read(&at_limit), Some(Written::Number(r(1, 1))));
        let past = format!("1{}", "/1".repeat(257));
        assert_eq!(read(&past), None);
        // Brackets nested past the language's limit are refused, not recursed into.
        let deep = format!("{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(read(&deep), None);
        let deep_inside = format!("1/{}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(read(&deep_inside), None);
    }
}
