//! The checked program: names resolved to indices, types known, ready to evaluate.
//!
//! Produced by [`crate::check`] from the AST; read by [`crate::eval`]. Locals are slots
//! in a frame, definitions are indices into the vectors below: nothing is looked up by
//! string while adjudicating.

use crate::span::{SourceMap, Span};
use crate::syntax::ast::{BinOp, Expectation};
use crate::value::{EnumId, Value};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// A static type.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// A whole number.
    Int,
    /// An exact number, whole or fraction.
    Num,
    /// A length (inches / feet).
    Length,
    /// Time in moves.
    Time,
    /// `true` / `false`
    Bool,
    /// Text.
    Text,
    /// An enum.
    Enum(EnumId),
    /// A record: its shape.
    Record(Rc<RecordShape>),
    /// Two values of one type.
    Pair(Box<Ty>),
    /// Named members of one type (`group of Unit`), as a state file lists them.
    Group(Box<Ty>),
    /// The type of `refuse` and `not given`: no value.
    Never,
    /// Not known until run time.
    Any,
}

/// `a Grade`, `an Arm`.
fn article(name: &str) -> String {
    let vowel = name.chars().next().is_some_and(|c| "AEIOaeio".contains(c));
    format!("{} {name}", if vowel { "an" } else { "a" })
}

/// The fields of a record type, in declared order.
#[derive(Debug, Clone, PartialEq)]
pub struct RecordShape {
    /// The declared name, if the record type was declared.
    pub name: Option<String>,
    /// Fields and their types.
    pub fields: Vec<(Rc<str>, Ty)>,
    /// How deep records and pairs nest inside this one (1 for a record of plain values).
    pub depth: u32,
    /// How many plain values a value of this shape holds, all nesting expanded.
    pub size: u64,
    /// The declared record type (index into `Program::records`), if declared.
    pub record: Option<u32>,
}

impl RecordShape {
    /// This shape as the declared record type `id`.
    pub fn declared(mut self, id: u32) -> RecordShape {
        self.record = Some(id);
        self
    }

    /// A shape, with its depth worked out from its fields.
    pub fn new(name: Option<String>, fields: Vec<(Rc<str>, Ty)>) -> RecordShape {
        let depth = 1 + fields.iter().map(|(_, t)| t.depth()).max().unwrap_or(0);
        let size = fields
            .iter()
            .fold(0u64, |n, (_, t)| n.saturating_add(t.size()))
            .max(1);
        RecordShape {
            name,
            fields,
            depth,
            size,
            record: None,
        }
    }
}

/// Deepest nesting of records and pairs in one value.
pub const MAX_VALUE_DEPTH: u32 = 32;

/// Most plain values one record or pair may hold, all nesting expanded: a value is
/// printed and compared by walking it, and one that doubles at each level soon could
/// not be.
pub const MAX_VALUE_SIZE: u64 = 10_000;

impl Ty {
    /// How deep records and pairs nest in a value of this type.
    pub fn depth(&self) -> u32 {
        match self {
            Ty::Pair(t) | Ty::Group(t) => 1 + t.depth(),
            Ty::Record(s) => s.depth,
            _ => 0,
        }
    }

    /// How many plain values a value of this type holds, all nesting expanded.
    pub fn size(&self) -> u64 {
        match self {
            Ty::Pair(t) => t.size().saturating_mul(2),
            Ty::Record(s) => s.size,
            _ => 1,
        }
    }

    /// The type as a ruleset writes it: `Int`, `Length`, `Unit`, `(Int, Int)`,
    /// `group of Unit` (an anonymous record is `record`; no type is `?`).
    pub fn name(&self, p: &Program) -> String {
        match self {
            Ty::Int => "Int".into(),
            Ty::Num => "Num".into(),
            Ty::Length => "Length".into(),
            Ty::Time => "Time".into(),
            Ty::Bool => "Bool".into(),
            Ty::Text => "Text".into(),
            Ty::Enum(e) => p
                .enums
                .get(usize::from(*e))
                .map_or("?".into(), |e| e.name.clone()),
            Ty::Record(s) => s.name.clone().unwrap_or_else(|| "record".into()),
            Ty::Pair(t) => format!("({0}, {0})", t.name(p)),
            Ty::Group(t) => format!("group of {}", t.name(p)),
            Ty::Never | Ty::Any => "?".into(),
        }
    }

    /// Names a type for messages, using the program's enum names.
    pub fn describe(&self, p: &Program) -> String {
        match self {
            Ty::Int => "a whole number (Int)".into(),
            Ty::Num => "a number".into(),
            Ty::Length => "a length".into(),
            Ty::Time => "a time in moves".into(),
            Ty::Bool => "true/false (Bool)".into(),
            Ty::Text => "text".into(),
            Ty::Enum(e) => article(
                p.enums
                    .get(usize::from(*e))
                    .map_or("?", |e| e.name.as_str()),
            ),
            Ty::Record(s) => match &s.name {
                Some(n) => format!("{} record", article(n)),
                None => {
                    let f: Vec<&str> = s.fields.iter().map(|(n, _)| &**n).collect();
                    format!("a record {{ {} }}", f.join(", "))
                }
            },
            Ty::Pair(t) => format!("a pair (each part {})", t.describe(p)),
            Ty::Group(t) => format!("a group (each member {})", t.describe(p)),
            Ty::Never => "no value (a refusal)".into(),
            Ty::Any => "any value".into(),
        }
    }
}

/// A whole-number range on a parameter or field, bounds inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct IntRange {
    /// Lowest allowed.
    pub lo: i64,
    /// Highest allowed, if bounded.
    pub hi: Option<i64>,
}

impl fmt::Display for IntRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.hi {
            Some(hi) => write!(f, "{}..{}", self.lo, hi),
            None => write!(f, "{} or more", self.lo),
        }
    }
}

/// A parameter of a rule, table or modifier list.
#[derive(Debug, Clone)]
pub struct ParamInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Its type.
    pub ty: Ty,
    /// Bounds, for a ranged integer.
    pub range: Option<IntRange>,
    /// Where it was declared.
    pub span: Span,
    /// The value used when a call leaves it out (a constant expression).
    pub default: Option<Expr>,
    /// Whether it has a default (known before the default is checked).
    pub has_default: bool,
}

/// Whose default a [`ExprKind::Default`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultOf {
    /// A field of this record type.
    Record(u32),
    /// A parameter of this rule, table or modifier list.
    Param(Callee),
}

/// An ambiguous sentence of the source and its readings: an enum whose values are the
/// readings, one of which is chosen (or the default) when adjudicating.
#[derive(Debug, Clone)]
pub struct InterpretationInfo {
    /// Its name.
    pub name: Rc<str>,
    /// What the source leaves open.
    pub text: Rc<str>,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// The enum of its readings.
    pub readings: EnumId,
    /// The reading used unless another is chosen (none: "not given" until one is).
    pub default: Option<u16>,
}

/// An enum type with the rulebook's words for each value.
#[derive(Debug, Clone)]
pub struct EnumInfo {
    /// Type name.
    pub name: String,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// Values in order.
    pub values: Vec<EnumValueInfo>,
}

/// One enum value.
#[derive(Debug, Clone)]
pub struct EnumValueInfo {
    /// Name as written in rules (`well_handled`).
    pub name: Rc<str>,
    /// The rulebook's words (`Well Handled`).
    pub display: Option<Rc<str>>,
    /// The rulebook's sentence (`Unit may move at Full Move Rate`).
    pub sentence: Option<Rc<str>>,
    /// Where it was declared.
    pub span: Span,
}

/// A declared record type.
#[derive(Debug, Clone)]
pub struct RecordInfo {
    /// Type name.
    pub name: String,
    /// Its shape.
    pub shape: Rc<RecordShape>,
    /// Field defaults, by field index.
    pub defaults: Vec<Option<Expr>>,
    /// Which fields have a default (known before the defaults are checked).
    pub has_default: Vec<bool>,
    /// The defaults that are written-out values (what a state file may leave out).
    pub default_values: Vec<Option<Value>>,
    /// Field ranges, by field index.
    pub ranges: Vec<Option<IntRange>>,
}

/// A constant.
#[derive(Debug, Clone)]
pub struct ConstInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Its type.
    pub ty: Ty,
    /// Its value expression.
    pub value: Expr,
    /// Frame slots its expression needs.
    pub slots: u32,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
}

/// A rule (procedure).
#[derive(Debug, Clone)]
pub struct RuleInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Parameters (slots 0..n).
    pub params: Vec<ParamInfo>,
    /// Result type.
    pub ret: Ty,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// Body.
    pub body: Expr,
    /// Frame slots (parameters and lets).
    pub slots: u32,
    /// Where it was defined.
    pub span: Span,
}

/// A table: rows matched against key arguments, first match gives the cell.
#[derive(Debug, Clone)]
pub struct TableInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Key parameters, then extra parameters (slots 0..n).
    pub params: Vec<ParamInfo>,
    /// How many of `params` are keys.
    pub keys: usize,
    /// Cell type.
    pub ret: Ty,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// Rows.
    pub rows: Vec<RowInfo>,
    /// Frame slots.
    pub slots: u32,
    /// Where it was defined.
    pub span: Span,
}

/// One table row.
#[derive(Debug, Clone)]
pub struct RowInfo {
    /// One pattern per key.
    pub patterns: Vec<Pat>,
    /// The cell.
    pub cell: Expr,
    /// The patterns as written (`7 or more`, `infantry | embark`).
    pub text: Rc<str>,
    /// Where the row was written.
    pub span: Span,
    /// For a row a house rule put in: what it cites (else the table's section).
    pub cite: Option<Rc<str>>,
}

/// A die roll modifier list.
#[derive(Debug, Clone)]
pub struct ModifiersInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Parameters.
    pub params: Vec<ParamInfo>,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// The modifiers.
    pub modifiers: Vec<ModifierInfo>,
    /// Frame slots.
    pub slots: u32,
    /// Whole-number total?
    pub ret: Ty,
    /// Where it was defined.
    pub span: Span,
}

/// One modifier.
#[derive(Debug, Clone)]
pub struct ModifierInfo {
    /// The rulebook's label.
    pub label: Rc<str>,
    /// The amount.
    pub amount: Expr,
    /// Times applied.
    pub per: Option<Expr>,
    /// When it applies.
    pub condition: Option<Expr>,
    /// Put into a base list by a house rule (`extends`): its explanation says so.
    pub house: bool,
}

/// A checked `example` block.
#[derive(Debug, Clone)]
pub struct ExampleInfo {
    /// Its name.
    pub name: String,
    /// Given rolls.
    pub rolls: Vec<(i64, Span)>,
    /// Seed.
    pub seed: Option<u64>,
    /// Checks.
    pub checks: Vec<CheckInfo>,
    /// Readings it is read with (interpretation, reading).
    pub readings: Vec<(u32, u16)>,
    /// Where it was written.
    pub span: Span,
}

/// One checked expectation.
#[derive(Debug, Clone)]
pub struct CheckInfo {
    /// The expression (for `A == B` the whole comparison).
    pub query: Query,
    /// `is refused` / `is not given`.
    pub expect: Option<Expectation>,
    /// The check as written.
    pub span: Span,
}

/// A compiled expression ready to adjudicate.
#[derive(Debug, Clone)]
pub struct Query {
    /// The expression.
    pub expr: Expr,
    /// Frame slots it needs.
    pub slots: u32,
    /// Its static type.
    pub ty: Ty,
}

/// A key pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Pat {
    /// Matches anything.
    Any,
    /// Matches any of these.
    Alts(Vec<Alt>),
}

impl Pat {
    /// Does `v` match this pattern?
    pub fn matches(&self, v: &Value) -> bool {
        use crate::value::Rational;
        match self {
            Pat::Any => true,
            Pat::Alts(alts) => alts.iter().any(|a| match (a, v) {
                (Alt::AtLeast(n), Value::Num(r)) => *r >= Rational::from_integer(*n),
                (Alt::AtMost(n), Value::Num(r)) => *r <= Rational::from_integer(*n),
                (Alt::Range(lo, hi), Value::Num(r)) => {
                    *r >= Rational::from_integer(*lo) && *r <= Rational::from_integer(*hi)
                }
                (Alt::Bool(b), Value::Bool(x)) => b == x,
                (Alt::Enum(e, i), Value::Enum(f, j)) => e == f && i == j,
                _ => false,
            }),
        }
    }
}

/// One alternative of a pattern.
#[derive(Debug, Clone, PartialEq)]
pub enum Alt {
    /// `7 or more`
    AtLeast(i64),
    /// `0 or less`
    AtMost(i64),
    /// `3-4`
    Range(i64, i64),
    /// `true`/`false`
    Bool(bool),
    /// An enum value.
    Enum(EnumId, u16),
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `floor(x)`: round toward minus infinity.
    Floor,
    /// `ceil(x)`: round toward plus infinity.
    Ceil,
    /// `round(x)`: nearest, halves away from zero.
    Round,
    /// `trunc(x)`: toward zero.
    Trunc,
    /// `abs(x)`
    Abs,
    /// `min(a, b, ...)`
    Min,
    /// `max(a, b, ...)`
    Max,
    /// `inches(n)`: a number made a length.
    Inches,
    /// `feet(n)`: a number of feet made a length.
    Feet,
    /// `moves(n)`: a number made a time.
    Moves,
    /// `dice(count, sides)`: dice with computed count or sides.
    Dice,
}

impl Builtin {
    /// Every builtin with its name.
    pub const ALL: [(&'static str, Builtin); 11] = [
        ("floor", Builtin::Floor),
        ("ceil", Builtin::Ceil),
        ("round", Builtin::Round),
        ("trunc", Builtin::Trunc),
        ("abs", Builtin::Abs),
        ("min", Builtin::Min),
        ("max", Builtin::Max),
        ("inches", Builtin::Inches),
        ("feet", Builtin::Feet),
        ("moves", Builtin::Moves),
        ("dice", Builtin::Dice),
    ];

    /// Its name.
    pub fn name(self) -> &'static str {
        Builtin::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("?", |(n, _)| n)
    }
}

/// What a call calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A rule.
    Rule(u32),
    /// A table.
    Table(u32),
    /// A modifier list.
    Modifiers(u32),
    /// A builtin.
    Builtin(Builtin),
}

/// A checked expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What kind.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of checked expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// A constant value.
    Value(Value),
    /// A field of the game state, by index.
    State(u32),
    /// A local slot.
    Local(u32),
    /// A `const`.
    Const(u32),
    /// The reading chosen for an interpretation (an enum value of its readings).
    Chosen(u32),
    /// `a.field`, and the field's place in the record type when the checker knows it
    /// (`u32::MAX` when not: a group's member, a value of any type).
    Field(Box<Expr>, Rc<str>, u32),
    /// `group[name]`
    Member(Box<Expr>, Box<Expr>),
    /// `-a`
    Neg(Box<Expr>),
    /// `not a`
    Not(Box<Expr>),
    /// `a op b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Dice with a fixed count and sides; `text` as written.
    Dice {
        /// How many dice.
        count: u32,
        /// Faces per die.
        sides: u32,
    },
    /// A call.
    Call(Callee, Vec<Expr>),
    /// `if` / `else if` / `else` (no `else`: a guard, value unused).
    If(Vec<(Expr, Expr)>, Option<Box<Expr>>),
    /// `match`
    Match(Box<Expr>, Vec<(Pat, Expr, Rc<str>)>),
    /// A record literal, fields in order.
    Record(Vec<(Rc<str>, Expr)>),
    /// A pair.
    Pair(Box<Expr>, Box<Expr>),
    /// A refusal.
    Refuse {
        /// Why.
        reason: Rc<str>,
        /// The rulebook section.
        cite: Option<Rc<str>>,
    },
    /// A gap in the source.
    NotGiven {
        /// What the source leaves out.
        what: Rc<str>,
        /// The rulebook section.
        cite: Option<Rc<str>>,
    },
    /// Statements then a value.
    Block(Vec<Stmt>, Box<Expr>),
    /// An expression checked in a scope of its own (a field or parameter default),
    /// evaluated in a fresh frame of `slots` so its `let`s touch no caller's locals.
    Fresh {
        /// The expression.
        value: Box<Expr>,
        /// Frame slots it needs.
        slots: u32,
    },
    /// A field's or parameter's default, evaluated where it is used. Held by reference, so
    /// defaults that build records with defaults of their own are not copied into every use.
    Default {
        /// Whose default.
        of: DefaultOf,
        /// Which field or parameter.
        index: u32,
    },
    /// A whole number that must lie in a declared range (`lost_percent: 0..100`).
    InRange {
        /// The value.
        value: Box<Expr>,
        /// The range.
        range: IntRange,
        /// What holds the range, for the message (`field \`lost_percent\``).
        what: Rc<str>,
    },
}

impl Expr {
    /// Calls `f` on this expression and every expression inside it (statements, arms,
    /// arguments, set paths), without going into the rules and tables it calls.
    pub fn walk(&self, f: &mut dyn FnMut(&Expr)) {
        let mut stack = vec![self];
        while let Some(e) = stack.pop() {
            f(e);
            match &e.kind {
                ExprKind::Call(_, args) => stack.extend(args.iter()),
                ExprKind::Field(b, _, _) | ExprKind::Neg(b) | ExprKind::Not(b) => stack.push(b),
                ExprKind::Member(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Pair(a, b) => {
                    stack.push(a);
                    stack.push(b);
                }
                ExprKind::If(arms, other) => {
                    for (c, b) in arms {
                        stack.push(c);
                        stack.push(b);
                    }
                    if let Some(o) = other {
                        stack.push(o);
                    }
                }
                ExprKind::Match(s, arms) => {
                    stack.push(s);
                    stack.extend(arms.iter().map(|(_, b, _)| b));
                }
                ExprKind::Record(fields) => stack.extend(fields.iter().map(|(_, f)| f)),
                ExprKind::Block(stmts, v) => {
                    for st in stmts {
                        match st {
                            Stmt::Let(_, x) | Stmt::Guard(x) => stack.push(x),
                            Stmt::Set(set) => {
                                stack.push(&set.value);
                                for p in &set.path {
                                    if let PathStep::Member(k) = p {
                                        stack.push(k);
                                    }
                                }
                            }
                            Stmt::Note(_) => {}
                        }
                    }
                    stack.push(v);
                }
                ExprKind::InRange { value, .. } | ExprKind::Fresh { value, .. } => {
                    stack.push(value)
                }
                ExprKind::Value(_)
                | ExprKind::State(_)
                | ExprKind::Local(_)
                | ExprKind::Const(_)
                | ExprKind::Dice { .. }
                | ExprKind::Refuse { .. }
                | ExprKind::NotGiven { .. }
                | ExprKind::Default { .. }
                | ExprKind::Chosen(_) => {}
            }
        }
    }
}

/// A checked statement.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// Store into a slot.
    Let(u32, Expr),
    /// A line in the explanation.
    Note(Rc<str>),
    /// An `if` whose value is discarded.
    Guard(Expr),
    /// `set PATH op VALUE`: an effect on the game state.
    Set(Box<SetEffect>),
}

/// A checked `set` statement.
#[derive(Debug, Clone)]
pub struct SetEffect {
    /// The state field the path starts at.
    pub root: u32,
    /// The steps from there (`.men`, `[name]`).
    pub path: Vec<PathStep>,
    /// `=`, `+=`, `-=`.
    pub op: crate::syntax::ast::SetOp,
    /// The value or amount.
    pub value: Expr,
    /// The declared range of the field set, if any.
    pub range: Option<IntRange>,
    /// The whole statement.
    pub span: Span,
}

/// One step of a state path.
#[derive(Debug, Clone)]
pub enum PathStep {
    /// `.field`
    Field(Rc<str>),
    /// `[name]`: a member named by a text value.
    Member(Expr),
}

/// What a top-level name means.
#[derive(Debug, Clone, PartialEq)]
pub enum Global {
    /// A constant.
    Const(u32),
    /// A rule.
    Rule(u32),
    /// A table.
    Table(u32),
    /// A modifier list.
    Modifiers(u32),
    /// An enum type.
    EnumType(EnumId),
    /// A record type.
    RecordType(u32),
    /// A field of the game state (`units`, `move`).
    StateField(u32),
}

/// A checked ruleset.
#[derive(Debug, Clone, Default)]
pub struct Program {
    /// Every source loaded (ruleset files, expressions).
    pub sources: SourceMap,
    /// `ruleset "Title"`.
    pub title: Option<String>,
    /// The ruleset's own citation.
    pub cite: Option<Rc<str>>,
    /// Sides of the die that "1 die" means.
    pub default_die: Option<u32>,
    /// The record (in `records`) that the game state is, if the ruleset declares one.
    pub state: Option<u32>,
    /// Enum types.
    pub enums: Vec<EnumInfo>,
    /// Record types.
    pub records: Vec<RecordInfo>,
    /// Constants.
    pub consts: Vec<ConstInfo>,
    /// Rules.
    pub rules: Vec<RuleInfo>,
    /// Tables.
    pub tables: Vec<TableInfo>,
    /// Modifier lists.
    pub modifiers: Vec<ModifiersInfo>,
    /// Examples.
    pub examples: Vec<ExampleInfo>,
    /// Top-level names.
    pub globals: HashMap<String, Global>,
    /// Enum value names → every (enum, index) with that name.
    pub enum_values: HashMap<String, Vec<(EnumId, u16)>>,
    /// Interpretations of ambiguous rules, by index.
    pub interpretations: Vec<InterpretationInfo>,
    /// The reading chosen for each interpretation (`--interpret NAME=READING`); `None`:
    /// its default.
    pub chosen: Vec<Option<u16>>,
    /// Warnings found while checking.
    pub warnings: Vec<crate::diagnostic::Diag>,
    /// How many of [`Program::sources`] are the ruleset's own files (a house rule and
    /// what it extends); the rest are questions compiled since.
    pub ruleset_files: usize,
}

/// Every value of a type that can be listed — an enum's values, false and true — each
/// with its name; `None` for any other type.
pub fn listed_values(p: &Program, ty: &Ty) -> Option<Vec<(Value, String)>> {
    match ty {
        Ty::Enum(e) => p.enums.get(usize::from(*e)).map(|info| {
            info.values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    (
                        Value::Enum(*e, u16::try_from(i).unwrap_or(u16::MAX)),
                        v.name.to_string(),
                    )
                })
                .collect()
        }),
        Ty::Bool => Some(vec![
            (Value::Bool(false), "false".into()),
            (Value::Bool(true), "true".into()),
        ]),
        _ => None,
    }
}

/// An interpretation's index and a reading's, by their names.
///
/// Errors: no such interpretation or reading, with what there is.
pub fn find_reading(p: &Program, name: &str, reading: &str) -> Result<(u32, u16), String> {
    let names: Vec<&str> = p.interpretations.iter().map(|i| &*i.name).collect();
    let Some(i) = p.interpretations.iter().position(|x| &*x.name == name) else {
        return Err(
            match crate::diagnostic::closest(name, names.iter().copied()) {
                Some(best) => format!("no interpretation `{name}`: did you mean `{best}`?"),
                None if names.is_empty() => {
                    format!("no interpretation `{name}`: this ruleset declares none")
                }
                None => format!("no interpretation `{name}`; there are {}", names.join(", ")),
            },
        );
    };
    let info = &p.interpretations[i];
    let readings: Vec<&str> = p
        .enums
        .get(usize::from(info.readings))
        .map(|e| e.values.iter().map(|v| &*v.name).collect())
        .unwrap_or_default();
    match readings.iter().position(|r| *r == reading) {
        Some(j) => Ok((
            u32::try_from(i).unwrap_or(u32::MAX),
            u16::try_from(j).unwrap_or(u16::MAX),
        )),
        None => Err(format!(
            "`{name}` has no reading `{reading}`; its readings: {}",
            readings.join(", ")
        )),
    }
}

/// The value of an expression written out in full (numbers, lengths, names, records
/// and pairs of such), without evaluating anything; `None` for anything else.
pub fn written_value(e: &Expr) -> Option<Value> {
    match &e.kind {
        ExprKind::Value(v) => Some(v.clone()),
        ExprKind::Neg(x) => match written_value(x)? {
            Value::Num(n) => crate::value::arith::neg(n).ok().map(Value::Num),
            _ => None,
        },
        // `3/4`: a fraction as the rulebook writes it.
        ExprKind::Binary(BinOp::Div, a, b) => match (written_value(a)?, written_value(b)?) {
            (Value::Num(x), Value::Num(y)) => crate::value::arith::div(x, y).ok().map(Value::Num),
            _ => None,
        },
        ExprKind::InRange { value, .. } | ExprKind::Fresh { value, .. } => written_value(value),
        ExprKind::Record(fields) => {
            let mut out = Vec::with_capacity(fields.len());
            for (n, f) in fields {
                out.push((n.clone(), written_value(f)?));
            }
            Some(Value::Record(Rc::new(out)))
        }
        ExprKind::Pair(a, b) => Some(Value::Pair(Rc::new((written_value(a)?, written_value(b)?)))),
        _ => None,
    }
}

impl Program {
    /// The enum value's info.
    pub fn enum_value(&self, e: EnumId, i: u16) -> Option<&EnumValueInfo> {
        self.enums
            .get(usize::from(e))
            .and_then(|en| en.values.get(usize::from(i)))
    }

    /// Names of rules, tables and modifier lists, for listings and suggestions.
    pub fn callable_names(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.rules.iter().map(|r| &*r.name).collect();
        v.extend(self.tables.iter().map(|t| &*t.name));
        v.extend(self.modifiers.iter().map(|m| &*m.name));
        v
    }
}
