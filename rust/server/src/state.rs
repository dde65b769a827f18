//! What the handlers share: the application state, and the JSON body every POST endpoint reads.
//! Apart from the routes, so that handlers and the router do not import each other.

use crate::config::Config;
use crate::error::{ApiError, ApiResult};
use crate::work::Workers;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use serde::de::DeserializeOwned;
use std::sync::Arc;

/// What every handler shares: the evaluation threads and the configuration.
#[derive(Clone)]
pub struct AppState {
    /// The evaluation threads.
    pub workers: Workers,
    /// How the server was started.
    pub config: Arc<Config>,
}

impl AppState {
    /// The state of a server started with `config` (checked first).
    pub fn new(config: Config) -> gammon_backgammon::Result<AppState> {
        config.validate()?;
        let workers = Workers::new(config.worker_threads())?;
        Ok(AppState { workers, config: Arc::new(config) })
    }
}

/// A JSON request body, read whatever its content type says, whose refusal is a JSON message:
/// 413 past the body limit, 400 for anything that is not the expected JSON.
pub struct JsonBody<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for JsonBody<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> ApiResult<JsonBody<T>> {
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
