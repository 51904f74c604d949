//! A real client: headless Neovim set up exactly as the README's Neovim snippet says (the
//! snippet is read out of README.md, between its `neovim-setup` markers, and given to
//! Neovim as its `init.lua`), opening a ruleset with a mistake. `tests/neovim/harness.lua`
//! waits for the diagnostics, fixes the line, waits for them to go, asks for completion,
//! reads the example's code lens and runs it, writes what it found as JSON and quits; every wait is bounded, and Neovim itself is
//! stopped if it runs past a time limit.
//!
//! Without `nvim` on the PATH the test prints a notice and passes, except under
//! `CI=true`, where `.ci/run` installs Debian's `neovim` (0.7.2) and a missing one fails.

mod common;

use common::{root, Scratch};
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long Neovim may run in all before it is stopped.
const LIMIT: Duration = Duration::from_secs(120);

/// The ruleset opened: `strenght` on line 4 (0-based), at character 35, is not a name.
/// Its example (line 6), once that is fixed: `2 * 3 + 1` is 7, and `2 * 3 + 0` is 6, not 5.
const PROBE: &str = "ruleset \"Probe\"\n\
record Unit { men: Int, arm: Int }\n\
const strength = 3\n\
\n\
rule doubled(u: Unit) -> Int { 2 * strenght + u.men }\n\
\n\
example \"doubled\" {\n\
  doubled(Unit { men: 1, arm: 0 }) == 7\n\
  doubled(Unit { men: 0, arm: 0 }) == 5\n\
}\n";

/// The line as fixed; completion is asked just after its `u.` (character 48).
const FIXED: &str = "rule doubled(u: Unit) -> Int { 2 * strength + u.men }";

/// The README's Neovim snippet: the Lua between the `neovim-setup` markers.
fn readme_snippet() -> String {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README.md");
    let start = readme
        .find("<!-- neovim-setup:start -->")
        .expect("the README marks where its Neovim snippet starts");
    let end = readme
        .find("<!-- neovim-setup:end -->")
        .expect("the README marks where its Neovim snippet ends");
    let block = &readme[start..end];
    let code = block
        .split_once("```lua\n")
        .and_then(|(_, rest)| rest.rsplit_once("```"))
        .map(|(code, _)| code)
        .expect("a ```lua block between the markers");
    code.to_string()
}

/// Whether `nvim` runs; without it the test is skipped, but under `CI=true`.
fn nvim_found() -> bool {
    match Command::new("nvim").arg("--version").output() {
        Ok(o) if o.status.success() => true,
        _ if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("nvim is needed for this test under CI=true (.ci/run installs Debian's neovim)")
        }
        _ => {
            eprintln!("notice: nvim is not installed: the headless Neovim test is skipped");
            false
        }
    }
}

#[test]
fn neovim_set_up_as_the_readme_says_shows_the_diagnostic_completes_and_runs_an_example() {
    if !nvim_found() {
        return;
    }
    let dir = Scratch::new("nvim");
    let snippet = readme_snippet();
    // The snippet starts `umpire lsp`, found on the PATH as the README says.
    assert!(
        snippet.contains("cmd = { \"umpire\", \"lsp\" }"),
        "{snippet}"
    );
    std::fs::write(dir.join("init.lua"), &snippet).expect("init.lua written");
    let ruleset = dir.join("probe.rules");
    std::fs::write(&ruleset, PROBE).expect("ruleset written");
    let out = dir.join("found.json");
    let umpire = std::path::Path::new(env!("CARGO_BIN_EXE_umpire"));
    let bin = umpire.parent().expect("the binary's folder");
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let complete_at = FIXED.find("u.men").expect("u.men") + 2;
    let mut nvim = Command::new("nvim")
        .args(["--headless", "-n", "-i", "NONE", "-u"])
        .arg(dir.join("init.lua"))
        .arg("-c")
        .arg(format!(
            "luafile {}",
            root().join("tests/neovim/harness.lua").display()
        ))
        .arg(&ruleset)
        .current_dir(&*dir)
        .env("PATH", path)
        // Neovim's own folders (its log, its state) in the scratch folder; umpire's
        // settings and cache as the other tests have them.
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_STATE_HOME", dir.join("state"))
        .env("UMPIRE_CACHE_DIR", common::cache_dir())
        .env("NO_COLOR", "1")
        .env_remove("UMPIRE_CACHE")
        .env_remove("UMPIRE_DICE")
        .env("UMPIRE_NVIM_OUT", &out)
        .env("UMPIRE_NVIM_WAIT_MS", "30000")
        .env("UMPIRE_NVIM_FIX_LINE", "4")
        .env("UMPIRE_NVIM_FIX_TEXT", FIXED)
        .env("UMPIRE_NVIM_COMPLETE_LINE", "4")
        .env("UMPIRE_NVIM_COMPLETE_CHARACTER", complete_at.to_string())
        .env("UMPIRE_NVIM_LENS_LINE", "6")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let started = Instant::now();
    let status = loop {
        if let Some(status) = nvim.try_wait().expect("nvim is waited for") {
            break status;
        }
        if started.elapsed() > LIMIT {
            let _ = nvim.kill();
            let _ = nvim.wait();
            panic!("headless Neovim ran past {LIMIT:?} and was stopped");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let stderr = nvim
        .stderr
        .take()
        .map(|mut e| {
            let mut s = String::new();
            let _ = std::io::Read::read_to_string(&mut e, &mut s);
            s
        })
        .unwrap_or_default();
    assert!(status.success(), "nvim: {status}; {stderr}");
    let found = std::fs::read_to_string(&out)
        .unwrap_or_else(|e| panic!("Neovim wrote no findings ({e}): {stderr}"));
    let found: Value = serde_json::from_str(&found).expect("the findings are JSON");
    // The autocommand set the filetype, and the diagnostic came within the wait.
    assert_eq!(found["filetype"], "umpire", "{found}");
    // And completion from the server on <C-x><C-o>, as the README says.
    assert_eq!(found["omnifunc"], "v:lua.vim.lsp.omnifunc", "{found}");
    assert_eq!(found["published"], true, "{found}");
    let d = found["diagnostics"].as_array().expect("a list");
    assert_eq!(d.len(), 1, "{found}");
    assert_eq!(d[0]["line"], 4, "{found}");
    assert_eq!(d[0]["character"], 35, "{found}");
    assert_eq!(d[0]["code"], "umpire::check::unknown_name", "{found}");
    assert_eq!(d[0]["severity"], 1, "an error: {found}");
    let message = d[0]["message"].as_str().unwrap_or("");
    assert!(message.contains("did you mean `strength`"), "{message}");
    // Fixed as the help says, the diagnostic went; after `u.` completion offers the
    // fields of a Unit.
    assert_eq!(found["fixed"], true, "{found}");
    let labels: Vec<&str> = found["completion"]
        .as_array()
        .expect("a list")
        .iter()
        .filter_map(|i| i["label"].as_str())
        .collect();
    assert_eq!(labels, ["men", "arm"], "{found}");
    // The example's lens, on its line, says its second check fails; run from Neovim,
    // the server shows the same in words.
    assert_eq!(found["lensed"], true, "{found}");
    let lenses = found["lenses"].as_array().expect("a list");
    assert_eq!(lenses.len(), 1, "{found}");
    assert_eq!(lenses[0]["line"], 6, "{found}");
    let why = "`doubled(Unit { men: 0, arm: 0 }) == 5`: example does not hold, gave 6; expected 5";
    assert_eq!(
        lenses[0]["title"],
        format!("✗ 1 of 2 fails: {why}"),
        "{found}"
    );
    assert_eq!(found["ran"], true, "{found}");
    assert_eq!(
        found["shown"][0]["message"],
        format!("example \"doubled\": 1 of 2 checks fails: {why}"),
        "{found}"
    );
    assert_eq!(found["shown"][0]["type"], 1, "an error: {found}");
}
