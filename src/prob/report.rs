//! The odds as a wargamer reads them — each outcome with its fraction, percentage and a
//! bar; numbers with mean, least, greatest and "at least" / "at most" — and as JSON.

use super::{percent, percent_f, stats, Case, Chance, Distribution, Method};
use crate::adjudication::Outcome;
use crate::program::Program;
use crate::render::{show, to_json};
use num_rational::BigRational;
use num_traits::Zero;
use serde_json::json;

/// Bar width, in characters, of a certainty.
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

fn bar(p: f64) -> String {
    let n = (p * BAR).round().clamp(0.0, BAR) as usize;
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
            match over_limit {
                Some(limit) => format!(
                    "sampled: too much to enumerate (more than {limit} cases, or {} steps), so {n} with seed {seed}; ± one standard error",
                    super::MAX_STEPS
                ),
                None => format!("sampled: {n} with seed {seed}; ± one standard error"),
            }
        }
    }
}

fn chance_text(c: &Chance) -> (String, String) {
    match (&c.exact, c.std_error) {
        (Some(p), _) => (p.to_string(), percent(p)),
        (None, Some(se)) => (
            String::new(),
            format!("{} ± {}", percent_f(c.estimate), error_text(se)),
        ),
        (None, None) => (String::new(), percent_f(c.estimate)),
    }
}

/// Cumulative chances (at least / at most) of each outcome, when all are numbers.
fn cumulative(d: &Distribution) -> Option<Vec<(String, String)>> {
    if d.chances.iter().any(|c| c.case.number().is_none()) {
        return None;
    }
    let exact: Option<Vec<&BigRational>> = d.chances.iter().map(|c| c.exact.as_ref()).collect();
    let mut out = Vec::with_capacity(d.chances.len());
    // Running totals: at most this value, and (total minus those below) at least it.
    match exact {
        Some(ps) => {
            let total = ps.iter().fold(BigRational::zero(), |a, b| a + *b);
            let mut below = BigRational::zero();
            for p in ps {
                let most = &below + p;
                out.push((percent(&(&total - &below)), percent(&most)));
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

/// One distribution as text: a line saying how it was found, then one line per outcome.
pub fn text(p: &Program, expr: &str, d: &Distribution) -> String {
    let mut out = format!("{expr}  ({})\n", method_text(&d.method));
    let cases: Vec<Case> = d.chances.iter().map(|c| c.case.clone()).collect();
    let labels = labels(p, &cases);
    let shown: Vec<(String, String)> = d.chances.iter().map(chance_text).collect();
    let w_label = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    let w_frac = shown.iter().map(|s| s.0.chars().count()).max().unwrap_or(0);
    let w_pct = shown.iter().map(|s| s.1.chars().count()).max().unwrap_or(0);
    let cumul = cumulative(d);
    if cumul.is_some() {
        out.push_str(&format!(
            "  {:<w_label$}  {:>w_frac$}  {:>w_pct$}  {:>9}  {:>9}\n",
            "", "", "", "at least", "at most"
        ));
    }
    // A long list (a sum of many dice, sampled) shows its most likely outcomes.
    let keep: Vec<bool> = if d.chances.len() > MAX_ROWS {
        let mut by_chance: Vec<usize> = (0..d.chances.len()).collect();
        by_chance.sort_by(|&a, &b| d.chances[b].estimate.total_cmp(&d.chances[a].estimate));
        let mut keep = vec![false; d.chances.len()];
        for &i in &by_chance[..MAX_ROWS] {
            keep[i] = true;
        }
        keep
    } else {
        vec![true; d.chances.len()]
    };
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
            bar(c.estimate)
        ));
    }
    let hidden = keep.iter().filter(|k| !**k).count();
    if hidden > 0 {
        let rest: f64 = d
            .chances
            .iter()
            .zip(&keep)
            .filter(|(_, k)| !**k)
            .map(|(c, _)| c.estimate)
            .sum();
        out.push_str(&format!(
            "  ... and {hidden} less likely outcomes, {} between them (--format json lists all)\n",
            percent_f(rest)
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
        out.push_str(&format!(
            "  mean {mean}, least {}, greatest {}{given}\n",
            show(p, &s.min),
            show(p, &s.max)
        ));
    }
    out
}

fn case_json(p: &Program, c: &Case) -> serde_json::Value {
    match c {
        Case::Outcome(Outcome::Value(v)) => json!({ "value": to_json(p, v) }),
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
                    m.insert("probability".into(), json!(x.to_string()));
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
            m.insert("seed".into(), json!(seed));
            if let Some(l) = over_limit {
                m.insert("limit".into(), json!(l));
            }
        }
    }
    m.insert("outcomes".into(), json!(outcomes));
    if let Some(s) = stats(d) {
        if let Some(mean) = &s.mean {
            m.insert("mean".into(), json!(mean.to_string()));
        }
        if let Some(v) = s.mean_value() {
            m.insert("mean_value".into(), to_json(p, &v));
        }
        m.insert("mean_estimate".into(), json!(s.mean_f));
        m.insert("min".into(), to_json(p, &s.min));
        m.insert("max".into(), to_json(p, &s.max));
    }
    serde_json::Value::Object(m)
}

/// A sweep as text: one row per value, one column per outcome (its percentage).
pub fn sweep_text(p: &Program, expr: &str, name: &str, rows: &[(String, Distribution)]) -> String {
    let mut out = format!("{expr}  for each {name}\n");
    // Every outcome any row has, in order.
    let mut cases: Vec<Case> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    // Each row's chances by outcome key, made once.
    let by_key: Vec<std::collections::HashMap<String, &Chance>> = rows
        .iter()
        .map(|(_, d)| d.chances.iter().map(|c| (super::key(&c.case), c)).collect())
        .collect();
    for (_, d) in rows {
        for c in &d.chances {
            if seen.insert(super::key(&c.case)) {
                cases.push(c.case.clone());
            }
        }
    }
    cases.sort_by(|a, b| super::order(p, a, b));
    let keys: Vec<String> = cases.iter().map(super::key).collect();
    let heads = labels(p, &cases);
    let numeric = rows.iter().all(|(_, d)| stats(d).is_some());
    let w_name = rows
        .iter()
        .map(|(v, _)| v.chars().count())
        .chain([name.chars().count()])
        .max()
        .unwrap_or(0);
    let cell = |row: usize, col: usize| -> String {
        match by_key[row].get(&keys[col]) {
            Some(x) => match (&x.exact, x.std_error) {
                (Some(e), _) => percent(e),
                (None, Some(se)) => format!("{} ± {}", percent_f(x.estimate), error_text(se)),
                (None, None) => percent_f(x.estimate),
            },
            None => "-".into(),
        }
    };
    let widths: Vec<usize> = heads
        .iter()
        .enumerate()
        .map(|(i, h)| {
            (0..rows.len())
                .map(|r| cell(r, i).chars().count())
                .chain([h.chars().count()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    out.push_str(&format!("  {:<w_name$}", name));
    for (h, w) in heads.iter().zip(&widths) {
        out.push_str(&format!("  {h:>w$}"));
    }
    if numeric {
        out.push_str("  mean");
    }
    out.push('\n');
    for (r, (v, d)) in rows.iter().enumerate() {
        out.push_str(&format!("  {v:<w_name$}"));
        for (i, w) in widths.iter().enumerate() {
            out.push_str(&format!("  {:>w$}", cell(r, i)));
        }
        if numeric {
            if let Some(s) = stats(d) {
                out.push_str(&format!("  {:.2}", s.mean_f));
            }
        }
        out.push('\n');
    }
    let methods: Vec<String> = rows.iter().map(|(_, d)| method_text(&d.method)).collect();
    if methods.iter().all(|m| m.starts_with("exact")) {
        out.push_str("  (exact)\n");
    } else {
        for ((v, _), m) in rows.iter().zip(&methods) {
            out.push_str(&format!("  {name} = {v}: {m}\n"));
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
                // The value swept, as the kind of value it is.
                let at = match v.parse::<i64>() {
                    Ok(n) => json!(n),
                    Err(_) if v == "true" || v == "false" => json!(v == "true"),
                    Err(_) => json!(v),
                };
                m.insert("at".into(), at);
            }
            j
        })
        .collect();
    json!({ "expr": expr, "sweep": name, "rows": rows })
}
