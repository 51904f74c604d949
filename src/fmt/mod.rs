//! `umpire fmt`: the canonical layout of a ruleset's text, as a printed chart.
//!
//! How: pest's concrete parse tree is walked, not the AST ([`tokens`]). Its leaves
//! (names, numbers, fractions, lengths `6"` `2'`, texts, dice) are printed as their
//! source slices, and the text between them (keywords, punctuation, comments) is taken
//! from the source, cut at whitespace. So every character the author typed outside
//! whitespace is printed as typed, in order, comments included, and a literal can never
//! be re-spelled: the formatter only ever changes whitespace ([`layout`]). The AST was
//! not used because it keeps neither comments nor how a literal was written (`1/2` and
//! `0.5` are one number to it).
//!
//! The layout: the author's line breaks are kept (a line break means something in a few
//! places of the grammar: a row's `-`, a call's `(`), but a definition after another on
//! one line starts a line of its own; a run of spaces becomes one space,
//! and no space is added where there was none, except around a row's `|` and `=>`; two
//! spaces of indentation per bracket left open, and a level more for a line that goes on
//! with an item begun on a line above (a `cite` under a rule's head), which is the
//! bundled rulesets' style; one blank line between definitions (but for the file's head:
//! `ruleset`, `extends`, `use`, `die`), never two in a row, none just inside a bracket;
//! table rows, `match` and `reading` arms, grid lines and modifiers aligned in columns
//! with the others of their block (a `column` block is one), padded to the widest cell
//! of each column (a row that starts its line with its keys and `=>`, or a modifier with
//! its label and amount; any other is left as written); comments after code aligned in
//! each run of consecutive lines that have them.
//!
//! Then a safety net: the output is parsed again, and its syntax tree (but for source
//! positions) and its comments, in order, must be the input's; if not, the text is
//! refused as it was, and nothing is written.

mod layout;
mod tokens;

use crate::diagnostic::{Code, Diag, Diags};
use crate::span::{FileId, SourceFile, SourceMap};
use crate::syntax::ast::File;
use crate::syntax::parse_file;

/// The canonical layout of one ruleset's text (`name` names it in diagnostics).
///
/// The text is parsed only: `extends` and `use` are not followed. Line endings are
/// given back as the text has them (CRLF if its first line ends so), and a leading
/// byte-order mark is kept.
///
/// Errors: a syntax error (the parser's diagnostic, its source attached, as
/// `umpire check` shows it); a text whose meaning or comments the layout would change
/// (never expected: the layout is then refused rather than given).
pub fn format_source(name: &str, text: &str) -> Result<String, Diags> {
    let mut sources = SourceMap::default();
    let (id, normal) = sources.add(SourceFile::new(name, text));
    let before = parse_file(id, &normal).map_err(|d| Diags::from(d).with_sources(&sources))?;
    let tree =
        tokens::tree(&normal).ok_or_else(|| not_kept(name, "its parse tree could not be read"))?;
    let out = layout::layout(&normal, &tree);
    safety_net(name, &before, &tree.comments(&normal), &out)?;
    let crlf = text.find('\n').is_some_and(|i| text[..i].ends_with('\r'));
    let mut out = if crlf { out.replace('\n', "\r\n") } else { out };
    if text.starts_with('\u{FEFF}') {
        out.insert(0, '\u{FEFF}');
    }
    Ok(out)
}

/// The safety net: `out`, the layout of a text whose syntax tree is `before` and whose
/// comments are `comments`, parses to the same tree but for positions and holds the same
/// comments in the same order.
fn safety_net(name: &str, before: &File, comments: &[String], out: &str) -> Result<(), Diags> {
    let after = parse_file(FileId(0), out)
        .map_err(|_| not_kept(name, "the laid-out text did not parse"))?;
    if without_spans(&format!("{before:?}")) != without_spans(&format!("{after:?}")) {
        return Err(not_kept(name, "the laid-out text read differently"));
    }
    if tokens::comments(out).as_deref() != Some(comments) {
        return Err(not_kept(name, "the laid-out text lost or moved a comment"));
    }
    Ok(())
}

/// The error for a layout refused by the safety net.
fn not_kept(name: &str, why: &str) -> Diags {
    Diag::error(
        Code::FmtMeaning,
        format!("fmt could not keep the meaning of {name} ({why}): it is left unchanged"),
    )
    .help("this is a fault of umpire fmt, not of the ruleset: please report it with the file")
    .into()
}

/// A syntax tree's debug text with every span (`Span { file: .., start: .., end: .. }`)
/// taken out: two trees that differ only where they were written compare equal.
fn without_spans(debug: &str) -> String {
    const HEAD: &str = "Span { file: FileId(";
    let mut out = String::with_capacity(debug.len());
    let mut rest = debug;
    while let Some(at) = rest.find(HEAD) {
        out.push_str(&rest[..at]);
        out.push_str("Span");
        let after = &rest[at..];
        match after.find('}') {
            Some(end) => rest = &after[end + 1..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(text: &str) -> String {
        match format_source("t.rules", text) {
            Ok(s) => s,
            Err(d) => panic!("{d}"),
        }
    }

    #[test]
    fn spans_are_taken_out_of_a_tree() {
        let a = "X { span: Span { file: FileId(0), start: 1, end: 2 }, n: 3 }";
        let b = "X { span: Span { file: FileId(0), start: 7, end: 9 }, n: 3 }";
        assert_eq!(without_spans(a), without_spans(b));
        assert_ne!(without_spans(a), without_spans(&b.replace("n: 3", "n: 4")));
    }

    #[test]
    fn the_safety_net_refuses_a_changed_meaning_or_a_lost_comment() {
        let text = "const a = 1 # one\nconst b = a\n";
        let before = parse_file(FileId(0), text).expect("parses");
        let comments = ["# one".to_string()];
        assert!(safety_net(
            "t",
            &before,
            &comments,
            "const a = 1 # one\n\nconst b = a\n"
        )
        .is_ok());
        for (out, why) in [
            ("const a = 2 # one\nconst b = a\n", "read differently"),
            ("const a = 1\nconst b = a\n", "lost or moved a comment"),
            ("const a = 1 # one\nconst b =\n", "did not parse"),
        ] {
            let Err(d) = safety_net("t", &before, &comments, out) else {
                panic!("{out:?} let through");
            };
            assert_eq!(d.0[0].code, Code::FmtMeaning);
            let message = &d.0[0].message;
            assert!(message.contains(why), "{message}");
            assert!(message.contains("left unchanged"), "{message}");
        }
    }

    #[test]
    fn rows_align_and_definitions_are_parted() {
        let text = "enum R { a \"A\", b \"B\" }\ntable t(n: Int) -> R {\n  7 or more => a\n  5,6 =>   b\n    _ => a\n}\n";
        let want = "enum R { a \"A\", b \"B\" }\n\ntable t(n: Int) -> R {\n  7 or more => a\n  5,6       => b\n  _         => a\n}\n";
        assert_eq!(fmt(text), want);
    }

    #[test]
    fn a_comment_alone_stands_as_far_in_as_the_code_it_leads_into() {
        // Above a rule's `cite` (a line that goes on with the head): as far in as it.
        let text = "rule r(n: Int) -> Int\n# why\n cite \"X\"\n{\n n\n}\n";
        let want = "rule r(n: Int) -> Int\n  # why\n  cite \"X\"\n{\n  n\n}\n";
        assert_eq!(fmt(text), want);
        // Above a closing `}`: at its bracket's level, not the `}`'s.
        let text = "table t(n: Int) -> Int {\n  _ => 1\n# more to come\n}\n";
        let want = "table t(n: Int) -> Int {\n  _ => 1\n  # more to come\n}\n";
        assert_eq!(fmt(text), want);
    }

    #[test]
    fn line_endings_and_the_byte_order_mark_are_kept() {
        let text = "\u{FEFF}const a  = 1\r\nconst b = 2\r\n";
        assert_eq!(fmt(text), "\u{FEFF}const a = 1\r\n\r\nconst b = 2\r\n");
    }

    #[test]
    fn a_syntax_error_is_the_parsers() {
        let Err(d) = format_source("bad.rules", "rule r( {") else {
            panic!("formatted a broken ruleset");
        };
        assert_eq!(d.0[0].code, Code::ParseSyntax);
    }
}
