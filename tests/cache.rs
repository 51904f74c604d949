//! The cache of checked rulesets (`src/cache.rs`): what is read back is what was
//! checked, and whatever is amiss with the cache is passed over without a word.

mod common;

use common::{stderr, stdout, umpire_command, Scratch};
use std::path::Path;
use std::process::Output;
use umpire::cache::{Cache, Checked};
use umpire::dice::Seeded;
use umpire::limits::Limits;
use umpire::{bundled, eval, render, Ruleset};

/// The entry files in `dir`.
fn entries(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<_> = read
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "checked"))
        .collect();
    out.sort();
    out
}

/// `umpire ARGS` in `dir` with the cache in `cache` (`None`: `UMPIRE_CACHE=off`).
fn run(dir: &Path, cache: Option<&Path>, args: &[&str]) -> Output {
    let mut c = umpire_command(args);
    c.current_dir(dir);
    match cache {
        Some(cache) => c.env("UMPIRE_CACHE_DIR", cache),
        None => c.env("UMPIRE_CACHE", "off"),
    };
    c.output().expect("umpire runs")
}

/// What a run showed: exit code, stdout, stderr.
fn shown(o: &Output) -> (Option<i32>, String, String) {
    (o.status.code(), stdout(o), stderr(o))
}

/// Every question of every example of `rules`, asked with the same seeded dice and
/// explained: the answers in words (or the error's message).
fn answers(rules: &Ruleset) -> Vec<String> {
    let mut out = Vec::new();
    for ex in &rules.program.examples {
        for check in &ex.checks {
            let a = rules.adjudicate(
                &check.query,
                &mut Seeded::new(7),
                eval::Options {
                    trace: true,
                    ..rules.options()
                },
            );
            out.push(match a {
                Ok(a) => format!(
                    "{}\n{}",
                    render::headline(&rules.program, &a.outcome),
                    render::explain(&rules.program, a.trace.as_deref().unwrap_or(&[]))
                ),
                Err(d) => format!("error: {}", d.message),
            });
        }
    }
    out
}

/// Each bundled ruleset, checked afresh and then written to the cache and read back,
/// is the same program, the same sources and the same warnings; its examples give the
/// same results and every question of them the same answer and explanation.
#[test]
fn a_bundled_ruleset_read_back_is_the_one_checked() {
    let dir = Scratch::new("bundled");
    let cache = Cache::in_dir(dir.join("cache"));
    let limits = Limits::default();
    for name in bundled::names() {
        let label = format!("bundled:{name}");
        let text = bundled::source(name).expect("bundled");
        let fresh = Ruleset::check_source(&label, text, &limits).expect("checks");
        assert!(
            cache.load(&label, text, &limits).is_none(),
            "{name}: not kept yet"
        );
        cache.store(&label, text, &limits, &fresh);
        let back: Checked = cache.load(&label, text, &limits).expect("read back");
        assert!(back.program == fresh.program, "{name}: the same program");
        assert!(back.sources == fresh.sources, "{name}: the same sources");
        assert_eq!(
            format!("{:?}", back.warnings),
            format!("{:?}", fresh.warnings),
            "{name}: the same warnings"
        );
        let fresh = Ruleset::from_checked(fresh, &limits);
        let back = Ruleset::from_checked(back, &limits);
        let results = |r: &Ruleset| {
            r.run_examples()
                .iter()
                .map(|e| {
                    let failure = e
                        .failure
                        .as_ref()
                        .map(|d| umpire::diagnostic::render(d, false));
                    format!("{} {} {} {failure:?}", e.example, e.index, e.check)
                })
                .collect::<Vec<_>>()
        };
        assert!(!fresh.program.examples.is_empty(), "{name} has examples");
        assert_eq!(results(&back), results(&fresh), "{name}: examples");
        assert_eq!(answers(&back), answers(&fresh), "{name}: questions");
    }
    // One entry per ruleset, of the cache's naming.
    let kept = entries(&dir.join("cache"));
    assert_eq!(kept.len(), bundled::names().len());
    for p in kept {
        let stem = p.file_stem().map(|s| s.to_string_lossy().into_owned());
        let stem = stem.unwrap_or_default();
        assert!(
            stem.len() == 64 && stem.bytes().all(|b| b.is_ascii_hexdigit()),
            "{stem}"
        );
    }
}

/// A ruleset's warnings come back with it, drawn as when it was checked; the warm run
/// answers as the cold one and as a run without the cache.
#[test]
fn warnings_are_kept_and_a_warm_run_answers_as_a_cold_one() {
    let dir = Scratch::new("warnings");
    let rules = "table pursuit_bonus(roll: Int) -> Int {\n  1-3 => 0\n  4-6 => 1\n  7 or more => 2\n}\n\nrule pursuit() -> Int { pursuit_bonus(d6) }\n";
    std::fs::write(dir.join("p.rules"), rules).expect("written");
    let cache = dir.join("cache");
    let args = ["eval", "p.rules", "pursuit()", "--roll", "5", "--explain"];
    let off = shown(&run(&dir, None, &args));
    assert!(entries(&cache).is_empty());
    let cold = shown(&run(&dir, Some(&cache), &args));
    let kept = entries(&cache);
    assert_eq!(kept.len(), 1, "kept");
    let written = std::fs::metadata(&kept[0]).expect("entry");
    let warm = shown(&run(&dir, Some(&cache), &args));
    // Read, not written again (a write is a new file renamed over the old).
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let now = std::fs::metadata(&kept[0]).expect("entry");
        assert_eq!(now.ino(), written.ino(), "the warm run reads the entry");
    }
    let _ = written;
    assert_eq!(off.0, Some(0));
    assert!(off.1.starts_with("1\n"), "{}", off.1);
    assert!(
        off.2.contains("no roll reaches row `7 or more`"),
        "{}",
        off.2
    );
    assert_eq!(cold, off);
    assert_eq!(warm, off);
}

/// An entry cut short, or with a byte changed, or replaced by anything else, is passed
/// over without a word and written anew.
#[test]
fn a_damaged_entry_is_passed_over_and_written_anew() {
    let dir = Scratch::new("damaged");
    let cache = dir.join("cache");
    let args = [
        "eval",
        "furious_reason",
        "manoeuvre_table(good_order, 7)",
        "--explain",
    ];
    let off = shown(&run(&dir, None, &args));
    assert_eq!(off.0, Some(0), "{}", off.2);
    assert_eq!(shown(&run(&dir, Some(&cache), &args)), off);
    let kept = entries(&cache);
    assert_eq!(kept.len(), 1);
    let entry = &kept[0];
    let good = std::fs::read(entry).expect("entry");
    let mut flipped = good.clone();
    let middle = flipped.len() / 2;
    flipped[middle] ^= 0x10;
    let damages: Vec<(&str, Vec<u8>)> = vec![
        ("cut short", good[..good.len() / 3].to_vec()),
        ("one byte changed", flipped),
        ("empty", Vec::new()),
        ("not an entry", b"hello".repeat(1000)),
    ];
    for (what, bytes) in damages {
        std::fs::write(entry, &bytes).expect("damaged");
        assert_eq!(shown(&run(&dir, Some(&cache), &args)), off, "{what}");
        assert_eq!(
            std::fs::read(entry).expect("entry").len(),
            good.len(),
            "{what}: written anew"
        );
    }
    // A folder where the entry would be: passed over, and the run answers.
    std::fs::remove_file(entry).expect("removed");
    std::fs::create_dir(entry).expect("a folder");
    assert_eq!(shown(&run(&dir, Some(&cache), &args)), off, "a folder");
}

/// A house rule is read back only while the ruleset it extends reads as it did: the
/// base changed, the answer changes with it.
#[test]
fn an_entry_is_kept_only_while_every_file_it_read_is_the_same() {
    let dir = Scratch::new("extends");
    let cache = dir.join("cache");
    std::fs::write(
        dir.join("base.rules"),
        "const bonus = 1\nrule r() -> Int { bonus }\n",
    )
    .expect("written");
    std::fs::write(
        dir.join("house.rules"),
        "extends \"base.rules\"\nrule s() -> Int { r() + 10 }\n",
    )
    .expect("written");
    let args = ["eval", "house.rules", "s()"];
    let first = run(&dir, Some(&cache), &args);
    assert_eq!(stdout(&first), "11\n", "{}", stderr(&first));
    assert_eq!(stdout(&run(&dir, Some(&cache), &args)), "11\n");
    std::fs::write(
        dir.join("base.rules"),
        "const bonus = 5\nrule r() -> Int { bonus }\n",
    )
    .expect("written");
    assert_eq!(stdout(&run(&dir, Some(&cache), &args)), "15\n");
    // The base gone: its error, as without the cache.
    std::fs::remove_file(dir.join("base.rules")).expect("removed");
    let gone = shown(&run(&dir, Some(&cache), &args));
    assert_eq!(gone.0, Some(1));
    assert_eq!(gone, shown(&run(&dir, None, &args)));
}

/// A ruleset with errors is never kept; its errors are shown as without the cache.
#[test]
fn a_ruleset_with_errors_is_not_kept() {
    let dir = Scratch::new("errors");
    let cache = dir.join("cache");
    std::fs::write(dir.join("bad.rules"), "rule r() -> Int { nobody }\n").expect("written");
    let args = ["eval", "bad.rules", "r()"];
    let with = shown(&run(&dir, Some(&cache), &args));
    assert_eq!(with.0, Some(1));
    assert!(with.2.contains("nobody"), "{}", with.2);
    assert_eq!(with, shown(&run(&dir, None, &args)));
    assert!(entries(&cache).is_empty());
}

/// A cache folder that cannot be made is passed over: the run answers, says nothing of
/// it, and writes nothing; `UMPIRE_CACHE=off` and `umpire check` write nothing either.
#[test]
fn no_cache_is_no_error() {
    let dir = Scratch::new("nowhere");
    std::fs::write(dir.join("a-file"), "not a folder").expect("written");
    let nowhere = dir.join("a-file").join("cache");
    let args = ["eval", "little_wars", "2 + 3"];
    let o = run(&dir, Some(&nowhere), &args);
    assert_eq!(shown(&o), (Some(0), "5\n".to_string(), String::new()));
    let cache = dir.join("cache");
    let o = run(&dir, None, &args);
    assert_eq!(stdout(&o), "5\n");
    let o = run(&dir, Some(&cache), &["check", "little_wars"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(!cache.exists(), "check keeps nothing");
    // Another command keeps it, in a folder it makes.
    let o = run(&dir, Some(&cache), &args);
    assert_eq!(stdout(&o), "5\n");
    assert_eq!(entries(&cache).len(), 1);
}

/// The limits are part of the key: a ruleset kept under the default limits is not read
/// back under a smaller file-size limit, which refuses it.
#[test]
fn other_limits_are_another_entry() {
    let dir = Scratch::new("limits");
    let cache = dir.join("cache");
    let args = ["eval", "little_wars", "1"];
    assert_eq!(stdout(&run(&dir, Some(&cache), &args)), "1\n");
    let small = ["eval", "little_wars", "1", "--max-file-size", "1000"];
    let o = shown(&run(&dir, Some(&cache), &small));
    assert_eq!(o.0, Some(1));
    assert_eq!(o, shown(&run(&dir, None, &small)));
    let steps = ["eval", "little_wars", "1", "--max-steps", "10"];
    assert_eq!(stdout(&run(&dir, Some(&cache), &steps)), "1\n");
    assert_eq!(entries(&cache).len(), 2);
}

/// Where the cache is: `UMPIRE_CACHE_DIR`, else `$XDG_CACHE_HOME/umpire`, else
/// `~/.cache/umpire`; nowhere with `UMPIRE_CACHE=off`.
#[test]
fn the_cache_folder_is_where_the_environment_says() {
    let dir = Scratch::new("where");
    let args = ["eval", "kriegspiel", "1"];
    let mut c = umpire_command(&args);
    c.current_dir(&*dir)
        .env_remove("UMPIRE_CACHE_DIR")
        .env("XDG_CACHE_HOME", dir.join("xdg"))
        .env("HOME", dir.join("home"));
    assert_eq!(stdout(&c.output().expect("runs")), "1\n");
    assert_eq!(entries(&dir.join("xdg").join("umpire")).len(), 1);
    let mut c = umpire_command(&args);
    c.current_dir(&*dir)
        .env_remove("UMPIRE_CACHE_DIR")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", dir.join("home"));
    assert_eq!(stdout(&c.output().expect("runs")), "1\n");
    assert_eq!(
        entries(&dir.join("home").join(".cache").join("umpire")).len(),
        1
    );
    let mut c = umpire_command(&args);
    c.current_dir(&*dir)
        .env_remove("UMPIRE_CACHE_DIR")
        .env("UMPIRE_CACHE", "off")
        .env("HOME", dir.join("home2"));
    assert_eq!(stdout(&c.output().expect("runs")), "1\n");
    assert!(!dir.join("home2").exists());
}
