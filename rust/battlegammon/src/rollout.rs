//! Battlegammon rollouts: the generic rollout driver on [`Battlegammon`].

use super::board::Position;
use super::dice_game::{Battlegammon, Chances, TurnPosition};
use gammon_core::error::Result;
use gammon_core::rollout::{rollout_game, Progress, RolloutOptions, RolloutResult, Start};
use gammon_core::Policy;

/// Rolls out `position` (validated; the side to move is about to roll) in `game` with `policy`
/// on both sides, with every guarantee of [`crate::rollout`]: the same seed gives the same result
/// at any thread count, and runs over consecutive trial ranges merge exactly. The turn cap counts
/// the turns from `position` on. The result is from the view of the side to move; read its win,
/// loss and draw chances with [`Chances::of`].
///
/// ```
/// use gammon_battlegammon::{rollout, Battlegammon, Chances, GreedyBot, Position};
/// use gammon_core::rollout::RolloutOptions;
/// let options = RolloutOptions { trials: 36, seed: 1, ..RolloutOptions::default() };
/// let r = rollout(&Battlegammon::default(), &Position::initial(), &GreedyBot, &options, None).unwrap();
/// let chances = Chances::of(&r);
/// assert_eq!(r.trials, 36);
/// assert!((chances.win + chances.lose + chances.draw - 1.0).abs() < 1e-9);
/// ```
pub fn rollout<P: Policy<Battlegammon>>(
    game: &Battlegammon,
    position: &Position,
    policy: &P,
    options: &RolloutOptions,
    progress: Option<Progress<'_>>,
) -> Result<RolloutResult> {
    position.validate()?;
    rollout_game(game, Start::Position(TurnPosition::new(*position)), policy, options, progress)
}

impl Chances {
    /// The chances estimated by a Battlegammon rollout.
    pub fn of(result: &RolloutResult) -> Chances {
        Chances::from_probabilities(&result.probabilities)
    }
}
