//! `POST /v1/rollout`: a bounded Monte Carlo rollout of a position, cubeless.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input::PositionInput;
use crate::probabilities::Outcome;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use gammon_backgammon::Backgammon;
use gammon_bot::rollout::{rollout_game, RolloutOptions};
use gammon_bot::BuiltinPolicy;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A rollout to run: the position and how.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RolloutRequest {
    /// The position, seen from the player on roll, who is about to roll; `opening` rolls out
    /// from before the opening roll (equity 0 by symmetry), `initial` from the starting
    /// position with a player on roll.
    pub position: PositionInput,
    /// Games to play, at least 1 and at most the server's cap (10,000 by default). Default 1296.
    #[serde(default = "default_trials")]
    #[schema(default = 1296, minimum = 1)]
    pub trials: u64,
    /// Seed of the dice: the same seed gives the same result. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Who plays both sides: `net` (the default, the built-in neural net), `net-all` (the net
    /// judging every play), `pubeval` or `random`.
    #[serde(default = "default_policy")]
    #[schema(default = "net", example = "net")]
    pub policy: String,
    /// Stop each game after this many plies and take the evaluator's view of the rest (needs
    /// the `net` policy).
    #[serde(default)]
    pub truncate: Option<u32>,
    /// Subtract the luck of each roll (when the policy has an evaluator). Default true.
    #[serde(default = "default_true")]
    pub variance_reduction: bool,
}

fn default_trials() -> u64 {
    1296
}

fn default_policy() -> String {
    "net".into()
}

fn default_true() -> bool {
    true
}

/// What a rollout found, from the view of the player on roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct RolloutResponse {
    /// The Position ID rolled out.
    pub position: String,
    /// The start the request named, as it is named: `opening` (rolled out from before the
    /// opening roll) or `initial`; null for a position given any other way.
    #[schema(example = "opening")]
    pub named: Option<String>,
    /// The policy that played.
    pub policy: String,
    /// Mean outcome probabilities.
    pub probabilities: Outcome,
    /// Mean cubeless equity per unit stake.
    pub equity: f64,
    /// Standard error of the equity.
    pub std_error: f64,
    /// Standard error of each probability.
    pub std_errors: Outcome,
    /// Games played: fewer than asked when the rollout ran out of time.
    pub trials: u64,
    /// The seed of the dice.
    pub seed: u64,
    /// Wall-clock time spent.
    pub seconds: f64,
    /// True when the rollout stopped at the server's time limit before every trial was played.
    pub cancelled: bool,
}

/// A cubeless rollout, bounded in trials and in time.
#[utoipa::path(
    post,
    path = "/v1/rollout",
    tag = "evaluation",
    request_body = RolloutRequest,
    responses(
        (status = 200, description = "the rollout's estimates", body = RolloutResponse),
        (status = 400, description = "a field is missing, malformed or out of range", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as application/json", body = ErrorMessage),
        (status = 503, description = "as many rollouts are running as the server runs at once (see Retry-After)", body = ErrorMessage),
    )
)]
pub async fn post_rollout(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<RolloutRequest>,
) -> Response {
    // Rollouts run on their own threads, as many at once as there are, so that the short queries
    // keep their threads; one more is refused at once rather than queued.
    let Ok(slot) = state.rollout_slots.clone().try_acquire_owned() else {
        let message = format!(
            "{} rollouts are running, as many as this server runs at once; try again later",
            state.config.rollout_threads()
        );
        let mut response = ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message).into_response();
        response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("5"));
        return response;
    };
    let answer = run(state, request).await;
    drop(slot);
    answer.into_response()
}

async fn run(state: AppState, request: RolloutRequest) -> ApiResult<Json<RolloutResponse>> {
    let read = request.position.read()?;
    let start = read.rollout_start();
    let (position, named) = (read.position, read.named.map(|n| n.name().to_string()));
    let cap = state.config.limits.max_rollout_trials;
    if !(1..=cap).contains(&request.trials) {
        return Err(ApiError::bad_request(format!("trials must be in 1..={cap}, got {}", request.trials)));
    }
    let policy = BuiltinPolicy::from_name(&request.policy)?;
    let limit = state.config.limits.rollout_time;
    state
        .rollouts
        .run_for(Some(limit), move |cancel| {
            let options = RolloutOptions {
                trials: request.trials,
                seed: request.seed,
                truncate: request.truncate,
                variance_reduction: request.variance_reduction,
                cancel: Some(cancel.clone()),
                ..RolloutOptions::default()
            };
            let r = rollout_game(&Backgammon, start, &policy, &options, None)?;
            if r.trials == 0 {
                // The time ran out while the job waited behind others: nothing to report.
                return Err(ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server was too busy to start the rollout in time; try again",
                ));
            }
            Ok(Json(RolloutResponse {
                position: position.id(),
                named,
                policy: request.policy,
                probabilities: r.probabilities.into(),
                equity: r.equity,
                std_error: r.std_error,
                std_errors: r.std_errors.into(),
                trials: r.trials,
                seed: r.seed,
                seconds: r.seconds,
                cancelled: r.cancelled,
            }))
        })
        .await
}
