//! What a server is started with: the default search depth, its worker threads and its limits.

use gammon_backgammon::{Error, Result};
use gammon_bot::search::MAX_PLY;
use std::time::Duration;

/// How a server runs.
///
/// ```
/// use gammon_server::Config;
/// let config = Config { ply: 1, ..Config::default() };
/// assert!(config.validate().is_ok());
/// assert!(Config { ply: 3, ..Config::default() }.validate().is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Config {
    /// The search depth of requests that do not name one (0..=2).
    pub ply: u8,
    /// Threads doing the evaluation work; `None` is one per core. Connections are served on two
    /// more threads, which never evaluate, so a busy pool cannot stop the server from answering.
    pub threads: Option<usize>,
    /// The bounds that keep any one client from taking the server.
    pub limits: Limits,
    /// When set, every endpoint but `/health` requires `Authorization: Bearer <token>` (401
    /// otherwise).
    pub token: Option<String>,
}

impl Config {
    /// Checks every field; the error names the one out of range.
    pub fn validate(&self) -> Result<()> {
        if self.ply > MAX_PLY {
            return Err(Error::InvalidArgument(format!("ply must be 0, 1 or 2, got {}", self.ply)));
        }
        if let Some(n) = self.threads {
            if !(1..=1024).contains(&n) {
                return Err(Error::InvalidArgument(format!("threads must be in 1..=1024, got {n}")));
            }
        }
        if let Some(token) = &self.token {
            if token.is_empty() || !token.bytes().all(|b| b.is_ascii_graphic()) {
                return Err(Error::InvalidArgument(
                    "token must be a non-empty word of printable ASCII characters".into(),
                ));
            }
        }
        self.limits.validate()
    }

    /// The number of threads running rollouts, apart from the evaluation threads:
    /// [`Limits::max_rollouts`], or half the evaluation threads (at least one).
    pub fn rollout_threads(&self) -> usize {
        self.limits.max_rollouts.unwrap_or_else(|| (self.worker_threads() / 2).max(1))
    }

    /// The number of evaluation threads: `threads`, or one per core.
    pub fn worker_threads(&self) -> usize {
        self.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
    }
}

/// Bounds on what one request or connection may cost.
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// Largest request body; a larger one is refused with 413.
    pub max_body_bytes: usize,
    /// Longest query string; a longer one is refused with 414.
    pub max_query_bytes: usize,
    /// Largest request head (request line and headers); at least 8192, as the HTTP parser needs.
    pub max_head_bytes: usize,
    /// A client must send a whole request head within this time, also on an idle kept-alive
    /// connection, or the connection is closed: slow or half-open clients cannot hold it forever.
    pub header_read_timeout: Duration,
    /// A client must send a whole request body within this time of its head, or gets 408: a
    /// body trickling in cannot hold the server, and no request counts as in progress (see
    /// `max_in_flight`) before its body is in.
    pub body_read_timeout: Duration,
    /// A request not answered within this time gets 408.
    pub request_timeout: Duration,
    /// Requests in progress at once; beyond it the server answers 503 at once rather than queue.
    pub max_in_flight: usize,
    /// Open connections at once; further clients wait to be accepted.
    pub max_connections: usize,
    /// Rollouts running at once, on threads of their own so that they never hold up the short
    /// queries; a rollout beyond it is answered 503 with `Retry-After`. `None` is half the
    /// evaluation threads, at least one.
    pub max_rollouts: Option<usize>,
    /// The most trials one rollout request may ask for.
    pub max_rollout_trials: u64,
    /// A rollout still running after this time stops and reports the trials done so far.
    pub rollout_time: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_body_bytes: 64 * 1024,
            max_query_bytes: 4096,
            max_head_bytes: 16 * 1024,
            header_read_timeout: Duration::from_secs(10),
            body_read_timeout: Duration::from_secs(5),
            request_timeout: Duration::from_secs(30),
            max_in_flight: 256,
            max_connections: 1024,
            max_rollouts: None,
            max_rollout_trials: 10_000,
            rollout_time: Duration::from_secs(20),
        }
    }
}

impl Limits {
    /// Checks that every bound allows some work and that a rollout's own time budget ends
    /// before the request times out (so that it can still report its partial result).
    pub fn validate(&self) -> Result<()> {
        let positive = [
            ("max_body_bytes", self.max_body_bytes as u64),
            ("max_query_bytes", self.max_query_bytes as u64),
            ("max_in_flight", self.max_in_flight as u64),
            ("max_connections", self.max_connections as u64),
            ("max_rollout_trials", self.max_rollout_trials),
            ("max_rollouts", self.max_rollouts.map_or(1, |n| n as u64)),
        ];
        if let Some((name, _)) = positive.iter().find(|(_, v)| *v == 0) {
            return Err(Error::InvalidArgument(format!("{name} must be at least 1")));
        }
        if self.max_head_bytes < 8192 {
            return Err(Error::InvalidArgument(format!(
                "max_head_bytes must be at least 8192, got {}",
                self.max_head_bytes
            )));
        }
        if self.max_rollouts.is_some_and(|n| n > 1024) {
            return Err(Error::InvalidArgument("max_rollouts must be at most 1024".into()));
        }
        if self.header_read_timeout.is_zero()
            || self.body_read_timeout.is_zero()
            || self.request_timeout.is_zero()
        {
            return Err(Error::InvalidArgument("timeouts must be longer than zero".into()));
        }
        if self.rollout_time >= self.request_timeout {
            return Err(Error::InvalidArgument(format!(
                "rollout_time ({:?}) must be shorter than request_timeout ({:?})",
                self.rollout_time, self.request_timeout
            )));
        }
        Ok(())
    }
}
