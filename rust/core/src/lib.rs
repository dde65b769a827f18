//! gammon-core: what every two-player dice game of gammon shares, with no game in it.
//!
//! Modules: [`dice`] (a validated roll, the 21 rolls, seeded dice streams), [`dice_game`] (the
//! [`DiceGame`] interface a game implements), [`probabilities`] (the five outcome
//! probabilities), [`policy`] (the [`Evaluator`] and [`Policy`] a player implements, with the
//! random and greedy policies), [`rollout`] (the reproducible, mergeable, multi-threaded rollout
//! driver), [`duel`] (two policies on mirrored dice), [`threads`] (worker pools kept from call to
//! call) and [`error`] (the one error type).
//!
//! Backgammon (`gammon-backgammon`) and Battlegammon (`gammon-battlegammon`) are both a
//! [`DiceGame`]; [`pip_race`] is a toy one, small enough for examples and tests.
//!
//! ```
//! use gammon_core::pip_race::{Counts, PipRace};
//! use gammon_core::rollout::{rollout_game, RolloutOptions, Start};
//! use gammon_core::RandomPolicy;
//! let options = RolloutOptions { trials: 360, seed: 1, ..RolloutOptions::default() };
//! let start = Start::Position(Counts { to_roll: 30, other: 30 });
//! let r = rollout_game(&PipRace, start, &RandomPolicy, &options, None).unwrap();
//! assert!(r.probabilities.win > 0.5); // rolling first is an edge
//! ```

pub mod dice;
pub mod dice_game;
pub mod duel;
pub mod error;
pub mod pip_race;
pub mod policy;
pub mod probabilities;
pub mod rollout;
pub mod threads;

pub use dice::{Dice, DiceStream, ALL_ROLLS};
pub use dice_game::DiceGame;
pub use error::{Error, Result};
pub use policy::{best_play, value_after, Evaluator, EvaluatorPolicy, Policy, RandomPolicy};
pub use probabilities::Probabilities;
