//! `umpire lsp` driven as an editor drives it: real JSON-RPC messages over its stdin and
//! stdout (`lsp/client.rs`). What each answer should hold is reasoned from the documents
//! sent and from what `umpire check` says of the same text.

#[path = "lsp/client.rs"]
mod client;
mod common;

use client::{file_uri, span_of, Client};
use common::Scratch;
use serde_json::{json, Value};

/// A small ruleset with one mistake on its fourth line (0-based 3): `strenght` is not a
/// name, at columns 27 to 35.
const MISTAKE: &str = "ruleset \"Probe\"\n\
const strength = 3\n\
\n\
rule doubled() -> Int { 2 * strenght }\n";

#[test]
fn a_mistake_is_published_where_it_is_with_the_checks_code_and_goes_when_fixed() {
    let mut lsp = Client::start();
    let uri = "untitled:probe.rules";
    let found = lsp.open(uri, MISTAKE);
    assert_eq!(found.len(), 1, "{found:?}");
    let d = &found[0];
    assert_eq!(span_of(&d["range"]), (3, 28, 3, 36));
    assert_eq!(d["severity"], 1, "an error");
    assert_eq!(d["code"], "umpire::check::unknown_name");
    assert_eq!(d["source"], "umpire");
    let message = d["message"].as_str().expect("a message");
    assert!(message.contains("strenght"), "{message}");
    // The check's "did you mean" comes with it, as `umpire check` gives it.
    assert!(message.contains("strength"), "{message}");
    // Fixed: the next version has no diagnostics.
    let fixed = MISTAKE.replace("strenght", "strength");
    assert_eq!(lsp.change(uri, 2, &fixed), Vec::<Value>::new());
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn positions_count_utf16_units_and_crlf_lines() {
    let mut lsp = Client::start();
    // A `½` (one unit) and a `👍` (two) in a comment before the mistake on the same
    // line, and CRLF line breaks: the mistake starts at unit 3 of line 2.
    let text = "ruleset \"P\"\r\nconst a = 1\r\nconst b = a + zz # ½👍\r\n";
    let d = lsp.open("untitled:crlf.rules", text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(span_of(&d[0]["range"]), (2, 14, 2, 16));
    let text = "ruleset \"P\"\nconst a = \"½👍\"\nconst b = zz\n";
    let d = lsp.open("untitled:wide.rules", text);
    assert_eq!(span_of(&d[0]["range"]), (2, 10, 2, 12));
    let text = "ruleset \"P\"\nconst a = 1 # ½👍 zz\nconst b = a + \"👍\" + zz\n";
    let d = lsp.open("untitled:wide2.rules", text);
    // `const b = a + ` is 14 units, `"👍"` 4 (the 👍 counts two), ` + ` 3: `zz` at 21.
    assert!(
        d.iter().any(|d| span_of(&d["range"]) == (2, 21, 2, 23)),
        "{d:?}"
    );
}

#[test]
fn an_error_in_the_base_of_a_house_rule_is_shown_on_its_extends_line() {
    let dir = Scratch::new("base");
    std::fs::write(dir.join("base.rules"), MISTAKE).expect("base written");
    let house = "# My house rule\nextends \"base.rules\"\n\nconst extra = 1\n";
    let path = dir.join("house.rules");
    std::fs::write(&path, house).expect("house written");
    let mut lsp = Client::start();
    let d = lsp.open(&file_uri(&path), house);
    assert_eq!(d.len(), 1, "{d:?}");
    // `"base.rules"` on line 1, characters 8 to 20.
    assert_eq!(span_of(&d[0]["range"]), (1, 8, 1, 20));
    assert_eq!(d[0]["code"], "umpire::check::unknown_name");
    let message = d[0]["message"].as_str().expect("a message");
    assert!(
        message.contains("base.rules:4"),
        "names the base's line: {message}"
    );
}

#[test]
fn a_warning_is_published_as_a_warning() {
    let mut lsp = Client::start();
    // `umpire check` warns of a rule's parameter it never uses: `n`, line 1, 8 to 9.
    let text = "ruleset \"W\"\nrule r(n: Int) -> Int { 1 }\n";
    let d = lsp.open("untitled:warn.rules", text);
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0]["severity"], 2, "a warning");
    assert_eq!(d[0]["code"], "umpire::check::unused_parameter");
    assert_eq!(span_of(&d[0]["range"]), (1, 7, 1, 8));
}

#[test]
fn malformed_messages_are_answered_with_errors_and_the_server_keeps_serving() {
    let mut lsp = Client::start();
    // Not JSON at all: a parse error, with a null id.
    lsp.write_raw(b"Content-Length: 9\r\n\r\n{not json");
    let m = lsp.next();
    assert_eq!(m["error"]["code"], -32700, "{m}");
    assert_eq!(m["id"], Value::Null);
    // No Content-Length: a parse error too.
    lsp.write_raw(b"Content-Type: x\r\n\r\n");
    let m = lsp.next();
    assert_eq!(m["error"]["code"], -32700, "{m}");
    // A request with parameters of the wrong shape, and one no server method answers.
    lsp.send(&json!({ "jsonrpc": "2.0", "id": 7, "method": "no/such", "params": {} }));
    let m = lsp.answer_to(&json!(7));
    assert_eq!(m["error"]["code"], -32601, "{m}");
    // Still serving.
    let d = lsp.open("untitled:after.rules", MISTAKE);
    assert_eq!(d.len(), 1);
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn a_document_of_ten_megabytes_is_refused_in_words_and_the_server_goes_on() {
    let mut lsp = Client::start();
    let big = format!(
        "ruleset \"Big\"\n{}",
        "# filler line of a big file\n".repeat(380_000)
    );
    assert!(big.len() > 10_000_000);
    let d = lsp.open("untitled:big.rules", &big);
    assert_eq!(d.len(), 1, "{d:?}");
    let message = d[0]["message"].as_str().expect("a message");
    assert!(message.contains("larger than"), "{message}");
    let d = lsp.open("untitled:small.rules", MISTAKE);
    assert_eq!(d.len(), 1);
}

#[test]
fn exit_without_shutdown_ends_with_code_one() {
    let mut lsp = Client::start();
    lsp.notify("exit", Value::Null);
    assert_eq!(lsp.wait(), Some(1));
}

#[test]
fn formatting_answers_umpire_fmts_layout_as_one_edit_and_refuses_a_broken_document() {
    let mut lsp = Client::start();
    let uri = "untitled:layout.rules";
    // Rows out of line; `umpire fmt` puts their `=>` in one column (the widest key,
    // `7 or more`, sets it) and a blank line between the two definitions.
    let text = "enum R { a \"A\", b \"B\" }\ntable t(n: Int) -> R {\n  7 or more => a\n  5,6 =>   b\n    _ => a\n}\n";
    let want = "enum R { a \"A\", b \"B\" }\n\ntable t(n: Int) -> R {\n  7 or more => a\n  5,6       => b\n  _         => a\n}\n";
    assert_eq!(lsp.open(uri, text), Vec::<Value>::new());
    let options = json!({ "tabSize": 2, "insertSpaces": true });
    let answer = lsp.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    let edits = answer["result"].as_array().expect("edits");
    assert_eq!(edits.len(), 1, "{answer}");
    // The whole text replaced: from the start to the end of its last (empty) line 6.
    assert_eq!(span_of(&edits[0]["range"]), (0, 0, 6, 0));
    assert_eq!(edits[0]["newText"], want);
    // Laid out already: no edits.
    lsp.change(uri, 2, want);
    let answer = lsp.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    assert_eq!(answer["result"], json!([]));
    // A syntax error: an error answer saying where, and the text left alone.
    lsp.change(uri, 3, "rule r( {\n");
    let answer = lsp.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": uri }, "options": options }),
    );
    let why = answer["error"]["message"].as_str().expect("an error");
    assert!(
        why.contains("not formatted") && why.contains("line 1"),
        "{why}"
    );
    // A document never opened.
    let answer = lsp.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": "untitled:never.rules" }, "options": options }),
    );
    assert!(answer["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("not open")));
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn broken_framing_and_unreadable_ids_are_answered_and_the_next_message_is_read() {
    let mut lsp = Client::start();
    // A header byte that is not UTF-8 does not stop the server: the header is read and
    // the message it heads, `{}` (JSON, but no request), is answered as invalid.
    lsp.write_raw(b"X-Junk: \xff\r\nContent-Length: 2\r\n\r\n{}");
    let m = lsp.next();
    assert_eq!(m["error"]["code"], -32600, "{m}");
    // A request whose id is neither a whole number nor a text is refused, not taken
    // for a notification and left unanswered.
    lsp.send(&json!({ "jsonrpc": "2.0", "id": 1.5, "method": "shutdown" }));
    let m = lsp.next();
    assert_eq!(m["error"]["code"], -32600, "{m}");
    assert_eq!(m["id"], Value::Null);
    // An id and no method, result or error: refused, by its id.
    lsp.send(&json!({ "jsonrpc": "2.0", "id": 5 }));
    let m = lsp.answer_to(&json!(5));
    assert_eq!(m["error"]["code"], -32600, "{m}");
    // A Content-Length too short: `{"` is read as the message (not JSON), the rest runs
    // into the next header, whose Content-Length is still found, and its request is
    // answered.
    lsp.write_raw(b"Content-Length: 2\r\n\r\n{\"jsonrpc\":\"2.0\",\"id\":70,\"method\":\"x\"}");
    lsp.send(&json!({ "jsonrpc": "2.0", "id": 8, "method": "no/such" }));
    let m = lsp.answer_to(&json!(8));
    assert_eq!(m["error"]["code"], -32601, "{m}");
    // A Content-Length of a terabyte: refused, its "body" not waited for.
    lsp.write_raw(b"Content-Length: 1000000000000\r\n\r\n");
    lsp.send(&json!({ "jsonrpc": "2.0", "id": 9, "method": "no/such" }));
    let m = lsp.answer_to(&json!(9));
    assert_eq!(m["error"]["code"], -32601, "{m}");
    // A header line of a megabyte with no line break: passed over, not held.
    let mut long = vec![b'x'; 1 << 20];
    long.extend_from_slice(b"\r\n\r\n");
    lsp.write_raw(&long);
    let d = lsp.open("untitled:after.rules", MISTAKE);
    assert_eq!(d.len(), 1);
    assert_eq!(lsp.stop(), Some(0));
}

#[test]
fn a_change_to_a_document_never_opened_is_refused_not_taken() {
    let mut lsp = Client::start();
    lsp.notify(
        "textDocument/didChange",
        json!({ "textDocument": { "uri": "untitled:never.rules", "version": 2 },
                "contentChanges": [{ "text": MISTAKE }] }),
    );
    let logged = lsp.notification("window/logMessage");
    let said = logged["params"]["message"].as_str().expect("a message");
    assert!(said.contains("never opened"), "{said}");
    // Still not open: a request about it is refused.
    let answer = lsp.request(
        "textDocument/formatting",
        json!({ "textDocument": { "uri": "untitled:never.rules" },
                "options": { "tabSize": 2, "insertSpaces": true } }),
    );
    assert!(answer["error"]["message"]
        .as_str()
        .is_some_and(|m| m.contains("not open")));
}
