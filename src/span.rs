//! Spans and source files: byte offsets into what the user wrote.
//!
//! Source text is normalised once when it is loaded (CRLF and lone CR become LF, a
//! leading byte-order mark is dropped) so the grammar sees only LF. Every span the parser
//! produces is an offset into that normalised text; [`SourceFile::original_span`] maps it
//! back onto the text as the user wrote it, so that a caret lands on the right character
//! of a Windows-edited file.

use std::sync::Arc;

/// Which loaded source a span points into (an index into a [`SourceMap`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source (the normalised text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Span {
    /// The source this span is in.
    pub file: FileId,
    /// First byte.
    pub start: u32,
    /// One past the last byte.
    pub end: u32,
}

impl Span {
    /// A span `start..end` in `file`.
    pub fn new(file: FileId, start: usize, end: usize) -> Span {
        Span {
            file,
            start: u32::try_from(start).unwrap_or(u32::MAX),
            end: u32::try_from(end).unwrap_or(u32::MAX),
        }
    }

    /// The smallest span covering both (same file assumed).
    pub fn to(self, other: Span) -> Span {
        Span {
            file: self.file,
            start: self.start.min(other.start),
            end: self.end.max(other.end),
        }
    }
}

/// A value with the span it was written at.
#[derive(Debug, Clone, PartialEq)]
pub struct Spanned<T> {
    /// The value.
    pub node: T,
    /// Where it was written.
    pub span: Span,
}

impl<T> Spanned<T> {
    /// Wraps `node` with `span`.
    pub fn new(node: T, span: Span) -> Self {
        Spanned { node, span }
    }
}

/// One source: a ruleset file, a command-line expression, a scenario entry, a REPL line.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// Name shown in diagnostics: a path, `bundled:little_wars`, `<expression>`.
    pub name: String,
    /// The text exactly as the user wrote it (diagnostics render this).
    pub original: Arc<str>,
    /// The normalised text the parser reads (shared with whoever parses it).
    pub text: Arc<str>,
    /// The text as diagnostics draw it (lone CRs shown as line breaks), made once and
    /// shared by every diagnostic of this source.
    pub display: Arc<str>,
    /// Normalised offsets at which one original byte was dropped (sorted). A BOM counts
    /// three drops at offset 0.
    dropped: Vec<u32>,
}

impl SourceFile {
    /// Normalises `original` (CRLF and lone CR to LF, leading BOM dropped).
    pub fn new(name: impl Into<String>, original: impl Into<Arc<str>>) -> SourceFile {
        let original: Arc<str> = original.into();
        let mut text = String::with_capacity(original.len());
        let mut dropped = Vec::new();
        let mut rest: &str = &original;
        if let Some(stripped) = rest.strip_prefix('\u{FEFF}') {
            dropped.extend([0, 0, 0]);
            rest = stripped;
        }
        let bytes = rest.as_bytes();
        let mut i = 0;
        let mut seg_start = 0;
        while i < bytes.len() {
            if bytes[i] == b'\r' {
                text.push_str(&rest[seg_start..i]);
                if bytes.get(i + 1) == Some(&b'\n') {
                    // CRLF: drop the CR.
                    dropped.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
                } else {
                    text.push('\n');
                }
                i += 1;
                seg_start = i;
            } else {
                i += 1;
            }
        }
        text.push_str(&rest[seg_start..]);
        let display: Arc<str> = Arc::from(display_text(&original));
        SourceFile {
            name: name.into(),
            original,
            text: Arc::from(text),
            display,
            dropped,
        }
    }

    /// This source with every byte before `start` blanked to a space (newlines kept) and
    /// everything from `end` on dropped: parsing it reads only that region, with spans
    /// that point into the whole file. Used for expressions written inside a scenario file.
    pub fn masked(&self, start: usize, end: usize) -> SourceFile {
        // Everything after the region is dropped, so "end of input" means the region's end.
        let text: String = self
            .text
            .char_indices()
            .take_while(|(i, _)| *i < end)
            .map(|(i, c)| {
                if (start..end).contains(&i) || c == '\n' {
                    c.to_string()
                } else {
                    " ".repeat(c.len_utf8())
                }
            })
            .collect();
        SourceFile {
            name: self.name.clone(),
            original: self.original.clone(),
            text: Arc::from(text),
            display: self.display.clone(),
            dropped: self.dropped.clone(),
        }
    }

    /// Maps a normalised offset onto the original text.
    pub fn original_offset(&self, offset: u32) -> usize {
        let before = self.dropped.partition_point(|&d| d <= offset);
        // A CR dropped exactly at `offset` belongs before the LF found there.
        offset as usize + before
    }

    /// Maps a span onto the original text as `(offset, length)`.
    pub fn original_span(&self, span: Span) -> (usize, usize) {
        let start = self.original_offset(span.start);
        let end = if span.end > span.start {
            // The end is exclusive: map the last byte, then step past it.
            self.original_offset(span.end - 1) + 1
        } else {
            start
        };
        (start, end.saturating_sub(start))
    }
}

/// Sources indexed by [`FileId`]: a ruleset's own files, or those and a question's.
///
/// The files are shared: a copy of the map (a question's scratch map, made from its
/// ruleset's) copies no text.
#[derive(Debug, Clone, Default)]
pub struct SourceMap {
    files: Vec<Arc<SourceFile>>,
}

impl SourceMap {
    /// Adds a source; returns its id and its normalised text (shared, to be parsed).
    pub fn add(&mut self, file: SourceFile) -> (FileId, Arc<str>) {
        let text = file.text.clone();
        self.files.push(Arc::new(file));
        let id = FileId(u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX));
        (id, text)
    }

    /// Every source, in the order added.
    pub fn files(&self) -> &[Arc<SourceFile>] {
        &self.files
    }

    /// The file with this id.
    pub fn get(&self, id: FileId) -> Option<&SourceFile> {
        self.files.get(id.0 as usize).map(|f| &**f)
    }

    /// The normalised text of a span.
    pub fn snippet(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|f| f.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }
}

/// The text as drawn: a lone CR (old Mac line ending) becomes LF, same length, so that
/// lines break where the user's editor breaks them and offsets stay valid.
pub fn display_text(original: &str) -> String {
    let bytes = original.as_bytes();
    let mut out = String::with_capacity(original.len());
    for (i, c) in original.char_indices() {
        if c == '\r' && bytes.get(i + 1) != Some(&b'\n') {
            out.push('\n');
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crlf_and_bom_map_back() {
        let f = SourceFile::new("t", "\u{FEFF}a\r\nbc\rd");
        assert_eq!(&*f.text, "a\nbc\nd");
        // `b` is at normalised 2; in the original: BOM(3) + a + CR + LF = 6.
        assert_eq!(f.original_offset(2), 6);
        assert_eq!(&f.original[6..7], "b");
        // `d` after a lone CR (kept as one byte).
        assert_eq!(f.original_offset(5), 9);
        assert_eq!(&f.original[9..10], "d");
        let (s, l) = f.original_span(Span::new(FileId(0), 2, 4));
        assert_eq!(&f.original[s..s + l], "bc");
    }
}
