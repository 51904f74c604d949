//! (being written) the odds screen's API.

use super::App;
use axum::Router;

/// The routes.
pub fn routes() -> Router<App> {
    Router::new()
}
