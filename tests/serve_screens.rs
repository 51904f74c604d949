//! HTTP-level tests of `umpire serve`'s Odds, Editions and Ruleset screens
//! (`docs/serve.md`): the real binary on a free port (`--port 0`), asked over a tiny
//! client (`tests/serve/client.rs`). The expected values are worked out from the
//! rulesets' text (Furious Reason's Manoeuvre Table and die roll modifiers; the house
//! rules' changes), not copied from what the server printed.

#[path = "serve/client.rs"]
mod client;

use client::{brigade_folder, Events, Server, TempDir};
use serde_json::Value;
use std::time::{Duration, Instant};

const VETERANS: &str = "examples/house/furious_reason_veterans.rules";

/// Furious Reason (bundled) with the brigade's state, in a folder of its own.
fn furious_reason() -> (Server, TempDir) {
    let dir = brigade_folder("screens");
    let s = Server::start(&dir.0, &["furious_reason", "--state", "brigade.toml"]);
    (s, dir)
}

/// The veterans' house rule (as `house.rules`) and the brigade, in a folder of their own.
fn veterans() -> (Server, TempDir) {
    let dir = brigade_folder("veterans");
    copy(VETERANS, &dir, "house.rules");
    let s = Server::start(&dir.0, &["house.rules", "--state", "brigade.toml"]);
    (s, dir)
}

/// Copies `from` (in the repository) into `dir` as `name`.
fn copy(from: &str, dir: &TempDir, name: &str) {
    std::fs::copy(client::repo().join(from), dir.join(name)).expect("copy an example");
}

/// `POST path` with a JSON body, without the umpire's token (any page may ask).
fn ask(s: &Server, path: &str, body: &str) -> client::Response {
    s.send("POST", path, false, Some(body))
}

/// The first diagnostic's code of a failing answer.
fn code(a: &client::Response) -> Option<String> {
    a.codes().into_iter().next()
}

/// The odds' outcomes (`prob --format json`) as (value, exact probability).
fn outcomes(json: &Value) -> Vec<(String, String)> {
    json["outcomes"]
        .as_array()
        .unwrap_or_else(|| panic!("no outcomes in {json}"))
        .iter()
        .map(|o| {
            (
                o["value"].as_str().unwrap_or_default().to_string(),
                o["probability"].as_str().unwrap_or_default().to_string(),
            )
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn post_odds(s: &Server, body: &str) -> Value {
    let a = ask(s, "/api/odds", body);
    assert_eq!(a.status, 200, "{}", a.body);
    a.json()
}

// ---- Odds -------------------------------------------------------------------------

/// The Manoeuvre Table in good order on a bare D10: Well Handled on 7..10 (4 in 10),
/// Tardy 5,6, Hold 3,4, Disengage 1,2 (2 in 10 each); no 0 or less, so no Retire. No
/// token is needed.
#[test]
fn the_odds_of_the_manoeuvre_table_are_exact_for_any_page() {
    let (s, _dir) = furious_reason();
    let j = post_odds(&s, r#"{"question": "manoeuvre_table(good_order, D10)"}"#);
    assert_eq!(j["json"]["method"], "exact");
    assert_eq!(
        outcomes(&j["json"]),
        pairs(&[
            ("well_handled", "2/5"),
            ("tardy", "1/5"),
            ("hold", "1/5"),
            ("disengage", "1/5"),
        ])
    );
    let text = j["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("Well Handled") && text.contains("40.00%"),
        "{text}"
    );
    assert!(
        text.contains("Disengage") && text.contains("20.00%"),
        "{text}"
    );
    let svg = j["svg"].as_str().unwrap_or_default();
    assert!(
        svg.starts_with("<svg") && svg.contains("Well Handled"),
        "{svg:.200}"
    );
}

/// Against the state on the table: the 2nd Foot is Line with 30% lost, "Each 25% lost"
/// −1, so D10 − 1: Well Handled 8..10 (3/10), Tardy 6,7, Hold 4,5, Disengage 2,3 (1/5
/// each), Retire on a 1 (1/10).
#[test]
fn the_odds_read_the_state_on_the_table() {
    let (s, _dir) = furious_reason();
    let j = post_odds(&s, r#"{"question": "manoeuvre(brigade.second_foot)"}"#);
    assert_eq!(
        outcomes(&j["json"]),
        pairs(&[
            ("well_handled", "3/10"),
            ("tardy", "1/5"),
            ("hold", "1/5"),
            ("disengage", "1/5"),
            ("retire", "1/10"),
        ])
    );
}

/// A sweep of a free name: `m` from −1 to 1 shifts the roll; Well Handled is 3/10,
/// 2/5, 1/2 (D10 + m ≥ 7). A sweep of a state path: 2nd Foot with 0% lost has no
/// modifier (2/5), with 50% lost −2 (Well Handled on 9, 10: 1/5).
#[test]
fn a_sweep_answers_a_row_for_each_value() {
    let (s, _dir) = furious_reason();
    let j = post_odds(
        &s,
        r#"{"question": "manoeuvre_table(good_order, D10 + m)", "sweep": "m=-1..1"}"#,
    );
    let rows = j["json"]["rows"].as_array().expect("rows");
    assert_eq!(j["json"]["sweep"], "m");
    let well_handled: Vec<(String, String)> = rows
        .iter()
        .map(|r| {
            let wh = outcomes(r)
                .into_iter()
                .find(|(v, _)| v == "well_handled")
                .map(|(_, p)| p)
                .unwrap_or_default();
            (r["at"].to_string().trim_matches('"').to_string(), wh)
        })
        .collect();
    assert_eq!(
        well_handled,
        pairs(&[("-1", "3/10"), ("0", "2/5"), ("1", "1/2")])
    );
    assert!(j["svg"].as_str().unwrap_or_default().starts_with("<svg"));
    assert!(j["text"]
        .as_str()
        .unwrap_or_default()
        .contains("for each m"));

    let j = post_odds(
        &s,
        r#"{"question": "manoeuvre(brigade.second_foot)", "sweep": "brigade.second_foot.lost_percent=0,50"}"#,
    );
    let rows = j["json"]["rows"].as_array().expect("rows");
    let first = |r: &Value| outcomes(r).into_iter().next().unwrap_or_default();
    assert_eq!(first(&rows[0]), ("well_handled".into(), "2/5".into()));
    assert_eq!(first(&rows[1]), ("well_handled".into(), "1/5".into()));
}

/// Wrong questions and sweeps answer 400 with a diagnostic; the server goes on.
#[test]
fn a_wrong_question_or_sweep_is_a_400_with_a_diagnostic() {
    let (s, _dir) = furious_reason();
    // `nobody` is no name of the ruleset: the label is on it, in bytes of the question.
    let question = "manoeuvre_table(good_order, D10 + nobody)";
    let a = ask(&s, "/api/odds", &format!(r#"{{"question": "{question}"}}"#));
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(code(&a).as_deref(), Some("umpire::check::unknown_name"));
    let label = &a.json()["error"][0]["labels"][0];
    let at = question.find("nobody").map(|i| i as u64);
    assert_eq!(label["start"].as_u64(), at, "{label}");
    assert_eq!(label["end"].as_u64(), at.map(|i| i + 6), "{label}");
    assert!(label.get("file").is_none(), "{label}");
    // A unit not in the state is an outcome of the odds, as `umpire prob` says it.
    let j = post_odds(&s, r#"{"question": "manoeuvre(brigade.nobody)"}"#);
    assert_eq!(
        j["json"]["outcomes"][0]["error"]["code"],
        "umpire::eval::no_member"
    );

    let a = ask(
        &s,
        "/api/odds",
        r#"{"question": "manoeuvre_table(good_order, D10)", "sweep": "m"}"#,
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(code(&a).as_deref(), Some("umpire::prob::sweep"));

    let long = format!(r#"{{"question": "{}"}}"#, "1 + ".repeat(2000) + "1");
    let a = ask(&s, "/api/odds", &long);
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(code(&a).as_deref(), Some("umpire::serve::request"));

    for body in [
        "",
        "{",
        r#"{"question": 3}"#,
        r#"{"question": "D6", "dice": [1]}"#,
    ] {
        let a = ask(&s, "/api/odds", body);
        assert_eq!(a.status, 400, "{body:?}: {}", a.body);
        assert!(code(&a).is_some(), "{body:?}: {}", a.body);
    }
    assert_eq!(s.get("/api/table").status, 200);
}

// ---- Editions ---------------------------------------------------------------------

/// The veterans' house rule against Furious Reason: the one cell it overrides
/// (`line_square | infantry` 8" → 9") is the one changed row of `movement_rate`, under
/// both editions; the modifier list gains "Veteran".
#[test]
fn the_editions_show_the_changed_cell_of_the_movement_rates() {
    let (s, _dir) = veterans();
    let a = s.get("/api/editions");
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["base"], "furious_reason");
    assert!(j["house"]
        .as_str()
        .unwrap_or_default()
        .ends_with("house.rules"));
    let changes = j["changes"].as_array().expect("changes");
    let has = |what: &str, detail: &str| {
        changes
            .iter()
            .any(|c| c["what"] == what && c["detail"].as_str().unwrap_or_default().contains(detail))
    };
    assert!(
        has("table movement_rate", "line_square | infantry: 8\" → 9\""),
        "{changes:?}"
    );
    assert!(has("modifiers manoeuvre_drm", "\"Veteran\""), "{changes:?}");

    let tables = j["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 1, "only movement_rate changed: {tables:?}");
    let t = &tables[0];
    assert_eq!(t["name"], "movement_rate");
    assert_eq!(t["columns"], serde_json::json!(["formation", "arm", "→"]));
    let old = t["old"].as_array().expect("old");
    let new = t["new"].as_array().expect("new");
    // The base's rows as written: 16 of them, the first `line_square | infantry => 8"`.
    assert_eq!(old.len(), 16);
    assert_eq!(
        old[0],
        serde_json::json!(["line_square", "infantry", "8\""])
    );
    assert_eq!(
        old[1],
        serde_json::json!(["line_square", "light_cavalry", "16\""])
    );
    let changed_old: Vec<Value> = t["changed_old"].as_array().expect("changed_old").clone();
    let changed_new: Vec<Value> = t["changed_new"].as_array().expect("changed_new").clone();
    assert_eq!(changed_old.len(), 1, "{t}");
    assert_eq!(changed_new.len(), 1, "{t}");
    let at = |rows: &[Value], i: &Value| rows[i.as_u64().unwrap_or(0) as usize].clone();
    assert_eq!(
        at(old, &changed_old[0]),
        serde_json::json!(["line_square", "infantry", "8\""])
    );
    assert_eq!(
        at(new, &changed_new[0]),
        serde_json::json!(["line_square", "infantry", "9\""])
    );
    // Every other row is the same under both.
    assert!(new.contains(&serde_json::json!(["column", "infantry", "10\""])));
}

/// The horse-and-musket house charts fill the Movement Rates Chart the excerpt leaves
/// out (8 new rows, the base's rows kept after them) and add a Forced March Chart
/// (a table the base lacks: no old rows), its `column` blocks' patterns in the `march`
/// column.
#[test]
fn the_editions_of_house_charts_show_new_rows_and_a_new_table() {
    let dir = TempDir::new("charts");
    copy(
        "examples/house/horse_and_musket_charts.rules",
        &dir,
        "charts.rules",
    );
    let s = Server::start(&dir.0, &["charts.rules"]);
    let j = s.get("/api/editions").json();
    assert_eq!(j["base"], "horse_and_musket");
    let table = |name: &str| -> Value {
        j["tables"]
            .as_array()
            .and_then(|ts| ts.iter().find(|t| t["name"] == name).cloned())
            .unwrap_or_else(|| panic!("no table {name} in {j}"))
    };
    let m = table("movement_rate");
    assert_eq!(
        m["columns"],
        serde_json::json!(["formation", "terrain", "→"])
    );
    assert_eq!(m["old"].as_array().map(Vec::len), Some(3));
    assert_eq!(m["new"].as_array().map(Vec::len), Some(11));
    assert_eq!(m["new"][0], serde_json::json!(["line", "clear", "6\""]));
    // The house's eight rows are new; the base's three are in both.
    assert_eq!(
        m["changed_new"],
        serde_json::json!([0, 1, 2, 3, 4, 5, 6, 7])
    );
    assert_eq!(m["changed_old"], serde_json::json!([]));

    let f = table("forced_march_chart");
    assert_eq!(f["old"], serde_json::json!([]));
    assert_eq!(f["new"][0], serde_json::json!(["disciplined", "1-3", "no"]));
    let rows = f["new"].as_array().map_or(0, Vec::len);
    assert_eq!(f["changed_new"].as_array().map(Vec::len), Some(rows));
}

/// The grenadiers have Grenadier Class, Both Flanks Secure and Column Formation: +3, so
/// under the base Well Handled on 4..10 (70%), Tardy 2,3, Hold 1; the house rule's
/// Veteran +1 more: Well Handled on 3..10 (80%), Tardy 1,2, no Hold.
#[test]
fn the_editions_odds_compare_base_and_house() {
    let (s, _dir) = veterans();
    let a = ask(
        &s,
        "/api/editions/odds",
        r#"{"question": "manoeuvre(brigade.grenadiers)"}"#,
    );
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    let text = j["text"].as_str().unwrap_or_default();
    let line = |label: &str| {
        text.lines()
            .find(|l| l.trim_start().starts_with(label))
            .unwrap_or_else(|| panic!("no {label} in {text}"))
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert!(line("Well Handled").contains("70.00% 80.00%"), "{text}");
    assert!(line("Tardy").contains("20.00% 20.00%"), "{text}");
    assert!(line("Hold").contains("10.00% -"), "{text}");
    let svg = j["svg"].as_str().unwrap_or_default();
    assert!(
        svg.starts_with("<svg") && svg.contains("furious_reason"),
        "{svg:.300}"
    );

    let a = ask(
        &s,
        "/api/editions/odds",
        r#"{"question": "manoeuvre(nobody)"}"#,
    );
    assert_eq!(a.status, 400, "{}", a.body);
    assert_eq!(code(&a).as_deref(), Some("umpire::check::unknown_name"));
}

/// A ruleset that extends nothing has no base: `base` null, and no odds to compare.
#[test]
fn a_ruleset_extending_nothing_has_no_base() {
    let (s, _dir) = furious_reason();
    let j = s.get("/api/editions").json();
    assert_eq!(j["base"], Value::Null);
    assert_eq!(j["changes"], serde_json::json!([]));
    assert_eq!(j["tables"], serde_json::json!([]));
    let a = ask(
        &s,
        "/api/editions/odds",
        r#"{"question": "manoeuvre(brigade.grenadiers)"}"#,
    );
    assert_eq!(a.status, 409, "{}", a.body);
    assert_eq!(code(&a).as_deref(), Some("umpire::serve::refused"));
    let message = a.json()["error"][0]["message"].to_string();
    assert!(message.contains("extends no other"), "{message}");
}

// ---- Ruleset ----------------------------------------------------------------------

/// The line (from 1) of the first line of `text` that starts with `start`.
fn line_of(text: &str, start: &str) -> u64 {
    let i = text
        .lines()
        .position(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no line starting {start:?}"));
    i as u64 + 1
}

fn find<'a>(defs: &'a [Value], kind: &str, name: &str) -> &'a Value {
    defs.iter()
        .find(|d| d["kind"] == kind && d["name"] == name)
        .unwrap_or_else(|| panic!("no {kind} {name}"))
}

/// Every definition with its citation, place and text: the Manoeuvre Table where the
/// bundled source has it; the house rule's override with its comment; the base's
/// table it overrides marked so.
#[test]
fn the_ruleset_lists_every_definition_with_its_place_and_text() {
    let (s, dir) = veterans();
    let a = s.get("/api/rules");
    assert_eq!(a.status, 200, "{}", a.body);
    let j = a.json();
    assert_eq!(j["title"], "Furious Reason, with the club's house rules");
    assert_eq!(j["cite"], "Club house rules (2026)");
    assert_eq!(j["problems"], serde_json::json!([]));
    assert_eq!(j["deferred"], Value::Null);
    let defs = j["definitions"].as_array().expect("definitions");

    let bundled = std::fs::read_to_string(client::repo().join("rulesets/furious_reason.rules"))
        .expect("the bundled source");
    let t = find(defs, "table", "manoeuvre_table");
    assert_eq!(t["file"], "bundled:furious_reason");
    assert_eq!(t["line"], line_of(&bundled, "table manoeuvre_table("));
    assert_eq!(t["cite"], "Furious Reason, The Manoeuvre Table");
    assert_eq!(
        t["signature"],
        "table manoeuvre_table(order: Order, roll: Int) -> Outcome"
    );
    let text = t["text"].as_str().unwrap_or_default();
    assert!(
        text.starts_with("table manoeuvre_table(order: Order, roll: Int)"),
        "{text}"
    );
    assert!(
        text.contains("7 or more => well_handled") && text.ends_with('}'),
        "{text}"
    );
    assert!(bundled.contains(text), "the text is as written");

    for (kind, name) in [
        ("enum", "Arm"),
        ("record", "Unit"),
        ("rule", "manoeuvre"),
        ("modifiers", "manoeuvre_drm"),
        ("interpretation", "charge_rate_pair"),
    ] {
        let d = find(defs, kind, name);
        let text = d["text"].as_str().unwrap_or_default();
        assert!(text.starts_with(kind) && bundled.contains(text), "{d}");
    }
    let rule = find(defs, "rule", "manoeuvre");
    assert_eq!(
        rule["doc"],
        "A unit's manoeuvre: a D10 plus its die roll modifiers, read on its side of the table."
    );

    let house_file = "house.rules";
    let o = find(defs, "override table", "movement_rate");
    assert_eq!(o["file"], house_file);
    let house = std::fs::read_to_string(dir.join("house.rules")).expect("the house rule");
    assert_eq!(o["line"], line_of(&house, "override table movement_rate"));
    assert_eq!(o["doc"], "One cell changed.");
    assert_eq!(
        o["text"],
        "override table movement_rate {\n  line_square | infantry => 9\"\n}"
    );
    let base = find(defs, "table", "movement_rate");
    assert_eq!(base["overridden_by"], house_file);
    assert!(find(defs, "table", "manoeuvre_table")
        .get("overridden_by")
        .is_none());
}

/// Polls `/api/rules` until `done` holds of it (within 5 s). (Every 600 ms: the game's
/// thread looks at the files only after half a second with no request.)
fn rules_until(s: &Server, done: impl Fn(&Value) -> bool) -> Value {
    let until = Instant::now() + Duration::from_secs(5);
    loop {
        std::thread::sleep(Duration::from_millis(600));
        let j = s.get("/api/rules").json();
        if done(&j) || Instant::now() > until {
            return j;
        }
    }
}

/// A house rule broken on disk while the server runs: its problem appears on the
/// Ruleset screen (file, line, column), the game goes on with the ruleset that last
/// checked; mended, the new ruleset is put in use (`event: table`) and the Editions
/// screen shows its new cell.
#[test]
fn a_house_rule_changed_on_disk_is_checked_and_put_in_use() {
    let (s, dir) = veterans();
    let mut events = Events::open(&s.addr);
    let file = dir.join("house.rules");
    let text = std::fs::read_to_string(&file).expect("the house rule");
    let broken = text.replace(
        "line_square | infantry => 9\"",
        "line_square | infantry => nine",
    );
    assert_ne!(broken, text);
    // A second's wait: a file system's times may be that coarse.
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&file, &broken).expect("write the house rule");
    let j = rules_until(&s, |j| {
        j["problems"].as_array().is_some_and(|p| !p.is_empty())
    });
    let problem = &j["problems"][0];
    assert_eq!(problem["code"], "umpire::check::unknown_name", "{j}");
    let label = &problem["labels"][0];
    assert_eq!(label["file"], "house.rules");
    let line = line_of(&broken, "  line_square | infantry => nine");
    assert_eq!(label["line"], line);
    let column = broken
        .lines()
        .nth(line as usize - 1)
        .and_then(|l| l.find("nine"));
    assert_eq!(label["column"].as_u64(), column.map(|c| c as u64 + 1));
    assert!(events.wait_for("event: rules"), "{}", events.seen());
    // The game goes on under the ruleset that last checked.
    let j = s.get("/api/editions").json();
    assert!(j["tables"][0]["new"][0] == serde_json::json!(["line_square", "infantry", "9\""]));

    let mended = text.replace(
        "line_square | infantry => 9\"",
        "line_square | infantry => 10\"",
    );
    std::thread::sleep(Duration::from_millis(1100));
    std::fs::write(&file, &mended).expect("write the house rule");
    let j = rules_until(&s, |j| j["problems"] == serde_json::json!([]));
    assert_eq!(j["problems"], serde_json::json!([]), "{j}");
    assert!(
        events.wait_for("\"what\":\"the ruleset file was read again\""),
        "{}",
        events.seen()
    );
    let j = s.get("/api/editions").json();
    assert_eq!(
        j["tables"][0]["new"][0],
        serde_json::json!(["line_square", "infantry", "10\""])
    );
}
