//! Rollouts: a position played out many times by a policy on both sides, GNU Backgammon style
//! (to the end of the game unless truncated), cubeless or, with a [`RolloutCube`], cubeful.
//!
//! * Trial `i` of seed `s` draws its dice (and any random choices of the policy) from
//!   [`DiceStream::new(s, i)`](crate::DiceStream::new), and its first two rolls from a
//!   quasi-random schedule (see [`RolloutOptions::quasi_random`]). Its result depends on nothing
//!   else, so the result is the same at any thread count, and runs over consecutive trial ranges
//!   [`merge`] into exactly the result of one run.
//! * Results are from the view of the player on roll in the start position, who is about to roll.
//!   [`Start::Opening`] rolls out the position before the opening roll: see there.
//! * With a policy that has an evaluator, games can be truncated after some plies (the evaluator's
//!   probabilities stand in for the rest of the game), and the luck of every roll can be
//!   subtracted (variance reduction): the evaluator's value after the best play of the roll
//!   thrown minus its mean over all 36 outcomes.
//!
//! ```
//! use gammon_core::pip_race::{Counts, PipRace};
//! use gammon_core::rollout::{rollout_game, RolloutOptions, Start};
//! use gammon_core::RandomPolicy;
//! let options = RolloutOptions { trials: 72, seed: 7, ..RolloutOptions::default() };
//! let start = Start::Position(Counts { to_roll: 40, other: 45 });
//! let r = rollout_game(&PipRace, start, &RandomPolicy, &options, None).unwrap();
//! assert_eq!(r.trials, 72);
//! assert!(r.probabilities.win >= r.probabilities.win_gammon);
//! ```

pub mod cube;
mod driver;
mod plays;
mod schedule;
mod stats;
mod trial;

pub use cube::{CubeTurn, CubeValue, NoCube, RolloutCube};
pub use driver::{max_threads, rollout_game, rollout_game_cubeful, CubeLines, Progress, MAX_THREADS_FLOOR};
pub use plays::{rollout_game_plays, rollout_game_plays_cubeful, PlayRollout};
pub use schedule::OPENING_OUTCOMES;
pub use stats::{
    merge, CubeKind, Moments, RolloutResult, RolloutSums, CUBEFUL_BOUND, CUBELESS_VALUES, SCALE, VALUES,
};

use crate::error::{Error, Result};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// Where the trials start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start<P> {
    /// This position, seen from the player about to roll; the result is from that player's view.
    Position(P),
    /// This position before the opening roll. Each side rolls one die; the higher die moves first
    /// and plays both dice (never a double: 30 equally likely outcomes, half won by each side).
    /// The result is from the view of the side the position is seen from, whether or not that
    /// side wins the opening roll; from the symmetric starting position the equity is 0.
    Opening(P),
}

/// How to run a rollout.
#[derive(Clone, Debug)]
pub struct RolloutOptions {
    /// Trials to run (at most; fewer if stopped early or cancelled), 1 to [`MAX_TRIALS`].
    /// Default 1296.
    pub trials: u64,
    /// Index of the first trial, so that a rollout can be split in parts: trials
    /// `first_trial .. first_trial + trials` of the seed. Default 0.
    pub first_trial: u64,
    /// Seed of the dice. Default 0.
    pub seed: u64,
    /// Worker threads, 1 to [`max_threads`]; `None` uses every core (rayon's global pool). The
    /// result does not depend on it.
    pub threads: Option<usize>,
    /// Stop each game after this many plies and use the evaluator's probabilities; needs a policy
    /// with an evaluator. Default `None` (play to the end).
    pub truncate: Option<u32>,
    /// Subtract the luck of each roll when the policy has an evaluator. Default true.
    pub variance_reduction: bool,
    /// Quasi-random first two rolls: every block of 36 trials (30 for an opening) uses each first
    /// roll once, and every block of 1296 (1080) each pair of first and second rolls once, in a
    /// seeded order. Default true.
    pub quasi_random: bool,
    /// Stop once the standard error of the equity (the cubeful one in a cubeful rollout) is below
    /// this bound. It is checked only after a whole block of 36 trials (30 for an opening) so the
    /// stopping point is reproducible.
    pub max_std_error: Option<f64>,
    /// Trials to run at least before stopping on `max_std_error`. Default 324.
    pub min_trials: u64,
    /// Set this flag (from any thread) to stop soon; the result then covers the trials completed
    /// from `first_trial` on without a gap, and says `cancelled`.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for RolloutOptions {
    fn default() -> Self {
        RolloutOptions {
            trials: 1296,
            first_trial: 0,
            seed: 0,
            threads: None,
            truncate: None,
            variance_reduction: true,
            quasi_random: true,
            max_std_error: None,
            min_trials: 324,
            cancel: None,
        }
    }
}

/// Most trials one rollout runs: 2^30, about a billion, which takes days at the speed of the
/// neural-net policy on a desktop machine. Larger jobs are split with `first_trial` and merged.
pub const MAX_TRIALS: u64 = 1 << 30;

/// End of the trial numbering: `first_trial + trials` is at most 2^60, which also keeps the
/// 128-bit sums of any merge of trials far from overflowing.
pub const MAX_TRIAL_INDEX: u64 = 1 << 60;

impl RolloutOptions {
    pub(crate) fn validate(&self) -> Result<()> {
        if self.trials == 0 {
            return Err(Error::InvalidArgument("trials must be at least 1".into()));
        }
        if self.trials > MAX_TRIALS {
            return Err(Error::InvalidArgument(format!(
                "trials={} is more than one rollout runs (at most 2^30 = {MAX_TRIALS}); split it \
                 into parts with first_trial and merge them",
                self.trials
            )));
        }
        if self.first_trial.checked_add(self.trials).is_none_or(|end| end > MAX_TRIAL_INDEX) {
            return Err(Error::InvalidArgument(format!(
                "first_trial={} with trials={} goes beyond trial 2^60",
                self.first_trial, self.trials
            )));
        }
        if self.min_trials > MAX_TRIALS {
            return Err(Error::InvalidArgument(format!(
                "min_trials={} is more than {MAX_TRIALS}",
                self.min_trials
            )));
        }
        driver::check_threads(self.threads)?;
        if let Some(bound) = self.max_std_error {
            if !(bound > 0.0 && bound.is_finite()) {
                return Err(Error::InvalidArgument(format!(
                    "max_std_error must be a positive number, got {bound}"
                )));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(options: RolloutOptions, name: &str) {
        let message = options.validate().unwrap_err().to_string();
        assert!(message.contains(name), "{message}");
    }

    #[test]
    fn every_size_is_bounded() {
        let base = RolloutOptions::default;
        base().validate().unwrap();
        RolloutOptions { trials: MAX_TRIALS, threads: Some(max_threads()), ..base() }.validate().unwrap();
        refused(RolloutOptions { trials: 0, ..base() }, "trials");
        refused(RolloutOptions { trials: MAX_TRIALS + 1, ..base() }, "trials=");
        refused(RolloutOptions { trials: 1 << 32, ..base() }, "trials=");
        refused(RolloutOptions { first_trial: u64::MAX, ..base() }, "first_trial=");
        refused(RolloutOptions { threads: Some(0), ..base() }, "threads");
        refused(RolloutOptions { threads: Some(100_000), ..base() }, "threads=100000");
        refused(RolloutOptions { threads: Some(1 << 40), ..base() }, "threads=");
        refused(RolloutOptions { min_trials: u64::MAX, ..base() }, "min_trials=");
        assert!(max_threads() >= MAX_THREADS_FLOOR);
        assert!(driver::Threads::new(Some(100_000)).is_err());
    }
}
