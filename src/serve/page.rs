//! The page itself: HTML, CSS and JavaScript written by hand (no framework, no build
//! step), embedded in the binary.

use super::App;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The page's routes.
pub fn routes() -> Router<App> {
    Router::new().route("/", get(index))
}

async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("page/index.html"),
    )
}
