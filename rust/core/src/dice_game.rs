//! The shape of a two-player dice game, as far as a rollout or a duel needs it.
//!
//! A rollout only ever asks: which plays does this roll allow, where does a play lead, and is the
//! game over. Battlegammon answers the same three questions, so the rollout driver is written
//! against [`DiceGame`] rather than against backgammon (`gammon_backgammon::Backgammon`).

use crate::dice::Dice;
use crate::probabilities::Probabilities;

/// A two-player game where each turn one player rolls two dice and picks one of the legal plays.
///
/// Positions are seen from the player about to roll. Game results are counted in points for that
/// player: 1 a single game, 2 a gammon, 3 a backgammon, negative for a loss, 0 a draw.
pub trait DiceGame: Sync {
    /// A position, seen from the player about to roll.
    type Position: Copy + Send + Sync;
    /// One legal way to play a roll.
    type Play: Copy + Send + Sync;

    /// Fills `out` (cleared first) with the legal plays of `dice`. It is never left empty: a roll
    /// that cannot be played gives one play that passes the turn.
    fn legal_plays(&self, position: &Self::Position, dice: Dice, out: &mut Vec<Self::Play>);

    /// The position after `play`, seen from the player who rolls next.
    fn after(&self, play: &Self::Play) -> Self::Position;

    /// The points won by the player to roll in `position` if the game is over, else `None`.
    fn result(&self, position: &Self::Position) -> Option<i8>;

    /// The same position with the other player to roll, used when the opening roll decides who
    /// starts.
    fn pass_turn(&self, position: &Self::Position) -> Self::Position;

    /// The certain outcome of a finished game worth `points` to the player to roll, as the five
    /// probabilities a rollout averages. The default, [`Probabilities::from_points`], counts a
    /// draw as half a win; a game with draws but no gammons may keep its draws apart (see
    /// Battlegammon).
    fn result_probabilities(&self, points: i8) -> Probabilities {
        Probabilities::from_points(points)
    }

    /// The rule options in force, written into a rollout's setup so that parts of rollouts
    /// played under different rules never merge; empty for a game without options.
    fn rules_text(&self) -> String {
        String::new()
    }
}
