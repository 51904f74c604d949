//! HTTP-level tests of `umpire serve`'s Odds, Editions and Ruleset screens: the real
//! binary on a free port, asked over a tiny client (`tests/serve/client.rs`).

#[path = "serve/client.rs"]
mod client;

use client::Server;

#[test]
fn the_server_starts_and_answers_the_table() {
    let s = Server::start(&["furious_reason"], None);
    let t = s.get("/api/table");
    assert_eq!(t.status, 200, "{}", t.text());
    assert_eq!(t.json()["ruleset"]["source"], "furious_reason");
}
