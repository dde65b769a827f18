//! What the handlers share: the application state, and the JSON body every POST endpoint reads.
//! Apart from the routes, so that handlers and the router do not import each other.

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::work::Workers;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// What every handler shares: the evaluation threads and the configuration.
#[derive(Clone)]
pub struct AppState {
    /// The evaluation threads, for every request but rollouts.
    pub workers: Workers,
    /// The rollout threads, apart, so that rollouts never hold up the short queries.
    pub rollouts: Workers,
    /// One permit per rollout thread: a rollout runs only with one, else it is refused at once.
    pub rollout_slots: Arc<Semaphore>,
    /// How the server was started.
    pub config: Arc<Config>,
    /// The `Host` headers accepted (lowercase), or `None` to accept any: a server on a socket
    /// accepts only its own address, so that a web page cannot reach it by DNS rebinding.
    pub hosts: Option<Arc<Vec<String>>>,
}

impl AppState {
    /// One of the places for long jobs (rollouts, analyses), held until the permit is dropped;
    /// when all are taken, the 503 answer with `Retry-After` to send at once, naming the `jobs`,
    /// because queueing long work would hold up everything behind it.
    pub fn long_job_slot(&self, jobs: &str) -> Result<OwnedSemaphorePermit, Box<Response>> {
        self.rollout_slots.clone().try_acquire_owned().map_err(|_| {
            let message = format!(
                "{} {jobs} are running, as many as this server runs at once; try again later",
                self.config.rollout_threads()
            );
            let mut response = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message).into_response();
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
            Box::new(response)
        })
    }

    /// The state of a server started with `config` (checked first).
    pub fn new(config: Config) -> gammon_backgammon::Result<AppState> {
        config.validate()?;
        let workers = Workers::new(config.worker_threads())?;
        let rollout_threads = config.rollout_threads();
        let rollouts = Workers::named(rollout_threads, "gammon-rollout")?;
        let rollout_slots = Arc::new(Semaphore::new(rollout_threads));
        Ok(AppState { workers, rollouts, rollout_slots, config: Arc::new(config), hosts: None })
    }

    /// The same state accepting only the `Host` headers naming a server bound to `address`
    /// (asked for as `host`): `localhost`, `127.0.0.1`, `[::1]` and `host`, each with the port
    /// (or without it on port 80).
    pub fn for_address(mut self, host: &str, address: SocketAddr) -> AppState {
        let port = address.port();
        let bracket =
            |h: &str| if h.contains(':') && !h.starts_with('[') { format!("[{h}]") } else { h.to_string() };
        let names = [
            "localhost".to_string(),
            "127.0.0.1".into(),
            "[::1]".into(),
            bracket(host),
            bracket(&address.ip().to_string()),
        ];
        let mut hosts = Vec::new();
        for name in names {
            let name = name.to_ascii_lowercase();
            hosts.push(format!("{name}:{port}"));
            if port == 80 {
                hosts.push(name);
            }
        }
        hosts.sort();
        hosts.dedup();
        self.hosts = Some(Arc::new(hosts));
        self
    }
}

/// A JSON request body, which must say `Content-Type: application/json` (415 otherwise), whose
/// refusal is a JSON message: 413 past the body limit, 400 for anything that is not the expected
/// JSON.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> ApiResult<JsonBody<T>> {
        let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        let essence = content_type.map(|t| t.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
        if essence.as_deref() != Some("application/json") {
            let message = format!(
                "the body must be sent with Content-Type: application/json, not {}",
                content_type.unwrap_or("none")
            );
            return Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        // The path names the field at fault, however deep (`cube.owner: unknown variant ...`).
        let refuse = |e: &dyn std::fmt::Display| {
            ApiError::bad_request(format!("the body is not the JSON this endpoint takes: {e}"))
        };
        let mut reader = serde_json::Deserializer::from_slice(&bytes);
        let value = serde_path_to_error::deserialize(&mut reader).map_err(|e| refuse(&e))?;
        reader.end().map_err(|e| refuse(&e))?;
        Ok(JsonBody(value))
    }
}
