//! Serving connections: the accept loop with its own bounds, and [`Server`], a running server
//! on its own threads that callers (the Python binding, tests) start and stop.

use crate::app::router;
use crate::config::{Config, Limits};
use crate::state::AppState;
use axum::Router;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::task::JoinSet;

/// How long requests in progress may take to finish once the server is stopping.
const GRACE: Duration = Duration::from_secs(2);

/// Serves `app` on `listener` until `stop` turns true (or its sender is dropped), then stops
/// accepting and gives the requests in progress a short grace to finish.
///
/// Each connection is HTTP/1.1 with keep-alive. A client must send each request head within
/// [`Limits::header_read_timeout`] (also on an idle kept-alive connection) or it is closed, and
/// at most [`Limits::max_connections`] are open at once, so slow or half-open clients cannot
/// pile up.
pub async fn serve(listener: TcpListener, app: Router, limits: &Limits, mut stop: watch::Receiver<bool>) {
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_read_timeout)
        .max_buf_size(limits.max_head_bytes)
        .keep_alive(true);
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let (closing_tx, closing) = watch::channel(false);
    let mut connections = JoinSet::new();
    loop {
        let slot = tokio::select! {
            _ = stop.wait_for(|&s| s) => break,
            slot = slots.clone().acquire_owned() => match slot {
                Ok(slot) => slot,
                Err(_) => break,
            },
        };
        let stream = tokio::select! {
            _ = stop.wait_for(|&s| s) => break,
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                // Out of file descriptors or a connection reset before it was accepted: wait a
                // little rather than spin, and go on.
                Err(_) => {
                    tokio::time::sleep(Duration::from_millis(20)).await;
                    continue;
                }
            },
        };
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let connection = http.serve_connection(TokioIo::new(stream), service);
        let mut closing = closing.clone();
        connections.spawn(async move {
            let _slot = slot;
            let mut connection = std::pin::pin!(connection);
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = async { closing.wait_for(|&c| c).await.is_ok() } => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
        });
        while connections.try_join_next().is_some() {}
    }
    drop(listener);
    let _ = closing_tx.send(true);
    let _ = tokio::time::timeout(GRACE, async { while connections.join_next().await.is_some() {} }).await;
    connections.abort_all();
}

/// Why a server could not start.
#[derive(Debug)]
pub enum StartError {
    /// The configuration was refused; the message names the field.
    Config(gammon_backgammon::Error),
    /// The address could not be bound (in use, not local, no permission...).
    Io(std::io::Error),
}

impl fmt::Display for StartError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StartError::Config(e) => write!(f, "{e}"),
            StartError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StartError {}

impl From<gammon_backgammon::Error> for StartError {
    fn from(e: gammon_backgammon::Error) -> StartError {
        StartError::Config(e)
    }
}

impl From<std::io::Error> for StartError {
    fn from(e: std::io::Error) -> StartError {
        StartError::Io(e)
    }
}

/// A server running on its own threads: two serve connections, the evaluation pool of
/// [`Config::threads`] does the work. It stops on [`Server::stop`] or when dropped.
///
/// ```
/// use gammon_server::{Config, Server};
/// let mut server = Server::start("127.0.0.1", 0, Config::default()).unwrap();
/// assert_ne!(server.address().port(), 0);
/// server.stop();
/// ```
pub struct Server {
    address: SocketAddr,
    stop: watch::Sender<bool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// Binds `host:port` (port 0 picks a free one) and starts serving. Errors come back here,
    /// before anything runs: a refused configuration, or an address that cannot be bound.
    pub fn start(host: &str, port: u16, config: Config) -> Result<Server, StartError> {
        let limits = config.limits.clone();
        let state = AppState::new(config)?;
        state.workers.warm_up();
        let listener = std::net::TcpListener::bind((host, port))?;
        listener.set_nonblocking(true)?;
        let address = listener.local_addr()?;
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("gammon-http")
            .enable_all()
            .build()?;
        let listener = {
            let _inside = runtime.enter();
            TcpListener::from_std(listener)?
        };
        let (stop, stopped) = watch::channel(false);
        let thread = std::thread::Builder::new().name("gammon-serve".into()).spawn(move || {
            runtime.block_on(serve(listener, router(state), &limits, stopped));
            runtime.shutdown_timeout(Duration::from_secs(1));
        })?;
        Ok(Server { address, stop, thread: Some(thread) })
    }

    /// The address served, with the port actually bound.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// True until the server has been stopped.
    pub fn is_running(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }

    /// Stops accepting, lets requests in progress finish (two seconds at most) and waits for the
    /// threads to end. Stopping a stopped server does nothing.
    pub fn stop(&mut self) {
        let _ = self.stop.send(true);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};
    use std::time::Instant;

    #[test]
    fn a_client_that_never_finishes_its_request_head_is_cut_off() {
        let limits = Limits { header_read_timeout: Duration::from_millis(300), ..Limits::default() };
        let server =
            Server::start("127.0.0.1", 0, Config { threads: Some(1), limits, ..Config::default() }).unwrap();
        let mut slow = std::net::TcpStream::connect(server.address()).unwrap();
        slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
        slow.write_all(b"GET /health HTTP/1.1\r\nHost: slow\r\n").unwrap();
        let started = Instant::now();
        let mut answer = Vec::new();
        // The server closes the connection (after a 408 at most) rather than wait for the rest.
        let _ = slow.read_to_end(&mut answer);
        assert!(started.elapsed() < Duration::from_secs(5));
        assert!(
            answer.is_empty() || answer.starts_with(b"HTTP/1.1 408"),
            "{}",
            String::from_utf8_lossy(&answer)
        );
    }

    #[test]
    fn stopping_ends_the_threads_and_frees_the_port() {
        let mut server =
            Server::start("127.0.0.1", 0, Config { threads: Some(1), ..Config::default() }).unwrap();
        let address = server.address();
        assert!(server.is_running());
        server.stop();
        assert!(!server.is_running());
        assert!(std::net::TcpStream::connect(address).is_err());
        let refused = Server::start("127.0.0.1", 0, Config { ply: 9, ..Config::default() });
        assert!(matches!(refused, Err(StartError::Config(_))));
    }
}
