//! The application: its routes and the layers that bound every request.

#[cfg(doc)]
use crate::config::Limits;
use crate::error::ApiError;
use crate::state::AppState;
use crate::{
    analyse, battlegammon, battlegammon_game, board, cube, evaluate, game, openapi, plays, rollout, stream,
    web, wildbg,
};
use axum::body::{Body, Bytes, HttpBody};
use axum::error_handling::HandleErrorLayer;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, MethodRouter};
use axum::{BoxError, Router};
use std::any::Any;
use std::pin::Pin;
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
        ("/v1/analyse", Method::POST, post(analyse::post_analyse)),
        ("/v1/rollout/stream", Method::POST, post(stream::post_rollout_stream)),
        ("/v1/game", Method::POST, post(game::post_game)),
        ("/v1/battlegammon/plays", Method::POST, post(battlegammon::post_plays)),
        ("/v1/battlegammon/best-play", Method::POST, post(battlegammon::post_best_play)),
        ("/v1/battlegammon/game", Method::POST, post(battlegammon_game::post_game)),
        ("/v1/board.svg", Method::GET, get(board::get_board)),
        ("/v1/battlegammon/board.svg", Method::GET, get(board::get_track)),
    ]
}

/// The whole application with its limits: a request is refused with a JSON message when its
/// query or body is too long (414, 413), when too many are in progress (503), when it takes too
/// long (408), and a panic, which the engine should never raise, becomes a 500.
pub fn router(state: AppState) -> Router {
    let limits = state.config.limits.clone();
    let mut router = Router::new();
    for (path, _, handler) in routes().into_iter().chain(web::routes()) {
        router = router.route(path, handler);
    }
    let bounds = ServiceBuilder::new()
        .layer(tower_http::catch_panic::CatchPanicLayer::custom(panic_response))
        .layer(middleware::from_fn_with_state(state.clone(), guard))
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

/// Refuses at once a query or a declared body longer than the limits, a request from elsewhere
/// than this machine's own address or pages (403), one without the token when the server has one
/// (401); then reads the whole body within [`Limits::body_read_timeout`] (408 otherwise), before
/// the request counts as in progress, so that clients sending their bodies slowly cannot take
/// the places of others.
async fn guard(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let limits = &state.config.limits;
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
    if let Some(refusal) = refuse_foreign(&state, &request) {
        return refusal;
    }
    let (parts, body) = request.into_parts();
    let bytes =
        match tokio::time::timeout(limits.body_read_timeout, read_body(body, limits.max_body_bytes)).await {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(refusal)) => return refusal.into_response(),
            Err(_) => {
                let message =
                    format!("the body did not arrive within {} s", limits.body_read_timeout.as_secs_f64());
                let mut response = ApiError::new(StatusCode::REQUEST_TIMEOUT, message).into_response();
                response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
                return response;
            }
        };
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// The whole body, refused past `max` bytes (413) or when the connection fails (400).
async fn read_body(mut body: Body, max: usize) -> Result<Bytes, ApiError> {
    let mut bytes = Vec::new();
    while let Some(frame) = std::future::poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await {
        let frame = frame.map_err(|e| ApiError::bad_request(format!("the body could not be read: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > max {
                let message = format!("the body has more than {max} bytes; at most {max} are accepted");
                return Err(ApiError::new(StatusCode::PAYLOAD_TOO_LARGE, message));
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(Bytes::from(bytes))
}

/// The refusal of a request that names another host than this server (a page of another site
/// reaching it by DNS rebinding), that comes from a page of another site (`Origin`), or that lacks
/// the server's token. Requests without `Host` or `Origin`, which browsers always send, pass those
/// two checks: they come from programs, not pages.
fn refuse_foreign(state: &AppState, request: &Request) -> Option<Response> {
    let headers = request.headers();
    if let Some(hosts) = &state.hosts {
        let text =
            |name| headers.get(name).map(|v: &HeaderValue| String::from_utf8_lossy(v.as_bytes()).to_string());
        if let Some(host) = text(header::HOST) {
            if !hosts.contains(&host.to_ascii_lowercase()) {
                let message =
                    format!("this server does not answer for the host {host:?}; address it as {}", hosts[0]);
                return Some(ApiError::new(StatusCode::FORBIDDEN, message).into_response());
            }
        }
        if let Some(origin) = text(header::ORIGIN) {
            let own = origin.strip_prefix("http://").is_some_and(|o| hosts.contains(&o.to_ascii_lowercase()));
            if !own {
                let message = format!("requests from the pages of {origin:?} are refused");
                return Some(ApiError::new(StatusCode::FORBIDDEN, message).into_response());
            }
        }
    }
    let token = state.config.token.as_deref()?;
    if request.uri().path() == "/health" || web::is_page(request.uri().path()) {
        return None;
    }
    let given = headers.get(header::AUTHORIZATION).and_then(|v| v.to_str().ok()?.strip_prefix("Bearer "));
    if given.is_some_and(|g| same(g.trim().as_bytes(), token.as_bytes())) {
        return None;
    }
    let message = if given.is_some() {
        "the token is wrong"
    } else {
        "this server needs Authorization: Bearer <token>"
    };
    let mut response = ApiError::new(StatusCode::UNAUTHORIZED, message).into_response();
    response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
    Some(response)
}

/// Byte-for-byte equality in a time that does not depend on where the bytes first differ.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

async fn overload_response(error: BoxError) -> Response {
    if error.is::<tower::timeout::error::Elapsed>() {
        ApiError::new(StatusCode::REQUEST_TIMEOUT, "the request took too long").into_response()
    } else if error.is::<tower::load_shed::error::Overloaded>() {
        let mut response =
            ApiError::new(StatusCode::SERVICE_UNAVAILABLE, "too many requests in progress; try again")
                .into_response();
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        response
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
