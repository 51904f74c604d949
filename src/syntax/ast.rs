//! The syntax tree of a ruleset, as written: every node carries its [`Span`].
//!
//! Names are still strings here; the checker (`crate::check`) resolves them.

use crate::span::{Span, Spanned};
use crate::value::Rational;

/// A name as written (`attackers`, `well_handled`).
pub type Name = Spanned<String>;

/// A whole ruleset file.
#[derive(Debug, Clone, Default)]
pub struct File {
    /// Top-level definitions in source order.
    pub items: Vec<Item>,
}

/// One top-level definition.
#[derive(Debug, Clone)]
pub enum Item {
    /// `ruleset "Little Wars" cite "..."`
    Ruleset {
        /// The title.
        title: Spanned<String>,
        /// The source as a whole.
        cite: Option<Spanned<String>>,
    },
    /// `die d6` — the die that "1 die" means in this ruleset.
    Die {
        /// Faces of that die.
        sides: Spanned<u32>,
    },
    /// `const supply_interval = 6 moves`
    Const(ConstDef),
    /// `enum Arm { infantry "Infantry", ... }`
    Enum(EnumDef),
    /// `record MeleeResult { attacker_killed: Int, ... }`
    Record(RecordDef),
    /// `state { move: 1.. = 1, units: group of Unit }`: the game state's shape (a record
    /// named `state`).
    State(RecordDef),
    /// `rule melee(attackers: Int, ...) -> MeleeResult { ... }`
    Rule(RuleDef),
    /// `table move_time(arm: Arm, action: Action; men: Int) -> Time { ... }`
    Table(TableDef),
    /// `modifiers manoeuvre_drm(u: Unit) { "Rear Support" +1 if u.rear_support ... }`
    Modifiers(ModifiersDef),
    /// `example "nine against eleven" { ... }`
    Example(ExampleDef),
    /// `extends "furious_reason"`: the ruleset this file changes.
    Extends(Spanned<String>),
    /// A definition of a used ruleset left out because it reads that ruleset's state
    /// (never written: put in by `use`), so that naming it says why it is not there.
    LeftOut {
        /// Its name, qualified (`ks.victual`).
        name: String,
        /// Why, in words: the state field it reads, and through what.
        why: String,
    },
    /// `use "kriegspiel" as ks`: another ruleset's definitions, named `ks.NAME`.
    Use {
        /// The ruleset: a bundled name, or a path beside this file.
        ruleset: Spanned<String>,
        /// The name its definitions are qualified with.
        alias: Name,
    },
    /// `interpretation NAME "what is ambiguous" { reading "text" default, ... }`
    Interpretation(InterpretationDef),
    /// `override DEFINITION`: replaces the base ruleset's definition of that name.
    Override(Box<Item>, Span),
    /// `override table NAME { rows }`: rows that replace the base table's rows with the
    /// same keys, or come before all its rows (a cell changed, a gap filled).
    TablePatch {
        /// The table.
        name: Name,
        /// The house rule's section.
        cite: Option<Spanned<String>>,
        /// The rows.
        rows: Vec<Row>,
        /// `column KEY = PATTERN { rows }` blocks, put in among the rows when the
        /// base's keys are known.
        columns: Vec<ColumnPatch>,
    },
    /// `override record NAME { add field: Type = default }`: fields added to the base's
    /// record.
    RecordPatch(RecordDef),
    /// `list foot: Troop { spears, pikes, blades }`
    List(ListDef),
    /// `override modifiers NAME { "Label" ...; remove "Label" }`: modifiers changed (by
    /// label), added, or removed.
    ModifiersPatch {
        /// The modifier list.
        name: Name,
        /// The house rule's section.
        cite: Option<Spanned<String>>,
        /// Changes, in order.
        changes: Vec<ModifierChange>,
    },
}

/// An ambiguous sentence of the source and its readings.
#[derive(Debug, Clone)]
pub struct InterpretationDef {
    /// Its name.
    pub name: Name,
    /// What the source leaves open, in words.
    pub text: Spanned<String>,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// The readings (name, and in `display` their words).
    pub readings: Vec<EnumValueDef>,
    /// The reading used unless another is chosen (none: "not given" until chosen).
    pub default: Option<Name>,
}

/// A `column` block of a table patch: its rows give `key` as `pattern`.
#[derive(Debug, Clone)]
pub struct ColumnPatch {
    /// The key the block fixes (`order`).
    pub key: Name,
    /// Its pattern (`good_order`).
    pub pattern: Pattern,
    /// The rows, without that key.
    pub rows: Vec<Row>,
    /// How many of the patch's plain rows come before the block.
    pub after: usize,
}

/// One change to a modifier list.
#[derive(Debug, Clone)]
pub enum ModifierChange {
    /// A modifier: replaces the one of the same label, or is added.
    Set(Box<Modifier>),
    /// `remove "Label"`
    Remove(Spanned<String>),
}

/// `const NAME (: Type)? = EXPR (cite "...")?`
#[derive(Debug, Clone)]
pub struct ConstDef {
    /// Its name.
    pub name: Name,
    /// Declared type, if any.
    pub ty: Option<TypeExpr>,
    /// Its value.
    pub value: Expr,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
}

/// `enum NAME cite? { value "Display" "Sentence", ... }`
#[derive(Debug, Clone)]
pub struct EnumDef {
    /// Its name.
    pub name: Name,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// Its values in order.
    pub values: Vec<EnumValueDef>,
    /// `enum Odds ordered { ... }`: its values compare, shift and make ranges, in the
    /// order written.
    pub ordered: bool,
}

/// `list foot: Troop cite? { spears, pikes, blades }`: a named list of values of one enum.
#[derive(Debug, Clone)]
pub struct ListDef {
    /// Its name.
    pub name: Name,
    /// The enum its values are of.
    pub of: Name,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// The values, as written.
    pub values: Vec<Name>,
}

/// One enum value with the rulebook's display text and sentence.
#[derive(Debug, Clone)]
pub struct EnumValueDef {
    /// `well_handled`
    pub name: Name,
    /// `"Well Handled"`
    pub display: Option<String>,
    /// `"Unit may move at Full Move Rate"`
    pub sentence: Option<String>,
}

/// `record NAME cite? { field: Type (= default)?, ... }`
#[derive(Debug, Clone)]
pub struct RecordDef {
    /// Its name.
    pub name: Name,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// Fields in order.
    pub fields: Vec<FieldDecl>,
}

/// `name: Type = default`
#[derive(Debug, Clone)]
pub struct FieldDecl {
    /// Field name.
    pub name: Name,
    /// Field type.
    pub ty: TypeExpr,
    /// Default value.
    pub default: Option<Expr>,
}

/// A type as written: `Int`, `Length`, `Arm`, `1..3`, `0..`, `(Length, Length)`.
#[derive(Debug, Clone)]
pub enum TypeExpr {
    /// A named type.
    Named(Name),
    /// An integer range, bounds inclusive: `1..3`, `0..`.
    Range {
        /// Lowest allowed.
        lo: i64,
        /// Highest allowed, if any.
        hi: Option<i64>,
        /// Where written.
        span: Span,
    },
    /// A range with a length at either end, bounds inclusive: `0"..`, `1/2"..12'`
    /// (`0..12"`, mixing a whole number and a length, is refused by the checker).
    LengthRange {
        /// Lowest allowed.
        lo: RangeEnd,
        /// Highest allowed, if any.
        hi: Option<RangeEnd>,
        /// Where written.
        span: Span,
    },
    /// A pair type `(A, B)`; both parts must be the same type.
    Pair(Box<TypeExpr>, Box<TypeExpr>, Span),
    /// `group of Unit`: named members of one type.
    Group(Box<TypeExpr>, Span),
}

impl TypeExpr {
    /// Where the type was written.
    pub fn span(&self) -> Span {
        match self {
            TypeExpr::Named(n) => n.span,
            TypeExpr::Range { span, .. }
            | TypeExpr::LengthRange { span, .. }
            | TypeExpr::Pair(_, _, span)
            | TypeExpr::Group(_, span) => *span,
        }
    }
}

/// An end of a range type: a whole number or a length.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RangeEnd {
    /// `0`, `-3`.
    Int(i64),
    /// `0"`, `1 1/2"`, `12'`.
    Length(crate::value::Length),
}

/// `name: Type`
#[derive(Debug, Clone)]
pub struct Param {
    /// Parameter name.
    pub name: Name,
    /// Parameter type.
    pub ty: TypeExpr,
    /// The value used when a call leaves it out.
    pub default: Option<Expr>,
    /// `= needed`: a call may leave it out; reading it then is an error of the question.
    pub needed: bool,
}

/// `rule NAME(params) (-> Type)? cite? { body }`
#[derive(Debug, Clone)]
pub struct RuleDef {
    /// Its name.
    pub name: Name,
    /// Parameters.
    pub params: Vec<Param>,
    /// Declared result type.
    pub returns: Option<TypeExpr>,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// The body.
    pub body: Block,
    /// Marked `recursive`: a cycle of calls through it is intended.
    pub recursive: bool,
}

/// `table NAME(keys; extra params) (-> Type)? cite? { rows }`
#[derive(Debug, Clone)]
pub struct TableDef {
    /// Its name.
    pub name: Name,
    /// Key parameters (each row gives one pattern per key).
    pub keys: Vec<Param>,
    /// Further parameters the cells may use, not matched by rows.
    pub extra: Vec<Param>,
    /// Declared cell type.
    pub returns: Option<TypeExpr>,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// Rows, with `column` blocks flattened (their pattern inserted at their key).
    pub rows: Vec<Row>,
}

/// `modifiers NAME(params) cite? { "label" amount (per EXPR)? (if COND)? ... }`
#[derive(Debug, Clone)]
pub struct ModifiersDef {
    /// Its name.
    pub name: Name,
    /// Parameters.
    pub params: Vec<Param>,
    /// The rulebook section.
    pub cite: Option<Spanned<String>>,
    /// The modifiers in order.
    pub modifiers: Vec<Modifier>,
}

/// `"Each 25% lost" -1 per floor(u.lost / 25) if u.lost > 0`
#[derive(Debug, Clone)]
pub struct Modifier {
    /// The rulebook's label.
    pub label: Spanned<String>,
    /// The amount (`+1`, `-1`, `+u.cp`).
    pub amount: Expr,
    /// How many times it applies.
    pub per: Option<Expr>,
    /// When it applies.
    pub condition: Option<Expr>,
}

/// `example "NAME" { given rolls ...; seed N; checks }`
#[derive(Debug, Clone)]
pub struct ExampleDef {
    /// Its name.
    pub name: Spanned<String>,
    /// Rolls the players "rolled", used in order.
    pub rolls: Vec<Spanned<i64>>,
    /// Rolls given by name (`given rolls attacker_roll 4`), for the rolls of that name.
    pub named_rolls: Vec<(Name, Spanned<i64>)>,
    /// A seed for the dice instead.
    pub seed: Option<u64>,
    /// The checks, in order.
    pub checks: Vec<Check>,
    /// Readings the example is read with: `interpret NAME = READING`.
    pub readings: Vec<(Name, Name)>,
    /// Steps named with `let`, each worked out once before the check it comes before.
    pub lets: Vec<ExampleLet>,
}

/// `let r = f(3)` in an example: worked out once, read by the checks after it.
#[derive(Debug, Clone)]
pub struct ExampleLet {
    /// How many checks come before it.
    pub before: usize,
    /// The name.
    pub name: Name,
    /// The declared type, if any.
    pub ty: Option<TypeExpr>,
    /// The value.
    pub value: Expr,
    /// The whole `let`.
    pub span: Span,
}

/// One expectation: `EXPR` (true), `A == B`, `EXPR is refused`, `EXPR is not given`.
#[derive(Debug, Clone)]
pub struct Check {
    /// The expression.
    pub expr: Expr,
    /// `is refused` / `is not given`.
    pub expect: Option<Expectation>,
    /// The whole check.
    pub span: Span,
}

/// What a check expects other than `true`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Expectation {
    /// `is refused`
    Refused,
    /// `is not given`
    NotGiven,
    /// `is missing men`: the error of a question that leaves out the needed parameter.
    Missing(String),
    /// `is asked instead crossing_cost`: the error of an `instead` naming that callee.
    AskedInstead(String),
}

/// A table row or match arm: one pattern per key, then the cell.
#[derive(Debug, Clone)]
pub struct Row {
    /// One pattern per key.
    pub patterns: Vec<Pattern>,
    /// The cell.
    pub cell: Expr,
    /// The patterns as written, for explanations (`7 or more`).
    pub span: Span,
    /// For a row inside `column KEY = PATTERN { ... }`: that pattern as written.
    pub column: Option<Span>,
    /// A row a house rule put into a base table: the section (or the file) it cites,
    /// shown when it decides.
    pub cite: Option<Spanned<String>>,
    /// A cell of a printed grid (`grid roll by odds { ... }`): the row as explanations
    /// name it, each key with its pattern as written (`roll 2-3, odds 2`).
    pub grid: Option<String>,
}

/// A key pattern: `_`/`otherwise`, or alternatives separated by `,`.
#[derive(Debug, Clone)]
pub enum Pattern {
    /// `_` or `otherwise`
    Any(Span),
    /// `5,6`, `infantry, cavalry`, `7 or more`
    Alternatives(Vec<Alternative>, Span),
}

impl Pattern {
    /// Where the pattern was written.
    pub fn span(&self) -> Span {
        match self {
            Pattern::Any(s) | Pattern::Alternatives(_, s) => *s,
        }
    }
}

/// One alternative of a pattern.
#[derive(Debug, Clone)]
pub enum Alternative {
    /// `7 or more`, `1/2 or more`, `2' or more`
    AtLeast(Bound, Span),
    /// `0 or less`, `6" or less`
    AtMost(Bound, Span),
    /// `more than 2'`, `more than 6`: the bound itself not included
    MoreThan(Bound, Span),
    /// `less than 1'`, `less than 1/2`: the bound itself not included
    LessThan(Bound, Span),
    /// `3-4`, `13"-24"`, `1 1/2-3` (bounds inclusive)
    Range(Bound, Bound, Span),
    /// `5`, `1/2`, `6"`
    Int(Bound, Span),
    /// `true` / `false`
    Bool(bool, Span),
    /// `infantry` or `Arm.infantry`
    Name(Option<Name>, Name),
    /// `one_one-three_one` or `one_one to three_one`: values of an ordered enum, both ends
    /// included.
    NameRange(EnumRef, EnumRef, Span),
    /// `four_one or more`: a value of an ordered enum and every value after it.
    NameAtLeast(EnumRef, Span),
    /// `one_two or less`: a value of an ordered enum and every value before it.
    NameAtMost(EnumRef, Span),
}

/// A value of an enum as a pattern writes it: `one_one` or `Odds.one_one`.
#[derive(Debug, Clone)]
pub struct EnumRef {
    /// The enum, when written.
    pub qual: Option<Name>,
    /// The value.
    pub name: Name,
}

/// The number or length a number pattern is bounded by, as written: `6`, `1/2`,
/// `1 1/2`, `2.5`, `-1`, or a length `6"`, `2'`, `1' 6"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bound {
    /// The number, or the length in inches (`2'` is 24).
    pub value: Rational,
    /// Written as a length (`6"`, `2'`), not a number.
    pub length: bool,
    /// Where it was written.
    pub span: Span,
}

impl Bound {
    /// A whole number written as itself (`5`).
    pub fn int(n: i64, span: Span) -> Bound {
        Bound {
            value: Rational::from_integer(n),
            length: false,
            span,
        }
    }
}

/// A block: statements then one final expression.
#[derive(Debug, Clone)]
pub struct Block {
    /// `let`, `note` and guard `if`s, in order.
    pub stmts: Vec<Stmt>,
    /// The value of the block.
    pub value: Box<Expr>,
    /// The braces.
    pub span: Span,
}

/// A statement inside a block.
#[derive(Debug, Clone)]
pub enum Stmt {
    /// `let name (: Type)? = expr`
    Let(Name, Option<TypeExpr>, Expr),
    /// `note "text"` — a line in the explanation when this point is reached.
    Note(Spanned<String>),
    /// `if cond { refuse "..." }` — an `if` whose value is not used (a guard).
    Guard(Expr),
    /// `set PATH = EXPR` (or `+=`, `-=`): an effect on the game state.
    Set {
        /// The state path (`units.old_guard.men`, `units[name].men`).
        target: Expr,
        /// `=`, `+=` or `-=`.
        op: SetOp,
        /// The new value, or the amount added or taken away.
        value: Expr,
    },
}

/// How a `set` changes its target.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum SetOp {
    /// `=`
    Assign,
    /// `+=`
    Add,
    /// `-=`
    Sub,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BinOp {
    /// `or`
    Or,
    /// `and`
    And,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`, `×`, ` x `
    Mul,
    /// `/`, `÷`
    Div,
    /// `%`
    Rem,
}

impl BinOp {
    /// The operator as written in explanations.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Or => "or",
            BinOp::And => "and",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "x",
            BinOp::Div => "/",
            BinOp::Rem => "%",
        }
    }
}

/// Prefix operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`
    Neg,
    /// `+x` (a modifier's `+1`)
    Pos,
    /// `not x`
    Not,
}

/// A literal's unit of measure: the value layer's, which the AST uses.
pub use crate::value::LengthUnit;

/// An expression.
#[derive(Debug, Clone)]
pub struct Expr {
    /// What kind.
    pub kind: ExprKind,
    /// Where.
    pub span: Span,
}

/// The kinds of expression.
#[derive(Debug, Clone)]
pub enum ExprKind {
    /// `7`, `1 3/4`, `2.5`
    Number(Rational),
    /// `6"`, `2'`, `1 3/4"`
    Length(Rational, LengthUnit),
    /// `1/2 move`, `2 moves`
    Time(Rational),
    /// `1 minute`, `7 minutes`: real time at the table.
    Minutes(Rational),
    /// `true`
    Bool(bool),
    /// `"text"`
    Text(String),
    /// `d6`, `2d6`, `1 die`: count and sides (`None` = the ruleset's default die).
    Dice {
        /// How many dice.
        count: u32,
        /// Faces per die; `None` for the ruleset's default die.
        sides: Option<u32>,
    },
    /// `attackers`
    Name(String),
    /// `u.men`, `Grade.line`, `rate.first`
    Field(Box<Expr>, Name),
    /// `units[name]`: a group's member named by a text value.
    Member(Box<Expr>, Box<Expr>),
    /// `f(a, name: b)`
    Call(Name, Vec<Arg>),
    /// `-x`, `not x`
    Unary(UnOp, Box<Expr>),
    /// `a + b`
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `if c { a } else if d { b } else { e }`
    If(Vec<(Expr, Block)>, Option<Block>),
    /// `match e { pattern => value ... }`
    Match(Box<Expr>, Vec<Row>),
    /// `reading NAME { reading => value ... }`: the arm of the reading chosen.
    Reading(Name, Vec<Row>),
    /// `{ a: 1, b: 2 }`
    Record(Vec<(Name, Expr)>),
    /// `ChargeResult { cavalry_killed: 2 }`: a record of a declared type, the fields left
    /// out taking their defaults.
    TypedRecord(Name, Vec<(Name, Expr)>),
    /// `(24", 20")`
    Pair(Box<Expr>, Box<Expr>),
    /// `refuse "reason" cite "..."`; a `-` or `.` cell is a refusal too.
    Refuse {
        /// Why.
        reason: String,
        /// The rulebook section, if not the enclosing definition's.
        cite: Option<String>,
    },
    /// `not given "what" cite "..."`
    NotGiven {
        /// What the source leaves out.
        what: String,
        /// The rulebook section, if not the enclosing definition's.
        cite: Option<String>,
    },
    /// `instead crossing_cost(terrain, mover) "reason"`: the question is asked wrongly;
    /// the call (an [`ExprKind::Call`]) is the one to ask instead.
    Instead {
        /// The call to ask instead.
        call: Box<Expr>,
        /// Why.
        reason: String,
    },
    /// `( e )` kept for spans only
    Block(Block),
    /// `x in (a, b, 3-4)`, `x not in foot`: whether the value fits the patterns (as a
    /// table row's), or with `not in` does not.
    In {
        /// The value.
        value: Box<Expr>,
        /// The patterns after `in`.
        patterns: Pattern,
        /// `not in`.
        negated: bool,
    },
}

/// A call argument: positional or `name: value`.
#[derive(Debug, Clone)]
pub struct Arg {
    /// The name, for a named argument.
    pub name: Option<Name>,
    /// The value.
    pub value: Expr,
}
