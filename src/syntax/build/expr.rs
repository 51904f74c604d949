//! Blocks, statements and expressions: the Pratt climb over operators, and one
//! function per kind of primary.

use super::*;
use crate::diagnostic::Code;

impl Builder {
    /// `let NAME (: TYPE)? = EXPR`, as a statement (none if the parse left a part out).
    pub(crate) fn build_let(&self, it: Pair<Rule>) -> R<Option<Stmt>> {
        let mut li = it.into_inner();
        let Some(n) = li.next() else { return Ok(None) };
        let name = self.name(n);
        let mut ty = None;
        let mut value = None;
        for q in li {
            match q.as_rule() {
                Rule::type_expr => ty = Some(self.build_type(q)?),
                Rule::expr => value = Some(self.build_expr(q)?),
                r => unreachable!("{r:?} in build_let"),
            }
        }
        Ok(value.map(|v| Stmt::Let(name, ty, v)))
    }

    pub(super) fn build_block(&self, p: Pair<Rule>) -> R<Block> {
        let span = self.span(&p);
        let b = self.deeper(self.span(&p), 1)?;
        let mut stmts = Vec::new();
        let mut items: Vec<Pair<Rule>> = p.into_inner().collect();
        if items.len() == 1 && items[0].as_rule() == Rule::record_fields {
            let rf = items.remove(0);
            let rspan = self.span(&rf);
            let value = b.build_record(rf, rspan)?;
            return Ok(Block {
                stmts,
                value: Box::new(value),
                span,
            });
        }
        let last = items.pop();
        for it in items {
            match it.as_rule() {
                Rule::let_stmt => {
                    if let Some(st) = b.build_let(it)? {
                        stmts.push(st);
                    }
                }
                Rule::set_stmt => stmts.push(b.build_set(it)?),
                Rule::note_stmt => {
                    if let Some(s) = it.into_inner().next() {
                        stmts.push(Stmt::Note(self.string(s)));
                    }
                }
                Rule::expr => {
                    let e = b.build_expr(it)?;
                    if !matches!(e.kind, ExprKind::If(..)) {
                        return Err(Diag::at(
                            Code::ParseUnusedValue,
                            "this value is not used",
                            e.span,
                            "only the last line of a block gives its value",
                        )
                        .help("use `let name = ...` to keep a value, or make this the last line"));
                    }
                    stmts.push(Stmt::Guard(e));
                }
                r => unreachable!("{r:?} in build_block"),
            }
        }
        let value = match last {
            Some(l) if l.as_rule() == Rule::expr => b.build_expr(l)?,
            Some(l) => {
                return Err(Diag::at(
                    Code::ParseBlockValue,
                    "a block must end with the value it gives",
                    self.span(&l),
                    "this is not a value",
                )
                .help("add the value as the last line of the block"))
            }
            None => {
                return Err(Diag::at(
                    Code::ParseBlockValue,
                    "empty block",
                    span,
                    "a block must give a value",
                ))
            }
        };
        Ok(Block {
            stmts,
            value: Box::new(value),
            span,
        })
    }

    pub(super) fn build_record(&self, p: Pair<Rule>, span: Span) -> R<Expr> {
        let mut fields = Vec::new();
        for f in p.into_inner() {
            let mut fi = f.into_inner();
            let (Some(n), Some(e)) = (fi.next(), fi.next()) else {
                continue;
            };
            fields.push((self.name(n), self.build_expr(e)?));
        }
        Ok(Expr {
            kind: ExprKind::Record(fields),
            span,
        })
    }

    pub(super) fn dice_parts(&self, p: &Pair<Rule>) -> R<(u32, u32)> {
        let s = p.as_str();
        let at = s.find(['d', 'D']).unwrap_or(0);
        let count = if at == 0 {
            1
        } else {
            self.small(&s[..at], p, "dice count")?
        };
        let sides = self.small(&s[at + 1..], p, "number of sides")?;
        Ok((count, sides))
    }

    pub(super) fn small(&self, s: &str, p: &Pair<Rule>, what: &str) -> R<u32> {
        s.parse::<u32>().map_err(|_| {
            Diag::at(
                Code::LimitDice,
                format!("{what} too large"),
                self.span(p),
                "too large",
            )
        })
    }

    /// A number as written; `mark` is the unit that follows it (`"`, `'`, ` move`, or none).
    pub(super) fn number(&self, p: &Pair<Rule>, mark: &str) -> R<Rational> {
        use crate::value::written::{self, NumberError};
        let span = self.span(p);
        let bad = |what: &str| {
            Diag::at(
                Code::ParseNumber,
                format!("{what} is too large to hold exactly"),
                span,
                "too large",
            )
        };
        let s = p.as_str();
        written::number(s).map_err(|e| match e {
            NumberError::TooLarge => bad("this number"),
            NumberError::DecimalTooLarge => bad("this decimal"),
            NumberError::TooManyDigits => Diag::at(
                Code::ParseNumber,
                "this decimal has more digits than can be held exactly",
                span,
                "too many digits",
            )
            .help("write it as a fraction, like `1/3`"),
            NumberError::ZeroBelow => Diag::at(
                Code::EvalDivisionByZero,
                "a fraction with 0 below the line",
                span,
                "divides by zero",
            ),
            NumberError::NotMixed(value) => {
                let d = Diag::at(
                    Code::ParseUnreducedFraction,
                    format!(
                        "`{}` is not a mixed number the way a rulebook writes one",
                        s.trim()
                    ),
                    span,
                    "the fraction should be less than one, in lowest terms",
                );
                match value {
                    Some(v) => d.help(format!("write `{}{mark}`", crate::value::Mixed(v))),
                    None => d,
                }
            }
            // `24/20"` is a charge-rate pair in the rulebooks, not 1 1/5".
            NumberError::NotLowest {
                numer: n,
                denom: d,
                value: r,
            } => Diag::at(
                Code::ParseUnreducedFraction,
                format!("`{s}` is not in lowest terms"),
                span,
                "a rulebook cell of two values?",
            )
            .help(if mark.contains("move") {
                format!("write `{}{mark}`", crate::value::Mixed(r))
            } else {
                format!(
                    "write the pair `({n}{mark}, {d}{mark})` for two values, or `{}{mark}` for one",
                    crate::value::Mixed(r)
                )
            }),
        })
    }

    /// `set PATH = VALUE` (`+=`, `-=`).
    pub(crate) fn build_set(&self, p: Pair<Rule>) -> R<Stmt> {
        let span = self.span(&p);
        let mut si = p.into_inner().filter(|q| q.as_rule() != Rule::set_kw);
        let (Some(target), Some(op), Some(value)) = (si.next(), si.next(), si.next()) else {
            return Err(Diag::at(
                Code::ParseSyntax,
                "write `set PATH = VALUE`",
                span,
                "incomplete",
            ));
        };
        let op = match op.as_str() {
            "+=" => SetOp::Add,
            "-=" => SetOp::Sub,
            _ => SetOp::Assign,
        };
        Ok(Stmt::Set {
            target: self.build_expr(target)?,
            op,
            value: self.build_expr(value)?,
        })
    }

    pub(crate) fn build_expr(&self, p: Pair<Rule>) -> R<Expr> {
        crate::limits::deep(|| self.build_expr_inner(p))
    }

    pub(super) fn build_expr_inner(&self, p: Pair<Rule>) -> R<Expr> {
        let file = self.file;
        // A long run of prefix or postfix operators (`- - - - 1`, `a.b.c.d...`) recurses
        // in the Pratt parser, and a long chain of infix operators builds a tree as deep
        // as it is long: refuse them before they are built.
        let mut prefix_run = 0usize;
        let mut postfix_run = 0usize;
        let mut operators = 0usize;
        for q in p.clone().into_inner() {
            let rule = q.as_rule();
            let is_prefix = matches!(rule, Rule::op_neg | Rule::op_pos | Rule::op_not);
            let is_postfix = matches!(rule, Rule::field_access | Rule::member_access);
            prefix_run = if is_prefix { prefix_run + 1 } else { 0 };
            postfix_run = if is_postfix { postfix_run + 1 } else { 0 };
            if is_prefix || is_postfix || is_infix(rule) {
                operators += 1;
            }
            let limit_hit = if prefix_run > MAX_NESTING {
                Some(format!("more than {MAX_NESTING} prefix operators in a row"))
            } else if postfix_run > MAX_NESTING {
                Some(format!("more than {MAX_NESTING} field accesses in a row"))
            } else if operators > MAX_OPERATORS {
                Some(format!(
                    "more than {MAX_OPERATORS} operators in one expression"
                ))
            } else {
                None
            };
            if let Some(msg) = limit_hit {
                return Err(Diag::at(Code::LimitNesting, msg, self.span(&q), "too many")
                    .help("split the expression with `let` bindings or smaller rules"));
            }
        }
        let b = self.deeper(self.span(&p), operators + 1)?;
        let built = PRATT
            .map_primary(|q| b.build_primary(q))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = b.span(&op).to(rhs.span);
                let op = match op.as_rule() {
                    Rule::op_neg => UnOp::Neg,
                    Rule::op_pos => UnOp::Pos,
                    Rule::op_not => UnOp::Not,
                    r => unreachable!("{r:?} prefix"),
                };
                Ok(Expr {
                    kind: ExprKind::Unary(op, Box::new(rhs)),
                    span,
                })
            })
            .map_postfix(|lhs, op| {
                let lhs = lhs?;
                let span = lhs.span.to(b.span(&op));
                let rule = op.as_rule();
                if rule == Rule::membership {
                    return b.build_membership(lhs, op, span);
                }
                let Some(inner) = op.into_inner().next() else {
                    unreachable!("postfix without its part")
                };
                let kind = if rule == Rule::member_access {
                    ExprKind::Member(Box::new(lhs), Box::new(b.build_expr(inner)?))
                } else {
                    ExprKind::Field(Box::new(lhs), b.name(inner))
                };
                Ok(Expr { kind, span })
            })
            .map_infix(|lhs, op, rhs| {
                let (lhs, rhs) = (lhs?, rhs?);
                if op.as_rule() == Rule::op_div {
                    fraction_then_mixed(file, self.base, &op, &rhs)?;
                }
                let op = match op.as_rule() {
                    Rule::op_or => BinOp::Or,
                    Rule::op_and => BinOp::And,
                    Rule::op_eq => BinOp::Eq,
                    Rule::op_ne => BinOp::Ne,
                    Rule::op_lt => BinOp::Lt,
                    Rule::op_le => BinOp::Le,
                    Rule::op_gt => BinOp::Gt,
                    Rule::op_ge => BinOp::Ge,
                    Rule::op_add => BinOp::Add,
                    Rule::op_sub => BinOp::Sub,
                    Rule::op_mul => BinOp::Mul,
                    Rule::op_div => BinOp::Div,
                    Rule::op_rem => BinOp::Rem,
                    r => unreachable!("{r:?} infix"),
                };
                let span = lhs.span.to(rhs.span);
                Ok(Expr {
                    kind: ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)),
                    span,
                })
            })
            .parse(p.into_inner());
        built
    }

    pub(super) fn build_primary(&self, p: Pair<Rule>) -> R<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let kind = match rule {
            Rule::paren => return self.build_paren(p, span),
            Rule::record_lit => {
                let Some(f) = p.into_inner().next() else {
                    unreachable!("record")
                };
                return self.build_record(f, span);
            }
            Rule::length_lit => self.build_length(p, span)?,
            Rule::typed_record => {
                let mut it = p.into_inner();
                let Some(n) = it.next() else {
                    unreachable!("typed record")
                };
                let name = self.name(n);
                let fields = match it.next() {
                    Some(f) => match self.build_record(f, span)?.kind {
                        ExprKind::Record(fields) => fields,
                        _ => Vec::new(),
                    },
                    None => Vec::new(),
                };
                ExprKind::TypedRecord(name, fields)
            }
            Rule::minutes_lit => {
                let Some(n) = p.into_inner().next() else {
                    unreachable!("minutes")
                };
                ExprKind::Minutes(self.number(&n, " minute")?)
            }
            Rule::time_lit => {
                let Some(n) = p.into_inner().next() else {
                    unreachable!("time")
                };
                ExprKind::Time(self.number(&n, " move")?)
            }
            Rule::dice_lit => {
                let (count, sides) = self.dice_parts(&p)?;
                ExprKind::Dice {
                    count,
                    sides: Some(sides),
                }
            }
            Rule::default_dice_lit => {
                let Some(n) = p.into_inner().next() else {
                    unreachable!("dice")
                };
                let count = self.small(n.as_str(), &n, "dice count")?;
                ExprKind::Dice { count, sides: None }
            }
            Rule::mixed_lit | Rule::number_lit => {
                let Some(n) = p.into_inner().next() else {
                    unreachable!("number")
                };
                ExprKind::Number(self.number(&n, "")?)
            }
            Rule::bool_lit => ExprKind::Bool(p.as_str() == "true"),
            Rule::string => ExprKind::Text(self.string(p).node),
            Rule::ident | Rule::name_ref => ExprKind::Name(p.as_str().to_string()),
            Rule::call => self.build_call(p)?,
            Rule::if_expr => self.build_if(p)?,
            Rule::match_expr => self.build_match(p)?,
            Rule::reading_expr => self.build_reading(p)?,
            Rule::refuse_expr => {
                let mut it = p.into_inner();
                let reason = it.next().map(|s| self.string(s).node).unwrap_or_default();
                let cite = self.cite(it.next()).map(|c| c.node);
                ExprKind::Refuse { reason, cite }
            }
            Rule::instead_bad => {
                return Err(instead_form(span, "not a call"));
            }
            Rule::instead_expr => {
                let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::instead_kw);
                let call = it.next().ok_or_else(|| {
                    Diag::at(
                        Code::ParseSyntax,
                        "expected a call after `instead`",
                        span,
                        "here",
                    )
                })?;
                let call = Box::new(Expr {
                    span: self.span(&call),
                    kind: self.build_call(call)?,
                });
                let reason = match it.next() {
                    Some(s) if s.as_rule() == Rule::string => self.string(s).node,
                    _ => return Err(instead_form(span, "no reason in quotes after the call")),
                };
                ExprKind::Instead { call, reason }
            }
            Rule::not_given_expr => {
                let mut it = p.into_inner();
                let what = it.next().map(|s| self.string(s).node).unwrap_or_default();
                let cite = self.cite(it.next()).map(|c| c.node);
                ExprKind::NotGiven { what, cite }
            }
            r => unreachable!("{r:?} in build_primary"),
        };
        Ok(Expr { kind, span })
    }

    /// `(a)` (the carets cover the brackets) or the pair `(a, b)`.
    fn build_paren(&self, p: Pair<Rule>, span: Span) -> R<Expr> {
        let mut inner = p.into_inner();
        let Some(a) = inner.next() else {
            unreachable!("empty paren")
        };
        match inner.next() {
            None => {
                let mut e = self.build_expr(a)?;
                // Carets cover the brackets; a dice term keeps its own text
                // (`2d6`, not `(2d6)`) for the record of rolls.
                if !matches!(e.kind, ExprKind::Dice { .. }) {
                    e.span = span;
                }
                Ok(e)
            }
            Some(b) => {
                let kind =
                    ExprKind::Pair(Box::new(self.build_expr(a)?), Box::new(self.build_expr(b)?));
                Ok(Expr { kind, span })
            }
        }
    }

    /// `3"`, `2'`, `12' 6"` (the inches carried as a fraction of a foot).
    pub(super) fn build_length(&self, p: Pair<Rule>, span: Span) -> R<ExprKind> {
        let mut it = p.into_inner();
        let (Some(n), Some(m)) = (it.next(), it.next()) else {
            unreachable!("length")
        };
        let unit = if m.as_rule() == Rule::foot_mark {
            LengthUnit::Feet
        } else {
            LengthUnit::Inches
        };
        Ok(match (it.next(), unit) {
            // `12' 6"`: the inches are carried as a fraction of a foot.
            (Some(inches), LengthUnit::Feet) => {
                let inches_n = self.number(&inches, "\"")?;
                if inches_n >= Rational::from_integer(12) {
                    return Err(Diag::at(
                        Code::ParseFeetInches,
                        "the inches of a feet-and-inches length are less than 12",
                        span,
                        "12\" or more is a foot",
                    )
                    .help("carry the whole feet into the feet, e.g. `2' 1\"` for `1' 13\"`"));
                }
                // (Checked: the inches' denominator times 12 can overflow.)
                let extra =
                    num_traits::CheckedDiv::checked_div(&inches_n, &Rational::from_integer(12));
                let whole = self.number(&n, "'")?;
                let feet = extra
                    .and_then(|extra| whole.checked_add(&extra))
                    .ok_or_else(|| length_too_large(span))?;
                ExprKind::Length(feet, LengthUnit::Feet)
            }
            _ => ExprKind::Length(
                self.number(&n, if unit == LengthUnit::Feet { "'" } else { "\"" })?,
                unit,
            ),
        })
    }

    /// `name(arg, name: arg, ...)`.
    fn build_call(&self, p: Pair<Rule>) -> R<ExprKind> {
        let mut it = p.into_inner();
        let Some(head) = it.next() else {
            unreachable!("call")
        };
        // `ks.food_packets(...)`: the name of a used ruleset's rule, dot and all.
        let parts: Vec<Pair<Rule>> = head.into_inner().collect();
        let name = match parts.as_slice() {
            [n] => self.name(n.clone()),
            [a, .., b] => {
                let (sa, sb) = (self.span(a), self.span(b));
                let words: Vec<&str> = parts.iter().map(|p| p.as_str()).collect();
                Name::new(
                    words.join("."),
                    Span::new(sa.file, sa.start as usize, sb.end as usize),
                )
            }
            [] => unreachable!("call"),
        };
        let mut args = Vec::new();
        for a in it {
            let parts: Vec<Pair<Rule>> = a.into_inner().collect();
            let mut parts = parts.into_iter();
            let (aname, value) = match (parts.next(), parts.next()) {
                (Some(n), Some(v)) => (Some(self.name(n)), v),
                (Some(v), None) => (None, v),
                _ => unreachable!("arg"),
            };
            args.push(Arg {
                name: aname,
                value: self.build_expr(value)?,
            });
        }
        Ok(ExprKind::Call(name, args))
    }

    /// `if c { a } else if d { b } else { c }`.
    fn build_if(&self, p: Pair<Rule>) -> R<ExprKind> {
        let mut arms = Vec::new();
        let mut otherwise = None;
        let mut it = p.into_inner();
        if let (Some(c), Some(b)) = (it.next(), it.next()) {
            arms.push((self.build_expr(c)?, self.build_block(b)?));
        }
        for q in it {
            match q.as_rule() {
                Rule::else_if => {
                    let mut qi = q.into_inner();
                    if let (Some(c), Some(b)) = (qi.next(), qi.next()) {
                        arms.push((self.build_expr(c)?, self.build_block(b)?));
                    }
                }
                Rule::else_block => {
                    if let Some(b) = q.into_inner().next() {
                        otherwise = Some(self.build_block(b)?);
                    }
                }
                r => unreachable!("{r:?} in build_if"),
            }
        }
        Ok(ExprKind::If(arms, otherwise))
    }

    /// `match x { rows }`.
    fn build_match(&self, p: Pair<Rule>) -> R<ExprKind> {
        let mut it = p.into_inner();
        let Some(s) = it.next() else {
            unreachable!("match")
        };
        let scrutinee = self.build_expr(s)?;
        let rows = it.map(|r| self.build_row(r)).collect::<R<Vec<_>>>()?;
        Ok(ExprKind::Match(Box::new(scrutinee), rows))
    }

    /// `reading NAME { rows }`.
    fn build_reading(&self, p: Pair<Rule>) -> R<ExprKind> {
        let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::reading_kw);
        let Some(n) = it.next() else {
            unreachable!("reading")
        };
        let name = self.name(n);
        let rows = it.map(|r| self.build_row(r)).collect::<R<Vec<_>>>()?;
        Ok(ExprKind::Reading(name, rows))
    }
}

/// `1/1 2/3` or `1/2 1/2`: a fraction with a mixed number glued after its `/`. Read by the
/// grammar as 1 divided by 1 2/3 (3/5), it is no number a rulebook writes: an error.
/// (`base`: where the text the pairs were parsed from starts in the source.)
fn fraction_then_mixed(
    file: crate::span::FileId,
    base: usize,
    op: &Pair<Rule>,
    rhs: &Expr,
) -> R<()> {
    let input = op.get_input();
    let (slash, after) = (op.as_span().start(), op.as_span().end());
    // The right side's span in the text parsed (it is one in the source).
    let (rhs_start, rhs_end) = (
        (rhs.span.start as usize).saturating_sub(base),
        (rhs.span.end as usize).saturating_sub(base),
    );
    let Some(right) = input.get(after..rhs_end) else {
        return Ok(());
    };
    let glued = rhs_start == after;
    let mixed = right.starts_with(|c: char| c.is_ascii_digit()) && right.contains(' ');
    if !(glued && mixed && matches!(rhs.kind, ExprKind::Number(_))) {
        return Ok(());
    }
    let start = input[..slash]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_ascii_digit())
        .last()
        .map_or(slash, |(i, _)| i);
    let text = input.get(start..rhs_end).unwrap_or(right);
    let before = input.get(start..after).unwrap_or("/");
    let span = Span {
        file,
        start: u32::try_from(start + base).unwrap_or(rhs.span.start),
        end: rhs.span.end,
    };
    Err(Diag::at(
        Code::ParseMixedAfterSlash,
        format!("`{text}` is a fraction followed by a mixed number: not a number a rulebook writes"),
        span,
        "a fraction, then a mixed number",
    )
    .help(format!(
        "a mixed number is a whole number, a space and a fraction (`1 2/3`); to divide by the mixed number `{right}`, bracket it: `{}({right})`",
        before
    )))
}

/// A malformed `instead`: what to write.
fn instead_form(span: Span, label: &str) -> Diag {
    Diag::at(
        Code::ParseSyntax,
        "`instead` takes a call and the reason in quotes: instead crossing_cost(terrain, mover) \"...\"",
        span,
        label.to_string(),
    )
}
