//! The readings chosen for a program's interpretations (`--interpret NAME=READING`,
//! the REPL's `:interpret`, a scenario's `interpret`, an example's pinned reading): an
//! evaluation option, not part of the checked program.

/// The reading chosen for some of a program's interpretations, by index: an
/// interpretation not in it goes by its default (or is "not given in the source").
///
/// The indices are the program's (`Program::interpretations`, and the values of each
/// one's readings enum), so readings are made for one program and read with it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Readings {
    /// (interpretation, reading chosen), at most one pair per interpretation.
    chosen: Vec<(u32, u16)>,
}

impl Readings {
    /// No reading chosen: every interpretation goes by its default.
    pub fn none() -> Readings {
        Readings::default()
    }

    /// The reading chosen for interpretation `i` (its index in the program's
    /// interpretations), if one is.
    pub fn get(&self, i: usize) -> Option<u16> {
        self.chosen
            .iter()
            .find(|(at, _)| *at as usize == i)
            .map(|&(_, reading)| reading)
    }

    /// Chooses `reading` for interpretation `i` (in place of any chosen before).
    pub fn choose(&mut self, i: u32, reading: u16) {
        match self.chosen.iter_mut().find(|(at, _)| *at == i) {
            Some(c) => c.1 = reading,
            None => self.chosen.push((i, reading)),
        }
    }

    /// These readings with each of `pinned` (interpretation, reading) chosen over them
    /// (an example that pins readings is read with them).
    pub fn with(&self, pinned: &[(u32, u16)]) -> Readings {
        let mut r = self.clone();
        for &(i, reading) in pinned {
            r.choose(i, reading);
        }
        r
    }

    /// Whether no reading is chosen.
    pub fn is_empty(&self) -> bool {
        self.chosen.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::Readings;

    #[test]
    fn a_choice_replaces_the_one_before_and_pinning_leaves_the_original() {
        let mut r = Readings::none();
        assert!(r.is_empty());
        r.choose(2, 1);
        r.choose(0, 3);
        r.choose(2, 0);
        assert_eq!((r.get(0), r.get(1), r.get(2)), (Some(3), None, Some(0)));
        let pinned = r.with(&[(1, 4), (0, 1)]);
        assert_eq!(
            (pinned.get(0), pinned.get(1), pinned.get(2)),
            (Some(1), Some(4), Some(0))
        );
        assert_eq!((r.get(0), r.get(1)), (Some(3), None));
    }
}
