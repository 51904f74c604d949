//! Parameters, types, table rows and patterns.

use super::*;
use crate::diagnostic::Code;
use crate::value::LengthUnit;

impl Builder {
    pub(super) fn build_params(&self, p: Pair<Rule>) -> R<(Vec<Param>, Vec<Param>)> {
        let text = p.as_str();
        let semi = text.find(';').map(|i| p.as_span().start() + i);
        let mut keys = Vec::new();
        let mut extra = Vec::new();
        for q in p.into_inner() {
            let start = q.as_span().start();
            let mut qi = q.into_inner();
            let (Some(n), Some(t)) = (qi.next(), qi.next()) else {
                continue;
            };
            let d = qi.next();
            let needed = d
                .as_ref()
                .is_some_and(|d| d.as_rule() == Rule::needed_default);
            let default = d
                .filter(|_| !needed)
                .map(|d| self.build_expr(d))
                .transpose()?;
            let param = Param {
                name: self.name(n),
                ty: self.build_type(t)?,
                default,
                needed,
            };
            if semi.is_some_and(|s| start > s) {
                extra.push(param);
            } else {
                keys.push(param);
            }
        }
        Ok((keys, extra))
    }

    pub(super) fn build_type(&self, p: Pair<Rule>) -> R<TypeExpr> {
        let span = self.span(&p);
        let Some(inner) = p.into_inner().next() else {
            return Err(Diag::at(Code::ParseSyntax, "expected a type", span, "here"));
        };
        Ok(match inner.as_rule() {
            Rule::ident | Rule::qualified_name => TypeExpr::Named(self.name(inner)),
            Rule::range_type => {
                let mut ri = inner
                    .into_inner()
                    .filter(|q| !matches!(q.as_rule(), Rule::length_ahead | Rule::range_dots));
                let lo = ri.next().map(|x| self.range_end(x)).transpose()?;
                let lo = lo.unwrap_or(RangeEnd::Int(0));
                let hi = ri.next().map(|x| self.range_end(x)).transpose()?;
                match (lo, hi) {
                    (RangeEnd::Int(lo), None) => TypeExpr::Range { lo, hi: None, span },
                    (RangeEnd::Int(lo), Some(RangeEnd::Int(hi))) => TypeExpr::Range {
                        lo,
                        hi: Some(hi),
                        span,
                    },
                    (lo, hi) => TypeExpr::LengthRange { lo, hi, span },
                }
            }
            Rule::group_type => {
                let Some(member) = inner.into_inner().next() else {
                    return Err(Diag::at(
                        Code::ParseSyntax,
                        "expected `group of Type`",
                        span,
                        "here",
                    ));
                };
                TypeExpr::Group(Box::new(self.build_type(member)?), span)
            }
            Rule::pair_type => {
                let mut ri = inner.into_inner();
                let (Some(a), Some(b)) = (ri.next(), ri.next()) else {
                    return Err(Diag::at(
                        Code::ParseSyntax,
                        "expected a pair type",
                        span,
                        "here",
                    ));
                };
                TypeExpr::Pair(
                    Box::new(self.build_type(a)?),
                    Box::new(self.build_type(b)?),
                    span,
                )
            }
            r => unreachable!("{r:?} in build_type"),
        })
    }

    pub(super) fn build_row(&self, p: Pair<Rule>) -> R<Row> {
        let mut inner = p.into_inner();
        let (Some(keys), Some(cell)) = (inner.next(), inner.next()) else {
            unreachable!("row without keys or cell")
        };
        let span = self.span(&keys);
        let patterns = keys
            .into_inner()
            .map(|k| self.build_pattern(k))
            .collect::<R<Vec<_>>>()?;
        let cell = self.build_cell(cell)?;
        Ok(Row {
            patterns,
            cell,
            span,
            column: None,
            cite: None,
            grid: None,
        })
    }

    pub(super) fn build_cell(&self, p: Pair<Rule>) -> R<Expr> {
        let span = self.span(&p);
        let Some(inner) = p.into_inner().next() else {
            unreachable!("empty cell")
        };
        if inner.as_rule() == Rule::dash_cell {
            let c = inner.as_str().chars().next().unwrap_or('-');
            return Ok(Expr {
                kind: ExprKind::Refuse {
                    reason: format!("not allowed (\"{c}\" in the table)"),
                    cite: None,
                },
                span,
            });
        }
        self.build_expr(inner)
    }

    pub(super) fn build_pattern(&self, p: Pair<Rule>) -> R<Pattern> {
        let span = self.span(&p);
        let mut alts = Vec::new();
        for a in p.into_inner() {
            let aspan = self.span(&a);
            let rule = a.as_rule();
            if rule == Rule::wildcard {
                return Ok(Pattern::Any(span));
            }
            let parts: Vec<Pair<Rule>> = a
                .into_inner()
                .filter(|x| !matches!(x.as_rule(), Rule::more_kw | Rule::less_kw | Rule::than_kw))
                .collect();
            let bound_at = |i: usize| -> R<Bound> {
                match parts.get(i) {
                    Some(x) => self.bound(x.clone()),
                    None => Ok(Bound::int(0, aspan)),
                }
            };
            alts.push(match rule {
                Rule::pat_or_more => Alternative::AtLeast(bound_at(0)?, aspan),
                Rule::pat_or_less => Alternative::AtMost(bound_at(0)?, aspan),
                Rule::pat_more_than => Alternative::MoreThan(bound_at(0)?, aspan),
                Rule::pat_less_than => Alternative::LessThan(bound_at(0)?, aspan),
                Rule::pat_range => {
                    let (lo, hi) = (bound_at(0)?, bound_at(1)?);
                    if lo.value > hi.value && lo.length == hi.length {
                        let whole = |b: &Bound| {
                            (!b.length && b.value.is_integer()).then(|| b.value.to_integer())
                        };
                        let ints = whole(&lo).zip(whole(&hi));
                        let text = |i: usize| parts.get(i).map_or("", |x| x.as_str().trim());
                        let (lo, hi) = (text(0), text(1));
                        // Never "write `1-2`": to a wargamer `2-1` may be an odds column,
                        // and `1-2` is another one.
                        let help = match ints {
                            Some((l, h)) => super::ordered::reversed_range_help(l, h, None),
                            None => format!(
                                "a range takes its two ends and every value between, the low end written first: `{hi}-{lo}`"
                            ),
                        };
                        return Err(Diag::at(
                            Code::ParseRange,
                            format!("the range {lo}-{hi} is reversed: its high end comes first, and it takes no number"),
                            aspan,
                            "reversed",
                        )
                        .help(help));
                    }
                    Alternative::Range(lo, hi, aspan)
                }
                Rule::pat_name_range | Rule::pat_name_or_more | Rule::pat_name_or_less => {
                    self.build_name_alt(rule, parts, aspan)
                }
                Rule::pat_int => Alternative::Int(bound_at(0)?, aspan),
                Rule::pat_bool => {
                    Alternative::Bool(parts.first().is_some_and(|b| b.as_str() == "true"), aspan)
                }
                Rule::pat_name => {
                    let r = self.dotted(parts);
                    Alternative::Name(r.qual, r.name)
                }
                r => unreachable!("{r:?} in build_pattern"),
            });
        }
        Ok(Pattern::Alternatives(alts, span))
    }

    /// An end of a range type: `3`, `-1`, `0"`, `1 1/2"`, `12'`, `-6"` (a length in exact inches,
    /// remembering its unit).
    fn range_end(&self, p: Pair<Rule>) -> R<RangeEnd> {
        if p.as_rule() == Rule::neg_length {
            let Some(length) = p.into_inner().find(|q| q.as_rule() == Rule::length_lit) else {
                unreachable!("a negative length without its length")
            };
            return Ok(match self.range_end(length)? {
                RangeEnd::Length(l) => RangeEnd::Length(crate::value::Length {
                    inches: -l.inches,
                    unit: l.unit,
                }),
                other => other,
            });
        }
        if p.as_rule() != Rule::length_lit {
            return self.int(&p).map(RangeEnd::Int);
        }
        let span = self.span(&p);
        let (inches, unit) = match self.build_length(p, span)? {
            ExprKind::Length(v, LengthUnit::Feet) => (
                num_traits::CheckedMul::checked_mul(&v, &Rational::from_integer(12)),
                LengthUnit::Feet,
            ),
            ExprKind::Length(v, unit) => (Some(v), unit),
            _ => (None, LengthUnit::Inches),
        };
        let inches = inches.ok_or_else(|| length_too_large(span))?;
        Ok(RangeEnd::Length(crate::value::Length { inches, unit }))
    }

    /// A pattern's bound: `7`, `-1/2`, `1 1/2`, `2.5`, `6"`, `1' 6"` (a length in inches).
    fn bound(&self, p: Pair<Rule>) -> R<Bound> {
        let span = self.span(&p);
        let mut negative = false;
        let mut out = None;
        for q in p.into_inner() {
            match q.as_rule() {
                Rule::pat_minus => negative = true,
                Rule::length_ahead => {}
                Rule::length_lit => {
                    let inches = match self.build_length(q, span)? {
                        ExprKind::Length(v, LengthUnit::Feet) => {
                            num_traits::CheckedMul::checked_mul(&v, &Rational::from_integer(12))
                        }
                        ExprKind::Length(v, LengthUnit::Inches) => Some(v),
                        _ => None,
                    };
                    let value = inches.ok_or_else(|| length_too_large(span))?;
                    out = Some((value, true));
                }
                _ => {
                    let value = self.number(&q, "")?;
                    out = Some((value, false));
                }
            }
        }
        let Some((value, length)) = out else {
            unreachable!("a pattern bound without a number")
        };
        Ok(Bound {
            value: if negative { -value } else { value },
            length,
            span,
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::span::FileId;
    use crate::syntax::ast::{Alternative, Item, Pattern};
    use crate::syntax::parser::parse_file;

    /// The table's rows, each as its first pattern's first alternative.
    fn rows(text: &str) -> Vec<Alternative> {
        let file = parse_file(FileId(0), text).expect("parses");
        let Some(Item::Table(t)) = file.items.into_iter().next() else {
            panic!("a table")
        };
        t.rows
            .into_iter()
            .map(|r| match &r.patterns[0] {
                Pattern::Alternatives(a, _) => a[0].clone(),
                Pattern::Any(_) => panic!("a number pattern"),
            })
            .collect()
    }

    /// After a cell, a line that reads as a row is a new row, whatever its bound:
    /// `-1/2 or less` is never `- 1/2` taken from the cell above.
    #[test]
    fn a_line_that_reads_as_a_row_starts_one() {
        let got = rows(
            "table t(d: Num) -> Int {\n  9 or more => a + 1\n  1/2 or more => b\n  6\" or less => c * 2\n  more than 2' => a\n  less than 1 => b - 1\n  -1/2 or less => 3\n  1 1/2-3 => 1\n  2.5 or more => 1\n}\n",
        );
        assert_eq!(got.len(), 8, "{got:?}");
        let half = crate::value::Rational::new(1, 2);
        assert!(matches!(&got[1], Alternative::AtLeast(b, _) if b.value == half && !b.length));
        assert!(matches!(&got[2], Alternative::AtMost(b, _) if b.value == 6.into() && b.length));
        assert!(matches!(&got[3], Alternative::MoreThan(b, _) if b.value == 24.into()));
        assert!(matches!(&got[4], Alternative::LessThan(b, _) if b.value == 1.into()));
        assert!(matches!(&got[5], Alternative::AtMost(b, _) if b.value == -half));
        assert!(matches!(&got[6], Alternative::Range(a, b, _)
            if a.value == crate::value::Rational::new(3, 2) && b.value == 3.into()));
        assert!(matches!(&got[7], Alternative::AtLeast(b, _)
            if b.value == crate::value::Rational::new(5, 2)));
    }

    /// `1' 6"` is 18 inches; a reversed length range is refused as reversed.
    #[test]
    fn lengths_are_inches_and_ranges_run_low_to_high() {
        let got = rows("table t(d: Length) -> Int {\n  1' 6\"-2' => 1\n}\n");
        assert!(matches!(&got[0], Alternative::Range(a, b, _)
            if a.value == 18.into() && b.value == 24.into()));
        let e = parse_file(
            FileId(0),
            "table t(d: Length) -> Int {\n  2'-13\" => 1\n}\n",
        );
        assert_eq!(
            e.err().map(|d| d.code),
            Some(crate::diagnostic::Code::ParseRange)
        );
    }
}
