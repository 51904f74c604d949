//! Tables against the rolls made of them: the columns a table has, the numbers each
//! covers, and the errors and warnings for rolls without a row and rows without a roll.

use super::interval::Reach;
use super::scale::Scale;
use super::sites::CallSite;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::program::*;
use crate::value::Value;

/// The key that takes a number (a die roll, a ratio), if a table has one: the last such
/// key (a table keyed by two numbers, `odds` and `roll`, is read down a column of `odds`);
/// a length only when no key is a number.
pub(in crate::check) fn number_key(t: &TableInfo) -> Option<usize> {
    let keys = &t.sig.params[..t.keys.min(t.sig.params.len())];
    keys.iter()
        .rposition(|p| matches!(p.ty, Ty::Int | Ty::Num))
        .or_else(|| keys.iter().rposition(|p| p.ty == Ty::Length))
}

/// Whether a key of this type is looked up by number (`Int`, `Num`, or a `Length`).
fn is_number(ty: &Ty) -> bool {
    matches!(ty, Ty::Int | Ty::Num | Ty::Length)
}

/// The whole numbers a pattern covers, as inclusive intervals (`None` for `_`).
pub(in crate::check) fn intervals(p: &Pat) -> Option<Vec<(i128, i128)>> {
    Scale::WHOLE.spans(p)
}

/// How one of the other keys is for a column: a pattern (one value of an enum, each way
/// the rows write a key that cannot be listed), or a stretch of a number key's numbers.
pub(in crate::check) enum Other {
    /// The key as a pattern.
    Pat(Pat),
    /// The numbers from one end to the other on the key's scale.
    Numbers(Scale, (i128, i128)),
}

impl Other {
    /// Whether a value given for the key is in this column.
    fn takes(&self, v: &Value) -> bool {
        match (self, v) {
            (Other::Pat(p), v) => p.matches(v),
            (Other::Numbers(s, (lo, hi)), Value::Int(_) | Value::Frac(_)) => {
                (*lo..=*hi).contains(&s.index(&v.as_number().unwrap_or_default()))
            }
            (Other::Numbers(s, (lo, hi)), Value::Length(l)) => {
                (*lo..=*hi).contains(&s.index(&l.inches))
            }
            _ => false,
        }
    }
}

/// One way the other keys can be — one column of the Manoeuvre Table (`order:
/// good_order`) — with the rows that apply to it and the numbers they cover.
pub(in crate::check) struct Column {
    /// The other keys, each as one value or stretch of numbers when they could be listed.
    pub others: Vec<Other>,
    /// The rows that apply to it, in order (rows giving the other keys as `_` included).
    /// Empty for a column a declared range asks for that no row gives.
    pub rows: Vec<usize>,
    /// Every number those rows cover on the key's scale, sorted and merged.
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
    other_pats(row, k).cloned().collect()
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
    scale: Scale,
    others: Vec<Other>,
    name: String,
    applies: Vec<usize>,
) -> Column {
    let mut all: Vec<(i128, i128)> = Vec::new();
    for &r in &applies {
        match scale.spans(&rows[r].patterns[k]) {
            Some(iv) => all.extend(iv),
            None => all.push((scale.lo(), scale.hi())),
        }
    }
    Column {
        others,
        rows: applies,
        covered: merge(all),
        name,
    }
}

/// One value or stretch an other key can be, for the columns of a table.
enum Choice {
    /// A named value (an enum's, true/false) and its name.
    Value(Value, String),
    /// Numbers of a number key no row tells apart; whether a declared range asks for a
    /// row for them; `key = 3` for the column's name.
    Numbers(Scale, (i128, i128), bool, String),
}

impl Choice {
    /// Whether a row's pattern for the key takes it.
    fn in_pattern(&self, p: &Pat) -> bool {
        match self {
            Choice::Value(v, _) => p.matches(v),
            Choice::Numbers(s, (lo, hi), ..) => match s.spans(p) {
                None => true,
                Some(iv) => iv.iter().any(|&(a, b)| a <= *lo && *hi <= b),
            },
        }
    }

    fn name(&self) -> &str {
        match self {
            Choice::Value(_, n) | Choice::Numbers(.., n) => n,
        }
    }

    fn other(&self) -> Other {
        match self {
            Choice::Value(Value::Enum(e, i), _) => Other::Pat(Pat::Alts(vec![Alt::Enum(*e, *i)])),
            Choice::Value(Value::Bool(b), _) => Other::Pat(Pat::Alts(vec![Alt::Bool(*b)])),
            Choice::Value(..) => Other::Pat(Pat::Any),
            Choice::Numbers(s, span, ..) => Other::Numbers(*s, *span),
        }
    }
}

/// The stretches of number key `j` that the rows tell apart (cut at every end a row
/// writes): those some row takes, and every one inside the key's declared range.
fn pieces(rows: &[RowInfo], j: usize, key: &ParamInfo) -> Vec<Choice> {
    let s = Scale::of_key(&key.ty, rows, j);
    let domain = key
        .range
        .and_then(crate::program::NumRange::int)
        .map_or((s.lo(), s.hi()), |r| s.range(r));
    let mut cuts = vec![domain.0, domain.1 + 1];
    for row in rows {
        for (a, b) in row
            .patterns
            .get(j)
            .and_then(|p| s.spans(p))
            .unwrap_or_default()
        {
            cuts.extend([a, b + 1]);
        }
    }
    cuts.retain(|c| (domain.0..=domain.1 + 1).contains(c));
    cuts.sort_unstable();
    cuts.dedup();
    // Each stretch, and whether a row takes it; a stretch is asked for when the key's
    // range holds it, or (no range) when rows take stretches on both sides of it: `1 |`
    // and `3 |` rows leave 2 out, as rows `1` and `3` of a roll would.
    let stretches: Vec<((i128, i128), bool)> = cuts
        .windows(2)
        .map(|w| {
            let span = (w[0], w[1] - 1);
            let taken = rows.iter().any(|r| {
                r.patterns.get(j).is_some_and(|p| match s.spans(p) {
                    None => true,
                    Some(iv) => iv.iter().any(|&(a, b)| a <= span.0 && span.1 <= b),
                })
            });
            (span, taken)
        })
        .collect();
    let first = stretches.iter().position(|(_, t)| *t);
    let last = stretches.iter().rposition(|(_, t)| *t);
    stretches
        .into_iter()
        .enumerate()
        .filter_map(|(i, (span, taken))| {
            let between = first.is_some_and(|f| f < i) && last.is_some_and(|l| i < l);
            let required = key.range.and_then(crate::program::NumRange::int).is_some() || between;
            (taken || required).then(|| {
                let name = format!("{} = {}", key.name, s.shown(span));
                Choice::Numbers(s, span, required, name)
            })
        })
        .collect()
}

/// The columns of a table keyed by a number at `k`: every combination of its other
/// keys when they are named values (enums, true/false) or numbers (each stretch the rows
/// tell apart), each covered by every row that matches it; otherwise, the other keys as
/// the rows write them.
pub(in crate::check) fn columns(
    prog: &Program,
    table: &TableInfo,
    rows: &[RowInfo],
    k: usize,
) -> Vec<Column> {
    let scale = Scale::of_key(&table.sig.params[k].ty, rows, k);
    let mut choices: Vec<Vec<Choice>> = Vec::new();
    for (j, p) in table.sig.params[..table.keys.min(table.sig.params.len())]
        .iter()
        .enumerate()
        .filter(|(j, _)| *j != k)
    {
        if let Some(v) = crate::program::listed_values(prog, &p.ty) {
            choices.push(v.into_iter().map(|(v, n)| Choice::Value(v, n)).collect());
        } else if is_number(&p.ty) {
            choices.push(pieces(rows, j, p));
        } else {
            return written_columns(rows, k, scale);
        }
    }
    let combos = choices
        .iter()
        .try_fold(1usize, |n, v| n.checked_mul(v.len()));
    let listable =
        combos.is_some_and(|n| n <= MAX_COLUMNS && n.saturating_mul(rows.len()) <= MAX_COLUMN_ROWS);
    if listable {
        return listed_columns(rows, k, scale, &choices);
    }
    written_columns(rows, k, scale)
}

/// A column for each combination of the other keys' `choices`, the last key fastest.
fn listed_columns(
    rows: &[RowInfo],
    k: usize,
    scale: Scale,
    choices: &[Vec<Choice>],
) -> Vec<Column> {
    let mut out = Vec::new();
    if choices.iter().any(Vec::is_empty) {
        return out;
    }
    let mut index = vec![0usize; choices.len()];
    loop {
        let combo: Vec<&Choice> = index.iter().zip(choices).map(|(&i, cs)| &cs[i]).collect();
        let takes = |r: usize, named_only: bool| {
            other_pats(&rows[r], k)
                .zip(&combo)
                .all(|(p, c)| (named_only && matches!(c, Choice::Numbers(..))) || c.in_pattern(p))
        };
        let applies: Vec<usize> = (0..rows.len()).filter(|&r| takes(r, false)).collect();
        // A stretch a declared range asks for, in a column of named values that has rows
        // (one without any is told by the enum coverage).
        let asked = combo
            .iter()
            .any(|c| matches!(c, Choice::Numbers(_, _, true, _)))
            && (0..rows.len()).any(|r| takes(r, true));
        if !applies.is_empty() || asked {
            let name = if combo.is_empty() {
                String::new()
            } else {
                let names: Vec<&str> = combo.iter().map(|c| c.name()).collect();
                format!(" in column `{}`", names.join(" | "))
            };
            let others = combo.iter().map(|c| c.other()).collect();
            out.push(finish(rows, k, scale, others, name, applies));
        }
        if !next_combination(&mut index, choices) {
            return out;
        }
    }
}

/// Other keys that cannot be listed (a text): columns as the rows write them, each
/// covered by the rows that give its keys as generally or more.
fn written_columns(rows: &[RowInfo], k: usize, scale: Scale) -> Vec<Column> {
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
        let o = o.into_iter().map(Other::Pat).collect();
        out.push(finish(rows, k, scale, o, name, applies));
    }
    out
}

/// Sorted, overlapping and touching stretches joined.
pub(in crate::check) fn merge(mut all: Vec<(i128, i128)>) -> Vec<(i128, i128)> {
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

/// The other number keys of a call site (`odds` of `crt(odds, d6)`) that can go past the
/// range their key is declared with: an error, as for the roll.
fn others_out_of_range(table: &TableInfo, k: usize, s: &CallSite, out: &mut Vec<Diag>) {
    let keys = table.sig.params.iter().take(table.keys).enumerate();
    let others = keys.filter(|(i, _)| *i != k).map(|(_, p)| p);
    let index = (0..table.keys).filter(|i| *i != k);
    for ((key, reach), j) in others.zip(&s.other_reach).zip(index) {
        let (Some((reach, span)), Some(r)) =
            (reach, key.range.and_then(crate::program::NumRange::int))
        else {
            continue;
        };
        let scale = Scale::of_key(&key.ty, &table.rows, j);
        let Some(bounds) = scale.bounds(*reach).filter(|_| reach.known()) else {
            continue;
        };
        out_of_range(table, key, scale, r, bounds, (*span, "this value"), out);
    }
}

/// A value that can be `bounds` given for `key`, declared `r`, written at `span` (`what`:
/// "this roll", "this value"): an error for the part outside `r` (it would be refused at
/// run time).
fn out_of_range(
    table: &TableInfo,
    key: &ParamInfo,
    scale: Scale,
    r: IntRange,
    bounds: (i128, i128),
    (span, what): (crate::span::Span, &str),
    out: &mut Vec<Diag>,
) {
    let range = scale.range(r);
    let outside = [
        (bounds.0, bounds.1.min(range.0 - 1)),
        (bounds.0.max(range.1.saturating_add(1)), bounds.1),
    ];
    let outside: Vec<(i128, i128)> = outside.into_iter().filter(|(a, b)| a <= b).collect();
    if outside.is_empty() {
        return;
    }
    let can = scale.shown(bounds);
    out.push(
        Diag::at(
            Code::CheckRollOutOfRange,
            format!(
                "{what} can be {can}, and `{}` of `{}` takes {r}: {} would be refused",
                key.name,
                table.sig.name,
                scale.shown_all(&outside)
            ),
            span,
            format!("can be {can}"),
        )
        .label(key.span, format!("takes {r}"))
        .help("widen the key's range (and give rows for the new numbers), or change the roll"),
    );
}

/// The rolls a call site can make that find no row in a column they may be read on.
fn without_rows(table: &TableInfo, cols: &[Column], s: &CallSite, out: &mut Vec<Diag>) {
    let k = number_key(table).unwrap_or(0);
    let Some(key) = table.sig.params.get(k) else {
        return;
    };
    let scale = Scale::of_key(&key.ty, &table.rows, k);
    let Some(mut bounds) = scale.bounds(s.reach) else {
        return;
    };
    if !s.reach.known() {
        return;
    }
    // A roll past the range the key is declared with fails at run time: an error here.
    if let Some(r) = key.range.and_then(crate::program::NumRange::int) {
        let range = scale.range(r);
        out_of_range(table, key, scale, r, bounds, (s.span, "this roll"), out);
        bounds = (bounds.0.max(range.0), bounds.1.min(range.1));
        if bounds.0 > bounds.1 {
            return;
        }
    }
    for c in cols {
        let applies = s
            .others
            .iter()
            .zip(&s.other_reach)
            .zip(&c.others)
            .all(|((v, r), o)| match (v, r, o) {
                (Some(v), _, o) => o.takes(v),
                // A number that may be anything the stretch holds.
                (None, Some((r, _)), Other::Numbers(sc, (lo, hi))) => {
                    sc.bounds(*r).is_some_and(|(a, b)| a.max(*lo) <= b.min(*hi))
                }
                _ => true,
            });
        if !applies {
            continue;
        }
        let missing = uncovered(bounds, &c.covered);
        if !missing.is_empty() {
            let can = scale.shown(bounds);
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
                        scale.shown_all(&missing),
                        c.name
                    ),
                    s.span,
                    format!("can be {can}"),
                )
                .help(format!(
                    "add a row for {}, or widen a neighbouring row (the roll's range comes from its dice and the declared ranges of what is added to them)",
                    scale.shown_all(&missing)
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
        others_out_of_range(table, k, s, diags);
        without_rows(table, &cols, s, diags);
    }
    // Rows no roll reaches: only when every roll made of the table is known.
    let rolls: Vec<&CallSite> = mine.into_iter().filter(|s| !s.example).collect();
    let reachable = if rolls.is_empty() {
        match key.range.and_then(crate::program::NumRange::int) {
            Some(_) => Reach::ALL.within(key.range.and_then(crate::program::NumRange::int)),
            None => return,
        }
    } else if rolls.iter().all(|s| s.reach.known()) {
        rolls
            .iter()
            .fold(Reach::None, |acc, s| acc.union(s.reach))
            .within(key.range.and_then(crate::program::NumRange::int))
    } else {
        return;
    };
    let Some(bounds) = Scale::of_key(&key.ty, &table.rows, k).bounds(reachable) else {
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
    let scale = Scale::of_key(&key.ty, &table.rows, k);
    for row in &table.rows {
        let Some(iv) = scale.spans(&row.patterns[k]) else {
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
                    scale.shown(bounds)
                )
            } else {
                format!(
                    "no roll reaches row {} of `{}`: the rolls made of it are {}",
                    row.quoted(),
                    table.sig.name,
                    scale.shown(bounds)
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
                format!(
                    "can be {}",
                    scale.shown(scale.bounds(s.reach).unwrap_or(bounds))
                ),
            );
        }
        diags.push(d);
    }
}

#[cfg(test)]
mod tests {
    use super::super::interval::{HI, LO};
    use super::*;

    const WHOLE: Scale = Scale::WHOLE;
    fn shown(iv: (i128, i128)) -> String {
        WHOLE.shown(iv)
    }
    fn shown_all(iv: &[(i128, i128)]) -> String {
        WHOLE.shown_all(iv)
    }

    #[test]
    fn intervals_of_patterns() {
        assert_eq!(intervals(&Pat::Any), None);
        let n = crate::value::Rational::from_integer;
        let p = Pat::Alts(vec![
            Alt::Range(n(1), n(3)),
            Alt::AtLeast(n(10)),
            Alt::AtMost(n(-1)),
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
        assert_eq!(WHOLE.bounds(Reach::ALL), Some((LO, HI)));
        assert_eq!(WHOLE.bounds(Reach::None), None);
    }
}
