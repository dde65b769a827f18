//! Rollouts for Python: `rollout`, `rollout_plays`, `merge_rollouts` and `RolloutResult`.

use crate::bot::Probabilities;
use crate::cube::CubeContext;
use crate::errors::{GammonError, IntoPy};
use crate::position::{dice, Play, Position};
use crate::reader::ReadPosition;
use gammon_backgammon::{read_position, Backgammon, Position as EnginePosition};
use gammon_bot::policy::RolloutPlayer;
use gammon_bot::rollout::{
    merge, rollout_cubeful_with_progress, rollout_game, CubeKind, Moments, Progress, RolloutOptions,
    RolloutResult as EngineResult, RolloutSums, Start, CUBELESS_VALUES, VALUES,
};
use gammon_bot::BuiltinPolicy;
use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyTuple};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// The result of a rollout: cumulative probabilities (GNU Backgammon style: `win` includes
/// gammons), the cubeless equity per unit cube and standard errors, from the view of the player on
/// roll in the rolled-out position; for a cubeful rollout also the cubeful equity (and the match
/// winning chance in match play).
#[pyclass(module = "gammon", frozen)]
#[derive(Clone)]
pub struct RolloutResult {
    pub inner: EngineResult,
}

#[pymethods]
impl RolloutResult {
    /// Probability of winning (any way).
    #[getter]
    fn win(&self) -> f64 {
        self.inner.probabilities.win
    }
    /// Probability of winning a gammon or backgammon.
    #[getter]
    fn win_gammon(&self) -> f64 {
        self.inner.probabilities.win_gammon
    }
    /// Probability of winning a backgammon.
    #[getter]
    fn win_backgammon(&self) -> f64 {
        self.inner.probabilities.win_backgammon
    }
    /// Probability of losing a gammon or backgammon.
    #[getter]
    fn lose_gammon(&self) -> f64 {
        self.inner.probabilities.lose_gammon
    }
    /// Probability of losing a backgammon.
    #[getter]
    fn lose_backgammon(&self) -> f64 {
        self.inner.probabilities.lose_backgammon
    }
    /// The five probabilities together, as `Bot.evaluate` and `RankedPlay.probabilities` give
    /// them (their `equity` is computed from the five, which with variance reduction may differ
    /// slightly from this result's own `equity`).
    #[getter]
    fn probabilities(&self) -> Probabilities {
        Probabilities { inner: self.inner.probabilities }
    }
    /// Cubeless equity per unit cube.
    #[getter]
    fn equity(&self) -> f64 {
        self.inner.equity
    }
    /// Standard error of the equity (after variance reduction when it was applied).
    #[getter]
    fn std_error(&self) -> f64 {
        self.inner.std_error
    }
    /// Standard error of the equity without variance reduction.
    #[getter]
    fn plain_std_error(&self) -> f64 {
        self.inner.plain_std_error
    }
    /// Cubeful equity of the player on roll: per unit of the starting cube in money play,
    /// normalised to the starting stake in match play (equivalent to money, as `CubeAction`'s
    /// equities); None for a cubeless rollout. With variance reduction, the luck of the rolls,
    /// measured in each game's cube state by the cube model, is taken out of it. A
    /// cubeful rollout's trial stops at a pass, so its cubeless figures are those of games cut
    /// there (the evaluation at the pass), not the cubeless rollout's.
    #[getter]
    fn cubeful_equity(&self) -> Option<f64> {
        self.inner.cubeful_equity()
    }
    /// Standard error of `cubeful_equity`; None for a cubeless rollout.
    #[getter]
    fn cubeful_std_error(&self) -> Option<f64> {
        self.inner.cubeful_std_error()
    }
    /// Match winning chance of the player on roll; None unless the rollout was of a match.
    #[getter]
    fn mwc(&self) -> Option<f64> {
        self.inner.mwc()
    }
    /// Standard error of `mwc`; None unless the rollout was of a match.
    #[getter]
    fn mwc_std_error(&self) -> Option<f64> {
        self.inner.mwc_std_error()
    }
    /// Standard errors of the five probabilities, keyed like the probabilities.
    #[getter]
    fn std_errors<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let e = &self.inner.std_errors;
        let d = PyDict::new(py);
        for (name, value) in gammon_backgammon::Probabilities::NAMES.iter().zip(e.to_array()) {
            d.set_item(*name, value)?;
        }
        Ok(d)
    }
    /// Trials run.
    #[getter]
    fn trials(&self) -> u64 {
        self.inner.trials
    }
    /// Index of the first trial (trials `first_trial .. first_trial + trials` of the seed).
    #[getter]
    fn first_trial(&self) -> u64 {
        self.inner.first_trial
    }
    /// The seed of the dice.
    #[getter]
    fn seed(&self) -> u64 {
        self.inner.seed
    }
    /// Wall-clock seconds.
    #[getter]
    fn seconds(&self) -> f64 {
        self.inner.seconds
    }
    /// Stopped early by cancellation (Ctrl-C or a progress callback returning False).
    #[getter]
    fn cancelled(&self) -> bool {
        self.inner.cancelled
    }
    /// Stopped early because the standard error fell below `max_std_error`.
    #[getter]
    fn converged(&self) -> bool {
        self.inner.converged
    }
    /// Whether the luck of each roll was subtracted.
    #[getter]
    fn variance_reduction(&self) -> bool {
        self.inner.variance_reduction
    }
    /// A description of what was rolled out and how (policy and, for the net policies, a digest
    /// of the shipped weights; position, options): only results of the same setup merge.
    #[getter]
    fn setup(&self) -> &str {
        &self.inner.setup
    }
    /// Games per second.
    #[getter]
    fn games_per_second(&self) -> f64 {
        if self.inner.seconds > 0.0 {
            self.inner.trials as f64 / self.inner.seconds
        } else {
            0.0
        }
    }

    fn __repr__(&self) -> String {
        let r = &self.inner;
        let p = &r.probabilities;
        let cubeful = match (r.cubeful_equity(), r.cubeful_std_error(), r.mwc()) {
            (Some(e), Some(se), Some(mwc)) => format!("cubeful_equity={e:+.4} ± {se:.4}, mwc={mwc:.4}, "),
            (Some(e), Some(se), None) => format!("cubeful_equity={e:+.4} ± {se:.4}, "),
            _ => String::new(),
        };
        format!(
            "RolloutResult({cubeful}equity={:+.4} ± {:.4}, win={:.4}, win_gammon={:.4}, win_backgammon={:.4}, \
             lose_gammon={:.4}, lose_backgammon={:.4}, trials={})",
            r.equity,
            r.std_error,
            p.win,
            p.win_gammon,
            p.win_backgammon,
            p.lose_gammon,
            p.lose_backgammon,
            r.trials
        )
    }

    /// Pickles through the exact sums, so a result rebuilt elsewhere still merges bit for bit.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        reduce(py, &self.inner, "_rollout_result_from_state")
    }

    /// The same trials seen by the other player, exactly: win and 1 - win, gammons and
    /// backgammons swapped, the equity negated. The rollout of the position after a play,
    /// turned back to the side that made it.
    fn flipped(&self) -> RolloutResult {
        RolloutResult { inner: self.inner.flipped() }
    }
}

type MomentsState = (Vec<i128>, Vec<i128>);
/// What a pickled rollout result holds: its exact sums and the facts that decide what it merges
/// with, the last being the kind of cubeful figures (`CubeKind::name`).
pub type ResultState = (u64, MomentsState, MomentsState, bool, u64, u64, (String, f64, bool, bool), String);
/// The state pickled before cubeful rollouts: no kind, and seven sums of each moment.
type CubelessState = (u64, MomentsState, MomentsState, bool, u64, u64, (String, f64, bool, bool));

/// `__reduce__` for a rollout result of either game: `rebuild` (a function of `gammon._core`)
/// called with its state.
pub fn reduce<'py>(
    py: Python<'py>,
    r: &EngineResult,
    rebuild: &str,
) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
    let moments = |m: &Moments| (m.sum.to_vec(), m.sum_sq.to_vec());
    let state: ResultState = (
        r.sums.trials,
        moments(&r.sums.plain),
        moments(&r.sums.reduced),
        r.variance_reduction,
        r.seed,
        r.first_trial,
        (r.setup.clone(), r.seconds, r.cancelled, r.converged),
        r.cube.name().to_string(),
    );
    // `rebuild` is a dotted name under `gammon._core`, so submodules' results pickle too.
    let mut function = py.import("gammon._core")?.into_any();
    for name in rebuild.split('.') {
        function = function.getattr(name)?;
    }
    Ok((function, PyTuple::new(py, [state.into_pyobject(py)?])?))
}

/// The engine result a pickled state describes, checked: a state that no rollout can give
/// (means out of range, sums of squares that do not fit the sums, too many trials) is refused
/// with a `GammonError`, never turned into a result that misreports or breaks a later merge.
pub fn from_state(state: &Bound<'_, PyAny>) -> PyResult<EngineResult> {
    let state: ResultState = match state.extract::<CubelessState>() {
        Ok((a, b, c, d, e, f, g)) => (a, b, c, d, e, f, g, CubeKind::None.name().to_string()),
        Err(_) => state
            .extract()
            .map_err(|e| GammonError::new_err(format!("not the state of a pickled rollout result: {e}")))?,
    };
    let (trials, plain, reduced, vr, seed, first_trial, (setup, seconds, cancelled, converged), kind) = state;
    let kind = CubeKind::from_name(&kind).py_err()?;
    let moments = |(sum, sum_sq): MomentsState| -> PyResult<Moments> {
        let all = |mut v: Vec<i128>| -> PyResult<[i128; VALUES]> {
            // A cubeless result pickled before the cube values existed: they are zeros.
            if v.len() == CUBELESS_VALUES && kind == CubeKind::None {
                v.resize(VALUES, 0);
            }
            v.try_into().map_err(|_| {
                GammonError::new_err(format!(
                    "a pickled rollout result needs {VALUES} sums ({CUBELESS_VALUES} sums for a cubeless \
                         result pickled before cubeful rollouts)"
                ))
            })
        };
        Ok(Moments { sum: all(sum)?, sum_sq: all(sum_sq)? })
    };
    let sums = RolloutSums { trials, plain: moments(plain)?, reduced: moments(reduced)? };
    sums.validate().py_err()?;
    if first_trial.checked_add(trials).is_none_or(|end| end > gammon_bot::rollout::MAX_TRIAL_INDEX) {
        return Err(GammonError::new_err(format!(
            "a pickled rollout result of trials {first_trial}.. plus {trials} goes beyond trial 2^60"
        )));
    }
    if !(seconds.is_finite() && seconds >= 0.0) {
        return Err(GammonError::new_err(format!("a pickled rollout result took {seconds} seconds")));
    }
    let mut inner = EngineResult::from_sums(sums, vr, seed, first_trial).with_cube(kind);
    inner.setup = setup;
    inner.seconds = seconds;
    inner.cancelled = cancelled;
    inner.converged = converged;
    Ok(inner)
}

/// Rebuilds a pickled `RolloutResult`.
#[pyfunction]
fn _rollout_result_from_state(state: &Bound<'_, PyAny>) -> PyResult<RolloutResult> {
    Ok(RolloutResult { inner: from_state(state)? })
}

/// The start of a rollout: a `Position`, a `ReadPosition`, or text in any notation of
/// `read_position`, where `"opening"` is the position before the opening roll.
fn start(position: &Bound<'_, PyAny>) -> PyResult<Start<EnginePosition>> {
    if let Ok(p) = position.downcast::<Position>() {
        return Ok(Start::Position(p.get().inner));
    }
    if let Ok(read) = position.downcast::<ReadPosition>() {
        return read.get().inner.rollout_start().py_err();
    }
    if let Ok(text) = position.extract::<String>() {
        return read_position(&text).py_err()?.rollout_start().py_err();
    }
    Err(GammonError::new_err(format!(
        "position must be a gammon.Position or text such as a Position ID or \"opening\", got {}",
        position.repr().map(|r| r.to_string()).unwrap_or_default()
    )))
}

#[allow(clippy::too_many_arguments)]
fn options(
    trials: u64,
    seed: u64,
    threads: Option<usize>,
    truncate: Option<u32>,
    variance_reduction: bool,
    first_trial: u64,
    max_std_error: Option<f64>,
    cancel: Arc<AtomicBool>,
) -> RolloutOptions {
    RolloutOptions {
        trials,
        first_trial,
        seed,
        threads,
        truncate,
        variance_reduction,
        max_std_error,
        cancel: Some(cancel),
        ..RolloutOptions::default()
    }
}

/// A rollout's `ply=`: 0 or 1, anything else a `GammonError` naming it.
pub(crate) fn ply_arg(value: &Bound<'_, PyAny>) -> PyResult<u8> {
    Ok(crate::args::int_in(value, "ply", 0, 1)? as u8)
}

/// `rollout(position, trials=1296, seed=0, ...)`; see `gammon.rollout` for the documentation.
#[pyfunction]
#[pyo3(signature = (position, trials=1296, seed=0, threads=None, policy="net", truncate=None,
                    variance_reduction=true, first_trial=0, max_std_error=None, progress=None,
                    context=None, ply=0))]
#[allow(clippy::too_many_arguments)]
fn rollout(
    py: Python<'_>,
    position: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::args::trials)] trials: u64,
    #[pyo3(from_py_with = crate::args::dice_seed)] seed: u64,
    threads: Option<&Bound<'_, PyAny>>,
    policy: &str,
    truncate: Option<u32>,
    variance_reduction: bool,
    #[pyo3(from_py_with = crate::args::first_trial)] first_trial: u64,
    max_std_error: Option<f64>,
    progress: Option<PyObject>,
    context: Option<&CubeContext>,
    #[pyo3(from_py_with = ply_arg)] ply: u8,
) -> PyResult<RolloutResult> {
    let start = start(position)?;
    let threads = crate::args::threads(threads)?;
    let policy = RolloutPlayer::new(policy, ply).py_err()?;
    let context = context.map(|c| c.inner);
    let cancel = Arc::new(AtomicBool::new(false));
    let options = options(
        trials,
        seed,
        threads,
        truncate,
        variance_reduction,
        first_trial,
        max_std_error,
        cancel.clone(),
    );
    let wrap = |py: Python<'_>, partial: EngineResult| {
        Ok(RolloutResult { inner: partial }.into_pyobject(py)?.into_any().unbind())
    };
    let result = with_progress(py, progress.as_ref(), &cancel, wrap, |report| match context {
        None => rollout_game(&Backgammon, start, &policy, &options, Some(report)),
        Some(ctx) => rollout_cubeful_with_progress(start, &policy, &ctx, ply, &options, Some(report)),
    })?;
    Ok(RolloutResult { inner: result.py_err()? })
}

/// Runs `run` with the GIL released, giving it a progress report that calls `progress` with
/// each running result (made a Python object by `wrap`) and checks for Ctrl-C. An explicit `False`
/// from the callback, an error it raises or Ctrl-C set `cancel`, which stops the rollout; the
/// error is raised afterwards, except KeyboardInterrupt, which leaves the partial result.
pub(crate) fn with_progress<T: Send>(
    py: Python<'_>,
    progress: Option<&PyObject>,
    cancel: &AtomicBool,
    wrap: fn(Python<'_>, EngineResult) -> PyResult<PyObject>,
    run: impl FnOnce(Progress<'_>) -> T + Send,
) -> PyResult<T> {
    let mut failure: Option<PyErr> = None;
    let result = py.allow_threads(|| {
        let mut on_batch = |partial: &EngineResult| {
            Python::with_gil(|py| {
                let outcome = py.check_signals().and_then(|_| match progress {
                    Some(callback) => {
                        let answer = callback.call1(py, (wrap(py, partial.clone())?,))?;
                        // Only an explicit False stops; a callback that returns None goes on.
                        Ok(!answer.bind(py).is(PyBool::new(py, false)))
                    }
                    None => Ok(true),
                });
                match outcome {
                    Ok(true) => {}
                    Ok(false) => cancel.store(true, Ordering::Relaxed),
                    Err(e) => {
                        cancel.store(true, Ordering::Relaxed);
                        failure = Some(e);
                    }
                }
            })
        };
        run(&mut on_batch)
    });
    match failure {
        Some(e) if !e.is_instance_of::<PyKeyboardInterrupt>(py) => Err(e),
        _ => Ok(result),
    }
}

/// `rollout_plays(position, d1, d2, ...)`: every legal play rolled out, best first.
#[pyfunction]
#[pyo3(signature = (position, d1, d2, trials=1296, seed=0, threads=None, policy="net", truncate=None,
                    variance_reduction=true))]
#[allow(clippy::too_many_arguments)]
fn rollout_plays(
    py: Python<'_>,
    position: &Position,
    d1: &Bound<'_, PyAny>,
    d2: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = crate::args::trials)] trials: u64,
    #[pyo3(from_py_with = crate::args::dice_seed)] seed: u64,
    threads: Option<&Bound<'_, PyAny>>,
    policy: &str,
    truncate: Option<u32>,
    variance_reduction: bool,
) -> PyResult<Vec<(Play, RolloutResult)>> {
    let dice = dice(d1, d2)?;
    let threads = crate::args::threads(threads)?;
    let policy = BuiltinPolicy::from_name(policy).py_err()?;
    let options =
        RolloutOptions { trials, seed, threads, truncate, variance_reduction, ..RolloutOptions::default() };
    let ranked = py
        .allow_threads(|| gammon_bot::rollout::rollout_plays(&position.inner, dice, &policy, &options))
        .py_err()?;
    Ok(ranked.into_iter().map(|r| (Play { inner: r.play }, RolloutResult { inner: r.result })).collect())
}

/// `policy_play(position, d1, d2, policy="net", seed=0)`: the play a rollout policy makes of a
/// roll, as it would inside a rollout.
#[pyfunction]
#[pyo3(signature = (position, d1, d2, policy="net", seed=0))]
fn policy_play(
    py: Python<'_>,
    position: &Position,
    d1: &Bound<'_, PyAny>,
    d2: &Bound<'_, PyAny>,
    policy: &str,
    #[pyo3(from_py_with = crate::args::dice_seed)] seed: u64,
) -> PyResult<Play> {
    let dice = dice(d1, d2)?;
    let policy = BuiltinPolicy::from_name(policy).py_err()?;
    let p = position.inner;
    Ok(Play { inner: py.allow_threads(|| policy.play(&p, dice, seed)).py_err()? })
}

/// `merge_rollouts(results)`: consecutive parts of one rollout combined exactly.
#[pyfunction]
fn merge_rollouts(results: Vec<PyRef<'_, RolloutResult>>) -> PyResult<RolloutResult> {
    let parts: Vec<EngineResult> = results.iter().map(|r| r.inner.clone()).collect();
    Ok(RolloutResult { inner: merge(&parts).py_err()? })
}

/// `max_threads()`: the most worker threads one rollout may ask for on this machine (4 per core,
/// and at least 256), the bound `threads=` is checked against.
#[pyfunction]
fn max_threads() -> usize {
    gammon_bot::rollout::max_threads()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RolloutResult>()?;
    // The most trials one rollout runs (2^30), the bound `trials=` is checked against.
    m.add("MAX_TRIALS", gammon_bot::rollout::MAX_TRIALS)?;
    m.add_function(wrap_pyfunction!(max_threads, m)?)?;
    m.add_function(wrap_pyfunction!(rollout, m)?)?;
    m.add_function(wrap_pyfunction!(rollout_plays, m)?)?;
    m.add_function(wrap_pyfunction!(merge_rollouts, m)?)?;
    m.add_function(wrap_pyfunction!(policy_play, m)?)?;
    m.add_function(wrap_pyfunction!(_rollout_result_from_state, m)?)?;
    Ok(())
}
