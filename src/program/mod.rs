//! The checked program: names resolved to indices, types known, ready to evaluate.
//!
//! Produced by [`crate::check`] from the AST; read by [`crate::eval`]. Locals are slots
//! in a frame, definitions are indices into the vectors below: nothing is looked up by
//! string while adjudicating.

use crate::span::{SourceMap, Span};
use crate::syntax::ast::{BinOp, Expectation};
use crate::value::{EnumId, Value};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

mod expr;
pub mod lowered;

pub use expr::*;

/// A static type.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Ty {
    /// A whole number.
    Int,
    /// An exact number, whole or fraction.
    Num,
    /// A length (inches / feet).
    Length,
    /// Time in moves.
    Time,
    /// Real time at the table, in minutes.
    Minutes,
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
            Ty::Minutes => "Minutes".into(),
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
            Ty::Minutes => "a time in minutes".into(),
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// A range of lengths on a parameter or field, bounds inclusive and exact: `0"..`,
/// `1/2"..12'`. The bounds keep the unit they were written in, to print as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct LengthRange {
    /// Shortest allowed.
    pub lo: crate::value::Length,
    /// Longest allowed, if bounded.
    pub hi: Option<crate::value::Length>,
}

/// A declared range over a numeric kind: whole numbers (`men: 0..`) or lengths
/// (`width: 0"..`). Checked at every call, record built, state file loaded and `set`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum NumRange {
    /// Of whole numbers.
    Int(IntRange),
    /// Of lengths.
    Length(LengthRange),
}

impl NumRange {
    /// The whole-number range, if it is one (what the coverage passes reason over).
    pub fn int(self) -> Option<IntRange> {
        match self {
            NumRange::Int(r) => Some(r),
            NumRange::Length(_) => None,
        }
    }

    /// Whether `v` lies in the range (a value of another kind does not).
    pub fn contains(&self, v: &Value) -> bool {
        match (self, v) {
            (NumRange::Int(r), _) => match v.as_int() {
                Some(i) => i >= r.lo && r.hi.is_none_or(|h| i <= h),
                None => false,
            },
            (NumRange::Length(r), Value::Length(l)) => {
                l.inches >= r.lo.inches && r.hi.is_none_or(|h| l.inches <= h.inches)
            }
            (NumRange::Length(_), _) => false,
        }
    }

    /// The range as a type is written: `0..3`, `0..`, `0"..`, `1/2"..12'`.
    pub fn written(&self) -> String {
        match self {
            NumRange::Int(r) => match r.hi {
                Some(hi) => format!("{}..{hi}", r.lo),
                None => format!("{}..", r.lo),
            },
            NumRange::Length(r) => match r.hi {
                Some(hi) => format!("{}..{}", length_end(r.lo), length_end(hi)),
                None => format!("{}..", length_end(r.lo)),
            },
        }
    }
}

/// An end of a range of lengths in the unit it was written in: `12'`, `1' 6"`, `1/2"`,
/// and `0'`, `1/2'` in feet too (a length printed in feet below a foot prints in inches).
fn length_end(l: crate::value::Length) -> String {
    let twelve = crate::value::Rational::from_integer(12);
    let feet = num_traits::CheckedDiv::checked_div(&l.inches, &twelve);
    match feet {
        Some(feet)
            if l.unit == crate::value::LengthUnit::Feet
                && l.inches < twelve
                && l.inches > -twelve =>
        {
            format!("{}'", crate::value::Mixed(feet))
        }
        _ => l.to_string(),
    }
}

impl fmt::Display for NumRange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NumRange::Int(r) => r.fmt(f),
            NumRange::Length(r) => match r.hi {
                Some(hi) => write!(f, "{}..{}", length_end(r.lo), length_end(hi)),
                None => write!(f, "{} or more", length_end(r.lo)),
            },
        }
    }
}

/// A parameter of a rule, table or modifier list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ParamInfo {
    /// Its name.
    pub name: Rc<str>,
    /// Its type.
    pub ty: Ty,
    /// Bounds, for a ranged whole number or length.
    pub range: Option<NumRange>,
    /// Where it was declared.
    pub span: Span,
    /// The value used when a call leaves it out (a constant expression).
    pub default: Option<Expr>,
    /// Whether it has a default (known before the default is checked); true for a
    /// needed one.
    pub has_default: bool,
    /// `= needed`: a call may leave it out, and reading it then is an error of the
    /// question (`umpire::eval::missing_argument`).
    pub needed: bool,
}

/// Whose default a [`ExprKind::Default`] stands for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum DefaultOf {
    /// A field of this record type.
    Record(u32),
    /// A parameter of this rule, table or modifier list.
    Param(Callee),
}

/// An ambiguous sentence of the source and its readings: an enum whose values are the
/// readings, one of which is chosen (or the default) when adjudicating.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EnumInfo {
    /// Type name.
    pub name: String,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// Values in order.
    pub values: Vec<EnumValueInfo>,
    /// Declared `ordered`: its values compare, shift and make ranges.
    pub ordered: bool,
}

/// `list foot: Troop { spears, pikes, blades }`: a named list of values of one enum.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ListInfo {
    /// Its name.
    pub name: Rc<str>,
    /// The enum.
    pub of: EnumId,
    /// The values, by index in the enum, as listed.
    pub values: Vec<u16>,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
}

/// One enum value.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    pub ranges: Vec<Option<NumRange>>,
}

/// A constant.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

/// What rules, tables and modifier lists share: their name, how they are called, what
/// they give and where they were written. [`Program::signature`] finds a callee's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signature {
    /// Its name.
    pub name: Rc<str>,
    /// Parameters (slots 0..n); for a table, key parameters then extra parameters.
    pub params: Vec<ParamInfo>,
    /// Result type (a table's cell type; a modifier list's total).
    pub ret: Ty,
    /// The rulebook section.
    pub cite: Option<Rc<str>>,
    /// Frame slots (parameters and lets).
    pub slots: u32,
    /// Where it was defined.
    pub span: Span,
}

/// A rule (procedure).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RuleInfo {
    /// Name, parameters, result type.
    pub sig: Signature,
    /// Body.
    pub body: Expr,
}

/// A table: rows matched against key arguments, first match gives the cell.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableInfo {
    /// Name, parameters (keys first), cell type.
    pub sig: Signature,
    /// How many of the parameters are keys.
    pub keys: usize,
    /// Rows.
    pub rows: Vec<RowInfo>,
}

/// One table row.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RowInfo {
    /// One pattern per key.
    pub patterns: Vec<Pat>,
    /// The cell.
    pub cell: Expr,
    /// The patterns as written (`7 or more`, `infantry | embark`).
    pub text: Rc<str>,
    /// The column block it is written in (`good_order`), if any.
    pub column: Option<Rc<str>>,
    /// Where the row was written.
    pub span: Span,
    /// For a row a house rule put in: what it cites (else the table's section).
    pub cite: Option<Rc<str>>,
}

impl RowInfo {
    /// The row as messages quote it: `` `1,2` ``, or `` `1,2` of column `good_order` ``.
    pub fn quoted(&self) -> String {
        match &self.column {
            Some(c) => format!("`{}` of column `{c}`", self.text),
            None => format!("`{}`", self.text),
        }
    }
}

/// A die roll modifier list.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ModifiersInfo {
    /// Name, parameters, total's type.
    pub sig: Signature,
    /// The modifiers.
    pub modifiers: Vec<ModifierInfo>,
}

/// One modifier.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleInfo {
    /// Its name.
    pub name: String,
    /// Given rolls.
    pub rolls: Vec<(i64, Span)>,
    /// Rolls given by name (`given rolls attacker_roll 4`): name, face, where written.
    pub named_rolls: Vec<(String, i64, Span)>,
    /// Seed.
    pub seed: Option<u64>,
    /// Checks.
    pub checks: Vec<CheckInfo>,
    /// Readings it is read with (interpretation, reading).
    pub readings: Vec<(u32, u16)>,
    /// Where it was written.
    pub span: Span,
    /// Steps named with `let`, each worked out once, before the check it comes before,
    /// into the example's one frame.
    pub lets: Vec<ExampleStep>,
    /// Frame slots the example's lets and checks need (each check's query has as many).
    pub slots: u32,
}

/// `let r = f(3)` in an example, checked.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ExampleStep {
    /// How many checks come before it.
    pub before: usize,
    /// The slot it is kept in.
    pub slot: u32,
    /// The value.
    pub expr: Expr,
    /// The whole `let`, as written.
    pub span: Span,
}

/// One checked expectation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CheckInfo {
    /// The expression (for `A == B` the whole comparison).
    pub query: Query,
    /// `is refused` / `is not given`.
    pub expect: Option<Expectation>,
    /// The check as written.
    pub span: Span,
}

/// A compiled expression ready to adjudicate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Query {
    /// The expression.
    pub expr: Expr,
    /// Frame slots it needs.
    pub slots: u32,
    /// Its static type.
    pub ty: Ty,
    /// The sources its spans point into, for a question typed by a user: the ruleset's
    /// files (shared) and the question's own, dropped with it. Empty for a check of an
    /// `example`, which points only into the ruleset's files.
    pub sources: SourceMap,
    /// The expression lowered for the evaluator's fast path, where it can be
    /// ([`crate::compile::query`]); `None`: the tree-walker works it out. Not kept in
    /// the cache: lowered again when the question is made.
    #[serde(skip)]
    pub code: Option<lowered::Node>,
}

/// What a top-level name means.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Program {
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
    /// Definitions of used rulesets left out because they read their own ruleset's
    /// state (`ks.victual`), with why in words: what a question naming one is told.
    pub left_out: HashMap<String, String>,
    /// Enum value names → every (enum, index) with that name.
    pub enum_values: HashMap<String, Vec<(EnumId, u16)>>,
    /// Interpretations of ambiguous rules, by index.
    pub interpretations: Vec<InterpretationInfo>,
    /// Named lists of enum values (`list foot: Troop { ... }`), by name.
    pub lists: HashMap<String, ListInfo>,
    /// The program lowered for the evaluator's fast path ([`crate::compile::prepare`];
    /// empty until then, and the tree-walker works everything out). Not kept in the
    /// cache: prepared again when the program is read back.
    #[serde(skip)]
    pub code: lowered::Code,
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

/// Steps `index` (from all zeros) to the next pick of one item from each of `choices`, the
/// last list turning fastest (an odometer); false after the last pick, `index` back at zeros.
pub fn next_combination<T>(index: &mut [usize], choices: &[Vec<T>]) -> bool {
    for (i, list) in index.iter_mut().zip(choices).rev() {
        *i += 1;
        if *i < list.len() {
            return true;
        }
        *i = 0;
    }
    false
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
            Value::Int(n) => n.checked_neg().map(Value::Int),
            Value::Frac(n) => crate::value::arith::neg(n).ok().map(Value::num),
            _ => None,
        },
        // `3/4`: a fraction as the rulebook writes it.
        ExprKind::Binary(BinOp::Div, a, b) => {
            let (x, y) = (written_value(a)?, written_value(b)?);
            crate::value::arith::div(x.as_number()?, y.as_number()?)
                .ok()
                .map(Value::num)
        }
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

    /// The signature of a rule, table or modifier list; `None` for a builtin or an index
    /// out of range.
    pub fn signature(&self, c: Callee) -> Option<&Signature> {
        match c {
            Callee::Rule(i) => self.rules.get(i as usize).map(|r| &r.sig),
            Callee::Table(i) => self.tables.get(i as usize).map(|t| &t.sig),
            Callee::Modifiers(i) => self.modifiers.get(i as usize).map(|m| &m.sig),
            Callee::Builtin(_) => None,
        }
    }

    /// The default an [`ExprKind::Default`] stands for: the record field's or the
    /// parameter's; `None` for an index out of range or one with no default.
    pub fn default_expr(&self, of: DefaultOf, index: u32) -> Option<&Expr> {
        let i = index as usize;
        match of {
            DefaultOf::Record(r) => self
                .records
                .get(r as usize)
                .and_then(|r| r.defaults.get(i))
                .and_then(Option::as_ref),
            DefaultOf::Param(c) => self
                .signature(c)
                .and_then(|s| s.params.get(i))
                .and_then(|p| p.default.as_ref()),
        }
    }

    /// [`Program::signature`], to change.
    pub fn signature_mut(&mut self, c: Callee) -> Option<&mut Signature> {
        match c {
            Callee::Rule(i) => self.rules.get_mut(i as usize).map(|r| &mut r.sig),
            Callee::Table(i) => self.tables.get_mut(i as usize).map(|t| &mut t.sig),
            Callee::Modifiers(i) => self.modifiers.get_mut(i as usize).map(|m| &mut m.sig),
            Callee::Builtin(_) => None,
        }
    }

    /// Every rule's signature, then every table's, then every modifier list's.
    pub fn signatures(&self) -> impl Iterator<Item = &Signature> {
        let rules = self.rules.iter().map(|r| &r.sig);
        let tables = self.tables.iter().map(|t| &t.sig);
        rules
            .chain(tables)
            .chain(self.modifiers.iter().map(|m| &m.sig))
    }

    /// Names of rules, tables and modifier lists, for listings and suggestions.
    pub fn callable_names(&self) -> Vec<&str> {
        self.signatures().map(|s| &*s.name).collect()
    }
}

/// May a value of type `actual` stand where `expected` is wanted?
pub fn compatible(actual: &Ty, expected: &Ty) -> bool {
    match (actual, expected) {
        (Ty::Any | Ty::Never, _) | (_, Ty::Any) => true,
        (Ty::Int, Ty::Num) => true,
        // Two declared records are one type only if they are the same declaration (a
        // used ruleset's records are its own); an untyped `{ a: 1 }` goes by its fields.
        (Ty::Record(a), Ty::Record(b)) if a.record.is_some() && b.record.is_some() => {
            a.record == b.record
        }
        (Ty::Record(a), Ty::Record(b)) => {
            a.fields.len() == b.fields.len()
                && b.fields
                    .iter()
                    .all(|(n, t)| a.fields.iter().any(|(m, u)| m == n && compatible(u, t)))
        }
        (Ty::Pair(a), Ty::Pair(b)) | (Ty::Group(a), Ty::Group(b)) => compatible(a, b),
        _ => actual == expected,
    }
}

/// A parameter as a signature writes it: `men: 0.. = needed`, `support: Int = 0`.
pub fn param_text(p: Option<&Program>, param: &ParamInfo) -> String {
    let ty = match (&param.range, p) {
        (Some(r), _) => r.written(),
        (None, Some(p)) => param.ty.name(p),
        (None, None) => "?".to_string(),
    };
    let default = if param.needed {
        " = needed"
    } else if param.has_default {
        " = …"
    } else {
        ""
    };
    format!("{}: {ty}{default}", param.name)
}

/// A callable's signature: `rule melee(attackers: Int, ...) -> MeleeResult`.
pub fn signature_text(p: &Program, keyword: &str, sig: &Signature, keys: Option<usize>) -> String {
    let mut params = String::new();
    for (i, param) in sig.params.iter().enumerate() {
        if i > 0 {
            params.push_str(if Some(i) == keys { "; " } else { ", " });
        }
        params.push_str(&param_text(Some(p), param));
    }
    let ret = sig.ret.name(p);
    format!("{keyword} {}({params}) -> {ret}", sig.name)
}
