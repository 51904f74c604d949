//! A state is written over a state file only: never over a scenario, a ruleset or house
//! rule, or a game log — each recognised by what it holds, whatever its name — so that no
//! save loses a file the game depends on.

use crate::diagnostic::{Code, Diag};

/// What an existing file holds, as far as a save cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Holds {
    /// Nothing but white space, or a state (a TOML or JSON table that is none of the
    /// below): it may be written over.
    StateOrNothing,
    /// A scenario: a TOML table naming a `ruleset`, or with `[[adjudication]]`s.
    Scenario,
    /// A game log: JSON lines, the first a `game` line (or a result's line).
    GameLog,
    /// A ruleset or house rule: not TOML or JSON, and it defines rules, tables or
    /// modifier lists, or says `ruleset` / `extends`.
    Ruleset,
    /// Something else that is not a state file.
    Other,
}

/// What the text of an existing file holds.
pub(super) fn holds(text: &str) -> Holds {
    let trimmed = text.trim_start_matches('\u{feff}').trim();
    if trimmed.is_empty() {
        return Holds::StateOrNothing;
    }
    // A game log: its first line is a JSON object with a log line's key.
    let first = trimmed.lines().next().unwrap_or_default();
    if let Ok(serde_json::Value::Object(m)) = serde_json::from_str::<serde_json::Value>(first) {
        const LOG_KEYS: [&str; 6] = ["game", "expr", "set", "apply", "undo", "load"];
        if LOG_KEYS.iter().any(|k| m.contains_key(*k)) {
            return Holds::GameLog;
        }
    }
    if let Ok(serde_json::Value::Object(_)) = serde_json::from_str::<serde_json::Value>(trimmed) {
        return Holds::StateOrNothing;
    }
    match trimmed.parse::<toml_edit::DocumentMut>() {
        Ok(doc) if doc.contains_key("ruleset") || doc.contains_key("adjudication") => {
            Holds::Scenario
        }
        Ok(_) => Holds::StateOrNothing,
        Err(_) => {
            let defines = trimmed.lines().any(|l| {
                let l = l.trim_start();
                [
                    "rule ",
                    "table ",
                    "modifiers ",
                    "ruleset ",
                    "extends ",
                    "override ",
                ]
                .iter()
                .any(|w| l.starts_with(w))
            });
            if defines {
                Holds::Ruleset
            } else {
                Holds::Other
            }
        }
    }
}

/// What the text of an existing file holds, in the words a refusal uses (`a scenario`,
/// `a game log`, `a ruleset`, `a state`); `None` for nothing but white space, or
/// something else.
pub fn holds_in_words(text: &str) -> Option<&'static str> {
    match holds(text) {
        Holds::StateOrNothing if text.trim().is_empty() => None,
        Holds::StateOrNothing => Some("a state"),
        Holds::Scenario => Some("a scenario"),
        Holds::GameLog => Some("a game log"),
        Holds::Ruleset => Some("a ruleset"),
        Holds::Other => None,
    }
}

/// Refuses to write a state to `path` when a file is there that is not a state file.
/// A file that cannot be read is left to the write itself to report.
///
/// Errors: the file there is a scenario, a ruleset or house rule, a game log, or
/// something else that is not a state (it is left as it is).
pub fn refuse_overwrite(path: &str) -> Result<(), Diag> {
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(());
    };
    let text = String::from_utf8_lossy(&bytes);
    let what = match holds(&text) {
        Holds::StateOrNothing => return Ok(()),
        Holds::Scenario => "a scenario",
        Holds::GameLog => "a game log",
        Holds::Ruleset => "a ruleset",
        Holds::Other => "not a state file",
    };
    let said = if what.starts_with("not") {
        format!("it is {what}")
    } else {
        format!("it holds {what}")
    };
    Err(Diag::error(
        Code::IoNotState,
        format!("will not write the state over {path}: {said}"),
    )
    .help("name a new file for the state (or a state file to replace): the file is left as it is"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_of_file_is_told_by_what_it_holds() {
        assert_eq!(holds(""), Holds::StateOrNothing);
        assert_eq!(
            holds("turn = 3\n[brigade.a]\nmen = 4\n"),
            Holds::StateOrNothing
        );
        assert_eq!(holds("{\"turn\": 3}"), Holds::StateOrNothing);
        assert_eq!(
            holds("ruleset = \"little_wars\"\n[[adjudication]]\nname = \"x\"\nexpr = \"1\"\n"),
            Holds::Scenario
        );
        assert_eq!(holds("[[adjudication]]\nexpr = \"1\"\n"), Holds::Scenario);
        assert_eq!(
            holds("{\"game\": {\"ruleset\": \"x\"}}\n{\"expr\": \"1\", \"value\": 1}\n"),
            Holds::GameLog
        );
        assert_eq!(holds("{\"game\": {}}"), Holds::GameLog);
        assert_eq!(
            holds("ruleset \"R\"\nrule f() -> Int { 1 }\n"),
            Holds::Ruleset
        );
        assert_eq!(holds("extends \"furious_reason\"\n"), Holds::Ruleset);
        assert_eq!(
            holds("# a house rule\noverride table t { _ => 1 }\n"),
            Holds::Ruleset
        );
        assert_eq!(holds("just some notes\nabout the game\n"), Holds::Other);
    }

    /// Ctrl-C during a save (here asked for on this thread, as the handler asks): the
    /// save is cancelled before the rename, the old file whole and no temporary left.
    #[test]
    fn a_save_cancelled_before_the_rename_leaves_the_old_file_and_no_temporary() {
        use crate::state::{write_atomic, write_atomic_with, SaveStage};
        let dir = std::env::temp_dir().join(format!("umpire-cancel-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let file = dir.join("table.toml");
        let path = file.to_str().expect("utf-8 path");
        std::fs::write(&file, "turn = 3\n").expect("the old state");
        // Asked at any point of the writing, it is seen before the rename.
        for stage in [
            SaveStage::Created,
            SaveStage::HalfWritten,
            SaveStage::Flushed,
        ] {
            let r = crate::cancel::during(|| {
                write_atomic_with(path, "turn = 4\n", &mut |s| {
                    if s == stage {
                        crate::cancel::request_here();
                    }
                    Ok(())
                })
            });
            let code = r.map_err(|d| d.code);
            assert_eq!(code, Err(Code::LimitCancelled), "{stage:?}");
            assert_eq!(std::fs::read_to_string(&file).expect("read"), "turn = 3\n");
            let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
            assert_eq!(left.len(), 1, "{stage:?}: a temporary file was left");
        }
        // Not asked: saved.
        crate::cancel::during(|| write_atomic(path, "turn = 4\n")).expect("saved");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "turn = 4\n");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
