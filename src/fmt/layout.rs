//! The canonical layout of a run of tokens ([`super::tokens`]): the author's line
//! breaks kept, everything else about whitespace decided here.

use super::tokens::{AlignKind, Aligned, Kind, Tok, Tree};
use std::collections::HashMap;
use unicode_width::UnicodeWidthStr;

/// Spaces per level of indentation.
const INDENT: usize = 2;

/// One line of the output being made.
struct Line {
    /// Its tokens (indices into the tree's).
    toks: Vec<usize>,
    /// Blank lines before it.
    blank: usize,
    /// Its indentation, in levels.
    level: usize,
    /// Its code, laid out (no indentation, no trailing comment).
    code: String,
    /// Its comment at the end of the line after code, or a comment alone on the line.
    comment: Option<String>,
    /// Whether it holds a comment alone.
    alone: bool,
}

/// `text` (normalised) laid out canonically, from its `tree`.
pub(super) fn layout(text: &str, tree: &Tree) -> String {
    let toks = &tree.toks;
    let slice = |t: &Tok| &text[t.start..t.end];
    let defs: std::collections::HashSet<usize> =
        tree.definitions.iter().skip(1).map(|d| d.0).collect();
    // Lines as written; a definition starting after another on one line starts a line.
    let mut lines: Vec<Line> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let breaks = if defs.contains(&t.start) {
            t.breaks.max(1)
        } else {
            t.breaks
        };
        match lines.last_mut() {
            Some(line) if breaks == 0 => line.toks.push(i),
            _ => lines.push(Line {
                toks: vec![i],
                blank: if lines.is_empty() {
                    0
                } else {
                    breaks.saturating_sub(1).min(1)
                },
                level: 0,
                code: String::new(),
                comment: None,
                alone: false,
            }),
        }
    }
    indent(text, tree, &mut lines);
    // Each line's code with single spaces where the source had any.
    for line in &mut lines {
        let mut code = String::new();
        for (n, &i) in line.toks.iter().enumerate() {
            let t = &toks[i];
            if t.kind == Kind::Comment {
                line.comment = Some(slice(t).trim_end().to_string());
                continue;
            }
            if n > 0 && t.spaced {
                code.push(' ');
            }
            code.push_str(slice(t));
        }
        line.code = code;
    }
    align(text, tree, &mut lines);
    blank_lines(tree, &mut lines);
    print(&lines)
}

/// The indentation of each line: two spaces per bracket open at its start (a line
/// starting with a closing bracket stands at the level of the line that opened it), and
/// a level more for a line that goes on with an item started on a line above.
fn indent(text: &str, tree: &Tree, lines: &mut [Line]) {
    let toks = &tree.toks;
    let mut depth: usize = 0;
    for line in lines.iter_mut() {
        let Some(&first) = line.toks.first() else {
            continue;
        };
        let first = &toks[first];
        let mut closers = 0;
        'lead: for &i in &line.toks {
            let t = &toks[i];
            if t.kind != Kind::Code {
                break;
            }
            for c in text[t.start..t.end].chars() {
                if matches!(c, ')' | ']' | '}') {
                    closers += 1;
                } else {
                    break 'lead;
                }
            }
        }
        let opens_body = depth == 0 && text[first.start..].starts_with('{');
        let goes_on = first.kind != Kind::Comment
            && closers == 0
            && !opens_body
            && !tree.items.contains(&first.start);
        line.level = depth.saturating_sub(closers) + usize::from(goes_on);
        line.alone = first.kind == Kind::Comment;
        for &i in &line.toks {
            let t = &toks[i];
            if t.kind != Kind::Code {
                continue;
            }
            for c in text[t.start..t.end].chars() {
                match c {
                    '(' | '[' | '{' => depth += 1,
                    ')' | ']' | '}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
        }
    }
    // A comment on a line of its own leads into the code below it: it stands as far in
    // as that code when that is further (a comment above a rule's `cite`), never further
    // out than its own bracket (one above a closing `}`).
    let mut next_code = None;
    for line in lines.iter_mut().rev() {
        if line.toks.is_empty() {
            continue;
        }
        if line.alone {
            line.level = line.level.max(next_code.unwrap_or(0));
        } else {
            next_code = Some(line.level);
        }
    }
}

/// Which lines align together: the rows of a block, the lines of a grid, the modifiers
/// of a list.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Family {
    Rows,
    Grid,
    Modifiers,
}

/// The `keys` of a grid's header, whose first column is empty.
const HEADER: usize = usize::MAX;

/// The columns of one aligned line, and what stands between them.
struct Columns {
    line: usize,
    cols: Vec<String>,
    /// For a row: how many keys it has (its last key spans those it lacks); for a
    /// grid's header, [`HEADER`].
    keys: usize,
}

/// Rows, grid lines and modifiers aligned in columns with the others of their block.
fn align(text: &str, tree: &Tree, lines: &mut [Line]) {
    let toks = &tree.toks;
    // The line each token starts.
    let mut line_of: HashMap<usize, usize> = HashMap::new();
    for (n, line) in lines.iter().enumerate() {
        if let Some(&i) = line.toks.first() {
            line_of.insert(toks[i].start, n);
        }
    }
    let mut groups: HashMap<(usize, Family), Vec<Columns>> = HashMap::new();
    for a in &tree.aligned {
        let Some(&n) = line_of.get(&a.start) else {
            continue;
        };
        let Some((cols, keys)) = columns(text, toks, &lines[n], a) else {
            continue;
        };
        let kind = match a.kind {
            AlignKind::Row => Family::Rows,
            AlignKind::GridRow | AlignKind::GridHeader => Family::Grid,
            AlignKind::Modifier => Family::Modifiers,
        };
        groups
            .entry((a.container, kind))
            .or_default()
            .push(Columns {
                line: n,
                cols,
                keys,
            });
    }
    for ((_, kind), group) in groups {
        let most = group.iter().map(|c| c.cols.len()).max().unwrap_or(0);
        let keys = group.iter().map(|c| c.keys).max().unwrap_or(0);
        let mut widths = vec![0; most];
        for c in &group {
            let last = c.cols.len().saturating_sub(1);
            for (i, col) in c.cols.iter().enumerate() {
                // A last column is not padded; nor is a row's key that spans others.
                let spans = kind == Family::Rows && c.keys < keys && i + 1 == c.keys;
                if i < last && !spans {
                    widths[i] = widths[i].max(col.width());
                }
            }
        }
        for c in group {
            let last = c.cols.len().saturating_sub(1);
            let mut out = String::new();
            for (i, col) in c.cols.iter().enumerate() {
                if i > 0 {
                    out.push_str(separator(kind, i, &c));
                }
                out.push_str(col);
                if i < last {
                    let mut width = widths[i];
                    if kind == Family::Rows && c.keys < keys && i + 1 == c.keys {
                        width = widths[i..keys].iter().sum::<usize>() + 3 * (keys - c.keys);
                    }
                    let pad = width.saturating_sub(col.width());
                    out.extend(std::iter::repeat_n(' ', pad));
                }
            }
            lines[c.line].code = out;
        }
    }
}

/// What stands before column `i` of an aligned line of `kind`.
fn separator(kind: Family, i: usize, c: &Columns) -> &'static str {
    match kind {
        Family::Rows if i == c.keys => " => ",
        Family::Rows => " | ",
        // A grid's header has an empty first column, under the rows' keys.
        Family::Grid if i == 1 && c.keys == HEADER => "    ",
        Family::Grid if i == 1 => " => ",
        Family::Grid => " | ",
        Family::Modifiers => " ",
    }
}

/// The columns of the aligned line `a`, laid out, when it stands alone at the start of
/// `line` and all its columns start on it.
fn columns(text: &str, toks: &[Tok], line: &Line, a: &Aligned) -> Option<(Vec<String>, usize)> {
    let on_line: Vec<&Tok> = line
        .toks
        .iter()
        .map(|&i| &toks[i])
        .filter(|t| t.kind != Kind::Comment)
        .collect();
    if on_line.first()?.start != a.start {
        return None;
    }
    // The tokens are in order: those starting in `from..to` are found by halving.
    let within = |from: usize, to: usize| {
        let lo = on_line.partition_point(|t| t.start < from);
        let hi = on_line.partition_point(|t| t.start < to);
        &on_line[lo..hi.max(lo)]
    };
    let starts_here = |at: usize| within(at, at + 1).len() == 1;
    if !a.parts.iter().all(|p| starts_here(p.0)) || !starts_here(a.last) {
        return None;
    }
    let join = |from: usize, to: usize| {
        let mut s = String::new();
        for (n, t) in within(from, to).iter().enumerate() {
            if n > 0 && t.spaced {
                s.push(' ');
            }
            s.push_str(&text[t.start..t.end]);
        }
        s
    };
    let mut cols: Vec<String> = a.parts.iter().map(|&(s, e)| join(s, e)).collect();
    cols.push(join(a.last, usize::MAX));
    // Nothing but separators between the columns.
    let taken: usize = a
        .parts
        .iter()
        .map(|&(s, e)| within(s, e).len())
        .sum::<usize>()
        + within(a.last, usize::MAX).len();
    let separators = on_line.len().saturating_sub(taken);
    let expected = match a.kind {
        AlignKind::Row | AlignKind::GridRow | AlignKind::GridHeader => a.parts.len(),
        AlignKind::Modifier => 0,
    };
    if separators != expected {
        return None;
    }
    let keys = match a.kind {
        AlignKind::Row => a.parts.len(),
        AlignKind::GridHeader => {
            cols.insert(0, String::new());
            HEADER
        }
        _ => 0,
    };
    Some((cols, keys))
}

/// One blank line between top-level definitions (before the comments that lead into
/// one); none after an opening bracket or before a closing one; never two.
fn blank_lines(tree: &Tree, lines: &mut [Line]) {
    let mut line_of: HashMap<usize, usize> = HashMap::new();
    for (n, line) in lines.iter().enumerate() {
        if let Some(&i) = line.toks.first() {
            line_of.insert(tree.toks[i].start, n);
        }
    }
    for n in 1..lines.len() {
        if lines[n - 1].code.ends_with(['{', '(', '[']) {
            lines[n].blank = 0;
        }
        if lines[n].code.starts_with(['}', ')', ']']) {
            lines[n].blank = 0;
        }
    }
    for pair in tree.definitions.windows(2) {
        let [(_, head_before), (at, head)] = pair else {
            continue;
        };
        if *head_before && *head {
            continue;
        }
        let Some(&start) = line_of.get(at) else {
            continue;
        };
        let mut code = start;
        while code > 0 && lines[code - 1].code.is_empty() {
            code -= 1;
        }
        if code == 0 {
            continue;
        }
        if !lines[code..=start].iter().any(|l| l.blank > 0) {
            lines[code].blank = 1;
        }
    }
}

/// The lines as text: indentation, code, comments at the ends of lines aligned in each
/// run of consecutive lines that have them.
fn print(lines: &[Line]) -> String {
    let mut out = String::new();
    let mut n = 0;
    while n < lines.len() {
        // A run of consecutive lines with code and a comment after it.
        let trailing = |l: &Line| !l.code.is_empty() && l.comment.is_some();
        let mut end = n;
        if trailing(&lines[n]) {
            end += 1;
            while end < lines.len() && lines[end].blank == 0 && trailing(&lines[end]) {
                end += 1;
            }
        } else {
            end = n + 1;
        }
        let column = lines[n..end]
            .iter()
            .map(|l| l.level * INDENT + l.code.width())
            .max()
            .unwrap_or(0)
            + 2;
        for line in &lines[n..end] {
            for _ in 0..line.blank {
                out.push('\n');
            }
            let mut text = " ".repeat(line.level * INDENT);
            text.push_str(&line.code);
            if let Some(comment) = &line.comment {
                if line.code.is_empty() {
                    text.push_str(comment);
                } else {
                    let pad = column.saturating_sub(text.width());
                    text.extend(std::iter::repeat_n(' ', pad));
                    text.push_str(comment);
                }
            }
            out.push_str(text.trim_end());
            out.push('\n');
        }
        n = end;
    }
    out
}
