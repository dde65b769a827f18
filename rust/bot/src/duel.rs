//! Backgammon duels: any two [`Policy`]s on mirrored dice, through the generic [`crate::duel`].
//!
//! Games are cubeless money games from the opening roll, scored 1, 2 (gammon) or 3 (backgammon).
//!
//! ```
//! use gammon_bot::duel::backgammon_duel;
//! use gammon_bot::{PubevalPolicy, RandomPolicy};
//! let r = backgammon_duel(&PubevalPolicy, &RandomPolicy, 20, 1);
//! assert_eq!(r.games, 40);
//! assert!(r.points_per_game() > 0.0);
//! ```

use super::Policy;
use crate::rollout::Start;
use gammon_backgammon::board::Position;
use gammon_backgammon::dice_game::Backgammon;
use gammon_core::duel::{duel, DuelResult};

/// Plays `pairs` pairs of mirrored games between `a` (policy 0) and `b` on the dice of `seed`,
/// in parallel on rayon's pool; the result does not depend on the thread count.
pub fn backgammon_duel<A, B>(a: &A, b: &B, pairs: u32, seed: u64) -> DuelResult
where
    A: Policy<Backgammon>,
    B: Policy<Backgammon>,
{
    duel(&Backgammon, Start::Opening(Position::initial()), a, b, pairs, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Bot;
    use crate::{BuiltinPolicy, PubevalPolicy, RandomPolicy};

    #[test]
    fn the_net_clearly_beats_pubeval() {
        // 2,000 games; the long duels are in the bot_duel example.
        let r = backgammon_duel(&Bot::new(0).unwrap(), &PubevalPolicy, 1000, 77);
        assert_eq!(r.games, 2000);
        assert!(r.points_per_game() > 0.3, "{:+.3} +- {:.3}", r.points_per_game(), r.points_std_error());
        assert!(r.points_std_error() > 0.0 && r.points_std_error() < 0.05);
    }

    #[test]
    fn duels_are_reproducible_and_mirrored() {
        let a = backgammon_duel(&BuiltinPolicy::NetFast, &RandomPolicy, 30, 5);
        let b = backgammon_duel(&BuiltinPolicy::NetFast, &RandomPolicy, 30, 5);
        assert_eq!(a, b);
        assert!(a.points_per_game() > 1.0);
        // A policy against itself on mirrored dice: every pair cancels exactly.
        let same = backgammon_duel(&PubevalPolicy, &PubevalPolicy, 30, 5);
        assert_eq!(same.points[0], same.points[1]);
        assert_eq!(same.pair_squares, 0);
    }

    #[test]
    fn backgammon_duels_count_money_points_on_mirrored_dice() {
        let opening = Start::Opening(Position::initial());
        // The same policy on both sides: both games of a pair are the same game, seats swapped.
        let even = duel(&Backgammon, opening, &PubevalPolicy, &PubevalPolicy, 20, 3);
        assert_eq!((even.games, even.draws), (40, 0));
        assert_eq!((even.wins[0], even.points[0]), (even.wins[1], even.points[1]));
        // Every game is worth 1, 2 or 3 points to its winner.
        let r = duel(&Backgammon, opening, &PubevalPolicy, &RandomPolicy, 20, 3);
        assert_eq!(r.wins[0] + r.wins[1], 40);
        for k in 0..2 {
            assert!(r.points[k] >= r.wins[k] as u64 && r.points[k] <= 3 * r.wins[k] as u64);
        }
        assert!(r.points_per_game() > 0.5, "{r:?}");
        assert_eq!(r, duel(&Backgammon, opening, &PubevalPolicy, &RandomPolicy, 20, 3));
    }
}
