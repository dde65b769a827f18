//! `POST /v1/rollout/stream`: a rollout as `POST /v1/rollout` runs it (the same request, cubeless,
//! cubeful or of a cube decision), its progress streamed as server-sent events while it runs.
//!
//! The answer is `text/event-stream`: a `progress` event about every 100 ms (the
//! running estimates, and for `kind: cube` the decision they call for so far), then one `result`
//! event (the [`crate::rollout::CubefulRolloutResponse`], as `POST /v1/rollout` answers) or one
//! `error` event (`{"message": ...}`), and the stream ends. A page reads it with `fetch()` and a streaming
//! reader, as `EventSource` cannot send a POST body or a bearer token.
//!
//! The rollout takes one of the server's rollout places, as `POST /v1/rollout` does (503 with
//! `Retry-After` when none is free), and frees it when it ends: when every trial is played, at
//! the server's rollout time limit, or as soon as the client goes away (closes the connection or
//! cancels its fetch), which sets the rollout's cancel flag at its next batch.

use crate::error::ErrorMessage;
use crate::probabilities::Outcome;
use crate::rollout::{CheckedRollout, CubeRolloutView, RolloutRequest};
use crate::state::{AppState, JsonBody};
use axum::body::{Body, Bytes, HttpBody};
use axum::extract::State;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use gammon_bot::rollout::{CubeRollout, RolloutResult};
use hyper::body::Frame;
use serde::{Deserialize, Serialize};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::task::{Context, Poll};
use tokio::sync::mpsc;
use utoipa::ToSchema;

/// Progress events waiting to be sent; past this the newest are skipped, so that a client
/// reading slowly never holds up the rollout.
const QUEUE: usize = 16;

/// The running estimates of a rollout, sent about every 100 ms.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RolloutProgress {
    /// Games played so far.
    pub trials: u64,
    /// Games asked for.
    pub of: u64,
    /// Mean cubeless equity so far.
    pub equity: f64,
    /// Its standard error.
    pub std_error: f64,
    /// Mean outcome probabilities so far.
    pub probabilities: Outcome,
    /// Wall-clock time so far.
    pub seconds: f64,
    /// Mean cubeful equity so far (for `kind: cube`, that of not doubling); null for a
    /// cubeless rollout.
    pub cubeful_equity: Option<f64>,
    /// Its standard error.
    pub cubeful_std_error: Option<f64>,
    /// The cube decision so far, as the `result`'s `cube` (for `kind: cube`); null otherwise.
    pub cube: Option<CubeRolloutView>,
}

/// One server-sent event: `event: name` and its JSON data on one line.
fn event(name: &str, data: &impl Serialize) -> Bytes {
    let json = serde_json::to_string(data).unwrap_or_else(|e| format!("{{\"message\": \"{e}\"}}"));
    Bytes::from(format!("event: {name}\ndata: {json}\n\n"))
}

/// The body of the answer: the events as the rollout sends them, ending when it has sent its
/// last one. Dropped when the client goes away, which the rollout notices.
struct Events(mpsc::Receiver<Bytes>);

impl HttpBody for Events {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        self.get_mut().0.poll_recv(cx).map(|next| next.map(|bytes| Ok(Frame::data(bytes))))
    }
}

/// A rollout with its progress streamed as server-sent events.
#[utoipa::path(
    post,
    path = "/v1/rollout/stream",
    tag = "evaluation",
    request_body = RolloutRequest,
    responses(
        (status = 200, description = "`text/event-stream`: `progress` events (RolloutProgress), then one `result` (CubefulRolloutResponse) or `error` (ErrorMessage) event", content_type = "text/event-stream", body = RolloutProgress),
        (status = 400, description = "a field is missing, malformed or out of range", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as application/json", body = ErrorMessage),
        (status = 503, description = "as many rollouts are running as the server runs at once (see Retry-After)", body = ErrorMessage),
    )
)]
pub async fn post_rollout_stream(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RolloutRequest>,
) -> Response {
    let trials = request.trials;
    // Everything the request names is checked before the stream starts, so that a bad request
    // gets its 400 as every other endpoint gives it.
    let checked = match CheckedRollout::new(&state, request) {
        Ok(checked) => checked,
        Err(refusal) => return refusal.into_response(),
    };
    let slot = match state.long_job_slot("rollouts") {
        Ok(slot) => slot,
        Err(busy) => return *busy,
    };
    let decision = checked.decision_context();
    let (tx, rx) = mpsc::channel::<Bytes>(QUEUE);
    let limit = state.config.limits.rollout_time;
    let progress_tx = tx.clone();
    tokio::spawn(async move {
        let outcome = state
            .rollouts
            .run_for(Some(limit), move |cancel| {
                let mut report = |r: &RolloutResult| {
                    let progress = RolloutProgress {
                        trials: r.trials,
                        of: trials,
                        equity: r.equity,
                        std_error: r.std_error,
                        probabilities: r.probabilities.into(),
                        seconds: r.seconds,
                        cubeful_equity: r.cubeful_equity(),
                        cubeful_std_error: r.cubeful_std_error(),
                        cube: decision.and_then(|ctx| {
                            CubeRollout::from_result(r.clone(), &ctx).ok().map(|c| CubeRolloutView::from(&c))
                        }),
                    };
                    if let Err(mpsc::error::TrySendError::Closed(_)) =
                        progress_tx.try_send(event("progress", &progress))
                    {
                        // The client has gone: stop at the next batch and free the place.
                        cancel.store(true, Ordering::Relaxed);
                    }
                };
                checked.run(cancel, Some(&mut report))
            })
            .await;
        drop(slot);
        let last = match outcome {
            Ok(result) => event("result", &result),
            Err(e) => event("error", &ErrorMessage { message: e.message }),
        };
        let _ = tx.send(last).await;
    });
    let mut response = Response::new(Body::new(Events(rx)));
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/event-stream"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

#[cfg(test)]
mod tests {
    use crate::{Config, Limits, Server};
    use std::io::{BufRead, BufReader, Read, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::{Duration, Instant};

    /// Sends a rollout request to the stream endpoint and returns the connection, its head read.
    fn start(address: SocketAddr, body: &str) -> (BufReader<TcpStream>, String) {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(Duration::from_secs(120))).unwrap();
        let request = format!(
            "POST /v1/rollout/stream HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut reader = BufReader::new(stream);
        let mut head = String::new();
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).unwrap() == 0 || line == "\r\n" {
                break;
            }
            head.push_str(&line.to_ascii_lowercase());
        }
        (reader, head)
    }

    /// The next `event: name` line's name and the JSON of its `data:` line.
    fn next_event(reader: &mut BufReader<TcpStream>) -> Option<(String, serde_json::Value)> {
        let mut name = None;
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line).ok()? == 0 {
                return None;
            }
            if let Some(n) = line.strip_prefix("event: ") {
                name = Some(n.trim().to_string());
            } else if let Some(data) = line.strip_prefix("data: ") {
                return Some((name?, serde_json::from_str(data.trim()).unwrap()));
            }
        }
    }

    /// Every event up to the end of the stream: the ones before the last, and the last one's
    /// JSON, which must be the `result`.
    fn every_event(
        reader: &mut BufReader<TcpStream>,
    ) -> (Vec<(String, serde_json::Value)>, serde_json::Value) {
        let mut events = Vec::new();
        while let Some(event) = next_event(reader) {
            events.push(event);
        }
        let (last, result) = events.pop().expect("a result");
        assert_eq!(last, "result", "{result}");
        (events, result)
    }

    /// The answer of the plain `POST /v1/rollout` to the same body.
    fn post_plain(address: SocketAddr, body: &str) -> serde_json::Value {
        let mut stream = TcpStream::connect(address).unwrap();
        let request = format!(
            "POST /v1/rollout HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            body.len()
        );
        stream.write_all(request.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        serde_json::from_str(answer.split_once("\r\n\r\n").unwrap().1).unwrap()
    }

    #[test]
    fn progress_comes_before_the_result_which_matches_the_plain_rollout() {
        gammon_bot::net::NeuralNet::builtin();
        let server = Server::start("127.0.0.1", 0, Config { threads: Some(2), ..Config::default() }).unwrap();
        let body = r#"{"position": "initial", "trials": 200, "seed": 3}"#;
        let (mut reader, head) = start(server.address(), body);
        assert!(head.starts_with("http/1.1 200"), "{head}");
        assert!(head.contains("content-type: text/event-stream"), "{head}");
        let (events, result) = every_event(&mut reader);
        assert!(events.iter().all(|(name, _)| name == "progress"));
        // The same request to the plain endpoint gives the same estimates: one rollout, two
        // ways of reporting it.
        let plain = post_plain(server.address(), body);
        assert_eq!(result["trials"], 200);
        assert_eq!(result["equity"], plain["equity"]);
        assert_eq!(result["probabilities"], plain["probabilities"]);
    }

    #[test]
    fn a_cubeful_stream_takes_the_cube_fields_and_ends_with_the_plain_answer() {
        gammon_bot::net::NeuralNet::builtin();
        let server = Server::start("127.0.0.1", 0, Config { threads: Some(2), ..Config::default() }).unwrap();
        let body = r#"{"position": "4HPwATDgc/ABMA", "trials": 72, "seed": 5, "truncate": 6, "match": {"away": [4, 2]}}"#;
        let (mut reader, head) = start(server.address(), body);
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let (events, result) = every_event(&mut reader);
        assert!(!events.is_empty());
        for (name, progress) in &events {
            assert_eq!(name, "progress");
            assert!(progress["cubeful_equity"].is_f64(), "{progress}");
        }
        let plain = post_plain(server.address(), body);
        assert!(result["mwc"].is_f64(), "{result}");
        for field in ["equity", "cubeful_equity", "cubeful_std_error", "mwc", "context"] {
            assert_eq!(result[field], plain[field], "{field}");
        }
        // The last progress event is the finished rollout.
        assert_eq!(events.last().unwrap().1["cubeful_equity"], plain["cubeful_equity"]);
    }

    #[test]
    fn a_cube_decision_stream_reports_the_decision_so_far_and_ends_with_the_plain_answer() {
        gammon_bot::net::NeuralNet::builtin();
        let server = Server::start("127.0.0.1", 0, Config { threads: Some(2), ..Config::default() }).unwrap();
        let body =
            r#"{"position": "4HPwATDgc/ABMA", "trials": 72, "seed": 5, "truncate": 6, "kind": "cube"}"#;
        let (mut reader, head) = start(server.address(), body);
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let (events, result) = every_event(&mut reader);
        assert!(!events.is_empty());
        for (name, progress) in &events {
            assert_eq!(name, "progress");
            // The running decision's no double is the running cubeful equity.
            assert_eq!(progress["cube"]["no_double"], progress["cubeful_equity"], "{progress}");
            assert!(progress["cube"]["label"].is_string(), "{progress}");
        }
        let plain = post_plain(server.address(), body);
        assert!(result["cube"]["label"].is_string(), "{result}");
        assert_eq!(result["cube"], plain["cube"]);
        // The last progress event is the finished rollout, its decision the result's.
        assert_eq!(events.last().unwrap().1["cube"], plain["cube"]);
        // A rollout of the position has no decision to report.
        let (mut reader, _) =
            start(server.address(), r#"{"position": "initial", "trials": 36, "cubeful": true}"#);
        let (events, _) = every_event(&mut reader);
        assert!(events.iter().all(|(_, progress)| progress["cube"].is_null()));
    }

    #[test]
    fn a_client_going_away_stops_its_rollout_and_frees_its_place() {
        gammon_bot::net::NeuralNet::builtin();
        let limits = Limits { max_rollouts: Some(1), ..Limits::default() };
        let server =
            Server::start("127.0.0.1", 0, Config { threads: Some(2), limits, ..Config::default() }).unwrap();
        let long = r#"{"position": "initial", "trials": 10000, "policy": "net-all"}"#;
        let (mut reader, head) = start(server.address(), long);
        assert!(head.starts_with("http/1.1 200"), "{head}");
        let (name, progress) = next_event(&mut reader).expect("a progress event");
        assert_eq!(name, "progress");
        assert!(progress["trials"].as_u64().unwrap() < 10000, "{progress}");
        // The only place is taken: a second rollout is refused.
        let (_, refused) = start(server.address(), long);
        assert!(refused.starts_with("http/1.1 503"), "{refused}");
        drop(reader);
        // Once the first client has gone, its rollout stops at its next batch and a new one runs
        // well before the first could have finished its 10,000 trials.
        let gone = Instant::now();
        loop {
            let (mut reader, head) = start(server.address(), r#"{"position": "initial", "trials": 50}"#);
            if head.starts_with("http/1.1 200") {
                while let Some((name, _)) = next_event(&mut reader) {
                    if name == "result" {
                        break;
                    }
                }
                break;
            }
            assert!(head.starts_with("http/1.1 503"), "{head}");
            assert!(gone.elapsed() < Duration::from_secs(10), "the place was not freed");
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    #[test]
    fn bad_requests_are_refused_before_the_stream_starts() {
        let server = Server::start("127.0.0.1", 0, Config { threads: Some(1), ..Config::default() }).unwrap();
        for body in [r#"{"position": "nonsense"}"#, r#"{"position": "initial", "trials": 0}"#] {
            let (mut reader, head) = start(server.address(), body);
            assert!(head.starts_with("http/1.1 400"), "{head}");
            let mut rest = String::new();
            let _ = reader.read_to_string(&mut rest);
            assert!(rest.contains("message"), "{rest}");
        }
    }
}
