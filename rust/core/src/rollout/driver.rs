//! The rollout driver: trials handed out one at a time to the calling thread and its helpers,
//! folded in trial order, with early stopping, cancellation and progress reports as they come.
//!
//! No thread ever waits for a batch to finish: each takes the next trial as soon as it is free,
//! and the calling thread, which plays trials too, folds whatever prefix of trials is finished
//! between its own. Batches that every thread finished before the next began left threads idle
//! at each batch's end while its last long game was played: on two threads a 1296-trial rollout
//! kept about 1.88 cores busy that way, and 1.95 this way (docs/performance.md).

use super::cube::{CubeValue, Line, Lines, NoCube, RolloutCube};
use super::stats::{CubeKind, RolloutResult, RolloutSums};
use super::trial::{early_plies, Setup, TrialValues, Worker};
use super::{RolloutOptions, Start};
use crate::dice_game::DiceGame;
use crate::error::{Error, Result};
use crate::Policy;
use std::collections::BTreeMap;
use std::fmt::Debug;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// Progress is reported about this often, so that progress and cancellation stay responsive.
const REPORT_TIME: Duration = Duration::from_millis(100);

/// A callback receiving the running result now and then, on the calling thread.
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
    let mut report = |sums: RolloutSums| {
        if let Some(report) = progress.as_mut() {
            let mut running =
                RolloutResult::from_sums(sums, variance_reduction, options.seed, options.first_trial)
                    .with_cube(kind);
            running.seconds = clock.elapsed().as_secs_f64();
            running.setup.clone_from(&describe);
            report(&running);
        }
    };
    let end = options.first_trial + options.trials;
    stream(threads, &setup, &mut here, options.first_trial..end, &mut |step| match step {
        Step::Trial(None) => {
            is_cancelled = true;
            false
        }
        Step::Trial(Some(v)) => {
            sums.add(&v.plain, &v.reduced);
            let done = sums.trials;
            let precise = |bound| {
                done % block == 0
                    && done >= options.min_trials.max(2)
                    && sums.equity_std_error(variance_reduction, kind) < bound
            };
            converged = options.max_std_error.is_some_and(precise);
            !converged
        }
        Step::Tick => {
            report(sums);
            is_cancelled = cancelled();
            !is_cancelled
        }
    });
    if !is_cancelled {
        report(sums);
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

/// What [`stream`] hands its caller.
enum Step {
    /// The values of the next trial in order; `None` if it was cancelled.
    Trial(Option<TrialValues>),
    /// Another [`REPORT_TIME`] has passed: time to report progress.
    Tick,
}

/// Most trials handed out beyond the first one not yet taken, which bounds the finished trials
/// held until those before them are taken.
const WINDOW: u64 = 4096;

/// Plays `trials` on `threads` and hands their values to `take` in trial order, with a
/// [`Step::Tick`] every [`REPORT_TIME`], until all are taken or `take` returns `false`.
///
/// The calling thread plays trials with `here` and `take`s the finished prefix between them; the
/// other threads of the pool (one fewer than it has) play trials and send them over. Whoever is
/// free takes the next trial, so nobody waits for anybody until the last trials are being played.
/// If the pool is busy with other work, the calling thread may end up playing every trial itself.
fn stream<G: DiceGame, P: Policy<G>, C: RolloutCube<G::Position>>(
    threads: &Threads,
    setup: &Setup<'_, G, P, C>,
    here: &mut Worker<G>,
    trials: std::ops::Range<u64>,
    take: &mut dyn FnMut(Step) -> bool,
) {
    let hand = Hand::new(trials, WINDOW);
    let (send, finished) = mpsc::channel::<(u64, Option<TrialValues>)>();
    let mut fold = || {
        // Trials finished out of order wait here for those before them.
        let mut done: BTreeMap<u64, Option<TrialValues>> = BTreeMap::new();
        let mut first = hand.start;
        let mut ticked = Instant::now();
        loop {
            while let Ok((trial, values)) = finished.try_recv() {
                done.insert(trial, values);
            }
            let before = first;
            while let Some(values) = done.remove(&first) {
                first += 1;
                if !take(Step::Trial(values)) {
                    return;
                }
            }
            if first == hand.end {
                return;
            }
            if first > before {
                hand.taken(first);
            }
            if ticked.elapsed() >= REPORT_TIME {
                ticked = Instant::now();
                if !take(Step::Tick) {
                    return;
                }
            }
            match hand.claim(false) {
                Some(trial) => {
                    done.insert(trial, here.run(setup, trial));
                }
                // Every trial is handed out, or the window is full: wait for the helpers'.
                None => match finished.recv_timeout(REPORT_TIME.saturating_sub(ticked.elapsed())) {
                    Ok((trial, values)) => {
                        done.insert(trial, values);
                    }
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    // A helper panicked: the scope raises it.
                    Err(mpsc::RecvTimeoutError::Disconnected) => return,
                },
            }
        }
    };
    let helpers = threads.count() - 1;
    match threads {
        Threads::Here => {
            drop(send);
            fold()
        }
        Threads::Pool(pool) => pool.in_place_scope(|scope| {
            let _stop = hand.spawn_helpers(scope, helpers, setup, send);
            fold();
        }),
        Threads::Global => rayon::in_place_scope(|scope| {
            let _stop = hand.spawn_helpers(scope, helpers, setup, send);
            fold();
        }),
    }
}

/// Hands out the trials of a [`stream`].
struct Hand {
    /// Most trials handed out beyond the first not taken ([`WINDOW`]).
    window: u64,
    start: u64,
    end: u64,
    next: AtomicU64,
    /// The first trial not yet taken, behind a lock that helpers wait on when the window is full.
    first: Mutex<u64>,
    moved: Condvar,
    /// How many helpers wait for the window to move (changed under the lock of `first`), so that
    /// the calling thread wakes them only then: a wake-up is a system call.
    waiting: AtomicUsize,
    stop: AtomicBool,
}

impl Hand {
    fn new(trials: std::ops::Range<u64>, window: u64) -> Hand {
        Hand {
            window,
            start: trials.start,
            end: trials.end,
            next: AtomicU64::new(trials.start),
            first: Mutex::new(trials.start),
            moved: Condvar::new(),
            waiting: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
        }
    }

    /// The next trial to play, if any is left, the rollout goes on and the trial is less than
    /// the window beyond the first not taken. A helper (`wait`) waits for the window to move; the
    /// calling thread, which takes the trials, does not.
    fn claim(&self, wait: bool) -> Option<u64> {
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            let trial = self.next.load(Ordering::Relaxed);
            if trial >= self.end {
                return None;
            }
            let first = self.first.lock().unwrap_or_else(|e| e.into_inner());
            if trial >= *first + self.window {
                if !wait {
                    return None;
                }
                self.waiting.fetch_add(1, Ordering::Relaxed);
                let (first, _) =
                    self.moved.wait_timeout(first, REPORT_TIME).unwrap_or_else(|e| e.into_inner());
                self.waiting.fetch_sub(1, Ordering::Relaxed);
                drop(first);
                continue;
            }
            drop(first);
            if self.next.compare_exchange(trial, trial + 1, Ordering::Relaxed, Ordering::Relaxed).is_ok() {
                return Some(trial);
            }
        }
    }

    /// Trials before `first` are taken: helpers waiting for the window to move may go on.
    fn taken(&self, first: u64) {
        let mut kept = self.first.lock().unwrap_or_else(|e| e.into_inner());
        *kept = first;
        let waiting = self.waiting.load(Ordering::Relaxed) > 0;
        drop(kept);
        if waiting {
            self.moved.notify_all();
        }
    }

    /// Hands out no more trials: helpers finish the one they are playing and stop.
    fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
        self.moved.notify_all();
    }

    /// Starts `helpers` threads on `scope` that play trials and `send` their values, and returns
    /// what stops them when dropped: the scope waits for its threads, so the calling thread must
    /// stop them even when it unwinds, and a helper that panics stops the others, so that none
    /// waits forever for a window that will not move.
    fn spawn_helpers<'s, G: DiceGame, P: Policy<G>, C: RolloutCube<G::Position>>(
        &'s self,
        scope: &rayon::Scope<'s>,
        helpers: usize,
        setup: &'s Setup<'_, G, P, C>,
        send: mpsc::Sender<(u64, Option<TrialValues>)>,
    ) -> Stop<'s> {
        for _ in 0..helpers {
            let send = send.clone();
            scope.spawn(move |_| {
                let _stop = Stop(self);
                let mut worker = Worker::new(setup);
                while let Some(trial) = self.claim(true) {
                    if send.send((trial, worker.run(setup, trial))).is_err() {
                        break;
                    }
                }
            });
        }
        Stop(self)
    }
}

/// Stops a [`Hand`] when dropped.
struct Stop<'a>(&'a Hand);

impl Drop for Stop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers_take_every_trial_once_and_stay_within_the_window() {
        let (window, end) = (8, 2_000);
        let hand = Hand::new(0..end, window);
        let (send, finished) = mpsc::channel();
        std::thread::scope(|scope| {
            for _ in 0..3 {
                let (send, hand) = (send.clone(), &hand);
                scope.spawn(move || {
                    while let Some(trial) = hand.claim(true) {
                        // The first trial not taken only grows, so this held at the claim too.
                        assert!(trial < *hand.first.lock().unwrap() + window, "{trial}");
                        send.send(trial).unwrap();
                    }
                });
            }
            drop(send);
            // Taken slowly, in order, as the calling thread folds them.
            let mut done = std::collections::BTreeSet::new();
            let mut first = 0;
            for trial in finished {
                assert!(done.insert(trial), "trial {trial} handed out twice");
                while done.remove(&first) {
                    first += 1;
                    if first % 97 == 0 {
                        std::thread::sleep(Duration::from_micros(200));
                    }
                }
                hand.taken(first);
            }
            assert_eq!(first, end);
        });
    }
}
