//! The checker: AST → [`Program`]. Resolves every name to an index, types every
//! expression (units included: a length plus a plain number is an error), and collects
//! every problem it finds rather than stopping at the first.

use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::program::*;
use crate::span::{SourceMap, Span};
use crate::syntax::ast;
use crate::syntax::ast::{BinOp, LengthUnit, UnOp};
use crate::value::{Length, Rational, Value};
use num_traits::CheckedMul;
use std::borrow::Cow;
use std::rc::Rc;

mod advice;
mod blocks;
mod calls;
mod coverage;
mod declare;
mod definitions;
mod expr;
mod ordered;
mod shadow;
mod tables;
mod types;

#[derive(Clone, Copy, PartialEq)]
enum State {
    Todo,
    Busy,
    Done,
}

/// The definitions of the ruleset's syntax tree still to check, read where they are
/// (not copied).
#[derive(Default)]
struct Pending<'a> {
    consts: Vec<(&'a ast::ConstDef, State)>,
    rules: Vec<(&'a ast::RuleDef, State)>,
    tables: Vec<(&'a ast::TableDef, State)>,
    modifiers: Vec<(&'a ast::ModifiersDef, State)>,
    records: Vec<(u32, &'a ast::RecordDef)>,
}

/// Local names in scope, innermost last.
#[derive(Default)]
struct Scope {
    vars: Vec<(String, u32, Ty)>,
    slots: u32,
    /// Whether each slot's name has been read, for "unused" warnings.
    used: Vec<bool>,
}

impl Scope {
    /// The scope a body starts in: the definition's parameters, slots 0..n.
    fn params(sig: &Signature) -> Scope {
        let mut scope = Scope::default();
        for p in &sig.params {
            scope.bind(&p.name, p.ty.clone());
        }
        scope
    }

    fn bind(&mut self, name: &str, ty: Ty) -> u32 {
        let slot = self.slots;
        self.slots += 1;
        self.vars.push((name.to_string(), slot, ty));
        self.used.push(false);
        slot
    }

    /// Looks a name up and marks it read.
    fn lookup_use(&mut self, name: &str) -> Option<(u32, Ty)> {
        let found = self.lookup(name);
        if let Some((slot, _)) = found {
            if let Some(u) = self.used.get_mut(slot as usize) {
                *u = true;
            }
        }
        found
    }

    fn is_used(&self, slot: u32) -> bool {
        self.used.get(slot as usize).copied().unwrap_or(true)
    }
    fn lookup(&self, name: &str) -> Option<(u32, Ty)> {
        self.vars
            .iter()
            .rev()
            .find(|(n, _, _)| n == name)
            .map(|(_, s, t)| (*s, t.clone()))
    }
}

/// What the checker is given besides the program and the text: the limits (the dice in
/// one roll and the sides of a die are checked where they are written), and the members
/// of the game state's groups (a bare `second_foot` is answered with
/// `brigade.second_foot`).
#[derive(Debug, Clone, Default)]
pub struct CheckOptions {
    /// The limits checked against.
    pub limits: crate::limits::Limits,
    /// Each member of a group of the loaded state: (the group's path, the member's
    /// name), e.g. `("brigade", "second_foot")`; empty when no state is loaded.
    pub members: Vec<(String, String)>,
}

/// Checks a parsed ruleset file into a program; `sources` holds the files it was parsed
/// from. Returns the program and its warnings.
///
/// Errors: every error found (with the warnings among them), sources not yet attached.
pub fn check_file(
    ast: &ast::File,
    sources: &SourceMap,
    opts: &CheckOptions,
) -> Result<(Program, Vec<Diag>), Diags> {
    let mut c = Checker::new(Cow::Owned(Program::default()), sources, opts);
    c.declare(ast);
    c.check_all();
    c.check_examples(ast);
    c.reachable_rolls();
    if c.errors.iter().all(|d| d.warning) {
        c.unused_enum_values();
    }
    let mut errors = std::mem::take(&mut c.errors);
    if c.more_errors > 0 {
        errors.push(
            Diag::error(
                Code::CheckMoreErrors,
                format!("... and {} more errors", c.more_errors),
            )
            .counting(c.more_errors),
        );
    }
    if c.more_warnings > 0 {
        errors.push(
            Diag::error(
                Code::CheckMoreWarnings,
                format!("... and {} more warnings", c.more_warnings),
            )
            .warning(),
        );
    }
    if errors.iter().any(|d| !d.warning) {
        Err(Diags(errors))
    } else {
        Ok((c.prog.0.into_owned(), errors))
    }
}

/// Checks an expression against a checked program (which it leaves as it is); `sources`
/// holds the program's files and the expression's, and the query keeps a copy.
pub fn check_query(
    program: &Program,
    sources: &SourceMap,
    expr: &ast::Expr,
    opts: &CheckOptions,
) -> Result<Query, Diags> {
    check_query_with(program, sources, expr, &[], opts)
}

/// Checks an expression in which each of `bound` (name, type) is a local, in slots
/// 0, 1, ... in that order (`--each u=units` binds `u` to each member in turn).
pub fn check_query_with(
    program: &Program,
    sources: &SourceMap,
    expr: &ast::Expr,
    bound: &[(String, Ty)],
    opts: &CheckOptions,
) -> Result<Query, Diags> {
    let mut c = Checker::new(Cow::Borrowed(program), sources, opts);
    let mut scope = Scope::default();
    for (name, ty) in bound {
        scope.bind(name, ty.clone());
    }
    let (e, ty) = c.expr(expr, &mut scope, None);
    question_lets(&mut c.errors, expr, sources);
    if c.errors.iter().any(|d| !d.warning) {
        return Err(Diags(c.errors));
    }
    Ok(Query {
        expr: e,
        slots: scope.slots,
        ty,
        sources: sources.clone(),
        code: None,
    })
}

/// A question's `let` that the question never reads is an error, not a warning: in a
/// question typed on one line it is almost always a slip, as in `let n = 2 d6` (the
/// `let n = 2`, then the question `d6`), which gets "did you mean `2d6`?".
fn question_lets(errors: &mut [Diag], expr: &ast::Expr, sources: &SourceMap) {
    let ast::ExprKind::Block(b) = &expr.kind else {
        return;
    };
    for s in &b.stmts {
        let ast::Stmt::Let(name, _, value) = s else {
            continue;
        };
        let Some(d) = errors
            .iter_mut()
            .find(|d| d.warning && d.code == Code::CheckUnusedLet && d.span() == Some(name.span))
        else {
            continue;
        };
        d.warning = false;
        d.message = format!(
            "`{}` is worked out but the question never reads it",
            name.node
        );
        d.help = None;
        if let Some(dice) = glued_dice(value, sources) {
            let count = sources.snippet(value.span).trim();
            *d = d
                .clone()
                .label(value.span, "the `let` ends here")
                .help(format!(
                    "did you mean `{count}{dice}`? (no space between the count and the `d`: \
                 `{count} {dice}` is `let {} = {count}`, then the question `{dice}`)",
                    name.node
                ));
        } else {
            *d = d
                .clone()
                .help("use it in the question, or remove the `let`");
        }
    }
}

/// Where a `let`'s value is a bare whole number followed on the same line by dice (`let n
/// = 2 d6`), the dice as written (`d6`).
fn glued_dice(value: &ast::Expr, sources: &SourceMap) -> Option<String> {
    if !matches!(&value.kind, ast::ExprKind::Number(n) if n.is_integer()) {
        return None;
    }
    let text = &sources.get(value.span.file)?.text;
    let rest = text.get(value.span.end as usize..)?;
    let rest = rest.trim_start_matches([' ', '\t']);
    let word: String = rest
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    let sides = word.strip_prefix('d')?;
    (!sides.is_empty() && sides.chars().all(|c| c.is_ascii_digit())).then_some(word)
}

/// Compiles `set PATH = EXPR` typed on its own (the REPL's `:set`) into a query whose
/// one effect is the change; its value is `true`.
///
/// Errors: PATH is not a path into the game state, or EXPR does not fit it.
pub fn check_set_query(
    program: &Program,
    sources: &SourceMap,
    stmt: &ast::Stmt,
    span: Span,
    opts: &CheckOptions,
) -> Result<Query, Diags> {
    let mut c = Checker::new(Cow::Borrowed(program), sources, opts);
    let mut scope = Scope::default();
    let ast::Stmt::Set { target, op, value } = stmt else {
        return Err(Diags::from(Diag::at(
            Code::ParseSyntax,
            "write `set PATH = VALUE`",
            span,
            "not a `set`",
        )));
    };
    let set = c.set(target, *op, value, &mut scope);
    match set {
        Some(set) if c.errors.iter().all(|d| d.warning) => Ok(Query {
            expr: Expr {
                kind: ExprKind::Block(
                    vec![Stmt::Set(Box::new(set))],
                    Box::new(Expr {
                        kind: ExprKind::Value(Value::Bool(true)),
                        span,
                    }),
                ),
                span,
            },
            slots: scope.slots,
            ty: Ty::Bool,
            sources: sources.clone(),
            code: None,
        }),
        _ => Err(Diags(c.errors)),
    }
}

/// The program a checker works on: its own while a ruleset is checked into it, borrowed
/// while a question is checked against it. A question only reads it; were it to write,
/// the write would go to a copy (`Cow`), never to the ruleset's program.
struct Target<'p>(Cow<'p, Program>);

impl std::ops::Deref for Target<'_> {
    type Target = Program;
    fn deref(&self) -> &Program {
        &self.0
    }
}

impl std::ops::DerefMut for Target<'_> {
    fn deref_mut(&mut self) -> &mut Program {
        // Checking a question never writes: tests (debug builds) hold it to that.
        debug_assert!(
            matches!(self.0, Cow::Owned(_)),
            "checking a question wrote to its program"
        );
        self.0.to_mut()
    }
}

struct Checker<'p> {
    prog: Target<'p>,
    /// The source text its spans point into (rows and bodies are read as written).
    sources: &'p SourceMap,
    pend: Pending<'p>,
    errors: Vec<Diag>,
    /// The citation of the definition being checked (refusals inherit it).
    cite: Option<Rc<str>>,
    /// Definitions being checked out of turn, one inside another.
    on_demand: usize,
    /// Errors found past [`MAX_ERRORS`].
    more_errors: usize,
    /// Warnings found past [`MAX_ERRORS`] of them.
    more_warnings: usize,
    /// Tables with an error in their rows (some rows may be missing from the program,
    /// so their coverage is not judged).
    broken_tables: std::collections::HashSet<usize>,
    /// The limits the dice written in the source are checked against.
    limits: crate::limits::Limits,
    /// The members of the state's groups (see [`CheckOptions::members`]).
    members: Vec<(String, String)>,
    /// The argument being checked, for messages that name its parameter.
    slot: Option<Slot>,
    /// Enum values named by ranges and lists so far (see `ordered.rs`).
    expanded: usize,
}

/// An argument being checked: where it is written, and how a message names it
/// (``the 3rd argument of `formation_change_cost`, `cadenced`,``).
#[derive(Clone)]
struct Slot {
    span: Span,
    subject: String,
    written: advice::Written,
}

/// Most errors reported from one ruleset.
const MAX_ERRORS: usize = 100;

/// Longest chain of definitions checked out of turn (see `Checker::on_demand`).
const MAX_ON_DEMAND: usize = 32;

fn rc(s: &str) -> Rc<str> {
    Rc::from(s)
}

fn dummy(span: Span) -> Expr {
    Expr {
        kind: ExprKind::Value(Value::Bool(false)),
        span,
    }
}

fn idx(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

impl<'p> Checker<'p> {
    fn new(prog: Cow<'p, Program>, sources: &'p SourceMap, opts: &CheckOptions) -> Checker<'p> {
        Checker {
            prog: Target(prog),
            sources,
            pend: Pending::default(),
            errors: Vec::new(),
            cite: None,
            on_demand: 0,
            more_errors: 0,
            more_warnings: 0,
            broken_tables: Default::default(),
            limits: opts.limits,
            members: opts.members.clone(),
            slot: None,
            expanded: 0,
        }
    }

    fn err(&mut self, d: Diag) {
        // One mistake met several times (a misspelled `column` value, read for each row
        // of its block) is reported once.
        if self
            .errors
            .iter()
            .any(|e| e.code == d.code && e.labels == d.labels && e.message == d.message)
        {
            return;
        }
        // Past the first hundred, a ruleset has one mistake repeated: say how many more.
        // Errors and warnings are counted apart: warnings never crowd out an error.
        let kept = self
            .errors
            .iter()
            .filter(|e| e.warning == d.warning)
            .count();
        if kept < MAX_ERRORS {
            self.errors.push(d);
        } else if d.warning {
            self.more_warnings += 1;
        } else {
            self.more_errors += 1;
        }
    }

    /// Every top-level name, for "did you mean"; none once the error list is full
    /// (nobody reads the suggestions past it, and finding them costs time).
    fn all_names(&self) -> Vec<String> {
        if self.errors.len() >= MAX_ERRORS {
            return Vec::new();
        }
        let mut v: Vec<String> = self.prog.globals.keys().cloned().collect();
        v.extend(self.prog.enum_values.keys().cloned());
        v.extend(Builtin::ALL.iter().map(|(n, _)| n.to_string()));
        v
    }

    // ------------------------------------------------------------------ declarations
}

/// An expression checked in its own scope, to be evaluated in its own frame.
fn fresh(e: Expr, scope: &Scope) -> Expr {
    if scope.slots == 0 {
        return e;
    }
    let span = e.span;
    Expr {
        kind: ExprKind::Fresh {
            value: Box::new(e),
            slots: scope.slots,
        },
        span,
    }
}

/// The range of a declared type, if it is a range.
fn declared_range(t: Option<&ast::TypeExpr>) -> Option<NumRange> {
    match t {
        Some(ast::TypeExpr::Range { lo, hi, .. }) => {
            Some(NumRange::Int(IntRange { lo: *lo, hi: *hi }))
        }
        Some(ast::TypeExpr::LengthRange { lo, hi, .. }) => match (lo, hi) {
            (ast::RangeEnd::Length(lo), None) => {
                Some(NumRange::Length(LengthRange { lo: *lo, hi: None }))
            }
            (ast::RangeEnd::Length(lo), Some(ast::RangeEnd::Length(hi))) => {
                Some(NumRange::Length(LengthRange {
                    lo: *lo,
                    hi: Some(*hi),
                }))
            }
            // Mixed: refused where the type is declared.
            _ => None,
        },
        _ => None,
    }
}

impl Checker<'_> {
    /// Wraps `e` in a range check when a range is declared; a whole number or length
    /// written out (`const c: 1..6 = 9`, `width: 0".. = -2"`) is checked here, before
    /// anything is adjudicated.
    fn ranged(&mut self, e: Expr, range: Option<NumRange>, what: String) -> Expr {
        self.written_in_range(&e, range, &what);
        ranged(e, range, what)
    }

    /// Reports a number or length written out (`9`, `-3`, `-2"`) outside `range`,
    /// before any adjudication.
    fn written_in_range(&mut self, e: &Expr, range: Option<NumRange>, what: &str) {
        let Some(r) = range else { return };
        let written = match &e.kind {
            ExprKind::Value(v @ (Value::Int(_) | Value::Frac(_) | Value::Length(_))) => {
                Some(v.clone())
            }
            ExprKind::Neg(x) => match &x.kind {
                ExprKind::Value(Value::Int(n)) => n.checked_neg().map(Value::Int),
                ExprKind::Value(Value::Frac(n)) => Some(Value::num(-*n)),
                ExprKind::Value(Value::Length(l)) => Some(Value::Length(Length {
                    inches: -l.inches,
                    unit: l.unit,
                })),
                _ => None,
            },
            _ => None,
        };
        let Some(v) = written else { return };
        // A value of the other kind (`width: 2` for a length) is a type error, said
        // where the types are checked: not also "out of range".
        let same_kind = matches!(
            (r, &v),
            (NumRange::Int(_), Value::Int(_) | Value::Frac(_))
                | (NumRange::Length(_), Value::Length(_))
        );
        if same_kind && !r.contains(&v) {
            let shown = match &v {
                Value::Int(n) => n.to_string(),
                Value::Frac(n) => crate::value::Mixed(*n).to_string(),
                Value::Length(l) => l.to_string(),
                _ => "a value of another kind".to_string(),
            };
            self.err(Diag::at(
                Code::CheckRange,
                format!("{what} must be {r}, but is {shown}"),
                e.span,
                "out of range",
            ));
        }
    }
}

/// Wraps `e` in a range check when a range is declared.
fn ranged(e: Expr, range: Option<NumRange>, what: String) -> Expr {
    match range {
        Some(range) => {
            let span = e.span;
            Expr {
                kind: ExprKind::InRange {
                    value: Box::new(e),
                    range,
                    what: rc(&what),
                },
                span,
            }
        }
        None => e,
    }
}

pub use crate::program::compatible;
