//! `override table NAME { rows }` on a table keyed by numbers: a house row takes its
//! numbers from the base's rows, which keep only the numbers no house row covers — so
//! `good_order | 6 or more => well_handled` leaves the base's `5,6 => tardy` row with 5,
//! and drops its `7 or more` row, and the patch itself never makes rows overlap.

use crate::diagnostic::{Code, Diag};
use crate::span::{FileId, SourceMap, Span};
use crate::syntax::ast::{self, Alternative, Bound, ColumnPatch, Pattern, Row};

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

/// A pattern's numbers, if it is made of whole-number alternatives only. On a key of
/// whole numbers (`int_key`) every bound counts by the whole numbers it takes:
/// `more than 3` is `4 or more`, `less than 1/2` is `0 or less`, `1/2-3 1/2` is `1-3`.
fn bands(p: &Pattern, int_key: bool) -> Option<Bands> {
    let Pattern::Alternatives(alts, _) = p else {
        return None;
    };
    if int_key {
        let mut out = Vec::new();
        for a in alts {
            let num = |b: &Bound| (!b.length).then_some(b.value);
            let band = match a {
                Alternative::Int(n, _) => whole(n).map(|n| (Some(n), Some(n)))?,
                Alternative::AtLeast(n, _) => (Some(num(n)?.ceil().to_integer()), None),
                Alternative::AtMost(n, _) => (None, Some(num(n)?.floor().to_integer())),
                Alternative::MoreThan(n, _) => {
                    (Some(num(n)?.floor().to_integer().checked_add(1)?), None)
                }
                Alternative::LessThan(n, _) => {
                    (None, Some(num(n)?.ceil().to_integer().checked_sub(1)?))
                }
                Alternative::Range(a, b, _) => {
                    let (lo, hi) = (num(a)?.ceil().to_integer(), num(b)?.floor().to_integer());
                    if lo > hi {
                        continue;
                    }
                    (Some(lo), Some(hi))
                }
                _ => return None,
            };
            out.push(band);
        }
        return Some(out);
    }
    alts.iter()
        .map(|a| match a {
            Alternative::Int(n, _) => whole(n).map(|n| (Some(n), Some(n))),
            Alternative::AtLeast(n, _) => whole(n).map(|n| (Some(n), None)),
            Alternative::AtMost(n, _) => whole(n).map(|n| (None, Some(n))),
            Alternative::Range(a, b, _) => Some((Some(whole(a)?), Some(whole(b)?))),
            _ => None,
        })
        .collect()
}

/// A bound written as a whole number (`5`, not `5"` or `1/2`).
fn whole(b: &Bound) -> Option<i64> {
    if b.length || !b.value.is_integer() {
        return None;
    }
    Some(b.value.to_integer())
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

/// The text of base rows trimmed by house rows, as a source of its own (the `file` to
/// come): an explanation quotes a trimmed row as it now reads (`5`, not `5,6`).
pub(super) struct Trimmed {
    /// The id the source will have.
    file: FileId,
    /// The rows' text, a line each.
    pub text: String,
    /// The name of the file the first trimmed row came from.
    pub base: String,
}

impl Trimmed {
    /// None yet, to be added as source `file`.
    pub fn new(file: FileId) -> Trimmed {
        Trimmed {
            file,
            text: String::new(),
            base: String::new(),
        }
    }

    /// Row `r` (as written at `row_span`) with its pattern `i` now `p`: its text
    /// written out, its spans moved into it. A pattern written outside the row (a
    /// `column` block's) leaves the row as it was.
    fn retext(&mut self, sources: &SourceMap, r: &mut Row, i: usize, p: Pattern) {
        let (row, old) = (r.span, r.patterns[i].span());
        let (Some(words), written) = (pattern_words(&p), old.file == row.file) else {
            r.patterns[i] = p;
            return;
        };
        if !written || old.start < row.start || old.end > row.end {
            r.patterns[i] = p;
            return;
        }
        if self.base.is_empty() {
            self.base = sources
                .get(row.file)
                .map_or(String::new(), |f| f.name.clone());
        }
        let text = sources.snippet(row);
        let (a, b) = (
            (old.start - row.start) as usize,
            (old.end - row.start) as usize,
        );
        let (Some(head), Some(tail)) = (text.get(..a), text.get(b..)) else {
            r.patterns[i] = p;
            return;
        };
        let start = self.text.len();
        self.text.push_str(head);
        let at = self.text.len();
        self.text.push_str(&words);
        let end_pattern = self.text.len();
        self.text.push_str(tail);
        let end = self.text.len();
        self.text.push('\n');
        let pspan = Span::new(self.file, at, end_pattern);
        r.patterns[i] = respan(p, pspan);
        r.span = Span::new(self.file, start, end);
    }
}

/// A pattern of whole numbers in words, as a table row writes it (`5`, `3-4`, `7 or more`).
fn pattern_words(p: &Pattern) -> Option<String> {
    let Pattern::Alternatives(alts, _) = p else {
        return None;
    };
    let words: Option<Vec<String>> = alts
        .iter()
        .map(|a| match a {
            Alternative::Int(n, _) => whole(n).map(|n| n.to_string()),
            Alternative::Range(a, b, _) => Some(format!("{}-{}", whole(a)?, whole(b)?)),
            Alternative::AtLeast(n, _) => whole(n).map(|n| format!("{n} or more")),
            Alternative::AtMost(n, _) => whole(n).map(|n| format!("{n} or less")),
            _ => None,
        })
        .collect();
    words.map(|w| w.join(","))
}

/// The pattern `p` and its alternatives placed at `span`.
fn respan(p: Pattern, span: Span) -> Pattern {
    match p {
        Pattern::Alternatives(alts, _) => {
            let b = bands(&Pattern::Alternatives(alts, span), false).unwrap_or_default();
            pattern(&b, span)
        }
        Pattern::Any(_) => Pattern::Any(span),
    }
}

/// Bands written back as a pattern, at `span`.
fn pattern(b: &Bands, span: Span) -> Pattern {
    let alts = b
        .iter()
        .map(|&(lo, hi)| match (lo, hi) {
            (Some(l), Some(h)) if l == h => Alternative::Int(Bound::int(l, span), span),
            (Some(l), Some(h)) => {
                Alternative::Range(Bound::int(l, span), Bound::int(h, span), span)
            }
            (Some(l), None) => Alternative::AtLeast(Bound::int(l, span), span),
            (None, Some(h)) => Alternative::AtMost(Bound::int(h, span), span),
            (None, None) => Alternative::AtLeast(Bound::int(i64::MIN, span), span),
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
/// (`int_keys`: which keys take whole numbers only.)
pub(super) fn trim(
    sources: &SourceMap,
    base: &mut Vec<Row>,
    house: &Row,
    int_keys: &[bool],
    out: &mut Trimmed,
) {
    let hkeys: Vec<String> = house.patterns.iter().map(|p| text(sources, p)).collect();
    let int = |i: usize| int_keys.get(i).copied().unwrap_or(false);
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
                || matches!((bands(h, int(i)), bands(b, int(i))), (Some(hb), Some(bb)) if minus(&bb, &hb).is_empty());
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
        let (Some(hb), Some(bb)) = (bands(&house.patterns[i], int(i)), bands(&r.patterns[i], int(i))) else {
            return true;
        };
        let left = minus(&bb, &hb);
        if left.is_empty() {
            return false;
        }
        if left != bb {
            let p = pattern(&left, r.patterns[i].span());
            out.retext(sources, r, i, p);
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
