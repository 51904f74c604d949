//! The page itself: HTML, CSS and JavaScript written by hand (no framework, no build
//! step), embedded in the binary. Every answer says what it is (its content type, and
//! `nosniff`), sends no referrer (the umpire's address holds the token), is not cached,
//! and holds the page to its own scripts and styles (`Content-Security-Policy`: nothing
//! inline but the charts' SVG, nothing from elsewhere).

use super::App;
use axum::http::header::{self, HeaderName};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The page's security policy: its own scripts, styles and images (and `data:` images).
pub const CONTENT_SECURITY_POLICY: &str =
    "default-src 'self'; img-src 'self' data:; style-src 'self'; frame-ancestors 'none'; \
     base-uri 'none'; form-action 'none'";

/// The page's routes: `/`, `/app.js`, `/style.css`, `/favicon.svg`.
pub fn routes() -> Router<App> {
    Router::new()
        .route("/", get(index))
        .route("/index.html", get(index))
        .route("/app.js", get(script))
        .route("/style.css", get(style))
        .route("/favicon.svg", get(icon))
}

/// An asset with its content type and the page's headers.
fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    let headers: [(HeaderName, &'static str); 6] = [
        (header::CONTENT_TYPE, content_type),
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::CACHE_CONTROL, "no-store"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ];
    (headers, body)
}

async fn index() -> impl IntoResponse {
    asset("text/html; charset=utf-8", include_str!("page/index.html"))
}

async fn script() -> impl IntoResponse {
    asset(
        "text/javascript; charset=utf-8",
        include_str!("page/app.js"),
    )
}

async fn style() -> impl IntoResponse {
    asset("text/css; charset=utf-8", include_str!("page/style.css"))
}

async fn icon() -> impl IntoResponse {
    asset("image/svg+xml", include_str!("page/favicon.svg"))
}
