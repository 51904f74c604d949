//! House rules and editions: a ruleset file that `extends` another is read on top of
//! it — between parsing and checking. Its `override` definitions replace the base's of
//! the same name; `override table NAME { rows }` changes single cells (a row with the
//! same keys is replaced; any other comes first, so it decides for the keys it
//! matches — filling a cell the source left out counts); `override modifiers NAME {...}`
//! changes, adds or removes modifiers by label. Every other definition is new, and may
//! not take a name the base already uses.

use crate::diagnostic::Code;
use crate::diagnostic::{closest, Diag, Diags};
use crate::limits::Limits;
use crate::span::{SourceFile, SourceMap, Span, Spanned};
use crate::syntax::ast::{self, Item, ModifierChange};

mod patch;
mod uses;

/// Deepest chain of rulesets extending one another.
const MAX_EXTENDS: u32 = 8;

/// Parses the ruleset `source` (added to `sources`), reading the ruleset it extends, if
/// any, underneath it (added after it): the definitions of both, merged.
///
/// Errors: syntax errors in either file; a base that cannot be read; overriding
/// something the base does not have (with "did you mean"); a new definition taking a
/// name of the base without `override`; `override` without `extends`.
pub fn parse_tree(
    sources: &mut SourceMap,
    source: SourceFile,
    depth: u32,
    limits: &Limits,
) -> Result<ast::File, Diags> {
    parse_in(sources, source, depth, limits, &mut Vec::new())
}

/// [`parse_tree`], `chain` holding the files being read, each using or extending the
/// next (a file using one of them again is a circle).
fn parse_in(
    sources: &mut SourceMap,
    source: SourceFile,
    depth: u32,
    limits: &Limits,
    chain: &mut Vec<String>,
) -> Result<ast::File, Diags> {
    let name = source.name.clone();
    chain.push(name.clone());
    let (file, text) = sources.add(source);
    let mut house =
        crate::syntax::parse_file(file, &text).map_err(|d| Diags::from(d).with_sources(sources))?;
    let used = use_all(sources, &mut house, &name, depth, limits, chain)?;
    let mut merged = extend_base(sources, house, &name, depth, limits, chain)?;
    chain.pop();
    bring(sources, &mut merged, used)?;
    Ok(merged)
}

/// The rulesets `house` (the file `name`) uses, each read whole and renamed under its
/// alias; `house`'s names of their definitions checked.
fn use_all(
    sources: &mut SourceMap,
    house: &mut ast::File,
    name: &str,
    depth: u32,
    limits: &Limits,
    chain: &mut Vec<String>,
) -> Result<Vec<uses::Used>, Diags> {
    let wanted: Vec<(Spanned<String>, ast::Name)> = house
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Use { ruleset, alias } => Some((ruleset.clone(), alias.clone())),
            _ => None,
        })
        .collect();
    let fail = |d: Diag, sources: &SourceMap| Diags::from(d).with_sources(sources);
    let mut used: Vec<uses::Used> = Vec::new();
    for (ruleset, alias) in wanted {
        if let Some(first) = used.iter().find(|u| u.alias.node == alias.node) {
            let d = Diag::at(
                Code::UseAlias,
                format!("two rulesets are used as `{}`", alias.node),
                alias.span,
                "a second ruleset of this name",
            )
            .label(first.alias.span, "the first")
            .help("give each `use` a name of its own");
            return Err(fail(d, sources));
        }
        if depth >= MAX_EXTENDS {
            let d = Diag::at(
                Code::ExtendDepth,
                format!("rulesets use or extend one another more than {MAX_EXTENDS} deep"),
                ruleset.span,
                "one too many",
            );
            return Err(fail(d, sources));
        }
        let (label, text) =
            read_base(&ruleset, name, limits, "uses").map_err(|d| fail(d, sources))?;
        if let Some(at) = chain.iter().position(|c| *c == label) {
            let mut circle: Vec<&str> = chain[at..].iter().map(String::as_str).collect();
            circle.push(&label);
            let d = Diag::at(
                Code::UseCycle,
                format!(
                    "rulesets use one another in a circle: {}",
                    circle.join(" → ")
                ),
                ruleset.span,
                "uses a ruleset that is already being read",
            )
            .help("take the `use` out of one of them: a ruleset cannot be made of itself");
            return Err(fail(d, sources));
        }
        let tree = parse_in(
            sources,
            SourceFile::new(label, text),
            depth + 1,
            limits,
            chain,
        )?;
        used.push(uses::rename(tree, &alias, &ruleset.node));
    }
    if !used.is_empty() {
        let mut q = uses::Qualify::new(&used);
        for item in &mut house.items {
            q.item(item);
        }
        if !q.errors.is_empty() {
            return Err(Diags(q.errors).with_sources(sources));
        }
    }
    Ok(used)
}

/// The used rulesets' definitions put beside the ruleset's own, once no alias is a name
/// of the ruleset.
fn bring(sources: &SourceMap, file: &mut ast::File, used: Vec<uses::Used>) -> Result<(), Diags> {
    file.items.retain(|i| !matches!(i, Item::Use { .. }));
    let mut errors = Vec::new();
    for u in &used {
        let clash = file.items.iter().find_map(|i| match i {
            Item::State(st) => st
                .fields
                .iter()
                .find(|f| f.name.node == u.alias.node)
                .map(|f| ("a field of the state", f.name.span)),
            Item::Enum(e) => e
                .values
                .iter()
                .find(|v| v.name.node == u.alias.node)
                .map(|v| ("a value of an enum", v.name.span))
                .or((e.name.node == u.alias.node).then_some(("an enum", e.name.span))),
            Item::Interpretation(d) => {
                (d.name.node == u.alias.node).then_some(("an interpretation", d.name.span))
            }
            Item::List(d) => (d.name.node == u.alias.node).then_some(("a list", d.name.span)),
            other => named(other).and_then(|(k, n, span)| {
                (n == u.alias.node && k != "example").then_some((k, span))
            }),
        });
        if let Some((what, span)) = clash {
            errors.push(
                Diag::at(
                    Code::UseAlias,
                    format!(
                        "`{}` is both the name of a used ruleset and {what} of this ruleset",
                        u.alias.node
                    ),
                    u.alias.span,
                    "the used ruleset's name",
                )
                .label(span, "the same name")
                .help(format!(
                    "give the used ruleset another name: `use \"{}\" as {}_rules`",
                    u.ruleset, u.alias.node
                )),
            );
        }
    }
    if !errors.is_empty() {
        return Err(Diags(errors).with_sources(sources));
    }
    for u in used {
        file.items.extend(u.left_out());
        file.items.extend(u.items);
    }
    Ok(())
}

/// `house` (the file `name`) read on top of the ruleset it extends, if any.
fn extend_base(
    sources: &mut SourceMap,
    house: ast::File,
    name: &str,
    depth: u32,
    limits: &Limits,
    chain: &mut Vec<String>,
) -> Result<ast::File, Diags> {
    let extends: Vec<&Spanned<String>> = house
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Extends(s) => Some(s),
            _ => None,
        })
        .collect();
    let fail = |d: Diag, sources: &SourceMap| Diags::from(d).with_sources(sources);
    let Some(base_name) = extends.first().map(|s| (*s).clone()) else {
        // No base: `override` has nothing to change.
        if let Some(span) = house.items.iter().find_map(|i| match i {
            Item::Override(_, span) => Some(*span),
            Item::TablePatch { name, .. } | Item::ModifiersPatch { name, .. } => Some(name.span),
            Item::RecordPatch(r) => Some(r.name.span),
            _ => None,
        }) {
            return Err(fail(
                Diag::at(
                    Code::ExtendNoBase,
                    "`override` changes the ruleset this file extends, and it extends none",
                    span,
                    "nothing to override",
                )
                .help("name the base first: `extends \"furious_reason\"` (a bundled ruleset) or `extends \"base.rules\"` (a file beside this one)"),
                sources,
            ));
        }
        return Ok(house);
    };
    if let Some(second) = extends.get(1) {
        return Err(fail(
            Diag::at(
                Code::ExtendTwice,
                "a ruleset extends one other ruleset",
                second.span,
                "a second `extends`",
            )
            .label(base_name.span, "the first")
            .help(format!(
                "keep one `extends`; for the rules of the other, write `use \"{}\" as {}` and call them as `{}.NAME(...)`",
                second.node,
                alias_for(&second.node),
                alias_for(&second.node)
            )),
            sources,
        ));
    }
    if depth >= MAX_EXTENDS {
        return Err(fail(
            Diag::at(
                Code::ExtendDepth,
                format!("rulesets extend one another more than {MAX_EXTENDS} deep (does one extend itself?)"),
                base_name.span,
                "one too many",
            ),
            sources,
        ));
    }
    let (label, text) =
        read_base(&base_name, name, limits, "extends").map_err(|d| fail(d, sources))?;
    let base = parse_in(
        sources,
        SourceFile::new(label, text),
        depth + 1,
        limits,
        chain,
    )?;
    let (merged, trimmed) = merge(sources, base, house, name)?;
    // The base's rows as the house rule trimmed them, for explanations to quote.
    if let Some(t) = trimmed {
        sources.add(t);
    }
    Ok(merged)
}

/// A short alias for a ruleset named `name` (a bundled name or a path), for help text:
/// the initials of its file name's words (`kriegspiel` → `ks`, `little_wars` → `lw`).
fn alias_for(name: &str) -> String {
    let stem = std::path::Path::new(name)
        .file_stem()
        .map_or(name.to_string(), |s| s.to_string_lossy().into_owned());
    let words: Vec<&str> = stem
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let letters: Vec<char> = match words.as_slice() {
        // One word: its first letter and its middle one (`kriegspiel` → `ks`).
        [one] => {
            let cs: Vec<char> = one.chars().collect();
            vec![cs[0], cs[cs.len() / 2]]
        }
        many => many.iter().filter_map(|w| w.chars().next()).collect(),
    };
    let a: String = letters
        .into_iter()
        .filter(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    if a.is_empty() {
        "other".to_string()
    } else {
        a
    }
}

/// The text of the ruleset `base_name` that the file `name` extends, and the name it is
/// shown by: a bundled ruleset, or a file beside the extending one.
fn read_base(
    base_name: &Spanned<String>,
    name: &str,
    limits: &Limits,
    verb: &str,
) -> Result<(String, String), Diag> {
    // The base: a bundled name, or a path beside the extending file.
    let base_text_name = &base_name.node;
    match crate::bundled::source(base_text_name) {
        Some(t) => {
            let label = format!("bundled:{base_text_name}");
            // A bundled base is held to the file-size limit as a bundled ruleset is.
            if t.len() as u64 > limits.file_bytes {
                return Err(crate::files::too_big(&label, limits.file_bytes)
                    .label(base_name.span, "larger than the limit"));
            }
            Ok((label, t.to_string()))
        }
        _ => {
            let dir = std::path::Path::new(name.strip_prefix("bundled:").unwrap_or(name))
                .parent()
                .filter(|d| !d.as_os_str().is_empty() && !name.starts_with("bundled:"));
            let path = match dir {
                Some(d) => d.join(base_text_name),
                None => std::path::PathBuf::from(base_text_name),
            };
            let shown = path.to_string_lossy().into_owned();
            match crate::files::read_file(&shown, limits) {
                Ok(t) => Ok((shown, t)),
                Err(ds) => {
                    // What the path is, when it is there but no file (as `read_file` says).
                    let label = match std::fs::metadata(&path) {
                        Ok(m) if !m.is_file() => {
                            format!("is {}, not a file", crate::files::kind_of(&m))
                        }
                        Ok(_) => "cannot be read".to_string(),
                        Err(_) => "not found".to_string(),
                    };
                    let d = Diag::at(
                        Code::ExtendBase,
                        format!("cannot read the ruleset this file {verb}, `{base_text_name}`"),
                        base_name.span,
                        label,
                    );
                    // `extends "house"` for the file `house.rules` beside it.
                    let with_ext = path.with_extension("rules");
                    let help = if path.extension().is_none() && with_ext.is_file() {
                        format!(
                            "did you mean `{base_text_name}.rules`? a file is named with its \
                             `.rules` (`{}` is there)",
                            with_ext.to_string_lossy()
                        )
                    } else {
                        format!(
                            "{}; bundled rulesets: {}",
                            ds.0.first().map_or(String::new(), |d| d.message.clone()),
                            crate::bundled::names().join(", ")
                        )
                    };
                    Err(d.help(help))
                }
            }
        }
    }
}

/// A definition's kind and name, for matching an override with what it replaces.
fn named(item: &Item) -> Option<(&'static str, &str, Span)> {
    Some(match item {
        Item::Rule(d) => ("rule", &d.name.node, d.name.span),
        Item::Table(d) => ("table", &d.name.node, d.name.span),
        Item::Modifiers(d) => ("modifiers", &d.name.node, d.name.span),
        Item::Const(d) => ("const", &d.name.node, d.name.span),
        Item::Enum(d) => ("enum", &d.name.node, d.name.span),
        Item::Record(d) => ("record", &d.name.node, d.name.span),
        Item::Example(d) => ("example", &d.name.node, d.name.span),
        Item::State(d) => ("state", "state", d.name.span),
        _ => return None,
    })
}

/// Marks a definition replaced whole by a house rule: with no section of its own, its
/// explanations cite the house-rule file.
fn mark(item: Item, file: &str, span: Span) -> Item {
    let cite = |c: Option<Spanned<String>>| {
        c.or_else(|| Some(Spanned::new(format!("house rule, {file}"), span)))
    };
    match item {
        Item::Rule(mut d) => {
            d.cite = cite(d.cite.take());
            Item::Rule(d)
        }
        Item::Table(mut d) => {
            d.cite = cite(d.cite.take());
            Item::Table(d)
        }
        Item::Modifiers(mut d) => {
            d.cite = cite(d.cite.take());
            Item::Modifiers(d)
        }
        Item::Const(mut d) => {
            d.cite = cite(d.cite.take());
            Item::Const(d)
        }
        other => other,
    }
}

/// The base's definitions with the house file's laid over them.
///
/// With them, the text of the base's rows that house rows trimmed (`5` of `5,6`), a
/// source to add to `sources` next: the trimmed rows' spans point into it.
fn merge(
    sources: &SourceMap,
    base: ast::File,
    house: ast::File,
    house_name: &str,
) -> Result<(ast::File, Option<SourceFile>), Diags> {
    let next = crate::span::FileId(u32::try_from(sources.files().len()).unwrap_or(u32::MAX));
    let mut m = Merge {
        sources,
        house_name,
        items: base.items,
        errors: Vec::new(),
        overridden: Vec::new(),
        trimmed: patch::Trimmed::new(next),
    };
    for item in house.items {
        m.item(item);
    }
    if m.errors.is_empty() {
        let trimmed = (!m.trimmed.text.is_empty()).then(|| {
            SourceFile::new(
                format!("{}, as {house_name} trims it", m.trimmed.base),
                m.trimmed.text,
            )
        });
        Ok((ast::File { items: m.items }, trimmed))
    } else {
        Err(Diags(m.errors).with_sources(sources))
    }
}

/// A merge under way: the base's items, with the house file's laid over them one by one.
struct Merge<'a> {
    sources: &'a SourceMap,
    house_name: &'a str,
    items: Vec<Item>,
    errors: Vec<Diag>,
    /// What the house file overrode whole so far: kind, name, where.
    overridden: Vec<(&'static str, String, Span)>,
    /// The text of the base's rows trimmed by house rows.
    trimmed: patch::Trimmed,
}

impl Merge<'_> {
    /// Lays one item of the house file over the base.
    fn item(&mut self, item: Item) {
        // `override table NAME { rows }` is a patch, not a whole table.
        let item = match item {
            Item::Override(inner, _)
                if matches!(
                    *inner,
                    Item::TablePatch { .. } | Item::ModifiersPatch { .. } | Item::RecordPatch(_)
                ) =>
            {
                *inner
            }
            other => other,
        };
        match item {
            Item::Extends(_) => {}
            // The house file's title and die, where it gives them, are the ruleset's.
            Item::Ruleset { .. } | Item::Die { .. } => {
                let same = self
                    .items
                    .iter()
                    .position(|i| std::mem::discriminant(i) == std::mem::discriminant(&item));
                match same {
                    Some(i) => self.items[i] = item,
                    None => self.items.push(item),
                }
            }
            Item::Override(inner, span) => self.override_whole(*inner, span),
            Item::RecordPatch(r) => self.patch_record(r),
            Item::TablePatch {
                name,
                cite,
                rows,
                columns,
            } => self.patch_table(&name, cite, rows, columns),
            // (A modifier a house rule adds or changes says so by its label.)
            Item::ModifiersPatch {
                name,
                cite: _,
                changes,
            } => self.patch_modifiers(&name, changes),
            other => self.add(other),
        }
    }

    /// `override KIND NAME ...`: the base's definition of that kind and name replaced.
    fn override_whole(&mut self, inner: Item, span: Span) {
        let Some((kind, name, name_span)) = named(&inner) else {
            self.errors.push(Diag::at(
                Code::ExtendOverride,
                "only a rule, table, modifier list, constant, enum, record or example can be overridden",
                span,
                "not overridable",
            ));
            return;
        };
        let name = name.to_string();
        if let Some((_, _, first)) = self
            .overridden
            .iter()
            .find(|(k, n, _)| *k == kind && *n == name)
        {
            self.errors.push(
                Diag::at(
                    Code::ExtendTwice,
                    format!("{kind} `{name}` is overridden twice in this file"),
                    name_span,
                    "again",
                )
                .label(*first, "first here"),
            );
            return;
        }
        self.overridden.push((kind, name.clone(), name_span));
        match self
            .items
            .iter()
            .position(|i| named(i).is_some_and(|(k, n, _)| k == kind && n == name))
        {
            Some(i) => self.items[i] = mark(inner, self.house_name, span),
            None => {
                let d = self.missing(kind, &name, name_span);
                self.errors.push(d);
            }
        }
    }

    /// `override table NAME { rows }`: the house rows come first, in their order (the
    /// first row that matches decides, as in any table); a base row with the same keys
    /// is dropped.
    fn patch_table(
        &mut self,
        name: &ast::Name,
        cite: Option<Spanned<String>>,
        rows: Vec<ast::Row>,
        columns: Vec<ast::ColumnPatch>,
    ) {
        let sources = self.sources;
        let Some(Item::Table(t)) = self
            .items
            .iter_mut()
            .find(|i| matches!(i, Item::Table(t) if t.name.node == name.node))
        else {
            let d = self.missing("table", &name.node, name.span);
            self.errors.push(d);
            return;
        };
        let rows = match patch::with_columns(&t.keys, rows, columns) {
            Ok(rows) => rows,
            Err(d) => {
                self.errors.push(d);
                return;
            }
        };
        let mut seen: Vec<(Vec<String>, Span)> = Vec::new();
        let mut front = 0;
        for mut row in rows {
            row.cite = Some(cite.clone().unwrap_or_else(|| {
                Spanned::new(format!("house rule, {}", self.house_name), name.span)
            }));
            let keys: Vec<String> = row
                .patterns
                .iter()
                .map(|p| patch::text(sources, p))
                .collect();
            if let Some((_, first)) = seen.iter().find(|(k, _)| *k == keys) {
                self.errors.push(
                    Diag::at(
                        Code::ExtendTwice,
                        "this house rule gives a row for the same keys twice",
                        row.span,
                        "again",
                    )
                    .label(*first, "first here"),
                );
                continue;
            }
            seen.push((keys.clone(), row.span));
            // The base's rows keep the numbers no house row covers.
            let mut base = t.rows.split_off(front);
            let int_keys: Vec<bool> = t
                .keys
                .iter()
                .map(|p| match &p.ty {
                    ast::TypeExpr::Range { .. } => true,
                    ast::TypeExpr::Named(n) => n.node == "Int",
                    _ => false,
                })
                .collect();
            patch::trim(sources, &mut base, &row, &int_keys, &mut self.trimmed);
            t.rows.push(row);
            t.rows.append(&mut base);
            front += 1;
        }
    }

    /// `override record NAME { add ... }`: fields added at the end of the base's record.
    fn patch_record(&mut self, patch: ast::RecordDef) {
        let Some(Item::Record(r)) = self
            .items
            .iter_mut()
            .find(|i| matches!(i, Item::Record(r) if r.name.node == patch.name.node))
        else {
            let d = self.missing("record", &patch.name.node, patch.name.span);
            self.errors.push(d);
            return;
        };
        let base_len = r.fields.len();
        for f in patch.fields {
            let found = r.fields.iter().position(|x| x.name.node == f.name.node);
            if let Some(old) = found
                .filter(|i| *i >= base_len)
                .and_then(|i| r.fields.get(i))
            {
                self.errors.push(
                    Diag::at(
                        Code::ExtendShadow,
                        format!(
                            "`{}` is added to `{}` twice in this patch",
                            f.name.node, r.name.node
                        ),
                        f.name.span,
                        "added again",
                    )
                    .label(old.name.span, "first added here")
                    .help(format!("keep one `add {}`", f.name.node)),
                );
                continue;
            }
            if let Some(old) = found.and_then(|i| r.fields.get(i)) {
                self.errors.push(
                    Diag::at(
                        Code::ExtendShadow,
                        format!("`{}` already has a field `{}`", r.name.node, f.name.node),
                        f.name.span,
                        "already in the base",
                    )
                    .label(old.name.span, "the base's field")
                    .help(format!(
                        "`add` gives a new field; to change this one, write the whole record: `override record {} {{ ... }}`",
                        r.name.node
                    )),
                );
                continue;
            }
            r.fields.push(f);
        }
    }

    /// `override modifiers NAME { ... }`: modifiers changed, added or removed by label.
    fn patch_modifiers(&mut self, name: &ast::Name, changes: Vec<ModifierChange>) {
        let Some(Item::Modifiers(m)) = self
            .items
            .iter_mut()
            .find(|i| matches!(i, Item::Modifiers(m) if m.name.node == name.node))
        else {
            let d = self.missing("modifiers", &name.node, name.span);
            self.errors.push(d);
            return;
        };
        let mut labels_seen: Vec<(String, Span)> = Vec::new();
        for change in changes {
            let label = match &change {
                ModifierChange::Set(md) => &md.label,
                ModifierChange::Remove(l) => l,
            };
            if let Some((_, first)) = labels_seen.iter().find(|(l, _)| *l == label.node) {
                self.errors.push(
                    Diag::at(
                        Code::ExtendTwice,
                        format!(
                            "this house rule changes the modifier \"{}\" twice",
                            label.node
                        ),
                        label.span,
                        "again",
                    )
                    .label(*first, "first here"),
                );
                continue;
            }
            labels_seen.push((label.node.clone(), label.span));
            if let Err(d) = change_modifier(m, change) {
                self.errors.push(d);
            }
        }
    }

    /// A new definition: its name must not be the base's.
    fn add(&mut self, item: Item) {
        if let Some((kind, name, span)) = named(&item) {
            let taken = self.items.iter().filter_map(named).find(|(k, n, _)| {
                *n == name && (*k == kind || (kind != "example" && *k != "example"))
            });
            if let Some((k, _, _)) = taken {
                self.errors.push(
                    Diag::at(
                        Code::ExtendShadow,
                        format!("the base ruleset already has a {k} `{name}`"),
                        span,
                        "already in the base",
                    )
                    .help(format!("to replace it, write `override {k} ...`; to add a new one, give it another name")),
                );
                return;
            }
        }
        self.items.push(item);
    }

    /// The error for overriding a `kind` named `name` the base does not have.
    fn missing(&self, kind: &str, name: &str, span: Span) -> Diag {
        let names: Vec<String> = self
            .items
            .iter()
            .filter_map(named)
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, n, _)| n.to_string())
            .collect();
        let mut d = Diag::at(
            Code::ExtendUnknown,
            format!("the base ruleset has no {kind} `{name}` to override"),
            span,
            "not in the base",
        );
        // A definition of another bundled ruleset is used, not overridden.
        let elsewhere = crate::bundled::names().iter().copied().find(|b| {
            crate::bundled::source(b)
                .is_some_and(|t| t.lines().any(|l| l.starts_with(&format!("{kind} {name}("))))
        });
        if let Some(other) = elsewhere {
            let alias = alias_for(other);
            d = d.help(format!(
                "`{name}` is a {kind} of the bundled ruleset `{other}`: to play it beside this base, write `use \"{other}\" as {alias}` and call `{alias}.{name}(...)`"
            ));
        } else if let Some(best) = closest(name, names.iter().map(String::as_str)) {
            d = d.help(format!("did you mean `{best}`?"));
        } else if !names.is_empty() {
            d = d.help(format!("its {kind}s: {}", names.join(", ")));
        }
        d
    }
}

/// A modifier's label as it is compared for slips: its letters and digits, in small letters.
fn label_key(label: &str) -> String {
    label
        .chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// One change of a modifier list: a modifier set (replaced, or added at the end) or
/// removed by its label.
fn change_modifier(m: &mut ast::ModifiersDef, change: ModifierChange) -> Result<(), Diag> {
    match change {
        ModifierChange::Set(md) => {
            match m
                .modifiers
                .iter()
                .position(|x| x.label.node == md.label.node)
            {
                Some(i) => m.modifiers[i] = *md,
                None => {
                    // "militia class" beside the base's "Militia Class" is a typing slip,
                    // never a second modifier adding to the first.
                    let key = label_key(&md.label.node);
                    if let Some(base) = m.modifiers.iter().find(|x| label_key(&x.label.node) == key)
                    {
                        return Err(Diag::at(
                            Code::ExtendSimilarLabel,
                            format!(
                                "`{}` has the modifier \"{}\"; \"{}\" differs from it only in capitals, spaces or punctuation",
                                m.name.node, base.label.node, md.label.node
                            ),
                            md.label.span,
                            "not the base's label",
                        )
                        .label(base.label.span, "the base's modifier")
                        .help(format!(
                            "did you mean \"{}\"? Write the label as the base does to change that modifier; a new modifier needs a label of its own",
                            base.label.node
                        )));
                    }
                    m.modifiers.push(*md)
                }
            }
        }
        ModifierChange::Remove(label) => {
            let Some(i) = m.modifiers.iter().position(|x| x.label.node == label.node) else {
                let labels: Vec<&str> = m.modifiers.iter().map(|x| x.label.node.as_str()).collect();
                let mut d = Diag::at(
                    Code::ExtendUnknown,
                    format!(
                        "`{}` has no modifier \"{}\" to remove",
                        m.name.node, label.node
                    ),
                    label.span,
                    "not in the list",
                );
                if let Some(best) = closest(&label.node, labels.iter().copied()) {
                    d = d.help(format!("did you mean \"{best}\"?"));
                }
                return Err(d);
            };
            m.modifiers.remove(i);
        }
    }
    Ok(())
}
