//! Ordered enums and membership: `list` definitions, ranges of enum values in patterns
//! (`one_one-three_one`, `four_one or more`), and `x in (...)`.

use super::*;

impl Builder {
    /// `list foot: Troop cite? { spears, pikes, blades }`.
    pub(super) fn build_list(&self, span: Span, inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut inner = inner.filter(|q| q.as_rule() != Rule::list_kw);
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let name = self.name(next()?);
        let of = self.name(next()?);
        let mut cite = None;
        let mut values = Vec::new();
        for q in inner {
            match q.as_rule() {
                Rule::cite => cite = self.cite(Some(q)),
                Rule::ident => values.push(self.name(q)),
                _ => {}
            }
        }
        Ok(Item::List(ListDef {
            name,
            of,
            cite,
            values,
        }))
    }

    /// `a-b` / `a to b`, `a or more`, `a or less` on names: values of an ordered enum.
    pub(super) fn build_name_alt(
        &self,
        rule: Rule,
        parts: Vec<Pair<Rule>>,
        span: Span,
    ) -> Alternative {
        let mut ends = parts
            .into_iter()
            .filter(|q| q.as_rule() == Rule::pat_name)
            .map(|q| self.enum_ref(q));
        let lo = ends.next();
        let hi = ends.next();
        match (rule, lo, hi) {
            (Rule::pat_name_range, Some(lo), Some(hi)) => Alternative::NameRange(lo, hi, span),
            (Rule::pat_name_or_more, Some(v), _) => Alternative::NameAtLeast(v, span),
            (_, Some(v), _) => Alternative::NameAtMost(v, span),
            _ => unreachable!("{rule:?} without its names"),
        }
    }

    /// `infantry` or `Arm.infantry`.
    fn enum_ref(&self, p: Pair<Rule>) -> EnumRef {
        self.dotted(p.into_inner().collect())
    }

    /// The words of a dotted name in a pattern: `infantry`, `Arm.infantry`,
    /// `ks.Arm.infantry` (the enum `ks.Arm`, the value `infantry`), `ks.foot`.
    pub(super) fn dotted(&self, parts: Vec<Pair<Rule>>) -> EnumRef {
        let Some((last, quals)) = parts.split_last() else {
            unreachable!("empty pat_name")
        };
        let qual = match (quals.first(), quals.last()) {
            (Some(a), Some(e)) => {
                let (sa, se) = (self.span(a), self.span(e));
                let words: Vec<&str> = quals.iter().map(|p| p.as_str()).collect();
                Some(Name::new(
                    words.join("."),
                    Span::new(sa.file, sa.start as usize, se.end as usize),
                ))
            }
            _ => None,
        };
        EnumRef {
            qual,
            name: self.name(last.clone()),
        }
    }

    /// `VALUE in (patterns)` / `VALUE not in NAME`.
    pub(super) fn build_membership(&self, value: Expr, op: Pair<Rule>, span: Span) -> R<Expr> {
        let mut negated = false;
        let mut patterns = None;
        for q in op.into_inner() {
            match q.as_rule() {
                Rule::not_in_kw => negated = true,
                Rule::in_kw => {}
                Rule::pattern => patterns = Some(self.build_pattern(q)?),
                Rule::pat_name => {
                    let at = self.span(&q);
                    let r = self.enum_ref(q);
                    patterns = Some(Pattern::Alternatives(
                        vec![Alternative::Name(r.qual, r.name)],
                        at,
                    ));
                }
                r => unreachable!("{r:?} in build_membership"),
            }
        }
        let Some(patterns) = patterns else {
            unreachable!("`in` without patterns")
        };
        Ok(Expr {
            kind: ExprKind::In {
                value: Box::new(value),
                patterns,
                negated,
            },
            span,
        })
    }
}

/// The help for a reversed range `lo-hi` (`2-1`), which to a wargamer may be an odds
/// column: the range is reversed, and an odds column is a value of an ordered enum.
pub(super) fn reversed_range_help(lo: i64, hi: i64, key: Option<&str>) -> String {
    let name = odds_name(lo, hi);
    let write = match key {
        Some(k) => format!("`column {k} = {name}`"),
        None => format!("`{name}` where `{lo}-{hi}` stands"),
    };
    format!(
        "a range takes its two ends and every number between, the low end written first; if `{lo}-{hi}` is an odds column (\"{lo} to {hi}\"), it is not a number: declare the columns as an ordered enum, `enum Odds ordered {{ one_one \"1-1\", two_one \"2-1\", ... }}`, key the table by it (`odds: Odds`), and write {write}"
    )
}

/// A reversed range as a `column`'s pattern (`column odds = 2-1`): the help says what
/// to write in that column's words.
pub(super) fn column_range_help(d: Diag, written: &str, key: &str) -> Diag {
    if d.code != Code::ParseRange {
        return d;
    }
    let ends = written
        .split_once('-')
        .and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    match ends {
        Some((lo, hi)) => {
            let mut d = d;
            d.help = Some(reversed_range_help(lo, hi, Some(key)));
            d
        }
        None => d,
    }
}

/// `2-1` as the name of a value: `two_one` (`odds_12_1` past ten).
fn odds_name(lo: i64, hi: i64) -> String {
    const WORDS: [&str; 11] = [
        "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    ];
    let word = |n: i64| usize::try_from(n).ok().and_then(|i| WORDS.get(i).copied());
    match (word(lo), word(hi)) {
        (Some(a), Some(b)) => format!("{a}_{b}"),
        _ => format!("odds_{}_{}", lo.unsigned_abs(), hi.unsigned_abs()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn odds_names() {
        assert_eq!(odds_name(2, 1), "two_one");
        assert_eq!(odds_name(10, 1), "ten_one");
        assert_eq!(odds_name(12, 1), "odds_12_1");
    }
}
