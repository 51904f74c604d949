//! Pairs → AST: one `build_<rule>` function per grammar rule; every node gets its span.

use super::ast::*;
use super::parser::{is_infix, span_of, Rule, MAX_DEPTH, MAX_NESTING, MAX_OPERATORS, PRATT};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::span::{FileId, Span, Spanned};
use crate::value::Rational;
use num_traits::CheckedAdd;
use pest::iterators::{Pair, Pairs};
use std::iter::Peekable;

/// Only tables have keys: `;` in a rule's or modifier list's parameters is an error.
fn no_keys(extra: &[Param], what: &str) -> R<()> {
    match extra.first() {
        Some(p) => Err(Diag::at(
            Code::ParseParams,
            format!("`;` separates table keys from other parameters; {what} has no keys"),
            p.name.span,
            "write `,` here",
        )),
        None => Ok(()),
    }
}

/// The error for a definition cut short.
fn incomplete(span: Span) -> Diag {
    Diag::at(Code::ParseSyntax, "incomplete definition", span, "here")
}

/// The error for a length whose inches (or feet and inches) do not fit a number.
fn length_too_large(span: Span) -> Diag {
    Diag::at(
        Code::ParseNumber,
        "this length is too large to hold exactly",
        span,
        "too large",
    )
}

/// Builds AST nodes from pest pairs of one source.
pub(crate) struct Builder {
    file: FileId,
    depth: usize,
    /// Where the text the pairs were parsed from starts in the source (a definition
    /// parsed on its own, see [`super::parser::parse_file`]): added to every span.
    base: usize,
}

type R<T> = Result<T, Diag>;

fn unescape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some(other) => out.push(other),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    out
}

impl Builder {
    /// A builder for `file`, at nesting depth 0.
    pub(crate) fn new(file: FileId) -> Builder {
        Builder::at(file, 0)
    }

    /// A builder for pairs parsed from the text of `file` that starts at byte `base`.
    pub(crate) fn at(file: FileId, base: usize) -> Builder {
        Builder {
            file,
            depth: 0,
            base,
        }
    }

    fn span(&self, p: &Pair<Rule>) -> Span {
        let s = span_of(self.file, p);
        Span::new(
            self.file,
            s.start as usize + self.base,
            s.end as usize + self.base,
        )
    }

    fn name(&self, p: Pair<Rule>) -> Name {
        Spanned::new(p.as_str().to_string(), self.span(&p))
    }

    fn string(&self, p: Pair<Rule>) -> Spanned<String> {
        let span = self.span(&p);
        let inner = p
            .into_inner()
            .next()
            .map(|i| unescape(i.as_str()))
            .unwrap_or_default();
        Spanned::new(inner, span)
    }

    fn int(&self, p: &Pair<Rule>) -> R<i64> {
        p.as_str().trim().parse::<i64>().map_err(|_| {
            Diag::at(
                Code::ParseNumber,
                "number too large",
                self.span(p),
                "does not fit in 64 bits",
            )
        })
    }

    /// A builder one level down, where a level costs `cost` (an expression costs one
    /// more than its operators: a chain of them is a tree as deep as it is long). The sum
    /// along any path is at most [`MAX_DEPTH`], so checking and evaluating the tree stay
    /// within the stack.
    fn deeper(&self, span: Span, cost: usize) -> R<Builder> {
        let depth = self.depth + cost;
        if depth > MAX_DEPTH {
            return Err(Diag::at(
                Code::LimitNesting,
                format!("expression nested too deeply (more than {MAX_DEPTH} levels, counting each operator)"),
                span,
                "too deep",
            )
            .help("split it with `let` bindings or smaller rules"));
        }
        Ok(Builder {
            file: self.file,
            depth,
            base: self.base,
        })
    }

    fn cite(&self, p: Option<Pair<Rule>>) -> Option<Spanned<String>> {
        p.and_then(|c| c.into_inner().next())
            .map(|s| self.string(s))
    }
}

mod definitions;
mod expr;
mod ordered;
mod patterns;
