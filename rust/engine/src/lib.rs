//! gammon-engine: backgammon rules, legal plays, interchange formats and rollouts in pure Rust.
//!
//! Modules: [`board`] (positions), [`dice`], [`moves`] (legal plays), [`formats`] (Position ID,
//! XGID, notation), [`eval`] (evaluators and policies, pubeval), [`rollout`] (the rollout
//! simulator) over the [`dice_game::DiceGame`] interface.
//!
//! The second game, Battlegammon, lives in [`battlegammon`]; [`duel`] pits policies of either
//! game against each other on mirrored dice.
//!
//! Everything in backgammon is seen from the player on roll: a [`Position`] is "our" board, we
//! move from 24 to 1, and [`Position::swapped`] hands the turn to the other side.
//!
//! ```
//! use gammon_engine::{Dice, Position};
//! let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
//! let plays = p.legal_plays(Dice::new(3, 1).unwrap());
//! assert_eq!(plays.len(), 16);
//! let best = p.parse_play(Dice::new(3, 1).unwrap(), "8/5 6/5").unwrap();
//! assert_eq!(best.position.swapped().pips(), (167, 163));
//! ```

pub mod battlegammon;
pub mod board;
pub mod dice;
pub mod dice_game;
pub mod duel;
pub mod error;
pub mod eval;
pub mod formats;
pub mod moves;
pub mod rollout;

pub use board::Position;
pub use dice::{Dice, DiceStream, ALL_ROLLS};
pub use dice_game::{Backgammon, DiceGame};
pub use error::{Error, Result};
pub use moves::{legal_plays, legal_plays_into, Move, Play, PlayGenerator};

impl Position {
    /// Reads a GNU Backgammon Position ID (14 characters; the player not on roll is encoded first).
    pub fn from_id(id: &str) -> Result<Position> {
        formats::position_id::decode(id)
    }

    /// The GNU Backgammon Position ID.
    pub fn id(&self) -> String {
        formats::position_id::encode(self)
    }

    /// Reads the position of an XGID (the full ID, with or without `XGID=`, or its 26-character
    /// board alone, which puts the bottom player on roll).
    pub fn from_xgid(text: &str) -> Result<Position> {
        Ok(formats::xgid::decode(text)?.position)
    }

    /// A full XGID for this position: we are the bottom player, to roll, money, centred cube.
    pub fn xgid(&self) -> String {
        formats::xgid::encode_position(self)
    }

    /// Every legal play of `dice`, one per distinct resulting position.
    pub fn legal_plays(&self, dice: Dice) -> Vec<Play> {
        moves::legal_plays(self, dice)
    }

    /// The legal play of `dice` that `text` names in standard notation.
    pub fn parse_play(&self, dice: Dice, text: &str) -> Result<Play> {
        formats::notation::parse_play(self, dice, text)
    }
}
