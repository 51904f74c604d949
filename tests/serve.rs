//! `umpire serve` over HTTP: the real binary started on a copy of the Furious Reason
//! brigade (`examples/states/furious_reason_brigade.toml`) in a folder of its own, on a
//! free loopback port, and asked what docs/serve.md says it answers — the table, a
//! ruling and its effects, undo and redo, the umpire's token, the limits on requests
//! and questions, where a save may write, the events, and how it stops.

#[path = "serve/client.rs"]
mod client;

use client::{brigade_folder, repo, request, run_umpire, Events, Server};
use serde_json::{json, Value};

const SECOND_FOOT: &str = r#"{"question": "manoeuvre_turn(\"second_foot\")", "dice": [6]}"#;

/// A unit of the roster, by key.
fn unit<'a>(table: &'a Value, key: &str) -> &'a Value {
    table["roster"]
        .as_array()
        .and_then(|r| r.iter().find(|u| u["key"] == key))
        .unwrap_or_else(|| panic!("no unit `{key}` in {}", table["roster"]))
}

/// A unit's fact, as shown (None: left out).
fn fact(table: &Value, key: &str, name: &str) -> Option<String> {
    unit(table, key)["facts"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == name))
        .and_then(|f| f["value"].as_str().map(str::to_string))
}

/// Asserts a failing answer: its status, one diagnostic of `code`, a plain message.
fn refused(r: &client::Response, status: u16, code: &str) {
    assert_eq!(r.status, status, "{}", r.body);
    assert_eq!(
        r.header("content-type"),
        Some("application/json"),
        "{}",
        r.body
    );
    assert_eq!(r.codes(), vec![code.to_string()], "{}", r.body);
    let message = r.json()["error"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(message.len() > 10, "a sentence, not {message:?}");
}

#[test]
fn the_table_shows_the_brigade_and_the_clock() {
    let dir = brigade_folder("table");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    assert!(server.addr.starts_with("127.0.0.1:"), "{}", server.addr);
    assert_eq!(server.players_page, format!("http://{}/", server.addr));
    assert_eq!(server.token.len(), 32, "128 bits as hex");
    let t = server.table();
    assert_eq!(t["can_change"], false, "no token, no changes");
    assert_eq!(t["version"], 0);
    assert_eq!(t["unsaved"], false);
    assert_eq!(t["last"], Value::Null);
    assert_eq!(t["ruleset"]["source"], "furious_reason");
    assert_eq!(t["clock"], json!([{ "name": "turn", "value": "3" }]));
    let keys: Vec<&str> = t["roster"]
        .as_array()
        .map(|r| r.iter().filter_map(|u| u["key"].as_str()).collect())
        .unwrap_or_default();
    assert_eq!(
        keys,
        [
            "guard_grenadiers",
            "second_foot",
            "county_militia",
            "grenadiers"
        ]
    );
    // The state file: `grade = "line"`, `lost_percent = 30`; every other field at its
    // default (false, 0) is left out.
    assert_eq!(
        unit(&t, "second_foot"),
        &json!({ "group": "brigade", "key": "second_foot", "path": "brigade.second_foot",
                 "type": "Unit", "facts": [ { "name": "grade", "value": "Line" },
                                            { "name": "lost_percent", "value": "30" } ] })
    );
    assert_eq!(
        fact(&t, "guard_grenadiers", "leader_cp").as_deref(),
        Some("2")
    );
    assert_eq!(
        fact(&t, "guard_grenadiers", "rear_support").as_deref(),
        Some("true")
    );
    assert_eq!(
        fact(&t, "county_militia", "disordered").as_deref(),
        Some("true")
    );
    assert_eq!(
        fact(&t, "grenadiers", "column_formation").as_deref(),
        Some("true")
    );
    assert_eq!(
        fact(&t, "grenadiers", "skirmishers"),
        None,
        "false flags left out"
    );
    let turn = t["questions"]
        .as_array()
        .and_then(|q| q.iter().find(|q| q["name"] == "manoeuvre_turn"))
        .expect("manoeuvre_turn is offered");
    assert_eq!(turn["unit"], "key");
    assert_eq!(turn["changes_state"], true);
    let with_token = server.send("GET", "/api/table", true, None);
    assert_eq!(with_token.json()["can_change"], true);
    let wrong = request(
        &server.addr,
        "GET",
        "/api/table",
        &[("X-Umpire-Token", "0123456789abcdef0123456789abcdef")],
        None,
    );
    assert_eq!(wrong.json()["can_change"], false);
}

#[test]
fn a_ruling_is_applied_undone_redone_and_dropped() {
    let dir = brigade_folder("ruling");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    // Nothing done yet: nothing to undo or redo, no effects to apply or drop.
    for what in ["/api/undo", "/api/redo", "/api/apply", "/api/drop"] {
        refused(&server.post(what, None), 409, "umpire::serve::refused");
    }
    let r = server.post("/api/adjudicate", Some(SECOND_FOOT));
    assert_eq!(r.status, 200, "{}", r.body);
    let r = r.json();
    let ruling = &r["ruling"];
    // Line, 30% lost: "Each 25% lost" -1 per floor(30 / 25) = -1; 6 - 1 = 5, and 5,6
    // in good order is Tardy.
    assert!(
        ruling["headline"]
            .as_str()
            .is_some_and(|h| h.starts_with("Tardy")),
        "{ruling}"
    );
    assert_eq!(ruling["rolls"][0]["dice"], "D10");
    assert_eq!(ruling["rolls"][0]["faces"], json!([6]));
    assert_eq!(ruling["rolls"][0]["modified"], "5");
    assert_eq!(
        ruling["effects"],
        json!(["brigade.second_foot.manoeuvred_on: 0 → 3"])
    );
    assert_eq!(ruling["applied"], false);
    assert_eq!(
        ruling["dice_note"],
        Value::Null,
        "the one face given was used"
    );
    let explanation = ruling["explanation"].as_str().unwrap_or_default();
    assert!(explanation.contains("Each 25% lost"), "{explanation}");
    assert!(explanation.contains("[Furious Reason, The Manoeuvre Table]"));
    assert_eq!(r["table"]["unapplied"], "manoeuvre_turn(\"second_foot\")");
    assert_eq!(r["table"]["can_change"], true);
    // Not applied: the unit is as it was.
    assert_eq!(fact(&r["table"], "second_foot", "manoeuvred_on"), None);

    let r = server.post("/api/apply", None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(r.json()["done"]
        .as_str()
        .is_some_and(|d| d.contains("applied")));
    let t = server.table();
    assert_eq!(
        fact(&t, "second_foot", "manoeuvred_on").as_deref(),
        Some("3")
    );
    assert_eq!(t["unsaved"], true);
    assert_eq!(t["unapplied"], Value::Null);
    assert_eq!(t["last"]["applied"], true);
    assert!(t["undo"].is_string(), "{}", t["undo"]);
    refused(
        &server.post("/api/apply", None),
        409,
        "umpire::serve::refused",
    );

    let r = server.post("/api/undo", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let t = &r.json()["table"];
    assert_eq!(fact(t, "second_foot", "manoeuvred_on"), None, "taken back");
    assert!(t["redo"].is_string(), "{}", t["redo"]);
    let r = server.post("/api/redo", None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(
        fact(&r.json()["table"], "second_foot", "manoeuvred_on").as_deref(),
        Some("3")
    );
    refused(
        &server.post("/api/redo", None),
        409,
        "umpire::serve::refused",
    );

    // The grenadiers (Grenadier +1, Column +1, Both Flanks Secure +1) roll 1: 4, Hold;
    // their effects dropped, they are as they were.
    let r = server.post(
        "/api/adjudicate",
        Some(r#"{"question": "manoeuvre_turn(\"grenadiers\")", "dice": [1]}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let ruling = &r.json()["ruling"];
    assert_eq!(ruling["rolls"][0]["modified"], "4");
    assert!(ruling["headline"]
        .as_str()
        .is_some_and(|h| h.starts_with("Hold")));
    let r = server.post("/api/drop", None);
    assert_eq!(r.status, 200, "{}", r.body);
    let t = &r.json()["table"];
    assert_eq!(t["unapplied"], Value::Null);
    assert_eq!(fact(t, "grenadiers", "manoeuvred_on"), None);
    assert_eq!(
        fact(t, "second_foot", "manoeuvred_on").as_deref(),
        Some("3")
    );
    refused(
        &server.post("/api/drop", None),
        409,
        "umpire::serve::refused",
    );
    // The rule refuses a second roll in the same turn: a result, its headline the
    // refusal, with no dice rolled and no effects; the unit is as it was.
    let again = server.post("/api/adjudicate", Some(SECOND_FOOT));
    assert_eq!(again.status, 200, "{}", again.body);
    let again = again.json();
    let headline = again["ruling"]["headline"].as_str().unwrap_or_default();
    assert!(
        headline.starts_with("refused: the unit has rolled"),
        "{headline}"
    );
    assert_eq!(again["ruling"]["effects"], json!([]));
    assert_eq!(
        again["ruling"]["dice_note"],
        "the face 6 given was not rolled for"
    );
    assert_eq!(again["table"]["unapplied"], Value::Null);
    assert_eq!(
        fact(&again["table"], "second_foot", "manoeuvred_on").as_deref(),
        Some("3")
    );
}

#[test]
fn what_if_changes_nothing() {
    let dir = brigade_folder("what_if");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    // Any page may ask: no token.
    let r = server.send(
        "POST",
        "/api/what_if",
        false,
        Some(r#"{"question": "manoeuvre_turn(\"second_foot\")", "dice": [6]}"#),
    );
    assert_eq!(r.status, 200, "{}", r.body);
    let ruling = &r.json()["ruling"];
    assert!(ruling["headline"]
        .as_str()
        .is_some_and(|h| h.starts_with("Tardy")));
    assert_eq!(ruling["rolls"][0]["modified"], "5");
    assert!(ruling["trace"].is_object() || ruling["trace"].is_array());
    // With those faces only: a face the die does not have, or too few, is a 400 whose
    // label is placed in the ruleset (`D10` in `manoeuvre`).
    for (dice, code) in [
        ("[11]", "umpire::dice::bad_face"),
        ("[]", "umpire::dice::too_few_rolls"),
    ] {
        let body = format!(r#"{{"question": "manoeuvre(brigade.second_foot)", "dice": {dice}}}"#);
        let r = server.send("POST", "/api/what_if", false, Some(&body));
        refused(&r, 400, code);
        let label = &r.json()["error"][0]["labels"][0];
        assert!(
            label["file"]
                .as_str()
                .is_some_and(|f| f.contains("furious_reason")),
            "{label}"
        );
        assert!(label["line"].as_u64().is_some_and(|l| l > 1), "{label}");
    }
    let t = server.table();
    assert_eq!(t["version"], 0);
    assert_eq!(t["last"], Value::Null);
    assert_eq!(t["unapplied"], Value::Null);
    assert_eq!(t["unsaved"], false);
    assert_eq!(fact(&t, "second_foot", "manoeuvred_on"), None);
}

#[test]
fn every_change_needs_the_token() {
    let dir = brigade_folder("token");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    let before = std::fs::read(dir.join("brigade.toml")).expect("state");
    let same_length = "f".repeat(server.token.len());
    let longer = format!("{}0", server.token);
    let shorter = server.token[..server.token.len() - 1].to_string();
    let wrong: [Option<&str>; 5] = [
        None,
        Some(""),
        Some(&same_length),
        Some(&longer),
        Some(&shorter),
    ];
    let changes = [
        ("/api/adjudicate", Some(SECOND_FOOT)),
        ("/api/apply", None),
        ("/api/drop", None),
        ("/api/undo", None),
        ("/api/redo", None),
        ("/api/save", Some(r#"{"confirm": true}"#)),
        ("/api/save", Some(r#"{"to": "other.toml"}"#)),
    ];
    for (path, body) in changes {
        for token in wrong {
            let headers: Vec<(&str, &str)> = token
                .map(|t| vec![("X-Umpire-Token", t)])
                .unwrap_or_default();
            let r = request(
                &server.addr,
                "POST",
                path,
                &headers,
                body.map(str::as_bytes),
            );
            refused(&r, 403, "umpire::serve::token");
        }
    }
    let t = server.table();
    assert_eq!(t["version"], 0);
    assert_eq!(t["last"], Value::Null);
    assert_eq!(t["history"], json!([]));
    assert_eq!(
        std::fs::read(dir.join("brigade.toml")).expect("state"),
        before
    );
    assert!(!dir.join("other.toml").exists());
}

/// The server answers the table after a request that failed.
fn still_serving(server: &Server) {
    let r = server.get("/api/table");
    assert_eq!(r.status, 200, "{}", r.body);
}

#[test]
fn requests_and_questions_are_limited() {
    let dir = brigade_folder("limits");
    let server = Server::start(
        &dir.0,
        &[
            "furious_reason",
            "--state",
            "brigade.toml",
            "--seed",
            "7",
            "--max-steps",
            "200",
        ],
    );
    for path in ["/api/adjudicate", "/api/what_if", "/api/save"] {
        let huge = format!(r#"{{"question": "{}"}}"#, "1".repeat(65 * 1024));
        let r = server.post(path, Some(&huge));
        refused(&r, 413, "umpire::serve::request");
        still_serving(&server);
    }
    // A body sent in chunks, with no length given, is held to the same limit.
    let mut chunked = format!(
        "POST /api/what_if HTTP/1.1\r\nHost: {}\r\nTransfer-Encoding: chunked\r\n\
         Content-Type: application/json\r\nConnection: close\r\n\r\n",
        server.addr
    )
    .into_bytes();
    for _ in 0..8 {
        chunked.extend_from_slice(format!("{:x}\r\n{}\r\n", 10_000, " ".repeat(10_000)).as_bytes());
    }
    chunked.extend_from_slice(b"0\r\n\r\n");
    refused(
        &client::raw(&server.addr, &chunked),
        413,
        "umpire::serve::request",
    );
    still_serving(&server);
    let long = format!(r#"{{"question": "{}"}}"#, "1 + ".repeat(1100) + "1");
    for path in ["/api/adjudicate", "/api/what_if"] {
        refused(
            &server.post(path, Some(&long)),
            400,
            "umpire::serve::request",
        );
        still_serving(&server);
    }
    let bad_bodies = [
        r#"{"question": "#,
        "not json",
        r#"{"question": 5}"#,
        r#"{"question": "manoeuvre_turn(\"second_foot\")", "dice": "six"}"#,
        r#"{"question": "manoeuvre_turn(\"second_foot\")", "dice": [6.5]}"#,
        r#"{"question": "manoeuvre_turn(\"second_foot\")", "faces": [6]}"#,
        "",
        "{}",
        r#"{"question": "   "}"#,
        r#"[1, 2]"#,
    ];
    for body in bad_bodies {
        for path in ["/api/adjudicate", "/api/what_if"] {
            let r = server.post(path, Some(body));
            refused(&r, 400, "umpire::serve::request");
            still_serving(&server);
        }
    }
    for body in [
        r#"{"to": 5}"#,
        r#"{"confirm": "yes"}"#,
        r#"{"to": "a.toml", "also": 1}"#,
    ] {
        refused(
            &server.post("/api/save", Some(body)),
            400,
            "umpire::serve::request",
        );
    }
    // A huge list of dice.
    let dice: Vec<String> = (0..5000).map(|_| "6".to_string()).collect();
    let many = format!(
        r#"{{"question": "manoeuvre_turn(\"second_foot\")", "dice": [{}]}}"#,
        dice.join(",")
    );
    for path in ["/api/adjudicate", "/api/what_if"] {
        refused(
            &server.post(path, Some(&many)),
            400,
            "umpire::serve::request",
        );
        still_serving(&server);
    }
    // A question that does not check: its label is placed in the question.
    let question = "manoeuvre(brigade.second_foot) + nonsense";
    let body = json!({ "question": question }).to_string();
    for path in ["/api/adjudicate", "/api/what_if"] {
        let r = server.post(path, Some(&body));
        assert_eq!(r.status, 400, "{}", r.body);
        let errors = r.json()["error"].clone();
        let label = &errors[0]["labels"][0];
        let (start, end) = (label["start"].as_u64(), label["end"].as_u64());
        let (Some(start), Some(end)) = (start, end) else {
            panic!("a label with start and end: {errors}");
        };
        assert!(start < end && end as usize <= question.len(), "{errors}");
        let code = errors[0]["code"].as_str().unwrap_or_default();
        assert!(
            code.starts_with("umpire::") && !code.starts_with("umpire::serve"),
            "{code}"
        );
        still_serving(&server);
    }
    // A limit of the CLI: `--max-steps 100`; a sum of 200 ones takes at least a step
    // for each one (and stays under the 256 operators one expression may hold).
    let sum = json!({ "question": vec!["1"; 200].join(" + ") }).to_string();
    for path in ["/api/adjudicate", "/api/what_if"] {
        let r = server.post(path, Some(&sum));
        assert_eq!(r.status, 400, "{}", r.body);
        assert_eq!(
            r.codes(),
            vec!["umpire::limit::steps".to_string()],
            "{}",
            r.body
        );
        still_serving(&server);
    }
    let t = server.table();
    assert_eq!(t["last"], Value::Null, "nothing failing was recorded");
    assert_eq!(t["unsaved"], false);
}

#[test]
fn unknown_addresses_and_wrong_methods_answer_json() {
    let dir = brigade_folder("addresses");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    for path in ["/api/nothing", "/nothing/at/all", "/api/table/extra"] {
        refused(&server.get(path), 404, "umpire::serve::request");
        refused(
            &server.post(path, Some("{}")),
            404,
            "umpire::serve::request",
        );
    }
    for path in ["/api/apply", "/api/adjudicate", "/api/save", "/api/what_if"] {
        let r = server.get(path);
        refused(&r, 405, "umpire::serve::request");
        assert_eq!(r.header("allow"), Some("POST"), "{path}");
    }
    let r = server.send("POST", "/api/table", true, Some("{}"));
    refused(&r, 405, "umpire::serve::request");
    still_serving(&server);
}

#[test]
fn a_change_is_heard_on_the_events() {
    let dir = brigade_folder("events");
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    let mut events = Events::open(&server.addr);
    let r = server.post("/api/adjudicate", Some(SECOND_FOOT));
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(events.wait_for("event: table"), "{:?}", events.seen());
    assert!(events.wait_for("\"version\":1"), "{:?}", events.seen());
    let r = server.post("/api/apply", None);
    assert_eq!(r.status, 200, "{}", r.body);
    assert!(events.wait_for("\"version\":2"), "{:?}", events.seen());
}

/// A folder with the brigade, a ruleset file, a scenario and a game log beside it.
fn save_folder() -> client::TempDir {
    let dir = brigade_folder("save");
    std::fs::copy(
        repo().join("rulesets/furious_reason.rules"),
        dir.join("x.rules"),
    )
    .expect("copy a ruleset");
    let scenario = std::fs::read_to_string(repo().join("examples/furious_reason_turn.toml"))
        .expect("scenario")
        .replace("states/furious_reason_brigade.toml", "brigade.toml");
    std::fs::write(dir.join("scenario.toml"), scenario).expect("write the scenario");
    let ran = run_umpire(&dir.0, &["run", "scenario.toml", "--log", "game.log"]);
    assert!(ran.status.success(), "umpire run --log: {}", ran.stderr);
    assert!(dir.join("game.log").is_file());
    dir
}

fn listing(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("list")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn saves_stay_in_the_state_files_folder() {
    let dir = save_folder();
    let befores: std::collections::HashMap<&str, Vec<u8>> =
        ["x.rules", "scenario.toml", "game.log"]
            .into_iter()
            .map(|n| (n, std::fs::read(dir.join(n)).expect("read")))
            .collect();
    let server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    assert_eq!(
        server.post("/api/adjudicate", Some(SECOND_FOOT)).status,
        200
    );
    assert_eq!(server.post("/api/apply", None).status, 200);
    let original = std::fs::read(dir.join("brigade.toml")).expect("state");
    let files = listing(&dir.0);
    let outside = format!("umpire-escape-{}.toml", std::process::id());
    let absolute = std::env::temp_dir().join(&outside);
    let long = "a".repeat(300) + ".toml";
    let names = [
        format!("../{outside}"),
        absolute.to_string_lossy().into_owned(),
        "sub/x.toml".to_string(),
        "..".to_string(),
        ".".to_string(),
        String::new(),
        "a\u{0}b.toml".to_string(),
        "..\\x.toml".to_string(),
        " ".to_string(),
        "-rf.toml".to_string(),
        "~".to_string(),
        "C:x.toml".to_string(),
        "notes.txt".to_string(),
        long,
    ];
    for name in &names {
        for confirm in [false, true] {
            let body = json!({ "to": name, "confirm": confirm }).to_string();
            refused(
                &server.post("/api/save", Some(&body)),
                400,
                "umpire::serve::path",
            );
        }
    }
    assert!(!absolute.exists() && !dir.0.parent().is_some_and(|p| p.join(&outside).exists()));
    // A link in the folder to a state file elsewhere is not followed.
    #[cfg(unix)]
    {
        let elsewhere = client::TempDir::new("elsewhere");
        std::fs::write(elsewhere.join("b.toml"), &original).expect("write");
        std::os::unix::fs::symlink(elsewhere.join("b.toml"), dir.join("link.toml"))
            .expect("symlink");
        for confirm in [false, true] {
            let body = json!({ "to": "link.toml", "confirm": confirm }).to_string();
            refused(
                &server.post("/api/save", Some(&body)),
                400,
                "umpire::serve::path",
            );
        }
        assert_eq!(
            std::fs::read(elsewhere.join("b.toml")).expect("read"),
            original
        );
        std::fs::remove_file(dir.join("link.toml")).expect("remove the link");
    }
    assert_eq!(listing(&dir.0), files, "nothing written");

    // Over the state file loaded: only when confirmed.
    let r = server.post("/api/save", Some("{}"));
    refused(&r, 409, "umpire::serve::confirm");
    assert!(
        r.body.contains("brigade.toml"),
        "says which file: {}",
        r.body
    );
    assert_eq!(
        std::fs::read(dir.join("brigade.toml")).expect("state"),
        original
    );
    let r = server.post("/api/save", Some(r#"{"confirm": true}"#));
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.json()["table"]["unsaved"], false);
    assert_eq!(
        listing(&dir.0),
        files,
        "written in place, no file left beside it"
    );
    let saved = std::fs::read_to_string(dir.join("brigade.toml")).expect("state");
    assert!(
        saved.contains("# A Furious Reason brigade before its manoeuvre rolls."),
        "{saved}"
    );
    let state: toml::Value = toml::from_str(&saved).expect("a TOML state");
    assert_eq!(
        state["brigade"]["second_foot"]["manoeuvred_on"].as_integer(),
        Some(3)
    );
    assert_eq!(
        state["brigade"]["second_foot"]["lost_percent"].as_integer(),
        Some(30)
    );
    assert_eq!(state["turn"].as_integer(), Some(3));

    // A new file in the folder; a second time it needs confirming.
    let r = server.post("/api/save", Some(r#"{"to": "new.toml"}"#));
    assert_eq!(r.status, 200, "{}", r.body);
    let written = std::fs::read_to_string(dir.join("new.toml")).expect("new.toml written");
    let state: toml::Value = toml::from_str(&written).expect("a TOML state");
    assert_eq!(
        state["brigade"]["second_foot"]["manoeuvred_on"].as_integer(),
        Some(3)
    );
    refused(
        &server.post("/api/save", Some(r#"{"to": "new.toml"}"#)),
        409,
        "umpire::serve::confirm",
    );
    let r = server.post("/api/save", Some(r#"{"to": "new.toml", "confirm": true}"#));
    assert_eq!(r.status, 200, "{}", r.body);

    // Never over a ruleset, a scenario or a game log. A ruleset's or a log's name is no
    // state file's name (not .toml or .json), refused as such; the scenario, a .toml,
    // unconfirmed asks to be confirmed (the file is there), and confirmed is refused for
    // what the file holds.
    for name in ["x.rules", "game.log"] {
        for confirm in [false, true] {
            let body = json!({ "to": name, "confirm": confirm }).to_string();
            refused(
                &server.post("/api/save", Some(&body)),
                400,
                "umpire::serve::path",
            );
        }
    }
    let body = json!({ "to": "scenario.toml" }).to_string();
    refused(
        &server.post("/api/save", Some(&body)),
        409,
        "umpire::serve::confirm",
    );
    let body = json!({ "to": "scenario.toml", "confirm": true }).to_string();
    refused(
        &server.post("/api/save", Some(&body)),
        400,
        "umpire::io::not_state",
    );
    for name in ["x.rules", "scenario.toml", "game.log"] {
        assert_eq!(
            std::fs::read(dir.join(name)).expect("read"),
            befores[name],
            "{name}"
        );
    }
    still_serving(&server);
}

#[test]
fn stopping_reports_unsaved_changes_and_writes_nothing() {
    let dir = brigade_folder("stop");
    let before = std::fs::read(dir.join("brigade.toml")).expect("state");
    let mut server = Server::start(
        &dir.0,
        &["furious_reason", "--state", "brigade.toml", "--seed", "7"],
    );
    assert_eq!(
        server.post("/api/adjudicate", Some(SECOND_FOOT)).status,
        200
    );
    assert_eq!(server.post("/api/apply", None).status, 200);
    let (status, said) = server.interrupt();
    assert_eq!(status.code(), Some(0), "{said:?}");
    let said = said.join("\n");
    assert!(
        said.contains("not saved") && said.contains("--save-on-exit"),
        "{said}"
    );
    assert_eq!(
        std::fs::read(dir.join("brigade.toml")).expect("state"),
        before
    );
    assert_eq!(listing(&dir.0), ["brigade.toml"]);
}

#[test]
fn stopping_with_save_on_exit_saves() {
    let dir = brigade_folder("stop_save");
    let mut server = Server::start(
        &dir.0,
        &[
            "furious_reason",
            "--state",
            "brigade.toml",
            "--seed",
            "7",
            "--save-on-exit",
        ],
    );
    assert_eq!(
        server.post("/api/adjudicate", Some(SECOND_FOOT)).status,
        200
    );
    assert_eq!(server.post("/api/apply", None).status, 200);
    let (status, said) = server.interrupt();
    assert_eq!(status.code(), Some(0), "{said:?}");
    let said = said.join("\n");
    assert!(said.contains("saved the state to"), "{said}");
    let saved = std::fs::read_to_string(dir.join("brigade.toml")).expect("state");
    let state: toml::Value = toml::from_str(&saved).expect("a TOML state");
    assert_eq!(
        state["brigade"]["second_foot"]["manoeuvred_on"].as_integer(),
        Some(3)
    );
}

#[test]
fn stopping_with_nothing_changed() {
    let dir = brigade_folder("stop_clean");
    let before = std::fs::read(dir.join("brigade.toml")).expect("state");
    let mut server = Server::start(
        &dir.0,
        &[
            "furious_reason",
            "--state",
            "brigade.toml",
            "--seed",
            "7",
            "--save-on-exit",
        ],
    );
    let (status, said) = server.interrupt();
    assert_eq!(status.code(), Some(0), "{said:?}");
    assert!(
        said.join("\n").contains("nothing was left unsaved"),
        "{said:?}"
    );
    assert_eq!(
        std::fs::read(dir.join("brigade.toml")).expect("state"),
        before
    );
}

#[test]
fn listens_where_told() {
    let dir = brigade_folder("listen");
    let server = Server::start(
        &dir.0,
        &[
            "furious_reason",
            "--state",
            "brigade.toml",
            "--seed",
            "7",
            "--listen",
            "127.0.0.2",
        ],
    );
    assert!(server.addr.starts_with("127.0.0.2:"), "{}", server.addr);
    assert_eq!(server.table()["clock"][0]["value"], "3");
    // Not on 127.0.0.1.
    let port = server.addr.rsplit(':').next().unwrap_or_default();
    assert!(std::net::TcpStream::connect(format!("127.0.0.1:{port}")).is_err());

    let ran = run_umpire(
        &dir.0,
        &[
            "serve",
            "furious_reason",
            "--listen",
            "not-an-ip",
            "--port",
            "0",
        ],
    );
    assert_eq!(ran.status.code(), Some(2), "{}", ran.stderr);
    assert!(ran.stderr.contains("--listen"), "{}", ran.stderr);
    assert!(!ran.stdout.contains("page:"), "{}", ran.stdout);

    // A port in use: this test holds it.
    let held = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = held.local_addr().expect("addr").port().to_string();
    let ran = run_umpire(&dir.0, &["serve", "furious_reason", "--port", &port]);
    assert_eq!(ran.status.code(), Some(1), "{}", ran.stderr);
    assert!(
        ran.stderr.contains("umpire::serve::listen"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr
            .contains(&format!("could not listen on 127.0.0.1:{port}")),
        "{}",
        ran.stderr
    );
    assert!(!ran.stdout.contains("page:"), "{}", ran.stdout);
}

#[test]
fn a_ruleset_that_fails_serves_nothing() {
    let dir = brigade_folder("missing");
    let ran = run_umpire(&dir.0, &["serve", "missing.rules", "--port", "0"]);
    assert_eq!(ran.status.code(), Some(1), "{}", ran.stderr);
    assert!(ran.stderr.contains("missing.rules"), "{}", ran.stderr);
    assert!(ran.stderr.contains("umpire::"), "{}", ran.stderr);
    assert!(!ran.stdout.contains("page:"), "{}", ran.stdout);
    let ran = run_umpire(
        &dir.0,
        &[
            "serve",
            "furious_reason",
            "--state",
            "nowhere.toml",
            "--port",
            "0",
        ],
    );
    assert_eq!(ran.status.code(), Some(1), "{}", ran.stderr);
    assert!(ran.stderr.contains("nowhere.toml"), "{}", ran.stderr);
    assert!(!ran.stdout.contains("page:"), "{}", ran.stdout);
}

/// What a page of another site could send is refused: a request addressed to a host
/// name (DNS rebinding points a name at this machine) and a body that is not JSON (a
/// form another site's page posts without asking first).
#[test]
fn another_sites_requests_are_refused() {
    let dir = brigade_folder("cross_site");
    let server = Server::start(&dir.0, &["furious_reason", "--state", "brigade.toml"]);
    let rebound = client::raw(
        &server.addr,
        b"GET /api/table HTTP/1.1\r\nHost: evil.example:7878\r\nConnection: close\r\n\r\n",
    );
    refused(&rebound, 403, "umpire::serve::request");
    for host in ["localhost:1", "127.0.0.1", "[::1]:7878"] {
        let asked = format!("GET /api/table HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n");
        assert_eq!(
            client::raw(&server.addr, asked.as_bytes()).status,
            200,
            "{host}"
        );
    }
    let body = r#"{"question":"d6"}"#;
    let form = format!(
        "POST /api/odds HTTP/1.1\r\nHost: {}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    refused(
        &client::raw(&server.addr, form.as_bytes()),
        415,
        "umpire::serve::request",
    );
    still_serving(&server);
}

/// The odds are worked out one question at a time: a second asked meanwhile is
/// refused in words, not queued behind the first, and the umpire's page can stop the
/// first (the game as it was).
#[test]
fn long_odds_one_at_a_time_and_stopped_on_request() {
    let dir = brigade_folder("long_odds");
    let server = Server::start(&dir.0, &["furious_reason", "--state", "brigade.toml"]);
    let addr = server.addr.clone();
    let long = std::thread::spawn(move || {
        let body = r#"{"question":"d1000 + m","sweep":"m=1..1000"}"#;
        request(&addr, "POST", "/api/odds", &[], Some(body.as_bytes()))
    });
    // The second question, asked while the first is worked out.
    let mut busy = None;
    for _ in 0..100 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        let r = server.send("POST", "/api/odds", false, Some(r#"{"question":"d6"}"#));
        if r.status == 503 {
            busy = Some(r);
            break;
        }
    }
    let busy = busy.expect("a second question's odds refused while the first's are worked out");
    refused(&busy, 503, "umpire::serve::refused");
    assert_eq!(server.post("/api/cancel", None).status, 200);
    let first = long.join().expect("the first request");
    assert_eq!(
        first.codes(),
        vec!["umpire::limit::cancelled".to_string()],
        "{}",
        first.body
    );
    // Free again, and the game as it was.
    let again = server.send("POST", "/api/odds", false, Some(r#"{"question":"d6"}"#));
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(server.table()["version"], json!(0));
}

/// The seed of umpire's dice is said only to the umpire's page: a player who knew it
/// could foretell every roll of umpire's.
#[test]
fn the_players_page_never_learns_the_dice_seed() {
    let dir = brigade_folder("seed");
    let server = Server::start(
        &dir.0,
        &[
            "furious_reason",
            "--state",
            "brigade.toml",
            "--seed",
            "424242",
        ],
    );
    let ask = json!({ "question": "manoeuvre_turn(\"second_foot\")" }).to_string();
    assert_eq!(server.post("/api/adjudicate", Some(&ask)).status, 200);
    let players = server.get("/api/table");
    assert_eq!(players.status, 200);
    assert!(!players.body.contains("424242"), "{}", players.body);
    assert_eq!(players.json()["dice"], json!("umpire rolls"));
    let umpire = server.send("GET", "/api/table", true, None);
    assert_eq!(umpire.json()["dice"], json!("umpire rolls (seed 424242)"));
}
