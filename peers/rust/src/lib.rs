//! Benchmark peers for umpire: the Furious Reason manoeuvre (rulesets/furious_reason.rules,
//! the `manoeuvre_drm` modifiers, the `manoeuvre_table` and the `manoeuvre` rule) written
//! the two ways a Rust user would otherwise pick:
//!
//! * by hand, as plain Rust functions over a struct ([`manoeuvre`], [`manoeuvre_drm`],
//!   [`manoeuvre_table`]), and
//! * as a Rhai script ([`RHAI_RULES`]) run by an [`rhai::Engine`] built once.
//!
//! The unit is read once from the project's example state
//! (examples/states/furious_reason_brigade.toml), as umpire reads it, and the benches adjudicate
//! `brigade.second_foot`: line, 30% lost, nothing else, so its DRM is -1 and it is in good
//! order. With a D10 roll r its modified roll is r-1: Well Handled on 8-10 (3/10), Tardy on 6-7,
//! Hold on 4-5, Disengage on 2-3 (1/5 each), Retire on 1 (1/10).

use rand::Rng;
use rand_chacha::ChaCha8Rng;
use rhai::{Dynamic, Engine, Map};
use serde::Deserialize;
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The seed of every seeded run in the peers (native, Rhai; Python uses the same number).
pub const SEED: u64 = 1813;

/// A unit's grade (`enum Grade` in the ruleset).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    /// Militia.
    Militia,
    /// Line.
    Line,
    /// Grenadier.
    Grenadier,
    /// Guard.
    Guard,
}

impl Grade {
    /// The value's name in the ruleset, as the Rhai script sees it.
    pub fn name(self) -> &'static str {
        match self {
            Grade::Militia => "militia",
            Grade::Line => "line",
            Grade::Grenadier => "grenadier",
            Grade::Guard => "guard",
        }
    }
}

/// Which side of the Manoeuvre Table a unit reads (`enum Order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Good Order.
    GoodOrder,
    /// Disorder.
    Disorder,
}

/// A manoeuvre's result (`enum Outcome`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Outcome {
    WellHandled,
    Tardy,
    Hold,
    Disengage,
    Retire,
    RallyWithElan,
    Rally,
    Shaken,
    Wavering,
    Broken,
    Shattered,
}

impl Outcome {
    /// Every outcome, in declaration order (the index is `outcome as usize`).
    pub const ALL: [Outcome; 11] = [
        Outcome::WellHandled,
        Outcome::Tardy,
        Outcome::Hold,
        Outcome::Disengage,
        Outcome::Retire,
        Outcome::RallyWithElan,
        Outcome::Rally,
        Outcome::Shaken,
        Outcome::Wavering,
        Outcome::Broken,
        Outcome::Shattered,
    ];

    /// The value's name in the ruleset (and in the Rhai script).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::WellHandled => "well_handled",
            Outcome::Tardy => "tardy",
            Outcome::Hold => "hold",
            Outcome::Disengage => "disengage",
            Outcome::Retire => "retire",
            Outcome::RallyWithElan => "rally_with_elan",
            Outcome::Rally => "rally",
            Outcome::Shaken => "shaken",
            Outcome::Wavering => "wavering",
            Outcome::Broken => "broken",
            Outcome::Shattered => "shattered",
        }
    }

    /// The outcome of a name, as the Rhai script returns it.
    pub fn from_name(name: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.name() == name)
    }
}

/// What the die roll modifiers look at (`record Unit`).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)]
pub struct Unit {
    pub grade: Grade,
    #[serde(default)]
    pub leader_cp: i64,
    #[serde(default)]
    pub rear_support: bool,
    #[serde(default)]
    pub both_flanks_secure: bool,
    #[serde(default)]
    pub column_formation: bool,
    #[serde(default)]
    pub lost_percent: i64,
    #[serde(default)]
    pub being_charged: bool,
    #[serde(default)]
    pub enemy_in_charge_distance_flank_or_rear: bool,
    #[serde(default)]
    pub skirmishers: bool,
    #[serde(default)]
    pub flag_lost_or_commander_taken: bool,
    #[serde(default)]
    pub disordered: bool,
}

#[derive(Deserialize)]
struct State {
    #[allow(dead_code)]
    turn: Option<i64>,
    brigade: BTreeMap<String, Unit>,
}

/// The example state file, examples/states/furious_reason_brigade.toml of the umpire checkout
/// this crate sits in (peers/rust/../../).
pub fn state_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../examples/states/furious_reason_brigade.toml")
}

/// Reads one unit of the brigade from a Furious Reason state file.
pub fn unit_from_state(path: &Path, name: &str) -> Result<Unit, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let state: State = toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    state
        .brigade
        .get(name)
        .cloned()
        .ok_or_else(|| format!("{}: no brigade.{name}", path.display()))
}

/// The benchmarked unit: `brigade.second_foot` of the example state.
pub fn second_foot() -> Unit {
    let unit = unit_from_state(&state_path(), "second_foot").expect("the example state reads");
    assert_eq!(
        unit,
        Unit {
            grade: Grade::Line,
            leader_cp: 0,
            rear_support: false,
            both_flanks_secure: false,
            column_formation: false,
            lost_percent: 30,
            being_charged: false,
            enemy_in_charge_distance_flank_or_rear: false,
            skirmishers: false,
            flag_lost_or_commander_taken: false,
            disordered: false,
        },
        "brigade.second_foot is no longer the unit the peers were written for"
    );
    unit
}

/// `modifiers manoeuvre_drm(u: Unit)`: the sum of the unit's die roll modifiers.
#[inline]
pub fn manoeuvre_drm(u: &Unit) -> i64 {
    let mut m = 0;
    if u.leader_cp > 0 {
        m += u.leader_cp;
    }
    if u.rear_support {
        m += 1;
    }
    if u.both_flanks_secure {
        m += 1;
    }
    if u.column_formation {
        m += 1;
    }
    match u.grade {
        Grade::Grenadier => m += 1,
        Grade::Guard => m += 2,
        Grade::Militia => m -= 1,
        Grade::Line => {}
    }
    m -= u.lost_percent.div_euclid(25);
    if u.being_charged {
        m -= 1;
    }
    if u.enemy_in_charge_distance_flank_or_rear {
        m -= 1;
    }
    if u.skirmishers {
        m -= 1;
    }
    if u.flag_lost_or_commander_taken {
        m -= 1;
    }
    m
}

/// `table manoeuvre_table(order, roll)`.
#[inline]
pub fn manoeuvre_table(order: Order, roll: i64) -> Outcome {
    match order {
        Order::GoodOrder => match roll {
            7.. => Outcome::WellHandled,
            5..=6 => Outcome::Tardy,
            3..=4 => Outcome::Hold,
            1..=2 => Outcome::Disengage,
            _ => Outcome::Retire,
        },
        Order::Disorder => match roll {
            10.. => Outcome::RallyWithElan,
            7..=9 => Outcome::Rally,
            5..=6 => Outcome::Shaken,
            3..=4 => Outcome::Wavering,
            1..=2 => Outcome::Broken,
            _ => Outcome::Shattered,
        },
    }
}

/// `rule manoeuvre(u)` with the D10 given.
#[inline]
pub fn manoeuvre_with(u: &Unit, d10: i64) -> Outcome {
    let order = if u.disordered {
        Order::Disorder
    } else {
        Order::GoodOrder
    };
    manoeuvre_table(order, d10 + manoeuvre_drm(u))
}

/// `rule manoeuvre(u)`: a D10 from `rng`, plus the unit's DRM, read on its side of the table.
#[inline]
pub fn manoeuvre(u: &Unit, rng: &mut impl Rng) -> Outcome {
    manoeuvre_with(u, rng.gen_range(1..=10))
}

/// B2: a million manoeuvres, tallied by outcome (index `outcome as usize`).
pub fn million_manoeuvres(u: &Unit, rng: &mut impl Rng) -> [u64; 11] {
    let mut counts = [0u64; 11];
    for _ in 0..1_000_000 {
        counts[manoeuvre(u, rng) as usize] += 1;
    }
    counts
}

/// B2: a million `2d6 + drm` rolls summed; the DRM is the unit's, computed once.
pub fn million_2d6_drm(u: &Unit, rng: &mut impl Rng) -> i64 {
    let drm = manoeuvre_drm(u);
    let mut sum = 0i64;
    for _ in 0..1_000_000 {
        sum += rng.gen_range(1..=6) + rng.gen_range(1..=6) + drm;
    }
    sum
}

/// B3: the exact distribution of the manoeuvre: for each outcome, on how many of the D10's ten
/// faces it comes (so its probability is `count / 10`).
pub fn exact_manoeuvre(u: &Unit) -> [u32; 11] {
    let mut counts = [0u32; 11];
    for face in 1..=10 {
        counts[manoeuvre_with(u, face) as usize] += 1;
    }
    counts
}

/// The exact distribution the benchmarked unit must have, as `(outcome, numerator, denominator)`
/// in lowest terms: 3/10, 1/5, 1/5, 1/5, 1/10.
pub const SECOND_FOOT_DISTRIBUTION: [(Outcome, u32, u32); 5] = [
    (Outcome::WellHandled, 3, 10),
    (Outcome::Tardy, 1, 5),
    (Outcome::Hold, 1, 5),
    (Outcome::Disengage, 1, 5),
    (Outcome::Retire, 1, 10),
];

/// Checks a tally of `n` manoeuvres of the benchmarked unit against its exact distribution,
/// each outcome's frequency within `tolerance` of its probability; no other outcome may occur.
pub fn check_tally(counts: &[u64; 11], tolerance: f64) -> Result<(), String> {
    let n: u64 = counts.iter().sum();
    for o in Outcome::ALL {
        let p = SECOND_FOOT_DISTRIBUTION
            .iter()
            .find(|(x, _, _)| *x == o)
            .map_or(0.0, |&(_, num, den)| f64::from(num) / f64::from(den));
        let f = counts[o as usize] as f64 / n as f64;
        if (f - p).abs() > tolerance {
            return Err(format!(
                "{}: frequency {f} against probability {p}",
                o.name()
            ));
        }
    }
    Ok(())
}

/// The Furious Reason manoeuvre as a Rhai script: the same modifiers, table and rule as the
/// ruleset. Enum values are strings (Rhai has no enums); the unit is an object map. The
/// functions are written as methods (`u.manoeuvre()`), the idiomatic way for a Rhai script
/// function to read a map without copying it: a script function's ordinary arguments are
/// passed by value (cloned), `this` is passed by reference.
pub const RHAI_RULES: &str = r#"
// modifiers manoeuvre_drm(u: Unit)
fn manoeuvre_drm() {
    let m = 0;
    if this.leader_cp > 0 { m += this.leader_cp; }                 // Attached Leader
    if this.rear_support { m += 1; }                                // Rear Support
    if this.both_flanks_secure { m += 1; }                          // Both Flanks Secure
    if this.column_formation { m += 1; }                            // Column Formation
    if this.grade == "grenadier" { m += 1; }                        // Grenadier Class
    if this.grade == "guard" { m += 2; }                            // Guard Class
    if this.grade == "militia" { m -= 1; }                          // Militia Class
    m -= this.lost_percent / 25;                                    // Each 25% lost
    if this.being_charged { m -= 1; }                               // Being Charged
    if this.enemy_in_charge_distance_flank_or_rear { m -= 1; }      // Enemy in Charge Distance
    if this.skirmishers { m -= 1; }                                 // Skirmishers
    if this.flag_lost_or_commander_taken { m -= 1; }                // Flag Lost/Cdr captured
    m
}

// table manoeuvre_table(order: Order, roll: Int) -> Outcome
fn manoeuvre_table(order, roll) {
    if order == "good_order" {
        if roll >= 7 { "well_handled" }
        else if roll >= 5 { "tardy" }
        else if roll >= 3 { "hold" }
        else if roll >= 1 { "disengage" }
        else { "retire" }
    } else {
        if roll >= 10 { "rally_with_elan" }
        else if roll >= 7 { "rally" }
        else if roll >= 5 { "shaken" }
        else if roll >= 3 { "wavering" }
        else if roll >= 1 { "broken" }
        else { "shattered" }
    }
}

// rule manoeuvre(u: Unit) -> Outcome
fn manoeuvre() {
    let order = if this.disordered { "disorder" } else { "good_order" };
    manoeuvre_table(order, d10() + this.manoeuvre_drm())
}

// B2: a million manoeuvres, tallied by outcome.
fn million_manoeuvres() {
    let counts = #{};
    for i in 0..1000000 {
        let o = this.manoeuvre();
        counts[o] = (counts[o] ?? 0) + 1;
    }
    counts
}

// B2: a million 2d6 + drm rolls summed; the DRM is the unit's, computed once.
fn million_2d6_drm() {
    let drm = this.manoeuvre_drm();
    let sum = 0;
    for i in 0..1000000 {
        sum += d6() + d6() + drm;
    }
    sum
}
"#;

/// A Rhai engine with the dice registered: `d10()` and `d6()` are Rust functions drawing from
/// `rng` exactly as the native peer does (`gen_range(1..=10)`, `gen_range(1..=6)` on a ChaCha8Rng),
/// so native and Rhai see the same roll sequence from the same seed and differ only in how the
/// rules around the roll are run.
pub fn rhai_engine(rng: Rc<RefCell<ChaCha8Rng>>) -> Engine {
    let mut engine = Engine::new();
    let r10 = rng.clone();
    engine.register_fn("d10", move || -> i64 { r10.borrow_mut().gen_range(1..=10) });
    let r6 = rng;
    engine.register_fn("d6", move || -> i64 { r6.borrow_mut().gen_range(1..=6) });
    engine
}

/// The unit as a Rhai object map (enum values as their names).
pub fn unit_map(u: &Unit) -> Map {
    let mut m = Map::new();
    m.insert("grade".into(), Dynamic::from(u.grade.name().to_string()));
    m.insert("leader_cp".into(), Dynamic::from(u.leader_cp));
    m.insert("rear_support".into(), Dynamic::from(u.rear_support));
    m.insert(
        "both_flanks_secure".into(),
        Dynamic::from(u.both_flanks_secure),
    );
    m.insert("column_formation".into(), Dynamic::from(u.column_formation));
    m.insert("lost_percent".into(), Dynamic::from(u.lost_percent));
    m.insert("being_charged".into(), Dynamic::from(u.being_charged));
    m.insert(
        "enemy_in_charge_distance_flank_or_rear".into(),
        Dynamic::from(u.enemy_in_charge_distance_flank_or_rear),
    );
    m.insert("skirmishers".into(), Dynamic::from(u.skirmishers));
    m.insert(
        "flag_lost_or_commander_taken".into(),
        Dynamic::from(u.flag_lost_or_commander_taken),
    );
    m.insert("disordered".into(), Dynamic::from(u.disordered));
    m
}

/// B4: a deterministic Rhai script of at least `min_lines` lines, of the same kind of code as
/// a ruleset: blocks of a modifier sum, a two-column table (alternately as an if/else chain and
/// as a `switch` on ranges), a formation-cost table as a `switch` on names, and a rule, each
/// block with its own names and numbers. Returns the script and its line count.
pub fn generated_script(min_lines: usize) -> (String, usize) {
    let mut s = String::new();
    s.push_str("// Generated for the `rhai compile 1000 lines` bench: ruleset-like Rhai code.\n");
    let mut k = 0usize;
    while s.lines().count() < min_lines {
        let a = (k % 3) as i64 + 1; // a varying bonus
        let t = (k % 4) as i64; // a varying threshold shift
        s.push_str(&format!("\n// block {k}: modifiers, tables and a rule\n"));
        s.push_str(&format!("fn drm_{k}(u) {{\n"));
        s.push_str("    let m = 0;\n");
        s.push_str("    if u.leader_cp > 0 { m += u.leader_cp; }\n");
        s.push_str(&format!("    if u.rear_support {{ m += {a}; }}\n"));
        s.push_str("    if u.both_flanks_secure { m += 1; }\n");
        s.push_str("    if u.column_formation { m += 1; }\n");
        s.push_str(&format!(
            "    if u.grade == \"grenadier\" {{ m += {a}; }}\n"
        ));
        s.push_str(&format!(
            "    if u.grade == \"guard\" {{ m += {}; }}\n",
            a + 1
        ));
        s.push_str("    if u.grade == \"militia\" { m -= 1; }\n");
        s.push_str(&format!("    m -= u.lost_percent / {};\n", 25 + 5 * t));
        s.push_str("    if u.being_charged { m -= 1; }\n");
        s.push_str("    if u.enemy_in_charge_distance_flank_or_rear { m -= 1; }\n");
        s.push_str("    if u.skirmishers { m -= 1; }\n");
        s.push_str("    if u.flag_lost_or_commander_taken { m -= 1; }\n");
        s.push_str("    m\n");
        s.push_str("}\n");
        if k.is_multiple_of(2) {
            s.push_str(&format!("fn table_{k}(order, roll) {{\n"));
            s.push_str("    if order == \"good_order\" {\n");
            s.push_str(&format!(
                "        if roll >= {} {{ \"well_handled\" }}\n",
                7 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"tardy\" }}\n",
                5 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"hold\" }}\n",
                3 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"disengage\" }}\n",
                1 + t
            ));
            s.push_str("        else { \"retire\" }\n");
            s.push_str("    } else {\n");
            s.push_str(&format!(
                "        if roll >= {} {{ \"rally_with_elan\" }}\n",
                10 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"rally\" }}\n",
                7 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"shaken\" }}\n",
                5 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"wavering\" }}\n",
                3 + t
            ));
            s.push_str(&format!(
                "        else if roll >= {} {{ \"broken\" }}\n",
                1 + t
            ));
            s.push_str("        else { \"shattered\" }\n");
            s.push_str("    }\n");
            s.push_str("}\n");
        } else {
            s.push_str(&format!("fn table_{k}(order, roll) {{\n"));
            s.push_str("    if order == \"good_order\" {\n");
            s.push_str("        switch roll {\n");
            s.push_str(&format!(
                "            {}..=100 => \"well_handled\",\n",
                7 + t
            ));
            s.push_str(&format!(
                "            {}..={} => \"tardy\",\n",
                5 + t,
                6 + t
            ));
            s.push_str(&format!("            {}..={} => \"hold\",\n", 3 + t, 4 + t));
            s.push_str(&format!(
                "            {}..={} => \"disengage\",\n",
                1 + t,
                2 + t
            ));
            s.push_str("            _ => \"retire\"\n");
            s.push_str("        }\n");
            s.push_str("    } else {\n");
            s.push_str("        switch roll {\n");
            s.push_str(&format!(
                "            {}..=100 => \"rally_with_elan\",\n",
                10 + t
            ));
            s.push_str(&format!(
                "            {}..={} => \"rally\",\n",
                7 + t,
                9 + t
            ));
            s.push_str(&format!(
                "            {}..={} => \"shaken\",\n",
                5 + t,
                6 + t
            ));
            s.push_str(&format!(
                "            {}..={} => \"wavering\",\n",
                3 + t,
                4 + t
            ));
            s.push_str(&format!(
                "            {}..={} => \"broken\",\n",
                1 + t,
                2 + t
            ));
            s.push_str("            _ => \"shattered\"\n");
            s.push_str("        }\n");
            s.push_str("    }\n");
            s.push_str("}\n");
        }
        s.push_str(&format!(
            "fn deployment_cost_{k}(grade, rate, cavalry) {{\n"
        ));
        s.push_str("    switch grade {\n");
        s.push_str(&format!(
            "        \"militia\" => rate * {} / 4,\n",
            3 + (k % 2)
        ));
        s.push_str("        \"line\" => rate / 2,\n");
        s.push_str("        \"grenadier\" => rate / 4,\n");
        s.push_str(&format!(
            "        \"guard\" => if cavalry {{ {} }} else {{ 1 }},\n",
            2 + (k % 2)
        ));
        s.push_str("        _ => throw `no grade ${grade}`\n");
        s.push_str("    }\n");
        s.push_str("}\n");
        s.push_str(&format!("fn manoeuvre_{k}(u, d10) {{\n"));
        s.push_str("    let order = if u.disordered { \"disorder\" } else { \"good_order\" };\n");
        s.push_str(&format!("    table_{k}(order, d10 + drm_{k}(u))\n"));
        s.push_str("}\n");
        k += 1;
    }
    let lines = s.lines().count();
    (s, lines)
}
