//! gammon-battlegammon: Battlegammon, the two-player race game of TWOPLUS Games on one shared track of 24 fields.
//!
//! Each side has ten tokens and runs towards the opponent's start field. Tokens never capture:
//! a token landing on a single token stacks on top of it and pins it. A side wins with three
//! tokens on the opponent's start field, or eight tokens on fields of the opponent's colour.
//! The rules enforced here are those of `docs/rules/battlegammon.md` in the repository; every
//! choice the sources leave open is a switch of [`Rules`].
//!
//! ```
//! use gammon_battlegammon::{Position, Side};
//! use gammon_core::Dice;
//! let p = Position::initial();
//! let plays = p.legal_plays(Dice::new(4, 2).unwrap());
//! let play = plays.iter().find(|p| p.move_pairs() == [(16, 12), (24, 22)]).unwrap();
//! assert_eq!(play.position.turn(), Side::White);
//! assert_eq!(play.position.on_opponent_colour(Side::Black), 1);
//! ```

mod board;
mod bot;
mod dice_game;
mod display;
mod eval;
mod game;
mod id;
mod plays;
mod policies;
mod rollout;
mod rules;
mod side;
mod stack;

pub use board::Position;
pub use bot::Bot;
pub use dice_game::{Battlegammon, Chances, TurnPlay, TurnPosition};
pub use eval::{evaluate, turns_to_win, Weights};
pub use game::{outcome_of, EndReason, Game, Outcome, Turn};
pub use id::read_position;
pub use plays::{find_play, legal_plays, legal_plays_into, Move, Play};
pub use policies::{BuiltinPolicy, GreedyBot};
pub use rollout::rollout;
pub use rules::Rules;
pub use side::{Side, COLOUR_TO_WIN, FIELDS, GOAL_TO_WIN, TOKENS};
pub use stack::Stack;

#[cfg(test)]
mod tests;
