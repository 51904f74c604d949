//! `umpire lsp`'s navigation driven as an editor drives it: hover, go to definition,
//! find references, rename and the outline, on small rulesets written here and on the
//! bundled ones. What each answer should hold is reasoned from the texts sent (and, for
//! the dice, from dice arithmetic).

#[path = "lsp/client.rs"]
mod client;
mod common;

use client::{file_uri, span_of, Client};
use common::Scratch;
use serde_json::{json, Value};

/// A small ruleset that checks clean: an enum with display texts and a sentence, a
/// table with a doc comment and a citation, a record, a rule with a `let`, a modifier
/// list, dice, an example.
const PROBE: &str = r#"ruleset "Probe"
die d6
enum Arm cite "Arms" {
  infantry "Infantry" "Foot soldiers",
  cavalry "Cavalry",
}
enum Action { march, charge }
# How long a move takes.
# In moves.
table move_time(arm: Arm, action: Action; men: Int = 0) -> Time cite "Move table" {
  infantry | march => 1 move
  _        | _     => 2 moves
}
record Unit { arm: Arm, men: Int }
rule slow(u: Unit) -> Time {
  let t = move_time(u.arm, march)
  t
}
modifiers drm(u: Unit) { "Big" +1 if u.men > 10 }
rule roll() -> Int { 2d6 + 1 die }
example "slow foot" { slow({ arm: infantry, men: 3 }) == 1 move }
"#;

/// The (line, character) of the start of the `nth` (0-based) `word` in `text` (ASCII
/// texts: a character is a UTF-16 unit), moved `into` characters into it.
fn pos(text: &str, word: &str, nth: usize, into: u64) -> (u64, u64) {
    let at = text
        .match_indices(word)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{word}` is in the text {nth} times or fewer"))
        .0;
    let before = &text[..at];
    let line = before.matches('\n').count() as u64;
    let column = (at - before.rfind('\n').map_or(0, |i| i + 1)) as u64;
    (line, column + into)
}

/// The Markdown of a hover answer.
fn hover_text(lsp: &mut Client, uri: &str, place: (u64, u64)) -> String {
    let answer = lsp.at("textDocument/hover", uri, place, json!({}));
    assert!(answer.get("error").is_none(), "{answer}");
    assert_eq!(answer["result"]["contents"]["kind"], "markdown", "{answer}");
    answer["result"]["contents"]["value"]
        .as_str()
        .expect("a hover text")
        .to_string()
}

/// The error message of an answer that must be an error.
fn error_of(answer: &Value) -> String {
    answer["error"]["message"]
        .as_str()
        .unwrap_or_else(|| panic!("an error answer: {answer}"))
        .to_string()
}

/// A text with a rename's edits made (ASCII texts; edits on one line each).
fn apply(text: &str, edit: &Value, uri: &str) -> String {
    let edits = edit["changes"][uri]
        .as_array()
        .expect("edits of the document");
    let offset = |p: &Value| {
        let line = p["line"].as_u64().expect("a line") as usize;
        let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
        start + p["character"].as_u64().expect("a character") as usize
    };
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|e| {
            (
                offset(&e["range"]["start"]),
                offset(&e["range"]["end"]),
                e["newText"].as_str().expect("a text"),
            )
        })
        .collect();
    spans.sort_by_key(|s| std::cmp::Reverse(s.0));
    let mut out = text.to_string();
    for (a, b, new) in spans {
        out.replace_range(a..b, new);
    }
    out
}

#[test]
fn the_server_says_what_it_navigates() {
    let mut lsp = Client::spawn();
    let answer = lsp.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    let caps = &answer["result"]["capabilities"];
    assert_eq!(caps["hoverProvider"], true, "{caps}");
    assert_eq!(caps["definitionProvider"], true, "{caps}");
    assert_eq!(caps["referencesProvider"], true, "{caps}");
    assert_eq!(caps["renameProvider"]["prepareProvider"], true, "{caps}");
    assert_eq!(caps["documentSymbolProvider"], true, "{caps}");
}

#[test]
fn hover_tells_a_definitions_signature_citation_and_doc_comment() {
    let mut lsp = Client::start();
    let uri = "untitled:probe.rules";
    assert_eq!(
        lsp.open(uri, PROBE),
        Vec::<Value>::new(),
        "PROBE checks clean"
    );
    // The table, from its use in `slow`: signature as written, citation, the two
    // comment lines above it.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "move_time(u", 0, 2));
    assert!(
        h.contains("table move_time(arm: Arm, action: Action; men: Int = 0) -> Time"),
        "{h}"
    );
    assert!(h.contains("cite \"Move table\""), "{h}");
    // Each comment line its own line (a Markdown hard break: two spaces at its end).
    assert!(h.contains("How long a move takes.  \nIn moves."), "{h}");
    // An enum value in a table row: its display text and its sentence.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "infantry |", 0, 1));
    assert!(h.contains("Arm.infantry"), "{h}");
    assert!(h.contains("**Infantry** — Foot soldiers"), "{h}");
    // A record field, reached through a parameter's type.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "men > 10", 0, 0));
    assert!(h.contains("Unit.men: Int"), "{h}");
    // A `let`: its type is the table's result.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "  t\n", 0, 2));
    assert!(h.contains("let t: Time = move_time(u.arm, march)"), "{h}");
    // A `let` holding what a rule gives, a pair written `(Length, Length)`.
    let text = "ruleset \"P\"\n\
                rule rates() -> (Length, Length) { (24\", 20\") }\n\
                rule first() -> Length {\n  let pair = rates()\n  pair.first\n}\n";
    lsp.open("untitled:pair.rules", text);
    let h = hover_text(&mut lsp, "untitled:pair.rules", pos(text, "pair = ", 0, 1));
    assert!(h.contains("let pair: (Length, Length) = rates()"), "{h}");
    // A rule's result not written: the checker's, the document checking clean (a sum
    // of two whole numbers is a whole number).
    let text = "ruleset \"T\"\nrule twice(n: Int) { n + n }\n";
    assert_eq!(lsp.open("untitled:twice.rules", text), Vec::<Value>::new());
    let h = hover_text(&mut lsp, "untitled:twice.rules", pos(text, "twice", 0, 1));
    assert!(h.contains("rule twice(n: Int) -> Int"), "{h}");
    // A parameter, and whose it is.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "u.arm", 0, 0));
    assert!(h.contains("u: Unit"), "{h}");
    assert!(h.contains("a parameter of the rule `slow`"), "{h}");
    // A modifier: label, amount, condition.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "\"Big\"", 0, 1));
    assert!(h.contains("**Big**"), "{h}");
    assert!(h.contains("`+1` to the roll"), "{h}");
    assert!(h.contains("when `u.men > 10`"), "{h}");
}

#[test]
fn hover_on_dice_gives_the_exact_distribution() {
    let mut lsp = Client::start();
    let uri = "untitled:dice.rules";
    lsp.open(uri, PROBE);
    // Two six-sided dice: sum s (2..12) comes up min(s - 1, 13 - s) ways in 36; the
    // mean is 2 × 3 1/2.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "2d6", 0, 1));
    assert_eq!(
        h,
        "`2d6`: 2 (1/36), 3 (2/36), 4 (3/36), 5 (4/36), 6 (5/36), 7 (6/36), 8 (5/36), \
         9 (4/36), 10 (3/36), 11 (2/36), 12 (1/36); mean 7"
    );
    // `2d6 + 1 die` whole is no single term; `1 die` is the ruleset's die (`die d6`):
    // each face one way in six.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "1 die", 0, 2));
    assert_eq!(
        h,
        "`1 die`: 1 (1/6), 2 (1/6), 3 (1/6), 4 (1/6), 5 (1/6), 6 (1/6); mean 3 1/2"
    );
}

#[test]
fn hover_on_dice_and_a_whole_number_gives_the_sums_distribution() {
    let mut lsp = Client::start();
    let uri = "untitled:plus.rules";
    let text = "ruleset \"P\"\nrule r() -> Int { 3d6 + 1 }\nrule s() -> Int { d4 - 3 }\n";
    lsp.open(uri, text);
    // On the `+`: 3d6 + 1, sums 4..19 over 216; 3d6 makes 3 one way, 4 three ways (the
    // three places of the 2), 5 six (three of 3,1,1 and three of 2,2,1), 6 ten (three of
    // 4,1,1, six of 3,2,1, one of 2,2,2): 4, 5, 6 and 7 here.
    let h = hover_text(&mut lsp, uri, pos(text, "+ 1", 0, 0));
    assert!(
        h.starts_with("`3d6 + 1`: 4 (1/216), 5 (3/216), 6 (6/216), 7 (10/216), 8 "),
        "{h}"
    );
    // Its mean is 3 × 3 1/2 + 1.
    assert!(h.ends_with("19 (1/216); mean 11 1/2"), "{h}");
    // On the term itself: the term alone.
    let h = hover_text(&mut lsp, uri, pos(text, "3d6", 0, 1));
    assert!(h.starts_with("`3d6`: 3 (1/216)"), "{h}");
    // d4 - 3: -2..1, each one way in four; mean 2 1/2 - 3.
    let h = hover_text(&mut lsp, uri, pos(text, "- 3", 0, 0));
    assert_eq!(
        h,
        "`d4 - 3`: -2 (1/4), -1 (1/4), 0 (1/4), 1 (1/4); mean -1/2"
    );
}

#[test]
fn a_rules_author_fixes_three_mistakes_from_diagnostics_and_hovers() {
    let mut lsp = Client::start();
    let uri = "untitled:author.rules";
    // Three mistakes: the table's keys given in the wrong order, a field misspelt, an
    // enum value that is not one.
    let wrong = PROBE
        .replace("move_time(u.arm, march)", "move_time(march, u.arm)")
        .replace("u.men > 10", "u.man > 10")
        .replace("arm: infantry, men: 3", "arm: foot, men: 3");
    let d = lsp.open(uri, &wrong);
    // Two for the swapped keys (each of the wrong enum), one for the field, one for
    // the value.
    let codes: Vec<&str> = d.iter().map(|d| d["code"].as_str().unwrap_or("")).collect();
    assert_eq!(
        codes,
        vec![
            "umpire::check::type",
            "umpire::check::type",
            "umpire::check::unknown_field",
            "umpire::check::unknown_name"
        ]
    );
    // The checker refuses the whole document, but hover still reads it: the table's
    // signature says which key comes first...
    let h = hover_text(&mut lsp, uri, pos(&wrong, "move_time(march", 0, 1));
    assert!(h.contains("move_time(arm: Arm, action: Action"), "{h}");
    // ...the record (hovered where the parameter's type is written) lists its fields...
    let h = hover_text(&mut lsp, uri, pos(&wrong, "u: Unit) {", 0, 4));
    assert!(
        h.contains("record Unit {\n  arm: Arm\n  men: Int\n}"),
        "{h}"
    );
    // ...and the enum lists its values.
    let h = hover_text(&mut lsp, uri, pos(&wrong, "arm: Arm,", 0, 6));
    assert!(h.contains("infantry \"Infantry\" \"Foot soldiers\""), "{h}");
    // Fixed from what the hovers said: nothing left to report.
    let fixed = wrong
        .replace("move_time(march, u.arm)", "move_time(u.arm, march)")
        .replace("u.man > 10", "u.men > 10")
        .replace("arm: foot, men: 3", "arm: infantry, men: 3");
    assert_eq!(lsp.change(uri, 2, &fixed), Vec::<Value>::new());
}

#[test]
fn a_name_from_a_bundled_base_hovers_and_goes_to_a_read_only_copy() {
    let mut lsp = Client::start();
    let uri = "untitled:house.rules";
    let house = "extends \"little_wars\"\n\
                 rule alone(men: 0..) -> Bool { isolated(men: men, support: 0) }\n";
    assert_eq!(lsp.open(uri, house), Vec::<Value>::new());
    // rulesets/little_wars.rules: `rule isolated(men: 0.., support: 0..) -> Bool`, cited
    // "Little Wars, Hand-to-Hand Fighting (1)", its comment opening with "(1)".
    let h = hover_text(&mut lsp, uri, pos(house, "isolated", 0, 1));
    assert!(
        h.contains("rule isolated(men: 0.., support: 0..) -> Bool"),
        "{h}"
    );
    assert!(
        h.contains("cite \"Little Wars, Hand-to-Hand Fighting (1)\""),
        "{h}"
    );
    assert!(h.contains("(1) \"A man or a body of men"), "{h}");
    assert!(h.contains("Defined in `bundled:little_wars`"), "{h}");
    // Its parameter, named in the call.
    let h = hover_text(&mut lsp, uri, pos(house, "support: 0", 0, 1));
    assert!(h.contains("support: 0.."), "{h}");
    // Go to definition: a read-only file holding exactly what `umpire show` prints.
    let answer = lsp.definition(uri, pos(house, "isolated", 0, 1));
    let target = answer["result"]["uri"]
        .as_str()
        .expect("a location")
        .to_string();
    let path = url_path(&target);
    assert!(
        path.starts_with(common::cache_dir().join("bundled")),
        "under umpire's own folder of the cache: {}",
        path.display()
    );
    assert!(path.ends_with("little_wars.rules"), "{}", path.display());
    let shown = common::umpire_command(&["show", "little_wars"])
        .output()
        .expect("umpire show runs");
    let text = std::fs::read_to_string(&path).expect("the copy is there");
    assert_eq!(text.as_bytes(), shown.stdout.as_slice());
    let mode = std::fs::metadata(&path).expect("the copy").permissions();
    assert!(mode.readonly());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(mode.mode() & 0o777, 0o444);
    }
    // The range is the name on the line that defines it.
    let line = text
        .lines()
        .position(|l| l.starts_with("rule isolated("))
        .expect("the rule's line") as u64;
    assert_eq!(span_of(&answer["result"]["range"]), (line, 5, line, 13));
    // The `extends` string hovers with the ruleset's title and citation
    // (`ruleset "Little Wars" cite "H. G. Wells, Little Wars (1913)"`)...
    let h = hover_text(&mut lsp, uri, pos(house, "little_wars", 0, 2));
    assert_eq!(
        h,
        "the ruleset `bundled:little_wars`: **Little Wars** — H. G. Wells, Little Wars (1913)"
    );
    // ...and goes to the copy's start; asked again, the same file.
    let answer = lsp.definition(uri, pos(house, "little_wars", 0, 2));
    assert_eq!(answer["result"]["uri"], target.as_str());
    assert_eq!(span_of(&answer["result"]["range"]), (0, 0, 0, 0));
    // Renaming it is refused: it is not this document's.
    let answer = lsp.rename(uri, pos(house, "isolated", 0, 1), "cut_off");
    let why = error_of(&answer);
    assert!(why.contains("the bundled ruleset `little_wars`"), "{why}");
}

#[test]
fn names_of_a_used_ruleset_hover_and_go_to_their_definitions() {
    let mut lsp = Client::start();
    let uri = "untitled:supplied.rules";
    let text = "ruleset \"Supplied\"\n\
                use \"kriegspiel\" as ks\n\
                rule rations(men: 0..) -> Int {\n\
                \x20 ks.food_packets(men: men, isolated: false)\n\
                }\n\
                rule on_foot(arm: ks.Arm) -> Bool {\n\
                \x20 match arm {\n\
                \x20   ks.Arm.infantry => true\n\
                \x20   _ => false\n\
                \x20 }\n\
                }\n\
                example \"forty-six\" {\n\
                \x20 rations(46) == 2\n\
                \x20 ks.supply_interval == 6 moves\n\
                }\n";
    assert_eq!(lsp.open(uri, text), Vec::<Value>::new());
    // rulesets/kriegspiel.rules: `rule food_packets(men: 0.., isolated: Bool) -> Int`,
    // its comment opening "Food for a body of men for six moves."
    let h = hover_text(&mut lsp, uri, pos(text, "food_packets", 0, 1));
    assert!(
        h.contains("rule ks.food_packets(men: 0.., isolated: Bool) -> Int"),
        "{h}"
    );
    assert!(
        h.contains("cite \"Little Wars, Kriegspiel: Supply in the Field\""),
        "{h}"
    );
    assert!(h.contains("Food for a body of men for six moves."), "{h}");
    // `const supply_interval = 6 moves` writes no type: the checked program's, a Time.
    let h = hover_text(&mut lsp, uri, pos(text, "supply_interval", 0, 1));
    assert!(
        h.contains("const ks.supply_interval: Time = 6 moves"),
        "{h}"
    );
    // A value of its enum, written with the alias and the enum.
    let h = hover_text(&mut lsp, uri, pos(text, "infantry =>", 0, 1));
    assert!(h.contains("ks.Arm.infantry \"Infantry\""), "{h}");
    assert!(h.contains("**Infantry**"), "{h}");
    // A named argument is its parameter.
    let h = hover_text(&mut lsp, uri, pos(text, "isolated: false", 0, 1));
    assert!(h.contains("isolated: Bool"), "{h}");
    // Go to definition: the bundled copy of kriegspiel, on the rule's name.
    let answer = lsp.definition(uri, pos(text, "food_packets", 0, 1));
    let target = answer["result"]["uri"].as_str().expect("a location");
    assert!(target.ends_with("/kriegspiel.rules"), "{target}");
    // A parameter may not take the alias's name: the checker says so, and the rename
    // is refused with its words.
    let why = error_of(&lsp.rename(uri, pos(text, "men: 0..", 0, 0), "ks"));
    assert!(why.contains("the ruleset would not check"), "{why}");
    let copy = std::fs::read_to_string(url_path(target)).expect("the copy");
    let line = copy
        .lines()
        .position(|l| l.starts_with("rule food_packets("))
        .expect("the rule's line") as u64;
    assert_eq!(span_of(&answer["result"]["range"]), (line, 5, line, 17));
}

#[test]
fn a_house_rules_overrides_and_patches_navigate_into_its_base() {
    let dir = Scratch::new("nav-house");
    let base = "ruleset \"Base\"\n\
                enum Arm { foot, horse }\n\
                # Inches a move.\n\
                table speed(arm: Arm) -> Int {\n\
                \x20 foot  => 6\n\
                \x20 horse => 12\n\
                }\n\
                modifiers drm(arm: Arm) { \"Mounted\" +1 if arm == horse }\n\
                record Unit { arm: Arm }\n\
                rule fast(u: Unit) -> Bool { speed(u.arm) > 6 }\n";
    std::fs::write(dir.join("base.rules"), base).expect("base written");
    let house = "extends \"base.rules\"\n\
                 override table speed {\n\
                 \x20 horse => 18\n\
                 }\n\
                 override modifiers drm {\n\
                 \x20 \"Mounted\" +2 if arm == horse\n\
                 }\n\
                 override record Unit {\n\
                 \x20 add men: 0.. = 0\n\
                 }\n\
                 override rule fast(u: Unit) -> Bool { speed(u.arm) > 12 and u.men > 0 }\n";
    let path = dir.join("house.rules");
    std::fs::write(&path, house).expect("house written");
    let uri = file_uri(&path);
    let mut lsp = Client::start();
    assert_eq!(lsp.open(&uri, house), Vec::<Value>::new());
    // The patched table is the base's: its signature and comment, and where it is.
    let h = hover_text(&mut lsp, &uri, pos(house, "speed {", 0, 1));
    assert!(h.contains("table speed(arm: Arm) -> Int"), "{h}");
    assert!(h.contains("Inches a move."), "{h}");
    assert!(h.contains("base.rules`."), "{h}");
    // A patch row's key is read as the base table's key: `horse` of the base's Arm.
    let h = hover_text(&mut lsp, &uri, pos(house, "horse => 18", 0, 1));
    assert!(h.contains("Arm.horse"), "{h}");
    // In a changed modifier, the base list's parameter; the label tells the new amount.
    let h = hover_text(&mut lsp, &uri, pos(house, "arm == horse", 0, 0));
    assert!(h.contains("a parameter of the modifier list `drm`"), "{h}");
    let h = hover_text(&mut lsp, &uri, pos(house, "\"Mounted\"", 0, 2));
    assert!(h.contains("`+2` to the roll"), "{h}");
    // The added field, read in the overriding rule.
    let h = hover_text(&mut lsp, &uri, pos(house, "u.men", 0, 2));
    assert!(h.contains("Unit.men: 0.. = 0"), "{h}");
    // `speed(u.arm)` goes to the base's table: line 3, `speed` at 6..11.
    let answer = lsp.definition(&uri, pos(house, "speed(u.arm)", 0, 1));
    assert!(answer["result"]["uri"]
        .as_str()
        .is_some_and(|u| u.ends_with("/base.rules")));
    assert_eq!(span_of(&answer["result"]["range"]), (3, 6, 3, 11));
    // An override keeps its base's name: renaming it is refused.
    let why = error_of(&lsp.rename(&uri, pos(house, "fast", 0, 1), "quick"));
    assert!(why.contains("overrides the base's definition"), "{why}");
    // The added field renames, with its use, and the house still checks.
    let answer = lsp.rename(&uri, pos(house, "men:", 0, 1), "strength");
    let renamed = apply(house, &answer["result"], &uri);
    assert!(renamed.contains("add strength: 0.. = 0"), "{renamed}");
    assert!(renamed.contains("u.strength > 0"), "{renamed}");
    std::fs::write(&path, &renamed).expect("house rewritten");
    assert_eq!(lsp.change(&uri, 2, &renamed), Vec::<Value>::new());
    // The outline has the patches too.
    let answer = lsp.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let names: Vec<&str> = answer["result"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, vec!["speed", "drm", "Unit", "fast"]);
}

#[test]
fn a_syntax_error_blinds_only_the_definition_it_is_in() {
    let mut lsp = Client::start();
    let uri = "untitled:syntax.rules";
    let broken = PROBE.replace("2d6 + 1 die", "2d6 +");
    let d = lsp.open(uri, &broken);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["code"], "umpire::parse::syntax", "{d:?}");
    // Hover and definition read the rest of the document.
    let h = hover_text(&mut lsp, uri, pos(&broken, "move_time(u", 0, 2));
    assert!(h.contains("table move_time("), "{h}");
    let answer = lsp.definition(uri, pos(&broken, "slow({", 0, 1));
    assert_eq!(span_of(&answer["result"]["range"]), (14, 5, 14, 9));
    // The outline has every definition but the broken `roll`.
    let answer = lsp.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let names: Vec<&str> = answer["result"]
        .as_array()
        .expect("symbols")
        .iter()
        .map(|s| s["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(
        names,
        vec![
            "Arm",
            "Action",
            "move_time",
            "Unit",
            "slow",
            "drm",
            "slow foot"
        ]
    );
    // A rename must see every use: refused until the text parses.
    let why = error_of(&lsp.rename(uri, pos(&broken, "slow(", 0, 1), "late"));
    assert!(why.contains("does not parse"), "{why}");
}

#[test]
fn positions_count_utf16_units_and_crlf_lines_in_answers() {
    let mut lsp = Client::start();
    let uri = "untitled:wide.rules";
    // CRLF lines, and a `½` (one unit, two bytes) and a `👍` (two units, four bytes)
    // before the names on line 2.
    let text = "ruleset \"W\"\r\nconst a = 1\r\nconst b = \"½👍\" # x\r\nconst c = a + 2\r\n";
    assert_eq!(lsp.open(uri, text), Vec::<Value>::new());
    // `a` on line 3 at unit 10.
    let answer = lsp.definition(uri, (3, 10));
    assert_eq!(span_of(&answer["result"]["range"]), (1, 6, 1, 7));
    let answer = lsp.at(
        "textDocument/references",
        uri,
        (1, 6),
        json!({ "context": { "includeDeclaration": true } }),
    );
    let spans: Vec<_> = answer["result"]
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| span_of(&l["range"]))
        .collect();
    assert_eq!(spans, vec![(1, 6, 1, 7), (3, 10, 3, 11)]);
    // `b`'s hover range on line 2; the outline's range of `b` ends after `"½👍"`:
    // `const b = ` is 10 units, the text 4 (`"`, `½`, `👍` two, `"`) — unit 15.
    let answer = lsp.at("textDocument/hover", uri, (2, 6), json!({}));
    assert_eq!(span_of(&answer["result"]["range"]), (2, 6, 2, 7));
    let answer = lsp.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    assert_eq!(span_of(&answer["result"][1]["range"]), (2, 0, 2, 15));
}

/// The path of a `file://` address.
fn url_path(uri: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(uri.strip_prefix("file://").expect("a file:// address"))
}

#[test]
fn definition_goes_into_a_base_file_and_within_the_document() {
    let dir = Scratch::new("nav-base");
    let base = "ruleset \"Base\"\n\n# Men per stand.\nconst stand = 4\n";
    std::fs::write(dir.join("base.rules"), base).expect("base written");
    let house = "extends \"base.rules\"\nconst two = stand * 2\nconst four = two * 2\n";
    let path = dir.join("house.rules");
    std::fs::write(&path, house).expect("house written");
    let uri = file_uri(&path);
    let mut lsp = Client::start();
    assert_eq!(lsp.open(&uri, house), Vec::<Value>::new());
    let answer = lsp.definition(&uri, pos(house, "stand", 0, 1));
    let target = answer["result"]["uri"].as_str().expect("a location");
    assert!(target.ends_with("/base.rules"), "{target}");
    // `const stand` is on line 3, the name at 6..11.
    assert_eq!(span_of(&answer["result"]["range"]), (3, 6, 3, 11));
    // Its doc comment and type in hover.
    let h = hover_text(&mut lsp, &uri, pos(house, "stand", 0, 1));
    assert!(h.contains("Men per stand."), "{h}");
    // Within the document: `two` in `four`'s value goes to line 1.
    let answer = lsp.definition(&uri, pos(house, "two * 2", 0, 0));
    assert_eq!(answer["result"]["uri"], uri.as_str());
    assert_eq!(span_of(&answer["result"]["range"]), (1, 6, 1, 9));
    // The `extends` string goes to the base's start.
    let answer = lsp.definition(&uri, (0, 10));
    assert!(answer["result"]["uri"]
        .as_str()
        .is_some_and(|u| u.ends_with("/base.rules")));
    // The house rule's file was not written over.
    assert_eq!(std::fs::read_to_string(&path).expect("house read"), house);
}

#[test]
fn references_list_every_use_and_the_definition_when_asked() {
    let mut lsp = Client::start();
    let uri = "untitled:refs.rules";
    lsp.open(uri, PROBE);
    // `Unit`: its definition and two parameter types.
    let place = pos(PROBE, "Unit {", 0, 1);
    let with = lsp.at(
        "textDocument/references",
        uri,
        place,
        json!({ "context": { "includeDeclaration": true } }),
    );
    let lines: Vec<u64> = with["result"]
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(lines, vec![13, 14, 18]);
    let without = lsp.at(
        "textDocument/references",
        uri,
        place,
        json!({ "context": { "includeDeclaration": false } }),
    );
    assert_eq!(without["result"].as_array().map(Vec::len), Some(2));
    // `infantry`: the value, the table row, the example's record field.
    let with = lsp.at(
        "textDocument/references",
        uri,
        pos(PROBE, "infantry \"", 0, 0),
        json!({ "context": { "includeDeclaration": true } }),
    );
    let lines: Vec<u64> = with["result"]
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(lines, vec![3, 10, 20]);
}

#[test]
fn rename_edits_every_use_and_the_result_checks_clean() {
    let mut lsp = Client::start();
    let uri = "untitled:rename.rules";
    lsp.open(uri, PROBE);
    // The field `men`: its declaration, `u.men` in the modifier, the example's record.
    let prepare = lsp.at(
        "textDocument/prepareRename",
        uri,
        pos(PROBE, "men: Int }", 0, 1),
        json!({}),
    );
    assert_eq!(prepare["result"]["placeholder"], "men", "{prepare}");
    let answer = lsp.rename(uri, pos(PROBE, "men: Int }", 0, 1), "strength");
    assert!(answer.get("error").is_none(), "{answer}");
    let edits = answer["result"]["changes"][uri].as_array().expect("edits");
    assert_eq!(edits.len(), 3, "{answer}");
    let renamed = apply(PROBE, &answer["result"], uri);
    // The table's own parameter `men` is another definition: left as it was.
    assert!(renamed.contains("; men: Int = 0)"), "{renamed}");
    assert!(
        renamed.contains("record Unit { arm: Arm, strength: Int }"),
        "{renamed}"
    );
    assert!(renamed.contains("u.strength > 10"), "{renamed}");
    assert!(renamed.contains("arm: infantry, strength: 3"), "{renamed}");
    assert_eq!(
        lsp.open("untitled:renamed.rules", &renamed),
        Vec::<Value>::new()
    );
    // A rule: its definition and its use in the example.
    let answer = lsp.rename(uri, pos(PROBE, "slow(", 1, 0), "unhurried");
    let renamed = apply(PROBE, &answer["result"], uri);
    assert_eq!(renamed.matches("unhurried(").count(), 2, "{renamed}");
    assert!(!renamed.contains("slow("), "{renamed}");
    assert_eq!(
        lsp.open("untitled:renamed2.rules", &renamed),
        Vec::<Value>::new()
    );
}

#[test]
fn a_let_renamed_renames_the_roll_its_examples_give_by_name() {
    let mut lsp = Client::start();
    let uri = "untitled:opposed.rules";
    let text = "ruleset \"Opposed\"\n\
                rule opposed(a: Int, d: Int) -> Int {\n\
                \x20 let attacker_roll = d6\n\
                \x20 let defender_roll = d6\n\
                \x20 (attacker_roll + a) - (defender_roll + d)\n\
                }\n\
                example \"the attacker wins by one\" {\n\
                \x20 given rolls attacker_roll 5, defender_roll 3\n\
                \x20 opposed(1, 2) == 1\n\
                }\n";
    assert_eq!(lsp.open(uri, text), Vec::<Value>::new());
    let answer = lsp.rename(uri, pos(text, "attacker_roll", 0, 1), "attack");
    let renamed = apply(text, &answer["result"], uri);
    // The `let`, its use, and the roll given by name.
    assert_eq!(renamed.matches("attack ").count(), 3, "{renamed}");
    assert!(renamed.contains("given rolls attack 5"), "{renamed}");
    assert!(!renamed.contains("attacker_roll"), "{renamed}");
    // The example still holds: 5 + 1 - (3 + 2) = 1.
    let dir = Scratch::new("nav-rolls");
    let path = dir.join("opposed.rules");
    std::fs::write(&path, &renamed).expect("written");
    let out = common::umpire_command(&["test".to_string(), path.to_string_lossy().into_owned()])
        .output()
        .expect("umpire test runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
}

#[test]
fn rename_is_refused_in_words_for_a_non_name_a_clash_or_a_capture() {
    let mut lsp = Client::start();
    let uri = "untitled:refuse.rules";
    lsp.open(uri, PROBE);
    let table = pos(PROBE, "move_time(arm", 0, 1);
    let mut refused = |new: &str| error_of(&lsp.rename(uri, table, new));
    assert!(refused("rule").contains("reserved word"));
    assert!(refused("2fast").contains("is not a name"));
    assert!(refused("move time").contains("is not a name"));
    assert!(refused("d6").contains("is dice"));
    assert!(refused("floor").contains("built-in function"));
    let why = refused("slow");
    assert!(
        why.contains("already the name of the rule `slow` (line 15)"),
        "{why}"
    );
    // A `let` renamed to the name of its rule's parameter.
    let why = error_of(&lsp.rename(uri, pos(PROBE, "let t", 0, 4), "u"));
    assert!(
        why.contains("already the name of the parameter `u`"),
        "{why}"
    );
    // A constant renamed to the name of a parameter that a rule reading it has: the use
    // in the rule would come to mean the parameter.
    let text = "ruleset \"C\"\nconst bonus = 1\nrule r(n: Int) -> Int { n + bonus }\n";
    lsp.open("untitled:capture.rules", text);
    let why = error_of(&lsp.rename("untitled:capture.rules", pos(text, "bonus", 0, 0), "n"));
    assert!(
        why.contains("near line 3 would mean another definition"),
        "{why}"
    );
    // Nothing to rename on a keyword.
    let why = error_of(&lsp.at(
        "textDocument/prepareRename",
        uri,
        pos(PROBE, "record", 0, 1),
        json!({}),
    ));
    assert!(why.contains("no name here"), "{why}");
}

#[test]
fn the_outline_lists_definitions_with_their_values_and_fields() {
    let mut lsp = Client::start();
    let uri = "untitled:outline.rules";
    lsp.open(uri, PROBE);
    let answer = lsp.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let symbols = answer["result"].as_array().expect("symbols");
    let names: Vec<(&str, u64)> = symbols
        .iter()
        .map(|s| {
            (
                s["name"].as_str().expect("a name"),
                s["kind"].as_u64().expect("a kind"),
            )
        })
        .collect();
    // SymbolKind: Enum 10, Method 6, Struct 23, Function 12, Operator 25, Event 24.
    assert_eq!(
        names,
        vec![
            ("Arm", 10),
            ("Action", 10),
            ("move_time", 6),
            ("Unit", 23),
            ("slow", 12),
            ("drm", 25),
            ("roll", 12),
            ("slow foot", 24),
        ]
    );
    // The enum `Arm` runs from its `enum` (line 2) to its `}` (line 5), with its two
    // values (EnumMember 22) as children.
    let arm = &symbols[0];
    assert_eq!(span_of(&arm["range"]), (2, 0, 5, 1));
    assert_eq!(span_of(&arm["selectionRange"]), (2, 5, 2, 8));
    let values: Vec<&str> = arm["children"]
        .as_array()
        .expect("values")
        .iter()
        .map(|v| v["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(values, vec!["infantry", "cavalry"]);
    assert_eq!(arm["children"][0]["kind"], 22);
    // The record's fields (Field 8); the table from `table` to its `}` (lines 9 to 12).
    assert_eq!(symbols[3]["children"][1]["name"], "men");
    assert_eq!(symbols[3]["children"][1]["kind"], 8);
    assert_eq!(span_of(&symbols[2]["range"]), (9, 0, 12, 1));
}

#[test]
fn the_bundled_rulesets_navigate() {
    let mut lsp = Client::start();
    let text = std::fs::read_to_string(common::root().join("rulesets/little_wars.rules"))
        .expect("little_wars read");
    let uri = "untitled:little_wars.rules";
    assert_eq!(lsp.open(uri, &text), Vec::<Value>::new());
    // `isolated` is called once in `melee`: hovering the call tells the rule.
    let h = hover_text(&mut lsp, uri, pos(&text, "isolated(men: inferior", 0, 1));
    assert!(
        h.contains("rule isolated(men: 0.., support: 0..) -> Bool"),
        "{h}"
    );
    // The record `MeleeResult` has four fields.
    let answer = lsp.request(
        "textDocument/documentSymbol",
        json!({ "textDocument": { "uri": uri } }),
    );
    let symbols = answer["result"].as_array().expect("symbols");
    let result = symbols
        .iter()
        .find(|s| s["name"] == "MeleeResult")
        .expect("MeleeResult in the outline");
    assert_eq!(result["children"].as_array().map(Vec::len), Some(4));
    // Every `let inferior` use in `melee` is found.
    let refs = lsp.at(
        "textDocument/references",
        uri,
        pos(&text, "let inferior =", 0, 5),
        json!({ "context": { "includeDeclaration": true } }),
    );
    // Counted in `melee`'s code: the word `inferior` alone, outside notes and comments.
    let melee = &text[text.find("rule melee(").expect("melee")..];
    let melee = &melee[..melee.find("\n}\n").expect("its end")];
    let mut inferior_uses = 0;
    for line in melee.lines() {
        let code = line.split('#').next().unwrap_or("");
        let code: String = code.split('"').step_by(2).collect::<Vec<_>>().join(" ");
        inferior_uses += code
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| *w == "inferior")
            .count();
    }
    assert!(inferior_uses >= 4, "{inferior_uses}");
    assert_eq!(
        refs["result"].as_array().map(Vec::len),
        Some(inferior_uses),
        "{refs}"
    );
}

#[test]
fn bad_requests_are_answered_with_errors_and_the_server_goes_on() {
    let mut lsp = Client::start();
    let uri = "untitled:bad.rules";
    lsp.open(uri, PROBE);
    // Past the end: PROBE has 22 lines (the last empty).
    let why = error_of(&lsp.at("textDocument/hover", uri, (40, 0), json!({})));
    assert!(why.contains("line 41 is past the end"), "{why}");
    let why = error_of(&lsp.definition(uri, (99, 3)));
    assert!(why.contains("past the end"), "{why}");
    // A document not open.
    let why = error_of(&lsp.at(
        "textDocument/references",
        "untitled:nowhere.rules",
        (0, 0),
        json!({ "context": { "includeDeclaration": true } }),
    ));
    assert!(why.contains("is not open"), "{why}");
    // Parameters of the wrong shape.
    let answer = lsp.request("textDocument/hover", json!({ "textDocument": 3 }));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let answer = lsp.request("textDocument/rename", json!({}));
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    // Nothing at a place: no hover, no definition.
    let answer = lsp.at("textDocument/hover", uri, (1, 0), json!({}));
    assert_eq!(answer["result"], Value::Null, "{answer}");
    // A document that does not parse: no hover, rename refused in words.
    let broken = "rule r( -> Int { 1 }\n";
    lsp.open("untitled:broken.rules", broken);
    let answer = lsp.at(
        "textDocument/hover",
        "untitled:broken.rules",
        (0, 5),
        json!({}),
    );
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let why = error_of(&lsp.rename("untitled:broken.rules", (0, 5), "s"));
    assert!(why.contains("does not parse"), "{why}");
    // An `extends` naming no file: its definition is refused in words.
    lsp.open("untitled:lost.rules", "extends \"nowhere.rules\"\n");
    let why = error_of(&lsp.definition("untitled:lost.rules", (0, 10)));
    assert!(why.contains("`nowhere.rules` is not a file"), "{why}");
    // Still serving.
    let h = hover_text(&mut lsp, uri, pos(PROBE, "2d6", 0, 0));
    assert!(h.starts_with("`2d6`"), "{h}");
    assert_eq!(lsp.stop(), Some(0));
}
