//! Rollouts of backgammon positions, with any [`Policy`] for backgammon on both sides (usually a
//! [`BuiltinPolicy`](crate::policy::BuiltinPolicy)): the generic driver of
//! [`gammon_core::rollout`] applied to [`Backgammon`], cubeless or cubeful (the bot's cube
//! decisions in any [`CubeContext`](crate::cube::CubeContext): [`rollout_cubeful`],
//! [`rollout_cube`], [`rollout_plays_cubeful`]).
//!
//! ```
//! use gammon_bot::policy::BuiltinPolicy;
//! use gammon_bot::rollout::{rollout, RolloutOptions};
//! use gammon_backgammon::Position;
//! let options = RolloutOptions { trials: 72, seed: 7, ..RolloutOptions::default() };
//! let r = rollout(&Position::initial(), &BuiltinPolicy::Pubeval, &options).unwrap();
//! assert_eq!(r.trials, 72);
//! assert!(r.probabilities.win >= r.probabilities.win_gammon);
//! ```

pub use gammon_core::rollout::*;

use gammon_backgammon::{Backgammon, Dice, Play, Position, Result};
use gammon_core::policy::Policy;

/// Rolls out a backgammon `position` (the player on roll is about to roll) with `policy` on both
/// sides.
pub fn rollout<P: Policy<Backgammon>>(
    position: &Position,
    policy: &P,
    options: &RolloutOptions,
) -> Result<RolloutResult> {
    rollout_game(&Backgammon, Start::Position(*position), policy, options, None)
}

/// Rolls out the starting position before the opening roll; see [`Start::Opening`]. The result
/// is from the view of one fixed side, so its equity estimates 0.
pub fn rollout_opening<P: Policy<Backgammon>>(policy: &P, options: &RolloutOptions) -> Result<RolloutResult> {
    rollout_game(&Backgammon, Start::Opening(Position::initial()), policy, options, None)
}

/// Rolls out every legal play of `dice` from a backgammon `position`, best first; see
/// [`rollout_game_plays`]. If cancelled, the candidates not reached are missing.
///
/// ```
/// use gammon_bot::policy::BuiltinPolicy;
/// use gammon_bot::rollout::{rollout_plays, RolloutOptions};
/// use gammon_backgammon::{Dice, Position};
/// let options = RolloutOptions { trials: 36, ..RolloutOptions::default() };
/// let ranked =
///     rollout_plays(&Position::initial(), Dice::new(6, 5).unwrap(), &BuiltinPolicy::Pubeval, &options).unwrap();
/// assert_eq!(ranked.len(), 7);
/// assert!(ranked[0].result.equity >= ranked[6].result.equity);
/// ```
pub fn rollout_plays<P: Policy<Backgammon>>(
    position: &Position,
    dice: Dice,
    policy: &P,
    options: &RolloutOptions,
) -> Result<Vec<PlayRollout<Play>>> {
    let plays = position.legal_plays(dice);
    rollout_game_plays(&Backgammon, &plays, policy, options)
}

mod cubeful;
pub mod luck;
pub use cubeful::{
    rollout_cube, rollout_cubeful, rollout_cubeful_with_progress, rollout_plays_cubeful, BotCube, CubeRollout,
};

#[cfg(test)]
mod tests;
