//! A state is written over a state file only: never over a scenario, a ruleset or house
//! rule, or a game log — each recognised by what it holds, whatever its name — so that no
//! save loses a file the game depends on. A file there is looked at before it is read
//! (a folder, a device or a named pipe is refused unopened) and read only within the
//! file-size limit; it is a state file only when it reads as a state of the ruleset in
//! use. The state is written whole or not at all, through a temporary file of its own.

use crate::diagnostic::{Code, Diag};
use crate::limits::Limits;
use crate::program::Program;
use std::path::Path;

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

/// The error for a path to write that is not a regular file (told from its metadata).
fn not_regular(path: &str, m: &std::fs::Metadata) -> Diag {
    Diag::error(
        Code::IoWrite,
        format!(
            "cannot write {path}: it is not a regular file ({})",
            crate::files::kind_of(m)
        ),
    )
    .help("name a file to write the state to")
}

/// The names of the fields of `program`'s `state` declaration (none without one).
fn state_fields(program: &Program) -> Vec<&str> {
    program
        .state
        .and_then(|sid| program.records.get(sid as usize))
        .map(|info| info.shape.fields.iter().map(|(n, _)| &**n).collect())
        .unwrap_or_default()
}

/// Why `text` (a TOML or JSON table, or nothing) is not a state with these `fields`, in
/// the words of a refusal; `None` when it is empty or every top-level key is a field.
fn not_a_state_of(text: &str, fields: &[&str]) -> Option<String> {
    let text = text.trim_start_matches('\u{feff}');
    if text.trim().is_empty() {
        return None;
    }
    let (kind, keys): (&str, Vec<String>) = match serde_json::from_str::<serde_json::Value>(text) {
        Ok(serde_json::Value::Object(m)) => ("a JSON file", m.keys().cloned().collect()),
        _ => match text.parse::<toml_edit::DocumentMut>() {
            Ok(doc) => (
                "a TOML file",
                doc.iter().map(|(k, _)| k.to_string()).collect(),
            ),
            Err(_) => return Some("it is not a state file".into()),
        },
    };
    let key = keys.iter().find(|k| !fields.contains(&k.as_str()))?;
    Some(format!(
        "it is {kind} that is not a state of this ruleset: its key `{key}` is not a field of the state"
    ))
}

/// Whether a state file of `program`'s ruleset that is not empty is at `path`, to be
/// written over (`false`: nothing is there, or an empty file, or one that cannot be
/// read — left to the write to report). The file is looked at first and never opened
/// unless it is a regular file (a named pipe would never answer), and no more than
/// `most` bytes (the file-size limit) of it are read.
///
/// Errors: it is not a regular file (a folder, a device, a named pipe); it is larger
/// than `most` (not a state umpire wrote); it holds a scenario, a ruleset or house
/// rule, a game log, a TOML or JSON file with a key that is not a field of the state,
/// or something else that is not a state (it is left as it is).
pub fn state_there(path: &str, program: &Program, most: u64) -> Result<bool, Diag> {
    use std::io::Read;
    let refuse = |said: String| {
        Err(Diag::error(
            Code::IoNotState,
            format!("will not write the state over {path}: {said}"),
        )
        .help(
            "name a new file for the state (or a state file to replace): the file is left as it is",
        ))
    };
    let too_big = || {
        refuse(format!(
            "it is larger than {}, the limit on a file's size, so it is not a state umpire wrote",
            crate::limits::bytes_text(most)
        ))
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(false);
    };
    if !meta.is_file() {
        return Err(not_regular(path, &meta));
    }
    if meta.len() > most {
        return too_big();
    }
    let Ok(file) = std::fs::File::open(path) else {
        return Ok(false);
    };
    // Swapped for something else since it was looked at: not read.
    match file.metadata() {
        Ok(m) if m.is_file() => {}
        Ok(m) => return Err(not_regular(path, &m)),
        Err(_) => return Ok(false),
    }
    let mut bytes = Vec::new();
    if file
        .take(most.saturating_add(1))
        .read_to_end(&mut bytes)
        .is_err()
    {
        return Ok(false);
    }
    if bytes.len() as u64 > most {
        return too_big();
    }
    let text = String::from_utf8_lossy(&bytes);
    let what = match holds(&text) {
        Holds::StateOrNothing => match not_a_state_of(&text, &state_fields(program)) {
            None => return Ok(!text.trim_start_matches('\u{feff}').trim().is_empty()),
            Some(said) => return refuse(said),
        },
        Holds::Scenario => "a scenario",
        Holds::GameLog => "a game log",
        Holds::Ruleset => "a ruleset",
        Holds::Other => return refuse("it is not a state file".into()),
    };
    refuse(format!("it holds {what}"))
}

/// Refuses to write a state of `program`'s ruleset to `path` when a file is there that
/// is not a state file of that ruleset ([`state_there`]; `most`: the file-size limit).
///
/// Errors: as [`state_there`].
pub fn refuse_overwrite(path: &str, program: &Program, most: u64) -> Result<(), Diag> {
    state_there(path, program, most).map(|_| ())
}

/// Writes a state of `program`'s ruleset, its `text`, to `path`, whole or not at all
/// ([`write_atomic`]), and only where no file is that the game depends on
/// ([`refuse_overwrite`], within `limits`' file-size limit).
///
/// Errors: a scenario, ruleset, game log or other file that is not a state of the
/// ruleset is there (it is left as it is); as [`write_atomic`].
pub fn write_state(path: &str, text: &str, program: &Program, limits: &Limits) -> Result<(), Diag> {
    // What is there is noted before it is checked: a file swapped in after the check is
    // seen before the rename, and left as it is.
    let checked = seen(Path::new(path));
    refuse_overwrite(path, program, limits.file_bytes)?;
    write_checked(path, text, Some(checked), &mut |_| Ok(()))
}

/// What a save saw at its path, to tell a file swapped in since: the file's device,
/// inode, size and modified time, or `None` when nothing was there.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Seen(Option<(u64, u64, u64, Option<std::time::SystemTime>)>);

/// What is at `path` now (through a symbolic link, the file it names), as [`Seen`].
fn seen(path: &Path) -> Seen {
    Seen(std::fs::metadata(path).ok().map(|m| {
        #[cfg(unix)]
        let (dev, ino) = {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino())
        };
        #[cfg(not(unix))]
        let (dev, ino) = (0, 0);
        (dev, ino, m.len(), m.modified().ok())
    }))
}

/// Writes `text` to `path` without ever leaving it half written: a temporary file in
/// the same folder, flushed to disk, then renamed over `path`. A Ctrl-C during it
/// ([`crate::cancel`]) stops it before the rename; the temporary file is removed however
/// it ends.
///
/// Errors: the folder cannot be written, or the disk is full (the old file is intact);
/// cancelled (`umpire::limit::cancelled`, the old file intact).
pub fn write_atomic(path: &str, text: &str) -> Result<(), Diag> {
    write_atomic_with(path, text, &mut |_| Ok(()))
}

/// A point in [`write_atomic`]'s work, where a test can stop it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SaveStage {
    /// The temporary file is created, empty.
    Created,
    /// Half the text is written to it.
    HalfWritten,
    /// All of it is written and flushed to the disk; the rename is next.
    Flushed,
}

/// [`write_atomic`], calling `stop` at each [`SaveStage`]: a test's hook, which fails
/// (an error) or dies (a panic) there, to prove the old file survives a save stopped at
/// any point. An error from the hook is the save's error; the temporary file is removed.
///
/// Errors: as [`write_atomic`].
pub fn write_atomic_with(
    path: &str,
    text: &str,
    stop: &mut dyn FnMut(SaveStage) -> std::io::Result<()>,
) -> Result<(), Diag> {
    write_checked(path, text, None, stop)
}

/// [`write_atomic_with`], refusing (the temporary file removed, nothing written) when
/// the file at `path` is not, just before the rename, the one `checked` saw (by default
/// what was there when the save began): another program swapped a file in meanwhile.
fn write_checked(
    path: &str,
    text: &str,
    checked: Option<Seen>,
    stop: &mut dyn FnMut(SaveStage) -> std::io::Result<()>,
) -> Result<(), Diag> {
    use std::io::Write;
    let fail = |e: std::io::Error| Diag::error(Code::IoWrite, format!("cannot write {path}: {e}"));
    let given = std::path::Path::new(path);
    // Through a symbolic link, the file it names is written (the link stays a link).
    let target = match std::fs::symlink_metadata(given) {
        Ok(m) if m.file_type().is_symlink() => match std::fs::canonicalize(given) {
            Ok(real) => real,
            Err(_) => {
                let link = std::fs::read_link(given).map_err(fail)?;
                given.parent().map_or(link.clone(), |d| d.join(&link))
            }
        },
        _ => given.to_path_buf(),
    };
    // Only a regular file is replaced: never a folder, a device (`/dev/null`), a pipe.
    let checked = checked.unwrap_or_else(|| seen(&target));
    let before = std::fs::metadata(&target).ok();
    if let Some(m) = &before {
        if !m.is_file() {
            return Err(not_regular(path, m));
        }
        // A read-only file stays as it is (renaming over it would replace it).
        if m.permissions().readonly() {
            return Err(Diag::error(
                Code::IoWrite,
                format!("cannot write {path}: it is read-only"),
            )
            .help("make it writable, or name another file"));
        }
    }
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let name = target
        .file_name()
        .map_or("state".into(), |n| n.to_string_lossy().into_owned());
    let (tmp, f) = crate::files::create_temp(dir, &name, &mut rand::random::<u64>).map_err(fail)?;
    // The temporary file goes however the save ends: an error, Ctrl-C, a panic.
    struct Temp<'a>(&'a Path);
    impl Drop for Temp<'_> {
        fn drop(&mut self) {
            let _ = std::fs::remove_file(self.0);
        }
    }
    let _temp = Temp(&tmp);
    let mut cancelled = false;
    let mut changed = false;
    let result = (|| {
        let mut f = f;
        stop(SaveStage::Created)?;
        let half = text.len() / 2;
        f.write_all(&text.as_bytes()[..half])?;
        f.flush()?;
        stop(SaveStage::HalfWritten)?;
        f.write_all(&text.as_bytes()[half..])?;
        // The file keeps the permissions it had.
        if let Some(m) = &before {
            f.set_permissions(m.permissions())?;
        }
        f.sync_all()?;
        stop(SaveStage::Flushed)?;
        // Ctrl-C during the save: the old file stays, the new text is not put there.
        if crate::cancel::requested() {
            cancelled = true;
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        // Another file put there since it was checked: it is not written over.
        if seen(&target) != checked {
            changed = true;
            return Err(std::io::ErrorKind::Other.into());
        }
        std::fs::rename(&tmp, &target)
    })();
    match result {
        Ok(()) => Ok(()),
        Err(_) if cancelled => Err(crate::cancel::cancelled()),
        Err(_) if changed => Err(Diag::error(
            Code::IoNotState,
            format!("{path} changed while it was being saved: nothing was written"),
        )
        .help("another program wrote there: look at the file, then save again")),
        Err(e) => Err(fail(e)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::files::create_temp;
    use std::path::PathBuf;

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

    /// A scratch folder of this test's own, emptied first.
    fn scratch(tag: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("umpire-guard-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_toml_or_json_file_is_a_state_only_when_its_keys_are_the_states_fields() {
        let fields = ["turn", "brigade"];
        assert_eq!(not_a_state_of("", &fields), None);
        assert_eq!(not_a_state_of("\u{feff}# nothing yet\n", &fields), None);
        assert_eq!(
            not_a_state_of("turn = 3\n[brigade.a]\nmen = 4\n", &fields),
            None
        );
        assert_eq!(not_a_state_of("{\"turn\": 3}", &fields), None);
        assert_eq!(
            not_a_state_of("[package]\nname = \"foo\"\n", &fields).as_deref(),
            Some("it is a TOML file that is not a state of this ruleset: its key `package` is not a field of the state")
        );
        assert_eq!(
            not_a_state_of("{\"turn\": 3, \"version\": \"1.0\"}", &fields).as_deref(),
            Some("it is a JSON file that is not a state of this ruleset: its key `version` is not a field of the state")
        );
        let partial = not_a_state_of("title = \"x\"\nstate = \"t.toml\"\n", &fields);
        assert!(partial.is_some_and(|s| s.contains("`title`")));
        // A ruleset without a state has no field: only an empty file is its state.
        assert!(not_a_state_of("turn = 3\n", &[]).is_some());
    }

    /// A named pipe is refused from its metadata, never opened (opening one for reading
    /// waits for a writer for ever); a device is refused unread (`/dev/full` never ends).
    #[cfg(unix)]
    #[test]
    fn what_is_not_a_regular_file_is_refused_without_reading_it() {
        let dir = scratch("fifo");
        let path = crate::files::mkfifo(&dir, "ff.toml");
        let p = path.clone();
        let r = crate::files::within_ten_seconds(move || {
            refuse_overwrite(&p, &Program::default(), 4 << 20).map_err(|d| (d.code, d.message))
        })
        .expect("the check of a named pipe answers at once");
        let (code, message) = r.expect_err("refused");
        assert_eq!(code, Code::IoWrite);
        assert!(
            message.contains("it is not a regular file (a named pipe)"),
            "{message}"
        );
        let dev = refuse_overwrite("/dev/full", &Program::default(), 4 << 20)
            .expect_err("a device is refused");
        assert!(dev.message.contains("(a device)"), "{}", dev.message);
        let folder = refuse_overwrite(&dir.to_string_lossy(), &Program::default(), 4 << 20)
            .expect_err("a folder is refused");
        assert!(folder.message.contains("(a folder)"), "{}", folder.message);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn a_file_larger_than_the_limit_is_not_a_state_umpire_wrote() {
        let dir = scratch("big");
        let file = dir.join("big.toml");
        std::fs::write(&file, format!("{}\n", "# a note\n".repeat(20))).expect("write");
        let path = file.to_string_lossy().into_owned();
        let d = refuse_overwrite(&path, &Program::default(), 100).expect_err("too big");
        assert_eq!(d.code, Code::IoNotState);
        assert!(
            d.message.contains("larger than") && d.message.contains("not a state umpire wrote"),
            "{}",
            d.message
        );
        // Within the limit, nothing but comments: a state with nothing in it.
        assert_eq!(
            state_there(&path, &Program::default(), 1000).ok(),
            Some(true)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A symbolic link planted where the temporary file would go (the name an old umpire
    /// used, `.NAME.umpire-PID.tmp`) is never followed: the file it names is untouched,
    /// and the state goes to the file named.
    #[cfg(unix)]
    #[test]
    fn the_temporary_file_never_follows_a_planted_link() {
        let dir = scratch("plant");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "precious\n").expect("victim");
        let target = dir.join("table.toml");
        std::fs::write(&target, "turn = 3\n").expect("old state");
        let planted = dir.join(format!(".table.toml.umpire-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).expect("plant");
        write_atomic(&target.to_string_lossy(), "turn = 4\n").expect("saved");
        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "precious\n"
        );
        let m = std::fs::symlink_metadata(&target).expect("target");
        assert!(
            m.file_type().is_file(),
            "the state file is a file, not a link"
        );
        assert_eq!(
            std::fs::read_to_string(&target).expect("read"),
            "turn = 4\n"
        );
        // A name taken (the planted link) is passed over for the next random one.
        let mut n = 0u64;
        let taken = dir.join(format!(".x.umpire-{}-{:016x}.tmp", std::process::id(), 0));
        std::os::unix::fs::symlink(&victim, &taken).expect("plant");
        let (tmp, _f) = create_temp(&dir, "x", &mut || {
            n += 1;
            n - 1
        })
        .expect("a free name");
        assert_ne!(tmp, taken);
        assert!(std::fs::symlink_metadata(&taken).is_ok_and(|m| m.file_type().is_symlink()));
        assert_eq!(
            std::fs::read_to_string(&victim).expect("victim"),
            "precious\n"
        );
        // No name free: an error, nothing written.
        assert!(create_temp(&dir, "x", &mut || 0).is_err());
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// Another program swaps a ruleset in for the state file after the save looked at it
    /// (here just before the rename, after the temporary file's `sync_all`): the save is
    /// refused, the ruleset left as it is, no temporary file left.
    #[test]
    fn a_file_swapped_in_before_the_rename_is_not_written_over() {
        let dir = scratch("swap");
        let target = dir.join("target.toml");
        std::fs::write(&target, "turn = 3\n").expect("old state");
        let ruleset = "ruleset \"R\"\nrule f() -> Int { 1 }\n";
        let path = target.to_string_lossy().into_owned();
        let err = write_atomic_with(&path, "turn = 4\n", &mut |stage| {
            if stage == SaveStage::Flushed {
                let other = dir.join("other.rules");
                std::fs::write(&other, ruleset)?;
                std::fs::rename(&other, &target)?;
            }
            Ok(())
        })
        .expect_err("the swapped-in file is not written over");
        assert_eq!(err.code, Code::IoNotState);
        assert!(
            err.message
                .contains("changed while it was being saved: nothing was written"),
            "{}",
            err.message
        );
        assert_eq!(std::fs::read_to_string(&target).expect("read"), ruleset);
        let left: Vec<_> = std::fs::read_dir(&dir).expect("dir").collect();
        assert_eq!(left.len(), 1, "no temporary file is left");
        // Nothing there when the save began, a file there before the rename: refused too.
        let fresh = dir.join("fresh.toml");
        let err = write_atomic_with(&fresh.to_string_lossy(), "turn = 4\n", &mut |stage| {
            if stage == SaveStage::Flushed {
                std::fs::write(&fresh, ruleset)?;
            }
            Ok(())
        })
        .expect_err("a file put there is not written over");
        assert_eq!(err.code, Code::IoNotState);
        assert_eq!(std::fs::read_to_string(&fresh).expect("read"), ruleset);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
