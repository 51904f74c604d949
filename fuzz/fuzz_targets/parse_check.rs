//! Any text as a ruleset: it loads (and its examples run) or fails with diagnostics.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        if let Ok(r) = umpire::Ruleset::from_source("fuzz.rules", text) {
            let _ = r.run_examples();
        }
    }
});
