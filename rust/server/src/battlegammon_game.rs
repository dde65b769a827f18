//! `POST /v1/battlegammon/game`: a Battlegammon game against its bot, kept by the client.
//!
//! As `POST /v1/game` ([`crate::game`]): the client sends the record so far, the server replays
//! it through the engine's [`Game`], which refuses any illegal action, lets the bot take its
//! turns, and answers with the state, the actions allowed now and the legal plays. The client
//! plays the side on roll in the starting position; the dice come from the seed.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_battlegammon::{Bot, Game, Outcome, Position, Rules, Side};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use utoipa::ToSchema;

/// The game so far.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BattlegammonGameRequest {
    /// Seed of the dice. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// Rule options by name, as `/v1/battlegammon/plays` takes them.
    #[serde(default)]
    pub rules: BTreeMap<String, i64>,
    /// Every action so far, both sides', as the last answer's `history` gave them, with the
    /// client's next one appended: `roll` (the seed's next dice; written `roll 64`, and dice
    /// given must be those) and `play 16/12 19/17` (or `play pass`).
    #[serde(default)]
    #[schema(example = json!(["roll"]))]
    pub history: Vec<String>,
}

/// A legal play of the client's roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattlegammonGamePlay {
    /// The moves as `from/to from/to`, or `pass`, as the `play` action takes them.
    pub play: String,
    /// The moves `[from_field, to_field]` in the order played.
    pub moves: Vec<[u8; 2]>,
    /// The ID of the position after the play.
    pub next_position: String,
}

/// The state after the request's actions and the bot's turns.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattlegammonGameResponse {
    /// The seed of the dice.
    pub seed: u64,
    /// The whole record, the bot's turns included: send it back with the next action.
    pub history: Vec<String>,
    /// What the bot did in answer to this request.
    pub bot_actions: Vec<String>,
    /// The client's side, `white` or `black`.
    pub you: String,
    /// The position's ID.
    pub position: String,
    /// Whose turn it is: `you` or `bot`.
    pub turn: String,
    /// The dice to play, larger first, once rolled.
    pub dice: Option<[u8; 2]>,
    /// The actions the client may send now: `roll` or `play`; empty once the game is over.
    pub allowed: Vec<String>,
    /// The legal plays of the client's dice, when it must play.
    pub plays: Vec<BattlegammonGamePlay>,
    /// Turns played so far.
    pub turns: u32,
    /// Who won (`you` or `bot`), once the game is won.
    pub winner: Option<String>,
    /// The game ended in a draw.
    pub draw: bool,
    /// Why the game ended (`goal`, `colour`, `deadlock`, `turn_cap`), once over.
    pub end_reason: Option<String>,
}

fn at(k: usize, action: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("history[{k}] ({action:?}): {e}"))
}

/// The moves of `play 16/12 19/17` or `play pass`.
fn moves(text: &str) -> Result<Vec<(u8, u8)>, String> {
    if text == "pass" {
        return Ok(Vec::new());
    }
    text.split_whitespace()
        .map(|m| {
            let (from, to) = m.split_once('/').ok_or_else(|| format!("{m:?} is not from/to"))?;
            let field = |f: &str| f.parse::<u8>().map_err(|_| format!("{f:?} is not a field number"));
            Ok((field(from)?, field(to)?))
        })
        .collect()
}

fn apply(game: &mut Game, k: usize, text: &str) -> ApiResult<String> {
    let trimmed = text.trim();
    let (verb, rest) = trimmed.split_once(' ').map_or((trimmed, ""), |(v, r)| (v, r.trim()));
    let engine = |e: gammon_backgammon::Error| at(k, text, e.message());
    match verb {
        "roll" => {
            let dice = game.roll().map_err(engine)?;
            let written = format!("{}{}", dice.high(), dice.low());
            if !rest.is_empty() && rest.replace(['-', ' ', ','], "") != written {
                return Err(at(k, text, format!("the seed rolls {written}, not {rest}")));
            }
            Ok(format!("roll {written}"))
        }
        "play" => {
            let list = moves(rest).map_err(|e| at(k, text, e))?;
            game.play_moves(&list).map_err(engine)?;
            let last = game.history().last().map(|t| t.play.notation()).unwrap_or_default();
            Ok(format!("play {last}"))
        }
        _ => Err(at(k, text, "expected roll or play <moves>")),
    }
}

/// Replays the record, lets the bot take its turns, and describes the state.
pub fn advance(request: &BattlegammonGameRequest) -> ApiResult<BattlegammonGameResponse> {
    let mut rules = Rules::default();
    for (name, &value) in &request.rules {
        rules.set(name, value).map_err(|e| ApiError::bad_request(format!("rules: {}", e.message())))?;
    }
    let you: Side = Position::initial().turn();
    let mut game = Game::new(Some(request.seed), rules)?;
    let mut record = Vec::with_capacity(request.history.len() + 2);
    for (k, text) in request.history.iter().enumerate() {
        record.push(apply(&mut game, k, text)?);
    }
    let bot = Bot::with_rules(rules)?;
    let mut added = Vec::new();
    // One roll and one play a turn until the client's turn; the game ends, and the bound only
    // guards a server thread against a bug.
    for _ in 0..10_000 {
        if game.is_over() || game.turn() == you {
            break;
        }
        let action = match game.dice() {
            None => {
                let dice = game.roll()?;
                format!("roll {}{}", dice.high(), dice.low())
            }
            Some(dice) => {
                let play = bot.best_play(game.position(), dice)?;
                game.play(&play)?;
                format!("play {}", play.notation())
            }
        };
        record.push(action.clone());
        added.push(action);
    }
    let name = |side: Side| if side == you { "you" } else { "bot" }.to_string();
    let ours = !game.is_over() && game.turn() == you;
    let (allowed, plays) = match game.dice() {
        _ if !ours => (vec![], vec![]),
        None => (vec!["roll".to_string()], vec![]),
        Some(_) => {
            let plays = game
                .legal_plays()?
                .iter()
                .map(|p| BattlegammonGamePlay {
                    play: p.notation(),
                    moves: p.moves().iter().map(|m| [m.from, m.to]).collect(),
                    next_position: p.position.id(),
                })
                .collect();
            (vec!["play".to_string()], plays)
        }
    };
    Ok(BattlegammonGameResponse {
        seed: request.seed,
        history: record,
        bot_actions: added,
        you: you.name().into(),
        position: game.position().id(),
        turn: name(game.turn()),
        dice: game.dice().map(|d| [d.high(), d.low()]),
        allowed,
        plays,
        turns: game.turns(),
        winner: game.winner().map(name),
        draw: game.outcome() == Some(Outcome::Draw),
        end_reason: game.end_reason().map(|r| r.name().to_string()),
    })
}

/// A Battlegammon game against the bot: the record so far in, the state out.
#[utoipa::path(
    post,
    path = "/v1/battlegammon/game",
    tag = "battlegammon",
    request_body = BattlegammonGameRequest,
    responses(
        (status = 200, description = "the state after the record and the bot's turns", body = BattlegammonGameResponse),
        (status = 400, description = "a field is malformed, or an action is illegal (the message names it)", body = ErrorMessage),
        (status = 413, description = "the body (the record) is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as application/json", body = ErrorMessage),
    )
)]
pub async fn post_game(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<BattlegammonGameRequest>,
) -> ApiResult<Json<BattlegammonGameResponse>> {
    state.workers.run(move |_| advance(&request).map(Json)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(seed: u64, actions: Vec<String>) -> BattlegammonGameRequest {
        BattlegammonGameRequest { seed, rules: BTreeMap::new(), history: actions }
    }

    #[test]
    fn a_game_is_played_to_its_end_and_replays_to_the_same_state() {
        let mut state = advance(&request(4, vec![])).unwrap();
        assert_eq!(state.allowed, ["roll"]);
        for _ in 0..1000 {
            let next = match state.allowed.first().map(String::as_str) {
                Some("roll") => "roll".to_string(),
                Some("play") => format!("play {}", state.plays.last().unwrap().play),
                _ => break,
            };
            let mut actions = state.history.clone();
            actions.push(next);
            state = advance(&request(4, actions)).unwrap();
        }
        assert!(state.end_reason.is_some(), "{state:?}");
        assert!(state.winner.is_some() != state.draw);
        let again = advance(&request(4, state.history.clone())).unwrap();
        assert_eq!(again, BattlegammonGameResponse { bot_actions: vec![], ..state });
    }

    #[test]
    fn illegal_actions_are_refused_naming_them() {
        for (actions, k) in [
            (vec!["play pass"], 0),
            (vec!["roll", "roll"], 1),
            (vec!["roll", "play 1/99"], 1),
            (vec!["roll", "play x"], 1),
            (vec!["double"], 0),
        ] {
            let actions = actions.into_iter().map(String::from).collect();
            let error = advance(&request(1, actions)).unwrap_err();
            assert!(error.message.starts_with(&format!("history[{k}]")), "{}", error.message);
        }
    }
}
