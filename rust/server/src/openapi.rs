//! The OpenAPI description of every endpoint, served at `GET /openapi.json`, and `GET /health`.

use crate::state::AppState;
use crate::{
    analyse, battlegammon, battlegammon_game, board, cube, evaluate, game, plays, rollout, stream, wildbg,
};
use axum::extract::State;
use axum::http::header;
use axum::response::IntoResponse;
use axum::Json;
use serde::{Deserialize, Serialize};
use std::sync::OnceLock;
use utoipa::{OpenApi, ToSchema};

/// The OpenAPI 3.1 description of the server.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "gammon",
        description = "The gammon backgammon bot over HTTP. `/move` and `/eval` answer as wildbg's API \
                       does; the `/v1/` endpoints take positions as Position IDs, PositionID:MatchID, \
                       XGIDs or 26-int lists, and add rollouts and Battlegammon. Every refusal is a \
                       JSON object with a `message`."
    ),
    paths(
        wildbg::get_move,
        wildbg::get_eval,
        get_health,
        get_openapi,
        plays::post_plays,
        plays::post_best_play,
        evaluate::post_evaluate,
        cube::post_cube,
        rollout::post_rollout,
        analyse::post_analyse,
        stream::post_rollout_stream,
        game::post_game,
        battlegammon::post_plays,
        battlegammon::post_best_play,
        battlegammon_game::post_game,
        board::get_board,
        board::get_track,
    ),
    tags(
        (name = "wildbg", description = "wildbg-compatible endpoints"),
        (name = "plays", description = "ranked plays and the best play"),
        (name = "evaluation", description = "evaluations, cube actions and rollouts"),
        (name = "battlegammon", description = "the Battlegammon bot"),
        (name = "pictures", description = "boards drawn as SVG"),
        (name = "game", description = "a game or match against the bot, its record kept by the client"),
        (name = "service", description = "health and this description"),
    )
)]
pub struct ApiDoc;

/// The description as JSON text, built once.
pub fn openapi_json() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| ApiDoc::openapi().to_json().unwrap_or_else(|e| format!("{{\"message\": \"{e}\"}}")))
}

/// This description.
#[utoipa::path(
    get,
    path = "/openapi.json",
    tag = "service",
    responses((status = 200, description = "the OpenAPI 3.1 document", content_type = "application/json"))
)]
pub async fn get_openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], openapi_json())
}

/// The server is up, and how it runs.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct Health {
    /// Always `ok`.
    pub status: String,
    /// The gammon version.
    pub version: String,
    /// The search depth of requests that name none.
    pub ply: u8,
    /// The evaluation threads.
    pub threads: usize,
}

/// Whether the server is up.
#[utoipa::path(
    get,
    path = "/health",
    tag = "service",
    responses((status = 200, description = "the server is up", body = Health))
)]
pub async fn get_health(State(state): State<AppState>) -> Json<Health> {
    Json(Health {
        status: "ok".into(),
        version: env!("CARGO_PKG_VERSION").into(),
        ply: state.config.ply,
        threads: state.workers.threads(),
    })
}
