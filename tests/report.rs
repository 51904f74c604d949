//! `umpire report LOG`: a game log, kept by `umpire run --log` or the REPL's `:log`, told
//! as a turn-by-turn account, every result in the rulebook's words.

mod common;

use common::{in_order, root, stderr, stdout, umpire_in, Scratch};
use std::path::{Path, PathBuf};

fn examples() -> PathBuf {
    root().join("examples")
}

/// The scenario run with `--log`, then the log reported: the report's text.
fn report_of(scenario: &str, format: &str) -> String {
    let dir = Scratch::new(scenario);
    let path = examples().join(format!("{scenario}.toml"));
    let log = dir.join("game.log");
    let (path, log) = (path.to_string_lossy(), log.to_string_lossy());
    let run = umpire_in(&dir, &["run", &path, "--log", &log], "");
    assert!(run.status.success(), "{}", stderr(&run));
    report(&dir, &log, &["--format", format])
}

/// `umpire report LOG MORE` in `dir`: the report's text.
fn report(dir: &Path, log: &str, more: &[&str]) -> String {
    let o = umpire_in(dir, &[&["report", log], more].concat(), "");
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

/// The numbered entries that are results (not the applies of their effects).
fn results(text: &str) -> usize {
    text.lines()
        .filter(|l| {
            let num = l.split_once(". ").map(|(n, _)| n.parse::<u32>().is_ok());
            num == Some(true) && !l.contains("applied the effects of")
        })
        .count()
}

/// The number of adjudications a scenario lists.
fn adjudications(scenario: &str) -> usize {
    let text =
        std::fs::read_to_string(examples().join(format!("{scenario}.toml"))).expect("the scenario");
    text.matches("[[adjudication]]").count()
}

#[test]
fn every_bundled_scenario_reports_every_result_in_words() {
    // Each scenario's expected outcomes (its `expect` lines), in the rulebook's words:
    // the Manoeuvre Table's results with their sentences, Wells's melee counts, the
    // Kriegspiel's packets and moves, the horse-and-musket lengths and refusals.
    let cases: &[(&str, &[&str])] = &[
        (
            "furious_reason_turn",
            &[
                "Turn 3",
                "guard_grenadiers: manoeuvre(brigade.guard_grenadiers)",
                "dice: D10 → 3, given",
                "Well Handled — Unit may move at Full Move Rate",
                "second_foot: manoeuvre(brigade.second_foot)",
                "dice: D10 → 6, given",
                "Tardy — Unit may move at 1/2 Full Move Rate",
                "county_militia: manoeuvre(brigade.county_militia)",
                "Rally — Unit rallies in good order, may move at 1/2",
                "grenadiers: manoeuvre(brigade.grenadiers)",
                "Hold — Unit cannot move or change Formation",
            ],
        ),
        (
            "horse_and_musket_turn",
            &[
                "1 3/4\"",
                "4\"",
                "refused: an extended line or skirmish line must spend at least one half a turn in line before forming attack column",
                "{ reaches: false, moved: 12\" }",
                "true",
                "dice: d12 → 8, given",
                "not given in the source: the Forced March Chart",
                "0\"",
            ],
        ),
        (
            // The hussars pass the river, the guns are refused at it; the first foot's
            // supplies fail move by move until it is out of action at the sixth.
            "kriegspiel_field",
            &[
                "hussars: cross_river(\"hussars\")\n   1 move\n   effect: bodies.hussars.across_river: false → true",
                "guns: cross_river(\"guns\")\n   refused: Rivers are impassable to guns",
                "effect: bodies.first_foot.ammunition: true → false",
                "first_foot: body_may_fire(bodies.first_foot)\n   false",
                "refused: Infantry, cavalry, R.A., and R.E. cannot move without supply",
                "effect: bodies.first_foot.moves_without_supply: 5 → 6",
                "first_foot: body_out_of_action(bodies.first_foot)\n   true",
                "not given in the source: the appendix does not say whether supplies bring a body out of action back into action",
                "effect: bodies.second_foot.ammunition: false → true",
                "second_foot: body_may_move(bodies.second_foot)\n   true",
            ],
        ),
        (
            "kriegspiel_readings",
            &[
                "readings part_lot = fractions_rule, forage_part_six = fractions_rule",
                "forage_packets(14)\n   2\n",
                "forage_packets(15)\n   3\n",
                "action_time(infantry, embark, men: 25)\n   2 moves\n",
            ],
        ),
        (
            "kriegspiel_siege",
            &[
                "Move 1",
                "victual()\n   0\n   effect: garrison.food: 2 → 0\n   effect: garrison.forage: 2 → 1",
                "applied the effects of victual()",
                "pass_moves(6)\n   7\n   effect: move: 1 → 7",
                "Move 7",
                "effect: garrison.horses: 3 → 1\n   effect: garrison.forage: 1 → 0",
                "Move 13",
                "garrison_must_surrender()\n   false",
                "victual()\n   1\n",
                "effect: garrison.last_horse_eaten_on: 0 → 13",
                "Move 16",
                "garrison_must_surrender()\n   false",
                "Move 17",
                "garrison_must_surrender()\n   true",
                "{ men: 60, horses: 0, food: 0, forage: 0, last_horse_eaten_on: 13 }",
            ],
        ),
        (
            "kriegspiel_supply",
            &[
                "food_packets(men: 46, isolated: false)\n   2\n",
                "food_packets(men: 44, isolated: false)\n   1\n",
                "ammunition_packets(infantry: 46, isolated: false)\n   2\n",
                "\n   0\n",
                "refused: Rivers are impassable to guns",
                "action_time(infantry, embark, men: 60)\n   6 moves\n",
            ],
        ),
        (
            "little_wars_melee",
            &[
                "{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 2 }",
                "{ attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }",
                "{ attacker_killed: 10, defender_killed: 10, attacker_prisoners: 0, defender_prisoners: 2 }",
                "escorts_needed(prisoners: 2)\n   1\n",
                "{ attacker_killed: 8, defender_killed: 8, attacker_prisoners: 0, defender_prisoners: 0 }",
            ],
        ),
        (
            // Forty-six men, two packets; eight horses by the fractions rule, one; the
            // used ruleset's reading named by its alias.
            "little_wars_supplied",
            &[
                "ks.forage_part_six = fractions_rule",
                "rations(46)\n   2\n",
                "forage(8)\n   1",
            ],
        ),
        (
            "little_wars_two_melees",
            &[
                "a, b: melee_on_table(attacker: \"a\", defender: \"b\"",
                "effect: sides.a.free: 19 → 12",
                "applied the effects of melee_on_table(attacker: \"a\"",
                "b, a: melee_on_table(attacker: \"b\", defender: \"a\"",
                "{ attacker_killed: 10, defender_killed: 10, attacker_prisoners: 0, defender_prisoners: 2 }",
                "b, a: recapture(side: \"b\", captor: \"a\")\n   6\n",
                "b: detail_escorts(side: \"b\")\n   1\n",
                "a: sides.a\n   { free: 0, dead: 17, prisoners_held: 0, escorts: 0, released: 0 }",
                "b: sides.b\n   { free: 3, dead: 17, prisoners_held: 2, escorts: 1, released: 6 }",
            ],
        ),
    ];
    let mut scenarios: Vec<String> = std::fs::read_dir(examples())
        .expect("examples/")
        .filter_map(|e| {
            let p = e.ok()?.path();
            let stem = p.file_stem()?.to_string_lossy().into_owned();
            (p.extension()? == "toml").then_some(stem)
        })
        .collect();
    scenarios.sort();
    let named: Vec<&str> = cases.iter().map(|c| c.0).collect();
    assert_eq!(scenarios, named, "a case for each bundled scenario");
    for (scenario, lines) in cases {
        let text = report_of(scenario, "text");
        in_order(&text, lines);
        assert_eq!(
            results(&text),
            adjudications(scenario),
            "one result for each adjudication of {scenario}:\n{text}"
        );
    }
}

/// A REPL session logged with `:log`: a melee, its effects applied, the move counted on
/// by hand, a change by hand taken back, then a question at the new move.
fn repl_log(dir: &Scratch) -> String {
    let state = examples().join("states/little_wars_table.toml");
    let script = ":log game.log\n\
        melee_on_table(attacker: \"a\", defender: \"b\", attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)\n\
        :apply\n\
        :set move += 1\n\
        :set sides.b.free = 20\n\
        :undo\n\
        escorts_needed(prisoners: 2)\n\
        \"<script>alert(1)</script>\"\n";
    let o = umpire_in(
        dir,
        &["repl", "little_wars", "--state", &state.to_string_lossy()],
        script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    dir.join("game.log").to_string_lossy().into_owned()
}

#[test]
fn a_logged_repl_session_shows_the_effects_and_leaves_out_what_was_undone() {
    let dir = Scratch::new("repl");
    let text = report(&dir, &repl_log(&dir), &[]);
    in_order(
        &text,
        &[
            "Move 1\n",
            "1. a, b: melee_on_table(attacker: \"a\", defender: \"b\", attackers: 19, defenders: 13, attacker_support: 0, defender_support: 5)\n",
            "   { attacker_killed: 7, defender_killed: 7, attacker_prisoners: 0, defender_prisoners: 6 }\n",
            "   effect: sides.a.free: 19 → 12\n",
            "2. a, b: applied the effects of melee_on_table(",
            "3. :set move += 1\n   effect: move: 1 → 2\n",
            "Move 2\n",
            "4. escorts_needed(prisoners: 2)\n   1\n",
        ],
    );
    assert!(!text.contains("sides.b.free = 20"), "{text}");
    assert!(!text.contains("14 → 20"), "{text}");
}

#[test]
fn markdown_has_a_heading_per_turn_and_strikes_what_was_undone() {
    let dir = Scratch::new("markdown");
    let text = report(&dir, &repl_log(&dir), &["--format", "markdown"]);
    in_order(
        &text,
        &[
            "## Move 1\n",
            "- **1.** a, b: `melee_on_table(attacker: \"a\"",
            "  - effect: sides.a.free: 19 → 12\n",
            "- **3.** `:set move += 1`\n",
            "## Move 2\n",
            "- ~~b: `:set sides.b.free = 20`~~ (taken back)\n",
            "  - ~~effect: sides.b.free: 14 → 20~~ (taken back)\n",
            "- **4.** `escorts_needed(prisoners: 2)`\n  - 1\n",
        ],
    );
}

#[test]
fn html_is_one_page_every_text_escaped_nothing_loaded_from_elsewhere() {
    let dir = Scratch::new("html");
    let page = report(&dir, &repl_log(&dir), &["--format", "html"]);
    assert!(page.starts_with("<!DOCTYPE html>\n"), "{page}");
    assert!(page.ends_with("</html>\n"), "{page}");
    // The question and its value both held `<script>`: only escaped.
    assert!(!page.to_lowercase().contains("<script"), "{page}");
    assert_eq!(
        page.matches("&lt;script&gt;alert(1)&lt;/script&gt;")
            .count(),
        2,
        "{page}"
    );
    for outside in [
        "src=", "href=", "http:", "https:", "<link", "@import", "url(",
    ] {
        assert!(!page.contains(outside), "`{outside}` in {page}");
    }
    in_order(
        &page,
        &[
            "<h2>Move 1</h2>",
            "<span class=\"who\">a, b</span>: <code>melee_on_table(attacker: &quot;a&quot;",
            "<li>effect: sides.a.free: 19 → 12</li>",
            "<h2>Move 2</h2>",
            "<li class=\"undone\"><del><span class=\"who\">b</span>: <code>:set sides.b.free = 20</code></del> (taken back)",
            "<li><del>effect: sides.b.free: 14 → 20</del></li>",
        ],
    );
}

#[test]
fn a_bad_log_is_an_error_naming_its_line() {
    let dir = Scratch::new("bad");
    let game =
        std::fs::read_to_string(examples().join("little_wars_melee.toml")).expect("a scenario");
    let cases: &[(&str, String, &str)] = &[
        (
            "notjson.log",
            "{\"game\": {\"ruleset\": \"little_wars\", \"dice\": {\"table\": true}}}\nnot json\n"
                .into(),
            "notjson.log:2: not a game log: expected ident",
        ),
        (
            "scenario.toml",
            game,
            "scenario.toml:1: not a game log: expected value",
        ),
        (
            "nogame.log",
            "{\"expr\": \"1\"}\n".into(),
            "nogame.log:1: not a game log: its first line is not a `game` line",
        ),
        ("empty.log", String::new(), "empty.log: an empty game log"),
    ];
    for (name, text, said) in cases {
        std::fs::write(dir.join(name), text).expect("written");
        let o = umpire_in(&dir, &["report", name], "");
        assert_eq!(o.status.code(), Some(1), "{name}");
        assert!(stderr(&o).contains(said), "{name}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{}", stderr(&o));
        assert!(stdout(&o).is_empty());
    }
    std::fs::write(dir.join("big.log"), "x".repeat(100)).expect("written");
    let o = umpire_in(&dir, &["report", "big.log", "--max-file-size", "10"], "");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("big.log"), "{}", stderr(&o));
}

/// A REPL session logged with `repl --log` holding every kind of line a game log has
/// (`game`, `expr`, `drop`, `undo`, `redo`, `apply`, `set`, `load`): a melee whose
/// effects are dropped (the drop taken back and done again), the melee again typed over
/// two lines and applied, the move counted on, a state loaded and taken back (to move 1
/// and back to 2), a question.
fn every_kind_log(dir: &Scratch) -> String {
    let state = examples().join("states/little_wars_table.toml");
    let state = state.to_string_lossy();
    let script = format!(
        "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)\n\
        :drop\n\
        :undo\n\
        :redo\n\
        melee_on_table(\"a\", \"b\",\n   19, 13, 0, 5)\n\
        :apply\n\
        :set move += 1\n\
        :load {state}\n\
        :undo!\n\
        escorts_needed(prisoners: 2)\n"
    );
    let o = umpire_in(
        dir,
        &[
            "repl",
            "little_wars",
            "--state",
            &state,
            "--log",
            "game.log",
        ],
        &script,
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let log = dir.join("game.log");
    let text = std::fs::read_to_string(&log).expect("the log");
    let kinds: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter_map(|l| {
            let m = l.as_object()?;
            [
                "game", "expr", "set", "apply", "drop", "load", "undo", "redo",
            ]
            .into_iter()
            .find(|k| m.contains_key(*k))
            .map(str::to_string)
        })
        .collect();
    for kind in [
        "game", "expr", "set", "apply", "drop", "load", "undo", "redo",
    ] {
        assert!(kinds.iter().any(|k| k == kind), "no `{kind}` line: {text}");
    }
    log.to_string_lossy().into_owned()
}

#[test]
fn every_kind_of_log_line_is_reported_in_every_format() {
    let dir = Scratch::new("every-kind");
    let log = every_kind_log(&dir);
    let run = |format: &str| {
        let o = umpire_in(&dir, &["report", &log, "--format", format], "");
        assert!(o.status.success(), "{format}: {}", stderr(&o));
        stdout(&o)
    };
    let melee = "melee_on_table(\"a\", \"b\", 19, 13, 0, 5)";
    let text = run("text");
    in_order(
        &text,
        &[
            "Move 1\n",
            &format!("1. a, b: {melee}\n"),
            "   effect (not applied): sides.a.free: 19 → 12\n",
            &format!("2. a, b: the effects of {melee} were dropped: not applied\n"),
            // Typed over two lines, told on one; its effects applied.
            &format!("3. a, b: {melee}\n"),
            "   effect: sides.a.free: 19 → 12\n",
            &format!("4. a, b: applied the effects of {melee}\n"),
            "5. :set move += 1\n",
            "Move 2\n",
            "6. escorts_needed(prisoners: 2)\n",
        ],
    );
    // The state loaded at move 1 was taken back: one heading for move 2, not two.
    assert_eq!(text.matches("Move 2\n").count(), 1, "{text}");
    assert_eq!(text.matches("not applied").count(), 6, "{text}");
    let md = run("markdown");
    in_order(
        &md,
        &[
            "## Move 1\n",
            "  - effect (not applied): sides.a.free: 19 → 12\n",
            "- **2.** a, b: the effects of `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)` were dropped: not applied\n",
            "- **3.** a, b: `melee_on_table(\"a\", \"b\", 19, 13, 0, 5)`\n",
            "  - effect: sides.a.free: 19 → 12\n",
            "~~*State loaded from ",
            "- **6.** `escorts_needed(prisoners: 2)`\n",
        ],
    );
    let page = run("html");
    in_order(
        &page,
        &[
            "<li>effect (not applied): sides.a.free: 19 → 12</li>",
            "<code>melee_on_table(&quot;a&quot;, &quot;b&quot;, 19, 13, 0, 5)</code> were dropped: not applied",
            "<code>melee_on_table(&quot;a&quot;, &quot;b&quot;, 19, 13, 0, 5)</code>",
            "<li>effect: sides.a.free: 19 → 12</li>",
        ],
    );
}
