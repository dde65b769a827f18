//! Exact running sums over trials, and the estimates and standard errors they give.
//!
//! Each trial's values (five probabilities, the equity and the draw, and for a cubeful rollout
//! the cubeful equity, the match winning chance, and in a cube-decision rollout the second
//! cube line and its difference from the first) are rounded once to fixed point (2^-32) and
//! summed, with their squares, in 128-bit integers. Integer sums do not depend on the order of
//! addition, so any split of the trials over threads, batches or machines adds up to the same
//! bits.

use crate::error::{Error, Result};
use crate::Probabilities;

/// Fixed-point scale of one trial value: 2^32 units per point of equity.
pub const SCALE: i64 = 1 << 32;

/// Rounds a trial value to fixed point.
#[inline]
pub(crate) fn quantize(x: f64) -> i64 {
    (x * SCALE as f64).round() as i64
}

/// Index of the equity among the values; 0..5 are the probabilities in
/// [`Probabilities::to_array`] order.
pub(crate) const EQUITY: usize = 5;
/// Index of the draw among the values: after the equity, so that the first six keep their
/// places whether or not the game can draw.
pub(crate) const DRAW: usize = 6;
/// Index of the cubeful equity (zero in a cubeless rollout; in a cube-decision rollout, the
/// equity of not doubling).
pub(crate) const CUBEFUL: usize = 7;
/// Index of the match winning chance (zero unless the cubeful rollout is of a match).
pub(crate) const MWC: usize = 8;
/// Index of the second cube line's cubeful equity (a cube-decision rollout's "double, take").
pub(crate) const CUBEFUL_TAKEN: usize = 9;
/// Index of the second line minus the first, trial by trial: the standard error of the gain
/// from doubling comes from these sums, which keep the two lines' correlation.
pub(crate) const TAKEN_GAIN: usize = 10;
/// How many values a trial gives.
pub const VALUES: usize = 11;
/// How many values a rollout result pickled before cubeful rollouts existed holds: the first
/// seven, the others being zero in a cubeless rollout.
pub const CUBELESS_VALUES: usize = 7;
/// The values' names, in order, for messages.
const NAMES: [&str; VALUES] = [
    "win",
    "win_gammon",
    "win_backgammon",
    "lose_gammon",
    "lose_backgammon",
    "equity",
    "draw",
    "cubeful_equity",
    "mwc",
    "double_take",
    "double_take - no_double",
];
/// The widest cubeful equity a trial can give, in units of the starting cube: a backgammon
/// on the highest cube there is. (Match equities, normalised to the starting stake, stay far
/// within it.)
pub const CUBEFUL_BOUND: i128 = 3 << 15;
/// The range of each game result, in points: probabilities in 0..1, the equity in -3..3.
const RANGES: [(i128, i128); VALUES] = [
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (0, 1),
    (-3, 3),
    (0, 1),
    (-CUBEFUL_BOUND, CUBEFUL_BOUND),
    (0, 1),
    (-2 * CUBEFUL_BOUND, 2 * CUBEFUL_BOUND),
    (-4 * CUBEFUL_BOUND, 4 * CUBEFUL_BOUND),
];

/// A trial's values in fixed point: the five probabilities, the equity and the draw; the cube
/// values are left at zero for [`with_cube`] to fill.
#[inline]
pub(crate) fn fixed(p: &Probabilities) -> [i64; VALUES] {
    let a = p.to_array();
    [
        quantize(a[0]),
        quantize(a[1]),
        quantize(a[2]),
        quantize(a[3]),
        quantize(a[4]),
        quantize(p.equity()),
        quantize(p.draw),
        0,
        0,
        0,
        0,
    ]
}

/// Fills a trial's cube values: the first line's cubeful equity and match winning chance, and
/// the second line's equity when there is one (its difference from the first computed in
/// fixed point, so the sums of differences are exactly the differences of sums).
#[inline]
pub(crate) fn with_cube(values: &mut [i64; VALUES], first: (f64, f64), second: Option<f64>) {
    values[CUBEFUL] = quantize(first.0);
    values[MWC] = quantize(first.1);
    if let Some(taken) = second {
        values[CUBEFUL_TAKEN] = quantize(taken);
        values[TAKEN_GAIN] = values[CUBEFUL_TAKEN] - values[CUBEFUL];
    }
}

/// Sums over trials of the fixed-point values (win, win_gammon, win_backgammon, lose_gammon,
/// lose_backgammon, equity, draw, cubeful equity, match winning chance, the second cube line's
/// equity and its gain over the first) and of their squares (in units of `SCALE` and
/// `SCALE²`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Moments {
    /// Σ value, in units of 2^-32.
    pub sum: [i128; VALUES],
    /// Σ value², in units of 2^-64.
    pub sum_sq: [i128; VALUES],
}

impl Moments {
    #[inline]
    pub(crate) fn add(&mut self, values: &[i64; VALUES]) {
        for (k, &v) in values.iter().enumerate() {
            self.sum[k] += v as i128;
            self.sum_sq[k] += v as i128 * v as i128;
        }
    }

    /// The sums of both sets of trials, or `None` if one overflows.
    fn merged(&self, other: &Moments) -> Option<Moments> {
        let mut m = *self;
        for k in 0..VALUES {
            m.sum[k] = self.sum[k].checked_add(other.sum[k])?;
            m.sum_sq[k] = self.sum_sq[k].checked_add(other.sum_sq[k])?;
        }
        Some(m)
    }

    /// Checks that these can be the sums of `n` trials: every sum of squares at least 0 and at
    /// least (Σx)²/n, and, when `ranges` are given, every value within its range (in points):
    /// then Σx lies in `n·lo ..= n·hi` and Σx² at most `n·max(lo², hi²)`.
    fn check(&self, n: u64, ranges: Option<&[(i128, i128); VALUES]>, what: &str) -> Result<()> {
        let s = SCALE as i128;
        let n = n as i128;
        for k in 0..VALUES {
            let (sum, sum_sq) = (self.sum[k], self.sum_sq[k]);
            let bad = |why: &str| {
                Error::InvalidArgument(format!("{what} sums of {} are impossible: {why}", NAMES[k]))
            };
            if sum_sq < 0 {
                return Err(bad("a negative sum of squares"));
            }
            // Room for the standard error's arithmetic, which works with multiples of Σx².
            if sum_sq > i128::MAX / 4 {
                return Err(bad("the sum of squares is too large"));
            }
            if n == 0 && (sum != 0 || sum_sq != 0) {
                return Err(bad("not zero over no trials"));
            }
            // (Σx)² <= n·Σx² (Cauchy-Schwarz), compared without overflow: |Σx| <= sqrt(n·Σx²).
            let fits = match n.checked_mul(sum_sq) {
                Some(bound) => sum.checked_mul(sum).is_some_and(|sq| sq <= bound),
                None => true,
            };
            if !fits {
                return Err(bad("the sum of squares is smaller than the square of the sum over trials"));
            }
            if let Some(ranges) = ranges {
                let (lo, hi) = ranges[k];
                let (lo, hi) = (n * lo * s, n * hi * s);
                if sum < lo || sum > hi {
                    return Err(bad("the mean is outside its range"));
                }
                // n·M² for the largest magnitude M of a value; beyond i128 nothing is too large.
                let widest = lo.abs().max(hi.abs());
                let top = (widest / n.max(1)).checked_mul(widest);
                if top.is_some_and(|top| sum_sq > top) {
                    return Err(bad("the sum of squares is too large for values in range"));
                }
            }
        }
        Ok(())
    }

    /// The sums of the same `n` trials seen by the other side: win -> 1 - win, gammons and
    /// backgammons trade places, equity changes sign, draws stay. Exact in fixed point.
    fn flipped(&self, n: u64, mwc: bool) -> Moments {
        let s = SCALE as i128;
        let n = n as i128;
        let mut m = *self;
        m.sum[0] = n * s - self.sum[0];
        m.sum_sq[0] = n * s * s - 2 * s * self.sum[0] + self.sum_sq[0];
        for (a, b) in [(1, 3), (2, 4)] {
            m.sum.swap(a, b);
            m.sum_sq.swap(a, b);
        }
        for k in [EQUITY, CUBEFUL, CUBEFUL_TAKEN, TAKEN_GAIN] {
            m.sum[k] = -self.sum[k];
        }
        // A match winning chance turns into its complement; a rollout without one keeps zeros.
        if mwc {
            m.sum[MWC] = n * s - self.sum[MWC];
            m.sum_sq[MWC] = n * s * s - 2 * s * self.sum[MWC] + self.sum_sq[MWC];
        }
        m
    }

    /// Mean of value `k` over `n` trials.
    fn mean(&self, k: usize, n: u64) -> f64 {
        if n == 0 {
            return 0.0;
        }
        self.sum[k] as f64 / SCALE as f64 / n as f64
    }

    /// Standard error of the mean of value `k` over `n` trials (sample variance with n - 1).
    fn std_error(&self, k: usize, n: u64) -> f64 {
        if n < 2 {
            return 0.0;
        }
        let n128 = n as i128;
        // Centre on the integer part of the mean so that the sum of squares stays exact and small
        // (no cancellation between two huge numbers): Σ(x - q)² = Σx² - 2qΣx + nq².
        let q = self.sum[k].div_euclid(n128);
        let r = self.sum[k].rem_euclid(n128);
        let centred = self.sum_sq[k] - 2 * q * self.sum[k] + n128 * q * q;
        let spread = centred as f64 - (r as f64) * (r as f64) / n as f64;
        let variance = spread.max(0.0) / (SCALE as f64 * SCALE as f64) / (n - 1) as f64;
        (variance / n as f64).sqrt()
    }
}

/// Everything a rollout has accumulated: the trial count and the sums of the plain results
/// and of the luck-adjusted ones (equal to the plain ones without variance reduction).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct RolloutSums {
    /// Trials summed.
    pub trials: u64,
    /// Sums of the game results (or of the evaluator's value at truncation).
    pub plain: Moments,
    /// Sums of the results minus the luck of the dice.
    pub reduced: Moments,
}

impl RolloutSums {
    #[inline]
    pub(crate) fn add(&mut self, plain: &[i64; VALUES], reduced: &[i64; VALUES]) {
        self.trials += 1;
        self.plain.add(plain);
        self.reduced.add(reduced);
    }

    /// Adds another set of trials; an error, leaving `self` as it was, if the trial count goes
    /// beyond 2^60 or a sum overflows.
    pub fn merge(&mut self, other: &RolloutSums) -> Result<()> {
        let overflow =
            |what: &str| Error::InvalidArgument(format!("merging rollout results overflows the {what}"));
        let trials = self
            .trials
            .checked_add(other.trials)
            .filter(|&t| t <= super::MAX_TRIAL_INDEX)
            .ok_or_else(|| overflow("trial count (at most 2^60)"))?;
        let plain = self.plain.merged(&other.plain).ok_or_else(|| overflow("sums of the results"))?;
        let reduced = self.reduced.merged(&other.reduced).ok_or_else(|| overflow("luck-adjusted sums"))?;
        *self = RolloutSums { trials, plain, reduced };
        Ok(())
    }

    /// Checks that these can be the sums of real trials (for sums read from elsewhere, such as a
    /// pickle): at most 2^60 trials, each plain mean within its range (probabilities 0..1, the
    /// equity -3..3) with sums of squares that values in range can give, and luck-adjusted sums
    /// whose sums of squares are consistent with their sums.
    pub fn validate(&self) -> Result<()> {
        if self.trials > super::MAX_TRIAL_INDEX {
            return Err(Error::InvalidArgument(format!("trials={} is more than 2^60", self.trials)));
        }
        self.plain.check(self.trials, Some(&RANGES), "the")?;
        self.reduced.check(self.trials, None, "the luck-adjusted")
    }

    /// The same trials seen by the other side; `mwc` says whether they hold match winning
    /// chances (a match-play cubeful rollout), which turn into their complements.
    pub fn flipped(&self, mwc: bool) -> RolloutSums {
        RolloutSums {
            trials: self.trials,
            plain: self.plain.flipped(self.trials, mwc),
            reduced: self.reduced.flipped(self.trials, mwc),
        }
    }

    /// The sums with the luck removed (`reduced`) or plain.
    fn moments(&self, reduced: bool) -> &Moments {
        if reduced {
            &self.reduced
        } else {
            &self.plain
        }
    }

    /// Standard error of the mean of value `k`, with the luck removed when `reduced`.
    fn std_error_of(&self, k: usize, reduced: bool) -> f64 {
        self.moments(reduced).std_error(k, self.trials)
    }

    /// Mean of value `k`, with the luck removed when `reduced`.
    fn mean_of(&self, k: usize, reduced: bool) -> f64 {
        self.moments(reduced).mean(k, self.trials)
    }

    /// Standard error of the equity that the rollout of kind `cube` reports first: the cubeful
    /// one (of not doubling, in a cube-decision rollout) when the cube is played, else the
    /// cubeless one (luck-adjusted when `reduced`).
    pub(crate) fn equity_std_error(&self, reduced: bool, cube: CubeKind) -> f64 {
        self.std_error_of(if cube == CubeKind::None { EQUITY } else { CUBEFUL }, reduced)
    }
}

/// The outcome of a rollout, seen from the player on roll in the rolled-out position (or, for the
/// opening, from the side whose position it is; see [`crate::rollout::Start::Opening`]).
#[derive(Clone, Debug, PartialEq)]
pub struct RolloutResult {
    /// Mean cumulative probabilities.
    pub probabilities: Probabilities,
    /// Mean cubeless equity.
    pub equity: f64,
    /// Standard error of each probability.
    pub std_errors: Probabilities,
    /// Standard error of the equity.
    pub std_error: f64,
    /// Standard error of the equity without variance reduction (equal to `std_error`
    /// when it was not applied).
    pub plain_std_error: f64,
    /// Whether the luck of the dice was subtracted. False when it was not asked for, or when the
    /// policy has no evaluator to measure luck with.
    pub variance_reduction: bool,
    /// First trial index of the run.
    pub first_trial: u64,
    /// Trials done: trials `first_trial .. first_trial + trials` of `seed`.
    pub trials: u64,
    /// The seed of the dice.
    pub seed: u64,
    /// Wall-clock time spent.
    pub seconds: f64,
    /// True if the run was cancelled before all requested trials were done.
    pub cancelled: bool,
    /// True if the run stopped early because the equity's standard error fell below the bound.
    pub converged: bool,
    /// What was rolled out and how (policy, start, truncation, variance reduction); only results
    /// with the same setup and seed merge.
    pub setup: String,
    /// The exact sums behind the estimates, for merging.
    pub sums: RolloutSums,
    /// Whether the cube was played, and for what stake: decides which cubeful figures the sums
    /// hold.
    pub cube: CubeKind,
}

/// What a rollout's cube figures mean.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum CubeKind {
    /// A cubeless rollout: no cubeful figures.
    #[default]
    None,
    /// Money play: a cubeful equity per unit of the starting cube.
    Money,
    /// Match play: a cubeful equity normalised to the starting stake (equivalent to money) and
    /// the match winning chance.
    Match,
    /// A cube-decision rollout in money play: two lines, "no double" and "double, take".
    MoneyDecision,
    /// A cube-decision rollout in match play.
    MatchDecision,
}

impl CubeKind {
    /// The sums hold a match winning chance.
    pub fn has_mwc(self) -> bool {
        matches!(self, CubeKind::Match | CubeKind::MatchDecision)
    }

    /// The sums hold a second cube line ("double, take").
    pub fn is_decision(self) -> bool {
        matches!(self, CubeKind::MoneyDecision | CubeKind::MatchDecision)
    }

    /// A name for pickles and reports.
    pub fn name(self) -> &'static str {
        match self {
            CubeKind::None => "cubeless",
            CubeKind::Money => "money",
            CubeKind::Match => "match",
            CubeKind::MoneyDecision => "money decision",
            CubeKind::MatchDecision => "match decision",
        }
    }

    /// The kind called `name` by [`CubeKind::name`].
    pub fn from_name(name: &str) -> Result<CubeKind> {
        [CubeKind::None, CubeKind::Money, CubeKind::Match, CubeKind::MoneyDecision, CubeKind::MatchDecision]
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| Error::InvalidArgument(format!("unknown kind of cubeful rollout {name:?}")))
    }
}

impl RolloutResult {
    /// The estimates behind `sums` (for instance sums sent from another process), reported with
    /// the luck removed when `variance_reduction`. Timing, flags and `setup` are left empty.
    pub fn from_sums(sums: RolloutSums, variance_reduction: bool, seed: u64, first_trial: u64) -> Self {
        let n = sums.trials;
        let m = if variance_reduction { &sums.reduced } else { &sums.plain };
        let means: [f64; 5] = std::array::from_fn(|k| m.mean(k, n));
        let errors: [f64; 5] = std::array::from_fn(|k| m.std_error(k, n));
        RolloutResult {
            probabilities: Probabilities { draw: m.mean(DRAW, n), ..Probabilities::from_array(means) },
            equity: m.mean(EQUITY, n),
            std_errors: Probabilities { draw: m.std_error(DRAW, n), ..Probabilities::from_array(errors) },
            std_error: m.std_error(EQUITY, n),
            plain_std_error: sums.plain.std_error(EQUITY, n),
            variance_reduction,
            first_trial,
            trials: n,
            seed,
            seconds: 0.0,
            cancelled: false,
            converged: false,
            setup: String::new(),
            sums,
            cube: CubeKind::None,
        }
    }

    /// The same result read as a rollout of kind `cube`.
    pub fn with_cube(mut self, cube: CubeKind) -> Self {
        self.cube = cube;
        self
    }

    /// Mean cubeful equity of the player on roll (of not doubling, in a cube-decision
    /// rollout): per unit of the starting cube in money play, normalised to the starting stake
    /// in match play (equivalent to money). `None` for a cubeless rollout. With variance
    /// reduction, the luck of the rolls as the cube player measures it
    /// ([`RolloutCube::roll_values`](super::cube::RolloutCube::roll_values)) is removed.
    pub fn cubeful_equity(&self) -> Option<f64> {
        (self.cube != CubeKind::None).then(|| self.sums.mean_of(CUBEFUL, self.variance_reduction))
    }

    /// Standard error of [`RolloutResult::cubeful_equity`].
    pub fn cubeful_std_error(&self) -> Option<f64> {
        (self.cube != CubeKind::None).then(|| self.sums.std_error_of(CUBEFUL, self.variance_reduction))
    }

    /// Mean match winning chance of the player on roll; `None` unless the rollout is of a match.
    pub fn mwc(&self) -> Option<f64> {
        self.cube.has_mwc().then(|| self.sums.mean_of(MWC, self.variance_reduction))
    }

    /// Standard error of [`RolloutResult::mwc`].
    pub fn mwc_std_error(&self) -> Option<f64> {
        self.cube.has_mwc().then(|| self.sums.std_error_of(MWC, self.variance_reduction))
    }

    /// In a cube-decision rollout, the mean equity after "double, take" (normalised as
    /// [`RolloutResult::cubeful_equity`]), its standard error, and the standard error of its
    /// difference from not doubling (paired trial by trial).
    pub fn double_take(&self) -> Option<(f64, f64, f64)> {
        self.cube.is_decision().then(|| {
            (
                self.sums.mean_of(CUBEFUL_TAKEN, self.variance_reduction),
                self.sums.std_error_of(CUBEFUL_TAKEN, self.variance_reduction),
                self.sums.std_error_of(TAKEN_GAIN, self.variance_reduction),
            )
        })
    }

    /// The same result seen by the other player: the rollout of the position after a play,
    /// turned back to the side that made it.
    pub fn flipped(&self) -> RolloutResult {
        let mut r = RolloutResult::from_sums(
            self.sums.flipped(self.cube.has_mwc()),
            self.variance_reduction,
            self.seed,
            self.first_trial,
        )
        .with_cube(self.cube);
        r.seconds = self.seconds;
        r.cancelled = self.cancelled;
        r.converged = self.converged;
        r.setup = format!("{} seen by the other side", self.setup);
        r
    }

    /// True if both hold the same trials and the same sums (timing aside).
    pub fn same_trials(&self, other: &RolloutResult) -> bool {
        self.sums == other.sums
            && self.seed == other.seed
            && self.first_trial == other.first_trial
            && self.setup == other.setup
            && self.variance_reduction == other.variance_reduction
            && self.cube == other.cube
    }
}

/// Combines rollouts of consecutive trial ranges of one seed and setup into exactly the result a
/// single run over all of them gives (only `seconds`, the sum of the parts, differs).
///
/// ```
/// use gammon_core::pip_race::{Counts, PipRace};
/// use gammon_core::rollout::{merge, rollout_game, RolloutOptions, Start};
/// use gammon_core::RandomPolicy;
/// let p = Start::Position(Counts { to_roll: 40, other: 45 });
/// let opts = |first, trials| RolloutOptions { first_trial: first, trials, ..RolloutOptions::default() };
/// let rollout = |o: &RolloutOptions| rollout_game(&PipRace, p, &RandomPolicy, o, None);
/// let a = rollout(&opts(0, 40)).unwrap();
/// let b = rollout(&opts(40, 32)).unwrap();
/// let whole = rollout(&opts(0, 72)).unwrap();
/// assert!(merge(&[b, a]).unwrap().same_trials(&whole));
/// ```
pub fn merge(results: &[RolloutResult]) -> Result<RolloutResult> {
    let Some(first) = results.first() else {
        return Err(Error::InvalidArgument("merge needs at least one rollout result".into()));
    };
    let mut parts: Vec<&RolloutResult> = results.iter().collect();
    parts.sort_by_key(|r| r.first_trial);
    let mut sums = RolloutSums::default();
    let mut next = parts[0].first_trial;
    let mut seconds = 0.0;
    for r in &parts {
        if r.seed != first.seed
            || r.setup != first.setup
            || r.variance_reduction != first.variance_reduction
            || r.cube != first.cube
        {
            return Err(Error::InvalidArgument(format!(
                "cannot merge rollouts of different seeds or setups: seed {} {:?} and seed {} {:?}",
                first.seed, first.setup, r.seed, r.setup
            )));
        }
        if r.first_trial != next {
            return Err(Error::InvalidArgument(format!(
                "rollout parts must cover consecutive trials: expected one starting at trial {next}, \
                 got one starting at {}",
                r.first_trial
            )));
        }
        next = r.first_trial.checked_add(r.trials).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "rollout part starting at trial {} with {} trials goes beyond 2^64",
                r.first_trial, r.trials
            ))
        })?;
        r.sums.validate()?;
        sums.merge(&r.sums)?;
        seconds += r.seconds;
    }
    let mut merged =
        RolloutResult::from_sums(sums, first.variance_reduction, first.seed, parts[0].first_trial)
            .with_cube(first.cube);
    merged.seconds = seconds;
    merged.cancelled = parts.iter().any(|r| r.cancelled);
    merged.setup = first.setup.clone();
    Ok(merged)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn values(p: Probabilities) -> [i64; VALUES] {
        fixed(&p)
    }

    #[test]
    fn flipping_sums_equals_summing_flipped_trials() {
        let trials = [3i8, -1, 1, 2, -2, -3, 1, 0];
        let (mut direct, mut mirrored) = (RolloutSums::default(), RolloutSums::default());
        for &t in &trials {
            let v = values(Probabilities::from_points(t));
            direct.add(&v, &v);
            let w = values(Probabilities::from_points(-t));
            mirrored.add(&w, &w);
        }
        assert_eq!(direct.flipped(false), mirrored);
    }

    #[test]
    fn standard_error_of_known_samples() {
        // Equity samples 1, -1, 1, -1: mean 0, sample variance 4/3, standard error sqrt(1/3).
        let mut s = RolloutSums::default();
        for t in [1i8, -1, 1, -1] {
            let v = values(Probabilities::from_points(t));
            s.add(&v, &v);
        }
        let r = RolloutResult::from_sums(s, false, 0, 0);
        assert_eq!(r.equity, 0.0);
        assert!((r.std_error - (1.0f64 / 3.0).sqrt()).abs() < 1e-12);
        assert_eq!(r.probabilities.win, 0.5);
    }

    fn real_sums() -> RolloutSums {
        let mut s = RolloutSums::default();
        for t in [1i8, -2, 3, -1, 1, 2] {
            let v = values(Probabilities::from_points(t));
            s.add(&v, &v);
        }
        s
    }

    #[test]
    fn real_sums_are_valid() {
        real_sums().validate().unwrap();
        real_sums().flipped(false).validate().unwrap();
        RolloutSums::default().validate().unwrap();
    }

    #[test]
    fn impossible_sums_are_refused() {
        let s = SCALE as i128;
        let error = |sums: RolloutSums| sums.validate().unwrap_err().to_string();
        let mut win = real_sums();
        win.plain.sum[0] = (5.83 * 6.0 * s as f64) as i128;
        assert!(error(win).contains("win"), "{}", error(win));
        let mut many = real_sums();
        many.trials = u64::MAX;
        assert!(error(many).contains("trials"));
        let mut squares = real_sums();
        squares.reduced.sum_sq[EQUITY] = 1;
        assert!(error(squares).contains("equity"));
        let mut negative = real_sums();
        negative.plain.sum_sq[DRAW] = -1;
        assert!(error(negative).contains("draw"));
        let mut wide = real_sums();
        wide.plain.sum_sq[EQUITY] = 10 * 6 * s * s;
        assert!(error(wide).contains("equity"));
        let mut huge = real_sums();
        huge.reduced.sum_sq[1] = i128::MAX;
        assert!(error(huge).contains("win_gammon"));
    }

    #[test]
    fn merging_overflow_is_an_error() {
        let mut big = real_sums();
        big.reduced.sum_sq[EQUITY] = i128::MAX - 1;
        let mut sums = big;
        let err = sums.merge(&big).unwrap_err().to_string();
        assert!(err.contains("overflows"), "{err}");
        assert_eq!(sums, big, "a failed merge leaves the sums as they were");
        let mut count = real_sums();
        count.trials = 1 << 60;
        assert!(count.merge(&real_sums()).is_err());
        let mut both = real_sums();
        both.merge(&real_sums()).unwrap();
        assert_eq!(both.trials, 12);
    }

    #[test]
    fn merge_refuses_crafted_parts() {
        let part = |first_trial, sums| RolloutResult::from_sums(sums, true, 0, first_trial);
        let mut bad = real_sums();
        bad.plain.sum[0] = -1;
        assert!(merge(&[part(0, real_sums()), part(6, bad)]).is_err());
        let mut end = real_sums();
        end.trials = u64::MAX;
        assert!(merge(&[part(u64::MAX - 2, end)]).is_err());
        assert_eq!(merge(&[part(6, real_sums()), part(0, real_sums())]).unwrap().trials, 12);
    }
}
