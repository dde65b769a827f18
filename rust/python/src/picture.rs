//! Pictures for Python: the arguments of `to_svg` converted to `gammon-picture`'s options; the
//! drawing itself is the picture crate's.

use crate::errors::{GammonError, IntoPy, InvalidDiceError};
use gammon_backgammon::{Cube, Dice, Game, Match, Move, Position};
use gammon_picture::{board_svg, track_svg, BoardOptions, CubeView, Score, Side, TrackOptions};
use pyo3::prelude::*;
use pyo3::types::PyString;

/// Dice given as `(d1, d2)` or as text such as `"31"`.
pub fn dice_arg(value: &Bound<'_, PyAny>) -> PyResult<Dice> {
    if value.is_instance_of::<PyString>() {
        return Dice::parse(&value.extract::<String>()?).py_err();
    }
    // Values of any int size: out of range is the engine's refusal, with its message.
    match value.extract::<(i64, i64)>() {
        Ok((d1, d2)) => Dice::from_ints(d1, d2).py_err(),
        Err(_) => {
            Err(InvalidDiceError::new_err(format!("dice are (d1, d2) or text such as \"31\", got {value}")))
        }
    }
}

/// A play to draw: its notation, or the moves of a `Play` object.
pub enum PlayArg {
    Notation(String),
    Moves(Vec<Move>),
}

fn side(name: Option<&str>, what: &str) -> PyResult<Option<Side>> {
    name.map(|n| Side::from_name(n).map_err(|e| GammonError::new_err(format!("{what}: {}", e.message()))))
        .transpose()
}

/// The keyword arguments of `Position.to_svg`, as Python passed them.
pub struct BoardArgs<'a, 'py> {
    pub dice: Option<&'a Bound<'py, PyAny>>,
    pub cube_value: Option<i64>,
    pub cube_owner: Option<&'a str>,
    pub score: Option<(i64, i64)>,
    pub length: Option<i64>,
    pub play: Option<PlayArg>,
    pub bottom: &'a str,
    pub names: Option<(Option<String>, Option<String>)>,
}

/// The options of those arguments, for `position`.
pub fn board_options(position: &Position, args: BoardArgs<'_, '_>) -> PyResult<BoardOptions> {
    let mut options = BoardOptions::new();
    options.dice = args.dice.map(dice_arg).transpose()?;
    options.cube = match args.cube_value {
        None => None,
        Some(v) => {
            let value = u32::try_from(v)
                .map_err(|_| GammonError::new_err(format!("cube_value must be a power of two, got {v}")))?;
            // The engine's cube checks the value (a power of two within its limit).
            Cube::new(value, None).py_err()?;
            Some(CubeView { value, owner: side(args.cube_owner, "cube_owner")? })
        }
    };
    if args.cube_value.is_none() && args.cube_owner.is_some() {
        return Err(GammonError::new_err("cube_owner needs a cube: cube_value is None"));
    }
    options.score = match (args.score, args.length) {
        (None, None) => None,
        (score, length) => {
            let length = length.unwrap_or(0);
            let (ours, theirs) = score.unwrap_or((0, 0));
            let bad = || {
                GammonError::new_err(format!(
                    "score is (ours, theirs), points won, at most the match length {length}; got ({ours}, {theirs})"
                ))
            };
            let length = u32::try_from(length)
                .map_err(|_| GammonError::new_err(format!("length must be >= 0 (0: money), got {length}")))?;
            let points = [ours, theirs].map(|p| u32::try_from(p).ok());
            let [Some(ours), Some(theirs)] = points else { return Err(bad()) };
            if length > 0 && (ours > length || theirs > length) {
                return Err(bad());
            }
            Some(Score { points: [ours, theirs], length })
        }
    };
    options.arrows = match args.play {
        None => Vec::new(),
        Some(PlayArg::Moves(moves)) => moves,
        Some(PlayArg::Notation(text)) => {
            let dice = options
                .dice
                .ok_or_else(|| GammonError::new_err("a play given in notation needs the dice it plays"))?;
            position.parse_play(dice, &text).py_err()?.moves().to_vec()
        }
    };
    options.bottom = side(Some(args.bottom), "bottom")?.unwrap_or_default();
    if let Some((ours, theirs)) = args.names {
        options.names = [ours, theirs];
    }
    Ok(options)
}

/// The board of `position` with `options`.
pub fn position_svg(position: &Position, options: &BoardOptions) -> PyResult<String> {
    board_svg(position, options).py_err()
}

/// A play's picture: the board after it, with arrows from where its checkers were.
pub fn play_svg(play: &gammon_backgammon::Play) -> PyResult<String> {
    let options = BoardOptions { arrows: play.moves().to_vec(), played: true, ..BoardOptions::new() };
    board_svg(&play.position, &options).py_err()
}

/// `options` with the `dice` (if given, else those rolled) and the side at the `bottom`.
fn adjusted(
    mut options: BoardOptions,
    dice: Option<&Bound<'_, PyAny>>,
    bottom: &str,
) -> PyResult<BoardOptions> {
    if let Some(d) = dice {
        options.dice = Some(dice_arg(d)?);
    }
    options.bottom = side(Some(bottom), "bottom")?.unwrap_or_default();
    Ok(options)
}

/// A game's current state: its position, cube, dice and score.
pub fn game_svg(game: &Game, dice: Option<&Bound<'_, PyAny>>, bottom: &str) -> PyResult<String> {
    board_svg(&game.position(), &adjusted(BoardOptions::from_game(game), dice, bottom)?).py_err()
}

/// A match's current game, with the score and the players' names.
pub fn match_svg(m: &Match, dice: Option<&Bound<'_, PyAny>>, bottom: &str) -> PyResult<String> {
    board_svg(&m.game().position(), &adjusted(BoardOptions::from_match(m), dice, bottom)?).py_err()
}

/// A Battlegammon position, with the dice and a play's arrows when given.
pub fn track(
    position: &gammon_battlegammon::Position,
    dice: Option<&Bound<'_, PyAny>>,
    play: Option<&gammon_battlegammon::Play>,
) -> PyResult<String> {
    let options = TrackOptions {
        dice: dice.map(dice_arg).transpose()?,
        arrows: play.map(|p| p.move_pairs()).unwrap_or_default(),
    };
    track_svg(position, &options).py_err()
}
