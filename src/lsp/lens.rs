//! The examples' code lenses (`textDocument/codeLens`) and the command that runs one
//! (`umpire.runExample`, by `workspace/executeCommand`).
//!
//! Over each `example` block of the document a lens tells whether its checks pass
//! (`✓ 4 checks pass`, `✗ 1 of 4 fails: ...`), worked out by [`Ruleset::run_examples`]
//! on the document's own checked ruleset, with only the document's own examples left in
//! it (not its base's). The results are worked out once per checked version of the text
//! ([`Runs`]). When the text does not check, each example the syntax tree holds gets a
//! lens saying to fix the errors first. Examples run within the server's limits
//! ([`crate::limits::Limits`]: steps, depth, dice), so a runaway one stops with the
//! limit's error as its failure and the server goes on.

use super::document::Document;
use super::{open_doc, Failure};
use crate::diagnostic::Diag;
use crate::span::FileId;
use crate::syntax::ast::Item;
use crate::{ExampleResult, Ruleset};
use lsp_server::ErrorCode;
use lsp_types::{
    CodeLens, CodeLensParams, Command, ExecuteCommandOptions, ExecuteCommandParams, MessageType,
    Position, Range, ShowMessageParams, Url,
};
use serde_json::Value;
use std::collections::HashMap;
use std::rc::Rc;

/// The command a lens runs.
pub const RUN_EXAMPLE: &str = "umpire.runExample";

/// The commands the server runs.
pub fn command_options() -> ExecuteCommandOptions {
    ExecuteCommandOptions {
        commands: vec![RUN_EXAMPLE.to_string()],
        ..Default::default()
    }
}

/// The examples' results of each document, with the checked ruleset they were worked
/// out on (a new version's ruleset is a new one: its results are worked out again).
#[derive(Default)]
pub struct Runs(HashMap<Url, (Rc<Ruleset>, Vec<ExampleResult>)>);

impl Runs {
    /// Drops a closed document's results.
    pub fn forget(&mut self, uri: &Url) {
        self.0.remove(uri);
    }
}

/// Answers `textDocument/codeLens`.
pub fn answer(
    docs: &HashMap<Url, Document>,
    runs: &mut Runs,
    params: Value,
) -> Result<Value, Failure> {
    let p: CodeLensParams = super::params(params)?;
    let doc = open_doc(docs, &p.text_document.uri)?;
    let lenses = lenses(doc, runs);
    serde_json::to_value(lenses).map_err(|e| (ErrorCode::InternalError, e.to_string()))
}

/// The lenses of a document.
pub fn lenses(doc: &Document, runs: &mut Runs) -> Vec<CodeLens> {
    let ruleset = match &doc.checked {
        Some(r) if doc.checks() => r.clone(),
        _ => return unchecked(doc),
    };
    let fresh = match runs.0.get(&doc.uri) {
        Some((r, _)) => !Rc::ptr_eq(r, &ruleset),
        None => true,
    };
    if fresh {
        let results = run(&ruleset, None);
        runs.0.insert(doc.uri.clone(), (ruleset.clone(), results));
    }
    let results = runs.0.get(&doc.uri).map_or(&[][..], |(_, r)| r.as_slice());
    ruleset
        .program
        .examples
        .iter()
        .filter(|ex| ex.span.file == FileId(0))
        .map(|ex| {
            let own: Vec<&ExampleResult> =
                results.iter().filter(|r| r.example == ex.name).collect();
            let at = doc.range(ex.span).start;
            lens(doc, at, &ex.name, title(&own))
        })
        .collect()
}

/// A lens at `at` running the example `name`.
fn lens(doc: &Document, at: Position, name: &str, title: String) -> CodeLens {
    CodeLens {
        range: Range::new(at, at),
        command: Some(Command {
            title,
            command: RUN_EXAMPLE.to_string(),
            arguments: Some(vec![
                Value::String(doc.uri.to_string()),
                Value::String(name.to_string()),
            ]),
        }),
        data: None,
    }
}

/// The lenses of a document that does not check: one on each example of its syntax tree.
fn unchecked(doc: &Document) -> Vec<CodeLens> {
    let title = "✗ fix the errors first: this ruleset does not check".to_string();
    doc.ast
        .iter()
        .flat_map(|f| &f.items)
        .filter_map(|item| match item {
            Item::Example(ex) => Some(ex),
            Item::Override(inner, _) => match &**inner {
                Item::Example(ex) => Some(ex),
                _ => None,
            },
            _ => None,
        })
        .map(|ex| {
            let at = doc.range(ex.name.span).start;
            let at = Position::new(at.line, 0);
            lens(doc, at, &ex.name.node, title.clone())
        })
        .collect()
}

/// Runs the document's own examples (or only the one named `only`) on `ruleset`.
fn run(ruleset: &Ruleset, only: Option<&str>) -> Vec<ExampleResult> {
    let mut program = (*ruleset.program).clone();
    program
        .examples
        .retain(|ex| ex.span.file == FileId(0) && only.is_none_or(|n| n == ex.name));
    let own = Ruleset {
        program: Rc::new(program),
        ..ruleset.clone()
    };
    own.run_examples()
}

/// `✓ 4 checks pass`, `✗ 1 of 4 fails: ...`.
fn title(results: &[&ExampleResult]) -> String {
    let n = results.len();
    let failed: Vec<&Diag> = results.iter().filter_map(|r| r.failure.as_ref()).collect();
    match (n, failed.first()) {
        (0, _) => "✓ no checks to run".to_string(),
        (1, None) => "✓ 1 check passes".to_string(),
        (n, None) => format!("✓ {n} checks pass"),
        (n, Some(d)) => {
            let first = results
                .iter()
                .find(|r| r.failure.is_some())
                .map_or("", |r| r.check.as_str());
            let verb = if failed.len() == 1 { "fails" } else { "fail" };
            format!("✗ {} of {n} {verb}: {}", failed.len(), why(first, d, 80))
        }
    }
}

/// Why a check failed, in one line: the check, the message, what it gave, and the help
/// when it is no longer than `help_up_to` characters.
fn why(check: &str, d: &Diag, help_up_to: usize) -> String {
    let check = check.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut s = format!("`{check}`: {}", d.message);
    if let Some((_, label)) = d.labels.first().filter(|(_, l)| !l.is_empty()) {
        s.push_str(", ");
        s.push_str(label);
    }
    if let Some(help) = d.help.as_ref().filter(|h| h.chars().count() <= help_up_to) {
        s.push_str("; ");
        s.push_str(help);
    }
    s
}

/// Answers `workspace/executeCommand` for `umpire.runExample` (arguments: the document's
/// address and the example's name): the example run again, its result in words, and the
/// same words as a message to show.
pub fn execute(
    docs: &HashMap<Url, Document>,
    params: Value,
) -> Result<(Value, ShowMessageParams), Failure> {
    let p: ExecuteCommandParams = super::params(params)?;
    if p.command != RUN_EXAMPLE {
        return Err((
            ErrorCode::InvalidParams,
            format!(
                "umpire's language server has no command `{}`: it runs `{RUN_EXAMPLE}`",
                p.command
            ),
        ));
    }
    let bad = || {
        (
            ErrorCode::InvalidParams,
            format!("`{RUN_EXAMPLE}` takes two arguments: the document's address and the example's name"),
        )
    };
    let (uri, name) = match p.arguments.as_slice() {
        [Value::String(uri), Value::String(name)] => (uri, name),
        _ => return Err(bad()),
    };
    let uri = Url::parse(uri).map_err(|e| {
        (
            ErrorCode::InvalidParams,
            format!("`{uri}` is not a document's address: {e}"),
        )
    })?;
    let doc = open_doc(docs, &uri)?;
    let (text, typ) = match &doc.checked {
        Some(ruleset) if doc.checks() => {
            let known = ruleset
                .program
                .examples
                .iter()
                .any(|ex| ex.span.file == FileId(0) && &ex.name == name);
            if !known {
                return Err((
                    ErrorCode::InvalidParams,
                    format!("`{uri}` has no example \"{name}\""),
                ));
            }
            let results = run(ruleset, Some(name));
            said(name, &results)
        }
        _ => (
            format!(
                "example \"{name}\" was not run: the ruleset does not check; fix its errors first"
            ),
            MessageType::WARNING,
        ),
    };
    let note = ShowMessageParams {
        typ,
        message: text.clone(),
    };
    Ok((Value::String(text), note))
}

/// An example's results in words, and whether they are good news.
fn said(name: &str, results: &[ExampleResult]) -> (String, MessageType) {
    let n = results.len();
    let failed: Vec<&ExampleResult> = results.iter().filter(|r| r.failure.is_some()).collect();
    let checks = if n == 1 { "check" } else { "checks" };
    match failed.first() {
        None if n == 0 => (
            format!("example \"{name}\" has no checks to run"),
            MessageType::INFO,
        ),
        None => (
            format!(
                "example \"{name}\": {n} {checks} pass{}",
                if n == 1 { "es" } else { "" }
            ),
            MessageType::INFO,
        ),
        Some(first) => {
            let reasons: Vec<String> = failed
                .iter()
                .filter_map(|r| r.failure.as_ref().map(|d| why(&r.check, d, usize::MAX)))
                .collect();
            let verb = if failed.len() == 1 { "fails" } else { "fail" };
            let _ = first;
            (
                format!(
                    "example \"{name}\": {} of {n} {checks} {verb}: {}",
                    failed.len(),
                    reasons.join("; and ")
                ),
                MessageType::ERROR,
            )
        }
    }
}
