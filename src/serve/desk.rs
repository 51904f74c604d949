//! The game's own thread: a [`Game`] holds `Rc`s and is not `Send`, so one thread owns
//! it and the web handlers send it jobs — each a closure given the [`Desk`], answering
//! on a channel of its own. Between jobs the thread looks at the ruleset's files, and
//! reads them again when one changed on disk.

use super::problem::{diag_json, Problem};
use crate::diagnostic::{Code, Diag, Diags};
use crate::game::{Candidate, DiceMode, Fit, Game, Source};
use crate::limits::Limits;
use axum::http::StatusCode;
use serde_json::{json, Value as Json};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, SystemTime};
use tokio::sync::broadcast;

/// The game thread's stack: as roomy as the CLI's (`main.rs`), for deeply nested (but
/// limited) rulesets.
const GAME_STACK: usize = 256 * 1024 * 1024;

/// How often the ruleset's files are looked at for a change.
const LOOK_EVERY: Duration = Duration::from_millis(500);

/// Something every page hears (server-sent events): `table` after a change of the game,
/// `rules` after the ruleset files changed on disk.
#[derive(Debug, Clone)]
pub struct Event {
    /// The event's name: `table` or `rules`.
    pub kind: &'static str,
    /// Its data, JSON.
    pub data: String,
}

/// What the game's thread holds: the game, and what the server knows about it.
pub struct Desk {
    /// The game at the table.
    pub game: Game,
    /// Counts the changes made through the server: a page that heard of version N and
    /// holds it has the table as it is.
    pub version: u64,
    /// The folder a state file is saved in (the state file's, else the working folder).
    pub folder: PathBuf,
    /// The ruleset's files on disk and when each was last changed.
    watched: Vec<(PathBuf, Option<SystemTime>)>,
    /// The checker's problems with the ruleset's files as they are on disk now (empty
    /// when they check clean), as JSON.
    pub problems: Vec<Json>,
    /// Why the files, changed on disk, are not yet read again (effects waiting).
    pub deferred: Option<String>,
    /// Counts the times the ruleset files were read again (or failed to check).
    pub rules_version: u64,
    events: broadcast::Sender<Event>,
    /// The questions the page offers ([`super::view`]), worked out once for each
    /// program in use (every page asks for the table after every change).
    pub questions: std::cell::RefCell<Option<(std::rc::Rc<crate::program::Program>, Json)>>,
}

impl Desk {
    /// Tells every page that the game changed (`what`, in words); counts a version.
    pub fn changed(&mut self, what: &str) {
        self.version += 1;
        let data = json!({ "version": self.version, "what": what }).to_string();
        let _ = self.events.send(Event {
            kind: "table",
            data,
        });
    }

    /// Looks at the ruleset's files; reads them again when one changed. A ruleset that
    /// no longer checks leaves the game on the one that last did, its problems kept for
    /// the Ruleset screen; one that does is put in use, unless a result's effects wait
    /// (they would be forgotten), and then it waits for them.
    fn look_at_files(&mut self) {
        // Files read while effects waited are read again once they no longer wait.
        let mut moved = self.deferred.is_some() && self.game.unapplied().is_none();
        for (path, seen) in &mut self.watched {
            let now = std::fs::metadata(&*path).and_then(|m| m.modified()).ok();
            if now != *seen {
                *seen = now;
                moved = true;
            }
        }
        if moved {
            self.read_again();
        }
    }

    fn read_again(&mut self) {
        let before = (self.problems.clone(), self.deferred.clone());
        match self.game.read_again() {
            Err(f) => {
                let limits = self.game.ruleset().limits;
                self.problems = self
                    .problems_on_disk(&limits)
                    .unwrap_or_else(|| f.diags().iter().map(|d| diag_json(d, None)).collect());
                self.deferred = None;
            }
            Ok(candidate) => {
                if let Some(waiting) = self.game.unapplied() {
                    self.deferred = Some(format!(
                        "the ruleset file changed on disk; it is read again once the \
                         effects of `{}` are applied or dropped",
                        waiting.text()
                    ));
                } else {
                    self.put_in_use(candidate);
                }
            }
        }
        if before != (self.problems.clone(), self.deferred.clone()) || self.deferred.is_none() {
            self.rules_version += 1;
            let data = json!({ "version": self.rules_version }).to_string();
            let _ = self.events.send(Event {
                kind: "rules",
                data,
            });
        }
    }

    fn put_in_use(&mut self, candidate: Candidate) {
        let warnings: Vec<Json> = candidate
            .warnings()
            .iter()
            .map(|d| diag_json(d, Some(candidate.sources())))
            .collect();
        match self.game.put_in_use(candidate, Fit::Keep) {
            Ok(_) => {
                self.problems = warnings;
                self.deferred = None;
                self.watched = watch_list(&self.game);
                self.changed("the ruleset file was read again");
            }
            Err(f) => {
                self.problems = f.diags().iter().map(|d| diag_json(d, None)).collect();
                self.deferred = None;
            }
        }
    }

    /// The checker's problems with the ruleset file as it is on disk, their spans
    /// placed in its files (`Ruleset::analyse_source`).
    fn problems_on_disk(&self, limits: &Limits) -> Option<Vec<Json>> {
        let Source::File(path) = self.game.source() else {
            return None;
        };
        let text = crate::files::read_file(path, limits).ok()?;
        let analysis = crate::Ruleset::analyse_source(path, &text, limits);
        Some(
            analysis
                .problems
                .iter()
                .map(|d| diag_json(d, Some(&analysis.sources)))
                .collect(),
        )
    }
}

/// The ruleset's files on disk (a bundled ruleset has none), each with when it changed.
fn watch_list(game: &Game) -> Vec<(PathBuf, Option<SystemTime>)> {
    if !matches!(game.source(), Source::File(_)) {
        return Vec::new();
    }
    game.ruleset()
        .sources
        .files()
        .iter()
        .map(|f| PathBuf::from(&f.name))
        .filter(|p| p.is_file())
        .map(|p| {
            let when = std::fs::metadata(&p).and_then(|m| m.modified()).ok();
            (p, when)
        })
        .collect()
}

/// A job for the game's thread.
type Job = Box<dyn FnOnce(&mut Desk) + Send>;

/// How long the odds of one question may take before they are stopped.
pub const LONG_WORK_LIMIT: Duration = Duration::from_secs(30);

/// How a handler reaches the game's thread (cheap to clone).
#[derive(Clone)]
pub struct Handle {
    jobs: mpsc::Sender<Job>,
    /// Numbers the jobs; the one running now (0: none).
    next: Arc<AtomicU64>,
    running: Arc<AtomicU64>,
    /// Set when the server stops: long work not yet begun is not begun.
    stopping: Arc<AtomicBool>,
    /// One long piece of work (odds) at a time, waiting or running.
    long: Arc<tokio::sync::Semaphore>,
}

/// A job asked for and not yet answered: when its asker goes away (the page closed,
/// the request timed out), a job still waiting is never begun and one running is asked
/// to stop.
struct Asked {
    id: u64,
    running: Arc<AtomicU64>,
    abandoned: Arc<AtomicBool>,
    answered: bool,
}

impl Drop for Asked {
    fn drop(&mut self) {
        if !self.answered {
            self.abandoned.store(true, Ordering::SeqCst);
            if self.running.load(Ordering::SeqCst) == self.id {
                crate::cancel::request();
            }
        }
    }
}

impl Handle {
    fn new(jobs: mpsc::Sender<Job>) -> Handle {
        Handle {
            jobs,
            next: Arc::new(AtomicU64::new(1)),
            running: Arc::new(AtomicU64::new(0)),
            stopping: Arc::new(AtomicBool::new(false)),
            long: Arc::new(tokio::sync::Semaphore::new(1)),
        }
    }

    /// Runs `f` on the game's thread and answers what it returns. A job that panics is
    /// answered with an error and the thread goes on with the next.
    pub async fn ask<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Desk) -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        self.ask_as(false, f).await
    }

    /// Runs long work (the odds of a question): one at a time — another asked
    /// meanwhile is refused, not queued — stopped after [`LONG_WORK_LIMIT`], when its
    /// page goes away, or when the server stops.
    pub async fn ask_long<T: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Desk) -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let Ok(_permit) = self.long.clone().try_acquire_owned() else {
            return Err(Problem::one(
                StatusCode::SERVICE_UNAVAILABLE,
                Diag::error(
                    Code::ServeRefused,
                    "the odds of another question are being worked out now",
                )
                .help("ask again when they are done (the umpire's page can stop them)"),
            ));
        };
        match tokio::time::timeout(LONG_WORK_LIMIT, self.ask_as(true, f)).await {
            Ok(answer) => answer,
            Err(_) => Err(Problem::one(
                StatusCode::SERVICE_UNAVAILABLE,
                Diag::error(
                    Code::ServeRefused,
                    format!(
                        "the odds took longer than {} seconds and were stopped; the game is as it was",
                        LONG_WORK_LIMIT.as_secs()
                    ),
                )
                .help("ask a smaller question, or a shorter sweep, or use `umpire prob` in a terminal"),
            )),
        }
    }

    /// Says the server is stopping: long work not yet begun is not begun, and the work
    /// in hand is asked to stop.
    pub fn stop(&self) {
        self.stopping.store(true, Ordering::SeqCst);
        crate::cancel::request();
    }

    async fn ask_as<T: Send + 'static>(
        &self,
        long: bool,
        f: impl FnOnce(&mut Desk) -> Result<T, Problem> + Send + 'static,
    ) -> Result<T, Problem> {
        let (tx, rx) = tokio::sync::oneshot::channel();
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let mut asked = Asked {
            id,
            running: self.running.clone(),
            abandoned: Arc::new(AtomicBool::new(false)),
            answered: false,
        };
        let (running, abandoned, stopping) = (
            self.running.clone(),
            asked.abandoned.clone(),
            self.stopping.clone(),
        );
        let job: Job = Box::new(move |desk: &mut Desk| {
            if abandoned.load(Ordering::SeqCst) || (long && stopping.load(Ordering::SeqCst)) {
                let _ = tx.send(Err(Problem::gone()));
                return;
            }
            running.store(id, Ordering::SeqCst);
            let answer = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(desk)))
                .unwrap_or_else(|_| {
                    Err(Problem::one(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        Diag::error(Code::ServeRequest, "umpire failed inside (a bug)")
                            .help("the game goes on as it was; please report what was asked"),
                    ))
                });
            running.store(0, Ordering::SeqCst);
            let _ = tx.send(answer);
        });
        self.jobs.send(job).map_err(|_| Problem::gone())?;
        let answer = rx.await.map_err(|_| Problem::gone());
        asked.answered = true;
        answer?
    }
}

/// What the game starts from.
pub struct Opening {
    /// A bundled ruleset's name or a ruleset file (none: dice only).
    pub ruleset: Option<String>,
    /// The state file.
    pub state: Option<String>,
    /// The dice.
    pub dice: DiceMode,
    /// The limits.
    pub limits: Limits,
}

/// What the game's thread told when it started: the ruleset's title and where it
/// came from, and its warnings.
pub struct Opened {
    /// `Furious Reason (the bundled ruleset `furious_reason`)`.
    pub title: String,
    /// The ruleset's warnings, drawn.
    pub warnings: Vec<Diag>,
}

/// Starts the game's thread: reads the ruleset and the state there (a `Game` never
/// leaves its thread) and then serves jobs until every [`Handle`] is dropped.
///
/// Errors: the ruleset or the state file cannot be read (the thread ends).
pub fn open(
    opening: Opening,
    events: broadcast::Sender<Event>,
) -> Result<(Handle, std::thread::JoinHandle<()>, Opened), Diags> {
    let (jobs, inbox) = mpsc::channel::<Job>();
    let (started_tx, started_rx) = mpsc::channel::<Result<Opened, Diags>>();
    let thread = std::thread::Builder::new()
        .name("umpire-game".into())
        .stack_size(GAME_STACK)
        .spawn(move || {
            let mut desk = match start(opening, events) {
                Ok((desk, opened)) => {
                    let _ = started_tx.send(Ok(opened));
                    desk
                }
                Err(ds) => {
                    let _ = started_tx.send(Err(ds));
                    return;
                }
            };
            // The files are looked at every half second, however busy the pages keep it.
            let mut looked = std::time::Instant::now();
            loop {
                let wait = LOOK_EVERY.saturating_sub(looked.elapsed());
                match inbox.recv_timeout(wait) {
                    Ok(job) => crate::cancel::during(|| job(&mut desk)),
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
                if looked.elapsed() >= LOOK_EVERY {
                    desk.look_at_files();
                    looked = std::time::Instant::now();
                }
            }
        })
        .map_err(|e| {
            Diags(vec![Diag::error(
                Code::ServeListen,
                format!("could not start the game's thread: {e}"),
            )])
        })?;
    match started_rx.recv() {
        Ok(Ok(opened)) => Ok((Handle::new(jobs), thread, opened)),
        Ok(Err(ds)) => Err(ds),
        Err(_) => Err(Diags(vec![Diag::error(
            Code::ServeListen,
            "the game's thread stopped before it started",
        )])),
    }
}

fn start(opening: Opening, events: broadcast::Sender<Event>) -> Result<(Desk, Opened), Diags> {
    let mut game = Game::new(opening.dice);
    game.set_limits(opening.limits);
    // The odds are shown to every page: sampled with a seed of their own, so that no
    // player learns umpire's dice from them.
    game.sample_odds_with(crate::dice::fresh_seed());
    let mut warnings = Vec::new();
    if let Some(name) = &opening.ruleset {
        let candidate = Candidate::read(name, &opening.limits)?;
        warnings = candidate.warnings().to_vec();
        game.put_in_use(candidate, Fit::Keep)
            .map_err(|f| Diags(f.diags().to_vec()))?;
    }
    if let Some(path) = &opening.state {
        game.load(path).map_err(|f| Diags(f.diags().to_vec()))?;
    }
    game.begin();
    let folder = opening
        .state
        .as_deref()
        .and_then(|p| PathBuf::from(p).parent().map(PathBuf::from))
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or_else(|| PathBuf::from("."));
    let title = match &game.program().title {
        Some(t) => format!("{t} ({})", game.source()),
        None => game.source().to_string(),
    };
    let desk = Desk {
        watched: watch_list(&game),
        game,
        version: 0,
        folder,
        problems: Vec::new(),
        deferred: None,
        rules_version: 0,
        events,
        questions: std::cell::RefCell::new(None),
    };
    Ok((desk, Opened { title, warnings }))
}
