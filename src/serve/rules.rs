//! (being written) the rules screen's API.

use super::App;
use axum::Router;

/// The routes.
pub fn routes() -> Router<App> {
    Router::new()
}
