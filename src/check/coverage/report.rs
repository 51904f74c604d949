//! Tables against the rolls made of them: the columns a table has, the numbers each
//! covers, and the errors and warnings for rolls without a row and rows without a roll.

use super::interval::{Reach, HI, LO};
use super::sites::CallSite;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::value::Value;

/// The key that takes a whole number (a die roll), if a table has one.
pub(in crate::check) fn number_key(t: &TableInfo) -> Option<usize> {
    t.sig.params[..t.keys.min(t.sig.params.len())]
        .iter()
        .position(|p| p.ty == Ty::Int)
}

/// The whole numbers a pattern covers, as inclusive intervals (`None` for `_`).
pub(in crate::check) fn intervals(p: &Pat) -> Option<Vec<(i128, i128)>> {
    match p {
        Pat::Any => None,
        Pat::Alts(alts) => Some(
            alts.iter()
                .filter_map(|a| match a {
                    Alt::AtLeast(n) => Some((i128::from(*n), HI)),
                    Alt::AtMost(n) => Some((LO, i128::from(*n))),
                    Alt::Range(a, b) => Some((i128::from(*a), i128::from(*b))),
                    _ => None,
                })
                .collect(),
        ),
    }
}

/// Numbers as a rulebook would say them: `7`, `7-9`, `10 or more`, `0 or less`.
pub(in crate::check) fn shown((lo, hi): (i128, i128)) -> String {
    let (min, max) = (i128::from(i64::MIN), i128::from(i64::MAX));
    match (lo < min, hi > max) {
        (true, true) => "every number".into(),
        (true, false) => format!("{hi} or less"),
        (false, true) => format!("{lo} or more"),
        (false, false) if lo == hi => lo.to_string(),
        // `-8..18`: a dash between negative numbers reads as a minus sign.
        (false, false) if lo < 0 => format!("{lo}..{hi}"),
        (false, false) => format!("{lo}-{hi}"),
    }
}

/// Several stretches of numbers: `3, 5-6 and 11 or more`.
pub(in crate::check) fn shown_all(iv: &[(i128, i128)]) -> String {
    let parts: Vec<String> = iv.iter().map(|&i| shown(i)).collect();
    match parts.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => parts.join(""),
    }
}

/// One way the other keys can be — one column of the Manoeuvre Table (`order:
/// good_order`) — with the rows that apply to it and the numbers they cover.
pub(in crate::check) struct Column {
    /// The other keys, each as a pattern (one value each, when they could be listed).
    pub others: Vec<Pat>,
    /// The rows that apply to it, in order (rows giving the other keys as `_` included).
    pub rows: Vec<usize>,
    /// Every number those rows cover, sorted and merged.
    pub covered: Vec<(i128, i128)>,
    /// ` in column `good_order`` or empty (a table with no other keys).
    pub name: String,
}

/// The patterns of a row's other keys (all but the number key `k`), in order.
fn other_pats(row: &RowInfo, k: usize) -> impl Iterator<Item = &Pat> {
    row.patterns
        .iter()
        .enumerate()
        .filter(move |(i, _)| *i != k)
        .map(|(_, p)| p)
}

fn others(row: &RowInfo, k: usize) -> Vec<Pat> {
    row.patterns
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, p)| p.clone())
        .collect()
}

/// Does `general` match everything `specific` does?
fn subsumes(general: &Pat, specific: &Pat) -> bool {
    match (general, specific) {
        (Pat::Any, _) => true,
        (Pat::Alts(_), Pat::Any) => false,
        (Pat::Alts(g), Pat::Alts(s)) => s.iter().all(|a| g.contains(a)),
    }
}

/// Most columns worked out for one table, and most (column, row) pairs: past them a
/// table is not judged (a chart with tens of thousands of rows is a generated file).
const MAX_COLUMNS: usize = 4096;
const MAX_COLUMN_ROWS: usize = 2_000_000;

fn finish(
    rows: &[RowInfo],
    k: usize,
    others: Vec<Pat>,
    name: String,
    applies: Vec<usize>,
) -> Column {
    let mut all: Vec<(i128, i128)> = Vec::new();
    for &r in &applies {
        match intervals(&rows[r].patterns[k]) {
            Some(iv) => all.extend(iv),
            None => all.push((LO, HI)),
        }
    }
    Column {
        others,
        rows: applies,
        covered: merge(all),
        name,
    }
}

/// The columns of a table keyed by a number at `k`: every combination of its other
/// keys when they are named values (enums, true/false), each covered by every row
/// that matches it; otherwise, the other keys as the rows write them.
pub(in crate::check) fn columns(
    prog: &Program,
    table: &TableInfo,
    rows: &[RowInfo],
    k: usize,
) -> Vec<Column> {
    let keys: Vec<&ParamInfo> = table.sig.params[..table.keys.min(table.sig.params.len())]
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != k)
        .map(|(_, p)| p)
        .collect();
    // The values of each other key, if they can be listed.
    let mut values: Vec<Vec<(Value, String)>> = Vec::new();
    for p in &keys {
        match crate::program::listed_values(prog, &p.ty) {
            Some(v) => values.push(v),
            None => {
                values.clear();
                break;
            }
        }
    }
    let combos = values
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()));
    let listable = values.len() == keys.len()
        && combos
            .is_some_and(|n| n <= MAX_COLUMNS && n.saturating_mul(rows.len()) <= MAX_COLUMN_ROWS);
    if listable {
        return listed_columns(rows, k, &values);
    }
    written_columns(rows, k)
}

/// A column for each combination of the other keys' `values`, the last key fastest.
fn listed_columns(rows: &[RowInfo], k: usize, values: &[Vec<(Value, String)>]) -> Vec<Column> {
    let mut out = Vec::new();
    let mut index = vec![0usize; values.len()];
    loop {
        let combo: Vec<&(Value, String)> =
            index.iter().zip(values).map(|(&i, vs)| &vs[i]).collect();
        let applies: Vec<usize> = (0..rows.len())
            .filter(|&r| {
                other_pats(&rows[r], k)
                    .zip(&combo)
                    .all(|(p, (v, _))| p.matches(v))
            })
            .collect();
        if !applies.is_empty() {
            let pats = combo
                .iter()
                .map(|(v, _)| match v {
                    Value::Enum(e, i) => Pat::Alts(vec![Alt::Enum(*e, *i)]),
                    Value::Bool(b) => Pat::Alts(vec![Alt::Bool(*b)]),
                    _ => Pat::Any,
                })
                .collect();
            let name = if combo.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = combo.iter().map(|(_, n)| n.as_str()).collect();
                format!(" in column `{}`", names.join(" | "))
            };
            out.push(finish(rows, k, pats, name, applies));
        }
        if !next_combination(&mut index, values) {
            return out;
        }
    }
}

/// Other keys that cannot be listed (a second number, a text): columns as the rows
/// write them, each covered by the rows that give its keys as generally or more.
fn written_columns(rows: &[RowInfo], k: usize) -> Vec<Column> {
    let mut out = Vec::new();
    let mut groups: Vec<(Vec<Pat>, String)> = Vec::new();
    for row in rows {
        let o = others(row, k);
        if !groups.iter().any(|(g, _)| *g == o) {
            if groups.len() >= MAX_COLUMNS {
                return Vec::new();
            }
            let name = row
                .column
                .as_ref()
                .map_or(String::new(), |c| format!(" in column `{c}`"));
            groups.push((o, name));
        }
    }
    if groups.len().saturating_mul(rows.len()) > MAX_COLUMN_ROWS {
        return Vec::new();
    }
    for (o, name) in groups {
        let applies: Vec<usize> = (0..rows.len())
            .filter(|&r| other_pats(&rows[r], k).zip(&o).all(|(g, s)| subsumes(g, s)))
            .collect();
        out.push(finish(rows, k, o, name, applies));
    }
    out
}

/// Sorted, overlapping and touching stretches joined.
fn merge(mut all: Vec<(i128, i128)>) -> Vec<(i128, i128)> {
    all.sort();
    let mut out: Vec<(i128, i128)> = Vec::new();
    for (lo, hi) in all {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// The numbers of `lo..=hi` that `covered` (sorted, merged) leaves out.
pub(in crate::check) fn uncovered(
    (lo, hi): (i128, i128),
    covered: &[(i128, i128)],
) -> Vec<(i128, i128)> {
    let mut out = Vec::new();
    let mut next = lo;
    for &(a, b) in covered {
        if b < next {
            continue;
        }
        if a > hi {
            break;
        }
        if a > next {
            out.push((next, a - 1));
        }
        next = next.max(b.saturating_add(1));
        if next > hi {
            return out;
        }
    }
    if next <= hi {
        out.push((next, hi));
    }
    out
}

/// The whole numbers a reach holds, within what a key can be (a number past the 64
/// bits of a whole number overflows before it could be looked up).
fn whole_bounds(r: Reach) -> Option<(i128, i128)> {
    let (lo, hi) = r.whole()?;
    let (lo, hi) = (lo.unwrap_or(LO).max(LO), hi.unwrap_or(HI).min(HI));
    (lo <= hi).then_some((lo, hi))
}

/// The rolls a call site can make that find no row in a column they may be read on.
fn without_rows(table: &TableInfo, cols: &[Column], s: &CallSite, out: &mut Vec<Diag>) {
    let Some(bounds) = whole_bounds(s.reach) else {
        return;
    };
    if !s.reach.known() {
        return;
    }
    // A roll past the range the key is declared with fails at run time: an error here.
    let k = number_key(table).unwrap_or(0);
    let mut bounds = bounds;
    if let Some(key) = table.sig.params.get(k) {
        if let Some(r) = key.range {
            let range = (i128::from(r.lo), r.hi.map_or(HI, i128::from));
            let outside = [
                (bounds.0, bounds.1.min(range.0 - 1)),
                (bounds.0.max(range.1.saturating_add(1)), bounds.1),
            ];
            let outside: Vec<(i128, i128)> = outside.into_iter().filter(|(a, b)| a <= b).collect();
            if !outside.is_empty() {
                let can = shown(bounds);
                out.push(
                    Diag::at(
                        Code::CheckRollOutOfRange,
                        format!(
                            "this roll can be {can}, and `{}` of `{}` takes {r}: {} would be refused",
                            key.name,
                            table.sig.name,
                            shown_all(&outside)
                        ),
                        s.span,
                        format!("can be {can}"),
                    )
                    .label(key.span, format!("takes {r}"))
                    .help("widen the key's range (and give rows for the new numbers), or change the roll"),
                );
            }
            bounds = (bounds.0.max(range.0), bounds.1.min(range.1));
            if bounds.0 > bounds.1 {
                return;
            }
        }
    }
    for c in cols {
        let applies = s.others.iter().zip(&c.others).all(|(v, p)| match v {
            Some(v) => p.matches(v),
            None => true,
        });
        if !applies {
            continue;
        }
        let missing = uncovered(bounds, &c.covered);
        if !missing.is_empty() {
            let can = shown(bounds);
            let what = if bounds.0 == bounds.1 {
                format!("this key is {can}")
            } else {
                format!("this roll can be {can}")
            };
            out.push(
                            Diag::at(
                                Code::CheckRollWithoutRow,
                                format!(
                                    "{what}, and no row of `{}` covers {}{}",
                                    table.sig.name,
                                    shown_all(&missing),
                                    c.name
                                ),
                                s.span,
                                format!("can be {can}"),
                            )
                            .help(format!(
                                "add a row for {}, or widen a neighbouring row (the roll's range comes from its dice and the declared ranges of what is added to them)",
                                shown_all(&missing)
                            )),
                        );
        }
    }
}

/// Is a cell "not given in the source"?
fn not_given(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::NotGiven { .. } => true,
        ExprKind::InRange { value, .. } => not_given(value),
        _ => false,
    }
}

/// The errors and warnings of table `t`: the rolls `found` makes of it without a row, and
/// its rows no roll reaches.
pub(super) fn table(
    prog: &Program,
    table: &TableInfo,
    t: usize,
    found: &[CallSite],
    diags: &mut Vec<Diag>,
) {
    let Some(k) = number_key(table) else { return };
    let cols = columns(prog, table, &table.rows, k);
    let key = &table.sig.params[k];
    let mine: Vec<&CallSite> = found.iter().filter(|s| s.table as usize == t).collect();
    for s in &mine {
        without_rows(table, &cols, s, diags);
    }
    // Rows no roll reaches: only when every roll made of the table is known.
    let rolls: Vec<&CallSite> = mine.into_iter().filter(|s| !s.example).collect();
    let reachable = if rolls.is_empty() {
        match key.range {
            Some(_) => Reach::ALL.within(key.range),
            None => return,
        }
    } else if rolls.iter().all(|s| s.reach.known()) {
        rolls
            .iter()
            .fold(Reach::None, |acc, s| acc.union(s.reach))
            .within(key.range)
    } else {
        return;
    };
    let Some(bounds) = whole_bounds(reachable) else {
        return;
    };
    unreachable_rows(table, k, bounds, &rolls, diags);
}

/// The rows of `table` (keyed by a number at `k`) that no roll reaches: the rolls made
/// of it reach `bounds` (or, when none is made, its key is declared `bounds`).
fn unreachable_rows(
    table: &TableInfo,
    k: usize,
    bounds: (i128, i128),
    rolls: &[&CallSite],
    diags: &mut Vec<Diag>,
) {
    let key = &table.sig.params[k];
    for row in &table.rows {
        let Some(iv) = intervals(&row.patterns[k]) else {
            continue;
        };
        if not_given(&row.cell) {
            continue; // a gap in the source, written down on purpose
        }
        let reached = iv.iter().any(|&(a, b)| a.max(bounds.0) <= b.min(bounds.1));
        if reached || iv.is_empty() {
            continue;
        }
        let mut d = Diag::at(
            Code::CheckUnreachableRow,
            if rolls.is_empty() {
                format!(
                    "no roll reaches row {} of `{}`: `{}` is declared {}",
                    row.quoted(),
                    table.sig.name,
                    key.name,
                    shown(bounds)
                )
            } else {
                format!(
                    "no roll reaches row {} of `{}`: the rolls made of it are {}",
                    row.quoted(),
                    table.sig.name,
                    shown(bounds)
                )
            },
            row.span,
            "no roll reaches this row",
        )
        .help("remove the row, or check the dice and modifiers of the calls")
        .warning();
        if rolls.is_empty() {
            d = d.label(key.span, "declared here");
        }
        if let Some(s) = rolls.first() {
            d = d.label(
                s.span,
                format!("can be {}", shown(whole_bounds(s.reach).unwrap_or(bounds))),
            );
        }
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_of_patterns() {
        assert_eq!(intervals(&Pat::Any), None);
        let p = Pat::Alts(vec![
            Alt::Range(1, 3),
            Alt::AtLeast(10),
            Alt::AtMost(-1),
            Alt::Bool(true),
        ]);
        // `1-3 | 10+ | -1-` ; a `true` alternative covers no number.
        assert_eq!(intervals(&p), Some(vec![(1, 3), (10, HI), (LO, -1)]));
    }

    #[test]
    fn merge_joins_overlapping_and_touching_stretches() {
        // 1-3 and 4-6 touch; 5-8 overlaps them; 10 stands apart.
        assert_eq!(
            merge(vec![(10, 10), (4, 6), (1, 3), (5, 8)]),
            vec![(1, 8), (10, 10)]
        );
        // The stretch up to HI does not overflow when joined.
        assert_eq!(merge(vec![(0, HI), (HI, HI)]), vec![(0, HI)]);
        assert_eq!(merge(Vec::new()), Vec::new());
    }

    #[test]
    fn uncovered_finds_the_holes() {
        // 1..10 with 2-3 and 6-7 covered leaves 1, 4-5 and 8-10.
        assert_eq!(
            uncovered((1, 10), &[(2, 3), (6, 7)]),
            vec![(1, 1), (4, 5), (8, 10)]
        );
        assert_eq!(uncovered((1, 10), &[(LO, HI)]), Vec::new());
        assert_eq!(uncovered((1, 10), &[]), vec![(1, 10)]);
        // Stretches outside the bounds are passed over.
        assert_eq!(uncovered((5, 6), &[(1, 2), (9, 12)]), vec![(5, 6)]);
    }

    #[test]
    fn shown_as_a_rulebook_says_it() {
        assert_eq!(shown((7, 7)), "7");
        assert_eq!(shown((7, 9)), "7-9");
        assert_eq!(shown((-8, 18)), "-8..18");
        assert_eq!(shown((10, HI)), "10 or more");
        assert_eq!(shown((LO, 0)), "0 or less");
        assert_eq!(shown((LO, HI)), "every number");
        assert_eq!(shown_all(&[(3, 3)]), "3");
        assert_eq!(shown_all(&[(3, 3), (11, HI)]), "3 and 11 or more");
        assert_eq!(
            shown_all(&[(3, 3), (5, 6), (11, HI)]),
            "3, 5-6 and 11 or more"
        );
    }

    #[test]
    fn whole_bounds_keep_to_what_a_key_can_be() {
        assert_eq!(whole_bounds(Reach::ALL), Some((LO, HI)));
        assert_eq!(whole_bounds(Reach::None), None);
    }
}
