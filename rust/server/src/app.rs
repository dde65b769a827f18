//! The application: its shared state, its routes and the layers that bound every request.

use crate::config::{Config, Limits};
use crate::error::{ApiError, ApiResult};
use crate::work::Workers;
use crate::{battlegammon, cube, evaluate, openapi, plays, rollout, wildbg};
use axum::body::Bytes;
use axum::error_handling::HandleErrorLayer;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{BoxError, Router};
use serde::de::DeserializeOwned;
use std::any::Any;
use std::sync::Arc;
use tower::limit::GlobalConcurrencyLimitLayer;
use tower::ServiceBuilder;

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

/// Every route: its path, its method and its handler. The router is built from this table, and
/// a test checks the OpenAPI description against it.
pub fn routes() -> Vec<(&'static str, Method, MethodRouter<AppState>)> {
    vec![
        ("/move", Method::GET, get(wildbg::get_move)),
        ("/eval", Method::GET, get(wildbg::get_eval)),
        ("/health", Method::GET, get(openapi::get_health)),
        ("/openapi.json", Method::GET, get(openapi::get_openapi)),
        ("/v1/plays", Method::POST, post(plays::post_plays)),
        ("/v1/best-play", Method::POST, post(plays::post_best_play)),
        ("/v1/evaluate", Method::POST, post(evaluate::post_evaluate)),
        ("/v1/cube", Method::POST, post(cube::post_cube)),
        ("/v1/rollout", Method::POST, post(rollout::post_rollout)),
        ("/v1/battlegammon/plays", Method::POST, post(battlegammon::post_plays)),
        ("/v1/battlegammon/best-play", Method::POST, post(battlegammon::post_best_play)),
    ]
}

/// The whole application with its limits: a request is refused with a JSON message when its
/// query or body is too long (414, 413), when too many are in progress (503), when it takes too
/// long (408), and a panic, which the engine should never raise, becomes a 500.
pub fn router(state: AppState) -> Router {
    let limits = state.config.limits.clone();
    let mut router = Router::new();
    for (path, _, handler) in routes() {
        router = router.route(path, handler);
    }
    let bounds = ServiceBuilder::new()
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panic_response))
        .layer(middleware::from_fn_with_state(limits.clone(), guard))
        .layer(HandleErrorLayer::new(overload_response))
        .timeout(limits.request_timeout)
        .load_shed()
        .layer(GlobalConcurrencyLimitLayer::new(limits.max_in_flight));
    router
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .layer(DefaultBodyLimit::max(limits.max_body_bytes))
        .layer(bounds)
        .with_state(state)
}

/// Refuses at once a query or a declared body longer than the limits, before any work.
async fn guard(State(limits): State<Limits>, request: Request, next: Next) -> Response {
    let query = request.uri().query().map_or(0, str::len);
    if query > limits.max_query_bytes {
        let message =
            format!("the query string has {query} bytes; at most {} are accepted", limits.max_query_bytes);
        return ApiError::new(StatusCode::URI_TOO_LONG, message).into_response();
    }
    let declared =
        request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if let Some(length) = declared.filter(|&n| n > limits.max_body_bytes as u64) {
        let message = format!("the body has {length} bytes; at most {} are accepted", limits.max_body_bytes);
        return ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message).into_response();
    }
    next.run(request).await
}

async fn overload_response(error: BoxError) -> Response {
    if error.is::<tower::timeout::error::Elapsed>() {
        ApiError::new(StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response()
    } else if error.is::<tower::load_shed::error::Overloaded>() {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "too many requests in progress; try again")
            .into_response()
    } else {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("unexpected error: {error}")).into_response()
    }
}

fn panic_response(_: Box<dyn Any + Send + 'static>) -> Response {
    ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "the server failed on this request").into_response()
}

async fn not_found(request: Request) -> ApiError {
    ApiError::new(StatusCode::NOT_FOUND, format!("no endpoint {}; see /openapi.json", request.uri().path()))
}

async fn wrong_method(request: Request) -> ApiError {
    let message = format!("{} does not take {}; see /openapi.json", request.uri().path(), request.method());
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, message)
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
