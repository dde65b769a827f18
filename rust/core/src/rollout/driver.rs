//! The rollout driver: trials in batches over threads, folded in trial order, with early stopping,
//! cancellation and progress reports between batches.

use super::cube::{CubeValue, Line, Lines, NoCube, RolloutCube};
use super::stats::{CubeKind, RolloutResult, RolloutSums};
use super::trial::{early_plies, Setup, TrialValues, Worker};
use super::{RolloutOptions, Start};
use crate::dice_game::DiceGame;
use crate::error::{Error, Result};
use crate::Policy;
use rayon::prelude::*;
use std::fmt::Debug;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Largest batch of trials held in memory at once.
const MAX_BATCH: u64 = 1 << 14;
/// Batches grow until one takes about this long, so progress and cancellation stay responsive.
const BATCH_TIME: Duration = Duration::from_millis(100);

/// A callback receiving the running result after each batch, on the calling thread.
pub type Progress<'a> = &'a mut dyn FnMut(&RolloutResult);

/// The fewest threads [`max_threads`] allows, however few cores the machine has.
pub const MAX_THREADS_FLOOR: usize = 256;

/// Most worker threads a rollout starts: 4 per core, and at least [`MAX_THREADS_FLOOR`]. More
/// gain nothing, and a pool of a huge number of OS threads takes long to start and exhausts the
/// machine.
pub fn max_threads() -> usize {
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    cores.saturating_mul(4).max(MAX_THREADS_FLOOR)
}

/// Checks a `threads` argument: `None`, or 1 to [`max_threads`].
pub(crate) fn check_threads(threads: Option<usize>) -> Result<()> {
    match threads {
        Some(0) => Err(Error::InvalidArgument("threads must be at least 1 (or None for every core)".into())),
        Some(n) if n > max_threads() => Err(Error::InvalidArgument(format!(
            "threads={n} is more than {} (4 per core, at least {MAX_THREADS_FLOOR})",
            max_threads()
        ))),
        _ => Ok(()),
    }
}

/// Where the trials run.
pub(crate) enum Threads {
    Here,
    Pool(std::sync::Arc<rayon::ThreadPool>),
    Global,
}

impl Threads {
    pub(crate) fn new(threads: Option<usize>) -> Result<Threads> {
        check_threads(threads)?;
        match threads {
            Some(1) => Ok(Threads::Here),
            Some(n) => crate::threads::pool(n).map(Threads::Pool),
            None if rayon::current_num_threads() == 1 => Ok(Threads::Here),
            None => Ok(Threads::Global),
        }
    }

    fn count(&self) -> usize {
        match self {
            Threads::Here => 1,
            Threads::Pool(p) => p.current_num_threads(),
            Threads::Global => rayon::current_num_threads(),
        }
    }
}

/// Rolls out `start` in any [`DiceGame`] with `policy` playing both sides; see
/// [`crate::rollout`] for what is reported and how trials are numbered.
pub fn rollout_game<G, P>(
    game: &G,
    start: Start<G::Position>,
    policy: &P,
    options: &RolloutOptions,
    progress: Option<Progress<'_>>,
) -> Result<RolloutResult>
where
    G: DiceGame,
    G::Position: Debug,
    P: Policy<G>,
{
    options.validate()?;
    let threads = Threads::new(options.threads)?;
    run(&threads, game, start, policy, None::<(&NoCube, CubeLines)>, options, progress)
}

/// Which cube lines a cubeful rollout follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CubeLines {
    /// One line: the cube played from the start state, the player on roll deciding at once.
    Cubeful,
    /// Two lines over the same games and dice: "no double" (the player on roll does not double
    /// before the first roll) and "double, take" (from the cube's `start_taken` state).
    Decision,
}

/// [`rollout_game`] with the cube: `cube` decides every double, take and pass along each of
/// `lines`, and the result carries cubeful figures besides the cubeless ones (see
/// [`super::cube`]). An error for [`CubeLines::Decision`] where the player on roll may not
/// double.
pub fn rollout_game_cubeful<G, P, C>(
    game: &G,
    start: Start<G::Position>,
    policy: &P,
    cube: &C,
    lines: CubeLines,
    options: &RolloutOptions,
    progress: Option<Progress<'_>>,
) -> Result<RolloutResult>
where
    G: DiceGame,
    G::Position: Debug,
    P: Policy<G>,
    C: RolloutCube<G::Position>,
{
    options.validate()?;
    let threads = Threads::new(options.threads)?;
    run(&threads, game, start, policy, Some((cube, lines)), options, progress)
}

/// The starting lines of a cubeful rollout.
fn start_lines<P, C: RolloutCube<P>>(cube: &C, lines: CubeLines) -> Result<Lines<C::State>> {
    let line = |state, decided| Some(Line { state, ended: None, decided, luck: CubeValue::default() });
    Ok(match lines {
        CubeLines::Cubeful => [line(cube.start(), false), None],
        CubeLines::Decision => {
            let taken = cube.start_taken().ok_or_else(|| {
                Error::IllegalAction(format!(
                    "the player on roll may not double here ({}), so there is no cube decision to roll out",
                    cube.describe()
                ))
            })?;
            [line(cube.start(), true), line(taken, false)]
        }
    })
}

/// [`rollout_game`] on threads already started (so that a series of rollouts shares them), with
/// the cube when `cube` is given.
pub(crate) fn run<G, P, C>(
    threads: &Threads,
    game: &G,
    start: Start<G::Position>,
    policy: &P,
    cube: Option<(&C, CubeLines)>,
    options: &RolloutOptions,
    mut progress: Option<Progress<'_>>,
) -> Result<RolloutResult>
where
    G: DiceGame,
    G::Position: Debug,
    P: Policy<G>,
    C: RolloutCube<G::Position>,
{
    let clock = Instant::now();
    let evaluator = policy.evaluator();
    if options.truncate.is_some() && evaluator.is_none() {
        return Err(Error::InvalidArgument(format!(
            "truncation needs a policy with an evaluator; {:?} has none",
            policy.name()
        )));
    }
    let variance_reduction = options.variance_reduction && evaluator.is_some();
    let (position, opening) = match start {
        Start::Position(p) => (p, false),
        Start::Opening(p) => (p, true),
    };
    let setup = Setup {
        game,
        policy,
        evaluator,
        start: position,
        opening,
        truncate: options.truncate,
        variance_reduction,
        seed: options.seed,
        quasi_random: options.quasi_random,
        cancel: options.cancel.as_deref(),
        early: policy.deterministic().then(early_plies),
        start_value: std::sync::OnceLock::new(),
        cube: match cube {
            Some((_, CubeLines::Decision)) if opening => {
                return Err(Error::IllegalAction(
                    "nobody may double before the opening roll: there is no cube decision to roll out".into(),
                ))
            }
            Some((c, lines)) => Some((c, start_lines(c, lines)?)),
            None => None,
        },
    };
    let kind = match cube {
        None => CubeKind::None,
        Some((c, CubeLines::Cubeful)) => c.kind(),
        Some((c, CubeLines::Decision)) => match c.kind() {
            CubeKind::Match => CubeKind::MatchDecision,
            _ => CubeKind::MoneyDecision,
        },
    };
    let mut describe = format!(
        "policy={} {}={:?} truncate={:?} variance_reduction={} quasi_random={}",
        policy.name(),
        if opening { "opening" } else { "position" },
        position,
        options.truncate,
        variance_reduction,
        options.quasi_random
    );
    if let Some(weights) = policy.weights() {
        describe.push_str(&format!(" weights={weights}"));
    }
    let rules = game.rules_text();
    if !rules.is_empty() {
        describe.push_str(&format!(" rules={rules}"));
    }
    if let Some((c, lines)) = cube {
        describe.push_str(&format!(" cube={} lines={lines:?}", c.describe()));
    }
    let mut here = Worker::new(&setup);
    let block = stratum(&setup);
    let cancelled = || options.cancel.as_ref().is_some_and(|c| c.load(Ordering::Relaxed));

    let mut sums = RolloutSums::default();
    let (mut is_cancelled, mut converged) = (false, false);
    let mut batch = 4 * threads.count() as u64;
    let end = options.first_trial + options.trials;
    let mut next = options.first_trial;
    while next < end && !is_cancelled && !converged {
        if cancelled() {
            is_cancelled = true;
            break;
        }
        let hi = end.min(next + batch);
        let started = Instant::now();
        let values = run_batch(threads, &setup, &mut here, next, hi);
        for v in values {
            let Some(v) = v else {
                is_cancelled = true;
                break;
            };
            sums.add(&v.plain, &v.reduced);
            if let Some(bound) = options.max_std_error {
                let done = sums.trials;
                if done % block == 0
                    && done >= options.min_trials.max(2)
                    && sums.equity_std_error(variance_reduction, kind) < bound
                {
                    converged = true;
                    break;
                }
            }
        }
        next = hi;
        if started.elapsed() < BATCH_TIME {
            batch = (2 * batch).min(MAX_BATCH);
        }
        if let Some(report) = progress.as_mut() {
            let mut running =
                RolloutResult::from_sums(sums, variance_reduction, options.seed, options.first_trial)
                    .with_cube(kind);
            running.seconds = clock.elapsed().as_secs_f64();
            running.setup.clone_from(&describe);
            report(&running);
        }
    }
    let mut result =
        RolloutResult::from_sums(sums, variance_reduction, options.seed, options.first_trial).with_cube(kind);
    result.seconds = clock.elapsed().as_secs_f64();
    result.cancelled = is_cancelled;
    result.converged = converged;
    result.setup = describe;
    Ok(result)
}

fn stratum<G: DiceGame, P, C: RolloutCube<G::Position>>(setup: &Setup<'_, G, P, C>) -> u64 {
    if setup.opening {
        super::schedule::OPENING_OUTCOMES.len() as u64
    } else {
        36
    }
}

/// Trials `lo..hi`, in trial order; `None` from the first cancelled trial on (later ones may
/// have finished, but only a contiguous prefix is kept).
fn run_batch<G: DiceGame, P: Policy<G>, C: RolloutCube<G::Position>>(
    threads: &Threads,
    setup: &Setup<'_, G, P, C>,
    here: &mut Worker<G>,
    lo: u64,
    hi: u64,
) -> Vec<Option<TrialValues>> {
    let parallel = || {
        (0..(hi - lo) as usize)
            .into_par_iter()
            .with_min_len(2)
            .map_init(|| Worker::new(setup), |w, k| w.run(setup, lo + k as u64))
            .collect()
    };
    match threads {
        Threads::Here => (lo..hi).map(|i| here.run(setup, i)).collect(),
        Threads::Pool(pool) => pool.install(parallel),
        Threads::Global => parallel(),
    }
}
