//! The pest parser and the pairs → AST builders, one `build_<rule>` per grammar rule.
//!
//! Errors: pest's "expected …" lists are renamed into English (see [`rule_name`]) and
//! pointed at the exact byte; nesting deeper than [`MAX_NESTING`] is refused before pest
//! recurses, so a hostile file cannot overflow the stack.

use super::ast::*;
use super::build::Builder;
use crate::diagnostic::chars;
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::span::{FileId, Span};
use pest::iterators::{Pair, Pairs};
use pest::pratt_parser::{Assoc, Op, PrattParser};
use pest::Parser;
use std::sync::LazyLock;
use unicode_segmentation::UnicodeSegmentation;

mod grammar {
    #![allow(missing_docs)]
    /// The parser generated from `grammar/umpire.pest`.
    #[derive(pest_derive::Parser)]
    #[grammar = "grammar/umpire.pest"]
    pub struct UmpireParser;
}
pub(crate) use grammar::{Rule, UmpireParser};

/// Held while a failed parse is redone with pest's error detail switched on.
static DETAIL_TURN: std::sync::Mutex<()> = std::sync::Mutex::new(());

pub use crate::names::RESERVED;

pub use crate::limits::MAX_NESTING;

/// Deepest expression tree, counting each operator of a chain as a level.
pub const MAX_DEPTH: usize = 1024;

/// Most operators in one expression (a rulebook formula has a handful).
pub const MAX_OPERATORS: usize = 256;

/// The one Pratt parser, lowest precedence first.
pub(crate) static PRATT: LazyLock<PrattParser<Rule>> = LazyLock::new(|| {
    PrattParser::new()
        .op(Op::infix(Rule::op_or, Assoc::Left))
        .op(Op::infix(Rule::op_and, Assoc::Left))
        // `not a == b` is `not (a == b)`, as a wargamer reads it.
        .op(Op::prefix(Rule::op_not))
        .op(Op::infix(Rule::op_eq, Assoc::Left)
            | Op::infix(Rule::op_ne, Assoc::Left)
            | Op::infix(Rule::op_lt, Assoc::Left)
            | Op::infix(Rule::op_le, Assoc::Left)
            | Op::infix(Rule::op_gt, Assoc::Left)
            | Op::infix(Rule::op_ge, Assoc::Left)
            | Op::postfix(Rule::membership))
        .op(Op::infix(Rule::op_add, Assoc::Left) | Op::infix(Rule::op_sub, Assoc::Left))
        .op(Op::infix(Rule::op_mul, Assoc::Left)
            | Op::infix(Rule::op_div, Assoc::Left)
            | Op::infix(Rule::op_rem, Assoc::Left))
        // `-2 x 3` is `(-2) x 3`; `2d6 + 1` needs no help: a dice literal is one term.
        .op(Op::prefix(Rule::op_neg) | Op::prefix(Rule::op_pos))
        .op(Op::postfix(Rule::field_access) | Op::postfix(Rule::member_access))
});

/// English names for grammar rules in "expected …" messages.
fn rule_name(rule: &Rule) -> String {
    let s = match rule {
        Rule::EOI => "end of input",
        Rule::expr | Rule::primary => "an expression",
        Rule::ident | Rule::name_ref => "a name",
        Rule::int | Rule::signed_int => "a whole number",
        Rule::string => "a quoted \"text\"",
        Rule::block => "a block `{ ... }`",
        Rule::row => "a row `pattern => value`",
        Rule::key_patterns | Rule::pattern => "a pattern (`7 or more`, `5,6`, `3-4`, a name, `_`)",
        Rule::cell => "a cell value",
        Rule::type_expr => "a type (`Int`, `Length`, `1..3`, ...)",
        Rule::params => "parameters `(name: Type, ...)`",
        Rule::param => "a parameter `name: Type`",
        Rule::returns => "`-> Type`",
        Rule::cite => "`cite \"...\"`",
        Rule::definition
        | Rule::ruleset_decl
        | Rule::die_decl
        | Rule::const_def
        | Rule::enum_def
        | Rule::record_def
        | Rule::rule_def
        | Rule::table_def
        | Rule::modifiers_def
        | Rule::example_def => {
            "a definition (`rule`, `table`, `enum`, `record`, `const`, `modifiers`, `example`, `die`, `ruleset`)"
        }
        Rule::op_or | Rule::op_and => "`and` / `or`",
        Rule::op_eq | Rule::op_ne | Rule::op_lt | Rule::op_le | Rule::op_gt | Rule::op_ge => "a comparison",
        Rule::op_add | Rule::op_sub | Rule::op_mul | Rule::op_div | Rule::op_rem => "an operator",
        Rule::field_access => "`.field`",
        Rule::call => "a call `name(...)`",
        Rule::arg => "an argument",
        Rule::record_fields | Rule::field_init => "a field `name: value`",
        Rule::enum_value => "an enum value",
        Rule::field_decl => "a field `name: Type`",
        Rule::modifier => "a modifier `\"Label\" +1 if condition`",
        Rule::per_clause => "`per ...`",
        Rule::if_clause => "`if ...`",
        Rule::check => "a check (an expression that should be true)",
        Rule::expect_tail => "`is refused` / `is not given`",
        Rule::given_rolls => "`given rolls ...`",
        Rule::named_roll => "a roll by its name (`attacker_roll 4`)",
        Rule::seed_stmt => "`seed N`",
        Rule::let_stmt => "`let name = ...`",
        Rule::note_stmt => "`note \"...\"`",
        Rule::else_if | Rule::else_block => "`else`",
        Rule::column_block => "`column key = pattern { rows }`",
        Rule::grid_block | Rule::grid_kw => "`grid ROWKEY by COLUMNKEY { ... }`",
        Rule::by_kw => "`by`",
        Rule::grid_header => "the grid's header of column patterns (`1 or less | 2 | 3`)",
        Rule::grid_row => "a row of the grid `pattern => cell | cell | ...`",
        Rule::pat_bound | Rule::length_ahead => "a number or a length (`7`, `1/2`, `6\"`, `2'`)",
        Rule::than_kw => "`than`",
        Rule::dash_cell | Rule::dash_mark => "`-`",
        Rule::set_kw | Rule::set_stmt => "`set PATH = VALUE`",
        Rule::interpretation_def => "an interpretation",
        Rule::interpret_stmt => "`interpret NAME = READING`",
        Rule::set_op => "`=`, `+=` or `-=`",
        Rule::length_lit => "a length (`6\"`, `2'`)",
        Rule::neg_ahead | Rule::neg_length => "a whole number or a length (`3`, `6\"`)",
        Rule::range_dots => "`..` (a range: `0..3`, `0\"..`)",
        Rule::file => "a definition (`rule`, `table`, `enum`, `record`, `const`, `modifiers`, `example`)",
        Rule::inch_mark => "`\"` (inches)",
        Rule::foot_mark => "`'` (feet)",
        Rule::time_lit => "a time (`1/2 move`)",
        Rule::minutes_lit => "a time in minutes (`7 minutes`)",
        Rule::dice_lit => "dice (`d6`, `2d6`)",
        Rule::ordered_kw => "`ordered`",
        Rule::list_def | Rule::list_kw => "a list `list NAME: Enum { values }`",
        Rule::to_kw => "`to`",
        Rule::more_kw => "`more`",
        Rule::less_kw => "`less`",
        Rule::pat_minus => "`-`",
        Rule::add_kw => "`add`",
        Rule::fraction => "a fraction (`1/2`)",
        Rule::decimal => "a decimal (`2.5`)",
        Rule::pat_name_range | Rule::pat_name_or_more | Rule::pat_name_or_less => {
            "a pattern (`7 or more`, `5,6`, `3-4`, a name, `_`)"
        }
        other => return format!("{other:?}").replace('_', " "),
    };
    s.to_string()
}

/// The span of a pair, without the whitespace pest may have taken after it.
pub(crate) fn span_of(file: FileId, pair: &Pair<Rule>) -> Span {
    let s = pair.as_span();
    let trimmed = s.as_str().trim_end().len();
    Span::new(file, s.start(), s.start() + trimmed)
}

/// Walks the brackets `(`, `[`, `{` of `text` that lie outside texts and `#` comments
/// (an inch mark after a digit, `6"`, is a length, not the start of a text): calls
/// `open(byte index, depth)` at each opening bracket, stopping when it returns false;
/// returns how many are still open at the end (a closing bracket too many counts none).
pub fn brackets(text: &str, mut open: impl FnMut(usize, usize) -> bool) -> usize {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if in_comment {
            in_comment = c != '\n';
            continue;
        }
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') | (false, '\n') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '#' => in_comment = true,
            '"' => in_string = !text[..i].ends_with(|p: char| p.is_ascii_digit()),
            '(' | '{' | '[' => {
                depth += 1;
                if !open(i, depth) {
                    return depth;
                }
            }
            ')' | '}' | ']' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    depth
}

/// The innermost bracket of `text` still open at its end (outside texts and comments):
/// its byte index and the bracket (`(`, `[` or `{`); `None` when all are closed.
pub fn unclosed(text: &str) -> Option<(usize, char)> {
    let mut opened: Vec<usize> = Vec::new();
    let depth = brackets(text, |i, depth| {
        opened.truncate(depth - 1);
        opened.push(i);
        true
    });
    let i = *opened.get(depth.checked_sub(1)?)?;
    Some((i, text[i..].chars().next()?))
}

/// The bracket that closes `open`: `)` for `(`, `]` for `[`, `}` for `{`.
pub fn closer(open: char) -> char {
    match open {
        '[' => ']',
        '{' => '}',
        _ => ')',
    }
}

/// Refuses nesting deeper than [`MAX_NESTING`] before pest recurses into it.
fn nesting_guard(file: FileId, text: &str) -> Result<(), Diag> {
    let mut too_deep = None;
    brackets(text, |i, depth| {
        if depth > MAX_NESTING {
            too_deep = Some(i);
        }
        too_deep.is_none()
    });
    match too_deep {
        Some(i) => Err(Diag::at(
            Code::LimitNesting,
            format!("brackets nested more than {MAX_NESTING} deep"),
            Span::new(file, i, i + 1),
            "too deep",
        )
        .help("split the expression with `let` bindings or smaller rules")),
        None => Ok(()),
    }
}

/// Is this one of the infix operators (`and`, `==`, `+`, `x`, ...)?
pub(crate) fn is_infix(rule: Rule) -> bool {
    matches!(
        rule,
        Rule::op_or
            | Rule::op_and
            | Rule::op_eq
            | Rule::op_ne
            | Rule::op_lt
            | Rule::op_le
            | Rule::op_gt
            | Rule::op_ge
            | Rule::op_add
            | Rule::op_sub
            | Rule::op_mul
            | Rule::op_div
            | Rule::op_rem
    )
}

/// The category a grammar rule is reported as, so that "expected …" stays short.
fn expected_word(rule: &Rule) -> String {
    match rule {
        r if is_infix(*r) => "an operator".into(),
        Rule::field_access | Rule::member_access => "an operator".into(),
        Rule::membership | Rule::in_kw | Rule::not_in_kw => "an operator".into(),
        Rule::op_not
        | Rule::op_neg
        | Rule::op_pos
        | Rule::paren
        | Rule::record_lit
        | Rule::if_expr
        | Rule::match_expr
        | Rule::refuse_expr
        | Rule::not_given_expr
        | Rule::instead_expr
        | Rule::instead_kw
        | Rule::instead_bad
        | Rule::length_lit
        | Rule::time_lit
        | Rule::dice_lit
        | Rule::default_dice_lit
        | Rule::mixed_lit
        | Rule::mixed
        | Rule::number_lit
        | Rule::bool_lit
        | Rule::call
        | Rule::primary
        | Rule::kw_if
        | Rule::kw_else
        | Rule::kw_match
        | Rule::kw_refuse
        | Rule::kw_not
        | Rule::reading_kw
        | Rule::reading_expr
        | Rule::expr_input
        | Rule::typed_record
        | Rule::typed_record_head
        | Rule::minutes_lit
        | Rule::cond_expr
        | Rule::expr => "a value".into(),
        other => rule_name(other),
    }
}

/// The first escape a text may not hold (`\t`) in the quoted text that starts at
/// `start`, before its closing quote: where it is, and how it was written.
fn bad_escape(text: &str, start: usize) -> Option<(usize, usize, String)> {
    let rest = text.get(start..)?.strip_prefix('"')?;
    let mut chars = rest.char_indices();
    while let Some((i, c)) = chars.next() {
        match c {
            '"' | '\n' => return None,
            '\\' => match chars.next() {
                Some((_, '"' | '\\' | 'n')) => {}
                Some((j, '\n')) | Some((j, '\r')) => {
                    let at = start + 1 + i;
                    return Some((at, start + 1 + j, "\\".to_string()));
                }
                Some((j, other)) => {
                    let at = start + 1 + i;
                    let end = start + 1 + j + other.len_utf8();
                    return Some((at, end, format!("\\{other}")));
                }
                None => return Some((start + 1 + i, start + 2 + i, "\\".to_string())),
            },
            _ => {}
        }
    }
    None
}

/// The error for a text holding an escape it may not (`"a\tb"`): the escape named and
/// pointed at, and the escapes there are.
fn escape_error(file: FileId, (at, end, written): (usize, usize, String)) -> Diag {
    let what = if written == "\\" {
        "a `\\` with nothing after it in the text".to_string()
    } else {
        format!("`{written}` is not an escape a text may hold")
    };
    Diag::at(
        Code::ParseSyntax,
        format!("syntax error: {what}"),
        Span::new(file, at, end),
        "not an escape",
    )
    .help(
        "inside quotes, write `\\\"` for a quotation mark, `\\\\` for a backslash and `\\n` for a line break; a tab or any other letter is typed as itself",
    )
}

/// What pest expected, in English (`expected a value, or `)``), whether an operator
/// was among it, and the punctuation it expected (each in backticks).
fn expected_text(e: &pest::error::Error<Rule>) -> (String, bool, Vec<String>) {
    let mut operator_expected = false;
    let what = match &e.variant {
        pest::error::ErrorVariant::ParsingError { positives, .. } => {
            let mut pos: Vec<String> = Vec::new();
            // A printed grid is not offered wherever a row may start: the list would
            // grow by a form few tables use (once `grid` is written, its parts are).
            // At the end of a range type a whole number or a length fits: said once.
            let range_end = positives.contains(&Rule::neg_ahead);
            let said_once = |r: &Rule| {
                range_end && matches!(r, Rule::length_lit | Rule::length_ahead | Rule::signed_int)
            };
            for r in positives
                .iter()
                .filter(|r| **r != Rule::grid_kw && !said_once(r))
            {
                let w = expected_word(r);
                operator_expected |= w == "an operator";
                if !pos.contains(&w) {
                    pos.push(w);
                }
            }
            // A name, a number and a text are kinds of value: name them only where no
            // other value fits.
            if pos.iter().any(|w| w == "a value") {
                pos.retain(|w| {
                    !matches!(
                        w.as_str(),
                        "a name" | "a whole number" | "a quoted \"text\""
                    )
                });
            }
            match pos.len() {
                0 => "unexpected text".to_string(),
                1 => format!("expected {}", pos[0]),
                _ => {
                    let last = pos.pop().unwrap_or_default();
                    format!("expected {} or {}", pos.join(", "), last)
                }
            }
        }
        pest::error::ErrorVariant::CustomError { message } => message.clone(),
    };
    // Punctuation pest expected (`)`, `,`, `=>` ...) is not a rule: add it from the
    // parse attempts, so "expected `)`" is said when a bracket is not closed.
    let punct: Vec<String> = e
        .parse_attempts()
        .map(|a| a.expected_tokens())
        .unwrap_or_default()
        .into_iter()
        .map(|t| t.to_string())
        .filter(|t| [")", "]", "}", ",", "=>", ":", "=", "|"].contains(&t.as_str()))
        .map(|t| format!("`{t}`"))
        .collect();
    let what = if punct.is_empty() {
        what
    } else if let Some(rest) = what.strip_prefix("expected ") {
        format!("expected {}, or {rest}", punct.join(", "))
    } else {
        format!("expected {}", punct.join(", "))
    };
    (what, operator_expected, punct)
}

fn syntax_error(file: FileId, text: &str, e: pest::error::Error<Rule>) -> Diag {
    let (start, end) = match e.location {
        pest::error::InputLocation::Pos(p) => (p, p),
        pest::error::InputLocation::Span((s, e)) => (s, e),
    };
    if let Some(bad) = bad_escape(text, start) {
        return escape_error(file, bad);
    }
    let (what, operator_expected, punct) = expected_text(&e);
    let found = text.get(start..).and_then(|t| t.chars().next());
    // At the end of the text there is nothing to underline: underline the last
    // thing written instead, so the caret is drawn where the text stops.
    let last = text
        .get(..start)
        .and_then(|t| t.trim_end().char_indices().next_back());
    // The text ends where the bracket still open could close: that is what to put right
    // (not where a value is still wanting: `1 +`).
    let open_at_end = unclosed(text)
        .filter(|(_, open)| found.is_none() && punct.contains(&format!("`{}`", closer(*open))));
    if let Some((i, open)) = open_at_end {
        let close = closer(open);
        return Diag::at(
            Code::ParseSyntax,
            format!("syntax error: the `{open}` opened here is not closed"),
            Span::new(file, i, i + 1),
            format!("this `{open}` is not closed"),
        )
        .help(format!("close it with `{close}` where what it holds ends"));
    }
    let (label, span) = match (found, last) {
        (None, Some((i, c))) => (
            format!("{what}, but the text ends after this"),
            Span::new(file, i, i + c.len_utf8()),
        ),
        (None, None) => (
            format!("{what}, found the end"),
            Span::new(file, start, start),
        ),
        (Some(c), _) => {
            if let Some(d) = glued_to_dice(file, text, start) {
                return d;
            }
            let (shown, end) = found_at(text, start, end, c);
            (
                format!("{what}, found {shown}"),
                Span::new(file, start, end),
            )
        }
    };
    let d = Diag::at(
        Code::ParseSyntax,
        format!("syntax error: {what}"),
        span,
        label,
    );
    match odd_characters(d, file, text, start) {
        Ok(d) => d,
        Err(d) => hints(d, text, start, &what, operator_expected),
    }
}

/// A look-alike or invisible character at the stop or near it, named and pointed at with
/// what to type instead (`Ok`); else the diagnostic as it was (`Err`).
fn odd_characters(mut d: Diag, file: FileId, text: &str, start: usize) -> Result<Diag, Diag> {
    let found = text.get(start..).and_then(|t| t.chars().next());
    if let Some(instead) = found.and_then(chars::instead) {
        return Ok(d.help(instead));
    }
    let Some((at, c)) = odd_character(text, start) else {
        return Err(d);
    };
    let span = Span::new(file, at, at + c.len_utf8());
    let here = (span, format!("{} here", chars::describe(c)));
    // Just before the stop, both are drawn; further on, the character is the cause and
    // is what the diagnostic points at.
    if at < start {
        d.labels.insert(0, here);
    } else {
        d.labels = vec![here];
    }
    match chars::instead(c) {
        Some(instead) => Ok(d.help(instead)),
        None => Err(d),
    }
}

/// Help for the common slips at the place a parse stopped: dice as a name, a space
/// before a call's bracket, `=` for `:`, `7+` for `7 or more`, a reserved word as a
/// name, two values with nothing between them.
fn hints(mut d: Diag, text: &str, start: usize, what: &str, operator_expected: bool) -> Diag {
    let rest = text.get(start..).unwrap_or("");
    let found = rest.chars().next();
    let dice_like = rest.starts_with(['d', 'D'])
        && rest[1..].starts_with(|c: char| c.is_ascii_digit())
        && !rest[1..]
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with(|c: char| c.is_alphanumeric() || c == '_');
    if dice_like && what.contains("a name") {
        d = d.help("`d6`, `D10` and the like are dice, not names: choose another name");
    }
    let after_digit = text
        .get(..start)
        .is_some_and(|t| t.ends_with(|c: char| c.is_ascii_digit()));
    let before = text.get(..start).unwrap_or("");
    let space_before_bracket = found == Some('(')
        && before.ends_with([' ', '\t'])
        && before
            .trim_end()
            .ends_with(|c: char| c.is_alphanumeric() || c == '_');
    if found == Some('"') && !rest[1..].contains('"') {
        d = d.help("this text has no closing `\"`");
    } else if space_before_bracket {
        d = d.help(
            "no space between a rule's name and its `(`: write `melee(...)`, not `melee (...)`",
        );
    } else if found == Some('=') && !rest.starts_with("==") && !rest.starts_with("=>") {
        d = d.help("name an argument or a field with `:` (`attackers: 11`); compare with `==`");
    } else if what.contains("=>")
        && rest
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .starts_with('+')
    {
        let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
        d = d.help(format!(
            "a die-roll range is written `{n} or more`, `{n} or less`, `{n}-9` or `{n},{}`",
            n.parse::<i64>().map_or(0, |x| x + 1)
        ));
    } else if found.is_some_and(|c| c.is_alphabetic()) && what.contains("a name") {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        if RESERVED.contains(&word.as_str()) {
            d = d.help(format!(
                "`{word}` is a reserved word of the language: choose another name"
            ));
        }
    } else if operator_expected
        && !after_digit
        && found.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == '"')
    {
        d = d.help(
            "is a `,` missing between two arguments or fields, or an operator between two values?",
        );
        if let Some(words) = words_apart(before, rest) {
            d = d.help(format!(
                "if these are the rulebook's words for a value, write them in quotes: \"{words}\""
            ));
        }
    }
    if let Some(name) = typed_record_in_condition(before) {
        d = d.help(format!("a typed record in an `if` condition or a `match` subject is bracketed, since its `{{` would start the block: write `({name} {{ ... }})`, as in `if x == ({name} {{ a: 1 }}) {{ ... }}`"));
    }
    if inside_in_bracket(before) {
        d = d.help("the bracket after `in` holds patterns as a table row does (`a, b`, `3-4`, `7 or more`, `one_one-three_one`, a list's name), not an expression: work a value out with `let` first, or compare with `==`");
    }
    d
}

/// `if x == R { a: 1 } {` stopped at its second block: the record's name (`R`), when the
/// text since the last `if` or `match` holds a capitalised name then `{`.
fn typed_record_in_condition(before: &str) -> Option<String> {
    let t = before.trim_end().strip_suffix('{')?.trim_end();
    if !t.ends_with('}') {
        return None;
    }
    let cond = [" if ", "\tif ", "\nif ", " match ", "\nmatch "]
        .iter()
        .filter_map(|k| t.rfind(k).map(|i| i + k.len()))
        .max()?;
    let words: Vec<&str> = t[cond..].split_whitespace().collect();
    words.windows(2).find_map(|w| {
        let last = w[0].rsplit('.').next()?;
        (w[1].starts_with('{') && last.starts_with(|c: char| c.is_ascii_uppercase()))
            .then(|| w[0].trim_start_matches('(').to_string())
    })
}

/// Whether `before` (the text up to a syntax error) ends inside the bracket of
/// `x in (...)`: its last unclosed `(` comes straight after the word `in`.
fn inside_in_bracket(before: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in before.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' if depth > 0 => depth -= 1,
            '(' => {
                let head = before[..i].trim_end();
                return head.strip_suffix("in").is_some_and(|h| {
                    !h.ends_with(|c: char| c.is_alphanumeric() || c == '_')
                        && h.ends_with(char::is_whitespace)
                });
            }
            _ => {}
        }
    }
    false
}

/// What a parse stopped at, for "found …", and where that ends: a whole word (`let`,
/// not `l`), or one character named so it can be told apart from the one it looks like
/// (`–` is an en dash, not `-`; a zero-width space is named, not shown).
fn found_at(text: &str, start: usize, end: usize, c: char) -> (String, usize) {
    let rest = text.get(start..).unwrap_or("");
    if c.is_alphanumeric() || c == '_' {
        let word: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        return (format!("`{word}`"), (start + word.len()).max(end));
    }
    // A character drawn with the ones after it (`👍🏽`: a thumb and its skin tone) is
    // named and underlined whole.
    let cluster = rest.graphemes(true).next().unwrap_or_default();
    let end = if end == start {
        start + cluster.len().max(c.len_utf8())
    } else {
        end
    };
    (chars::describe_all(cluster), end)
}

/// A character near where a parse stopped that is likely its cause and hard to see: an
/// odd space just before the stop (`1<NBSP>1/2`), or, later on the same line outside
/// texts and comments, a look-alike or invisible character the grammar never reads (the
/// parse may stop at the start of a row, `3–4 => 2`, or of a definition).
fn odd_character(text: &str, start: usize) -> Option<(usize, char)> {
    let before = text.get(..start)?.chars().next_back();
    if let Some(c) = before.filter(|c| chars::is_invisible(*c) && !matches!(c, '\t' | '\n')) {
        return Some((start - c.len_utf8(), c));
    }
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.get(start..)?.char_indices() {
        let at = start + i;
        if in_string {
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
            continue;
        }
        match c {
            '\n' | '#' => return None,
            '"' => in_string = !text[..at].ends_with(|p: char| p.is_ascii_digit()),
            // The grammar reads a no-break space as a space.
            '\u{A0}' => {}
            c if chars::instead(c).is_some() => return Some((at, c)),
            _ => {}
        }
    }
    None
}

/// Letters glued to a dice literal (`2d20khmin10`): the parse stops at the `d`, which is
/// not the mistake; the letters after the dice are, and they are pointed at.
fn glued_to_dice(file: FileId, text: &str, start: usize) -> Option<Diag> {
    let before = text.get(..start)?;
    let rest = text.get(start..)?;
    let count_at = before.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    let after_d = rest.strip_prefix(['d', 'D'])?;
    let sides = after_d.len()
        - after_d
            .trim_start_matches(|c: char| c.is_ascii_digit())
            .len();
    if count_at == start || sides == 0 {
        return None;
    }
    let suffix_at = start + 1 + sides;
    let suffix: String = text[suffix_at..]
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    if suffix.is_empty() {
        return None;
    }
    let dice = &text[count_at..suffix_at];
    Some(
        Diag::at(
            Code::ParseSyntax,
            format!("syntax error: `{suffix}` written after the dice `{dice}` is not read"),
            Span::new(file, suffix_at, suffix_at + suffix.len()),
            format!("after the dice `{dice}`: not part of them"),
        )
        .help(format!(
            "dice are written `{dice}`, with nothing glued after them; put a space or an \
             operator between `{dice}` and what follows (to keep the highest of two dice, \
             write `max(d20, d20)`)"
        )),
    )
}

/// Two or more words with spaces between (`Good Order`), around the place a parse stopped
/// (`before` ends with the first word and a space, `rest` starts with the next word): the
/// words, up to a `,` or a bracket.
fn words_apart<'t>(before: &'t str, rest: &'t str) -> Option<String> {
    if !before.ends_with(' ') {
        return None;
    }
    let head = before.trim_end();
    let first_at = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let first = &head[first_at..];
    let tail_end = rest.find([',', ')', ']', '}', '=']).unwrap_or(rest.len());
    let tail = rest[..tail_end].trim_end();
    let wordy = |t: &str| {
        !t.is_empty()
            && t.chars().any(char::is_alphabetic)
            && t.chars()
                .all(|c| c.is_alphanumeric() || c == '_' || c == ' ' || c == '/')
    };
    let plain = |t: &str| {
        t.split([' ', '/'])
            .all(|w| !RESERVED.contains(&w) && !w.starts_with(|c: char| c.is_ascii_digit()))
    };
    (wordy(first) && wordy(tail) && plain(first) && plain(tail)).then(|| format!("{first} {tail}"))
}

fn parse_rule(rule: Rule, file: FileId, text: &str) -> Result<Pairs<'_, Rule>, Diag> {
    nesting_guard(file, text)?;
    // Parse fast; only a text that fails is parsed again with pest's record of what it
    // expected at each place, for the message.
    // pest's switch is global: retries take turns, so one cannot turn it off under
    // another (a parse reads the switch once, when it starts).
    if let Ok(pairs) = UmpireParser::parse(rule, text) {
        return Ok(pairs);
    }
    let again = {
        let _turn = DETAIL_TURN
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        pest::set_error_detail(true);
        let again = UmpireParser::parse(rule, text);
        pest::set_error_detail(false);
        again
    };
    again.map_err(|e| {
        let mut d = syntax_error(file, text, e);
        // A cursor at the end of the text points just after it.
        for (span, _) in &mut d.labels {
            let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
            if span.start >= len {
                span.start = len;
                span.end = len;
            }
        }
        d
    })
}

/// Parses a whole ruleset file (already normalised).
///
/// A definition at a time, so that the pairs of only one are held at once (the pairs of
/// a whole 4 MiB ruleset took more memory than its tree): the same definitions as the
/// whole file read by `file`, since a definition reads nothing before it. A text that
/// does not parse so is parsed whole, for the error `file` finds.
pub fn parse_file(file: FileId, text: &str) -> Result<File, Diag> {
    nesting_guard(file, text)?;
    if let Some(parsed) = parse_definitions(file, text) {
        return parsed;
    }
    parse_whole_file(file, text)
}

/// The definitions of `text`, each parsed and built in turn; `None` if one does not
/// parse. The first error of the building is kept until the whole text has parsed (an
/// error of the syntax further on is the one the whole file gives).
fn parse_definitions(file: FileId, text: &str) -> Option<Result<File, Diag>> {
    let mut items = Vec::new();
    let mut built = Ok(());
    let mut at = 0;
    loop {
        let rest = text.get(at..)?;
        let top = UmpireParser::parse(Rule::definition_input, rest)
            .ok()?
            .next()?;
        let def = top.into_inner().next()?;
        if def.as_rule() == Rule::EOI {
            break;
        }
        let end = def.as_span().end();
        if end == 0 {
            return None;
        }
        if built.is_ok() {
            match Builder::at(file, at).build_definition(def) {
                Ok(item) => items.push(item),
                Err(d) => built = Err(d),
            }
        }
        at += end;
    }
    Some(built.map(|()| File { items }))
}

/// `text` parsed whole by the rule `file`.
fn parse_whole_file(file: FileId, text: &str) -> Result<File, Diag> {
    let mut pairs = parse_rule(Rule::file, file, text)?;
    let top = pairs
        .next()
        .ok_or_else(|| Diag::error(Code::ParseSyntax, "empty parse"))?;
    let b = Builder::new(file);
    let mut items = Vec::new();
    for p in top.into_inner() {
        if p.as_rule() == Rule::EOI {
            break;
        }
        items.push(b.build_definition(p)?);
    }
    Ok(File { items })
}

/// Parses one question (a command-line question, a REPL line): an expression, after
/// any steps named with `let` (each ended by a newline or `;`), which make it a block.
pub fn parse_expr(file: FileId, text: &str) -> Result<Expr, Diag> {
    let mut pairs = parse_rule(Rule::expr_input, file, text)?;
    let top = pairs
        .next()
        .ok_or_else(|| Diag::error(Code::ParseSyntax, "empty parse"))?;
    let b = Builder::new(file);
    let mut stmts = Vec::new();
    for p in top.into_inner() {
        match p.as_rule() {
            Rule::let_stmt => stmts.extend(b.build_let(p)?),
            Rule::expr => {
                let value = b.build_expr(p)?;
                if stmts.is_empty() {
                    return Ok(value);
                }
                let len = text.len();
                let span = Span::new(file, 0, len);
                let block = Block {
                    stmts,
                    value: Box::new(value),
                    span,
                };
                return Ok(Expr {
                    kind: ExprKind::Block(block),
                    span,
                });
            }
            _ => {}
        }
    }
    Err(Diag::error(Code::ParseSyntax, "empty parse"))
}

/// Whether `text` is only steps named with `let` (each whole), the question that uses
/// them not given yet: at the REPL, an unfinished input that goes on on the next line.
pub fn only_lets(text: &str) -> bool {
    UmpireParser::parse(Rule::lets_input, text).is_ok()
}

/// Parses `set PATH = EXPR` (or `+=`, `-=`) typed on its own: the state path, how it
/// changes, and the value.
pub fn parse_set(file: FileId, text: &str) -> Result<Stmt, Diag> {
    let mut pairs = parse_rule(Rule::set_input, file, text)?;
    let top = pairs
        .next()
        .ok_or_else(|| Diag::error(Code::ParseSyntax, "empty parse"))?;
    let stmt = top
        .into_inner()
        .next()
        .ok_or_else(|| Diag::error(Code::ParseSyntax, "empty parse"))?;
    Builder::new(file).build_set(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(rule: Rule, text: &str) -> bool {
        UmpireParser::parse(rule, text)
            .is_ok_and(|mut p| p.next().is_some_and(|q| q.as_str() == text))
    }

    #[test]
    fn expressions_accepted_and_rejected() {
        let accepted = [
            "1 + 2",
            "2d6 + 1",
            "1/2 x D10 x width",
            "4\" + inches(1 die)",
            "1 3/4\"",
            "2'",
            "1/2 move",
            "2 moves",
            "not a == b",
            "-x",
            "f(a: 1, b: 2)",
            "(24\", 20\")",
            "u.men",
            "if a { 1 } else { 2 }",
            "{ a: 1, b: 2 }",
            "refuse \"Rivers are impassable to guns\"",
            "not given \"the Forced March Chart\"",
            "a × b",
            "a * b",
            "x x x",
            "match r { 7 or more => a 5,6 => b 0 or less => c }",
            "let r = d6; (r, r)",
            "let a: Int = 1\nlet b = a + 1\na + b",
        ];
        for a in accepted {
            assert!(ok(Rule::expr_input, a), "should parse: {a}");
        }
        let rejected = [
            "1 +",
            "2 x",
            "f(",
            "{ a: }",
            "6\" \"",
            "if a { 1 } else",
            "let r = d6",
            "let r = d6;",
        ];
        for r in rejected {
            assert!(
                UmpireParser::parse(Rule::expr_input, r).is_err(),
                "should not parse: {r}"
            );
        }
    }

    #[test]
    fn table_rows_in_the_rulebooks_phrasing() {
        for row in [
            "7 or more => well_handled",
            "5,6 => tardy",
            "3-4 => hold",
            "0 or less => retire",
            "infantry | embark => 2 moves",
            "_ => -",
            "otherwise => .",
        ] {
            assert!(ok(Rule::row, row), "should parse: {row}");
        }
    }

    /// The words of the grammar's `keyword` rule, in order.
    fn grammar_keywords() -> Vec<String> {
        let grammar = include_str!("../../grammar/umpire.pest");
        let start = grammar
            .find("keyword = @{")
            .expect("grammar has a keyword rule");
        let rule = &grammar[start..];
        let body = &rule[..rule.find("~ !ident_continue").expect("keyword rule ends")];
        body.split('"')
            .skip(1)
            .step_by(2)
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn reserved_words_are_the_grammars() {
        assert_eq!(grammar_keywords(), RESERVED.to_vec());
        // Each is refused as a name, and a word that only starts like one is free.
        for word in RESERVED {
            let text = format!("const {word} = 1");
            assert!(
                parse_file(FileId(0), &text).is_err(),
                "`{word}` taken as a name"
            );
            let text = format!("const {word}_x = 1");
            assert!(parse_file(FileId(0), &text).is_ok(), "`{word}_x` refused");
        }
        // docs/language.md lists them for the reader.
        let doc = include_str!("../../docs/language.md");
        let at = doc
            .find("These words are **reserved**")
            .expect("the doc lists them");
        let list = doc[at..].split("```").nth(1).expect("in a block");
        let listed: Vec<&str> = list.split_whitespace().collect();
        assert_eq!(listed, RESERVED.to_vec());
    }

    #[test]
    fn unreduced_fraction_with_a_unit_is_refused() {
        let e = parse_expr(FileId(0), "24/20\"").err().map(|d| d.code);
        assert_eq!(e, Some(Code::ParseUnreducedFraction));
    }

    #[test]
    fn deep_nesting_is_refused_before_pest_recurses() {
        let text = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        let e = parse_expr(FileId(0), &text).err().map(|d| d.code);
        assert_eq!(e, Some(Code::LimitNesting));
    }
}
