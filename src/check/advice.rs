//! Advice in type errors, for a club umpire: the values an enum allows, the parameter an
//! argument fills, and what to type instead (quotes round a name, a group member's path,
//! a length's unit). Also the rulebook's words, in quotes, read as an enum value.

use super::*;
use crate::diagnostic::{closest, Code};
use std::collections::{BTreeSet, HashMap};

/// Most values of an enum listed in full; past it, the first [`FIRST`] and "…".
const LISTED: usize = 8;
/// How many values a long list shows before its "…".
const FIRST: usize = 6;

/// The longest text quoted back whole in a message (and looked up for "did you mean").
const MAX_SHOWN: usize = 60;

/// What was written in a slot, as far as advice needs to know it.
#[derive(Clone)]
pub(super) enum Written {
    /// A bare name: `infantry`, `second_foot`.
    Name(String),
    /// A field or a group's member, its last name: `sides.a` is `a`; whether it is a
    /// member of a group (known once the base is checked: see `Checker::mark_member`).
    Field(String, bool),
    /// A text in quotes (its text).
    Text(String),
    /// A plain number, as typed: `2`.
    Number(String),
    /// Anything else.
    Other,
}

impl Written {
    /// What `e` is, for advice.
    pub(super) fn of(e: &ast::Expr, sources: &SourceMap) -> Written {
        match &e.kind {
            ast::ExprKind::Name(n) => Written::Name(n.clone()),
            ast::ExprKind::Field(_, f) => Written::Field(f.node.clone(), false),
            ast::ExprKind::Text(t) => Written::Text(t.clone()),
            ast::ExprKind::Number(_) => Written::Number(sources.snippet(e.span).to_string()),
            _ => Written::Other,
        }
    }
}

/// `1st`, `2nd`, `3rd`, `4th`, ... `11th`, `12th`, `13th`, `21st`.
pub(super) fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// `a R`, `an Arm`.
fn article_of(name: &str) -> String {
    let vowel = name.chars().next().is_some_and(|c| "AEIOaeio".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// A text as a comparison sees it: lower case, no spaces (`"Good Order"` is `goodorder`).
/// Punctuation counts: `"Line/Square"` is `line/square`, and `"Line Square"` is not it.
fn folded(t: &str) -> String {
    t.chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect()
}

/// A text as a message quotes it back: a long one by its start (a hostile one may be the
/// whole input).
fn shown_start(t: &str) -> String {
    if t.chars().count() > MAX_SHOWN {
        format!("{}…", t.chars().take(MAX_SHOWN).collect::<String>())
    } else {
        t.to_string()
    }
}

impl EnumValueInfo {
    /// The ways a text in quotes may name this value, as [`folded`]: its display text
    /// and its name.
    fn folded_words(&self) -> impl Iterator<Item = String> + '_ {
        self.display
            .as_deref()
            .map(folded)
            .into_iter()
            .chain(std::iter::once(folded(&self.name)))
    }
}

impl Checker<'_> {
    /// Warns, at the declaration of enum `e`, of two of its values that one text in
    /// quotes would name both (`retire "Fall Back"` and `fall_back "Retire"`: `"Retire"`;
    /// `"Good Order"` and `"Good  Order"`): the words are compared as [`folded`], a
    /// display text with a display text or with a name.
    pub(super) fn same_words(&mut self, e: u16) {
        let Some(en) = self.prog.enums.get(usize::from(e)) else {
            return;
        };
        let name = en.name.clone();
        // The values each folded text names so far: one pass, each value looking up only
        // its own words (not every pair of values: a large enum is checked in linear time).
        let mut by_words: HashMap<String, Vec<usize>> = HashMap::new();
        let mut pairs: BTreeSet<(usize, usize)> = BTreeSet::new();
        for (j, b) in en.values.iter().enumerate() {
            let words: Vec<String> = b.folded_words().collect();
            for w in &words {
                if let Some(earlier) = by_words.get(w) {
                    pairs.extend(earlier.iter().map(|&i| (i, j)));
                }
            }
            for w in words {
                let at = by_words.entry(w).or_default();
                if at.last() != Some(&j) {
                    at.push(j);
                }
            }
        }
        let found: Vec<(EnumValueInfo, EnumValueInfo)> = pairs
            .into_iter()
            .map(|(i, j)| (en.values[i].clone(), en.values[j].clone()))
            .collect();
        for (a, b) in found {
            let words = |v: &EnumValueInfo| match &v.display {
                Some(d) => format!("`{}` \"{d}\"", v.name),
                None => format!("`{}`", v.name),
            };
            let d = Diag::at(
                Code::CheckSameWords,
                format!(
                    "{} and {} of {} read alike, capitals and spaces aside: those words in quotes would name either",
                    words(&a),
                    words(&b),
                    name
                ),
                b.span,
                "reads like another value",
            )
            .label(a.span, "this one")
            .help(format!(
                "make the rulebook's words for each value differ, or write `{0}.{1}` and `{0}.{2}` where one is meant",
                name, a.name, b.name
            ))
            .warning();
            self.err(d);
        }
    }

    /// The values of enum `e` for a message, each as `prefix` + its name:
    /// `line_square, column, …` (all when few, the first several and "…" when many).
    pub(super) fn values_listed(&self, e: u16, prefix: &str) -> String {
        let Some(en) = self.prog.enums.get(usize::from(e)) else {
            return String::new();
        };
        let shown = if en.values.len() > LISTED {
            FIRST
        } else {
            en.values.len()
        };
        let mut list: Vec<String> = en.values[..shown]
            .iter()
            .map(|v| format!("{prefix}{}", v.name))
            .collect();
        if shown < en.values.len() {
            list.push("…".into());
        }
        list.join(", ")
    }

    /// Notes that the argument at `span` (`sides.a`) reads a member of a group.
    pub(super) fn mark_member(&mut self, span: Span) {
        if let Some(Slot {
            span: at,
            written: Written::Field(_, member),
            ..
        }) = &mut self.slot
        {
            if *at == span {
                *member = true;
            }
        }
    }

    /// The argument or field being checked at `span`, if it is one: how to name it.
    fn subject(&self, span: Span) -> Option<String> {
        self.slot
            .as_ref()
            .filter(|s| s.span == span)
            .map(|s| s.subject.clone())
    }

    /// The error for a value (described as `found`) where `expected` is wanted: naming
    /// the argument or field it fills, listing an enum's values, saying what to type.
    pub(super) fn type_diag(
        &self,
        found: &str,
        actual: Option<&Ty>,
        expected: &Ty,
        span: Span,
    ) -> Diag {
        let written = self
            .slot
            .as_ref()
            .filter(|s| s.span == span)
            .map_or(Written::Other, |s| s.written.clone());
        let subject = self.subject(span);
        let want = match (expected, &subject) {
            (Ty::Bool, Some(_)) => "true/false".to_string(),
            _ => expected.describe(&self.prog),
        };
        // Two kinds that read alike are told apart by their fields.
        let (found, want) = match actual {
            Some(a) if found == want => self.describe_apart(a, expected),
            _ => (found.to_string(), want),
        };
        let found = found.as_str();
        let quote = actual.and_then(|a| self.quote_advice(a, expected, &written));
        let head = match &subject {
            Some(s) => format!("{s} expects {want}"),
            None => format!("expected {want}"),
        };
        let message = match (expected, &quote) {
            (Ty::Enum(e), _) => format!("{head}: {} (found {found})", self.values_listed(*e, "")),
            (_, Some(q)) => format!("{head}: {q} (found {found})"),
            _ => format!("{head}, found {found}"),
        };
        let mut d = Diag::at(Code::CheckType, message, span, format!("this is {found}"));
        let hidden = match expected {
            Ty::Enum(e) => self.hidden_value(span, *e),
            _ => None,
        };
        match hidden {
            // (Not "did you mean `charged`?" for `charged` itself.)
            Some(h) => d = d.help(h),
            None => {
                for h in self.type_help(actual, expected, &written) {
                    d = d.help(h);
                }
            }
        }
        if let Some(h) = self.one_member_help(actual, expected, span) {
            d = d.help(h);
        }
        d
    }

    /// `ks.supply_intervl`, `ks.Armm.infantry`, `ks.garrison`: a name under a used
    /// ruleset's alias that it does not bring, with its did-you-mean among the names it
    /// does, or why it was left behind (its state, a rule reading it). `None` when no
    /// alias starts the path.
    pub(super) fn used_slip(&self, path: &str, field: &ast::Name, span: Span) -> Option<Diag> {
        let full = format!("{path}.{}", field.node);
        let segs: Vec<&str> = full.split('.').collect();
        let under = |p: &str| {
            let p = format!("{p}.");
            let g = &self.prog.globals;
            g.keys().any(|k| k.starts_with(&p))
                || self.prog.left_out.keys().any(|k| k.starts_with(&p))
        };
        let n = (1..segs.len())
            .rev()
            .find(|&k| under(&segs[..k].join(".")))?;
        let alias = segs[..n].join(".");
        let name = segs.get(n)?;
        let written = format!("{alias}.{name}");
        let d = Diag::at(
            Code::CheckUnknownName,
            format!("the ruleset used as `{alias}` has no `{name}`"),
            span,
            "not defined there",
        );
        if let Some(why) = self.prog.left_out.get(&written) {
            return Some(d.help(why.clone()));
        }
        let prefix = format!("{alias}.");
        let names: Vec<&str> = (self.prog.globals.keys())
            .filter(|g| {
                g.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('.'))
            })
            .map(String::as_str)
            .collect();
        Some(d.suggest(&written, names))
    }

    /// `ks` alone, where `ks` is the alias of a used ruleset: what to write instead.
    pub(super) fn alias_alone(&self, n: &str) -> Option<String> {
        let prefix = format!("{n}.");
        let mut names: Vec<&str> = (self.prog.globals.keys())
            .filter(|g| {
                g.strip_prefix(&prefix)
                    .is_some_and(|rest| !rest.contains('.'))
            })
            .map(String::as_str)
            .collect();
        names.sort_unstable();
        let first = names.first()?;
        Some(format!(
            "`{n}` is a ruleset used as `{n}`, not a value: name one of its definitions, such as `{first}`"
        ))
    }

    /// Two types for one message, told apart when their plain descriptions read alike
    /// (`a record { a }` twice): records then list their fields with their kinds, and
    /// two declarations of one name say where each was declared.
    pub(super) fn describe_apart(&self, a: &Ty, b: &Ty) -> (String, String) {
        let (da, db) = (a.describe(&self.prog), b.describe(&self.prog));
        if da != db {
            return (da, db);
        }
        let fields = |t: &Ty| match t {
            Ty::Record(s) => {
                let f: Vec<String> = (s.fields.iter())
                    .map(|(n, t)| format!("{n}: {}", t.name(&self.prog)))
                    .collect();
                let head = s
                    .name
                    .as_deref()
                    .map_or("a record".into(), |n| format!("{} record", article_of(n)));
                format!("{head} {{ {} }}", f.join(", "))
            }
            _ => da.clone(),
        };
        let (fa, fb) = (fields(a), fields(b));
        if fa != fb {
            return (fa, fb);
        }
        (
            format!("{da} (another declaration of that name)"),
            format!("{db} (as declared here)"),
        )
    }

    /// `charged` written where a value of `Retiring` is wanted, and read as something else
    /// of that name (a parameter `charged: 1..`, a `let`, a constant): what to write for
    /// the value.
    pub(super) fn hidden_value(&self, span: Span, e: crate::value::EnumId) -> Option<String> {
        let text = self.sources.snippet(span).trim();
        let en = self.prog.enums.get(usize::from(e))?;
        en.values.iter().find(|v| *v.name == *text)?;
        let within = |outer: Span| {
            outer.file == span.file && outer.start <= span.start && span.end <= outer.end
        };
        let named = |ps: &[ast::Param]| ps.iter().any(|p| *p.name.node == *text);
        let in_rule = self
            .pend
            .rules
            .iter()
            .any(|(d, _)| within(d.body.span) && named(&d.params));
        let in_table = self.pend.tables.iter().any(|(d, _)| {
            d.rows.iter().any(|r| within(r.span)) && (named(&d.keys) || named(&d.extra))
        });
        let what = if in_rule || in_table {
            "the parameter"
        } else if let Some(Global::Const(_)) = self.prog.globals.get(text) {
            "the constant"
        } else {
            "the `let`"
        };
        Some(format!(
            "here `{text}` is {what} named `{text}`, which hides the value `{text}` of {}: for the value, write `{}.{text}`",
            en.name, en.name
        ))
    }

    /// A whole group (`brigade`) where one of its members is wanted: name one.
    fn one_member_help(&self, actual: Option<&Ty>, expected: &Ty, span: Span) -> Option<String> {
        let Some(Ty::Group(inner)) = actual else {
            return None;
        };
        if !compatible(inner, expected) {
            return None;
        }
        let group = self.sources.snippet(span).trim();
        let members: Vec<String> = self
            .members
            .iter()
            .filter(|(g, _)| g == group)
            .take(3)
            .map(|(g, m)| format!("`{g}.{m}`"))
            .collect();
        Some(if members.is_empty() {
            format!("name one member of the group: `{group}.NAME`")
        } else {
            format!(
                "name one member of the group, such as {}",
                members.join(", ")
            )
        })
    }

    /// "write it in quotes": a text wanted, a name or a group's member written.
    fn quote_advice(&self, actual: &Ty, expected: &Ty, written: &Written) -> Option<String> {
        if *expected != Ty::Text {
            return None;
        }
        match (written, actual) {
            (Written::Field(f, true), Ty::Record(shape)) => {
                let whose = shape
                    .name
                    .as_ref()
                    .map_or("member".to_string(), |n| n.to_lowercase());
                Some(format!("write the {whose}'s name in quotes, \"{f}\""))
            }
            (Written::Name(n), Ty::Enum(_) | Ty::Record(_)) => {
                Some(format!("write it in quotes, \"{n}\""))
            }
            _ => None,
        }
    }

    /// Help lines for a value of the wrong type: the value meant, how to write it.
    fn type_help(&self, actual: Option<&Ty>, expected: &Ty, written: &Written) -> Vec<String> {
        let mut help = Vec::new();
        match (expected, actual, written) {
            (Ty::Enum(e), _, w) => {
                let Some(en) = self.prog.enums.get(usize::from(*e)) else {
                    return help;
                };
                if let Written::Name(n) | Written::Field(n, _) = w {
                    let names = en.values.iter().map(|v| &*v.name);
                    if let Some(best) = closest(n, names) {
                        help.push(format!("did you mean `{best}`?"));
                    }
                }
                if let Some(shown) = en.values.iter().find_map(|v| v.display.as_ref()) {
                    help.push(format!(
                        "write one of these names, or the rulebook's words for one in quotes, such as \"{shown}\""
                    ));
                }
            }
            (Ty::Record(_), Some(Ty::Text), Written::Text(t)) if t.len() <= MAX_SHOWN => {
                let found: Vec<String> = self
                    .members
                    .iter()
                    .filter(|(_, m)| folded(m) == folded(t))
                    .map(|(g, m)| format!("`{g}.{m}`"))
                    .collect();
                if !found.is_empty() {
                    help.push(format!("write {}, without quotes", found.join(" or ")));
                }
            }
            (
                Ty::Int | Ty::Num | Ty::Length | Ty::Time | Ty::Minutes,
                Some(Ty::Text),
                Written::Text(t),
            ) if t.len() <= MAX_SHOWN
                && t.trim()
                    .starts_with(|c: char| c.is_ascii_digit() || c == '-') =>
            {
                help.push(format!("numbers are written without quotes: {}", t.trim()));
            }
            (Ty::Bool, _, _) => help.push("write true or false".into()),
            (Ty::Length, Some(Ty::Int | Ty::Num), Written::Number(n)) => {
                help.push(format!("write the length with its unit: {n}\" or {n} ft"));
            }
            _ => {}
        }
        match (actual, expected) {
            (Some(Ty::Num), Ty::Int) => help.push(
                "this may be a fraction: round it with floor(...), ceil(...) or round(...)".into(),
            ),
            (Some(Ty::Int | Ty::Num), Ty::Length) => {
                help.push("make the number a length explicitly: inches(...) or feet(...)".into())
            }
            (Some(Ty::Int | Ty::Num), Ty::Time) => {
                help.push("make the number a time explicitly: moves(...)".into())
            }
            (Some(Ty::Int | Ty::Num), Ty::Minutes) => help.push(
                "write the number with its unit, like `7 minutes`, or multiply it by one minute: `n x 1 minute`".into(),
            ),
            (Some(Ty::Time), Ty::Minutes) | (Some(Ty::Minutes), Ty::Time) => help.push(
                "minutes are real time at the table and moves are game time: they never combine".into(),
            ),
            _ => {}
        }
        help
    }

    /// A name that is a value of several enums (`infantry`: Arm and Mover) where a value
    /// of none of them is wanted: the error says what is wanted, not which enum to name.
    pub(super) fn ambiguous_in_slot(
        &mut self,
        n: &str,
        enums: &[(u16, u16)],
        expected: Option<&Ty>,
        span: Span,
    ) -> bool {
        let Some(want) = expected else {
            return false;
        };
        if matches!(want, Ty::Any | Ty::Never) || enums.iter().any(|(e, _)| *want == Ty::Enum(*e)) {
            return false;
        }
        let names: Vec<String> = enums
            .iter()
            .filter_map(|(e, _)| self.prog.enums.get(usize::from(*e)))
            .map(|en| en.name.clone())
            .collect();
        let found = format!("`{n}`, a value of {}", names.join(" and of "));
        let d = self.type_diag(&found, None, want, span);
        self.err(d);
        true
    }

    /// Help for a name found nowhere (`names`: those there are): yes and no, the group
    /// member it names (`second_foot` is `brigade.second_foot`), the values of the enum
    /// wanted, the closest name, or quotes where a text is wanted.
    pub(super) fn unknown_name_help(
        &self,
        n: &str,
        expected: Option<&Ty>,
        names: &[String],
    ) -> Option<String> {
        if matches!(
            n.to_lowercase().as_str(),
            "yes" | "no" | "true" | "false" | "y" | "n"
        ) {
            return Some("yes and no are written `true` and `false`".into());
        }
        let quote = format!("this is text: write it in quotes, \"{n}\"");
        let members: Vec<String> = self
            .members
            .iter()
            .filter(|(_, m)| m == n)
            .map(|(g, m)| format!("`{g}.{m}`"))
            .collect();
        match expected {
            Some(Ty::Text) if !members.is_empty() => return Some(quote),
            _ if !members.is_empty() => {
                return Some(format!("did you mean {}?", members.join(" or ")))
            }
            Some(Ty::Enum(e)) => return self.unknown_value_help(*e, n),
            _ => {}
        }
        match (closest(n, names.iter().map(|s| s.as_str())), expected) {
            (Some(best), _) => Some(format!("did you mean `{best}`?")),
            (None, Some(Ty::Text)) => Some(quote),
            (None, _) => self.close_member(n).map(|m| format!("did you mean `{m}`?")),
        }
    }

    /// Help for a name found nowhere where a value of enum `e` is wanted: the closest
    /// of its values, and the values there are.
    pub(super) fn unknown_value_help(&self, e: u16, n: &str) -> Option<String> {
        let en = self.prog.enums.get(usize::from(e))?;
        let listed = self.values_listed(e, "");
        let words = en
            .values
            .iter()
            .find_map(|v| v.display.as_ref())
            .map_or(String::new(), |d| {
                format!(", or the rulebook's words for one in quotes, such as \"{d}\"")
            });
        let list = format!(
            "{} is one of: {listed}{words}",
            Ty::Enum(e).describe(&self.prog)
        );
        Some(match closest(n, en.values.iter().map(|v| &*v.name)) {
            Some(best) => format!("did you mean `{best}`?\n{list}"),
            None => list,
        })
    }

    /// The rulebook's words for a value of enum `e` written without quotes where one is
    /// wanted (`Line/Square`, read as a division): an error saying to quote them.
    pub(super) fn unquoted_words(&mut self, e: u16, written: &ast::Expr) -> bool {
        if !matches!(written.kind, ast::ExprKind::Binary(..)) {
            return false;
        }
        let typed = self.sources.snippet(written.span).to_string();
        let Some(en) = self.prog.enums.get(usize::from(e)) else {
            return false;
        };
        let key = folded(&typed);
        let Some(words) = en
            .values
            .iter()
            .filter_map(|v| v.display.as_ref())
            .find(|d| folded(d) == key)
        else {
            return false;
        };
        let d = Diag::at(
            Code::CheckUnknownValue,
            format!("`{typed}` is read as arithmetic: the rulebook's words for a value are written in quotes"),
            written.span,
            "arithmetic, not a value",
        )
        .help(format!("write \"{words}\""));
        self.err(d);
        true
    }

    /// The closest group member to `n` (`secnd_foot`), as its path, if one is close.
    pub(super) fn close_member(&self, n: &str) -> Option<String> {
        let names = self.members.iter().map(|(_, m)| m.as_str());
        let best = closest(n, names)?;
        self.members
            .iter()
            .find(|(_, m)| m == best)
            .map(|(g, m)| format!("{g}.{m}"))
    }

    /// A text in quotes where a value of enum `e` is wanted: the value whose words, as the
    /// rulebook prints them (or whose name), it is — case and spaces ignored.
    pub(super) fn enum_text(&mut self, e: u16, t: &str, span: Span) -> (Expr, Ty) {
        let Some(en) = self.prog.enums.get(usize::from(e)) else {
            return (dummy(span), Ty::Any);
        };
        let key = folded(t);
        let found: Vec<usize> = (0..en.values.len())
            .filter(|&i| en.values[i].folded_words().any(|w| w == key))
            .collect();
        if found.len() > 1 {
            let each: Vec<String> = found
                .iter()
                .filter_map(|&i| en.values.get(i))
                .map(|v| match &v.display {
                    Some(d) => format!("`{}.{}` for \"{d}\"", en.name, v.name),
                    None => format!("`{}.{}`", en.name, v.name),
                })
                .collect();
            let d = Diag::at(
                Code::CheckAmbiguous,
                format!(
                    "\"{}\" could be more than one {}: {}",
                    shown_start(t),
                    en.name,
                    each.join(", ")
                ),
                span,
                "more than one value",
            )
            .help("write the one meant as above, without quotes");
            self.err(d);
            return (dummy(span), Ty::Any);
        }
        if let Some(&i) = found.first() {
            let value = Value::Enum(e, u16::try_from(i).unwrap_or(u16::MAX));
            return (
                Expr {
                    kind: ExprKind::Value(value),
                    span,
                },
                Ty::Enum(e),
            );
        }
        let shown: Vec<String> = en
            .values
            .iter()
            .map(|v| match &v.display {
                Some(d) => format!("\"{d}\""),
                None => format!("`{}`", v.name),
            })
            .collect();
        let list = if shown.len() > LISTED {
            format!("{}, …", shown[..FIRST].join(", "))
        } else {
            shown.join(", ")
        };
        let shown_text = shown_start(t);
        let mut d = Diag::at(
            Code::CheckUnknownValue,
            format!(
                "\"{shown_text}\" is not {}: {list}",
                Ty::Enum(e).describe(&self.prog)
            ),
            span,
            "no such value",
        );
        let texts: Vec<String> = en
            .values
            .iter()
            .filter_map(|v| v.display.as_ref().map(|d| d.to_string()))
            .collect();
        let near = (t.chars().count() <= MAX_SHOWN)
            .then(|| closest(t, texts.iter().map(|s| s.as_str())))
            .flatten();
        if let Some(best) = near {
            d = d.help(format!("did you mean \"{best}\"?"));
        }
        self.err(d);
        (dummy(span), Ty::Any)
    }
}
