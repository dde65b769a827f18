//! Simple policies and the duel adapter: Battlegammon under a set of [`Rules`] is a [`DuelGame`].

use super::board::Position;
use super::game::{outcome_of, Outcome};
use super::plays::{legal_plays, Play};
use super::rules::Rules;
use super::side::Side;
use crate::dice::{Dice, DiceStream};
use crate::duel::{DuelGame, DuelOutcome, Policy};

/// A game in a duel: the position and the turns played. Seat `k` is `Side::BOTH[k]` (White 0,
/// Black 1); Black moves first.
impl DuelGame for Rules {
    type State = (Position, u32);
    type Play = Play;

    fn start(&self, _: &mut DiceStream) -> (Position, u32) {
        (Position::initial(), 0)
    }

    fn seat_to_move(&self, state: &(Position, u32)) -> usize {
        state.0.turn().index()
    }

    fn result(&self, state: &(Position, u32)) -> Option<DuelOutcome> {
        outcome_of(&state.0, state.1, self).map(|outcome| match outcome {
            Outcome::Win(side) => DuelOutcome::Win { seat: side.index(), points: 1 },
            Outcome::Draw => DuelOutcome::Draw,
        })
    }

    fn legal_plays(&self, state: &(Position, u32), dice: Dice) -> Vec<Play> {
        legal_plays(&state.0, dice, self)
    }

    fn apply(&self, state: &(Position, u32), play: &Play) -> (Position, u32) {
        (play.position, state.1 + 1)
    }
}

/// Picks a legal play uniformly at random.
#[derive(Clone, Debug)]
pub struct RandomBot {
    dice: DiceStream,
}

impl RandomBot {
    /// A random policy drawing from stream 0 of `seed`.
    pub fn new(seed: u64) -> RandomBot {
        RandomBot { dice: DiceStream::new(seed, 0) }
    }

    /// One of `plays` (not empty), uniformly.
    pub fn pick(&mut self, plays: &[Play]) -> usize {
        self.dice.below(plays.len())
    }
}

impl Policy<Rules> for RandomBot {
    fn choose(&mut self, _: &Rules, _: &(Position, u32), _: Dice, plays: &[Play]) -> usize {
        self.pick(plays)
    }
}

/// The one-ply greedy heuristic: a winning play if there is one, else the play that leaves the
/// most tokens on the opponent's colour (a finished token counting once more), then the most
/// progress (fewest pips to go); the first such play in the list on a tie.
#[derive(Clone, Copy, Debug, Default)]
pub struct GreedyBot;

impl GreedyBot {
    /// The greedy policy.
    pub fn new() -> GreedyBot {
        GreedyBot
    }

    /// How much the greedy policy likes `position` for `side` (higher is better).
    pub fn score(position: &Position, side: Side, wins: bool) -> i64 {
        if wins {
            return i64::MAX;
        }
        let across = position.on_opponent_colour(side) as i64 + position.in_goal(side) as i64;
        across * 1000 - position.pips(side) as i64
    }

    /// The index of the greedy choice among `plays` (not empty) of the side to move in `position`.
    pub fn pick(&self, position: &Position, plays: &[Play]) -> usize {
        let side = position.turn();
        let mut best = (i64::MIN, 0);
        for (k, play) in plays.iter().enumerate() {
            let score = GreedyBot::score(&play.position, side, play.wins());
            if score > best.0 {
                best = (score, k);
            }
        }
        best.1
    }
}

impl Policy<Rules> for GreedyBot {
    fn choose(&mut self, _: &Rules, state: &(Position, u32), _: Dice, plays: &[Play]) -> usize {
        self.pick(&state.0, plays)
    }
}
