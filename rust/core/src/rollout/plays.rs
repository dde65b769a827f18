//! Rolling out every legal play of a roll, to rank them.

use super::cube::{NoCube, RolloutCube};
use super::driver::{run, CubeLines, Threads};
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
    rollout_game_plays_cubeful(game, plays, policy, None::<&NoCube>, options)
}

/// [`rollout_game_plays`] with the cube when `cube` is given: its states are seen from the
/// player to roll after each play (the mover's opponent), and the plays are ranked by cubeful
/// equity for the mover.
pub fn rollout_game_plays_cubeful<G, P, C>(
    game: &G,
    plays: &[G::Play],
    policy: &P,
    cube: Option<&C>,
    options: &RolloutOptions,
) -> Result<Vec<PlayRollout<G::Play>>>
where
    G: DiceGame,
    G::Position: Debug,
    P: Policy<G>,
    C: RolloutCube<G::Position>,
{
    options.validate()?;
    let threads = Threads::new(options.threads)?;
    let mut ranked = Vec::with_capacity(plays.len());
    let cube = cube.map(|c| (c, CubeLines::Cubeful));
    for play in plays {
        let after = game.after(play);
        let result = run(&threads, game, Start::Position(after), policy, cube, options, None)?.flipped();
        let cancelled = result.cancelled;
        ranked.push(PlayRollout { play: *play, result });
        if cancelled {
            break;
        }
    }
    let key = |r: &RolloutResult| r.cubeful_equity().unwrap_or(r.equity);
    ranked.sort_by(|a, b| key(&b.result).total_cmp(&key(&a.result)));
    Ok(ranked)
}
