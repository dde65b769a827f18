//! A toy [`DiceGame`] for examples and tests of the game-independent machinery: each side needs
//! to throw a number of pips; a roll counts its two dice (doubles twice); whoever gets there
//! first wins, a gammon or backgammon if the loser is still far behind. One play per roll.

use crate::dice::Dice;
use crate::dice_game::DiceGame;

/// The pip race.
#[derive(Clone, Copy, Debug, Default)]
pub struct PipRace;

/// A position of the race: the pips each side still has to throw, the side to roll first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Counts {
    /// Pips the side to roll still needs.
    pub to_roll: i32,
    /// Pips the other side still needs.
    pub other: i32,
}

/// The pips a roll counts for: doubles twice.
pub fn pips(dice: Dice) -> i32 {
    (dice.high() + dice.low()) as i32 * if dice.is_double() { 2 } else { 1 }
}

impl DiceGame for PipRace {
    type Position = Counts;
    type Play = Counts;

    fn legal_plays(&self, p: &Counts, dice: Dice, out: &mut Vec<Counts>) {
        out.clear();
        out.push(Counts { to_roll: p.to_roll - pips(dice), other: p.other });
    }

    fn after(&self, play: &Counts) -> Counts {
        Counts { to_roll: play.other, other: play.to_roll }
    }

    fn result(&self, p: &Counts) -> Option<i8> {
        // The loser is gammoned with 20 or more pips still to throw, backgammoned with 35.
        (p.other <= 0).then(|| -1 - (p.to_roll >= 20) as i8 - (p.to_roll >= 35) as i8)
    }

    fn pass_turn(&self, p: &Counts) -> Counts {
        Counts { to_roll: p.other, other: p.to_roll }
    }
}
