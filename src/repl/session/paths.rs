//! File arguments in plain words: quotes around a name taken off, and a file that is
//! not there, a folder that is not there, or a file that holds something other than a
//! state, each said as a club umpire would say it — not as the operating system or a
//! TOML parser does.

use crate::diagnostic::{Code, Diag};
use std::path::Path;

/// A file argument with matching quotes around it taken off: `"my turn.toml"` names
/// `my turn.toml`.
pub(super) fn unquote(arg: &str) -> &str {
    let a = arg.trim();
    for q in ['"', '\''] {
        if a.len() >= 2 && a.starts_with(q) && a.ends_with(q) {
            return &a[1..a.len() - 1];
        }
    }
    a
}

/// The error for a file name to write with a quote mark left in it once [`unquote`]d
/// (`"`, `"a b`, `"x".toml`, `'x`): an unbalanced or inner quote, which would be written
/// into the file's name. `None`: the name is written as it is (an apostrophe inside it,
/// `o'brien.toml`, is part of it).
pub(super) fn quote_left(name: &str) -> Option<String> {
    let left = name.contains('"') || name.starts_with('\'') || name.ends_with('\'');
    left.then(|| {
        format!(
            "error: the file name {name} has a quote mark that does not pair with one around the whole name: write the name bare (`:save my_turn.toml`) or the whole of it in quotes (`:save \"my turn.toml\"`); the state is not written\n"
        )
    })
}

/// The folder `path` is in, when it is named and is not there (`nodir` of
/// `nodir/x.toml`).
pub(super) fn missing_folder(path: &str) -> Option<String> {
    let dir = Path::new(path).parent()?;
    let named = !dir.as_os_str().is_empty();
    (named && !dir.exists()).then(|| dir.to_string_lossy().into_owned())
}

/// Why `path` cannot be loaded as a state, in plain words, when that can be told
/// before reading it as one: no such file or folder, or it holds a ruleset, a game log
/// or a scenario (recognised by what it holds; `most`: the file-size limit, no more is
/// read). `None`: read it as a state.
pub(super) fn not_loadable(path: &str, most: u64) -> Option<Diag> {
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let said = match missing_folder(path) {
                Some(dir) => format!("cannot load {path}: no such folder, {dir}"),
                None => format!("cannot load {path}: no such file"),
            };
            return Some(Diag::error(Code::IoRead, said).help("check the name and the folder"));
        }
        // Larger than the limit: the load says so.
        Ok(m) if m.is_file() && m.len() <= most => {}
        _ => return None,
    }
    let mut bytes = Vec::new();
    use std::io::Read;
    let file = std::fs::File::open(path).ok()?;
    file.take(most).read_to_end(&mut bytes).ok()?;
    let text = String::from_utf8_lossy(&bytes);
    let (what, mend) = match crate::state::holds_in_words(&text)? {
        "a ruleset" => ("a ruleset", format!("`:use {path}` puts it in use")),
        "a game log" => (
            "a game log",
            format!("`umpire replay {path}` plays it again, `umpire report {path}` tells it"),
        ),
        "a scenario" => ("a scenario", format!("`umpire run {path}` adjudicates it")),
        _ => return None,
    };
    Some(
        Diag::error(
            Code::IoNotState,
            format!("{path} holds {what}, not a state: it is not loaded"),
        )
        .help(mend),
    )
}

/// Whether `path` is a state file of `program`'s ruleset already there (not empty):
/// writing over it loses what it holds. A file that holds anything else (or is not a
/// regular file, or is larger than `most`) is refused by the save itself.
pub(super) fn holds_a_state(path: &str, program: &crate::program::Program, most: u64) -> bool {
    matches!(crate::state::state_there(path, program, most), Ok(true))
}

/// The same file, however named (`./x.toml`, `x.toml`).
pub(super) fn same_file(a: &str, b: &str) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matching_quotes_are_taken_off_a_file_name() {
        assert_eq!(unquote("\"my turn.toml\""), "my turn.toml");
        assert_eq!(unquote("'my turn.toml'"), "my turn.toml");
        assert_eq!(unquote("\"my turn.toml"), "\"my turn.toml");
        assert_eq!(unquote("x.toml"), "x.toml");
        assert_eq!(unquote("\""), "\"");
    }
}
