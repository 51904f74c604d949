//! The rulesets bundled into the binary, so `umpire eval little_wars ...` needs no files.

/// `(name, source)` of every bundled ruleset.
pub const BUNDLED: &[(&str, &str)] = &[
    ("little_wars", include_str!("../rulesets/little_wars.rules")),
    ("kriegspiel", include_str!("../rulesets/kriegspiel.rules")),
    (
        "furious_reason",
        include_str!("../rulesets/furious_reason.rules"),
    ),
    (
        "horse_and_musket",
        include_str!("../rulesets/horse_and_musket.rules"),
    ),
];

/// The source of a bundled ruleset. A bundled name is a plain word (no `/`, `\\` or
/// `.`), so a name found here is never also a path.
pub fn source(name: &str) -> Option<&'static str> {
    BUNDLED.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

/// Names of the bundled rulesets.
pub fn names() -> Vec<&'static str> {
    BUNDLED.iter().map(|(n, _)| *n).collect()
}

#[cfg(test)]
mod tests {
    /// Callers take a name found here for a bundled ruleset, never a path: no bundled
    /// name may look like one.
    #[test]
    fn bundled_names_are_plain_words() {
        for name in crate::bundled::names() {
            assert!(!name.contains(['/', '\\', '.']), "{name}");
        }
    }
}
