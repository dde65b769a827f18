//! `POST /v1/cube`: the cube action of the player on roll, before rolling.

use crate::context::{ContextFields, ContextView, CubeInput, MatchInput, MoneyInput};
use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input::{self, PositionInput};
use crate::probabilities::Outcome;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_bot::search::Bot;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A position and the cube and score around it.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CubeRequest {
    /// The position, seen from the player on roll, who has not rolled yet.
    pub position: PositionInput,
    /// Search depth, 0..=2 (default: the server's).
    #[serde(default)]
    pub ply: Option<i64>,
    /// The cube (default: the ID's, or a centred 1-cube).
    #[serde(default)]
    pub cube: Option<CubeInput>,
    /// The match score (default: the ID's, or money).
    #[serde(default, rename = "match")]
    pub match_score: Option<MatchInput>,
    /// Money play and its rules (instead of `match`).
    #[serde(default)]
    pub money: Option<MoneyInput>,
}

/// The cube action and the equities behind it, for the player on roll, normalised to the
/// current cube: per unit of its value in money play (so `double_pass` is 1), and in match play
/// as the money equity with the same distance between losing and winning the current stake.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct CubeResponse {
    /// The Position ID judged.
    pub position: String,
    /// The search depth.
    pub ply: u8,
    /// The cube and score the decision was made in.
    pub context: ContextView,
    /// The player on roll should double (or redouble).
    pub double: bool,
    /// The opponent should take a double.
    pub take: bool,
    /// The opponent should beaver, where beavers are allowed.
    pub beaver: bool,
    /// The player on roll may double at all.
    pub may_double: bool,
    /// Equity without doubling.
    pub no_double: f64,
    /// Equity after a double and a take.
    pub double_take: f64,
    /// Equity after a double and a pass.
    pub double_pass: f64,
    /// The decision in words, e.g. `No double, take` or `Too good to double, pass`.
    #[schema(example = "Double, take")]
    pub label: String,
    /// The cubeless outcome probabilities behind the decision.
    pub probabilities: Outcome,
}

/// Whether the player on roll should double, and whether the opponent should take.
#[utoipa::path(
    post,
    path = "/v1/cube",
    tag = "evaluation",
    request_body = CubeRequest,
    responses(
        (status = 200, description = "the cube action", body = CubeResponse),
        (status = 400, description = "a field is missing, malformed or out of range, or the game is over", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_cube(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<CubeRequest>,
) -> ApiResult<Json<CubeResponse>> {
    let read = request.position.read()?;
    let fields = ContextFields {
        cube: request.cube.as_ref(),
        match_score: request.match_score.as_ref(),
        money: request.money.as_ref(),
    };
    let context = fields.resolve(&read)?.unwrap_or_default();
    let ply = input::ply(request.ply, state.config.ply)?;
    let position = read.on_roll().map_err(input::at_position)?;
    if position.we_have_won() || position.they_have_won() {
        return Err(ApiError::bad_request("position: the game is over: a side has borne off every checker"));
    }
    state
        .workers
        .run(move |_| {
            // `Bot::cube_action` is exactly this; evaluating once serves the probabilities too.
            let value = Bot::new(ply)?.evaluate(&position);
            let d = context.decide(&position, &value);
            Ok(Json(CubeResponse {
                position: position.id(),
                ply,
                context: ContextView::from(&context),
                double: d.double,
                take: d.take,
                beaver: d.beaver,
                may_double: d.may_double,
                no_double: d.no_double,
                double_take: d.double_take,
                double_pass: d.double_pass,
                label: d.label(),
                probabilities: value.into(),
            }))
        })
        .await
}
