//! The differential test of the compiled engine (issue 20): the tree-walker
//! (`Engine::Walker`) is the oracle, and the compiled engine (`Engine::Compiled`: the
//! fast path of `src/eval/fast.rs` over the bodies `src/compile` lowers, the tree-walker
//! wherever it gives up) must give the identical adjudication for every question of
//! every corpus: the same outcome, rolls (faces, modifiers, the modified roll, names),
//! effects, steps and seed, or the same error (code, message, labels, help); the same
//! text and JSON as rendered; with `trace: true` the same explanation, in words and in
//! JSON. Each run of each engine gets dice of its own: the same given rolls, or seeded
//! dice of the same seed (seeds 0 to 3 for a question that rolls from a seed).
//!
//! And under limits: with the walker's step count S, both engines run again with at most
//! 1, S/2, S-1 and S steps, and with calls at most 1, 2 and 3 deep (and S/2 steps with
//! 2 calls), and must come to the same verdict — so the fast path is made to give up
//! half way, and the tree-walker must finish what it began, counting the same steps.
//!
//! The corpora:
//! 1. tests/cases/eval/*.case and tests/cases/json/*.case (their rolls, seed, state and
//!    reading);
//! 2. every check of every example of the bundled rulesets and examples/house/*.rules
//!    (and of the test suite's rulesets: tests/language, tests/needed, ...), each
//!    example walked as `umpire test` walks it (its `let`s, its dice), the check's
//!    question lowered so that it takes the fast path itself;
//! 3. every adjudication of examples/*.toml (and tests/needed/needed.toml,
//!    tests/state/turns.toml), in order, effects applied where the
//!    scenario applies them, against what `umpire run` itself gave;
//! 4. tests/adversarial/*.toml cases that give a ruleset and a question;
//! 5. generated rulesets (tests/prob_gen/generate.rs, seeds 0..200, or
//!    `UMPIRE_GEN_SEEDS`), each question with seeded dice 0..3; and the hand-written
//!    rulesets of tests/differential/*.rules, aimed at the fast path's edges, each
//!    `# ask: EXPR` line a question (`# state: PATH` and `# interpret: NAME=READING`
//!    lines as in the cases).
//!
//! The compiled engine builds no explanation on the fast path (`trace: true` turns it
//! off), so the traced runs hold it to that. The rulesets' examples in
//! tests/differential are walked too (corpus 2's way).
//!
//! `cargo test --test differential -- --nocapture` prints the counts. A failure prints
//! the ruleset, the question and both results: a difference is a bug in the fast path
//! (or the compile stage); keep its case in tests/differential/*.rules.

mod common;
#[allow(dead_code)]
#[path = "prob_gen/generate.rs"]
mod generate;

use common::{files, get, header};

use umpire::adjudication::{Adjudication, Outcome};
use umpire::diagnostic::{Code, Diag};
use umpire::dice::{DiceRequest, DiceSource, Given, Seeded};
use umpire::eval::{Engine, Evaluator, Limits, Options};
use umpire::program::{ExampleInfo, Program, Query};
use umpire::render::{adjudication_json, explain, report_text};
use umpire::value::Value;
use umpire::Ruleset;

type Adj = Result<Adjudication, Diag>;

/// Everything an adjudication is, as one text: the data itself (`{:?}`: outcome, every
/// roll with its faces, modifiers and names, effects, trace, seed, steps), the text and
/// JSON a user reads, and the explanation in words; an error by all its parts.
fn told(p: &Program, r: &Adj) -> String {
    match r {
        Ok(a) => format!(
            "{a:?}\n--- text\n{}\n--- json\n{}\n--- explanation\n{}",
            report_text(p, a),
            adjudication_json(p, a),
            a.trace.as_deref().map_or(String::new(), |t| explain(p, t)),
        ),
        Err(d) => format!(
            "error {:?}: {}\nlabels {:?}\nhelp {:?}\nsubject {:?}\ncount {} warning {}",
            d.code, d.message, d.labels, d.help, d.subject, d.count, d.warning
        ),
    }
}

/// The dice of one run, made afresh for each.
#[derive(Debug, Clone)]
enum Dice {
    Given(Vec<i64>),
    Seed(u64),
}

impl Dice {
    fn source(&self) -> Box<dyn DiceSource> {
        match self {
            Dice::Given(r) => Box::new(Given::new(r.clone())),
            Dice::Seed(s) => Box::new(Seeded::new(*s)),
        }
    }
}

/// A dice source lent to one check of an example: rolls left over are the next check's.
struct Lent<'a>(&'a mut dyn DiceSource);

impl DiceSource for Lent<'_> {
    fn roll(&mut self, req: &DiceRequest<'_>, faces: &mut Vec<u32>) -> Result<i64, Diag> {
        self.0.roll(req, faces)
    }
    fn seed(&self) -> Option<u64> {
        self.0.seed()
    }
}

/// Dice for an example that gives neither rolls nor a seed: a roll is an error, as
/// `Ruleset::run_examples` makes it.
struct NoDice;

impl DiceSource for NoDice {
    fn roll(&mut self, req: &DiceRequest<'_>, _: &mut Vec<u32>) -> Result<i64, Diag> {
        Err(Diag::error(
            Code::DiceNoDice,
            format!("this rolls `{}`, but no rolls or seed are given", req.text),
        ))
    }
}

/// What was compared, and what differed.
#[derive(Default)]
struct Tally {
    /// Questions (with one set of dice) compared.
    questions: u64,
    /// Adjudications run by each engine.
    runs: u64,
    /// Questions whose expression was lowered (the question itself on the fast path).
    lowered: u64,
    /// Runs stopped by a limit in the sweep (both engines alike).
    limited: u64,
    /// Comparisons that differed; the first 20 told in full.
    differed: u64,
    failures: Vec<String>,
}

impl Tally {
    /// Both engines with `opts` otherwise alike: the same adjudication, or a failure
    /// told with `what` (the ruleset, the question, the dice).
    fn same(
        &mut self,
        p: &Program,
        what: &dyn Fn() -> String,
        opts: &Options,
        run: &mut dyn FnMut(Options) -> Adj,
    ) -> Adj {
        let walker = run(Options {
            engine: Engine::Walker,
            ..opts.clone()
        });
        let compiled = run(Options {
            engine: Engine::Compiled,
            ..opts.clone()
        });
        self.runs += 1;
        let (w, c) = (told(p, &walker), told(p, &compiled));
        if w != c {
            self.differed += 1;
        }
        if w != c && self.failures.len() < 20 {
            self.failures.push(format!(
                "{}\n  trace {}, limits {:?}\n--- the walker:\n{w}\n--- the compiled engine:\n{c}",
                what(),
                opts.trace,
                opts.limits
            ));
        }
        walker
    }

    /// One question: both engines, untraced and traced; then, if `sweep`, under limits
    /// around the steps and calls it takes.
    fn question(
        &mut self,
        p: &Program,
        what: &dyn Fn() -> String,
        base: &Options,
        sweep: bool,
        run: &mut dyn FnMut(Options) -> Adj,
    ) {
        self.questions += 1;
        let walker = self.same(p, what, base, run);
        let traced = Options {
            trace: true,
            ..base.clone()
        };
        let _ = self.same(p, what, &traced, run);
        let Ok(a) = walker else { return };
        if !sweep {
            return;
        }
        let s = a.steps;
        let mut steps = vec![1, s / 2, s.saturating_sub(1), s];
        steps.retain(|&x| x >= 1);
        steps.dedup();
        let mut limits: Vec<Limits> = steps
            .iter()
            .map(|&steps| Limits {
                steps,
                ..base.limits
            })
            .collect();
        for depth in 1..=3 {
            limits.push(Limits {
                depth,
                ..base.limits
            });
        }
        limits.push(Limits {
            steps: (s / 2).max(1),
            depth: 2,
            ..base.limits
        });
        for l in limits {
            let opts = Options {
                limits: l,
                ..base.clone()
            };
            if self.same(p, what, &opts, run).is_err() {
                self.limited += 1;
            }
        }
    }

    fn finish(&self, corpus: &str) {
        println!(
            "{corpus}: {} questions compared ({} lowered), {} runs of each engine, {} stopped by a limit in the sweep",
            self.questions, self.lowered, self.runs, self.limited
        );
        assert!(
            self.failures.is_empty(),
            "{corpus}: the engines differ {} times ({} shown):\n\n{}",
            self.differed,
            self.failures.len(),
            self.failures.join("\n\n")
        );
    }
}

/// `q` of `rules` adjudicated with fresh dice `dice`, by `opts`.
fn adjudicate(rules: &Ruleset, q: &Query, dice: &Dice, opts: Options) -> Adj {
    let mut d = dice.source();
    rules.adjudicate(q, &mut *d, opts)
}

/// A question of `rules` compared with each of `dice`, the sweep with the first.
fn ask(tally: &mut Tally, rules: &Ruleset, origin: &str, expr: &str, dice: &[Dice]) -> bool {
    let Ok(q) = rules.question("<differential>", expr) else {
        return false;
    };
    if q.code.is_some() {
        tally.lowered += 1;
    }
    let base = rules.options();
    for (i, d) in dice.iter().enumerate() {
        let what = || format!("{origin}: `{expr}` with dice {d:?}");
        tally.question(&rules.program, &what, &base, i == 0, &mut |o| {
            adjudicate(rules, &q, d, o)
        });
    }
    true
}

const SEEDS: [Dice; 4] = [Dice::Seed(0), Dice::Seed(1), Dice::Seed(2), Dice::Seed(3)];

/// A ruleset with the state and reading a case's header names.
fn prepared(keys: &[(String, String)], name: &str) -> Ruleset {
    let mut rules = Ruleset::load(name).unwrap_or_else(|e| panic!("{name} loads: {e:?}"));
    if let Some(s) = get(keys, "state") {
        rules
            .load_state(s)
            .unwrap_or_else(|e| panic!("{s} loads: {e:?}"));
    }
    for (k, v) in keys {
        if k == "interpret" {
            let (n, r) = v.split_once('=').expect("NAME=READING");
            rules
                .interpret(n.trim(), r.trim())
                .unwrap_or_else(|e| panic!("{v}: {e:?}"));
        }
    }
    rules
}

/// The dice a case's header gives: its rolls, its seed, else none given and seeds 0..3.
fn case_dice(keys: &[(String, String)]) -> Vec<Dice> {
    match (get(keys, "rolls"), get(keys, "seed")) {
        (Some(r), _) => vec![Dice::Given(
            r.split(',')
                .map(|x| x.trim().parse().expect("a roll"))
                .collect(),
        )],
        (None, Some(s)) => vec![Dice::Seed(s.parse().expect("a seed"))],
        (None, None) => std::iter::once(Dice::Given(Vec::new()))
            .chain(SEEDS.iter().cloned())
            .collect(),
    }
}

/// Corpus 1: the eval and JSON cases.
#[test]
fn every_case_is_adjudicated_alike_by_both_engines() {
    let mut tally = Tally::default();
    let mut cases = files("tests/cases/eval", "case");
    cases.extend(files("tests/cases/json", "case"));
    let mut asked = 0;
    for path in &cases {
        let text = std::fs::read_to_string(path).expect("case file");
        let (keys, body) = header(&text);
        let name = get(&keys, "ruleset").expect("# ruleset: NAME");
        let rules = prepared(&keys, name);
        if ask(
            &mut tally,
            &rules,
            &format!("{path} ({name})"),
            body.trim(),
            &case_dice(&keys),
        ) {
            asked += 1;
        }
    }
    println!("corpus 1: {asked} of {} cases are questions", cases.len());
    assert!(cases.len() >= 30, "the cases are found: {}", cases.len());
    assert!(asked >= 30, "the cases' questions check: {asked}");
    tally.finish("corpus 1 (cases)");
}

/// One example of `rules` walked as `umpire test` walks it, by `opts`: each `let`
/// worked out into the example's frame with the example's dice, then each check
/// adjudicated as a question (lowered, reading the frame), the dice lent on to the next.
/// What each gave, in order; and each check with the frame it read.
fn walk_example(
    rules: &Ruleset,
    ex: &ExampleInfo,
    opts: &Options,
) -> (Vec<String>, Vec<(Query, Vec<Value>)>) {
    let p = &*rules.program;
    let mut given = Given::with_names(
        ex.rolls.iter().map(|(r, _)| *r).collect(),
        ex.named_rolls
            .iter()
            .map(|(n, r, _)| (n.clone(), *r))
            .collect(),
    )
    .written_at(ex.named_rolls.iter().map(|(_, _, s)| *s).collect());
    let mut seeded = ex.seed.map(Seeded::new);
    let no_dice = ex.rolls.is_empty() && ex.named_rolls.is_empty() && ex.seed.is_none();
    let mut none = NoDice;
    let mut frame = vec![Value::Bool(false); ex.slots as usize];
    let mut gave = Vec::new();
    let mut checks = Vec::new();
    'example: for i in 0..=ex.checks.len() {
        for step in ex.lets.iter().filter(|l| l.before == i) {
            let dice: &mut dyn DiceSource = match (&mut seeded, no_dice) {
                (_, true) => &mut none,
                (Some(s), _) => s,
                (None, _) => &mut given,
            };
            let mut ev = Evaluator::new(p, &rules.sources, dice, opts.clone());
            let r = ev.eval(&step.expr, &mut frame);
            let rolls = std::mem::take(&mut ev.rolls);
            let out = ev.outcome(r);
            gave.push(format!(
                "let: {}; rolls {rolls:?}",
                match &out {
                    Ok(o) => format!("{o:?}"),
                    Err(d) => format!("error {:?}: {} {:?}", d.code, d.message, d.labels),
                }
            ));
            match (out, frame.get_mut(step.slot as usize)) {
                (Ok(Outcome::Value(v)), Some(place)) => *place = v,
                // A step that gives no value stops the example, as it does in a test.
                _ => break 'example,
            }
        }
        let Some(chk) = ex.checks.get(i) else { break };
        let mut q = chk.query.clone();
        q.sources = rules.sources.clone();
        q.code = umpire::compile::query(p, &p.code, &q);
        let dice: &mut dyn DiceSource = match (&mut seeded, no_dice) {
            (_, true) => &mut none,
            (Some(s), _) => s,
            (None, _) => &mut given,
        };
        let r = umpire::eval::adjudicate_bound(
            p,
            &q,
            &mut Lent(dice),
            opts.clone(),
            None,
            frame.clone(),
        );
        gave.push(format!("check: {}", told(p, &r)));
        checks.push((q, frame.clone()));
    }
    (gave, checks)
}

/// The examples of `rules`: each walked by both engines, untraced and traced, alike;
/// then each check as a question of its own, with seeded dice, under the sweep.
fn examples(tally: &mut Tally, rules: &Ruleset, path: &str) {
    let p = &*rules.program;
    for ex in &p.examples {
        let opts = Options {
            readings: rules.readings.with(&ex.readings),
            ..rules.options()
        };
        let mut checks = Vec::new();
        for trace in [false, true] {
            let walk = |engine| {
                walk_example(
                    rules,
                    ex,
                    &Options {
                        engine,
                        trace,
                        ..opts.clone()
                    },
                )
            };
            let (w, wc) = walk(Engine::Walker);
            let (c, _) = walk(Engine::Compiled);
            tally.runs += w.len() as u64;
            if w != c {
                tally.differed += 1;
            }
            if w != c && tally.failures.len() < 20 {
                let (w, c) = (w.join("\n"), c.join("\n"));
                tally.failures.push(format!(
                    "{path}: example \"{}\" walked, trace {trace}\n--- the walker:\n{w}\n--- the compiled engine:\n{c}",
                    ex.name
                ));
            }
            if !trace {
                checks = wc;
            }
        }
        for (q, frame) in &checks {
            if q.code.is_some() {
                tally.lowered += 1;
            }
            let what = || {
                format!(
                    "{path}: example \"{}\", the check `{}` with its lets {}",
                    ex.name,
                    rules.sources.snippet(q.expr.span).trim(),
                    frame
                        .iter()
                        .map(|v| umpire::render::show(p, v))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
            tally.question(p, &what, &opts, true, &mut |o| {
                umpire::eval::adjudicate_bound(
                    p,
                    q,
                    &mut Lent(&mut Seeded::new(0)),
                    o,
                    None,
                    frame.clone(),
                )
            });
        }
    }
}

/// Corpus 2: every example of the bundled rulesets and the house rules.
#[test]
fn every_example_is_walked_alike_by_both_engines() {
    let mut tally = Tally::default();
    let mut rulesets = files("rulesets", "rules");
    assert!(rulesets.len() >= 4, "the bundled rulesets are found");
    rulesets.extend(files("examples/house", "rules"));
    // And the test suite's own rulesets with examples: every construct of the language,
    // needed parameters, length ranges, the odds engine's regression cases.
    for dir in [
        "tests/language",
        "tests/needed",
        "tests/length_ranges",
        "tests/house",
        "tests/prob",
        "tests/prob/regress",
    ] {
        rulesets.extend(files(dir, "rules"));
    }
    for path in &rulesets {
        let rules = Ruleset::load(path).unwrap_or_else(|e| panic!("{path} loads: {e:?}"));
        examples(&mut tally, &rules, path);
    }
    println!("corpus 2: the examples of {} rulesets", rulesets.len());
    assert!(
        tally.questions > 100,
        "the examples' checks are found: {}",
        tally.questions
    );
    tally.finish("corpus 2 (examples)");
}

/// Corpus 3: every adjudication of every example scenario, in order, its effects applied
/// where the scenario applies them: both engines alike, and as `umpire run` gave it
/// (which runs the compiled engine: `scenario::run` takes no engine, so the scenario as a
/// whole is not run by the walker; its adjudications are, one by one, here).
#[test]
fn every_scenario_adjudication_is_alike_by_both_engines() {
    let mut tally = Tally::default();
    let mut scenarios = files("examples", "toml");
    assert!(scenarios.len() >= 5, "the scenarios are found");
    // And the test suite's: needed parameters left out, effects applied turn by turn.
    scenarios.extend(["tests/needed/needed.toml", "tests/state/turns.toml"].map(String::from));
    let mut adjudications = 0;
    for path in &scenarios {
        let report = umpire::scenario::run(path, false, &Limits::default())
            .unwrap_or_else(|e| panic!("{path} runs: {e:?}"));
        let mut rules = report.ruleset.clone();
        rules.state = report.start_state.clone();
        for done in &report.done {
            let Ok(q) = rules.question(&done.name, &done.expr) else {
                continue;
            };
            adjudications += 1;
            if q.code.is_some() {
                tally.lowered += 1;
            }
            let dice = match &done.dice {
                Some(umpire::scenario::DoneDice::Given(r)) => Dice::Given(r.clone()),
                Some(umpire::scenario::DoneDice::Seed(s)) => Dice::Seed(*s),
                None => Dice::Given(Vec::new()),
            };
            let what = || {
                format!(
                    "{path}: \"{}\" `{}` with dice {dice:?}",
                    done.name, done.expr
                )
            };
            let base = rules.options();
            tally.question(&rules.program, &what, &base, true, &mut |o| {
                adjudicate(&rules, &q, &dice, o)
            });
            let ours = adjudicate(&rules, &q, &dice, base.clone());
            // `umpire run`'s errors point into the scenario file, ours into a question.
            match (&ours, &done.result) {
                (Ok(a), Ok(b)) => assert_eq!(a, b, "{}", what()),
                (Err(a), Err(b)) => assert_eq!((a.code, &a.message), (b.code, &b.message)),
                _ => panic!("{}: {ours:?}, `umpire run` gave {:?}", what(), done.result),
            }
            if done.applied {
                if let (Ok(a), Some(s)) = (&ours, &rules.state) {
                    rules.state = Some(umpire::state::apply(s, &a.effects).expect("applies"));
                }
            }
        }
    }
    println!(
        "corpus 3: {adjudications} adjudications of {} scenarios",
        scenarios.len()
    );
    assert!(
        adjudications > 40,
        "the adjudications are found: {adjudications}"
    );
    tally.finish("corpus 3 (scenarios)");
}

/// An adversarial case (tests/adversarial.rs reads them whole; only what makes a
/// question is read here).
#[derive(serde::Deserialize)]
struct AdvCase {
    name: String,
    ruleset: Option<String>,
    rules: Option<String>,
    rules_repeat: Option<(String, usize, String)>,
    state: Option<String>,
    state_repeat: Option<(String, String, String, usize)>,
    state_name: Option<String>,
    expr: Option<String>,
    expr_repeat: Option<(String, String, usize, String)>,
    seed: Option<u64>,
    rolls: Option<Vec<i64>>,
    limits: Option<AdvLimits>,
}

#[derive(serde::Deserialize, Default)]
struct AdvLimits {
    file_bytes: Option<u64>,
    dice_per_roll: Option<u32>,
    sides: Option<u32>,
    steps: Option<u64>,
    depth: Option<u32>,
    dice: Option<u64>,
}

#[derive(serde::Deserialize)]
struct AdvCorpus {
    case: Vec<AdvCase>,
}

/// Corpus 4: the adversarial cases that give a ruleset (or none) and a question.
#[test]
fn every_adversarial_question_is_adjudicated_alike_by_both_engines() {
    let mut tally = Tally::default();
    let mut asked = 0;
    for path in files("tests/adversarial", "toml") {
        let text = std::fs::read_to_string(&path).expect("readable");
        let corpus: AdvCorpus =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{path} reads: {e}"));
        for c in corpus.case {
            let d = Limits::default();
            let l = c.limits.unwrap_or_default();
            let limits = Limits {
                file_bytes: l.file_bytes.unwrap_or(d.file_bytes),
                dice_per_roll: l.dice_per_roll.unwrap_or(d.dice_per_roll),
                sides: l.sides.unwrap_or(d.sides),
                steps: l.steps.unwrap_or(d.steps),
                depth: l.depth.unwrap_or(d.depth),
                dice: l.dice.unwrap_or(d.dice),
            };
            let expr = match (&c.expr, &c.expr_repeat) {
                (Some(e), _) => e.clone(),
                (None, Some((a, m, n, z))) => format!("{a}{}{z}", m.repeat(*n)),
                _ => continue,
            };
            let rules_text = match (&c.rules, &c.rules_repeat) {
                (r, Some((t, n, end))) => Some(format!(
                    "{}{}{end}",
                    r.as_deref().unwrap_or(""),
                    t.repeat(*n)
                )),
                (r, None) => r.clone(),
            };
            let loaded = match (&c.ruleset, rules_text) {
                (Some(name), _) => Ruleset::load_with(name, &limits),
                (None, Some(t)) => Ruleset::from_source_with("case.rules", &t, &limits),
                (None, None) => Ruleset::from_source_with("case.rules", "", &limits),
            };
            let Ok(mut rules) = loaded else { continue };
            let state = match (&c.state, &c.state_repeat) {
                (Some(s), _) => Some(s.clone()),
                (None, Some((a, open, close, n))) => {
                    Some(format!("{a}{}{}\n", open.repeat(*n), close.repeat(*n)))
                }
                _ => None,
            };
            if let Some(s) = state {
                let name = c.state_name.as_deref().unwrap_or("case.toml");
                match umpire::state::load_text(&rules.program, &rules.sources, name, s) {
                    Ok(v) => rules.state = Some(v),
                    Err(_) => continue,
                }
            }
            let dice = match (c.seed, &c.rolls) {
                (Some(s), _) => vec![Dice::Seed(s)],
                (None, Some(r)) => vec![Dice::Given(r.clone())],
                (None, None) => std::iter::once(Dice::Given(Vec::new()))
                    .chain(SEEDS.iter().cloned())
                    .collect(),
            };
            if ask(
                &mut tally,
                &rules,
                &format!("{path}: {}", c.name),
                &expr,
                &dice,
            ) {
                asked += 1;
            }
        }
    }
    println!("corpus 4: {asked} adversarial questions");
    assert!(asked > 40, "the adversarial questions are found: {asked}");
    tally.finish("corpus 4 (adversarial)");
}

/// The generated seeds run: 200, or `UMPIRE_GEN_SEEDS`.
fn seeds() -> u64 {
    std::env::var("UMPIRE_GEN_SEEDS")
        .ok()
        .and_then(|s| s.trim().parse().ok())
        .unwrap_or(200)
}

/// Corpus 5: generated rulesets, each question with seeded dice 0..3.
#[test]
fn generated_questions_are_adjudicated_alike_by_both_engines() {
    let mut tally = Tally::default();
    let (mut rulesets, mut asked) = (0, 0);
    for seed in 0..seeds() {
        let g = generate::generate(seed);
        let Ok(rules) = Ruleset::from_source("generated.rules", &g.source) else {
            continue;
        };
        rulesets += 1;
        for expr in &g.questions {
            let origin = format!("generated seed {seed}:\n{}\n", g.source);
            if ask(&mut tally, &rules, &origin, expr, &SEEDS) {
                asked += 1;
            }
        }
    }
    println!("corpus 5: {asked} questions of {rulesets} generated rulesets");
    assert!(
        rulesets as u64 * 10 >= seeds() * 8,
        "most generated rulesets check"
    );
    assert!(asked >= rulesets, "the generated questions check: {asked}");
    tally.finish("corpus 5 (generated)");
}

/// Corpus 5: the hand-written rulesets at the fast path's edges.
///
/// Run on a thread of a roomy stack: the explanation of a rule recursing 600 calls deep
/// is rendered in words (`render::report_text`) by recursion, which overflows a 2 MiB
/// test thread in a debug build (the command line runs on a roomy stack of its own).
#[test]
fn the_fast_paths_edges_are_adjudicated_alike_by_both_engines() {
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(edges)
        .expect("a thread")
        .join()
        .unwrap_or_else(|e| std::panic::resume_unwind(e));
}

fn edges() {
    let mut tally = Tally::default();
    let found = files("tests/differential", "rules");
    let mut asked = 0;
    for path in &found {
        let text = std::fs::read_to_string(path).expect("readable");
        let (keys, _) = header(&text);
        let rules = prepared(&keys, path);
        for expr in text
            .lines()
            .filter_map(|l| l.trim().strip_prefix("# ask: "))
        {
            assert!(
                ask(&mut tally, &rules, path, expr, &SEEDS[..1]),
                "{path}: `{expr}` checks"
            );
            asked += 1;
        }
        examples(&mut tally, &rules, path);
    }
    println!(
        "corpus 5: {asked} questions of {} hand-written rulesets",
        found.len()
    );
    assert!(
        found.len() >= 3 && asked >= 40,
        "the hand-written questions are found"
    );
    tally.finish("corpus 5 (hand-written)");
}

/// The comparison itself tells apart adjudications that differ only in what no user
/// reads in the headline: the steps, a roll's modifiers, an error's label or help.
#[test]
fn the_comparison_tells_apart_what_differs() {
    let rules = Ruleset::from_source(
        "t.rules",
        "ruleset \"T\"\nmodifiers m(n: Int) { \"n\" +n }\nrule f(n: Int) -> Int { if n > 1 { refuse \"no\" }\n n }\n",
    )
    .expect("checks");
    let p = &*rules.program;
    let q = rules.question("<test>", "d6 + m(1)").expect("checks");
    let a = adjudicate(&rules, &q, &Dice::Given(vec![4]), rules.options());
    let Ok(a) = a else {
        panic!("d6 + m(1) with a 4: {a:?}")
    };
    // `d6 + m(1)` with a 4 is 5, the roll read out as `d6 → 4, +1 = 5`.
    assert_eq!(a.outcome, Outcome::Value(Value::Int(5)));
    assert_eq!(a.rolls[0].modified, Some(5.into()));
    let same = told(p, &Ok(a.clone()));
    assert_eq!(same, told(p, &Ok(a.clone())));
    let mut steps = a.clone();
    steps.steps += 1;
    assert_ne!(same, told(p, &Ok(steps)));
    let mut unmodified = a.clone();
    unmodified.rolls[0].modifiers.clear();
    assert_ne!(same, told(p, &Ok(unmodified)));
    let mut named = a.clone();
    named.rolls[0].name = Some("attack".into());
    assert_ne!(same, told(p, &Ok(named)));
    let e = Diag::error(
        Code::EvalOverflow,
        "the result is too large to hold exactly",
    );
    let err = told(p, &Err(e.clone()));
    assert_ne!(err, told(p, &Err(e.clone().help("another help"))));
    let span = q.expr.span;
    assert_ne!(err, told(p, &Err(e.clone().label(span, "here"))));
    assert_ne!(
        err,
        told(p, &Err(Diag::error(Code::EvalDivisionByZero, e.message)))
    );
    // And a refusal with its reason, under the same question asked of both engines.
    let f = rules.question("<test>", "f(2)").expect("checks");
    let mut tally = Tally::default();
    let what = || "f(2)".to_string();
    tally.question(p, &what, &rules.options(), true, &mut |o| {
        adjudicate(&rules, &f, &Dice::Given(vec![]), o)
    });
    assert!(tally.failures.is_empty(), "{:?}", tally.failures);
    // Untraced and traced, then at least 1 and S steps and 1 to 3 calls deep.
    assert_eq!(tally.questions, 1);
    assert!(tally.runs >= 2 + 5, "{}", tally.runs);
}
