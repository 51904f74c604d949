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
                let text = c.sources.snippet(row.span).split_whitespace().collect::<Vec<_>>().join(" ");
                let column = row.column.map(|col| rc(c.sources.snippet(col).trim()));
                let cite = row.cite.as_ref().map(|c| rc(&c.node));
                rows.push(RowInfo { patterns, cell, text: rc(&text), column, span: row.span, cite });
            }
        });
        // (Not after an error in the rows: a misspelled key would be reported twice.)
        if self.errors.len() != mark {
            self.broken_tables.insert(i);
        } else {
            if self.number_rows(&info, &rows) {
                self.broken_tables.insert(i);
            }
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

    /// Rows keyed by a whole number (a die roll) that give the other keys the same way —
    /// one column of the Manoeuvre Table — must not overlap ("never last row wins"), and
    /// must leave no hole between the numbers they cover. (Rows giving the other keys
    /// more generally, `_`, count for every column they apply to; a specific row before
    /// an `_` row is the rulebook's "otherwise", not an overlap.)
    /// Returns whether a hole was found (the table's rolls are then not judged again).
    fn number_rows(&mut self, info: &TableInfo, rows: &[RowInfo]) -> bool {
        let Some(k) = coverage::number_key(info) else {
            return false;
        };
        let mut holed = false;
        let mut reported = std::collections::HashSet::new();
        for col in coverage::columns(&self.prog, info, rows, k) {
            self.overlaps(rows, k, &col, &mut reported);
            holed |= self.holes(info, rows, k, &col);
        }
        holed
    }

    /// Rows of column `col` that overlap: the rows that give numbers (a row `_` is the
    /// rulebook's "otherwise", taking what the rows above it leave), swept in order of
    /// their lowest number. `reported` holds the pairs already told of.
    fn overlaps(
        &mut self,
        rows: &[RowInfo],
        k: usize,
        col: &coverage::Column,
        reported: &mut std::collections::HashSet<(usize, usize)>,
    ) {
        let mut spans: Vec<(i128, i128, usize)> = col
            .rows
            .iter()
            .filter_map(|&r| coverage::intervals(&rows[r].patterns[k]).map(|iv| (r, iv)))
            .flat_map(|(r, iv)| iv.into_iter().map(move |(lo, hi)| (lo, hi, r)))
            .collect();
        spans.sort();
        let mut widest: Option<(i128, usize)> = None;
        for &(lo, hi, r) in &spans {
            if let Some((top, earlier)) = widest {
                if lo <= top && earlier != r {
                    let (ra, rb) = (earlier.min(r), earlier.max(r));
                    if reported.insert((ra, rb)) && reported.len() <= 20 {
                        let shared = (lo, top.min(hi));
                        self.err(
                            Diag::at(
                                Code::CheckOverlap,
                                format!(
                                    "rows {} and {} overlap on {}",
                                    rows[ra].quoted(),
                                    rows[rb].quoted(),
                                    coverage::shown(shared)
                                ),
                                rows[rb].span,
                                "overlaps an earlier row",
                            )
                            .label(rows[ra].span, "this row")
                            .help("each number belongs to one row: change one of them"),
                        );
                    }
                }
            }
            if widest.is_none_or(|(top, _)| hi > top) {
                widest = Some((hi, r));
            }
        }
    }

    /// Holes between the numbers column `col` covers, or in the range the key is declared
    /// with (`roll: 1..10` must find a row for each of 1 to 10). Returns whether there is one.
    fn holes(
        &mut self,
        info: &TableInfo,
        rows: &[RowInfo],
        k: usize,
        col: &coverage::Column,
    ) -> bool {
        let key = &info.sig.params[k];
        let bounds = match key.range {
            Some(r) => (i128::from(r.lo), r.hi.map_or(coverage::HI, i128::from)),
            None => match (col.covered.first(), col.covered.last()) {
                (Some(first), Some(last)) => (first.0, last.1),
                _ => return false,
            },
        };
        let holes = coverage::uncovered(bounds, &col.covered);
        if let Some(&(lo, hi)) = holes.first() {
            // Point at the row just before the hole (or just after, at the start).
            let covers = |n: i128| {
                col.rows.iter().copied().find(|&r| {
                    coverage::intervals(&rows[r].patterns[k])
                        .is_some_and(|iv| iv.iter().any(|&(a, b)| a <= n && n <= b))
                })
            };
            let (at, place) = match (covers(lo - 1), covers(hi + 1)) {
                (Some(r), _) => (Some(r), "after this row"),
                (None, Some(r)) => (Some(r), "before this row"),
                (None, None) => (col.rows.first().copied(), "here"),
            };
            let span = at.map_or(info.sig.span, |r| rows[r].span);
            let (message, label) = match key.range {
                Some(r) => (
                    format!(
                        "`{}` takes {r}, and no row of `{}` covers {}{}",
                        key.name,
                        info.sig.name,
                        coverage::shown_all(&holes),
                        col.name
                    ),
                    format!("the rows leave a number out {place}"),
                ),
                None => (
                    format!(
                        "no row of `{}` covers {}{}",
                        info.sig.name,
                        coverage::shown_all(&holes),
                        col.name
                    ),
                    format!("the rows leave a hole {place}"),
                ),
            };
            let mut d = Diag::at(Code::CheckGap, message, span, label)
                .help("add a row for it, or widen a neighbouring row");
            if key.range.is_some() {
                d = d.label(key.span, "declared here");
            }
            self.err(d);
            return true;
        }
        false
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
        let shown = self.combinations_shown(&keys, &values, &covered);
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
    ) -> Vec<String> {
        let mut missing: Vec<Vec<&Value>> = Vec::new();
        for (at, _) in covered.iter().enumerate().filter(|(_, c)| !**c).take(5) {
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
    for pats in rows {
        if left == 0 {
            break;
        }
        // The value indices this row matches, key by key.
        let matched: Vec<Vec<usize>> = named
            .iter()
            .zip(values)
            .map(|(&i, vs)| {
                (0..vs.len())
                    .filter(|&j| pats.get(i).is_some_and(|p| p.matches(&vs[j])))
                    .collect()
            })
            .collect();
        let n: usize = matched.iter().map(Vec::len).product();
        work += n + matched.iter().map(Vec::len).sum::<usize>();
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
