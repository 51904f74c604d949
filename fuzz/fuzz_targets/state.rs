//! Any text as a game state file (TOML) for the Furious Reason brigade's ruleset, then
//! a manoeuvre of every battalion: a state and results, or diagnostics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(mut r) = umpire::Ruleset::bundled("furious_reason") else { return };
    if let Ok(state) = umpire::state::load_text(&r.program, &r.sources, "fuzz.toml", text.to_string()) {
        r.state = Some(state);
        if let Ok(q) = r.question("<fuzz>", "brigade") {
            let _ = r.adjudicate(&q, &mut umpire::dice::Given::new(vec![]), umpire::eval::Options::default());
        }
    }
});
