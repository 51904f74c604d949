//! The peers' benches: the Furious Reason manoeuvre by hand in Rust and as a Rhai script,
//! Rhai's compile speed, and the cost of a process. Every result is checked before it is
//! timed. The bench IDs are top-level (no group), so each lands in
//! `target/criterion/<id>/new/estimates.json`, which peers/run.sh reads.
use criterion::{criterion_group, criterion_main, Criterion};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rhai::{Dynamic, Map, Scope, AST};
use std::cell::RefCell;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::rc::Rc;
use std::time::Duration;
use umpire_peers::*;

/// The directory cargo builds into: `$CARGO_TARGET_DIR` when set (run.sh sets it to
/// peers/rust/target), else this crate's own target/.
fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// B1: one hand-written adjudication per iteration.
fn native(c: &mut Criterion) {
    let u = second_foot();
    assert_eq!(manoeuvre_drm(&u), -1);
    // The table, face by face: r-1 on the good-order side.
    let expect = [
        Outcome::Retire,
        Outcome::Disengage,
        Outcome::Disengage,
        Outcome::Hold,
        Outcome::Hold,
        Outcome::Tardy,
        Outcome::Tardy,
        Outcome::WellHandled,
        Outcome::WellHandled,
        Outcome::WellHandled,
    ];
    for (face, o) in (1..=10).zip(expect) {
        assert_eq!(manoeuvre_with(&u, face), o, "D10 = {face}");
    }
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let first = manoeuvre(&u, &mut rng);
    assert!(SECOND_FOOT_DISTRIBUTION.iter().any(|&(o, _, _)| o == first));
    c.bench_function("native manoeuvre", |b| {
        b.iter(|| manoeuvre(black_box(&u), &mut rng))
    });
}

/// B3: the exact distribution, by enumerating the D10's faces.
fn native_exact(c: &mut Criterion) {
    let u = second_foot();
    let counts = exact_manoeuvre(&u);
    // 3/10, 1/5, 1/5, 1/5, 1/10 over ten faces; nothing else.
    let mut want = [0u32; 11];
    for (o, num, den) in SECOND_FOOT_DISTRIBUTION {
        want[o as usize] = num * (10 / den);
    }
    assert_eq!(counts, want);
    c.bench_function("native exact manoeuvre", |b| {
        b.iter(|| exact_manoeuvre(black_box(&u)))
    });
}

/// B2: a million adjudications, and a million 2d6 + drm, in one iteration each.
fn native_million(c: &mut Criterion) {
    let u = second_foot();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let counts = million_manoeuvres(&u, &mut rng);
    check_tally(&counts, 0.005).expect("a million manoeuvres fit the exact distribution");
    let sum = million_2d6_drm(&u, &mut rng);
    let mean = sum as f64 / 1e6;
    assert!(
        (mean - 6.0).abs() < 0.02,
        "mean of 2d6 - 1 is 6, got {mean}"
    );
    c.bench_function("native 1M manoeuvres", |b| {
        b.iter(|| million_manoeuvres(black_box(&u), &mut rng))
    });
    c.bench_function("native 1M 2d6+drm", |b| {
        b.iter(|| million_2d6_drm(black_box(&u), &mut rng))
    });
}

/// The Rhai peer, built once: the engine with the dice registered, the rules compiled once into
/// an AST together with the entry statement, and the unit in a scope as `u`.
struct RhaiPeer {
    engine: rhai::Engine,
    scope: Scope<'static>,
    one: AST,
    million: AST,
    million_2d6: AST,
}

impl RhaiPeer {
    fn new() -> RhaiPeer {
        let rng = Rc::new(RefCell::new(ChaCha8Rng::seed_from_u64(SEED)));
        let engine = rhai_engine(rng);
        let mut scope = Scope::new();
        scope.push("u", unit_map(&second_foot()));
        let compile = |entry: &str| {
            engine
                .compile_with_scope(&scope, format!("{RHAI_RULES}\n{entry}"))
                .expect("the Rhai rules compile")
        };
        let one = compile("u.manoeuvre()");
        let million = compile("u.million_manoeuvres()");
        let million_2d6 = compile("u.million_2d6_drm()");
        RhaiPeer {
            engine,
            scope,
            one,
            million,
            million_2d6,
        }
    }

    fn run(&mut self, which: &'static str) -> Dynamic {
        let ast = match which {
            "one" => &self.one,
            "million" => &self.million,
            _ => &self.million_2d6,
        };
        self.engine
            .eval_ast_with_scope::<Dynamic>(&mut self.scope, ast)
            .expect("the Rhai rules run")
    }
}

fn rhai_outcome(d: Dynamic) -> Outcome {
    let name = d.into_immutable_string().expect("an outcome name");
    Outcome::from_name(&name).expect("a known outcome")
}

/// B1/B2 as Rhai.
fn rhai_rules(c: &mut Criterion) {
    // Same seed, same dice, same rules: the Rhai script must give the native sequence.
    let mut peer = RhaiPeer::new();
    let u = second_foot();
    let mut native_rng = ChaCha8Rng::seed_from_u64(SEED);
    for i in 0..1000 {
        assert_eq!(
            rhai_outcome(peer.run("one")),
            manoeuvre(&u, &mut native_rng),
            "roll {i}"
        );
    }
    // The modifiers alone.
    let drm_ast = peer
        .engine
        .compile_with_scope(&peer.scope, format!("{RHAI_RULES}\nu.manoeuvre_drm()"))
        .expect("compiles");
    let drm: i64 = peer
        .engine
        .eval_ast_with_scope(&mut peer.scope, &drm_ast)
        .expect("runs");
    assert_eq!(drm, -1);
    c.bench_function("rhai manoeuvre", |b| b.iter(|| peer.run("one")));
}

fn rhai_million(c: &mut Criterion) {
    let mut peer = RhaiPeer::new();
    let tally: Map = peer.run("million").cast();
    let mut counts = [0u64; 11];
    for (name, n) in tally {
        let o = Outcome::from_name(&name).expect("a known outcome");
        counts[o as usize] = n.as_int().expect("a count") as u64;
    }
    assert_eq!(counts.iter().sum::<u64>(), 1_000_000);
    check_tally(&counts, 0.005).expect("a million Rhai manoeuvres fit the exact distribution");
    let sum = peer.run("million_2d6").as_int().expect("a sum");
    let mean = sum as f64 / 1e6;
    assert!(
        (mean - 6.0).abs() < 0.02,
        "mean of 2d6 - 1 is 6, got {mean}"
    );
    c.bench_function("rhai 1M manoeuvres", |b| b.iter(|| peer.run("million")));
    c.bench_function("rhai 1M 2d6+drm", |b| b.iter(|| peer.run("million_2d6")));
}

/// B4: Rhai compiling about a thousand lines of ruleset-like code.
fn rhai_compile(c: &mut Criterion) {
    let (script, lines) = generated_script(1000);
    let engine = rhai::Engine::new();
    let ast = engine
        .compile(&script)
        .expect("the generated script compiles");
    let functions = ast.iter_functions().count();
    // Checked before timing: it compiled every block, and a table and a rule of it give the
    // ruleset's answers (block 0 has the ruleset's thresholds).
    assert!(functions >= 4 * 10, "{functions} functions");
    let mut scope = Scope::new();
    let tardy: String = engine
        .call_fn(&mut scope, &ast, "table_0", ("good_order", 6_i64))
        .expect("table_0 runs");
    assert_eq!(tardy, "tardy");
    let retire: String = engine
        .call_fn(
            &mut scope,
            &ast,
            "manoeuvre_0",
            (unit_map(&second_foot()), 1_i64),
        )
        .expect("manoeuvre_0 runs");
    assert_eq!(retire, "retire");
    let well: String = engine
        .call_fn(
            &mut scope,
            &ast,
            "manoeuvre_0",
            (unit_map(&second_foot()), 8_i64),
        )
        .expect("manoeuvre_0 runs");
    assert_eq!(well, "well_handled");
    println!(
        "rhai compile 1000 lines: the generated script has {lines} lines, {functions} functions"
    );
    let dir = target_dir().join("peers");
    std::fs::create_dir_all(&dir).expect("target/peers");
    std::fs::write(dir.join("rhai_compile_lines.txt"), format!("{lines}\n"))
        .expect("writes the line count");
    std::fs::write(dir.join("rhai_compile_script.rhai"), &script).expect("writes the script");
    c.bench_function("rhai compile 1000 lines", |b| {
        b.iter(|| engine.compile(black_box(&script)).expect("compiles"))
    });
}

/// B5: a hello-world process, spawned and waited for.
fn process(c: &mut Criterion) {
    let hello = target_dir()
        .join("release")
        .join(format!("hello{}", std::env::consts::EXE_SUFFIX));
    assert!(
        hello.exists(),
        "{} is missing: `cargo build --release` in peers/rust first (peers/run.sh does)",
        hello.display()
    );
    let spawn = || Command::new(&hello).output().expect("hello runs");
    let out = spawn();
    assert!(out.status.success());
    assert_eq!(out.stdout, b"hello\n");
    c.bench_function("hello-world process", |b| b.iter(spawn));
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

// The million-roll benches: ten samples. Criterion's automatic sampling mode turns to flat
// sampling (the same number of iterations in each sample, at least one) when the linear
// ramp would overrun, so a slow peer takes about ten iterations, not fifty-five.
fn million_config() -> Criterion {
    config().sample_size(10)
}

criterion_group! {
    name = small;
    config = config();
    targets = native, native_exact, rhai_rules, rhai_compile, process
}
criterion_group! {
    name = million;
    config = million_config();
    targets = native_million, rhai_million
}
criterion_main!(small, million);
