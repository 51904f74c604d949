//! What the integration tests share: the binary run as a user runs it (a script piped to
//! its stdin, its output caught as text), a scratch folder of the test's own, and parts
//! of a text looked for in order. Each test crate says `mod common;` and uses what it
//! needs.

// A test crate uses only some of these: the rest are used by the others.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};

/// Where the tests' user settings would be: nowhere, so the developer's own
/// `~/.config/umpire/config.toml` and `UMPIRE_DICE` never reach a test.
pub const NO_CONFIG: &str = "/nonexistent/umpire-tests-config";

/// The repository's folder (`examples/`, `rulesets/`, `tests/`).
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `path`, relative to the repository, as a whole path.
pub fn repo(path: &str) -> String {
    root().join(path).to_string_lossy().into_owned()
}

/// Where the tests' runs keep checked rulesets: a folder of the build's own (under
/// `target/`), never the developer's `~/.cache/umpire`.
pub fn cache_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join("umpire-cache")
}

/// `umpire ARGS`, not yet run: no colour, none of the user's settings, checked rulesets
/// kept in the tests' own cache ([`cache_dir`]).
pub fn umpire_command<S: AsRef<OsStr>>(args: &[S]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_umpire"));
    command
        .args(args)
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", NO_CONFIG)
        .env("UMPIRE_CACHE_DIR", cache_dir())
        .env_remove("UMPIRE_CACHE")
        .env_remove("UMPIRE_DICE");
    command
}

/// `command` run with `stdin` piped in (then closed: not a terminal, a script), its
/// stdout and stderr caught.
pub fn run_piped(command: &mut Command, stdin: &str) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(mut input) = child.stdin.take() {
        // A program that stops before reading all of it (the REPL refusing to start)
        // closes its end: what it did not read is not the test's to assert here.
        if let Err(e) = input.write_all(stdin.as_bytes()) {
            assert_eq!(
                e.kind(),
                std::io::ErrorKind::BrokenPipe,
                "stdin written: {e}"
            );
        }
    }
    child.wait_with_output().expect("binary ends")
}

/// `umpire ARGS` in the repository's folder, with nothing on stdin.
pub fn umpire(args: &[&str]) -> Output {
    umpire_command(args)
        .current_dir(root())
        .output()
        .expect("binary runs")
}

/// `umpire ARGS` in `dir`, with `stdin` piped in.
pub fn umpire_in(dir: &Path, args: &[&str], stdin: &str) -> Output {
    run_piped(umpire_command(args).current_dir(dir), stdin)
}

/// `umpire ARGS` started in `dir`, its stdin left open and its stdout and stderr piped.
pub fn spawn_in(dir: &Path, args: &[&str]) -> Child {
    umpire_command(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs")
}

/// What a run wrote to stdout, as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// What a run wrote to stderr, as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A folder of the test's own, empty at the start and removed when the test ends (pass
/// or fail). It is the folder as a [`Path`] (`dir.join(..)`, `&dir`).
pub struct Scratch(PathBuf);

impl Scratch {
    /// `umpire-CRATE-TAG-PID` in the temporary folder: `tag` names it within its test
    /// crate (two tests of a crate, run at once, never share one), the crate's name
    /// among the test crates, the process's id among runs.
    pub fn new(tag: &str) -> Scratch {
        let name = format!(
            "umpire-{}-{tag}-{}",
            env!("CARGO_CRATE_NAME"),
            std::process::id()
        );
        let dir = std::env::temp_dir().join(name);
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        Scratch(dir)
    }

    /// The path of `name` in it, as text (for an argument or a script).
    pub fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Each of `parts` is in `text`, in this order (each after the end of the one before).
pub fn in_order(text: &str, parts: &[&str]) {
    let mut rest = text;
    for p in parts {
        match rest.find(p) {
            Some(i) => rest = &rest[i + p.len()..],
            None => panic!("`{p}` is not in (in this order):\n{text}"),
        }
    }
}

/// The files of `dir` ending in `ext`, in name order.
pub fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == ext))
                .map(|p| p.to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Header lines `# key: value` at the top of a case file, then its body.
pub fn header(text: &str) -> (Vec<(String, String)>, String) {
    let mut keys = Vec::new();
    let mut body = Vec::new();
    let mut in_header = true;
    for line in text.lines() {
        if in_header {
            if let Some(h) = line.strip_prefix("# ") {
                let (k, v) = h.split_once(':').unwrap_or((h, ""));
                keys.push((k.trim().to_string(), v.trim().to_string()));
                continue;
            }
            in_header = false;
        }
        body.push(line);
    }
    (keys, body.join("\n"))
}

/// The value of header `k`, if given.
pub fn get<'a>(keys: &'a [(String, String)], k: &str) -> Option<&'a str> {
    keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
}
