//! The shape of a two-player dice game, as far as a rollout needs it, and backgammon in that shape.
//!
//! A rollout only ever asks: which plays does this roll allow, where does a play lead, and is the
//! game over. Battlegammon answers the same three questions, so the rollout driver is written
//! against [`DiceGame`] rather than against backgammon.

use crate::board::Position;
use crate::dice::Dice;
use crate::eval::Probabilities;
use crate::moves::{legal_plays_into, Play};

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

/// Backgammon as a [`DiceGame`]: money-game results (single, gammon, backgammon), cubeless.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Backgammon;

impl DiceGame for Backgammon {
    type Position = Position;
    type Play = Play;

    #[inline]
    fn legal_plays(&self, position: &Position, dice: Dice, out: &mut Vec<Play>) {
        legal_plays_into(position, dice, out);
    }

    #[inline]
    fn after(&self, play: &Play) -> Position {
        play.position.swapped()
    }

    #[inline]
    fn result(&self, position: &Position) -> Option<i8> {
        if position.they_have_won() {
            Some(-loser_points(&position.swapped()))
        } else if position.we_have_won() {
            Some(loser_points(position))
        } else {
            None
        }
    }

    fn pass_turn(&self, position: &Position) -> Position {
        position.swapped()
    }
}

/// What the winner of `position` (the player on roll, who has borne everything off) scores.
fn loser_points(position: &Position) -> i8 {
    let (_, loser_off) = position.off();
    if loser_off > 0 {
        return 1;
    }
    // Backgammon: the loser still has a checker on the bar or in the winner's home board.
    let b = position.board();
    if b[0] < 0 || b[1..=6].iter().any(|&n| n < 0) {
        3
    } else {
        2
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pos;

    #[test]
    fn results_count_gammons_and_backgammons() {
        let g = Backgammon;
        assert_eq!(g.result(&Position::initial()), None);
        // They (the player who just moved) bore off everything.
        assert_eq!(g.result(&pos!(6 => 2)), Some(-1));
        assert_eq!(g.result(&pos!(6 => 15)), Some(-2));
        assert_eq!(g.result(&pos!(20 => 1, 6 => 14)), Some(-3));
        assert_eq!(g.result(&pos!(25 => 1, 6 => 14)), Some(-3));
        // We bore off everything (a position no rollout reaches, but it has a result).
        assert_eq!(g.result(&pos!(1 => -1)), Some(1));
        assert_eq!(g.result(&pos!(10 => -15)), Some(2));
        assert_eq!(g.result(&pos!(3 => -15)), Some(3));
        assert_eq!(g.result(&pos!(0 => -1, 3 => -14)), Some(3));
    }
}
