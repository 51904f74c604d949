//! `umpire lsp` while a ruleset is edited: completion in each context and in a document
//! that does not parse, the examples' code lenses and the command that runs one, and
//! bad requests answered with errors. Driven with real JSON-RPC messages
//! (`lsp/client.rs`); the items and titles expected are reasoned from the rulesets
//! written here.

#[path = "lsp/client.rs"]
mod client;
mod common;

use client::Client;
use serde_json::{json, Value};

/// A small ruleset that checks: two enums, a record, a table keyed by both enums, a
/// rule with a `let`, and a `match`.
const RULES: &str = r#"ruleset "Edit"

enum Arm { infantry "Infantry" "Foot soldiers", cavalry "Cavalry", artillery "Artillery" }
enum Ground { open_ground "Open", rough "Rough" }

record Unit { men: Int, arm: Arm }

const base = 2

table speed(arm: Arm, ground: Ground) -> Int {
  infantry | open_ground => 6
  infantry | rough => 3
  _ | _ => 9
}

rule march(u: Unit, ground: Ground, turns: Int = 1) -> Int {
  let per = speed(u.arm, ground)
  per * turns + base
}

rule cover(ground: Ground) -> Int {
  match ground {
    rough => 1
    _ => 0
  }
}
"#;

/// The text with the cursor mark `¦` taken out, and the cursor's line and character
/// (the texts here are ASCII before the mark, so a character is a byte).
fn cursor(marked: &str) -> (String, u32, u32) {
    let at = marked.find('¦').expect("a cursor mark");
    let before = &marked[..at];
    let line = before.matches('\n').count() as u32;
    let character = (before.len() - before.rfind('\n').map_or(0, |i| i + 1)) as u32;
    (marked.replacen('¦', "", 1), line, character)
}

/// `RULES` with `insert` put after the first `after`, the cursor at the end of `insert`.
fn typed(after: &str, insert: &str) -> String {
    let at = RULES.find(after).expect("the anchor") + after.len();
    format!("{}{insert}¦{}", &RULES[..at], &RULES[at..])
}

/// Changes the document to the marked text (at version 1 opening it first with `RULES`,
/// which checks, as an editor opens a file before it is typed in) and asks for
/// completion at the mark: the items.
fn complete(lsp: &mut Client, uri: &str, version: i64, marked: &str) -> Vec<Value> {
    let (text, line, character) = cursor(marked);
    if version == 1 {
        lsp.open(uri, RULES);
    }
    lsp.change(uri, version + 1, &text);
    let answer = lsp.completion(uri, line, character);
    assert!(answer.get("error").is_none(), "{answer}");
    answer["result"].as_array().cloned().unwrap_or_default()
}

/// The labels of the items.
fn labels(items: &[Value]) -> Vec<&str> {
    items.iter().filter_map(|i| i["label"].as_str()).collect()
}

/// The item labelled `label`.
fn item<'a>(items: &'a [Value], label: &str) -> &'a Value {
    items
        .iter()
        .find(|i| i["label"] == label)
        .unwrap_or_else(|| panic!("no item `{label}` in {:?}", labels(items)))
}

/// The labels of the items, in the order the editor sorts them (by `sortText`).
fn sorted(items: &[Value]) -> Vec<&str> {
    let mut v: Vec<(&str, &str)> = items
        .iter()
        .map(|i| {
            (
                i["sortText"].as_str().unwrap_or(""),
                i["label"].as_str().unwrap_or(""),
            )
        })
        .collect();
    v.sort();
    v.into_iter().map(|(_, l)| l).collect()
}

// The protocol's kinds of completion items.
const FUNCTION: u64 = 3;
const FIELD: u64 = 5;
const VARIABLE: u64 = 6;
const MODULE: u64 = 9;
const KEYWORD: u64 = 14;
const ENUM: u64 = 13;
const ENUM_MEMBER: u64 = 20;
const CONSTANT: u64 = 21;
const STRUCT: u64 = 22;

#[test]
fn the_names_in_scope_in_a_rule_body_with_their_kinds_and_types() {
    let mut lsp = Client::start();
    let uri = "untitled:scope.rules";
    // A new line after the `let` in `march`: its parameters, its `let`, the definitions,
    // the built-in functions, and the keywords a statement may start with.
    let items = complete(
        &mut lsp,
        uri,
        1,
        &typed("let per = speed(u.arm, ground)\n  ", ""),
    );
    let u = item(&items, "u");
    assert_eq!(u["kind"], VARIABLE);
    assert_eq!(u["detail"], "parameter: Unit");
    assert_eq!(item(&items, "turns")["detail"], "parameter: Int");
    // `per` is what `speed` gives: an Int, as the checker types it.
    assert_eq!(item(&items, "per")["detail"], "let: Int");
    let speed = item(&items, "speed");
    assert_eq!(speed["kind"], FUNCTION);
    assert_eq!(
        speed["detail"],
        "table speed(arm: Arm, ground: Ground) -> Int"
    );
    assert_eq!(
        item(&items, "march")["detail"],
        "rule march(u: Unit, ground: Ground, turns: Int = …) -> Int"
    );
    assert_eq!(item(&items, "base")["kind"], CONSTANT);
    assert_eq!(item(&items, "base")["detail"], "const base: Int");
    assert_eq!(item(&items, "Arm")["kind"], ENUM);
    assert_eq!(
        item(&items, "Unit")["detail"],
        "record Unit { men: Int, arm: Arm }"
    );
    assert_eq!(item(&items, "Unit")["kind"], STRUCT);
    assert_eq!(item(&items, "floor")["kind"], FUNCTION);
    for k in ["let", "note", "set", "if", "match"] {
        assert_eq!(item(&items, k)["kind"], KEYWORD, "{k}");
    }
    // `march`'s locals first, then the definitions.
    let order = sorted(&items);
    let at = |l: &str| order.iter().position(|x| *x == l).expect("listed");
    assert!(at("per") < at("base") && at("u") < at("speed"), "{order:?}");
    // Another rule's parameter is not in scope here, and `cover`'s `ground` is this
    // rule's own; the enum values are not offered where no enum is expected.
    assert!(
        !labels(&items).contains(&"infantry"),
        "{:?}",
        labels(&items)
    );
    // A `let` being written is not in scope in its own value.
    let items = complete(
        &mut lsp,
        uri,
        3,
        &typed("let per = speed(u.arm, ground)\n", "  let fresh = per + "),
    );
    assert!(labels(&items).contains(&"per"));
    assert!(!labels(&items).contains(&"fresh"), "{:?}", labels(&items));
    // Before the `let`, `per` is not in scope.
    let items = complete(&mut lsp, uri, 2, &typed("turns: Int = 1) -> Int {\n  ", ""));
    assert!(labels(&items).contains(&"u"));
    assert!(!labels(&items).contains(&"per"), "{:?}", labels(&items));
}

#[test]
fn enum_values_where_an_enum_is_expected() {
    let mut lsp = Client::start();
    let uri = "untitled:enums.rules";
    let arm = ["infantry", "cavalry", "artillery"];
    let ground = ["open_ground", "rough"];
    let first = |items: &[Value], n: usize| -> Vec<String> {
        sorted(items)[..n].iter().map(|s| s.to_string()).collect()
    };
    // A new row of `speed`: its first key is an Arm.
    let items = complete(&mut lsp, uri, 1, &typed("  infantry | rough => 3\n  ", ""));
    assert_eq!(first(&items, 3), arm);
    let inf = item(&items, "infantry");
    assert_eq!(inf["kind"], ENUM_MEMBER);
    assert_eq!(inf["detail"], "Arm: \"Infantry\"");
    assert_eq!(inf["documentation"], "Foot soldiers");
    assert!(!labels(&items).contains(&"rough"));
    // After the first `|`: the second key, a Ground.
    let items = complete(
        &mut lsp,
        uri,
        2,
        &typed("  infantry | rough => 3\n  ", "cavalry | "),
    );
    assert_eq!(first(&items, 2), ground);
    assert!(!labels(&items).contains(&"infantry"));
    // A cell of a table that gives an Arm: the Arm values first.
    let text = format!("{RULES}\ntable pick(g: Ground) -> Arm {{\n  rough => ¦");
    let items = complete(&mut lsp, uri, 3, &text);
    assert_eq!(first(&items, 3), arm);
    assert!(
        labels(&items).contains(&"g"),
        "the key is in scope in a cell"
    );
    // An argument for an enum parameter: `speed`'s second, after one given by place.
    let items = complete(
        &mut lsp,
        uri,
        4,
        &typed("per * turns + base", " + speed(cavalry, "),
    );
    assert_eq!(first(&items, 2), ground);
    // Named: `arm: ` wants an Arm.
    let items = complete(
        &mut lsp,
        uri,
        5,
        &typed("per * turns + base", " + speed(arm: "),
    );
    assert_eq!(first(&items, 3), arm);
    // The right of `==` against an Arm (a field of the parameter `u`).
    let items = complete(
        &mut lsp,
        uri,
        6,
        &typed("let per = speed(u.arm, ground)\n", "  let foot = u.arm == "),
    );
    assert_eq!(first(&items, 3), arm);
    // `in (...)` against a Ground.
    let items = complete(
        &mut lsp,
        uri,
        7,
        &typed(
            "let per = speed(u.arm, ground)\n",
            "  let open = ground not in (",
        ),
    );
    assert_eq!(first(&items, 2), ground);
    // A `match` arm over a Ground.
    let items = complete(&mut lsp, uri, 8, &typed("    rough => 1\n", "    "));
    assert_eq!(first(&items, 2), ground);
    assert!(!labels(&items).contains(&"cavalry"));
    // After the enum's name and a `.`: its values alone.
    let items = complete(
        &mut lsp,
        uri,
        9,
        &typed("per * turns + base", " + speed(Arm."),
    );
    assert_eq!(labels(&items), arm);
}

#[test]
fn record_fields_after_a_dot_and_parameter_names_in_a_call() {
    let mut lsp = Client::start();
    let uri = "untitled:fields.rules";
    // `u.`: the fields of a Unit, with their types.
    let items = complete(&mut lsp, uri, 1, &typed("per * turns + base", " + u."));
    assert_eq!(labels(&items), ["men", "arm"]);
    assert_eq!(item(&items, "men")["kind"], FIELD);
    assert_eq!(item(&items, "men")["detail"], "Int");
    assert_eq!(item(&items, "arm")["detail"], "Arm");
    // The value before the dot may be written in place: a record built there has its
    // type's fields.
    let items = complete(
        &mut lsp,
        uri,
        2,
        &typed("per * turns + base", " + Unit { men: 3, arm: cavalry }."),
    );
    assert_eq!(labels(&items), ["men", "arm"]);
    // A call is typed by what it gives: `speed(...)` an Int, which has no fields.
    let items = complete(
        &mut lsp,
        uri,
        3,
        &typed("per * turns + base", " + speed(cavalry, rough)."),
    );
    assert_eq!(labels(&items), Vec::<&str>::new());
    // In a Unit written in place: its fields not given yet, in order; after `arm: `, the
    // Arm values first.
    let items = complete(
        &mut lsp,
        uri,
        4,
        &typed("per * turns + base", " + march(Unit { "),
    );
    assert_eq!(labels(&items), ["men:", "arm:"]);
    assert_eq!(item(&items, "arm:")["detail"], "arm: Arm");
    let items = complete(
        &mut lsp,
        uri,
        5,
        &typed("per * turns + base", " + march(Unit { men: 3, "),
    );
    assert_eq!(labels(&items), ["arm:"]);
    let items = complete(
        &mut lsp,
        uri,
        6,
        &typed("per * turns + base", " + march(Unit { arm: "),
    );
    assert_eq!(sorted(&items)[..3], ["infantry", "cavalry", "artillery"]);
    // `march(`: its parameters by name, in order, written `name: `.
    let items = complete(&mut lsp, uri, 7, &typed("per * turns + base", " + march("));
    let params: Vec<&str> = sorted(&items)[..3].to_vec();
    assert_eq!(params, ["ground:", "turns:", "u:"]);
    let u = item(&items, "u:");
    assert_eq!(u["insertText"], "u: ");
    assert_eq!(u["detail"], "u: Unit");
    assert_eq!(item(&items, "turns:")["detail"], "turns: Int = …");
    // Those given already (by name, or by place) are left out.
    let items = complete(
        &mut lsp,
        uri,
        8,
        &typed("per * turns + base", " + march(ground: rough, "),
    );
    let l = labels(&items);
    assert!(l.contains(&"u:") && l.contains(&"turns:"), "{l:?}");
    assert!(!l.contains(&"ground:"), "{l:?}");
    let items = complete(
        &mut lsp,
        uri,
        9,
        &typed("per * turns + base", " + march(u, "),
    );
    let l = labels(&items);
    assert!(!l.contains(&"u:") && l.contains(&"ground:"), "{l:?}");
    // ... and the second place wants a Ground: its values come first.
    assert_eq!(sorted(&items)[..2], ["open_ground", "rough"]);
}

#[test]
fn nothing_is_offered_in_a_comment_or_a_text_but_a_length_is_no_text() {
    let mut lsp = Client::start();
    let uri = "untitled:quiet.rules";
    let items = complete(&mut lsp, uri, 1, &typed("per * turns + base", " # the u"));
    assert_eq!(labels(&items), Vec::<&str>::new());
    let items = complete(
        &mut lsp,
        uri,
        2,
        &typed("let per = speed(u.arm, ground)\n", "  note \"per u"),
    );
    assert_eq!(labels(&items), Vec::<&str>::new());
    // `6"` is a length, not a text opened: after it, the fields of `u` as before.
    let items = complete(
        &mut lsp,
        uri,
        3,
        &typed(
            "let per = speed(u.arm, ground)\n",
            "  let l = 6\" + inches(u.",
        ),
    );
    assert_eq!(labels(&items), ["men", "arm"]);
}

#[test]
fn keywords_where_a_definition_may_start() {
    let mut lsp = Client::start();
    let uri = "untitled:keywords.rules";
    let items = complete(&mut lsp, uri, 1, &typed("const base = 2\n", "\n"));
    let l = labels(&items);
    for k in [
        "rule",
        "table",
        "enum",
        "record",
        "const",
        "modifiers",
        "example",
        "use",
        "extends",
    ] {
        assert!(l.contains(&k), "{k} in {l:?}");
        assert_eq!(item(&items, k)["kind"], KEYWORD);
    }
    // Nothing else: no names where a definition starts.
    assert!(!l.contains(&"speed") && !l.contains(&"let"), "{l:?}");
    // In an example: its lines' keywords with the names.
    let text = format!("{RULES}\nexample \"e\" {{\n  ¦\n}}\n");
    let items = complete(&mut lsp, uri, 2, &text);
    let l = labels(&items);
    for k in ["given rolls", "seed", "let", "speed", "march"] {
        assert!(l.contains(&k), "{k} in {l:?}");
    }
}

#[test]
fn completion_in_a_half_typed_document_that_does_not_parse() {
    let mut lsp = Client::start();
    let uri = "untitled:typing.rules";
    // The document checks first; then a rule is being typed: unclosed, it does not
    // parse. Its parameter's fields come from the record of the last version that
    // checked, and the new rule's own parameters are in scope.
    lsp.open(uri, RULES);
    let marked =
        format!("{RULES}\nrule flank(v: Unit, g: Ground) -> Int {{\n  let m = v.men\n  v.¦");
    let (text, line, character) = cursor(&marked);
    let d = lsp.change(uri, 2, &text);
    assert!(
        d.iter().any(|d| d["code"] == "umpire::parse::syntax"),
        "it does not parse: {d:?}"
    );
    let answer = lsp.completion(uri, line, character);
    let items = answer["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(labels(&items), ["men", "arm"]);
    // On a new line of the unclosed rule: its parameters and `let` (typed by the checker:
    // `v.men` is an Int), and a rule written after the last check is offered too.
    let marked = format!(
        "{RULES}\nrule flank(v: Unit, g: Ground) -> Int {{\n  let m = v.men\n  ¦\n\nrule extra(n: Int) -> Int {{ n }}\n"
    );
    let (text, line, character) = cursor(&marked);
    lsp.change(uri, 3, &text);
    let items = lsp.completion(uri, line, character)["result"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(item(&items, "v")["detail"], "parameter: Unit");
    assert_eq!(item(&items, "g")["detail"], "parameter: Ground");
    assert_eq!(item(&items, "m")["detail"], "let: Int");
    assert_eq!(
        item(&items, "extra")["detail"],
        "rule extra(n: Int) -> Int { n }"
    );
    assert!(
        !labels(&items).contains(&"u"),
        "march's parameter is not in scope"
    );
    // A call of the new rule, which the last program lacks: its parameters from the text.
    let marked =
        format!("{RULES}\nrule extra(n: Int, g: Ground) -> Int {{ n }}\nconst c = extra(¦");
    let (text, line, character) = cursor(&marked);
    lsp.change(uri, 4, &text);
    let items = lsp.completion(uri, line, character)["result"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(sorted(&items)[..2], ["g:", "n:"]);
}

#[test]
fn a_used_rulesets_names_are_offered_as_alias_dot_name() {
    let mut lsp = Client::start();
    let uri = "untitled:uses.rules";
    let text = "ruleset \"U\"\nuse \"kriegspiel\" as ks\n\nconst packets = ks.food_packets(men: 46, isolated: false)\n";
    let marked = format!("{text}const more = ¦");
    lsp.open(uri, text);
    let (typed_text, line, character) = cursor(&marked);
    lsp.change(uri, 2, &typed_text);
    let items = lsp.completion(uri, line, character)["result"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let packets = item(&items, "ks.food_packets");
    assert_eq!(packets["kind"], FUNCTION);
    assert_eq!(
        packets["detail"],
        "rule ks.food_packets(men: 0.., isolated: Bool) -> Int"
    );
    assert_eq!(item(&items, "ks")["kind"], MODULE);
    assert_eq!(item(&items, "ks")["detail"], "use \"kriegspiel\"");
    // After `ks.`: its names without the alias.
    let items = complete(&mut lsp, uri, 3, &format!("{text}const more = ks.¦"));
    let l = labels(&items);
    assert!(
        l.contains(&"food_packets") && l.contains(&"action_time"),
        "{l:?}"
    );
    assert!(
        !l.contains(&"packets") && !l.iter().any(|l| l.starts_with("ks.")),
        "{l:?}"
    );
    // `ks.action_time(`: its keys want a `ks.Arm` first, whose first value kriegspiel
    // declares is `infantry`.
    let items = complete(
        &mut lsp,
        uri,
        4,
        &format!("{text}const t = ks.action_time(¦"),
    );
    assert_eq!(sorted(&items)[0], "infantry", "{:?}", sorted(&items));
    assert!(labels(&items).contains(&"men:"));
}

#[test]
fn bad_completion_requests_are_answered_with_errors_and_the_server_goes_on() {
    let mut lsp = Client::start();
    let uri = "untitled:bad.rules";
    lsp.open(uri, RULES);
    // A line past the end: RULES has 28 lines (27 ending in a line break, and the empty
    // one after the last).
    let lines = RULES.split('\n').count() as u32;
    let m = lsp.completion(uri, lines, 0);
    assert_eq!(m["error"]["code"], -32602, "{m}");
    let why = m["error"]["message"].as_str().expect("a message");
    assert!(why.contains("past the end"), "{why}");
    // A document not open.
    let m = lsp.completion("untitled:closed.rules", 0, 0);
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .is_some_and(|w| w.contains("is not open")));
    // Parameters of the wrong shape.
    let m = lsp.request("textDocument/completion", json!({ "position": "here" }));
    assert_eq!(m["error"]["code"], -32602, "{m}");
    // A column past its line's end is the line's end: answered.
    let m = lsp.completion(uri, 0, 999);
    assert!(m["result"].is_array(), "{m}");
    // The server still answers.
    let items = complete(&mut lsp, uri, 2, &typed("per * turns + base", " + u."));
    assert_eq!(labels(&items), ["men", "arm"]);
    assert_eq!(lsp.stop(), Some(0));
}

/// A ruleset with a passing example (two checks), a failing one, one that calls itself
/// without end and one that would take 2^40 calls.
const EXAMPLES: &str = r#"ruleset "Lenses"

rule double(n: Int) -> Int { 2 * n }

rule forever(n: Int) -> Int recursive { forever(n + 1) }

example "doubling" {
  double(2) == 4
  double(0) == 0
}

example "wrong" {
  double(3) == 7
  double(1) == 2
}

example "runaway" {
  forever(0) == 1
}

rule spin(n: Int) -> Int recursive { if n == 0 { 0 } else { spin(n - 1) + spin(n - 1) } }

example "busy" {
  spin(40) == 0
}
"#;

#[test]
fn code_lenses_say_which_examples_pass_and_the_command_runs_one_again() {
    let mut lsp = Client::start();
    let uri = "untitled:lenses.rules";
    lsp.open(uri, EXAMPLES);
    let answer = lsp.code_lenses(uri);
    let lenses = answer["result"].as_array().cloned().unwrap_or_default();
    assert_eq!(lenses.len(), 4, "{answer}");
    // Each on its example's line (0-based 6, 11, 16, 22).
    let lines: Vec<u64> = lenses
        .iter()
        .map(|l| l["range"]["start"]["line"].as_u64().expect("a line"))
        .collect();
    assert_eq!(lines, [6, 11, 16, 22]);
    let title = |i: usize| {
        lenses[i]["command"]["title"]
            .as_str()
            .unwrap_or("")
            .to_string()
    };
    assert_eq!(title(0), "✓ 2 checks pass");
    // `double(3)` is 6, not 7; `double(1) == 2` holds.
    assert_eq!(
        title(1),
        "✗ 1 of 2 fails: `double(3) == 7`: example does not hold, gave 6; expected 7"
    );
    // The runaway rules are stopped by the limits (the default depth of 1000 calls, and
    // of 1,000,000 steps), and the server answered.
    assert!(
        title(2).starts_with("✗ 1 of 1 fails: `forever(0) == 1`: calls nested more than 1000 deep"),
        "{}",
        title(2)
    );
    assert!(
        title(3).starts_with(
            "✗ 1 of 1 fails: `spin(40) == 0`: the adjudication took more than 1000000 steps"
        ),
        "{}",
        title(3)
    );
    let command = &lenses[1]["command"];
    assert_eq!(command["command"], "umpire.runExample");
    assert_eq!(command["arguments"], json!([uri, "wrong"]));
    // The command runs it again: the answer and a message to show say the same.
    let m = lsp.execute("umpire.runExample", command["arguments"].clone());
    let said = m["result"].as_str().expect("an answer in words");
    assert_eq!(
        said,
        "example \"wrong\": 1 of 2 checks fails: `double(3) == 7`: example does not hold, gave 6; expected 7"
    );
    let shown = lsp.notification("window/showMessage");
    assert_eq!(shown["params"]["message"], said);
    assert_eq!(shown["params"]["type"], 1, "an error");
    let m = lsp.execute("umpire.runExample", json!([uri, "doubling"]));
    assert_eq!(m["result"], "example \"doubling\": 2 checks pass");
    assert_eq!(lsp.notification("window/showMessage")["params"]["type"], 3);
    // Fixed, the lens says so.
    let fixed = EXAMPLES.replace("double(3) == 7", "double(3) == 6");
    lsp.change(uri, 2, &fixed);
    let lenses = lsp.code_lenses(uri)["result"].clone();
    assert_eq!(lenses[1]["command"]["title"], "✓ 2 checks pass");
    // Broken, the examples are not run: each lens says to fix the errors first.
    let broken = EXAMPLES.replace("2 * n", "2 * m");
    lsp.change(uri, 3, &broken);
    let lenses = lsp.code_lenses(uri)["result"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(lenses.len(), 4);
    assert_eq!(
        lenses[0]["command"]["title"],
        "✗ fix the errors first: this ruleset does not check"
    );
    let m = lsp.execute("umpire.runExample", json!([uri, "doubling"]));
    assert!(
        m["result"]
            .as_str()
            .is_some_and(|s| s.contains("fix its errors first")),
        "{m}"
    );
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn bad_commands_are_answered_with_errors() {
    let mut lsp = Client::start();
    let uri = "untitled:cmd.rules";
    lsp.open(uri, EXAMPLES);
    let m = lsp.execute("umpire.noSuch", json!([]));
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .is_some_and(|w| w.contains("no command `umpire.noSuch`")));
    let m = lsp.execute("umpire.runExample", json!([uri]));
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .is_some_and(|w| w.contains("two arguments")));
    let m = lsp.execute("umpire.runExample", json!([uri, "no such example"]));
    assert_eq!(m["error"]["code"], -32602, "{m}");
    assert!(m["error"]["message"]
        .as_str()
        .is_some_and(|w| w.contains("no example \"no such example\"")));
    let m = lsp.execute(
        "umpire.runExample",
        json!(["untitled:other.rules", "doubling"]),
    );
    assert_eq!(m["error"]["code"], -32602, "{m}");
    let m = lsp.request("textDocument/codeLens", json!({ "textDocument": 3 }));
    assert_eq!(m["error"]["code"], -32602, "{m}");
    // The capabilities name the command, the lenses and completion's trigger characters.
    let mut fresh = Client::spawn();
    let caps = fresh.request(
        "initialize",
        json!({ "processId": null, "rootUri": null, "capabilities": {} }),
    );
    let caps = &caps["result"]["capabilities"];
    assert_eq!(
        caps["executeCommandProvider"]["commands"],
        json!(["umpire.runExample"])
    );
    assert_eq!(
        caps["completionProvider"]["triggerCharacters"],
        json!([".", "("])
    );
    assert!(caps["codeLensProvider"].is_object(), "{caps}");
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn a_house_rule_completes_its_bases_keys_and_shows_lenses_for_its_own_examples_only() {
    let dir = common::Scratch::new("house");
    std::fs::write(dir.join("base.rules"), RULES).expect("base written");
    std::fs::write(dir.join("lenses.rules"), EXAMPLES).expect("base written");
    let mut lsp = Client::start();
    // A patch of the base's `speed`: its rows' first key is the base's Arm.
    let house = "extends \"base.rules\"\n\noverride table speed {\n  artillery | rough => 1\n}\n";
    let uri = client::file_uri(&dir.join("house.rules"));
    assert_eq!(lsp.open(&uri, house), Vec::<Value>::new());
    let marked = house.replace("  artillery", "  ¦\n  artillery");
    let (text, line, character) = cursor(&marked);
    lsp.change(&uri, 2, &text);
    let items = lsp.completion(&uri, line, character)["result"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert_eq!(sorted(&items)[..3], ["infantry", "cavalry", "artillery"]);
    // On a house rule of EXAMPLES, whose examples are the base's: one lens, its own.
    let house = "extends \"lenses.rules\"\n\nexample \"mine\" {\n  double(5) == 10\n}\n";
    let uri = client::file_uri(&dir.join("house2.rules"));
    lsp.open(&uri, house);
    let lenses = lsp.code_lenses(&uri)["result"].clone();
    assert_eq!(lenses.as_array().map(Vec::len), Some(1), "{lenses}");
    assert_eq!(lenses[0]["range"]["start"]["line"], 2);
    assert_eq!(lenses[0]["command"]["title"], "✓ 1 check passes");
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn completion_anywhere_in_the_bundled_rulesets_answers_and_never_fails() {
    let mut lsp = Client::start();
    let dir = common::root().join("rulesets");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("rulesets/")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "rules"))
        .collect();
    files.sort();
    assert!(files.len() >= 4, "{files:?}");
    let mut asked = 0;
    for path in files {
        let text = std::fs::read_to_string(&path).expect("a ruleset");
        let uri = client::file_uri(&path);
        lsp.open(&uri, &text);
        // Every fifth line: its start, its middle, and its end.
        for (n, line) in text.lines().enumerate().step_by(5) {
            let len = line.encode_utf16().count() as u32;
            for character in [0, len / 2, len] {
                let m = lsp.completion(&uri, n as u32, character);
                assert!(m["result"].is_array(), "{uri}:{n}:{character}: {m}");
                asked += 1;
            }
        }
        // The lenses: every bundled example passes.
        let lenses = lsp.code_lenses(&uri)["result"].clone();
        let lenses = lenses.as_array().expect("lenses");
        assert!(!lenses.is_empty(), "{uri} has examples");
        for lens in lenses {
            let title = lens["command"]["title"].as_str().unwrap_or("");
            assert!(title.starts_with('✓'), "{uri}: {title}");
        }
    }
    assert!(asked > 300, "{asked}");
    assert_eq!(lsp.stop(), Some(0));
}
