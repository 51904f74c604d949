//! Pairs → AST: one `build_<rule>` function per grammar rule; every node gets its span.

use super::ast::*;
use super::parser::{is_infix, span_of, Rule, MAX_DEPTH, MAX_NESTING, MAX_OPERATORS, PRATT};
use crate::diagnostic::Diag;
use crate::span::{FileId, Span, Spanned};
use crate::value::Rational;
use num_traits::CheckedAdd;
use pest::iterators::{Pair, Pairs};
use std::iter::Peekable;

/// Only tables have keys: `;` in a rule's or modifier list's parameters is an error.
fn no_keys(extra: &[Param], what: &str) -> R<()> {
    match extra.first() {
        Some(p) => Err(Diag::at(
            "umpire::parse::params",
            format!("`;` separates table keys from other parameters; {what} has no keys"),
            p.name.span,
            "write `,` here",
        )),
        None => Ok(()),
    }
}

/// The error for a definition cut short.
fn incomplete(span: Span) -> Diag {
    Diag::at(
        "umpire::parse::syntax",
        "incomplete definition",
        span,
        "here",
    )
}

/// Builds AST nodes from pest pairs of one source.
pub(crate) struct Builder {
    file: FileId,
    depth: usize,
}

type R<T> = Result<T, Diag>;

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Builder {
    /// A builder for `file`, at nesting depth 0.
    pub(crate) fn new(file: FileId) -> Builder {
        Builder { file, depth: 0 }
    }

    fn span(&self, p: &Pair<Rule>) -> Span {
        span_of(self.file, p)
    }

    fn name(&self, p: Pair<Rule>) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    fn string(&self, p: Pair<Rule>) -> Spanned<String> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .map(|i| unescape(i.as_str()))
            .unwrap_or_default();
        Spanned::new(inner, span)
    }

    fn int(&self, p: &Pair<Rule>) -> R<i64> {
        p.as_str().trim().parse::<i64>().map_err(|_| {
            Diag::at(
                "umpire::parse::number",
                "number too large",
                self.span(p),
                "does not fit in 64 bits",
            )
        })
    }

    /// A builder one level down, where a level costs `cost` (an expression costs one
    /// more than its operators: a chain of them is a tree as deep as it is long). The sum
    /// along any path is at most [`MAX_DEPTH`], so checking and evaluating the tree stay
    /// within the stack.
    fn deeper(&self, span: Span, cost: usize) -> R<Builder> {
        let depth = self.depth + cost;
        if depth > MAX_DEPTH {
            return Err(Diag::at(
                "umpire::limit::nesting",
                format!("expression nested too deeply (more than {MAX_DEPTH} levels, counting each operator)"),
                span,
                "too deep",
            )
            .help("split it with `let` bindings or smaller rules"));
        }
        Ok(Builder {
            file: self.file,
            depth,
        })
    }

    fn cite(&self, p: Option<Pair<Rule>>) -> Option<Spanned<String>> {
        p.and_then(|c| c.into_inner().next())
            .map(|s| self.string(s))
    }

    pub(crate) fn build_definition(&self, p: Pair<Rule>) -> R<Item> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let inner = p.into_inner().peekable();
        match rule {
            Rule::ruleset_decl => self.build_ruleset(span, inner),
            Rule::die_decl => self.build_die(span, inner),
            Rule::const_def => self.build_const(span, inner),
            Rule::enum_def => self.build_enum(span, inner),
            Rule::record_def => self.build_record_def(span, inner),
            Rule::state_def => self.build_state(span, inner),
            Rule::rule_def => self.build_rule(span, inner),
            Rule::table_def => self.build_table(span, inner),
            Rule::modifiers_def => self.build_modifiers(span, inner),
            Rule::example_def => self.build_example(span, inner),
            Rule::interpretation_def => {
                let mut inner = inner;
                let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
                let text = self.string(inner.next().ok_or_else(|| incomplete(span))?);
                let mut cite = None;
                let mut readings = Vec::new();
                let mut default = None;
                for q in inner {
                    match q.as_rule() {
                        Rule::cite => cite = self.cite(Some(q)),
                        Rule::reading_decl => {
                            let mut it = q.into_inner();
                            let (Some(n), Some(t)) = (it.next(), it.next()) else {
                                continue;
                            };
                            let rname = self.name(n);
                            if it.next().is_some() {
                                if default.is_some() {
                                    return Err(Diag::at(
                                        "umpire::parse::default",
                                        "an interpretation has one default reading",
                                        rname.span,
                                        "a second default",
                                    ));
                                }
                                default = Some(rname.clone());
                            }
                            readings.push(EnumValueDef {
                                name: rname,
                                display: Some(self.string(t).node),
                                sentence: None,
                            });
                        }
                        r => unreachable!("{r:?} in interpretation"),
                    }
                }
                Ok(Item::Interpretation(InterpretationDef {
                    name,
                    text,
                    cite,
                    readings,
                    default,
                }))
            }
            Rule::extends_decl | Rule::override_def | Rule::table_patch | Rule::modifiers_patch => {
                self.build_house(span, rule, inner)
            }
            r => unreachable!("{r:?} in build_definition"),
        }
    }

    fn build_ruleset(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let title = self.string(next()?);
            let cite = self.cite(next().ok());
            Item::Ruleset { title, cite }
        })
    }

    fn build_die(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let d = next()?;
            let (count, sides) = self.dice_parts(&d)?;
            if count != 1 {
                return Err(Diag::at(
                    "umpire::parse::die",
                    "`die` names one die, like `die d6`",
                    self.span(&d),
                    "one die",
                ));
            }
            Item::Die {
                sides: Spanned::new(sides, self.span(&d)),
            }
        })
    }

    fn build_const(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.name(next()?);
            let mut ty = None;
            let mut value = None;
            let mut cite = None;
            for q in inner {
                match q.as_rule() {
                    Rule::type_expr => ty = Some(self.build_type(q)?),
                    Rule::expr => value = Some(self.build_expr(q)?),
                    Rule::cite => cite = self.cite(Some(q)),
                    r => unreachable!("{r:?} in build_const"),
                }
            }
            let value = value.ok_or_else(|| {
                Diag::at(
                    "umpire::parse::syntax",
                    "constant without a value",
                    span,
                    "here",
                )
            })?;
            Item::Const(ConstDef {
                name,
                ty,
                value,
                cite,
            })
        })
    }

    fn build_enum(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.name(next()?);
            let mut cite = None;
            let mut values = Vec::new();
            for q in inner {
                match q.as_rule() {
                    Rule::cite => cite = self.cite(Some(q)),
                    Rule::enum_value => {
                        let mut vi = q.into_inner();
                        let vname = vi.next().map(|n| self.name(n));
                        let display = vi.next().map(|s| self.string(s).node);
                        let sentence = vi.next().map(|s| self.string(s).node);
                        if let Some(vname) = vname {
                            values.push(EnumValueDef {
                                name: vname,
                                display,
                                sentence,
                            });
                        }
                    }
                    r => unreachable!("{r:?} in build_enum"),
                }
            }
            Item::Enum(EnumDef { name, cite, values })
        })
    }

    fn build_record_def(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
        Ok(Item::Record(self.build_fields(name, inner)?))
    }

    /// `state { ... }`: a record named `state`, spanned at the keyword.
    fn build_state(&self, span: Span, inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let at = Span {
            end: span.start + 5,
            ..span
        };
        Ok(Item::State(self.build_fields(
            Spanned::new("state".to_string(), at),
            inner,
        )?))
    }

    /// The citation and fields of a record or state declaration.
    fn build_fields(&self, name: Name, inner: Peekable<Pairs<'_, Rule>>) -> R<RecordDef> {
        let mut cite = None;
        let mut fields = Vec::new();
        for q in inner {
            match q.as_rule() {
                Rule::cite => cite = self.cite(Some(q)),
                Rule::field_decl => {
                    let mut fi = q.into_inner();
                    let (Some(fname), Some(fty)) = (fi.next(), fi.next()) else {
                        continue;
                    };
                    let default = fi.next().map(|e| self.build_expr(e)).transpose()?;
                    fields.push(FieldDecl {
                        name: self.name(fname),
                        ty: self.build_type(fty)?,
                        default,
                    });
                }
                r => unreachable!("{r:?} in build_fields"),
            }
        }
        Ok(RecordDef { name, cite, fields })
    }

    fn build_rule(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.name(next()?);
            let (params, extra) = self.build_params(next()?)?;
            no_keys(&extra, "a rule")?;
            let mut returns = None;
            let mut cite = None;
            let mut body = None;
            let mut recursive = false;
            for q in inner {
                match q.as_rule() {
                    Rule::recursive_kw => recursive = true,
                    Rule::returns => {
                        returns = q
                            .into_inner()
                            .next()
                            .map(|t| self.build_type(t))
                            .transpose()?
                    }
                    Rule::cite => cite = self.cite(Some(q)),
                    Rule::block => body = Some(self.build_block(q)?),
                    r => unreachable!("{r:?} in build_rule"),
                }
            }
            let body = body.ok_or_else(|| {
                Diag::at("umpire::parse::syntax", "rule without a body", span, "here")
            })?;
            Item::Rule(RuleDef {
                name,
                params,
                returns,
                cite,
                body,
                recursive,
            })
        })
    }

    fn build_table(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.name(next()?);
            let (keys, extra) = self.build_params(next()?)?;
            let mut returns = None;
            let mut cite = None;
            let mut rows = Vec::new();
            for q in inner {
                match q.as_rule() {
                    Rule::returns => {
                        returns = q
                            .into_inner()
                            .next()
                            .map(|t| self.build_type(t))
                            .transpose()?
                    }
                    Rule::cite => cite = self.cite(Some(q)),
                    Rule::row => rows.push(self.build_row(q)?),
                    Rule::column_block => {
                        let mut ci = q.into_inner();
                        let (Some(key), Some(pat)) = (ci.next(), ci.next()) else {
                            continue;
                        };
                        let key = self.name(key);
                        let pat = self.build_pattern(pat)?;
                        let Some(pos) = keys.iter().position(|k| k.name.node == key.node) else {
                            return Err(Diag::at(
                                "umpire::parse::column",
                                format!("`{}` is not a key of this table", key.node),
                                key.span,
                                "not a key",
                            )
                            .suggest(&key.node, keys.iter().map(|k| k.name.node.as_str())));
                        };
                        for r in ci {
                            let mut row = self.build_row(r)?;
                            // A lone `otherwise` in a column stands for every other key.
                            if keys.len() > 2
                                && row.patterns.len() == 1
                                && matches!(row.patterns[0], Pattern::Any(_))
                            {
                                row.patterns = vec![row.patterns[0].clone(); keys.len() - 1];
                            }
                            row.patterns
                                .insert(pos.min(row.patterns.len()), pat.clone());
                            row.column = Some(pat.span());
                            rows.push(row);
                        }
                    }
                    r => unreachable!("{r:?} in build_table"),
                }
            }
            Item::Table(TableDef {
                name,
                keys,
                extra,
                returns,
                cite,
                rows,
            })
        })
    }

    /// `"Label" amount (per EXPR)? (if COND)?`
    fn build_modifier(&self, q: Pair<Rule>) -> R<Option<Modifier>> {
        let mut mi = q.into_inner();
        let (Some(label), Some(amount)) = (mi.next(), mi.next()) else {
            return Ok(None);
        };
        let mut m = Modifier {
            label: self.string(label),
            amount: self.build_expr(amount)?,
            per: None,
            condition: None,
        };
        for c in mi {
            let rule = c.as_rule();
            let e = c
                .into_inner()
                .next()
                .map(|e| self.build_expr(e))
                .transpose()?;
            match rule {
                Rule::per_clause => m.per = e,
                Rule::if_clause => m.condition = e,
                r => unreachable!("{r:?} in build_modifier"),
            }
        }
        Ok(Some(m))
    }

    /// `override ...`, `extends "..."`, and the patches of a house rule.
    fn build_house(&self, span: Span, rule: Rule, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        match rule {
            Rule::extends_decl => {
                let s = inner.next().ok_or_else(|| incomplete(span))?;
                Ok(Item::Extends(self.string(s)))
            }
            Rule::override_def => {
                let def = inner.next().ok_or_else(|| incomplete(span))?;
                Ok(Item::Override(Box::new(self.build_definition(def)?), span))
            }
            Rule::table_patch => {
                let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
                let mut cite = None;
                let mut rows = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::cite => cite = self.cite(Some(q)),
                        Rule::row => rows.push(self.build_row(q)?),
                        r => unreachable!("{r:?} in table_patch"),
                    }
                }
                Ok(Item::TablePatch { name, cite, rows })
            }
            Rule::modifiers_patch => {
                let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
                let mut cite = None;
                let mut changes = Vec::new();
                for q in inner {
                    match q.as_rule() {
                        Rule::cite => cite = self.cite(Some(q)),
                        Rule::modifier => changes.extend(
                            self.build_modifier(q)?
                                .map(|m| ModifierChange::Set(Box::new(m))),
                        ),
                        Rule::remove_modifier => {
                            if let Some(l) = q.into_inner().next() {
                                changes.push(ModifierChange::Remove(self.string(l)));
                            }
                        }
                        r => unreachable!("{r:?} in modifiers_patch"),
                    }
                }
                Ok(Item::ModifiersPatch {
                    name,
                    cite,
                    changes,
                })
            }
            r => unreachable!("{r:?} in build_house"),
        }
    }

    fn build_modifiers(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.name(next()?);
            let (params, extra) = self.build_params(next()?)?;
            no_keys(&extra, "a modifier list")?;
            let mut cite = None;
            let mut modifiers = Vec::new();
            for q in inner {
                match q.as_rule() {
                    Rule::cite => cite = self.cite(Some(q)),
                    Rule::modifier => modifiers.extend(self.build_modifier(q)?),
                    r => unreachable!("{r:?} in build_modifiers"),
                }
            }
            Item::Modifiers(ModifiersDef {
                name,
                params,
                cite,
                modifiers,
            })
        })
    }

    fn build_example(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        Ok({
            let name = self.string(next()?);
            let mut ex = ExampleDef {
                name,
                rolls: Vec::new(),
                seed: None,
                checks: Vec::new(),
                readings: Vec::new(),
            };
            for q in inner {
                match q.as_rule() {
                    Rule::given_rolls => {
                        for r in q.into_inner() {
                            ex.rolls.push(Spanned::new(self.int(&r)?, self.span(&r)));
                        }
                    }
                    Rule::seed_stmt => {
                        if ex.seed.is_some() {
                            return Err(Diag::at(
                                "umpire::parse::example_dice",
                                "a second `seed` in one example",
                                self.span(&q),
                                "seed given again",
                            ));
                        }
                        if let Some(n) = q.into_inner().next() {
                            ex.seed = Some(n.as_str().parse::<u64>().map_err(|_| {
                                Diag::at(
                                    "umpire::parse::number",
                                    "a seed is a whole number from 0 to 18446744073709551615",
                                    self.span(&n),
                                    "not a seed",
                                )
                            })?);
                        }
                    }
                    Rule::check => ex.checks.push(self.build_check(q)?),
                    Rule::interpret_stmt => {
                        let mut it = q.into_inner();
                        if let (Some(a), Some(b)) = (it.next(), it.next()) {
                            ex.readings.push((self.name(a), self.name(b)));
                        }
                    }
                    r => unreachable!("{r:?} in build_example"),
                }
            }
            Item::Example(ex)
        })
    }

    pub(crate) fn build_check(&self, p: Pair<Rule>) -> R<Check> {
        let mut span = self.span(&p);
        let mut inner = p.into_inner();
        let e = inner
            .next()
            .ok_or_else(|| Diag::at("umpire::parse::syntax", "empty check", span, "here"))?;
        let expr = self.build_expr(e)?;
        let expect = inner.next().map(|t| {
            span = expr.span.to(self.span(&t));
            match t.into_inner().next().map(|k| k.as_rule()) {
                Some(Rule::refused_kw) => Expectation::Refused,
                _ => Expectation::NotGiven,
            }
        });
        if expect.is_none() {
            span = expr.span;
        }
        Ok(Check { expr, expect, span })
    }

    fn build_params(&self, p: Pair<Rule>) -> R<(Vec<Param>, Vec<Param>)> {
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

    fn build_type(&self, p: Pair<Rule>) -> R<TypeExpr> {
        let span = self.span(&p);
        let Some(inner) = p.into_inner().next() else {
            return Err(Diag::at(
                "umpire::parse::syntax",
                "expected a type",
                span,
                "here",
            ));
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
                        "umpire::parse::syntax",
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
                        "umpire::parse::syntax",
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

    fn build_row(&self, p: Pair<Rule>) -> R<Row> {
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

    fn build_cell(&self, p: Pair<Rule>) -> R<Expr> {
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

    fn build_pattern(&self, p: Pair<Rule>) -> R<Pattern> {
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
                        return Err(Diag::at(
                            "umpire::parse::range",
                            format!("the range {lo}-{hi} is empty"),
                            aspan,
                            "low end first",
                        )
                        .help(format!("write `{hi}-{lo}`")));
                    }
                    Alternative::Range(lo, hi, aspan)
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

    fn build_block(&self, p: Pair<Rule>) -> R<Block> {
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
                    let mut li = it.into_inner();
                    let Some(n) = li.next() else { continue };
                    let name = self.name(n);
                    let mut ty = None;
                    let mut value = None;
                    for q in li {
                        match q.as_rule() {
                            Rule::type_expr => ty = Some(b.build_type(q)?),
                            Rule::expr => value = Some(b.build_expr(q)?),
                            r => unreachable!("{r:?} in build_let"),
                        }
                    }
                    let Some(value) = value else { continue };
                    stmts.push(Stmt::Let(name, ty, value));
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
                            "umpire::parse::unused_value",
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
                    "umpire::parse::block_value",
                    "a block must end with the value it gives",
                    self.span(&l),
                    "this is not a value",
                )
                .help("add the value as the last line of the block"))
            }
            None => {
                return Err(Diag::at(
                    "umpire::parse::block_value",
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

    fn build_record(&self, p: Pair<Rule>, span: Span) -> R<Expr> {
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

    fn dice_parts(&self, p: &Pair<Rule>) -> R<(u32, u32)> {
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

    fn small(&self, s: &str, p: &Pair<Rule>, what: &str) -> R<u32> {
        s.parse::<u32>().map_err(|_| {
            Diag::at(
                "umpire::limit::dice",
                format!("{what} too large"),
                self.span(p),
                "too large",
            )
        })
    }

    /// A number as written; `mark` is the unit that follows it (`"`, `'`, ` move`, or none).
    fn number(&self, p: &Pair<Rule>, mark: &str) -> R<Rational> {
        use crate::value::written::{self, NumberError};
        let span = self.span(p);
        let bad = |what: &str| {
            Diag::at(
                "umpire::parse::number",
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
                "umpire::parse::number",
                "this decimal has more digits than can be held exactly",
                span,
                "too many digits",
            )
            .help("write it as a fraction, like `1/3`"),
            NumberError::ZeroBelow => Diag::at(
                "umpire::eval::division_by_zero",
                "a fraction with 0 below the line",
                span,
                "divides by zero",
            ),
            NumberError::NotMixed(value) => {
                let d = Diag::at(
                    "umpire::parse::unreduced_fraction",
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
                "umpire::parse::unreduced_fraction",
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
                "umpire::parse::syntax",
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

    fn build_expr_inner(&self, p: Pair<Rule>) -> R<Expr> {
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
                return Err(
                    Diag::at("umpire::limit::nesting", msg, self.span(&q), "too many")
                        .help("split the expression with `let` bindings or smaller rules"),
                );
            }
        }
        let b = self.deeper(self.span(&p), operators + 1)?;
        let built = PRATT
            .map_primary(|q| b.build_primary(q))
            .map_prefix(|op, rhs| {
                let rhs = rhs?;
                let span = span_of(file, &op).to(rhs.span);
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
                let span = lhs.span.to(span_of(file, &op));
                let rule = op.as_rule();
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

    fn build_primary(&self, p: Pair<Rule>) -> R<Expr> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let kind = match rule {
            Rule::paren => {
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
                        return Ok(e);
                    }
                    Some(b) => {
                        ExprKind::Pair(Box::new(self.build_expr(a)?), Box::new(self.build_expr(b)?))
                    }
                }
            }
            Rule::record_lit => {
                let Some(f) = p.into_inner().next() else {
                    unreachable!("record")
                };
                return self.build_record(f, span);
            }
            Rule::length_lit => {
                let mut it = p.into_inner();
                let (Some(n), Some(m)) = (it.next(), it.next()) else {
                    unreachable!("length")
                };
                let unit = if m.as_rule() == Rule::foot_mark {
                    LengthUnit::Feet
                } else {
                    LengthUnit::Inches
                };
                match (it.next(), unit) {
                    // `12' 6"`: the inches are carried as a fraction of a foot.
                    (Some(inches), LengthUnit::Feet) => {
                        let inches_n = self.number(&inches, "\"")?;
                        if inches_n >= Rational::from_integer(12) {
                            return Err(Diag::at(
                                "umpire::parse::feet_inches",
                                "the inches of a feet-and-inches length are less than 12",
                                span,
                                "12\" or more is a foot",
                            )
                            .help(
                                "carry the whole feet into the feet, e.g. `2' 1\"` for `1' 13\"`",
                            ));
                        }
                        let extra = inches_n / Rational::from_integer(12);
                        let feet = self.number(&n, "'")?.checked_add(&extra).ok_or_else(|| {
                            Diag::at(
                                "umpire::parse::number",
                                "this length is too large to hold exactly",
                                span,
                                "too large",
                            )
                        })?;
                        ExprKind::Length(feet, LengthUnit::Feet)
                    }
                    _ => ExprKind::Length(
                        self.number(&n, if unit == LengthUnit::Feet { "'" } else { "\"" })?,
                        unit,
                    ),
                }
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
            Rule::ident => ExprKind::Name(p.as_str().to_string()),
            Rule::call => {
                let mut it = p.into_inner();
                let Some(n) = it.next().and_then(|head| head.into_inner().next()) else {
                    unreachable!("call")
                };
                let name = self.name(n);
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
                ExprKind::Call(name, args)
            }
            Rule::if_expr => {
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
                ExprKind::If(arms, otherwise)
            }
            Rule::match_expr => {
                let mut it = p.into_inner();
                let Some(s) = it.next() else {
                    unreachable!("match")
                };
                let scrutinee = self.build_expr(s)?;
                let rows = it.map(|r| self.build_row(r)).collect::<R<Vec<_>>>()?;
                ExprKind::Match(Box::new(scrutinee), rows)
            }
            Rule::reading_expr => {
                let mut it = p.into_inner().filter(|q| q.as_rule() != Rule::reading_kw);
                let Some(n) = it.next() else {
                    unreachable!("reading")
                };
                let name = self.name(n);
                let rows = it.map(|r| self.build_row(r)).collect::<R<Vec<_>>>()?;
                ExprKind::Reading(name, rows)
            }
            Rule::refuse_expr => {
                let mut it = p.into_inner();
                let reason = it.next().map(|s| self.string(s).node).unwrap_or_default();
                let cite = self.cite(it.next()).map(|c| c.node);
                ExprKind::Refuse { reason, cite }
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
}
