//! What the language accepts as a name: not one of its reserved words, and made of
//! letters, digits and `_`. The ground floor's copy of the grammar's words, so that the
//! state loader and the faces can ask "may this be written as a name?" without the parser.

/// The reserved words. The grammar's `keyword` rule (grammar/umpire.pest) is the source;
/// this copy, for the places that ask "is this word free?", is held to it by the test
/// `reserved_words_are_the_grammars`, which also holds docs/language.md's list to it.
pub const RESERVED: [&str; 20] = [
    "ruleset",
    "rule",
    "table",
    "enum",
    "record",
    "const",
    "modifiers",
    "example",
    "let",
    "if",
    "else",
    "match",
    "refuse",
    "cite",
    "otherwise",
    "true",
    "false",
    "and",
    "or",
    "not",
];

/// Can `word` be written as a name — after a dot in an expression (`units.old_guard`), or
/// as a parameter: a letter or `_` first, then letters, digits and `_`, and not reserved.
pub fn is_name(word: &str) -> bool {
    let mut chars = word.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_')
        && chars.all(|c| c.is_alphanumeric() || c == '_')
        && !RESERVED.contains(&word)
}
