//! `POST /v1/analyse`: a match file (`.mat` or GNU Backgammon's `.sgf`) analysed decision by decision.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input;
use crate::state::AppState;
use axum::body::Bytes;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gammon_analysis::{analyse, Options};
use gammon_backgammon::formats::sgf::read_match_file;
use serde::Deserialize;
use std::sync::atomic::Ordering;
use utoipa::IntoParams;

/// The analysis's options, in the query string.
#[derive(Clone, Debug, Default, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
pub struct AnalyseQuery {
    /// Search depth, 0..=2 (default: the server's).
    pub ply: Option<i64>,
    /// `json` (the default): the analysis as JSON; `sgf`: the match as GNU Backgammon `.sgf` with
    /// the analysis's luck and marks on its moves.
    pub format: Option<String>,
}

/// The content types a match file may be sent as: text, or SGF's usual type.
const MATCH_TYPES: [&str; 2] = ["text/plain", "application/x-go-sgf"];

/// A match file sent as the body, which must say `Content-Type: text/plain` or
/// `application/x-go-sgf` (415 otherwise) and be UTF-8 text; its size is bounded as every body is
/// (413). Whether it is `.mat` or `.sgf` is read from the content.
pub struct MatchText(pub String);

impl<S: Send + Sync> FromRequest<S> for MatchText {
    type Rejection = ApiError;

    async fn from_request(request: Request, state: &S) -> ApiResult<MatchText> {
        let content_type = request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
        let essence = content_type.map(|t| t.split(';').next().unwrap_or("").trim().to_ascii_lowercase());
        if !essence.as_deref().is_some_and(|e| MATCH_TYPES.contains(&e)) {
            let message = format!(
                "the match file must be sent with Content-Type: text/plain (or application/x-go-sgf), not {}",
                content_type.unwrap_or("none")
            );
            return Err(ApiError::new(StatusCode::UNSUPPORTED_MEDIA_TYPE, message));
        }
        let bytes = Bytes::from_request(request, state)
            .await
            .map_err(|rejection| ApiError::new(rejection.status(), rejection.body_text()))?;
        let text = String::from_utf8(bytes.to_vec())
            .map_err(|e| ApiError::bad_request(format!("the body is not UTF-8 text: {e}")))?;
        Ok(MatchText(text))
    }
}

/// Every checker play, cube and take decision and resignation of a match judged by the bot, the
/// luck of each roll, and each player's totals (error rate in mEMG per decision, GNU
/// Backgammon's rating). The body is a Jellyfish `.mat` file or a GNU Backgammon `.sgf` file as
/// text (told apart by the content: `.sgf` opens with `(`). The answer is the JSON of
/// `gammon analyse --json`: `length`, `games`, `ply`, `thresholds`, `players` (two entries:
/// `name`, `decisions`, `equity_lost`, `error_rate`, `pr`, `rating`, `luck`, ...) and
/// `decisions` (`game`, `player`, `kind`, `played`, `best`, `equity_lost`, `position_id`,
/// `match_id`, `mark`, `luck_mark`, ...); with `format=sgf`, the match as GNU Backgammon `.sgf`
/// (`application/x-go-sgf`) with the luck and marks GNU Backgammon shows. It runs on the rollout
/// threads and counts as a rollout.
#[utoipa::path(
    post,
    path = "/v1/analyse",
    tag = "evaluation",
    params(AnalyseQuery),
    request_body(content = String, content_type = "text/plain", description = "a .mat or .sgf match file (also accepted as application/x-go-sgf)"),
    responses(
        (status = 200, description = "the analysis (JSON), or with format=sgf the annotated .sgf", content_type = "application/json"),
        (status = 400, description = "the file or the ply is malformed, or a game in it is not legal", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as text/plain or application/x-go-sgf", body = ErrorMessage),
        (status = 503, description = "as many long jobs are running as the server runs at once (see Retry-After)", body = ErrorMessage),
    )
)]
pub async fn post_analyse(
    State(state): State<AppState>,
    Query(query): Query<AnalyseQuery>,
    MatchText(text): MatchText,
) -> Response {
    // An analysis is as long as a rollout: it takes a rollout slot, or is refused at once.
    let slot = match state.long_job_slot("long jobs") {
        Ok(slot) => slot,
        Err(busy) => return *busy,
    };
    let answer = run(state, query, text).await;
    drop(slot);
    answer.into_response()
}

async fn run(state: AppState, query: AnalyseQuery, text: String) -> ApiResult<Response> {
    let ply = input::ply(query.ply, state.config.ply)?;
    let sgf = match query.format.as_deref() {
        None | Some("json") => false,
        Some("sgf") => true,
        Some(other) => {
            return Err(ApiError::bad_request(format!("format must be \"json\" or \"sgf\", not {other:?}")))
        }
    };
    state
        .rollouts
        .run(move |cancel| {
            let m = read_match_file(&text)?;
            let options = Options { ply, ..Options::default() };
            // A request dropped (timed out, client gone) stops the work.
            let go_on = |_: usize, _: usize| !cancel.load(Ordering::Relaxed);
            let analysis = analyse(&m, &options, Some(&go_on))?;
            Ok(if sgf {
                ([(header::CONTENT_TYPE, "application/x-go-sgf; charset=utf-8")], analysis.to_sgf(&m)?)
                    .into_response()
            } else {
                Json(analysis.to_json_value()).into_response()
            })
        })
        .await
}

#[cfg(test)]
mod tests {
    use crate::app::router;
    use crate::config::Config;
    use crate::state::AppState;
    use axum::body::Body;
    use axum::http::{header, Request, StatusCode};
    use gammon_analysis::{analyse, Options};
    use gammon_backgammon::Match;
    use serde_json::Value;
    use tower::ServiceExt;

    const FILE: &str = " 1 point match\n\n Game 1\n A : 0                 B : 0\n  1) 31: 8/5 6/5              52: 13/11 13/8\n  2)  Doubles => 2           Drops\n      Wins 1 point and the match\n";

    async fn send(uri: &str, content_type: Option<&str>, body: &str) -> (StatusCode, Value) {
        let app = router(AppState::new(Config { threads: Some(1), ..Config::default() }).unwrap());
        let mut request = Request::post(uri);
        if let Some(t) = content_type {
            request = request.header(header::CONTENT_TYPE, t);
        }
        let response = app.oneshot(request.body(Body::from(body.to_string())).unwrap()).await.unwrap();
        let status = response.status();
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
        (status, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
    }

    #[tokio::test]
    async fn a_match_file_gets_the_engines_analysis() {
        let (status, body) = send("/v1/analyse?ply=0", Some("text/plain; charset=utf-8"), FILE).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let direct = analyse(&Match::from_mat(FILE).unwrap(), &Options::default(), None).unwrap();
        assert_eq!(body, direct.to_json_value());
        assert_eq!(body["players"][0]["name"], "A");
    }

    #[tokio::test]
    async fn an_sgf_body_is_read_too_and_the_answer_may_be_the_annotated_sgf() {
        let m = Match::from_mat(FILE).unwrap();
        let sgf = m.to_sgf().unwrap();
        let direct = analyse(&m, &Options::default(), None).unwrap();
        for content_type in ["text/plain", "application/x-go-sgf"] {
            let (status, body) = send("/v1/analyse?ply=0", Some(content_type), &sgf).await;
            assert_eq!(status, StatusCode::OK, "{body}");
            assert_eq!(body, direct.to_json_value());
        }
        let app = router(AppState::new(Config { threads: Some(1), ..Config::default() }).unwrap());
        let request = Request::post("/v1/analyse?ply=0&format=sgf")
            .header(header::CONTENT_TYPE, "text/plain")
            .body(Body::from(FILE.to_string()))
            .unwrap();
        let response = app.oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::OK);
        let bytes = axum::body::to_bytes(response.into_body(), 1 << 24).await.unwrap();
        let text = String::from_utf8(bytes.to_vec()).unwrap();
        assert_eq!(text, direct.to_sgf(&m).unwrap());
        let (status, body) = send("/v1/analyse?format=xml", Some("text/plain"), FILE).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["message"].as_str().unwrap().contains("format"));
    }

    #[tokio::test]
    async fn refusals_are_json_and_say_why() {
        let (status, body) = send("/v1/analyse", Some("application/json"), FILE).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        assert!(body["message"].as_str().unwrap().contains("text/plain"));
        let (status, _) = send("/v1/analyse", None, FILE).await;
        assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE);
        let (status, body) = send("/v1/analyse", Some("text/plain"), "not a match").await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["message"].is_string());
        let (status, body) = send("/v1/analyse?ply=5", Some("text/plain"), FILE).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(body["message"].as_str().unwrap().contains("ply"));
        let (status, _) = send("/v1/analyse?plies=1", Some("text/plain"), FILE).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
    }
}
