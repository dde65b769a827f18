//! Rolling out every legal play of a roll, to rank them.

use super::driver::{run, Threads};
use super::{RolloutOptions, RolloutResult, Start};
use crate::board::Position;
use crate::dice::Dice;
use crate::dice_game::{Backgammon, DiceGame};
use crate::error::Result;
use crate::eval::Policy;
use crate::moves::Play;
use std::fmt::Debug;

/// One candidate play and its rollout, from the view of the player who makes it.
#[derive(Clone, Debug)]
pub struct PlayRollout<Q = Play> {
    /// The play.
    pub play: Q,
    /// The rollout of the position after it (the opponent to roll), turned back to the mover.
    pub result: RolloutResult,
}

/// Rolls out the position after each play in `plays` (every candidate with the same seed, so trial
/// `i` throws the same dice after every candidate and the comparison has less noise), and returns
/// them best first by cubeless equity for the mover.
pub fn rollout_game_plays<G, P>(
    game: &G,
    plays: &[G::Play],
    policy: &P,
    options: &RolloutOptions,
) -> Result<Vec<PlayRollout<G::Play>>>
where
    G: DiceGame,
    G::Position: Debug,
    P: Policy<G>,
{
    options.validate()?;
    let threads = Threads::new(options.threads)?;
    let mut ranked = Vec::with_capacity(plays.len());
    for play in plays {
        let after = game.after(play);
        let result = run(&threads, game, Start::Position(after), policy, options, None)?.flipped();
        let cancelled = result.cancelled;
        ranked.push(PlayRollout { play: *play, result });
        if cancelled {
            break;
        }
    }
    ranked.sort_by(|a, b| b.result.equity.total_cmp(&a.result.equity));
    Ok(ranked)
}

/// Rolls out every legal play of `dice` from a backgammon `position`, best first; see
/// [`rollout_game_plays`]. If cancelled, the candidates not reached are missing.
///
/// ```
/// use gammon_engine::eval::BuiltinPolicy;
/// use gammon_engine::rollout::{rollout_plays, RolloutOptions};
/// use gammon_engine::{Dice, Position};
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
) -> Result<Vec<PlayRollout>> {
    let plays = position.legal_plays(dice);
    rollout_game_plays(&Backgammon, &plays, policy, options)
}
