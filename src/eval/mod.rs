//! The evaluator: one checked expression, a dice source → an [`Adjudication`].
//!
//! A refusal and a gap in the source are results, carried out of any depth as
//! [`Flow`]; errors (overflow, a limit hit, too few given rolls) are diagnostics at the
//! span that caused them. The trace is built only when asked for.

mod builtins;
mod calls;
mod effects;
mod exprs;
mod fast;
mod needed;
mod odds;
mod ops;
mod ordered;
mod readings;
mod rolls;
mod trace;

use crate::adjudication::{Adjudication, Outcome, Roll, TraceNode};
use crate::diagnostic::Code;
use crate::diagnostic::Diag;
use crate::dice::DiceSource;
use crate::program::*;
use crate::span::{SourceMap, Span};
use crate::value::{ArithError, Value};
use std::rc::Rc;

pub use crate::limits::Limits;
pub use needed::{
    asked_instead, diag_json, error_json, missing_param, of_the_question, of_the_ruleset,
};
pub use odds::{Oracle, Position, Reach};
pub use readings::Readings;

/// Deepest nesting of expressions (calls included) in one adjudication.
pub const MAX_EVAL_NESTING: u32 = 4096;

/// Options for one adjudication. The default: no explanation, [`Limits::default`], no
/// reading chosen (a ruleset's own are [`crate::Ruleset::options`]).
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Build the explanation.
    pub trace: bool,
    /// Limits on the work the adjudication may do.
    pub limits: Limits,
    /// The readings chosen for the program's interpretations.
    pub readings: Readings,
    /// Which engine works the adjudication out.
    pub engine: Engine,
}

/// Which engine works an adjudication out: the same answers, the same steps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Engine {
    /// Bodies lowered by [`crate::compile`] worked out on the fast path, the
    /// tree-walker where it cannot (an explanation built, a refusal, an error, dice).
    #[default]
    Compiled,
    /// The tree-walker alone: the oracle the compiled engine is tested against.
    Walker,
}

/// How evaluation leaves an expression early.
#[derive(Debug)]
pub enum Flow {
    /// A refusal: a result.
    Refused(Rc<str>, Option<Rc<str>>),
    /// A gap in the source: a result.
    NotGiven(Rc<str>, Option<Rc<str>>),
    /// An error.
    Error(Box<Diag>),
}

impl From<Diag> for Flow {
    fn from(d: Diag) -> Flow {
        Flow::Error(Box::new(d))
    }
}

type Ev = Result<Value, Flow>;

/// Adjudicates `query` against `program`, rolling with `dice`.
///
/// Errors: arithmetic overflow, division by zero, a limit hit, a dice-source error
/// (too few or too many given rolls, a face the die does not have).
pub fn adjudicate(
    program: &Program,
    query: &Query,
    dice: &mut dyn DiceSource,
    opts: Options,
    state: Option<&Value>,
) -> Result<Adjudication, Diag> {
    adjudicate_bound(program, query, dice, opts, state, Vec::new())
}

/// Like [`adjudicate`], with the query's first locals set to `bound` (in order).
pub fn adjudicate_bound(
    program: &Program,
    query: &Query,
    dice: &mut dyn DiceSource,
    opts: Options,
    state: Option<&Value>,
    bound: Vec<Value>,
) -> Result<Adjudication, Diag> {
    let seed = dice.seed(); // before any die is drawn: the seed that gives these rolls
    let mut ev = Evaluator::new(program, &query.sources, dice, opts);
    ev.state = state;
    // The question as typed, read from its source only if an error must quote it.
    ev.asked_at = Some(query.expr.span);
    // One stack for the question's locals and the frames of the calls the fast path
    // makes, kept from one adjudication to the next on this thread.
    let mut frame = fast::stack();
    frame.extend(bound);
    frame.resize((query.slots as usize).max(frame.len()), Value::Bool(false));
    let result = match ev.fast_query(query, &mut frame) {
        Some(r) => r,
        None => ev.eval(&query.expr, &mut frame),
    };
    fast::give_back(frame);
    let outcome = query_outcome(query, result)?;
    if let Err(d) = ev.dice.finish() {
        return Err(unused_after_refusal(&outcome, d, !ev.rolls.is_empty()));
    }
    let seed = seed.filter(|_| !ev.rolls.is_empty());
    Ok(Adjudication {
        outcome,
        rolls: ev.rolls,
        trace: ev.trace.map(|mut t| t.pop().unwrap_or_default()),
        seed,
        effects: ev.effects,
        steps: ev.steps,
    })
}

/// How the question `query` came out, as an adjudication of it tells it: an error in
/// the ruleset says which question it was working out, an error of the question points
/// at the question.
pub fn query_outcome(query: &Query, result: Result<Value, Flow>) -> Result<Outcome, Diag> {
    outcome_of(result)
        .map_err(|d| as_typed(d, &query.sources, query.expr.span))
        .map_err(|d| at_the_question(d, query.expr.span))
}

/// A finished evaluation as an outcome (a refusal and a gap are outcomes) or an error.
fn outcome_of(r: Ev) -> Result<Outcome, Diag> {
    match r {
        Ok(v) => Ok(Outcome::Value(v)),
        Err(Flow::Refused(reason, cite)) => Ok(Outcome::Refused {
            reason: reason.to_string(),
            cite: cite.map(|c| c.to_string()),
        }),
        Err(Flow::NotGiven(what, cite)) => Ok(Outcome::NotGiven {
            what: what.to_string(),
            cite: cite.map(|c| c.to_string()),
        }),
        Err(Flow::Error(d)) => Err(*d),
    }
}

/// A value out of its range met in the ruleset's text (a count taken below 0 by an
/// effect) while working out a question typed at `typed`: it says which question,
/// in the words typed, as well as where in the ruleset it stopped.
fn as_typed(d: Diag, sources: &SourceMap, typed: Span) -> Diag {
    let Some(at) = d.span() else { return d };
    let asked = sources.snippet(typed).trim();
    if at.file == typed.file || asked.is_empty() || d.code != Code::EvalRange {
        return d;
    }
    d.help(format!(
        "this happened in the ruleset, working out `{asked}` as you typed it: check what you gave it against the game state"
    ))
}

/// An error of the question (a needed parameter left out, an `instead`) points at the
/// question as asked, wherever in the ruleset it was found.
pub fn at_the_question(mut d: Diag, asked: Span) -> Diag {
    if !of_the_question(&d) {
        return d;
    }
    d.labels = vec![(asked, "asked here".to_string())];
    d
}

/// Whether an adjudication ended in a refusal or a "not given", not a value.
pub fn refused(outcome: &Outcome) -> bool {
    !matches!(outcome, Outcome::Value(_))
}

/// Rolls given and left over (`d`, the dice source's error): when the rule refused, or
/// its source does not give the answer, that is what the umpire is told, and that the
/// rolls were not all used, not "too many rolls".
/// `rolled`: whether any die was rolled before it stopped (if none was, nothing was asked
/// and no roll given was used).
pub fn unused_after_refusal(outcome: &Outcome, d: Diag, rolled: bool) -> Diag {
    let (said, cite) = match outcome {
        Outcome::Refused { reason, cite } => (format!("refused: {reason}"), cite),
        Outcome::NotGiven { what, cite } => (format!("not given in the source: {what}"), cite),
        Outcome::Value(_) => return d,
    };
    let cited = cite.as_ref().map_or(String::new(), |c| format!(" [{c}]"));
    let counts = d
        .message
        .strip_prefix("too many rolls given: ")
        .unwrap_or(&d.message);
    let stopped = match outcome {
        Outcome::Refused { .. } => "the rule refused",
        _ => "the source does not give the answer, and the rule stopped",
    };
    let help = if rolled {
        format!("the rule stopped before it used every roll given ({counts}): answer what it asks, then give the rolls again")
    } else {
        format!("{stopped} before any die was rolled, so none of the rolls given was used ({counts}): nothing was asked")
    };
    let mut out = Diag::error(Code::DiceRefusedUnrolled, format!("{said}{cited}")).help(help);
    out.labels = d.labels;
    out
}

/// The evaluator's state for one adjudication.
pub struct Evaluator<'a> {
    prog: &'a Program,
    /// The source text the spans point into.
    sources: &'a SourceMap,
    /// The dice source.
    pub dice: &'a mut dyn DiceSource,
    /// Every roll so far.
    pub rolls: Vec<Roll>,
    /// Open trace levels (innermost last), when tracing.
    pub trace: Option<Vec<Vec<TraceNode>>>,
    steps: u64,
    /// The step count past which [`Evaluator::step`] looks up: the step limit, or a
    /// Ctrl-C ([`crate::cancel`]) every [`CANCEL_EVERY`] steps, whichever comes first.
    check_at: u64,
    depth: u32,
    /// The rules, tables and modifier lists being worked out, innermost last (a die
    /// asked for at the table names the one that rolls it).
    within: Vec<Callee>,
    /// The name of the roll being made by `let NAME = d6`, and the depth of calls
    /// (`within`) its dice are rolled at.
    roll_name: Option<(Rc<str>, usize)>,
    /// The locals of the blocks being worked out that hold a named roll of one roll
    /// (`let attacker_roll = d6`): the call depth, the slot and the roll's place in
    /// `rolls`, so that the roll's modifiers added to the local are read out with it.
    roll_locals: Vec<(u32, u32, usize)>,
    dice_rolled: u64,
    nesting: u32,
    /// The game state (a record of the ruleset's `state` shape), if loaded.
    pub state: Option<&'a Value>,
    /// Changes to the state produced so far (not applied: reads see the state as it was).
    pub effects: Vec<crate::adjudication::Effect>,
    limits: Limits,
    readings: Readings,
    /// The needed parameters left out of the calls being worked out.
    missing: Vec<needed::Missing>,
    /// The question as typed (empty if not known): what an `instead` says was asked.
    pub asked: String,
    /// Where the question was typed, when `asked` is empty: what it says is read from
    /// there only when needed.
    pub asked_at: Option<Span>,
    /// The odds engine, when one is working out the odds: it works out whole the
    /// expressions it can (a dice term, a sum of them, a call) and chooses their value
    /// for this path ([`odds`]).
    pub oracle: Option<&'a mut dyn Oracle>,
    /// The deepest calls and nesting reached so far (for the odds engine's limits).
    max_depth: u32,
    max_nesting: u32,
    /// Whether lowered bodies are worked out on the fast path ([`fast`]): the compiled
    /// engine, no explanation built.
    fast: bool,
    /// The faces of rolls the fast path made before it gave up, in order: the
    /// tree-walker, working the same body out, takes them rather than rolling again.
    replay: std::collections::VecDeque<Vec<u32>>,
    /// An error the fast path met that the tree-walker would meet at the same point
    /// (a dice source's: too few rolls given, a face the die does not have).
    fast_error: Option<Flow>,
}

/// How many steps of work go by between looks at Ctrl-C (a few microseconds' worth).
const CANCEL_EVERY: u64 = 4096;

fn arith_err(e: ArithError, span: Span) -> Flow {
    let code = match e {
        ArithError::Overflow => Code::EvalOverflow,
        ArithError::DivisionByZero => Code::EvalDivisionByZero,
    };
    Flow::from(Diag::at(code, e.to_string(), span, "here"))
}

/// Past the fixed nesting of expressions ([`MAX_EVAL_NESTING`]).
fn nested_too_deep(span: Span) -> Flow {
    Flow::from(
        Diag::at(
            Code::LimitDepth,
            format!("the adjudication nests more than {MAX_EVAL_NESTING} expressions deep"),
            span,
            "too deep here",
        )
        .help(
            "a rule may be calling itself too deeply; write it with fewer calls or shorter chains",
        ),
    )
}

fn internal(span: Span, what: &str) -> Flow {
    Flow::from(
        Diag::at(
            Code::EvalType,
            format!("a value of the wrong kind reached {what}"),
            span,
            "here",
        )
        .help("this is a bug in umpire's checker: please report it with the ruleset"),
    )
}

impl<'a> Evaluator<'a> {
    /// A fresh evaluator; `sources` holds the files the program's and the query's spans
    /// point into (dice terms and names are quoted from them as written).
    pub fn new(
        prog: &'a Program,
        sources: &'a SourceMap,
        dice: &'a mut dyn DiceSource,
        opts: Options,
    ) -> Self {
        Evaluator {
            prog,
            sources,
            dice,
            rolls: Vec::new(),
            trace: opts.trace.then(|| vec![Vec::new()]),
            fast: !opts.trace && opts.engine == Engine::Compiled,
            replay: std::collections::VecDeque::new(),
            fast_error: None,
            steps: 0,
            check_at: opts.limits.steps.min(CANCEL_EVERY),
            depth: 0,
            within: Vec::new(),
            roll_name: None,
            roll_locals: Vec::new(),
            dice_rolled: 0,
            nesting: 0,
            state: None,
            effects: Vec::new(),
            limits: opts.limits,
            readings: opts.readings,
            missing: Vec::new(),
            asked: String::new(),
            asked_at: None,
            oracle: None,
            max_depth: 0,
            max_nesting: 0,
        }
    }

    /// Turns the flow of a finished evaluation into an outcome.
    pub fn outcome(&mut self, r: Ev) -> Result<Outcome, Diag> {
        outcome_of(r)
    }

    #[inline(always)]
    pub(super) fn step(&mut self, span: Span) -> Result<(), Flow> {
        self.steps += 1;
        // One comparison, as the step limit alone took: the limit and Ctrl-C are
        // looked at past it.
        if self.steps > self.check_at {
            return self.checkpoint(span);
        }
        Ok(())
    }

    /// Past [`Evaluator::check_at`]: the step limit, then a Ctrl-C; then the next place
    /// to look.
    #[cold]
    #[inline(never)]
    fn checkpoint(&mut self, span: Span) -> Result<(), Flow> {
        if self.steps > self.limits.steps {
            return Err(self.too_many_steps(span));
        }
        if crate::cancel::requested() {
            return Err(Flow::from(crate::cancel::cancelled()));
        }
        self.check_at = self.limits.steps.min(self.steps + CANCEL_EVERY);
        Ok(())
    }

    #[cold]
    #[inline(never)]
    fn too_many_steps(&self, span: Span) -> Flow {
        Flow::from(
            Diag::at(
                Code::LimitSteps,
                format!(
                    "the adjudication took more than {} steps",
                    self.limits.steps
                ),
                span,
                "still working here",
            )
            .help("a rule may be calling itself without end; the limit is set by --max-steps"),
        )
    }

    /// A value in words, for an error message.
    fn show(&self, v: &Value) -> String {
        crate::words::show(self.prog, v)
    }

    /// Evaluates `e` with locals in `frame`.
    pub fn eval(&mut self, e: &Expr, frame: &mut [Value]) -> Ev {
        // The odds engine works out whole what it can (a sum of dice, a call), asked
        // before the expression is counted: its work is spent as the evaluator's own.
        if self.oracle.is_some() {
            if let Some(r) = self.ask_oracle(e, frame) {
                return r;
            }
        }
        // Expressions inside calls inside expressions: the whole nesting is bounded, not
        // just the calls, so a deep body called a hundred deep cannot exhaust the stack.
        self.nesting += 1;
        if self.nesting > MAX_EVAL_NESTING {
            self.nesting -= 1;
            return Err(nested_too_deep(e.span));
        }
        if self.nesting > self.max_nesting {
            self.max_nesting = self.nesting;
        }
        // Checking the stack costs a little: every 16 levels is enough (16 frames are
        // well inside the 128 KiB `deep` keeps in hand).
        let r = if self.nesting.is_multiple_of(16) {
            crate::limits::deep(|| self.eval_inner(e, frame))
        } else {
            self.eval_inner(e, frame)
        };
        self.nesting -= 1;
        r
    }

    fn eval_inner(&mut self, e: &Expr, frame: &mut [Value]) -> Ev {
        self.step(e.span)?;
        let span = e.span;
        match &e.kind {
            ExprKind::Value(v) => Ok(v.clone()),
            ExprKind::State(i) => self.state_field(*i, span),
            ExprKind::Local(s) => {
                if !self.missing.is_empty() {
                    self.read_given(*s, span)?;
                }
                frame
                    .get(*s as usize)
                    .cloned()
                    .ok_or_else(|| internal(span, "a local"))
            }
            ExprKind::Const(id) => self.constant(*id, span),
            ExprKind::Member(base, key) => self.member_of(base, key, span, frame),
            ExprKind::Field(base, name, at) => self.field(base, name, *at, span, frame),
            ExprKind::Neg(x) => self.neg(x, span, frame),
            ExprKind::Not(x) => match self.eval(x, frame)? {
                Value::Bool(b) => Ok(Value::Bool(!b)),
                _ => Err(internal(span, "`not`")),
            },
            ExprKind::Binary(op, a, b) => self.binary(*op, a, b, span, frame),
            ExprKind::Dice { count, sides } => self.roll(*count, *sides, span),
            ExprKind::Call(callee, args) => self.call(*callee, args, span, frame),
            ExprKind::If(arms, otherwise) => self.if_else(arms, otherwise.as_deref(), frame),
            ExprKind::Match(scrutinee, arms) => self.match_arms(scrutinee, arms, span, frame),
            ExprKind::Record(fields) => self.record(fields, frame),
            ExprKind::Pair(a, b) => {
                let a = self.eval(a, frame)?;
                let b = self.eval(b, frame)?;
                Ok(Value::Pair(Rc::new((a, b))))
            }
            ExprKind::Refuse { reason, cite } => self.refuse(reason, cite),
            ExprKind::Chosen(i) => self.chosen(*i, span),
            ExprKind::NotGiven { what, cite } => self.not_given(what, cite),
            ExprKind::Fresh { value, slots } => {
                let mut f = vec![Value::Bool(false); *slots as usize];
                // A frame of its own: no parameter of the call it is in is read there.
                let outer = std::mem::take(&mut self.missing);
                let v = self.eval(value, &mut f);
                self.missing = outer;
                v
            }
            ExprKind::Instead {
                callee,
                args,
                reason,
            } => self.instead(*callee, args, reason, span, frame),
            ExprKind::Default { of, index } => self.default(*of, *index, span),
            ExprKind::InRange { value, range, what } => {
                let v = self.eval(value, frame)?;
                check_range(|| what.to_string(), *range, &v, span)?;
                Ok(v)
            }
            ExprKind::Block(stmts, value) => self.block(stmts, value, frame),
            ExprKind::In {
                value,
                pat,
                negated,
                text,
            } => self.membership(value, pat, *negated, text, frame),
        }
    }
}

/// The field `name` of `v`: at place `at` in a record of the type the checker saw (its
/// name shared with the type, so found by address), else searched for by name (a
/// record built otherwise, a group's member, a pair's part).
fn field_at<'v>(v: &'v Value, name: &Rc<str>, at: u32) -> Option<&'v Value> {
    if let Value::Record(fields) = v {
        if let Some((n, fv)) = fields.get(at as usize) {
            if Rc::ptr_eq(n, name) || n == name {
                return Some(fv);
            }
        }
    }
    v.field(name)
}

/// Checks a whole number or length against a declared range (bounds inclusive).
fn check_range(
    what: impl FnOnce() -> String,
    range: NumRange,
    v: &Value,
    span: Span,
) -> Result<(), Flow> {
    if range.contains(v) {
        return Ok(());
    }
    let got = match v {
        Value::Int(i) => i.to_string(),
        Value::Frac(r) => crate::value::Mixed(*r).to_string(),
        Value::Length(l) => l.to_string(),
        _ => "a value of another kind".to_string(),
    };
    Err(Flow::from(Diag::at(
        Code::EvalRange,
        format!("{} must be {range}, got {got}", what()),
        span,
        "out of range",
    )))
}

/// Steps charged for trying a pattern: one per alternative.
fn pattern_cost(p: &Pat) -> u64 {
    match p {
        Pat::Any => 1,
        Pat::Alts(a) => a.len() as u64,
    }
}

/// Does `v` match pattern `p`? (See [`Pat::matches`].)
pub fn matches(p: &Pat, v: &Value) -> bool {
    p.matches(v)
}
