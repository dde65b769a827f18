//! Serving connections: the accept loop with its own bounds, and [`Server`], a running server
//! on its own threads that callers (the Python binding, tests) start and stop.

use crate::app::router;
use crate::config::{Config, Limits};
use crate::parse_errors::JsonParseErrors;
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
        let connection = http.serve_connection(TokioIo::new(JsonParseErrors::new(stream)), service);
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
/// [`Config::threads`] does the work and a pool of its own runs the rollouts. It answers only
/// requests addressed to it (`Host` `localhost`, `127.0.0.1` or `[::1]` with its port, or the
/// host it was started on) and not from the pages of other sites (`Origin`): 403 otherwise. It stops on [`Server::stop`] or when dropped.
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
        let state = state.for_address(host, address);
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

    /// Sends `head` (with `Host: {host}` added unless `host` is empty) and `body`, and reads the
    /// answer to the end: its status, its head and its body.
    fn exchange(address: SocketAddr, host: &str, head: &str, body: &str) -> (u16, String, String) {
        let mut stream = std::net::TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
        let host = if host.is_empty() { String::new() } else { format!("Host: {host}\r\n") };
        let length =
            if body.is_empty() { String::new() } else { format!("Content-Length: {}\r\n", body.len()) };
        let request = format!("{head}\r\n{host}{length}Connection: close\r\n\r\n{body}");
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        let _ = stream.read_to_string(&mut answer);
        let (top, rest) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = top.split(' ').nth(1).and_then(|s| s.parse().ok()).unwrap_or(0);
        (status, top.to_ascii_lowercase(), rest.to_string())
    }

    fn message(body: &str) -> String {
        let value: serde_json::Value =
            serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
        value["message"].as_str().unwrap_or_else(|| panic!("no message: {body}")).to_string()
    }

    #[test]
    fn clients_sending_their_bodies_slowly_are_cut_off_and_do_not_hold_up_others() {
        let limits =
            Limits { body_read_timeout: Duration::from_secs(1), max_in_flight: 4, ..Limits::default() };
        let server =
            Server::start("127.0.0.1", 0, Config { threads: Some(1), limits, ..Config::default() }).unwrap();
        let address = server.address();
        // Twice as many as may be in progress: half send one byte and stop, half one byte in turn
        // every 300 ms, never reaching the 1000 they declared.
        let slow: Vec<_> = (0..8)
            .map(|k| {
                std::thread::spawn(move || {
                    let mut stream = std::net::TcpStream::connect(address).unwrap();
                    stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                    let head = format!(
                        "POST /v1/evaluate HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{{"
                    );
                    stream.write_all(head.as_bytes()).unwrap();
                    let started = Instant::now();
                    if k % 2 == 1 {
                        // A byte every 300 ms until the server answers.
                        stream.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
                        while started.elapsed() < Duration::from_secs(20)
                            && stream.write_all(b" ").is_ok()
                            && !stream.peek(&mut [0]).is_ok_and(|n| n > 0)
                        {}
                        stream.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
                    }
                    let mut answer = String::new();
                    let _ = stream.read_to_string(&mut answer);
                    (answer, started.elapsed())
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(300));
        let (status, _, body) = exchange(address, &address.to_string(), "GET /health HTTP/1.1", "");
        assert_eq!(status, 200, "{body}");
        let (status, _, body) = exchange(
            address,
            &address.to_string(),
            "POST /v1/evaluate HTTP/1.1\r\nContent-Type: application/json",
            r#"{"position": "initial"}"#,
        );
        assert_eq!(status, 200, "{body}");
        for client in slow {
            let (answer, took) = client.join().unwrap();
            assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
            assert!(message(answer.split_once("\r\n\r\n").unwrap().1).contains("body"), "{answer}");
            assert!(took < Duration::from_secs(15), "{took:?}");
        }
    }

    #[test]
    fn rollouts_have_their_own_threads_and_the_short_queries_keep_answering() {
        gammon_bot::net::NeuralNet::builtin();
        let limits = Limits { rollout_time: Duration::from_secs(4), ..Limits::default() };
        let server =
            Server::start("127.0.0.1", 0, Config { threads: Some(2), limits, ..Config::default() }).unwrap();
        let address = server.address();
        let rollout = r#"{"position": "initial", "trials": 10000, "policy": "net-all"}"#;
        let (tx, rx) = std::sync::mpsc::channel();
        let clients: Vec<_> = (0..4)
            .map(|_| {
                let tx = tx.clone();
                std::thread::spawn(move || {
                    let answer = exchange(
                        address,
                        &address.to_string(),
                        "POST /v1/rollout HTTP/1.1\r\nContent-Type: application/json",
                        rollout,
                    );
                    tx.send(("rollout", answer.0, answer.1)).unwrap();
                })
            })
            .collect();
        // Two threads, so one rollout at a time: three are refused at once, one runs.
        for _ in 0..3 {
            let (_, status, head) = rx.recv().unwrap();
            assert_eq!(status, 503);
            assert!(head.contains("retry-after: "), "{head}");
        }
        let query = "GET /move?die1=3&die2=1&p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5 HTTP/1.1";
        for _ in 0..3 {
            let (status, _, body) = exchange(address, &address.to_string(), query, "");
            assert_eq!(status, 200, "{body}");
        }
        tx.send(("move", 200, String::new())).unwrap();
        // The queries were answered while the rollout was still running.
        let (first, _, _) = rx.recv().unwrap();
        assert_eq!(first, "move");
        let (_, status, _) = rx.recv().unwrap();
        assert_eq!(status, 200);
        for client in clients {
            client.join().unwrap();
        }
    }

    #[test]
    fn only_this_server_s_address_and_token_are_answered() {
        let config = Config { threads: Some(1), token: Some("s3cret".into()), ..Config::default() };
        let server = Server::start("127.0.0.1", 0, config).unwrap();
        let address = server.address();
        let port = address.port();
        let own = address.to_string();
        let health = "GET /health HTTP/1.1";
        let query = "GET /eval?p24=2&p13=5&p8=3&p6=5&p1=-2&p12=-5&p17=-3&p19=-5 HTTP/1.1";
        let auth = "\r\nAuthorization: Bearer s3cret";
        // Another host name (a page of another site, by DNS rebinding) or another site's pages.
        for host in [format!("evil.example:{port}"), "127.0.0.1".into(), format!("127.0.0.1:{}", port ^ 1)] {
            let (status, _, body) = exchange(address, &host, &format!("{query}{auth}"), "");
            assert_eq!(status, 403, "{host}: {body}");
            assert!(message(&body).contains("host"), "{body}");
        }
        let (status, _, body) =
            exchange(address, &own, &format!("{query}{auth}\r\nOrigin: http://evil.example"), "");
        assert_eq!(status, 403, "{body}");
        // Every name of this machine, with the port; /health needs no token.
        for host in
            [format!("localhost:{port}"), format!("LOCALHOST:{port}"), format!("[::1]:{port}"), own.clone()]
        {
            let (status, head, body) = exchange(address, &host, health, "");
            assert_eq!(status, 200, "{host}: {body}");
            assert!(!head.contains("access-control-allow-origin"), "{head}");
        }
        let (status, _, body) =
            exchange(address, &own, &format!("{query}{auth}\r\nOrigin: http://{own}"), "");
        assert_eq!(status, 200, "{body}");
        for wrong in ["", "\r\nAuthorization: Bearer s3cre", "\r\nAuthorization: Basic czNjcmV0"] {
            let (status, head, body) = exchange(address, &own, &format!("{query}{wrong}"), "");
            assert_eq!(status, 401, "{wrong}: {body}");
            assert!(head.contains("www-authenticate: bearer"), "{head}");
            assert!(!message(&body).contains("s3cret"));
        }
        let post = "POST /v1/evaluate HTTP/1.1\r\nContent-Type: text/plain";
        let (status, _, body) =
            exchange(address, &own, &format!("{post}{auth}"), r#"{"position": "initial"}"#);
        assert_eq!(status, 415, "{body}");
        assert!(message(&body).contains("application/json"));
    }

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
    fn the_parsers_own_refusals_are_json_too() {
        let server = Server::start("127.0.0.1", 0, Config { threads: Some(1), ..Config::default() }).unwrap();
        let address = server.address();
        let huge = format!("GET /health HTTP/1.1\r\nX-Big: {}", "a".repeat(20_000));
        for (head, status) in [(huge.as_str(), 431), ("NOT HTTP AT ALL", 400)] {
            let (got, top, body) = exchange(address, &address.to_string(), head, "");
            assert_eq!(got, status, "{top}");
            assert!(top.contains("content-type: application/json"), "{top}");
            assert!(!message(&body).is_empty());
        }
        let (status, _, _) = exchange(address, &address.to_string(), "GET /health HTTP/1.1", "");
        assert_eq!(status, 200);
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
