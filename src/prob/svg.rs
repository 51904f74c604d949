//! The odds as a picture (`--format svg`): hand-written SVG, a `write!` per element, no
//! plotting crate (no font stack to find, no fonts embedded; see the design's §8).
//!
//! - Outcomes that are not numbers (a table's results, true/false, records): one
//!   horizontal bar per outcome in the report's order, the label in the rulebook's words,
//!   the exact percentage at the bar's end and the fraction in the bar's tooltip.
//! - Numbers (lengths, times): a column per value on a value axis, "at least" as a step
//!   line on a right-hand 0–100% axis, the mean as a dashed line.
//! - Refusals, gaps in the source and errors: hatched grey (errors red-grey), with their
//!   words. Sampled odds: whiskers of one standard error.
//! - A sweep: one 100%-stacked bar per swept value (outcomes that are not numbers), or a
//!   column chart per value on one shared scale (numbers).
//! - `umpire diff --scenario`: old (grey) and new (blue) bars side by side per outcome, the
//!   change beside them.
//!
//! Output is deterministic: the same odds give the same bytes. No CSS, scripts or external
//! fonts: presentation attributes and a font-family list the viewer resolves.

use super::{percent, percent_f, report, stats, Case, Chance, Distribution, Method};
use crate::adjudication::Outcome;
use crate::program::Program;
use crate::render::escape_markup as esc;
use crate::render::show;
use crate::value::{Rational, Value};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use std::fmt::Write;

/// Writes one element (writing to a `String` cannot fail).
macro_rules! w {
    ($out:expr, $($t:tt)*) => {{ let _ = writeln!($out, $($t)*); }};
}

const FONT: &str = "DejaVu Sans, Verdana, Arial, Helvetica, sans-serif";
/// Okabe–Ito: told apart by readers with any common colour blindness.
const PALETTE: [&str; 7] = [
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
];
/// Text drawn over each palette colour (dark on the light ones).
const ON_PALETTE: [&str; 7] = [
    "#ffffff", "#000000", "#ffffff", "#000000", "#000000", "#ffffff", "#000000",
];
const BAR: &str = "#0072B2";
const OLD: &str = "#9a9a9a";
const AT_LEAST: &str = "#D55E00";
const INK: &str = "#222222";
const MUTED: &str = "#555555";
const GRID: &str = "#e4e4e4";
const MARGIN: f64 = 16.0;
/// A white halo around words drawn over bars and lines.
const HALO: &str =
    r##" stroke="#ffffff" stroke-width="3" stroke-linejoin="round" paint-order="stroke""##;
/// Most outcomes drawn as bars (as the text report lists): the rest are summed up.
const MAX_BARS: usize = 60;
/// Characters of a label on one line.
const WRAP: usize = 34;

/// A coordinate, at most one decimal, no trailing `.0`.
fn n(x: f64) -> String {
    let r = (x * 10.0).round() / 10.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r:.1}")
    }
}

/// The width of a text in a sans-serif face, estimated per character.
fn text_w(s: &str, size: f64) -> f64 {
    let em: f64 = s
        .chars()
        .map(|c| match c {
            'i' | 'l' | 'j' | '.' | ',' | ':' | ';' | '\'' | '|' | '!' | ' ' => 0.32,
            'f' | 't' | 'r' | '(' | ')' | '[' | ']' | '"' | '-' => 0.42,
            'm' | 'w' | 'M' | 'W' | '%' | '@' => 0.9,
            'A'..='Z' => 0.7,
            '0'..='9' => 0.64,
            _ => 0.6,
        })
        .sum();
    em * size
}

/// A label in lines of at most [`WRAP`] characters (at spaces), at most three, the last
/// cut short with `…`.
fn wrap(s: &str) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in s.split(' ') {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > WRAP {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    lines.push(line);
    if lines.len() > 3 {
        lines.truncate(3);
        lines[2].push('…');
    }
    // A single word longer than a line is cut too.
    for l in &mut lines {
        if l.chars().count() > WRAP + 6 {
            *l = l.chars().take(WRAP + 5).collect::<String>() + "…";
        }
    }
    lines
}

/// What an outcome is, for how it is drawn.
#[derive(Clone, Copy, PartialEq)]
enum Kind {
    Value,
    Refused,
    NotGiven,
    Error,
}

fn kind(c: &Case) -> Kind {
    match c {
        Case::Outcome(Outcome::Value(_)) => Kind::Value,
        Case::Outcome(Outcome::Refused { .. }) => Kind::Refused,
        Case::Outcome(Outcome::NotGiven { .. }) => Kind::NotGiven,
        Case::Error { .. } => Kind::Error,
    }
}

/// The fill of a bar: its colour, or the hatching of an outcome that is no value.
fn fill(k: Kind, colour: &str) -> String {
    match k {
        Kind::Value => colour.to_string(),
        Kind::Refused => "url(#refused)".into(),
        Kind::NotGiven => "url(#not-given)".into(),
        Kind::Error => "url(#error)".into(),
    }
}

/// The number an outcome is (lengths in inches, times in moves).
fn number(c: &Case) -> Option<Rational> {
    match c {
        Case::Outcome(Outcome::Value(v @ (Value::Int(_) | Value::Frac(_)))) => v.as_number(),
        Case::Outcome(Outcome::Value(Value::Length(l))) => Some(l.inches),
        Case::Outcome(Outcome::Value(Value::Time(t) | Value::Minutes(t))) => Some(*t),
        _ => None,
    }
}

fn f(r: Rational) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
}

/// Labels for outcomes drawn together: two refusals in the same words from different
/// sections told apart by their sections (as the text report does).
fn labels(p: &Program, cases: &[&Case]) -> Vec<String> {
    let mut out: Vec<String> = cases.iter().map(|c| report::label(p, c)).collect();
    let mut times: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in &out {
        *times.entry(l.clone()).or_default() += 1;
    }
    for (l, c) in out.iter_mut().zip(cases) {
        if times.get(l.as_str()).copied().unwrap_or(0) > 1 {
            if let Case::Outcome(
                Outcome::Refused { cite: Some(s), .. } | Outcome::NotGiven { cite: Some(s), .. },
            ) = c
            {
                *l = format!("{l} [{s}]");
            }
        }
    }
    out
}

/// A chance as a percentage: exact (`16.67%`), or the estimate.
fn pct(c: &Chance) -> String {
    match &c.exact {
        Some(e) => percent(e),
        None => percent_f(c.estimate),
    }
}

/// A chance as the bar's words: `16.67%`, or `16.61% ± 0.12%` sampled.
fn pct_text(c: &Chance) -> String {
    match (&c.exact, c.std_error) {
        (None, Some(se)) if se > 0.0 && se < 0.00005 => {
            format!("{} ± < 0.01%", percent_f(c.estimate))
        }
        (None, Some(se)) => format!("{} ± {}", percent_f(c.estimate), percent_f(se)),
        _ => pct(c),
    }
}

/// A chance for a tooltip: the exact fraction and the percentage.
fn chance_tip(c: &Chance) -> String {
    match &c.exact {
        Some(e) => format!("{e} = {}", percent(e)),
        None => pct_text(c),
    }
}

/// A chance's bar end, with its standard error.
fn reach(c: &Chance) -> f64 {
    c.estimate + c.std_error.unwrap_or(0.0)
}

/// How the chances were found, for a title: `exact, over 11 cases`, or sampled with
/// how many and the seed.
fn method(m: &Method) -> String {
    report::method_text(m)
}

/// A whole picture: the frame, the title, the hatchings, then `body`.
fn document(title: &str, width: f64, height: f64, body: &str) -> String {
    let mut s = String::new();
    let (w, h) = (n(width), n(height));
    w!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" role="img" aria-labelledby="chart-title" font-family="{FONT}" font-size="12" fill="{INK}">"#
    );
    w!(s, r#"<title id="chart-title">{}</title>"#, esc(title));
    w!(s, "<defs>");
    w!(
        s,
        r##"<pattern id="refused" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" fill="#ececec"/><rect width="2" height="6" fill="#8c8c8c"/></pattern>"##
    );
    w!(
        s,
        r##"<pattern id="not-given" width="6" height="6" patternUnits="userSpaceOnUse"><rect width="6" height="6" fill="#f4f4f4"/><circle cx="3" cy="3" r="1.3" fill="#8c8c8c"/></pattern>"##
    );
    w!(
        s,
        r##"<pattern id="error" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(-45)"><rect width="6" height="6" fill="#f4e4e4"/><rect width="2" height="6" fill="#b06060"/></pattern>"##
    );
    w!(s, "</defs>");
    w!(s, r##"<rect width="{w}" height="{h}" fill="#ffffff"/>"##);
    s.push_str(body);
    w!(s, "</svg>");
    s
}

/// The heading: the question in bold, and a line under it. The height it takes.
fn heading(out: &mut String, x: f64, y: f64, head: &str, sub: &str) -> f64 {
    w!(
        out,
        r#"<text x="{}" y="{}" font-size="15" font-weight="bold">{}</text>"#,
        n(x),
        n(y + 15.0),
        esc(head)
    );
    w!(
        out,
        r#"<text x="{}" y="{}" fill="{MUTED}">{}</text>"#,
        n(x),
        n(y + 33.0),
        esc(sub)
    );
    44.0
}

fn heading_w(head: &str, sub: &str) -> f64 {
    text_w(head, 15.0).max(text_w(sub, 12.0))
}

/// A label, right-aligned at `x`, its lines centred on `mid`.
fn label_text(out: &mut String, x: f64, mid: f64, lines: &[String], k: Kind) {
    let style = if k == Kind::Value {
        String::new()
    } else {
        format!(r#" fill="{MUTED}" font-style="italic""#)
    };
    let top = mid - (lines.len() as f64 - 1.0) * 7.0 + 4.0;
    // One line of markup: a space between the lines would be drawn, and move them.
    let _ = write!(
        out,
        r#"<text class="label" x="{}" y="{}" text-anchor="end"{style}>"#,
        n(x),
        n(top)
    );
    for (i, l) in lines.iter().enumerate() {
        let dy = if i == 0 { "0" } else { "14" };
        let _ = write!(out, r#"<tspan x="{}" dy="{dy}">{}</tspan>"#, n(x), esc(l));
    }
    w!(out, "</text>");
}

/// Whiskers of one standard error across a horizontal bar's end.
fn h_whisker(out: &mut String, x0: f64, scale: f64, c: &Chance, mid: f64) {
    if let Some(se) = c.std_error {
        let (a, b) = (
            x0 + (c.estimate - se).max(0.0) * scale,
            x0 + (c.estimate + se) * scale,
        );
        w!(
            out,
            r#"<path d="M{a} {m}H{b}M{a} {t}V{u}M{b} {t}V{u}" stroke="{INK}" stroke-width="1.2" fill="none"/>"#,
            a = n(a),
            b = n(b),
            m = n(mid),
            t = n(mid - 4.0),
            u = n(mid + 4.0)
        );
    }
}

/// Rows of horizontal bars, one per outcome: label, bar, percentage; `bar_w` is the
/// likeliest's length, or `most`'s when given. Returns the height.
#[allow(clippy::too_many_arguments)]
fn h_bars(
    out: &mut String,
    p: &Program,
    chances: &[&Chance],
    x: f64,
    y: f64,
    label_w: f64,
    bar_w: f64,
    most: Option<f64>,
) -> f64 {
    let cases: Vec<&Case> = chances.iter().map(|c| &c.case).collect();
    let names = labels(p, &cases);
    let most = most.unwrap_or_else(|| chances.iter().map(|c| reach(c)).fold(0.0, f64::max));
    let scale = if most > 0.0 { bar_w / most } else { 0.0 };
    let x0 = x + label_w + 10.0;
    let mut top = y;
    for (c, name) in chances.iter().zip(&names) {
        let lines = wrap(name);
        let row_h = (lines.len() as f64 * 14.0 + 10.0).max(26.0);
        let mid = top + row_h / 2.0;
        let k = kind(&c.case);
        w!(out, "<g>");
        w!(out, "<title>{}: {}</title>", esc(name), esc(&chance_tip(c)));
        label_text(out, x + label_w, mid, &lines, k);
        // A chance too small to see still shows as a sliver.
        let len = (c.estimate * scale).max(if c.estimate > 0.0 { 1.5 } else { 0.0 });
        let stroke = if k == Kind::Value {
            ""
        } else {
            r##" stroke="#777777" stroke-width="0.8""##
        };
        w!(
            out,
            r#"<rect class="bar" x="{}" y="{}" width="{}" height="16" fill="{}"{stroke}/>"#,
            n(x0),
            n(mid - 8.0),
            n(len),
            fill(k, BAR)
        );
        h_whisker(out, x0, scale, c, mid);
        let end = x0 + len.max(reach(c) * scale) + 6.0;
        w!(
            out,
            r#"<text class="pct" x="{}" y="{}">{}</text>"#,
            n(end),
            n(mid + 4.0),
            esc(&pct_text(c))
        );
        w!(out, "</g>");
        top += row_h;
    }
    top - y
}

/// The width the labels of these outcomes take.
fn labels_w(p: &Program, chances: &[&Chance]) -> f64 {
    let cases: Vec<&Case> = chances.iter().map(|c| &c.case).collect();
    labels(p, &cases)
        .iter()
        .flat_map(|l| wrap(l))
        .map(|l| text_w(&l, 12.0))
        .fold(40.0, f64::max)
}

/// The longest percentage text of these chances, drawn.
fn pct_w(chances: &[&Chance]) -> f64 {
    chances
        .iter()
        .map(|c| text_w(&pct_text(c), 12.0))
        .fold(0.0, f64::max)
}

/// The outcomes drawn, in order, and a line for those left out (the least likely, past
/// [`MAX_BARS`]).
fn kept(d: &Distribution) -> (Vec<&Chance>, Option<String>) {
    if d.chances.len() <= MAX_BARS {
        return (d.chances.iter().collect(), None);
    }
    let keep = super::report::likeliest(d, MAX_BARS);
    let rest = super::report::left_out(d, &keep);
    let hidden = d.chances.len() - MAX_BARS;
    let shown = d
        .chances
        .iter()
        .zip(&keep)
        .filter(|(_, k)| **k)
        .map(|(c, _)| c);
    (
        shown.collect(),
        Some(format!(
            "... and {hidden} less likely outcomes, {} between them (--format json lists all)",
            percent_f(rest)
        )),
    )
}

/// Whether the values of these distributions are all numbers (and there is one at least):
/// drawn as columns on a value axis.
fn numeric<'a>(ds: impl IntoIterator<Item = &'a Distribution>) -> bool {
    let mut any = false;
    for d in ds {
        for c in &d.chances {
            if kind(&c.case) == Kind::Value {
                if number(&c.case).is_none() {
                    return false;
                }
                any = true;
            }
        }
    }
    any
}

/// A "nice" step (1, 2 or 5 times a power of ten) of at least `raw`.
fn nice(raw: f64) -> f64 {
    if raw <= 0.0 || !raw.is_finite() {
        return 1.0;
    }
    let p = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * p)
        .find(|s| *s >= raw * (1.0 - 1e-9))
        .unwrap_or(10.0 * p)
}

/// The value axis shared by column charts: least and greatest value, and the least gap
/// between neighbouring values.
#[derive(Clone, Copy)]
struct Axis {
    lo: f64,
    hi: f64,
    gap: f64,
}

impl Axis {
    fn of<'a>(ds: impl IntoIterator<Item = &'a Distribution>) -> Axis {
        let mut vs: Vec<Rational> = ds
            .into_iter()
            .flat_map(|d| d.chances.iter().filter_map(|c| number(&c.case)))
            .collect();
        vs.sort();
        vs.dedup();
        let gap = vs
            .windows(2)
            .map(|w| f(w[1] - w[0]))
            .fold(f64::INFINITY, f64::min);
        let (lo, hi) = match (vs.first(), vs.last()) {
            (Some(a), Some(b)) => (f(*a), f(*b)),
            _ => (0.0, 0.0),
        };
        Axis {
            lo,
            hi,
            gap: if gap.is_finite() && gap > 0.0 {
                gap
            } else {
                1.0
            },
        }
    }

    /// Places a value takes on the axis (a column each, and the gaps between).
    fn slots(&self) -> f64 {
        ((self.hi - self.lo) / self.gap).round() + 1.0
    }
}

/// How tall, and where, one column chart is drawn.
struct Frame {
    /// The plot's left edge.
    x: f64,
    /// The plot's top (the tallest column).
    y: f64,
    w: f64,
    h: f64,
}

impl Frame {
    fn x_of(&self, a: &Axis, v: f64) -> f64 {
        self.x + (v - a.lo + a.gap / 2.0) / (a.hi - a.lo + a.gap) * self.w
    }
    fn pitch(&self, a: &Axis) -> f64 {
        self.w / a.slots()
    }
}

/// How the percentages on columns are written: across, up the column, or left to the
/// tooltips (too narrow).
#[derive(Clone, Copy, PartialEq)]
enum OnBars {
    Across,
    Up,
    None,
}

fn on_bars(pitch: f64, widest: f64) -> OnBars {
    if pitch >= widest + 4.0 {
        OnBars::Across
    } else if pitch >= 11.0 {
        OnBars::Up
    } else {
        OnBars::None
    }
}

/// Room above the plot for the percentages written up the columns.
fn headroom(mode: OnBars, widest: f64) -> f64 {
    match mode {
        OnBars::Across => 18.0,
        OnBars::Up => widest + 8.0,
        OnBars::None => 8.0,
    }
}

/// The percentage axis: its top (a whole number of steps) and its step.
fn y_scale(most: f64) -> (f64, f64) {
    let step = nice(most / 5.0).max(0.0001);
    let top = ((most / step).ceil() * step).max(step);
    (top, step)
}

/// Percent for an axis tick: `10%`, `2.5%`.
fn tick_pct(v: f64) -> String {
    let s = format!("{:.2}", v * 100.0);
    let s = s.trim_end_matches('0').trim_end_matches('.');
    format!("{s}%")
}

/// Columns of one distribution's numbers over `axis`, within `frame`: the percentage
/// axis (left), value labels (under), the mean, and (`at_least`) the "at least" line on a
/// right-hand axis.
#[allow(clippy::too_many_arguments)]
fn columns(
    out: &mut String,
    p: &Program,
    d: &Distribution,
    axis: &Axis,
    frame: &Frame,
    y_top: (f64, f64),
    mode: OnBars,
    at_least: bool,
) {
    let (top, step) = y_top;
    let base = frame.y + frame.h;
    let y_of = |v: f64| base - (v / top).min(1.0) * frame.h;
    // The percentage axis and its grid.
    let mut t = 0.0;
    while t <= top + step / 2.0 {
        let y = y_of(t);
        w!(
            out,
            r#"<line x1="{}" y1="{y}" x2="{}" y2="{y}" stroke="{GRID}"/>"#,
            n(frame.x),
            n(frame.x + frame.w),
            y = n(y)
        );
        w!(
            out,
            r#"<text x="{}" y="{}" text-anchor="end" font-size="11" fill="{MUTED}">{}</text>"#,
            n(frame.x - 5.0),
            n(y + 4.0),
            tick_pct(t)
        );
        t += step;
    }
    w!(
        out,
        r#"<line x1="{}" y1="{b}" x2="{}" y2="{b}" stroke="{INK}"/>"#,
        n(frame.x),
        n(frame.x + frame.w),
        b = n(base)
    );
    let pitch = frame.pitch(axis);
    let col_w = (pitch * 0.8).clamp(0.6, 60.0);
    let values: Vec<(&Chance, Rational)> = d
        .chances
        .iter()
        .filter_map(|c| number(&c.case).map(|v| (c, v)))
        .collect();
    // Value labels under the columns: all that fit, else those at a nice step.
    let names: Vec<String> = values
        .iter()
        .map(|(c, _)| report::label(p, &c.case))
        .collect();
    let widest_name = names.iter().map(|s| text_w(s, 11.0)).fold(0.0, f64::max);
    let every = if pitch >= widest_name + 6.0 {
        None
    } else {
        let fit = ((widest_name + 10.0) / pitch * axis.gap).max(axis.gap);
        Some(nice(fit))
    };
    // Percentages and value labels are written last, over the lines, with a halo.
    let mut words = String::new();
    for ((c, v), name) in values.iter().zip(&names) {
        let cx = frame.x_of(axis, f(*v));
        let h = (c.estimate / top).min(1.0) * frame.h;
        let h = if c.estimate > 0.0 { h.max(1.0) } else { 0.0 };
        w!(out, "<g>");
        w!(out, "<title>{}: {}</title>", esc(name), esc(&chance_tip(c)));
        w!(
            out,
            r#"<rect class="bar" x="{}" y="{}" width="{}" height="{}" fill="{BAR}"/>"#,
            n(cx - col_w / 2.0),
            n(base - h),
            n(col_w),
            n(h)
        );
        let mut label_at = base - h;
        if let Some(se) = c.std_error {
            let (a, b) = (y_of((c.estimate - se).max(0.0)), y_of(c.estimate + se));
            let half = (col_w / 4.0).clamp(1.0, 5.0);
            w!(
                out,
                r#"<path d="M{x} {a}V{b}M{l} {a}H{r}M{l} {b}H{r}" stroke="{INK}" stroke-width="1.2" fill="none"/>"#,
                x = n(cx),
                a = n(a),
                b = n(b),
                l = n(cx - half),
                r = n(cx + half)
            );
            label_at = label_at.min(b);
        }
        w!(out, "</g>");
        let text = pct_text(c);
        match mode {
            OnBars::Across => w!(
                words,
                r#"<text class="pct" x="{}" y="{}" text-anchor="middle" font-size="11"{HALO}>{}</text>"#,
                n(cx),
                n(label_at - 4.0),
                esc(&text)
            ),
            // Up a narrow column, a chance under 0.005% is left to the tooltip.
            OnBars::Up if text != "0.00%" => w!(
                words,
                r#"<text class="pct" x="{x}" y="{y}" font-size="10" transform="rotate(-90 {x} {y})" dominant-baseline="middle"{HALO}>{}</text>"#,
                esc(&text),
                x = n(cx),
                y = n(label_at - 4.0)
            ),
            _ => {}
        }
        let shown = match every {
            None => true,
            Some(s) => {
                let k = f(*v) / s;
                (k - k.round()).abs() < 1e-9
            }
        };
        if shown {
            w!(
                words,
                r#"<text class="value" x="{}" y="{}" text-anchor="middle" font-size="11">{}</text>"#,
                n(cx),
                n(base + 14.0),
                esc(name)
            );
        }
    }
    if at_least {
        at_least_line(out, &values, &names, axis, frame);
    }
    // The mean, dashed (its value is in the legend).
    if let Some(s) = stats(d) {
        let x = frame.x_of(axis, s.mean_f);
        w!(
            out,
            r#"<line class="mean" x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="{INK}" stroke-width="1.2" stroke-dasharray="5 4"/>"#,
            n(frame.y - 4.0),
            n(base),
            x = n(x)
        );
    }
    out.push_str(&words);
}

/// The mean of a distribution of numbers, as the text report writes it: `mean 7`,
/// `mean 3 1/2 (≈ 3.50)`.
fn mean_text(p: &Program, d: &Distribution) -> Option<String> {
    let s = stats(d)?;
    Some(
        match (&s.mean, s.mean_value()) {
            (Some(m), Some(v)) if m.is_integer() => format!("mean {}", show(p, &v)),
            (Some(_), Some(v)) => format!("mean {} (≈ {:.2})", show(p, &v), s.mean_f),
            (Some(m), None) => format!("mean {m} (≈ {:.2})", s.mean_f),
            (None, _) => format!("mean ≈ {:.2}", s.mean_f),
        } + if s.given < 1.0 - 1e-12 {
            " (of the cases that give a value)"
        } else {
            ""
        },
    )
}

/// "At least" each value as a step line on a 0–100% axis at the right.
fn at_least_line(
    out: &mut String,
    values: &[(&Chance, Rational)],
    names: &[String],
    axis: &Axis,
    frame: &Frame,
) {
    let base = frame.y + frame.h;
    let right = frame.x + frame.w;
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        w!(
            out,
            r#"<text x="{}" y="{}" font-size="11" fill="{AT_LEAST}">{}</text>"#,
            n(right + 5.0),
            n(base - t * frame.h + 4.0),
            tick_pct(t)
        );
    }
    w!(
        out,
        r#"<line x1="{r}" y1="{}" x2="{r}" y2="{}" stroke="{AT_LEAST}"/>"#,
        n(frame.y),
        n(base),
        r = n(right)
    );
    // Exact when every chance is.
    let exact: Option<Vec<&BigRational>> = values.iter().map(|(c, _)| c.exact.as_ref()).collect();
    let total_f: f64 = values.iter().map(|(c, _)| c.estimate).sum();
    let mut below_f = 0.0;
    let mut below = BigRational::zero();
    let total = exact
        .as_ref()
        .map(|ps| ps.iter().fold(BigRational::zero(), |a, b| a + *b));
    let half = frame.pitch(axis) / 2.0;
    let mut d = String::new();
    let mut dots = String::new();
    for (i, (c, v)) in values.iter().enumerate() {
        let (chance, words) = match (&total, &exact) {
            (Some(t), Some(ps)) => {
                let at = t - &below;
                below += ps[i];
                (
                    super::outcomes::to_f64(&at),
                    format!("{at} = {}", percent(&at)),
                )
            }
            _ => {
                let at = total_f - below_f;
                below_f += c.estimate;
                (at, percent_f(at))
            }
        };
        let cx = frame.x_of(axis, f(*v));
        let y = base - chance.clamp(0.0, 1.0) * frame.h;
        let _ = write!(
            d,
            "{}{} {}H{}",
            if i == 0 { "M" } else { "L" },
            n(cx - half),
            n(y),
            n(cx + half)
        );
        if half < 4.0 {
            continue;
        }
        let _ = writeln!(
            dots,
            r#"<circle cx="{}" cy="{}" r="2.5" fill="{AT_LEAST}"><title>at least {}: {}</title></circle>"#,
            n(cx),
            n(y),
            esc(&names[i]),
            esc(&words)
        );
    }
    w!(
        out,
        r#"<path class="at-least" d="{d}" stroke="{AT_LEAST}" stroke-width="2" fill="none"/>"#
    );
    out.push_str(&dots);
}

/// A mark in a legend.
enum Mark<'a> {
    /// A filled square.
    Swatch(&'a str),
    /// A line (dashed or not).
    Line(&'a str, bool),
    /// Words alone, a note.
    Note,
}

/// A legend: marks and their words along a line, wrapped at `width`. Returns its height.
fn legend(out: &mut String, x: f64, y: f64, width: f64, items: &[(Mark<'_>, String)]) -> f64 {
    let (mut cx, mut cy) = (x, y);
    for (mark, words) in items {
        let item_w = 18.0 + text_w(words, 11.0) + 16.0;
        if cx > x && cx + item_w > x + width {
            cx = x;
            cy += 18.0;
        }
        match mark {
            Mark::Note => {}
            Mark::Swatch(fill) => w!(
                out,
                r##"<rect x="{}" y="{}" width="12" height="12" fill="{fill}" stroke="#777777" stroke-width="0.5"/>"##,
                n(cx),
                n(cy)
            ),
            Mark::Line(colour, dashed) => w!(
                out,
                r#"<line x1="{}" y1="{m}" x2="{}" y2="{m}" stroke="{colour}" stroke-width="2"{}/>"#,
                n(cx),
                n(cx + 12.0),
                if *dashed {
                    r#" stroke-dasharray="4 3""#
                } else {
                    ""
                },
                m = n(cy + 6.0)
            ),
        }
        w!(
            out,
            r#"<text x="{}" y="{}" font-size="11">{}</text>"#,
            n(cx + 17.0),
            n(cy + 10.5),
            esc(words)
        );
        cx += item_w;
    }
    cy - y + 18.0
}

/// The width a column chart's plot takes for this axis, and how its percentages go.
fn plot_width(axis: &Axis, widest_pct: f64) -> (f64, OnBars) {
    let slots = axis.slots();
    let want = if slots <= 16.0 {
        widest_pct + 10.0
    } else {
        13.0
    };
    let w = (slots * want).clamp(420.0, 1200.0);
    (w, on_bars(w / slots, widest_pct))
}

/// Left of a column chart: the percentage axis's labels.
const Y_LABELS: f64 = 46.0;

/// One distribution as an SVG chart: horizontal bars for outcomes that are not numbers,
/// columns with "at least" and the mean for numbers. The question and how the odds were
/// found (exact, or sampled with how many and the seed) in the title.
pub fn chart(p: &Program, expr: &str, d: &Distribution) -> String {
    let sub = method(&d.method);
    let mut body = String::new();
    let mut width = heading_w(expr, &sub) + 2.0 * MARGIN;
    let mut y = MARGIN + heading(&mut body, MARGIN, MARGIN, expr, &sub);
    if numeric([d]) {
        let axis = Axis::of([d]);
        let values: Vec<&Chance> = d
            .chances
            .iter()
            .filter(|c| kind(&c.case) == Kind::Value)
            .collect();
        let others: Vec<&Chance> = d
            .chances
            .iter()
            .filter(|c| kind(&c.case) != Kind::Value)
            .collect();
        let widest = values
            .iter()
            .map(|c| text_w(&pct_text(c), 11.0))
            .fold(0.0, f64::max);
        let (plot_w, mode) = plot_width(&axis, widest);
        let at_least = others.is_empty();
        let mut items = vec![(
            Mark::Swatch(BAR),
            "chance of each value (left axis)".to_string(),
        )];
        if at_least {
            items.push((
                Mark::Line(AT_LEAST, false),
                "chance of at least each value (right axis)".into(),
            ));
        }
        if let Some(m) = mean_text(p, d) {
            items.push((Mark::Line(INK, true), m));
        }
        if values.iter().any(|c| c.std_error.is_some()) {
            items.push((Mark::Line(INK, false), "± one standard error".into()));
        }
        if mode == OnBars::Up && values.iter().any(|c| pct_text(c) == "0.00%") {
            items.push((
                Mark::Note,
                "(chances under 0.005% only in the tooltips)".into(),
            ));
        }
        if mode == OnBars::None {
            items.push((Mark::Note, "(each chance in its column's tooltip)".into()));
        }
        y += 4.0 + legend(&mut body, MARGIN, y + 4.0, plot_w + Y_LABELS, &items);
        let most = values.iter().map(|c| reach(c)).fold(0.0, f64::max);
        let frame = Frame {
            x: MARGIN + Y_LABELS,
            y: y + headroom(mode, widest),
            w: plot_w,
            h: 240.0,
        };
        columns(
            &mut body,
            p,
            d,
            &axis,
            &frame,
            y_scale(most),
            mode,
            at_least,
        );
        y = frame.y + frame.h + 30.0;
        width = width.max(frame.x + plot_w + 40.0 + MARGIN);
        if !others.is_empty() {
            let lw = labels_w(p, &others);
            // On the scale of the columns' likeliest, not the no-values' own.
            let most = d.chances.iter().map(reach).fold(0.0, f64::max);
            y += h_bars(&mut body, p, &others, MARGIN, y, lw, 240.0, Some(most));
            width = width.max(MARGIN + lw + 260.0 + pct_w(&others) + MARGIN);
        }
    } else {
        let (shown, rest) = kept(d);
        let lw = labels_w(p, &shown);
        let bar_w = 420.0;
        y += 6.0 + h_bars(&mut body, p, &shown, MARGIN, y + 6.0, lw, bar_w, None);
        width = width.max(MARGIN + lw + 10.0 + bar_w + 8.0 + pct_w(&shown) + MARGIN);
        if let Some(rest) = rest {
            w!(
                body,
                r#"<text x="{}" y="{}" fill="{MUTED}">{}</text>"#,
                n(MARGIN),
                n(y + 16.0),
                esc(&rest)
            );
            y += 24.0;
            width = width.max(2.0 * MARGIN + text_w(&rest, 12.0));
        }
    }
    document(&format!("{expr}: {sub}"), width, y + MARGIN, &body)
}

/// How the rows of a sweep were found: one line when all alike, else where each row's
/// own is told (`at`: "in its tooltip", "by its name").
fn methods_text(rows: &[(String, Distribution)], at: &str) -> String {
    let mut texts: Vec<String> = Vec::new();
    for (_, d) in rows {
        let t = match d.method {
            Method::Exact { .. } => "exact".to_string(),
            _ => method(&d.method),
        };
        if !texts.contains(&t) {
            texts.push(t);
        }
    }
    match texts.as_slice() {
        [one] => one.clone(),
        _ if texts.iter().all(|t| t != "exact") => {
            format!("sampled, each value with its own seed ({at}); ± one standard error")
        }
        _ => format!("exact for some values, sampled for others ({at})"),
    }
}

/// A sweep as an SVG chart: for outcomes that are not numbers, a 100%-stacked bar per
/// swept value (a colour per outcome, a legend in outcome order), where a result flips
/// is seen at a glance; for numbers, a column chart per value on one shared scale.
pub fn sweep_chart(p: &Program, expr: &str, name: &str, rows: &[(String, Distribution)]) -> String {
    let head = format!("{expr}  for each {name}");
    let numbers = numeric(rows.iter().map(|(_, d)| d));
    let sub = methods_text(
        rows,
        if numbers {
            "by its name"
        } else {
            "in its tooltip"
        },
    );
    let mut body = String::new();
    let mut width = heading_w(&head, &sub) + 2.0 * MARGIN;
    let mut y = MARGIN + heading(&mut body, MARGIN, MARGIN, &head, &sub);
    let row_label = |v: &str| format!("{name} = {v}");
    if numbers {
        let axis = Axis::of(rows.iter().map(|(_, d)| d));
        let all = || rows.iter().flat_map(|(_, d)| &d.chances);
        let widest = all()
            .map(|c| text_w(&pct_text(c), 11.0))
            .fold(0.0, f64::max);
        let (plot_w, mode) = plot_width(&axis, widest);
        let most = all()
            .filter(|c| kind(&c.case) == Kind::Value)
            .map(reach)
            .fold(0.0, f64::max);
        let scale = y_scale(most);
        let mut items = vec![(Mark::Swatch(BAR), "chance of each value".to_string())];
        items.push((
            Mark::Line(INK, true),
            "mean (its value by each chart's name)".into(),
        ));
        if all().any(|c| c.std_error.is_some()) {
            items.push((Mark::Line(INK, false), "± one standard error".into()));
        }
        y += 4.0 + legend(&mut body, MARGIN, y + 4.0, plot_w + Y_LABELS, &items);
        w!(
            body,
            r#"<text x="{}" y="{}" fill="{MUTED}" font-size="11">one scale for every chart: values across, chances up</text>"#,
            n(MARGIN),
            n(y + 10.0)
        );
        y += 14.0;
        for (v, d) in rows {
            w!(body, r#"<g class="row">"#);
            w!(
                body,
                r#"<text class="row-label" x="{}" y="{}" font-weight="bold">{}</text>"#,
                n(MARGIN),
                n(y + 16.0),
                esc(&row_label(v))
            );
            let mut about: Vec<String> = mean_text(p, d).into_iter().collect();
            if !matches!(d.method, Method::Exact { .. }) && sub.contains("by its name") {
                about.push(method(&d.method));
            }
            if !about.is_empty() {
                w!(
                    body,
                    r#"<text x="{}" y="{}" fill="{MUTED}" font-size="11">{}</text>"#,
                    n(MARGIN + text_w(&row_label(v), 13.0) + 14.0),
                    n(y + 16.0),
                    esc(&about.join("; "))
                );
            }
            let frame = Frame {
                x: MARGIN + Y_LABELS,
                y: y + 22.0 + headroom(mode, widest),
                w: plot_w,
                h: 90.0,
            };
            columns(&mut body, p, d, &axis, &frame, scale, mode, false);
            y = frame.y + frame.h + 24.0;
            let others: Vec<&Chance> = d
                .chances
                .iter()
                .filter(|c| kind(&c.case) != Kind::Value)
                .collect();
            if !others.is_empty() {
                let lw = labels_w(p, &others);
                y += h_bars(&mut body, p, &others, MARGIN, y, lw, 200.0, Some(scale.0));
                width = width.max(MARGIN + lw + 220.0 + pct_w(&others) + MARGIN);
            }
            w!(body, "</g>");
            y += 8.0;
        }
        width = width.max(MARGIN + Y_LABELS + plot_w + MARGIN);
        return document(&format!("{head}: {sub}"), width, y + MARGIN, &body);
    }
    // Every outcome any row has, in order.
    let mut cases: Vec<&Case> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for (_, d) in rows {
        for c in &d.chances {
            if seen.insert(super::key(&c.case)) {
                cases.push(&c.case);
            }
        }
    }
    cases.sort_by(|a, b| super::outcomes::order(p, a, b));
    let keys: Vec<String> = cases.iter().map(|c| super::key(c)).collect();
    let names = labels(p, &cases);
    // A colour per value outcome, in order; hatching for the rest.
    let mut colours: Vec<(String, &str)> = Vec::new();
    let mut next = 0;
    for c in &cases {
        let k = kind(c);
        if k == Kind::Value {
            let i = next % PALETTE.len();
            next += 1;
            colours.push((PALETTE[i].to_string(), ON_PALETTE[i]));
        } else {
            colours.push((fill(k, ""), INK));
        }
    }
    let bar_w = 520.0;
    let lw = rows
        .iter()
        .map(|(v, _)| text_w(v, 12.0))
        .fold(30.0, f64::max)
        .min(260.0);
    let x0 = MARGIN + lw + 10.0;
    let items: Vec<(Mark<'_>, String)> = names
        .iter()
        .zip(&colours)
        .map(|(l, (c, _))| (Mark::Swatch(c.as_str()), l.clone()))
        .collect();
    y += 4.0 + legend(&mut body, x0, y + 4.0, bar_w, &items);
    w!(
        body,
        r#"<text x="{}" y="{}" font-weight="bold">{}</text>"#,
        n(MARGIN),
        n(y + 12.0),
        esc(name)
    );
    y += 20.0;
    for (v, d) in rows {
        w!(body, r#"<g class="row">"#);
        w!(
            body,
            r#"<text class="row-label" x="{}" y="{}" text-anchor="end">{}</text>"#,
            n(MARGIN + lw),
            n(y + 15.0),
            esc(v)
        );
        // The row's own total (a sampled row sums to one too, up to rounding).
        let total: f64 = d.chances.iter().map(|c| c.estimate).sum();
        let mut x = x0;
        for (i, k) in keys.iter().enumerate() {
            let Some(c) = d.chances.iter().find(|c| &super::key(&c.case) == k) else {
                continue;
            };
            let seg = if total > 0.0 {
                c.estimate / total * bar_w
            } else {
                0.0
            };
            let tip = format!(
                "{} = {v}: {} {}{}",
                name,
                names[i],
                chance_tip(c),
                match d.method {
                    Method::Exact { .. } => String::new(),
                    _ => format!(" ({})", method(&d.method)),
                }
            );
            w!(body, "<g>");
            w!(body, "<title>{}</title>", esc(&tip));
            w!(
                body,
                r##"<rect class="seg" x="{}" y="{}" width="{}" height="22" fill="{}" stroke="#ffffff" stroke-width="1"/>"##,
                n(x),
                n(y),
                n(seg),
                colours[i].0
            );
            let words = pct(c);
            if seg >= text_w(&words, 11.0) + 6.0 {
                w!(
                    body,
                    r#"<text class="pct" x="{}" y="{}" text-anchor="middle" font-size="11" fill="{}">{}</text>"#,
                    n(x + seg / 2.0),
                    n(y + 15.0),
                    colours[i].1,
                    esc(&words)
                );
            }
            w!(body, "</g>");
            x += seg;
        }
        w!(body, "</g>");
        y += 30.0;
    }
    // The percentage axis under the bars.
    for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
        let x = x0 + t * bar_w;
        w!(
            body,
            r#"<line x1="{x}" y1="{}" x2="{x}" y2="{}" stroke="{MUTED}"/>"#,
            n(y - 6.0),
            n(y - 2.0),
            x = n(x)
        );
        w!(
            body,
            r#"<text x="{}" y="{}" text-anchor="middle" font-size="11" fill="{MUTED}">{}</text>"#,
            n(x),
            n(y + 10.0),
            tick_pct(t)
        );
    }
    y += 16.0;
    width = width.max(x0 + bar_w + MARGIN + 10.0);
    document(&format!("{head}: {sub}"), width, y + MARGIN, &body)
}

/// One adjudication of a scenario under both rulesets (`umpire diff --scenario`): its
/// odds under each, or the error that stopped it.
pub struct Compared<'a> {
    /// The scenario's name for it.
    pub name: &'a str,
    /// The expression.
    pub expr: &'a str,
    /// The odds under the old ruleset, or its error's message.
    pub old: Result<&'a Distribution, String>,
    /// The odds under the new one.
    pub new: Result<&'a Distribution, String>,
    /// Fields the new ruleset adds that the old one reads as absent.
    pub absent: &'a [String],
}

/// A chance on one side of a comparison.
#[derive(Clone)]
struct Side {
    exact: Option<BigRational>,
    estimate: f64,
    std_error: Option<f64>,
}

/// An outcome of a comparison: its words, what it is, its chance under each.
struct Row {
    label: String,
    kind: Kind,
    old: Option<Side>,
    new: Option<Side>,
}

impl Side {
    fn of(c: &Chance) -> Side {
        Side {
            exact: c.exact.clone(),
            estimate: c.estimate,
            std_error: c.std_error,
        }
    }
    fn certain() -> Side {
        Side {
            exact: Some(BigRational::from_integer(1.into())),
            estimate: 1.0,
            std_error: None,
        }
    }
    fn chance(&self) -> Chance {
        Chance {
            case: Case::Outcome(Outcome::Value(Value::Bool(true))),
            exact: self.exact.clone(),
            estimate: self.estimate,
            std_error: self.std_error,
        }
    }
}

/// The outcomes of both sides, in the order they come (the old ruleset's first).
fn rows_of(p_old: &Program, p_new: &Program, c: &Compared<'_>) -> Vec<Row> {
    let mut rows: Vec<(String, Row)> = Vec::new();
    for (new, p, side) in [(false, p_old, &c.old), (true, p_new, &c.new)] {
        let mut put = |key: String, label: String, kind: Kind, s: Side| {
            let at = match rows.iter().position(|(k, _)| *k == key) {
                Some(i) => i,
                None => {
                    rows.push((
                        key,
                        Row {
                            label,
                            kind,
                            old: None,
                            new: None,
                        },
                    ));
                    rows.len() - 1
                }
            };
            if new {
                rows[at].1.new = Some(s);
            } else {
                rows[at].1.old = Some(s);
            }
        };
        match side {
            Ok(d) => {
                let cases: Vec<&Case> = d.chances.iter().map(|x| &x.case).collect();
                for (x, l) in d.chances.iter().zip(labels(p, &cases)) {
                    put(super::key(&x.case), l, kind(&x.case), Side::of(x));
                }
            }
            Err(m) => put(
                format!("error: {m}"),
                format!("error: {m}"),
                Kind::Error,
                Side::certain(),
            ),
        }
    }
    rows.into_iter().map(|(_, r)| r).collect()
}

/// The change from old to new: `+10.00%`, `-10.00%`, or `None` when there is none.
fn change(r: &Row) -> Option<String> {
    let exact = |s: &Option<Side>| match s {
        None => Some(BigRational::zero()),
        Some(s) => s.exact.clone(),
    };
    match (exact(&r.old), exact(&r.new)) {
        (Some(a), Some(b)) => {
            let d = &b - &a;
            if d.is_zero() {
                None
            } else {
                let sign = if d.is_positive() { "+" } else { "-" };
                Some(format!("{sign}{}", percent(&d.abs())))
            }
        }
        _ => {
            let e = |s: &Option<Side>| s.as_ref().map_or(0.0, |s| s.estimate);
            Some(format!("{:+.2}%", (e(&r.new) - e(&r.old)) * 100.0))
        }
    }
}

/// How one side's odds were found, in a few words.
fn side_method(s: &Result<&Distribution, String>) -> String {
    match s {
        Ok(d) => match d.method {
            Method::Exact { .. } => "exact".into(),
            _ => method(&d.method),
        },
        Err(_) => "an error".into(),
    }
}

/// `umpire diff --scenario` as an SVG chart: for each adjudication, old (grey) and new
/// (blue) bars side by side per outcome, the change beside them.
pub fn diff_chart(
    old_name: &str,
    new_name: &str,
    p_old: &Program,
    p_new: &Program,
    compared: &[Compared<'_>],
) -> String {
    let head = format!("{old_name} → {new_name}");
    let sub = "the odds of the scenario's adjudications under each: old (grey) and new (blue)";
    let mut body = String::new();
    let mut width = heading_w(&head, sub) + 2.0 * MARGIN;
    let mut y = MARGIN + heading(&mut body, MARGIN, MARGIN, &head, sub);
    let panels: Vec<Vec<Row>> = compared.iter().map(|c| rows_of(p_old, p_new, c)).collect();
    let lw = panels
        .iter()
        .flatten()
        .flat_map(|r| wrap(&r.label))
        .map(|l| text_w(&l, 12.0))
        .fold(60.0, f64::max);
    let bar_w = 320.0;
    let x0 = MARGIN + lw + 10.0;
    let pct_col = panels
        .iter()
        .flatten()
        .flat_map(|r| [&r.old, &r.new])
        .flatten()
        .map(|s| text_w(&pct_text(&s.chance()), 12.0))
        .fold(50.0, f64::max);
    let change_x = x0 + bar_w + 12.0 + pct_col + 70.0;
    let mut items = vec![
        (Mark::Swatch(OLD), format!("old: {old_name}")),
        (Mark::Swatch(BAR), format!("new: {new_name}")),
    ];
    for (k, swatch, words) in [
        (Kind::Refused, "url(#refused)", "refused"),
        (Kind::NotGiven, "url(#not-given)", "not given"),
        (Kind::Error, "url(#error)", "error"),
    ] {
        if panels.iter().flatten().any(|r| r.kind == k) {
            items.push((Mark::Swatch(swatch), words.into()));
        }
    }
    y += 4.0 + legend(&mut body, MARGIN, y + 4.0, change_x + 60.0, &items);
    if compared.is_empty() {
        w!(
            body,
            r#"<text x="{}" y="{}" fill="{MUTED}">the scenario has no adjudications</text>"#,
            n(MARGIN),
            n(y + 16.0)
        );
        y += 24.0;
    }
    for (c, rows) in compared.iter().zip(&panels) {
        w!(body, r#"<g class="adjudication">"#);
        y += 14.0;
        w!(
            body,
            r#"<line x1="{}" y1="{}" x2="{}" y2="{}" stroke="{GRID}"/>"#,
            n(MARGIN),
            n(y - 6.0),
            n(change_x + 60.0),
            n(y - 6.0)
        );
        let title = format!("{} — {}", c.name, c.expr);
        w!(
            body,
            r#"<text x="{}" y="{}" font-weight="bold" font-size="13">{}</text>"#,
            n(MARGIN),
            n(y + 12.0),
            esc(&title)
        );
        width = width.max(2.0 * MARGIN + text_w(&title, 13.0));
        y += 18.0;
        let (mo, mn) = (side_method(&c.old), side_method(&c.new));
        let same = rows.iter().all(|r| change(r).is_none());
        let mut note = if mo == mn {
            mo
        } else {
            format!("old: {mo}; new: {mn}")
        };
        if same {
            note.push_str(" — the same under both");
        }
        if !c.absent.is_empty() {
            let fields: Vec<String> = c.absent.iter().map(|f| format!("`{f}`")).collect();
            note.push_str(&format!(
                " (the old ruleset has no {}: read as absent there)",
                fields.join(", ")
            ));
        }
        w!(
            body,
            r#"<text x="{}" y="{}" fill="{MUTED}" font-size="11">{}</text>"#,
            n(MARGIN),
            n(y + 12.0),
            esc(&note)
        );
        width = width.max(2.0 * MARGIN + text_w(&note, 11.0));
        y += 18.0;
        w!(
            body,
            r#"<text x="{}" y="{}" font-size="11" fill="{MUTED}" text-anchor="end">change</text>"#,
            n(change_x + 50.0),
            n(y + 8.0)
        );
        y += 10.0;
        let most = rows
            .iter()
            .flat_map(|r| [&r.old, &r.new])
            .flatten()
            .map(|s| s.estimate + s.std_error.unwrap_or(0.0))
            .fold(0.0, f64::max);
        let scale = if most > 0.0 { bar_w / most } else { 0.0 };
        for r in rows {
            let lines = wrap(&r.label);
            let row_h = (lines.len() as f64 * 14.0 + 10.0).max(34.0);
            let mid = y + row_h / 2.0;
            w!(body, r#"<g class="outcome">"#);
            let tip = |s: &Option<Side>| s.as_ref().map_or("-".into(), |s| chance_tip(&s.chance()));
            w!(
                body,
                "<title>{}: old {}, new {}</title>",
                esc(&r.label),
                esc(&tip(&r.old)),
                esc(&tip(&r.new))
            );
            label_text(&mut body, MARGIN + lw, mid, &lines, r.kind);
            for (side, top, colour) in [(&r.old, mid - 13.0, OLD), (&r.new, mid + 1.0, BAR)] {
                match side {
                    Some(s) => {
                        let len =
                            (s.estimate * scale).max(if s.estimate > 0.0 { 1.5 } else { 0.0 });
                        let stroke = if r.kind == Kind::Value {
                            String::new()
                        } else {
                            format!(r#" stroke="{colour}" stroke-width="1.5""#)
                        };
                        w!(
                            body,
                            r#"<rect class="bar {}" x="{}" y="{}" width="{}" height="12" fill="{}"{stroke}/>"#,
                            if colour == OLD { "old" } else { "new" },
                            n(x0),
                            n(top),
                            n(len),
                            fill(r.kind, colour)
                        );
                        let ch = s.chance();
                        h_whisker(&mut body, x0, scale, &ch, top + 6.0);
                        w!(
                            body,
                            r#"<text class="pct" x="{}" y="{}" font-size="11">{}</text>"#,
                            n(x0 + len.max(reach(&ch) * scale) + 5.0),
                            n(top + 10.0),
                            esc(&pct_text(&ch))
                        );
                    }
                    None => w!(
                        body,
                        r#"<text class="pct" x="{}" y="{}" font-size="11" fill="{MUTED}">0%</text>"#,
                        n(x0 + 2.0),
                        n(top + 10.0)
                    ),
                }
            }
            match change(r) {
                Some(t) => w!(
                    body,
                    r#"<text class="change" x="{}" y="{}" text-anchor="end" font-weight="bold">{}</text>"#,
                    n(change_x + 50.0),
                    n(mid + 4.0),
                    esc(&t)
                ),
                None => w!(
                    body,
                    r#"<text class="change" x="{}" y="{}" text-anchor="end" fill="{MUTED}">same</text>"#,
                    n(change_x + 50.0),
                    n(mid + 4.0)
                ),
            }
            w!(body, "</g>");
            y += row_h;
        }
        w!(body, "</g>");
    }
    width = width.max(change_x + 60.0 + MARGIN);
    document(&format!("{head}: {sub}"), width, y + MARGIN, &body)
}
