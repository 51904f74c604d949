//! The text around the cursor read without parsing: a small lexer, the definition
//! the cursor is in, its brackets and `let`s, what stands before the cursor.

use super::items::DEFINITIONS;
use super::Let;

/// Whether byte `at` is inside a quoted text or a comment of its line (nothing is
/// completed there). A `"` straight after a digit, outside a text, is an inch mark.
pub(super) fn in_text_or_comment(text: &str, at: usize) -> bool {
    let line = &text[text[..at].rfind('\n').map_or(0, |i| i + 1)..at];
    let mut quoted = false;
    let mut escaped = false;
    let mut last = ' ';
    for c in line.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' if quoted => quoted = false,
            '"' if !last.is_ascii_digit() => quoted = true,
            '#' if !quoted => return true,
            _ => {}
        }
        last = c;
    }
    quoted
}

// ---------------------------------------------------------------- the lexer

/// A token of the text: a word (a name or keyword), a number, a quoted text, or a mark.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Tok {
    Word,
    Number,
    Text,
    Mark(&'static str),
}

/// One token and where it is.
#[derive(Debug, Clone)]
pub(super) struct Token {
    pub(super) tok: Tok,
    pub(super) start: usize,
    pub(super) end: usize,
    /// Written at the first column of its line.
    pub(super) first_column: bool,
    /// The first token on its line.
    pub(super) line_start: bool,
}

/// The marks the language writes, longest first.
pub(super) const MARKS: [&str; 28] = [
    "=>", "==", "!=", "<=", ">=", "->", "..", "+=", "-=", "(", ")", "{", "}", "[", "]", ",", ":",
    ";", "|", ".", "=", "<", ">", "+", "-", "*", "/", "%",
];

/// The tokens of `text` (comments and spaces left out).
pub(super) fn lex(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    let mut column0 = true;
    while let Some(c) = text[i..].chars().next() {
        let start = i;
        if c == '\n' {
            i += 1;
            line_start = true;
            column0 = true;
            continue;
        }
        if c.is_whitespace() {
            i += c.len_utf8();
            column0 = false;
            continue;
        }
        let tok = if c == '#' {
            i = text[i..].find('\n').map_or(text.len(), |n| i + n);
            continue;
        } else if c == '"' {
            i += 1;
            let bytes = text.as_bytes();
            while i < text.len() && bytes[i] != b'"' && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(text.len());
            while !text.is_char_boundary(i) {
                i += 1;
            }
            Tok::Text
        } else if c.is_ascii_digit() {
            i += text[i..]
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - i);
            // A length's mark: `6"`, `2'`.
            if let Some(m) = text[i..].chars().next().filter(|m| "\"'″′".contains(*m)) {
                i += m.len_utf8();
            }
            Tok::Number
        } else if is_word_char(c) {
            i += text[i..]
                .find(|c: char| !is_word_char(c))
                .unwrap_or(text.len() - i);
            Tok::Word
        } else if let Some(m) = MARKS.iter().find(|m| text[i..].starts_with(**m)) {
            i += m.len();
            Tok::Mark(m)
        } else {
            i += c.len_utf8();
            Tok::Mark("?")
        };
        out.push(Token {
            tok,
            start,
            end: i,
            first_column: column0,
            line_start,
        });
        line_start = false;
        column0 = false;
    }
    out
}

/// A character of a name.
pub(super) fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}
/// A definition's header read from its tokens: its keyword, name and parameters
/// (name, type as written), and how many are keys (a table's).
pub(super) struct Header {
    pub(super) keyword: String,
    pub(super) name: String,
    pub(super) params: Vec<(String, String)>,
    pub(super) keys: usize,
    /// The type it gives, as written.
    pub(super) returns: Option<String>,
    /// Index (into the definition's tokens) of the `(` of its parameters, and of its
    /// body's `{`.
    pub(super) paren: Option<usize>,
    pub(super) body: Option<usize>,
}

/// Whether token `t` (at a line's first column) is a definition's keyword.
pub(super) fn is_definition(text: &str, t: &Token) -> bool {
    t.tok == Tok::Word && DEFINITIONS.contains(&&text[t.start..t.end])
}

/// The header of the definition whose tokens start `toks`.
pub(super) fn header(text: &str, toks: &[Token]) -> Header {
    let word = |i: usize| toks.get(i).map_or("", |t| &text[t.start..t.end]);
    let mut k = 0;
    if word(0) == "override" {
        k = 1;
    }
    let keyword = word(k).to_string();
    let name = if keyword == "example" || keyword == "state" {
        String::new()
    } else {
        word(k + 1).to_string()
    };
    let mut h = Header {
        keyword,
        name,
        params: Vec::new(),
        keys: 0,
        returns: None,
        paren: None,
        body: None,
    };
    let mut depth = 0usize;
    let mut param_start = None;
    let mut semicolon = false;
    for (i, t) in toks.iter().enumerate().skip(k + 1) {
        if i > k + 1 && t.first_column && is_definition(text, t) {
            break;
        }
        match t.tok {
            Tok::Mark("(") if h.paren.is_none() && h.body.is_none() && depth == 0 => {
                if matches!(h.keyword.as_str(), "rule" | "table" | "modifiers") {
                    h.paren = Some(i);
                    param_start = Some(i + 1);
                }
                depth += 1;
            }
            Tok::Mark("(" | "[") => depth += 1,
            Tok::Mark(")" | "]") => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    if let Some(s) = param_start.take() {
                        push_param(text, &toks[s..i], &mut h.params);
                        if !semicolon {
                            h.keys = h.params.len();
                        }
                    }
                }
            }
            Tok::Mark("," | ";") if depth == 1 && param_start.is_some() => {
                if let Some(s) = param_start {
                    push_param(text, &toks[s..i], &mut h.params);
                }
                if t.tok == Tok::Mark(";") && !semicolon {
                    semicolon = true;
                    h.keys = h.params.len();
                }
                param_start = Some(i + 1);
            }
            Tok::Mark("{") if depth == 0 => {
                h.body = Some(i);
                break;
            }
            _ => {}
        }
    }
    if let Some(s) = param_start {
        push_param(text, &toks[s..], &mut h.params);
    }
    if !semicolon && h.keyword == "table" {
        h.keys = h.params.len();
    }
    let end = h.body.unwrap_or(toks.len());
    if let Some(arrow) = toks[..end].iter().position(|t| t.tok == Tok::Mark("->")) {
        let ty: Vec<&Token> = toks[arrow + 1..end]
            .iter()
            .take_while(|t| !matches!(&text[t.start..t.end], "cite" | "recursive"))
            .collect();
        if let (Some(a), Some(b)) = (ty.first(), ty.last()) {
            h.returns = Some(text[a.start..b.end].to_string());
        }
    }
    h
}

/// `name: Type (= default)?` from a parameter's tokens.
pub(super) fn push_param(text: &str, toks: &[Token], out: &mut Vec<(String, String)>) {
    let [name, colon, ty @ ..] = toks else {
        return;
    };
    if name.tok != Tok::Word || colon.tok != Tok::Mark(":") {
        return;
    }
    let end = ty
        .iter()
        .position(|t| t.tok == Tok::Mark("="))
        .unwrap_or(ty.len());
    let written = match (ty.first(), end.checked_sub(1).and_then(|e| ty.get(e))) {
        (Some(a), Some(b)) => text[a.start..b.end].to_string(),
        _ => String::new(),
    };
    out.push((text[name.start..name.end].to_string(), written));
}

/// The brackets open at the end of `toks` (indices into it, outermost first), and the
/// `let`s whose block is still open: (name, type as written, value as written). A `let`
/// on the cursor's line (starting at byte `line_begin`) is the one being written: its
/// name is not in scope yet.
pub(super) fn brackets(text: &str, toks: &[Token], line_begin: usize) -> (Vec<usize>, Vec<Let>) {
    let mut stack: Vec<usize> = Vec::new();
    let mut lets: Vec<(usize, String, Option<String>, String)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        match t.tok {
            Tok::Mark("(" | "{" | "[") => stack.push(i),
            Tok::Mark(")" | "}" | "]") => {
                stack.pop();
                lets.retain(|l| l.0 <= stack.len());
            }
            Tok::Word if &text[t.start..t.end] == "let" && t.start < line_begin => {
                if let Some(l) = read_let(text, &toks[i..]) {
                    lets.push((stack.len(), l.0, l.1, l.2));
                }
            }
            _ => {}
        }
    }
    (
        stack,
        lets.into_iter().map(|(_, n, t, v)| (n, t, v)).collect(),
    )
}

/// `let NAME (: Type)? = VALUE`: the value read to the end of its line (and on while its
/// brackets are open).
pub(super) fn read_let(text: &str, toks: &[Token]) -> Option<Let> {
    let name = toks.get(1).filter(|t| t.tok == Tok::Word)?;
    let eq = toks.iter().position(|t| t.tok == Tok::Mark("="))?;
    let ty = match toks.get(2) {
        Some(t) if t.tok == Tok::Mark(":") && eq > 3 => {
            Some(text[toks[3].start..toks[eq - 1].end].to_string())
        }
        _ => None,
    };
    let mut depth = 0i32;
    let mut end = None;
    for t in &toks[eq + 1..] {
        if depth == 0 && end.is_some() && (t.line_start || t.tok == Tok::Mark(";")) {
            break;
        }
        match t.tok {
            Tok::Mark("(" | "{" | "[") => depth += 1,
            Tok::Mark(")" | "}" | "]") => {
                depth -= 1;
                if depth < 0 {
                    break;
                }
            }
            _ => {}
        }
        end = Some(t.end);
    }
    let start = toks.get(eq + 1)?.start;
    let value = text.get(start..end?)?.to_string();
    Some((text[name.start..name.end].to_string(), ty, value))
}

/// Whether the tokens end with `let NAME :`.
pub(super) fn is_let_type(text: &str, toks: &[Token]) -> bool {
    matches!(toks, [.., l, n, c] if &text[l.start..l.end] == "let" && n.tok == Tok::Word && c.tok == Tok::Mark(":"))
}

/// The name of an argument written `name: value`.
pub(super) fn arg_name(text: &str, toks: &[Token]) -> Option<String> {
    match toks {
        [n, c, ..] if n.tok == Tok::Word && c.tok == Tok::Mark(":") => {
            Some(text[n.start..n.end].to_string())
        }
        _ => None,
    }
}

/// The operand that ends at byte `end` of `text`: a name, a field path, a call or a
/// member (`u.pos`, `melee(9, 11, 0, 0)`, `units[name]`), spaces before `end` skipped.
pub(super) fn operand_before(text: &str, end: usize) -> &str {
    let bytes = text.as_bytes();
    let mut i = text[..end].trim_end().len();
    let stop = i;
    while i > 0 {
        let c = text[..i].chars().next_back().unwrap_or(' ');
        if is_word_char(c) || c == '.' {
            i -= c.len_utf8();
        } else if c == ')' || c == ']' || c == '}' {
            let (open, close) = match c {
                ')' => (b'(', b')'),
                ']' => (b'[', b']'),
                _ => (b'{', b'}'),
            };
            let mut depth = 0;
            let mut j = i;
            while j > 0 {
                j -= 1;
                if bytes[j] == close {
                    depth += 1;
                } else if bytes[j] == open {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            if depth != 0 {
                break;
            }
            i = j;
            if c == '}' {
                // A typed record: `Unit { ... }`, its name before the brace.
                i = text[..i].trim_end().len();
            }
        } else {
            break;
        }
    }
    while !text.is_char_boundary(i) {
        i += 1;
    }
    &text[i..stop]
}

/// The definitions written in the text (keyword, name, its first line), and the aliases
/// of the rulesets it uses (alias, ruleset).
#[allow(clippy::type_complexity)]
pub(super) fn definitions(
    text: &str,
    toks: &[Token],
) -> (Vec<(String, String, String)>, Vec<(String, String)>) {
    let mut defs = Vec::new();
    let mut aliases = Vec::new();
    let word = |t: Option<&Token>| t.map_or("", |t| &text[t.start..t.end]);
    for (i, t) in toks.iter().enumerate() {
        if !(t.first_column && is_definition(text, t)) {
            continue;
        }
        let mut k = i;
        if word(Some(t)) == "override" {
            k += 1;
        }
        let keyword = word(toks.get(k));
        if keyword == "use" {
            let ruleset = word(toks.get(k + 1)).trim_matches('"');
            if word(toks.get(k + 2)) == "as" {
                aliases.push((word(toks.get(k + 3)).to_string(), ruleset.to_string()));
            }
            continue;
        }
        let named = [
            "const",
            "enum",
            "list",
            "record",
            "rule",
            "table",
            "modifiers",
        ];
        let name = toks.get(k + 1).filter(|n| n.tok == Tok::Word);
        if let (true, Some(n)) = (named.contains(&keyword), name) {
            let line_end = text[t.start..]
                .find('\n')
                .map_or(text.len(), |e| t.start + e);
            let line = text[t.start..line_end].trim_end_matches(['{', ' ']).trim();
            defs.push((
                keyword.to_string(),
                word(Some(n)).to_string(),
                line.to_string(),
            ));
        }
    }
    (defs, aliases)
}
