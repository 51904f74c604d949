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

#[cfg(test)]
mod tests {
    use super::*;
    use axum::response::Response;

    const HTML: &str = include_str!("page/index.html");
    const JS: &str = include_str!("page/app.js");
    const CSS: &str = include_str!("page/style.css");
    const ICON: &str = include_str!("page/favicon.svg");

    fn answer<F: std::future::Future<Output = R>, R: IntoResponse>(f: F) -> Response {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("a runtime for the test");
        rt.block_on(f).into_response()
    }

    fn header(r: &Response, name: HeaderName) -> &str {
        r.headers()
            .get(&name)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
    }

    #[test]
    fn every_asset_says_what_it_is_and_keeps_the_token_to_itself() {
        let answers = [
            (answer(index()), "text/html"),
            (answer(script()), "text/javascript"),
            (answer(style()), "text/css"),
            (answer(icon()), "image/svg+xml"),
        ];
        for (r, kind) in &answers {
            assert!(header(r, header::CONTENT_TYPE).starts_with(kind), "{kind}");
            let csp = header(r, header::CONTENT_SECURITY_POLICY);
            assert!(
                csp.starts_with("default-src 'self'; img-src 'self' data:; style-src 'self'"),
                "{csp}"
            );
            assert!(!csp.contains("unsafe"), "{csp}");
            assert_eq!(header(r, header::X_CONTENT_TYPE_OPTIONS), "nosniff");
            assert_eq!(header(r, header::REFERRER_POLICY), "no-referrer");
            assert_eq!(header(r, header::CACHE_CONTROL), "no-store");
        }
    }

    #[test]
    fn the_page_runs_no_inline_script_or_style_and_fetches_nothing_from_elsewhere() {
        // Every script is a file of ours; no <style>, no style="…" (the policy forbids both).
        for (at, _) in HTML.match_indices("<script") {
            let tag = &HTML[at..at + HTML[at..].find('>').unwrap_or(0)];
            assert!(tag.contains("src=\"/"), "an inline script: {tag}");
        }
        assert!(!HTML.contains("<style") && !HTML.contains("style=\""));
        // The files the page names are the ones served.
        for file in ["/app.js", "/style.css", "/favicon.svg"] {
            assert!(HTML.contains(&format!("\"{file}\"")), "{file}");
        }
        // Nothing from the internet (an SVG's namespace is a name, not a fetch).
        for (name, text) in [("index.html", HTML), ("app.js", JS), ("style.css", CSS)] {
            assert!(
                !text.contains("http://") && !text.contains("https://"),
                "{name} names an address"
            );
            assert!(
                !text.contains("@import") && !text.contains("url("),
                "{name}"
            );
        }
        assert!(ICON
            .replace("http://www.w3.org/2000/svg", "")
            .find("http")
            .is_none());
    }

    #[test]
    fn the_script_puts_text_in_the_page_never_markup() {
        for unsafe_call in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
            "new Function",
        ] {
            assert!(!JS.contains(unsafe_call), "app.js uses {unsafe_call}");
        }
        // The charts' SVG is parsed as SVG, not HTML.
        assert!(JS.contains("'image/svg+xml'"));
    }
}
