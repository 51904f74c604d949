//! Rows never reached: a table's rows are read from the top down and the first that
//! matches wins, so a row every value of which the rows above it already take
//! (`_ => 1` then `2 => 2`) is never read — an error naming the row and the rows above
//! that take its values. The reverse order (`2 => 2` then `_ => 1`) is the rulebook's
//! "otherwise": the wider row below takes what the rows above leave.
//!
//! Containment is worked out exactly: on number keys with the rows' own bounds as
//! rationals (open or closed ends), on a whole-number key counting whole numbers only
//! and within the range the key is declared with; on named keys value by value.

use super::*;
use crate::diagnostic::Code;
use crate::value::Rational;

/// The most (row, earlier row, key) containments worked out for one table: a generated
/// table of a hundred thousand rows is left unjudged rather than compared pair by pair.
const SHADOW_WORK: usize = 4_000_000;

/// One end of a stretch of numbers: the bound and whether it is included; `None` is
/// no bound (minus or plus infinity).
type End = Option<(Rational, bool)>;

/// What a key can be: its type, the range a whole number is declared with, and its
/// named values (an enum's, `true`/`false`).
pub(super) struct KeyDomain {
    whole: bool,
    range: Option<IntRange>,
    named: Option<Vec<Value>>,
    /// The named values as [`named_key`]s, sorted: what a row `_` takes.
    named_keys: Vec<u64>,
}

/// A named value (`true`, an enum's value) as one number, for sorted sets of them.
fn named_key(v: &Value) -> Option<u64> {
    match v {
        Value::Bool(b) => Some(1 << 40 | u64::from(*b)),
        Value::Enum(e, i) => Some(2 << 40 | u64::from(*e) << 16 | u64::from(*i)),
        _ => None,
    }
}

/// The named value an alternative takes, as a [`named_key`]; `None` for a number.
fn alt_key(a: &Alt) -> Option<u64> {
    match a {
        Alt::Bool(b) => named_key(&Value::Bool(*b)),
        Alt::Enum(e, i) => named_key(&Value::Enum(*e, *i)),
        _ => None,
    }
}

/// A row's pattern on one key, worked out once for the pairs `shadowing` compares:
/// what [`KeyDomain::covers`] reads of it, without a vector made per pair.
struct Taken {
    any: bool,
    /// On a named key, the values it names ([`named_key`]s, sorted, once each).
    named: Vec<u64>,
    /// Whether an alternative is a number (on a named key it takes no value).
    odd: bool,
    /// On a number key, its stretches fitted to the key, sorted as `covered` sorts them.
    stretches: Vec<(End, End)>,
}

impl KeyDomain {
    /// The domain of table key `p`.
    pub(super) fn of(prog: &Program, p: &ParamInfo) -> KeyDomain {
        KeyDomain {
            whole: p.ty == Ty::Int,
            range: if p.ty == Ty::Int {
                p.range.and_then(crate::program::NumRange::int)
            } else {
                None
            },
            named: None,
            named_keys: Vec::new(),
        }
        .with_named(
            crate::program::listed_values(prog, &p.ty)
                .map(|vs| vs.into_iter().map(|(v, _)| v).collect()),
        )
    }

    fn with_named(mut self, named: Option<Vec<Value>>) -> KeyDomain {
        if let Some(values) = &named {
            self.named_keys = values.iter().filter_map(named_key).collect();
            self.named_keys.sort_unstable();
            self.named_keys.dedup();
        }
        self.named = named;
        self
    }

    /// Pattern `p` as [`KeyDomain::holds`] reads it.
    fn taken(&self, p: &Pat) -> Taken {
        let Pat::Alts(alts) = p else {
            return Taken {
                any: true,
                named: Vec::new(),
                odd: false,
                stretches: self.fit((None, None)).into_iter().collect(),
            };
        };
        let mut named: Vec<u64> = Vec::new();
        if self.named.is_some() {
            named = alts.iter().filter_map(alt_key).collect();
            named.sort_unstable();
            named.dedup();
        }
        let odd = alts.iter().any(|a| alt_key(a).is_none());
        let mut stretches: Vec<(End, End)> = if self.named.is_some() {
            Vec::new()
        } else {
            alts.iter()
                .filter_map(stretch)
                .filter_map(|s| self.fit(s))
                .collect()
        };
        stretches.sort_by(lowest_first);
        Taken {
            any: false,
            named,
            odd,
            stretches,
        }
    }

    /// `self.covers(&[earlier], later)`, of patterns worked out by [`KeyDomain::taken`].
    fn holds(&self, earlier: &Taken, later: &Taken) -> bool {
        if earlier.any {
            return true;
        }
        if self.named.is_some() {
            // The values `earlier` takes: its own alternatives' (a number takes none).
            let wanted: &[u64] = if later.any {
                &self.named_keys
            } else if later.odd {
                return false;
            } else {
                &later.named
            };
            return wanted.len() <= earlier.named.len()
                && wanted
                    .iter()
                    .all(|k| earlier.named.binary_search(k).is_ok());
        }
        !later.stretches.is_empty()
            && later
                .stretches
                .iter()
                .all(|&w| covered_sorted(w, &earlier.stretches))
    }

    /// Do the patterns `earlier` together take every value of `later` on this key?
    pub(super) fn covers(&self, earlier: &[&Pat], later: &Pat) -> bool {
        if earlier.iter().any(|p| matches!(p, Pat::Any)) {
            return true;
        }
        if let Some(values) = &self.named {
            let taken = |v: &Value| earlier.iter().any(|p| p.matches(v));
            return match later {
                Pat::Any => values.iter().all(taken),
                Pat::Alts(alts) => alts.iter().all(|a| match a {
                    Alt::Bool(b) => taken(&Value::Bool(*b)),
                    Alt::Enum(e, i) => taken(&Value::Enum(*e, *i)),
                    _ => false,
                }),
            };
        }
        let stretches: Vec<(End, End)> = earlier
            .iter()
            .flat_map(|p| match p {
                Pat::Any => vec![(None, None)],
                Pat::Alts(alts) => alts.iter().filter_map(stretch).collect(),
            })
            .filter_map(|s| self.fit(s))
            .collect();
        let wanted: Vec<(End, End)> = match later {
            Pat::Any => vec![(None, None)],
            Pat::Alts(alts) => alts.iter().filter_map(stretch).collect(),
        };
        let wanted: Vec<(End, End)> = wanted.into_iter().filter_map(|s| self.fit(s)).collect();
        // A row none of whose numbers the key can take is another check's warning.
        !wanted.is_empty() && wanted.iter().all(|&w| covered(w, &stretches))
    }

    /// A stretch as this key reads it: on a whole-number key its whole numbers, within
    /// the declared range, written `[lo, hi + 1)`; `None` when it holds no value.
    fn fit(&self, (lo, hi): (End, End)) -> Option<(End, End)> {
        if !self.whole {
            return Some((lo, hi));
        }
        // Whole numbers, as `i64`s (a bound past them is no bound).
        let mut lo: Option<i64> = match lo {
            Some((r, true)) => Some(r.ceil().to_integer()),
            Some((r, false)) => r.floor().to_integer().checked_add(1),
            None => None,
        };
        let mut hi: Option<i64> = match hi {
            Some((r, true)) => Some(r.floor().to_integer()),
            Some((r, false)) => r.ceil().to_integer().checked_sub(1),
            None => None,
        };
        if let Some(range) = self.range {
            lo = Some(lo.map_or(range.lo, |l| l.max(range.lo)));
            if let Some(h) = range.hi {
                hi = Some(hi.map_or(h, |x| x.min(h)));
            }
        }
        if let (Some(l), Some(h)) = (lo, hi) {
            if l > h {
                return None;
            }
        }
        // `[lo, hi + 1)`: whole numbers next to each other then meet.
        Some((
            lo.map(|l| (Rational::from_integer(l), true)),
            hi.and_then(|h| h.checked_add(1))
                .map(|h| (Rational::from_integer(h), false)),
        ))
    }
}

impl KeyDomain {
    /// Do patterns `a` and `b` share a value on this key? (Exact: bounds compared as
    /// fractions, however large their denominators.)
    pub(super) fn meet(&self, a: &Pat, b: &Pat) -> bool {
        let ours = |p: &Pat| -> Vec<(End, End)> {
            match p {
                Pat::Any => vec![(None, None)],
                Pat::Alts(alts) => alts.iter().filter_map(stretch).collect(),
            }
            .into_iter()
            .filter_map(|s| self.fit(s))
            .collect()
        };
        if self.named.is_some() {
            return true;
        }
        let (xs, ys) = (ours(a), ours(b));
        xs.iter().any(|&(l1, h1)| {
            ys.iter().any(|&(l2, h2)| {
                let lo = match (l1, l2) {
                    (None, x) | (x, None) => x,
                    (Some(x), Some(y)) => Some(if x.0 > y.0 || (x.0 == y.0 && !x.1) {
                        x
                    } else {
                        y
                    }),
                };
                let hi = match (h1, h2) {
                    (None, x) | (x, None) => x,
                    (Some(x), Some(y)) => Some(if x.0 < y.0 || (x.0 == y.0 && !x.1) {
                        x
                    } else {
                        y
                    }),
                };
                match (lo, hi) {
                    (Some((v, cv)), Some((w, cw))) => v < w || (v == w && cv && cw),
                    _ => true,
                }
            })
        })
    }

    /// The stretches of numbers within `lo..hi` (`None` ends unbounded) no pattern of
    /// `pats` takes, each as its lower and upper end (`(v, true)`: `v` included) — the
    /// rows' own bounds, exactly. For a key that takes fractions.
    pub(super) fn left(&self, (lo, hi): (End, End), pats: &[&Pat]) -> Vec<(End, End)> {
        let mut taken: Vec<(End, End)> = pats
            .iter()
            .flat_map(|p| match p {
                Pat::Any => vec![(None, None)],
                Pat::Alts(alts) => alts.iter().filter_map(stretch).collect(),
            })
            .collect();
        taken.sort_by(|a, b| match (a.0, b.0) {
            (None, None) => std::cmp::Ordering::Equal,
            (None, _) => std::cmp::Ordering::Less,
            (_, None) => std::cmp::Ordering::Greater,
            (Some((x, cx)), Some((y, cy))) => x.cmp(&y).then(cy.cmp(&cx)),
        });
        let mut holes = Vec::new();
        // Everything below `need` is taken or told; `(v, true)`: `v` itself is not yet.
        let mut need: End = lo;
        for (a, b) in taken {
            if done(need, hi) {
                return holes;
            }
            let reaches = match (a, need) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some((x, closed)), Some((v, wants_v))) => {
                    x < v || (x == v && (closed || !wants_v))
                }
            };
            if let (false, Some((x, closed))) = (reaches, a) {
                holes.push((need, lower_of(Some((x, !closed)), hi)));
            }
            match b {
                None => return holes,
                Some((h, closed)) => {
                    let next = (h, !closed);
                    need = Some(match need {
                        Some(n) if further(n, next) => n,
                        _ => next,
                    });
                }
            }
        }
        if !done(need, hi) {
            holes.push((need, hi));
        }
        holes.retain(|&(a, b)| match (a, b) {
            (Some((v, cv)), Some((w, cw))) => v < w || (v == w && cv && cw),
            _ => true,
        });
        holes
    }
}

/// Does every bound the rows write for key `k` stand on a step of `1/denom`?
pub(super) fn on_grid(rows: &[RowInfo], k: usize, denom: i128) -> bool {
    rows.iter().all(|r| match r.patterns.get(k) {
        Some(Pat::Alts(alts)) => alts.iter().filter_map(stretch).all(|(a, b)| {
            [a, b]
                .iter()
                .flatten()
                .all(|(v, _)| denom % i128::from(*v.denom()) == 0)
        }),
        _ => true,
    })
}

/// Is every number up to `hi` taken once `need` is the first number not yet taken?
fn done(need: End, hi: End) -> bool {
    match (need, hi) {
        (_, None) | (None, _) => false,
        (Some((v, wants_v)), Some((h, closed))) => v > h || (v == h && (!wants_v || !closed)),
    }
}

/// The lower of two upper ends (`(v, true)`: `v` included; `None`: no bound).
fn lower_of(a: End, b: End) -> End {
    match (a, b) {
        (None, x) | (x, None) => x,
        (Some(x), Some(y)) => Some(if x.0 < y.0 || (x.0 == y.0 && !x.1) {
            x
        } else {
            y
        }),
    }
}

/// Which way a one-sided threshold (`3 or more`, `less than 1/2`) opens: `true` up.
fn threshold_way(p: &Pat) -> Option<bool> {
    match p {
        Pat::Alts(alts) => match alts.as_slice() {
            [Alt::AtLeast(_) | Alt::MoreThan(_)] => Some(true),
            [Alt::AtMost(_) | Alt::LessThan(_)] => Some(false),
            _ => None,
        },
        Pat::Any => None,
    }
}

/// The stretch of numbers a numeric alternative takes.
fn stretch(a: &Alt) -> Option<(End, End)> {
    Some(match *a {
        Alt::AtLeast(n) => (Some((n, true)), None),
        Alt::AtMost(n) => (None, Some((n, true))),
        Alt::MoreThan(n) => (Some((n, false)), None),
        Alt::LessThan(n) => (None, Some((n, false))),
        Alt::Range(lo, hi) => (Some((lo, true)), Some((hi, true))),
        Alt::Bool(_) | Alt::Enum(..) => return None,
    })
}

/// Do `stretches` together take every number of `(lo, hi)`? Swept from the low end:
/// `need` is the first number not yet taken (`(v, true)`: `v` itself; `(v, false)`:
/// the numbers just past `v`).
fn covered(wanted: (End, End), stretches: &[(End, End)]) -> bool {
    let mut sorted: Vec<(End, End)> = stretches.to_vec();
    sorted.sort_by(lowest_first);
    covered_sorted(wanted, &sorted)
}

/// Lowest first; at the same number, the stretch that includes it first.
fn lowest_first(a: &(End, End), b: &(End, End)) -> std::cmp::Ordering {
    match (a.0, b.0) {
        (None, None) => std::cmp::Ordering::Equal,
        (None, _) => std::cmp::Ordering::Less,
        (_, None) => std::cmp::Ordering::Greater,
        (Some((x, cx)), Some((y, cy))) => x.cmp(&y).then(cy.cmp(&cx)),
    }
}

/// [`covered`], of stretches already sorted by [`lowest_first`].
fn covered_sorted((lo, hi): (End, End), sorted: &[(End, End)]) -> bool {
    // `None`: minus infinity still wanted. `done`: plus infinity reached.
    let mut need: End = lo;
    let mut done = false;
    for &(a, b) in sorted {
        let reaches = match (a, need) {
            (None, _) => true,
            (Some(_), None) => false,
            (Some((x, closed)), Some((v, wants_v))) => x < v || (x == v && (closed || !wants_v)),
        };
        if !reaches {
            break;
        }
        match b {
            None => {
                done = true;
                break;
            }
            Some((h, closed)) => {
                let next = (h, !closed);
                need = Some(match need {
                    Some(n) if further(n, next) => n,
                    _ => next,
                });
            }
        }
    }
    if done {
        return true;
    }
    match (hi, need) {
        (None, _) | (_, None) => false,
        (Some((b, closed)), Some((v, wants_v))) => v > b || (v == b && (!closed || !wants_v)),
    }
}

/// Is frontier `a` past frontier `b` (or at it)? `(v, false)` is past `(v, true)`.
fn further(a: (Rational, bool), b: (Rational, bool)) -> bool {
    a.0 > b.0 || (a.0 == b.0 && (!a.1 || b.1))
}

impl Checker<'_> {
    /// Rows every value of which the rows above them take (on one key, rows above that
    /// take all its values on every other key): an error at each, naming the rows above.
    pub(super) fn shadowed_rows(&mut self, info: &TableInfo, rows: &[RowInfo]) {
        let keys = info.keys.min(info.sig.params.len());
        let domains: Vec<KeyDomain> = info.sig.params[..keys]
            .iter()
            .map(|p| KeyDomain::of(&self.prog, p))
            .collect();
        let taken: Vec<Vec<Taken>> = rows
            .iter()
            .map(|r| {
                r.patterns
                    .iter()
                    .zip(&domains)
                    .map(|(p, d)| d.taken(p))
                    .collect()
            })
            .collect();
        let mut unions: Vec<Union> = domains.iter().map(|_| Union::default()).collect();
        let mut holds = Vec::new();
        let mut work = 0usize;
        let mut told = 0;
        for j in 0..rows.len() {
            work = work.saturating_add(j.saturating_mul(keys * keys));
            if work > SHADOW_WORK || told >= 20 {
                return;
            }
            // A row some value of which no row above takes is reached: most rows, told
            // apart without comparing them with each row above.
            let reached = domains
                .iter()
                .enumerate()
                .any(|(q, d)| taken[j].get(q).is_none_or(|l| !unions[q].covers(d, l)));
            for (q, t) in taken[j].iter().enumerate() {
                if let Some(u) = unions.get_mut(q) {
                    u.add(t);
                }
            }
            if reached {
                continue;
            }
            let Some(above) = shadowing(&domains, rows, &taken, j, &mut holds) else {
                continue;
            };
            told += 1;
            let (later, first) = (&rows[j], &rows[above[0]]);
            let (message, label) = if above.len() == 1 {
                (
                    format!(
                        "row {} of `{}` is never reached: row {} above takes every value of it",
                        later.quoted(),
                        info.sig.name,
                        first.quoted()
                    ),
                    "takes every value of the row below",
                )
            } else {
                (
                    format!(
                        "row {} of `{}` is never reached: the rows above ({}) take every value of it",
                        later.quoted(),
                        info.sig.name,
                        above.iter().map(|&i| rows[i].quoted()).collect::<Vec<_>>().join(", ")
                    ),
                    "takes some of its values",
                )
            };
            let ladder = above.len() == 1
                && later.patterns.iter().zip(&first.patterns).any(|(l, f)| {
                    matches!((threshold_way(l), threshold_way(f)), (Some(a), Some(b)) if a == b)
                });
            let help = if ladder {
                format!("thresholds are read from the top down, a grid's columns from left to right: put {} before {}, so that the wider one takes what the other leaves", later.quoted(), first.quoted())
            } else {
                "rows are read from the top down and the first that matches wins: put the narrower row above the wider one (a row `_` last), or remove it".to_string()
            };
            let mut d =
                Diag::at(Code::CheckShadowedRow, message, later.span, "never reached").help(help);
            for &i in above.iter().take(3) {
                d = d.label(rows[i].span, label);
            }
            self.err(d);
        }
    }
}

/// The rows above row `j` that together take every value of it, if they do: on some key
/// `m`, the rows above that take all of `j`'s values on every other key, together taking
/// all of them on `m` (one row alone, if one does).
fn shadowing(
    domains: &[KeyDomain],
    rows: &[RowInfo],
    taken: &[Vec<Taken>],
    j: usize,
    holds: &mut Vec<bool>,
) -> Option<Vec<usize>> {
    let later = &rows[j].patterns;
    let keys = domains.len();
    // Which keys each row above takes all of `j`'s values on: `holds[i * keys + q]`.
    holds.clear();
    for t in &taken[..j] {
        holds.extend(
            domains
                .iter()
                .enumerate()
                .map(|(q, d)| match (t.get(q), taken[j].get(q)) {
                    (Some(p), Some(l)) => d.holds(p, l),
                    _ => false,
                }),
        );
    }
    let row = |i: usize| &holds[i * keys..(i + 1) * keys];
    if let Some(i) = (0..j).find(|&i| row(i).iter().all(|&b| b)) {
        return Some(vec![i]);
    }
    for (m, d) in domains.iter().enumerate() {
        let set: Vec<usize> = (0..j)
            .filter(|&i| row(i).iter().enumerate().all(|(q, &b)| b || q == m))
            .collect();
        if set.len() < 2 {
            continue;
        }
        let pats: Vec<&Pat> = set.iter().map(|&i| &rows[i].patterns[m]).collect();
        if later.get(m).is_some_and(|l| d.covers(&pats, l)) {
            return Some(set);
        }
    }
    None
}

/// What the rows read so far take on one key, all together: a row that takes a value
/// none of them takes is never shadowed. Kept as rows are added, so that telling costs
/// no comparison with each row above.
#[derive(Default)]
struct Union {
    any: bool,
    /// On a named key, the values taken.
    named: std::collections::HashSet<u64>,
    /// On a number key, the stretches taken, joined where they meet, lowest first.
    stretches: Vec<(End, End)>,
}

impl Union {
    fn add(&mut self, t: &Taken) {
        if t.any {
            self.any = true;
            return;
        }
        self.named.extend(t.named.iter().copied());
        for &s in &t.stretches {
            let at = self
                .stretches
                .partition_point(|u| lowest_first(u, &s) == std::cmp::Ordering::Less);
            self.stretches.insert(at, s);
            // Join the new stretch with those it meets, on either side.
            let mut i = at.saturating_sub(1);
            while i + 1 < self.stretches.len() {
                let ((a, b), (c, d)) = (self.stretches[i], self.stretches[i + 1]);
                if meets(b, c) {
                    self.stretches[i] = (a, upper(b, d));
                    self.stretches.remove(i + 1);
                } else if i < at {
                    i += 1;
                } else {
                    break;
                }
            }
        }
    }

    /// Do the rows so far together take every value of `later` on this key? (Any of
    /// them one by one, or the rows `shadowing` gathers, take no more.)
    fn covers(&self, d: &KeyDomain, later: &Taken) -> bool {
        if self.any {
            return true;
        }
        if d.named.is_some() {
            let wanted: &[u64] = if later.any {
                &d.named_keys
            } else if later.odd {
                return false;
            } else {
                &later.named
            };
            return wanted.iter().all(|k| self.named.contains(k));
        }
        !later.stretches.is_empty()
            && later
                .stretches
                .iter()
                .all(|&w| covered_sorted(w, &self.stretches))
    }
}

/// Does a stretch starting at `lo` meet one ending at `hi` below it, leaving no number
/// between them? (`None`: no bound.)
fn meets(hi: End, lo: End) -> bool {
    match (hi, lo) {
        (None, _) | (_, None) => true,
        (Some((h, closed)), Some((x, from))) => x < h || (x == h && (closed || from)),
    }
}

/// The higher of two upper ends (`(v, true)`: `v` included; `None`: no bound).
fn upper(a: End, b: End) -> End {
    match (a, b) {
        (None, _) | (_, None) => None,
        (Some(x), Some(y)) => Some(if x.0 > y.0 || (x.0 == y.0 && x.1) {
            x
        } else {
            y
        }),
    }
}

/// Does row `a` take every value of row `b` on every key?
pub(super) fn holds_row(domains: &[KeyDomain], a: &RowInfo, b: &RowInfo) -> bool {
    domains
        .iter()
        .enumerate()
        .all(|(q, d)| match (a.patterns.get(q), b.patterns.get(q)) {
            (Some(p), Some(l)) => d.covers(&[p], l),
            _ => false,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(n: i64, d: i64) -> Rational {
        Rational::new(n, d)
    }

    #[test]
    fn stretches_together_cover_exactly() {
        // `1/2 or more` and `less than 1/2` take every number; `more than 1/2` leaves 1/2.
        let up = (Some((r(1, 2), true)), None);
        let down = (None, Some((r(1, 2), false)));
        assert!(covered((None, None), &[up, down]));
        let past = (Some((r(1, 2), false)), None);
        assert!(!covered((None, None), &[past, down]));
        // Denominators whose product passes 2^64 still compare exactly.
        let a = r(1, 1_000_003);
        let b = r(1, 1_000_033);
        let c = r(1, 999_983);
        assert!(covered(
            (Some((b, true)), Some((c, true))),
            &[
                (Some((b, true)), Some((a, true))),
                (Some((a, false)), Some((c, true)))
            ]
        ));
        assert!(!covered(
            (Some((b, true)), Some((c, true))),
            &[
                (Some((b, true)), Some((a, false))),
                (Some((a, false)), Some((c, true)))
            ]
        ));
    }

    #[test]
    fn whole_numbers_next_to_each_other_meet() {
        let int = KeyDomain {
            whole: true,
            range: None,
            named: None,
            named_keys: Vec::new(),
        };
        let n = Rational::from_integer;
        let one_two = Pat::Alts(vec![Alt::Range(n(1), n(2))]);
        let more = Pat::Alts(vec![Alt::MoreThan(n(2))]);
        let three_up = Pat::Alts(vec![Alt::AtLeast(n(3))]);
        assert!(int.covers(&[&more], &three_up) && int.covers(&[&three_up], &more));
        assert!(int.covers(&[&one_two, &more], &Pat::Alts(vec![Alt::Range(n(1), n(9))])));
        let num = KeyDomain {
            whole: false,
            range: None,
            named: None,
            named_keys: Vec::new(),
        };
        assert!(num.covers(&[&more], &three_up));
        assert!(!num.covers(&[&three_up], &more));
        // Within a declared range `_` is its numbers.
        let ranged = KeyDomain {
            whole: true,
            range: Some(IntRange { lo: 1, hi: Some(2) }),
            named: None,
            named_keys: Vec::new(),
        };
        assert!(ranged.covers(&[&one_two], &Pat::Any));
        assert!(!int.covers(&[&one_two], &Pat::Any));
    }

    #[test]
    fn holes_are_told_by_the_rows_own_bounds() {
        let num = KeyDomain {
            whole: false,
            range: None,
            named: None,
            named_keys: Vec::new(),
        };
        let x = r(1, 2_199_023_255_552);
        let more = Pat::Alts(vec![Alt::MoreThan(x)]);
        let less = Pat::Alts(vec![Alt::LessThan(x)]);
        let at_least = Pat::Alts(vec![Alt::AtLeast(x)]);
        assert_eq!(
            num.left((None, None), &[&more, &less]),
            vec![(Some((x, true)), Some((x, true)))]
        );
        assert!(num.left((None, None), &[&at_least, &less]).is_empty());
        assert!(!num.meet(&at_least, &less) && num.meet(&at_least, &more));
        // Two holes, each between two bounds.
        let top = Pat::Alts(vec![Alt::MoreThan(r(2, 3))]);
        let mid = Pat::Alts(vec![Alt::Range(r(1, 5), r(1, 3))]);
        let low = Pat::Alts(vec![Alt::AtMost(r(1, 7))]);
        assert_eq!(
            num.left((None, None), &[&top, &mid, &low]),
            vec![
                (Some((r(1, 7), false)), Some((r(1, 5), false))),
                (Some((r(1, 3), false)), Some((r(2, 3), true)))
            ]
        );
    }

    /// Patterns of one or two numeric alternatives, with halves among the bounds, and `_`.
    fn number_patterns() -> Vec<Pat> {
        let bounds: Vec<Rational> = (-2..=6).map(|n| r(n, 2)).collect();
        let mut alts = Vec::new();
        for &n in &bounds {
            alts.extend([
                Alt::AtLeast(n),
                Alt::AtMost(n),
                Alt::MoreThan(n),
                Alt::LessThan(n),
            ]);
            for &m in bounds.iter().filter(|&&m| m >= n) {
                alts.push(Alt::Range(n, m));
            }
        }
        let mut pats = vec![Pat::Any];
        pats.extend(alts.iter().map(|a| Pat::Alts(vec![a.clone()])));
        // Two alternatives: a few of the pairs, every seventh.
        for (i, a) in alts.iter().enumerate().step_by(7) {
            for b in alts.iter().skip(i % 5).step_by(11) {
                pats.push(Pat::Alts(vec![a.clone(), b.clone()]));
            }
        }
        pats
    }

    fn number_domains() -> Vec<KeyDomain> {
        [
            (true, None),
            (true, Some(IntRange { lo: 0, hi: Some(2) })),
            (false, None),
        ]
        .into_iter()
        .map(|(whole, range)| KeyDomain {
            whole,
            range,
            named: None,
            named_keys: Vec::new(),
        })
        .collect()
    }

    /// What `shadowing` works out from the patterns once is what `covers` works out
    /// from them each time: one row above, and all the rows above together.
    #[test]
    fn patterns_worked_out_once_take_what_covers_says() {
        let pats = number_patterns();
        for d in number_domains() {
            let taken: Vec<Taken> = pats.iter().map(|p| d.taken(p)).collect();
            for (p, tp) in pats.iter().zip(&taken) {
                for (l, tl) in pats.iter().zip(&taken) {
                    assert_eq!(d.holds(tp, tl), d.covers(&[p], l), "{p:?} over {l:?}");
                }
            }
            // Rows added one by one: together they take what `covers` says they do.
            let few: Vec<usize> = (0..pats.len()).step_by(17).collect();
            for &a in &few {
                for &b in &few {
                    for &c in few.iter().step_by(3) {
                        let mut union = Union::default();
                        for &i in &[a, b, c] {
                            union.add(&taken[i]);
                        }
                        let above = [&pats[a], &pats[b], &pats[c]];
                        for (l, tl) in pats.iter().zip(&taken) {
                            assert_eq!(
                                union.covers(&d, tl),
                                d.covers(&above, l),
                                "{above:?} over {l:?}"
                            );
                        }
                    }
                }
            }
        }
        // On a named key: values by value, `_` as all of them, a number as none.
        let named = KeyDomain {
            whole: false,
            range: None,
            named: None,
            named_keys: Vec::new(),
        }
        .with_named(Some((0..4).map(|i| Value::Enum(0, i)).collect()));
        let mut pats = vec![Pat::Any, Pat::Alts(vec![Alt::AtLeast(r(1, 1))])];
        for set in 1..16u16 {
            pats.push(Pat::Alts(
                (0..4)
                    .filter(|i| set & (1 << i) != 0)
                    .map(|i| Alt::Enum(0, i))
                    .collect(),
            ));
        }
        pats.push(Pat::Alts(vec![Alt::Enum(0, 1), Alt::Bool(true)]));
        let taken: Vec<Taken> = pats.iter().map(|p| named.taken(p)).collect();
        for (p, tp) in pats.iter().zip(&taken) {
            for (l, tl) in pats.iter().zip(&taken) {
                assert_eq!(
                    named.holds(tp, tl),
                    named.covers(&[p], l),
                    "{p:?} over {l:?}"
                );
                let mut union = Union::default();
                union.add(tp);
                assert_eq!(union.covers(&named, tl), named.covers(&[p], l));
            }
        }
    }
}
