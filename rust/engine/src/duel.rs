//! Duels: two policies play many games of a two-player dice game on mirrored dice.
//!
//! Each dice sequence is played twice with the seats swapped, so luck cancels out and the result
//! measures the policies. Any game fits that implements [`DuelGame`]; a policy implements
//! [`Policy`] for it. Pairs run in parallel, each from its own [`DiceStream`], so a duel gives
//! the same result whatever the thread count.
//!
//! ```
//! use gammon_engine::battlegammon::{GreedyBot, RandomBot, Rules};
//! use gammon_engine::duel::duel;
//! let result = duel(&Rules::default(), |_| GreedyBot::new(), |seed| RandomBot::new(seed), 10, 1);
//! assert_eq!(result.games, 20);
//! assert!(result.score(0) > 0.5);
//! ```

use crate::dice::{Dice, DiceStream};
use rayon::prelude::*;

/// How a game ended, by seat (0 or 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DuelOutcome {
    /// The player in `seat` won `points`.
    Win {
        /// The winning seat.
        seat: usize,
        /// Points won (1 where the game has no larger wins).
        points: u32,
    },
    /// Nobody won.
    Draw,
}

/// A two-player game driven by dice, as the duel harness sees it.
pub trait DuelGame: Sync {
    /// Everything that decides the rest of a game (position, turn counters, ...).
    type State: Clone;
    /// One legal play.
    type Play: Clone;
    /// The state before the first roll; may draw from `dice` (an opening roll, say).
    fn start(&self, dice: &mut DiceStream) -> Self::State;
    /// The seat (0 or 1) to play next.
    fn seat_to_move(&self, state: &Self::State) -> usize;
    /// The result once the game is over.
    fn result(&self, state: &Self::State) -> Option<DuelOutcome>;
    /// The legal plays of `dice`; never empty while [`DuelGame::result`] is `None` (a roll that
    /// cannot be played is one play that passes).
    fn legal_plays(&self, state: &Self::State, dice: Dice) -> Vec<Self::Play>;
    /// The state after `play`, the turn passed on.
    fn apply(&self, state: &Self::State, play: &Self::Play) -> Self::State;
}

/// A way of choosing plays.
pub trait Policy<G: DuelGame> {
    /// The index in `plays` (at least two of them) of the play to make.
    fn choose(&mut self, game: &G, state: &G::State, dice: Dice, plays: &[G::Play]) -> usize;
}

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

    /// Policy 0's net points per game (its points minus policy 1's, over the games).
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
}

/// Plays `pairs` pairs of games between the policies `make_a(seed)` (policy 0) and
/// `make_b(seed)` (policy 1) on dice stream `pair` of `seed`: in the first game of a pair policy 0
/// sits in seat 0, in the second in seat 1. The factories get a distinct seed for each game,
/// for policies that roll their own dice.
pub fn duel<G, A, B, FA, FB>(game: &G, make_a: FA, make_b: FB, pairs: u32, seed: u64) -> DuelResult
where
    G: DuelGame,
    A: Policy<G>,
    B: Policy<G>,
    FA: Fn(u64) -> A + Sync,
    FB: Fn(u64) -> B + Sync,
{
    (0..pairs as u64)
        .into_par_iter()
        .map(|pair| {
            let mut tally = DuelResult::default();
            for swap in 0..2 {
                let policy_seed = seed.rotate_left(32) ^ (pair * 2 + swap);
                let mut a = make_a(policy_seed);
                let mut b = make_b(policy_seed ^ 0x5555_5555);
                let outcome = if swap == 0 {
                    play_game(game, [&mut a, &mut b], DiceStream::new(seed, pair))
                } else {
                    play_game(game, [&mut b, &mut a], DiceStream::new(seed, pair))
                };
                tally.games += 1;
                match outcome {
                    DuelOutcome::Win { seat, points } => {
                        let policy = seat ^ swap as usize;
                        tally.wins[policy] += 1;
                        tally.points[policy] += points as u64;
                    }
                    DuelOutcome::Draw => tally.draws += 1,
                }
            }
            let net = tally.points[0] as i64 - tally.points[1] as i64;
            tally.pair_squares = (net * net) as u64;
            tally
        })
        .reduce(DuelResult::default, DuelResult::add)
}

/// One game with `seats[k]` playing seat `k`.
pub fn play_game<G: DuelGame>(game: &G, seats: [&mut dyn Policy<G>; 2], mut dice: DiceStream) -> DuelOutcome {
    let mut state = game.start(&mut dice);
    loop {
        if let Some(outcome) = game.result(&state) {
            return outcome;
        }
        let roll = dice.roll();
        let plays = game.legal_plays(&state, roll);
        assert!(!plays.is_empty(), "DuelGame::legal_plays gave no play for a game still running");
        let k = if plays.len() == 1 {
            0
        } else {
            let seat = game.seat_to_move(&state);
            seats[seat].choose(game, &state, roll, &plays).min(plays.len() - 1)
        };
        state = game.apply(&state, &plays[k]);
    }
}
