//! Duels: two policies play many games of a [`DiceGame`] on mirrored dice.
//!
//! Each dice sequence is played twice with the seats swapped, so luck cancels out and the result
//! measures the policies. Any [`DiceGame`] fits, and any [`Policy`] for it plays: the same
//! harness runs backgammon (points per game, cubeless: a gammon counts 2, a backgammon 3) and
//! Battlegammon (1 a win, draws apart). Pairs run in parallel, each from its own
//! [`DiceStream`], so a duel gives the same result whatever the thread count.
//!
//! ```
//! use gammon_core::duel::duel;
//! use gammon_core::pip_race::{Counts, PipRace};
//! use gammon_core::rollout::Start;
//! use gammon_core::RandomPolicy;
//! let start = Start::Opening(Counts { to_roll: 40, other: 40 });
//! let r = duel(&PipRace, start, &RandomPolicy, &RandomPolicy, 50, 1);
//! assert_eq!(r.games, 100);
//! // The race has one play a roll, so mirrored dice give each side the same games.
//! assert_eq!(r.wins[0], r.wins[1]);
//! ```

use crate::dice::{Dice, DiceStream};
use crate::dice_game::DiceGame;
use crate::rollout::{Start, OPENING_OUTCOMES};
use crate::Policy;
use rayon::prelude::*;

/// Stream indices of the policies' own randomness, above any pair number: a policy drawing
/// from the dice stream would change the dice of the rest of the game, and mirroring would fail.
const POLICY_STREAMS: u64 = 1 << 61;

/// The tally of a duel between policy 0 and policy 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DuelResult {
    /// Games played (twice the pairs).
    pub games: u32,
    /// Games won by each policy.
    pub wins: [u32; 2],
    /// Games drawn.
    pub draws: u32,
    /// Points won by each policy.
    pub points: [u64; 2],
    /// Over the pairs of mirrored games, the sum of the squares of policy 0's net points in the
    /// pair (for the standard error of [`DuelResult::points_per_game`]).
    pub pair_squares: u64,
}

impl DuelResult {
    /// The share of games policy `k` won, draws counting half.
    pub fn score(&self, k: usize) -> f64 {
        (self.wins[k] as f64 + 0.5 * self.draws as f64) / self.games.max(1) as f64
    }

    /// The standard error of [`DuelResult::score`], treating games as independent (mirroring
    /// makes it smaller in truth).
    pub fn std_error(&self) -> f64 {
        let p = self.score(0);
        (p * (1.0 - p) / self.games.max(1) as f64).sqrt()
    }

    /// Points won per game by policy 0, net of those it lost.
    pub fn points_per_game(&self) -> f64 {
        (self.points[0] as f64 - self.points[1] as f64) / self.games.max(1) as f64
    }

    /// The standard error of [`DuelResult::points_per_game`], from the spread of the net points
    /// of the mirrored pairs (the pairs are independent; the two games of a pair are not).
    pub fn points_std_error(&self) -> f64 {
        let pairs = (self.games / 2).max(1) as f64;
        let mean = (self.points[0] as f64 - self.points[1] as f64) / pairs;
        let variance =
            (self.pair_squares as f64 / pairs - mean * mean).max(0.0) * pairs / (pairs - 1.0).max(1.0);
        (variance / pairs).sqrt() / 2.0
    }

    fn add(mut self, other: DuelResult) -> DuelResult {
        self.games += other.games;
        self.pair_squares += other.pair_squares;
        self.draws += other.draws;
        for k in 0..2 {
            self.wins[k] += other.wins[k];
            self.points[k] += other.points[k];
        }
        self
    }

    fn record(&mut self, policy_points: [i8; 2]) {
        self.games += 1;
        match policy_points.iter().position(|&p| p > 0) {
            Some(k) => {
                self.wins[k] += 1;
                self.points[k] += policy_points[k] as u64;
            }
            None => self.draws += 1,
        }
    }
}

/// Plays `pairs` pairs of games from `start` between policy 0 (`a`) and policy 1 (`b`), pair
/// `p` on dice stream `p` of `seed`: in the first game of a pair policy 0 is the side `start`
/// is seen from, in the second policy 1 is. Random choices of a policy come from a stream of its
/// own for each game.
pub fn duel<G, A, B>(game: &G, start: Start<G::Position>, a: &A, b: &B, pairs: u32, seed: u64) -> DuelResult
where
    G: DiceGame,
    A: Policy<G>,
    B: Policy<G>,
{
    (0..pairs as u64)
        .into_par_iter()
        .map(|pair| {
            let mut tally = DuelResult::default();
            for swap in 0..2u64 {
                let mut streams =
                    [0, 1].map(|k| DiceStream::new(seed, POLICY_STREAMS | pair << 2 | swap << 1 | k));
                let [stream_a, stream_b] = &mut streams;
                let mut dice = DiceStream::new(seed, pair);
                let points = if swap == 0 {
                    let points = play_game(game, start, [a, b], &mut dice, [stream_a, stream_b]);
                    [points, -points]
                } else {
                    let points = play_game(game, start, [b, a], &mut dice, [stream_b, stream_a]);
                    [-points, points]
                };
                tally.record(points);
            }
            let net = tally.points[0] as i64 - tally.points[1] as i64;
            tally.pair_squares = (net * net) as u64;
            tally
        })
        .reduce(DuelResult::default, DuelResult::add)
}

/// One game from `start` with `seats[0]` playing the side `start` is seen from and `seats[1]`
/// the other; returns the points seat 0 won (negative for a loss, 0 for a draw). Dice come from
/// `dice`, each seat's random choices from its entry of `streams`.
pub fn play_game<G: DiceGame>(
    game: &G,
    start: Start<G::Position>,
    seats: [&dyn Policy<G>; 2],
    dice: &mut DiceStream,
    streams: [&mut DiceStream; 2],
) -> i8 {
    let mut plays = Vec::with_capacity(64);
    for seat in seats {
        seat.forget_history();
    }
    let (mut position, mut opening) = match start {
        Start::Position(p) => (p, None),
        Start::Opening(p) => (p, Some(OPENING_OUTCOMES[dice.below(OPENING_OUTCOMES.len())])),
    };
    let mut on_roll = 0;
    if let Some(outcome) = opening {
        // As in a rollout: the outcome is (seat 0's die, seat 1's die) and the higher one moves.
        if outcome / 6 < outcome % 6 {
            position = game.pass_turn(&position);
            on_roll = 1;
        }
    }
    loop {
        if let Some(points) = game.result(&position) {
            return if on_roll == 0 { points } else { -points };
        }
        let roll = match opening.take() {
            Some(outcome) => Dice::from_outcome(outcome),
            None => dice.roll(),
        };
        game.legal_plays(&position, roll, &mut plays);
        let k = if plays.len() == 1 {
            0
        } else {
            seats[on_roll].choose(game, &position, roll, &plays, streams[on_roll]).min(plays.len() - 1)
        };
        position = game.after(&plays[k]);
        on_roll = 1 - on_roll;
    }
}
