//! A parsed ruleset as a run of tokens, and what the layout needs to know of its tree.
//!
//! The tokens are the leaves of pest's concrete parse tree (names, numbers, lengths,
//! texts, dice, each printed as its source slice) and, between them, the source text
//! the tree holds no pair for (keywords, punctuation, comments), cut at whitespace.
//! Every non-blank character of the source is in exactly one token, so a layout that
//! prints each token and only changes the whitespace between them changes nothing else.

use crate::syntax::parser::{Rule, UmpireParser};
use pest::iterators::Pair;
use pest::Parser;
use std::collections::HashSet;

/// What a token is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Kind {
    /// Code: a leaf of the tree, a keyword, punctuation.
    Code,
    /// A quoted text (its brackets are not brackets).
    Text,
    /// A comment, `#` to the end of its line.
    Comment,
}

/// One token: where it is in the source, and the whitespace before it.
#[derive(Debug, Clone)]
pub(super) struct Tok {
    /// First byte in the source.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// What it is.
    pub kind: Kind,
    /// Line breaks between it and the token before.
    pub breaks: usize,
    /// Whether any whitespace stands between it and the token before.
    pub spaced: bool,
}

/// Which kind of lines are aligned in columns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum AlignKind {
    /// A table or `match` row: `keys | ... => cell`.
    Row,
    /// A row of a printed grid: `key => cell | cell ...`.
    GridRow,
    /// A grid's header: its patterns above the cells.
    GridHeader,
    /// A modifier: `"Label" amount per ... if ...`.
    Modifier,
}

/// A row, grid line or modifier whose parts may be aligned with its neighbours'.
#[derive(Debug, Clone)]
pub(super) struct Aligned {
    /// Which kind.
    pub kind: AlignKind,
    /// Where the block holding it starts: rows of one block align together.
    pub container: usize,
    /// Where it starts.
    pub start: usize,
    /// Its columns but the last, each a byte range of the source.
    pub parts: Vec<(usize, usize)>,
    /// Where its last column starts (it runs to the end of its line).
    pub last: usize,
}

/// The tokens of a ruleset and what the layout reads of its tree.
#[derive(Debug, Default)]
pub(super) struct Tree {
    /// The tokens, in order.
    pub toks: Vec<Tok>,
    /// Where items start (definitions, rows, block items, fields, arguments, ...): a
    /// line starting elsewhere goes on with the line before, and is indented once more.
    pub items: HashSet<usize>,
    /// Where the top-level definitions start, in order, and whether each is a line of
    /// the file's head (`ruleset`, `extends`, `use`, `die`), which need no blank line
    /// between them.
    pub definitions: Vec<(usize, bool)>,
    /// Rows, grid lines and modifiers.
    pub aligned: Vec<Aligned>,
}

/// Rules printed whole as their source slice (a literal, a text, a word with spaces in it).
fn opaque(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::string
            | Rule::length_lit
            | Rule::time_lit
            | Rule::minutes_lit
            | Rule::dice_lit
            | Rule::default_dice_lit
            | Rule::mixed_lit
            | Rule::number_lit
            | Rule::pat_bound
            | Rule::neg_length
            | Rule::signed_int
            | Rule::call_head
            | Rule::qualified_name
            | Rule::name_ref
            | Rule::not_in_kw
            | Rule::missing_kw
            | Rule::asked_instead_kw
            | Rule::expect_bad
            | Rule::instead_bad
    )
}

/// Rules that are an item of the block holding them (where a line may start afresh).
fn item(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::row
            | Rule::grid_row
            | Rule::grid_header
            | Rule::column_block
            | Rule::grid_block
            | Rule::modifier
            | Rule::remove_modifier
            | Rule::field_decl
            | Rule::add_kw
            | Rule::enum_value
            | Rule::reading_decl
            | Rule::field_init
            | Rule::check
            | Rule::given_rolls
            | Rule::seed_stmt
            | Rule::interpret_stmt
            | Rule::let_stmt
            | Rule::note_stmt
            | Rule::set_stmt
            | Rule::arg
            | Rule::param
            | Rule::else_if
            | Rule::else_block
    )
}

/// The tree of `text` (normalised: LF line endings, no byte-order mark) as tokens;
/// `None` if it does not parse as a whole file.
pub(super) fn tree(text: &str) -> Option<Tree> {
    let file = UmpireParser::parse(Rule::file, text).ok()?.next()?;
    let mut walk = Walk {
        leaves: Vec::new(),
        tree: Tree::default(),
    };
    for def in file.into_inner() {
        if def.as_rule() == Rule::EOI {
            break;
        }
        let at = def.as_span().start();
        let head = matches!(
            def.as_rule(),
            Rule::ruleset_decl | Rule::extends_decl | Rule::use_decl | Rule::die_decl
        );
        walk.tree.items.insert(at);
        walk.tree.definitions.push((at, head));
        walk.pair(def);
    }
    let mut tree = walk.tree;
    tree.toks = tokens(text, &walk.leaves);
    Some(tree)
}

/// The comments of `text` in order, each without trailing spaces; `None` if it does not
/// parse.
pub(super) fn comments(text: &str) -> Option<Vec<String>> {
    Some(tree(text)?.comments(text))
}

impl Tree {
    /// The comments of `text` (whose tree this is) in order, each without trailing spaces.
    pub(super) fn comments(&self, text: &str) -> Vec<String> {
        self.toks
            .iter()
            .filter(|t| t.kind == Kind::Comment)
            .map(|t| text[t.start..t.end].trim_end().to_string())
            .collect()
    }
}

struct Walk {
    /// Leaves of the tree: byte ranges and whether each is a quoted text.
    leaves: Vec<(usize, usize, bool)>,
    tree: Tree,
}

impl Walk {
    fn pair(&mut self, pair: Pair<'_, Rule>) {
        let rule = pair.as_rule();
        let (start, end) = (pair.as_span().start(), pair.as_span().end());
        if item(rule) {
            self.tree.items.insert(start);
        }
        self.structure(&pair);
        let mut children = pair.clone().into_inner().peekable();
        if opaque(rule) || children.peek().is_none() {
            let text = pair.as_str();
            // A childless rule of several words (`not given`) may hold spaces and
            // comments: the text between leaves is cut at them instead.
            let plain = !text.contains(|c: char| c.is_whitespace() || c == '#');
            if end > start && (opaque(rule) || plain) {
                self.leaves.push((start, end, rule == Rule::string));
            }
            return;
        }
        for child in children {
            self.pair(child);
        }
    }

    /// Records the items and aligned lines `pair` holds.
    fn structure(&mut self, pair: &Pair<'_, Rule>) {
        let rule = pair.as_rule();
        let start = pair.as_span().start();
        let kids: Vec<Pair<'_, Rule>> = pair.clone().into_inner().collect();
        let range = |p: &Pair<'_, Rule>| (p.as_span().start(), p.as_span().end());
        match rule {
            // The items of a block, of a list, of a bracket.
            Rule::block | Rule::list_def | Rule::paren | Rule::member_access => {
                for k in &kids {
                    if rule != Rule::list_def || k.as_rule() == Rule::ident {
                        self.tree.items.insert(k.as_span().start());
                    }
                }
            }
            Rule::table_def
            | Rule::table_patch
            | Rule::column_block
            | Rule::match_expr
            | Rule::reading_expr => {
                for row in kids.iter().filter(|k| k.as_rule() == Rule::row) {
                    let mut parts = Vec::new();
                    let mut last = None;
                    for k in row.clone().into_inner() {
                        match k.as_rule() {
                            Rule::key_patterns => {
                                parts.extend(k.into_inner().map(|p| range(&p)));
                            }
                            Rule::cell => last = Some(k.as_span().start()),
                            _ => {}
                        }
                    }
                    if let Some(last) = last {
                        self.tree.aligned.push(Aligned {
                            kind: AlignKind::Row,
                            container: start,
                            start: row.as_span().start(),
                            parts,
                            last,
                        });
                    }
                }
            }
            Rule::grid_block => {
                for line in &kids {
                    let inner: Vec<(usize, usize)> =
                        line.clone().into_inner().map(|p| range(&p)).collect();
                    let kind = match line.as_rule() {
                        Rule::grid_header => AlignKind::GridHeader,
                        Rule::grid_row => AlignKind::GridRow,
                        _ => continue,
                    };
                    if let Some((&(last, _), parts)) = inner.split_last() {
                        self.tree.aligned.push(Aligned {
                            kind,
                            container: start,
                            start: line.as_span().start(),
                            parts: parts.to_vec(),
                            last,
                        });
                    }
                }
            }
            Rule::modifiers_def | Rule::modifiers_patch => {
                for m in kids.iter().filter(|k| k.as_rule() == Rule::modifier) {
                    let inner: Vec<(usize, usize)> =
                        m.clone().into_inner().map(|p| range(&p)).collect();
                    // Label, amount, and the conditions (`per`, `if`) as one column.
                    let (parts, last) = match inner.as_slice() {
                        [label, amount] => (vec![*label], amount.0),
                        [label, amount, condition, ..] => (vec![*label, *amount], condition.0),
                        _ => continue,
                    };
                    self.tree.aligned.push(Aligned {
                        kind: AlignKind::Modifier,
                        container: start,
                        start: m.as_span().start(),
                        parts,
                        last,
                    });
                }
            }
            _ => {}
        }
    }
}

/// The tokens of `text`: its leaves, and the text between them cut at whitespace and
/// comments.
fn tokens(text: &str, leaves: &[(usize, usize, bool)]) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut at = 0;
    for &(start, end, quoted) in leaves {
        if start < at {
            continue;
        }
        between(text, at, start, &mut toks);
        let kind = if quoted { Kind::Text } else { Kind::Code };
        toks.push(Tok {
            start,
            end,
            kind,
            breaks: 0,
            spaced: false,
        });
        at = end;
    }
    between(text, at, text.len(), &mut toks);
    // The whitespace before each token.
    let mut prev = 0;
    for t in &mut toks {
        let gap = text.get(prev..t.start).unwrap_or("");
        t.breaks = gap.matches('\n').count();
        t.spaced = !gap.is_empty();
        prev = t.end;
    }
    toks
}

/// The text `from..to` between leaves as tokens: runs of non-blank characters, and
/// comments to the end of their line.
fn between(text: &str, from: usize, to: usize, toks: &mut Vec<Tok>) {
    let Some(gap) = text.get(from..to) else {
        return;
    };
    let mut chars = gap.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c.is_whitespace() {
            continue;
        }
        let start = from + i;
        let (kind, end) = if c == '#' {
            let len = gap[i..].find('\n').unwrap_or(gap.len() - i);
            (Kind::Comment, start + len)
        } else {
            let len = gap[i..]
                .find(|c: char| c.is_whitespace() || c == '#')
                .unwrap_or(gap.len() - i);
            (Kind::Code, start + len)
        };
        while chars.peek().is_some_and(|(j, _)| from + j < end) {
            chars.next();
        }
        toks.push(Tok {
            start,
            end,
            kind,
            breaks: 0,
            spaced: false,
        });
    }
}
