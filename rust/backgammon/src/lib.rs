//! gammon-backgammon: the rules of backgammon in pure Rust: positions, legal plays, notation and
//! interchange formats, games and matches with the cube and the Crawford rule, match equity.
//!
//! Modules: [`board`] (positions), [`moves`] (legal plays), [`formats`] (Position ID, Match ID,
//! XGID, play notation, `.mat` files), [`game`], [`cube`], [`match_play`] and [`met`] (games
//! and matches), [`dice_game`] (backgammon as a [`DiceGame`], for the rollout driver and duels
//! of `gammon-core`). The bot that plays it is `gammon-bot`.
//!
//! Everything is seen from the player on roll: a [`Position`] is "our" board, we move from 24 to
//! 1, and [`Position::swapped`] hands the turn to the other side.
//!
//! ```
//! use gammon_backgammon::{Dice, Position};
//! let p = Position::from_id("4HPwATDgc/ABMA").unwrap();
//! let plays = p.legal_plays(Dice::new(3, 1).unwrap());
//! assert_eq!(plays.len(), 16);
//! let best = p.parse_play(Dice::new(3, 1).unwrap(), "8/5 6/5").unwrap();
//! assert_eq!(best.position.swapped().pips(), (167, 163));
//! ```

pub mod board;
pub mod cube;
pub mod dice_game;
pub mod formats;
pub mod game;
pub mod match_play;
pub mod met;
pub mod moves;

pub use board::Position;
pub use cube::{Cube, CubeRules};
pub use dice_game::Backgammon;
pub use formats::reader::{read_position, NamedStart, ReadPosition};
pub use game::{Action, EndReason, Game, GameResult, MatchContext, Phase, ResultKind};
pub use match_play::Match;
pub use met::MatchEquityTable;
pub use moves::{
    legal_plays, legal_plays_into, legal_positions, legal_positions_into, Move, Play, PlayGenerator,
};

// The core types every user of the rules needs, so that one `use gammon_backgammon::...` does.
pub use gammon_core::{Dice, DiceGame, DiceStream, Error, Probabilities, Result, ALL_ROLLS};
