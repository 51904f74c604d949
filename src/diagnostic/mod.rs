//! Diagnostics: every error a user can cause, in one miette family.
//!
//! A [`Diag`] carries a stable code (`umpire::check::unknown_name`), a message, labelled
//! spans, help, and a severity. The library returns them with bare [`Span`]s; the faces
//! (CLI, REPL) attach the source text with [`Diag::with_sources`] before rendering, so the
//! caret lands in the ruleset file, the state file or the typed line.

pub mod chars;
mod code;

pub use code::{Code, Phase};

use crate::span::{SourceMap, Span};
use miette::{LabeledSpan, NamedSource, Severity, SourceSpan};
use std::fmt;
use std::sync::Arc;

/// Longest line drawn with its source; longer ones are described by line and column.
const MAX_DRAWN_LINE: usize = 10_000;

/// One diagnostic: code, message, labels, help.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{message}")]
pub struct Diag {
    /// Stable code, e.g. `umpire::parse::syntax`.
    pub code: Code,
    /// The one-line message.
    pub message: String,
    /// Labelled spans; the first is the primary one.
    pub labels: Vec<(Span, String)>,
    /// How to fix it, where known.
    pub help: Option<String>,
    /// Error or warning.
    pub warning: bool,
    /// How many problems it reports: 1, or N for the `... and N more errors` that stands
    /// for the errors found past the hundred shown.
    pub count: usize,
    /// What an error of the question names, for the code that reads it (an example's
    /// `is missing men`, JSON's `"parameter"`): the parameter a missing-argument error
    /// says is left out, or the call an ask-instead error says to ask.
    pub subject: Option<String>,
    attached: Option<Box<Attached>>,
}

#[derive(Debug, Clone)]
struct Attached {
    named: NamedSource<CharColumns>,
    labels: Vec<LabeledSpan>,
}

impl Diag {
    /// An error with a code and message and no span (e.g. a missing file).
    pub fn error(code: Code, message: impl Into<String>) -> Diag {
        Diag {
            code,
            message: message.into(),
            labels: Vec::new(),
            help: None,
            warning: false,
            count: 1,
            subject: None,
            attached: None,
        }
    }

    /// An error at `span`, labelled `label`.
    pub fn at(
        code: Code,
        message: impl Into<String>,
        span: Span,
        label: impl Into<String>,
    ) -> Diag {
        Diag::error(code, message).label(span, label)
    }

    /// Adds a labelled span.
    pub fn label(mut self, span: Span, label: impl Into<String>) -> Diag {
        self.labels.push((span, label.into()));
        self
    }

    /// Names what an error of the question is about (see [`Diag::subject`]).
    pub fn subject(mut self, subject: impl Into<String>) -> Diag {
        self.subject = Some(subject.into());
        self
    }

    /// Adds a help line (after any already given, such as a "did you mean").
    pub fn help(mut self, help: impl Into<String>) -> Diag {
        let help = help.into();
        self.help = Some(match self.help.take() {
            Some(before) => format!("{before}\n{help}"),
            None => help,
        });
        self
    }

    /// Makes this stand for `n` problems (`... and 12 more errors` stands for 12).
    pub fn counting(mut self, n: usize) -> Diag {
        self.count = n;
        self
    }

    /// Makes this a warning.
    pub fn warning(mut self) -> Diag {
        self.warning = true;
        self
    }

    /// The primary span, if any.
    pub fn span(&self) -> Option<Span> {
        self.labels.first().map(|(s, _)| *s)
    }

    /// Attaches the source text of the primary span's file, mapping spans onto the text
    /// as the user wrote it. Labels in other files are dropped from the rendering.
    pub fn with_sources(mut self, sources: &SourceMap) -> Diag {
        let Some(primary) = self.span() else {
            return self;
        };
        let Some(file) = sources.get(primary.file) else {
            return self;
        };
        let (off, _) = file.original_span(primary);
        // A very long line cannot be drawn (miette's columns stop at 65535): say where
        // the problem is in words instead.
        let line_start = file.original[..off.min(file.original.len())]
            .rfind('\n')
            .map_or(0, |i| i + 1);
        let line_end = file.original[line_start..]
            .find('\n')
            .map_or(file.original.len(), |i| line_start + i);
        if line_end - line_start > MAX_DRAWN_LINE {
            let line = file.original[..line_start].matches('\n').count() + 1;
            let column = file.original[line_start..off.min(file.original.len())]
                .chars()
                .count()
                + 1;
            self.message = format!(
                "{} ({}, line {line}, column {column})",
                self.message, file.name
            );
            return self;
        }
        // A primary label that covers all the others (`6" + 2` around `6"` and `2`) would
        // be drawn over them: the parts say it better, so it is left out of the drawing.
        let covers_rest = self.labels.len() > 1
            && self.labels[1..].iter().all(|(s, _)| {
                s.file == primary.file && s.start >= primary.start && s.end <= primary.end
            });
        let skip = usize::from(covers_rest);
        let labels = self
            .labels
            .iter()
            .skip(skip)
            .filter(|(s, _)| s.file == primary.file)
            .map(|(s, l)| {
                let (off, len) = file.original_span(*s);
                let (start, end) = (file.display_offset(off), file.display_offset(off + len));
                let span = SourceSpan::new(start.into(), end - start);
                LabeledSpan::new_with_span(Some(l.clone()), span)
            })
            .collect();
        self.attached = Some(Box::new(Attached {
            named: NamedSource::new(file.name.clone(), CharColumns(file.display.clone())),
            labels,
        }));
        self
    }

    /// "Did you mean" help from the closest of `candidates` to `name`, if one is close.
    pub fn suggest<'a>(self, name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Diag {
        match closest(name, candidates) {
            Some(best) => self.help(format!("did you mean `{best}`?")),
            None => self,
        }
    }
}

/// The candidate closest to `name` (Jaro-Winkler ≥ 0.85, or a one- or two-letter slip).
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let mut best: Option<(f64, &str)> = None;
    // A one- or two-letter name is close to too many others to guess from.
    if name.chars().count() < 3 {
        return None;
    }
    for c in candidates {
        let score = strsim::jaro_winkler(name, c);
        let edits = strsim::damerau_levenshtein(name, c);
        // A swapped or mistyped letter, or two in a longer name, or a close spelling.
        let close = score >= 0.85 || edits <= 1 || (name.chars().count() >= 6 && edits <= 2);
        if close && best.is_none_or(|(s, _)| score > s) {
            best = Some((score, c));
        }
    }
    best.map(|(_, c)| c)
}

impl miette::Diagnostic for Diag {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.code.as_str()))
    }
    fn severity(&self) -> Option<Severity> {
        Some(if self.warning {
            Severity::Warning
        } else {
            Severity::Error
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn miette::SourceCode> {
        self.attached
            .as_ref()
            .map(|a| &a.named as &dyn miette::SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.attached
            .as_ref()
            .map(|a| Box::new(a.labels.iter().cloned()) as Box<dyn Iterator<Item = LabeledSpan>>)
    }
}

/// Several diagnostics from one phase (all the errors of a check, not just the first).
#[derive(Debug, Clone, Default)]
pub struct Diags(pub Vec<Diag>);

impl Diags {
    /// Attaches the source text to each diagnostic (see [`Diag::with_sources`]).
    pub fn with_sources(self, sources: &SourceMap) -> Diags {
        Diags(
            self.0
                .into_iter()
                .map(|d| d.with_sources(sources))
                .collect(),
        )
    }

    /// How many errors were found, counting those past the hundred shown (warnings are
    /// not counted).
    pub fn error_count(&self) -> usize {
        self.0.iter().filter(|d| !d.warning).map(|d| d.count).sum()
    }

    /// True when any diagnostic is an error (not a warning).
    pub fn has_errors(&self) -> bool {
        self.0.iter().any(|d| !d.warning)
    }
}

impl From<Diag> for Diags {
    fn from(d: Diag) -> Diags {
        Diags(vec![d])
    }
}

impl fmt::Display for Diags {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diags {}

/// Every problem found in one file, as one report: a headline naming the file and what
/// was found, then each diagnostic beneath it (miette's `related`), in file order.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {summary}")]
pub struct FileReport {
    /// The file, as named on the command line.
    pub file: String,
    summary: String,
    problems: Vec<Diag>,
}

impl FileReport {
    /// The report of `file`'s diagnostics (errors and warnings), sorted by place.
    pub fn new(file: &str, problems: &[Diag]) -> FileReport {
        let mut problems = problems.to_vec();
        problems.sort_by_key(|d| {
            d.labels
                .first()
                .map_or((u32::MAX, u32::MAX), |(s, _)| (s.file.0, s.start))
        });
        let errors = problems.iter().filter(|d| !d.warning).count();
        let warnings = problems.len() - errors;
        let plural = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
        let summary = match (errors, warnings) {
            (0, w) => plural(w, "warning"),
            (e, 0) => plural(e, "error"),
            (e, w) => format!("{} and {}", plural(e, "error"), plural(w, "warning")),
        };
        FileReport {
            file: file.to_string(),
            summary,
            problems,
        }
    }
}

impl miette::Diagnostic for FileReport {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(Code::CheckReport))
    }
    fn severity(&self) -> Option<Severity> {
        Some(if self.problems.iter().all(|d| d.warning) {
            Severity::Warning
        } else {
            Severity::Error
        })
    }
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn miette::Diagnostic> + 'a>> {
        Some(Box::new(
            self.problems.iter().map(|d| d as &dyn miette::Diagnostic),
        ))
    }
}

/// A file's drawn text ([`crate::span::drawn_text`]) for miette, reporting the column of
/// a span in characters (miette's own
/// count is in bytes, so `é`, `½` or `中` earlier on the line would push the
/// `[file:line:column]` header's column past where the caret is drawn), a leading
/// byte-order mark not counted.
#[derive(Debug, Clone)]
struct CharColumns(Arc<str>);

impl miette::SourceCode for CharColumns {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn miette::SpanContents<'a> + 'a>, miette::MietteError> {
        let inner = self.0.read_span(span, before, after)?;
        if inner.column() == 0 {
            return Ok(inner);
        }
        let text: &str = &self.0;
        let at = span.offset().min(text.len());
        let line_start = text[..at].rfind(['\n', '\r']).map_or(0, |i| i + 1);
        // A byte-order mark (what Windows editors put first) is not a character a
        // reader sees: the first column is the one after it.
        let column = text.get(line_start..at).map_or(inner.column(), |s| {
            let s = crate::span::undraw(s);
            s.strip_prefix('\u{FEFF}').unwrap_or(&s).chars().count()
        });
        Ok(Box::new(miette::MietteSpanContents::new(
            inner.data(),
            *inner.span(),
            inner.line(),
            column,
            inner.line_count(),
        )))
    }
}

/// A diagnostic as miette draws it, 100 columns wide, with or without colour.
pub fn render(d: &dyn miette::Diagnostic, colour: bool) -> String {
    let theme = if colour {
        miette::GraphicalTheme::unicode()
    } else {
        miette::GraphicalTheme::unicode_nocolor()
    };
    let mut out = String::new();
    if miette::GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .render_report(&mut out, d)
        .is_err()
    {
        out = format!("error: {d}\n");
    }
    crate::span::undraw(&out)
}

/// Whether diagnostics on stderr are drawn in colour: at a terminal, unless `NO_COLOR`.
pub fn stderr_colour() -> bool {
    use std::io::IsTerminal;
    std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::span::{FileId, SourceFile};

    /// In colour as without, the line is drawn as written (the skin tone of `👍🏽` back in
    /// place, nothing of the frame that hid it from the column count left over), and the
    /// caret stands under `x`: two columns for the emoji, as a terminal draws it.
    #[test]
    fn an_emoji_with_a_skin_tone_is_drawn_whole_and_counts_two_columns() {
        let mut sources = SourceMap::default();
        let (file, text) = sources.add(SourceFile::new("t", "\"👍🏽\" x"));
        assert_eq!(file, FileId(0));
        let at = text.find('x').unwrap_or_default();
        let d = Diag::at(
            Code::CheckUnknownName,
            "unknown name `x`",
            Span::new(file, at, at + 1),
            "here",
        )
        .with_sources(&sources);
        for colour in [false, true] {
            let drawn = render(&d, colour);
            assert!(drawn.contains("\"👍🏽\" x"), "{drawn}");
            assert!(!drawn.contains('\u{F8FF}'), "{drawn}");
            let plain = if colour {
                // Colour codes taken out: ESC [ ... m.
                let mut out = String::new();
                let mut skip = false;
                for c in drawn.chars() {
                    match (skip, c) {
                        (false, '\u{1b}') => skip = true,
                        (true, 'm') => skip = false,
                        (false, c) => out.push(c),
                        _ => {}
                    }
                }
                out
            } else {
                drawn.clone()
            };
            let line = plain
                .lines()
                .find(|l| l.contains("\"👍🏽\" x"))
                .unwrap_or_default();
            let under = plain
                .lines()
                .skip_while(|l| !l.contains("\"👍🏽\" x"))
                .nth(1)
                .unwrap_or_default();
            let gutter = line.find('│').map_or(0, |i| line[..i].chars().count() + 2);
            // `"👍🏽" ` is 5 columns: the caret is in the sixth after the gutter.
            assert_eq!(under.chars().nth(gutter + 5), Some('┬'), "{plain}");
        }
    }
}
