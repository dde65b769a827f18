//! Backgammon duels: any two [`Policy`]s on mirrored dice, through the generic [`crate::duel`].
//!
//! Games are cubeless money games from the opening roll, scored 1, 2 (gammon) or 3 (backgammon).
//!
//! ```
//! use gammon_engine::eval::duel::backgammon_duel;
//! use gammon_engine::eval::{PubevalPolicy, RandomPolicy};
//! let r = backgammon_duel(&PubevalPolicy, &RandomPolicy, 20, 1);
//! assert_eq!(r.games, 40);
//! assert!(r.points_per_game() > 0.0);
//! ```

use super::Policy;
use crate::board::Position;
use crate::dice_game::Backgammon;
use crate::duel::{duel, DuelResult};
use crate::rollout::Start;

/// Plays `pairs` pairs of mirrored games between `a` (policy 0) and `b` on the dice of `seed`,
/// in parallel on rayon's pool; the result does not depend on the thread count.
pub fn backgammon_duel<A, B>(a: &A, b: &B, pairs: u32, seed: u64) -> DuelResult
where
    A: Policy<Backgammon>,
    B: Policy<Backgammon>,
{
    duel(&Backgammon, Start::Opening(Position::initial()), a, b, pairs, seed)
}
