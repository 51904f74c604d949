//! Checked expressions: what a rule's body, a cell or a question is once its names are
//! resolved — patterns, built-ins, callees, expressions and statements.

use super::*;
use crate::value::Rational;

/// A key pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Pat {
    /// Matches anything.
    Any,
    /// Matches any of these.
    Alts(Vec<Alt>),
}

impl Pat {
    /// Does `v` match this pattern?
    pub fn matches(&self, v: &Value) -> bool {
        match self {
            Pat::Any => true,
            // A whole number against whole-number bounds (a die roll's row): no fraction.
            Pat::Alts(alts) if matches!(v, Value::Int(_)) => {
                let Value::Int(i) = *v else { return false };
                alts.iter().any(|a| {
                    let r = |n: &Rational| -> Option<i64> { n.is_integer().then(|| *n.numer()) };
                    match a {
                        Alt::AtLeast(n) => {
                            r(n).map_or_else(|| Rational::from_integer(i) >= *n, |n| i >= n)
                        }
                        Alt::AtMost(n) => {
                            r(n).map_or_else(|| Rational::from_integer(i) <= *n, |n| i <= n)
                        }
                        Alt::MoreThan(n) => {
                            r(n).map_or_else(|| Rational::from_integer(i) > *n, |n| i > n)
                        }
                        Alt::LessThan(n) => {
                            r(n).map_or_else(|| Rational::from_integer(i) < *n, |n| i < n)
                        }
                        Alt::Range(lo, hi) => {
                            let x = Rational::from_integer(i);
                            match (r(lo), r(hi)) {
                                (Some(lo), Some(hi)) => i >= lo && i <= hi,
                                _ => x >= *lo && x <= *hi,
                            }
                        }
                        Alt::Bool(_) | Alt::Enum(..) => false,
                    }
                })
            }
            Pat::Alts(alts) => alts.iter().any(|a| {
                // A number, or a length in inches (the checker holds each kind of
                // pattern to its kind of key).
                let number: Option<Rational> = match v {
                    Value::Int(i) => Some(Rational::from_integer(*i)),
                    Value::Frac(r) => Some(*r),
                    Value::Length(l) => Some(l.inches),
                    _ => None,
                };
                match (a, number, v) {
                    (Alt::AtLeast(n), Some(r), _) => r >= *n,
                    (Alt::AtMost(n), Some(r), _) => r <= *n,
                    (Alt::MoreThan(n), Some(r), _) => r > *n,
                    (Alt::LessThan(n), Some(r), _) => r < *n,
                    (Alt::Range(lo, hi), Some(r), _) => r >= *lo && r <= *hi,
                    (Alt::Bool(b), _, Value::Bool(x)) => b == x,
                    (Alt::Enum(e, i), _, Value::Enum(f, j)) => e == f && i == j,
                    _ => false,
                }
            }),
        }
    }
}

/// One alternative of a pattern.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Alt {
    /// `7 or more`, `1/2 or more`, `2' or more` (a length in inches)
    AtLeast(Rational),
    /// `0 or less`, `6" or less`
    AtMost(Rational),
    /// `more than 2'`: the bound itself not included
    MoreThan(Rational),
    /// `less than 1/2`: the bound itself not included
    LessThan(Rational),
    /// `3-4`, `13"-24"` (both ends included)
    Range(Rational, Rational),
    /// `true`/`false`
    Bool(bool),
    /// An enum value.
    Enum(EnumId, u16),
}

/// Built-in functions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// `count(6d6, at_least: 4)`: how many dice of a pool show at least (or, with
    /// `at_most:`, at most) a face; checked as `[dice, face, true if at_least]`.
    Count,
    /// `highest(2, 3d6)`: the sum of the highest dice of a pool.
    Highest,
    /// `lowest(1, 2d20)`: the sum of the lowest dice of a pool.
    Lowest,
    /// `reroll(3d6, at_most: 1)`: each die of a pool showing at most (or, with
    /// `at_least:`, at least) a face rolled again once, the new face kept; checked as
    /// `[dice, face, true if at_least]`.
    Reroll,
    /// `explode(2d6)`: each die of a pool showing its top face (or, with `at_least:`, at
    /// least a face) rolls again and adds, at most [`MAX_EXTRA_ROLLS`] times; checked as
    /// `[dice]` or `[dice, face]`.
    Explode,
    /// `shift(odds, -2)`: a value of an ordered enum moved along its order, stopping at
    /// the first and the last value.
    Shift,
    /// `place(odds)`: the position of a value of an ordered enum, 1 for the first.
    Place,
    /// `supplied(horse)`: whether the question gave a parameter (one declared `= needed`
    /// may be left out); true for any other name. Looks without reading it.
    Supplied,
}

/// How many extra rolls one die of `explode(...)` makes at most: past them its chain
/// stops, its sum kept (so a d6 gives at most 24).
pub const MAX_EXTRA_ROLLS: u32 = 3;

impl Builtin {
    /// Every builtin with its name.
    pub const ALL: [(&'static str, Builtin); 19] = [
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
        ("count", Builtin::Count),
        ("highest", Builtin::Highest),
        ("lowest", Builtin::Lowest),
        ("reroll", Builtin::Reroll),
        ("explode", Builtin::Explode),
        ("shift", Builtin::Shift),
        ("place", Builtin::Place),
        ("supplied", Builtin::Supplied),
    ];

    /// Whether it takes a pool of dice, each die looked at on its own.
    pub fn is_pool(self) -> bool {
        matches!(
            self,
            Builtin::Count
                | Builtin::Highest
                | Builtin::Lowest
                | Builtin::Reroll
                | Builtin::Explode
        )
    }

    /// Whether its name gives way to a rule, table or modifier list of the same name
    /// (a contextual name, added after rulesets were written that use it: `rule
    /// reroll()` keeps working, and `reroll(...)` there calls it).
    pub fn gives_way(self) -> bool {
        matches!(self, Builtin::Reroll | Builtin::Explode)
    }

    /// What is wrong with `face` as the option of `reroll` (`least`: `at_least:`) or
    /// `explode` (`self`) on dice of `sides` faces, if anything: the message and what to write. The
    /// one rule, for the checker and the evaluator.
    pub fn face_problem(self, sides: i64, face: i64, least: bool) -> Option<(String, String)> {
        let die = format!("d{sides}");
        let option = if least { "at_least" } else { "at_most" };
        if self == Builtin::Explode {
            if sides <= 1 {
                return Some((
                    format!("a {die} has one face, so every roll of it would explode without end"),
                    "explode dice of two faces or more".to_string(),
                ));
            }
            let two = if sides > 2 {
                format!(
                    ", `at_least: {}` for {}s and {sides}s",
                    sides - 1,
                    sides - 1
                )
            } else {
                String::new()
            };
            if face <= 1 {
                return Some((
                    format!(
                        "with `at_least: {face}` every face of a {die} explodes, so it would never stop rolling"
                    ),
                    format!("write `at_least: {sides}` (or leave it out) for {sides}s to explode{two}"),
                ));
            }
            if face > sides {
                return Some((
                    format!(
                        "`at_least: {face}` is not a face of a {die}, which shows 1 to {sides}"
                    ),
                    format!(
                        "write `at_least: {sides}` (or leave it out) for {sides}s to explode{two}"
                    ),
                ));
            }
        }
        if face < 1 || face > sides {
            let example = if least {
                format!("reroll(3{die}, at_least: {sides}) re-rolls {sides}s")
            } else {
                format!("reroll(3{die}, at_most: 1) re-rolls 1s")
            };
            return Some((
                format!("`{option}: {face}` is not a face of a {die}, which shows 1 to {sides}"),
                format!("write a face from 1 to {sides}: {example}"),
            ));
        }
        None
    }

    /// Its name.
    pub fn name(self) -> &'static str {
        Builtin::ALL
            .iter()
            .find(|(_, b)| *b == self)
            .map_or("?", |(n, _)| n)
    }
}

/// What a call calls.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Expr {
    /// What kind.
    pub kind: ExprKind,
    /// Where it was written.
    pub span: Span,
}

/// The kinds of checked expression.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    /// `instead CALL "reason"`: the question is asked wrongly. The call's arguments are
    /// worked out, the call is not made: an error of the question that names it.
    Instead {
        /// Whom to ask.
        callee: Callee,
        /// The call's arguments, in parameter order (defaults and needed ones left out
        /// as [`ExprKind::Default`]).
        args: Vec<Expr>,
        /// Why.
        reason: Rc<str>,
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
    /// `x in (a, b)` / `x not in foot`: whether the value fits the pattern (with
    /// `negated`, does not); `text` is what followed `in`, for the explanation.
    In {
        /// The value.
        value: Box<Expr>,
        /// The patterns.
        pat: Pat,
        /// `not in`.
        negated: bool,
        /// `foot`, `(one_two, one_one)`: as written.
        text: Rc<str>,
    },
    /// A whole number or length that must lie in a declared range (`lost_percent: 0..100`,
    /// `width: 0"..`).
    InRange {
        /// The value.
        value: Box<Expr>,
        /// The range.
        range: NumRange,
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
            e.for_each_child(|c| stack.push(c));
        }
    }

    /// Calls `f` on each expression directly inside this one, in order (a `set`'s value
    /// before its path's member keys). The one list of what each kind holds: a walker that
    /// only goes down matches the kinds it means and calls this for the rest.
    pub fn for_each_child<'a>(&'a self, mut f: impl FnMut(&'a Expr)) {
        match &self.kind {
            ExprKind::Call(_, args) | ExprKind::Instead { args, .. } => args.iter().for_each(f),
            ExprKind::Field(b, _, _) | ExprKind::Neg(b) | ExprKind::Not(b) => f(b),
            ExprKind::Member(a, b) | ExprKind::Binary(_, a, b) | ExprKind::Pair(a, b) => {
                f(a);
                f(b);
            }
            ExprKind::If(arms, other) => {
                for (c, b) in arms {
                    f(c);
                    f(b);
                }
                if let Some(o) = other {
                    f(o);
                }
            }
            ExprKind::Match(s, arms) => {
                f(s);
                arms.iter().for_each(|(_, b, _)| f(b));
            }
            ExprKind::Record(fields) => fields.iter().for_each(|(_, x)| f(x)),
            ExprKind::Block(stmts, v) => {
                for st in stmts {
                    match st {
                        Stmt::Let(_, x) | Stmt::Guard(x) => f(x),
                        Stmt::Set(set) => {
                            f(&set.value);
                            for p in &set.path {
                                if let PathStep::Member(k) = p {
                                    f(k);
                                }
                            }
                        }
                        Stmt::Note(_) | Stmt::RollName(_) => {}
                    }
                }
                f(v);
            }
            ExprKind::InRange { value, .. }
            | ExprKind::Fresh { value, .. }
            | ExprKind::In { value, .. } => f(value),
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

/// A checked statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum Stmt {
    /// Store into a slot.
    Let(u32, Expr),
    /// A line in the explanation.
    Note(Rc<str>),
    /// `let attacker_roll = d6`: the `let` right after this rolls dice, and they are
    /// the roll of this name (given by it: `--roll attacker_roll=4`, asked for by it at
    /// the table, shown with it).
    RollName(Rc<str>),
    /// An `if` whose value is discarded.
    Guard(Expr),
    /// `set PATH op VALUE`: an effect on the game state.
    Set(Box<SetEffect>),
}

/// A checked `set` statement.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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
    pub range: Option<NumRange>,
    /// The whole statement.
    pub span: Span,
}

/// One step of a state path.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum PathStep {
    /// `.field`
    Field(Rc<str>),
    /// `[name]`: a member named by a text value.
    Member(Expr),
}
