//! The syntax trees a document reads: its own (recovered past syntax errors) and those
//! of the files it extends and uses.

use super::super::document::Document;
use crate::span::{FileId, SourceFile, Span};
use crate::syntax::ast;
use std::path::Path;
use std::rc::Rc;
use std::sync::Arc;

/// One file's syntax tree and its text.
#[derive(Debug)]
pub struct Tree {
    /// Its text, as the library read it (spans count in its normalised text).
    pub source: Arc<SourceFile>,
    /// Its syntax tree.
    pub ast: ast::File,
}

/// The trees of a document (file 0) and of the files it reads, each at its place in the
/// check's sources (its `FileId`); `None` where a source does not parse.
#[derive(Debug)]
pub struct Trees {
    /// By file id: the document's own tree, then those of the files it reads (shared
    /// with the document, parsed once per version of it).
    pub files: Vec<Option<Rc<Tree>>>,
}

impl Trees {
    /// The trees of `doc`. When its text does not parse, the tree of what does: each
    /// definition holding a syntax error is blanked out (its bytes made spaces, so that
    /// every offset stays where it was) and the rest parsed again. `None` when nothing
    /// parses so.
    pub fn of(doc: &Document) -> Option<Trees> {
        let own = match &doc.ast {
            Some(own) => own.clone(),
            None => recover(&doc.source.text)?,
        };
        Some(Trees::with(doc, Arc::new(doc.source.clone()), own))
    }

    /// The trees of `doc` only when all of its text parses (a rename must see every use).
    pub fn whole(doc: &Document) -> Option<Trees> {
        let own = doc.ast.clone()?;
        Some(Trees::with(doc, Arc::new(doc.source.clone()), own))
    }

    /// The trees of `doc` with its own text replaced by `text` (a rename tried out), or
    /// `None` when that does not parse.
    pub fn with_text(doc: &Document, text: &str) -> Option<Trees> {
        let source = SourceFile::new(doc.name.clone(), text);
        let own = crate::syntax::parse_file(FileId(0), &source.text).ok()?;
        Some(Trees::with(doc, Arc::new(source), own))
    }

    fn with(doc: &Document, source: Arc<SourceFile>, own: ast::File) -> Trees {
        let mut files = vec![Some(Rc::new(Tree { source, ast: own }))];
        files.extend(doc.read_trees().iter().cloned());
        Trees { files }
    }

    /// The trees of the files `doc` reads (its bases and used rulesets), by file id from
    /// 1; `None` where one does not parse.
    pub fn read_by(doc: &Document) -> Vec<Option<Rc<Tree>>> {
        let files = doc.analysis.sources.files().iter().enumerate().skip(1);
        files
            .map(|(i, file)| {
                let id = FileId(u32::try_from(i).unwrap_or(u32::MAX));
                let ast = crate::syntax::parse_file(id, &file.text).ok()?;
                Some(Rc::new(Tree {
                    source: file.clone(),
                    ast,
                }))
            })
            .collect()
    }

    /// The tree of a file.
    pub fn get(&self, file: FileId) -> Option<&Tree> {
        self.files.get(file.0 as usize).and_then(|t| t.as_deref())
    }

    /// The text a span covers (empty when it is not in these files).
    pub fn text(&self, span: Span) -> &str {
        self.get(span.file)
            .and_then(|t| t.source.text.get(span.start as usize..span.end as usize))
            .unwrap_or("")
    }

    /// The file that `extends "written"` or `use "written"` in the file `from` reads.
    pub fn find(&self, from: FileId, written: &str) -> Option<FileId> {
        let from = &self.get(from)?.source.name;
        let want = read_name(from, written);
        let at = self
            .files
            .iter()
            .position(|t| t.as_ref().is_some_and(|t| t.source.name == want))?;
        Some(FileId(u32::try_from(at).ok()?))
    }
}

/// The most definitions blanked out to find a tree of the rest.
const MOST_BLANKED: usize = 8;

/// The syntax tree of `text` with each top-level definition that holds a syntax error
/// blanked out: from the line it starts on (a line starting with a word, not indented)
/// to the next such line. `None` when that leaves errors still, or the text is past the
/// default file-size limit.
pub fn recover(text: &str) -> Option<ast::File> {
    if text.len() as u64 > crate::limits::Limits::default().file_bytes {
        return None;
    }
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..MOST_BLANKED {
        let now = std::str::from_utf8(&bytes).ok()?;
        let error = match crate::syntax::parse_file(FileId(0), now) {
            Ok(tree) => return Some(tree),
            Err(e) => e,
        };
        let at = error.labels.first().map(|(s, _)| s.start as usize)?;
        let at = at.min(bytes.len());
        let starts_item = |i: usize| {
            (i == 0 || bytes[i - 1] == b'\n') && bytes.get(i).is_some_and(u8::is_ascii_alphabetic)
        };
        let start = (0..=at).rev().find(|&i| starts_item(i)).unwrap_or(0);
        let end = (at + 1..bytes.len())
            .find(|&i| starts_item(i))
            .unwrap_or(bytes.len());
        let mut changed = false;
        for b in &mut bytes[start..end] {
            if *b != b'\n' && *b != b' ' {
                *b = b' ';
                changed = true;
            }
        }
        if !changed {
            return None;
        }
    }
    None
}

/// The name the library gives the file that `extends "written"` in the file `from`
/// reads: `bundled:NAME` for a bundled ruleset, else the path beside `from`.
pub fn read_name(from: &str, written: &str) -> String {
    if crate::bundled::source(written).is_some() {
        return format!("bundled:{written}");
    }
    let dir = Path::new(from.strip_prefix("bundled:").unwrap_or(from))
        .parent()
        .filter(|d| !d.as_os_str().is_empty() && !from.starts_with("bundled:"));
    match dir {
        Some(d) => d.join(written).to_string_lossy().into_owned(),
        None => written.to_string(),
    }
}
