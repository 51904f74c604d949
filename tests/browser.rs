//! The page of `umpire serve` in a real browser: each scenario `web/test/*.spec.mjs`, run
//! by `web/test/run.mjs` in Debian's headless Chromium through playwright-core, against a
//! server of its own (`umpire serve` on copies of the veterans' house rule and the
//! brigade's state, `--port 0`), which must then stop cleanly on SIGINT without writing
//! the state file. The harness's own scenarios (`web/test/selftest/`) show that it fails
//! a scenario for what it should. web/test/README.md says how a scenario is written.
//!
//! The tests need node and chromium. When `web/test/node_modules` is missing the test
//! runs `npm ci` there (`.ci/run` does it before `cargo test`). Without node, npm or
//! chromium, or when `npm ci` cannot fetch the packages, each test prints a notice and
//! passes, except under `CI=true`, where that is a failure. Screenshots are written to
//! `target/screenshots/serve/`.

mod common;

use common::{root, umpire_command, Scratch};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::thread;
use std::time::{Duration, Instant};

/// How long the server may take to print its addresses (a debug build checks the
/// ruleset first).
const START: Duration = Duration::from_secs(60);
/// How long one scenario may take, Chromium's start included (run.mjs stops a scenario
/// itself after 60 s).
const SCENARIO: Duration = Duration::from_secs(120);
/// How long the server may take to stop after SIGINT.
const STOP: Duration = Duration::from_secs(10);

/// One browser at a time: the machine's cores are shared with the other tests.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

fn on_ci() -> bool {
    std::env::var("CI").as_deref() == Ok("true")
}

fn test_dir() -> PathBuf {
    root().join("web/test")
}

/// Where the scenarios' screenshots go: `target/screenshots/serve/`.
fn shots_dir() -> PathBuf {
    let tmp = Path::new(env!("CARGO_TARGET_TMPDIR"));
    tmp.parent().unwrap_or(tmp).join("screenshots/serve")
}

/// `program ARGS` in `dir`, ended well; or what went wrong, in words.
fn run(program: &str, args: &[&str], dir: &Path) -> Result<String, String> {
    match Command::new(program).args(args).current_dir(dir).output() {
        Ok(o) if o.status.success() => Ok(String::from_utf8_lossy(&o.stdout).into_owned()),
        Ok(o) => Err(format!(
            "`{program} {}` failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&o.stderr).trim()
        )),
        Err(e) => Err(format!("`{program}` cannot be run: {e}")),
    }
}

/// Debian's chromium (`command -v chromium`), node, and playwright-core installed in
/// `web/test` (by `npm ci`, once, when it is missing): the path of chromium, or why not.
fn browser_ready() -> Result<PathBuf, String> {
    static READY: OnceLock<Result<PathBuf, String>> = OnceLock::new();
    READY
        .get_or_init(|| {
            let dir = test_dir();
            let found = run("sh", &["-c", "command -v chromium"], &dir)
                .map_err(|_| "`chromium` is not on the PATH".to_string())?;
            let chromium = PathBuf::from(found.trim());
            run("node", &["--version"], &dir)?;
            if !dir.join("node_modules/playwright-core").is_dir() {
                run("npm", &["ci", "--no-audit", "--no-fund"], &dir)?;
            }
            Ok(chromium)
        })
        .clone()
}

/// Chromium's path if the scenarios can run here: if not, a notice (outside CI) or a
/// failure.
fn browser_or_skip(test: &str) -> Option<PathBuf> {
    match browser_ready() {
        Ok(chromium) => Some(chromium),
        Err(why) if on_ci() => panic!("{test} needs chromium, node and npm under CI=true: {why}"),
        Err(why) => {
            eprintln!(
                "notice: {test} was skipped: {why} (install Debian's chromium, node and npm \
                 to run it)"
            );
            None
        }
    }
}

/// Everything a child process writes to one of its pipes, kept as it comes; with each
/// line also sent on `lines`, if given.
fn drain(
    pipe: impl Read + Send + 'static,
    kept: Arc<Mutex<String>>,
    lines: Option<mpsc::Sender<String>>,
) {
    thread::spawn(move || {
        for line in BufReader::new(pipe).lines() {
            let Ok(line) = line else { break };
            if let Ok(mut k) = kept.lock() {
                k.push_str(&line);
                k.push('\n');
            }
            if let Some(tx) = &lines {
                let _ = tx.send(line);
            }
        }
    });
}

/// What `kept` holds now.
fn text_of(kept: &Arc<Mutex<String>>) -> String {
    kept.lock().map(|k| k.clone()).unwrap_or_default()
}

/// `child`'s exit, waited for up to `limit`; `None` if it is still running then.
fn wait_for(child: &mut Child, limit: Duration) -> Option<ExitStatus> {
    let end = Instant::now() + limit;
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < end => thread::sleep(Duration::from_millis(50)),
            _ => return None,
        }
    }
}

/// The files of `dir`, each with its content, in name order.
fn contents(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| {
                    let name = e.file_name().to_string_lossy().into_owned();
                    (name, std::fs::read(e.path()).unwrap_or_default())
                })
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// `umpire serve` on copies of the house rule and the state, in a folder of its own.
struct Server {
    child: Child,
    /// Its stdout and stderr, as far as they have come.
    output: Arc<Mutex<String>>,
    umpire_url: String,
    players_url: String,
    dir: Scratch,
}

impl Server {
    /// Starts the server in a fresh folder named `tag`, and reads its two addresses.
    fn start(tag: &str) -> Result<Server, String> {
        let dir = Scratch::new(tag);
        for file in [
            "examples/house/furious_reason_veterans.rules",
            "examples/states/furious_reason_brigade.toml",
        ] {
            let from = root().join(file);
            let name = from.file_name().unwrap_or_default();
            std::fs::copy(&from, dir.join(name)).map_err(|e| format!("{file} copied: {e}"))?;
        }
        let args = [
            "serve",
            "furious_reason_veterans.rules",
            "--state",
            "furious_reason_brigade.toml",
            "--port",
            "0",
            "--seed",
            "7",
        ];
        let mut child = umpire_command(&args)
            .current_dir(&*dir)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("`umpire serve` cannot be run: {e}"))?;
        let output = Arc::new(Mutex::new(String::new()));
        let (tx, rx) = mpsc::channel();
        if let Some(out) = child.stdout.take() {
            drain(out, output.clone(), Some(tx));
        }
        if let Some(err) = child.stderr.take() {
            drain(err, output.clone(), None);
        }
        let mut server = Server {
            child,
            output,
            umpire_url: String::new(),
            players_url: String::new(),
            dir,
        };
        server.read_addresses(&rx)?;
        Ok(server)
    }

    /// The addresses after `umpire's page:` and `players' page:`, from the lines of
    /// stdout, within [`START`].
    fn read_addresses(&mut self, rx: &mpsc::Receiver<String>) -> Result<(), String> {
        let end = Instant::now() + START;
        while self.umpire_url.is_empty() || self.players_url.is_empty() {
            let left = end.saturating_duration_since(Instant::now());
            let line = rx.recv_timeout(left).map_err(|_| {
                let out = text_of(&self.output);
                let _ = self.child.kill();
                let _ = self.child.wait();
                format!("`umpire serve` printed no addresses within {START:?}; it wrote:\n{out}")
            })?;
            if let Some(url) = line.strip_prefix("umpire's page:") {
                self.umpire_url = url.trim().to_string();
            } else if let Some(url) = line.strip_prefix("players' page:") {
                self.players_url = url.trim().to_string();
            }
        }
        Ok(())
    }

    /// SIGINT, as Ctrl-C sends it: the server must exit 0 within [`STOP`], having
    /// written nothing in its folder as it stopped (no `--save-on-exit`: the state file
    /// is as the scenario left it, untouched unless the scenario saved over it).
    fn stop(mut self) -> Result<String, String> {
        let before = contents(&self.dir);
        let kill = format!("kill -INT {}", self.child.id());
        let sent = run("sh", &["-c", &kill], &self.dir);
        let status = wait_for(&mut self.child, STOP);
        let out = text_of(&self.output);
        if status.is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
        sent?;
        match status {
            None => {
                return Err(format!(
                    "the server did not stop within {STOP:?} of SIGINT; it wrote:\n{out}"
                ))
            }
            Some(s) if !s.success() => {
                return Err(format!(
                    "the server stopped with {s} after SIGINT; it wrote:\n{out}"
                ))
            }
            Some(_) => {}
        }
        let after = contents(&self.dir);
        if after != before {
            let names = |files: &[(String, Vec<u8>)]| -> Vec<String> {
                files.iter().map(|(n, _)| n.clone()).collect()
            };
            return Err(format!(
                "the server wrote in its folder as it stopped, without --save-on-exit: it held \
                 {:?}, then {:?} (or a file changed); it wrote:\n{out}",
                names(&before),
                names(&after)
            ));
        }
        Ok(out)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // A server a failed test left running is ended (a no-op after `stop`).
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `node run.mjs SPEC` ended with against `server`: its exit code (None: killed
/// after [`SCENARIO`]) and its output.
fn run_scenario(
    spec: &Path,
    server: &Server,
    chromium: &Path,
    shots: &Path,
    extra: &[(&str, &str)],
) -> Result<(Option<i32>, String), String> {
    let mut child = Command::new("node")
        .arg("run.mjs")
        .arg(spec)
        .current_dir(test_dir())
        .env("UMPIRE_URL", &server.umpire_url)
        .env("UMPIRE_PLAYERS_URL", &server.players_url)
        .env("UMPIRE_SHOTS", shots)
        .env("UMPIRE_CHROMIUM", chromium)
        .env("UMPIRE_SERVE_DIR", &*server.dir)
        .envs(extra.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("`node run.mjs` cannot be run: {e}"))?;
    let output = Arc::new(Mutex::new(String::new()));
    if let Some(out) = child.stdout.take() {
        drain(out, output.clone(), None);
    }
    if let Some(err) = child.stderr.take() {
        drain(err, output.clone(), None);
    }
    let status = wait_for(&mut child, SCENARIO);
    if status.is_none() {
        let _ = child.kill();
        let _ = child.wait();
    }
    // The pipes' last lines arrive once the process has ended.
    thread::sleep(Duration::from_millis(200));
    Ok((status.and_then(|s| s.code()), text_of(&output)))
}

/// The scenarios, `web/test/*.spec.mjs`, in name order.
fn scenarios() -> Vec<PathBuf> {
    common::files(&test_dir().to_string_lossy(), "mjs")
        .into_iter()
        .filter(|f| f.ends_with(".spec.mjs"))
        .map(PathBuf::from)
        .collect()
}

/// `spec` run against a server of its own, which then stops cleanly: the server's output,
/// or what went wrong in words.
fn scenario_passes(spec: &Path, chromium: &Path) -> Result<String, String> {
    let stem = spec.file_name().unwrap_or_default().to_string_lossy();
    let stem = stem.trim_end_matches(".spec.mjs");
    let server = Server::start(&format!("spec-{stem}"))?;
    let (code, out) = run_scenario(spec, &server, chromium, &shots_dir(), &[])?;
    let stopped = server.stop();
    match code {
        Some(0) => {}
        Some(c) => return Err(format!("{stem} failed (exit {c}):\n{out}")),
        None => return Err(format!("{stem} was stopped after {SCENARIO:?}:\n{out}")),
    }
    stopped.map_err(|e| format!("{stem} passed, but {e}"))
}

#[test]
fn every_scenario_passes_in_chromium_and_the_server_stops_cleanly() {
    let specs = scenarios();
    assert!(
        specs.iter().any(|s| s.ends_with("smoke.spec.mjs")),
        "the smoke scenario is among {specs:?}"
    );
    let Some(chromium) = browser_or_skip("the browser scenarios' test") else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let _ = std::fs::remove_dir_all(shots_dir());
    let mut failed = Vec::new();
    for spec in &specs {
        match scenario_passes(spec, &chromium) {
            // The smoke scenario leaves an applied manoeuvre unsaved: the server says so
            // as it stops, and (`stop`) writes nothing.
            Ok(out) if spec.ends_with("smoke.spec.mjs") => {
                let said = "the changes to the state were not saved (--save-on-exit saves them)";
                if !out.contains(said) {
                    failed.push(format!("smoke: the server did not say `{said}`:\n{out}"));
                }
            }
            Ok(_) => {}
            Err(e) => failed.push(e),
        }
    }
    assert!(
        failed.is_empty(),
        "{} of {} scenario(s) failed (screenshots in {}):\n\n{}",
        failed.len(),
        specs.len(),
        shots_dir().display(),
        failed.join("\n\n")
    );
    assert!(
        shots_dir().join("smoke-umpire-phone.png").is_file(),
        "the smoke scenario's screenshot is written"
    );
}

/// The harness's own scenarios, each with what it must end with: its exit code and words
/// its output must hold.
const SELF_TESTS: [(&str, i32, &[&str]); 5] = [
    ("allowed_error", 0, &["passed"]),
    (
        "console_error",
        1,
        &["console error: a deliberate error of the self-test"],
    ),
    (
        "wrong_text",
        1,
        &[
            "step \"look for words that are not there\" failed",
            "to read Words Never Written",
            "it read: The words that are there",
        ],
    ),
    (
        "hang",
        1,
        &["the scenario took more than 3 s (at step \"wait for ever\")"],
    ),
    (
        "elsewhere",
        1,
        &["asked another site", "http://127.0.0.2:9/elsewhere"],
    ),
];

#[test]
fn the_harness_fails_a_scenario_for_errors_wrong_words_and_hangs() {
    let Some(chromium) = browser_or_skip("the browser harness's self-test") else {
        return;
    };
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let server = Server::start("selftest").unwrap_or_else(|e| panic!("{e}"));
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("browser-selftest");
    let mut wrong = Vec::new();
    for (name, code, words) in SELF_TESTS {
        let spec = test_dir().join("selftest").join(format!("{name}.mjs"));
        let timeout = [("UMPIRE_SPEC_TIMEOUT", "3000")];
        let (got, out) = run_scenario(&spec, &server, &chromium, &shots, &timeout)
            .unwrap_or_else(|e| panic!("{e}"));
        let missing: Vec<&&str> = words.iter().filter(|w| !out.contains(**w)).collect();
        if got != Some(code) || !missing.is_empty() {
            wrong.push(format!(
                "{name}: exit {got:?} (wanted {code}), missing {missing:?}:\n{out}"
            ));
        }
    }
    let stopped = server.stop();
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
    stopped.unwrap_or_else(|e| panic!("{e}"));
}

#[test]
fn a_scenario_that_cannot_be_run_is_refused_in_words() {
    if browser_or_skip("the browser harness's usage test").is_none() {
        return;
    }
    let o = Command::new("node")
        .args(["run.mjs", "no-such.spec.mjs"])
        .current_dir(test_dir())
        .env_remove("UMPIRE_URL")
        .output()
        .expect("node runs");
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("UMPIRE_URL is not set"), "{err}");
}
