//! House rules and editions: a ruleset file that `extends` another is read on top of
//! it — between parsing and checking. Its `override` definitions replace the base's of
//! the same name; `override table NAME { rows }` changes single cells (a row with the
//! same keys is replaced; any other comes first, so it decides for the keys it
//! matches — filling a cell the source left out counts); `override modifiers NAME {...}`
//! changes, adds or removes modifiers by label. Every other definition is new, and may
//! not take a name the base already uses.

use crate::diagnostic::{closest, Diag, Diags};
use crate::program::Program;
use crate::span::{FileId, SourceFile, Span, Spanned};
use crate::syntax::ast::{self, Item, ModifierChange};

/// Deepest chain of rulesets extending one another.
const MAX_EXTENDS: u32 = 8;

/// Parses the ruleset in `file` (named `name`), reading the ruleset it extends, if any,
/// underneath it: the definitions of both, merged.
///
/// Errors: syntax errors in either file; a base that cannot be read; overriding
/// something the base does not have (with "did you mean"); a new definition taking a
/// name of the base without `override`; `override` without `extends`.
pub fn parse_tree(
    program: &mut Program,
    file: FileId,
    name: &str,
    depth: u32,
) -> Result<ast::File, Diags> {
    let text = program
        .sources
        .get(file)
        .map(|f| f.text.clone())
        .unwrap_or_default();
    let house = crate::syntax::parse_file(file, &text)
        .map_err(|d| Diags::from(d).with_sources(&program.sources))?;
    let extends: Vec<&Spanned<String>> = house
        .items
        .iter()
        .filter_map(|i| match i {
            Item::Extends(s) => Some(s),
            _ => None,
        })
        .collect();
    let fail = |d: Diag, program: &Program| Diags::from(d).with_sources(&program.sources);
    let Some(base_name) = extends.first().map(|s| (*s).clone()) else {
        // No base: `override` has nothing to change.
        if let Some(span) = house.items.iter().find_map(|i| match i {
            Item::Override(_, span) => Some(*span),
            Item::TablePatch { name, .. } | Item::ModifiersPatch { name, .. } => Some(name.span),
            _ => None,
        }) {
            return Err(fail(
                Diag::at(
                    "umpire::extend::no_base",
                    "`override` changes the ruleset this file extends, and it extends none",
                    span,
                    "nothing to override",
                )
                .help("name the base first: `extends \"furious_reason\"` (a bundled ruleset) or `extends \"base.rules\"` (a file beside this one)"),
                program,
            ));
        }
        return Ok(house);
    };
    if let Some(second) = extends.get(1) {
        return Err(fail(
            Diag::at(
                "umpire::extend::twice",
                "a ruleset extends one other ruleset",
                second.span,
                "a second `extends`",
            )
            .label(base_name.span, "the first"),
            program,
        ));
    }
    if depth >= MAX_EXTENDS {
        return Err(fail(
            Diag::at(
                "umpire::extend::depth",
                format!("rulesets extend one another more than {MAX_EXTENDS} deep (does one extend itself?)"),
                base_name.span,
                "one too many",
            ),
            program,
        ));
    }
    // The base: a bundled name, or a path beside the extending file.
    let base_text_name = &base_name.node;
    let (label, text) = match crate::bundled::source(base_text_name) {
        Some(t) if !base_text_name.contains(['/', '\\', '.']) => {
            (format!("bundled:{base_text_name}"), t.to_string())
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
            match crate::read_file(&shown) {
                Ok(t) => (shown, t),
                Err(ds) => {
                    let d = Diag::at(
                        "umpire::extend::base",
                        format!("cannot read the ruleset this file extends, `{base_text_name}`"),
                        base_name.span,
                        "not found",
                    )
                    .help(format!(
                        "{}; bundled rulesets: {}",
                        ds.0.first().map_or(String::new(), |d| d.message.clone()),
                        crate::bundled::names().join(", ")
                    ));
                    return Err(fail(d, program));
                }
            }
        }
    };
    let base_file = program.sources.add(SourceFile::new(label.clone(), text));
    let base = parse_tree(program, base_file, &label, depth + 1)?;
    merge(program, base, house, name)
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

/// A pattern as written, spaces taken out, for matching a patch row with a base row.
fn pattern_text(program: &Program, p: &ast::Pattern) -> String {
    program
        .sources
        .snippet(p.span())
        .split_whitespace()
        .collect()
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
fn merge(
    program: &Program,
    base: ast::File,
    house: ast::File,
    house_name: &str,
) -> Result<ast::File, Diags> {
    let mut items = base.items;
    let mut errors: Vec<Diag> = Vec::new();
    let mut overridden: Vec<(&'static str, String, Span)> = Vec::new();
    let names_of = |items: &[Item], kind: &str| -> Vec<String> {
        items
            .iter()
            .filter_map(named)
            .filter(|(k, _, _)| *k == kind)
            .map(|(_, n, _)| n.to_string())
            .collect()
    };
    let missing = |kind: &str, name: &str, span: Span, items: &[Item]| {
        let names = names_of(items, kind);
        let mut d = Diag::at(
            "umpire::extend::unknown",
            format!("the base ruleset has no {kind} `{name}` to override"),
            span,
            "not in the base",
        );
        if let Some(best) = closest(name, names.iter().map(String::as_str)) {
            d = d.help(format!("did you mean `{best}`?"));
        } else if !names.is_empty() {
            d = d.help(format!("its {kind}s: {}", names.join(", ")));
        }
        d
    };
    for item in house.items {
        // `override table NAME { rows }` is a patch, not a whole table.
        let item = match item {
            Item::Override(inner, _)
                if matches!(
                    *inner,
                    Item::TablePatch { .. } | Item::ModifiersPatch { .. }
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
                let same = items
                    .iter()
                    .position(|i| std::mem::discriminant(i) == std::mem::discriminant(&item));
                match same {
                    Some(i) => items[i] = item,
                    None => items.push(item),
                }
            }
            Item::Override(inner, span) => {
                let Some((kind, name, name_span)) = named(&inner) else {
                    errors.push(Diag::at(
                        "umpire::extend::override",
                        "only a rule, table, modifier list, constant, enum, record or example can be overridden",
                        span,
                        "not overridable",
                    ));
                    continue;
                };
                let name = name.to_string();
                if let Some((_, _, first)) =
                    overridden.iter().find(|(k, n, _)| *k == kind && *n == name)
                {
                    errors.push(
                        Diag::at(
                            "umpire::extend::twice",
                            format!("{kind} `{name}` is overridden twice in this file"),
                            name_span,
                            "again",
                        )
                        .label(*first, "first here"),
                    );
                    continue;
                }
                overridden.push((kind, name.clone(), name_span));
                match items
                    .iter()
                    .position(|i| named(i).is_some_and(|(k, n, _)| k == kind && n == name))
                {
                    Some(i) => items[i] = mark(*inner, house_name, span),
                    None => errors.push(missing(kind, &name, name_span, &items)),
                }
            }
            Item::TablePatch { name, cite, rows } => {
                let Some(Item::Table(t)) = items
                    .iter_mut()
                    .find(|i| matches!(i, Item::Table(t) if t.name.node == name.node))
                else {
                    errors.push(missing("table", &name.node, name.span, &items));
                    continue;
                };
                // The house rows come first, in their order (the first row that matches
                // decides, as in any table); a base row with the same keys is dropped.
                let mut seen: Vec<(Vec<String>, Span)> = Vec::new();
                let mut front = 0;
                for mut row in rows {
                    row.cite = Some(cite.clone().unwrap_or_else(|| {
                        Spanned::new(format!("house rule, {house_name}"), name.span)
                    }));
                    let keys: Vec<String> = row
                        .patterns
                        .iter()
                        .map(|p| pattern_text(program, p))
                        .collect();
                    if let Some((_, first)) = seen.iter().find(|(k, _)| *k == keys) {
                        errors.push(
                            Diag::at(
                                "umpire::extend::twice",
                                "this house rule gives a row for the same keys twice",
                                row.span,
                                "again",
                            )
                            .label(*first, "first here"),
                        );
                        continue;
                    }
                    seen.push((keys.clone(), row.span));
                    t.rows.retain(|r| {
                        r.patterns
                            .iter()
                            .map(|p| pattern_text(program, p))
                            .collect::<Vec<_>>()
                            != keys
                    });
                    t.rows.insert(front, row);
                    front += 1;
                }
            }
            // (A modifier a house rule adds or changes says so by its label.)
            Item::ModifiersPatch {
                name,
                cite: _,
                changes,
            } => {
                let Some(Item::Modifiers(m)) = items
                    .iter_mut()
                    .find(|i| matches!(i, Item::Modifiers(m) if m.name.node == name.node))
                else {
                    errors.push(missing("modifiers", &name.node, name.span, &items));
                    continue;
                };
                let mut labels_seen: Vec<(String, Span)> = Vec::new();
                for change in changes {
                    let label = match &change {
                        ModifierChange::Set(md) => &md.label,
                        ModifierChange::Remove(l) => l,
                    };
                    if let Some((_, first)) = labels_seen.iter().find(|(l, _)| *l == label.node) {
                        errors.push(
                            Diag::at(
                                "umpire::extend::twice",
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
                    match change {
                        ModifierChange::Set(md) => {
                            match m
                                .modifiers
                                .iter()
                                .position(|x| x.label.node == md.label.node)
                            {
                                Some(i) => m.modifiers[i] = *md,
                                None => m.modifiers.push(*md),
                            }
                        }
                        ModifierChange::Remove(label) => {
                            match m.modifiers.iter().position(|x| x.label.node == label.node) {
                                Some(i) => {
                                    m.modifiers.remove(i);
                                }
                                None => {
                                    let labels: Vec<&str> =
                                        m.modifiers.iter().map(|x| x.label.node.as_str()).collect();
                                    let mut d = Diag::at(
                                        "umpire::extend::unknown",
                                        format!(
                                            "`{}` has no modifier \"{}\" to remove",
                                            m.name.node, label.node
                                        ),
                                        label.span,
                                        "not in the list",
                                    );
                                    if let Some(best) = closest(&label.node, labels.iter().copied())
                                    {
                                        d = d.help(format!("did you mean \"{best}\"?"));
                                    }
                                    errors.push(d);
                                }
                            }
                        }
                    }
                }
            }
            other => {
                if let Some((kind, name, span)) = named(&other) {
                    let taken = items.iter().filter_map(named).find(|(k, n, _)| {
                        *n == name && (*k == kind || (kind != "example" && *k != "example"))
                    });
                    if let Some((k, _, _)) = taken {
                        errors.push(
                            Diag::at(
                                "umpire::extend::shadow",
                                format!("the base ruleset already has a {k} `{name}`"),
                                span,
                                "already in the base",
                            )
                            .help(format!("to replace it, write `override {k} ...`; to add a new one, give it another name")),
                        );
                        continue;
                    }
                }
                items.push(other);
            }
        }
    }
    if errors.is_empty() {
        Ok(ast::File { items })
    } else {
        Err(Diags(errors).with_sources(&program.sources))
    }
}
