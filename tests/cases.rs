//! Data-driven cases: a case is a file; its expectation is a reviewed insta snapshot of
//! what a person reads. See tests/cases/README.md.

mod common;

use common::{get, header};
use miette::{GraphicalReportHandler, GraphicalTheme};
use umpire::dice::{DiceSource, Given, Seeded};
use umpire::eval::Options;
use umpire::render::{explain, headline};
use umpire::Ruleset;

fn render(d: &dyn miette::Diagnostic) -> String {
    let mut out = String::new();
    GraphicalReportHandler::new_themed(GraphicalTheme::unicode_nocolor())
        .with_width(80)
        .render_report(&mut out, d)
        .expect("render");
    out
}

/// An expression adjudicated against a ruleset: the headline, the explanation, the rolls.
#[test]
fn eval_cases() {
    insta::glob!("cases/eval/*.case", |path| {
        let text = std::fs::read_to_string(path).expect("case file");
        let (keys, body) = header(&text);
        let ruleset = get(&keys, "ruleset").expect("# ruleset: NAME");
        let rules = Ruleset::load(ruleset).expect("ruleset loads");
        let out = match rules.question("<case>", body.trim()) {
            Err(ds) => ds.0.iter().map(|d| render(d)).collect::<String>(),
            Ok(q) => {
                let mut given;
                let mut seeded;
                let dice: &mut dyn DiceSource = match (get(&keys, "rolls"), get(&keys, "seed")) {
                    (Some(r), _) => {
                        given = Given::new(
                            r.split(',')
                                .map(|x| x.trim().parse().expect("roll"))
                                .collect(),
                        );
                        &mut given
                    }
                    (None, Some(s)) => {
                        seeded = Seeded::new(s.parse().expect("seed"));
                        &mut seeded
                    }
                    (None, None) => {
                        given = Given::new(vec![]);
                        &mut given
                    }
                };
                match rules.adjudicate(
                    &q,
                    dice,
                    Options {
                        trace: true,
                        ..Options::default()
                    },
                ) {
                    Err(d) => render(&d),
                    Ok(a) => {
                        let mut s = format!("{}\n", headline(&rules.program, &a.outcome));
                        for r in &a.rolls {
                            s.push_str(&format!("rolled {} {:?} = {}\n", r.dice, r.faces, r.total));
                        }
                        s.push_str("--- explanation\n");
                        s.push_str(&explain(&rules.program, a.trace.as_deref().unwrap_or(&[])));
                        s
                    }
                }
            }
        };
        insta::assert_snapshot!(out);
    });
}

/// `umpire eval RULESET EXPR --format json --explain`, run as a user runs it, its JSON
/// printed indented for review: the value, the rolls, the effects and the typed trace.
/// Headers as for `eval/` cases, plus `# state: PATH` and `# interpret: NAME=READING`.
#[test]
fn json_cases() {
    insta::glob!("cases/json/*.case", |path| {
        let text = std::fs::read_to_string(path).expect("case file");
        let (keys, body) = header(&text);
        let ruleset = get(&keys, "ruleset").expect("# ruleset: NAME");
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"));
        cmd.current_dir(env!("CARGO_MANIFEST_DIR")).args([
            "eval",
            ruleset,
            body.trim(),
            "--format",
            "json",
            "--explain",
        ]);
        for (key, flag) in [
            ("rolls", "--roll"),
            ("seed", "--seed"),
            ("state", "--state"),
            ("interpret", "--interpret"),
        ] {
            if let Some(v) = get(&keys, key) {
                cmd.args([flag, v]);
            }
        }
        let out = cmd.output().expect("umpire runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let json: serde_json::Value = serde_json::from_str(&stdout).expect("one JSON object");
        let pretty = serde_json::to_string_pretty(&json).expect("prints");
        insta::assert_snapshot!(format!("exit code {:?}\n{pretty}\n", out.status.code()));
    });
}

/// A broken ruleset: every diagnostic, rendered as the user sees it.
#[test]
fn check_cases() {
    insta::glob!("cases/check/*.rules", |path| {
        let text = std::fs::read_to_string(path).expect("case file");
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("case");
        let out = match Ruleset::from_source(name, &text) {
            Ok(r) if r.warnings.is_empty() => "checks clean\n".to_string(),
            Ok(r) => r.warnings.iter().map(|d| render(d)).collect::<String>(),
            Err(ds) => ds.0.iter().map(|d| render(d)).collect::<String>(),
        };
        insta::assert_snapshot!(out);
    });
}

/// A state file checked against `tests/state/units.rules`, then the expression in its
/// header adjudicated: the value, or every diagnostic pointing into the state file.
#[test]
fn state_cases() {
    insta::glob!("cases/state/*.toml", |path| {
        let text = std::fs::read_to_string(path).expect("case file");
        let (keys, _) = header(&text);
        let expr = get(&keys, "expr").expect("# expr: EXPRESSION");
        let mut rules = Ruleset::load("tests/state/units.rules").expect("ruleset loads");
        // The path as written from the package root, so snapshots read the same anywhere.
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let rel = path
            .strip_prefix(root)
            .unwrap_or(path)
            .to_string_lossy()
            .replace('\\', "/");
        let loaded = rules.load_state(&rel);
        let out = match loaded {
            Err(ds) => ds.0.iter().map(|d| render(d)).collect::<String>(),
            Ok(()) => {
                let q = rules.question("<case>", expr).expect("expression checks");
                match rules.adjudicate(&q, &mut Given::new(vec![]), Options::default()) {
                    Ok(a) => format!("{}\n", headline(&rules.program, &a.outcome)),
                    Err(d) => render(&d),
                }
            }
        };
        insta::assert_snapshot!(out);
    });
}

/// What each label of each diagnostic underlines, as text, with the diagnostic's code:
/// `code: "text"`.
fn underlined(name: &str, text: &str) -> Vec<String> {
    let diags = match Ruleset::from_source(name, text) {
        Ok(r) => r.warnings,
        Err(ds) => ds.0,
    };
    let mut out = Vec::new();
    for d in &diags {
        let code = miette::Diagnostic::code(d).map(|c| c.to_string());
        for l in miette::Diagnostic::labels(d).into_iter().flatten() {
            let under = text
                .get(l.offset()..l.offset() + l.len())
                .unwrap_or("<not on a character boundary>");
            out.push(format!("{code:?}: {:?}", under.replace("\r\n", "\n")));
        }
    }
    out
}

/// Every check case, rewritten with CRLF line endings, a tab at the start of every line
/// and a line of non-ASCII text (é, ½, CJK, a dash) above it all, gives the same
/// diagnostics underlining the same text: spans count characters, not bytes, and
/// survive line endings and tabs. (The cases `tabs_and_non_ascii_*` put such text on
/// the line of the error itself; their snapshots show where the caret lands.)
#[test]
fn carets_land_right_with_crlf_tabs_and_non_ascii() {
    let mut checked = 0;
    insta::glob!("cases/check/*.rules", |path| {
        let text = std::fs::read_to_string(path).expect("case file");
        if text.contains('\r') || text.starts_with('\u{feff}') {
            return; // already a line-ending or byte-order-mark case
        }
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("case");
        let variant = std::iter::once("# é ½ 中文 — «¼» 速度".to_string())
            .chain(text.lines().map(|l| format!("\t{l}")))
            .collect::<Vec<_>>()
            .join("\r\n");
        let before = underlined(name, &text);
        if name.contains("check_clean") {
            assert!(before.is_empty(), "{name} should check clean");
        } else {
            assert!(!before.is_empty(), "{name} gives no diagnostic");
        }
        assert_eq!(before, underlined(name, &variant), "{name}");
        checked += 1;
    });
    assert!(checked > 20, "only {checked} cases checked");
}
