//! A parsed expression printed back with every operator's operands in brackets, so
//! that how it was grouped shows: `not a == b` prints `(not (a == b))`. It is the
//! oracle for the precedence table (the Pratt parser in [`super::parser`], and §5.1 of
//! docs/language.md), as pest's `calc` example has `parse_to_str`.
//!
//! Every operator application is bracketed, `.field` and `[member]` included; a
//! literal, a name, a call and anything in its own brackets or braces (a record, a
//! pair, a block) is not. Literals print as umpire prints their values (`1 3/4"`,
//! `12' 6"`, `1/2 move`); a `let`'s declared kind is left out.

use super::ast::{Alternative, Block, Bound, Expr, ExprKind, Pattern, Row, SetOp, Stmt, UnOp};
use crate::value::{Length, LengthUnit, Mixed, Moves, Rational, RealMinutes};
use std::fmt::Write;

/// `expr`, every operator application in brackets.
pub fn parenthesised(expr: &Expr) -> String {
    let mut out = String::new();
    expr_to(&mut out, expr);
    out
}

/// `{ a: 1, b: 2 }`, each value bracketed.
fn record_to(out: &mut String, fields: &[(super::ast::Name, Expr)]) {
    out.push('{');
    for (i, (name, value)) in fields.iter().enumerate() {
        push(
            out,
            format_args!("{} {}: ", if i == 0 { "" } else { "," }, name.node),
        );
        expr_to(out, value);
    }
    out.push_str(" }");
}

fn expr_to(out: &mut String, expr: &Expr) {
    match &expr.kind {
        ExprKind::Number(r) => push(out, Mixed(*r)),
        ExprKind::Length(r, unit) => {
            let inches = match unit {
                LengthUnit::Inches => Some(*r),
                LengthUnit::Feet => crate::value::arith::mul(*r, Rational::from_integer(12)).ok(),
            };
            match inches {
                Some(inches) => push(
                    out,
                    Length {
                        inches,
                        unit: *unit,
                    },
                ),
                None => push(out, format_args!("{}'", Mixed(*r))),
            }
        }
        ExprKind::Time(r) => push(out, Moves(*r)),
        ExprKind::Minutes(r) => push(out, RealMinutes(*r)),
        ExprKind::Bool(b) => push(out, b),
        ExprKind::Text(t) => text_to(out, t),
        ExprKind::Dice { count, sides } => match (count, sides) {
            (1, Some(s)) => push(out, format_args!("d{s}")),
            (c, Some(s)) => push(out, format_args!("{c}d{s}")),
            (1, None) => out.push_str("1 die"),
            (c, None) => push(out, format_args!("{c} dice")),
        },
        ExprKind::Name(n) => out.push_str(n),
        ExprKind::Field(e, name) => {
            out.push('(');
            expr_to(out, e);
            push(out, format_args!(".{})", name.node));
        }
        ExprKind::Member(e, key) => {
            out.push('(');
            expr_to(out, e);
            out.push('[');
            expr_to(out, key);
            out.push_str("])");
        }
        ExprKind::Call(name, args) => {
            push(out, format_args!("{}(", name.node));
            for (i, a) in args.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                if let Some(n) = &a.name {
                    push(out, format_args!("{}: ", n.node));
                }
                expr_to(out, &a.value);
            }
            out.push(')');
        }
        ExprKind::Unary(op, e) => {
            out.push_str(match op {
                UnOp::Neg => "(-",
                UnOp::Pos => "(+",
                UnOp::Not => "(not ",
            });
            expr_to(out, e);
            out.push(')');
        }
        ExprKind::Binary(op, a, b) => {
            out.push('(');
            expr_to(out, a);
            push(out, format_args!(" {} ", op.symbol()));
            expr_to(out, b);
            out.push(')');
        }
        ExprKind::If(arms, otherwise) => {
            out.push('(');
            for (i, (cond, block)) in arms.iter().enumerate() {
                out.push_str(if i == 0 { "if " } else { " else if " });
                expr_to(out, cond);
                out.push(' ');
                block_to(out, block);
            }
            if let Some(block) = otherwise {
                out.push_str(" else ");
                block_to(out, block);
            }
            out.push(')');
        }
        ExprKind::Match(e, rows) => {
            out.push_str("(match ");
            expr_to(out, e);
            rows_to(out, rows);
            out.push(')');
        }
        ExprKind::Reading(name, rows) => {
            push(out, format_args!("(reading {}", name.node));
            rows_to(out, rows);
            out.push(')');
        }
        ExprKind::TypedRecord(name, fields) => {
            push(out, format_args!("{} ", name.node));
            record_to(out, fields);
        }
        ExprKind::Record(fields) => record_to(out, fields),
        ExprKind::Pair(a, b) => {
            out.push('(');
            expr_to(out, a);
            out.push_str(", ");
            expr_to(out, b);
            out.push(')');
        }
        ExprKind::Refuse { reason, cite } => {
            out.push_str("refuse ");
            text_to(out, reason);
            cite_to(out, cite.as_deref());
        }
        ExprKind::NotGiven { what, cite } => {
            out.push_str("not given ");
            text_to(out, what);
            cite_to(out, cite.as_deref());
        }
        ExprKind::Instead { call, reason } => {
            out.push_str("instead ");
            expr_to(out, call);
            out.push(' ');
            text_to(out, reason);
        }
        ExprKind::Block(block) => block_to(out, block),
        ExprKind::In {
            value,
            patterns,
            negated,
        } => {
            out.push('(');
            expr_to(out, value);
            out.push_str(if *negated { " not in (" } else { " in (" });
            pattern_to(out, patterns);
            out.push_str("))");
        }
    }
}

fn push(out: &mut String, shown: impl std::fmt::Display) {
    // Writing to a String cannot fail.
    let _ = write!(out, "{shown}");
}

/// `"text"`, escaped as the language writes it.
fn text_to(out: &mut String, text: &str) {
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn cite_to(out: &mut String, cite: Option<&str>) {
    if let Some(cite) = cite {
        out.push_str(" cite ");
        text_to(out, cite);
    }
}

/// `{ let a = 1; note "x"; (a + 1) }`
fn block_to(out: &mut String, block: &Block) {
    out.push_str("{ ");
    for stmt in &block.stmts {
        match stmt {
            Stmt::Let(name, _, e) => {
                push(out, format_args!("let {} = ", name.node));
                expr_to(out, e);
            }
            Stmt::Note(text) => {
                out.push_str("note ");
                text_to(out, &text.node);
            }
            Stmt::Guard(e) => expr_to(out, e),
            Stmt::Set { target, op, value } => {
                out.push_str("set ");
                expr_to(out, target);
                out.push_str(match op {
                    SetOp::Assign => " = ",
                    SetOp::Add => " += ",
                    SetOp::Sub => " -= ",
                });
                expr_to(out, value);
            }
        }
        out.push_str("; ");
    }
    expr_to(out, &block.value);
    out.push_str(" }");
}

/// ` { 7 or more => a; _ => b }`
fn rows_to(out: &mut String, rows: &[Row]) {
    out.push_str(" {");
    for (i, row) in rows.iter().enumerate() {
        out.push_str(if i == 0 { " " } else { "; " });
        for (k, pattern) in row.patterns.iter().enumerate() {
            if k > 0 {
                out.push_str(" | ");
            }
            pattern_to(out, pattern);
        }
        out.push_str(" => ");
        expr_to(out, &row.cell);
    }
    out.push_str(" }");
}

/// A pattern's bound as it reads back: `5`, `1 1/2`, `6"` (a length in inches).
fn bound(b: &Bound) -> String {
    let mark = if b.length { "\"" } else { "" };
    format!("{}{mark}", crate::value::Mixed(b.value))
}

fn pattern_to(out: &mut String, pattern: &Pattern) {
    let Pattern::Alternatives(alternatives, _) = pattern else {
        out.push('_');
        return;
    };
    for (i, a) in alternatives.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match a {
            Alternative::AtLeast(n, _) => push(out, format_args!("{} or more", bound(n))),
            Alternative::AtMost(n, _) => push(out, format_args!("{} or less", bound(n))),
            Alternative::MoreThan(n, _) => push(out, format_args!("more than {}", bound(n))),
            Alternative::LessThan(n, _) => push(out, format_args!("less than {}", bound(n))),
            Alternative::Range(a, b, _) => push(out, format_args!("{}..{}", bound(a), bound(b))),
            Alternative::Int(n, _) => push(out, bound(n)),
            Alternative::Bool(b, _) => push(out, b),
            Alternative::Name(Some(ty), name) => {
                push(out, format_args!("{}.{}", ty.node, name.node))
            }
            Alternative::Name(None, name) => out.push_str(&name.node),
            Alternative::NameRange(lo, hi, _) => {
                enum_ref_to(out, lo);
                out.push('-');
                enum_ref_to(out, hi);
            }
            Alternative::NameAtLeast(v, _) => {
                enum_ref_to(out, v);
                out.push_str(" or more");
            }
            Alternative::NameAtMost(v, _) => {
                enum_ref_to(out, v);
                out.push_str(" or less");
            }
        }
    }
}

/// `one_one` or `Odds.one_one`.
fn enum_ref_to(out: &mut String, r: &super::ast::EnumRef) {
    if let Some(q) = &r.qual {
        push(out, format_args!("{}.", q.node));
    }
    out.push_str(&r.name.node);
}

#[cfg(test)]
mod tests {
    use super::parenthesised;
    use crate::span::FileId;

    /// Each expected string is worked from the precedence table (src/syntax/parser.rs,
    /// `PRATT`; docs/language.md §5.1), loosest first: `or` < `and` < `not` < comparisons
    /// < `+ -` < `* x / %` < prefix `- +` < `.field`; each level left to right.
    const CASES: &[(&str, &str)] = &[
        // `not` binds looser than a comparison (§5.1: "`not a == b` means `not (a == b)`").
        ("not a == b", "(not (a == b))"),
        // The rulebook's "1/2 x D10 x width" (§2.5: "read as `((1/2) x D10) x width`").
        ("1/2 x D10 x width", "(((1 / 2) x d10) x width)"),
        // A dice term is one value (§5.1: "`2d6 + 1` is the dice plus one").
        ("2d6 + 1", "(2d6 + 1)"),
        ("1 + 2d6", "(1 + 2d6)"),
        ("2 x D10", "(2 x d10)"),
        ("1 die + 2 dice", "(1 die + 2 dice)"),
        // Prefix minus binds tighter than `*` (§5.1: "`-2 x 3` is `(-2) x 3`").
        ("-x * y", "((-x) x y)"),
        ("-2 x 3", "((-2) x 3)"),
        ("- -x", "(-(-x))"),
        // `and` binds tighter than `or` (§5.1: "`a or b and c` means `a or (b and c)`").
        ("a or b and c", "(a or (b and c))"),
        ("a and b or c", "((a and b) or c)"),
        ("not a and b", "((not a) and b)"),
        ("not not a", "(not (not a))"),
        // Comparisons sit between `not` and `+`, and chain left to right (§5.2:
        // "`1 < 2 < 3` compares `true` with `3`").
        ("a + 1 < b * 2", "((a + 1) < (b x 2))"),
        ("1 < 2 < 3", "((1 < 2) < 3)"),
        ("a == b or c != d", "((a == b) or (c != d))"),
        ("x <= 1 and y >= 2", "((x <= 1) and (y >= 2))"),
        // Same level, left to right (§5.1: "`10 - 4 - 3` is `3`, `12 / 2 / 3` is `2`").
        ("10 - 4 - 3", "((10 - 4) - 3)"),
        ("12 / 2 / 3", "((12 / 2) / 3)"),
        ("1 + 2 x 3", "(1 + (2 x 3))"),
        ("7 % 3 x 2", "((7 % 3) x 2)"),
        ("a × b ÷ c", "((a x b) / c)"),
        // Brackets group, and leave no trace of their own.
        ("(1 + 2) x 3", "((1 + 2) x 3)"),
        // `.field` binds tightest: a minus applies to the field, a field to a call's answer.
        ("-u.men", "(-(u.men))"),
        ("u.men + 1", "((u.men) + 1)"),
        ("a.b.c", "((a.b).c)"),
        (
            "11 - melee(attackers: 11, defenders: 9).attacker_killed",
            "(11 - (melee(attackers: 11, defenders: 9).attacker_killed))",
        ),
        ("units[name].men - 1", "(((units[name]).men) - 1)"),
        // `in` binds like `==` (§5.2: "`d6 + 1 in (5 or more)` is `(d6 + 1) in (5 or
        // more)`, and `not t in foot` is `not (t in foot)`"); the bracket after it holds
        // patterns, never a pair.
        ("d6 + 1 in (5 or more)", "((d6 + 1) in (5 or more))"),
        ("not t in foot", "(not (t in (foot)))"),
        (
            "x in (a, b) and y not in (1-2)",
            "((x in (a, b)) and (y not in (1..2)))",
        ),
        (
            "o in (one_one-three_one, six_one or more)",
            "(o in (one_one-three_one, six_one or more))",
        ),
        ("f(1 + 2, n: -x)", "f((1 + 2), n: (-x))"),
        ("not f(x).ok", "(not (f(x).ok))"),
        // An `if` is one value; its conditions and branches are grouped inside it.
        (
            "if a or b { 1 + 2 } else { 3 }",
            "(if (a or b) { (1 + 2) } else { 3 })",
        ),
        (
            "1 + (if a { 1 } else { 2 })",
            "(1 + (if a { 1 } else { 2 }))",
        ),
        (
            "if a { let n = 1 + 2\n n x 2 } else { 0 }",
            "(if a { let n = (1 + 2); (n x 2) } else { 0 })",
        ),
        // A `match` is one value; a cell is a whole expression (§4.4, §4.5).
        (
            "match r { 7 or more => a + 1 5,6 => b 3-4 => c _ => d }",
            "(match r { 7 or more => (a + 1); 5, 6 => b; 3..4 => c; _ => d })",
        ),
        // Lengths and times are single literals (§2.2, §2.3).
        ("3/4\"", "3/4\""),
        ("1 3/4\"", "1 3/4\""),
        ("1 3/4", "1 3/4"),
        // `3/4` is one number only before a unit mark; elsewhere it divides (§2.1).
        ("3/4 x 2'", "((3 / 4) x 2')"),
        ("3/4 x rate", "((3 / 4) x rate)"),
        ("12' 6\" + 1\"", "(12' 6\" + 1\")"),
        ("1/2 move + 2 moves", "(1/2 move + 2 moves)"),
        ("4\" + inches(1 die)", "(4\" + inches(1 die))"),
        ("(24\", 20\").second", "((24\", 20\").second)"),
        ("{ a: 1 + 2, b: x }.a", "({ a: (1 + 2), b: x }.a)"),
        // Minutes are one literal too (§2.3a).
        ("1 1/2 minutes + 1/2 minute", "(1 1/2 minutes + 1/2 minute)"),
        ("men / 30 x 1 minute", "((men / 30) x 1 minute)"),
        // A record of a named type is one value, its field read after it (§4.2) ...
        ("R { a: 1 + 2 }.a", "(R { a: (1 + 2) }.a)"),
        ("x == R { a: 1 }", "(x == R { a: 1 })"),
        ("R {}", "R { }"),
        // ... but not in an `if` condition or a `match` subject: there the braces are
        // the block (furious_reason's `if slope == up { fraction: 1/2 }`), unless bracketed.
        (
            "if slope == up { fraction: 1/2 } else { fraction: 1 }",
            "(if (slope == up) { { fraction: (1 / 2) } } else { { fraction: 1 } })",
        ),
        (
            "if c == (R { a: 1 }) { 1 } else { 2 }",
            "(if (c == R { a: 1 }) { 1 } else { 2 })",
        ),
        (
            "match s { up => 1 _ => 2 }",
            "(match s { up => 1; _ => 2 })",
        ),
        // The name and its `{` are on one line: on the next, the braces are apart.
        (
            "if a { let x = b\n{ c: x } } else { 0 }",
            "(if a { let x = b; { c: x } } else { 0 })",
        ),
    ];

    #[test]
    fn precedence_as_documented() {
        let mut wrong = Vec::new();
        for (text, want) in CASES {
            match crate::syntax::parse_expr(FileId(0), text) {
                Ok(e) if parenthesised(&e) == *want => {}
                Ok(e) => wrong.push(format!("{text}: {} (want {want})", parenthesised(&e))),
                Err(d) => wrong.push(format!("{text}: does not parse: {}", d.message)),
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }
}
