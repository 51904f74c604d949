//! What checking a document found, as the protocol's diagnostics: the same codes,
//! messages, labels and help as `umpire check`, warnings included. A problem found in a
//! file the document extends or uses is shown on the `extends` or `use` line that reads
//! it, saying where it is.

use super::document::Document;
use crate::diagnostic::Diag;
use crate::span::{FileId, Span};
use crate::syntax::ast::Item;
use lsp_types::{
    Diagnostic, DiagnosticRelatedInformation, DiagnosticSeverity, Location, NumberOrString,
    Position, Range,
};

/// Every diagnostic of `doc`, in the order found.
pub fn of(doc: &Document) -> Vec<Diagnostic> {
    doc.analysis.problems.iter().map(|d| one(doc, d)).collect()
}

/// One problem as a diagnostic.
fn one(doc: &Document, d: &Diag) -> Diagnostic {
    let primary = d.labels.first().map(|(span, _)| *span);
    let (range, elsewhere) = match primary {
        Some(span) if span.file == FileId(0) => (doc.range(span), None),
        Some(span) => (reading_line(doc, span), Some(where_is(doc, span))),
        None => (Range::new(Position::new(0, 0), Position::new(0, 0)), None),
    };
    let mut message = match &elsewhere {
        Some(place) => format!("in {place}: {}", d.message),
        None => d.message.clone(),
    };
    if let Some(help) = &d.help {
        message.push_str("\nhelp: ");
        message.push_str(help);
    }
    // Every label of this document, the first (what the caret points at) too.
    let related: Vec<DiagnosticRelatedInformation> = d
        .labels
        .iter()
        .filter(|(span, label)| span.file == FileId(0) && !label.is_empty())
        .map(|(span, label)| DiagnosticRelatedInformation {
            location: Location::new(doc.uri.clone(), doc.range(*span)),
            message: label.clone(),
        })
        .collect();
    Diagnostic {
        range,
        severity: Some(if d.warning {
            DiagnosticSeverity::WARNING
        } else {
            DiagnosticSeverity::ERROR
        }),
        code: Some(NumberOrString::String(d.code.to_string())),
        source: Some("umpire".to_string()),
        message,
        related_information: (!related.is_empty()).then_some(related),
        ..Diagnostic::default()
    }
}

/// `base.rules:12` for a span in another file the document reads.
fn where_is(doc: &Document, span: Span) -> String {
    match doc.analysis.sources.get(span.file) {
        Some(file) => {
            let before = file.text.get(..span.start as usize).unwrap_or("");
            format!("{}:{}", file.name, before.matches('\n').count() + 1)
        }
        None => "another file".to_string(),
    }
}

/// The `extends` or `use` line through which the document reads the file of `span`: the
/// one naming that file, else the first of them, else the document's start.
fn reading_line(doc: &Document, span: Span) -> Range {
    let file = doc
        .analysis
        .sources
        .get(span.file)
        .map_or("", |f| f.name.as_str());
    let named = |written: &str| {
        let written = written.trim_end_matches(".rules");
        file.trim_end_matches(".rules").ends_with(written)
    };
    let mut first = None;
    for item in doc.ast.iter().flat_map(|f| &f.items) {
        let at = match item {
            Item::Extends(path) => Some((path.node.as_str(), path.span)),
            Item::Use { ruleset, .. } => Some((ruleset.node.as_str(), ruleset.span)),
            _ => None,
        };
        if let Some((written, at)) = at {
            if named(written) {
                return doc.range(at);
            }
            first.get_or_insert(at);
        }
    }
    match first {
        Some(at) => doc.range(at),
        None => Range::new(Position::new(0, 0), Position::new(0, 0)),
    }
}
