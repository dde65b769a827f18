//! The text forms of a position: the list of 24 fields and the compact Position ID.
//!
//! # The ID
//!
//! `<turn>:<field 1>/<field 2>/.../<field 24>`: the side to move as `w` or `b`, a colon, then the
//! 24 fields separated by `/`, each written as its tokens bottom to top, `w` for White and `b`
//! for Black (an empty field is an empty string). A start field lists its owner's tokens first,
//! then the opponent's finished ones, so every position has exactly one ID. The initial position:
//!
//! ```text
//! b:wwwww////w///ww/ww///////b///bb/bb////bbbbb
//! ```
//!
//! Reading accepts upper-case letters too; the ID written is always lower case.

use super::board::Position;
use super::side::{Side, FIELDS};
use super::stack::Stack;
use gammon_core::error::{Error, Result};
use std::fmt;

impl Position {
    /// The 24 fields as strings of `w`/`b`, entry `k-1` for field `k`, tokens bottom to top; on a
    /// start field the owner's tokens first, then the opponent's finished ones.
    ///
    /// ```
    /// use gammon_battlegammon::Position;
    /// let list = Position::initial().to_list();
    /// assert_eq!((list[0].as_str(), list[7].as_str(), list[15].as_str()), ("wwwww", "ww", "b"));
    /// ```
    pub fn to_list(&self) -> Vec<String> {
        (1..=FIELDS).map(|f| self.tokens(f).into_iter().map(Side::letter).collect()).collect()
    }

    /// The position with `turn` to move whose fields [`Position::to_list`] gives, validated.
    pub fn from_list<S: AsRef<str>>(fields: &[S], turn: Side) -> Result<Position> {
        if fields.len() != FIELDS as usize {
            return Err(Error::InvalidPosition(format!(
                "a position lists {FIELDS} fields; got {}",
                fields.len()
            )));
        }
        let mut stacks = [Stack::EMPTY; FIELDS as usize];
        let (mut start, mut goal) = ([0u8; 2], [0u8; 2]);
        for (k, text) in fields.iter().enumerate() {
            let field = k as u8 + 1;
            let tokens = read_tokens(text.as_ref(), field)?;
            match field {
                1 | FIELDS => {
                    let owner = if field == 1 { Side::White } else { Side::Black };
                    let own = tokens.iter().take_while(|&&t| t == owner).count();
                    if tokens[own..].contains(&owner) {
                        return Err(Error::InvalidPosition(format!(
                            "field {field} is {owner}'s start field: list {owner}'s tokens first, \
                             then the finished ones of {}; got {:?}",
                            owner.opponent(),
                            text.as_ref()
                        )));
                    }
                    start[owner.index()] = own.min(u8::MAX as usize) as u8;
                    goal[owner.opponent().index()] = (tokens.len() - own).min(u8::MAX as usize) as u8;
                }
                _ => {
                    if tokens.len() > Stack::CAPACITY as usize {
                        return Err(Error::InvalidPosition(format!(
                            "field {field} holds {} tokens; a field other than a start field holds at most 2",
                            tokens.len()
                        )));
                    }
                    stacks[k] = tokens.iter().fold(Stack::EMPTY, |s, &t| s.push(t));
                }
            }
        }
        Position::from_parts(stacks, start, goal, turn)
    }

    /// The compact ID described in the module documentation of `battlegammon::id`.
    ///
    /// ```
    /// use gammon_battlegammon::Position;
    /// let id = Position::initial().id();
    /// assert_eq!(id, "b:wwwww////w///ww/ww///////b///bb/bb////bbbbb");
    /// assert_eq!(Position::from_id(&id).unwrap(), Position::initial());
    /// ```
    pub fn id(&self) -> String {
        format!("{}:{}", self.turn().letter(), self.to_list().join("/"))
    }

    /// Reads an ID written by [`Position::id`], validating the position.
    pub fn from_id(id: &str) -> Result<Position> {
        let id = id.trim();
        let (turn, board) = id.split_once(':').ok_or_else(|| {
            Error::InvalidPosition(format!("ID {id:?} lacks the ':' after the side to move (w or b)"))
        })?;
        let mut letters = turn.chars();
        let turn = match (letters.next().and_then(Side::from_letter), letters.next()) {
            (Some(side), None) => side,
            _ => {
                return Err(Error::InvalidPosition(format!(
                    "ID {id:?}: the side to move must be w or b; got {turn:?}"
                )))
            }
        };
        let fields: Vec<&str> = board.split('/').collect();
        Position::from_list(&fields, turn).map_err(|e| Error::InvalidPosition(format!("ID {id:?}: {e}")))
    }
}

/// Reads a Battlegammon position as people and clients write it: an ID ([`Position::id`]) or
/// `initial` (any case), the setup of the rules with Black to move; surrounding spaces are
/// ignored. The one reader behind the command line, Python and the HTTP backend. Battlegammon IDs
/// hold a `:`, so they are never given to backgammon's reader.
///
/// ```
/// use gammon_battlegammon::{read_position, Position};
/// assert_eq!(read_position(" Initial ").unwrap(), Position::initial());
/// let p = Position::initial();
/// assert_eq!(read_position(&p.id()).unwrap(), p);
/// assert!(read_position("").is_err());
/// ```
pub fn read_position(text: &str) -> Result<Position> {
    let text = text.trim();
    if text.eq_ignore_ascii_case("initial") {
        Ok(Position::initial())
    } else if text.is_empty() {
        Err(Error::InvalidPosition(
            "a Battlegammon position is an ID (Position.id) or 'initial'; got an empty string".into(),
        ))
    } else {
        Position::from_id(text)
    }
}

fn read_tokens(text: &str, field: u8) -> Result<Vec<Side>> {
    text.chars()
        .map(|c| {
            Side::from_letter(c).ok_or_else(|| {
                Error::InvalidPosition(format!("field {field}: {c:?} is not a token (w or b) in {text:?}"))
            })
        })
        .collect()
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Position({})", self.id())
    }
}
