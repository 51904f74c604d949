//! The account written out: as text (what was taken back left out), as Markdown (a
//! heading per turn, a list per entry, what was taken back struck through) or as one
//! HTML page (the same, every text escaped, nothing loaded from elsewhere).

use super::{Item, Kind, Report};
use crate::render::escape_markup as html_escape;

/// The items `shown` in runs of one turn: `(turn, items)`; one run with no turn when the
/// state counts none. A run starts only where the turn changes from the run before, so
/// no heading comes twice in a row (a change taken back, left out, between two items of
/// one turn).
fn turns(r: &Report, shown: impl Fn(&Item) -> bool) -> Vec<(Option<i64>, Vec<&Item>)> {
    let mut out: Vec<(Option<i64>, Vec<&Item>)> = Vec::new();
    for item in r.items.iter().filter(|i| shown(i)) {
        let turn = r.counter.as_ref().and(item.turn);
        match out.last_mut() {
            Some((t, items)) if *t == turn => items.push(item),
            _ => out.push((turn, vec![item])),
        }
    }
    out
}

/// The heading of a run: `Turn 3`, or none.
fn heading(r: &Report, turn: Option<i64>) -> Option<String> {
    Some(format!("{} {}", r.counter.as_deref()?, turn?))
}

/// An entry's first line, in plain words: `guard_grenadiers: manoeuvre(…)`, `:set …`,
/// `applied the effects of …`.
fn head_words(
    item: &Item,
    code: impl Fn(&str) -> String,
    plain: impl Fn(&str) -> String,
) -> String {
    let who = if item.who.is_empty() {
        String::new()
    } else {
        format!("{}: ", plain(&item.who.join(", ")))
    };
    match item.kind {
        Kind::Apply => format!("{who}applied the effects of {}", code(&item.asked)),
        Kind::Drop => format!(
            "{who}the effects of {} were dropped: not applied",
            code(&item.asked)
        ),
        _ => format!("{who}{}", code(&item.asked)),
    }
}

/// The lines under an entry's first line: the dice, then the result.
fn details(item: &Item) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(d) = &item.dice {
        out.push(format!("dice: {d}"));
    }
    out.extend(item.result.iter().cloned());
    out
}

/// The account as text: a heading per turn, each entry numbered with its details
/// indented under it; what was taken back is left out.
pub fn text(r: &Report) -> String {
    let mut out = format!("Game record: {}\n", r.log);
    for (turn, items) in turns(r, |i| !i.undone) {
        out.push('\n');
        if let Some(h) = heading(r, turn) {
            out.push_str(&format!("{h}\n"));
        }
        for item in items {
            if item.kind == Kind::Note {
                out.push_str(&format!("{}\n", item.asked));
                continue;
            }
            let n = item.number.map(|n| format!("{n}. ")).unwrap_or_default();
            let head = head_words(item, str::to_string, str::to_string);
            out.push_str(&format!("{n}{head}\n"));
            for line in details(item) {
                out.push_str(&format!("   {line}\n"));
            }
        }
    }
    out
}

/// Text escaped for Markdown: every character that could mark it up, backslashed; a
/// line break (a text value's, a hand-written log's) made a space, so that it cannot
/// start a heading or end a list item.
fn md(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        if "\\`*_[]<>#|~&".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// `s` with each line break made a space.
fn one_line(s: &str) -> String {
    s.replace(['\r', '\n'], " ")
}

/// A Markdown code span holding `s`, fenced with more backticks than any run in it.
fn md_code(s: &str) -> String {
    let s = &one_line(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// The account as Markdown: a heading per turn, a list item per entry with its details
/// as a list under it; what was taken back struck through.
pub fn markdown(r: &Report) -> String {
    let mut out = format!("# Game record: {}\n", md(&r.log));
    for (turn, items) in turns(r, |_| true) {
        out.push('\n');
        if let Some(h) = heading(r, turn) {
            out.push_str(&format!("## {}\n\n", md(&h)));
        }
        for item in items {
            if item.kind == Kind::Note {
                let words = format!("*{}*", md(&item.asked));
                out.push_str(&format!("- {}\n", strike(item, &words, "~~")));
                continue;
            }
            let n = item
                .number
                .map(|n| format!("**{n}.** "))
                .unwrap_or_default();
            let head = head_words(item, md_code, md);
            out.push_str(&format!("- {n}{}\n", strike(item, &head, "~~")));
            for line in details(item) {
                out.push_str(&format!("  - {}\n", strike(item, &md(&line), "~~")));
            }
        }
    }
    out
}

/// `words` struck through when the item was taken back, and said so.
fn strike(item: &Item, words: &str, mark: &str) -> String {
    if item.undone {
        format!("{mark}{words}{mark} (taken back)")
    } else {
        words.to_string()
    }
}

const STYLE: &str =
    "body{font-family:Georgia,serif;max-width:48em;margin:2em auto;padding:0 1em;line-height:1.4}\
code{font-family:monospace}ul.entries{list-style:none;padding-left:0}\
ul.entries>li{margin:.6em 0}ul.details{margin:.2em 0 0 1.5em;padding:0;list-style:none}\
.n{font-weight:bold}.who{font-weight:bold}.note{font-style:italic;color:#555}\
.undone{color:#888}";

/// The account as one HTML page: everything in it, every text escaped, and a policy
/// that lets the page load nothing (no script, no picture, no style from elsewhere).
pub fn html(r: &Report) -> String {
    let title = html_escape(&format!("Game record: {}", r.log));
    let mut out = format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
<title>{title}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<h1>{title}</h1>\n"
    );
    for (turn, items) in turns(r, |_| true) {
        out.push_str("<section>\n");
        if let Some(h) = heading(r, turn) {
            out.push_str(&format!("<h2>{}</h2>\n", html_escape(&h)));
        }
        out.push_str("<ul class=\"entries\">\n");
        for item in items {
            let class = match (item.kind, item.undone) {
                (Kind::Note, false) => " class=\"note\"",
                (Kind::Note, true) => " class=\"note undone\"",
                (_, true) => " class=\"undone\"",
                _ => "",
            };
            let head = if item.kind == Kind::Note {
                html_escape(&item.asked)
            } else {
                let code = |s: &str| format!("<code>{}</code>", html_escape(s));
                let who = |s: &str| format!("<span class=\"who\">{}</span>", html_escape(s));
                let n = item
                    .number
                    .map(|n| format!("<span class=\"n\">{n}.</span> "))
                    .unwrap_or_default();
                format!("{n}{}", head_words(item, code, who))
            };
            let shown = if item.undone {
                format!("<del>{head}</del> (taken back)")
            } else {
                head
            };
            out.push_str(&format!("<li{class}>{shown}"));
            let lines = details(item);
            if !lines.is_empty() {
                out.push_str("\n<ul class=\"details\">\n");
                for line in lines {
                    let line = html_escape(&line);
                    let line = if item.undone {
                        format!("<del>{line}</del>")
                    } else {
                        line
                    };
                    out.push_str(&format!("<li>{line}</li>\n"));
                }
                out.push_str("</ul>\n");
            }
            out.push_str("</li>\n");
        }
        out.push_str("</ul>\n</section>\n");
    }
    out.push_str("</body>\n</html>\n");
    out
}
