//! REPL transcripts: each `tests/repl/*.session` is a session typed line by line; its
//! expectation is the reviewed insta snapshot of the whole exchange — `> ` the input,
//! then what went to stdout as it is, and `! ` before each line that went to stderr.
//!
//! Header lines (`# ruleset: NAME`, `# state: FILE`, `# seed: N`) are the command-line
//! arguments; `# keyboard: yes` plays the session as at a keyboard, where the REPL asks
//! (the next line answers). Lines starting with `%` act on files between inputs: `%copy SRC DEST`
//! (an edit of the ruleset between turns), `%cat FILE` (shows a file, e.g. the log).
//! `$DIR` is a scratch folder of the session's own.

mod common;

use std::cell::RefCell;
use umpire::repl::{start, Script, Stream};

fn header(text: &str) -> (Vec<(String, String)>, Vec<&str>) {
    let mut keys = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(l) = lines.peek() {
        let Some(h) = l.strip_prefix("# ") else { break };
        let Some((k, v)) = h.split_once(':') else {
            break;
        };
        keys.push((k.trim().to_string(), v.trim().to_string()));
        lines.next();
    }
    (keys, lines.collect())
}

fn get<'a>(keys: &'a [(String, String)], k: &str) -> Option<&'a str> {
    keys.iter().find(|(n, _)| n == k).map(|(_, v)| v.as_str())
}

fn transcript(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("session file");
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("s");
    let dir = std::env::temp_dir().join(format!("umpire-repl-{}-{stem}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let dir_text = dir.to_string_lossy().into_owned();
    let text = text.replace("$DIR", &dir_text);
    let (keys, lines) = header(&text);
    let out = RefCell::new(String::new());
    let mut sink = |s: Stream, t: &str| {
        let mut o = out.borrow_mut();
        match s {
            Stream::Input => {
                o.push_str("> ");
                o.push_str(t);
                o.push('\n');
            }
            Stream::Out => o.push_str(t),
            Stream::Err => {
                for l in t.lines() {
                    o.push_str("! ");
                    o.push_str(l);
                    o.push('\n');
                }
            }
        }
    };
    let seed = get(&keys, "seed").map_or(1, |s| s.parse().expect("seed"));
    let mut session = {
        let mut nothing: &[u8] = b"";
        let mut script = Script::new(&mut nothing, &mut sink);
        start(
            get(&keys, "ruleset"),
            get(&keys, "state"),
            Some(seed),
            get(&keys, "dice") == Some("table"),
            &umpire::limits::Limits::default(),
            &mut script,
        )
    };
    session.ask_again = get(&keys, "keyboard") == Some("yes");
    // Runs of input lines go to the session; `%` lines act between them.
    let mut chunk = String::new();
    let mut run = |chunk: &mut String, session: &mut umpire::repl::Session| {
        if !chunk.is_empty() {
            let mut input = chunk.as_bytes();
            let mut script = Script::new(&mut input, &mut sink);
            script.echo = true;
            script.run(session);
            chunk.clear();
        }
    };
    for line in lines {
        let Some(directive) = line.strip_prefix('%') else {
            chunk.push_str(line);
            chunk.push('\n');
            continue;
        };
        run(&mut chunk, &mut session);
        out.borrow_mut().push_str(&format!("%{directive}\n"));
        let words: Vec<&str> = directive.split_whitespace().collect();
        match words.as_slice() {
            ["copy", from, to] => {
                std::fs::copy(from, to).expect("copy");
            }
            ["cat", file] => {
                let body = std::fs::read_to_string(file).unwrap_or_else(|e| format!("({e})\n"));
                out.borrow_mut().push_str(&body);
            }
            other => panic!("unknown directive {other:?}"),
        }
    }
    run(&mut chunk, &mut session);
    let _ = std::fs::remove_dir_all(&dir);
    let failed = format!("(session failed: {})\n", session.failed);
    let mut all = out.into_inner();
    all.push_str(&failed);
    without_game_ids(&without_digests(&all.replace(&dir_text, "$DIR")))
}

/// A game's id is made fresh when it starts: a transcript shows where one is, not its
/// value (that it is one game's, on every line, is tested in `tests/files.rs`).
fn without_game_ids(text: &str) -> String {
    let key = "\"game_id\":\"";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(key) {
        let at = i + key.len();
        let hex = rest[at..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        out.push_str(&rest[..at]);
        out.push_str("<id>");
        rest = &rest[at + hex..];
    }
    out.push_str(rest);
    out
}

/// A ruleset's digest changes with every edit to it: a transcript shows where one is,
/// not its value (the digest itself is tested in `tests/cli.rs`).
fn without_digests(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find("sha256:") {
        let hex = rest[i + 7..]
            .chars()
            .take_while(char::is_ascii_hexdigit)
            .count();
        out.push_str(&rest[..i]);
        out.push_str("sha256:<digest>");
        rest = &rest[i + 7 + hex..];
    }
    out.push_str(rest);
    out
}

#[test]
fn repl_transcripts() {
    insta::glob!("repl/*.session", |path| {
        insta::assert_snapshot!(transcript(path));
    });
}

#[path = "repl/each.rs"]
mod each;

/// The prompt says who rolls: umpire, or the players at the table.
#[test]
fn the_prompt_shows_the_dice_mode() {
    let mut sink = |_: Stream, _: &str| {};
    let mut nothing: &[u8] = b"";
    let mut script = Script::new(&mut nothing, &mut sink);
    let limits = umpire::limits::Limits::default();
    let mut s = start(
        Some("furious_reason"),
        None,
        Some(1),
        false,
        &limits,
        &mut script,
    );
    assert_eq!(s.prompt(), "umpire> ");
    s.input(":dice table", &mut script);
    assert_eq!(s.prompt(), "umpire [table dice]> ");
    s.input(":dice seeded 3", &mut script);
    assert_eq!(s.prompt(), "umpire> ");
    let s = start(
        Some("furious_reason"),
        None,
        None,
        true,
        &limits,
        &mut script,
    );
    assert_eq!(s.prompt(), "umpire [table dice]> ");
}

/// The first screen says in one line how to begin, with a question of the ruleset in
/// use (a unit on the table, when a state is loaded); not how seeds replay (F30).
#[test]
fn the_first_screen_says_how_to_begin() {
    let said = RefCell::new(String::new());
    let mut sink = |_: Stream, t: &str| said.borrow_mut().push_str(t);
    let mut nothing: &[u8] = b"";
    let mut script = Script::new(&mut nothing, &mut sink);
    let limits = umpire::limits::Limits::default();
    let brigade = "examples/states/furious_reason_brigade.toml";
    let s = start(
        Some("furious_reason"),
        Some(brigade),
        None,
        false,
        &limits,
        &mut script,
    );
    assert_eq!(
        umpire::repl::welcome(&s),
        "umpire: type a question such as manoeuvre(brigade.guard_grenadiers); :rules lists the rules, :help the commands, Ctrl-D ends\n"
    );
    // No state: a rule whose arguments are values (Change's first value, a Bool).
    let s = start(
        Some("furious_reason"),
        None,
        None,
        false,
        &limits,
        &mut script,
    );
    assert!(umpire::repl::welcome(&s).contains("such as deployments(column_to_line_right, false);"));
    // No ruleset: how to pick one.
    let s = start(None, None, None, false, &limits, &mut script);
    let first = umpire::repl::welcome(&s);
    assert!(
        first.starts_with("umpire: `:use NAME` picks a ruleset ("),
        "{first}"
    );
    assert!(first.contains("furious_reason"), "{first}");
    let said = said.into_inner();
    assert!(!said.contains("seed"), "no seed banner: {said}");
}

/// Runs `umpire repl furious_reason` on the brigade with `script` piped in, in `dir`:
/// (stdout, stderr).
fn piped(dir: &std::path::Path, script: &str) -> (String, String) {
    use std::io::Write;
    let state = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("examples/states/furious_reason_brigade.toml");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_umpire"))
        .args(["repl", "furious_reason", "--state"])
        .arg(&state)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env("XDG_CONFIG_HOME", dir.join("no-config"))
        .env_remove("UMPIRE_DICE")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut input = child.stdin.take().expect("stdin");
    input.write_all(script.as_bytes()).expect("stdin written");
    drop(input);
    let o = child.wait_with_output().expect("binary ends");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn a_command_after_an_unclosed_bracket_ends_the_input_and_is_run() {
    let dir = std::env::temp_dir().join(format!("umpire-repl-unclosed-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    let (_, err) = piped(
        &dir,
        ":set turn = 4\nmanoeuvre(brigade.second_foot\n:save s.toml\n",
    );
    // The `:save` line was not swallowed: it ran, and saved the turn set.
    let saved = std::fs::read_to_string(dir.join("s.toml")).unwrap_or_default();
    assert!(saved.contains("turn = 4"), "{err}");
    // The unfinished input is an error pointing at the `(` left open, on its own line.
    assert!(err.contains("the `(` opened here is not closed"), "{err}");
    assert!(err.contains("<input>:1:10"), "{err}");
    assert!(!err.contains(":save s.toml\n   ·"), "{err}");
    // At the end of the input, the error names the bracket too.
    let (_, err) = piped(&dir, "manoeuvre(brigade.second_foot\n");
    assert!(err.contains("the `(` opened here is not closed"), "{err}");
    assert!(err.contains("close it with `)`"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// What a session says to `lines`, typed one after another: stdout and stderr, apart;
/// and whether any of them failed.
fn said_to(lines: &[&str]) -> (String, String, bool) {
    let out = RefCell::new(String::new());
    let err = RefCell::new(String::new());
    let mut sink = |s: Stream, t: &str| match s {
        Stream::Out => out.borrow_mut().push_str(t),
        Stream::Err => err.borrow_mut().push_str(t),
        Stream::Input => {}
    };
    let mut nothing: &[u8] = b"";
    let mut script = Script::new(&mut nothing, &mut sink);
    let limits = umpire::limits::Limits::default();
    let mut s = start(None, None, Some(1), false, &limits, &mut script);
    for l in lines {
        s.input(l, &mut script);
    }
    let failed = s.failed;
    (out.into_inner(), err.into_inner(), failed)
}

/// `:show` without a name lists the bundled rulesets and says how to print one, rather
/// than looking for a ruleset named "".
#[test]
fn show_without_a_name_lists_the_bundled_rulesets() {
    let (out, err, failed) = said_to(&[":show"]);
    assert!(!failed, "{err}");
    assert!(!err.contains("no bundled ruleset"), "{err}");
    for name in umpire::bundled::names() {
        assert!(out.contains(name), "{name} not listed: {out}");
    }
    assert!(out.contains("`:show NAME`"), "{out}");
}

/// `:roll` with separators and no faces is a mistake (no faces were given), not a request
/// to see the queue.
#[test]
fn roll_with_only_separators_says_no_faces_were_given() {
    for line in [":roll ,", ":roll , ,", ":roll ,,"] {
        let (out, err, failed) = said_to(&[line]);
        assert!(failed, "{line}: {out}{err}");
        assert!(!out.contains("no rolls queued"), "{line}: {out}");
        assert!(err.contains("no faces given"), "{line}: {err}");
        assert!(err.contains("`:roll 7 3`"), "{line}: {err}");
    }
    // A comma with no face beside it, among faces, is an error too (docs §9: separators
    // with no faces), and nothing is queued.
    for line in [":roll attacker_roll=4,", ":roll 3,,4", ":roll ,5"] {
        let (out, err, failed) = said_to(&[line, ":roll"]);
        assert!(failed, "{line}: {out}{err}");
        assert!(
            err.contains("has a comma with no face beside it"),
            "{line}: {err}"
        );
        assert_eq!(out, "no rolls queued\n", "{line}");
    }
    // `:roll` alone still shows the queue.
    let (out, _, failed) = said_to(&[":roll"]);
    assert!(!failed);
    assert_eq!(out, "no rolls queued\n");
}

/// Drives `umpire repl little_wars` at a pseudo-terminal with `TERM=dumb` (where the line
/// editor leaves the terminal in its usual mode, so Ctrl-C is a signal): writes each of
/// `steps` (`(text, wait for)`) once what it waits for has been printed. Returns what was
/// printed and the exit code; `None` where python3 is missing (outside CI).
fn at_a_dumb_terminal(steps: &[(&str, &str)]) -> Option<(String, i32)> {
    const DRIVER: &str = r#"
import os, pty, select, sys, time
steps = [s.split("\x1f") for s in sys.argv[2].split("\x1e")]
env = dict(os.environ, TERM="dumb", NO_COLOR="1", HOME=sys.argv[3], XDG_CONFIG_HOME=sys.argv[3])
pid, fd = pty.fork()
if pid == 0:
    os.execve(sys.argv[1], [sys.argv[1], "repl", "little_wars", "--seed", "1"], env)
seen = b""
def more():
    global seen
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            b = os.read(fd, 4096)
        except OSError:
            return False
        if not b:
            return False
        seen += b
    return True
mark = 0
for text, wanted in steps:
    end = time.time() + 20
    while wanted.encode() not in seen[mark:] and time.time() < end and more():
        pass
    mark = len(seen)
    os.write(fd, text.encode())
code = None
end = time.time() + 20
while time.time() < end:
    more()
    p, st = os.waitpid(pid, os.WNOHANG)
    if p:
        code = os.waitstatus_to_exitcode(st)
        break
sys.stdout.write(seen.decode(errors="replace"))
sys.stdout.write("\nEXIT %s\n" % code)
"#;
    let home = std::env::temp_dir().join(format!("umpire-dumb-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&home);
    let steps: Vec<String> = steps.iter().map(|(t, w)| format!("{t}\x1f{w}")).collect();
    let run = std::process::Command::new("python3")
        .arg("-c")
        .arg(DRIVER)
        .arg(env!("CARGO_BIN_EXE_umpire"))
        .arg(steps.join("\x1e"))
        .arg(&home)
        .output();
    let _ = std::fs::remove_dir_all(&home);
    let out = match run {
        Ok(o) => o,
        Err(e) if std::env::var("CI").as_deref() != Ok("true") => {
            eprintln!("skipped: python3 cannot be run ({e})");
            return None;
        }
        Err(e) => panic!("python3 is needed for this test under CI: {e}"),
    };
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    let code = text
        .rsplit_once("EXIT ")
        .and_then(|(_, c)| c.trim().parse().ok())
        .unwrap_or(-1);
    Some((text, code))
}

/// At a `dumb` terminal, Ctrl-C at the prompt drops the line typed and asks again, as it
/// does at any other terminal; it does not end the session.
#[test]
fn ctrl_c_at_a_dumb_terminals_prompt_cancels_the_line() {
    let Some((out, code)) = at_a_dumb_terminal(&[
        ("1 +", "umpire> "),
        ("\x03", "1 +"),
        ("1 + 1\r", "umpire> "),
        (":quit\r", "\n2"),
    ]) else {
        return;
    };
    assert_eq!(code, 0, "{out}");
    // The prompt again after the Ctrl-C; `1 +` dropped, so `1 + 1` is 2.
    common::in_order(&out, &["umpire> ", "1 +", "umpire> ", "2"]);
}

/// At a `dumb` terminal, Ctrl-C at a table-dice prompt stops the question (once Enter
/// is pressed: the line is read in the terminal's usual mode); the session goes on.
#[test]
fn ctrl_c_at_a_dumb_terminals_dice_prompt_stops_the_question() {
    let Some((out, code)) = at_a_dumb_terminal(&[
        (":dice table\r", "umpire> "),
        ("1d6\r", "[table dice]> "),
        ("\x03", "1 to 6: "),
        ("\r", "press Enter"),
        ("1 + 1\r", "[table dice]> "),
        (":quit\r", "\n2"),
    ]) else {
        return;
    };
    assert_eq!(code, 0, "{out}");
    common::in_order(
        &out,
        &[
            "1 to 6: ",
            "press Enter to stop this command",
            "cancelled",
            "2",
        ],
    );
}

/// A `let` alone on a line is an unfinished question: the next line's expression is its
/// value, and reads the one roll the `let` named.
#[test]
fn a_let_on_its_own_line_goes_on_to_the_next_lines_question() {
    let dir = std::env::temp_dir().join(format!("umpire-repl-let-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    // One 2d6 taken from itself: nothing, whatever it showed; one 2d6 read twice: the
    // same number both times. The steps of a question may take a line each, or share
    // one with `;`.
    let (out, err) = piped(
        &dir,
        "let r = 2d6\nr - r\nlet x = 2d6\n(x, x)\nlet a = 3\nlet b = 4; a + b\n",
    );
    assert!(!err.contains("error"), "{err}");
    // Each value is followed by its rolls on a line of their own.
    let values: Vec<&str> = out
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with("rolls:"))
        .collect();
    assert_eq!(values.len(), 3, "{out}");
    assert_eq!(values[0], "0", "{out}");
    let pair = values[1].trim_matches(['(', ')']);
    let (first, second) = pair.split_once(", ").unwrap_or(("", "?"));
    assert_eq!(first, second, "{out}");
    assert_eq!(values[2], "7", "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}
