//! The evaluation threads: every CPU-heavy part of a request runs here, never on the threads that
//! serve connections, so one long evaluation cannot stall the answers to other clients.

use crate::error::{ApiError, ApiResult};
use axum::http::StatusCode;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::oneshot;

/// A pool of evaluation threads shared by every request.
#[derive(Clone)]
pub struct Workers {
    pool: Arc<rayon::ThreadPool>,
}

/// Set when the request behind a job has gone (timed out or its client left): a job still
/// queued is skipped, and a rollout stops at its next batch.
pub type Cancel = Arc<AtomicBool>;

/// Sets the flag when the waiting request is dropped.
struct CancelOnDrop(Cancel);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Stops a timer task once the job it watches is over.
struct AbortOnDrop(tokio::task::JoinHandle<()>);

impl Drop for AbortOnDrop {
    fn drop(&mut self) {
        self.0.abort();
    }
}

impl Workers {
    /// A pool of `threads` threads.
    pub fn new(threads: usize) -> gammon_backgammon::Result<Workers> {
        Workers::named(threads, "gammon-eval")
    }

    /// A pool of `threads` threads named `name-0`, `name-1`...
    pub fn named(threads: usize, name: &'static str) -> gammon_backgammon::Result<Workers> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(move |k| format!("{name}-{k}"))
            .build()
            .map_err(|e| {
                gammon_backgammon::Error::InvalidArgument(format!("cannot start {threads} threads: {e}"))
            })?;
        Ok(Workers { pool: Arc::new(pool) })
    }

    /// Builds the net and the bear-off database on a pool thread now, in the background, so that
    /// the first requests after start-up do not wait the second or so that takes.
    pub fn warm_up(&self) {
        self.pool.spawn(|| {
            gammon_bot::net::NeuralNet::builtin();
            gammon_bot::bearoff::database();
        });
    }

    /// The number of threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// Runs `job` on the pool and waits for it without blocking the caller's thread. The job gets
    /// the request's [`Cancel`] flag. A panic in the job, which the engine should never raise,
    /// becomes a 500 rather than taking a thread down.
    pub async fn run<T, F>(&self, job: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> ApiResult<T> + Send + 'static,
    {
        self.run_for(None, job).await
    }

    /// As [`Workers::run`], and the job's [`Cancel`] flag is also set once `limit` has passed,
    /// for jobs that can stop early with a partial answer.
    pub async fn run_for<T, F>(&self, limit: Option<Duration>, job: F) -> ApiResult<T>
    where
        T: Send + 'static,
        F: FnOnce(&Cancel) -> ApiResult<T> + Send + 'static,
    {
        let cancel: Cancel = Arc::new(AtomicBool::new(false));
        let _guard = CancelOnDrop(cancel.clone());
        let _timer = limit.map(|limit| {
            let cancel = cancel.clone();
            AbortOnDrop(tokio::spawn(async move {
                tokio::time::sleep(limit).await;
                cancel.store(true, Ordering::Relaxed);
            }))
        });
        let (tx, rx) = oneshot::channel();
        self.pool.spawn(move || {
            if cancel.load(Ordering::Relaxed) {
                return;
            }
            let outcome = catch_unwind(AssertUnwindSafe(|| job(&cancel)));
            let _ = tx.send(outcome);
        });
        match rx.await {
            Ok(Ok(result)) => result,
            Ok(Err(_)) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the evaluation failed")),
            Err(_) => Err(ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "the evaluation was dropped")),
        }
    }
}
