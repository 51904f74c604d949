//! The lowered program: what `compile` makes of a checked body for the evaluator's
//! fast path ([`Node`]), held beside the checked program and built on first use.
//!
//! A node is one checked expression, specialised where the checker already knows
//! (whole numbers on `i64`, a field at its slot, a comparison with a constant, a
//! constant folded, a table's rows as a decision structure). Only what cannot change
//! the game — no dice, no `set`, no refusal it cannot hand back — is lowered; each
//! lowered body keeps its checked expression, which the tree-walker works out exactly
//! whenever the fast path gives up (an error, a refusal, a limit reached), so every
//! answer, step count and error is the tree-walker's.

use super::*;
use std::cell::OnceCell;

/// A lowered expression and where it was written.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What it does.
    pub kind: NodeKind,
    /// Where it was written (as its checked expression's span).
    pub span: Span,
}

/// What a lowered expression does. Each kind counts the steps its checked expression
/// counts (one per expression worked out, and the extra steps patterns and field chains
/// take), so `--max-steps` and `Adjudication::steps` are the tree-walker's.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// A value (a literal, or a constant folded): `steps` steps, `depth` levels deep.
    Value {
        /// The value.
        value: Value,
        /// The steps its expression takes.
        steps: u32,
        /// How deep its expression nests.
        depth: u32,
    },
    /// A local slot.
    Local(u32),
    /// A field of the game state.
    State(u32),
    /// A local's field, or a field of its field ...: read in place (`u.leader_cp`):
    /// one step for the expression, one for the local and one for each field.
    Path {
        /// The local.
        slot: u32,
        /// The fields, outermost first: name and place in its record type.
        fields: Box<[(Rc<str>, u32)]>,
    },
    /// `a.field` of anything else (a group's member by name: `brigade.second_foot`).
    Field(Box<Node>, Rc<str>, u32),
    /// `group[name]`.
    Member(Box<Node>, Box<Node>),
    /// `-a`
    Neg(Box<Node>),
    /// `not a`
    Not(Box<Node>),
    /// `a and b`
    And(Box<Node>, Box<Node>),
    /// `a or b`
    Or(Box<Node>, Box<Node>),
    /// `a op b` (not `and`, `or`).
    Binary(BinOp, Box<Node>, Box<Node>),
    /// `a op k`: a comparison or arithmetic with a whole number written out.
    BinaryInt(BinOp, Box<Node>, i64),
    /// `if` / `else if` / `else`.
    If(Vec<(Node, Node)>, Option<Box<Node>>),
    /// `match`: the arms' patterns and bodies.
    Match(Box<Node>, Vec<(Pat, Node)>),
    /// `x in (...)`, `x not in ...`.
    In(Box<Node>, Pat, bool),
    /// Statements then a value.
    Block(Vec<LStmt>, Box<Node>),
    /// A call of a rule, table or modifier list: its arguments and what each is
    /// checked against.
    Call(Callee, Vec<(Node, ArgCheck)>),
    /// A built-in on worked-out values (`floor`, `min`, `shift` ...).
    Builtin(Builtin, Vec<Node>),
    /// A `const`, worked out where it is used, in a frame of `slots`.
    Const(u32),
    /// A record literal.
    Record(Vec<(Rc<str>, Node)>),
    /// A pair.
    Pair(Box<Node>, Box<Node>),
    /// A whole number or length held to a declared range.
    InRange(Box<Node>, NumRange),
    /// An expression in a fresh frame of `slots`.
    Fresh(Box<Node>, u32),
    /// The reading chosen for an interpretation.
    Chosen(u32),
    /// A field's or parameter's default.
    Default(DefaultOf, u32),
    /// Dice written out: a count of dice of some sides.
    Dice(u32, u32),
    /// A roll summed with die roll modifiers (`D10 + manoeuvre_drm(u)`): the first term,
    /// then each with its sign and the span of the sum it closes; the roll is read out
    /// with the amounts added to it, as the tree-walker reads it.
    ModifiedRoll(Box<Node>, Vec<(BinOp, Node, Span)>),
    /// What the fast path does not work out (a refusal, a gap in the source): it gives
    /// up, and the tree-walker works the body out.
    GiveUp,
}

/// What an argument is checked against when passed: nothing, or its parameter.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgCheck {
    /// Nothing to check (a parameter of no range, not a whole number, not a record with
    /// ranges).
    None,
    /// The parameter at this place in the callee's signature.
    Param(u32),
}

/// A lowered statement.
#[derive(Debug, Clone, PartialEq)]
pub enum LStmt {
    /// Store into a slot.
    Let(u32, Node),
    /// A guard: worked out, its value unused.
    Guard(Node),
    /// A note (only the explanation shows it; the fast path builds none).
    Note,
}

/// A lowered body.
#[derive(Debug, Clone)]
pub struct Body {
    /// The lowered expression.
    pub node: Node,
}

/// A lowered modifier list: each modifier's condition, amount and `per`.
#[derive(Debug, Clone)]
pub struct LModifiers {
    /// The modifiers, in order.
    pub each: Vec<(Option<Node>, Node, Option<Node>)>,
}

/// A lowered table: each row's cell.
#[derive(Debug, Clone)]
pub struct LTable {
    /// Each row's cell.
    pub cells: Vec<Node>,
}

/// The lowered program, built body by body as the fast path first needs each:
/// `None` in a cell means the body cannot be lowered (it rolls dice, changes the
/// state, has a parameter `= needed` ...), and the tree-walker works it out.
#[derive(Debug, Default)]
pub struct Code {
    /// Rules by id.
    pub rules: Vec<OnceCell<Option<Body>>>,
    /// Tables by id.
    pub tables: Vec<OnceCell<Option<LTable>>>,
    /// Modifier lists by id.
    pub modifiers: Vec<OnceCell<Option<LModifiers>>>,
    /// Constants by id.
    pub consts: Vec<OnceCell<Option<Body>>>,
    /// Which rules the fast path may work out (and call), by id.
    pub fast_rules: Vec<bool>,
    /// Which tables, by id.
    pub fast_tables: Vec<bool>,
    /// Which modifier lists, by id.
    pub fast_modifiers: Vec<bool>,
    /// Which constants, by id.
    pub fast_consts: Vec<bool>,
}

impl Clone for Code {
    /// A copy made afresh: bodies are lowered again as they are needed.
    fn clone(&self) -> Self {
        Code {
            fast_rules: self.fast_rules.clone(),
            fast_tables: self.fast_tables.clone(),
            fast_modifiers: self.fast_modifiers.clone(),
            fast_consts: self.fast_consts.clone(),
            ..Code::sized(
                self.rules.len(),
                self.tables.len(),
                self.modifiers.len(),
                self.consts.len(),
            )
        }
    }
}

impl PartialEq for Code {
    /// Always: the lowered code is made from the program, so two programs that say the
    /// same are the same whatever each has lowered so far.
    fn eq(&self, _: &Code) -> bool {
        true
    }
}

impl Code {
    /// Room for the bodies of a program with these numbers of rules, tables, modifier
    /// lists and constants, none lowered yet.
    pub fn sized(rules: usize, tables: usize, modifiers: usize, consts: usize) -> Code {
        fn cells<T>(n: usize) -> Vec<OnceCell<T>> {
            (0..n).map(|_| OnceCell::new()).collect()
        }
        Code {
            rules: cells(rules),
            tables: cells(tables),
            modifiers: cells(modifiers),
            consts: cells(consts),
            fast_rules: vec![false; rules],
            fast_tables: vec![false; tables],
            fast_modifiers: vec![false; modifiers],
            fast_consts: vec![false; consts],
        }
    }
}
