//! Formatting (`textDocument/formatting`): the document laid out by `umpire fmt`
//! ([`crate::fmt::format_source`]), answered as one edit of the whole text, or none when
//! it is laid out already. A document that does not parse is not formatted: the answer
//! is an error saying why, with the parser's words.

use super::document::Document;
use super::Failure;
use crate::limits::Limits;
use lsp_server::ErrorCode;
use lsp_types::{Position, Range, TextEdit};

/// The edits that lay `doc` out, within the file-size limit of `limits` (a layout past
/// it would no longer load).
pub fn edits(doc: &Document, limits: &Limits) -> Result<Vec<TextEdit>, Failure> {
    let laid_out = crate::fmt::format_source(&doc.name, &doc.text).map_err(|ds| {
        let first = ds.0.first();
        let place = first
            .and_then(|d| d.labels.first())
            .filter(|(span, _)| span.file.0 == 0)
            .map(|(span, _)| {
                let at = doc.range(*span).start;
                format!(" (line {}, column {})", at.line + 1, at.character + 1)
            })
            .unwrap_or_default();
        let why = first.map_or("it could not be read".to_string(), |d| d.message.clone());
        (
            ErrorCode::RequestFailed,
            format!("the document is not formatted: {why}{place}"),
        )
    })?;
    if laid_out == doc.text {
        return Ok(Vec::new());
    }
    if laid_out.len() as u64 > limits.file_bytes {
        return Err((
            ErrorCode::RequestFailed,
            format!(
                "the document is not formatted: laid out it would be {} bytes, larger than \
                 the limit on a file's size ({} bytes), and would no longer load",
                laid_out.len(),
                limits.file_bytes
            ),
        ));
    }
    let end = doc.lines.position(&doc.text, doc.text.len());
    Ok(vec![TextEdit::new(
        Range::new(Position::new(0, 0), end),
        laid_out,
    )])
}
