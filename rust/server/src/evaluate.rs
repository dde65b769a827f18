//! `POST /v1/evaluate`: the bot's view of a position before the roll.

use crate::error::{ApiResult, ErrorMessage};
use crate::input::{self, PositionInput};
use crate::probabilities::Outcome;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_bot::search::Bot;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A position to evaluate.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct EvaluateRequest {
    /// The position, seen from the player on roll, who is about to roll.
    pub position: PositionInput,
    /// Search depth, 0..=2 (default: the server's).
    #[serde(default)]
    pub ply: Option<i64>,
}

/// The outcome of a position for the player on roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EvaluateResponse {
    /// The Position ID evaluated.
    pub position: String,
    /// The search depth.
    pub ply: u8,
    /// Outcome probabilities for the player on roll (the certain result when the game is over).
    pub probabilities: Outcome,
    /// Cubeless equity per unit stake for the player on roll.
    pub equity: f64,
}

/// The five outcome probabilities and the cubeless equity of a position.
#[utoipa::path(
    post,
    path = "/v1/evaluate",
    tag = "evaluation",
    request_body = EvaluateRequest,
    responses(
        (status = 200, description = "the evaluation", body = EvaluateResponse),
        (status = 400, description = "a field is missing, malformed or out of range", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_evaluate(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<EvaluateRequest>,
) -> ApiResult<Json<EvaluateResponse>> {
    let position = request.position.read()?.on_roll().map_err(input::at_position)?;
    let ply = input::ply(request.ply, state.config.ply)?;
    state
        .workers
        .run(move |_| {
            let value = Bot::new(ply)?.evaluate(&position);
            Ok(Json(EvaluateResponse {
                position: position.id(),
                ply,
                probabilities: value.into(),
                equity: value.equity(),
            }))
        })
        .await
}
