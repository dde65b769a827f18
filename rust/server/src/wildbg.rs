//! The wildbg-compatible endpoints, `GET /move` and `GET /eval`: hosts written for wildbg's HTTP
//! API work with this server unchanged.
//!
//! Their query parameters are read by hand rather than by a derived deserializer so that every
//! refusal is a JSON 400 naming the parameter at fault, and so that the OpenAPI description is
//! generated from the same table the reader uses.

use crate::error::{ApiError, ApiResult, ErrorMessage};
use crate::probabilities::WildbgProbabilities;
use crate::state::AppState;
use axum::extract::{RawQuery, State};
use axum::Json;
use gammon_backgammon::{Dice, Position};
use gammon_bot::cube::{CubeContext, CubeOwner};
use gammon_bot::search::Bot;
use serde::{Deserialize, Serialize};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::{ObjectBuilder, Required, Type};
use utoipa::{IntoParams, ToSchema};

/// One integer query parameter: its name, its range and whether it must be given.
#[derive(Clone, Debug, PartialEq, Eq)]
struct IntParam {
    name: String,
    min: i64,
    max: i64,
    required: bool,
    description: String,
}

/// `p0`..`p25`: the board as `Position.to_list()` gives it; an omitted point is empty.
fn board_params() -> Vec<IntParam> {
    (0..=25)
        .map(|i| {
            let (min, max, description) = match i {
                0 => (-15, 0, "the opponent's bar (<= 0)".to_string()),
                25 => (0, 15, "the bar of the player on roll (>= 0)".to_string()),
                _ => (
                    -15,
                    15,
                    format!("point {i} of the player on roll: their checkers > 0, the opponent's < 0"),
                ),
            };
            IntParam { name: format!("p{i}"), min, max, required: false, description }
        })
        .collect()
}

/// `die1`, `die2`: the roll of `/move`.
fn dice_params() -> [IntParam; 2] {
    ["die1", "die2"].map(|name| IntParam {
        name: name.into(),
        min: 1,
        max: 6,
        required: true,
        description: "a die".into(),
    })
}

/// `x_away`, `o_away`: points each side still needs; both absent or both 0 for money play.
fn score_params() -> [IntParam; 2] {
    [("x_away", "the player on roll"), ("o_away", "the opponent")].map(|(name, who)| IntParam {
        name: name.into(),
        min: 0,
        max: 64,
        required: false,
        description: format!("points {who} still needs to win the match (0 or absent with the other: money)"),
    })
}

fn describe(params: impl IntoIterator<Item = IntParam>) -> Vec<Parameter> {
    params
        .into_iter()
        .map(|p| {
            let schema =
                ObjectBuilder::new().schema_type(Type::Integer).minimum(Some(p.min)).maximum(Some(p.max));
            ParameterBuilder::new()
                .name(p.name)
                .parameter_in(ParameterIn::Query)
                .required(if p.required { Required::True } else { Required::False })
                .description(Some(p.description))
                .schema(Some(schema))
                .build()
        })
        .collect()
}

/// The board parameters `p0`..`p25`, for the OpenAPI description.
pub struct BoardQuery;

impl IntoParams for BoardQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        describe(board_params())
    }
}

/// The roll and match score parameters of `/move`, for the OpenAPI description.
pub struct MoveQuery;

impl IntoParams for MoveQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        describe(dice_params().into_iter().chain(score_params()))
    }
}

/// The match score parameters of `/eval`, for the OpenAPI description.
pub struct ScoreQuery;

impl IntoParams for ScoreQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        describe(score_params())
    }
}

/// The decoded query string: each name with its text value.
struct Query(Vec<(String, String)>);

impl Query {
    fn parse(raw: Option<&str>) -> ApiResult<Query> {
        serde_urlencoded::from_str(raw.unwrap_or(""))
            .map(Query)
            .map_err(|e| ApiError::bad_request(format!("the query string is malformed: {e}")))
    }

    /// The value of `param`, checked against its range; an error if it is missing but required,
    /// given twice, not an integer or out of range.
    fn int(&self, param: &IntParam) -> ApiResult<Option<i64>> {
        let mut values = self.0.iter().filter(|(k, _)| *k == param.name).map(|(_, v)| v);
        let Some(text) = values.next() else {
            return match param.required {
                true => Err(ApiError::bad_request(format!("{} is missing", param.name))),
                false => Ok(None),
            };
        };
        if values.next().is_some() {
            return Err(ApiError::bad_request(format!("{} is given more than once", param.name)));
        }
        match text.trim().parse::<i64>() {
            Ok(v) if (param.min..=param.max).contains(&v) => Ok(Some(v)),
            _ => Err(ApiError::bad_request(format!(
                "{} must be an integer in {}..={}, got {text:?}",
                param.name, param.min, param.max
            ))),
        }
    }

    fn position(&self) -> ApiResult<Position> {
        let mut board = [0i8; 26];
        for (slot, param) in board.iter_mut().zip(board_params()) {
            *slot = self.int(&param)?.unwrap_or(0) as i8;
        }
        // The counts are each in range; the engine checks the whole (15 checkers a side...).
        Position::from_board(board).map_err(|e| ApiError::bad_request(format!("p0..p25: {}", e.message())))
    }

    fn dice(&self) -> ApiResult<Dice> {
        let [d1, d2] = dice_params().map(|p| self.int(&p));
        Ok(Dice::from_ints(d1?.unwrap_or(0), d2?.unwrap_or(0))?)
    }

    /// `[x_away, o_away]`, or `None` for money play.
    fn away(&self) -> ApiResult<Option<[u32; 2]>> {
        let [x, o] = score_params().map(|p| self.int(&p));
        match (x?.unwrap_or(0), o?.unwrap_or(0)) {
            (0, 0) => Ok(None),
            (x, o) if x > 0 && o > 0 => Ok(Some([x as u32, o as u32])),
            _ => Err(ApiError::bad_request(
                "x_away and o_away go together: both at least 1 for a match, both 0 or absent for money",
            )),
        }
    }

    /// The match context of the score, or `None` for money play. The API carries neither the
    /// cube nor the Crawford flag: the cube is taken as centred at 1, and with a side 1-away the
    /// Crawford game as past (its cube decisions would all be "no double" anyway).
    fn context(&self) -> ApiResult<Option<CubeContext>> {
        match self.away()? {
            None => Ok(None),
            Some(away) => CubeContext::match_play(away, 1, CubeOwner::Centred, false)
                .map(Some)
                .map_err(|e| ApiError::bad_request(format!("x_away, o_away: {}", e.message()))),
        }
    }
}

/// One checker moving one die's distance: 25 is the bar, 0 is off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct MoveDetail {
    /// The point the checker leaves, in the mover's numbering (25 = bar).
    #[schema(minimum = 1, maximum = 25)]
    pub from: u8,
    /// The point it reaches (0 = borne off).
    #[schema(minimum = 0, maximum = 24)]
    pub to: u8,
}

/// One legal play and what follows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MoveInfo {
    /// The checker moves, one per die used (up to four for a double); empty when the roll
    /// cannot be played.
    pub play: Vec<MoveDetail>,
    /// The outcome after the play, for the player who made it.
    pub probabilities: WildbgProbabilities,
}

/// Every legal play of the roll, best first.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct MoveResponse {
    /// The plays, best first; exactly one with an empty `play` when the roll is blocked.
    pub moves: Vec<MoveInfo>,
}

/// The cube advice of `/eval`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct CubeInfo {
    /// The player on roll should double.
    pub double: bool,
    /// The opponent should take a double.
    pub accept: bool,
}

/// The evaluation of a position for the player on roll.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct EvalResponse {
    /// What the player on roll and the opponent should do with the cube.
    pub cube: CubeInfo,
    /// The outcome for the player on roll, before rolling.
    pub probabilities: WildbgProbabilities,
}

/// Every legal play of a roll, best first: by cubeless equity for money play, by cubeful match
/// equity when `x_away` and `o_away` give the score.
///
/// The position is given point by point, `p0` to `p25`, as `Position.to_list()` writes it, seen
/// from the player on roll, who moves from 24 towards 1; omitted points are empty, and the
/// borne-off checkers are what is missing from 15.
#[utoipa::path(
    get,
    path = "/move",
    tag = "wildbg",
    params(MoveQuery, BoardQuery),
    responses(
        (status = 200, description = "every legal play, best first", body = MoveResponse),
        (status = 400, description = "a parameter is missing, malformed or out of range, or the position is not legal", body = ErrorMessage),
    )
)]
pub async fn get_move(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<MoveResponse>> {
    let query = Query::parse(raw.as_deref())?;
    let dice = query.dice()?;
    let position = query.position()?;
    let context = query.context()?;
    let ply = state.config.ply;
    state
        .workers
        .run(move |_| {
            let bot = Bot::new(ply)?;
            let ranked = bot.rank_plays(&position, dice, context.as_ref())?;
            let moves = ranked
                .into_iter()
                .map(|r| MoveInfo {
                    play: r.play.moves().iter().map(|m| MoveDetail { from: m.from, to: m.to }).collect(),
                    probabilities: r.probabilities.into(),
                })
                .collect();
            Ok(Json(MoveResponse { moves }))
        })
        .await
}

/// The outcome probabilities of a position for the player on roll, and the cube advice.
///
/// The position is given as for `/move`.
#[utoipa::path(
    get,
    path = "/eval",
    tag = "wildbg",
    params(BoardQuery, ScoreQuery),
    responses(
        (status = 200, description = "the evaluation", body = EvalResponse),
        (status = 400, description = "a parameter is malformed or out of range, or the position is not legal", body = ErrorMessage),
    )
)]
pub async fn get_eval(
    State(state): State<AppState>,
    RawQuery(raw): RawQuery,
) -> ApiResult<Json<EvalResponse>> {
    let query = Query::parse(raw.as_deref())?;
    let position = query.position()?;
    let context = query.context()?.unwrap_or_default();
    if position.we_have_won() || position.they_have_won() {
        return Err(ApiError::bad_request("p0..p25: the game is over: a side has borne off every checker"));
    }
    let ply = state.config.ply;
    state
        .workers
        .run(move |_| {
            // `Bot::cube_action` is exactly this; evaluating once serves the probabilities too.
            let value = Bot::new(ply)?.evaluate(&position);
            let decision = context.decide(&position, &value);
            let cube = CubeInfo { double: decision.double, accept: decision.take };
            Ok(Json(EvalResponse { cube, probabilities: value.into() }))
        })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn query(text: &str) -> Query {
        Query::parse(Some(text)).unwrap()
    }

    #[test]
    fn the_board_reads_as_to_list_writes_it() {
        let initial = Position::initial();
        let text: Vec<String> = initial
            .board()
            .iter()
            .enumerate()
            .filter(|(_, &n)| n != 0)
            .map(|(i, n)| format!("p{i}={n}"))
            .collect();
        assert_eq!(query(&text.join("&")).position().unwrap(), initial);
    }

    #[test]
    fn each_refusal_names_its_parameter() {
        let cases = [
            ("die2=3", "die1 is missing"),
            ("die1=7&die2=3", "die1 must be an integer in 1..=6"),
            ("die1=1&die1=2&die2=3", "die1 is given more than once"),
            ("die1=x&die2=3", "die1 must be an integer"),
        ];
        for (text, expected) in cases {
            assert!(query(text).dice().unwrap_err().message.starts_with(expected), "{text}");
        }
        assert!(query("p0=1")
            .position()
            .unwrap_err()
            .message
            .starts_with("p0 must be an integer in -15..=0"));
        assert!(query("p25=-1").position().unwrap_err().message.starts_with("p25 must be"));
        assert!(query("p3=16").position().unwrap_err().message.starts_with("p3 must be"));
        // Each count is in range, but sixteen checkers is one too many.
        assert!(query("p3=8&p4=8")
            .position()
            .unwrap_err()
            .message
            .starts_with("p0..p25: we have 16 checkers"));
        assert!(query("x_away=3").away().is_err());
        assert_eq!(query("x_away=0&o_away=0").away().unwrap(), None);
        assert_eq!(query("x_away=3&o_away=5").away().unwrap(), Some([3, 5]));
        // A stray percent sign is kept as text by the decoder, and is no integer.
        assert!(query("p1=%zz").position().unwrap_err().message.starts_with("p1 must be"));
    }

    #[test]
    fn the_description_lists_what_the_reader_reads() {
        let names: Vec<String> = MoveQuery::into_params(|| None)
            .into_iter()
            .chain(BoardQuery::into_params(|| None))
            .map(|p| p.name)
            .collect();
        let mut expected =
            vec!["die1", "die2", "x_away", "o_away"].into_iter().map(String::from).collect::<Vec<_>>();
        expected.extend((0..=25).map(|i| format!("p{i}")));
        assert_eq!(names, expected);
    }
}
