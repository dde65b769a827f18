//! Legal plays: every way to use a roll, one per distinct resulting position.
//!
//! A turn moves two different tokens, one by each die, in either order; a double is two moves of
//! the same number. A die must be used when any legal move uses it, a token that has moved does
//! not move again, and a win (checked after every move) ends the turn at once.
//!
//! # Order
//!
//! Plays are listed in the order their resulting positions are first reached by this search: the
//! larger die played first, then the smaller one first (a double once); within that, the first
//! token from the lowest field number to the highest, and for each first move the second token
//! likewise. A single-move play appears where its first move is tried.

use super::board::Position;
use super::rules::Rules;
use gammon_core::dice::Dice;
use std::fmt;

/// One token moving from `from` to `to` (field numbers 1..=24).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// The field the token leaves.
    pub from: u8,
    /// The field it lands on.
    pub to: u8,
}

impl Move {
    /// The die this move uses.
    pub const fn distance(self) -> u8 {
        self.from.abs_diff(self.to)
    }
}

/// A legal play: zero, one or two moves and the position they lead to.
///
/// `position` has the turn passed on to the opponent, also after a winning play (whose
/// `position.winner()` names the mover); a roll that cannot be played gives the play with no
/// moves, which only passes the turn.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Play {
    /// The position after the play, the opponent to move.
    pub position: Position,
    moves: [Move; 2],
    len: u8,
    wins: bool,
}

impl Play {
    /// The moves in the order played.
    pub fn moves(&self) -> &[Move] {
        &self.moves[..self.len as usize]
    }

    /// The moves as `(from_field, to_field)` pairs.
    pub fn move_pairs(&self) -> Vec<(u8, u8)> {
        self.moves().iter().map(|m| (m.from, m.to)).collect()
    }

    /// True for the play of a roll that cannot be played.
    pub fn is_pass(&self) -> bool {
        self.len == 0
    }

    /// Whether the play wins the game (under the rules it was generated with).
    pub fn wins(&self) -> bool {
        self.wins
    }

    /// The moves as `from/to from/to`, or `pass`.
    pub fn notation(&self) -> String {
        if self.is_pass() {
            return "pass".into();
        }
        let moves: Vec<String> = self.moves().iter().map(|m| format!("{}/{}", m.from, m.to)).collect();
        moves.join(" ")
    }
}

impl fmt::Display for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

impl fmt::Debug for Play {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Play({} -> {:?}{})", self.notation(), self.position, if self.wins { ", wins" } else { "" })
    }
}

/// Every legal play of `dice` for the side to move in `position`, one per distinct resulting
/// position, in the order of the module documentation. A finished position (one with a winner
/// under `rules`) has no plays at all.
///
/// ```
/// use gammon_battlegammon::{legal_plays, Position, Rules};
/// use gammon_core::Dice;
/// let plays = legal_plays(&Position::initial(), Dice::new(6, 6).unwrap(), &Rules::default());
/// assert!(plays.iter().all(|p| p.moves().len() == 2));
/// ```
pub fn legal_plays(position: &Position, dice: Dice, rules: &Rules) -> Vec<Play> {
    let mut plays = Vec::with_capacity(64);
    legal_plays_into(position, dice, rules, &mut plays);
    plays
}

/// As [`legal_plays`], reusing `plays` (cleared first) to spare allocations in searches.
pub fn legal_plays_into(position: &Position, dice: Dice, rules: &Rules, plays: &mut Vec<Play>) {
    plays.clear();
    every_sequence(position, dice, rules, plays);
    if rules.maximize_dice {
        maximize(dice, plays);
    }
    remove_duplicates(plays);
}

/// Every legal move sequence, duplicates included, in the documented order.
pub(crate) fn every_sequence(position: &Position, dice: Dice, rules: &Rules, out: &mut Vec<Play>) {
    if position.winner_with(rules).is_some() {
        return;
    }
    let me = position.turn();
    let orders: &[(u8, u8)] = if dice.is_double() {
        &[(dice.high(), dice.low())]
    } else {
        &[(dice.high(), dice.low()), (dice.low(), dice.high())]
    };
    let mut any = false;
    for &(first, second) in orders {
        for from in position.origins(me) {
            let Some(to) = position.destination(me, from, first) else { continue };
            any = true;
            let one = Move { from, to };
            let after_one = position.after_move(from, to);
            if after_one.has_won(me, rules) {
                out.push(Play {
                    position: after_one.passed(),
                    moves: [one, Move::default()],
                    len: 1,
                    wins: true,
                });
                continue;
            }
            let before = out.len();
            // The token just moved is on top of `to` (or finished), so nothing leaves `to` now.
            for from2 in after_one.origins(me).filter(|&f| f != to) {
                let Some(to2) = after_one.destination(me, from2, second) else { continue };
                let after_two = after_one.after_move(from2, to2);
                out.push(Play {
                    position: after_two.passed(),
                    moves: [one, Move { from: from2, to: to2 }],
                    len: 2,
                    wins: after_two.has_won(me, rules),
                });
            }
            if out.len() == before {
                out.push(Play {
                    position: after_one.passed(),
                    moves: [one, Move::default()],
                    len: 1,
                    wins: false,
                });
            }
        }
    }
    if !any {
        out.push(Play { position: position.passed(), moves: [Move::default(); 2], len: 0, wins: false });
    }
}

/// Backgammon's rule: both dice when possible (a win counts as complete), else the larger die.
fn maximize(dice: Dice, plays: &mut Vec<Play>) {
    let complete = |p: &Play| p.len == 2 || p.wins;
    if plays.iter().any(complete) {
        plays.retain(complete);
    } else if !dice.is_double() && plays.iter().any(|p| p.len == 1 && p.moves[0].distance() == dice.high()) {
        plays.retain(|p| p.moves[0].distance() == dice.high());
    }
}

fn remove_duplicates(plays: &mut Vec<Play>) {
    let mut seen: Vec<u128> = Vec::with_capacity(plays.len());
    plays.retain(|p| {
        let key = p.position.key();
        if seen.contains(&key) {
            false
        } else {
            seen.push(key);
            true
        }
    });
}

/// The legal play whose moves are exactly `moves` (in that order), if there is one.
pub fn find_play(position: &Position, dice: Dice, rules: &Rules, moves: &[Move]) -> Option<Play> {
    let mut all = Vec::new();
    every_sequence(position, dice, rules, &mut all);
    if rules.maximize_dice {
        maximize(dice, &mut all);
    }
    all.into_iter().find(|p| p.moves() == moves)
}

impl Position {
    /// The legal plays of `dice` under the default rules; see [`legal_plays`].
    pub fn legal_plays(&self, dice: Dice) -> Vec<Play> {
        legal_plays(self, dice, &Rules::default())
    }

    /// The legal plays of `dice` under `rules`.
    pub fn legal_plays_with(&self, dice: Dice, rules: &Rules) -> Vec<Play> {
        legal_plays(self, dice, rules)
    }
}
