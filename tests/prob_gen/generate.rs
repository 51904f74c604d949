//! Tiny random rulesets as source text, seeded (ChaCha8), so the checker stays in the
//! loop: one or two enums, a record, a table keyed on an Int, rules over dice, pools,
//! `let`s used more than once, `if`, `match`, calls of earlier rules (each call its own
//! rolls), a recursive rule with a counter, defaults that roll; and questions about them.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Whether `text` names `name` (a whole word).
fn mentions(text: &str, name: &str) -> bool {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(name).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + name.len()..].chars().next();
        !before.is_some_and(word) && !after.is_some_and(word)
    })
}

/// A kind of value the generator writes expressions of.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Bool,
    /// The enum `E{i}`.
    Enum(usize),
    /// The record `R { a: Int, b: Bool = false }`.
    Rec,
}

/// A rule or table that later definitions and the questions may call.
struct Sig {
    name: String,
    /// Each parameter's kind, and whether it has a default (which may be left out).
    params: Vec<(Ty, bool)>,
    ret: Ty,
}

/// A ruleset's source and the questions asked of it.
pub struct Generated {
    /// The ruleset's source text.
    pub source: String,
    /// Questions, each as typed.
    pub questions: Vec<String>,
}

struct Gen {
    rng: ChaCha8Rng,
    /// Each enum's value names.
    enums: Vec<Vec<String>>,
    /// Rules and tables defined so far.
    callable: Vec<Sig>,
    /// Names in scope and their kinds.
    locals: Vec<(String, Ty)>,
    /// Names made so far (for fresh `let` names).
    fresh: u32,
    /// Inside a call's arguments: no call there (calls within calls multiply the paths
    /// past what the oracle works through).
    in_args: bool,
}

/// The ruleset of `seed`, and one to three questions about it.
pub fn generate(seed: u64) -> Generated {
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        enums: Vec::new(),
        callable: Vec::new(),
        locals: Vec::new(),
        fresh: 0,
        in_args: false,
    };
    let mut src = String::from("ruleset \"generated\"\n");
    for i in 0..g.rng.gen_range(1..=2) {
        let values: Vec<String> = (0..g.rng.gen_range(2..=3))
            .map(|j| format!("e{i}{}", ['a', 'b', 'c'][j]))
            .collect();
        src.push_str(&format!("enum E{i} {{ {} }}\n", values.join(", ")));
        g.enums.push(values);
    }
    src.push_str("record R { a: Int, b: Bool = false }\n");
    src.push_str(&g.table());
    for i in 0..g.rng.gen_range(1..=4) {
        src.push_str(&g.rule(i));
    }
    if g.rng.gen_bool(0.5) {
        src.push_str(&g.recursive());
    }
    let mut questions = Vec::new();
    for _ in 0..g.rng.gen_range(1..=3) {
        questions.push(g.question());
    }
    Generated {
        source: src,
        questions,
    }
}

impl Gen {
    fn chance(&mut self, p: f64) -> bool {
        self.rng.gen_bool(p)
    }

    fn pick<T: Clone>(&mut self, xs: &[T]) -> T {
        xs.choose(&mut self.rng)
            .cloned()
            .expect("a choice among at least one")
    }

    fn name(&mut self, stem: &str) -> String {
        self.fresh += 1;
        format!("{stem}{}", self.fresh)
    }

    fn ty_name(&self, t: &Ty) -> String {
        match t {
            Ty::Int => "Int".into(),
            Ty::Bool => "Bool".into(),
            Ty::Enum(i) => format!("E{i}"),
            Ty::Rec => "R".into(),
        }
    }

    /// A kind for a parameter, a `let` or a rule's result (records only where asked).
    fn any_ty(&mut self, records: bool) -> Ty {
        let n = self.enums.len();
        match self.rng.gen_range(0..10) {
            0..=4 => Ty::Int,
            5 | 6 => Ty::Bool,
            7 | 8 => Ty::Enum(self.rng.gen_range(0..n)),
            _ if records => Ty::Rec,
            _ => Ty::Int,
        }
    }

    /// A single die or a small sum of dice.
    fn die(&mut self) -> String {
        self.pick(&["d2", "d3", "d4", "d6", "2d3", "D6", "d4"])
            .to_string()
    }

    /// `table t0(roll: Int) -> Int` with range rows; cells numbers, refusals, gaps, dice.
    fn table(&mut self) -> String {
        let mut rows = Vec::new();
        // Rows that never overlap (an overlap is an error), some of them left out.
        let high: &[&str] = if self.chance(0.5) {
            &["5 or more"]
        } else {
            &["5", "6 or more"]
        };
        for pat in ["0 or less", "1-2", "3", "4"].iter().chain(high) {
            if self.chance(0.6) {
                let cell = self.cell();
                rows.push(format!("  {pat} => {cell}"));
            }
        }
        // `otherwise` unless the rows cover every number (then it would never be reached).
        if rows.len() < 4 + high.len() {
            let cell = self.cell();
            rows.push(format!("  otherwise => {cell}"));
        }
        self.callable.push(Sig {
            name: "t0".into(),
            params: vec![(Ty::Int, false)],
            ret: Ty::Int,
        });
        format!("table t0(roll: Int) -> Int {{\n{}\n}}\n", rows.join("\n"))
    }

    fn cell(&mut self) -> String {
        match self.rng.gen_range(0..10) {
            0..=4 => self.rng.gen_range(-1..=6).to_string(),
            5 => "refuse \"the chart forbids it\"".into(),
            6 => "not given \"the chart is silent\"".into(),
            7 => "-".into(),
            _ => self.die(),
        }
    }

    /// `rule f{i}(...) -> T { ... }` over what is defined above it.
    fn rule(&mut self, i: usize) -> String {
        let mut params = Vec::new();
        let mut text = Vec::new();
        for j in 0..self.rng.gen_range(0..=2) {
            let t = self.any_ty(false);
            let name = format!("p{j}");
            // A default that rolls (an Int) or a constant one, for the last parameter.
            let default = if j > 0 || self.chance(0.5) {
                match (&t, self.rng.gen_range(0..4)) {
                    (Ty::Int, 0) => Some(self.die()),
                    (Ty::Int, 1) => Some("2".to_string()),
                    _ => None,
                }
            } else {
                None
            };
            // Parameters after one with a default have defaults too.
            let default = match (default, params.last()) {
                (None, Some((_, true))) => Some(self.const_of(&t)),
                (d, _) => d,
            };
            let kind = self.ty_name(&t);
            text.push(match &default {
                Some(d) => format!("{name}: {kind} = {d}"),
                None => format!("{name}: {kind}"),
            });
            self.locals.push((name, t.clone()));
            params.push((t, default.is_some()));
        }
        let ret = self.any_ty(true);
        let depth = self.rng.gen_range(2..=4);
        let body = self.block(&ret, depth, "\n  ");
        self.locals.clear();
        let name = format!("f{i}");
        let kind = self.ty_name(&ret);
        self.callable.push(Sig {
            name: name.clone(),
            params,
            ret,
        });
        format!(
            "rule {name}({}) -> {kind} {{\n  {body}\n}}\n",
            text.join(", ")
        )
    }

    /// `rule g(n: 0..4) -> Int recursive { if n == 0 {0} else {X + g(n - 1)} }`, X a
    /// call of an earlier rule or a die.
    fn recursive(&mut self) -> String {
        let ints: Vec<usize> = (0..self.callable.len())
            .filter(|&i| self.callable[i].ret == Ty::Int)
            .collect();
        let step = if ints.is_empty() || self.chance(0.6) {
            self.die()
        } else {
            let i = self.pick(&ints);
            self.call(i, 1)
        };
        let step = if self.chance(0.3) {
            format!("(if {step} > 2 {{ 1 }} else {{ 0 }})")
        } else {
            step
        };
        self.callable.push(Sig {
            name: "g".into(),
            params: vec![(Ty::Int, false)],
            ret: Ty::Int,
        });
        format!(
            "rule g(n: 0..4) -> Int recursive {{\n  if n == 0 {{ 0 }} else {{ {step} + g(n - 1) }}\n}}\n"
        )
    }

    /// A question: a call of a rule or table, or an expression over them (perhaps
    /// after a `let` used twice).
    fn question(&mut self) -> String {
        self.locals.clear();
        if self.callable.iter().any(|s| s.name == "g") && self.chance(0.25) {
            return format!("g({})", self.rng.gen_range(0..=4));
        }
        let q = if self.chance(0.5) {
            let i = self.rng.gen_range(0..self.callable.len());
            self.call(i, 2)
        } else {
            let t = self.any_ty(true);
            let depth = self.rng.gen_range(1..=3);
            self.block(&t, depth, "; ")
        };
        self.locals.clear();
        q
    }

    /// A block: a few `let`s, perhaps a guard, then a value of kind `t`.
    fn block(&mut self, t: &Ty, depth: u32, sep: &str) -> String {
        let mut lines = Vec::new();
        let before = self.locals.len();
        for _ in 0..self.rng.gen_range(0..=2) {
            let lt = self.any_ty(true);
            let value = self.expr(&lt, depth.saturating_sub(1));
            let name = self.name("v");
            lines.push(format!("let {name} = {value}"));
            self.locals.push((name, lt));
        }
        // A guard (in a rule: a question has none).
        if depth > 1 && sep == "\n  " && self.chance(0.2) {
            let c = self.expr(&Ty::Bool, 1);
            let stop = if self.chance(0.5) {
                "refuse \"a guard stops it\""
            } else {
                "not given \"the rules say nothing\""
            };
            lines.push(format!("if {c} {{ {stop} }}"));
        }
        let mut last = self.expr(t, depth);
        // Every `let` of the block (and, in a rule's body, every parameter) is read: one
        // left unread is an error, so the value is chosen by a condition that reads it.
        let from = if sep == "\n  " { 0 } else { before };
        let mut uses = Vec::new();
        for k in from..self.locals.len() {
            let (name, ty) = self.locals[k].clone();
            let later = if k < before { 0 } else { k - before + 1 };
            let read = lines[later.min(lines.len())..]
                .iter()
                .chain(std::iter::once(&last))
                .any(|l| mentions(l, &name));
            if !read {
                uses.push(self.reads(&name, &ty));
            }
        }
        if !uses.is_empty() {
            let other = self.leaf(t);
            last = format!(
                "(if {} {{ {last} }} else {{ {other} }})",
                uses.join(" and ")
            );
        }
        lines.push(last);
        self.locals.truncate(before);
        lines.join(sep)
    }

    /// A condition that reads `name`, of kind `t`.
    fn reads(&mut self, name: &str, t: &Ty) -> String {
        match t {
            Ty::Int => format!("({name} > {})", self.rng.gen_range(0..=3)),
            Ty::Bool => name.to_string(),
            Ty::Enum(_) => {
                let v = self.leaf(t);
                format!("({name} != {v})")
            }
            Ty::Rec => format!("({name}.a > 1 or {name}.b)"),
        }
    }

    /// A constant of kind `t` (a default that is not a roll).
    fn const_of(&mut self, t: &Ty) -> String {
        match t {
            Ty::Int => self.rng.gen_range(0..=3).to_string(),
            Ty::Bool => self.pick(&["true", "false"]).to_string(),
            Ty::Enum(i) => {
                let vs = self.enums[*i].clone();
                self.pick(&vs)
            }
            Ty::Rec => "R { a: 1 }".into(),
        }
    }

    /// Locals of kind `t`.
    fn locals_of(&self, t: &Ty) -> Vec<String> {
        self.locals
            .iter()
            .filter(|(_, lt)| lt == t)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// Callables giving kind `t`.
    fn callables_of(&self, t: &Ty) -> Vec<usize> {
        (0..self.callable.len())
            .filter(|&i| self.callable[i].ret == *t)
            .collect()
    }

    /// A call of callable `i` with arguments of depth below `depth`; parameters with a
    /// default are sometimes left out (a default that rolls rolls afresh).
    fn call(&mut self, i: usize, depth: u32) -> String {
        let params = self.callable[i].params.clone();
        if self.callable[i].name == "g" {
            // The counter: 0..4 written out (a number past it is an error of the
            // ruleset), or a roll that may fall outside it (an error outcome).
            let n = match self.rng.gen_range(0..4) {
                0 => "d4 - 1".to_string(),
                1 => "d6 - 2".to_string(),
                _ => self.rng.gen_range(0..=4).to_string(),
            };
            return format!("g({n})");
        }
        let mut args = Vec::new();
        let outer = std::mem::replace(&mut self.in_args, true);
        for (t, has_default) in &params {
            if *has_default && self.chance(0.5) {
                break;
            }
            args.push(self.expr(t, depth.saturating_sub(1)));
        }
        self.in_args = outer;
        format!("{}({})", self.callable[i].name, args.join(", "))
    }

    /// A leaf of kind `t`: a constant, a die, a local.
    fn leaf(&mut self, t: &Ty) -> String {
        let locals = self.locals_of(t);
        if !locals.is_empty() && self.chance(0.5) {
            return self.pick(&locals);
        }
        match t {
            Ty::Int => {
                let recs = self.locals_of(&Ty::Rec);
                if !recs.is_empty() && self.chance(0.3) {
                    format!("{}.a", self.pick(&recs))
                } else if self.chance(0.45) {
                    self.die()
                } else {
                    // In brackets: a line that starts with `-1` is a new line.
                    match self.rng.gen_range(-1..=6) {
                        n if n < 0 => format!("({n})"),
                        n => n.to_string(),
                    }
                }
            }
            Ty::Bool => {
                let recs = self.locals_of(&Ty::Rec);
                if !recs.is_empty() && self.chance(0.4) {
                    format!("{}.b", self.pick(&recs))
                } else {
                    self.const_of(t)
                }
            }
            Ty::Enum(i) => {
                let vs = self.enums[*i].clone();
                let v = self.pick(&vs);
                // Either spelling of an enum value.
                if self.chance(0.2) {
                    format!("E{i}.{v}")
                } else {
                    v
                }
            }
            Ty::Rec => {
                let a = self.leaf(&Ty::Int);
                if self.chance(0.5) {
                    format!("(R {{ a: {a} }})")
                } else {
                    let b = self.leaf(&Ty::Bool);
                    format!("(R {{ a: {a}, b: {b} }})")
                }
            }
        }
    }

    /// An expression of kind `t`, at most `depth` deep.
    fn expr(&mut self, t: &Ty, depth: u32) -> String {
        if depth == 0 || self.chance(0.2) {
            return self.leaf(t);
        }
        let d = depth - 1;
        let calls = self.callables_of(t);
        if !calls.is_empty() && !self.in_args && self.chance(0.2) {
            let i = self.pick(&calls);
            let one = self.call(i, d);
            // The same call twice: two rolls, not one.
            if *t == Ty::Int && self.chance(0.3) {
                return format!("({one} + {one})");
            }
            return one;
        }
        if self.chance(0.12) {
            let c = self.expr(&Ty::Bool, d);
            let a = self.expr(t, d);
            let b = self.expr(t, d);
            return format!("(if {c} {{ {a} }} else {{ {b} }})");
        }
        match t {
            Ty::Int => self.int(d),
            Ty::Bool => self.boolean(d),
            Ty::Enum(_) => {
                let key = self.expr(&Ty::Int, d);
                let mut arms = Vec::new();
                for pat in self.patterns() {
                    let v = self.expr(t, d.saturating_sub(1));
                    arms.push(format!("{pat} => {v}"));
                }
                format!("(match ({key}) {{ {} }})", arms.join("; "))
            }
            Ty::Rec => {
                let a = self.expr(&Ty::Int, d);
                if self.chance(0.4) {
                    format!("(R {{ a: {a} }})")
                } else {
                    let b = self.expr(&Ty::Bool, d);
                    format!("(R {{ a: {a}, b: {b} }})")
                }
            }
        }
    }

    /// The patterns of a `match` on a number, top down, perhaps with no `_` at the end
    /// (a number no arm covers is an error outcome).
    fn patterns(&mut self) -> Vec<String> {
        let mut pats = vec![self.pick(&["1-2", "2 or less", "1", "3-4"]).to_string()];
        if self.chance(0.5) {
            pats.push(self.pick(&["5 or more", "3", "4, 6"]).to_string());
        }
        if self.chance(0.85) {
            pats.push("_".into());
        }
        pats
    }

    fn int(&mut self, d: u32) -> String {
        match self.rng.gen_range(0..14) {
            0..=2 => {
                let a = self.expr(&Ty::Int, d);
                let b = self.expr(&Ty::Int, d);
                let op = self.pick(&["+", "-", "x", "*", "+"]);
                format!("({a} {op} {b})")
            }
            3 if !self.in_args => {
                let a = self.expr(&Ty::Int, d);
                format!("t0({a})")
            }
            4 => {
                let key = self.expr(&Ty::Int, d);
                let mut arms = Vec::new();
                for pat in self.patterns() {
                    let v = self.expr(&Ty::Int, d.saturating_sub(1));
                    arms.push(format!("{pat} => {v}"));
                }
                format!("(match ({key}) {{ {} }})", arms.join("; "))
            }
            5 => {
                let pool = self.pool();
                let k = self.rng.gen_range(2..=4);
                if self.chance(0.6) {
                    format!("count({pool}, at_least: {k})")
                } else {
                    format!("count({pool}, at_most: {})", k - 1)
                }
            }
            6 => {
                let pool = self.pool();
                let f = self.pick(&["highest", "lowest"]);
                format!("{f}(1, {pool})")
            }
            7 => {
                let n = self.rng.gen_range(1..=3);
                let s = self.rng.gen_range(2..=4);
                if self.chance(0.5) {
                    format!("reroll({n}d{s}, at_most: 1)")
                } else {
                    format!("explode({n}d{s})")
                }
            }
            8 => {
                // A record built and read.
                let a = self.expr(&Ty::Int, d);
                format!("(R {{ a: {a} }}).a")
            }
            9 => {
                // A let reused: two uses of one roll.
                let v = self.die();
                let name = self.name("a");
                let use_twice = if self.chance(0.5) {
                    format!("{name} - {name}")
                } else {
                    format!("if {name} > 3 {{ {name} }} else {{ 0 }}")
                };
                format!("(if true {{ let {name} = {v}; {use_twice} }} else {{ 0 }})")
            }
            10 => {
                let n = self.leaf(&Ty::Int);
                format!("dice({n}, 3)")
            }
            _ => self.leaf(&Ty::Int),
        }
    }

    /// A pool of at most three dice: plain, re-rolled or exploding.
    fn pool(&mut self) -> String {
        let n = self.rng.gen_range(1..=3);
        let s = self.rng.gen_range(2..=6);
        match self.rng.gen_range(0..5) {
            0 => format!("reroll({n}d{s}, at_most: 1)"),
            1 => format!("explode({n}d{})", s.min(3)),
            _ => format!("{n}d{s}"),
        }
    }

    fn boolean(&mut self, d: u32) -> String {
        match self.rng.gen_range(0..9) {
            0..=2 => {
                let a = self.expr(&Ty::Int, d);
                let b = self.expr(&Ty::Int, d);
                let op = self.pick(&["==", "!=", "<", "<=", ">", ">="]);
                format!("({a} {op} {b})")
            }
            3 | 4 => {
                let a = self.expr(&Ty::Bool, d);
                let b = self.expr(&Ty::Bool, d);
                let op = self.pick(&["and", "or"]);
                format!("({a} {op} {b})")
            }
            5 => {
                let a = self.expr(&Ty::Bool, d);
                format!("(not {a})")
            }
            6 => {
                let i = self.rng.gen_range(0..self.enums.len());
                let a = self.expr(&Ty::Enum(i), d);
                let b = self.leaf(&Ty::Enum(i));
                format!("({a} == {b})")
            }
            7 => {
                let a = self.expr(&Ty::Int, d);
                let pats = self.pick(&["(2-3, 6 or more)", "(1, 4)", "(5 or more)"]);
                format!("({a} in {pats})")
            }
            _ => {
                let a = self.expr(&Ty::Rec, d);
                format!("{a}.b")
            }
        }
    }
}
