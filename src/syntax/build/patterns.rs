//! Parameters, types, table rows and patterns.

use super::*;
use crate::diagnostic::Code;

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
            let default = qi.next().map(|d| self.build_expr(d)).transpose()?;
            let param = Param {
                name: self.name(n),
                ty: self.build_type(t)?,
                default,
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
            Rule::ident => TypeExpr::Named(self.name(inner)),
            Rule::range_type => {
                let mut ri = inner.into_inner();
                let lo = ri.next().map(|x| self.int(&x)).transpose()?.unwrap_or(0);
                let hi = ri.next().map(|x| self.int(&x)).transpose()?;
                TypeExpr::Range { lo, hi, span }
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
            let parts: Vec<Pair<Rule>> = a.into_inner().collect();
            let int_at =
                |i: usize| -> R<i64> { parts.get(i).map(|x| self.int(x)).unwrap_or(Ok(0)) };
            alts.push(match rule {
                Rule::pat_or_more => Alternative::AtLeast(int_at(0)?, aspan),
                Rule::pat_or_less => Alternative::AtMost(int_at(0)?, aspan),
                Rule::pat_range => {
                    let (lo, hi) = (int_at(0)?, int_at(1)?);
                    if lo > hi {
                        // Never "write `1-2`": to a wargamer `2-1` may be an odds column,
                        // and `1-2` is another one.
                        return Err(Diag::at(
                            Code::ParseRange,
                            format!("the range {lo}-{hi} is reversed: its high end comes first, and it takes no number"),
                            aspan,
                            "reversed",
                        )
                        .help(super::ordered::reversed_range_help(lo, hi, None)));
                    }
                    Alternative::Range(lo, hi, aspan)
                }
                Rule::pat_name_range | Rule::pat_name_or_more | Rule::pat_name_or_less => {
                    self.build_name_alt(rule, parts, aspan)
                }
                Rule::pat_int => Alternative::Int(int_at(0)?, aspan),
                Rule::pat_bool => {
                    Alternative::Bool(parts.first().is_some_and(|b| b.as_str() == "true"), aspan)
                }
                Rule::pat_name => {
                    let mut it = parts.into_iter();
                    let first = it.next().map(|n| self.name(n));
                    match (first, it.next()) {
                        (Some(q), Some(n)) => Alternative::Name(Some(q), self.name(n)),
                        (Some(n), None) => Alternative::Name(None, n),
                        _ => unreachable!("empty pat_name"),
                    }
                }
                r => unreachable!("{r:?} in build_pattern"),
            });
        }
        Ok(Pattern::Alternatives(alts, span))
    }
}
