//! Every diagnostic code is raised by at least one case: `Code` is the checklist of what
//! can go wrong, and each entry on it is shown going wrong by an input in a case file.
//!
//! Also here, the command cases `tests/commands/*.toml` (their format is in
//! `tests/commands/README.md`): mistakes only the command line can make, each run through
//! the real binary in a scratch folder of its own.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use umpire::diagnostic::Code;

/// Codes no input can raise, each with the reason. Keep this list short: a code that
/// can be raised is shown raised by a case. (A case that raises one of these fails the
/// test, so the list cannot go stale.)
const NOT_RAISED_BY_ANY_INPUT: &[(Code, &str)] = &[
    (
        Code::ServeRefused,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::ServeRequest,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::ServeToken,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::ServePath,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::ServeConfirm,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::ServeListen,
        "raised by a request to `umpire serve` (or by its start), not by a case file's input: \
         tests/serve.rs makes that request",
    ),
    (
        Code::FmtMeaning,
        "raised only when umpire fmt itself goes wrong (its layout reading differently from \
         the file): src/fmt's unit tests raise it on a changed layout",
    ),
    (
        Code::IoLogLocked,
        "raised by a second umpire while the first holds the log locked, not by one input: \
         tests/files.rs keeps one REPL logging and starts another",
    ),
    (
        Code::LimitCancelled,
        "raised by Ctrl-C (SIGINT) during a command, not by an input: tests/files.rs sends \
         one to a REPL working out the odds",
    ),
    (
        Code::ExtendOverride,
        "the grammar admits after `override` only the definitions that can be overridden",
    ),
    (
        Code::EvalField,
        "the checker refuses a field a value does not have (check::unknown_field) first",
    ),
    (
        Code::EvalNotWhole,
        "the checker refuses a number that may be a fraction where a whole number is taken \
         (check::type) first",
    ),
    (
        Code::EvalType,
        "a value of the wrong kind at run time is a bug in the checker, which says so",
    ),
    (
        Code::EvalUnits,
        "the checker refuses arithmetic on mismatched units (check::units) first",
    ),
    (
        Code::ProbTooLarge,
        "a signal inside `prob`: dice with too many sums end enumeration, and the odds are \
         sampled instead; it is never shown",
    ),
    (
        Code::DiffExpr,
        "the fallback for a compile error with no diagnostic in it, and every compile error \
         has one",
    ),
];

/// Every file under `dir` (recursively) whose name ends in one of `exts`.
fn files_under(dir: &Path, exts: &[&str], out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files_under(&p, exts, out);
        } else if p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| exts.iter().any(|x| n.ends_with(x)))
        {
            out.push(p);
        }
    }
}

/// Every code a case expects, with the number of case files read: the `error` and
/// `last` of each case in the corpora that hold their expected codes (the adversarial
/// corpus, the command cases), and the codes shown in the reviewed snapshot of each case
/// whose expectation is a snapshot (`tests/cases`, `tests/repl`). A snapshot counts only
/// when the case file it was made from is still there.
fn expected_codes() -> (BTreeSet<String>, usize) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut codes = BTreeSet::new();
    let mut files = 0;
    let mut corpora = Vec::new();
    files_under(&root.join("tests/adversarial"), &[".toml"], &mut corpora);
    files_under(&root.join("tests/commands"), &[".toml"], &mut corpora);
    for p in corpora {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let corpus: toml::Table = toml::from_str(&text).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let cases = corpus.get("case").and_then(toml::Value::as_array);
        for case in cases.into_iter().flatten() {
            for key in ["error", "last"] {
                if let Some(code) = case.get(key).and_then(toml::Value::as_str) {
                    codes.insert(code.to_string());
                }
            }
        }
        files += 1;
    }
    let mut snaps = Vec::new();
    files_under(&root.join("tests/snapshots"), &[".snap"], &mut snaps);
    for p in snaps {
        let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
        let case = text
            .lines()
            .take(8)
            .find_map(|l| l.strip_prefix("input_file: "));
        if case.is_some_and(|c| root.join(c.trim()).is_file()) {
            codes.extend(codes_shown(&text));
            files += 1;
        }
    }
    (codes, files)
}

#[test]
fn every_code_is_raised_by_a_case() {
    let (raised, files) = expected_codes();
    assert!(files > 50, "only {files} case files found");
    let mut missing = Vec::new();
    for code in Code::ALL {
        let exempt = NOT_RAISED_BY_ANY_INPUT.iter().any(|(c, _)| *c == code);
        match (raised.contains(code.as_str()), exempt) {
            (false, false) => missing.push(code.as_str()),
            (true, true) => panic!(
                "{} is listed as raised by no input, yet a case raises it",
                code.as_str()
            ),
            _ => {}
        }
    }
    assert!(
        missing.is_empty(),
        "{} codes are raised by no case; add a case for each (tests/adversarial, \
         tests/cases, tests/repl or tests/commands):\n{}",
        missing.len(),
        missing.join("\n")
    );
}

#[derive(Deserialize)]
struct Corpus {
    case: Vec<CommandCase>,
}

/// One command run and what must come of it.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandCase {
    name: String,
    args: Vec<String>,
    #[serde(default)]
    files: BTreeMap<String, String>,
    /// `[file, text, n, end]`: `text` n times, then `end`, appended to `file`.
    repeat: Option<(String, String, usize, String)>,
    #[serde(default)]
    bytes: BTreeMap<String, Vec<u8>>,
    stdin: Option<String>,
    /// Environment variables set for the command (`UMPIRE_DICE = "players"`).
    #[serde(default)]
    env: BTreeMap<String, String>,
    /// `[text, n]`: `text` n times, after `stdin`.
    stdin_repeat: Option<(String, usize)>,
    exit: i32,
    error: String,
    message: Option<String>,
    last: Option<String>,
}

/// The codes an output shows, in order: lines that are a code, alone or after
/// `Error: ` / `Warning: ` (and after `! `, as a REPL transcript shows its stderr).
fn codes_shown(out: &str) -> Vec<String> {
    out.lines()
        .filter_map(|l| {
            let l = l.trim();
            let l = l.strip_prefix("! ").unwrap_or(l);
            let l = l.strip_prefix("Error: ").unwrap_or(l);
            let l = l.strip_prefix("Warning: ").unwrap_or(l);
            let ok = l.starts_with("umpire::")
                && l.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '_' || c == ':');
            ok.then(|| l.to_string())
        })
        .collect()
}

fn run_command(c: &CommandCase, dir: &Path) -> Result<(), String> {
    let name = &c.name;
    let _ = std::fs::remove_dir_all(dir);
    std::fs::create_dir_all(dir).map_err(|e| format!("{name}: {e}"))?;
    let mut files = c.files.clone();
    if let Some((file, text, n, end)) = &c.repeat {
        let f = files.entry(file.clone()).or_default();
        f.push_str(&text.repeat(*n));
        f.push_str(end);
    }
    for (f, text) in &files {
        if let Some(parent) = dir.join(f).parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{name}: {f}: {e}"))?;
        }
        std::fs::write(dir.join(f), text).map_err(|e| format!("{name}: {f}: {e}"))?;
    }
    for (f, bytes) in &c.bytes {
        std::fs::write(dir.join(f), bytes).map_err(|e| format!("{name}: {f}: {e}"))?;
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(&c.args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        // The user's settings are the case's own: `files` may hold `umpire/config.toml`.
        .env("XDG_CONFIG_HOME", dir)
        .env_remove("UMPIRE_DICE")
        .envs(&c.env)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: {e}"))?;
    let mut input = c.stdin.clone().unwrap_or_default();
    if let Some((text, n)) = &c.stdin_repeat {
        input.push_str(&text.repeat(*n));
    }
    if let Some(mut stdin) = child.stdin.take() {
        // A command that stops reading early closes the pipe: that is its business.
        let _ = stdin.write_all(input.as_bytes());
    }
    let o = child
        .wait_with_output()
        .map_err(|e| format!("{name}: {e}"))?;
    let all = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    let shown = codes_shown(&all);
    let mut wrong = Vec::new();
    if o.status.code() != Some(c.exit) {
        wrong.push(format!("exit {:?}, not {}", o.status.code(), c.exit));
    }
    if shown.first() != Some(&c.error) {
        wrong.push(format!("first code {:?}, not {}", shown.first(), c.error));
    }
    if let Some(last) = &c.last {
        if shown.last() != Some(last) {
            wrong.push(format!("last code {:?}, not {last}", shown.last()));
        }
    }
    if let Some(m) = &c.message {
        if !all.contains(m.as_str()) {
            wrong.push(format!("the output does not say `{m}`"));
        }
    }
    if wrong.is_empty() {
        Ok(())
    } else {
        Err(format!("{name}: {}:\n{all}", wrong.join("; ")))
    }
}

#[test]
fn command_cases() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut paths = Vec::new();
    files_under(&root.join("tests/commands"), &[".toml"], &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no command cases found");
    let scratch = std::env::temp_dir().join(format!("umpire-commands-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut count = 0;
    for path in &paths {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        let corpus: Corpus = toml::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
        for (i, c) in corpus.case.iter().enumerate() {
            count += 1;
            if let Err(e) = run_command(c, &scratch.join(i.to_string())) {
                failures.push(e);
            }
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(
        failures.is_empty(),
        "{} of {count} command cases wrong:\n\n{}",
        failures.len(),
        failures.join("\n\n")
    );
}
