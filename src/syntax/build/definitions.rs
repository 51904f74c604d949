//! Definitions: `rule`, `table`, `modifiers`, `const`, `enum`, `record`, `state`,
//! `example`, house-rule overrides.

use super::*;
use crate::diagnostic::Code;

impl Builder {
    pub(crate) fn build_definition(&self, p: Pair<Rule>) -> R<Item> {
        let span = self.span(&p);
        let rule = p.as_rule();
        let mut inner = p.into_inner().peekable();
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
            Rule::interpretation_def => self.build_interpretation(span, inner),
            Rule::use_decl => {
                let mut next = || inner.next().ok_or_else(|| incomplete(span));
                let _use_kw = next()?;
                let ruleset = self.string(next()?);
                let _as_kw = next()?;
                let alias = self.name(next()?);
                Ok(Item::Use { ruleset, alias })
            }
            Rule::record_patch => {
                let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
                Ok(Item::RecordPatch(self.build_fields(name, inner)?))
            }
            Rule::list_def => self.build_list(span, inner),
            Rule::extends_decl | Rule::override_def | Rule::table_patch | Rule::modifiers_patch => {
                self.build_house(span, rule, inner)
            }
            r => unreachable!("{r:?} in build_definition"),
        }
    }

    pub(super) fn build_ruleset(
        &self,
        span: Span,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let title = self.string(next()?);
        let cite = self.cite(next().ok());
        Ok(Item::Ruleset { title, cite })
    }

    pub(super) fn build_die(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let d = next()?;
        let (count, sides) = self.dice_parts(&d)?;
        if count != 1 {
            return Err(Diag::at(
                Code::ParseDie,
                "`die` names one die, like `die d6`",
                self.span(&d),
                "one die",
            ));
        }
        Ok(Item::Die {
            sides: Spanned::new(sides, self.span(&d)),
        })
    }

    pub(super) fn build_const(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
        let mut ty = None;
        let mut value = None;
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::type_expr => ty = Some(self.build_type(q)?),
                Rule::expr => value = Some(self.build_expr(q)?),
                r => unreachable!("{r:?} in build_const"),
            }
            Ok(())
        })?;
        let value = value
            .ok_or_else(|| Diag::at(Code::ParseSyntax, "constant without a value", span, "here"))?;
        Ok(Item::Const(ConstDef {
            name,
            ty,
            value,
            cite: c.cite,
        }))
    }

    pub(super) fn build_enum(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
        let mut values = Vec::new();
        let mut ordered = false;
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::ordered_kw => ordered = true,
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
            Ok(())
        })?;
        Ok(Item::Enum(EnumDef {
            name,
            cite: c.cite,
            values,
            ordered,
        }))
    }

    pub(super) fn build_record_def(
        &self,
        span: Span,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
        let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
        Ok(Item::Record(self.build_fields(name, inner)?))
    }

    /// `state { ... }`: a record named `state`, spanned at the keyword.
    pub(super) fn build_state(&self, span: Span, inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
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
    pub(super) fn build_fields(
        &self,
        name: Name,
        inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<RecordDef> {
        let mut fields = Vec::new();
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::field_decl => {
                    let mut fi = q.into_inner();
                    let (Some(fname), Some(fty)) = (fi.next(), fi.next()) else {
                        return Ok(());
                    };
                    let default = fi.next().map(|e| self.build_expr(e)).transpose()?;
                    fields.push(FieldDecl {
                        name: self.name(fname),
                        ty: self.build_type(fty)?,
                        default,
                    });
                }
                Rule::add_kw => {}
                r => unreachable!("{r:?} in build_fields"),
            }
            Ok(())
        })?;
        Ok(RecordDef {
            name,
            cite: c.cite,
            fields,
        })
    }

    pub(super) fn build_rule(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let name = self.name(next()?);
        let (params, extra) = self.build_params(next()?)?;
        no_keys(&extra, "a rule")?;
        let mut body = None;
        let mut recursive = false;
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::recursive_kw => recursive = true,
                Rule::block => body = Some(self.build_block(q)?),
                r => unreachable!("{r:?} in build_rule"),
            }
            Ok(())
        })?;
        let body =
            body.ok_or_else(|| Diag::at(Code::ParseSyntax, "rule without a body", span, "here"))?;
        Ok(Item::Rule(RuleDef {
            name,
            params,
            returns: c.returns,
            cite: c.cite,
            body,
            recursive,
        }))
    }

    pub(super) fn build_table(&self, span: Span, mut inner: Peekable<Pairs<'_, Rule>>) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let name = self.name(next()?);
        let (keys, extra) = self.build_params(next()?)?;
        let mut rows = Vec::new();
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::row => rows.push(self.build_row(q)?),
                Rule::column_block => rows.extend(self.build_column(q, &keys)?),
                Rule::grid_block => rows.extend(self.build_grid(q, &keys)?),
                r => unreachable!("{r:?} in build_table"),
            }
            Ok(())
        })?;
        Ok(Item::Table(TableDef {
            name,
            keys,
            extra,
            returns: c.returns,
            cite: c.cite,
            rows,
        }))
    }

    /// `column KEY PATTERN { rows }`: rows that give `KEY` as `PATTERN`.
    fn build_column(&self, q: Pair<Rule>, keys: &[Param]) -> R<Vec<Row>> {
        let mut ci = q.into_inner();
        let (Some(key), Some(pat)) = (ci.next(), ci.next()) else {
            return Ok(Vec::new());
        };
        let key = self.name(key);
        let written = pat.as_str().trim().to_string();
        let pat = self
            .build_pattern(pat)
            .map_err(|d| super::ordered::column_range_help(d, &written, &key.node))?;
        let Some(pos) = keys.iter().position(|k| k.name.node == key.node) else {
            return Err(Diag::at(
                Code::ParseColumn,
                format!("`{}` is not a key of this table", key.node),
                key.span,
                "not a key",
            )
            .suggest(&key.node, keys.iter().map(|k| k.name.node.as_str())));
        };
        let mut rows = Vec::new();
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
        Ok(rows)
    }

    /// `grid ROWKEY by COLUMNKEY { HEADER ROWS }`: the printed grid, one row
    /// `ROWPAT | COLPAT => cell` (keys in the table's order) for each of its cells.
    fn build_grid(&self, q: Pair<Rule>, keys: &[Param]) -> R<Vec<Row>> {
        let span = self.span(&q);
        let mut gi = q
            .into_inner()
            .filter(|p| !matches!(p.as_rule(), Rule::grid_kw | Rule::by_kw));
        let (Some(down), Some(across), Some(header)) = (gi.next(), gi.next(), gi.next()) else {
            return Err(incomplete(span));
        };
        let (down, across) = (self.name(down), self.name(across));
        let key_at = |name: &Name| -> R<usize> {
            keys.iter()
                .position(|k| k.name.node == name.node)
                .ok_or_else(|| {
                    Diag::at(
                        Code::ParseGrid,
                        format!("`{}` is not a key of this table", name.node),
                        name.span,
                        "not a key",
                    )
                    .suggest(&name.node, keys.iter().map(|k| k.name.node.as_str()))
                    .help(format!(
                        "`grid ROWKEY by COLUMNKEY`: two of the table's keys ({})",
                        keys.iter()
                            .map(|k| format!("`{}`", k.name.node))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })
        };
        let (d, a) = (key_at(&down)?, key_at(&across)?);
        if d == a || keys.len() != 2 {
            return Err(Diag::at(
                Code::ParseGrid,
                if d == a {
                    format!("a grid reads two keys, and `{}` is named twice", down.node)
                } else {
                    format!("a grid reads two keys, and this table has {}", keys.len())
                },
                span,
                "the grid",
            )
            .help("write `grid ROWKEY by COLUMNKEY { ... }` in a table of two keys (parameters that are not keys go after a `;`); for more keys, use rows or `column` blocks"));
        }
        // Each pattern with its words as written, for the explanation.
        let written = |p: &Pair<Rule>| p.as_str().split_whitespace().collect::<Vec<_>>().join(" ");
        let columns = header
            .into_inner()
            .map(|p| Ok((written(&p), self.build_pattern(p)?)))
            .collect::<R<Vec<_>>>()?;
        let mut rows = Vec::new();
        for r in gi {
            let row_span = self.span(&r);
            let mut ri = r.into_inner();
            let Some(pat) = ri.next() else { continue };
            let pat_text = written(&pat);
            let pat = self.build_pattern(pat)?;
            let cells = ri.map(|c| self.build_cell(c)).collect::<R<Vec<_>>>()?;
            if cells.len() != columns.len() {
                return Err(Diag::at(
                    Code::ParseGrid,
                    format!(
                        "this row of the grid has {} cell(s), and its header has {} column(s)",
                        cells.len(),
                        columns.len()
                    ),
                    row_span,
                    format!("{} cell(s)", cells.len()),
                )
                .help("give one cell per column, separated by `|` (`-` or `.` for a cell the chart leaves blank)"));
            }
            for ((col_text, col), cell) in columns.iter().zip(cells) {
                let mut patterns = vec![pat.clone(), col.clone()];
                if d > a {
                    patterns.reverse();
                }
                let label = format!("{} {pat_text}, {} {col_text}", down.node, across.node);
                rows.push(Row {
                    patterns,
                    span: cell.span,
                    cell,
                    column: None,
                    cite: None,
                    grid: Some(label),
                });
            }
        }
        Ok(rows)
    }

    /// `"Label" amount (per EXPR)? (if COND)?`
    pub(super) fn build_modifier(&self, q: Pair<Rule>) -> R<Option<Modifier>> {
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
    pub(super) fn build_house(
        &self,
        span: Span,
        rule: Rule,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
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
                let mut rows = Vec::new();
                let mut columns = Vec::new();
                let c = self.clauses(inner, |q| {
                    match q.as_rule() {
                        Rule::row => rows.push(self.build_row(q)?),
                        Rule::column_block => {
                            let mut ci = q.into_inner();
                            if let (Some(key), Some(pat)) = (ci.next(), ci.next()) {
                                let pattern = self.build_pattern(pat)?;
                                let mut crows = Vec::new();
                                for r in ci {
                                    let mut row = self.build_row(r)?;
                                    row.column = Some(pattern.span());
                                    crows.push(row);
                                }
                                columns.push(ColumnPatch {
                                    key: self.name(key),
                                    pattern,
                                    rows: crows,
                                    after: rows.len(),
                                });
                            }
                        }
                        r => unreachable!("{r:?} in table_patch"),
                    }
                    Ok(())
                })?;
                Ok(Item::TablePatch {
                    name,
                    cite: c.cite,
                    rows,
                    columns,
                })
            }
            Rule::modifiers_patch => {
                let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
                let mut changes = Vec::new();
                let c = self.clauses(inner, |q| {
                    match q.as_rule() {
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
                    Ok(())
                })?;
                Ok(Item::ModifiersPatch {
                    name,
                    cite: c.cite,
                    changes,
                })
            }
            r => unreachable!("{r:?} in build_house"),
        }
    }

    pub(super) fn build_modifiers(
        &self,
        span: Span,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let name = self.name(next()?);
        let (params, extra) = self.build_params(next()?)?;
        no_keys(&extra, "a modifier list")?;
        let mut modifiers = Vec::new();
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::modifier => modifiers.extend(self.build_modifier(q)?),
                r => unreachable!("{r:?} in build_modifiers"),
            }
            Ok(())
        })?;
        Ok(Item::Modifiers(ModifiersDef {
            name,
            params,
            cite: c.cite,
            modifiers,
        }))
    }

    pub(super) fn build_example(
        &self,
        span: Span,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
        let mut next = || inner.next().ok_or_else(|| incomplete(span));
        let name = self.string(next()?);
        let mut ex = ExampleDef {
            name,
            rolls: Vec::new(),
            named_rolls: Vec::new(),
            seed: None,
            checks: Vec::new(),
            readings: Vec::new(),
            lets: Vec::new(),
        };
        for q in inner {
            match q.as_rule() {
                Rule::given_rolls => {
                    for r in q.into_inner() {
                        if r.as_rule() == Rule::named_roll {
                            let span = self.span(&r);
                            let mut it = r.into_inner();
                            if let (Some(n), Some(f)) = (it.next(), it.next()) {
                                let face = Spanned::new(self.int(&f)?, span);
                                ex.named_rolls.push((self.name(n), face));
                            }
                        } else {
                            ex.rolls.push(Spanned::new(self.int(&r)?, self.span(&r)));
                        }
                    }
                }
                Rule::seed_stmt => {
                    if ex.seed.is_some() {
                        return Err(Diag::at(
                            Code::ParseExampleDice,
                            "a second `seed` in one example",
                            self.span(&q),
                            "seed given again",
                        ));
                    }
                    if let Some(n) = q.into_inner().next() {
                        ex.seed = Some(n.as_str().parse::<u64>().map_err(|_| {
                            Diag::at(
                                Code::ParseNumber,
                                "a seed is a whole number from 0 to 18446744073709551615",
                                self.span(&n),
                                "not a seed",
                            )
                        })?);
                    }
                }
                Rule::check => ex.checks.push(self.build_check(q)?),
                Rule::let_stmt => {
                    let span = self.span(&q);
                    if let Some(Stmt::Let(name, ty, value)) = self.build_let(q)? {
                        ex.lets.push(ExampleLet {
                            before: ex.checks.len(),
                            name,
                            ty,
                            value,
                            span,
                        });
                    }
                }
                Rule::interpret_stmt => {
                    let mut it = q.into_inner();
                    if let (Some(a), Some(b)) = (it.next(), it.next()) {
                        ex.readings.push((self.name(a), self.name(b)));
                    }
                }
                r => unreachable!("{r:?} in build_example"),
            }
        }
        Ok(Item::Example(ex))
    }

    pub(crate) fn build_check(&self, p: Pair<Rule>) -> R<Check> {
        let mut span = self.span(&p);
        let mut inner = p.into_inner();
        let e = inner
            .next()
            .ok_or_else(|| Diag::at(Code::ParseSyntax, "empty check", span, "here"))?;
        let expr = self.build_expr(e)?;
        let mut bad = None;
        let expect = inner.next().map(|t| {
            span = expr.span.to(self.span(&t));
            let Some(k) = t.into_inner().next() else {
                return Expectation::NotGiven;
            };
            if k.as_rule() == Rule::expect_bad {
                bad = Some(self.span(&k));
            }
            let rule = k.as_rule();
            let named = || {
                k.clone()
                    .into_inner()
                    .last()
                    .map(|n| n.as_str().to_string())
            };
            match rule {
                Rule::refused_kw => Expectation::Refused,
                Rule::missing_kw => Expectation::Missing(named().unwrap_or_default()),
                Rule::asked_instead_kw => Expectation::AskedInstead(named().unwrap_or_default()),
                _ => Expectation::NotGiven,
            }
        });
        if let Some(at) = bad {
            return Err(Diag::at(
                Code::ParseSyntax,
                "an example expects an error of the question as `is missing NAME` (the needed parameter left out) or `is asked instead RULE` (the rule or table its `instead` names)",
                at,
                "not one of these forms",
            )
            .help("e.g. `action_time(infantry, embark) is missing men`, `terrain_movement(marsh, infantry) is asked instead crossing_cost`"));
        }
        if expect.is_none() {
            span = expr.span;
        }
        Ok(Check { expr, expect, span })
    }

    /// `interpretation NAME "what is ambiguous" { reading NAME "words" default, ... }`
    pub(super) fn build_interpretation(
        &self,
        span: Span,
        mut inner: Peekable<Pairs<'_, Rule>>,
    ) -> R<Item> {
        let name = self.name(inner.next().ok_or_else(|| incomplete(span))?);
        let text = self.string(inner.next().ok_or_else(|| incomplete(span))?);
        let mut readings = Vec::new();
        let mut default = None;
        let c = self.clauses(inner, |q| {
            match q.as_rule() {
                Rule::reading_decl => {
                    let mut it = q.into_inner();
                    let (Some(n), Some(t)) = (it.next(), it.next()) else {
                        return Ok(());
                    };
                    let rname = self.name(n);
                    if it.next().is_some() {
                        if default.is_some() {
                            return Err(Diag::at(
                                Code::ParseDefault,
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
            Ok(())
        })?;
        Ok(Item::Interpretation(InterpretationDef {
            name,
            text,
            cite: c.cite,
            readings,
            default,
        }))
    }

    /// The clauses after a definition's head: `cite` and `returns` are taken here, and
    /// every other clause is handed to `other`.
    fn clauses<'i>(
        &self,
        inner: impl Iterator<Item = Pair<'i, Rule>>,
        mut other: impl FnMut(Pair<'i, Rule>) -> R<()>,
    ) -> R<Clauses> {
        let mut c = Clauses::default();
        for q in inner {
            match q.as_rule() {
                Rule::cite => c.cite = self.cite(Some(q)),
                Rule::returns => {
                    c.returns = q
                        .into_inner()
                        .next()
                        .map(|t| self.build_type(t))
                        .transpose()?
                }
                _ => other(q)?,
            }
        }
        Ok(c)
    }
}

/// What every kind of definition may say after its head.
#[derive(Default)]
struct Clauses {
    /// `cite "..."`: the rulebook section.
    cite: Option<Spanned<String>>,
    /// `-> Type`.
    returns: Option<TypeExpr>,
}
