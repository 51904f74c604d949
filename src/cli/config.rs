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
    if let Err(e) = std::fs::metadata(path) {
        if e.kind() == std::io::ErrorKind::NotFound {
            return Ok(None);
        }
    }
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
            let mut d = Diag::error(
                Code::CliConfig,
                format!("{path}: `dice = {}` is not a way to roll: write `dice = \"table\"` (the players roll) or `dice = \"seeded\"` (umpire rolls)", written.trim()),
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
}
