//! `POST /v1/game`: a money game or a match against the bot, kept by the client.
//!
//! The server holds nothing between requests. The client sends the game so far (length, seed
//! and the record of actions); the server replays every action through the engine's rules
//! ([`Match`], [`gammon_backgammon::Game`]), which refuse any illegal one, lets the bot act while it is
//! the bot's turn, and answers with the state: the board, the dice, the cube, the actions
//! allowed now, the legal plays with their moves, the result and the record as `.mat` text.
//! The client appends its next action to the record it got and sends it back.
//!
//! The dice come from the seed (the `roll` action rolls the seed's next dice), so a client
//! cannot choose them, only the seed. The server checks that every action is legal, not who
//! made it: a client that edits the bot's actions in the record only plays against itself.
//! The body limit bounds the record, and so the length of a match that can be played.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::input;
use crate::state::{AppState, JsonBody};
use axum::extract::State;
use axum::Json;
use gammon_backgammon::{Dice, Match, Phase, Position};
use gammon_bot::cube::CubeContext;
use gammon_bot::search::Bot;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The player at the client: player 0 of the engine's match.
const YOU: u8 = 0;
/// The bot: player 1.
const BOT: u8 = 1;
/// The longest match that can be asked for; the body limit would cut a longer one's record.
pub const MAX_GAME_LENGTH: u32 = 25;
/// The name of the bot in the `.mat` record.
const BOT_NAME: &str = "gammon";

/// The game so far.
#[derive(Clone, Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// Points to win the match, 1..=25; 0 (the default) for one money game.
    #[serde(default)]
    pub length: u32,
    /// Seed of the dice: the same seed and the same actions give the same game. Default 0.
    #[serde(default)]
    pub seed: u64,
    /// The bot's search depth, 0..=2 (default: the server's).
    #[serde(default)]
    pub ply: Option<i64>,
    /// Every action so far, both players', in order, as the last answer's `history` gave them,
    /// with the client's next action appended: `roll` (the seed's next dice; the answer writes
    /// it `roll 31`, and dice given must be those), `double`, `take`, `drop`, `play 8/5 6/5`
    /// (standard notation) and `next` (the next game of a match).
    #[serde(default)]
    #[schema(example = json!(["roll", "play 8/5 6/5"]))]
    pub history: Vec<String>,
}

/// A legal play of the client's roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GamePlay {
    /// Standard notation, as the `play` action takes it.
    #[schema(example = "8/5 6/5")]
    pub play: String,
    /// The checker moves `[from, to]`, one per die used: 25 is the bar, 0 is off.
    #[schema(example = json!([[8, 5], [6, 5]]))]
    pub moves: Vec<[u8; 2]>,
    /// The Position ID after the play, seen from the client.
    pub next_position: String,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct GameOutcome {
    /// `you` or `bot`.
    pub winner: String,
    /// Points won, the cube counted.
    pub points: u32,
    /// `single`, `gammon` or `backgammon`.
    pub kind: String,
    /// `borne-off`, `dropped` or `resigned`.
    pub reason: String,
}

/// The state of the game after the request's actions and the bot's answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct GameResponse {
    /// The match length (0: money).
    pub length: u32,
    /// The seed of the dice.
    pub seed: u64,
    /// The bot's search depth.
    pub ply: u8,
    /// The whole record (every action so far, as the engine's `Game::history`), the bot's
    /// included: send it back with the next action.
    pub history: Vec<String>,
    /// What the bot did in answer to this request, in order (`roll 31`, `play 13/7 8/7`, ...).
    pub bot_actions: Vec<String>,
    /// The board seen from the client (points 1..24 on the client's side, 25 its bar).
    pub position: String,
    /// The same board as 26 signed counts: `[0]` the bot's bar (<= 0), `[1..=24]` the points
    /// (the client's checkers positive), `[25]` the client's bar (>= 0).
    pub board: Vec<i64>,
    /// `PositionID:MatchID` of the game as GNU Backgammon writes it (from the player on roll).
    pub gnubg_id: String,
    /// Whose turn it is, `you` or `bot`, or null before the opening roll.
    pub turn: Option<String>,
    /// Who must act now, `you` or `bot`, or null when the game or the match is over.
    pub to_act: Option<String>,
    /// The dice to play, larger first, while a player has rolled and not played yet.
    pub dice: Option<[u8; 2]>,
    /// The dice of the opening roll once thrown: `[yours, the bot's]`.
    pub opening: Option<[u8; 2]>,
    /// The cube's value.
    pub cube_value: u32,
    /// Who owns the cube: `centred`, `you` or `bot`.
    pub cube_owner: String,
    /// Scores of the client and the bot, the current game counted once it is over.
    pub score: [u32; 2],
    /// This game is the Crawford game.
    pub crawford: bool,
    /// Pip counts of the client and the bot.
    pub pips: [u32; 2],
    /// The actions the client may send now, among `roll`, `double`, `take`, `drop`, `play`,
    /// `next`; empty once the game (money) or the match is over.
    pub allowed: Vec<String>,
    /// The legal plays of the client's dice, when it must play.
    pub plays: Vec<GamePlay>,
    /// How the current game ended, once it is over.
    pub result: Option<GameOutcome>,
    /// Who won the match (`you` or `bot`), once over.
    pub match_winner: Option<String>,
    /// The record as a `.mat` file.
    pub mat: String,
}

fn side(player: u8) -> String {
    if player == YOU { "you" } else { "bot" }.to_string()
}

fn at(k: usize, action: &str, e: impl std::fmt::Display) -> ApiError {
    ApiError::bad_request(format!("history[{k}] ({action:?}): {e}"))
}

/// Applies one recorded action (the `k`th, `text`) and returns it as the record writes it.
fn apply(m: &mut Match, k: usize, text: &str) -> ApiResult<String> {
    let trimmed = text.trim();
    let (verb, rest) = trimmed.split_once(' ').map_or((trimmed, ""), |(v, r)| (v, r.trim()));
    let game = m.game_mut();
    let engine = |e: gammon_backgammon::Error| at(k, text, e.message());
    match verb {
        "roll" => {
            let opening = game.phase() == Phase::Opening;
            let dice = game.roll().map_err(engine)?;
            let written = roll_text(game.history().last(), dice, opening);
            if !rest.is_empty() && rest.replace(['-', ' ', ','], "") != written[5..] {
                return Err(at(k, text, format!("the seed rolls {}, not {rest}", &written[5..])));
            }
            Ok(written)
        }
        "play" => {
            let play = game.play_text(rest).map_err(engine)?;
            Ok(format!("play {}", play.notation()).trim_end().to_string())
        }
        "double" => game.double().map(|_| "double".into()).map_err(engine),
        "take" => game.take().map(|_| "take".into()).map_err(engine),
        "drop" => game.drop().map(|_| "drop".into()).map_err(engine),
        "next" => m.next_game().map(|_| "next".into()).map_err(engine),
        _ => Err(at(k, text, "expected roll, double, take, drop, play <moves> or next")),
    }
}

/// `roll 31`, or for the opening roll `roll 31` with the client's die first.
fn roll_text(last: Option<&gammon_backgammon::Action>, dice: Dice, opening: bool) -> String {
    if opening {
        if let Some(gammon_backgammon::Action::OpeningRoll { die0, die1 }) = last {
            return format!("roll {die0}{die1}");
        }
    }
    format!("roll {}{}", dice.high(), dice.low())
}

/// The bot acts while it must: doubles or rolls and plays, answers the client's double.
fn bot_turns(m: &mut Match, bot: &Bot, record: &mut Vec<String>, added: &mut Vec<String>) -> ApiResult<()> {
    // Every step is an action of the game, which ends; the bound only guards against a bug
    // looping forever on a server thread.
    for _ in 0..10_000 {
        let game = m.game_mut();
        if game.to_act() != Some(BOT) {
            return Ok(());
        }
        let context = CubeContext::from_game(game);
        let position = game.position();
        let action = match game.phase() {
            Phase::Rolling => {
                let doubles = game.may_double() && bot.cube_action(&position, &context)?.double;
                if doubles {
                    game.double()?;
                    "double".to_string()
                } else {
                    let dice = game.roll()?;
                    format!("roll {}{}", dice.high(), dice.low())
                }
            }
            Phase::Moving(dice) => {
                let best = bot.best_play(&position, dice, Some(&context))?;
                game.play(&best.play)?;
                format!("play {}", best.play.notation()).trim_end().to_string()
            }
            Phase::Doubled => {
                // The context and position are the doubler's (the client's): the bot takes
                // what its decision says the opponent should take.
                if bot.cube_action(&position, &context)?.take {
                    game.take()?;
                    "take".to_string()
                } else {
                    game.drop()?;
                    "drop".to_string()
                }
            }
            // Beavers are off in these games and the bot never resigns.
            _ => return Ok(()),
        };
        record.push(action.clone());
        added.push(action);
    }
    Err(ApiError::bad_request("the game did not come back to the client's turn"))
}

/// The state of `m` for the client.
fn describe(m: &Match, ply: u8, record: Vec<String>, added: Vec<String>) -> GameResponse {
    let game = m.game();
    let turn = game.turn();
    let ours = |p: Position| if turn == Some(BOT) { p.swapped() } else { p };
    let position = ours(game.position());
    let pips = position.pips();
    let to_act = game.to_act().filter(|_| !m.is_over());
    let mut allowed = Vec::new();
    let mut plays = Vec::new();
    match game.phase() {
        Phase::Opening => allowed.push("roll"),
        Phase::Rolling if to_act == Some(YOU) => {
            allowed.push("roll");
            if game.may_double() {
                allowed.push("double");
            }
        }
        Phase::Moving(_) if to_act == Some(YOU) => {
            allowed.push("play");
            plays = game
                .legal_plays()
                .iter()
                .map(|p| GamePlay {
                    play: p.notation(),
                    moves: p.moves().iter().map(|mv| [mv.from, mv.to]).collect(),
                    next_position: p.position.id(),
                })
                .collect();
        }
        Phase::Doubled if to_act == Some(YOU) => allowed.extend(["take", "drop"]),
        Phase::Over(_) if m.length() > 0 && !m.is_over() => allowed.push("next"),
        _ => {}
    }
    let opening = game.history().iter().find_map(|a| match *a {
        gammon_backgammon::Action::OpeningRoll { die0, die1 } => Some([die0, die1]),
        _ => None,
    });
    let result = game.result().map(|r| GameOutcome {
        winner: side(r.winner),
        points: r.points,
        kind: r.kind.name().into(),
        reason: match r.reason {
            gammon_backgammon::EndReason::BorneOff => "borne-off",
            gammon_backgammon::EndReason::Dropped => "dropped",
            gammon_backgammon::EndReason::Resigned => "resigned",
        }
        .into(),
    });
    GameResponse {
        length: m.length(),
        seed: m.seed(),
        ply,
        history: record,
        bot_actions: added,
        position: position.id(),
        board: position.to_list(),
        gnubg_id: game.gnubg_id(),
        turn: turn.map(side),
        to_act: to_act.map(side),
        dice: game.dice().map(|d| [d.high(), d.low()]),
        opening,
        cube_value: game.cube_value(),
        cube_owner: game.cube_owner().map_or("centred".into(), side),
        score: m.score(),
        crawford: m.is_crawford_game(),
        pips: [pips.0, pips.1],
        allowed: allowed.into_iter().map(String::from).collect(),
        plays,
        result,
        match_winner: m.winner().map(side),
        // Every game here starts from the opening, which is all the writer needs.
        mat: m.to_mat().unwrap_or_default(),
    }
}

/// Replays the request's record, lets the bot act, and describes the state.
pub fn advance(request: &GameRequest, ply: u8) -> ApiResult<GameResponse> {
    if request.length > MAX_GAME_LENGTH {
        return Err(ApiError::bad_request(format!(
            "length must be 0 (money) or 1..={MAX_GAME_LENGTH}, got {}",
            request.length
        )));
    }
    let mut m = Match::new(request.length, Some(request.seed))?;
    m.set_names("You", BOT_NAME);
    let mut record = Vec::with_capacity(request.history.len() + 8);
    for (k, text) in request.history.iter().enumerate() {
        record.push(apply(&mut m, k, text)?);
    }
    let bot = Bot::new(ply)?;
    let mut added = Vec::new();
    bot_turns(&mut m, &bot, &mut record, &mut added)?;
    Ok(describe(&m, ply, record, added))
}

/// A game against the bot: the record so far in, the state and the bot's answer out.
#[utoipa::path(
    post,
    path = "/v1/game",
    tag = "game",
    request_body = GameRequest,
    responses(
        (status = 200, description = "the state after the record and the bot's answer", body = GameResponse),
        (status = 400, description = "a field is malformed, or an action is illegal (the message names it)", body = ErrorMessage),
        (status = 413, description = "the body (the record) is too large", body = ErrorMessage),
        (status = 415, description = "the body is not sent as application/json", body = ErrorMessage),
    )
)]
pub async fn post_game(
    State(state): State<AppState>,
    JsonBody(request): JsonBody<GameRequest>,
) -> ApiResult<Json<GameResponse>> {
    let ply = input::ply(request.ply, state.config.ply)?;
    state.workers.run(move |_| advance(&request, ply).map(Json)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn request(length: u32, seed: u64, actions: &[&str]) -> GameRequest {
        GameRequest { length, seed, ply: None, history: actions.iter().map(|s| s.to_string()).collect() }
    }

    /// Plays a whole game by always taking the first legal play and never doubling; returns the
    /// final state and how many requests it took.
    fn play_out(length: u32, seed: u64) -> (GameResponse, usize) {
        let mut state = advance(&request(length, seed, &[]), 0).unwrap();
        for n in 1..2000 {
            let mut actions = state.history.clone();
            let next = if state.allowed.contains(&"play".to_string()) {
                format!("play {}", state.plays[0].play)
            } else if state.allowed.contains(&"take".to_string()) {
                "take".to_string()
            } else if state.allowed.contains(&"roll".to_string()) {
                "roll".to_string()
            } else if state.allowed.contains(&"next".to_string()) {
                "next".to_string()
            } else {
                return (state, n);
            };
            actions.push(next);
            let again = GameRequest { history: actions, ..request(length, seed, &[]) };
            state = advance(&again, 0).unwrap();
        }
        panic!("the game did not end");
    }

    #[test]
    fn a_money_game_is_played_to_its_end_and_its_record_reads_back() {
        let (state, _) = play_out(0, 7);
        let result = state.result.clone().expect("over");
        assert!(result.points >= 1);
        assert!(state.allowed.is_empty() && state.to_act.is_none());
        // The record replays to the same state, and the .mat text reads back with the engine's
        // reader into a game with the same winner.
        let again =
            advance(&GameRequest { history: state.history.clone(), ..request(0, 7, &[]) }, 0).unwrap();
        assert_eq!(again, GameResponse { bot_actions: vec![], ..state.clone() });
        let read = Match::from_mat(&state.mat).unwrap();
        assert_eq!(read.games()[0].winner().map(side), Some(result.winner));
    }

    #[test]
    fn a_one_point_match_ends_with_a_match_winner() {
        let (state, _) = play_out(1, 3);
        let winner = state.match_winner.expect("over");
        assert_eq!(state.score[if winner == "you" { 0 } else { 1 }], 1);
        assert!(state.allowed.is_empty());
    }

    #[test]
    fn the_opening_roll_is_the_seed_s_and_the_client_plays_from_its_own_side() {
        let state = advance(&request(0, 1, &["roll"]), 0).unwrap();
        let opening = state.opening.unwrap();
        assert_eq!(state.history[0], format!("roll {}{}", opening[0], opening[1]));
        // Whoever won the opening roll, the client now plays or rolls from its own view.
        assert_eq!(state.to_act.as_deref(), Some("you"));
        assert!(!state.allowed.is_empty());
        let wrong = if opening == [6, 5] { "roll 41" } else { "roll 65" };
        let error = advance(&request(0, 1, &[wrong]), 0).unwrap_err();
        assert!(error.message.starts_with("history[0]"), "{}", error.message);
    }

    #[test]
    fn illegal_actions_are_refused_naming_them() {
        for (actions, k) in [
            (vec!["play 8/5 6/5"], 0),
            (vec!["roll", "roll"], 1),
            (vec!["take"], 0),
            (vec!["next"], 0),
            (vec!["resign"], 0),
            (vec!["roll", "play 24/1"], 1),
        ] {
            let error = advance(&request(0, 5, &actions), 0).unwrap_err();
            assert!(error.message.starts_with(&format!("history[{k}]")), "{actions:?}: {}", error.message);
        }
        let error = advance(&request(MAX_GAME_LENGTH + 1, 0, &[]), 0).unwrap_err();
        assert!(error.message.starts_with("length"), "{}", error.message);
    }
}
