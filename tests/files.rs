//! The files a game touches, through the real binary: a saved state keeps what the
//! umpire wrote, Ctrl-C cancels a command and not the game, one writer per game log.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// A folder of the test's own, removed when the test ends (pass or fail).
struct Scratch(std::path::PathBuf);

impl Scratch {
    fn new(tag: &str) -> Scratch {
        let dir = std::env::temp_dir().join(format!("umpire-files-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        Scratch(dir)
    }

    fn path(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The binary run in `dir` with `args`, `stdin` piped in.
fn umpire_in(dir: &Scratch, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(args)
        .current_dir(&dir.0)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    if let Some(mut i) = child.stdin.take() {
        i.write_all(stdin.as_bytes()).expect("stdin");
    }
    child.wait_with_output().expect("binary ends")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn repo(path: &str) -> String {
    format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))
}

const BRIGADE: &str = "examples/states/furious_reason_brigade.toml";

#[test]
fn a_saved_state_keeps_the_comments_and_layout_of_the_file_loaded() {
    let dir = Scratch::new("save-keeps");
    let loaded = std::fs::read_to_string(repo(BRIGADE)).expect("the brigade");
    std::fs::write(dir.path("brigade.toml"), &loaded).expect("a copy");
    let o = umpire_in(
        &dir,
        &["repl", "furious_reason", "--state", "brigade.toml"],
        ":set brigade.second_foot.lost_percent = 40\n:save new.toml\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let saved = std::fs::read_to_string(dir.path("new.toml")).expect("saved");
    // The file loaded, with the one value changed in its place: nothing else moved,
    // no field left to its default written out.
    assert_eq!(
        saved,
        loaded.replace("lost_percent = 30", "lost_percent = 40"),
        "{saved}"
    );
    // The file loaded is untouched.
    assert_eq!(
        std::fs::read_to_string(dir.path("brigade.toml")).expect("there"),
        loaded
    );
}

#[test]
fn run_write_state_keeps_the_comments_of_the_scenarios_state_file() {
    let dir = Scratch::new("run-keeps");
    let o = umpire_in(
        &dir,
        &[
            "run",
            &repo("examples/furious_reason_turn.toml"),
            "--brief",
            "--write-state",
            "after.toml",
        ],
        "",
    );
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let after = std::fs::read_to_string(dir.path("after.toml")).expect("written");
    // The scenario applies no effects: the state after is the state it read, written
    // as its file was written, comments and all.
    let before = std::fs::read_to_string(repo(BRIGADE)).expect("the brigade");
    assert!(after.starts_with("# A Furious Reason brigade"), "{after}");
    assert_eq!(after, before);
}

#[test]
fn run_write_state_onto_the_scenarios_own_state_file_is_refused() {
    let dir = Scratch::new("run-own-state");
    let state = "# the siege's start\nturn = 2\n";
    std::fs::write(
        dir.path("r.rules"),
        "ruleset \"R\"\nstate {\n  turn: 1.. = 1,\n}\n",
    )
    .expect("ruleset");
    std::fs::write(dir.path("t.toml"), state).expect("state");
    let scenario = "ruleset = \"r.rules\"\nstate = \"t.toml\"\n[[adjudication]]\nname = \"x\"\nexpr = 'set turn += 1'\napply = true\n";
    std::fs::write(dir.path("s.toml"), scenario).expect("scenario");
    for target in ["t.toml", "./t.toml"] {
        let o = umpire_in(&dir, &["run", "s.toml", "--write-state", target], "");
        assert_eq!(o.status.code(), Some(1), "{}", text(&o.stdout));
        let err = text(&o.stderr);
        assert!(err.contains("umpire::cli::write_state"), "{err}");
        assert!(
            err.contains("it is the state file the scenario reads"),
            "{err}"
        );
        assert_eq!(
            std::fs::read_to_string(dir.path("t.toml")).expect("there"),
            state
        );
    }
}
