//! Reading what clients send: positions in every notation the engine knows, and dice.

use crate::error::{ApiError, ApiResult};
use gammon_backgammon::formats::reader::Notation;
use gammon_backgammon::{read_position, Dice, Position};
use serde::Deserialize;
use utoipa::ToSchema;

/// A backgammon position as a client may give it, always seen from the player on roll.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(
    untagged,
    expecting = "a Position ID, PositionID:MatchID, XGID, \"initial\" or \"opening\", or a list of 26 ints"
)]
pub enum PositionInput {
    /// A GNU Backgammon Position ID (`4HPwATDgc/ABMA`), `PositionID:MatchID`, an XGID (with or
    /// without `XGID=`, or its 26-character board alone), 26 ints written as text, `initial`
    /// (the starting position, a player on roll) or `opening` (before the opening roll: rolled
    /// out from there; with dice, the opening roll played; refused where no dice are given).
    #[schema(example = "4HPwATDgc/ABMA")]
    Text(String),
    /// 26 signed counts: `[0]` their bar (<= 0), `[1..=24]` the points (ours > 0, theirs < 0),
    /// `[25]` our bar (>= 0).
    Board(Vec<i64>),
}

/// A position read from a [`PositionInput`], with the game around it when the text carried one;
/// see [`gammon_backgammon::read_position`] for what each notation carries and what `opening`
/// means.
pub use gammon_backgammon::ReadPosition;

impl PositionInput {
    /// Reads the position with the engine's one reader; errors name the field `position`.
    pub fn read(&self) -> ApiResult<ReadPosition> {
        match self {
            PositionInput::Board(values) => Ok(ReadPosition {
                position: Position::from_list(values).map_err(at_position)?,
                match_state: None,
                named: None,
                notation: Notation::List,
            }),
            PositionInput::Text(text) => read_position(text).map_err(at_position),
        }
    }
}

/// An engine error about the position, as the answer to the request.
pub fn at_position(e: gammon_backgammon::Error) -> ApiError {
    ApiError::bad_request(format!("position: {}", e.message()))
}

/// A roll as a client may give it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize, ToSchema)]
#[serde(untagged, expecting = "dice as [d1, d2] or as text such as \"31\"")]
pub enum DiceInput {
    /// The two dice, each 1..=6, in either order.
    #[schema(example = json!([3, 1]))]
    Pair(Vec<i64>),
    /// `"31"`, `"3-1"`, `"3 1"` or `"3,1"`.
    Text(String),
}

impl DiceInput {
    /// Reads the roll with the engine's readers; errors name the field `dice`.
    pub fn read(&self) -> ApiResult<Dice> {
        let at_field = |e: gammon_backgammon::Error| ApiError::bad_request(format!("dice: {}", e.message()));
        match self {
            DiceInput::Text(text) => Dice::parse(text).map_err(at_field),
            DiceInput::Pair(values) => match values[..] {
                [a, b] => Dice::from_ints(a, b).map_err(at_field),
                _ => Err(ApiError::bad_request(format!("dice: expected two dice, got {}", values.len()))),
            },
        }
    }
}

/// The roll of a request: the `dice` given, or else those already rolled in the game that the
/// position's ID describes.
pub fn roll(dice: Option<&DiceInput>, read: &ReadPosition) -> ApiResult<Dice> {
    match (dice, read.dice()) {
        (Some(d), _) => d.read(),
        (None, Some(d)) => Ok(d),
        (None, None) => Err(ApiError::bad_request("dice: missing, and the position's ID has no dice rolled")),
    }
}

/// The search depth of a request: `ply` if given (0..=2), else the server's.
pub fn ply(requested: Option<i64>, default: u8) -> ApiResult<u8> {
    match requested {
        None => Ok(default),
        Some(p @ 0..=2) => Ok(p as u8),
        Some(p) => Err(ApiError::bad_request(format!("ply must be 0, 1 or 2, got {p}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_notation_reads_the_same_position() {
        let initial = Position::initial();
        let texts = [
            "4HPwATDgc/ABMA",
            " 4HPwATDgc/ABMA:cAkAAAAAAAAA ",
            "XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10",
            "-b----E-C---eE---c-e----B-",
            "initial",
        ];
        for text in texts {
            let read = PositionInput::Text(text.into()).read().unwrap();
            assert_eq!(read.position, initial, "{text}");
        }
        let board: Vec<i64> = initial.board().iter().map(|&n| n as i64).collect();
        assert_eq!(PositionInput::Board(board).read().unwrap().position, initial);
    }

    #[test]
    fn full_ids_bring_their_dice() {
        // The XGID of the engine's own documentation: player 1 won the opening roll with 3-1.
        let read =
            PositionInput::Text("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:6".into()).read().unwrap();
        assert_eq!(roll(None, &read).unwrap(), Dice::new(3, 1).unwrap());
        assert_eq!(roll(Some(&DiceInput::Text("6-5".into())), &read).unwrap(), Dice::new(6, 5).unwrap());
        let plain = PositionInput::Text("4HPwATDgc/ABMA".into()).read().unwrap();
        assert!(roll(None, &plain).unwrap_err().message.starts_with("dice:"));
    }

    #[test]
    fn bad_input_names_its_field() {
        let sixteen: Vec<i64> = [vec![0, 16], vec![0; 24]].concat();
        for bad in [
            PositionInput::Text("nonsense".into()),
            PositionInput::Board(vec![0; 25]),
            PositionInput::Board(sixteen),
        ] {
            assert!(bad.read().unwrap_err().message.starts_with("position: "), "{bad:?}");
        }
        for bad in [DiceInput::Pair(vec![0, 3]), DiceInput::Pair(vec![3]), DiceInput::Text("77".into())] {
            assert!(bad.read().unwrap_err().message.starts_with("dice: "), "{bad:?}");
        }
        assert!(ply(Some(3), 0).is_err());
        assert_eq!(ply(None, 2).unwrap(), 2);
    }
}
