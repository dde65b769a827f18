//! Backgammon duels: any two [`Policy`]s on mirrored dice, through the generic [`crate::duel`].
//!
//! Games are cubeless money games scored 1, 2 (gammon) or 3 (backgammon). The side to start is
//! drawn from the pair's dice stream and the first roll is an ordinary roll (it may be a double):
//! both games of a pair see the same dice, so this favours neither policy.
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
use crate::dice::{Dice, DiceStream};
use crate::dice_game::{Backgammon, DiceGame};
use crate::duel::{self, DuelGame, DuelOutcome, DuelResult};
use crate::moves::{legal_plays, Play};

/// Backgammon for the duel harness: the state is the position (seen from the side to move) and
/// that side's seat.
#[derive(Clone, Copy, Debug, Default)]
pub struct BackgammonDuel;

impl DuelGame for BackgammonDuel {
    type State = (Position, usize);
    type Play = Play;

    fn start(&self, dice: &mut DiceStream) -> (Position, usize) {
        (Position::initial(), dice.below(2))
    }

    fn seat_to_move(&self, state: &(Position, usize)) -> usize {
        state.1
    }

    fn result(&self, state: &(Position, usize)) -> Option<DuelOutcome> {
        let points = Backgammon.result(&state.0)?;
        let seat = if points > 0 { state.1 } else { 1 - state.1 };
        Some(DuelOutcome::Win { seat, points: points.unsigned_abs() as u32 })
    }

    fn legal_plays(&self, state: &(Position, usize), dice: Dice) -> Vec<Play> {
        legal_plays(&state.0, dice)
    }

    fn apply(&self, state: &(Position, usize), play: &Play) -> (Position, usize) {
        (play.position.swapped(), 1 - state.1)
    }
}

/// A backgammon [`Policy`] in a duel seat, with its own stream for random choices.
pub struct Seat<'a, P: ?Sized> {
    policy: &'a P,
    stream: DiceStream,
}

impl<'a, P: Policy<Backgammon> + ?Sized> Seat<'a, P> {
    /// `policy` drawing any randomness from stream `seed`.
    pub fn new(policy: &'a P, seed: u64) -> Self {
        Seat { policy, stream: DiceStream::new(seed, u64::MAX) }
    }
}

impl<P: Policy<Backgammon> + ?Sized> duel::Policy<BackgammonDuel> for Seat<'_, P> {
    fn choose(&mut self, _: &BackgammonDuel, state: &(Position, usize), dice: Dice, plays: &[Play]) -> usize {
        self.policy.choose(&Backgammon, &state.0, dice, plays, &mut self.stream)
    }
}

/// Plays `pairs` pairs of mirrored games between `a` (policy 0) and `b` on the dice of `seed`,
/// in parallel on rayon's pool; the result does not depend on the thread count.
pub fn backgammon_duel<A, B>(a: &A, b: &B, pairs: u32, seed: u64) -> DuelResult
where
    A: Policy<Backgammon> + ?Sized,
    B: Policy<Backgammon> + ?Sized,
{
    duel::duel(&BackgammonDuel, |s| Seat::new(a, s), |s| Seat::new(b, s), pairs, seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::search::Bot;
    use crate::eval::{BuiltinPolicy, PubevalPolicy, RandomPolicy};

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
        let a = backgammon_duel(&BuiltinPolicy::Net, &RandomPolicy, 30, 5);
        let b = backgammon_duel(&BuiltinPolicy::Net, &RandomPolicy, 30, 5);
        assert_eq!(a, b);
        assert!(a.points_per_game() > 1.0);
        // A policy against itself on mirrored dice: every pair cancels exactly.
        let same = backgammon_duel(&PubevalPolicy, &PubevalPolicy, 30, 5);
        assert_eq!(same.points[0], same.points[1]);
        assert_eq!(same.pair_squares, 0);
    }
}
