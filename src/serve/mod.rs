//! `umpire serve`: one game on a web page. The game lives on its own thread
//! ([`desk`]); the web server (axum, on a small tokio runtime) answers the page and
//! the API ([`api`]: the table; [`odds`]; [`editions`]; [`rules`]) by sending that
//! thread jobs, and tells every open page of each change (server-sent events). The
//! umpire's page carries a token and may change the game; every other page watches.
//!
//! Bound to 127.0.0.1 unless told otherwise; request bodies and questions are limited;
//! a failing request answers a diagnostic as JSON (`problem`) and the server goes on.
//! Ctrl-C (or SIGTERM) stops it: unsaved changes are saved with `--save-on-exit`, else
//! reported.

pub mod api;
pub mod desk;
pub mod editions;
pub mod odds;
pub mod page;
pub mod problem;
pub mod rules;
pub mod view;

use crate::diagnostic::{Code, Diag, Diags};
use crate::game::DiceMode;
use crate::limits::Limits;
use axum::extract::DefaultBodyLimit;
use axum::Router;
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use tokio::sync::{broadcast, watch};

/// The largest request body taken.
pub const MAX_BODY: usize = 64 * 1024;
/// The longest question taken (bytes).
pub const MAX_QUESTION: usize = 4 * 1024;
/// How long requests still open when the server stops are waited for.
const STOP_GRACE: std::time::Duration = std::time::Duration::from_secs(3);
/// The port served on unless `--port` says.
pub const DEFAULT_PORT: u16 = 7878;

/// What `umpire serve` was asked.
pub struct Options {
    /// A bundled ruleset's name or a ruleset file.
    pub ruleset: Option<String>,
    /// The state file.
    pub state: Option<String>,
    /// The address to bind.
    pub listen: IpAddr,
    /// The port (0: a free one).
    pub port: u16,
    /// Save unsaved changes when stopped.
    pub save_on_exit: bool,
    /// The dice.
    pub dice: DiceMode,
    /// The CLI's limits.
    pub limits: Limits,
}

/// What every handler shares.
#[derive(Clone)]
pub struct App {
    /// The game's thread.
    pub desk: desk::Handle,
    /// The umpire's token: a request carrying it may change the game.
    pub token: Arc<str>,
    /// Every page's events.
    pub events: broadcast::Sender<desk::Event>,
    /// Turns true when the server is stopping (ends the pages' event streams).
    pub stopping: watch::Receiver<bool>,
    /// The limits every question is held to.
    pub limits: Limits,
}

/// The routes: the page, the API.
pub fn router(app: App) -> Router {
    Router::new()
        .merge(page::routes())
        .merge(api::routes())
        .merge(odds::routes())
        .merge(rules::routes())
        .merge(editions::routes())
        .method_not_allowed_fallback(api::method_not_allowed)
        .fallback(api::not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn(api::only_this_machine_and_json))
        .with_state(app)
}

/// A token no one can guess: 128 bits from the operating system's generator, as hex.
fn new_token() -> String {
    use rand::RngCore;
    let mut bytes = [0u8; 16];
    rand::rngs::OsRng.fill_bytes(&mut bytes);
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Runs the server until Ctrl-C or SIGTERM; writes what it does to `out`.
///
/// Errors: the ruleset or state cannot be read; the address cannot be bound.
pub fn run(opts: Options, out: &mut dyn Write) -> Result<(), Diags> {
    let (events, _) = broadcast::channel(64);
    let opening = desk::Opening {
        ruleset: opts.ruleset.clone(),
        state: opts.state.clone(),
        dice: opts.dice.clone(),
        limits: opts.limits,
    };
    let (handle, thread, opened) = desk::open(opening, events.clone())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| one(format!("could not start the web server: {e}")))?;
    let addr = SocketAddr::new(opts.listen, opts.port);
    let listener = runtime
        .block_on(tokio::net::TcpListener::bind(addr))
        .map_err(|e| listen_error(addr, &e))?;
    let bound = listener.local_addr().map_err(|e| listen_error(addr, &e))?;
    let token: Arc<str> = new_token().into();
    let (stop_tx, stopping) = watch::channel(false);
    let app = App {
        desk: handle.clone(),
        token: token.clone(),
        events,
        stopping,
        limits: opts.limits,
    };
    for w in &opened.warnings {
        let _ = writeln!(out, "{}", crate::diagnostic::render(w, false));
    }
    // Listened for before the addresses are printed: a Ctrl-C right after them stops
    // the server cleanly (not by the signal's default action, saving nothing).
    let stop_signal = {
        let _in_runtime = runtime.enter();
        stopped()
    };
    let shown = shown_host(bound);
    let _ = writeln!(out, "Serving {}", opened.title);
    let _ = writeln!(out, "umpire's page:  http://{shown}/?token={token}");
    let _ = writeln!(out, "players' page:  http://{shown}/");
    let _ = writeln!(
        out,
        "Open the umpire's page to adjudicate (keep its address to yourself: it can change \
         the game); the players' page only watches. Ctrl-C stops the server."
    );
    let _ = out.flush();
    let stopper = handle.clone();
    let mut stopping = app.stopping.clone();
    let served = runtime.block_on(async move {
        let stop = async move {
            stop_signal.await;
            // The work in hand (the odds of a long question) stops, the game as it was.
            stopper.stop();
            let _ = stop_tx.send(true);
            // A second Ctrl-C stops at once, saving nothing.
            tokio::spawn(async {
                let _ = tokio::signal::ctrl_c().await;
                let _ = writeln!(
                    std::io::stderr(),
                    "Stopped at once (a second Ctrl-C): what was unsaved was not saved."
                );
                std::process::exit(130);
            });
        };
        let server = axum::serve(listener, router(app)).with_graceful_shutdown(stop);
        // Requests still open a few seconds after the stop (a page that sends half a
        // request and waits) are not waited for.
        let deadline = async move {
            let _ = stopping.wait_for(|s| *s).await;
            tokio::time::sleep(STOP_GRACE).await;
        };
        tokio::select! {
            r = server => r,
            () = deadline => Ok(()),
        }
    });
    let finish = runtime.block_on(handle.ask(move |d| Ok(api::finish(d, opts.save_on_exit))));
    drop(handle);
    runtime.shutdown_timeout(std::time::Duration::from_secs(2));
    let _ = thread.join();
    match finish {
        Ok(said) => {
            let _ = writeln!(out, "{said}");
        }
        Err(p) => {
            let _ = writeln!(out, "{}", serde_json::json!({ "error": p.errors }));
        }
    }
    let _ = out.flush();
    served.map_err(|e| one(format!("the web server stopped: {e}")))
}

/// The address as a browser is given it (`[::1]:7878` for IPv6; `127.0.0.1` for an
/// unspecified address, which a browser cannot open).
fn shown_host(bound: SocketAddr) -> String {
    let ip = if bound.ip().is_unspecified() {
        IpAddr::from([127, 0, 0, 1])
    } else {
        bound.ip()
    };
    SocketAddr::new(ip, bound.port()).to_string()
}

/// Resolves when the process is asked to stop: Ctrl-C (SIGINT), or SIGTERM. The
/// signals are registered when this is called (in the runtime), not when first awaited.
#[cfg(unix)]
fn stopped() -> impl std::future::Future<Output = ()> {
    use tokio::signal::unix::{signal, SignalKind};
    let interrupt = signal(SignalKind::interrupt());
    let terminate = signal(SignalKind::terminate());
    async move {
        let interrupt = async {
            match interrupt {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => {
                    let _ = tokio::signal::ctrl_c().await;
                }
            }
        };
        let terminate = async {
            match terminate {
                Ok(mut s) => {
                    s.recv().await;
                }
                Err(_) => std::future::pending::<()>().await,
            }
        };
        tokio::select! {
            () = interrupt => {}
            () = terminate => {}
        }
    }
}

/// Resolves when the process is asked to stop: Ctrl-C.
#[cfg(not(unix))]
fn stopped() -> impl std::future::Future<Output = ()> {
    async {
        let _ = tokio::signal::ctrl_c().await;
    }
}

fn one(message: String) -> Diags {
    Diags(vec![Diag::error(Code::ServeListen, message)])
}

fn listen_error(addr: SocketAddr, e: &std::io::Error) -> Diags {
    let help = match e.kind() {
        std::io::ErrorKind::AddrInUse => {
            "another program is using that port: give another with --port N (--port 0 picks a free one)"
        }
        std::io::ErrorKind::PermissionDenied => {
            "ports below 1024 need more rights: give a port above 1024 with --port N"
        }
        std::io::ErrorKind::AddrNotAvailable => {
            "that address is not one of this machine's: --listen takes one of its own IP \
             addresses (127.0.0.1, or 0.0.0.0 for all)"
        }
        _ => "give another address or port",
    };
    Diags(vec![Diag::error(
        Code::ServeListen,
        format!("could not listen on {addr}: {e}"),
    )
    .help(help)])
}
