//! `override table NAME { rows }` on a table keyed by numbers: a house row takes its
//! numbers from the base's rows, which keep only the numbers no house row covers — so
//! `good_order | 6 or more => well_handled` leaves the base's `5,6 => tardy` row with 5,
//! and drops its `7 or more` row, and the patch itself never makes rows overlap.

use crate::diagnostic::{Code, Diag};
use crate::span::{SourceMap, Span};
use crate::syntax::ast::{self, Alternative, ColumnPatch, Pattern, Row};

/// The patch's `column KEY = PATTERN { rows }` blocks put in among its plain rows, each
/// row given the block's pattern at its key's place (as a `column` block of a table).
///
/// Errors: a block's key that is not a key of the table.
pub(super) fn with_columns(
    keys: &[ast::Param],
    rows: Vec<Row>,
    columns: Vec<ColumnPatch>,
) -> Result<Vec<Row>, Diag> {
    let mut out = Vec::new();
    let mut plain = rows.into_iter();
    let mut taken = 0;
    for c in columns {
        while taken < c.after {
            out.extend(plain.next());
            taken += 1;
        }
        let Some(pos) = keys.iter().position(|k| k.name.node == c.key.node) else {
            return Err(Diag::at(
                Code::ParseColumn,
                format!("`{}` is not a key of this table", c.key.node),
                c.key.span,
                "not a key",
            )
            .suggest(&c.key.node, keys.iter().map(|k| k.name.node.as_str())));
        };
        for mut row in c.rows {
            if keys.len() > 2
                && row.patterns.len() == 1
                && matches!(row.patterns[0], Pattern::Any(_))
            {
                row.patterns = vec![row.patterns[0].clone(); keys.len() - 1];
            }
            row.patterns
                .insert(pos.min(row.patterns.len()), c.pattern.clone());
            out.push(row);
        }
    }
    out.extend(plain);
    Ok(out)
}

/// Whole numbers as closed intervals, `None` an open end.
type Bands = Vec<(Option<i64>, Option<i64>)>;

/// A pattern's numbers, if it is made of whole-number alternatives only.
fn bands(p: &Pattern) -> Option<Bands> {
    let Pattern::Alternatives(alts, _) = p else {
        return None;
    };
    alts.iter()
        .map(|a| match a {
            Alternative::Int(n, _) => Some((Some(*n), Some(*n))),
            Alternative::AtLeast(n, _) => Some((Some(*n), None)),
            Alternative::AtMost(n, _) => Some((None, Some(*n))),
            Alternative::Range(a, b, _) => Some((Some(*a), Some(*b))),
            _ => None,
        })
        .collect()
}

/// `keep` less the numbers of `take`.
fn minus(keep: &Bands, take: &Bands) -> Bands {
    let mut left = keep.clone();
    for &(tlo, thi) in take {
        let mut next = Vec::new();
        for &(lo, hi) in &left {
            // Below the taken band.
            if let Some(t) = tlo {
                if lo.is_none_or(|l| l < t) {
                    let top = t.checked_sub(1).map(|t| hi.map_or(t, |h| h.min(t)));
                    if let Some(top) = top {
                        next.push((lo, Some(top)));
                    }
                }
            }
            // Above it.
            if let Some(t) = thi {
                if hi.is_none_or(|h| h > t) {
                    let bottom = t.checked_add(1).map(|t| lo.map_or(t, |l| l.max(t)));
                    if let Some(bottom) = bottom {
                        next.push((Some(bottom), hi));
                    }
                }
            }
        }
        left = next;
    }
    left
}

/// Bands written back as a pattern, at `span`.
fn pattern(b: &Bands, span: Span) -> Pattern {
    let alts = b
        .iter()
        .map(|&(lo, hi)| match (lo, hi) {
            (Some(l), Some(h)) if l == h => Alternative::Int(l, span),
            (Some(l), Some(h)) => Alternative::Range(l, h, span),
            (Some(l), None) => Alternative::AtLeast(l, span),
            (None, Some(h)) => Alternative::AtMost(h, span),
            (None, None) => Alternative::AtLeast(i64::MIN, span),
        })
        .collect();
    Pattern::Alternatives(alts, span)
}

/// A pattern as written, spaces taken out, for matching a patch row with a base row.
pub(super) fn text(sources: &SourceMap, p: &Pattern) -> String {
    sources.snippet(p.span()).split_whitespace().collect()
}

/// The base's rows less what the house row `house` decides: a row the house row covers
/// on every key (`_`, each of its alternatives written in the house row's, or numbers
/// all among the house row's) is
/// dropped; a row it covers on every key but one of whole numbers keeps the numbers the
/// house row leaves.
pub(super) fn trim(sources: &SourceMap, base: &mut Vec<Row>, house: &Row) {
    let hkeys: Vec<String> = house.patterns.iter().map(|p| text(sources, p)).collect();
    base.retain_mut(|r| {
        if r.patterns.len() != house.patterns.len() {
            return true;
        }
        let mut differ = None;
        for (i, (h, b)) in house.patterns.iter().zip(&r.patterns).enumerate() {
            // `_`, or every alternative of the base's among the house row's.
            let btext = text(sources, b);
            let covered = matches!(h, Pattern::Any(_))
                || btext.split(',').all(|a| hkeys[i].split(',').any(|x| x == a))
                || matches!((bands(h), bands(b)), (Some(hb), Some(bb)) if minus(&bb, &hb).is_empty());
            if !covered {
                if differ.is_some() {
                    return true;
                }
                differ = Some(i);
            }
        }
        let Some(i) = differ else {
            return false;
        };
        let (Some(hb), Some(bb)) = (bands(&house.patterns[i]), bands(&r.patterns[i])) else {
            return true;
        };
        let left = minus(&bb, &hb);
        if left.is_empty() {
            return false;
        }
        if left != bb {
            r.patterns[i] = pattern(&left, r.patterns[i].span());
        }
        true
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_taken_out() {
        let b = vec![(Some(5), Some(6))];
        assert_eq!(minus(&b, &vec![(Some(6), None)]), vec![(Some(5), Some(5))]);
        assert_eq!(
            minus(&vec![(Some(7), None)], &vec![(Some(6), None)]),
            vec![]
        );
        assert_eq!(
            minus(&vec![(None, None)], &vec![(Some(2), Some(3))]),
            vec![(None, Some(1)), (Some(4), None)]
        );
        assert_eq!(
            minus(&vec![(None, Some(0))], &vec![(Some(3), Some(4))]),
            vec![(None, Some(0))]
        );
    }
}
