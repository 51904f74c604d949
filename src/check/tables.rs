//! Bodies of tables: their rows, and the rows a table's keys need (numbers covered, enum
//! values and `true`/`false` given a row).

use super::*;
use crate::diagnostic::Code;

impl Checker<'_> {
    pub(super) fn check_table(&mut self, i: usize) {
        let Some((def, State::Todo)) = self.pend.tables.get(i).cloned() else {
            return;
        };
        self.pend.tables[i].1 = State::Busy;
        let info = self.prog.tables[i].clone();
        let mut scope = Scope::params(&info.sig);
        let declared = info.sig.ret.clone();
        let mut joined = if declared == Ty::Any {
            Ty::Never
        } else {
            declared.clone()
        };
        let mut rows = Vec::new();
        let mark = self.errors.len();
        self.with_cite(info.sig.cite.clone(), |c| {
            for row in &def.rows {
                // `otherwise => ...` alone stands for every key.
                let expanded;
                let row = if info.keys > 1 && row.patterns.len() == 1 && matches!(row.patterns[0], ast::Pattern::Any(_)) {
                    expanded = ast::Row { patterns: vec![row.patterns[0].clone(); info.keys], ..row.clone() };
                    &expanded
                } else {
                    row
                };
                if info.keys == 0 {
                    c.err(Diag::at(Code::CheckRowKeys, "a table with no keys has nothing to look up", row.span, "no key to match")
                        .help("give the table a key parameter, or write a `rule` or `const` instead"));
                    continue;
                }
                if row.patterns.len() != info.keys {
                    // Inside `column KEY = ...` the row gives the other keys.
                    let (given, wanted, place) = match row.column {
                        Some(_) => (row.patterns.len() - 1, info.keys - 1, "a row inside a `column` block gives the other keys: "),
                        None => (row.patterns.len(), info.keys, ""),
                    };
                    c.err(Diag::at(Code::CheckRowKeys, format!("{place}this row gives {given} key(s), and {wanted} are wanted"), row.span, "wrong number of keys")
                        .help("separate the keys of a row with `|`; alternatives within a key with `,`"));
                    continue;
                }
                let patterns: Vec<Pat> = row.patterns.iter().zip(&info.sig.params).map(|(p, param)| c.pattern(p, &param.ty)).collect();
                let expected = if declared == Ty::Any { None } else { Some(&declared) };
                let (cell, ty) = c.expr(&row.cell, &mut scope, expected);
                let cell = c.ranged(cell, declared_range(def.returns.as_ref()), format!("a cell of `{}`", def.name.node));
                if declared == Ty::Any {
                    joined = c.join(&joined, &ty, row.cell.span);
                } else {
                    c.expect_ty(&ty, &declared, row.cell.span);
                }
                let text = row.grid.clone().unwrap_or_else(|| c.sources.snippet(row.span).split_whitespace().collect::<Vec<_>>().join(" "));
                let column = row.column.map(|col| rc(c.sources.snippet(col).trim()));
                let cite = row.cite.as_ref().map(|c| rc(&c.node));
                rows.push(RowInfo { patterns, cell, text: rc(&text), column, span: row.span, cite });
            }
        });
        if rows.is_empty() && self.errors.len() == mark {
            // `table t(...) -> Int { }`, or a grid with only its header row.
            self.err(
                Diag::at(Code::CheckCoverage, format!("table `{}` has no rows", info.sig.name), def.name.span, "no rows")
                    .help("write its rows, `KEY => VALUE` one a line (a last `_ => ...` takes what the others leave), or the grid's rows under its header"),
            );
        }
        // (Not after an error in the rows: a misspelled key would be reported twice.)
        if self.errors.len() != mark {
            self.broken_tables.insert(i);
        } else {
            if self.number_rows(&info, &rows) {
                self.broken_tables.insert(i);
            }
            self.enum_overlaps(&info, &rows);
            self.shadowed_rows(&info, &rows);
            self.enum_coverage(
                &format!("table `{}` has no row", info.sig.name),
                &info.sig.params[..info.keys],
                rows.iter().map(|r| r.patterns.as_slice()),
                def.name.span,
            );
        }
        let t = &mut self.prog.tables[i];
        t.rows = rows;
        t.sig.slots = scope.slots;
        t.sig.ret = joined;
        self.pend.tables[i].1 = State::Done;
    }

    /// Rows keyed by a number (a die roll, a ratio) that give the other keys the same way —
    /// one column of the Manoeuvre Table — must not overlap ("never last row wins"), and
    /// must leave no hole between the numbers they cover (on a `Num` key, the fractions
    /// between whole numbers too). (Rows giving the other keys more generally, `_`, count
    /// for every column they apply to; a specific row before an `_` row is the rulebook's
    /// "otherwise", not an overlap.)
    /// Returns whether a hole was found (the table's rolls are then not judged again).
    fn number_rows(&mut self, info: &TableInfo, rows: &[RowInfo]) -> bool {
        let Some(k) = coverage::number_key(info) else {
            return false;
        };
        let scale = coverage::Scale::of_key(&info.sig.params[k].ty, rows, k);
        let mut holed = false;
        let mut reported = std::collections::HashSet::new();
        let mut fractions_told = false;
        // The other number keys, each on its scale (a CRT's ratio columns).
        let others: Vec<(usize, coverage::Scale)> = (0..info.keys.min(info.sig.params.len()))
            .filter(|&j| j != k)
            .filter(|&j| matches!(info.sig.params[j].ty, Ty::Int | Ty::Num | Ty::Length))
            .map(|j| (j, coverage::Scale::of_key(&info.sig.params[j].ty, rows, j)))
            .collect();
        for col in coverage::columns(&self.prog, info, rows, k) {
            self.overlaps(info, rows, (k, scale), &others, &col, &mut reported);
            holed |= self.holes(info, rows, (k, scale), &col);
            if !holed && !fractions_told {
                fractions_told = self.fractions_otherwise(info, rows, (k, scale), &col);
            }
        }
        holed
    }

    /// Rows of column `col` that overlap: the rows that give numbers (a row `_` is the
    /// rulebook's "otherwise", taking what the rows above it leave), swept in order of
    /// their lowest number. `reported` holds the pairs already told of.
    fn overlaps(
        &mut self,
        info: &TableInfo,
        rows: &[RowInfo],
        (k, scale): (usize, coverage::Scale),
        others: &[(usize, coverage::Scale)],
        col: &coverage::Column,
        reported: &mut std::collections::HashSet<(usize, usize)>,
    ) {
        let mut spans: Vec<(i128, i128, usize)> = col
            .rows
            .iter()
            .filter_map(|&r| scale.spans(&rows[r].patterns[k]).map(|iv| (r, iv)))
            .flat_map(|(r, iv)| iv.into_iter().map(move |(lo, hi)| (lo, hi, r)))
            .collect();
        spans.sort();
        let domains: Vec<shadow::KeyDomain> = info.sig.params
            [..info.keys.min(info.sig.params.len())]
            .iter()
            .map(|p| shadow::KeyDomain::of(&self.prog, p))
            .collect();
        let mut widest: Option<(i128, usize, i128)> = None;
        for &(lo, hi, r) in &spans {
            if let Some((top, earlier, bottom)) = widest {
                if lo <= top
                    && earlier != r
                    && !ladder(scale, (bottom, top, earlier), (lo, hi, r))
                    && !ladder_elsewhere(rows, others, earlier.min(r), earlier.max(r))
                    && !nested(&domains, rows, earlier, r)
                    && domains
                        .get(k)
                        .is_none_or(|d| d.meet(&rows[earlier].patterns[k], &rows[r].patterns[k]))
                {
                    let (ra, rb) = (earlier.min(r), earlier.max(r));
                    if reported.insert((ra, rb)) && reported.len() <= 20 {
                        let shared = (lo, top.min(hi));
                        // Two thresholds the same way, the wider one first: the other is
                        // never read where they meet.
                        let same_way = (top >= scale.hi() && hi >= scale.hi())
                            || (bottom <= scale.lo() && lo <= scale.lo());
                        let (b, a) = (rows[rb].quoted(), rows[ra].quoted());
                        let help = if ladder_elsewhere(rows, others, rb, ra) {
                            format!("thresholds are read in order, a grid's columns from left to right: put {b} before {a}, so that the wider one takes what the other leaves")
                        } else if same_way {
                            format!("thresholds are read from the top down: put {b} above {a}, so that the wider one takes what the other leaves")
                        } else {
                            "each number belongs to one row: change one of them".to_string()
                        };
                        self.err(
                            Diag::at(
                                Code::CheckOverlap,
                                format!(
                                    "rows {} and {} overlap on {}",
                                    rows[ra].quoted(),
                                    rows[rb].quoted(),
                                    scale.shown(shared)
                                ),
                                rows[rb].span,
                                "overlaps an earlier row",
                            )
                            .label(rows[ra].span, "this row")
                            .help(help),
                        );
                    }
                }
            }
            if widest.is_none_or(|(top, _, _)| hi > top) {
                widest = Some((hi, r, lo));
            }
        }
    }

    /// Holes between the numbers column `col` covers, or in the range the key is declared
    /// with (`roll: 1..10` must find a row for each of 1 to 10). Returns whether there is one.
    fn holes(
        &mut self,
        info: &TableInfo,
        rows: &[RowInfo],
        (k, scale): (usize, coverage::Scale),
        col: &coverage::Column,
    ) -> bool {
        let key = &info.sig.params[k];
        if col.rows.is_empty() {
            // A column a declared range asks for (`odds: 1..6`), with no row at all.
            self.err(
                Diag::at(
                    Code::CheckGap,
                    format!("no row of `{}` is read{}", info.sig.name, col.name),
                    info.sig.span,
                    "a column without rows",
                )
                .help("add rows for that column, or widen rows beside it to take it (or, for a declared range, narrow the range)"),
            );
            return true;
        }
        let bounds = match key.range.and_then(crate::program::NumRange::int) {
            Some(r) => scale.range(r),
            None => match (col.covered.first(), col.covered.last()) {
                (Some(first), Some(last)) => (first.0, last.1),
                _ => return false,
            },
        };
        let holes = coverage::uncovered(bounds, &col.covered);
        if scale.fractions && !shadow::on_grid(rows, k, scale.denom) {
            // Bounds too fine for the scale's steps: the holes worked out exactly.
            return self.exact_holes(info, rows, k, col, scale);
        }
        let Some(&(lo, hi)) = holes.first() else {
            return false;
        };
        let (span, place) = self.hole_place(info, rows, (k, scale), col, (lo, hi));
        let missing = scale.shown_all(&holes);
        let (message, label) = match key.range.and_then(crate::program::NumRange::int) {
            Some(r) => (
                format!(
                    "`{}` takes {r}, and no row of `{}` covers {missing}{}",
                    key.name, info.sig.name, col.name
                ),
                format!("the rows leave a number out {place}"),
            ),
            None => (
                format!("no row of `{}` covers {missing}{}", info.sig.name, col.name),
                format!("the rows leave a hole {place}"),
            ),
        };
        let help = match scale.a_fraction((lo, hi)) {
            Some(f) if scale.length => format!(
                "`{}` is a `Length`: it can be {f}, and a row must take it (`13\"-24\"` takes 13\" and 24\" and every length between, nothing past them). Write the bands as thresholds read from the top down, each taking what the rows above it leave (`more than 2' => ...` then `more than 12\" => ...`: past 12\" up to 2'); or give a last row `_ => ...`",
                key.name
            ),
            Some(f) => format!(
                "`{}` is a `Num`: it can be a fraction such as {f}, and a row must take it. If the rulebook rounds it (\"odds are rounded down\"), make the key a whole number (`{}: Int`) and round where the table is called (`floor(...)`); if the bands meet there, write them as thresholds read from the top down, each taking what the rows above it leave (`6 or more => 6` then `3 or more => 3`: 3 up to 6); or give a last row `_ => ...` for what falls between the rows",
                key.name, key.name
            ),
            None => "add a row for it, or widen a neighbouring row".into(),
        };
        let mut d = Diag::at(Code::CheckGap, message, span, label).help(help);
        if key.range.and_then(crate::program::NumRange::int).is_some() {
            d = d.label(key.span, "declared here");
        }
        self.err(d);
        true
    }

    /// Holes of column `col` on a key that takes fractions, its bounds compared exactly
    /// (denominators whose product passes the scale's steps), each told by the rows' own
    /// bounds. Returns whether there is one.
    fn exact_holes(
        &mut self,
        info: &TableInfo,
        rows: &[RowInfo],
        k: usize,
        col: &coverage::Column,
        scale: coverage::Scale,
    ) -> bool {
        let key = &info.sig.params[k];
        let domain = shadow::KeyDomain::of(&self.prog, key);
        let pats: Vec<&Pat> = col.rows.iter().map(|&r| &rows[r].patterns[k]).collect();
        let holes = domain.left((None, None), &pats);
        if holes.is_empty() {
            return false;
        }
        let missing = holes
            .iter()
            .map(|&h| scale.stretch(h))
            .collect::<Vec<_>>()
            .join("; ");
        let span = col.rows.first().map_or(info.sig.span, |&r| rows[r].span);
        self.err(
            Diag::at(
                Code::CheckGap,
                format!("no row of `{}` covers: {missing}{}", info.sig.name, col.name),
                span,
                "the rows leave a hole",
            )
            .help("add a row for it, or widen a neighbouring row (thresholds read from the top down each take what the rows above them leave)"),
        );
        true
    }

    /// The row just before the hole `(lo, hi)` of column `col` (or just after, at the
    /// start), with the words for where the hole is.
    fn hole_place(
        &self,
        info: &TableInfo,
        rows: &[RowInfo],
        (k, scale): (usize, coverage::Scale),
        col: &coverage::Column,
        (lo, hi): (i128, i128),
    ) -> (Span, &'static str) {
        let covers = |n: i128| {
            col.rows.iter().copied().find(|&r| {
                scale
                    .spans(&rows[r].patterns[k])
                    .is_some_and(|iv| iv.iter().any(|&(a, b)| a <= n && n <= b))
            })
        };
        let (at, place) = match (covers(lo - 1), covers(hi + 1)) {
            (Some(r), _) => (Some(r), "after this row"),
            (None, Some(r)) => (Some(r), "before this row"),
            (None, None) => (col.rows.first().copied(), "here"),
        };
        (at.map_or(info.sig.span, |r| rows[r].span), place)
    }

    /// On a `Num` key (or a `Length` key, in fractions of an inch), an `_` row that takes the fractions between the numbered rows (`3-5`,
    /// `6 or more`, `_`: 5 1/2 reads `_`) is told, once: a warning. Returns whether it was.
    fn fractions_otherwise(
        &mut self,
        info: &TableInfo,
        rows: &[RowInfo],
        (k, scale): (usize, coverage::Scale),
        col: &coverage::Column,
    ) -> bool {
        let key = &info.sig.params[k];
        let Some(&otherwise) = col
            .rows
            .iter()
            .find(|&&r| scale.spans(&rows[r].patterns[k]).is_none())
        else {
            return false;
        };
        let numbered: Vec<(i128, i128)> = col
            .rows
            .iter()
            .filter_map(|&r| scale.spans(&rows[r].patterns[k]))
            .flatten()
            .collect();
        let covered = coverage::merge(numbered);
        let (Some(first), Some(last)) = (covered.first(), covered.last()) else {
            return false;
        };
        let between: Vec<(i128, i128)> = coverage::uncovered((first.0, last.1), &covered)
            .into_iter()
            .filter(|&(a, b)| a == b && scale.a_fraction((a, b)).is_some())
            .collect();
        let Some(&hole) = between.first() else {
            return false;
        };
        let (span, place) = self.hole_place(info, rows, (k, scale), col, hole);
        let f = scale.a_fraction(hole).unwrap_or_default();
        self.err(
            Diag::at(
                Code::CheckFractionsOtherwise,
                format!(
                    "`{}` is a `{}`, and {}{} fall to row {} of `{}` ({f} among them), not to the rows beside them",
                    key.name,
                    if scale.length { "Length" } else { "Num" },
                    scale.shown_all(&between),
                    col.name,
                    rows[otherwise].quoted(),
                    info.sig.name
                ),
                span,
                format!("{f} is {place}"),
            )
            .label(rows[otherwise].span, format!("{f} reads this row"))
            .help(format!(
                "if the rulebook rounds the key (\"odds are rounded down\"), make it a whole number (`{}: Int`) and round where the table is called (`floor(...)`); if `_` is meant for them, this warning can stay",
                key.name
            ))
            .warning(),
        );
        true
    }

    /// A table keyed by named values (enums, true/false) must have a row for every
    /// combination of keys, or an `otherwise`: one without is an error when the ruleset
    /// loads, not a surprise mid-battle. (Number keys are checked elsewhere.)
    pub(super) fn enum_coverage<'r>(
        &mut self,
        what: &str,
        keys: &[ParamInfo],
        rows: impl Iterator<Item = &'r [Pat]> + Clone,
        span: Span,
    ) {
        // Keys of named values are enumerated; a number key (a die roll) is left to
        // `number_rows`, so a row counts for a combination whatever its number.
        let mut values: Vec<Vec<Value>> = Vec::new();
        let mut named: Vec<usize> = Vec::new();
        for (ki, k) in keys.iter().enumerate() {
            if let Some(vs) = crate::program::listed_values(&self.prog, &k.ty) {
                named.push(ki);
                values.push(vs.into_iter().map(|(v, _)| v).collect());
            }
        }
        let keys: Vec<&ParamInfo> = named.iter().map(|&i| &keys[i]).collect();
        let total = values
            .iter()
            .try_fold(1usize, |n, v| n.checked_mul(v.len()))
            .unwrap_or(usize::MAX);
        if values.is_empty() || total == 0 {
            return;
        }
        // Each row marks the combinations it matches (the last key fastest); work past a
        // bound (a generated table of a hundred thousand rows) leaves the table unjudged.
        const MAX_COMBINATIONS: usize = 100_000;
        let unchecked = |c: &mut Self| {
            c.err(
                Diag::at(
                    Code::CheckCoverageUnchecked,
                    format!(
                        "not checked that every combination of keys has a row: there are {total}"
                    ),
                    span,
                    "not checked",
                )
                .warning(),
            )
        };
        if total > MAX_COMBINATIONS {
            unchecked(self);
            return;
        }
        let Some((covered, count)) = covered_combinations(rows, &named, &values, total) else {
            unchecked(self);
            return;
        };
        if count == 0 {
            return;
        }
        // Five shown, or six rather than five and "1 more".
        let most = if count == 6 { 6 } else { 5 };
        let shown = self.combinations_shown(&keys, &values, &covered, most);
        let more = if count > shown.len() {
            format!(" (and {} more)", count - shown.len())
        } else {
            String::new()
        };
        self.err(
            Diag::at(Code::CheckCoverage, format!("{what} for {}{more}", shown.join("; ")), span, "not every value is covered")
                .help("add one for each, or a last `otherwise => ...` (a refusal, or `not given \"...\"` for what the source leaves out)"),
        );
    }

    /// The first five combinations of the keys' `values` no row covers, each as
    /// `key: value, key: value`.
    fn combinations_shown(
        &self,
        keys: &[&ParamInfo],
        values: &[Vec<Value>],
        covered: &[bool],
        most: usize,
    ) -> Vec<String> {
        let mut missing: Vec<Vec<&Value>> = Vec::new();
        for (at, _) in covered.iter().enumerate().filter(|(_, c)| !**c).take(most) {
            let mut rest = at;
            let mut combo: Vec<&Value> = Vec::with_capacity(values.len());
            for vs in values.iter().rev() {
                combo.push(&vs[rest % vs.len()]);
                rest /= vs.len();
            }
            combo.reverse();
            missing.push(combo);
        }
        missing
            .iter()
            .map(|combo| {
                keys.iter()
                    .zip(combo)
                    .map(|(k, v)| {
                        let shown = match v {
                            Value::Enum(e, i) => self
                                .prog
                                .enum_value(*e, *i)
                                .map_or("?".to_string(), |x| x.name.to_string()),
                            Value::Bool(b) => b.to_string(),
                            _ => "?".to_string(),
                        };
                        format!("{}: {shown}", k.name)
                    })
                    .collect::<Vec<_>>()
                    .join(", ")
            })
            .collect()
    }
}

/// Which combinations of the keys' `values` (keys `named` of each row's patterns) some
/// row matches, the last key fastest, and how many none does; `None` when the work
/// passes a bound (a generated table of a hundred thousand rows).
fn covered_combinations<'r>(
    rows: impl Iterator<Item = &'r [Pat]>,
    named: &[usize],
    values: &[Vec<Value>],
    total: usize,
) -> Option<(Vec<bool>, usize)> {
    const MAX_WORK: usize = 10_000_000;
    let mut covered = vec![false; total];
    let mut left = total;
    let mut work = 0usize;
    // Each key's values by what they are, so that a row naming enum values or true and
    // false finds them without trying every value (a table of 65,000 rows keyed by an
    // enum of 65,000 values is looked at in linear time).
    let index: Vec<std::collections::HashMap<Named, usize>> = values
        .iter()
        .map(|vs| {
            vs.iter()
                .enumerate()
                .filter_map(|(j, v)| Some((Named::of(v)?, j)))
                .collect()
        })
        .collect();
    for pats in rows {
        if left == 0 {
            break;
        }
        // The value indices this row matches, key by key, in order.
        let mut tried = 0usize;
        let matched: Vec<Vec<usize>> = named
            .iter()
            .zip(values)
            .zip(&index)
            .map(|((&i, vs), by)| match pats.get(i) {
                None => Vec::new(),
                Some(Pat::Alts(alts)) if alts.iter().all(|a| Named::of_alt(a).is_some()) => {
                    tried += alts.len();
                    let mut js: Vec<usize> = alts
                        .iter()
                        .filter_map(|a| by.get(&Named::of_alt(a)?).copied())
                        .collect();
                    js.sort_unstable();
                    js.dedup();
                    js
                }
                Some(p) => {
                    tried += vs.len();
                    (0..vs.len()).filter(|&j| p.matches(&vs[j])).collect()
                }
            })
            .collect();
        let n: usize = matched.iter().map(Vec::len).product();
        work += n + tried + matched.iter().map(Vec::len).sum::<usize>();
        if work > MAX_WORK {
            return None;
        }
        let mut pick = vec![0usize; matched.len()];
        for _ in 0..n {
            let at = pick
                .iter()
                .zip(&matched)
                .zip(values)
                .fold(0usize, |acc, ((&p, m), vs)| acc * vs.len() + m[p]);
            if !covered[at] {
                covered[at] = true;
                left -= 1;
            }
            next_combination(&mut pick, &matched);
        }
    }
    Some((covered, left))
}

/// An enum value or true or false, as a key's values are looked up by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Named {
    Enum(crate::value::EnumId, u16),
    Bool(bool),
}

impl Named {
    fn of(v: &Value) -> Option<Named> {
        match v {
            Value::Enum(e, i) => Some(Named::Enum(*e, *i)),
            Value::Bool(b) => Some(Named::Bool(*b)),
            _ => None,
        }
    }

    fn of_alt(a: &Alt) -> Option<Named> {
        match a {
            Alt::Enum(e, i) => Some(Named::Enum(*e, *i)),
            Alt::Bool(b) => Some(Named::Bool(*b)),
            _ => None,
        }
    }
}

/// Two overlapping stretches `(lo, hi, row)` of a number key that are a rulebook's ladder
/// of thresholds read from the top down, not an overlap: both open the same way, the later
/// row reaching further (`6 or more => 6` then `3 or more => 3`: 3 to 6 read the second;
/// `more than 24"` then `more than 12"`). A later row the earlier one wholly holds is
/// still an overlap (it is never read there).
fn ladder(scale: coverage::Scale, a: (i128, i128, usize), b: (i128, i128, usize)) -> bool {
    let (earlier, later) = if a.2 < b.2 { (a, b) } else { (b, a) };
    let up = earlier.1 >= scale.hi() && later.1 >= scale.hi() && later.0 < earlier.0;
    let down = earlier.0 <= scale.lo() && later.0 <= scale.lo() && later.1 > earlier.1;
    up || down
}

/// Rows `a` and `b` one of which takes every value of the other: the wider one below is
/// the rulebook's "otherwise" (first match wins), the wider one above makes the other a
/// row never reached (told by `shadowed_rows`) — neither is an overlap.
fn nested(domains: &[shadow::KeyDomain], rows: &[RowInfo], a: usize, b: usize) -> bool {
    shadow::holds_row(domains, &rows[a], &rows[b]) || shadow::holds_row(domains, &rows[b], &rows[a])
}

/// Rows `a` then `b` that are a ladder of thresholds on another number key (a CRT's ratio
/// columns `3 or more` then `2 or more`): `b` is read where `a` is not.
fn ladder_elsewhere(
    rows: &[RowInfo],
    others: &[(usize, coverage::Scale)],
    a: usize,
    b: usize,
) -> bool {
    others.iter().any(|&(j, s)| {
        let one = |r: usize| match s.spans(&rows[r].patterns[j]).as_deref() {
            Some(&[x]) => Some(x),
            _ => None,
        };
        match (one(a), one(b)) {
            (Some(x), Some(y)) => ladder(s, (x.0, x.1, 0), (y.0, y.1, 1)),
            _ => false,
        }
    })
}
