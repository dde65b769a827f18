//! `POST /v1/plays` and `POST /v1/best-play`: the bot's ranking of every legal play of a roll,
//! for a position in any notation.

use crate::context::{ContextFields, ContextView, CubeInput, MatchInput, MoneyInput};
use crate::error::{ApiResult, ErrorMessage};
use crate::input::{self, DiceInput, PositionInput};
use crate::probabilities::Outcome;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_backgammon::{Dice, Position};
use gammon_bot::cube::CubeContext;
use gammon_bot::search::{Bot, RankedPlay};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// A position and a roll to find plays for.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PlaysRequest {
    /// The position, seen from the player on roll.
    pub position: PositionInput,
    /// The roll; may be left out when the position's ID has the dice rolled.
    #[serde(default)]
    pub dice: Option<DiceInput>,
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

impl PlaysRequest {
    fn context_fields(&self) -> ContextFields<'_> {
        ContextFields {
            cube: self.cube.as_ref(),
            match_score: self.match_score.as_ref(),
            money: self.money.as_ref(),
        }
    }

    /// The position, roll, depth and cube context the request names, every field checked;
    /// `default_ply` where it names no depth.
    fn resolve(&self, default_ply: u8) -> ApiResult<(Position, Dice, u8, Option<CubeContext>)> {
        let read = self.position.read()?;
        let dice = input::roll(self.dice.as_ref(), &read)?;
        let ply = input::ply(self.ply, default_ply)?;
        let context = self.context_fields().resolve(&read)?;
        let position = read.with_dice(dice).map_err(input::at_position)?;
        Ok((position, dice, ply, context))
    }
}

/// One play with the bot's judgement of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlayView {
    /// Standard notation, e.g. `24/18 13/11*`; empty when the roll cannot be played.
    #[schema(example = "8/5 6/5")]
    pub play: String,
    /// The checker moves `[from, to]`, one per die used: 25 is the bar, 0 is off.
    #[schema(example = json!([[8, 5], [6, 5]]))]
    pub moves: Vec<[u8; 2]>,
    /// Opposing checkers hit.
    pub hits: u32,
    /// The Position ID after the play, seen from the opponent, who is on roll next.
    pub next_position: String,
    /// Equity for the player who makes the play: cubeful in the request's context when it has
    /// one (normalised to the cube, as `/v1/cube` reports), cubeless per unit stake otherwise.
    pub equity: f64,
    /// Outcome probabilities for the player who makes the play.
    pub probabilities: Outcome,
    /// The search depth behind the values (less than requested for plays the search dropped
    /// early).
    pub ply: u8,
}

impl From<&RankedPlay> for PlayView {
    fn from(r: &RankedPlay) -> PlayView {
        PlayView {
            play: r.play.notation(),
            moves: r.play.moves().iter().map(|m| [m.from, m.to]).collect(),
            hits: r.play.hits(),
            next_position: r.play.position.swapped().id(),
            equity: r.equity,
            probabilities: r.probabilities.into(),
            ply: r.ply,
        }
    }
}

/// Every legal play, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct PlaysResponse {
    /// The Position ID of the position played from.
    pub position: String,
    /// The roll, larger die first.
    pub dice: [u8; 2],
    /// The search depth asked for.
    pub ply: u8,
    /// The cube and score the plays were ranked in; absent for cubeless money play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextView>,
    /// The plays, best first; one with no moves when the roll cannot be played.
    pub plays: Vec<PlayView>,
}

/// The best play of a roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BestPlayResponse {
    /// The Position ID of the position played from.
    pub position: String,
    /// The roll, larger die first.
    pub dice: [u8; 2],
    /// The search depth asked for.
    pub ply: u8,
    /// The cube and score the plays were ranked in; absent for cubeless money play.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub context: Option<ContextView>,
    /// The bot's play.
    pub best: PlayView,
}

/// Every legal play of a roll, ranked by the bot, best first: by cubeless equity, or by
/// cubeful equity when the request or the position's ID gives a cube or a score.
#[utoipa::path(
    post,
    path = "/v1/plays",
    tag = "plays",
    request_body = PlaysRequest,
    responses(
        (status = 200, description = "every legal play, best first", body = PlaysResponse),
        (status = 400, description = "a field is missing, malformed or out of range, or the game is over", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_plays(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PlaysRequest>,
) -> ApiResult<Json<PlaysResponse>> {
    let (position, dice, ply, context) = request.resolve(state.config.ply)?;
    state
        .workers
        .run(move |_| {
            let bot = Bot::new(ply)?;
            let ranked = bot.rank_plays(&position, dice, context.as_ref())?;
            Ok(Json(PlaysResponse {
                position: position.id(),
                dice: [dice.high(), dice.low()],
                ply,
                context: context.as_ref().map(ContextView::from),
                plays: ranked.iter().map(PlayView::from).collect(),
            }))
        })
        .await
}

/// The bot's play for a roll.
#[utoipa::path(
    post,
    path = "/v1/best-play",
    tag = "plays",
    request_body = PlaysRequest,
    responses(
        (status = 200, description = "the best play", body = BestPlayResponse),
        (status = 400, description = "a field is missing, malformed or out of range, or the game is over", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_best_play(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<PlaysRequest>,
) -> ApiResult<Json<BestPlayResponse>> {
    let (position, dice, ply, context) = request.resolve(state.config.ply)?;
    state
        .workers
        .run(move |_| {
            let bot = Bot::new(ply)?;
            let best = bot.best_play(&position, dice, context.as_ref())?;
            Ok(Json(BestPlayResponse {
                position: position.id(),
                dice: [dice.high(), dice.low()],
                ply,
                context: context.as_ref().map(ContextView::from),
                best: PlayView::from(&best),
            }))
        })
        .await
}
