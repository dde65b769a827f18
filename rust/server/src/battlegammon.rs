//! `POST /v1/battlegammon/plays` and `POST /v1/battlegammon/best-play`: the Battlegammon bot.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input::DiceInput;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_battlegammon::{read_position, Bot, Play, Position, Rules};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// A Battlegammon position and a roll.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BattlegammonRequest {
    /// The position's ID (`b:wwwww////w///ww/ww///////b///bb/bb////bbbbb` is the setup), or
    /// `initial`.
    #[schema(example = "b:wwwww////w///ww/ww///////b///bb/bb////bbbbb")]
    pub position: String,
    /// The roll.
    pub dice: DiceInput,
    /// Rule options by name (`maximize_dice`, `count_distinct_fields`: 0 or 1; `turn_cap`).
    #[serde(default)]
    #[schema(example = json!({"maximize_dice": 1}))]
    pub rules: BTreeMap<String, i64>,
}

/// One Battlegammon play with the bot's judgement of it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattlegammonPlayView {
    /// The moves as `from/to from/to`, or `pass`.
    #[schema(example = "16/12 19/17")]
    pub play: String,
    /// The moves `[from_field, to_field]` in the order played.
    pub moves: Vec<[u8; 2]>,
    /// The play wins the game.
    pub wins: bool,
    /// The bot's chance that the mover wins after this play.
    pub win_chance: f64,
    /// The ID of the position after the play, the opponent to move.
    pub next_position: String,
}

/// Every legal play, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattlegammonPlaysResponse {
    /// The ID of the position played from.
    pub position: String,
    /// The side to move, `white` or `black`.
    pub turn: String,
    /// The roll, larger die first.
    pub dice: [u8; 2],
    /// The plays, best first.
    pub plays: Vec<BattlegammonPlayView>,
}

/// The bot's play.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattlegammonBestResponse {
    /// The ID of the position played from.
    pub position: String,
    /// The side to move, `white` or `black`.
    pub turn: String,
    /// The roll, larger die first.
    pub dice: [u8; 2],
    /// The bot's play.
    pub best: BattlegammonPlayView,
}

/// The position, the roll and the bot the request names.
fn read(request: &BattlegammonRequest) -> ApiResult<(Position, gammon_backgammon::Dice, Bot)> {
    let position = read_position(&request.position)
        .map_err(|e| ApiError::bad_request(format!("position: {}", e.message())))?;
    let dice = request.dice.read()?;
    let mut rules = Rules::default();
    for (name, &value) in &request.rules {
        rules.set(name, value).map_err(|e| ApiError::bad_request(format!("rules: {}", e.message())))?;
    }
    Ok((position, dice, Bot::with_rules(rules)?))
}

fn view(play: &Play, win_chance: f64) -> BattlegammonPlayView {
    BattlegammonPlayView {
        play: play.notation(),
        moves: play.moves().iter().map(|m| [m.from, m.to]).collect(),
        wins: play.wins(),
        win_chance,
        next_position: play.position.id(),
    }
}

/// Every legal Battlegammon play of a roll, ranked by the bot, best first.
#[utoipa::path(
    post,
    path = "/v1/battlegammon/plays",
    tag = "battlegammon",
    request_body = BattlegammonRequest,
    responses(
        (status = 200, description = "every legal play, best first", body = BattlegammonPlaysResponse),
        (status = 400, description = "a field is malformed or the game is over", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_plays(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BattlegammonRequest>,
) -> ApiResult<Json<BattlegammonPlaysResponse>> {
    let (position, dice, bot) = read(&request)?;
    state
        .workers
        .run(move |_| {
            let ranked = bot.rank_plays(&position, dice)?;
            Ok(Json(BattlegammonPlaysResponse {
                position: position.id(),
                turn: position.turn().name().into(),
                dice: [dice.high(), dice.low()],
                plays: ranked.iter().map(|(play, chance)| view(play, *chance)).collect(),
            }))
        })
        .await
}

/// The Battlegammon bot's play for a roll.
#[utoipa::path(
    post,
    path = "/v1/battlegammon/best-play",
    tag = "battlegammon",
    request_body = BattlegammonRequest,
    responses(
        (status = 200, description = "the bot's play", body = BattlegammonBestResponse),
        (status = 400, description = "a field is malformed or the game is over", body = ErrorMessage),
        (status = 413, description = "the body is too large", body = ErrorMessage),
    )
)]
pub async fn post_best_play(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BattlegammonRequest>,
) -> ApiResult<Json<BattlegammonBestResponse>> {
    let (position, dice, bot) = read(&request)?;
    state
        .workers
        .run(move |_| {
            let best = bot.best_play(&position, dice)?;
            // The ranking's value of the bot's choice, so that both endpoints report one measure.
            let ranked = bot.rank_plays(&position, dice)?;
            let chance = ranked.iter().find(|(play, _)| *play == best).map_or(f64::NAN, |(_, c)| *c);
            Ok(Json(BattlegammonBestResponse {
                position: position.id(),
                turn: position.turn().name().into(),
                dice: [dice.high(), dice.low()],
                best: view(&best, chance),
            }))
        })
        .await
}
