//! Reachable rolls: which whole numbers an expression can take, worked out from its dice,
//! the declared ranges of the fields and parameters it reads (`lost_percent: 0..100`) and
//! the modifier lists it adds — so a table's rows can be checked against the rolls that
//! reach them. Furious Reason's manoeuvre roll, a D10 plus die roll modifiers running
//! from -9 to +8, reaches -8..18: every one of those must find a row in its column.
//!
//! The analysis works on the checked program (after every definition is checked) and
//! over-approximates: a range it gives holds every value the expression can take.
//!
//! Its passes read the IR, not the AST: they come after the AST → IR translation, not
//! as part of it.
//!
//! - `interval`: ranges of numbers and their arithmetic;
//! - `facts`: what each expression can be (`Reacher`);
//! - `sites`: where number-keyed tables are called, and with what;
//! - `scale`: the numbers of a key counted in steps, cut at every bound its rows write
//!   (`1/2 or more`, `more than 2'`), the numbers between two bounds included on a `Num`
//!   or `Length` key;
//! - `report`: the columns of a table, and the rolls and rows that miss each other;
//! - `dead`: enum values nothing produces or reads.

use super::Checker;
use crate::program::Program;

mod dead;
mod facts;
mod interval;
mod report;
mod scale;
mod sites;

pub(super) use report::{columns, merge, number_key, uncovered, Column};
pub(super) use scale::Scale;

impl Checker<'_> {
    /// Every roll a call site can make must find a row in its column (an error at every
    /// load), and a row no roll reaches is a warning. Also: a table whose number key is
    /// declared with a range (`roll: 1..10`) must cover that range.
    pub(super) fn reachable_rolls(&mut self) {
        let prog: &Program = &self.prog;
        let found = sites::call_sites(prog);
        let mut diags = Vec::new();
        for (t, table) in prog.tables.iter().enumerate() {
            if self.broken_tables.contains(&t) {
                continue;
            }
            report::table(prog, table, t, &found, &mut diags);
        }
        for d in diags {
            self.err(d);
        }
    }
}
