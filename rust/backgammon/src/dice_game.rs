//! Backgammon as a [`DiceGame`]: what the generic rollout driver and duels of `gammon-core` need.

use crate::board::Position;
use crate::moves::{legal_plays_into, Play};
use gammon_core::dice::Dice;
pub use gammon_core::dice_game::DiceGame;

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
