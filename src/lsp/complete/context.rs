//! Where the cursor is: the context read from the tokens of its definition, the locals
//! bound on the way.

use super::text::{arg_name, brackets, is_let_type, operand_before, Header, Tok, Token};
use super::{Context, Let, Local, Scope};
use crate::program::{Global, Signature, Ty};

impl<'a> Scope<'a> {
    /// Works out the context, binding the locals on the way.
    pub(super) fn context_of(
        &mut self,
        text: &str,
        toks: &[Token],
        header: &Header,
        word_start: usize,
        at_column0: bool,
        parsed: Option<Vec<Let>>,
    ) -> Context {
        // The `let`s: from the syntax trees when the document parses, else from the text.
        let (stack, lets) = brackets(text, toks, self.line_begin);
        let lets = parsed.unwrap_or(lets);
        // Parameters are in scope inside the body (and in a modifier list's).
        if header.body.is_some_and(|b| stack.first() == Some(&b)) {
            self.bind_params(header);
        }
        self.bind_lets(lets);
        if text[..word_start].ends_with('.') {
            let end = word_start - 1;
            return Context::Member(operand_before(text, end).to_string());
        }
        match stack.last() {
            None => outside_brackets(&text[..word_start], toks, header, at_column0),
            Some(&open) => self.in_brackets(text, toks, header, open),
        }
    }

    /// Binds the parameters of the cursor's definition as locals.
    fn bind_params(&mut self, header: &Header) {
        let sig = self.signature_of(&header.name);
        for (i, (name, written)) in header.params.iter().enumerate() {
            let ty = self.param_ty(sig, i, name, written);
            self.locals.push(Local {
                name: name.clone(),
                ty,
                written: Some(written.clone()),
                param: true,
            });
        }
    }

    /// The type of parameter `i`, `name`, written `written`: the checked signature's,
    /// when it has that parameter there, else the written one's.
    pub(super) fn param_ty(
        &self,
        sig: Option<&Signature>,
        i: usize,
        name: &str,
        written: &str,
    ) -> Ty {
        sig.and_then(|s| s.params.get(i))
            .filter(|p| *p.name == *name)
            .map_or_else(|| self.resolve(written), |p| p.ty.clone())
    }

    /// Binds `let`s (name, type as written, value as written) as locals, in order.
    pub(super) fn bind_lets(&mut self, lets: Vec<Let>) {
        for (name, written, value) in lets {
            let ty = match &written {
                Some(w) => self.resolve(w),
                None => self.type_of(&value).unwrap_or(Ty::Any),
            };
            self.locals.push(Local {
                name,
                ty,
                written,
                param: false,
            });
        }
    }

    /// Inside the bracket opened at token `open`.
    fn in_brackets(&self, text: &str, toks: &[Token], header: &Header, open: usize) -> Context {
        let last = toks.last();
        let last_mark = last.and_then(|t| match t.tok {
            Tok::Mark(m) => Some(m),
            _ => None,
        });
        if matches!(last_mark, Some("==") | Some("!=")) {
            let end = last.map_or(0, |t| t.start);
            return Context::Compared(operand_before(text, end).to_string());
        }
        let after_colon = last_mark == Some(":");
        if Some(open) == header.paren {
            return type_or_expression(after_colon);
        }
        if after_colon && is_let_type(text, toks) {
            return Context::Type;
        }
        match toks[open].tok {
            Tok::Mark("(") => self.in_paren(text, toks, open),
            Tok::Mark("{") if Some(open) == header.body => {
                self.in_body(toks, open, header, after_colon)
            }
            Tok::Mark("{") => self.in_braces(text, toks, header, open),
            _ => Context::Expression(None),
        }
    }

    /// In the body of the cursor's definition, outside any other bracket.
    fn in_body(&self, toks: &[Token], open: usize, header: &Header, after_colon: bool) -> Context {
        match header.keyword.as_str() {
            "table" => self.in_rows(toks, open, header, None),
            "example" => self.statement(toks, open, true),
            "record" | "state" => type_or_expression(after_colon),
            "enum" | "list" | "interpretation" => Context::Nothing,
            _ => self.statement(toks, open, false),
        }
    }

    /// In a `{` inside a body: a `match`'s arms, a record written in place, a table's
    /// `column` block, or a block of statements.
    fn in_braces(&self, text: &str, toks: &[Token], header: &Header, open: usize) -> Context {
        let mut words: Vec<&str> = toks[..open]
            .iter()
            .rev()
            .take_while(|t| !matches!(t.tok, Tok::Mark("{" | "}" | ";")))
            .map(|t| &text[t.start..t.end])
            .collect();
        words.reverse();
        if let Some(m) = words.iter().rposition(|w| *w == "match") {
            let subject = words[m + 1..].join(" ");
            if self.in_pattern(toks, open) {
                return Context::Pattern(self.type_of(&subject));
            }
            return Context::Expression(None);
        }
        let name = operand_before(text, toks[open].start);
        if let Some(Global::RecordType(r)) = self.program().and_then(|p| p.globals.get(name)) {
            return self.in_record(text, toks, open, *r);
        }
        if words.first() == Some(&"column") && header.keyword == "table" {
            let key = words.get(1).copied();
            return self.in_rows(toks, open, header, key);
        }
        self.statement(toks, open, false)
    }

    /// In a `(`: a call's arguments, an `in (...)`'s patterns, or brackets.
    pub(super) fn in_paren(&self, text: &str, toks: &[Token], open: usize) -> Context {
        let head = open.checked_sub(1).map(|i| &toks[i]);
        match head {
            Some(h) if h.tok == Tok::Word && &text[h.start..h.end] == "in" => {
                let mut end = h.start;
                if let Some(n) = open.checked_sub(2).map(|i| &toks[i]) {
                    if &text[n.start..n.end] == "not" {
                        end = n.start;
                    }
                }
                return Context::Compared(operand_before(text, end).to_string());
            }
            Some(h) if h.tok == Tok::Word && h.end == toks[open].start => {}
            _ => return Context::Expression(None),
        }
        let callee = operand_before(text, toks[open].start).to_string();
        let (given, value_of) = arguments(text, toks, open);
        let placed = given.iter().filter(|n| n.is_none()).count();
        Context::Call {
            callee,
            named: given.into_iter().flatten().collect(),
            placed,
            value_of,
        }
    }

    /// In the braces (opened at `open`) of a record of the declared type `record`.
    pub(super) fn in_record(
        &self,
        text: &str,
        toks: &[Token],
        open: usize,
        record: u32,
    ) -> Context {
        let (given, value_of) = arguments(text, toks, open);
        Context::Record {
            record,
            given: given.into_iter().flatten().collect(),
            value_of,
        }
    }

    /// In a table's body (or a `column` block of it, whose key is `fixed`): a row's
    /// pattern for a key, or its cell.
    pub(super) fn in_rows(
        &self,
        toks: &[Token],
        open: usize,
        header: &Header,
        fixed: Option<&str>,
    ) -> Context {
        let sig = self.signature_of(&header.name);
        if !self.in_pattern(toks, open) {
            // A cell: of the table's type.
            let written = header.returns.as_deref().map(|w| self.resolve(w));
            return Context::Cell(sig.map(|s| s.ret.clone()).or(written));
        }
        let bars = self
            .on_line(toks, open)
            .iter()
            .filter(|t| t.tok == Tok::Mark("|"))
            .count();
        // The keys as written, or (a patch of a base's table: `override table NAME {`)
        // as the last program has them.
        let keys: Vec<(String, Ty)> = if header.keys > 0 {
            header.params[..header.keys.min(header.params.len())]
                .iter()
                .enumerate()
                .map(|(k, (name, written))| (name.clone(), self.param_ty(sig, k, name, written)))
                .collect()
        } else {
            let keys = self.program().and_then(|p| {
                p.tables
                    .iter()
                    .find(|t| *t.sig.name == header.name)
                    .map(|t| t.keys)
            });
            sig.map_or_else(Vec::new, |s| {
                s.params
                    .iter()
                    .take(keys.unwrap_or(0))
                    .map(|p| (p.name.to_string(), p.ty.clone()))
                    .collect()
            })
        };
        let keys: Vec<&Ty> = keys
            .iter()
            .filter(|(name, _)| Some(name.as_str()) != fixed)
            .map(|(_, ty)| ty)
            .collect();
        Context::Pattern(keys.get(bars).map(|t| (*t).clone()))
    }

    /// The tokens of the cursor's line before it (those after the bracket `open`).
    pub(super) fn on_line<'t>(&self, toks: &'t [Token], open: usize) -> &'t [Token] {
        let first = toks
            .iter()
            .position(|t| t.start >= self.line_begin)
            .unwrap_or(toks.len())
            .max(open + 1)
            .min(toks.len());
        &toks[first..]
    }

    /// In a block of rows opened at `open`: whether the cursor is in a row's patterns (no
    /// `=>` on its line before it) rather than its cell.
    pub(super) fn in_pattern(&self, toks: &[Token], open: usize) -> bool {
        !self
            .on_line(toks, open)
            .iter()
            .any(|t| t.tok == Tok::Mark("=>"))
    }

    /// In the block opened at `open`: a statement (or an example's line) may start at the
    /// cursor (the first on its line, or after `{` or `;`), or only an expression.
    pub(super) fn statement(&self, toks: &[Token], open: usize, example: bool) -> Context {
        let starts = self.on_line(toks, open).is_empty()
            || matches!(toks.last().map(|t| &t.tok), Some(Tok::Mark("{" | ";")));
        Context::Expression(starts.then_some(example))
    }
}

/// Outside every bracket of the cursor's definition (`before`: the text up to the
/// cursor's word): where a definition may start, a type after `:`, or an expression.
fn outside_brackets(before: &str, toks: &[Token], header: &Header, at_column0: bool) -> Context {
    let before = before.trim_end();
    let closed = header.body.is_some();
    if closed || at_column0 || toks.len() <= 1 {
        Context::TopLevel
    } else if before.ends_with(':') && !before.ends_with("::") {
        Context::Type
    } else {
        Context::Expression(None)
    }
}

/// After a `:` a type, else an expression.
fn type_or_expression(after_colon: bool) -> Context {
    if after_colon {
        Context::Type
    } else {
        Context::Expression(None)
    }
}

/// The arguments (or fields) after the bracket at token `open`: the name of each one
/// ended by a `,` (`None` for one given by place), and the name of the one being written.
fn arguments(text: &str, toks: &[Token], open: usize) -> (Vec<Option<String>>, Option<String>) {
    let mut given = Vec::new();
    let mut depth = 0usize;
    let mut start = open + 1;
    for (i, t) in toks.iter().enumerate().skip(open + 1) {
        match t.tok {
            Tok::Mark("(" | "[" | "{") => depth += 1,
            Tok::Mark(")" | "]" | "}") => depth = depth.saturating_sub(1),
            Tok::Mark(",") if depth == 0 => {
                given.push(arg_name(text, &toks[start..i]));
                start = i + 1;
            }
            _ => {}
        }
    }
    (given, arg_name(text, &toks[start..]))
}
