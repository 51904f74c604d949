//! The adversarial corpus: `tests/adversarial/*.toml`, one file per kind of hostile
//! input (limits, arithmetic, dice, text, state files, failures that must not become
//! values). Each case ends in its expected value or its expected diagnostic, whose
//! `[file:line:column]` header must point at the expected text. Each file runs on a
//! thread of the default size (2 MiB: what a library user's thread has), under a 30 s
//! hang guard. Also here: a save stopped part-way leaves the old file whole, and seeded
//! dice give the same literal rolls everywhere.

use serde::Deserialize;
use std::sync::mpsc;
use std::time::Duration;
use umpire::dice::{DiceSource, Given, Seeded};
use umpire::eval::Options;
use umpire::limits::Limits;
use umpire::render::report_text;
use umpire::Ruleset;

#[derive(Deserialize)]
struct Corpus {
    case: Vec<Case>,
}

/// One hostile input and what must come of it.
#[derive(Deserialize, Clone)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    /// A bundled ruleset, or
    ruleset: Option<String>,
    /// ruleset text, loaded as `case.rules`.
    rules: Option<String>,
    /// Ruleset text after `rules`: `[text, n, end]` is `text` n times, then `end` (a
    /// big or deep file).
    rules_repeat: Option<(String, usize, String)>,
    /// A state file's text (TOML), loaded as `case.toml`.
    state: Option<String>,
    /// A state file repeated: `[prefix, middle, n, middle_end, n_end]` is `prefix`,
    /// then `middle` n times, then `middle_end` as many times (a deep file).
    state_repeat: Option<(String, String, String, usize)>,
    /// The state file's name (`case.toml`; `case.json` reads it as JSON).
    state_name: Option<String>,
    /// The question, compiled as `<expression>`.
    expr: Option<String>,
    /// An expression repeated: `[prefix, middle, n, suffix]`.
    expr_repeat: Option<(String, String, usize, String)>,
    seed: Option<u64>,
    rolls: Option<Vec<i64>>,
    /// Limits in force (the rest default).
    limits: Option<CaseLimits>,
    /// The result's first line, as `umpire eval` prints it.
    value: Option<String>,
    /// The first diagnostic's code.
    error: Option<String>,
    /// Words its message contains.
    message: Option<String>,
    /// The text its `[file:line:column]` header points at.
    at: Option<String>,
    /// The header's line and column.
    line: Option<usize>,
    column: Option<usize>,
    /// Words the drawn diagnostic shows (its source lines, labels and help), each string
    /// on its own, spaces and line breaks counting as one space.
    shown: Option<Vec<String>>,
}

#[derive(Deserialize, Clone, Default)]
#[serde(deny_unknown_fields)]
struct CaseLimits {
    file_bytes: Option<u64>,
    dice_per_roll: Option<u32>,
    sides: Option<u32>,
    steps: Option<u64>,
    depth: Option<u32>,
    dice: Option<u64>,
}

impl CaseLimits {
    fn limits(&self) -> Limits {
        let d = Limits::default();
        Limits {
            file_bytes: self.file_bytes.unwrap_or(d.file_bytes),
            dice_per_roll: self.dice_per_roll.unwrap_or(d.dice_per_roll),
            sides: self.sides.unwrap_or(d.sides),
            steps: self.steps.unwrap_or(d.steps),
            depth: self.depth.unwrap_or(d.depth),
            dice: self.dice.unwrap_or(d.dice),
        }
    }
}

/// What a case came to: the result's first line, or the first diagnostic rendered.
enum Came {
    Value(String),
    Error {
        code: String,
        message: String,
        rendered: String,
    },
}

fn first_error(ds: umpire::diagnostic::Diags) -> Came {
    match ds.0.into_iter().next() {
        Some(d) => Came::Error {
            code: d.code.to_string(),
            message: d.message.clone(),
            rendered: umpire::diagnostic::render(&d, false),
        },
        None => Came::Error {
            code: "(none)".into(),
            message: String::new(),
            rendered: String::new(),
        },
    }
}

fn rules_text(c: &Case) -> Option<String> {
    match (&c.rules, &c.rules_repeat) {
        (Some(r), None) => Some(r.clone()),
        (r, Some((t, n, end))) => Some(format!(
            "{}{}{end}",
            r.as_deref().unwrap_or(""),
            t.repeat(*n)
        )),
        (None, None) => None,
    }
}

fn state_text(c: &Case) -> Option<String> {
    match (&c.state, &c.state_repeat) {
        (Some(s), _) => Some(s.clone()),
        (None, Some((a, open, close, n))) => {
            Some(format!("{a}{}{}\n", open.repeat(*n), close.repeat(*n)))
        }
        _ => None,
    }
}

fn expr_text(c: &Case) -> Option<String> {
    match (&c.expr, &c.expr_repeat) {
        (Some(e), _) => Some(e.clone()),
        (None, Some((a, m, n, z))) => Some(format!("{a}{}{z}", m.repeat(*n))),
        _ => None,
    }
}

/// Runs one case within `limits`: the ruleset keeps them for its question and its
/// adjudication.
fn run_case(c: &Case, limits: &Limits) -> Came {
    let mut rules = match (&c.ruleset, rules_text(c)) {
        (Some(name), None) => match Ruleset::load_with(name, limits) {
            Ok(r) => r,
            Err(ds) => return first_error(ds),
        },
        (None, Some(text)) => match Ruleset::from_source_with("case.rules", &text, limits) {
            Ok(r) => r,
            Err(ds) => return first_error(ds),
        },
        _ => panic!("{}: give `ruleset` or `rules`", c.name),
    };
    if let Some(text) = state_text(c) {
        let name = c.state_name.as_deref().unwrap_or("case.toml");
        match umpire::state::load_text(&rules.program, &rules.sources, name, text) {
            Ok(v) => rules.state = Some(v),
            Err(ds) => return first_error(ds),
        }
    }
    let Some(expr) = expr_text(c) else {
        return Came::Value("(loaded)".into());
    };
    let q = match rules.question("<expression>", &expr) {
        Ok(q) => q,
        Err(ds) => return first_error(ds),
    };
    let mut seeded;
    let mut given;
    let dice: &mut dyn DiceSource = match (c.seed, &c.rolls) {
        (Some(s), _) => {
            seeded = Seeded::new(s);
            &mut seeded
        }
        (None, r) => {
            given = Given::new(r.clone().unwrap_or_default());
            &mut given
        }
    };
    match rules.adjudicate(&q, dice, rules.options()) {
        Ok(a) => Came::Value(
            report_text(&rules.program, &a)
                .lines()
                .next()
                .unwrap_or("")
                .to_string(),
        ),
        Err(d) => first_error(d.into()),
    }
}

/// The `[name:line:column]` of a rendered diagnostic.
fn header(rendered: &str) -> Option<(String, usize, usize)> {
    let start = rendered.find("─[")? + "─[".len();
    let end = start + rendered[start..].find(']')?;
    let inner = &rendered[start..end];
    let mut parts = inner.rsplitn(3, ':');
    let col = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let name = parts.next()?.to_string();
    Some((name, line, col))
}

/// Whether the underline drawn beneath source line `line` starts in the terminal column
/// of `column` (from 1, in characters): the width of the text before it as a terminal
/// draws it (`中` and `👍🏽` two columns each, a tab to the next multiple of four).
fn caret_under(rendered: &str, source: &str, line: usize, column: usize) -> Result<(), String> {
    use unicode_segmentation::UnicodeSegmentation;
    use unicode_width::UnicodeWidthStr;
    let text = source.strip_prefix('\u{FEFF}').unwrap_or(source);
    let normal = text.replace("\r\n", "\n").replace('\r', "\n");
    let before: String = normal
        .split('\n')
        .nth(line - 1)
        .unwrap_or("")
        .chars()
        .take(column - 1)
        .collect();
    let mut want = 0;
    for g in before.graphemes(true) {
        want += if g == "\t" { 4 - want % 4 } else { g.width() };
    }
    let drawn = format!("{line} │ ");
    let mut lines = rendered.lines();
    let gutter = lines
        .by_ref()
        .find_map(|l| l.find(&drawn).map(|i| l[..i + drawn.len()].chars().count()))
        .ok_or("the line is not drawn")?;
    let under: Vec<char> = lines
        .next()
        .ok_or("nothing drawn under the line")?
        .chars()
        .skip(gutter)
        .collect();
    let starts = under.get(want).is_some_and(|c| "─┬".contains(*c))
        && (want == 0 || under.get(want - 1) != Some(&'─'));
    if starts {
        Ok(())
    } else {
        Err(format!(
            "the underline does not start in column {}",
            want + 1
        ))
    }
}

/// The text at `line`:`column` (from 1, in characters) of `text`, whose lines end in
/// LF, CRLF or a lone CR, a leading byte-order mark not counted.
fn text_at(text: &str, line: usize, column: usize) -> String {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let normal = text.replace("\r\n", "\n").replace('\r', "\n");
    let l = normal.split('\n').nth(line - 1).unwrap_or("");
    l.chars().skip(column - 1).collect()
}

fn check(c: &Case, came: Came) -> Result<(), String> {
    let name = &c.name;
    match (came, &c.value, &c.error) {
        (Came::Value(v), Some(want), None) => {
            if &v == want {
                Ok(())
            } else {
                Err(format!("{name}: gave `{v}`, the rule text gives `{want}`"))
            }
        }
        (Came::Value(v), None, Some(code)) => Err(format!(
            "{name}: gave the value `{v}` where it must fail with {code}"
        )),
        (
            Came::Error {
                code,
                message,
                rendered,
            },
            None,
            Some(want),
        ) => {
            if &code != want {
                return Err(format!(
                    "{name}: failed with {code}, not {want}:\n{rendered}"
                ));
            }
            if let Some(m) = &c.message {
                if !message.contains(m.as_str()) {
                    return Err(format!(
                        "{name}: the message `{message}` does not say `{m}`"
                    ));
                }
            }
            if c.at.is_some() || c.line.is_some() {
                let Some((file, line, col)) = header(&rendered) else {
                    return Err(format!(
                        "{name}: the diagnostic points nowhere:\n{rendered}"
                    ));
                };
                if let Some(l) = c.line {
                    if l != line {
                        return Err(format!(
                            "{name}: points at line {line}, not {l}:\n{rendered}"
                        ));
                    }
                }
                if let Some(k) = c.column {
                    if k != col {
                        return Err(format!(
                            "{name}: points at column {col}, not {k}:\n{rendered}"
                        ));
                    }
                }
                if let Some(at) = &c.at {
                    let source = match file.as_str() {
                        "<expression>" => expr_text(c).unwrap_or_default(),
                        "case.toml" | "case.json" => state_text(c).unwrap_or_default(),
                        _ => rules_text(c).unwrap_or_default(),
                    };
                    let there = text_at(&source, line, col);
                    if !there.starts_with(at.as_str()) {
                        return Err(format!(
                            "{name}: points at `{}`, not `{at}`:\n{rendered}",
                            there.chars().take(40).collect::<String>()
                        ));
                    }
                    caret_under(&rendered, &source, line, col)
                        .map_err(|e| format!("{name}: {e}:\n{rendered}"))?;
                }
            }
            let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
            for words in c.shown.iter().flatten() {
                if !flat(&rendered).contains(&flat(words)) {
                    return Err(format!("{name}: does not show `{words}`:\n{rendered}"));
                }
            }
            Ok(())
        }
        (Came::Error { rendered, .. }, Some(want), None) => Err(format!(
            "{name}: failed where the rule text gives `{want}`:\n{rendered}"
        )),
        _ => Err(format!("{name}: give exactly one of `value` and `error`")),
    }
}

/// Runs every case of one corpus file on a thread of the default stack size, under a
/// hang guard.
fn corpus(file: &str) {
    let path = format!("tests/adversarial/{file}");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let corpus: Corpus = toml::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"));
    let (tx, rx) = mpsc::channel();
    let cases = corpus.case.clone();
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(move || {
            let mut failures = Vec::new();
            for c in &cases {
                if std::env::var_os("UMPIRE_CORPUS_TRACE").is_some() {
                    eprintln!("case: {}", c.name);
                }
                let limits = c
                    .limits
                    .as_ref()
                    .map_or_else(Limits::default, CaseLimits::limits);
                let came = run_case(c, &limits);
                if let Err(e) = check(c, came) {
                    failures.push(e);
                }
            }
            let _ = tx.send(failures);
        })
        .expect("thread starts");
    match rx.recv_timeout(Duration::from_secs(180)) {
        Ok(failures) => assert!(
            failures.is_empty(),
            "{path}: {} of {} cases wrong:\n\n{}",
            failures.len(),
            corpus.case.len(),
            failures.join("\n\n")
        ),
        Err(mpsc::RecvTimeoutError::Timeout) => {
            panic!("{path}: still running after 180 s (a hang)")
        }
        Err(mpsc::RecvTimeoutError::Disconnected) => {
            panic!("{path}: the thread died (a panic or a stack overflow)")
        }
    }
}

#[test]
fn limits() {
    corpus("limits.toml");
}

#[test]
fn arithmetic() {
    corpus("arithmetic.toml");
}

#[test]
fn dice() {
    corpus("dice.toml");
}

#[test]
fn text() {
    corpus("text.toml");
}

#[test]
fn state_files() {
    corpus("state.toml");
}

#[test]
fn parsing() {
    corpus("parsing.toml");
}

#[test]
fn no_failure_becomes_a_value() {
    corpus("no_failure_becomes_a_value.toml");
}

#[test]
fn exact_odds_enumerate_up_to_the_case_limit_and_sample_past_it() {
    // 2d6 has 11 sums, each worked out from the 6 faces before it (66 units of work),
    // then each is a path of one outcome merged (11; the term's own step is the closed
    // form's): with a limit of 77 it is worked out exactly; with 76 it is too much, and
    // the engine says so (the CLI then samples, and says that too).
    let rules = Ruleset::bundled("kriegspiel").expect("bundled");
    let q = rules.question("<expression>", "2d6").expect("compiles");
    let job = umpire::prob::Job {
        state: None,
        ..umpire::prob::Job::of(&rules, &q)
    };
    assert!(umpire::prob::exact(&job, 77).is_some());
    assert!(umpire::prob::exact(&job, 76).is_none());
}

/// A save stopped at any point (a failure, or the process dying there) leaves the old
/// file whole, byte for byte.
#[test]
fn a_save_stopped_part_way_leaves_the_old_file_intact() {
    use umpire::state::{write_atomic_with, SaveStage};
    let dir = std::env::temp_dir().join(format!("umpire-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("table.toml");
    let path = file.to_str().expect("utf-8 path");
    let old = "turn = 3\n\n[brigade.second_foot]\ngrade = \"line\"\nlost_percent = 30\n";
    let new = "turn = 4\n\n[brigade.second_foot]\ngrade = \"line\"\nlost_percent = 55\n";
    for stage in [
        SaveStage::Created,
        SaveStage::HalfWritten,
        SaveStage::Flushed,
    ] {
        std::fs::write(&file, old).expect("write");
        // A failure there: the save is an error, the old file whole, no temporary left.
        let r = write_atomic_with(path, new, &mut |s| {
            if s == stage {
                Err(std::io::Error::other("stopped by the test"))
            } else {
                Ok(())
            }
        });
        assert!(r.is_err(), "{stage:?}");
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            old,
            "{stage:?}"
        );
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(left.len(), 1, "{stage:?}: a temporary file was left");
        // The writer dying there (a panic, as a crash): the old file is still whole.
        let died = std::panic::catch_unwind(|| {
            let _ = write_atomic_with(path, new, &mut |s| {
                if s == stage {
                    panic!("the writer dies at {s:?}");
                }
                Ok(())
            });
        });
        assert!(died.is_err());
        assert_eq!(
            std::fs::read_to_string(&file).expect("read"),
            old,
            "{stage:?}"
        );
    }
    // Not stopped: the new text, whole.
    write_atomic_with(path, new, &mut |_| Ok(())).expect("saves");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), new);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The same seed gives the same rolls on every machine: ChaCha8 seeded with
/// `seed_from_u64`, each die by `rand`'s range sampling. These faces are pinned: a
/// change of RNG, of its version or of how a die is drawn would change every seeded
/// game, every logged game's replay and every `--seed` in a scenario.
#[test]
fn seeded_dice_give_these_rolls_on_every_machine() {
    let mut rules = Ruleset::bundled("furious_reason").expect("bundled");
    rules
        .load_state("examples/states/furious_reason_brigade.toml")
        .expect("state");
    let faces = |rules: &mut Ruleset, expr: &str, seed: u64| -> (String, Vec<Vec<u32>>) {
        let q = rules.question("<expression>", expr).expect("compiles");
        let a = rules
            .adjudicate(&q, &mut Seeded::new(seed), Options::default())
            .expect("adjudicates");
        let first = report_text(&rules.program, &a)
            .lines()
            .next()
            .unwrap_or("")
            .to_string();
        (first, a.rolls.iter().map(|r| r.faces.clone()).collect())
    };
    let (total, r) = faces(&mut rules, "3d6 + D10 + 2d6", 1913);
    assert_eq!(r, PINNED_1913, "the dice of seed 1913 changed");
    assert_eq!(total, "16");
    let (result, r) = faces(&mut rules, "manoeuvre(brigade.second_foot)", 11);
    assert_eq!(r, vec![vec![4]], "the dice of seed 11 changed");
    // A 4, less 1 for one whole 25% lost, is 3: Hold (the Manoeuvre Table, good order).
    assert!(result.starts_with("Hold"), "{result}");
}

/// `3d6 + D10 + 2d6` from seed 1913: the faces ChaCha8 gave when this was written.
const PINNED_1913: [&[u32]; 3] = [&[2, 3, 6], &[1], &[1, 3]];
