//! The REPL's commands, in one list: `:help`, parsing (aliases too), completion and
//! hints all come from it.

use crate::diagnostic::Code;
use crate::diagnostic::Diag;

/// Declares [`Command`] from one list: each command's variant, name, arguments as
/// `:help` shows them, what it does, then any other names `:help` lists as short for it
/// (`also`) and any it answers to unlisted (`hidden`).
macro_rules! commands {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident $name:literal $args:literal $what:literal
            $(also $also:literal)* $(hidden $hidden:literal)*;
    )*) => {
        /// A REPL command, as typed after `:` (its argument apart).
        #[derive(Debug, Clone, Copy, PartialEq, Eq)]
        pub enum Command {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Command {
            /// Every command, in the order `:help` lists them.
            pub const ALL: &'static [Command] = &[$(Command::$variant),*];

            /// Its name, after the `:`.
            pub fn name(self) -> &'static str {
                match self { $(Command::$variant => $name,)* }
            }

            /// Its arguments as `:help` shows them (`NAME|PATH`); empty for none.
            pub fn args(self) -> &'static str {
                match self { $(Command::$variant => $args,)* }
            }

            /// What it does, as `:help` says it.
            pub fn what(self) -> &'static str {
                match self { $(Command::$variant => $what,)* }
            }

            /// Other names for it that `:help` lists, each as short for it (`q`).
            pub fn also(self) -> &'static [&'static str] {
                match self { $(Command::$variant => &[$($also),*],)* }
            }

            /// Other names it answers to that `:help` does not list (`h`, `?`).
            fn hidden(self) -> &'static [&'static str] {
                match self { $(Command::$variant => &[$($hidden),*],)* }
            }
        }
    };
}

commands! {
    /// Lists the commands.
    Help "help" "" "list these commands" hidden "h" hidden "?";
    /// Puts a bundled ruleset or a ruleset file in use, keeping the state if it fits.
    Use "use" "NAME|PATH" "use a bundled ruleset or a ruleset file";
    /// As `:use`, leaving a state that does not fit behind.
    UseAnyway "use!" "NAME|PATH" "use it even though the state on the table does not fit (left behind)";
    /// Reads the ruleset file again.
    Reload "reload" "" "read the ruleset file again after an edit, keeping the state";
    /// Lists the rules, tables and modifier lists.
    Rules "rules" "" "list the rules, tables and modifier lists, with their citations";
    /// Explains the last result, or adjudicates an expression and explains it.
    Explain "explain" "[EXPR]" "explain the last result (no new roll), or a new one";
    /// Shows or sets where the dice come from.
    Dice "dice" "table|seeded [N]" "players roll and type each die in / umpire rolls";
    /// umpire rolls, from a seed.
    Seed "seed" "N" "umpire rolls, from seed N (same as :dice seeded N)";
    /// Queues faces for the next adjudication.
    Roll "roll" "7 3" "queue rolls for the next adjudication (also 7,3; `:roll clear`)";
    /// The odds of an expression.
    Prob "prob" "EXPR" "the chance of each outcome of EXPR, exactly (or sampled)";
    /// The odds for each value of a name.
    Sweep "sweep" "NAME=A..B EXPR" "the chances for each value of NAME (also NAME=v1,v2)";
    /// Asks a question of each member of a group.
    Each "each" "NAME=PATH EXPR" "adjudicate EXPR for each member of a group: `:each u=brigade manoeuvre(u)`";
    /// Chooses a reading of an ambiguous rule, or lists them.
    Interpret "interpret" "[NAME=READING]" "read an ambiguous rule one way (alone: list them)";
    /// Loads a state file.
    Load "load" "FILE" "load a game state file";
    /// Shows the state, or one part of it.
    State "state" "[PATH]" "show the state, or one part of it";
    /// Changes the state by hand.
    Set "set" "PATH = EXPR" "change the state (+= and -= too)";
    /// Applies the last result's effects.
    Apply "apply" "" "apply the last result's effects to the state";
    /// Drops the effects of the last result: they are not applied.
    Drop "drop" "" "drop the last result's effects: they are not applied";
    /// Takes the newest change back: a result, a change to the state, effects applied.
    Undo "undo" "" "take back the newest thing done (a result, :set, :apply, :drop, :load)";
    /// As `:undo`, a state loaded too, without asking.
    UndoAnyway "undo!" "" "the same, taking back a :load without asking";
    /// Does again what `:undo` took back.
    Redo "redo" "" "do again what :undo took back";
    /// Writes the state.
    Save "save" "[FILE]" "write the state (to the FILE last named, if none)";
    /// Writes the state over a state file this game did not load or write, without asking.
    SaveAnyway "save!" "FILE" "write the state over FILE, a state file this game did not load or write";
    /// Appends the game log to a file, or says where it goes.
    Log "log" "FILE" "append each adjudication to FILE as JSON lines";
    /// Ends the session.
    Quit "quit" "" "end the session (Ctrl-D too; asks first if anything would be lost)" also "q" also "exit";
    /// Ends the session even with effects not yet applied or changes not saved.
    QuitAnyway "quit!" "" "end the session, losing effects not yet applied and changes not saved" hidden "q!" hidden "exit!";
    /// Prints a bundled ruleset.
    Show "show" "[NAME]" "print a bundled ruleset (to copy and edit); alone, list them";
}

impl Command {
    /// The command `name` (after the `:`) names, by any of its names.
    pub fn parse(name: &str) -> Option<Command> {
        Command::ALL
            .iter()
            .copied()
            .find(|c| c.name() == name || c.also().contains(&name) || c.hidden().contains(&name))
    }

    /// Every name `:help` lists, with its `:`, and the arguments it takes: what
    /// completion and hints offer.
    pub fn listed() -> Vec<(String, &'static str)> {
        let mut out = Vec::new();
        for c in Command::ALL {
            out.push((format!(":{}", c.name()), c.args()));
            out.extend(c.also().iter().map(|a| (format!(":{a}"), "")));
        }
        out
    }

    /// The `:help` text: a line for each command and each name listed as short for
    /// one, then how to adjudicate.
    pub fn help() -> String {
        let mut s = String::new();
        let mut line = |usage: &str, what: &str| s.push_str(&format!("{usage:<26} {what}\n"));
        for c in Command::ALL {
            let usage = if c.args().is_empty() {
                format!(":{}", c.name())
            } else {
                format!(":{} {}", c.name(), c.args())
            };
            line(&usage, c.what());
            for a in c.also() {
                line(&format!(":{a}"), &format!("short for :{}", c.name()));
            }
        }
        line(
            "EXPR",
            "adjudicate it against the state: `manoeuvre(brigade.second_foot)`",
        );
        s
    }

    /// The error for `:name`, no command: the nearest command's name, if one is near.
    pub fn unknown(name: &str) -> Diag {
        let names = Command::listed();
        Diag::error(Code::ReplUnknownCommand, format!("no command `:{name}`"))
            .suggest(&format!(":{name}"), names.iter().map(|(n, _)| n.as_str()))
            .help("`:help` lists the commands")
    }
}

#[cfg(test)]
mod tests {
    use super::Command;

    #[test]
    fn every_name_parses_to_its_command() {
        for &c in Command::ALL {
            assert_eq!(Command::parse(c.name()), Some(c));
            for a in c.also().iter().chain(c.hidden()) {
                assert_eq!(Command::parse(a), Some(c), "{a}");
            }
        }
        assert_eq!(Command::parse("h"), Some(Command::Help));
        assert_eq!(Command::parse("?"), Some(Command::Help));
        assert_eq!(Command::parse("exit"), Some(Command::Quit));
        assert_eq!(Command::parse("use!"), Some(Command::UseAnyway));
        assert_eq!(Command::parse("explian"), None);
    }

    #[test]
    fn no_two_commands_share_a_name() {
        let mut names: Vec<&str> = Command::ALL
            .iter()
            .flat_map(|c| {
                std::iter::once(c.name())
                    .chain(c.also().iter().copied())
                    .chain(c.hidden().iter().copied())
            })
            .collect();
        let n = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), n);
    }

    #[test]
    fn help_lists_each_command_and_its_short_names() {
        let help = Command::help();
        assert!(help.starts_with(":help                      list these commands\n"));
        assert!(help.contains("\n:q                         short for :quit\n"));
        assert!(!help.contains(":h "));
        // One line per command, per listed short name, and the EXPR line.
        assert_eq!(help.lines().count(), Command::listed().len() + 1);
    }
}
