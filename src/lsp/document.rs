//! An open document: its text, what checking it found, and positions in it.
//!
//! Positions are the protocol's: a line and a column counted in UTF-16 code units, lines
//! broken at LF, CRLF or a lone CR. Spans are the library's: byte offsets into the text
//! normalised to LF (`SourceFile::text`), which [`SourceFile::original_span`] maps onto
//! the text as the editor holds it.

use crate::limits::Limits;
use crate::span::{FileId, SourceFile, Span};
use crate::syntax::ast;
use crate::{Analysis, Ruleset};
use lsp_types::{Position, Range, Url};
use std::rc::Rc;

/// One document the editor has open (or one opened read-only for the editor: a bundled
/// ruleset shown by go to definition).
#[derive(Debug)]
pub struct Document {
    /// The document's address.
    pub uri: Url,
    /// The name the library knows it by: its path for a file (so that `extends
    /// "base.rules"` is found beside it), else the address.
    pub name: String,
    /// The editor's version of the text.
    pub version: i32,
    /// The text as the editor holds it.
    pub text: String,
    /// Where its lines start.
    pub lines: LineIndex,
    /// The text as the library reads it (normalised), for mapping spans.
    pub source: SourceFile,
    /// The syntax tree of this file alone, when it parses.
    pub ast: Option<ast::File>,
    /// What checking it (with what it extends and uses) found.
    pub analysis: Analysis,
    /// The syntax trees of the files it reads, parsed on first use (not per request).
    read: std::cell::OnceCell<Vec<Option<std::rc::Rc<super::at::Tree>>>>,
    /// The last ruleset that checked for this document: this version's when it checks,
    /// else the one of the last version that did ([`Document::keep_last_checked`]).
    /// Completion reads its names and types while the text being typed does not check.
    pub checked: Option<Rc<Ruleset>>,
}

impl Document {
    /// A document for `text` at `uri`, parsed and checked within `limits`.
    pub fn new(uri: Url, version: i32, text: String, limits: &Limits) -> Document {
        let name = match uri.to_file_path() {
            Ok(path) if uri.scheme() == "file" => path.to_string_lossy().into_owned(),
            _ => uri.to_string(),
        };
        let lines = LineIndex::new(&text);
        let source = SourceFile::new(name.clone(), text.as_str());
        let too_big = text.len() as u64 > limits.file_bytes;
        let ast = if too_big {
            None
        } else {
            crate::syntax::parse_file(FileId(0), &source.text).ok()
        };
        let analysis = crate::Ruleset::analyse_source(&name, &text, limits);
        let checked = analysis.program.clone().map(|program| {
            let checked = crate::cache::Checked {
                program,
                sources: analysis.sources.clone(),
                warnings: Vec::new(),
            };
            Rc::new(Ruleset::from_checked(checked, limits))
        });
        Document {
            uri,
            name,
            version,
            text,
            lines,
            source,
            ast,
            analysis,
            read: std::cell::OnceCell::new(),
            checked,
        }
    }

    /// Keeps the ruleset of `previous` (the version this one replaces) when this version
    /// does not check.
    pub fn keep_last_checked(&mut self, previous: Option<&Document>) {
        if self.checked.is_none() {
            self.checked = previous.and_then(|d| d.checked.clone());
        }
    }

    /// Whether this version of the text checks (its own ruleset is `checked`).
    pub fn checks(&self) -> bool {
        self.analysis.program.is_some()
    }

    /// The syntax trees of the files it extends and uses, by file id from 1.
    pub fn read_trees(&self) -> &[Option<std::rc::Rc<super::at::Tree>>] {
        self.read.get_or_init(|| super::at::Trees::read_by(self))
    }

    /// The range of a span in this document's own text (file 0).
    pub fn range(&self, span: Span) -> Range {
        let (start, len) = self.source.original_span(span);
        Range::new(
            self.lines.position(&self.text, start),
            self.lines.position(&self.text, start + len),
        )
    }

    /// The offset into the normalised text (the one spans count in) of a position, or a
    /// sentence saying why there is none.
    pub fn offset(&self, at: Position) -> Result<u32, String> {
        let original = self.lines.offset(&self.text, at)?;
        // Normalising drops bytes (a CR before an LF, a byte-order mark): count those
        // dropped before `original` out.
        let mut lo = 0u32;
        let mut hi = u32::try_from(self.source.text.len()).unwrap_or(u32::MAX);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if self.source.original_offset(mid) < original {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }
}

/// Where each line of a text starts, to turn byte offsets into positions and back.
#[derive(Debug, Clone)]
pub struct LineIndex {
    starts: Vec<usize>,
}

impl LineIndex {
    /// The lines of `text` (broken at LF, CRLF and a lone CR, as the protocol says).
    pub fn new(text: &str) -> LineIndex {
        let bytes = text.as_bytes();
        let mut starts = vec![0];
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'\n' => starts.push(i + 1),
                b'\r' if bytes.get(i + 1) == Some(&b'\n') => {
                    starts.push(i + 2);
                    i += 1;
                }
                b'\r' => starts.push(i + 1),
                _ => {}
            }
            i += 1;
        }
        LineIndex { starts }
    }

    /// How many lines the text has (an empty last line counts).
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The position of byte `offset` of `text` (clamped to the text, and back to a
    /// character boundary).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let mut offset = offset.min(text.len());
        while !text.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let start = self.starts[line];
        let column: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position::new(to_u32(line), to_u32(column))
    }

    /// The byte offset into `text` of a position; a column past the end of its line
    /// means the line's end (as the protocol says); a line past the end of the text is
    /// refused with a sentence saying so.
    pub fn offset(&self, text: &str, at: Position) -> Result<usize, String> {
        let line = at.line as usize;
        let Some(&start) = self.starts.get(line) else {
            return Err(format!(
                "line {} is past the end of the document, which has {} line{}",
                line + 1,
                self.count(),
                if self.count() == 1 { "" } else { "s" }
            ));
        };
        let end = self.starts.get(line + 1).copied().unwrap_or(text.len());
        let body = text[start..end].trim_end_matches(['\n', '\r']);
        let mut units = 0usize;
        for (i, c) in body.char_indices() {
            if units >= at.character as usize {
                return Ok(start + i);
            }
            units += c.len_utf16();
        }
        Ok(start + body.len())
    }
}

/// A count as the protocol's `u32`.
fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_and_every_line_break() {
        // `½` is one UTF-16 unit (two bytes), `👍` two units (four bytes).
        let text = "a½b\r\n👍c\rd\n";
        let lines = LineIndex::new(text);
        assert_eq!(lines.count(), 4);
        assert_eq!(lines.position(text, 3), Position::new(0, 2)); // before `b`
        assert_eq!(lines.position(text, 10), Position::new(1, 2)); // before `c`
        assert_eq!(lines.position(text, 12), Position::new(2, 0)); // `d`
        assert_eq!(lines.offset(text, Position::new(1, 2)), Ok(10));
        // A column past the line's end is its end; a line past the text is refused.
        assert_eq!(lines.offset(text, Position::new(0, 99)), Ok(4));
        assert!(lines
            .offset(text, Position::new(4, 0))
            .is_err_and(|e| e.contains("line 5 is past the end")));
    }

    #[test]
    fn offsets_map_between_the_editor_text_and_the_normalised_one() {
        let uri = Url::parse("untitled:doc").expect("a valid address");
        let text = "const a = 1\r\nconst b = a\r\n".to_string();
        let doc = Document::new(uri, 1, text, &Limits::default());
        // `a` on the second line: byte 23 of the editor's text, 22 of the normalised.
        assert_eq!(doc.offset(Position::new(1, 10)), Ok(22));
        assert_eq!(
            doc.range(Span::new(FileId(0), 22, 23)),
            Range::new(Position::new(1, 10), Position::new(1, 11))
        );
    }
}
