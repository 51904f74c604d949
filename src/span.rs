//! Spans and source files: byte offsets into what the user wrote.
//!
//! Source text is normalised once when it is loaded (CRLF and lone CR become LF, a
//! leading byte-order mark is dropped) so the grammar sees only LF. Every span the parser
//! produces is an offset into that normalised text; [`SourceFile::original_span`] maps it
//! back onto the text as the user wrote it, so that a caret lands on the right character
//! of a Windows-edited file.

use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Which loaded source a span points into (an index into a [`SourceMap`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct FileId(pub u32);

/// A byte range `start..end` in one source (the normalised text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SourceFile {
    /// Name shown in diagnostics: a path, `bundled:little_wars`, `<expression>`.
    pub name: String,
    /// The text exactly as the user wrote it (diagnostics render this).
    pub original: Arc<str>,
    /// The normalised text the parser reads (shared with whoever parses it).
    pub text: Arc<str>,
    /// The text as diagnostics draw it (see [`drawn_text`]), made once and shared by
    /// every diagnostic of this source.
    pub display: Arc<str>,
    /// Where the drawn text moves away from the original: `(original, drawn)` offsets,
    /// each the start of a stretch that runs on byte for byte (sorted).
    drawn_at: Arc<[(u32, u32)]>,
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
        let (display, drawn_at) = drawn_text(&original);
        SourceFile {
            name: name.into(),
            original,
            text: Arc::from(text),
            display: Arc::from(display),
            drawn_at: Arc::from(drawn_at),
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
            drawn_at: self.drawn_at.clone(),
            dropped: self.dropped.clone(),
        }
    }

    /// Maps a normalised offset onto the original text.
    pub fn original_offset(&self, offset: u32) -> usize {
        let before = self.dropped.partition_point(|&d| d <= offset);
        // A CR dropped exactly at `offset` belongs before the LF found there.
        offset as usize + before
    }

    /// Maps an offset into the original text onto the drawn text ([`Self::display`]).
    pub fn display_offset(&self, original: usize) -> usize {
        let at = u32::try_from(original).unwrap_or(u32::MAX);
        let i = self.drawn_at.partition_point(|&(o, _)| o <= at);
        match i.checked_sub(1).and_then(|i| self.drawn_at.get(i)) {
            Some(&(o, d)) => d as usize + (original - o as usize),
            None => original,
        }
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
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
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

/// Starts a stretch of a drawn text that the diagnostic renderer (miette) counts as no
/// columns, as it does a terminal's colour codes; it ends at the next `m`. [`undraw`]
/// takes the frame away again, leaving what it held.
const HIDDEN: &str = "\u{1b}\u{F8FF}";

/// The text as diagnostics draw it, and where it moves away from the original (see
/// [`SourceFile::display_offset`]):
/// - a lone CR (old Mac line ending) becomes LF, so that lines break where the user's
///   editor breaks them;
/// - a control character (an escape, a NUL) is shown as its picture (`␛`, `␀`), never
///   sent to the terminal, and a character that shows nothing on its own (a zero-width
///   space, a word joiner, a direction mark) as `�`;
/// - a character that a terminal draws together with the one before it (the skin tone of
///   👍🏽, the members of a family joined by zero-width joiners) is framed as hidden, since
///   the renderer would count its columns again and draw the caret past the character
///   pointed at; [`undraw`] puts it back in the drawing.
pub fn drawn_text(original: &str) -> (String, Vec<(u32, u32)>) {
    let mut out = String::with_capacity(original.len());
    let mut moved = Vec::new();
    // A line break always ends a grapheme (a CR before it is part of it): each line, its
    // break with it, is drawn on its own, and only a line holding more than plain ASCII
    // is cut into graphemes (a ruleset is mostly plain lines; `—` in a note, one line).
    let mut at = 0;
    for line in original.split_inclusive('\n') {
        if plain(line) {
            // Only a lone CR to draw as a line break (the same length).
            let bytes = line.as_bytes();
            let mut from = 0;
            for (i, b) in bytes.iter().enumerate() {
                if *b == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
                    out.push_str(&line[from..i]);
                    out.push('\n');
                    from = i + 1;
                }
            }
            out.push_str(&line[from..]);
        } else {
            draw_graphemes(line, at, &mut out, &mut moved);
        }
        at += line.len();
    }
    (out, moved)
}

/// Plain ASCII, no control character but a line break or a tab: drawn as it is.
fn plain(line: &str) -> bool {
    line.bytes()
        .all(|b| b.is_ascii() && (!b.is_ascii_control() || b"\r\n\t".contains(&b)))
}

/// One line of [`drawn_text`] (starting at `base` in the original) drawn grapheme by
/// grapheme onto `out`, noting in `moved` where it moves away from the original.
fn draw_graphemes(line: &str, base: usize, out: &mut String, moved: &mut Vec<(u32, u32)>) {
    use unicode_segmentation::UnicodeSegmentation;
    use unicode_width::{UnicodeWidthChar, UnicodeWidthStr};
    let offset = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    for (at, g) in line.grapheme_indices(true) {
        let at = base + at;
        if matches!(g, "\r\n" | "\n" | "\t") {
            out.push_str(g);
            continue;
        }
        // A control character is a grapheme of its own.
        if let Some(c) = g.chars().next().filter(|c| c.is_control()) {
            out.push(match c {
                '\r' => '\n',
                '\u{7f}' => '\u{2421}',
                c => char::from_u32(0x2400 + u32::from(c))
                    .filter(|_| u32::from(c) < 0x20)
                    .unwrap_or('\u{FFFD}'),
            });
            moved.push((offset(at + g.len()), offset(out.len())));
            continue;
        }
        let width = g.width();
        // A character that shows nothing (a zero-width space, a direction mark) is drawn
        // as `�`, so that a caret can be under it and the line is not reordered; a
        // byte-order mark at the start is not part of the first line.
        if width == 0 && !(at == 0 && g == "\u{FEFF}") {
            out.push('\u{FFFD}');
            moved.push((offset(at + g.len()), offset(out.len())));
            continue;
        }
        let mut shown = 0;
        let mut split = g.len();
        for (i, c) in g.char_indices() {
            let w = c.width().unwrap_or(0);
            if shown + w > width && i > 0 {
                split = i;
                break;
            }
            shown += w;
        }
        let (seen, hidden) = g.split_at(split);
        if hidden.is_empty() || hidden.contains(['m', '\u{1b}']) {
            out.push_str(g);
            continue;
        }
        out.push_str(seen);
        out.push_str(HIDDEN);
        moved.push((offset(at + split), offset(out.len())));
        out.push_str(hidden);
        out.push('m');
        moved.push((offset(at + g.len()), offset(out.len())));
    }
}

/// A rendered diagnostic with the frames of [`drawn_text`] taken away: each hidden
/// stretch is drawn again, in its place.
pub fn undraw(rendered: &str) -> String {
    let mut out = String::with_capacity(rendered.len());
    let mut rest = rendered;
    while let Some(at) = rest.find(HIDDEN) {
        out.push_str(&rest[..at]);
        let inner = &rest[at + HIDDEN.len()..];
        let end = inner.find('m').unwrap_or(inner.len());
        out.push_str(&inner[..end]);
        rest = inner.get(end + 1..).unwrap_or("");
    }
    out.push_str(rest);
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

    #[test]
    fn drawn_text_hides_what_a_terminal_draws_together_and_shows_controls() {
        let f = SourceFile::new("t", "a👍🏽b\u{1b}c");
        // The skin tone is framed; the escape is drawn as its picture.
        assert_eq!(&*f.display, "a👍\u{1b}\u{F8FF}🏽mb␛c");
        assert_eq!(undraw(&f.display), "a👍🏽b␛c");
        let b = f.original.find('b').unwrap_or_default();
        assert_eq!(&f.display[f.display_offset(b)..][..1], "b");
        let c = f.original.find('c').unwrap_or_default();
        assert_eq!(&f.display[f.display_offset(c)..][..1], "c");
        // A zero-width space is drawn as `�`, a BOM at the start as it is.
        let f = SourceFile::new("t", "\u{FEFF}a\u{200B}b");
        assert_eq!(&*f.display, "\u{FEFF}a\u{FFFD}b");
        // Plain text is drawn as it is, a lone CR as a line break.
        let f = SourceFile::new("t", "a\rb\r\nc");
        assert_eq!(&*f.display, "a\nb\r\nc");
        assert_eq!(f.display_offset(4), 4);
    }

    #[test]
    fn only_the_lines_beyond_plain_ascii_are_drawn_otherwise() {
        // A plain line, a line with an escape and a skin tone, a lone CR, a plain line:
        // each drawn as in a text of its own, the offsets running on across them.
        let f = SourceFile::new("t", "ab\r\nc\u{1b}👍🏽d\ne\rf\n");
        assert_eq!(&*f.display, "ab\r\nc␛👍\u{1b}\u{F8FF}🏽md\ne\nf\n");
        let d = f.original.find('d').unwrap_or_default();
        assert_eq!(&f.display[f.display_offset(d)..][..1], "d");
        let last = f.original.find('f').unwrap_or_default();
        assert_eq!(&f.display[f.display_offset(last)..][..1], "f");
        assert_eq!(f.display_offset(1), 1);
    }
}
