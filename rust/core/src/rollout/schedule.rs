//! Quasi-random dice for the first two rolls of each trial.
//!
//! Trials come in blocks of `n` (36 outcomes, or the 30 non-doubles of an opening roll): within
//! each block every first-roll outcome is used exactly once. Blocks of `36 n` trials also pair
//! every first roll with every second roll exactly once. So a multiple of 36 (or 30) trials
//! is exactly stratified on the first roll, and a multiple of 1296 (or 1080) on the first two.
//!
//! The order inside a block comes from a seeded shuffle rather than from the trial number alone:
//! fewer trials than a block then still give an unbiased estimate, and the dice of trial `i`
//! depend only on the seed and `i`, so partial runs merge exactly.

use crate::dice::DiceStream;

/// Stream indices above any trial number, one range per kind of shuffle.
const FIRST_ROLL_STREAMS: u64 = 1 << 62;
const SECOND_ROLL_STREAMS: u64 = 1 << 63;

/// The 36 ordered outcomes (see [`crate::Dice::from_outcome`]).
const ALL_OUTCOMES: [u8; 36] = {
    let mut a = [0u8; 36];
    let mut k = 0;
    while k < 36 {
        a[k] = k as u8;
        k += 1;
    }
    a
};

/// The 30 ordered outcomes without a double: the possible opening rolls.
pub const OPENING_OUTCOMES: [u8; 30] = {
    let mut a = [0u8; 30];
    let (mut k, mut i) = (0, 0);
    while k < 36 {
        if k / 6 != k % 6 {
            a[i] = k as u8;
            i += 1;
        }
        k += 1;
    }
    a
};

/// A seeded permutation of `0..len` (Fisher-Yates), cached for the block last asked for.
struct Shuffle {
    block: Option<u64>,
    order: [u8; 36],
}

impl Shuffle {
    fn new() -> Shuffle {
        Shuffle { block: None, order: [0; 36] }
    }

    fn get(&mut self, seed: u64, stream: u64, block: u64, len: usize) -> &[u8; 36] {
        if self.block != Some(block) {
            let mut rng = DiceStream::new(seed, stream | block);
            for (k, slot) in self.order.iter_mut().enumerate() {
                *slot = k as u8;
            }
            for k in (1..len).rev() {
                let j = rng.below(k + 1);
                self.order.swap(k, j);
            }
            self.block = Some(block);
        }
        &self.order
    }
}

/// Gives each trial its first two rolls as outcomes `0..36`.
pub(crate) struct Schedule {
    seed: u64,
    first_outcomes: &'static [u8],
    quasi_random: bool,
    first: Shuffle,
    second: Shuffle,
}

impl Schedule {
    /// `opening`: the first roll is an opening roll (never a double).
    pub(crate) fn new(seed: u64, opening: bool, quasi_random: bool) -> Schedule {
        let first_outcomes: &'static [u8] = if opening { &OPENING_OUTCOMES } else { &ALL_OUTCOMES };
        Schedule { seed, first_outcomes, quasi_random, first: Shuffle::new(), second: Shuffle::new() }
    }

    /// The first two outcomes of `trial`; without quasi-random dice they are drawn from `stream`.
    pub(crate) fn first_two(&mut self, trial: u64, stream: &mut DiceStream) -> (u8, u8) {
        let n = self.first_outcomes.len();
        if !self.quasi_random {
            return (self.first_outcomes[stream.below(n)], stream.outcome());
        }
        let n64 = n as u64;
        let block = trial / n64;
        let first = self.first_outcomes
            [self.first.get(self.seed, FIRST_ROLL_STREAMS, block, n)[(trial % n64) as usize] as usize];
        // Within a block of 36 n trials, block j of n pairs each first roll f with the second
        // roll f + offset(j), and the 36 offsets are a permutation: every pair occurs once.
        let offset =
            self.second.get(self.seed, SECOND_ROLL_STREAMS, trial / (36 * n64), 36)[(block % 36) as usize];
        (first, (first + offset) % 36)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    fn pairs(opening: bool, first_trial: u64, count: u64) -> Vec<(u8, u8)> {
        let mut s = Schedule::new(99, opening, true);
        (first_trial..first_trial + count).map(|i| s.first_two(i, &mut DiceStream::new(99, i))).collect()
    }

    #[test]
    fn blocks_are_exactly_stratified() {
        for (opening, n) in [(false, 36u64), (true, 30)] {
            let all = pairs(opening, 36 * n, 36 * n);
            let distinct: HashSet<_> = all.iter().collect();
            assert_eq!(distinct.len() as u64, 36 * n);
            for block in all.chunks(n as usize) {
                let firsts: HashSet<u8> = block.iter().map(|p| p.0).collect();
                let seconds: HashSet<u8> = block.iter().map(|p| p.1).collect();
                assert_eq!(firsts.len() as u64, n);
                assert_eq!(seconds.len() as u64, n);
            }
            if opening {
                assert!(all.iter().all(|&(f, _)| f / 6 != f % 6));
            }
        }
    }

    #[test]
    fn dice_depend_only_on_the_trial() {
        let whole = pairs(false, 0, 2000);
        let tail = pairs(false, 1500, 500);
        assert_eq!(&whole[1500..], &tail[..]);
    }
}
