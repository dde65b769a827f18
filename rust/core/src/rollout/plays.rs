//! Rolling out every legal play of a roll, to rank them.

use super::driver::{run, Threads};
use super::{RolloutOptions, RolloutResult, Start};
use crate::dice_game::DiceGame;
use crate::error::Result;
use crate::policy::Policy;
use std::fmt::Debug;

/// One candidate play and its rollout, from the view of the player who makes it.
#[derive(Clone, Debug)]
pub struct PlayRollout<Q> {
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
