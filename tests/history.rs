//! Issue 16, "nothing lost": the REPL's history — undo, redo, effects never dropped
//! silently, a bare `:save`, leaving — as a club umpire meets it, through the real
//! binary with a script on stdin (so each "asks at a keyboard" is an error that says
//! how to force it), and a game log with undo and redo lines replayed.

mod common;

use common::{root, stderr, stdout, umpire_in, Scratch};
use std::path::Path;
use std::process::Output;

const BRIGADE: &str = "examples/states/furious_reason_brigade.toml";
const TABLE: &str = "examples/states/little_wars_table.toml";

/// `umpire ARGS` in the repository's folder with `input` on stdin (not a terminal: a
/// script).
fn repl(args: &[&str], input: &str) -> Output {
    umpire_in(root(), args, input)
}

/// A scratch folder with copies of the example states.
fn scratch(tag: &str) -> Scratch {
    let dir = Scratch::new(tag);
    for f in [BRIGADE, TABLE] {
        let name = Path::new(f).file_name().expect("a file name");
        std::fs::copy(root().join(f), dir.join(name)).expect("a copy");
    }
    dir
}

/// F1: the player called 9, the umpire typed 2. `:undo` takes back that result — never
/// the state the game was started with — and says so; the state is still there.
#[test]
fn undo_after_a_mistyped_table_die_takes_back_the_result_and_keeps_the_state() {
    let o = repl(
        &["repl", "furious_reason", "--state", BRIGADE, "--table-dice"],
        "manoeuvre(brigade.county_militia)\n2\n:undo\n:state\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(0), "{err}");
    // Militia -1, being charged -1: 2 - 2 = 0 on the disorder side, Shattered.
    assert!(out.starts_with("Shattered"), "{out}");
    assert!(
        out.contains("undone: the result of `manoeuvre(brigade.county_militia)`\n"),
        "{out}"
    );
    assert!(!out.contains(":load"), "{out}");
    assert!(!err.contains("no state loaded"), "{err}");
    // The whole state follows: the militia as the file has it.
    assert!(out.contains("[brigade.county_militia]"), "{out}");
    // A second undo reaches the start of the game, and stops there.
    let o = repl(
        &["repl", "furious_reason", "--state", BRIGADE, "--table-dice"],
        "manoeuvre(brigade.county_militia)\n2\n:undo\n:undo\n:state brigade.county_militia.grade\n",
    );
    assert!(
        stderr(&o).contains(&format!(
            "error: nothing to undo: the game is as it started, with the state loaded from {BRIGADE}"
        )),
        "{}",
        stderr(&o)
    );
    assert!(stdout(&o).ends_with("militia\n"), "{}", stdout(&o));
}

/// F2: the first melee's effects are not applied when the second is asked: in a
/// script the second is refused, so `:apply` applies the first — side A is never left
/// with only the second melee's 10 dead.
#[test]
fn a_second_melee_never_drops_the_first_melees_effects_silently() {
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\nmelee_on_table(\"b\", \"a\", 14, 12, 0, 0)\n:apply\n:state\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "the refusal is a failure: {err}");
    assert!(err.contains("umpire::repl::effects_not_applied"), "{err}");
    assert!(
        err.contains(
            "the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` are not yet applied"
        ),
        "{err}"
    );
    assert!(
        err.contains("`:apply` applies them, `:drop` drops them; then ask again"),
        "{err}"
    );
    // The first melee applied: A's 19 lose 7 killed and take 6 of B's.
    assert!(
        out.contains("applied the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)`:\n"),
        "{out}"
    );
    assert!(
        out.contains("[sides.a]\nfree = 12\ndead = 7\nprisoners_held = 6\n"),
        "{out}"
    );
    assert!(!out.contains("dead = 10"), "{out}");
    // Applied in turn, Wells's account: A's dead are 7 + 10 = 17.
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n:apply\nmelee_on_table(\"b\", \"a\", 14, 12, 0, 0)\n:apply\n:state sides.a\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("{ free: 0, dead: 17, prisoners_held: 6, escorts: 0, released: 0 }\n"),
        "{}",
        stdout(&o)
    );
    // Or dropped, in so many words: the second then stands alone.
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n:drop\nmelee_on_table(\"b\", \"a\", 14, 12, 0, 0)\n:apply\n:state sides.a.dead\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("dropped the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)`")
    );
    assert!(stdout(&o).ends_with("\n10\n"), "{}", stdout(&o));
}

/// Undo and redo round trips, each line of the log checked: nothing rewritten, every
/// undo and redo appended, a result's carrying its number.
#[test]
fn undo_and_redo_round_trips_are_appended_to_the_log() {
    let s = scratch("log");
    let log = s.path("game.log");
    let melee = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    let script = format!(
        ":log {log}\n{melee}\n:apply\n:undo\n:undo\n:redo\n:redo\n:redo\n:state sides.a.free\n:undo\n:undo\n:state sides.a.free\n:redo\n:drop\n:undo\n:apply\n:quit\n"
    );
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--state", "little_wars_table.toml"],
        &script,
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "one redo too many: {err}");
    assert!(err.contains("error: nothing to redo"), "{err}");
    let done: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("undone") || l.starts_with("redone") || l.starts_with("dropped"))
        .collect();
    let effects = format!("the effects of `{melee}`");
    let result = format!("the result of `{melee}`");
    assert_eq!(
        done,
        [
            format!("undone: {effects}"),
            format!("undone: {result}"),
            format!("redone: {result}"),
            format!("redone: {effects}"),
            format!("undone: {effects}"),
            format!("undone: {result}"),
            format!("redone: {result}"),
            format!("dropped the effects of `{melee}`: they are not applied"),
            format!("undone: dropping the effects of `{melee}`"),
        ]
    );
    // 19 free, 12 after the melee, 19 again once its effects and result are taken back.
    let frees: Vec<&str> = out.lines().filter(|l| l.len() <= 2).collect();
    assert_eq!(frees, ["12", "19"], "{out}");
    let text = std::fs::read_to_string(&log).expect("the log");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    let keys: Vec<String> = lines
        .iter()
        .map(|l| {
            let o = l.as_object().expect("an object");
            let k = o.keys().next().expect("a key").clone();
            match o.get("result") {
                Some(n) => format!("{k} {n}"),
                None => k,
            }
        })
        .collect();
    assert_eq!(
        keys,
        [
            "game", "expr 1", "apply 1", "undo", "undo 1", "redo 1", "redo", "undo", "undo 1",
            "redo 1", "drop 1", "undo", "apply 1"
        ],
        "{text}"
    );
    assert_eq!(lines[3]["undo"], serde_json::json!(effects));
    assert_eq!(lines[4]["undo"], serde_json::json!(result));
    assert_eq!(
        lines[11]["undo"],
        serde_json::json!(format!("dropping the effects of `{melee}`"))
    );
    // The log replays: the result undone is not the last result, and the `apply` after
    // them applies the one that stands.
    let o = umpire_in(&s, &["replay", "game.log"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    assert!(
        stdout(&o).contains("game.log: all 3 result(s) reproduced"),
        "{}",
        stdout(&o)
    );
}

/// A `:load` typed during the game is taken back only when asked for: in a script,
/// `:undo` is an error naming `:undo!`.
#[test]
fn undo_of_a_load_in_a_script_is_an_error_that_names_undo_bang() {
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        &format!(":set move = 4\n:load {TABLE}\n:undo\n:state move\n:undo!\n:state move\n:quit!\n"),
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(&format!(
            "error: `:undo` would take back `:load {TABLE}`: `:undo!` takes it back"
        )),
        "{err}"
    );
    assert!(out.contains(&format!("undone: `:load {TABLE}`\n")), "{out}");
    // The file's move, then the move set before the load.
    assert!(
        out.ends_with("1\nundone: `:load examples/states/little_wars_table.toml`\n4\n"),
        "{out}"
    );
}

/// F3: a bare `:save` writes to the file last named in `:save FILE`; with none named,
/// in a script it is an error, and the state file loaded is byte for byte as it was.
#[test]
fn a_bare_save_writes_the_file_last_named_and_never_the_loaded_one_unnamed() {
    let s = scratch("save");
    let loaded = s.path("furious_reason_brigade.toml");
    let before = std::fs::read(&loaded).expect("the copy");
    let o = umpire_in(
        &s,
        &[
            "repl",
            "furious_reason",
            "--state",
            "furious_reason_brigade.toml",
        ],
        ":set turn += 1\n:save\n:save other.toml\n:set turn += 1\n:save\n:quit\n",
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: `:save` alone would write over furious_reason_brigade.toml, the state file you loaded: `:save furious_reason_brigade.toml` writes over it, `:save FILE` writes elsewhere"),
        "{err}"
    );
    assert_eq!(
        err.matches("state written to other.toml").count(),
        2,
        "{err}"
    );
    assert_eq!(std::fs::read(&loaded).expect("the loaded file"), before);
    // The second save wrote the second change there (turn 3 + 2).
    let other = std::fs::read_to_string(s.path("other.toml")).expect("other.toml");
    assert!(other.contains("turn = 5"), "{other}");
    // Naming the loaded file is the force.
    let o = umpire_in(
        &s,
        &[
            "repl",
            "furious_reason",
            "--state",
            "furious_reason_brigade.toml",
        ],
        ":set turn += 1\n:save furious_reason_brigade.toml\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let now = std::fs::read_to_string(&loaded).expect("the loaded file");
    assert!(now.contains("turn = 4"), "{now}");
}

/// `help`, `quit` and `exit` typed without the colon are the commands.
#[test]
fn help_quit_and_exit_work_without_the_colon() {
    let o = repl(
        &["repl", "little_wars"],
        "help\nquit\nthis line is never read\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(":help "), "{}", stdout(&o));
    assert!(!stderr(&o).contains("unknown name"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("never"), "{}", stderr(&o));
    let o = repl(&["repl"], "exit\n1d6 +\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // A ruleset that gives the name a meaning keeps it.
    let s = scratch("bare");
    std::fs::write(s.join("q.rules"), "const quit = 7\n").expect("a ruleset");
    let o = umpire_in(&s, &["repl", "q.rules"], "quit\n:quit\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "7\n");
}

/// Leaving with effects not yet applied or changes not saved: in a script `:quit` is
/// refused (exit 1) naming what, and `:quit!` leaves; at the end of the input a note
/// names it, the exit status unchanged.
#[test]
fn leaving_says_what_is_not_applied_or_not_saved() {
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n:quit\n:state move\n:quit!\n:state move\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("error: not leaving: the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` are not yet applied."), "{err}");
    assert!(err.contains("`:quit!` leaves anyway"), "{err}");
    // The session went on after the refusal, and ended at `:quit!`.
    assert_eq!(out.matches("\n1\n").count(), 1, "{out}");
    // The input ends with a change not saved: a note, and the exit status stays 0. With
    // effects not yet applied too, both are named.
    for (script, note) in [
        (
            ":set move = 2\n",
            "the changes to the state on the table are not saved",
        ),
        (
            ":set move = 2\nmelee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n",
            "the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` are not yet applied, and the changes to the state on the table are not saved",
        ),
    ] {
        let o = repl(&["repl", "little_wars", "--state", TABLE], script);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(0), "{err}");
        assert!(
            err.ends_with(&format!("note: the input ended, and {note}\n")),
            "{err}"
        );
    }
}

const MELEE: &str = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";

/// A new user's `:save last_week.toml` from a Furious Reason game: another game's state
/// file (of the same ruleset), which this game neither loaded nor wrote, is not written
/// over in a script — the error names `:save!`, which writes over it. A state of another
/// ruleset (`little_wars_table.toml`) is not a state of this one: refused outright. The file this game loaded,
/// and one it has written already, are written without a word; quotes around a name are
/// not part of it.
#[test]
fn save_over_a_state_file_this_game_did_not_touch_is_refused_in_a_script() {
    let s = scratch("saveover");
    // Last week's state of the same ruleset: another game's state file.
    let brigade = std::fs::read_to_string(s.path("furious_reason_brigade.toml")).expect("the copy");
    let other = s.path("last_week.toml");
    std::fs::write(
        &other,
        brigade.replace("lost_percent = 30", "lost_percent = 70"),
    )
    .expect("last week's");
    let before = std::fs::read(&other).expect("the copy");
    let args = [
        "repl",
        "furious_reason",
        "--state",
        "furious_reason_brigade.toml",
    ];
    let o = umpire_in(&s, &args, ":save last_week.toml\n");
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("error: last_week.toml exists, and this game did not load or write it: `:save! last_week.toml` writes over it"),
        "{err}"
    );
    assert_eq!(std::fs::read(&other).expect("untouched"), before);
    let o = umpire_in(
        &s,
        &args,
        ":save furious_reason_brigade.toml\n:save \"my turn.toml\"\n:save 'my turn.toml'\n:save! last_week.toml\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(s.join("my turn.toml").is_file());
    assert!(!s.join("\"my turn.toml\"").exists());
    let now = std::fs::read_to_string(&other).expect("written over");
    assert_eq!(now, brigade, "{now}");
    // Files that are not state files of the ruleset in use stay refused outright,
    // `:save!` or not: a house rule, a state of another ruleset.
    std::fs::write(s.join("h.rules"), "extends \"furious_reason\"\n").expect("a house rule");
    for file in ["h.rules", "little_wars_table.toml"] {
        let before = std::fs::read(s.join(file)).expect("there");
        let o = umpire_in(&s, &args, &format!(":save! {file}\n"));
        assert_eq!(o.status.code(), Some(1));
        assert!(
            stderr(&o).contains("umpire::io::not_state"),
            "{}",
            stderr(&o)
        );
        assert_eq!(std::fs::read(s.join(file)).expect("untouched"), before);
    }
}

/// `--log FILE` or `--state FILE` that fails stops the REPL before the first line:
/// exit 1, nothing adjudicated.
#[test]
fn a_failed_log_or_state_on_the_command_line_stops_the_repl() {
    let s = scratch("start");
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--log", "nodir/game.log"],
        "1d6\n",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("not starting"), "{}", stderr(&o));
    assert!(!s.join("nodir").exists());
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--state", "nosuch.toml"],
        "1d6\n",
    );
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("no such file"), "{}", stderr(&o));
}

/// With a result's effects waiting, a command that would leave them no way to be
/// applied — `:use`, `:use!`, `:reload`, `:interpret NAME=R`, `:set`, `:load` — is
/// refused in a script with `umpire::repl::effects_not_applied`, and the effects still
/// wait (`:apply` applies them at the end). Looking is not refused.
#[test]
fn commands_that_would_lose_waiting_effects_are_refused_in_a_script() {
    for command in [
        ":use little_wars",
        ":use! little_wars",
        ":reload",
        ":interpret x=y",
        ":set move = 2",
        &format!(":load {TABLE}"),
    ] {
        let o = repl(
            &["repl", "little_wars", "--state", TABLE],
            &format!("{MELEE}\n{command}\n:apply\n"),
        );
        let (out, err) = (stdout(&o), stderr(&o));
        assert_eq!(o.status.code(), Some(1), "{command}: {err}");
        assert!(
            err.contains("umpire::repl::effects_not_applied"),
            "{command}: {err}"
        );
        assert!(
            err.contains("`:apply` applies them, `:drop` drops them"),
            "{command}: {err}"
        );
        assert!(
            out.contains(&format!("applied the effects of `{MELEE}`")),
            "{command}: {out}"
        );
    }
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        &format!("{MELEE}\n:state sides.a.dead\n:prob 1d6\n:rules\n:explain\n:interpret\n:apply\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains(&format!("applied the effects of `{MELEE}`")));
}

/// `:save` with effects waiting says that they are not in the saved state; `:log FILE`
/// started after results says that they are not in the log.
#[test]
fn save_and_log_say_what_they_leave_out() {
    let s = scratch("leaveout");
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--state", "little_wars_table.toml"],
        &format!("1d6\n{MELEE}\n:save out.toml\n:drop\n:log game.log\n"),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(0), "{err}");
    assert!(
        err.contains(&format!(
            "note: the effects of `{MELEE}` are not yet applied, and are not in the saved state"
        )),
        "{err}"
    );
    assert!(err.contains("note: the 2 results adjudicated before this are not in the log (`umpire repl --log FILE` keeps a game from the start)"), "{err}");
    // One result: said in the singular.
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--state", "little_wars_table.toml"],
        "1d6\n:log one.log\n",
    );
    assert!(
        stderr(&o).contains("note: the result adjudicated before this is not in the log (`umpire repl --log FILE` keeps a game from the start)"),
        "{}",
        stderr(&o)
    );
    // From the start, no note.
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--log", "new.log"],
        "1d6\n:log new.log\n",
    );
    assert!(!stderr(&o).contains("not in the log"), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("no longer be undone"),
        "{}",
        stderr(&o)
    );
}

/// A log started mid-game starts the game there, as the command line's start does: the
/// changes before it can no longer be undone (the note says so), so the log replays and
/// its report tells the game from its state.
#[test]
fn a_log_started_mid_game_starts_the_game_there() {
    let s = scratch("midlog");
    let o = umpire_in(
        &s,
        &[
            "repl",
            "little_wars",
            "--state",
            "little_wars_table.toml",
            "--seed",
            "1",
        ],
        &format!("{MELEE}\n:apply\n:log mid.log\n:undo\n:redo\n1d6\n:undo\n"),
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "the first undo fails: {err}");
    assert!(
        err.contains(
            "note: changes made before this can no longer be undone: the log starts the game here"
        ),
        "{err}"
    );
    assert!(err.contains("error: nothing to undo"), "{err}");
    assert!(err.contains("error: nothing to redo"), "{err}");
    let o = umpire_in(&s, &["replay", "mid.log"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
    let o = umpire_in(&s, &["report", "mid.log"], "");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    // The same log named again goes on: what it holds can still be undone.
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--log", "again.log"],
        "1d6\n:log again.log\n:undo\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(
        !stderr(&o).contains("no longer be undone"),
        "{}",
        stderr(&o)
    );
    let o = umpire_in(&s, &["replay", "again.log"], "");
    assert_eq!(o.status.code(), Some(0), "{}{}", stdout(&o), stderr(&o));
}

/// `:log FILE` while a result's effects wait would leave them no way to be applied in
/// the log: in a script it is refused (`umpire::repl::effects_not_applied`), and no log
/// is begun.
#[test]
fn log_with_effects_waiting_is_refused_in_a_script() {
    let s = scratch("logguard");
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--state", "little_wars_table.toml"],
        &format!("{MELEE}\n:log wait.log\n:apply\n"),
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("umpire::repl::effects_not_applied"), "{err}");
    assert!(!s.join("wait.log").exists(), "{err}");
    assert!(
        out.contains(&format!("applied the effects of `{MELEE}`")),
        "{out}"
    );
}

/// A command typed without its colon (any case) is answered with the line to type;
/// `help`, `quit`, `exit`, `q` alone are the commands in any case.
#[test]
fn commands_without_the_colon_say_the_line_to_type() {
    let o = repl(
        &["repl", "little_wars", "--state", TABLE],
        "apply\nsave x.toml\nUndo\nstate sides.a\nHELP\nHelp\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert_eq!(o.status.code(), Some(1), "{err}");
    for (word, line) in [
        ("apply", ":apply"),
        ("save", ":save x.toml"),
        ("undo", ":undo"),
        ("state", ":state sides.a"),
    ] {
        assert!(
            err.contains(&format!(
                "error: `{word}` is a command, and commands start with `:`: type `{line}`"
            )),
            "{err}"
        );
    }
    assert_eq!(out.matches(":help ").count(), 2, "{out}");
    let o = repl(&["repl"], "QUIT\n1d6\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
    // A name the ruleset defines is its own, even in a question with a mistake.
    let s = scratch("colon");
    std::fs::write(s.join("u.rules"), "const undo = 4\n").expect("a ruleset");
    let o = umpire_in(&s, &["repl", "u.rules"], "undo + 1\nundo +\n");
    assert_eq!(stdout(&o), "5\n");
    assert!(
        !stderr(&o).contains("commands start with"),
        "{}",
        stderr(&o)
    );
}

/// File errors in plain words: no such file, no such folder; a ruleset or a game log
/// named to `:load` is said to be one, with the command that reads it.
#[test]
fn file_errors_are_in_plain_words() {
    let s = scratch("words");
    std::fs::write(s.join("h.rules"), "extends \"little_wars\"\n").expect("a house rule");
    let o = umpire_in(
        &s,
        &["repl", "little_wars", "--seed", "1", "--log", "game.log"],
        ":load nosuch.toml\n:load nodir/x.toml\n:load little_wars_table.toml\n:save nodir/x.toml\n:load h.rules\n:load game.log\n:log nodir/x.log\n",
    );
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot load nosuch.toml: no such file"),
        "{err}"
    );
    assert!(
        err.contains("cannot load nodir/x.toml: no such folder, nodir"),
        "{err}"
    );
    assert!(
        err.contains("cannot write nodir/x.toml: no such folder, nodir"),
        "{err}"
    );
    assert!(
        err.contains("cannot log to nodir/x.log: no such folder, nodir"),
        "{err}"
    );
    assert!(
        err.contains("h.rules holds a ruleset, not a state"),
        "{err}"
    );
    assert!(err.contains("`:use h.rules` puts it in use"), "{err}");
    assert!(
        err.contains("game.log holds a game log, not a state"),
        "{err}"
    );
    assert!(err.contains("`umpire replay game.log`"), "{err}");
    assert!(!err.contains("os error"), "{err}");
    assert!(!err.contains("TOML"), "{err}");
    // Quotes around a file name are not part of it: `:use`, `:load`, `:log` too.
    let o = umpire_in(
        &s,
        &["repl"],
        ":use \"h.rules\"\n:load 'little_wars_table.toml'\n:log \"my game.log\"\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(s.join("my game.log").is_file());
}

/// `:use` of a stricter ruleset says which changes it cuts off: when the one taken back
/// (what `:redo` would do again) does not fit, it says that — not that the changes
/// before cannot be undone (they still can); when an earlier state does not fit, that.
#[test]
fn use_of_a_stricter_ruleset_says_whether_undo_or_redo_is_cut_off() {
    let s = Scratch::new("stricter");
    std::fs::write(
        s.join("loose.rules"),
        "ruleset \"Loose\"\nstate { x: 0..10 = 0 }\n",
    )
    .expect("a ruleset");
    std::fs::write(
        s.join("strict.rules"),
        "ruleset \"Strict\"\nstate { x: 0..5 = 0 }\n",
    )
    .expect("a ruleset");
    std::fs::write(s.join("s.toml"), "x = 1\n").expect("a state");
    let undo_cut = "changes made before this cannot be undone";
    let redo_cut =
        "what was undone cannot be redone: the state it would put back does not fit this ruleset";
    // x = 8 taken back: the table (x = 1) fits, the change to do again does not.
    let o = umpire_in(
        &s,
        &["repl", "loose.rules", "--state", "s.toml"],
        ":set x = 8\n:undo\n:use strict.rules\n:state x\n:redo\n",
    );
    let (out, err) = (stdout(&o), stderr(&o));
    assert!(err.contains(redo_cut), "{err}");
    assert!(!err.contains(undo_cut), "{err}");
    assert!(out.ends_with("1\n"), "{out}");
    assert!(err.contains("error: nothing to redo"), "{err}");
    // x = 8 then x = 2: the table fits, the state before the last change does not.
    let o = umpire_in(
        &s,
        &["repl", "loose.rules", "--state", "s.toml"],
        ":set x = 8\n:set x = 2\n:use strict.rules\n",
    );
    let err = stderr(&o);
    assert!(err.contains(undo_cut), "{err}");
    assert!(!err.contains(redo_cut), "{err}");
}
