//! Syntax: ruleset text → spanned AST ([`ast`]), through the pest grammar in
//! `grammar/umpire.pest` ([`parser`]).

pub mod ast;
mod build;
pub mod parser;
pub mod print;

pub use parser::{
    brackets, closer, only_lets, parse_expr, parse_file, parse_set, unclosed, MAX_DEPTH,
    MAX_NESTING,
};

/// The `#` comment lines right above the line that starts at `line_start` in `text`
/// (the comment written for a definition there), top first, each without its `#` and
/// one space.
pub fn comment_lines_above(text: &str, line_start: usize) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut end = line_start.min(text.len());
    while end > 0 {
        let prev_start = text[..end - 1].rfind('\n').map_or(0, |i| i + 1);
        let line = text[prev_start..end - 1].trim();
        let Some(comment) = line.strip_prefix('#') else {
            break;
        };
        lines.push(comment.strip_prefix(' ').unwrap_or(comment).trim_end());
        end = prev_start;
    }
    lines.reverse();
    lines
}

/// The offset just past the `}` closing the first `{` after `from` (texts in quotes and
/// comments passed over, inch marks known from quotes); none when there is none.
pub fn closing_brace(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = from;
    let mut depth = 0usize;
    while i < bytes.len() {
        match bytes[i] {
            b'#' => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    i += 1;
                }
            }
            // An inch mark (`6"`, `1 1/2"`) follows a digit; a text's quote does not.
            b'"' if i > 0 && bytes[i - 1].is_ascii_digit() => {}
            b'"' => {
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    if bytes[i] == b'\\' {
                        i += 1;
                    }
                    i += 1;
                }
            }
            b'{' => depth += 1,
            b'}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
