//! The REPL at a terminal, with rustyline: history kept across sessions (in
//! `$UMPIRE_HISTORY`, else `$XDG_STATE_HOME/umpire/history`, else
//! `~/.local/state/umpire/history`), tab completion of commands, rule, table and
//! modifier names, state paths and enum values, hints, multi-line input while a bracket
//! is open (each line after the first asked for with a continuation prompt, `...> `),
//! Ctrl-C to cancel a line and Ctrl-D to end.

use super::commands::Command;
use super::session::{Io, Next, Session};
use super::start;
use crate::program::Program;
use crate::value::Value;
use rustyline::completion::{Completer, FilenameCompleter, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::{Hint, Hinter};
use rustyline::history::DefaultHistory;
use rustyline::validate::Validator;
use rustyline::{Context, Editor, Helper};
use std::path::PathBuf;

/// Writes the history whole to a new temporary file of a random name beside `path`
/// ([`crate::files::create_temp`]: never through a symbolic link planted there),
/// flushed to the disk, then renamed over it: the history file is never left half
/// written (rustyline's own append rewrites the file in place once it is full).
fn save_history(editor: &mut Ed, path: &std::path::Path) {
    let name = path
        .file_name()
        .map_or("history".into(), |n| n.to_string_lossy().into_owned());
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(std::path::Path::new("."));
    let Ok((tmp, file)) = crate::files::create_temp(dir, &name, &mut rand::random::<u64>) else {
        return;
    };
    let written = editor.save_history(&tmp).is_ok()
        && file.sync_all().is_ok()
        && std::fs::rename(&tmp, path).is_ok();
    if !written {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Where history is kept: `$UMPIRE_HISTORY`, else under the XDG state folder.
pub fn history_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("UMPIRE_HISTORY") {
        return (!p.is_empty()).then(|| PathBuf::from(p));
    }
    let base = match std::env::var_os("XDG_STATE_HOME") {
        Some(x) if !x.is_empty() => PathBuf::from(x),
        _ => PathBuf::from(std::env::var_os("HOME")?)
            .join(".local")
            .join("state"),
    };
    Some(base.join("umpire").join("history"))
}

/// What completion offers: refreshed from the session after every input.
#[derive(Default)]
pub struct Names {
    /// Rules, tables, modifier lists and constants.
    callables: Vec<(String, String)>,
    /// Enum values and state paths (`brigade.second_foot.grade`).
    values: Vec<String>,
}

impl Names {
    /// The names a session knows now.
    pub fn of(session: &Session) -> Names {
        let p = session.program();
        let mut callables: Vec<(String, String)> = Vec::new();
        for r in &p.rules {
            callables.push((r.sig.name.to_string(), params_hint(p, &r.sig.params)));
        }
        for t in &p.tables {
            callables.push((t.sig.name.to_string(), params_hint(p, &t.sig.params)));
        }
        for m in &p.modifiers {
            callables.push((m.sig.name.to_string(), params_hint(p, &m.sig.params)));
        }
        let mut values: Vec<String> = p.enum_values.keys().cloned().collect();
        values.extend(p.consts.iter().map(|c| c.name.to_string()));
        values.extend(p.lists.keys().cloned());
        if let Some(st) = session.state() {
            state_paths(st, "", &mut values);
        }
        values.sort();
        values.dedup();
        callables.sort();
        Names { callables, values }
    }
}

fn params_hint(p: &Program, params: &[crate::program::ParamInfo]) -> String {
    let parts: Vec<String> = params
        .iter()
        .map(|x| format!("{}: {}", x.name, x.ty.name(p)))
        .collect();
    format!("{})", parts.join(", "))
}

/// Every path into the state, `units`, `units.old_guard`, `units.old_guard.men`, ...
/// (at most a few thousand).
fn state_paths(v: &Value, prefix: &str, out: &mut Vec<String>) {
    if out.len() > 5000 {
        return;
    }
    if let Value::Record(fields) | Value::Group(fields) = v {
        for (name, inner) in fields.iter() {
            let path = if prefix.is_empty() {
                name.to_string()
            } else {
                format!("{prefix}.{name}")
            };
            out.push(path.clone());
            state_paths(inner, &path, out);
        }
    }
}

/// The rustyline helper: completion, hints, multi-line input.
pub struct UmpireHelper {
    /// What completion offers.
    pub names: Names,
    files: FilenameCompleter,
    /// Hints drawn dim (at a colour terminal).
    colour: bool,
}

/// A hint: the rest of a name (the right arrow takes it), or what to type next — a
/// rule's parameters, a command's arguments — shown only.
pub struct UmpireHint {
    text: String,
    takes: bool,
}

impl Hint for UmpireHint {
    fn display(&self) -> &str {
        &self.text
    }
    fn completion(&self) -> Option<&str> {
        self.takes.then_some(self.text.as_str())
    }
}

fn word_start(line: &str, pos: usize) -> usize {
    line[..pos]
        .char_indices()
        .rev()
        .find(|(_, c)| !(c.is_alphanumeric() || *c == '_' || *c == '.'))
        .map_or(0, |(i, c)| i + c.len_utf8())
}

impl Completer for UmpireHelper {
    type Candidate = Pair;

    fn complete(
        &self,
        line: &str,
        pos: usize,
        ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let pair = |s: &str| Pair {
            display: s.to_string(),
            replacement: s.to_string(),
        };
        if line.starts_with(':') {
            let first_end = line.find(char::is_whitespace).unwrap_or(line.len());
            if pos <= first_end {
                let typed = &line[..pos];
                let found = Command::listed()
                    .iter()
                    .filter(|(c, _)| c.starts_with(typed))
                    .map(|(c, _)| pair(c))
                    .collect();
                return Ok((0, found));
            }
            let cmd = &line[..first_end];
            match cmd {
                ":load" | ":save" | ":log" => return self.files.complete(line, pos, ctx),
                ":use" | ":show" => {
                    let start = word_start(line, pos);
                    let typed = &line[start..pos];
                    let mut found: Vec<Pair> = crate::bundled::names()
                        .into_iter()
                        .filter(|n| n.starts_with(typed))
                        .map(pair)
                        .collect();
                    if cmd == ":use" {
                        let (fstart, files) = self.files.complete(line, pos, ctx)?;
                        if found.is_empty() {
                            return Ok((fstart, files));
                        }
                        if fstart == start {
                            found.extend(files);
                        }
                    }
                    return Ok((start, found));
                }
                ":dice" => {
                    let start = word_start(line, pos);
                    let typed = &line[start..pos];
                    let found = ["table", "seeded"]
                        .into_iter()
                        .filter(|w| w.starts_with(typed))
                        .map(pair)
                        .collect();
                    return Ok((start, found));
                }
                _ => {}
            }
        }
        let start = word_start(line, pos);
        let typed = &line[start..pos];
        if typed.is_empty() {
            return Ok((start, Vec::new()));
        }
        let mut found: Vec<Pair> = self
            .names
            .callables
            .iter()
            .filter(|(n, _)| n.starts_with(typed))
            .map(|(n, _)| Pair {
                display: n.clone(),
                replacement: format!("{n}("),
            })
            .collect();
        found.extend(
            self.names
                .values
                .iter()
                .filter(|n| n.starts_with(typed))
                // A path offers its next step, not every path below it.
                .filter(|n| !n[typed.len()..].trim_start_matches('.').contains('.'))
                .map(|n| pair(n)),
        );
        Ok((start, found))
    }
}

impl Hinter for UmpireHelper {
    type Hint = UmpireHint;

    fn hint(&self, line: &str, pos: usize, _ctx: &Context<'_>) -> Option<UmpireHint> {
        let (text, takes) = self.hint_text(line, pos)?;
        Some(UmpireHint { text, takes })
    }
}

impl UmpireHelper {
    /// The hint for `line` with the cursor at `pos`, and whether it can be taken as typed.
    fn hint_text(&self, line: &str, pos: usize) -> Option<(String, bool)> {
        if pos < line.len() {
            return None;
        }
        // `manoeuvre(` → its parameters.
        if let Some(before) = line.strip_suffix('(') {
            let start = word_start(before, before.len());
            let name = &before[start..];
            return self
                .names
                .callables
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, params)| (params.clone(), false));
        }
        // `:ex` → `plain [EXPR]`: the rest of the one command it can be, and its usage.
        if line.starts_with(':') && !line.contains(char::is_whitespace) {
            let listed = Command::listed();
            let mut hits = listed.iter().filter(|(c, _)| c.starts_with(line));
            if let (Some((c, args)), None) = (hits.next(), hits.next()) {
                let rest = &c[line.len()..];
                return Some(if args.is_empty() {
                    (rest.to_string(), true)
                } else {
                    (format!("{rest} {args}"), false)
                });
            }
            return None;
        }
        // A name with one way to finish it.
        let start = word_start(line, pos);
        let typed = &line[start..pos];
        if typed.len() < 2 {
            return None;
        }
        let mut hits = self
            .names
            .callables
            .iter()
            .map(|(n, _)| n)
            .chain(self.names.values.iter())
            .filter(|n| n.starts_with(typed) && n.len() > typed.len());
        match (hits.next(), hits.next()) {
            (Some(n), None) => Some((n[typed.len()..].to_string(), true)),
            _ => None,
        }
    }
}

impl Highlighter for UmpireHelper {
    fn highlight_hint<'h>(&self, hint: &'h str) -> std::borrow::Cow<'h, str> {
        if self.colour {
            std::borrow::Cow::Owned(format!("\x1b[2m{hint}\x1b[0m"))
        } else {
            std::borrow::Cow::Borrowed(hint)
        }
    }
}

// Every line is taken as typed: a line with a bracket still open is continued by
// `read_input`, which asks for the next with the continuation prompt (rustyline's own
// multi-line editing shows no prompt on the lines after the first, F10).
impl Validator for UmpireHelper {}

/// The prompt for a line that continues an input with a bracket still open: `...> `,
/// as wide as `prompt`, so the lines line up (`umpire> ` → `   ...> `).
pub fn continuation_prompt(prompt: &str) -> String {
    format!("{:>width$}", "...> ", width = prompt.chars().count())
}

/// One whole input read at the keyboard.
#[derive(Debug, PartialEq, Eq)]
pub enum Input {
    /// The input: a line, and the lines after it while a bracket was open.
    Text(String),
    /// A bracket was left open, and the next line typed was a command (`:save`): the
    /// unfinished input, then the command — each an input of its own (the first an error
    /// saying which bracket is not closed).
    Ended(String, String),
    /// A bracket was left open, and Ctrl-C or Ctrl-D given where the input went on: the
    /// unfinished input is dropped.
    Dropped,
}

/// Reads one input with `read` (a line given its prompt): a line asked for with
/// `prompt`, then, while a bracket is still open or only `let` steps are given, the
/// next lines, each asked for with
/// the continuation prompt — up to a line that is a command (`:…`), which ends the
/// unfinished input ([`Input::Ended`]). The first time a session asks for more
/// (`told` false), `say` is given a note of how to get out.
///
/// Errors: the first line's (Ctrl-C, Ctrl-D, the terminal failing), as `read` gives it;
/// a terminal failing later.
pub fn read_input(
    read: &mut dyn FnMut(&str) -> Result<String, ReadlineError>,
    say: &mut dyn FnMut(&str),
    prompt: &str,
    told: &mut bool,
) -> Result<Input, ReadlineError> {
    let mut text = read(prompt)?;
    let more = continuation_prompt(prompt);
    while super::unfinished(&text) {
        if !std::mem::replace(told, true) {
            match crate::syntax::unclosed(&text) {
                Some((_, open)) => {
                    let close = crate::syntax::closer(open);
                    say(&format!(
                        "note: a bracket is open: close it with `{close}`, or Ctrl-C drops the line\n"
                    ));
                }
                None => say(
                    "note: a `let` names a step: type the question that uses it, or Ctrl-C drops the line\n",
                ),
            }
        }
        match read(&more) {
            Ok(line) if super::is_command(&line) => return Ok(Input::Ended(text, line)),
            Ok(line) => {
                text.push('\n');
                text.push_str(&line);
            }
            Err(ReadlineError::Interrupted | ReadlineError::Eof) => return Ok(Input::Dropped),
            Err(e) => return Err(e),
        }
    }
    Ok(Input::Text(text))
}

impl Helper for UmpireHelper {}

type Ed = Editor<UmpireHelper, DefaultHistory>;

/// A session at a terminal.
struct Terminal<'e> {
    editor: &'e mut Ed,
    colour: bool,
}

impl Io for Terminal<'_> {
    fn out(&mut self, text: &str) {
        crate::term::write_out(text);
    }
    fn err(&mut self, text: &str) {
        crate::term::write_err(text);
    }
    fn ask(&mut self, prompt: &str) -> Option<String> {
        let line = crate::cancel::at_prompt(prompt, || self.editor.readline(prompt)).ok();
        // Ctrl-C at a `dumb` terminal's prompt: the command stops, as at any other.
        line.filter(|_| !crate::cancel::requested())
    }
    fn render(&self, d: &dyn miette::Diagnostic) -> String {
        crate::diagnostic::render(d, self.colour)
    }
}

/// The interactive loop; returns whether any input failed.
pub fn interactive(
    ruleset: Option<&str>,
    state: Option<&str>,
    seed: Option<u64>,
    table: bool,
    log: Option<&str>,
    limits: &crate::limits::Limits,
) -> bool {
    let colour = std::env::var_os("NO_COLOR").is_none();
    let config = rustyline::Config::builder()
        .max_history_size(10_000)
        .map(|b| b.auto_add_history(false).build())
        .unwrap_or_default();
    let mut editor: Ed = match Editor::with_config(config) {
        Ok(e) => e,
        Err(e) => {
            crate::term::write_err(&format!("error: cannot start the line editor: {e}\n"));
            return true;
        }
    };
    editor.set_helper(Some(UmpireHelper {
        names: Names::default(),
        files: FilenameCompleter::new(),
        colour,
    }));
    let history = history_path();
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.load_history(h);
    }
    let mut session = {
        let mut t = Terminal {
            editor: &mut editor,
            colour,
        };
        let mut s = start(ruleset, state, seed, table, limits, &mut t);
        if !super::started(&mut s, state, log, &mut t) {
            return true;
        }
        s
    };
    // After the ruleset and state are loaded: its example is one of theirs.
    crate::term::write_err(&super::welcome(&session));
    session.ask_again = true;
    // A command that ended an unfinished input: the next input. The note on how to get
    // out of an open bracket, once said.
    let (mut pending, mut told) = (None::<String>, false);
    loop {
        if let Some(h) = editor.helper_mut() {
            h.names = Names::of(&session);
        }
        let prompt = session.prompt();
        let line = match pending.take() {
            Some(command) => Ok(Input::Text(command)),
            None => {
                let mut read = |p: &str| crate::cancel::at_prompt(p, || editor.readline(p));
                let mut say = |t: &str| crate::term::write_err(t);
                read_input(&mut read, &mut say, &prompt, &mut told)
            }
        };
        let line = match line {
            Ok(Input::Text(line)) => line,
            Ok(Input::Ended(unfinished, command)) => {
                pending = Some(command);
                unfinished
            }
            Ok(Input::Dropped) => {
                crate::term::write_err("dropped: the input left a bracket open\n");
                continue;
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => {
                // Leaving with effects not yet applied or changes not saved asks first.
                let mut t = Terminal {
                    editor: &mut editor,
                    colour,
                };
                if session.may_leave(&mut t) {
                    break;
                }
                continue;
            }
            Err(e) => {
                crate::term::write_err(&format!("error: cannot read the input: {e}\n"));
                break;
            }
        };
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
            if let Some(h) = &history {
                save_history(&mut editor, h);
            }
        }
        let mut t = Terminal {
            editor: &mut editor,
            colour,
        };
        // Ctrl-C while it runs cancels this input, not the session (at the prompt,
        // rustyline reads it as a key: the line is cancelled).
        if crate::cancel::during(|| session.input(&line, &mut t)) == Next::Quit {
            break;
        }
    }
    // At a keyboard a mistake is shown and put right there: the session's exit status
    // is not a verdict on them (a script's is).
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A symbolic link planted at the name an old umpire saved the history through
    /// (`.history.umpire-PID.tmp`) is never followed: the file it names is untouched,
    /// and the history goes to its own file.
    #[cfg(unix)]
    #[test]
    fn the_history_is_never_saved_through_a_planted_link() {
        let dir = std::env::temp_dir().join(format!("umpire-history-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("dir");
        let victim = dir.join("victim.txt");
        std::fs::write(&victim, "precious\n").expect("victim");
        let planted = dir.join(format!(".history.umpire-{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).expect("plant");
        let mut ed: Ed = Editor::new().expect("an editor");
        let _ = ed.add_history_entry("2d6 + 1");
        let history = dir.join("history");
        save_history(&mut ed, &history);
        let kept = std::fs::read_to_string(&victim).expect("victim");
        let saved = std::fs::read_to_string(&history).unwrap_or_default();
        let _ = std::fs::remove_dir_all(&dir);
        assert_eq!(kept, "precious\n");
        assert!(saved.contains("2d6 + 1"), "{saved}");
    }

    /// Reads from `lines` as a keyboard would give them, noting each prompt shown (and
    /// each note said, as `said: …`).
    fn typed(lines: Vec<Result<&str, ReadlineError>>, prompt: &str) -> (Input, Vec<String>) {
        let mut lines = lines.into_iter();
        let shown = std::cell::RefCell::new(Vec::new());
        let mut read = |p: &str| {
            shown.borrow_mut().push(p.to_string());
            lines
                .next()
                .unwrap_or(Err(ReadlineError::Eof))
                .map(str::to_string)
        };
        let mut said = |t: &str| shown.borrow_mut().push(format!("said: {t}"));
        let mut told = false;
        let got = read_input(&mut read, &mut said, prompt, &mut told).unwrap_or(Input::Dropped);
        (got, shown.into_inner())
    }

    #[test]
    fn a_let_alone_asks_for_the_question_with_a_continuation_prompt() {
        let (got, shown) = typed(vec![Ok("let r = 2d6"), Ok("r + 1")], "umpire> ");
        assert_eq!(got, Input::Text("let r = 2d6\nr + 1".to_string()));
        assert_eq!(
            shown,
            [
                "umpire> ",
                "said: note: a `let` names a step: type the question that uses it, or Ctrl-C drops the line\n",
                "   ...> "
            ]
        );
        // A `let` with its question on the same line asks for nothing more.
        let (_, shown) = typed(vec![Ok("let r = 2d6; r + 1")], "umpire> ");
        assert_eq!(shown, ["umpire> "]);
    }

    #[test]
    fn a_bracket_left_open_asks_for_more_with_a_continuation_prompt() {
        // F10: `manoeuvre(brigade.second_foot` + Enter showed a blank line.
        let (got, shown) = typed(
            vec![Ok("manoeuvre(brigade.second_foot"), Ok("  )")],
            "umpire> ",
        );
        assert_eq!(
            got,
            Input::Text("manoeuvre(brigade.second_foot\n  )".to_string())
        );
        assert_eq!(
            shown,
            [
                "umpire> ",
                "said: note: a bracket is open: close it with `)`, or Ctrl-C drops the line\n",
                "   ...> "
            ]
        );
        // A closed line asks for nothing more.
        let (got, shown) = typed(vec![Ok("manoeuvre(brigade.second_foot)")], "umpire> ");
        assert_eq!(
            got,
            Input::Text("manoeuvre(brigade.second_foot)".to_string())
        );
        assert_eq!(shown, ["umpire> "]);
        // Lined up under a longer prompt; each open bracket asks again.
        let (_, shown) = typed(
            vec![Ok("f(g(1,"), Ok("2)"), Ok(")")],
            "umpire [table dice]> ",
        );
        assert_eq!(
            shown.iter().filter(|s| s.starts_with("said: ")).count(),
            1,
            "the note is said once: {shown:?}"
        );
        let prompts: Vec<&String> = shown.iter().filter(|s| !s.starts_with("said: ")).collect();
        assert_eq!(
            prompts,
            [
                "umpire [table dice]> ",
                "                ...> ",
                "                ...> "
            ]
        );
    }

    #[test]
    fn ctrl_c_or_ctrl_d_where_the_input_goes_on_drops_it() {
        let (got, _) = typed(vec![Ok("f("), Err(ReadlineError::Interrupted)], "umpire> ");
        assert_eq!(got, Input::Dropped);
        let (got, _) = typed(vec![Ok("f("), Err(ReadlineError::Eof)], "umpire> ");
        assert_eq!(got, Input::Dropped);
        // On the first line they are the caller's, as before.
        let mut read = |_: &str| Err(ReadlineError::Eof);
        assert!(matches!(
            read_input(&mut read, &mut |_| {}, "umpire> ", &mut false),
            Err(ReadlineError::Eof)
        ));
    }

    #[test]
    fn a_command_where_an_open_bracket_goes_on_ends_the_input_and_comes_next() {
        let (got, shown) = typed(
            vec![Ok("manoeuvre(brigade.second_foot"), Ok(":save s.toml")],
            "umpire> ",
        );
        assert_eq!(
            got,
            Input::Ended(
                "manoeuvre(brigade.second_foot".to_string(),
                ":save s.toml".to_string()
            )
        );
        assert_eq!(shown.last().map(String::as_str), Some("   ...> "));
        // The note names the bracket to close.
        let (_, shown) = typed(vec![Ok("[1, 2"), Ok("]")], "umpire> ");
        assert!(
            shown.iter().any(|s| s.contains("close it with `]`")),
            "{shown:?}"
        );
        // Said once a session: `told` is kept by the caller.
        let mut told = true;
        let mut said = Vec::new();
        let mut lines = vec!["f(", ")"].into_iter();
        let mut read = |_: &str| Ok(lines.next().unwrap_or_default().to_string());
        let got = read_input(
            &mut read,
            &mut |t| said.push(t.to_string()),
            "umpire> ",
            &mut told,
        );
        assert_eq!(got.ok(), Some(Input::Text("f(\n)".to_string())));
        assert!(said.is_empty());
    }
}
