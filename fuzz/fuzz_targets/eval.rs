//! Any text as a question to each bundled ruleset, with seeded dice: a result or a
//! diagnostic.
#![no_main]
use libfuzzer_sys::fuzz_target;

thread_local! {
    static RULESETS: Vec<umpire::Ruleset> = umpire::bundled::names()
        .into_iter()
        .filter_map(|n| umpire::Ruleset::bundled(n).ok())
        .collect();
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    RULESETS.with(|all| {
        // A question leaves its ruleset as it was: no copy is needed.
        let r = &all[usize::from(pick) % all.len()];
        if let Ok(q) = r.question("<fuzz>", text) {
            let mut dice = umpire::dice::Seeded::new(u64::from(pick));
            let _ = r.adjudicate(&q, &mut dice, umpire::eval::Options::default());
        }
    });
});
