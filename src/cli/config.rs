//! The user's own settings for the REPL: the configuration file
//! `$XDG_CONFIG_HOME/umpire/config.toml` (`~/.config/umpire/config.toml` when
//! `XDG_CONFIG_HOME` is not set) and the environment. One setting so far, `dice`: who
//! rolls when a session starts (`dice = "table"`, or `UMPIRE_DICE=table`).
//!
//! The environment wins over the file; the command line's `--table-dice` and `--seed`
//! win over both. A missing file is no error; a file that cannot be read, is not TOML or
//! holds a setting umpire does not know is one, naming the file and the value.

use crate::diagnostic::Code;
use crate::diagnostic::{Diag, Diags};
use crate::limits::Limits;
use crate::span::{SourceFile, SourceMap, Span};
use std::path::PathBuf;

/// Who rolls when a session starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Roller {
    /// The players, at the table (`table`).
    Table,
    /// umpire, from a fresh seed (`seeded`).
    Seeded,
}

impl Roller {
    fn parse(word: &str) -> Option<Roller> {
        match word {
            "table" => Some(Roller::Table),
            "seeded" => Some(Roller::Seeded),
            _ => None,
        }
    }
}

/// The configuration file's path: under `$XDG_CONFIG_HOME`, else `~/.config`.
pub(super) fn path() -> Option<PathBuf> {
    let base = match std::env::var_os("XDG_CONFIG_HOME") {
        Some(x) if !x.is_empty() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME")?).join(".config"),
    };
    Some(base.join("umpire").join("config.toml"))
}

/// Who rolls at the start as the environment says, else as the configuration file
/// says; `None` when neither says. The file is read (and its mistakes said) either way.
///
/// Errors: `UMPIRE_DICE` or the file's `dice` is not `table` or `seeded`; the file
/// cannot be read, is not TOML, or holds another setting.
pub(super) fn dice(limits: &Limits) -> Result<Option<Roller>, Diags> {
    let file = match path() {
        Some(p) => from_file(&p.to_string_lossy(), limits)?,
        None => None,
    };
    Ok(from_env()?.or(file))
}

/// `UMPIRE_DICE`, if it is set (and not empty).
fn from_env() -> Result<Option<Roller>, Diags> {
    let Some(v) = std::env::var_os("UMPIRE_DICE").filter(|v| !v.is_empty()) else {
        return Ok(None);
    };
    let v = v.to_string_lossy();
    match Roller::parse(v.trim()) {
        Some(r) => Ok(Some(r)),
        None => Err(Diag::error(
            Code::CliConfig,
            format!("UMPIRE_DICE={v} is not a way to roll: set UMPIRE_DICE=table (the players roll) or UMPIRE_DICE=seeded (umpire rolls)"),
        )
        .into()),
    }
}

/// The file's `dice`, if the file is there and says it.
fn from_file(path: &str, limits: &Limits) -> Result<Option<Roller>, Diags> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        // Never opened unless a regular file: a named pipe would never answer.
        Ok(m) if !m.is_file() => {
            return Err(Diag::error(
                Code::CliConfig,
                format!("{path} is not a regular file, so umpire does not read it as its settings"),
            )
            .help("make it a file holding `dice = \"table\"` or `dice = \"seeded\"`, or remove it")
            .into());
        }
        _ => {}
    }
    // Within the file-size limit (a larger file is refused unread).
    let text = crate::files::read_file(path, limits)?;
    let mut sources = SourceMap::default();
    let (file, text) = sources.add(SourceFile::new(path, text));
    let at = |r: Option<std::ops::Range<usize>>| {
        r.map(|r| Span::new(file, r.start, r.end.max(r.start + 1).min(text.len())))
    };
    let help = "the file holds one setting, who rolls when the REPL starts: `dice = \"table\"` (the players) or `dice = \"seeded\"` (umpire)";
    let doc = match toml_edit::ImDocument::parse(&*text) {
        Ok(d) => d,
        Err(e) => {
            let msg = e.message().trim().to_string();
            let mut d = Diag::error(Code::CliConfig, format!("{path} is not a TOML file: {msg}"));
            if let Some(s) = at(e.span()) {
                d = d.label(s, msg);
            }
            return Err(Diags::from(d.help(help)).with_sources(&sources));
        }
    };
    let mut dice = None;
    for (key, item) in doc.iter() {
        let key_span = at(doc.key(key).and_then(|k| k.span()));
        if key != "dice" {
            let mut d = Diag::error(
                Code::CliConfig,
                format!("{path}: `{key}` is not a setting umpire knows"),
            )
            .suggest(key, ["dice"]);
            if let Some(s) = key_span {
                d = d.label(s, "not a setting");
            }
            return Err(Diags::from(d.help(help)).with_sources(&sources));
        }
        let word = item.as_str().and_then(Roller::parse);
        if word.is_none() {
            let span = at(item.span()).or(key_span);
            let written = span.map_or_else(|| item.to_string(), |s| sources.snippet(s).to_string());
            // The value shown only when it is one line (a `[dice]` table is not shown).
            let written = written.trim();
            let said = if item.is_value() && !written.contains(['\n', '\r']) {
                format!("`dice = {written}` is not a way to roll")
            } else if item.is_table_like() || item.is_array_of_tables() {
                "`dice` is a table here, not a way to roll".to_string()
            } else {
                "`dice` is not a way to roll".to_string()
            };
            let mut d = Diag::error(
                Code::CliConfig,
                format!("{path}: {said}: `dice` must be \"table\" (the players roll) or \"seeded\" (umpire rolls), as in `dice = \"table\"`"),
            );
            if let Some(s) = span {
                d = d.label(s, "not `\"table\"` or `\"seeded\"`");
            }
            return Err(Diags::from(d).with_sources(&sources));
        }
        dice = word;
    }
    Ok(dice)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Option<Roller>, Diags> {
        let dir = std::env::temp_dir().join(format!(
            "umpire-config-{}-{}",
            std::process::id(),
            text.len()
        ));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        let file = dir.join("config.toml");
        std::fs::write(&file, text).expect("write");
        let r = from_file(&file.to_string_lossy(), &Limits::default());
        let _ = std::fs::remove_dir_all(&dir);
        r
    }

    #[test]
    fn the_file_says_who_rolls_and_its_mistakes_are_errors_naming_it() {
        assert_eq!(read("dice = \"table\"\n").ok(), Some(Some(Roller::Table)));
        assert_eq!(read("dice = 'seeded'").ok(), Some(Some(Roller::Seeded)));
        assert_eq!(read("# nothing yet\n").ok(), Some(None));
        let wrong = read("dice = \"players\"\n").expect_err("no such way to roll");
        let d = &wrong.0[0];
        assert_eq!(d.code, Code::CliConfig);
        assert!(d.message.contains("config.toml"), "{}", d.message);
        assert!(d.message.contains("`dice = \"players\"`"), "{}", d.message);
        assert!(d.span().is_some());
        let number = read("dice = 3\n").expect_err("not a word");
        assert!(number.0[0].message.contains("`dice = 3`"));
        let broken = read("dice = \"table\n").expect_err("not TOML");
        assert!(broken.0[0].message.contains("is not a TOML file"));
        assert!(
            broken.0[0].span().is_some(),
            "a TOML error points into the file"
        );
        let unknown = read("dise = \"table\"\n").expect_err("not a setting");
        assert!(unknown.0[0].message.contains("`dise`"));
        let missing = from_file("/no/such/folder/config.toml", &Limits::default());
        assert_eq!(missing.ok(), Some(None));
    }

    /// A table for `dice` is answered with what to write, on one line: the table is
    /// not quoted across lines as if it were a value.
    #[test]
    fn dice_as_a_table_says_what_dice_must_be_on_one_line() {
        let wrong = read("[dice]\nmode = \"table\"\n").expect_err("a table is not a way to roll");
        let m = &wrong.0[0].message;
        assert!(!m.contains('\n'), "{m:?}");
        assert!(!m.contains("mode"), "{m}");
        assert!(
            m.contains("`dice` must be \"table\" (the players roll) or \"seeded\" (umpire rolls)"),
            "{m}"
        );
        let inline = read("dice = { mode = \"table\" }\n").expect_err("nor an inline table");
        assert!(inline.0[0]
            .message
            .contains("`dice = { mode = \"table\" }`"));
        let lines = read("dice = [\n  \"table\",\n]\n").expect_err("nor a list");
        assert!(!lines.0[0].message.contains('\n'), "{}", lines.0[0].message);
    }

    /// A named pipe where the file would be is not opened (it would wait for a writer
    /// for ever, and the REPL would never start): an error saying so.
    #[cfg(unix)]
    #[test]
    fn a_named_pipe_as_the_config_file_is_refused_unopened() {
        let dir = std::env::temp_dir().join(format!("umpire-config-fifo-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("scratch folder");
        let path = crate::files::mkfifo(&dir, "config.toml");
        let r = crate::files::within_ten_seconds(move || {
            from_file(&path, &Limits::default())
                .map_err(|ds| (ds.0[0].code, ds.0[0].message.clone()))
        })
        .expect("a named pipe is answered at once");
        let (code, message) = r.expect_err("refused");
        assert_eq!(code, Code::CliConfig);
        assert!(message.contains("is not a regular file"), "{message}");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file past the size limit is refused unread.
    #[test]
    fn a_config_file_past_the_size_limit_is_refused() {
        let dir = std::env::temp_dir().join(format!("umpire-config-big-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("scratch folder");
        let file = dir.join("config.toml");
        std::fs::write(&file, "# a note\n".repeat(100)).expect("write");
        let limits = Limits {
            file_bytes: 100,
            ..Limits::default()
        };
        let r = from_file(&file.to_string_lossy(), &limits).expect_err("too big");
        assert_eq!(r.0[0].code, Code::LimitFileSize);
        let _ = std::fs::remove_dir_all(&dir);
    }
}
