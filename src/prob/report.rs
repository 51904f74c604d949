//! The odds as a wargamer reads them — each outcome with its fraction, percentage and a
//! bar; numbers with mean, least, greatest and "at least" / "at most" — and as JSON.

use super::outcomes::Shared;
use super::{percent, percent_f, stats, Case, Distribution, Method, OutKey};
use crate::adjudication::Outcome;
use crate::diagnostic::{Code, Diag};
use crate::program::Program;
use crate::render::{show, to_json};
use num_bigint::BigInt;
use num_traits::Zero;
use serde_json::json;

/// Bar width, in characters, of the likeliest outcome.
const BAR: f64 = 30.0;
/// Most outcomes listed one to a line.
const MAX_ROWS: usize = 60;

/// An outcome as a short label: `Well Handled`, `7`, `refused: ...`.
pub fn label(p: &Program, c: &Case) -> String {
    match c {
        Case::Outcome(Outcome::Value(v)) => show(p, v),
        Case::Outcome(Outcome::Refused { reason, .. }) => format!("refused: {reason}"),
        Case::Outcome(Outcome::NotGiven { what, .. }) => format!("not given: {what}"),
        Case::Error { message, .. } => format!("error: {message}"),
    }
}

/// Labels for outcomes listed together: two refusals in the same words from different
/// sections are told apart by their sections.
fn labels(p: &Program, cases: &[Case]) -> Vec<String> {
    let mut out: Vec<String> = cases.iter().map(|c| label(p, c)).collect();
    // How often each label comes, counted once (a sampled distribution can have many
    // thousands of outcomes: comparing each with every other took minutes).
    let mut times: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for l in &out {
        *times.entry(l.clone()).or_default() += 1;
    }
    for (i, l) in out.iter_mut().enumerate() {
        if times.get(l.as_str()).copied().unwrap_or(0) > 1 {
            if let Case::Outcome(
                Outcome::Refused { cite: Some(c), .. } | Outcome::NotGiven { cite: Some(c), .. },
            ) = &cases[i]
            {
                *l = format!("{l} [{c}]");
            }
        }
    }
    out
}

/// A bar for chance `p` when the likeliest outcome has chance `top`: the likeliest fills
/// the whole width, the others in proportion.
fn bar(p: f64, top: f64) -> String {
    let share = if top > 0.0 { p / top } else { 0.0 };
    let n = (share * BAR).round().clamp(0.0, BAR) as usize;
    // A chance too small for a whole block still shows.
    if n == 0 && p > 0.0 {
        "▏".into()
    } else {
        "█".repeat(n)
    }
}

/// A standard error as a percentage, never shown as a bare zero.
fn error_text(se: f64) -> String {
    if se > 0.0 && se < 0.00005 {
        "< 0.01%".into()
    } else {
        percent_f(se)
    }
}

fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A count with thousands separated: `37,412`.
fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// How many adjudications a sampling was asked to take: `--samples N` (always taken in
/// full), or the default count, which stops at the work limit
/// ([`super::MAX_STEPS`]). `None` when the odds are exact.
pub fn samples_asked(m: &Method) -> Option<u64> {
    match m {
        Method::Exact { .. } => None,
        // The default count is taken only when there was too much to enumerate.
        Method::Sampled {
            samples,
            over_limit: Some(_),
            ..
        } => Some(super::DEFAULT_SAMPLES.max(*samples)),
        Method::Sampled { samples, .. } => Some(*samples),
    }
}

/// How the chances were found, in a line: `exact, over 10 cases`.
pub fn method_text(m: &Method) -> String {
    match m {
        Method::Exact { cases } => format!("exact, over {}", plural(*cases, "case", "cases")),
        Method::Sampled {
            samples,
            seed,
            over_limit,
        } => {
            let n = plural(*samples, "adjudication", "adjudications");
            let asked = samples_asked(m).unwrap_or(*samples);
            match over_limit {
                Some(limit) if asked > *samples => format!(
                    "sampled: {} of {} adjudications, stopped by the work limit of sampling ({} steps), as exact odds need more than {} of work (--limit), with seed {seed}; ± one standard error",
                    grouped(*samples),
                    grouped(asked),
                    super::MAX_STEPS,
                    plural(*limit as u64, "case", "cases")
                ),
                Some(limit) => format!(
                    "sampled: exact odds need more than {} of work (--limit), so {n} with seed {seed}; ± one standard error",
                    plural(*limit as u64, "case", "cases")
                ),
                None => format!("sampled: {n} with seed {seed}; ± one standard error"),
            }
        }
    }
}

/// Each chance's fraction (empty when sampled) and percentage (with its standard error
/// when sampled); exact ones over one shared denominator ([`Shared`]).
fn chance_texts(d: &Distribution, shared: Option<&Shared>) -> Vec<(String, String)> {
    d.chances
        .iter()
        .enumerate()
        .map(|(i, c)| match (&c.exact, c.std_error) {
            (Some(p), _) => {
                let pct = match shared.and_then(|s| Some((s, s.nums.get(i)?))) {
                    Some((s, n)) => s.percent(n),
                    None => percent(p),
                };
                (p.to_string(), pct)
            }
            (None, Some(se)) => (
                String::new(),
                format!("{} ± {}", percent_f(c.estimate), error_text(se)),
            ),
            (None, None) => (String::new(), percent_f(c.estimate)),
        })
        .collect()
}

/// The exact chances of a distribution over one shared denominator, when all are exact.
fn shared(d: &Distribution) -> Option<Shared> {
    let exact = d.chances.iter().all(|c| c.exact.is_some());
    (exact && !d.chances.is_empty())
        .then(|| Shared::of(d.chances.iter().filter_map(|c| c.exact.as_ref())))
}

/// Cumulative chances (at least / at most) of each outcome, when all are numbers.
fn cumulative(d: &Distribution, shared: Option<&Shared>) -> Option<Vec<(String, String)>> {
    if d.chances.iter().any(|c| c.case.number().is_none()) {
        return None;
    }
    let mut out = Vec::with_capacity(d.chances.len());
    // Running totals: at most this value, and (total minus those below) at least it.
    match shared {
        Some(s) => {
            let mut below = BigInt::zero();
            for n in &s.nums {
                let most = &below + n;
                out.push((s.percent(&(&s.total - &below)), s.percent(&most)));
                below = most;
            }
        }
        None => {
            let total: f64 = d.chances.iter().map(|c| c.estimate).sum();
            let mut below = 0.0;
            for c in &d.chances {
                let most = below + c.estimate;
                out.push((percent_f(total - below), percent_f(most)));
                below = most;
            }
        }
    }
    Some(out)
}

/// Which outcomes are among the `most` likeliest (all, when there are no more).
pub(super) fn likeliest(d: &Distribution, most: usize) -> Vec<bool> {
    if d.chances.len() <= most {
        return vec![true; d.chances.len()];
    }
    let mut by_chance: Vec<usize> = (0..d.chances.len()).collect();
    by_chance.sort_by(|&a, &b| d.chances[b].estimate.total_cmp(&d.chances[a].estimate));
    let mut keep = vec![false; d.chances.len()];
    for &i in &by_chance[..most] {
        keep[i] = true;
    }
    keep
}

/// The chance of the outcomes not kept, between them.
pub(super) fn left_out(d: &Distribution, keep: &[bool]) -> f64 {
    d.chances
        .iter()
        .zip(keep)
        .filter(|(_, k)| !**k)
        .map(|(c, _)| c.estimate)
        .sum()
}

/// The widest exact fraction the text shows.
const MAX_FRACTION: usize = 24;

/// One distribution as text: a line saying how it was found, then one line per outcome.
pub fn text(p: &Program, expr: &str, d: &Distribution) -> String {
    let mut out = format!("{expr}  ({})\n", method_text(&d.method));
    let cases: Vec<Case> = d.chances.iter().map(|c| c.case.clone()).collect();
    let labels = labels(p, &cases);
    let shared = shared(d);
    let mut shown = chance_texts(d, shared.as_ref());
    // A fraction wider than a line (`100d6 > 100d6`: 155 digits over 156) is left to
    // JSON and CSV: the percentage says it here.
    let mut elided = false;
    for (frac, _) in &mut shown {
        if frac.chars().count() > MAX_FRACTION {
            *frac = "…".to_string();
            elided = true;
        }
    }
    let w_label = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w_frac = shown.iter().map(|s| s.0.chars().count()).max().unwrap_or(0);
    let w_pct = shown.iter().map(|s| s.1.chars().count()).max().unwrap_or(0);
    let cumul = cumulative(d, shared.as_ref());
    if cumul.is_some() {
        out.push_str(&format!(
            "  {:<w_label$}  {:>w_frac$}  {:>w_pct$}  {:>9}  {:>9}\n",
            "", "", "", "at least", "at most"
        ));
    }
    // A long list (a sum of many dice, sampled) shows its most likely outcomes.
    let keep = likeliest(d, MAX_ROWS);
    // Bars are scaled to the likeliest outcome.
    let top = d.chances.iter().map(|c| c.estimate).fold(0.0, f64::max);
    for (i, c) in d.chances.iter().enumerate() {
        if !keep[i] {
            continue;
        }
        let (frac, pct) = &shown[i];
        let cum = match &cumul {
            Some(cs) => format!("  {:>9}  {:>9}", cs[i].0, cs[i].1),
            None => String::new(),
        };
        out.push_str(&format!(
            "  {:<w_label$}  {:>w_frac$}  {:>w_pct$}{cum}  {}\n",
            labels[i],
            frac,
            pct,
            bar(c.estimate, top)
        ));
    }
    let hidden = keep.iter().filter(|k| !**k).count();
    if hidden > 0 {
        let rest = left_out(d, &keep);
        out.push_str(&format!(
            "  ... and {hidden} less likely outcomes, {} between them (--format json lists all)\n",
            percent_f(rest)
        ));
    }
    if elided {
        out.push_str(&format!(
            "  (fractions over {MAX_FRACTION} characters are shown as …: --format json or csv gives them)\n"
        ));
    }
    if let Some(s) = stats(d) {
        let mean = match (&s.mean, s.mean_value()) {
            (Some(m), Some(v)) if m.is_integer() => show(p, &v),
            (Some(_), Some(v)) => format!("{} (≈ {:.2})", show(p, &v), s.mean_f),
            (Some(m), None) => format!("{m} (≈ {:.2})", s.mean_f),
            (None, _) => format!("≈ {:.2}", s.mean_f),
        };
        let given = if s.given < 1.0 - 1e-12 {
            " (of the cases that give a value)"
        } else {
            ""
        };
        // Sampled, the extremes are only those the samples met.
        let (low, high) = if matches!(d.method, Method::Sampled { .. }) {
            ("lowest seen", "highest seen")
        } else {
            ("least", "greatest")
        };
        out.push_str(&format!(
            "  mean {mean}, {low} {}, {high} {}{given}\n",
            show(p, &s.min),
            show(p, &s.max)
        ));
    }
    out
}

fn case_json(p: &Program, c: &Case) -> serde_json::Value {
    match c {
        Case::Outcome(Outcome::Value(v)) => {
            let mut m = serde_json::Map::new();
            m.insert("value".into(), to_json(p, v));
            serde_json::Value::Object(m)
        }
        Case::Outcome(Outcome::Refused { reason, cite }) => {
            json!({ "refused": { "reason": reason, "cite": cite } })
        }
        Case::Outcome(Outcome::NotGiven { what, cite }) => {
            json!({ "unspecified": { "what": what, "cite": cite } })
        }
        Case::Error {
            code,
            message,
            help,
            subject,
        } => json!({
            "error": crate::eval::error_json(*code, message, help.as_deref(), subject.as_deref())
        }),
    }
}

/// One distribution as JSON: `{"method": "exact", "cases": 10, "outcomes": [{"value":
/// ..., "probability": "2/5", "estimate": 0.4}], "mean": "7/2", ...}`.
pub fn json(p: &Program, expr: &str, d: &Distribution) -> serde_json::Value {
    let outcomes: Vec<serde_json::Value> = d
        .chances
        .iter()
        .map(|c| {
            let mut o = case_json(p, &c.case);
            if let serde_json::Value::Object(m) = &mut o {
                if let Some(x) = &c.exact {
                    m.insert(
                        "probability".into(),
                        serde_json::Value::String(x.to_string()),
                    );
                }
                m.insert("estimate".into(), json!(c.estimate));
                if let Some(se) = c.std_error {
                    m.insert("std_error".into(), json!(se));
                }
            }
            o
        })
        .collect();
    let mut m = serde_json::Map::new();
    m.insert("expr".into(), json!(expr));
    match &d.method {
        Method::Exact { cases } => {
            m.insert("method".into(), json!("exact"));
            m.insert("cases".into(), json!(cases));
        }
        Method::Sampled {
            samples,
            seed,
            over_limit,
        } => {
            m.insert("method".into(), json!("sampled"));
            m.insert("samples".into(), json!(samples));
            m.insert(
                "samples_asked".into(),
                json!(samples_asked(&d.method).unwrap_or(*samples)),
            );
            m.insert("seed".into(), json!(seed));
            if let Some(l) = over_limit {
                m.insert("limit".into(), json!(l));
                // What stopped exact work, and the flag that raises it.
                m.insert("stopped".into(), json!("--limit"));
            }
        }
    }
    // Moved in, not copied (`json!` would serialise the whole list again).
    m.insert("outcomes".into(), serde_json::Value::Array(outcomes));
    if let Some(s) = stats(d) {
        if let Some(mean) = &s.mean {
            m.insert("mean".into(), json!(mean.to_string()));
        }
        if let Some(v) = s.mean_value() {
            m.insert("mean_value".into(), to_json(p, &v));
        }
        m.insert("mean_estimate".into(), json!(s.mean_f));
        // Sampled, the extremes are only those the samples met.
        let (low, high) = if matches!(d.method, Method::Sampled { .. }) {
            ("min_seen", "max_seen")
        } else {
            ("min", "max")
        };
        m.insert(low.into(), to_json(p, &s.min));
        m.insert(high.into(), to_json(p, &s.max));
    }
    serde_json::Value::Object(m)
}

/// A sweep as text: one row per value, one column per outcome (its percentage).
pub fn sweep_text(p: &Program, expr: &str, name: &str, rows: &[(String, Distribution)]) -> String {
    let rows: Vec<(Vec<&str>, &Distribution)> =
        rows.iter().map(|(v, d)| (vec![v.as_str()], d)).collect();
    table_text(p, expr, &[name], &rows)
}

/// Several sweeps as text: one row per combination of their values (a column per
/// swept name, the first outermost), one column per outcome (its percentage).
pub fn sweeps_text(
    p: &Program,
    expr: &str,
    names: &[String],
    rows: &[(Vec<String>, Distribution)],
) -> String {
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let rows: Vec<(Vec<&str>, &Distribution)> = rows
        .iter()
        .map(|(v, d)| (v.iter().map(String::as_str).collect(), d))
        .collect();
    table_text(p, expr, &names, &rows)
}

/// `a`, `a and b`, `a, b and c`.
fn and_list(names: &[&str]) -> String {
    match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The table of a sweep (one or several names): a row per combination of values.
fn table_text(
    p: &Program,
    expr: &str,
    names: &[&str],
    rows: &[(Vec<&str>, &Distribution)],
) -> String {
    let mut out = format!("{expr}  for each {}\n", and_list(names));
    // Every outcome any row has, in order.
    let mut cases: Vec<Case> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Each row's chances by outcome key, made once.
    let by_key: Vec<std::collections::HashMap<OutKey, usize>> = rows
        .iter()
        .map(|(_, d)| {
            d.chances
                .iter()
                .enumerate()
                .map(|(i, c)| (OutKey::of(&c.case), i))
                .collect()
        })
        .collect();
    // Each row's percentages, worked out once (exact ones over a shared denominator).
    let shown: Vec<Vec<(String, String)>> = rows
        .iter()
        .map(|(_, d)| chance_texts(d, shared(d).as_ref()))
        .collect();
    for (_, d) in rows {
        for c in &d.chances {
            if seen.insert(OutKey::of(&c.case)) {
                cases.push(c.case.clone());
            }
        }
    }
    cases.sort_by(|a, b| super::order(p, a, b));
    let keys: Vec<OutKey> = cases.iter().map(OutKey::of).collect();
    let heads = labels(p, &cases);
    let means: Vec<Option<f64>> = rows
        .iter()
        .map(|(_, d)| stats(d).map(|s| s.mean_f))
        .collect();
    let numeric = means.iter().all(Option::is_some);
    // Each swept name's column as wide as its name and its widest value.
    let w_names: Vec<usize> = names
        .iter()
        .enumerate()
        .map(|(i, n)| {
            rows.iter()
                .map(|(v, _)| v.get(i).map_or(0, |v| v.chars().count()))
                .chain([n.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let cells: Vec<Vec<String>> = rows
        .iter()
        .enumerate()
        .map(|(row, _)| {
            keys.iter()
                .map(|k| match by_key[row].get(k) {
                    Some(&i) => shown[row][i].1.clone(),
                    None => "-".into(),
                })
                .collect()
        })
        .collect();
    let widths: Vec<usize> = heads
        .iter()
        .enumerate()
        .map(|(i, h)| {
            cells
                .iter()
                .map(|r| r[i].chars().count())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    for (n, w) in names.iter().zip(&w_names) {
        out.push_str(&format!("  {n:<w$}"));
    }
    for (h, w) in heads.iter().zip(&widths) {
        out.push_str(&format!("  {h:>w$}"));
    }
    if numeric {
        out.push_str("  mean");
    }
    out.push('\n');
    for (r, (v, _)) in rows.iter().enumerate() {
        for (x, w) in v.iter().zip(&w_names) {
            out.push_str(&format!("  {x:<w$}"));
        }
        for (c, w) in cells[r].iter().zip(&widths) {
            out.push_str(&format!("  {c:>w$}"));
        }
        if let (true, Some(mean)) = (numeric, means[r]) {
            out.push_str(&format!("  {mean:.2}"));
        }
        out.push('\n');
    }
    let methods: Vec<String> = rows.iter().map(|(_, d)| method_text(&d.method)).collect();
    if methods.iter().all(|m| m.starts_with("exact")) {
        out.push_str("  (exact)\n");
    } else {
        for ((v, _), m) in rows.iter().zip(&methods) {
            let at: Vec<String> = names
                .iter()
                .zip(v)
                .map(|(n, x)| format!("{n} = {x}"))
                .collect();
            out.push_str(&format!("  {}: {m}\n", at.join(", ")));
        }
    }
    out
}

/// A sweep as JSON: `{"sweep": NAME, "rows": [{"at": VALUE, ...distribution}]}`.
pub fn sweep_json(
    p: &Program,
    expr: &str,
    name: &str,
    rows: &[(String, Distribution)],
) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|(v, d)| {
            let mut j = json(p, expr, d);
            if let serde_json::Value::Object(m) = &mut j {
                m.insert("at".into(), swept_json(v));
            }
            j
        })
        .collect();
    // The rows moved in, not copied (`json!` would serialise them all again).
    let mut m = serde_json::Map::new();
    m.insert("expr".into(), json!(expr));
    m.insert("sweep".into(), json!(name));
    m.insert("rows".into(), serde_json::Value::Array(rows));
    serde_json::Value::Object(m)
}

/// A value swept, as the kind of value it is: a number, true/false, or a name.
pub fn swept_json(v: &str) -> serde_json::Value {
    match v.parse::<i64>() {
        Ok(n) => json!(n),
        Err(_) if v == "true" || v == "false" => json!(v == "true"),
        Err(_) => json!(v),
    }
}

/// Several sweeps as JSON: `{"expr": EXPR, "sweeps": [NAME, ...], "rows": [{"at": {NAME:
/// VALUE, ...}, ...distribution}]}`, a row per combination (the first sweep outermost).
pub fn sweeps_json(
    p: &Program,
    expr: &str,
    names: &[String],
    rows: &[(Vec<String>, Distribution)],
) -> serde_json::Value {
    let rows: Vec<serde_json::Value> = rows
        .iter()
        .map(|(vs, d)| {
            let mut j = json(p, expr, d);
            if let serde_json::Value::Object(m) = &mut j {
                let at: serde_json::Map<String, serde_json::Value> = names
                    .iter()
                    .zip(vs)
                    .map(|(n, v)| (n.clone(), swept_json(v)))
                    .collect();
                m.insert("at".into(), serde_json::Value::Object(at));
            }
            j
        })
        .collect();
    let mut m = serde_json::Map::new();
    m.insert("expr".into(), json!(expr));
    m.insert("sweeps".into(), json!(names));
    m.insert("rows".into(), serde_json::Value::Array(rows));
    serde_json::Value::Object(m)
}

/// The CSV header of a distribution's rows, after any swept names' columns.
const CSV_HEADER: [&str; 6] = [
    "outcome",
    "fraction",
    "probability",
    "percent",
    "at least",
    "at most",
];

/// A distribution's rows for CSV, each after `at` (the swept values, if any): outcome,
/// exact fraction (empty when sampled), probability as a decimal, percent, at least and
/// at most (empty unless every outcome is a number).
fn csv_rows(
    p: &Program,
    at: &[&str],
    d: &Distribution,
    out: &mut csv::Writer<Vec<u8>>,
) -> Result<(), csv::Error> {
    let cases: Vec<Case> = d.chances.iter().map(|c| c.case.clone()).collect();
    let labels = labels(p, &cases);
    let shared = shared(d);
    let cumul = cumulative(d, shared.as_ref());
    let shown = chance_texts(d, shared.as_ref());
    for (i, c) in d.chances.iter().enumerate() {
        let frac = &shown[i].0;
        // The percentage alone (a sampled one without its standard error).
        let pct = match &c.exact {
            Some(_) => shown[i].1.clone(),
            None => percent_f(c.estimate),
        };
        let (least, most) = match &cumul {
            Some(cs) => (cs[i].0.as_str(), cs[i].1.as_str()),
            None => ("", ""),
        };
        let estimate = c.estimate.to_string();
        let row =
            at.iter()
                .copied()
                .chain([labels[i].as_str(), frac, &estimate, &pct, least, most]);
        out.write_record(row)?;
    }
    Ok(())
}

/// The bytes a CSV writer holds, as text.
fn csv_text(w: csv::Writer<Vec<u8>>) -> Result<String, Diag> {
    let bytes = w.into_inner().map_err(|e| csv_failed(e.error()))?;
    String::from_utf8(bytes).map_err(|e| csv_failed(&e))
}

fn csv_failed(e: &dyn std::fmt::Display) -> Diag {
    Diag::error(Code::IoWrite, format!("the CSV could not be written: {e}"))
}

/// One distribution as CSV: a header row (`outcome,fraction,probability,percent,at
/// least,at most`), then a row per outcome, in the order of the text report.
///
/// Errors: the CSV cannot be written (not expected: it is written to memory).
pub fn csv(p: &Program, d: &Distribution) -> Result<String, Diag> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(CSV_HEADER).map_err(|e| csv_failed(&e))?;
    csv_rows(p, &[], d, &mut w).map_err(|e| csv_failed(&e))?;
    csv_text(w)
}

/// Sweeps as CSV: a first column per swept name, then the columns of [`csv`]; a row per
/// outcome of each combination of values.
///
/// Errors: the CSV cannot be written (not expected: it is written to memory).
pub fn sweeps_csv(
    p: &Program,
    names: &[String],
    rows: &[(Vec<String>, Distribution)],
) -> Result<String, Diag> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let header = names.iter().map(String::as_str).chain(CSV_HEADER);
    w.write_record(header).map_err(|e| csv_failed(&e))?;
    for (at, d) in rows {
        let at: Vec<&str> = at.iter().map(String::as_str).collect();
        csv_rows(p, &at, d, &mut w).map_err(|e| csv_failed(&e))?;
    }
    csv_text(w)
}
