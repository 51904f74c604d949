//! Errors of the question: a `= needed` parameter left out and then read
//! (`umpire::eval::missing_argument`), and `instead CALL "reason"`
//! (`umpire::eval::ask_instead`). Neither is a result: the question was asked wrongly.

use super::{Evaluator, Flow};
use crate::diagnostic::{Code, Diag};
use crate::program::*;
use crate::span::Span;
use crate::value::Value;
use std::rc::Rc;

/// A needed parameter a call left out: its slot in the frame of the call at `depth`.
#[derive(Debug, Clone)]
pub(super) struct Missing {
    /// The call depth whose frame holds it.
    pub depth: u32,
    /// Its slot there.
    pub slot: u32,
    /// What the error says.
    pub what: Rc<LeftOut>,
}

/// The words of the error for a needed parameter left out.
#[derive(Debug)]
pub(super) struct LeftOut {
    /// The call as asked, its arguments' values (`action_time(infantry, embark)`).
    pub call: String,
    /// The parameter (`men`).
    pub param: Rc<str>,
    /// The call with it given (`action_time(infantry, embark, men: N)`).
    pub with: String,
    /// A call written in the ruleset that leaves it out (`drm(k)` in `roll`): where, and
    /// what the error says then (the ruleset must give it; the question cannot).
    pub by_ruleset: Option<(Span, String, String)>,
}

/// The label of a missing-argument error at a ruleset's own call that leaves a needed
/// parameter out: such an error is the ruleset's, not the question's.
const RULESET_CALL: &str = "this call leaves it out";

/// An argument as written for a call shown to the umpire: positional until one is left
/// out, then by name.
fn written_args(parts: &[(Rc<str>, Option<String>)]) -> String {
    let mut named = false;
    let mut out = Vec::new();
    for (name, shown) in parts {
        match shown {
            None => named = true,
            Some(v) if named => out.push(format!("{name}: {v}")),
            Some(v) => out.push(v.clone()),
        }
    }
    out.join(", ")
}

/// What a value of type `ty` looks like, for a help that asks for one (`N`, `N"`).
fn example_of(p: &Program, ty: &Ty) -> String {
    match ty {
        Ty::Int | Ty::Num => "N".into(),
        Ty::Length => "N\"".into(),
        Ty::Time => "N moves".into(),
        Ty::Minutes => "N minutes".into(),
        Ty::Bool => "true".into(),
        Ty::Text => "\"...\"".into(),
        Ty::Enum(e) => p
            .enums
            .get(usize::from(*e))
            .and_then(|en| en.values.first())
            .map_or("…".into(), |v| v.name.to_string()),
        _ => "…".into(),
    }
}

/// Is `a` a needed parameter left out: written as the parameter's default (the call
/// did not give it), or the caller's own needed parameter left out, passed on?
enum Given {
    Yes,
    LeftOut,
    PassedOn(Rc<LeftOut>),
}

impl Evaluator<'_> {
    /// The needed parameter left out at `slot` of the frame being worked out, if it is.
    pub(super) fn left_out(&self, slot: u32) -> Option<&Missing> {
        let depth = self.depth;
        self.missing
            .iter()
            .rev()
            .find(|m| m.depth == depth && m.slot == slot)
    }

    /// Reading the local `slot`: an error if it is a needed parameter left out.
    #[cold]
    #[inline(never)]
    pub(super) fn read_given(&self, slot: u32, span: Span) -> Result<(), Flow> {
        match self.left_out(slot) {
            Some(m) => Err(missing_error(&m.what, span)),
            None => Ok(()),
        }
    }

    fn given(&self, p: &ParamInfo, a: &Expr) -> Given {
        if !p.needed {
            return Given::Yes;
        }
        match &a.kind {
            ExprKind::Default { .. } => Given::LeftOut,
            ExprKind::Local(s) => match self.left_out(*s) {
                Some(m) => Given::PassedOn(m.what.clone()),
                None => Given::Yes,
            },
            _ => Given::Yes,
        }
    }

    /// The arguments of a call of `sig`, worked out: a needed parameter left out is
    /// bound to nothing, and kept in [`Evaluator::missing`] for the call's frame.
    pub(super) fn args_needed(
        &mut self,
        sig: &Signature,
        args: &[Expr],
        at: Span,
        frame: &mut [Value],
    ) -> Result<Vec<Value>, Flow> {
        let mut f = Vec::with_capacity(sig.slots as usize);
        let mut parts: Vec<(Rc<str>, Option<String>)> = Vec::new();
        let mut passed: Vec<(u32, Option<Rc<LeftOut>>)> = Vec::new();
        for (i, (p, a)) in sig.params.iter().zip(args).enumerate() {
            let slot = u32::try_from(i).unwrap_or(u32::MAX);
            match self.given(p, a) {
                Given::Yes => {
                    let v = self.arg(p, a, frame)?;
                    let written = !matches!(a.kind, ExprKind::Default { .. });
                    let shown = written.then(|| crate::words::show_arg(self.prog, &v));
                    parts.push((p.name.clone(), shown));
                    f.push(v);
                    continue;
                }
                Given::LeftOut => passed.push((slot, None)),
                Given::PassedOn(w) => passed.push((slot, Some(w))),
            }
            parts.push((p.name.clone(), None));
            f.push(Value::Bool(false));
        }
        f.resize(sig.slots as usize, Value::Bool(false));
        let call = format!("{}({})", sig.name, written_args(&parts));
        for (slot, w) in passed {
            let what = w.unwrap_or_else(|| {
                let p = &sig.params[slot as usize];
                let given = written_args(&parts);
                let sep = if given.is_empty() { "" } else { ", " };
                let example = example_of(self.prog, &p.ty);
                let by_ruleset = self.by_ruleset(sig, &p.name, &example, at);
                Rc::new(LeftOut {
                    call: call.clone(),
                    param: p.name.clone(),
                    with: format!("{}({given}{sep}{}: {example})", sig.name, p.name),
                    by_ruleset,
                })
            });
            self.missing.push(Missing {
                depth: self.depth + 1,
                slot,
                what,
            });
        }
        Ok(f)
    }

    /// A call of `sig` at `at` that leaves out the needed `param`, written in the body of
    /// the rule, table or modifier list being worked out (not the question's own call):
    /// the error's words, the ruleset's to mend.
    fn by_ruleset(
        &self,
        sig: &Signature,
        param: &str,
        example: &str,
        at: Span,
    ) -> Option<(Span, String, String)> {
        if self.depth == 0 {
            return None;
        }
        let caller = self.within.last().and_then(|c| self.prog.signature(*c))?;
        let written = self
            .sources
            .snippet(at)
            .split_whitespace()
            .collect::<Vec<_>>();
        let written = if written.is_empty() {
            format!("{}(...)", sig.name)
        } else {
            written.join(" ")
        };
        let message = format!(
            "`{}` calls `{written}` without `{param}`, which `{}` needs here: the ruleset must give it",
            caller.name, sig.name
        );
        let asked = self.asked_text();
        let with = match written.strip_suffix(')') {
            Some(open) if open.ends_with('(') => format!("{open}{param}: {example})"),
            Some(open) => format!("{open}, {param}: {example})"),
            None => format!("{}(..., {param}: {example})", sig.name),
        };
        let help = format!(
            "`{asked}` cannot be answered until `{}` gives it: write `{with}` in the ruleset (the question has nothing to give)",
            caller.name
        );
        Some((at, message, help))
    }

    /// A table's keys are read by its rows: a needed key left out is an error.
    pub(super) fn keys_given(&self, keys: usize, span: Span) -> Result<(), Flow> {
        if self.missing.is_empty() {
            return Ok(());
        }
        let depth = self.depth + 1;
        match self
            .missing
            .iter()
            .find(|m| m.depth == depth && (m.slot as usize) < keys)
        {
            Some(m) => Err(missing_error(&m.what, span)),
            None => Ok(()),
        }
    }

    /// `instead CALL "reason"`: the call's arguments worked out, the call not made; the
    /// error of the question, with the call as the umpire is to ask it.
    pub(super) fn instead(
        &mut self,
        callee: Callee,
        args: &[Expr],
        reason: &str,
        span: Span,
        frame: &mut [Value],
    ) -> Result<Value, Flow> {
        let prog = self.prog;
        let sig = prog
            .signature(callee)
            .ok_or_else(|| super::internal(span, "`instead`"))?;
        let mut parts: Vec<(Rc<str>, Option<String>)> = Vec::new();
        let mut needed = Vec::new();
        for (p, a) in sig.params.iter().zip(args) {
            let left_out = matches!(a.kind, ExprKind::Default { .. })
                || !matches!(self.given(p, a), Given::Yes);
            if left_out {
                if p.needed {
                    needed.push(format!("{}: …", p.name));
                }
                parts.push((p.name.clone(), None));
                continue;
            }
            let v = self.eval(a, frame)?;
            parts.push((p.name.clone(), Some(crate::words::show_arg(prog, &v))));
        }
        let mut shown = written_args(&parts);
        for n in needed {
            if !shown.is_empty() {
                shown.push_str(", ");
            }
            shown.push_str(&n);
        }
        let asked = self.asked_text();
        Err(Flow::from(
            Diag::at(
                Code::EvalAskInstead,
                format!("{asked}: {reason}"),
                span,
                "asked instead",
            )
            .help(format!("ask {}({shown}) instead", sig.name))
            .subject(format!("{}({shown})", sig.name)),
        ))
    }

    /// The question as asked: as typed, else the call being worked out.
    fn asked_text(&self) -> String {
        if !self.asked.is_empty() {
            return self.asked.clone();
        }
        if let Some(at) = self.asked_at {
            let typed = self.sources.snippet(at).trim();
            if !typed.is_empty() {
                return typed.to_string();
            }
        }
        let name = self
            .within
            .last()
            .and_then(|c| self.prog.signature(*c))
            .map_or("the question", |s| &*s.name);
        name.to_string()
    }
}

/// The error of a needed parameter left out and read.
fn missing_error(w: &LeftOut, span: Span) -> Flow {
    if let Some((at, message, help)) = &w.by_ruleset {
        return Flow::from(
            Diag::at(
                Code::EvalMissingArgument,
                message.clone(),
                *at,
                RULESET_CALL,
            )
            .help(help.clone())
            .subject(&*w.param),
        );
    }
    Flow::from(
        Diag::at(
            Code::EvalMissingArgument,
            format!("{} needs `{}`: it is not given", w.call, w.param),
            span,
            "read here",
        )
        .help(format!("give it: {}", w.with))
        .subject(&*w.param),
    )
}

/// Is `d` an error of the question (a needed parameter left out, an `instead`)? Such an
/// error points at the question as asked.
pub fn of_the_question(d: &Diag) -> bool {
    matches!(d.code, Code::EvalMissingArgument | Code::EvalAskInstead) && !of_the_ruleset(d)
}

/// Is `d` a needed parameter left out by a call written in the ruleset (not the
/// question's)? It points at that call.
pub fn of_the_ruleset(d: &Diag) -> bool {
    d.code == Code::EvalMissingArgument && d.labels.first().is_some_and(|(_, l)| l == RULESET_CALL)
}

/// The parameter a missing-argument error names (`men`), if `d` is one.
pub fn missing_param(d: &Diag) -> Option<&str> {
    if d.code != Code::EvalMissingArgument || of_the_ruleset(d) {
        return None;
    }
    d.subject.as_deref()
}

/// The rule or table an ask-instead error says to ask (`crossing_cost`), if `d` is one.
pub fn asked_instead(d: &Diag) -> Option<&str> {
    if d.code != Code::EvalAskInstead {
        return None;
    }
    d.subject.as_deref()?.split_once('(').map(|(n, _)| n)
}

/// An error as JSON: its code and message, its help when it has one, and for an error of
/// the question the parameter it names (`"parameter": "men"`) or the call to ask instead
/// (`"instead": "crossing_cost(marsh, infantry, width: …)"`), its `subject`.
pub fn error_json(
    code: Code,
    message: &str,
    help: Option<&str>,
    subject: Option<&str>,
) -> serde_json::Map<String, serde_json::Value> {
    let mut m = serde_json::Map::new();
    m.insert("code".into(), serde_json::json!(code));
    m.insert("message".into(), message.into());
    if let Some(h) = help {
        m.insert("help".into(), h.into());
    }
    let key = match code {
        Code::EvalMissingArgument => Some("parameter"),
        Code::EvalAskInstead => Some("instead"),
        _ => None,
    };
    if let (Some(key), Some(s)) = (key, subject) {
        m.insert(key.into(), s.into());
    }
    m
}

/// An error as JSON (see [`error_json`]).
pub fn diag_json(d: &Diag) -> serde_json::Value {
    serde_json::Value::Object(error_json(
        d.code,
        &d.message,
        d.help.as_deref(),
        d.subject.as_deref(),
    ))
}
