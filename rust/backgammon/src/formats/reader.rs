//! The one reader of positions as people type them, shared by the server, the Python binding
//! and, through it, the command line and UBGI.
//!
//! [`read_position`] takes any notation the tools accept and says what the text carried beyond
//! the board: the game and match around it, and whether it named a start.
//!
//! # `opening` and `initial`
//!
//! Two names, one meaning each, everywhere:
//!
//! - `initial` (or its alias `start`): the starting position with a player on roll, about to
//!   roll or, with dice, about to play them: [`Position::initial`].
//! - `opening`: the starting position *before* the opening roll, where nobody is on roll yet.
//!   A rollout of it starts with the opening roll ([`gammon_core::rollout::Start::Opening`]),
//!   so its equity is 0 by symmetry.
//!
//! Where a player on roll is needed, `opening` is read as follows:
//!
//! - with dice given (listing or ranking the plays of a roll), it is the opening roll played by
//!   whoever won it: the initial position with those dice. A double is refused, because the
//!   opening roll is never one ([`ReadPosition::with_dice`]).
//! - with no dice (an evaluation, a cube decision, a position to think about), it is refused
//!   with a message saying to use `initial` ([`ReadPosition::on_roll`]).
//!
//! ```
//! use gammon_backgammon::{read_position, Dice, NamedStart, Position};
//! let read = read_position("opening").unwrap();
//! assert_eq!(read.named, Some(NamedStart::Opening));
//! assert!(read.on_roll().unwrap_err().message().contains("initial"));
//! assert_eq!(read.with_dice(Dice::new(3, 1).unwrap()).unwrap(), Position::initial());
//! assert!(read.with_dice(Dice::new(3, 3).unwrap()).is_err());
//! assert_eq!(read_position("initial").unwrap().on_roll().unwrap(), Position::initial());
//! ```

use crate::{Dice, EndReason, Error, Game, Match, Position, Result};
use gammon_core::rollout::Start;

/// How the text wrote the position.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Notation {
    /// A GNU Backgammon Position ID alone, e.g. `4HPwATDgc/ABMA`.
    PositionId,
    /// `PositionID:MatchID`, in either order.
    GnubgId,
    /// A whole XGID (board and its nine fields), with or without `XGID=`.
    Xgid,
    /// The 26-character board of an XGID alone, with or without `XGID=`.
    XgidBoard,
    /// 26 integers, as [`Position::to_list`] lays them out.
    List,
    /// `opening`, `initial` or `start`.
    Named,
}

impl Notation {
    /// The notation's name in snake case, as the Python binding reports it.
    ///
    /// ```
    /// use gammon_backgammon::formats::reader::Notation;
    /// assert_eq!(Notation::GnubgId.name(), "gnubg_id");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Notation::PositionId => "position_id",
            Notation::GnubgId => "gnubg_id",
            Notation::Xgid => "xgid",
            Notation::XgidBoard => "xgid_board",
            Notation::List => "list",
            Notation::Named => "named",
        }
    }

    /// Whether this is one of the XGID forms (the UBGI `position xgid` command takes only these).
    pub const fn is_xgid(self) -> bool {
        matches!(self, Notation::Xgid | Notation::XgidBoard)
    }
}

/// A start named in words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NamedStart {
    /// `opening`: the starting position before the opening roll.
    Opening,
    /// `initial` (or `start`): the starting position with a player on roll.
    Initial,
}

impl NamedStart {
    /// The name, `"opening"` or `"initial"` (an alias is reported under the name it stands for).
    pub const fn name(self) -> &'static str {
        match self {
            NamedStart::Opening => "opening",
            NamedStart::Initial => "initial",
        }
    }
}

/// A position read by [`read_position`], with whatever else its text carried.
#[derive(Clone, Debug)]
pub struct ReadPosition {
    /// The board, seen from the player on roll (for a named start: [`Position::initial`]).
    pub position: Position,
    /// The match or money session a `PositionID:MatchID` or a whole XGID describes, with its
    /// current game: the cube, the score, Crawford, Jacoby and beavers, the dice if rolled.
    /// `None` for every other notation. Read with seed 0: it is for reading, not for rolling.
    pub match_state: Option<Match>,
    /// Which start the text named, if it named one.
    pub named: Option<NamedStart>,
    /// How the text wrote the position.
    pub notation: Notation,
}

impl ReadPosition {
    /// The current game of [`ReadPosition::match_state`], which holds the cube and the turn.
    pub fn game(&self) -> Option<&Game> {
        self.match_state.as_ref().map(Match::game)
    }

    /// The dice the text says are rolled, if any.
    pub fn dice(&self) -> Option<Dice> {
        self.game().and_then(Game::dice)
    }

    /// Refuses a position where the game is already over: a player has borne off all 15
    /// checkers, or the match state says the game has ended (a drop or a resignation). Such a
    /// position reads, so that a finished game's IDs are understood, but there is nothing in it
    /// to evaluate, play or roll out.
    pub fn in_play(&self) -> Result<()> {
        let (ours, theirs) = self.position.off();
        let why = if ours == 15 {
            Some("the player on roll has borne off all 15 checkers".to_string())
        } else if theirs == 15 {
            Some("the player not on roll has borne off all 15 checkers".to_string())
        } else {
            self.game().and_then(Game::result).map(|r| {
                let how = match r.reason {
                    EndReason::BorneOff => "by bearing off",
                    EndReason::Dropped => "by a dropped double",
                    EndReason::Resigned => "by a resignation",
                };
                format!("player {} won it {how}", r.winner)
            })
        };
        match why {
            Some(why) => Err(Error::InvalidPosition(format!(
                "the game is over ({why}): there is nothing to evaluate, play or roll out"
            ))),
            None => Ok(()),
        }
    }

    /// The position where a player on roll is needed and no dice are given (an evaluation, a
    /// cube decision): `opening` is refused, as nobody is on roll before the opening roll, and
    /// so is a game already over ([`ReadPosition::in_play`]).
    pub fn on_roll(&self) -> Result<Position> {
        self.in_play()?;
        match self.named {
            Some(NamedStart::Opening) => Err(Error::InvalidPosition(
                "\"opening\" is the start before the opening roll, where nobody is on roll; \
                 use \"initial\" for the starting position with a player on roll"
                    .into(),
            )),
            _ => Ok(self.position),
        }
    }

    /// The position whose plays of `dice` are wanted: for `opening`, the opening roll played by
    /// whoever won it, so a double is refused; a game already over is refused.
    pub fn with_dice(&self, dice: Dice) -> Result<Position> {
        self.in_play()?;
        match self.named {
            Some(NamedStart::Opening) if dice.is_double() => Err(Error::InvalidDice(format!(
                "the opening roll is never a double, so \"opening\" cannot be played with {}; \
                 use \"initial\" for the starting position with any roll",
                dice.to_text()
            ))),
            _ => Ok(self.position),
        }
    }

    /// Where a rollout of it starts: before the opening roll for `opening`, else the position
    /// with its player about to roll; a game already over is refused.
    pub fn rollout_start(&self) -> Result<Start<Position>> {
        self.in_play()?;
        Ok(match self.named {
            Some(NamedStart::Opening) => Start::Opening(self.position),
            _ => Start::Position(self.position),
        })
    }
}

/// Reads a position in any notation people type, surrounding whitespace ignored:
///
/// - `opening`, `initial` or `start` (any case); see the [module documentation](self) for what
///   `opening` means where a player on roll is needed;
/// - a GNU Backgammon Position ID (`4HPwATDgc/ABMA`);
/// - `PositionID:MatchID` in either order, the Match ID checked and kept;
/// - an XGID, with or without `XGID=`, its fields kept;
/// - the 26-character board of an XGID alone, with or without `XGID=`: the board only;
/// - 26 integers laid out as [`Position::to_list`], separated by commas and/or whitespace,
///   with or without brackets: `[0, -2, 0, ...]`, `0 -2 0 ...`.
///
/// Errors are those of the notation the text was taken for, without a prefix: callers add
/// the name of their field.
///
/// ```
/// use gammon_backgammon::formats::reader::Notation;
/// use gammon_backgammon::{read_position, Dice, Position};
/// let read = read_position(" 4HPwATDgc/ABMA:cIkWAAAAAAAA ").unwrap();
/// assert_eq!(read.position, Position::initial());
/// assert_eq!(read.dice(), Some(Dice::new(5, 5).unwrap()));
/// assert_eq!(read.notation, Notation::GnubgId);
/// let list = format!("{:?}", Position::initial().to_list());
/// assert_eq!(read_position(&list).unwrap().position, Position::initial());
/// assert!(read_position("nonsense").is_err());
/// ```
pub fn read_position(text: &str) -> Result<ReadPosition> {
    let s = text.trim();
    let read =
        |position, match_state, notation| ReadPosition { position, match_state, named: None, notation };
    if let Some(named) = named_start(s) {
        return Ok(ReadPosition {
            position: Position::initial(),
            match_state: None,
            named: Some(named),
            notation: Notation::Named,
        });
    }
    // No ID has brackets, commas or inner whitespace; an ID with a ':' may have spaces
    // around it, which the ID readers allow.
    let list_like =
        s.starts_with('[') || (!s.contains(':') && s.contains(|c: char| c == ',' || c.is_whitespace()));
    if list_like {
        return Ok(read(read_list(s)?, None, Notation::List));
    }
    let xgid_like = s.starts_with("XGID=") || s.matches(':').count() >= 9;
    if xgid_like && s.contains(':') {
        // A fixed seed: the match is only read, its dice are never rolled.
        let m = Match::from_xgid(s, Some(0))?;
        return Ok(read(m.game().position(), Some(m), Notation::Xgid));
    }
    if xgid_like || s.len() == 26 {
        return Ok(read(Position::from_xgid(s)?, None, Notation::XgidBoard));
    }
    if s.contains(':') {
        let m = Match::from_gnubg_id(s, Some(0))?;
        return Ok(read(m.game().position(), Some(m), Notation::GnubgId));
    }
    Ok(read(Position::from_id(s)?, None, Notation::PositionId))
}

fn named_start(s: &str) -> Option<NamedStart> {
    if s.eq_ignore_ascii_case("opening") {
        Some(NamedStart::Opening)
    } else if s.eq_ignore_ascii_case("initial") || s.eq_ignore_ascii_case("start") {
        Some(NamedStart::Initial)
    } else {
        None
    }
}

/// 26 integers written as text, the layout of [`Position::to_list`].
fn read_list(s: &str) -> Result<Position> {
    let inner = match (s.strip_prefix('['), s.ends_with(']')) {
        (Some(rest), true) => &rest[..rest.len() - 1],
        (None, false) => s,
        _ => {
            return Err(Error::InvalidPosition(format!(
                "cannot read a board from {s:?}: its brackets are not paired"
            )))
        }
    };
    let values = inner
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|item| !item.is_empty())
        .enumerate()
        .map(|(i, item)| {
            item.parse::<i64>().map_err(|_| {
                Error::InvalidPosition(format!(
                    "cannot read a board from {s:?}: entry {i} is {item:?}, not an integer"
                ))
            })
        })
        .collect::<Result<Vec<i64>>>()?;
    Position::from_list(&values)
}

#[cfg(test)]
mod tests;
