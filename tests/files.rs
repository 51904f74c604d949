//! The files a game touches, through the real binary: a saved state keeps what the
//! umpire wrote, Ctrl-C cancels a command and not the game, one writer per game log.

mod common;

use common::{repo, spawn_in, stderr, stdout, umpire_command, umpire_in, Scratch};
use std::io::Write;
use std::process::{Command, Stdio};

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
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
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
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let after = std::fs::read_to_string(dir.path("after.toml")).expect("written");
    // The scenario plays two turns: the state after is the state it read, written as
    // its file was written, comments and all, each changed value in its place and each
    // value set that the file left to its default added to its unit. The militia's
    // `disordered` rallied to false and went back to true in the woods: as written.
    let before = std::fs::read_to_string(repo(BRIGADE)).expect("the brigade");
    assert!(after.starts_with("# A Furious Reason brigade"), "{after}");
    // Each unit rolled on the Manoeuvre Table in turn 3 (the militia again in turn 4):
    // `manoeuvred_on`; the Grenadiers' Hold "cannot move": `cannot_move_on`.
    let expected = before
        .replace("turn = 3\n", "turn = 4\n")
        .replace(
            "rear_support = true\n",
            "rear_support = true\nmanoeuvred_on = 3\n",
        )
        .replace(
            "lost_percent = 30\n",
            "lost_percent = 30\ncrossed_shallow_river_on = 3\nmanoeuvred_on = 3\n",
        )
        .replace(
            "being_charged = true\n",
            "being_charged = true\nstands_lost = 1\nrouting = true\nmanoeuvred_on = 4\n",
        )
        .replace(
            "both_flanks_secure = true\n",
            "both_flanks_secure = true\nno_formation_change_on = 3\nmanoeuvred_on = 3\ncannot_move_on = 3\n",
        );
    assert_eq!(after, expected);
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
        assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
        let err = stderr(&o);
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

/// Waits (at most ten seconds) until `what` holds.
fn wait_until(what: &str, mut done: impl FnMut() -> bool) {
    let start = std::time::Instant::now();
    while !done() {
        assert!(
            start.elapsed() < std::time::Duration::from_secs(10),
            "waited too long for {what}"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Each line's `game_id`.
fn game_ids(log: &str) -> Vec<String> {
    log.lines()
        .map(|l| {
            let v: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            v["game_id"].as_str().expect("an id").to_string()
        })
        .collect()
}

#[test]
fn repl_log_keeps_the_log_from_the_first_line() {
    let dir = Scratch::new("repl-log");
    let o = umpire_in(
        &dir,
        &[
            "repl",
            "furious_reason",
            "--state",
            &repo(BRIGADE),
            "--seed",
            "3",
            "--log",
            "game.log",
        ],
        ":roll 6\nmanoeuvre(brigade.second_foot)\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let log = std::fs::read_to_string(dir.path("game.log")).expect("the log");
    let lines: Vec<&str> = log.lines().collect();
    // The game (ruleset and state on the table), then the roll: nothing before the
    // first input is lost.
    assert_eq!(lines.len(), 2, "{log}");
    assert!(lines[0].starts_with("{\"game\":"), "{log}");
    assert!(lines[0].contains("\"second_foot\""), "{log}");
    assert!(lines[1].starts_with("{\"expr\":\"manoeuvre(brigade.second_foot)\""));
    // One game, one id: 16 hex digits.
    let ids = game_ids(&log);
    assert!(ids[0].len() == 16 && ids[0].chars().all(|c| c.is_ascii_hexdigit()));
    assert!(ids.iter().all(|i| *i == ids[0]), "{ids:?}");
    let o = umpire_in(&dir, &["replay", "game.log"], "");
    assert_eq!(
        stdout(&o),
        "game.log: all 1 result(s) reproduced\n",
        "{}",
        stderr(&o)
    );
}

#[test]
fn one_writer_per_game_log() {
    let dir = Scratch::new("one-writer");
    // The first REPL logs, and stays at the table (its input left open).
    let mut first = spawn_in(&dir, &["repl", "little_wars", "--log", "game.log"]);
    wait_until("the first REPL's game line", || {
        std::fs::metadata(dir.path("game.log")).is_ok_and(|m| m.len() > 0)
    });
    // A second REPL is refused the same log.
    let o = umpire_in(&dir, &["repl", "little_wars"], ":log game.log\n");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("umpire::io::log_locked"), "{err}");
    assert!(err.contains("another umpire is writing to it"), "{err}");
    // A run waits for its turn, and says so.
    let mut run = umpire_command(&[
        "run",
        &repo("examples/furious_reason_turn.toml"),
        "--brief",
        "--log",
        "game.log",
    ])
    .current_dir(&*dir)
    .stdout(Stdio::null())
    .stderr(Stdio::piped())
    .spawn()
    .expect("binary runs");
    std::thread::sleep(std::time::Duration::from_millis(700));
    assert!(run.try_wait().expect("running").is_none(), "the run waits");
    // The first REPL adjudicates, then ends: the run goes on.
    let mut input = first.stdin.take().expect("stdin");
    input.write_all(b"1d6\n").expect("an input");
    drop(input);
    let o = first.wait_with_output().expect("the first ends");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let o = run.wait_with_output().expect("the run ends");
    assert_eq!(o.status.code(), Some(0));
    assert!(
        stderr(&o).contains("waiting for game.log: another umpire is writing to it"),
        "{}",
        stderr(&o)
    );
    // Two games, one after the other, each with its id; the replay plays each in turn.
    let log = std::fs::read_to_string(dir.path("game.log")).expect("the log");
    let ids = game_ids(&log);
    // The scenario's game line, its 29 results and the 8 of them applied (those with
    // effects).
    assert_eq!(ids.len(), 2 + 38, "{log}");
    assert!(ids[..2].iter().all(|i| *i == ids[0]));
    assert!(ids[2..].iter().all(|i| *i == ids[2]));
    assert_ne!(ids[0], ids[2]);
    let o = umpire_in(&dir, &["replay", "game.log"], "");
    assert_eq!(
        stdout(&o),
        "game.log: all 38 result(s) reproduced\n",
        "{}",
        stderr(&o)
    );
}

/// Sends SIGINT to the process, as Ctrl-C at its terminal does.
fn interrupt(child: &std::process::Child) {
    let ok = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(ok.success());
}

#[test]
fn ctrl_c_cancels_the_running_command_not_the_game() {
    let dir = Scratch::new("ctrl-c");
    // Odds that take a minute to work out (four rolls each kept in a name: 51^4 paths,
    // then sampling), and an adjudication that takes longer.
    std::fs::write(
        dir.path("slow.rules"),
        "ruleset \"Slow\"\nstate { turn: 1.. = 1 }\nrule fib(n: Int) -> Int recursive {\n  if n < 2 { n } else { fib(n - 1) + fib(n - 2) }\n}\n",
    )
    .expect("ruleset");
    std::fs::write(dir.path("t.toml"), "turn = 1\n").expect("state");
    let mut repl = spawn_in(
        &dir,
        &[
            "repl",
            "slow.rules",
            "--state",
            "t.toml",
            "--seed",
            "1",
            "--max-steps",
            "100000000000",
        ],
    );
    // Its output read as it comes, to know where it is.
    let seen = |from: Box<dyn std::io::Read + Send>| {
        let text = std::sync::Arc::new(std::sync::Mutex::new(String::new()));
        let into = std::sync::Arc::clone(&text);
        let reader = std::thread::spawn(move || {
            use std::io::BufRead;
            for line in std::io::BufReader::new(from).lines().map_while(Result::ok) {
                if let Ok(mut t) = into.lock() {
                    t.push_str(&line);
                    t.push('\n');
                }
            }
        });
        (text, reader)
    };
    let (out, out_reader) = seen(Box::new(repl.stdout.take().expect("stdout")));
    let (err, err_reader) = seen(Box::new(repl.stderr.take().expect("stderr")));
    let has = |t: &std::sync::Arc<std::sync::Mutex<String>>, what: &str, n: usize| {
        t.lock()
            .map(|t| t.matches(what).count() >= n)
            .unwrap_or(false)
    };
    let mut input = repl.stdin.take().expect("stdin");
    input
        .write_all(b":set turn = 2\n:prob let a = 10d6; let b = 10d6; let c = 10d6; let d = 10d6; a + b + c + d\nfib(40)\n")
        .expect("input");
    input.flush().expect("sent");
    // Ctrl-C during the odds (once the change is made, they are being worked out), then
    // during the adjudication (once the odds are cancelled, it runs).
    wait_until("the change", || has(&out, "effect: turn: 1 → 2", 1));
    std::thread::sleep(std::time::Duration::from_millis(500));
    interrupt(&repl);
    wait_until("the odds cancelled", || has(&err, "cancelled (Ctrl-C)", 1));
    std::thread::sleep(std::time::Duration::from_millis(500));
    interrupt(&repl);
    wait_until("the adjudication cancelled", || {
        has(&err, "cancelled (Ctrl-C)", 2)
    });
    // The session goes on: it answers, and ends when its input does.
    input.write_all(b":state\n").expect("input");
    drop(input);
    wait_until("the session to end", || {
        repl.try_wait().expect("waits").is_some()
    });
    let status = repl.wait().expect("ends");
    out_reader.join().expect("stdout read");
    err_reader.join().expect("stderr read");
    let text_of = |t: std::sync::Arc<std::sync::Mutex<String>>| {
        t.lock().map(|t| t.clone()).unwrap_or_default()
    };
    let (out, err) = (text_of(out), text_of(err));
    assert_eq!(
        err.matches("cancelled (Ctrl-C): the game is as it was")
            .count(),
        2,
        "{err}"
    );
    assert_eq!(err.matches("umpire::limit::cancelled").count(), 2, "{err}");
    // The change not saved is still on the table; a cancelled command is no failure.
    assert!(out.ends_with("turn = 2\n"), "{out}");
    assert_eq!(status.code(), Some(0), "{err}");
    // No odds were printed.
    assert!(!out.contains('%'), "{out}");
    // Nothing was written.
    assert_eq!(
        std::fs::read_to_string(dir.path("t.toml")).expect("there"),
        "turn = 1\n"
    );
}

#[test]
fn a_logs_limits_never_exceed_the_replays_own() {
    let dir = Scratch::new("replay-limits");
    // A tampered log: limits far past any machine's memory, and a roll to use them.
    let huge = u64::MAX;
    let log = format!(
        "{{\"game\": {{\"ruleset\": \"little_wars\", \"limits\": {{\"steps\": {huge}, \"depth\": {huge}, \"dice\": {huge}, \"dice_per_roll\": {huge}, \"sides\": {huge}, \"file_bytes\": {huge}}}, \"dice\": {{\"rng\": \"ChaCha8\", \"seed\": 1}}}}}}\n{{\"expr\": \"3000000000d6\", \"value\": 10500000000}}\n"
    );
    std::fs::write(dir.path("game.log"), log).expect("the log");
    let o = umpire_in(&dir, &["replay", "game.log"], "");
    let (out, err) = (stdout(&o), stderr(&o));
    // Replayed within the defaults: the roll is past them, a difference, not a crash.
    assert_eq!(o.status.code(), Some(1), "{out}{err}");
    assert!(
        err.starts_with("note: line 1: ")
            && err.contains("the log's limits are above this replay's"),
        "{err}"
    );
    assert!(
        err.contains("dice_per_roll 18446744073709551615 (give --max-dice-per-roll"),
        "{err}"
    );
    assert!(out.starts_with("line 2: `3000000000d6`"), "{out}");
    assert!(
        out.ends_with("game.log: 1 of 1 result(s) differ\n"),
        "{out}"
    );
}

#[test]
fn a_state_loaded_from_json_is_written_anew() {
    let dir = Scratch::new("save-json");
    std::fs::write(
        dir.path("brigade.json"),
        "{\"turn\": 3, \"brigade\": {\"second_foot\": {\"grade\": \"line\", \"lost_percent\": 30}}}\n",
    )
    .expect("a JSON state");
    let o = umpire_in(
        &dir,
        &["repl", "furious_reason", "--state", "brigade.json"],
        ":set turn = 4\n:save new.toml\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let saved = std::fs::read_to_string(dir.path("new.toml")).expect("saved");
    // No TOML to keep: the state written out whole, every field with its value.
    assert!(
        saved.starts_with("turn = 4\n\n[brigade.second_foot]\ngrade = \"line\"\n"),
        "{saved}"
    );
    assert!(saved.contains("leader_cp = "), "{saved}");
}

/// A state file with CRLF line endings and a byte-order mark (as a Windows editor saves
/// it) is saved with both: its layout is what the umpire wrote.
#[test]
fn a_saved_state_keeps_crlf_line_endings_and_a_byte_order_mark() {
    let dir = Scratch::new("save-crlf");
    std::fs::write(
        dir.path("r.rules"),
        "ruleset \"R\"\nstate {\n  turn: 1.. = 1,\n  weather: Text = \"fair\",\n}\n",
    )
    .expect("ruleset");
    for (name, bom) in [("crlf.toml", ""), ("bom.toml", "\u{feff}")] {
        let text = format!("{bom}# the siege\r\nturn = 2 # dawn\r\nweather = \"rain\"\r\n");
        std::fs::write(dir.path(name), &text).expect("state");
        let o = umpire_in(
            &dir,
            &["repl", "r.rules", "--state", name],
            &format!(":set turn = 3\n:save {name}\n"),
        );
        assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
        let saved = std::fs::read_to_string(dir.path(name)).expect("saved");
        assert_eq!(saved, text.replace("turn = 2", "turn = 3"), "{saved:?}");
    }
    // LF only, no mark: saved as it was.
    std::fs::write(dir.path("lf.toml"), "turn = 2\n").expect("state");
    let o = umpire_in(
        &dir,
        &["repl", "r.rules", "--state", "lf.toml"],
        ":set turn = 3\n:save lf.toml\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(
        std::fs::read_to_string(dir.path("lf.toml")).expect("saved"),
        "turn = 3\n"
    );
}

/// `run --write-state` and `:save` onto a named pipe: refused at once, the pipe never
/// opened (opening it would wait for a writer for ever).
#[cfg(unix)]
#[test]
fn a_named_pipe_as_the_state_to_write_is_refused_at_once() {
    let dir = Scratch::new("fifo");
    std::fs::write(
        dir.path("r.rules"),
        "ruleset \"R\"\nstate {\n  turn: 1.. = 1,\n}\n",
    )
    .expect("ruleset");
    std::fs::write(dir.path("t.toml"), "turn = 2\n").expect("state");
    std::fs::write(
        dir.path("s.toml"),
        "ruleset = \"r.rules\"\nstate = \"t.toml\"\n[[adjudication]]\nname = \"x\"\nexpr = '1'\n",
    )
    .expect("scenario");
    let made = Command::new("mkfifo").arg(dir.path("ff.toml")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    let runs: [(&[&str], &str); 2] = [
        (&["run", "s.toml", "--write-state", "ff.toml"], ""),
        (&["repl", "r.rules", "--state", "t.toml"], ":save ff.toml\n"),
    ];
    for (args, input) in runs {
        let mut child = spawn_in(&dir, args);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("input");
        drop(stdin);
        // Waits ten seconds at most; a run that hangs is killed, and the test fails.
        let start = std::time::Instant::now();
        while child.try_wait().ok().flatten().is_none() {
            if start.elapsed() > std::time::Duration::from_secs(10) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{args:?} hangs on the named pipe");
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        let o = child.wait_with_output().expect("output");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("umpire::io::write"), "{err}");
        assert!(
            err.contains("it is not a regular file (a named pipe)"),
            "{err}"
        );
    }
}

/// Waits for `child` ten seconds at most: one that hangs is killed, and the test fails.
fn output_within(mut child: std::process::Child, what: &str) -> std::process::Output {
    let start = std::time::Instant::now();
    while child.try_wait().ok().flatten().is_none() {
        if start.elapsed() > std::time::Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} hangs on the named pipe");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    child.wait_with_output().expect("output")
}

/// Every way a file is read refuses a named pipe from its metadata, never opening it
/// (opening it would wait for a writer for ever, and Ctrl-C would not help): the
/// ruleset, state, scenario or log of each command, `:load` and `:use`, and a log whose
/// ruleset is a pipe or `/dev/stdin` (which must not wait on the terminal either).
#[cfg(unix)]
#[test]
fn a_named_pipe_to_read_is_refused_at_once() {
    let dir = Scratch::new("fiforead");
    std::fs::write(
        dir.path("R.rules"),
        "ruleset \"R\"\nstate {\n  turn: 1.. = 1,\n}\n",
    )
    .expect("ruleset");
    let made = Command::new("mkfifo").arg(dir.path("fifo")).status();
    assert!(made.is_ok_and(|s| s.success()), "mkfifo");
    for (name, ruleset) in [("pipe.log", "fifo"), ("stdin.log", "/dev/stdin")] {
        std::fs::write(
            dir.path(name),
            format!("{{\"game\": {{\"umpire\": \"0.1.0\", \"log\": 1, \"ruleset\": \"{ruleset}\", \"dice\": {{\"rng\": \"ChaCha8\", \"seed\": 7}}}}}}\n{{\"expr\": \"1\", \"result\": 1, \"value\": 1}}\n"),
        )
        .expect("log");
    }
    let runs: [(&[&str], &str, &str); 15] = [
        (&["repl", "R.rules"], ":load fifo\n", "fifo"),
        (&["repl", "R.rules"], ":use fifo\n", "fifo"),
        (&["repl", "R.rules", "--state", "fifo"], "", "fifo"),
        (&["eval", "R.rules", "1", "--state", "fifo"], "", "fifo"),
        (&["run", "fifo"], "", "fifo"),
        (&["check", "fifo"], "", "fifo"),
        (&["eval", "fifo", "1"], "", "fifo"),
        (&["diff", "fifo", "R.rules"], "", "fifo"),
        (&["replay", "fifo"], "", "fifo"),
        (&["report", "fifo"], "", "fifo"),
        (&["replay", "pipe.log"], "", "fifo"),
        // A report tells a log without its ruleset: it says the ruleset is not found.
        (&["report", "pipe.log"], "", ""),
        (&["replay", "stdin.log"], "", "/dev/stdin"),
        (&["report", "stdin.log"], "", ""),
        (&["repl", "R.rules"], ":use /dev/stdin\n", "/dev/stdin"),
    ];
    for (args, input, named) in runs {
        let mut child = spawn_in(&dir, args);
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input.as_bytes()).expect("input");
        // Standard input is kept open for the `/dev/stdin` runs: reading it would wait.
        let keep = args.iter().any(|a| a.starts_with("stdin"));
        let held = if keep {
            Some(stdin)
        } else {
            drop(stdin);
            None
        };
        let o = output_within(child, &format!("{args:?}"));
        drop(held);
        if named.is_empty() {
            assert!(stdout(&o).contains("not found now"), "{args:?}");
            continue;
        }
        let err = stderr(&o);
        assert!(err.contains("umpire::io::read"), "{args:?}: {err}");
        assert!(
            err.contains(&format!("{named} is not a regular file")),
            "{args:?}: {err}"
        );
    }
}

/// `:save` of a name with a quote mark that pairs with none around the whole name is
/// refused, saying how to write the name, and no file named with a quote mark is
/// written; a name of 250 bytes (the file system takes 255) is saved: the temporary
/// file beside it copies only part of it.
#[test]
fn a_save_name_with_a_stray_quote_is_refused_and_a_long_name_is_saved() {
    let dir = Scratch::new("savename");
    std::fs::write(
        dir.path("r.rules"),
        "ruleset \"R\"\nstate {\n  turn: 1.. = 1,\n}\n",
    )
    .expect("ruleset");
    std::fs::write(dir.path("t.toml"), "turn = 2\n").expect("state");
    for name in ["\"", "\"a b", "\"x\".toml", "'x"] {
        let o = umpire_in(
            &dir,
            &["repl", "r.rules", "--state", "t.toml"],
            &format!(":save {name}\n"),
        );
        let err = stderr(&o);
        assert!(
            err.contains("has a quote mark that does not pair") && err.contains("in quotes"),
            "{name}: {err}"
        );
    }
    let quoted: Vec<_> = std::fs::read_dir(&*dir)
        .expect("dir")
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().contains(['"', '\'']))
        .collect();
    assert!(quoted.is_empty(), "{quoted:?}");
    let long = format!("{}.toml", "a".repeat(245));
    let o = umpire_in(
        &dir,
        &["repl", "r.rules", "--state", "t.toml"],
        &format!(":save {long}\n"),
    );
    assert!(stderr(&o).contains("state written to"), "{}", stderr(&o));
    assert!(std::fs::metadata(dir.path(&long)).is_ok_and(|m| m.is_file()));
}
