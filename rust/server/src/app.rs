//! The application: its routes and the layers that bound every request.

use crate::config::Limits;
use crate::error::ApiError;
use crate::state::AppState;
use crate::{battlegammon, cube, evaluate, openapi, plays, rollout, wildbg};
use axum::error_handling::HandleErrorLayer;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{BoxError, Router};
use std::any::Any;
use tower::limit::GlobalConcurrencyLimitLayer;
use tower::ServiceBuilder;

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
