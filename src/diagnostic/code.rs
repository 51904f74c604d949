//! Every diagnostic code, one enum: the checklist of what can go wrong.
//!
//! Each variant's doc line quotes an input that raises it (a ruleset snippet, a question,
//! a state-file line, a REPL line or a command) and says what is wrong. `tests/codes.rs`
//! checks that a case file raises every code; the few no input can reach say so here,
//! and are listed there with the reason. The stable text a user and the tests see
//! (`umpire::check::unknown_name`) is [`Code::as_str`]; code that decides by a
//! diagnostic's kind matches on the variant, never on that text.

use std::fmt;

/// A diagnostic's stable code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Code {
    // parse: reading a ruleset's or a question's text
    /// `rule r(men: Int) -> Int { let lost = men / 10 }`: a block ends without its value.
    ParseBlockValue,
    /// `column state = good_order { ... }` in a table with no key `state`: not a key.
    ParseColumn,
    /// `grid roll by odds { 1 | 2 \n 1 => AE | AR | DR }`: a row of a printed grid with
    /// more or fewer cells than its header has columns, or a grid on keys the table has not.
    ParseGrid,
    /// An `interpretation` with two readings marked `default`: which one is used unless chosen?
    ParseDefault,
    /// `die 2d6`: a ruleset's `die` line names one die, like `die d6`.
    ParseDie,
    /// `seed 1` and then `seed 2` in one `example`: a second seed.
    ParseExampleDice,
    /// `2' 14"`: the inches of a feet-and-inches length must be less than 12.
    ParseFeetInches,
    /// `1/1 2/3` or `1/2 1/2`: a fraction followed by a mixed number (never read as 3/5).
    ParseMixedAfterSlash,
    /// `99999999999999999999`: a number (or a decimal's digits) too large to hold exactly.
    ParseNumber,
    /// `rule move(rate: Length; wheeling: Bool)`: `;` ends a table's keys, and a rule has none.
    ParseParams,
    /// A row `6-3 => 1`: an empty range, its upper end below its lower.
    ParseRange,
    /// `2 ^ 100` or `(1 +`: text the grammar does not read.
    ParseSyntax,
    /// `1 24/20`: a mixed number whose fraction is not below one, in lowest terms.
    ParseUnreducedFraction,
    /// A line `3` before a block's last line: a value worked out, then dropped.
    ParseUnusedValue,
    // extend: a house rule and the ruleset it extends
    /// `extends "base.rules"` with no such file beside it: the ruleset extended cannot be read.
    ExtendBase,
    /// `extends "house.rules"` in house.rules itself: rulesets extending one another past 8 deep.
    ExtendDepth,
    /// `override rule melee(...) { ... }` in a file with no `extends`: nothing to override.
    ExtendNoBase,
    /// Raised by no input: the grammar admits after `override` only what can be overridden.
    ExtendOverride,
    /// `rule manoeuvre(...)` in a house rule of furious_reason, without `override`: it has one.
    ExtendShadow,
    /// `"militia class" -2` in `override modifiers` whose base has `"Militia Class"`: a label
    /// equal to the base's but for capitals, spaces or punctuation.
    ExtendSimilarLabel,
    /// A second `extends`, or one house rule overriding a definition, a row or a modifier twice.
    ExtendTwice,
    /// `override table movment_rate { ... }` (misspelt): the base has nothing of that name.
    ExtendUnknown,
    /// `use "kriegspiel" as move` in a ruleset whose state has a field `move`: an alias
    /// that is another name of the ruleset, or two `use`s of one alias.
    UseAlias,
    /// `use "b.rules" as b` in a.rules, and `use "a.rules" as a` in b.rules: a circle.
    UseCycle,
    /// `ks.supply_lines(...)`, kriegspiel's rule reading its own state: a used ruleset brings
    /// no state.
    UseState,
    // check: a ruleset or a question that reads but does not make sense (some only warn)
    /// `const first_order = hold`, `hold` a value of two enums: which enum's value is meant?
    CheckAmbiguous,
    /// `melee(attackers: 11, defendrs: 9, ...)`: an argument misnamed, missing, extra or misplaced.
    CheckArgument,
    /// `rule floor(n: Int) -> Int { n }`: a definition named like a built-in function.
    CheckBuiltinName,
    /// `const base_move = charge_move - 6"` and `const charge_move = base_move + 6"`: a
    /// constant made from itself.
    CheckConstCycle,
    /// `const volley = 2d6`: a constant that rolls dice (it has one value; a rule rolls afresh).
    CheckConstDice,
    /// `match a { infantry => 1 cavalry => 2 }` leaving out `artillery`: a value with no arm.
    CheckCoverage,
    /// A table of 17 true/false keys (131,072 combinations): not checked row by row (warns).
    CheckCoverageUnchecked,
    /// `rule a(n: Int) -> Int { b(n) }` and `rule b(n: Int) -> Int { a(n) }`: calls going round
    /// (a rule calling itself is marked `recursive`).
    CheckCycle,
    /// `rule f` defined twice (or a parameter, field, enum value or example): which one?
    CheckDuplicate,
    /// An `example` with both `seed 1` and `given rolls 3`: which dice?
    CheckExampleDice,
    /// `example "e" { let r = 1 }`: an example with no check in it checks nothing (a
    /// warning).
    CheckExampleEmpty,
    /// Rows `3-5`, `6 or more` and `_` on a key `ratio: Num`: 5 1/2 falls to `_` (a warning).
    CheckFractionsOtherwise,
    /// `table morale(roll: 1..10)` with no row for 1: a number the key takes that no row covers.
    CheckGap,
    /// `if raining { 4" }` as a value: it gives none when the condition is false.
    CheckIfWithoutElse,
    /// `{ formed: true }` as a `Stand`, whose `men` has no default: a record missing a field.
    CheckMissingField,
    /// A ruleset with 101 errors: after the first hundred, "... and 1 more errors".
    CheckMoreErrors,
    /// A ruleset with 101 warnings: after the first hundred, "... and 1 more warnings".
    CheckMoreWarnings,
    /// `1 die` in a ruleset with no `die d6` line: which die is meant?
    CheckNoDefaultDie,
    /// `rate(2)` where `rate` is a constant: only rules, tables and modifier lists are called.
    CheckNotCallable,
    /// `instead crossing_cost(terrain, 2d6)`: the arguments of a call asked instead roll
    /// dice (they are shown, never rolled for).
    CheckInsteadDice,
    /// `instead f(x) "again"` inside `f` itself, an `instead` inside the arguments of
    /// another, or one in a constant or a record field's default: nowhere to ask it.
    CheckInstead,
    /// `half` alone where `half` is a rule taking arguments: it needs them.
    CheckNotCalled,
    /// Rows `5-7` and `7 or more` in one column: both match 7.
    CheckOverlap,
    /// `-> (Length, Int)`: the two parts of a pair have one type.
    CheckPairType,
    /// A row `3 => 0` for a true/false key: a pattern of the wrong kind.
    CheckPattern,
    /// `{ grade: guard, lost_percent: 160 }` for a field `0..100`, or a range `10..5`: no fit.
    CheckRange,
    /// `interpret part_lot = droped` in an example: no such interpretation or reading.
    CheckReading,
    /// `record Brigade { lead: Battalion }` and `record Battalion { brigade: Brigade }`: a
    /// record holding itself.
    CheckRecordCycle,
    /// `rule countdown(n: 0..) recursive { ... countdown(n - 1) }` without `-> Int`: the
    /// call's type is what is being worked out.
    CheckRecursiveResult,
    /// `umpire check typo.rules`: the heading over a file's problems ("typo.rules: 1 error").
    CheckReport,
    /// `morale(2d6 + drm)`, `drm: 0..2`, key `roll: 2..12`: rolls of 13 and 14 would be refused.
    CheckRollOutOfRange,
    /// `manoeuvre_table(order, D10 + drm(u))` reaching 13-15, which no row covers.
    CheckRollWithoutRow,
    /// A row `cavalry => 12"` in a table of two keys: a row with the wrong number of keys.
    CheckRowKeys,
    /// `enum Move { retire "Fall Back", fall_back "Retire" }`: `"Retire"` in quotes would
    /// name either value (a warning).
    CheckSameWords,
    /// `set x = 3` where `x` is not in the game state: `set` changes only the state.
    CheckSetTarget,
    /// `_ => 1` then `2 => 2`: a row every value of which a row above takes, never read.
    CheckShadowedRow,
    /// `rule long_move(rate: Length) -> Bool { rate > 2 }`: a value of the wrong type.
    CheckType,
    /// `rule leading_arm() -> Arm { Arm }`: a type's name where a value goes.
    CheckTypeAsValue,
    /// `d + 6` where `d` is a length: arithmetic mixing a length and a number.
    CheckUnits,
    /// `u.strength` for a `Unit` without that field: an unknown field.
    CheckUnknownField,
    /// `rule f(men: Int) -> Int { mne + 1 }`: a name that is not defined.
    CheckUnknownName,
    /// `rule double(s: Speed)` with no type `Speed`: an unknown type.
    CheckUnknownType,
    /// A row `cavlry => 2` for an `Arm` key: not a value of the enum.
    CheckUnknownValue,
    /// A row `7 or more` that no roll made of the table reaches (a warning).
    CheckUnreachableRow,
    /// `enum Outcome { advance, halt }`, nothing producing or reading `halt` (a warning).
    CheckUnusedEnumValue,
    /// `let spare = men`, `spare` never used (a warning).
    CheckUnusedLet,
    /// `rule move(men: Int, unused_men: Int)` never using `unused_men` (a warning).
    CheckUnusedParameter,
    /// `if men < 5 { 0 } else { 1 }` before a block's last line: its value is dropped.
    CheckUnusedValue,
    // limit: the limits on files, lines, nesting, steps, depth and dice
    /// `forever(1)`, a `recursive` rule calling itself for ever: past `--max-depth` (100).
    LimitDepth,
    /// `1001d6`, `d0`, `dice(1, 99999999999)`: more dice or sides than the limits allow, or none.
    LimitDice,
    /// An enum of 65,536 values: more enums or enum values than a value's number holds.
    LimitEnum,
    /// A ruleset, state, scenario or log file larger than `--max-file-size` (4 MiB).
    LimitFileSize,
    /// A REPL line longer than 64 KiB, refused before it is parsed.
    LimitLine,
    /// 65 brackets `((( ... 1)))`, 65 prefix operators, 257 operators, or a state nested past 64.
    LimitNesting,
    /// An adjudication past `--max-steps` (`1 + 1` under `--max-steps 2`).
    LimitSteps,
    /// 34 rules `rule c1() { c2() }` ... without result types: more than 32 inferred in a row.
    LimitTypeChain,
    /// `record R1 { a: R0 }` ... 33 records deep: a record type nested too deep.
    LimitValueDepth,
    /// Ctrl-C during `:prob 60d6` in the REPL (or a long adjudication, or `:save`): the
    /// command is stopped, the game left as it was.
    LimitCancelled,
    // state: a state file, and changes to the state
    /// `set front = reserve` then `set front.guard.men = 0`, applied: the guard's place is gone.
    StateApply,
    /// `{"move": 2, "move": 3}` in a JSON state file: which counts?
    StateDuplicate,
    /// `turn = = 3`: a state file that is not TOML (or JSON), or holds a NUL.
    StateFormat,
    /// `[brigade."second foot"]`: a member's name that an expression cannot write.
    StateMemberName,
    /// `[brigade.second_foot]` without `grade`, which has no default: a field missing.
    StateMissingField,
    /// `lost_percent = 130` for a field `0..100`: out of its declared range.
    StateRange,
    /// `turn = "three"` for a whole number: a value of the wrong kind.
    StateType,
    /// A state file for a ruleset with no `state { ... }`: there is no state to load.
    StateUndeclared,
    /// `lost_precent = 30`: a field the record does not have.
    StateUnknownField,
    /// `grade = "lien"`: not a value of the field's enum.
    StateUnknownValue,
    // eval: adjudicating
    /// `7 / 0` (and a written fraction with 0 below the line, found when parsed).
    EvalDivisionByZero,
    /// Raised by no input: the checker refuses a field a value lacks (check::unknown_field) first.
    EvalField,
    /// `pick(3)` for `match n { 1 => "one" 2 => "two" }`: no arm covers the value.
    EvalNoMatch,
    /// `units.old_gard.men` where the state's `units` has no `old_gard`: no such member.
    EvalNoMember,
    /// `t(4)` for a table `t(roll: Int)` with rows for 1-3 only: no row matches.
    EvalNoRow,
    /// `action_time(infantry, embark)` for a table whose `men: 0.. = needed` the row read
    /// reads: the question lacks a fact it needs.
    EvalMissingArgument,
    /// `terrain_movement(marsh, infantry)` reaching a cell `instead crossing_cost(...)
    /// "..."`: the question is asked wrongly; another is to be asked instead.
    EvalAskInstead,
    /// `u.n` or a `set` with no state file loaded: the game state is needed.
    EvalNoState,
    /// Raised by no input: the checker refuses a number that may be a fraction for an `Int` first.
    EvalNotWhole,
    /// `9223372036854775807 + 1` (and a length too large, found when checked).
    EvalOverflow,
    /// `drm({ grade: guard, lost_percent: 50 + 110 })`, the field `0..100`: worked out of range.
    EvalRange,
    /// Raised by no input: a value of the wrong kind at run time is a bug in the checker.
    EvalType,
    /// Raised by no input: the checker refuses arithmetic on mismatched units (check::units) first.
    EvalUnits,
    // dice: given rolls, rolls typed at the table, and dice no one gave
    /// Rolls `7` given for `1d6`, or `11` typed at the table for a D10: not a face of the die.
    DiceBadFace,
    /// An `example` rolling `1d6` with neither `given rolls` nor `seed`: no dice to roll.
    DiceNoDice,
    /// `2d6 + 1d6` with rolls `3,4`: a die left without a roll.
    DiceTooFewRolls,
    /// `2d6` with rolls `3,4,5`: a roll left over.
    DiceTooManyRolls,
    /// `crossing_cost(marsh, infantry)` with rolls `3`: refused before the roll was used.
    DiceRefusedUnrolled,
    /// `--roll defnder_roll=3` for a question whose rolls are `attacker_roll` and
    /// `defender_roll`: no roll of that name was made.
    DiceNoSuchRoll,
    // scenario: a scenario file (`umpire run`)
    /// An `[[adjudication]]` with both `rolls = [3]` and `seed = 4`: which dice?
    ScenarioDice,
    /// `expect = '1d6'`: an expected result is written out, not rolled.
    ScenarioExpectDice,
    /// `expect = '7'` for a `melee(...)`, which gives a record: kinds that cannot be equal.
    ScenarioExpectType,
    /// An `[[adjudication]]` with no `expr`: a scenario file not of the scenario's shape.
    ScenarioFormat,
    /// `ruleset = "missing.rules"`: after the file's own error, the scenario's line naming it.
    ScenarioRuleset,
    /// `state = "missing.toml"`: after the file's own error, the scenario's line naming it.
    ScenarioState,
    // prob: the odds (`umpire prob`, the REPL's `:prob` and `:sweep`)
    /// `umpire prob kriegspiel '3d6 + 1d6' --max-dice 3`: odds past a limit are not the odds.
    ProbLimit,
    /// `umpire prob kriegspiel 2d6 --samples 0`: no samples, no estimate.
    ProbSamples,
    /// `--sweep n` (no `=`), or `:sweep` given wrong: a sweep it cannot read.
    ProbSweep,
    /// Never shown: dice with too many sums end enumeration, and `prob` samples instead.
    ProbTooLarge,
    // diff: `umpire diff`
    /// Raised by no input: the fallback for a compile error with no diagnostic in it.
    DiffExpr,
    // repl: the REPL's own commands
    /// `:dice table`, `1d6 + 1`, then the input ends (or Ctrl-C) where the die is asked for.
    ReplCancelled,
    /// `:bogus` in the REPL: no such command.
    ReplUnknownCommand,
    /// `:show bogus` in the REPL: no bundled ruleset of that name.
    ReplUnknownRuleset,
    /// In a script, `melee_on_table("a", "b", 19, 13, 0, 5)` then
    /// `melee_on_table("b", "a", 14, 12, 0, 0)`: the first melee's effects are not yet
    /// applied (`:apply` or `:drop` them first).
    ReplEffectsNotApplied,
    // replay: a game log replayed (`umpire replay`)
    /// A game log line `not json`, or a log with no `game` line.
    ReplayFormat,
    /// `{"game": {"log": 1}}`: a game line naming no ruleset (or one that does not load).
    ReplayGame,
    /// A game log whose lines carry one game's id, then another's, then the first's
    /// again: two games written into one log at once.
    ReplayMixed,
    // cli: the command line's options
    /// `dice = "players"` in `~/.config/umpire/config.toml`, or `UMPIRE_DICE=players`: no
    /// such way to roll (or a configuration file that is not TOML, or cannot be read).
    CliConfig,
    /// `umpire eval kriegspiel 1 --state garrison.toml --each u=move`: `move` is not a group.
    CliEach,
    /// `--interpret forage_part_six` (no `=READING`), or a reading the ruleset lacks.
    CliInterpret,
    /// `umpire eval no_such_ruleset 1`, or `:use no_such_ruleset`: no bundled ruleset or file.
    CliUnknownRuleset,
    /// `umpire run s.toml --write-state out.toml` for a scenario with no state: nothing to write.
    CliWriteState,
    // io: files that cannot be read or written
    /// A ruleset saved as Latin-1 (`Café` as byte 233): not UTF-8 text.
    IoEncoding,
    /// `umpire run s.toml --log s.toml`: a log goes only into a new file or a game log.
    IoLog,
    /// `:log game.log` in a second REPL while the first is logging to it: one writer per
    /// game log.
    IoLogLocked,
    /// `umpire run s.toml --write-state s.toml`, or `:save` onto the ruleset in use: a state
    /// is written over a state file only, never over a scenario, a ruleset or a game log.
    IoNotState,
    /// `umpire eval missing.rules 1`, or a folder where a file is named.
    IoRead,
    /// `--write-state .` (a folder), or `--log missing/game.log`: the file cannot be written.
    IoWrite,
    // fmt: `umpire fmt`
    /// The layout `umpire fmt` made would not read as the file does (a changed syntax
    /// tree, a comment lost or moved): the file is left as it was. A fault of the
    /// formatter, never of the ruleset.
    FmtMeaning,
    // serve: `umpire serve`, its page and its API
    /// `POST /api/adjudicate` with `{"question": 3}`, a body past 64 KiB, a question past
    /// 4 KiB, or an unknown address: a request the server cannot read.
    ServeRequest,
    /// `POST /api/apply` from the players' page, without the umpire's token: read-only.
    ServeToken,
    /// `POST /api/save` with `{"to": "../rules/house.rules"}`: a file name that leaves the
    /// state file's folder, or names a folder.
    ServePath,
    /// `POST /api/save` with `{}` on a game loaded from a state file: writing over it
    /// needs `"confirm": true`.
    ServeConfirm,
    /// `POST /api/apply` with nothing adjudicated, `POST /api/undo` at the start: what
    /// the game cannot do as things stand (the REPL says the same in its own words).
    ServeRefused,
    /// `umpire serve --port 80` without the right to, or on a port in use: cannot listen.
    ServeListen,
    // test: `umpire test`
    /// `example "double" { double(3) == 7 }`, `double(3)` giving 6: an example that does not hold.
    TestFailed,
}

impl Code {
    /// Every code, in the order above.
    pub const ALL: [Code; 149] = [
        Code::ParseBlockValue,
        Code::ParseColumn,
        Code::ParseGrid,
        Code::ParseDefault,
        Code::ParseDie,
        Code::ParseExampleDice,
        Code::ParseFeetInches,
        Code::ParseMixedAfterSlash,
        Code::ParseNumber,
        Code::ParseParams,
        Code::ParseRange,
        Code::ParseSyntax,
        Code::ParseUnreducedFraction,
        Code::ParseUnusedValue,
        Code::ExtendBase,
        Code::ExtendDepth,
        Code::ExtendNoBase,
        Code::ExtendOverride,
        Code::ExtendShadow,
        Code::ExtendSimilarLabel,
        Code::ExtendTwice,
        Code::ExtendUnknown,
        Code::UseAlias,
        Code::UseCycle,
        Code::UseState,
        Code::CheckAmbiguous,
        Code::CheckArgument,
        Code::CheckBuiltinName,
        Code::CheckConstCycle,
        Code::CheckConstDice,
        Code::CheckCoverage,
        Code::CheckCoverageUnchecked,
        Code::CheckCycle,
        Code::CheckDuplicate,
        Code::CheckExampleDice,
        Code::CheckExampleEmpty,
        Code::CheckFractionsOtherwise,
        Code::CheckGap,
        Code::CheckIfWithoutElse,
        Code::CheckMissingField,
        Code::CheckMoreErrors,
        Code::CheckMoreWarnings,
        Code::CheckNoDefaultDie,
        Code::CheckNotCallable,
        Code::CheckInsteadDice,
        Code::CheckInstead,
        Code::CheckNotCalled,
        Code::CheckOverlap,
        Code::CheckPairType,
        Code::CheckPattern,
        Code::CheckRange,
        Code::CheckReading,
        Code::CheckRecordCycle,
        Code::CheckRecursiveResult,
        Code::CheckReport,
        Code::CheckRollOutOfRange,
        Code::CheckRollWithoutRow,
        Code::CheckRowKeys,
        Code::CheckSameWords,
        Code::CheckSetTarget,
        Code::CheckShadowedRow,
        Code::CheckType,
        Code::CheckTypeAsValue,
        Code::CheckUnits,
        Code::CheckUnknownField,
        Code::CheckUnknownName,
        Code::CheckUnknownType,
        Code::CheckUnknownValue,
        Code::CheckUnreachableRow,
        Code::CheckUnusedEnumValue,
        Code::CheckUnusedLet,
        Code::CheckUnusedParameter,
        Code::CheckUnusedValue,
        Code::LimitDepth,
        Code::LimitDice,
        Code::LimitEnum,
        Code::LimitFileSize,
        Code::LimitLine,
        Code::LimitNesting,
        Code::LimitSteps,
        Code::LimitTypeChain,
        Code::LimitValueDepth,
        Code::LimitCancelled,
        Code::StateApply,
        Code::StateDuplicate,
        Code::StateFormat,
        Code::StateMemberName,
        Code::StateMissingField,
        Code::StateRange,
        Code::StateType,
        Code::StateUndeclared,
        Code::StateUnknownField,
        Code::StateUnknownValue,
        Code::EvalDivisionByZero,
        Code::EvalField,
        Code::EvalNoMatch,
        Code::EvalNoMember,
        Code::EvalNoRow,
        Code::EvalMissingArgument,
        Code::EvalAskInstead,
        Code::EvalNoState,
        Code::EvalNotWhole,
        Code::EvalOverflow,
        Code::EvalRange,
        Code::EvalType,
        Code::EvalUnits,
        Code::DiceBadFace,
        Code::DiceNoDice,
        Code::DiceTooFewRolls,
        Code::DiceTooManyRolls,
        Code::DiceRefusedUnrolled,
        Code::DiceNoSuchRoll,
        Code::ScenarioDice,
        Code::ScenarioExpectDice,
        Code::ScenarioExpectType,
        Code::ScenarioFormat,
        Code::ScenarioRuleset,
        Code::ScenarioState,
        Code::ProbLimit,
        Code::ProbSamples,
        Code::ProbSweep,
        Code::ProbTooLarge,
        Code::DiffExpr,
        Code::ReplCancelled,
        Code::ReplUnknownCommand,
        Code::ReplUnknownRuleset,
        Code::ReplEffectsNotApplied,
        Code::ReplayFormat,
        Code::ReplayGame,
        Code::CliConfig,
        Code::ReplayMixed,
        Code::CliEach,
        Code::CliInterpret,
        Code::CliUnknownRuleset,
        Code::CliWriteState,
        Code::IoEncoding,
        Code::IoLog,
        Code::IoLogLocked,
        Code::IoNotState,
        Code::IoRead,
        Code::IoWrite,
        Code::FmtMeaning,
        Code::ServeRequest,
        Code::ServeToken,
        Code::ServePath,
        Code::ServeConfirm,
        Code::ServeRefused,
        Code::ServeListen,
        Code::TestFailed,
    ];

    /// The stable text, e.g. `umpire::check::unknown_name`.
    pub fn as_str(self) -> &'static str {
        match self {
            Code::ParseBlockValue => "umpire::parse::block_value",
            Code::ParseColumn => "umpire::parse::column",
            Code::ParseGrid => "umpire::parse::grid",
            Code::ParseDefault => "umpire::parse::default",
            Code::ParseDie => "umpire::parse::die",
            Code::ParseExampleDice => "umpire::parse::example_dice",
            Code::ParseFeetInches => "umpire::parse::feet_inches",
            Code::ParseMixedAfterSlash => "umpire::parse::mixed_after_slash",
            Code::ParseNumber => "umpire::parse::number",
            Code::ParseParams => "umpire::parse::params",
            Code::ParseRange => "umpire::parse::range",
            Code::ParseSyntax => "umpire::parse::syntax",
            Code::ParseUnreducedFraction => "umpire::parse::unreduced_fraction",
            Code::ParseUnusedValue => "umpire::parse::unused_value",
            Code::ExtendBase => "umpire::extend::base",
            Code::ExtendDepth => "umpire::extend::depth",
            Code::ExtendNoBase => "umpire::extend::no_base",
            Code::ExtendOverride => "umpire::extend::override",
            Code::ExtendShadow => "umpire::extend::shadow",
            Code::ExtendSimilarLabel => "umpire::extend::similar_label",
            Code::ExtendTwice => "umpire::extend::twice",
            Code::ExtendUnknown => "umpire::extend::unknown",
            Code::UseAlias => "umpire::extend::use_alias",
            Code::UseCycle => "umpire::extend::use_cycle",
            Code::UseState => "umpire::extend::use_state",
            Code::CheckAmbiguous => "umpire::check::ambiguous",
            Code::CheckArgument => "umpire::check::argument",
            Code::CheckBuiltinName => "umpire::check::builtin_name",
            Code::CheckConstCycle => "umpire::check::const_cycle",
            Code::CheckConstDice => "umpire::check::const_dice",
            Code::CheckCoverage => "umpire::check::coverage",
            Code::CheckCoverageUnchecked => "umpire::check::coverage_unchecked",
            Code::CheckCycle => "umpire::check::cycle",
            Code::CheckDuplicate => "umpire::check::duplicate",
            Code::CheckExampleDice => "umpire::check::example_dice",
            Code::CheckExampleEmpty => "umpire::check::example_empty",
            Code::CheckFractionsOtherwise => "umpire::check::fractions_otherwise",
            Code::CheckGap => "umpire::check::gap",
            Code::CheckIfWithoutElse => "umpire::check::if_without_else",
            Code::CheckMissingField => "umpire::check::missing_field",
            Code::CheckMoreErrors => "umpire::check::more_errors",
            Code::CheckMoreWarnings => "umpire::check::more_warnings",
            Code::CheckNoDefaultDie => "umpire::check::no_default_die",
            Code::CheckNotCallable => "umpire::check::not_callable",
            Code::CheckInsteadDice => "umpire::check::instead_dice",
            Code::CheckInstead => "umpire::check::instead",
            Code::CheckNotCalled => "umpire::check::not_called",
            Code::CheckOverlap => "umpire::check::overlap",
            Code::CheckPairType => "umpire::check::pair_type",
            Code::CheckPattern => "umpire::check::pattern",
            Code::CheckRange => "umpire::check::range",
            Code::CheckReading => "umpire::check::reading",
            Code::CheckRecordCycle => "umpire::check::record_cycle",
            Code::CheckRecursiveResult => "umpire::check::recursive_result",
            Code::CheckReport => "umpire::check::report",
            Code::CheckRollOutOfRange => "umpire::check::roll_out_of_range",
            Code::CheckRollWithoutRow => "umpire::check::roll_without_row",
            Code::CheckRowKeys => "umpire::check::row_keys",
            Code::CheckSameWords => "umpire::check::same_words",
            Code::CheckSetTarget => "umpire::check::set_target",
            Code::CheckShadowedRow => "umpire::check::shadowed_row",
            Code::CheckType => "umpire::check::type",
            Code::CheckTypeAsValue => "umpire::check::type_as_value",
            Code::CheckUnits => "umpire::check::units",
            Code::CheckUnknownField => "umpire::check::unknown_field",
            Code::CheckUnknownName => "umpire::check::unknown_name",
            Code::CheckUnknownType => "umpire::check::unknown_type",
            Code::CheckUnknownValue => "umpire::check::unknown_value",
            Code::CheckUnreachableRow => "umpire::check::unreachable_row",
            Code::CheckUnusedEnumValue => "umpire::check::unused_enum_value",
            Code::CheckUnusedLet => "umpire::check::unused_let",
            Code::CheckUnusedParameter => "umpire::check::unused_parameter",
            Code::CheckUnusedValue => "umpire::check::unused_value",
            Code::LimitDepth => "umpire::limit::depth",
            Code::LimitDice => "umpire::limit::dice",
            Code::LimitEnum => "umpire::limit::enum",
            Code::LimitFileSize => "umpire::limit::file_size",
            Code::LimitLine => "umpire::limit::line",
            Code::LimitNesting => "umpire::limit::nesting",
            Code::LimitSteps => "umpire::limit::steps",
            Code::LimitTypeChain => "umpire::limit::type_chain",
            Code::LimitValueDepth => "umpire::limit::value_depth",
            Code::LimitCancelled => "umpire::limit::cancelled",
            Code::StateApply => "umpire::state::apply",
            Code::StateDuplicate => "umpire::state::duplicate",
            Code::StateFormat => "umpire::state::format",
            Code::StateMemberName => "umpire::state::member_name",
            Code::StateMissingField => "umpire::state::missing_field",
            Code::StateRange => "umpire::state::range",
            Code::StateType => "umpire::state::type",
            Code::StateUndeclared => "umpire::state::undeclared",
            Code::StateUnknownField => "umpire::state::unknown_field",
            Code::StateUnknownValue => "umpire::state::unknown_value",
            Code::EvalDivisionByZero => "umpire::eval::division_by_zero",
            Code::EvalField => "umpire::eval::field",
            Code::EvalNoMatch => "umpire::eval::no_match",
            Code::EvalNoMember => "umpire::eval::no_member",
            Code::EvalNoRow => "umpire::eval::no_row",
            Code::EvalMissingArgument => "umpire::eval::missing_argument",
            Code::EvalAskInstead => "umpire::eval::ask_instead",
            Code::EvalNoState => "umpire::eval::no_state",
            Code::EvalNotWhole => "umpire::eval::not_whole",
            Code::EvalOverflow => "umpire::eval::overflow",
            Code::EvalRange => "umpire::eval::range",
            Code::EvalType => "umpire::eval::type",
            Code::EvalUnits => "umpire::eval::units",
            Code::DiceBadFace => "umpire::dice::bad_face",
            Code::DiceNoDice => "umpire::dice::no_dice",
            Code::DiceTooFewRolls => "umpire::dice::too_few_rolls",
            Code::DiceTooManyRolls => "umpire::dice::too_many_rolls",
            Code::DiceRefusedUnrolled => "umpire::dice::refused_unrolled",
            Code::DiceNoSuchRoll => "umpire::dice::no_such_roll",
            Code::ScenarioDice => "umpire::scenario::dice",
            Code::ScenarioExpectDice => "umpire::scenario::expect_dice",
            Code::ScenarioExpectType => "umpire::scenario::expect_type",
            Code::ScenarioFormat => "umpire::scenario::format",
            Code::ScenarioRuleset => "umpire::scenario::ruleset",
            Code::ScenarioState => "umpire::scenario::state",
            Code::ProbLimit => "umpire::prob::limit",
            Code::ProbSamples => "umpire::prob::samples",
            Code::ProbSweep => "umpire::prob::sweep",
            Code::ProbTooLarge => "umpire::prob::too_large",
            Code::DiffExpr => "umpire::diff::expr",
            Code::ReplCancelled => "umpire::repl::cancelled",
            Code::ReplUnknownCommand => "umpire::repl::unknown_command",
            Code::ReplUnknownRuleset => "umpire::repl::unknown_ruleset",
            Code::ReplEffectsNotApplied => "umpire::repl::effects_not_applied",
            Code::ReplayFormat => "umpire::replay::format",
            Code::ReplayGame => "umpire::replay::game",
            Code::CliConfig => "umpire::cli::config",
            Code::ReplayMixed => "umpire::replay::mixed",
            Code::CliEach => "umpire::cli::each",
            Code::CliInterpret => "umpire::cli::interpret",
            Code::CliUnknownRuleset => "umpire::cli::unknown_ruleset",
            Code::CliWriteState => "umpire::cli::write_state",
            Code::IoEncoding => "umpire::io::encoding",
            Code::IoLog => "umpire::io::log",
            Code::IoLogLocked => "umpire::io::log_locked",
            Code::IoNotState => "umpire::io::not_state",
            Code::IoRead => "umpire::io::read",
            Code::IoWrite => "umpire::io::write",
            Code::FmtMeaning => "umpire::fmt::meaning",
            Code::ServeRequest => "umpire::serve::request",
            Code::ServeToken => "umpire::serve::token",
            Code::ServePath => "umpire::serve::path",
            Code::ServeConfirm => "umpire::serve::confirm",
            Code::ServeRefused => "umpire::serve::refused",
            Code::ServeListen => "umpire::serve::listen",
            Code::TestFailed => "umpire::test::failed",
        }
    }

    /// The phase or part of umpire that raises it (the middle of the code).
    pub fn phase(self) -> Phase {
        match self {
            Code::ParseBlockValue
            | Code::ParseColumn
            | Code::ParseGrid
            | Code::ParseDefault
            | Code::ParseDie
            | Code::ParseExampleDice
            | Code::ParseFeetInches
            | Code::ParseMixedAfterSlash
            | Code::ParseNumber
            | Code::ParseParams
            | Code::ParseRange
            | Code::ParseSyntax
            | Code::ParseUnreducedFraction
            | Code::ParseUnusedValue => Phase::Parse,
            Code::ExtendBase
            | Code::ExtendDepth
            | Code::ExtendNoBase
            | Code::ExtendOverride
            | Code::ExtendShadow
            | Code::ExtendSimilarLabel
            | Code::ExtendTwice
            | Code::ExtendUnknown
            | Code::UseAlias
            | Code::UseCycle
            | Code::UseState => Phase::Extend,
            Code::CheckAmbiguous
            | Code::CheckArgument
            | Code::CheckBuiltinName
            | Code::CheckConstCycle
            | Code::CheckConstDice
            | Code::CheckCoverage
            | Code::CheckCoverageUnchecked
            | Code::CheckCycle
            | Code::CheckDuplicate
            | Code::CheckExampleDice
            | Code::CheckExampleEmpty
            | Code::CheckFractionsOtherwise
            | Code::CheckGap
            | Code::CheckIfWithoutElse
            | Code::CheckMissingField
            | Code::CheckMoreErrors
            | Code::CheckMoreWarnings
            | Code::CheckNoDefaultDie
            | Code::CheckNotCallable
            | Code::CheckInsteadDice
            | Code::CheckInstead
            | Code::CheckNotCalled
            | Code::CheckOverlap
            | Code::CheckPairType
            | Code::CheckPattern
            | Code::CheckRange
            | Code::CheckReading
            | Code::CheckRecordCycle
            | Code::CheckRecursiveResult
            | Code::CheckReport
            | Code::CheckRollOutOfRange
            | Code::CheckRollWithoutRow
            | Code::CheckRowKeys
            | Code::CheckSameWords
            | Code::CheckSetTarget
            | Code::CheckShadowedRow
            | Code::CheckType
            | Code::CheckTypeAsValue
            | Code::CheckUnits
            | Code::CheckUnknownField
            | Code::CheckUnknownName
            | Code::CheckUnknownType
            | Code::CheckUnknownValue
            | Code::CheckUnreachableRow
            | Code::CheckUnusedEnumValue
            | Code::CheckUnusedLet
            | Code::CheckUnusedParameter
            | Code::CheckUnusedValue => Phase::Check,
            Code::LimitDepth
            | Code::LimitDice
            | Code::LimitEnum
            | Code::LimitFileSize
            | Code::LimitLine
            | Code::LimitNesting
            | Code::LimitSteps
            | Code::LimitTypeChain
            | Code::LimitValueDepth
            | Code::LimitCancelled => Phase::Limit,
            Code::StateApply
            | Code::StateDuplicate
            | Code::StateFormat
            | Code::StateMemberName
            | Code::StateMissingField
            | Code::StateRange
            | Code::StateType
            | Code::StateUndeclared
            | Code::StateUnknownField
            | Code::StateUnknownValue => Phase::State,
            Code::EvalDivisionByZero
            | Code::EvalField
            | Code::EvalNoMatch
            | Code::EvalNoMember
            | Code::EvalNoRow
            | Code::EvalMissingArgument
            | Code::EvalAskInstead
            | Code::EvalNoState
            | Code::EvalNotWhole
            | Code::EvalOverflow
            | Code::EvalRange
            | Code::EvalType
            | Code::EvalUnits => Phase::Eval,
            Code::DiceBadFace
            | Code::DiceNoDice
            | Code::DiceTooFewRolls
            | Code::DiceTooManyRolls
            | Code::DiceRefusedUnrolled
            | Code::DiceNoSuchRoll => Phase::Dice,
            Code::ScenarioDice
            | Code::ScenarioExpectDice
            | Code::ScenarioExpectType
            | Code::ScenarioFormat
            | Code::ScenarioRuleset
            | Code::ScenarioState => Phase::Scenario,
            Code::ProbLimit | Code::ProbSamples | Code::ProbSweep | Code::ProbTooLarge => {
                Phase::Prob
            }
            Code::DiffExpr => Phase::Diff,
            Code::ReplCancelled
            | Code::ReplUnknownCommand
            | Code::ReplUnknownRuleset
            | Code::ReplEffectsNotApplied => Phase::Repl,
            Code::ReplayFormat | Code::ReplayGame | Code::ReplayMixed => Phase::Replay,
            Code::CliConfig
            | Code::CliEach
            | Code::CliInterpret
            | Code::CliUnknownRuleset
            | Code::CliWriteState => Phase::Cli,
            Code::IoEncoding
            | Code::IoLog
            | Code::IoLogLocked
            | Code::IoNotState
            | Code::IoRead
            | Code::IoWrite => Phase::Io,
            Code::FmtMeaning => Phase::Fmt,
            Code::ServeRequest
            | Code::ServeToken
            | Code::ServePath
            | Code::ServeConfirm
            | Code::ServeRefused
            | Code::ServeListen => Phase::Serve,
            Code::TestFailed => Phase::Test,
        }
    }
}

/// The part of umpire a code belongs to: the middle of `umpire::check::unknown_name`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// `umpire::parse::…`
    Parse,
    /// `umpire::extend::…`
    Extend,
    /// `umpire::check::…`
    Check,
    /// `umpire::limit::…`
    Limit,
    /// `umpire::state::…`
    State,
    /// `umpire::eval::…`
    Eval,
    /// `umpire::dice::…`
    Dice,
    /// `umpire::scenario::…`
    Scenario,
    /// `umpire::prob::…`
    Prob,
    /// `umpire::diff::…`
    Diff,
    /// `umpire::repl::…`
    Repl,
    /// `umpire::replay::…`
    Replay,
    /// `umpire::cli::…`
    Cli,
    /// `umpire::io::…`
    Io,
    /// `umpire::fmt::…`
    Fmt,
    /// `umpire::serve::…`
    Serve,
    /// `umpire::test::…`
    Test,
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl serde::Serialize for Code {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}
